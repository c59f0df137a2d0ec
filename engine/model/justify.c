/* justify.c -- No-Thin-Air before any search: whether the reads of a
 * combination of traces can be given writes to read from without a
 * cycle through their own values.  The value-domain fixpoint takes no
 * value from a combination that fails it, and the search never builds
 * one (explore.c's combo_dfs). */
#include <string.h>

#include "explore.h"

/* Whether the reads of a combination of traces (one per thread) can all
 * read from writes without a cycle in rf | data | ctrl: a read needs a
 * write of its value (the initial one, one of another thread, or its
 * own thread's po-earlier one) that is itself justified, a write needs
 * the reads it depends on justified.  Every consistent execution has
 * that order (No-Thin-Air, in every model read here; rmw is left out of
 * it, so that models without it in No-Thin-Air lose nothing), so a
 * combination that fails it has no consistent execution, and the value
 * fixpoint takes no value from it: values only an out-of-thin-air cycle
 * could write (a load's value stored back beside an atomic add) never
 * enter the domains. */
int wl__xp_justified(const xp *x, const wl_trace *const *chosen) {
  const wl_litmus *t = x->t;
  static const uint8_t zero[WL_MAX_TEV];
  uint8_t ok[WL_MAX_THREADS][WL_MAX_TEV];
  int th, i, o, j, changed = 1, left = 0;
  for (th = 0; th < t->nthreads; th++)
    memcpy(ok[th], zero, sizeof zero);
  for (th = 0; th < t->nthreads; th++) {
    const wl_ev *ev = WL_VEC_PTR(&x->pool[th].ev, wl_ev, chosen[th]->ev0);
    for (i = 0; i < chosen[th]->nev; i++) {
      ok[th][i] = ev[i].type != EV_R && ev[i].type != EV_W;
      left += !ok[th][i];
    }
  }
  while (changed && left > 0) {
    changed = 0;
    for (th = 0; th < t->nthreads; th++) {
      const wl_trace *tr = chosen[th];
      const wl_ev *ev = WL_VEC_PTR(&x->pool[th].ev, wl_ev, tr->ev0);
      for (i = 0; i < tr->nev; i++) {
        const wl_ev *e = &ev[i];
        int good = 0;
        if (ok[th][i])
          continue;
        if (e->type == EV_W) {
          uint64_t d = e->cdeps | e->ddeps;
          good = 1;
          while (d && good) {
            int k = __builtin_ctzll(d);
            d &= d - 1;
            good = ok[th][k];
          }
        } else {
          good = t->locinit[e->loc] == e->val;
          for (j = 0; j < i && !good; j++)
            good = ok[th][j] && ev[j].type == EV_W && ev[j].loc == e->loc &&
                   ev[j].val == e->val;
          for (o = 0; o < t->nthreads && !good; o++) {
            const wl_ev *oe;
            if (o == th)
              continue;
            oe = WL_VEC_PTR(&x->pool[o].ev, wl_ev, chosen[o]->ev0);
            for (j = 0; j < chosen[o]->nev && !good; j++)
              good = ok[o][j] && oe[j].type == EV_W && oe[j].loc == e->loc &&
                     oe[j].val == e->val;
          }
        }
        if (good) {
          ok[th][i] = 1;
          left--;
          changed = 1;
        }
      }
    }
  }
  return left == 0;
}
