/* perf.h -- the memory system's cost models (internal, not installed).
 *
 * Pure functions that price one warp-wide memory instruction: shared-memory
 * banks (banks.c), global-memory sectors and constant-memory serialization
 * (coalesce.c) and the occupancy of an SM (occupancy.c); the caches they
 * look up are engine/mem/cache.h's.  The kernel simulator calls them once
 * per warp-wide memory instruction.  Reference data: shared/hw/h100/ and
 * tests/hw/shared_wavefronts_more.tsv; each rule names its source.
 *
 * None of these functions allocates, and none keeps a pointer to its
 * arguments. */
#ifndef WL_PERF_H
#define WL_PERF_H

#include <stddef.h>
#include <stdint.h>

#include "../common/internal.h"
#include "../mem/cache.h"

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
/* The narrow shared-memory rule (one word per lane: width <= bank_bytes,
 * both powers of two, addresses aligned): distinct words per bank are
 * added to bank_words; returns the wavefronts (the most words of one
 * bank) and sets *words to the distinct words.  Shared by
 * wl_price_shared and the simulator's per-request pricing. */
static inline int wl__bank_narrow(const uint64_t *addr, uint32_t mask,
                                  int shift, uint64_t nbanks,
                                  uint32_t *bank_words, int *words) {
  uint64_t set[64];
  uint64_t used = 0;
  int cost = 0, distinct = 0;
  for (; mask != 0; mask &= mask - 1) {
    uint64_t w = addr[__builtin_ctz(mask)] >> shift;
    unsigned h = (unsigned)((w * 0x9e3779b97f4a7c15ull) >> 58);
    uint32_t c;
    while ((used >> h & 1) && set[h] != w)
      h = (h + 1) & 63;
    if (used >> h & 1)
      continue; /* seen: a broadcast or one winner */
    used |= 1ull << h;
    set[h] = w;
    distinct++;
    c = ++bank_words[(nbanks & (nbanks - 1)) == 0 ? w & (nbanks - 1)
                                                  : w % nbanks];
    if ((int)c > cost)
      cost = (int)c;
  }
  *words = distinct;
  return cost;
}

/* The request type and the cost functions of banks.c and coalesce.c are
 * public: engine/warplab.h, "Cost models". */

/* The sectored set-associative LRU cache (L1, L2, constant cache) is
 * the memory system's: engine/mem/cache.h. */

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

/* The limits of a simulated device's SM (shared_per_sm_bytes: its
 * largest carve-out). */
void wl__occ_from_device(const wl_device_cfg *c, wl_occ_cfg *o);

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
