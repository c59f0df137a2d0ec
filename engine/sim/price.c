/* price.c -- the cost model's side of a launch: the lanes' accesses at
 * one site are gathered into warp-wide requests (the n-th access of each
 * lane joins the warp's n-th request), and each request, once the warp
 * converges, is priced by engine/perf/ (bank wavefronts, sectors, cache
 * lookups) into the site's and the kernel's counters. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../check/check.h"
#include "../common/internal.h"
#include "../perf/perf.h"
#include "../program/ir.h"
#include "sim.h"

/* ---------------------------- sites ------------------------------- */

static int site_lookup(wl_launch *l, int line, int space, int kind,
                       int width, int l1pol) {
  uint32_t h = ((uint32_t)line * 2654435761u) ^
               (uint32_t)(space * 131 + kind * 17 + width + l1pol * 7919);
  int mask = l->site_hash_n - 1, i = (int)(h & (uint32_t)mask);
  site *s;
  for (;;) {
    int k = l->site_hash[i];
    if (k < 0)
      break;
    s = WL_VEC_PTR(&l->sites, site, k);
    if (s->line == line && s->space == space && s->kind == kind &&
        s->width == width && s->l1pol == l1pol)
      return k;
    i = (i + 1) & mask;
  }
  if (l->sites.n * 2 >= (size_t)l->site_hash_n)
    return wl__err(l->ctx, WL_ELIMIT, "too many access sites in one kernel");
  if ((s = wl__vec_push(l->ctx, &l->sites)) == NULL)
    return wl__err(l->ctx, WL_ENOMEM, "out of memory");
  s->line = line;
  s->space = space;
  s->kind = kind;
  s->width = width;
  s->l1pol = l1pol;
  s->worst = -1;
  l->site_hash[i] = (int)(l->sites.n - 1);
  return l->site_hash[i];
}

int wl__sim_site_id(wl_launch *l, int line, int space, int kind, int width,
                    int l1pol) {
  /* space < 8, kind < 4, width <= 16, l1pol < 2: one int */
  int key = space | kind << 3 | width << 5 | l1pol << 10, k;
  unsigned m = (unsigned)line % SITE_MEMO;
  if ((unsigned)space >= 8 || (unsigned)kind >= 4 || (unsigned)width >= 32 ||
      (unsigned)l1pol >= 2)
    return site_lookup(l, line, space, kind, width, l1pol);
  if (l->site_memo[m].k1 != 0 && l->site_memo[m].line == line &&
      l->site_memo[m].key == key)
    return l->site_memo[m].k1 - 1;
  if ((k = site_lookup(l, line, space, kind, width, l1pol)) >= 0) {
    l->site_memo[m].line = line;
    l->site_memo[m].key = key;
    l->site_memo[m].k1 = k + 1;
  }
  return k;
}

int wl_launch_nsites(const wl_launch *l) { return (int)l->sites.n; }

int wl_launch_site(const wl_launch *l, int k, int *line, int *space,
                   int *kind, int *width) {
  const site *s;
  if (k < 0 || (size_t)k >= l->sites.n)
    return WL_EINVAL;
  s = WL_VEC_PTR(&l->sites, site, k);
  *line = s->line;
  *space = s->space;
  *kind = s->kind;
  *width = s->width;
  return 0;
}

int wl_launch_site_worst(const wl_launch *l, int k, uint32_t *mask,
                         uint64_t addr[32]) {
  const site *s;
  if (k < 0 || (size_t)k >= l->sites.n)
    return WL_EINVAL;
  s = WL_VEC_PTR(&l->sites, site, k);
  if (s->worst < 0)
    return WL_EINVAL;
  *mask = s->worst_mask;
  memcpy(addr, s->worst_addr, sizeof s->worst_addr);
  return s->worst;
}

uint64_t wl_launch_counter(const wl_launch *l, int k, int i) {
  if (i < 0 || i >= NCOUNTERS)
    return 0;
  if (k < 0)
    return l->total[i];
  if ((size_t)k >= l->sites.n)
    return 0;
  return WL_VEC_PTR(&l->sites, site, k)->c[i];
}

const wl_occupancy *wl_launch_occupancy(const wl_launch *l) { return &l->occ; }

int wl_launch_nfindings(const wl_launch *l) {
  return l != NULL ? (int)l->finds.n : 0;
}

const wl_finding *wl_launch_finding(const wl_launch *l, int i) {
  if (l == NULL || i < 0 || (size_t)i >= l->finds.n)
    return NULL;
  return WL_VEC_PTR(&l->finds, wl_finding, (size_t)i);
}
uint64_t wl_launch_steps(const wl_launch *l) { return l->steps; }

uint64_t wl_launch_max_steps(const wl_launch *l) { return l->cfg.max_steps; }

/* --------------------------- pricing ------------------------------ */

static void count(wl_launch *l, site *s, int c, uint64_t n) {
  s->c[c] += n;
  l->total[c] += n;
}

/* The SM's L1 and constant cache of the cost model (NULL: no L1). */
static int sm_caches(wl_launch *l, sm_st *m) {
  int rc;
  if (m->pconst != NULL)
    return 0;
  if (l->has_l1 && (rc = wl__cache_new(l->ctx, &l->l1c, &m->pl1)) != 0)
    return rc;
  return wl__cache_new(l->ctx, &l->cc, &m->pconst);
}

/* Prices one warp-wide request with the cost model; span: the lowest
 * and highest bank word of a whole warp's narrow shared access, when the
 * caller knows them (NULL: found here). */
static int price(wl_launch *l, int sm, const group *g, const uint64_t *span) {
  site *s = WL_VEC_PTR(&l->sites, site, g->site);
  wl_warp_req r;
  int i;
  if ((i = sm_caches(l, &l->sms[sm])) != 0)
    return i;
  count(l, s, C_INST, 1);
  /* (a whole warp without the call: the build has no popcnt insn) */
  count(l, s, C_THREAD_INST,
        g->mask == 0xffffffffu ? 32u
                               : (uint64_t)__builtin_popcount(g->mask));
  if (s->space == WL_SPACE_SHARED && s->width <= l->dev->cfg.bank_bytes &&
      l->bank_shift >= 0) {
    /* the common narrow case without building a request (the lanes'
     * alignment was checked as they accessed) */
    uint64_t lo = UINT64_MAX, hi = 0;
    uint32_t b;
    int n, wf, ideal;
    if (g->mask == 0xffffffffu && span != NULL) {
      lo = span[0];
      hi = span[1];
    } else if (g->mask == 0xffffffffu) { /* a whole warp: one loop */
      for (i = 0; i < 32; i++) {
        uint64_t w = g->addr[i] >> l->bank_shift;
        lo = w < lo ? w : lo;
        hi = w > hi ? w : hi;
      }
    } else {
      for (b = g->mask; b != 0; b &= b - 1) {
        uint64_t w = g->addr[__builtin_ctz(b)] >> l->bank_shift;
        lo = w < lo ? w : lo;
        hi = w > hi ? w : hi;
      }
    }
    if (hi - lo < (uint64_t)l->dev->cfg.banks) {
      wf = ideal = 1; /* consecutive words: a bank each (or broadcast) */
    } else {
      uint32_t words[WL_BANK_MAX] = {0};
      wf = wl__bank_narrow(g->addr, g->mask, l->bank_shift,
                           (uint64_t)l->dev->cfg.banks, words, &n);
      ideal = (n + l->dev->cfg.banks - 1) / l->dev->cfg.banks;
    }
    count(l, s, s->kind == WL_ACC_LOAD ? C_SH_WF_LD : C_SH_WF_ST,
          (uint64_t)wf);
    count(l, s, s->kind == WL_ACC_LOAD ? C_SH_BC_LD : C_SH_BC_ST,
          (uint64_t)(wf - ideal));
    if (wf > s->worst) {
      s->worst = wf;
      s->worst_mask = g->mask;
      for (i = 0; i < 32; i++)
        s->worst_addr[i] = (g->mask >> i & 1) ? g->addr[i] : 0;
    }
    return 0;
  }
  r.active = g->mask;
  r.width = s->width;
  r.store = s->kind != WL_ACC_LOAD;
  for (i = 0; i < 32; i++)
    r.addr[i] = (g->mask >> i & 1) ? g->addr[i] : 0;
  switch (s->space) {
  case WL_SPACE_SHARED: {
    wl_bank_cfg bc;
    wl_shared_cost sc;
    bc.nbanks = l->dev->cfg.banks;
    bc.bank_bytes = l->dev->cfg.bank_bytes;
    if (wl_price_shared(&bc, &r, &sc) != 0)
      return 0; /* alignment was checked per lane */
    count(l, s, s->kind == WL_ACC_LOAD ? C_SH_WF_LD : C_SH_WF_ST,
          (uint64_t)sc.wavefronts);
    if (sc.wavefronts > s->worst) {
      s->worst = sc.wavefronts;
      s->worst_mask = g->mask;
      memcpy(s->worst_addr, r.addr, sizeof r.addr);
    }
    count(l, s, s->kind == WL_ACC_LOAD ? C_SH_BC_LD : C_SH_BC_ST,
          (uint64_t)sc.conflicts);
    break;
  }
  case WL_SPACE_GLOBAL:
  case WL_SPACE_MANAGED:
  case WL_SPACE_LOCAL: {
    wl_global_cost gc;
    int k, l1 = s->kind == WL_ACC_LOAD && s->space != WL_SPACE_LOCAL &&
                s->l1pol == L1_ALLOCATE;
    if (wl_price_global(&r, &gc) != 0)
      return 0;
    if (s->space == WL_SPACE_LOCAL) {
      count(l, s, C_LO_REQ, (uint64_t)gc.requests);
      count(l, s, C_LO_SEC, (uint64_t)gc.sectors);
    } else if (s->kind == WL_ACC_LOAD) {
      count(l, s, C_GL_REQ_LD, (uint64_t)gc.requests);
      count(l, s, C_GL_SEC_LD, (uint64_t)gc.sectors);
    } else if (s->kind == WL_ACC_STORE) {
      count(l, s, C_GL_REQ_ST, (uint64_t)gc.requests);
      count(l, s, C_GL_SEC_ST, (uint64_t)gc.sectors);
    } else {
      count(l, s, C_GL_REQ_ATOM, (uint64_t)gc.requests);
      count(l, s, C_GL_SEC_ATOM, (uint64_t)gc.sectors);
    }
    for (k = 0; k < gc.nsec; k++) {
      int hit = 0;
      if (l1 && l->sms[sm].pl1) {
        hit = wl__cache_access(l->sms[sm].pl1, gc.sector[k], 1);
        count(l, s, hit ? C_GL_HIT_LD : C_GL_MISS_LD, 1);
      }
      if (!hit) {
        int h2 = wl__cache_access(l->pl2, gc.sector[k], 1);
        l2look *lg;
        if (l->cfg.track) { /* looked up again when the parts join */
          if ((lg = wl__vec_push(l->ctx, &l->l2log)) == NULL)
            return wl__err(l->ctx, WL_ENOMEM, "out of memory");
          lg->sector = gc.sector[k];
          lg->site = (int)(s - (site *)l->sites.p);
        }
        count(l, s, C_L2_SEC, 1);
        count(l, s, h2 ? C_L2_HIT : C_L2_MISS, 1);
      }
    }
    break;
  }
  case WL_SPACE_CONSTANT:
  case WL_SPACE_PARAM: {
    /* one request per distinct address, serialized; hits by line */
    uint64_t seen[32];
    int n = 0, j, hits = 0;
    for (i = 0; i < 32; i++) {
      if (!(g->mask >> i & 1))
        continue;
      for (j = 0; j < n && seen[j] != g->addr[i]; j++)
        ;
      if (j == n)
        seen[n++] = g->addr[i];
    }
    for (j = 0; j < n; j++) {
      uint64_t line = seen[j] / l->dev->cfg.const_line * l->dev->cfg.const_line;
      int h = l->sms[sm].pconst ? wl__cache_access(l->sms[sm].pconst, line, 1)
                                : 0;
      hits += h;
    }
    count(l, s, C_CONST_REQ, (uint64_t)n);
    count(l, s, C_CONST_HIT, (uint64_t)hits);
    count(l, s, C_CONST_MISS, (uint64_t)(n - hits));
    count(l, s, C_CONST_CYC, (uint64_t)(wl_const_cycles(n, n - hits) + 0.5));
    break;
  }
  default:
    break;
  }
  return 0;
}

int wl__sim_price(wl_launch *l, int sm, const group *g) {
  return price(l, sm, g, NULL);
}

int wl__sim_price_span(wl_launch *l, int sm, const group *g, uint64_t lo,
                       uint64_t hi) {
  uint64_t span[2];
  span[0] = lo;
  span[1] = hi;
  return price(l, sm, g, span);
}

/* Prices every request a warp gathered (it converged: its lanes wait at
 * a barrier or have exited). */
int wl__sim_flush_warp(wl_launch *l, slot *s, int warp) {
  warp_st *w = &s->warps[warp];
  size_t i;
  int t, rc;
  for (i = 0; i < w->groups.n; i++) {
    group *g = WL_VEC_PTR(&w->groups, group, i);
    if (!g->done && (rc = wl__sim_price(l, s->sm, g)) != 0)
      return rc;
  }
  w->groups.n = 0;
  w->compacted = 0;
  for (t = warp * 32; t < warp * 32 + 32 && t < l->nthreads; t++) {
    s->seq[t] = 0;
    s->irregular[t] = 0;
  }
  return 0;
}

/* Drops the priced requests of a warp that has gathered many (a long
 * stretch without a barrier); positions stop being hints until the warp
 * converges. */
static void compact_warp(warp_st *w) {
  size_t i, n = 0;
  group *g = WL_VEC_PTR(&w->groups, group, 0);
  for (i = 0; i < w->groups.n; i++)
    if (!g[i].done)
      g[n++] = g[i];
  w->groups.n = n;
}

/* Adds lane's access at site k, address addr, to its warp's request.
 * A lane joins the oldest request at that site it is not part of yet, so
 * its n-th access at a site joins the site's n-th request: lanes that run
 * the same code make the same requests, and a lane that skipped some
 * (divergence) joins the ones of the iterations it does run. */
int wl__sim_gather(wl_launch *l, slot *s, int thread, int k, uint64_t addr) {
  int warp = (int)((unsigned)thread / 32), lane = (int)((unsigned)thread % 32);
  uint32_t bit = 1u << lane, hint = s->seq[thread]++;
  warp_st *w = &s->warps[warp];
  group *g = NULL;
  size_t i;
  /* the common case first: a lane that has joined request i at its i-th
   * access every time since the warp converged joins request hint (what
   * the general case below finds too) */
  if (hint < w->groups.n && !s->irregular[thread] && !w->compacted) {
    group *x = (group *)w->groups.p + hint;
    if (x->site == k && !(x->mask & bit) && !x->done) {
      x->mask |= bit;
      x->addr[lane] = addr;
      if (x->mask == w->alive) {
        x->done = 1;
        return wl__sim_price(l, s->sm, x);
      }
      return 0;
    }
  }
  /* lanes run one after the other through the same code: the n-th
   * access of this lane most likely belongs to the n-th request */
  if (hint < w->groups.n) {
    group *x = WL_VEC_PTR(&w->groups, group, hint);
    if (x->site == k && !(x->mask & bit) && !x->done) {
      /* the hint is right unless an older request at k lacks the lane,
       * which cannot be while the lane has joined request i at its i-th
       * access every time since the warp converged */
      g = x;
      for (i = 0; (s->irregular[thread] || w->compacted) && i < hint && g == x;
           i++) {
        group *y = WL_VEC_PTR(&w->groups, group, i);
        if (y->site == k && !(y->mask & bit) && !y->done)
          g = y;
      }
    }
  }
  for (i = 0; g == NULL && i < w->groups.n; i++) {
    group *x = WL_VEC_PTR(&w->groups, group, i);
    if (x->site == k && !(x->mask & bit) && !x->done)
      g = x;
  }
  if (g == NULL) {
    if (w->groups.n >= 4096) { /* a long divergent stretch: price early */
      int rc = 0;
      for (i = 0; rc == 0 && i < w->groups.n; i++) {
        group *x = WL_VEC_PTR(&w->groups, group, i);
        if (!x->done) {
          rc = wl__sim_price(l, s->sm, x);
          x->done = 1;
        }
      }
      if (rc)
        return rc;
      compact_warp(w);
      w->compacted = 1;
    }
    if ((g = wl__vec_push(l->ctx, &w->groups)) == NULL)
      return wl__err(l->ctx, WL_ENOMEM, "out of memory");
    g->site = k;
  }
  if (g != WL_VEC_PTR(&w->groups, group, hint))
    s->irregular[thread] = 1;
  g->mask |= bit;
  g->addr[lane] = addr;
  if (g->mask == w->alive) {
    g->done = 1;
    return wl__sim_price(l, s->sm, g);
  }
  return 0;
}
