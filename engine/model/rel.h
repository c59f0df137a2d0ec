/* rel.h -- sets of events and relations over the events of one
 * execution.  A set (evset) is a bit vector of WL_SETW 64-bit words; a
 * relation (rel) is a bit matrix, one set per row: bit j of row i is the
 * pair (i, j).  Code outside this file uses the functions below, never
 * the words, so the width is WL_MAX_EVENTS alone. */
#ifndef WL_REL_H
#define WL_REL_H

#include <string.h>

#include "model.h"

#define ES_EMPTY ((evset){{0}})

/* Every element and row index is an event: 0 <= i < WL_MAX_EVENTS
 * (wl_assert). */
#define ES_IN(i) ((i) >= 0 && (i) < WL_MAX_EVENTS)

static inline int es_has(evset s, int i) {
  wl_assert(ES_IN(i));
  return (int)(s.w[i >> 6] >> (i & 63) & 1);
}
static inline void es_add(evset *s, int i) {
  wl_assert(ES_IN(i));
  s->w[i >> 6] |= 1ull << (i & 63);
}
static inline void es_del(evset *s, int i) {
  wl_assert(ES_IN(i));
  s->w[i >> 6] &= ~(1ull << (i & 63));
}
static inline evset es_single(int i) {
  evset s = ES_EMPTY;
  es_add(&s, i);
  return s;
}
static inline int es_empty(evset s) {
  uint64_t acc = 0;
  int k;
  for (k = 0; k < WL_SETW; k++)
    acc |= s.w[k];
  return acc == 0;
}
static inline int es_eq(evset a, evset b) {
  uint64_t acc = 0;
  int k;
  for (k = 0; k < WL_SETW; k++)
    acc |= a.w[k] ^ b.w[k];
  return acc == 0;
}
static inline evset es_or(evset a, evset b) {
  int k;
  for (k = 0; k < WL_SETW; k++)
    a.w[k] |= b.w[k];
  return a;
}
static inline evset es_and(evset a, evset b) {
  int k;
  for (k = 0; k < WL_SETW; k++)
    a.w[k] &= b.w[k];
  return a;
}
static inline evset es_andnot(evset a, evset b) {
  int k;
  for (k = 0; k < WL_SETW; k++)
    a.w[k] &= ~b.w[k];
  return a;
}
/* Whether a and b share an element. */
static inline int es_meets(evset a, evset b) {
  return !es_empty(es_and(a, b));
}
static inline int es_count(evset s) {
  int k, c = 0;
  for (k = 0; k < WL_SETW; k++)
    c += __builtin_popcountll(s.w[k]);
  return c;
}
/* The events lo..hi-1. */
static inline evset es_range(int lo, int hi) {
  evset s = ES_EMPTY;
  int i;
  wl_assert(lo >= 0 && hi <= WL_MAX_EVENTS);
  for (i = lo; i < hi; i++)
    es_add(&s, i);
  return s;
}
/* The first element of *s at or after i, or -1. */
static inline int es_from(const evset *s, int i) {
  int k = i >> 6;
  uint64_t x;
  wl_assert(i >= 0);
  if (k >= WL_SETW)
    return -1;
  x = s->w[k] & (~0ull << (i & 63));
  while (x == 0) {
    if (++k == WL_SETW)
      return -1;
    x = s->w[k];
  }
  return (k << 6) + __builtin_ctzll(x);
}
/* The first element of s, or -1. */
static inline int es_first(evset s) { return es_from(&s, 0); }
/* The first element of s after i, or -1. */
static inline int es_next(evset s, int i) { return es_from(&s, i + 1); }
/* For each element i of the set s (an lvalue, unchanged by the body),
 * in increasing order. */
#define ES_FOR(i, s)                                                           \
  for ((i) = es_from(&(s), 0); (i) >= 0; (i) = es_from(&(s), (i) + 1))

static inline evset rel_row(const rel r, int i) {
  wl_assert(ES_IN(i));
  return r[i];
}
static inline int rel_has(const rel r, int i, int j) {
  wl_assert(ES_IN(i));
  return es_has(r[i], j);
}
static inline void rel_add(rel r, int i, int j) {
  wl_assert(ES_IN(i));
  es_add(&r[i], j);
}
static inline void rel_del(rel r, int i, int j) {
  wl_assert(ES_IN(i));
  es_del(&r[i], j);
}

static inline void rel_zero(rel r, int n) {
  wl_assert(n >= 0 && n <= WL_MAX_EVENTS);
  memset(r, 0, (size_t)n * sizeof r[0]);
}

static inline void rel_copy(rel d, const rel s, int n) {
  wl_assert(n >= 0 && n <= WL_MAX_EVENTS);
  memcpy(d, s, (size_t)n * sizeof d[0]);
}

/* The union of the rows of r over the elements of s. */
static inline evset rel_image(const rel r, evset s) {
  evset acc = ES_EMPTY;
  int j;
  ES_FOR(j, s)
  acc = es_or(acc, r[j]);
  return acc;
}

/* d = a ; b */
static inline void rel_seq(rel d, const rel a, const rel b, int n) {
  int i;
  for (i = 0; i < n; i++)
    d[i] = rel_image(b, a[i]);
}

static inline void rel_closure(rel r, int n) {
  int i, k;
  for (k = 0; k < n; k++)
    for (i = 0; i < n; i++)
      if (es_has(r[i], k))
        r[i] = es_or(r[i], r[k]);
}

/* Transitive closure of r restricted to the nodes of mask (rows and
 * columns outside it are empty). */
static inline void rel_closure_on(rel r, evset mask) {
  int i, k;
  ES_FOR(k, mask) {
    if (es_empty(r[k]))
      continue;
    ES_FOR(i, mask)
    if (es_has(r[i], k))
      r[i] = es_or(r[i], r[k]);
  }
}

static inline int rel_irreflexive(const rel r, int n) {
  int i;
  for (i = 0; i < n; i++)
    if (es_has(r[i], i))
      return 0;
  return 1;
}

static inline int rel_acyclic(const rel r, int n) {
  rel c;
  rel_copy(c, r, n);
  rel_closure(c, n);
  return rel_irreflexive(c, n);
}

#endif
