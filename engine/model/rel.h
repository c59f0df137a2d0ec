/* rel.h -- relations over the events of one execution as bit matrices:
 * bit j of row i is the pair (i, j); composition, closure and acyclicity
 * are word operations (an execution has at most WL_MAX_EVENTS events,
 * one 64-bit word per row). */
#ifndef WL_REL_H
#define WL_REL_H

#include <string.h>

#include "model.h"

/* Sets of events and rows of relations: use these (not the words behind
 * them) so that code keeps working when an execution's events need more
 * than one word. */

static inline int es_has(evset s, int i) { return (int)(s >> i & 1); }
static inline void es_add(evset *s, int i) { *s |= 1ull << i; }
static inline void es_del(evset *s, int i) { *s &= ~(1ull << i); }
static inline int es_empty(evset s) { return s == 0; }
static inline evset es_or(evset a, evset b) { return a | b; }
static inline evset es_and(evset a, evset b) { return a & b; }
static inline evset es_andnot(evset a, evset b) { return a & ~b; }
static inline int es_count(evset s) { return __builtin_popcountll(s); }
/* The first element of s, or -1. */
static inline int es_first(evset s) { return s ? __builtin_ctzll(s) : -1; }
/* The first element of s after i, or -1. */
static inline int es_next(evset s, int i) {
  s = i >= 63 ? 0 : s >> (i + 1) << (i + 1);
  return es_first(s);
}
#define ES_FOR(i, s) for ((i) = es_first(s); (i) >= 0; (i) = es_next((s), (i)))

static inline evset rel_row(const rel r, int i) { return r[i]; }
static inline int rel_has(const rel r, int i, int j) { return es_has(r[i], j); }
static inline void rel_add(rel r, int i, int j) { es_add(&r[i], j); }
static inline void rel_del(rel r, int i, int j) { es_del(&r[i], j); }

static inline void rel_zero(rel r, int n) {
  memset(r, 0, (size_t)n * sizeof r[0]);
}

static inline void rel_copy(rel d, const rel s, int n) {
  memcpy(d, s, (size_t)n * sizeof d[0]);
}

/* d = a ; b */
static inline void rel_seq(rel d, const rel a, const rel b, int n) {
  int i;
  for (i = 0; i < n; i++) {
    uint64_t row = a[i], acc = 0;
    while (row) {
      int j = __builtin_ctzll(row);
      row &= row - 1;
      acc |= b[j];
    }
    d[i] = acc;
  }
}

static inline void rel_closure(rel r, int n) {
  int i, k;
  for (k = 0; k < n; k++) {
    uint64_t bk = 1ull << k;
    for (i = 0; i < n; i++)
      if (r[i] & bk)
        r[i] |= r[k];
  }
}

/* Transitive closure of r restricted to the nodes of mask (rows and
 * columns outside it are empty). */
static inline void rel_closure_on(rel r, uint64_t mask) {
  uint64_t ks, is;
  for (ks = mask; ks; ks &= ks - 1) {
    int k = __builtin_ctzll(ks);
    uint64_t bk = 1ull << k;
    if (!r[k])
      continue;
    for (is = mask; is; is &= is - 1) {
      int i = __builtin_ctzll(is);
      if (r[i] & bk)
        r[i] |= r[k];
    }
  }
}

static inline int rel_irreflexive(const rel r, int n) {
  int i;
  for (i = 0; i < n; i++)
    if (r[i] >> i & 1)
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
