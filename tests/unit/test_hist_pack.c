/* test_hist_pack.c -- histograms as bytes (wl_hist_pack,
 * wl_hist_unpack_merge), as the ranks of an MPI sampling send them: a
 * sampling split into ranges, each packed and unpacked into a histogram
 * of the same text parsed again (another process's test), is the
 * sampling of the whole, text for text; callback threads' result names
 * and types come across; and every malformed buffer (each truncation,
 * another test's, a count that does not add up, bytes after the end)
 * is refused with a message, the histogram unchanged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../engine/warplab.h"
#include "faulty.h"
#include "sink.h"

static const char sb_src[] =
    "PTX SB\n"
    "{ x=0; y=0; }\n"
    " P0@cta 0,gpu 0        | P1@cta 1,gpu 0        ;\n"
    " st.relaxed.gpu x, 1   | st.relaxed.gpu y, 1   ;\n"
    " ld.relaxed.gpu r0, y  | ld.relaxed.gpu r0, x  ;\n"
    "exists (P0:r0 == 0 /\\ P1:r0 == 0)\n";

static const char mp_src[] = "PTX MP\n"
                             "{ x=0; y=0; }\n"
                             " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                             " st.weak x, 1   | ld.weak r1, y  ;\n"
                             " st.weak y, 1   | ld.weak r2, x  ;\n"
                             "exists (P1:r1 == 1 /\\ P1:r2 == 0)\n";

typedef struct fixture {
  wl_ctx *ctx;
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
  wl_ctx_free(f->ctx);
  free(f);
  return 0;
}

static wl_litmus *parse(fixture *f, const char *src) {
  wl_litmus *t = NULL;
  assert_int_equal(wl_litmus_parse(f->ctx, "t.litmus", src, strlen(src), &t),
                   0);
  return t;
}

static wl_hist *sample(fixture *f, const wl_litmus *t, uint64_t seed,
                       uint64_t first, uint64_t runs, int step) {
  wl_sample_opts o;
  wl_hist *h = NULL;
  memset(&o, 0, sizeof o);
  o.profile = WL_PROFILE_WEAK;
  o.seed = seed;
  o.first = first;
  o.runs = runs;
  o.step = step;
  assert_int_equal(wl_sample(f->ctx, t, &o, &h), 0);
  return h;
}

static char *text_of(const wl_hist *h) {
  sbuf b = {NULL, 0, 0, 0, 0};
  assert_int_equal(wl_hist_write(h, 0, 0.0, sbuf_write, &b), 0);
  return b.p;
}

static void same_text(const wl_hist *a, const wl_hist *b) {
  char *x = text_of(a), *y = text_of(b);
  assert_string_equal(x, y);
  free(x);
  free(y);
}

/* 10,000 runs in three ranges packed, unpacked into an empty histogram
 * of a second parse of the text: the whole sampling's text. */
static void test_ranges_merge_to_whole(void **state) {
  fixture *f = *state;
  wl_litmus *t = parse(f, sb_src), *u = parse(f, sb_src);
  static const uint64_t cut[] = {0, 3333, 6667, 10000};
  int step, k;
  for (step = 0; step <= 1; step++) {
    wl_hist *whole = sample(f, u, 42, 0, 10000, step);
    wl_hist *into = sample(f, u, 42, 0, 0, step);
    for (k = 0; k < 3; k++) {
      wl_hist *part = sample(f, t, 42, cut[k], cut[k + 1] - cut[k], step);
      void *buf = NULL;
      size_t len = 0;
      assert_int_equal(wl_hist_pack(part, &buf, &len), 0);
      assert_true(len > 0);
      assert_int_equal(wl_hist_unpack_merge(into, buf, len), 0);
      free(buf);
      wl_hist_free(part);
    }
    assert_int_equal(wl_hist_runs(into), 10000);
    assert_true(wl_hist_noutcomes(into) >= 3); /* the weak one too */
    same_text(whole, into);
    wl_hist_free(whole);
    wl_hist_free(into);
  }
  wl_litmus_free(t);
  wl_litmus_free(u);
}

/* MP's reader as a callback: its results r0, r1 are no register of the
 * test, so their names and types travel in the bytes. */
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

static wl_litmus *mp_callback(fixture *f) {
  wl_litmus *t;
  int idx;
  assert_int_equal(wl_litmus_new(f->ctx, "CB", &t), 0);
  assert_int_equal(wl_litmus_add_location(t, "x", 0, NULL), 0);
  assert_int_equal(wl_litmus_add_location(t, "y", 0, NULL), 0);
  assert_int_equal(wl_litmus_add_thread(t, 0, 0, &idx), 0);
  assert_int_equal(wl_litmus_add_thread(t, 1, 0, &idx), 0);
  assert_int_equal(wl_litmus_add_insn(t, 0, "st.weak x, 1", "t.lua", 1), 0);
  assert_int_equal(wl_litmus_add_insn(t, 0, "st.weak y, 1", "t.lua", 2), 0);
  assert_int_equal(wl_litmus_set_thread_fn(t, 1, cb_mp_reader, NULL), 0);
  return t;
}

static void test_callback_results(void **state) {
  fixture *f = *state;
  wl_litmus *t = mp_callback(f), *u = mp_callback(f);
  wl_hist *whole = sample(f, u, 5, 0, 4000, 0);
  wl_hist *into = sample(f, u, 5, 0, 0, 0);
  int k;
  assert_int_equal(wl_hist_nvars(into), 2); /* no result names yet */
  for (k = 0; k < 2; k++) {
    wl_hist *part = sample(f, t, 5, (uint64_t)k * 2000, 2000, 0);
    void *buf = NULL;
    size_t len = 0;
    assert_int_equal(wl_hist_pack(part, &buf, &len), 0);
    assert_int_equal(wl_hist_unpack_merge(into, buf, len), 0);
    free(buf);
    wl_hist_free(part);
  }
  assert_int_equal(wl_hist_nvars(into), 4);
  assert_string_equal(wl_hist_var_name(into, 0), "r0");
  assert_int_equal(wl_hist_var_type(into, 0), WL_TYPE_INT64);
  same_text(whole, into);
  wl_hist_free(whole);
  wl_hist_free(into);
  wl_litmus_free(t);
  wl_litmus_free(u);
}

static void refused(fixture *f, wl_hist *into, const void *buf, size_t len,
                    const char *why) {
  char *before = text_of(into), *after;
  assert_int_equal(wl_hist_unpack_merge(into, buf, len), WL_EINVAL);
  if (strstr(wl_ctx_errmsg(f->ctx), why) == NULL)
    fail_msg("message '%s' lacks '%s'", wl_ctx_errmsg(f->ctx), why);
  after = text_of(into);
  assert_string_equal(before, after);
  free(before);
  free(after);
}

static void test_bad_bytes(void **state) {
  fixture *f = *state;
  wl_litmus *t = parse(f, sb_src), *mp = parse(f, mp_src);
  wl_hist *part = sample(f, t, 1, 0, 500, 1);
  wl_hist *into = sample(f, t, 1, 500, 500, 1);
  wl_hist *other = sample(f, mp, 1, 0, 0, 1);
  unsigned char *buf = NULL, *bad;
  size_t len = 0, n;
  assert_int_equal(wl_hist_pack(part, (void **)&buf, &len), 0);
  /* every truncation */
  for (n = 0; n < len; n++)
    refused(f, into, buf, n, "not a packed histogram of this test");
  /* bytes after the end */
  bad = malloc(len + 1);
  assert_non_null(bad);
  memcpy(bad, buf, len);
  bad[len] = 0;
  refused(f, into, bad, len + 1, "bytes after the last outcome");
  /* the first outcome's count, one more: the runs no longer add up
   * (outcomes start after the header; its count is the 8 bytes
   * before the last outcome's sat and values: find it from the end) */
  memcpy(bad, buf, len);
  {
    int nv = wl_hist_nvars(part);
    size_t last = len - (size_t)nv * 8 - 1 - 8; /* the last count */
    bad[last] ^= 1;
  }
  refused(f, into, bad, len, "do not add up");
  /* another test's histogram, and another header */
  refused(f, other, buf, len, "another test's name");
  memcpy(bad, buf, len);
  bad[0] = 'X';
  refused(f, into, bad, len, "no WLH1 header");
  /* and the bytes themselves are still good */
  assert_int_equal(wl_hist_unpack_merge(into, buf, len), 0);
  assert_int_equal(wl_hist_runs(into), 1000);
  {
    void *none = (void *)buf; /* set to NULL by the failing call */
    assert_int_equal(wl_hist_pack(NULL, &none, &n), WL_EINVAL);
    assert_null(none);
  }
  assert_int_equal(wl_hist_unpack_merge(NULL, buf, len), WL_EINVAL);
  free(bad);
  free(buf);
  wl_hist_free(part);
  wl_hist_free(into);
  wl_hist_free(other);
  wl_litmus_free(t);
  wl_litmus_free(mp);
}

/* Every allocation of an unpacking failing in turn: WL_ENOMEM with a
 * message, the histogram as it was, nothing leaked. */
static void test_fault_unpack(void **state) {
  wl_ctx *ctx = NULL;
  wl_litmus *t = NULL;
  wl_hist *into = NULL, *part = NULL;
  wl_sample_opts o;
  faulty fa;
  wl_config cfg;
  void *buf = NULL;
  size_t len = 0;
  long k;
  int rc;
  (void)state;
  memset(&fa, 0, sizeof fa);
  memset(&cfg, 0, sizeof cfg);
  cfg.alloc = faulty_alloc;
  cfg.alloc_ud = &fa;
  assert_int_equal(wl_ctx_new(&cfg, &ctx), 0);
  assert_int_equal(wl_litmus_parse(ctx, "t", sb_src, strlen(sb_src), &t), 0);
  memset(&o, 0, sizeof o);
  o.profile = WL_PROFILE_WEAK;
  o.seed = 8;
  o.step = 1;
  o.runs = 1;
  assert_int_equal(wl_sample(ctx, t, &o, &into), 0);
  o.first = 1;
  o.runs = 5000;
  assert_int_equal(wl_sample(ctx, t, &o, &part), 0);
  assert_true(wl_hist_noutcomes(part) > 1);
  assert_int_equal(wl_hist_pack(part, &buf, &len), 0);
  wl_hist_free(part);
  for (k = 1;; k++) {
    fa.failed = 0;
    fa.fail_at = fa.calls + k;
    rc = wl_hist_unpack_merge(into, buf, len);
    if (!fa.failed) {
      assert_int_equal(rc, 0);
      break;
    }
    assert_int_equal(rc, WL_ENOMEM);
    assert_true(strlen(wl_ctx_errmsg(ctx)) > 0);
    assert_int_equal(wl_hist_runs(into), 1);
    assert_int_equal(wl_hist_noutcomes(into), 1);
  }
  fa.fail_at = 0;
  assert_true(k > 2); /* the sweep met allocations */
  assert_int_equal(wl_hist_runs(into), 5001);
  free(buf);
  wl_hist_free(into);
  wl_litmus_free(t);
  wl_ctx_free(ctx);
  assert_int_equal(fa.live, 0);
  assert_false(fa.bad);
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
  const struct CMUnitTest tests[] = {
      T(test_ranges_merge_to_whole),
      T(test_callback_results),
      T(test_bad_bytes),
      T(test_fault_unpack),
  };
#undef T
  return cmocka_run_group_tests(tests, NULL, NULL);
}
