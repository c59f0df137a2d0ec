/* l1.h -- the policy of an SM's L1 in the memory system, the same for
 * the litmus sampler (machine.h: a dense copy per location, l1 and
 * l1valid, for speed) and the kernel device (engine/sim/memory.c: copies
 * of 32-byte sectors on the cost model's lines, cache.h).  The two keep
 * their copies differently; what they do with them is decided here.
 * Not installed.
 *
 *   serves   a load may read its SM's copy: weak loads that cache in L1
 *            (.ca, .cs, the read-only path; not .cg, .cv or volatile)
 *            and cta-scope strong loads (their scope's point of
 *            coherence is the SM); litmus loads are .ca
 *   fill     a load performed at L2 refreshes a copy its SM holds (a
 *            later load of the SM must not read older than it did); an
 *            absent copy is made unless the profile's evict says no
 *   drops    an acquire at gpu or sys scope (a load, an atomic) drops
 *            the SM's copies, as does a release at gpu or sys scope
 *            (a fence, a release store or atomic)
 *   evict    after each step of a thread, its SM drops one line with
 *            chance evict/8 + 1 (in 1024)
 *   writes   an SM's own stores are written through into its copies */
#ifndef WL_MEM_L1_H
#define WL_MEM_L1_H

#include "../program/strength.h"
#include "../warplab.h"
#include "profile.h"
#include "rng.h"

/* Whether a load of semantics sem, scope and cache operator (WL_CACHE_*)
 * may be served by its SM's L1 copy. */
static inline int mm_l1_serves(int sem, int scope, int cache) {
  return (sem == WL_SEM_WEAK && (cache == WL_CACHE_CA || cache == WL_CACHE_CS ||
                                 cache == WL_CACHE_LDG)) ||
         (sem != WL_SEM_WEAK && scope == WL_SCOPE_CTA);
}

/* After a load at L2: whether its SM keeps (refreshes or makes) a copy
 * of what it read, held: whether it holds one. */
static WL_HOT int mm_l1_fill(wl_rng *r, const knobs *k, int held) {
  return held || !chance(r, k->evict);
}

/* Whether an access of semantics sem at scope drops its SM's copies
 * once performed: an acquire (or acq_rel) at gpu/sys scope. */
static inline int mm_l1_drops(int sem, int scope) {
  return wl__sem_acquires(sem) && scope >= WL_SCOPE_GPU;
}

/* Whether a release at scope (a fence, whose every gpu/sys form also
 * acquires, or a release store or atomic: machine.h's mm_release) drops
 * its SM's copies as it publishes the SM's stores. */
static inline int mm_l1_release_drops(int scope) {
  return scope >= WL_SCOPE_GPU;
}

/* After a step of a thread: whether its SM drops a line now. */
static WL_HOT int mm_l1_evict_due(wl_rng *r, const knobs *k) {
  return k->evict && chance(r, k->evict / 8 + 1);
}

#endif
