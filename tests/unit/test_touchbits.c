/* test_touchbits.c -- the chunked bits of what a split launch's part
 * touched (engine/sim/touchbits.c) against a plain bitmap, a byte a
 * byte, on generated marks: allocations of one to five chunks and sizes
 * a byte either side of a chunk's end, marks 1 to 16 bytes wide placed
 * scattered, at chunk and word edges, in every other chunk (gaps of
 * exactly one chunk never made), every other word or byte, or dense;
 * and ranges lo..hi that start and end anywhere (mid-chunk, mid-word,
 * mid-byte of bits).  Every function is checked: get, count, next (the
 * walk that skips chunks never made, empty words and empty bytes),
 * overlap and or.  The mutants WL_MUTANT_TBCHUNK and WL_MUTANT_TBWORD
 * (touchbits.c) fail it (tests/cli/touchbits_mutants.sh). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../engine/sim/touchbits.h"

#define CASES 600
#define MAXSIZE (5 * WL_TB_SPAN + 3)

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t draw(uint64_t n) { /* xorshift64*, 0..n-1 */
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return n == 0 ? 0 : (rng * 0x2545f4914f6cdd1du >> 11) % n;
}

/* A size: a byte either side of a chunk's end, or any. */
static uint64_t draw_size(void) {
  uint64_t k = 1 + draw(5);
  switch (draw(4)) {
  case 0:
    return k * WL_TB_SPAN - 1;
  case 1:
    return k * WL_TB_SPAN;
  case 2:
    return k * WL_TB_SPAN + 1;
  default:
    return 1 + draw(MAXSIZE - 1);
  }
}

/* Marks off..off+w-1 (clamped to size) in both. */
static void mark(wl_ctx *ctx, uint8_t **tb, uint8_t *plain, uint64_t size,
                 uint64_t off, int w) {
  uint64_t b;
  if (off >= size)
    return;
  if (off + (uint64_t)w > size)
    w = (int)(size - off);
  assert_int_equal(wl__tb_mark(ctx, tb, off, w), 0);
  for (b = off; b < off + (uint64_t)w; b++)
    plain[b] = 1;
}

static int draw_width(void) {
  static const int ws[] = {1, 2, 4, 8, 16};
  return ws[draw(5)];
}

/* One generated set of marks, of one of the patterns. */
static void fill(wl_ctx *ctx, uint8_t **tb, uint8_t *plain, uint64_t size) {
  uint64_t c, k, n, nch = size / WL_TB_SPAN + 1;
  switch (draw(6)) {
  case 0: /* scattered */
    n = 1 + draw(12);
    for (k = 0; k < n; k++)
      mark(ctx, tb, plain, size, draw(size), draw_width());
    break;
  case 1: /* at chunk edges: the last byte of one, the first of the next */
    for (c = 1; c < nch; c++)
      if (draw(2)) {
        mark(ctx, tb, plain, size, c * WL_TB_SPAN - 1, 1);
        mark(ctx, tb, plain, size, c * WL_TB_SPAN, draw_width());
      }
    break;
  case 2: /* every other chunk: gaps of exactly one chunk never made */
    for (c = draw(2); c < nch; c += 2)
      mark(ctx, tb, plain, size, c * WL_TB_SPAN + draw(WL_TB_SPAN),
           draw_width());
    break;
  case 3: /* at word edges: the bytes around a 64-byte word's ends */
    n = 1 + draw(10);
    for (k = 0; k < n; k++) {
      uint64_t at = draw(size / 64 + 1) * 64;
      mark(ctx, tb, plain, size, at + (draw(2) ? 63 : 64), 1);
      if (draw(2))
        mark(ctx, tb, plain, size, at + 128 + draw(3) * 8, 1);
    }
    break;
  case 4: /* every other word, or every other byte of bits, in a stretch */
    k = draw(size);
    n = draw(2) ? 128 : 16;
    for (c = 0; c < 24; c++)
      mark(ctx, tb, plain, size, k + c * n + draw(8), 1);
    break;
  default: /* dense in a stretch */
    k = draw(size);
    for (c = 0; c < 300; c++)
      mark(ctx, tb, plain, size, k + draw(2000), draw_width());
    break;
  }
}

/* A range lo..hi inside the allocation, of one of the kinds. */
static void draw_range(uint64_t size, const uint8_t *plain, uint64_t *lo,
                       uint64_t *hi) {
  uint64_t a, b, t;
  switch (draw(4)) {
  case 0: /* the whole allocation */
    *lo = 0;
    *hi = size - 1;
    return;
  case 1: /* the first to the last byte marked, as a part keeps them */
    for (a = 0; a < size && !plain[a]; a++)
      ;
    for (b = size - 1; b > a && !plain[b]; b--)
      ;
    *lo = a < size ? a : 0;
    *hi = a < size ? b : size - 1;
    return;
  default: /* anywhere */
    a = draw(size);
    b = draw(size);
    if (a > b) {
      t = a;
      a = b;
      b = t;
    }
    *lo = a;
    *hi = b;
  }
}

static void check_one(wl_ctx *ctx, uint8_t **x, const uint8_t *px,
                      uint8_t **y, const uint8_t *py, uint64_t size) {
  uint64_t lo, hi, b, n, want, got;
  int64_t at, wat;
  uint8_t **u;
  draw_range(size, px, &lo, &hi);
  /* get, every byte */
  for (b = 0; b < size; b++)
    if (wl__tb_get(x, b) != px[b])
      fail_msg("get: byte %llu of %llu", (unsigned long long)b,
               (unsigned long long)size);
  /* count */
  for (n = 0, b = lo; b <= hi; b++)
    n += px[b];
  assert_int_equal(wl__tb_count(x, lo, hi), n);
  /* next: the walk from lo to hi meets exactly the marked bytes */
  got = wl__tb_next(x, lo, hi);
  for (b = lo; b <= hi; b++) {
    if (!px[b])
      continue;
    if (got != b)
      fail_msg("next: %llu where %llu (lo %llu hi %llu size %llu)",
               (unsigned long long)got, (unsigned long long)b,
               (unsigned long long)lo, (unsigned long long)hi,
               (unsigned long long)size);
    got = wl__tb_next(x, b + 1, hi);
  }
  assert_true(got == UINT64_MAX);
  /* overlap */
  for (wat = -1, b = lo; b <= hi && wat < 0; b++)
    if (px[b] && py[b])
      wat = (int64_t)b;
  at = wl__tb_overlap(x, y, lo, hi);
  if (at != wat)
    fail_msg("overlap: %lld where %lld", (long long)at, (long long)wat);
  /* or: x's bits of lo..hi and y's whole into a fresh union */
  assert_non_null(u = wl__tb_new(ctx, size));
  for (want = 0, b = 0; b < size; b++)
    want += px[b] || py[b];
  assert_int_equal(wl__tb_or(ctx, u, x, 0, size - 1), 0);
  assert_int_equal(wl__tb_or(ctx, u, y, 0, size - 1), 0);
  assert_int_equal(wl__tb_count(u, 0, size - 1), want);
  for (b = wl__tb_next(u, 0, size - 1), n = 0; b != UINT64_MAX;
       b = wl__tb_next(u, b + 1, size - 1), n++)
    assert_true(px[b] || py[b]);
  assert_int_equal(n, want);
  wl__tb_free(ctx, u, size);
}

static void test_generated(void **state) {
  wl_ctx *ctx;
  uint8_t *px = malloc(MAXSIZE), *py = malloc(MAXSIZE);
  int k;
  (void)state;
  assert_non_null(px);
  assert_non_null(py);
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  for (k = 0; k < CASES; k++) {
    uint64_t size = draw_size();
    uint8_t **x = wl__tb_new(ctx, size), **y = wl__tb_new(ctx, size);
    assert_non_null(x);
    assert_non_null(y);
    memset(px, 0, size);
    memset(py, 0, size);
    fill(ctx, x, px, size);
    if (draw(3) == 0) /* y shares some of x's marks */
      mark(ctx, y, py, size, wl__tb_next(x, 0, size - 1) == UINT64_MAX
                                 ? 0
                                 : wl__tb_next(x, 0, size - 1),
           1);
    fill(ctx, y, py, size);
    check_one(ctx, x, px, y, py, size);
    check_one(ctx, y, py, x, px, size);
    wl__tb_free(ctx, x, size);
    wl__tb_free(ctx, y, size);
  }
  wl_ctx_free(ctx);
  free(px);
  free(py);
}

/* The cases a generator may miss, by hand: a mark in the chunk after
 * one never made, and one a byte past an empty word. */
static void test_edges(void **state) {
  wl_ctx *ctx;
  uint64_t size = 3 * WL_TB_SPAN;
  uint8_t **tb;
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  assert_non_null(tb = wl__tb_new(ctx, size));
  assert_int_equal(wl__tb_mark(ctx, tb, 2 * WL_TB_SPAN + 5, 1), 0);
  assert_true(wl__tb_next(tb, 0, size - 1) == 2 * WL_TB_SPAN + 5);
  assert_true(wl__tb_next(tb, 7, size - 1) == 2 * WL_TB_SPAN + 5);
  assert_int_equal(wl__tb_mark(ctx, tb, 64 + 3, 1), 0);
  assert_true(wl__tb_next(tb, 0, size - 1) == 64 + 3);
  assert_true(wl__tb_next(tb, 68, 2 * WL_TB_SPAN + 4) == UINT64_MAX);
  assert_int_equal(wl__tb_count(tb, 0, size - 1), 2);
  assert_int_equal(wl__tb_count(tb, 68, size - 1), 1);
  wl__tb_free(ctx, tb, size);
  wl_ctx_free(ctx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_edges),
      cmocka_unit_test(test_generated),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
