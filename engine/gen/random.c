/* random.c -- random litmus programs of a given size.
 *
 * Each thread gets `insns` memory operations, fences or dependencies
 * (register arithmetic and labels do not count), drawn from the enabled
 * mix.  Stores write values distinct per location (1, 2, ...), so that a
 * final state tells which store a read saw.  Branches only jump forward
 * (over at most one operation), so every program terminates and needs no
 * unrolling.  A location gets at most RMAX_WRITES writes (stores,
 * atomics, reductions): the explorer enumerates coherence orders, and
 * seven writes to one location take seconds where three take
 * milliseconds; and at most one of them is arithmetic (atom.add, .or,
 * .max, red.add), since each multiplies the values loads may return.
 * bar.sync 0 is put at one row of every thread of each CTA
 * that holds several threads, never inside a branch's shadow: every
 * thread of a CTA reaches it exactly once, so barriers never deadlock.
 * The condition is one or two conjunctions of 1 to 3 atoms over loaded
 * registers and final values, each compared with a value the location
 * can hold; exists, ~exists and forall are drawn 6:2:2. */
#include <string.h>

#include "gen.h"

#define RMAX_WRITES 3

static gop *push(gthread *th) {
  gop *o = &th->op[th->nops++];
  memset(o, 0, sizeof *o);
  o->loc = o->dst = o->src = -1;
  return o;
}

typedef struct rstate {
  const wl_gen_opts *o;
  uint64_t *rng;
  gtest *t;
  unsigned mix;
  int64_t next[GMAX_L];    /* the next value a store writes, per location */
  int64_t vals[GMAX_L][40]; /* values each location may hold */
  int nvals[GMAX_L];
  int loaded[GMAX_T][GMAX_R]; /* registers holding a loaded value */
  int nloaded[GMAX_T];
  int regloc[GMAX_T][GMAX_R]; /* location a register was loaded from */
  int nlabels;
  int writes[GMAX_L];
  int arith[GMAX_L]; /* an add, or or max wrote the location */
} rstate;

/* A location that may take one more write, or -1. */
static int pick_wloc(rstate *s) {
  int c[GMAX_L], n = 0, l;
  for (l = 0; l < s->t->nlocs; l++)
    if (s->writes[l] < RMAX_WRITES)
      c[n++] = l;
  if (n == 0)
    return -1;
  l = c[wl__gen_below(s->rng, n)];
  s->writes[l]++;
  return l;
}

static int can_write(const rstate *s) {
  int l;
  for (l = 0; l < s->t->nlocs; l++)
    if (s->writes[l] < RMAX_WRITES)
      return 1;
  return 0;
}

static int pick_scope(rstate *s) {
  int sc[3], n = 0, k;
  for (k = 0; k < 3; k++)
    if (s->o->scopes == 0 || (s->o->scopes & (1u << k)))
      sc[n++] = WL_SCOPE_CTA + k;
  return sc[wl__gen_below(s->rng, n)];
}

static void note_val(rstate *s, int loc, int64_t v) {
  int i;
  for (i = 0; i < s->nvals[loc]; i++)
    if (s->vals[loc][i] == v)
      return;
  if (s->nvals[loc] < 40)
    s->vals[loc][s->nvals[loc]++] = v;
}

/* The semantics of a load (store: 1) from the enabled mix. */
static void pick_sem(rstate *s, int store, gop *o) {
  int c[3], n = 0;
  if (s->mix & WL_GEN_MIX_WEAK)
    c[n++] = WL_SEM_WEAK;
  if (s->mix & WL_GEN_MIX_RELAXED)
    c[n++] = WL_SEM_RELAXED;
  if (s->mix & WL_GEN_MIX_ACQREL)
    c[n++] = store ? WL_SEM_RELEASE : WL_SEM_ACQUIRE;
  if (n == 0)
    c[n++] = WL_SEM_WEAK;
  o->sem = (uint8_t)c[wl__gen_below(s->rng, n)];
  o->scope = o->sem == WL_SEM_WEAK ? WL_SCOPE_NONE : (uint8_t)pick_scope(s);
}

static int fresh_reg(rstate *s, int t) {
  gthread *th = &s->t->th[t];
  return th->nregs < GMAX_R ? th->nregs++ : -1;
}

static void note_loaded(rstate *s, int t, int r, int loc) {
  s->loaded[t][s->nloaded[t]++] = r;
  s->regloc[t][r] = loc;
}

/* One operation of thread t; may_branch: a control dependency may be
 * drawn (it then covers the next operation too, counted in *used). */
static void one_op(rstate *s, int t, int may_branch, int *used) {
  gthread *th = &s->t->th[t];
  int nl = s->t->nlocs;
  int w[7], kinds = 0, total = 0, k, roll;
  /* weights: load, store, atom, red, fence, data, ctrl */
  static const int base[7] = {30, 30, 10, 5, 10, 8, 7};
  for (k = 0; k < 7; k++) {
    int on = 1;
    if (k == 2)
      on = (s->mix & WL_GEN_MIX_ATOM) != 0;
    else if (k == 3)
      on = (s->mix & WL_GEN_MIX_RED) != 0;
    else if (k == 4)
      on = (s->mix & WL_GEN_MIX_FENCE) != 0;
    else if (k >= 5)
      on = (s->mix & WL_GEN_MIX_DEP) != 0 && s->nloaded[t] > 0;
    if (k == 6)
      on = on && may_branch;
    if ((k == 0 || k == 2) && th->nregs >= GMAX_R)
      on = 0;
    if ((k == 1 || k == 2 || k == 3 || k == 5) && !can_write(s))
      on = 0;
    w[k] = on ? base[k] : 0;
    total += w[k];
    kinds++;
  }
  (void)kinds;
  if (total == 0) {
    /* nothing fits: a fence, which every program may have */
    gop *o = push(th);
    o->kind = G_FENCE;
    o->sem = WL_SEM_SC;
    o->scope = (uint8_t)pick_scope(s);
    *used = 1;
    return;
  }
  roll = wl__gen_below(s->rng, total);
  for (k = 0; roll >= w[k]; k++)
    roll -= w[k];
  *used = 1;
  switch (k) {
  case 0: { /* load */
    gop *o = push(th);
    o->kind = G_LD;
    o->loc = (int8_t)wl__gen_below(s->rng, nl);
    o->dst = (int8_t)fresh_reg(s, t);
    pick_sem(s, 0, o);
    note_loaded(s, t, o->dst, o->loc);
    break;
  }
  case 1: { /* store */
    gop *o = push(th);
    o->kind = G_ST;
    o->loc = (int8_t)pick_wloc(s);
    o->a = s->next[o->loc]++;
    note_val(s, o->loc, o->a);
    pick_sem(s, 1, o);
    break;
  }
  case 2: { /* atom */
    static const int ops[] = {WL_OP_ADD, WL_OP_EXCH, WL_OP_CAS, WL_OP_OR,
                              WL_OP_MAX};
    static const int sems[] = {WL_SEM_RELAXED, WL_SEM_ACQUIRE, WL_SEM_RELEASE,
                               WL_SEM_ACQ_REL};
    gop *o = push(th);
    int l = pick_wloc(s), i;
    o->kind = G_ATOM;
    o->loc = (int8_t)l;
    o->dst = (int8_t)fresh_reg(s, t);
    o->aop = (uint8_t)ops[wl__gen_below(s->rng, 5)];
    o->sem = (uint8_t)sems[wl__gen_below(s->rng, 4)];
    if (o->aop == WL_OP_ADD || o->aop == WL_OP_OR || o->aop == WL_OP_MAX) {
      if (s->arith[l])
        o->aop = WL_OP_EXCH;
      s->arith[l] = 1;
    }
    o->scope = (uint8_t)pick_scope(s);
    if (wl__gen_below(s->rng, 5) == 0) {
      o->sem = WL_SEM_WEAK; /* the bare form: .relaxed.gpu */
      o->scope = WL_SCOPE_NONE;
    }
    switch (o->aop) {
    case WL_OP_ADD:
      o->a = 1 + wl__gen_below(s->rng, 2);
      break;
    case WL_OP_OR:
      o->a = 4;
      break;
    case WL_OP_CAS:
      o->a = s->nvals[l] > 0 && wl__gen_below(s->rng, 2)
                 ? s->vals[l][wl__gen_below(s->rng, s->nvals[l])]
                 : 0;
      o->b = s->next[l]++;
      break;
    default:
      o->a = s->next[l]++;
      break;
    }
    /* what the location may hold after it (roughly: adds of small
     * numbers to the values seen so far) */
    if (o->aop == WL_OP_CAS) {
      note_val(s, l, o->b);
    } else if (o->aop == WL_OP_ADD || o->aop == WL_OP_OR) {
      int nv = s->nvals[l];
      note_val(s, l, o->a);
      for (i = 0; i < nv; i++)
        note_val(s, l, o->aop == WL_OP_ADD ? s->vals[l][i] + o->a
                                           : (s->vals[l][i] | o->a));
    } else {
      note_val(s, l, o->a);
    }
    note_loaded(s, t, o->dst, o->loc);
    break;
  }
  case 3: { /* red */
    gop *o = push(th);
    int i, nv;
    o->kind = G_RED;
    o->loc = (int8_t)pick_wloc(s);
    o->aop = WL_OP_ADD;
    o->a = 1;
    o->sem = wl__gen_below(s->rng, 2) ? WL_SEM_RELAXED : WL_SEM_RELEASE;
    o->scope = (uint8_t)pick_scope(s);
    if (s->arith[o->loc]) {
      /* one arithmetic write per location: a store instead */
      o->kind = G_ST;
      o->a = s->next[o->loc]++;
      note_val(s, o->loc, o->a);
      break;
    }
    s->arith[o->loc] = 1;
    nv = s->nvals[o->loc];
    for (i = 0; i < nv; i++)
      note_val(s, o->loc, s->vals[o->loc][i] + 1);
    break;
  }
  case 4: { /* fence */
    gop *o = push(th);
    o->kind = G_FENCE;
    o->sem = wl__gen_below(s->rng, 2) ? WL_SEM_SC : WL_SEM_ACQ_REL;
    o->scope = (uint8_t)pick_scope(s);
    break;
  }
  case 5: { /* data dependency: store a loaded value, or a constant
             * computed from it */
    int r = s->loaded[t][wl__gen_below(s->rng, s->nloaded[t])];
    gop *o;
    int l = pick_wloc(s), src = r;
    if (wl__gen_below(s->rng, 2) && th->nregs < GMAX_R) {
      src = fresh_reg(s, t);
      o = push(th);
      o->kind = G_ALU;
      o->aop = WL_OP_XOR;
      o->dst = (int8_t)src;
      o->src = (int8_t)r;
      o = push(th);
      o->kind = G_ALU;
      o->aop = WL_OP_ADD;
      o->dst = o->src = (int8_t)src;
      o->a = s->next[l]++;
      note_val(s, l, o->a);
    } else {
      int rl = s->regloc[t][r], i;
      for (i = 0; i < s->nvals[rl]; i++)
        note_val(s, l, s->vals[rl][i]);
    }
    o = push(th);
    o->kind = G_ST;
    o->loc = (int8_t)l;
    o->src = (int8_t)src;
    pick_sem(s, 1, o);
    break;
  }
  default: { /* control dependency: skip the next operation or not */
    int r = s->loaded[t][wl__gen_below(s->rng, s->nloaded[t])];
    int rl = s->regloc[t][r], lab = s->nlabels++, sub;
    gop *o = push(th);
    o->kind = G_BR;
    o->ne = (uint8_t)wl__gen_below(s->rng, 2);
    o->src = (int8_t)r;
    o->a = s->nvals[rl] > 0 && wl__gen_below(s->rng, 2)
               ? s->vals[rl][wl__gen_below(s->rng, s->nvals[rl])]
               : 0;
    o->label = lab;
    one_op(s, t, 0, &sub);
    o = push(th);
    o->kind = G_LABEL;
    o->label = lab;
    *used = 2;
    break;
  }
  }
}

void wl__gen_random(const wl_gen_opts *o, uint64_t *rng, gtest *t) {
  rstate s;
  int i, k, places[4], np = 0, barrow = -1, ncand = 0;
  int incta[GMAX_T];
  gatom cand[GMAX_T * GMAX_R + GMAX_L];
  memset(&s, 0, sizeof s);
  memset(t, 0, sizeof *t);
  s.o = o;
  s.rng = rng;
  s.t = t;
  s.mix = o->mix ? o->mix : 0xffu;
  t->nthreads = o->threads ? o->threads : 2;
  t->nlocs = o->locs ? o->locs : 2;
  for (i = 0; i < t->nlocs; i++) {
    s.next[i] = 1;
    note_val(&s, i, 0);
  }
  for (k = 0; k < 4; k++)
    if (o->placements == 0 || (o->placements & (1u << k)))
      places[np++] = k;
  wl__gen_place(t, places[wl__gen_below(rng, np)], rng);
  /* barriers: at one row, in every thread sharing its CTA */
  {
    int n = o->insns ? o->insns : 4, any = 0, j;
    for (i = 0; i < t->nthreads; i++) {
      incta[i] = 0;
      for (j = 0; j < t->nthreads; j++)
        if (j != i && t->th[j].cta == t->th[i].cta &&
            t->th[j].gpu == t->th[i].gpu)
          incta[i] = any = 1;
    }
    if (any && (s.mix & WL_GEN_MIX_BAR) && n >= 2 &&
        wl__gen_below(rng, 3) == 0)
      barrow = wl__gen_below(rng, n);
  }
  for (i = 0; i < t->nthreads; i++) {
    int n = o->insns ? o->insns : 4, row = 0;
    while (row < n) {
      int used = 1;
      if (row == barrow && incta[i]) {
        gop *b = push(&t->th[i]);
        b->kind = G_BAR;
      } else {
        int may = barrow < 0 || row + 1 != barrow || !incta[i];
        one_op(&s, i, may && row + 1 < n, &used);
      }
      row += used;
    }
  }
  /* the condition */
  for (i = 0; i < t->nthreads; i++) {
    for (k = 0; k < s.nloaded[i]; k++) {
      int r = s.loaded[i][k], l = s.regloc[i][r];
      gatom *g = &cand[ncand++];
      g->thread = i;
      g->idx = r;
      g->v = s.vals[l][wl__gen_below(rng, s.nvals[l])];
    }
  }
  for (i = 0; i < t->nlocs; i++) {
    gatom *g = &cand[ncand++];
    g->thread = -1;
    g->idx = i;
    g->v = s.vals[i][wl__gen_below(rng, s.nvals[i])];
  }
  {
    int roll = wl__gen_below(rng, 10), na, c;
    t->kind = roll < 6 ? WL_COND_EXISTS
                       : roll < 8 ? WL_COND_NOTEXISTS : WL_COND_FORALL;
    na = 1 + wl__gen_below(rng, ncand < 3 ? ncand : 3);
    t->nclauses = na >= 2 && wl__gen_below(rng, 4) == 0 ? 2 : 1;
    for (k = 0; k < na; k++) {
      /* distinct atoms: a partial shuffle of the candidates */
      int j = k + wl__gen_below(rng, ncand - k);
      gatom tmp = cand[k];
      cand[k] = cand[j];
      cand[j] = tmp;
      c = t->nclauses == 2 && k == na - 1 ? 1 : 0;
      t->at[c][t->nat[c]] = cand[k];
      t->at[c][t->nat[c]].ne = wl__gen_below(rng, 6) == 0;
      t->nat[c]++;
    }
  }
}
