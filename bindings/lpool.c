/* lpool.c -- units of work on libuv's thread pool, outputs in unit order
 * (lpool.h says what the caller sees).  The plan is the engine's
 * (wl_shard: largest first out, unit order back); this file is its
 * libuv driver: one piece of pool work per slot, which makes the cost
 * guesses with the other slots (when the caller has them made, lpool.h),
 * then pulls units from the plan until none is left (a unit is often a
 * tenth of a millisecond: handing each out from the loop thread left the
 * workers waiting for it on a busy machine), the loop that is told when
 * a unit back lets output go out (uv_async_send) and emits in unit
 * order, the progress timer, and SIGINT/SIGTERM (lsignal.c).  The plan is shared under one mutex: the
 * workers take units from it, the loop records and merges them.  With
 * bindings/lsched.c (the pool's start, shared), one of the two files
 * that include uv.h.  With a source (lpool.h), the workers ask the loop
 * for each unit instead, and the loop claims it (an MPI rank from rank
 * 0: cmd_ranks_pool.c). */
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

enum { SLOT_IDLE, SLOT_RUNNING };

typedef struct pool pool;

/* One worker's place: one piece of pool work that runs units one after
 * another with its own context, which only that thread touches. */
typedef struct slot {
  uv_work_t req;
  pool *p;
  wl_ctx *ctx;
  void *worker; /* fns->worker_new's, or NULL */
  int queued;   /* its pool work was queued and has not come back */
  /* with a source (under mu): the worker wants a unit; the loop's
   * answer (got: 1 with unit, 0 none) once answered */
  int want, answered, got;
  size_t unit;
} slot;

/* What came back of a unit (written by its worker under mu, read by
 * the loop under mu; after that only the loop touches it). */
typedef struct back {
  void *out;
  int stopped;
  int in; /* it came back (under mu) */
} back;

struct pool {
  uv_loop_t loop;
  uv_timer_t tick;
  uv_async_t async; /* a unit came back */
  uv_timer_t stick; /* the source's tick */
  uv_mutex_t mu;    /* plan, backs, doneq, the slots' claims */
  uv_cond_t cv;     /* a claim was answered */
  int have_tick, have_async, have_mu, have_stick, have_cv;
  const wll_pool_source *src; /* o->source */
  int exhausted;              /* the source said none is left */
  size_t nemitted;            /* with a source: units emitted */
  const wll_pool_opts *o;
  const wll_pool_fns *fns;
  void *ud;
  wl_ctx *ctx; /* the plan's */
  wl_shard *plan;
  wll_place *place; /* the CPUs the workers hold (lplace.h), or NULL */
  /* o->cost's guesses, made by the workers before their first unit
   * (NULL: the plan was made before the run); the last slot to finish
   * guessing makes the plan (under mu) and wakes the others (cv) */
  uint64_t *guess;
  atomic_size_t gnext; /* the next unit to guess */
  int guessing;        /* slots not done guessing (under mu) */
  int planned;         /* the plan was made, or failed (under mu) */
  back *backs;   /* per unit */
  size_t *doneq; /* units back, not yet recorded in the plan (n) */
  size_t dq_n;
  size_t *emitq; /* units merged, to emit (n) */
  size_t n, ndone; /* ndone: units back (under mu) */
  size_t front;    /* the first unit not back (under mu; no source) */
  atomic_int stop;  /* no more units are taken */
  int emit_stopped; /* emit asked to stop */
  int collected;    /* a stopped unit was merged: nothing after it */
  int ended;        /* emission ended (a stopped unit, or emit's stop) */
  int nslots, running;
  slot *slots;
  int rc;
  char *err;
  size_t errlen;
  int drawn; /* width of the progress line on stderr */
  uint64_t last_draw;
};

/* Set while this thread runs a unit for a pool (lpool.h,
 * wll_pool_in_worker). */
static _Thread_local int in_worker;

int wll_pool_in_worker(void) { return in_worker; }

int wll_pool_should_stop(void *stop_ud) {
  pool *p = stop_ud;
  return (p != NULL &&
          atomic_load_explicit(&p->stop, memory_order_relaxed) != 0) ||
         wll_sig_pending() != 0;
}

int wll_pool_default_jobs(size_t n) {
  int j = wll_ncpus();
  if (n >= 1 && (size_t)j > n)
    j = (int)n;
  return j < 1 ? 1 : j;
}

static void set_err(pool *p, const char *fmt, const char *a) {
  if (p->errlen > 0)
    snprintf(p->err, p->errlen, fmt, a);
}

static void lock(pool *p) {
  if (p->have_mu)
    uv_mutex_lock(&p->mu);
}

static void unlock(pool *p) {
  if (p->have_mu)
    uv_mutex_unlock(&p->mu);
}

/* ---------------- the progress line ---------------- */

static void erase_progress(pool *p) {
  if (p->drawn > 0) {
    fprintf(stderr, "\r%*s\r", p->drawn, "");
    fflush(stderr);
    p->drawn = 0;
  }
}

static void draw_progress(pool *p) {
  size_t done;
  int pct, k;
  char line[256];
  lock(p);
  done = p->ndone;
  unlock(p);
  pct = p->n ? (int)((double)done * 100.0 / (double)p->n) : 100;
  k = snprintf(line, sizeof line, "%s: %d%% %zu/%zu %s",
               p->o->what ? p->o->what : "warplab", pct, done, p->n,
               p->o->units ? p->o->units : "units");
  if (k < 0)
    return;
  if (k >= (int)sizeof line)
    k = (int)sizeof line - 1;
  fprintf(stderr, "\r%s%*s", line, p->drawn > k ? p->drawn - k : 0, "");
  if (k > p->drawn)
    p->drawn = k;
  fflush(stderr);
}

static void tick_cb(uv_timer_t *h) { draw_progress(h->data); }

/* ---------------- back, merged, emitted: in unit order ---------------- */

/* A unit came back (any thread): into the queue the loop drains.
 * Returns whether the loop has something to do now: the unit was the
 * first not back (units from there on may go out), it stopped, or it
 * came from a source (emitted as it comes).  Otherwise it waits in the
 * queue until the unit that holds the emission up comes back, or the
 * pool work ends: emission stays as prompt, and the loop thread, which
 * shares the cores with the workers, is not woken for each of many
 * small units (1,434 files: some 600 wake-ups of the loop, each a
 * context switch away from a worker on a machine with no idle core). */
static int put_back(pool *p, size_t u, void *out, int rc) {
  int wake;
  lock(p);
  p->backs[u].out = out;
  p->backs[u].stopped = rc == WLL_UNIT_STOPPED;
  p->backs[u].in = 1;
  p->doneq[p->dq_n++] = u;
  p->ndone++;
  wake = p->src != NULL || rc == WLL_UNIT_STOPPED || u == p->front;
  while (p->front < p->n && p->backs[p->front].in)
    p->front++;
  unlock(p);
  if (rc == WLL_UNIT_STOPPED)
    atomic_store(&p->stop, 1);
  return wake;
}

/* On the loop: records the units back in the plan, takes the ones that
 * can go out now (unit order, up to the first not back; a stopped unit
 * is the last), and emits them outside the lock. */
static void drain(pool *p) {
  size_t k, nq, ne = 0, u;
  lock(p);
  nq = p->dq_n;
  if (p->src != NULL) { /* any order: the caller orders them */
    for (k = 0; k < nq; k++)
      p->emitq[ne++] = p->doneq[k];
    p->dq_n = 0;
    nq = 0;
  }
  for (k = 0; k < nq; k++) {
    u = p->doneq[k];
    /* fails only for a unit out of range or back twice, which the
     * workers never give */
    if (wl_shard_done(p->plan, u, &p->backs[u]) != 0 && p->rc == 0) {
      p->rc = WL_EINVAL;
      set_err(p, "%s", wl_ctx_errmsg(p->ctx));
      atomic_store(&p->stop, 1);
    }
  }
  p->dq_n = 0;
  while (!p->collected && wl_shard_next(p->plan, &u, NULL)) {
    p->emitq[ne++] = u;
    if (p->backs[u].stopped)
      p->collected = 1;
  }
  unlock(p);
  for (k = 0; k < ne; k++) {
    back *b = &p->backs[p->emitq[k]];
    void *out = b->out;
    b->out = NULL;
    if (p->ended) { /* emit asked to stop: the rest is dropped */
      if (out != NULL && p->fns->drop != NULL)
        p->fns->drop(p->ud, p->emitq[k], out);
      continue;
    }
    erase_progress(p); /* the output, then the line again */
    p->nemitted++;
    if (p->fns->emit(p->ud, p->emitq[k], out, b->stopped) != 0) {
      p->ended = p->emit_stopped = 1;
      atomic_store(&p->stop, 1);
    }
    if (b->stopped && p->src == NULL)
      p->ended = 1;
  }
  /* what was emitted goes out now, not a write per unit when units take
   * microseconds (a batch is what came back since the loop last woke) */
  if (ne > 0)
    fflush(stdout);
}

/* ---------------- the workers ---------------- */

/* Units guessed at a time: what the first slot done guessing waits for
 * at most is the rest of another's chunk. */
#define COST_CHUNK 16

/* Under mu: n slots are done guessing (or will never start); the last
 * makes the plan from the guesses and wakes the others. */
static void guessed(pool *p, int n) {
  int rc;
  if ((p->guessing -= n) > 0 || p->planned)
    return;
  rc = wl_shard_new(p->ctx, p->n, p->guess, &p->plan);
  if (rc != 0 && p->rc == 0) {
    p->rc = rc;
    set_err(p, "%s", rc == WL_ENOMEM ? "out of memory"
                                     : wl_ctx_errmsg(p->ctx));
    atomic_store(&p->stop, 1);
  }
  p->planned = 1;
  uv_cond_broadcast(&p->cv);
}

/* On a pool thread, before its first unit: o->cost for chunks of units
 * shared out through gnext, with the slot's context, until none is
 * left; then the plan, made by the last slot done (lpool.h: every guess
 * before any unit).  This is the slot's own pool work going on, with no
 * trip through the loop between the guesses and the units. */
static void guess_units(pool *p, slot *w) {
  for (;;) {
    size_t k, u;
    if (wll_sig_pending())
      break; /* the units left keep cost 1; none will run */
    k = atomic_fetch_add(&p->gnext, COST_CHUNK);
    if (k >= p->n)
      break;
    for (u = k; u < k + COST_CHUNK && u < p->n; u++)
      p->guess[u] = p->o->cost(p->ud, u, w->ctx);
  }
  lock(p);
  guessed(p, 1);
  while (!p->planned)
    uv_cond_wait(&p->cv, &p->mu);
  unlock(p);
}

/* On a pool thread: units one after another, largest first, until none
 * is left or the run stops. */
static void work_cb(uv_work_t *req) {
  slot *w = req->data;
  pool *p = w->p;
  int moved, cpu = wll_place_take(p->place, &moved);
  in_worker = 1;
  if (p->guess != NULL)
    guess_units(p, w);
  for (;;) {
    size_t u;
    void *out = NULL;
    int got, rc;
    if (wll_sig_pending())
      atomic_store(&p->stop, 1);
    if (atomic_load(&p->stop))
      break;
    if (p->src != NULL) {
      /* the loop claims it from the source (lpool.h) */
      lock(p);
      w->want = 1;
      w->answered = 0;
      unlock(p);
      uv_async_send(&p->async);
      lock(p);
      while (!w->answered)
        uv_cond_wait(&p->cv, &p->mu);
      got = w->got;
      u = w->unit;
      unlock(p);
    } else {
      lock(p);
      got = wl_shard_take(p->plan, &u);
      unlock(p);
    }
    if (!got)
      break;
    rc = p->fns->run(p->ud, u, w->ctx, w->worker, p, &out);
    if (put_back(p, u, out, rc))
      uv_async_send(&p->async);
  }
  in_worker = 0;
  wll_place_leave(p->place, cpu);
}

/* On the loop: one claim from the source, or none once it said so or
 * the run stops. */
static int claim(pool *p, size_t *u) {
  if (p->exhausted || atomic_load(&p->stop) || wll_sig_pending())
    return 0;
  if (p->src->claim(p->src->ud, u) && *u < p->n)
    return 1;
  p->exhausted = 1;
  return 0;
}

/* On the loop: answers every worker that wants a unit. */
static void feed(pool *p) {
  int i;
  for (i = 0; p->src != NULL && i < p->nslots; i++) {
    slot *w = &p->slots[i];
    size_t u = 0;
    int want, got;
    lock(p);
    want = w->want;
    w->want = 0;
    unlock(p);
    if (!want)
      continue;
    got = claim(p, &u);
    lock(p);
    w->got = got;
    w->unit = u;
    w->answered = 1;
    uv_cond_broadcast(&p->cv);
    unlock(p);
  }
}

static void stick_cb(uv_timer_t *h) {
  pool *p = h->data;
  p->src->tick(p->src->ud);
}

static void close_handles(pool *p) {
  if (p->have_stick) {
    uv_close((uv_handle_t *)&p->stick, NULL);
    p->have_stick = 0;
  }
  if (p->have_tick) {
    uv_close((uv_handle_t *)&p->tick, NULL);
    p->have_tick = 0;
  }
  if (p->have_async) {
    uv_close((uv_handle_t *)&p->async, NULL);
    p->have_async = 0;
  }
}

static void async_cb(uv_async_t *h) {
  pool *p = h->data;
  if (wll_sig_pending())
    atomic_store(&p->stop, 1);
  drain(p);
  feed(p);
}

static void after_work_cb(uv_work_t *req, int status) {
  slot *w = req->data;
  pool *p = w->p;
  (void)status; /* UV_ECANCELED: never, nothing is cancelled */
  w->queued = 0;
  p->running--;
  drain(p);
  if (p->running == 0)
    close_handles(p); /* every unit back: the loop ends */
}

/* ---------------- inline: the calling thread ---------------- */

/* Every unit in unit order on the calling thread, with slot 0: run,
 * then emit at once (the plan still merges, so the same rules hold). */
static void run_inline(pool *p) {
  size_t k, u;
  slot *w = &p->slots[0];
  for (k = 0; k < p->n && !p->ended; k++) {
    void *out = NULL;
    int rc;
    if (wll_sig_pending()) {
      atomic_store(&p->stop, 1);
      break;
    }
    u = k; /* in unit order, or as the source hands them out */
    if (p->src != NULL && !claim(p, &u))
      break;
    rc = p->fns->run(p->ud, u, w->ctx, w->worker, p, &out);
    (void)put_back(p, u, out, rc);
    drain(p);
    if (p->o->progress) {
      uint64_t now = uv_hrtime();
      if (now - p->last_draw >= (uint64_t)PROGRESS_MS * 1000000u) {
        p->last_draw = now;
        draw_progress(p);
      }
    }
  }
}

/* ---------------- setup and teardown ---------------- */

static void close_leftover(uv_handle_t *h, void *arg) {
  (void)arg;
  if (!uv_is_closing(h))
    uv_close(h, NULL);
}

static int loop_teardown(uv_loop_t *loop) {
  int rc = uv_loop_close(loop);
  if (rc == UV_EBUSY) {
    uv_walk(loop, close_leftover, NULL);
    uv_run(loop, UV_RUN_DEFAULT);
    rc = uv_loop_close(loop);
  }
  return rc;
}

static void run_threads(pool *p) {
  int i, urc = uv_loop_init(&p->loop);
  if (urc != 0) {
    p->rc = WL_EIO;
    set_err(p, "cannot start the event loop: %s", uv_strerror(urc));
    return;
  }
  if ((urc = uv_mutex_init(&p->mu)) == 0)
    p->have_mu = 1;
  if (urc == 0 && (p->src != NULL || p->guess != NULL) &&
      (urc = uv_cond_init(&p->cv)) == 0)
    p->have_cv = 1;
  if (urc == 0 && (urc = uv_async_init(&p->loop, &p->async, async_cb)) == 0) {
    p->have_async = 1;
    p->async.data = p;
  }
  if (urc != 0) {
    p->rc = WL_EIO;
    set_err(p, "cannot start the event loop: %s", uv_strerror(urc));
  }
  if (urc == 0 && p->o->progress &&
      uv_timer_init(&p->loop, &p->tick) == 0) {
    p->have_tick = 1;
    p->tick.data = p;
    uv_timer_start(&p->tick, tick_cb, PROGRESS_MS, PROGRESS_MS);
  }
  if (urc == 0 && p->src != NULL && p->src->tick != NULL &&
      (urc = uv_timer_init(&p->loop, &p->stick)) == 0) {
    int ms = p->src->tick_ms > 0 ? p->src->tick_ms : 1;
    p->have_stick = 1;
    p->stick.data = p;
    uv_timer_start(&p->stick, stick_cb, (uint64_t)ms, (uint64_t)ms);
  }
  if (urc != 0 && p->rc == 0) {
    p->rc = WL_EIO;
    set_err(p, "cannot start the event loop: %s", uv_strerror(urc));
  }
  for (i = 0; urc == 0 && i < p->nslots; i++) {
    slot *w = &p->slots[i];
    w->req.data = w;
    urc = uv_queue_work(&p->loop, &w->req, work_cb, after_work_cb);
    if (urc != 0) {
      p->rc = WL_EIO;
      set_err(p, "cannot queue work: %s", uv_strerror(urc));
      atomic_store(&p->stop, 1);
      if (p->guess != NULL) { /* the slots that will not guess */
        lock(p);
        guessed(p, p->nslots - i);
        unlock(p);
      }
      break;
    }
    w->queued = 1;
    p->running++;
  }
  if (p->running == 0)
    close_handles(p); /* nothing could be queued */
  uv_run(&p->loop, UV_RUN_DEFAULT);
  urc = loop_teardown(&p->loop);
  if (urc != 0 && p->rc == 0) {
    p->rc = WL_EIO;
    set_err(p, "cannot close the event loop: %s", uv_strerror(urc));
  }
  if (p->have_cv) {
    uv_cond_destroy(&p->cv);
    p->have_cv = 0;
  }
  if (p->have_mu) {
    uv_mutex_destroy(&p->mu);
    p->have_mu = 0;
  }
}

int wll_pool_run(size_t n, const wll_pool_opts *o, const wll_pool_fns *fns,
                 void *ud, wll_pool_result *res, char *note, size_t notelen,
                 char *err, size_t errlen) {
  pool *p;
  uint64_t *guess = NULL;
  size_t u, cap = n > 0 ? n : 1;
  int i, jobs, rc;
  if (err != NULL && errlen > 0)
    err[0] = '\0';
  if (note != NULL && notelen > 0)
    note[0] = '\0';
  if (res != NULL)
    memset(res, 0, sizeof *res);
  if (o == NULL || fns == NULL || fns->run == NULL || fns->emit == NULL ||
      res == NULL || o->jobs < 1) {
    if (err != NULL && errlen > 0)
      snprintf(err, errlen, "invalid argument");
    return WL_EINVAL;
  }
  jobs = o->jobs;
  /* on a pool thread already (a unit's work uses a pool too): its
   * threads may all be waiting for this, so this runs here */
  if (!(o->source != NULL && o->source->tick != NULL && n >= 1) &&
      (o->inline_units || jobs == 1 || n <= 1 || in_worker))
    jobs = 0; /* the calling thread (not with a source's tick: lpool.h) */
  else {
    if ((size_t)jobs > n)
      jobs = (int)n;
    jobs = wll_pool_start(jobs, note, notelen);
  }
  if ((p = calloc(1, sizeof *p)) == NULL)
    goto nomem;
  p->o = o;
  p->src = o->source;
  p->fns = fns;
  p->ud = ud;
  p->n = n;
  p->err = err;
  p->errlen = err != NULL ? errlen : 0;
  atomic_init(&p->stop, 0);
  p->nslots = jobs > 0 ? jobs : 1;
  p->slots = calloc((size_t)p->nslots, sizeof *p->slots);
  p->backs = calloc(cap, sizeof *p->backs);
  p->doneq = calloc(cap, sizeof *p->doneq);
  p->emitq = calloc(cap, sizeof *p->emitq);
  if (o->costs == NULL) /* all 1, or cost's */
    guess = calloc(cap, sizeof *guess);
  if (p->slots == NULL || p->backs == NULL || p->doneq == NULL ||
      p->emitq == NULL || (o->costs == NULL && guess == NULL) ||
      wl_ctx_new(NULL, &p->ctx) != 0) {
    free(guess);
    free(p->slots);
    free(p->backs);
    free(p->doneq);
    free(p->emitq);
    free(p);
    goto nomem;
  }
  if (jobs > 0) /* NULL: the workers go where the OS puts them */
    p->place = wll_place_new(p->nslots);
  rc = 0;
  for (i = 0; rc == 0 && i < p->nslots; i++) {
    p->slots[i].p = p;
    if (wl_ctx_new(NULL, &p->slots[i].ctx) != 0 ||
        (fns->worker_new != NULL &&
         fns->worker_new(ud, p->slots[i].ctx, &p->slots[i].worker) != 0))
      rc = WL_ENOMEM;
  }
  if (rc == 0 && o->costs == NULL) {
    size_t k;
    for (k = 0; k < n; k++)
      guess[k] = 1;
  }
  if (rc == 0 && o->costs == NULL && o->cost != NULL && jobs > 0 &&
      p->src == NULL) {
    /* the guesses, on the threads that will run the units, and the plan
     * after them (guess_units) */
    p->guess = guess;
    p->guessing = p->nslots;
    atomic_init(&p->gnext, 0);
  } else if (rc == 0)
    rc = wl_shard_new(p->ctx, n, o->costs != NULL ? o->costs : guess,
                      &p->plan);
  if (rc != 0) {
    p->rc = rc;
    set_err(p, "%s", rc == WL_ENOMEM ? "out of memory"
                                     : wl_ctx_errmsg(p->ctx));
  } else {
    wll_sig_enter();
    if (jobs == 0)
      run_inline(p);
    else
      run_threads(p);
    wll_sig_leave();
    if (o->progress)
      erase_progress(p);
  }
  /* what came back and was never emitted */
  for (u = wl_shard_merged(p->plan); p->plan != NULL && u < n; u++)
    if (p->backs[u].out != NULL && fns->drop != NULL)
      fns->drop(ud, u, p->backs[u].out);
  res->emitted = p->src != NULL ? p->nemitted : wl_shard_merged(p->plan);
  res->stop = p->emit_stopped ? WLL_STOP_ERROR
              : atomic_load(&p->stop) || (p->src == NULL && res->emitted < n)
                  ? WLL_STOP_SIGNAL
                  : WLL_STOP_NONE;
  if (p->rc != 0)
    res->stop = WLL_STOP_ERROR;
  res->workers = jobs;
  rc = p->rc;
  for (i = 0; i < p->nslots; i++) {
    if (p->slots[i].worker != NULL && fns->worker_free != NULL)
      fns->worker_free(ud, p->slots[i].worker);
    wl_ctx_free(p->slots[i].ctx);
  }
  wl_shard_free(p->plan);
  wl_ctx_free(p->ctx);
  wll_place_free(p->place);
  free(guess);
  free(p->slots);
  free(p->backs);
  free(p->doneq);
  free(p->emitq);
  free(p);
  return rc;

nomem:
  if (err != NULL && errlen > 0)
    snprintf(err, errlen, "out of memory");
  return WL_ENOMEM;
}
