/* cand.h -- candidate executions enumerated plainly, for the literal cat
 * evaluator (the second engine).  The explorer builds each combination
 * of traces and each barrier schedule (program semantics, shared by both
 * engines); this module then enumerates every reads-from choice, every
 * coherence order and every fence-SC order of that combination without
 * any model-specific pruning, asks the cat model about each, and hands
 * the consistent ones back to the explorer, which records their final
 * states. */
#ifndef WL_CAND_H
#define WL_CAND_H

#include "cat/cat.h"
#include "model.h"

typedef struct wl__candx wl__candx;

int wl__candx_new(wl_ctx *ctx, const wl_cat *m, const wl_litmus *t,
                  wl__candx **out);
void wl__candx_free(wl__candx *c);

/* E holds a combination's events, static relations and barrier phases
 * (E->phase).  Calls wl__explore_found(x, E) for every consistent
 * candidate, with E->rf, E->wl/E->nwl (a linear extension of the
 * candidate's coherence order ending with the write that gives the
 * location its final value: with a partial coherence order any co-
 * maximal write may be last, and each is reported) and E->scorder
 * filled.  Returns 0 or the explorer's error. */
int wl__candx_run(wl__candx *c, struct xp *x, exe *E);

/* Candidates checked so far (for statistics and benchmarks). */
uint64_t wl__candx_count(const wl__candx *c);

#endif
