/* weak.c -- which outcomes of a histogram are weak: those no
 * sequentially consistent interleaving of the test produces (a search
 * over interleavings, memoised by state hashes; callback threads are
 * replayed as the sampler replays them, cbthread.h). */
#include <string.h>

#include "cbthread.h"

/* ---------------------------------------------------------------- */
/* Sequential consistency: which outcomes are weak                   */

typedef struct scx {
  const wl_litmus *t;
  int pc[WL_MAX_THREADS];
  int64_t regs[WL_MAX_THREADS][WL_MAX_REGS];
  int64_t mem[WL_MAX_LOCS];
  const wl_hist *h;
  uint8_t *sc; /* per outcome: reachable under SC */
  long budget;
  unsigned long steps; /* for polling the stop hook */
  int cut;             /* the depth limit cut some interleaving */
  int stopped;         /* the histogram's stop hook ended the search */
  /* states already explored, by two independent 64-bit hashes (a
   * collision of both would have to happen to skip a new state) */
  uint64_t *vis;
  size_t viscap, nvis;
  /* callback threads: their events so far, and whether they ended
   * (their results are then in regs) */
  cbthread *cb[WL_MAX_THREADS];
  uint8_t cbdone[WL_MAX_THREADS];
} scx;

#define SC_VISCAP ((size_t)1 << 16)

static uint64_t sc_hash(const scx *c, uint64_t h) {
  const wl_litmus *t = c->t;
  int th, i;
  for (th = 0; th < t->nthreads; th++) {
    if (c->cb[th] != NULL) {
      /* a callback thread's state is the values its loads returned
       * and how many of its events ran */
      const cbthread *cb = c->cb[th];
      h = (h ^ (uint64_t)(cb->nexec * 2 + c->cbdone[th])) * 0x100000001b3ull;
      for (i = 0; i < cb->nlv; i++)
        h = (h ^ (uint64_t)cb->lv[i]) * 0x100000001b3ull;
      continue;
    }
    h = (h ^ (uint64_t)c->pc[th]) * 0x100000001b3ull;
    for (i = 0; i < t->threads[th].nregs; i++)
      h = (h ^ (uint64_t)c->regs[th][i]) * 0x100000001b3ull;
  }
  for (i = 0; i < t->nlocs; i++)
    h = (h ^ (uint64_t)c->mem[i]) * 0x100000001b3ull;
  return h ^ (h >> 31);
}

/* 1 when this state was explored before; otherwise records it. */
static int sc_seen(scx *c) {
  uint64_t a = sc_hash(c, 0xcbf29ce484222325ull);
  uint64_t b = sc_hash(c, 0x84222325cbf29ce4ull) | 1;
  size_t k = (size_t)a & (c->viscap - 1);
  if (c->vis == NULL)
    return 0;
  while (c->vis[2 * k + 1] != 0) {
    if (c->vis[2 * k] == a && c->vis[2 * k + 1] == b)
      return 1;
    k = (k + 1) & (c->viscap - 1);
  }
  if (c->nvis * 10 < c->viscap * 7) { /* keep the table at most 70% full */
    c->vis[2 * k] = a;
    c->vis[2 * k + 1] = b;
    c->nvis++;
  }
  return 0;
}

static void sc_dfs(scx *c, int depth);

/* One SC step of callback thread th (its next event at memory, or its
 * end), then the search below; everything is put back after. */
static void sc_step_cb(scx *c, int th, int depth) {
  cbthread *cb = c->cb[th];
  int nev = cb->nev, nexec = cb->nexec, nlv = cb->nlv;
  int fin = cb->finished, nm = cb->nomatch;
  if (cb->nexec == cb->nev && !cb->finished) {
    int ovf = 0;
    /* the histogram is only read here (grow = 0) */
    if (wl__cb_replay(c->h->ctx, c->t, (wl_hist *)c->h, 0, NULL, NULL, th, cb,
                  &ovf) != 0) {
      c->budget = -1; /* the callback failed: give up, weak unknown */
      return;
    }
    if (ovf) {
      c->cut = 1;
      goto out;
    }
  }
  if (cb->nexec == cb->nev) {
    memcpy(c->regs[th], cb->res, sizeof c->regs[th]);
    c->cbdone[th] = 1;
    sc_dfs(c, depth + 1);
    c->cbdone[th] = 0;
  } else {
    const cbev *e = &cb->ev[cb->nexec];
    int64_t saved = e->loc >= 0 ? c->mem[e->loc] : 0;
    switch (e->kind) {
    case CB_LOAD:
      cb->lv[cb->nlv++] = c->mem[e->loc];
      break;
    case CB_STORE:
      c->mem[e->loc] = e->a;
      break;
    case CB_ATOM:
      cb->lv[cb->nlv++] = saved;
      if (!(e->op == WL_OP_CAS && saved != e->a))
        c->mem[e->loc] =
            wl__aop_typed(c->t->loctype[e->loc], e->op, saved, e->a, e->b);
      break;
    default:
      break; /* fences and barriers: no-ops in an interleaving */
    }
    cb->nexec++;
    sc_dfs(c, depth + 1);
    if (e->loc >= 0)
      c->mem[e->loc] = saved;
  }
out:
  cb->nev = nev;
  cb->nexec = nexec;
  cb->nlv = nlv;
  cb->finished = fin;
  cb->nomatch = nm;
}

/* Depth-first over interleavings (barriers and loops make it partial:
 * with a budget, outcomes not reached are simply not called weak). */
static void sc_dfs(scx *c, int depth) {
  const wl_litmus *t = c->t;
  int th, any = 0;
  if (--c->budget < 0)
    return;
  if ((c->steps++ & 4095) == 0 && c->h->stop != NULL &&
      c->h->stop(c->h->stop_ud)) {
    c->budget = -1; /* weak unknown, and not kept: asked again, searched */
    c->stopped = 1;
    return;
  }
  if (depth > 200) {
    c->cut = 1; /* outcomes past here are unknown, not weak */
    return;
  }
  if (sc_seen(c))
    return; /* everything reachable from here was found already */
  for (th = 0; th < t->nthreads; th++) {
    const wl_thread *tt = &t->threads[th];
    const wl_insn *in;
    int saved_pc = c->pc[th];
    int64_t saved_reg = 0, saved_mem = 0;
    int dst = -1, loc = -1;
    if (c->cb[th] != NULL) {
      if (!c->cbdone[th]) {
        any = 1;
        sc_step_cb(c, th, depth);
      }
      continue;
    }
    if (c->pc[th] >= tt->ninsns)
      continue;
    in = &tt->insns[c->pc[th]];
    any = 1;
    if (in->op == OP_BAR) {
      /* barriers only order; in an interleaving they are no-ops */
      c->pc[th]++;
      sc_dfs(c, depth + 1);
      c->pc[th] = saved_pc;
      continue;
    }
    if (in->dst >= 0)
      saved_reg = c->regs[th][dst = in->dst];
    if (in->loc >= 0)
      saved_mem = c->mem[loc = in->loc];
    {
      int64_t a = in->a.is_reg ? c->regs[th][in->a.reg] : in->a.imm;
      int64_t b = in->b.is_reg ? c->regs[th][in->b.reg] : in->b.imm;
      int jump = -1;
      switch (in->op) {
      case OP_MOV:
        c->regs[th][in->dst] = a;
        break;
      case OP_ALU:
        c->regs[th][in->dst] = wl__aop_apply(in->aop, a, b, 0);
        break;
      case OP_LD:
        c->regs[th][in->dst] = c->mem[in->loc];
        break;
      case OP_ST:
        c->mem[in->loc] = a;
        break;
      case OP_ATOM:
      case OP_RED: {
        int64_t old = c->mem[in->loc];
        if (!(in->aop == AOP_CAS && old != a))
          c->mem[in->loc] =
              wl__aop_typed(t->loctype[in->loc], in->aop, old, a, b);
        if (in->op == OP_ATOM)
          c->regs[th][in->dst] = old;
        break;
      }
      case OP_BRANCH:
        if (wl__cond_holds(in->cond, a, b))
          jump = in->target;
        break;
      case OP_GOTO:
        jump = in->target;
        break;
      default:
        break;
      }
      c->pc[th] = jump >= 0 ? jump : c->pc[th] + 1;
    }
    sc_dfs(c, depth + 1);
    c->pc[th] = saved_pc;
    if (dst >= 0)
      c->regs[th][dst] = saved_reg;
    if (loc >= 0)
      c->mem[loc] = saved_mem;
  }
  if (!any) {
    /* a final state: mark the outcome it matches */
    long k;
    int64_t vals[WL_MAX_THREADS * WL_MAX_REGS + WL_MAX_LOCS];
    for (th = 0; th < t->nthreads; th++) {
      if (c->cb[th] != NULL && c->cb[th]->nomatch)
        return; /* a result no sampled outcome has */
      memcpy(vals + c->h->lay.regoff[th], c->regs[th],
             (size_t)nreg(c->h, th) * sizeof vals[0]);
    }
    memcpy(vals + c->h->lay.regoff[t->nthreads], c->mem,
           (size_t)t->nlocs * sizeof vals[0]);
    k = wl__hist_find(c->h, vals);
    if (k >= 0)
      c->sc[k] = 1;
  }
}

/* Marks the outcomes sequential consistency cannot produce. */
int wl__hist_compute_weak(wl_hist *h) {
  const wl_litmus *t = h->t;
  scx *c;
  uint8_t *sc;
  size_t i;
  int th;
  wl__free(h->ctx, h->weak, h->nweak);
  h->weak = NULL;
  h->nweak = 0;
  sc = wl__calloc(h->ctx, h->n + 1);
  c = wl__calloc(h->ctx, sizeof *c);
  if (sc == NULL || c == NULL) {
    wl__free(h->ctx, sc, h->n + 1);
    wl__free(h->ctx, c, sizeof *c);
    return wl__err(h->ctx, WL_ENOMEM, "out of memory");
  }
  c->t = t;
  c->h = h;
  c->sc = sc;
  c->budget = 2000000;
  c->viscap = SC_VISCAP;
  c->vis = wl__calloc(h->ctx, 2 * SC_VISCAP * sizeof *c->vis);
  if (c->vis == NULL) {
    wl__free(h->ctx, sc, h->n + 1);
    wl__free(h->ctx, c, sizeof *c);
    return wl__err(h->ctx, WL_ENOMEM, "out of memory");
  }
  for (th = 0; th < t->nthreads; th++)
    memcpy(c->regs[th], t->threads[th].reginit, sizeof c->regs[th]);
  memcpy(c->mem, t->locinit, sizeof c->mem);
  for (th = 0; th < t->nthreads; th++)
    if (t->threads[th].fn != NULL &&
        (c->cb[th] = wl__calloc(h->ctx, sizeof *c->cb[th])) == NULL)
      c->budget = -1; /* out of memory: weak unknown */
  if (c->budget >= 0)
    sc_dfs(c, 0);
  for (th = 0; th < t->nthreads; th++)
    wl__free(h->ctx, c->cb[th], sizeof *c->cb[th]);
  h->weak_known = c->budget >= 0 && !c->cut;
  for (i = 0; i < h->n; i++)
    sc[i] = !sc[i]; /* reachable under SC -> not weak */
  if (c->stopped) {
    wl__free(h->ctx, sc, h->n + 1);
  } else {
    h->weak = sc;
    h->nweak = h->n + 1;
  }
  wl__free(h->ctx, c->vis, 2 * SC_VISCAP * sizeof *c->vis);
  wl__free(h->ctx, c, sizeof *c);
  return 0;
}
