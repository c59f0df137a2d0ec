/* exact.c -- the exact law of a test's outcomes on the simulator
 * (wl_sample_law; law.h).  A run is a finite random process: each step
 * (sample.c's run_step) is a function of the machine's state and the
 * generator's draws.  This file compiles the same step code a second
 * time, with the draws answered by a choice oracle (exact.h), and:
 *
 *   enumerates  from the initial state, every state a run can reach,
 *               one step at a time: a step is replayed from the state
 *               for every sequence of the alternatives of its draws
 *               (an odometer over the draws the oracle recorded), each
 *               sequence's probability the product of its choices';
 *               the states are their canonical encodings (code below),
 *               interned in a hash set;
 *   propagates  the probability mass from the initial state in
 *               topological order to the final states (outcomes) and
 *               to hanging;
 *   tables      the law for drawing (law.h: thresholds over 2^63 and a
 *               guide table).
 *
 * A step that leaves the state as it was (a thread keeping its late
 * loads in flight: linger) is a self-loop: the other steps' weights are
 * scaled by 1/(1 - q).  The law falls back to the step-by-step sampler
 * (exact 0, why) for callback threads, a cycle (a spin loop), steps
 * that could reach max_steps, or too many states. */
#define WL_RNG_ENUM
#include "sample.c"

#include "law.h"

#define MAX_STATES ((size_t)1 << 18)
/* A state costs about as much to enumerate as 64 runs step by step: a
 * sampling of n runs enumerates at most n/64 states (at least 256), so
 * that the law never costs much more than the runs would. */
#define RUNS_PER_STATE 64
#define MIN_STATES ((size_t)256)
#define MAX_EDGES ((size_t)1 << 23)
#define MAX_ARENA ((size_t)1 << 28) /* bytes of encoded states */
#define ENC_MAX ((size_t)1 << 16)   /* bytes of one encoded state */
#define T_OPEN (-1)                 /* a state that steps on */
#define T_HUNG (-2)

/* ---------------------------------------------------------------- */
/* A set of byte strings                                             */

typedef struct bset {
  uint8_t *a; /* the strings, end to end */
  size_t alen, acap;
  size_t *off;
  uint32_t *len;
  size_t n, ocap, lcap;
  uint32_t *slot; /* index + 1, 0 empty */
  size_t scap;
} bset;

static uint64_t bhash(const uint8_t *b, size_t n) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
  size_t i;
  for (i = 0; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, b + i, 8);
    h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
    h ^= h >> 29;
  }
  for (; i < n; i++)
    h = (h ^ b[i]) * 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

static int grow(wl_ctx *ctx, void **p, size_t *cap, size_t need, size_t sz) {
  size_t nc = *cap ? *cap : 64;
  void *q;
  if (need <= *cap)
    return 0;
  while (nc < need)
    nc *= 2;
  if ((q = wl__realloc(ctx, *p, *cap * sz, nc * sz)) == NULL)
    return -1;
  *p = q;
  *cap = nc;
  return 0;
}

/* The index of string b in s, adding it when new (*fresh 1); -1 when
 * out of memory. */
static long bset_put(wl_ctx *ctx, bset *s, const uint8_t *b, size_t n,
                     int *fresh) {
  size_t i, m;
  *fresh = 0;
  if (2 * (s->n + 1) > s->scap) {
    size_t nc = s->scap ? 2 * s->scap : 1024, j;
    uint32_t *ns = wl__calloc(ctx, nc * sizeof *ns);
    if (ns == NULL)
      return -1;
    for (j = 0; j < s->n; j++) {
      i = bhash(s->a + s->off[j], s->len[j]) & (nc - 1);
      while (ns[i] != 0)
        i = (i + 1) & (nc - 1);
      ns[i] = (uint32_t)(j + 1);
    }
    wl__free(ctx, s->slot, s->scap * sizeof *s->slot);
    s->slot = ns;
    s->scap = nc;
  }
  m = s->scap - 1;
  for (i = bhash(b, n) & m; s->slot[i] != 0; i = (i + 1) & m) {
    size_t j = s->slot[i] - 1;
    if (s->len[j] == n && memcmp(s->a + s->off[j], b, n) == 0)
      return (long)j;
  }
  if (grow(ctx, (void **)&s->a, &s->acap, s->alen + n, 1) != 0)
    return -1;
  if (grow(ctx, (void **)&s->off, &s->ocap, s->n + 1, sizeof *s->off) != 0 ||
      grow(ctx, (void **)&s->len, &s->lcap, s->n + 1, sizeof *s->len) != 0)
    return -1;
  memcpy(s->a + s->alen, b, n);
  s->off[s->n] = s->alen;
  s->len[s->n] = (uint32_t)n;
  s->alen += n;
  s->slot[i] = (uint32_t)(s->n + 1);
  *fresh = 1;
  return (long)s->n++;
}

static void bset_free(wl_ctx *ctx, bset *s) {
  wl__free(ctx, s->a, s->acap);
  wl__free(ctx, s->off, s->ocap * sizeof *s->off);
  wl__free(ctx, s->len, s->lcap * sizeof *s->len);
  wl__free(ctx, s->slot, s->scap * sizeof *s->slot);
}

/* ---------------------------------------------------------------- */
/* A state's canonical encoding                                      */

/* One walk over everything the next steps depend on, either writing
 * each field (zigzag varints into b) or reading it back into the sim:
 * encoding and decoding cannot disagree on the order.  Fields no step
 * reads are left out (L1 lines not valid, the flags and read sets that
 * only a store overtaking in its SM reads, when the profile has none),
 * so that states differing only there are one. */
typedef struct cod {
  uint8_t *b;
  size_t n, cap;
  const uint8_t *rp;
  int bad; /* an encoding past cap */
} cod;

static WL_HOT void cod_fld(cod *c, int enc, int64_t *v) {
  if (enc) {
    uint64_t u = ((uint64_t)*v << 1) ^ (uint64_t)(*v >> 63);
    if (c->n + 10 > c->cap) {
      c->bad = 1;
      return;
    }
    while (u >= 0x80) {
      c->b[c->n++] = (uint8_t)(u | 0x80);
      u >>= 7;
    }
    c->b[c->n++] = (uint8_t)u;
  } else {
    uint64_t u = 0;
    int sh = 0;
    for (;;) {
      uint8_t x = *c->rp++;
      u |= (uint64_t)(x & 0x7f) << sh;
      sh += 7;
      if (!(x & 0x80))
        break;
    }
    *v = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
  }
}

#define FLD(x, T)                                                            \
  do {                                                                       \
    int64_t v_ = (int64_t)(x);                                               \
    cod_fld(c, enc, &v_);                                                    \
    (x) = (T)v_;                                                             \
  } while (0)

static WL_HOT void code_queue(cod *c, int enc, squeue *q, unsigned fmask,
                              int seq, int hold) {
  int i;
  FLD(q->n, int);
  if (hold)
    FLD(q->hold, int);
  for (i = 0; i < q->n; i++) {
    sentry *e = &q->e[i];
    FLD(e->key, uint64_t);
    FLD(e->mask, uint8_t);
    FLD(e->thread, int16_t);
    e->flags &= (uint8_t)fmask;
    FLD(e->flags, uint8_t);
    if (seq)
      FLD(e->seq, uint32_t);
    FLD(e->val, int64_t);
  }
}

static WL_HOT void code(cod *c, int enc, sim *s, const knobs *k) {
  const wl_litmus *t = s->t;
  wl_mach *m = &s->m;
  int nth = t->nthreads, th, i, l;
  /* SE_FIXED and SE_LOADED are read only where stores may overtake */
  unsigned fmask = OVERTAKE(k) ? 0xff : SE_FENCED;
  FLD(s->rmask, uint64_t);
  FLD(s->nbar, int);
  for (i = 0; i < s->nbar; i++) {
    sbarrier *b = &s->bar[i];
    int j;
    FLD(b->ns, int);
    FLD(b->id, int64_t);
    FLD(b->cta, int);
    FLD(b->gpu, int);
    FLD(b->arrived, int);
    FLD(b->need, int);
    FLD(b->nw, int);
    for (j = 0; j < b->nw; j++)
      FLD(b->waiters[j], int);
  }
  for (th = 0; th < nth; th++) {
    sthread *st = &s->th[th];
    FLD(st->pc, int);
    FLD(st->done, int);
    FLD(st->waiting, int);
    FLD(st->barev, int);
    FLD(st->stall, int);
    FLD(st->waited, int);
#ifndef WL_MUTANT_LAWHARN /* tests/cli/mutants.sh: the waits left out */
    FLD(st->hphase, int);
    FLD(st->hwait, int);
#endif
    FLD(st->np, int);
    for (i = 0; i < st->np; i++) {
      pend *p = &st->p[i];
      FLD(p->reg, int);
      FLD(p->loc, int);
      FLD(p->sem, uint8_t);
      FLD(p->scope, uint8_t);
      FLD(p->issue, uint32_t);
    }
    for (l = 0; l < t->threads[th].nregs; l++)
      FLD(st->regs[l], int64_t);
    if (OVERTAKE(k)) {
      FLD(m->fwd[th], uint64_t);
      FLD(m->rd[th], uint64_t);
    }
    code_queue(c, enc, &m->thq[th], 0, 0, k->hold > 0);
  }
  for (i = 0; i < nth; i++) { /* SM i (SMs are numbered as threads) */
    code_queue(c, enc, &m->smb[i], fmask, 1, k->hold > 0);
    code_queue(c, enc, &m->link[i], SE_FENCED | SE_GFENCED | SE_SLOW, 1,
               k->hold > 0);
#ifndef WL_MUTANT_LAWL1
    FLD(m->l1valid[i], uint64_t);
    for (l = 0; l < t->nlocs; l++)
      if (m->l1valid[i] >> l & 1)
        FLD(m->l1[i][l], int64_t);
#else /* tests/cli/mutants.sh: L1's lines left out (decoded empty) */
    if (!enc)
      m->l1valid[i] = 0;
#endif
    FLD(m->smseq[i], uint32_t);
  }
  if (k->hold > 0)
    FLD(m->nhold, int);
  for (l = 0; l < t->nlocs; l++) {
    FLD(m->l2[l], int64_t);
    FLD(m->nl2h[l], int);
    for (i = 0; i < m->nl2h[l]; i++) {
      FLD(m->l2h[l][i].val, int64_t);
      FLD(m->l2h[l][i].sm, int8_t);
      FLD(m->l2h[l][i].seq, uint32_t);
    }
  }
}

static void decode(sim *s, const knobs *k, const uint8_t *b) {
  cod c;
  int i;
  memset(&c, 0, sizeof c);
  c.rp = b + 1; /* after the tag */
  code(&c, 0, s, k);
  s->m.npend = 0;
  for (i = 0; i < s->t->nthreads; i++)
    s->m.npend += s->m.thq[i].n + s->m.smb[i].n + s->m.link[i].n;
  s->m.overflow = 0;
  s->rdirty = 1;
}

/* ---------------------------------------------------------------- */
/* The enumeration                                                   */

typedef struct edge {
  uint32_t to;
  uint32_t steps; /* 1: a counted step, 0: a turn spent waiting */
  double p;
} edge;

typedef struct builder {
  wl_ctx *ctx;
  const wl_sample_opts *opts;
  const knobs *k;
  sim *s;
  wl_hist *h;
  bset states, outs;
  int32_t *term; /* per state: T_OPEN, T_HUNG or its outcome */
  size_t *e0;    /* per state: its first edge; e0[i+1] - e0[i] edges */
  size_t tcap, e0cap;
  edge *e;
  size_t ne, ecap;
  double *selfq; /* per state: the probability of a self-loop */
  size_t scap;
  cod enc;
  wl_rng rng;
  int64_t vals[WL_MAX_THREADS * WL_MAX_REGS + WL_MAX_LOCS];
} builder;

/* Makes w fall back, saying why: 1 (what the steps below return then). */
static int fallback(wl_law *w, const char *why) {
  size_t n = strlen(why);
  w->exact = 0;
  if (n >= sizeof w->why)
    n = sizeof w->why - 1;
  memcpy(w->why, why, n);
  w->why[n] = '\0';
  return 1;
}

/* The state the sim is in now (hung: the hung sink), interned. */
static long intern_now(builder *b, int hung, int *fresh) {
  long i;
  b->enc.n = 0;
  b->enc.bad = 0;
  b->enc.b[b->enc.n++] = hung ? 0 : 1;
  if (!hung)
    code(&b->enc, 1, b->s, b->k);
  if (b->enc.bad)
    return -2;
  i = bset_put(b->ctx, &b->states, b->enc.b, b->enc.n, fresh);
  if (i >= 0 && *fresh) {
    size_t n = b->states.n;
    if (grow(b->ctx, (void **)&b->term, &b->tcap, n, sizeof *b->term) != 0)
      return -1;
    b->term[i] = hung ? T_HUNG : T_OPEN;
  }
  return i;
}

/* Expands state i: its terminal kind, or its edges.  0, or a WL_E*
 * code, or 1 when the law must fall back (why in w). */
static int expand(builder *b, wl_law *w, size_t i) {
  sim *s = b->s;
  wl_rng *r = &b->rng;
  size_t first = b->ne;
  double self = 0;
  int st;
  if (b->term[i] != T_OPEN)
    return 0;
  r->n = 0;
  for (;;) {
    double p = 1;
    int j, fresh;
    long to;
    /* (interning may move the arena: the state's place is looked up
     * anew each time) */
    decode(s, b->k, b->states.a + b->states.off[i]);
    r->pos = 0;
    r->over = 0;
    st = run_step(s, r, b->k,
                  F_LINK | F_WAIT | ((s->hdelay > 1 || s->hgap > 1) ? F_HARN : 0),
                  s->t->nthreads);
    if (st == RS_END) {
      /* a final state: the run's outcome, or it hung */
      long o;
      if (!run_end(s, b->vals, b->h->lay.regoff)) {
        b->term[i] = T_HUNG;
        return 0;
      }
      o = bset_put(b->ctx, &b->outs, (const uint8_t *)b->vals,
                   (size_t)b->h->lay.nvals * sizeof b->vals[0], &fresh);
      if (o < 0)
        return WL_ENOMEM;
      b->term[i] = (int32_t)o;
      return 0;
    }
    if (r->over)
      return fallback(w, "a step makes more draws than the oracle holds"),
             1;
    wl_assert(r->pos == r->n);
    for (j = 0; j < r->n; j++)
      p *= ora_prob(r->kind[j], r->par[j], r->ch[j]);
    to = intern_now(b, s->m.overflow, &fresh);
    if (to == -2)
      return fallback(w, "a state's encoding is too long");
    if (to < 0)
      return WL_ENOMEM;
    if ((size_t)to == i) {
      self += p;
    } else {
      size_t e;
      for (e = first; e < b->ne && b->e[e].to != (uint32_t)to; e++)
        ;
      if (e == b->ne) {
        if (b->ne == MAX_EDGES)
          return fallback(w, "more than 8,388,608 steps between states");
        if (grow(b->ctx, (void **)&b->e, &b->ecap, b->ne + 1, sizeof *b->e))
          return WL_ENOMEM;
        b->e[e].to = (uint32_t)to;
        b->e[e].steps = 0;
        b->e[e].p = 0;
        b->ne++;
      }
      b->e[e].p += p;
      b->e[e].steps |= st == RS_STEP;
    }
    /* the next sequence of choices: the odometer */
    for (j = r->n - 1; j >= 0 && r->ch[j] + 1 >= r->na[j]; j--)
      ;
    if (j < 0)
      break;
    r->ch[j]++;
    r->n = j + 1;
  }
  b->selfq[i] = self;
  return 0;
}

/* ---------------------------------------------------------------- */
/* The law                                                           */

/* The natural logarithm of x > 0 (the engine links no libm): x = m 2^e
 * with m in [1, 2), ln m = 2 atanh((m - 1) / (m + 1)) by its series. */
static double ln(double x) {
  uint64_t u;
  double m, y, y2, term, sum = 0;
  int e, i;
  memcpy(&u, &x, sizeof u);
  e = (int)((u >> 52) & 0x7ff) - 1023;
  u = (u & (((uint64_t)1 << 52) - 1)) | ((uint64_t)1023 << 52);
  memcpy(&m, &u, sizeof m);
  y = (m - 1) / (m + 1);
  y2 = y * y;
  for (i = 1, term = y; i < 60; i += 2, term *= y2)
    sum += term / i;
  return 2 * sum + e * 0.69314718055994530942;
}

/* Propagates the mass from state 0 in topological order into pout (per
 * outcome) and *phung; 0, WL_ENOMEM or 1 (fall back, why in w). */
static int propagate(builder *b, wl_law *w, double *pout, double *phung) {
  size_t n = b->states.n, head = 0, tail = 0, i, e;
  uint32_t *indeg = wl__calloc(b->ctx, n * sizeof *indeg);
  uint32_t *topo = wl__calloc(b->ctx, n * sizeof *topo);
  uint32_t *depth = wl__calloc(b->ctx, n * sizeof *depth);
  double *mass = wl__calloc(b->ctx, n * sizeof *mass), qmax = 0;
  uint32_t dmax = 0;
  int rc = 0, max_steps = b->opts->max_steps > 0 ? b->opts->max_steps : 10000;
  if (indeg == NULL || topo == NULL || depth == NULL || mass == NULL) {
    rc = WL_ENOMEM;
    goto out;
  }
  for (e = 0; e < b->ne; e++)
    indeg[b->e[e].to]++;
  mass[0] = 1;
  if (indeg[0] == 0)
    topo[tail++] = 0;
  while (head < tail) {
    double sum = 0;
    i = topo[head++];
    if (b->term[i] != T_OPEN) {
      if (b->term[i] == T_HUNG)
        *phung += mass[i];
      else
        pout[b->term[i]] += mass[i];
      if (depth[i] > dmax)
        dmax = depth[i];
      continue;
    }
    for (e = b->e0[i]; e < b->e0[i + 1]; e++)
      sum += b->e[e].p;
    if (!(sum > 0)) {
      rc = fallback(w, "a run can stay in a state forever");
      goto out;
    }
    if (b->selfq[i] > qmax)
      qmax = b->selfq[i];
    for (e = b->e0[i]; e < b->e0[i + 1]; e++) {
      const edge *x = &b->e[e];
      mass[x->to] += mass[i] * (x->p / sum);
      if (depth[i] + x->steps > depth[x->to])
        depth[x->to] = depth[i] + x->steps;
      if (--indeg[x->to] == 0)
        topo[tail++] = x->to;
    }
  }
  if (tail < n) {
    rc = fallback(w, "a run can come back to a state it left (a loop)");
    goto out;
  }
  if ((int64_t)dmax >= max_steps) {
    rc = fallback(w, "a run's steps can reach max_steps");
    goto out;
  }
  if (qmax > 0) {
    /* the self-loops' extra steps: the chance that they take a run past
     * max_steps, at most C(K + D, D) qmax^K for K = max_steps - dmax
     * extra steps over at most D = dmax + 1 states, must be nil */
    double K = (double)max_steps - dmax, D = (double)dmax + 1;
    if (D * (1 + ln((K + D) / D)) + K * ln(qmax) > ln(1e-15)) {
      rc = fallback(w, "a run's steps can reach max_steps");
      goto out;
    }
  }
out:
  wl__free(b->ctx, indeg, n * sizeof *indeg);
  wl__free(b->ctx, topo, n * sizeof *topo);
  wl__free(b->ctx, depth, n * sizeof *depth);
  wl__free(b->ctx, mass, n * sizeof *mass);
  return rc;
}

/* The law's outcomes, probabilities and draw table from pout. */
static int tabulate(builder *b, wl_law *w, const double *pout, double phung) {
  const wl_litmus *t = b->s->t;
  size_t k, no = b->outs.n, g;
  long double acc = 0, total = phung;
  int nth = t->nthreads;
  w->nout = no;
  w->nvals = b->h->lay.nvals;
  w->vals = wl__calloc(b->ctx, (no * (size_t)w->nvals + 1) * sizeof *w->vals);
  w->sat = wl__calloc(b->ctx, no + 1);
  w->p = wl__calloc(b->ctx, (no + 1) * sizeof *w->p);
  w->thr = wl__calloc(b->ctx, (no + 1) * sizeof *w->thr);
  for (w->gbits = 4; w->gbits < 16 && ((size_t)1 << w->gbits) < 2 * (no + 1);
       w->gbits++)
    ;
  w->guide = wl__calloc(b->ctx, ((size_t)1 << w->gbits) * sizeof *w->guide);
  if (w->vals == NULL || w->sat == NULL || w->p == NULL || w->thr == NULL ||
      w->guide == NULL)
    return WL_ENOMEM;
  for (k = 0; k < no; k++) {
    int64_t *v = w->vals + k * (size_t)w->nvals, *regp[WL_MAX_THREADS];
    int th;
    memcpy(v, b->outs.a + b->outs.off[k], b->outs.len[k]);
    for (th = 0; th < nth; th++)
      regp[th] = v + b->h->lay.regoff[th];
    w->sat[k] = (uint8_t)(t->has_cond ? wl__cond_eval(t, t->cond_root, regp,
                                                      v + b->h->lay.regoff[nth])
                                      : 1);
    w->p[k] = pout[k];
    total += pout[k];
  }
  w->p[no] = phung;
  for (k = 0; k <= no; k++) {
    long double x;
    acc += w->p[k];
    x = acc / total * 9223372036854775808.0L;
    w->thr[k] = x >= 9223372036854775808.0L ? (uint64_t)1 << 63 : (uint64_t)x;
  }
  w->thr[no] = (uint64_t)1 << 63;
  for (g = 0, k = 0; g < ((size_t)1 << w->gbits); g++) {
    uint64_t lo = (uint64_t)g << (63 - w->gbits);
    while (w->thr[k] <= lo)
      k++;
    w->guide[g] = (uint32_t)k;
  }
  return 0;
}

static void builder_free(builder *b) {
  wl_ctx *ctx = b->ctx;
  bset_free(ctx, &b->states);
  bset_free(ctx, &b->outs);
  wl__free(ctx, b->term, b->tcap * sizeof *b->term);
  wl__free(ctx, b->e0, b->e0cap * sizeof *b->e0);
  wl__free(ctx, b->e, b->ecap * sizeof *b->e);
  wl__free(ctx, b->selfq, b->scap * sizeof *b->selfq);
  wl__free(ctx, b->enc.b, ENC_MAX);
  if (b->s != NULL && b->s->t != NULL)
    wl__sim_fini(ctx, b->s);
  else
    wl__free(ctx, b->s, sizeof *b->s);
  wl_hist_free(b->h);
}

/* Enumerates t's runs into w (or makes w fall back). */
static int build(builder *b, wl_law *w) {
  const wl_litmus *t = b->s->t;
  size_t i;
  double *pout = NULL, phung = 0;
  uint64_t cap;
  int fresh, rc = 0, th;
  long first;
  for (th = 0; th < t->nthreads; th++)
    if (b->s->th[th].cb)
      return fallback(w, "callback threads");
  cap = b->opts->runs / RUNS_PER_STATE;
  cap = cap < MIN_STATES ? MIN_STATES : cap > MAX_STATES ? MAX_STATES : cap;
  run_start(b->s);
  first = intern_now(b, 0, &fresh);
  if (first == -2)
    return fallback(w, "a state's encoding is too long");
  if (first < 0)
    return WL_ENOMEM;
  for (i = 0; i < b->states.n; i++) {
    if ((i & 1023) == 0 && b->opts->should_stop != NULL &&
        b->opts->should_stop(b->opts->stop_ud))
      return fallback(w, "stopped");
    if (b->states.n > cap || b->states.alen > MAX_ARENA)
      return fallback(w, "more states than the runs are worth (runs/64, "
                         "at least 256, at most 262,144)");
    if (grow(b->ctx, (void **)&b->e0, &b->e0cap, i + 2, sizeof *b->e0) ||
        grow(b->ctx, (void **)&b->selfq, &b->scap, i + 1, sizeof *b->selfq))
      return WL_ENOMEM;
    b->e0[i] = b->ne;
    b->selfq[i] = 0;
    if ((rc = expand(b, w, i)) != 0)
      return rc;
  }
  b->e0[i] = b->ne;
  w->nstates = b->states.n;
  w->nedges = b->ne;
  pout = wl__calloc(b->ctx, (b->outs.n + 1) * sizeof *pout);
  if (pout == NULL)
    return WL_ENOMEM;
  rc = propagate(b, w, pout, &phung);
  if (rc == 0)
    rc = tabulate(b, w, pout, phung);
  wl__free(b->ctx, pout, (b->outs.n + 1) * sizeof *pout);
  return rc;
}

int wl_sample_law(wl_ctx *ctx, const wl_litmus *t, const wl_sample_opts *opts,
                  wl_law **out) {
  builder b;
  wl_law *w;
  int rc;
  if (ctx == NULL || t == NULL || opts == NULL || out == NULL)
    return WL_EINVAL;
  *out = NULL;
  if ((rc = wl__sample_check(ctx, t, opts)) != 0)
    return rc;
  if ((w = wl__calloc(ctx, sizeof *w)) == NULL)
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  w->ctx = ctx;
  w->exact = 1;
  memset(&b, 0, sizeof b);
  b.ctx = ctx;
  b.opts = opts;
  b.k = &wl__profiles[opts->profile];
  if ((b.h = wl__calloc(ctx, sizeof *b.h)) != NULL)
    b.h->ctx = ctx; /* (wl_hist_free's) */
  b.s = wl__calloc(ctx, sizeof *b.s);
  b.enc.cap = ENC_MAX;
  b.enc.b = wl__calloc(ctx, ENC_MAX);
  if (b.h == NULL || b.s == NULL || b.enc.b == NULL) {
    rc = WL_ENOMEM;
  } else {
    b.h->ctx = ctx;
    b.h->t = t;
    b.h->kind = t->cond_kind;
    wl__hist_layout_init(b.h);
    rc = wl__sim_init(ctx, b.s, b.h, t, opts);
    if (rc == 0 && (rc = build(&b, w)) == 1)
      rc = 0; /* it falls back */
  }
  builder_free(&b);
  if (rc == 0 && !w->exact) {
    /* only the reason stays */
    wl_law *f = w;
    w = wl__calloc(ctx, sizeof *w);
    if (w != NULL) {
      w->ctx = ctx;
      memcpy(w->why, f->why, sizeof w->why);
      w->nstates = f->nstates;
    }
    wl_law_free(f);
    if (w == NULL)
      rc = WL_ENOMEM;
  }
  if (rc != 0) {
    wl_law_free(w);
    return rc == WL_ENOMEM ? wl__err(ctx, WL_ENOMEM, "out of memory") : rc;
  }
  *out = w;
  return 0;
}

void wl_law_free(wl_law *w) {
  wl_ctx *ctx;
  size_t no;
  if (w == NULL)
    return;
  ctx = w->ctx;
  no = w->nout;
  wl__free(ctx, w->vals, (no * (size_t)w->nvals + 1) * sizeof *w->vals);
  wl__free(ctx, w->sat, no + 1);
  wl__free(ctx, w->p, (no + 1) * sizeof *w->p);
  wl__free(ctx, w->thr, (no + 1) * sizeof *w->thr);
  if (w->guide != NULL)
    wl__free(ctx, w->guide, ((size_t)1 << w->gbits) * sizeof *w->guide);
  wl__free(ctx, w, sizeof *w);
}

int wl_law_exact(const wl_law *w) { return w != NULL && w->exact; }

const char *wl_law_why(const wl_law *w) { return w != NULL ? w->why : ""; }

size_t wl_law_nstates(const wl_law *w) { return w != NULL ? w->nstates : 0; }

size_t wl_law_noutcomes(const wl_law *w) {
  return w != NULL && w->exact ? w->nout : 0;
}

int wl_law_values(const wl_law *w, size_t i, int64_t *vals, int n) {
  int j;
  if (w == NULL || !w->exact || i >= w->nout || vals == NULL || n < 0)
    return WL_EINVAL;
  for (j = 0; j < n && j < w->nvals; j++)
    vals[j] = w->vals[i * (size_t)w->nvals + j];
  return j;
}

double wl_law_prob(const wl_law *w, size_t i) {
  return w != NULL && w->exact && i <= w->nout ? w->p[i] : 0;
}
