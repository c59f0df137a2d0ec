/* symmetry.c -- identical threads.  Two threads are interchangeable when
 * they run the same instructions from the same initial registers and
 * swapping them maps the test's placement onto itself (every other
 * thread shares a CTA, and a GPU, with one exactly when it does with
 * the other): the swap then maps every consistent execution to a
 * consistent execution, so the final states of a test are closed under
 * the permutations of each class of interchangeable threads.
 *
 * The search uses that (states mode, built-in explorer, instruction
 * threads): within a class, the traces chosen are non-decreasing in
 * trace index (the members' trace lists are checked to be identical),
 * so each multiset of traces is searched once, and every state found is
 * recorded with its images under the class permutations, each with its
 * witness's threads renamed. */
#include <string.h>

#include "explore.h"

/* Permutations of all classes together at most this many: larger
 * classes are split (a smaller class is still a symmetry). */
#define SYM_MAX_IMAGES 5040

static int same_operand(const wl_operand *a, const wl_operand *b) {
  return a->is_reg == b->is_reg && (a->is_reg ? a->reg == b->reg
                                              : a->imm == b->imm);
}

static int same_insn(const wl_insn *a, const wl_insn *b) {
  return a->op == b->op && a->sem == b->sem && a->scope == b->scope &&
         a->aop == b->aop && a->cond == b->cond &&
         a->bar_kind == b->bar_kind && a->bar_ns == b->bar_ns &&
         a->has_count == b->has_count && a->proxy == b->proxy &&
         a->pfence == b->pfence && a->dst == b->dst && a->loc == b->loc &&
         a->alias == b->alias && same_operand(&a->a, &b->a) &&
         same_operand(&a->b, &b->b) && a->bar_inst == b->bar_inst &&
         a->target == b->target;
}

int wl__xp_same_insns(const wl_thread *a, const wl_thread *b) {
  int i;
  if (a->fn != NULL || b->fn != NULL || a->ninsns != b->ninsns)
    return 0;
  for (i = 0; i < a->ninsns; i++)
    if (!same_insn(&a->insns[i], &b->insns[i]))
      return 0;
  return 1;
}

static int same_code(const wl_thread *a, const wl_thread *b) {
  int i;
  if (!wl__xp_same_insns(a, b) || a->nregs != b->nregs)
    return 0;
  for (i = 0; i < a->nregs; i++)
    if (a->reginit[i] != b->reginit[i] || a->regtype[i] != b->regtype[i] ||
        strcmp(a->regnames[i], b->regnames[i]) != 0)
      return 0;
  return 1;
}

static int same_cta(const wl_thread *a, const wl_thread *b) {
  return a->cta == b->cta && a->gpu == b->gpu;
}

/* Whether swapping threads i and j maps the placement onto itself. */
static int swappable(const wl_litmus *t, int i, int j) {
  int k;
  for (k = 0; k < t->nthreads; k++) {
    const wl_thread *a = &t->threads[i], *b = &t->threads[j];
    const wl_thread *c = &t->threads[k];
    if (k == i || k == j)
      continue;
    if (same_cta(a, c) != same_cta(b, c) || (a->gpu == c->gpu) != (b->gpu == c->gpu))
      return 0;
  }
  return same_code(&t->threads[i], &t->threads[j]);
}

/* Whether thread a's traces are thread b's, in the same order. */
static int same_traces(const xp *x, int a, int b) {
  const tpool *pa = &x->pool[a], *pb = &x->pool[b];
  size_t k;
  if (pa->traces.n != pb->traces.n)
    return 0;
  for (k = 0; k < pa->traces.n; k++) {
    const wl_trace *ta = WL_VEC_PTR(&pa->traces, wl_trace, k);
    const wl_trace *tb = WL_VEC_PTR(&pb->traces, wl_trace, k);
    const wl_ev *ea, *eb;
    const int64_t *ra, *rb;
    int i;
    if (ta->nev != tb->nev || ta->nregs != tb->nregs || ta->cut != tb->cut)
      return 0;
    ea = WL_VEC_PTR(&pa->ev, wl_ev, ta->ev0);
    eb = WL_VEC_PTR(&pb->ev, wl_ev, tb->ev0);
    for (i = 0; i < ta->nev; i++)
      if (ea[i].type != eb[i].type || ea[i].sem != eb[i].sem ||
          ea[i].scope != eb[i].scope || ea[i].rmw != eb[i].rmw ||
          ea[i].loc != eb[i].loc || ea[i].val != eb[i].val ||
          ea[i].deps != eb[i].deps || ea[i].insn != eb[i].insn ||
          ea[i].bar_id != eb[i].bar_id || ea[i].bar_count != eb[i].bar_count)
        return 0;
    if (ta->nregs > 0) {
      ra = WL_VEC_PTR(&pa->regs, int64_t, ta->reg0);
      rb = WL_VEC_PTR(&pb->regs, int64_t, tb->reg0);
      if (memcmp(ra, rb, (size_t)ta->nregs * sizeof *ra) != 0)
        return 0;
    }
  }
  return 1;
}

static long fact(int n) {
  long f = 1;
  while (n > 1)
    f *= n--;
  return f;
}

void wl__xp_symmetry(xp *x) {
  const wl_litmus *t = x->t;
  int th, c, l;
  long images = 1;
  x->nsym = 0;
  for (th = 0; th < t->nthreads; th++)
    x->symprev[th] = -1;
  if ((x->all && !x->rf) || x->cand != NULL ||
      (x->opts != NULL && x->opts->no_symmetry))
    return; /* the value search's execution counts, and the cat engine,
             * see every thread */
  for (l = 0; l < t->nlocs; l++)
    if (t->locshared[l])
      return; /* per-CTA instances: the explorer expands them itself */
  for (th = 0; th < t->nthreads; th++) {
    int placed = 0;
    for (c = 0; c < x->nsym && !placed; c++) {
      int m = x->symn[c], k, ok = 1;
      long grown = images / fact(m) * fact(m + 1);
      for (k = 0; k < m && ok; k++)
        ok = swappable(t, x->sym[c][k], th) &&
             same_traces(x, x->sym[c][k], th);
      if (!ok || grown > SYM_MAX_IMAGES)
        continue;
      x->symprev[th] = x->sym[c][m - 1];
      x->sym[c][x->symn[c]++] = th;
      images = grown;
      placed = 1;
    }
    if (!placed) {
      x->sym[x->nsym][0] = th;
      x->symn[x->nsym++] = 1;
    }
  }
  /* counting executions, the reads-from search uses the classes only to
   * choose one of several untouched twins, and records every execution
   * that choice stands for (rfsearch.c): all combinations of traces */
  if (x->all)
    for (th = 0; th < t->nthreads; th++)
      x->symprev[th] = -1;
  /* only classes of two or more matter */
  for (c = 0; c < x->nsym;)
    if (x->symn[c] < 2) {
      memmove(&x->sym[c], &x->sym[c + 1], (size_t)(x->nsym - c - 1) *
                                              sizeof x->sym[0]);
      memmove(&x->symn[c], &x->symn[c + 1], (size_t)(x->nsym - c - 1) *
                                                sizeof x->symn[0]);
      x->nsym--;
    } else {
      c++;
    }
}

/* Records E's state under every permutation of the classes but the
 * identity (wl__xp_record_state records the identity). */
static int images(xp *x, exe *E, int c, int *perm) {
  int m, k, r, idx[WL_MAX_THREADS];
  const int *mem;
  if (c == x->nsym) {
    int th;
    for (th = 0; th < x->t->nthreads; th++)
      if (perm[th] != th)
        return wl__xp_record_perm(x, E, perm);
    return 0;
  }
  m = x->symn[c];
  mem = x->sym[c];
  for (k = 0; k < m; k++)
    idx[k] = k;
  for (;;) {
    int i, j;
    for (k = 0; k < m; k++)
      perm[mem[k]] = mem[idx[k]];
    if ((r = images(x, E, c + 1, perm)) != 0)
      return r;
    /* the next permutation of idx, in lexicographic order */
    for (i = m - 2; i >= 0 && idx[i] > idx[i + 1]; i--)
      ;
    if (i < 0)
      break;
    for (j = m - 1; idx[j] < idx[i]; j--)
      ;
    k = idx[i];
    idx[i] = idx[j];
    idx[j] = k;
    for (i++, j = m - 1; i < j; i++, j--) {
      k = idx[i];
      idx[i] = idx[j];
      idx[j] = k;
    }
  }
  for (k = 0; k < m; k++)
    perm[mem[k]] = mem[k];
  return 0;
}

int wl__xp_record_images(xp *x, exe *E) {
  int perm[WL_MAX_THREADS], th;
  if (x->nsym == 0)
    return 0;
  for (th = 0; th < x->t->nthreads; th++)
    perm[th] = th;
  return images(x, E, 0, perm);
}
