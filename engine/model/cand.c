/* cand.c -- candidate executions for the literal cat evaluator.
 *
 * Representation: one wl__cand holds the base sets and relations of the
 * candidate being built (cat/cat.h lists them).  The static part (event
 * classes, po, loc, dependencies, scopes, barrier phases) is filled once
 * per combination of traces; reads-from, coherence and the fence-SC
 * order are then enumerated plainly:
 *   - rf: every read may read any write of its physical location that
 *     writes the value the read returned (the traces fixed the values);
 *     nothing else is excluded, not even po-later writes: the model
 *     decides;
 *   - co: per location, every strict partial order of its writes with
 *     the initial write first (ptx-v6.0.cat: "the co in PTX is not
 *     total"), each built once by inserting writes one at a time;
 *   - the fence-SC order: every total order of the fence.sc events,
 *     as the sync_fence relation it induces (its morally strong pairs);
 *     orders that induce the same relation are one candidate, since the
 *     model sees nothing else of them.
 * The model is evaluated on every candidate (wl__cat_check); a
 * consistent one is reported once per choice of final writes (any
 * co-maximal write of each location). */
#include <string.h>

#include "cand.h"

#define MAXSF 5040 /* distinct sync_fence relations kept (7!) */
/* fence.sc in one execution: the cat evaluator enumerates their orders
 * whole, so it keeps the limit the built-in explorer had (which now
 * orders them pair by pair, up to WL_MAX_SCF) */
#define CAND_MAX_SCF 8

struct wl__candx {
  wl_ctx *ctx;
  const wl_cat *m;
  const wl_litmus *t;
  wl__cat_scratch *scr;
  wl__cand c;
  int use_sf;
  uint64_t prune; /* checks that may judge a partial rf and co */
  /* base relations and sets written since the model last saw c
   * (wl__cat_eval reuses every value that depends on none of them) */
  uint64_t dirty_rels, dirty_sets;
  uint64_t count;
  struct xp *x;
  exe *E;
  /* writes of each used location (event indices), init first */
  int nl;
  int lw[WL_MAX_LOCS][WL_MAX_EVENTS];
  int nlw[WL_MAX_LOCS];
  /* distinct sync_fence relations of this combination, each with one
   * fence order inducing it */
  int nsf;
  uint64_t (*sf)[CAND_MAX_SCF];
  int (*sforder)[CAND_MAX_SCF];
};

int wl__candx_new(wl_ctx *ctx, const wl_cat *m, const wl_litmus *t,
                  wl__candx **out) {
  wl__candx *c = wl__calloc(ctx, sizeof *c);
  *out = NULL;
  if (c == NULL)
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  c->ctx = ctx;
  c->m = m;
  c->t = t;
  c->use_sf = wl__cat_uses_rel(m, WL_CAT_R_SYNC_FENCE);
  c->prune = wl__cat_monotone_checks(
      m,
      (1u << WL_CAT_R_RF) | (1u << WL_CAT_R_CO) | (1u << WL_CAT_R_FR), ctx);
  c->sf = wl__alloc(ctx, MAXSF * sizeof *c->sf);
  c->sforder = wl__alloc(ctx, MAXSF * sizeof *c->sforder);
  if (c->sf == NULL || c->sforder == NULL ||
      wl__cat_scratch_new(ctx, m, &c->scr) != 0) {
    wl__candx_free(c);
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  }
  *out = c;
  return 0;
}

void wl__candx_free(wl__candx *c) {
  if (c == NULL)
    return;
  wl__cat_scratch_free(c->scr);
  wl__free(c->ctx, c->sf, MAXSF * sizeof *c->sf);
  wl__free(c->ctx, c->sforder, MAXSF * sizeof *c->sforder);
  wl__free(c->ctx, c, sizeof *c);
}

uint64_t wl__candx_count(const wl__candx *c) { return c->count; }

/* ---------------- the static part ---------------- */

/* An event with a scope: strong accesses, fences and barriers. */
static int scoped(const wl_ev *e) {
  if (e->type == EV_F || e->type == EV_B)
    return 1;
  return e->sem != WL_SEM_WEAK && e->scope != WL_SCOPE_NONE;
}

static void fill_static(wl__candx *c, const exe *E) {
  const wl_litmus *t = c->t;
  wl__cand *k = &c->c;
  int n = E->n, i, j;
  wl_assert(n >= 0 && n <= WL_CAT_MAXEV); /* wl__candx_run checked it */
  memset(k, 0, sizeof *k);
  k->n = n;
  c->dirty_rels = c->dirty_sets = ~0ull;
  k->set[WL_CAT_S_ALL] = n == 64 ? ~0ull : (1ull << n) - 1;
  for (i = 0; i < n; i++) {
    const wl_ev *e = &E->ev[i];
    uint64_t b = 1ull << i;
    int mem = e->type == EV_R || e->type == EV_W;
    switch (e->type) {
    case EV_R:
      k->set[WL_CAT_S_R] |= b;
      break;
    case EV_W:
      k->set[WL_CAT_S_W] |= b;
      break;
    case EV_B:
      k->set[WL_CAT_S_B] |= b;
      k->set[WL_CAT_S_F] |= b;
      break;
    default:
      k->set[WL_CAT_S_F] |= b;
      break;
    }
    if (mem)
      k->set[WL_CAT_S_M] |= b;
    if (E->thread[i] < 0)
      k->set[WL_CAT_S_IW] |= b;
    if (e->rmw)
      k->set[WL_CAT_S_RMW] |= b;
    if (mem) {
      if (e->sem == WL_SEM_WEAK)
        k->set[WL_CAT_S_WEAK] |= b;
      else if (e->sem == WL_SEM_RELAXED)
        k->set[WL_CAT_S_RLX] |= b;
      else if (e->sem == WL_SEM_ACQUIRE && e->type == EV_R)
        k->set[WL_CAT_S_ACQ] |= b;
      else if (e->sem == WL_SEM_RELEASE && e->type == EV_W)
        k->set[WL_CAT_S_REL] |= b;
    } else if (e->type == EV_F) {
      /* FenceSC extends FenceAcqRel (PTX ISA 6.0, 8.7.2) */
      if (e->sem == WL_SEM_SC)
        k->set[WL_CAT_S_SC] |= b;
      if (e->sem == WL_SEM_SC || e->sem == WL_SEM_ACQ_REL)
        k->set[WL_CAT_S_ACQ_REL] |= b;
      if (e->alias)
        k->set[WL_CAT_S_ALIAS] |= b;
    }
    if (E->thread[i] >= 0 && scoped(e)) {
      int s = e->type == EV_B ? WL_SCOPE_CTA : e->scope;
      if (s == WL_SCOPE_CTA)
        k->set[WL_CAT_S_CTA] |= b;
      else if (s == WL_SCOPE_GPU)
        k->set[WL_CAT_S_GPU] |= b;
      else if (s == WL_SCOPE_SYS)
        k->set[WL_CAT_S_SYS] |= b;
    }
    switch (e->proxy) {
    case WL_PROXY_SUR:
      k->set[WL_CAT_S_SUR] |= b;
      break;
    case WL_PROXY_TEX:
      k->set[WL_CAT_S_TEX] |= b;
      break;
    case WL_PROXY_CON:
      k->set[WL_CAT_S_CON] |= b;
      break;
    default:
      k->set[WL_CAT_S_GEN] |= b;
      break;
    }
    k->rel[WL_CAT_R_ID][i] = b;
    /* the cat evaluator's rows are one word (E->n <= WL_CAT_MAXEV) */
    k->rel[WL_CAT_R_PO][i] = E->po[i].w[0];
    k->rel[WL_CAT_R_POLOC][i] = E->poloc[i].w[0];
    k->rel[WL_CAT_R_RMWR][i] = E->rmw[i].w[0];
  }
  /* dependencies: E->ev[a].cdeps/ddeps name trace-local reads */
  {
    int base = E->ninit, th;
    for (th = 0; th < t->nthreads; th++) {
      int m = E->tr[th]->nev;
      for (i = 0; i < m; i++) {
        int a = base + i;
        uint64_t d = E->ev[a].ddeps, cd = E->ev[a].cdeps;
        while (d) {
          int r = __builtin_ctzll(d);
          d &= d - 1;
          k->rel[WL_CAT_R_DATA][base + r] |= 1ull << a;
        }
        while (cd) {
          int r = __builtin_ctzll(cd);
          cd &= cd - 1;
          k->rel[WL_CAT_R_CTRL][base + r] |= 1ull << a;
        }
      }
      base += m;
    }
  }
  for (i = 0; i < n; i++) {
    const wl_ev *a = &E->ev[i];
    int mi = a->type == EV_R || a->type == EV_W, ti = E->thread[i];
    for (j = 0; j < n; j++) {
      const wl_ev *b = &E->ev[j];
      int mj = b->type == EV_R || b->type == EV_W, tj = E->thread[j];
      uint64_t bj = 1ull << j;
      if (mi && mj && a->loc == b->loc)
        k->rel[WL_CAT_R_LOC][i] |= bj;
      if (mi && mj && a->vloc == b->vloc)
        k->rel[WL_CAT_R_VLOC][i] |= bj;
      /* init writes belong to no thread: each is only int to itself */
      if ((ti >= 0 && ti == tj) || i == j)
        k->rel[WL_CAT_R_INT][i] |= bj;
      else
        k->rel[WL_CAT_R_EXT][i] |= bj;
      if (ti < 0 || tj < 0)
        continue;
      if (t->threads[ti].cta == t->threads[tj].cta &&
          t->threads[ti].gpu == t->threads[tj].gpu)
        k->rel[WL_CAT_R_SCTA][i] |= bj;
      /* sr: the scope half of morally strong, as the cat's base
       * relation (the cat intersects it with its strong-operation) */
      if (scoped(a) && scoped(b)) {
        int sa = a->type == EV_B ? WL_SCOPE_CTA : a->scope;
        int sb = b->type == EV_B ? WL_SCOPE_CTA : b->scope;
        if (wl__scopes_meet(sa, &t->threads[ti], sb, &t->threads[tj]))
          k->rel[WL_CAT_R_SR][i] |= bj;
      }
      /* syncbar: an arrival and the waits of other threads in the same
       * phase of one barrier */
      if (a->type == EV_B && b->type == EV_B && E->phase[i] >= 0 &&
          E->phase[i] == E->phase[j] && ti != tj && b->bar_kind == BAR_SYNC)
        k->rel[WL_CAT_R_SYNCBAR][i] |= bj;
    }
  }
}

/* Morally strong (strength.h), for fence pairs: program order, or both
 * scopes include the other's thread (fences are strong operations, with
 * no location to overlap; all are generic).  Only here does the
 * candidate builder judge morally strong itself: sync_fence is a base
 * relation the cat reads, so the candidate must hold it.  Everywhere
 * else it gives the cat the base sets (strong accesses by their tags,
 * scopes) and sr, and the cat file composes morally-strong, sync and
 * cause from them as it words them: the evaluator checks the model's
 * text, so it must not receive relations the built-in explorer already
 * derived (fill_static's sr is the scope half, per the cat's "sr"). */
static int fences_ms(const wl__candx *c, const exe *E, int a, int b) {
  const wl_thread *ta = &c->t->threads[E->thread[a]];
  const wl_thread *tb = &c->t->threads[E->thread[b]];
  wl__msop oa = {1, E->ev[a].scope, ta->cta, ta->gpu};
  wl__msop ob = {1, E->ev[b].scope, tb->cta, tb->gpu};
  return wl__morally_strong(E->thread[a] == E->thread[b], 1, oa, ob);
}

/* Collects the distinct sync_fence relations over every total order of
 * the fence.sc events (Heap-free: permutations by recursion). */
static int sf_collect(wl__candx *c, const exe *E, int k, int *ord,
                      uint64_t used) {
  int i, j, s;
  if (k == E->nscf) {
    uint64_t rows[CAND_MAX_SCF];
    memset(rows, 0, sizeof rows);
    for (i = 0; i < E->nscf; i++)
      for (j = i + 1; j < E->nscf; j++) {
        int a = ord[i], b = ord[j];
        if (fences_ms(c, E, E->scf[a], E->scf[b]))
          rows[a] |= 1ull << E->scf[b];
      }
    for (s = 0; s < c->nsf; s++)
      if (memcmp(c->sf[s], rows, sizeof rows) == 0)
        return 0;
    if (c->nsf == MAXSF)
      return wl__err(c->ctx, WL_ELIMIT,
                     "%s: too many fence-SC orders for the cat evaluator",
                     c->t->name);
    memcpy(c->sf[c->nsf], rows, sizeof rows);
    memcpy(c->sforder[c->nsf], ord, sizeof c->sforder[0]);
    c->nsf++;
    return 0;
  }
  for (i = 0; i < E->nscf; i++) {
    int r;
    if (used >> i & 1)
      continue;
    ord[k] = i;
    if ((r = sf_collect(c, E, k + 1, ord, used | 1ull << i)) != 0)
      return r;
  }
  return 0;
}

/* ---------------- the choices ---------------- */

/* Reports the consistent candidate once per choice of final writes:
 * location li's co-maximal writes in turn, each placed last in a linear
 * extension of co. */
static int report(wl__candx *c, int li) {
  exe *E = c->E;
  const uint64_t *co = c->c.rel[WL_CAT_R_CO];
  int l, i, r;
  uint64_t maxes = 0, all = 0;
  if (li == c->nl) {
    void *ud;
    wl__cat_observe_fn see = wl__cat_observer(c->m, &ud);
    /* explanations (model/whynot.c) watch the consistent candidates */
    if (see != NULL && (r = see(ud, &c->c, E)) != 0)
      return r;
    return wl__explore_found(c->x, E);
  }
  l = E->locs[li];
  for (i = 0; i < c->nlw[l]; i++)
    all |= 1ull << c->lw[l][i];
  for (i = 0; i < c->nlw[l]; i++) {
    int w = c->lw[l][i];
    if ((co[w] & all) == 0)
      maxes |= 1ull << w;
  }
  while (maxes) {
    int last = __builtin_ctzll(maxes);
    uint64_t left = all & ~(1ull << last);
    maxes &= maxes - 1;
    E->nwl[l] = 0;
    /* a linear extension: repeatedly take a write with no predecessor
     * left */
    while (left) {
      uint64_t m = left;
      int pick = -1;
      while (m) {
        int w = __builtin_ctzll(m);
        int p, ok = 1;
        m &= m - 1;
        for (p = 0; p < c->nlw[l] && ok; p++) {
          int q = c->lw[l][p];
          if ((left >> q & 1) && (co[q] >> w & 1))
            ok = 0;
        }
        if (ok) {
          pick = w;
          break;
        }
      }
      E->wl[l][E->nwl[l]++] = pick;
      left &= ~(1ull << pick);
    }
    E->wl[l][E->nwl[l]++] = last;
    if ((r = report(c, li + 1)) != 0)
      return r;
  }
  return 0;
}

/* fr = rf^-1 ; co, minus the identity */
static void update_fr(wl__cand *k) {
  int n = k->n, i;
  memset(k->rel[WL_CAT_R_FR], 0, sizeof k->rel[WL_CAT_R_FR]);
  for (i = 0; i < n; i++) {
    uint64_t readers = k->rel[WL_CAT_R_RF][i];
    while (readers) {
      int rd = __builtin_ctzll(readers);
      readers &= readers - 1;
      k->rel[WL_CAT_R_FR][rd] |= k->rel[WL_CAT_R_CO][i] & ~(1ull << rd);
    }
  }
}

/* Whether the partial candidate (rf and co so far) may still complete
 * to a consistent one: the checks that only fail more as rf and co grow
 * (wl__cat_monotone_checks) hold on it.  An allocation failure of the
 * evaluator counts as "may": the full check reports it. */
/* Evaluates the model on the candidate (all checks, or those of only
 * when partial), telling it what changed since it last saw one. */
static int eval(wl__candx *c, int partial, uint64_t only, wl__cat_out *out) {
  int r;
  if (c->dirty_rels & ((1ull << WL_CAT_R_RF) | (1ull << WL_CAT_R_CO))) {
    update_fr(&c->c);
    c->dirty_rels |= 1ull << WL_CAT_R_FR;
  }
  r = wl__cat_eval(c->m, c->scr, &c->c, c->dirty_rels, c->dirty_sets,
                   partial, only, out);
  c->dirty_rels = c->dirty_sets = 0;
  return r;
}

static int may_complete(wl__candx *c) {
  wl__cat_out out;
  if (c->prune == 0)
    return 1;
  if (eval(c, 1, c->prune, &out) != 0)
    return 1; /* a stop: the next check() reports it */
  return out.consistent;
}

static int check(wl__candx *c) {
  wl__cat_out out;
  int r;
  c->count++;
  if (wl__explore_stop(c->x))
    return WL_ESTOPPED;
  if ((r = eval(c, 0, 0, &out)) == WL_ESTOPPED)
    return r; /* the explorer's stop: its message is set */
  if (r != 0)
    return wl__err(c->ctx, r, "out of memory");
  if (!out.consistent)
    return 0;
  return report(c, 0);
}

/* Inserts write wi (index into location li's writes) into every place of
 * the partial order built on the writes before it, then goes on. */
static int co_dfs(wl__candx *c, int li, int wi) {
  exe *E = c->E;
  uint64_t *co = c->c.rel[WL_CAT_R_CO];
  int l, i, w, np, r;
  uint64_t D, U, prev = 0;
  if (li == c->nl)
    return check(c);
  l = E->locs[li];
  if (wi == c->nlw[l])
    return co_dfs(c, li + 1, 1);
  w = c->lw[l][wi];
  /* the initial write (index 0) precedes every write */
  np = wi - 1;
  for (i = 1; i < wi; i++)
    prev |= 1ull << c->lw[l][i];
  if (np > 20)
    return wl__err(c->ctx, WL_ELIMIT,
                   "%s: too many writes to one location for the cat "
                   "evaluator",
                   c->t->name);
  /* D: the writes below w (down-closed), U: above w (up-closed), every
   * d in D already below every u in U, so that order stays transitive
   * and its restriction to the earlier writes is unchanged */
  for (D = 0;; D = (D - prev) & prev) {
    int ok = 1;
    uint64_t m = D;
    while (m && ok) {
      int d = __builtin_ctzll(m);
      uint64_t below = 0;
      m &= m - 1;
      for (i = 1; i < wi; i++)
        if (co[c->lw[l][i]] >> d & 1)
          below |= 1ull << c->lw[l][i];
      if (below & ~D)
        ok = 0;
    }
    if (ok) {
      uint64_t avail = prev & ~D;
      for (U = 0;; U = (U - avail) & avail) {
        int ok2 = 1;
        m = U;
        while (m && ok2) {
          int u = __builtin_ctzll(m);
          m &= m - 1;
          if (co[u] & prev & ~U)
            ok2 = 0;
        }
        m = D;
        while (m && ok2) {
          int d = __builtin_ctzll(m);
          m &= m - 1;
          if ((co[d] & U) != U)
            ok2 = 0;
        }
        if (ok2) {
          uint64_t save[WL_MAX_EVENTS];
          int init = c->lw[l][0];
          for (i = 0; i < wi; i++)
            save[i] = co[c->lw[l][i]];
          m = D;
          while (m) {
            int d = __builtin_ctzll(m);
            m &= m - 1;
            co[d] |= 1ull << w;
          }
          co[init] |= 1ull << w;
          co[w] = U;
          c->dirty_rels |= 1ull << WL_CAT_R_CO;
          r = may_complete(c) ? co_dfs(c, li, wi + 1) : 0;
          for (i = 0; i < wi; i++)
            co[c->lw[l][i]] = save[i];
          co[w] = 0;
          c->dirty_rels |= 1ull << WL_CAT_R_CO;
          if (r != 0)
            return r;
        }
        if (U == avail)
          break;
      }
    }
    if (D == prev)
      break;
  }
  return 0;
}

static int rf_dfs(wl__candx *c, int k) {
  exe *E = c->E;
  int r, w, rd;
  if (k == E->nreads)
    return co_dfs(c, 0, 1);
  rd = E->reads[k];
  for (w = 0; w < E->n; w++) {
    const wl_ev *ew = &E->ev[w];
    if (ew->type != EV_W || ew->loc != E->ev[rd].loc ||
        ew->val != E->ev[rd].val)
      continue;
    E->rf[rd] = w;
    c->c.rel[WL_CAT_R_RF][w] |= 1ull << rd;
    c->dirty_rels |= 1ull << WL_CAT_R_RF;
    r = may_complete(c) ? rf_dfs(c, k + 1) : 0;
    c->c.rel[WL_CAT_R_RF][w] &= ~(1ull << rd);
    c->dirty_rels |= 1ull << WL_CAT_R_RF;
    if (r != 0)
      return r;
  }
  return 0;
}

/* The evaluator's stop (wl__cat_scratch_set_stop): the explorer's, so
 * that a model slow to evaluate on one candidate (a long let rec) is
 * stopped by --timeout and signals as the search is. */
static int eval_stop(void *ud) { return wl__explore_stop(ud); }

int wl__candx_run(wl__candx *c, struct xp *x, exe *E) {
  int i, li;
  c->x = x;
  c->E = E;
  wl__cat_scratch_set_stop(c->scr, eval_stop, x);
  if (E->n > WL_CAT_MAXEV)
    return wl__err(c->ctx, WL_ELIMIT,
                   "%s: an execution has %d events; the cat evaluator "
                   "takes at most %d (the built-in explorer %d)",
                   c->t->name, E->n, WL_CAT_MAXEV, WL_MAX_EVENTS);
  fill_static(c, E);
  memset(E->nwl, 0, sizeof E->nwl);
  /* the writes of each location, its initial write first */
  c->nl = E->nlocs;
  for (li = 0; li < E->nlocs; li++) {
    int l = E->locs[li];
    c->nlw[l] = 0;
    c->lw[l][c->nlw[l]++] = E->initloc[l];
    for (i = E->ninit; i < E->n; i++)
      if (E->ev[i].type == EV_W && E->ev[i].loc == l)
        c->lw[l][c->nlw[l]++] = i;
  }
  /* the fence-SC order first: the checks that judge partial candidates
   * (may_complete) read sync_fence as fixed */
  if (E->nscf > CAND_MAX_SCF)
    return wl__err(c->ctx, WL_ELIMIT,
                   "%s: an execution has %d fence.sc; the cat evaluator "
                   "takes at most %d (the built-in explorer %d)",
                   c->t->name, E->nscf, CAND_MAX_SCF, WL_MAX_SCF);
  for (i = 0; i < E->nscf; i++)
    E->scorder[i] = i;
  c->nsf = 0;
  if (!c->use_sf || E->nscf < 2)
    return may_complete(c) ? rf_dfs(c, 0) : 0;
  {
    int ord[CAND_MAX_SCF], r, s;
    if ((r = sf_collect(c, E, 0, ord, 0)) != 0)
      return r;
    for (s = 0; s < c->nsf; s++) {
      for (i = 0; i < E->nscf; i++) {
        c->c.rel[WL_CAT_R_SYNC_FENCE][E->scf[i]] = c->sf[s][i];
        E->scorder[i] = c->sforder[s][i];
      }
      c->dirty_rels |= 1ull << WL_CAT_R_SYNC_FENCE;
      if (may_complete(c) && (r = rf_dfs(c, 0)) != 0)
        return r;
    }
  }
  return 0;
}
