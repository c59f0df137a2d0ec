/* memory.c -- the operational memory system kernels run on: each SM's
 * L1 of 32-byte sector copies (weak loads may read them stale) and its
 * store buffer, drained to L2 (the allocations' bytes, the point of
 * coherence) out of order across addresses and in order per address.
 * The pace is the profile's (engine/mem/profile.h), its knobs meaning
 * what they mean in the litmus sampler (sample.c): drain, reorder,
 * direct, evict and fcta here, stall in launch.c (waited_turn).  Kernel
 * loads may be deferred when the host can replay its lanes (defer.c:
 * defer, late, stwait and fcta; linger and wlate have no kernel meaning,
 * as loads pending at a lane's end or a gpu-scope fence are performed
 * there); the knobs of threads' own queues, overtaking, cta-scope
 * atomics and links (thq, otfwd, otld, atl2, link) have no kernel
 * meaning yet. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../check/check.h"
#include "../common/internal.h"
#include "../perf/perf.h"
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

/* l1 lookup of the sector holding global address a */
static l1_line *l1_find(sm_st *m, uint64_t sector) {
  uint64_t key = sector + 1;
  if (m->l1 == NULL)
    return NULL;
  uint32_t i = (uint32_t)(key * 0x9e3779b97f4a7c15ull >> 40) & (L1_SLOTS - 1);
  int n;
  for (n = 0; n < L1_SLOTS; n++, i = (i + 1) & (L1_SLOTS - 1)) {
    if (m->l1[i].key == key)
      return &m->l1[i];
    if (m->l1[i].key == 0)
      return NULL;
  }
  return NULL;
}

void wl__sim_l1_clear(sm_st *m) {
  if (m->l1 == NULL)
    return;
  memset(m->l1, 0, sizeof(l1_line) * L1_SLOTS);
  m->l1_used = 0;
}

static void l1_fill(wl_ctx *ctx, sm_st *m, uint64_t sector,
                    const uint8_t *src) {
  uint64_t key = sector + 1;
  uint32_t i = (uint32_t)(key * 0x9e3779b97f4a7c15ull >> 40) & (L1_SLOTS - 1);
  /* made when the SM first loads through L1 (most SMs of a small launch
   * never do); without memory the load just goes to L2 */
  if (m->l1 == NULL &&
      (m->l1 = wl__calloc(ctx, sizeof(l1_line) * L1_SLOTS)) == NULL)
    return;
  if (m->l1_used * 2 >= L1_SLOTS)
    wl__sim_l1_clear(m); /* full: forget everything (capacity eviction) */
  while (m->l1[i].key != 0 && m->l1[i].key != key)
    i = (i + 1) & (L1_SLOTS - 1);
  if (m->l1[i].key == 0)
    m->l1_used++;
  m->l1[i].key = key;
  memcpy(m->l1[i].data, src, 32);
}

/* ---------------------- the SM's store buffer ---------------------- */

int wl__sim_sb_overlaps(const sm_st *m, int id, uint64_t off, int width) {
  return sb_newest_bytes(&m->sb, &m->sbf, id, off, width) >= 0;
}

void wl__sim_l1_refresh(sm_st *m, uint64_t addr, const uint8_t *src,
                        int width) {
  l1_line *ln = l1_find(m, addr / 32);
  if (ln && addr % 32 + (uint64_t)width <= 32)
    memcpy(ln->data + addr % 32, src, (size_t)width);
}

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

/* Drops the L1 line in slot i, keeping linear probing's chains whole
 * (the entries after it move back into the hole). */
static void l1_drop(sm_st *m, uint32_t i) {
  uint32_t j = i;
  m->l1[i].key = 0;
  m->l1_used--;
  for (;;) {
    uint32_t h;
    j = (j + 1) & (L1_SLOTS - 1);
    if (m->l1[j].key == 0)
      return;
    h = (uint32_t)(m->l1[j].key * 0x9e3779b97f4a7c15ull >> 40) &
        (L1_SLOTS - 1);
    /* move j into the hole when its home h is not in (i, j] */
    if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
      m->l1[i] = m->l1[j];
      m->l1[j].key = 0;
      i = j;
    }
  }
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
  int i;
  if (k->hold > 0 && l->nhold > 0) /* a lane's step: held buffers count it */
    for (i = 0; i < l->nsms; i++)
      sb_hold_tick(&l->sms[i].sb, &l->nhold);
  while (l->npend > 0 && wl__sim_knob(l, k->drain)) {
    int n = 0, c;
    sm_st *o = NULL;
    for (i = 0; i < l->nsms; i++)
      n += sb_may_drain(&l->sms[i].sb, 1);
    if (n == 0) /* every buffer with stores is held */
      break;
    c = pick(&l->rng, n);
    for (i = 0; i < l->nsms; i++)
      if (sb_may_drain(&l->sms[i].sb, 1) && c-- == 0) {
        o = &l->sms[i];
        break;
      }
    drain_one(l, o, sb_drain_pick(&l->rng, k, &o->sb, &l->nhold));
  }
  if (m->l1_used && wl__sim_knob(l, k->evict / 8 + 1)) {
    uint32_t j = (uint32_t)(rnd(&l->rng) & (L1_SLOTS - 1));
    if (m->l1[j].key != 0)
      l1_drop(m, j);
  }
}

/* Reads global bytes for SM m as the memory system would. */
static void global_load(wl_launch *l, sm_st *m, const wl_access *a,
                        uint8_t *p, uint64_t addr, void *out) {
  int l1ok, f = sb_get_bytes(&m->sb, &m->sbf, a->id, a->off, a->width,
                             (uint8_t *)out);
  if (f > 0) /* store-to-load forwarding */
    return;
  if (f < 0) {
    drain_range(l, m, a->id, a->off, a->width);
    memcpy(out, p, (size_t)a->width);
    return;
  }
  /* weak loads, .ca and the read-only path may use the SM's L1 copy */
  l1ok = a->sem == WL_SEM_WEAK &&
         (a->cache == WL_CACHE_CA || a->cache == WL_CACHE_LDG ||
          a->cache == WL_CACHE_CS);
  if (l1ok && a->width <= 32) {
    uint64_t sector = addr / 32;
    l1_line *ln = l1_find(m, sector);
    uint64_t in = addr % 32;
    if (ln == NULL) {
      l1_fill(l->ctx, m, sector, p - in);
      ln = l1_find(m, sector);
    }
    if (ln != NULL && in + (uint64_t)a->width <= 32) {
      memcpy(out, ln->data + in, (size_t)a->width);
      return;
    }
  }
  memcpy(out, p, (size_t)a->width);
  if (a->sem == WL_SEM_ACQUIRE)
    wl__sim_l1_clear(m);
}

/* Performs access a of thread `thread` on the bytes p (address addr) in
 * the memory system of SM m: the semantics of one lane's access, shared
 * by wl_kernel_access and wl_kernel_access_warp. */
int wl__sim_perform(wl_launch *l, sm_st *m, int block, int thread,
                    const wl_access *a, uint8_t *p, uint64_t addr, void *data) {
  int global = a->space == WL_SPACE_GLOBAL || a->space == WL_SPACE_MANAGED;
  wl__sim_drain_step(l, (int)(m - l->sms));
  if (plain_access(a)) {
    perform_plain(a, p, data);
  } else if (a->kind == WL_ACC_LOAD) {
    if (l->cfg.defer &&
        wl__sim_defer_load(l, slot_of(l, block), thread, a, p, data))
      return 0;
    global_load(l, m, a, p, addr, data);
  } else if (a->kind == WL_ACC_STORE) { /* global */
    if (a->sem == WL_SEM_RELEASE || a->cache == WL_CACHE_CV) {
      wl__sim_drain_all(l, m);
      memcpy(p, data, (size_t)a->width);
      defer_l2w(l, m, a->id, a->off, a->width);
      { /* keep the SM's own copy current */
        l1_line *ln = l1_find(m, addr / 32);
        if (ln && addr % 32 + (uint64_t)a->width <= 32)
          memcpy(ln->data + addr % 32, data, (size_t)a->width);
      }
    } else {
      l1_line *ln;
      /* on to L2 at once when it is alone in its SM's buffer (the
       * profile's direct, as in the sampler) */
      if (sb_goes_direct(&l->rng, l->prof, &m->sb)) {
        memcpy(p, data, (size_t)a->width);
        defer_l2w(l, m, a->id, a->off, a->width);
      } else {
        int n0;
        while (!sb_room(&m->sb, a->off, a->width)) /* full: the oldest */
          drain_one(l, m, 0);                       /* entries make room */
        n0 = m->sb.n;
        sb_put_bytes(&m->sb, &m->sbf, a->id, a->off, a->width,
                     (const uint8_t *)data);
        l->npend += (uint64_t)(m->sb.n - n0);
      }
      ln = l1_find(m, addr / 32);
      if (ln && addr % 32 + (uint64_t)a->width <= 32)
        memcpy(ln->data + addr % 32, data, (size_t)a->width);
    }
  } else { /* atomic: at L2 (global) or on the block's shared memory */
    int64_t old, nw;
    uint64_t bits;
    /* 2 bytes: CUDA's __half atomicAdd and 16-bit atomicCAS (sm_70+;
     * the bindings decide which operations a type has) */
    if (a->width != 2 && a->width != 4 && a->width != 8)
      return wl_kernel_fail(l, block, thread, NULL, a->line,
                            "atomics are 2, 4 or 8 bytes wide");
    if (global) {
      if (wl__sem_releases(a->sem))
        wl__sim_drain_all(l, m);
      else
        drain_range(l, m, a->id, a->off, a->width);
    }
    bits = get_bits(p, a->width);
    old = to_carrier(a->type, bits);
    nw = wl__aop_typed(a->type, a->op, old, a->a, a->b);
    memcpy(data, p, (size_t)a->width);
    memcpy(p, &nw, (size_t)a->width);
    if (global) {
      defer_l2w(l, m, a->id, a->off, a->width);
      l1_line *ln = l1_find(m, addr / 32);
      if (ln && addr % 32 + (uint64_t)a->width <= 32)
        memcpy(ln->data + addr % 32, p, (size_t)a->width);
      if (wl__sem_acquires(a->sem))
        wl__sim_l1_clear(m);
    }
  }
  return 0;
}

/* The lane's slice: 1 when it is used up and the lane should yield. */
