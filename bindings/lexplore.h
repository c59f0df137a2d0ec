/* lexplore.h -- one exploration across cores: the units of
 * wl_explore_split (engine/warplab.h) on the libuv pool of
 * bindings/lpool.c, merged in unit order (wl_explore_merge), so that the
 * result is wl_explore's for any number of jobs.  Used by `warplab
 * litmus --jobs N FILE` and `t:explore{jobs = N}`.  Not installed. */
#ifndef LEXPLORE_H
#define LEXPLORE_H

#include <stddef.h>

#include "../engine/warplab.h"
#include "ranks.h" /* wll_ranks_codec, wll_pool_*: types only */

#if defined(__GNUC__)
#define WLL_EXPLORE_HIDDEN __attribute__((visibility("hidden")))
#else
#define WLL_EXPLORE_HIDDEN
#endif

/*
 * Explores t as wl_explore(ctx, t, opts, out) does, split into units
 * that jobs workers (>= 1; 1: every unit on the calling thread, in
 * order) run with an explorer and a context each, and merged on the
 * calling thread in unit order.  The result is made from ctx; opts is
 * copied (its should_stop must be safe to call from any thread: it is
 * polled by every worker; progress is not called, the pool's line
 * "explore NAME: 41% 105/256 units" is drawn on stderr instead when
 * progress is non-zero).
 *
 * SIGINT and SIGTERM (bindings/lsignal.c) and should_stop stop the
 * workers; with opts->keep_partial the units merged so far, and what
 * the stopped unit found, come back as a result marked partial
 * (WL_ESTOPPED), else the call fails with WL_ESTOPPED.  The signal is
 * left pending for the caller (wll_sig_take).
 *
 * Returns 0 and sets *out, or a WL_E* code with ctx's message: the first
 * failing unit's, in unit order (what wl_explore would have failed
 * with), or the pool's (WL_EIO). */
WLL_EXPLORE_HIDDEN int wll_explore_jobs(wl_ctx *ctx, const wl_litmus *t,
                                        const wl_explore_opts *opts,
                                        int jobs, int progress,
                                        wl_result **out);

/*
 * wll_explore_jobs with the units spread over processes: spread has
 * wll_ranks_pool_run's shape (the command passes that function under
 * MPI: ranks.h), and is given the units, the pool's functions and a
 * codec that packs a unit's result (wl_result_pack) on the rank that
 * ran it and unpacks it (wl_result_unpack) on the rank that emits.  A
 * rank's units know what its own earlier units found (a merge of units
 * before them: wl_explore_unit's known), never another rank's.  emits:
 * whether spread emits here (rank 0); where it does not, the call
 * returns 0 with *out NULL, or the failure every rank returns.  Every
 * process must make the call with the same test and options.
 */
typedef int (*wll_explore_spread)(size_t n, const wll_pool_opts *opts,
                                  const wll_pool_fns *fns,
                                  const wll_ranks_codec *codec, void *ud,
                                  wll_pool_result *res, char *note,
                                  size_t notelen, char *err, size_t errlen);
WLL_EXPLORE_HIDDEN int wll_explore_spread_run(wl_ctx *ctx, const wl_litmus *t,
                                              const wl_explore_opts *opts,
                                              int jobs, int progress,
                                              wll_explore_spread spread,
                                              int emits, wl_result **out);

#endif
