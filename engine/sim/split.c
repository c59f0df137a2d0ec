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

/* ------------------------- what a part touches ---------------------- */

static uint64_t bits_bytes(const alloc *a) { return (a->size + 7) / 8; }

static int touch_grow(wl_launch *l) {
  int n = (int)l->dev->allocs.n, i;
  uint8_t ***v[4] = {&l->trd, &l->twr, &l->tval, &l->twb};
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
  for (i = 0; i < 4; i++) {
    uint8_t **p = wl__calloc(l->ctx, sizeof(uint8_t *) * (size_t)n);
    if (p == NULL)
      return wl__err(l->ctx, WL_ENOMEM, "out of memory");
    if (*v[i] != NULL) {
      memcpy(p, *v[i], sizeof(uint8_t *) * (size_t)l->ntrack);
      wl__free(l->ctx, *v[i], sizeof(uint8_t *) * (size_t)l->ntrack);
    }
    *v[i] = p;
  }
  l->ntrack = n;
  return 0;
}

static void mark(uint8_t *bits, uint64_t off, int width) {
  uint64_t b;
  for (b = off; b < off + (uint64_t)width; b++)
    bits[b / 8] |= (uint8_t)(1u << (b % 8));
}

void wl__sim_touch(wl_launch *l, const wl_access *a) {
  alloc *al = get_alloc(l->dev, a->id);
  uint8_t **rd, **wr;
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
  if (a->kind != WL_ACC_STORE) {
    if (*rd == NULL && (*rd = wl__calloc(l->ctx, bits_bytes(al))) == NULL) {
      l->failed = 1;
      return;
    }
    mark(*rd, a->off, a->width);
  }
  if (a->kind != WL_ACC_LOAD) {
    if (*wr == NULL && (*wr = wl__calloc(l->ctx, bits_bytes(al))) == NULL) {
      l->failed = 1;
      return;
    }
    mark(*wr, a->off, a->width);
  }
  if (l->failed)
    snprintf(l->err, sizeof l->err, "out of memory tracking a split launch");
}

static uint64_t popcount_bits(const uint8_t *bits, uint64_t nbytes) {
  uint64_t i, n = 0;
  for (i = 0; i < nbytes; i++)
    n += (uint64_t)__builtin_popcount(bits[i]);
  return n;
}

int wl__sim_touch_keep(wl_launch *l) {
  int id;
  for (id = 0; id < l->ntrack; id++) {
    alloc *al = get_alloc(l->dev, id);
    uint64_t b, k = 0, n;
    if (al == NULL || l->twr[id] == NULL)
      continue;
    n = popcount_bits(l->twr[id], bits_bytes(al));
    if ((l->tval[id] = wl__alloc(l->ctx, n ? n : 1)) == NULL ||
        (al->written != NULL &&
         (l->twb[id] = wl__alloc(l->ctx, written_bytes(al))) == NULL))
      return wl__err(l->ctx, WL_ENOMEM, "out of memory");
    for (b = 0; b < al->size; b++)
      if (l->twr[id][b / 8] >> (b % 8) & 1)
        l->tval[id][k++] = al->data[b];
    wl_assert(k == n);
    if (al->written != NULL)
      memcpy(l->twb[id], al->written, written_bytes(al));
  }
  return 0;
}

void wl__sim_touch_free(wl_launch *l) {
  int id;
  for (id = 0; id < l->ntrack; id++) {
    alloc *al = get_alloc(l->dev, id);
    /* the sizes are the allocation's, which outlives the launch (the
     * device is not changed while a launch is held) */
    uint64_t bb = al != NULL ? bits_bytes(al) : 0;
    if (al == NULL)
      continue;
    if (l->tval[id] != NULL) {
      uint64_t n = popcount_bits(l->twr[id], bb);
      wl__free(l->ctx, l->tval[id], n ? n : 1);
    }
    wl__free(l->ctx, l->trd[id], bb);
    wl__free(l->ctx, l->twr[id], bb);
    if (l->twb[id] != NULL)
      wl__free(l->ctx, l->twb[id], written_bytes(al));
  }
  wl__free(l->ctx, l->trd, sizeof(uint8_t *) * (size_t)l->ntrack);
  wl__free(l->ctx, l->twr, sizeof(uint8_t *) * (size_t)l->ntrack);
  wl__free(l->ctx, l->tval, sizeof(uint8_t *) * (size_t)l->ntrack);
  wl__free(l->ctx, l->twb, sizeof(uint8_t *) * (size_t)l->ntrack);
  wl__free(l->ctx, l->tlo, sizeof(uint64_t) * (size_t)l->ntrack);
  wl__free(l->ctx, l->thi, sizeof(uint64_t) * (size_t)l->ntrack);
  l->trd = l->twr = l->tval = l->twb = NULL;
  l->tlo = l->thi = NULL;
  l->ntrack = 0;
  wl__vec_free(l->ctx, &l->l2log);
}

const uint8_t *wl_launch_touched(const wl_launch *l, int id, int write) {
  if (id < 0 || id >= l->ntrack)
    return NULL;
  return write ? l->twr[id] : l->trd[id];
}

/* The first byte (of allocation id) where bits x and y are both on,
 * between lo and hi inclusive, or -1. */
static int64_t overlap_in(const uint8_t *x, const uint8_t *y, uint64_t lo,
                          uint64_t hi) {
  uint64_t i;
  if (x == NULL || y == NULL || lo > hi)
    return -1;
  for (i = lo / 8; i <= hi / 8; i++)
    if (x[i] & y[i])
      return (int64_t)(i * 8 + (uint64_t)__builtin_ctz(x[i] & y[i]));
  return -1;
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
    if (overlap_in(a->trd[id], b->twr[id], lo, hi) >= 0 ||
        overlap_in(a->twr[id], b->twr[id], lo, hi) >= 0 ||
        overlap_in(a->twr[id], b->trd[id], lo, hi) >= 0)
      return 1;
  }
  return 0;
}

/* ------------------------------ the copy ---------------------------- */

int wl_device_prepare_clones(wl_device *src) {
  return src->l2 == NULL ? wl__sim_device_l2(src) : 0;
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
    *a = *s;
    a->data = NULL;
    a->written = NULL;
    if (!s->live)
      continue;
    if ((a->data = wl__alloc(ctx, s->cap)) == NULL)
      goto oom;
    memcpy(a->data, s->data, s->cap);
    if (s->written != NULL) {
      if ((a->written = wl__alloc(ctx, written_bytes(s))) == NULL)
        goto oom;
      memcpy(a->written, s->written, written_bytes(s));
    }
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
    for (b = 0; b < a->size; b++)
      if (part->twr[id][b / 8] >> (b % 8) & 1)
        a->data[b] = s->data[b];
  }
  for (i = 0; i < d->allocs.n && i < src->allocs.n; i++) {
    alloc *a, *s;
    if (!same_alloc(d, src, (int)i, &a, &s))
      continue;
    a->all_written = s->all_written;
    if (a->written != NULL && s->written != NULL)
      memcpy(a->written, s->written, written_bytes(a));
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
    for (b = 0; b < a->size; b++)
      if (part->twr[id][b / 8] >> (b % 8) & 1)
        a->data[b] = part->tval[id][k++];
    /* every value kept was written back, in the order of the bits */
    wl_assert(k == popcount_bits(part->twr[id], bits_bytes(a)));
    if (a->written != NULL && part->twb[id] != NULL)
      for (b = 0; b < written_bytes(a); b++)
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
    uint64_t nb, i;
    uint8_t *w, *r;
    if (a == NULL)
      continue;
    nb = bits_bytes(a);
    if ((w = wl__calloc(d->ctx, nb)) == NULL ||
        (r = wl__calloc(d->ctx, nb)) == NULL) {
      wl__free(d->ctx, w, nb);
      return wl__err(d->ctx, WL_ENOMEM, "out of memory");
    }
    for (k = 0; k < n; k++) {
      const uint8_t *pw = id < parts[k]->ntrack ? parts[k]->twr[id] : NULL;
      const uint8_t *pr = id < parts[k]->ntrack ? parts[k]->trd[id] : NULL;
      int64_t at = overlap_in(pw, w, 0, a->size - 1);
      int write_first = 1;
      if (at < 0)
        at = overlap_in(pr, w, 0, a->size - 1);
      if (at < 0) {
        at = overlap_in(pw, r, 0, a->size - 1);
        write_first = 0;
      }
      if (at >= 0) {
        /* the earlier part: the first that wrote (or read) that byte */
        for (j = 0; j < k; j++) {
          const uint8_t *q;
          if (id >= parts[j]->ntrack) /* it tracked no such allocation */
            continue;
          q = write_first ? parts[j]->twr[id] : parts[j]->trd[id];
          if (q != NULL && (q[at / 8] >> (at % 8) & 1))
            break;
        }
        snprintf(why, whylen,
                 "blocks of parts %d and %d of %d %s byte %lld of '%s'", j,
                 k, n,
                 write_first ? "both touch (one writing)"
                             : "both touch (one reading, one writing)",
                 (long long)at, a->name);
        wl__free(d->ctx, w, nb);
        wl__free(d->ctx, r, nb);
        return 1;
      }
      for (i = 0; i < nb; i++) {
        if (pw != NULL)
          w[i] |= pw[i];
        if (pr != NULL)
          r[i] |= pr[i];
      }
    }
    wl__free(d->ctx, w, nb);
    wl__free(d->ctx, r, nb);
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
