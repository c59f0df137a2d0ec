/* cuda.c -- a litmus test as a self-contained CUDA program.
 *
 * The program runs the test on a real NVIDIA GPU with a parallel-
 * instance harness: one launch runs many instances of the test, each
 * thread of the grid plays one role (test thread) of one instance, and
 * the roles of an instance sit in one block or in different blocks as
 * the test's CTA placement says.  Each role is one inline-PTX statement
 * holding the test thread's instructions as written (semantics, scope,
 * state space), its branches as PTX labels and bra, so ptxas sees the
 * exact instructions and nothing the C++ compiler could reorder.
 *
 * Representation: the text is assembled in a wl_buf in four parts: the
 * test's tables (names, initial values, sequentially consistent states,
 * the condition as a C function), one device function per role, the
 * kernel that dispatches roles, and the fixed harness (role tables,
 * stress, counting on the GPU in an open-addressing hash table, printing
 * in the format of wl_hist_write).  The fixed part is a list of short
 * lines: C11 promises string literals of 4095 characters only.
 *
 * Two GPUs: when the threads sit on GPUs 0 and 1, or a location's home
 * (wl__loc_home) is another GPU than the threads', the fixed part is the
 * two-GPU harness (harness_two*.cu): one launch per GPU playing its
 * roles, the roles of a slot held to rounds, each location in its home
 * GPU's memory; the tables add each role's and register's GPU and each
 * location's home.  One-GPU tests get the same text as before.
 *
 * SMs: CUDA places blocks on SMs itself, so the one-GPU program cannot
 * put an instance's CTAs on one SM or on several; with sm same or
 * different (DEF_SM, the program's --sm) each block notes %smid before
 * the roles run and the counting keeps only the instances of the asked
 * class, printing how many each class had (the litmus-harness way);
 * with same a probe launch maps blocks to SMs first and the role tables
 * put an instance's CTAs in blocks the probe saw on one SM.
 *
 * Deliberate limits (each refused with WL_EUNSUPPORTED and a message):
 * callback threads, barriers other than bar.sync with a constant id and
 * the test's thread count or none, or in a test of several CTAs (a
 * barrier test runs one instance per CTA, ONE_PER_CTA, its bar.sync the
 * block's barrier.sync),
 * GPUs other than 0 and 1 in a two-GPU test, __shared__ locations in a
 * two-GPU test, floating-point locations, sc accesses, PTX 7.5 proxies.
 * Every location and register is a 32-bit word: a value written in the
 * test outside 32 bits is refused where it is written (values), and a
 * value the test computes is checked in the program (loc_bounded,
 * put_alu): an instance that leaves 32 bits is counted apart. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../program/ir.h"
#include "emit.h"


typedef struct emitter {
  wl_ctx *ctx;
  const wl_litmus *t;
  wl_buf *b;
  wl_layout lay;
  int ngroups;
  int group[WL_MAX_THREADS]; /* the thread's CTA group, 0.. */
  int two;                   /* 1: the two-GPU harness */
  int barriers;              /* 1: bar.sync: one instance per CTA */
  int hsgpu;                 /* two GPUs: the handshake words' GPU */
  int shgroup;               /* the group that uses shared locations */
  int nshared;
  int shidx[WL_MAX_LOCS];    /* index among shared locations, or -1 */
  /* 1: no atom/red add or sub can take the location out of 32 bits
   * (loc_bounded); 0: those check their result in the program */
  int bounded[WL_MAX_LOCS];
  int nostall[WL_MAX_THREADS]; /* 1: no room for --gap's operand */
} emitter;

static int unsupported(emitter *e, const wl_thread *th, const wl_insn *in,
                       const char *what) {
  const char *f = e->t->filename ? e->t->filename : "<lua>";
  if (in != NULL)
    return wl__err(e->ctx, WL_EUNSUPPORTED, "%s:%d:%d: %s: %s", f, in->line,
                   in->col, th->name, what);
  if (th != NULL)
    return wl__err(e->ctx, WL_EUNSUPPORTED, "%s:%d: %s: %s", f, th->line,
                   th->name, what);
  return wl__err(e->ctx, WL_EUNSUPPORTED, "%s: %s", f, what);
}

/* Every value the program holds is a 32-bit word, printed signed: a
 * value written in the test (an initial value, an operand of mov, of
 * arithmetic, st, atom, red or a branch, a constant of the condition)
 * outside -2^31..2^31-1 would be cut to another value, and the program
 * would run another test; it is refused where it is written. */
static int fits32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

static int too_wide(emitter *e, int line, int col, const char *who,
                    const char *what, int64_t v) {
  const char *f = e->t->filename ? e->t->filename : "<lua>";
  char where[32] = "";
  if (line > 0 && col > 0)
    snprintf(where, sizeof where, ":%d:%d", line, col);
  else if (line > 0)
    snprintf(where, sizeof where, ":%d", line);
  return wl__err(e->ctx, WL_EUNSUPPORTED,
                 "%s%s: %s%s%s %lld does not fit the harness's 32-bit words "
                 "(-2147483648..2147483647)",
                 f, where, who, *who ? ": " : "", what, (long long)v);
}

static int cond_values(emitter *e) {
  const wl_litmus *t = e->t;
  int n, k;
  for (n = 0; n < t->ncnodes; n++) {
    const wl_cnode *c = &t->cnodes[n];
    if (c->kind != CN_CMP)
      continue;
    for (k = 0; k < 2; k++) {
      const wl_atom *a = k ? &c->b : &c->a;
      if (a->kind == AT_CONST && !fits32(a->val))
        return too_wide(e, a->line, a->col, "", "the condition's constant",
                        a->val);
    }
  }
  return 0;
}

static int values(emitter *e) {
  const wl_litmus *t = e->t;
  int th, i, l, r;
  char who[64];
  for (l = 0; l < t->nlocs; l++)
    if (!fits32(t->locinit[l])) {
      snprintf(who, sizeof who, "location %s", t->locnames[l]);
      return too_wide(e, t->initline[l], t->initcol[l], who,
                      "initial value", t->locinit[l]);
    }
  for (th = 0; th < t->nthreads; th++) {
    const wl_thread *tt = &t->threads[th];
    for (r = 0; r < tt->nregs; r++)
      if (!fits32(tt->reginit[r])) {
        snprintf(who, sizeof who, "%s:%s", tt->name, tt->regnames[r]);
        return too_wide(e, tt->reginitline[r], tt->reginitcol[r], who,
                        "initial value", tt->reginit[r]);
      }
    for (i = 0; i < tt->ninsns; i++) {
      const wl_insn *in = &tt->insns[i];
      const wl_operand *o[2];
      int k;
      o[0] = &in->a;
      o[1] = &in->b;
      if (in->op != OP_MOV && in->op != OP_ALU && in->op != OP_ST &&
          in->op != OP_ATOM && in->op != OP_RED && in->op != OP_BRANCH)
        continue;
      for (k = 0; k < 2; k++)
        if (!o[k]->is_reg && !fits32(o[k]->imm))
          return too_wide(e, in->line, in->col, tt->name, "the value",
                          o[k]->imm);
    }
  }
  return cond_values(e);
}

/* Values the test computes.  The model computes in 64 bits; the
 * program's words are 32 bits.  Register arithmetic is done in 64 bits
 * in the program and checked (put_alu); an atom/red add or sub checks
 * old + operand unless loc_bounded proves that no sum leaves 32 bits:
 * every write of the location has a constant operand, each add/sub runs
 * at most once (its thread has no backward branch), and the largest
 * magnitude written plus the sum of the magnitudes added stays below
 * 2^31.  An instance whose value leaves 32 bits is not counted: the
 * program prints how many did (a "Wide" line). */
static int loops(const wl_thread *tt) {
  int i;
  for (i = 0; i < tt->ninsns; i++)
    if ((tt->insns[i].op == OP_BRANCH || tt->insns[i].op == OP_GOTO) &&
        tt->insns[i].target <= i)
      return 1;
  return 0;
}

static int64_t mag(int64_t v) { return v < 0 ? -v : v; }

static int loc_bounded(const wl_litmus *t, int l) {
  int64_t most = mag(t->locinit[l]), sum = 0;
  int th, i;
  for (th = 0; th < t->nthreads; th++) {
    const wl_thread *tt = &t->threads[th];
    for (i = 0; i < tt->ninsns; i++) {
      const wl_insn *in = &tt->insns[i];
      const wl_operand *v = in->aop == AOP_CAS ? &in->b : &in->a;
      if (in->loc != l ||
          (in->op != OP_ST && in->op != OP_ATOM && in->op != OP_RED))
        continue;
      if (in->op != OP_ST && (in->aop == AOP_AND || in->aop == AOP_OR ||
                              in->aop == AOP_XOR)) {
        most = (int64_t)1 << 31; /* any 32-bit value */
        continue;
      }
      if (v->is_reg)
        return 0;
      if (in->op != OP_ST && (in->aop == AOP_ADD || in->aop == AOP_SUB)) {
        if (loops(tt))
          return 0;
        sum += mag(v->imm);
      } else if (mag(v->imm) > most) {
        most = mag(v->imm);
      }
    }
  }
  return most + sum <= INT32_MAX;
}

/* Groups threads by CTA and checks what the harness can run. */
static int plan(emitter *e) {
  const wl_litmus *t = e->t;
  int ctas[WL_MAX_THREADS], gpus[WL_MAX_THREADS], th, i, l, rc;
  if ((rc = wl__litmus_check_v60(t, "the CUDA emitter")) != 0)
    return rc;
  if ((rc = wl__litmus_check_labels(t)) != 0)
    return rc;
  e->ngroups = 0;
  e->shgroup = -1;
  e->two = 0;
  for (th = 0; th < t->nthreads; th++)
    if (t->threads[th].gpu != t->threads[0].gpu)
      e->two = 1;
  for (l = 0; l < t->nlocs && t->nthreads > 0; l++)
    if (wl__loc_home(t, l) != t->threads[0].gpu)
      e->two = 1;
  for (th = 0; th < t->nthreads; th++) {
    const wl_thread *tt = &t->threads[th];
    int g;
    if (tt->fn != NULL)
      return unsupported(e, tt, NULL,
                         "a function thread: the CUDA emitter needs the "
                         "thread's instructions");
    if (e->two && (tt->gpu < 0 || tt->gpu > 1))
      return unsupported(e, tt, NULL,
                         "a two-GPU test runs on GPUs 0 and 1 only");
    for (g = 0; g < e->ngroups; g++)
      if (ctas[g] == tt->cta && gpus[g] == tt->gpu)
        break;
    if (g == e->ngroups) {
      ctas[e->ngroups] = tt->cta;
      gpus[e->ngroups++] = tt->gpu;
    }
    e->group[th] = g;
    for (i = 0; i < tt->ninsns; i++) {
      const wl_insn *in = &tt->insns[i];
      if (in->op == OP_BAR) {
        /* one instance per CTA (ONE_PER_CTA): the CTA's barrier 0..15 is
         * the test's, over the whole block, which is the test's threads */
        if (in->bar_kind != BAR_SYNC || in->bar_ns != BARNS_PTX)
          return unsupported(e, tt, in,
                             "barriers other than bar.sync a{, b} (the "
                             "harness runs bar.sync as barrier.sync)");
        if (in->a.is_reg || in->a.imm < 0 || in->a.imm > 15)
          return unsupported(e, tt, in,
                             "a barrier other than a constant 0..15");
        if (in->has_count &&
            (in->b.is_reg || in->b.imm != (int64_t)t->nthreads))
          return unsupported(e, tt, in,
                             "a barrier count other than the test's "
                             "thread count (the harness's CTA holds one "
                             "instance)");
        e->barriers = 1;
      }
      if ((in->op == OP_LD || in->op == OP_ST || in->op == OP_ATOM ||
           in->op == OP_RED) &&
          in->sem == WL_SEM_SC)
        return unsupported(e, tt, in, "an sc access has no PTX instruction");
      if (in->op == OP_FENCE && in->pfence != PFENCE_NONE)
        return unsupported(e, tt, in, "proxy fences");
      if (in->loc >= 0 && t->locshared[in->loc]) {
        if (e->two)
          return unsupported(e, tt, in,
                             "a __shared__ location in a two-GPU test");
        if (e->shgroup >= 0 && e->shgroup != g)
          return unsupported(e, tt, in,
                             "a __shared__ location used from two CTAs");
        e->shgroup = g;
      }
    }
  }
  e->nshared = 0;
  for (l = 0; l < t->nlocs; l++) {
    if (t->loctype[l] == WL_TYPE_FLOAT || t->loctype[l] == WL_TYPE_DOUBLE)
      return unsupported(e, NULL, NULL,
                         "floating-point locations: the harness keeps "
                         "32-bit integer words");
    e->shidx[l] = t->locshared[l] ? e->nshared++ : -1;
    if (e->two && wl__loc_home(t, l) > 1)
      return unsupported(e, NULL, NULL,
                         "a location homed on a GPU other than 0 and 1");
  }
  e->hsgpu = t->nlocs > 0 ? wl__loc_home(t, 0) : 0;
  if (e->shgroup < 0)
    e->shgroup = 0;
  if (e->barriers && (e->two || e->ngroups > 1))
    return unsupported(e, NULL, NULL,
                       "barriers with the threads in several CTAs: the "
                       "harness runs a barrier test one instance per CTA");
  if (t->nthreads == 0)
    return unsupported(e, NULL, NULL, "a test without threads");
  for (l = 0; l < t->nlocs; l++)
    e->bounded[l] = loc_bounded(t, l);
  return values(e);
}

/* Text taken from the test (its name, its file's name, the condition)
 * lands in the program only through these two, so that no name can end
 * a comment or a string and become code.  In a string literal every
 * byte stands for itself: '"', '\\' and '?' (no trigraph can form) are
 * escaped, newline and tab as \n and \t, any other byte outside
 * printable ASCII (control bytes, bytes that are not UTF-8) as a
 * three-digit octal escape, which no following digit can extend. */
void wl__cuda_put_str_literal(wl_buf *b, const char *s) {
  wl__buf_puts(b, "\"");
  for (; s != NULL && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\' || c == '?')
      wl__buf_printf(b, "\\%c", c);
    else if (c == '\n')
      wl__buf_puts(b, "\\n");
    else if (c == '\t')
      wl__buf_puts(b, "\\t");
    else if (c < 32 || c > 126)
      wl__buf_printf(b, "\\%03o", c);
    else
      wl__buf_add(b, s, 1);
  }
  wl__buf_puts(b, "\"");
}

/* The same text inside a comment: the bytes a literal escapes are shown
 * escaped the same way, and "*" "/" (which would end the comment) and
 * "/" "*" are broken by a backslash; whatever follows the text cannot
 * join a '*' or '/' it ends with, since the callers follow it with
 * other characters. */
void wl__cuda_put_comment_text(wl_buf *b, const char *s) {
  for (; s != NULL && *s; s++) {
    unsigned char c = (unsigned char)*s;
    if ((c == '*' && s[1] == '/') || (c == '/' && s[1] == '*'))
      wl__buf_printf(b, "%c\\", c);
    else if (c == '\n')
      wl__buf_puts(b, "\\n");
    else if (c < 32 || c > 126)
      wl__buf_printf(b, "\\%03o", c);
    else
      wl__buf_add(b, s, 1);
  }
}

/* ---------------------------------------------------------------- */
/* The condition as C over v[] (the layout's order)                   */

static void put_atom(emitter *e, const wl_atom *a) {
  if (a->kind == AT_CONST)
    wl__buf_printf(e->b, "%lldLL", (long long)a->val);
  else if (a->kind == AT_REG)
    wl__buf_printf(e->b, "v[%d]", e->lay.regoff[a->thread] + a->reg);
  else
    wl__buf_printf(e->b, "v[%d]", e->lay.regoff[e->t->nthreads] + a->loc);
}

static void put_cond(emitter *e, int node) {
  static const char *const ops[] = {"==", "!=", "<", "<=", ">", ">="};
  const wl_cnode *c = &e->t->cnodes[node];
  switch (c->kind) {
  case CN_TRUE:
    wl__buf_puts(e->b, "1");
    break;
  case CN_AND:
  case CN_OR:
    wl__buf_puts(e->b, "(");
    put_cond(e, c->l);
    wl__buf_puts(e->b, c->kind == CN_AND ? " && " : " || ");
    put_cond(e, c->r);
    wl__buf_puts(e->b, ")");
    break;
  case CN_NOT:
    wl__buf_puts(e->b, "!(");
    put_cond(e, c->l);
    wl__buf_puts(e->b, ")");
    break;
  default:
    wl__buf_puts(e->b, "(");
    put_atom(e, &c->a);
    wl__buf_printf(e->b, " %s ", ops[c->cmp < 6 ? c->cmp : 0]);
    put_atom(e, &c->b);
    wl__buf_puts(e->b, ")");
    break;
  }
}

/* ---------------------------------------------------------------- */
/* Sequentially consistent states, to call the others weak            */

typedef struct sc_acc {
  wl_buf *b;
  size_t n;
} sc_acc;

static int sc_each(void *ud, const int64_t *vals, int nvals) {
  sc_acc *a = ud;
  int i;
  wl__buf_puts(a->b, "  {");
  for (i = 0; i < nvals; i++)
    wl__buf_printf(a->b, "%s%lldLL", i ? ", " : "", (long long)vals[i]);
  wl__buf_puts(a->b, "},\n");
  a->n++;
  return 0;
}

/* ---------------------------------------------------------------- */
/* One role: the thread's instructions as inline PTX                   */

const char *wl__cuda_sem_word(int sem) {
  switch (sem) {
  case WL_SEM_RELAXED:
    return "relaxed";
  case WL_SEM_ACQUIRE:
    return "acquire";
  case WL_SEM_RELEASE:
    return "release";
  case WL_SEM_ACQ_REL:
    return "acq_rel";
  case WL_SEM_SC:
    return "sc";
  default:
    return "weak";
  }
}

const char *wl__cuda_scope_word(int scope) {
  return scope == WL_SCOPE_CTA ? "cta" : scope == WL_SCOPE_SYS ? "sys" : "gpu";
}

/* ".relaxed.gpu", ".weak" for ld/st; "" for a weak atom/red (their
 * default is relaxed.gpu, PTX ISA 9.7.13.5). */
static void put_sem(emitter *e, const wl_insn *in, int atomic) {
  if (in->sem == WL_SEM_WEAK) {
    if (!atomic)
      wl__buf_puts(e->b, ".weak");
    return;
  }
  wl__buf_printf(e->b, ".%s.%s", wl__cuda_sem_word(in->sem),
                 wl__cuda_scope_word(in->scope));
}

static const char *space(emitter *e, const wl_insn *in) {
  return e->t->locshared[in->loc] ? "shared" : "global";
}

/* An operand as PTX text: a register or an immediate moved into the
 * temporary tmp (some instructions take registers only). */
static void operand_reg(emitter *e, const wl_operand *o, const char *tmp,
                        char *out, size_t n) {
  if (o->is_reg) {
    snprintf(out, n, RP "%d", o->reg);
    return;
  }
  wl__buf_printf(e->b, "    \"mov.b32 %s, %lld;\\n\\t\"\n", tmp,
                 (long long)(int32_t)o->imm);
  snprintf(out, n, "%s", tmp);
}

/* The operation and type of atom/red, or NULL; *negate for sub. */
static const char *aop_text(int aop, int *negate) {
  *negate = aop == AOP_SUB; /* PTX has no atom.sub: add the negation */
  switch (aop) {
  case AOP_ADD:
  case AOP_SUB:
    return ".add.u32";
  case AOP_AND:
    return ".and.b32";
  case AOP_OR:
    return ".or.b32";
  case AOP_XOR:
    return ".xor.b32";
  case AOP_MIN:
    return ".min.s32";
  case AOP_MAX:
    return ".max.s32";
  case AOP_EXCH:
    return ".exch.b32";
  case AOP_CAS:
    return ".cas.b32";
  default:
    return NULL;
  }
}

/* The check that the 64-bit value in w2 fits 32 bits: its low word in
 * t2, else the role ends as wide. */
static void put_fits(wl_buf *b) {
  wl__buf_puts(b, "    \"cvt.u32.u64 " RP "t2, " RP "w2;\\n\\t\"\n"
                  "    \"cvt.s64.s32 " RP "w0, " RP "t2;\\n\\t\"\n"
                  "    \"setp.ne.s64 " RP "q, " RP "w0, " RP "w2;\\n\\t\"\n"
                  "    \"@" RP "q bra " RP "WIDE;\\n\\t\"\n");
}

/* Register arithmetic as the model does it (wl__aop_apply: 64 bits,
 * shifts of the 64-bit pattern clamped at 64, division by zero giving
 * 0), then checked to fit 32 bits. */
static int put_alu(emitter *e, const wl_thread *th, const wl_insn *in) {
  static const char *const names[] = {
      "add.s64", "sub.s64", "mul.lo.s64", "div.s64", "rem.s64", "and.b64",
      "or.b64",  "xor.b64", "min.s64",    "max.s64", NULL,      NULL,
      NULL,      NULL,      "shl.b64",    "shr.b64"};
  char a[32], bb[32];
  wl_buf *b = e->b;
  if (in->aop >= sizeof names / sizeof names[0] || names[in->aop] == NULL)
    return unsupported(e, th, in, "this arithmetic has no PTX instruction");
  operand_reg(e, &in->a, RP "t0", a, sizeof a);
  operand_reg(e, &in->b, RP "t1", bb, sizeof bb);
  wl__buf_printf(b, "    \"cvt.s64.s32 " RP "w0, %s;\\n\\t\"\n", a);
  if (in->aop == AOP_SHL || in->aop == AOP_SHR) {
    /* the amount as .u32: a negative one is past 64, as the model's */
    wl__buf_printf(b, "    \"%s " RP "w2, " RP "w0, %s;\\n\\t\"\n",
                   names[in->aop], bb);
  } else {
    wl__buf_printf(b, "    \"cvt.s64.s32 " RP "w1, %s;\\n\\t\"\n", bb);
    wl__buf_printf(b, "    \"%s " RP "w2, " RP "w0, " RP "w1;\\n\\t\"\n",
                   names[in->aop]);
    if (in->aop == AOP_DIV || in->aop == AOP_REM)
      wl__buf_puts(b, "    \"setp.eq.s64 " RP "p, " RP "w1, 0;\\n\\t\"\n"
                      "    \"@" RP "p mov.b64 " RP "w2, 0;\\n\\t\"\n");
  }
  put_fits(b);
  wl__buf_printf(b, "    \"mov.b32 " RP "%d, " RP "t2;\\n\\t\"\n", in->dst);
  return 0;
}

static int put_insn(emitter *e, const wl_thread *th, int idx,
                    const int *argloc) {
  static const char *const conds[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  const wl_insn *in = &th->insns[idx];
  wl_buf *b = e->b;
  char a[32], bb[32], old[32];
  int neg, red, wide;
  switch (in->op) {
  case OP_NOP:
    return 0;
  case OP_BAR:
    /* non-aligned: the roles may sit in one warp (ONE_PER_CTA) */
    wl__buf_printf(b, "    \"barrier.sync %d;\\n\\t\"\n", (int)in->a.imm);
    return 0;
  case OP_MOV:
    if (in->a.is_reg)
      wl__buf_printf(b, "    \"mov.b32 " RP "%d, " RP "%d;\\n\\t\"\n", in->dst,
                     in->a.reg);
    else
      wl__buf_printf(b, "    \"mov.b32 " RP "%d, %lld;\\n\\t\"\n", in->dst,
                     (long long)(int32_t)in->a.imm);
    return 0;
  case OP_ALU:
    return put_alu(e, th, in);
  case OP_LD:
    wl__buf_puts(b, "    \"ld");
    put_sem(e, in, 0);
    if (wl__cuda_own_address(in))
      wl__buf_printf(b, ".%s.b32 " RP "%d, [" RP "x%d];\\n\\t\"\n",
                     space(e, in), in->dst, idx);
    else
      wl__buf_printf(b, ".%s.b32 " RP "%d, [" RP "a%d];\\n\\t\"\n",
                     space(e, in), in->dst, argloc[in->loc]);
    return 0;
  case OP_ST:
    operand_reg(e, &in->a, RP "t0", a, sizeof a);
    wl__buf_puts(b, "    \"st");
    put_sem(e, in, 0);
    if (wl__cuda_own_address(in))
      wl__buf_printf(b, ".%s.b32 [" RP "x%d], %s;\\n\\t\"\n",
                     space(e, in), idx, a);
    else
      wl__buf_printf(b, ".%s.b32 [" RP "a%d], %s;\\n\\t\"\n",
                     space(e, in), argloc[in->loc], a);
    return 0;
  case OP_ATOM:
  case OP_RED: {
    const char *op = aop_text(in->aop, &neg);
    if (op == NULL)
      return unsupported(e, th, in, "this atomic operation has no PTX atom");
    /* operands first (they may emit movs), then the instruction */
    operand_reg(e, &in->a, RP "t0", a, sizeof a);
    if (in->aop == AOP_CAS)
      operand_reg(e, &in->b, RP "t1", bb, sizeof bb);
    /* an add or sub that may leave 32 bits checks old + operand */
    wide = (in->aop == AOP_ADD || in->aop == AOP_SUB) && !e->bounded[in->loc];
    if (wide)
      wl__buf_printf(b, "    \"cvt.s64.s32 " RP "w1, %s;\\n\\t\"\n", a);
    if (neg) {
      wl__buf_printf(b, "    \"neg.s32 " RP "t2, %s;\\n\\t\"\n", a);
      snprintf(a, sizeof a, RP "t2");
    }
    /* red takes .relaxed and .release only: an acquiring red is the
     * atom that drops the old value, and so is a red whose sum is
     * checked (it needs the old value) */
    red = in->op == OP_RED && in->sem != WL_SEM_ACQUIRE &&
          in->sem != WL_SEM_ACQ_REL && !wide;
    wl__buf_puts(b, red ? "    \"red" : "    \"atom");
    put_sem(e, in, 1);
    wl__buf_printf(b, ".%s%s ", space(e, in), op);
    if (!red && in->op == OP_ATOM && in->dst >= 0)
      snprintf(old, sizeof old, RP "%d", in->dst);
    else
      snprintf(old, sizeof old, RP "t3"); /* the old value, unused */
    if (!red)
      wl__buf_printf(b, "%s, ", old);
    wl__buf_printf(b, "[" RP "a%d], %s", argloc[in->loc], a);
    if (in->aop == AOP_CAS)
      wl__buf_printf(b, ", %s", bb);
    wl__buf_puts(b, ";\\n\\t\"\n");
    if (wide) {
      wl__buf_printf(b, "    \"cvt.s64.s32 " RP "w0, %s;\\n\\t\"\n"
                        "    \"%s.s64 " RP "w2, " RP "w0, " RP "w1;\\n\\t\"\n",
                     old, in->aop == AOP_SUB ? "sub" : "add");
      put_fits(b);
    }
    return 0;
  }
  case OP_FENCE:
    wl__buf_printf(b, "    \"fence.%s.%s;\\n\\t\"\n",
                   in->sem == WL_SEM_SC ? "sc" : "acq_rel",
                   wl__cuda_scope_word(in->scope));
    return 0;
  case OP_BRANCH:
  case OP_GOTO:
    if (in->target <= idx) {
      /* a backward branch spends the loop budget: a spin loop whose
       * partner never comes ends the role, which counts as hung */
      wl__buf_puts(b, "    \"sub.s32 " RP "bud, " RP "bud, 1;\\n\\t\"\n"
                      "    \"setp.le.s32 " RP "q, " RP "bud, 0;\\n\\t\"\n"
                      "    \"@" RP "q bra " RP "HUNG;\\n\\t\"\n");
    }
    if (in->op == OP_GOTO) {
      wl__buf_printf(b, "    \"bra " RP "L%d;\\n\\t\"\n", in->target);
      return 0;
    }
    operand_reg(e, &in->a, RP "t0", a, sizeof a);
    operand_reg(e, &in->b, RP "t1", bb, sizeof bb);
    wl__buf_printf(b,
                   "    \"setp.%s.s32 " RP "p, %s, %s;\\n\\t\"\n"
                   "    \"@" RP "p bra " RP "L%d;\\n\\t\"\n",
                   conds[in->cond < 6 ? in->cond : 0], a, bb, in->target);
    return 0;
  default:
    return unsupported(e, th, in, "an instruction the harness cannot run");
  }
}

/* stall 1: role_N_gap, with --gap's stall (cuda_gap.c) where the
 * statement has room for its operand; 0: role_N, as it always was */
static int put_role(emitter *e, int th, int stall) {
  const wl_litmus *t = e->t;
  const wl_thread *tt = &t->threads[th];
  wl_buf *b = e->b;
  int used[WL_MAX_LOCS], argloc[WL_MAX_LOCS], target[1024];
  int i, l, r, nused = 0, nops, rc, gap;
  memset(used, 0, sizeof used);
  memset(target, 0, sizeof target);
  for (i = 0; i < tt->ninsns; i++) {
    const wl_insn *in = &tt->insns[i];
    if (in->loc >= 0)
      used[in->loc] = 1;
    if ((in->op == OP_BRANCH || in->op == OP_GOTO) && in->target >= 0 &&
        in->target < (int)(sizeof target / sizeof target[0]))
      target[in->target] = 1;
  }
  if (tt->ninsns >= (int)(sizeof target / sizeof target[0]))
    return unsupported(e, tt, NULL, "more than 1023 instructions");
  for (l = 0; l < t->nlocs; l++)
    argloc[l] = used[l] ? nused++ : -1;
  nops = tt->nregs + 1 + nused + 1;
  gap = stall && nops < 30; /* room for --gap's operand */
  e->nostall[th] = nops >= 30;
  if (nops > 30)
    return unsupported(e, tt, NULL,
                       "more than 28 registers and locations in one "
                       "thread (inline asm takes 30 operands)");
  wl__buf_puts(b, "/* ");
  wl__cuda_put_comment_text(b, tt->name);
  wl__buf_printf(b,
                 " of the test */\n"
                 "static __device__ __forceinline__ void role_%d%s("
                 "unsigned *const *loc, int *out, unsigned *hung, "
                 "int budget%s) {\n",
                 th, stall ? "_gap" : "", stall ? ", unsigned gap" : "");
  for (r = 0; r < tt->nregs; r++)
    wl__buf_printf(b, "  int o%d;\n", r);
  wl__buf_puts(b, "  unsigned h;\n  asm volatile(\n    \"{\\n\\t\"\n");
  if (tt->nregs > 0)
    wl__buf_printf(b, "    \".reg .b32 " RP "<%d>;\\n\\t\"\n", tt->nregs);
  wl__buf_puts(b, "    \".reg .b32 " RP "t<4>;\\n\\t\"\n"
                  "    \".reg .b64 " RP "w<3>;\\n\\t\"\n"
                  "    \".reg .b32 " RP "bud;\\n\\t\"\n"
                  "    \".reg .b32 " RP "h;\\n\\t\"\n"
                  "    \".reg .pred " RP "p;\\n\\t\"\n"
                  "    \".reg .pred " RP "q;\\n\\t\"\n");
  if (nused > 0)
    wl__buf_printf(b, "    \".reg .b64 " RP "a<%d>;\\n\\t\"\n", nused);
  for (l = 0; l < t->nlocs; l++)
    if (used[l])
      wl__buf_printf(b, "    \"cvta.to.%s.u64 " RP "a%d, %%%d;\\n\\t\"\n",
                     t->locshared[l] ? "shared" : "global", argloc[l],
                     tt->nregs + 1 + argloc[l]);
  wl__buf_printf(b, "    \"mov.b32 " RP "bud, %%%d;\\n\\t\"\n",
                 tt->nregs + 1 + nused);
  wl__cuda_put_own_addresses(b, tt, argloc);
  wl__buf_puts(b, "    \"mov.b32 " RP "h, 0;\\n\\t\"\n");
  if (gap)
    wl__cuda_put_gap_regs(b, tt->nregs + 2 + nused);
  for (r = 0; r < tt->nregs; r++)
    wl__buf_printf(b, "    \"mov.b32 " RP "%d, %lld;\\n\\t\"\n", r,
                   (long long)(int32_t)tt->reginit[r]);
  for (i = 0; i < tt->ninsns; i++) {
    if (gap && i > 0)
      wl__cuda_put_gap(b, i);
    if (target[i])
      wl__buf_printf(b, "    \"" RP "L%d:\\n\\t\"\n", i);
    if ((rc = put_insn(e, tt, i, argloc)) != 0)
      return rc;
  }
  if (target[tt->ninsns])
    wl__buf_printf(b, "    \"" RP "L%d:\\n\\t\"\n", tt->ninsns);
  wl__buf_puts(b, "    \"bra " RP "DONE;\\n\\t\"\n"
                  "    \"" RP "HUNG:\\n\\t\"\n"
                  "    \"mov.b32 " RP "h, 1;\\n\\t\"\n"
                  "    \"bra " RP "DONE;\\n\\t\"\n"
                  "    \"" RP "WIDE:\\n\\t\"\n"
                  "    \"mov.b32 " RP "h, 2;\\n\\t\"\n"
                  "    \"" RP "DONE:\\n\\t\"\n");
  for (r = 0; r < tt->nregs; r++)
    wl__buf_printf(b, "    \"mov.b32 %%%d, " RP "%d;\\n\\t\"\n", r, r);
  wl__buf_printf(b, "    \"mov.b32 %%%d, " RP "h;\\n\\t\"\n", tt->nregs);
  wl__buf_puts(b, "    \"}\"\n    : ");
  for (r = 0; r < tt->nregs; r++)
    wl__buf_printf(b, "\"=r\"(o%d), ", r);
  wl__buf_puts(b, "\"=r\"(h)\n    : ");
  for (l = 0; l < t->nlocs; l++)
    if (used[l])
      wl__buf_printf(b, "\"l\"(loc[%d]), ", l);
  wl__buf_puts(b, gap ? "\"r\"(budget), \"r\"(gap)\n    : \"memory\");\n"
                      : "\"r\"(budget)\n    : \"memory\");\n");
  for (r = 0; r < tt->nregs; r++)
    wl__buf_printf(b, "  out[%d] = o%d;\n", r, r);
  /* 1: hung, 2: a value left 32 bits (the larger stands) */
  wl__buf_puts(b, "  if (h)\n    atomicMax(hung, h);\n}\n\n");
  return 0;
}

/* ---------------------------------------------------------------- */
/* The fixed harness                                                  */

static void put_lines(wl_buf *b, const char *const *lines) {
  for (; *lines != NULL; lines++) {
    wl__buf_puts(b, *lines);
    wl__buf_puts(b, "\n");
  }
}

static void put_tables(emitter *e, const wl_cuda_opts *o) {
  const wl_litmus *t = e->t;
  wl_buf *b = e->b;
  int th, l, v, nregs = e->lay.regoff[t->nthreads];
  wl__buf_printf(b, "#define NROLES %d\n#define NGROUPS %d\n"
                    "#define NLOCS %d\n#define NSHARED %d\n"
                    "#define NREGS %d\n#define NVALS %d\n"
                    "#define SHGROUP %d\n#define COND_KIND %d\n",
                 t->nthreads, e->ngroups, t->nlocs, e->nshared, nregs,
                 e->lay.nvals, e->shgroup, t->cond_kind);
  wl__buf_printf(b, "#define DEF_BLOCKS %d\n#define DEF_THREADS %d\n"
                    "#define DEF_LAUNCHES %d\n#define DEF_STRESS %d\n"
                    "#define DEF_STRESS_ITERS %d\n#define DEF_SPACING %d\n"
                    "#define DEF_SEED %lluULL\n#define DEF_BUDGET %d\n"
                    "#define DEF_SHUFFLE %d\n",
                 o->blocks, o->threads, o->launches, o->stress_blocks,
                 o->stress_iters, o->spacing, (unsigned long long)o->seed,
                 o->budget, o->no_shuffle ? 0 : 1);
  if (!e->two)
    wl__buf_printf(b, "/* --sm: 0 any, 1 same, 2 different SMs */\n"
                      "#define DEF_SM %d\n#define DEF_HARNESS %d\n"
                      "#define DEF_SYNC %d\n#define DEF_SYNC_SPINS %d\n"
                      "#define DEF_PLACE %d\n#define DEF_PRE_STRESS %d\n"
                      "#define DEF_PATTERN %d\n#define DEF_LINES %d\n"
                      "#define DEF_LINE_WORDS %d\n#define DEF_TUNE %d\n"
                      "#define DEF_DELAY %d\n#define DEF_GAP %d\n"
                      "/* 1: a barrier test, one instance per CTA (blocks of "
                      "NROLES threads) */\n#define ONE_PER_CTA %d\n",
                   o->sm, o->harness, o->sync, o->sync_spins, o->place,
                   o->pre_stress, o->stress_pattern, o->stress_lines,
                   o->line_words, o->tune, o->delay, o->gap,
                   e->barriers);
  wl__buf_puts(b, "\n");
  if (e->two)
    wl__buf_printf(b, "/* two GPUs: the roles of a slot run DEF_ROUNDS "
                      "instances a launch, in step;\n * their handshake "
                      "words live on GPU HS_GPU */\n#define NGPUS 2\n"
                      "#define DEF_ROUNDS %d\n#define HS_GPU %d\n\n",
                   o->rounds, e->hsgpu);
  if (!e->two)
    wl__cuda_put_presets(b);
  wl__buf_puts(b, "static const char *const test_name = ");
  wl__cuda_put_str_literal(b, t->name);
  wl__buf_puts(b, ";\nstatic const char *const test_file = ");
  wl__cuda_put_str_literal(b, t->filename ? t->filename : "<lua>");
  wl__buf_puts(b, ";\nstatic const char *const cond_text = ");
  wl__cuda_put_str_literal(b, t->cond_text ? t->cond_text : "(true)");
  wl__buf_puts(b, ";\nstatic const int role_group[NROLES] = {");
  for (th = 0; th < t->nthreads; th++)
    wl__buf_printf(b, "%s%d", th ? ", " : "", e->group[th]);
  if (e->two) {
    wl__buf_puts(b, "};\n/* the GPU that plays each role */\n"
                    "static const int role_gpu[NROLES] = {");
    for (th = 0; th < t->nthreads; th++)
      wl__buf_printf(b, "%s%d", th ? ", " : "", t->threads[th].gpu);
  }
  wl__buf_puts(b, "};\nstatic const char *const var_name[NVALS] = {");
  for (v = 0; v < e->lay.nvals; v++) {
    wl__buf_puts(b, v ? ", " : "");
    wl__cuda_put_str_literal(b, wl__layout_name(&e->lay, t, v));
  }
  wl__buf_puts(b, "};\nstatic const int var_thread[NVALS] = {");
  for (v = 0; v < e->lay.nvals; v++)
    wl__buf_printf(b, "%s%d", v ? ", " : "",
                   wl__layout_thread(&e->lay, t, v));
  wl__buf_puts(b, "};\n__constant__ int loc_init[NLOCS + 1] = {");
  for (l = 0; l < t->nlocs; l++)
    wl__buf_printf(b, "%d, ", (int)(int32_t)t->locinit[l]);
  wl__buf_puts(b, "0};\n/* a location's index among the __shared__ ones, "
                  "or -1 */\n__constant__ int loc_shidx[NLOCS + 1] = {");
  for (l = 0; l < t->nlocs; l++)
    wl__buf_printf(b, "%d, ", e->shidx[l]);
  wl__buf_puts(b, "-1};\n__constant__ int sh_init[NSHARED + 1] = {");
  for (l = 0; l < t->nlocs; l++)
    if (t->locshared[l])
      wl__buf_printf(b, "%d, ", (int)(int32_t)t->locinit[l]);
  if (e->two) {
    wl__buf_puts(b, "0};\n/* the GPU whose memory holds each location */\n"
                    "__constant__ int loc_home[NLOCS + 1] = {");
    for (l = 0; l < t->nlocs; l++)
      wl__buf_printf(b, "%d, ", wl__loc_home(t, l));
    wl__buf_puts(b, "0};\n/* the GPU whose role writes each register */\n"
                    "__constant__ int reg_gpu[NREGS + 1] = {");
    for (v = 0; v < nregs; v++)
      wl__buf_printf(b, "%d, ",
                     t->threads[wl__layout_thread(&e->lay, t, v)].gpu);
  }
  wl__buf_puts(b, "0};\n\n/* the condition over an outcome's values */\n"
                  "static int cond_holds(const int *v) {\n  (void)v;\n"
                  "  return ");
  if (t->has_cond)
    put_cond(e, t->cond_root);
  else
    wl__buf_puts(b, "1");
  wl__buf_puts(b, ";\n}\n\n");
}

static void put_sc(emitter *e) {
  wl_buf *b = e->b;
  sc_acc acc;
  int bound = 0, rc;
  acc.b = b;
  acc.n = 0;
  wl__buf_puts(b, "/* the outcomes sequential consistency gives (warplab's "
                  "wl_sc_states);\n * the others are printed as weak */\n"
                  "static const long long sc_states[][NVALS + 1] = {\n");
  rc = wl_sc_states(e->ctx, e->t, 0, sc_each, &acc, &bound);
  wl__buf_puts(b, "  {0}\n};\n");
  wl__buf_printf(b, "static const long n_sc = %ld;\n\n",
                 rc == 0 && !bound ? (long)acc.n : -1L);
}

void wl_cuda_opts_init(wl_cuda_opts *o) {
  memset(o, 0, sizeof *o);
  o->blocks = 1024;
  o->threads = 256;
  o->launches = 200;
  o->stress_blocks = 0;
  o->stress_iters = 256;
  o->spacing = 1;
  o->seed = 1;
  o->budget = 10000;
  o->rounds = 100;
  wl__cuda_preset_apply(o, WL__CUDA_DEFAULT_PRESET);
  o->sync_spins = 20000;
}

int wl_cuda_emit(wl_ctx *ctx, const wl_litmus *t, const wl_cuda_opts *opts,
                 wl_write_fn write, void *ud) {
  emitter e;
  wl_cuda_opts o;
  wl_buf b;
  int th, rc;
  if (ctx == NULL || t == NULL || write == NULL)
    return WL_EINVAL;
  if (opts == NULL)
    wl_cuda_opts_init(&o);
  else
    o = *opts;
  if (o.blocks < 1 || o.blocks > (1 << 20) || o.threads < 1 ||
      o.threads > 1024 || o.launches < 1 || o.stress_blocks < 0 ||
      o.stress_blocks > (1 << 16) || o.stress_iters < 0 || o.spacing < 1 ||
      o.spacing > 1024 || o.budget < 1 || o.rounds < 1 ||
      o.rounds > (1 << 20) || o.sm < WL_CUDA_SM_ANY ||
      o.sm > WL_CUDA_SM_DIFFERENT ||
      wl_cuda_harness_name(o.harness) == NULL || o.sync < 0 ||
      o.sync > 1 || o.place < 0 || o.place > 1 || o.sync_spins < 1 ||
      o.pre_stress < 0 || o.pre_stress > (1 << 20) ||
      wl_cuda_pattern_name(o.stress_pattern) == NULL ||
      o.stress_lines < 1 || o.stress_lines > (1 << 16) ||
      o.line_words < 1 || o.line_words > 1024 || o.tune < 0 || o.tune > 1 ||
      o.delay < 0 || o.delay > (1 << 20) || o.gap < 0 || o.gap > (1 << 20) ||
      o.stream < 0 || o.stream > (1 << 20))
    return wl__err(ctx, WL_EINVAL,
                   "cuda: blocks 1..1048576, threads 1..1024, launches >= 1, "
                   "stress 0..65536, spacing 1..1024, budget >= 1, rounds "
                   "1..1048576, sm any, same or different, a known harness, sync "
                   "and place 0 or 1, sync_spins >= 1, pre_stress "
                   "0..1048576, a known stress pattern, stress_lines "
                   "1..65536, line_words 1..1024, delay, gap and stream "
                   "0..1048576");
  if (o.threads < t->nthreads)
    return wl__err(ctx, WL_EINVAL,
                   "cuda: %d threads per block cannot hold the test's %d "
                   "threads",
                   o.threads, t->nthreads);
  memset(&e, 0, sizeof e);
  e.ctx = ctx;
  e.t = t;
  e.b = &b;
  wl__layout_init(&e.lay, t);
  if ((rc = plan(&e)) != 0)
    return rc;
  if ((rc = wl__cuda_two_opts(ctx, &o, e.two)) != 0 || o.stream > 0)
    return rc != 0 ? rc : wl__cuda_stream_emit(ctx, t, &o, write, ud);
  /* the test's own SM placement ("P1@cta 1,gpu 0,sm 0") when the options
   * ask none: every CTA on one SM, or each on its own */
  if (o.sm == WL_CUDA_SM_ANY && !e.two && e.ngroups >= 2) {
    int a, c, same = 1, diff = 1, given = 0;
    for (a = 0; a < t->nthreads; a++)
      for (c = a + 1; c < t->nthreads; c++) {
        const wl_thread *ta = &t->threads[a], *tc = &t->threads[c];
        if (ta->cta == tc->cta && ta->gpu == tc->gpu)
          continue;
        if (ta->sm1 == 0 || tc->sm1 == 0) {
          same = diff = 0;
          continue;
        }
        given = 1;
        if (ta->sm1 == tc->sm1)
          diff = 0;
        else
          same = 0;
      }
    if (given && same)
      o.sm = WL_CUDA_SM_SAME;
    else if (given && diff)
      o.sm = WL_CUDA_SM_DIFFERENT;
  }
  if (o.sm != WL_CUDA_SM_ANY && (e.two || e.ngroups < 2))
    return wl__err(ctx, WL_EINVAL,
                   "cuda: sm %s needs a test whose threads are in several "
                   "CTAs of one GPU",
                   o.sm == WL_CUDA_SM_SAME ? "same" : "different");
  if (o.blocks < e.ngroups)
    return wl__err(ctx, WL_EINVAL,
                   "cuda: the test's %d CTAs need at least %d blocks",
                   e.ngroups, e.ngroups);
  wl__buf_init(&b, ctx);
  wl__buf_puts(&b, "/* ");
  wl__cuda_put_comment_text(&b, t->name);
  wl__buf_puts(&b, ".cu -- test ");
  wl__cuda_put_comment_text(&b, t->name);
  if (t->filename) {
    wl__buf_puts(&b, " (");
    wl__cuda_put_comment_text(&b, t->filename);
    wl__buf_puts(&b, ")");
  }
  wl__buf_puts(&b, " on a real GPU, written by warplab cuda.\n");
  put_lines(&b, e.two ? wl__cuda_two_head : wl__cuda_head);
  put_tables(&e, &o);
  put_sc(&e);
  for (th = 0; th < t->nthreads && rc == 0; th++)
    if ((rc = put_role(&e, th, 0)) == 0 && !e.two)
      rc = put_role(&e, th, 1);
  if (rc == 0) {
    wl__cuda_put_dispatch(&b, t, e.lay.regoff, e.nostall, e.two);
    if (!e.two)
      put_lines(&b, wl__cuda_check);
    put_lines(&b, e.two ? wl__cuda_two_body : wl__cuda_body);
    if (!e.two)
      put_lines(&b, wl__cuda_host);
    if (b.oom)
      rc = wl__err(ctx, WL_ENOMEM, "out of memory");
    else if (write(ud, b.p, b.n) != 0)
      rc = wl__err(ctx, WL_EIO, "the writer stopped the output");
  }
  wl__buf_free(&b);
  return rc;
}
