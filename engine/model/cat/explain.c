/* explain.c -- what the why-not explanations (model/whynot.c) need of a
 * model: a private copy whose later checks can be waived (so that the
 * candidates failing only them count as consistent), an observer of the
 * consistent candidates, and the relation a check tests. */
#include <string.h>

#include "catint.h"

int wl__cat_copy(wl_ctx *ctx, const wl_cat *m, wl_cat **out) {
  wl_cat *c = wl__calloc(ctx, sizeof *c);
  size_t noff = (size_t)(m->nchecks + m->nflags + 1);
  *out = NULL;
  if (c == NULL)
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  *c = *m;
  c->ctx = ctx;
  c->ops = NULL;
  c->info = NULL;
  c->names = NULL;
  c->name_off = NULL;
  c->title = NULL;
  c->waived = 0;
  c->observe = NULL;
  c->observe_ud = NULL;
  if (m->ops_cap > 0)
    c->ops = wl__alloc(ctx, m->ops_cap * sizeof *c->ops);
  if (m->nops > 0)
    c->info = wl__alloc(ctx, m->nops * sizeof *c->info);
  if (m->names_size > 0)
    c->names = wl__alloc(ctx, m->names_size);
  c->name_off = wl__alloc(ctx, noff * sizeof *c->name_off);
  if (m->title != NULL)
    c->title = wl__strndup(ctx, m->title, strlen(m->title));
  if ((m->ops_cap > 0 && c->ops == NULL) ||
      (m->nops > 0 && c->info == NULL) ||
      (m->names_size > 0 && c->names == NULL) || c->name_off == NULL ||
      (m->title != NULL && c->title == NULL)) {
    /* the sizes wl__cat_free uses are those of m, copied */
    wl__cat_free(c);
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  }
  if (m->ops_cap > 0)
    memcpy(c->ops, m->ops, m->ops_cap * sizeof *c->ops);
  if (m->nops > 0)
    memcpy(c->info, m->info, m->nops * sizeof *c->info);
  if (m->names_size > 0)
    memcpy(c->names, m->names, m->names_size);
  memcpy(c->name_off, m->name_off, noff * sizeof *c->name_off);
  *out = c;
  return 0;
}

void wl__cat_set_waived(wl_cat *m, uint64_t waived) { m->waived = waived; }

void wl__cat_set_observer(wl_cat *m, wl__cat_observe_fn fn, void *ud) {
  m->observe = fn;
  m->observe_ud = ud;
}

wl__cat_observe_fn wl__cat_observer(const wl_cat *m, void **ud) {
  *ud = m->observe_ud;
  return m->observe;
}

int wl__cat_check_value(const wl_cat *m, wl__cat_scratch *s,
                        const wl__cand *c, int k, int *kind, int *negated,
                        uint64_t *rows, uint64_t *set) {
  const cat_op *op = NULL;
  wl__cat_out o;
  size_t i;
  int r;
  if (k < 0 || k >= m->nchecks || k >= 64)
    return WL_EINVAL;
  for (i = 0; i < m->nops; i++)
    if (m->ops[i].op >= OP_CHK_ACYCLIC && !m->ops[i].c && m->ops[i].d == k)
      op = &m->ops[i];
  if (op == NULL)
    return WL_EINVAL;
  if ((r = wl__cat_eval(m, s, c, ~(uint64_t)0, ~(uint64_t)0, 1,
                        (uint64_t)1 << k, &o)) != 0)
    return r;
  *negated = op->b != 0;
  memset(rows, 0, WL_CAT_MAXEV * sizeof *rows);
  *set = 0;
  switch (op->op) {
  case OP_CHK_ACYCLIC:
    *kind = 'a';
    break;
  case OP_CHK_IRREFL:
    *kind = 'i';
    break;
  case OP_CHK_EMPTY_R:
    *kind = 'e';
    break;
  default:
    *kind = 's';
    *set = wl__cat_scratch_set(s, op->a);
    return 0;
  }
  memcpy(rows, wl__cat_scratch_rel(s, op->a), (size_t)c->n * sizeof *rows);
  return 0;
}
