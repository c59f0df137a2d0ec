/* sc.c -- the sequentially consistent search (scsearch.h): the one
 * search for the final states of sequentially consistent interleavings,
 * used by the explorer's reference (scstates.c, wl_sc_states) and by
 * the sampler's weak marks (sim/weak.c).
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
 * location, WL_MAX_TEV events.  Unbounded (WL__SC_UNBOUNDED, the
 * sampler's: its runs have no unroll bound), no count is kept: a loop
 * that comes back to a known state is pruned by the memo, and the depth
 * is bounded instead (wl__sc_params.max_depth).
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
 *
 * What its users differ in is a parameter (wl__sc_params): the sink
 * given each final state (collected and deduplicated by scstates.c;
 * matched against a histogram's outcomes by weak.c), what a callback's
 * result names become (registers the test grows, or slots of the
 * histogram, which the sampler's workers must not change under each
 * other), the stop hook polled every 4096 states, the state budget.
 *
 * Files: scsearch.h (the interface), scx.h (the state blob's layout and
 * accessors), sccb.c (the replays that teach the search a callback
 * thread's events), this file (instruction threads, barriers, steps,
 * the memo and the search).
 */
#include <stdio.h>
#include <string.h>

#include "scx.h"

/* ---------------------------------------------------------------- */
/* Instruction threads                                               */

/* Entering pc (the explorer's run_from): a loop head takes a snapshot
 * of the registers, for stutter detection. */
static void enter(scx *c, uint8_t *s, int th, int pc) {
  const wl_thread *w = &c->t->threads[th];
  scthr *h = s_thr(c, s, th);
  h->pc = pc;
  /* (unbounded: a spin iteration that changes nothing comes back to
   * the state it left, which the memo prunes; snapshots would only tell
   * equal states apart by their history) */
  if (pc < w->ninsns && c->lhead[th][pc] && h->nsnap < SC_SNAPS &&
      c->unroll != WL__SC_UNBOUNDED) {
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
    if (c->unroll == WL__SC_UNBOUNDED)
      ; /* the memo prunes a loop back to a known state */
    else if (*b >= c->unroll)
      return RL_CUT;
    else
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
  int nback = 0; /* unbounded: backward jumps with no visible step */
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
    case OP_GOTO:
      if (c->unroll == WL__SC_UNBOUNDED && in->target <= h->pc &&
          ++nback > SC_LOCALBACKS)
        return RL_CUT; /* a loop of local steps that does not end */
      if (in->op == OP_GOTO ||
          wl__cond_holds(in->cond, opv(regs, &in->a), opv(regs, &in->b)))
        r = jump(c, s, th, h->pc, in->target);
      else {
        enter(c, s, th, h->pc + 1);
        r = RL_STOP;
      }
      if (r != RL_STOP)
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
    if (*nk >= c->maxkeys)
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
    c->moved = -1; /* the waiters go on: every thread to normalise */
  } else if (kind == BAR_SYNC)
    s_thr(c, s, th)->wait = k;
  return SC_OK;
}

/* ---------------------------------------------------------------- */
/* Steps                                                             */

/* Brings every thread to its next visible step: local instructions of
 * instruction threads, replays and fences of callback threads.  SC_DEAD
 * when some thread can no longer end (cut by the bound, or a stutter). */
static int normalise(scx *c, uint8_t *s) {
  int th, r;
  for (th = 0; th < c->t->nthreads; th++) {
    if (c->moved >= 0 && th != c->moved)
      continue; /* its normal form depends on its own state alone */
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
          (r = wl__sc_learn(c, s, th)) != 0)
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

/* A word at a time (the memo key is hashed once per state entered: byte
 * at a time, it was most of the search's time). */
static uint64_t hash_bytes(const uint8_t *p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull ^ n, w;
  size_t i;
  uint64_t g = 0x84222325cbf29ce4ull, v;
  /* two words a step, in two chains (half the latency) */
  for (i = 0; i + 16 <= n; i += 16) {
    memcpy(&w, p + i, 8);
    memcpy(&v, p + i + 8, 8);
    h = (h ^ w) * 0x9e3779b97f4a7c15ull;
    g = (g ^ v) * 0xc2b2ae3d27d4eb4full;
  }
  for (; i + 8 <= n; i += 8) {
    memcpy(&w, p + i, 8);
    h = (h ^ w) * 0x9e3779b97f4a7c15ull;
  }
  if (i < n) {
    w = 0;
    memcpy(&w, p + i, n - i);
    h = (h ^ w) * 0x9e3779b97f4a7c15ull;
  }
  /* the table takes the low bits: bring the high ones down */
  h ^= g ^ (g >> 29) ^ (h >> 32);
  h *= 0xd6e8feb86659fd93ull;
  return h ^ (h >> 32);
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

/* The memo key of a state: everything but what replays derive.  The
 * blob's head (memory, registers, threads, loop counts: fixed size, its
 * padding always 0) in one piece, then what has a length of its own. */
static int sc_key(scx *c, uint8_t *s, const uint8_t **key, size_t *len) {
  const wl_litmus *t = c->t;
  size_t n = 0;
  int th, err = 0;
  if (c->headkey) { /* nothing of a length of its own: the head itself */
    *key = s;
    *len = c->off_snaps;
    return 0;
  }
  err |= key_put(c, &n, s, c->off_snaps);
  for (th = 0; th < t->nthreads; th++) {
    const wl_thread *w = &t->threads[th];
    scthr *h = s_thr(c, s, th);
    if (w->fn == NULL) {
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
  if (c->maxkeys > 0) {
    err |= key_put(c, &n, s_nkeys(c, s), sizeof(int32_t));
    err |=
        key_put(c, &n, s_key(c, s, 0), (size_t)*s_nkeys(c, s) * sizeof(sckey));
  }
  *key = c->key;
  *len = n;
  return err ? wl__err(c->ctx, WL_ENOMEM, "out of memory") : 0;
}

/* 1 when the state was explored before; otherwise records it. */
static int seen(scx *c, uint8_t *s) {
  size_t len, k, i;
  const uint8_t *key;
  uint64_t h;
  int r = sc_key(c, s, &key, &len);
  if (r != 0)
    return r;
  h = hash_bytes(key, len);
  if ((c->nmemo + 1) * 2 > c->tabcap) {
    size_t cap = c->tabcap ? c->tabcap * 2 : 1024;
    scslot *tab;
    if (c->nmemo >= c->maxstates)
      return wl__err(c->ctx, WL_ELIMIT,
                     "%s: more than %zu states under sequential consistency "
                     "(the search's limit); lower the unroll bound if "
                     "the test loops, or make the test smaller (fewer "
                     "threads or accesses)",
                     c->t->name, c->maxstates);
    if ((tab = wl__calloc(c->ctx, cap * sizeof *tab)) == NULL)
      return wl__err(c->ctx, WL_ENOMEM, "out of memory");
    for (i = 0; i < c->tabcap; i++) {
      if (c->tab[i].off == 0)
        continue;
      k = (size_t)c->tab[i].h & (cap - 1);
      while (tab[k].off)
        k = (k + 1) & (cap - 1);
      tab[k] = c->tab[i];
    }
    wl__free(c->ctx, c->tab, c->tabcap * sizeof *c->tab);
    c->tab = tab;
    c->tabcap = cap;
  }
  for (k = (size_t)h & (c->tabcap - 1); c->tab[k].off;
       k = (k + 1) & (c->tabcap - 1)) {
    const uint8_t *p;
    size_t plen;
    if (c->tab[k].h != h)
      continue;
    p = c->arena + c->tab[k].off - 1;
    memcpy(&plen, p, sizeof plen);
    if (plen == len && memcmp(p + sizeof plen, key, len) == 0)
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
  memcpy(c->arena + c->narena + sizeof len, key, len);
  c->tab[k].off = c->narena + 1;
  c->tab[k].h = h;
  c->narena += up8(sizeof len + len);
  c->nmemo++;
  return 0;
}

/* Gives an ended state to the sink (if its barrier guesses hold and
 * no callback thread reported a result the sink has no slot for). */
static int record(scx *c, uint8_t *s) {
  const wl_litmus *t = c->t;
  const int64_t *regs[WL_MAX_THREADS];
  int i, th;
  for (i = 0; i < *s_nkeys(c, s); i++) {
    const sckey *y = s_key(c, s, i);
    if (y->guess != 0 && y->used != y->guess)
      return 0; /* the users were not the guess */
  }
  for (th = 0; th < t->nthreads; th++) {
    if (t->threads[th].fn == NULL)
      regs[th] = s_regs(c, s, th);
    else if (s_cb(c, s, th)->nomatch)
      return 0;
    else
      regs[th] = s_cb(c, s, th)->res;
  }
  if (c->p->final(c->p->ud, regs, s_mem(c, s)) != 0)
    return wl__err(c->ctx, WL_ESTOPPED, "stopped by the caller");
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
  if ((c->polls++ & 4095) == 0 && c->p->stop != NULL &&
      c->p->stop(c->p->stop_ud))
    return wl__err(c->ctx, WL_ESTOPPED, "stopped by the caller");
  if (c->p->max_depth > 0 && depth > c->p->max_depth) {
    c->bound_hit = 1;
    return 0;
  }
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
      c->moved = th;
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
    if (w->fn != NULL) {
      c->cbidx[th] = ncb++;
      c->maxkeys = SC_MAXKEYS; /* it may call wl_tb_barrier */
      continue;
    }
    nregs += w->nregs;
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
      if (in->op == OP_BAR)
        c->maxkeys = SC_MAXKEYS;
    }
    c->backn[th] = nbacks - c->backoff[th];
    /* snapshots are taken at loop heads only (the blob is copied at
     * every step: no room for what cannot be used) */
    if (c->backn[th] > 0 && c->unroll != WL__SC_UNBOUNDED)
      nsnap += SC_SNAPS * (w->nregs + 1);
  }
  c->off_mem = 0;
  c->off_regs = up8(c->off_mem + (size_t)t->nlocs * 8);
  c->off_thr = up8(c->off_regs + (size_t)nregs * 8);
  c->off_backs = up8(c->off_thr + (size_t)t->nthreads * sizeof(scthr));
  c->off_snaps = up8(c->off_backs + (size_t)nbacks * 4);
  c->off_keys = up8(c->off_snaps + (size_t)nsnap * 8);
  c->off_cb = up8(c->off_keys + 8 + (size_t)c->maxkeys * sizeof(sckey));
  c->headkey = nsnap == 0 && ncb == 0 && c->maxkeys == 0;
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
}

int wl__sc_search(wl_ctx *ctx, const wl_litmus *t, wl__sc_params *p) {
  scx *c;
  int rc;
  p->bound_hit = 0;
  p->nstates = 0;
  if ((rc = wl__litmus_check_labels(t)) != 0)
    return rc;
  c = wl__calloc(ctx, sizeof *c);
  if (c == NULL)
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  c->ctx = ctx;
  c->t = t;
  c->p = p;
  c->unroll = p->unroll > 0 || p->unroll == WL__SC_UNBOUNDED
                  ? p->unroll
                  : WL_DEFAULT_UNROLL;
  c->maxstates = p->max_states > 0 ? p->max_states : SC_MAXSTATES;
  ctx->errmsg[0] = '\0';
  c->moved = -1; /* every thread to bring to its first visible step */
  rc = setup(c);
  if (rc == 0)
    rc = dfs(c, 0);
  p->bound_hit = c->bound_hit;
  p->nstates = c->nmemo;
  teardown(c);
  wl__free(ctx, c, sizeof *c);
  return rc;
}
