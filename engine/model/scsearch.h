/* scsearch.h -- the one search for sequentially consistent final states
 * (model/sc.c, model/sccb.c), shared by the explorer's reference
 * (model/scstates.c: wl_sc_states, the states collected) and the
 * sampler (sim/weak.c: which outcomes of a histogram are weak).  What
 * differs between the two is a parameter: where final states go, what a
 * callback thread's result names become, the stop hook, the budget.
 * Only program/ir.h's types, so that sim/ may use it.  Not installed. */
#ifndef WL_SCSEARCH_H
#define WL_SCSEARCH_H

#include "../program/ir.h"

/* What a callback thread's result name maps to (wl__sc_params.result). */
#define WL__SC_UNBOUNDED (-1) /* wl__sc_params.unroll: no loop bound */

enum {
  WL__SC_IGNORE = -1, /* no slot: the value is dropped */
  WL__SC_NOMATCH = -2 /* no slot: the thread's final states are of no
                       * interest to the sink (never given to it) */
};

typedef struct wl__sc_params {
  /* The loop bound as wl_explore_opts.unroll reads it (0:
   * WL_DEFAULT_UNROLL), or WL__SC_UNBOUNDED: loops are not bounded, a
   * loop that comes back to a state met before is pruned by the memo
   * (exact where the states are finitely many), max_depth bounds the
   * search.  Spin iterations that change nothing are free either way. */
  int unroll;
  int max_depth;     /* visible steps in one interleaving, past which it is
                      * cut as the unroll bound cuts (0: no limit) */
  size_t max_states; /* memoised states before WL_ELIMIT (0: 4,000,000) */
  /* Each final state the search reaches (once or more), with regs[th]
   * thread th's values (an instruction thread's registers; a callback
   * thread's result slots as result numbered them, WL_MAX_REGS) and mem
   * the locations; valid during the call.  Non-zero stops the search
   * with WL_ESTOPPED. */
  int (*final)(void *ud, const int64_t *const *regs, const int64_t *mem);
  /* Callback thread th reported result name of WL_TYPE_* type: 0 and
   * *slot its index in the thread's values (or WL__SC_IGNORE,
   * WL__SC_NOMATCH), or a WL_E* code with the message in ctx (a type
   * that differs from an earlier report...).  Called at every replay
   * that reaches the report. */
  int (*result)(void *ud, int th, const char *name, int type, int64_t value,
                int *slot);
  /* A callback thread's values before it reports any (WL_MAX_REGS);
   * NULL: the thread's reginit. */
  void (*init)(void *ud, int th, int64_t *vals);
  /* Optional: stop(stop_ud) is polled every few thousand states;
   * non-zero stops the search with WL_ESTOPPED. */
  int (*stop)(void *stop_ud);
  void *stop_ud;
  void *ud; /* final's, result's and init's */
  /* out: the unroll bound cut some interleaving (its final states, if
   * any, were not reached) */
  int bound_hit;
  /* out: states memoised */
  size_t nstates;
} wl__sc_params;

/*
 * The sequentially consistent interleavings of t (every thread's visible
 * steps -- loads, stores, RMWs, barrier arrivals, a callback's events --
 * in every order over one memory; barriers block as the explorer
 * schedules them; loops bounded as the explorer bounds them), each final
 * state given to p->final.  0, or WL_ESTOPPED (final or stop), WL_EINVAL
 * (barrier divergence, a callback that is not deterministic),
 * WL_EUNSUPPORTED (a barrier used with different counts), WL_ELIMIT
 * (p->max_states, more than 16 barriers, a callback's events), WL_ENOMEM
 * or a callback's own code, with the message in ctx.  t is only read,
 * except through p->result.
 */
int wl__sc_search(wl_ctx *ctx, const wl_litmus *t, wl__sc_params *p);

#endif
