/* explore.c -- the exhaustive explorer of the PTX 6.0 memory consistency
 * model (Lustig et al., ASPLOS'19; shared/spec/ptx-v6.0.cat, read beside
 * ptx-asplos19.cat): the search.  explore.h lists the other files.
 *
 * 1. Traces (traces.c), one set per thread; the value domains reach a
 *    fixpoint here over combinations whose reads are all matched.
 * 2. For each combination of traces (one per thread) that is
 *    value-consistent, each barrier outcome (barriers.c): reads-from
 *    read by read, pruned by No-Thin-Air and SC-per-Location on the
 *    partial choice; then, when only the final states are asked for
 *    (the default), the co-last write of each location -- the rest of
 *    the final state -- skipping the states already known; then the
 *    fence-SC order, pair by pair, and coherence, write by write, each
 *    step checked against the axioms (axioms.c) on the partial
 *    execution, which only fail more as choices are added.  The first
 *    consistent execution of a state is its witness (results.c), and
 *    the search of that state stops there; a combination whose every
 *    reachable state is known is not searched at all.  With
 *    count_executions every consistent execution is enumerated instead
 *    (herd's counts).
 * 3. The search is bounded: should_stop, max_memory (every allocation is
 *    counted through the context's hook), the limits of model.h.
 */
#include <stdio.h>
#include <string.h>

#include "explore.h"

/* The memory limit: every allocation of the exploration goes through
 * the context, whose hook is wrapped while wl_explore runs so that the
 * bytes held are counted.  Past the limit the allocation still succeeds
 * (the search unwinds cleanly at its next stop check) and the
 * exploration stops with WL_ELIMIT. */
static void *count_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  xp *x = ud;
  void *p = x->alloc(x->alloc_ud, ptr, osize, nsize);
  if (p != NULL || nsize == 0) {
    x->mem += nsize;
    x->mem -= ptr != NULL ? osize : 0;
    if (x->mem > x->mem_peak)
      x->mem_peak = x->mem;
  }
  return p;
}

int wl__xp_stop(xp *x) {
  const wl_explore_opts *o = x->opts;
  if (x->err != 0)
    return 1;
  if (o != NULL && o->max_memory > 0 && x->mem > o->max_memory) {
    x->mem_stop = 1;
    x->err = wl__err(x->ctx, WL_ELIMIT,
                     "%s: exploration stopped at the memory limit (%zu "
                     "MB; --max-memory / max_memory) with %zu states found",
                     x->t->name, o->max_memory >> 20, x->res->nstates);
    return 1;
  }
  if (o != NULL && (++x->work & 1023) == 0) {
    if (o->progress != NULL) {
      wl_explore_progress p;
      p.states = x->res->nstates;
      p.combinations = x->combos;
      p.memory = x->mem;
      o->progress(o->progress_ud, &p);
    }
    if (o->should_stop != NULL && o->should_stop(o->stop_ud)) {
      x->err =
          wl__err(x->ctx, WL_ESTOPPED, "%s: exploration stopped with %zu "
                                       "states found",
                  x->t->name, x->res->nstates);
      return 1;
    }
  }
  return 0;
}

/* Whether the search below the current choice point should unwind: an
 * error, the target state found (states mode), or every state the
 * combination could reach already known. */
static int halt(const xp *x) {
  return x->err || x->found || x->combo_done || x->ub_done;
}

static int consistent_found(xp *x, exe *E) {
  int r;
  if (x->mode == XP_RACE)
    return wl__xp_race_found(x, E);
  if (x->mode == XP_LIVE)
    return wl__xp_live_found(x, E);
  if (E->cut) {
    /* nothing else comes of a combination with a cut trace */
    x->res->bound_hit = 1;
    x->combo_done = 1;
    return 0;
  }
  r = wl__xp_record_state(x, E);
  if (r == 0)
    r = x->all ? wl__xp_rf_record_twins(x, E) : wl__xp_record_images(x, E);
  if (r == 0 && !x->all) {
    /* states mode: one witness per state is all the question needs */
    x->found = 1;
    x->combo_done = wl__xp_combo_known(x, E);
  }
  return r;
}

int wl__explore_found(xp *x, exe *E) {
  int r = consistent_found(x, E);
  x->found = x->combo_done = 0; /* the cat engine enumerates on */
  return r;
}

int wl__explore_stop(xp *x) { return wl__xp_stop(x); }

/* Builds coherence by insertion, location by location: each step puts
 * the next write after every write placed so far and before every write
 * still unplaced, so the known pairs (E->cok) only grow along a branch.
 * The required pairs (cause between writes, program order, and in
 * states mode the chosen co-last write) decide which write may come
 * next. */
/* pending: a forced placement of this location was not checked yet. */
static int co_dfs(xp *x, exe *E, int li, evset left, rel req, int pending) {
  int loc;
  if (halt(x) || wl__xp_stop(x))
    return x->err;
  if (li == E->nlocs) /* checked when the last write was placed */
    return consistent_found(x, E);
  loc = E->locs[li];
  if (es_empty(left)) {
    evset next = ES_EMPTY;
    if (li + 1 < E->nlocs) {
      int nl = E->locs[li + 1];
      next = wl__xp_loc_writes(E, nl);
      E->nwl[nl] = 1;
      E->wl[nl][0] = E->initloc[nl];
    }
    return co_dfs(x, E, li + 1, next, req, 0);
  }
  {
    int w, ncand = 0;
    /* w can come next only if no remaining write must precede it */
    ES_FOR(w, left) {
      int i, ok = 1;
      ES_FOR(i, left)
      if (i != w && es_has(req[i], w)) {
        ok = 0;
        break;
      }
      ncand += ok;
    }
    ES_FOR(w, left) {
      int i, ok = 1, forced = ncand == 1;
      evset keep = E->cok[w], rest = left;
      es_del(&rest, w);
      ES_FOR(i, rest)
      if (es_has(req[i], w)) {
        ok = 0;
        break;
      }
      if (!ok)
        continue;
      /* Placing w makes it co-before every write still unplaced.  The
       * axioms are monotone in co, so a violation with the pairs known
       * so far holds in every completion: prune.  A placement that was
       * the only one possible (program order, say, fixes the writes of
       * one thread) is checked with the next choice, or once the
       * location is complete: checking later only prunes later. */
      E->wl[loc][E->nwl[loc]++] = w;
      E->cok[w] = es_or(keep, rest);
      if (es_empty(rest) ? !pending || wl__xp_check_co(x, E)
                         : forced || wl__xp_check_co(x, E))
        co_dfs(x, E, li, rest, req, forced && !es_empty(rest));
      E->cok[w] = keep;
      E->nwl[loc]--;
      if (halt(x))
        return x->err;
    }
  }
  return 0;
}

/* Starts the coherence search of the first location. */
static int co_start(xp *x, exe *E, rel req) {
  int loc0 = E->locs[0];
  E->nwl[loc0] = 1;
  E->wl[loc0][0] = E->initloc[loc0];
  return co_dfs(x, E, 0, wl__xp_loc_writes(E, loc0), req, 0);
}

/* When the required pairs leave one coherence order per location (an
 * RMW chain on a counter, one write per location, the co-last choice
 * of two), that order is placed at once and checked once instead of
 * searched: 1 when it was (and then consistent_found ran if the
 * axioms hold), 0 when some location has a choice. */
static int co_forced(xp *x, exe *E, rel req) {
  evset keep[WL_MAX_EVENTS];
  int li, w, i, placed = 1;
  rel_copy(keep, E->cok, E->n);
  for (li = 0; li < E->nlocs && placed; li++) {
    int loc = E->locs[li];
    evset left = wl__xp_loc_writes(E, loc);
    E->nwl[loc] = 1;
    E->wl[loc][0] = E->initloc[loc];
    while (!es_empty(left)) {
      int next = -1, ncand = 0;
      ES_FOR(w, left) {
        int ok = 1;
        ES_FOR(i, left)
        if (i != w && es_has(req[i], w)) {
          ok = 0;
          break;
        }
        if (ok) {
          next = w;
          ncand++;
        }
      }
      if (ncand != 1) {
        placed = 0;
        break;
      }
      es_del(&left, next);
      E->wl[loc][E->nwl[loc]++] = next;
      E->cok[next] = es_or(E->cok[next], left);
    }
  }
  if (placed && wl__xp_check_co(x, E))
    consistent_found(x, E);
  rel_copy(E->cok, keep, E->n);
  for (li = 0; li < E->nlocs; li++)
    E->nwl[E->locs[li]] = 1; /* as co_dfs leaves them */
  return placed;
}

static int after_sc_order(xp *x, exe *E) {
  int n = E->n;
  rel req;
  wl__xp_co_required(E, req);
  if (!rel_acyclic(req, n))
    return 0;
  if (E->nlocs > 0 && co_forced(x, E, req))
    return x->err;
  if (!wl__xp_check_co(x, E))
    return 0;
  if (E->nlocs == 0)
    return consistent_found(x, E);
  return co_start(x, E, req);
}

/* The witness's fence-SC ranks: a topological order of sf (lowest event
 * first among the fences free to come next). */
static void sc_ranks(exe *E) {
  uint64_t placed = 0; /* indices into E->scf (at most WL_MAX_SCF) */
  int k, i;
  for (k = 0; k < E->nscf; k++) {
    for (i = 0; i < E->nscf; i++) {
      int f = E->scf[i], j, free = 1;
      if (placed >> i & 1)
        continue;
      for (j = 0; j < E->nscf && free; j++)
        if (!(placed >> j & 1) && j != i && es_has(E->sf[E->scf[j]], f))
          free = 0;
      if (free)
        break;
    }
    if (i == E->nscf) /* cannot happen: wl__xp_cause_ok rejects sf cycles */
      i = __builtin_ctzll(~placed);
    E->scorder[k] = i;
    placed |= 1ull << i;
  }
}

/* Fence-SC order by insertion: sync_fence = order & morally-strong, and
 * every acyclic orientation of the morally strong fence.sc pairs is the
 * restriction of some total order, so the pairs are oriented one at a
 * time, the axioms checked on each partial orientation; each distinct
 * sync_fence is explored once. */
static int sc_dfs(xp *x, exe *E, int k) {
  int a, b, d;
  if (halt(x) || wl__xp_stop(x))
    return x->err;
  if (k == E->nscp) {
    sc_ranks(E);
    return after_sc_order(x, E);
  }
  a = E->scp[k][0];
  b = E->scp[k][1];
  for (d = 0; d < 2 && !halt(x); d++) {
    int from = d ? b : a, to = d ? a : b;
    rel_add(E->sf, from, to);
    if (wl__xp_cause_ok(E) && wl__xp_check_co(x, E))
      sc_dfs(x, E, k + 1);
    rel_del(E->sf, from, to);
  }
  return x->err;
}

/* The fence-SC and coherence search for the current reads-from (and in
 * states mode the chosen co-last writes). */
static int sc_start(xp *x, exe *E) {
  int n = E->n, i;
  /* known coherence pairs: the initial write precedes every write */
  rel_copy(E->cok, E->colast, n);
  for (i = E->ninit; i < n; i++)
    if (E->ev[i].type == EV_W)
      rel_add(E->cok, E->initloc[E->ev[i].loc], i);
  rel_zero(E->sf, n);
  /* the coherence axioms may already fail on the pairs known before any
   * choice (a read of the initial value is fr-before every write; a
   * read of a write that the co-last choice puts before its own).  The
   * causality order without sf is after_rf's, unless an earlier search
   * of fence-SC orders left another in E->cause. */
  if (E->nscp > 0 && (!wl__xp_cause_ok(E) || !wl__xp_check_co(x, E)))
    return 0; /* (with no pair to order, after_sc_order checks at once) */
  return sc_dfs(x, E, 0);
}

/* States mode: the final state of a combination is fixed by the co-last
 * write of each location, so that write is chosen once reads-from is
 * known, before the fence-SC order and the rest of coherence: a choice
 * whose state is known already (with its witness) is skipped, and the
 * search for the others stops at the first consistent execution.  The
 * choice is the coherence pairs "every other write of the location
 * before it" (E->colast), required of the coherence search and known to
 * the checks on the way. */
static int colast_dfs(xp *x, exe *E, int li) {
  int l, w;
  evset ws;
  if (x->err || x->combo_done || wl__xp_stop(x))
    return x->err;
  if (li == E->nlocs) {
    if (x->mode == XP_STATES && !wl__xp_cut_unreported(x, E) &&
        wl__xp_target_known(x, E))
      return 0;
    sc_start(x, E);
    x->found = 0;
    return x->err;
  }
  l = E->locs[li];
  ws = wl__xp_loc_writes(E, l);
  if (es_empty(ws)) {
    E->last[l] = E->initloc[l];
    return colast_dfs(x, E, li + 1);
  }
  ES_FOR(w, ws) {
    int o;
    if (x->err || x->combo_done)
      break;
    if (es_meets(E->coreq[w], ws))
      continue; /* w must come before another write: never co-last */
    if (x->mode == XP_LIVE && !wl__xp_live_colast_ok(x, E, l, w))
      continue; /* a spinning read would see an older write */
    E->last[l] = w;
    ES_FOR(o, ws)
    if (o != w)
      rel_add(E->colast, o, w);
    colast_dfs(x, E, li + 1);
    ES_FOR(o, ws)
    if (o != w)
      rel_del(E->colast, o, w);
  }
  return x->err;
}

static int after_rf(xp *x, exe *E) {
  int n = E->n, i, j, changed;
  rel tmp, tmp2, u;
  rel_zero(u, n); /* every row is set below; gcc -O1 cannot tell */
  /* No-Thin-Air: acyclic (rf | dep), with rmw as in ptx-asplos19.cat */
  for (i = 0; i < n; i++)
    u[i] = es_or(E->rfr[i], es_or(E->dep[i], E->rmw[i]));
  if (!rel_acyclic(u, n))
    return 0;
  /* SC-per-Location, the part fixed by rf: acyclic((ms & rf) | po-loc) */
  for (i = 0; i < n; i++)
    u[i] = es_or(es_and(E->ms[i], E->rfr[i]), E->poloc[i]);
  if (!rel_acyclic(u, n))
    return 0;
  /* observation = (ms & rf) | (observation; rmw; observation) */
  for (i = 0; i < n; i++)
    E->obs[i] = es_and(E->ms[i], E->rfr[i]);
  do {
    changed = 0;
    rel_seq(tmp, E->obs, E->rmw, n);
    rel_seq(tmp2, tmp, E->obs, n);
    for (i = 0; i < n; i++)
      if (!es_empty(es_andnot(tmp2[i], E->obs[i]))) {
        E->obs[i] = es_or(E->obs[i], tmp2[i]);
        changed = 1;
      }
  } while (changed);
  /* sync = ms & (release-pattern; observation; acquire-pattern) */
  rel_seq(tmp, E->rp, E->obs, n);
  rel_seq(tmp2, tmp, E->ap, n);
  for (i = 0; i < n; i++)
    E->sync[i] = es_and(tmp2[i], E->ms[i]);
  /* the morally strong fence.sc pairs, oriented by sc_dfs */
  E->nscp = 0;
  for (i = 0; i < E->nscf; i++)
    for (j = i + 1; j < E->nscf; j++)
      if (rel_has(E->ms, E->scf[i], E->scf[j])) {
        E->scp[E->nscp][0] = (int16_t)E->scf[i];
        E->scp[E->nscp][1] = (int16_t)E->scf[j];
        E->nscp++;
      }
  rel_zero(E->sf, n);
  if (!wl__xp_cause_ok(E))
    return 0;
  if (x->mode == XP_RACE && !wl__xp_race_possible(E))
    return 0; /* every conflicting pair is ordered already */
  if (x->all)
    return sc_start(x, E);
  rel_zero(E->colast, n);
  wl__xp_co_required(E, E->coreq); /* sf only adds to these pairs */
  return colast_dfs(x, E, 0);
}

int wl__xp_after_rf(xp *x, exe *E) { return after_rf(x, E); }

static int rf_dfs(xp *x, exe *E, int k) {
  int r, n = E->n, w;
  if (halt(x) || wl__xp_stop(x))
    return x->err;
  if (k == E->nreads)
    return after_rf(x, E);
  r = E->reads[k];
  for (w = 0; w < n; w++) {
    const wl_ev *ew = &E->ev[w];
    if (ew->type != EV_W || ew->loc != E->ev[r].loc || ew->val != E->ev[r].val)
      continue;
    if (rel_has(E->po, r, w))
      continue; /* a read never reads a po-later write (SC-per-Location) */
    if (w == r + 1 && E->ev[r].rmw)
      continue; /* nor its own write */
    E->rf[r] = w;
    rel_add(E->rfr, w, r);
    if (wl__xp_rf_partial_ok(E, r, w))
      rf_dfs(x, E, k + 1);
    rel_del(E->rfr, w, r);
    if (halt(x))
      return x->err;
  }
  return 0;
}

static int trace_has_barrier(const xp *x, int th, const wl_trace *tr) {
  const wl_ev *ev = WL_VEC_PTR(&x->pool[th].ev, wl_ev, tr->ev0);
  int i;
  for (i = 0; i < tr->nev; i++)
    if (ev[i].type == EV_B)
      return 1;
  return 0;
}

/* Starts the search of barrier outcome phase: its phases, and
 * sync_barrier -- an arrival synchronises with the waits of the same
 * phase of the same barrier in the same CTA (syncbar & scta); no
 * reads-from and no co-last choice yet. */
void wl__xp_barrier_start(exe *E, const int16_t *phase) {
  int i, n = E->n;
  memcpy(E->phase, phase, sizeof E->phase);
  rel_zero(E->sb, n);
  for (i = 0; i < n; i++) {
    int j;
    if (E->ev[i].type != EV_B || E->phase[i] < 0)
      continue;
    for (j = 0; j < n; j++)
      if (j != i && E->ev[j].type == EV_B && E->phase[j] == E->phase[i] &&
          E->thread[j] != E->thread[i] && E->ev[j].bar_kind == BAR_SYNC)
        rel_add(E->sb, i, j);
  }
  rel_zero(E->rfr, n);
  rel_zero(E->colast, n);
}

static int explore_combo(xp *x, exe *E, bsched *bs) {
  int o, th, bars = 0, skip;
  for (th = 0; th < x->t->nthreads; th++)
    if (E->tr[th]->cut && x->res->bound_hit && x->mode == XP_STATES)
      return 0; /* the bound is reported already; no state comes of it */
  if (x->mode == XP_LIVE && !wl__xp_live_combo(x, E))
    return 0; /* nothing in it can hang */
  /* a combination with barriers is judged for barrier divergence (an
   * error) before its states are looked up */
  for (th = 0; th < x->t->nthreads; th++)
    bars |= trace_has_barrier(x, th, E->tr[th]);
  skip = !x->all && x->cand == NULL && x->mode == XP_STATES;
  skip = skip && !wl__xp_cut_unreported(x, E);
  if (skip && !bars && wl__xp_combo_known(x, E))
    return 0;
  x->found = x->combo_done = 0;
  x->combos++;
  if (!x->all)
    wl__xp_state_regs(x, E, x->vals);
  if (wl__xp_build_exe(x, E))
    return x->err;
  if (wl__xp_barrier_outcomes(x, bs, E))
    return x->err;
  if (skip && bars && wl__xp_combo_known(x, E))
    return 0;
  for (o = 0; o < bs->nout && !x->err && !x->combo_done; o++) {
    wl__xp_barrier_start(E, bs->out[o]);
    if (x->cand != NULL) {
      int r = wl__candx_run(x->cand, x, E);
      if (r != 0 && x->err == 0)
        x->err = r;
    } else {
      rf_dfs(x, E, 0);
    }
  }
  return x->err;
}

/* Enumerates combinations of traces.  Before the candidate executions are
 * built, a combination must be value-consistent: every read must see a
 * value written to its location by the initial state or by a write of
 * the combination that is not program-order-after it. */
typedef struct wrec {
  int16_t loc;
  int8_t th;
  int idx; /* event index within the trace */
  int64_t val;
} wrec;

static int read_matched(xp *x, int th, const wl_trace *tr, int i,
                        const wl_trace *const *chosen, int upto,
                        int allow_future) {
  const wl_ev *ev = WL_VEC_PTR(&x->pool[th].ev, wl_ev, tr->ev0);
  const wl_ev *r = &ev[i];
  int o, j, own = 0;
  for (j = 0; j < i; j++) {
    if (ev[j].type == EV_W && ev[j].loc == r->loc && ev[j].val == r->val)
      return 1;
    own |= ev[j].type == EV_W && ev[j].loc == r->loc;
  }
  /* the initial write is co-before the thread's own earlier write, so a
   * read after that write cannot read it (SC-per-Location: po-loc;fr);
   * a cat model (proxies, aliases) judges for itself, and the value
   * fixpoint needs these combinations to reach the other values */
  if ((!own || x->cand != NULL || x->collecting) &&
      x->t->locinit[r->loc] == r->val)
    return 1;
  for (o = 0; o < upto; o++) {
    const wl_trace *ot = chosen[o];
    const wl_ev *oe;
    if (o == th || ot == NULL)
      continue;
    oe = WL_VEC_PTR(&x->pool[o].ev, wl_ev, ot->ev0);
    for (j = 0; j < ot->nev; j++)
      if (oe[j].type == EV_W && oe[j].loc == r->loc && oe[j].val == r->val)
        return 1;
  }
  if (allow_future) {
    /* some trace of a thread not chosen yet could write it */
    for (o = upto; o < x->t->nthreads; o++)
      if (o != th && wl__xp_dom_has(&x->wvals[o][r->loc], r->val))
        return 1;
  }
  return 0;
}

/* Fills x->wvals from the traces of this round. */
static int written_values(xp *x) {
  int th;
  for (th = 0; th < x->t->nthreads; th++) {
    const wl_vec *pv = &x->pool[th].ev;
    size_t q;
    int l;
    for (l = 0; l < x->t->nlocs; l++)
      x->wvals[th][l].n = 0;
    for (q = 0; q < pv->n; q++) {
      const wl_ev *e = WL_VEC_PTR(pv, wl_ev, q);
      vdom *d;
      int i;
      if (e->type != EV_W)
        continue;
      d = &x->wvals[th][e->loc];
      if (wl__xp_dom_has(d, e->val))
        continue;
      if (d->n == d->cap) {
        int cap = d->cap ? d->cap * 2 : 8;
        int64_t *p = wl__realloc(x->ctx, d->v, (size_t)d->cap * sizeof *p,
                                 (size_t)cap * sizeof *p);
        if (p == NULL)
          return x->err = wl__err(x->ctx, WL_ENOMEM, "out of memory");
        d->v = p;
        d->cap = cap;
      }
      for (i = d->n; i > 0 && d->v[i - 1] > e->val; i--)
        d->v[i] = d->v[i - 1];
      d->v[i] = e->val;
      d->n++;
    }
  }
  return 0;
}

/* Whether trace tr of thread th writes a value its location's domain
 * lacks. */
static int trace_new(const xp *x, int th, const wl_trace *tr) {
  const wl_ev *ev = WL_VEC_PTR(&x->pool[th].ev, wl_ev, tr->ev0);
  int i;
  for (i = 0; i < tr->nev; i++)
    if (ev[i].type == EV_W && !wl__xp_dom_has(&x->dom[ev[i].loc], ev[i].val))
      return 1;
  return 0;
}

/* Collecting: which threads from th on have a trace with a new value. */
static void rest_new(xp *x) {
  int th = x->t->nthreads;
  x->rest_new[th] = 0;
  while (th-- > 0) {
    size_t k;
    int any = 0;
    for (k = 0; k < x->pool[th].traces.n && !any; k++)
      any = trace_new(x, th, WL_VEC_PTR(&x->pool[th].traces, wl_trace, k));
    x->rest_new[th] = (uint8_t)(any || x->rest_new[th + 1]);
  }
  x->chosen_new = 0;
}

/* The index of trace tr in thread th's list. */
static size_t trace_index(const xp *x, int th, const wl_trace *tr) {
  return (size_t)(tr - WL_VEC_PTR(&x->pool[th].traces, wl_trace, 0));
}

static int combo_dfs(xp *x, int th, const wl_trace **chosen, exe *E,
                     bsched *bs) {
  const wl_litmus *t = x->t;
  size_t k;
  if (x->err || x->ub_done || wl__xp_stop(x))
    return x->err;
  if (x->collecting && x->chosen_new == 0 && !x->rest_new[th])
    return 0; /* every combination below adds only known values */
  if (!x->collecting && x->mode == XP_STATES && !x->all && x->cand == NULL &&
      wl__xp_prefix_known(x, chosen, th))
    return 0; /* every observation below is known */
  if (th == t->nthreads) {
    int o, i;
    /* full value check */
    for (o = 0; o < t->nthreads; o++) {
      const wl_trace *tr = chosen[o];
      const wl_ev *ev = WL_VEC_PTR(&x->pool[o].ev, wl_ev, tr->ev0);
      for (i = 0; i < tr->nev; i++)
        if (ev[i].type == EV_R &&
            !read_matched(x, o, tr, i, chosen, t->nthreads, 0))
          return 0;
    }
    /* reads that only a cycle through their own values could justify:
     * no consistent execution, and no value for the domains */
    if ((x->collecting || x->opts == NULL ||
         !x->opts->no_thin_air_filter) &&
        !wl__xp_justified(x, chosen))
      return 0;
    if (x->collecting) {
      for (o = 0; o < t->nthreads; o++) {
        const wl_trace *tr = chosen[o];
        const wl_ev *ev = WL_VEC_PTR(&x->pool[o].ev, wl_ev, tr->ev0);
        for (i = 0; i < tr->nev; i++)
          if (ev[i].type == EV_W) {
            int a = wl__xp_dom_add(x, &x->dom[ev[i].loc], ev[i].val,
                                   ev[i].loc, o, &ev[i]);
            if (a < 0)
              return x->err;
            if (a > 0)
              x->grew = 1;
          }
      }
      return 0;
    }
    for (o = 0; o < t->nthreads; o++)
      E->tr[o] = chosen[o];
    return explore_combo(x, E, bs);
  }
  for (k = 0; k < x->pool[th].traces.n; k++) {
    const wl_trace *tr = WL_VEC_PTR(&x->pool[th].traces, wl_trace, k);
    const wl_ev *ev = WL_VEC_PTR(&x->pool[th].ev, wl_ev, tr->ev0);
    int i, ok = 1;
    /* a stutter prefix is never a final state, but a race or a hang
     * may happen in it; a trace cut by the bound (reported already) is
     * left out of both searches (the race search over bound-cut
     * prefixes cost 7x the states on CADP's largest tests) */
    if (tr->cut == 2 && !x->collecting && x->mode == XP_STATES)
      continue;
    if (tr->cut == 1 && !x->collecting &&
        (x->res->bound_hit || x->mode != XP_STATES))
      continue;
    if (!x->collecting && x->symprev[th] >= 0 &&
        k < trace_index(x, x->symprev[th], chosen[x->symprev[th]]))
      continue; /* identical threads choose non-decreasing traces */
    if (!x->collecting && th < x->ulen && k != (size_t)x->upath[th])
      continue; /* a unit (split.c): the traces of its prefix only */
    chosen[th] = tr;
    /* reads of this thread must be satisfiable by what is chosen or
     * could still be chosen; reads of earlier threads may now have lost
     * their last possible writer */
    for (i = 0; i < tr->nev && ok; i++)
      if (ev[i].type == EV_R && !read_matched(x, th, tr, i, chosen, th, 1))
        ok = 0;
    if (ok) {
      int nw = x->collecting && trace_new(x, th, tr);
      x->chosen_new += nw;
      combo_dfs(x, th + 1, chosen, E, bs);
      x->chosen_new -= nw;
    }
    chosen[th] = NULL;
    if (x->err)
      return x->err;
  }
  return 0;
}

/* The searches after the states (datarace.c, liveness.c): every consistent
 * execution of the mode's combinations, until one is found. */
static int ub_pass(xp *x, exe *E, bsched *bs, int mode) {
  const wl_trace *chosen[WL_MAX_THREADS];
  int all = x->all;
  if ((mode == XP_RACE && !wl__xp_race_any(x)) ||
      (mode == XP_LIVE && !wl__xp_live_any(x))) {
    /* no pair of accesses can race, no thread can spin or wait */
    if (mode == XP_RACE)
      x->res->race_checked = 1;
    else
      x->res->hang_checked = 1;
    return 0;
  }
  x->mode = mode;
  /* races: every consistent execution; hangs: the co-last writes are
   * chosen first (colast_dfs), those that a spin part's reads could not
   * see last never searched */
  x->all = mode == XP_RACE;
  x->ub_done = x->found = x->combo_done = 0;
  memset(chosen, 0, sizeof chosen);
  if (x->rf)
    wl__xp_rf_search(x, E, bs);
  else
    combo_dfs(x, 0, chosen, E, bs);
  x->mode = XP_STATES;
  x->all = all;
  x->found = x->combo_done = 0;
  if (x->err == 0 && mode == XP_RACE)
    x->res->race_checked = 1;
  if (x->err == 0 && mode == XP_LIVE)
    x->res->hang_checked = 1;
  return x->err;
}

/* ---------------------------------------------------------------- */

static void xp_free(xp *x) {
  int i;
  wl__candx_free(x->cand);
  for (i = 0; i < WL_MAX_LOCS; i++)
    wl__free(x->ctx, x->dom[i].v, (size_t)x->dom[i].cap * sizeof(int64_t));
  for (i = 0; i < WL_MAX_THREADS; i++) {
    int l;
    for (l = 0; l < WL_MAX_LOCS; l++)
      wl__free(x->ctx, x->wvals[i][l].v,
               (size_t)x->wvals[i][l].cap * sizeof(int64_t));
    wl__vec_free(x->ctx, &x->pool[i].ev);
    wl__vec_free(x->ctx, &x->pool[i].regs);
    wl__vec_free(x->ctx, &x->pool[i].traces);
    wl__vec_free(x->ctx, &x->pool[i].ch);
    wl__vec_free(x->ctx, &x->pool[i].dtaint);
  }
}

/* Allocates the exploration of t (x, its result, execution and barrier
 * scheduler) and starts counting its memory through ctx's allocator
 * (wl__xp_unwrap stops).  On failure nothing is left allocated. */
int wl__xp_open(wl_ctx *ctx, const wl_litmus *t, const wl_explore_opts *opts,
                xp **out) {
  xp *x;
  wl_result *r;
  exe *E;
  bsched *bs;
  int err, i;
  *out = NULL;
  ctx->errmsg[0] = '\0';
  if (opts != NULL && opts->unroll < 0)
    return wl__err(ctx, WL_EINVAL, "unroll bound must be >= 0");
  if ((err = wl__litmus_check_labels(t)) != 0)
    return err;
  if ((opts == NULL || opts->model == NULL) &&
      (err = wl__litmus_check_v60(t, "the built-in PTX 6.0 explorer")) != 0)
    return err;
  r = wl__calloc(ctx, sizeof *r);
  x = wl__calloc(ctx, sizeof *x);
  E = wl__calloc(ctx, sizeof *E);
  /* the barrier scheduler's arrays are set per combination
   * (wl__xp_barrier_outcomes): only its outcome buffer starts empty */
  bs = wl__alloc(ctx, sizeof *bs);
  if (r == NULL || x == NULL || E == NULL || bs == NULL) {
    wl__free(ctx, r, sizeof *r);
    wl__free(ctx, x, sizeof *x);
    wl__free(ctx, E, sizeof *E);
    wl__free(ctx, bs, sizeof *bs);
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  }
  bs->out = NULL;
  bs->nout = bs->capout = 0;
  r->ctx = ctx;
  r->t = t;
  r->cond_kind = t->cond_kind;
  r->has_cond = t->has_cond;
  x->ctx = ctx;
  x->t = t;
  x->opts = opts;
  x->res = r;
  x->E = E;
  x->bs = bs;
  x->unroll =
      (opts != NULL && opts->unroll > 0) ? opts->unroll : WL_DEFAULT_UNROLL;
  r->unroll = x->unroll;
  x->all = opts != NULL && opts->count_executions;
  r->counted = x->all;
  for (i = 0; i < WL_MAX_THREADS; i++) {
    wl__vec_init(&x->pool[i].ev, sizeof(wl_ev));
    wl__vec_init(&x->pool[i].regs, sizeof(int64_t));
    wl__vec_init(&x->pool[i].traces, sizeof(wl_trace));
    wl__vec_init(&x->pool[i].ch, sizeof(int));
    wl__vec_init(&x->pool[i].dtaint, sizeof(uint64_t));
  }
  /* count what the exploration holds from here on (the four blocks
   * above included) */
  x->alloc = ctx->alloc;
  x->alloc_ud = ctx->alloc_ud;
  x->mem = sizeof *r + sizeof *x + sizeof *E + sizeof *bs;
  wl__xp_wrap(x);
  *out = x;
  return 0;
}

void wl__xp_wrap(xp *x) {
  x->ctx->alloc = count_alloc;
  x->ctx->alloc_ud = x;
}

void wl__xp_unwrap(xp *x) {
  x->ctx->alloc = x->alloc;
  x->ctx->alloc_ud = x->alloc_ud;
}

/* Everything before the search: the model's candidates, the traces (or
 * the skeletons), the value domains, symmetry, the state layout and the
 * observed values.  Non-zero on failure (x->err). */
int wl__xp_prepare(xp *x) {
  wl_ctx *ctx = x->ctx;
  const wl_litmus *t = x->t;
  const wl_explore_opts *opts = x->opts;
  const wl_trace *chosen[WL_MAX_THREADS];
  wl_result *r = x->res;
  int l, rounds = 0;
  if (opts != NULL && opts->model != NULL &&
      wl__candx_new(ctx, opts->model, t, &x->cand) != 0)
    return x->err = WL_ENOMEM;
  for (l = 0; l < t->nlocs; l++)
    if (wl__xp_dom_add(x, &x->dom[l], t->locinit[l], l, -1, NULL) < 0)
      return 1;
  /* the reads-from search where it applies (rfsearch.c), else the
   * value search */
  {
    const char *why = NULL;
    int want = opts != NULL ? opts->search : WL_SEARCH_AUTO;
    if (want != WL_SEARCH_VALUES && opts != NULL && opts->search != 0 &&
        want != WL_SEARCH_RF && want != WL_SEARCH_AUTO)
      return x->err = wl__err(ctx, WL_EINVAL, "unknown search %d", want);
    if (want != WL_SEARCH_VALUES && wl__xp_rf_applies(x, &why))
      x->rf = 1;
    else if (want == WL_SEARCH_RF)
      return x->err = wl__err(ctx, WL_EUNSUPPORTED,
                              "%s: the reads-from search does not apply: %s",
                              t->name, why);
  }
  if (x->rf && wl__xp_rf_skeletons(x))
    return 1;
  /* the value-domain fixpoint */
  for (; !x->rf;) {
    r->traces_cut = 0;
    if (wl__xp_gen_traces(x) || written_values(x))
      return 1;
    x->collecting = 1;
    x->grew = 0;
    rest_new(x);
    memset(chosen, 0, sizeof chosen);
    if (combo_dfs(x, 0, chosen, x->E, x->bs))
      return 1;
    x->collecting = 0;
    if (!x->grew)
      break;
    if (++rounds > 10000)
      return x->err = wl__err(ctx, WL_ELIMIT,
                              "%s: value domains do not converge", t->name);
  }
  if (wl__xp_check_shared(x))
    return 1;
  wl__xp_symmetry(x);
  /* the state vector: every register (callback threads may have added
   * results while they ran), then every location */
  wl__layout_init(&r->lay, t);
  x->laid = 1;
  if (opts != NULL && opts->observed_only && wl__xp_observed_key(x))
    return 1;
  return 0;
}

/* The search of the states, then the searches for a race and a hang,
 * into x->res: over every combination, or over those that start with
 * x->upath (x->ulen threads' traces chosen: a unit, split.c).  Non-zero
 * on failure (x->err). */
int wl__xp_search(xp *x) {
  const wl_explore_opts *opts = x->opts;
  const wl_trace *chosen[WL_MAX_THREADS];
  exe *E = x->E;
  bsched *bs = x->bs;
  memset(chosen, 0, sizeof chosen);
  if (x->rf ? wl__xp_rf_search(x, E, bs) : combo_dfs(x, 0, chosen, E, bs))
    return 1;
  if ((opts == NULL || !opts->no_checks) && x->cand == NULL &&
      (ub_pass(x, E, bs, XP_RACE) || ub_pass(x, E, bs, XP_LIVE)))
    return 1;
  return 0;
}

/* Ends the search of x->res: failed, a stop with keep_partial keeps
 * what was found (marked partial, 0 returned), any other failure
 * returns x->err; else the verdict is set.  The result is left in
 * x->res either way (the caller frees it on failure). */
int wl__xp_conclude(xp *x, int failed) {
  wl_ctx *ctx = x->ctx;
  const wl_explore_opts *opts = x->opts;
  wl_result *r = x->res;
  int err = failed ? x->err : 0;
  if (failed && err == 0)
    err = x->err = wl__err(ctx, WL_ENOMEM, "out of memory");
  if (failed && opts != NULL && opts->keep_partial &&
      (err == WL_ESTOPPED || (err == WL_ELIMIT && x->mem_stop))) {
    /* a stop, not a failure: keep what was found, saying why */
    const char *m = ctx->errmsg;
    if (!x->laid)
      wl__layout_init(&r->lay, x->t);
    r->partial = err;
    r->why = wl__strndup(ctx, m, strlen(m));
    err = r->why == NULL ? wl__err(ctx, WL_ENOMEM, "out of memory") : 0;
  }
  if (err == 0) {
    wl__xp_set_verdict(r);
    r->name = NULL;
  }
  return err;
}

/* Frees x, its execution and barrier scheduler (not x->res), with the
 * context's own allocator back in place. */
void wl__xp_close(xp *x) {
  wl_ctx *ctx;
  if (x == NULL)
    return;
  ctx = x->ctx;
  wl__xp_unwrap(x);
  xp_free(x);
  if (x->bs != NULL)
    wl__free(ctx, x->bs->out, (size_t)x->bs->capout * sizeof *x->bs->out);
  wl__free(ctx, x->bs, sizeof *x->bs);
  wl__free(ctx, x->E, sizeof *x->E);
  wl__free(ctx, x, sizeof *x);
}

int wl_explore(wl_ctx *ctx, const wl_litmus *t, const wl_explore_opts *opts,
               wl_result **out) {
  xp *x = NULL;
  wl_result *r;
  int err;
  if (ctx == NULL || t == NULL || out == NULL)
    return WL_EINVAL;
  *out = NULL;
  if ((err = wl__xp_open(ctx, t, opts, &x)) != 0)
    return err;
  err = wl__xp_conclude(x, wl__xp_prepare(x) || wl__xp_search(x));
  r = x->res;
  wl__xp_close(x);
  if (err) {
    wl_result_free(r);
    return err;
  }
  *out = r;
  return 0;
}
