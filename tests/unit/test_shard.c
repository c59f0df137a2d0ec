/* test_shard.c -- the sharding plan (engine/common/shard.c): units out
 * largest first, dealt by least load, merged back in unit order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../engine/warplab.h"
#include "faulty.h"

/* Largest first; equal costs in unit order. */
static void test_order(void **state) {
  static const uint64_t cost[] = {5, 9, 5, 0, 9, 1, 5};
  static const size_t want[] = {1, 4, 0, 2, 6, 5, 3};
  wl_ctx *ctx;
  wl_shard *s;
  size_t k, u;
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  assert_int_equal(wl_shard_new(ctx, 7, cost, &s), 0);
  assert_int_equal(wl_shard_count(s), 7);
  for (k = 0; k < 7; k++)
    assert_int_equal(wl_shard_order(s, k), want[k]);
  assert_true(wl_shard_order(s, 7) == (size_t)-1);
  for (k = 0; k < 7; k++) {
    assert_int_equal(wl_shard_take(s, &u), 1);
    assert_int_equal(u, want[k]);
    assert_int_equal(wl_shard_taken(s), k + 1);
  }
  assert_int_equal(wl_shard_take(s, &u), 0);
  assert_int_equal(wl_shard_cost(s, 1), 9);
  assert_int_equal(wl_shard_cost(s, 70), 0);
  wl_shard_free(s);
  wl_ctx_free(ctx);
}

/* Dealing: each unit, largest first, to the least loaded worker; the
 * loads end within the largest unit of each other (LPT). */
static void test_deal(void **state) {
  static const uint64_t cost[] = {7, 3, 3, 2, 2, 2, 8, 0, 0};
  /* order: 6(8) 0(7) 1(3) 2(3) 3 4 5 (2 each) 7 8 (0: counted 1) */
  static const int want2[] = {1, 1, 0, 1, 0, 1, 0, 0, 0};
  uint64_t load[3];
  wl_ctx *ctx;
  wl_shard *s;
  size_t u;
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  assert_int_equal(wl_shard_new(ctx, 9, cost, &s), 0);
  assert_int_equal(wl_shard_owner(s, 0), -1); /* before a deal */
  assert_int_equal(wl_shard_deal(s, 0), WL_EINVAL);
  assert_int_equal(wl_shard_deal(s, 2), 0);
  for (u = 0; u < 9; u++)
    assert_int_equal(wl_shard_owner(s, u), want2[u]);
  assert_int_equal(wl_shard_owner(s, 9), -1);
  /* three workers: every unit has one, loads within the largest cost */
  assert_int_equal(wl_shard_deal(s, 3), 0);
  memset(load, 0, sizeof load);
  for (u = 0; u < 9; u++) {
    int w = wl_shard_owner(s, u);
    assert_true(w >= 0 && w < 3);
    load[w] += cost[u];
  }
  assert_true(load[0] + load[1] + load[2] == 27);
  assert_true(load[0] <= 8 + load[1] && load[1] <= 8 + load[0]);
  assert_true(load[0] <= 8 + load[2] && load[2] <= 8 + load[0]);
  /* one worker takes all */
  assert_int_equal(wl_shard_deal(s, 1), 0);
  for (u = 0; u < 9; u++)
    assert_int_equal(wl_shard_owner(s, u), 0);
  wl_shard_free(s);
  wl_ctx_free(ctx);
}

/* Results come back in any order and go out in unit order, each as
 * soon as the units before it are back. */
static void test_merge(void **state) {
  static const uint64_t cost[] = {1, 2, 3, 4, 5};
  int vals[5] = {10, 11, 12, 13, 14};
  wl_ctx *ctx;
  wl_shard *s;
  size_t u;
  void *r;
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  assert_int_equal(wl_shard_new(ctx, 5, cost, &s), 0);
  assert_int_equal(wl_shard_next(s, &u, &r), 0);
  assert_int_equal(wl_shard_done(s, 4, &vals[4]), 0);
  assert_int_equal(wl_shard_done(s, 2, &vals[2]), 0);
  assert_int_equal(wl_shard_next(s, &u, &r), 0); /* 0 is not back */
  assert_int_equal(wl_shard_done(s, 0, &vals[0]), 0);
  assert_int_equal(wl_shard_next(s, &u, &r), 1);
  assert_int_equal(u, 0);
  assert_ptr_equal(r, &vals[0]);
  assert_int_equal(wl_shard_next(s, &u, &r), 0); /* 1 is not back */
  assert_int_equal(wl_shard_merged(s), 1);
  /* a stop now: 2 and 4 are back, not merged: what to free */
  assert_true(wl_shard_is_done(s, 2) && !wl_shard_is_done(s, 3));
  assert_ptr_equal(wl_shard_result(s, 2), &vals[2]);
  assert_ptr_equal(wl_shard_result(s, 0), NULL); /* merged already */
  assert_int_equal(wl_shard_done(s, 2, NULL), WL_EINVAL); /* twice */
  assert_int_equal(wl_shard_done(s, 5, NULL), WL_EINVAL);
  assert_int_equal(wl_shard_done(s, 1, &vals[1]), 0);
  assert_int_equal(wl_shard_done(s, 3, &vals[3]), 0);
  for (u = 1; u < 5; u++) {
    size_t got;
    assert_int_equal(wl_shard_next(s, &got, &r), 1);
    assert_int_equal(got, u);
    assert_ptr_equal(r, &vals[u]);
  }
  assert_int_equal(wl_shard_next(s, &u, &r), 0);
  assert_int_equal(wl_shard_merged(s), 5);
  wl_shard_free(s);
  wl_ctx_free(ctx);
}

/* The same plan and the same merged order for any worker count and any
 * order of completion: a simulated pool of k workers that finish in a
 * seeded random order. */
static void test_any_workers(void **state) {
  enum { N = 200 };
  uint64_t cost[N], x = 12345;
  wl_ctx *ctx;
  size_t i;
  int k;
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  for (i = 0; i < N; i++) {
    x = x * 6364136223846793005u + 1442695040888963407u;
    cost[i] = (x >> 33) % 50;
  }
  for (k = 1; k <= 8; k++) {
    wl_shard *s;
    size_t inflight[8], nin = 0, out = 0, u;
    void *r;
    assert_int_equal(wl_shard_new(ctx, N, cost, &s), 0);
    for (;;) {
      while (nin < (size_t)k && wl_shard_take(s, &u))
        inflight[nin++] = u;
      if (nin == 0)
        break;
      x = x * 6364136223846793005u + 1442695040888963407u;
      i = (size_t)((x >> 33) % nin); /* one finishes, any of them */
      assert_int_equal(wl_shard_done(s, inflight[i],
                                     (void *)(uintptr_t)(inflight[i] + 1)),
                       0);
      inflight[i] = inflight[--nin];
      while (wl_shard_next(s, &u, &r)) {
        assert_int_equal(u, out);
        assert_int_equal((uintptr_t)r, out + 1);
        out++;
      }
    }
    assert_int_equal(out, N);
    wl_shard_free(s);
  }
  wl_ctx_free(ctx);
}

static void test_empty_and_errors(void **state) {
  wl_ctx *ctx;
  wl_shard *s = (wl_shard *)&s;
  size_t u;
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  assert_int_equal(wl_shard_new(ctx, 3, NULL, &s), WL_EINVAL);
  assert_null(s);
  assert_int_equal(wl_shard_new(ctx, 0, NULL, NULL), WL_EINVAL);
  assert_int_equal(wl_shard_new(NULL, 0, NULL, &s), WL_EINVAL);
  assert_int_equal(wl_shard_new(ctx, 0, NULL, &s), 0);
  assert_int_equal(wl_shard_count(s), 0);
  assert_int_equal(wl_shard_take(s, &u), 0);
  assert_int_equal(wl_shard_deal(s, 4), 0);
  assert_int_equal(wl_shard_next(s, &u, NULL), 0);
  wl_shard_free(s);
  wl_shard_free(NULL);
  assert_int_equal(wl_shard_count(NULL), 0);
  assert_int_equal(wl_shard_take(NULL, &u), 0);
  assert_int_equal(wl_shard_done(NULL, 0, NULL), WL_EINVAL);
  assert_int_equal(wl_shard_deal(NULL, 1), WL_EINVAL);
  wl_ctx_free(ctx);
}

/* Every allocation failure is WL_ENOMEM and leaks nothing. */
static void test_alloc_failures(void **state) {
  static const uint64_t cost[] = {3, 1, 2};
  long at;
  (void)state;
  for (at = 1;; at++) {
    faulty fa;
    wl_config cfg;
    wl_ctx *ctx = NULL;
    wl_shard *s = NULL;
    int rc;
    memset(&fa, 0, sizeof fa);
    cfg.alloc = faulty_alloc;
    cfg.alloc_ud = &fa;
    if (wl_ctx_new(&cfg, &ctx) != 0) {
      assert_true(fa.failed); /* the context itself */
      continue;
    }
    fa.fail_at = fa.calls + at;
    rc = wl_shard_new(ctx, 3, cost, &s);
    if (rc == 0)
      rc = wl_shard_deal(s, 2);
    assert_true(rc == 0 || rc == WL_ENOMEM);
    assert_true(rc == 0 || fa.failed);
    wl_shard_free(s);
    wl_ctx_free(ctx);
    assert_int_equal(fa.blocks, 0);
    assert_false(fa.bad);
    if (!fa.failed)
      break;
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_order),
      cmocka_unit_test(test_deal),
      cmocka_unit_test(test_merge),
      cmocka_unit_test(test_any_workers),
      cmocka_unit_test(test_empty_and_errors),
      cmocka_unit_test(test_alloc_failures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
