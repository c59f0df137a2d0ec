/* order.h -- what ordering operations do to the memory system, the same
 * for the litmus sampler (machine.h, engine/sim/sample.c) and the kernel
 * device (engine/sim/memory.c, access.c).  Not installed.
 *
 *   release  a release (a fence, a release store or atomic) at cta scope
 *            makes the thread's stores visible to its SM (a thread's own
 *            queue drains into the SM's buffer: the sampler's thq; the
 *            device has none); at gpu or sys scope it drains the SM's
 *            buffer (and its link queue) into L2 and drops the SM's L1
 *            copies (l1.h: mm_l1_release_drops)
 *   acquire  at gpu or sys scope drops the SM's L1 copies (l1.h)
 *   atomics  are performed at L2 at gpu or sys scope, and at every scope
 *            when the profile says so (atl2); else on the SM's view
 *            (its buffer, then L2): the device performs every global
 *            atomic at L2 (cta-scope atomics on the SM's view have no
 *            kernel form yet) */
#ifndef WL_MEM_ORDER_H
#define WL_MEM_ORDER_H

#include "../warplab.h"
#include "profile.h"

/* Whether a release at scope publishes the SM's buffer to L2. */
static inline int mm_release_publishes(int scope) {
  return scope >= WL_SCOPE_GPU;
}

/* Whether an atomic at scope is performed at L2 under profile k. */
static inline int mm_atomic_at_l2(const knobs *k, int scope) {
  return scope >= WL_SCOPE_GPU || k->atl2;
}

#endif
