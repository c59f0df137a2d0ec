/* clock.c -- sparse vector clocks for the race detector (check.h): an
 * open-addressing table of 64-bit keys (0 marks an empty slot) to 32-bit
 * values, kept at most half full.  Most threads of a kernel never
 * acquire anything, so most tables stay empty and cost no memory. */
#include <string.h>

#include "check.h"

static uint32_t slot_of(uint64_t key, uint32_t cap) {
  return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

uint32_t wl__kmap_get(const wl__kmap *m, uint64_t key) {
  uint32_t i;
  if (m == NULL || m->n == 0)
    return 0;
  for (i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
    if (m->keys[i] == key)
      return m->vals[i];
    if (m->keys[i] == 0)
      return 0;
  }
}

static int grow(wl_ctx *ctx, wl__kmap *m) {
  uint32_t cap = m->cap ? m->cap * 2 : 8, i, j;
  uint64_t *keys = wl__calloc(ctx, sizeof *keys * cap);
  uint32_t *vals = wl__calloc(ctx, sizeof *vals * cap);
  if (keys == NULL || vals == NULL) {
    wl__free(ctx, keys, sizeof *keys * cap);
    wl__free(ctx, vals, sizeof *vals * cap);
    return WL_ENOMEM;
  }
  for (i = 0; i < m->cap; i++) {
    if (m->keys[i] == 0)
      continue;
    for (j = slot_of(m->keys[i], cap); keys[j] != 0; j = (j + 1) & (cap - 1))
      ;
    keys[j] = m->keys[i];
    vals[j] = m->vals[i];
  }
  wl__free(ctx, m->keys, sizeof *m->keys * m->cap);
  wl__free(ctx, m->vals, sizeof *m->vals * m->cap);
  m->keys = keys;
  m->vals = vals;
  m->cap = cap;
  return 0;
}

int wl__kmap_max(wl_ctx *ctx, wl__kmap *m, uint64_t key, uint32_t v) {
  uint32_t i;
  if (v == 0)
    return 0;
  if ((m->n + 1) * 2 > m->cap && grow(ctx, m) != 0)
    return WL_ENOMEM;
  for (i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
    if (m->keys[i] == key) {
      if (m->vals[i] < v)
        m->vals[i] = v;
      return 0;
    }
    if (m->keys[i] == 0) {
      m->keys[i] = key;
      m->vals[i] = v;
      m->n++;
      return 0;
    }
  }
}

int wl__kmap_join(wl_ctx *ctx, wl__kmap *dst, const wl__kmap *src) {
  uint32_t i;
  if (src == NULL || src->n == 0 || src == dst)
    return 0;
  for (i = 0; i < src->cap; i++)
    if (src->keys[i] != 0 &&
        wl__kmap_max(ctx, dst, src->keys[i], src->vals[i]) != 0)
      return WL_ENOMEM;
  return 0;
}

void wl__kmap_clear(wl__kmap *m) {
  if (m->n == 0)
    return;
  memset(m->keys, 0, sizeof *m->keys * m->cap);
  m->n = 0;
}

void wl__kmap_free(wl_ctx *ctx, wl__kmap *m) {
  if (m == NULL)
    return;
  wl__free(ctx, m->keys, sizeof *m->keys * m->cap);
  wl__free(ctx, m->vals, sizeof *m->vals * m->cap);
  memset(m, 0, sizeof *m);
}
