/* barriers.c -- the barrier schedules of an execution: every
 * order in which threads arrive at barriers, reduced to the distinct
 * phase assignments (which arrivals complete which phase). */
#include <stdio.h>
#include <string.h>

#include "explore.h"

static int same_key(const exe *E, const wl_litmus *t, int a, int b) {
  const wl_ev *x = &E->ev[a], *y = &E->ev[b];
  const wl_thread *ta = &t->threads[E->thread[a]],
                  *tb = &t->threads[E->thread[b]];
  return x->bar_ns == y->bar_ns && x->bar_id == y->bar_id &&
         ta->cta == tb->cta && ta->gpu == tb->gpu;
}

/* A PTX barrier without a thread count (bar.sync 0, __syncthreads())
 * waits for every thread of the CTA: if some thread of the CTA can end
 * without arriving, the program is wrong (a divergent barrier; on a GPU
 * it hangs or is undefined), and the exploration fails saying where. */
static int barrier_divergence(xp *x, const bsched *s, const exe *E, int th,
                              int e) {
  const wl_litmus *t = x->t;
  const wl_thread *w = &t->threads[th];
  char others[160];
  size_t n = 0;
  int o;
  others[0] = '\0';
  for (o = 0; o < t->nthreads; o++) {
    const wl_thread *ot = &t->threads[o];
    int j, arrived = 0;
    if (o == th || ot->cta != w->cta || ot->gpu != w->gpu)
      continue;
    for (j = 0; j < s->pos[o]; j++)
      if (E->ev[s->bev[o][j]].bar_id == E->ev[e].bar_id &&
          s->phase[s->bev[o][j]] < 0)
        arrived = 1;
    if (!arrived && n + 8 < sizeof others)
      n += (size_t)snprintf(others + n, sizeof others - n, "%s%s",
                            n ? ", " : "", ot->name);
  }
  return x->err = wl__err(
             x->ctx, WL_EINVAL,
             "%s:%d: thread %s (CTA %d): barrier divergence: it waits at "
             "barrier %lld (bar.sync / __syncthreads) for every thread of "
             "its CTA, but %s can finish without arriving there",
             t->filename ? t->filename : t->name, E->ev[e].line, w->name,
             w->cta, (long long)E->ev[e].bar_id, n ? others : "another thread");
}

/* The place of the first barrier of the schedule, for its limits. */
static const char *bs_place(const xp *x, const bsched *s, const exe *E,
                            char *buf, size_t n) {
  int th;
  for (th = 0; th < x->t->nthreads; th++)
    if (s->nb[th] > 0)
      return wl__xp_ev_place(x, th, &E->ev[s->bev[th][0]], buf, n);
  return wl__xp_ev_place(x, -1, NULL, buf, n);
}

static int bs_record(xp *x, bsched *s, const exe *E) {
  int th, i, k;
  /* a thread blocked before the end of its program hangs: the execution
   * does not terminate and has no final state */
  for (th = 0; th < x->t->nthreads; th++) {
    if (s->waiting[th]) {
      int e = s->bev[th][s->pos[th] - 1];
      /* the liveness search (liveness.c) keeps every schedule: a
       * thread left waiting is a hang it reports */
      if (x->mode == XP_LIVE)
        break;
      if (E->ev[e].bar_ns == BARNS_PTX && !E->ev[e].has_count && !E->cut)
        return barrier_divergence(x, s, E, th, e);
      if (!E->ev[e].bar_tail)
        return 0;
    }
  }
  if (x->mode == XP_STATES && wl__xp_bar_divergence(x, s, E))
    return x->err;
  for (k = 0; k < s->nout; k++)
    if (memcmp(s->out[k], s->phase, (size_t)E->n * sizeof s->phase[0]) == 0)
      return 0;
  if (s->nout == s->capout) {
    int cap = s->capout ? s->capout * 2 : 4;
    void *p;
    if (cap > 4096) {
      char where[300];
      return x->err = wl__err(x->ctx, WL_ELIMIT,
                              "%s: too many barrier schedules",
                              bs_place(x, s, E, where, sizeof where));
    }
    p = wl__realloc(x->ctx, s->out, (size_t)s->capout * sizeof *s->out,
                    (size_t)cap * sizeof *s->out);
    if (p == NULL)
      return x->err = wl__err(x->ctx, WL_ENOMEM, "out of memory");
    s->out = p;
    s->capout = cap;
  }
  memcpy(s->out[s->nout], s->phase, sizeof s->out[0]);
  (void)i;
  s->nout++;
  return 0;
}

/* Explores every order in which threads arrive at barriers.  A phase of
 * a barrier completes when its expected number of arrivals is reached;
 * bar.sync waits for its phase, bar.arrive does not. */
static int bs_dfs(xp *x, bsched *s, const exe *E) {
  int th, moved = 0;
  if (++s->steps > 2000000) {
    char where[300];
    return x->err = wl__err(x->ctx, WL_ELIMIT,
                            "%s: too many barrier interleavings",
                            bs_place(x, s, E, where, sizeof where));
  }
  for (th = 0; th < x->t->nthreads && !x->err; th++) {
    int e, key, k, done = 0;
    if (s->waiting[th] || s->pos[th] >= s->nb[th])
      continue;
    moved = 1;
    e = s->bev[th][s->pos[th]];
    key = s->evkey[e];
    s->pos[th]++;
    s->open[key][s->nopen[key]++] = e;
    if (E->ev[e].bar_kind == BAR_SYNC)
      s->waiting[th] = 1;
    if (s->nopen[key] >= s->need[key] ||
        (E->ev[e].has_count && s->nopen[key] >= E->ev[e].bar_count)) {
      /* the phase completes */
      int saved[WL_MAX_EVENTS], ns = s->nopen[key];
      int16_t id = (int16_t)s->nphase++;
      memcpy(saved, s->open[key], (size_t)ns * sizeof saved[0]);
      for (k = 0; k < ns; k++) {
        s->phase[saved[k]] = id;
        s->waiting[E->thread[saved[k]]] = 0;
      }
      s->nopen[key] = 0;
      done = 1;
      bs_dfs(x, s, E);
      s->nopen[key] = ns;
      memcpy(s->open[key], saved, (size_t)ns * sizeof saved[0]);
      for (k = 0; k < ns; k++) {
        s->phase[saved[k]] = -1;
        if (E->ev[saved[k]].bar_kind == BAR_SYNC)
          s->waiting[E->thread[saved[k]]] = 1;
      }
      s->nphase--;
    }
    if (!done)
      bs_dfs(x, s, E);
    s->nopen[key]--;
    s->waiting[th] = 0;
    s->pos[th]--;
  }
  if (!moved)
    return bs_record(x, s, E);
  return x->err;
}

/* Fills s->out with the distinct barrier outcomes (phase of each event,
 * -1 for none); returns the count (0: every schedule hangs). */
int wl__xp_barrier_outcomes(xp *x, bsched *s, const exe *E) {
  const wl_litmus *t = x->t;
  int i, k, th;
  s->nout = 0;
  s->nkeys = 0;
  s->nphase = 0;
  s->steps = 0;
  memset(s->nb, 0, sizeof s->nb);
  memset(s->pos, 0, sizeof s->pos);
  memset(s->waiting, 0, sizeof s->waiting);
  for (i = 0; i < E->n; i++) {
    s->phase[i] = -1;
    if (E->ev[i].type != EV_B)
      continue;
    th = E->thread[i];
    s->bev[th][s->nb[th]++] = i;
    for (k = 0; k < s->nkeys; k++)
      if (same_key(E, t, s->keyev[k], i))
        break;
    if (k == s->nkeys) {
      s->keyev[k] = i;
      s->nopen[k] = 0;
      s->nkeys++;
    }
    s->evkey[i] = k;
  }
  if (s->nkeys == 0) {
    if (s->capout == 0) {
      s->out = wl__alloc(x->ctx, sizeof *s->out);
      if (s->out == NULL)
        return x->err = wl__err(x->ctx, WL_ENOMEM, "out of memory");
      s->capout = 1;
    }
    memcpy(s->out[0], s->phase, sizeof s->out[0]);
    s->nout = 1;
    return 0;
  }
  /* expected arrivals per phase: the thread count when given; otherwise
   * every thread of the CTA (PTX bar.sync), or, in Dat3M's dialect,
   * every thread of the CTA that uses this barrier in the execution */
  for (k = 0; k < s->nkeys; k++) {
    int e = s->keyev[k], cnt = 0;
    const wl_thread *te = &t->threads[E->thread[e]];
    for (th = 0; th < t->nthreads; th++) {
      const wl_thread *tt = &t->threads[th];
      int uses = 0, j;
      if (tt->cta != te->cta || tt->gpu != te->gpu)
        continue;
      if (E->ev[e].bar_ns == BARNS_PTX) {
        cnt++;
        continue;
      }
      for (j = 0; j < s->nb[th]; j++)
        if (s->evkey[s->bev[th][j]] == k)
          uses = 1;
      cnt += uses;
    }
    s->need[k] = cnt;
    if (E->ev[e].has_count)
      s->need[k] =
          E->ev[e].bar_count > 0
              ? (int)(E->ev[e].bar_count < 1000 ? E->ev[e].bar_count : 1000)
              : 1;
  }
  bs_dfs(x, s, E);
  return x->err;
}
