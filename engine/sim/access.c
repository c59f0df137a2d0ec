/* access.c -- what a kernel's threads report to the device: memory
 * accesses (one lane's or a warp's), fences, barriers, exits, and the
 * shared and local arrays they declare.  An access is resolved to its
 * memory, checked (bounds, rights, the checkers of engine/check/),
 * performed on the memory system (memory.c) and gathered for pricing
 * (price.c). */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../check/check.h"
#include "../common/internal.h"
#include "../mem/l1.h"
#include "../mem/order.h"
#include "../perf/perf.h"
#include "../program/ir.h"
#include "sim.h"

static const char *space_name(int s) {
  static const char *const n[] = {"global",   "managed", "constant",
                                  "param",    "shared",  "local"};
  return s >= 0 && s <= WL_SPACE_LOCAL ? n[s] : "?";
}

/* The memory an access refers to: its bytes, size, base address (or
 * offset in the block's shared memory) and name for messages. */
typedef struct region {
  uint8_t *data;
  uint64_t size, base;
  const char *name;
} region;

/* Finds the memory of access a and checks the rights to it: what does
 * not depend on the offset, the same for every lane of a warp except for
 * local memory (per thread). */
static int resolve(wl_launch *l, slot *s, int block, int thread,
                   const wl_access *a, region *g) {
  char msg[256];
  uint64_t size = 0, base = 0;
  uint8_t *data = NULL;
  const char *name = "?";
  if (a->width != 1 && a->width != 2 && a->width != 4 && a->width != 8 &&
      a->width != 16)
    return wl_kernel_fail(l, block, thread, NULL, a->line,
                          "access width must be 1, 2, 4, 8 or 16 bytes");
  switch (a->space) {
  case WL_SPACE_GLOBAL:
  case WL_SPACE_MANAGED:
  case WL_SPACE_CONSTANT:
  case WL_SPACE_PARAM: {
    alloc *al = get_alloc(l->dev, a->id);
    if (al == NULL)
      return wl_kernel_fail(l, block, thread, NULL, a->line,
                            "access to freed or unknown memory");
    data = al->data;
    size = al->size;
    base = al->base;
    name = al->name;
    if (al->space != a->space &&
        !((al->space == WL_SPACE_GLOBAL || al->space == WL_SPACE_MANAGED) &&
          (a->space == WL_SPACE_GLOBAL || a->space == WL_SPACE_MANAGED))) {
      snprintf(msg, sizeof msg, "'%s' is %s memory, accessed as %s", name,
               space_name(al->space), space_name(a->space));
      return wl_kernel_fail(l, block, thread, NULL, a->line, msg);
    }
    if (al->space == WL_SPACE_CONSTANT && a->kind != WL_ACC_LOAD) {
      snprintf(msg, sizeof msg,
               "write to __constant__ memory '%s' (read-only on the device; "
               "the host writes it with memcpy_to_symbol)",
               name);
      return wl_kernel_fail(l, block, thread, NULL, a->line, msg);
    }
    if (al->space == WL_SPACE_PARAM && a->kind != WL_ACC_LOAD) {
      snprintf(msg, sizeof msg,
               "write to __grid_constant__ parameter '%s' (read-only)", name);
      return wl_kernel_fail(l, block, thread, NULL, a->line, msg);
    }
    break;
  }
  case WL_SPACE_SHARED: {
    shared_arr *sa;
    if (a->id == WL_SHARED_EXTERN && s->dyn_id == WL_SHARED_EXTERN) {
      data = s->shmem + s->dyn_off;
      size = l->cfg.dynamic_shared;
      base = s->dyn_off;
      name = "extern shared";
      break;
    }
    if (a->id < 0 || (size_t)a->id >= s->decls.n)
      return wl_kernel_fail(l, block, thread, NULL, a->line,
                            "access to an unknown shared array");
    sa = WL_VEC_PTR(&s->decls, shared_arr, a->id);
    data = s->shmem + sa->off;
    size = sa->size;
    base = sa->off;
    name = "shared array";
    break;
  }
  case WL_SPACE_LOCAL: {
    local_arr *la;
    wl_vec *lv = &s->locals[thread];
    if (a->id < 0 || (size_t)a->id >= lv->n)
      return wl_kernel_fail(l, block, thread, NULL, a->line,
                            "access to an unknown local array");
    la = WL_VEC_PTR(lv, local_arr, a->id);
    data = la->p;
    size = la->n;
    /* local memory is interleaved by thread: consecutive threads'
     * words are adjacent (as CUDA lays it out) */
    base = 0;
    name = "local array";
    break;
  }
  default:
    return wl_kernel_fail(l, block, thread, NULL, a->line, "bad memory space");
  }
  g->data = data;
  g->size = size;
  g->base = base;
  g->name = name;
  return 0;
}

/* The bytes at a->off of region g for one lane, with bounds and
 * alignment checked, and the address the cost model sees. */
/* Reports a lane's access that lane_check refused. */
static int lane_refused(wl_launch *l, int block, int thread,
                        const wl_access *a, const region *g) {
  char msg[256];
  if (a->off > g->size || (uint64_t)a->width > g->size - a->off)
    snprintf(msg, sizeof msg,
             "out-of-bounds %s access to %s '%s': bytes %llu..%llu of %llu",
             a->kind == WL_ACC_LOAD ? "load" : a->kind == WL_ACC_STORE ? "store" : "atomic",
             space_name(a->space), g->name, (unsigned long long)a->off,
             (unsigned long long)(a->off + (uint64_t)a->width - 1),
             (unsigned long long)g->size);
  else
    snprintf(msg, sizeof msg,
             "misaligned %d-byte access at byte offset %llu of %s '%s'",
             a->width, (unsigned long long)a->off, space_name(a->space),
             g->name);
  return wl_kernel_fail(l, block, thread, NULL, a->line, msg);
}

/* The bytes at a->off of region g for one lane, with bounds and
 * alignment checked, and the address the cost model sees. */
static inline int lane_check(wl_launch *l, int block, int thread,
                             const wl_access *a, const region *g,
                             uint8_t **p, uint64_t *addr) {
  if (a->off > g->size || (uint64_t)a->width > g->size - a->off ||
      ((g->base + a->off) & (uint64_t)(a->width - 1)) != 0) /* 2^k */
    return lane_refused(l, block, thread, a, g);
  *p = g->data + a->off;
  if (a->space == WL_SPACE_LOCAL) /* per-thread words interleaved */
    *addr = (a->off / 4) * 4 * (uint64_t)l->nthreads + (uint64_t)thread * 4 +
            a->off % 4;
  else
    *addr = g->base + a->off;
  return 0;
}

static int slice_step(wl_launch *l, slot *s, int thread) {
  if (l->cfg.schedule == WL_SCHED_LOCKSTEP)
    return 1;
  if (++s->slice[thread] >= (uint32_t)l->cfg.slice) {
    s->slice[thread] = 0;
    return 1;
  }
  return 0;
}

/* The cost model's L1 policy of an access: the loads the memory
 * system's L1 may serve (engine/mem/l1.h) allocate there. */
static int l1_policy(const wl_access *a) {
  return a->kind == WL_ACC_LOAD && mm_l1_serves(a->sem, a->scope, a->cache)
             ? L1_ALLOCATE
             : L1_BYPASS;
}

/* What the checkers need of an access's memory (m->off, addr, aoff are
 * the lane's); 0 when they do not look at that space. */
static int check_mem(wl_launch *l, const wl_access *a, const region *g,
                     wl__chk_mem *m) {
  if (a->space == WL_SPACE_SHARED) {
    m->obj = -1;
    m->written = NULL;
  } else if (a->space == WL_SPACE_GLOBAL || a->space == WL_SPACE_MANAGED) {
    alloc *al = get_alloc(l->dev, a->id);
    m->obj = a->id;
    m->written = al != NULL && !al->all_written ? al->written : NULL;
  } else {
    return 0;
  }
  m->name = g->name;
  m->id = a->id;
  m->words = 0;
  return 1;
}

/* Hands the access of lane thread at off (address addr) to the
 * checkers; m from check_mem. */
static inline int check_lane(wl_launch *l, slot *s, int thread,
                             const wl_access *a, wl__chk_mem *m,
                             uint64_t off, uint64_t addr, const void *data,
                             const void *mem) {
  int rc;
  m->mem = mem;
  m->off = m->obj < 0 ? addr : off;
  m->addr = addr;
  m->aoff = off;
  if ((rc = wl__chk_access(l->chk, (int)(s - l->slots), thread, a, m,
                           data)) != 0) {
    snprintf(l->err, sizeof l->err, "%s", wl_ctx_errmsg(l->ctx));
    l->failed = 1;
  }
  return rc;
}

/* Hands a lane's performed access to the checkers. */
static int check_access(wl_launch *l, slot *s, int thread, const wl_access *a,
                        const region *g, uint64_t addr, const void *data,
                        const void *mem) {
  wl__chk_mem m;
  int rc;
  m.mem = mem;
  if (a->space == WL_SPACE_SHARED) {
    m.obj = -1;
    m.off = addr;
    m.written = NULL;
  } else if (a->space == WL_SPACE_GLOBAL || a->space == WL_SPACE_MANAGED) {
    alloc *al = get_alloc(l->dev, a->id);
    m.obj = a->id;
    m.off = a->off;
    m.written = al != NULL && !al->all_written ? al->written : NULL;
  } else {
    return 0;
  }
  m.addr = addr;
  m.name = g->name;
  m.id = a->id;
  m.aoff = a->off;
  m.words = 0;
  if ((rc = wl__chk_access(l->chk, (int)(s - l->slots), thread, a, &m,
                           data)) != 0) {
    snprintf(l->err, sizeof l->err, "%s", wl_ctx_errmsg(l->ctx));
    l->failed = 1;
  }
  return rc;
}

/* resolve's commonest cases, without its checks' calls: a declared
 * shared array, or global (managed) memory accessed as what it is, by
 * a load or a store of 4 or 8 bytes.  0: the general case is needed. */
static inline int resolve_fast(wl_launch *l, slot *s, const wl_access *a,
                               region *g) {
  if ((a->width != 4 && a->width != 8) || a->kind == WL_ACC_ATOMIC)
    return 0;
  if (a->space == WL_SPACE_SHARED) {
    const shared_arr *sa;
    if (a->id < 0 || (size_t)a->id >= s->decls.n)
      return 0;
    sa = (const shared_arr *)s->decls.p + a->id;
    g->data = s->shmem + sa->off;
    g->size = sa->size;
    g->base = sa->off;
    g->name = "shared array";
    return 1;
  }
  if (a->space == WL_SPACE_GLOBAL || a->space == WL_SPACE_MANAGED) {
    alloc *al = get_alloc(l->dev, a->id);
    if (al == NULL || al->space != a->space)
      return 0;
    g->data = al->data;
    g->size = al->size;
    g->base = al->base;
    g->name = al->name;
    return 1;
  }
  return 0;
}

int wl_kernel_access(wl_launch *l, int block, int thread, const wl_access *a,
                     void *data) {
  slot *s = slot_of(l, block);
  uint8_t *p = NULL;
  uint64_t addr = 0;
  region g;
  int rc, k;
  if (s == NULL || thread < 0 || thread >= l->nthreads ||
      s->state[thread] != WL_LANE_RUNNABLE)
    return wl__err(l->ctx, WL_EINVAL,
                   "wl_kernel_access: thread %d of block %d is not running",
                   thread, block);
  if ((!resolve_fast(l, s, a, &g) &&
       (rc = resolve(l, s, block, thread, a, &g)) != 0) ||
      (rc = lane_check(l, block, thread, a, &g, &p, &addr)) != 0)
    return rc;
  /* the lane's deferred loads this access must wait for (defer.c) */
  if (s->dl != NULL && s->dl[thread].np > 0 &&
      (rc = wl__sim_defer_hazards(l, s, thread, a, data, 1)) != 0)
    return rc;
  l->last_block = block;
  l->last_thread = thread;
  l->last_line = a->line;
  if ((k = wl__sim_site_id(l, a->line, a->space, a->kind, a->width,
                   l1_policy(a))) < 0 ||
      (rc = wl__sim_gather(l, s, thread, k, addr)) != 0) {
    /* out of memory: the launch stops with the context's message */
    snprintf(l->err, sizeof l->err, "%s", wl_ctx_errmsg(l->ctx));
    l->failed = 1;
    return k < 0 ? k : rc;
  }
  if ((rc = wl__sim_perform(l, &l->sms[s->sm], block, thread, a, p, addr,
                            data)) != 0)
    return rc;
  if (l->chk != NULL &&
      (rc = check_access(l, s, thread, a, &g, addr, data, p)) != 0)
    return rc;
  if (s->dl != NULL)
    s->dl[thread].nev++;
  return slice_step(l, s, thread);
}

/* The deferred loads of the lanes of mask that a warp-wide access must
 * wait for (defer.c), before any lane makes it: a replay that one lane
 * needs, or a store that waits for one lane's loads (WL_KERNEL_WAIT),
 * stops the whole access, which the host makes again. */
static int warp_hazards(wl_launch *l, slot *s, int lo, uint32_t mask,
                        const wl_access *a, const uint64_t off[32],
                        const int64_t *ops, const void *data) {
  wl_access la;
  uint32_t b, pend = 0;
  int lane, rc;
  /* the lanes with deferred loads, found in one pass (most have none) */
  if (mask == 0xffffffffu && !l->cfg.plain) {
    for (lane = 0; lane < 32; lane++)
      pend |= (uint32_t)(s->dl[lo + lane].np != 0) << lane;
  } else {
    for (b = mask; b != 0; b &= b - 1)
      if (s->dl[lo + __builtin_ctz(b)].np != 0)
        pend |= b & -b;
  }
  if (pend == 0)
    return 0;
  la = *a;
  for (b = pend; b != 0; b &= b - 1) {
    lane = __builtin_ctz(b);
    if (s->dl[lo + lane].np == 0) /* settled by an earlier lane's */
      continue;
    la.off = off[lane];
    if (ops != NULL) {
      la.a = ops[lane];
      la.b = ops[32 + lane];
    }
    if ((rc = wl__sim_defer_hazards(
             l, s, lo + lane, &la,
             (const uint8_t *)data + (size_t)lane * (size_t)a->width, 1)) !=
        0)
      return rc;
  }
  return 0;
}

int wl_kernel_access_warp(wl_launch *l, int block, int warp, uint32_t mask,
                          const wl_access *a, const uint64_t off[32],
                          const int64_t *ops, void *data) {
  slot *s = slot_of(l, block);
  wl_access la;
  region g;
  group req;
  sm_st *m;
  uint32_t exist, b;
  int lo = warp * 32, lane, rc, yield = 0, plain, chk, spanned = 0;
  uint64_t span[2] = {0, 0}; /* the bank words of a whole warp's words */
  wl__chk_mem cm;
  if (s == NULL || warp < 0 || warp >= l->nwarps)
    return wl__err(l->ctx, WL_EINVAL,
                   "wl_kernel_access_warp: warp %d of block %d is not "
                   "running",
                   warp, block);
  exist = l->nthreads - lo >= 32 ? 0xffffffffu
                                 : (1u << (l->nthreads - lo)) - 1;
  if (mask == 0)
    return 0;
  /* the lanes of a warp-wide access run together: checking that they
   * exist and that the first is running is enough */
  if ((mask & ~exist) != 0 ||
      s->state[lo + __builtin_ctz(mask)] != WL_LANE_RUNNABLE)
    return wl__err(l->ctx, WL_EINVAL,
                   "wl_kernel_access_warp: lanes 0x%08x of warp %d of block "
                   "%d are not running",
                   mask, warp, block);
  if (s->dl != NULL && (s->npend != 0 || l->cfg.plain) &&
      (rc = warp_hazards(l, s, lo, mask, a, off, ops, data)) != 0)
    return rc;
  la = *a;
  la.off = off[__builtin_ctz(mask)];
  /* what does not depend on the lane, checked once as the first active
   * lane would */
  if (a->space != WL_SPACE_LOCAL &&
      (rc = resolve(l, s, block, lo + __builtin_ctz(mask), &la, &g)) != 0)
    return rc;
  if ((req.site = wl__sim_site_id(l, a->line, a->space, a->kind, a->width,
                          l1_policy(a))) < 0) {
    snprintf(l->err, sizeof l->err, "%s", wl_ctx_errmsg(l->ctx));
    l->failed = 1;
    return req.site;
  }
  req.done = 1;
  req.mask = mask;
  m = &l->sms[s->sm];
  chk = l->chk != NULL && a->space != WL_SPACE_LOCAL &&
        check_mem(l, a, &g, &cm);
  plain = plain_access(a) && a->space != WL_SPACE_LOCAL;
  if (plain && ops == NULL && g.size >= (uint64_t)a->width) {
    /* shared, constant and parameter loads and stores: bounds and
     * alignment per lane, then the bytes; the common case of tiles */
    uint64_t last = g.size - (uint64_t)a->width, am = (uint64_t)a->width - 1;
    uint32_t lim = (uint32_t)l->cfg.slice;
    b = mask;
    if (mask == 0xffffffffu && a->width == 4 && !l->cfg.plain) {
      /* a whole warp's 4-byte words (tiles): every lane checked first
       * (the loop below reports the first bad one, in lane order), then
       * the words copied in lane order, then the slices */
      uint64_t most = 0, least = UINT64_MAX, any = 0; /* the largest and
                     * smallest offsets, the addresses or'ed (a lane off a
                     * word: bits 0-1) */
      uint32_t *sl = s->slice + lo, over = 0;
      if (last < 0x7fffffffu) {
        /* a region under 2 GB (shared memory always): the offsets as
         * 32-bit words once their high bits are known zero, a loop the
         * compiler vectorizes (a chain of 64-bit compares was the
         * access's longest part) */
        uint64_t high = 0;
        int32_t hi32 = 0, lo32 = INT32_MAX;
        for (lane = 0; lane < 32; lane++) {
          uint64_t o = off[lane];
          int32_t w = (int32_t)(o & 0x7fffffffu);
          high |= o >> 31;
          hi32 = w > hi32 ? w : hi32;
          lo32 = w < lo32 ? w : lo32;
          any |= req.addr[lane] = g.base + o;
        }
        if (high == 0) {
          most = (uint64_t)hi32;
          least = (uint64_t)lo32;
        } else {
          most = UINT64_MAX; /* a lane out of the region: the loop below */
        }
      } else {
        for (lane = 0; lane < 32; lane++) {
          uint64_t o = off[lane];
          most = o > most ? o : most;
          least = o < least ? o : least;
          any |= req.addr[lane] = g.base + o;
        }
      }
      if (most <= last && (any & 3) == 0) {
        cm.words = chk; /* every lane one aligned word: the checkers'
                         * loop for them (chk: cm is set) */
        /* the cost model's bank words, from the lowest and highest
         * address (a shift keeps their order) */
        if (l->bank_shift >= 0) {
          span[0] = (g.base + least) >> l->bank_shift;
          span[1] = (g.base + most) >> l->bank_shift;
          spanned = 1;
        }
        uint8_t *d = data;
        if (a->kind == WL_ACC_LOAD)
          for (lane = 0; lane < 32; lane++)
            memcpy(d + lane * 4, g.data + off[lane], 4);
        else
          for (lane = 0; lane < 32; lane++)
            memcpy(g.data + off[lane], d + lane * 4, 4);
        for (lane = 0; lane < 32; lane++) { /* (without branches) */
          uint32_t n = sl[lane] + 1, up = n >= lim;
          sl[lane] = up ? 0 : n;
          over |= up;
        }
        yield |= over != 0;
        b = 0;
      }
    }
    for (; b != 0; b &= b - 1) {
      uint64_t o;
      uint8_t *d;
      lane = __builtin_ctz(b);
      o = off[lane];
      if (o > last || ((g.base + o) & am) != 0) {
        la.off = o;
        return lane_refused(l, block, lo + lane, &la, &g);
      }
      d = (uint8_t *)data + (size_t)lane * (size_t)a->width;
      if (a->kind == WL_ACC_LOAD)
        copy_bytes(d, g.data + o, a->width);
      else
        copy_bytes(g.data + o, d, a->width);
      req.addr[lane] = g.base + o;
      if (++s->slice[lo + lane] >= lim) {
        s->slice[lo + lane] = 0;
        yield = 1;
      }
    }
    b = 0; /* done: skip the general loop */
    mask = req.mask;
  } else
    b = mask;
  for (; b != 0; b &= b - 1) {
    int t;
    uint8_t *p = NULL, *d;
    uint64_t addr = 0;
    lane = __builtin_ctz(b);
    t = lo + lane;
    d = (uint8_t *)data + (size_t)lane * (size_t)a->width;
    la.off = off[lane];
    if (ops != NULL) {
      la.a = ops[lane];
      la.b = ops[32 + lane];
    }
    if ((a->space == WL_SPACE_LOCAL &&
         (rc = resolve(l, s, block, t, &la, &g)) != 0) ||
        (rc = lane_check(l, block, t, &la, &g, &p, &addr)) != 0)
      return rc;
    if (plain) /* perform's first case, without the call */
      perform_plain(&la, p, d);
    else if ((rc = wl__sim_perform(l, m, block, t, &la, p, addr, d)) != 0)
      return rc;
    if (chk && a->kind == WL_ACC_ATOMIC &&
        (rc = check_lane(l, s, t, &la, &cm, la.off, addr, d, p)) != 0)
      return rc;
    req.addr[lane] = addr;
    yield |= slice_step(l, s, t);
  }
  /* the checkers take the lanes' loads and stores in one call */
  if (chk && a->kind != WL_ACC_ATOMIC &&
      (rc = wl__chk_access_lanes(l->chk, (int)(s - l->slots), lo, mask, a,
                                 &cm, off, req.addr, data)) != 0) {
    snprintf(l->err, sizeof l->err, "%s", wl_ctx_errmsg(l->ctx));
    l->failed = 1;
    return rc;
  }
  if (s->dl != NULL) { /* each lane's event (defer.c) */
    if (mask == 0xffffffffu && !l->cfg.plain)
      s->warps[warp].nev++; /* once for the 32 lanes */
    else
      for (b = mask; b != 0; b &= b - 1)
        s->dl[lo + __builtin_ctz(b)].nev++;
  }
  l->last_block = block;
  l->last_thread = lo + 31 - __builtin_clz(mask);
  l->last_line = a->line;
  /* one request, priced as the gathered request of a converged warp
   * would be */
  if ((rc = spanned ? wl__sim_price_span(l, s->sm, &req, span[0], span[1])
                    : wl__sim_price(l, s->sm, &req)) != 0)
    return rc;
  return yield;
}

/* The rest of a lane's fence, once its deferred loads are settled
 * (wait: a cta fence drains the SM's buffer, chance fcta). */
static int fence_lane(wl_launch *l, slot *s, int thread, int sem, int scope,
                      int wait) {
  if (s->dl != NULL)
    s->dl[thread].nev++;
  if (l->chk != NULL &&
      wl__chk_fence(l->chk, (int)(s - l->slots), thread, sem, scope) != 0) {
    snprintf(l->err, sizeof l->err, "%s", wl_ctx_errmsg(l->ctx));
    l->failed = 1;
    return WL_ENOMEM;
  }
  /* a cta fence orders nothing beyond what the SM already keeps in
   * order (its buffer forwards, its L1 copy is current), but now and
   * then drains the SM's buffer (the profile's fcta, as in the
   * sampler); gpu and sys fences publish the SM's stores and drop its
   * stale copies */
  if (mm_release_publishes(scope)) {
    wl__sim_drain_all(l, &l->sms[s->sm]);
    if (mm_l1_release_drops(scope))
      wl__sim_l1_clear(&l->sms[s->sm]);
  } else if (wait) {
    wl__sim_drain_all(l, &l->sms[s->sm]);
  }
  /* a gpu/sys-scope fence.sc costs its lane the profile's stall of its
   * warp's turns, the others running on (waited_turn); the bindings
   * yield the lane when wl_kernel_lane_state says WL_LANE_STALLED */
  if (scope >= WL_SCOPE_GPU && sem == WL_SEM_SC && l->prof->stall > 0) {
    s->warps[thread / 32].stalled |= 1u << (thread % 32);
    s->warps[thread / 32].stall = (int)l->prof->stall;
  }
  return 0;
}

int wl_kernel_fence(wl_launch *l, int block, int thread, int sem, int scope,
                    int line) {
  slot *s = slot_of(l, block);
  int rc, wait = 0;
  (void)line;
  if (s == NULL || thread < 0 || thread >= l->nthreads)
    return wl__err(l->ctx, WL_EINVAL, "wl_kernel_fence: no such thread");
  /* a gpu/sys fence waits for the lane's deferred loads; a cta fence
   * with chance fcta (late loads look performed to their CTA: see
   * defer.c), when it also drains the SM's buffer */
  if (scope == WL_SCOPE_CTA)
    wait = wl__sim_knob(l, l->prof->fcta);
  if (s->dl != NULL && s->dl[thread].np > 0 &&
      (scope != WL_SCOPE_CTA || wait) &&
      (rc = wl__sim_defer_hazards(l, s, thread, NULL, NULL, 1)) != 0)
    return rc;
  return fence_lane(l, s, thread, sem, scope, wait);
}

int wl_kernel_fence_warp(wl_launch *l, int block, int warp, uint32_t mask,
                         int sem, int scope, int line) {
  slot *s = slot_of(l, block);
  uint32_t b, waits = 0;
  int lo = warp * 32, t, rc;
  (void)line;
  if (s == NULL || warp < 0 || warp >= l->nwarps ||
      (l->nthreads - lo < 32 && (mask >> (l->nthreads - lo)) != 0))
    return wl__err(l->ctx, WL_EINVAL, "wl_kernel_fence_warp: no such lanes");
  /* every lane's deferred loads first, as wl_kernel_fence settles them:
   * a replay stops the whole fence */
  for (b = mask; b != 0; b &= b - 1) {
    t = lo + __builtin_ctz(b);
    if (scope == WL_SCOPE_CTA && wl__sim_knob(l, l->prof->fcta))
      waits |= b & -b;
    if (s->dl != NULL && s->dl[t].np > 0 &&
        (scope != WL_SCOPE_CTA || (waits & b & -b)) &&
        (rc = wl__sim_defer_hazards(l, s, t, NULL, NULL, 0)) != 0)
      return rc;
  }
  for (b = mask; b != 0; b &= b - 1)
    if ((rc = fence_lane(l, s, lo + __builtin_ctz(b), sem, scope,
                         (waits & b & -b) != 0)) != 0)
      return rc;
  /* the lanes of a warp-vector kernel run together: when its lanes wait
   * out the fence, the whole warp does (its lanes outside mask too) */
  if (s->warps[warp].stalled != 0)
    for (t = lo; t < lo + 32 && t < l->nthreads; t++)
      if (s->state[t] == WL_LANE_RUNNABLE)
        s->warps[warp].stalled |= 1u << (t - lo);
  return 0;
}

int wl_kernel_barrier(wl_launch *l, int block, int thread, int line) {
  slot *s = slot_of(l, block);
  if (s == NULL || thread < 0 || thread >= l->nthreads ||
      s->state[thread] != WL_LANE_RUNNABLE)
    return wl__err(l->ctx, WL_EINVAL, "wl_kernel_barrier: no such thread");
  wl__sim_defer_drop(l, s, thread); /* performed at issue */
  s->state[thread] = WL_LANE_BARRIER;
  s->barline[thread] = line;
  /* a loop of barriers is as much a thread's last act as an access: the
   * step bound names it */
  l->last_block = block;
  l->last_thread = thread;
  l->last_line = line;
  s->slice[thread] = 0;
  s->nwaiting++;
  return 0;
}

int wl_kernel_barrier_warp(wl_launch *l, int block, int warp, uint32_t mask,
                           int line) {
  slot *s = slot_of(l, block);
  uint32_t b;
  int lo = warp * 32, t;
  if (s == NULL || warp < 0 || warp >= l->nwarps || mask == 0 ||
      (l->nthreads - lo < 32 && (mask >> (l->nthreads - lo)) != 0))
    return wl__err(l->ctx, WL_EINVAL, "wl_kernel_barrier_warp: no such lanes");
  for (b = mask; b != 0; b &= b - 1)
    if (s->state[lo + __builtin_ctz(b)] != WL_LANE_RUNNABLE)
      return wl__err(l->ctx, WL_EINVAL,
                     "wl_kernel_barrier_warp: lane %d is not running",
                     __builtin_ctz(b));
  for (b = mask; b != 0; b &= b - 1) { /* wl_kernel_barrier's steps */
    t = lo + __builtin_ctz(b);
    if (s->dl != NULL && s->dl[t].np > 0)
      wl__sim_defer_drop(l, s, t); /* performed at issue */
    s->state[t] = WL_LANE_BARRIER;
    s->barline[t] = line;
    s->slice[t] = 0;
    s->nwaiting++;
  }
  l->last_block = block;
  l->last_thread = lo + 31 - __builtin_clz(mask);
  l->last_line = line;
  return 0;
}

int wl_kernel_exit(wl_launch *l, int block, int thread) {
  slot *s = slot_of(l, block);
  if (s == NULL || thread < 0 || thread >= l->nthreads ||
      s->state[thread] != WL_LANE_RUNNABLE)
    return wl__err(l->ctx, WL_EINVAL, "wl_kernel_exit: no such thread");
  wl__sim_defer_drop(l, s, thread); /* nothing can use them now */
  s->state[thread] = WL_LANE_EXITED;
  s->warps[thread / 32].alive &= ~(1u << (thread % 32));
  s->nexited++;
  return 0;
}

int wl_kernel_shared(wl_launch *l, int block, int thread, uint64_t bytes,
                     int align, int dynamic, int line, int *id,
                     uint64_t *size) {
  slot *s = slot_of(l, block);
  int k;
  char msg[200];
  if (s == NULL || thread < 0 || thread >= l->nthreads)
    return wl__err(l->ctx, WL_EINVAL, "wl_kernel_shared: no such thread");
  if (align < 1 || (align & (align - 1)))
    align = 16;
  if (dynamic) { /* one extern region per block, carved by views */
    bytes = l->cfg.dynamic_shared;
    if (s->dyn_id != WL_SHARED_EXTERN) {
      uint64_t off = (s->shused + 15) / 16 * 16;
      if (off + bytes > s->shcap)
        return wl_kernel_fail(l, block, thread, NULL, line,
                              "shared memory exhausted by the extern region");
      s->dyn_off = off;
      s->shused = off + bytes;
      s->dyn_id = WL_SHARED_EXTERN;
    }
    *id = WL_SHARED_EXTERN;
    *size = bytes;
    return 0;
  }
  k = s->ndecl[thread]++;
  if ((size_t)k < s->decls.n) {
    shared_arr *sa = WL_VEC_PTR(&s->decls, shared_arr, (size_t)k);
    if (sa->size != bytes) {
      snprintf(msg, sizeof msg,
               "shared declaration %d has %llu bytes here but %llu in "
               "another thread of the block",
               k + 1, (unsigned long long)bytes,
               (unsigned long long)sa->size);
      return wl_kernel_fail(l, block, thread, NULL, line, msg);
    }
    *id = k;
    *size = sa->size;
    return 0;
  }
  {
    shared_arr *sa;
    uint64_t off = (s->shused + (uint64_t)align - 1) / (uint64_t)align *
                   (uint64_t)align;
    if (off + bytes > s->shcap) {
      snprintf(msg, sizeof msg,
               "shared memory exhausted: this declaration needs %llu "
               "bytes at offset %llu, the block has %llu (static_shared + "
               "dynamic_shared of the launch)",
               (unsigned long long)bytes, (unsigned long long)off,
               (unsigned long long)s->shcap);
      return wl_kernel_fail(l, block, thread, NULL, line, msg);
    }
    if ((sa = wl__vec_push(l->ctx, &s->decls)) == NULL)
      return wl__err(l->ctx, WL_ENOMEM, "out of memory");
    sa->off = off;
    sa->size = bytes;
    s->shused = off + bytes;
    *id = (int)(s->decls.n - 1);
    *size = bytes;
  }
  return 0;
}

int wl_kernel_local(wl_launch *l, int block, int thread, uint64_t bytes,
                    int line, int *id) {
  slot *s = slot_of(l, block);
  local_arr *la;
  if (s == NULL || thread < 0 || thread >= l->nthreads)
    return wl__err(l->ctx, WL_EINVAL, "wl_kernel_local: no such thread");
  if (bytes > 512 * 1024)
    return wl_kernel_fail(l, block, thread, NULL, line,
                          "local arrays are limited to 512 KB per thread");
  if ((la = wl__vec_push(l->ctx, &s->locals[thread])) == NULL)
    return wl__err(l->ctx, WL_ENOMEM, "out of memory");
  if ((la->p = wl__calloc(l->ctx, bytes ? bytes : 1)) == NULL) {
    s->locals[thread].n--;
    return wl__err(l->ctx, WL_ENOMEM, "out of memory");
  }
  la->n = bytes;
  *id = (int)(s->locals[thread].n - 1);
  return 0;
}

