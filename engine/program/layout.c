/* layout.c -- the layout of final states: which thread's register or
 * which location each value of a final state is, its name and type. */
#include "ir.h"

/* ---------------------------------------------------------------- */
/* The layout of final states                                        */

void wl__layout_init(wl_layout *l, const wl_litmus *t) {
  int th;
  l->nvals = 0;
  for (th = 0; th < t->nthreads; th++) {
    l->regoff[th] = l->nvals;
    l->nvals += t->threads[th].nregs;
  }
  l->regoff[t->nthreads] = l->nvals;
  l->nvals += t->nlocs;
}

int wl__layout_thread(const wl_layout *l, const wl_litmus *t, int var) {
  int th;
  if (var < 0 || var >= l->nvals)
    return -1;
  for (th = 0; th < t->nthreads; th++)
    if (var < l->regoff[th + 1])
      return th;
  return -1;
}

int wl__layout_type(const wl_layout *l, const wl_litmus *t, int var) {
  int th = wl__layout_thread(l, t, var);
  if (var < 0 || var >= l->nvals)
    return WL_EINVAL;
  if (th >= 0)
    return t->threads[th].regtype[var - l->regoff[th]];
  return t->loctype[var - l->regoff[t->nthreads]];
}

const char *wl__layout_name(const wl_layout *l, const wl_litmus *t, int var) {
  int th = wl__layout_thread(l, t, var);
  if (var < 0 || var >= l->nvals)
    return NULL;
  if (th >= 0)
    return t->threads[th].regnames[var - l->regoff[th]];
  return t->locnames[var - l->regoff[t->nthreads]];
}
