/* recgroup.c -- what the reader (parse.c) asks of a let rec group's
 * bodies: whether a name of the group is used in a negative place (the
 * group then has no least fixpoint), and which names read which (the
 * worklist its types are inferred with).  Both walk the syntax tree,
 * whose depth parse.c bounds. */
#include "catint.h"

#define NODE(i) WL_VEC_AT(&p->nodes, cat_node, i)
#define VAR(i) WL_VEC_AT(&p->vars, cat_var, i)

static int two(int kind) {
  return kind == N_UNION || kind == N_INTER || kind == N_DIFF ||
         kind == N_SEQ || kind == N_CART;
}

static int leaf(int kind) {
  return kind == N_VAR || kind == N_BSET || kind == N_BREL ||
         kind == N_ZERO;
}

/* A let rec means its least fixpoint, which exists (and is what the
 * evaluator's iteration from empty reaches) when every body grows with
 * the group's names: no name of the group may appear under an odd
 * number of complements and right operands of '\' (herd's own
 * requirement; "let rec r = ~r" was accepted, and its checks decided by
 * where the iteration gave up).  neg: the place is negative; flip: the
 * innermost operator that made it so. */
static int negative(const cat_prog *p, int i, int group, int neg, int flip,
                    int *use, int *at) {
  const cat_node *n = &NODE(i);
  switch (n->kind) {
  case N_VAR:
    if (neg && VAR(n->a).group == group) {
      *use = i;
      *at = flip;
      return 1;
    }
    return 0;
  case N_COMPL:
    return negative(p, n->a, group, !neg, i, use, at);
  case N_DIFF:
    return negative(p, n->a, group, neg, flip, use, at) ||
           negative(p, n->b, group, !neg, i, use, at);
  default:
    if (leaf(n->kind))
      return 0;
    return negative(p, n->a, group, neg, flip, use, at) ||
           (two(n->kind) && negative(p, n->b, group, neg, flip, use, at));
  }
}

int wl__cat_rec_negative(const cat_prog *p, int body, int group, int *use,
                         int *flip) {
  return negative(p, body, group, 0, -1, use, flip);
}

/* The group's names read in tree i, each once per reading: with list
 * NULL counts them into cnt[name - first], else puts reader into the
 * list at pos[name - first]++. */
static void readers(const cat_prog *p, int i, int group, int first,
                    int reader, int *cnt, int *pos, int *list) {
  const cat_node *n = &NODE(i);
  if (n->kind == N_VAR) {
    if (VAR(n->a).group == group) {
      if (list == NULL)
        cnt[n->a - first]++;
      else
        list[pos[n->a - first]++] = reader;
    }
    return;
  }
  if (leaf(n->kind))
    return;
  readers(p, n->a, group, first, reader, cnt, pos, list);
  if (two(n->kind))
    readers(p, n->b, group, first, reader, cnt, pos, list);
}

int wl__cat_rec_readers(cat_prog *p, int first, int group, int **start,
                        int **list, int *total) {
  int n = (int)p->vars.n - first, i, t = 0;
  int *cnt = wl__calloc(p->ctx, (size_t)(2 * n + 1) * sizeof *cnt);
  int *pos = cnt != NULL ? cnt + n + 1 : NULL, *l;
  *start = *list = NULL;
  *total = 0;
  if (cnt == NULL)
    return WL_ENOMEM;
  for (i = 0; i < n; i++)
    readers(p, VAR(first + i).body, group, first, first + i, cnt, NULL,
            NULL);
  for (i = 0; i < n; i++) { /* cnt becomes each name's start in list */
    int c = cnt[i];
    cnt[i] = pos[i] = t;
    t += c;
  }
  cnt[n] = t;
  l = wl__alloc(p->ctx, (t > 0 ? (size_t)t : 1) * sizeof *l);
  if (l == NULL) {
    wl__free(p->ctx, cnt, (size_t)(2 * n + 1) * sizeof *cnt);
    return WL_ENOMEM;
  }
  for (i = 0; i < n; i++)
    readers(p, VAR(first + i).body, group, first, first + i, cnt, pos, l);
  *start = cnt;
  *list = l;
  *total = t;
  return 0;
}

void wl__cat_rec_readers_free(cat_prog *p, int n, int *start, int *list,
                              int total) {
  if (start != NULL)
    wl__free(p->ctx, start, (size_t)(2 * n + 1) * sizeof *start);
  if (list != NULL)
    wl__free(p->ctx, list, (total > 0 ? (size_t)total : 1) * sizeof *list);
}
