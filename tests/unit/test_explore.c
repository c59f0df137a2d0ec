/* test_explore.c -- the PTX 6.0 explorer and its output
 * (engine/model/explore.c, output.c): exact results on small shapes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../engine/warplab.h"
#include "sink.h"

/* ---------------------------------------------------------------- */
/* Helpers                                                           */

typedef struct fixture {
  wl_ctx *ctx;
  wl_litmus *t;
  wl_result *r;
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  if (f == NULL || wl_ctx_new(NULL, &f->ctx) != 0) {
    free(f);
    return -1;
  }
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  wl_result_free(f->r);
  wl_litmus_free(f->t);
  wl_ctx_free(f->ctx);
  free(f);
  return 0;
}

/* Parses and explores src; the result stays in the fixture. */
static wl_result *run_opts(fixture *f, const char *src,
                           const wl_explore_opts *opts) {
  int r = wl_litmus_parse(f->ctx, "t.litmus", src, strlen(src), &f->t);
  if (r != 0)
    fail_msg("parse: %s: %s", wl_err_name(r), wl_ctx_errmsg(f->ctx));
  r = wl_explore(f->ctx, f->t, opts, &f->r);
  if (r != 0)
    fail_msg("explore: %s: %s", wl_err_name(r), wl_ctx_errmsg(f->ctx));
  assert_non_null(f->r);
  return f->r;
}

static wl_result *run(fixture *f, const char *src) {
  return run_opts(f, src, NULL);
}

/* The herd text of r (caller frees). */
static char *herd(const wl_result *r) {
  sbuf b;
  memset(&b, 0, sizeof b);
  assert_int_equal(wl_result_write_herd(r, 0.0, sbuf_write, &b), 0);
  assert_non_null(b.p);
  return b.p;
}

static char *json(const wl_result *r) {
  sbuf b;
  memset(&b, 0, sizeof b);
  assert_int_equal(wl_result_write_json(r, 0.0, sbuf_write, &b), 0);
  assert_non_null(b.p);
  return b.p;
}

/* text has `line` as one whole line. */
static void has_line(const char *text, const char *line) {
  size_t n = strlen(line);
  const char *p = text;
  while ((p = strstr(p, line)) != NULL) {
    if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
      return;
    p++;
  }
  fail_msg("no line '%s' in:\n%s", line, text);
}

static void herd_has(const wl_result *r, const char *const *lines) {
  char *text = herd(r);
  for (; *lines != NULL; lines++)
    has_line(text, *lines);
  free(text);
}

static void json_has(const wl_result *r, const char *needle) {
  char *text = json(r);
  if (strstr(text, needle) == NULL)
    fail_msg("no '%s' in:\n%s", needle, text);
  free(text);
}

/* ---------------------------------------------------------------- */
/* Shapes                                                            */

static void test_mp_weak_allowed(void **state) {
  static const char src[] =
      "PTX MP\n"
      "{ x=0; y=0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
      " st.weak x, 1   | ld.weak r1, y  ;\n"
      " st.weak y, 1   | ld.weak r2, x  ;\n"
      "exists (P1:r1 == 1 /\\ P1:r2 == 0)\n";
  static const char *const lines[] = {
      "Test MP Allowed", "States 4", "1:r1=0; 1:r2=0;", "1:r1=0; 1:r2=1;",
      "1:r1=1; 1:r2=0;", "1:r1=1; 1:r2=1;", "Ok", "Witnesses",
      "Positive: 1 Negative: 3",
      "Condition exists (P1:r1 == 1 /\\ P1:r2 == 0)",
      "Observation MP Sometimes 1 3", "Time MP 0.00", NULL};
  fixture *f = *state;
  wl_result *r = run(f, src);
  assert_int_equal(wl_result_nstates(r), 4);
  assert_int_equal(wl_result_verdict(r), 1);
  assert_int_equal(wl_result_cond_kind(r), WL_COND_EXISTS);
  assert_int_equal(wl_result_positive(r), 1);
  assert_int_equal(wl_result_negative(r), 3);
  assert_int_equal(wl_result_bound_hit(r), 0);
  assert_int_equal(wl_result_traces_cut(r), 0);
  herd_has(r, lines);
  json_has(r, "\"ok\": true");
  json_has(r, "\"test\": \"MP\"");
  json_has(r, "\"bound_hit\": false");
}

/* Fence-SC orders morally strong fence.sc pairs only: fence.sc.cta in
 * two CTAs are not morally strong, so causality between them (through
 * gpu-scope release/acquire) forbids nothing, and the sequentially
 * consistent outcome r0=1, r1=1 is allowed (ptx-v6.0-isa.cat). */
static void test_fence_sc_not_morally_strong(void **state) {
  static const char src[] =
      "PTX MP+sc.cta+diffCTA+relacq.gpu\n"
      "{ x=0; y=0; }\n"
      " P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;\n"
      " st.weak x, 1        | ld.acquire.gpu r0, y ;\n"
      " fence.sc.cta        | fence.sc.cta         ;\n"
      " st.release.gpu y, 1 | ld.weak r1, x        ;\n"
      "exists (P1:r0 == 1 /\\ P1:r1 == 0)\n";
  static const char *const lines[] = {"States 3", "1:r0=0; 1:r1=0;",
                                      "1:r0=0; 1:r1=1;", "1:r0=1; 1:r1=1;",
                                      "No", NULL};
  fixture *f = *state;
  wl_result *r = run(f, src);
  assert_int_equal(wl_result_nstates(r), 3);
  assert_int_equal(wl_result_verdict(r), 0);
  herd_has(r, lines);
}

static void test_mp_release_acquire(void **state) {
  static const char src[] =
      "PTX MP-rel-acq\n"
      "{ x=0; y=0; }\n"
      " P0@cta 0,gpu 0      | P1@cta 1,gpu 0        ;\n"
      " st.weak x, 1        | ld.acquire.gpu r1, y  ;\n"
      " st.release.gpu y, 1 | ld.weak r2, x         ;\n"
      "~exists (P1:r1 == 1 /\\ P1:r2 == 0)\n";
  static const char *const lines[] = {
      "Test MP-rel-acq Forbidden", "States 3", "Ok",
      "Positive: 0 Negative: 3", "Observation MP-rel-acq Never 0 3", NULL};
  fixture *f = *state;
  wl_result *r = run(f, src);
  assert_int_equal(wl_result_nstates(r), 3);
  assert_int_equal(wl_result_verdict(r), 1);
  assert_int_equal(wl_result_cond_kind(r), WL_COND_NOTEXISTS);
  assert_int_equal(wl_result_positive(r), 0);
  assert_int_equal(wl_result_negative(r), 3);
  herd_has(r, lines);
  json_has(r, "\"ok\": true");
  json_has(r, "\"kind\": \"~exists\"");
}

/* The same with exists: the weak outcome is not reachable, "No". */
static void test_mp_release_acquire_exists(void **state) {
  static const char src[] =
      "PTX MP-ra\n"
      "{ x=0; y=0; }\n"
      " P0@cta 0,gpu 0      | P1@cta 1,gpu 0        ;\n"
      " st.weak x, 1        | ld.acquire.gpu r1, y  ;\n"
      " st.release.gpu y, 1 | ld.weak r2, x         ;\n"
      "exists (P1:r1 == 1 /\\ P1:r2 == 0)\n";
  static const char *const lines[] = {"States 3", "No",
                                      "Observation MP-ra Never 0 3", NULL};
  fixture *f = *state;
  wl_result *r = run(f, src);
  assert_int_equal(wl_result_verdict(r), 0);
  herd_has(r, lines);
  json_has(r, "\"ok\": false");
}

/* .cta release/acquire across CTAs is not morally strong: allowed. */
static void test_mp_cta_scope_across_ctas(void **state) {
  static const char src[] =
      "PTX MP-cta\n"
      "{ x=0; y=0; }\n"
      " P0@cta 0,gpu 0      | P1@cta 1,gpu 0        ;\n"
      " st.weak x, 1        | ld.acquire.cta r1, y  ;\n"
      " st.release.cta y, 1 | ld.weak r2, x         ;\n"
      "exists (P1:r1 == 1 /\\ P1:r2 == 0)\n";
  fixture *f = *state;
  wl_result *r = run(f, src);
  assert_int_equal(wl_result_nstates(r), 4);
  assert_int_equal(wl_result_verdict(r), 1);
}

static void test_sb_fence_sc(void **state) {
  static const char src[] =
      "PTX SB+fence.sc\n"
      "{ x=0; y=0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
      " st.weak x, 1   | st.weak y, 1   ;\n"
      " fence.sc.gpu   | fence.sc.gpu   ;\n"
      " ld.weak r0, y  | ld.weak r0, x  ;\n"
      "~exists (P0:r0 == 0 /\\ P1:r0 == 0)\n";
  static const char *const lines[] = {
      "States 3", "0:r0=0; 1:r0=1;", "0:r0=1; 1:r0=0;", "0:r0=1; 1:r0=1;",
      "Ok", "Positive: 0 Negative: 4",
      "Observation SB+fence.sc Never 0 4", NULL};
  fixture *f = *state;
  wl_explore_opts o;
  wl_result *r;
  memset(&o, 0, sizeof o);
  o.count_executions = 1;
  r = run_opts(f, src, &o);
  /* distinct full states, even when one is reached by several
   * executions: (1, 1) has two fence-SC orders */
  assert_int_equal(wl_result_nstates(r), 3);
  assert_int_equal(wl_result_verdict(r), 1);
  assert_int_equal(wl_result_positive(r), 0);
  assert_int_equal(wl_result_negative(r), 4);
  herd_has(r, lines);
  json_has(r, "\"sc\": ");
  json_has(r, "\"condition\": false, \"executions\": 2");
}

static void test_sb_no_fence(void **state) {
  static const char src[] =
      "PTX SB\n"
      "{ x=0; y=0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
      " st.weak x, 1   | st.weak y, 1   ;\n"
      " ld.weak r0, y  | ld.weak r0, x  ;\n"
      "~exists (P0:r0 == 0 /\\ P1:r0 == 0)\n";
  static const char *const lines[] = {"States 4", "No",
                                      "Observation SB Sometimes 1 3", NULL};
  fixture *f = *state;
  wl_result *r = run(f, src);
  assert_int_equal(wl_result_nstates(r), 4);
  assert_int_equal(wl_result_verdict(r), 0);
  herd_has(r, lines);
  json_has(r, "\"ok\": false");
}

static void test_lb_allowed(void **state) {
  static const char src[] =
      "PTX LB\n"
      "{ x=0; y=0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
      " ld.weak r0, x  | ld.weak r0, y  ;\n"
      " st.weak y, 1   | st.weak x, 1   ;\n"
      "exists (P0:r0 == 1 /\\ P1:r0 == 1)\n";
  static const char *const lines[] = {"States 4", "Ok",
                                      "Observation LB Sometimes 1 3", NULL};
  fixture *f = *state;
  wl_result *r = run(f, src);
  assert_int_equal(wl_result_nstates(r), 4);
  assert_int_equal(wl_result_verdict(r), 1);
  herd_has(r, lines);
}

/* LB where each store depends on the load: out-of-thin-air values
 * are forbidden; only 0s are read. */
static void test_lb_data_deps(void **state) {
  static const char src[] =
      "PTX LB+datas\n"
      "{ x=0; y=0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
      " ld.weak r0, x  | ld.weak r0, y  ;\n"
      " st.weak y, r0  | st.weak x, r0  ;\n"
      "forall (P0:r0 == 0 /\\ P1:r0 == 0)\n";
  fixture *f = *state;
  wl_result *r = run(f, src);
  assert_int_equal(wl_result_nstates(r), 1);
  assert_int_equal(wl_result_verdict(r), 1);
  assert_int_equal(wl_result_cond_kind(r), WL_COND_FORALL);
  herd_has(r, (const char *const[]){"Test LB+datas Required", "States 1",
                                    "Ok", NULL});
}

static void test_corr_relaxed(void **state) {
  static const char src[] =
      "PTX CoRR\n"
      "{ x=0; }\n"
      " P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;\n"
      " st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, x ;\n"
      "                     | ld.relaxed.gpu r1, x ;\n"
      "~exists (P1:r0 == 1 /\\ P1:r1 == 0)\n";
  static const char *const lines[] = {"States 3", "Ok",
                                      "Observation CoRR Never 0 3", NULL};
  fixture *f = *state;
  wl_result *r = run(f, src);
  assert_int_equal(wl_result_nstates(r), 3);
  assert_int_equal(wl_result_verdict(r), 1);
  assert_int_equal(wl_result_positive(r), 0);
  assert_int_equal(wl_result_negative(r), 3);
  herd_has(r, lines);
}

static void test_atomicity_gpu(void **state) {
  static const char src[] =
      "PTX atom-gpu\n"
      "{ x=0; }\n"
      " P0@cta 0,gpu 0                | P1@cta 1,gpu 0 ;\n"
      " atom.relaxed.gpu.add r0, x, 1 | atom.relaxed.gpu.add r0, x, 1 ;\n"
      "forall (x == 2)\n";
  static const char *const lines[] = {
      "Test atom-gpu Required", "States 1", "x=2;", "Ok",
      "Positive: 2 Negative: 0", "Observation atom-gpu Always 2 0", NULL};
  fixture *f = *state;
  wl_result *r = run(f, src);
  /* (r0, r0') is (0, 1) or (1, 0), x is 2 */
  assert_int_equal(wl_result_nstates(r), 2);
  assert_int_equal(wl_result_verdict(r), 1);
  assert_int_equal(wl_result_positive(r), 2);
  assert_int_equal(wl_result_negative(r), 0);
  herd_has(r, lines);
  json_has(r, "\"rmw\": true");
}

static void test_atomicity_cta_across_ctas(void **state) {
  static const char src[] =
      "PTX atom-cta\n"
      "{ x=0; }\n"
      " P0@cta 0,gpu 0                | P1@cta 1,gpu 0 ;\n"
      " atom.relaxed.cta.add r0, x, 1 | atom.relaxed.cta.add r0, x, 1 ;\n"
      "exists (x == 1)\n";
  static const char *const lines[] = {"States 2", "x=1;", "x=2;", "Ok",
                                      NULL};
  fixture *f = *state;
  wl_result *r = run(f, src);
  assert_int_equal(wl_result_verdict(r), 1);
  assert_true(wl_result_positive(r) > 0);
  herd_has(r, lines);
}

/* In one CTA, .cta scope suffices. */
static void test_atomicity_cta_same_cta(void **state) {
  static const char src[] =
      "PTX atom-cta-same\n"
      "{ x=0; }\n"
      " P0@cta 0,gpu 0                | P1@cta 0,gpu 0 ;\n"
      " atom.relaxed.cta.add r0, x, 1 | atom.relaxed.cta.add r0, x, 1 ;\n"
      "exists (x == 1)\n";
  fixture *f = *state;
  wl_result *r = run(f, src);
  assert_int_equal(wl_result_nstates(r), 2);
  assert_int_equal(wl_result_verdict(r), 0);
  assert_int_equal(wl_result_positive(r), 0);
}

/* A spin loop costs nothing against the bound, however small. */
static void test_spin_loop(void **state) {
  static const char src[] =
      "PTX MP-spin\n"
      "{ x=0; flag=0; }\n"
      " P0@cta 0,gpu 0         | P1@cta 1,gpu 0           ;\n"
      " st.weak x, 1           | LC10:                    ;\n"
      " st.release.gpu flag, 1 | ld.acquire.gpu r0, flag  ;\n"
      "                        | beq r0, 0, LC10          ;\n"
      "                        | ld.weak r1, x            ;\n"
      "forall (P1:r1 == 1)\n";
  wl_explore_opts opts;
  fixture *f = *state;
  wl_result *r;
  memset(&opts, 0, sizeof opts);
  opts.unroll = 1;
  r = run_opts(f, src, &opts);
  assert_int_equal(wl_result_bound_hit(r), 0);
  assert_int_equal(wl_result_nstates(r), 1);
  assert_int_equal(wl_result_verdict(r), 1);
  herd_has(r, (const char *const[]){"States 1", "1:r1=1;", "Ok", NULL});
  {
    char *text = herd(r);
    assert_null(strstr(text, "Loop"));
    assert_null(strstr(text, "Warning"));
    free(text);
  }
}

#define COUNT_LOOP(N)                                                      \
  "PTX count\n"                                                          \
  "{ x=0; P0:r1=0; }\n"                                                  \
  " P0@cta 0,gpu 0 ;\n"                                                  \
  " LC00: ;\n"                                                           \
  " add r1, r1, 1 ;\n"                                                   \
  " bne r1, " #N ", LC00 ;\n"                                            \
  " st.weak x, r1 ;\n"                                                   \
  "exists (x == " #N ")\n"

/* A loop that needs more iterations than the bound: its traces are cut
 * and the herd text says "Loop". */
static void test_counting_loop_exceeds_unroll(void **state) {
  wl_explore_opts opts;
  fixture *f = *state;
  wl_result *r;
  memset(&opts, 0, sizeof opts);
  opts.unroll = 3;
  r = run_opts(f, COUNT_LOOP(100), &opts);
  assert_int_equal(wl_result_bound_hit(r), 1);
  assert_int_equal(wl_result_traces_cut(r), 1);
  assert_int_equal(wl_result_nstates(r), 0);
  assert_int_equal(wl_result_verdict(r), 0);
  herd_has(r, (const char *const[]){
                  "States 0", "Loop No",
                  "Warning count: loop unroll bound 3 reached; outcomes "
                  "that need more iterations are not listed",
                  NULL});
  json_has(r, "\"bound_hit\": true, \"unroll\": 3");
}

/* The bound counts taken backward branches: 3 are allowed, 4 are not. */
static void test_counting_loop_at_bound(void **state) {
  wl_explore_opts opts;
  fixture *f = *state;
  wl_result *r;
  memset(&opts, 0, sizeof opts);
  opts.unroll = 3;
  r = run_opts(f, COUNT_LOOP(4), &opts); /* r1 = 1, 2, 3: 3 jumps */
  assert_int_equal(wl_result_bound_hit(r), 0);
  assert_int_equal(wl_result_nstates(r), 1);
  assert_int_equal(wl_result_verdict(r), 1);
  herd_has(r, (const char *const[]){"States 1", "x=4;", "Ok", NULL});
  wl_result_free(f->r);
  wl_litmus_free(f->t);
  f->r = NULL;
  f->t = NULL;
  r = run_opts(f, COUNT_LOOP(5), &opts);
  assert_int_equal(wl_result_bound_hit(r), 1);
  assert_int_equal(wl_result_nstates(r), 0);
}

/* opts NULL or unroll 0: the default bound. */
static void test_counting_loop_default_unroll(void **state) {
  wl_explore_opts opts;
  fixture *f = *state;
  wl_result *r;
  memset(&opts, 0, sizeof opts);
  r = run_opts(f, COUNT_LOOP(5), &opts); /* 4 jumps */
  assert_int_equal(wl_result_bound_hit(r), 0);
  assert_int_equal(wl_result_verdict(r), 1);
  wl_result_free(f->r);
  wl_litmus_free(f->t);
  f->r = NULL;
  f->t = NULL;
  r = run(f, COUNT_LOOP(6)); /* 5 jumps */
  assert_int_equal(wl_result_bound_hit(r), 1);
  json_has(r, "\"unroll\": 4"); /* WL_DEFAULT_UNROLL */
}

static void test_barrier_orders(void **state) {
  static const char src[] =
      "PTX barrier-inscope\n"
      "{ x=0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
      " st.weak x, 1   | bar.cta.sync 0 ;\n"
      " bar.cta.sync 0 | ld.weak r0, x  ;\n"
      "forall (P1:r0 == 1)\n";
  fixture *f = *state;
  wl_result *r = run(f, src);
  assert_int_equal(wl_result_nstates(r), 1);
  assert_int_equal(wl_result_verdict(r), 1);
  assert_int_equal(wl_result_negative(r), 0);
  herd_has(r, (const char *const[]){"States 1", "1:r0=1;", "Ok", NULL});
  json_has(r, "\"barrier\": 0, \"op\": \"sync\", \"phase\": 0");
}

/* bar.cta.sync does not synchronise threads of different CTAs. */
static void test_barrier_not_in_scope(void **state) {
  static const char src[] =
      "PTX barrier-not-inscope\n"
      "{ x=0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
      " st.weak x, 1   | bar.cta.sync 0 ;\n"
      " bar.cta.sync 0 | ld.weak r0, x  ;\n"
      "forall (P1:r0 == 1)\n";
  fixture *f = *state;
  wl_result *r = run(f, src);
  assert_int_equal(wl_result_nstates(r), 2);
  assert_int_equal(wl_result_verdict(r), 0);
  herd_has(r, (const char *const[]){"States 2", "1:r0=0;", "1:r0=1;",
                                    "No", NULL});
}

/* Each thread waits at a barrier the other reaches only later: no
 * execution completes. */
static void test_barrier_deadlock(void **state) {
  static const char src[] =
      "PTX deadlock\n"
      "{ x=0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
      " bar.cta.sync 0 | bar.cta.sync 1 ;\n"
      " bar.cta.sync 1 | bar.cta.sync 0 ;\n"
      " st.weak x, 1   | st.weak x, 2   ;\n"
      "exists (x == 1)\n";
  fixture *f = *state;
  wl_result *r = run(f, src);
  assert_int_equal(wl_result_nstates(r), 0);
  assert_int_equal(wl_result_verdict(r), 0);
  assert_int_equal(wl_result_positive(r), 0);
  assert_int_equal(wl_result_negative(r), 0);
  herd_has(r, (const char *const[]){"States 0", "No",
                                    "Observation deadlock Never 0 0", NULL});
  json_has(r, "\"final_states\": []");
}

/* Without a condition every register and location is listed. */
static void test_no_condition(void **state) {
  static const char src[] =
      "PTX nocond\n"
      "{ x=0; }\n"
      " P0@cta 0,gpu 0 ;\n"
      " st.weak x, 5 ;\n"
      " ld.weak r0, x ;\n";
  fixture *f = *state;
  wl_result *r = run(f, src);
  assert_int_equal(wl_result_nstates(r), 1);
  assert_int_equal(wl_result_verdict(r), 1);
  herd_has(r, (const char *const[]){"States 1", "0:r0=5; x=5;", "Ok",
                                    "Condition exists (true)", NULL});
}

/* Many states, each reached once or more: every state is listed once
 * (without a condition the herd states are the full states).  Each of
 * the 8 weak loads reads the initial value or one of 2 writes. */
static void test_many_states_distinct(void **state) {
  static const char src[] =
      "PTX many\n"
      "{ x=0; y=0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 ;\n"
      " st.weak x, 1   | ld.weak r0, x  | ld.weak r0, y  ;\n"
      " st.weak y, 2   | ld.weak r1, y  | ld.weak r1, x  ;\n"
      " st.weak x, 3   | ld.weak r2, x  | ld.weak r2, y  ;\n"
      " st.weak y, 4   | ld.weak r3, y  | ld.weak r3, x  ;\n";
  fixture *f = *state;
  wl_result *r = run(f, src);
  assert_int_equal(wl_result_nstates(r), 6561);
  assert_int_equal(wl_result_negative(r), 0);
  assert_true(wl_result_positive(r) >= 6561);
  herd_has(r, (const char *const[]){
                  "States 6561",
                  "1:r0=0; 1:r1=0; 1:r2=0; 1:r3=0; 2:r0=0; 2:r1=0; "
                  "2:r2=0; 2:r3=0; x=3; y=4;",
                  "1:r0=3; 1:r1=4; 1:r2=3; 1:r3=4; 2:r0=4; 2:r1=3; "
                  "2:r2=4; 2:r3=3; x=3; y=4;",
                  "Ok", NULL});
}

/* ---------------------------------------------------------------- */
/* Stopping, arguments, sinks                                        */

static int stop_now(void *ud) {
  int *calls = ud;
  (*calls)++;
  return 1;
}

static int stop_never(void *ud) {
  int *calls = ud;
  (*calls)++;
  return 0;
}

/* Three threads of four accesses each: enough work to poll the callback
 * more than once. */
static const char iriw_src[] =
    "PTX IRIW+W\n"
    "{ x=0; y=0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 ;\n"
    " st.weak x, 1   | ld.weak r0, x  | ld.weak r0, y  ;\n"
    " st.weak y, 2   | ld.weak r1, y  | ld.weak r1, x  ;\n"
    " st.weak x, 3   | ld.weak r2, x  | ld.weak r2, y  ;\n"
    " st.weak y, 4   | ld.weak r3, y  | ld.weak r3, x  ;\n"
    "exists (P1:r0 == 1 /\\ P2:r0 == 2)\n";

static void test_should_stop(void **state) {
  fixture *f = *state;
  wl_explore_opts opts;
  int calls = 0, r;
  memset(&opts, 0, sizeof opts);
  opts.should_stop = stop_now;
  opts.stop_ud = &calls;
  assert_int_equal(
      wl_litmus_parse(f->ctx, "t.litmus", iriw_src, strlen(iriw_src), &f->t),
      0);
  f->r = (wl_result *)(uintptr_t)1;
  r = wl_explore(f->ctx, f->t, &opts, &f->r);
  assert_int_equal(r, WL_ESTOPPED);
  assert_null(f->r);
  assert_int_equal(calls, 1);
  /* the message counts the states found before the stop */
  assert_int_equal(strncmp(wl_ctx_errmsg(f->ctx),
                           "IRIW+W: exploration stopped with ", 33),
                   0);
}

static void test_should_stop_never(void **state) {
  fixture *f = *state;
  wl_explore_opts opts;
  int calls = 0;
  wl_result *r;
  memset(&opts, 0, sizeof opts);
  opts.should_stop = stop_never;
  opts.stop_ud = &calls;
  r = run_opts(f, iriw_src, &opts);
  assert_true(calls > 1);
  assert_int_equal(wl_result_verdict(r), 1);
}

static void test_explore_einval(void **state) {
  static const char src[] = "PTX T\n{ x=0; }\n P0@cta 0 ;\n st.weak x, 1 ;\n";
  fixture *f = *state;
  wl_explore_opts opts;
  wl_result *r = NULL;
  memset(&opts, 0, sizeof opts);
  assert_int_equal(
      wl_litmus_parse(f->ctx, "t.litmus", src, strlen(src), &f->t), 0);
  assert_int_equal(wl_explore(NULL, f->t, NULL, &r), WL_EINVAL);
  assert_int_equal(wl_explore(f->ctx, NULL, NULL, &r), WL_EINVAL);
  assert_int_equal(wl_explore(f->ctx, f->t, NULL, NULL), WL_EINVAL);
  opts.unroll = -1;
  assert_int_equal(wl_explore(f->ctx, f->t, &opts, &r), WL_EINVAL);
  assert_null(r);
  assert_string_equal(wl_ctx_errmsg(f->ctx), "unroll bound must be >= 0");
  wl_result_free(NULL);
}

/* A sink that refuses makes the writers return WL_EIO. */
static void test_write_eio(void **state) {
  static const char src[] = "PTX T\n{ x=0; }\n P0@cta 0 ;\n st.weak x, 1 ;\n"
                            "exists (x == 1)\n";
  fixture *f = *state;
  wl_result *r = run(f, src);
  sbuf b;
  memset(&b, 0, sizeof b);
  b.fail_at = 1;
  assert_int_equal(wl_result_write_herd(r, 1.5, sbuf_write, &b), WL_EIO);
  assert_string_equal(wl_ctx_errmsg(f->ctx), "the writer stopped the output");
  memset(&b, 0, sizeof b);
  b.fail_at = 1;
  assert_int_equal(wl_result_write_json(r, 1.5, sbuf_write, &b), WL_EIO);
  assert_int_equal(wl_result_write_herd(NULL, 0, sbuf_write, &b), WL_EINVAL);
  assert_int_equal(wl_result_write_herd(r, 0, NULL, &b), WL_EINVAL);
  assert_int_equal(wl_result_write_json(NULL, 0, sbuf_write, &b), WL_EINVAL);
  assert_int_equal(wl_result_write_json(r, 0, NULL, &b), WL_EINVAL);
  free(b.p);
}

/* The caller's time is printed with two decimals (herd), six (JSON). */
static void test_write_time(void **state) {
  static const char src[] = "PTX T\n{ x=0; }\n P0@cta 0 ;\n st.weak x, 1 ;\n"
                            "exists (x == 1)\n";
  fixture *f = *state;
  wl_result *r = run(f, src);
  sbuf b;
  memset(&b, 0, sizeof b);
  assert_int_equal(wl_result_write_herd(r, 1.5, sbuf_write, &b), 0);
  has_line(b.p, "Time T 1.50");
  free(b.p);
  memset(&b, 0, sizeof b);
  assert_int_equal(wl_result_write_json(r, 0.25, sbuf_write, &b), 0);
  assert_non_null(strstr(b.p, "\"time\": 0.250000"));
  assert_non_null(strstr(b.p, "\"file\": \"t.litmus\""));
  free(b.p);
}

int main(void) {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
  const struct CMUnitTest tests[] = {
      T(test_mp_weak_allowed),
      T(test_mp_release_acquire),
      T(test_fence_sc_not_morally_strong),
      T(test_mp_release_acquire_exists),
      T(test_mp_cta_scope_across_ctas),
      T(test_sb_fence_sc),
      T(test_sb_no_fence),
      T(test_lb_allowed),
      T(test_lb_data_deps),
      T(test_corr_relaxed),
      T(test_atomicity_gpu),
      T(test_atomicity_cta_across_ctas),
      T(test_atomicity_cta_same_cta),
      T(test_spin_loop),
      T(test_counting_loop_exceeds_unroll),
      T(test_counting_loop_at_bound),
      T(test_counting_loop_default_unroll),
      T(test_barrier_orders),
      T(test_barrier_not_in_scope),
      T(test_barrier_deadlock),
      T(test_no_condition),
      T(test_many_states_distinct),
      T(test_should_stop),
      T(test_should_stop_never),
      T(test_explore_einval),
      T(test_write_eio),
      T(test_write_time),
  };
#undef T
  return cmocka_run_group_tests(tests, NULL, NULL);
}
