/* exe.c -- a combination of traces as one execution: its events
 * (initial writes first, then each thread's events in program order)
 * and the relations fixed before any choice: po, po-loc, rmw,
 * dependencies, morally strong, release and acquire patterns. */
#include <stdio.h>
#include <string.h>

#include "explore.h"

/* ---------------------------------------------------------------- */
/* 2. Candidate executions                                           */


static int is_mem(const wl_ev *e) { return e->type == EV_R || e->type == EV_W; }

/* strong (strength.h): an access not .weak, or a fence (which always
 * carries a scope); barriers are not (their order is syncbar's). */
static int is_strong(const wl_ev *e) {
  if (e->type == EV_F)
    return 1;
  if (e->type == EV_B)
    return 0;
  return wl__sem_strong(e->sem);
}

/* e of thread th, as morally strong sees it */
static wl__msop ms_side(const exe *E, const wl_thread *th, int i) {
  wl__msop o;
  o.strong = es_has(E->strong, i);
  o.scope = E->ev[i].scope;
  o.cta = th->cta;
  o.gpu = th->gpu;
  return o;
}

/* Builds the static relations of a combination of traces. */
int wl__xp_build_exe(xp *x, exe *E) {
  const wl_litmus *t = x->t;
  int th, i, j, n = 0, l, bth = -1;
  uint64_t used = 0; /* locations (at most WL_MAX_LOCS = 64) */
  const wl_ev *bev = NULL; /* toobig: the event past the limit */
  char where[300];
  memset(E->initloc, -1, sizeof E->initloc);
  /* which locations are accessed */
  for (th = 0; th < t->nthreads; th++) {
    const wl_trace *tr = E->tr[th];
    const wl_ev *ev = WL_VEC_PTR(&x->pool[th].ev, wl_ev, tr->ev0);
    for (i = 0; i < tr->nev; i++)
      if (is_mem(&ev[i]))
        used |= 1ull << ev[i].loc;
  }
  E->nlocs = 0;
  for (l = 0; l < t->nlocs; l++) {
    if (!(used >> l & 1))
      continue;
    if (n >= WL_MAX_EVENTS)
      goto toobig;
    memset(&E->ev[n], 0, sizeof E->ev[n]);
    E->ev[n].type = EV_W;
    E->ev[n].loc = (int16_t)l;
    E->ev[n].vloc = (int16_t)l;
    E->ev[n].val = t->locinit[l];
    E->ev[n].sem = WL_SEM_WEAK;
    E->thread[n] = -1;
    E->initloc[l] = n;
    E->locs[E->nlocs++] = l;
    n++;
  }
  E->ninit = (int16_t)n;
  E->cut = 0;
  for (th = 0; th < t->nthreads; th++) {
    const wl_trace *tr = E->tr[th];
    const wl_ev *ev = WL_VEC_PTR(&x->pool[th].ev, wl_ev, tr->ev0);
    if (tr->cut)
      E->cut = 1;
    if (n + tr->nev > WL_MAX_EVENTS) {
      bth = th;
      bev = &ev[n < WL_MAX_EVENTS ? WL_MAX_EVENTS - n : 0];
      goto toobig;
    }
    for (i = 0; i < tr->nev; i++) {
      E->ev[n + i] = ev[i];
      E->thread[n + i] = (int8_t)th;
    }
    n += tr->nev;
  }
  E->n = n;
  rel_zero(E->po, n);
  rel_zero(E->poloc, n);
  rel_zero(E->rmw, n);
  rel_zero(E->dep, n);
  rel_zero(E->ms, n);
  E->setR = E->setW = E->setF = E->setB = E->setSC = E->strong = ES_EMPTY;
  E->nreads = 0;
  E->nscf = 0;
  {
    int base = E->ninit;
    for (th = 0; th < t->nthreads; th++) {
      int m = E->tr[th]->nev;
      for (i = 0; i < m; i++) {
        int a = base + i;
        uint64_t d = E->ev[a].deps; /* trace-local: < WL_MAX_TEV */
        E->po[a] = es_range(a + 1, base + m);
        while (d) {
          int k = __builtin_ctzll(d);
          d &= d - 1;
          rel_add(E->dep, base + k, a);
        }
        if (E->ev[a].type == EV_R && E->ev[a].rmw)
          rel_add(E->rmw, a, a + 1);
      }
      base += m;
    }
  }
  for (i = 0; i < n; i++) {
    const wl_ev *e = &E->ev[i];
    if (e->type == EV_R) {
      es_add(&E->setR, i);
      E->reads[E->nreads++] = i;
    } else if (e->type == EV_W) {
      es_add(&E->setW, i);
    } else if (e->type == EV_F) {
      es_add(&E->setF, i);
      if (e->sem == WL_SEM_SC) {
        if (E->nscf == WL_MAX_SCF)
          return x->err = wl__err(x->ctx, WL_ELIMIT,
                                  "%s: more than %d fence.sc in one "
                                  "execution",
                                  wl__xp_ev_place(x, E->thread[i], e, where,
                                                  sizeof where),
                                  WL_MAX_SCF);
        es_add(&E->setSC, i);
        E->scf[E->nscf++] = i;
      }
    } else {
      es_add(&E->setB, i);
    }
    if (E->thread[i] >= 0 && is_strong(e))
      es_add(&E->strong, i);
  }
  /* po-loc, morally strong */
  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++) {
      const wl_ev *a = &E->ev[i], *b = &E->ev[j];
      int mm = is_mem(a) && is_mem(b);
      if (i == j)
        continue;
      if (mm && a->loc == b->loc && rel_has(E->po, i, j))
        rel_add(E->poloc, i, j);
      if (E->thread[i] < 0 || E->thread[j] < 0)
        continue; /* initial writes are weak and in no program order */
      /* morally strong (strength.h): the same location for accesses,
       * and the same thread or both strong with scopes that include
       * each other's thread.  Barriers are left out: the cat counts
       * them as fences of .cta scope, but nothing of the explorer reads
       * ms of a barrier (their order is syncbar's, barriers.c). */
      if (a->type == EV_B || b->type == EV_B)
        continue;
      if (wl__morally_strong(E->thread[i] == E->thread[j],
                             !mm || a->loc == b->loc,
                             ms_side(E, &t->threads[E->thread[i]], i),
                             ms_side(E, &t->threads[E->thread[j]], j)))
        rel_add(E->ms, i, j);
    }
  }
  /* release pattern: [W&REL]; po-loc?; [strong-write]
   *                | [F&ACQ_REL]; po; [strong-write]
   * acquire pattern: [strong-read]; po-loc?; [R&ACQ]
   *                | [strong-read]; po; [F&ACQ_REL]
   * (fence.sc counts as a fence.acq_rel: FenceSC extends FenceAcqRel.)
   * A read or write event's semantics is its own (an RMW's two halves
   * have theirs, wl__rmw_read_sem / wl__rmw_write_sem), so W&REL and
   * R&ACQ are wl__sem_releases and wl__sem_acquires of events. */
  rel_zero(E->rp, n);
  rel_zero(E->ap, n);
  {
    evset sw = es_and(E->setW, E->strong), sr = es_and(E->setR, E->strong);
    evset acq = ES_EMPTY;
    for (i = 0; i < n; i++)
      if (E->ev[i].type == EV_R && wl__sem_acquires(E->ev[i].sem))
        es_add(&acq, i);
    for (i = 0; i < n; i++) {
      const wl_ev *e = &E->ev[i];
      if (E->thread[i] < 0)
        continue;
      if (e->type == EV_W && wl__sem_releases(e->sem)) {
        E->rp[i] = es_or(E->rp[i], es_and(E->poloc[i], sw));
        rel_add(E->rp, i, i);
      }
      if (e->type == EV_F)
        E->rp[i] = es_or(E->rp[i], es_and(E->po[i], sw));
      if (e->type == EV_R && es_has(sr, i)) {
        E->ap[i] = es_or(E->ap[i], es_and(E->poloc[i], acq));
        if (wl__sem_acquires(e->sem))
          rel_add(E->ap, i, i);
        E->ap[i] = es_or(E->ap[i], es_and(E->po[i], E->setF));
      }
    }
  }
  return 0;
toobig:
  for (th = 0, i = 0; th < t->nthreads; th++)
    i |= E->tr[th] != NULL && E->tr[th]->looped;
  return x->err = wl__err(
             x->ctx, WL_ELIMIT,
             "%s: an execution has more than %d events (the explorer's "
             "limit per execution); %s",
             wl__xp_ev_place(x, bth, bev, where, sizeof where),
             WL_MAX_EVENTS,
             i ? "lower the unroll bound (--unroll N, explore{unroll = N}) "
                 "or split the test"
               : "no loop is unrolled (straight-line code), so --unroll "
                 "does not help: split the test into smaller ones (fewer "
                 "threads or accesses)");
}
