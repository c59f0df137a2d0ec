/* cbreplay.c -- the replays of a callback thread (a Lua function or a C
 * callback playing a thread in the simulator): what its wl_tb calls see
 * (the simulator's side of program/thread.h; arguments arrive checked
 * by the wl_tb_* wrappers), learning its events one load at a time
 * (wl__cb_replay) and checking that a late value leaves the events it
 * did unchanged (wl__cb_probe).  sample.c runs the events.  (The
 * search for SC outcomes, weak.c, replays callbacks through the
 * explorer's reference search, model/sccb.c.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../program/ir.h"
#include "cbthread.h"
#include "hist.h"

/* One replay of a callback thread: what its wl_tb calls see (the
 * simulator's side of program/thread.h; arguments arrive checked by the
 * wl_tb_* wrappers). */
typedef struct simtb {
  wl_tb tb;
  wl_ctx *ctx;
  const wl_litmus *t;
  wl_hist *h; /* result names */
  int grow;   /* a new result name is added to h (else it is noted) */
  cbthread *c;
  int th;
  int i, j; /* events and loaded values met in this replay */
  int stopped, err, overflow;
  int probe;   /* cb_probe: compare the first `upto` events, learn none */
  int upto, differs;
} simtb;

static simtb *cb_self(wl_tb *tb) { return WL__TB_OWNER(tb, simtb, tb); }

static const char *cb_name(const simtb *d) { return d->t->threads[d->th].name; }

static int cb_fail(simtb *d, int err, const char *msg) {
  if (d->err == 0)
    d->err = wl__err(d->ctx, err, "thread %s: %s", cb_name(d), msg);
  return d->err;
}

/* A call after the replay failed or stopped changes nothing. */
static int cb_gone(const simtb *d) {
  if (d->err)
    return d->err;
  return d->stopped ? WL_ELIMIT : 0;
}

static const char *cb_what(int kind) {
  switch (kind) {
  case CB_LOAD:
    return "a load";
  case CB_STORE:
    return "a store";
  case CB_ATOM:
    return "an atomic";
  case CB_FENCE:
    return "a fence";
  default:
    return "a barrier";
  }
}

/* Event e met in a replay: an event learnt before must come back the
 * same (the callback is deterministic given its loaded values); a new
 * one is learnt; the callback stops at a load whose value is unknown. */
static int cb_event(simtb *d, const cbev *e, int64_t *value) {
  cbthread *c = d->c;
  int loads = e->kind == CB_LOAD || e->kind == CB_ATOM;
  if (value != NULL)
    *value = 0;
  if (d->probe && d->i >= d->upto) {
    d->stopped = 1; /* the events done so far are the same */
    return WL_ELIMIT;
  }
  if (d->i < c->nev) {
    const cbev *o = &c->ev[d->i];
    if (d->probe &&
        (o->kind != e->kind || o->loc != e->loc || o->sem != e->sem ||
         o->scope != e->scope || o->op != e->op || o->a != e->a ||
         o->b != e->b)) {
      d->differs = 1;
      d->stopped = 1;
      return WL_ELIMIT;
    }
    if (o->kind != e->kind || o->loc != e->loc || o->sem != e->sem ||
        o->scope != e->scope || o->op != e->op || o->a != e->a ||
        o->b != e->b) {
      if (d->err == 0)
        d->err = wl__err(d->ctx, WL_EINVAL,
                         "thread %s is not deterministic: a rerun with the "
                         "same loaded values did %s (line %d) where the "
                         "first run did %s (line %d)",
                         cb_name(d), cb_what(e->kind), e->line,
                         cb_what(o->kind), o->line);
      return d->err;
    }
    d->i++;
    if (!loads)
      return 0;
    if (d->j < c->nlv) {
      if (value != NULL)
        *value = c->lv[d->j];
      d->j++;
      return 0;
    }
    d->stopped = 1;
    return WL_ELIMIT;
  }
  if (c->nev == CB_MAXEV) {
    d->overflow = 1;
    d->stopped = 1;
    return WL_ELIMIT;
  }
  c->ev[c->nev++] = *e;
  d->i++;
  if (loads) {
    d->stopped = 1; /* its value comes when the simulator performs it */
    return WL_ELIMIT;
  }
  return 0;
}

static cbev cb_make(int kind, int loc, int sem, int scope, int line) {
  cbev e;
  memset(&e, 0, sizeof e);
  e.kind = (uint8_t)kind;
  e.loc = loc;
  e.sem = (uint8_t)sem;
  e.scope = (uint8_t)scope;
  e.line = line;
  return e;
}

static int cb_load(wl_tb *tb, int loc, int sem, int scope, int line,
                   int64_t *value) {
  wl_assert(wl__tb_load_ok(tb, loc, sem, scope));
  simtb *d = cb_self(tb);
  int r = cb_gone(d);
  cbev e;
  if (r != 0)
    return r;
  e = cb_make(CB_LOAD, loc, sem, scope, line);
  return cb_event(d, &e, value);
}

static int cb_store(wl_tb *tb, int loc, int64_t value, int sem, int scope,
                    int line) {
  wl_assert(wl__tb_store_ok(tb, loc, sem, scope));
  simtb *d = cb_self(tb);
  int r = cb_gone(d);
  cbev e;
  if (r != 0)
    return r;
  e = cb_make(CB_STORE, loc, sem, scope, line);
  e.a = value;
  return cb_event(d, &e, NULL);
}

static int cb_atomic(wl_tb *tb, int loc, int op, int64_t a, int64_t b, int sem,
                     int scope, int line, int64_t *old) {
  wl_assert(wl__tb_atomic_ok(tb, loc, op, sem, scope));
  simtb *d = cb_self(tb);
  int r = cb_gone(d);
  cbev e;
  if (r != 0)
    return r;
  e = cb_make(CB_ATOM, loc, sem, scope, line);
  e.op = (uint8_t)op;
  e.a = a;
  e.b = b;
  return cb_event(d, &e, old);
}

static int cb_fence(wl_tb *tb, int sem, int scope, int line) {
  wl_assert(wl__tb_fence_ok(tb, sem, scope));
  simtb *d = cb_self(tb);
  int r = cb_gone(d);
  cbev e;
  if (r != 0)
    return r;
  e = cb_make(CB_FENCE, -1, sem, scope, line);
  return cb_event(d, &e, NULL);
}

static int cb_barrier(wl_tb *tb, int kind, int64_t id, int64_t count,
                      int line) {
  wl_assert(wl__tb_barrier_ok(tb, kind, count));
  simtb *d = cb_self(tb);
  int r = cb_gone(d);
  cbev e;
  if (r != 0)
    return r;
  e = cb_make(CB_BAR, -1, WL_SEM_ACQ_REL, WL_SCOPE_CTA, line);
  e.op = (uint8_t)kind;
  e.a = id;
  e.b = count;
  return cb_event(d, &e, NULL);
}

static int cb_result(wl_tb *tb, const char *name, int type, int64_t value) {
  wl_assert(wl__tb_result_ok(tb, name, type));
  simtb *d = cb_self(tb);
  int k, r = cb_gone(d);
  if (r != 0)
    return r;
  k = wl__hist_reg(d->h, d->th, name);
  if (k < 0 && d->grow) {
    k = wl__hist_add_name(d->h, d->th, name, type);
    if (k < 0)
      return d->err = k;
  }
  if (k >= 0 && (r = wl__hist_type_result(d->h, d->th, k, name, type)) != 0)
    return d->err = r;
  if (k < 0)
    return 0; /* (a probe) a name no run reported yet */
  d->c->res[k] = value;
  return 0;
}

static int cb_thread(const wl_tb *tb) {
  return WL__TB_OWNER_C(tb, simtb, tb)->th;
}

/* Sticky: the first failure fails the replay, whatever the callback
 * returns after it. */
static int cb_failop(wl_tb *tb, int err, const char *msg) {
  if (err == 0)
    err = WL_EINVAL;
  return cb_fail(cb_self(tb), err, msg ? msg : wl_strerror(err));
}

static const wl__tb_ops cb_ops = {
    .load = cb_load,
    .store = cb_store,
    .atomic = cb_atomic,
    .fence = cb_fence,
    .barrier = cb_barrier,
    .result = cb_result,
    .thread = cb_thread,
    .fail = cb_failop,
};

/* Runs callback thread th once as replay d (set up here): fn, or the
 * thread's own function when fn is NULL; its return value.  grow: see
 * simtb; upto >= 0: a probe of the first upto events (cb_event). */
static int cb_run(simtb *d, wl_ctx *ctx, const wl_litmus *t, wl_hist *h,
                  int grow, int upto, wl_thread_fn fn, void *ud, int th,
                  cbthread *c) {
  memset(d, 0, sizeof *d);
  d->grow = grow;
  d->probe = upto >= 0;
  d->upto = upto;
  d->tb.ops = &cb_ops;
  d->tb.t = t;
  d->ctx = ctx;
  d->t = t;
  d->h = h;
  d->c = c;
  d->th = th;
  if (fn == NULL) {
    fn = t->threads[th].fn;
    ud = t->threads[th].fn_ud;
  }
  return fn(ud, &d->tb);
}

/* Re-runs callback thread th with the values its loads returned so far
 * (c->lv), to learn its next events, or that it ends (then c->res holds
 * its results).  0, or a WL_E* code with the message in ctx; *overflow
 * is set when the thread has more events than a run may hold. */
int wl__cb_replay(wl_ctx *ctx, const wl_litmus *t, wl_hist *h, int grow,
                  wl_thread_fn fn, void *ud, int th, cbthread *c,
                  int *overflow) {
  const wl_thread *thr = &t->threads[th];
  simtb d;
  int rc, k;
  for (k = 0; k < WL_MAX_REGS; k++)
    c->res[k] = k < h->tregs[th] ? thr->reginit[k] : 0;
  ctx->errmsg[0] = '\0';
  rc = cb_run(&d, ctx, t, h, grow, -1, fn, ud, th, c);
  if (d.err)
    return d.err;
  if (d.overflow) {
    *overflow = 1;
    return 0;
  }
  if (d.stopped)
    return 0; /* whatever the callback returned after its stop */
  if (rc != 0) {
    if (ctx->errmsg[0] == '\0')
      wl__err(ctx, rc, "thread %s failed: %s", thr->name, wl_strerror(rc));
    return rc;
  }
  if (d.i < c->nev)
    return wl__err(ctx, WL_EINVAL,
                   "thread %s is not deterministic: a rerun with the same "
                   "loaded values stopped earlier",
                   thr->name);
  c->finished = 1;
  return 0;
}

/* Whether callback thread th, given v as its lvi-th loaded value, does
 * its first `upto` events again (the ones it has done, and the one
 * executing now).  If so, v stands and the events after them are
 * learned again with it; if not, the value stays as it was.  The
 * results the replay reports are not kept: the thread's last, complete
 * replay gives them. */
int wl__cb_probe(wl_ctx *ctx, const wl_litmus *t, wl_hist *h,
                 wl_thread_fn fn, void *ud, int th, cbthread *c, int upto,
                 int lvi, int64_t v) {
  int64_t old, res[WL_MAX_REGS];
  simtb d;
  if (lvi < 0 || lvi >= c->nlv)
    return 0;
  old = c->lv[lvi];
  memcpy(res, c->res, sizeof res);
  c->lv[lvi] = v;
  (void)cb_run(&d, ctx, t, h, 0, upto, fn, ud, th, c);
  memcpy(c->res, res, sizeof res);
  if (d.err || d.overflow || d.differs || (!d.stopped && d.i < d.upto)) {
    c->lv[lvi] = old;
    return 0;
  }
  c->nev = d.upto;
  c->finished = 0;
  return 1;
}
