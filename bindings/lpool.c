/* lpool.c -- units of work on libuv's thread pool, outputs in unit order
 * (lpool.h says what the caller sees).  The plan is the engine's
 * (wl_shard: largest first out, unit order back); this file is its
 * libuv driver: slots with their own contexts, uv_queue_work, the loop
 * that emits, the progress timer, and SIGINT/SIGTERM (lsignal.c).  With
 * bindings/lsched.c (the pool's start, shared) and main.c, one of the
 * files that include uv.h. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uv.h>

#include "lpool.h"
#include "lsched.h"
#include "lwarplab.h"

#define PROGRESS_MS 100

enum { SLOT_IDLE, SLOT_RUNNING };

typedef struct pool pool;

/* One worker's place: at most one unit in it at a time, and its own
 * context, which only that unit's thread touches meanwhile. */
typedef struct slot {
  uv_work_t req;
  pool *p;
  wl_ctx *ctx;
  void *worker; /* fns->worker_new's, or NULL */
  size_t unit;  /* the unit it holds */
  void *out;    /* its output, until handed to the plan */
  int rc;       /* run's WLL_UNIT_* */
  int state;
} slot;

/* What the plan keeps per unit that came back. */
typedef struct back {
  void *out;
  int stopped;
} back;

struct pool {
  uv_loop_t loop;
  uv_timer_t tick;
  int have_tick;
  const wll_pool_opts *o;
  const wll_pool_fns *fns;
  void *ud;
  wl_ctx *ctx; /* the plan's */
  wl_shard *plan;
  back *backs; /* per unit */
  size_t n, ndone;
  atomic_int stop;
  int why;   /* WLL_STOP_* */
  int ended; /* emission ended: a stopped unit, a gap, or emit's stop */
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

static void stop_all(pool *p, int why) {
  atomic_store(&p->stop, 1);
  if (p->why == WLL_STOP_NONE)
    p->why = why;
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
  int pct = p->n ? (int)((double)p->ndone * 100.0 / (double)p->n) : 100;
  char line[256];
  int k = snprintf(line, sizeof line, "%s: %d%% %zu/%zu %s",
                   p->o->what ? p->o->what : "warplab", pct, p->ndone, p->n,
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

/* ---------------- emission, in unit order ---------------- */

/* Emits what can go out now: the units back, in unit order, up to the
 * first not back; once stopping, a stopped unit is the last emitted and
 * a unit not back (never to come, or dropped) ends the emission. */
static void emit_ready(pool *p) {
  size_t u;
  void *r;
  while (!p->ended && wl_shard_next(p->plan, &u, &r)) {
    back *b = r;
    void *out = b->out;
    int stopped = b->stopped;
    b->out = NULL;
    erase_progress(p); /* the output, then the line again */
    if (p->fns->emit(p->ud, u, out, stopped) != 0) {
      p->ended = 1;
      stop_all(p, WLL_STOP_ERROR);
    }
    if (stopped)
      p->ended = 1;
  }
}

/* ---------------- the workers ---------------- */

/* On a pool thread: one unit. */
static void work_cb(uv_work_t *req) {
  slot *w = req->data;
  pool *p = w->p;
  w->out = NULL;
  in_worker = 1;
  w->rc = p->fns->run(p->ud, w->unit, w->ctx, w->worker, p, &w->out);
  in_worker = 0;
}

static void after_work_cb(uv_work_t *req, int status);

/* Fills idle slots with the next units (largest first), unless
 * stopping. */
static void dispatch(pool *p) {
  int i;
  for (i = 0; i < p->nslots; i++) {
    slot *w = &p->slots[i];
    size_t u;
    int rc;
    if (wll_sig_pending())
      stop_all(p, WLL_STOP_SIGNAL);
    if (atomic_load(&p->stop))
      break;
    if (w->state != SLOT_IDLE)
      continue;
    if (!wl_shard_take(p->plan, &u))
      break;
    w->unit = u;
    w->req.data = w;
    rc = uv_queue_work(&p->loop, &w->req, work_cb, after_work_cb);
    if (rc != 0) {
      if (p->rc == 0) {
        p->rc = WL_EIO;
        set_err(p, "cannot queue work: %s", uv_strerror(rc));
      }
      stop_all(p, WLL_STOP_ERROR);
      break;
    }
    w->state = SLOT_RUNNING;
    p->running++;
  }
}

/* A unit came back: into the plan, out in order, and the slot refilled. */
static void unit_back(pool *p, size_t u, void *out, int rc) {
  back *b = &p->backs[u];
  b->out = out;
  b->stopped = rc == WLL_UNIT_STOPPED;
  p->ndone++;
  /* wl_shard_done fails only for a unit out of range or back twice,
   * which the dispatch never makes */
  if (wl_shard_done(p->plan, u, b) != 0 && p->rc == 0) {
    p->rc = WL_EINVAL;
    set_err(p, "%s", wl_ctx_errmsg(p->ctx));
    stop_all(p, WLL_STOP_ERROR);
  }
  if (b->stopped)
    stop_all(p, WLL_STOP_SIGNAL);
  emit_ready(p);
}

static void after_work_cb(uv_work_t *req, int status) {
  slot *w = req->data;
  pool *p = w->p;
  (void)status; /* UV_ECANCELED: never, nothing is cancelled */
  w->state = SLOT_IDLE;
  p->running--;
  unit_back(p, w->unit, w->out, w->rc);
  w->out = NULL;
  dispatch(p);
  if (p->running == 0 && p->have_tick) {
    uv_close((uv_handle_t *)&p->tick, NULL);
    p->have_tick = 0;
  }
}

/* ---------------- inline: the calling thread ---------------- */

/* Every unit in unit order on the calling thread, with slot 0: run,
 * then emit at once (the plan still merges, so the same rules hold). */
static void run_inline(pool *p) {
  size_t u;
  slot *w = &p->slots[0];
  for (u = 0; u < p->n && !p->ended; u++) {
    void *out = NULL;
    int rc;
    if (wll_sig_pending()) {
      stop_all(p, WLL_STOP_SIGNAL);
      break;
    }
    rc = p->fns->run(p->ud, u, w->ctx, w->worker, p, &out);
    unit_back(p, u, out, rc);
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
  int urc = uv_loop_init(&p->loop);
  if (urc != 0) {
    p->rc = WL_EIO;
    set_err(p, "cannot start the event loop: %s", uv_strerror(urc));
    return;
  }
  if (p->o->progress && uv_timer_init(&p->loop, &p->tick) == 0) {
    p->have_tick = 1;
    p->tick.data = p;
    uv_timer_start(&p->tick, tick_cb, PROGRESS_MS, PROGRESS_MS);
  }
  dispatch(p);
  if (p->running == 0 && p->have_tick) { /* nothing could be queued */
    uv_close((uv_handle_t *)&p->tick, NULL);
    p->have_tick = 0;
  }
  uv_run(&p->loop, UV_RUN_DEFAULT);
  urc = loop_teardown(&p->loop);
  if (urc != 0 && p->rc == 0) {
    p->rc = WL_EIO;
    set_err(p, "cannot close the event loop: %s", uv_strerror(urc));
  }
}

int wll_pool_run(size_t n, const wll_pool_opts *o, const wll_pool_fns *fns,
                 void *ud, wll_pool_result *res, char *note, size_t notelen,
                 char *err, size_t errlen) {
  pool *p;
  uint64_t *ones = NULL;
  size_t u;
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
  if (o->inline_units || jobs == 1 || n <= 1 || in_worker)
    jobs = 0; /* the calling thread */
  else {
    if ((size_t)jobs > n)
      jobs = (int)n;
    jobs = wll_pool_start(jobs, note, notelen);
  }
  if ((p = calloc(1, sizeof *p)) == NULL)
    goto nomem;
  p->o = o;
  p->fns = fns;
  p->ud = ud;
  p->n = n;
  p->err = err;
  p->errlen = err != NULL ? errlen : 0;
  atomic_init(&p->stop, 0);
  p->nslots = jobs > 0 ? jobs : 1;
  p->slots = calloc((size_t)p->nslots, sizeof *p->slots);
  p->backs = calloc(n > 0 ? n : 1, sizeof *p->backs);
  if (o->costs == NULL)
    ones = calloc(n > 0 ? n : 1, sizeof *ones);
  if (p->slots == NULL || p->backs == NULL ||
      (o->costs == NULL && ones == NULL) || wl_ctx_new(NULL, &p->ctx) != 0) {
    free(ones);
    free(p->slots);
    free(p->backs);
    free(p);
    goto nomem;
  }
  rc = wl_shard_new(p->ctx, n, o->costs != NULL ? o->costs : ones, &p->plan);
  free(ones);
  for (i = 0; rc == 0 && i < p->nslots; i++) {
    p->slots[i].p = p;
    if (wl_ctx_new(NULL, &p->slots[i].ctx) != 0 ||
        (fns->worker_new != NULL &&
         fns->worker_new(ud, p->slots[i].ctx, &p->slots[i].worker) != 0))
      rc = WL_ENOMEM;
  }
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
  res->emitted = wl_shard_merged(p->plan);
  res->stop = p->why;
  res->workers = jobs;
  rc = p->rc;
  for (i = 0; i < p->nslots; i++) {
    if (p->slots[i].worker != NULL && fns->worker_free != NULL)
      fns->worker_free(ud, p->slots[i].worker);
    wl_ctx_free(p->slots[i].ctx);
  }
  wl_shard_free(p->plan);
  wl_ctx_free(p->ctx);
  free(p->slots);
  free(p->backs);
  free(p);
  return rc;

nomem:
  if (err != NULL && errlen > 0)
    snprintf(err, errlen, "out of memory");
  return WL_ENOMEM;
}
