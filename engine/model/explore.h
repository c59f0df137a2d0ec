/* explore.h -- what the files of the built-in explorer share: its state
 * (xp), the barrier schedules, and the functions each file gives the
 * others.  The explorer is split by concept:
 *   traces.c    each thread's traces under a load-value oracle, value
 *               domains, loops (tgen.h: the trace generator);
 *   cbtraces.c  the traces of callback threads;
 *   exe.c       a combination's events and static relations;
 *   barriers.c  the orders in which threads arrive at barriers;
 *   axioms.c    the PTX axioms on partial and complete executions;
 *   results.c   final states, witnesses, the wl_result API;
 *   symmetry.c  interchangeable threads: searched once, states imaged;
 *   justify.c   combinations whose reads only a thin-air cycle
 *               justifies, dropped before any search;
 *   explore.c   the value search: combinations, reads-from, co-last,
 *               fence-SC and coherence choices, wl_explore;
 *   rfskel.c    the reads-from search's skeletons (paths with unknown
 *               loaded values) and their replays;
 *   rfsearch.c  the reads-from search: reads-from and RMW chains chosen
 *               directly, values by replay, then explore.c's search
 *               after reads-from.
 * Not installed. */
#ifndef WL_EXPLORE_H
#define WL_EXPLORE_H

#include "cand.h"
#include "rel.h"

typedef struct tpool {
  wl_vec ev;     /* wl_ev */
  wl_vec regs;   /* int64_t */
  wl_vec traces; /* wl_trace */
  wl_vec ch;     /* int: load choices of callback traces; the
                  * decisions of skeletons (rfsearch.c) */
  wl_vec dtaint; /* uint64_t: the loads each skeleton decision depends
                  * on */
} tpool;

typedef struct vdom {
  int64_t *v;
  int n, cap;
} vdom;

typedef struct xp {
  wl_ctx *ctx;
  const wl_litmus *t;
  const wl_explore_opts *opts;
  wl_result *res;
  int unroll;
  vdom dom[WL_MAX_LOCS];
  tpool pool[WL_MAX_THREADS];
  int err;
  uint64_t work;
  /* trace generation scratch */
  int loophead[4096];
  uint64_t live[4096]; /* registers live at each instruction */
  /* the current combination */
  int choice[WL_MAX_THREADS];
  /* value-collection mode (domain fixpoint) */
  int collecting;
  vdom newv[WL_MAX_LOCS];
  int grew;
  /* collecting: chosen traces that write a value not in its domain yet,
   * and whether any trace of thread th or later does (a subtree where
   * neither holds cannot grow a domain) */
  int chosen_new;
  uint8_t rest_new[WL_MAX_THREADS + 1];
  /* the values some trace of each thread writes to each location (for
   * the value check of combinations still being chosen) */
  vdom wvals[WL_MAX_THREADS][WL_MAX_LOCS];
  /* a cat model given: its candidate enumerator (the second engine) */
  wl__candx *cand;
  /* the question: every consistent execution counted (all), or only
   * the final states with a witness each (the default); in the latter
   * the search unwinds once the state it aims at is found (found) or
   * once every state the combination can reach is known (combo_done) */
  int all, found, combo_done;
  uint64_t combos;
  int64_t vals[WL_MAX_THREADS * WL_MAX_REGS + WL_MAX_LOCS]; /* scratch */
  /* the context's allocator, wrapped to count the bytes held */
  wl_alloc_fn alloc;
  void *alloc_ud;
  size_t mem, mem_peak;
  int mem_stop; /* stopped by max_memory */
  /* symmetry.c: classes of interchangeable threads (two or more each),
   * and for each thread the previous member of its class, or -1 */
  int sym[WL_MAX_THREADS][WL_MAX_THREADS], symn[WL_MAX_THREADS], nsym;
  int symprev[WL_MAX_THREADS];
  /* results.c (observed_only): each class's members with an observed
   * register */
  int symkey[WL_MAX_THREADS][WL_MAX_THREADS], nsymkey[WL_MAX_THREADS];
  /* traces.c: locations where an RMW writing back the value it read is
   * a stutter */
  uint8_t rmw_quiet[WL_MAX_LOCS];
  /* observed_only (results.c): the threads up to the last with an
   * observed register, and which threads have a trace the bound cut */
  int key_threads;
  /* bardiv.c: the first thread running the same program as each (one
   * Lua function, or the same instructions), or -1; prog_ready once
   * computed */
  int prog[WL_MAX_THREADS], prog_ready;
  uint8_t may_cut[WL_MAX_THREADS];
  /* the searches after the states (XP_RACE, XP_LIVE: datarace.c,
   * liveness.c), run over every consistent execution until one is
   * found (ub_done) */
  int mode, ub_done;
  /* the reads-from search runs (rfsearch.c): traces are skeletons, whose
   * values are placeholders until an execution gives them */
  int rf;
  struct rfs *rfs; /* its state while it runs */
  /* the execution being built and the barrier scheduler (wl__xp_open) */
  exe *E;
  struct bsched *bs;
  int laid; /* the result's layout is set */
  /* a unit of a split exploration (split.c): only the combinations whose
   * threads 0..ulen-1 choose the traces upath[] (ulen 0: every one) */
  int ulen;
  int upath[WL_MAX_THREADS];
} xp;

enum { XP_STATES, XP_RACE, XP_LIVE };

typedef struct bsched {
  int nb[WL_MAX_THREADS];
  int bev[WL_MAX_THREADS][WL_MAX_TEV]; /* events, per thread */
  int pos[WL_MAX_THREADS];
  int waiting[WL_MAX_THREADS];
  int16_t phase[WL_MAX_EVENTS];
  int nphase;
  /* open phases: key index -> arrivals */
  int nkeys;
  int keyev[WL_MAX_EVENTS]; /* a representative event of each key */
  int keycta[WL_MAX_EVENTS];
  int open[WL_MAX_EVENTS][WL_MAX_EVENTS];
  int nopen[WL_MAX_EVENTS];
  int evkey[WL_MAX_EVENTS];
  int need[WL_MAX_EVENTS];
  /* outcomes */
  int16_t (*out)[WL_MAX_EVENTS];
  int nout, capout;
  long steps;
} bsched;

/* explore.c: one exploration in steps (wl_explore, split.c).  open
 * allocates x with its result (x->res), execution and scheduler, and
 * counts the memory through ctx's allocator until close (wrap/unwrap
 * turn the counting on and off); prepare makes the traces, symmetry,
 * the layout and the observed values; search runs the states, race
 * and hang searches (over the unit x->upath when x->ulen > 0); conclude
 * sets the verdict, or keeps a stop's partial result (keep_partial),
 * else returns the error; close frees everything but x->res. */
int wl__xp_open(wl_ctx *ctx, const wl_litmus *t, const wl_explore_opts *opts,
                xp **out);
void wl__xp_wrap(xp *x);
void wl__xp_unwrap(xp *x);
int wl__xp_prepare(xp *x);
int wl__xp_search(xp *x);
int wl__xp_conclude(xp *x, int failed);
void wl__xp_close(xp *x);

/* The state vector's size bound: every register, then every location. */
#define NVALS (WL_MAX_THREADS * WL_MAX_REGS + WL_MAX_LOCS)

/* explore.c: whether to stop (an error, should_stop, the memory limit);
 * calls the progress callback now and then. */
int wl__xp_stop(xp *x);
/* traces.c */
int wl__xp_dom_add(xp *x, vdom *d, int64_t v, int loc, int th,
                   const wl_ev *at);
/* "file:line:col" of event e of thread th (either may be missing), for
 * the messages of limits; written into buf. */
const char *wl__xp_ev_place(const xp *x, int th, const wl_ev *e, char *buf,
                            size_t n);
int wl__xp_dom_has(const vdom *d, int64_t v);
int wl__xp_gen_traces(xp *x);
/* justify.c */
int wl__xp_justified(const xp *x, const wl_trace *const *chosen);
int wl__xp_check_shared(xp *x);
/* exe.c: E's events and static relations from its traces (E->tr). */
int wl__xp_build_exe(xp *x, exe *E);
/* barriers.c: the distinct barrier outcomes of E in s->out. */
int wl__xp_barrier_outcomes(xp *x, bsched *s, const exe *E);
/* results.c */
void wl__xp_state_regs(const xp *x, const exe *E, int64_t *vals);
int wl__xp_target_known(xp *x, const exe *E);
int wl__xp_combo_known(const xp *x, const exe *E);
/* A trace of E's combination was cut by the bound, which is not
 * reported yet: the known-state pruning must not skip it. */
int wl__xp_cut_unreported(const xp *x, const exe *E);
int wl__xp_record_state(xp *x, exe *E);
void wl__xp_set_verdict(wl_result *r);
int wl__xp_observed_key(xp *x);
int wl__xp_prefix_known(const xp *x, const wl_trace *const *chosen, int th);
#define KNOWN_VALS 16 /* final values tried per location */
int wl__xp_obs_known(const xp *x, int64_t *vals, int nkl, const int *kl,
                     int64_t (*cv)[KNOWN_VALS], const int *ncv);
int wl__xp_record_perm(xp *x, exe *E, const int *perm);
/* results.c: the state table's hash grown (0, or -1 out of memory); the
 * index of the state with these values (told apart as r tells them),
 * or -1. */
int wl__result_grow_hash(wl_ctx *ctx, wl_result *r);
long wl__result_find(const wl_result *r, const int64_t *vals);
/* Whether r has a state, found or given as known (r->known). */
int wl__result_any_known(const wl_result *r);
/* A copy of st (values, witness, truth, count) appended to r's states
 * (0, or -1 out of memory): split.c's merge. */
int wl__result_add(wl_ctx *ctx, wl_result *r, const wl_state *st);
/* split.c: a fresh result (in ctx) with tm's test, layout, observed
 * values and flags, no states (NULL out of memory); and the template
 * result a prepared explorer makes its units' results like. */
wl_result *wl__result_like(wl_ctx *ctx, const wl_result *tm);
const wl_result *wl__explorer_template(const wl_explorer *e);
/* symmetry.c: the classes of interchangeable threads (x->sym), once the
 * traces are final; and the images of E's state under them. */
void wl__xp_symmetry(xp *x);
/* Whether two instruction threads run the same instructions (their
 * registers may start differently: a thread index, say). */
int wl__xp_same_insns(const wl_thread *a, const wl_thread *b);
int wl__xp_record_images(xp *x, exe *E);
/* axioms.c */
evset wl__xp_loc_writes(const exe *E, int l);
int wl__xp_check_co(xp *x, exe *E);
int wl__xp_cause_ok(exe *E);
void wl__xp_co_required(const exe *E, rel req);
int wl__xp_rf_partial_ok(const exe *E, int r, int w);

/* rfsearch.c: whether the reads-from search applies (else *why); each
 * thread's skeletons into its pool; the search over them. */
int wl__xp_rf_applies(const xp *x, const char **why);
int wl__xp_rf_skeletons(xp *x);
int wl__xp_rf_search(xp *x, exe *E, bsched *bs);
/* rfskel.c: skeleton decisions (pc * 2 + outcome) are at most MAX_DEC
 * per skeleton; the replay of thread th's skeleton tr with its loads
 * returning rv[] (by trace-local event): written values into wv[], final
 * registers into regs, each decision's actual outcome into act (may be
 * NULL); 1 when every decision goes the skeleton's way. */
#define MAX_DEC 512
int wl__xp_rf_replay(const xp *x, int th, const wl_trace *tr,
                     const int64_t *rv, int64_t *wv, int64_t *regs,
                     uint8_t *act);
/* Counting executions: records the executions that the twins skipped on
 * the way to E stand for (0 without symmetry). */
int wl__xp_rf_record_twins(xp *x, exe *E);
/* explore.c: the search once reads-from is complete (the remaining
 * axioms, co-last, fence-SC and coherence choices). */
int wl__xp_after_rf(xp *x, exe *E);
/* explore.c: E's phases and sync_barrier for one barrier outcome. */
void wl__xp_barrier_start(exe *E, const int16_t *phase);

/* datarace.c: whether some pair of E could still race once the fence-SC
 * order is chosen (cause only grows with it); the check of a consistent
 * execution, recording the first race (x->ub_done). */
int wl__xp_race_possible(const exe *E);
int wl__xp_race_any(const xp *x);
int wl__xp_race_found(xp *x, exe *E);
/* liveness.c: whether a combination can hang (a spinning trace or a
 * barrier); the check of a consistent execution, recording the first
 * hang (x->ub_done). */
int wl__xp_live_combo(const xp *x, const exe *E);
int wl__xp_live_any(const xp *x);
int wl__xp_live_colast_ok(const xp *x, const exe *E, int l, int w);
int wl__xp_live_found(xp *x, const exe *E);
/* bardiv.c: threads of one program (wl_thread.code) completing a barrier
 * phase at different lines: an error (x->err), else 0. */
int wl__xp_bar_divergence(xp *x, const bsched *s, const exe *E);

#endif
