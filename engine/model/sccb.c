/* sccb.c -- the sequentially consistent search's callback threads
 * (program/thread.h): a replay with the values its loads returned so
 * far teaches the search (sc.c) a callback thread's next events; what
 * its results' names become is the search's user's (wl__sc_params). */
#include <string.h>

#include "scx.h"

/* ---------------------------------------------------------------- */
/* Callback threads (program/thread.h)                                */

typedef struct sctb {
  wl_tb tb;
  scx *c;
  sccb *cb;
  int th;
  int i, j, nevx; /* events met, loads met, events as the explorer counts */
  int reads[WL_MAX_LOCS];
  int stopped, err, nomatch;
  int64_t res[WL_MAX_REGS];
} sctb;

static sctb *tb_self(wl_tb *tb) { return WL__TB_OWNER(tb, sctb, tb); }

/* Event e met in a replay: learnt before, it must come back the same;
 * new, it is learnt.  The replay stops at a load whose value is not
 * known yet, and where the explorer's bound would cut the trace. */
static int tb_event(sctb *d, const scev *e, int nexp, int64_t *value) {
  sccb *cb = d->cb;
  int loads = e->kind == CE_LOAD || e->kind == CE_ATOM;
  if (d->err)
    return d->err;
  if (d->stopped)
    return WL_ELIMIT;
  if (loads && ++d->reads[e->loc] > d->c->unroll + 1 &&
      d->c->unroll != WL__SC_UNBOUNDED) {
    cb->cutat = d->i;
    d->stopped = 1;
    return WL_ELIMIT;
  }
  if (d->nevx + nexp > WL_MAX_TEV) {
    /* refused as the explorer refuses it (traces.c, tb_room), never
     * reported as a loop the bound cut */
    const wl_litmus *t = d->c->t;
    int l, looped = 0;
    for (l = 0; l < WL_MAX_LOCS; l++)
      looped |= d->reads[l] > 1;
    return d->err = wl__err(
               d->c->ctx, WL_ELIMIT,
               "%s:%d: thread %s makes more than %d memory events in one "
               "run (the explorer's limit per thread)%s",
               t->filename ? t->filename : t->name, e->line,
               t->threads[d->th].name, WL_MAX_TEV,
               looped ? " with its loops unrolled; lower the unroll bound "
                        "(--unroll N, explore{unroll = N}) or make the "
                        "loop body shorter"
                      : "; no location is read twice, so no loop is "
                        "unrolled and --unroll does not help: split the "
                        "thread's work into smaller tests");
  }
  if (d->i < cb->nev) {
    const scev *o = &cb->ev[d->i];
    if (o->kind != e->kind || o->loc != e->loc || o->sem != e->sem ||
        o->scope != e->scope || o->op != e->op || o->a != e->a || o->b != e->b)
      return d->err = wl__err(d->c->ctx, WL_EINVAL,
                              "thread %s is not deterministic: a rerun with "
                              "the same loaded values did something else "
                              "(line %d)",
                              d->c->t->threads[d->th].name, e->line);
  } else
    cb->ev[cb->nev++] = *e;
  d->i++;
  if (!loads) {
    d->nevx++;
    return 0;
  }
  if (d->j >= cb->nlv) {
    d->stopped = 1; /* its value comes when the load is performed */
    return WL_ELIMIT;
  }
  *value = cb->lv[d->j++];
  d->nevx +=
      1 + (e->kind == CE_ATOM && !(e->op == WL_OP_CAS && *value != e->a));
  return 0;
}

static scev tb_make(int kind, int loc, int sem, int scope, int line) {
  scev e;
  memset(&e, 0, sizeof e);
  e.kind = kind;
  e.loc = loc;
  e.sem = sem;
  e.scope = scope;
  e.line = line;
  return e;
}

static int tb_load(wl_tb *tb, int loc, int sem, int scope, int line,
                   int64_t *value) {
  wl_assert(wl__tb_load_ok(tb, loc, sem, scope));
  scev e = tb_make(CE_LOAD, loc, sem, scope, line);
  int64_t v = 0;
  int r = tb_event(tb_self(tb), &e, 1, &v);
  if (value != NULL)
    *value = v;
  return r;
}

static int tb_store(wl_tb *tb, int loc, int64_t value, int sem, int scope,
                    int line) {
  wl_assert(wl__tb_store_ok(tb, loc, sem, scope));
  scev e = tb_make(CE_STORE, loc, sem, scope, line);
  e.a = value;
  return tb_event(tb_self(tb), &e, 1, NULL);
}

static int tb_atomic(wl_tb *tb, int loc, int op, int64_t a, int64_t b, int sem,
                     int scope, int line, int64_t *old) {
  wl_assert(wl__tb_atomic_ok(tb, loc, op, sem, scope));
  scev e = tb_make(CE_ATOM, loc, sem, scope, line);
  int64_t v = 0;
  int r;
  e.op = op;
  e.a = a;
  e.b = b;
  r = tb_event(tb_self(tb), &e, 2, &v);
  if (old != NULL)
    *old = v;
  return r;
}

static int tb_fence(wl_tb *tb, int sem, int scope, int line) {
  wl_assert(wl__tb_fence_ok(tb, sem, scope));
  scev e = tb_make(CE_FENCE, -1, sem, scope, line);
  return tb_event(tb_self(tb), &e, 1, NULL);
}

static int tb_barrier(wl_tb *tb, int kind, int64_t id, int64_t count,
                      int line) {
  wl_assert(wl__tb_barrier_ok(tb, kind, count));
  scev e = tb_make(CE_BAR, -1, WL_SEM_ACQ_REL, WL_SCOPE_CTA, line);
  e.op = kind;
  e.a = id;
  e.b = count;
  return tb_event(tb_self(tb), &e, 1, NULL);
}

/* Results go where the search's user puts them (wl__sc_params.result:
 * the explorer grows the test's registers, the sampler keeps them in its
 * histogram). */
static int tb_result(wl_tb *tb, const char *name, int type, int64_t value) {
  wl_assert(wl__tb_result_ok(tb, name, type));
  sctb *d = tb_self(tb);
  wl__sc_params *p = d->c->p;
  int r, k = WL__SC_IGNORE;
  if (d->err)
    return d->err;
  if (d->stopped)
    return WL_ELIMIT;
  if ((r = p->result(p->ud, d->th, name, type, value, &k)) != 0)
    return d->err = r;
  if (k >= 0 && k < WL_MAX_REGS)
    d->res[k] = value;
  else if (k == WL__SC_NOMATCH)
    d->nomatch = 1;
  return 0;
}

static int tb_thread(const wl_tb *tb) {
  return WL__TB_OWNER_C(tb, sctb, tb)->th;
}

/* As in the explorer: the message is kept; the callback fails the
 * search by returning the code. */
static int tb_fail(wl_tb *tb, int err, const char *msg) {
  wl__err(tb_self(tb)->c->ctx, err, "%s", msg ? msg : wl_strerror(err));
  return err;
}

static const wl__tb_ops tb_ops = {
    .load = tb_load,
    .store = tb_store,
    .atomic = tb_atomic,
    .fence = tb_fence,
    .barrier = tb_barrier,
    .result = tb_result,
    .thread = tb_thread,
    .fail = tb_fail,
};

/* Re-runs callback thread th with the values its loads returned so far,
 * to learn its next events, where the bound cuts it, or that it
 * returns (then cb->res holds its registers). */
int wl__sc_learn(scx *c, uint8_t *s, int th) {
  const wl_thread *w = &c->t->threads[th];
  sccb *cb = s_cb(c, s, th);
  sctb *d;
  int rc, k;
  d = wl__calloc(c->ctx, sizeof *d);
  if (d == NULL)
    return wl__err(c->ctx, WL_ENOMEM, "out of memory");
  d->tb.ops = &tb_ops;
  d->tb.t = c->t;
  d->c = c;
  d->cb = cb;
  d->th = th;
  if (c->p->init != NULL)
    c->p->init(c->p->ud, th, d->res);
  else
    for (k = 0; k < WL_MAX_REGS; k++)
      d->res[k] = w->reginit[k];
  c->ctx->errmsg[0] = '\0';
  rc = w->fn(w->fn_ud, &d->tb);
  if (d->err)
    rc = d->err;
  else if (d->stopped)
    rc = 0; /* whatever the callback returned after its stop */
  else if (rc != 0) {
    if (c->ctx->errmsg[0] == '\0')
      wl__err(c->ctx, rc, "thread %s failed: %s", w->name, wl_strerror(rc));
  } else if (d->i < cb->nev)
    rc = wl__err(c->ctx, WL_EINVAL,
                 "thread %s is not deterministic: a rerun with the same "
                 "loaded values stopped earlier",
                 w->name);
  else {
    cb->fin = 1;
    cb->nomatch = d->nomatch;
    memcpy(cb->res, d->res, sizeof cb->res);
  }
  wl__free(c->ctx, d, sizeof *d);
  return rc;
}
