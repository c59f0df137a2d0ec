/* compile.c -- a read model (cat_prog) into the flat operations eval.c
 * runs (catint.h), once per model.
 *
 * Only what some check needs is compiled: a backward pass over the
 * statements marks the variables the checks (flags included) reach, and
 * the rest is dropped; so wl__cat_uses_rel/set report the base names
 * that really matter.  Registers are assigned as the tree is walked:
 * an expression's intermediate results go back to a free list as soon
 * as their one consumer has run, while a variable keeps its register
 * for the rest of the model.  A let of a bare name shares that name's
 * register.
 *
 * A let rec group becomes: its variables set to empty; the bodies, each
 * followed by an update of its variable (in place, so later bodies of
 * the same round see it: Gauss-Seidel, which reaches the same least
 * fixpoint for monotone bodies); a loop back while anything changed.
 *
 * Two shapes get their own operation, because models are full of them:
 * [S]; r (rows filtered) and r; [S] (columns masked), which would
 * otherwise compose with a diagonal relation. */
#include <assert.h>
#include <string.h>

#include "catint.h"

typedef struct comp {
  cat_prog *p;
  wl_ctx *ctx;
  wl_vec ops;          /* cat_op */
  wl_vec rfree, sfree; /* int: free scratch registers */
  int nrel, nset;      /* registers so far */
  uint64_t uses_rel, uses_set;
} comp;

#define NODE(i) WL_VEC_AT(&C->p->nodes, cat_node, i)
#define VAR(i) WL_VEC_AT(&C->p->vars, cat_var, i)
#define STMT(i) WL_VEC_AT(&C->p->stmts, cat_stmt, i)

/* ---------------------------------------------------------------- */
/* Liveness                                                          */

/* Marks the variables tree i reads; *grew when one was new. */
static void mark(comp *C, int i, int *grew) {
  const cat_node *n = &NODE(i);
  switch (n->kind) {
  case N_VAR:
    if (!VAR(n->a).live) {
      VAR(n->a).live = 1;
      *grew = 1;
    }
    return;
  case N_BSET:
  case N_BREL:
  case N_ZERO:
    return;
  case N_UNION:
  case N_INTER:
  case N_DIFF:
  case N_SEQ:
  case N_CART:
    mark(C, n->a, grew);
    mark(C, n->b, grew);
    return;
  default:
    mark(C, n->a, grew);
    return;
  }
}

/* A variable reads only earlier ones or its own let rec group, so one
 * backward pass suffices, with a fixpoint inside each group. */
static void liveness(comp *C) {
  size_t k = C->p->stmts.n;
  while (k-- > 0) {
    const cat_stmt *s = &STMT(k);
    int grew = 0, v;
    if (s->kind == ST_CHECK) {
      mark(C, s->node, &grew);
      continue;
    }
    do {
      grew = 0;
      for (v = s->var0; v < s->var0 + s->nvar; v++)
        if (VAR(v).live && !VAR(v).marked) {
          VAR(v).marked = 1;
          mark(C, VAR(v).body, &grew);
        }
    } while (s->kind == ST_REC && grew);
  }
}

/* ---------------------------------------------------------------- */
/* Registers and operations                                          */

static int emit(comp *C, int op, int d, int a, int b, int c) {
  cat_op *o = wl__vec_push(C->ctx, &C->ops);
  if (o == NULL)
    return WL_ENOMEM;
  o->op = op;
  o->d = d;
  o->a = a;
  o->b = b;
  o->c = c;
  return 0;
}

static int alloc_reg(comp *C, int ty, int *out) {
  wl_vec *fl = ty == CAT_SET ? &C->sfree : &C->rfree;
  if (fl->n > 0) {
    *out = WL_VEC_AT(fl, int, fl->n - 1);
    fl->n--;
    return 0;
  }
  if (ty == CAT_SET) {
    *out = C->nset++;
    return 0;
  }
  *out = C->nrel++;
  return 0;
}

/* Gives back a scratch result (temp) after its one use. */
static int release(comp *C, int ty, int reg, int temp) {
  int *slot;
  if (!temp)
    return 0;
  slot = wl__vec_push(C->ctx, ty == CAT_SET ? &C->sfree : &C->rfree);
  if (slot == NULL)
    return WL_ENOMEM;
  *slot = reg;
  return 0;
}

/* Tree i into operations; its register in *reg, *temp when it is a
 * scratch result the caller must release. */
static int gen(comp *C, int i, int *reg, int *temp);

/* Operands a (and b, when b >= 0), then one operation into a new
 * register. */
static int gen_op(comp *C, int op, int ty, int a, int aty, int b,
                  int bty, int *reg, int *temp) {
  int ra = 0, rb = 0, ta = 0, tb = 0, r;
  if ((r = gen(C, a, &ra, &ta)) != 0)
    return r;
  if (b >= 0 && (r = gen(C, b, &rb, &tb)) != 0)
    return r;
  if ((r = alloc_reg(C, ty, reg)) != 0 ||
      (r = emit(C, op, *reg, ra, rb, 0)) != 0 ||
      (r = release(C, aty, ra, ta)) != 0)
    return r;
  if (b >= 0 && (r = release(C, bty, rb, tb)) != 0)
    return r;
  *temp = 1;
  return 0;
}

static int gen(comp *C, int i, int *reg, int *temp) {
  const cat_node n = NODE(i);
  const int S = CAT_SET, R = CAT_REL, set = n.ty == CAT_SET;
  int r;
  *temp = 0;
  switch (n.kind) {
  case N_VAR:
    /* Live variables are computed before anything reads them. */
    assert(VAR(n.a).reg >= 0);
    *reg = VAR(n.a).reg;
    return 0;
  case N_BSET:
    C->uses_set |= (uint64_t)1 << n.a;
    *reg = n.a;
    return 0;
  case N_BREL:
    C->uses_rel |= (uint64_t)1 << n.a;
    *reg = n.a;
    return 0;
  case N_ZERO:
    if ((r = alloc_reg(C, n.ty, reg)) != 0)
      return r;
    *temp = 1;
    return emit(C, set ? OP_S_ZERO : OP_R_ZERO, *reg, 0, 0, 0);
  case N_UNION:
    return gen_op(C, set ? OP_S_UNION : OP_R_UNION, n.ty, n.a, n.ty, n.b,
                  n.ty, reg, temp);
  case N_INTER:
    return gen_op(C, set ? OP_S_INTER : OP_R_INTER, n.ty, n.a, n.ty, n.b,
                  n.ty, reg, temp);
  case N_DIFF:
    return gen_op(C, set ? OP_S_DIFF : OP_R_DIFF, n.ty, n.a, n.ty, n.b,
                  n.ty, reg, temp);
  case N_SEQ:
    /* r; [S] masks columns; [S]; r filters rows. */
    if (NODE(n.b).kind == N_TOID)
      return gen_op(C, OP_R_RNGF, R, n.a, R, NODE(n.b).a, S, reg, temp);
    if (NODE(n.a).kind == N_TOID)
      return gen_op(C, OP_R_DOMF, R, NODE(n.a).a, S, n.b, R, reg, temp);
    return gen_op(C, OP_R_SEQ, R, n.a, R, n.b, R, reg, temp);
  case N_CART:
    return gen_op(C, OP_R_CART, R, n.a, S, n.b, S, reg, temp);
  case N_TOID:
    return gen_op(C, OP_R_TOID, R, n.a, S, -1, 0, reg, temp);
  case N_INV:
    return gen_op(C, OP_R_INV, R, n.a, R, -1, 0, reg, temp);
  case N_PLUS:
    return gen_op(C, OP_R_PLUS, R, n.a, R, -1, 0, reg, temp);
  case N_STAR:
    return gen_op(C, OP_R_STAR, R, n.a, R, -1, 0, reg, temp);
  case N_OPT:
    return gen_op(C, OP_R_OPT, R, n.a, R, -1, 0, reg, temp);
  case N_COMPL:
    return gen_op(C, set ? OP_S_COMPL : OP_R_COMPL, n.ty, n.a, n.ty, -1, 0,
                  reg, temp);
  case N_DOMAIN:
    return gen_op(C, OP_S_DOMAIN, S, n.a, R, -1, 0, reg, temp);
  case N_RANGE:
    return gen_op(C, OP_S_RANGE, S, n.a, R, -1, 0, reg, temp);
  default:
    return 0;
  }
}

/* ---------------------------------------------------------------- */
/* Statements                                                        */

static int gen_let(comp *C, const cat_stmt *s) {
  int v, r, temp;
  for (v = s->var0; v < s->var0 + s->nvar; v++) {
    if (!VAR(v).live)
      continue;
    /* The variable keeps the body's register (never released). */
    if ((r = gen(C, VAR(v).body, &VAR(v).reg, &temp)) != 0)
      return r;
  }
  return 0;
}

static int gen_rec(comp *C, const cat_stmt *s) {
  int v, r, loop, nlive = 0, reg, temp;
  for (v = s->var0; v < s->var0 + s->nvar; v++) {
    int set = VAR(v).ty == CAT_SET;
    if (!VAR(v).live)
      continue;
    nlive++;
    if ((r = alloc_reg(C, VAR(v).ty, &VAR(v).reg)) != 0 ||
        (r = emit(C, set ? OP_S_ZERO : OP_R_ZERO, VAR(v).reg, 0, 0, 0)) !=
            0)
      return r;
  }
  if (nlive == 0)
    return 0;
  loop = (int)C->ops.n;
  for (v = s->var0; v < s->var0 + s->nvar; v++) {
    int set = VAR(v).ty == CAT_SET;
    if (!VAR(v).live)
      continue;
    if ((r = gen(C, VAR(v).body, &reg, &temp)) != 0 ||
        (r = emit(C, set ? OP_S_UPD : OP_R_UPD, VAR(v).reg, reg, 0, 0)) !=
            0 ||
        (r = release(C, VAR(v).ty, reg, temp)) != 0)
      return r;
  }
  return emit(C, OP_LOOP, loop, 0, 0, nlive);
}

static int gen_check(comp *C, const cat_stmt *s, int index) {
  int reg, temp, r, op, ty = NODE(s->node).ty;
  if ((r = gen(C, s->node, &reg, &temp)) != 0)
    return r;
  switch (s->test) {
  case CHK_ACYCLIC:
    op = OP_CHK_ACYCLIC;
    break;
  case CHK_IRREFLEXIVE:
    op = OP_CHK_IRREFL;
    break;
  default:
    op = ty == CAT_SET ? OP_CHK_EMPTY_S : OP_CHK_EMPTY_R;
    break;
  }
  if ((r = emit(C, op, index, reg, s->neg, s->flag)) != 0)
    return r;
  return release(C, ty, reg, temp);
}

/* The names of the checks, then of the flags, into m. */
static int names(comp *C, wl_cat *m) {
  static const char *const test_names[] = {"acyclic", "irreflexive",
                                           "empty"};
  wl_buf b;
  size_t k, *off;
  int pass, idx = 0, r = 0;
  off = wl__alloc(C->ctx, (size_t)(m->nchecks + m->nflags + 1) *
                              sizeof *off);
  if (off == NULL)
    return WL_ENOMEM;
  wl__buf_init(&b, C->ctx);
  for (pass = 0; pass < 2; pass++) {
    int count = 0;
    for (k = 0; k < C->p->stmts.n; k++) {
      const cat_stmt *s = &STMT(k);
      if (s->kind != ST_CHECK || s->flag != pass)
        continue;
      off[idx++] = b.n;
      if (s->name != (size_t)-1)
        wl__buf_puts(&b, C->p->cnames.p + s->name);
      else
        wl__buf_printf(&b, "%s %d (%s%s)", pass ? "flag" : "check", count,
                       s->neg ? "~" : "", test_names[s->test]);
      wl__buf_add(&b, "", 1);
      count++;
    }
  }
  if (b.oom || b.p == NULL) {
    /* b.p is NULL only for a model with no checks: no names at all. */
    if (b.oom)
      r = WL_ENOMEM;
    wl__buf_free(&b);
    if (r != 0) {
      wl__free(C->ctx, off, (size_t)(m->nchecks + m->nflags + 1) *
                                sizeof *off);
      return r;
    }
  }
  m->name_off = off;
  m->names = b.p;
  m->names_size = b.cap;
  return 0;
}

static void comp_free(comp *C) {
  wl__vec_free(C->ctx, &C->ops);
  wl__vec_free(C->ctx, &C->rfree);
  wl__vec_free(C->ctx, &C->sfree);
}

int wl__cat_compile(cat_prog *p, wl_cat **out) {
  comp Cs, *C = &Cs;
  wl_cat *m;
  size_t k;
  int r = 0, check = 0, flag = 0;
  *out = NULL;
  memset(C, 0, sizeof *C);
  C->p = p;
  C->ctx = p->ctx;
  C->nrel = WL_CAT_NRELS;
  C->nset = WL_CAT_NSETS;
  wl__vec_init(&C->ops, sizeof(cat_op));
  wl__vec_init(&C->rfree, sizeof(int));
  wl__vec_init(&C->sfree, sizeof(int));
  liveness(C);
  for (k = 0; r == 0 && k < p->stmts.n; k++) {
    const cat_stmt *s = &STMT(k);
    if (s->kind == ST_LET)
      r = gen_let(C, s);
    else if (s->kind == ST_REC)
      r = gen_rec(C, s);
    else
      r = gen_check(C, s, s->flag ? flag++ : check++);
  }
  m = r == 0 ? wl__calloc(C->ctx, sizeof *m) : NULL;
  if (m == NULL) {
    comp_free(C);
    return wl__err(C->ctx, WL_ENOMEM, "out of memory");
  }
  m->ctx = C->ctx;
  m->nrel = C->nrel;
  m->nset = C->nset;
  m->nchecks = p->nchecks;
  m->nflags = p->nflags;
  m->uses_rel = C->uses_rel;
  m->uses_set = C->uses_set;
  if (names(C, m) != 0) {
    wl__free(C->ctx, m, sizeof *m);
    comp_free(C);
    return wl__err(C->ctx, WL_ENOMEM, "out of memory");
  }
  /* The operations move into the model, and so does the title. */
  m->ops = C->ops.p;
  m->nops = C->ops.n;
  m->ops_cap = C->ops.cap;
  C->ops.p = NULL;
  C->ops.n = C->ops.cap = 0;
  m->title = p->title;
  p->title = NULL;
  comp_free(C);
  *out = m;
  return 0;
}
