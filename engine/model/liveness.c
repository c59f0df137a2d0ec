/* liveness.c -- hangs: spin loops that may never end and barriers that
 * never complete (issue 12), with Dat3M's liveness property as the
 * reference (the expectations of PTXv6_0-Liveness-expected.csv).
 *
 * The search (explore.c, mode XP_LIVE) goes over combinations in which
 * every thread has a trace that ends, or a stutter trace (traces.c: its
 * last iteration wrote nothing and came back to a loop head in a state
 * seen there: the spin part, events spin0..nev-1), with at least one
 * stutter trace or barrier; barrier schedules that leave threads
 * waiting are kept (barriers.c).  A consistent execution of such a
 * combination is a hang when
 *   - every thread ends, spins or waits at a barrier no phase completes
 *     (a bar.sync event with no phase that too few threads reach:
 *     blocks()), at least one not ending; and
 *   - every read of every spin part reads the coherence-last write of
 *     its location: the spin part can then run again and again reading
 *     the same values (nothing else will be written), which is a fair
 *     infinite execution.  Were some read to see an older write, a
 *     fair memory would eventually show it the newer one.
 * A waiting thread keeps the events after its barrier in the execution
 * (a simplification, said in warplab.h). */
#include <string.h>

#include "explore.h"

static int has_barrier(const xp *x, int th, const wl_trace *tr) {
  const wl_ev *ev = WL_VEC_PTR(&x->pool[th].ev, wl_ev, tr->ev0);
  int i;
  for (i = 0; i < tr->nev; i++)
    if (ev[i].type == EV_B)
      return 1;
  return 0;
}

/* Whether some barrier of the combination's traces has fewer arrivals
 * in all of them than it needs (blocks()' count, from the traces alone):
 * only such a barrier can leave a thread waiting for good. */
static int may_block(const xp *x, const exe *E) {
  const wl_litmus *t = x->t;
  int th, o, i, j;
  for (th = 0; th < t->nthreads; th++) {
    const wl_trace *tr = E->tr[th];
    const wl_ev *ev = WL_VEC_PTR(&x->pool[th].ev, wl_ev, tr->ev0);
    const wl_thread *tb = &t->threads[th];
    for (i = 0; i < tr->nev; i++) {
      const wl_ev *b = &ev[i];
      int arrivals = 0, need = 0;
      if (b->type != EV_B || b->bar_kind != BAR_SYNC)
        continue;
      for (o = 0; o < t->nthreads; o++) {
        const wl_trace *ot = E->tr[o];
        const wl_ev *oe = WL_VEC_PTR(&x->pool[o].ev, wl_ev, ot->ev0);
        const wl_thread *to = &t->threads[o];
        if (to->cta != tb->cta || to->gpu != tb->gpu)
          continue;
        for (j = 0; j < ot->nev; j++)
          arrivals += oe[j].type == EV_B && oe[j].bar_ns == b->bar_ns &&
                      oe[j].bar_id == b->bar_id;
      }
      if (b->has_count)
        need = (int)(b->bar_count < 1000 ? b->bar_count : 1000);
      else if (b->bar_ns == BARNS_PTX)
        for (o = 0; o < t->nthreads; o++)
          need += t->threads[o].cta == tb->cta && t->threads[o].gpu == tb->gpu;
      if (arrivals < need)
        return 1;
    }
  }
  return 0;
}

int wl__xp_live_combo(const xp *x, const exe *E) {
  int th, spin = 0, bar = 0;
  for (th = 0; th < x->t->nthreads; th++) {
    const wl_trace *tr = E->tr[th];
    if (tr->cut == 1)
      return 0; /* cut by the bound: not an execution that could hang */
    spin |= tr->cut == 2;
    bar |= has_barrier(x, th, tr);
  }
  return spin || (bar && may_block(x, E));
}

/* Whether barrier event k, which no phase completed, blocks its thread
 * for good.  Dat3M's rule (Barrier/quorum*.litmus): a barrier blocks
 * when fewer arrivals than it expects reach it in the whole execution
 * (its thread count; without one, every thread of the CTA for PTX's
 * bar.sync, every thread of the CTA that uses it in Dat3M's dialect,
 * which its users always reach).  Arrivals left over past a completed
 * phase are not counted as a hang (a deliberate simplification that
 * follows the corpus: quorum2-pass expects none). */
static int blocks(const xp *x, const exe *E, int k) {
  const wl_litmus *t = x->t;
  const wl_ev *b = &E->ev[k];
  const wl_thread *tb = &t->threads[E->thread[k]];
  int i, arrivals = 0, need = 0, th;
  for (i = E->ninit; i < E->n; i++) {
    const wl_ev *o = &E->ev[i];
    const wl_thread *to = &t->threads[E->thread[i]];
    if (o->type == EV_B && o->bar_ns == b->bar_ns && o->bar_id == b->bar_id &&
        to->cta == tb->cta && to->gpu == tb->gpu)
      arrivals++;
  }
  if (b->has_count)
    need = (int)(b->bar_count < 1000 ? b->bar_count : 1000);
  else if (b->bar_ns == BARNS_PTX)
    for (th = 0; th < t->nthreads; th++)
      need += t->threads[th].cta == tb->cta && t->threads[th].gpu == tb->gpu;
  return arrivals < need;
}

/* Whether read k (of location l) sees the last value of l for good:
 * every write coherence-after the one it reads is an RMW of a spin part
 * (spin_from: each thread's first spin event, E->n when it does not
 * spin) that writes that same value back -- a failed exch of a lock,
 * which traces.c counts as a stutter -- so running the spin parts again
 * reads the same values. */
static int reads_last(const exe *E, const int *spin_from, int k) {
  int l = E->ev[k].loc, w = E->rf[k], p, q;
  if (E->nlocs == 0 || E->nwl[l] == 0)
    return w == E->initloc[l];
  for (p = 0; p < E->nwl[l] && E->wl[l][p] != w; p++)
    ;
  if (p == E->nwl[l])
    return 0;
  for (q = p + 1; q < E->nwl[l]; q++) {
    int u = E->wl[l][q];
    if (!E->ev[u].rmw || E->thread[u] < 0 || u < spin_from[E->thread[u]] ||
        E->ev[u].val != E->ev[w].val)
      return 0;
  }
  return 1;
}

int wl__xp_live_found(xp *x, const exe *E) {
  const wl_litmus *t = x->t;
  wl_hang_info h;
  int th, i, base[WL_MAX_THREADS + 1], first = -1, any = 0;
  int spin_from[WL_MAX_THREADS];
  memset(&h, 0, sizeof h);
  h.nthreads = t->nthreads;
  for (th = 0; th <= t->nthreads; th++)
    base[th] = E->n;
  for (i = E->n - 1; i >= E->ninit; i--)
    base[E->thread[i]] = i;
  for (th = t->nthreads - 1; th >= 0; th--)
    if (base[th] > base[th + 1])
      base[th] = base[th + 1]; /* a thread without events */
  for (th = 0; th < t->nthreads; th++)
    spin_from[th] = E->tr[th]->cut == 2 ? base[th] + E->tr[th]->spin0 : E->n;
  for (th = 0; th < t->nthreads; th++) {
    const wl_trace *tr = E->tr[th];
    int end = base[th] + tr->nev, k;
    /* waiting at a barrier no phase completes */
    for (k = base[th]; k < end; k++)
      if (E->ev[k].type == EV_B && E->ev[k].bar_kind == BAR_SYNC &&
          E->phase[k] < 0 && blocks(x, E, k))
        break;
    if (k < end) {
      h.status[th] = 2;
      h.at_line[th] = E->ev[k].line;
      if (first < 0)
        first = th;
      any = 1;
      continue;
    }
    if (tr->cut != 2)
      continue;
    /* spinning: every read of the spin part reads the co-last write */
    for (k = base[th] + tr->spin0; k < end; k++)
      if (E->ev[k].type == EV_R && !reads_last(E, spin_from, k))
        return 0; /* not fair: the thread would see a newer write */
    h.status[th] = 1;
    h.at_line[th] = tr->spin_line;
    any = 1;
  }
  if (!any)
    return 0;
  /* the report names a spinning thread first, else a waiting one */
  for (th = 0; th < t->nthreads; th++)
    if (h.status[th] == 1)
      break;
  if (th == t->nthreads) {
    th = first;
    h.kind = WL_HANG_BARRIER;
  } else {
    const wl_trace *tr = E->tr[th];
    int k;
    h.kind = WL_HANG_SPIN;
    for (k = base[th] + tr->spin0; k < base[th] + tr->nev; k++)
      if (E->ev[k].type == EV_R && h.nreads < WL_HANG_MAX_READS) {
        h.loc[h.nreads] = E->ev[k].loc;
        h.value[h.nreads] = E->ev[k].val;
        h.nreads++;
      }
  }
  h.thread = th;
  h.line = h.at_line[th];
  if (h.kind == WL_HANG_BARRIER) {
    /* the barrier the named thread waits at */
    int k;
    for (k = base[th]; k < base[th] + E->tr[th]->nev; k++)
      if (E->ev[k].type == EV_B && E->ev[k].bar_kind == BAR_SYNC &&
          E->phase[k] < 0 && blocks(x, E, k)) {
        h.barrier = E->ev[k].bar_id;
        break;
      }
  }
  x->res->hang = h;
  x->res->hang_found = 1;
  x->ub_done = 1;
  return 0;
}

int wl_result_hang(const wl_result *r, wl_hang_info *out) {
  if (r == NULL || !r->hang_checked)
    return -1;
  if (r->hang_found && out != NULL)
    *out = r->hang;
  return r->hang_found;
}

/* Whether some thread has a trace that spins (a stutter) or meets a
 * barrier: otherwise nothing can hang and the search is skipped. */
int wl__xp_live_any(const xp *x) {
  int th;
  size_t k;
  for (th = 0; th < x->t->nthreads; th++)
    for (k = 0; k < x->pool[th].traces.n; k++) {
      const wl_trace *tr = WL_VEC_PTR(&x->pool[th].traces, wl_trace, k);
      if (tr->cut == 2 || has_barrier(x, th, tr))
        return 1;
    }
  return 0;
}

/* Whether w can be the co-last write of location l in a hang: every
 * read of l in a spin part reads w, or a write that w follows as a
 * failed lock exch of a spin part (the same value, written back):
 * reads_last() asks that of the complete execution. */
int wl__xp_live_colast_ok(const xp *x, const exe *E, int l, int w) {
  int th, i, base = E->ninit;
  (void)x;
  for (th = 0; th < x->t->nthreads; th++) {
    const wl_trace *tr = E->tr[th];
    if (tr->cut == 2)
      for (i = base + tr->spin0; i < base + tr->nev; i++) {
        int src;
        if (E->ev[i].type != EV_R || E->ev[i].loc != l)
          continue;
        src = E->rf[i];
        if (src == w)
          continue;
        if (!(E->ev[w].rmw && E->thread[w] >= 0 &&
              E->tr[E->thread[w]]->cut == 2 &&
              E->ev[w].val == E->ev[src].val))
          return 0;
      }
    base += tr->nev;
  }
  return 1;
}
