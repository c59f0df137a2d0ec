/* perf.h -- the memory system's cost models (internal, not installed).
 *
 * Pure functions that price one warp-wide memory instruction: shared-memory
 * banks (banks.c), global-memory sectors and constant-memory serialization
 * (coalesce.c), a sectored set-associative LRU cache (cache.c) and the
 * occupancy of an SM (occupancy.c).  The kernel simulator calls them once
 * per warp-wide memory instruction.  Reference data: shared/hw/h100/ and
 * tests/hw/shared_wavefronts_more.tsv; each rule names its source.
 *
 * None of these functions allocates except wl__cache_new, and none keeps
 * a pointer to its arguments. */
#ifndef WL_PERF_H
#define WL_PERF_H

#include <stddef.h>
#include <stdint.h>

#include "../common/internal.h"

#define WL_WARP_SIZE 32

/* Sorts v[0..n) ascending: insertion sort, linear on the already sorted
 * address lists most warps produce (qsort was a tenth of a kernel's
 * simulation time). */
static inline void wl__sort_u64(uint64_t *v, int n) {
  int i, j;
  for (i = 1; i < n; i++) {
    uint64_t x = v[i];
    for (j = i; j > 0 && v[j - 1] > x; j--)
      v[j] = v[j - 1];
    v[j] = x;
  }
}

/* One warp-wide memory instruction. */
typedef struct wl_warp_req {
  uint32_t active;   /* lanes that take part (bit i = lane i) */
  int width;         /* bytes per lane: 1, 2, 4, 8 or 16 */
  int store;         /* 0 load, 1 store (atomics: treat as store) */
  uint64_t addr[32]; /* byte address (or shared-window offset) per lane */
} wl_warp_req;

/* The first active lane whose address is not a multiple of the width, or
 * -1 when every active lane is aligned (or the width is invalid: see
 * wl__req_valid_width).  The caller turns it into a per-lane report. */
int wl__req_misaligned(const wl_warp_req *r);
/* 1 when width is 1, 2, 4, 8 or 16. */
int wl__req_valid_width(int width);

/* ------------------------------------------------------------------ */
/* Shared memory banks (banks.c)                                       */
/* ------------------------------------------------------------------ */

/* bank = (addr / bank_bytes) % nbanks; a "word" is bank_bytes wide.
 * 32 x 4 is the default (sm_5x..sm_90), 32 x 8 Kepler's 8-byte mode,
 * 5 x 4 the toy layout of the padding example.  nbanks 1..64. */
typedef struct wl_bank_cfg {
  int nbanks;
  int bank_bytes;
} wl_bank_cfg;

#define WL_BANK_MAX 64

typedef struct wl_shared_cost {
  int wavefronts; /* l1tex__data_pipe_lsu_wavefronts_mem_shared_op_* */
  int conflicts;  /* l1tex__data_bank_conflicts_..._op_*: wavefronts - ideal */
  int ideal;      /* the wavefronts the access needs without conflicts */
  int merged;     /* 8/16-byte loads: 1 when the phases were merged */
  int bad_lane;   /* on WL_EINVAL: the misaligned lane, else -1 */
  uint32_t bank_words[WL_BANK_MAX]; /* distinct words per bank over the
                                     * whole warp, for heatmaps */
} wl_shared_cost;

/*
 * Prices one shared-memory instruction (the rule is spelled out at the
 * top of banks.c).  Returns 0, or WL_EINVAL for a bad bank configuration
 * or width (bad_lane -1) or a misaligned active lane (bad_lane = that
 * lane); *out is zeroed first in every case.  No active lanes: 0
 * wavefronts.
 */
int wl__shared_cost(const wl_bank_cfg *cfg, const wl_warp_req *r,
                    wl_shared_cost *out);

/* ------------------------------------------------------------------ */
/* Global and constant memory (coalesce.c)                             */
/* ------------------------------------------------------------------ */

#define WL_SECTOR_BYTES 32
#define WL_LINE_BYTES 128

typedef struct wl_global_cost {
  int requests;         /* 1 per warp instruction with an active lane, else 0 */
  int sectors;          /* distinct 32-byte sectors */
  int lines;            /* distinct 128-byte lines */
  int bad_lane;         /* on WL_EINVAL: the misaligned lane, else -1 */
  int nsec;             /* entries of sector[] (== sectors) */
  uint64_t sector[128]; /* the distinct sector addresses, ascending */
} wl_global_cost;

/* Prices one global-memory instruction (shared/hw/h100/global_sectors.tsv).
 * Returns 0, or WL_EINVAL (bad width: bad_lane -1; misaligned lane). */
int wl__global_cost(const wl_warp_req *r, wl_global_cost *out);

/* Constant memory: the number of distinct addresses among active lanes
 * (serialized requests; 1 for a broadcast, 0 with no active lane). */
int wl__const_requests(const wl_warp_req *r);

/* Estimated cycles of one warp-wide constant load issuing `distinct`
 * serialized requests of which `misses` missed the constant cache: the
 * linear fit to shared/hw/h100/constant_cache.tsv documented in
 * coalesce.c (base + per request + per miss). */
double wl__const_cycles(int distinct, int misses);
#define WL_CONST_BASE_CYCLES 46.06
#define WL_CONST_REQ_CYCLES 11.27
#define WL_CONST_MISS_CYCLES 69.93

/* ------------------------------------------------------------------ */
/* Sectored set-associative cache with LRU (cache.c)                   */
/* ------------------------------------------------------------------ */

/* Line and sector bytes powers of two, sector <= line, at most 32 sectors
 * a line; the size a multiple of the line (not necessarily a power of two:
 * sets are indexed modulo their number); ways divides size / line. */
typedef struct wl_cache_cfg {
  uint32_t size_bytes, line_bytes, sector_bytes, ways;
} wl_cache_cfg;

typedef struct wl_cache wl_cache;

typedef struct wl_cache_stats {
  uint64_t hits, misses;
} wl_cache_stats;

/* Creates an empty cache allocated through ctx (which must outlive it).
 * WL_EINVAL with a message naming the field for bad geometry, or
 * WL_ENOMEM; *out is NULL on failure. */
int wl__cache_new(wl_ctx *ctx, const wl_cache_cfg *cfg, wl_cache **out);
void wl__cache_free(wl_cache *c);
/* Looks up the sector holding byte address sector_addr: 1 hit, 0 miss.
 * On a miss with fill set, the sector becomes valid (allocating its line
 * in the set's least recently used way when the line is absent, which
 * drops that way's sectors).  Every access counts in the statistics and
 * a hit or fill makes the line most recently used. */
int wl__cache_access(wl_cache *c, uint64_t sector_addr, int fill);
/* Drops every line (statistics are kept). */
void wl__cache_invalidate(wl_cache *c);
void wl__cache_stats(const wl_cache *c, wl_cache_stats *out);
void wl__cache_reset_stats(wl_cache *c);
/* hits / (hits + misses); 0 before any access. */
double wl__cache_hit_rate(const wl_cache *c);
const wl_cache_cfg *wl__cache_cfg(const wl_cache *c);

/* ------------------------------------------------------------------ */
/* Occupancy (occupancy.c)                                             */
/* ------------------------------------------------------------------ */

typedef struct wl_occ_cfg {
  int warp_size;                 /* 32 */
  int max_threads_per_block;     /* 1024 */
  int max_threads_per_sm;        /* 2048 on sm_90 */
  int max_blocks_per_sm;         /* 32 */
  int max_warps_per_sm;          /* 64 */
  int regs_per_sm;               /* 65536 */
  int reg_alloc_unit;            /* 256 registers, per warp */
  int max_regs_per_thread;       /* 255 */
  int shared_per_sm_bytes;       /* the carve-out, up to 228 KB */
  int shared_per_block_max;      /* 227 KB */
  int shared_alloc_unit;         /* 128 bytes */
  int shared_reserved_per_block; /* 1 KB on sm_8x/9x (system use) */
} wl_occ_cfg;

/* Fills *dev with sm_90 (H100) limits and the full 228 KB carve-out. */
void wl__occ_sm90(wl_occ_cfg *dev);

typedef struct wl_occ_kernel {
  int threads_per_block;
  int regs_per_thread;  /* 0: not limited by registers */
  int shared_per_block; /* bytes, static + dynamic */
} wl_occ_kernel;

typedef enum {
  WL_OCC_THREADS,
  WL_OCC_BLOCKS,
  WL_OCC_WARPS,
  WL_OCC_REGISTERS,
  WL_OCC_SHARED
} wl_occ_limit;

typedef struct wl_occ_result {
  int blocks_per_sm;
  wl_occ_limit limit; /* the smallest limit (first in enum order on ties) */
  int by_threads, by_blocks, by_warps, by_regs, by_shared; /* blocks each
                                                            * resource allows */
  int warps_per_block, active_warps;
  double occupancy; /* active warps / max warps per SM */
  char msg[160];    /* on WL_EINVAL: why the block cannot run */
} wl_occ_result;

/* Blocks of kernel k that fit on one SM of dev (the CUDA occupancy
 * calculator's rules).  Returns 0, or WL_EINVAL with out->msg saying why
 * when the block cannot fit at all or an argument is out of range (the
 * caller copies it into its context: wl__err(ctx, rc, "%s", out->msg)). */
int wl__occupancy(const wl_occ_cfg *dev, const wl_occ_kernel *k,
                  wl_occ_result *out);
/* The name of a limit: "threads", "blocks", "warps", "registers",
 * "shared". */
const char *wl__occ_limit_name(wl_occ_limit l);

#endif
