/* parse.c -- the cat reader: statements and expressions into a
 * cat_prog (catint.h), names resolved and types checked as they are read.
 *
 * Grammar (herd7's, restricted to what shared/spec's models use):
 *   model  := title? stmt*            title: a name or a "string"
 *   stmt   := let [rec] bind {and bind}
 *           | [flag] [~] (acyclic | irreflexive | empty) expr [as name]
 *           | include "file" | show ... | unshow ...   (show: ignored)
 *   bind   := name = expr
 *   expr   := operators over names, 0, _, (e), [e], domain(e), range(e)
 * Precedence, loosest first, as herd7's grammar (herd/modelParser.mly)
 * declares it: | ; then ; then \ (left) then & then the cartesian * ,
 * then prefix ~ , then postfix ^-1 + * ? .  A * is the cartesian
 * product when an operand follows it, else the reflexive-transitive
 * closure (herd's parser decides the same way, on its lookahead).
 *
 * Types: a name is a set or a relation; operators say which they take,
 * and a mismatch is an error at the operator.  0 takes the type the
 * other operand of | & \ wants, else it is the empty relation.  The
 * names of a let rec group are typed from their bodies (a name whose
 * body does not tell is a relation).
 *
 * Every node records its depth, and a tree deeper than MAX_DEPTH is an
 * error, so that the passes that recurse over trees (here and in
 * compile.c) have bounded stacks. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "catint.h"

#define MAX_DEPTH 1000  /* tree depth */
#define MAX_INCLUDE 16  /* nested includes */
#define LOOKAHEAD 3

typedef struct parser {
  cat_prog *p;
  wl_ctx *ctx;
  cat_lex lx;
  const char *file;
  cat_tok la[LOOKAHEAD]; /* la[0] is the current token */
  int nla;
  /* The files being read, outermost first (include cycles). */
  const char **stack;
  int depth;
} parser;

/* ---------------------------------------------------------------- */
/* Errors and tokens                                                 */

static int perr(parser *P, int line, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static int perr(parser *P, int line, int col, const char *fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return wl__err(P->ctx, WL_ESYNTAX, "%s:%d:%d: %s", P->file, line, col,
                 msg);
}

static int oom(parser *P) {
  return wl__err(P->ctx, WL_ENOMEM, "out of memory");
}

/* Fills the lookahead up to la[i]. */
static int fill(parser *P, int i) {
  while (P->nla <= i) {
    int r = wl__cat_lex_next(&P->lx, &P->la[P->nla]);
    if (r != 0)
      return r;
    P->nla++;
  }
  return 0;
}

/* Makes la[1] the current token. */
static int advance(parser *P) {
  int i;
  for (i = 1; i < P->nla; i++)
    P->la[i - 1] = P->la[i];
  P->nla--;
  return fill(P, 0);
}

/* The kind of la[i] (filled), through *kind. */
static int peek(parser *P, int i, int *kind) {
  int r = fill(P, i);
  if (r != 0)
    return r;
  *kind = P->la[i].kind;
  return 0;
}

#define CUR (P->la[0])

/* "'text'" of a token, or "end of file", for messages. */
static const char *describe(const cat_tok *t, char *buf, size_t n) {
  if (t->kind == CT_EOF)
    return "end of file";
  if (t->kind == CT_STRING)
    snprintf(buf, n, "\"%.*s\"", (int)(t->len > 40 ? 40 : t->len), t->s);
  else
    snprintf(buf, n, "'%.*s'", (int)(t->len > 40 ? 40 : t->len), t->s);
  return buf;
}

static int unexpected(parser *P, const char *wanted) {
  char buf[64];
  if (CUR.kind == CT_UNSUPPORTED)
    return perr(P, CUR.line, CUR.col,
                "'%.*s' (herd's extended language) is not supported",
                (int)CUR.len, CUR.s);
  return perr(P, CUR.line, CUR.col, "expected %s, found %s", wanted,
              describe(&CUR, buf, sizeof buf));
}

static int expect(parser *P, int kind, const char *wanted) {
  if (CUR.kind != kind)
    return unexpected(P, wanted);
  return advance(P);
}

/* ---------------------------------------------------------------- */
/* Nodes and types                                                   */

/* MAX_DEPTH bounds two things: the parser's own recursion (parentheses,
 * brackets, ~), counted by the depth arguments below, and the depth of
 * the trees it builds, kept in each node. */

#define NODE(i) WL_VEC_AT(&P->p->nodes, cat_node, i)
#define VAR(i) WL_VEC_AT(&P->p->vars, cat_var, i)

static const char *ty_name(int ty) {
  return ty == CAT_SET ? "a set" : "a relation";
}

static int has_b(int kind);

/* Whether tree i is made of 0 alone (0, and | & \ ~ of such trees):
 * it takes the type its context wants. */
static int zero_tree(parser *P, int i) {
  const cat_node *n = &NODE(i);
  switch (n->kind) {
  case N_ZERO:
    return 1;
  case N_UNION:
  case N_INTER:
  case N_DIFF:
    return zero_tree(P, n->a) && zero_tree(P, n->b);
  case N_COMPL:
    return zero_tree(P, n->a);
  default:
    return 0;
  }
}

/* Gives the zero tree i type ty. */
static void zero_type(parser *P, int i, int ty) {
  cat_node *n = &NODE(i);
  n->ty = (uint8_t)ty;
  if (n->kind != N_ZERO) {
    zero_type(P, n->a, ty);
    if (has_b(n->kind))
      zero_type(P, n->b, ty);
  }
}

/* The type of node i from its children's (the node's own checks).
 * CAT_UNK operands (names of a let rec group being inferred) fit
 * anything. */
static int tyck(parser *P, int i) {
  cat_node *n = &NODE(i);
  int a = -1, b = -1;
  const char *op = "";
  switch (n->kind) {
  case N_VAR:
    n->ty = (uint8_t)VAR(n->a).ty;
    return 0;
  case N_BSET:
    n->ty = CAT_SET;
    return 0;
  case N_BREL:
    n->ty = CAT_REL;
    return 0;
  case N_ZERO:
    return 0;
  default:
    break;
  }
  a = NODE(n->a).ty;
  if (n->kind == N_UNION || n->kind == N_INTER || n->kind == N_DIFF ||
      n->kind == N_SEQ || n->kind == N_CART)
    b = NODE(n->b).ty;
  switch (n->kind) {
  case N_UNION:
  case N_INTER:
  case N_DIFF:
    op = n->kind == N_UNION ? "|" : n->kind == N_INTER ? "&" : "\\";
    /* 0 is the empty set beside a set. */
    if (a == CAT_SET && b == CAT_REL && zero_tree(P, n->b)) {
      zero_type(P, n->b, CAT_SET);
      b = CAT_SET;
    }
    if (b == CAT_SET && a == CAT_REL && zero_tree(P, n->a)) {
      zero_type(P, n->a, CAT_SET);
      a = CAT_SET;
    }
    n = &NODE(i);
    if (a != CAT_UNK && b != CAT_UNK && a != b)
      return perr(P, n->line, n->col, "'%s' of a set and a relation", op);
    n->ty = (uint8_t)(a != CAT_UNK ? a : b);
    return 0;
  case N_SEQ:
    if (a == CAT_SET || b == CAT_SET)
      return perr(P, n->line, n->col,
                  "';' needs relations, not a set (write [S] for the "
                  "identity on S)");
    n->ty = CAT_REL;
    return 0;
  case N_CART:
    if (a == CAT_REL || b == CAT_REL)
      return perr(P, n->line, n->col,
                  "'*' between operands is the cartesian product of two "
                  "sets, not of a relation");
    n->ty = CAT_REL;
    return 0;
  case N_TOID:
    if (a == CAT_REL && zero_tree(P, n->a)) {
      zero_type(P, n->a, CAT_SET);
      a = CAT_SET;
    }
    n = &NODE(i);
    if (a == CAT_REL)
      return perr(P, n->line, n->col, "[...] needs a set, not a relation");
    n->ty = CAT_REL;
    return 0;
  case N_INV:
  case N_PLUS:
  case N_STAR:
  case N_OPT:
    op = n->kind == N_INV    ? "^-1"
         : n->kind == N_PLUS ? "+"
         : n->kind == N_STAR ? "*"
                             : "?";
    if (a == CAT_SET)
      return perr(P, n->line, n->col, "'%s' needs a relation, not a set",
                  op);
    n->ty = CAT_REL;
    return 0;
  case N_COMPL:
    n->ty = (uint8_t)a;
    return 0;
  case N_DOMAIN:
  case N_RANGE:
    if (a == CAT_SET)
      return perr(P, n->line, n->col, "%s() needs a relation, not a set",
                  n->kind == N_DOMAIN ? "domain" : "range");
    n->ty = CAT_SET;
    return 0;
  default:
    return 0;
  }
}

static int has_b(int kind) {
  return kind == N_UNION || kind == N_INTER || kind == N_DIFF ||
         kind == N_SEQ || kind == N_CART;
}

static int is_leaf(int kind) {
  return kind == N_VAR || kind == N_BSET || kind == N_BREL ||
         kind == N_ZERO;
}

/* A new node (typed); its index in *out. */
static int mk(parser *P, int kind, int a, int b, int line, int col,
              int *out) {
  cat_node *n;
  int i, r, depth = 1;
  if (!is_leaf(kind)) {
    depth = NODE(a).depth + 1;
    if (has_b(kind) && NODE(b).depth + 1 > depth)
      depth = NODE(b).depth + 1;
    if (depth > MAX_DEPTH)
      return perr(P, line, col, "expression nested too deeply");
  }
  n = wl__vec_push(P->ctx, &P->p->nodes);
  if (n == NULL)
    return oom(P);
  n->kind = (uint8_t)kind;
  n->depth = (uint16_t)depth;
  n->ty = CAT_REL;
  n->a = a;
  n->b = b;
  n->line = line;
  n->col = col;
  i = (int)P->p->nodes.n - 1;
  if ((r = tyck(P, i)) != 0)
    return r;
  *out = i;
  return 0;
}

/* Re-types the tree at i bottom-up (after a let rec group's types are
 * known).  Depth is bounded by MAX_DEPTH. */
static int retype(parser *P, int i) {
  int kind = NODE(i).kind, r;
  if (!is_leaf(kind)) {
    if ((r = retype(P, NODE(i).a)) != 0)
      return r;
    if (has_b(kind) && (r = retype(P, NODE(i).b)) != 0)
      return r;
  }
  return tyck(P, i);
}

/* ---------------------------------------------------------------- */
/* Names                                                             */

/* Resolves a name: the latest visible binding, else a base set or
 * relation.  0 and *out, or WL_ESYNTAX. */
static int lookup(parser *P, const cat_tok *t, int *out) {
  int r, k, v = wl__cat_name_visible(P->p, t->s, t->len);
  if (v >= 0)
    return mk(P, N_VAR, v, 0, t->line, t->col, out);
  for (k = 0; k < WL_CAT_NRELS; k++)
    if (strlen(wl__cat_rel_names[k]) == t->len &&
        memcmp(wl__cat_rel_names[k], t->s, t->len) == 0)
      return mk(P, N_BREL, k, 0, t->line, t->col, out);
  if (t->len == 5 && memcmp(t->s, "poloc", 5) == 0)
    return mk(P, N_BREL, WL_CAT_R_POLOC, 0, t->line, t->col, out);
  for (k = 0; k < WL_CAT_NSETS; k++)
    if (strlen(wl__cat_set_names[k]) == t->len &&
        memcmp(wl__cat_set_names[k], t->s, t->len) == 0)
      return mk(P, N_BSET, k, 0, t->line, t->col, out);
  r = perr(P, t->line, t->col, "unknown relation '%.*s'",
           (int)(t->len > 64 ? 64 : t->len), t->s);
  return r;
}

/* Binds a name (a new variable, index in *out). */
static int bind(parser *P, const cat_tok *t, int group, int visible,
                int *out) {
  cat_var *v;
  size_t off = P->p->names.n;
  wl__buf_add(&P->p->names, t->s, t->len);
  if (P->p->names.oom)
    return oom(P);
  v = wl__vec_push(P->ctx, &P->p->vars);
  if (v == NULL)
    return oom(P);
  v->name = off;
  v->namelen = t->len;
  v->body = -1;
  v->ty = CAT_UNK;
  v->group = group;
  v->visible = visible;
  v->line = t->line;
  v->col = t->col;
  v->vn = -1;
  *out = (int)P->p->vars.n - 1;
  if (wl__cat_name_bound(P->p, *out) != 0)
    return oom(P);
  return 0;
}

/* ---------------------------------------------------------------- */
/* Expressions                                                       */

static int expr(parser *P, int depth, int *out);

static int starts_operand(int kind) {
  return kind == CT_IDENT || kind == CT_ZERO || kind == CT_UNDER ||
         kind == CT_LPAR || kind == CT_LBRAC || kind == CT_TILDE;
}

static int too_deep(parser *P, int depth) {
  if (depth <= MAX_DEPTH)
    return 0;
  return perr(P, CUR.line, CUR.col, "expression nested too deeply");
}

static int primary(parser *P, int depth, int *out) {
  cat_tok t = CUR;
  int r, a;
  if ((r = too_deep(P, depth)) != 0)
    return r;
  switch (t.kind) {
  case CT_IDENT:
    if ((r = advance(P)) != 0)
      return r;
    if (CUR.kind == CT_LPAR) {
      int fn = -1;
      if (t.len == 6 && memcmp(t.s, "domain", 6) == 0)
        fn = N_DOMAIN;
      else if (t.len == 5 && memcmp(t.s, "range", 5) == 0)
        fn = N_RANGE;
      if (fn < 0)
        return perr(P, t.line, t.col,
                    "function application '%.*s(...)' is not supported "
                    "(only domain and range)",
                    (int)(t.len > 64 ? 64 : t.len), t.s);
      if ((r = advance(P)) != 0 || (r = expr(P, depth + 1, &a)) != 0 ||
          (r = expect(P, CT_RPAR, "')'")) != 0)
        return r;
      return mk(P, fn, a, 0, t.line, t.col, out);
    }
    return lookup(P, &t, out);
  case CT_ZERO:
    if ((r = advance(P)) != 0)
      return r;
    return mk(P, N_ZERO, 0, 0, t.line, t.col, out);
  case CT_UNDER:
    if ((r = advance(P)) != 0)
      return r;
    return mk(P, N_BSET, WL_CAT_S_ALL, 0, t.line, t.col, out);
  case CT_LPAR:
    if ((r = advance(P)) != 0 || (r = expr(P, depth + 1, out)) != 0)
      return r;
    return expect(P, CT_RPAR, "')'");
  case CT_LBRAC:
    if ((r = advance(P)) != 0 || (r = expr(P, depth + 1, &a)) != 0 ||
        (r = expect(P, CT_RBRAC, "']'")) != 0)
      return r;
    return mk(P, N_TOID, a, 0, t.line, t.col, out);
  default:
    return unexpected(P, "an expression");
  }
}

static int postfix(parser *P, int depth, int *out) {
  int r = primary(P, depth, out), kind, next;
  while (r == 0) {
    cat_tok t = CUR;
    switch (t.kind) {
    case CT_INV:
      kind = N_INV;
      break;
    case CT_PLUS:
      kind = N_PLUS;
      break;
    case CT_QUEST:
      kind = N_OPT;
      break;
    case CT_STAR:
      /* An operand after it: the cartesian product (cart()).  A ~
       * that opens the next statement's check is no operand. */
      if ((r = peek(P, 1, &next)) != 0)
        return r;
      if (starts_operand(next)) {
        int after;
        if (next != CT_TILDE)
          return 0;
        if ((r = peek(P, 2, &after)) != 0)
          return r;
        if (after != CT_ACYCLIC && after != CT_IRREFLEXIVE &&
            after != CT_EMPTY)
          return 0;
      }
      kind = N_STAR;
      break;
    default:
      return 0;
    }
    if ((r = advance(P)) != 0)
      return r;
    r = mk(P, kind, *out, 0, t.line, t.col, out);
  }
  return r;
}

static int unary(parser *P, int depth, int *out) {
  cat_tok t = CUR;
  int r, a;
  if (t.kind != CT_TILDE)
    return postfix(P, depth, out);
  if ((r = too_deep(P, depth)) != 0 || (r = advance(P)) != 0 ||
      (r = unary(P, depth + 1, &a)) != 0)
    return r;
  return mk(P, N_COMPL, a, 0, t.line, t.col, out);
}

/* One level of left-associative binary operators: operands from sub,
 * operator token tok making node kind. */
typedef int (*level_fn)(parser *P, int depth, int *out);

static int binary(parser *P, int depth, int *out, level_fn sub, int tok,
                  int kind) {
  int r = sub(P, depth, out), b;
  while (r == 0 && CUR.kind == tok) {
    cat_tok t = CUR;
    if ((r = advance(P)) != 0 || (r = sub(P, depth, &b)) != 0)
      return r;
    r = mk(P, kind, *out, b, t.line, t.col, out);
  }
  return r;
}

static int cart(parser *P, int depth, int *out) {
  return binary(P, depth, out, unary, CT_STAR, N_CART);
}

static int inter(parser *P, int depth, int *out) {
  return binary(P, depth, out, cart, CT_AMP, N_INTER);
}

static int diff(parser *P, int depth, int *out) {
  return binary(P, depth, out, inter, CT_BSLASH, N_DIFF);
}

static int seq(parser *P, int depth, int *out) {
  return binary(P, depth, out, diff, CT_SEMI, N_SEQ);
}

static int expr(parser *P, int depth, int *out) {
  return binary(P, depth, out, seq, CT_BAR, N_UNION);
}

/* ---------------------------------------------------------------- */
/* Statements                                                        */

static int stmt_start(parser *P, int *yes) {
  int r, k;
  switch (CUR.kind) {
  case CT_EOF:
  case CT_LET:
  case CT_INCLUDE:
  case CT_ACYCLIC:
  case CT_IRREFLEXIVE:
  case CT_EMPTY:
  case CT_FLAG:
  case CT_SHOW:
  case CT_UNSHOW:
  case CT_UNSUPPORTED:
    *yes = 1;
    return 0;
  case CT_TILDE:
    if ((r = peek(P, 1, &k)) != 0)
      return r;
    *yes = k == CT_ACYCLIC || k == CT_IRREFLEXIVE || k == CT_EMPTY;
    return 0;
  default:
    *yes = 0;
    return 0;
  }
}

static cat_stmt *new_stmt(parser *P, int kind) {
  cat_stmt *s = wl__vec_push(P->ctx, &P->p->stmts);
  if (s != NULL)
    s->kind = kind;
  return s;
}

/* After "let name": a parameter list or a second name is a function
 * definition, which is not supported. */
static int no_function(parser *P, const cat_tok *name) {
  if (CUR.kind == CT_LPAR || CUR.kind == CT_IDENT || CUR.kind == CT_UNDER)
    return perr(P, name->line, name->col,
                "function definitions ('let %.*s(...)') are not "
                "supported",
                (int)(name->len > 64 ? 64 : name->len), name->s);
  return 0;
}

static int no_let_in(parser *P) {
  if (CUR.kind == CT_UNSUPPORTED && CUR.len == 2 &&
      memcmp(CUR.s, "in", 2) == 0)
    return perr(P, CUR.line, CUR.col, "'let ... in' is not supported");
  return 0;
}

/* The names of the let rec group that starts at the current token (a
 * name after "let rec"): scans ahead for "and name =" up to the next
 * statement, then rewinds.  Binds each (visible, type unknown). */
static int bind_rec_names(parser *P, int group) {
  cat_lex save_lx = P->lx;
  cat_tok save_la[LOOKAHEAD];
  int save_nla = P->nla, r = 0, yes, v;
  int first = (int)P->p->vars.n;
  memcpy(save_la, P->la, sizeof save_la);
  if (CUR.kind != CT_IDENT)
    return unexpected(P, "a name");
  for (;;) {
    cat_tok name = CUR;
    if (wl__cat_name_latest(P->p, name.s, name.len) >= first)
      return perr(P, name.line, name.col,
                  "'%.*s' is bound twice in one let rec",
                  (int)(name.len > 64 ? 64 : name.len), name.s);
    if ((r = bind(P, &name, group, 1, &v)) != 0)
      return r;
    /* Skip to the next "and", or to the end of the group. */
    for (;;) {
      if ((r = advance(P)) != 0)
        return r;
      if (CUR.kind == CT_AND)
        break;
      if ((r = stmt_start(P, &yes)) != 0)
        return r;
      if (yes)
        goto done;
    }
    if ((r = advance(P)) != 0)
      return r;
    if (CUR.kind != CT_IDENT)
      return unexpected(P, "a name");
  }
done:
  P->lx = save_lx;
  P->nla = save_nla;
  memcpy(P->la, save_la, sizeof save_la);
  return 0;
}

/* A let rec's names in negative places (recgroup.c): the error names
 * the first use and the operator that makes it negative. */
static int monotone(parser *P, int body, int group) {
  int use, flip;
  const cat_node *n, *f;
  if (!wl__cat_rec_negative(P->p, body, group, &use, &flip))
    return 0;
  n = &NODE(use);
  f = &NODE(flip);
  return perr(P, n->line, n->col,
              "'%.*s' is used %s at %d:%d in its own let rec: the "
              "recursion is not monotone (it has no least fixpoint)",
              (int)VAR(n->a).namelen, P->p->names.p + VAR(n->a).name,
              f->kind == N_COMPL ? "under the complement '~'"
                                 : "on the right of the '\\'",
              f->line, f->col);
}

/* The types of a let rec group's names (from first on) from their
 * bodies: a body is retyped when created and again once a name it reads
 * gets its type (a worklist), so that a group whose names each take
 * the next one's type (a1 = a2, a2 = a3, ...) costs its size, not its
 * size squared.  A name whose body never tells stays CAT_UNK. */
static int infer_rec(parser *P, int first, int group) {
  int n = (int)P->p->vars.n - first, i, k, r, nq = 0, total = 0;
  int *start = NULL, *list = NULL, *queue;
  if (wl__cat_rec_readers(P->p, first, group, &start, &list, &total) != 0)
    return oom(P);
  r = 0;
  queue = wl__alloc(P->ctx, ((size_t)n + (size_t)total + 1) * sizeof *queue);
  if (queue == NULL) {
    r = oom(P);
    goto done;
  }
  for (i = 0; i < n; i++)
    queue[nq++] = first + i;
  /* each name enters the queue once, then once per name it reads */
  for (k = 0; k < nq; k++) {
    int v = queue[k];
    if (VAR(v).ty != CAT_UNK)
      continue;
    if ((r = retype(P, VAR(v).body)) != 0)
      goto done;
    if (NODE(VAR(v).body).ty == CAT_UNK)
      continue;
    VAR(v).ty = NODE(VAR(v).body).ty;
    for (i = start[v - first]; i < start[v - first + 1]; i++)
      if (VAR(list[i]).ty == CAT_UNK)
        queue[nq++] = list[i];
  }
done:
  wl__cat_rec_readers_free(P->p, n, start, list, total);
  wl__free(P->ctx, queue, ((size_t)n + (size_t)total + 1) * sizeof *queue);
  return r;
}

/* let [rec] name = e {and name = e} */
static int let_stmt(parser *P) {
  int r, rec, group = (int)P->p->stmts.n, v, body, i;
  size_t first = P->p->vars.n, j;
  cat_stmt *s;
  if ((r = advance(P)) != 0)
    return r;
  rec = CUR.kind == CT_REC;
  if (rec && ((r = advance(P)) != 0 || (r = bind_rec_names(P, group)) != 0))
    return r;
  for (i = 0;; i++) {
    cat_tok name = CUR;
    if (name.kind != CT_IDENT)
      return unexpected(P, "a name");
    if ((r = advance(P)) != 0 || (r = no_function(P, &name)) != 0 ||
        (r = expect(P, CT_EQ, "'='")) != 0 ||
        (r = expr(P, 0, &body)) != 0 || (r = no_let_in(P)) != 0)
      return r;
    if (rec) {
      v = (int)first + i;
    } else {
      if (wl__cat_name_latest(P->p, name.s, name.len) >= (int)first)
        return perr(P, name.line, name.col,
                    "'%.*s' is bound twice in one let",
                    (int)(name.len > 64 ? 64 : name.len), name.s);
      if ((r = bind(P, &name, -1, 0, &v)) != 0)
        return r;
      VAR(v).ty = NODE(body).ty;
    }
    VAR(v).body = body;
    if (CUR.kind != CT_AND)
      break;
    if ((r = advance(P)) != 0)
      return r;
  }
  /* the pre-scan (bind_rec_names) bound a name after every "and" it
   * saw; a body that ended early leaves later names without a body */
  if (rec && (size_t)i + 1 != P->p->vars.n - first)
    return unexpected(P, "'and' (the let rec group goes on)");
  if (rec) {
    /* Types: infer what the bodies tell, then check every body
     * strictly against them. */
    if ((r = infer_rec(P, (int)first, group)) != 0)
      return r;
    for (j = first; j < P->p->vars.n; j++)
      if (VAR(j).ty == CAT_UNK)
        VAR(j).ty = CAT_REL;
    for (j = first; j < P->p->vars.n; j++) {
      if ((r = retype(P, VAR(j).body)) != 0)
        return r;
      if (NODE(VAR(j).body).ty != VAR(j).ty)
        return perr(P, VAR(j).line, VAR(j).col,
                    "'%.*s' is used as %s but defined as %s",
                    (int)VAR(j).namelen, P->p->names.p + VAR(j).name,
                    ty_name(VAR(j).ty), ty_name(NODE(VAR(j).body).ty));
    }
    for (j = first; j < P->p->vars.n; j++)
      if ((r = monotone(P, VAR(j).body, group)) != 0)
        return r;
  }
  for (j = first; j < P->p->vars.n; j++) {
    VAR(j).visible = 1;
    wl__cat_name_show(P->p, (int)j);
  }
  s = new_stmt(P, rec ? ST_REC : ST_LET);
  if (s == NULL)
    return oom(P);
  s->var0 = (int)first;
  s->nvar = (int)(P->p->vars.n - first);
  return 0;
}

/* [flag] [~] (acyclic | irreflexive | empty) e [as name] */
static int check_stmt(parser *P) {
  int r, flag = 0, neg = 0, test, node;
  size_t name = (size_t)-1;
  cat_tok t;
  cat_stmt *s;
  if (CUR.kind == CT_FLAG) {
    flag = 1;
    if ((r = advance(P)) != 0)
      return r;
  }
  if (CUR.kind == CT_TILDE) {
    neg = 1;
    if ((r = advance(P)) != 0)
      return r;
  }
  t = CUR;
  switch (t.kind) {
  case CT_ACYCLIC:
    test = CHK_ACYCLIC;
    break;
  case CT_IRREFLEXIVE:
    test = CHK_IRREFLEXIVE;
    break;
  case CT_EMPTY:
    test = CHK_EMPTY;
    break;
  default:
    return unexpected(P, "acyclic, irreflexive or empty");
  }
  if ((r = advance(P)) != 0 || (r = expr(P, 0, &node)) != 0)
    return r;
  if (flag && P->p->nflags == 64)
    return perr(P, t.line, t.col, "more than 64 flags");
  if (test != CHK_EMPTY && NODE(node).ty == CAT_SET)
    return perr(P, t.line, t.col, "%.*s needs a relation, not a set",
                (int)t.len, t.s);
  if (CUR.kind == CT_AS) {
    if ((r = advance(P)) != 0)
      return r;
    if (CUR.kind != CT_IDENT)
      return unexpected(P, "a name");
    name = P->p->cnames.n;
    wl__buf_add(&P->p->cnames, CUR.s, CUR.len);
    wl__buf_add(&P->p->cnames, "", 1);
    if (P->p->cnames.oom)
      return oom(P);
    if ((r = advance(P)) != 0)
      return r;
  }
  s = new_stmt(P, ST_CHECK);
  if (s == NULL)
    return oom(P);
  s->node = node;
  s->test = test;
  s->neg = neg;
  s->flag = flag;
  s->name = name;
  if (flag)
    P->p->nflags++;
  else
    P->p->nchecks++;
  return 0;
}

/* show / unshow: what follows up to the next statement is ignored. */
static int show_stmt(parser *P) {
  int r, yes;
  for (;;) {
    if ((r = advance(P)) != 0 || (r = stmt_start(P, &yes)) != 0)
      return r;
    if (yes)
      return 0;
  }
}

static int read_file(cat_prog *p, wl_ctx *ctx, const char *file,
                     const char *text, size_t len, const char **stack,
                     int depth);

/* include "file": read in place, resolved against the including file's
 * folder.  herd's own library files are accepted as empty.  The text
 * comes from files.c (read from disk once per model read), and the
 * read's budget is charged (catint.h, WL_CAT_MAX_TEXT). */
static int include_stmt(parser *P) {
  cat_tok t;
  wl_buf path;
  const char *slash, *text;
  char why[128];
  size_t len;
  int r, i;
  if ((r = advance(P)) != 0)
    return r;
  t = CUR;
  if (t.kind != CT_STRING)
    return unexpected(P, "a \"file name\"");
  if ((r = advance(P)) != 0)
    return r;
  if ((t.len == 7 && memcmp(t.s, "cos.cat", 7) == 0) ||
      (t.len == 10 && memcmp(t.s, "stdlib.cat", 10) == 0))
    return 0;
  wl__buf_init(&path, P->ctx);
  slash = strrchr(P->file, '/');
  if (t.len > 0 && t.s[0] != '/' && slash != NULL)
    wl__buf_add(&path, P->file, (size_t)(slash - P->file) + 1);
  wl__buf_add(&path, t.s, t.len);
  if (path.oom) {
    wl__buf_free(&path);
    return oom(P);
  }
  for (i = 0; i < P->depth; i++)
    if (strcmp(P->stack[i], path.p) == 0) {
      r = perr(P, t.line, t.col, "include cycle: '%s' includes itself",
               path.p);
      wl__buf_free(&path);
      return r;
    }
  if (P->depth >= MAX_INCLUDE) {
    wl__buf_free(&path);
    return perr(P, t.line, t.col, "includes nested too deeply");
  }
  if (++P->p->nincludes > WL_CAT_MAX_INCLUDES) {
    wl__buf_free(&path);
    return perr(P, t.line, t.col,
                "more than %d includes in all (a file included over and "
                "over?)",
                WL_CAT_MAX_INCLUDES);
  }
  r = wl__cat_include_text(P->p, path.p, &text, &len, why, sizeof why);
  if (r == WL_EIO) {
    r = perr(P, t.line, t.col, "cannot read '%s': %s", path.p, why);
  } else if (r != 0) {
    r = oom(P);
  } else if (len > WL_CAT_MAX_TEXT - P->p->text_total) {
    r = perr(P, t.line, t.col,
             "the model and its includes are over %d MiB of text in all "
             "(a file included over and over?)",
             WL_CAT_MAX_TEXT >> 20);
  } else {
    P->p->text_total += len;
    P->stack[P->depth] = path.p;
    r = read_file(P->p, P->ctx, path.p, text, len, P->stack,
                  P->depth + 1);
  }
  wl__buf_free(&path);
  return r;
}

static int statements(parser *P) {
  int r = 0;
  while (r == 0 && CUR.kind != CT_EOF) {
    switch (CUR.kind) {
    case CT_LET:
      r = let_stmt(P);
      break;
    case CT_FLAG:
    case CT_TILDE:
    case CT_ACYCLIC:
    case CT_IRREFLEXIVE:
    case CT_EMPTY:
      r = check_stmt(P);
      break;
    case CT_INCLUDE:
      r = include_stmt(P);
      break;
    case CT_SHOW:
    case CT_UNSHOW:
      r = show_stmt(P);
      break;
    case CT_UNSUPPORTED:
      if (CUR.len == 4 && memcmp(CUR.s, "with", 4) == 0)
        return perr(P, CUR.line, CUR.col,
                    "'with ... from' is not supported");
      return unexpected(P, "a statement");
    default:
      return unexpected(P, "a statement (let, include, acyclic, "
                           "irreflexive, empty, flag)");
    }
  }
  return r;
}

static int read_file(cat_prog *p, wl_ctx *ctx, const char *file,
                     const char *text, size_t len, const char **stack,
                     int depth) {
  parser P;
  int r;
  memset(&P, 0, sizeof P);
  P.p = p;
  P.ctx = ctx;
  P.file = file;
  P.stack = stack;
  P.depth = depth;
  wl__cat_lex_init(&P.lx, ctx, file, text, len);
  if ((r = fill(&P, 0)) != 0)
    return r;
  /* The title: a name or a string opening the file. */
  if (P.la[0].kind == CT_IDENT || P.la[0].kind == CT_STRING) {
    if (depth == 1) {
      p->title = wl__strndup(ctx, P.la[0].s, P.la[0].len);
      if (p->title == NULL)
        return oom(&P);
    }
    if ((r = advance(&P)) != 0)
      return r;
  }
  return statements(&P);
}

int wl__cat_read(cat_prog *p, wl_ctx *ctx, const char *file,
                 const char *text, size_t len) {
  const char *stack[MAX_INCLUDE + 1];
  int r;
  if (file == NULL)
    file = "<model>";
  p->ctx = ctx;
  wl__vec_init(&p->nodes, sizeof(cat_node));
  wl__vec_init(&p->vars, sizeof(cat_var));
  wl__vec_init(&p->stmts, sizeof(cat_stmt));
  wl__buf_init(&p->names, ctx);
  wl__buf_init(&p->cnames, ctx);
  stack[0] = file;
  if (len > WL_CAT_MAX_TEXT)
    return wl__err(ctx, WL_ELIMIT, "%s: too large (over %d MiB)", file,
                   WL_CAT_MAX_TEXT >> 20);
  p->text_total = len;
  r = read_file(p, ctx, file, text, len, stack, 1);
  if (r == 0 && p->title == NULL) {
    /* No title: the file's name stands for it. */
    const char *slash = strrchr(file, '/');
    const char *base = slash != NULL ? slash + 1 : file;
    p->title = wl__strndup(ctx, base, strlen(base));
    if (p->title == NULL)
      r = wl__err(ctx, WL_ENOMEM, "out of memory");
  }
  return r;
}

void wl__cat_prog_free(cat_prog *p) {
  if (p->ctx == NULL)
    return;
  wl__vec_free(p->ctx, &p->nodes);
  wl__vec_free(p->ctx, &p->vars);
  wl__vec_free(p->ctx, &p->stmts);
  wl__buf_free(&p->names);
  wl__buf_free(&p->cnames);
  wl__strfree(p->ctx, p->title);
  p->title = NULL;
  wl__cat_names_free(p);
  wl__cat_files_free(p);
}
