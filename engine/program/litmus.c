/* litmus.c -- the reader of Dat3M's PTX litmus dialect.
 *
 *   PTX NAME  <free text, "quoted" comments>
 *   { x=0; P1:r1=0; }
 *    P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 *    st.weak x, 1   | ld.acquire.gpu r1, y ;
 *    ...
 *   [locations [x; P1:r2;]]
 *   exists|~exists|forall (P1:r1 == 1 /\ x != 2)
 *
 * A hand-written lexer and recursive-descent parser; every error names
 * file:line:col and what was expected.  Nothing here allocates without
 * checking, and no input makes it read out of bounds (fuzzed).
 *
 * PTX 7.5 proxies, read as Dat3M reads them (its grammar LitmusPTX.g4,
 * its visitor VisitorLitmusPTX.java, the PTX tags of Tag.java, the
 * compilation of atomics in VisitorPTX.java, VirtualMemoryObject.java
 * and the vloc relation of NativeRelationAnalysis.java), so that our
 * events mean what Dat3M's do under ptx-v7.5.cat:
 *
 *   instruction              events (cat sets)
 *   ld/st/atom/red ...       as in PTX 6.0, and GEN
 *   tld.sem[.scope] r, a     R, TEX (a texture load)
 *   suld.sem[.scope] r, a    R, SUR (a surface load)
 *   cold.sem[.scope] r, a    R, CON (a constant load)
 *   sust.sem[.scope] a, v    W, SUR (a surface store)
 *   suatom.sem.scope.op ..   R and W (RMW), SUR (Dat3M's grammar; no test
 *   sured.sem.scope.op ..    of the corpus uses them)
 *   fence.sc/acq_rel.scope   F, SC or ACQ_REL, scope, GEN
 *   fence.proxy.generic      F, GEN    no semantics and no scope: never
 *   fence.proxy.surface      F, SUR    in sr, so never morally strong
 *   fence.proxy.texture      F, TEX    with another thread, and not a
 *   fence.proxy.constant     F, CON    release or acquire pattern
 *   fence.proxy.alias        F, ALIAS
 *   bar.cta.sync/arrive      F (barrier), as in PTX 6.0
 *
 * Semantics and scopes are the ld/st ones (Dat3M: .weak takes no scope,
 * the others need one).  An RMW's read and write both carry the
 * instruction's proxy and scope (Dat3M's propagateTags).
 *
 * Dat3M tags barriers, fence.proxy.alias and initial writes with no
 * proxy at all; our events are generic (wl_ev.proxy 0).  ptx-v7.5.cat
 * cannot tell: it uses the proxy of an event only in same-proxy, and a
 * generic non-proxy fence f adds pairs to proxy-preserved-cause-base
 * only as m1 ->cause-base f ->cause-base m2 with m1 or m2 generic, which
 * the [GEN]-ended alternatives already give (cause-base is transitive);
 * initial writes are in no cause-base, and never morally strong (no
 * scope).
 *
 * Declarations (in the initial state):
 *   x = 0 @ gpu 1            x's home: the GPU whose memory holds it
 *                            (warplab's own; default: P0's GPU); threads
 *                            on other GPUs reach it as peer memory
 *   y @ generic aliases x    y is another name of x's physical location,
 *                            with a virtual address of its own
 *   s @ surface aliases x    (also texture, constant): the same physical
 *                            location, and the virtual address of x
 * Dat3M's VirtualMemoryObject: an alias's physical address is its
 * target's physical address; its "generic address" is itself when the
 * alias is generic, else the target (the target itself, not the
 * target's generic address).  vloc relates accesses whose generic
 * addresses are equal, loc accesses whose physical addresses are.  So
 * with x = 0; y @ generic aliases x; s @ surface aliases y: accesses
 * to x, y, s all have loc x; vloc(x) = x, vloc(y) = vloc(s) = y.  The
 * proxy of an event is its instruction's (tld on a surface alias is a
 * texture access); the word in the declaration only says generic or
 * not.  Dat3M gives every alias an initial write of its own (the target's
 * initial value, copied at the declaration); two initial writes of one
 * location are unordered in its co and write the same value, and initial
 * writes take part in no cause-base, so one initial write per physical
 * location (ours) gives the same outcomes.
 *
 * Aliases are not locations: wl_litmus.nlocs counts physical locations,
 * so final states show each physical location once, under its own name;
 * a condition or "locations [...]" naming an alias reads its physical
 * location.  Instructions keep the alias they name (wl_insn.alias), and
 * wl__insn_vloc gives their virtual address.  The built-in explorer and
 * the simulator implement PTX 6.0 only: wl__litmus_check_v60 makes them
 * refuse a test with aliases or proxy instructions. */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

enum { T_EOF, T_WORD, T_NUM, T_PUNCT };

typedef struct tok {
  int kind;
  const char *s; /* start in source */
  size_t n;
  int64_t num;
  int line, col;
} tok;

typedef struct parser {
  wl_ctx *ctx;
  const char *file;
  const char *src;
  size_t len, pos;
  int line, col;
  tok t;   /* current token */
  int err; /* first error */
  int depth; /* nesting of the condition being parsed */
  wl_litmus *lt;
} parser;

/* ---------------------------------------------------------------- */
/* Lexer                                                             */

static int perr(parser *p, int code, int line, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static int perr(parser *p, int code, int line, int col, const char *fmt, ...) {
  char msg[WL_ERRMSG_MAX - 64];
  va_list ap;
  if (p->err)
    return p->err;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  p->err = code;
  wl__err(p->ctx, code, "%s:%d:%d: %s", p->file, line, col, msg);
  return code;
}

static void describe(const tok *t, char *out, size_t n) {
  if (t->kind == T_EOF)
    snprintf(out, n, "end of file");
  else if (t->n > 24)
    snprintf(out, n, "'%.24s...'", t->s);
  else
    snprintf(out, n, "'%.*s'", (int)t->n, t->s);
}

static int expected(parser *p, const char *what) {
  char d[40];
  describe(&p->t, d, sizeof d);
  return perr(p, WL_ESYNTAX, p->t.line, p->t.col, "expected %s, found %s", what,
              d);
}

static int peekc(const parser *p, size_t k) {
  return p->pos + k < p->len ? (unsigned char)p->src[p->pos + k] : -1;
}

static void advc(parser *p) {
  if (p->pos >= p->len)
    return;
  if (p->src[p->pos] == '\n') {
    p->line++;
    p->col = 1;
  } else {
    p->col++;
  }
  p->pos++;
}

static int is_word_start(int c) { return c == '_' || isalpha(c) || c == '%'; }
static int is_word(int c) {
  return c == '_' || c == '.' || c == '%' || c == '$' || isalnum(c);
}

static void skip_space(parser *p) {
  for (;;) {
    int c = peekc(p, 0);
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' ||
        c == '\v') {
      advc(p);
    } else if (c == '(' && peekc(p, 1) == '*') {
      /* herd-style comment (* ... *) */
      int l = p->line, co = p->col;
      advc(p);
      advc(p);
      while (!(peekc(p, 0) == '*' && peekc(p, 1) == ')')) {
        if (peekc(p, 0) < 0) {
          perr(p, WL_ESYNTAX, l, co, "unterminated comment '(*'");
          return;
        }
        if (peekc(p, 0) == 0) {
          perr(p, WL_ESYNTAX, p->line, p->col, "NUL byte in the text");
          return;
        }
        advc(p);
      }
      advc(p);
      advc(p);
    } else if (c == '/' && peekc(p, 1) == '/') {
      /* a NUL here would end up inside a kept condition text */
      while (peekc(p, 0) > 0 && peekc(p, 0) != '\n')
        advc(p);
    } else {
      return;
    }
  }
}

static void next(parser *p) {
  tok *t = &p->t;
  int c;
  skip_space(p);
  t->s = p->src + p->pos;
  t->line = p->line;
  t->col = p->col;
  t->n = 0;
  c = peekc(p, 0);
  if (c < 0 || p->err) {
    t->kind = T_EOF;
    return;
  }
  if (c == 0) {
    perr(p, WL_ESYNTAX, p->line, p->col, "NUL byte in the text");
    t->kind = T_EOF;
    return;
  }
  if (isdigit(c) || (c == '-' && isdigit(peekc(p, 1)))) {
    int neg = 0, base = 10, any = 0;
    uint64_t v = 0;
    if (c == '-') {
      neg = 1;
      advc(p);
    }
    if (peekc(p, 0) == '0' && (peekc(p, 1) == 'x' || peekc(p, 1) == 'X')) {
      base = 16;
      advc(p);
      advc(p);
    }
    for (;;) {
      int d = peekc(p, 0), dv;
      if (d >= '0' && d <= '9')
        dv = d - '0';
      else if (base == 16 && isxdigit(d))
        dv = tolower(d) - 'a' + 10;
      else
        break;
      if (v > (UINT64_MAX - (uint64_t)dv) / (uint64_t)base) {
        perr(p, WL_ESYNTAX, t->line, t->col, "number too large");
        t->kind = T_EOF;
        return;
      }
      v = v * (uint64_t)base + (uint64_t)dv;
      any = 1;
      advc(p);
    }
    if (!any || is_word_start(peekc(p, 0))) {
      perr(p, WL_ESYNTAX, t->line, t->col, "malformed number");
      t->kind = T_EOF;
      return;
    }
    if ((!neg && v > (uint64_t)INT64_MAX) ||
        (neg && v > (uint64_t)INT64_MAX + 1)) {
      perr(p, WL_ESYNTAX, t->line, t->col, "number out of 64-bit range");
      t->kind = T_EOF;
      return;
    }
    t->kind = T_NUM;
    t->num = neg ? (int64_t)(0 - v) : (int64_t)v;
    t->n = (size_t)(p->src + p->pos - t->s);
    return;
  }
  if (is_word_start(c)) {
    while (is_word(peekc(p, 0)))
      advc(p);
    t->kind = T_WORD;
    t->n = (size_t)(p->src + p->pos - t->s);
    return;
  }
  /* two-character punctuation first */
  {
    static const char *two[] = {"==", "!=", "/\\", "\\/", "&&",
                                "||", "<=", ">=",  NULL};
    int i;
    for (i = 0; two[i] != NULL; i++) {
      if (c == two[i][0] && peekc(p, 1) == two[i][1]) {
        advc(p);
        advc(p);
        t->kind = T_PUNCT;
        t->n = 2;
        return;
      }
    }
  }
  if (strchr("{};|,:()[]=~@&<>!*+", c) != NULL) {
    advc(p);
    t->kind = T_PUNCT;
    t->n = 1;
    return;
  }
  perr(p, WL_ESYNTAX, p->line, p->col, "unexpected character '%c'",
       isprint(c) ? c : '?');
  t->kind = T_EOF;
}

static int is_p(const parser *p, const char *s) {
  return p->t.kind == T_PUNCT && p->t.n == strlen(s) &&
         memcmp(p->t.s, s, p->t.n) == 0;
}

static int is_w(const parser *p, const char *s) {
  return p->t.kind == T_WORD && p->t.n == strlen(s) &&
         memcmp(p->t.s, s, p->t.n) == 0;
}

static int accept_p(parser *p, const char *s) {
  if (is_p(p, s)) {
    next(p);
    return 1;
  }
  return 0;
}

static int expect_p(parser *p, const char *s) {
  char what[16];
  if (accept_p(p, s))
    return 0;
  snprintf(what, sizeof what, "'%s'", s);
  return expected(p, what);
}

/* ---------------------------------------------------------------- */
/* Names                                                             */

int wl__thread_reg(wl_ctx *ctx, wl_thread *t, const char *name, size_t n) {
  int i;
  for (i = 0; i < t->nregs; i++)
    if (strlen(t->regnames[i]) == n && memcmp(t->regnames[i], name, n) == 0)
      return i;
  if (t->nregs >= WL_MAX_REGS)
    return -1;
  t->regnames[t->nregs] = wl__strndup(ctx, name, n);
  if (t->regnames[t->nregs] == NULL)
    return -2;
  t->reginit[t->nregs] = 0;
  t->regtype[t->nregs] = WL_TYPE_INT64;
  t->regtyped[t->nregs] = 0;
  return t->nregs++;
}

int wl__thread_result(wl_ctx *ctx, wl_thread *t, const char *name, int type,
                      int *was) {
  int r = wl__thread_reg(ctx, t, name, strlen(name));
  if (r < 0)
    return r;
  if (!t->regtyped[r]) {
    t->regtype[r] = (uint8_t)type;
    t->regtyped[r] = 1;
  }
  *was = t->regtype[r];
  return *was == type ? r : -3;
}

int wl__litmus_loc(wl_litmus *t, const char *name, size_t n) {
  int i;
  for (i = 0; i < t->nlocs; i++)
    if (strlen(t->locnames[i]) == n && memcmp(t->locnames[i], name, n) == 0)
      return i;
  if (t->nlocs >= WL_MAX_LOCS)
    return -1;
  t->locnames[t->nlocs] = wl__strndup(t->ctx, name, n);
  if (t->locnames[t->nlocs] == NULL)
    return -2;
  t->locinit[t->nlocs] = 0;
  t->lochome[t->nlocs] = -1;
  return t->nlocs++;
}

/* A register name: r<digits> (Dat3M), or %r<digits> as PTX spells it. */
static int is_regname(const char *s, size_t n) {
  size_t i = 0;
  if (n > 0 && s[0] == '%')
    i = 1;
  if (n < i + 2 || s[i] != 'r')
    return 0;
  for (i++; i < n; i++)
    if (!isdigit((unsigned char)s[i]))
      return 0;
  return 1;
}

static int is_locname(const char *s, size_t n) {
  size_t i;
  if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
    return 0;
  for (i = 1; i < n; i++)
    if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
      return 0;
  return 1;
}

static int reg_of(parser *p, wl_thread *th, const tok *t) {
  int r = wl__thread_reg(p->ctx, th, t->s, t->n);
  if (r == -2)
    return perr(p, WL_ENOMEM, t->line, t->col, "out of memory");
  if (r < 0)
    return perr(p, WL_ELIMIT, t->line, t->col,
                "too many registers in %s (at most %d)", th->name, WL_MAX_REGS);
  return r;
}

/* The alias named s[0..n), or -1. */
static int alias_of(const wl_litmus *t, const char *s, size_t n) {
  int k;
  for (k = 0; k < t->naliases; k++)
    if (strlen(t->aliasnames[k]) == n && memcmp(t->aliasnames[k], s, n) == 0)
      return k;
  return -1;
}

/* The physical location a name denotes (declaring a location on first
 * use); an alias's name gives the location it aliases, and its number
 * + 1 in *alias (when alias is not NULL; 0 for a location). */
static int loc_via(parser *p, const tok *t, int *alias) {
  int l, k;
  if (alias != NULL)
    *alias = 0;
  if (!is_locname(t->s, t->n))
    return perr(p, WL_ESYNTAX, t->line, t->col, "'%.*s' is not a location name",
                (int)t->n, t->s);
  if ((k = alias_of(p->lt, t->s, t->n)) >= 0) {
    if (alias != NULL)
      *alias = k + 1;
    return p->lt->aliasloc[k];
  }
  l = wl__litmus_loc(p->lt, t->s, t->n);
  if (l == -2)
    return perr(p, WL_ENOMEM, t->line, t->col, "out of memory");
  if (l < 0)
    return perr(p, WL_ELIMIT, t->line, t->col,
                "too many locations (at most %d)", WL_MAX_LOCS);
  return l;
}

static int loc_of(parser *p, const tok *t) { return loc_via(p, t, NULL); }

/* Declares name[0..n) an alias of target[0..tn) through proxy (see the
 * top of this file).  Returns its number, or AL_* below. */
enum {
  AL_USED = -1,
  AL_TWICE = -2,
  AL_NOTARGET = -3,
  AL_FULL = -4,
  AL_NOMEM = -5
};
static int add_alias(wl_litmus *t, const char *name, size_t n, int proxy,
                     const char *target, size_t tn, int line) {
  int k, tl, tv, i;
  if (alias_of(t, name, n) >= 0)
    return AL_TWICE;
  for (i = 0; i < t->nlocs; i++)
    if (strlen(t->locnames[i]) == n && memcmp(t->locnames[i], name, n) == 0)
      return AL_USED;
  if ((k = alias_of(t, target, tn)) >= 0) {
    /* the target itself, even when it is a non-generic alias (whose
     * own accesses have its target's virtual address): Dat3M's
     * VirtualMemoryObject takes the alias object, not its generic
     * address */
    tl = t->aliasloc[k];
    tv = WL_MAX_LOCS + k;
  } else {
    for (tl = 0; tl < t->nlocs; tl++)
      if (strlen(t->locnames[tl]) == tn &&
          memcmp(t->locnames[tl], target, tn) == 0)
        break;
    if (tl == t->nlocs)
      return AL_NOTARGET;
    tv = tl;
  }
  if (t->naliases == WL_MAX_ALIASES)
    return AL_FULL;
  k = t->naliases;
  if ((t->aliasnames[k] = wl__strndup(t->ctx, name, n)) == NULL)
    return AL_NOMEM;
  t->aliasloc[k] = tl;
  /* Dat3M: the generic address of a generic alias is itself, that of
   * any other alias is its target (the target itself) */
  t->aliasvloc[k] = proxy == WL_PROXY_GEN ? WL_MAX_LOCS + k : tv;
  t->aliasproxy[k] = (uint8_t)proxy;
  t->aliasline[k] = line;
  t->naliases++;
  return k;
}

/* Notes the first PTX 7.5 construct, for wl__litmus_check_v60. */
static void mark_v75(parser *p, int line, int col, int alias) {
  if (p->lt->v75line == 0) {
    p->lt->v75line = line;
    p->lt->v75col = col;
    p->lt->v75alias = (uint8_t)alias;
  }
}

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

typedef struct cell {
  tok toks[16];
  int n;
} cell;

static int operand(parser *p, wl_thread *th, const tok *t, wl_operand *o,
                   const char *what) {
  memset(o, 0, sizeof *o);
  if (t->kind == T_NUM) {
    o->imm = t->num;
    return 0;
  }
  if (t->kind == T_WORD && is_regname(t->s, t->n)) {
    int r = reg_of(p, th, t);
    if (r < 0)
      return r;
    o->is_reg = 1;
    o->reg = r;
    return 0;
  }
  {
    char d[40];
    describe(t, d, sizeof d);
    return perr(p, WL_ESYNTAX, t->line, t->col,
                "expected %s (a register or a constant), found %s", what, d);
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
    return perr(p, WL_ESYNTAX, t->line, t->col,
                "barrier thread count %lld: a count must be positive "
                "(leave it out for every thread of the CTA)",
                (long long)t->num);
  return 0;
}

static int need_reg(parser *p, wl_thread *th, const tok *t, int *reg) {
  int r;
  if (t->kind != T_WORD || !is_regname(t->s, t->n)) {
    char d[40];
    describe(t, d, sizeof d);
    return perr(p, WL_ESYNTAX, t->line, t->col,
                "expected a register (r0, r1, ...), found %s", d);
  }
  r = reg_of(p, th, t);
  if (r < 0)
    return r;
  *reg = r;
  return 0;
}

/* A memory operand: in->loc gets its physical location, in->alias the
 * alias it names (0: none). */
static int need_loc(parser *p, const tok *t, wl_insn *in) {
  int l;
  if (t->kind != T_WORD || is_regname(t->s, t->n)) {
    char d[40];
    describe(t, d, sizeof d);
    return perr(p, WL_ESYNTAX, t->line, t->col,
                "expected a memory location, found %s", d);
  }
  l = loc_via(p, t, &in->alias);
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
      return perr(p, WL_ESYNTAX, c->toks[c->n - 1].line, c->toks[c->n - 1].col,
                  "expected an operand after ','");
    if (c->toks[i].kind != T_WORD && c->toks[i].kind != T_NUM) {
      char d[40];
      describe(&c->toks[i], d, sizeof d);
      return perr(p, WL_ESYNTAX, c->toks[i].line, c->toks[i].col,
                  "expected an operand, found %s", d);
    }
    if (n == maxops)
      return perr(p, WL_ESYNTAX, c->toks[i].line, c->toks[i].col,
                  "too many operands");
    ops[n++] = &c->toks[i++];
    if (i == c->n)
      break;
    if (!(c->toks[i].kind == T_PUNCT && c->toks[i].n == 1 &&
          c->toks[i].s[0] == ',')) {
      char d[40];
      describe(&c->toks[i], d, sizeof d);
      return perr(p, WL_ESYNTAX, c->toks[i].line, c->toks[i].col,
                  "expected ',' between operands, found %s", d);
    }
    i++;
  }
  *nops = n;
  return 0;
}

static int nops_err(parser *p, const tok *t, const char *mn, const char *form) {
  return perr(p, WL_ESYNTAX, t->line, t->col,
              "wrong operands for %s: expected '%s'", mn, form);
}

/* sem[.scope] parts starting at *i for ld/st; sets sem/scope. */
static int ldst_quals(parser *p, const tok *mt, const mnem *m, int *i,
                      wl_insn *in, int is_store) {
  int s;
  in->sem = SEM_WEAK;
  in->scope = SCOPE_NONE;
  while (*i < m->n && is_ignorable_suffix(m, *i))
    (*i)++;
  if (part_is(m, *i, "volatile")) {
    /* PTX: ld.volatile / st.volatile behave as relaxed.sys. */
    in->sem = SEM_RELAXED;
    in->scope = SCOPE_SYS;
    (*i)++;
  } else if ((s = part_in(m, *i, sem_names)) >= 0) {
    (*i)++;
    if (s == SEM_ACQ_REL || s == SEM_SC || (is_store && s == SEM_ACQUIRE) ||
        (!is_store && s == SEM_RELEASE))
      return perr(p, WL_ESYNTAX, mt->line, mt->col,
                  "%.*s cannot be .%s (expected .weak, .relaxed, .%s or "
                  ".volatile)",
                  (int)m->len[0], m->part[0], sem_names[s],
                  is_store ? "release" : "acquire");
    in->sem = (uint8_t)s;
    if (s != SEM_WEAK) {
      int sc = part_in(m, *i, scope_names);
      if (sc <= 0)
        return perr(p, WL_ESYNTAX, mt->line, mt->col,
                    "%.*s.%s needs a scope: .cta, .gpu or .sys",
                    (int)m->len[0], m->part[0], sem_names[s]);
      in->scope = (uint8_t)sc;
      (*i)++;
    }
  }
  while (*i < m->n && is_ignorable_suffix(m, *i))
    (*i)++;
  if (*i < m->n)
    return perr(p, WL_ESYNTAX, mt->line, mt->col,
                "unknown qualifier '.%.*s' in '%.*s'", (int)m->len[*i],
                m->part[*i], (int)mt->n, mt->s);
  return 0;
}

/* atom/red qualifiers: [.sem][.scope][.space].op[.type] */
static int atom_quals(parser *p, const tok *mt, const mnem *m, int i,
                      wl_insn *in) {
  int s, sc, a;
  in->sem = SEM_RELAXED; /* PTX defaults: .relaxed, .gpu */
  in->scope = SCOPE_GPU;
  if ((s = part_in(m, i, sem_names)) >= 0) {
    if (s == SEM_WEAK || s == SEM_SC)
      return perr(p, WL_ESYNTAX, mt->line, mt->col,
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
      return perr(p, WL_ESYNTAX, mt->line, mt->col,
                  "unknown %.*s operation '.%.*s' (expected add, sub, inc, "
                  "dec, exch, cas, min, max, and, or or xor)",
                  (int)m->len[0], m->part[0], (int)m->len[i],
                  m->part[i]);
    return perr(p, WL_ESYNTAX, mt->line, mt->col,
                "%.*s needs an operation, e.g. '.add'",
                (int)m->len[0], m->part[0]);
  }
  if (in->op == OP_RED && (a == AOP_CAS || a == AOP_EXCH))
    return perr(p, WL_ESYNTAX, mt->line, mt->col, "%.*s has no .%s (use %s)",
                (int)m->len[0], m->part[0], aop_names[a],
                in->proxy == WL_PROXY_SUR ? "suatom" : "atom");
  in->aop = (uint8_t)a;
  i++;
  while (i < m->n && is_ignorable_suffix(m, i))
    i++;
  if (i < m->n)
    return perr(p, WL_ESYNTAX, mt->line, mt->col,
                "unknown qualifier '.%.*s' in '%.*s'", (int)m->len[i],
                m->part[i], (int)mt->n, mt->s);
  return 0;
}

/* Parses one instruction (a cell's tokens) into *in for thread th.
 * Labels are returned with op OP_NOP and *label set. */
static int parse_insn(parser *p, wl_thread *th, const cell *c, wl_insn *in,
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
    describe(mt, d, sizeof d);
    return perr(p, WL_ESYNTAX, mt->line, mt->col,
                "expected an instruction or a label, found %s", d);
  }
  /* label "LC00:" */
  if (c->n >= 2 && c->toks[1].kind == T_PUNCT && c->toks[1].s[0] == ':') {
    if (c->n != 2 || !is_locname(mt->s, mt->n))
      return perr(p, WL_ESYNTAX, mt->line, mt->col,
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
          return perr(p, WL_ESYNTAX, mt->line, mt->col,
                      "malformed instruction name '%.*s'", (int)mt->n, mt->s);
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

  /* PTX 7.5 proxies (the table at the top of this file) */
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
         (ops[1]->kind == T_WORD && is_regname(ops[1]->s, ops[1]->n)))) {
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
        return perr(p, WL_ESYNTAX, mt->line, mt->col,
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
        return perr(p, WL_ESYNTAX, mt->line, mt->col,
                    "expected membar.cta, membar.gl or membar.sys");
      in->sem = SEM_SC;
      in->scope = (uint8_t)sc;
      return 0;
    }
    s = part_in(&m, 1, sem_names);
    if (s != SEM_SC && s != SEM_ACQ_REL)
      return perr(p, WL_ESYNTAX, mt->line, mt->col,
                  "expected fence.sc or fence.acq_rel followed by a scope, "
                  "or fence.proxy.<kind>");
    sc = part_in(&m, 2, scope_names);
    if (sc <= 0 || m.n != 3)
      return perr(p, WL_ESYNTAX, mt->line, mt->col,
                  "fence.%s needs a scope: .cta, .gpu or .sys", sem_names[s]);
    in->sem = (uint8_t)s;
    in->scope = (uint8_t)sc;
    return 0;
  }
  if (part_is(&m, 0, "bar") || part_is(&m, 0, "barrier")) {
    int k = 1, dat3m = 0;
    in->op = OP_BAR;
    in->sem = SEM_ACQ_REL;
    in->scope = SCOPE_CTA;
    if (part_is(&m, k, "cta")) {
      dat3m = 1;
      k++;
    }
    if (part_is(&m, k, "sync"))
      in->bar_kind = BAR_SYNC;
    else if (part_is(&m, k, "arrive"))
      in->bar_kind = BAR_ARRIVE;
    else
      return perr(p, WL_ESYNTAX, mt->line, mt->col,
                  "expected bar.cta.sync, bar.cta.arrive, bar.sync or "
                  "bar.arrive");
    k++;
    if (part_is(&m, k, "aligned"))
      k++;
    if (k != m.n)
      return perr(p, WL_ESYNTAX, mt->line, mt->col,
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
      return perr(p, WL_ESYNTAX, ops[0]->line, ops[0]->col,
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
        return perr(p, WL_ESYNTAX, mt->line, mt->col,
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
  return perr(p, WL_ESYNTAX, mt->line, mt->col,
              "unknown instruction '%.*s' (expected ld, st, atom, red, "
              "fence, membar, bar, mov, add, ..., beq, bne, goto, a "
              "label, or PTX 7.5's tld, suld, sust, cold, suatom, sured)",
              (int)mt->n, mt->s);
}

/* ---------------------------------------------------------------- */
/* Sections                                                          */

static int thread_index(parser *p, const tok *t, int *out) {
  /* "P3" or "3" */
  const char *s = t->s;
  size_t n = t->n, i = 0;
  long v = 0;
  if (t->kind == T_NUM) {
    if (t->num < 0 || t->num >= WL_MAX_THREADS)
      return perr(p, WL_ESYNTAX, t->line, t->col, "no thread %lld",
                  (long long)t->num);
    *out = (int)t->num;
    return 0;
  }
  if (t->kind != T_WORD || n < 2 || s[0] != 'P')
    return expected(p, "a thread (P0, P1, ...)");
  for (i = 1; i < n; i++) {
    if (!isdigit((unsigned char)s[i]) || v > 1000)
      return perr(p, WL_ESYNTAX, t->line, t->col,
                  "expected a thread (P0, P1, ...), found '%.*s'", (int)n, s);
    v = v * 10 + (s[i] - '0');
  }
  if (v >= WL_MAX_THREADS)
    return perr(p, WL_ELIMIT, t->line, t->col,
                "thread P%ld: at most %d threads", v, WL_MAX_THREADS);
  *out = (int)v;
  return 0;
}

/* "P1:r0" / "1:r0"; the current token is the thread. */
static int thread_reg_ref(parser *p, int *thread, int *reg, int must_exist) {
  tok tt = p->t;
  int th = 0, r; /* set by thread_index; gcc -O3 cannot see it */
  if ((r = thread_index(p, &tt, &th)) != 0)
    return r;
  next(p);
  if (expect_p(p, ":"))
    return p->err;
  /* registers are r0, r1, ...; a callback thread's results may have any
   * name ("1:A") */
  if (p->t.kind != T_WORD ||
      !(is_regname(p->t.s, p->t.n) || is_locname(p->t.s, p->t.n)))
    return expected(p, "a register (r0, r1, ...) or a result name");
  if (must_exist && th >= p->lt->nthreads)
    return perr(p, WL_ESYNTAX, tt.line, tt.col, "the test has no thread P%d",
                th);
  r = reg_of(p, &p->lt->threads[th], &p->t);
  if (r < 0)
    return r;
  next(p);
  *thread = th;
  *reg = r;
  return 0;
}

/* Register initialisations are kept until the threads are known. */
typedef struct reginit {
  int thread, line, col;
  char name[32];
  int64_t val;
} reginit;

/* "NAME @ generic|surface|texture|constant aliases TARGET" after the
 * '@' (PTX 7.5; the top of this file says what it means). */
static int parse_alias(parser *p, const tok *name) {
  static const char *const kinds[] = {"generic", "surface", "texture",
                                      "constant", NULL};
  static const int kindv[] = {WL_PROXY_GEN, WL_PROXY_SUR, WL_PROXY_TEX,
                              WL_PROXY_CON};
  int k, a;
  tok tg;
  if (!is_locname(name->s, name->n) || is_regname(name->s, name->n))
    return perr(p, WL_ESYNTAX, name->line, name->col,
                "'%.*s' is not a location name", (int)name->n, name->s);
  for (k = 0; kinds[k] != NULL; k++)
    if (is_w(p, kinds[k]))
      break;
  if (kinds[k] == NULL)
    return expected(p, "a proxy ('generic', 'surface', 'texture' or "
                       "'constant') in 'name @ proxy aliases location'");
  next(p);
  if (!is_w(p, "aliases"))
    return expected(p, "'aliases'");
  next(p);
  if (p->t.kind != T_WORD || !is_locname(p->t.s, p->t.n) ||
      is_regname(p->t.s, p->t.n))
    return expected(p, "the location it aliases");
  tg = p->t;
  a = add_alias(p->lt, name->s, name->n, kindv[k], tg.s, tg.n, name->line);
  switch (a) {
  case AL_TWICE:
    return perr(p, WL_ESYNTAX, name->line, name->col,
                "alias '%.*s' declared twice", (int)name->n, name->s);
  case AL_USED:
    return perr(p, WL_ESYNTAX, name->line, name->col,
                "'%.*s' is already a location; an alias needs a name of "
                "its own",
                (int)name->n, name->s);
  case AL_NOTARGET:
    return perr(p, WL_ESYNTAX, tg.line, tg.col,
                "'%.*s' aliases '%.*s', which is not declared before it",
                (int)name->n, name->s, (int)tg.n, tg.s);
  case AL_FULL:
    return perr(p, WL_ELIMIT, name->line, name->col,
                "too many aliases (at most %d)", WL_MAX_ALIASES);
  case AL_NOMEM:
    return perr(p, WL_ENOMEM, name->line, name->col, "out of memory");
  default:
    break;
  }
  mark_v75(p, name->line, name->col, 1);
  next(p);
  return 0;
}

static int parse_init(parser *p, reginit *ri, int *nri, int maxri) {
  if (expect_p(p, "{"))
    return p->err;
  while (!is_p(p, "}")) {
    if (p->t.kind == T_EOF)
      return expected(p, "'}' closing the initial state");
    if (accept_p(p, ";"))
      continue;
    /* optional type name, herd style: "int x = 0" / "uint32_t x" */
    if (p->t.kind == T_WORD &&
        (is_w(p, "int") || is_w(p, "uint32_t") || is_w(p, "int32_t") ||
         is_w(p, "uint64_t") || is_w(p, "int64_t")))
      next(p);
    if ((p->t.kind == T_WORD && p->t.s[0] == 'P' && p->t.n >= 2 &&
         isdigit((unsigned char)p->t.s[1])) ||
        p->t.kind == T_NUM) {
      /* P0:r1 = v */
      tok tt = p->t;
      int th, r;
      if ((r = thread_index(p, &tt, &th)) != 0)
        return r;
      next(p);
      if (expect_p(p, ":"))
        return p->err;
      if (p->t.kind != T_WORD || !is_regname(p->t.s, p->t.n) || p->t.n >= 32)
        return expected(p, "a register (r0, r1, ...)");
      if (*nri == maxri)
        return perr(p, WL_ELIMIT, p->t.line, p->t.col,
                    "too many register initialisations");
      ri[*nri].thread = th;
      ri[*nri].line = p->t.line;
      ri[*nri].col = p->t.col;
      memcpy(ri[*nri].name, p->t.s, p->t.n);
      ri[*nri].name[p->t.n] = '\0';
      next(p);
      if (expect_p(p, "="))
        return p->err;
      if (p->t.kind == T_WORD || is_p(p, "&"))
        return perr(p, WL_EUNSUPPORTED, p->t.line, p->t.col,
                    "registers holding addresses are not supported; "
                    "initialise registers with constants");
      if (p->t.kind != T_NUM)
        return expected(p, "a constant");
      ri[*nri].val = p->t.num;
      (*nri)++;
      next(p);
    } else if (p->t.kind == T_WORD) {
      tok lt = p->t;
      int l;
      next(p);
      if (accept_p(p, "@")) {
        if ((l = parse_alias(p, &lt)) != 0)
          return l;
        if (!is_p(p, "}") && expect_p(p, ";"))
          return p->err;
        continue;
      }
      if (alias_of(p->lt, lt.s, lt.n) >= 0)
        return perr(p, WL_ESYNTAX, lt.line, lt.col,
                    "'%.*s' is an alias: it has no initial value of its own",
                    (int)lt.n, lt.s);
      if ((l = loc_of(p, &lt)) < 0)
        return l;
      if (expect_p(p, "="))
        return p->err;
      if (p->t.kind == T_WORD || is_p(p, "&"))
        return perr(p, WL_EUNSUPPORTED, p->t.line, p->t.col,
                    "locations holding addresses are not supported");
      if (p->t.kind != T_NUM)
        return expected(p, "a constant");
      p->lt->locinit[l] = p->t.num;
      next(p);
      /* "x = 0 @ gpu 1": the GPU whose memory holds x (warplab's own;
       * Dat3M's dialect has no home, and "name @ proxy aliases" has no
       * '=') */
      if (accept_p(p, "@")) {
        if (!is_w(p, "gpu"))
          return expected(p, "'gpu N' after '@' (the GPU whose memory "
                             "holds the location: 'x = 0 @ gpu 1')");
        next(p);
        if (p->t.kind != T_NUM || p->t.num < 0 || p->t.num > 7)
          return expected(p, "a GPU number 0..7 in 'x = 0 @ gpu N'");
        p->lt->lochome[l] = (int8_t)p->t.num;
        next(p);
      }
    } else {
      return expected(p, "'x = value' or 'P0:r1 = value'");
    }
    if (!is_p(p, "}") && expect_p(p, ";"))
      return p->err;
  }
  next(p);
  accept_p(p, ";");
  return 0;
}

static int parse_threads_decl(parser *p) {
  for (;;) {
    tok tt = p->t;
    int th, r, cta = 0, gpu = 0, sm1 = 0;
    wl_thread *t;
    if ((r = thread_index(p, &tt, &th)) != 0)
      return r;
    if (th != p->lt->nthreads)
      return perr(p, WL_ESYNTAX, tt.line, tt.col,
                  "threads must be declared in order: expected P%d",
                  p->lt->nthreads);
    next(p);
    if (!accept_p(p, "@"))
      return perr(p, WL_ESYNTAX, tt.line, tt.col,
                  "thread P%d needs a placement: 'P%d@cta N,gpu M'", th, th);
    if (!is_w(p, "cta"))
      return expected(p, "'cta'");
    next(p);
    if (p->t.kind != T_NUM || p->t.num < 0 || p->t.num > INT_MAX)
      return expected(p, "a CTA number");
    cta = (int)p->t.num;
    next(p);
    if (accept_p(p, ",")) {
      if (!is_w(p, "gpu"))
        return expected(p, "'gpu'");
      next(p);
      if (p->t.kind != T_NUM || p->t.num < 0 || p->t.num > INT_MAX)
        return expected(p, "a GPU number");
      gpu = (int)p->t.num;
      next(p);
      /* ",sm N": the SM the CTA runs on (warplab's own): CTAs given one
       * SM share its store path and L1 in the simulator */
      if (accept_p(p, ",")) {
        if (!is_w(p, "sm"))
          return expected(p, "'sm' (the SM of the thread's CTA: "
                             "'P1@cta 1,gpu 0,sm 0')");
        next(p);
        if (p->t.kind != T_NUM || p->t.num < 0 || p->t.num > 1023)
          return expected(p, "an SM number 0..1023");
        sm1 = (int)p->t.num + 1;
        next(p);
      }
    }
    t = &p->lt->threads[th];
    snprintf(t->name, sizeof t->name, "P%d", th);
    t->cta = cta;
    t->gpu = gpu;
    t->sm1 = sm1;
    {
      /* the threads of one CTA run on one SM */
      int o;
      for (o = 0; o < th; o++) {
        const wl_thread *u = &p->lt->threads[o];
        if (u->cta == cta && u->gpu == gpu && u->sm1 != sm1)
          return perr(p, WL_ESYNTAX, tt.line, tt.col,
                      "P%d is in P%d's CTA but not on its SM: the threads "
                      "of one CTA run on one SM",
                      th, o);
      }
    }
    t->line = tt.line;
    p->lt->nthreads++;
    if (accept_p(p, ";"))
      return 0;
    if (expect_p(p, "|"))
      return p->err;
  }
}

typedef struct pending {
  int insn;
  tok target;
} pending;

typedef struct labels {
  tok name[256];
  int at[256];
  int n;
  pending pend[256];
  int npend;
} labels;

static int push_insn(parser *p, wl_thread *t, const wl_insn *in) {
  if (t->ninsns == t->cap) {
    int cap = t->cap ? t->cap * 2 : 16;
    wl_insn *q;
    if (cap > 4096)
      return perr(p, WL_ELIMIT, in->line, in->col,
                  "%s has too many instructions (at most 4096)", t->name);
    q = wl__realloc(p->ctx, t->insns, (size_t)t->cap * sizeof *q,
                    (size_t)cap * sizeof *q);
    if (q == NULL)
      return perr(p, WL_ENOMEM, in->line, in->col, "out of memory");
    t->insns = q;
    t->cap = cap;
  }
  t->insns[t->ninsns++] = *in;
  if (in->proxy != WL_PROXY_GEN || in->pfence != PFENCE_NONE)
    mark_v75(p, in->line, in->col, 0);
  return 0;
}

static int is_cond_start(const parser *p) {
  return is_w(p, "exists") || is_w(p, "forall") || is_p(p, "~") ||
         is_w(p, "locations") || is_w(p, "filter") || p->t.kind == T_EOF;
}

static int parse_rows(parser *p, labels *lab) {
  int nth = p->lt->nthreads;
  while (!is_cond_start(p)) {
    int col = 0;
    for (;;) {
      cell c;
      c.n = 0;
      if (col >= nth)
        return perr(p, WL_ESYNTAX, p->t.line, p->t.col,
                    "more columns than the %d declared threads", nth);
      while (!is_p(p, "|") && !is_p(p, ";")) {
        if (p->t.kind == T_EOF || is_w(p, "exists") || is_w(p, "forall"))
          return expected(p, "';' ending the instruction row");
        if (c.n == 16)
          return perr(p, WL_ESYNTAX, p->t.line, p->t.col,
                      "instruction too long");
        c.toks[c.n++] = p->t;
        next(p);
        if (p->err)
          return p->err;
      }
      if (c.n > 0) {
        wl_insn in;
        const tok *label, *target;
        wl_thread *t = &p->lt->threads[col];
        int r = parse_insn(p, t, &c, &in, &label, &target);
        if (r)
          return r;
        if (label != NULL) {
          int k;
          if (lab[col].n == 256)
            return perr(p, WL_ELIMIT, label->line, label->col,
                        "too many labels");
          for (k = 0; k < lab[col].n; k++)
            if (lab[col].name[k].n == label->n &&
                memcmp(lab[col].name[k].s, label->s, label->n) == 0)
              return perr(p, WL_ESYNTAX, label->line, label->col,
                          "label '%.*s' defined twice in %s", (int)label->n,
                          label->s, t->name);
          lab[col].name[lab[col].n] = *label;
          lab[col].at[lab[col].n++] = t->ninsns;
        }
        if (target != NULL) {
          if (lab[col].npend == 256)
            return perr(p, WL_ELIMIT, target->line, target->col,
                        "too many branches");
          lab[col].pend[lab[col].npend].insn = t->ninsns;
          lab[col].pend[lab[col].npend++].target = *target;
        }
        if ((r = push_insn(p, t, &in)) != 0)
          return r;
      }
      col++;
      if (accept_p(p, ";"))
        break;
      next(p); /* '|' */
    }
  }
  /* resolve branch targets */
  {
    int th, k, j;
    for (th = 0; th < nth; th++) {
      for (k = 0; k < lab[th].npend; k++) {
        const tok *tg = &lab[th].pend[k].target;
        int found = -1;
        for (j = 0; j < lab[th].n; j++)
          if (lab[th].name[j].n == tg->n &&
              memcmp(lab[th].name[j].s, tg->s, tg->n) == 0)
            found = lab[th].at[j];
        if (found < 0)
          return perr(p, WL_ESYNTAX, tg->line, tg->col,
                      "label '%.*s' is not defined in %s", (int)tg->n, tg->s,
                      p->lt->threads[th].name);
        p->lt->threads[th].insns[lab[th].pend[k].insn].target = found;
      }
    }
  }
  return 0;
}

/* ---------------------------------------------------------------- */
/* Condition                                                         */

static int new_node(parser *p, int kind) {
  wl_litmus *lt = p->lt;
  if (lt->ncnodes == lt->cnodes_cap) {
    int cap = lt->cnodes_cap ? lt->cnodes_cap * 2 : 16;
    wl_cnode *q;
    if (cap > 65536)
      return perr(p, WL_ELIMIT, p->t.line, p->t.col, "condition too large");
    q = wl__realloc(p->ctx, lt->cnodes, (size_t)lt->cnodes_cap * sizeof *q,
                    (size_t)cap * sizeof *q);
    if (q == NULL)
      return perr(p, WL_ENOMEM, p->t.line, p->t.col, "out of memory");
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
    return perr(p, WL_ELIMIT, p->t.line, p->t.col,
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
      return thread_reg_ref(p, &a->thread, &a->reg, 1);
    }
    a->kind = AT_CONST;
    a->val = p->t.num;
    next(p);
    return 0;
  }
  if (p->t.kind == T_WORD && p->t.s[0] == 'P' && p->t.n >= 2 &&
      isdigit((unsigned char)p->t.s[1])) {
    const char *after = p->t.s + p->t.n;
    if (after < p->src + p->len && *after == ':') {
      a->kind = AT_REG;
      return thread_reg_ref(p, &a->thread, &a->reg, 1);
    }
  }
  if (accept_p(p, "[")) {
    int l;
    if (p->t.kind != T_WORD)
      return expected(p, "a location");
    if ((l = loc_of(p, &p->t)) < 0)
      return l;
    next(p);
    if (expect_p(p, "]"))
      return p->err;
    a->kind = AT_LOC;
    a->loc = l;
    return 0;
  }
  if (p->t.kind == T_WORD && !is_regname(p->t.s, p->t.n)) {
    tok w = p->t;
    int l;
    next(p);
    if (is_p(p, "[")) {
      /* an element of an array the bindings declared (wl.litmus init =
       * { a = {...} } makes locations "a[0]", "a[1]", ...): it must
       * exist, since an element is no location of its own to declare */
      char nm[128];
      next(p);
      if (p->t.kind != T_NUM || p->t.num < 0)
        return expected(p, "an element index");
      snprintf(nm, sizeof nm, "%.*s[%lld]", (int)(w.n > 80 ? 80 : w.n), w.s,
               (long long)p->t.num);
      next(p);
      if (expect_p(p, "]"))
        return p->err;
      if ((l = wl_litmus_location(p->lt, nm)) < 0)
        return perr(p, WL_ESYNTAX, w.line, w.col,
                    "'%s' is no element of an array of the test", nm);
    } else if ((l = loc_of(p, &w)) < 0) {
      return l;
    }
    a->kind = AT_LOC;
    a->loc = l;
    return 0;
  }
  if (p->t.kind == T_WORD)
    return perr(p, WL_ESYNTAX, p->t.line, p->t.col,
                "a register in a condition needs its thread: 'P0:%.*s'",
                (int)p->t.n, p->t.s);
  return expected(p, "a register (P0:r1), a location or a constant");
}

static int cond_or(parser *p);

/* The parser's recursion: every '~' and '(' goes one level deeper. */
static int cond_nest(parser *p, int (*sub)(parser *)) {
  int c;
  if (p->depth >= WL_COND_MAX_DEPTH)
    return perr(p, WL_ELIMIT, p->t.line, p->t.col,
                "condition nested too deeply (more than %d levels)",
                WL_COND_MAX_DEPTH);
  p->depth++;
  c = sub(p);
  p->depth--;
  return c;
}

static int cond_unary(parser *p) {
  int n, r;
  if (accept_p(p, "~") || accept_p(p, "!") ||
      (is_w(p, "not") && (next(p), 1))) {
    int c = cond_nest(p, cond_unary);
    if (c < 0)
      return c;
    if ((n = new_node(p, CN_NOT)) < 0)
      return n;
    return set_kids(p, n, c, -1);
  }
  if (accept_p(p, "(")) {
    int c = cond_nest(p, cond_or);
    if (c < 0)
      return c;
    if (expect_p(p, ")"))
      return p->err;
    return c;
  }
  if (is_w(p, "true") || is_w(p, "false")) {
    int f = is_w(p, "false");
    next(p);
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
    if (accept_p(p, "=") || accept_p(p, "=="))
      cmp = COND_EQ;
    else if (accept_p(p, "!="))
      cmp = COND_NE;
    else if (accept_p(p, "<="))
      cmp = COND_LE;
    else if (accept_p(p, ">="))
      cmp = COND_GE;
    else if (accept_p(p, "<"))
      cmp = COND_LT;
    else if (accept_p(p, ">"))
      cmp = COND_GT;
    else
      return expected(p, "a comparison (==, !=, <, <=, >, >=)");
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
  while (l >= 0 && (is_p(p, "/\\") || is_p(p, "&&"))) {
    int r, n;
    next(p);
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
  while (l >= 0 && (is_p(p, "\\/") || is_p(p, "||"))) {
    int r, n;
    next(p);
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
  next(p); /* locations */
  if (expect_p(p, "["))
    return p->err;
  while (!accept_p(p, "]")) {
    wl_atom a;
    int r;
    if (accept_p(p, ";"))
      continue;
    if (p->t.kind == T_EOF)
      return expected(p, "']'");
    if ((r = cond_atom(p, &a)) != 0)
      return r;
    if (a.kind == AT_CONST)
      return perr(p, WL_ESYNTAX, p->t.line, p->t.col,
                  "expected a register or a location in 'locations'");
    if (p->lt->nobserved == 64)
      return perr(p, WL_ELIMIT, p->t.line, p->t.col,
                  "too many observed locations");
    p->lt->observed[p->lt->nobserved++] = a;
  }
  return 0;
}

static int parse_condition(parser *p) {
  const char *start;
  int root;
  while (is_w(p, "locations")) {
    int r = parse_locations(p);
    if (r)
      return r;
  }
  if (is_w(p, "filter"))
    return perr(p, WL_EUNSUPPORTED, p->t.line, p->t.col,
                "'filter' is not supported");
  if (p->t.kind == T_EOF) {
    p->lt->has_cond = 0;
    p->lt->cond_kind = WL_COND_EXISTS;
    return 0;
  }
  if (accept_p(p, "~")) {
    if (!is_w(p, "exists"))
      return expected(p, "'exists' after '~'");
    p->lt->cond_kind = WL_COND_NOTEXISTS;
  } else if (is_w(p, "exists")) {
    p->lt->cond_kind = WL_COND_EXISTS;
  } else if (is_w(p, "forall")) {
    p->lt->cond_kind = WL_COND_FORALL;
  } else {
    return expected(p, "'exists', '~exists' or 'forall'");
  }
  next(p);
  start = p->t.s;
  root = cond_or(p);
  if (root < 0)
    return root;
  if (p->t.kind != T_EOF)
    return expected(p,
                    "the end of the condition ('/\\', '\\/' or end of file)");
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
      return perr(p, WL_ENOMEM, p->t.line, p->t.col, "out of memory");
    }
    p->lt->cond_text = wl__strndup(p->ctx, b.p, b.n);
    wl__buf_free(&b);
    if (p->lt->cond_text == NULL)
      return perr(p, WL_ENOMEM, p->t.line, p->t.col, "out of memory");
  }
  return 0;
}

/* ---------------------------------------------------------------- */

void wl_litmus_free(wl_litmus *t) {
  int i, j;
  wl_ctx *ctx;
  if (t == NULL)
    return;
  ctx = t->ctx;
  for (i = 0; i < WL_MAX_THREADS; i++) {
    wl_thread *th = &t->threads[i];
    for (j = 0; j < th->nregs; j++)
      wl__strfree(ctx, th->regnames[j]);
    wl__free(ctx, th->labels, (size_t)th->labcap * sizeof *th->labels);
    wl__free(ctx, th->insns, (size_t)th->cap * sizeof *th->insns);
  }
  for (i = 0; i < t->nlocs; i++)
    wl__strfree(ctx, t->locnames[i]);
  for (i = 0; i < t->naliases; i++)
    wl__strfree(ctx, t->aliasnames[i]);
  wl__free(ctx, t->cnodes, (size_t)t->cnodes_cap * sizeof *t->cnodes);
  wl__strfree(ctx, t->name);
  wl__strfree(ctx, t->filename);
  wl__strfree(ctx, t->cond_text);
  wl__free(ctx, t, sizeof *t);
}

const char *wl_litmus_name(const wl_litmus *t) { return t->name; }
int wl_litmus_nthreads(const wl_litmus *t) { return t->nthreads; }

int wl_litmus_parse(wl_ctx *ctx, const char *filename, const char *src,
                    size_t len, wl_litmus **out) {
  parser p;
  labels *lab = NULL;
  reginit *ri = NULL;
  int nri = 0, r = 0, i;
  enum { MAXRI = 1024 };
  if (ctx == NULL || out == NULL || (src == NULL && len > 0))
    return WL_EINVAL;
  *out = NULL;
  if (filename == NULL)
    filename = "<litmus>";
  memset(&p, 0, sizeof p);
  p.ctx = ctx;
  p.file = filename;
  p.src = src ? src : "";
  p.len = len;
  p.line = 1;
  p.col = 1;
  ctx->errmsg[0] = '\0';
  p.lt = wl__calloc(ctx, sizeof *p.lt);
  lab = wl__calloc(ctx, WL_MAX_THREADS * sizeof *lab);
  ri = wl__calloc(ctx, MAXRI * sizeof *ri);
  if (p.lt != NULL)
    p.lt->ctx = ctx; /* wl_litmus_free needs it on every path */
  if (p.lt == NULL || lab == NULL || ri == NULL) {
    r = wl__err(ctx, WL_ENOMEM, "%s: out of memory", filename);
    goto done;
  }
  p.lt->filename = wl__strndup(ctx, filename, strlen(filename));
  if (p.lt->filename == NULL) {
    r = wl__err(ctx, WL_ENOMEM, "%s: out of memory", filename);
    goto done;
  }
  /* Header: "PTX name", then free text up to '{' (quoted text may hold
   * anything). */
  next(&p);
  if (!(is_w(&p, "PTX") || is_w(&p, "ptx"))) {
    r = expected(&p, "'PTX' (the first word of a PTX litmus test)");
    goto done;
  }
  {
    size_t s = p.pos, e;
    int inq = 0, ql = 0, qc = 0;
    while (p.pos < p.len && p.src[p.pos] != '\n' && p.src[p.pos] != '"' &&
           p.src[p.pos] != '{' && p.src[p.pos] != '\0')
      advc(&p);
    e = p.pos;
    while (s < e && isspace((unsigned char)p.src[s]))
      s++;
    while (e > s && isspace((unsigned char)p.src[e - 1]))
      e--;
    if (e == s) {
      r = perr(&p, WL_ESYNTAX, p.line, p.col,
               "expected the test's name after 'PTX'");
      goto done;
    }
    p.lt->name = wl__strndup(ctx, p.src + s, e - s);
    if (p.lt->name == NULL) {
      r = perr(&p, WL_ENOMEM, p.line, p.col, "out of memory");
      goto done;
    }
    while (p.pos < p.len && (inq || p.src[p.pos] != '{')) {
      if (p.src[p.pos] == '"') {
        inq = !inq;
        ql = p.line; /* an unterminated quote is reported where it opens */
        qc = p.col;
      }
      if (p.src[p.pos] == '\0') {
        r = perr(&p, WL_ESYNTAX, p.line, p.col, "NUL byte in the text");
        goto done;
      }
      advc(&p);
    }
    if (inq) {
      r = perr(&p, WL_ESYNTAX, ql, qc, "unterminated quoted comment '\"'");
      goto done;
    }
    next(&p);
  }
  if ((r = parse_init(&p, ri, &nri, MAXRI)) != 0)
    goto done;
  if ((r = parse_threads_decl(&p)) != 0)
    goto done;
  if ((r = parse_rows(&p, lab)) != 0)
    goto done;
  if ((r = parse_condition(&p)) != 0)
    goto done;
  for (i = 0; i < nri; i++) {
    wl_thread *t;
    int reg;
    if (ri[i].thread >= p.lt->nthreads) {
      r = perr(&p, WL_ESYNTAX, ri[i].line, ri[i].col,
               "initial value for a register of P%d, which the test does "
               "not declare",
               ri[i].thread);
      goto done;
    }
    t = &p.lt->threads[ri[i].thread];
    reg = wl__thread_reg(ctx, t, ri[i].name, strlen(ri[i].name));
    if (reg < 0) {
      r = perr(&p, reg == -2 ? WL_ENOMEM : WL_ELIMIT, ri[i].line, ri[i].col,
               "too many registers");
      goto done;
    }
    t->reginit[reg] = ri[i].val;
  }
  if (p.err)
    r = p.err;
done:
  wl__free(ctx, lab, WL_MAX_THREADS * sizeof *lab);
  wl__free(ctx, ri, MAXRI * sizeof *ri);
  if (r != 0 || p.err != 0) {
    if (r == 0)
      r = p.err;
    if (r == WL_ENOMEM && ctx->errmsg[0] == '\0')
      wl__err(ctx, r, "%s: out of memory", filename);
    wl_litmus_free(p.lt);
    return r;
  }
  *out = p.lt;
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

/* ---------------------------------------------------------------- */
/* Building tests programmatically                                   */

int wl_litmus_new(wl_ctx *ctx, const char *name, wl_litmus **out) {
  wl_litmus *t;
  if (ctx == NULL || out == NULL)
    return WL_EINVAL;
  *out = NULL;
  if (name == NULL || *name == '\0')
    name = "test";
  t = wl__calloc(ctx, sizeof *t);
  if (t == NULL)
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  t->ctx = ctx;
  t->name = wl__strndup(ctx, name, strlen(name));
  if (t->name == NULL) {
    wl_litmus_free(t);
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  }
  t->cond_kind = WL_COND_EXISTS;
  *out = t;
  return 0;
}

/* An identifier, optionally indexed: "x", "a[3]". */
static int is_loc_or_elem(const char *s) {
  size_t n = strlen(s), i;
  const char *br = strchr(s, '[');
  if (br == NULL)
    return is_locname(s, n);
  if (!is_locname(s, (size_t)(br - s)) || s[n - 1] != ']' ||
      br + 1 >= s + n - 1)
    return 0;
  for (i = (size_t)(br - s) + 1; i < n - 1; i++)
    if (!isdigit((unsigned char)s[i]))
      return 0;
  return 1;
}

int wl_litmus_add_location(wl_litmus *t, const char *name, int64_t init,
                           int *index) {
  int l;
  if (t == NULL || name == NULL)
    return WL_EINVAL;
  if (!is_loc_or_elem(name) || strlen(name) > 64)
    return wl__err(t->ctx, WL_EINVAL,
                   "'%.64s' is not a location name (a name like x or "
                   "a[3])",
                   name);
  if (alias_of(t, name, strlen(name)) >= 0)
    return wl__err(t->ctx, WL_EINVAL,
                   "'%s' is an alias: it has no initial value of its own",
                   name);
  l = wl__litmus_loc(t, name, strlen(name));
  if (l == -2)
    return wl__err(t->ctx, WL_ENOMEM, "out of memory");
  if (l < 0)
    return wl__err(t->ctx, WL_ELIMIT, "too many locations (at most %d)",
                   WL_MAX_LOCS);
  t->locinit[l] = init;
  if (index != NULL)
    *index = l;
  return 0;
}

int wl_litmus_location(const wl_litmus *t, const char *name) {
  int i;
  if (t == NULL || name == NULL)
    return -1;
  for (i = 0; i < t->nlocs; i++)
    if (strcmp(t->locnames[i], name) == 0)
      return i;
  if ((i = alias_of(t, name, strlen(name))) >= 0)
    return t->aliasloc[i];
  return -1;
}

int wl_litmus_alias(const wl_litmus *t, const char *name) {
  if (t == NULL || name == NULL)
    return -1;
  return alias_of(t, name, strlen(name));
}

int wl_litmus_add_alias(wl_litmus *t, const char *name, int proxy,
                        const char *target, int *index) {
  int k;
  if (t == NULL || name == NULL || target == NULL || proxy < WL_PROXY_GEN ||
      proxy > WL_PROXY_CON)
    return WL_EINVAL;
  if (!is_locname(name, strlen(name)) || is_regname(name, strlen(name)) ||
      strlen(name) > 64)
    return wl__err(t->ctx, WL_EINVAL, "'%.64s' is not a location name",
                   name);
  k = add_alias(t, name, strlen(name), proxy, target, strlen(target), 0);
  switch (k) {
  case AL_TWICE:
    return wl__err(t->ctx, WL_EINVAL, "alias '%s' declared twice", name);
  case AL_USED:
    return wl__err(t->ctx, WL_EINVAL,
                   "'%s' is already a location; an alias needs a name of "
                   "its own",
                   name);
  case AL_NOTARGET:
    return wl__err(t->ctx, WL_EINVAL,
                   "'%s' aliases '%.64s', which is not declared before it",
                   name, target);
  case AL_FULL:
    return wl__err(t->ctx, WL_ELIMIT, "too many aliases (at most %d)",
                   WL_MAX_ALIASES);
  case AL_NOMEM:
    return wl__err(t->ctx, WL_ENOMEM, "out of memory");
  default:
    break;
  }
  if (t->v75line == 0) {
    t->v75line = -1;
    t->v75alias = 1;
  }
  if (index != NULL)
    *index = k;
  return 0;
}

int wl__insn_vloc(const wl_litmus *t, const wl_insn *in) {
  if (in->alias > 0 && in->alias <= t->naliases)
    return t->aliasvloc[in->alias - 1];
  return in->loc;
}

int wl__litmus_check_v60(const wl_litmus *t, const char *who) {
  const char *f = t->filename ? t->filename : t->name;
  if (t->v75line == 0)
    return 0;
  if (t->v75line < 0)
    return wl__err(t->ctx, WL_EUNSUPPORTED,
                   "%s: aliases need the PTX 7.5 model, which %s does not "
                   "implement: use --model ptx-v7.5.cat",
                   f, who);
  return wl__err(t->ctx, WL_EUNSUPPORTED,
                 "%s:%d:%d: %s need the PTX 7.5 model, which %s does not "
                 "implement: use --model ptx-v7.5.cat",
                 f, t->v75line, t->v75col,
                 t->v75alias ? "aliases" : "proxy instructions", who);
}

int wl_litmus_nlocations(const wl_litmus *t) { return t ? t->nlocs : 0; }

const char *wl_litmus_location_name(const wl_litmus *t, int index) {
  if (t == NULL || index < 0 || index >= t->nlocs)
    return NULL;
  return t->locnames[index];
}

int wl_litmus_set_source(wl_litmus *t, const char *file) {
  char *f;
  if (t == NULL || file == NULL)
    return WL_EINVAL;
  f = wl__strndup(t->ctx, file, strlen(file));
  if (f == NULL)
    return wl__err(t->ctx, WL_ENOMEM, "out of memory");
  wl__strfree(t->ctx, t->filename);
  t->filename = f;
  return 0;
}

int wl_litmus_add_thread(wl_litmus *t, int cta, int gpu, int *index) {
  wl_thread *th;
  if (t == NULL || cta < 0 || gpu < 0)
    return WL_EINVAL;
  if (t->nthreads >= WL_MAX_THREADS)
    return wl__err(t->ctx, WL_ELIMIT, "%s: at most %d threads", t->name,
                   WL_MAX_THREADS);
  th = &t->threads[t->nthreads];
  snprintf(th->name, sizeof th->name, "P%d", t->nthreads);
  th->cta = cta;
  th->gpu = gpu;
  if (index != NULL)
    *index = t->nthreads;
  t->nthreads++;
  return 0;
}

static wl_label *find_label(wl_thread *th, const char *s, size_t n) {
  int i;
  for (i = 0; i < th->nlabels; i++)
    if (strlen(th->labels[i].name) == n &&
        memcmp(th->labels[i].name, s, n) == 0)
      return &th->labels[i];
  return NULL;
}

static wl_label *add_label(parser *p, wl_thread *th, const tok *t) {
  wl_label *l;
  if (t->n >= sizeof l->name) {
    perr(p, WL_ESYNTAX, t->line, t->col, "label name too long");
    return NULL;
  }
  if (th->nlabels == th->labcap) {
    int cap = th->labcap ? th->labcap * 2 : 8;
    wl_label *q =
        wl__realloc(p->ctx, th->labels, (size_t)th->labcap * sizeof *q,
                    (size_t)cap * sizeof *q);
    if (q == NULL) {
      perr(p, WL_ENOMEM, t->line, t->col, "out of memory");
      return NULL;
    }
    th->labels = q;
    th->labcap = cap;
  }
  l = &th->labels[th->nlabels++];
  memcpy(l->name, t->s, t->n);
  l->name[t->n] = '\0';
  l->at = -1;
  l->line = t->line;
  l->col = t->col;
  return l;
}

static void init_parser(parser *p, wl_litmus *t, const char *file,
                        const char *text, int line) {
  memset(p, 0, sizeof *p);
  p->ctx = t->ctx;
  p->file = file ? file : (t->filename ? t->filename : "<lua>");
  p->src = text;
  p->len = strlen(text);
  p->line = line > 0 ? line : 1;
  p->col = 1;
  p->lt = t;
  t->ctx->errmsg[0] = '\0';
}

int wl_litmus_add_insn(wl_litmus *t, int thread, const char *text,
                       const char *file, int line) {
  parser p;
  cell c;
  wl_insn in;
  const tok *label, *target;
  wl_thread *th;
  int r;
  if (t == NULL || text == NULL || thread < 0 || thread >= t->nthreads)
    return WL_EINVAL;
  th = &t->threads[thread];
  if (th->fn != NULL)
    return wl__err(t->ctx, WL_EINVAL,
                   "%s is a function thread; it has no instructions", th->name);
  if (t->filename == NULL && file != NULL) {
    t->filename = wl__strndup(t->ctx, file, strlen(file));
    if (t->filename == NULL)
      return wl__err(t->ctx, WL_ENOMEM, "out of memory");
  }
  init_parser(&p, t, file, text, line);
  c.n = 0;
  next(&p);
  while (p.t.kind != T_EOF && !p.err) {
    if (is_p(&p, ";") || is_p(&p, "|"))
      return perr(&p, WL_ESYNTAX, p.t.line, p.t.col,
                  "one instruction per string: unexpected '%.*s'", (int)p.t.n,
                  p.t.s);
    if (c.n == 16)
      return perr(&p, WL_ESYNTAX, p.t.line, p.t.col, "instruction too long");
    c.toks[c.n++] = p.t;
    next(&p);
  }
  if (p.err)
    return p.err;
  if (c.n == 0)
    return perr(&p, WL_ESYNTAX, p.line, 1, "empty instruction");
  if ((r = parse_insn(&p, th, &c, &in, &label, &target)) != 0)
    return r;
  if (label != NULL) {
    wl_label *l = find_label(th, label->s, label->n);
    if (l != NULL && l->at >= 0)
      return perr(&p, WL_ESYNTAX, label->line, label->col,
                  "label '%.*s' defined twice in %s", (int)label->n, label->s,
                  th->name);
    if (l == NULL && (l = add_label(&p, th, label)) == NULL)
      return p.err;
    l->at = th->ninsns;
    /* back-patch the branches that jumped here before */
    {
      int i;
      for (i = 0; i < th->ninsns; i++)
        if (th->insns[i].target == -2 - (int)(l - th->labels))
          th->insns[i].target = l->at;
    }
  }
  if (target != NULL) {
    wl_label *l = find_label(th, target->s, target->n);
    if (l == NULL && (l = add_label(&p, th, target)) == NULL)
      return p.err;
    /* unresolved targets are encoded as -2 - label index */
    in.target = l->at >= 0 ? l->at : -2 - (int)(l - th->labels);
  }
  return push_insn(&p, th, &in);
}

int wl_litmus_set_reg(wl_litmus *t, int thread, const char *reg,
                      int64_t value) {
  int r;
  if (t == NULL || reg == NULL || thread < 0 || thread >= t->nthreads)
    return WL_EINVAL;
  if (!is_regname(reg, strlen(reg)))
    return wl__err(t->ctx, WL_EINVAL,
                   "'%.32s' is not a register name (r0, r1, ...)", reg);
  r = wl__thread_reg(t->ctx, &t->threads[thread], reg, strlen(reg));
  if (r == -2)
    return wl__err(t->ctx, WL_ENOMEM, "out of memory");
  if (r < 0)
    return wl__err(t->ctx, WL_ELIMIT, "too many registers");
  t->threads[thread].reginit[r] = value;
  return 0;
}

int wl_litmus_set_condition(wl_litmus *t, const char *text, const char *file,
                            int line) {
  parser p;
  int r;
  if (t == NULL || text == NULL)
    return WL_EINVAL;
  init_parser(&p, t, file, text, line);
  t->ncnodes = 0;
  t->has_cond = 0;
  t->nobserved = 0;
  wl__strfree(t->ctx, t->cond_text);
  t->cond_text = NULL;
  next(&p);
  if (p.t.kind == T_EOF)
    return perr(&p, WL_ESYNTAX, p.line, p.col,
                "expected 'exists', '~exists' or 'forall'");
  r = parse_condition(&p);
  if (r == 0 && p.err)
    r = p.err;
  if (r != 0) {
    t->ncnodes = 0;
    t->has_cond = 0;
  }
  return r;
}

int wl_litmus_set_thread_fn(wl_litmus *t, int thread, wl_thread_fn fn,
                            void *ud) {
  wl_thread *th;
  if (t == NULL || fn == NULL || thread < 0 || thread >= t->nthreads)
    return WL_EINVAL;
  th = &t->threads[thread];
  if (th->ninsns > 0)
    return wl__err(t->ctx, WL_EINVAL, "%s already has instructions", th->name);
  th->fn = fn;
  th->fn_ud = ud;
  return 0;
}

int wl_litmus_set_thread_code(wl_litmus *t, int thread, int code) {
  if (t == NULL || thread < 0 || thread >= t->nthreads || code < 0)
    return WL_EINVAL;
  t->threads[thread].code = code;
  return 0;
}

/* The first branch target that names no label, as a message; 0 if all
 * resolve.  Called by the explorer before it runs a built test. */
int wl__litmus_check_labels(const wl_litmus *t) {
  int th, i;
  for (th = 0; th < t->nthreads; th++) {
    const wl_thread *tt = &t->threads[th];
    for (i = 0; i < tt->ninsns; i++) {
      const wl_insn *in = &tt->insns[i];
      if ((in->op == OP_BRANCH || in->op == OP_GOTO) && in->target < 0) {
        const wl_label *l = &tt->labels[-2 - in->target];
        return wl__err(t->ctx, WL_ESYNTAX,
                       "%s:%d:%d: label '%s' is not defined in %s",
                       t->filename ? t->filename : "<lua>", in->line, in->col,
                       l->name, tt->name);
      }
    }
  }
  return 0;
}

/* ---------------------------------------------------------------- */
/* Typed locations                                                   */

int wl_litmus_set_type(wl_litmus *t, int loc, int type) {
  if (t == NULL || loc < 0 || loc >= t->nlocs || type < WL_TYPE_INT64 ||
      type > WL_TYPE_DOUBLE)
    return WL_EINVAL;
  t->loctype[loc] = (uint8_t)type;
  return 0;
}

int wl_litmus_set_shared(wl_litmus *t, int loc, int shared) {
  if (t == NULL || loc < 0 || loc >= t->nlocs)
    return WL_EINVAL;
  t->locshared[loc] = shared != 0;
  return 0;
}

int wl_litmus_set_home(wl_litmus *t, int loc, int gpu) {
  if (t == NULL || loc < 0 || loc >= t->nlocs || gpu < -1 || gpu > 7)
    return WL_EINVAL;
  t->lochome[loc] = (int8_t)gpu;
  return 0;
}

int wl__loc_home(const wl_litmus *t, int loc) {
  if (t->lochome[loc] >= 0)
    return t->lochome[loc];
  return t->nthreads > 0 ? t->threads[0].gpu : 0;
}

int wl_litmus_location_type(const wl_litmus *t, int loc) {
  if (t == NULL || loc < 0 || loc >= t->nlocs)
    return WL_EINVAL;
  return t->loctype[loc];
}

static double f32_of(int64_t c) {
  uint32_t u = (uint32_t)c;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static int64_t of_f32(double d) {
  float f = (float)d;
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return (int64_t)u;
}

/* IEEE binary16 from a double, rounding to nearest, ties to even, in
 * one step from the double's bits (through float would round twice). */
static int64_t of_f16(double d) {
  uint64_t u, m, rem, halfway, q;
  int e, shift;
  uint32_t sign;
  memcpy(&u, &d, sizeof u);
  sign = (uint32_t)(u >> 48) & 0x8000u;
  e = (int)(u >> 52 & 0x7ff);
  m = u & ((1ull << 52) - 1);
  if (e == 0x7ff) /* infinity, or a quiet NaN keeping the top payload */
    return (int64_t)(sign | 0x7c00u | (m ? 0x200u | (uint32_t)(m >> 42) : 0));
  if (e == 0) /* a double subnormal is far below half's smallest */
    return (int64_t)sign;
  m |= 1ull << 52;
  e -= 1023;
  /* q = the value in units of the result's last place: 2^(e-10) for a
   * normal half (e >= -14), 2^-24 for a subnormal one */
  shift = e >= -14 ? 42 : 28 - e;
  if (shift > 54) /* below half of 2^-24: rounds to zero */
    return (int64_t)sign;
  q = m >> shift;
  rem = m & ((1ull << shift) - 1);
  halfway = 1ull << (shift - 1);
  if (rem > halfway || (rem == halfway && (q & 1)))
    q++;
  if (e < -14) /* subnormal; q == 1024 is the smallest normal's bits */
    return (int64_t)(sign | (uint32_t)q);
  if (q == 1ull << 11) { /* rounded up to the next binade */
    q >>= 1;
    e++;
  }
  if (e > 15)
    return (int64_t)(sign | 0x7c00u);
  return (int64_t)(sign | (uint32_t)(e + 15) << 10 | ((uint32_t)q & 0x3ffu));
}

static double f16_of(int64_t c) {
  uint32_t h = (uint32_t)c & 0xffffu, e = h >> 10 & 0x1f, m = h & 0x3ff;
  uint64_t u = (uint64_t)(h & 0x8000u) << 48;
  double d;
  if (e == 0) { /* zero or subnormal: m * 2^-24, exact */
    d = (double)m / 16777216.0;
    return h & 0x8000u ? -d : d;
  }
  if (e == 31)
    u |= 0x7ffull << 52 | (uint64_t)m << 42;
  else
    u |= (uint64_t)(e - 15 + 1023) << 52 | (uint64_t)m << 42;
  memcpy(&d, &u, sizeof d);
  return d;
}

static double f64_of(int64_t c) {
  double d;
  memcpy(&d, &c, sizeof d);
  return d;
}

static int64_t of_f64(double d) {
  int64_t c;
  memcpy(&c, &d, sizeof c);
  return c;
}

/* double -> int64 without undefined behaviour for NaN or out-of-range */
static int64_t clamp_i64(double d) {
  if (d != d)
    return 0;
  if (d >= 9223372036854775807.0)
    return INT64_MAX;
  if (d <= -9223372036854775808.0)
    return INT64_MIN;
  return (int64_t)d;
}

int64_t wl_value_from_int(int type, int64_t i) {
  switch (type) {
  case WL_TYPE_INT32:
    return (int64_t)(int32_t)(uint32_t)(uint64_t)i;
  case WL_TYPE_UINT32:
    return (int64_t)(uint32_t)(uint64_t)i;
  case WL_TYPE_FLOAT:
    return of_f32((double)i);
  case WL_TYPE_DOUBLE:
    return of_f64((double)i);
  case WL_TYPE_INT16:
    return (int64_t)(int16_t)(uint16_t)(uint64_t)i;
  case WL_TYPE_UINT16:
    return (int64_t)(uint16_t)(uint64_t)i;
  case WL_TYPE_HALF:
    return of_f16((double)i);
  default:
    return i;
  }
}

int64_t wl_value_from_double(int type, double d) {
  switch (type) {
  case WL_TYPE_FLOAT:
    return of_f32(d);
  case WL_TYPE_DOUBLE:
    return of_f64(d);
  case WL_TYPE_HALF:
    return of_f16(d);
  default:
    return wl_value_from_int(type, clamp_i64(d));
  }
}

double wl_value_to_double(int type, int64_t c) {
  switch (type) {
  case WL_TYPE_FLOAT:
    return f32_of(c);
  case WL_TYPE_DOUBLE:
    return f64_of(c);
  case WL_TYPE_HALF:
    return f16_of(c);
  case WL_TYPE_UINT32:
    return (double)(uint32_t)c;
  case WL_TYPE_INT16:
    return (double)(int16_t)(uint16_t)c;
  case WL_TYPE_UINT16:
    return (double)(uint16_t)c;
  default:
    return (double)c;
  }
}

int wl__result_type_err(wl_ctx *ctx, const char *thread, const char *name,
                        int was, int type) {
  const char *w = wl__type_name(was), *n = wl__type_name(type);
  return wl__err(ctx, WL_EINVAL,
                 "result '%s' of %s is a%s %s in one trace and a%s %s in "
                 "another (give it one type: math.tointeger(v), or v + 0.0)",
                 name, thread, w[0] == 'i' || w[0] == 'u' ? "n" : "", w,
                 n[0] == 'i' || n[0] == 'u' ? "n" : "", n);
}

const char *wl__type_name(int type) {
  static const char *const w[] = {"int64", "int32",  "uint32", "float",
                                  "double", "int16", "uint16", "half"};
  return type >= 0 && type < (int)(sizeof w / sizeof w[0]) ? w[type] : "?";
}

/* The fewest significant digits (from lo to hi) that read back as the
 * same value of the type: 0.1f prints as 0.1, not 0.100000001. */
void wl__buf_value(wl_buf *b, int type, int64_t v) {
  char s[40];
  double d;
  int p, lo, hi;
  if (type != WL_TYPE_FLOAT && type != WL_TYPE_DOUBLE &&
      type != WL_TYPE_HALF) {
    wl__buf_printf(b, "%lld", (long long)v);
    return;
  }
  d = wl_value_to_double(type, v);
  if (d != d || d - d != 0) { /* NaN, inf */
    wl__buf_printf(b, "\"%g\"", d);
    return;
  }
  lo = type == WL_TYPE_DOUBLE ? 15 : type == WL_TYPE_FLOAT ? 6 : 3;
  hi = type == WL_TYPE_DOUBLE ? 17 : type == WL_TYPE_FLOAT ? 9 : 5;
  for (p = lo; p < hi; p++) {
    snprintf(s, sizeof s, "%.*g", p, d);
    if (wl_value_from_double(type, strtod(s, NULL)) == v)
      break;
  }
  wl__buf_printf(b, "%.*g", p, d);
}

int64_t wl__aop_typed(int type, int aop, int64_t old, int64_t a, int64_t b) {
  if (type == WL_TYPE_FLOAT || type == WL_TYPE_DOUBLE ||
      type == WL_TYPE_HALF) {
    double o = wl_value_to_double(type, old), x = wl_value_to_double(type, a);
    switch (aop) {
    case AOP_ADD:
      return wl_value_from_double(type, o + x);
    case AOP_SUB:
      return wl_value_from_double(type, o - x);
    case AOP_MIN:
      return x < o ? a : old;
    case AOP_MAX:
      return x > o ? a : old;
    default:
      return wl__aop_apply(aop, old, a, b); /* exch, cas: bits */
    }
  }
  if (type == WL_TYPE_UINT32 || type == WL_TYPE_UINT16) {
    uint64_t mask = type == WL_TYPE_UINT32 ? 0xffffffffu : 0xffffu;
    uint64_t uo = (uint64_t)old & mask, ua = (uint64_t)a & mask;
    switch (aop) {
    case AOP_MIN:
      return (int64_t)(uo < ua ? uo : ua);
    case AOP_MAX:
      return (int64_t)(uo > ua ? uo : ua);
    case AOP_DIV:
      return ua ? (int64_t)(uo / ua) : 0;
    case AOP_REM:
      return ua ? (int64_t)(uo % ua) : 0;
    default:
      return wl_value_from_int(type,
                               wl__aop_apply(aop, (int64_t)uo, (int64_t)ua, b));
    }
  }
  if (type == WL_TYPE_INT32 || type == WL_TYPE_INT16)
    return wl_value_from_int(type, wl__aop_apply(aop, old, a, b));
  return wl__aop_apply(aop, old, a, b);
}

/* ---------------------------------------------------------------- */
/* The layout of final states                                        */

void wl__layout_init(wl_layout *l, const wl_litmus *t) {
  int th;
  l->nvals = 0;
  for (th = 0; th < t->nthreads; th++) {
    l->regoff[th] = l->nvals;
    l->nvals += t->threads[th].nregs;
  }
  l->regoff[t->nthreads] = l->nvals;
  l->nvals += t->nlocs;
}

int wl__layout_thread(const wl_layout *l, const wl_litmus *t, int var) {
  int th;
  if (var < 0 || var >= l->nvals)
    return -1;
  for (th = 0; th < t->nthreads; th++)
    if (var < l->regoff[th + 1])
      return th;
  return -1;
}

int wl__layout_type(const wl_layout *l, const wl_litmus *t, int var) {
  int th = wl__layout_thread(l, t, var);
  if (var < 0 || var >= l->nvals)
    return WL_EINVAL;
  if (th >= 0)
    return t->threads[th].regtype[var - l->regoff[th]];
  return t->loctype[var - l->regoff[t->nthreads]];
}

const char *wl__layout_name(const wl_layout *l, const wl_litmus *t, int var) {
  int th = wl__layout_thread(l, t, var);
  if (var < 0 || var >= l->nvals)
    return NULL;
  if (th >= 0)
    return t->threads[th].regnames[var - l->regoff[th]];
  return t->locnames[var - l->regoff[t->nthreads]];
}
