/* sample.c -- the operational simulator for litmus tests, filling
 * outcome histograms (hist.c holds the histogram itself; hist.h what the
 * two share).
 *
 * The machine: each CTA runs on its own SM.  A thread's stores enter its
 * store queue; the queue drains into its SM's buffer, and the SM buffer
 * drains into L2, each out of order across addresses but in order per
 * address (the profiles below say how often each happens; the H100
 * profile skips the thread's queue and drains the SM buffer in order).
 * L2 is the point of coherence.  Every SM has an L1 that is filled from
 * L2 and written through by its own SM's stores; lines of other SMs'
 * writes go stale there until evicted or invalidated.
 *
 *   load   own store queue, then the SM buffer, then L1 (weak and
 *          cta-scope loads only), then L2 (filling L1)
 *   store  into the store queue
 *   fence  scope cta: drain the thread's queue into the SM; gpu/sys: also
 *          drain the SM buffer into L2 and invalidate the SM's L1
 *   release store: a fence of its scope, then the store
 *   acquire load: bypasses L1 at gpu/sys scope and invalidates it after
 *   atom   gpu/sys scope: performed at L2 after the thread's own stores;
 *          cta scope: performed on the SM's view (two CTAs can then lose
 *          updates, as the model allows for cta-scope atomics), or at
 *          L2 too on the H100 profile, as global atomics are there
 *   bar    drains the thread's queue into the SM; waits for its phase
 *
 * A load may also be deferred (performed later than instructions after
 * it) unless it is an acquire, and never past an instruction that uses
 * its register, touches its location, or orders memory (fence, release,
 * acquire, atomic, barrier): this is how load buffering happens.
 *
 * Threads on two GPUs (H100 profile): a location lives on its home GPU;
 * other GPUs reach it through their SMs' link queues (link_store).
 *
 * H100 profile: a gpu/sys-scope fence.sc, or a gpu/sys-scope atomic that
 * acquires or releases, makes its thread wait some turns while the
 * others run on (wait_turn).
 *
 * Rarely (H100 profile) a plain store entering an SM buffer goes ahead
 * of another thread's older store to its location there, when neither
 * thread has ordered memory in between (st_sm): S and R inside one CTA.
 *
 * A seeded scheduler picks every step.  Each of these rules only ever
 * produces executions that the PTX model allows; the conformance tests
 * check every sampled outcome against wl_explore (tests/props_rare with
 * the rare events made frequent).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../program/ir.h"
#include "cbthread.h"
#include "hist.h"

/* The hot path is inlined into one function per profile, so that the
 * profile's knobs are constants there and the generator's state stays in
 * a register. */
#if defined(__GNUC__)
#define SIM_HOT inline __attribute__((always_inline))
#else
#define SIM_HOT inline
#endif

#define SIM_QMAX 64 /* entries in a store queue or SM buffer */
#define SIM_PEND 8  /* deferred loads per thread */
#define SIM_MAXSM WL_MAX_THREADS

typedef struct sentry {
  int16_t loc;
  int8_t thread;
  uint8_t flags; /* SE_* below */
  uint32_t seq; /* in an SM buffer: the order it entered the SM */
  int64_t val;
} sentry;

/* sentry flags */
#define SE_FENCED 1 /* on a link: a cta-scope fence of its thread came
                     * after it */
#define SE_FIXED 2  /* in an SM buffer: no younger store may go ahead of
                     * it (an atomic's or release's write, or its thread
                     * has since ordered memory: see st_sm) */
#define SE_LOADED 4 /* in an SM buffer: its thread has issued a load
                     * since (see st_sm) */


/* L2 keeps the last writes of each location, oldest first: a late load
 * reads the newest one its SM allows (see complete_pending). */
#define SIM_HIST 16
typedef struct hentry {
  int64_t val;
  int8_t sm; /* -1: the initial value */
  uint32_t seq;
} hentry;

typedef struct squeue {
  sentry e[SIM_QMAX];
  int n;
} squeue;

typedef struct pend {
  int reg, loc; /* reg -1: a callback thread's load */
  uint8_t sem, scope;
  uint32_t issue; /* its SM's store count when the load was issued */
  int lvi;        /* a callback's load: its index among the thread's
                   * loaded values */
  int64_t v0;     /* a callback's load: the value it read at issue */
} pend;

/* A callback thread's loads land in this extra register before they
 * join the thread's list of loaded values. */
#define CB_SCRATCH WL_MAX_REGS

typedef struct sthread {
  /* the fields every step reads come first, in one cache line */
  int pc, done, waiting, sm;
  int np;
  int barev; /* the barrier instruction it waits at */
  int cb;    /* a callback thread (its events come from cbthread) */
  uint64_t fwd; /* the threads whose stores it read from its SM's
                 * buffer since it last ordered memory (see st_sm) */
  uint64_t rd; /* the locations it has read */
  int stall;   /* turns it still waits before its next instruction */
  int waited;  /* it has waited them (knobs.stall) */
  pend p[SIM_PEND];
  squeue q;
  int64_t regs[WL_MAX_REGS + 1];
} sthread;


typedef struct sbarrier {
  int ns;
  int64_t id;
  int cta, gpu;
  int arrived, need;
  int waiters[WL_MAX_THREADS], nw;
} sbarrier;

typedef struct sim {
  const wl_litmus *t;
  int profile;
  sthread th[WL_MAX_THREADS];
  int nsm;
  squeue smb[SIM_MAXSM];
  int64_t l1[SIM_MAXSM][WL_MAX_LOCS];
  uint64_t l1valid[SIM_MAXSM];
  int64_t l2[WL_MAX_LOCS];
  /* GPUs reaching each other's memory (the link model, below) */
  squeue link[SIM_MAXSM]; /* each SM's stores on their way to another
                           * GPU's memory, oldest first */
  uint64_t linked;               /* locations threads of another GPU use */
  uint64_t remote[WL_MAX_THREADS]; /* the locations thread th reaches
                                    * over the link */
  uint64_t upmask[WL_MAX_THREADS]; /* of those, the ones homed on a
                                    * higher-numbered GPU than th's */
  hentry hist[WL_MAX_LOCS][SIM_HIST];
  int nhist[WL_MAX_LOCS];
  uint32_t smseq[SIM_MAXSM]; /* stores that entered each SM */
  sbarrier bar[32];
  int nbar;
  int overflow;        /* a queue overflowed: the run is discarded */
  int hold[SIM_MAXSM]; /* steps an SM buffer stays put */
  int nhold;           /* SMs with hold > 0 */
  int npend;           /* entries in all queues and SM buffers */
  int cbexec;          /* a callback thread's event is executing */
  int rdirty;          /* a thread finished, waited or was released */
  uint64_t rmask;      /* the threads neither done nor waiting */
  int runnable[WL_MAX_THREADS], nr;
  /* callback threads */
  wl_ctx *ctx;
  struct wl_hist *h; /* the result names */
  wl_thread_fn fn;   /* NULL: each thread's own */
  void *fn_ud;
  cbthread *cb[WL_MAX_THREADS];
  int err; /* a callback failed: the sampling fails with it */
} sim;

/* ---------------------------------------------------------------- */
/* Randomness                                                        */

static uint64_t splitmix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* The generator's state lives in a local of run_once (r points to it),
 * which every hot function is inlined into: it stays in a register. */
static inline uint64_t rnd(uint64_t *r) {
  uint64_t x = *r;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  *r = x;
  return x;
}

/* true with probability p/1024 */
static inline int chance(uint64_t *r, unsigned p) {
  return (rnd(r) & 1023) < p;
}

static inline int pick(uint64_t *r, int n) {
  /* multiply-shift: no division on the hot path */
  return (int)(((rnd(r) >> 32) * (uint64_t)n) >> 32);
}

#include "../mem/profile.h"

/* true with probability p/1024, drawing no number when p is 0 or
 * 1024 (so a knob at either end leaves the random stream alone).  It
 * reads the top bits: the low bits of nearby xorshift outputs are
 * correlated enough that two rare events (p near 1024) would come
 * together far more often than p's square. */
static inline int knob(uint64_t *r, unsigned p) {
  return p >= 1024 || (p > 0 && (rnd(r) >> 54) < p);
}

/* true with probability p/2^32 (the link's rare events) */
static inline int rare(uint64_t *r, uint32_t p) {
  return p > 0 && (uint32_t)(rnd(r) >> 32) < p;
}

/* ---------------------------------------------------------------- */
/* Memory                                                            */

static void q_push(sim *s, squeue *q, int loc, int th, int64_t v) {
  wl_assert(q->n >= 0 && q->n <= SIM_QMAX);
  if (q->n == SIM_QMAX) {
    s->overflow = 1;
    return;
  }
  q->e[q->n].loc = (int16_t)loc;
  q->e[q->n].thread = (int8_t)th;
  q->e[q->n].val = v;
  q->e[q->n].flags = 0;
  q->n++;
  s->npend++;
}

#ifdef WL_ASSERTS
/* Whether an entry of q older than entry i is for its location. */
static int q_older(const squeue *q, int i) {
  int j;
  for (j = 0; j < i; j++)
    if (q->e[j].loc == q->e[i].loc)
      return 1;
  return 0;
}
#endif

/* Entry i leaves q.  Every queue keeps each location's stores in order
 * (the order they entered it, but see st_sm): the entry that leaves is
 * the oldest for its location. */
static void q_remove(squeue *q, int i) {
  wl_assert(i >= 0 && i < q->n);
  wl_assert(!q_older(q, i));
  if (i < q->n - 1)
    memmove(&q->e[i], &q->e[i + 1], (size_t)(q->n - i - 1) * sizeof q->e[0]);
  q->n--;
}

/* The newest entry for loc in q, or -1 when none. */
static int q_index(const squeue *q, int loc) {
  int i;
  for (i = q->n - 1; i >= 0; i--)
    if (q->e[i].loc == loc)
      return i;
  return -1;
}

/* The newest value for loc in q, or 0 when none. */
static int q_find(const squeue *q, int loc, int64_t *v) {
  int i = q_index(q, loc);
  if (i >= 0)
    *v = q->e[i].val;
  return i >= 0;
}

/* An entry that may leave the queue now: the oldest for its location. */
static inline int q_pick(uint64_t *r, const squeue *q) {
  int i = pick(r, q->n), j;
  for (j = 0; j < i; j++)
    if (q->e[j].loc == q->e[i].loc)
      return j;
  return i;
}

/* A store entering SM sm's buffer, numbered in SM order: younger than
 * every entry there (the buffer's last entry is the youngest, or older
 * than a store that overtook it: st_sm). */
static void sm_push(sim *s, int sm, int loc, int th, int64_t v) {
  squeue *q = &s->smb[sm];
  q_push(s, q, loc, th, v);
  if (!s->overflow) {
    q->e[q->n - 1].seq = ++s->smseq[sm];
    wl_assert(q->n < 2 || q->e[q->n - 2].seq < q->e[q->n - 1].seq);
  }
}

static void l2_write(sim *s, int sm, int loc, int64_t v, uint32_t seq) {
  int n = s->nhist[loc];
  if (n == SIM_HIST) {
    memmove(&s->hist[loc][0], &s->hist[loc][1],
            (SIM_HIST - 1) * sizeof s->hist[loc][0]);
    n--;
  }
  s->hist[loc][n].val = v;
  s->hist[loc][n].sm = (int8_t)sm;
  s->hist[loc][n].seq = seq;
  s->nhist[loc] = n + 1;
  s->l2[loc] = v;
  /* write-through: the writer's SM sees its own stores */
  s->l1[sm][loc] = v;
  s->l1valid[sm] |= 1ull << loc;
}

/* SM buffer entry i -> L2 */
static void drain_sm_entry(sim *s, int sm, int i) {
  sentry e = s->smb[sm].e[i];
  q_remove(&s->smb[sm], i);
  s->npend--;
  l2_write(s, sm, e.loc, e.val, e.seq);
}

/* thread queue entry i -> SM buffer */
static void drain_th_entry(sim *s, int th, int i) {
  sentry e = s->th[th].q.e[i];
  q_remove(&s->th[th].q, i);
  s->npend--;
  sm_push(s, s->th[th].sm, e.loc, th, e.val);
}

#ifdef WL_ASSERTS
/* The entries in all queues, SM buffers and links (npend counts them). */
static int pend_count(const sim *s) {
  int i, n = 0;
  for (i = 0; i < s->t->nthreads; i++)
    n += s->th[i].q.n + s->smb[i].n + s->link[i].n;
  return n;
}
#endif

static void drain_thread(sim *s, int th) {
  while (s->th[th].q.n > 0)
    drain_th_entry(s, th, 0);
}

static void drain_sm(sim *s, int sm) {
  while (s->smb[sm].n > 0)
    drain_sm_entry(s, sm, 0);
}

/* The link: GPUs reaching each other's memory (H100 profile).  A
 * location that threads of two GPUs use lives in its home GPU's L2.
 * A thread of another GPU stores to it through its SM's link queue,
 * which delivers in order (but see swap) and which its SM's loads read
 * first; its loads go to the home L2 at issue, after its own stores on
 * the link unless they pass them (pass).  A gpu/sys fence or release
 * waits for the link; a cta-scope fence marks the thread's stores there
 * (the knobs then take their _F values).  Threads on the home GPU
 * access it in order: their stores go to L2 at once, their loads are
 * not deferred (next to the link's latency the SM's own reordering is
 * not seen: tests/hw/observed/h200x2-2026-11-26).  Every event the link
 * makes is one the SM buffer could make (a load passing older stores,
 * two stores of one SM to different locations reaching L2 out of
 * order), so it stays within the PTX model. */
static void link_drain_entry(sim *s, int sm, int i) {
  sentry e = s->link[sm].e[i];
  q_remove(&s->link[sm], i);
  s->npend--;
  l2_write(s, sm, e.loc, e.val, e.seq);
}

static void link_drain(sim *s, int sm) {
  while (s->link[sm].n > 0)
    link_drain_entry(s, sm, 0);
}

static void link_store(sim *s, int th, int loc, int64_t v) {
  int sm = s->th[th].sm;
  drain_thread(s, th);
  drain_sm(s, sm); /* the SM's stores stay in order */
  if (s->remote[th] >> loc & 1) {
    squeue *q = &s->link[sm];
    q_push(s, q, loc, th, v);
    if (!s->overflow) {
      q->e[q->n - 1].seq = ++s->smseq[sm];
      q->e[q->n - 1].flags = 0;
      /* the link is in SM order, oldest first */
      wl_assert(q->n < 2 || q->e[q->n - 2].seq < q->e[q->n - 1].seq);
    }
  } else {
    l2_write(s, sm, loc, v, ++s->smseq[sm]);
  }
}

/* Makes the thread's stores visible at scope: cta = its SM, gpu/sys = L2
 * (the SM buffer drains whole: other threads' entries going early is
 * just another schedule). */
static void release(sim *s, int th, int scope) {
  drain_thread(s, th);
  if (scope >= WL_SCOPE_GPU) {
    link_drain(s, s->th[th].sm); /* older than the SM buffer's stores */
    drain_sm(s, s->th[th].sm);
    s->l1valid[s->th[th].sm] = 0;
  }
}

/* Whether a load would be served by L2: nothing for loc in the thread's
 * queue or its SM's buffer, and no L1 line it may use. */
static SIM_HOT int goes_to_l2(sim *s, const knobs *k, int th, int loc, int sem,
                              int scope) {
  int sm = s->th[th].sm;
  int64_t v;
  if ((k->thq > 0 && q_find(&s->th[th].q, loc, &v)) ||
      q_find(&s->smb[sm], loc, &v))
    return 0;
  return !((sem == WL_SEM_WEAK || scope == WL_SCOPE_CTA) &&
           (s->l1valid[sm] >> loc & 1));
}

static SIM_HOT int64_t read_mem(sim *s, uint64_t *r, const knobs *k, int th, int loc, int sem, int scope) {
  int sm = s->th[th].sm;
  int64_t v;
  int i;
  if (k->thq > 0 && q_find(&s->th[th].q, loc, &v)) /* else none there */
    return v;
  if ((i = q_index(&s->smb[sm], loc)) >= 0) {
    if (k->otfwd > 0 && s->smb[sm].e[i].thread != th)
      s->th[th].fwd |= 1ull << s->smb[sm].e[i].thread;
    return s->smb[sm].e[i].val;
  }
  if ((sem == WL_SEM_WEAK || scope == WL_SCOPE_CTA) &&
      (s->l1valid[sm] >> loc & 1))
    return s->l1[sm][loc];
  v = s->l2[loc];
  /* a line already held is always refreshed (a later load of this SM
   * must not see an older value than this one did); an absent line may
   * stay absent */
  if ((s->l1valid[sm] >> loc & 1) || !chance(r, k->evict)) {
    s->l1[sm][loc] = v;
    s->l1valid[sm] |= 1ull << loc;
  }
  return v;
}

/* A load of a location on the link (see link_store). */
static SIM_HOT int64_t link_load(sim *s, uint64_t *r, const knobs *k, int th,
                                 int loc, int sem, int scope) {
  int sm = s->th[th].sm, i, last = -1, fenced = 0;
  squeue *q = &s->link[sm];
  int64_t v;
  if (q_find(q, loc, &v))
    return v;
  for (i = 0; i < q->n; i++)
    if (q->e[i].thread == th) {
      last = i;
      fenced |= q->e[i].flags & SE_FENCED;
    }
  if (last >= 0 &&
      !rare(r, k->pass[s->upmask[th] >> loc & 1 ? 0 : 1][fenced]))
    while (last-- >= 0)
      link_drain_entry(s, sm, 0);
  return read_mem(s, r, k, th, loc, sem, scope);
}

/* ---------------------------------------------------------------- */
/* Threads                                                           */

static int64_t opv(const sthread *t, const wl_operand *o) {
  return o->is_reg ? t->regs[o->reg] : o->imm;
}

static int cb_probe(sim *s, int th, int lvi, int64_t v);

static void complete_pending(sim *s, int th, int i) {
  sthread *t = &s->th[th];
  pend p = t->p[i];
  int k;
  /* A late load was issued when its value was neither in its thread's
   * queue, nor in its SM, nor in L1 (for the loads that may use it): it
   * is performed at L2 now, reading the newest write there except the
   * writes of its own SM made after it was issued.  Those stay invisible
   * to it, so its SM (its CTA) sees it as performed at issue, before any
   * cta-scope fence it has passed; other SMs see it performed late. */
  for (k = s->nhist[p.loc] - 1; k >= 0; k--) {
    const hentry *e = &s->hist[p.loc][k];
    if (!(e->sm == t->sm && e->seq > p.issue))
      break;
  }
  if (k < 0)
    s->overflow = 1; /* history too short: the run is discarded */
  if (p.reg >= 0) {
    t->regs[p.reg] = k >= 0 ? s->hist[p.loc][k].val : 0;
  } else if (k >= 0 && s->hist[p.loc][k].val != p.v0) {
    /* A callback thread went on with the value its load read at issue
     * (it needs a value to say what it does next).  The late value
     * stands only if the callback, given it, does exactly the events it
     * has done since (they did not depend on the load, as a program's
     * instructions after a deferred load do not); otherwise the load
     * keeps the value it read at issue, as if performed then. */
    cb_probe(s, th, p.lvi, s->hist[p.loc][k].val);
  }
  /* as read_mem does for a load at L2: a line the SM holds is refreshed,
   * so that a later load of this thread served by L1 does not see an
   * older value than this one read (coherence: a strong late load
   * observes, and a po-later weak load must not read before it) */
  if (s->l1valid[t->sm] >> p.loc & 1)
    s->l1[t->sm][p.loc] = s->l2[p.loc];
  memmove(&t->p[i], &t->p[i + 1], (size_t)(t->np - i - 1) * sizeof t->p[0]);
  t->np--;
}

static void complete_all_slow(sim *s, int th) {
  while (s->th[th].np > 0)
    complete_pending(s, th, 0);
}

static SIM_HOT void complete_all(sim *s, int th) {
  if (s->th[th].np > 0)
    complete_all_slow(s, th);
}

/* Completes the deferred loads an instruction must wait for. */
static SIM_HOT void hazards(sim *s, uint64_t *r, const knobs *k, int th, const wl_insn *in) {
  sthread *t = &s->th[th];
  int i;
  if (t->np == 0)
    return; /* no late loads: nothing to wait for */
  /* a cta-scope fence orders for the CTA only, and late loads already
   * look performed to their CTA (complete_pending): they may pass it */
  if (in->op == OP_FENCE && in->scope == WL_SCOPE_CTA)
    return;
  if (in->op == OP_FENCE || in->op == OP_BAR || in->op == OP_ATOM ||
      in->op == OP_RED || (in->op == OP_ST && in->sem == WL_SEM_RELEASE) ||
      (in->op == OP_LD && in->sem == WL_SEM_ACQUIRE) ||
      (in->op == OP_ST && knob(r, k->stwait))) {
    complete_all(s, th);
    return;
  }
  for (i = 0; i < t->np;) {
    const pend *p = &t->p[i];
    int hit = (in->a.is_reg && in->a.reg == p->reg) ||
              (in->b.is_reg && in->b.reg == p->reg) || in->dst == p->reg ||
              (in->loc >= 0 && in->loc == p->loc);
    if (hit)
      complete_pending(s, th, i);
    else
      i++;
  }
}

static sbarrier *barrier_of(sim *s, int th, const wl_insn *in) {
  const wl_thread *tt = &s->t->threads[th];
  sthread *t = &s->th[th];
  int64_t id = in->bar_ns == BARNS_INSTANCE ? in->bar_inst : opv(t, &in->a);
  int i, o;
  sbarrier *b;
  for (i = 0; i < s->nbar; i++) {
    b = &s->bar[i];
    if (b->ns == in->bar_ns && b->id == id && b->cta == tt->cta &&
        b->gpu == tt->gpu)
      return b;
  }
  if (s->nbar == 32) {
    s->overflow = 1;
    return NULL;
  }
  b = &s->bar[s->nbar++];
  memset(b, 0, sizeof *b);
  b->ns = in->bar_ns;
  b->id = id;
  b->cta = tt->cta;
  b->gpu = tt->gpu;
  /* the expected arrivals: the count when given; else every thread of
   * the CTA (PTX), or every thread of the CTA whose program has a
   * barrier of this kind (Dat3M's dialect; never fewer than the model's
   * participants, so the machine waits at least as long as the model) */
  if (in->has_count) {
    int64_t c = opv(t, &in->b);
    b->need = c < 1 ? 1 : c > 1000 ? 1000 : (int)c;
    return b;
  }
  for (o = 0; o < s->t->nthreads; o++) {
    const wl_thread *ot = &s->t->threads[o];
    int j, uses = in->bar_ns == BARNS_PTX;
    if (ot->cta != tt->cta || ot->gpu != tt->gpu)
      continue;
    for (j = 0; j < ot->ninsns && !uses; j++)
      if (ot->insns[j].op == OP_BAR && ot->insns[j].bar_ns == in->bar_ns &&
          (in->bar_ns != BARNS_INSTANCE || ot->insns[j].bar_inst == id))
        uses = 1;
    b->need += uses;
  }
  return b;
}

/* Marks thread th's stores in its SM's buffer with flag f. */
static SIM_HOT void mark_own(sim *s, int th, unsigned f) {
  squeue *q = &s->smb[s->th[th].sm];
  int i;
  for (i = 0; i < q->n; i++)
    if (q->e[i].thread == th)
      q->e[i].flags |= (uint8_t)f;
}

/* Thread th orders memory (a fence, a barrier, an atomic, a release or
 * an acquire): its stores in its SM's buffer may no longer be overtaken,
 * and it must read a thread's store there again before a store of its
 * own may overtake one of that thread's (see st_sm). */
static SIM_HOT void ordered(sim *s, const knobs *k, int th) {
  if (!OVERTAKE(k))
    return;
  mark_own(s, th, SE_FIXED);
  s->th[th].fwd = 0;
}

/* A plain store of thread th entering its SM's buffer.  Rarely it goes
 * ahead of the newest older entry for its location, when that is
 * another thread's plain store and not fixed (its thread has not
 * ordered memory since), and either th has read a store of that same
 * thread from the buffer since it last ordered memory (otfwd: S, where
 * the reader saw the writer's later store; not WWC, where it saw a third
 * thread's, which the H100 never showed inside one CTA) or the older
 * store's thread has issued a load since it (otld).  th must never have
 * read loc: its read would precede a write now coherence-before the one
 * it read.  Nothing orders the two stores in the PTX model then: no
 * fence, release or barrier came after the older store in its thread,
 * so no causality chain reaches the newer one.  The SM's readers still
 * see the older store's value (the newest entry), as they did; the two
 * reach L2, and the other SMs, in the new order. */
static SIM_HOT void st_sm(sim *s, uint64_t *r, const knobs *k, int th, int loc,
                          int64_t v) {
  sthread *t = &s->th[th];
  squeue *q = &s->smb[t->sm];
  int j;
  sm_push(s, t->sm, loc, th, v);
  if (!OVERTAKE(k) || (t->rd >> loc & 1) || s->overflow)
    return;
  for (j = q->n - 2; j >= 0 && q->e[j].loc != loc; j--)
    ;
  if (j >= 0 && q->e[j].thread != th && !(q->e[j].flags & SE_FIXED) &&
      ((t->fwd >> q->e[j].thread & 1 && rare(r, k->otfwd)) ||
       ((q->e[j].flags & SE_LOADED) && rare(r, k->otld)))) {
    sentry e = q->e[q->n - 1];
    memmove(&q->e[j + 1], &q->e[j], (size_t)(q->n - 1 - j) * sizeof q->e[0]);
    q->e[j] = e;
  }
}

/* Executes instruction in for thread th (one of its program, or one
 * event of a callback thread); returns 0 when it set the pc itself (a
 * branch) or must not advance, 1 when the pc moves to the next one. */
static SIM_HOT int exec_insn(sim *s, uint64_t *r, const knobs *k, int th, const wl_insn *in) {
  sthread *t = &s->th[th];
  switch (in->op) {
  case OP_MOV:
    t->regs[in->dst] = opv(t, &in->a);
    break;
  case OP_ALU:
    t->regs[in->dst] =
        wl__aop_apply(in->aop, opv(t, &in->a), opv(t, &in->b), 0);
    break;
  case OP_LD:
    t->rd |= 1ull << in->loc;
    if (k->otld > 0)
      mark_own(s, th, SE_LOADED);
    if (in->sem == WL_SEM_ACQUIRE)
      ordered(s, k, th);
    if (k->link && (s->linked >> in->loc & 1)) {
      t->regs[in->dst] = link_load(s, r, k, th, in->loc, in->sem, in->scope);
      if (in->sem == WL_SEM_ACQUIRE && in->scope >= WL_SCOPE_GPU)
        s->l1valid[t->sm] = 0;
      break;
    }
    /* A callback thread's load is deferred too, but the callback goes
     * on with the value read now (its next event may depend on it):
     * complete_pending decides whether the late value can stand. */
    if (in->sem != WL_SEM_ACQUIRE && t->np < SIM_PEND && chance(r, k->defer) &&
        goes_to_l2(s, k, th, in->loc, in->sem, in->scope)) {
      pend *p = &t->p[t->np++];
      p->reg = t->cb ? -1 : in->dst;
      p->loc = in->loc;
      p->sem = in->sem;
      p->scope = in->scope;
      p->issue = s->smseq[t->sm];
      if (t->cb) {
        p->lvi = s->cb[th]->nlv; /* where cb_executed puts the value */
        p->v0 = read_mem(s, r, k, th, in->loc, in->sem, in->scope);
        t->regs[in->dst] = p->v0;
      }
      break;
    }
    t->regs[in->dst] = read_mem(s, r, k, th, in->loc, in->sem, in->scope);
    if (in->sem == WL_SEM_ACQUIRE && in->scope >= WL_SCOPE_GPU)
      s->l1valid[t->sm] = 0;
    break;
  case OP_ST:
    if (in->sem == WL_SEM_RELEASE) {
      release(s, th, in->scope);
      ordered(s, k, th);
    }
    if (k->link && (s->linked >> in->loc & 1))
      link_store(s, th, in->loc, opv(t, &in->a));
    else if (k->thq > 0 && chance(r, k->thq))
      q_push(s, &t->q, in->loc, th, opv(t, &in->a));
    else {
      /* on to L2 at once when it is alone in its SM's buffer (a drain
       * the scheduler could pick next; it overtakes no older store, so
       * stores of one SM still reach L2 in order when reorder is 0) */
      if (s->smb[t->sm].n == 0 && knob(r, k->direct))
        l2_write(s, t->sm, in->loc, opv(t, &in->a), ++s->smseq[t->sm]);
      else if (in->sem == WL_SEM_RELEASE) {
        sm_push(s, t->sm, in->loc, th, opv(t, &in->a));
        if (OVERTAKE(k) && !s->overflow)
          s->smb[t->sm].e[s->smb[t->sm].n - 1].flags |= SE_FIXED;
      } else
        st_sm(s, r, k, th, in->loc, opv(t, &in->a));
    }
    break;
  case OP_ATOM:
  case OP_RED: {
    int type = s->t->loctype[in->loc];
    int64_t old, nv;
    int rel = wl__sem_releases(in->sem); /* atom is never .sc */
    if (rel)
      release(s, th, in->scope);
    t->rd |= 1ull << in->loc;
    ordered(s, k, th);
    drain_thread(s, th); /* own earlier stores come first (po-loc) */
    if (k->link && (s->linked >> in->loc & 1))
      link_drain(s, t->sm); /* and those on the link */
    if (in->scope >= WL_SCOPE_GPU || k->atl2) {
      /* at L2: the SM's pending stores to loc go first */
      int i;
      for (i = 0; i < s->smb[t->sm].n;)
        if (s->smb[t->sm].e[i].loc == in->loc)
          drain_sm_entry(s, t->sm, i);
        else
          i++;
      old = s->l2[in->loc];
      nv = wl__aop_typed(type, in->aop, old, opv(t, &in->a), opv(t, &in->b));
      if (!(in->aop == AOP_CAS && old != opv(t, &in->a)))
        l2_write(s, t->sm, in->loc, nv, ++s->smseq[t->sm]);
      /* as for a load at L2: the SM's line is refreshed, so that a
       * po-later weak load does not read older than the atomic did (it
       * observed the value: Causality, observation; po-loc) */
      if (s->l1valid[t->sm] >> in->loc & 1)
        s->l1[t->sm][in->loc] = s->l2[in->loc];
    } else {
      old = read_mem(s, r, k, th, in->loc, WL_SEM_RELAXED, WL_SCOPE_CTA);
      nv = wl__aop_typed(type, in->aop, old, opv(t, &in->a), opv(t, &in->b));
      if (!(in->aop == AOP_CAS && old != opv(t, &in->a))) {
        sm_push(s, t->sm, in->loc, th, nv);
        if (!s->overflow) /* its write stays right after what it read */
          s->smb[t->sm].e[s->smb[t->sm].n - 1].flags |= SE_FIXED;
      }
    }
    if (in->op == OP_ATOM)
      t->regs[in->dst] = old;
    if (wl__sem_acquires(in->sem) && in->scope >= WL_SCOPE_GPU)
      s->l1valid[t->sm] = 0;
    break;
  }
  case OP_FENCE:
    release(s, th, in->scope);
    ordered(s, k, th);
    if (k->link && in->scope == WL_SCOPE_CTA) {
      int i;
      for (i = 0; i < s->link[t->sm].n; i++)
        if (s->link[t->sm].e[i].thread == th)
          s->link[t->sm].e[i].flags |= SE_FENCED;
    }
    /* performing the late loads and draining the SM are steps the
     * scheduler may take at any time */
    if (in->scope == WL_SCOPE_CTA && knob(r, k->fcta)) {
      complete_all(s, th);
      drain_sm(s, t->sm);
    }
    break;
  case OP_BAR: {
    sbarrier *b = barrier_of(s, th, in);
    if (b == NULL)
      return 0;
    drain_thread(s, th); /* the barrier publishes to the CTA */
    ordered(s, k, th);
    b->arrived++;
    s->rdirty = 1;
    if (in->bar_kind == BAR_SYNC) {
      t->waiting = 1;
      s->rmask &= ~(1ull << th);
      t->barev = t->pc;
      b->waiters[b->nw++] = th;
    }
    if (b->arrived >= b->need) {
      int i;
      for (i = 0; i < b->nw; i++) {
        s->th[b->waiters[i]].waiting = 0;
        s->rmask |= 1ull << b->waiters[i];
      }
      b->arrived = 0;
      b->nw = 0;
    }
    break;
  }
  case OP_BRANCH:
    if (wl__cond_holds(in->cond, opv(t, &in->a), opv(t, &in->b))) {
      t->pc = in->target;
      return 0;
    }
    break;
  case OP_GOTO:
    t->pc = in->target;
    return 0;
  default:
    break;
  }
  return 1;
}

static const wl_insn *cb_next(sim *s, int th, wl_insn *buf);
static void cb_executed(sim *s, int th);
static int cb_learn(sim *s, int th);
static void cb_insn(const cbev *e, wl_insn *in);

/* Whether thread th waits this turn before instruction in: a gpu/sys-
 * scope fence.sc, or a gpu/sys-scope atomic that acquires or releases
 * (the hardware's slow memory barriers), costs it knobs.stall turns
 * first, while the other threads run on; its deferred loads are
 * performed during the wait (knobs.wlate), the rest when it goes on.
 * Waiting is one of the schedules the scheduler could pick anyway. */
static SIM_HOT int wait_turn(sim *s, uint64_t *r, const knobs *k, int th,
                             const wl_insn *in) {
  sthread *t = &s->th[th];
  if (k->stall == 0 || in->scope < WL_SCOPE_GPU ||
      !((in->op == OP_FENCE && in->sem == WL_SEM_SC) ||
        (in->op == OP_ATOM && in->sem >= WL_SEM_ACQUIRE)))
    return 0;
  if (!t->waited) {
    t->waited = 1;
    t->stall = (int)k->stall;
  }
  /* (alone, with no store pending anywhere, nothing would change while
   * it waits: it goes on at once) */
  if (t->stall > 0 && (s->nr > 1 || s->npend > 0)) {
    t->stall--;
    if (t->np > 0 && knob(r, k->wlate))
      complete_pending(s, th, pick(r, t->np));
    return 1;
  }
  t->waited = t->stall = 0; /* it goes on now */
  return 0;
}

/* Executes one instruction of thread th (one event of a callback
 * thread).  exec_insn has this one call site, so that it is inlined
 * into run_once with the generator's state. */
static SIM_HOT int step_thread(sim *s, uint64_t *r, const knobs *k,
                               int th) {
  sthread *t = &s->th[th];
  const wl_thread *tt = &s->t->threads[th];
  const wl_insn *in;
  wl_insn cbin;
  int second = 0, adv, checked = 0; /* checked: wait_turn was asked */
  if (t->cb) {
    cbthread *c = s->cb[th];
    if (t->np > 0) {
      /* its late loads first, as for a program (hazards); at its end
       * they may stay in flight (linger) */
      if (cb_learn(s, th) != 0)
        return 0;
      if (c->nexec == c->nev) {
        if (knob(r, k->linger))
          return 0;
        complete_all(s, th);
      } else {
        cb_insn(&c->ev[c->nexec], &cbin);
        if (wait_turn(s, r, k, th, &cbin))
          return 1;
        checked = 1;
        hazards(s, r, k, th, &cbin);
      }
    }
    if ((in = cb_next(s, th, &cbin)) == NULL)
      return 0;
    if (!checked && wait_turn(s, r, k, th, in))
      return 1;
    s->cbexec = 1; /* a probe during the event keeps it (cb_probe) */
  } else {
    if (t->pc >= tt->ninsns) {
      if (t->np > 0 && knob(r, k->linger))
        return 0; /* its late loads stay in flight one more step */
      complete_all(s, th);
      t->done = 1;
      s->rmask &= ~(1ull << th);
      s->rdirty = 1;
      return 0;
    }
    in = &tt->insns[t->pc];
    if (wait_turn(s, r, k, th, in))
      return 1;
    hazards(s, r, k, th, in);
  }
  for (;;) {
    adv = exec_insn(s, r, k, th, in);
    if (t->cb) {
      s->cbexec = 0;
      cb_executed(s, th);
      return 0;
    }
    if (adv)
      t->pc++;
    /* running two instructions of a thread back to back is one of the
     * schedules the scheduler could pick anyway */
    if (second || !(in->op == OP_FENCE && in->scope == WL_SCOPE_CTA &&
                    t->pc < tt->ninsns && !t->waiting && knob(r, k->ffree)))
      return 0;
    second = 1;
    in = &tt->insns[t->pc];
    if (wait_turn(s, r, k, th, in))
      return 0;
    hazards(s, r, k, th, in);
  }
}

/* ---------------------------------------------------------------- */
/* Callback threads (their replays: cbreplay.c)                      */

/* Whether callback thread th, given v as its lvi-th loaded value, does
 * the events it has done (and the one executing now) again: v then
 * stands (wl__cb_probe). */
static int cb_probe(sim *s, int th, int lvi, int64_t v) {
  return wl__cb_probe(s->ctx, s->t, s->h, s->fn, s->fn_ud, th, s->cb[th],
                      s->cb[th]->nexec + s->cbexec, lvi, v);
}

/* Event e of a callback thread as the instruction that does the same. */
static void cb_insn(const cbev *e, wl_insn *in) {
  memset(in, 0, sizeof *in);
  in->dst = -1;
  in->loc = e->loc;
  in->sem = e->sem;
  in->scope = e->scope;
  in->line = e->line;
  switch (e->kind) {
  case CB_LOAD:
    in->op = OP_LD;
    in->dst = CB_SCRATCH;
    break;
  case CB_STORE:
    in->op = OP_ST;
    in->a.imm = e->a;
    break;
  case CB_ATOM:
    in->op = OP_ATOM;
    in->dst = CB_SCRATCH;
    in->aop = e->op; /* WL_OP_* and AOP_* agree */
    in->a.imm = e->a;
    in->b.imm = e->b;
    break;
  case CB_FENCE:
    in->op = OP_FENCE;
    break;
  default:
    /* bar.sync / bar.arrive id{, count} over the CTA, as the explorer
     * reads wl_tb_barrier */
    in->op = OP_BAR;
    in->bar_kind = e->op == WL_BAR_SYNC ? BAR_SYNC : BAR_ARRIVE;
    in->bar_ns = BARNS_PTX;
    in->a.imm = e->a;
    in->has_count = e->b > 0;
    in->b.imm = e->b;
    break;
  }
}

/* Learns the thread's next events when it has executed all it knew.
 * 0 on success (the run goes on), -1 when the run must stop (an error
 * in s->err, or an overflow). */
static int cb_learn(sim *s, int th) {
  cbthread *c = s->cb[th];
  int rc;
  if (c->nexec < c->nev || c->finished)
    return 0;
  rc = wl__cb_replay(s->ctx, s->t, s->h, 1, s->fn, s->fn_ud, th, c, &s->overflow);
  if (rc != 0) {
    s->err = rc;
    s->overflow = 1; /* ends the run */
    return -1;
  }
  return s->overflow ? -1 : 0;
}

/* The results of a finished callback thread become its registers. */
static void cb_finish(sim *s, int th) {
  memcpy(s->th[th].regs, s->cb[th]->res,
         (size_t)nreg(s->h, th) * sizeof s->th[th].regs[0]);
}

/* One step of a callback thread: its next event as an instruction in
 * buf, or NULL when it ended (or the run must stop). */
static const wl_insn *cb_next(sim *s, int th, wl_insn *buf) {
  sthread *t = &s->th[th];
  cbthread *c = s->cb[th];
  if (cb_learn(s, th) != 0)
    return NULL;
  if (c->nexec == c->nev) {
    cb_finish(s, th);
    t->done = 1;
    s->rmask &= ~(1ull << th);
    s->rdirty = 1;
    return NULL;
  }
  cb_insn(&c->ev[c->nexec], buf);
  t->pc = c->nexec; /* a barrier remembers where it waits */
  return buf;
}

/* After the callback thread's event cb_next gave was executed. */
static void cb_executed(sim *s, int th) {
  cbthread *c = s->cb[th];
  const cbev *e = &c->ev[c->nexec];
  if (e->kind == CB_LOAD || e->kind == CB_ATOM)
    c->lv[c->nlv++] = s->th[th].regs[CB_SCRATCH];
  c->nexec++;
}

/* ---------------------------------------------------------------- */
/* Runs                                                              */

/* Which locations are on the link: those a thread uses (a callback
 * thread: any) that live on another GPU than the thread's. */
static void link_setup(sim *s) {
  const wl_litmus *t = s->t;
  int th, i, l;
  s->linked = 0;
  for (th = 0; th < t->nthreads; th++) {
    const wl_thread *tt = &t->threads[th];
    uint64_t uses = 0;
    if (tt->fn != NULL)
      uses = ~0ull;
    for (i = 0; i < tt->ninsns; i++)
      if (tt->insns[i].loc >= 0)
        uses |= 1ull << tt->insns[i].loc;
    s->remote[th] = s->upmask[th] = 0;
    for (l = 0; l < t->nlocs; l++) {
      int home = wl__loc_home(t, l);
      if (!(uses >> l & 1) || home == tt->gpu)
        continue;
      s->remote[th] |= 1ull << l;
      if (home > tt->gpu)
        s->upmask[th] |= 1ull << l;
    }
    s->linked |= s->remote[th];
  }
}

/* One run; returns 1 with the final state in vals, 0 when it hung. */
static SIM_HOT int run_once(sim *s, const knobs *k, uint64_t seed,
                            int max_steps, int64_t *vals, const int *regoff) {
  const wl_litmus *t = s->t;
  uint64_t rs = seed, *r = &rs;
  int th, steps, l;
  /* reset only what this test uses: a run must be cheap */
  for (th = 0; th < t->nthreads; th++) {
    sthread *st = &s->th[th];
    st->pc = st->done = st->waiting = st->np = st->barev = 0;
    st->stall = st->waited = 0;
    st->rd = st->fwd = 0;
    st->q.n = 0;
    s->smb[th].n = 0;
    s->link[th].n = 0;
    s->l1valid[th] = 0;
    s->hold[th] = 0;
    s->smseq[th] = 0;
    if (st->cb) {
      cbthread *c = s->cb[th];
      c->nev = c->nexec = c->nlv = c->finished = 0;
    }
  }
  s->nbar = 0;
  s->overflow = 0;
  for (l = 0; l < t->nlocs; l++) {
    s->l2[l] = t->locinit[l];
    s->hist[l][0].val = t->locinit[l];
    s->hist[l][0].sm = -1;
    s->hist[l][0].seq = 0;
    s->nhist[l] = 1;
  }
  for (th = 0; th < t->nthreads; th++) /* a few: no memcpy call */
    for (l = 0; l < t->threads[th].nregs; l++)
      s->th[th].regs[l] = t->threads[th].reginit[l];
  s->npend = 0;
  s->nhold = 0;
  s->rdirty = 1;
  s->rmask = t->nthreads >= 64 ? ~0ull : (1ull << t->nthreads) - 1;
  for (steps = 0; steps < max_steps && !s->overflow; steps++) {
    int *runnable = s->runnable, nr, busy = s->npend > 0, sm;
    if (s->rdirty) {
      /* the runnable threads in order, from the mask (no branch per
       * thread) */
      uint64_t m;
      s->nr = 0;
      for (m = s->rmask; m != 0; m &= m - 1)
        s->runnable[s->nr++] = __builtin_ctzll(m);
      s->rdirty = 0;
    }
    nr = s->nr;
    if (nr == 0 && !busy)
      break;
    if (busy && (nr == 0 || chance(r, k->drain))) {
      /* drain one entry somewhere */
      int cand[3 * WL_MAX_THREADS], nc = 0, c;
      if (k->thq > 0) /* thread queues hold stores only when thq > 0 */
        for (th = 0; th < t->nthreads; th++)
          if (s->th[th].q.n > 0)
            cand[nc++] = th;
      for (sm = 0; sm < t->nthreads; sm++)
        if (s->smb[sm].n > 0 && (s->hold[sm] == 0 || nr == 0))
          cand[nc++] = WL_MAX_THREADS + sm;
      if (k->link)
        for (sm = 0; sm < t->nthreads; sm++)
          if (s->link[sm].n > 0)
            cand[nc++] = 2 * WL_MAX_THREADS + sm;
      if (nc == 0)
        goto execute;
      c = cand[pick(r, nc)];
      if (c >= 2 * WL_MAX_THREADS) {
        /* the link delivers its oldest store, or now and then the next
         * one (another location) first */
        squeue *q = &s->link[c - 2 * WL_MAX_THREADS];
        const sentry *e0 = &q->e[0];
        int e = q->n > 1 && q->e[1].loc != e0->loc &&
                rare(r, k->swap[s->upmask[e0->thread] >> e0->loc & 1 ? 0 : 1]
                               [e0->flags & SE_FENCED]);
        link_drain_entry(s, c - 2 * WL_MAX_THREADS, e);
      } else if (c < WL_MAX_THREADS)
        drain_th_entry(s, c, q_pick(r, &s->th[c].q));
      else {
        int sm2 = c - WL_MAX_THREADS, e = 0;
        if (k->reorder >= 1024 || (k->reorder > 0 && chance(r, k->reorder)))
          e = q_pick(r, &s->smb[sm2]);
        drain_sm_entry(s, sm2, e);
        if (e > 0 && k->hold > 0) {
          if (s->hold[sm2] == 0)
            s->nhold++;
          s->hold[sm2] = (int)k->hold;
        }
      }
      continue;
    }
  execute:
    if (k->hold > 0 && s->nhold > 0)
      for (sm = 0; sm < t->nthreads; sm++)
        if (s->hold[sm] > 0 && --s->hold[sm] == 0)
          s->nhold--;
    th = runnable[pick(r, nr)];
    if (k->late > 0 && s->th[th].np > 0 && chance(r, k->late))
      complete_pending(s, th, pick(r, s->th[th].np));
    else if (step_thread(s, r, k, th))
      steps--; /* a turn spent waiting for L2 is not a step */
    if (k->evict && chance(r, k->evict / 8 + 1))
      s->l1valid[s->th[th].sm] &= ~(1ull << (rnd(r) & 63));
  }
  if (steps >= max_steps || s->overflow)
    return 0;
  wl_assert(s->npend == 0 && pend_count(s) == 0); /* all stores landed */
  /* threads left waiting must be at their last instruction (a barrier
   * with nothing after it), else the run hangs */
  for (th = 0; th < t->nthreads; th++) {
    if (!s->th[th].waiting)
      continue;
    if (s->th[th].cb) {
      cbthread *c = s->cb[th];
      if (cb_learn(s, th) != 0 || c->nexec < c->nev)
        return 0;
      cb_finish(s, th);
    } else if (s->th[th].barev + 1 < t->threads[th].ninsns) {
      return 0;
    }
  }
  for (th = 0; th < t->nthreads; th++) {
    int n = nreg(s->h, th);
    for (l = 0; l < n; l++)
      vals[regoff[th] + l] = s->th[th].regs[l];
  }
  for (l = 0; l < t->nlocs; l++)
    vals[regoff[t->nthreads] + l] = s->l2[l];
  return 1;
}

static int run_weak(sim *s, uint64_t seed, int max_steps, int64_t *vals,
                    const int *regoff) {
  return run_once(s, &wl__profiles[WL_PROFILE_WEAK], seed, max_steps, vals,
                  regoff);
}

static int run_h100(sim *s, uint64_t seed, int max_steps, int64_t *vals,
                    const int *regoff) {
  return run_once(s, &wl__profiles[WL_PROFILE_H100], seed, max_steps, vals,
                  regoff);
}

int wl_sample(wl_ctx *ctx, const wl_litmus *t, const wl_sample_opts *opts,
              wl_hist **out) {
  wl_hist *h;
  sim *s;
  uint64_t i;
  int th, rc = 0, max_steps;
  int64_t vals[WL_MAX_THREADS * WL_MAX_REGS + WL_MAX_LOCS];
  int64_t *regp[WL_MAX_THREADS];
  if (ctx == NULL || t == NULL || opts == NULL || out == NULL)
    return WL_EINVAL;
  *out = NULL;
  ctx->errmsg[0] = '\0';
  if (opts->profile != WL_PROFILE_WEAK && opts->profile != WL_PROFILE_H100)
    return wl__err(ctx, WL_EINVAL, "unknown profile %d", opts->profile);
  if ((rc = wl__litmus_check_labels(t)) != 0)
    return rc;
  if ((rc = wl__litmus_check_v60(t, "the simulator")) != 0)
    return rc;
  max_steps = opts->max_steps > 0 ? opts->max_steps : 10000;
  h = wl__calloc(ctx, sizeof *h);
  s = wl__calloc(ctx, sizeof *s);
  if (h == NULL || s == NULL) {
    wl__free(ctx, h, sizeof *h);
    wl__free(ctx, s, sizeof *s);
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  }
  h->ctx = ctx;
  h->t = t;
  h->kind = t->cond_kind;
  wl__hist_layout_init(h);
  s->t = t;
  s->profile = opts->profile;
  s->ctx = ctx;
  s->h = h;
  s->fn = opts->thread_fn;
  s->fn_ud = opts->thread_ud;
  /* one SM per CTA (the same for every run), unless the test puts
   * CTAs on one SM ("sm N"): they then share its store path and L1, as
   * blocks on one SM of an H100/H200 do (no weak MP, SB, LB or 2+2W
   * between them: tests/hw/observed/h200-2026-11-26/sm) */
  for (th = 0; th < t->nthreads; th++) {
    int o;
    const wl_thread *a = &t->threads[th];
    s->th[th].sm = th;
    for (o = 0; o < th; o++) {
      const wl_thread *b = &t->threads[o];
      if (b->gpu == a->gpu && (a->sm1 != 0 ? b->sm1 == a->sm1
                                           : b->cta == a->cta)) {
        s->th[th].sm = s->th[o].sm;
        break;
      }
    }
  }
  link_setup(s);
  for (th = 0; th < t->nthreads && rc == 0; th++) {
    if (t->threads[th].fn == NULL)
      continue;
    s->th[th].cb = 1;
    if ((s->cb[th] = wl__calloc(ctx, sizeof *s->cb[th])) == NULL)
      rc = wl__err(ctx, WL_ENOMEM, "out of memory");
  }
  for (i = 0; i < opts->runs && rc == 0; i++) {
    if (opts->should_stop != NULL && (i & 255) == 0 &&
        opts->should_stop(opts->stop_ud)) {
      rc = wl__err(ctx, WL_ESTOPPED, "%s: sampling stopped after %llu runs",
                   t->name, (unsigned long long)i);
      break;
    }
    h->runs++;
    /* run_once fills every value of a run that terminates */
    if (!(s->profile == WL_PROFILE_H100 ? run_h100 : run_weak)(
            s, splitmix(opts->seed ^ splitmix(opts->first + i)) | 1,
            max_steps, vals, h->lay.regoff)) {
      if (s->err != 0) {
        h->runs--;
        rc = s->err;
        break;
      }
      h->hung++;
      continue;
    }
    /* judge the condition only for outcomes not seen before */
    {
      long k = wl__hist_find(h, vals);
      if (k >= 0) {
        h->o[k].count++;
        continue;
      }
    }
    for (th = 0; th < t->nthreads; th++)
      regp[th] = vals + h->lay.regoff[th];
    if (wl__hist_add(h, vals,
                 t->has_cond ? wl__cond_eval(t, t->cond_root, regp,
                                             vals + h->lay.regoff[t->nthreads])
                             : 1,
                 1) != 0) {
      rc = wl__err(ctx, WL_ENOMEM, "out of memory");
      break;
    }
  }
  for (th = 0; th < t->nthreads; th++)
    wl__free(ctx, s->cb[th], sizeof *s->cb[th]);
  wl__free(ctx, s, sizeof *s);
  if (rc != 0 && rc != WL_ESTOPPED) {
    wl_hist_free(h);
    return rc;
  }
  wl_assert(wl__hist_totals_ok(h));
  *out = h;
  return rc;
}
