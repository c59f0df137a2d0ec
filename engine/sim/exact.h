/* exact.h -- the choice oracle of the exact law (exact.c): under
 * WL_RNG_ENUM, rng.h's draws are these, and a run's step (sample.c,
 * compiled a second time in exact.c) is replayed from a script of
 * choices.  Each draw the script does not cover is recorded with its
 * alternatives, whose probabilities are exactly those of the draw made
 * from one uniform 64-bit number, as rng.h makes it:
 *
 *   chance(p)  (x & 1023) < p       true p/1024 (p clamped to 1024)
 *   knob(p)    (x >> 54) < p        true p/1024, nothing drawn at 0, 1024
 *   rare(p)    (x >> 32) < p        true p/2^32
 *   pick(n)    ((x >> 32) n) >> 32  k with the number of 32-bit values
 *                                   that map to it, over 2^32
 *   drop_bit   x & 63               each bit 1/64
 *
 * A draw with one possible answer records nothing (the law is that of
 * independent uniform draws).  Not installed. */
#ifndef WL_SIM_EXACT_H
#define WL_SIM_EXACT_H

#include <stdint.h>

#define ORA_MAXD 512 /* draws in one step; more: the law falls back */

enum { ORA_BOOL10, ORA_BOOL32, ORA_PICK, ORA_DROP };

typedef struct wl_rng {
  int n;    /* choices scripted, then recorded */
  int pos;  /* the next draw */
  int over; /* a step made more than ORA_MAXD draws */
  uint8_t kind[ORA_MAXD];
  uint16_t ch[ORA_MAXD]; /* the alternative taken */
  uint16_t na[ORA_MAXD]; /* its number of alternatives */
  uint64_t par[ORA_MAXD];
} wl_rng;

/* The probability of alternative a of a draw. */
static inline double ora_prob(int kind, uint64_t par, int a) {
  switch (kind) {
  case ORA_BOOL10:
#ifdef WL_MUTANT_LAWKNOB /* tests/cli/mutants.sh: the weights swapped */
    a = !a;
#endif
    return a == 0 ? (double)par / 1024.0 : (double)(1024 - par) / 1024.0;
  case ORA_BOOL32:
    return a == 0 ? (double)par / 4294967296.0
                  : (double)(((uint64_t)1 << 32) - par) / 4294967296.0;
  case ORA_PICK: {
    /* x in [0, 2^32) gives k = floor(x n / 2^32): those with
     * k 2^32 / n <= x < (k + 1) 2^32 / n */
    uint64_t n = par, lo = (((uint64_t)a << 32) + n - 1) / n,
             hi = ((((uint64_t)a + 1) << 32) + n - 1) / n;
    return (double)(hi - lo) / 4294967296.0;
  }
  default: { /* ORA_DROP: a set bit each, then none */
    int c = __builtin_popcountll(par);
    return a < c ? 1.0 / 64.0 : (double)(64 - c) / 64.0;
  }
  }
}

/* The next draw's alternative (0 when it is new). */
static inline int ora_next(wl_rng *r, int kind, uint64_t par, int na) {
  int p = r->pos;
  if (p < r->n) {
    r->pos++;
    return r->ch[p];
  }
  if (p == ORA_MAXD) {
    r->over = 1;
    return 0;
  }
  r->kind[p] = (uint8_t)kind;
  r->par[p] = par;
  r->na[p] = (uint16_t)na;
  r->ch[p] = 0;
  r->n = r->pos = p + 1;
  return 0;
}

/* true with probability num/den (den 1024 or 2^32) */
static inline int ora_bool(wl_rng *r, int kind, uint64_t num, uint64_t den) {
  if (num == 0)
    return 0;
  if (num >= den)
    return 1;
  return ora_next(r, kind, num, 2) == 0;
}

static inline int chance(wl_rng *r, unsigned p) {
  return ora_bool(r, ORA_BOOL10, p, 1024);
}

static inline int knob(wl_rng *r, unsigned p) {
  return ora_bool(r, ORA_BOOL10, p, 1024);
}

static inline int rare(wl_rng *r, uint32_t p) {
  return ora_bool(r, ORA_BOOL32, p, (uint64_t)1 << 32);
}

static inline int pick(wl_rng *r, int n) {
  return n <= 1 ? 0 : ora_next(r, ORA_PICK, (uint64_t)n, n);
}

static inline uint64_t drop_bit(wl_rng *r, uint64_t set) {
  int c = __builtin_popcountll(set), a, i;
  if (c == 0)
    return set;
  a = ora_next(r, ORA_DROP, set, c < 64 ? c + 1 : 64);
  for (i = 0; i < 64; i++)
    if (set >> i & 1 && a-- == 0)
      return set & ~(1ull << i);
  return set;
}

#endif
