/* test_sample.c -- the operational simulator and its histograms
 * (engine/sim/sample.c): determinism, both profiles against wl_explore,
 * the accessors, the litmus7-style text, errors, barriers, and fault
 * injection (the failing allocator of test_alloc.c). */
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

#define MAXV 64 /* values per outcome in these tests */

/* ---------------------------------------------------------------- */
/* Tests as text                                                     */

static const char sb_src[] =
    "PTX SB\n"
    "{ x=0; y=0; }\n"
    " P0@cta 0,gpu 0        | P1@cta 1,gpu 0        ;\n"
    " st.relaxed.gpu x, 1   | st.relaxed.gpu y, 1   ;\n"
    " ld.relaxed.gpu r0, y  | ld.relaxed.gpu r0, x  ;\n"
    "exists (P0:r0 == 0 /\\ P1:r0 == 0)\n";

static const char sb_fence_src[] =
    "PTX SB+fence.sc\n"
    "{ x=0; y=0; }\n"
    " P0@cta 0,gpu 0        | P1@cta 1,gpu 0        ;\n"
    " st.relaxed.gpu x, 1   | st.relaxed.gpu y, 1   ;\n"
    " fence.sc.gpu          | fence.sc.gpu          ;\n"
    " ld.relaxed.gpu r0, y  | ld.relaxed.gpu r0, x  ;\n"
    "exists (P0:r0 == 0 /\\ P1:r0 == 0)\n";

static const char mp_src[] = "PTX MP\n"
                             "{ x=0; y=0; }\n"
                             " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                             " st.weak x, 1   | ld.weak r1, y  ;\n"
                             " st.weak y, 1   | ld.weak r2, x  ;\n"
                             "exists (P1:r1 == 1 /\\ P1:r2 == 0)\n";

static const char lb_src[] = "PTX LB\n"
                             "{ x=0; y=0; }\n"
                             " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                             " ld.weak r0, x  | ld.weak r0, y  ;\n"
                             " st.weak y, 1   | st.weak x, 1   ;\n"
                             "exists (P0:r0 == 1 /\\ P1:r0 == 1)\n";

/* MP through a barrier of one CTA: the load after it sees the store. */
static const char mp_bar_src[] = "PTX MP-bar\n"
                                 "{ x=0; }\n"
                                 " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
                                 " st.weak x, 1   | bar.sync 0     ;\n"
                                 " bar.sync 0     | ld.weak r0, x  ;\n"
                                 "exists (P1:r0 == 0)\n";

/* Dat3M's PC-bar-sync-sync-3 shape: each thread waits at a barrier the
 * other never reaches first. */
static const char deadlock_src[] = "PTX PC-bar-sync-sync-3\n"
                                   "{ x=0; }\n"
                                   " P0@cta 0,gpu 0   | P1@cta 0,gpu 0   ;\n"
                                   " ld.weak r0, x    | bar.cta.sync 1   ;\n"
                                   " bar.cta.sync 0   | st.weak x, 1     ;\n"
                                   " bar.cta.sync 1   | bar.cta.sync 0   ;\n"
                                   "exists (P0:r0 == 1)\n";

/* A spin loop on a flag nobody sets. */
static const char spin_src[] = "PTX spin\n"
                               "{ x=0; flag=0; }\n"
                               " P0@cta 0,gpu 0 | P1@cta 1,gpu 0           ;\n"
                               " st.weak x, 1   | LC10:                    ;\n"
                               "                | ld.acquire.gpu r0, flag  ;\n"
                               "                | beq r0, 0, LC10          ;\n"
                               "exists (P1:r0 == 1)\n";

/* Many outcomes (more than the histogram's first 16 slots). */
static const char many_src[] =
    "PTX many\n"
    "{ x=0; y=0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 ;\n"
    " st.weak x, 1   | ld.weak r0, x  | ld.weak r0, y  ;\n"
    " st.weak y, 2   | ld.weak r1, y  | ld.weak r1, x  ;\n"
    " st.weak x, 3   |                |                ;\n"
    " st.weak y, 4   |                |                ;\n"
    "exists (P1:r0 == 3 /\\ P2:r0 == 0)\n";

/* Four threads storing and reading each other's locations: a few dozen
 * outcomes in 70 runs (the outcome index grows past 32), and a small
 * SC search. */
static const char four_src[] =
    "PTX four\n"
    "{ x=0; y=0; z=0; w=0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 | P3@cta 3,gpu 0 ;\n"
    " st.weak x, 1   | st.weak y, 1   | st.weak z, 1   | st.weak w, 1   ;\n"
    " ld.weak r0, y  | ld.weak r0, z  | ld.weak r0, w  | ld.weak r0, x  ;\n"
    " ld.weak r1, z  | ld.weak r1, w  | ld.weak r1, x  | ld.weak r1, y  ;\n"
    " ld.weak r2, w  | ld.weak r2, x  | ld.weak r2, y  | ld.weak r2, z  ;\n"
    "exists (x=1)\n";

/* ---------------------------------------------------------------- */
/* Helpers                                                           */

#define NT 4 /* tests and histograms a fixture holds */

typedef struct fixture {
  wl_ctx *ctx;
  wl_litmus *t[NT];
  wl_hist *h[NT];
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

/* Frees the histograms, the result and the tests (that order). */
static void reset(fixture *f) {
  int i;
  for (i = 0; i < NT; i++) {
    wl_hist_free(f->h[i]);
    f->h[i] = NULL;
  }
  wl_result_free(f->r);
  f->r = NULL;
  for (i = 0; i < NT; i++) {
    wl_litmus_free(f->t[i]);
    f->t[i] = NULL;
  }
}

static int teardown(void **state) {
  fixture *f = *state;
  reset(f);
  wl_ctx_free(f->ctx);
  free(f);
  return 0;
}

static wl_litmus *parse(fixture *f, int k, const char *src) {
  int r = wl_litmus_parse(f->ctx, "t.litmus", src, strlen(src), &f->t[k]);
  if (r != 0)
    fail_msg("parse: %s: %s", wl_err_name(r), wl_ctx_errmsg(f->ctx));
  return f->t[k];
}

static void opts_init(wl_sample_opts *o, int profile, uint64_t seed,
                      uint64_t first, uint64_t runs) {
  memset(o, 0, sizeof *o);
  o->profile = profile;
  o->seed = seed;
  o->first = first;
  o->runs = runs;
}

/* Samples f->t[tk] into f->h[hk]. */
static wl_hist *sample(fixture *f, int tk, int hk, int profile, uint64_t seed,
                       uint64_t first, uint64_t runs) {
  wl_sample_opts o;
  int r;
  opts_init(&o, profile, seed, first, runs);
  wl_hist_free(f->h[hk]);
  f->h[hk] = NULL;
  r = wl_sample(f->ctx, f->t[tk], &o, &f->h[hk]);
  if (r != 0)
    fail_msg("sample: %s: %s", wl_err_name(r), wl_ctx_errmsg(f->ctx));
  assert_non_null(f->h[hk]);
  assert_int_equal(wl_hist_runs(f->h[hk]), runs);
  return f->h[hk];
}

/* Histograms as sorted (values, count) rows. */
typedef struct row {
  int64_t v[MAXV];
  uint64_t count;
} row;

static int nv_cmp; /* values compared by row_cmp */

static int row_cmp(const void *a, const void *b) {
  const row *x = a, *y = b;
  int i;
  for (i = 0; i < nv_cmp; i++)
    if (x->v[i] != y->v[i])
      return x->v[i] < y->v[i] ? -1 : 1;
  return 0;
}

static row *rows_of(const wl_hist *h) {
  size_t n = wl_hist_noutcomes(h), i;
  int nv = wl_hist_nvars(h);
  row *rs = calloc(n + 1, sizeof *rs);
  assert_non_null(rs);
  assert_true(nv <= MAXV);
  for (i = 0; i < n; i++) {
    assert_int_equal(wl_hist_values(h, i, rs[i].v, nv), nv);
    rs[i].count = wl_hist_count(h, i);
  }
  nv_cmp = nv;
  qsort(rs, n, sizeof *rs, row_cmp);
  return rs;
}

/* 1 when a and b have the same outcomes with the same counts. */
static int hist_equal(const wl_hist *a, const wl_hist *b) {
  size_t n = wl_hist_noutcomes(a), i;
  int nv = wl_hist_nvars(a), eq = 1;
  row *ra, *rb;
  if (n != wl_hist_noutcomes(b) || nv != wl_hist_nvars(b) ||
      wl_hist_runs(a) != wl_hist_runs(b) || wl_hist_hung(a) != wl_hist_hung(b))
    return 0;
  ra = rows_of(a);
  rb = rows_of(b);
  for (i = 0; i < n && eq; i++)
    eq = memcmp(ra[i].v, rb[i].v, sizeof ra[i].v) == 0 &&
         ra[i].count == rb[i].count;
  free(ra);
  free(rb);
  return eq;
}

/* The index of the variable named name ("0:r0" style or a location). */
static int hvar(const wl_hist *h, const char *name) {
  int v;
  char buf[64];
  for (v = 0; v < wl_hist_nvars(h); v++) {
    int th = wl_hist_var_thread(h, v);
    if (th >= 0)
      snprintf(buf, sizeof buf, "%d:%s", th, wl_hist_var_name(h, v));
    else
      snprintf(buf, sizeof buf, "%s", wl_hist_var_name(h, v));
    if (strcmp(buf, name) == 0)
      return v;
  }
  fail_msg("no variable %s", name);
  return -1;
}

/* The outcome whose variables a and b hold va and vb, or -1. */
static long find_outcome(const wl_hist *h, const char *a, int64_t va,
                         const char *b, int64_t vb) {
  int ia = hvar(h, a), ib = hvar(h, b);
  size_t i;
  for (i = 0; i < wl_hist_noutcomes(h); i++) {
    int64_t v[MAXV];
    wl_hist_values(h, i, v, MAXV);
    if (v[ia] == va && v[ib] == vb)
      return (long)i;
  }
  return -1;
}

/* Every outcome of h is a final state of wl_explore on the same test. */
static void all_allowed(fixture *f, const wl_litmus *t, const wl_hist *h) {
  size_t i, s;
  int v, nv;
  wl_result_free(f->r);
  f->r = NULL;
  assert_int_equal(wl_explore(f->ctx, t, NULL, &f->r), 0);
  nv = wl_result_nvars(f->r);
  assert_int_equal(wl_hist_nvars(h), nv);
  for (v = 0; v < nv; v++) {
    assert_int_equal(wl_hist_var_thread(h, v), wl_result_var_thread(f->r, v));
    assert_string_equal(wl_hist_var_name(h, v), wl_result_var_name(f->r, v));
  }
  for (i = 0; i < wl_hist_noutcomes(h); i++) {
    int64_t vals[MAXV];
    int found = 0;
    assert_int_equal(wl_hist_values(h, i, vals, nv), nv);
    for (s = 0; s < wl_result_nstates(f->r) && !found; s++) {
      found = 1;
      for (v = 0; v < nv && found; v++)
        found = wl_result_value(f->r, s, v) == vals[v];
    }
    if (!found)
      fail_msg("%s: sampled outcome %zu is not allowed by the model",
               wl_litmus_name(t), i);
  }
}


/* The text of h (caller frees). */
static char *text_of(const wl_hist *h, int partial) {
  sbuf b = {NULL, 0, 0, 0, 0};
  assert_int_equal(wl_hist_write(h, partial, 0.0, sbuf_write, &b), 0);
  assert_non_null(b.p);
  return b.p;
}

/* The line of text that contains needle, or fails. */
static void has(const char *text, const char *needle) {
  if (strstr(text, needle) == NULL)
    fail_msg("'%s' not found in:\n%s", needle, text);
}

static void has_line(const char *text, const char *line) {
  size_t n = strlen(line);
  const char *p = text;
  while ((p = strstr(p, line)) != NULL) {
    if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
      return;
    p++;
  }
  fail_msg("line '%s' not found in:\n%s", line, text);
}

/* ---------------------------------------------------------------- */
/* Determinism                                                       */

static void test_same_seed_same_histogram(void **state) {
  fixture *f = *state;
  parse(f, 0, sb_src);
  sample(f, 0, 0, WL_PROFILE_WEAK, 42, 0, 4000);
  sample(f, 0, 1, WL_PROFILE_WEAK, 42, 0, 4000);
  assert_true(wl_hist_noutcomes(f->h[0]) > 1);
  assert_true(hist_equal(f->h[0], f->h[1]));
  /* the H100 profile too */
  sample(f, 0, 2, WL_PROFILE_H100, 7, 0, 2000);
  sample(f, 0, 3, WL_PROFILE_H100, 7, 0, 2000);
  assert_true(hist_equal(f->h[2], f->h[3]));
}

/* Outcomes that differ in one value only (the first, a middle or the
 * last of the final state) stay apart: sampling.c finds small outcomes
 * by a packed key before wl__hist_find, and a key that dropped or
 * mixed a value would merge them. */
static void test_outcomes_apart(void **state) {
  static const char *const src[] = {
      "PTX last\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | st.weak x, 2 ;\n"
      "exists (x=1)\n",
      "PTX first\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n ld.weak r0, x | st.weak x, 1 ;\n"
      " st.weak y, 1 | ;\nexists (0:r0=1)\n",
      "PTX middle\n{ x=0; y=0; z=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak y, 1 | st.weak y, 2 ;\n"
      " st.weak x, 1 | st.weak z, 1 ;\nexists (y=1)\n"};
  fixture *f = *state;
  int k;
  for (k = 0; k < 3; k++) {
    size_t i, j, n;
    uint64_t total = 0;
    int64_t a[16], b[16];
    parse(f, k, src[k]);
    sample(f, k, k, WL_PROFILE_WEAK, 5, 0, 2000);
    n = wl_hist_noutcomes(f->h[k]);
    if (n != 2)
      fail_msg("%s: %zu outcomes, expected 2", src[k], n);
    for (i = 0; i < n; i++) {
      int nv = wl_hist_values(f->h[k], i, a, 16);
      total += wl_hist_count(f->h[k], i);
      for (j = 0; j < i; j++) {
        wl_hist_values(f->h[k], j, b, 16);
        assert_true(memcmp(a, b, sizeof a[0] * (size_t)nv) != 0);
      }
    }
    assert_int_equal(total, 2000);
  }
}

static void test_different_seeds_differ(void **state) {
  fixture *f = *state;
  parse(f, 0, sb_src);
  sample(f, 0, 0, WL_PROFILE_WEAK, 1, 0, 20000);
  sample(f, 0, 1, WL_PROFILE_WEAK, 2, 0, 20000);
  assert_false(hist_equal(f->h[0], f->h[1]));
}

static void test_batches_equal_one_call(void **state) {
  fixture *f = *state;
  parse(f, 0, sb_src);
  sample(f, 0, 0, WL_PROFILE_WEAK, 99, 0, 10000);
  sample(f, 0, 1, WL_PROFILE_WEAK, 99, 0, 0); /* empty */
  assert_int_equal(wl_hist_noutcomes(f->h[1]), 0);
  assert_int_equal(wl_hist_hung(f->h[1]), 0);
  sample(f, 0, 2, WL_PROFILE_WEAK, 99, 0, 5000);
  assert_int_equal(wl_hist_merge(f->h[1], f->h[2]), 0);
  sample(f, 0, 2, WL_PROFILE_WEAK, 99, 5000, 5000);
  assert_int_equal(wl_hist_merge(f->h[1], f->h[2]), 0);
  assert_int_equal(wl_hist_runs(f->h[1]), 10000);
  assert_true(hist_equal(f->h[0], f->h[1]));
  /* and the texts are the same (outcomes sorted by value) */
  {
    char *a = text_of(f->h[0], 0), *b = text_of(f->h[1], 0);
    assert_string_equal(a, b);
    free(a);
    free(b);
  }
}

/* ---------------------------------------------------------------- */
/* Profiles against the model                                        */

static void test_profiles_shapes_allowed(void **state) {
  static const char *const srcs[] = {mp_src, sb_src, lb_src, sb_fence_src};
  static const int profs[] = {WL_PROFILE_WEAK, WL_PROFILE_H100};
  fixture *f = *state;
  size_t s, p;
  for (s = 0; s < sizeof srcs / sizeof srcs[0]; s++) {
    reset(f);
    parse(f, 0, srcs[s]);
    for (p = 0; p < 2; p++) {
      size_t i;
      uint64_t sum = 0;
      const wl_hist *h = sample(f, 0, 0, profs[p], 3 + p, 0, 3000);
      assert_int_equal(wl_hist_hung(h), 0);
      assert_true(wl_hist_noutcomes(h) >= 1);
      for (i = 0; i < wl_hist_noutcomes(h); i++)
        sum += wl_hist_count(h, i);
      assert_int_equal(sum, 3000);
      all_allowed(f, f->t[0], h);
    }
  }
}

static void test_sb_weak_seen(void **state) {
  fixture *f = *state;
  wl_hist *h;
  long w;
  size_t i;
  parse(f, 0, sb_src);
  h = sample(f, 0, 0, WL_PROFILE_WEAK, 5, 0, 20000);
  w = find_outcome(h, "0:r0", 0, "1:r0", 0);
  assert_true(w >= 0);
  assert_true(wl_hist_count(h, (size_t)w) > 0);
  assert_int_equal(wl_hist_sat(h, (size_t)w), 1);
  assert_int_equal(wl_hist_noutcomes(h), 4);
  for (i = 0; i < wl_hist_noutcomes(h); i++) {
    assert_int_equal(wl_hist_weak(h, i), (long)i == w ? 1 : 0);
    if ((long)i != w)
      assert_int_equal(wl_hist_sat(h, i), 0);
  }
  all_allowed(f, f->t[0], h);
}

static void test_sb_fence_sc_never_weak(void **state) {
  static const int profs[] = {WL_PROFILE_WEAK, WL_PROFILE_H100};
  fixture *f = *state;
  size_t p, i;
  parse(f, 0, sb_fence_src);
  for (p = 0; p < 2; p++) {
    wl_hist *h = sample(f, 0, 0, profs[p], 5, 0, 20000);
    assert_int_equal(find_outcome(h, "0:r0", 0, "1:r0", 0), -1);
    for (i = 0; i < wl_hist_noutcomes(h); i++) {
      assert_int_equal(wl_hist_sat(h, i), 0);
      assert_int_equal(wl_hist_weak(h, i), 0);
    }
    all_allowed(f, f->t[0], h);
  }
}

/* ---------------------------------------------------------------- */
/* Accessors                                                         */

static void test_accessors(void **state) {
  fixture *f = *state;
  wl_hist *h;
  size_t i, n;
  uint64_t sum = 0;
  int v, nv;
  int64_t vals[MAXV];
  parse(f, 0, sb_src);
  h = sample(f, 0, 0, WL_PROFILE_WEAK, 11, 0, 2000);
  n = wl_hist_noutcomes(h);
  assert_int_equal(wl_hist_runs(h), 2000);
  assert_int_equal(wl_hist_hung(h), 0);
  for (i = 0; i < n; i++) {
    assert_true(wl_hist_count(h, i) > 0);
    sum += wl_hist_count(h, i);
  }
  assert_int_equal(sum + wl_hist_hung(h), wl_hist_runs(h));
  /* registers of every thread, then locations: 0:r0 1:r0 x y */
  nv = wl_hist_nvars(h);
  assert_int_equal(nv, 4);
  assert_int_equal(wl_hist_var_thread(h, 0), 0);
  assert_int_equal(wl_hist_var_thread(h, 1), 1);
  assert_int_equal(wl_hist_var_thread(h, 2), -1);
  assert_int_equal(wl_hist_var_thread(h, 3), -1);
  assert_string_equal(wl_hist_var_name(h, 0), "r0");
  assert_string_equal(wl_hist_var_name(h, 1), "r0");
  assert_string_equal(wl_hist_var_name(h, 2), "x");
  assert_string_equal(wl_hist_var_name(h, 3), "y");
  assert_int_equal(wl_hist_var_thread(h, -1), -1);
  assert_int_equal(wl_hist_var_thread(h, nv), -1);
  assert_null(wl_hist_var_name(h, -1));
  assert_null(wl_hist_var_name(h, nv));
  assert_int_equal(wl_explore(f->ctx, f->t[0], NULL, &f->r), 0);
  assert_int_equal(wl_result_nvars(f->r), nv);
  for (v = 0; v < nv; v++) {
    assert_int_equal(wl_hist_var_thread(h, v), wl_result_var_thread(f->r, v));
    assert_string_equal(wl_hist_var_name(h, v), wl_result_var_name(f->r, v));
  }
  /* values: n smaller than nvars copies n, larger copies nvars */
  for (v = 0; v < MAXV; v++)
    vals[v] = -77;
  assert_int_equal(wl_hist_values(h, 0, vals, 2), 2);
  assert_int_equal(vals[2], -77);
  assert_true(vals[0] == 0 || vals[0] == 1);
  assert_int_equal(wl_hist_values(h, 0, vals, MAXV), nv);
  assert_int_equal(vals[2], 1); /* x = 1 at the end */
  assert_int_equal(vals[3], 1);
  assert_int_equal(vals[nv], -77);
  assert_int_equal(wl_hist_values(h, 0, vals, 0), 0);
  assert_int_equal(wl_hist_values(h, n, vals, nv), WL_EINVAL);
  assert_int_equal(wl_hist_values(h, 0, NULL, nv), WL_EINVAL);
  assert_int_equal(wl_hist_values(h, 0, vals, -1), WL_EINVAL);
  assert_int_equal(wl_hist_values(NULL, 0, vals, nv), WL_EINVAL);
  /* out of range */
  assert_int_equal(wl_hist_count(h, n), 0);
  assert_int_equal(wl_hist_sat(h, n), 0);
  assert_int_equal(wl_hist_weak(h, n), -1);
  assert_int_equal(wl_hist_weak(h, (size_t)-1), -1);
  assert_int_equal(wl_hist_weak(NULL, 0), -1);
  assert_int_equal(wl_hist_set_sat(h, n, 1), WL_EINVAL);
  assert_int_equal(wl_hist_set_sat(NULL, 0, 1), WL_EINVAL);
  assert_int_equal(wl_hist_set_condition(h, 99, "x"), WL_EINVAL);
  assert_int_equal(wl_hist_set_condition(h, -1, "x"), WL_EINVAL);
  assert_int_equal(wl_hist_set_condition(NULL, WL_COND_EXISTS, "x"), WL_EINVAL);
  /* NULL histogram */
  assert_int_equal(wl_hist_runs(NULL), 0);
  assert_int_equal(wl_hist_hung(NULL), 0);
  assert_int_equal(wl_hist_noutcomes(NULL), 0);
  assert_int_equal(wl_hist_count(NULL, 0), 0);
  assert_int_equal(wl_hist_nvars(NULL), 0);
  assert_null(wl_hist_var_name(NULL, 0));
  wl_hist_free(NULL);
}

/* wl_hist_set_sat + wl_hist_set_condition change the verdict, the marks
 * and the condition line. */
static void test_set_condition(void **state) {
  fixture *f = *state;
  wl_hist *h;
  size_t i, n;
  uint64_t pos = 0, neg = 0;
  char *text, line[128];
  parse(f, 0, sb_src);
  h = sample(f, 0, 0, WL_PROFILE_WEAK, 5, 0, 2000);
  n = wl_hist_noutcomes(h);
  assert_true(n >= 2);
  /* forall (x): holds everywhere but in outcome 0 */
  for (i = 0; i < n; i++) {
    assert_int_equal(wl_hist_set_sat(h, i, i == 0 ? 0 : 7), 0);
    assert_int_equal(wl_hist_sat(h, i), i == 0 ? 0 : 1);
    if (i == 0)
      neg += wl_hist_count(h, i);
    else
      pos += wl_hist_count(h, i);
  }
  assert_int_equal(wl_hist_set_condition(h, WL_COND_FORALL, "(x)"), 0);
  text = text_of(h, 0);
  has_line(text, "Test SB Required");
  has_line(text, "Condition forall (x) is NOT validated");
  has_line(text, "No");
  snprintf(line, sizeof line, "Positive: %llu, Negative: %llu",
           (unsigned long long)pos, (unsigned long long)neg);
  has_line(text, line);
  /* one ':>' line (outcome 0), the others '*>' */
  {
    const char *p;
    int star = 0, colon = 0;
    for (p = text; (p = strstr(p, "*>")) != NULL; p++)
      star++;
    for (p = text; (p = strstr(p, ":>")) != NULL; p++)
      colon++;
    assert_int_equal(colon, 1);
    assert_int_equal((size_t)star, n - 1);
  }
  free(text);
  /* every outcome true: validated, Ok */
  for (i = 0; i < n; i++)
    assert_int_equal(wl_hist_set_sat(h, i, 1), 0);
  text = text_of(h, 0);
  has_line(text, "Condition forall (x) is validated");
  has_line(text, "Ok");
  assert_null(strstr(text, ":>"));
  free(text);
  /* ~exists with nothing true: Forbidden, Ok, Never */
  for (i = 0; i < n; i++)
    assert_int_equal(wl_hist_set_sat(h, i, 0), 0);
  assert_int_equal(wl_hist_set_condition(h, WL_COND_NOTEXISTS, "(y == 5)"), 0);
  text = text_of(h, 0);
  has_line(text, "Test SB Forbidden");
  has_line(text, "Condition ~exists (y == 5) is validated");
  has_line(text, "Ok");
  has(text, "Observation SB Never 0 2000");
  assert_null(strstr(text, "*>"));
  free(text);
  /* NULL text: the test's own condition text again */
  assert_int_equal(wl_hist_set_condition(h, WL_COND_EXISTS, NULL), 0);
  text = text_of(h, 0);
  has_line(text, "Test SB Allowed");
  has(text, "Condition exists (P0:r0 == 0 /\\ P1:r0 == 0) is NOT validated");
  has_line(text, "No");
  free(text);
}

/* ---------------------------------------------------------------- */
/* Text                                                              */

static int sink_stop(void *ud, const char *s, size_t n) {
  (void)ud;
  (void)s;
  (void)n;
  return 1;
}

static void test_write_text(void **state) {
  fixture *f = *state;
  wl_hist *h;
  size_t i;
  uint64_t pos = 0, neg = 0;
  long w;
  char *text, line[256];
  parse(f, 0, sb_src);
  h = sample(f, 0, 0, WL_PROFILE_WEAK, 5, 0, 20000);
  w = find_outcome(h, "0:r0", 0, "1:r0", 0);
  assert_true(w >= 0);
  for (i = 0; i < wl_hist_noutcomes(h); i++) {
    if (wl_hist_sat(h, i))
      pos += wl_hist_count(h, i);
    else
      neg += wl_hist_count(h, i);
  }
  assert_int_equal(pos, wl_hist_count(h, (size_t)w));
  text = text_of(h, 1);
  has_line(text, "Test SB Allowed");
  has_line(text, "Histogram (4 states)");
  snprintf(line, sizeof line, "%-10llu*>0:r0=0; 1:r0=0; x=1; y=1; weak",
           (unsigned long long)pos);
  has_line(text, line);
  has(text, ":>0:r0=0; 1:r0=1; x=1; y=1;\n");
  has(text, ":>0:r0=1; 1:r0=0; x=1; y=1;\n");
  has(text, ":>0:r0=1; 1:r0=1; x=1; y=1;\n");
  /* " weak" on that line only */
  assert_null(strstr(strstr(text, " weak") + 1, " weak"));
  has_line(text, "Ok");
  has_line(text, "Witnesses");
  snprintf(line, sizeof line, "Positive: %llu, Negative: %llu",
           (unsigned long long)pos, (unsigned long long)neg);
  has_line(text, line);
  has_line(text, "Condition exists (P0:r0 == 0 /\\ P1:r0 == 0) is validated");
  snprintf(line, sizeof line, "Observation SB Sometimes %llu %llu",
           (unsigned long long)pos, (unsigned long long)neg);
  has_line(text, line);
  has_line(text, "Partial SB: interrupted after 20000 runs");
  has_line(text, "Time SB 0.00");
  assert_null(strstr(text, "Hung"));
  free(text);
  text = text_of(h, 0);
  assert_null(strstr(text, "Partial"));
  free(text);
  /* a sink that stops the output */
  assert_int_equal(wl_hist_write(h, 0, 0.0, sink_stop, NULL), WL_EIO);
  has(wl_ctx_errmsg(f->ctx), "the writer stopped the output");
  /* the JSON form: the result's names, every outcome as its values */
  {
    sbuf j = {NULL, 0, 0, 0, 0};
    assert_int_equal(wl_hist_write_json(h, 1, 0.0, sbuf_write, &j), 0);
    has(j.p, "{\"test\": \"SB\", \"file\": \"t.litmus\", \"kind\": "
             "\"exists\", \"condition\": \"(P0:r0 == 0 /\\\\ P1:r0 == 0)\", "
             "\"ok\": true, \"verdict\": 1, ");
    snprintf(line, sizeof line,
             "\"positive\": %llu, \"negative\": %llu, \"runs\": 20000, "
             "\"hung\": 0, \"partial\": true, \"weak_known\": true, ",
             (unsigned long long)pos, (unsigned long long)neg);
    has(j.p, line);
    has(j.p, "\"variables\": [\"0:r0\", \"1:r0\", \"x\", \"y\"]");
    snprintf(line, sizeof line,
             "{\"values\": {\"0:r0\": 0, \"1:r0\": 0, \"x\": 1, \"y\": 1}, "
             "\"count\": %llu, \"condition\": true, \"weak\": true}",
             (unsigned long long)pos);
    has(j.p, line);
    has(j.p, "{\"values\": {\"0:r0\": 1, \"1:r0\": 1, \"x\": 1, \"y\": 1}, ");
    assert_int_equal(j.p[j.n - 1], '\n');
    free(j.p);
    assert_int_equal(wl_hist_write_json(h, 0, 0.0, sink_stop, NULL), WL_EIO);
    assert_int_equal(wl_hist_write_json(h, 0, 0.0, NULL, NULL), WL_EINVAL);
    assert_int_equal(wl_hist_write_json(NULL, 0, 0.0, sbuf_write, NULL),
                     WL_EINVAL);
  }
  assert_int_equal(wl_hist_write(h, 0, 0.0, NULL, NULL), WL_EINVAL);
  assert_int_equal(wl_hist_write(NULL, 0, 0.0, sbuf_write, NULL), WL_EINVAL);
}

static void test_write_hung(void **state) {
  fixture *f = *state;
  wl_sample_opts o;
  wl_hist *h;
  char *text;
  parse(f, 0, spin_src);
  opts_init(&o, WL_PROFILE_WEAK, 1, 0, 50);
  o.max_steps = 200;
  assert_int_equal(wl_sample(f->ctx, f->t[0], &o, &f->h[0]), 0);
  h = f->h[0];
  assert_int_equal(wl_hist_runs(h), 50);
  assert_int_equal(wl_hist_hung(h), 50);
  assert_int_equal(wl_hist_noutcomes(h), 0);
  text = text_of(h, 0);
  has_line(text, "Histogram (0 states)");
  has_line(text, "Hung spin 50 of 50 runs did not terminate");
  has_line(text, "Observation spin Never 0 0");
  has_line(text, "No");
  free(text);
}

/* ---------------------------------------------------------------- */
/* Errors                                                            */

static int stop_now(void *ud) {
  int *calls = ud;
  (*calls)++;
  return 1;
}

/* Stops at its second poll: after 256 runs. */
static int stop_second(void *ud) {
  int *calls = ud;
  return ++*calls >= 2;
}

static void test_errors(void **state) {
  fixture *f = *state;
  wl_sample_opts o;
  wl_hist *h = (wl_hist *)(uintptr_t)1;
  int calls = 0;
  parse(f, 0, sb_src);
  opts_init(&o, WL_PROFILE_WEAK, 1, 0, 100);
  assert_int_equal(wl_sample(NULL, f->t[0], &o, &h), WL_EINVAL);
  assert_int_equal(wl_sample(f->ctx, NULL, &o, &h), WL_EINVAL);
  assert_int_equal(wl_sample(f->ctx, f->t[0], NULL, &h), WL_EINVAL);
  assert_int_equal(wl_sample(f->ctx, f->t[0], &o, NULL), WL_EINVAL);
  /* unknown profiles */
  o.profile = 2;
  assert_int_equal(wl_sample(f->ctx, f->t[0], &o, &h), WL_EINVAL);
  assert_null(h);
  has(wl_ctx_errmsg(f->ctx), "unknown profile 2");
  o.profile = -1;
  assert_int_equal(wl_sample(f->ctx, f->t[0], &o, &h), WL_EINVAL);
  /* merge: NULL, and histograms of different tests */
  parse(f, 1, mp_src);
  sample(f, 0, 0, WL_PROFILE_WEAK, 1, 0, 100);
  sample(f, 1, 1, WL_PROFILE_WEAK, 1, 0, 100);
  assert_int_equal(wl_hist_merge(f->h[0], f->h[1]), WL_EINVAL);
  assert_int_equal(wl_hist_runs(f->h[0]), 100);
  assert_int_equal(wl_hist_merge(NULL, f->h[1]), WL_EINVAL);
  assert_int_equal(wl_hist_merge(f->h[0], NULL), WL_EINVAL);
  /* the same text parsed twice is two tests */
  parse(f, 2, sb_src);
  sample(f, 2, 2, WL_PROFILE_WEAK, 1, 0, 100);
  assert_int_equal(wl_hist_merge(f->h[0], f->h[2]), WL_EINVAL);
  /* should_stop: the histogram of the runs done */
  opts_init(&o, WL_PROFILE_WEAK, 1, 0, 1000);
  o.should_stop = stop_now;
  o.stop_ud = &calls;
  h = (wl_hist *)(uintptr_t)1;
  assert_int_equal(wl_sample(f->ctx, f->t[0], &o, &h), WL_ESTOPPED);
  assert_non_null(h);
  assert_int_equal(calls, 1);
  assert_int_equal(wl_hist_runs(h), 0);
  assert_int_equal(wl_hist_noutcomes(h), 0);
  has(wl_ctx_errmsg(f->ctx), "SB: sampling stopped after 0 runs");
  wl_hist_free(h);
  /* runs drawn from the exact law poll between slices of 16,384 */
  calls = 0;
  o.should_stop = stop_second;
  o.runs = 100000; /* (the law of SB: 1,120 states, under runs/64) */
  h = NULL;
  assert_int_equal(wl_sample(f->ctx, f->t[0], &o, &h), WL_ESTOPPED);
  assert_non_null(h);
  assert_int_equal(wl_hist_runs(h), 16384);
  {
    uint64_t sum = wl_hist_hung(h);
    size_t i;
    for (i = 0; i < wl_hist_noutcomes(h); i++)
      sum += wl_hist_count(h, i);
    assert_int_equal(sum, 16384);
  }
  wl_hist_free(h);
  /* step by step, every 256 runs */
  calls = 0;
  o.runs = 1000;
  o.step = 1;
  h = NULL;
  assert_int_equal(wl_sample(f->ctx, f->t[0], &o, &h), WL_ESTOPPED);
  assert_non_null(h);
  assert_int_equal(wl_hist_runs(h), 256);
  {
    uint64_t sum = wl_hist_hung(h);
    size_t i;
    char *text;
    for (i = 0; i < wl_hist_noutcomes(h); i++)
      sum += wl_hist_count(h, i);
    assert_int_equal(sum, 256);
    text = text_of(h, 1);
    has_line(text, "Partial SB: interrupted after 256 runs");
    free(text);
  }
  wl_hist_free(h);
}

/* ---------------------------------------------------------------- */
/* Callback threads                                                  */

/* The reader of MP as a callback: r0 = y, r1 = x (weak loads). */
static int cb_mp_reader(void *ud, wl_tb *tb) {
  int64_t a = 0, b = 0;
  int rc;
  (void)ud;
  if ((rc = wl_tb_load(tb, 1, WL_SEM_WEAK, WL_SCOPE_NONE, 3, &a)) != 0 ||
      (rc = wl_tb_load(tb, 0, WL_SEM_WEAK, WL_SCOPE_NONE, 4, &b)) != 0 ||
      (rc = wl_tb_result(tb, "r0", a)) != 0)
    return rc;
  return wl_tb_result(tb, "r1", b);
}

/* Counts its calls; fails on the first call that reads x == 1. */
static int cb_fails(void *ud, wl_tb *tb) {
  int64_t v = 0;
  int rc = wl_tb_load(tb, 0, WL_SEM_WEAK, WL_SCOPE_NONE, 7, &v);
  (*(int *)ud)++;
  if (rc != 0)
    return rc;
  return v == 1 ? wl_tb_fail(tb, WL_EINVAL, "t.lua:7: x was 1") : 0;
}

/* Stores to x, then to y on every other call: not deterministic. */
static int cb_flaky(void *ud, wl_tb *tb) {
  int *calls = ud;
  int64_t v = 0;
  int rc = wl_tb_store(tb, (*calls)++ % 2, 1, WL_SEM_WEAK, WL_SCOPE_NONE, 9);
  if (rc != 0)
    return rc;
  return wl_tb_load(tb, 0, WL_SEM_WEAK, WL_SCOPE_NONE, 10, &v);
}

/* MP across CTAs: P0 "st.weak x, 1; st.weak y, 1", P1 the callback. */
static wl_litmus *mp_callback(fixture *f, int k, wl_thread_fn fn, void *ud) {
  wl_litmus *t;
  int idx;
  assert_int_equal(wl_litmus_new(f->ctx, "CB", &f->t[k]), 0);
  t = f->t[k];
  assert_int_equal(wl_litmus_add_location(t, "x", 0, NULL), 0);
  assert_int_equal(wl_litmus_add_location(t, "y", 0, NULL), 0);
  assert_int_equal(wl_litmus_add_thread(t, 0, 0, &idx), 0);
  assert_int_equal(wl_litmus_add_thread(t, 1, 0, &idx), 0);
  assert_int_equal(wl_litmus_add_insn(t, 0, "st.weak x, 1", "t.lua", 1), 0);
  assert_int_equal(wl_litmus_add_insn(t, 0, "st.weak y, 1", "t.lua", 2), 0);
  assert_int_equal(wl_litmus_set_thread_fn(t, 1, fn, ud), 0);
  return t;
}

static void test_callback_thread(void **state) {
  fixture *f = *state;
  wl_litmus *t = mp_callback(f, 0, cb_mp_reader, NULL);
  wl_hist *h, *a, *b;
  long weak;
  int nv;
  /* the results are the callback's registers, after P0's none */
  h = sample(f, 0, 0, WL_PROFILE_WEAK, 11, 0, 20000);
  assert_int_equal(wl_hist_runs(h), 20000);
  assert_int_equal(wl_hist_hung(h), 0);
  nv = wl_hist_nvars(h);
  assert_int_equal(nv, 4);
  assert_string_equal(wl_hist_var_name(h, 0), "r0");
  assert_int_equal(wl_hist_var_thread(h, 0), 1);
  assert_string_equal(wl_hist_var_name(h, 1), "r1");
  assert_string_equal(wl_hist_var_name(h, 2), "x");
  assert_int_equal(wl_hist_var_thread(h, 2), -1);
  /* deterministic: the same seed again, and in two batches merged */
  a = sample(f, 0, 1, WL_PROFILE_WEAK, 11, 0, 20000);
  assert_true(hist_equal(h, a));
  /* an empty histogram (no result names yet) merges the batches */
  a = sample(f, 0, 1, WL_PROFILE_WEAK, 11, 0, 0);
  assert_int_equal(wl_hist_nvars(a), 2);
  b = sample(f, 0, 2, WL_PROFILE_WEAK, 11, 0, 7000);
  assert_int_equal(wl_hist_merge(a, b), 0);
  b = sample(f, 0, 2, WL_PROFILE_WEAK, 11, 7000, 13000);
  assert_int_equal(wl_hist_merge(a, b), 0);
  assert_true(hist_equal(h, a));
  /* the MP outcome across CTAs, marked weak; r0 = 0 outcomes are not */
  weak = find_outcome(h, "1:r0", 1, "1:r1", 0);
  assert_true(weak >= 0);
  assert_int_equal(wl_hist_weak(h, (size_t)weak), 1);
  weak = find_outcome(h, "1:r0", 0, "1:r1", 0);
  assert_true(weak >= 0);
  assert_int_equal(wl_hist_weak(h, (size_t)weak), 0);
  /* every outcome is allowed (explore names the results the same) */
  all_allowed(f, t, h);
}

static void test_callback_errors(void **state) {
  fixture *f = *state;
  wl_sample_opts o;
  wl_hist *h = (wl_hist *)(uintptr_t)1;
  int calls = 0;
  wl_litmus *t = mp_callback(f, 0, cb_fails, &calls);
  opts_init(&o, WL_PROFILE_WEAK, 1, 0, 1000);
  assert_int_equal(wl_sample(f->ctx, t, &o, &h), WL_EINVAL);
  assert_null(h);
  has(wl_ctx_errmsg(f->ctx), "thread P1: t.lua:7: x was 1");
  assert_true(calls > 0);
  calls = 0;
  t = mp_callback(f, 1, cb_flaky, &calls);
  assert_int_equal(wl_sample(f->ctx, t, &o, &h), WL_EINVAL);
  assert_null(h);
  has(wl_ctx_errmsg(f->ctx), "thread P1 is not deterministic");
}

/* ---------------------------------------------------------------- */
/* Barriers                                                          */

static void test_barrier_mp_never_stale(void **state) {
  static const int profs[] = {WL_PROFILE_WEAK, WL_PROFILE_H100};
  fixture *f = *state;
  size_t p;
  parse(f, 0, mp_bar_src);
  for (p = 0; p < 2; p++) {
    wl_hist *h = sample(f, 0, 0, profs[p], 9, 0, 5000);
    assert_int_equal(wl_hist_hung(h), 0);
    assert_int_equal(wl_hist_noutcomes(h), 1);
    assert_int_equal(wl_hist_count(h, 0), 5000);
    assert_int_equal(wl_hist_sat(h, 0), 0);
    {
      int64_t v[MAXV];
      wl_hist_values(h, 0, v, MAXV);
      assert_int_equal(v[hvar(h, "1:r0")], 1);
    }
    all_allowed(f, f->t[0], h);
  }
}

static void test_barrier_deadlock_hangs(void **state) {
  static const int profs[] = {WL_PROFILE_WEAK, WL_PROFILE_H100};
  fixture *f = *state;
  size_t p;
  parse(f, 0, deadlock_src);
  for (p = 0; p < 2; p++) {
    wl_hist *h = sample(f, 0, 0, profs[p], 9, 0, 500);
    char *text;
    assert_int_equal(wl_hist_hung(h), wl_hist_runs(h));
    assert_int_equal(wl_hist_noutcomes(h), 0);
    text = text_of(h, 0);
    has_line(text, "Hung PC-bar-sync-sync-3 500 of 500 runs did not terminate");
    free(text);
  }
}

/* ---------------------------------------------------------------- */
/* Weak marks                                                        */

/* One thread counting to 150 and storing: sequential code, so its one
 * outcome is not weak.  Local steps cost the SC search no depth (they
 * run eagerly), so the search sees the loop through: 0.  (The old
 * search stopped at depth 200 and answered -1; a cut must never read
 * as "weak".) */
static void test_weak_long_sequential_run(void **state) {
  static const char src[] = "PTX count150\n"
                            "{ x=0; P0:r1=0; }\n"
                            " P0@cta 0,gpu 0 ;\n"
                            " LC00: ;\n"
                            " add r1, r1, 1 ;\n"
                            " bne r1, 150, LC00 ;\n"
                            " st.weak x, r1 ;\n"
                            "exists (x == 150)\n";
  fixture *f = *state;
  wl_hist *h;
  parse(f, 0, src);
  h = sample(f, 0, 0, WL_PROFILE_WEAK, 1, 0, 10);
  assert_int_equal(wl_hist_hung(h), 0);
  assert_int_equal(wl_hist_noutcomes(h), 1);
  assert_int_equal(wl_hist_weak(h, 0), 0);
  assert_int_equal(wl_hist_weak_known(h), 1);
}

/* A loop of 2,100 stores: each is a visible step, past the SC search's
 * depth (2,000), so the search is cut and the answer is "unknown" (-1),
 * never "weak" (a bug once: the depth cut was not recorded). */
static void test_weak_deep_run_unknown(void **state) {
  static const char src[] = "PTX store2100\n"
                            "{ x=0; P0:r1=0; }\n"
                            " P0@cta 0,gpu 0 ;\n"
                            " LC00: ;\n"
                            " add r1, r1, 1 ;\n"
                            " st.weak x, r1 ;\n"
                            " bne r1, 2100, LC00 ;\n"
                            "exists (x == 2100)\n";
  fixture *f = *state;
  wl_sample_opts o;
  wl_hist *h;
  parse(f, 0, src);
  opts_init(&o, WL_PROFILE_H100, 1, 0, 3);
  o.max_steps = 1000000; /* 2,100 stores take more than the default */
  wl_hist_free(f->h[0]);
  f->h[0] = NULL;
  assert_int_equal(wl_sample(f->ctx, f->t[0], &o, &f->h[0]), 0);
  h = f->h[0];
  assert_int_equal(wl_hist_hung(h), 0);
  assert_int_equal(wl_hist_noutcomes(h), 1);
  assert_int_equal(wl_hist_weak(h, 0), -1);
  assert_int_equal(wl_hist_weak_known(h), 0);
}

/* A short loop is searched to the end: its outcome is SC. */
static void test_weak_short_loop(void **state) {
  static const char src[] = "PTX count5\n"
                            "{ x=0; P0:r1=0; }\n"
                            " P0@cta 0,gpu 0 ;\n"
                            " LC00: ;\n"
                            " add r1, r1, 1 ;\n"
                            " bne r1, 5, LC00 ;\n"
                            " st.weak x, r1 ;\n"
                            "exists (x == 5)\n";
  fixture *f = *state;
  wl_hist *h;
  char *text;
  parse(f, 0, src);
  h = sample(f, 0, 0, WL_PROFILE_H100, 1, 0, 10);
  assert_int_equal(wl_hist_noutcomes(h), 1);
  assert_int_equal(wl_hist_weak(h, 0), 0);
  text = text_of(h, 0);
  has_line(text, "10        *>0:r1=5; x=5;");
  free(text);
}

/* Merging adds outcomes: the weak marks are recomputed for them. */
static void test_weak_after_merge(void **state) {
  fixture *f = *state;
  wl_hist *a, *b;
  long w;
  size_t i;
  parse(f, 0, sb_src);
  a = sample(f, 0, 0, WL_PROFILE_WEAK, 5, 0, 1);
  assert_int_equal(wl_hist_noutcomes(a), 1);
  assert_true(wl_hist_weak(a, 0) >= 0); /* computed for one outcome */
  b = sample(f, 0, 1, WL_PROFILE_WEAK, 5, 1, 20000);
  assert_int_equal(wl_hist_merge(a, b), 0);
  assert_int_equal(wl_hist_noutcomes(a), 4);
  w = find_outcome(a, "0:r0", 0, "1:r0", 0);
  assert_true(w >= 0);
  for (i = 0; i < 4; i++)
    assert_int_equal(wl_hist_weak(a, i), (long)i == w ? 1 : 0);
}

/* ---------------------------------------------------------------- */
/* Many distinct outcomes                                            */

/* A test whose runs nearly all differ: 5 threads in 5 CTAs, each
 * storing its location twice and reading the 4 others after each store
 * (5 * 8 registers + 5 locations = 45 values, within MAXV). */
static char *wide_src(void) {
  enum { N = 5 };
  static char src[4096];
  size_t n = 0;
  int i, j, r, k;
  n += (size_t)snprintf(src + n, sizeof src - n, "PTX wide\n{");
  for (i = 0; i < N; i++)
    n += (size_t)snprintf(src + n, sizeof src - n, " x%d=0;", i);
  n += (size_t)snprintf(src + n, sizeof src - n, " }\n");
  for (i = 0; i < N; i++)
    n += (size_t)snprintf(src + n, sizeof src - n, "%sP%d@cta %d,gpu 0",
                          i ? " | " : " ", i, i);
  n += (size_t)snprintf(src + n, sizeof src - n, " ;\n");
  /* row k of thread i: st x_i, k/5+1 at k = 0 and 5, else a load */
  for (k = 0; k < 2 * N; k++) {
    for (i = 0; i < N; i++) {
      const char *sep = i ? " | " : " ";
      if (k % N == 0) {
        n += (size_t)snprintf(src + n, sizeof src - n, "%sst.weak x%d, %d",
                              sep, i, k / N + 1);
      } else {
        j = (i + k % N) % N;
        r = k - 1 - k / N;
        n += (size_t)snprintf(src + n, sizeof src - n, "%sld.weak r%d, x%d",
                              sep, r, j);
      }
    }
    n += (size_t)snprintf(src + n, sizeof src - n, " ;\n");
  }
  snprintf(src + n, sizeof src - n, "exists (x0=2)\n");
  return src;
}

/* Thousands of distinct outcomes: merged from batches, the histogram is
 * the one of a single call, and the text the same, written in pieces.
 * (Outcomes are found through a hash index: a linear search made a
 * sampling with tens of thousands of outcomes take minutes.) */
static void test_many_outcomes_merge(void **state) {
  fixture *f = *state;
  size_t n;
  int b;
  char *a;
  sbuf t = {NULL, 0, 0, 0, 0};
  parse(f, 0, wide_src());
  sample(f, 0, 0, WL_PROFILE_WEAK, 7, 0, 40000);
  n = wl_hist_noutcomes(f->h[0]);
  assert_true(n > 10000);
  sample(f, 0, 1, WL_PROFILE_WEAK, 7, 0, 0);
  for (b = 0; b < 8; b++) {
    sample(f, 0, 2, WL_PROFILE_WEAK, 7, (uint64_t)b * 5000, 5000);
    assert_int_equal(wl_hist_merge(f->h[1], f->h[2]), 0);
  }
  /* merging a histogram into a copy of itself doubles every count */
  assert_true(hist_equal(f->h[0], f->h[1]));
  a = text_of(f->h[0], 0);
  assert_int_equal(wl_hist_write(f->h[1], 0, 0.0, sbuf_write, &t), 0);
  assert_string_equal(a, t.p);
  assert_true(t.calls > 1); /* in pieces */
  free(t.p);
  /* a writer that stops ends the output with WL_EIO */
  memset(&t, 0, sizeof t);
  t.fail_at = 2;
  assert_int_equal(wl_hist_write(f->h[1], 0, 0.0, sbuf_write, &t), WL_EIO);
  assert_true(t.n < strlen(a));
  free(t.p);
  /* the JSON in pieces too, and stopped the same way */
  memset(&t, 0, sizeof t);
  assert_int_equal(wl_hist_write_json(f->h[1], 0, 0.0, sbuf_write, &t), 0);
  assert_true(t.calls > 1);
  free(t.p);
  memset(&t, 0, sizeof t);
  t.fail_at = 2;
  assert_int_equal(wl_hist_write_json(f->h[1], 0, 0.0, sbuf_write, &t),
                   WL_EIO);
  free(t.p);
  free(a);
  assert_int_equal(wl_hist_merge(f->h[1], f->h[0]), 0);
  assert_int_equal(wl_hist_noutcomes(f->h[1]), n);
  assert_int_equal(wl_hist_runs(f->h[1]), 80000);
  assert_int_equal(wl_hist_count(f->h[1], 0), 2 * wl_hist_count(f->h[0], 0));
}

static int stop_calls;
static int stop_search(void *ud) {
  (void)ud;
  stop_calls++;
  return 1;
}

/* wl_hist_set_stop ends the SC search early (no outcome called weak, and
 * nothing kept: without the hook the search runs again). */
static void test_hist_stop(void **state) {
  fixture *f = *state;
  wl_hist *h;
  size_t i;
  int weak = 0;
  parse(f, 0, four_src);
  h = sample(f, 0, 0, WL_PROFILE_WEAK, 7, 0, 300);
  stop_calls = 0;
  wl_hist_set_stop(h, stop_search, NULL);
  assert_int_equal(wl_hist_weak(h, 0), -1);
  assert_true(stop_calls >= 1);
  {
    char *t = text_of(h, 0);
    assert_null(strstr(t, " weak\n"));
    free(t);
  }
  wl_hist_set_stop(h, NULL, NULL);
  for (i = 0; i < wl_hist_noutcomes(h); i++) {
    int w = wl_hist_weak(h, i);
    assert_true(w == 0 || w == 1);
    weak += w;
  }
  assert_true(weak > 0);
}

/* ---------------------------------------------------------------- */
/* Fault injection                                                   */

#include "faulty.h"

typedef struct outcome {
  int rc;
  const char *stage;
  char errmsg[512];
  sbuf text, merged, json;
  char weak[64];
} outcome;

static void outcome_free(outcome *o) {
  free(o->text.p);
  free(o->merged.p);
  free(o->json.p);
  memset(o, 0, sizeof *o);
}

/* ctx_new, parse, sample, wl_hist_weak on every outcome, write, merge
 * into an empty histogram and write that; frees everything. */
static void pipeline(const wl_config *cfg, const char *src, uint64_t runs,
                     outcome *o) {
  wl_ctx *ctx = NULL;
  wl_litmus *t = NULL;
  wl_hist *h = NULL, *m = NULL;
  wl_sample_opts so;
  memset(o, 0, sizeof *o);
  opts_init(&so, WL_PROFILE_WEAK, 3, 0, runs);
  o->stage = "wl_ctx_new";
  o->rc = wl_ctx_new(cfg, &ctx);
  if (o->rc != 0) {
    assert_null(ctx);
    return;
  }
  o->stage = "wl_litmus_parse";
  o->rc = wl_litmus_parse(ctx, "f.litmus", src, strlen(src), &t);
  if (o->rc == 0) {
    o->stage = "wl_sample";
    o->rc = wl_sample(ctx, t, &so, &h);
    if (o->rc != 0)
      assert_null(h);
  }
  if (o->rc == 0) {
    size_t i, n = wl_hist_noutcomes(h);
    o->stage = "wl_hist_weak";
    assert_true(n < sizeof o->weak);
    for (i = 0; i < n && o->rc == 0; i++) {
      int w = wl_hist_weak(h, i);
      if (w < 0)
        o->rc = w; /* -1: WL_ENOMEM (or gave up: not for this test) */
      else
        o->weak[i] = (char)('0' + w);
    }
  }
  if (o->rc == 0) {
    o->stage = "wl_hist_write";
    o->rc = wl_hist_write(h, 0, 0.0, sbuf_write, &o->text);
  }
  if (o->rc == 0) {
    o->stage = "wl_sample (empty)";
    so.runs = 0;
    o->rc = wl_sample(ctx, t, &so, &m);
  }
  if (o->rc == 0) {
    o->stage = "wl_hist_merge";
    o->rc = wl_hist_merge(m, h);
  }
  if (o->rc == 0) {
    o->stage = "wl_hist_write (merged)";
    o->rc = wl_hist_write(m, 0, 0.0, sbuf_write, &o->merged);
  }
  if (o->rc == 0) {
    o->stage = "wl_hist_write_json";
    o->rc = wl_hist_write_json(m, 0, 0.0, sbuf_write, &o->json);
  }
  if (o->rc != 0)
    snprintf(o->errmsg, sizeof o->errmsg, "%s", wl_ctx_errmsg(ctx));
  else
    o->stage = NULL;
  wl_hist_free(m);
  wl_hist_free(h);
  wl_litmus_free(t);
  wl_ctx_free(ctx);
}

static long fault_sweep(const char *src, uint64_t runs) {
  outcome ref, o;
  faulty fa;
  wl_config cfg;
  long n, total;
  pipeline(NULL, src, runs, &ref);
  if (ref.rc != 0)
    fail_msg("reference run: %s: %s", ref.stage, ref.errmsg);
  assert_string_equal(ref.text.p, ref.merged.p);
  cfg.alloc = faulty_alloc;
  cfg.alloc_ud = &fa;
  memset(&fa, 0, sizeof fa);
  pipeline(&cfg, src, runs, &o);
  assert_int_equal(o.rc, 0);
  assert_int_equal(fa.live, 0);
  assert_int_equal(fa.blocks, 0);
  assert_false(fa.bad);
  total = fa.calls;
  outcome_free(&o);
  for (n = 1;; n++) {
    memset(&fa, 0, sizeof fa);
    fa.fail_at = n;
    pipeline(&cfg, src, runs, &o);
    if (fa.live != 0 || fa.blocks != 0)
      fail_msg("allocation %ld failed in %s: %ld bytes in %ld blocks leak", n,
               o.stage ? o.stage : "(none)", fa.live, fa.blocks);
    if (fa.bad)
      fail_msg("allocation %ld: a block was freed with the wrong size", n);
    if (!fa.failed) {
      assert_int_equal(o.rc, 0);
      assert_int_equal(n, total + 1);
      assert_string_equal(o.text.p, ref.text.p);
      assert_string_equal(o.merged.p, ref.merged.p);
      assert_string_equal(o.json.p, ref.json.p);
      assert_string_equal(o.weak, ref.weak);
      outcome_free(&o);
      break;
    }
    if (o.rc == 0)
      fail_msg("allocation %ld failed but every call succeeded", n);
    if (o.rc != WL_ENOMEM)
      fail_msg("allocation %ld: %s returned %s (%s), not WL_ENOMEM", n, o.stage,
               wl_err_name(o.rc), o.errmsg);
    if (strcmp(o.stage, "wl_ctx_new") != 0 && o.errmsg[0] == '\0')
      fail_msg("allocation %ld: %s failed without a message", n, o.stage);
    outcome_free(&o);
  }
  outcome_free(&ref);
  return n - 1;
}

static void test_fault_sb(void **state) {
  (void)state;
  assert_true(fault_sweep(sb_src, 300) > 10);
}

/* More than 16 outcomes: the outcome table grows. */
static void test_fault_many(void **state) {
  (void)state;
  assert_true(fault_sweep(many_src, 2000) > 40);
}

/* Over 32 outcomes: the outcome index grows too. */
static void test_fault_four(void **state) {
  fixture *f = *state;
  parse(f, 0, four_src);
  assert_true(wl_hist_noutcomes(sample(f, 0, 0, WL_PROFILE_WEAK, 3, 0, 70)) >
              32);
  assert_true(fault_sweep(four_src, 70) > 100);
}

/* A merge that runs out of memory leaves into as it was.

 * (A bug once: counts merged before the failing allocation stayed.) */
static void test_fault_merge_atomic(void **state) {
  wl_ctx *ctx = NULL;
  wl_litmus *t = NULL;
  wl_hist *into = NULL, *from = NULL;
  wl_sample_opts so;
  faulty fa;
  wl_config cfg;
  uint64_t sum = 0;
  size_t i;
  int rc;
  (void)state;
  memset(&fa, 0, sizeof fa);
  cfg.alloc = faulty_alloc;
  cfg.alloc_ud = &fa;
  assert_int_equal(wl_ctx_new(&cfg, &ctx), 0);
  assert_int_equal(wl_litmus_parse(ctx, "t", sb_src, strlen(sb_src), &t), 0);
  /* run 0 alone, then runs 0..19999: from's first outcome is into's */
  opts_init(&so, WL_PROFILE_WEAK, 5, 0, 1);
  assert_int_equal(wl_sample(ctx, t, &so, &into), 0);
  so.runs = 20000;
  assert_int_equal(wl_sample(ctx, t, &so, &from), 0);
  assert_int_equal(wl_hist_noutcomes(into), 1);
  assert_true(wl_hist_noutcomes(from) > 1);
  fa.fail_at = fa.calls + 1; /* the first new outcome's values */
  rc = wl_hist_merge(into, from);
  assert_true(fa.failed);
  assert_int_equal(rc, WL_ENOMEM);
  for (i = 0; i < wl_hist_noutcomes(into); i++)
    sum += wl_hist_count(into, i);
  wl_hist_free(from);
  /* a failed merge leaves into as it was */
  assert_int_equal(sum + wl_hist_hung(into), wl_hist_runs(into));
  assert_int_equal(wl_hist_noutcomes(into), 1);
  assert_int_equal(wl_hist_count(into, 0), 1);
  wl_hist_free(into);
  wl_litmus_free(t);
  wl_ctx_free(ctx);
  assert_int_equal(fa.live, 0);
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
  const struct CMUnitTest tests[] = {
      T(test_outcomes_apart),
      T(test_same_seed_same_histogram),
      T(test_many_outcomes_merge),
      T(test_hist_stop),
      T(test_different_seeds_differ),
      T(test_batches_equal_one_call),
      T(test_profiles_shapes_allowed),
      T(test_sb_weak_seen),
      T(test_sb_fence_sc_never_weak),
      T(test_accessors),
      T(test_set_condition),
      T(test_write_text),
      T(test_write_hung),
      T(test_errors),
      T(test_callback_thread),
      T(test_callback_errors),
      T(test_barrier_mp_never_stale),
      T(test_barrier_deadlock_hangs),
      T(test_weak_long_sequential_run),
      T(test_weak_deep_run_unknown),
      T(test_weak_short_loop),
      T(test_weak_after_merge),
      T(test_fault_sb),
      T(test_fault_many),
      T(test_fault_four),
      T(test_fault_merge_atomic),
  };
#undef T
  return cmocka_run_group_tests(tests, NULL, NULL);
}
