/* banks.c -- shared-memory wavefronts and bank conflicts of one warp-wide
 * instruction.
 *
 * The rule reproduces every row measured with Nsight Compute on an H100
 * (and the H200 rows, which agree): shared/hw/h100/shared_wavefronts.tsv
 * and tests/hw/shared_wavefronts_{more,gathers,phases,pairs}.tsv,
 * wavefronts and bank conflicts both.
 *
 * Words.  A lane reading w bytes at a touches the bank words a/bb ..
 * (a+w-1)/bb (bb = bank_bytes), word k living in bank k % nbanks.  The
 * cost of a pass over a set of lanes is the largest number of distinct
 * words that the pass asks of one bank: lanes reading one word share it
 * (broadcast), lanes writing one word have one winner.
 *
 * Passes.  The data path returns nbanks x bb bytes a wavefront, one
 * 4-byte register per lane on 32 x 4 banks.  An access of w bytes no
 * wider than a bank word, or whose 32 lanes fit one wavefront, is one
 * pass of the whole warp.  A wider one (8 and 16 bytes on 32 x 4 banks)
 * is cut into passes of P = nbanks*bb / w consecutive lanes (half-warps
 * for 8 bytes, quarter-warps for 16 bytes; P rounded down to a power of
 * two), each a wavefront of data, and a pass with no active lane is
 * skipped.  wavefronts = the sum of the passes' costs.
 *
 * Packed loads.  A load packs two lanes' data into one wavefront's slots
 * when every pair of active lanes (n, n^1) reads one address, or every
 * pair of active lanes (n, n^2) does (a pair with an inactive lane never
 * disagrees): then the passes are 2P lanes wide (the whole warp for 8
 * bytes, half-warps for 16 bytes).  The test is warp-wide, one of the
 * two pairings for all lanes, not per quad or half-warp.  Stores never
 * pack.  It matches what an NVIDIA engineer wrote of "uniform" shared
 * loads on Volta and Turing (forums.developer.nvidia.com, "Unexpected
 * shared memory bank conflict", 2019): the return path carries 128
 * bytes, one register per lane, a cycle, and when threads Tn and Tn^1,
 * or Tn and Tn^2, have equal addresses it packs the returned registers,
 * halving the requests.  It alone fits every measured row: the pairings
 * n^3, n^4, n^8 or n^16, packing stores, or a test per half-warp or per
 * quad each miss rows (tests/hw/bank_rule_fit.py searches those
 * alternatives with held-out rows; tests/hw/shared_wavefronts_pairs.tsv
 * holds 140 patterns measured after the rule was written, all predicted).
 * For example:
 *   - an 8-byte broadcast, or lanes 2k and 2k+1 sharing a word
 *     (pairs_share_word): packed, 1 wavefront;
 *   - halves_same_words (lane n and n+16 on one word, 16 words): no pair
 *     agrees, two half-warp passes, 2;
 *   - g2_0_120_k12 (1) and g2_0_120_k14 (2), 8-byte gathers of two
 *     words: in k12 no two active lanes differ by 2 (n^2 holds), in k14
 *     lanes 5 and 7 differ and so do lanes 4 and 5;
 *   - gather4_run (16 bytes, lanes 7..19 on four addresses within 64
 *     bytes, 3 wavefronts, no conflict): lanes 10 and 11 differ, and so
 *     do 8 and 10: three quarter-warp passes (lane 7; 8..15; 16..19);
 *   - half_bcast_half_conflict (16 bytes): unpacked, 2 + 16 = 18.
 *
 * Conflicts (Nsight's bank-conflict counter) = wavefronts - ideal, each
 * pass's ideal being ceil(distinct words / nbanks): what the pass would
 * take if no two of its words shared a bank.  So an 8-byte stride-1
 * load is 2 wavefronts and 0 conflicts, a packed 8-byte two-address load
 * in one bank 2 and 1, an unpacked 16-byte stride-4 one 16 and 12.
 *
 * Other bank layouts (Kepler's 32 x 8, the toy 5 x 4) use the same rule;
 * it is a generalisation that no measurement checks.
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

static int ceil_div(int a, int b) { return (a + b - 1) / b; }

/* One pass over the active lanes of [lo, hi): returns its cost (the most
 * distinct words in one bank) and sets *ideal; per_bank (nbanks entries,
 * may be NULL) gets the distinct words per bank. */
static int pass(const wl_bank_cfg *cfg, const wl_warp_req *r, int lo, int hi,
                int *ideal, uint32_t *per_bank) {
  uint64_t words[MAXWORDS];
  uint32_t count[WL_BANK_MAX];
  uint64_t bb = (uint64_t)cfg->bank_bytes;
  int i, n = 0, cost = 0;
  for (i = lo; i < hi; i++) {
    uint64_t k;
    if (!(r->active >> i & 1u))
      continue;
    for (k = r->addr[i] / bb; k <= (r->addr[i] + (uint64_t)r->width - 1) / bb;
         k++)
      words[n++] = k;
  }
  *ideal = 0;
  if (n == 0)
    return 0;
  n = uniq(words, n);
  memset(count, 0, sizeof count);
  for (i = 0; i < n; i++) {
    uint32_t c = ++count[words[i] % (uint64_t)cfg->nbanks];
    if ((int)c > cost)
      cost = (int)c;
  }
  if (per_bank != NULL)
    memcpy(per_bank, count, (size_t)cfg->nbanks * sizeof *count);
  *ideal = ceil_div(n, cfg->nbanks);
  return cost;
}

/* 1 when every pair of active lanes (n, n^x) reads one address. */
static int pairs_agree(const wl_warp_req *r, int x) {
  int i;
  for (i = 0; i < WL_WARP_SIZE; i++) {
    int j = i ^ x;
    if (j > i && (r->active >> i & 1u) && (r->active >> j & 1u) &&
        r->addr[i] != r->addr[j])
      return 0;
  }
  return 1;
}

int wl_price_shared(const wl_bank_cfg *cfg, const wl_warp_req *r,
                    wl_shared_cost *out) {
  int wfbytes, phase, lane, i;
  memset(out, 0, sizeof *out);
  out->bad_lane = -1;
  if (cfg->nbanks < 1 || cfg->nbanks > WL_BANK_MAX || cfg->bank_bytes < 1 ||
      cfg->bank_bytes > 1024 || !wl_req_valid_width(r->width))
    return WL_EINVAL;
  if ((out->bad_lane = wl_req_misaligned(r)) >= 0)
    return WL_EINVAL;
  wfbytes = cfg->nbanks * cfg->bank_bytes;
  if (r->width <= cfg->bank_bytes) {
    /* Narrow, the common case: one pass, every lane asks for one word. */
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
  if (r->active == 0)
    return 0;
  (void)pass(cfg, r, 0, WL_WARP_SIZE, &i, out->bank_words); /* heatmap */
  /* Passes of P lanes, a power of two; the whole warp when it fits one
   * wavefront; twice as wide for a packed load. */
  for (phase = 1; phase < WL_WARP_SIZE && phase * 2 <= wfbytes / r->width;
       phase *= 2)
    ;
  if (WL_WARP_SIZE * r->width <= wfbytes)
    phase = WL_WARP_SIZE;
  out->merged = phase < WL_WARP_SIZE && !r->store &&
                (pairs_agree(r, 1) || pairs_agree(r, 2));
  if (out->merged)
    phase *= 2;
  for (lane = 0; lane < WL_WARP_SIZE; lane += phase) {
    out->wavefronts += pass(cfg, r, lane, lane + phase, &i, NULL);
    out->ideal += i;
  }
  out->conflicts = out->wavefronts - out->ideal;
  return 0;
}
