/* rfsearch.c -- the reads-from search: a search whose cost follows the
 * consistent executions, not the values a read might return.
 *
 * The value search (traces.c, explore.c) runs each thread once per
 * choice of load values from its locations' value domains and then
 * matches combinations of traces: an RMW chain of n atomics on one
 * counter costs values^reads combinations before any execution is
 * checked.  This search instead chooses reads-from directly, as
 * execution-graph model checkers (GenMC, TruSt) do:
 *
 * 1. Skeletons.  Each thread is run once with every loaded value
 *    unknown.  A branch whose operands depend on a load (and an
 *    atom.cas, whose write depends on the value it reads) forks into
 *    its two outcomes, recorded as the skeleton's decisions; everything
 *    else is computed.  A skeleton is a trace (wl_trace) whose events
 *    (types, locations, orders, scopes, dependencies) are final and
 *    whose values are placeholders.  Threads with backward branches or
 *    callback threads are not handled here (the value search runs).
 * 2. For each combination of skeletons (interchangeable threads choose
 *    non-decreasing skeletons: symmetry.c), the events and static
 *    relations are built once (exe.c), then reads-from is chosen read
 *    by read among the writes to the read's location, pruned by
 *    wl__xp_rf_partial_ok (Atomicity, No-Thin-Air, SC-per-Location on
 *    the partial choice).  On a location whose writes are all RMWs
 *    morally strong with each other, Atomicity makes coherence a chain
 *    in which each RMW reads from the write just before its own: there
 *    the chain is chosen instead, one RMW after another (each thread's
 *    in program order), so that n RMWs cost their interleavings.
 * 3. Values.  With reads-from complete, each thread is replayed along
 *    its skeleton with each load returning the value of the write it
 *    reads from, until the values settle (they do within one round per
 *    read unless rf and dependencies form a cycle, which No-Thin-Air
 *    forbids); a replay whose branch or cas outcome differs from the
 *    skeleton's decision is not an execution of that skeleton and is
 *    dropped (the right skeleton has it).  The events get their values,
 *    the skeleton its final registers, and the execution goes on to the
 *    search that follows reads-from in the value search (after_rf:
 *    the remaining axioms, co-last choices, fence-SC order, coherence),
 *    so that final states, witnesses, counts, races and hangs are found
 *    by the same code.
 * The known-state pruning of combinations (wl__xp_combo_known,
 * wl__xp_prefix_known) reads values off traces and is off here; the
 * co-last choice's target check (wl__xp_target_known) runs on the
 * computed values. */
#include <string.h>

#include "explore.h"

/* (skeletons and replays: rfskel.c) */

/* ---------------------------------------------------------------- */
/* 2. The search                                                      */

/* A choice among twins: thread a chosen, the nb threads b[] skipped. */
typedef struct twinlv {
  int a, nb;
  int b[WL_MAX_THREADS];
} twinlv;

typedef struct rfs {
  int base[WL_MAX_THREADS]; /* each thread's first event in E */
  /* chain locations: every write an RMW, morally strong pairwise */
  uint8_t chain[WL_MAX_LOCS];
  int nrest, rest[WL_MAX_EVENTS]; /* the other reads, in order */
  int chl[WL_MAX_LOCS], nchl;     /* chain locations, in order */
  int end[WL_MAX_LOCS];           /* a chain's last write so far */
  evset todo[WL_MAX_LOCS];        /* its RMW reads not yet placed */
  int64_t rv[WL_MAX_EVENTS], wv[WL_MAX_EVENTS];
  /* symmetry: each thread's class (x->sym) or -1, its skeleton's index,
   * and how many chosen reads-from edges touch it */
  int cls[WL_MAX_THREADS];
  size_t skel[WL_MAX_THREADS];
  int touched[WL_MAX_THREADS];
  uint8_t rfset[WL_MAX_EVENTS]; /* reads whose rf is chosen */
  uint8_t known[WL_MAX_EVENTS]; /* obs_known: values fixed already */
  int64_t regs[WL_MAX_THREADS][WL_MAX_REGS]; /* values(): each thread's */
  /* inert RMWs (commute()): each thread's inert RMW read, or -1, and a
   * class number shared by equivalent ones */
  int inert[WL_MAX_THREADS], ieq[WL_MAX_THREADS];
  /* counting: the twin choices on the way to the current execution */
  twinlv tw[WL_MAX_EVENTS];
  int ntw;
} rfs;

static int halt_rf(const xp *x) { return x->err || x->ub_done; }

/* The values of a complete reads-from: threads are replayed, each
 * again whenever a value it reads changed, until nothing changes (a
 * thread is replayed at most once per read in all unless reads-from
 * and dependencies form a cycle, which No-Thin-Air forbids: then no
 * values).  0 also when a replay leaves its skeleton. */
static int values(xp *x, exe *E, rfs *S) {
  const wl_litmus *t = x->t;
  int th, i, round = 0;
  uint64_t dirty = t->nthreads >= 64 ? ~0ull : (1ull << t->nthreads) - 1;
  uint64_t bad = 0;
  for (i = 0; i < E->nreads; i++) {
    int r = E->reads[i], w = E->rf[r];
    S->rv[r] = w < E->ninit ? E->ev[w].val : 0;
  }
  /* in rounds: each round replays the threads whose reads changed in
   * the one before, so round d fixes every value d steps of rf and
   * dependencies from the initial values */
  while (dirty) {
    uint64_t now = dirty;
    dirty = 0;
    if (++round > E->nreads + 2)
      return 0;
    while (now) {
      int k;
      th = __builtin_ctzll(now);
      now &= now - 1;
      if (wl__xp_rf_replay(x, th, E->tr[th], S->rv + S->base[th],
                 S->wv + S->base[th], S->regs[th], NULL))
        bad &= ~(1ull << th);
      else
        bad |= 1ull << th;
      for (k = 0; k < E->tr[th]->nev; k++) {
        int w = S->base[th] + k, r;
        if (E->ev[w].type != EV_W)
          continue;
        ES_FOR(r, E->rfr[w]) {
          if (S->rv[r] != S->wv[w]) {
            S->rv[r] = S->wv[w];
            dirty |= 1ull << E->thread[r];
          }
        }
      }
    }
  }
  if (bad)
    return 0;
  /* settled: the events' values and the threads' registers */
  for (th = 0; th < t->nthreads; th++) {
    const wl_trace *tr = E->tr[th];
    int64_t *pr = WL_VEC_PTR(&x->pool[th].regs, int64_t, tr->reg0);
    if (tr->nregs > 0)
      memcpy(pr, S->regs[th], (size_t)tr->nregs * sizeof pr[0]);
  }
  for (i = E->ninit; i < E->n; i++) {
    if (E->ev[i].type == EV_R)
      E->ev[i].val = S->rv[i];
    else if (E->ev[i].type == EV_W)
      E->ev[i].val = S->wv[i];
  }
  return 1;
}

static int leaf(xp *x, exe *E, rfs *S) {
  if (!values(x, E, S))
    return 0;
  if (!x->all)
    wl__xp_state_regs(x, E, x->vals);
  wl__xp_after_rf(x, E);
  x->found = 0;
  return x->err;
}

/* Which events' values the partial reads-from fixes (S->known): the
 * initial writes; a read whose write is chosen and fixed; a write whose
 * value's loads (ddeps) are all fixed. */
static void find_known(exe *E, rfs *S) {
  int i, changed;
  for (i = 0; i < E->n; i++)
    S->known[i] = i < E->ninit;
  do {
    changed = 0;
    for (i = E->ninit; i < E->n; i++) {
      int kn = 0;
      if (S->known[i])
        continue;
      if (E->ev[i].type == EV_R) {
        kn = S->rfset[i] && S->known[E->rf[i]];
      } else if (E->ev[i].type == EV_W) {
        uint64_t d = E->ev[i].ddeps;
        int b = S->base[E->thread[i]];
        kn = 1;
        while (d && kn) {
          int j = __builtin_ctzll(d);
          d &= d - 1;
          kn = S->known[b + j];
        }
      }
      if (kn) {
        S->known[i] = 1;
        changed = 1;
      }
    }
  } while (changed);
}

/* Whether every load in the trace-local set d of thread th is fixed. */
static int all_known(const rfs *S, int th, uint64_t d) {
  while (d) {
    int j = __builtin_ctzll(d);
    d &= d - 1;
    if (!S->known[S->base[th] + j])
      return 0;
  }
  return 1;
}

/* Replays with the loads not fixed at 0 until the fixed values settle
 * (within one round per read): S->rv, S->wv hold them then. */
static void settle_known(const xp *x, exe *E, rfs *S) {
  int i, th, round, changed;
  int64_t regs[WL_MAX_REGS];
  for (i = 0; i < E->n; i++)
    S->rv[i] = 0;
  for (round = 0; round <= E->nreads + 1; round++) {
    changed = 0;
    for (th = 0; th < x->t->nthreads; th++)
      wl__xp_rf_replay(x, th, E->tr[th], S->rv + S->base[th], S->wv + S->base[th],
             regs, NULL);
    for (i = 0; i < E->nreads; i++) {
      int r = E->reads[i], w = E->rf[r];
      int64_t v;
      if (!S->rfset[r] || !S->known[r])
        continue;
      v = w < E->ninit ? E->ev[w].val : S->wv[w];
      if (S->rv[r] != v) {
        S->rv[r] = v;
        changed = 1;
      }
    }
    if (!changed)
      break;
  }
}

/* The decisions of the skeletons whose loads are all fixed: their
 * number (in *n), and whether each takes its skeleton's outcome with
 * the fixed values (a prefix where one does not has no execution of
 * this combination of skeletons: the combination with the other
 * outcome has them).  Call find_known first. */
static int path_ok(const xp *x, exe *E, rfs *S, int *n) {
  int th, d, cnt = 0;
  uint8_t act[MAX_DEC];
  int64_t regs[WL_MAX_REGS];
  for (th = 0; th < x->t->nthreads; th++) {
    const wl_trace *tr = E->tr[th];
    const uint64_t *dt = WL_VEC_PTR(&x->pool[th].dtaint, uint64_t, tr->ch0);
    for (d = 0; d < tr->nch; d++)
      cnt += all_known(S, th, dt[d]);
  }
  if (cnt <= *n) { /* no decision newly fixed: checked above */
    *n = cnt;
    return 1;
  }
  *n = cnt;
  settle_known(x, E, S);
  for (th = 0; th < x->t->nthreads; th++) {
    const wl_trace *tr = E->tr[th];
    const uint64_t *dt = WL_VEC_PTR(&x->pool[th].dtaint, uint64_t, tr->ch0);
    const int *dec = WL_VEC_PTR(&x->pool[th].ch, int, tr->ch0);
    if (tr->nch == 0)
      continue;
    wl__xp_rf_replay(x, th, tr, S->rv + S->base[th], S->wv + S->base[th], regs, act);
    for (d = 0; d < tr->nch; d++)
      if (all_known(S, th, dt[d]) && act[d] != (dec[d] & 1))
        return 0;
  }
  return 1;
}

/* Whether every state the partial execution can reach is known (the
 * value search's prefix check, wl__xp_prefix_known, in terms of
 * reads-from): the observed registers (and, with symmetry, the same
 * registers of the other members of their class, which images bring
 * into the observed ones) depend only on reads whose values the chosen
 * reads-from fixes, and each observed location's writes have fixed
 * values (its candidate final values).  Call find_known first. */
static int obs_known(xp *x, exe *E, rfs *S) {
  const wl_litmus *t = x->t;
  const wl_result *res = x->res;
  int th, k, off, nkl = 0, q;
  int64_t vals[NVALS], cv[WL_MAX_LOCS][KNOWN_VALS], regs[WL_MAX_REGS];
  int ncv[WL_MAX_LOCS], kl[WL_MAX_LOCS], cw[WL_MAX_LOCS][KNOWN_VALS];
  uint8_t need[WL_MAX_THREADS];
  if (x->mode != XP_STATES || x->all || res->key == NULL ||
      !wl__result_any_known(res) ||
      (x->opts != NULL && x->opts->no_prefix))
    return 0;
  off = res->lay.regoff[t->nthreads];
  memset(need, 0, sizeof need);
  for (k = 0; k < res->nkey; k++) {
    int v = res->key[k];
    if (v < off) {
      int kt = wl__layout_thread(&res->lay, t, v);
      int reg = v - res->lay.regoff[kt];
      int c = S->cls[kt], m, nm = c >= 0 ? x->symn[c] : 1;
      for (m = 0; m < nm; m++) {
        int mt = c >= 0 ? x->sym[c][m] : kt;
        const wl_trace *tr = E->tr[mt];
        uint64_t d = (uint64_t)WL_VEC_AT(&x->pool[mt].regs, int64_t,
                                         tr->reg0 + 2 * tr->nregs + reg);
        if (!all_known(S, mt, d))
          return 0;
        need[mt] = 1;
      }
    } else {
      /* the location's candidate final values: its writes' (every one
       * fixed), or its initial value when nothing writes it */
      int l = v - off, w;
      evset ws = wl__xp_loc_writes(E, l);
      ncv[nkl] = 0;
      if (E->initloc[l] < 0 || es_empty(ws))
        cv[nkl][ncv[nkl]++] = t->locinit[l];
      ES_FOR(w, ws) {
        if (!S->known[w] || ncv[nkl] == KNOWN_VALS)
          return 0;
        cw[nkl][ncv[nkl]++] = w;
      }
      kl[nkl++] = l;
    }
  }
  settle_known(x, E, S);
  memset(vals, 0, (size_t)res->lay.nvals * sizeof vals[0]);
  for (th = 0; th < t->nthreads; th++) {
    if (!need[th])
      continue;
    wl__xp_rf_replay(x, th, E->tr[th], S->rv + S->base[th], S->wv + S->base[th], regs,
           NULL);
    if (t->threads[th].nregs > 0)
      memcpy(vals + res->lay.regoff[th], regs,
             (size_t)t->threads[th].nregs * sizeof regs[0]);
  }
  for (k = 0; k < nkl; k++) {
    int n2 = 0;
    int64_t tmp[KNOWN_VALS];
    if (E->initloc[kl[k]] < 0 || es_empty(wl__xp_loc_writes(E, kl[k])))
      continue; /* the initial value, set above */
    for (q = 0; q < ncv[k]; q++) {
      int64_t v = S->wv[cw[k][q]];
      int z;
      for (z = 0; z < n2 && tmp[z] != v; z++)
        ;
      if (z == n2)
        tmp[n2++] = v;
    }
    memcpy(cv[k], tmp, (size_t)n2 * sizeof tmp[0]);
    ncv[k] = n2;
  }
  return wl__xp_obs_known(x, vals, nkl, kl, cv, ncv);
}

/* At each choice point: the decisions newly fixed hold, and the states
 * below are not all known.  *dn: the decisions fixed above (updated). */
static int worth(xp *x, exe *E, rfs *S, int *dn) {
  find_known(E, S);
  if (!path_ok(x, E, S, dn))
    return 0;
  return !obs_known(x, E, S);
}

/* Whether read r's thread writes r's location before r. */
static int own_before(const exe *E, int r) {
  int w;
  ES_FOR(w, E->setW)
  if (E->ev[w].loc == E->ev[r].loc && rel_has(E->po, w, r))
    return 1;
  return 0;
}

/* The other reads, one by one. */
static int rest_dfs(xp *x, exe *E, rfs *S, int k, int dn) {
  int r, w;
  evset ws;
  if (halt_rf(x) || wl__xp_stop(x))
    return x->err;
  if (k == S->nrest)
    return leaf(x, E, S);
  if (!worth(x, E, S, &dn))
    return 0;
  r = S->rest[k];
  ws = wl__xp_loc_writes(E, E->ev[r].loc);
  es_add(&ws, E->initloc[E->ev[r].loc]);
  ES_FOR(w, ws) {
    if (rel_has(E->po, r, w))
      continue; /* a read never reads a po-later write */
    if (w == r + 1 && E->ev[r].rmw)
      continue; /* nor its own write */
    if (w < E->ninit && own_before(E, r))
      continue; /* the initial write is co-before the thread's own
                 * po-earlier write, which fr would put after r:
                 * SC-per-Location (same-thread pairs are morally
                 * strong) */
    E->rf[r] = w;
    rel_add(E->rfr, w, r);
    S->rfset[r] = 1;
    if (wl__xp_rf_partial_ok(E, r, w))
      rest_dfs(x, E, S, k + 1, dn);
    S->rfset[r] = 0;
    rel_del(E->rfr, w, r);
    if (halt_rf(x))
      return x->err;
  }
  return 0;
}

/* ---------------- inert RMWs ---------------- */
/* (the states search with observed variables, and the race search) */

/* Two adjacent RMWs of a chain, e of thread T then f of thread U, can be
 * swapped without changing consistency or the observation when both
 * are inert and equivalent:
 *  - relaxed read and write (no acquire pattern starts at the read, no
 *    release pattern ends at the write), the last event of its thread,
 *    the thread's only access of the location, in no symmetry class,
 *    with no register observed;
 *  - no plain read of the location in the execution (every read of it
 *    is an RMW of the chain);
 *  - the same RMW (operation, orders, scope, immediate operands,
 *    destination), whose destination no later instruction overwrites,
 *    and the same decisions after it: branches on the destination and
 *    constants only, taken the same way.
 * Then the obs edges into and out of e and f change, but no sync starts
 * or ends at them and the cause edges they add order e's and f's writes
 * as coherence does; the writes after the pair see the same value (the
 * same operation twice); e and f read each other's values, which the
 * same decisions accept.  So every chain is searched with each run of
 * adjacent equivalent inert RMWs in increasing thread order only. */
static int rmw_pc(const exe *E, int r) { return E->ev[r].insn; }

static int inert_rmw(const xp *x, const exe *E, const rfs *S, int th,
                     int r) {
  const wl_result *res = x->res;
  const wl_thread *thr = &x->t->threads[th];
  const wl_insn *in;
  int i, k, b = S->base[th], nev = E->tr[th]->nev, l = E->ev[r].loc;
  const int *dec;
  const uint64_t *dt;
  if (S->cls[th] >= 0 || !E->ev[r].rmw || r + 1 != b + nev - 1 ||
      E->ev[r].sem != WL_SEM_RELAXED || E->ev[r + 1].sem != WL_SEM_RELAXED)
    return 0;
  for (i = 0; i < thr->nregs && x->mode == XP_STATES; i++)
    if (res->keep[res->lay.regoff[th] + i])
      return 0;
  for (i = b; i < r; i++)
    if ((E->ev[i].type == EV_R || E->ev[i].type == EV_W) &&
        E->ev[i].loc == l)
      return 0;
  in = &thr->insns[rmw_pc(E, r)];
  if (in->op != OP_ATOM || in->aop == AOP_CAS || in->a.is_reg ||
      in->b.is_reg)
    return 0;
  for (i = rmw_pc(E, r) + 1; i < thr->ninsns; i++) {
    const wl_insn *o = &thr->insns[i];
    if (o->dst == in->dst && (o->op == OP_MOV || o->op == OP_ALU ||
                              o->op == OP_LD || o->op == OP_ATOM))
      return 0;
  }
  dec = WL_VEC_PTR(&x->pool[th].ch, int, E->tr[th]->ch0);
  dt = WL_VEC_PTR(&x->pool[th].dtaint, uint64_t, E->tr[th]->ch0);
  for (k = 0; k < E->tr[th]->nch; k++) {
    const wl_insn *o;
    if (dec[k] >> 1 <= rmw_pc(E, r))
      continue;
    o = &thr->insns[dec[k] >> 1];
    if (o->op != OP_BRANCH || dt[k] != 1ull << (r - b) ||
        (o->a.is_reg && o->a.reg != in->dst) ||
        (o->b.is_reg && o->b.reg != in->dst))
      return 0;
  }
  return 1;
}

/* Whether the inert RMWs of threads a and b are equivalent. */
static int inert_same(const xp *x, const exe *E, const rfs *S, int a,
                      int b) {
  const wl_insn *ia = &x->t->threads[a].insns[rmw_pc(E, S->inert[a])];
  const wl_insn *ib = &x->t->threads[b].insns[rmw_pc(E, S->inert[b])];
  const int *da = WL_VEC_PTR(&x->pool[a].ch, int, E->tr[a]->ch0);
  const int *db = WL_VEC_PTR(&x->pool[b].ch, int, E->tr[b]->ch0);
  int ka = 0, kb = 0;
  if (ia->aop != ib->aop || ia->sem != ib->sem || ia->scope != ib->scope ||
      ia->loc != ib->loc || ia->dst != ib->dst || ia->a.imm != ib->a.imm ||
      ia->b.imm != ib->b.imm || ia->op != ib->op)
    return 0;
  for (;;) {
    const wl_insn *oa, *ob;
    while (ka < E->tr[a]->nch && da[ka] >> 1 <= rmw_pc(E, S->inert[a]))
      ka++;
    while (kb < E->tr[b]->nch && db[kb] >> 1 <= rmw_pc(E, S->inert[b]))
      kb++;
    if (ka == E->tr[a]->nch || kb == E->tr[b]->nch)
      return ka == E->tr[a]->nch && kb == E->tr[b]->nch;
    oa = &x->t->threads[a].insns[da[ka] >> 1];
    ob = &x->t->threads[b].insns[db[kb] >> 1];
    if ((da[ka] & 1) != (db[kb] & 1) || oa->cond != ob->cond ||
        oa->a.is_reg != ob->a.is_reg || oa->b.is_reg != ob->b.is_reg ||
        (!oa->a.is_reg && oa->a.imm != ob->a.imm) ||
        (!oa->b.is_reg && oa->b.imm != ob->b.imm))
      return 0;
    ka++;
    kb++;
  }
}

static void find_inert(const xp *x, const exe *E, rfs *S) {
  int th, o, i, n = x->t->nthreads;
  for (th = 0; th < n; th++) {
    S->inert[th] = -1;
    S->ieq[th] = -1;
  }
  /* the states search with observed variables; the race search, which
   * asks whether some execution has a race, and a swap changes neither
   * causality nor which accesses conflict */
  if (!(x->mode == XP_STATES && !x->all && x->res->keep != NULL) &&
      x->mode != XP_RACE)
    return;
  if (x->opts != NULL && (x->opts->no_commute || x->opts->no_prefix))
    return;
  for (th = 0; th < n; th++) {
    int nev = E->tr[th]->nev, r = S->base[th] + nev - 2, ok = 1;
    if (nev < 2 || E->ev[r].type != EV_R || !S->chain[E->ev[r].loc])
      continue;
    for (i = 0; i < E->nreads && ok; i++) /* no plain read of it */
      ok = !(E->ev[E->reads[i]].loc == E->ev[r].loc &&
             !E->ev[E->reads[i]].rmw);
    if (ok && inert_rmw(x, E, S, th, r))
      S->inert[th] = r;
  }
  for (th = 0; th < n; th++) {
    if (S->inert[th] < 0)
      continue;
    S->ieq[th] = th;
    for (o = 0; o < th; o++)
      if (S->inert[o] >= 0 && S->ieq[o] == o && inert_same(x, E, S, o, th)) {
        S->ieq[th] = o;
        break;
      }
  }
}

/* Whether RMW r (thread u) right after the chain's last write w is a
 * swapped order of an inert pair: searched the other way round. */
static int commuted(const exe *E, const rfs *S, int w, int r) {
  int t = E->thread[w], u = E->thread[r];
  if (w < E->ninit || S->inert[t] != w - 1 || S->inert[u] != r)
    return 0;
#ifdef WL_MUTANT_COMMUTE
  /* the mutation check (tests/cli/mutants.sh): inert RMWs commute
   * whatever their decisions */
  return u < t;
#endif
  return S->ieq[t] == S->ieq[u] && u < t;
}

/* Symmetry: two threads of one class of interchangeable threads
 * (symmetry.c) running the same skeleton, neither touched by a
 * reads-from edge chosen so far, are swapped by a permutation that maps
 * the partial execution onto itself: the search below choosing the
 * second's event is the image of the search choosing the first's, and
 * every state it would find is recorded as an image of one found there
 * (symmetry.c).  So only the first such thread's event is chosen. */
static int twin_before(const rfs *S, const exe *E, int th) {
  int p;
  (void)E;
  if (S->cls[th] < 0 || S->touched[th] > 0)
    return 0;
  for (p = 0; p < th; p++)
#ifdef WL_MUTANT_TWINS
    /* the mutation check (tests/cli/mutants.sh): a twin that reads-from
     * touched already is taken for an untouched one */
    if (S->cls[p] == S->cls[th] && S->skel[p] == S->skel[th])
#else
    if (S->cls[p] == S->cls[th] && S->touched[p] == 0 &&
        S->skel[p] == S->skel[th])
#endif
      return 1;
  return 0;
}

/* Counting: the untouched twins after thread th (which is chosen), as a
 * level of S->tw; 0 when there are none. */
static int twin_level(rfs *S, int th) {
  twinlv *lv = &S->tw[S->ntw];
  int p;
  if (S->cls[th] < 0 || S->touched[th] > 0)
    return 0;
  lv->a = th;
  lv->nb = 0;
  for (p = th + 1; p < WL_MAX_THREADS && S->cls[p] != -2; p++)
    if (S->cls[p] == S->cls[th] && S->touched[p] == 0 &&
        S->skel[p] == S->skel[th])
      lv->b[lv->nb++] = p;
  if (lv->nb == 0)
    return 0;
  S->ntw++;
  return 1;
}

/* Records E's images under every product of the twin swaps of S->tw
 * but the identity, level 0 outermost: perm = pi_0 o pi_1 o ... */
static int twins_rec(xp *x, exe *E, rfs *S, int lv, int *perm) {
  const twinlv *t;
  int k, r, th, n = x->t->nthreads, save[WL_MAX_THREADS];
  if (lv < 0) {
    for (th = 0; th < n; th++)
      if (perm[th] != th)
        return wl__xp_record_perm(x, E, perm);
    return 0;
  }
  t = &S->tw[lv];
  /* the innermost level applies first: perm <- pi_lv o perm, so that
   * level 0, applied last, is outermost */
  if ((r = twins_rec(x, E, S, lv - 1, perm)) != 0)
    return r;
  memcpy(save, perm, (size_t)n * sizeof save[0]);
  for (k = 0; k < t->nb; k++) {
    int a = t->a, b = t->b[k];
    for (th = 0; th < n; th++)
      perm[th] = save[th] == a ? b : save[th] == b ? a : save[th];
    if ((r = twins_rec(x, E, S, lv - 1, perm)) != 0)
      return r;
  }
  memcpy(perm, save, (size_t)n * sizeof save[0]);
  return 0;
}

int wl__xp_rf_record_twins(xp *x, exe *E) {
  rfs *S = x->rfs;
  int perm[WL_MAX_THREADS], th;
  if (!x->rf || S == NULL || S->ntw == 0)
    return 0;
  for (th = 0; th < x->t->nthreads; th++)
    perm[th] = th;
  return twins_rec(x, E, S, S->ntw - 1, perm);
}

static void touch(rfs *S, const exe *E, int r, int w, int d) {
  S->touched[E->thread[r]] += d;
  if (E->thread[w] >= 0)
    S->touched[E->thread[w]] += d;
}

/* The chains, location by location: the RMW to read from the chain's
 * last write is one whose thread's earlier RMWs of the location are
 * placed already. */
static int chain_dfs(xp *x, exe *E, rfs *S, int ci, int dn) {
  int l, r;
  if (halt_rf(x) || wl__xp_stop(x))
    return x->err;
  if (ci == S->nchl)
    return rest_dfs(x, E, S, 0, dn);
  if (!worth(x, E, S, &dn))
    return 0;
  l = S->chl[ci];
  if (es_empty(S->todo[l]))
    return chain_dfs(x, E, S, ci + 1, dn);
  ES_FOR(r, S->todo[l]) {
    int w = S->end[l], o, first = 1;
    evset keep = S->todo[l];
    /* the thread's po-earlier RMWs of l come first */
    ES_FOR(o, S->todo[l])
    if (o != r && rel_has(E->po, o, r)) {
      first = 0;
      break;
    }
    if (!first || twin_before(S, E, E->thread[r]) || commuted(E, S, w, r))
      continue;
    E->rf[r] = w;
    rel_add(E->rfr, w, r);
    if (wl__xp_rf_partial_ok(E, r, w)) {
      int lv = x->all && twin_level(S, E->thread[r]);
      es_del(&S->todo[l], r);
      S->end[l] = r + 1;
      touch(S, E, r, w, 1);
      S->rfset[r] = 1;
      chain_dfs(x, E, S, ci, dn);
      S->rfset[r] = 0;
      touch(S, E, r, w, -1);
      S->ntw -= lv;
      S->end[l] = w;
      S->todo[l] = keep;
    }
    rel_del(E->rfr, w, r);
    if (halt_rf(x))
      return x->err;
  }
  return 0;
}

/* Which locations are chains: every write of the location is an RMW's,
 * the RMWs are morally strong with each other, and none is weak. */
static void find_chains(const xp *x, exe *E, rfs *S) {
  int li, i, j;
  (void)x;
  S->nchl = 0;
  S->nrest = 0;
  for (li = 0; li < E->nlocs; li++) {
    int l = E->locs[li], ok = 1, any = 0;
    evset ws = wl__xp_loc_writes(E, l);
    ES_FOR(i, ws) {
      if (!E->ev[i].rmw || E->ev[i].sem == WL_SEM_WEAK) {
        ok = 0;
        break;
      }
      any = 1;
      ES_FOR(j, ws)
      if (j != i && !es_has(E->ms[i], j)) {
        ok = 0;
        break;
      }
      if (!ok)
        break;
    }
    S->chain[l] = (uint8_t)(ok && any);
    if (S->chain[l]) {
      S->chl[S->nchl++] = l;
      S->end[l] = E->initloc[l];
      S->todo[l] = ES_EMPTY;
      ES_FOR(i, ws)
      es_add(&S->todo[l], i - 1);
    }
  }
  for (i = 0; i < E->nreads; i++) {
    int r = E->reads[i];
    if (!(S->chain[E->ev[r].loc] && E->ev[r].rmw))
      S->rest[S->nrest++] = r;
  }
}

static int rf_combo(xp *x, exe *E, bsched *bs, rfs *S) {
  int o, i, th, base;
  x->found = x->combo_done = 0;
  x->combos++;
  if (wl__xp_build_exe(x, E))
    return x->err;
  base = E->ninit;
  for (th = 0; th < x->t->nthreads; th++) {
    /* S->rv and S->wv are indexed by E's event index: thread th's
     * trace-local events start at base[th] */
    S->base[th] = base;
    base += E->tr[th]->nev;
    S->skel[th] = (size_t)(E->tr[th] -
                           WL_VEC_PTR(&x->pool[th].traces, wl_trace, 0));
    S->touched[th] = 0;
    S->cls[th] = -1;
  }
  memset(S->rfset, 0, sizeof S->rfset);
  S->ntw = 0;
  for (th = x->t->nthreads; th < WL_MAX_THREADS; th++)
    S->cls[th] = -2; /* past the last thread */
  for (i = 0; i < x->nsym; i++) {
    int k;
    for (k = 0; k < x->symn[i]; k++)
      S->cls[x->sym[i][k]] = i;
  }
  find_chains(x, E, S);
  find_inert(x, E, S);
  if (wl__xp_barrier_outcomes(x, bs, E))
    return x->err;
  for (o = 0; o < bs->nout && !halt_rf(x); o++) {
    wl__xp_barrier_start(E, bs->out[o]);
    chain_dfs(x, E, S, 0, 0);
  }
  return x->err;
}

static int combos(xp *x, int th, const wl_trace **chosen, exe *E, bsched *bs,
                  rfs *S) {
  const wl_litmus *t = x->t;
  size_t k;
  if (halt_rf(x) || wl__xp_stop(x))
    return x->err;
  if (th == t->nthreads) {
    int o;
    for (o = 0; o < t->nthreads; o++)
      E->tr[o] = chosen[o];
    return rf_combo(x, E, bs, S);
  }
  for (k = 0; k < x->pool[th].traces.n; k++) {
    const wl_trace *tr = WL_VEC_PTR(&x->pool[th].traces, wl_trace, k);
    int p = x->symprev[th];
    if (p >= 0 &&
        k < (size_t)(chosen[p] - WL_VEC_PTR(&x->pool[p].traces, wl_trace, 0)))
      continue; /* identical threads choose non-decreasing skeletons */
    if (th < x->ulen && k != (size_t)x->upath[th])
      continue; /* a unit (split.c): the skeletons of its prefix only */
    chosen[th] = tr;
    combos(x, th + 1, chosen, E, bs, S);
    chosen[th] = NULL;
    if (halt_rf(x))
      return x->err;
  }
  return 0;
}

int wl__xp_rf_search(xp *x, exe *E, bsched *bs) {
  const wl_trace *chosen[WL_MAX_THREADS];
  rfs *S = wl__alloc(x->ctx, sizeof *S);
  if (S == NULL)
    return x->err = wl__err(x->ctx, WL_ENOMEM, "out of memory");
  memset(chosen, 0, sizeof chosen);
  x->rfs = S;
  combos(x, 0, chosen, E, bs, S);
  x->rfs = NULL;
  wl__free(x->ctx, S, sizeof *S);
  return x->err;
}
