/* test_litmus.c -- the reader of Dat3M's PTX litmus dialect
 * (engine/program/litmus.c): what it builds, and where and why it
 * refuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../engine/warplab.h"
#include "../../engine/program/ir.h"

/* ---------------------------------------------------------------- */
/* Helpers                                                           */

static int setup(void **state) {
  wl_ctx *ctx = NULL;
  if (wl_ctx_new(NULL, &ctx) != 0)
    return -1;
  *state = ctx;
  return 0;
}

static int teardown(void **state) {
  wl_ctx_free(*state);
  return 0;
}

static wl_litmus *parse_ok(wl_ctx *ctx, const char *src) {
  wl_litmus *t = NULL;
  int r = wl_litmus_parse(ctx, "t.litmus", src, strlen(src), &t);
  if (r != 0)
    fail_msg("parse failed (%s): %s", wl_err_name(r), wl_ctx_errmsg(ctx));
  assert_non_null(t);
  assert_string_equal(wl_ctx_errmsg(ctx), "");
  return t;
}

/* Parses src (len bytes), expects code, a message starting with
 * "t.litmus:LINE:COL: " and containing `what`. */
static void parse_err_n(wl_ctx *ctx, const char *src, size_t len, int code,
                        int line, int col, const char *what) {
  wl_litmus *t = (wl_litmus *)(uintptr_t)1;
  char pos[64];
  const char *msg;
  int r = wl_litmus_parse(ctx, "t.litmus", src, len, &t);
  msg = wl_ctx_errmsg(ctx);
  if (r != code)
    fail_msg("expected %s, got %s: %s", wl_err_name(code), wl_err_name(r),
             msg);
  assert_null(t);
  snprintf(pos, sizeof pos, "t.litmus:%d:%d: ", line, col);
  if (strncmp(msg, pos, strlen(pos)) != 0)
    fail_msg("expected the message to start with '%s': %s", pos, msg);
  if (strstr(msg, what) == NULL)
    fail_msg("expected the message to say '%s': %s", what, msg);
}

static void parse_err(wl_ctx *ctx, const char *src, int code, int line,
                      int col, const char *what) {
  parse_err_n(ctx, src, strlen(src), code, line, col, what);
}

static int loc_index(const wl_litmus *t, const char *name) {
  int i;
  for (i = 0; i < t->nlocs; i++)
    if (strcmp(t->locnames[i], name) == 0)
      return i;
  return -1;
}

static int reg_index(const wl_thread *th, const char *name) {
  int i;
  for (i = 0; i < th->nregs; i++)
    if (strcmp(th->regnames[i], name) == 0)
      return i;
  return -1;
}

/* Evaluates the condition on one state given as registers of P0/P1 and
 * memory. */
static int eval2(const wl_litmus *t, int64_t *r0, int64_t *r1,
                 const int64_t *mem) {
  int64_t *regs[2];
  regs[0] = r0;
  regs[1] = r1;
  return wl__cond_eval(t, t->cond_root, regs, mem);
}

/* ---------------------------------------------------------------- */
/* Well-formed tests                                                 */

static const char mp_src[] =
    "PTX MP-cta-gpu\n"
    "\"a comment { with a brace }\"\n"
    "{ x=0; y=0; P1:r1=0; P1:r2=7; }\n"
    " P0@cta 0,gpu 0         | P1@cta 1,gpu 0         ;\n"
    " st.weak x, 1           | ld.acquire.gpu r1, y   ;\n"
    " st.release.gpu y, 1    | ld.weak r2, x          ;\n"
    "exists (P1:r1 == 1 /\\ P1:r2 != 1)\n";

static void test_parse_mp(void **state) {
  wl_ctx *ctx = *state;
  wl_litmus *t = parse_ok(ctx, mp_src);
  const wl_thread *p0 = &t->threads[0], *p1 = &t->threads[1];
  int x = loc_index(t, "x"), y = loc_index(t, "y");
  assert_string_equal(wl_litmus_name(t), "MP-cta-gpu");
  assert_int_equal(wl_litmus_nthreads(t), 2);
  assert_string_equal(p0->name, "P0");
  assert_string_equal(p1->name, "P1");
  assert_int_equal(p0->cta, 0);
  assert_int_equal(p1->cta, 1);
  assert_int_equal(p0->gpu, 0);
  assert_int_equal(p1->gpu, 0);
  assert_int_equal(p0->line, 4);
  assert_int_equal(t->nlocs, 2);
  assert_true(x >= 0 && y >= 0);
  assert_int_equal(t->locinit[x], 0);

  assert_int_equal(p0->ninsns, 2);
  assert_int_equal(p0->insns[0].op, OP_ST);
  assert_int_equal(p0->insns[0].sem, WL_SEM_WEAK);
  assert_int_equal(p0->insns[0].scope, WL_SCOPE_NONE);
  assert_int_equal(p0->insns[0].loc, x);
  assert_false(p0->insns[0].a.is_reg);
  assert_int_equal(p0->insns[0].a.imm, 1);
  assert_int_equal(p0->insns[0].line, 5);
  assert_int_equal(p0->insns[0].col, 2);
  assert_int_equal(p0->insns[1].op, OP_ST);
  assert_int_equal(p0->insns[1].sem, WL_SEM_RELEASE);
  assert_int_equal(p0->insns[1].scope, WL_SCOPE_GPU);
  assert_int_equal(p0->insns[1].loc, y);

  assert_int_equal(p1->ninsns, 2);
  assert_int_equal(p1->insns[0].op, OP_LD);
  assert_int_equal(p1->insns[0].sem, WL_SEM_ACQUIRE);
  assert_int_equal(p1->insns[0].scope, WL_SCOPE_GPU);
  assert_int_equal(p1->insns[0].loc, y);
  assert_int_equal(p1->insns[0].dst, reg_index(p1, "r1"));
  assert_int_equal(p1->insns[0].line, 5);
  assert_int_equal(p1->insns[0].col, 27);
  assert_int_equal(p1->insns[1].op, OP_LD);
  assert_int_equal(p1->insns[1].sem, WL_SEM_WEAK);
  assert_int_equal(p1->insns[1].dst, reg_index(p1, "r2"));
  assert_int_equal(p1->reginit[reg_index(p1, "r2")], 7);
  assert_int_equal(p1->reginit[reg_index(p1, "r1")], 0);

  assert_true(t->has_cond);
  assert_int_equal(t->cond_kind, WL_COND_EXISTS);
  assert_string_equal(t->cond_text, "(P1:r1 == 1 /\\ P1:r2 != 1)");
  assert_int_equal(t->cnodes[t->cond_root].kind, CN_AND);
  {
    int64_t r0[1] = {0}, r1[2], mem[2] = {0, 0};
    int i1 = reg_index(p1, "r1"), i2 = reg_index(p1, "r2");
    r1[i1] = 1;
    r1[i2] = 0;
    assert_true(eval2(t, r0, r1, mem));
    r1[i2] = 1;
    assert_false(eval2(t, r0, r1, mem));
    r1[i1] = 0;
    r1[i2] = 0;
    assert_false(eval2(t, r0, r1, mem));
  }
  wl_litmus_free(t);
}

static void test_parse_sb_notexists(void **state) {
  static const char src[] =
      "PTX SB\n"
      "{ x=0; y=0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n"
      " st.relaxed.sys x, 1 | st.relaxed.cta y, 1 ;\n"
      " fence.sc.gpu | fence.acq_rel.sys ;\n"
      " ld.relaxed.sys r0, y | ld.volatile r0, x ;\n"
      "~exists (0:r0 = 0 /\\ 1:r0 = 0)";
  wl_ctx *ctx = *state;
  wl_litmus *t = parse_ok(ctx, src);
  const wl_thread *p1 = &t->threads[1];
  assert_string_equal(wl_litmus_name(t), "SB");
  assert_int_equal(p1->gpu, 1);
  assert_int_equal(t->cond_kind, WL_COND_NOTEXISTS);
  assert_int_equal(t->threads[0].insns[1].op, OP_FENCE);
  assert_int_equal(t->threads[0].insns[1].sem, WL_SEM_SC);
  assert_int_equal(t->threads[0].insns[1].scope, WL_SCOPE_GPU);
  assert_int_equal(p1->insns[0].sem, WL_SEM_RELAXED);
  assert_int_equal(p1->insns[0].scope, WL_SCOPE_CTA);
  assert_int_equal(p1->insns[1].sem, WL_SEM_ACQ_REL);
  assert_int_equal(p1->insns[1].scope, WL_SCOPE_SYS);
  /* ld.volatile is relaxed.sys */
  assert_int_equal(p1->insns[2].op, OP_LD);
  assert_int_equal(p1->insns[2].sem, WL_SEM_RELAXED);
  assert_int_equal(p1->insns[2].scope, WL_SCOPE_SYS);
  {
    int64_t r0[1] = {0}, r1[1] = {0}, mem[2] = {1, 1};
    assert_true(eval2(t, r0, r1, mem));
    r1[0] = 1;
    assert_false(eval2(t, r0, r1, mem));
  }
  wl_litmus_free(t);
}

/* forall, \/, ~, !=, locations in the condition, parentheses. */
static void test_parse_conditions(void **state) {
  static const char src[] =
      "PTX C\n"
      "{ x=3; }\n"
      " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
      " ld.weak r0, x | ld.weak r1, x ;\n"
      "forall (P0:r0 == 3 \\/ ~(x != 3) /\\ [x] = P1:r1)\n";
  wl_ctx *ctx = *state;
  wl_litmus *t = parse_ok(ctx, src);
  int64_t r0[1], r1[1], mem[1];
  assert_int_equal(t->cond_kind, WL_COND_FORALL);
  assert_int_equal(t->locinit[0], 3);
  /* \/ binds weaker than /\ */
  assert_int_equal(t->cnodes[t->cond_root].kind, CN_OR);
  r0[0] = 3;
  r1[0] = 0;
  mem[0] = 0;
  assert_true(eval2(t, r0, r1, mem));
  r0[0] = 0;
  assert_false(eval2(t, r0, r1, mem));
  mem[0] = 3;
  assert_false(eval2(t, r0, r1, mem));
  r1[0] = 3;
  assert_true(eval2(t, r0, r1, mem));
  wl_litmus_free(t);
}

/* A test without a condition, and "exists 0==0" (CADP). */
static void test_parse_trivial_conditions(void **state) {
  static const char none[] = "PTX N\n{ x=0; }\n P0@cta 0,gpu 0 ;\n"
                             " st.weak x, 1 ;\n";
  static const char trivial[] = "PTX N\n{ x=0; }\n P0@cta 0,gpu 0 ;\n"
                                " st.weak x, 1 ;\nexists 0==0";
  wl_ctx *ctx = *state;
  wl_litmus *t = parse_ok(ctx, none);
  assert_false(t->has_cond);
  assert_int_equal(t->cond_kind, WL_COND_EXISTS);
  wl_litmus_free(t);
  t = parse_ok(ctx, trivial);
  assert_true(t->has_cond);
  assert_true(eval2(t, NULL, NULL, NULL));
  assert_string_equal(t->cond_text, "0==0");
  wl_litmus_free(t);
}

static void test_parse_atom_red(void **state) {
  static const char src[] =
      "PTX A\n"
      "{ x=0; }\n"
      " P0@cta 0,gpu 0 ;\n"
      " atom.acquire.gpu.add r0, x, 1 ;\n"
      " atom.cas r1, x, 0, r0 ;\n"
      " atom.relaxed.cta.exch r2, x, 5 ;\n"
      " atom.acq_rel.sys.global.inc.u32 r3, x, 9 ;\n"
      " red.release.gpu.add x, 2 ;\n"
      " red.or x, r1 ;\n"
      "exists (x == 1)\n";
  wl_ctx *ctx = *state;
  wl_litmus *t = parse_ok(ctx, src);
  const wl_thread *p = &t->threads[0];
  const wl_insn *in = p->insns;
  assert_int_equal(p->ninsns, 6);
  assert_int_equal(in[0].op, OP_ATOM);
  assert_int_equal(in[0].sem, WL_SEM_ACQUIRE);
  assert_int_equal(in[0].scope, WL_SCOPE_GPU);
  assert_int_equal(in[0].aop, AOP_ADD);
  assert_int_equal(in[0].dst, reg_index(p, "r0"));
  assert_int_equal(in[0].a.imm, 1);
  /* defaults: .relaxed.gpu */
  assert_int_equal(in[1].op, OP_ATOM);
  assert_int_equal(in[1].aop, AOP_CAS);
  assert_int_equal(in[1].sem, WL_SEM_RELAXED);
  assert_int_equal(in[1].scope, WL_SCOPE_GPU);
  assert_int_equal(in[1].a.imm, 0);
  assert_true(in[1].b.is_reg);
  assert_int_equal(in[1].b.reg, reg_index(p, "r0"));
  assert_int_equal(in[2].aop, AOP_EXCH);
  assert_int_equal(in[2].scope, WL_SCOPE_CTA);
  assert_int_equal(in[3].aop, AOP_INC);
  assert_int_equal(in[3].sem, WL_SEM_ACQ_REL);
  assert_int_equal(in[3].scope, WL_SCOPE_SYS);
  assert_int_equal(in[4].op, OP_RED);
  assert_int_equal(in[4].sem, WL_SEM_RELEASE);
  assert_int_equal(in[4].aop, AOP_ADD);
  assert_int_equal(in[4].dst, -1);
  assert_int_equal(in[5].op, OP_RED);
  assert_int_equal(in[5].aop, AOP_OR);
  assert_true(in[5].a.is_reg);
  wl_litmus_free(t);
}

static void test_parse_fences_barriers(void **state) {
  static const char src[] =
      "PTX F\n"
      "{ x=0; }\n"
      " P0@cta 0,gpu 0 ;\n"
      " membar.cta ;\n"
      " membar.gl ;\n"
      " membar.sys ;\n"
      " fence.acq_rel.cta ;\n"
      " bar.cta.sync 0 ;\n"
      " bar.cta.sync 1, 2, 3 ;\n"
      " bar.cta.arrive 1, 2 ;\n"
      " bar.sync 0 ;\n"
      " bar.sync.aligned 1, 64 ;\n"
      " bar.arrive 2, r5 ;\n"
      " barrier.sync 3 ;\n";
  wl_ctx *ctx = *state;
  wl_litmus *t = parse_ok(ctx, src);
  const wl_insn *in = t->threads[0].insns;
  int i;
  assert_int_equal(t->threads[0].ninsns, 11);
  for (i = 0; i < 3; i++) {
    assert_int_equal(in[i].op, OP_FENCE);
    assert_int_equal(in[i].sem, WL_SEM_SC);
  }
  assert_int_equal(in[0].scope, WL_SCOPE_CTA);
  assert_int_equal(in[1].scope, WL_SCOPE_GPU);
  assert_int_equal(in[2].scope, WL_SCOPE_SYS);
  assert_int_equal(in[3].sem, WL_SEM_ACQ_REL);
  assert_int_equal(in[3].scope, WL_SCOPE_CTA);
  for (i = 4; i < 11; i++)
    assert_int_equal(in[i].op, OP_BAR);
  assert_int_equal(in[4].bar_kind, BAR_SYNC);
  assert_int_equal(in[4].bar_ns, BARNS_INSTANCE);
  assert_int_equal(in[4].bar_inst, 0);
  assert_int_equal(in[5].bar_ns, BARNS_NAMED);
  assert_int_equal(in[5].bar_inst, 1);
  assert_int_equal(in[5].a.imm, 2);
  assert_true(in[5].has_count);
  assert_int_equal(in[5].b.imm, 3);
  assert_int_equal(in[6].bar_kind, BAR_ARRIVE);
  assert_int_equal(in[6].bar_ns, BARNS_NAMED);
  assert_false(in[6].has_count);
  assert_int_equal(in[7].bar_ns, BARNS_PTX);
  assert_int_equal(in[7].a.imm, 0);
  assert_false(in[7].has_count);
  assert_true(in[8].has_count);
  assert_int_equal(in[8].b.imm, 64);
  assert_int_equal(in[9].bar_kind, BAR_ARRIVE);
  assert_true(in[9].b.is_reg);
  assert_int_equal(in[10].bar_ns, BARNS_PTX);
  assert_int_equal(in[10].a.imm, 3);
  wl_litmus_free(t);
}

/* Labels, forward and backward branches, goto, register arithmetic,
 * "ld r0, 2" as a move, PTX register names. */
static void test_parse_labels_branches(void **state) {
  static const char src[] =
      "PTX L\n"
      "{ x=0; P0:r1=0; }\n"
      " P0@cta 0,gpu 0            | P1@cta 0,gpu 0 ;\n"
      " LC00:                     | ld r0, 2       ;\n"
      " add r1, r1, 1             | mov %r3, r0    ;\n"
      " bne r1, 100, LC00         | beq r0, 2, END ;\n"
      " ld.relaxed.gpu r2, x      | goto LC10      ;\n"
      " bge r2, 1, LC01           | LC10:          ;\n"
      " bra.uni LC00              | END:           ;\n"
      " LC01:                     | sub.s32 r4, r0, 1 ;\n"
      "exists (P0:r1 == 100)\n";
  wl_ctx *ctx = *state;
  wl_litmus *t = parse_ok(ctx, src);
  const wl_thread *p0 = &t->threads[0], *p1 = &t->threads[1];
  assert_int_equal(p0->ninsns, 7);
  assert_int_equal(p0->insns[0].op, OP_NOP);
  assert_int_equal(p0->insns[1].op, OP_ALU);
  assert_int_equal(p0->insns[1].aop, AOP_ADD);
  assert_int_equal(p0->insns[2].op, OP_BRANCH);
  assert_int_equal(p0->insns[2].cond, COND_NE);
  assert_int_equal(p0->insns[2].b.imm, 100);
  assert_int_equal(p0->insns[2].target, 0);
  assert_int_equal(p0->insns[4].op, OP_BRANCH);
  assert_int_equal(p0->insns[4].cond, COND_GE);
  assert_int_equal(p0->insns[4].target, 6); /* forward */
  assert_int_equal(p0->insns[5].op, OP_GOTO);
  assert_int_equal(p0->insns[5].target, 0);
  assert_int_equal(p0->insns[6].op, OP_NOP);

  assert_int_equal(p1->ninsns, 7);
  assert_int_equal(p1->insns[0].op, OP_MOV);
  assert_int_equal(p1->insns[0].a.imm, 2);
  assert_int_equal(p1->insns[1].op, OP_MOV);
  assert_true(p1->insns[1].a.is_reg);
  assert_true(reg_index(p1, "%r3") >= 0);
  assert_int_equal(p1->insns[2].cond, COND_EQ);
  assert_int_equal(p1->insns[2].target, 5);
  assert_int_equal(p1->insns[3].op, OP_GOTO);
  assert_int_equal(p1->insns[3].target, 4);
  assert_int_equal(p1->insns[4].op, OP_NOP);
  assert_int_equal(p1->insns[6].op, OP_ALU);
  assert_int_equal(p1->insns[6].aop, AOP_SUB);
  wl_litmus_free(t);
}

/* Empty cells, herd comments, // comments, hex and negative numbers,
 * "int x = 0" declarations, "locations [...]". */
static void test_parse_misc_syntax(void **state) {
  static const char src[] =
      "PTX Misc (* not a comment here: header text *)\n"
      "{ int x = -5; uint32_t y=0x10; P1:r0 = -1 }\n"
      "(* a herd comment; { x=1; } *)\n"
      " P0@cta 0,gpu 0 | P1@cta 0 ;\n"
      " st.weak x, 0x7fffffffffffffff |  ;\n"
      "                | ld.weak r0, y // trailing comment\n"
      " ;\n"
      "locations [x; P1:r0;]\n"
      "exists (x == -9223372036854775808)\n";
  wl_ctx *ctx = *state;
  wl_litmus *t = parse_ok(ctx, src);
  assert_string_equal(wl_litmus_name(t),
                      "Misc (* not a comment here: header text *)");
  assert_int_equal(t->locinit[loc_index(t, "x")], -5);
  assert_int_equal(t->locinit[loc_index(t, "y")], 16);
  assert_int_equal(t->threads[1].reginit[0], -1);
  assert_int_equal(t->threads[1].cta, 0);
  assert_int_equal(t->threads[0].ninsns, 1);
  assert_int_equal(t->threads[0].insns[0].a.imm, INT64_MAX);
  assert_int_equal(t->threads[1].ninsns, 1);
  assert_int_equal(t->nobserved, 2);
  assert_int_equal(t->cnodes[t->cond_root].b.val, INT64_MIN);
  wl_litmus_free(t);
}

/* src need not be NUL-terminated: only len bytes are read. */
static void test_parse_not_terminated(void **state) {
  static const char text[] = "PTX N\n{ x=0; }\n P0@cta 0,gpu 0 ;\n"
                             " st.weak x, 1 ;\nexists (x == 1)";
  wl_ctx *ctx = *state;
  size_t n = strlen(text);
  char *buf = malloc(n + 16);
  wl_litmus *t = NULL;
  assert_non_null(buf);
  memcpy(buf, text, n);
  memcpy(buf + n, " \\/ garbage|{", 13); /* beyond len */
  assert_int_equal(wl_litmus_parse(ctx, NULL, buf, n, &t), 0);
  free(buf); /* the engine copied what it keeps */
  assert_string_equal(wl_litmus_name(t), "N");
  assert_string_equal(t->cond_text, "(x == 1)");
  assert_string_equal(t->filename, "<litmus>");
  wl_litmus_free(t);
}

static void test_parse_einval(void **state) {
  wl_ctx *ctx = *state;
  wl_litmus *t = NULL;
  assert_int_equal(wl_litmus_parse(NULL, "f", "PTX", 3, &t), WL_EINVAL);
  assert_int_equal(wl_litmus_parse(ctx, "f", "PTX", 3, NULL), WL_EINVAL);
  assert_int_equal(wl_litmus_parse(ctx, "f", NULL, 3, &t), WL_EINVAL);
  wl_litmus_free(NULL);
}

/* A failure's message goes when the next parse succeeds. */
static void test_errmsg_reset(void **state) {
  wl_ctx *ctx = *state;
  wl_litmus *t = NULL;
  assert_int_equal(wl_litmus_parse(ctx, "t.litmus", "x", 1, &t), WL_ESYNTAX);
  assert_true(wl_ctx_errmsg(ctx)[0] != '\0');
  t = parse_ok(ctx, mp_src);
  wl_litmus_free(t);
}

/* ---------------------------------------------------------------- */
/* Errors                                                            */

#define HEAD "PTX T\n{ x=0; }\n P0@cta 0,gpu 0 ;\n" /* 3 lines */
#define HEAD2 "PTX T\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"

static void test_err_unknown_insn(void **state) {
  parse_err(*state, HEAD " frob x, 1 ;\n", WL_ESYNTAX, 4, 2,
            "unknown instruction 'frob' (expected ld, st,");
  parse_err(*state, HEAD2 " st.weak x, 1 | ld.wak r0, x ;\n", WL_ESYNTAX, 4,
            17, "unknown qualifier '.wak' in 'ld.wak'");
  parse_err(*state, HEAD " atom.relaxed.gpu.nand r0, x, 1 ;\n", WL_ESYNTAX,
            4, 2, "unknown atom operation '.nand'");
  parse_err(*state, HEAD " atom.relaxed.gpu r0, x, 1 ;\n", WL_ESYNTAX, 4, 2,
            "atom needs an operation");
  parse_err(*state, HEAD " red.gpu.cas x, 1 ;\n", WL_ESYNTAX, 4, 2,
            "red has no .cas");
  parse_err(*state, HEAD " fence.gpu ;\n", WL_ESYNTAX, 4, 2,
            "expected fence.sc or fence.acq_rel");
  parse_err(*state, HEAD " fence.sc ;\n", WL_ESYNTAX, 4, 2,
            "fence.sc needs a scope");
  parse_err(*state, HEAD " membar.gpu ;\n", WL_ESYNTAX, 4, 2,
            "expected membar.cta, membar.gl or membar.sys");
  parse_err(*state, HEAD " bar.cta.wait 0 ;\n", WL_ESYNTAX, 4, 2,
            "expected bar.cta.sync");
}

static void test_err_operands(void **state) {
  parse_err(*state, HEAD " st.weak x ;\n", WL_ESYNTAX, 4, 2,
            "wrong operands for st: expected 'st.sem.scope location, "
            "value'");
  parse_err(*state, HEAD " ld.weak x, x ;\n", WL_ESYNTAX, 4, 10,
            "expected a register (r0, r1, ...), found 'x'");
  parse_err(*state, HEAD " st.weak r1, 1 ;\n", WL_ESYNTAX, 4, 10,
            "expected a memory location, found 'r1'");
  parse_err(*state, HEAD " st.weak x 1 ;\n", WL_ESYNTAX, 4, 12,
            "expected ',' between operands, found '1'");
  parse_err(*state, HEAD " st.weak x, ;\n", WL_ESYNTAX, 4, 11,
            "expected an operand after ','");
  parse_err(*state, HEAD " atom.cas r0, x, 1 ;\n", WL_ESYNTAX, 4, 2,
            "wrong operands for atom.cas");
  parse_err(*state, HEAD " bar.cta.sync r0 ;\n", WL_ESYNTAX, 4, 2,
            "wrong operands for bar.cta.sync");
  parse_err(*state, HEAD " bar.arrive 1 ;\n", WL_ESYNTAX, 4, 2,
            "wrong operands for bar.arrive: expected 'bar.arrive id, "
            "count'");
}

static void test_err_missing_semicolon(void **state) {
  /* a row without its ';' runs into the condition */
  parse_err(*state, HEAD " st.weak x, 1\nexists (x == 1)\n", WL_ESYNTAX, 5,
            1, "expected ';' ending the instruction row, found 'exists'");
  /* ... or into the end of the file */
  parse_err(*state, HEAD " st.weak x, 1", WL_ESYNTAX, 4, 14,
            "expected ';' ending the instruction row, found end of file");
  /* the thread declaration without its ';' */
  parse_err(*state, "PTX T\n{ x=0; }\n P0@cta 0,gpu 0\n st.weak x, 1 ;\n",
            WL_ESYNTAX, 4, 2, "expected '|', found 'st.weak'");
  /* between initialisations */
  parse_err(*state, "PTX T\n{ x=0 y=0; }\n", WL_ESYNTAX, 2, 7,
            "expected ';', found 'y'");
}

static void test_err_ld_acquire_no_scope(void **state) {
  parse_err(*state, HEAD2 " st.weak x, 1 | ld.acquire r0, x ;\n", WL_ESYNTAX,
            4, 17, "ld.acquire needs a scope: .cta, .gpu or .sys");
  parse_err(*state, HEAD " st.relaxed x, 1 ;\n", WL_ESYNTAX, 4, 2,
            "st.relaxed needs a scope");
}

static void test_err_st_acquire(void **state) {
  parse_err(*state, HEAD " st.acquire.gpu x, 1 ;\n", WL_ESYNTAX, 4, 2,
            "st cannot be .acquire (expected .weak, .relaxed, .release or "
            ".volatile)");
  parse_err(*state, HEAD " ld.release.gpu r0, x ;\n", WL_ESYNTAX, 4, 2,
            "ld cannot be .release");
  parse_err(*state, HEAD " ld.sc.gpu r0, x ;\n", WL_ESYNTAX, 4, 2,
            "ld cannot be .sc");
  parse_err(*state, HEAD " atom.weak.add r0, x, 1 ;\n", WL_ESYNTAX, 4, 2,
            "atom cannot be .weak");
}

static void test_err_undefined_label(void **state) {
  parse_err(*state, HEAD " LC00: ;\n bne r0, 0, LC01 ;\n", WL_ESYNTAX, 5, 13,
            "label 'LC01' is not defined in P0");
  /* labels are per thread */
  parse_err(*state,
            HEAD2 " L0:           | st.weak x, 1 ;\n"
                  " st.weak x, 2  | goto L0 ;\n",
            WL_ESYNTAX, 5, 23, "label 'L0' is not defined in P1");
}

static void test_err_duplicate_label(void **state) {
  parse_err(*state, HEAD " L0: ;\n st.weak x, 1 ;\n   L0: ;\n", WL_ESYNTAX, 6,
            4, "label 'L0' defined twice in P0");
  parse_err(*state, HEAD " L0: x ;\n", WL_ESYNTAX, 4, 2,
            "a label is a name followed by ':' alone in its cell");
}

static void test_err_thread_order(void **state) {
  parse_err(*state, "PTX T\n{ x=0; }\n P1@cta 0,gpu 0 | P0@cta 0,gpu 0 ;\n",
            WL_ESYNTAX, 3, 2, "threads must be declared in order: expected P0");
  parse_err(*state, "PTX T\n{ x=0; }\n P0@cta 0,gpu 0 | P0@cta 0,gpu 0 ;\n",
            WL_ESYNTAX, 3, 19, "expected P1");
  parse_err(*state, "PTX T\n{ x=0; }\n P0 | P1 ;\n", WL_ESYNTAX, 3, 2,
            "thread P0 needs a placement: 'P0@cta N,gpu M'");
  /* ",sm N": the SM of the thread's CTA; one CTA runs on one SM */
  parse_err(*state, "PTX T\n{ x=0; }\n P0@cta 0,gpu 0,sx 1 ;\n", WL_ESYNTAX,
            3, 17, "expected 'sm' (the SM of the thread's CTA");
  parse_err(*state, "PTX T\n{ x=0; }\n P0@cta 0,gpu 0,sm 2000 ;\n",
            WL_ESYNTAX, 3, 20, "expected an SM number 0..1023");
  parse_err(*state,
            "PTX T\n{ x=0; }\n P0@cta 0,gpu 0,sm 1 | P1@cta 0,gpu 0 ;\n",
            WL_ESYNTAX, 3, 24,
            "P1 is in P0's CTA but not on its SM: the threads of one CTA "
            "run on one SM");
  parse_err(*state, "PTX T\n{ x=0; }\n P0@gpu 0 ;\n", WL_ESYNTAX, 3, 5,
            "expected 'cta', found 'gpu'");
  parse_err(*state, "PTX T\n{ x=0; }\n P64@cta 0 ;\n", WL_ELIMIT, 3, 2,
            "at most 64 threads");
}

static void test_err_too_many_columns(void **state) {
  /* the error points at the first column past the declared threads */
  parse_err(*state, HEAD2 " st.weak x, 1 | st.weak x, 2 | st.weak x, 3 ;\n",
            WL_ESYNTAX, 4, 32, "more columns than the 2 declared threads");
  parse_err(*state, HEAD " st.weak x, 1 | ;\n", WL_ESYNTAX, 4, 17,
            "more columns than the 1 declared threads");
}

/* PTX 7.5: every proxy form of Dat3M's grammar, and aliases (the table
 * at the top of engine/program/litmus.c says what they mean). */
static const char proxy_src[] =
    "PTX Proxy-all\n"
    "{\n"
    "x = 3;\n"                      /* 3 */
    "y @ generic aliases x;\n"      /* 4 */
    "s @ surface aliases x;\n"      /* 5 */
    "s1 @ surface aliases y;\n"     /* 6 */
    "t @ texture aliases y;\n"      /* 7 */
    "c @ constant aliases x;\n"     /* 8 */
    "flag = 0;\n"
    "P1:r0=0;\n"
    "}\n"
    " P0@cta 0,gpu 0         | P1@cta 0,gpu 0 ;\n"     /* 12 */
    " sust.weak s, 2         | ld.acquire.gpu r0, flag ;\n"
    " fence.proxy.surface    | fence.proxy.texture ;\n"
    " fence.proxy.alias      | tld.weak r1, t ;\n"
    " st.release.gpu flag, 1 | suld.relaxed.cta r2, s1 ;\n"
    " fence.proxy.constant   | cold.weak r3, c ;\n"
    " suatom.relaxed.gpu.add r4, s, 1 | sured.release.cta.add s1, 2 ;\n"
    " fence.proxy.generic    | ld.weak r5, y ;\n"
    " sust.release.sys s, 5  | atom.acq_rel.gpu.exch r6, y, 1 ;\n"
    "exists (P1:r0 == 1 /\\ P1:r1 != 2 /\\ y == 2)\n";

static void test_parse_proxy(void **state) {
  wl_ctx *ctx = *state;
  wl_litmus *t = parse_ok(ctx, proxy_src);
  const wl_thread *p0 = &t->threads[0], *p1 = &t->threads[1];
  int x = loc_index(t, "x"), flag = loc_index(t, "flag");
  int y = wl_litmus_alias(t, "y"), s = wl_litmus_alias(t, "s");
  int s1 = wl_litmus_alias(t, "s1"), tt = wl_litmus_alias(t, "t");
  int c = wl_litmus_alias(t, "c");
  const wl_insn *in;
  /* aliases are not locations: final states hold x and flag once */
  assert_int_equal(t->nlocs, 2);
  assert_int_equal(wl_litmus_nlocations(t), 2);
  assert_true(x >= 0 && flag >= 0);
  assert_int_equal(t->locinit[x], 3);
  assert_int_equal(t->naliases, 5);
  assert_int_equal(y, 0);
  assert_int_equal(s, 1);
  assert_int_equal(s1, 2);
  assert_int_equal(tt, 3);
  assert_int_equal(c, 4);
  assert_int_equal(wl_litmus_alias(t, "x"), -1);
  assert_int_equal(wl_litmus_location(t, "y"), x);
  assert_int_equal(wl_litmus_location(t, "s1"), x);
  /* Dat3M's virtual addresses: a generic alias has its own, another
   * alias that of its target */
  assert_int_equal(t->aliasloc[y], x);
  assert_int_equal(t->aliasloc[s1], x);
  assert_int_equal(t->aliasvloc[y], WL_MAX_LOCS + y);
  assert_int_equal(t->aliasvloc[s], x);
  assert_int_equal(t->aliasvloc[s1], WL_MAX_LOCS + y);
  assert_int_equal(t->aliasvloc[tt], WL_MAX_LOCS + y);
  assert_int_equal(t->aliasvloc[c], x);
  assert_int_equal(t->aliasproxy[y], WL_PROXY_GEN);
  assert_int_equal(t->aliasproxy[s], WL_PROXY_SUR);
  assert_int_equal(t->aliasproxy[tt], WL_PROXY_TEX);
  assert_int_equal(t->aliasproxy[c], WL_PROXY_CON);
  assert_int_equal(t->v75line, 4);
  assert_int_equal(t->v75col, 1);

  assert_int_equal(p0->ninsns, 8);
  in = &p0->insns[0]; /* sust.weak s, 2 */
  assert_int_equal(in->op, OP_ST);
  assert_int_equal(in->proxy, WL_PROXY_SUR);
  assert_int_equal(in->sem, WL_SEM_WEAK);
  assert_int_equal(in->loc, x);
  assert_int_equal(in->alias, s + 1);
  assert_int_equal(wl__insn_vloc(t, in), x);
  in = &p0->insns[1];
  assert_int_equal(in->op, OP_FENCE);
  assert_int_equal(in->pfence, PFENCE_PROXY);
  assert_int_equal(in->proxy, WL_PROXY_SUR);
  assert_int_equal(in->sem, WL_SEM_WEAK);
  assert_int_equal(in->scope, WL_SCOPE_NONE);
  in = &p0->insns[2];
  assert_int_equal(in->op, OP_FENCE);
  assert_int_equal(in->pfence, PFENCE_ALIAS);
  assert_int_equal(in->proxy, WL_PROXY_GEN);
  in = &p0->insns[3]; /* an ordinary store is generic */
  assert_int_equal(in->op, OP_ST);
  assert_int_equal(in->proxy, WL_PROXY_GEN);
  assert_int_equal(in->alias, 0);
  assert_int_equal(wl__insn_vloc(t, in), flag);
  in = &p0->insns[4];
  assert_int_equal(in->pfence, PFENCE_PROXY);
  assert_int_equal(in->proxy, WL_PROXY_CON);
  in = &p0->insns[5]; /* suatom */
  assert_int_equal(in->op, OP_ATOM);
  assert_int_equal(in->proxy, WL_PROXY_SUR);
  assert_int_equal(in->aop, AOP_ADD);
  assert_int_equal(in->sem, WL_SEM_RELAXED);
  assert_int_equal(in->scope, WL_SCOPE_GPU);
  assert_int_equal(in->alias, s + 1);
  in = &p0->insns[6];
  assert_int_equal(in->pfence, PFENCE_PROXY);
  assert_int_equal(in->proxy, WL_PROXY_GEN);
  in = &p0->insns[7];
  assert_int_equal(in->op, OP_ST);
  assert_int_equal(in->proxy, WL_PROXY_SUR);
  assert_int_equal(in->sem, WL_SEM_RELEASE);
  assert_int_equal(in->scope, WL_SCOPE_SYS);

  assert_int_equal(p1->ninsns, 8);
  in = &p1->insns[0];
  assert_int_equal(in->proxy, WL_PROXY_GEN);
  assert_int_equal(in->pfence, PFENCE_NONE);
  in = &p1->insns[1];
  assert_int_equal(in->pfence, PFENCE_PROXY);
  assert_int_equal(in->proxy, WL_PROXY_TEX);
  in = &p1->insns[2]; /* tld.weak r1, t */
  assert_int_equal(in->op, OP_LD);
  assert_int_equal(in->proxy, WL_PROXY_TEX);
  assert_int_equal(in->loc, x);
  assert_int_equal(in->alias, tt + 1);
  assert_int_equal(wl__insn_vloc(t, in), WL_MAX_LOCS + y);
  in = &p1->insns[3]; /* suld.relaxed.cta r2, s1 */
  assert_int_equal(in->op, OP_LD);
  assert_int_equal(in->proxy, WL_PROXY_SUR);
  assert_int_equal(in->sem, WL_SEM_RELAXED);
  assert_int_equal(in->scope, WL_SCOPE_CTA);
  assert_int_equal(in->dst, reg_index(p1, "r2"));
  in = &p1->insns[4]; /* cold.weak r3, c */
  assert_int_equal(in->op, OP_LD);
  assert_int_equal(in->proxy, WL_PROXY_CON);
  assert_int_equal(wl__insn_vloc(t, in), x);
  in = &p1->insns[5]; /* sured */
  assert_int_equal(in->op, OP_RED);
  assert_int_equal(in->proxy, WL_PROXY_SUR);
  assert_int_equal(in->sem, WL_SEM_RELEASE);
  assert_int_equal(in->alias, s1 + 1);
  in = &p1->insns[6]; /* a generic load through a generic alias */
  assert_int_equal(in->op, OP_LD);
  assert_int_equal(in->proxy, WL_PROXY_GEN);
  assert_int_equal(in->loc, x);
  assert_int_equal(wl__insn_vloc(t, in), WL_MAX_LOCS + y);
  in = &p1->insns[7];
  assert_int_equal(in->op, OP_ATOM);
  assert_int_equal(in->aop, AOP_EXCH);
  assert_int_equal(in->proxy, WL_PROXY_GEN);
  assert_int_equal(in->alias, y + 1);

  /* a condition naming an alias reads its physical location */
  {
    const wl_cnode *n = &t->cnodes[t->cond_root];
    const wl_cnode *cmp = &t->cnodes[n->r];
    assert_int_equal(cmp->kind, CN_CMP);
    assert_int_equal(cmp->a.kind, AT_LOC);
    assert_int_equal(cmp->a.loc, x);
  }
  wl_litmus_free(t);
}

/* The built-in explorer (PTX 6.0) and the simulator refuse a test with
 * proxies or aliases, naming the first such construct. */
static void test_proxy_needs_model(void **state) {
  wl_ctx *ctx = *state;
  wl_litmus *t = parse_ok(ctx, proxy_src);
  wl_result *r = (wl_result *)(uintptr_t)1;
  wl_sample_opts so;
  wl_hist *h = (wl_hist *)(uintptr_t)1;
  assert_int_equal(wl_explore(ctx, t, NULL, &r), WL_EUNSUPPORTED);
  assert_null(r);
  assert_string_equal(wl_ctx_errmsg(ctx),
                      "t.litmus:4:1: aliases need the PTX 7.5 model, which "
                      "the built-in PTX 6.0 explorer does not implement: "
                      "use --model ptx-v7.5.cat");
  memset(&so, 0, sizeof so);
  so.runs = 1;
  assert_int_equal(wl_sample(ctx, t, &so, &h), WL_EUNSUPPORTED);
  assert_non_null(strstr(wl_ctx_errmsg(ctx), "the simulator"));
  wl_litmus_free(t);
  /* without aliases: the first proxy instruction */
  t = parse_ok(ctx, HEAD2 " st.weak x, 1 | ld.weak r0, x ;\n"
                          "              | fence.proxy.alias ;\n");
  assert_int_equal(wl_explore(ctx, t, NULL, &r), WL_EUNSUPPORTED);
  assert_string_equal(wl_ctx_errmsg(ctx),
                      "t.litmus:5:17: proxy instructions need the PTX 7.5 "
                      "model, which the built-in PTX 6.0 explorer does not "
                      "implement: use --model ptx-v7.5.cat");
  wl_litmus_free(t);
}

static void test_err_proxy(void **state) {
  wl_ctx *ctx = *state;
  parse_err(ctx, HEAD " fence.proxy.bogus ;\n", WL_ESYNTAX, 4, 2,
            "expected fence.proxy.alias, fence.proxy.surface, "
            "fence.proxy.texture, fence.proxy.constant or "
            "fence.proxy.generic, found 'fence.proxy.bogus'");
  parse_err(ctx, HEAD " fence.proxy ;\n", WL_ESYNTAX, 4, 2,
            "expected fence.proxy.alias");
  parse_err(ctx, HEAD " fence.proxy.alias.gpu ;\n", WL_ESYNTAX, 4, 2,
            "expected fence.proxy.alias");
  parse_err(ctx, HEAD " fence.proxy.surface x ;\n", WL_ESYNTAX, 4, 2,
            "wrong operands for fence.proxy");
  parse_err(ctx, HEAD " fence.sc ;\n", WL_ESYNTAX, 4, 2, "fence.sc needs a "
            "scope");
  parse_err(ctx, HEAD " tld.release.gpu r0, x ;\n", WL_ESYNTAX, 4, 2,
            "tld cannot be .release");
  parse_err(ctx, HEAD " suld.relaxed r0, x ;\n", WL_ESYNTAX, 4, 2,
            "suld.relaxed needs a scope");
  parse_err(ctx, HEAD " cold.weak.cta r0, x ;\n", WL_ESYNTAX, 4, 2,
            "unknown qualifier '.cta' in 'cold.weak.cta'");
  parse_err(ctx, HEAD " cold.weak r0 ;\n", WL_ESYNTAX, 4, 2,
            "wrong operands for cold: expected 'cold.sem.scope rD, "
            "location'");
  parse_err(ctx, HEAD " tld.weak r0, 1 ;\n", WL_ESYNTAX, 4, 15,
            "expected a memory location, found '1'");
  parse_err(ctx, HEAD " sust.acquire.gpu x, 1 ;\n", WL_ESYNTAX, 4, 2,
            "sust cannot be .acquire");
  parse_err(ctx, HEAD " sust.weak r1, 1 ;\n", WL_ESYNTAX, 4, 12,
            "expected a memory location, found 'r1'");
  parse_err(ctx, HEAD " sust.weak x ;\n", WL_ESYNTAX, 4, 2,
            "wrong operands for sust");
  parse_err(ctx, HEAD " suatom.weak.gpu.add r0, x, 1 ;\n", WL_ESYNTAX, 4, 2,
            "suatom cannot be .weak");
  parse_err(ctx, HEAD " suatom.relaxed.gpu.add r0, x ;\n", WL_ESYNTAX, 4, 2,
            "wrong operands for suatom");
  parse_err(ctx, HEAD " sured.relaxed.gpu.exch x, 1 ;\n", WL_ESYNTAX, 4, 2,
            "sured has no .exch (use suatom)");
  parse_err(ctx, HEAD " sured.relaxed.gpu.frob x, 1 ;\n", WL_ESYNTAX, 4, 2,
            "unknown sured operation '.frob'");
  /* declarations */
  parse_err(ctx, "PTX T\n{\nx=0;\n  y @ bogus aliases x;\n}\n", WL_ESYNTAX,
            4, 7,
            "expected a proxy ('generic', 'surface', 'texture' or "
            "'constant') in 'name @ proxy aliases location', found "
            "'bogus'");
  parse_err(ctx, "PTX T\n{\nx=0;\n  y @ generic alias x;\n}\n", WL_ESYNTAX,
            4, 15, "expected 'aliases', found 'alias'");
  parse_err(ctx, "PTX T\n{\nx=0;\n  y @ generic aliases z;\n}\n", WL_ESYNTAX,
            4, 23, "'y' aliases 'z', which is not declared before it");
  parse_err(ctx, "PTX T\n{\n  y @ generic aliases x; x = 0;\n}\n",
            WL_ESYNTAX, 3, 23,
            "'y' aliases 'x', which is not declared before it");
  parse_err(ctx, "PTX T\n{\nx=0;\n  y @ generic aliases 5;\n}\n", WL_ESYNTAX,
            4, 23, "expected the location it aliases, found '5'");
  parse_err(ctx, "PTX T\n{\nx=0;\n  y @ generic aliases r1;\n}\n",
            WL_ESYNTAX, 4, 23, "expected the location it aliases");
  parse_err(ctx, "PTX T\n{\nx=0;\n  r1 @ generic aliases x;\n}\n",
            WL_ESYNTAX, 4, 3, "'r1' is not a location name");
  parse_err(ctx,
            "PTX T\n{\nx=0; y @ generic aliases x;\n"
            "  y @ surface aliases x;\n}\n",
            WL_ESYNTAX, 4, 3, "alias 'y' declared twice");
  parse_err(ctx, "PTX T\n{\nx=0; y=0;\n  y @ surface aliases x;\n}\n",
            WL_ESYNTAX, 4, 3,
            "'y' is already a location; an alias needs a name of its own");
  parse_err(ctx, "PTX T\n{\nx=0; y @ generic aliases x;\n  y = 1;\n}\n",
            WL_ESYNTAX, 4, 3,
            "'y' is an alias: it has no initial value of its own");
  parse_err(ctx, "PTX T\n{\nx=0; y @ generic aliases x z;\n}\n", WL_ESYNTAX,
            3, 28, "expected ';', found 'z'");
}

/* Building a test with aliases through the C API. */
static void test_add_alias(void **state) {
  wl_ctx *ctx = *state;
  wl_litmus *t = NULL;
  int k = -1, th = -1;
  wl_result *r = NULL;
  assert_int_equal(wl_litmus_new(ctx, "A", &t), 0);
  assert_int_equal(wl_litmus_add_location(t, "x", 1, NULL), 0);
  assert_int_equal(wl_litmus_add_alias(t, "y", WL_PROXY_GEN, "x", &k), 0);
  assert_int_equal(k, 0);
  assert_int_equal(wl_litmus_add_alias(t, "s", WL_PROXY_SUR, "y", &k), 0);
  assert_int_equal(k, 1);
  assert_int_equal(t->aliasvloc[1], WL_MAX_LOCS + 0);
  assert_int_equal(wl_litmus_add_alias(t, "s", WL_PROXY_SUR, "x", NULL),
                   WL_EINVAL);
  assert_string_equal(wl_ctx_errmsg(ctx), "alias 's' declared twice");
  assert_int_equal(wl_litmus_add_alias(t, "x", WL_PROXY_SUR, "y", NULL),
                   WL_EINVAL);
  assert_int_equal(wl_litmus_add_alias(t, "z", WL_PROXY_SUR, "w", NULL),
                   WL_EINVAL);
  assert_string_equal(wl_ctx_errmsg(ctx),
                      "'z' aliases 'w', which is not declared before it");
  assert_int_equal(wl_litmus_add_alias(t, "z", 7, "x", NULL), WL_EINVAL);
  assert_int_equal(wl_litmus_add_alias(t, "a[1]", WL_PROXY_GEN, "x", NULL),
                   WL_EINVAL);
  assert_int_equal(wl_litmus_add_location(t, "y", 0, NULL), WL_EINVAL);
  assert_int_equal(wl_litmus_nlocations(t), 1);
  assert_int_equal(wl_litmus_add_thread(t, 0, 0, &th), 0);
  assert_int_equal(wl_litmus_add_insn(t, th, "suld.weak r0, s", "a.lua", 3),
                   0);
  assert_int_equal(t->threads[0].insns[0].proxy, WL_PROXY_SUR);
  assert_int_equal(t->threads[0].insns[0].alias, 2);
  assert_int_equal(wl_explore(ctx, t, NULL, &r), WL_EUNSUPPORTED);
  assert_string_equal(wl_ctx_errmsg(ctx),
                      "a.lua: aliases need the PTX 7.5 model, which the "
                      "built-in PTX 6.0 explorer does not implement: use "
                      "--model ptx-v7.5.cat");
  wl_litmus_free(t);
  /* no alias: the instruction's place */
  assert_int_equal(wl_litmus_new(ctx, "B", &t), 0);
  assert_int_equal(wl_litmus_add_thread(t, 0, 0, &th), 0);
  assert_int_equal(wl_litmus_add_insn(t, th, "st.weak x, 1", "b.lua", 3), 0);
  assert_int_equal(wl_litmus_add_insn(t, th, "  fence.proxy.texture",
                                      "b.lua", 4),
                   0);
  assert_int_equal(wl_explore(ctx, t, NULL, &r), WL_EUNSUPPORTED);
  assert_non_null(strstr(wl_ctx_errmsg(ctx), "b.lua:4:3: proxy "
                                             "instructions need"));
  wl_litmus_free(t);
}

static void test_err_numbers(void **state) {
  parse_err(*state, HEAD " st.weak x, 99999999999999999999 ;\n", WL_ESYNTAX,
            4, 13, "number too large");
  parse_err(*state, HEAD " st.weak x, 9223372036854775808 ;\n", WL_ESYNTAX, 4,
            13, "number out of 64-bit range");
  parse_err(*state, HEAD " st.weak x, -9223372036854775809 ;\n", WL_ESYNTAX,
            4, 13, "number out of 64-bit range");
  parse_err(*state, "PTX T\n{ x=0x; }\n", WL_ESYNTAX, 2, 5,
            "malformed number");
  parse_err(*state, HEAD " st.weak x, 12ab ;\n", WL_ESYNTAX, 4, 13,
            "malformed number");
  parse_err(*state, "PTX T\n{ x=0; }\n P0@cta 99999999999 ;\n", WL_ESYNTAX,
            3, 9, "expected a CTA number, found '99999999999'");
}

static void test_err_nul_byte(void **state) {
  static const char in_body[] = "PTX T\n{ x=0;\0 }\n";
  static const char in_quote[] = "PTX T \"a\0b\"\n{ x=0; }\n";
  static const char in_name[] = "PTX T\0U\n{ x=0; }\n";
  static const char in_comment[] = HEAD " st.weak x, 1 ;\n"
                                        "exists (x == 1) // c\0d\n";
  static const char in_herd_comment[] = "PTX T\n{ x=0; (* \0 *) }\n";
  wl_ctx *ctx = *state;
  parse_err_n(ctx, in_body, sizeof in_body - 1, WL_ESYNTAX, 2, 7,
              "NUL byte in the text");
  parse_err_n(ctx, in_quote, sizeof in_quote - 1, WL_ESYNTAX, 1, 9,
              "NUL byte in the text");
  parse_err_n(ctx, in_name, sizeof in_name - 1, WL_ESYNTAX, 1, 6,
              "NUL byte in the text");
  parse_err_n(ctx, in_comment, sizeof in_comment - 1, WL_ESYNTAX, 5, 21,
              "NUL byte in the text");
  parse_err_n(ctx, in_herd_comment, sizeof in_herd_comment - 1, WL_ESYNTAX,
              2, 11, "NUL byte in the text");
}

static void test_err_empty_and_header(void **state) {
  wl_ctx *ctx = *state;
  parse_err_n(ctx, "", 0, WL_ESYNTAX, 1, 1,
              "expected 'PTX' (the first word of a PTX litmus test), found "
              "end of file");
  parse_err_n(ctx, NULL, 0, WL_ESYNTAX, 1, 1, "found end of file");
  parse_err(ctx, "  \n\n", WL_ESYNTAX, 3, 1, "expected 'PTX'");
  parse_err(ctx, "C MP\n{ x=0; }\n", WL_ESYNTAX, 1, 1,
            "expected 'PTX' (the first word of a PTX litmus test), found "
            "'C'");
  parse_err(ctx, "PTX\n{ x=0; }\n", WL_ESYNTAX, 1, 4,
            "expected the test's name after 'PTX'");
  parse_err(ctx, "PTX T\n", WL_ESYNTAX, 2, 1,
            "expected '{', found end of file");
  parse_err(ctx, "PTX T\n{ x=0;\n", WL_ESYNTAX, 3, 1,
            "expected '}' closing the initial state");
}

static void test_err_condition(void **state) {
  parse_err(*state, HEAD " st.weak x, 1 ;\nexists (P0:r0 == 1\n", WL_ESYNTAX,
            6, 1, "expected ')', found end of file");
  parse_err(*state, HEAD " st.weak x, 1 ;\nexists (r0 == 1)\n", WL_ESYNTAX, 5,
            9, "a register in a condition needs its thread: 'P0:r0'");
  parse_err(*state, HEAD " st.weak x, 1 ;\nexists (P3:r0 == 1)\n", WL_ESYNTAX,
            5, 9, "the test has no thread P3");
  parse_err(*state, HEAD " st.weak x, 1 ;\nexists (x 1)\n", WL_ESYNTAX, 5, 11,
            "expected a comparison");
  parse_err(*state, HEAD " st.weak x, 1 ;\n~forall (x == 1)\n", WL_ESYNTAX,
            5, 2, "expected 'exists' after '~'");
  parse_err(*state, HEAD " st.weak x, 1 ;\nexists (x == 1) junk\n",
            WL_ESYNTAX, 5, 17, "expected the end of the condition");
  parse_err(*state, HEAD " st.weak x, 1 ;\nfilter (x == 1)\n",
            WL_EUNSUPPORTED, 5, 1, "'filter' is not supported");
  parse_err(*state, "PTX T\n{ P2:r0=1; }\n P0@cta 0 ;\n st.weak x, 1 ;\n",
            WL_ESYNTAX, 2, 6,
            "initial value for a register of P2, which the test does not "
            "declare");
  parse_err(*state, "PTX T\n{ P0:r0=x; }\n", WL_EUNSUPPORTED, 2, 9,
            "registers holding addresses are not supported");
  parse_err(*state, HEAD " st.weak x, 1 ;\nexists (x == 1) (* open\n",
            WL_ESYNTAX, 5, 17, "unterminated comment '(*'");
  parse_err(*state, HEAD " st.weak x, 1 ;\nexists (x == 1) $\n", WL_ESYNTAX,
            5, 17, "unexpected character '$'");
}

/* Conditions nested past WL_COND_MAX_DEPTH are refused at the token
 * that goes too deep, whether by parentheses, by negations or by a long
 * chain of conjunctions (a deep tree), never by overflowing the stack. */
static void test_err_condition_depth(void **state) {
  static const char *const opens[] = {"(", "~", "not "};
  size_t cap = 50000 * 4 + 256, n, k;
  char *src = malloc(cap);
  int i;
  assert_non_null(src);
  for (k = 0; k < 3; k++) {
    n = (size_t)sprintf(src, HEAD " st.weak x, 1 ;\nexists ");
    for (i = 0; i < 50000; i++)
      n += (size_t)sprintf(src + n, "%s", opens[k]);
    n += (size_t)sprintf(src + n, "x == 1\n");
    parse_err_n(*state, src, n, WL_ELIMIT, 5,
                8 + (int)strlen(opens[k]) * (WL_COND_MAX_DEPTH + 1),
                "condition nested too deeply");
  }
  /* just inside the bound: fine */
  n = (size_t)sprintf(src, HEAD " st.weak x, 1 ;\nexists ");
  for (i = 0; i < WL_COND_MAX_DEPTH - 1; i++)
    src[n++] = '(';
  n += (size_t)sprintf(src + n, "x == 1");
  for (i = 0; i < WL_COND_MAX_DEPTH - 1; i++)
    src[n++] = ')';
  src[n] = 0;
  wl_litmus_free(parse_ok(*state, src));
  /* a chain of 5,000 conjunctions */
  n = (size_t)sprintf(src, HEAD " st.weak x, 1 ;\nexists (x == 1");
  for (i = 0; i < 5000; i++)
    n += (size_t)sprintf(src + n, " /\\ x == 1");
  n += (size_t)sprintf(src + n, ")\n");
  {
    wl_litmus *t = (wl_litmus *)(uintptr_t)1;
    assert_int_equal(wl_litmus_parse(*state, "t.litmus", src, n, &t),
                     WL_ELIMIT);
    assert_non_null(strstr(wl_ctx_errmsg(*state),
                           "condition nested too deeply"));
  }
  /* the same through wl_litmus_set_condition (wl.litmus{exists=}) */
  {
    wl_litmus *t = NULL;
    n = (size_t)sprintf(src, "exists ");
    for (i = 0; i < 50000; i++)
      src[n++] = '~';
    strcpy(src + n, "x == 1");
    assert_int_equal(wl_litmus_new(*state, "t", &t), 0);
    assert_int_equal(wl_litmus_add_location(t, "x", 0, NULL), 0);
    assert_int_equal(wl_litmus_set_condition(t, src, "t.lua", 7), WL_ELIMIT);
    assert_non_null(strstr(wl_ctx_errmsg(*state), "t.lua:7:"));
    assert_non_null(strstr(wl_ctx_errmsg(*state),
                           "condition nested too deeply"));
    wl_litmus_free(t);
  }
  free(src);
}

/* An unterminated quoted comment in the header is reported where it
 * opens, not at the end of the file. */
static void test_err_unterminated_quote(void **state) {
  parse_err(*state, "PTX T \"about\n{ x=0; }\n P0@cta 0 ;\n st.weak x, 1 ;\n",
            WL_ESYNTAX, 1, 7, "unterminated quoted comment");
}

/* wl_litmus_hash: the MD5 of the text from the initial state's '{' on,
 * comments dropped and white space removed but between word characters
 * (the digests are Python's hashlib.md5 of the normalised texts, one
 * of them over a 64-byte MD5 block); the same for another name, layout
 * and comments; another for another test; none for a built test. */
static void test_hash(void **state) {
  wl_ctx *ctx = *state;
  wl_litmus *a, *b, *c, *d, *e;
  a = parse_ok(ctx, "PTX A\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n"
                    "exists (x == 1)\n");
  b = parse_ok(ctx, "PTX B \"a { in quotes\"\n{x = 0;} (* c *)\n"
                    "P0@cta 0,gpu 0;\n  st.weak  x,1; // more\n"
                    "exists(x==1)");
  c = parse_ok(ctx, "PTX A\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 2 ;\n"
                    "exists (x == 1)\n");
  d = parse_ok(ctx, "PTX MP\n{ x=0; y=0; }\n"
                    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                    " st.weak x, 1   | ld.weak r0, y ;\n"
                    " st.weak y, 1   | ld.weak r1, x ;\n"
                    "exists (P1:r0 == 1 /\\ P1:r1 == 0)\n");
  assert_string_equal(wl_litmus_hash(a), "a0010eefc32b3af2b9813666352cc021");
  assert_string_equal(wl_litmus_hash(b), wl_litmus_hash(a));
  assert_string_not_equal(wl_litmus_hash(c), wl_litmus_hash(a));
  assert_string_equal(wl_litmus_hash(d), "d4d3971d9254facfe16da9773e069f43");
  assert_int_equal(wl_litmus_new(ctx, "built", &e), 0);
  assert_null(wl_litmus_hash(e));
  wl_litmus_free(a);
  wl_litmus_free(b);
  wl_litmus_free(c);
  wl_litmus_free(d);
  wl_litmus_free(e);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_err_condition_depth, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_err_unterminated_quote, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_parse_mp, setup, teardown),
      cmocka_unit_test_setup_teardown(test_parse_sb_notexists, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_parse_conditions, setup, teardown),
      cmocka_unit_test_setup_teardown(test_parse_trivial_conditions, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_parse_atom_red, setup, teardown),
      cmocka_unit_test_setup_teardown(test_parse_fences_barriers, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_parse_labels_branches, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_parse_misc_syntax, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_parse_not_terminated, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_parse_einval, setup, teardown),
      cmocka_unit_test_setup_teardown(test_errmsg_reset, setup, teardown),
      cmocka_unit_test_setup_teardown(test_err_unknown_insn, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_err_operands, setup, teardown),
      cmocka_unit_test_setup_teardown(test_err_missing_semicolon, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_err_ld_acquire_no_scope, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_err_st_acquire, setup, teardown),
      cmocka_unit_test_setup_teardown(test_err_undefined_label, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_err_duplicate_label, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_err_thread_order, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_err_too_many_columns, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_parse_proxy, setup, teardown),
      cmocka_unit_test_setup_teardown(test_proxy_needs_model, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_err_proxy, setup, teardown),
      cmocka_unit_test_setup_teardown(test_add_alias, setup, teardown),
      cmocka_unit_test_setup_teardown(test_err_numbers, setup, teardown),
      cmocka_unit_test_setup_teardown(test_err_nul_byte, setup, teardown),
      cmocka_unit_test_setup_teardown(test_err_empty_and_header, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_err_condition, setup, teardown),
      cmocka_unit_test_setup_teardown(test_hash, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
