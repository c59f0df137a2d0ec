/* model.h -- the explorer's internal types: traces (one thread's events
 * for one choice of load values), candidate executions, results. */
#ifndef WL_MODEL_H
#define WL_MODEL_H

#include "../program/ir.h"

#define WL_MAX_EVENTS 64  /* events in one execution (bit-matrix width) */
#define WL_MAX_TEV 48     /* events in one thread's trace */
#define WL_MAX_SCF 8      /* fence.sc events in one execution */
#define WL_MAX_VALUES 256 /* distinct values per location */
#define WL_MAX_TRACES 200000

enum { EV_R, EV_W, EV_F, EV_B };
/* Proxies of PTX 7.5 (the cat sets GEN SUR TEX CON): WL_PROXY_* in
 * program/ir.h. */

typedef struct wl_ev {
  uint8_t type, sem, scope;
  uint8_t rmw; /* R: its W follows; W: the write of an RMW */
  uint8_t bar_kind, bar_ns, bar_tail, has_count;
  int16_t loc;  /* the physical location (aliases share it) */
  int16_t vloc; /* the virtual address (wl__insn_vloc): ptx-v7.5.cat's
                 * vloc relates memory events with equal vloc; equal to
                 * loc unless the access names a PTX 7.5 alias */
  uint8_t proxy; /* WL_PROXY_*: the proxy of a memory event or of a
                  * proxy fence; generic (0) for everything else
                  * (barriers, fence.proxy.alias, initial writes: see
                  * program/litmus.c on why that is Dat3M's meaning) */
  uint8_t alias; /* F: fence.proxy.alias */
  int64_t val; /* R: value read; W: value written */
  int64_t bar_id, bar_count;
  uint64_t deps; /* trace-local reads this event depends on */
  int insn, line;
} wl_ev;

typedef struct wl_trace {
  size_t ev0; /* first event in the thread's event pool */
  int nev;
  size_t reg0; /* final registers in the thread's register pool */
  int nregs;   /* registers recorded (callback threads grow) */
  size_t ch0;  /* callback threads: the load choices of the trace */
  int nch;
  uint8_t cut; /* 0 complete; 1 cut by the unroll bound; 2 a
                * stutter prefix (used only for value domains) */
} wl_trace;

/* One witness execution, kept per final state. */
typedef struct wl_wit_ev {
  int8_t thread; /* -1: initial write */
  uint8_t type, sem, scope, rmw, bar_kind;
  int16_t loc;
  int64_t val;
  int line;
  int16_t rf;    /* R: index of the write read from */
  int16_t co;    /* W: rank in coherence order of its location */
  int16_t sc;    /* F.sc: rank in the fence-SC order, else -1 */
  int16_t phase; /* B: barrier phase, -1 when it synchronised no one */
} wl_wit_ev;

typedef struct wl_state {
  int64_t *vals;  /* all registers of all threads, then all locations */
  int sat;        /* condition's proposition holds */
  uint64_t count; /* consistent executions reaching it */
  wl_wit_ev *wit;
  int nwit;
} wl_state;

struct wl_result {
  wl_ctx *ctx;
  const wl_litmus *t; /* borrowed: the test must outlive the result */
  char *name;
  int cond_kind, has_cond;
  char *cond_override; /* set by wl_result_set_condition */
  int verdict;
  uint64_t pos, neg;
  int bound_hit;
  uint64_t traces_cut;
  int unroll;
  wl_layout lay; /* the state vector's layout */
  wl_state *states;
  size_t nstates, cap;
  size_t *htab; /* open addressing, index+1 */
  size_t hcap;
};

#endif
