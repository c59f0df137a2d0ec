/* shard.c -- one way to split work across workers and put the results
 * back together, whatever the workers are (libuv's pool threads in
 * bindings/lpool.c, MPI ranks in a later driver).
 *
 * Representation: n units, numbered 0..n-1 in the order their results
 * merge (a file's place on the command line, a batch's first run, a
 * prefix's place in the search).  Each has a cost estimate.  order[] is
 * the dispatch order: cost decreasing, ties by unit number increasing
 * (largest first, Graham's LPT rule, so the last unit to start is a
 * small one); take is the next place in it.  owner[] (after
 * wl_shard_deal) gives each unit to one of k workers: in dispatch
 * order, each to the worker with the least cost so far, ties to the
 * lower worker number.  done[] and result[] hold what came back; merged
 * is the length of the prefix of units already handed out in unit
 * order by wl_shard_next.
 *
 * Invariant: every function is a function of the costs, the number of
 * workers and the calls made, never of time or of which thread asks,
 * so a driver that merges through wl_shard_next gives the same output
 * for any number of workers.  The plan is used from one thread at a
 * time (the driver's); workers never touch it. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

struct wl_shard {
  wl_ctx *ctx;
  size_t n;
  size_t cap;      /* the arrays' length: n, at least 1 */
  uint64_t *cost;  /* per unit */
  size_t *order;   /* dispatch order: units, largest first */
  int *owner;      /* per unit, after wl_shard_deal; else NULL */
  int workers;     /* wl_shard_deal's k, 0 before */
  unsigned char *done;
  void **result;   /* per unit, what wl_shard_done stored */
  size_t take;     /* next place in order[] for wl_shard_take */
  size_t merged;   /* units 0..merged-1 were handed out by next */
};

/* The sort of order[]: a merge sort (stable, no qsort context needed),
 * by cost decreasing; equal costs keep unit order (order[] starts as
 * 0..n-1). */
static void sort_units(const uint64_t *cost, size_t *a, size_t *tmp,
                       size_t n) {
  size_t mid, i, j, k;
  if (n < 2)
    return;
  mid = n / 2;
  sort_units(cost, a, tmp, mid);
  sort_units(cost, a + mid, tmp, n - mid);
  for (i = 0, j = mid, k = 0; i < mid && j < n;)
    tmp[k++] = cost[a[j]] > cost[a[i]] ? a[j++] : a[i++];
  while (i < mid)
    tmp[k++] = a[i++];
  while (j < n)
    tmp[k++] = a[j++];
  memcpy(a, tmp, n * sizeof *a);
}

void wl_shard_free(wl_shard *s) {
  if (s == NULL)
    return;
  wl__free(s->ctx, s->cost, s->cap * sizeof *s->cost);
  wl__free(s->ctx, s->order, s->cap * sizeof *s->order);
  wl__free(s->ctx, s->owner, s->cap * sizeof *s->owner);
  wl__free(s->ctx, s->done, s->cap);
  wl__free(s->ctx, s->result, s->cap * sizeof *s->result);
  wl__free(s->ctx, s, sizeof *s);
}

int wl_shard_new(wl_ctx *ctx, size_t n, const uint64_t *costs,
                 wl_shard **out) {
  wl_shard *s;
  size_t *tmp, i, cap = n > 0 ? n : 1;
  if (out != NULL)
    *out = NULL;
  if (ctx == NULL || out == NULL || (n > 0 && costs == NULL))
    return ctx != NULL ? wl__err(ctx, WL_EINVAL, "wl_shard_new: %s",
                                 out == NULL ? "out is NULL"
                                             : "costs is NULL")
                       : WL_EINVAL;
  if (n > ((size_t)-1) / 2 / sizeof(uint64_t))
    return wl__err(ctx, WL_ELIMIT, "wl_shard_new: %zu units is too many", n);
  if ((s = wl__calloc(ctx, sizeof *s)) == NULL)
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  s->ctx = ctx;
  s->n = n;
  s->cap = cap;
  s->cost = wl__alloc(ctx, cap * sizeof *s->cost);
  s->order = wl__alloc(ctx, cap * sizeof *s->order);
  s->done = wl__calloc(ctx, cap);
  s->result = wl__calloc(ctx, cap * sizeof *s->result);
  tmp = wl__alloc(ctx, cap * sizeof *tmp);
  if (s->cost == NULL || s->order == NULL || s->done == NULL ||
      s->result == NULL || tmp == NULL) {
    wl__free(ctx, tmp, cap * sizeof *tmp);
    wl_shard_free(s); /* every array is cap long, or NULL */
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  }
  for (i = 0; i < n; i++) {
    s->cost[i] = costs[i];
    s->order[i] = i;
  }
  sort_units(s->cost, s->order, tmp, n);
  wl__free(ctx, tmp, cap * sizeof *tmp);
  *out = s;
  return 0;
}

size_t wl_shard_count(const wl_shard *s) { return s != NULL ? s->n : 0; }

uint64_t wl_shard_cost(const wl_shard *s, size_t unit) {
  return s != NULL && unit < s->n ? s->cost[unit] : 0;
}

size_t wl_shard_order(const wl_shard *s, size_t k) {
  return s != NULL && k < s->n ? s->order[k] : (size_t)-1;
}

int wl_shard_take(wl_shard *s, size_t *unit) {
  if (s == NULL || unit == NULL || s->take >= s->n)
    return 0;
  *unit = s->order[s->take++];
  return 1;
}

size_t wl_shard_taken(const wl_shard *s) { return s != NULL ? s->take : 0; }

int wl_shard_deal(wl_shard *s, int workers) {
  uint64_t *load;
  size_t k;
  if (s == NULL)
    return WL_EINVAL;
  if (workers < 1)
    return wl__err(s->ctx, WL_EINVAL,
                   "wl_shard_deal: %d workers (at least 1)", workers);
  if (s->owner == NULL &&
      (s->owner = wl__alloc(s->ctx, s->cap * sizeof *s->owner)) == NULL)
    return wl__err(s->ctx, WL_ENOMEM, "out of memory");
  if ((load = wl__calloc(s->ctx, (size_t)workers * sizeof *load)) == NULL)
    return wl__err(s->ctx, WL_ENOMEM, "out of memory");
  for (k = 0; k < s->n; k++) {
    size_t u = s->order[k];
    int w, best = 0;
    for (w = 1; w < workers; w++)
      if (load[w] < load[best])
        best = w;
    s->owner[u] = best;
    /* a unit of cost 0 still counts one, so that zero-cost units are
     * spread instead of all going to worker 0 */
    load[best] += s->cost[u] > 0 ? s->cost[u] : 1;
    if (load[best] < s->cost[u]) /* overflow: saturate */
      load[best] = UINT64_MAX;
  }
  wl__free(s->ctx, load, (size_t)workers * sizeof *load);
  s->workers = workers;
  return 0;
}

int wl_shard_owner(const wl_shard *s, size_t unit) {
  if (s == NULL || s->owner == NULL || unit >= s->n)
    return -1;
  return s->owner[unit];
}

int wl_shard_done(wl_shard *s, size_t unit, void *result) {
  if (s == NULL)
    return WL_EINVAL;
  if (unit >= s->n)
    return wl__err(s->ctx, WL_EINVAL, "wl_shard_done: unit %zu of %zu",
                   unit, s->n);
  if (s->done[unit])
    return wl__err(s->ctx, WL_EINVAL, "wl_shard_done: unit %zu came back "
                                      "twice", unit);
  s->done[unit] = 1;
  s->result[unit] = result;
  return 0;
}

int wl_shard_next(wl_shard *s, size_t *unit, void **result) {
  if (s == NULL || s->merged >= s->n || !s->done[s->merged])
    return 0;
  if (unit != NULL)
    *unit = s->merged;
  if (result != NULL)
    *result = s->result[s->merged];
  s->result[s->merged] = NULL;
  s->merged++;
  return 1;
}

size_t wl_shard_merged(const wl_shard *s) { return s != NULL ? s->merged : 0; }

int wl_shard_is_done(const wl_shard *s, size_t unit) {
  return s != NULL && unit < s->n && s->done[unit];
}

void *wl_shard_result(const wl_shard *s, size_t unit) {
  return s != NULL && unit < s->n && unit >= s->merged ? s->result[unit]
                                                       : NULL;
}
