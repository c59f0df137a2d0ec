/* touchbits.c -- the bytes of one allocation a split launch's part
 * touched (split.c: what it read, what it wrote).
 *
 * One bit a byte, kept in chunks of WL_TB_BYTES made at the first touch
 * of the WL_TB_SPAN bytes each covers: a part that touched a few lines
 * of a 64 MB array holds a few chunks, not 8 MB of zeroes, and every
 * walk over its bits keeps to the bytes asked (lo..hi: the first and the
 * last it touched) and skips the chunks it never made, then empty words
 * and bytes.  Those skips are shortcuts a wrong answer could hide in
 * (a byte written and not seen is a conflict missed, or a write not
 * joined): tests/unit/test_touchbits.c checks every function here
 * against a plain bitmap on generated marks whose gaps are exactly one
 * chunk, one word or one byte, and its mutants (WL_MUTANT_TBCHUNK: a
 * chunk never made skips the next one too; WL_MUTANT_TBWORD: an empty
 * word skips one byte too many) fail it. */
#include <string.h>

#include "touchbits.h"

static uint64_t chunks(uint64_t size) { return size / WL_TB_SPAN + 1; }

uint8_t **wl__tb_new(wl_ctx *ctx, uint64_t size) {
  return wl__calloc(ctx, sizeof(uint8_t *) * (size_t)chunks(size));
}

void wl__tb_free(wl_ctx *ctx, uint8_t **tb, uint64_t size) {
  uint64_t c;
  if (tb == NULL)
    return;
  for (c = 0; c < chunks(size); c++)
    wl__free(ctx, tb[c], WL_TB_BYTES);
  wl__free(ctx, tb, sizeof(uint8_t *) * (size_t)chunks(size));
}

int wl__tb_get(uint8_t *const *tb, uint64_t b) {
  const uint8_t *c = tb[b / WL_TB_SPAN];
  b %= WL_TB_SPAN;
  return c != NULL && (c[b / 8] >> (b % 8) & 1);
}

int wl__tb_mark(wl_ctx *ctx, uint8_t **tb, uint64_t off, int width) {
  uint64_t b;
  for (b = off; b < off + (uint64_t)width; b++) {
    uint8_t **c = &tb[b / WL_TB_SPAN];
    uint64_t i = b % WL_TB_SPAN;
    if (*c == NULL && (*c = wl__calloc(ctx, WL_TB_BYTES)) == NULL)
      return WL_ENOMEM;
    (*c)[i / 8] |= (uint8_t)(1u << (i % 8));
  }
  return 0;
}

/* The bits of bytes lo..hi on, counted a byte of bits at a time: the
 * first and last bytes of bits masked to lo..hi. */
uint64_t wl__tb_count(uint8_t *const *tb, uint64_t lo, uint64_t hi) {
  uint64_t c, n = 0;
  if (lo > hi)
    return 0;
  for (c = lo / WL_TB_SPAN; c <= hi / WL_TB_SPAN; c++) {
    uint64_t i, a, z;
    if (tb[c] == NULL)
      continue;
    a = c == lo / WL_TB_SPAN ? lo % WL_TB_SPAN : 0;
    z = c == hi / WL_TB_SPAN ? hi % WL_TB_SPAN : WL_TB_SPAN - 1;
    for (i = a / 8; i <= z / 8; i++) {
      unsigned m = tb[c][i];
      if (i == a / 8)
        m &= 0xffu << (a % 8);
      if (i == z / 8)
        m &= 0xffu >> (7 - z % 8);
      n += (uint64_t)__builtin_popcount(m);
    }
  }
  return n;
}

uint64_t wl__tb_next(uint8_t *const *tb, uint64_t b, uint64_t hi) {
  while (b <= hi) {
    const uint8_t *c = tb[b / WL_TB_SPAN];
    uint64_t i = b % WL_TB_SPAN;
    if (c == NULL) { /* never made: none of its bytes is on */
#ifdef WL_MUTANT_TBCHUNK
      b += WL_TB_SPAN; /* the mutation check: the next chunk skipped too */
#endif
      b += WL_TB_SPAN - i;
      continue;
    }
    if ((i & 63) == 0 && i + 63 < WL_TB_SPAN && b + 63 <= hi) {
      uint64_t w;
      memcpy(&w, c + i / 8, sizeof w);
      if (w == 0) {
#ifdef WL_MUTANT_TBWORD
        b += 8; /* the mutation check: a byte more than the word */
#endif
        b += 64;
        continue;
      }
    }
    if ((i & 7) == 0 && c[i / 8] == 0) {
      b += 8;
      continue;
    }
    if (c[i / 8] >> (i % 8) & 1)
      return b;
    b++;
  }
  return UINT64_MAX;
}

int64_t wl__tb_overlap(uint8_t *const *x, uint8_t *const *y, uint64_t lo,
                       uint64_t hi) {
  uint64_t c;
  if (x == NULL || y == NULL || lo > hi)
    return -1;
  for (c = lo / WL_TB_SPAN; c <= hi / WL_TB_SPAN; c++) {
    uint64_t i, a, z;
    if (x[c] == NULL || y[c] == NULL)
      continue;
    a = c == lo / WL_TB_SPAN ? lo % WL_TB_SPAN : 0;
    z = c == hi / WL_TB_SPAN ? hi % WL_TB_SPAN : WL_TB_SPAN - 1;
    for (i = a / 8; i <= z / 8; i++) {
      unsigned m = x[c][i] & y[c][i];
      if (i == a / 8)
        m &= 0xffu << (a % 8);
      if (i == z / 8)
        m &= 0xffu >> (7 - z % 8);
      if (m != 0)
        return (int64_t)(c * WL_TB_SPAN + i * 8 + (uint64_t)__builtin_ctz(m));
    }
  }
  return -1;
}

int wl__tb_or(wl_ctx *ctx, uint8_t **dst, uint8_t *const *src, uint64_t lo,
              uint64_t hi) {
  uint64_t c, i;
  if (src == NULL || lo > hi)
    return 0;
  for (c = lo / WL_TB_SPAN; c <= hi / WL_TB_SPAN; c++) {
    if (src[c] == NULL)
      continue;
    if (dst[c] == NULL && (dst[c] = wl__calloc(ctx, WL_TB_BYTES)) == NULL)
      return WL_ENOMEM;
    for (i = 0; i < WL_TB_BYTES; i++)
      dst[c][i] |= src[c][i];
  }
  return 0;
}
