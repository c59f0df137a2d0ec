/* scstates.c -- wl_sc_states: the explorer's reference, the final states
 * of the sequentially consistent search (sc.c, scsearch.h) collected
 * without repeats.  Its parameters: callback results become registers
 * of the test (as wl_explore makes them), every final state is kept,
 * the explorer's state budget, no stop hook. */
#include <string.h>

#include "model.h"
#include "scsearch.h"

typedef struct collect {
  wl_ctx *ctx;
  const wl_litmus *t;
  /* final states, expanded: each thread's registers (callback threads:
   * WL_MAX_REGS, as their results may grow the test during the
   * search), then the locations */
  int xoff[WL_MAX_THREADS + 1], xn;
  int64_t *fin;
  size_t nfin, fincap;
  size_t *ftab; /* open addressing: index + 1, 0 empty */
  size_t ftabcap;
} collect;

static uint64_t hash_vals(const int64_t *v, int n) {
  const uint8_t *p = (const uint8_t *)v;
  uint64_t h = 0xcbf29ce484222325ull;
  size_t i;
  for (i = 0; i < (size_t)n * sizeof *v; i++)
    h = (h ^ p[i]) * 0x100000001b3ull;
  return h ^ (h >> 29);
}

/* The sink: keeps a final state unless it is known. */
static int keep(void *ud, const int64_t *const *regs, const int64_t *mem) {
  collect *c = ud;
  const wl_litmus *t = c->t;
  int64_t *v;
  size_t k, i;
  int th;
  if (c->nfin == c->fincap) {
    size_t cap = c->fincap ? c->fincap * 2 : 16;
    int64_t *p =
        wl__realloc(c->ctx, c->fin, c->fincap * (size_t)c->xn * sizeof *p,
                    cap * (size_t)c->xn * sizeof *p);
    if (p == NULL)
      return wl__err(c->ctx, WL_ENOMEM, "out of memory");
    c->fin = p;
    c->fincap = cap;
  }
  v = c->fin + c->nfin * (size_t)c->xn;
  for (th = 0; th < t->nthreads; th++)
    memcpy(v + c->xoff[th], regs[th],
           (size_t)(c->xoff[th + 1] - c->xoff[th]) * sizeof *v);
  memcpy(v + c->xoff[t->nthreads], mem, (size_t)t->nlocs * sizeof *v);
  if ((c->nfin + 1) * 2 > c->ftabcap) {
    size_t cap = c->ftabcap ? c->ftabcap * 2 : 64;
    size_t *tab = wl__calloc(c->ctx, cap * sizeof *tab);
    if (tab == NULL)
      return wl__err(c->ctx, WL_ENOMEM, "out of memory");
    for (i = 0; i < c->nfin; i++) {
      k = (size_t)hash_vals(c->fin + i * (size_t)c->xn, c->xn) & (cap - 1);
      while (tab[k])
        k = (k + 1) & (cap - 1);
      tab[k] = i + 1;
    }
    wl__free(c->ctx, c->ftab, c->ftabcap * sizeof *c->ftab);
    c->ftab = tab;
    c->ftabcap = cap;
  }
  for (k = (size_t)hash_vals(v, c->xn) & (c->ftabcap - 1); c->ftab[k];
       k = (k + 1) & (c->ftabcap - 1))
    if (memcmp(c->fin + (c->ftab[k] - 1) * (size_t)c->xn, v,
               (size_t)c->xn * sizeof *v) == 0)
      return 0;
  c->ftab[k] = ++c->nfin;
  return 0;
}

/* Results are the thread's registers: like the explorer, the test grows
 * them. */
static int name_reg(void *ud, int th, const char *name, int type, int64_t value,
                    int *slot) {
  collect *c = ud;
  wl_thread *w = (wl_thread *)&c->t->threads[th];
  int r, was;
  (void)value;
  r = wl__thread_result(c->ctx, w, name, type, &was);
  if (r == -3)
    return wl__result_type_err(c->ctx, w->name, name, was, type);
  if (r == -2)
    return wl__err(c->ctx, WL_ENOMEM, "out of memory");
  if (r < 0)
    return wl__err(c->ctx, WL_ELIMIT, "thread %s: more than %d results",
                   w->name, WL_MAX_REGS);
  *slot = r;
  return 0;
}

/* Hands the final states over in wl_layout's order (the registers that
 * callbacks added during the search included). */
static int emit(collect *c, wl_state_fn each, void *ud) {
  const wl_litmus *t = c->t;
  wl_layout lay;
  int64_t *v;
  size_t i;
  int th, rc = 0;
  wl__layout_init(&lay, t);
  v = wl__alloc(c->ctx, ((size_t)lay.nvals + 1) * sizeof *v);
  if (v == NULL)
    return wl__err(c->ctx, WL_ENOMEM, "out of memory");
  for (i = 0; i < c->nfin && rc == 0; i++) {
    const int64_t *x = c->fin + i * (size_t)c->xn;
    for (th = 0; th < t->nthreads; th++)
      memcpy(v + lay.regoff[th], x + c->xoff[th],
             (size_t)t->threads[th].nregs * sizeof *v);
    memcpy(v + lay.regoff[t->nthreads], x + c->xoff[t->nthreads],
           (size_t)t->nlocs * sizeof *v);
    if (each(ud, v, lay.nvals) != 0)
      rc = wl__err(c->ctx, WL_ESTOPPED, "stopped by the caller");
  }
  wl__free(c->ctx, v, ((size_t)lay.nvals + 1) * sizeof *v);
  return rc;
}

int wl_sc_states(wl_ctx *ctx, const wl_litmus *t, int unroll, wl_state_fn each,
                 void *ud, int *bound_hit) {
  wl__sc_params p;
  collect c;
  int rc, th;
  if (bound_hit != NULL)
    *bound_hit = 0;
  if (ctx == NULL)
    return WL_EINVAL;
  ctx->errmsg[0] = '\0';
  if (t == NULL || each == NULL)
    return wl__err(ctx, WL_EINVAL, "wl_sc_states: a test and a callback");
  if (unroll < 0)
    return wl__err(ctx, WL_EINVAL, "unroll bound must be >= 0");
  memset(&c, 0, sizeof c);
  c.ctx = ctx;
  c.t = t;
  for (th = 0; th < t->nthreads; th++) {
    c.xoff[th] = c.xn;
    c.xn += t->threads[th].fn != NULL ? WL_MAX_REGS : t->threads[th].nregs;
  }
  c.xoff[t->nthreads] = c.xn;
  c.xn += t->nlocs;
  memset(&p, 0, sizeof p);
  p.unroll = unroll;
  p.final = keep;
  p.result = name_reg;
  p.ud = &c;
  rc = wl__sc_search(ctx, t, &p);
  if (rc == 0)
    rc = emit(&c, each, ud);
  if (bound_hit != NULL)
    *bound_hit = p.bound_hit;
  wl__free(ctx, c.fin, c.fincap * (size_t)c.xn * sizeof *c.fin);
  wl__free(ctx, c.ftab, c.ftabcap * sizeof *c.ftab);
  return rc;
}
