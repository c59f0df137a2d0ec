/* cbtraces.c -- the traces of callback threads (Lua functions, C
 * callbacks): the function is re-run with each choice of loaded values,
 * reporting its accesses through a wl_tb (program/thread.h); its
 * dependencies are taken as the worst case (callback_deps).  traces.c
 * holds instruction threads and the driver. */
#include <stdio.h>
#include <string.h>

#include "explore.h"
#include "tgen.h"

/* The explorer's side of the callback interface (program/thread.h): the
 * wl_tb a callback reports through sits in an xtb beside its trace
 * generator.  Arguments arrive checked by the wl_tb_* wrappers. */
typedef struct xtb {
  wl_tb tb;
  tgen *g;
} xtb;

static tgen *tb_gen(wl_tb *tb) { return WL__TB_OWNER(tb, xtb, tb)->g; }

/* A load-like choice for callback threads: replays the recorded choice
 * at this depth or starts a new one (stateless model checking). */
static int tb_choose(tgen *g, int loc, int64_t *value) {
  const vdom *d = &g->x->dom[loc];
  int k = g->nch;
  if (k >= WL_MAX_TEV)
    return WL_ELIMIT;
  if (k < g->depth) {
    if (g->nchoice[k] != d->n || g->chloc[k] != loc) {
      g->x->err = wl__err(g->x->ctx, WL_EINVAL,
                          "thread %s is not deterministic: a rerun with "
                          "the same loaded values loaded something else",
                          g->thr->name);
      return WL_EINVAL;
    }
  } else {
    g->ch[k] = 0;
    g->nchoice[k] = d->n;
    g->chloc[k] = loc;
    g->depth = k + 1;
  }
  *value = d->v[g->ch[k]];
  g->nch++;
  return 0;
}

/* Room for nev more events in the trace.  A callback that goes round a
 * loop is cut by the unroll bound first (tb_bound); one that runs out
 * of room is refused, naming the cause: its loops unrolled too far, or
 * too many events in straight-line code (never reported as a cut loop,
 * which would list the states of the part that fit). */
static int tb_room(tgen *g, int nev, int line) {
  xp *x = g->x;
  char where[300];
  wl_ev at;
  if (x->err)
    return x->err;
  if (g->nev + nev <= WL_MAX_TEV)
    return 0;
  memset(&at, 0, sizeof at);
  at.line = line;
  at.insn = -1;
  wl__xp_ev_place(x, g->th, &at, where, sizeof where);
  if (wl__tg_looped(g))
    return x->err = wl__err(
               x->ctx, WL_ELIMIT,
               "%s: thread %s makes more than %d memory events in one run "
               "(the explorer's limit per thread) with its loops unrolled "
               "%d times; lower the unroll bound (--unroll N, "
               "explore{unroll = N}) or make the loop body shorter",
               where, g->thr->name, WL_MAX_TEV, x->unroll);
  return x->err = wl__err(
             x->ctx, WL_ELIMIT,
             "%s: thread %s makes more than %d memory events in one run (the "
             "explorer's limit per thread; no location is read twice, so no "
             "loop is unrolled and --unroll does not help): split the "
             "thread's work into smaller tests",
             where, g->thr->name, WL_MAX_TEV);
}

static wl_ev *tb_push(tgen *g, int type, int loc, int line) {
  wl_ev *e = &g->ev[g->nev++];
  memset(e, 0, sizeof *e);
  e->type = (uint8_t)type;
  e->loc = (int16_t)loc;
  e->vloc = (int16_t)loc;
  e->line = line;
  e->insn = -1;
  g->last_bar = -1;
  return e;
}

/* The loop bound of callback threads: each location is read at most
 * unroll+1 times in one trace. */
static int tb_bound(tgen *g, int loc) {
  if (++g->reads_of[loc] > g->x->unroll + 1) {
    g->cut = 1;
    return WL_ELIMIT;
  }
  return 0;
}

/* The read of a load or an RMW (nev events in all): its value chosen
 * from the location's domain, in *e. */
static int tb_read(tgen *g, int loc, int scope, int line, int nev,
                   wl_ev **e) {
  int64_t v;
  int r;
  if ((r = tb_bound(g, loc)) != 0 || (r = tb_room(g, nev, line)) != 0)
    return r;
  if ((r = tb_choose(g, loc, &v)) != 0)
    return r;
  *e = tb_push(g, EV_R, loc, line);
  (*e)->scope = (uint8_t)scope;
  (*e)->val = v;
  return 0;
}

static int tb_load(wl_tb *tb, int loc, int sem, int scope, int line,
                   int64_t *value) {
  wl_assert(wl__tb_load_ok(tb, loc, sem, scope));
  wl_ev *e;
  int r = tb_read(tb_gen(tb), loc, scope, line, 1, &e);
  if (r != 0)
    return r;
  e->sem = (uint8_t)sem;
  if (value != NULL)
    *value = e->val;
  return 0;
}

/* An await: one read whose value is chosen among the values of the
 * domain that satisfy the condition.  The loop it stands for has no
 * side effects, so its failed iterations are stutters (see jump() in
 * traces.c): a thread for which no value passes waits forever, and its
 * trace is kept only as a stutter prefix. */
static int tb_await(wl_tb *tb, int loc, int sem, int scope, int cmp,
                    int64_t operand, int line, int64_t *value) {
  wl_assert(wl__tb_await_ok(tb, loc, sem, scope, cmp));
  tgen *g = tb_gen(tb);
  const vdom *d = &g->x->dom[loc];
  int k = g->nch, i, m = 0, r;
  wl_ev *e;
  if ((r = tb_bound(g, loc)) != 0 || (r = tb_room(g, 1, line)) != 0)
    return r;
  for (i = 0; i < d->n; i++)
    m += wl__cond_holds(cmp, d->v[i], operand);
  if (m == 0) {
    g->cut = 2;
    g->spin0 = g->nev; /* no value passes: it waits whatever it reads */
    g->spin_line = line;
    return WL_ELIMIT;
  }
  if (k >= WL_MAX_TEV)
    return WL_ELIMIT;
  if (k < g->depth) {
    if (g->nchoice[k] != m || g->chloc[k] != loc) {
      g->x->err = wl__err(g->x->ctx, WL_EINVAL,
                          "thread %s is not deterministic: a rerun with "
                          "the same loaded values loaded something else",
                          g->thr->name);
      return WL_EINVAL;
    }
  } else {
    g->ch[k] = 0;
    g->nchoice[k] = m;
    g->chloc[k] = loc;
    g->depth = k + 1;
  }
  for (i = 0, m = -1; i < d->n; i++)
    if (wl__cond_holds(cmp, d->v[i], operand) && ++m == g->ch[k])
      break;
  g->nch++;
  e = tb_push(g, EV_R, loc, line);
  e->sem = (uint8_t)sem;
  e->scope = (uint8_t)scope;
  e->val = d->v[i];
  if (value != NULL)
    *value = d->v[i];
  return 0;
}

static int tb_store(wl_tb *tb, int loc, int64_t value, int sem, int scope,
                    int line) {
  wl_assert(wl__tb_store_ok(tb, loc, sem, scope));
  tgen *g = tb_gen(tb);
  wl_ev *e;
  int r;
  if ((r = tb_room(g, 1, line)) != 0)
    return r;
  e = tb_push(g, EV_W, loc, line);
  e->sem = (uint8_t)sem;
  e->scope = (uint8_t)scope;
  e->val = value;
  g->nwrites++;
  return 0;
}

static int tb_atomic(wl_tb *tb, int loc, int op, int64_t a, int64_t b, int sem,
                     int scope, int line, int64_t *old) {
  wl_assert(wl__tb_atomic_ok(tb, loc, op, sem, scope));
  tgen *g = tb_gen(tb);
  wl_ev *e;
  int64_t v;
  int r = tb_read(g, loc, scope, line, 2, &e);
  if (r != 0)
    return r;
  v = e->val;
  e->sem = (uint8_t)wl__rmw_read_sem(sem);
  if (!(op == WL_OP_CAS && v != a)) {
    wl_ev *w;
    e->rmw = 1;
    w = tb_push(g, EV_W, loc, line);
    w->rmw = 1;
    w->scope = (uint8_t)scope;
    w->sem = (uint8_t)wl__rmw_write_sem(sem);
    w->val = wl__aop_typed(g->x->t->loctype[loc], op, v, a, b);
    g->nwrites++;
  }
  if (old != NULL)
    *old = v;
  return 0;
}

static int tb_fence(wl_tb *tb, int sem, int scope, int line) {
  wl_assert(wl__tb_fence_ok(tb, sem, scope));
  tgen *g = tb_gen(tb);
  wl_ev *e;
  int r;
  if ((r = tb_room(g, 1, line)) != 0)
    return r;
  e = tb_push(g, EV_F, -1, line);
  e->sem = (uint8_t)sem;
  e->scope = (uint8_t)scope;
  return 0;
}

static int tb_barrier(wl_tb *tb, int kind, int64_t id, int64_t count,
                      int line) {
  wl_assert(wl__tb_barrier_ok(tb, kind, count));
  tgen *g = tb_gen(tb);
  wl_ev *e;
  int r;
  if ((r = tb_room(g, 1, line)) != 0)
    return r;
  e = tb_push(g, EV_B, -1, line);
  e->sem = WL_SEM_ACQ_REL;
  e->scope = WL_SCOPE_CTA;
  e->bar_kind = (uint8_t)kind;
  e->bar_ns = BARNS_PTX;
  e->bar_id = id;
  e->has_count = count > 0;
  e->bar_count = count;
  g->nwrites++;
  g->last_bar = g->nev - 1;
  return 0;
}

static int tb_result(wl_tb *tb, const char *name, int type, int64_t value) {
  wl_assert(wl__tb_result_ok(tb, name, type));
  tgen *g = tb_gen(tb);
  int r, was;
  /* the callback's results are the thread's registers: the test grows
   * them while it is explored */
  r = wl__thread_result(g->x->ctx, (wl_thread *)g->thr, name, type, &was);
  if (r == -3)
    return wl__result_type_err(g->x->ctx, g->thr->name, name, was, type);
  if (r == -2)
    return g->x->err = wl__err(g->x->ctx, WL_ENOMEM, "out of memory");
  if (r < 0) {
    char where[300];
    return wl__err(g->x->ctx, WL_ELIMIT, "%s: thread %s: more than %d results",
                   wl__xp_ev_place(g->x, g->th,
                                   g->nev ? &g->ev[g->nev - 1] : NULL, where,
                                   sizeof where),
                   g->thr->name, WL_MAX_REGS);
  }
  g->regs[r] = value;
  return 0;
}

static int tb_thread(const wl_tb *tb) {
  return WL__TB_OWNER_C(tb, xtb, tb)->g->th;
}

/* Not sticky: the callback may go on, and fails the exploration only by
 * returning the code. */
static int tb_fail(wl_tb *tb, int err, const char *msg) {
  wl__err(tb_gen(tb)->x->ctx, err, "%s", msg ? msg : wl_strerror(err));
  return err;
}

static const wl__tb_ops tb_ops = {
    .load = tb_load,
    .store = tb_store,
    .await = tb_await,
    .atomic = tb_atomic,
    .fence = tb_fence,
    .barrier = tb_barrier,
    .result = tb_result,
    .thread = tb_thread,
    .fail = tb_fail,
};

/* Dependencies of callback traces, found semantically: for a load L of
 * trace T, take the trace T' that differs from T only in L's value (and
 * agrees on later choices as far as possible); the first event where T'
 * differs in kind, location or semantics starts a control dependency
 * (every later event depends on L); an event that differs only in the
 * value it writes has a data dependency on L. */
static void callback_deps(xp *x, int th) {
  tpool *p = &x->pool[th];
  size_t k, m;
  for (k = 0; k < p->traces.n; k++) {
    wl_trace *tr = WL_VEC_PTR(&p->traces, wl_trace, k);
    wl_ev *ev = WL_VEC_PTR(&p->ev, wl_ev, tr->ev0);
    const int *ch = WL_VEC_PTR(&p->ch, int, tr->ch0);
    int ci = 0, i;
    for (i = 0; i < tr->nev; i++) {
      int c;
      if (ev[i].type != EV_R)
        continue;
      c = ci++;
      for (m = 0; m < p->traces.n; m++) {
        const wl_trace *o = WL_VEC_PTR(&p->traces, wl_trace, m);
        const int *och = WL_VEC_PTR(&p->ch, int, o->ch0);
        const wl_ev *oe;
        int j, jo, same = 1, oc;
        if (m == k || o->nch <= c || och[c] == ch[c])
          continue;
        for (j = 0; j < c && same; j++)
          same = och[j] == ch[j];
        if (!same)
          continue;
        /* later choices: compare events while the choices agree.  The
         * two traces are walked side by side; an RMW's read that writes
         * in one trace and not in the other (a cas whose comparison
         * came out otherwise) is the same event, and only its write
         * depends on L -- the events after it do not shift. */
        oe = WL_VEC_PTR(&p->ev, wl_ev, o->ev0);
        oc = c + 1;
        for (j = i + 1 + ev[i].rmw, jo = i + 1 + oe[i].rmw; j < tr->nev;
             j++, jo++) {
          if (jo >= o->nev || oe[jo].type != ev[j].type ||
              oe[jo].loc != ev[j].loc || oe[jo].sem != ev[j].sem ||
              oe[jo].scope != ev[j].scope) {
            int q;
            for (q = j; q < tr->nev; q++) {
              ev[q].deps |= 1ull << i;
              ev[q].cdeps |= 1ull << i;
            }
            break;
          }
          if ((ev[j].type == EV_W && oe[jo].val != ev[j].val) ||
              (ev[j].type == EV_B && oe[jo].bar_id != ev[j].bar_id)) {
            ev[j].deps |= 1ull << i;
            ev[j].ddeps |= 1ull << i;
          }
          if (ev[j].type == EV_R) {
            /* a later load: stop where the two traces choose differently */
            int cj = oc++;
            if (cj >= o->nch || cj >= tr->nch || och[cj] != ch[cj])
              break;
            if (ev[j].rmw != oe[jo].rmw) {
              /* whether this RMW writes depends on L */
              if (ev[j].rmw) {
                ev[j + 1].deps |= 1ull << i;
                ev[j + 1].cdeps |= 1ull << i;
              }
              j += ev[j].rmw;
              jo += oe[jo].rmw;
            }
          }
        }
      }
    }
  }
}

void wl__tg_run_callback(tgen *g) {
  xp *x = g->x;
  const wl_thread *thr = g->thr;
  xtb tb;
  tb.tb.ops = &tb_ops;
  tb.tb.t = x->t;
  tb.g = g;
  g->depth = 0;
  for (;;) {
    int rc, d;
    if (wl__xp_stop(x))
      return;
    g->nev = 0;
    g->nch = 0;
    g->nwrites = 0;
    g->cut = 0;
    g->last_bar = -1;
    memset(g->reads_of, 0, sizeof g->reads_of);
    memcpy(g->regs, thr->reginit, sizeof g->regs);
    x->ctx->errmsg[0] = '\0';
    rc = thr->fn(thr->fn_ud, &tb.tb);
    if (x->err)
      return;
    if (rc != 0 && !(rc == WL_ELIMIT && g->cut)) {
      if (x->ctx->errmsg[0] == '\0')
        wl__err(x->ctx, rc, "thread %s failed: %s", thr->name, wl_strerror(rc));
      x->err = rc;
      return;
    }
    if (g->nch < g->depth) {
      x->err = wl__err(x->ctx, WL_EINVAL,
                       "thread %s is not deterministic: a rerun with the "
                       "same loaded values stopped earlier",
                       thr->name);
      return;
    }
    wl__tg_emit(g, g->cut); /* 2: waits forever at an await */
    if (x->err)
      return;
    /* next choice vector: the deepest choice with an untried value */
    for (d = g->nch - 1; d >= 0 && g->ch[d] + 1 >= g->nchoice[d]; d--)
      ;
    if (d < 0)
      break;
    g->ch[d]++;
    g->depth = d + 1;
  }
  callback_deps(x, g->th);
}

