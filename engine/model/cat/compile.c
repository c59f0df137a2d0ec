/* compile.c -- a read model (cat_prog) into the flat operations eval.c
 * runs (catint.h), once per model.
 *
 * Three passes:
 *   liveness  a backward pass over the statements marks the variables
 *             the checks (flags included) reach; the rest is dropped, so
 *             wl__cat_uses_rel/set report the base names that matter;
 *   numbering every live expression gets a value number: equal
 *             operations on equal operands (| and & in either order)
 *             share one number, so a subexpression the model spells
 *             several times (po?, M * M, [strong-write]) is computed
 *             once.  A variable is the number of its body; a let rec
 *             name is a number of its own;
 *   emission  each number becomes one operation, in statement order,
 *             into its own register (registers are never reused: a
 *             relation costs only n rows at evaluation, eval.c).
 *
 * A let rec group becomes: its names set to empty; the loop-invariant
 * parts of its bodies (those that read no name of the group), hoisted
 * before the loop; the rest of each body followed by an update of its
 * name; a loop back while anything changed.  Names are updated in place
 * and shared parts computed once per round, so a round may read values
 * of the same round or the previous one.  For monotone bodies this
 * chaotic iteration stays below the least fixpoint and stops only on a
 * round that changes nothing, i.e. at the least fixpoint.
 *
 * [S]; r (rows filtered), r; [S] (columns masked) and [A]; r; [B] get
 * operations of their own: models are full of them, and composing with
 * a diagonal relation would be wasted work. */
#include <string.h>

#include "catint.h"

/* A value: an operation (OP_*) on the values a, b, c, or a register
 * given from the start (a base name; VN_REG), or a let rec name
 * (VN_REC). */
enum { VN_REG = -1, VN_REC = -2 };

typedef struct vnum {
  int op, ty;
  int a, b, c; /* values (or 0) */
  int group;   /* the latest let rec group it reads (a statement), -1 */
  int reg;     /* its register once emitted, else -1 */
  int seen;    /* hoisting: the last group that walked it, -1 */
} vnum;

typedef struct comp {
  cat_prog *p;
  wl_ctx *ctx;
  wl_vec ops; /* cat_op */
  vnum *vn;   /* the values */
  int nvn, capvn;
  int *hash; /* open addressing over vn (-1: empty), size caphash */
  int caphash;
  int nrel, nset; /* registers so far */
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
/* Value numbering                                                   */

static unsigned vhash(int op, int ty, int a, int b, int c) {
  unsigned h = 2166136261u;
  h = (h ^ (unsigned)op) * 16777619u;
  h = (h ^ (unsigned)ty) * 16777619u;
  h = (h ^ (unsigned)a) * 16777619u;
  h = (h ^ (unsigned)b) * 16777619u;
  h = (h ^ (unsigned)c) * 16777619u;
  return h;
}

/* The value of op over a, b, c: an existing one, or a new one.  Every
 * value comes from a node or a variable, so capvn (nodes + variables +
 * base names) is never exceeded, nor half of caphash. */
static int value(comp *C, int op, int ty, int a, int b, int c) {
  unsigned mask = (unsigned)C->caphash - 1, h;
  vnum *v;
  int i, group = -1;
  if (op >= 0) {
    /* | and & in either order are one value. */
    if ((op == OP_R_UNION || op == OP_R_INTER || op == OP_S_UNION ||
         op == OP_S_INTER) &&
        a > b) {
      int t = a;
      a = b;
      b = t;
    }
    h = vhash(op, ty, a, b, c) & mask;
    for (; C->hash[h] >= 0; h = (h + 1) & mask) {
      v = &C->vn[C->hash[h]];
      if (v->op == op && v->ty == ty && v->a == a && v->b == b &&
          v->c == c)
        return C->hash[h];
    }
    group = C->vn[a].group;
    if (C->vn[b].group > group)
      group = C->vn[b].group;
    if (C->vn[c].group > group)
      group = C->vn[c].group;
  } else {
    h = 0;
  }
  i = C->nvn++;
  v = &C->vn[i];
  v->op = op;
  v->ty = ty;
  v->a = a;
  v->b = b;
  v->c = c;
  v->group = group;
  v->reg = -1;
  v->seen = -1;
  if (op >= 0)
    C->hash[h] = i;
  return i;
}

static int toid_set(comp *C, int v) {
  return C->vn[v].op == OP_R_TOID ? C->vn[v].a : -1;
}

/* The value of tree i. */
static int number(comp *C, int i) {
  const cat_node n = NODE(i);
  const int set = n.ty == CAT_SET, R = CAT_REL, S = CAT_SET;
  int a, b, sa, sb;
  switch (n.kind) {
  case N_VAR:
    return VAR(n.a).vn;
  case N_BSET:
    C->uses_set |= (uint64_t)1 << n.a;
    return n.a + 1; /* the base values follow value 0 (see below) */
  case N_BREL:
    C->uses_rel |= (uint64_t)1 << n.a;
    return WL_CAT_NSETS + 1 + n.a;
  case N_ZERO:
    return value(C, set ? OP_S_ZERO : OP_R_ZERO, n.ty, 0, 0, 0);
  default:
    break;
  }
  a = number(C, n.a);
  b = 0;
  switch (n.kind) {
  case N_UNION:
  case N_INTER:
  case N_DIFF:
  case N_SEQ:
  case N_CART:
    b = number(C, n.b);
    break;
  default:
    break;
  }
  switch (n.kind) {
  case N_UNION:
    return value(C, set ? OP_S_UNION : OP_R_UNION, n.ty, a, b, 0);
  case N_INTER:
    return value(C, set ? OP_S_INTER : OP_R_INTER, n.ty, a, b, 0);
  case N_DIFF:
    return value(C, set ? OP_S_DIFF : OP_R_DIFF, n.ty, a, b, 0);
  case N_SEQ:
    sa = toid_set(C, a);
    sb = toid_set(C, b);
    if (sb >= 0) {
      /* r; [B], or [A]; r; [B]. */
      if (C->vn[a].op == OP_R_DOMF)
        return value(C, OP_R_FILT, R, C->vn[a].a, C->vn[a].b, sb);
      return value(C, OP_R_RNGF, R, a, sb, 0);
    }
    if (sa >= 0) {
      if (C->vn[b].op == OP_R_RNGF)
        return value(C, OP_R_FILT, R, sa, C->vn[b].a, C->vn[b].b);
      return value(C, OP_R_DOMF, R, sa, b, 0);
    }
    return value(C, OP_R_SEQ, R, a, b, 0);
  case N_CART:
    return value(C, OP_R_CART, R, a, b, 0);
  case N_TOID:
    return value(C, OP_R_TOID, R, a, 0, 0);
  case N_INV:
    return value(C, OP_R_INV, R, a, 0, 0);
  case N_PLUS:
    return value(C, OP_R_PLUS, R, a, 0, 0);
  case N_STAR:
    return value(C, OP_R_STAR, R, a, 0, 0);
  case N_OPT:
    return value(C, OP_R_OPT, R, a, 0, 0);
  case N_COMPL:
    return value(C, set ? OP_S_COMPL : OP_R_COMPL, n.ty, a, 0, 0);
  case N_DOMAIN:
    return value(C, OP_S_DOMAIN, S, a, 0, 0);
  case N_RANGE:
    return value(C, OP_S_RANGE, S, a, 0, 0);
  default:
    return 0;
  }
}

/* ---------------------------------------------------------------- */
/* Emission                                                          */

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

static int new_reg(comp *C, int ty) {
  return ty == CAT_SET ? C->nset++ : C->nrel++;
}

/* How many operands of a value's operation are values. */
static int noperands(int op) {
  if (op < 0)
    return 0; /* VN_REG, VN_REC */
  switch (op) {
  case OP_R_ZERO:
  case OP_S_ZERO:
    return 0;
  case OP_R_UNION:
  case OP_R_INTER:
  case OP_R_DIFF:
  case OP_R_SEQ:
  case OP_R_DOMF:
  case OP_R_RNGF:
  case OP_R_CART:
  case OP_S_UNION:
  case OP_S_INTER:
  case OP_S_DIFF:
    return 2;
  case OP_R_FILT:
    return 3;
  default:
    return 1;
  }
}

/* Emits value v (and first what it reads) unless it is already.  The
 * recursion is bounded by the depth of one statement's trees: what
 * earlier statements define is emitted by then. */
static int emit_value(comp *C, int v) {
  vnum *x = &C->vn[v];
  int k = noperands(x->op), r;
  if (x->reg >= 0)
    return 0;
  if (k >= 1 && (r = emit_value(C, x->a)) != 0)
    return r;
  if (k >= 2 && (r = emit_value(C, x->b)) != 0)
    return r;
  if (k >= 3 && (r = emit_value(C, x->c)) != 0)
    return r;
  x = &C->vn[v];
  x->reg = new_reg(C, x->ty);
  return emit(C, x->op, x->reg, k >= 1 ? C->vn[x->a].reg : 0,
              k >= 2 ? C->vn[x->b].reg : 0, k >= 3 ? C->vn[x->c].reg : 0);
}

/* Emits, before a let rec group's loop, the parts of value v that do
 * not read the group. */
static int hoist(comp *C, int v, int group) {
  vnum *x = &C->vn[v];
  int k = noperands(x->op), r;
  if (x->reg >= 0 || x->seen == group)
    return 0;
  if (x->group != group)
    return emit_value(C, v);
  x->seen = group;
  if (k >= 1 && (r = hoist(C, x->a, group)) != 0)
    return r;
  if (k >= 2 && (r = hoist(C, x->b, group)) != 0)
    return r;
  if (k >= 3 && (r = hoist(C, x->c, group)) != 0)
    return r;
  return 0;
}

static int gen_let(comp *C, const cat_stmt *s) {
  int v, r;
  for (v = s->var0; v < s->var0 + s->nvar; v++) {
    if (!VAR(v).live)
      continue;
    VAR(v).vn = number(C, VAR(v).body);
    if ((r = emit_value(C, VAR(v).vn)) != 0)
      return r;
  }
  return 0;
}

static int gen_rec(comp *C, const cat_stmt *s, int group) {
  int v, r, loop, nlive = 0;
  /* The names first (the bodies read them), then the bodies. */
  for (v = s->var0; v < s->var0 + s->nvar; v++) {
    vnum *x;
    if (!VAR(v).live)
      continue;
    nlive++;
    VAR(v).vn = value(C, VN_REC, VAR(v).ty, 0, 0, 0);
    x = &C->vn[VAR(v).vn];
    x->group = group;
    x->reg = new_reg(C, x->ty);
    if ((r = emit(C, x->ty == CAT_SET ? OP_S_ZERO : OP_R_ZERO, x->reg, 0,
                  0, 0)) != 0)
      return r;
  }
  if (nlive == 0)
    return 0;
  for (v = s->var0; v < s->var0 + s->nvar; v++)
    if (VAR(v).live) {
      VAR(v).bodyvn = number(C, VAR(v).body);
      if ((r = hoist(C, VAR(v).bodyvn, group)) != 0)
        return r;
    }
  loop = (int)C->ops.n;
  for (v = s->var0; v < s->var0 + s->nvar; v++) {
    const vnum *x;
    if (!VAR(v).live)
      continue;
    if ((r = emit_value(C, VAR(v).bodyvn)) != 0)
      return r;
    x = &C->vn[VAR(v).vn];
    if ((r = emit(C, x->ty == CAT_SET ? OP_S_UPD : OP_R_UPD, x->reg,
                  C->vn[VAR(v).bodyvn].reg, 0, 0)) != 0)
      return r;
  }
  return emit(C, OP_LOOP, loop, 0, 0, nlive);
}

static int gen_check(comp *C, const cat_stmt *s, int index) {
  int v = number(C, s->node), r, op, ty = NODE(s->node).ty;
  if ((r = emit_value(C, v)) != 0)
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
  return emit(C, op, index, C->vn[v].reg, s->neg, s->flag);
}

/* ---------------------------------------------------------------- */
/* The model                                                         */

/* The names of the checks, then of the flags, into m. */
static int names(comp *C, wl_cat *m) {
  static const char *const test_names[] = {"acyclic", "irreflexive",
                                           "empty"};
  const size_t noff = (size_t)(m->nchecks + m->nflags + 1);
  wl_buf b;
  size_t k, *off;
  int pass, idx = 0;
  off = wl__alloc(C->ctx, noff * sizeof *off);
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
  if (b.oom) {
    wl__buf_free(&b);
    wl__free(C->ctx, off, noff * sizeof *off);
    return WL_ENOMEM;
  }
  /* b.p stays NULL for a model without checks. */
  m->name_off = off;
  m->names = b.p;
  m->names_size = b.cap;
  return 0;
}

static void comp_free(comp *C) {
  wl__vec_free(C->ctx, &C->ops);
  wl__free(C->ctx, C->vn, (size_t)C->capvn * sizeof *C->vn);
  wl__free(C->ctx, C->hash, (size_t)C->caphash * sizeof *C->hash);
}

/* Sets up the value tables: value 0 is a placeholder (operand 0 of the
 * operations that have fewer than three), then the base sets and the
 * base relations, whose registers are their own ids. */
static int comp_init(comp *C, cat_prog *p) {
  int i, base = 1 + WL_CAT_NSETS + WL_CAT_NRELS;
  memset(C, 0, sizeof *C);
  C->p = p;
  C->ctx = p->ctx;
  C->nrel = WL_CAT_NRELS;
  C->nset = WL_CAT_NSETS;
  wl__vec_init(&C->ops, sizeof(cat_op));
  C->capvn = base + (int)p->nodes.n + (int)p->vars.n;
  for (C->caphash = 16; C->caphash < 2 * C->capvn;)
    C->caphash *= 2;
  C->vn = wl__alloc(C->ctx, (size_t)C->capvn * sizeof *C->vn);
  C->hash = wl__alloc(C->ctx, (size_t)C->caphash * sizeof *C->hash);
  if (C->vn == NULL || C->hash == NULL)
    return WL_ENOMEM;
  for (i = 0; i < C->caphash; i++)
    C->hash[i] = -1;
  for (i = 0; i < base; i++) {
    int set = i >= 1 && i <= WL_CAT_NSETS;
    int v = value(C, VN_REG, set ? CAT_SET : CAT_REL, 0, 0, 0);
    C->vn[v].reg = i == 0 ? 0 : set ? i - 1 : i - 1 - WL_CAT_NSETS;
  }
  return 0;
}

int wl__cat_compile(cat_prog *p, wl_cat **out) {
  comp Cs, *C = &Cs;
  wl_cat *m = NULL;
  size_t k;
  int r, check = 0, flag = 0;
  *out = NULL;
  r = comp_init(C, p);
  if (r == 0)
    liveness(C);
  for (k = 0; r == 0 && k < p->stmts.n; k++) {
    const cat_stmt *s = &STMT(k);
    if (s->kind == ST_LET)
      r = gen_let(C, s);
    else if (s->kind == ST_REC)
      r = gen_rec(C, s, (int)k);
    else
      r = gen_check(C, s, s->flag ? flag++ : check++);
  }
  if (r == 0)
    m = wl__calloc(C->ctx, sizeof *m);
  if (m != NULL) {
    m->ctx = C->ctx;
    m->nrel = C->nrel;
    m->nset = C->nset;
    m->nchecks = p->nchecks;
    m->nflags = p->nflags;
    m->uses_rel = C->uses_rel;
    m->uses_set = C->uses_set;
    if (names(C, m) != 0) {
      wl__free(C->ctx, m, sizeof *m);
      m = NULL;
    }
  }
  if (m == NULL) {
    comp_free(C);
    return wl__err(p->ctx, WL_ENOMEM, "out of memory");
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
