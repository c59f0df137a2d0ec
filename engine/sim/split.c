/* split.c -- a launch split into parts that run apart (issue 24: the
 * blocks of a launch across cores), and what joins them again.
 *
 * A part (wl_launch_cfg.part_n, part_k) runs the blocks b with b %
 * part_n == part_k, from its own seed, on a copy of the device
 * (wl_device_clone) as the device was when the launch began: its
 * memory, the bits of what was written, and its L2 (an overlay of the
 * device's, engine/mem/cache.h).  With cfg.track the part records every
 * byte of global and managed memory it reads and writes, the values it
 * wrote, and the L2 sectors it looked up.  The copy goes back to the
 * device's state after each part (wl_device_restore: the written bytes
 * from the device, the L2 overlay emptied), so that one copy serves many
 * parts, and each part is a
 * function of the device, the launch and its index alone, whatever
 * else ran on that copy before.
 *
 * The parts join in part order.  Where no part reads or writes a byte
 * that another part writes (wl_launch_conflicts), the blocks of
 * different parts did not communicate, and running them one part after
 * the other -- which is what joining means -- is one execution the
 * hardware allows (blocks run in any order; nothing one block did could
 * have been seen by another).  Then the device takes each part's
 * written bytes (wl_device_apply; no two parts wrote the same byte),
 * its L2 takes each part's lookups in part order, and the launch's
 * counters, steps and findings are the sums (wl_launch_merge).  Where
 * parts did touch what another wrote, they communicated (a counter
 * that every block increments, a flag one block sets and another
 * polls), and their separate runs mean nothing: the caller runs the
 * launch whole instead, as one.
 *
 * Kept apart from launch.c on purpose: nothing here changes how a
 * launch runs, only what a part records and how parts join. */
#include <stdio.h>
#include <string.h>

#include "../common/internal.h"
#include "sim.h"
#include "touchbits.h"

/* ------------------------- what a part touches ---------------------- */

/* A part's bits (one per byte of an allocation): touchbits.h. */

static int touch_grow(wl_launch *l) {
  int n = (int)l->dev->allocs.n, i;
  uint8_t ***v[2] = {&l->tval, &l->twb};
  uint8_t ****t[2] = {&l->trd, &l->twr};
  uint64_t **r[2] = {&l->tlo, &l->thi};
  if (l->ntrack >= n)
    return 0;
  for (i = 0; i < 2; i++) {
    uint64_t *p = wl__calloc(l->ctx, sizeof(uint64_t) * (size_t)n);
    if (p == NULL)
      return wl__err(l->ctx, WL_ENOMEM, "out of memory");
    if (*r[i] != NULL) {
      memcpy(p, *r[i], sizeof(uint64_t) * (size_t)l->ntrack);
      wl__free(l->ctx, *r[i], sizeof(uint64_t) * (size_t)l->ntrack);
    }
    *r[i] = p;
  }
  for (i = 0; i < 2; i++) {
    uint8_t **p = wl__calloc(l->ctx, sizeof(uint8_t *) * (size_t)n);
    uint8_t ***q = wl__calloc(l->ctx, sizeof(uint8_t **) * (size_t)n);
    if (p == NULL || q == NULL) {
      wl__free(l->ctx, p, sizeof(uint8_t *) * (size_t)n);
      return wl__err(l->ctx, WL_ENOMEM, "out of memory");
    }
    if (*v[i] != NULL) {
      memcpy(p, *v[i], sizeof(uint8_t *) * (size_t)l->ntrack);
      wl__free(l->ctx, *v[i], sizeof(uint8_t *) * (size_t)l->ntrack);
    }
    *v[i] = p;
    if (*t[i] != NULL) {
      memcpy(q, *t[i], sizeof(uint8_t **) * (size_t)l->ntrack);
      wl__free(l->ctx, *t[i], sizeof(uint8_t **) * (size_t)l->ntrack);
    }
    *t[i] = q;
  }
  l->ntrack = n;
  return 0;
}

void wl__sim_touch(wl_launch *l, const wl_access *a) {
  alloc *al = get_alloc(l->dev, a->id);
  uint8_t ***rd, ***wr;
  if (al == NULL || a->off >= al->size || touch_grow(l) != 0) {
    if (al != NULL && a->off < al->size)
      l->failed = 1; /* out of memory: the part cannot say what it did */
    return;
  }
  rd = &l->trd[a->id];
  wr = &l->twr[a->id];
  /* a store's bytes lie inside its allocation (lane_check refused the
   * others before any access was performed) */
  wl_assert(a->off + (uint64_t)a->width <= al->size);
  if (*rd == NULL && *wr == NULL) {
    l->tlo[a->id] = a->off;
    l->thi[a->id] = a->off + (uint64_t)a->width - 1;
  } else {
    if (a->off < l->tlo[a->id])
      l->tlo[a->id] = a->off;
    if (a->off + (uint64_t)a->width - 1 > l->thi[a->id])
      l->thi[a->id] = a->off + (uint64_t)a->width - 1;
  }
  /* a load's bytes as read, a store's as written, an atomic's as both */
  if ((a->kind != WL_ACC_STORE &&
       ((*rd == NULL && (*rd = wl__tb_new(l->ctx, al->size)) == NULL) ||
        wl__tb_mark(l->ctx, *rd, a->off, a->width) != 0)) ||
      (a->kind != WL_ACC_LOAD &&
       ((*wr == NULL && (*wr = wl__tb_new(l->ctx, al->size)) == NULL) ||
        wl__tb_mark(l->ctx, *wr, a->off, a->width) != 0)))
    l->failed = 1;
  if (l->failed)
    snprintf(l->err, sizeof l->err, "out of memory tracking a split launch");
}

/* What a part costs is what it touched, not the size of what it
 * touched: every walk over a part's bits keeps to the bytes between the
 * first and the last it touched (tlo, thi), and skips empty words, so a
 * part that wrote 128 bytes of a 64 MB array does 128 bytes' work. */

/* The bytes of an allocation's written bits (one per 4-byte word) that
 * hold the words of bytes lo..hi */
static uint64_t wbits_lo(uint64_t lo) { return lo / 32; }
static uint64_t wbits_hi(const alloc *a, uint64_t hi) {
  uint64_t h = hi / 32;
  return h < written_bytes(a) ? h : written_bytes(a) - 1;
}

int wl__sim_touch_keep(wl_launch *l) {
  int id;
  for (id = 0; id < l->ntrack; id++) {
    alloc *al = get_alloc(l->dev, id);
    uint64_t b, k = 0, n;
    if (al == NULL || l->twr[id] == NULL)
      continue;
    n = wl__tb_count(l->twr[id], l->tlo[id], l->thi[id]);
    if ((l->tval[id] = wl__alloc(l->ctx, n ? n : 1)) == NULL ||
        (al->written != NULL &&
         (l->twb[id] = wl__alloc(l->ctx, written_bytes(al))) == NULL))
      return wl__err(l->ctx, WL_ENOMEM, "out of memory");
    for (b = wl__tb_next(l->twr[id], l->tlo[id], l->thi[id]); b != UINT64_MAX;
         b = wl__tb_next(l->twr[id], b + 1, l->thi[id]))
      l->tval[id][k++] = al->data[b];
    wl_assert(k == n);
    if (al->written != NULL) /* (only its touched words' bits are read) */
      memcpy(l->twb[id] + wbits_lo(l->tlo[id]),
             al->written + wbits_lo(l->tlo[id]),
             wbits_hi(al, l->thi[id]) - wbits_lo(l->tlo[id]) + 1);
  }
  return 0;
}

void wl__sim_touch_free(wl_launch *l) {
  int id;
  for (id = 0; id < l->ntrack; id++) {
    alloc *al = get_alloc(l->dev, id);
    /* the sizes are the allocation's, which outlives the launch (the
     * device is not changed while a launch is held) */
    if (al == NULL)
      continue;
    if (l->tval[id] != NULL) {
      uint64_t n = wl__tb_count(l->twr[id], l->tlo[id], l->thi[id]);
      wl__free(l->ctx, l->tval[id], n ? n : 1);
    }
    wl__tb_free(l->ctx, l->trd[id], al->size);
    wl__tb_free(l->ctx, l->twr[id], al->size);
    if (l->twb[id] != NULL)
      wl__free(l->ctx, l->twb[id], written_bytes(al));
  }
  wl__free(l->ctx, l->trd, sizeof(uint8_t **) * (size_t)l->ntrack);
  wl__free(l->ctx, l->twr, sizeof(uint8_t **) * (size_t)l->ntrack);
  wl__free(l->ctx, l->tval, sizeof(uint8_t *) * (size_t)l->ntrack);
  wl__free(l->ctx, l->twb, sizeof(uint8_t *) * (size_t)l->ntrack);
  wl__free(l->ctx, l->tlo, sizeof(uint64_t) * (size_t)l->ntrack);
  wl__free(l->ctx, l->thi, sizeof(uint64_t) * (size_t)l->ntrack);
  l->trd = l->twr = NULL;
  l->tval = l->twb = NULL;
  l->tlo = l->thi = NULL;
  l->ntrack = 0;
  wl__vec_free(l->ctx, &l->l2log);
}

int wl_launch_touched(const wl_launch *l, int id, uint64_t off, int write) {
  uint8_t **tb;
  const alloc *a;
  if (id < 0 || id >= l->ntrack)
    return 0;
  tb = write ? l->twr[id] : l->trd[id];
  a = get_alloc(l->dev, id);
  return tb != NULL && a != NULL && off < a->size && wl__tb_get(tb, off);
}

int wl_launch_overlaps(const wl_launch *a, const wl_launch *b) {
  int id, n = a->ntrack < b->ntrack ? a->ntrack : b->ntrack;
#ifdef WL_MUTANT_SPLITJOIN
  /* the mutation check (tests/cli/launch_split.sh): parts never meet */
  n = 0;
#endif
  for (id = 0; id < n; id++) {
    uint64_t lo, hi;
    if ((b->twr[id] == NULL && a->twr[id] == NULL) ||
        (a->trd[id] == NULL && a->twr[id] == NULL) ||
        (b->trd[id] == NULL && b->twr[id] == NULL))
      continue;
    lo = a->tlo[id] > b->tlo[id] ? a->tlo[id] : b->tlo[id];
    hi = a->thi[id] < b->thi[id] ? a->thi[id] : b->thi[id];
    if (wl__tb_overlap(a->trd[id], b->twr[id], lo, hi) >= 0 ||
        wl__tb_overlap(a->twr[id], b->twr[id], lo, hi) >= 0 ||
        wl__tb_overlap(a->twr[id], b->trd[id], lo, hi) >= 0)
      return 1;
  }
  return 0;
}

/* ------------------------------ the copy ---------------------------- */

int wl_device_prepare_clones(wl_device *src) {
  return src->l2 == NULL ? wl__sim_device_l2(src) : 0;
}

/* Allocation s's buffers into a (whose own are gone): a copy of s. */
static int copy_alloc(wl_ctx *ctx, alloc *a, const alloc *s) {
  *a = *s;
  a->data = NULL;
  a->written = NULL;
  if (!s->live)
    return 0;
  if ((a->data = wl__alloc(ctx, s->cap)) == NULL)
    return WL_ENOMEM;
  memcpy(a->data, s->data, s->cap);
  if (s->written != NULL) {
    if ((a->written = wl__alloc(ctx, written_bytes(s))) == NULL)
      return WL_ENOMEM;
    memcpy(a->written, s->written, written_bytes(s));
  }
  return 0;
}

int wl_device_clone(wl_ctx *ctx, const wl_device *src, wl_device **out) {
  wl_device *d;
  size_t i;
  int rc;
  *out = NULL;
  if (src->running)
    return wl__err(ctx, WL_EINVAL, "cannot copy a device during a launch");
  if ((rc = wl_device_new(ctx, &src->cfg, &d)) != 0)
    return rc;
  d->gnext = src->gnext;
  d->gused = src->gused;
  d->cused = src->cused;
  d->pnext = src->pnext;
  for (i = 0; i < src->allocs.n; i++) {
    const alloc *s = WL_VEC_PTR(&src->allocs, alloc, i);
    alloc *a = wl__vec_push(ctx, &d->allocs);
    if (a == NULL)
      goto oom;
    a->data = a->written = NULL;
    if (copy_alloc(ctx, a, s) != 0)
      goto oom;
  }
  /* the copy's L2 is an overlay of src's (wl_device_prepare_clones) */
  if (src->l2 == NULL) {
    wl_device_free(d);
    return wl__err(ctx, WL_EINVAL, "copy of a device not prepared for it "
                                   "(wl_device_prepare_clones)");
  }
  if ((rc = wl__cache_overlay(ctx, src->l2, &d->l2)) != 0) {
    wl_device_free(d);
    return rc;
  }
  *out = d;
  return 0;
oom:
  wl_device_free(d);
  return wl__err(ctx, WL_ENOMEM, "out of memory copying the device");
}

/* n bytes of y into x where they differ, a page at a time: a page that
 * did not change is read, never written (nor faulted in anew) */
static void sync_bytes(uint8_t *x, const uint8_t *y, uint64_t n) {
  uint64_t o;
  for (o = 0; o < n; o += 4096) {
    uint64_t k = n - o < 4096 ? n - o : 4096;
    if (memcmp(x + o, y + o, k) != 0)
      memcpy(x + o, y + o, k);
  }
}

int wl_device_sync(wl_device *d, const wl_device *src) {
  size_t i;
  if (src->running || d->running)
    return wl__err(d->ctx, WL_EINVAL, "cannot copy a device during a launch");
  if (src->l2 == NULL)
    return wl__err(d->ctx, WL_EINVAL, "copy of a device not prepared for it "
                                      "(wl_device_prepare_clones)");
  if (memcmp(&d->cfg, &src->cfg, sizeof d->cfg) != 0)
    return 1; /* another configuration: a new copy */
  d->gnext = src->gnext;
  d->gused = src->gused;
  d->cused = src->cused;
  d->pnext = src->pnext;
  for (i = 0; i < src->allocs.n; i++) {
    const alloc *s = WL_VEC_PTR(&src->allocs, alloc, i);
    alloc *a;
    if (i < d->allocs.n) {
      a = WL_VEC_PTR(&d->allocs, alloc, i);
      if (a->live && s->live && a->cap == s->cap && a->size == s->size &&
          (a->written != NULL) == (s->written != NULL)) {
        uint8_t *data = a->data, *written = a->written;
        *a = *s;
        a->data = data;
        a->written = written;
        sync_bytes(a->data, s->data, s->cap);
        if (s->written != NULL)
          sync_bytes(a->written, s->written, written_bytes(s));
        continue;
      }
      if (a->data)
        wl__free(d->ctx, a->data, a->cap);
      if (a->written)
        wl__free(d->ctx, a->written, written_bytes(a));
      a->data = a->written = NULL;
    } else if ((a = wl__vec_push(d->ctx, &d->allocs)) == NULL) {
      return wl__err(d->ctx, WL_ENOMEM, "out of memory copying the device");
    } else {
      a->data = a->written = NULL;
    }
    if (copy_alloc(d->ctx, a, s) != 0) {
      if (a->data)
        wl__free(d->ctx, a->data, s->cap);
      a->data = NULL;
      a->live = 0; /* nothing of it left to free but what it holds */
      return wl__err(d->ctx, WL_ENOMEM, "out of memory copying the device");
    }
  }
  for (i = src->allocs.n; i < d->allocs.n; i++) {
    alloc *a = WL_VEC_PTR(&d->allocs, alloc, i);
    if (a->data)
      wl__free(d->ctx, a->data, a->cap);
    if (a->written)
      wl__free(d->ctx, a->written, written_bytes(a));
  }
  d->allocs.n = src->allocs.n;
  /* a new overlay of src's L2, as it is now */
  wl__cache_free(d->l2);
  d->l2 = NULL;
  return wl__cache_overlay(d->ctx, src->l2, &d->l2);
}

/* Whether allocation id exists alike on both devices (same size and
 * space). */
static int same_alloc(const wl_device *a, const wl_device *b, int id,
                      alloc **pa, alloc **pb) {
  *pa = get_alloc(a, id);
  *pb = get_alloc(b, id);
  return *pa != NULL && *pb != NULL && (*pa)->size == (*pb)->size &&
         (*pa)->space == (*pb)->space;
}

int wl_device_restore(wl_device *d, const wl_device *src,
                      const wl_launch *part) {
  int id;
  size_t i;
  if (part->dev != d)
    return wl__err(d->ctx, WL_EINVAL, "restore: the part ran elsewhere");
  for (id = 0; id < part->ntrack; id++) {
    alloc *a, *s;
    uint64_t b;
    if (part->twr[id] == NULL)
      continue;
    if (!same_alloc(d, src, id, &a, &s))
      return wl__err(d->ctx, WL_EINVAL, "restore: allocation %d differs",
                     id);
    for (b = wl__tb_next(part->twr[id], part->tlo[id], part->thi[id]);
         b != UINT64_MAX; b = wl__tb_next(part->twr[id], b + 1, part->thi[id]))
      a->data[b] = s->data[b];
    /* the written bits change with the bytes written only */
    if (a->written != NULL && s->written != NULL)
      memcpy(a->written + wbits_lo(part->tlo[id]),
             s->written + wbits_lo(part->tlo[id]),
             wbits_hi(a, part->thi[id]) - wbits_lo(part->tlo[id]) + 1);
  }
  for (i = 0; i < d->allocs.n && i < src->allocs.n; i++) {
    alloc *a, *s;
    if (!same_alloc(d, src, (int)i, &a, &s))
      continue;
    a->all_written = s->all_written;
  }
  if (d->l2 != NULL && wl__cache_overlay_reset(d->l2) != 0)
    return wl__err(d->ctx, WL_ENOMEM, "out of memory (the L2's overlay)");
  return 0;
}

int wl_device_apply(wl_device *d, wl_launch *part) {
  int id;
  size_t i;
  for (id = 0; id < part->ntrack; id++) {
    alloc *a = get_alloc(d, id);
    uint64_t b, k = 0;
    if (part->twr[id] == NULL)
      continue;
    if (a == NULL || part->tval[id] == NULL)
      return wl__err(d->ctx, WL_EINVAL, "apply: allocation %d differs", id);
    for (b = wl__tb_next(part->twr[id], part->tlo[id], part->thi[id]);
         b != UINT64_MAX; b = wl__tb_next(part->twr[id], b + 1, part->thi[id]))
      a->data[b] = part->tval[id][k++];
    /* every value kept was written back, in the order of the bits */
    wl_assert(k == wl__tb_count(part->twr[id], part->tlo[id],
                                 part->thi[id]));
    if (a->written != NULL && part->twb[id] != NULL)
      for (b = wbits_lo(part->tlo[id]); b <= wbits_hi(a, part->thi[id]); b++)
        a->written[b] |= part->twb[id][b];
  }
  /* a launch without the uninitialised-read checker may have written
   * anything (launch.c) */
  if (!(part->cfg.check & WL_CHECK_UNINIT))
    for (i = 0; i < d->allocs.n; i++)
      WL_VEC_PTR(&d->allocs, alloc, i)->all_written = 1;
#ifdef WL_MUTANT_L2REPLAY
  /* the mutation check: the join keeps the hits and misses each part
   * saw on the L2 the launch found */
  if (0) {
#else
  if (part->l2log.n > 0) {
#endif
    /* the part's L2 lookups again, on the device's L2 as the earlier
     * parts left it: its hits and misses are those of the parts run one
     * after the other (the part itself saw the L2 the launch found) */
    int rc;
    size_t k;
    if (d->l2 == NULL && (rc = wl__sim_device_l2(d)) != 0)
      return rc;
    for (k = 0; k < part->sites.n; k++) {
      site *st = WL_VEC_PTR(&part->sites, site, k);
      st->c[C_L2_HIT] = st->c[C_L2_MISS] = 0;
    }
    part->total[C_L2_HIT] = part->total[C_L2_MISS] = 0;
    for (i = 0; i < part->l2log.n; i++) {
      const l2look *e = WL_VEC_PTR(&part->l2log, l2look, i);
      int c = wl__cache_access(d->l2, e->sector, 1) ? C_L2_HIT : C_L2_MISS;
      WL_VEC_PTR(&part->sites, site, (size_t)e->site)->c[c]++;
      part->total[c]++;
    }
  }
  return 0;
}

/* --------------------------- joining parts -------------------------- */

int wl_launch_conflicts(wl_launch *const *parts, int n, char *why,
                        size_t whylen) {
  const wl_device *d;
  int id, k, j, nalloc = 0;
  if (n <= 1)
    return 0;
#ifdef WL_MUTANT_SPLITJOIN
  (void)why;
  (void)whylen;
  (void)d;
  (void)id;
  (void)k;
  (void)j;
  (void)nalloc;
  return 0; /* the mutation check: parts always join */
#endif
  d = parts[0]->dev;
  for (k = 0; k < n; k++)
    nalloc = parts[k]->ntrack > nalloc ? parts[k]->ntrack : nalloc;
  /* per allocation: the parts in order, each against the union of the
   * earlier ones' writes and reads (which part that was: found again
   * only for the message) */
  for (id = 0; id < nalloc; id++) {
    const alloc *a = get_alloc(d, id);
    uint8_t **w, **r;
    int rc = 0;
    if (a == NULL)
      continue;
    w = wl__tb_new(d->ctx, a->size);
    r = wl__tb_new(d->ctx, a->size);
    if (w == NULL || r == NULL) {
      wl__tb_free(d->ctx, w, a->size);
      wl__tb_free(d->ctx, r, a->size);
      return wl__err(d->ctx, WL_ENOMEM, "out of memory");
    }
    for (k = 0; k < n && rc == 0; k++) {
      uint8_t **pw = id < parts[k]->ntrack ? parts[k]->twr[id] : NULL;
      uint8_t **pr = id < parts[k]->ntrack ? parts[k]->trd[id] : NULL;
      uint64_t lo, hi;
      int64_t at;
      int write_first = 1;
      if (pw == NULL && pr == NULL)
        continue;
      lo = parts[k]->tlo[id]; /* what it touched lies in lo..hi */
      hi = parts[k]->thi[id];
      at = wl__tb_overlap(pw, w, lo, hi);
      if (at < 0)
        at = wl__tb_overlap(pr, w, lo, hi);
      if (at < 0) {
        at = wl__tb_overlap(pw, r, lo, hi);
        write_first = 0;
      }
      if (at >= 0) {
        /* the earlier part: the first that wrote (or read) that byte */
        for (j = 0; j < k; j++) {
          uint8_t **q;
          if (id >= parts[j]->ntrack) /* it tracked no such allocation */
            continue;
          q = write_first ? parts[j]->twr[id] : parts[j]->trd[id];
          if (q != NULL && wl__tb_get(q, (uint64_t)at))
            break;
        }
        snprintf(why, whylen,
                 "blocks of parts %d and %d of %d %s byte %lld of '%s'", j,
                 k, n,
                 write_first ? "both touch (one writing)"
                             : "both touch (one reading, one writing)",
                 (long long)at, a->name);
        rc = 1;
        break;
      }
      /* its bits into the unions */
      if (wl__tb_or(d->ctx, w, pw, lo, hi) != 0 ||
          wl__tb_or(d->ctx, r, pr, lo, hi) != 0)
        rc = wl__err(d->ctx, WL_ENOMEM, "out of memory");
    }
    wl__tb_free(d->ctx, w, a->size);
    wl__tb_free(d->ctx, r, a->size);
    if (rc != 0)
      return rc;
  }
  return 0;
}

int wl_launch_merge(wl_launch *into, const wl_launch *part) {
  size_t i, j;
  int c;
  into->steps += part->steps;
  for (c = 0; c < NCOUNTERS; c++)
    into->total[c] += part->total[c];
  for (i = 0; i < part->sites.n; i++) {
    const site *s = WL_VEC_PTR(&part->sites, site, i);
    int k = wl__sim_site_id(into, s->line, s->space, s->kind, s->width,
                            s->l1pol);
    site *t;
    if (k < 0)
      return k;
    t = WL_VEC_PTR(&into->sites, site, (size_t)k);
    for (c = 0; c < NCOUNTERS; c++)
      t->c[c] += s->c[c];
    if (s->worst > t->worst) {
      t->worst = s->worst;
      t->worst_mask = s->worst_mask;
      memcpy(t->worst_addr, s->worst_addr, sizeof t->worst_addr);
    }
  }
  /* findings are kept once per kind and pair of lines (check/finding.c),
   * counted */
  for (i = 0; i < part->finds.n; i++) {
    const wl_finding *f = WL_VEC_PTR(&part->finds, wl_finding, i);
    wl_finding *g = NULL;
    for (j = 0; j < into->finds.n; j++) {
      g = WL_VEC_PTR(&into->finds, wl_finding, j);
      if (g->kind == f->kind &&
          ((g->a.line == f->a.line && g->b.line == f->b.line) ||
           (g->a.line == f->b.line && g->b.line == f->a.line)))
        break;
      g = NULL;
    }
    if (g != NULL) {
      g->count += f->count;
    } else if (into->finds.n < MAX_FINDINGS) {
      if ((g = wl__vec_push(into->ctx, &into->finds)) == NULL)
        return wl__err(into->ctx, WL_ENOMEM, "out of memory");
      *g = *f;
    }
  }
  return 0;
}
