/* test_alloc.c -- fault injection (SQLite's malloc tests, Lua's
 * ltests.c): the Nth allocation fails, for N = 1, 2, ... until a run
 * makes no failing allocation.  Every failure must come back as
 * WL_ENOMEM with a message, and nothing may leak.  The allocator also
 * checks that every osize the engine passes is the size it asked for. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../engine/warplab.h"

/* ---------------------------------------------------------------- */
/* The failing allocator                                             */

#include "faulty.h"
#include "sink.h"

/* ---------------------------------------------------------------- */
/* Sinks                                                             */


/* ---------------------------------------------------------------- */
/* The pipeline                                                      */

typedef struct outcome {
  int rc;               /* 0 or the first error */
  const char *stage;    /* the call that failed */
  char errmsg[512];     /* wl_ctx_errmsg after the failure */
  sbuf herd, json;      /* the output of a complete run */
} outcome;

static void outcome_free(outcome *o) {
  free(o->herd.p);
  free(o->json.p);
  memset(o, 0, sizeof *o);
}

/* The pipeline's exploration: wl_explore, or (use_split) the split one:
 * wl_explore_split, then every unit in order, each knowing the merge of
 * those before it, merged (engine/model/split.c). */
static int use_split;

static int split_explore(wl_ctx *ctx, const wl_litmus *t,
                         const wl_explore_opts *opts, wl_result **out) {
  wl_explorer *e = NULL;
  wl_result *acc = NULL;
  size_t u;
  int rc = wl_explore_split(ctx, t, opts, &e);
  for (u = 0; rc == 0 && u < wl_explorer_units(e); u++) {
    wl_result *part = NULL;
    rc = wl_explore_unit(e, u, acc, &part);
    if (rc == 0)
      rc = wl_explore_merge(ctx, &acc, part);
    wl_result_free(part);
  }
  wl_explorer_free(e);
  if (rc != 0) {
    wl_result_free(acc);
    return rc;
  }
  *out = acc;
  return 0;
}

/* ctx_new, parse, explore, write_herd, write_json; frees everything. */
static void pipeline(const wl_config *cfg, const char *src,
                     const wl_explore_opts *opts, outcome *o) {
  wl_ctx *ctx = NULL;
  wl_litmus *t = NULL;
  wl_result *r = NULL;
  memset(o, 0, sizeof *o);
  o->stage = "wl_ctx_new";
  o->rc = wl_ctx_new(cfg, &ctx);
  if (o->rc != 0) {
    assert_null(ctx);
    return;
  }
  o->stage = "wl_litmus_parse";
  o->rc = wl_litmus_parse(ctx, "f.litmus", src, strlen(src), &t);
  if (o->rc == 0) {
    o->stage = use_split ? "wl_explore_split/unit/merge" : "wl_explore";
    o->rc = use_split ? split_explore(ctx, t, opts, &r)
                      : wl_explore(ctx, t, opts, &r);
  }
  if (o->rc == 0) {
    o->stage = "wl_result_write_herd";
    o->rc = wl_result_write_herd(r, 0.0, sbuf_write, &o->herd);
  }
  if (o->rc == 0) {
    o->stage = "wl_result_write_json";
    o->rc = wl_result_write_json(r, 0.0, sbuf_write, &o->json);
  }
  if (o->rc != 0)
    snprintf(o->errmsg, sizeof o->errmsg, "%s", wl_ctx_errmsg(ctx));
  else
    o->stage = NULL;
  wl_result_free(r);
  wl_litmus_free(t);
  wl_ctx_free(ctx);
}

/* Runs the pipeline failing allocation 1, 2, ... until a run needs no
 * more; returns how many runs failed. */
static long fault_sweep(const char *src, const wl_explore_opts *opts) {
  outcome ref, o;
  faulty fa;
  wl_config cfg;
  long n, total;
  pipeline(NULL, src, opts, &ref);
  if (ref.rc != 0)
    fail_msg("reference run: %s: %s", ref.stage, ref.errmsg);
  cfg.alloc = faulty_alloc;
  cfg.alloc_ud = &fa;
  /* a run without failures gives the allocation count */
  memset(&fa, 0, sizeof fa);
  pipeline(&cfg, src, opts, &o);
  assert_int_equal(o.rc, 0);
  assert_int_equal(fa.live, 0);
  assert_int_equal(fa.blocks, 0);
  assert_false(fa.bad);
  total = fa.calls;
  outcome_free(&o);
  for (n = 1;; n++) {
    memset(&fa, 0, sizeof fa);
    fa.fail_at = n;
    pipeline(&cfg, src, opts, &o);
    if (fa.live != 0 || fa.blocks != 0)
      fail_msg("allocation %ld failed in %s: %ld bytes in %ld blocks leak",
               n, o.stage ? o.stage : "(none)", fa.live, fa.blocks);
    if (fa.bad)
      fail_msg("allocation %ld: a block was freed with the wrong size", n);
    if (!fa.failed) {
      /* past the last allocation: a complete run, as without the hook */
      assert_int_equal(o.rc, 0);
      assert_int_equal(n, total + 1);
      assert_string_equal(o.herd.p, ref.herd.p);
      assert_string_equal(o.json.p, ref.json.p);
      outcome_free(&o);
      break;
    }
    if (o.rc == 0)
      fail_msg("allocation %ld failed but every call succeeded", n);
    if (o.rc != WL_ENOMEM)
      fail_msg("allocation %ld: %s returned %s (%s), not WL_ENOMEM", n,
               o.stage, wl_err_name(o.rc), o.errmsg);
    if (strcmp(o.stage, "wl_ctx_new") != 0 && o.errmsg[0] == '\0')
      fail_msg("allocation %ld: %s failed without a message", n, o.stage);
    outcome_free(&o);
  }
  outcome_free(&ref);
  return n - 1;
}

/* ---------------------------------------------------------------- */
/* Tests                                                             */

/* MP through a barrier, with a counting loop and a spin loop. */
static const char mp_bar_loop[] =
    "PTX MP-bar-loop\n"
    "\"fault injection\"\n"
    "{ x=0; y=0; P1:r2=0; }\n"
    " P0@cta 0,gpu 0      | P1@cta 0,gpu 0  | P2@cta 1,gpu 0       ;\n"
    " st.weak x, 1        | bar.cta.sync 0  | LC20:                ;\n"
    " bar.cta.sync 0      | ld.weak r0, x   | ld.acquire.gpu r1, y ;\n"
    " st.release.gpu y, 1 | LC10:           | beq r1, 0, LC20      ;\n"
    "                     | add r2, r2, 1   | ld.weak r3, x        ;\n"
    "                     | bne r2, 3, LC10 |                      ;\n"
    "locations [y;]\n"
    "exists (P1:r0 == 1 /\\ P2:r3 == 1 /\\ P1:r2 == 3)\n";

static void test_fault_mp_bar_loop(void **state) {
  long runs;
  (void)state;
  runs = fault_sweep(mp_bar_loop, NULL);
  assert_true(runs > 10);
}

/* The same where the loop bound is hit ("Loop", warning line). */
static void test_fault_bound_hit(void **state) {
  wl_explore_opts opts;
  (void)state;
  memset(&opts, 0, sizeof opts);
  opts.unroll = 1;
  assert_true(fault_sweep(mp_bar_loop, &opts) > 10);
}

/* SB with SC fences: several executions per state, fence-SC orders. */
static void test_fault_sb_fences(void **state) {
  static const char src[] =
      "PTX SB+fence.sc\n"
      "{ x=0; y=0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
      " st.weak x, 1   | st.weak y, 1   ;\n"
      " fence.sc.gpu   | fence.sc.gpu   ;\n"
      " ld.weak r0, y  | ld.weak r0, x  ;\n"
      "~exists (P0:r0 == 0 /\\ P1:r0 == 0)\n";
  (void)state;
  assert_true(fault_sweep(src, NULL) > 10);
}

/* 81 states: the state table and its hash grow several times. */
static void test_fault_many_states(void **state) {
  static const char src[] =
      "PTX many\n"
      "{ x=0; y=0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 ;\n"
      " st.weak x, 1   | ld.weak r0, x  | ld.weak r0, y  ;\n"
      " st.weak y, 2   | ld.weak r1, y  | ld.weak r1, x  ;\n"
      " st.weak x, 3   |                |                ;\n"
      " st.weak y, 4   |                |                ;\n";
  (void)state;
  assert_true(fault_sweep(src, NULL) > 162);
}

/* The split exploration (wl_explore_split, wl_explore_unit with the
 * states known so far, wl_explore_merge): every allocation failure
 * returns WL_ENOMEM and leaks nothing, and without failures the output
 * is wl_explore's (the reference run uses the split too: compared
 * below with the plain one). */
static void test_fault_split(void **state) {
  static const char src[] =
      "PTX many\n"
      "{ x=0; y=0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 ;\n"
      " st.weak x, 1   | ld.weak r0, x  | ld.weak r0, y  ;\n"
      " st.weak y, 2   | ld.weak r1, y  | ld.weak r1, x  ;\n"
      " st.weak x, 3   |                |                ;\n"
      " st.weak y, 4   |                |                ;\n";
  wl_explore_opts opts;
  outcome plain, split;
  (void)state;
  memset(&opts, 0, sizeof opts);
  opts.observed_only = 1;
  pipeline(NULL, mp_bar_loop, &opts, &plain);
  use_split = 1;
  pipeline(NULL, mp_bar_loop, &opts, &split);
  assert_int_equal(plain.rc, 0);
  assert_int_equal(split.rc, 0);
  assert_string_equal(plain.json.p, split.json.p);
  outcome_free(&plain);
  outcome_free(&split);
  assert_true(fault_sweep(mp_bar_loop, &opts) > 10);
  assert_true(fault_sweep(src, NULL) > 162);
  use_split = 0;
}

/* Failing parses: every allocation of an error path. */
static void test_fault_parse_errors(void **state) {
  static const char *const bad[] = {
      "PTX T\n{ x=0; P0:r0=1; }\n P0@cta 0 ;\n st.weak x, r0 ;\n"
      " bne r0, 1, L9 ;\n",
      "PTX T\n{ x=0; y @ generic aliases x; s @ surface aliases z; }\n",
      "PTX T\n{ x=0; y @ generic aliases x; }\n P0@cta 0 ;\n"
      " sust.weak y, 1 ;\n fence.proxy.bogus ;\n",
      "PTX T\n{ x=0; }\n P0@cta 0 ;\n st.weak x, 1 ;\nexists (x == 1 /\\\n",
  };
  size_t i;
  (void)state;
  for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    faulty fa;
    wl_config cfg;
    long n;
    cfg.alloc = faulty_alloc;
    cfg.alloc_ud = &fa;
    for (n = 1;; n++) {
      wl_ctx *ctx = NULL;
      wl_litmus *t = NULL;
      int rc;
      memset(&fa, 0, sizeof fa);
      fa.fail_at = n;
      rc = wl_ctx_new(&cfg, &ctx);
      if (rc == 0) {
        rc = wl_litmus_parse(ctx, "f.litmus", bad[i], strlen(bad[i]), &t);
        assert_null(t);
        assert_true(wl_ctx_errmsg(ctx)[0] != '\0');
        wl_ctx_free(ctx);
      }
      assert_int_equal(fa.live, 0);
      assert_false(fa.bad);
      if (!fa.failed) {
        assert_true(rc == WL_ESYNTAX || rc == WL_EUNSUPPORTED);
        break;
      }
      assert_int_equal(rc, WL_ENOMEM);
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fault_mp_bar_loop),
      cmocka_unit_test(test_fault_bound_hit),
      cmocka_unit_test(test_fault_sb_fences),
      cmocka_unit_test(test_fault_many_states),
      cmocka_unit_test(test_fault_split),
      cmocka_unit_test(test_fault_parse_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
