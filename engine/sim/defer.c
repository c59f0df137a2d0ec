/* defer.c -- deferred loads of kernel lanes (wl_launch_cfg.defer), as
 * the litmus sampler defers a program's loads (sample.c): a global load
 * that would read L2 may give its lane the value L2 holds now and be
 * performed later, past the lane's later accesses to other locations.
 * The host code of a lane cannot wait for a value, so the lane goes on
 * with the value read at issue; when the load is performed and reads
 * another value, the host replays the lane with it (bindings/lkreplay.c)
 * and the replay takes the lane's place only if it makes the same
 * events, as the sampler's callback threads are probed (cbreplay.c).
 * warplab.h (wl_kernel_replay_load) states the rules; the knobs are the
 * profile's defer, late, stwait, fcta and linger (a store that must
 * wait for the lane's loads may wait a turn with them in flight).  A lane's pending loads live
 * in its SM's list (at most DEFER_SM), a few per lane (DEFER_LANE), so
 * that an SM's write at L2 marks those it must not be read by (own). */
#include <stdint.h>
#include <string.h>

#include "../common/internal.h"
#include "sim.h"

#define DEFER_LANE 8 /* pending loads per lane (the sampler's SIM_PEND) */
#define DEFER_SM 64  /* per SM */

static int overlaps(const dpend *p, int id, uint64_t off, int width) {
  return p->id == id && p->off < off + (uint64_t)width &&
         off < p->off + (uint64_t)p->width;
}

int wl__sim_defer_load(wl_launch *l, slot *s, int thread, const wl_access *a,
                       const uint8_t *p, uint64_t addr, void *data) {
  sm_st *m = &l->sms[s->sm];
  dlane *d;
  dpend *e;
  if (s->dl == NULL)
    return 0;
  d = &s->dl[thread];
  /* loads at L2 only, as in the sampler: no acquire, none the SM's
   * buffer holds a store for or its L1 serves (wl__sim_goes_to_l2) */
  if (d->norep || d->np >= DEFER_LANE || m->dpend.n >= DEFER_SM ||
      a->sem == WL_SEM_ACQUIRE || !wl__sim_goes_to_l2(m, a, addr) ||
      !wl__sim_knob(l, l->prof->defer))
    return 0;
  if ((e = wl__vec_push(l->ctx, &m->dpend)) == NULL)
    return 0; /* no memory: performed now */
  e->block = s->block;
  e->thread = thread;
  e->id = a->id;
  e->width = a->width;
  e->off = a->off;
  e->ev = d->nev + s->warps[thread / 32].nev;
  e->own = 0;
  memcpy(e->v0, p, (size_t)a->width);
  memcpy(data, p, (size_t)a->width);
  d->np++;
  s->npend++;
  l->ndefer++;
  return 1;
}

/* Removes entry i of SM m's list. */
static dpend take(wl_launch *l, sm_st *m, slot *s, size_t i) {
  dpend *e = WL_VEC_PTR(&m->dpend, dpend, i), p = *e;
  size_t j;
  for (j = i + 1; j < m->dpend.n; j++) /* a few: no memmove */
    e[j - i - 1] = e[j - i];
  m->dpend.n--;
  l->ndefer--;
  s->dl[p.thread].np--;
  s->npend--;
  return p;
}

/* Performs entry i of SM m's list (a load of a lane of s) at L2 now. */
static int complete(wl_launch *l, sm_st *m, slot *s, size_t i) {
  dpend p = take(l, m, s, i);
  alloc *al = get_alloc(l->dev, p.id);
  const uint8_t *v;
  /* its SM wrote there since: the newest write but those would be older
   * than what L2 holds; the value read at issue stands (sample.c reads
   * L2's history instead) */
  if (al == NULL || p.own)
    return 0;
  v = al->data + p.off;
  /* as a load at L2: the SM's copy is refreshed, so that a later load
   * served by L1 does not read older than it did */
  wl__sim_l1_from_l2(m, p.id, p.off, al->base + p.off, v, p.width);
  if (memcmp(v, p.v0, (size_t)p.width) == 0 || s->dl[p.thread].norep)
    return 0;
  l->rep.block = p.block;
  l->rep.thread = p.thread;
  l->rep.width = p.width;
  l->rep.ev = p.ev;
  memcpy(l->rep.v, v, (size_t)p.width);
  return WL_KERNEL_REPLAY;
}

/* Whether a store of data (access a) may use the value of one of the
 * lane's deferred loads: it holds the bytes one of them read.  The host
 * code's registers are out of sight, so this stands for the sampler's
 * "never past an instruction that uses its register" (a store of a
 * loaded value waits for the load, as its data is not there before);
 * waiting when it need not is only a slower schedule. */
static int uses_pending(const sm_st *m, const slot *s, int thread,
                        const wl_access *a, const void *data) {
  size_t i;
  for (i = 0; i < m->dpend.n; i++) {
    const dpend *p = WL_VEC_PTR(&m->dpend, dpend, i);
    if (p->block == s->block && p->thread == thread &&
        p->width == a->width && memcmp(p->v0, data, (size_t)a->width) == 0)
      return 1;
  }
  return 0;
}

int wl__sim_defer_hazards(wl_launch *l, slot *s, int thread,
                          const wl_access *a, const void *data,
                          int may_wait) {
  sm_st *m = &l->sms[s->sm];
  const knobs *k = l->prof;
  int all, global, rc;
  size_t i;
  if (s->dl == NULL || s->dl[thread].np == 0)
    return 0;
  l->rep.width = 0;
  all = a == NULL || a->kind == WL_ACC_ATOMIC ||
        (a->kind == WL_ACC_LOAD && a->sem == WL_SEM_ACQUIRE) ||
        (a->kind == WL_ACC_STORE &&
         (a->sem == WL_SEM_RELEASE || s->dl[thread].swait ||
          wl__sim_knob(l, k->stwait) ||
          uses_pending(m, s, thread, a, data)));
  s->dl[thread].swait = 0;
  global = a != NULL &&
           (a->space == WL_SPACE_GLOBAL || a->space == WL_SPACE_MANAGED);
  /* a store that must wait for some of them may wait its turn out
   * (linger: they stay in flight while other lanes run) */
  if (may_wait && a != NULL && a->kind == WL_ACC_STORE &&
      a->sem != WL_SEM_RELEASE && k->linger > 0 && wl__sim_knob(l, k->linger)) {
    for (i = 0; i < m->dpend.n; i++) {
      const dpend *p = WL_VEC_PTR(&m->dpend, dpend, i);
      if (p->block == s->block && p->thread == thread &&
          (all || (global && overlaps(p, a->id, a->off, a->width)))) {
        s->dl[thread].swait = all;
        wl__sim_drain_step(l, s->sm); /* the memory system goes on */
        return WL_KERNEL_WAIT;
      }
    }
  }
  if (!all && k->late > 0 && wl__sim_knob(l, k->late)) {
    /* one of them, instead of waiting longer (the sampler's late) */
    int nth = pick(&l->rng, s->dl[thread].np);
    for (i = 0; i < m->dpend.n; i++) {
      const dpend *p = WL_VEC_PTR(&m->dpend, dpend, i);
      if (p->block == s->block && p->thread == thread && nth-- == 0)
        return complete(l, m, s, i);
    }
  }
  for (i = 0; i < m->dpend.n && s->dl[thread].np > 0;) {
    const dpend *p = WL_VEC_PTR(&m->dpend, dpend, i);
    if (p->block == s->block && p->thread == thread &&
        (all || (global && overlaps(p, a->id, a->off, a->width)))) {
      if ((rc = complete(l, m, s, i)) != 0)
        return rc;
    } else {
      i++;
    }
  }
  return 0;
}

void wl__sim_defer_drop(wl_launch *l, slot *s, int thread) {
  sm_st *m = &l->sms[s->sm];
  size_t i;
  if (s->dl == NULL)
    return;
  for (i = 0; i < m->dpend.n && s->dl[thread].np > 0;) {
    const dpend *p = WL_VEC_PTR(&m->dpend, dpend, i);
    if (p->block == s->block && p->thread == thread)
      take(l, m, s, i);
    else
      i++;
  }
}

void wl__sim_defer_l2w(wl_launch *l, sm_st *m, int id, uint64_t off,
                       int width) {
  size_t i;
  (void)l;
  for (i = 0; i < m->dpend.n; i++) {
    dpend *p = WL_VEC_PTR(&m->dpend, dpend, i);
    if (overlaps(p, id, off, width))
      p->own = 1;
  }
}

int wl_kernel_replay_load(const wl_launch *l, int block, int thread,
                          uint32_t *ev, void *v) {
  if (l->rep.width == 0 || l->rep.block != block || l->rep.thread != thread)
    return 0;
  *ev = l->rep.ev;
  memcpy(v, l->rep.v, (size_t)l->rep.width);
  return l->rep.width;
}

int wl_kernel_defer_lane(wl_launch *l, int block, int thread, int on) {
  slot *s = slot_of(l, block);
  if (s == NULL || thread < 0 || thread >= l->nthreads)
    return wl__err(l->ctx, WL_EINVAL, "wl_kernel_defer_lane: no such thread");
  if (on < 0)
    return s->dl != NULL && !s->dl[thread].norep;
  if (s->dl != NULL && !on) {
    s->dl[thread].norep = 1;
    /* those pending keep their first values (performed at issue): the
     * host could not replay the lane for a new one, nor let a store of
     * it wait for them */
    wl__sim_defer_drop(l, s, thread);
  }
  return 0;
}
