/* cbthread.h -- a callback thread's events in the simulator, shared by
 * sample.c (the runs) and the replays that learn them (cbreplay.c).
 * Not installed. */
#ifndef WL_CBTHREAD_H
#define WL_CBTHREAD_H

#include "hist.h"

/* A callback thread in one run.  The simulator has no coroutines: to
 * learn what the thread does next, it re-runs the callback with the
 * values its loads have returned so far (as the explorer replays it),
 * and the callback is stopped (WL_ELIMIT) at its first load whose
 * value is not known yet.  ev holds every event learnt so far in this
 * run: the first nexec were executed; the rest are stores, fences and
 * barriers, then at most one load or atomic, known before their turn.
 * A run whose thread would exceed CB_MAXEV events counts as not
 * terminating (like a queue overflow). */
#define CB_MAXEV 256
enum { CB_LOAD = 'R', CB_STORE = 'W', CB_ATOM = 'A', CB_FENCE = 'F',
       CB_BAR = 'B' };

typedef struct cbev {
  uint8_t kind, sem, scope, op; /* op: WL_OP_* or WL_BAR_* */
  int loc, line;
  int64_t a, b; /* W: the value; A: the operands; B: id, count */
} cbev;

typedef struct cbthread {
  int nev, nexec, nlv;
  int finished; /* a replay ran to its end: no events after ev[nev-1] */
  cbev ev[CB_MAXEV];
  int64_t lv[CB_MAXEV];     /* the values its loads returned, in order */
  int64_t res[WL_MAX_REGS]; /* its results, once finished */
} cbthread;

/* Re-runs callback thread th with the values its loads returned so far
 * (c->lv), to learn its next events, or that it ends (then c->res holds
 * its results).  0, or a WL_E* code with the message in ctx; *overflow
 * is set when the thread has more events than a run may hold
 * (sample.c). */
int wl__cb_replay(wl_ctx *ctx, const wl_litmus *t, wl_hist *h, int grow,
                  wl_thread_fn fn, void *ud, int th, cbthread *c,
                  int *overflow);

/* Whether callback thread th, given v as its lvi-th loaded value, does
 * its first upto events again: 1 (v then stands in c->lv, and the events
 * after them are to be learned again), or 0 (c is as it was). */
int wl__cb_probe(wl_ctx *ctx, const wl_litmus *t, wl_hist *h,
                 wl_thread_fn fn, void *ud, int th, cbthread *c, int upto,
                 int lvi, int64_t v);

#endif
