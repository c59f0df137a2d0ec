/* coalesce.c -- global-memory sectors and constant-memory serialization of
 * one warp-wide instruction. */
#include <stdlib.h>
#include <string.h>

#include "perf.h"

/*
 * Global memory (shared/hw/h100/global_sectors.tsv): the L1 works in
 * 32-byte sectors of 128-byte lines.  A warp instruction is one request
 * whatever its width (16-byte loads too, per the table), and costs the
 * distinct sectors its active lanes touch.  An aligned access of at most
 * 16 bytes never straddles a sector, so each lane touches one.
 */
/* Lanes whose addresses never go down in lane order (a row of a matrix,
 * base + stride * lane, a broadcast) and are aligned: their distinct
 * sectors ascending, as sorting would leave them, in one pass.  Returns
 * 0 for any other request (out's sectors and lines are left zero). */
static int ascending(const wl_warp_req *r, wl_global_cost *out) {
  uint64_t any = 0, prev = 0;
  uint32_t b;
  for (b = r->active; b != 0; b &= b - 1) {
    uint64_t a = r->addr[__builtin_ctz(b)];
    uint64_t sec = a / WL_SECTOR_BYTES * WL_SECTOR_BYTES;
    if (a < prev)
      break;
    prev = a;
    any |= a;
    if (out->nsec > 0 && out->sector[out->nsec - 1] == sec)
      continue;
    if (out->nsec == 0 ||
        out->sector[out->nsec - 1] / WL_LINE_BYTES != sec / WL_LINE_BYTES)
      out->lines++;
    out->sector[out->nsec++] = sec;
  }
  if (b == 0 && (any & (uint64_t)(r->width - 1)) == 0)
    return 1;
  memset(out->sector, 0, (size_t)out->nsec * sizeof out->sector[0]);
  out->nsec = out->lines = 0;
  return 0;
}

int wl_price_global(const wl_warp_req *r, wl_global_cost *out) {
  int i, n = 0;
  memset(out, 0, sizeof *out);
  out->bad_lane = -1;
  if (!wl_req_valid_width(r->width))
    return WL_EINVAL;
  if (r->active != 0 && ascending(r, out)) {
    out->sectors = out->nsec;
    out->requests = 1;
    return 0;
  }
  if ((out->bad_lane = wl_req_misaligned(r)) >= 0)
    return WL_EINVAL;
  for (i = 0; i < WL_WARP_SIZE; i++)
    if (r->active >> i & 1u)
      out->sector[n++] = r->addr[i] / WL_SECTOR_BYTES * WL_SECTOR_BYTES;
  if (n == 0)
    return 0;
  wl__sort_u64(out->sector, n);
  out->nsec = 0;
  for (i = 0; i < n; i++) {
    if (out->nsec > 0 && out->sector[out->nsec - 1] == out->sector[i])
      continue;
    if (out->nsec == 0 || out->sector[out->nsec - 1] / WL_LINE_BYTES !=
                              out->sector[i] / WL_LINE_BYTES)
      out->lines++; /* ascending: a new line starts here */
    out->sector[out->nsec++] = out->sector[i];
  }
  /* past n the first memset left zeros: only the entries the
   * duplicates held are cleared */
  memset(out->sector + out->nsec, 0,
         (size_t)(n - out->nsec) * sizeof out->sector[0]);
  out->sectors = out->nsec;
  out->requests = 1;
  return 0;
}

/*
 * Constant memory (shared/hw/h100/constant_cache.tsv): the constant cache
 * serves one address per request, so a warp reading k distinct addresses
 * issues k requests, one after the other.
 */
int wl_const_requests(const wl_warp_req *r) {
  uint64_t a[WL_WARP_SIZE];
  int i, n = 0, k = 0;
  for (i = 0; i < WL_WARP_SIZE; i++)
    if (r->active >> i & 1u)
      a[n++] = r->addr[i];
  wl__sort_u64(a, n);
  for (i = 0; i < n; i++)
    if (i == 0 || a[i] != a[i - 1])
      k++;
  return k;
}

/*
 * The fit (least squares is not needed: the points are on two lines).
 * Hits, 1..8 distinct lines: cycles = 46.06 + 11.27 * distinct, through
 * the 1 and 8 rows (57.33, 136.24) and within 0.1% of 2 and 4.  Past the
 * per-SM constant cache (16 and 32 distinct lines 256 bytes apart, looped
 * over, every request misses): 16 -> 1345.31 and 32 -> 2644.69 lie on a
 * line of slope 81.21 per request, i.e. 11.27 + a miss penalty of 69.93.
 */
double wl_const_cycles(int distinct, int misses) {
  if (distinct <= 0)
    return 0.0;
  if (misses < 0)
    misses = 0;
  if (misses > distinct)
    misses = distinct;
  return WL_CONST_BASE_CYCLES + WL_CONST_REQ_CYCLES * distinct +
         WL_CONST_MISS_CYCLES * misses;
}
