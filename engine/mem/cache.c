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
  uint64_t clock;
  wl_cache_stats st;
  way *ways;        /* nsets * cfg.ways */
  uint8_t *data;    /* line_bytes per way, once a copy is made */
  uint64_t ncopied; /* ways with copied != 0 (an upper bound) */
  /* the journal (wl__cache_journal): each way an access changed, as it
   * was before, and the clock and statistics when it started */
  int journal;
  wl_vec jw; /* jentry */
  uint64_t jclock;
  wl_cache_stats jst;
};

typedef struct jentry {
  size_t idx;
  way old;
} jentry;

/* Records way w as it is now, before an access changes it (0; non-zero
 * when the journal is out of memory: it stops, and rollback says so). */
static void journal_way(wl_cache *c, const way *w) {
  jentry *e;
  if (!c->journal)
    return;
  if (c->journal < 0 || (e = wl__vec_push(c->ctx, &c->jw)) == NULL) {
    c->journal = -1;
    return;
  }
  e->idx = (size_t)(w - c->ways);
  e->old = *w;
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
  c->ways = wl__calloc(ctx, n);
  if (c->ways == NULL) {
    wl__free(ctx, c, sizeof *c);
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  }
  c->ctx = ctx;
  c->cfg = *cfg;
  c->nsets = lines / cfg->ways;
  *out = c;
  return 0;
}

void wl__cache_free(wl_cache *c) {
  if (c == NULL)
    return;
  wl__vec_free(c->ctx, &c->jw);
  if (c->data != NULL)
    wl__free(c->ctx, c->data, c->cfg.size_bytes);
  wl__free(c->ctx, c->ways,
           (size_t)(c->cfg.size_bytes / c->cfg.line_bytes) * sizeof(way));
  wl__free(c->ctx, c, sizeof *c);
}

int wl__cache_access(wl_cache *c, uint64_t sector_addr, int fill) {
  uint64_t line = sector_addr / c->cfg.line_bytes;
  uint32_t bit = 1u << (sector_addr % c->cfg.line_bytes / c->cfg.sector_bytes);
  way *set = c->ways + (size_t)(line % c->nsets) * c->cfg.ways;
  way *victim = set;
  uint32_t i;
  c->clock++;
  for (i = 0; i < c->cfg.ways; i++) {
    way *w = set + i;
    if (w->valid != 0 && w->line == line) {
      journal_way(c, w);
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
    journal_way(c, victim);
    victim->line = line;
    victim->valid = bit;
    victim->copied = 0; /* a capacity eviction takes the copies along */
    victim->used = c->clock;
  }
  return 0;
}

/* The way holding addr's line, or NULL; *bit its sector's bit. */
static way *find(const wl_cache *c, uint64_t addr, uint32_t *bit) {
  uint64_t line = addr / c->cfg.line_bytes;
  way *set = c->ways + (size_t)(line % c->nsets) * c->cfg.ways;
  uint32_t i;
  *bit = 1u << (addr % c->cfg.line_bytes / c->cfg.sector_bytes);
  for (i = 0; i < c->cfg.ways; i++)
    if (set[i].valid != 0 && set[i].line == line)
      return &set[i];
  return NULL;
}

static uint8_t *copy_of(const wl_cache *c, const way *w, uint64_t addr) {
  return c->data + (size_t)(w - c->ways) * c->cfg.line_bytes +
         addr % c->cfg.line_bytes / c->cfg.sector_bytes * c->cfg.sector_bytes;
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
      (c->data = wl__calloc(c->ctx, c->cfg.size_bytes)) == NULL)
    return NULL;
  if (w->copied == 0)
    c->ncopied++;
  w->copied |= bit;
  p = copy_of(c, w, addr);
  memcpy(p, src, c->cfg.sector_bytes);
  return p;
}

void wl__cache_drop(wl_cache *c, uint64_t slot) {
  way *w = c->ways + slot % ((uint64_t)c->nsets * c->cfg.ways);
  w->valid = 0;
  w->copied = 0;
}

int wl__cache_has_copies(const wl_cache *c) { return c->ncopied != 0; }

void wl__cache_invalidate(wl_cache *c) {
  memset(c->ways, 0,
         (size_t)(c->cfg.size_bytes / c->cfg.line_bytes) * sizeof(way));
  c->ncopied = 0;
}

void wl__cache_stats(const wl_cache *c, wl_cache_stats *out) { *out = c->st; }

void wl__cache_reset_stats(wl_cache *c) { memset(&c->st, 0, sizeof c->st); }

double wl__cache_hit_rate(const wl_cache *c) {
  uint64_t n = c->st.hits + c->st.misses;
  return n == 0 ? 0.0 : (double)c->st.hits / (double)n;
}

const wl_cache_cfg *wl__cache_cfg(const wl_cache *c) { return &c->cfg; }

int wl__cache_clone(wl_ctx *ctx, const wl_cache *src, wl_cache **out) {
  wl_cache *c;
  size_t n = (size_t)(src->cfg.size_bytes / src->cfg.line_bytes);
  int rc;
  if ((rc = wl__cache_new(ctx, &src->cfg, &c)) != 0)
    return rc;
  memcpy(c->ways, src->ways, n * sizeof(way));
  c->clock = src->clock;
  c->st = src->st;
  if (src->data != NULL) {
    if ((c->data = wl__alloc(ctx, src->cfg.size_bytes)) == NULL) {
      wl__cache_free(c);
      return wl__err(ctx, WL_ENOMEM, "out of memory");
    }
    memcpy(c->data, src->data, src->cfg.size_bytes);
  }
  c->ncopied = src->ncopied;
  *out = c;
  return 0;
}

void wl__cache_journal(wl_cache *c) {
  c->journal = 1;
  c->jw.n = 0;
  if (c->jw.isz == 0)
    wl__vec_init(&c->jw, sizeof(jentry));
  c->jclock = c->clock;
  c->jst = c->st;
}

int wl__cache_rollback(wl_cache *c) {
  size_t i;
  if (c->journal < 0)
    return -1;
  for (i = c->jw.n; i-- > 0;) {
    const jentry *e = WL_VEC_PTR(&c->jw, jentry, i);
    c->ways[e->idx] = e->old;
  }
  c->jw.n = 0;
  c->clock = c->jclock;
  c->st = c->jst;
  return 0;
}
