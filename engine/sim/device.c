/* device.c -- the simulated device: presets, memory spaces, kernel
 * launches with SIMT warps, the operational memory system kernels run on,
 * and the per-site counters the cost model (engine/perf/) fills.
 *
 * Threads run in host code (Lua, in bindings/) through the run_warp
 * callback; they report every access here.  Values: global memory lives
 * in the allocations' bytes (L2, the point of coherence); each SM has a
 * store buffer (drained to L2 out of order across addresses, in order per
 * address) and an L1 of 32-byte sector copies that weak loads may read
 * stale: the memory system of engine/mem/, as the litmus sampler's
 * (memory.c).  Shared, local, constant and parameter memory are accessed
 * directly.  Every scheduler decision comes from the launch's seed.
 *
 * This file holds the presets, the device and its memory (allocations,
 * host reads and writes) and occupancy; sim.h lists the files that hold
 * the launch, its memory system and its cost model. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../check/check.h"
#include "../common/internal.h"
#include "../perf/perf.h"
#include "../program/ir.h"
#include "sim.h"

/* ------------------------------------------------------------------ */
/* presets                                                             */
/* ------------------------------------------------------------------ */

static const char *const preset_names[] = {"sm_90", "sm_80", "sm_70",
                                           "sm_35", "toy",   "banks5",
                                           NULL};

const char *const *wl_device_presets(void) { return preset_names; }

/* H100 SXM5 (CUDA Programming Guide, compute capability 9.0 table;
 * H100 whitepaper for the cache sizes). */
static void preset_sm90(wl_device_cfg *c) {
  memset(c, 0, sizeof *c);
  snprintf(c->name, sizeof c->name, "sm_90");
  c->sms = 132;
  c->max_threads_per_sm = 2048;
  c->max_warps_per_sm = 64;
  c->max_blocks_per_sm = 32;
  c->max_threads_per_block = 1024;
  c->regs_per_sm = 65536;
  c->max_regs_per_thread = 255;
  c->reg_alloc_unit = 256;
  c->l1_shared_bytes = 256 * 1024;
  c->shared_per_sm = 228 * 1024;
  c->shared_per_block = 227 * 1024;
  c->shared_reserved = 1024;
  c->shared_alloc_unit = 128;
  c->banks = 32;
  c->bank_bytes = 4;
  c->l1_line = 128;
  c->l1_sector = 32;
  c->l1_ways = 4;
  c->l2_bytes = 50u * 1024 * 1024;
  c->l2_line = 128;
  c->l2_sector = 32;
  c->l2_ways = 16;
  c->const_bytes = 64 * 1024;
  c->const_cache_bytes = 2 * 1024;
  c->const_line = 64;
  c->global_bytes = 1u << 30;
}

int wl_device_preset(wl_ctx *ctx, const char *name, wl_device_cfg *c) {
  if (name == NULL || strcmp(name, "sm_90") == 0) {
    preset_sm90(c);
    return 0;
  }
  preset_sm90(c);
  if (strcmp(name, "sm_80") == 0) { /* A100 */
    c->sms = 108;
    c->max_blocks_per_sm = 32;
    c->l1_shared_bytes = 192 * 1024;
    c->shared_per_sm = 164 * 1024;
    c->shared_per_block = 163 * 1024;
    c->l2_bytes = 40u * 1024 * 1024;
  } else if (strcmp(name, "sm_70") == 0) { /* V100 */
    c->sms = 80;
    c->l1_shared_bytes = 128 * 1024;
    c->shared_per_sm = 96 * 1024;
    c->shared_per_block = 96 * 1024;
    c->shared_reserved = 0;
    c->shared_alloc_unit = 256;
    c->fixed_carveout = 1;
    c->l2_bytes = 6u * 1024 * 1024;
  } else if (strcmp(name, "sm_35") == 0) { /* K20/K40, 8-byte banks */
    c->sms = 15;
    c->max_blocks_per_sm = 16;
    c->max_warps_per_sm = 64;
    c->l1_shared_bytes = 64 * 1024;
    c->shared_per_sm = 48 * 1024;
    c->shared_per_block = 48 * 1024;
    c->shared_reserved = 0;
    c->shared_alloc_unit = 256;
    c->fixed_carveout = 1;
    c->bank_bytes = 8;
    c->l2_bytes = 1536u * 1024;
    c->const_cache_bytes = 8 * 1024;
  } else if (strcmp(name, "toy") == 0) { /* the Guide's occupancy lesson */
    c->sms = 1;
    c->max_threads_per_sm = 768;
    c->max_warps_per_sm = 24;
    c->max_blocks_per_sm = 8;
    c->max_threads_per_block = 512;
    c->l1_shared_bytes = 32 * 1024;
    c->shared_per_sm = 16 * 1024;
    c->shared_per_block = 16 * 1024;
    c->shared_reserved = 0;
    c->shared_alloc_unit = 1;
    c->fixed_carveout = 1;
  } else if (strcmp(name, "banks5") == 0) { /* the padding lesson */
    c->banks = 5;
  } else {
    return wl__err(ctx, WL_EINVAL,
                   "unknown device preset '%s' (presets: sm_90, sm_80, "
                   "sm_70, sm_35, toy, banks5)",
                   name);
  }
  snprintf(c->name, sizeof c->name, "%s", name);
  return 0;
}

/* ------------------------------------------------------------------ */
/* the device and its memory                                           */
/* ------------------------------------------------------------------ */

static int pow2(uint64_t x) { return x && !(x & (x - 1)); }

static int check_cfg(wl_ctx *ctx, const wl_device_cfg *c) {
#define NEED(cond, ...)                                                        \
  do {                                                                         \
    if (!(cond))                                                               \
      return wl__err(ctx, WL_EINVAL, __VA_ARGS__);                             \
  } while (0)
  NEED(c->sms >= 1 && c->sms <= 4096, "device: sms must be 1..4096");
  NEED(c->max_threads_per_sm >= 32 && c->max_threads_per_sm <= 65536,
       "device: max_threads_per_sm must be 32..65536");
  NEED(c->max_warps_per_sm >= 1 && c->max_warps_per_sm <= 2048,
       "device: max_warps_per_sm must be 1..2048");
  NEED(c->max_blocks_per_sm >= 1 && c->max_blocks_per_sm <= 1024,
       "device: max_blocks_per_sm must be 1..1024");
  NEED(c->max_threads_per_block >= 1 && c->max_threads_per_block <= 65536,
       "device: max_threads_per_block must be 1..65536");
  NEED(c->regs_per_sm >= 1, "device: regs_per_sm must be positive");
  NEED(c->max_regs_per_thread >= 1, "device: max_regs_per_thread must be "
                                    "positive");
  NEED(c->reg_alloc_unit >= 1, "device: reg_alloc_unit must be positive");
  NEED(c->shared_per_sm <= c->l1_shared_bytes,
       "device: shared_per_sm (%u) exceeds l1_shared_bytes (%u)",
       c->shared_per_sm, c->l1_shared_bytes);
  NEED(c->shared_per_block <= c->shared_per_sm,
       "device: shared_per_block (%u) exceeds shared_per_sm (%u)",
       c->shared_per_block, c->shared_per_sm);
  NEED(c->shared_alloc_unit >= 1, "device: shared_alloc_unit must be "
                                  "positive");
  NEED(c->banks >= 1 && c->banks <= 64, "device: banks must be 1..64");
  NEED(c->bank_bytes == 4 || c->bank_bytes == 8,
       "device: bank_bytes must be 4 or 8");
  NEED(pow2(c->l1_sector) && pow2(c->l1_line) && c->l1_sector <= c->l1_line &&
           c->l1_ways >= 1,
       "device: L1 line and sector must be powers of two, sector <= line, "
       "ways >= 1");
  NEED(pow2(c->l2_sector) && pow2(c->l2_line) && c->l2_sector <= c->l2_line &&
           c->l2_ways >= 1 && c->l2_bytes >= c->l2_line * c->l2_ways,
       "device: L2 line and sector must be powers of two, sector <= line, "
       "ways >= 1, size >= line * ways");
  NEED(c->const_bytes >= 1 && c->const_bytes <= (1u << 24),
       "device: const_bytes must be 1..16 MB");
  NEED(pow2(c->const_line) && c->const_cache_bytes >= c->const_line,
       "device: const_line must be a power of two no larger than "
       "const_cache_bytes");
  NEED(c->global_bytes >= 256, "device: global_bytes too small");
#undef NEED
  return 0;
}

int wl_device_new(wl_ctx *ctx, const wl_device_cfg *cfg, wl_device **out) {
  wl_device *d;
  int rc;
  *out = NULL;
  if ((rc = check_cfg(ctx, cfg)) != 0)
    return rc;
  if ((d = wl__calloc(ctx, sizeof *d)) == NULL)
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  d->ctx = ctx;
  d->cfg = *cfg;
  wl__vec_init(&d->allocs, sizeof(alloc));
  d->gnext = 0x10000000; /* global addresses start here, 256-aligned */
  *out = d;
  return 0;
}

int wl__sim_device_l2(wl_device *d) {
  wl_cache_cfg c;
  c.size_bytes = d->cfg.l2_bytes;
  c.line_bytes = d->cfg.l2_line;
  c.sector_bytes = d->cfg.l2_sector;
  c.ways = d->cfg.l2_ways;
  return wl__cache_new(d->ctx, &c, &d->l2);
}

void wl_device_free(wl_device *d) {
  size_t i;
  if (d == NULL)
    return;
  for (i = 0; i < d->allocs.n; i++) {
    alloc *a = WL_VEC_PTR(&d->allocs, alloc, i);
    if (a->data)
      wl__free(d->ctx, a->data, a->cap);
    if (a->written)
      wl__free(d->ctx, a->written, written_bytes(a));
  }
  wl__vec_free(d->ctx, &d->allocs);
  wl__cache_free(d->l2);
  wl__free(d->ctx, d, sizeof *d);
}

const wl_device_cfg *wl_device_config(const wl_device *d) { return &d->cfg; }

int wl_device_set_banks(wl_device *d, int nbanks, int bank_bytes) {
  wl_device_cfg c = d->cfg;
  int rc;
  if (d->running)
    return wl__err(d->ctx, WL_EINVAL,
                   "the bank layout cannot change during a launch");
  c.banks = nbanks;
  c.bank_bytes = bank_bytes;
  if ((rc = check_cfg(d->ctx, &c)) != 0)
    return rc;
  d->cfg = c;
  return 0;
}

int wl_device_alloc(wl_device *d, int space, uint64_t bytes, const char *name,
                    int *id) {
  alloc *a;
  uint64_t base = 0, sz = bytes ? bytes : 1;
  *id = -1;
  if (d->allocs.n >= 1u << 20)
    return wl__err(d->ctx, WL_ELIMIT, "too many allocations (1048576)");
  switch (space) {
  case WL_SPACE_GLOBAL:
  case WL_SPACE_MANAGED:
    if (sz > d->cfg.global_bytes - d->gused)
      return wl__err(d->ctx, WL_ELIMIT,
                     "out of device memory: %llu bytes requested for '%s', "
                     "%llu of %llu left",
                     (unsigned long long)bytes, name ? name : "?",
                     (unsigned long long)(d->cfg.global_bytes - d->gused),
                     (unsigned long long)d->cfg.global_bytes);
    base = d->gnext;
    d->gnext += (sz + 255) & ~(uint64_t)255;
    d->gused += sz;
    break;
  case WL_SPACE_CONSTANT:
    if (sz > d->cfg.const_bytes - d->cused)
      return wl__err(d->ctx, WL_ELIMIT,
                     "constant memory is %u bytes: '%s' needs %llu, %llu "
                     "left",
                     d->cfg.const_bytes, name ? name : "?",
                     (unsigned long long)bytes,
                     (unsigned long long)(d->cfg.const_bytes - d->cused));
    base = d->cused;
    d->cused += (sz + 15) & ~(uint64_t)15;
    if (d->cused > d->cfg.const_bytes)
      d->cused = d->cfg.const_bytes;
    break;
  case WL_SPACE_PARAM:
    if (sz > 32764)
      return wl__err(d->ctx, WL_ELIMIT,
                     "kernel parameters are limited to 32764 bytes");
    base = d->pnext;
    d->pnext += (sz + 15) & ~(uint64_t)15;
    break;
  default:
    return wl__err(d->ctx, WL_EINVAL,
                   "wl_device_alloc: space must be global, managed, "
                   "constant or param");
  }
  if ((a = wl__vec_push(d->ctx, &d->allocs)) == NULL)
    return wl__err(d->ctx, WL_ENOMEM, "out of memory");
  a->cap = (sz + 31) / 32 * 32;
  if ((a->data = wl__calloc(d->ctx, a->cap)) == NULL) {
    d->allocs.n--;
    return wl__err(d->ctx, WL_ENOMEM, "out of memory (%llu bytes for '%s')",
                   (unsigned long long)bytes, name ? name : "?");
  }
  a->base = base;
  a->size = sz;
  if ((space == WL_SPACE_GLOBAL || space == WL_SPACE_MANAGED) &&
      (a->written = wl__calloc(d->ctx, written_bytes(a))) == NULL) {
    wl__free(d->ctx, a->data, a->cap);
    d->allocs.n--;
    return wl__err(d->ctx, WL_ENOMEM, "out of memory (%llu bytes for '%s')",
                   (unsigned long long)bytes, name ? name : "?");
  }
  a->space = space;
  a->live = 1;
  snprintf(a->name, sizeof a->name, "%s", name ? name : "?");
  *id = (int)(d->allocs.n - 1);
  return 0;
}

int wl_device_release(wl_device *d, int id) {
  alloc *a = get_alloc(d, id);
  if (a == NULL)
    return wl__err(d->ctx, WL_EINVAL, "no allocation %d (freed twice?)", id);
  if (d->running)
    return wl__err(d->ctx, WL_EINVAL, "cannot free '%s' during a launch",
                   a->name);
  /* the space of the newest allocation of constant and parameter memory
   * comes back (they are bump-allocated; parameters are freed after each
   * launch, newest first) */
  if (a->space == WL_SPACE_GLOBAL || a->space == WL_SPACE_MANAGED)
    d->gused -= a->size;
  else if (a->space == WL_SPACE_CONSTANT &&
           a->base + ((a->size + 15) & ~(uint64_t)15) == d->cused)
    d->cused = a->base;
  else if (a->space == WL_SPACE_PARAM &&
           a->base + ((a->size + 15) & ~(uint64_t)15) == d->pnext)
    d->pnext = a->base;
  wl__free(d->ctx, a->data, a->cap);
  a->data = NULL;
  if (a->written)
    wl__free(d->ctx, a->written, written_bytes(a));
  a->written = NULL;
  a->live = 0;
  return 0;
}

static int host_range(const wl_device *d, int id, uint64_t off, uint64_t n,
                      alloc **pa) {
  alloc *a = get_alloc(d, id);
  if (a == NULL)
    return wl__err(d->ctx, WL_EINVAL, "no allocation %d", id);
  if (off > a->size || n > a->size - off)
    return wl__err(d->ctx, WL_EINVAL,
                   "copy of %llu bytes at offset %llu is outside '%s' "
                   "(%llu bytes)",
                   (unsigned long long)n, (unsigned long long)off, a->name,
                   (unsigned long long)a->size);
  *pa = a;
  return 0;
}

int wl_device_write(wl_device *d, int id, uint64_t off, const void *src,
                    uint64_t n) {
  alloc *a = NULL;
  int rc = host_range(d, id, off, n, &a);
  uint64_t w;
  if (rc == 0 && n)
    memcpy(a->data + off, src, n);
  if (rc == 0 && n && a->written != NULL)
    for (w = off / 4; w <= (off + n - 1) / 4; w++)
      a->written[w / 8] |= (uint8_t)(1u << (w % 8));
  return rc;
}

int wl_device_read(const wl_device *d, int id, uint64_t off, void *dst,
                   uint64_t n) {
  alloc *a = NULL;
  int rc = host_range(d, id, off, n, &a);
  if (rc == 0 && n)
    memcpy(dst, a->data + off, n);
  return rc;
}

uint64_t wl_device_alloc_size(const wl_device *d, int id) {
  alloc *a = get_alloc(d, id);
  return a ? a->size : 0;
}
int wl_device_alloc_space(const wl_device *d, int id) {
  alloc *a = get_alloc(d, id);
  return a ? a->space : -1;
}
uint64_t wl_device_alloc_addr(const wl_device *d, int id) {
  alloc *a = get_alloc(d, id);
  return a ? a->base : 0;
}
const char *wl_device_alloc_name(const wl_device *d, int id) {
  alloc *a = get_alloc(d, id);
  return a ? a->name : NULL;
}

/* ------------------------------------------------------------------ */
/* occupancy                                                           */
/* ------------------------------------------------------------------ */

static uint64_t round_up(uint64_t x, uint64_t u) {
  return u <= 1 ? x : (x + u - 1) / u * u;
}

/* The carve-outs an sm_8x/9x driver chooses from (KB), capped by the
 * device's shared_per_sm, which is always a choice. */
static const uint32_t carveouts_kb[] = {0,   8,   16,  32,  64,
                                        100, 132, 164, 196, 228};

int wl_device_occupancy(wl_device *d, const wl_launch_cfg *cfg,
                        wl_occupancy *o) {
  const wl_device_cfg *c = &d->cfg;
  uint64_t t64 = (uint64_t)dim(cfg->block[0]) * (uint64_t)dim(cfg->block[1]);
  int threads, regs = cfg->regs_per_thread > 0 ? cfg->regs_per_thread : 32;
  uint64_t shb = (uint64_t)cfg->static_shared + cfg->dynamic_shared;
  uint64_t need, carve;
  wl_occ_cfg oc;
  wl_occ_kernel ok;
  wl_occ_result res;
  int rc, other;
  size_t i;
  memset(o, 0, sizeof *o);
  if (wl_size_mul(t64, (uint64_t)dim(cfg->block[2]), &t64) != 0 ||
      t64 > (uint64_t)c->max_threads_per_block)
    return wl__err(d->ctx, WL_EINVAL,
                   "a block of %d x %d x %d threads exceeds the device's %d "
                   "threads per block",
                   dim(cfg->block[0]), dim(cfg->block[1]), dim(cfg->block[2]),
                   c->max_threads_per_block);
  threads = (int)t64;
  if (shb > c->shared_per_block)
    return wl__err(d->ctx, WL_EINVAL,
                   "a block needs %llu bytes of shared memory; the device "
                   "allows %u per block",
                   (unsigned long long)shb, c->shared_per_block);
  wl__occ_from_device(c, &oc);
  ok.threads_per_block = threads;
  ok.regs_per_thread = regs;
  ok.shared_per_block = (int)shb;
  /* first with the largest carve-out: the limits other than shared
   * memory, and whether a block fits at all */
  if ((rc = wl__occupancy(&oc, &ok, &res)) != 0)
    return wl__err(d->ctx, rc, "%s", res.msg);
  other = res.by_threads;
  if (res.by_warps < other)
    other = res.by_warps;
  if (res.by_blocks < other)
    other = res.by_blocks;
  if (res.by_regs < other)
    other = res.by_regs;
  /* the carve-out: the largest for PreferShared, the smallest that fits
   * one block for PreferL1, half the unified memory for PreferEqual,
   * and otherwise the smallest that lets the other limits be reached */
  need = round_up(shb + c->shared_reserved, c->shared_alloc_unit);
  carve = c->shared_per_sm;
  if (cfg->cache_pref != WL_CACHE_PREFER_SHARED && !c->fixed_carveout) {
    uint64_t want = cfg->cache_pref == WL_CACHE_PREFER_L1 ? need
                    : cfg->cache_pref == WL_CACHE_PREFER_EQUAL
                        ? c->l1_shared_bytes / 2
                        : need * (uint64_t)other;
    for (i = 0; i < sizeof carveouts_kb / sizeof carveouts_kb[0]; i++) {
      uint64_t k = (uint64_t)carveouts_kb[i] * 1024;
      if (k >= want && k < carve)
        carve = k;
    }
  }
  oc.shared_per_sm_bytes = (int)carve;
  if ((rc = wl__occupancy(&oc, &ok, &res)) != 0)
    return wl__err(d->ctx, rc, "%s", res.msg);
  o->blocks_per_sm = res.blocks_per_sm;
  o->limiter = res.limit == WL_OCC_THREADS     ? WL_LIMIT_THREADS
               : res.limit == WL_OCC_BLOCKS    ? WL_LIMIT_BLOCKS
               : res.limit == WL_OCC_WARPS     ? WL_LIMIT_WARPS
               : res.limit == WL_OCC_REGISTERS ? WL_LIMIT_REGS
                                               : WL_LIMIT_SHARED;
  o->by_threads = res.by_threads;
  o->by_warps = res.by_warps;
  o->by_blocks = res.by_blocks;
  o->by_regs = res.by_regs;
  o->by_shared = res.by_shared;
  o->shared_per_sm = (uint32_t)carve;
  o->shared_per_block = (uint32_t)need;
  o->warps_per_sm = res.active_warps;
  o->occupancy = res.occupancy;
  return 0;
}

