/* sc.c -- the sequentially consistent interpreter.
 *
 * One shared memory (a value per location); threads take turns, one
 * visible step at a time (a load, a store, an RMW, a barrier arrival),
 * in every order.  Steps that only touch a thread's own registers
 * (moves, arithmetic, branches, fences: no-ops under SC) commute with
 * every other thread's steps, so they run eagerly after each visible
 * step: the interleavings of visible steps give every SC final state.
 * A depth-first search memoises states already explored.
 *
 * State: a blob whose layout is fixed per test (struct scx's offsets):
 * memory, the registers of instruction threads, per thread its pc,
 * whether it ended, the barrier it waits at, the times each backward
 * branch was taken and its loop-head snapshots; per callback thread the
 * values its loads returned and what replays taught about its events;
 * the barriers in use.  Invariant: two states with equal memo keys
 * (sc_key: everything but what replays of callbacks derive from their
 * loaded values) reach the same final states.
 *
 * Loops are bounded like the explorer's traces (model/explore.c, jump):
 * a backward branch is taken at most unroll times; a backward jump that
 * returns to a loop head with the registers it had there, with no write
 * or barrier since, is a stutter and the interleaving is dropped (the
 * one without that iteration reaches the same final state); a thread
 * that needs more iterations ends the interleaving as cut.  Callback
 * threads are bounded as the explorer bounds them: unroll+1 reads of a
 * location, WL_MAX_TEV events.
 *
 * Barriers follow the explorer's schedule (explore.c, barrier_outcomes):
 * a barrier is (namespace, id, CTA); a phase completes when its expected
 * arrivals have come -- the thread count when given, else every thread
 * of the CTA (PTX bar.sync), else (Dat3M's bar.cta.sync) every thread of
 * the CTA that uses the barrier in the execution.  That last count
 * depends on the whole execution, so the interpreter guesses the set of
 * users at the first arrival and keeps only final states whose users are
 * the guess.  bar.sync waits for its phase, bar.arrive does not.  A
 * thread left waiting at its last event (nothing but branches after it)
 * ends there; one left waiting with more to do hangs (no final state);
 * a PTX bar.sync without a count left waiting is a barrier divergence,
 * an error as in the explorer.
 */
#include <stdio.h>
#include <string.h>

#include "sc.h"

#define SC_MAXKEYS 16         /* barriers in use in one execution */
#define SC_SNAPS 16           /* loop-head snapshots kept per thread */
#define SC_MAXSTATES 4000000u /* memoised states */

/* results of the internal steps, beside the WL_E* codes (< 0) */
enum { SC_OK = 0, SC_DEAD = 1 };
/* run_local's verdicts */
enum { RL_STOP, RL_CUT, RL_DROP, RL_NOTTAIL };

/* A callback thread's event, as a replay reports it. */
enum { CE_LOAD, CE_STORE, CE_ATOM, CE_FENCE, CE_BAR };
typedef struct scev {
  int32_t kind, loc, sem, scope, op, line;
  int64_t a, b;
} scev;

typedef struct scthr {
  int32_t pc;    /* instruction threads: the next instruction */
  int32_t done;  /* the thread ended */
  int32_t wait;  /* the barrier key it waits at, -1 */
  int32_t nsnap; /* loop-head snapshots since its last write */
} scthr;

typedef struct sckey {
  int32_t ns, cta, gpu, has_count;
  int64_t id, count;
  uint64_t guess; /* Dat3M, no count: the threads guessed to use it */
  uint64_t used;  /* the threads that arrived so far */
  int32_t nopen;  /* arrivals in the open phase */
  int32_t pad;
} sckey;

typedef struct sccb {
  int32_t nexec; /* events performed */
  int32_t nlv;   /* values its loads returned (the memo key) */
  int32_t nev;   /* events learnt from replays */
  int32_t fin;   /* the callback returns after its nev events */
  int32_t cutat; /* the bound cuts it at this event, -1 */
  int32_t pad;
  int64_t lv[WL_MAX_TEV];
  scev ev[WL_MAX_TEV];
  int64_t res[WL_MAX_REGS]; /* its registers when it returns */
} sccb;

typedef struct scx {
  wl_ctx *ctx;
  const wl_litmus *t;
  int unroll;
  int bound_hit;
  /* blob layout */
  size_t size, off_mem, off_regs, off_thr, off_backs, off_snaps, off_keys,
      off_cb;
  int regoff[WL_MAX_THREADS];     /* into the registers */
  int backoff[WL_MAX_THREADS];    /* into the backward-branch counts */
  int backn[WL_MAX_THREADS];      /* backward branches of each thread */
  int snapoff[WL_MAX_THREADS];    /* into the snapshots (int64 words) */
  int cbidx[WL_MAX_THREADS];      /* callback slot, -1 */
  int *bidx[WL_MAX_THREADS];      /* per pc: backward-branch index, -1 */
  uint8_t *lhead[WL_MAX_THREADS]; /* per pc: a loop head */
  /* the search stack: a blob per depth */
  uint8_t **stack;
  int nstack;
  /* memo: keys in an arena, a hash table of offset + 1 */
  uint8_t *key;
  size_t keycap;
  uint8_t *arena;
  size_t narena, arenacap;
  size_t *tab;
  uint64_t *tabh;
  size_t tabcap, nmemo;
  /* final states, expanded (callback threads: WL_MAX_REGS each) */
  int xoff[WL_MAX_THREADS + 1], xn;
  int64_t *fin;
  size_t nfin, fincap;
  size_t *ftab;
  size_t ftabcap;
} scx;

/* ---------------------------------------------------------------- */
/* The blob                                                          */

static int64_t *s_mem(const scx *c, uint8_t *s) {
  return (int64_t *)(void *)(s + c->off_mem);
}
static int64_t *s_regs(const scx *c, uint8_t *s, int th) {
  return (int64_t *)(void *)(s + c->off_regs) + c->regoff[th];
}
static scthr *s_thr(const scx *c, uint8_t *s, int th) {
  return (scthr *)(void *)(s + c->off_thr) + th;
}
static int32_t *s_backs(const scx *c, uint8_t *s, int th) {
  return (int32_t *)(void *)(s + c->off_backs) + c->backoff[th];
}
/* snapshot k of thread th: pc, then its registers */
static int64_t *s_snap(const scx *c, uint8_t *s, int th, int k) {
  int nr = c->t->threads[th].nregs;
  return (int64_t *)(void *)(s + c->off_snaps) + c->snapoff[th] +
         (size_t)k * (size_t)(nr + 1);
}
static int32_t *s_nkeys(const scx *c, uint8_t *s) {
  return (int32_t *)(void *)(s + c->off_keys);
}
static sckey *s_key(const scx *c, uint8_t *s, int k) {
  return (sckey *)(void *)(s + c->off_keys + 8) + k;
}
static sccb *s_cb(const scx *c, uint8_t *s, int th) {
  return (sccb *)(void *)(s + c->off_cb) + c->cbidx[th];
}

static size_t up8(size_t n) { return (n + 7) & ~(size_t)7; }

static int64_t opv(const int64_t *regs, const wl_operand *o) {
  return o->is_reg ? regs[o->reg] : o->imm;
}

static const char *tname(const scx *c) {
  return c->t->filename ? c->t->filename : c->t->name;
}

/* ---------------------------------------------------------------- */
/* Instruction threads                                               */

/* Entering pc (the explorer's run_from): a loop head takes a snapshot
 * of the registers, for stutter detection. */
static void enter(scx *c, uint8_t *s, int th, int pc) {
  const wl_thread *w = &c->t->threads[th];
  scthr *h = s_thr(c, s, th);
  h->pc = pc;
  if (pc < w->ninsns && c->lhead[th][pc] && h->nsnap < SC_SNAPS) {
    int64_t *sn = s_snap(c, s, th, h->nsnap++);
    sn[0] = pc;
    memcpy(sn + 1, s_regs(c, s, th), (size_t)w->nregs * sizeof sn[0]);
  }
}

/* A write or a barrier: earlier snapshots no longer show a stutter. */
static void wrote(scx *c, uint8_t *s, int th) { s_thr(c, s, th)->nsnap = 0; }

/* The explorer's jump: the bound on backward branches, and stutters. */
static int jump(scx *c, uint8_t *s, int th, int pc, int target) {
  const wl_thread *w = &c->t->threads[th];
  scthr *h = s_thr(c, s, th);
  if (target <= pc) {
    int32_t *b = &s_backs(c, s, th)[c->bidx[th][pc]];
    int k;
    for (k = 0; k < h->nsnap; k++) {
      const int64_t *sn = s_snap(c, s, th, k);
      if (sn[0] == target && memcmp(sn + 1, s_regs(c, s, th),
                                    (size_t)w->nregs * sizeof sn[0]) == 0)
        return RL_DROP;
    }
    if (*b >= c->unroll)
      return RL_CUT;
    (*b)++;
  }
  enter(c, s, th, target);
  return RL_STOP;
}

/* Runs thread th's local instructions up to its next visible one (or
 * its end).  In tail mode, anything but a label or a branch makes the
 * thread's last barrier no tail (the explorer's last_bar). */
static int run_local(scx *c, uint8_t *s, int th, int tail) {
  const wl_thread *w = &c->t->threads[th];
  scthr *h = s_thr(c, s, th);
  int64_t *regs = s_regs(c, s, th);
  for (;;) {
    const wl_insn *in;
    int r;
    if (h->pc >= w->ninsns)
      return RL_STOP;
    in = &w->insns[h->pc];
    switch (in->op) {
    case OP_NOP:
      h->pc++;
      continue;
    case OP_MOV:
    case OP_ALU:
    case OP_FENCE: /* a no-op under SC */
      if (tail)
        return RL_NOTTAIL;
      if (in->op == OP_MOV)
        regs[in->dst] = opv(regs, &in->a);
      else if (in->op == OP_ALU)
        regs[in->dst] =
            wl__aop_apply(in->aop, opv(regs, &in->a), opv(regs, &in->b), 0);
      h->pc++;
      continue;
    case OP_BRANCH:
      if (wl__cond_holds(in->cond, opv(regs, &in->a), opv(regs, &in->b)))
        r = jump(c, s, th, h->pc, in->target);
      else {
        enter(c, s, th, h->pc + 1);
        r = RL_STOP;
      }
      if (r != RL_STOP)
        return r;
      continue;
    case OP_GOTO:
      if ((r = jump(c, s, th, h->pc, in->target)) != RL_STOP)
        return r;
      continue;
    default:
      return tail ? RL_NOTTAIL : RL_STOP;
    }
  }
}

/* ---------------------------------------------------------------- */
/* Barriers                                                          */

static int same_cta(const scx *c, int a, int b) {
  return c->t->threads[a].cta == c->t->threads[b].cta &&
         c->t->threads[a].gpu == c->t->threads[b].gpu;
}

static int find_key(scx *c, uint8_t *s, int th, int ns, int64_t id) {
  const wl_thread *w = &c->t->threads[th];
  int k, n = *s_nkeys(c, s);
  for (k = 0; k < n; k++) {
    const sckey *y = s_key(c, s, k);
    if (y->ns == ns && y->id == id && y->cta == w->cta && y->gpu == w->gpu)
      return k;
  }
  return -1;
}

/* Dat3M's barriers without a count expect the threads of the CTA that
 * use them: those whose program has a barrier that can be this one. */
static uint64_t candidates(const scx *c, int th, int ns, int64_t id) {
  uint64_t m = 0;
  int o, i;
  for (o = 0; o < c->t->nthreads; o++) {
    const wl_thread *w = &c->t->threads[o];
    if (!same_cta(c, th, o))
      continue;
    for (i = 0; i < w->ninsns; i++) {
      const wl_insn *in = &w->insns[i];
      if (in->op == OP_BAR && in->bar_ns == ns &&
          (ns == BARNS_INSTANCE ? in->bar_inst == id
                                : (in->a.is_reg || in->a.imm == id)))
        m |= 1ull << o;
    }
  }
  return m | 1ull << th;
}

/* An arrival of thread th (kind BAR_SYNC/BAR_ARRIVE) at barrier (ns,
 * id) with its count; guess: the users, for a new Dat3M barrier
 * without a count. */
static int arrive(scx *c, uint8_t *s, int th, int kind, int ns, int64_t id,
                  int has_count, int64_t count, uint64_t guess, int line) {
  const wl_thread *w = &c->t->threads[th];
  int k = find_key(c, s, th, ns, id), o, need;
  sckey *y;
  if (k < 0) {
    int32_t *nk = s_nkeys(c, s);
    if (*nk == SC_MAXKEYS)
      return wl__err(c->ctx, WL_ELIMIT,
                     "%s:%d: more than %d barriers in one execution", tname(c),
                     line, SC_MAXKEYS);
    k = (*nk)++;
    y = s_key(c, s, k);
    memset(y, 0, sizeof *y);
    y->ns = ns;
    y->id = id;
    y->cta = w->cta;
    y->gpu = w->gpu;
    y->has_count = has_count;
    y->count = has_count ? count : 0;
    y->guess = guess;
  }
  y = s_key(c, s, k);
  if (y->has_count != has_count || (has_count && y->count != count))
    /* the explorer takes the count of one of the arrivals (the first
     * in thread order); mixing counts is left to it */
    return wl__err(c->ctx, WL_EUNSUPPORTED,
                   "%s:%d: thread %s: barrier %lld is used with different "
                   "thread counts; the SC interpreter does not mirror that",
                   tname(c), line, w->name, (long long)id);
  if (y->guess != 0 && !(y->guess & 1ull << th))
    return SC_DEAD; /* a user the guess left out */
  y->nopen++;
  y->used |= 1ull << th;
  if (has_count)
    need = count > 0 ? (int)(count < 1000 ? count : 1000) : 1;
  else if (ns == BARNS_PTX) {
    need = 0;
    for (o = 0; o < c->t->nthreads; o++)
      need += same_cta(c, th, o);
  } else {
    need = 0;
    for (o = 0; o < c->t->nthreads; o++)
      need += (int)(y->guess >> o & 1u);
  }
  if (y->nopen >= need) {
    /* the phase completes: everyone waiting at it goes on */
    for (o = 0; o < c->t->nthreads; o++)
      if (s_thr(c, s, o)->wait == k)
        s_thr(c, s, o)->wait = -1;
    y->nopen = 0;
  } else if (kind == BAR_SYNC)
    s_thr(c, s, th)->wait = k;
  return SC_OK;
}

/* ---------------------------------------------------------------- */
/* Callback threads (program/thread.h)                                */

typedef struct sctb {
  wl_tb tb;
  scx *c;
  sccb *cb;
  int th;
  int i, j, nevx; /* events met, loads met, events as the explorer counts */
  int reads[WL_MAX_LOCS];
  int stopped, err;
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
  if (loads && ++d->reads[e->loc] > d->c->unroll + 1) {
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

/* Results are the thread's registers: like the explorer, the test grows
 * them. */
static int tb_result(wl_tb *tb, const char *name, int type, int64_t value) {
  wl_assert(wl__tb_result_ok(tb, name, type));
  sctb *d = tb_self(tb);
  wl_thread *w = (wl_thread *)&d->c->t->threads[d->th];
  int r, was;
  if (d->err)
    return d->err;
  if (d->stopped)
    return WL_ELIMIT;
  r = wl__thread_result(d->c->ctx, w, name, type, &was);
  if (r == -3)
    return d->err = wl__result_type_err(d->c->ctx, w->name, name, was, type);
  if (r == -2)
    return d->err = wl__err(d->c->ctx, WL_ENOMEM, "out of memory");
  if (r < 0)
    return d->err =
               wl__err(d->c->ctx, WL_ELIMIT, "thread %s: more than %d results",
                       w->name, WL_MAX_REGS);
  d->res[r] = value;
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
static int learn(scx *c, uint8_t *s, int th) {
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
    memcpy(cb->res, d->res, sizeof cb->res);
  }
  wl__free(c->ctx, d, sizeof *d);
  return rc;
}

/* ---------------------------------------------------------------- */
/* Steps                                                             */

/* Brings every thread to its next visible step: local instructions of
 * instruction threads, replays and fences of callback threads.  SC_DEAD
 * when some thread can no longer end (cut by the bound, or a stutter). */
static int normalise(scx *c, uint8_t *s) {
  int th, r;
  for (th = 0; th < c->t->nthreads; th++) {
    const wl_thread *w = &c->t->threads[th];
    scthr *h = s_thr(c, s, th);
    if (h->done)
      continue;
    if (w->fn == NULL) {
      if (h->wait >= 0)
        continue;
      r = run_local(c, s, th, 0);
      if (r == RL_CUT)
        c->bound_hit = 1;
      if (r != RL_STOP)
        return SC_DEAD;
      h->done = h->pc >= w->ninsns;
      continue;
    }
    for (;;) {
      sccb *cb = s_cb(c, s, th);
      if (cb->nexec == cb->nev && !cb->fin && cb->cutat != cb->nexec &&
          (r = learn(c, s, th)) != 0)
        return r;
      if (cb->cutat >= 0 && cb->cutat == cb->nexec) {
        c->bound_hit = 1;
        return SC_DEAD;
      }
      if (h->wait >= 0)
        break;
      if (cb->nexec == cb->nev) {
        h->done = 1;
        break;
      }
      if (cb->ev[cb->nexec].kind != CE_FENCE)
        break;
      cb->nexec++; /* a no-op under SC */
    }
  }
  return SC_OK;
}

/* The users a new Dat3M barrier without a count may have, when thread
 * th's next step is its first arrival there; 0 otherwise. */
static uint64_t guess_set(scx *c, uint8_t *s, int th) {
  const wl_thread *w = &c->t->threads[th];
  const wl_insn *in;
  int64_t id;
  if (w->fn != NULL)
    return 0; /* callbacks use PTX barriers */
  in = &w->insns[s_thr(c, s, th)->pc];
  if (in->op != OP_BAR || in->bar_ns == BARNS_PTX || in->has_count)
    return 0;
  id = in->bar_ns == BARNS_INSTANCE ? in->bar_inst
                                    : opv(s_regs(c, s, th), &in->a);
  if (find_key(c, s, th, in->bar_ns, id) >= 0)
    return 0;
  return candidates(c, th, in->bar_ns, id);
}

/* Thread th performs its next visible step. */
static int step(scx *c, uint8_t *s, int th, uint64_t guess) {
  const wl_thread *w = &c->t->threads[th];
  scthr *h = s_thr(c, s, th);
  int64_t *mem = s_mem(c, s);
  if (w->fn == NULL) {
    const wl_insn *in = &w->insns[h->pc];
    int64_t *regs = s_regs(c, s, th);
    int64_t a = opv(regs, &in->a), b = opv(regs, &in->b), old;
    switch (in->op) {
    case OP_LD:
      regs[in->dst] = mem[in->loc];
      enter(c, s, th, h->pc + 1);
      return SC_OK;
    case OP_ST:
      mem[in->loc] = a;
      wrote(c, s, th);
      h->pc++;
      return SC_OK;
    case OP_ATOM:
    case OP_RED:
      /* one indivisible step: read, then write unless a cas fails */
      old = mem[in->loc];
      if (!(in->aop == AOP_CAS && old != a)) {
        mem[in->loc] =
            wl__aop_typed(c->t->loctype[in->loc], in->aop, old, a, b);
        wrote(c, s, th);
      }
      if (in->op == OP_ATOM && in->dst >= 0)
        regs[in->dst] = old;
      enter(c, s, th, h->pc + 1);
      return SC_OK;
    default: /* OP_BAR */
      wrote(c, s, th);
      h->pc++;
      return arrive(c, s, th, in->bar_kind, in->bar_ns,
                    in->bar_ns == BARNS_INSTANCE ? in->bar_inst : a,
                    in->has_count, in->has_count ? b : 0, guess, in->line);
    }
  } else {
    sccb *cb = s_cb(c, s, th);
    const scev *e = &cb->ev[cb->nexec++];
    int64_t old;
    switch (e->kind) {
    case CE_LOAD:
      cb->lv[cb->nlv++] = mem[e->loc];
      return SC_OK;
    case CE_STORE:
      mem[e->loc] = e->a;
      return SC_OK;
    case CE_ATOM:
      old = mem[e->loc];
      cb->lv[cb->nlv++] = old;
      if (!(e->op == WL_OP_CAS && old != e->a))
        mem[e->loc] =
            wl__aop_typed(c->t->loctype[e->loc], e->op, old, e->a, e->b);
      return SC_OK;
    default: /* CE_BAR: wl_tb_barrier reads as bar.sync/bar.arrive */
      return arrive(c, s, th, e->op == WL_BAR_SYNC ? BAR_SYNC : BAR_ARRIVE,
                    BARNS_PTX, e->a, e->b > 0, e->b, 0, e->line);
    }
  }
}

/* ---------------------------------------------------------------- */
/* Memo and final states                                             */

static uint64_t hash_bytes(const uint8_t *p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  size_t i;
  for (i = 0; i < n; i++)
    h = (h ^ p[i]) * 0x100000001b3ull;
  return h ^ (h >> 29);
}

static int key_put(scx *c, size_t *n, const void *p, size_t len) {
  if (*n + len > c->keycap) {
    size_t cap = c->keycap * 2 > *n + len ? c->keycap * 2 : *n + len + 256;
    uint8_t *q = wl__realloc(c->ctx, c->key, c->keycap, cap);
    if (q == NULL)
      return -1;
    c->key = q;
    c->keycap = cap;
  }
  memcpy(c->key + *n, p, len);
  *n += len;
  return 0;
}

/* The memo key of a state: everything but what replays derive. */
static int sc_key(scx *c, uint8_t *s, size_t *len) {
  const wl_litmus *t = c->t;
  size_t n = 0;
  int th, err = 0;
  err |= key_put(c, &n, s_mem(c, s), (size_t)t->nlocs * sizeof(int64_t));
  for (th = 0; th < t->nthreads; th++) {
    const wl_thread *w = &t->threads[th];
    scthr *h = s_thr(c, s, th);
    err |= key_put(c, &n, h, sizeof *h);
    if (w->fn == NULL) {
      err |= key_put(c, &n, s_regs(c, s, th), (size_t)w->nregs * 8);
      err |= key_put(c, &n, s_backs(c, s, th), (size_t)c->backn[th] * 4);
      if (h->nsnap > 0)
        err |= key_put(c, &n, s_snap(c, s, th, 0),
                       (size_t)h->nsnap * (size_t)(w->nregs + 1) * 8);
    } else {
      sccb *cb = s_cb(c, s, th);
      err |= key_put(c, &n, &cb->nexec, sizeof cb->nexec);
      err |= key_put(c, &n, &cb->nlv, sizeof cb->nlv);
      err |= key_put(c, &n, cb->lv, (size_t)cb->nlv * 8);
    }
  }
  err |= key_put(c, &n, s_nkeys(c, s), sizeof(int32_t));
  err |= key_put(c, &n, s_key(c, s, 0), (size_t)*s_nkeys(c, s) * sizeof(sckey));
  *len = n;
  return err ? wl__err(c->ctx, WL_ENOMEM, "out of memory") : 0;
}

/* 1 when the state was explored before; otherwise records it. */
static int seen(scx *c, uint8_t *s) {
  size_t len, k, i;
  uint64_t h;
  int r = sc_key(c, s, &len);
  if (r != 0)
    return r;
  h = hash_bytes(c->key, len);
  if ((c->nmemo + 1) * 2 > c->tabcap) {
    size_t cap = c->tabcap ? c->tabcap * 2 : 1024;
    size_t *tab = wl__calloc(c->ctx, cap * sizeof *tab);
    uint64_t *tabh = wl__calloc(c->ctx, cap * sizeof *tabh);
    if (c->nmemo >= SC_MAXSTATES) {
      wl__free(c->ctx, tab, cap * sizeof *tab);
      wl__free(c->ctx, tabh, cap * sizeof *tabh);
      return wl__err(c->ctx, WL_ELIMIT,
                     "%s: more than %u states under sequential consistency "
                     "(the interpreter's limit); lower the unroll bound if "
                     "the test loops, or make the test smaller (fewer "
                     "threads or accesses)",
                     c->t->name, SC_MAXSTATES);
    }
    if (tab == NULL || tabh == NULL) {
      wl__free(c->ctx, tab, cap * sizeof *tab);
      wl__free(c->ctx, tabh, cap * sizeof *tabh);
      return wl__err(c->ctx, WL_ENOMEM, "out of memory");
    }
    for (i = 0; i < c->tabcap; i++) {
      if (c->tab[i] == 0)
        continue;
      k = (size_t)c->tabh[i] & (cap - 1);
      while (tab[k])
        k = (k + 1) & (cap - 1);
      tab[k] = c->tab[i];
      tabh[k] = c->tabh[i];
    }
    wl__free(c->ctx, c->tab, c->tabcap * sizeof *c->tab);
    wl__free(c->ctx, c->tabh, c->tabcap * sizeof *c->tabh);
    c->tab = tab;
    c->tabh = tabh;
    c->tabcap = cap;
  }
  for (k = (size_t)h & (c->tabcap - 1); c->tab[k];
       k = (k + 1) & (c->tabcap - 1)) {
    const uint8_t *p = c->arena + c->tab[k] - 1;
    size_t plen;
    memcpy(&plen, p, sizeof plen);
    if (c->tabh[k] == h && plen == len &&
        memcmp(p + sizeof plen, c->key, len) == 0)
      return 1;
  }
  if (c->narena + sizeof len + len > c->arenacap) {
    size_t cap = c->arenacap ? c->arenacap * 2 : 65536;
    uint8_t *q;
    while (cap < c->narena + sizeof len + len)
      cap *= 2;
    q = wl__realloc(c->ctx, c->arena, c->arenacap, cap);
    if (q == NULL)
      return wl__err(c->ctx, WL_ENOMEM, "out of memory");
    c->arena = q;
    c->arenacap = cap;
  }
  memcpy(c->arena + c->narena, &len, sizeof len);
  memcpy(c->arena + c->narena + sizeof len, c->key, len);
  c->tab[k] = c->narena + 1;
  c->tabh[k] = h;
  c->narena += up8(sizeof len + len);
  c->nmemo++;
  return 0;
}

/* Records an ended state (if its barrier guesses hold). */
static int record(scx *c, uint8_t *s) {
  const wl_litmus *t = c->t;
  int64_t *v;
  size_t k, i;
  uint64_t h;
  int th;
  for (i = 0; i < (size_t)*s_nkeys(c, s); i++) {
    const sckey *y = s_key(c, s, (int)i);
    if (y->guess != 0 && y->used != y->guess)
      return 0; /* the users were not the guess */
  }
  if (c->nfin == c->fincap) {
    size_t cap = c->fincap ? c->fincap * 2 : 16;
    int64_t *p =
        wl__realloc(c->ctx, c->fin, c->fincap * (size_t)c->xn * sizeof *p,
                    cap * (size_t)c->xn * sizeof *p);
    if (p == NULL)
      return wl__err(c->ctx, WL_ENOMEM, "out of memory");
    c->fin = p;
    c->fincap = cap;
  }
  v = c->fin + c->nfin * (size_t)c->xn;
  for (th = 0; th < t->nthreads; th++) {
    if (t->threads[th].fn == NULL)
      memcpy(v + c->xoff[th], s_regs(c, s, th),
             (size_t)t->threads[th].nregs * sizeof *v);
    else
      memcpy(v + c->xoff[th], s_cb(c, s, th)->res, WL_MAX_REGS * sizeof *v);
  }
  memcpy(v + c->xoff[t->nthreads], s_mem(c, s), (size_t)t->nlocs * sizeof *v);
  if ((c->nfin + 1) * 2 > c->ftabcap) {
    size_t cap = c->ftabcap ? c->ftabcap * 2 : 64;
    size_t *tab = wl__calloc(c->ctx, cap * sizeof *tab);
    if (tab == NULL)
      return wl__err(c->ctx, WL_ENOMEM, "out of memory");
    for (i = 0; i < c->nfin; i++) {
      const int64_t *o = c->fin + i * (size_t)c->xn;
      k = (size_t)hash_bytes((const uint8_t *)o, (size_t)c->xn * 8) & (cap - 1);
      while (tab[k])
        k = (k + 1) & (cap - 1);
      tab[k] = i + 1;
    }
    wl__free(c->ctx, c->ftab, c->ftabcap * sizeof *c->ftab);
    c->ftab = tab;
    c->ftabcap = cap;
  }
  h = hash_bytes((const uint8_t *)v, (size_t)c->xn * 8);
  for (k = (size_t)h & (c->ftabcap - 1); c->ftab[k];
       k = (k + 1) & (c->ftabcap - 1))
    if (memcmp(c->fin + (c->ftab[k] - 1) * (size_t)c->xn, v,
               (size_t)c->xn * sizeof *v) == 0)
      return 0;
  c->ftab[k] = ++c->nfin;
  return 0;
}

/* No thread can move and some wait at barriers: a barrier divergence
 * (PTX bar.sync without a count), a hang, or threads whose waiting
 * barrier is their last event, which end there. */
static int stuck(scx *c, uint8_t *s) {
  const wl_litmus *t = c->t;
  int th;
  for (th = 0; th < t->nthreads; th++) {
    const wl_thread *w = &t->threads[th];
    scthr *h = s_thr(c, s, th);
    const sckey *y;
    if (h->done || h->wait < 0)
      continue;
    y = s_key(c, s, h->wait);
    if (y->ns == BARNS_PTX && !y->has_count)
      return wl__err(c->ctx, WL_EINVAL,
                     "%s: thread %s (CTA %d): barrier divergence: it waits "
                     "at barrier %lld (bar.sync / __syncthreads) for every "
                     "thread of its CTA, but another thread can finish "
                     "without arriving there",
                     tname(c), w->name, w->cta, (long long)y->id);
  }
  for (th = 0; th < t->nthreads; th++) {
    const wl_thread *w = &t->threads[th];
    scthr *h = s_thr(c, s, th);
    if (h->done || h->wait < 0)
      continue;
    if (w->fn == NULL) {
      int r = run_local(c, s, th, 1);
      if (r == RL_CUT)
        c->bound_hit = 1;
      if (r != RL_STOP || h->pc < w->ninsns)
        return 0; /* it hangs with more to do */
    } else {
      const sccb *cb = s_cb(c, s, th);
      if (!cb->fin || cb->nexec != cb->nev)
        return 0;
    }
    h->done = 1;
    h->wait = -1;
  }
  return record(c, s);
}

static int dfs(scx *c, int depth) {
  uint8_t *s;
  int th, r, any = 0;
  if (depth + 1 >= c->nstack) {
    int n = c->nstack ? c->nstack * 2 : 64;
    uint8_t **p = wl__realloc(c->ctx, c->stack, (size_t)c->nstack * sizeof *p,
                              (size_t)n * sizeof *p);
    if (p == NULL)
      return wl__err(c->ctx, WL_ENOMEM, "out of memory");
    memset(p + c->nstack, 0, (size_t)(n - c->nstack) * sizeof *p);
    c->stack = p;
    c->nstack = n;
  }
  if (c->stack[depth + 1] == NULL &&
      (c->stack[depth + 1] = wl__alloc(c->ctx, c->size)) == NULL)
    return wl__err(c->ctx, WL_ENOMEM, "out of memory");
  s = c->stack[depth];
  if ((r = normalise(c, s)) != SC_OK)
    return r < 0 ? r : 0;
  if ((r = seen(c, s)) != 0)
    return r < 0 ? r : 0;
  for (th = 0; th < c->t->nthreads; th++) {
    scthr *h = s_thr(c, s, th);
    uint64_t cand, others, sub;
    if (h->done || h->wait >= 0)
      continue;
    any = 1;
    cand = guess_set(c, s, th);
    others = cand & ~(1ull << th);
    /* every set of users that contains th (once when no guess) */
    sub = others;
    for (;;) {
      uint8_t *n = c->stack[depth + 1];
      memcpy(n, s, c->size);
      r = step(c, n, th, cand ? sub | 1ull << th : 0);
      if (r == SC_OK)
        r = dfs(c, depth + 1);
      if (r < 0)
        return r;
      if (sub == 0)
        break;
      sub = (sub - 1) & others;
    }
  }
  if (any)
    return 0;
  for (th = 0; th < c->t->nthreads; th++)
    if (!s_thr(c, s, th)->done)
      return stuck(c, s);
  return record(c, s);
}

/* ---------------------------------------------------------------- */
/* Setup and the API                                                 */

static int setup(scx *c) {
  const wl_litmus *t = c->t;
  int th, i, nregs = 0, nbacks = 0, nsnap = 0, ncb = 0;
  uint8_t *s;
  for (th = 0; th < t->nthreads; th++) {
    const wl_thread *w = &t->threads[th];
    c->regoff[th] = nregs;
    c->backoff[th] = nbacks;
    c->snapoff[th] = nsnap;
    c->cbidx[th] = -1;
    c->xoff[th] = c->xn;
    if (w->fn != NULL) {
      c->cbidx[th] = ncb++;
      c->xn += WL_MAX_REGS;
      continue;
    }
    c->xn += w->nregs;
    nregs += w->nregs;
    nsnap += SC_SNAPS * (w->nregs + 1);
    c->bidx[th] = wl__alloc(c->ctx, (size_t)(w->ninsns + 1) * sizeof(int));
    c->lhead[th] = wl__calloc(c->ctx, (size_t)w->ninsns + 1);
    if (c->bidx[th] == NULL || c->lhead[th] == NULL)
      return wl__err(c->ctx, WL_ENOMEM, "out of memory");
    for (i = 0; i < w->ninsns; i++) {
      const wl_insn *in = &w->insns[i];
      c->bidx[th][i] = -1;
      if ((in->op == OP_BRANCH || in->op == OP_GOTO) && in->target <= i) {
        c->bidx[th][i] = nbacks++ - c->backoff[th];
        c->lhead[th][in->target] = 1;
      }
    }
    c->backn[th] = nbacks - c->backoff[th];
  }
  c->xoff[t->nthreads] = c->xn;
  c->xn += t->nlocs;
  c->off_mem = 0;
  c->off_regs = up8(c->off_mem + (size_t)t->nlocs * 8);
  c->off_thr = up8(c->off_regs + (size_t)nregs * 8);
  c->off_backs = up8(c->off_thr + (size_t)t->nthreads * sizeof(scthr));
  c->off_snaps = up8(c->off_backs + (size_t)nbacks * 4);
  c->off_keys = up8(c->off_snaps + (size_t)nsnap * 8);
  c->off_cb = up8(c->off_keys + 8 + SC_MAXKEYS * sizeof(sckey));
  c->size = up8(c->off_cb + (size_t)ncb * sizeof(sccb));
  c->stack = wl__calloc(c->ctx, 64 * sizeof *c->stack);
  if (c->stack == NULL)
    return wl__err(c->ctx, WL_ENOMEM, "out of memory");
  c->nstack = 64;
  s = c->stack[0] = wl__calloc(c->ctx, c->size);
  if (s == NULL)
    return wl__err(c->ctx, WL_ENOMEM, "out of memory");
  memcpy(s_mem(c, s), t->locinit, (size_t)t->nlocs * 8);
  for (th = 0; th < t->nthreads; th++) {
    const wl_thread *w = &t->threads[th];
    s_thr(c, s, th)->wait = -1;
    if (w->fn != NULL) {
      s_cb(c, s, th)->cutat = -1;
      continue;
    }
    memcpy(s_regs(c, s, th), w->reginit, (size_t)w->nregs * 8);
    enter(c, s, th, 0);
  }
  return 0;
}

static void teardown(scx *c) {
  int th, i;
  for (th = 0; th < c->t->nthreads; th++) {
    const wl_thread *w = &c->t->threads[th];
    if (c->bidx[th] != NULL)
      wl__free(c->ctx, c->bidx[th], (size_t)(w->ninsns + 1) * sizeof(int));
    if (c->lhead[th] != NULL)
      wl__free(c->ctx, c->lhead[th], (size_t)w->ninsns + 1);
  }
  for (i = 0; i < c->nstack; i++)
    if (c->stack[i] != NULL)
      wl__free(c->ctx, c->stack[i], c->size);
  wl__free(c->ctx, c->stack, (size_t)c->nstack * sizeof *c->stack);
  wl__free(c->ctx, c->key, c->keycap);
  wl__free(c->ctx, c->arena, c->arenacap);
  wl__free(c->ctx, c->tab, c->tabcap * sizeof *c->tab);
  wl__free(c->ctx, c->tabh, c->tabcap * sizeof *c->tabh);
  wl__free(c->ctx, c->fin, c->fincap * (size_t)c->xn * sizeof *c->fin);
  wl__free(c->ctx, c->ftab, c->ftabcap * sizeof *c->ftab);
}

/* Hands the final states over in wl_layout's order (the registers that
 * callbacks added during the search included). */
static int emit(scx *c, int (*each)(void *, const int64_t *, int), void *ud) {
  const wl_litmus *t = c->t;
  wl_layout lay;
  int64_t *v;
  size_t i;
  int th, rc = 0;
  wl__layout_init(&lay, t);
  v = wl__alloc(c->ctx, ((size_t)lay.nvals + 1) * sizeof *v);
  if (v == NULL)
    return wl__err(c->ctx, WL_ENOMEM, "out of memory");
  for (i = 0; i < c->nfin && rc == 0; i++) {
    const int64_t *x = c->fin + i * (size_t)c->xn;
    for (th = 0; th < t->nthreads; th++)
      memcpy(v + lay.regoff[th], x + c->xoff[th],
             (size_t)t->threads[th].nregs * sizeof *v);
    memcpy(v + lay.regoff[t->nthreads], x + c->xoff[t->nthreads],
           (size_t)t->nlocs * sizeof *v);
    if (each(ud, v, lay.nvals) != 0)
      rc = wl__err(c->ctx, WL_ESTOPPED, "stopped by the caller");
  }
  wl__free(c->ctx, v, ((size_t)lay.nvals + 1) * sizeof *v);
  return rc;
}

int wl__sc_states(wl_ctx *ctx, const wl_litmus *t, int unroll,
                  int (*each)(void *ud, const int64_t *vals, int nvals),
                  void *ud, int *bound_hit) {
  scx *c;
  int rc;
  if (bound_hit != NULL)
    *bound_hit = 0;
  if ((rc = wl__litmus_check_labels(t)) != 0)
    return rc;
  c = wl__calloc(ctx, sizeof *c);
  if (c == NULL)
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  c->ctx = ctx;
  c->t = t;
  c->unroll = unroll > 0 ? unroll : WL_DEFAULT_UNROLL;
  ctx->errmsg[0] = '\0';
  rc = setup(c);
  if (rc == 0)
    rc = dfs(c, 0);
  if (rc == 0)
    rc = emit(c, each, ud);
  if (bound_hit != NULL)
    *bound_hit = c->bound_hit;
  teardown(c);
  wl__free(ctx, c, sizeof *c);
  return rc;
}

int wl_sc_states(wl_ctx *ctx, const wl_litmus *t, int unroll, wl_state_fn each,
                 void *ud, int *bound_hit) {
  if (bound_hit != NULL)
    *bound_hit = 0;
  if (ctx == NULL)
    return WL_EINVAL;
  ctx->errmsg[0] = '\0';
  if (t == NULL || each == NULL)
    return wl__err(ctx, WL_EINVAL, "wl_sc_states: a test and a callback");
  if (unroll < 0)
    return wl__err(ctx, WL_EINVAL, "unroll bound must be >= 0");
  return wl__sc_states(ctx, t, unroll, each, ud, bound_hit);
}
