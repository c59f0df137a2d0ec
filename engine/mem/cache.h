/* cache.h -- the memory system's caches (cache.c): a sectored
 * set-associative cache with LRU replacement, the shape of each SM's L1,
 * of L2 and (with other geometry) of the constant cache.  The kernel
 * device's cost model looks sectors up in it (hits and misses, named
 * after Nsight Compute's counters: engine/sim/price.c), and the SM's L1
 * keeps its data copies on the same lines (wl__cache_copy and friends:
 * engine/sim/memory.c): a sector holds a copy only while the cost model
 * holds the sector, so a line the cost model evicts takes its copies
 * with it.  Which loads use the copies and what drops them is the
 * policy of engine/mem/l1.h.  Not installed. */
#ifndef WL_MEM_CACHE_H
#define WL_MEM_CACHE_H

#include <stdint.h>

#include "../common/internal.h"

/* ------------------------------------------------------------------ */
/* Sectored set-associative cache with LRU (cache.c)                  */
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
/* An overlay of base: a cache that looks up as base would, from base's
 * lines, LRU order, clock and statistics, while base stays unchanged --
 * each set it touches is copied from base at the first touch.  A split
 * launch's parts each see the device's L2 so (engine/sim/split.c), on
 * as many threads as there are parts: base must not change meanwhile.
 * An overlay serves wl__cache_access and the statistics; it holds no
 * copies (drop and invalidate do nothing), and base must hold none.
 * wl__cache_overlay_reset makes it base's view again (-1 when a lookup
 * ran out of memory since: it counted as a miss, and kept nothing). */
int wl__cache_overlay(wl_ctx *ctx, const wl_cache *base, wl_cache **out);
int wl__cache_overlay_reset(wl_cache *c);

/* ------------------------------------------------------------------ */
/* Data copies on the lines (the SM's L1 of the kernel device)          */

/* The copy of the sector holding byte address addr (sector_bytes bytes,
 * from the sector's first byte), or NULL when the cache holds no copy of
 * it.  Neither statistics nor LRU order change. */
uint8_t *wl__cache_copy(const wl_cache *c, uint64_t addr);
/* The sector holding addr gets a copy of src (the sector's bytes) when
 * the cache holds that sector (a copy never outlives its sector); its
 * copy, or NULL when the sector is absent or there is no memory for
 * copies.  Neither statistics nor LRU order change. */
uint8_t *wl__cache_copy_fill(wl_cache *c, uint64_t addr, const uint8_t *src);
/* Drops line slot (any number: taken modulo the cache's lines), its
 * sectors and their copies: a line the memory system evicts (the
 * profile's evict knob). */
void wl__cache_drop(wl_cache *c, uint64_t slot);
/* Whether any sector holds a copy. */
int wl__cache_has_copies(const wl_cache *c);

#endif
