/* lpool.h -- units of work on libuv's thread pool, their outputs
 * delivered in unit order: the libuv driver of the engine's sharding
 * (engine/warplab.h, "Sharding").  `warplab litmus`, `compare`,
 * `report` and `cuda` spread their files over it; any work that splits
 * into independent units (prefixes of one search, groups of blocks) can.
 *
 * bindings/lpool.c includes uv.h; this header does not, so the files
 * that use it see plain C types only.  Not installed.
 *
 * How a run goes (wll_pool_run):
 *   - each of min(jobs, n) slots gets its own engine context (wl_ctx)
 *     and, when fns->worker_new is set, a worker state of the caller's,
 *     both made on the calling thread before any unit runs and freed
 *     there after the last;
 *   - each slot is one piece of libuv pool work that takes units from
 *     the plan one after another, largest first (wl_shard_take under
 *     the pool's mutex: the costs in opts->costs), and runs each by
 *     fns->run on its pool thread with its own context and worker;
 *   - each unit's output comes back to the calling thread (the loop),
 *     and fns->emit gets the outputs strictly in unit order, each as
 *     soon as every unit before it was emitted (wl_shard_next): what
 *     the user sees is the same for any jobs and any timing;
 *   - with opts->jobs == 1 or opts->inline_units, every unit runs on the
 *     calling thread in unit order, run then emit, with one context;
 *     the output is the same.  Work that needs the caller's lua_State
 *     (Lua callbacks) must run this way: a pool thread may not touch it.
 *
 * Signals (bindings/lsignal.c's policy; handlers entered here too):
 * SIGINT or SIGTERM stops the dispatch, the units in flight are left to
 * return (their run polls wll_pool_should_stop, or wll_sig_pending
 * through the explorer's should_stop, and returns early), then the
 * outputs go out in unit order up to the first unit that did not finish:
 * a unit that returned WLL_UNIT_STOPPED is emitted with stopped = 1 (its
 * partial output, marked as the command marks it) and is the last; a
 * unit never run ends the emission before it.  Outputs past that point
 * go to fns->drop.  The signal is left pending for the caller to take
 * (wll_sig_take) and report (exit 130 / 143).
 *
 * When opts->progress is set, "WHAT: 41% 587/1434 UNITS" is redrawn on
 * stderr every 100 ms and erased at the end (as sample's line).
 */
/*
 * Use (a sketch: cmd_litmus.c, cmd_compare.c, cmd_cuda.c and
 * cmd_report.c are four whole ones):
 *
 *   static int run(void *ud, size_t u, wl_ctx *ctx, void *worker,
 *                  void *stop_ud, void **out) {
 *     ... work on unit u with ctx, polling wll_pool_should_stop(stop_ud)
 *     (or giving it as should_stop/stop_ud to the engine) ...
 *     *out = the unit's result (its text, its states);
 *     return stopped early ? WLL_UNIT_STOPPED : WLL_UNIT_DONE;
 *   }
 *   static int emit(void *ud, size_t u, void *out, int stopped) {
 *     ... print or merge out: called for u = 0, 1, 2, ... in order ...
 *     free(out); return 0;
 *   }
 *   wll_pool_opts o = {jobs, 0, isatty(2), "litmus", "files", costs};
 *   wll_pool_fns f = {NULL, NULL, run, emit, drop};
 *   rc = wll_pool_run(n, &o, &f, &job, &res, note, sizeof note, err,
 *                     sizeof err);
 *
 * The units' results are merged in unit order whatever the timing, so
 * a merge that is a function of the results in that order (text
 * appended, states added to a set in order) gives the same for any
 * jobs.
 */
#ifndef LPOOL_H
#define LPOOL_H

#include <stddef.h>
#include <stdint.h>

#include "../engine/warplab.h"

#if defined(__GNUC__)
#define WLL_POOL_HIDDEN __attribute__((visibility("hidden")))
#else
#define WLL_POOL_HIDDEN
#endif

/* What a unit's run returns. */
enum {
  WLL_UNIT_DONE,   /* ran to its end (its output may report an error) */
  WLL_UNIT_STOPPED /* cut short by a stop: its output is partial */
};

/*
 * The caller's side of a run.  ud is wll_pool_run's.  run is called on
 * pool threads, concurrently for different slots: it may use its ctx
 * and worker, read what the caller set up before wll_pool_run and keeps
 * unchanged until it returns (a model, options, file names), and must
 * not write shared state, touch a lua_State, or write to stdout or
 * stderr (it collects its text into its output instead).  emit and drop
 * run on the calling thread, one at a time.
 */
typedef struct wll_pool_fns {
  /* Optional (NULL: none): a slot's own state, made for each slot with
   * its ctx; non-zero: out of memory.  worker_free frees one. */
  int (*worker_new)(void *ud, wl_ctx *ctx, void **worker);
  void (*worker_free)(void *ud, void *worker);
  /* Runs unit (0..n-1) with the slot's ctx and worker; *out: its output
   * (any pointer, NULL allowed), owned by the pool until emitted or
   * dropped.  stop_ud is for wll_pool_should_stop.  Returns WLL_UNIT_*. */
  int (*run)(void *ud, size_t unit, wl_ctx *ctx, void *worker,
             void *stop_ud, void **out);
  /* Delivers unit's output in unit order and frees it; stopped: it
   * returned WLL_UNIT_STOPPED (the last to be emitted).  Returns 0, or
   * non-zero to stop the run (nothing more is dispatched or emitted;
   * err is left to the caller). */
  int (*emit)(void *ud, size_t unit, void *out, int stopped);
  /* Frees an output that will not be emitted (NULL: nothing to free). */
  void (*drop)(void *ud, size_t unit, void *out);
} wll_pool_fns;

/*
 * Units from elsewhere (opts->source; NULL: the pool's own plan): the
 * ranks of an MPI job hand units out one at a time to whichever worker
 * of any rank is free (cmd_ranks_pool.c).  claim runs on the calling
 * thread (the loop) for a worker that wants a unit: 1 and *unit (a unit
 * below n, never given twice), or 0 when none is left (it is not called
 * again).  The pool then runs only the units claimed, emits each as it
 * comes back (any order: the caller puts them in order), and ends when
 * every worker was told that none is left.  tick (may be NULL) runs on
 * the calling thread every tick_ms while the pool runs; with a tick the
 * units never run on the calling thread, even with one job (the loop
 * stays free to tick).
 */
typedef struct wll_pool_source {
  int (*claim)(void *ud, size_t *unit);
  void (*tick)(void *ud);
  void *ud;
  int tick_ms;
} wll_pool_source;

typedef struct wll_pool_opts {
  int jobs;              /* workers wanted (>= 1; wll_pool_start caps) */
  int inline_units;      /* run every unit on the calling thread */
  int progress;          /* draw the progress line on stderr */
  const char *what;      /* the line's first word ("litmus") */
  const char *units;     /* what a unit is, plural ("files") */
  const uint64_t *costs; /* n cost estimates (NULL: all equal, or
                          * cost's) */
  /* Optional, when costs is NULL: a unit's cost estimate, computed on
   * the pool's threads (each with its slot's ctx) for every unit before
   * any runs, so that a guess that reads the unit's file is not made on
   * one thread; thread-safe.  Each slot's pool work guesses chunks of
   * units, then the last slot done makes the plan and every slot goes
   * on to the units (no trip through the loop in between).  Not called
   * when the units run on the calling thread (in unit order: no plan to
   * order) or come from a source. */
  uint64_t (*cost)(void *ud, size_t unit, wl_ctx *ctx);
  const wll_pool_source *source; /* units from elsewhere (NULL: none) */
} wll_pool_opts;

typedef struct wll_pool_result {
  size_t emitted; /* units emitted (the prefix 0..emitted-1; with a
                   * source, how many) */
  int stop;       /* WLL_STOP_NONE, _SIGNAL or _ERROR (lsched.h) */
  int workers;    /* threads it ran on (0: the calling thread) */
} wll_pool_result;

/*
 * Runs units 0..n-1 as above.  Returns 0 (also after a signal:
 * res->stop == WLL_STOP_SIGNAL; or after emit asked to stop:
 * WLL_STOP_ERROR), or a negative WL_E* (WL_EINVAL for bad arguments,
 * WL_ENOMEM, WL_EIO when libuv fails) with a message in err; every
 * output not emitted was dropped either way.  note (may be NULL) gets
 * wll_pool_start's sentence when fewer threads than jobs could start.
 */
WLL_POOL_HIDDEN int wll_pool_run(size_t n, const wll_pool_opts *opts,
                                 const wll_pool_fns *fns, void *ud,
                                 wll_pool_result *res, char *note,
                                 size_t notelen, char *err, size_t errlen);

/* A should_stop hook (wl_explore_opts.should_stop and the like) for a
 * unit's run: non-zero once the run is stopping (a signal, or emit
 * asked to stop).  ud: run's stop_ud.  Any thread. */
WLL_POOL_HIDDEN int wll_pool_should_stop(void *stop_ud);

/* Whether the calling thread is running a unit of a pool.  Work that
 * would queue on libuv's pool from there runs on the calling thread
 * instead (wll_pool_run does, and lsched.c's sampling): the pool's
 * threads could all be waiting for it.  The result is the same. */
WLL_POOL_HIDDEN int wll_pool_in_worker(void);

/* The default of --jobs for commands on many files: the number of CPUs
 * this process may use (wll_ncpus), at most n (no idle workers). */
WLL_POOL_HIDDEN int wll_pool_default_jobs(size_t n);

#endif
