/* sc.h -- the sequentially consistent interpreter (model/sc.c): every
 * interleaving of a test's threads over one shared memory, one step at a
 * time, with the final states it reaches.  The reference the explorer is
 * checked against: every SC final state must be allowed by the PTX
 * model.  Not installed; wl_sc_states in warplab.h is its public face. */
#ifndef WL_SC_H
#define WL_SC_H

#include "model.h"

/*
 * Enumerates the sequentially consistent final states of t.  unroll is
 * the loop bound as wl_explore_opts.unroll reads it (0: the default).
 * each is called once per distinct final state, after the search, with
 * the values in wl_layout's order (every register of every thread, then
 * every location); a non-zero return stops with WL_ESTOPPED.  The call
 * may add registers to t's callback threads (their wl_tb_result names),
 * as wl_explore does.  *bound_hit (may be NULL) is set when the bound
 * cut some interleaving.  Errors: WL_EINVAL (barrier divergence, a
 * non-deterministic callback), WL_EUNSUPPORTED (a barrier form the
 * interpreter cannot mirror faithfully), WL_ELIMIT, WL_ENOMEM, or a
 * callback's own code; the message is in ctx.
 */
int wl__sc_states(wl_ctx *ctx, const wl_litmus *t, int unroll,
                  int (*each)(void *ud, const int64_t *vals, int nvals),
                  void *ud, int *bound_hit);

#endif
