/* check.h -- the kernel checkers (internal, not installed): a
 * happens-before race detector by the PTX definition, reads of memory
 * never written, and weak loads polled in spin loops.  The simulator
 * (engine/sim/device.c) calls them for every lane's access and for every
 * synchronization of a launch run with wl_launch_cfg.check set; their
 * findings are wl_finding records (engine/warplab.h).
 *
 * Clocks (clock.c): each thread has a scalar clock, ticked at every
 * synchronization it takes part in; what a thread knows of the others
 * ("happens-before") is split by how it was learned, because kernels
 * synchronize mostly by barriers:
 *   - __syncthreads(): a block's barrier generation.  An access made in
 *     generation g by a thread of the block is ordered before every
 *     access of the block in a later generation (no per-thread state).
 *   - __syncwarp(mask): a 32-entry clock vector per thread over the
 *     lanes of its warp.
 *   - memory (release/acquire patterns, fence.sc order, barriers that
 *     carry what a thread acquired): a sparse vector clock (wl__kmap)
 *     whose entries are threads (their clock) or blocks (a barrier
 *     generation: every access of that block before it).
 * An access is recorded as an epoch (block, thread, clock, generation);
 * a later access is ordered after it when any of the three says so.
 *
 * Shadow memory (race.c; its types in shadow.h): per 4-byte word, the last
 * write, two reads since (the newest and an unordered older one: FastTrack
 * keeps them all; two catch the races of two threads and bound the memory, a
 * deliberate simplification that can miss a write-after-read race among
 * three or more readers) and the release clock of the word as a
 * synchronization location.  Pages of words are made when first touched:
 * global memory per allocation for the launch, shared memory per resident
 * block. */
#ifndef WL_CHECK_H
#define WL_CHECK_H

/* The distinct findings a launch keeps (wl_finding: once per kind and
 * pair of lines, counted; engine/sim/split.c joins parts' findings so). */
#define MAX_FINDINGS 256

#include <stdint.h>

#include "../common/internal.h"

/* ---------------------------- clock.c ----------------------------- */

/* A sparse vector clock: key -> value, open addressing.  Keys: a thread
 * (wl__kmap_thread) with its clock, or a block (wl__kmap_block) with a
 * barrier generation (its accesses before that generation are known). */
typedef struct wl__kmap {
  uint32_t n, cap;
  uint64_t *keys; /* 0: empty */
  uint32_t *vals;
} wl__kmap;

static inline uint64_t wl__kmap_thread(int block, int thread) {
  return ((uint64_t)(uint32_t)(block + 1) << 16) | (uint64_t)thread;
}
static inline uint64_t wl__kmap_block(int block) {
  return (1ull << 63) | (uint64_t)(uint32_t)block;
}
/* The value of key (0: absent). */
uint32_t wl__kmap_get(const wl__kmap *m, uint64_t key);
/* m[key] = max(m[key], v).  WL_ENOMEM keeps m as it was. */
int wl__kmap_max(wl_ctx *ctx, wl__kmap *m, uint64_t key, uint32_t v);
/* dst = dst joined with src (entrywise max). */
int wl__kmap_join(wl_ctx *ctx, wl__kmap *dst, const wl__kmap *src);
void wl__kmap_clear(wl__kmap *m);
void wl__kmap_free(wl_ctx *ctx, wl__kmap *m);

/* --------------------- race.c (and finding.c) --------------------- */

typedef struct wl__chk wl__chk;

typedef struct wl__chk_cfg {
  int flags;                /* WL_CHECK_* */
  int nblocks, nthreads, nslots;
  int gdim[3], bdim[3];
  int plain; /* the launch's plain: no shortcut (weak_loads' repeated
              * words), for the property tests */
} wl__chk_cfg;

/* A lane's access, as the simulator located it. */
typedef struct wl__chk_mem {
  int obj;           /* global/managed: the allocation; shared: -1 */
  uint64_t off;      /* byte offset in the allocation or in the block's
                      * shared memory */
  uint64_t addr;     /* the address reports show */
  int id;            /* what reports name: the allocation or the shared
                      * declaration */
  uint64_t aoff;     /* the byte offset in it */
  const void *mem;   /* atomics: the access's bytes in memory after it
                      * (the value written) */
  const char *name;
  uint8_t *written;  /* global: the allocation's bitmap of words ever
                      * written (NULL: everything counts as written) */
  int words;         /* wl__chk_access_lanes: 1 when the caller checked
                      * that every lane's access is one whole aligned
                      * 4-byte word (0: unknown) */
} wl__chk_mem;

int wl__chk_new(wl_ctx *ctx, const wl__chk_cfg *cfg, wl__chk **out);
void wl__chk_free(wl__chk *c);
/* Slot `slot` now runs block `block` (its shared memory is fresh). */
int wl__chk_block_start(wl__chk *c, int slot, int block);
/* After the access performed: data holds the bytes loaded (loads,
 * atomics) or stored. */
int wl__chk_access(wl__chk *c, int slot, int thread, const wl_access *a,
                   const wl__chk_mem *m, const void *data);
/* The same access by the lanes of a warp (lo: its first thread): lane i
 * at byte offset off[i] of the memory (shared: of the array), address
 * addr[i], bytes data + i * width.  m's per-lane fields are overwritten;
 * not for atomics (m->mem is one lane's). */
int wl__chk_access_lanes(wl__chk *c, int slot, int lo, uint32_t lanes,
                         const wl_access *a, wl__chk_mem *m,
                         const uint64_t off[32], const uint64_t addr[32],
                         const void *data);
int wl__chk_fence(wl__chk *c, int slot, int thread, int sem, int scope);
/* A __syncthreads() of the block in slot opened. */
int wl__chk_barrier(wl__chk *c, int slot);
/* A __syncwarp(mask) of warp `warp` of the block in slot completed. */
int wl__chk_syncwarp(wl__chk *c, int slot, int warp, uint32_t mask);
/* finding.c */
/* A shuffle of thread (of the block in slot) at line read lane src of
 * its warp, outside the shuffle's mask: a WL_FIND_SHFL finding with the
 * fix given (once per line; the race checker's). */
int wl__chk_shfl(wl__chk *c, int slot, int thread, int src, int line,
                 const char *fix);
int wl__chk_nfindings(const wl__chk *c);
const wl_finding *wl__chk_finding(const wl__chk *c, int i);

#endif
