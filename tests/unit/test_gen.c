/* test_gen.c -- the litmus-test generator (engine/gen/): the same seed
 * gives the same tests; every test it writes parses and explores; the
 * classic cycles have their known verdicts; variants explore to the
 * same verdict and number of states; bad options are refused naming
 * the field. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../engine/warplab.h"

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

static wl_gen *gen_ok(wl_ctx *ctx, const wl_gen_opts *o) {
  wl_gen *g = NULL;
  int r = wl_gen_new(ctx, o, &g);
  if (r != 0)
    fail_msg("wl_gen_new: %s: %s", wl_err_name(r), wl_ctx_errmsg(ctx));
  return g;
}

/* Parses and explores text; returns the verdict, *nstates the states. */
static int explore_text(wl_ctx *ctx, const char *name, const char *text,
                        size_t len, size_t *nstates) {
  wl_litmus *t = NULL;
  wl_result *res = NULL;
  wl_explore_opts xo;
  int r, v;
  memset(&xo, 0, sizeof xo);
  xo.unroll = 1;
  r = wl_litmus_parse(ctx, name, text, len, &t);
  if (r != 0)
    fail_msg("%s does not parse: %s\n%s", name, wl_ctx_errmsg(ctx), text);
  r = wl_explore(ctx, t, &xo, &res);
  if (r != 0)
    fail_msg("%s does not explore: %s\n%s", name, wl_ctx_errmsg(ctx), text);
  v = wl_result_verdict(res);
  assert_false(wl_result_bound_hit(res));
  if (nstates != NULL)
    *nstates = wl_result_nstates(res);
  wl_result_free(res);
  wl_litmus_free(t);
  return v;
}

/* Runs every test of o (at most max) through the explorer; returns how
 * many there were.  With variants, each is compared with its variant. */
static int explore_all(wl_ctx *ctx, const wl_gen_opts *o, int max,
                       int variants) {
  wl_gen *g = gen_ok(ctx, o);
  const char *text;
  size_t len;
  int n = 0;
  for (;;) {
    size_t ns, vns;
    int v;
    assert_int_equal(wl_gen_next(g, &text, &len), 0);
    if (text == NULL || n >= max)
      break;
    assert_int_equal(strlen(text), len);
    v = explore_text(ctx, wl_gen_name(g), text, len, &ns);
    if (variants) {
      const char *vt;
      size_t vlen;
      char name[160];
      snprintf(name, sizeof name, "%s", wl_gen_name(g));
      assert_int_equal(wl_gen_variant(g, (uint64_t)n, &vt, &vlen, NULL), 0);
      if (explore_text(ctx, name, vt, vlen, &vns) != v || vns != ns)
        fail_msg("the variant of %s differs (%zu vs %zu states):\n%s\n%s",
                 name, ns, vns, text, vt);
    }
    n++;
  }
  wl_gen_free(g);
  return n;
}

/* ---------------------------------------------------------------- */

static void test_deterministic(void **state) {
  wl_ctx *ctx = *state;
  wl_gen_opts o;
  int mode;
  for (mode = 0; mode < 3; mode++) {
    wl_gen *a, *b, *c;
    int i, differ = 0;
    memset(&o, 0, sizeof o);
    o.seed = 42;
    if (mode == 0) {
      o.mode = WL_GEN_RANDOM;
      o.threads = 3;
    } else if (mode == 1) {
      o.mode = WL_GEN_EDGES;
      o.sample = 1;
      o.max_size = 6;
    } else {
      o.mode = WL_GEN_FAMILY;
      o.family = "all";
      o.annotations = WL_GEN_ANN_MIX;
      o.placements = WL_GEN_PLACE_MIX;
    }
    a = gen_ok(ctx, &o);
    b = gen_ok(ctx, &o);
    o.seed = 43;
    c = gen_ok(ctx, &o);
    /* mode 2: one test per family (one annotation, one placement) */
    for (i = 0; i < (mode == 2 ? 18 : 50); i++) {
      const char *ta, *tb, *tc;
      size_t la, lb, lc;
      assert_int_equal(wl_gen_next(a, &ta, &la), 0);
      assert_int_equal(wl_gen_next(b, &tb, &lb), 0);
      assert_int_equal(wl_gen_next(c, &tc, &lc), 0);
      assert_non_null(ta);
      assert_string_equal(ta, tb);
      assert_string_equal(wl_gen_name(a), wl_gen_name(b));
      if (tc == NULL || strcmp(ta, tc) != 0)
        differ++;
    }
    assert_true(differ > 0);
    wl_gen_free(a);
    wl_gen_free(b);
    wl_gen_free(c);
  }
}

/* Every cycle of up to 5 edges over a wide vocabulary (program order,
 * fences, dependencies, internal and external communication, Rmw), under
 * one annotation: each parses and explores. */
static void test_edges_wide_all_explore(void **state) {
  wl_gen_opts o;
  int n;
  memset(&o, 0, sizeof o);
  o.mode = WL_GEN_EDGES;
  o.edges = "Pod** Pos** Rfe Fre Coe Rfi Fri Coi Rmw DpDatadW DpCtrld* "
            "FenceScGpud** FenceAcqRelCtadWR";
  o.max_size = 5;
  o.annotations = WL_GEN_ANN_RELAXED;
  o.scopes = WL_GEN_SCOPE_GPU;
  o.placements = WL_GEN_PLACE_GPU;
  n = explore_all(*state, &o, 100000, 0);
  print_message("wide vocabulary, cycles of up to 5 edges: %d tests\n", n);
  assert_true(n > 1000);
}

/* The default vocabulary up to 6 edges, every annotation and placement. */
static void test_edges_default_all_explore(void **state) {
  wl_gen_opts o;
  int n;
  memset(&o, 0, sizeof o);
  o.mode = WL_GEN_EDGES;
  o.max_size = 6;
  o.annotations = 15;
  o.placements = 15;
  n = explore_all(*state, &o, 100000, 0);
  print_message("default vocabulary up to 6 edges: %d tests\n", n);
  assert_true(n > 5000);
}

static void test_random_all_explore(void **state) {
  wl_gen_opts o;
  int n;
  memset(&o, 0, sizeof o);
  o.mode = WL_GEN_RANDOM;
  o.seed = 7;
  o.count = 3000;
  o.threads = 2;
  o.insns = 3;
  n = explore_all(*state, &o, 100000, 0);
  assert_int_equal(n, 3000);
  o.count = 300;
  o.threads = 3;
  o.insns = 4;
  o.locs = 3;
  assert_int_equal(explore_all(*state, &o, 100000, 0), 300);
  o.count = 100;
  o.threads = 4;
  o.insns = 2;
  o.locs = 2;
  assert_int_equal(explore_all(*state, &o, 100000, 0), 100);
}

/* Random programs use what the mix allows, and vary. */
static void test_random_mix(void **state) {
  wl_ctx *ctx = *state;
  wl_gen_opts o;
  wl_gen *g;
  static const char *const words[] = {
      "ld.weak", "st.weak", ".relaxed.", "ld.acquire.", "st.release.",
      "atom",    "red.",    "fence.sc.", "fence.acq_rel.", "bar.sync 0",
      "beq",     "bne",     "xor",     "exists",   "~exists", "forall",
      "\\/",     "!=",      "gpu 1",   NULL};
  int seen[32] = {0}, i, k;
  memset(&o, 0, sizeof o);
  o.mode = WL_GEN_RANDOM;
  o.threads = 3;
  o.insns = 5;
  o.locs = 3;
  o.count = 400;
  g = gen_ok(ctx, &o);
  for (i = 0; i < 400; i++) {
    const char *text;
    assert_int_equal(wl_gen_next(g, &text, NULL), 0);
    assert_non_null(text);
    for (k = 0; words[k] != NULL; k++)
      if (strstr(text, words[k]) != NULL)
        seen[k]++;
  }
  for (k = 0; words[k] != NULL; k++)
    if (seen[k] == 0)
      fail_msg("no random program has '%s'", words[k]);
  wl_gen_free(g);
  /* only weak loads and stores */
  o.mix = WL_GEN_MIX_WEAK;
  g = gen_ok(ctx, &o);
  for (i = 0; i < 100; i++) {
    const char *text;
    assert_int_equal(wl_gen_next(g, &text, NULL), 0);
    assert_null(strstr(text, "atom"));
    assert_null(strstr(text, "fence"));
    assert_null(strstr(text, "relaxed"));
    assert_null(strstr(text, "bar.sync"));
  }
  wl_gen_free(g);
}

/* The verdict of one cycle under one annotation and placement. */
static int cycle_verdict(wl_ctx *ctx, const char *cycle, unsigned ann,
                         unsigned scope, unsigned place, char *name,
                         size_t nlen) {
  wl_gen_opts o;
  wl_gen *g;
  const char *text;
  size_t len;
  int v;
  memset(&o, 0, sizeof o);
  o.mode = WL_GEN_CYCLE;
  o.cycle = cycle;
  o.annotations = ann;
  o.scopes = scope;
  o.placements = place;
  g = gen_ok(ctx, &o);
  assert_int_equal(wl_gen_next(g, &text, &len), 0);
  assert_non_null(text);
  if (name != NULL)
    snprintf(name, nlen, "%s", wl_gen_name(g));
  v = explore_text(ctx, wl_gen_name(g), text, len, NULL);
  assert_int_equal(wl_gen_next(g, &text, &len), 0);
  assert_null(text); /* one annotation x one placement: one test */
  wl_gen_free(g);
  return v;
}

static void test_classic_verdicts(void **state) {
  wl_ctx *ctx = *state;
  const unsigned W = WL_GEN_ANN_WEAK, RA = WL_GEN_ANN_ACQREL,
                 RLX = WL_GEN_ANN_RELAXED, GPU = WL_GEN_SCOPE_GPU,
                 CTA = WL_GEN_SCOPE_CTA;
  const char *mp = wl_gen_family_cycle("MP");
  char name[160];
  assert_string_equal(mp, "PodWW Rfe PodRR Fre");
  /* MP: release/acquire at gpu scope across CTAs forbids it; weak
   * accesses allow it; cta scope across CTAs does not synchronise */
  assert_false(cycle_verdict(ctx, mp, RA, GPU, WL_GEN_PLACE_GPU, name,
                             sizeof name));
  assert_string_equal(name, "MP_ra.gpu_gpu");
  assert_true(cycle_verdict(ctx, mp, W, 0, WL_GEN_PLACE_GPU, name,
                            sizeof name));
  assert_string_equal(name, "MP_weak_gpu");
  assert_true(cycle_verdict(ctx, mp, RA, CTA, WL_GEN_PLACE_GPU, NULL, 0));
  assert_false(cycle_verdict(ctx, mp, RA, CTA, WL_GEN_PLACE_CTA, NULL, 0));
  /* SB: release/acquire allow it, fence.sc.gpu forbids it */
  assert_true(cycle_verdict(ctx, "PodWR Fre PodWR Fre", RA, GPU,
                            WL_GEN_PLACE_GPU, NULL, 0));
  assert_false(cycle_verdict(ctx, "FenceScGpudWR Fre FenceScGpudWR Fre", RLX,
                             GPU, WL_GEN_PLACE_GPU, name, sizeof name));
  assert_string_equal(name, "SB+fence.sc.gpu+fence.sc.gpu_rlx.gpu_gpu");
  /* LB: allowed without dependencies, not with them (No-Thin-Air) */
  assert_true(cycle_verdict(ctx, "PodRW Rfe PodRW Rfe", RLX, GPU,
                            WL_GEN_PLACE_GPU, NULL, 0));
  assert_false(cycle_verdict(ctx, "DpDatadW Rfe DpCtrldW Rfe", RLX, GPU,
                             WL_GEN_PLACE_GPU, name, sizeof name));
  assert_string_equal(name, "LB+data+ctrl_rlx.gpu_gpu");
  /* coherence and atomicity of morally strong accesses */
  assert_false(cycle_verdict(ctx, "Rfe PosRR Fre", RLX, GPU,
                             WL_GEN_PLACE_GPU, name, sizeof name));
  assert_string_equal(name, "CoRR_rlx.gpu_gpu");
  assert_false(cycle_verdict(ctx, "Rfe Rmw Coe", RLX, GPU, WL_GEN_PLACE_GPU,
                             NULL, 0));
  /* weak accesses get no coherence */
  assert_true(cycle_verdict(ctx, "Rfe PosRR Fre", W, 0, WL_GEN_PLACE_GPU,
                            NULL, 0));
}

/* The shape of the MP test itself. */
static void test_mp_text(void **state) {
  wl_ctx *ctx = *state;
  wl_gen_opts o;
  wl_gen *g;
  const char *text;
  memset(&o, 0, sizeof o);
  o.mode = WL_GEN_FAMILY;
  o.family = "MP";
  o.annotations = WL_GEN_ANN_ACQREL;
  o.scopes = WL_GEN_SCOPE_GPU;
  o.placements = WL_GEN_PLACE_GPU;
  g = gen_ok(ctx, &o);
  assert_int_equal(wl_gen_next(g, &text, NULL), 0);
  assert_string_equal(text,
                      "PTX MP_ra.gpu_gpu\n"
                      "\"cycle: PodWW Rfe PodRR Fre\"\n"
                      "{ x=0; y=0; }\n"
                      " P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;\n"
                      " st.release.gpu x, 1 | ld.acquire.gpu r0, y ;\n"
                      " st.release.gpu y, 1 | ld.acquire.gpu r1, x ;\n"
                      "exists (P1:r0=1 /\\ P1:r1=0)\n");
  wl_gen_free(g);
}

/* Enumeration: counts, order and the end. */
static void test_enumeration(void **state) {
  wl_ctx *ctx = *state;
  wl_gen_opts o;
  wl_gen *g;
  const char *text;
  int n = 0, nf = 0;
  const char *const *f;
  for (f = wl_gen_families(); *f != NULL; f++)
    nf++;
  memset(&o, 0, sizeof o);
  o.mode = WL_GEN_FAMILY;
  o.family = "all";
  g = gen_ok(ctx, &o);
  /* default: weak + rlx x 3 + ra x 3 annotations, 3 placements */
  for (;;) {
    assert_int_equal(wl_gen_next(g, &text, NULL), 0);
    if (text == NULL)
      break;
    n++;
  }
  assert_int_equal(n, nf * 7 * 3);
  /* after the end: still the end */
  assert_int_equal(wl_gen_next(g, &text, NULL), 0);
  assert_null(text);
  assert_string_equal(wl_gen_name(g), "");
  wl_gen_free(g);
  /* count stops early */
  o.count = 5;
  assert_int_equal(explore_all(ctx, &o, 1000, 0), 5);
  /* the classic shapes up to 4 edges of the default vocabulary are all
   * there, each once */
  memset(&o, 0, sizeof o);
  o.mode = WL_GEN_EDGES;
  o.annotations = WL_GEN_ANN_WEAK;
  o.placements = WL_GEN_PLACE_CTA;
  g = gen_ok(ctx, &o);
  {
    static const char *const want[] = {"MP_", "SB_", "LB_", "S_", "R_",
                                       "2+2W_", NULL};
    int seen[8] = {0}, k;
    for (;;) {
      assert_int_equal(wl_gen_next(g, &text, NULL), 0);
      if (text == NULL)
        break;
      for (k = 0; want[k] != NULL; k++)
        if (strncmp(wl_gen_name(g), want[k], strlen(want[k])) == 0)
          seen[k]++;
    }
    for (k = 0; want[k] != NULL; k++)
      assert_int_equal(seen[k], 1);
  }
  wl_gen_free(g);
}

/* Variants explore like their originals. */
static void test_variants(void **state) {
  wl_ctx *ctx = *state;
  wl_gen_opts o;
  int n;
  memset(&o, 0, sizeof o);
  o.mode = WL_GEN_RANDOM;
  o.seed = 11;
  o.count = 400;
  o.threads = 3;
  o.insns = 3;
  n = explore_all(ctx, &o, 1000, 1);
  assert_int_equal(n, 400);
  memset(&o, 0, sizeof o);
  o.mode = WL_GEN_FAMILY;
  o.family = "all";
  o.sample = 1;
  o.count = 200;
  assert_int_equal(explore_all(ctx, &o, 1000, 1), 200);
}

/* The map names what the variant renamed. */
static void test_variant_map(void **state) {
  wl_ctx *ctx = *state;
  wl_gen_opts o;
  wl_gen *g;
  wl_gen_map m;
  const char *text, *vt;
  size_t vlen;
  wl_litmus *t = NULL;
  int i, k, moved = 0;
  memset(&o, 0, sizeof o);
  o.mode = WL_GEN_FAMILY;
  o.family = "IRIW";
  g = gen_ok(ctx, &o);
  assert_int_equal(wl_gen_variant(g, 1, &vt, &vlen, &m), WL_EINVAL);
  assert_non_null(strstr(wl_ctx_errmsg(ctx), "wl_gen_next first"));
  assert_int_equal(wl_gen_next(g, &text, NULL), 0);
  for (i = 0; i < 20; i++) {
    int used[WL_GEN_MAX_THREADS] = {0};
    assert_int_equal(wl_gen_variant(g, (uint64_t)i, &vt, &vlen, &m), 0);
    assert_int_equal(m.nthreads, 4);
    assert_int_equal(m.nlocs, 2);
    for (k = 0; k < 4; k++) {
      assert_true(m.thread[k] >= 0 && m.thread[k] < 4);
      used[m.thread[k]]++;
      if (m.thread[k] != k)
        moved++;
    }
    for (k = 0; k < 4; k++)
      assert_int_equal(used[k], 1);
    assert_string_equal(m.loc[0][0], "x");
    assert_string_equal(m.loc[1][0], "y");
    assert_string_not_equal(m.loc[0][1], m.loc[1][1]);
    assert_int_equal(m.nregs[1], 2);
    assert_string_equal(m.reg[1][0][0], "r0");
    /* the variant's thread m.thread[1] reads the renamed locations */
    assert_int_equal(wl_litmus_parse(ctx, "v", vt, vlen, &t), 0);
    assert_int_equal(wl_litmus_nthreads(t), 4);
    assert_true(wl_litmus_location(t, m.loc[0][1]) >= 0);
    assert_true(wl_litmus_location(t, m.loc[1][1]) >= 0);
    wl_litmus_free(t);
  }
  assert_true(moved > 0);
  /* the same seed, the same variant; the stream is not disturbed */
  {
    char a[2048];
    const char *b;
    wl_gen *h = gen_ok(ctx, &o);
    const char *ht;
    assert_int_equal(wl_gen_variant(g, 5, &vt, NULL, NULL), 0);
    snprintf(a, sizeof a, "%s", vt);
    assert_int_equal(wl_gen_variant(g, 5, &b, NULL, NULL), 0);
    assert_string_equal(a, b);
    assert_int_equal(wl_gen_next(g, &text, NULL), 0);
    assert_int_equal(wl_gen_next(h, &ht, NULL), 0);
    assert_int_equal(wl_gen_next(h, &ht, NULL), 0);
    assert_string_equal(text, ht);
    wl_gen_free(h);
  }
  wl_gen_free(g);
}

static void expect_einval(wl_ctx *ctx, const wl_gen_opts *o, int code,
                          const char *what) {
  wl_gen *g = (wl_gen *)(uintptr_t)1;
  int r = wl_gen_new(ctx, o, &g);
  if (r != code)
    fail_msg("expected %s, got %s: %s", wl_err_name(code), wl_err_name(r),
             wl_ctx_errmsg(ctx));
  assert_null(g);
  if (strstr(wl_ctx_errmsg(ctx), what) == NULL)
    fail_msg("expected the message to say '%s': %s", what,
             wl_ctx_errmsg(ctx));
}

static void test_validation(void **state) {
  wl_ctx *ctx = *state;
  wl_gen_opts o;
  wl_gen *g = NULL;
  const char *text;
  memset(&o, 0, sizeof o);
  assert_int_equal(wl_gen_new(NULL, &o, &g), WL_EINVAL);
  assert_int_equal(wl_gen_new(ctx, &o, NULL), WL_EINVAL);
  expect_einval(ctx, NULL, WL_EINVAL, "opts is NULL");
  o.mode = 9;
  expect_einval(ctx, &o, WL_EINVAL, "wl_gen_opts.mode: 9");
  o.mode = WL_GEN_CYCLE;
  expect_einval(ctx, &o, WL_EINVAL, "wl_gen_opts.cycle: NULL");
  o.cycle = "PodWW Rfx PodRR Fre";
  expect_einval(ctx, &o, WL_EINVAL,
                "wl_gen_opts.cycle: edge 2 'Rfx' is not an edge");
  o.cycle = "PodWW Rfe DpAddrdR Fre";
  expect_einval(ctx, &o, WL_EUNSUPPORTED, "address dependencies");
  o.cycle = "PodWW Rfe PodWR Fre";
  expect_einval(ctx, &o, WL_EINVAL,
                "edge 2 'Rfe' ends at a read but edge 3 'PodWR' starts at "
                "a write");
  o.cycle = "PodWR Fre";
  expect_einval(ctx, &o, WL_EINVAL, "two external edges");
  o.cycle = "PodWW Rfe PodRR Rfe";
  expect_einval(ctx, &o, WL_EINVAL, "ends at a read");
  o.cycle = "Rfe Fre";
  expect_einval(ctx, &o, WL_EINVAL, "cyclic coherence order");
  o.cycle = "PodWR Fre PosWR Fre";
  expect_einval(ctx, &o, WL_EINVAL, "puts at one location");
  o.cycle = "";
  expect_einval(ctx, &o, WL_EINVAL, "wl_gen_opts.cycle: no edges");
  o.cycle = "PodWW Rfe PodRR Fre";
  o.sample = 2;
  expect_einval(ctx, &o, WL_EINVAL, "wl_gen_opts.sample: 2");
  o.sample = 0;
  o.annotations = 16;
  expect_einval(ctx, &o, WL_EINVAL, "wl_gen_opts.annotations");
  o.annotations = 0;
  o.placements = 0x100;
  expect_einval(ctx, &o, WL_EINVAL, "wl_gen_opts.placements");
  o.placements = 0;
  o.scopes = 8;
  expect_einval(ctx, &o, WL_EINVAL, "wl_gen_opts.scopes");
  o.scopes = 0;
  o.mode = WL_GEN_FAMILY;
  expect_einval(ctx, &o, WL_EINVAL, "wl_gen_opts.family: NULL");
  o.family = "XY";
  expect_einval(ctx, &o, WL_EINVAL,
                "wl_gen_opts.family: 'XY' is not a family (expected MP, SB");
  o.mode = WL_GEN_EDGES;
  o.max_size = 13;
  expect_einval(ctx, &o, WL_EINVAL, "wl_gen_opts.max_size: 13 is not in 3..12");
  o.max_size = 0;
  o.edges = "PodWW PodRR";
  expect_einval(ctx, &o, WL_EINVAL, "no cycle of 3..4 edges closes");
  o.mode = WL_GEN_RANDOM;
  o.threads = 9;
  expect_einval(ctx, &o, WL_EINVAL, "wl_gen_opts.threads: 9 is not in 1..8");
  o.threads = 2;
  o.insns = 17;
  expect_einval(ctx, &o, WL_EINVAL, "wl_gen_opts.insns");
  o.insns = 2;
  o.locs = -1;
  expect_einval(ctx, &o, WL_EINVAL, "wl_gen_opts.locs");
  o.locs = 0;
  o.mix = 256;
  expect_einval(ctx, &o, WL_EINVAL, "wl_gen_opts.mix");
  o.mix = 0;
  g = gen_ok(ctx, &o);
  assert_int_equal(wl_gen_next(NULL, &text, NULL), WL_EINVAL);
  assert_int_equal(wl_gen_next(g, NULL, NULL), WL_EINVAL);
  assert_int_equal(wl_gen_variant(NULL, 0, &text, NULL, NULL), WL_EINVAL);
  assert_string_equal(wl_gen_name(NULL), "");
  wl_gen_free(g);
  wl_gen_free(NULL);
  assert_null(wl_gen_family_cycle("nope"));
  assert_null(wl_gen_family_cycle(NULL));
}

/* The options' strings are copied. */
static void test_copies_strings(void **state) {
  wl_ctx *ctx = *state;
  wl_gen_opts o;
  wl_gen *g;
  char cyc[64];
  const char *text;
  memset(&o, 0, sizeof o);
  snprintf(cyc, sizeof cyc, "PodWR Fre PodWR Fre");
  o.mode = WL_GEN_CYCLE;
  o.cycle = cyc;
  g = gen_ok(ctx, &o);
  memset(cyc, 'Z', sizeof cyc - 1);
  assert_int_equal(wl_gen_next(g, &text, NULL), 0);
  assert_non_null(strstr(text, "cycle: PodWR Fre PodWR Fre"));
  wl_gen_free(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_deterministic, setup, teardown),
      cmocka_unit_test_setup_teardown(test_mp_text, setup, teardown),
      cmocka_unit_test_setup_teardown(test_classic_verdicts, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_enumeration, setup, teardown),
      cmocka_unit_test_setup_teardown(test_edges_default_all_explore, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_edges_wide_all_explore, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_random_all_explore, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_random_mix, setup, teardown),
      cmocka_unit_test_setup_teardown(test_variants, setup, teardown),
      cmocka_unit_test_setup_teardown(test_variant_map, setup, teardown),
      cmocka_unit_test_setup_teardown(test_validation, setup, teardown),
      cmocka_unit_test_setup_teardown(test_copies_strings, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
