/* sample.h -- what the litmus sampler's files share (not installed):
 *
 *   sample.c     a run: the scheduler and the threads' steps on the
 *                memory machine (engine/mem/machine.h: the one memory
 *                system's store buffers, sbuf.h, and L1 policy, l1.h,
 *                which the kernel device's SMs use too)
 *   sample_cb.c  callback threads (Lua functions as threads) in a run
 *   sampling.c   wl_sample: setup, the runs (or draws from the exact
 *                law), filling the histogram
 *   exact.c      the exact law of a test's outcomes (law.h): sample.c's
 *                steps compiled again with a choice oracle (exact.h)
 *   hist.c       the histogram (hist.h) */
#ifndef WL_SAMPLE_H
#define WL_SAMPLE_H

#include "../mem/machine.h"
#include "../program/ir.h"
#include "cbthread.h"
#include "hist.h"

#define SIM_PEND 8 /* deferred loads per thread */

/* A deferred load (performed later than instructions after it). */
typedef struct pend {
  int reg, loc; /* reg -1: a callback thread's load */
  uint8_t sem, scope;
  uint32_t issue; /* its SM's store count when the load was issued */
  int lvi;        /* a callback's load: its index among the thread's
                   * loaded values */
  int64_t v0;     /* a callback's load: the value it read at issue */
} pend;

/* A callback thread's loads land in this extra register before they
 * join the thread's list of loaded values. */
#define CB_SCRATCH WL_MAX_REGS

typedef struct sthread {
  /* the fields every step reads come first, in one cache line */
  const wl_insn *insns; /* its program (the test's), ninsns long */
  int ninsns;
  int pc, done, waiting;
  int np;
  int barev; /* the barrier instruction it waits at */
  int cb;    /* a callback thread (its events come from cbthread) */
  int stall; /* turns it still waits before its next instruction */
  int waited; /* it has waited them (knobs.stall) */
  /* the harness's schedule (sim.hdelay, sim.hgap; harn_wait): 0 before
   * its first pick, 1 started, 2 its stall taken; and the turns it
   * still waits for them */
  int hphase, hwait;
  pend p[SIM_PEND];
  int64_t regs[WL_MAX_REGS + 1];
} sthread;

typedef struct sbarrier {
  int ns;
  int64_t id;
  int cta, gpu;
  int arrived, need;
  int waiters[WL_MAX_THREADS], nw;
} sbarrier;

/* The outcomes met so far, by their values packed into two words when
 * a final state has at most 8 values of 16 bits each: a run finds its
 * outcome by one probe of a small table, not a hash over its values
 * (wl__hist_find, the way in when the table misses).  Only for tests
 * without callback threads, whose results can change the layout
 * (sampling.c). */
#define OC_SLOTS 256
typedef struct ocache {
  uint64_t key[OC_SLOTS][2];
  uint32_t k1[OC_SLOTS]; /* the outcome's index + 1; 0: empty */
} ocache;

typedef struct sim {
  const wl_litmus *t;
  int profile;
  sthread th[WL_MAX_THREADS];
  wl_mach m;
  sbarrier bar[32];
  int nbar;
  int cbexec;     /* a callback thread's event is executing */
  int rdirty;     /* a thread finished, waited or was released */
  uint64_t rmask; /* the threads neither done nor waiting */
  int runnable[WL_MAX_THREADS], nr;
  /* callback threads */
  wl_ctx *ctx;
  struct wl_hist *h; /* the result names */
  wl_thread_fn fn;   /* NULL: each thread's own */
  void *fn_ud;
  cbthread *cb[WL_MAX_THREADS];
  int err; /* a callback failed: the sampling fails with it */
  int feat; /* the test's features (sample.c's F_*), -1 until known */
  /* the harness's waits in turns (wl_sample_opts.harness): a thread
   * first waits a drawn number in [0, hdelay), and before one drawn
   * instruction (not its first) a drawn number in [0, hgap); 0: none */
  int hdelay, hgap;
  /* the turns a gpu/sys-scope fence.sc or releasing atomic waits
   * (wait_turn): the profile's stall, or its hstall cycles in turns
   * under a harness with a schedule in cycles (hdelay or hgap) */
  int wstall;
  /* under a harness with a schedule in cycles: the turns a gpu [0] or
   * sys [1] scope release store, releasing red or fence.acq_rel waits
   * (knobs.hrel), and 1: every wait of wait_turn is drawn in
   * [0, 2 turns] (0 under the plain sampler: no such waits, and the
   * stall's turns as they are) */
  int wrel[2], wdraw;
  ocache oc;
} sim;

/* sampling.c: sets s up to run t (its SMs, links, callback threads),
 * results laid out as h's; wl__sim_fini frees s. */
int wl__sim_init(wl_ctx *ctx, sim *s, struct wl_hist *h, const wl_litmus *t,
                 const wl_sample_opts *opts);
void wl__sim_fini(wl_ctx *ctx, sim *s);
/* wl_sample's checks of its arguments and test: 0 or a WL_E* code */
int wl__sample_check(wl_ctx *ctx, const wl_litmus *t,
                     const wl_sample_opts *opts);

/* sample.c: one run from seed; 1 with the final state in vals (in the
 * histogram's layout, regoff), 0 when it hung or overflowed (or a
 * callback failed: s->err). */
int wl__sim_run(sim *s, uint64_t seed, int max_steps, int64_t *vals,
                const int *regoff);

/* sample_cb.c */
/* Whether callback thread th, given v as its lvi-th loaded value, does
 * the events it has done (and the one executing now) again: v then
 * stands (wl__cb_probe). */
int wl__scb_probe(sim *s, int th, int lvi, int64_t v);
/* Event e of a callback thread as the instruction that does the same. */
void wl__scb_insn(const cbev *e, wl_insn *in);
/* Learns the thread's next events when it has executed all it knew.
 * 0 on success (the run goes on), -1 when the run must stop (an error
 * in s->err, or an overflow). */
int wl__scb_learn(sim *s, int th);
/* The results of a finished callback thread become its registers. */
void wl__scb_finish(sim *s, int th);
/* One step of a callback thread: its next event as an instruction in
 * buf, or NULL when it ended (or the run must stop). */
const wl_insn *wl__scb_next(sim *s, int th, wl_insn *buf);
/* After the callback thread's event wl__scb_next gave was executed. */
void wl__scb_executed(sim *s, int th);

#endif
