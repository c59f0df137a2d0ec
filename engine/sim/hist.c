/* hist.c -- outcome histograms (wl_hist): the outcomes of sampled runs,
 * each with its values and count, found through an open-addressing index
 * over their values; the values' layout (each thread's registers, then
 * the results of callback threads); merging the histograms of several
 * workers; and writing them as text or JSON.  Filling histograms, and
 * finding which outcomes are weak (a search of the sequentially
 * consistent interleavings that replays callback threads as the sampler
 * does), are sample.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../program/ir.h"
#include "hist.h"

/* ---------------------------------------------------------------- */
/* Histograms                                                        */

/* The outcomes' index: open addressing over a hash of the values,
 * slots holding outcome index + 1 (0: empty), in the histogram's current
 * layout.  Invariant: every outcome of the histogram is in it, so that
 * finding an outcome (once per sampled run, once per outcome merged,
 * once per final state of the SC search) costs O(1) however many
 * distinct outcomes there are; a histogram of a test with tens of
 * thousands of them once took minutes to merge and write. */

/* Each value is mixed in before the next (a sum of weighted values
 * clustered outcomes of small values: 7 probes a lookup), then
 * MurmurHash3's 64-bit finaliser. */
static uint64_t vals_hash(const int64_t *v, int n) {
  uint64_t x = 0x9e3779b97f4a7c15ull;
  int i;
  for (i = 0; i < n; i++) {
    x = (x ^ (uint64_t)v[i]) * 0x100000001b3ull;
    x ^= x >> 29;
  }
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

/* Whether two outcomes' values are equal (a loop: outcomes are a few
 * values, and this runs once per sampled run). */
static int same_vals(const int64_t *a, const int64_t *b, int n) {
  uint64_t d = 0; /* one branch at the end: outcomes differ anywhere */
  int i;
  for (i = 0; i < n; i++)
    d |= (uint64_t)(a[i] ^ b[i]);
  return d == 0;
}

static void hist_relayout(wl_hist *h) {
  int th, n = 0;
  for (th = 0; th < h->t->nthreads; th++) {
    h->lay.regoff[th] = n;
    n += nreg(h, th);
  }
  h->lay.regoff[h->t->nthreads] = n;
  h->lay.nvals = n + h->t->nlocs;
}

void wl__hist_layout_init(wl_hist *h) {
  int th;
  for (th = 0; th < h->t->nthreads; th++) {
    const wl_thread *w = &h->t->threads[th];
    h->tregs[th] = w->nregs;
    memcpy(h->rtype[th], w->regtype, (size_t)w->nregs);
    memcpy(h->rtyped[th], w->regtyped, (size_t)w->nregs);
  }
  hist_relayout(h);
}

static int hist_var_thread(const wl_hist *h, int var) {
  int th;
  if (var < 0 || var >= h->lay.nvals)
    return -1;
  for (th = 0; th < h->t->nthreads; th++)
    if (var < h->lay.regoff[th + 1])
      return th;
  return -1;
}

static const char *hist_var_name(const wl_hist *h, int var) {
  int th = hist_var_thread(h, var), k;
  if (var < 0 || var >= h->lay.nvals)
    return NULL;
  if (th < 0)
    return h->t->locnames[var - h->lay.regoff[h->t->nthreads]];
  k = var - h->lay.regoff[th];
  return k < h->tregs[th] ? h->t->threads[th].regnames[k]
                          : h->xname[th][k - h->tregs[th]];
}

static int hist_reg_type(const wl_hist *h, int th, int k) {
  return h->rtype[th][k];
}

/* Result k of thread th reported with type: fixes its type the first
 * time, else WL_EINVAL when the type differs. */
int wl__hist_type_result(wl_hist *h, int th, int k, const char *name,
                         int type) {
  if (!h->rtyped[th][k]) {
    h->rtype[th][k] = (uint8_t)type;
    h->rtyped[th][k] = 1;
  }
  if (h->rtype[th][k] == type)
    return 0;
  return wl__result_type_err(h->ctx, h->t->threads[th].name, name,
                             h->rtype[th][k], type);
}

static int hist_var_type(const wl_hist *h, int var) {
  int th = hist_var_thread(h, var);
  if (var < 0 || var >= h->lay.nvals)
    return WL_EINVAL;
  if (th < 0)
    return h->t->loctype[var - h->lay.regoff[h->t->nthreads]];
  return hist_reg_type(h, th, var - h->lay.regoff[th]);
}

/* The index of a register or result name in thread th's slice, or -1. */
int wl__hist_reg(const wl_hist *h, int th, const char *name) {
  int k;
  for (k = 0; k < h->tregs[th]; k++)
    if (strcmp(h->t->threads[th].regnames[k], name) == 0)
      return k;
  for (k = 0; k < h->nx[th]; k++)
    if (strcmp(h->xname[th][k], name) == 0)
      return h->tregs[th] + k;
  return -1;
}

/* A table with room for n outcomes: *cap slots, a power of two at
 * least 2n (and 64); NULL when out of memory or n is too large. */
static uint32_t *otab_alloc(wl_ctx *ctx, size_t n, size_t *cap) {
  size_t c = 64;
  if (n >= UINT32_MAX - 1 || n > SIZE_MAX / 2 / sizeof(uint32_t))
    return NULL;
  while (c < 2 * n)
    c *= 2;
  *cap = c;
  return wl__calloc(ctx, c * sizeof(uint32_t));
}

static void otab_put(wl_hist *h, size_t i) {
  size_t m = h->idx.cap - 1, j = vals_hash(h->o[i].vals, h->lay.nvals) & m;
  /* a power of two, at least twice the outcomes: a free slot is near */
  wl_assert(h->idx.cap > 0 && (h->idx.cap & m) == 0 && i < h->n &&
            2 * h->n <= h->idx.cap);
  while (h->idx.slot[j] != 0)
    j = (j + 1) & m;
  h->idx.slot[j] = (uint32_t)(i + 1);
}

/* Indexes every outcome anew into slot (cap entries, zeroed here), which
 * replaces the index (after a change of layout, or to make room). */
static void otab_fill(wl_hist *h, uint32_t *slot, size_t cap) {
  size_t i;
  if (slot != h->idx.slot) {
    wl__free(h->ctx, h->idx.slot, h->idx.cap * sizeof *h->idx.slot);
    h->idx.slot = slot;
    h->idx.cap = cap;
  }
  memset(h->idx.slot, 0, h->idx.cap * sizeof *h->idx.slot);
  for (i = 0; i < h->n; i++)
    otab_put(h, i);
}

/* Makes room in the index for `more` outcomes beyond h->n; 0 or
 * WL_ENOMEM (the index is then as it was). */
static int otab_reserve(wl_hist *h, size_t more) {
  size_t cap = 0;
  uint32_t *slot;
  if (more > SIZE_MAX / 4 - h->n)
    return WL_ENOMEM;
  if (2 * (h->n + more) <= h->idx.cap && h->n + more < UINT32_MAX - 1)
    return 0;
  if ((slot = otab_alloc(h->ctx, h->n + more, &cap)) == NULL)
    return WL_ENOMEM;
  otab_fill(h, slot, cap);
  return 0;
}

/* The index of the outcome with these values (in h's layout), or -1. */
long wl__hist_find(const wl_hist *h, const int64_t *vals) {
  size_t m, j;
  uint32_t k;
  if (h->idx.cap == 0)
    return -1;
  m = h->idx.cap - 1;
  for (j = vals_hash(vals, h->lay.nvals) & m; (k = h->idx.slot[j]) != 0;
       j = (j + 1) & m)
    if (same_vals(h->o[k - 1].vals, vals, h->lay.nvals))
      return (long)k - 1;
  return -1;
}

/* Adds a result name to thread th's slice: every outcome so far gets
 * the value 0 for it (a result a run did not report is 0, as in the
 * explorer).  All or nothing.  Returns its index or a WL_E* code. */
int wl__hist_add_name(wl_hist *h, int th, const char *name, int type) {
  int k = nreg(h, th), at = h->lay.regoff[th] + k, nv = h->lay.nvals;
  size_t i, scap = 0;
  int64_t **nvals;
  uint32_t *slot;
  char *c;
  if (k >= WL_MAX_REGS)
    return wl__err(h->ctx, WL_ELIMIT, "thread %s: more than %d results",
                   h->t->threads[th].name, WL_MAX_REGS);
  c = wl__strndup(h->ctx, name, strlen(name));
  nvals = wl__calloc(h->ctx, (h->n + 1) * sizeof *nvals);
  /* the index is rebuilt for the new layout, in a table made first */
  slot = otab_alloc(h->ctx, h->n + 1, &scap);
  if (c == NULL || nvals == NULL || slot == NULL)
    goto nomem;
  for (i = 0; i < h->n; i++) {
    nvals[i] = wl__alloc(h->ctx, (size_t)(nv + 1) * sizeof(int64_t));
    if (nvals[i] == NULL)
      goto nomem;
    memcpy(nvals[i], h->o[i].vals, (size_t)at * sizeof(int64_t));
    nvals[i][at] = 0;
    memcpy(nvals[i] + at + 1, h->o[i].vals + at,
           (size_t)(nv - at) * sizeof(int64_t));
  }
  /* nothing fails from here */
  for (i = 0; i < h->n; i++) {
    wl__free(h->ctx, h->o[i].vals, (size_t)nv * sizeof(int64_t));
    h->o[i].vals = nvals[i];
  }
  wl__free(h->ctx, nvals, (h->n + 1) * sizeof *nvals);
  h->rtype[th][k] = (uint8_t)type;
  h->rtyped[th][k] = 1;
  h->xname[th][h->nx[th]++] = c;
  hist_relayout(h);
  otab_fill(h, slot, scap);
  return k;
nomem:
  wl__free(h->ctx, slot, scap * sizeof *slot);
  if (nvals != NULL)
    for (i = 0; i < h->n; i++)
      wl__free(h->ctx, nvals[i], (size_t)(nv + 1) * sizeof(int64_t));
  wl__free(h->ctx, nvals, (h->n + 1) * sizeof *nvals);
  wl__strfree(h->ctx, c);
  return wl__err(h->ctx, WL_ENOMEM, "out of memory");
}

/* Counts c runs of the outcome vals, adding it (with sat) when new. */
int wl__hist_add(wl_hist *h, const int64_t *vals, int sat, uint64_t c) {
  long k = wl__hist_find(h, vals);
  if (k >= 0) {
    h->o[k].count += c;
    return 0;
  }
  if (otab_reserve(h, 1) != 0)
    return WL_ENOMEM;
  if (h->n == h->cap) {
    size_t cap = h->cap ? h->cap * 2 : 16;
    hout *p = wl__realloc(h->ctx, h->o, h->cap * sizeof *p, cap * sizeof *p);
    if (p == NULL)
      return WL_ENOMEM;
    h->o = p;
    h->cap = cap;
  }
  h->o[h->n].vals = wl__alloc(h->ctx, (size_t)h->lay.nvals * sizeof *vals);
  if (h->o[h->n].vals == NULL)
    return WL_ENOMEM;
  memcpy(h->o[h->n].vals, vals, (size_t)h->lay.nvals * sizeof *vals);
  h->o[h->n].count = c;
  h->o[h->n].sat = sat;
  h->n++;
  otab_put(h, h->n - 1);
  wl_assert(wl__hist_find(h, vals) == (long)h->n - 1); /* the index has it */
  return 0;
}

void wl_hist_free(wl_hist *h) {
  size_t i;
  if (h == NULL)
    return;
  for (i = 0; i < h->n; i++)
    wl__free(h->ctx, h->o[i].vals, (size_t)h->lay.nvals * sizeof(int64_t));
  wl__free(h->ctx, h->o, h->cap * sizeof *h->o);
  wl__free(h->ctx, h->idx.slot, h->idx.cap * sizeof *h->idx.slot);
  wl__free(h->ctx, h->weak, h->nweak);
  wl__strfree(h->ctx, h->cond);
  {
    int th, k;
    for (th = 0; th < WL_MAX_THREADS; th++)
      for (k = 0; k < h->nx[th]; k++)
        wl__strfree(h->ctx, h->xname[th][k]);
  }
  wl__free(h->ctx, h, sizeof *h);
}

/* Whether two histograms of one test lay their values out alike. */
static int same_layout(const wl_hist *a, const wl_hist *b) {
  int th, k;
  if (a->lay.nvals != b->lay.nvals)
    return 0;
  for (th = 0; th < a->t->nthreads; th++) {
    if (a->tregs[th] != b->tregs[th] || a->nx[th] != b->nx[th])
      return 0;
    for (k = 0; k < a->nx[th]; k++)
      if (strcmp(a->xname[th][k], b->xname[th][k]) != 0)
        return 0;
  }
  return 1;
}

/* from's values in into's layout (vals: into->lay.nvals entries). */
static void map_vals(const wl_hist *into, const int *map, const int64_t *from,
                     int nfrom, int64_t *vals) {
  int v;
  memset(vals, 0, (size_t)into->lay.nvals * sizeof *vals);
  for (v = 0; v < nfrom; v++)
    vals[map[v]] = from[v];
}

/* Room for every new outcome is made first, so that an allocation
 * failure leaves into's counts as they were (result names from's runs
 * reported and into's did not may have been added, each 0 in into's
 * outcomes).  Each of from's outcomes is looked up in into's index:
 * O(1) each, so a merge costs O(from's outcomes). */
int wl_hist_merge(wl_hist *into, const wl_hist *from) {
  size_t i, nnew = 0, n0;
  int map[WL_MAX_THREADS * WL_MAX_REGS + WL_MAX_LOCS];
  int64_t vals[WL_MAX_THREADS * WL_MAX_REGS + WL_MAX_LOCS];
  int v, th, same;
  if (into == NULL || from == NULL)
    return WL_EINVAL;
  if (into->t != from->t)
    return wl__err(into->ctx, WL_EINVAL,
                   "histograms of different tests cannot be merged");
  /* the result names of from that into lacks, in from's order */
  for (v = 0; v < from->lay.nvals; v++) {
    const char *name = hist_var_name(from, v);
    int k, ty = hist_var_type(from, v);
    th = hist_var_thread(from, v);
    if (th < 0)
      continue;
    if ((k = wl__hist_reg(into, th, name)) < 0) {
      int rc = wl__hist_add_name(into, th, name, ty);
      if (rc < 0)
        return rc;
    } else if (from->rtyped[th][v - from->lay.regoff[th]]) {
      int rc = wl__hist_type_result(into, th, k, name, ty);
      if (rc < 0)
        return rc;
    }
  }
  same = same_layout(into, from);
  for (v = 0; v < from->lay.nvals; v++) {
    th = hist_var_thread(from, v);
    map[v] = th >= 0 ? into->lay.regoff[th] + wl__hist_reg(into, th,
                                                       hist_var_name(from, v))
                     : into->lay.regoff[into->t->nthreads] +
                           (v - from->lay.regoff[from->t->nthreads]);
  }
#define FROM_VALS(i)                                                           \
  (same ? from->o[i].vals                                                      \
        : (map_vals(into, map, from->o[i].vals, from->lay.nvals, vals), vals))
  for (i = 0; i < from->n; i++)
    if (wl__hist_find(into, FROM_VALS(i)) < 0)
      nnew++;
  if (otab_reserve(into, nnew) != 0)
    return wl__err(into->ctx, WL_ENOMEM, "out of memory");
  if (into->n + nnew > into->cap) {
    size_t cap = into->cap ? into->cap : 16;
    hout *p;
    while (cap < into->n + nnew)
      cap *= 2;
    p = wl__realloc(into->ctx, into->o, into->cap * sizeof *p, cap * sizeof *p);
    if (p == NULL)
      return wl__err(into->ctx, WL_ENOMEM, "out of memory");
    into->o = p;
    into->cap = cap;
  }
  n0 = into->n;
  for (i = 0; i < from->n; i++) {
    const int64_t *fv = FROM_VALS(i);
    if (wl__hist_find(into, fv) < 0) {
      hout *o = &into->o[into->n];
      o->vals = wl__alloc(into->ctx, (size_t)into->lay.nvals * sizeof(int64_t));
      if (o->vals == NULL) {
        while (into->n > n0) {
          into->n--;
          wl__free(into->ctx, into->o[into->n].vals,
                   (size_t)into->lay.nvals * sizeof(int64_t));
        }
        otab_fill(into, into->idx.slot, into->idx.cap); /* without them */
        return wl__err(into->ctx, WL_ENOMEM, "out of memory");
      }
      memcpy(o->vals, fv, (size_t)into->lay.nvals * sizeof(int64_t));
      o->count = 0;
      o->sat = from->o[i].sat;
      into->n++;
      otab_put(into, into->n - 1);
    }
  }
  /* nothing can fail from here: add the counts */
  for (i = 0; i < from->n; i++)
    into->o[wl__hist_find(into, FROM_VALS(i))].count += from->o[i].count;
#undef FROM_VALS
  into->runs += from->runs;
  into->hung += from->hung;
  wl_assert(wl__hist_totals_ok(from) && wl__hist_totals_ok(into));
  return 0;
}

int wl__hist_totals_ok(const wl_hist *h) {
  uint64_t sum = h->hung;
  size_t i;
  for (i = 0; i < h->n; i++)
    sum += h->o[i].count;
  return sum == h->runs;
}

uint64_t wl_hist_runs(const wl_hist *h) { return h ? h->runs : 0; }
uint64_t wl_hist_hung(const wl_hist *h) { return h ? h->hung : 0; }
int wl_hist_weak_known(const wl_hist *h) { return h ? h->weak_known : 0; }
int wl_hist_cond_kind(const wl_hist *h) { return h ? h->kind : 0; }
const char *wl_hist_condition(const wl_hist *h) {
  return h == NULL ? "true"
         : h->cond ? h->cond
         : h->t->cond_text ? h->t->cond_text
                           : "true";
}
size_t wl_hist_noutcomes(const wl_hist *h) { return h ? h->n : 0; }
uint64_t wl_hist_count(const wl_hist *h, size_t i) {
  return h && i < h->n ? h->o[i].count : 0;
}
int wl_hist_sat(const wl_hist *h, size_t i) {
  return h && i < h->n ? h->o[i].sat : 0;
}
int wl_hist_values(const wl_hist *h, size_t i, int64_t *vals, int n) {
  if (h == NULL || i >= h->n || vals == NULL || n < 0)
    return WL_EINVAL;
  if (n > h->lay.nvals)
    n = h->lay.nvals;
  memcpy(vals, h->o[i].vals, (size_t)n * sizeof *vals);
  return n;
}

int wl_hist_nvars(const wl_hist *h) { return h ? h->lay.nvals : 0; }

int wl_hist_var_type(const wl_hist *h, int var) {
  return h == NULL ? WL_EINVAL : hist_var_type(h, var);
}

int wl_hist_var_thread(const wl_hist *h, int var) {
  return h == NULL ? -1 : hist_var_thread(h, var);
}

const char *wl_hist_var_name(const wl_hist *h, int var) {
  return h == NULL ? NULL : hist_var_name(h, var);
}

int wl_hist_set_sat(wl_hist *h, size_t i, int sat) {
  if (h == NULL || i >= h->n)
    return WL_EINVAL;
  h->o[i].sat = sat != 0;
  return 0;
}

void wl_hist_set_stop(wl_hist *h, int (*should_stop)(void *ud), void *ud) {
  if (h == NULL)
    return;
  h->stop = should_stop;
  h->stop_ud = ud;
}

int wl_hist_set_condition(wl_hist *h, int kind, const char *text) {
  char *c = NULL;
  if (h == NULL || kind < WL_COND_EXISTS || kind > WL_COND_FORALL)
    return WL_EINVAL;
  if (text != NULL && (c = wl__strndup(h->ctx, text, strlen(text))) == NULL)
    return wl__err(h->ctx, WL_ENOMEM, "out of memory");
  wl__strfree(h->ctx, h->cond);
  h->cond = c;
  h->kind = kind;
  return 0;
}

int wl_hist_weak(wl_hist *h, size_t i) {
  if (h == NULL || i >= h->n)
    return -1;
  if ((h->weak == NULL || h->nweak != h->n + 1) &&
      wl__hist_compute_weak(h) != 0)
    return -1;
  if (!h->weak_known || h->weak == NULL)
    return -1;
  return h->weak[i];
}

/* ---------------------------------------------------------------- */
/* Writing                                                           */

static int cmp_vals(const int64_t *a, const int64_t *b, int n) {
  int i;
  for (i = 0; i < n; i++)
    if (a[i] != b[i])
      return a[i] < b[i] ? -1 : 1;
  return 0;
}

/* Appends v in decimal (what "%lld" gives, without printf's cost: a
 * histogram's text has a value per variable per outcome). */
static void buf_int(wl_buf *b, int64_t v) {
  char d[24];
  size_t k = sizeof d;
  uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  do {
    d[--k] = (char)('0' + u % 10);
    u /= 10;
  } while (u != 0);
  if (v < 0)
    d[--k] = '-';
  wl__buf_add(b, d + k, sizeof d - k);
}

/* wl_hist_write hands its text to the writer in pieces of about this
 * many bytes. */
#define WRITE_CHUNK ((size_t)64 << 10)

/* Sorts order[0..n) by the outcomes' values: a merge sort through tmp
 * (n entries), O(n log n) (an insertion sort here was quadratic in the
 * outcomes). */
static void sort_outcomes(const wl_hist *h, size_t *order, size_t *tmp,
                          size_t n) {
  size_t w, lo;
  for (w = 1; w < n; w *= 2) {
    for (lo = 0; lo < n; lo += 2 * w) {
      size_t mid = lo + w < n ? lo + w : n;
      size_t hi = mid + w < n ? mid + w : n, a = lo, b = mid, k = lo;
      while (a < mid && b < hi)
        tmp[k++] = cmp_vals(h->o[order[b]].vals, h->o[order[a]].vals,
                            h->lay.nvals) < 0
                       ? order[b++]
                       : order[a++];
      while (a < mid)
        tmp[k++] = order[a++];
      while (b < hi)
        tmp[k++] = order[b++];
    }
    memcpy(order, tmp, n * sizeof *order);
  }
}

/* What both writers start with: the SC outcomes, to call the others
 * weak (cached in h), and the outcomes' order by value (the same text
 * whatever the merge order), in *order (2 (n + 1) entries, the second
 * half scratch; the caller frees it with hist_order_free). */
static int hist_order(const wl_hist *h, size_t **order) {
  size_t i, *o;
  int rc;
  *order = NULL;
  if ((h->weak == NULL || h->nweak != h->n + 1) &&
      (rc = wl__hist_compute_weak((wl_hist *)h)) != 0)
    return rc;
  if (h->n > SIZE_MAX / 2 / sizeof *o - 1)
    return wl__err(h->ctx, WL_ENOMEM, "out of memory");
  o = wl__alloc(h->ctx, 2 * (h->n + 1) * sizeof *o);
  if (o == NULL)
    return wl__err(h->ctx, WL_ENOMEM, "out of memory");
  for (i = 0; i < h->n; i++)
    o[i] = i;
  sort_outcomes(h, o, o + h->n + 1, h->n);
  *order = o;
  return 0;
}

static void hist_order_free(const wl_hist *h, size_t *order) {
  wl__free(h->ctx, order, 2 * (h->n + 1) * sizeof *order);
}

/* Appends value v of variable var: integers by buf_int (fast), the
 * floating-point types as wl__buf_value writes them. */
static void buf_var(wl_buf *b, const uint8_t *types, int var, int64_t v) {
  if (types[var] == WL_TYPE_FLOAT || types[var] == WL_TYPE_DOUBLE)
    wl__buf_value(b, types[var], v);
  else
    buf_int(b, v);
}

static void hist_types(const wl_hist *h, uint8_t *types) {
  int v;
  for (v = 0; v < h->lay.nvals; v++)
    types[v] = (uint8_t)hist_var_type(h, v);
}

int wl_hist_write(const wl_hist *h, int partial, double seconds,
                  wl_write_fn write, void *ud) {
  const wl_litmus *t;
  wl_buf b;
  size_t *order, i;
  uint64_t pos = 0, neg = 0;
  uint8_t types[WL_MAX_THREADS * WL_MAX_REGS + WL_MAX_LOCS];
  int rc = 0;
  if (h == NULL || write == NULL)
    return WL_EINVAL;
  t = h->t;
  if ((rc = hist_order(h, &order)) != 0)
    return rc;
  hist_types(h, types);
  wl__buf_init(&b, h->ctx);
  wl__buf_printf(&b, "Test %s %s\nHistogram (%zu states)\n", t->name,
                 h->kind == WL_COND_EXISTS   ? "Allowed"
                 : h->kind == WL_COND_FORALL ? "Required"
                                             : "Forbidden",
                 h->n);
  for (i = 0; i < h->n; i++) {
    const hout *o = &h->o[order[i]];
    int v;
    wl__buf_printf(&b, "%-10llu%s", (unsigned long long)o->count,
                   o->sat ? "*>" : ":>");
    for (v = 0; v < h->lay.nvals; v++) {
      int tth = hist_var_thread(h, v);
      if (v)
        wl__buf_add(&b, " ", 1);
      if (tth >= 0) {
        buf_int(&b, tth);
        wl__buf_add(&b, ":", 1);
      }
      wl__buf_puts(&b, hist_var_name(h, v));
      wl__buf_add(&b, "=", 1);
      buf_var(&b, types, v, o->vals[v]);
      wl__buf_add(&b, ";", 1);
    }
    if (h->weak_known && h->weak[order[i]])
      wl__buf_puts(&b, " weak");
    wl__buf_puts(&b, "\n");
    if (o->sat)
      pos += o->count;
    else
      neg += o->count;
    /* out in pieces: memory stays small, and the writer may stop */
    if (b.n >= WRITE_CHUNK && !b.oom) {
      if (write(ud, b.p, b.n) != 0)
        break;
      b.n = 0;
    }
  }
  if (i < h->n) {
    wl__buf_free(&b);
    hist_order_free(h, order);
    return wl__err(h->ctx, WL_EIO, "the writer stopped the output");
  }
  {
    int ok = h->kind == WL_COND_EXISTS   ? pos > 0
             : h->kind == WL_COND_FORALL ? neg == 0
                                         : pos == 0;
    wl__buf_printf(&b, "%s\nWitnesses\nPositive: %llu, Negative: %llu\n",
                   ok ? "Ok" : "No", (unsigned long long)pos,
                   (unsigned long long)neg);
    wl__buf_printf(&b, "Condition %s %s is %svalidated\n",
                   h->kind == WL_COND_EXISTS   ? "exists"
                   : h->kind == WL_COND_FORALL ? "forall"
                                               : "~exists",
                   h->cond        ? h->cond
                   : t->cond_text ? t->cond_text
                                  : "(true)",
                   ok ? "" : "NOT ");
    wl__buf_printf(&b, "Observation %s %s %llu %llu\n", t->name,
                   pos == 0   ? "Never"
                   : neg == 0 ? "Always"
                              : "Sometimes",
                   (unsigned long long)pos, (unsigned long long)neg);
    if (h->hung)
      wl__buf_printf(&b, "Hung %s %llu of %llu runs did not terminate\n",
                     t->name, (unsigned long long)h->hung,
                     (unsigned long long)h->runs);
    if (partial)
      wl__buf_printf(&b, "Partial %s: interrupted after %llu runs\n", t->name,
                     (unsigned long long)h->runs);
    wl__buf_printf(&b, "Time %s %.2f\n\n", t->name, seconds);
  }
  if (b.oom)
    rc = wl__err(h->ctx, WL_ENOMEM, "out of memory");
  else if (write(ud, b.p, b.n) != 0)
    rc = wl__err(h->ctx, WL_EIO, "the writer stopped the output");
  wl__buf_free(&b);
  hist_order_free(h, order);
  return rc;
}

/* The herd/JSON words of a condition kind. */
static const char *kind_cond(int k) {
  return k == WL_COND_EXISTS   ? "exists"
         : k == WL_COND_FORALL ? "forall"
                               : "~exists";
}

int wl_hist_write_json(const wl_hist *h, int partial, double seconds,
                       wl_write_fn write, void *ud) {
  const wl_litmus *t;
  wl_buf b;
  size_t *order, i;
  uint64_t pos = 0, neg = 0;
  uint8_t types[WL_MAX_THREADS * WL_MAX_REGS + WL_MAX_LOCS];
  size_t noff[WL_MAX_THREADS * WL_MAX_REGS + WL_MAX_LOCS + 1];
  wl_buf names;
  int rc, v, ok;
  if (h == NULL || write == NULL)
    return WL_EINVAL;
  t = h->t;
  if ((rc = hist_order(h, &order)) != 0)
    return rc;
  hist_types(h, types);
  for (i = 0; i < h->n; i++) {
    if (h->o[i].sat)
      pos += h->o[i].count;
    else
      neg += h->o[i].count;
  }
  ok = h->kind == WL_COND_EXISTS   ? pos > 0
       : h->kind == WL_COND_FORALL ? neg == 0
                                   : pos == 0;
  /* each variable's name as a JSON string ("1:r0"), once: names.p +
   * noff[v], up to noff[v + 1] */
  wl__buf_init(&names, h->ctx);
  for (v = 0; v < h->lay.nvals; v++) {
    int th = hist_var_thread(h, v);
    wl_buf nb;
    wl__buf_init(&nb, h->ctx);
    if (th >= 0)
      wl__buf_printf(&nb, "%d:", th);
    wl__buf_puts(&nb, hist_var_name(h, v));
    noff[v] = names.n;
    wl__buf_json_str(&names, nb.p ? nb.p : "");
    if (nb.oom)
      names.oom = 1;
    wl__buf_free(&nb);
  }
  noff[h->lay.nvals] = names.n;
  wl__buf_init(&b, h->ctx);
  if (names.oom)
    b.oom = 1;
  wl__buf_puts(&b, "{\"test\": ");
  wl__buf_json_str(&b, t->name);
  wl__buf_puts(&b, ", \"file\": ");
  wl__buf_json_str(&b, t->filename ? t->filename : "");
  wl__buf_printf(&b, ", \"kind\": \"%s\", \"condition\": ",
                 kind_cond(h->kind));
  wl__buf_json_str(&b, h->cond ? h->cond : t->cond_text ? t->cond_text
                                                         : "true");
  wl__buf_printf(&b,
                 ", \"ok\": %s, \"verdict\": %d, \"positive\": %llu, "
                 "\"negative\": %llu, \"runs\": %llu, \"hung\": %llu, "
                 "\"partial\": %s, \"weak_known\": %s, \"time\": %.6f,\n"
                 "  \"variables\": [",
                 ok ? "true" : "false", ok, (unsigned long long)pos,
                 (unsigned long long)neg, (unsigned long long)h->runs,
                 (unsigned long long)h->hung, partial ? "true" : "false",
                 h->weak_known ? "true" : "false", seconds);
  for (v = 0; v < h->lay.nvals && !names.oom; v++) {
    wl__buf_puts(&b, v ? ", " : "");
    wl__buf_add(&b, names.p + noff[v], noff[v + 1] - noff[v]);
  }
  wl__buf_puts(&b, "],\n  \"outcomes\": [");
  for (i = 0; i < h->n; i++) {
    const hout *o = &h->o[order[i]];
    wl__buf_puts(&b, i ? ",\n    {\"values\": {" : "\n    {\"values\": {");
    for (v = 0; v < h->lay.nvals && !names.oom; v++) {
      if (v)
        wl__buf_add(&b, ", ", 2);
      wl__buf_add(&b, names.p + noff[v], noff[v + 1] - noff[v]);
      wl__buf_add(&b, ": ", 2);
      buf_var(&b, types, v, o->vals[v]);
    }
    wl__buf_printf(&b, "}, \"count\": %llu, \"condition\": %s, \"weak\": %s}",
                   (unsigned long long)o->count, o->sat ? "true" : "false",
                   !h->weak_known       ? "null"
                   : h->weak[order[i]] ? "true"
                                        : "false");
    if (b.n >= WRITE_CHUNK && !b.oom) {
      if (write(ud, b.p, b.n) != 0)
        break;
      b.n = 0;
    }
  }
  wl__buf_puts(&b, "]}\n");
  if (i < h->n)
    rc = wl__err(h->ctx, WL_EIO, "the writer stopped the output");
  else if (b.oom)
    rc = wl__err(h->ctx, WL_ENOMEM, "out of memory");
  else if (write(ud, b.p, b.n) != 0)
    rc = wl__err(h->ctx, WL_EIO, "the writer stopped the output");
  wl__buf_free(&b);
  wl__buf_free(&names);
  hist_order_free(h, order);
  return rc;
}
