/* banks.c -- shared-memory wavefronts and bank conflicts of one warp-wide
 * instruction.
 *
 * The rule, fitted to every row of shared/hw/h100/shared_wavefronts.tsv
 * and tests/hw/shared_wavefronts_more.tsv (Nsight Compute on an H100),
 * and to most of tests/hw/shared_wavefronts_{gathers,phases}.tsv:
 *
 * Words.  A lane reading w bytes at a touches the bank words a/bb ..
 * (a+w-1)/bb (bb = bank_bytes), word k living in bank k % nbanks.  The
 * cost of a set of lanes, cost(L), is the largest number of distinct words
 * that L requests from one bank: lanes reading one word share it
 * (broadcast), lanes writing one word have one winner.
 *
 * Narrow accesses (w <= bb, or 32 lanes x w bytes fit one wavefront of
 * nbanks x bb bytes): the warp is one unit, wavefronts = cost(warp).  This
 * is hw/README.md's 4-byte rule; 1- and 2-byte rows follow it too.
 *
 * Wide accesses (8 and 16 bytes on 32 x 4 banks): the warp is split into
 * phases of P = nbanks*bb / w lanes (half-warps for 8 bytes, quarter-warps
 * for 16 bytes), each one wavefront of data.
 *   - Stores: always phase by phase: wavefronts = sum of cost(phase)
 *     (measured: an 8-byte broadcast store costs 2, a 16-byte one 4).
 *   - Loads: pairs of phases (the whole warp for 8 bytes, half-warps for
 *     16 bytes) are merged into one unit when no phase of the warp costs
 *     more than 2 on its own -- a warp-wide choice: in
 *     half_bcast_half_conflict (16 bytes) the broadcast half-warp is not
 *     merged because the other half's phases conflict (18, not 17), and
 *     three_addr_one_bank (6 and 12, not 3 and 6) fixes the threshold at 2.
 *     A merged unit costs max(cost(unit), ceil(Q / P)) where Q counts the
 *     distinct addresses of each quarter-warp of the unit, summed: lanes
 *     with one address in one quarter-warp are one request, but the same
 *     address in two quarter-warps is two (halves_same_words and
 *     quarters_same_words cost 2 with 8 bytes although conflict-free,
 *     pairs_share_word costs 1).  Groups of 4 lanes would fit the rows as
 *     well as quarter-warps; nothing measured tells them apart.  Units are
 *     never larger than that: a 16-byte broadcast costs 2.
 *     An 8-byte unit over both half-warps also needs 2 when a quad of
 *     lanes (4k..4k+3) makes more than two requests, lanes joined when
 *     their numbers differ in bit 0 or bit 1 and their addresses are
 *     equal (quad_requests): a quad gets 16 bytes of a merged wavefront.
 *   - Otherwise each phase is priced alone: wavefronts = sum of cost(phase).
 * Known misfits (tests/unit/test_perf.c counts them): 93 rows of
 * tests/hw/shared_wavefronts_gathers.tsv and 14 of
 * tests/hw/shared_wavefronts_phases.tsv, all loads.  The 8-byte ones are
 * conflict-free gathers of 2 to 8 words over both half-warps, 14 to 32
 * lanes, that cost 2 where every quad makes at most 2 requests: no count
 * of distinct addresses per lane pair, quad, octet or half-warp, nor a
 * butterfly-routing model, separates them from rows of the same kind
 * that cost 1 (e.g. shared_wavefronts_phases.tsv g2_0_120_k12, 1, and
 * g2_0_120_k14, 2).  The 16-byte ones are half-warps whose two
 * quarter-warps Nsight counts as 2 or 3 wavefronts without a bank
 * conflict (gather2_quarter, 16 bytes, lanes 0-15 on two addresses: 3).
 * Conflicts (Nsight's bank-conflict counter) = wavefronts - ideal, where
 * each unit's ideal is max(ceil(distinct words / nbanks), ceil(Q / P)):
 * the wavefronts it would take if no two words shared a bank.  So an
 * 8-byte stride-1 load is 2 wavefronts and 0 conflicts, a merged 8-byte
 * two-address load 2 and 1, a phase-by-phase 16-byte one 16 and 12.
 *
 * Other bank layouts (Kepler's 32 x 8, the toy 5 x 4) use the same rule
 * with P rounded down to a power of two; it is a generalisation that no
 * measurement checks.
 */
#include <stdlib.h>
#include <string.h>

#include "perf.h"

int wl_req_valid_width(int width) {
  return width == 1 || width == 2 || width == 4 || width == 8 || width == 16;
}

int wl_req_misaligned(const wl_warp_req *r) {
  int i;
  uint64_t any = 0;
  if (!wl_req_valid_width(r->width))
    return -1;
  for (i = 0; i < WL_WARP_SIZE; i++) /* branch-free: usually all aligned */
    any |= r->addr[i] & (0 - (uint64_t)(r->active >> i & 1u));
  if ((any & (uint64_t)(r->width - 1)) == 0)
    return -1;
  for (i = 0; i < WL_WARP_SIZE; i++)
    if ((r->active >> i & 1u) && (r->addr[i] & (uint64_t)(r->width - 1)))
      return i; /* widths are powers of two */
  return -1;
}

/* What a set of lanes asks of the banks. */
typedef struct unit_cost {
  int cost;  /* most distinct words in one bank */
  int words; /* distinct words */
  int quads; /* Q: distinct addresses per quarter-warp, summed */
  int lanes; /* active lanes */
} unit_cost;

/* At most 32 lanes x 16 words (16-byte lanes on 1-byte banks). */
#define MAXWORDS (WL_WARP_SIZE * 16)

/* Sorts v[0..n) and removes duplicates; returns the new length. */
static int uniq(uint64_t *v, int n) {
  int i, m = 0;
  wl__sort_u64(v, n);
  for (i = 0; i < n; i++)
    if (m == 0 || v[m - 1] != v[i])
      v[m++] = v[i];
  return m;
}

/* Prices lanes [lo, hi).  per_bank (nbanks entries) may be NULL. */
static unit_cost price(const wl_bank_cfg *cfg, const wl_warp_req *r, int lo,
                       int hi, uint32_t *per_bank) {
  uint64_t words[MAXWORDS];
  uint32_t count[WL_BANK_MAX];
  uint64_t bb = (uint64_t)cfg->bank_bytes;
  unit_cost u = {0, 0, 0, 0};
  int i, n = 0, q;
  memset(count, 0, sizeof count);
  for (i = lo; i < hi; i++) {
    uint64_t k;
    if (!(r->active >> i & 1u))
      continue;
    u.lanes++;
    for (k = r->addr[i] / bb; k <= (r->addr[i] + (uint64_t)r->width - 1) / bb;
         k++)
      words[n++] = k;
  }
  n = uniq(words, n);
  u.words = n;
  for (i = 0; i < n; i++) {
    uint32_t c = ++count[words[i] % (uint64_t)cfg->nbanks];
    if ((int)c > u.cost)
      u.cost = (int)c;
  }
  if (per_bank != NULL)
    memcpy(per_bank, count, (size_t)cfg->nbanks * sizeof *count);
  /* Q: requests after merging equal addresses within each quarter-warp */
  for (q = lo; q < hi; q = (q / 8 + 1) * 8) {
    uint64_t a[8];
    int m = 0, end = (q / 8 + 1) * 8 < hi ? (q / 8 + 1) * 8 : hi;
    for (i = q; i < end; i++)
      if (r->active >> i & 1u)
        a[m++] = r->addr[i];
    u.quads += uniq(a, m);
  }
  return u;
}

static int ceil_div(int a, int b) { return (a + b - 1) / b; }

/* The requests of the quad of lanes q..q+3 as the hardware seems to count
 * them for a merged 8-byte load: active lanes whose lane numbers differ in
 * bit 0 or bit 1 and whose addresses are equal are one request (joined
 * transitively), but two lanes that differ in both bits (lanes 1 and 2, 0
 * and 3) are not compared.  tests/hw/shared_wavefronts_phases.tsv: lanes
 * 4, 5, 6 reading 0, 8, 8 with lane 16 active cost 2 wavefronts, reading
 * 8, 0, 8 or 0, 8, 0 cost 1. */
static int quad_requests(const wl_warp_req *r, int q) {
  int root[4], i, b, n = 0;
  for (i = 0; i < 4; i++)
    root[i] = i;
  for (i = 0; i < 4; i++)
    for (b = 1; b <= 2; b++) {
      int j = i ^ b, x = i, y = j;
      if (j < i || !(r->active >> (q + i) & 1u) ||
          !(r->active >> (q + j) & 1u) || r->addr[q + i] != r->addr[q + j])
        continue;
      while (root[x] != x)
        x = root[x];
      while (root[y] != y)
        y = root[y];
      root[y] = x;
    }
  for (i = 0; i < 4; i++)
    n += (r->active >> (q + i) & 1u) && root[i] == i;
  return n;
}

/* A merged 8-byte unit over both half-warps needs two wavefronts when a
 * quad of lanes asks for more than two requests (a quad receives 16 bytes
 * of a merged wavefront).  Only 8-byte loads were measured this way. */
static int quad_need(const wl_warp_req *r, int lo, int hi, int phase) {
  int q;
  if (r->width != 8 || hi - lo != 2 * phase ||
      !(r->active >> lo & ((1u << phase) - 1u)) ||
      !(r->active >> (lo + phase) & ((1u << phase) - 1u)))
    return 1;
  for (q = lo; q < hi; q += 4)
    if (quad_requests(r, q) > 2)
      return 2;
  return 1;
}

int wl_price_shared(const wl_bank_cfg *cfg, const wl_warp_req *r,
                    wl_shared_cost *out) {
  int wfbytes, phase, lane, i;
  unit_cost all;
  memset(out, 0, sizeof *out);
  out->bad_lane = -1;
  if (cfg->nbanks < 1 || cfg->nbanks > WL_BANK_MAX || cfg->bank_bytes < 1 ||
      cfg->bank_bytes > 1024 || !wl_req_valid_width(r->width))
    return WL_EINVAL;
  if ((out->bad_lane = wl_req_misaligned(r)) >= 0)
    return WL_EINVAL;
  wfbytes = cfg->nbanks * cfg->bank_bytes;
  if (r->width <= cfg->bank_bytes) {
    /* Narrow, the common case, the rule of price() without its
     * quarter-warp counts: every lane asks for one word. */
    uint64_t bb = (uint64_t)cfg->bank_bytes, nb = (uint64_t)cfg->nbanks;
    int n = 0, cost = 0, shift = 0;
    while ((1ull << shift) < bb)
      shift++;
    if ((1ull << shift) == bb) {
      cost = wl__bank_narrow(r->addr, r->active, shift, nb, out->bank_words,
                             &n);
    } else { /* bank_bytes not a power of two: divide */
      uint64_t w[WL_WARP_SIZE];
      for (i = 0; i < WL_WARP_SIZE; i++)
        if (r->active >> i & 1u)
          w[n++] = r->addr[i] / bb;
      cost = wl__bank_narrow(w, n == 32 ? 0xffffffffu : (1u << n) - 1, 0,
                             nb, out->bank_words, &n);
    }
    if (n == 0)
      return 0;
    out->wavefronts = cost;
    out->ideal = ceil_div(n, cfg->nbanks);
    out->conflicts = out->wavefronts - out->ideal;
    return 0;
  }
  all = price(cfg, r, 0, WL_WARP_SIZE, out->bank_words);
  if (all.lanes == 0)
    return 0;

  /* Narrow: one unit (hw/README.md's 4-byte rule). */
  if (r->width <= cfg->bank_bytes || WL_WARP_SIZE * r->width <= wfbytes) {
    out->wavefronts = all.cost;
    out->ideal = ceil_div(all.words, cfg->nbanks);
    out->conflicts = out->wavefronts - out->ideal;
    return 0;
  }

  /* Wide: phases of P lanes, a power of two below 32. */
  for (phase = 1; phase * 2 <= wfbytes / r->width; phase *= 2)
    ;
  out->merged = !r->store;
  for (lane = 0; lane < WL_WARP_SIZE && out->merged; lane += phase)
    if (price(cfg, r, lane, lane + phase, NULL).cost > 2)
      out->merged = 0;
  {
    int unit = out->merged ? 2 * phase : phase;
    for (lane = 0; lane < WL_WARP_SIZE; lane += unit) {
      unit_cost u = price(cfg, r, lane, lane + unit, NULL);
      int need = ceil_div(u.quads, phase);
      if (u.lanes == 0)
        continue;
      if (out->merged && need < 2)
        need = quad_need(r, lane, lane + unit, phase);
      out->wavefronts += u.cost > need ? u.cost : need;
      i = ceil_div(u.words, cfg->nbanks);
      out->ideal += i > need ? i : need;
    }
  }
  out->conflicts = out->wavefronts - out->ideal;
  return 0;
}
