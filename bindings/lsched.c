/* lsched.c -- sampling on libuv's thread pool: batches of simulator runs
 * go to the pool, their histograms come back to the loop and are merged
 * there in batch order; a timer draws the progress line and enforces the
 * timeout; SIGINT and SIGTERM (lsignal.c) stop the workers, which poll
 * for them.  The only bindings file that includes uv.h (luv keeps its
 * libuv glue in one module too). */
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uv.h>

#include "lplace.h"
#include "lpool.h"
#include "lsched.h"
#include "lwarplab.h"

#define PROGRESS_MS 100
/* A batch is at most this many runs, so that the progress line moves
 * and the merge buffer stays small even for -n 1e12. */
#define MAX_BATCH ((uint64_t)1 << 16)
/* Batches per job: enough that the last batches of a job even out. */
#define BATCHES_PER_JOB 8
#define MAX_JOBS 1024 /* libuv's own cap on UV_THREADPOOL_SIZE */
/* Inline batches (on the loop thread) are short: SIGINT is seen between
 * them. */
#define MAX_INLINE_BATCH ((uint64_t)1024)

enum { SLOT_IDLE, SLOT_RUNNING, SLOT_DONE };

typedef struct sched sched;

/* One worker's place: at most one batch in flight in it, and its own
 * engine context, which only that batch's thread touches meanwhile. */
typedef struct slot {
  uv_work_t req;
  sched *s;
  wl_ctx *ctx;    /* its own, or (inline) the caller's */
  void *worker;   /* the runner's copy of the callbacks, or NULL */
  wl_hist *h;     /* the batch's histogram, until merged */
  uint64_t batch; /* index of the batch it holds */
  int state;      /* SLOT_* */
  int rc;         /* wl_sample's answer */
} slot;

struct sched {
  uv_loop_t loop;
  uv_timer_t tick;     /* progress line, every PROGRESS_MS */
  uv_timer_t deadline; /* the timeout */
  uv_idle_t idle;      /* inline: runs the next batch */
  int have_tick, have_deadline, have_idle, closing;
  const wll_runner *runner;
  int inl;              /* batches run on the loop thread */
  uint64_t deadline_ns; /* inline: the timeout in uv_hrtime's clock */
  const wl_litmus *t;
  wl_sample_opts base;
  atomic_int stop; /* read by the workers through should_stop */
  int why;         /* WLL_STOP_* */
  uint64_t bsize, nbatches, next_batch, next_merge, runs_done;
  int nslots, running;
  slot *slots;
  wl_hist *total;
  wll_place *place; /* the CPUs the batches hold (lplace.h), or NULL */
  int rc;            /* first failure, by batch index */
  uint64_t rc_batch; /* the batch it came from */
  char *err;
  size_t errlen;
  int progress, drawn; /* drawn: width of the line on stderr */
};

static void set_err(sched *s, const char *fmt, const char *a, const char *b) {
  if (s->errlen > 0)
    snprintf(s->err, s->errlen, fmt, a, b);
}

/* ------------------------------------------------------------------ */
/* libuv's thread pool                                                 */
/* ------------------------------------------------------------------ */

/* libuv makes its pool once per process, on the first uv_queue_work,
 * with UV_THREADPOOL_SIZE threads of 8 MiB stacks each (threadpool.c,
 * init_threads), and abort()s when one cannot be created: under an
 * address-space limit (ulimit -v) or a thread limit (ulimit -u), a
 * large --jobs killed the process with no message.  So before libuv
 * makes it, a quarter more threads than the pool is to have (at least
 * one more) are created here with the same stack size and let go again;
 * when fewer can be made, the pool is sized to three quarters of what
 * could (at least one fewer): the rest of the room is for the workers'
 * engines.  The pool is then made at once, while the room is there. */
#define POOL_STACK ((size_t)8 << 20) /* libuv's stack for pool threads */

static struct {
  int started; /* pool_start ran */
  int size;    /* threads in the pool; 0: none could be made */
  int asked;   /* threads it was to have */
} pool;

typedef struct probe {
  uv_sem_t go;
} probe;

static void probe_thread(void *arg) {
  probe *p = arg;
  uv_sem_wait(&p->go);
}

/* How many of n threads with libuv's pool stacks can exist at once. */
static int probe_threads(int n) {
  uv_thread_t *th = malloc((size_t)n * sizeof *th);
  uv_thread_options_t o;
  probe p;
  int k, i;
  if (th == NULL || uv_sem_init(&p.go, 0) != 0) {
    free(th);
    return 0;
  }
  o.flags = UV_THREAD_HAS_STACK_SIZE;
  o.stack_size = POOL_STACK;
  for (k = 0; k < n; k++)
    if (uv_thread_create_ex(&th[k], &o, probe_thread, &p) != 0)
      break;
  for (i = 0; i < k; i++)
    uv_sem_post(&p.go);
  for (i = 0; i < k; i++)
    uv_thread_join(&th[i]);
  uv_sem_destroy(&p.go);
  free(th);
  return k;
}

static void noop_work(uv_work_t *req) { (void)req; }
static void noop_after(uv_work_t *req, int status) {
  (void)req;
  (void)status;
}

/* Makes libuv's pool now: one piece of work that does nothing. */
static void pool_make(void) {
  uv_loop_t loop;
  uv_work_t req;
  if (uv_loop_init(&loop) != 0)
    return; /* then the first sampling makes it */
  if (uv_queue_work(&loop, &req, noop_work, noop_after) == 0)
    uv_run(&loop, UV_RUN_DEFAULT);
  uv_loop_close(&loop);
}

int wll_pool_start(int jobs, char *note, size_t notelen) {
  if (note != NULL && notelen > 0)
    note[0] = '\0';
  if (jobs < 1)
    jobs = 1;
  if (!pool.started) {
    const char *env = getenv("UV_THREADPOOL_SIZE");
    char buf[32];
    sigset_t block, old;
    int n = wll_ncpus(), k;
    pool.started = 1;
    if (env != NULL && atoi(env) > 0)
      n = atoi(env); /* the user's choice, as libuv reads it */
    else if (jobs > n)
      n = jobs;
    if (n > MAX_JOBS)
      n = MAX_JOBS;
    pool.asked = n;
    /* the pool's threads inherit a mask blocking SIGINT and SIGTERM:
     * the handler (lsignal.c) then runs on the thread that runs Lua */
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    k = probe_threads(n + (n / 4 > 1 ? n / 4 : 1));
    pool.size = k >= n + (n / 4 > 1 ? n / 4 : 1) ? n
                                                 : k - (k / 4 > 1 ? k / 4 : 1);
    if (pool.size < 0)
      pool.size = 0;
    if (pool.size > 0) {
      snprintf(buf, sizeof buf, "%d", pool.size);
      setenv("UV_THREADPOOL_SIZE", buf, 1);
      pool_make();
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
  }
  if (pool.size < pool.asked && jobs > pool.size && note != NULL &&
      notelen > 0) {
    if (pool.size == 0)
      snprintf(note, notelen,
               "no worker thread could be started (address-space or "
               "thread limit: ulimit -v, ulimit -u); running on the "
               "main thread");
    else
      snprintf(note, notelen,
               "only %d worker thread%s of %d could be started (each needs "
               "%d MiB of address space for its stack; ulimit -v, ulimit "
               "-u); running with %d",
               pool.size, pool.size == 1 ? "" : "s", pool.asked,
               (int)(POOL_STACK >> 20), pool.size);
  }
  return pool.size < pool.asked && jobs > pool.size ? pool.size : jobs;
}

int wll_ncpus(void) {
  unsigned n = uv_available_parallelism();
  return n < 1 ? 1 : n > MAX_JOBS ? MAX_JOBS : (int)n;
}

/* ------------------------------------------------------------------ */
/* the workers                                                         */
/* ------------------------------------------------------------------ */

static void stop_all_early(sched *s, int why) {
  atomic_store(&s->stop, 1);
  if (s->why == WLL_STOP_NONE)
    s->why = why;
}

static int should_stop(void *ud) {
  sched *s = ud;
  /* inline, the loop does not run during a batch: watch the clock */
  if (s->inl && s->deadline_ns != 0 && uv_hrtime() >= s->deadline_ns)
    atomic_store(&s->stop, 1);
  /* SIGINT/SIGTERM: the workers see it here, within a few hundred runs */
  return atomic_load_explicit(&s->stop, memory_order_relaxed) ||
         wll_sig_stop(NULL);
}

/* While the law is computed (before the loop runs): a signal stops the
 * sampling; past half the timeout the law gives up (the runs go step
 * by step in what is left of it). */
static int law_stop(void *ud) {
  sched *s = ud;
  if (wll_sig_stop(NULL))
    stop_all_early(s, WLL_STOP_SIGNAL);
  return atomic_load(&s->stop) ||
         (s->deadline_ns != 0 && uv_hrtime() >= s->deadline_ns);
}

/* On a pool thread: one batch, one wl_sample call. */
static void work_cb(uv_work_t *req) {
  slot *w = req->data;
  sched *s = w->s;
  wl_sample_opts o = s->base;
  uint64_t start = w->batch * s->bsize;
  o.first = s->base.first + start;
  o.runs = s->base.runs - start < s->bsize ? s->base.runs - start : s->bsize;
  o.should_stop = should_stop;
  o.stop_ud = s;
  if (w->worker != NULL) {
    o.thread_fn = s->runner->fn;
    o.thread_ud = w->worker;
  }
  int moved, cpu = wll_place_take(s->place, &moved);
  w->h = NULL;
  w->rc = wl_sample(w->ctx, s->t, &o, &w->h);
  wll_place_leave(s->place, cpu);
}

/* ------------------------------------------------------------------ */
/* the loop                                                            */
/* ------------------------------------------------------------------ */

static void stop_all(sched *s, int why) {
  atomic_store(&s->stop, 1);
  if (s->why == WLL_STOP_NONE)
    s->why = why;
}

static void erase_progress(sched *s) {
  if (s->drawn > 0) {
    fprintf(stderr, "\r%*s\r", s->drawn, "");
    fflush(stderr);
    s->drawn = 0;
  }
}

static void draw_progress(sched *s) {
  uint64_t all = s->base.runs;
  int pct = all ? (int)((double)s->runs_done * 100.0 / (double)all) : 100;
  char line[256];
  int n = snprintf(line, sizeof line, "sample %s: %d%% %llu/%llu runs",
                   wl_litmus_name(s->t), pct, (unsigned long long)s->runs_done,
                   (unsigned long long)all);
  if (n < 0)
    return;
  if (n >= (int)sizeof line)
    n = (int)sizeof line - 1;
  /* pad over what is left of a longer earlier line */
  fprintf(stderr, "\r%s%*s", line, s->drawn > n ? s->drawn - n : 0, "");
  if (n > s->drawn)
    s->drawn = n;
  fflush(stderr);
}

static void tick_cb(uv_timer_t *h) { draw_progress(h->data); }

static void deadline_cb(uv_timer_t *h) { stop_all(h->data, WLL_STOP_TIMEOUT); }

static void close_all(sched *s) {
  if (s->closing)
    return;
  s->closing = 1;
  if (s->have_tick)
    uv_close((uv_handle_t *)&s->tick, NULL);
  if (s->have_deadline)
    uv_close((uv_handle_t *)&s->deadline, NULL);
  if (s->have_idle)
    uv_close((uv_handle_t *)&s->idle, NULL);
}

static void after_work_cb(uv_work_t *req, int status);

/* Inline: one batch per turn of the loop, so that the loop sees SIGINT,
 * the timers and the progress line between batches. */
static void idle_cb(uv_idle_t *h) {
  sched *s = h->data;
  int i;
  for (i = 0; i < s->nslots; i++)
    if (s->slots[i].state == SLOT_RUNNING) {
      work_cb(&s->slots[i].req);
      after_work_cb(&s->slots[i].req, 0);
      return;
    }
  uv_idle_stop(h);
}

/* Fills idle slots with the next batches, unless stopping. */
static void dispatch(sched *s) {
  int i;
  for (i = 0; i < s->nslots; i++) {
    slot *w = &s->slots[i];
    int rc;
    if (wll_sig_pending())
      stop_all(s, WLL_STOP_SIGNAL);
    if (atomic_load(&s->stop) || s->next_batch >= s->nbatches)
      break;
    if (w->state != SLOT_IDLE)
      continue;
    w->batch = s->next_batch;
    w->req.data = w;
    rc = s->inl ? uv_idle_start(&s->idle, idle_cb)
                : uv_queue_work(&s->loop, &w->req, work_cb, after_work_cb);
    if (rc != 0) {
      if (s->rc == 0) {
        s->rc = WL_EIO;
        s->rc_batch = w->batch;
        set_err(s, "cannot queue work: %s%s", uv_strerror(rc), "");
      }
      stop_all(s, WLL_STOP_ERROR);
      break;
    }
    w->state = SLOT_RUNNING;
    s->running++;
    s->next_batch++;
  }
}

/* Merges finished batches in batch order, so that the merged histogram
 * (and the order of its outcomes) does not depend on which finished
 * first.  A slot is reused only once its batch is merged. */
static void merge_ready(sched *s) {
  for (;;) {
    slot *w = NULL;
    int i;
    for (i = 0; i < s->nslots; i++)
      if (s->slots[i].state == SLOT_DONE && s->slots[i].batch == s->next_merge)
        w = &s->slots[i];
    if (w == NULL)
      return;
    if (w->h != NULL && s->rc == 0) {
      int rc = wl_hist_merge(s->total, w->h);
      if (rc != 0) {
        s->rc = rc;
        s->rc_batch = w->batch;
        set_err(s, "merging histograms: %s%s", wl_strerror(rc), "");
        stop_all(s, WLL_STOP_ERROR);
      }
    }
    wl_hist_free(w->h);
    w->h = NULL;
    w->state = SLOT_IDLE;
    s->next_merge++;
  }
}

static void after_work_cb(uv_work_t *req, int status) {
  slot *w = req->data;
  sched *s = w->s;
  w->state = SLOT_DONE;
  s->running--;
  if (status != 0 && w->rc == 0) /* UV_ECANCELED: we never cancel */
    w->rc = WL_EIO;
  if (w->h != NULL)
    s->runs_done += wl_hist_runs(w->h);
  if (s->inl && s->deadline_ns != 0 && uv_hrtime() >= s->deadline_ns)
    stop_all(s, WLL_STOP_TIMEOUT);
  if (w->rc != 0 && w->rc != WL_ESTOPPED &&
      (s->rc == 0 || w->batch < s->rc_batch)) {
    const char *m = wl_ctx_errmsg(w->ctx);
    s->rc = w->rc;
    s->rc_batch = w->batch;
    set_err(s, "%s%s", m[0] ? m : wl_strerror(w->rc), "");
    stop_all(s, WLL_STOP_ERROR);
  } else if (w->rc == WL_ESTOPPED) {
    /* a signal (a timeout stopped all already): keeps the first reason */
    stop_all(s, WLL_STOP_SIGNAL);
  }
  merge_ready(s);
  dispatch(s);
  if (s->running == 0) {
    /* everything ran, or we are stopping and the last worker is back */
    if (s->progress)
      erase_progress(s);
    close_all(s);
  }
}

/* ------------------------------------------------------------------ */
/* setup and teardown                                                  */
/* ------------------------------------------------------------------ */

static void close_leftover(uv_handle_t *h, void *arg) {
  (void)arg;
  if (!uv_is_closing(h))
    uv_close(h, NULL);
}

/* libuv's MAKE_VALGRIND_HAPPY: close what is left, run the loop until the
 * close callbacks ran, and close the loop. */
static int loop_teardown(uv_loop_t *loop) {
  int rc = uv_loop_close(loop);
  if (rc == UV_EBUSY) {
    uv_walk(loop, close_leftover, NULL);
    uv_run(loop, UV_RUN_DEFAULT);
    rc = uv_loop_close(loop);
  }
  return rc;
}

static int start_handles(sched *s, double timeout_s) {
  int rc;
  if (s->progress) {
    rc = uv_timer_init(&s->loop, &s->tick);
    if (rc != 0)
      return rc;
    s->have_tick = 1;
    s->tick.data = s;
    rc = uv_timer_start(&s->tick, tick_cb, PROGRESS_MS, PROGRESS_MS);
    if (rc != 0)
      return rc;
  }
  if (timeout_s > 0) {
    double ms = timeout_s * 1000.0;
    uint64_t ims = ms >= 1e15 ? (uint64_t)1e15 : (uint64_t)ms;
    if ((double)ims < ms)
      ims++; /* never earlier than asked */
    rc = uv_timer_init(&s->loop, &s->deadline);
    if (rc != 0)
      return rc;
    s->have_deadline = 1;
    s->deadline.data = s;
    rc = uv_timer_start(&s->deadline, deadline_cb, ims, 0);
    if (rc != 0)
      return rc;
    s->deadline_ns = uv_hrtime() + ims * 1000000u;
  }
  if (s->inl) {
    rc = uv_idle_init(&s->loop, &s->idle);
    if (rc != 0)
      return rc;
    s->have_idle = 1;
    s->idle.data = s;
  }
  return 0;
}

int wll_sample_parallel(wl_ctx *ctx, const wl_litmus *t,
                        const wl_sample_opts *base, int jobs, double timeout_s,
                        int progress, wl_hist **out, int *partial, char *err,
                        size_t errlen) {
  return wll_sample_parallel_run(ctx, t, base, jobs, timeout_s, progress, NULL,
                                 out, partial, err, errlen);
}

int wll_sample_parallel_run(wl_ctx *ctx, const wl_litmus *t,
                            const wl_sample_opts *base, int jobs,
                            double timeout_s, int progress,
                            const wll_runner *runner, wl_hist **out,
                            int *partial, char *err, size_t errlen) {
  sched *s;
  wl_law *law = NULL;
  uint64_t per;
  int i, rc, urc, pool_jobs;
  if (err != NULL && errlen > 0)
    err[0] = '\0';
  if (out != NULL)
    *out = NULL;
  if (partial != NULL)
    *partial = WLL_STOP_ERROR;
  if (ctx == NULL || t == NULL || base == NULL || out == NULL ||
      partial == NULL || jobs < 1 || !(timeout_s >= 0)) {
    if (err != NULL && errlen > 0)
      snprintf(err, errlen, "invalid argument");
    return WL_EINVAL;
  }
  if (jobs > MAX_JOBS)
    jobs = MAX_JOBS;
  /* no pool thread could start: the batches run here, one at a time */
  pool_jobs = runner != NULL && runner->inline_batches
                  ? 1
                  : wll_pool_in_worker() ? 0 /* nested: here (lpool.h) */
                                         : wll_pool_start(jobs, NULL, 0);
  s = calloc(1, sizeof *s);
  if (s == NULL)
    goto nomem;
  s->t = t;
  s->base = *base;
  s->base.should_stop = NULL;
  s->base.stop_ud = NULL;
  atomic_init(&s->stop, 0);
  s->err = err;
  s->errlen = err != NULL ? errlen : 0;
  s->progress = progress;
  s->runner = runner;
  s->inl = (runner != NULL && runner->inline_batches) || pool_jobs == 0;
  jobs = s->inl ? 1 : pool_jobs;
  /* batch size: a function of runs and jobs only (never of timing); the
   * histogram does not depend on it (run i is seeded from i, batches
   * merge in order) */
  per = base->runs / ((uint64_t)jobs * BATCHES_PER_JOB);
  s->bsize = per < 1 ? 1 : per > MAX_BATCH ? MAX_BATCH : per;
  if (s->inl && s->bsize > MAX_INLINE_BATCH)
    s->bsize = MAX_INLINE_BATCH;
  s->nbatches = base->runs / s->bsize + (base->runs % s->bsize != 0);
  if (s->nbatches == 0)
    s->nbatches = 1; /* runs == 0: one empty batch, for an empty hist */
  s->nslots = (uint64_t)jobs < s->nbatches ? jobs : (int)s->nbatches;
  s->slots = calloc((size_t)s->nslots, sizeof *s->slots);
  if (s->slots == NULL) {
    free(s);
    goto nomem;
  }
  /* The result: an empty histogram of ctx's, into which every batch is
   * merged (a batch's histogram belongs to its slot's context, which
   * goes when this returns). */
  {
    wl_sample_opts none = s->base;
    none.runs = 0;
    rc = wl_sample(ctx, t, &none, &s->total);
    if (rc != 0) {
      const char *m = wl_ctx_errmsg(ctx);
      set_err(s, "%s%s", m[0] ? m : wl_strerror(rc), "");
      free(s->slots);
      free(s);
      return rc;
    }
  }
  /* The exact law, once for every batch (they share it read-only),
   * unless the runs are to go step by step or there are none.  With
   * WARPLAB_LAW_STATS set, stderr says what it took or why the test
   * runs step by step. */
  wll_sig_enter(); /* (Ctrl-C while the law is computed stops it too) */
  if (!s->base.step && s->base.runs > 0 && s->base.law == NULL) {
    wl_sample_opts lo = s->base;
    uint64_t t0 = uv_hrtime();
    lo.should_stop = law_stop;
    lo.stop_ud = s;
    /* the timeout counts from here (the timer, started below, gets
     * what is left of it); the law may take half of it */
    if (timeout_s > 0)
      s->deadline_ns = t0 + (uint64_t)(timeout_s * 0.5e9);
    rc = wl_sample_law(ctx, t, &lo, &law);
    if (timeout_s > 0) {
      double spent = (double)(uv_hrtime() - t0) / 1e9;
      timeout_s = spent < timeout_s ? timeout_s - spent : 1e-3;
      s->deadline_ns = 0; /* start_handles sets it anew */
    }
    if (rc != 0) {
      const char *m = wl_ctx_errmsg(ctx);
      set_err(s, "%s%s", m[0] ? m : wl_strerror(rc), "");
      wll_sig_leave();
      wl_hist_free(s->total);
      free(s->slots);
      free(s);
      return rc;
    }
    s->base.law = law;
    if (getenv("WARPLAB_LAW_STATS") != NULL) {
      if (wl_law_exact(law))
        fprintf(stderr,
                "law %s: exact, %zu states, %zu outcomes, %.3f s\n",
                wl_litmus_name(t), wl_law_nstates(law),
                wl_law_noutcomes(law), (double)(uv_hrtime() - t0) / 1e9);
      else
        fprintf(stderr, "law %s: step by step (%s), %.3f s\n",
                wl_litmus_name(t), wl_law_why(law),
                (double)(uv_hrtime() - t0) / 1e9);
    }
  }
  for (i = 0; i < s->nslots; i++) {
    s->slots[i].s = s;
    if (s->inl)
      continue; /* the caller's context, on the caller's thread */
    if (wl_ctx_new(NULL, &s->slots[i].ctx) != 0)
      break;
    if (runner != NULL && runner->make != NULL &&
        runner->make(runner->ud, s->slots[i].ctx, &s->slots[i].worker) != 0)
      break;
  }
  if (s->inl)
    s->slots[0].ctx = ctx;
  else /* NULL: the batches go where the OS puts them */
    s->place = wll_place_new(s->nslots);
  rc = i < s->nslots ? WL_ENOMEM : 0;
  if (rc != 0)
    set_err(s, "out of memory%s%s", "", "");
  urc = rc == 0 ? uv_loop_init(&s->loop) : 0;
  if (urc != 0) {
    rc = WL_EIO;
    set_err(s, "cannot start the event loop: %s%s", uv_strerror(urc), "");
  } else if (rc == 0) {
    urc = start_handles(s, timeout_s);
    if (urc != 0) {
      rc = WL_EIO;
      set_err(s, "cannot start the event loop: %s%s", uv_strerror(urc), "");
    } else {
      dispatch(s);
      if (s->running == 0) /* nothing could be queued */
        close_all(s);
      uv_run(&s->loop, UV_RUN_DEFAULT);
      rc = s->rc;
    }
    if (s->progress)
      erase_progress(s);
    close_all(s);
    urc = loop_teardown(&s->loop);
    if (urc != 0 && rc == 0) {
      rc = WL_EIO;
      set_err(s, "cannot close the event loop: %s%s", uv_strerror(urc), "");
    }
  }
  wll_sig_leave();
  for (i = 0; i < s->nslots; i++) {
    wl_hist_free(s->slots[i].h);
    if (s->slots[i].worker != NULL)
      runner->drop(runner->ud, s->slots[i].worker);
    if (!s->inl)
      wl_ctx_free(s->slots[i].ctx);
  }
  free(s->slots);
  wll_place_free(s->place);
  wl_law_free(law);
  if (rc != 0) {
    wl_hist_free(s->total);
    free(s);
    return rc;
  }
  *out = s->total;
  *partial = s->why == WLL_STOP_ERROR ? WLL_STOP_SIGNAL : s->why;
  free(s);
  return 0;

nomem:
  if (err != NULL && errlen > 0)
    snprintf(err, errlen, "out of memory");
  return WL_ENOMEM;
}
