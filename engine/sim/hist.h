/* hist.h -- what the sampler (sample.c) and the outcome histogram
 * (hist.c: outcomes, merging, writing)
 * share.  Not installed. */
#ifndef WL_HIST_H
#define WL_HIST_H

#include <stddef.h>
#include <stdint.h>

#include "../program/ir.h"

/* ---------------------------------------------------------------- */
/* Histograms                                                        */

/* The outcomes' index: open addressing over a hash of the values,
 * slots holding outcome index + 1 (0: empty), in the histogram's current
 * layout.  Invariant: every outcome of the histogram is in it, so that
 * finding an outcome (once per sampled run, once per outcome merged,
 * once per final state of the SC search) costs O(1) however many
 * distinct outcomes there are; a histogram of a test with tens of
 * thousands of them once took minutes to merge and write. */
typedef struct otab {
  uint32_t *slot;
  size_t cap; /* a power of two, at least twice the outcomes, or 0 */
} otab;

typedef struct hout {
  int64_t *vals;
  uint64_t count;
  int sat;
} hout;

struct wl_hist {
  wl_ctx *ctx;
  const wl_litmus *t;
  wl_layout lay;
  int kind;      /* condition kind (the test's, or set) */
  char *cond;    /* condition text set by wl_hist_set_condition */
  uint8_t *weak; /* per outcome, once computed (n entries) */
  size_t nweak;
  int weak_known; /* the SC search finished */
  uint64_t runs, hung;
  hout *o;
  size_t n, cap;
  otab idx; /* every outcome of o, by its values */
  int (*stop)(void *ud); /* wl_hist_set_stop */
  void *stop_ud;
  /* The layout of the values (lay): each thread's slice holds the
   * test's registers as they were when the histogram was made (tregs),
   * then the results of a callback thread that are no register of the
   * test (xname, owned by the histogram, in the order runs first
   * reported them; the explorer adds such results to the test itself,
   * which the simulator, run by several workers at once, must not). */
  int tregs[WL_MAX_THREADS], nx[WL_MAX_THREADS];
  char *xname[WL_MAX_THREADS][WL_MAX_REGS];
  /* each register's and result's WL_TYPE_*, and whether a report has
   * fixed it (the test's registers start as the test has them) */
  uint8_t rtype[WL_MAX_THREADS][WL_MAX_REGS];
  uint8_t rtyped[WL_MAX_THREADS][WL_MAX_REGS];
};

static inline int nreg(const wl_hist *h, int th) {
  return h->tregs[th] + h->nx[th];
}

/* hist.c */
/* Lays out the values of a new histogram: each thread's registers as
 * the test has them, then its locations. */
void wl__hist_layout_init(wl_hist *h);
/* Result k of thread th reported with type: fixes its type the first
 * time, else WL_EINVAL when the type differs. */
int wl__hist_type_result(wl_hist *h, int th, int k, const char *name,
                         int type);
/* The index of a register or result name in thread th's slice, or -1. */
int wl__hist_reg(const wl_hist *h, int th, const char *name);
/* The index of the outcome with these values (in h's layout), or -1. */
long wl__hist_find(const wl_hist *h, const int64_t *vals);
/* Adds a result name to thread th's slice: every outcome so far gets
 * the value 0 for it.  All or nothing.  Returns its index or a WL_E*
 * code. */
int wl__hist_add_name(wl_hist *h, int th, const char *name, int type);
/* Counts c runs of the outcome vals, adding it (with sat) when new. */
int wl__hist_add(wl_hist *h, const int64_t *vals, int sat, uint64_t c);
/* Whether h's totals hold: its outcomes' counts and the hung runs add
 * up to its runs (every run either terminated with one outcome or
 * hung).  Asserted after a merge and at the end of a sampling. */
int wl__hist_totals_ok(const wl_hist *h);

/* weak.c: marks the outcomes sequential consistency cannot produce
 * (the explorer's reference search, model/scsearch.h, with the
 * histogram's result names and stop hook). */
int wl__hist_compute_weak(wl_hist *h);

#endif
