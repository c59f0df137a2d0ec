/* copies.c -- tests of interchangeable threads: 2 to 8 copies of one or
 * two thread bodies (WL_GEN_COPIES).
 *
 * The copies of a body are the same instructions over the same
 * registers, so they print byte-identical and the explorer's symmetry
 * between interchangeable threads applies wherever the placement lets
 * it (all in one CTA, one CTA or one GPU each; a mixed placement may
 * break it, which is a test too).  A body is 1 to 3 instructions: RMWs
 * (atom add, exch, cas, inc under relaxed/acquire/release/acq_rel and a
 * scope, or bare), loads and stores (weak, relaxed, acquire/release),
 * reductions (red.add) and fences (fence.sc / fence.acq_rel), over one
 * or two locations.  The whole test stays within CMAX_INSNS instructions
 * (the literal evaluation of the cat model enumerates every candidate
 * execution), so 8 copies come only with one-instruction bodies, and
 * the test has at most opts.max_size writes (stores, RMWs, reductions;
 * default CMAX_WRITES), copies counted: eight copies of an add are
 * asked for with 8.
 *
 * The condition looks at one copy (usually P0): one or two of its
 * registers, the final values of the locations, or both, compared with
 * values the location may hold (stores' values, sums of the adds, the
 * inc bound's range); exists, ~exists and forall are drawn 6:2:2. */
#include <string.h>

#include "gen.h"

#define CMAX_INSNS 12 /* instructions over all threads */
#define CMAX_WRITES 4 /* writes in all (opts.max_size) */
#define CMAX_VALS 40

typedef struct cstate {
  const wl_gen_opts *o;
  uint64_t *rng;
  unsigned mix;
  int64_t next[GMAX_L];          /* the next fresh value per location */
  int64_t base[GMAX_L][CMAX_VALS]; /* values written outright (and 0) */
  int nbase[GMAX_L];
  int64_t adds[GMAX_L];          /* what every add together may add */
  int64_t incmax[GMAX_L];        /* the largest inc bound, 0: none */
  int regloc[2][GMAX_R];         /* per body: the location a register
                                  * was read from */
  int writes;                    /* writes so far, copies counted */
  int maxw;                      /* the most writes in all */
} cstate;

static gop *cpush(gthread *th) {
  gop *o = &th->op[th->nops++];
  memset(o, 0, sizeof *o);
  o->loc = o->dst = o->src = -1;
  return o;
}

static void note_base(cstate *s, int l, int64_t v) {
  int i;
  for (i = 0; i < s->nbase[l]; i++)
    if (s->base[l][i] == v)
      return;
  if (s->nbase[l] < CMAX_VALS)
    s->base[l][s->nbase[l]++] = v;
}

static int cscope(cstate *s) {
  int sc[3], n = 0, k;
  for (k = 0; k < 3; k++)
    if (s->o->scopes == 0 || (s->o->scopes & (1u << k)))
      sc[n++] = WL_SCOPE_CTA + k;
  return sc[wl__gen_below(s->rng, n)];
}

/* Semantics of a load (store: 1) from the mix, as random.c draws them. */
static void csem(cstate *s, int store, gop *o) {
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
  o->scope = o->sem == WL_SEM_WEAK ? WL_SCOPE_NONE : (uint8_t)cscope(s);
}

/* One instruction of body b (thread th); copies multiply its effect on
 * the values a location may hold by k. */
static void cop(cstate *s, int b, gthread *th, int nlocs, int k) {
  /* weights: rmw, load, store, red, fence (a fence only after another
   * instruction: a body of one fence tests little) */
  int w[5], total = 0, kind, l = wl__gen_below(s->rng, nlocs), wl = -1;
  /* may the k copies all write? (the coherence orders the explorer
   * and the cat engine enumerate grow as the factorial of a location's
   * writes, and their product over locations) */
  if (s->writes + k <= s->maxw)
    wl = l;
  w[0] = (s->mix & WL_GEN_MIX_ATOM) && wl >= 0 ? 45 : 0;
  w[1] = 20;
  w[2] = wl >= 0 ? 20 : 0;
  w[3] = (s->mix & WL_GEN_MIX_RED) && wl >= 0 ? 5 : 0;
  w[4] = (s->mix & WL_GEN_MIX_FENCE) && th->nops > 0 ? 12 : 0;
  if (th->nregs >= GMAX_R)
    w[0] = w[1] = 0;
  for (kind = 0; kind < 5; kind++)
    total += w[kind];
  total = wl__gen_below(s->rng, total);
  for (kind = 0; total >= w[kind]; kind++)
    total -= w[kind];
  if (kind == 0 || kind == 2 || kind == 3)
    s->writes += k;
  switch (kind) {
  case 0: { /* rmw */
    static const int ops[] = {WL_OP_ADD, WL_OP_EXCH, WL_OP_CAS, WL_OP_INC};
    static const int sems[] = {WL_SEM_RELAXED, WL_SEM_ACQUIRE,
                               WL_SEM_RELEASE, WL_SEM_ACQ_REL};
    gop *o = cpush(th);
    o->kind = G_ATOM;
    o->loc = (int8_t)l;
    o->dst = (int8_t)th->nregs++;
    s->regloc[b][o->dst] = l;
    /* adds the most often: the counters of many interchangeable
     * threads */
    o->aop = (uint8_t)ops[wl__gen_below(s->rng, 6) < 3
                              ? 0
                              : 1 + wl__gen_below(s->rng, 3)];
    o->sem = (uint8_t)sems[wl__gen_below(s->rng, 4)];
    o->scope = (uint8_t)cscope(s);
    if (wl__gen_below(s->rng, 5) == 0) {
      o->sem = WL_SEM_WEAK; /* the bare form: .relaxed.gpu */
      o->scope = WL_SCOPE_NONE;
    }
    switch (o->aop) {
    case WL_OP_ADD:
      o->a = 1 + (wl__gen_below(s->rng, 4) == 0);
      s->adds[l] += o->a * k;
      break;
    case WL_OP_INC:
      o->a = 1 + wl__gen_below(s->rng, 3);
      if (o->a > s->incmax[l])
        s->incmax[l] = o->a;
      break;
    case WL_OP_CAS:
      o->a = wl__gen_below(s->rng, 2) ? 0
             : s->base[l][wl__gen_below(s->rng, s->nbase[l])];
      o->b = s->next[l]++;
      note_base(s, l, o->b);
      break;
    default:
      o->a = s->next[l]++;
      note_base(s, l, o->a);
      break;
    }
    break;
  }
  case 1: { /* load */
    gop *o = cpush(th);
    o->kind = G_LD;
    o->loc = (int8_t)l;
    o->dst = (int8_t)th->nregs++;
    s->regloc[b][o->dst] = l;
    csem(s, 0, o);
    break;
  }
  case 2: { /* store */
    gop *o = cpush(th);
    o->kind = G_ST;
    o->loc = (int8_t)l;
    o->a = s->next[l]++;
    note_base(s, l, o->a);
    csem(s, 1, o);
    break;
  }
  case 3: { /* red.add */
    gop *o = cpush(th);
    o->kind = G_RED;
    o->loc = (int8_t)l;
    o->aop = WL_OP_ADD;
    o->a = 1;
    o->sem = wl__gen_below(s->rng, 2) ? WL_SEM_RELAXED : WL_SEM_RELEASE;
    o->scope = (uint8_t)cscope(s);
    s->adds[l] += k;
    break;
  }
  default: { /* fence */
    gop *o = cpush(th);
    o->kind = G_FENCE;
    o->sem = wl__gen_below(s->rng, 2) ? WL_SEM_SC : WL_SEM_ACQ_REL;
    o->scope = (uint8_t)cscope(s);
    break;
  }
  }
}

/* A value location l may hold (roughly: a value written outright plus
 * some of the adds, or a value an inc leaves). */
static int64_t cval(cstate *s, int l) {
  int64_t v;
  if (s->incmax[l] > 0 && wl__gen_below(s->rng, 3) == 0)
    return wl__gen_below(s->rng, (int)s->incmax[l] + 1);
  v = s->base[l][wl__gen_below(s->rng, s->nbase[l])];
  if (s->adds[l] > 0)
    v += wl__gen_below(s->rng, (int)s->adds[l] + 1);
  return v;
}

void wl__gen_copies(const wl_gen_opts *o, uint64_t *rng, gtest *t) {
  cstate s;
  gthread body[2];
  int nb, k[2], len[2], T, i, b, nl, place, order[GMAX_T];
  int body_of[GMAX_T], focus, fb;
  unsigned places = o->placements ? o->placements : 15u;
  memset(&s, 0, sizeof s);
  memset(t, 0, sizeof *t);
  memset(body, 0, sizeof body);
  s.o = o;
  s.rng = rng;
  s.mix = o->mix ? o->mix : 0xffu;
  s.maxw = o->max_size ? o->max_size : CMAX_WRITES;
  nl = o->locs ? o->locs : 1 + wl__gen_below(rng, 2);
  t->nlocs = nl;
  for (i = 0; i < nl; i++) {
    s.next[i] = 1;
    note_base(&s, i, 0);
  }
  /* the number of threads, bodies, copies of each and their lengths,
   * within CMAX_INSNS instructions unless the options ask for more */
  if (o->threads) {
    T = o->threads;
  } else {
    int hi = o->insns ? CMAX_INSNS / o->insns : 8;
    if (hi > 8)
      hi = 8;
    if (hi < 2)
      hi = 2;
    T = 2 + wl__gen_below(rng, hi - 1);
  }
  nb = T >= 3 && wl__gen_below(rng, 3) == 0 ? 2 : 1;
  if (nb == 1) {
    k[0] = T;
    k[1] = 0;
  } else {
    k[0] = 2 + wl__gen_below(rng, T - 2);
    k[1] = T - k[0];
  }
  for (b = 0; b < nb; b++) {
    int room = CMAX_INSNS - (b ? k[0] * len[0] : k[1]), hi;
    hi = room / k[b];
    if (hi > 3)
      hi = 3;
    if (hi < 1)
      hi = 1;
    len[b] = o->insns ? o->insns : 1 + wl__gen_below(rng, hi);
  }
  for (b = 0; b < nb; b++)
    for (i = 0; i < len[b]; i++)
      cop(&s, b, &body[b], nl, k[b]);
  /* the threads: body 0's copies, then body 1's; sometimes shuffled */
  for (i = 0; i < T; i++)
    order[i] = i < k[0] ? 0 : 1;
  if (wl__gen_below(rng, 4) == 0)
    for (i = T - 1; i > 0; i--) {
      int j = wl__gen_below(rng, i + 1), tmp = order[i];
      order[i] = order[j];
      order[j] = tmp;
    }
  t->nthreads = T;
  for (i = 0; i < T; i++) {
    body_of[i] = order[i];
    t->th[i] = body[order[i]];
  }
  /* the placement: one CTA, a CTA or a GPU each, or mixed (by body,
   * in pairs, or drawn per thread) */
  {
    int c[4], n = 0;
    for (i = 0; i < 4; i++)
      if (places & (1u << i))
        c[n++] = i;
    place = c[wl__gen_below(rng, n)];
  }
  if (place != PL_MIX) {
    wl__gen_place(t, place, rng);
  } else {
    int how = wl__gen_below(rng, 3);
    for (i = 0; i < T; i++) {
      t->th[i].gpu = 0;
      t->th[i].cta = how == 0 ? body_of[i] : how == 1 ? i / 2
                                                      : wl__gen_below(rng, 2);
    }
  }
  /* the condition: on one copy (the first thread, or any) */
  focus = wl__gen_below(rng, 4) == 0 ? wl__gen_below(rng, T) : 0;
  fb = body_of[focus];
  {
    int roll = wl__gen_below(rng, 10), nr = body[fb].nregs, na = 0, want;
    gatom at[4];
    int regs = roll < 5 ? 1 + (nr >= 2 && wl__gen_below(rng, 2))
               : roll < 8 ? 0 : 1;
    int locs = roll < 5 ? 0 : roll < 8 ? 1 + (nl >= 2 && wl__gen_below(rng, 3) == 0)
                                       : 1;
    if (nr == 0) {
      regs = 0;
      if (locs == 0)
        locs = 1;
    }
    if (regs > nr)
      regs = nr;
    if (regs > 0) {
      int r0 = wl__gen_below(rng, nr);
      for (i = 0; i < regs; i++) {
        int r = (r0 + i) % nr;
        at[na].thread = focus;
        at[na].idx = r;
        at[na].v = cval(&s, s.regloc[fb][r]);
        at[na].ne = wl__gen_below(rng, 10) == 0;
        na++;
      }
    }
    for (i = 0; i < locs; i++) {
      int l = (locs == 2 ? i : wl__gen_below(rng, nl));
      at[na].thread = -1;
      at[na].idx = l;
      at[na].v = cval(&s, l);
      at[na].ne = wl__gen_below(rng, 10) == 0;
      na++;
    }
    want = wl__gen_below(rng, 10);
    t->kind = want < 6 ? WL_COND_EXISTS
              : want < 8 ? WL_COND_NOTEXISTS : WL_COND_FORALL;
    t->nclauses = na >= 2 && wl__gen_below(rng, 8) == 0 ? 2 : 1;
    for (i = 0; i < na; i++) {
      int c = t->nclauses == 2 && i == na - 1;
      t->at[c][t->nat[c]++] = at[i];
    }
  }
}
