/* lexplore.c -- one exploration across cores (lexplore.h): the units of
 * wl_explore_split go to bindings/lpool.c's pool; each slot prepares its
 * own explorer (in its own context) the first time it runs a unit, and
 * the units' results come back to the calling thread in unit order,
 * where wl_explore_merge folds them into the one result.  The first
 * explorer, which says how many units there are, is prepared here in a
 * context of its own and handed to the first slot.
 *
 * What the units merged so far found is published to the workers as an
 * immutable snapshot (a copy of the merged result, made on the calling
 * thread after a merge that added states, counted by reference under a
 * mutex): a unit starts knowing it (wl_explore_unit's known), so that it
 * skips what the whole search would skip; with one job the units run
 * in order, each knowing every unit before it, which is wl_explore's
 * own search.  Which snapshot a unit gets depends on timing; its result
 * does not (engine/model/split.c says why). */
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lexplore.h"
#include "lpool.h"
#include "lwarplab.h"
#include "ranks.h" /* the codec's type only: no call into the ranks */

typedef struct xjob xjob;

/* ctx's message, formatted; returns err. */
static int seterr(wl_ctx *ctx, int err, const char *fmt, ...) {
  char m[700];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m, sizeof m, fmt, ap);
  va_end(ap);
  return wl_ctx_set_error(ctx, err, m);
}

/* A slot's explorer, prepared from its own context on first use. */
typedef struct xworker {
  xjob *j;
  wl_ctx *ctx;      /* the explorer's (the slot's, or the first's own) */
  wl_ctx *own;      /* freed with the worker (the first explorer's) */
  wl_explorer *e;
  void *pool_stop;  /* the unit in flight's stop_ud (lpool) */
  /* the context of the results handed back: the explorer's own context
   * counts its allocations through a hook it swaps in while a unit runs,
   * so a result made there must not be freed on the loop thread while
   * the slot runs its next unit; a copy made here is (this context's
   * allocator is the default one, never swapped) */
  wl_ctx *octx;
} xworker;

/* A snapshot of the merged result, shared by the units that know it. */
typedef struct snap {
  wl_result *r; /* made in xjob.sctx */
  int refs;     /* under xjob.mu */
} snap;

/* A unit's output: its result, or its failure. */
typedef struct xout {
  wl_result *r;
  int rc;
  char msg[600];
} xout;

struct xjob {
  const wl_litmus *t;
  wl_explore_opts opts;           /* the caller's, stop and progress ours */
  int (*user_stop)(void *ud);     /* the caller's should_stop */
  void *user_stop_ud;
  wl_ctx *ctx;                    /* the caller's: the merged result */
  wl_result *acc;
  wl_explorer *first;             /* given to the first slot */
  wl_ctx *first_ctx;
  int rc;                         /* the first failure, in unit order */
  int stopped;                    /* a unit came back partial */
  /* the snapshot the next unit gets, and the context of snapshots
   * (allocating with the default allocator: freed from any thread) */
  pthread_mutex_t mu;
  snap *cur;
  wl_ctx *sctx;
  size_t published; /* states in cur */
  /* spread over processes (wll_explore_spread): the explorer that the
   * other ranks' results are unpacked against (in its own context), and
   * the merge of this rank's own units, in unit order, that the next of
   * them know (in sctx) */
  int spread, packed;
  wl_explorer *tmpl;
  wl_ctx *tmpl_ctx;
  wl_result *lacc;
};

static snap *snap_get(xjob *j) {
  snap *s;
  pthread_mutex_lock(&j->mu);
  s = j->cur;
  if (s != NULL)
    s->refs++;
  pthread_mutex_unlock(&j->mu);
  return s;
}

static void snap_put(xjob *j, snap *s) {
  int dead;
  if (s == NULL)
    return;
  pthread_mutex_lock(&j->mu);
  dead = --s->refs == 0;
  pthread_mutex_unlock(&j->mu);
  if (dead) {
    wl_result_free(s->r);
    free(s);
  }
}

/* After a merge that added states: a new snapshot replaces the old
 * (which lives on while units use it).  Out of memory: the units go on
 * knowing the older one (they only skip less). */
static void publish(xjob *j, const wl_result *acc) {
  snap *s, *old;
  if (j->sctx == NULL || acc == NULL || j->opts.count_executions ||
      wl_result_nstates(acc) <= j->published)
    return;
  s = calloc(1, sizeof *s);
  if (s == NULL)
    return;
  if (wl_explore_merge(j->sctx, &s->r, acc) != 0) {
    wl_result_free(s->r);
    free(s);
    return;
  }
  s->refs = 1; /* the job's */
  j->published = wl_result_nstates(acc);
  pthread_mutex_lock(&j->mu);
  old = j->cur;
  j->cur = s;
  pthread_mutex_unlock(&j->mu);
  snap_put(j, old);
}

/* Every worker polls the pool's stop (a signal, a failed unit) and the
 * caller's should_stop (--timeout). */
static int worker_should_stop(void *ud) {
  xworker *w = ud;
  if (w->pool_stop != NULL && wll_pool_should_stop(w->pool_stop))
    return 1;
  return w->j->user_stop != NULL && w->j->user_stop(w->j->user_stop_ud);
}

static int worker_new(void *ud, wl_ctx *ctx, void **out) {
  xjob *j = ud;
  xworker *w = calloc(1, sizeof *w);
  if (w == NULL)
    return -1;
  w->j = j;
  w->ctx = ctx;
  if (wl_ctx_new(NULL, &w->octx) != 0) {
    free(w);
    return -1;
  }
  if (j->first != NULL) { /* the explorer that counted the units */
    w->e = j->first;
    w->ctx = w->own = j->first_ctx;
    j->first = NULL;
    j->first_ctx = NULL;
    wl_explorer_set_stop(w->e, worker_should_stop, w);
  }
  *out = w;
  return 0;
}

static void worker_free(void *ud, void *p) {
  xworker *w = p;
  (void)ud;
  if (w == NULL)
    return;
  wl_explorer_free(w->e);
  wl_ctx_free(w->own);
  wl_ctx_free(w->octx);
  free(w);
}

static int unit_run(void *ud, size_t unit, wl_ctx *ctx, void *wp,
                    void *stop_ud, void **outp) {
  xjob *j = ud;
  xworker *w = wp;
  xout *o = calloc(1, sizeof *o);
  (void)ctx;
  *outp = o;
  if (o == NULL)
    return WLL_UNIT_DONE; /* emit reports it */
  w->pool_stop = stop_ud;
  if (w->e == NULL) {
    wl_explore_opts opts = j->opts;
    opts.stop_ud = w; /* the explorer keeps a copy */
    o->rc = wl_explore_split(w->ctx, j->t, &opts, &w->e);
  }
  if (o->rc == 0) {
    snap *s = snap_get(j);
    wl_result *r = NULL;
    o->rc = wl_explore_unit(w->e, unit, s != NULL ? s->r : NULL, &r);
    snap_put(j, s);
    if (o->rc != 0)
      snprintf(o->msg, sizeof o->msg, "%s", wl_ctx_errmsg(w->ctx));
    else if ((o->rc = wl_explore_merge(w->octx, &o->r, r)) != 0)
      snprintf(o->msg, sizeof o->msg, "%s", wl_ctx_errmsg(w->octx));
    wl_result_free(r); /* on this thread, with its context's hook */
  } else {
    snprintf(o->msg, sizeof o->msg, "%s", wl_ctx_errmsg(w->ctx));
  }
  if (o->rc == WL_ESTOPPED ||
      (o->rc == 0 && wl_result_partial(o->r, NULL) != 0))
    return WLL_UNIT_STOPPED;
  return WLL_UNIT_DONE;
}

static void out_free(xout *o) {
  if (o != NULL)
    wl_result_free(o->r);
  free(o);
}

static int unit_emit(void *ud, size_t unit, void *p, int stopped) {
  xjob *j = ud;
  xout *o = p;
  int rc;
  (void)unit;
  if (o == NULL) {
    j->rc = seterr(j->ctx, WL_ENOMEM, "out of memory");
    return 1;
  }
  if (o->rc != 0) {
    /* the first failure in unit order is the exploration's */
    j->rc = seterr(j->ctx, o->rc, "%s", o->msg);
    out_free(o);
    return 1;
  }
  rc = wl_explore_merge(j->ctx, &j->acc, o->r);
  out_free(o);
  if (rc != 0) {
    j->rc = rc;
    return 1;
  }
  j->stopped |= stopped;
  if (!j->packed) /* else the ranks' run is over: no unit to know it */
    publish(j, j->acc);
  return 0;
}

static void unit_drop(void *ud, size_t unit, void *p) {
  (void)ud;
  (void)unit;
  out_free(p);
}

/* ---------------- across processes (wll_explore_spread) ---------------- */

/* A unit's output as bytes, on the rank that ran it: its failure (code
 * and message), else its result (wl_result_pack).  The result is also
 * merged into this rank's own units' merge, which the rank's next units
 * know.  That is a merge of units before them, as wl_explore_unit's
 * known must be, because cmd_ranks_pool.c hands the units out in its
 * plan's order, which for the equal costs given here (po.costs NULL)
 * is unit order: every unit a rank has finished went out before, so
 * below, any unit it starts next (whichever order they finish in). */
/* v as 8 bytes little-endian, then the n bytes of s */
static void put_rec(unsigned char *p, uint64_t v, const void *s, size_t n) {
  int i;
  for (i = 0; i < 8; i++)
    *p++ = (unsigned char)(v >> (8 * i));
  if (n > 0)
    memcpy(p, s, n);
}

static int x_pack(void *ud, size_t unit, const void *p, void **buf,
                  size_t *len) {
  xjob *j = ud;
  const xout *o = p;
  void *rb = NULL;
  size_t rl = 0;
  unsigned char *b;
  (void)unit;
  j->packed = 1;
  if (o == NULL)
    return -1;
  if (o->rc != 0) {
    rb = (void *)o->msg;
    rl = strlen(o->msg);
  } else if (wl_result_pack(o->r, &rb, &rl) != 0)
    return -1;
  b = malloc(8 + rl > 0 ? 8 + rl : 1);
  if (b != NULL)
    put_rec(b, (uint64_t)(int64_t)o->rc, rb, rl);
  if (o->rc == 0)
    free(rb);
  if (b == NULL)
    return -1;
  if (o->rc == 0 && j->sctx != NULL && wl_result_partial(o->r, NULL) == 0 &&
      (j->lacc == NULL || wl_result_partial(j->lacc, NULL) == 0)) {
    /* out of memory: the next units know less (and cost more) */
    if (wl_explore_merge(j->sctx, &j->lacc, o->r) == 0)
      publish(j, j->lacc);
  }
  *buf = b;
  *len = 8 + rl;
  return 0;
}

/* On rank 0: the bytes as an output emit merges (the result unpacked
 * against the explorer kept for it). */
static int x_unpack(void *ud, size_t unit, const void *buf, size_t len,
                    void **outp) {
  xjob *j = ud;
  const unsigned char *p = buf, *s = p + 8;
  xout *o;
  uint64_t v = 0;
  int64_t rc;
  size_t n = len - 8;
  int i;
  (void)unit;
  *outp = NULL;
  if (len < 8 || j->tmpl == NULL)
    return -1;
  for (i = 7; i >= 0; i--)
    v = v << 8 | p[i];
  rc = (int64_t)v;
  if (rc > 0 || rc < -1000)
    return -1;
  if ((o = calloc(1, sizeof *o)) == NULL)
    return -1;
  o->rc = (int)rc;
  if (rc != 0)
    snprintf(o->msg, sizeof o->msg, "%.*s", (int)(n < 599 ? n : 599),
             (const char *)s);
  else if (wl_result_unpack(j->sctx, j->tmpl, s, n, &o->r) != 0) {
    free(o);
    return -1;
  }
  *outp = o;
  return 0;
}

/* A process whose preparation failed (out of memory, a signal while it
 * prepared) still takes part in spread's collective calls, with no
 * units: the other processes then fail ("different work") instead of
 * waiting for it forever; where every process failed alike (the same
 * test), none has units and each returns its own failure. */
static int none_run(void *ud, size_t unit, wl_ctx *ctx, void *w,
                    void *stop_ud, void **out) {
  (void)ud;
  (void)unit;
  (void)ctx;
  (void)w;
  (void)stop_ud;
  *out = NULL;
  return WLL_UNIT_DONE;
}

static int none_emit(void *ud, size_t unit, void *out, int stopped) {
  (void)ud;
  (void)unit;
  (void)out;
  (void)stopped;
  return 0;
}

static void spread_none(wll_explore_spread spread, xjob *j) {
  static const wll_ranks_codec codec = {x_pack, x_unpack};
  wll_pool_opts po;
  wll_pool_fns fns;
  wll_pool_result res;
  char note[300], perr[300];
  memset(&po, 0, sizeof po);
  memset(&fns, 0, sizeof fns);
  po.jobs = 1;
  po.what = "explore";
  po.units = "units";
  fns.run = none_run;
  fns.emit = none_emit;
  (void)spread(0, &po, &fns, &codec, j, &res, note, sizeof note, perr,
               sizeof perr);
}

/* The merged result after the pool's run (rc, perr: its failure). */
static int finish(xjob *j, int rc, const char *perr, size_t emitted,
                  size_t n, int emits, wl_result **out) {
  wl_ctx *ctx = j->ctx;
  const char *name = wl_litmus_name(j->t);
  if (rc != 0) {
    wl_result_free(j->acc);
    return seterr(ctx, rc, "%s", perr);
  }
  if (j->rc != 0) {
    wl_result_free(j->acc);
    return j->rc;
  }
  if (!emits) { /* a rank other than 0: the result is rank 0's */
    wl_result_free(j->acc);
    return 0;
  }
  if (emitted < n && !j->stopped) {
    /* stopped between units: what was merged, marked partial */
    if (j->acc == NULL || !j->opts.keep_partial) {
      wl_result_free(j->acc);
      return seterr(ctx, WL_ESTOPPED,
                    "%s: exploration stopped after %zu of %zu units", name,
                    emitted, n);
    }
    if (wl_result_mark_partial(j->acc, WL_ESTOPPED, "stopped") != 0) {
      wl_result_free(j->acc);
      return seterr(ctx, WL_ENOMEM, "out of memory");
    }
  }
  if (j->acc == NULL)
    return seterr(ctx, WL_ESTOPPED, "%s: exploration stopped with 0 "
                                    "states found", name);
  if (wl_result_partial(j->acc, NULL) == WL_ESTOPPED) {
    /* as wl_explore says it, with the states merged */
    char why[600];
    snprintf(why, sizeof why, "%s: exploration stopped with %zu states "
                              "found", name, wl_result_nstates(j->acc));
    if (wl_result_mark_partial(j->acc, WL_ESTOPPED, why) != 0) {
      wl_result_free(j->acc);
      return seterr(ctx, WL_ENOMEM, "out of memory");
    }
  }
  if (wl_result_partial(j->acc, NULL) != 0) {
    const char *why;
    int code = wl_result_partial(j->acc, &why);
    wl_ctx_set_error(ctx, code, why); /* the message, as wl_explore's */
    if (!j->opts.keep_partial) {
      wl_result_free(j->acc);
      return code;
    }
  }
  *out = j->acc;
  return 0;
}

int wll_explore_jobs(wl_ctx *ctx, const wl_litmus *t,
                     const wl_explore_opts *opts, int jobs, int progress,
                     wl_result **out) {
  return wll_explore_spread_run(ctx, t, opts, jobs, progress, NULL, 1, out);
}

int wll_explore_spread_run(wl_ctx *ctx, const wl_litmus *t,
                           const wl_explore_opts *opts, int jobs,
                           int progress, wll_explore_spread spread,
                           int emits, wl_result **out) {
  xjob j;
  wll_pool_opts po;
  wll_pool_fns fns;
  wll_pool_result res;
  xworker boot;
  char note[300], perr[300], what[200];
  size_t n;
  int rc;
  if (ctx == NULL || t == NULL || out == NULL || jobs < 1)
    return WL_EINVAL;
  *out = NULL;
  memset(&j, 0, sizeof j);
  if (opts != NULL)
    j.opts = *opts;
  if (pthread_mutex_init(&j.mu, NULL) != 0) {
    if (spread != NULL)
      spread_none(spread, &j);
    return seterr(ctx, WL_ENOMEM, "out of memory");
  }
  if (wl_ctx_new(NULL, &j.sctx) != 0)
    j.sctx = NULL; /* no snapshots: the units know nothing */
  j.t = t;
  j.ctx = ctx;
  j.user_stop = j.opts.should_stop;
  j.user_stop_ud = j.opts.stop_ud;
  j.opts.should_stop = worker_should_stop;
  j.opts.progress = NULL;
  j.opts.progress_ud = NULL;
  /* the first explorer: how many units; the first slot takes it over
   * (until then it polls the caller's stop alone) */
  memset(&boot, 0, sizeof boot);
  boot.j = &j;
  if (wl_ctx_new(NULL, &j.first_ctx) != 0) {
    rc = seterr(ctx, WL_ENOMEM, "out of memory");
    if (spread != NULL)
      spread_none(spread, &j);
    goto end;
  }
  {
    wl_explore_opts o1 = j.opts;
    o1.stop_ud = &boot;
    /* spread: not stopped (a signal would stop one process here and
     * another past it); the units, which every process runs through
     * spread, stop instead */
    if (spread != NULL)
      o1.should_stop = NULL;
    rc = wl_explore_split(j.first_ctx, t, &o1, &j.first);
  }
  if (rc != 0) {
    rc = seterr(ctx, rc, "%s", wl_ctx_errmsg(j.first_ctx));
    wl_ctx_free(j.first_ctx);
    if (spread != NULL)
      spread_none(spread, &j);
    goto end;
  }
  n = wl_explorer_units(j.first);
  if (spread != NULL) {
    /* kept to unpack the other ranks' results against; the slots
     * prepare their own */
    j.spread = 1;
    j.tmpl = j.first;
    j.tmpl_ctx = j.first_ctx;
    j.first = NULL;
    j.first_ctx = NULL;
  }
  memset(&po, 0, sizeof po);
  memset(&fns, 0, sizeof fns);
  snprintf(what, sizeof what, "explore %s", wl_litmus_name(t));
  po.jobs = jobs;
  po.progress = progress;
  po.what = what;
  po.units = "units";
  fns.worker_new = worker_new;
  fns.worker_free = worker_free;
  fns.run = unit_run;
  fns.emit = unit_emit;
  fns.drop = unit_drop;
  if (spread != NULL) {
    static const wll_ranks_codec codec = {x_pack, x_unpack};
    rc = spread(n, &po, &fns, &codec, &j, &res, note, sizeof note, perr,
                sizeof perr);
  } else
    rc = wll_pool_run(n, &po, &fns, &j, &res, note, sizeof note, perr,
                      sizeof perr);
  /* a first explorer no slot took (a failure before any slot) */
  wl_explorer_free(j.first);
  wl_ctx_free(j.first_ctx);
  rc = finish(&j, rc, perr, res.emitted, n, emits, out);
  wl_explorer_free(j.tmpl);
  wl_ctx_free(j.tmpl_ctx);
end:
  wl_result_free(j.lacc);
  snap_put(&j, j.cur);
  wl_ctx_free(j.sctx);
  pthread_mutex_destroy(&j.mu);
  return rc;
}
