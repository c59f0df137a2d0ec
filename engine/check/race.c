/* race.c -- the kernel checkers: data races by the PTX definition
 * (PTX ISA 6.0, "Memory Consistency Model": two overlapping accesses, at
 * least one a write, that are not morally strong and not ordered by
 * causality order), reads of words never written, and weak loads polled
 * in spin loops.  The representation (epochs, barrier generations, warp
 * clocks, sparse clocks, two-read shadow words) is described in check.h.
 *
 * What orders two accesses here (causality order, ptx-v6.0.cat's
 * cause-base and observation):
 *   - program order (the same thread);
 *   - sync_barrier: __syncthreads() of the block (a generation), and what
 *     each thread had acquired before it reaches every thread after it;
 *   - __syncwarp(mask) among the lanes of mask (bar.warp.sync);
 *   - sync: a release pattern (st.release / atom.release, or fence
 *     followed by a strong write) observed by an acquire pattern
 *     (ld.acquire / atom.acquire, or a strong read followed by a fence),
 *     morally strong, through the release sequence of later RMWs;
 *   - sync_fence: fence.sc operations in the order they execute;
 *   - observation: a strong write read by a morally strong read orders
 *     that write before what follows the read in its thread (it only
 *     matters for the same word, which is where it is kept).
 * Simplifications, each deliberate: a release by fence publishes what
 * the thread knows when it stores, not only what it knew at the fence;
 * the shadow word is 4 bytes with a byte mask and keeps two reads; scopes
 * are cta or not (one device: gpu and sys scopes are the same set).
 * The representation is in shadow.h. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "shadow.h"

/* ---------------------------- memory ------------------------------ */

static void shadow_free(wl_ctx *ctx, shadow *sh) {
  size_t p, i;
  for (p = 0; p < sh->npages; p++) {
    scold *cp = sh->cold[p];
    wl__free(ctx, sh->pages[p], sizeof(sword) * PAGE_WORDS);
    if (cp == NULL)
      continue;
    for (i = 0; i < PAGE_WORDS; i++)
      if (cp[i].rel != NULL) {
        wl__kmap_free(ctx, cp[i].rel);
        wl__free(ctx, cp[i].rel, sizeof *cp[i].rel);
      }
    wl__free(ctx, cp, sizeof *cp * PAGE_WORDS);
  }
  wl__free(ctx, sh->pages, sizeof *sh->pages * sh->npages);
  wl__free(ctx, sh->cold, sizeof *sh->cold * sh->npages);
  sh->pages = NULL;
  sh->cold = NULL;
  sh->npages = 0;
  sh->lastp = 0;
  sh->last = NULL;
}

static sword *word_slow(wl_ctx *ctx, shadow *sh, uint64_t w) {
  uint64_t p = w / PAGE_WORDS;
  if (p >= sh->npages) {
    size_t n = (size_t)p + 1 > sh->npages * 2 ? (size_t)p + 1
                                              : sh->npages * 2;
    sword **np = wl__calloc(ctx, sizeof *np * n);
    scold **nc = wl__calloc(ctx, sizeof *nc * n);
    if (np == NULL || nc == NULL) {
      wl__free(ctx, np, sizeof *np * n);
      wl__free(ctx, nc, sizeof *nc * n);
      return NULL;
    }
    if (sh->npages) {
      memcpy(np, sh->pages, sizeof *np * sh->npages);
      memcpy(nc, sh->cold, sizeof *nc * sh->npages);
    }
    wl__free(ctx, sh->pages, sizeof *sh->pages * sh->npages);
    wl__free(ctx, sh->cold, sizeof *sh->cold * sh->npages);
    sh->pages = np;
    sh->cold = nc;
    sh->npages = n;
  }
  if (sh->pages[p] == NULL &&
      (sh->pages[p] = wl__calloc(ctx, sizeof(sword) * PAGE_WORDS)) == NULL)
    return NULL;
  sh->lastp = p + 1;
  sh->last = sh->pages[p];
  return &sh->pages[p][w % PAGE_WORDS];
}

static inline sword *word(wl_ctx *ctx, shadow *sh, uint64_t w) {
  if (w / PAGE_WORDS + 1 == sh->lastp)
    return &sh->last[w % PAGE_WORDS];
  return word_slow(ctx, sh, w);
}

/* The cold part of word w (its page exists), or NULL: none yet and not
 * made (make 0), or out of memory. */
static scold *cold_of(wl_ctx *ctx, shadow *sh, uint64_t w, int make) {
  uint64_t p = w / PAGE_WORDS;
  if (sh->cold[p] == NULL &&
      (!make ||
       (sh->cold[p] = wl__calloc(ctx, sizeof(scold) * PAGE_WORDS)) == NULL))
    return NULL;
  return &sh->cold[p][w % PAGE_WORDS];
}

static void slot_clear(wl__chk *c, cslot *s) {
  int t, n = c->cfg.nthreads;
  if (s->t != NULL)
    for (t = 0; t < n; t++) {
      wl__kmap_free(c->ctx, &s->t[t].k);
      wl__kmap_free(c->ctx, &s->t[t].pend);
    }
  wl__free(c->ctx, s->wk, sizeof *s->wk * (size_t)n * 32);
  s->wk = NULL;
  wl__kmap_free(c->ctx, &s->bk);
  wl__kmap_free(c->ctx, &s->sc);
  shadow_free(c->ctx, &s->sh);
}

int wl__chk_new(wl_ctx *ctx, const wl__chk_cfg *cfg, wl__chk **out) {
  wl__chk *c;
  int i;
  *out = NULL;
  if ((c = wl__calloc(ctx, sizeof *c)) == NULL)
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  c->ctx = ctx;
  c->cfg = *cfg;
  wl__vec_init(&c->glob, sizeof(shadow));
  wl__vec_init(&c->finds, sizeof(wl_finding));
  c->slots = wl__calloc(ctx, sizeof *c->slots * (size_t)cfg->nslots);
  c->warned = wl__calloc(ctx, sizeof *c->warned * 512);
  if (c->slots == NULL || c->warned == NULL) {
    wl__chk_free(c);
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  }
  for (i = 0; i < cfg->nslots; i++)
    c->slots[i].block = -1;
  *out = c;
  return 0;
}

void wl__chk_free(wl__chk *c) {
  size_t i;
  if (c == NULL)
    return;
  if (c->slots != NULL) {
    int k;
    for (k = 0; k < c->cfg.nslots; k++) {
      slot_clear(c, &c->slots[k]);
      wl__free(c->ctx, c->slots[k].t,
               sizeof(tstate) * (size_t)c->cfg.nthreads);
    }
  }
  for (i = 0; i < c->glob.n; i++)
    shadow_free(c->ctx, WL_VEC_PTR(&c->glob, shadow, i));
  wl__vec_free(c->ctx, &c->glob);
  wl__vec_free(c->ctx, &c->finds);
  wl__kmap_free(c->ctx, &c->sc);
  wl__free(c->ctx, c->slots, sizeof *c->slots * (size_t)c->cfg.nslots);
  wl__free(c->ctx, c->warned, sizeof *c->warned * 512);
  wl__free(c->ctx, c, sizeof *c);
}

int wl__chk_block_start(wl__chk *c, int slot, int block) {
  cslot *s = &c->slots[slot];
  int t;
  slot_clear(c, s);
  if (s->t == NULL &&
      (s->t = wl__calloc(c->ctx, sizeof(tstate) *
                                     (size_t)c->cfg.nthreads)) == NULL)
    return wl__err(c->ctx, WL_ENOMEM, "out of memory");
  memset(s->t, 0, sizeof(tstate) * (size_t)c->cfg.nthreads);
  for (t = 0; t < c->cfg.nthreads; t++)
    s->t[t].clk = 1;
  s->block = block;
  s->gen = 0;
  return 0;
}

/* ----------------------------- order ------------------------------ */

/* The checker's scopes on one device: cta or not (gpu and sys are the
 * same set of threads; a strong access given no scope through
 * wl_kernel_access counts as the device's). */
static int chk_scope(int scope) {
  return scope == WL_SCOPE_CTA ? WL_SCOPE_CTA : WL_SCOPE_GPU;
}

/* An operation of block blk (block + 1, or the releasing blocks' relsrc),
 * as morally strong sees it: placed by block on the one GPU. */
static wl__msop ms_side(int strong_op, int scope, int32_t blk) {
  wl__msop o;
  o.strong = strong_op;
  o.scope = chk_scope(scope);
  o.cta = blk;
  o.gpu = 0;
  return o;
}

/* Morally strong (strength.h), for accesses of a word: both strong, the
 * same bytes of the word, each one's scope including the other's thread
 * (cta: the same block).  The overlap is judged per 4-byte word: a
 * wider access whose bytes in this word are the other's counts as
 * overlapping completely here, where the spec would ask for the same
 * bytes over the whole access (a deliberate simplification: mixed-size
 * strong accesses to one word are rare in kernels).  po is 0: pairs of
 * one thread are ordered by program order (ordered()), and the
 * observation below keeps the one reader of another thread. */
static int morally_strong(const ep *x, const ep *y) {
  return wl__morally_strong(0, EP_MASK(x) == EP_MASK(y),
                            ms_side(strong(x), EP_SCOPE(x), x->blk),
                            ms_side(strong(y), EP_SCOPE(y), y->blk));
}

/* ordered() past its common cases (below). */
static int ordered_slow(const cslot *s, int t, const ep *e) {
  const tstate *ts;
  uint64_t key;
  int b = e->blk - 1;
  if (b == s->block) {
    if (s->wk != NULL && e->thread / 32 == t / 32 &&
        s->wk[(size_t)t * 32 + e->thread % 32] >= e->clock)
      return 1;
  }
  ts = &s->t[t];
  if (ts->k.n == 0 && s->bk.n == 0)
    return 0;
  key = wl__kmap_thread(b, e->thread);
  if (wl__kmap_get(&ts->k, key) >= e->clock ||
      wl__kmap_get(&s->bk, key) >= e->clock)
    return 1;
  key = wl__kmap_block(b);
  return wl__kmap_get(&ts->k, key) > e->gen ||
         wl__kmap_get(&s->bk, key) > e->gen;
}

/* Is access e ordered before what thread t of slot s does now?  The
 * host's writes (before the launch), the thread's own accesses and its
 * block's before the last barrier are, without a look at the clocks. */
static inline int ordered(const cslot *s, int t, const ep *e) {
  if (e->blk == 0)
    return 1;
  if (e->blk - 1 == s->block && (e->thread == t || e->gen < s->gen))
    return 1;
  return ordered_slow(s, t, e);
}

/* Joins into dst what thread t knows, its own accesses up to clock own
 * (a release). */
static int publish(wl__chk *c, cslot *s, int t, uint32_t own,
                   wl__kmap *dst) {
  int rc = 0, u, w = t / 32;
  rc |= wl__kmap_join(c->ctx, dst, &s->t[t].k);
  rc |= wl__kmap_join(c->ctx, dst, &s->bk);
  rc |= wl__kmap_max(c->ctx, dst, wl__kmap_thread(s->block, t), own);
  rc |= wl__kmap_max(c->ctx, dst, wl__kmap_block(s->block), s->gen);
  if (s->wk != NULL)
    for (u = 0; u < 32 && w * 32 + u < c->cfg.nthreads; u++)
      if (w * 32 + u != t)
        rc |= wl__kmap_max(c->ctx, dst, wl__kmap_thread(s->block, w * 32 + u),
                           s->wk[(size_t)t * 32 + u]);
  return rc ? wl__err(c->ctx, WL_ENOMEM, "out of memory") : 0;
}

/* ---------------------------- accesses ---------------------------- */

/* May thread t of slot s, at scope, acquire what x's releases hold?
 * sync asks the release and the acquire to be morally strong: x's
 * releases, of the blocks relsrc (-1: several) at cta scope when relcta,
 * and this strong access of block + 1 at scope. */
static int may_acquire(const scold *x, const cslot *s, int scope) {
  return wl__morally_strong(
      0, 1, ms_side(1, x->relcta ? WL_SCOPE_CTA : WL_SCOPE_GPU, x->relsrc),
      ms_side(1, scope, s->block + 1));
}

static int rel_add(wl__chk *c, cslot *s, int t, scold *x, uint32_t own,
                   int scope) {
  if (x->rel == NULL &&
      (x->rel = wl__calloc(c->ctx, sizeof *x->rel)) == NULL)
    return wl__err(c->ctx, WL_ENOMEM, "out of memory");
  if (x->rel->n == 0)
    x->relsrc = s->block + 1;
  else if (x->relsrc != s->block + 1)
    x->relsrc = -1;
  x->relcta |= scope == WL_SCOPE_CTA;
  return publish(c, s, t, own, x->rel);
}

static void rel_clear(scold *x) {
  if (x->rel != NULL)
    wl__kmap_clear(x->rel);
  x->relcta = 0;
  x->relsrc = 0;
}

/* Release and acquire through the first word of the access (x: its cold
 * part, NULL when it has none); rf: the access read the bytes the
 * word's last write wrote. */
static int sync_word(wl__chk *c, cslot *s, int t, const wl_access *a,
                     scold *x, int rf) {
  tstate *ts = &s->t[t];
  int strong_op = strong_access(a->kind, a->sem), rc = 0;
  if (x == NULL)
    return 0;
  if (a->kind != WL_ACC_STORE && strong_op && rf && x->rel != NULL &&
      x->rel->n != 0 && may_acquire(x, s, a->scope))
    rc = wl__kmap_join(c->ctx, wl__sem_acquires(a->sem) ? &ts->k : &ts->pend,
                       x->rel);
  if (rc != 0)
    return wl__err(c->ctx, WL_ENOMEM, "out of memory");
  if (a->kind == WL_ACC_LOAD)
    return 0;
  if (a->kind == WL_ACC_STORE)
    rel_clear(x); /* a store starts a new release sequence (or none) */
  if (strong_op && wl__sem_releases(a->sem)) {
    if ((rc = rel_add(c, s, t, x, ts->clk, a->scope)) != 0)
      return rc;
    ts->clk++;
  } else if (strong_op && ts->fmark != 0) {
    rc = rel_add(c, s, t, x, ts->fmark, a->scope);
  }
  return rc;
}

/* The bytes of word w (of mask) in the access's bytes p, which start at
 * byte offset off, as the word's little-endian value. */
static uint32_t word_bytes(const uint8_t *p, uint64_t off, uint64_t w,
                           uint8_t mask) {
  uint32_t v = 0;
  int i;
  if (mask == 0xf) {
    memcpy(&v, p + (w * 4 - off), 4); /* little-endian hosts */
    return v;
  }
  for (i = 0; i < 4; i++)
    if (mask >> i & 1)
      v |= (uint32_t)p[w * 4 + (uint64_t)i - off] << (8 * i);
  return v;
}

static uint32_t bits_of(uint8_t mask) {
  return (mask & 1 ? 0xffu : 0) | (mask & 2 ? 0xff00u : 0) |
         (mask & 4 ? 0xff0000u : 0) | (mask & 8 ? 0xff000000u : 0);
}

/* The race check of one word (y: its cold part, NULL when it has none;
 * a strong write makes it).  rd: the bytes read (strong loads and
 * atomics), wr: those written (strong stores and atomics).  Returns 1
 * when the access read from the word's last write, -1 when out of
 * memory. */
static int check_word(wl__chk *c, cslot *s, int t, const wl_access *a,
                      sword *x, scold *y, uint8_t mask, const wl__chk_mem *m,
                      uint32_t rd, uint32_t wr, int rmw) {
  int write = a->kind != WL_ACC_LOAD, strong_op, i, rf;
  /* the fields of this access's epoch as locals: building it on the
   * stack and copying it (or comparing a slot with it) stalled on
   * store forwarding, a fifth of the checker's time */
  int32_t blk = s->block + 1;
  uint8_t bits = (uint8_t)(a->kind | (a->scope & 3) << 2 | mask << 4);
  uint8_t sem = (uint8_t)a->sem;
  uint32_t gen = s->gen;
  ep cur, *dst;
  strong_op = strong_access(a->kind, a->sem);
  if (!write && x->r[0].blk == blk && x->r[1].blk == blk &&
      x->r[0].gen == gen && x->r[1].gen == gen &&
      x->r[0].line == a->line && x->r[0].bits == bits &&
      x->r[0].sem == sem && x->r[0].thread != t && x->r[1].thread != t &&
      !strong_op && (x->w.blk == 0 || ordered(s, t, &x->w)))
    return 0; /* two other threads of the block read it at this line
               * since the last barrier (and the last write is ordered
               * before this read): a write this read would race with
               * races with them too (the tile loads of a matmul: a third
               * of the checker's time was spent rewriting these) */
  cur.blk = blk;
  cur.thread = (uint16_t)t;
  cur.bits = bits;
  cur.sem = sem;
  cur.clock = s->t[t].clk;
  cur.gen = gen;
  cur.line = a->line;
  if (rmw)
    cur.sem = sem = (uint8_t)(sem | EP_RMW);
  rf = y != NULL && x->w.blk != 0 && strong(&x->w) &&
       ((rd ^ y->wval) & bits_of(mask)) == 0;
  /* ordered() first: both tests are pure, and its common cases are
   * inline (a tile's writes and reads of the last barrier interval) */
  if (x->w.blk != 0 && (EP_MASK(&x->w) & mask) &&
      !ordered(s, t, &x->w) && !morally_strong(&x->w, &cur) &&
      !(y != NULL && y->obs_blk == cur.blk && y->obs_thread == t))
    wl__chk_race(c, s, &x->w, &cur, a->space, m);
  if (write) {
    for (i = 0; i < 2; i++) {
      ep *r = &x->r[i];
      if (r->blk != 0 && (EP_MASK(r) & mask) && !ordered(s, t, r) &&
          !morally_strong(r, &cur))
        wl__chk_race(c, s, r, &cur, a->space, m);
    }
    dst = &x->w;
    x->r[0].blk = x->r[1].blk = 0;
    if (y != NULL) {
      y->obs_blk = 0;
      if (strong_op)
        y->wval = (y->wval & ~bits_of(mask)) | (wr & bits_of(mask));
    }
  } else {
    if (rf && morally_strong(&x->w, &cur)) {
      y->obs_blk = cur.blk; /* observation: w is ordered before t's next */
      y->obs_thread = (uint16_t)t;
    }
    if (x->r[0].blk == blk && x->r[0].thread == t) {
      dst = &x->r[0];
    } else if (x->r[1].blk == blk && x->r[1].thread == t) {
      x->r[1] = x->r[0];
      dst = &x->r[0];
    } else {
      if (x->r[0].blk != 0 && !ordered(s, t, &x->r[0]))
        x->r[1] = x->r[0];
      else if (x->r[1].blk != 0 && ordered(s, t, &x->r[1]))
        x->r[1].blk = 0;
      dst = &x->r[0];
    }
  }
  /* field by field, from the locals (see above) */
  dst->blk = blk;
  dst->thread = (uint16_t)t;
  dst->bits = bits;
  dst->sem = sem;
  dst->clock = s->t[t].clk;
  dst->gen = gen;
  dst->line = a->line;
  return rf;
}

static void spin(wl__chk *c, cslot *s, int t, const wl_access *a,
                 const wl__chk_mem *m, const void *data) {
  tstate *ts = &s->t[t];
  uint64_t v = 0;
  if (a->kind != WL_ACC_LOAD || a->sem != WL_SEM_WEAK) {
    ts->sline = 0;
    return;
  }
  memcpy(&v, data, (size_t)(a->width < 8 ? a->width : 8));
  if (ts->sline == a->line && ts->sobj == m->obj && ts->soff == m->off &&
      ts->sval == v) {
    if (++ts->scount == SPIN_REPEATS)
      wl__chk_warn(c, s, t, WL_FIND_SPIN, a, m);
    return;
  }
  ts->sline = a->line;
  ts->sobj = m->obj;
  ts->soff = m->off;
  ts->sval = v;
  ts->scount = 1;
}

/* The shadow of the access's memory (NULL: out of memory). */
static shadow *shadow_of(wl__chk *c, cslot *s, const wl__chk_mem *m) {
  if (m->obj < 0)
    return &s->sh;
  while (c->glob.n <= (size_t)m->obj)
    if (wl__vec_push(c->ctx, &c->glob) == NULL)
      return NULL;
  return WL_VEC_PTR(&c->glob, shadow, (size_t)m->obj);
}

/* One lane's access to the shadow sh (global, managed or shared). */
static int access_one(wl__chk *c, cslot *s, shadow *sh, int thread,
                      const wl_access *a, const wl__chk_mem *m,
                      const void *data) {
  uint64_t w, w0, w1, end;
  int flags = c->cfg.flags, rf = 0;
  /* values matter for strong accesses only: a weak read observes and
   * acquires nothing, and what a weak write wrote is never compared */
  int strong_op = strong_access(a->kind, a->sem);
  const uint8_t *rdp = strong_op && a->kind != WL_ACC_STORE ? data : NULL;
  const uint8_t *wrp = !strong_op                  ? NULL
                       : a->kind == WL_ACC_STORE   ? data
                       : a->kind == WL_ACC_ATOMIC  ? m->mem
                                                   : NULL;
  scold *first = NULL;
  tstate *ts = &s->t[thread];
  int rmw;
  end = m->off + (uint64_t)a->width;
  w0 = m->off / 4;
  w1 = (end - 1) / 4;
  /* a weak store to the word the thread loaded last: the store of a
   * non-atomic read-modify-write (hist[b] += 1, or v = h[b]; h[b] = v +
   * 1), whose races want an atomic rather than a barrier */
  rmw = a->kind == WL_ACC_STORE && !strong_op && ts->lword == w0 + 1 &&
        ts->lobj == m->obj;
  if (a->kind == WL_ACC_LOAD) {
    ts->lobj = m->obj;
    ts->lword = w0 + 1;
  } else {
    ts->lword = 0;
  }
  for (w = w0; w <= w1; w++) {
    uint64_t lo = w * 4 > m->off ? w * 4 : m->off;
    uint64_t hi = w * 4 + 4 < end ? w * 4 + 4 : end;
    uint8_t mask = (uint8_t)(((1u << (hi - lo)) - 1) << (lo - w * 4));
    sword *x = word(c->ctx, sh, w);
    if (x == NULL)
      return wl__err(c->ctx, WL_ENOMEM, "out of memory");
    if ((flags & WL_CHECK_UNINIT) && a->kind != WL_ACC_STORE) {
      int unset = m->obj >= 0 ? m->written != NULL &&
                                    !(m->written[w / 8] >> (w % 8) & 1)
                              : (x->written & mask) != mask;
      if (unset)
        wl__chk_warn(c, s, thread, WL_FIND_UNINIT, a, m);
    }
    if (a->kind != WL_ACC_LOAD) {
      if (m->obj >= 0 && m->written != NULL)
        m->written[w / 8] |= (uint8_t)(1u << (w % 8));
      x->written |= mask;
    }
    if (flags & WL_CHECK_RACES) {
      /* the cold part: made by strong writes, looked at by strong reads
       * and by stores (which end a word's release sequence) */
      int make = strong_op && a->kind != WL_ACC_LOAD;
      scold *y = strong_op || a->kind == WL_ACC_STORE
                     ? cold_of(c->ctx, sh, w, make)
                     : NULL;
      uint32_t rd = rdp ? word_bytes(rdp, m->off, w, mask) : 0;
      uint32_t wr = wrp ? word_bytes(wrp, m->off, w, mask) : 0;
      int r1;
      if (y == NULL && make)
        return wl__err(c->ctx, WL_ENOMEM, "out of memory");
      r1 = check_word(c, s, thread, a, x, y, mask, m, rd, wr,
                      rmw && w == w0);
      if (w == w0) {
        rf = r1;
        first = y;
      }
    }
  }
  if (flags & WL_CHECK_RACES) {
    int rc = sync_word(c, s, thread, a, first, rf);
    if (rc != 0)
      return rc;
  }
  /* spins: on global memory only, where flags between blocks live (the
   * tracking costs a store per load, and most loads of a tiled kernel
   * are shared) */
  if ((flags & WL_CHECK_SPIN) && m->obj >= 0 &&
      (a->kind == WL_ACC_LOAD || s->t[thread].sline != 0))
    spin(c, s, thread, a, m, data);
  return 0;
}

static int checked_space(int space) {
  return space == WL_SPACE_GLOBAL || space == WL_SPACE_MANAGED ||
         space == WL_SPACE_SHARED; /* not read-only or private memory */
}


/* The lanes' weak loads of at most 4 bytes (a warp's tile reads): what
 * access_one does for each (its thread's last load, the uninitialised
 * bytes, the race check of the one word it reads, the spin detector),
 * with what depends on the access alone looked at once.  A weak load
 * has no cold part and no release or acquire (sync_word does nothing);
 * a lane whose bytes straddle two words goes through access_one. */
/* check_word for a weak load of bytes mask (bits: its epoch's kind,
 * scope and mask) past the first test, which it failed: a weak read has
 * no cold part, so it neither observes nor acquires, and a write races
 * with it unless ordered before it. */
static WL_HOT void weak_read(wl__chk *c, cslot *s, int t,
                             const wl_access *a, sword *x, uint8_t bits,
                             const wl__chk_mem *m) {
  int32_t blk = s->block + 1;
  ep *dst;
  if (x->w.blk != 0 && (EP_MASK(&x->w) & (bits >> 4)) &&
      !ordered(s, t, &x->w)) {
    ep cur;
    cur.blk = blk;
    cur.thread = (uint16_t)t;
    cur.bits = bits;
    cur.sem = (uint8_t)a->sem;
    cur.clock = s->t[t].clk;
    cur.gen = s->gen;
    cur.line = a->line;
    wl__chk_race(c, s, &x->w, &cur, a->space, m);
  }
  if (x->r[0].blk == blk && x->r[0].thread == t) {
    dst = &x->r[0];
  } else if (x->r[1].blk == blk && x->r[1].thread == t) {
    x->r[1] = x->r[0];
    dst = &x->r[0];
  } else {
    if (x->r[0].blk != 0 && !ordered(s, t, &x->r[0]))
      x->r[1] = x->r[0];
    else if (x->r[1].blk != 0 && ordered(s, t, &x->r[1]))
      x->r[1].blk = 0;
    dst = &x->r[0];
  }
  dst->blk = blk;
  dst->thread = (uint16_t)t;
  dst->bits = bits;
  dst->sem = (uint8_t)a->sem;
  dst->clock = s->t[t].clk;
  dst->gen = s->gen;
  dst->line = a->line;
}

/* weak_loads' loop for shared memory (global 0: the shadow word's bytes
 * say what was written; no spin detector) or global memory (global 1:
 * the allocation's bitmap; spins), and for lanes each reading one whole
 * aligned word (word4 1, m->words: no lane straddles two words, every
 * mask is 0xf) or any loads of at most 4 bytes (word4 0): one loop
 * each, so that each keeps fewer values at hand and tests less. */
static WL_HOT int weak_loads_in(wl__chk *c, cslot *s, shadow *sh, int lo,
                                uint32_t lanes, const wl_access *a,
                                wl__chk_mem *m, const uint64_t *off,
                                const uint64_t *addr, const void *data,
                                const int global, const int word4) {
  int flags = c->cfg.flags, width = a->width, rc;
  int uninit = flags & WL_CHECK_UNINIT, races = flags & WL_CHECK_RACES;
  int spins = global && (flags & WL_CHECK_SPIN);
  /* what the loop reads, in locals: its stores (the shadow, the
   * threads' states) could alias them for the compiler */
  int obj = m->obj, line = a->line;
  const uint8_t *written = m->written;
  const uint64_t *o_of = global ? off : addr;
  /* check_word's epoch of these reads, but for the bytes (mask) */
  int32_t blk = s->block + 1;
  uint32_t gen = s->gen;
  uint8_t kbits = (uint8_t)(a->kind | (a->scope & 3) << 2);
  uint8_t sem = (uint8_t)a->sem, wmask = (uint8_t)((1u << width) - 1);
  /* the previous lane's word and bytes, and what it found: lanes of a
   * warp often read one word (a broadcast); the word's shadow is the
   * same for the next lane when the previous one changed nothing */
  uint64_t pw = UINT64_MAX;
  uint8_t pmask = 0;
  int pun = 0, ppass = 0, repeat;
  sword *x = NULL;
  tstate *tw = s->t + lo; /* the warp's threads */
  if (global && written == NULL)
    uninit = 0; /* everything counts as written */
  if (word4)
    width = 4;
  for (; lanes != 0; lanes &= lanes - 1) {
    int lane = __builtin_ctz(lanes), t = lo + lane, un;
    uint64_t o = o_of[lane], w = o / 4;
    uint8_t mask;
    tstate *ts;
    if (!word4 && (o + (uint64_t)width - 1) / 4 != w) {
      m->off = o; /* the lane's place, for access_one and its findings */
      m->addr = addr[lane];
      m->aoff = off[lane];
      if ((rc = access_one(c, s, sh, t, a, m,
                           (const uint8_t *)data +
                               (size_t)lane * (size_t)width)) != 0)
        return rc;
      pw = UINT64_MAX;
      continue;
    }
    mask = word4 ? 0xf : (uint8_t)(wmask << (o % 4));
    ts = tw + lane;
    ts->lobj = obj;
    ts->lword = w + 1;
    repeat = w == pw && mask == pmask && !c->cfg.plain;
    if (!repeat && (x = word(c->ctx, sh, w)) == NULL)
      return wl__err(c->ctx, WL_ENOMEM, "out of memory");
    /* what was written does not change with a load */
    un = repeat ? pun
                : uninit && (global ? !(written[w / 8] >> (w % 8) & 1)
                                    : (x->written & mask) != mask);
    if (un) {
      m->off = o;
      m->addr = addr[lane];
      m->aoff = off[lane];
      wl__chk_warn(c, s, t, WL_FIND_UNINIT, a, m);
    }
    /* check_word's first test, inline: two other threads of the block
     * read the word at this line since the last barrier, after a write
     * ordered before this read: it changes nothing.  After a lane of
     * this access that passed it without the thread's part of the write
     * test (no write, or one of an earlier barrier interval of the
     * block), only the thread's parts are left to test */
    if (races && repeat && ppass && x->r[0].thread != t &&
        x->r[1].thread != t) {
      /* it changes nothing either */
    } else if (races &&
               !(x->r[0].blk == blk && x->r[1].blk == blk &&
                 x->r[0].gen == gen && x->r[1].gen == gen &&
                 x->r[0].line == line &&
                 x->r[0].bits == (uint8_t)(kbits | mask << 4) &&
                 x->r[0].sem == sem && x->r[0].thread != t &&
                 x->r[1].thread != t &&
                 (x->w.blk == 0 ||
                  (x->w.blk == blk && (x->w.thread == t || x->w.gen < gen)) ||
                  ordered_slow(s, t, &x->w)))) {
      m->off = o;
      m->addr = addr[lane];
      m->aoff = off[lane];
      weak_read(c, s, t, a, x, (uint8_t)(kbits | mask << 4), m);
      ppass = 0; /* the word's reads changed */
    } else if (races) {
      ppass = x->w.blk == 0 || (x->w.blk == blk && x->w.gen < gen);
    }
    pw = w;
    pmask = mask;
    pun = un;
    if (spins) { /* spin's case of a new value or place, inline */
      const uint8_t *d = (const uint8_t *)data + (size_t)lane * (size_t)width;
      uint64_t v = 0;
      memcpy(&v, d, (size_t)width);
      if (ts->sline == line && ts->sobj == obj && ts->soff == o &&
          ts->sval == v) {
        m->off = o;
        m->addr = addr[lane];
        m->aoff = off[lane];
        spin(c, s, t, a, m, d);
      } else {
        ts->sline = line;
        ts->sobj = obj;
        ts->soff = o;
        ts->sval = v;
        ts->scount = 1;
      }
    }
  }
  return 0;
}

static int weak_loads(wl__chk *c, cslot *s, shadow *sh, int lo,
                      uint32_t lanes, const wl_access *a, wl__chk_mem *m,
                      const uint64_t *off, const uint64_t *addr,
                      const void *data) {
  if (m->obj < 0 && m->words) /* a warp's tile reads */
    return weak_loads_in(c, s, sh, lo, lanes, a, m, off, addr, data, 0, 1);
  return m->obj >= 0
             ? weak_loads_in(c, s, sh, lo, lanes, a, m, off, addr, data, 1, 0)
             : weak_loads_in(c, s, sh, lo, lanes, a, m, off, addr, data, 0, 0);
}

/* The lanes' weak stores of at most 4 bytes (a warp's tile writes): what
 * access_one does for each (the read-modify-write mark, the bytes
 * written, the race check of its word, the end of the word's release
 * sequence, the spin detector's reset), what depends on the access alone
 * looked at once.  A lane whose bytes straddle two words goes through
 * access_one. */
static int weak_stores(wl__chk *c, cslot *s, shadow *sh, int lo,
                       uint32_t lanes, const wl_access *a, wl__chk_mem *m,
                       const uint64_t *off, const uint64_t *addr,
                       const void *data) {
  int flags = c->cfg.flags, width = a->width, rc;
  int races = flags & WL_CHECK_RACES;
  int spins = (flags & WL_CHECK_SPIN) && m->obj >= 0;
  int obj = m->obj;
  uint8_t *written = m->written, wmask = (uint8_t)((1u << width) - 1);
  const uint64_t *o_of = obj < 0 ? addr : off;
  for (; lanes != 0; lanes &= lanes - 1) {
    int lane = __builtin_ctz(lanes), t = lo + lane, rmw;
    uint64_t o = o_of[lane], w = o / 4;
    uint8_t mask;
    tstate *ts;
    sword *x;
    m->off = o;
    m->addr = addr[lane];
    m->aoff = off[lane];
    if ((o + (uint64_t)width - 1) / 4 != w) {
      if ((rc = access_one(c, s, sh, t, a, m,
                           (const uint8_t *)data +
                               (size_t)lane * (size_t)width)) != 0)
        return rc;
      continue;
    }
    mask = (uint8_t)(wmask << (o % 4));
    ts = &s->t[t];
    rmw = ts->lword == w + 1 && ts->lobj == obj;
    ts->lword = 0;
    if ((x = word(c->ctx, sh, w)) == NULL)
      return wl__err(c->ctx, WL_ENOMEM, "out of memory");
    if (obj >= 0 && written != NULL)
      written[w / 8] |= (uint8_t)(1u << (w % 8));
    x->written |= mask;
    if (races) {
      scold *y = cold_of(c->ctx, sh, w, 0);
      check_word(c, s, t, a, x, y, mask, m, 0, 0, rmw);
      if (y != NULL)
        rel_clear(y); /* sync_word: a store ends its release sequence */
    }
    if (spins)
      ts->sline = 0; /* spin: no weak load */
  }
  return 0;
}

int wl__chk_access(wl__chk *c, int slot, int thread, const wl_access *a,
                   const wl__chk_mem *m, const void *data) {
  cslot *s = &c->slots[slot];
  shadow *sh;
  if (!checked_space(a->space))
    return 0;
  if ((sh = shadow_of(c, s, m)) == NULL)
    return wl__err(c->ctx, WL_ENOMEM, "out of memory");
  if (a->kind != WL_ACC_ATOMIC && a->sem == WL_SEM_WEAK && a->width <= 4) {
    /* one lane through the warps' loops above (m->off is the address in
     * shared memory, the offset in global memory: as they take it) */
    wl__chk_mem one = *m;
    uint64_t aoff = m->aoff, addr = m->addr;
    one.words = 0; /* not the warps' whole-word loop */
    return a->kind == WL_ACC_LOAD
               ? weak_loads(c, s, sh, thread, 1u, a, &one, &aoff, &addr, data)
               : weak_stores(c, s, sh, thread, 1u, a, &one, &aoff, &addr,
                             data);
  }
  return access_one(c, s, sh, thread, a, m, data);
}

int wl__chk_access_lanes(wl__chk *c, int slot, int lo, uint32_t lanes,
                         const wl_access *a, wl__chk_mem *m,
                         const uint64_t off[32], const uint64_t addr[32],
                         const void *data) {
  cslot *s = &c->slots[slot];
  shadow *sh;
  int rc;
  if (!checked_space(a->space) || lanes == 0)
    return 0;
  if ((sh = shadow_of(c, s, m)) == NULL)
    return wl__err(c->ctx, WL_ENOMEM, "out of memory");
  if (a->kind == WL_ACC_LOAD && a->sem == WL_SEM_WEAK && a->width <= 4)
    return weak_loads(c, s, sh, lo, lanes, a, m, off, addr, data);
  if (a->kind == WL_ACC_STORE && a->sem == WL_SEM_WEAK && a->width <= 4)
    return weak_stores(c, s, sh, lo, lanes, a, m, off, addr, data);
  for (; lanes != 0; lanes &= lanes - 1) {
    int lane = __builtin_ctz(lanes);
    m->off = m->obj < 0 ? addr[lane] : off[lane];
    m->addr = addr[lane];
    m->aoff = off[lane];
    if ((rc = access_one(c, s, sh, lo + lane, a, m,
                         (const uint8_t *)data +
                             (size_t)lane * (size_t)a->width)) != 0)
      return rc;
  }
  return 0;
}

/* ------------------------ synchronization ------------------------- */

int wl__chk_fence(wl__chk *c, int slot, int thread, int sem, int scope) {
  cslot *s = &c->slots[slot];
  tstate *ts = &s->t[thread];
  int rc = 0;
  (void)sem; /* fence.sc and fence.acq_rel both release and acquire */
  rc |= wl__kmap_join(c->ctx, &ts->k, &ts->pend);
  wl__kmap_clear(&ts->pend);
  ts->fmark = ts->clk++;
  ts->sline = 0;
  if (sem == WL_SEM_SC) { /* sync_fence: fence.sc in execution order */
    wl__kmap *sc = scope == WL_SCOPE_CTA ? &s->sc : &c->sc;
    rc |= wl__kmap_join(c->ctx, &ts->k, sc);
    rc |= publish(c, s, thread, ts->fmark, sc);
  }
  return rc ? wl__err(c->ctx, WL_ENOMEM, "out of memory") : 0;
}

int wl__chk_barrier(wl__chk *c, int slot) {
  cslot *s = &c->slots[slot];
  int t;
  for (t = 0; t < c->cfg.nthreads; t++) {
    tstate *ts = &s->t[t];
    ts->sline = 0;
    if (ts->k.n == 0)
      continue;
    if (wl__kmap_join(c->ctx, &s->bk, &ts->k) != 0)
      return wl__err(c->ctx, WL_ENOMEM, "out of memory");
    wl__kmap_clear(&ts->k);
  }
  s->gen++;
  return 0;
}

int wl__chk_syncwarp(wl__chk *c, int slot, int warp, uint32_t mask) {
  cslot *s = &c->slots[slot];
  uint32_t j[32] = {0}, b;
  wl__kmap all;
  int lo = warp * 32, v, any = 0, rc = 0;
  if (s->wk == NULL &&
      (s->wk = wl__calloc(c->ctx, sizeof *s->wk * (size_t)c->cfg.nthreads *
                                      32)) == NULL)
    return wl__err(c->ctx, WL_ENOMEM, "out of memory");
  for (b = mask; b != 0; b &= b - 1) {
    int u = __builtin_ctz(b), t = lo + u;
    for (v = 0; v < 32; v++)
      if (s->wk[(size_t)t * 32 + v] > j[v])
        j[v] = s->wk[(size_t)t * 32 + v];
    if (s->t[t].clk > j[u])
      j[u] = s->t[t].clk;
    any |= s->t[t].k.n != 0;
  }
  memset(&all, 0, sizeof all);
  for (b = any ? mask : 0; b != 0; b &= b - 1)
    rc |= wl__kmap_join(c->ctx, &all, &s->t[lo + __builtin_ctz(b)].k);
  for (b = mask; b != 0; b &= b - 1) {
    int t = lo + __builtin_ctz(b);
    memcpy(&s->wk[(size_t)t * 32], j, sizeof j);
    s->t[t].clk++;
    s->t[t].sline = 0;
    if (any)
      rc |= wl__kmap_join(c->ctx, &s->t[t].k, &all);
  }
  wl__kmap_free(c->ctx, &all);
  return rc ? wl__err(c->ctx, WL_ENOMEM, "out of memory") : 0;
}
