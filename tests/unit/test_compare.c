/* test_compare.c -- wl_compare (engine/emit/compare.c) on large
 * histograms: a four-thread test with 100,800 allowed states, matched
 * against a synthetic histogram of every state (plus one the model
 * forbids) and against projections of the states on a few variables.
 * compare matched states pairwise before (quadratic: 4-thread tests of
 * tests/hw/gen22 did not finish in 400 s); it hashes them now
 * (engine/emit/vecset.c).  The counts are checked against a plain
 * sort-based count made here, and the whole must take seconds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "../../engine/warplab.h"

/* tests/hw/gen22/rand-s224-12.litmus: 100,800 allowed final states */
static const char *const big =
    "PTX rand-s224-12\n"
    "{ x=0; y=0; }\n"
    " P0@cta 0,gpu 0      | P1@cta 0,gpu 0       | P2@cta 0,gpu 0       | "
    "P3@cta 0,gpu 0       ;\n"
    " st.relaxed.sys x, 1 | ld.weak r0, x        | st.weak y, 3         | "
    "ld.relaxed.sys r0, y ;\n"
    " st.release.cta x, 2 | beq r0, 0, LC10      | ld.relaxed.cta r0, x | "
    "ld.acquire.gpu r1, x ;\n"
    " st.weak y, 1        | st.weak y, 2         | ld.weak r1, x        | "
    "ld.weak r2, y        ;\n"
    " st.relaxed.cta x, 3 | LC10:                | fence.sc.sys         | "
    "ld.weak r3, y        ;\n"
    "                     | ld.acquire.gpu r1, x |                      | "
    "                     ;\n"
    "~exists (P3:r2=1 /\\ y=3 /\\ P2:r1=1)\n";

typedef struct text {
  char *p;
  size_t n, cap;
} text;

static void put(text *t, const char *fmt, ...) {
  va_list ap;
  int k;
  if (t->cap - t->n < 256) {
    t->cap = t->cap ? 2 * t->cap : 1 << 20;
    t->p = realloc(t->p, t->cap);
    assert_non_null(t->p);
  }
  va_start(ap, fmt);
  k = vsnprintf(t->p + t->n, t->cap - t->n, fmt, ap);
  va_end(ap);
  assert_true(k > 0 && (size_t)k < t->cap - t->n);
  t->n += (size_t)k;
}

static int nproj; /* values compared by rows_cmp */

static int rows_cmp(const void *a, const void *b) {
  const int64_t *x = a, *y = b;
  int k;
  for (k = 0; k < nproj; k++)
    if (x[k] != y[k])
      return x[k] < y[k] ? -1 : 1;
  return 0;
}

/* One outcome line: count 1, the values v of vars. */
static void put_row(text *t, const wl_result *r, const int *vars, int nv,
                    const int64_t *v) {
  int k;
  put(t, "1         :>");
  for (k = 0; k < nv; k++) {
    int th = wl_result_var_thread(r, vars[k]);
    if (th >= 0)
      put(t, "%s%d:", k ? " " : "", th);
    else if (k)
      put(t, " ");
    put(t, "%s=%lld;", wl_result_var_name(r, vars[k]), (long long)v[k]);
  }
  put(t, "\n");
}

/* The histogram of the states of r projected on vars (every step-th
 * distinct projection observed, count 1), with one outcome the model
 * forbids when bad; *ndistinct: the distinct projections, *nobs: the
 * outcomes written (the plain count: sort and scan). */
static char *histogram(const wl_result *r, const int *vars, int nv, int step,
                       int bad, size_t *len, size_t *ndistinct,
                       size_t *nobs) {
  size_t n = wl_result_nstates(r), i, d = 0, w = 0;
  int64_t *rows = malloc(n * (size_t)nv * sizeof *rows);
  text t = {NULL, 0, 0};
  int k;
  assert_non_null(rows);
  for (i = 0; i < n; i++)
    for (k = 0; k < nv; k++)
      rows[i * (size_t)nv + (size_t)k] = wl_result_value(r, i, vars[k]);
  nproj = nv;
  qsort(rows, n, (size_t)nv * sizeof *rows, rows_cmp);
  for (i = 0; i < n; i++)
    if (i == 0 || rows_cmp(rows + (i - 1) * (size_t)nv,
                           rows + i * (size_t)nv) != 0) {
      if (i != d)
        memmove(rows + d * (size_t)nv, rows + i * (size_t)nv,
                (size_t)nv * sizeof *rows);
      d++;
    }
  for (i = 0; i < d; i += (size_t)step)
    w++;
  put(&t, "Test rand-s224-12 Forbidden\nHistogram (%zu states)\n",
      w + (bad ? 1 : 0));
  for (i = 0; i < d; i += (size_t)step)
    put_row(&t, r, vars, nv, rows + i * (size_t)nv);
  if (bad) {
    int64_t no[16]; /* no allowed state has a value 99 */
    for (k = 0; k < nv; k++)
      no[k] = 99;
    put_row(&t, r, vars, nv, no);
  }
  free(rows);
  *len = t.n;
  *ndistinct = d;
  *nobs = w;
  return t.p;
}

static void check(const wl_result *r, wl_ctx *ctx, const wl_litmus *t,
                  const int *vars, int nv, int step, int bad) {
  size_t len, d, w;
  char *h = histogram(r, vars, nv, step, bad, &len, &d, &w);
  wl_compare_report rep;
  clock_t c0 = clock();
  int rc = wl_compare(ctx, t, r, "synthetic", h, len, NULL, NULL, &rep);
  double s = (double)(clock() - c0) / CLOCKS_PER_SEC;
  if (rc != 0)
    fail_msg("compare: %s: %s", wl_err_name(rc), wl_ctx_errmsg(ctx));
  assert_int_equal(rep.observed, w + (bad ? 1 : 0));
  assert_int_equal(rep.forbidden, bad ? 1 : 0);
  assert_int_equal(rep.unseen, d - w);
  assert_true(rep.sc_known);
  assert_int_equal(rep.sc_allowed + rep.weak_allowed, d);
  assert_int_equal(rep.sc_observed + rep.weak_observed, w);
  if (step == 1) {
    assert_int_equal(rep.sc_observed, rep.sc_allowed);
    assert_int_equal(rep.weak_observed, rep.weak_allowed);
  }
  assert_int_equal(rep.runs, w + (bad ? 1 : 0));
  /* seconds: pairwise matching took hours for the whole histogram */
  if (s > 30)
    fail_msg("compare of %zu outcomes with %zu states took %.1f s", w,
             wl_result_nstates(r), s);
  free(h);
}

static void test_large(void **state) {
  wl_ctx *ctx;
  wl_litmus *t;
  wl_result *r;
  int all[16], nv, k;
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  assert_int_equal(wl_litmus_parse(ctx, "big.litmus", big, strlen(big), &t),
                   0);
  if (wl_explore(ctx, t, NULL, &r) != 0)
    fail_msg("explore: %s", wl_ctx_errmsg(ctx));
  assert_int_equal(wl_result_nstates(r), 100800);
  nv = wl_result_nvars(r);
  assert_true(nv <= 16);
  for (k = 0; k < nv; k++)
    all[k] = k;
  /* every state, and one the model forbids */
  check(r, ctx, t, all, nv, 1, 1);
  /* every third state, nothing forbidden */
  check(r, ctx, t, all, nv, 3, 0);
  /* projections on the last three variables and on the first: many
   * states share one, each listed once */
  check(r, ctx, t, all + nv - 3, 3, 2, 1);
  check(r, ctx, t, all, 1, 1, 0);
  wl_result_free(r);
  wl_litmus_free(t);
  wl_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_large)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
