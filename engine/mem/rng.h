/* rng.h -- the memory machine's random draws: a seeded xorshift
 * generator whose state is a local of the run (every hot function is
 * inlined into the run, so the state stays in a register), and the
 * draws the machine and its scheduler make from it.  The order and
 * number of draws is part of what a seed means: a sampled histogram
 * replays only while they stay the same.  Not installed. */
#ifndef WL_MEM_RNG_H
#define WL_MEM_RNG_H

#include <stdint.h>

#include "../common/internal.h" /* WL_HOT: the hot path is inlined into one
                                 * function per profile, so that the
                                 * profile's knobs are constants there and
                                 * the generator's state stays in a
                                 * register */

/* A run's seed from the sampling's seed and the run's index. */
static inline uint64_t wl__splitmix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* A run's generator: its state in the step-by-step sampler.  The exact
 * law (engine/sim/exact.c) compiles the same steps a second time with
 * WL_RNG_ENUM defined, where wl_rng is a choice oracle (exact.h) and
 * each draw below is answered from a script of choices, its
 * alternatives recorded with their exact probabilities.  So every draw
 * the machine makes must be one of these: a raw rnd() in the step code
 * could not be enumerated. */
#ifdef WL_RNG_ENUM
#include "../sim/exact.h"
#else
typedef uint64_t wl_rng;

static inline uint64_t rnd(wl_rng *r) {
  uint64_t x = *r;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  *r = x;
  return x;
}

/* true with probability p/1024 */
static inline int chance(wl_rng *r, unsigned p) {
  return (rnd(r) & 1023) < p;
}

static inline int pick(wl_rng *r, int n) {
  /* multiply-shift: no division on the hot path */
  return (int)(((rnd(r) >> 32) * (uint64_t)n) >> 32);
}

/* true with probability p/1024, drawing no number when p is 0 or
 * 1024 (so a knob at either end leaves the random stream alone).  It
 * reads the top bits: the low bits of nearby xorshift outputs are
 * correlated enough that two rare events (p near 1024) would come
 * together far more often than p's square. */
static inline int knob(wl_rng *r, unsigned p) {
  return p >= 1024 || (p > 0 && (rnd(r) >> 54) < p);
}

/* true with probability p/2^32 (the link's rare events) */
static inline int rare(wl_rng *r, uint32_t p) {
  return p > 0 && (uint32_t)(rnd(r) >> 32) < p;
}

/* set less one of the 64 bits, drawn uniformly from the low 6 bits of
 * one number (a bit that set lacks leaves it as it is) */
static inline uint64_t drop_bit(wl_rng *r, uint64_t set) {
  return set & ~(1ull << (rnd(r) & 63));
}
#endif

#endif
