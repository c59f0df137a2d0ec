/* lsched.h -- batches of simulator runs on libuv's thread pool.
 *
 * bindings/lsched.c and lpool.c (units of work on the same pool) are
 * the files of the bindings that include uv.h; this header does not, so
 * the Lua files and main.c see only plain C types here.  Not
 * installed. */
#ifndef LSCHED_H
#define LSCHED_H

#include <stddef.h>

#include "../engine/warplab.h"

#if defined(__GNUC__)
#define WLL_SCHED_HIDDEN __attribute__((visibility("hidden")))
#else
#define WLL_SCHED_HIDDEN
#endif

/* Why a sampling stopped early (*partial of wll_sample_parallel). */
enum {
  WLL_STOP_NONE,    /* every run ran */
  WLL_STOP_SIGNAL,  /* SIGINT or SIGTERM (wll_sig_pending says which) */
  WLL_STOP_TIMEOUT, /* the timeout passed */
  WLL_STOP_ERROR    /* a batch failed: the return value says why */
};

/*
 * How batches run a test's callback threads (threads written as Lua
 * functions, which cannot run in the script's lua_State concurrently
 * with it).  Either every batch runs on the calling thread, one at a
 * time (inline: the callbacks are the test's own), or each in-flight
 * slot gets its own copy of the callbacks: make(ud, ctx, &worker) is
 * called on the calling thread for each slot before any batch runs
 * (ctx is the slot's engine context, worker is then passed as
 * opts.thread_ud with opts.thread_fn = fn to every batch of that slot,
 * which one pool thread at a time runs), and drop(ud, worker) frees it
 * at the end.  make returns 0, or non-zero (out of memory).
 */
typedef struct wll_runner {
  int inline_batches;
  int (*make)(void *ud, wl_ctx *ctx, void **worker);
  void (*drop)(void *ud, void *worker);
  wl_thread_fn fn;
  void *ud;
} wll_runner;

/*
 * Runs base->runs runs of t on the simulator, split into batches that go
 * to libuv's thread pool, and merges their histograms on the loop.
 *
 * Batches are runs [k*B, (k+1)*B) of the run indices (B depends on jobs
 * and runs, never on timing); each is one wl_sample call with
 * opts.first = base->first + k*B and base's seed, profile and max_steps.
 * Since the engine seeds run i from (seed, i) alone, and the histograms
 * are merged in batch order whatever order they finish in, the result is
 * the same for every value of jobs.
 *
 * At most jobs batches are in flight at a time; each in-flight slot owns
 * one engine context (wl_ctx), used by one thread at a time.  t is only
 * read while sampling: the caller must not change or free it until this
 * returns.  base->should_stop and base->stop_ud are ignored (the workers
 * poll the scheduler's own stop flag).  Callback threads run as the
 * test's own functions on the pool's threads: for Lua functions use
 * wll_sample_parallel_run, whose runner says how they run: with
 * inline_batches
 * the batches (at most 1024 runs each, so that SIGINT and the timeout
 * are seen between them) run on the calling thread from the loop, in
 * order, using ctx; the histogram is the same as with the pool.
 *
 * Unless base->step is set, the test's exact law (wl_sample_law) is
 * computed once here, before any batch, and shared by every batch; with
 * a timeout it may take half of it (else the runs go step by step in
 * the rest), and a signal during it stops the sampling with no runs.
 *
 * SIGINT and SIGTERM (lsignal.c's policy: handlers between
 * wll_sig_enter and wll_sig_leave, entered here too) and, when
 * timeout_s > 0, a timer stop the workers (the batches in flight return
 * what they ran, which is merged too) and nothing more is queued;
 * *partial then says why (WLL_STOP_*).  The signal is left pending for
 * the caller to take (wll_sig_take) and report.
 * When progress is non-zero a line "sample NAME: 41% 410000/1000000 runs"
 * is redrawn on stderr every 100 ms and erased at the end.
 *
 * The pool is started by wll_pool_start(jobs) (the first call in a
 * process; see there): at most as many batches as it has threads are in
 * flight, and with no thread at all the batches run on the calling
 * thread, as inline ones do; the histogram is the same.
 *
 * The merged histogram is made from ctx (a histogram keeps the context
 * it was made from, for its memory), so free it before ctx; ctx is used
 * on the calling thread only.
 *
 * Returns 0 and sets *out (free it with wl_hist_free), also after an
 * interrupt or a timeout (*partial != WLL_STOP_NONE).  On failure returns
 * a negative WL_E* code (the engine's, WL_EINVAL for bad arguments,
 * WL_ENOMEM, or WL_EIO when libuv fails) with a message in err, *out
 * NULL and *partial WLL_STOP_ERROR.
 */
WLL_SCHED_HIDDEN int wll_sample_parallel(wl_ctx *ctx, const wl_litmus *t,
                                         const wl_sample_opts *base, int jobs,
                                         double timeout_s, int progress,
                                         wl_hist **out, int *partial, char *err,
                                         size_t errlen);
/* The same for a test with callback threads: runner says how they run
 * (NULL: as wll_sample_parallel). */
WLL_SCHED_HIDDEN int wll_sample_parallel_run(
    wl_ctx *ctx, const wl_litmus *t, const wl_sample_opts *base, int jobs,
    double timeout_s, int progress, const wll_runner *runner, wl_hist **out,
    int *partial, char *err, size_t errlen);

/*
 * Starts libuv's thread pool, once per process (later calls only answer
 * from what the first did): with UV_THREADPOOL_SIZE threads when the
 * environment sets it, else the larger of jobs and the number of CPUs
 * (at most 1024).  libuv gives each 8 MiB of stack and aborts the
 * process when one cannot be created, so this first creates and lets go
 * of as many threads itself; when only k can exist at once (ulimit -v,
 * ulimit -u), the pool gets 3k/4 (0 when k is 0).
 *
 * Returns the workers a sampling of jobs gets: jobs, or the pool's size
 * when the limit made it smaller than asked and jobs exceeds it (0: no
 * thread could start; the batches then run on the calling thread).  In
 * that case note (may be NULL) says so in a sentence; else it is "".
 */
WLL_SCHED_HIDDEN int wll_pool_start(int jobs, char *note, size_t notelen);

/* The number of CPUs this process may use (at least 1). */
WLL_SCHED_HIDDEN int wll_ncpus(void);

#endif
