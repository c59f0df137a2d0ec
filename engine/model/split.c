/* split.c -- one exploration split into units that run apart and merge
 * back into the result of the whole (wl_explore_split, wl_explore_unit,
 * wl_explore_merge in warplab.h): the engine side of `--jobs` on one
 * file, and of a later driver over MPI ranks.
 *
 * A unit is a prefix of the combination search: the traces (skeletons,
 * in the reads-from search) chosen for threads 0..d-1, the same depth d
 * for every unit.  Units are numbered in the search's own order, so the
 * search of every combination is the search of unit 0's, then unit
 * 1's, and so on.  Each worker prepares once (traces, value domains,
 * symmetry, layout: deterministic, so every worker numbers the units
 * the same) and then runs whichever units it is handed, each into a
 * result of its own, knowing only what that unit finds.
 *
 * Why the merge in unit order equals the whole search.  The search
 * skips only what is known already: a co-last choice whose state is
 * known, a combination or prefix whose every reachable state is known
 * (observed-only and prefix pruning), and each state's search stops at
 * its first consistent execution, its witness.  A unit searched alone
 * knows less, so it skips less, never more: it finds every state the
 * whole search finds in it, and each state first at the same place in
 * the search order, with the same witness (the first consistent
 * execution reaching it in that order; symmetry's images are recorded
 * with the state they image, at the same place).  So the whole
 * search's states, in order, are the units' states in unit order, each
 * kept where it first appears; its witness is that first unit's.  The
 * other reductions (symmetry between threads, stutters, inert RMWs
 * commuted, twins) depend on the combination alone, never on what is
 * known.  Counting executions, each consistent execution is in exactly
 * one unit: counts add up.  The race and hang searches record the
 * first race (hang) in search order: the first unit's that has one.
 * The bound is hit when some unit hit it.  tests/props.c (property
 * "split") checks all of this against wl_explore on generated tests,
 * running the units in shuffled orders.
 *
 * Not the same as one wl_explore: max_memory bounds each unit's search
 * (plus what the worker prepared), not the whole; a stop's partial
 * result is the units merged before it and what the stopped unit
 * found. */
#include <string.h>

#include "explore.h"

/* Units aimed at: enough that workers pulling units even out uneven
 * ones (the 10-block last-block reduction's 256 units: the largest
 * costs 2.5% of the whole), few enough that each unit's fixed cost
 * (walking its prefix, a result, the known states copied in) is
 * small. */
#define SPLIT_TARGET 256
#define SPLIT_MAX 4096

struct wl_explorer {
  wl_ctx *ctx;
  const wl_litmus *t;
  wl_explore_opts opts; /* a copy: x->opts points here */
  xp *x;                /* prepared; x->res is the template result */
  int depth;            /* threads each unit's prefix fixes */
  size_t nunits;
  int *path;      /* nunits * depth trace indices */
  size_t mem;     /* the bytes the worker holds once prepared */
};

/* The prefixes of the first d threads' traces, in the search's order,
 * identical threads choosing non-decreasing traces as the search does:
 * counted (at most cap), and written to out (when not NULL). */
static size_t prefixes(const xp *x, int d, size_t cap, int *out) {
  int k[WL_MAX_THREADS], th = 0;
  size_t n = 0;
  if (d == 0)
    return 1;
  k[0] = -1;
  while (th >= 0) {
    int p = x->symprev[th];
    k[th]++;
    if (p >= 0 && p < th && k[th] < k[p])
      k[th] = k[p]; /* identical threads: non-decreasing */
    if ((size_t)k[th] >= x->pool[th].traces.n) {
      th--;
      continue;
    }
    if (th + 1 < d) {
      th++;
      k[th] = -1;
      continue;
    }
    if (out != NULL && n < cap)
      memcpy(out + n * (size_t)d, k, (size_t)d * sizeof k[0]);
    if (++n > cap)
      return n;
  }
  return n;
}

static void explorer_free(wl_explorer *e) {
  wl_result *r;
  if (e == NULL)
    return;
  if (e->x != NULL) {
    r = e->x->res;
    wl__xp_close(e->x);
    wl_result_free(r);
  }
  wl__free(e->ctx, e->path, e->nunits * (size_t)(e->depth ? e->depth : 1) *
                                sizeof *e->path);
  wl__free(e->ctx, e, sizeof *e);
}

void wl_explorer_free(wl_explorer *e) { explorer_free(e); }

int wl_explore_split(wl_ctx *ctx, const wl_litmus *t,
                     const wl_explore_opts *opts, wl_explorer **out) {
  wl_explorer *e;
  xp *x;
  int err, d = 0;
  size_t n = 1;
  if (ctx == NULL || t == NULL || out == NULL)
    return WL_EINVAL;
  *out = NULL;
  e = wl__calloc(ctx, sizeof *e);
  if (e == NULL)
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  e->ctx = ctx;
  e->t = t;
  if (opts != NULL)
    e->opts = *opts;
  if ((err = wl__xp_open(ctx, t, &e->opts, &e->x)) != 0) {
    explorer_free(e);
    return err;
  }
  x = e->x;
  if (wl__xp_prepare(x)) {
    err = x->err != 0 ? x->err : wl__err(ctx, WL_ENOMEM, "out of memory");
    explorer_free(e);
    return err;
  }
  /* the depth: the shallowest with SPLIT_TARGET prefixes, without
   * passing SPLIT_MAX (a thread with no trace leaves one unit) */
  while (d < t->nthreads && n < SPLIT_TARGET) {
    size_t m = prefixes(x, d + 1, SPLIT_MAX, NULL);
    if (m == 0 || m > SPLIT_MAX)
      break;
    d++;
    n = m;
  }
#ifdef WL_MUTANT_SPLITDROP
  /* the mutation check (tests/cli/split_mutants.sh): the last unit is
   * left out -- props_split must fail */
  if (n > 1)
    n--;
#endif
  e->depth = d;
  e->nunits = n;
  e->path = wl__alloc(ctx, n * (size_t)(d ? d : 1) * sizeof *e->path);
  if (e->path == NULL) {
    e->nunits = 0;
    explorer_free(e);
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  }
  if (d > 0)
    prefixes(x, d, n, e->path);
  e->mem = x->mem;
  wl__xp_unwrap(x);
  *out = e;
  return 0;
}

size_t wl_explorer_units(const wl_explorer *e) {
  return e != NULL ? e->nunits : 0;
}

const wl_result *wl__explorer_template(const wl_explorer *e) {
  return e->x->res;
}

/* A fresh result with the template's layout and observed values
 * (explore.h). */
wl_result *wl__result_like(wl_ctx *ctx, const wl_result *tm) {
  wl_result *r = wl__calloc(ctx, sizeof *r);
  if (r == NULL)
    return NULL;
  r->ctx = ctx;
  r->t = tm->t;
  r->cond_kind = tm->cond_kind;
  r->has_cond = tm->has_cond;
  r->unroll = tm->unroll;
  r->traces_cut = tm->traces_cut;
  r->counted = tm->counted;
  r->lay = tm->lay;
  if (tm->key != NULL) {
    r->nkey = tm->nkey; /* the sizes wl_result_free frees them with */
    r->key = wl__alloc(ctx, (size_t)tm->nkey * sizeof *r->key);
    r->keep = wl__alloc(ctx, (size_t)tm->lay.nvals);
    if (r->key == NULL || r->keep == NULL) {
      wl_result_free(r);
      return NULL;
    }
    memcpy(r->key, tm->key, (size_t)tm->nkey * sizeof *r->key);
    memcpy(r->keep, tm->keep, (size_t)tm->lay.nvals);
  }
  return r;
}

int wl_explore_unit(wl_explorer *e, size_t unit, const wl_result *known,
                    wl_result **out) {
  xp *x;
  wl_result *tm, *r;
  int err, th;
  if (e == NULL || out == NULL)
    return WL_EINVAL;
  *out = NULL;
  if (unit >= e->nunits)
    return wl__err(e->ctx, WL_EINVAL, "unit %zu of %zu", unit, e->nunits);
  if (known != NULL &&
      (known->t != e->t || known->lay.nvals != e->x->res->lay.nvals ||
       known->nkey != e->x->res->nkey))
    return wl__err(e->ctx, WL_EINVAL, "known states of another "
                                      "exploration");
  x = e->x;
  tm = x->res;
  e->ctx->errmsg[0] = '\0';
  wl__xp_wrap(x);
  x->mem = e->mem;
  x->mem_stop = 0;
  r = wl__result_like(e->ctx, tm);
  if (r == NULL) {
    wl__xp_unwrap(x);
    return wl__err(e->ctx, WL_ENOMEM, "out of memory");
  }
  /* what earlier units found: skipped as the whole search skips it
   * (not when counting executions: every one is counted); looked up
   * there, never copied */
  if (known != NULL && !r->counted)
    r->known = known;
  x->res = r;
  x->err = 0;
  x->found = x->combo_done = x->ub_done = 0;
  x->mode = XP_STATES;
  x->all = e->opts.count_executions;
  x->combos = 0;
  x->ulen = e->depth;
  for (th = 0; th < e->depth; th++)
    x->upath[th] = e->path[unit * (size_t)e->depth + (size_t)th];
  err = wl__xp_conclude(x, wl__xp_search(x));
  r->known = NULL;
  x->ulen = 0;
  x->res = tm;
  wl__xp_unwrap(x);
  if (err) {
    wl_result_free(r);
    return err;
  }
  *out = r;
  return 0;
}

int wl_explore_merge(wl_ctx *ctx, wl_result **accp, const wl_result *part) {
  wl_result *acc;
  size_t s;
  if (ctx == NULL || accp == NULL || part == NULL)
    return WL_EINVAL;
  acc = *accp;
  if (acc != NULL && (acc->t != part->t || acc->lay.nvals != part->lay.nvals ||
                      acc->nkey != part->nkey))
    return wl__err(ctx, WL_EINVAL, "merging results of different "
                                   "explorations");
  if (acc != NULL && acc->partial)
    return wl__err(ctx, WL_EINVAL, "merging past a partial result");
  if (acc == NULL) {
    acc = wl__result_like(ctx, part);
    if (acc == NULL)
      return wl__err(ctx, WL_ENOMEM, "out of memory");
    acc->race_checked = part->race_checked;
    acc->hang_checked = part->hang_checked;
    *accp = acc;
  }
  acc->bound_hit |= part->bound_hit;
  acc->race_checked &= part->race_checked;
  acc->hang_checked &= part->hang_checked;
  if (!acc->race_found && part->race_checked && part->race_found) {
    acc->race_found = 1;
    acc->race = part->race;
  }
  if (!acc->hang_found && part->hang_checked && part->hang_found) {
    acc->hang_found = 1;
    acc->hang = part->hang;
  }
  for (s = 0; s < part->nstates; s++) {
    const wl_state *st = &part->states[s];
    long at = wl__result_find(acc, st->vals);
    if (at >= 0) {
#ifdef WL_MUTANT_SPLITWIT
      /* the mutation check (tests/cli/split_mutants.sh): the later
       * unit's witness replaces the first -- props_split must fail */
      if (st->nwit == acc->states[at].nwit && st->nwit > 0)
        memcpy(acc->states[at].wit, st->wit,
               (size_t)st->nwit * sizeof *st->wit);
#endif
      /* found first in an earlier unit: its witness stays; counting
       * executions, the unit's are more of them */
      if (acc->counted)
        acc->states[at].count += st->count;
      continue;
    }
    if (wl__result_add(ctx, acc, st) != 0)
      return wl__err(ctx, WL_ENOMEM, "out of memory");
    if (!acc->counted) {
      /* states: the counts are of states */
      if (st->sat)
        acc->pos++;
      else
        acc->neg++;
    }
  }
  if (acc->counted) {
    acc->pos += part->pos;
    acc->neg += part->neg;
  }
  if (part->partial) {
    acc->partial = part->partial;
    acc->why = wl__strndup(ctx, part->why ? part->why : "",
                           part->why ? strlen(part->why) : 0);
    if (acc->why == NULL)
      return wl__err(ctx, WL_ENOMEM, "out of memory");
  }
  wl__xp_set_verdict(acc);
  return 0;
}

void wl_explorer_set_stop(wl_explorer *e, int (*should_stop)(void *ud),
                          void *ud) {
  if (e == NULL)
    return;
  e->opts.should_stop = should_stop;
  e->opts.stop_ud = ud;
}

int wl_result_mark_partial(wl_result *r, int code, const char *why) {
  char *w;
  if (r == NULL || code == 0 || why == NULL)
    return WL_EINVAL;
  w = wl__strndup(r->ctx, why, strlen(why));
  if (w == NULL)
    return WL_ENOMEM;
  wl__strfree(r->ctx, r->why);
  r->why = w;
  r->partial = code;
  return 0;
}
