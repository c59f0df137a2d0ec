/* cache.c -- a sectored set-associative cache with LRU replacement, the
 * shape of the L1/L2 (128-byte lines of four 32-byte sectors, each sector
 * valid on its own) and, with other geometry, of the constant cache, and
 * the data copies an SM's L1 keeps on its lines (cache.h).  Timing is the
 * caller's business: this only says hit or miss. */
#include <string.h>

#include "cache.h"

typedef struct way {
  uint64_t line;   /* line number (address / line_bytes) */
  uint64_t used;   /* LRU stamp: larger is more recent */
  uint32_t valid;  /* one bit per sector; 0: the way is empty */
  uint32_t copied; /* the sectors holding a data copy (of valid's) */
} way;

struct wl_cache {
  wl_ctx *ctx;
  wl_cache_cfg cfg;
  uint32_t nsets;
  int lshift, sshift; /* log2 of line_bytes and sector_bytes (powers of
                       * two): the lookups shift where they divided */
  uint32_t setmask;   /* nsets - 1 when nsets is a power of two, else 0 */
  uint64_t clock;
  wl_cache_stats st;
  way *ways;        /* nsets * cfg.ways; a set's ways are garbage until
                     * it is first used (set_ways) */
  uint64_t *used_sets; /* one bit per set: its ways were cleared (a
                        * cache of megabytes is not cleared whole for a
                        * launch that touches a few of its sets) */
  uint8_t *data;    /* line_bytes per way, once a copy is made (a
                     * sector's bytes are read only once copied) */
  uint64_t ncopied; /* ways with copied != 0 (an upper bound) */
  /* an overlay (wl__cache_overlay): the lines are base's, but for the
   * sets a lookup touched, copied here on first touch (ov: an open
   * hash of set index + 1 -> the copy's number in ovw; 0 empty) */
  const wl_cache *base;
  uint32_t *ovkey, *ovval;
  size_t ovslots, ovn, ovcap; /* slots (a power of 2), copies, room */
  way *ovw;                   /* ovcap sets of cfg.ways */
  uint64_t bclock;            /* base's clock and statistics, for reset */
  wl_cache_stats bst;
  int ovfail;                 /* out of memory: lookups go on unchanged */
};

static size_t nwords(uint32_t nsets) { return ((size_t)nsets + 63) / 64; }

static int log2u(uint32_t x) { return __builtin_ctz(x); } /* x: 2^k */

/* The line of byte address addr, and its sector's bit in the line. */
static uint64_t line_of(const wl_cache *c, uint64_t addr) {
  return addr >> c->lshift;
}

static uint32_t sector_bit(const wl_cache *c, uint64_t addr) {
  return 1u << ((addr & (c->cfg.line_bytes - 1u)) >> c->sshift);
}

/* The set of a line (modulo the sets, which need not be 2^k). */
static uint32_t set_of(const wl_cache *c, uint64_t line) {
  return c->setmask ? (uint32_t)(line & c->setmask)
                    : (uint32_t)(line % c->nsets);
}

/* Whether set k of a cache that is no overlay was used (cleared). */
static int set_used(const wl_cache *c, size_t k) {
  return (int)(c->used_sets[k / 64] >> (k % 64) & 1);
}

/* The ways of set `set` as this cache sees them: cleared at the set's
 * first use; an overlay copies the set from its base at the first touch
 * (NULL: out of memory). */
static way *set_ways(wl_cache *c, uint32_t set) {
  size_t h, i;
  if (c->base == NULL) {
    way *w = c->ways + (size_t)set * c->cfg.ways;
    if (!set_used(c, set)) {
      memset(w, 0, (size_t)c->cfg.ways * sizeof *w);
      c->used_sets[set / 64] |= 1ull << (set % 64);
    }
    return w;
  }
  if ((c->ovn + 1) * 2 > c->ovslots) { /* grow the hash */
    size_t ns = c->ovslots ? c->ovslots * 2 : 256, k;
    uint32_t *nk = wl__calloc(c->ctx, ns * sizeof *nk);
    uint32_t *nv = wl__calloc(c->ctx, ns * sizeof *nv);
    if (nk == NULL || nv == NULL) {
      wl__free(c->ctx, nk, ns * sizeof *nk);
      wl__free(c->ctx, nv, ns * sizeof *nv);
      return NULL;
    }
    for (k = 0; k < c->ovslots; k++)
      if (c->ovkey[k] != 0) {
        h = (c->ovkey[k] * 2654435761u) & (ns - 1);
        while (nk[h] != 0)
          h = (h + 1) & (ns - 1);
        nk[h] = c->ovkey[k];
        nv[h] = c->ovval[k];
      }
    wl__free(c->ctx, c->ovkey, c->ovslots * sizeof *c->ovkey);
    wl__free(c->ctx, c->ovval, c->ovslots * sizeof *c->ovval);
    c->ovkey = nk;
    c->ovval = nv;
    c->ovslots = ns;
  }
  h = ((set + 1u) * 2654435761u) & (c->ovslots - 1);
  while (c->ovkey[h] != 0) {
    if (c->ovkey[h] == set + 1u)
      return c->ovw + (size_t)c->ovval[h] * c->cfg.ways;
    h = (h + 1) & (c->ovslots - 1);
  }
  if (c->ovn == c->ovcap) {
    size_t nc = c->ovcap ? c->ovcap * 2 : 64;
    way *nw = wl__alloc(c->ctx, nc * c->cfg.ways * sizeof(way));
    if (nw == NULL)
      return NULL;
    if (c->ovn)
      memcpy(nw, c->ovw, c->ovn * c->cfg.ways * sizeof(way));
    wl__free(c->ctx, c->ovw, c->ovcap * c->cfg.ways * sizeof(way));
    c->ovw = nw;
    c->ovcap = nc;
  }
  i = c->ovn++;
  c->ovkey[h] = set + 1u;
  c->ovval[h] = (uint32_t)i;
  if (set_used(c->base, set))
    memcpy(c->ovw + i * c->cfg.ways,
           c->base->ways + (size_t)set * c->cfg.ways,
           c->cfg.ways * sizeof(way));
  else /* never used there: empty */
    memset(c->ovw + i * c->cfg.ways, 0, c->cfg.ways * sizeof(way));
  return c->ovw + i * c->cfg.ways;
}

static int pow2(uint32_t x) { return x != 0 && (x & (x - 1)) == 0; }

int wl__cache_new(wl_ctx *ctx, const wl_cache_cfg *cfg, wl_cache **out) {
  wl_cache *c;
  uint32_t lines;
  size_t n;
  *out = NULL;
  /* the size need not be a power of two (H100: 50 MB of L2, an L1 of
   * 256 KB less the shared carve-out): sets are indexed modulo */
  if (!pow2(cfg->line_bytes) || !pow2(cfg->sector_bytes) ||
      cfg->size_bytes % cfg->line_bytes != 0)
    return wl__err(ctx, WL_EINVAL,
                   "cache: line (%u) and sector (%u) bytes must be powers "
                   "of two and the size (%u) a multiple of the line",
                   cfg->line_bytes, cfg->sector_bytes, cfg->size_bytes);
  if (cfg->sector_bytes > cfg->line_bytes || cfg->line_bytes > cfg->size_bytes)
    return wl__err(ctx, WL_EINVAL,
                   "cache: need sector (%u) <= line (%u) <= size (%u) bytes",
                   cfg->sector_bytes, cfg->line_bytes, cfg->size_bytes);
  if (cfg->line_bytes / cfg->sector_bytes > 32)
    return wl__err(ctx, WL_EINVAL,
                   "cache: at most 32 sectors a line (%u / %u bytes)",
                   cfg->line_bytes, cfg->sector_bytes);
  lines = cfg->size_bytes / cfg->line_bytes;
  if (cfg->ways == 0 || lines % cfg->ways != 0)
    return wl__err(ctx, WL_EINVAL,
                   "cache: %u ways do not divide the %u lines of the cache",
                   cfg->ways, lines);
  c = wl__calloc(ctx, sizeof *c);
  if (c == NULL)
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  n = (size_t)lines * sizeof(way);
  c->ways = wl__alloc(ctx, n); /* cleared set by set (set_ways) */
  c->used_sets = wl__calloc(ctx, nwords(lines / cfg->ways) * 8);
  if (c->ways == NULL || c->used_sets == NULL) {
    wl__free(ctx, c->ways, n);
    wl__free(ctx, c->used_sets, nwords(lines / cfg->ways) * 8);
    wl__free(ctx, c, sizeof *c);
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  }
  c->ctx = ctx;
  c->cfg = *cfg;
  c->nsets = lines / cfg->ways;
  c->lshift = log2u(cfg->line_bytes);
  c->sshift = log2u(cfg->sector_bytes);
  c->setmask = pow2(c->nsets) ? c->nsets - 1 : 0;
  *out = c;
  return 0;
}

void wl__cache_free(wl_cache *c) {
  if (c == NULL)
    return;
  wl__free(c->ctx, c->ovkey, c->ovslots * sizeof *c->ovkey);
  wl__free(c->ctx, c->ovval, c->ovslots * sizeof *c->ovval);
  wl__free(c->ctx, c->ovw, c->ovcap * c->cfg.ways * sizeof(way));
  if (c->used_sets != NULL)
    wl__free(c->ctx, c->used_sets, nwords(c->nsets) * 8);
  if (c->data != NULL)
    wl__free(c->ctx, c->data, c->cfg.size_bytes);
  wl__free(c->ctx, c->ways,
           (size_t)(c->cfg.size_bytes / c->cfg.line_bytes) * sizeof(way));
  wl__free(c->ctx, c, sizeof *c);
}

int wl__cache_access(wl_cache *c, uint64_t sector_addr, int fill) {
  uint64_t line = line_of(c, sector_addr);
  uint32_t bit = sector_bit(c, sector_addr);
  way *set = set_ways(c, set_of(c, line));
  way *victim = set;
  uint32_t i;
  if (set == NULL) { /* an overlay out of memory: a miss, nothing kept */
    c->ovfail = 1;
    c->st.misses++;
    return 0;
  }
  c->clock++;
  for (i = 0; i < c->cfg.ways; i++) {
    way *w = set + i;
    if (w->valid != 0 && w->line == line) {
      if (w->valid & bit) {
        c->st.hits++;
        w->used = c->clock;
        return 1;
      }
      c->st.misses++; /* the line is here, the sector is not */
      if (fill) {
        w->valid |= bit;
        w->used = c->clock;
      }
      return 0;
    }
    /* an empty way, else the least recently used one */
    if (victim->valid != 0 && (w->valid == 0 || w->used < victim->used))
      victim = w;
  }
  c->st.misses++;
  if (fill) {
    victim->line = line;
    victim->valid = bit;
    victim->copied = 0; /* a capacity eviction takes the copies along */
    victim->used = c->clock;
  }
  return 0;
}

/* The way holding addr's line, or NULL; *bit its sector's bit. */
static way *find(const wl_cache *c, uint64_t addr, uint32_t *bit) {
  uint64_t line = line_of(c, addr);
  if (c->base != NULL) { /* an overlay holds no copies */
    *bit = 0;
    return NULL;
  }
  size_t k = set_of(c, line);
  way *set = c->ways + k * c->cfg.ways;
  uint32_t i;
  *bit = sector_bit(c, addr);
  if (!set_used(c, k)) /* never used: empty */
    return NULL;
  for (i = 0; i < c->cfg.ways; i++)
    if (set[i].valid != 0 && set[i].line == line)
      return &set[i];
  return NULL;
}

static uint8_t *copy_of(const wl_cache *c, const way *w, uint64_t addr) {
  return c->data + ((size_t)(w - c->ways) << c->lshift) +
         (addr & (c->cfg.line_bytes - 1u) & ~(uint64_t)(c->cfg.sector_bytes - 1u));
}

uint8_t *wl__cache_copy(const wl_cache *c, uint64_t addr) {
  uint32_t bit;
  way *w;
  if (c->ncopied == 0 || (w = find(c, addr, &bit)) == NULL ||
      !(w->copied & w->valid & bit))
    return NULL;
  return copy_of(c, w, addr);
}

uint8_t *wl__cache_copy_fill(wl_cache *c, uint64_t addr, const uint8_t *src) {
  uint32_t bit;
  way *w = find(c, addr, &bit);
  uint8_t *p;
  if (w == NULL || !(w->valid & bit))
    return NULL;
  /* made at the first copy (most caches never hold one: L2, the
   * constant cache, L1s of SMs whose loads bypass it) */
  if (c->data == NULL &&
      (c->data = wl__alloc(c->ctx, c->cfg.size_bytes)) == NULL)
    return NULL;
  if (w->copied == 0)
    c->ncopied++;
  w->copied |= bit;
  p = copy_of(c, w, addr);
  memcpy(p, src, c->cfg.sector_bytes);
  return p;
}

void wl__cache_drop(wl_cache *c, uint64_t slot) {
  way *w;
  if (c->base != NULL) /* not for overlays (cache.h) */
    return;
  w = c->ways + slot % ((uint64_t)c->nsets * c->cfg.ways);
  w->valid = 0; /* (a set never used: cleared at its first use anyway) */
  w->copied = 0;
}

int wl__cache_has_copies(const wl_cache *c) { return c->ncopied != 0; }

void wl__cache_invalidate(wl_cache *c) {
  if (c->base != NULL) /* not for overlays (cache.h) */
    return;
  memset(c->used_sets, 0, nwords(c->nsets) * 8);
  c->ncopied = 0;
}

void wl__cache_stats(const wl_cache *c, wl_cache_stats *out) { *out = c->st; }

void wl__cache_reset_stats(wl_cache *c) { memset(&c->st, 0, sizeof c->st); }

double wl__cache_hit_rate(const wl_cache *c) {
  uint64_t n = c->st.hits + c->st.misses;
  return n == 0 ? 0.0 : (double)c->st.hits / (double)n;
}

const wl_cache_cfg *wl__cache_cfg(const wl_cache *c) { return &c->cfg; }

int wl__cache_overlay(wl_ctx *ctx, const wl_cache *base, wl_cache **out) {
  wl_cache *c;
  *out = NULL;
  if (base->base != NULL || base->ncopied != 0)
    return wl__err(ctx, WL_EINVAL, "cache: an overlay of an overlay, or of "
                                   "a cache with copies");
  if ((c = wl__calloc(ctx, sizeof *c)) == NULL)
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  c->ctx = ctx;
  c->cfg = base->cfg;
  c->nsets = base->nsets;
  c->lshift = base->lshift;
  c->sshift = base->sshift;
  c->setmask = base->setmask;
  c->base = base;
  c->clock = c->bclock = base->clock;
  c->st = c->bst = base->st;
  *out = c;
  return 0;
}

int wl__cache_overlay_reset(wl_cache *c) {
  int failed = c->ovfail;
  if (c->ovslots)
    memset(c->ovkey, 0, c->ovslots * sizeof *c->ovkey);
  c->ovn = 0;
  c->clock = c->bclock;
  c->st = c->bst;
  c->ovfail = 0;
  return failed ? -1 : 0;
}
