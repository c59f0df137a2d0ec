/* law.h -- the exact law of a test's outcomes (exact.c computes it,
 * sampling.c draws runs from it).  Not installed. */
#ifndef WL_SIM_LAW_H
#define WL_SIM_LAW_H

#include <stddef.h>
#include <stdint.h>

#include "../program/ir.h"

struct wl_law {
  wl_ctx *ctx;
  int exact;     /* 0: the test runs step by step (why) */
  char why[200];
  size_t nstates, nedges;
  int nvals;     /* values per outcome (the histogram's layout) */
  size_t nout;   /* outcomes; draw table entry nout is hanging */
  int64_t *vals; /* nout * nvals */
  uint8_t *sat;  /* the condition holds, per outcome */
  double *p;     /* nout + 1 probabilities, the last hanging's */
  /* the draw: u uniform in [0, 2^63), outcome k the first with
   * u < thr[k] (thr[nout] = 2^63); the search starts at
   * guide[u >> (63 - gbits)] */
  uint64_t *thr;
  uint32_t *guide;
  int gbits;
};

/* The outcome (nout: hanging) of the run whose number is u. */
static inline size_t wl__law_draw(const struct wl_law *w, uint64_t u) {
  size_t k;
  u >>= 1;
  k = w->guide[u >> (63 - w->gbits)];
  while (u >= w->thr[k])
    k++;
  return k;
}

#endif
