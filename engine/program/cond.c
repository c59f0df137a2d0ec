/* cond.c -- the final-state condition: parsing "exists|~exists|forall
 * (...)" and "locations [...]" into the test's condition tree, and
 * evaluating it (with the arithmetic of atomic operations) on a final
 * state. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "reader.h"

/* ---------------------------------------------------------------- */
/* Condition                                                         */

static int new_node(parser *p, int kind) {
  wl_litmus *lt = p->lt;
  if (lt->ncnodes == lt->cnodes_cap) {
    int cap = lt->cnodes_cap ? lt->cnodes_cap * 2 : 16;
    wl_cnode *q;
    if (cap > 65536)
      return wl__lex_err(p, WL_ELIMIT, p->t.line, p->t.col,
                         "condition too large");
    q = wl__realloc(p->ctx, lt->cnodes, (size_t)lt->cnodes_cap * sizeof *q,
                    (size_t)cap * sizeof *q);
    if (q == NULL)
      return wl__lex_err(p, WL_ENOMEM, p->t.line, p->t.col, "out of memory");
    lt->cnodes = q;
    lt->cnodes_cap = cap;
  }
  memset(&lt->cnodes[lt->ncnodes], 0, sizeof lt->cnodes[0]);
  lt->cnodes[lt->ncnodes].kind = (uint8_t)kind;
  lt->cnodes[lt->ncnodes].depth = 1;
  return lt->ncnodes++;
}

/* Makes l (and r, unless negative) the children of node n; a tree deeper
 * than WL_COND_MAX_DEPTH is an error (a long chain of /\ builds one as
 * surely as nested parentheses), at the token that made it so. */
static int set_kids(parser *p, int n, int l, int r) {
  wl_cnode *c = p->lt->cnodes;
  int d = c[l].depth;
  if (r >= 0 && c[r].depth > d)
    d = c[r].depth;
  if (d + 1 > WL_COND_MAX_DEPTH)
    return wl__lex_err(p, WL_ELIMIT, p->t.line, p->t.col,
                       "condition nested too deeply (more than %d levels)",
                       WL_COND_MAX_DEPTH);
  c[n].l = l;
  c[n].r = r < 0 ? 0 : r;
  c[n].depth = (uint16_t)(d + 1);
  return n;
}

static int cond_atom(parser *p, wl_atom *a) {
  memset(a, 0, sizeof *a);
  if (p->t.kind == T_NUM) {
    /* "1:r0" or a constant */
    const char *after = p->t.s + p->t.n;
    if (after < p->src + p->len && *after == ':') {
      a->kind = AT_REG;
      return wl__name_thread_reg(p, &a->thread, &a->reg, 1);
    }
    a->kind = AT_CONST;
    a->val = p->t.num;
    a->line = p->t.line;
    a->col = p->t.col;
    wl__lex_next(p);
    return 0;
  }
  if (p->t.kind == T_WORD && p->t.s[0] == 'P' && p->t.n >= 2 &&
      isdigit((unsigned char)p->t.s[1])) {
    const char *after = p->t.s + p->t.n;
    if (after < p->src + p->len && *after == ':') {
      a->kind = AT_REG;
      return wl__name_thread_reg(p, &a->thread, &a->reg, 1);
    }
  }
  if (wl__lex_accept_p(p, "[")) {
    int l;
    if (p->t.kind != T_WORD)
      return wl__lex_expected(p, "a location");
    if ((l = wl__name_loc(p, &p->t)) < 0)
      return l;
    wl__lex_next(p);
    if (wl__lex_expect_p(p, "]"))
      return p->err;
    a->kind = AT_LOC;
    a->loc = l;
    return 0;
  }
  if (p->t.kind == T_WORD && !wl__name_is_reg(p->t.s, p->t.n)) {
    tok w = p->t;
    int l;
    wl__lex_next(p);
    if (wl__lex_is_p(p, "[")) {
      /* an element of an array the bindings declared (wl.litmus init =
       * { a = {...} } makes locations "a[0]", "a[1]", ...): it must
       * exist, since an element is no location of its own to declare */
      char nm[128];
      wl__lex_next(p);
      if (p->t.kind != T_NUM || p->t.num < 0)
        return wl__lex_expected(p, "an element index");
      snprintf(nm, sizeof nm, "%.*s[%lld]", (int)(w.n > 80 ? 80 : w.n), w.s,
               (long long)p->t.num);
      wl__lex_next(p);
      if (wl__lex_expect_p(p, "]"))
        return p->err;
      if ((l = wl_litmus_location(p->lt, nm)) < 0)
        return wl__lex_err(p, WL_ESYNTAX, w.line, w.col,
                           "'%s' is no element of an array of the test", nm);
    } else if ((l = wl__name_loc(p, &w)) < 0) {
      return l;
    }
    a->kind = AT_LOC;
    a->loc = l;
    return 0;
  }
  if (p->t.kind == T_WORD)
    return wl__lex_err(p, WL_ESYNTAX, p->t.line, p->t.col,
                       "a register in a condition needs its thread: 'P0:%.*s'",
                       (int)p->t.n, p->t.s);
  return wl__lex_expected(p, "a register (P0:r1), a location or a constant");
}

static int cond_or(parser *p);

/* The parser's recursion: every '~' and '(' goes one level deeper. */
static int cond_nest(parser *p, int (*sub)(parser *)) {
  int c;
  if (p->depth >= WL_COND_MAX_DEPTH)
    return wl__lex_err(p, WL_ELIMIT, p->t.line, p->t.col,
                       "condition nested too deeply (more than %d levels)",
                       WL_COND_MAX_DEPTH);
  p->depth++;
  c = sub(p);
  p->depth--;
  return c;
}

static int cond_unary(parser *p) {
  int n, r;
  if (wl__lex_accept_p(p, "~") || wl__lex_accept_p(p, "!") ||
      (wl__lex_is_w(p, "not") && (wl__lex_next(p), 1))) {
    int c = cond_nest(p, cond_unary);
    if (c < 0)
      return c;
    if ((n = new_node(p, CN_NOT)) < 0)
      return n;
    return set_kids(p, n, c, -1);
  }
  if (wl__lex_accept_p(p, "(")) {
    int c = cond_nest(p, cond_or);
    if (c < 0)
      return c;
    if (wl__lex_expect_p(p, ")"))
      return p->err;
    return c;
  }
  if (wl__lex_is_w(p, "true") || wl__lex_is_w(p, "false")) {
    int f = wl__lex_is_w(p, "false");
    wl__lex_next(p);
    if ((n = new_node(p, CN_TRUE)) < 0)
      return n;
    if (f) {
      int m = new_node(p, CN_NOT);
      if (m < 0)
        return m;
      return set_kids(p, m, n, -1);
    }
    return n;
  }
  {
    wl_atom a, b;
    int cmp;
    if ((r = cond_atom(p, &a)) != 0)
      return r;
    if (wl__lex_accept_p(p, "=") || wl__lex_accept_p(p, "=="))
      cmp = COND_EQ;
    else if (wl__lex_accept_p(p, "!="))
      cmp = COND_NE;
    else if (wl__lex_accept_p(p, "<="))
      cmp = COND_LE;
    else if (wl__lex_accept_p(p, ">="))
      cmp = COND_GE;
    else if (wl__lex_accept_p(p, "<"))
      cmp = COND_LT;
    else if (wl__lex_accept_p(p, ">"))
      cmp = COND_GT;
    else
      return wl__lex_expected(p, "a comparison (==, !=, <, <=, >, >=)");
    if ((r = cond_atom(p, &b)) != 0)
      return r;
    if ((n = new_node(p, CN_CMP)) < 0)
      return n;
    p->lt->cnodes[n].cmp = (uint8_t)cmp;
    p->lt->cnodes[n].a = a;
    p->lt->cnodes[n].b = b;
    return n;
  }
}

static int cond_and(parser *p) {
  int l = cond_unary(p);
  while (l >= 0 && (wl__lex_is_p(p, "/\\") || wl__lex_is_p(p, "&&"))) {
    int r, n;
    wl__lex_next(p);
    if ((r = cond_unary(p)) < 0)
      return r;
    if ((n = new_node(p, CN_AND)) < 0)
      return n;
    if ((l = set_kids(p, n, l, r)) < 0)
      return l;
  }
  return l;
}

static int cond_or(parser *p) {
  int l = cond_and(p);
  while (l >= 0 && (wl__lex_is_p(p, "\\/") || wl__lex_is_p(p, "||"))) {
    int r, n;
    wl__lex_next(p);
    if ((r = cond_and(p)) < 0)
      return r;
    if ((n = new_node(p, CN_OR)) < 0)
      return n;
    if ((l = set_kids(p, n, l, r)) < 0)
      return l;
  }
  return l;
}

static int parse_locations(parser *p) {
  wl__lex_next(p); /* locations */
  if (wl__lex_expect_p(p, "["))
    return p->err;
  while (!wl__lex_accept_p(p, "]")) {
    wl_atom a;
    int r;
    if (wl__lex_accept_p(p, ";"))
      continue;
    if (p->t.kind == T_EOF)
      return wl__lex_expected(p, "']'");
    if ((r = cond_atom(p, &a)) != 0)
      return r;
    if (a.kind == AT_CONST)
      return wl__lex_err(p, WL_ESYNTAX, p->t.line, p->t.col,
                         "expected a register or a location in 'locations'");
    if (p->lt->nobserved == 64)
      return wl__lex_err(p, WL_ELIMIT, p->t.line, p->t.col,
                         "too many observed locations");
    p->lt->observed[p->lt->nobserved++] = a;
  }
  return 0;
}

int wl__cond_parse(parser *p) {
  const char *start;
  int root;
  while (wl__lex_is_w(p, "locations")) {
    int r = parse_locations(p);
    if (r)
      return r;
  }
  if (wl__lex_is_w(p, "filter"))
    return wl__lex_err(p, WL_EUNSUPPORTED, p->t.line, p->t.col,
                       "'filter' is not supported");
  if (p->t.kind == T_EOF) {
    p->lt->has_cond = 0;
    p->lt->cond_kind = WL_COND_EXISTS;
    return 0;
  }
  if (wl__lex_accept_p(p, "~")) {
    if (!wl__lex_is_w(p, "exists"))
      return wl__lex_expected(p, "'exists' after '~'");
    p->lt->cond_kind = WL_COND_NOTEXISTS;
  } else if (wl__lex_is_w(p, "exists")) {
    p->lt->cond_kind = WL_COND_EXISTS;
  } else if (wl__lex_is_w(p, "forall")) {
    p->lt->cond_kind = WL_COND_FORALL;
  } else {
    return wl__lex_expected(p, "'exists', '~exists' or 'forall'");
  }
  wl__lex_next(p);
  start = p->t.s;
  root = cond_or(p);
  if (root < 0)
    return root;
  if (p->t.kind != T_EOF)
    return wl__lex_expected(
        p, "the end of the condition ('/\\', '\\/' or end of file)");
  p->lt->has_cond = 1;
  p->lt->cond_root = root;
  {
    /* keep the condition's text, spaces normalised */
    const char *end = p->src + p->len;
    wl_buf b;
    int sp = 0;
    wl__buf_init(&b, p->ctx);
    while (end > start && isspace((unsigned char)end[-1]))
      end--;
    for (; start < end; start++) {
      if (isspace((unsigned char)*start)) {
        sp = 1;
        continue;
      }
      if (sp && b.n > 0)
        wl__buf_add(&b, " ", 1);
      sp = 0;
      wl__buf_add(&b, start, 1);
    }
    if (b.oom || b.p == NULL) {
      wl__buf_free(&b);
      return wl__lex_err(p, WL_ENOMEM, p->t.line, p->t.col, "out of memory");
    }
    p->lt->cond_text = wl__strndup(p->ctx, b.p, b.n);
    wl__buf_free(&b);
    if (p->lt->cond_text == NULL)
      return wl__lex_err(p, WL_ENOMEM, p->t.line, p->t.col, "out of memory");
  }
  return 0;
}

/* ---------------------------------------------------------------- */
/* Evaluation helpers                                                */

int wl__cond_holds(int cond, int64_t a, int64_t b) {
  switch (cond) {
  case COND_EQ:
    return a == b;
  case COND_NE:
    return a != b;
  case COND_LT:
    return a < b;
  case COND_LE:
    return a <= b;
  case COND_GT:
    return a > b;
  default:
    return a >= b;
  }
}

static int64_t atom_val(const wl_atom *a, int64_t *const *regs,
                        const int64_t *mem) {
  switch (a->kind) {
  case AT_REG:
    return regs[a->thread][a->reg];
  case AT_LOC:
    return mem[a->loc];
  default:
    return a->val;
  }
}

int wl__cond_eval(const wl_litmus *t, int node, int64_t *const *regs,
                  const int64_t *mem) {
  const wl_cnode *n = &t->cnodes[node];
  switch (n->kind) {
  case CN_TRUE:
    return 1;
  case CN_AND:
    return wl__cond_eval(t, n->l, regs, mem) &&
           wl__cond_eval(t, n->r, regs, mem);
  case CN_OR:
    return wl__cond_eval(t, n->l, regs, mem) ||
           wl__cond_eval(t, n->r, regs, mem);
  case CN_NOT:
    return !wl__cond_eval(t, n->l, regs, mem);
  default:
    return wl__cond_holds(n->cmp, atom_val(&n->a, regs, mem),
                          atom_val(&n->b, regs, mem));
  }
}

/* Arithmetic wraps modulo 2^64 (done on unsigned values, so that no
 * input is undefined behaviour).  inc/dec follow PTX's atom.inc/.dec on
 * unsigned values; division by zero gives 0 (PTX leaves it unspecified). */
int64_t wl__aop_apply(int aop, int64_t old, int64_t a, int64_t b) {
  uint64_t uo = (uint64_t)old, ua = (uint64_t)a;
  switch (aop) {
  case AOP_ADD:
    return (int64_t)(uo + ua);
  case AOP_SUB:
    return (int64_t)(uo - ua);
  case AOP_MUL:
    return (int64_t)(uo * ua);
  case AOP_DIV:
    if (a == 0 || (old == INT64_MIN && a == -1))
      return a == 0 ? 0 : old;
    return old / a;
  case AOP_REM:
    if (a == 0 || (old == INT64_MIN && a == -1))
      return 0;
    return old % a;
  case AOP_AND:
    return (int64_t)(uo & ua);
  case AOP_OR:
    return (int64_t)(uo | ua);
  case AOP_XOR:
    return (int64_t)(uo ^ ua);
  case AOP_MIN:
    return old < a ? old : a;
  case AOP_MAX:
    return old > a ? old : a;
  case AOP_INC:
    return (int64_t)(uo >= ua ? 0 : uo + 1);
  case AOP_DEC:
    return (int64_t)((uo == 0 || uo > ua) ? ua : uo - 1);
  case AOP_EXCH:
    return a;
  case AOP_CAS:
    return old == a ? b : old;
  case AOP_SHL:
    return ua >= 64 ? 0 : (int64_t)(uo << ua);
  case AOP_SHR:
    return ua >= 64 ? 0 : (int64_t)(uo >> ua);
  default:
    return old;
  }
}
