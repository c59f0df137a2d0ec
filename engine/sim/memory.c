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

/* Accesses are aligned and at most 16 bytes, so an entry and an access
 * that overlap lie in the same 32-byte sector. */
static unsigned sb_bucket(int id, uint64_t off) {
  return (unsigned)(((uint64_t)id * 0x9e3779b1u + off / 32) % SB_BUCKETS);
}

static int overlap(const sbuf_ent *e, int id, uint64_t off, int width) {
  return e->id == id && e->off < off + (uint64_t)width &&
         off < e->off + e->width;
}

int wl__sim_sb_overlaps(const sm_st *m, int id, uint64_t off, int width) {
  size_t i;
  if (m->bucket[sb_bucket(id, off)] == 0)
    return 0;
  for (i = 0; i < m->buf.n; i++)
    if (overlap(WL_VEC_PTR(&m->buf, sbuf_ent, i), id, off, width))
      return 1;
  return 0;
}

void wl__sim_l1_refresh(sm_st *m, uint64_t addr, const uint8_t *src,
                        int width) {
  l1_line *ln = l1_find(m, addr / 32);
  if (ln && addr % 32 + (uint64_t)width <= 32)
    memcpy(ln->data + addr % 32, src, (size_t)width);
}

#ifdef WL_ASSERTS
/* Entry i may drain: no older entry overlaps it. */
static int drainable(const sm_st *m, size_t i) {
  const sbuf_ent *e = WL_VEC_PTR(&m->buf, sbuf_ent, i);
  size_t j;
  for (j = 0; j < i; j++)
    if (overlap(WL_VEC_PTR(&m->buf, sbuf_ent, j), e->id, e->off,
                (int)e->width))
      return 0;
  return 1;
}
#endif

/* Writes buffer entry i of SM m to L2 and removes it: an entry no older
 * one overlaps, so that the bytes of each location reach L2 in the order
 * they were stored. */
static void drain_one(wl_launch *l, sm_st *m, size_t i) {
  sbuf_ent *e = WL_VEC_PTR(&m->buf, sbuf_ent, i);
  alloc *a;
  wl_assert(i < m->buf.n && drainable(m, i));
  wl_assert(m->bucket[sb_bucket(e->id, e->off)] > 0);
  a = get_alloc(l->dev, e->id);
  if (a != NULL)
    memcpy(a->data + e->off, e->data, e->width);
  defer_l2w(l, m, e->id, e->off, (int)e->width);
  m->bucket[sb_bucket(e->id, e->off)]--;
  memmove(e, e + 1, (m->buf.n - i - 1) * sizeof *e);
  m->buf.n--;
  l->npend--;
}

/* Drains the entries of m that overlap [off, off+width) of id: every
 * entry up to the newest of them, in order (an older, narrower store
 * inside a newer, wider one must not land after it; draining more than
 * asked only makes stores visible sooner). */
static void drain_range(wl_launch *l, sm_st *m, int id, uint64_t off,
                        int width) {
  size_t i, last = 0;
  int any = 0;
  if (m->bucket[sb_bucket(id, off)] == 0)
    return;
  for (i = 0; i < m->buf.n; i++)
    if (overlap(WL_VEC_PTR(&m->buf, sbuf_ent, i), id, off, width)) {
      last = i;
      any = 1;
    }
  for (i = 0; any && i <= last; i++)
    drain_one(l, m, 0);
}

void wl__sim_drain_all(wl_launch *l, sm_st *m) {
  while (m->buf.n)
    drain_one(l, m, 0);
}

/* The entry that may leave the buffer for entry i's bytes: the oldest
 * overlapping i, then the oldest overlapping that one, and so on (i
 * itself when none is older). */
static size_t oldest_overlap(const sm_st *m, size_t i) {
  for (;;) {
    const sbuf_ent *e = WL_VEC_PTR(&m->buf, sbuf_ent, i);
    size_t j;
    for (j = 0; j < i; j++)
      if (overlap(WL_VEC_PTR(&m->buf, sbuf_ent, j), e->id, e->off,
                  (int)e->width))
        break;
    if (j == i)
      return i;
    i = j;
  }
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
  while (l->npend > 0 && wl__sim_knob(l, k->drain)) {
    int n = 0, i, c;
    sm_st *o = NULL;
    size_t e = 0;
    for (i = 0; i < l->nsms; i++)
      n += l->sms[i].buf.n > 0;
    c = (int)(rnd(l) % (uint64_t)n);
    for (i = 0; i < l->nsms; i++)
      if (l->sms[i].buf.n > 0 && c-- == 0) {
        o = &l->sms[i];
        break;
      }
    if (wl__sim_knob(l, k->reorder))
      e = oldest_overlap(o, (size_t)(rnd(l) % o->buf.n));
    drain_one(l, o, e);
  }
  if (m->l1_used && wl__sim_knob(l, k->evict / 8 + 1)) {
    uint32_t i = (uint32_t)(rnd(l) & (L1_SLOTS - 1));
    if (m->l1[i].key != 0)
      l1_drop(m, i);
  }
}

/* Reads global bytes for SM m as the memory system would. */
static void global_load(wl_launch *l, sm_st *m, const wl_access *a,
                        uint8_t *p, uint64_t addr, void *out) {
  size_t i;
  int newest = -1, inexact = 0, l1ok;
  for (i = m->bucket[sb_bucket(a->id, a->off)] ? 0 : m->buf.n; i < m->buf.n;
       i++) {
    const sbuf_ent *e = WL_VEC_PTR(&m->buf, sbuf_ent, i);
    if (overlap(e, a->id, a->off, a->width)) {
      if (e->off == a->off && e->width == (uint32_t)a->width)
        newest = (int)i;
      else
        inexact = 1;
    }
  }
  if (newest >= 0 && !inexact) { /* store-to-load forwarding */
    memcpy(out, WL_VEC_PTR(&m->buf, sbuf_ent, (size_t)newest)->data,
           (size_t)a->width);
    return;
  }
  if (newest >= 0 || inexact) {
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
      sbuf_ent *e;
      l1_line *ln;
      /* on to L2 at once when it is alone in its SM's buffer (the
       * profile's direct, as in the sampler) */
      if (m->buf.n == 0 && wl__sim_knob(l, l->prof->direct)) {
        memcpy(p, data, (size_t)a->width);
        defer_l2w(l, m, a->id, a->off, a->width);
        ln = l1_find(m, addr / 32);
        if (ln && addr % 32 + (uint64_t)a->width <= 32)
          memcpy(ln->data + addr % 32, data, (size_t)a->width);
        return 0;
      }
      if (m->buf.n >= 64) /* full: its oldest entry makes room */
        drain_one(l, m, 0);
      wl_assert(m->buf.n < 64);
      if ((e = wl__vec_push(l->ctx, &m->buf)) == NULL)
        return wl__err(l->ctx, WL_ENOMEM, "out of memory");
      e->id = a->id;
      e->off = a->off;
      e->width = (uint32_t)a->width;
      memcpy(e->data, data, (size_t)a->width);
      l->npend++;
      m->bucket[sb_bucket(e->id, e->off)]++;
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
