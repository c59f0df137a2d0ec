/* vecset.c -- a set of value vectors (k int64 values each), hashed:
 * compare's matching of observed outcomes to the allowed states, of
 * allowed states to each other (one per projection) and to the SC
 * states, in time linear in their numbers (it was quadratic: 4-thread
 * tests with 100,000 allowed states did not finish in 400 s).  Open
 * addressing over indices into the vectors, kept in the order added. */
#include <string.h>

#include "emit.h"

void wl__vecset_init(wl__vecset *s, wl_ctx *ctx, int k) {
  memset(s, 0, sizeof *s);
  s->ctx = ctx;
  s->k = k;
}

static size_t vhash(const int64_t *v, int k) {
  uint64_t h = 0x9E3779B97F4A7C15ULL;
  int i;
  for (i = 0; i < k; i++) {
    h ^= (uint64_t)v[i];
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 31;
  }
  return (size_t)(h ^ (h >> 29));
}

/* The slot that holds v, or the empty slot where it would go. */
static size_t vslot(const wl__vecset *s, const int64_t *v) {
  size_t mask = s->nslots - 1, i = vhash(v, s->k) & mask;
  while (s->slot[i] != 0 && s->k > 0 &&
         memcmp(s->v + (s->slot[i] - 1) * (size_t)s->k, v,
                (size_t)s->k * sizeof *v) != 0)
    i = (i + 1) & mask;
  return i;
}

size_t wl__vecset_find(const wl__vecset *s, const int64_t *v) {
  size_t i;
  if (s->n == 0)
    return WL__VECSET_NONE;
  i = vslot(s, v);
  return s->slot[i] != 0 ? s->slot[i] - 1 : WL__VECSET_NONE;
}

static int grow(wl__vecset *s) {
  size_t ns = s->nslots ? 2 * s->nslots : 64, cap, i;
  size_t *slot = wl__calloc(s->ctx, ns * sizeof *slot);
  int64_t *v;
  if (slot == NULL)
    return -1;
  cap = ns / 2;
  v = wl__realloc(s->ctx, s->v, s->cap * (size_t)s->k * sizeof *v,
                  cap * (size_t)s->k * sizeof *v);
  if (v == NULL && cap * (size_t)s->k > 0) {
    wl__free(s->ctx, slot, ns * sizeof *slot);
    return -1;
  }
  wl__free(s->ctx, s->slot, s->nslots * sizeof *s->slot);
  s->v = v;
  s->cap = cap;
  s->slot = slot;
  s->nslots = ns;
  for (i = 0; i < s->n; i++)
    s->slot[vslot(s, s->v + i * (size_t)s->k)] = i + 1;
  return 0;
}

size_t wl__vecset_add(wl__vecset *s, const int64_t *v, int *added) {
  size_t i;
  *added = 0;
  if (s->n + 1 > s->nslots / 2 && grow(s) != 0)
    return WL__VECSET_OOM;
  i = vslot(s, v);
  if (s->slot[i] != 0)
    return s->slot[i] - 1;
  if (s->k > 0)
    memcpy(s->v + s->n * (size_t)s->k, v, (size_t)s->k * sizeof *v);
  s->slot[i] = ++s->n;
  *added = 1;
  return s->n - 1;
}

void wl__vecset_free(wl__vecset *s) {
  wl__free(s->ctx, s->v, s->cap * (size_t)s->k * sizeof *s->v);
  wl__free(s->ctx, s->slot, s->nslots * sizeof *s->slot);
  memset(s, 0, sizeof *s);
}
