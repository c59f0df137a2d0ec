/* weak.c -- which outcomes of a histogram are weak: those no
 * sequentially consistent interleaving of the test produces.  The
 * search is the explorer's reference's (model/scsearch.h: barriers
 * block, spin iterations that change nothing are free); this file gives
 * it the sampler's parameters: no unroll bound (the sampler's runs have
 * none: a loop is searched until it comes back to a state met before,
 * within a depth), each final state marks the histogram outcome it matches,
 * callback results are the histogram's slots (the test is not changed:
 * several workers sample it at once, hist.h), the histogram's stop hook
 * is polled, and a search that gives up (the bound cut an interleaving,
 * the state budget, a barrier divergence, a callback's failure) leaves
 * every outcome's weakness unknown (out of memory fails the call). */
#include <string.h>

#include "../model/scsearch.h"
#include "hist.h"

/* Memoised states before the search gives up (weak unknown): tens of
 * milliseconds and at most tens of MiB (keys of a few hundred bytes),
 * where the old search gave up after its 2,000,000 steps (it memoised
 * 45,875 states); the largest test of the conformance corpus needs
 * 3,390. */
#define WEAK_MAXSTATES ((size_t)1 << 16)
/* Visible steps in one interleaving (the search recurses once per step,
 * and keeps a state per level). */
#define WEAK_MAXDEPTH 2000

typedef struct mark {
  wl_hist *h;
  uint8_t *sc; /* per outcome: reachable under SC */
} mark;

/* The sink: the outcome with this final state's values is SC. */
static int mark_final(void *ud, const int64_t *const *regs,
                      const int64_t *mem) {
  const mark *m = ud;
  const wl_hist *h = m->h;
  int64_t vals[WL_MAX_THREADS * WL_MAX_REGS + WL_MAX_LOCS];
  long k;
  int th, n = h->t->nthreads;
  for (th = 0; th < n; th++)
    memcpy(vals + h->lay.regoff[th], regs[th],
           (size_t)nreg(h, th) * sizeof vals[0]);
  memcpy(vals + h->lay.regoff[n], mem, (size_t)h->t->nlocs * sizeof vals[0]);
  k = wl__hist_find(h, vals);
  if (k >= 0)
    m->sc[k] = 1;
  return 0;
}

/* A callback's result is its slot in the histogram; a name no sampled
 * run reported matches a sampled outcome only with the implicit 0. */
static int mark_name(void *ud, int th, const char *name, int type,
                     int64_t value, int *slot) {
  wl_hist *h = ((mark *)ud)->h;
  int k = wl__hist_reg(h, th, name), r;
  if (k < 0) {
    *slot = value != 0 ? WL__SC_NOMATCH : WL__SC_IGNORE;
    return 0;
  }
  if ((r = wl__hist_type_result(h, th, k, name, type)) != 0)
    return r;
  *slot = k;
  return 0;
}

/* A callback thread's slots start as the test's registers, its other
 * results (the histogram's own names) at 0. */
static void mark_init(void *ud, int th, int64_t *vals) {
  const wl_hist *h = ((mark *)ud)->h;
  int k;
  for (k = 0; k < WL_MAX_REGS; k++)
    vals[k] = k < h->tregs[th] ? h->t->threads[th].reginit[k] : 0;
}

/* Marks the outcomes sequential consistency cannot produce. */
int wl__hist_compute_weak(wl_hist *h) {
  wl__sc_params p;
  mark m;
  size_t i;
  int rc;
  wl__free(h->ctx, h->weak, h->nweak);
  h->weak = NULL;
  h->nweak = 0;
  m.h = h;
  m.sc = wl__calloc(h->ctx, h->n + 1);
  if (m.sc == NULL)
    return wl__err(h->ctx, WL_ENOMEM, "out of memory");
  memset(&p, 0, sizeof p);
  p.unroll = WL__SC_UNBOUNDED;
  p.max_depth = WEAK_MAXDEPTH;
  p.max_states = WEAK_MAXSTATES;
  p.final = mark_final;
  p.result = mark_name;
  p.init = mark_init;
  p.stop = h->stop;
  p.stop_ud = h->stop_ud;
  p.ud = &m;
  rc = wl__sc_search(h->ctx, h->t, &p);
  if (rc == WL_ESTOPPED || rc == WL_ENOMEM) {
    /* weak unknown, and not kept: asked again, searched again */
    h->weak_known = 0;
    wl__free(h->ctx, m.sc, h->n + 1);
    return rc == WL_ENOMEM ? rc : 0;
  }
  h->weak_known = rc == 0 && !p.bound_hit;
  for (i = 0; i < h->n; i++)
    m.sc[i] = !m.sc[i]; /* reachable under SC -> not weak */
  h->weak = m.sc;
  h->nweak = h->n + 1;
  return 0;
}
