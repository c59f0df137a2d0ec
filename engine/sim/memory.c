/* memory.c -- the kernel device's use of the one memory system
 * (engine/mem/): each SM's store buffer (sbuf.h: a store of an
 * allocation's bytes is an entry per 8-byte word, drained to L2 -- the
 * allocations' bytes, the point of coherence -- out of order across
 * words and in order per byte) and its L1 (l1.h's policy; the copies of
 * 32-byte sectors live on the cost model's L1 lines, cache.h, so a line
 * the cost model evicts takes its copies along).  The pace and the
 * choices are the profile's (engine/mem/profile.h), its knobs meaning
 * what they mean in the litmus sampler (machine.h): drain, reorder,
 * hold, direct and evict here, fcta in access.c, stall in launch.c
 * (waited_turn).  Kernel loads may be deferred when the host can replay
 * its lanes (defer.c: defer, late, stwait and fcta; linger and wlate
 * have no kernel meaning, as loads pending at a lane's end or a
 * gpu-scope fence are performed there); the knobs of threads' own
 * queues, overtaking in an SM's buffer, cta-scope atomics and links
 * (thq, otfwd, otld, atl2, link, pass, swap) have no kernel meaning yet:
 * kernels' stores go straight to their SM's buffer, an SM's buffer keeps
 * each byte's stores in order, global atomics are performed at L2 and
 * a device is one GPU. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../check/check.h"
#include "../common/internal.h"
#include "../perf/perf.h"
#include "../mem/l1.h"
#include "../mem/order.h"
#include "../program/ir.h"
#include "sim.h"

/* ------------------------- memory system -------------------------- */

static uint64_t get_bits(const uint8_t *p, int width) {
  uint64_t v = 0;
  memcpy(&v, p, (size_t)(width > 8 ? 8 : width)); /* little-endian hosts */
  return v;
}

static int64_t to_carrier(int type, uint64_t bits) {
  switch (type) {
  case WL_TYPE_INT32:
    return (int64_t)(int32_t)(uint32_t)bits;
  case WL_TYPE_UINT32:
  case WL_TYPE_FLOAT:
    return (int64_t)(uint32_t)bits;
  case WL_TYPE_INT16:
    return (int64_t)(int16_t)(uint16_t)bits;
  case WL_TYPE_UINT16:
  case WL_TYPE_HALF:
    return (int64_t)(uint16_t)bits;
  default:
    return (int64_t)bits;
  }
}

/* ------------------------------ L1 ------------------------------- */

/* The SM's L1 keeps its copies of 32-byte sectors on the cost model's
 * lines (engine/mem/cache.h: a copy only while the cost model holds its
 * sector); the policy is engine/mem/l1.h's, as in the sampler. */

/* The SM's copy of the bytes [addr, addr+width) (one sector), or NULL. */
static uint8_t *l1_copy(const sm_st *m, uint64_t addr, int width) {
  uint8_t *c;
  if (!m->copies || addr % 32 + (uint64_t)width > 32 ||
      (c = wl__cache_copy(m->pl1, addr)) == NULL)
    return NULL;
  return c + addr % 32;
}

void wl__sim_l1_clear(sm_st *m) {
  if (m->pl1 != NULL)
    wl__cache_invalidate(m->pl1);
  m->copies = 0;
}

void wl__sim_l1_refresh(sm_st *m, uint64_t addr, const uint8_t *src,
                        int width) {
  uint8_t *c = l1_copy(m, addr, width);
  if (c != NULL)
    memcpy(c, src, (size_t)width);
}

/* The SM's own pending stores to the sector holding byte off of id go
 * onto its copy c of that sector (c: the sector's first byte): a copy
 * made or refreshed from L2 must not hide them, as the SM sees its own
 * stores (they were written through into its copy when made). */
static void l1_own_stores(const sm_st *m, int id, uint64_t off, uint8_t *c) {
  uint64_t s0 = off & ~(uint64_t)31;
  int w, i;
  for (w = 0; w < 4; w++) {
    uint64_t key = sb_dev_key(id, s0 + 8 * (uint64_t)w);
    if (!sb_filter_may(&m->sbf, key))
      continue;
    for (i = 0; i < m->sb.n; i++) /* oldest first */
      if (m->sb.e[i].key == key) {
        uint8_t v[8];
        int b;
        memcpy(v, &m->sb.e[i].val, 8);
        for (b = 0; b < 8; b++)
          if (m->sb.e[i].mask >> b & 1)
            c[8 * w + b] = v[b];
      }
  }
}

void wl__sim_l1_from_l2(sm_st *m, int id, uint64_t off, uint64_t addr,
                        const uint8_t *src, int width) {
  uint8_t *c = l1_copy(m, addr, width);
  if (c != NULL) {
    memcpy(c, src, (size_t)width);
    l1_own_stores(m, id, off, c - addr % 32);
  }
}

/* A load a of SM m performed at L2 read p (address addr): a copy the SM
 * holds is refreshed, an absent one made unless the profile's evict says
 * no (l1.h: mm_l1_fill; only where the cost model holds the sector). */
static void l1_after_l2(wl_launch *l, sm_st *m, const wl_access *a,
                        const uint8_t *p, uint64_t addr) {
  uint8_t *c = l1_copy(m, addr, a->width);
  /* drawn whether or not the cost model has made the SM's L1 yet (it
   * does at the SM's first priced request, later for a per-thread
   * kernel's gathered requests than for a warp-vector kernel's) */
  if (mm_l1_fill(&l->rng, l->prof, c != NULL) && m->pl1 != NULL &&
      addr % 32 + (uint64_t)a->width <= 32) {
    if (c != NULL)
      memcpy(c, p, (size_t)a->width); /* no pending store has its bytes */
    else if ((c = wl__cache_copy_fill(m->pl1, addr, p - addr % 32)) != NULL) {
      m->copies = 1;
      l1_own_stores(m, a->id, a->off, c);
    }
  }
}

int wl__sim_goes_to_l2(const sm_st *m, const wl_access *a, uint64_t addr) {
  return sb_newest_bytes(&m->sb, &m->sbf, a->id, a->off, a->width) < 0 &&
         !(mm_l1_serves(a->sem, a->scope, a->cache) &&
           l1_copy(m, addr, a->width) != NULL);
}

/* ---------------------- the SM's store buffer ---------------------- */

/* Writes buffer entry i of SM m to L2 and removes it: an entry no older
 * one overlaps (sb_remove asserts it), so that the bytes of each
 * location reach L2 in the order they were stored. */
static void drain_one(wl_launch *l, sm_st *m, int i) {
  uint8_t v[8];
  uint64_t off;
  int id, n = sb_take_bytes(&m->sb, &m->sbf, i, &id, &off, v);
  alloc *a = get_alloc(l->dev, id);
  if (a != NULL)
    memcpy(a->data + off, v, (size_t)n);
  defer_l2w(l, m, id, off, n);
  l->npend--;
}

/* Drains the entries of m that overlap [off, off+width) of id: every
 * entry up to the newest of them, in order (an older, narrower store
 * inside a newer, wider one must not land after it; draining more than
 * asked only makes stores visible sooner). */
static void drain_range(wl_launch *l, sm_st *m, int id, uint64_t off,
                        int width) {
  int i, last = sb_newest_bytes(&m->sb, &m->sbf, id, off, width);
  for (i = 0; i <= last; i++)
    drain_one(l, m, 0);
}

void wl__sim_drain_all(wl_launch *l, sm_st *m) {
  while (m->sb.n)
    drain_one(l, m, 0);
}

/* The memory system's share of one step on SM sm, as in the sampler,
 * where a step is one instruction: here, before each access of a lane
 * (wl__sim_perform), so that the pace does not depend on how many
 * accesses a warp's turn runs.  While stores are pending, with chance
 * drain each time, one entry of a buffer picked at random reaches L2
 * (with chance reorder any entry, the oldest of its bytes; else the
 * oldest); and the SM's L1 drops one line with chance evict/8 + 1 (in
 * 1024). */
void wl__sim_drain_step(wl_launch *l, int sm) {
  const knobs *k = l->prof;
  sm_st *m = &l->sms[sm];
  /* the SMs from sbtop on have never had a store: no buffer there is
   * held or may drain (_plain: sbtop is every SM) */
  int i, top = l->sbtop;
  if (k->hold > 0 && l->nhold > 0) /* a lane's step: held buffers count it */
    for (i = 0; i < top; i++)
      sb_hold_tick(&l->sms[i].sb, &l->nhold);
  while (l->npend > 0 && wl__sim_knob(l, k->drain)) {
    int n = 0, c;
    sm_st *o = NULL;
    for (i = 0; i < top; i++)
      n += sb_may_drain(&l->sms[i].sb, 1);
    if (n == 0) /* every buffer with stores is held */
      break;
    c = pick(&l->rng, n);
    for (i = 0; i < top; i++)
      if (sb_may_drain(&l->sms[i].sb, 1) && c-- == 0) {
        o = &l->sms[i];
        break;
      }
    drain_one(l, o, sb_drain_pick(&l->rng, k, &o->sb, &l->nhold));
  }
  if (m->copies && mm_l1_evict_due(&l->rng, k))
    wl__cache_drop(m->pl1, rnd(&l->rng) >> 32);
}

/* Reads global bytes for SM m as the memory system would: its buffer
 * (forwarding, or waiting for stores of some of the bytes), its L1 copy
 * (l1.h: mm_l1_serves), else L2. */
static void global_load(wl_launch *l, sm_st *m, const wl_access *a, uint8_t *p,
                        uint64_t addr, void *out) {
  uint8_t *c;
  int f =
      sb_get_bytes(&m->sb, &m->sbf, a->id, a->off, a->width, (uint8_t *)out);
  if (f > 0) /* store-to-load forwarding */
    return;
  if (f < 0)
    drain_range(l, m, a->id, a->off, a->width);
  else if (mm_l1_serves(a->sem, a->scope, a->cache) &&
           (c = l1_copy(m, addr, a->width)) != NULL) {
    memcpy(out, c, (size_t)a->width);
    return;
  }
  memcpy(out, p, (size_t)a->width);
  l1_after_l2(l, m, a, p, addr);
}

/* Performs access a of thread `thread` on the bytes p (address addr) in
 * the memory system of SM m: the semantics of one lane's access, shared
 * by wl_kernel_access and wl_kernel_access_warp. */
int wl__sim_perform(wl_launch *l, sm_st *m, int block, int thread,
                    const wl_access *a, uint8_t *p, uint64_t addr, void *data) {
  int global = a->space == WL_SPACE_GLOBAL || a->space == WL_SPACE_MANAGED;
  if (global && l->cfg.track)
    wl__sim_touch(l, a);
  wl__sim_drain_step(l, (int)(m - l->sms));
  if (plain_access(a)) {
    perform_plain(a, p, data);
  } else if (a->kind == WL_ACC_LOAD) {
    if (l->cfg.defer &&
        wl__sim_defer_load(l, slot_of(l, block), thread, a, p, addr, data))
      return 0;
    global_load(l, m, a, p, addr, data);
    if (mm_l1_drops(a->sem, a->scope))
      wl__sim_l1_clear(m);
  } else if (a->kind == WL_ACC_STORE) { /* global */
    if ((a->sem == WL_SEM_RELEASE && mm_release_publishes(a->scope)) ||
        a->cache == WL_CACHE_CV) {
      /* a gpu/sys release (order.h) and .wt (write-through) stores */
      wl__sim_drain_all(l, m);
      if (a->sem == WL_SEM_RELEASE && mm_l1_release_drops(a->scope))
        wl__sim_l1_clear(m);
      memcpy(p, data, (size_t)a->width);
      defer_l2w(l, m, a->id, a->off, a->width);
    } else {
      /* on to L2 at once when it is alone in its SM's buffer (the
       * profile's direct, as in the sampler) */
      if (sb_goes_direct(&l->rng, l->prof, &m->sb)) {
        memcpy(p, data, (size_t)a->width);
        defer_l2w(l, m, a->id, a->off, a->width);
      } else {
        int n0;
        while (!sb_room(&m->sb, a->off, a->width)) /* full: the oldest */
          drain_one(l, m, 0);                      /* entries make room */
        n0 = m->sb.n;
        if ((int)(m - l->sms) >= l->sbtop)
          l->sbtop = (int)(m - l->sms) + 1;
        sb_put_bytes(&m->sb, &m->sbf, a->id, a->off, a->width,
                     (const uint8_t *)data);
        l->npend += (uint64_t)(m->sb.n - n0);
      }
    }
    /* written through: the SM's own copy stays current */
    wl__sim_l1_refresh(m, addr, (const uint8_t *)data, a->width);
  } else { /* atomic: at L2 (global) or on the block's shared memory */
    int64_t old, nw;
    uint64_t bits;
    /* 2 bytes: CUDA's __half atomicAdd and 16-bit atomicCAS (sm_70+;
     * the bindings decide which operations a type has) */
    if (a->width != 2 && a->width != 4 && a->width != 8)
      return wl_kernel_fail(l, block, thread, NULL, a->line,
                            "atomics are 2, 4 or 8 bytes wide");
    if (global) {
      if (wl__sem_releases(a->sem) && mm_release_publishes(a->scope)) {
        wl__sim_drain_all(l, m);
        if (mm_l1_release_drops(a->scope))
          wl__sim_l1_clear(m);
      } else {
        drain_range(l, m, a->id, a->off, a->width);
      }
    }
    bits = get_bits(p, a->width);
    old = to_carrier(a->type, bits);
    nw = wl__aop_typed(a->type, a->op, old, a->a, a->b);
    memcpy(data, p, (size_t)a->width);
    memcpy(p, &nw, (size_t)a->width);
    if (global) {
      defer_l2w(l, m, a->id, a->off, a->width);
      wl__sim_l1_refresh(m, addr, p, a->width); /* as a load at L2 */
      if (mm_l1_drops(a->sem, a->scope))
        wl__sim_l1_clear(m);
    }
  }
  return 0;
}

/* The lane's slice: 1 when it is used up and the lane should yield. */
