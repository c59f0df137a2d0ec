/* results.c -- final states, witnesses, and the wl_result API.
 * A state is every register of every thread, then every location; the
 * first consistent execution found per state is kept as its witness. */
#include <stdio.h>
#include <string.h>

#include "explore.h"

/* ---------------- results ---------------- */

static uint64_t hash_vals(const int64_t *v, int n) {
  uint64_t h = 1469598103934665603ull;
  int i;
  for (i = 0; i < n; i++) {
    h ^= (uint64_t)v[i];
    h *= 1099511628211ull;
    h ^= h >> 29;
  }
  return h;
}

/* A state's hash and equality over the values that tell states apart
 * (every value, or the observed ones: wl_explore_opts.observed_only). */
static uint64_t state_hash(const wl_result *r, const int64_t *v) {
  uint64_t h = 1469598103934665603ull;
  int i;
  if (r->key == NULL)
    return hash_vals(v, r->lay.nvals);
  for (i = 0; i < r->nkey; i++) {
    h ^= (uint64_t)v[r->key[i]];
    h *= 1099511628211ull;
    h ^= h >> 29;
  }
  return h;
}

static int state_eq(const wl_result *r, const int64_t *a, const int64_t *b) {
  int i;
  if (r->key == NULL)
    return memcmp(a, b, (size_t)r->lay.nvals * sizeof a[0]) == 0;
  for (i = 0; i < r->nkey; i++)
    if (a[r->key[i]] != b[r->key[i]])
      return 0;
  return 1;
}

/* observed_only: the values of the condition's variables and of the
 * test's "locations [...]" tell states apart; without either, every
 * value does (as the herd output shows them). */
int wl__xp_observed_key(xp *x) {
  wl_result *r = x->res;
  const wl_litmus *t = x->t;
  int i, n = 0, k;
  int nv = r->lay.nvals;
  r->keep = wl__calloc(x->ctx, (size_t)nv);
  if (r->keep == NULL)
    return x->err = wl__err(x->ctx, WL_ENOMEM, "out of memory");
  for (i = 0; i < t->ncnodes + t->nobserved; i++) {
    const wl_atom *at[2];
    if (i < t->ncnodes) {
      if (t->cnodes[i].kind != CN_CMP)
        continue;
      at[0] = &t->cnodes[i].a;
      at[1] = &t->cnodes[i].b;
    } else {
      at[0] = &t->observed[i - t->ncnodes];
      at[1] = NULL;
    }
    for (k = 0; k < 2; k++) {
      int v = -1;
      if (at[k] == NULL)
        continue;
      if (at[k]->kind == AT_REG)
        v = r->lay.regoff[at[k]->thread] + at[k]->reg;
      else if (at[k]->kind == AT_LOC)
        v = r->lay.regoff[t->nthreads] + at[k]->loc;
      if (v >= 0 && v < nv && !r->keep[v]) {
        r->keep[v] = 1;
        n++;
      }
    }
  }
  if (n == 0) { /* nothing observed: every value */
    wl__free(x->ctx, r->keep, (size_t)nv);
    r->keep = NULL;
    return 0;
  }
  r->key = wl__alloc(x->ctx, (size_t)n * sizeof *r->key);
  if (r->key == NULL)
    return x->err = wl__err(x->ctx, WL_ENOMEM, "out of memory");
  x->key_threads = 0;
  for (i = 0; i < nv; i++)
    if (r->keep[i]) {
      int th = wl__layout_thread(&r->lay, t, i);
      r->key[r->nkey++] = i;
      if (th >= 0 && th + 1 > x->key_threads)
        x->key_threads = th + 1;
    }
  /* symmetry: each class's members with an observed register (the
   * images' observations, known()), and a prefix decides the images'
   * observations only once every member of such a class is chosen */
  for (i = 0; i < x->nsym; i++) {
    int k2;
    x->nsymkey[i] = 0;
    for (k2 = 0; k2 < x->symn[i]; k2++) {
      int m2 = x->sym[i][k2], j;
      for (j = 0; j < t->threads[m2].nregs; j++)
        if (r->keep[r->lay.regoff[m2] + j])
          break;
      if (j < t->threads[m2].nregs)
        x->symkey[i][x->nsymkey[i]++] = m2;
    }
    if (x->nsymkey[i] > 0)
      for (k2 = 0; k2 < x->symn[i]; k2++)
        if (x->sym[i][k2] + 1 > x->key_threads)
          x->key_threads = x->sym[i][k2] + 1;
  }
  /* the threads with a trace the unroll bound cut (wl__xp_prefix_known) */
  for (i = 0; i < t->nthreads; i++) {
    size_t q;
    x->may_cut[i] = 0;
    for (q = 0; q < x->pool[i].traces.n; q++)
      x->may_cut[i] |= WL_VEC_PTR(&x->pool[i].traces, wl_trace, q)->cut == 1;
  }
  return 0;
}

static int res_grow_hash(xp *x, wl_result *r) {
  return wl__result_grow_hash(x->ctx, r);
}

int wl__result_grow_hash(wl_ctx *ctx, wl_result *r) {
  size_t cap = r->hcap ? r->hcap * 2 : 64, i;
  size_t *h = wl__calloc(ctx, cap * sizeof *h);
  if (h == NULL)
    return -1;
  for (i = 0; i < r->nstates; i++) {
    size_t k = state_hash(r, r->states[i].vals) & (cap - 1);
    while (h[k])
      k = (k + 1) & (cap - 1);
    h[k] = i + 1;
  }
  wl__free(ctx, r->htab, r->hcap * sizeof *r->htab);
  r->htab = h;
  r->hcap = cap;
  return 0;
}

static long state_find(const wl_result *r, const int64_t *vals);

/* The registers part of the state vector of E's combination of traces
 * (fixed before any reads-from is chosen). */
void wl__xp_state_regs(const xp *x, const exe *E, int64_t *vals) {
  const wl_result *r = x->res;
  const wl_litmus *t = x->t;
  int th, i;
  for (th = 0; th < t->nthreads; th++) {
    int nr = E->tr[th]->nregs;
    if (nr > t->threads[th].nregs)
      nr = t->threads[th].nregs;
    if (nr > 0) /* the pool may be empty: no memcpy from NULL */
      memcpy(vals + r->lay.regoff[th],
             &WL_VEC_AT(&x->pool[th].regs, int64_t, E->tr[th]->reg0),
             (size_t)nr * sizeof vals[0]);
    for (i = nr; i < t->threads[th].nregs; i++)
      vals[r->lay.regoff[th] + i] = t->threads[th].reginit[i];
  }
}

/* The index of the state with these values, or -1. */
long wl__result_find(const wl_result *r, const int64_t *vals) {
  return state_find(r, vals);
}

/* Whether the state is known: found by this search, or in the states
 * it was given as known (r->known: a unit of a split exploration). */
static int found(const wl_result *r, const int64_t *vals) {
  return state_find(r, vals) >= 0 ||
         (r->known != NULL && state_find(r->known, vals) >= 0);
}

/* Whether any state is known (found, or given). */
static int any_known(const wl_result *r) {
  return r->nstates > 0 || (r->known != NULL && r->known->nstates > 0);
}

int wl__result_any_known(const wl_result *r) { return any_known(r); }

static long state_find(const wl_result *r, const int64_t *vals) {
  size_t k;
  if (r->hcap == 0)
    return -1;
  k = state_hash(r, vals) & (r->hcap - 1);
  while (r->htab[k]) {
    const wl_state *st = &r->states[r->htab[k] - 1];
    if (state_eq(r, st->vals, vals))
      return (long)(r->htab[k] - 1);
    k = (k + 1) & (r->hcap - 1);
  }
  return -1;
}

/* Whether the reductions that skip what is known are on. */
static int pruning(const xp *x) {
  return x->opts == NULL || !x->opts->no_prefix;
}

/* The images of a state under the permutations of interchangeable
 * threads (symmetry.c) are states too, and the search finds only one
 * of each orbit: a state counts as known only when every image of it is.
 * With every value telling states apart, the recorded states are closed
 * under the permutations (each is recorded with its images), so the
 * state itself decides; with the observed values only (r->key), the
 * image's observed registers come from other threads, so each image's
 * observation is looked up: for each class, every injection of its
 * members into its members that hold an observed register
 * (x->symkey).  img holds vals with the images' registers written in
 * place, class by class. */
static int images_known(const xp *x, const int64_t *vals, int64_t *img,
                        int c, int k, uint32_t used) {
  const wl_result *r = x->res;
  int p, s, m;
  if (c == x->nsym)
    return found(r, img);
  if (k == x->nsymkey[c])
    return images_known(x, vals, img, c + 1, 0, 0);
  p = x->symkey[c][k]; /* the observed member whose registers are chosen */
  m = x->symn[c];
  for (s = 0; s < m; s++) {
    int src = x->sym[c][s], nr = x->t->threads[p].nregs;
    if (used >> s & 1)
      continue;
    if (nr > 0)
      memcpy(img + r->lay.regoff[p], vals + r->lay.regoff[src],
             (size_t)nr * sizeof img[0]);
    if (!images_known(x, vals, img, c, k + 1, used | 1u << s))
      return 0;
  }
  return 1;
}

static int known(const xp *x, const int64_t *vals) {
  const wl_result *r = x->res;
  int64_t img[NVALS];
  if (!found(r, vals))
    return 0;
#ifdef WL_MUTANT_IMAGES
  /* the mutation check (tests/cli/mutant_images.sh): the identity only,
   * as before the images were looked up -- props must fail */
  return 1;
#endif
  if (x->nsym == 0 || r->key == NULL)
    return 1;
  memcpy(img, vals, (size_t)r->lay.nvals * sizeof img[0]);
  return images_known(x, vals, img, 0, 0, 0);
}

/* Whether E's combination has a trace the unroll bound cut while the
 * bound is not reported yet: then its executions are searched whatever
 * states are known, since one consistent execution of it is what the
 * loop flag reports (wl_result_bound_hit); skipping it as known would
 * make the flag depend on what the search happened to find first (and
 * a split exploration's units know less than the whole search). */
int wl__xp_cut_unreported(const xp *x, const exe *E) {
  int th;
  if (x->res->bound_hit || x->mode != XP_STATES)
    return 0;
  for (th = 0; th < x->t->nthreads; th++)
    if (E->tr[th]->cut == 1)
      return 1;
  return 0;
}

/* States mode: whether the state aimed at (the combination's registers,
 * the co-last writes chosen in E->last) is known already. */
int wl__xp_target_known(xp *x, const exe *E) {
  const wl_litmus *t = x->t;
  int64_t *vals = x->vals; /* its registers part set by explore_combo */
  int l, off = x->res->lay.regoff[t->nthreads];
  for (l = 0; l < t->nlocs; l++)
    vals[off + l] = E->initloc[l] >= 0 ? E->ev[E->last[l]].val : t->locinit[l];
  return pruning(x) && known(x, vals);
}

#define KNOWN_TUPLES 256 /* tuples of final values tried in all */

/* Adds v to a location's candidate final values (once); -1 past
 * KNOWN_VALS. */
static int cv_add(int64_t *cv, int *n, int64_t v) {
  int k;
  for (k = 0; k < *n; k++)
    if (cv[k] == v)
      return 0;
  if (*n == KNOWN_VALS)
    return -1;
  cv[(*n)++] = v;
  return 0;
}

/* Whether the state vals is known with every tuple of final values of
 * the locations loc[0..n-1] (ncv[i] candidates cv[i] each): an
 * odometer over the tuples, vals' other values fixed. */
static int tuples_known(const xp *x, int64_t *vals, int off, int n,
                        const int *loc, int64_t (*cv)[KNOWN_VALS],
                        const int *ncv) {
  int at[WL_MAX_LOCS], i;
  long total = 1;
  for (i = 0; i < n; i++) {
    at[i] = 0;
    vals[off + loc[i]] = cv[i][0];
    if ((total *= ncv[i]) > KNOWN_TUPLES)
      return 0;
  }
  for (;;) {
    if (!known(x, vals))
      return 0;
    for (i = 0; i < n && ++at[i] == ncv[i]; i++) {
      at[i] = 0;
      vals[off + loc[i]] = cv[i][0];
    }
    if (i == n)
      return 1;
    vals[off + loc[i]] = cv[i][at[i]];
  }
}

/* States mode: whether every state E's combination of traces could
 * reach is known already: its registers are fixed, and the final value
 * of each location is its initial value or one its writes store.  Works
 * from the traces alone (before or after wl__xp_build_exe); gives up (0) past
 * a few hundred candidate states. */
int wl__xp_combo_known(const xp *x, const exe *E) {
  const wl_litmus *t = x->t;
  int64_t vals[NVALS], cv[WL_MAX_LOCS][KNOWN_VALS];
  int ncv[WL_MAX_LOCS], loc[WL_MAX_LOCS], th, i, l, off;
  if (!any_known(x->res) || !pruning(x) || x->rf)
    return 0; /* the rf search's traces hold no values */
  off = x->res->lay.regoff[t->nthreads];
  wl__xp_state_regs(x, E, vals);
  memset(ncv, 0, sizeof ncv);
  for (th = 0; th < t->nthreads; th++) {
    const wl_trace *tr = E->tr[th];
    const wl_ev *ev = WL_VEC_PTR(&x->pool[th].ev, wl_ev, tr->ev0);
    for (i = 0; i < tr->nev; i++)
      if (ev[i].type == EV_W &&
          cv_add(cv[ev[i].loc], &ncv[ev[i].loc], ev[i].val) != 0)
        return 0;
  }
  for (l = 0; l < t->nlocs; l++) {
    loc[l] = l;
    if (x->res->keep != NULL && !x->res->keep[off + l])
      ncv[l] = 0; /* not observed: any one value stands for all */
    if (ncv[l] == 0) {
      cv[l][0] = t->locinit[l];
      ncv[l] = 1;
    }
  }
  return tuples_known(x, vals, off, t->nlocs, loc, cv, ncv);
}

/* observed_only: whether every state a combination starting with the
 * traces chosen for threads 0..th-1 could reach is known already: the
 * observed registers all belong to those threads, and each tuple of
 * final values the observed locations could take (their initial value,
 * a value a chosen trace writes, or one some trace of a later thread
 * writes) is known with them.  The search then skips every completion
 * of the prefix -- with a cut trace possible in it only once the bound
 * is reported, so that the loop flag is the same. */
int wl__xp_prefix_known(const xp *x, const wl_trace *const *chosen, int th) {
  const wl_result *r = x->res;
  const wl_litmus *t = x->t;
  int64_t vals[NVALS], cv[WL_MAX_LOCS][KNOWN_VALS];
  int ncv[WL_MAX_LOCS], kl[WL_MAX_LOCS], nkl = 0;
  int i, o, off = r->lay.regoff[t->nthreads];
  if (r->key == NULL || !any_known(r) || th < x->key_threads ||
      !pruning(x) || x->rf)
    return 0;
  if (!r->bound_hit)
    for (o = 0; o < t->nthreads; o++)
      if (o < th ? chosen[o]->cut == 1 : x->may_cut[o])
        return 0;
  memset(vals, 0, (size_t)r->lay.nvals * sizeof vals[0]);
  /* every register of the chosen threads: known() images them into
   * the observed members of their class */
  for (o = 0; o < th && x->nsym > 0; o++) {
    const wl_trace *tr = chosen[o];
    int reg;
    for (reg = 0; reg < t->threads[o].nregs; reg++)
      vals[r->lay.regoff[o] + reg] =
          reg < tr->nregs
              ? WL_VEC_AT(&x->pool[o].regs, int64_t, tr->reg0 + reg)
              : t->threads[o].reginit[reg];
  }
  for (i = 0; i < r->nkey; i++) {
    int v = r->key[i], l, j;
    if (v < off) { /* a register of a chosen thread */
      int tt = wl__layout_thread(&r->lay, t, v), reg = v - r->lay.regoff[tt];
      const wl_trace *tr = chosen[tt];
      vals[v] = reg < tr->nregs
                    ? WL_VEC_AT(&x->pool[tt].regs, int64_t, tr->reg0 + reg)
                    : t->threads[tt].reginit[reg];
      continue;
    }
    /* the values an observed location may end with */
    l = v - off;
    kl[nkl] = l;
    ncv[nkl] = 0;
    cv_add(cv[nkl], &ncv[nkl], t->locinit[l]);
    for (o = 0; o < t->nthreads; o++) {
      if (o < th) {
        const wl_ev *ev = WL_VEC_PTR(&x->pool[o].ev, wl_ev, chosen[o]->ev0);
        for (j = 0; j < chosen[o]->nev; j++)
          if (ev[j].type == EV_W && ev[j].loc == l &&
              cv_add(cv[nkl], &ncv[nkl], ev[j].val) != 0)
            return 0;
      } else {
        for (j = 0; j < x->wvals[o][l].n; j++)
          if (cv_add(cv[nkl], &ncv[nkl], x->wvals[o][l].v[j]) != 0)
            return 0;
      }
    }
    nkl++;
  }
  return tuples_known(x, vals, off, nkl, kl, cv, ncv);
}

/* The rf search's prefix check (rfsearch.c): whether every state with
 * the observed registers of vals (fixed by the partial execution) and
 * each tuple of the observed locations' candidate final values is
 * known (with its images). */
int wl__xp_obs_known(const xp *x, int64_t *vals, int nkl, const int *kl,
                     int64_t (*cv)[KNOWN_VALS], const int *ncv) {
  const wl_result *r = x->res;
  if (r->key == NULL || !any_known(r) || !pruning(x))
    return 0;
  return tuples_known(x, vals, r->lay.regoff[x->t->nthreads], nkl, kl, cv,
                      ncv);
}

int wl__xp_record_state(xp *x, exe *E) {
  return wl__xp_record_perm(x, E, NULL);
}

/* Records E's state with thread th renamed perm[th] (perm NULL: the
 * identity; symmetry.c passes the permutations of identical threads):
 * thread th's registers become perm[th]'s, and the witness lists the
 * renamed threads' events in thread order. */
int wl__xp_record_perm(xp *x, exe *E, const int *perm) {
  wl_result *r = x->res;
  const wl_litmus *t = x->t;
  int64_t vals[NVALS];
  int64_t *regp[WL_MAX_THREADS];
  int th, i, l, sat;
  int newi[WL_MAX_EVENTS];
  size_t k;
  wl_state *st;
  wl__xp_state_regs(x, E, vals);
  for (i = 0; i < E->n; i++)
    newi[i] = i;
  if (perm != NULL) {
    int64_t orig[NVALS];
    int start[WL_MAX_THREADS], inv[WL_MAX_THREADS], at = E->ninit;
    memcpy(orig, vals, (size_t)r->lay.regoff[t->nthreads] * sizeof vals[0]);
    for (th = 0; th < t->nthreads; th++) {
      /* identical threads have as many registers */
      memcpy(vals + r->lay.regoff[perm[th]], orig + r->lay.regoff[th],
             (size_t)t->threads[th].nregs * sizeof vals[0]);
      inv[perm[th]] = th;
    }
    for (th = 0, i = E->ninit; th < t->nthreads; th++) {
      start[th] = i;
      i += E->tr[th]->nev;
    }
    /* the renamed threads' blocks in thread order */
    for (th = 0; th < t->nthreads; th++) {
      int o = inv[th], j;
      for (j = 0; j < E->tr[o]->nev; j++)
        newi[start[o] + j] = at++;
    }
  }
  for (th = 0; th < t->nthreads; th++)
    regp[th] = vals + r->lay.regoff[th];
  for (l = 0; l < t->nlocs; l++) {
    int64_t v = t->locinit[l];
    if (E->initloc[l] >= 0 && E->nwl[l] > 0)
      v = E->ev[E->wl[l][E->nwl[l] - 1]].val;
    vals[r->lay.regoff[t->nthreads] + l] = v;
  }
  sat = t->has_cond ? wl__cond_eval(t, t->cond_root, regp,
                                    vals + r->lay.regoff[t->nthreads])
                    : 1;
  /* counting executions, each one counts; otherwise each state once
   * (a state may be found again: an image, the cat engine's search) */
  if (x->all) {
    if (sat)
      r->pos++;
    else
      r->neg++;
  }
  if (r->hcap == 0 || (r->nstates + 1) * 2 > r->hcap)
    if (res_grow_hash(x, r) != 0)
      return x->err = wl__err(x->ctx, WL_ENOMEM, "out of memory");
  k = state_hash(r, vals) & (r->hcap - 1);
  while (r->htab[k]) {
    st = &r->states[r->htab[k] - 1];
    if (state_eq(r, st->vals, vals)) {
      if (x->all)
        st->count++;
      return 0;
    }
    k = (k + 1) & (r->hcap - 1);
  }
  if (r->nstates == r->cap) {
    size_t cap = r->cap ? r->cap * 2 : 16;
    wl_state *p =
        wl__realloc(x->ctx, r->states, r->cap * sizeof *p, cap * sizeof *p);
    if (p == NULL)
      return x->err = wl__err(x->ctx, WL_ENOMEM, "out of memory");
    r->states = p;
    r->cap = cap;
  }
  st = &r->states[r->nstates];
  memset(st, 0, sizeof *st);
  st->vals = wl__alloc(x->ctx, (size_t)r->lay.nvals * sizeof vals[0]);
  st->wit = wl__alloc(x->ctx, (size_t)E->n * sizeof *st->wit);
  if (st->vals == NULL || st->wit == NULL) {
    wl__free(x->ctx, st->vals, (size_t)r->lay.nvals * sizeof vals[0]);
    wl__free(x->ctx, st->wit, (size_t)E->n * sizeof *st->wit);
    return x->err = wl__err(x->ctx, WL_ENOMEM, "out of memory");
  }
  memcpy(st->vals, vals, (size_t)r->lay.nvals * sizeof vals[0]);
  if (!x->all) {
    if (sat)
      r->pos++;
    else
      r->neg++;
  }
  st->sat = sat;
  st->count = 1;
  st->nwit = E->n;
  for (i = 0; i < E->n; i++) {
    wl_wit_ev *w = &st->wit[newi[i]];
    const wl_ev *e = &E->ev[i];
    w->thread = (int8_t)(perm != NULL && E->thread[i] >= 0
                             ? perm[E->thread[i]]
                             : E->thread[i]);
    w->type = e->type;
    w->sem = e->sem;
    w->scope = e->scope;
    w->rmw = e->rmw;
    w->bar_kind = e->bar_kind;
    w->loc = e->loc;
    w->val = e->type == EV_B ? e->bar_id : e->val;
    w->line = e->line;
    w->rf = (int16_t)(e->type == EV_R ? newi[E->rf[i]] : -1);
    w->co = -1;
    w->sc = -1;
    w->phase = E->phase[i];
  }
  for (l = 0; l < t->nlocs; l++)
    for (i = 0; E->initloc[l] >= 0 && i < E->nwl[l]; i++)
      st->wit[newi[E->wl[l][i]]].co = (int16_t)i; /* (E's locations only:
                                                   * the others' lists are
                                                   * an earlier one's) */
  for (i = 0; i < E->nscf; i++)
    st->wit[newi[E->scf[E->scorder[i]]]].sc = (int16_t)i;
  r->htab[k] = r->nstates + 1; /* k: the free slot the probe ended on */
  r->nstates++;
  return 0;
}

int wl__result_add(wl_ctx *ctx, wl_result *r, const wl_state *st) {
  wl_state *d;
  size_t k, nw = (size_t)(st->nwit > 0 ? st->nwit : 0);
  int nv = r->lay.nvals;
  if (r->hcap == 0 || (r->nstates + 1) * 2 > r->hcap)
    if (wl__result_grow_hash(ctx, r) != 0)
      return -1;
  if (r->nstates == r->cap) {
    size_t cap = r->cap ? r->cap * 2 : 16;
    wl_state *p =
        wl__realloc(ctx, r->states, r->cap * sizeof *p, cap * sizeof *p);
    if (p == NULL)
      return -1;
    r->states = p;
    r->cap = cap;
  }
  d = &r->states[r->nstates];
  memset(d, 0, sizeof *d);
  d->vals = wl__alloc(ctx, (size_t)nv * sizeof *d->vals);
  d->wit = nw > 0 ? wl__alloc(ctx, nw * sizeof *d->wit) : NULL;
  if (d->vals == NULL || (nw > 0 && d->wit == NULL)) {
    wl__free(ctx, d->vals, (size_t)nv * sizeof *d->vals);
    wl__free(ctx, d->wit, nw * sizeof *d->wit);
    return -1;
  }
  memcpy(d->vals, st->vals, (size_t)nv * sizeof *d->vals);
  if (nw > 0)
    memcpy(d->wit, st->wit, nw * sizeof *d->wit);
  d->nwit = (int)nw;
  d->sat = st->sat;
  d->count = st->count;
  k = state_hash(r, d->vals) & (r->hcap - 1);
  while (r->htab[k])
    k = (k + 1) & (r->hcap - 1);
  r->htab[k] = r->nstates + 1;
  r->nstates++;
  return 0;
}

void wl_result_free(wl_result *r) {
  size_t i;
  if (r == NULL)
    return;
  for (i = 0; i < r->nstates; i++) {
    wl__free(r->ctx, r->states[i].vals, (size_t)r->lay.nvals * sizeof(int64_t));
    wl__free(r->ctx, r->states[i].wit,
             (size_t)r->states[i].nwit * sizeof(wl_wit_ev));
  }
  wl__strfree(r->ctx, r->cond_override);
  wl__strfree(r->ctx, r->why);
  wl__free(r->ctx, r->states, r->cap * sizeof *r->states);
  wl__free(r->ctx, r->htab, r->hcap * sizeof *r->htab);
  wl__free(r->ctx, r->key, (size_t)r->nkey * sizeof *r->key);
  if (r->keep != NULL)
    wl__free(r->ctx, r->keep, (size_t)r->lay.nvals);
  wl__free(r->ctx, r, sizeof *r);
}

/* The verdict of the condition over the states found. */
void wl__xp_set_verdict(wl_result *r) {
  size_t s;
  int any = 0, all = 1;
  for (s = 0; s < r->nstates; s++) {
    if (r->states[s].sat)
      any = 1;
    else
      all = 0;
  }
  switch (r->cond_kind) {
  case WL_COND_EXISTS:
    r->verdict = any;
    break;
  case WL_COND_NOTEXISTS:
    r->verdict = !any;
    break;
  default:
    r->verdict = all;
    break;
  }
}

int wl_result_verdict(const wl_result *r) { return r->verdict; }
wl_cond_kind wl_result_cond_kind(const wl_result *r) {
  return (wl_cond_kind)r->cond_kind;
}
size_t wl_result_nstates(const wl_result *r) { return r->nstates; }
uint64_t wl_result_positive(const wl_result *r) { return r->pos; }
uint64_t wl_result_negative(const wl_result *r) { return r->neg; }
int wl_result_bound_hit(const wl_result *r) { return r->bound_hit; }
uint64_t wl_result_traces_cut(const wl_result *r) { return r->traces_cut; }
int wl_result_unroll(const wl_result *r) { return r->unroll; }
const char *wl_result_condition(const wl_result *r) {
  return r->cond_override ? r->cond_override
         : r->t->cond_text ? r->t->cond_text
                           : "true";
}

int wl_result_partial(const wl_result *r, const char **why) {
  if (why != NULL)
    *why = r != NULL && r->why != NULL ? r->why : "";
  return r != NULL ? r->partial : 0;
}

/* ---------------- results as values ---------------- */

int wl_result_nvars(const wl_result *r) { return r ? r->lay.nvals : 0; }

int wl_result_var_thread(const wl_result *r, int var) {
  return r == NULL ? -1 : wl__layout_thread(&r->lay, r->t, var);
}

const char *wl_result_var_name(const wl_result *r, int var) {
  return r == NULL ? NULL : wl__layout_name(&r->lay, r->t, var);
}

int64_t wl_result_value(const wl_result *r, size_t state, int var) {
  if (r == NULL || state >= r->nstates || var < 0 || var >= r->lay.nvals)
    return 0;
  return r->states[state].vals[var];
}

int wl_result_state_sat(const wl_result *r, size_t state) {
  return r != NULL && state < r->nstates ? r->states[state].sat : 0;
}

uint64_t wl_result_state_count(const wl_result *r, size_t state) {
  return r != NULL && state < r->nstates ? r->states[state].count : 0;
}

int wl_result_witness_nevents(const wl_result *r, size_t state) {
  return r != NULL && state < r->nstates ? r->states[state].nwit : 0;
}

int wl_result_witness_event(const wl_result *r, size_t state, int i,
                            wl_event_info *out) {
  const wl_wit_ev *e;
  static const char kinds[] = {'R', 'W', 'F', 'B'};
  if (r == NULL || out == NULL || state >= r->nstates || i < 0 ||
      i >= r->states[state].nwit)
    return WL_EINVAL;
  e = &r->states[state].wit[i];
  memset(out, 0, sizeof *out);
  out->thread = e->thread;
  out->kind = kinds[e->type & 3];
  out->loc = (e->type == EV_R || e->type == EV_W) ? e->loc : -1;
  out->value = e->val;
  out->sem = e->sem;
  out->scope = e->scope;
  out->line = e->line;
  out->rmw = e->rmw;
  out->rf = e->type == EV_R ? e->rf : -1;
  out->co = e->type == EV_W ? e->co : -1;
  out->sc = e->sc;
  out->phase = e->type == EV_B ? e->phase : -1;
  return 0;
}

int wl_result_set_sat(wl_result *r, size_t state, int sat) {
  if (r == NULL || state >= r->nstates)
    return WL_EINVAL;
  r->states[state].sat = sat != 0;
  return 0;
}

int wl_result_set_condition(wl_result *r, int kind, const char *text) {
  size_t s;
  int any = 0, all = 1;
  char *c = NULL;
  if (r == NULL || kind < WL_COND_EXISTS || kind > WL_COND_FORALL)
    return WL_EINVAL;
  if (text != NULL && (c = wl__strndup(r->ctx, text, strlen(text))) == NULL)
    return wl__err(r->ctx, WL_ENOMEM, "out of memory");
  wl__strfree(r->ctx, r->cond_override);
  r->cond_override = c;
  r->cond_kind = kind;
  r->has_cond = 1;
  r->pos = r->neg = 0;
  for (s = 0; s < r->nstates; s++) {
    if (r->states[s].sat) {
      any = 1;
      r->pos += r->states[s].count;
    } else {
      all = 0;
      r->neg += r->states[s].count;
    }
  }
  r->verdict = kind == WL_COND_EXISTS      ? any
               : kind == WL_COND_NOTEXISTS ? !any
                                           : all;
  return 0;
}

