/* names.c -- the reader's table of names: for each name a model binds,
 * its latest binding and its latest visible one (the binding a use of
 * the name resolves to; catint.h, cat_var.visible), so that resolving a
 * name costs one hash probe instead of a walk over every binding
 * before it (a model of 200,000 lets took 17 s to read that way).
 *
 * Representation: open addressing over the names' bytes (FNV-1a), at
 * most half full; an entry holds variable indices, and its name is the
 * name of its variables (all of them spell it). */
#include <string.h>

#include "catint.h"

typedef struct cat_name {
  int bound;   /* the latest variable binding the name, -1: free slot */
  int visible; /* the latest visible one, or -1 */
} cat_name;

static unsigned hash(const char *s, size_t n) {
  unsigned h = 2166136261u;
  size_t i;
  for (i = 0; i < n; i++)
    h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

static const cat_var *var(const cat_prog *p, int i) {
  return &WL_VEC_AT(&p->vars, cat_var, i);
}

/* The slot of name s (its entry, or the free slot where it goes). */
static cat_name *slot(const cat_prog *p, const char *s, size_t n) {
  cat_name *tab = p->ntab;
  size_t mask = p->ntab_cap - 1, h = hash(s, n) & mask;
  for (;; h = (h + 1) & mask) {
    const cat_var *v;
    if (tab[h].bound < 0)
      return &tab[h];
    v = var(p, tab[h].bound);
    if (v->namelen == n && memcmp(p->names.p + v->name, s, n) == 0)
      return &tab[h];
  }
}

static int grow(cat_prog *p) {
  cat_name *old = p->ntab;
  size_t ocap = p->ntab_cap, cap = ocap ? ocap * 2 : 64, i;
  cat_name *tab = wl__alloc(p->ctx, cap * sizeof *tab);
  if (tab == NULL)
    return WL_ENOMEM;
  for (i = 0; i < cap; i++)
    tab[i].bound = tab[i].visible = -1;
  p->ntab = tab;
  p->ntab_cap = cap;
  for (i = 0; i < ocap; i++)
    if (old[i].bound >= 0) {
      const cat_var *v = var(p, old[i].bound);
      *slot(p, p->names.p + v->name, v->namelen) = old[i];
    }
  wl__free(p->ctx, old, ocap * sizeof *old);
  return 0;
}

int wl__cat_name_bound(cat_prog *p, int v) {
  const cat_var *x = var(p, v);
  cat_name *e;
  if (2 * (p->ntab_used + 1) > p->ntab_cap && grow(p) != 0)
    return WL_ENOMEM;
  e = slot(p, p->names.p + x->name, x->namelen);
  if (e->bound < 0) {
    e->visible = -1;
    p->ntab_used++;
  }
  e->bound = v;
  if (x->visible && v > e->visible)
    e->visible = v;
  return 0;
}

void wl__cat_name_show(cat_prog *p, int v) {
  const cat_var *x = var(p, v);
  cat_name *e;
  if (p->ntab_cap == 0)
    return;
  e = slot(p, p->names.p + x->name, x->namelen);
  if (e->bound >= 0 && v > e->visible)
    e->visible = v;
}

int wl__cat_name_visible(const cat_prog *p, const char *s, size_t n) {
  const cat_name *e;
  if (p->ntab_cap == 0)
    return -1;
  e = slot(p, s, n);
  return e->bound >= 0 ? e->visible : -1;
}

int wl__cat_name_latest(const cat_prog *p, const char *s, size_t n) {
  if (p->ntab_cap == 0)
    return -1;
  return slot(p, s, n)->bound;
}

void wl__cat_names_free(cat_prog *p) {
  wl__free(p->ctx, p->ntab, p->ntab_cap * sizeof *p->ntab);
  p->ntab = NULL;
  p->ntab_cap = p->ntab_used = 0;
}
