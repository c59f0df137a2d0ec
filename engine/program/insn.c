/* insn.c -- instruction text: one PTX instruction (a cell of a .litmus
 * thread row, or a string given to wl_litmus_add_insn) parsed into a
 * wl_insn: mnemonic, qualifiers (semantics, scope, proxy, atomic op) and
 * operands. */
#include <stdio.h>
#include <string.h>

#include "reader.h"

/* ---------------------------------------------------------------- */
/* Instructions                                                      */

/* The mnemonic split at dots. */
#define MAXPARTS 8
typedef struct mnem {
  const char *part[MAXPARTS];
  size_t len[MAXPARTS];
  int n;
} mnem;

static int part_is(const mnem *m, int i, const char *s) {
  return i < m->n && m->len[i] == strlen(s) &&
         memcmp(m->part[i], s, m->len[i]) == 0;
}

static int part_in(const mnem *m, int i, const char *const *set) {
  int k;
  for (k = 0; set[k] != NULL; k++)
    if (part_is(m, i, set[k]))
      return k;
  return -1;
}

static const char *const sem_names[] = {
    "weak", "relaxed", "acquire", "release", "acq_rel", "sc", NULL};
static const char *const scope_names[] = {"", "cta", "gpu", "sys", NULL};
static const char *const aop_names[] = {
    "add", "sub", "mul", "div",  "rem", "and", "or",  "xor", "min",
    "max", "inc", "dec", "exch", "cas", "shl", "shr", NULL};
static const char *const cond_names[] = {"beq", "bne", "blt", "ble",
                                         "bgt", "bge", NULL};

/* Type and state-space suffixes real PTX writes; they do not change the
 * memory model's view of an access, so the reader accepts and drops
 * them. */
static int is_ignorable_suffix(const mnem *m, int i) {
  static const char *const sfx[] = {"global", "shared", "b8",      "b16", "b32",
                                    "b64",    "u8",     "u16",     "u32", "u64",
                                    "s8",     "s16",    "s32",     "s64", "f32",
                                    "f64",    "gen",    "generic", NULL};
  return part_in(m, i, sfx) >= 0;
}

static int operand(parser *p, wl_thread *th, const tok *t, wl_operand *o,
                   const char *what) {
  memset(o, 0, sizeof *o);
  if (t->kind == T_NUM) {
    o->imm = t->num;
    return 0;
  }
  if (t->kind == T_WORD && wl__name_is_reg(t->s, t->n)) {
    int r = wl__name_reg(p, th, t);
    if (r < 0)
      return r;
    o->is_reg = 1;
    o->reg = r;
    return 0;
  }
  {
    char d[40];
    wl__lex_describe(t, d, sizeof d);
    return wl__lex_err(p, WL_ESYNTAX, t->line, t->col,
                       "expected %s (a register or a constant), found %s", what,
                       d);
  }
}

/* A barrier's thread count given as a constant must be positive: PTX
 * requires a non-zero count wherever one is given.  The ISA also wants
 * a multiple of the warp size; litmus tests count threads, each thread
 * standing for one (Dat3M's corpus has "bar.cta.sync 1, 1, 2"), so that
 * rule is not applied here.  A count in a register is read when the
 * test runs. */
static int bar_count_ok(parser *p, const tok *t) {
  if (t->kind == T_NUM && t->num <= 0)
    return wl__lex_err(p, WL_ESYNTAX, t->line, t->col,
                       "barrier thread count %lld: a count must be positive "
                       "(leave it out for every thread of the CTA)",
                       (long long)t->num);
  return 0;
}

static int need_reg(parser *p, wl_thread *th, const tok *t, int *reg) {
  int r;
  if (t->kind != T_WORD || !wl__name_is_reg(t->s, t->n)) {
    char d[40];
    wl__lex_describe(t, d, sizeof d);
    return wl__lex_err(p, WL_ESYNTAX, t->line, t->col,
                       "expected a register (r0, r1, ...), found %s", d);
  }
  r = wl__name_reg(p, th, t);
  if (r < 0)
    return r;
  *reg = r;
  return 0;
}

/* A memory operand: in->loc gets its physical location, in->alias the
 * alias it names (0: none). */
static int need_loc(parser *p, const tok *t, wl_insn *in) {
  int l;
  if (t->kind != T_WORD || wl__name_is_reg(t->s, t->n)) {
    char d[40];
    wl__lex_describe(t, d, sizeof d);
    return wl__lex_err(p, WL_ESYNTAX, t->line, t->col,
                       "expected a memory location, found %s", d);
  }
  l = wl__name_loc_via(p, t, &in->alias);
  if (l < 0)
    return l;
  in->loc = l;
  return 0;
}

/* Operands of a cell: tokens separated by commas. */
static int split_operands(parser *p, const cell *c, int first, const tok **ops,
                          int maxops, int *nops) {
  int i = first, n = 0;
  if (i >= c->n) {
    *nops = 0;
    return 0;
  }
  for (;;) {
    if (i >= c->n)
      return wl__lex_err(p, WL_ESYNTAX, c->toks[c->n - 1].line,
                         c->toks[c->n - 1].col,
                         "expected an operand after ','");
    if (c->toks[i].kind != T_WORD && c->toks[i].kind != T_NUM) {
      char d[40];
      wl__lex_describe(&c->toks[i], d, sizeof d);
      return wl__lex_err(p, WL_ESYNTAX, c->toks[i].line, c->toks[i].col,
                         "expected an operand, found %s", d);
    }
    if (n == maxops)
      return wl__lex_err(p, WL_ESYNTAX, c->toks[i].line, c->toks[i].col,
                         "too many operands");
    ops[n++] = &c->toks[i++];
    if (i == c->n)
      break;
    if (!(c->toks[i].kind == T_PUNCT && c->toks[i].n == 1 &&
          c->toks[i].s[0] == ',')) {
      char d[40];
      wl__lex_describe(&c->toks[i], d, sizeof d);
      return wl__lex_err(p, WL_ESYNTAX, c->toks[i].line, c->toks[i].col,
                         "expected ',' between operands, found %s", d);
    }
    i++;
  }
  *nops = n;
  return 0;
}

static int nops_err(parser *p, const tok *t, const char *mn, const char *form) {
  return wl__lex_err(p, WL_ESYNTAX, t->line, t->col,
                     "wrong operands for %s: expected '%s'", mn, form);
}

/* sem[.scope] parts starting at *i for ld/st; sets sem/scope. */
static int ldst_quals(parser *p, const tok *mt, const mnem *m, int *i,
                      wl_insn *in, int is_store) {
  int s;
  in->sem = WL_SEM_WEAK;
  in->scope = WL_SCOPE_NONE;
  while (*i < m->n && is_ignorable_suffix(m, *i))
    (*i)++;
  if (part_is(m, *i, "volatile")) {
    /* PTX: ld.volatile / st.volatile behave as relaxed.sys. */
    in->sem = WL_SEM_RELAXED;
    in->scope = WL_SCOPE_SYS;
    (*i)++;
  } else if ((s = part_in(m, *i, sem_names)) >= 0) {
    (*i)++;
    if (s == WL_SEM_ACQ_REL || s == WL_SEM_SC ||
        (is_store && s == WL_SEM_ACQUIRE) || (!is_store && s == WL_SEM_RELEASE))
      return wl__lex_err(p, WL_ESYNTAX, mt->line, mt->col,
                         "%.*s cannot be .%s (expected .weak, .relaxed, .%s or "
                         ".volatile)",
                         (int)m->len[0], m->part[0], sem_names[s],
                         is_store ? "release" : "acquire");
    in->sem = (uint8_t)s;
    if (s != WL_SEM_WEAK) {
      int sc = part_in(m, *i, scope_names);
      if (sc <= 0)
        return wl__lex_err(p, WL_ESYNTAX, mt->line, mt->col,
                           "%.*s.%s needs a scope: .cta, .gpu or .sys",
                           (int)m->len[0], m->part[0], sem_names[s]);
      in->scope = (uint8_t)sc;
      (*i)++;
    }
  }
  while (*i < m->n && is_ignorable_suffix(m, *i))
    (*i)++;
  if (*i < m->n)
    return wl__lex_err(p, WL_ESYNTAX, mt->line, mt->col,
                       "unknown qualifier '.%.*s' in '%.*s'", (int)m->len[*i],
                       m->part[*i], (int)mt->n, mt->s);
  return 0;
}

/* atom/red qualifiers: [.sem][.scope][.space].op[.type] */
static int atom_quals(parser *p, const tok *mt, const mnem *m, int i,
                      wl_insn *in) {
  int s, sc, a;
  in->sem = WL_SEM_RELAXED; /* PTX defaults: .relaxed, .gpu */
  in->scope = WL_SCOPE_GPU;
  if ((s = part_in(m, i, sem_names)) >= 0) {
    if (s == WL_SEM_WEAK || s == WL_SEM_SC)
      return wl__lex_err(
          p, WL_ESYNTAX, mt->line, mt->col,
          "%.*s cannot be .%s (expected .relaxed, .acquire, .release "
          "or .acq_rel)",
          (int)m->len[0], m->part[0], sem_names[s]);
    in->sem = (uint8_t)s;
    i++;
  }
  if ((sc = part_in(m, i, scope_names)) > 0) {
    in->scope = (uint8_t)sc;
    i++;
  }
  while (i < m->n && is_ignorable_suffix(m, i))
    i++;
  if ((a = part_in(m, i, aop_names)) < 0 || a == AOP_SHL || a == AOP_SHR ||
      a == AOP_REM) {
    if (i < m->n)
      return wl__lex_err(
          p, WL_ESYNTAX, mt->line, mt->col,
          "unknown %.*s operation '.%.*s' (expected add, sub, inc, "
          "dec, exch, cas, min, max, and, or or xor)",
          (int)m->len[0], m->part[0], (int)m->len[i], m->part[i]);
    return wl__lex_err(p, WL_ESYNTAX, mt->line, mt->col,
                       "%.*s needs an operation, e.g. '.add'", (int)m->len[0],
                       m->part[0]);
  }
  if (in->op == OP_RED && (a == AOP_CAS || a == AOP_EXCH))
    return wl__lex_err(p, WL_ESYNTAX, mt->line, mt->col,
                       "%.*s has no .%s (use %s)", (int)m->len[0], m->part[0],
                       aop_names[a],
                       in->proxy == WL_PROXY_SUR ? "suatom" : "atom");
  in->aop = (uint8_t)a;
  i++;
  while (i < m->n && is_ignorable_suffix(m, i))
    i++;
  if (i < m->n)
    return wl__lex_err(p, WL_ESYNTAX, mt->line, mt->col,
                       "unknown qualifier '.%.*s' in '%.*s'", (int)m->len[i],
                       m->part[i], (int)mt->n, mt->s);
  return 0;
}

/* Parses one instruction (a cell's tokens) into *in for thread th.
 * Labels are returned with op OP_NOP and *label set. */
int wl__insn_parse(parser *p, wl_thread *th, const cell *c, wl_insn *in,
                   const tok **label, const tok **target) {
  const tok *mt = &c->toks[0];
  const tok *ops[5];
  int nops = 0, i, r;
  mnem m;
  memset(in, 0, sizeof *in);
  in->dst = -1;
  in->loc = -1;
  in->target = -1;
  in->line = mt->line;
  in->col = mt->col;
  *label = NULL;
  *target = NULL;
  if (mt->kind != T_WORD) {
    char d[40];
    wl__lex_describe(mt, d, sizeof d);
    return wl__lex_err(p, WL_ESYNTAX, mt->line, mt->col,
                       "expected an instruction or a label, found %s", d);
  }
  /* label "LC00:" */
  if (c->n >= 2 && c->toks[1].kind == T_PUNCT && c->toks[1].s[0] == ':') {
    if (c->n != 2 || !wl__name_is_loc(mt->s, mt->n))
      return wl__lex_err(p, WL_ESYNTAX, mt->line, mt->col,
                         "a label is a name followed by ':' alone in its cell");
    in->op = OP_NOP;
    *label = mt;
    return 0;
  }
  /* split the mnemonic at dots */
  m.n = 0;
  {
    size_t s = 0, k;
    for (k = 0; k <= mt->n; k++) {
      if (k == mt->n || mt->s[k] == '.') {
        if (m.n == MAXPARTS || k == s)
          return wl__lex_err(p, WL_ESYNTAX, mt->line, mt->col,
                             "malformed instruction name '%.*s'", (int)mt->n,
                             mt->s);
        m.part[m.n] = mt->s + s;
        m.len[m.n] = k - s;
        m.n++;
        s = k + 1;
      }
    }
  }
  r = split_operands(p, c, 1, ops, 5, &nops);
  if (r)
    return r;

  /* PTX 7.5 proxies (the table at the top of litmus.c) */
  {
    static const char *const lds[] = {"ld", "suld", "tld", "cold", NULL};
    static const uint8_t ldpx[] = {WL_PROXY_GEN, WL_PROXY_SUR, WL_PROXY_TEX,
                                   WL_PROXY_CON};
    static const char *const sts[] = {"st", "sust", NULL};
    static const char *const ats[] = {"atom", "red", "suatom", "sured",
                                      NULL};
    int k;
    if ((k = part_in(&m, 0, lds)) >= 0)
      in->proxy = ldpx[k];
    else if (part_in(&m, 0, sts) == 1 || part_in(&m, 0, ats) > 1)
      in->proxy = WL_PROXY_SUR;
  }

  if (part_is(&m, 0, "ld") || part_is(&m, 0, "suld") ||
      part_is(&m, 0, "tld") || part_is(&m, 0, "cold")) {
    char mn[8], form[48];
    snprintf(mn, sizeof mn, "%.*s", (int)m.len[0], m.part[0]);
    snprintf(form, sizeof form, "%s.sem.scope rD, location", mn);
    i = 1;
    if ((r = ldst_quals(p, mt, &m, &i, in, 0)) != 0)
      return r;
    if (nops != 2)
      return nops_err(p, mt, mn, form);
    if ((r = need_reg(p, th, ops[0], &in->dst)) != 0)
      return r;
    if (in->proxy == WL_PROXY_GEN &&
        (ops[1]->kind == T_NUM ||
         (ops[1]->kind == T_WORD && wl__name_is_reg(ops[1]->s, ops[1]->n)))) {
      /* Dat3M: "ld r0, 2" loads a constant into a register. */
      in->op = OP_MOV;
      return operand(p, th, ops[1], &in->a, "a value");
    }
    in->op = OP_LD;
    return need_loc(p, ops[1], in);
  }
  if (part_is(&m, 0, "st") || part_is(&m, 0, "sust")) {
    int su = part_is(&m, 0, "sust");
    i = 1;
    if ((r = ldst_quals(p, mt, &m, &i, in, 1)) != 0)
      return r;
    if (nops != 2)
      return nops_err(p, mt, su ? "sust" : "st",
                      su ? "sust.sem.scope location, value"
                         : "st.sem.scope location, value");
    in->op = OP_ST;
    if ((r = need_loc(p, ops[0], in)) != 0)
      return r;
    return operand(p, th, ops[1], &in->a, "the value to store");
  }
  if (part_is(&m, 0, "atom") || part_is(&m, 0, "red") ||
      part_is(&m, 0, "suatom") || part_is(&m, 0, "sured")) {
    int is_red = part_is(&m, 0, "red") || part_is(&m, 0, "sured");
    int su = in->proxy == WL_PROXY_SUR;
    in->op = is_red ? OP_RED : OP_ATOM;
    if ((r = atom_quals(p, mt, &m, 1, in)) != 0)
      return r;
    if (is_red) {
      if (nops != 2)
        return nops_err(p, mt, su ? "sured" : "red",
                        su ? "sured.sem.scope.op location, value"
                           : "red.sem.scope.op location, value");
      if ((r = need_loc(p, ops[0], in)) != 0)
        return r;
      return operand(p, th, ops[1], &in->a, "the operand");
    }
    if (in->aop == AOP_CAS) {
      if (nops != 4)
        return nops_err(p, mt, su ? "suatom.cas" : "atom.cas",
                        su ? "suatom.sem.scope.cas rD, location, expected, "
                             "new"
                           : "atom.sem.scope.cas rD, location, expected, new");
    } else if (nops != 3) {
      return nops_err(p, mt, su ? "suatom" : "atom",
                      su ? "suatom.sem.scope.op rD, location, value"
                         : "atom.sem.scope.op rD, location, value");
    }
    if ((r = need_reg(p, th, ops[0], &in->dst)) != 0)
      return r;
    if ((r = need_loc(p, ops[1], in)) != 0)
      return r;
    if ((r = operand(p, th, ops[2], &in->a, "the operand")) != 0)
      return r;
    if (in->aop == AOP_CAS)
      return operand(p, th, ops[3], &in->b, "the new value");
    return 0;
  }
  if (part_is(&m, 0, "fence") || part_is(&m, 0, "membar")) {
    int s, sc;
    in->op = OP_FENCE;
    if (part_is(&m, 1, "proxy")) {
      /* fence.proxy.<generic|surface|texture|constant|alias> */
      static const char *const pk[] = {"generic", "surface", "texture",
                                       "constant", "alias", NULL};
      static const uint8_t pkv[] = {WL_PROXY_GEN, WL_PROXY_SUR, WL_PROXY_TEX,
                                    WL_PROXY_CON};
      int k = part_in(&m, 2, pk);
      if (k < 0 || m.n != 3)
        return wl__lex_err(p, WL_ESYNTAX, mt->line, mt->col,
                           "expected fence.proxy.alias, fence.proxy.surface, "
                           "fence.proxy.texture, fence.proxy.constant or "
                           "fence.proxy.generic, found '%.*s'",
                           (int)mt->n, mt->s);
      if (nops != 0)
        return nops_err(p, mt, "fence.proxy", "fence.proxy.kind");
      if (k == 4) {
        in->pfence = PFENCE_ALIAS;
      } else {
        in->pfence = PFENCE_PROXY;
        in->proxy = pkv[k];
      }
      return 0;
    }
    if (nops != 0)
      return nops_err(p, mt, "fence", "fence.sem.scope");
    if (part_is(&m, 0, "membar")) {
      /* membar.{cta,gl,sys} is fence.sc.{cta,gpu,sys} */
      static const char *const ms[] = {"", "cta", "gl", "sys", NULL};
      sc = part_in(&m, 1, ms);
      if (sc <= 0 || m.n != 2)
        return wl__lex_err(p, WL_ESYNTAX, mt->line, mt->col,
                           "expected membar.cta, membar.gl or membar.sys");
      in->sem = WL_SEM_SC;
      in->scope = (uint8_t)sc;
      return 0;
    }
    s = part_in(&m, 1, sem_names);
    if (s != WL_SEM_SC && s != WL_SEM_ACQ_REL)
      return wl__lex_err(
          p, WL_ESYNTAX, mt->line, mt->col,
          "expected fence.sc or fence.acq_rel followed by a scope, "
          "or fence.proxy.<kind>");
    sc = part_in(&m, 2, scope_names);
    if (sc <= 0 || m.n != 3)
      return wl__lex_err(p, WL_ESYNTAX, mt->line, mt->col,
                         "fence.%s needs a scope: .cta, .gpu or .sys",
                         sem_names[s]);
    in->sem = (uint8_t)s;
    in->scope = (uint8_t)sc;
    return 0;
  }
  if (part_is(&m, 0, "bar") || part_is(&m, 0, "barrier")) {
    int k = 1, dat3m = 0;
    in->op = OP_BAR;
    in->sem = WL_SEM_ACQ_REL;
    in->scope = WL_SCOPE_CTA;
    if (part_is(&m, k, "cta")) {
      dat3m = 1;
      k++;
    }
    if (part_is(&m, k, "sync"))
      in->bar_kind = BAR_SYNC;
    else if (part_is(&m, k, "arrive"))
      in->bar_kind = BAR_ARRIVE;
    else
      return wl__lex_err(p, WL_ESYNTAX, mt->line, mt->col,
                         "expected bar.cta.sync, bar.cta.arrive, bar.sync or "
                         "bar.arrive");
    k++;
    if (part_is(&m, k, "aligned"))
      k++;
    if (k != m.n)
      return wl__lex_err(p, WL_ESYNTAX, mt->line, mt->col,
                         "unknown qualifier '.%.*s' in '%.*s'", (int)m.len[k],
                         m.part[k], (int)mt->n, mt->s);
    if (dat3m) {
      /* Dat3M: bar.cta.sync INSTANCE{, ID{, COUNT}} */
      if (nops < 1 || nops > 3 || ops[0]->kind != T_NUM)
        return nops_err(p, mt, "bar.cta.sync",
                        "bar.cta.sync instance{, id{, count}}");
      in->bar_inst = ops[0]->num;
      if (nops == 1) {
        in->bar_ns = BARNS_INSTANCE;
        return 0;
      }
      in->bar_ns = BARNS_NAMED;
      if ((r = operand(p, th, ops[1], &in->a, "a barrier id")) != 0)
        return r;
      if (nops == 3) {
        in->has_count = 1;
        if ((r = operand(p, th, ops[2], &in->b, "a thread count")) != 0)
          return r;
        return bar_count_ok(p, ops[2]);
      }
      return 0;
    }
    /* PTX: bar.sync a{, b}; bar.arrive a, b */
    in->bar_ns = BARNS_PTX;
    if (nops < 1 || nops > 2 || (in->bar_kind == BAR_ARRIVE && nops != 2))
      return nops_err(p, mt,
                      in->bar_kind == BAR_ARRIVE ? "bar.arrive" : "bar.sync",
                      in->bar_kind == BAR_ARRIVE ? "bar.arrive id, count"
                                                 : "bar.sync id{, count}");
    if ((r = operand(p, th, ops[0], &in->a, "a barrier id")) != 0)
      return r;
    /* PTX ISA, bar: "a logical barrier resource ... with value 0
     * through 15" */
    if (ops[0]->kind == T_NUM && (ops[0]->num < 0 || ops[0]->num > 15))
      return wl__lex_err(
          p, WL_ESYNTAX, ops[0]->line, ops[0]->col,
          "barrier id %lld out of range (PTX has barriers 0 to 15)",
          (long long)ops[0]->num);
    if (nops == 2) {
      in->has_count = 1;
      if ((r = operand(p, th, ops[1], &in->b, "a thread count")) != 0)
        return r;
      return bar_count_ok(p, ops[1]);
    }
    return 0;
  }
  if (part_is(&m, 0, "mov")) {
    if (nops != 2)
      return nops_err(p, mt, "mov", "mov rD, value");
    in->op = OP_MOV;
    if ((r = need_reg(p, th, ops[0], &in->dst)) != 0)
      return r;
    return operand(p, th, ops[1], &in->a, "a value");
  }
  if ((r = part_in(&m, 0, aop_names)) >= 0 && r != AOP_INC && r != AOP_DEC &&
      r != AOP_EXCH && r != AOP_CAS) {
    for (i = 1; i < m.n; i++)
      if (!is_ignorable_suffix(&m, i))
        return wl__lex_err(p, WL_ESYNTAX, mt->line, mt->col,
                           "unknown qualifier '.%.*s' in '%.*s'", (int)m.len[i],
                           m.part[i], (int)mt->n, mt->s);
    in->op = OP_ALU;
    in->aop = (uint8_t)r;
    if (nops != 3)
      return nops_err(p, mt, aop_names[r], "op rD, a, b");
    if ((r = need_reg(p, th, ops[0], &in->dst)) != 0)
      return r;
    if ((r = operand(p, th, ops[1], &in->a, "an operand")) != 0)
      return r;
    return operand(p, th, ops[2], &in->b, "an operand");
  }
  if ((r = part_in(&m, 0, cond_names)) >= 0 && m.n == 1) {
    in->op = OP_BRANCH;
    in->cond = (uint8_t)r;
    if (nops != 3 || ops[2]->kind != T_WORD)
      return nops_err(p, mt, cond_names[r], "bXX a, b, LABEL");
    if ((r = operand(p, th, ops[0], &in->a, "a value")) != 0)
      return r;
    if ((r = operand(p, th, ops[1], &in->b, "a value")) != 0)
      return r;
    *target = ops[2];
    return 0;
  }
  if ((part_is(&m, 0, "goto") || part_is(&m, 0, "bra")) &&
      (m.n == 1 || (m.n == 2 && part_is(&m, 1, "uni")))) {
    in->op = OP_GOTO;
    if (nops != 1 || ops[0]->kind != T_WORD)
      return nops_err(p, mt, "goto", "goto LABEL");
    *target = ops[0];
    return 0;
  }
  return wl__lex_err(
      p, WL_ESYNTAX, mt->line, mt->col,
      "unknown instruction '%.*s' (expected ld, st, atom, red, "
      "fence, membar, bar, mov, add, ..., beq, bne, goto, a "
      "label, or PTX 7.5's tld, suld, sust, cold, suatom, sured)",
      (int)mt->n, mt->s);
}
