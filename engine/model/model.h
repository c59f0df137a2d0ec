/* model.h -- the explorer's internal types: traces (one thread's events
 * for one choice of load values), candidate executions, results. */
#ifndef WL_MODEL_H
#define WL_MODEL_H

#include "../program/ir.h"

#define WL_MAX_EVENTS 256 /* events in one execution (bit-matrix width) */
#define WL_SETW (WL_MAX_EVENTS / 64) /* 64-bit words per set of events */
#define WL_MAX_TEV 48     /* events in one thread's trace */
#define WL_MAX_SCF 32     /* fence.sc events in one execution */
#define WL_MAX_VALUES 1024 /* distinct values per location */
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
  uint64_t cdeps, ddeps; /* the control and the data part of deps (the
                          * cat relations ctrl and data); an RMW's write
                          * has a data dependency on its read unless it
                          * is an exch, a control one for cas */
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
                * stutter prefix (value domains, and the liveness
                * search: liveness.c) */
  /* cut == 2: the spin part, events spin0..nev-1 (the iteration that
   * came back to a loop head in a state seen there), and the source
   * line of that loop head (of the await for a callback thread) */
  int spin0, spin_line;
  uint8_t looped; /* it went round a loop (the unroll bound matters) */
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
  int partial;     /* 0, or why the exploration stopped early */
  char *why;       /* the stop's message when partial */
  int unroll;
  int counted;   /* count_executions: pos, neg and counts are of
                  * executions (else of states) */
  /* a unit of a split exploration, while it runs: the states earlier
   * units found, known as if found (borrowed, read only; split.c) */
  const struct wl_result *known;
  wl_layout lay; /* the state vector's layout */
  /* observed_only: the values that tell states apart (indices into a
   * state vector, nkey of them); NULL: every value */
  int *key, nkey;
  uint8_t *keep; /* lay.nvals flags: the value is in key (NULL: all) */
  wl_state *states;
  size_t nstates, cap;
  size_t *htab; /* open addressing, index+1 */
  size_t hcap;
  /* undefined behaviour and hangs (datarace.c, liveness.c): whether each
   * search ran, and what it found */
  int race_checked, race_found;
  wl_race_info race;
  int hang_checked, hang_found;
  wl_hang_info hang;
};

/* A candidate execution being built: the events of one combination of
 * traces (initial writes first, then each thread's events in program
 * order), their static relations, and the choices made so far (barrier
 * phases, reads-from, fence-SC order, coherence).  Relations are bit
 * matrices: bit j of row i is the pair (i, j). */
/* a set of events: use rel.h's es_* */
typedef struct evset {
  uint64_t w[WL_SETW];
} evset;
typedef evset rel[WL_MAX_EVENTS];

typedef struct exe {
  int n; /* events */
  wl_ev ev[WL_MAX_EVENTS];
  int8_t thread[WL_MAX_EVENTS];
  int16_t ninit;            /* init writes are events 0..ninit-1 */
  int initloc[WL_MAX_LOCS]; /* loc -> init event, or -1 */
  rel po, poloc, rmw, dep, ms, rp, ap;
  evset setR, setW, setF, setB, setSC, strong;
  int nreads, reads[WL_MAX_EVENTS];
  /* per-combination choices */
  int rf[WL_MAX_EVENTS]; /* read -> write */
  rel rfr, sb, obs, sync, sf, cause;
  rel cok; /* coherence pairs known so far */
  int scf[WL_MAX_SCF], nscf, scorder[WL_MAX_SCF];
  /* the morally strong fence.sc pairs whose order the search chooses */
  int16_t scp[WL_MAX_SCF * (WL_MAX_SCF - 1) / 2][2];
  int nscp;
  int last[WL_MAX_LOCS]; /* states mode: the co-last write chosen */
  rel colast;            /* and the coherence pairs that choice makes */
  rel coreq;             /* pairs required before any fence-SC choice */
  int16_t phase[WL_MAX_EVENTS];
  /* coherence */
  int wl[WL_MAX_LOCS][WL_MAX_EVENTS]; /* writes per location, in co order */
  int nwl[WL_MAX_LOCS];
  int locs[WL_MAX_LOCS], nlocs;
  const wl_trace *tr[WL_MAX_THREADS];
  int cut;
} exe;

/* The built-in explorer's callback for a consistent execution found by
 * another engine over E (model/cand.c): records its final state and
 * witness, or notes the bound when a trace of E was cut. */
struct xp;
/* findings.c: the "race" and "hang" members of a result's JSON object
 * (",\n  \"race\": ..., \"hang\": ...") */
void wl__findings_json(const wl_result *r, wl_buf *b);
int wl__explore_found(struct xp *x, exe *E);
int wl__explore_stop(struct xp *x);

#endif
