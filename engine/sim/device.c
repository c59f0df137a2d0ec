/* device.c -- the simulated device: presets, memory spaces, kernel
 * launches with SIMT warps, the operational memory system kernels run on,
 * and the per-site counters the cost model (engine/perf/) fills.
 *
 * Threads run in host code (Lua, in bindings/) through the run_warp
 * callback; they report every access here.  Values: global memory lives
 * in the allocations' bytes (L2, the point of coherence); each SM has a
 * store buffer (drained to L2 out of order across addresses, in order per
 * address) and an L1 of 32-byte sector copies that weak loads may read
 * stale.  Shared, local, constant and parameter memory are accessed
 * directly.  Every scheduler decision comes from the launch's seed. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../check/check.h"
#include "../common/internal.h"
#include "../perf/perf.h"
#include "../program/ir.h"

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

typedef struct alloc {
  uint64_t base, size, cap; /* cap: bytes allocated, whole 32-byte sectors
                             * (an L1 fill copies a sector) */
  int space, live;
  char name[48];
  uint8_t *data;
  /* global and managed memory: a bit per 4-byte word ever written (by
   * the host or a store), for WL_CHECK_UNINIT; all_written once a launch
   * without that checker ran (it may have written anything) */
  uint8_t *written;
  int all_written;
} alloc;

static uint64_t written_bytes(const alloc *a) { return a->size / 32 + 1; }

struct wl_device {
  wl_ctx *ctx;
  wl_device_cfg cfg;
  wl_vec allocs; /* alloc */
  uint64_t gnext, gused, cused, pnext;
  int running;  /* a launch is in progress */
  wl_cache *l2; /* the cost model's L2: warm across launches */
};

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

static const char *space_name(int s) {
  static const char *const n[] = {"global",   "managed", "constant",
                                  "param",    "shared",  "local"};
  return s >= 0 && s <= WL_SPACE_LOCAL ? n[s] : "?";
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

static alloc *get_alloc(const wl_device *d, int id) {
  alloc *a;
  if (id < 0 || (size_t)id >= d->allocs.n)
    return NULL;
  a = WL_VEC_PTR(&d->allocs, alloc, id);
  return a->live ? a : NULL;
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

static int dim(int x) { return x <= 0 ? 1 : x; }

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

/* ------------------------------------------------------------------ */
/* launches                                                            */
/* ------------------------------------------------------------------ */

/* the counters, per site and per kernel */
#define COUNTERS(X)                                                            \
  X(INST, "smsp__inst_executed.sum")                                           \
  X(THREAD_INST, "smsp__thread_inst_executed.sum")                             \
  X(SH_WF_LD, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum")          \
  X(SH_WF_ST, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum")          \
  X(SH_BC_LD, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")      \
  X(SH_BC_ST, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")      \
  X(GL_REQ_LD, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")              \
  X(GL_REQ_ST, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum")              \
  X(GL_REQ_ATOM, "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum")          \
  X(GL_SEC_LD, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")               \
  X(GL_SEC_ST, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum")               \
  X(GL_SEC_ATOM, "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum")           \
  X(GL_HIT_LD, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum")    \
  X(GL_MISS_LD, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum")  \
  X(LO_REQ, "l1tex__t_requests_pipe_lsu_mem_local.sum")                        \
  X(LO_SEC, "l1tex__t_sectors_pipe_lsu_mem_local.sum")                         \
  X(L2_SEC, "lts__t_sectors_srcunit_tex.sum")                                  \
  X(L2_HIT, "lts__t_sectors_srcunit_tex_lookup_hit.sum")                       \
  X(L2_MISS, "lts__t_sectors_srcunit_tex_lookup_miss.sum")                     \
  X(CONST_REQ, "idc__requests.sum")                                            \
  X(CONST_HIT, "idc__requests_lookup_hit.sum")                                 \
  X(CONST_MISS, "idc__requests_lookup_miss.sum")                               \
  X(CONST_CYC, "warplab__constant_cycles_estimate.sum")

enum {
#define C_ENUM(id, name) C_##id,
  COUNTERS(C_ENUM)
#undef C_ENUM
      NCOUNTERS
};

static const char *const counter_names[] = {
#define C_NAME(id, name) name,
    COUNTERS(C_NAME)
#undef C_NAME
        NULL};

const char *wl_launch_counter_name(int i) {
  return i >= 0 && i < NCOUNTERS ? counter_names[i] : NULL;
}

typedef struct site {
  int line, space, kind, width;
  int l1pol; /* L1_ALLOCATE: weak .ca/.cs loads and __ldg; L1_BYPASS:
              * .cg (L2 only), .cv and volatile (fetched again), strong
              * loads (relaxed/acquire: performed at L2) */
  uint64_t c[NCOUNTERS];
  /* shared sites: the lanes' addresses of the costliest request (the
   * first of the most wavefronts), for heatmaps */
  int worst; /* its wavefronts, -1 before any */
  uint32_t worst_mask;
  uint64_t worst_addr[32];
} site;

/* a warp-wide request being gathered: the n-th access of its lanes at
 * one site */
typedef struct group {
  int site, done; /* done: priced, kept so positions stay hints */
  uint32_t mask;
  uint64_t addr[32];
} group;

typedef struct local_arr {
  uint8_t *p;
  uint64_t n;
} local_arr;

typedef struct shared_arr {
  uint64_t off, size;
} shared_arr;

typedef struct warp_st {
  wl_vec groups;  /* group, in the order lanes first reach them */
  uint32_t alive; /* lanes that have not exited */
  int compacted;  /* positions are no hints until the warp converges */
} warp_st;

typedef struct slot {
  int block; /* -1: free */
  int sm;
  uint8_t *shmem;
  uint64_t shcap, shused;
  wl_vec decls;    /* shared_arr */
  uint8_t *state;  /* WL_LANE_* per thread */
  int *barline;    /* line of the barrier a thread waits at */
  int *ndecl;      /* shared declarations made, per thread */
  uint32_t *slice; /* accesses since the lane was resumed */
  uint32_t *seq;   /* accesses since the warp converged: the lane's n-th
                    * access usually joins the warp's n-th request */
  uint8_t *irregular; /* the lane joined a request off its position */
  wl_vec *locals;  /* local_arr, per thread */
  warp_st *warps;
  int nexited, nwaiting;
  int dyn_id;       /* WL_SHARED_EXTERN once the extern region is placed */
  uint64_t dyn_off; /* where it is in the block's shared memory */
  /* warp operations (__syncwarp, shuffles, votes), made at the first:
   * per thread, the one it waits at and its result */
  wl_warp_op *wop;
  int64_t *wres;
  uint8_t *wresint;
} slot;

typedef struct sbuf_ent {
  int id;
  uint32_t width;
  uint64_t off, born;
  uint8_t data[16];
} sbuf_ent;

#define L1_SLOTS 512
typedef struct l1_line {
  uint64_t key; /* sector address / 32 + 1; 0: empty */
  uint8_t data[32];
} l1_line;

#define SB_BUCKETS 64
typedef struct sm_st {
  wl_vec buf; /* sbuf_ent, oldest first */
  uint8_t bucket[SB_BUCKETS]; /* entries per (allocation, 32-byte sector)
                               * hash: most loads skip the buffer scan */
  l1_line *l1;
  int l1_used;
  int resident;
  wl_cache *pl1;    /* the cost model's L1 (hit rates) */
  wl_cache *pconst; /* constant cache */
} sm_st;

typedef struct profile {
  double p_drain;   /* per step, each entry of the running SM's buffer */
  uint64_t max_age; /* steps an entry may wait */
  double p_evict;   /* per step, the running SM's L1 forgets its copies */
} profile;

static const profile profiles[] = {
    {0.05, 2000, 0.002}, /* weak: long buffers, stale L1 */
    {0.5, 40, 0.05},     /* h100 */
};

struct wl_launch {
  wl_device *dev;
  wl_ctx *ctx;
  wl_launch_cfg cfg;
  wl_occupancy occ;
  const profile *prof;
  int gdim[3], bdim[3];
  int nblocks, nthreads, nwarps;
  int next_block, done_blocks;
  slot *slots;
  int nslots;
  int *slot_of; /* block -> slot, -1 */
  sm_st *sms;
  int nsms;
  wl_cache *pl2;
  uint64_t rng, steps, shared_cap;
  wl_cache_cfg l1c, cc; /* per-SM caches, made when an SM first needs one */
  int bank_shift;       /* log2 of bank_bytes (-1: not a power of two) */
  int has_l1;
  wl_vec sites; /* site */
  int *site_hash;
  int site_hash_n;
  uint64_t total[NCOUNTERS];
  char err[WL_ERRMSG_MAX];
  int failed;
  int last_block, last_thread, last_line; /* the latest access */
  wl__chk *chk; /* the checkers (cfg.check), while the launch runs */
  wl_vec finds; /* wl_finding: what they found */
};

static uint64_t rnd(wl_launch *l) {
  uint64_t z = (l->rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static double rndf(wl_launch *l) {
  return (double)(rnd(l) >> 11) * (1.0 / 9007199254740992.0);
}

static void coords(int lin, const int d3[3], int out[3]) {
  out[0] = lin % d3[0];
  out[1] = lin / d3[0] % d3[1];
  out[2] = lin / (d3[0] * d3[1]);
}

int wl_kernel_fail(wl_launch *l, int block, int thread, const char *file,
                   int line, const char *msg) {
  int b[3], t[3];
  coords(block, l->gdim, b);
  coords(thread, l->bdim, t);
  snprintf(l->err, sizeof l->err,
           "%s:%d: block (%d,%d,%d) thread (%d,%d,%d) warp %d lane %d: %s",
           file ? file : l->cfg.source ? l->cfg.source : "kernel", line, b[0],
           b[1], b[2],
           t[0], t[1], t[2], thread / 32, thread % 32, msg);
  l->failed = 1;
  return wl__err(l->ctx, WL_ERUNTIME, "%s", l->err);
}

const char *wl_launch_errmsg(const wl_launch *l) { return l->err; }

static slot *slot_of(wl_launch *l, int block) {
  if (l->slot_of == NULL || block < 0 || block >= l->nblocks ||
      l->slot_of[block] < 0)
    return NULL;
  return &l->slots[l->slot_of[block]];
}

int wl_kernel_lane_state(const wl_launch *l, int block, int thread) {
  slot *s;
  if (l->slot_of == NULL || block < 0 || block >= l->nblocks ||
      l->slot_of[block] < 0 || thread < 0 || thread >= l->nthreads)
    return WL_LANE_NONE;
  s = &l->slots[l->slot_of[block]];
  return s->state[thread];
}

int wl_kernel_threads_per_block(const wl_launch *l) { return l->nthreads; }

/* ---------------------------- sites ------------------------------- */

/* how a load uses the SM's L1 in the cost model */
enum { L1_ALLOCATE, L1_BYPASS };

static int site_id(wl_launch *l, int line, int space, int kind, int width,
                   int l1pol) {
  uint32_t h = ((uint32_t)line * 2654435761u) ^
               (uint32_t)(space * 131 + kind * 17 + width + l1pol * 7919);
  int mask = l->site_hash_n - 1, i = (int)(h & (uint32_t)mask);
  site *s;
  for (;;) {
    int k = l->site_hash[i];
    if (k < 0)
      break;
    s = WL_VEC_PTR(&l->sites, site, k);
    if (s->line == line && s->space == space && s->kind == kind &&
        s->width == width && s->l1pol == l1pol)
      return k;
    i = (i + 1) & mask;
  }
  if (l->sites.n * 2 >= (size_t)l->site_hash_n)
    return wl__err(l->ctx, WL_ELIMIT, "too many access sites in one kernel");
  if ((s = wl__vec_push(l->ctx, &l->sites)) == NULL)
    return wl__err(l->ctx, WL_ENOMEM, "out of memory");
  s->line = line;
  s->space = space;
  s->kind = kind;
  s->width = width;
  s->l1pol = l1pol;
  s->worst = -1;
  l->site_hash[i] = (int)(l->sites.n - 1);
  return l->site_hash[i];
}

int wl_launch_nsites(const wl_launch *l) { return (int)l->sites.n; }

int wl_launch_site(const wl_launch *l, int k, int *line, int *space,
                   int *kind, int *width) {
  const site *s;
  if (k < 0 || (size_t)k >= l->sites.n)
    return WL_EINVAL;
  s = WL_VEC_PTR(&l->sites, site, k);
  *line = s->line;
  *space = s->space;
  *kind = s->kind;
  *width = s->width;
  return 0;
}

int wl_launch_site_worst(const wl_launch *l, int k, uint32_t *mask,
                         uint64_t addr[32]) {
  const site *s;
  if (k < 0 || (size_t)k >= l->sites.n)
    return WL_EINVAL;
  s = WL_VEC_PTR(&l->sites, site, k);
  if (s->worst < 0)
    return WL_EINVAL;
  *mask = s->worst_mask;
  memcpy(addr, s->worst_addr, sizeof s->worst_addr);
  return s->worst;
}

uint64_t wl_launch_counter(const wl_launch *l, int k, int i) {
  if (i < 0 || i >= NCOUNTERS)
    return 0;
  if (k < 0)
    return l->total[i];
  if ((size_t)k >= l->sites.n)
    return 0;
  return WL_VEC_PTR(&l->sites, site, k)->c[i];
}

const wl_occupancy *wl_launch_occupancy(const wl_launch *l) { return &l->occ; }

int wl_launch_nfindings(const wl_launch *l) {
  return l != NULL ? (int)l->finds.n : 0;
}

const wl_finding *wl_launch_finding(const wl_launch *l, int i) {
  if (l == NULL || i < 0 || (size_t)i >= l->finds.n)
    return NULL;
  return WL_VEC_PTR(&l->finds, wl_finding, (size_t)i);
}
uint64_t wl_launch_steps(const wl_launch *l) { return l->steps; }

/* --------------------------- pricing ------------------------------ */

static void count(wl_launch *l, site *s, int c, uint64_t n) {
  s->c[c] += n;
  l->total[c] += n;
}

/* The SM's L1 and constant cache of the cost model (NULL: no L1). */
static int sm_caches(wl_launch *l, sm_st *m) {
  int rc;
  if (m->pconst != NULL)
    return 0;
  if (l->has_l1 && (rc = wl__cache_new(l->ctx, &l->l1c, &m->pl1)) != 0)
    return rc;
  return wl__cache_new(l->ctx, &l->cc, &m->pconst);
}

/* Prices one warp-wide request with the cost model. */
static int price(wl_launch *l, int sm, const group *g) {
  site *s = WL_VEC_PTR(&l->sites, site, g->site);
  wl_warp_req r;
  int i;
  if ((i = sm_caches(l, &l->sms[sm])) != 0)
    return i;
  count(l, s, C_INST, 1);
  count(l, s, C_THREAD_INST, (uint64_t)__builtin_popcount(g->mask));
  if (s->space == WL_SPACE_SHARED && s->width <= l->dev->cfg.bank_bytes &&
      l->bank_shift >= 0) {
    /* the common narrow case without building a request (the lanes'
     * alignment was checked as they accessed) */
    uint64_t lo = UINT64_MAX, hi = 0;
    uint32_t b;
    int n, wf, ideal;
    for (b = g->mask; b != 0; b &= b - 1) {
      uint64_t w = g->addr[__builtin_ctz(b)] >> l->bank_shift;
      lo = w < lo ? w : lo;
      hi = w > hi ? w : hi;
    }
    if (hi - lo < (uint64_t)l->dev->cfg.banks) {
      wf = ideal = 1; /* consecutive words: a bank each (or broadcast) */
    } else {
      uint32_t words[WL_BANK_MAX] = {0};
      wf = wl__bank_narrow(g->addr, g->mask, l->bank_shift,
                           (uint64_t)l->dev->cfg.banks, words, &n);
      ideal = (n + l->dev->cfg.banks - 1) / l->dev->cfg.banks;
    }
    count(l, s, s->kind == WL_ACC_LOAD ? C_SH_WF_LD : C_SH_WF_ST,
          (uint64_t)wf);
    count(l, s, s->kind == WL_ACC_LOAD ? C_SH_BC_LD : C_SH_BC_ST,
          (uint64_t)(wf - ideal));
    if (wf > s->worst) {
      s->worst = wf;
      s->worst_mask = g->mask;
      for (i = 0; i < 32; i++)
        s->worst_addr[i] = (g->mask >> i & 1) ? g->addr[i] : 0;
    }
    return 0;
  }
  r.active = g->mask;
  r.width = s->width;
  r.store = s->kind != WL_ACC_LOAD;
  for (i = 0; i < 32; i++)
    r.addr[i] = (g->mask >> i & 1) ? g->addr[i] : 0;
  switch (s->space) {
  case WL_SPACE_SHARED: {
    wl_bank_cfg bc;
    wl_shared_cost sc;
    bc.nbanks = l->dev->cfg.banks;
    bc.bank_bytes = l->dev->cfg.bank_bytes;
    if (wl_price_shared(&bc, &r, &sc) != 0)
      return 0; /* alignment was checked per lane */
    count(l, s, s->kind == WL_ACC_LOAD ? C_SH_WF_LD : C_SH_WF_ST,
          (uint64_t)sc.wavefronts);
    if (sc.wavefronts > s->worst) {
      s->worst = sc.wavefronts;
      s->worst_mask = g->mask;
      memcpy(s->worst_addr, r.addr, sizeof r.addr);
    }
    count(l, s, s->kind == WL_ACC_LOAD ? C_SH_BC_LD : C_SH_BC_ST,
          (uint64_t)sc.conflicts);
    break;
  }
  case WL_SPACE_GLOBAL:
  case WL_SPACE_MANAGED:
  case WL_SPACE_LOCAL: {
    wl_global_cost gc;
    int k, l1 = s->kind == WL_ACC_LOAD && s->space != WL_SPACE_LOCAL &&
                s->l1pol == L1_ALLOCATE;
    if (wl_price_global(&r, &gc) != 0)
      return 0;
    if (s->space == WL_SPACE_LOCAL) {
      count(l, s, C_LO_REQ, (uint64_t)gc.requests);
      count(l, s, C_LO_SEC, (uint64_t)gc.sectors);
    } else if (s->kind == WL_ACC_LOAD) {
      count(l, s, C_GL_REQ_LD, (uint64_t)gc.requests);
      count(l, s, C_GL_SEC_LD, (uint64_t)gc.sectors);
    } else if (s->kind == WL_ACC_STORE) {
      count(l, s, C_GL_REQ_ST, (uint64_t)gc.requests);
      count(l, s, C_GL_SEC_ST, (uint64_t)gc.sectors);
    } else {
      count(l, s, C_GL_REQ_ATOM, (uint64_t)gc.requests);
      count(l, s, C_GL_SEC_ATOM, (uint64_t)gc.sectors);
    }
    for (k = 0; k < gc.nsec; k++) {
      int hit = 0;
      if (l1 && l->sms[sm].pl1) {
        hit = wl__cache_access(l->sms[sm].pl1, gc.sector[k], 1);
        count(l, s, hit ? C_GL_HIT_LD : C_GL_MISS_LD, 1);
      }
      if (!hit) {
        int h2 = wl__cache_access(l->pl2, gc.sector[k], 1);
        count(l, s, C_L2_SEC, 1);
        count(l, s, h2 ? C_L2_HIT : C_L2_MISS, 1);
      }
    }
    break;
  }
  case WL_SPACE_CONSTANT:
  case WL_SPACE_PARAM: {
    /* one request per distinct address, serialized; hits by line */
    uint64_t seen[32];
    int n = 0, j, hits = 0;
    for (i = 0; i < 32; i++) {
      if (!(g->mask >> i & 1))
        continue;
      for (j = 0; j < n && seen[j] != g->addr[i]; j++)
        ;
      if (j == n)
        seen[n++] = g->addr[i];
    }
    for (j = 0; j < n; j++) {
      uint64_t line = seen[j] / l->dev->cfg.const_line * l->dev->cfg.const_line;
      int h = l->sms[sm].pconst ? wl__cache_access(l->sms[sm].pconst, line, 1)
                                : 0;
      hits += h;
    }
    count(l, s, C_CONST_REQ, (uint64_t)n);
    count(l, s, C_CONST_HIT, (uint64_t)hits);
    count(l, s, C_CONST_MISS, (uint64_t)(n - hits));
    count(l, s, C_CONST_CYC, (uint64_t)(wl_const_cycles(n, n - hits) + 0.5));
    break;
  }
  default:
    break;
  }
  return 0;
}

/* Prices every request a warp gathered (it converged: its lanes wait at
 * a barrier or have exited). */
static int flush_warp(wl_launch *l, slot *s, int warp) {
  warp_st *w = &s->warps[warp];
  size_t i;
  int t, rc;
  for (i = 0; i < w->groups.n; i++) {
    group *g = WL_VEC_PTR(&w->groups, group, i);
    if (!g->done && (rc = price(l, s->sm, g)) != 0)
      return rc;
  }
  w->groups.n = 0;
  w->compacted = 0;
  for (t = warp * 32; t < warp * 32 + 32 && t < l->nthreads; t++) {
    s->seq[t] = 0;
    s->irregular[t] = 0;
  }
  return 0;
}

/* Drops the priced requests of a warp that has gathered many (a long
 * stretch without a barrier); positions stop being hints until the warp
 * converges. */
static void compact_warp(warp_st *w) {
  size_t i, n = 0;
  group *g = WL_VEC_PTR(&w->groups, group, 0);
  for (i = 0; i < w->groups.n; i++)
    if (!g[i].done)
      g[n++] = g[i];
  w->groups.n = n;
}

/* Adds lane's access at site k, address addr, to its warp's request.
 * A lane joins the oldest request at that site it is not part of yet, so
 * its n-th access at a site joins the site's n-th request: lanes that run
 * the same code make the same requests, and a lane that skipped some
 * (divergence) joins the ones of the iterations it does run. */
static int gather(wl_launch *l, slot *s, int thread, int k, uint64_t addr) {
  int warp = thread / 32, lane = thread % 32;
  uint32_t bit = 1u << lane, hint = s->seq[thread]++;
  warp_st *w = &s->warps[warp];
  group *g = NULL;
  size_t i;
  /* lanes run one after the other through the same code: the n-th
   * access of this lane most likely belongs to the n-th request */
  if (hint < w->groups.n) {
    group *x = WL_VEC_PTR(&w->groups, group, hint);
    if (x->site == k && !(x->mask & bit) && !x->done) {
      /* the hint is right unless an older request at k lacks the lane,
       * which cannot be while the lane has joined request i at its i-th
       * access every time since the warp converged */
      g = x;
      for (i = 0; (s->irregular[thread] || w->compacted) && i < hint && g == x;
           i++) {
        group *y = WL_VEC_PTR(&w->groups, group, i);
        if (y->site == k && !(y->mask & bit) && !y->done)
          g = y;
      }
    }
  }
  for (i = 0; g == NULL && i < w->groups.n; i++) {
    group *x = WL_VEC_PTR(&w->groups, group, i);
    if (x->site == k && !(x->mask & bit) && !x->done)
      g = x;
  }
  if (g == NULL) {
    if (w->groups.n >= 4096) { /* a long divergent stretch: price early */
      int rc = 0;
      for (i = 0; rc == 0 && i < w->groups.n; i++) {
        group *x = WL_VEC_PTR(&w->groups, group, i);
        if (!x->done) {
          rc = price(l, s->sm, x);
          x->done = 1;
        }
      }
      if (rc)
        return rc;
      compact_warp(w);
      w->compacted = 1;
    }
    if ((g = wl__vec_push(l->ctx, &w->groups)) == NULL)
      return wl__err(l->ctx, WL_ENOMEM, "out of memory");
    g->site = k;
  }
  if (g != WL_VEC_PTR(&w->groups, group, hint))
    s->irregular[thread] = 1;
  g->mask |= bit;
  g->addr[lane] = addr;
  if (g->mask == w->alive) {
    g->done = 1;
    return price(l, s->sm, g);
  }
  return 0;
}

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

static void l1_clear(sm_st *m) {
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
    l1_clear(m); /* full: forget everything (capacity eviction) */
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

/* Writes buffer entry i of SM m to L2 and removes it. */
static void drain_one(wl_launch *l, sm_st *m, size_t i) {
  sbuf_ent *e = WL_VEC_PTR(&m->buf, sbuf_ent, i);
  alloc *a = get_alloc(l->dev, e->id);
  if (a != NULL)
    memcpy(a->data + e->off, e->data, e->width);
  m->bucket[sb_bucket(e->id, e->off)]--;
  memmove(e, e + 1, (m->buf.n - i - 1) * sizeof *e);
  m->buf.n--;
}

/* Drains the entries of m that overlap [off, off+width) of id, oldest
 * first. */
static void drain_range(wl_launch *l, sm_st *m, int id, uint64_t off,
                        int width) {
  size_t i = 0;
  if (m->bucket[sb_bucket(id, off)] == 0)
    return;
  while (i < m->buf.n) {
    if (overlap(WL_VEC_PTR(&m->buf, sbuf_ent, i), id, off, width))
      drain_one(l, m, i);
    else
      i++;
  }
}

static void drain_all(wl_launch *l, sm_st *m) {
  while (m->buf.n)
    drain_one(l, m, 0);
}

/* Entry i may drain when no older entry overlaps it. */
static int drainable(const sm_st *m, size_t i) {
  const sbuf_ent *e = WL_VEC_PTR(&m->buf, sbuf_ent, i);
  size_t j;
  for (j = 0; j < i; j++)
    if (overlap(WL_VEC_PTR(&m->buf, sbuf_ent, j), e->id, e->off,
                (int)e->width))
      return 0;
  return 1;
}

/* One scheduler step's worth of draining for the SM that just ran and for
 * one other SM with buffered stores. */
static void drain_step(wl_launch *l, int sm) {
  sm_st *m = &l->sms[sm];
  size_t i = 0;
  int k, other;
  while (i < m->buf.n) {
    sbuf_ent *e = WL_VEC_PTR(&m->buf, sbuf_ent, i);
    if ((l->steps - e->born > l->prof->max_age ||
         rndf(l) < l->prof->p_drain) &&
        drainable(m, i))
      drain_one(l, m, i);
    else
      i++;
  }
  if (m->l1_used && rndf(l) < l->prof->p_evict)
    l1_clear(m);
  /* another SM makes progress too, so stores of finished blocks land */
  other = (int)(rnd(l) % (uint64_t)l->nsms);
  for (k = 0; k < l->nsms; k++) {
    sm_st *o = &l->sms[(other + k) % l->nsms];
    if (o->buf.n) {
      if (rndf(l) < l->prof->p_drain || l->steps - WL_VEC_PTR(&o->buf, sbuf_ent, 0)->born > l->prof->max_age)
        drain_one(l, o, 0);
      break;
    }
  }
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
    l1_clear(m);
}

/* Copies an access's bytes (width 1..16; 4 and 8 without a call). */
static inline void copy_bytes(void *dst, const void *src, int width) {
  if (width == 4)
    memcpy(dst, src, 4);
  else if (width == 8)
    memcpy(dst, src, 8);
  else
    memcpy(dst, src, (size_t)width);
}

/* Loads and stores outside global memory (shared, local, constant,
 * parameters) reach their bytes directly: no buffer, no L1. */
static inline int plain_access(const wl_access *a) {
  return a->kind != WL_ACC_ATOMIC && a->space != WL_SPACE_GLOBAL &&
         a->space != WL_SPACE_MANAGED;
}

static inline void perform_plain(const wl_access *a, uint8_t *p,
                                 void *data) {
  if (a->kind == WL_ACC_LOAD)
    copy_bytes(data, p, a->width);
  else
    copy_bytes(p, data, a->width);
}

/* Performs access a of thread `thread` on the bytes p (address addr) in
 * the memory system of SM m: the semantics of one lane's access, shared
 * by wl_kernel_access and wl_kernel_access_warp. */
static int perform(wl_launch *l, sm_st *m, int block, int thread,
                   const wl_access *a, uint8_t *p, uint64_t addr,
                   void *data) {
  int global = a->space == WL_SPACE_GLOBAL || a->space == WL_SPACE_MANAGED;
  if (plain_access(a)) {
    perform_plain(a, p, data);
  } else if (a->kind == WL_ACC_LOAD) {
    global_load(l, m, a, p, addr, data);
  } else if (a->kind == WL_ACC_STORE) { /* global */
    if (a->sem == WL_SEM_RELEASE || a->cache == WL_CACHE_CV) {
      drain_all(l, m);
      memcpy(p, data, (size_t)a->width);
      { /* keep the SM's own copy current */
        l1_line *ln = l1_find(m, addr / 32);
        if (ln && addr % 32 + (uint64_t)a->width <= 32)
          memcpy(ln->data + addr % 32, data, (size_t)a->width);
      }
    } else {
      sbuf_ent *e;
      l1_line *ln;
      if (m->buf.n >= 64) {
        size_t i;
        for (i = 0; i < m->buf.n && !drainable(m, i); i++)
          ;
        drain_one(l, m, i < m->buf.n ? i : 0);
      }
      if ((e = wl__vec_push(l->ctx, &m->buf)) == NULL)
        return wl__err(l->ctx, WL_ENOMEM, "out of memory");
      e->id = a->id;
      e->off = a->off;
      e->width = (uint32_t)a->width;
      e->born = l->steps;
      memcpy(e->data, data, (size_t)a->width);
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
      if (a->sem == WL_SEM_RELEASE || a->sem == WL_SEM_ACQ_REL ||
          a->sem == WL_SEM_SC)
        drain_all(l, m);
      else
        drain_range(l, m, a->id, a->off, a->width);
    }
    bits = get_bits(p, a->width);
    old = to_carrier(a->type, bits);
    nw = wl__aop_typed(a->type, a->op, old, a->a, a->b);
    memcpy(data, p, (size_t)a->width);
    memcpy(p, &nw, (size_t)a->width);
    if (global) {
      l1_line *ln = l1_find(m, addr / 32);
      if (ln && addr % 32 + (uint64_t)a->width <= 32)
        memcpy(ln->data + addr % 32, p, (size_t)a->width);
      if (a->sem == WL_SEM_ACQUIRE || a->sem == WL_SEM_ACQ_REL ||
          a->sem == WL_SEM_SC)
        l1_clear(m);
    }
  }
  return 0;
}

/* The lane's slice: 1 when it is used up and the lane should yield. */
static int slice_step(wl_launch *l, slot *s, int thread) {
  if (l->cfg.schedule == WL_SCHED_LOCKSTEP)
    return 1;
  if (++s->slice[thread] >= (uint32_t)l->cfg.slice) {
    s->slice[thread] = 0;
    return 1;
  }
  return 0;
}

static int l1_policy(const wl_access *a) {
  return a->kind == WL_ACC_LOAD && a->sem == WL_SEM_WEAK &&
                 (a->cache == WL_CACHE_CA || a->cache == WL_CACHE_CS ||
                  a->cache == WL_CACHE_LDG)
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
  if ((rc = wl__chk_access(l->chk, (int)(s - l->slots), thread, a, &m,
                           data)) != 0) {
    snprintf(l->err, sizeof l->err, "%s", wl_ctx_errmsg(l->ctx));
    l->failed = 1;
  }
  return rc;
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
  if ((rc = resolve(l, s, block, thread, a, &g)) != 0 ||
      (rc = lane_check(l, block, thread, a, &g, &p, &addr)) != 0)
    return rc;
  l->last_block = block;
  l->last_thread = thread;
  l->last_line = a->line;
  if ((k = site_id(l, a->line, a->space, a->kind, a->width,
                   l1_policy(a))) < 0 ||
      (rc = gather(l, s, thread, k, addr)) != 0) {
    /* out of memory: the launch stops with the context's message */
    snprintf(l->err, sizeof l->err, "%s", wl_ctx_errmsg(l->ctx));
    l->failed = 1;
    return k < 0 ? k : rc;
  }
  if ((rc = perform(l, &l->sms[s->sm], block, thread, a, p, addr, data)) != 0)
    return rc;
  if (l->chk != NULL &&
      (rc = check_access(l, s, thread, a, &g, addr, data, p)) != 0)
    return rc;
  return slice_step(l, s, thread);
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
  int lo = warp * 32, lane, rc, yield = 0, plain, chk;
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
  la = *a;
  la.off = off[__builtin_ctz(mask)];
  /* what does not depend on the lane, checked once as the first active
   * lane would */
  if (a->space != WL_SPACE_LOCAL &&
      (rc = resolve(l, s, block, lo + __builtin_ctz(mask), &la, &g)) != 0)
    return rc;
  if ((req.site = site_id(l, a->line, a->space, a->kind, a->width,
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
    for (b = mask; b != 0; b &= b - 1) {
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
    else if ((rc = perform(l, m, block, t, &la, p, addr, d)) != 0)
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
  l->last_block = block;
  l->last_thread = lo + 31 - __builtin_clz(mask);
  l->last_line = a->line;
  /* one request, priced as the gathered request of a converged warp
   * would be */
  if ((rc = price(l, s->sm, &req)) != 0)
    return rc;
  return yield;
}

int wl_kernel_fence(wl_launch *l, int block, int thread, int sem, int scope,
                    int line) {
  slot *s = slot_of(l, block);
  (void)line;
  if (s == NULL || thread < 0 || thread >= l->nthreads)
    return wl__err(l->ctx, WL_EINVAL, "wl_kernel_fence: no such thread");
  if (l->chk != NULL &&
      wl__chk_fence(l->chk, (int)(s - l->slots), thread, sem, scope) != 0) {
    snprintf(l->err, sizeof l->err, "%s", wl_ctx_errmsg(l->ctx));
    l->failed = 1;
    return WL_ENOMEM;
  }
  /* a cta fence orders nothing beyond what the SM already keeps in
   * order (its buffer forwards, its L1 copy is current); gpu and sys
   * fences publish the SM's stores and drop its stale copies */
  if (scope != WL_SCOPE_CTA) {
    drain_all(l, &l->sms[s->sm]);
    l1_clear(&l->sms[s->sm]);
  }
  return 0;
}

int wl_kernel_barrier(wl_launch *l, int block, int thread, int line) {
  slot *s = slot_of(l, block);
  if (s == NULL || thread < 0 || thread >= l->nthreads ||
      s->state[thread] != WL_LANE_RUNNABLE)
    return wl__err(l->ctx, WL_EINVAL, "wl_kernel_barrier: no such thread");
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

int wl_kernel_exit(wl_launch *l, int block, int thread) {
  slot *s = slot_of(l, block);
  if (s == NULL || thread < 0 || thread >= l->nthreads ||
      s->state[thread] != WL_LANE_RUNNABLE)
    return wl__err(l->ctx, WL_EINVAL, "wl_kernel_exit: no such thread");
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

/* --------------------------- blocks ------------------------------- */

static void slot_release(wl_launch *l, slot *s) {
  int t;
  if (s->state == NULL)
    return;
  for (t = 0; t < l->nthreads; t++) {
    size_t i;
    for (i = 0; i < s->locals[t].n; i++) {
      local_arr *la = WL_VEC_PTR(&s->locals[t], local_arr, i);
      wl__free(l->ctx, la->p, la->n ? la->n : 1);
    }
    wl__vec_free(l->ctx, &s->locals[t]);
  }
  for (t = 0; t < l->nwarps; t++)
    wl__vec_free(l->ctx, &s->warps[t].groups);
  wl__vec_free(l->ctx, &s->decls);
  wl__free(l->ctx, s->shmem, s->shcap ? s->shcap : 1);
  wl__free(l->ctx, s->state, (size_t)l->nthreads);
  wl__free(l->ctx, s->barline, sizeof(int) * (size_t)l->nthreads);
  wl__free(l->ctx, s->ndecl, sizeof(int) * (size_t)l->nthreads);
  wl__free(l->ctx, s->slice, sizeof(uint32_t) * (size_t)l->nthreads);
  wl__free(l->ctx, s->seq, sizeof(uint32_t) * (size_t)l->nthreads);
  wl__free(l->ctx, s->irregular, (size_t)l->nthreads);
  wl__free(l->ctx, s->locals, sizeof(wl_vec) * (size_t)l->nthreads);
  wl__free(l->ctx, s->warps, sizeof(warp_st) * (size_t)l->nwarps);
  wl__free(l->ctx, s->wop, sizeof(wl_warp_op) * (size_t)l->nthreads);
  wl__free(l->ctx, s->wres, sizeof(int64_t) * (size_t)l->nthreads);
  wl__free(l->ctx, s->wresint, (size_t)l->nthreads);
  memset(s, 0, sizeof *s);
  s->block = -1;
}

static int slot_start(wl_launch *l, slot *s, int block, int sm) {
  int t;
  size_t nt = (size_t)l->nthreads;
  s->block = block;
  s->sm = sm;
  s->dyn_id = -1;
  s->shcap = l->shared_cap;
  s->shmem = wl__calloc(l->ctx, s->shcap ? s->shcap : 1);
  s->state = wl__calloc(l->ctx, nt);
  s->barline = wl__calloc(l->ctx, sizeof(int) * nt);
  s->ndecl = wl__calloc(l->ctx, sizeof(int) * nt);
  s->slice = wl__calloc(l->ctx, sizeof(uint32_t) * nt);
  s->seq = wl__calloc(l->ctx, sizeof(uint32_t) * nt);
  s->irregular = wl__calloc(l->ctx, nt);
  s->locals = wl__calloc(l->ctx, sizeof(wl_vec) * nt);
  s->warps = wl__calloc(l->ctx, sizeof(warp_st) * (size_t)l->nwarps);
  wl__vec_init(&s->decls, sizeof(shared_arr));
  if (!s->shmem || !s->state || !s->barline || !s->ndecl || !s->slice ||
      !s->seq || !s->irregular || !s->locals || !s->warps) {
    /* slot_release needs the per-thread vectors initialised */
    if (s->locals && s->warps && s->state) {
      slot_release(l, s);
    } else {
      wl__free(l->ctx, s->shmem, s->shcap ? s->shcap : 1);
      wl__free(l->ctx, s->state, nt);
      wl__free(l->ctx, s->barline, sizeof(int) * nt);
      wl__free(l->ctx, s->ndecl, sizeof(int) * nt);
      wl__free(l->ctx, s->slice, sizeof(uint32_t) * nt);
      wl__free(l->ctx, s->seq, sizeof(uint32_t) * nt);
      wl__free(l->ctx, s->irregular, nt);
      wl__free(l->ctx, s->locals, sizeof(wl_vec) * nt);
      wl__free(l->ctx, s->warps, sizeof(warp_st) * (size_t)l->nwarps);
      memset(s, 0, sizeof *s);
      s->block = -1;
    }
    return wl__err(l->ctx, WL_ENOMEM, "out of memory starting a block");
  }
  for (t = 0; t < l->nthreads; t++) {
    wl__vec_init(&s->locals[t], sizeof(local_arr));
  }
  for (t = 0; t < l->nwarps; t++) {
    int n = l->nthreads - t * 32;
    wl__vec_init(&s->warps[t].groups, sizeof(group));
    s->warps[t].alive = n >= 32 ? 0xffffffffu : (1u << n) - 1;
  }
  l->slot_of[block] = (int)(s - l->slots);
  l->sms[sm].resident++;
  if (l->chk != NULL &&
      wl__chk_block_start(l->chk, (int)(s - l->slots), block) != 0)
    return WL_ENOMEM;
  return 0;
}

/* Places waiting blocks on SMs with room, in block order, round-robin
 * over the SMs as the hardware's block scheduler does. */
static int admit(wl_launch *l) {
  int i, rc;
  for (i = 0; i < l->nslots && l->next_block < l->nblocks; i++) {
    slot *s = &l->slots[i];
    int sm, k;
    if (s->block >= 0)
      continue;
    sm = l->next_block % l->nsms;
    for (k = 0; k < l->nsms; k++) {
      if (l->sms[(sm + k) % l->nsms].resident < l->occ.blocks_per_sm)
        break;
    }
    if (k == l->nsms)
      return 0;
    if ((rc = slot_start(l, s, l->next_block, (sm + k) % l->nsms)) != 0)
      return rc;
    l->next_block++;
  }
  return 0;
}

/* --------------------- where threads stopped --------------------- */

static void appendf(char *buf, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void appendf(char *buf, size_t n, const char *fmt, ...) {
  size_t k = strlen(buf);
  va_list ap;
  if (k + 1 >= n)
    return;
  va_start(ap, fmt);
  vsnprintf(buf + k, n - k, fmt, ap);
  va_end(ap);
}

/* Where thread t stopped: its state and the line (a barrier's, a warp
 * operation's, or the kernel's end). */
static int stop_line(const wl_launch *l, const slot *s, int t) {
  switch (s->state[t]) {
  case WL_LANE_BARRIER:
    return s->barline[t];
  case WL_LANE_WARPSYNC:
    return s->wop[t].line;
  case WL_LANE_EXITED:
    return l->cfg.end_line;
  default:
    return 0;
  }
}

/* Appends the threads of [lo, hi) that stopped in state at line (line
 * -1: any) as ranges of linear indices, "0-15, 32". */
static void add_threads(const wl_launch *l, const slot *s, int lo, int hi,
                        int state, int line, char *buf, size_t n) {
  int t = lo, k = 0;
#define MATCH(x)                                                               \
  (s->state[x] == state && (line < 0 || stop_line(l, s, x) == line))
  while (t < hi) {
    int u;
    if (!MATCH(t)) {
      t++;
      continue;
    }
    for (u = t; u + 1 < hi && MATCH(u + 1); u++)
      ;
    if (k < 4)
      appendf(buf, n, u > t ? "%s%d-%d" : "%s%d", k ? ", " : "", t, u);
    else if (k == 4)
      appendf(buf, n, ", ...");
    k++;
    t = u + 1;
  }
#undef MATCH
}

static const char *warp_op_name(int kind) {
  static const char *const n[] = {"__syncwarp",      "__shfl_sync",
                                  "__shfl_up_sync",  "__shfl_down_sync",
                                  "__shfl_xor_sync", "__ballot_sync",
                                  "__any_sync",      "__all_sync"};
  return kind >= 0 && kind <= WL_WARP_ALL ? n[kind] : "?";
}

/* Appends where the threads of [lo, hi) other than those in state at
 * line stopped, grouped: "threads 37-63 returned from the kernel (line
 * 45)"; at most three groups. */
static void add_others(const wl_launch *l, const slot *s, int lo, int hi,
                       int state, int line, char *buf, size_t n) {
  int t, groups = 0;
  for (t = lo; t < hi && groups < 3; t++) {
    int st = s->state[t], ln = stop_line(l, s, t), f;
    if ((st == state && ln == line) || st == WL_LANE_RUNNABLE)
      continue;
    for (f = lo; f < t; f++) /* a group is listed at its first thread */
      if (s->state[f] == st && stop_line(l, s, f) == ln)
        break;
    if (f < t)
      continue;
    appendf(buf, n, "%sthreads ", groups ? "; " : "");
    add_threads(l, s, lo, hi, st, ln, buf, n);
    if (st == WL_LANE_EXITED)
      appendf(buf, n, ln > 0 ? " returned (the kernel ends at line %d)"
                             : " returned",
              ln);
    else if (st == WL_LANE_BARRIER)
      appendf(buf, n, " wait at the __syncthreads() of line %d", ln);
    else
      appendf(buf, n, " wait at the %s(0x%08x) of line %d",
              warp_op_name(s->wop[t].kind), s->wop[t].mask, ln);
    groups++;
  }
}

/* Every thread of the block waits or has exited, and not all at one
 * barrier: the report names who arrived, who did not and where each
 * stopped. */
static int barrier_divergence(wl_launch *l, slot *s) {
  char msg[WL_ERRMSG_MAX];
  int t, w, line, named = -1, arrived = 0;
  for (w = 0; w < l->nthreads && s->state[w] != WL_LANE_BARRIER; w++)
    ;
  line = s->barline[w];
  for (t = 0; t < l->nthreads; t++) {
    if (s->state[t] == WL_LANE_BARRIER && s->barline[t] == line)
      arrived++;
    else if (named < 0)
      named = t;
  }
  msg[0] = 0;
  appendf(msg, sizeof msg,
          "barrier divergence: the __syncthreads() of line %d is reached "
          "by %d of the block's %d threads (",
          line, arrived, l->nthreads);
  add_threads(l, s, 0, l->nthreads, WL_LANE_BARRIER, line, msg, sizeof msg);
  appendf(msg, sizeof msg, "); ");
  add_others(l, s, 0, l->nthreads, WL_LANE_BARRIER, line, msg, sizeof msg);
  appendf(msg, sizeof msg,
          " (a barrier must be reached by every thread of the block)");
  return wl_kernel_fail(
      l, s->block, named, NULL,
      s->state[named] == WL_LANE_BARRIER ? s->barline[named] : line, msg);
}

/* No lane of the warp can run and some wait at a warp operation that
 * cannot complete. */
static int warp_deadlock(wl_launch *l, slot *s, int warp) {
  char msg[WL_ERRMSG_MAX];
  int lo = warp * 32, hi = lo + 32 < l->nthreads ? lo + 32 : l->nthreads, t;
  const wl_warp_op *op;
  for (t = lo; t < hi && s->state[t] != WL_LANE_WARPSYNC; t++)
    ;
  if (t == hi)
    return 0;
  op = &s->wop[t];
  msg[0] = 0;
  appendf(msg, sizeof msg,
          "warp deadlock: the %s(0x%08x) of line %d cannot complete: "
          "threads ",
          warp_op_name(op->kind), op->mask, op->line);
  add_threads(l, s, lo, hi, WL_LANE_WARPSYNC, op->line, msg, sizeof msg);
  appendf(msg, sizeof msg, " arrived; ");
  add_others(l, s, lo, hi, WL_LANE_WARPSYNC, op->line, msg, sizeof msg);
  appendf(msg, sizeof msg,
          " (every lane of the mask must reach a warp operation with the "
          "same mask)");
  return wl_kernel_fail(l, s->block, t, NULL, op->line, msg);
}

/* After a warp ran: converged warps are priced, a finished block leaves
 * its SM, a barrier every thread reached opens, and a barrier some
 * threads can never reach is reported. */
static int settle(wl_launch *l, slot *s, int warp) {
  int t, rc, line = -1;
  int lo = warp * 32, hi = lo + 32 < l->nthreads ? lo + 32 : l->nthreads;
  for (t = lo; t < hi && s->state[t] != WL_LANE_RUNNABLE; t++)
    ;
  if (t == hi && s->wop != NULL && (rc = warp_deadlock(l, s, warp)) != 0)
    return rc;
  if (t == hi && (rc = flush_warp(l, s, warp)) != 0)
    return rc;
  if (s->nexited == l->nthreads) {
    int b = s->block, w;
    for (w = 0; w < l->nwarps; w++)
      if ((rc = flush_warp(l, s, w)) != 0)
        return rc;
    l->sms[s->sm].resident--;
    if (l->cfg.block_done)
      l->cfg.block_done(l->cfg.ud, l, b);
    l->slot_of[b] = -1;
    slot_release(l, s);
    l->done_blocks++;
    return admit(l);
  }
  if (s->nwaiting + s->nexited < l->nthreads || s->nwaiting == 0)
    return 0;
  /* every thread waits or has exited */
  for (t = 0; t < l->nthreads; t++) {
    if (s->state[t] == WL_LANE_EXITED)
      return barrier_divergence(l, s);
    if (line < 0)
      line = s->barline[t];
    else if (s->barline[t] != line)
      return barrier_divergence(l, s);
  }
  if (l->chk != NULL && wl__chk_barrier(l->chk, (int)(s - l->slots)) != 0) {
    snprintf(l->err, sizeof l->err, "%s", wl_ctx_errmsg(l->ctx));
    l->failed = 1;
    return WL_ENOMEM;
  }
  for (t = 0; t < l->nthreads; t++)
    s->state[t] = WL_LANE_RUNNABLE;
  s->nwaiting = 0;
  return 0;
}

/* ------------------------ warp operations ------------------------- */

/* The lanes of mask have all reached a warp operation with that mask:
 * compute each one's result and let them run on. */
static int warp_meet(wl_launch *l, slot *s, int warp, uint32_t mask) {
  int lo = warp * 32, kind, u, rc;
  uint32_t b, votes = 0;
  for (b = mask; b != 0; b &= b - 1) {
    int t = lo + __builtin_ctz(b);
    if (s->state[t] != WL_LANE_WARPSYNC || s->wop[t].mask != mask)
      return 0;
  }
  kind = s->wop[lo + __builtin_ctz(mask)].kind;
  for (b = mask; b != 0; b &= b - 1) {
    int t = lo + __builtin_ctz(b);
    char msg[300];
    if (s->wop[t].kind == kind) {
      votes |= (uint32_t)(s->wop[t].value != 0) << (t - lo);
      continue;
    }
    snprintf(msg, sizeof msg,
             "warp divergence: this lane waits at the %s of line %d while "
             "lane %d waits at the %s of line %d, with the same mask "
             "0x%08x (the lanes must meet at the same kind of operation)",
             warp_op_name(s->wop[t].kind), s->wop[t].line,
             __builtin_ctz(mask), warp_op_name(kind),
             s->wop[lo + __builtin_ctz(mask)].line, mask);
    return wl_kernel_fail(l, s->block, t, NULL, s->wop[t].line, msg);
  }
  for (b = mask; b != 0; b &= b - 1) {
    int t = lo + (u = __builtin_ctz(b));
    const wl_warp_op *op = &s->wop[t];
    int src = wl_warp_src(kind, u, op->arg, op->width, mask);
    if (kind == WL_WARP_BALLOT) {
      s->wres[t] = (int64_t)votes;
      s->wresint[t] = 1;
    } else if (kind == WL_WARP_ANY || kind == WL_WARP_ALL) {
      s->wres[t] = kind == WL_WARP_ANY ? votes != 0 : votes == mask;
      s->wresint[t] = 1;
    } else {
      s->wres[t] = s->wop[lo + src].value;
      s->wresint[t] = (uint8_t)s->wop[lo + src].isint;
    }
  }
  if (kind == WL_WARP_SYNC && l->chk != NULL &&
      (rc = wl__chk_syncwarp(l->chk, (int)(s - l->slots), warp, mask)) != 0) {
    snprintf(l->err, sizeof l->err, "%s", wl_ctx_errmsg(l->ctx));
    l->failed = 1;
    return rc;
  }
  for (b = mask; b != 0; b &= b - 1)
    s->state[lo + __builtin_ctz(b)] = WL_LANE_RUNNABLE;
  return 0;
}

int wl_warp_src(int kind, int lane, int arg, int width, uint32_t mask) {
  int w = width >= 1 && width <= 32 && !(width & (width - 1)) ? width : 32;
  int seg = lane & ~(w - 1), src = lane;
  switch (kind) {
  case WL_WARP_SHFL:
    src = seg + (int)((unsigned)arg & (unsigned)(w - 1));
    break;
  case WL_WARP_SHFL_UP:
    src = arg >= 0 && lane - arg >= seg ? lane - arg : lane;
    break;
  case WL_WARP_SHFL_DOWN:
    src = arg >= 0 && lane + arg < seg + w ? lane + arg : lane;
    break;
  case WL_WARP_SHFL_XOR:
    src = lane ^ (arg & 31);
    if (src < seg || src >= seg + w)
      src = lane;
    break;
  default:
    break;
  }
  return src >= 0 && src < 32 && (mask >> src & 1) ? src : lane;
}

int wl_kernel_warp_op(wl_launch *l, int block, int thread,
                      const wl_warp_op *op) {
  slot *s = slot_of(l, block);
  int warp = thread / 32, lane = thread % 32, lo = warp * 32;
  uint32_t exist, b;
  char msg[200];
  size_t nt = (size_t)l->nthreads;
  if (s == NULL || thread < 0 || thread >= l->nthreads ||
      s->state[thread] != WL_LANE_RUNNABLE || op == NULL ||
      op->kind < WL_WARP_SYNC || op->kind > WL_WARP_ALL)
    return wl__err(l->ctx, WL_EINVAL, "wl_kernel_warp_op: no such thread");
  exist = l->nthreads - lo >= 32 ? 0xffffffffu
                                 : (1u << (l->nthreads - lo)) - 1;
  if (!(op->mask >> lane & 1)) {
    snprintf(msg, sizeof msg,
             "%s(0x%08x): the calling lane %d is not in the mask "
             "(undefined behaviour)",
             warp_op_name(op->kind), op->mask, lane);
    return wl_kernel_fail(l, block, thread, NULL, op->line, msg);
  }

  if (op->width < 1 || op->width > 32 || (op->width & (op->width - 1))) {
    snprintf(msg, sizeof msg,
             "%s: width must be a power of two from 1 to 32, not %d",
             warp_op_name(op->kind), op->width);
    return wl_kernel_fail(l, block, thread, NULL, op->line, msg);
  }
  for (b = op->mask & exist; b != 0; b &= b - 1)
    if (s->state[lo + __builtin_ctz(b)] == WL_LANE_EXITED) {
      snprintf(msg, sizeof msg,
               "%s(0x%08x): lane %d of the mask has exited, so the warp "
               "can never meet here (undefined behaviour)",
               warp_op_name(op->kind), op->mask, __builtin_ctz(b));
      return wl_kernel_fail(l, block, thread, NULL, op->line, msg);
    }
  if (s->wop == NULL) {
    s->wop = wl__calloc(l->ctx, sizeof(wl_warp_op) * nt);
    s->wres = wl__calloc(l->ctx, sizeof(int64_t) * nt);
    s->wresint = wl__calloc(l->ctx, nt);
    if (s->wop == NULL || s->wres == NULL || s->wresint == NULL) {
      snprintf(l->err, sizeof l->err, "out of memory");
      l->failed = 1;
      return wl__err(l->ctx, WL_ENOMEM, "out of memory");
    }
  }
  s->wop[thread] = *op;
  s->wop[thread].mask &= exist; /* lanes past the block's end: no threads */
  s->state[thread] = WL_LANE_WARPSYNC;
  s->slice[thread] = 0;
  l->last_block = block;
  l->last_thread = thread;
  l->last_line = op->line;
  return warp_meet(l, s, warp, s->wop[thread].mask);
}

int64_t wl_kernel_warp_result(const wl_launch *l, int block, int thread,
                              int *isint) {
  const slot *s = slot_of((wl_launch *)(uintptr_t)l, block);
  if (s == NULL || s->wres == NULL || thread < 0 || thread >= l->nthreads) {
    if (isint)
      *isint = 1;
    return 0;
  }
  if (isint)
    *isint = s->wresint[thread];
  return s->wres[thread];
}

int wl_kernel_syncwarp_lanes(wl_launch *l, int block, int warp,
                             uint32_t mask, int line) {
  slot *s = slot_of(l, block);
  int rc;
  (void)line;
  if (s == NULL || warp < 0 || warp >= l->nwarps)
    return wl__err(l->ctx, WL_EINVAL, "wl_kernel_syncwarp_lanes: no such "
                                      "warp");
  if (l->chk != NULL && mask != 0 &&
      (rc = wl__chk_syncwarp(l->chk, (int)(s - l->slots), warp, mask)) != 0) {
    snprintf(l->err, sizeof l->err, "%s", wl_ctx_errmsg(l->ctx));
    l->failed = 1;
    return rc;
  }
  return 0;
}

int wl_kernel_lane_order(wl_launch *l, int block, int warp, int order[32]) {
  slot *s = slot_of(l, block);
  int n = l->nthreads - warp * 32, i;
  if (n > 32)
    n = 32;
  if (s == NULL || n <= 0)
    return 0;
  for (i = 0; i < n; i++)
    order[i] = i;
  if (l->cfg.schedule == WL_SCHED_RANDOM) {
    uint32_t most = l->cfg.slice < 8 ? (uint32_t)l->cfg.slice : 8;
    for (i = n - 1; i > 0; i--) {
      int j = (int)(rnd(l) % (uint64_t)(i + 1)), x = order[i];
      order[i] = order[j];
      order[j] = x;
    }
    for (i = 0; i < n; i++) /* 1 to 8 accesses before it yields */
      s->slice[warp * 32 + i] =
          (uint32_t)l->cfg.slice - 1 - (uint32_t)(rnd(l) % most);
  }
  return n;
}

/* Picks a resident warp with a runnable lane, at random. */
static int pick(wl_launch *l, slot **ps, int *pw) {
  int total = l->nslots * l->nwarps, start, k;
  if (total == 0)
    return 0;
  start = (int)(rnd(l) % (uint64_t)total);
  for (k = 0; k < total; k++) {
    int i = (start + k) % total, si = i / l->nwarps, w = i % l->nwarps, t;
    slot *s = &l->slots[si];
    if (s->block < 0)
      continue;
    for (t = w * 32; t < w * 32 + 32 && t < l->nthreads; t++)
      if (s->state[t] == WL_LANE_RUNNABLE) {
        *ps = s;
        *pw = w;
        return 1;
      }
  }
  return 0;
}

static void launch_release(wl_launch *l) {
  int i;
  if (l->slots)
    for (i = 0; i < l->nslots; i++)
      slot_release(l, &l->slots[i]);
  if (l->sms)
    for (i = 0; i < l->nsms; i++) {
      wl__vec_free(l->ctx, &l->sms[i].buf);
      wl__free(l->ctx, l->sms[i].l1, sizeof(l1_line) * L1_SLOTS);
      wl__cache_free(l->sms[i].pl1);
      wl__cache_free(l->sms[i].pconst);
    }
  wl__free(l->ctx, l->sms, sizeof(sm_st) * (size_t)l->nsms);
  wl__free(l->ctx, l->slots, sizeof(slot) * (size_t)l->nslots);
  wl__free(l->ctx, l->slot_of, sizeof(int) * (size_t)l->nblocks);
  l->sms = NULL;
  l->slots = NULL;
  l->slot_of = NULL;
  l->pl2 = NULL;
}

void wl_launch_free(wl_launch *l) {
  if (l == NULL)
    return;
  launch_release(l);
  wl__chk_free(l->chk);
  wl__vec_free(l->ctx, &l->finds);
  wl__vec_free(l->ctx, &l->sites);
  wl__free(l->ctx, l->site_hash, sizeof(int) * (size_t)l->site_hash_n);
  wl__free(l->ctx, l, sizeof *l);
}

static int setup(wl_device *d, const wl_launch_cfg *cfg, wl_launch *l) {
  const wl_device_cfg *c = &d->cfg;
  int i, rc;
  uint64_t nb;
  for (i = 0; i < 3; i++) {
    l->gdim[i] = dim(cfg->grid[i]);
    l->bdim[i] = dim(cfg->block[i]);
    if (cfg->grid[i] < 0 || cfg->block[i] < 0)
      return wl__err(d->ctx, WL_EINVAL, "negative launch dimension");
  }
  if (wl_size_mul((uint64_t)l->gdim[0], (uint64_t)l->gdim[1], &nb) != 0 ||
      wl_size_mul(nb, (uint64_t)l->gdim[2], &nb) != 0)
    nb = UINT64_MAX;
  if (nb > (1u << 24))
    return wl__err(d->ctx, WL_ELIMIT,
                   "a grid of %llu blocks is too large to simulate (16M)",
                   (unsigned long long)nb);
  l->nblocks = (int)nb;
  if ((uint64_t)l->bdim[0] * (uint64_t)l->bdim[1] * (uint64_t)l->bdim[2] >
      (uint64_t)c->max_threads_per_block)
    return wl__err(d->ctx, WL_EINVAL,
                   "a block of %d x %d x %d threads exceeds the device's %d "
                   "threads per block",
                   l->bdim[0], l->bdim[1], l->bdim[2],
                   c->max_threads_per_block);
  l->nthreads = l->bdim[0] * l->bdim[1] * l->bdim[2];
  l->nwarps = (l->nthreads + 31) / 32;
  if (cfg->run_warp == NULL)
    return wl__err(d->ctx, WL_EINVAL, "wl_launch_run: run_warp is NULL");
  if ((rc = wl_device_occupancy(d, cfg, &l->occ)) != 0)
    return rc;
  l->shared_cap = (uint64_t)cfg->static_shared + cfg->dynamic_shared;
  l->nsms = c->sms;
  {
    uint64_t ns = (uint64_t)l->nsms * (uint64_t)l->occ.blocks_per_sm;
    l->nslots = (int)(ns < nb ? ns : nb);
  }
  l->slots = wl__calloc(d->ctx, sizeof(slot) * (size_t)l->nslots);
  l->slot_of = wl__alloc(d->ctx, sizeof(int) * (size_t)l->nblocks);
  l->sms = wl__calloc(d->ctx, sizeof(sm_st) * (size_t)l->nsms);
  l->site_hash_n = 4096;
  l->site_hash = wl__alloc(d->ctx, sizeof(int) * (size_t)l->site_hash_n);
  if (!l->slots || !l->slot_of || !l->sms || !l->site_hash)
    return wl__err(d->ctx, WL_ENOMEM, "out of memory");
  for (i = 0; i < l->site_hash_n; i++)
    l->site_hash[i] = -1;
  for (i = 0; i < l->nblocks; i++)
    l->slot_of[i] = -1;
  for (i = 0; i < l->nslots; i++)
    l->slots[i].block = -1;
  if (cfg->check & WL_CHECK_ALL) {
    wl__chk_cfg cc;
    cc.flags = cfg->check & WL_CHECK_ALL;
    cc.nblocks = l->nblocks;
    cc.nthreads = l->nthreads;
    cc.nslots = l->nslots;
    for (i = 0; i < 3; i++) {
      cc.gdim[i] = l->gdim[i];
      cc.bdim[i] = l->bdim[i];
    }
    if ((rc = wl__chk_new(d->ctx, &cc, &l->chk)) != 0)
      return rc;
  }
  {
    wl_cache_cfg l1c, cc, l2c;
    uint32_t l1bytes = c->l1_shared_bytes - l->occ.shared_per_sm;
    l1c.size_bytes = l1bytes;
    l1c.line_bytes = c->l1_line;
    l1c.sector_bytes = c->l1_sector;
    l1c.ways = c->l1_ways;
    cc.size_bytes = c->const_cache_bytes;
    cc.line_bytes = c->const_line;
    cc.sector_bytes = c->const_line;
    cc.ways = c->const_cache_bytes / c->const_line < 4
                  ? c->const_cache_bytes / c->const_line
                  : 4;
    l2c.size_bytes = c->l2_bytes;
    l2c.line_bytes = c->l2_line;
    l2c.sector_bytes = c->l2_sector;
    l2c.ways = c->l2_ways;
    if (d->l2 == NULL && (rc = wl__cache_new(d->ctx, &l2c, &d->l2)) != 0)
      return rc;
    l->pl2 = d->l2;
    l->l1c = l1c;
    l->cc = cc;
    l->has_l1 = l1bytes >= c->l1_line * c->l1_ways;
    for (i = 0; i < l->nsms; i++) {
      sm_st *m = &l->sms[i];
      wl__vec_init(&m->buf, sizeof(sbuf_ent));
    }
  }
  return 0;
}

int wl_launch_run(wl_device *d, const wl_launch_cfg *cfg, wl_launch **out) {
  wl_launch *l;
  int rc = 0, i;
  if (out)
    *out = NULL;
  if (d->running)
    return wl__err(d->ctx, WL_EINVAL,
                   "a launch is already running on this device (launches "
                   "do not nest)");
  if ((l = wl__calloc(d->ctx, sizeof *l)) == NULL)
    return wl__err(d->ctx, WL_ENOMEM, "out of memory");
  l->dev = d;
  l->ctx = d->ctx;
  l->cfg = *cfg;
  if (l->cfg.slice <= 0)
    l->cfg.slice = 64;
  if (l->cfg.max_steps == 0)
    l->cfg.max_steps = 10000000;
  if (l->cfg.schedule < WL_SCHED_INDEPENDENT ||
      l->cfg.schedule > WL_SCHED_RANDOM) {
    wl__free(d->ctx, l, sizeof *l);
    return wl__err(d->ctx, WL_EINVAL, "launch: unknown lane schedule %d",
                   cfg->schedule);
  }
  wl__vec_init(&l->finds, sizeof(wl_finding));
  l->prof = &profiles[cfg->profile == WL_PROFILE_H100 ? 1 : 0];
  l->bank_shift = -1;
  for (i = 0; i < 16; i++)
    if (d->cfg.bank_bytes == 1 << i)
      l->bank_shift = i;
  l->rng = cfg->seed * 0x2545f4914f6cdd1dull + 0x1234567;
  wl__vec_init(&l->sites, sizeof(site));
  if ((rc = setup(d, cfg, l)) != 0) {
    wl_launch_free(l);
    return rc;
  }
  if (out)
    *out = l;
  d->running = 1;
  /* without the uninitialised-read checker, stores are not tracked: the
   * launch may have written any word */
  if (!(cfg->check & WL_CHECK_UNINIT))
    for (i = 0; i < (int)d->allocs.n; i++)
      WL_VEC_PTR(&d->allocs, alloc, (size_t)i)->all_written = 1;
  rc = admit(l);
  while (rc == 0 && l->done_blocks < l->nblocks) {
    slot *s;
    int w, b;
    if (!pick(l, &s, &w)) {
      rc = wl__err(d->ctx, WL_ERUNTIME,
                   "%s: the kernel cannot make progress (no runnable warp)",
                   cfg->source ? cfg->source : "kernel");
      snprintf(l->err, sizeof l->err, "%s", wl_ctx_errmsg(d->ctx));
      break;
    }
    if (++l->steps > l->cfg.max_steps) {
      char msg[200];
      snprintf(msg, sizeof msg,
               "the kernel ran %llu warp steps without finishing (a "
               "spin loop that never ends?); this thread's last access was "
               "here; raise max_steps if the kernel is just long",
               (unsigned long long)l->cfg.max_steps);
      rc = wl_kernel_fail(l, l->last_block, l->last_thread, NULL,
                          l->last_line, msg);
      break;
    }
    if (cfg->should_stop && (l->steps & 1023) == 0 &&
        cfg->should_stop(cfg->stop_ud)) {
      rc = wl__err(d->ctx, WL_ESTOPPED, "launch stopped");
      break;
    }
    b = s->block;
    rc = cfg->run_warp(cfg->ud, l, b, w);
    if (rc == 0 && l->failed)
      rc = WL_ERUNTIME;
    if (rc != 0)
      break;
    drain_step(l, s->sm);
    rc = settle(l, s, w);
  }
  if (rc != 0 && l->err[0] == 0)
    snprintf(l->err, sizeof l->err, "%s", wl_ctx_errmsg(d->ctx));
  /* the kernel boundary: every store reaches L2; blocks still resident
   * after a failure are dropped */
  for (i = 0; i < l->nsms; i++)
    drain_all(l, &l->sms[i]);
  if (rc != 0 && cfg->block_done)
    for (i = 0; i < l->nslots; i++)
      if (l->slots[i].block >= 0)
        cfg->block_done(cfg->ud, l, l->slots[i].block);
  launch_release(l);
  if (l->chk != NULL) {
    int k, n = wl__chk_nfindings(l->chk);
    for (k = 0; k < n; k++) {
      wl_finding *f = wl__vec_push(d->ctx, &l->finds);
      if (f == NULL)
        break; /* findings lost to memory */
      *f = *wl__chk_finding(l->chk, k);
    }
    wl__chk_free(l->chk);
    l->chk = NULL;
  }
  d->running = 0;
  if (rc != 0 && l->err[0])
    wl__err(d->ctx, rc, "%s", l->err);
  if (out == NULL)
    wl_launch_free(l);
  return rc;
}
