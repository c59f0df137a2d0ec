/* machine.h -- the memory machine of litmus-level runs: its state and
 * its operations, as static inline functions so that a run (the litmus
 * sampler, engine/sim/sample.c) inlines them with its profile's knobs
 * (profile.h) as constants.  Not installed.  Its queues, SM buffers and
 * links are the memory system's one store buffer (sbuf.h), its L1
 * follows the one L1 policy (l1.h) over a dense copy per location: the
 * kernel device's SMs (engine/sim/memory.c) use the same two.
 *
 * What it models: each thread belongs to an SM (one per CTA, or the
 * SM a test names).  Its pieces, from a thread outward:
 *
 *   store queue  (thq) a thread's own stores on their way to its SM,
 *                out of order across locations, in order per location;
 *                only when the profile keeps stores there (knobs.thq)
 *   SM buffer    (smb) the stores of an SM's threads on their way to
 *                L2, numbered in the order they entered the SM (smseq);
 *                drained out of order across locations (knobs.reorder)
 *                or in order, in order per location, except a rare
 *                store that goes ahead of another thread's (st)
 *   L1           (l1, l1valid) each SM's copies of L2's values, filled
 *                from L2 and written through by its own SM's stores;
 *                other SMs' writes leave its lines stale until evicted
 *                (knobs.evict) or invalidated (gpu/sys fences and
 *                releases, gpu/sys acquires: l1.h)
 *   L2           (l2) the point of coherence, one value per location,
 *                with its last writes (l2h: value, SM, SM order), from
 *                which a deferred load is performed late (late_read)
 *   link         (link) GPUs reaching each other's memory: a location
 *                that threads of two GPUs use lives in its home GPU's
 *                L2, and other GPUs' SMs store to it through their link
 *                queue (mm_link_store, mm_link_load)
 *
 * A load reads its thread's store queue, then its SM's buffer, then L1
 * (weak and cta-scope loads only), then L2 (filling L1).  A fence of
 * cta scope drains the thread's queue into its SM; of gpu/sys scope it
 * also drains the SM's link queue and buffer into L2 and invalidates
 * the SM's L1 (mm_release).  Every choice is a draw from the run's
 * generator (rng.h).  The machine never holds more than SIM_QMAX
 * entries in a queue or SIM_HIST writes per location: past that it
 * sets overflow and the run is discarded. */
#ifndef WL_MEM_MACHINE_H
#define WL_MEM_MACHINE_H

#include <stdint.h>
#include <string.h>

#include "../common/internal.h"
#include "../program/ir.h"
#include "profile.h"
#include "l1.h"
#include "order.h"
#include "rng.h"
#include "sbuf.h"

#define SIM_QMAX SB_MAX /* entries in a store queue, SM buffer or link */
#define SIM_MAXSM WL_MAX_THREADS
#define SIM_HIST 16 /* writes L2 keeps per location */

/* The queues, SM buffers and links are sbuf.h's store buffers: an
 * entry's key is its location's index, its mask SB_WHOLE. */

/* sentry flags */
#define SE_FENCED 1 /* on a link: a cta-scope fence of its thread came
                     * after it */
#define SE_FIXED 2  /* in an SM buffer: no younger store may go ahead of
                     * it (an atomic's or release's write, or its thread
                     * has since ordered memory: see mm_st_sm) */
#define SE_LOADED 4 /* in an SM buffer: its thread has issued a load
                     * since (see mm_st_sm) */
#define SE_GFENCED 8 /* on a link: a gpu-scope fence of its thread came
                      * after it (the thread alone on its GPU: see
                      * mm_link_gpu_fence) */
#define SE_SLOW 16   /* on a link: a gpu-fenced store the link passed,
                      * on a slow lane (mm_drain_step) */

/* One of L2's last writes of a location, oldest first. */
typedef struct hentry {
  int64_t val;
  int8_t sm; /* -1: the initial value */
  uint32_t seq;
} hentry;

typedef struct wl_mach {
  int sm[WL_MAX_THREADS];       /* each thread's SM */
  uint64_t fwd[WL_MAX_THREADS]; /* the threads whose stores thread th read
                                 * from its SM's buffer since it last
                                 * ordered memory (see mm_st_sm) */
  uint64_t rd[WL_MAX_THREADS];  /* the locations thread th has read */
  squeue thq[WL_MAX_THREADS];   /* store queues */
  squeue smb[SIM_MAXSM];        /* SM buffers */
  int64_t l1[SIM_MAXSM][WL_MAX_LOCS];
  uint64_t l1valid[SIM_MAXSM];
  int64_t l2[WL_MAX_LOCS];
  hentry l2h[WL_MAX_LOCS][SIM_HIST]; /* L2's write history */
  int nl2h[WL_MAX_LOCS];
  uint32_t smseq[SIM_MAXSM]; /* stores that entered each SM */
  int nhold;                 /* SM buffers held (sbuf.h's hold) */
  int npend;                 /* entries in all queues, buffers and links */
  int overflow;              /* a queue overflowed: the run is discarded */
  /* the link */
  squeue link[SIM_MAXSM];          /* each SM's stores on their way to
                                    * another GPU's memory, oldest first */
  uint64_t linked;                 /* locations threads of another GPU
                                    * use */
  uint64_t remote[WL_MAX_THREADS]; /* the locations thread th reaches
                                    * over the link */
  uint64_t upmask[WL_MAX_THREADS]; /* of those, the ones homed on a
                                    * higher-numbered GPU than th's */
  uint64_t lone;                   /* the threads alone on their GPU */
} wl_mach;

/* Empties the machine for a run: mm_reset_unit for each thread i (and
 * SM i) of the run, then mm_reset over its nlocs locations starting at
 * init.  (The caller resets the units in its own loop over threads: a
 * loop of nothing but these stores would become a memset call per
 * array, dearer than the stores for a few threads.) */
static WL_HOT void mm_reset_unit(wl_mach *m, int i) {
  m->rd[i] = m->fwd[i] = 0;
  m->thq[i].n = 0;
  m->smb[i].n = 0;
  m->smb[i].hold = 0;
  m->link[i].n = 0;
  m->l1valid[i] = 0;
  m->smseq[i] = 0;
}

static WL_HOT void mm_reset(wl_mach *m, int nlocs, const int64_t *init) {
  int i;
  for (i = 0; i < nlocs; i++) {
    m->l2[i] = init[i];
    m->l2h[i][0].val = init[i];
    m->l2h[i][0].sm = -1;
    m->l2h[i][0].seq = 0;
    m->nl2h[i] = 1;
  }
  m->overflow = 0;
  m->npend = 0;
  m->nhold = 0;
}

/* ---------------------------------------------------------------- */
/* L1: its storage here (a copy per location, l1valid saying which are
 * held); its policy is l1.h's                                        */

/* SM sm drops its copies. */
static inline void mm_l1_drop_all(wl_mach *m, int sm) {
  m->l1valid[sm] = 0;
}

/* ---------------------------------------------------------------- */
/* Queues                                                            */

static inline void mm_q_push(wl_mach *m, squeue *q, int loc, int th,
                             int64_t v) {
  if (sb_push(q, (uint64_t)loc, SB_WHOLE, th, v) == NULL) {
    m->overflow = 1;
    return;
  }
  m->npend++;
}

#ifdef WL_ASSERTS
/* The entries in all queues, SM buffers and links (npend counts them). */
static inline int mm_pend_count(const wl_mach *m, int nth) {
  int i, n = 0;
  for (i = 0; i < nth; i++)
    n += m->thq[i].n + m->smb[i].n + m->link[i].n;
  return n;
}
#endif

/* The newest entry for loc in q, or -1 when none. */
static inline int mm_q_index(const squeue *q, int loc) {
  return sb_newest(q, (uint64_t)loc, SB_WHOLE);
}

/* The newest value for loc in q, or 0 when none. */
static inline int mm_q_find(const squeue *q, int loc, int64_t *v) {
  int i = mm_q_index(q, loc);
  if (i >= 0)
    *v = q->e[i].val;
  return i >= 0;
}

/* ---------------------------------------------------------------- */
/* SM buffers, L2 and the store queues                               */

/* A store entering SM sm's buffer, numbered in SM order: younger than
 * every entry there (the buffer's last entry is the youngest, or older
 * than a store that overtook it: mm_st_sm). */
static inline void mm_sm_push(wl_mach *m, int sm, int loc, int th,
                              int64_t v) {
  squeue *q = &m->smb[sm];
  mm_q_push(m, q, loc, th, v);
  if (!m->overflow) {
    q->e[q->n - 1].seq = ++m->smseq[sm];
    wl_assert(q->n < 2 || q->e[q->n - 2].seq < q->e[q->n - 1].seq);
  }
}

static inline void mm_l2_write(wl_mach *m, int sm, int loc, int64_t v,
                               uint32_t seq) {
  int n = m->nl2h[loc];
  hentry *h = m->l2h[loc];
  if (n == SIM_HIST) {
    memmove(&h[0], &h[1], (SIM_HIST - 1) * sizeof h[0]);
    n--;
  }
  h[n].val = v;
  h[n].sm = (int8_t)sm;
  h[n].seq = seq;
  m->nl2h[loc] = n + 1;
  m->l2[loc] = v;
  /* write-through: the writer's SM sees its own stores */
  m->l1[sm][loc] = v;
  m->l1valid[sm] |= 1ull << loc;
}

/* SM buffer entry i -> L2 */
static inline void mm_drain_sm_entry(wl_mach *m, int sm, int i) {
  sentry e = m->smb[sm].e[i];
  sb_remove(&m->smb[sm], i);
  m->npend--;
  mm_l2_write(m, sm, (int)e.key, e.val, e.seq);
}

/* store queue entry i -> SM buffer */
static inline void mm_drain_th_entry(wl_mach *m, int th, int i) {
  sentry e = m->thq[th].e[i];
  sb_remove(&m->thq[th], i);
  m->npend--;
  mm_sm_push(m, m->sm[th], (int)e.key, th, e.val);
}

static inline void mm_drain_thread(wl_mach *m, int th) {
  while (m->thq[th].n > 0)
    mm_drain_th_entry(m, th, 0);
}

static inline void mm_drain_sm(wl_mach *m, int sm) {
  while (m->smb[sm].n > 0)
    mm_drain_sm_entry(m, sm, 0);
}

/* ---------------------------------------------------------------- */
/* The link                                                          */

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
static inline void mm_link_drain_entry(wl_mach *m, int sm, int i) {
  sentry e = m->link[sm].e[i];
  sb_remove(&m->link[sm], i);
  m->npend--;
  mm_l2_write(m, sm, (int)e.key, e.val, e.seq);
}

static inline void mm_link_drain(wl_mach *m, int sm) {
  while (m->link[sm].n > 0)
    mm_link_drain_entry(m, sm, 0);
}

static inline void mm_link_store(wl_mach *m, int th, int loc, int64_t v) {
  int sm = m->sm[th];
  mm_drain_thread(m, th);
  mm_drain_sm(m, sm); /* the SM's stores stay in order */
  if (m->remote[th] >> loc & 1) {
    squeue *q = &m->link[sm];
    mm_q_push(m, q, loc, th, v);
    if (!m->overflow) {
      q->e[q->n - 1].seq = ++m->smseq[sm];
      q->e[q->n - 1].flags = 0;
      /* the link is in SM order, oldest first */
      wl_assert(q->n < 2 || q->e[q->n - 2].seq < q->e[q->n - 1].seq);
    }
  } else {
    mm_l2_write(m, sm, loc, v, ++m->smseq[sm]);
  }
}

/* A gpu-scope fence of thread th, alone on its GPU (lone), with the
 * gswap knob: its stores on the link stay there, marked SE_GFENCED,
 * instead of draining; no later load of the thread passes them
 * (mm_link_load), and a busy link may deliver one ahead of the store
 * before it (mm_drain_step).  No thread of th's GPU can observe the
 * order (it has none), and for a thread of another GPU a gpu-scope
 * fence of th is not morally strong with its accesses: the fence
 * orders nothing for it in the PTX model (a sys-scope fence does, and
 * drains the link).  What the fence does for th's SM is mm_release's. */
static inline int mm_link_gpu_fence_applies(const wl_mach *m, int th) {
#ifdef WL_MUTANT_LINKLONE /* tests/cli/cuda_stream.sh: any writer */
  (void)m;
  (void)th;
  return 1;
#else
  return (int)(m->lone >> th & 1);
#endif
}

static inline int mm_link_gpu_fence(wl_mach *m, const knobs *k, int th,
                                    int scope) {
  squeue *q = &m->link[m->sm[th]];
  int i;
  if (k->gswap == 0 || scope != WL_SCOPE_GPU ||
      !mm_link_gpu_fence_applies(m, th))
    return 0;
  for (i = 0; i < q->n; i++)
    if (q->e[i].thread == th)
      q->e[i].flags |= SE_GFENCED;
  mm_drain_thread(m, th);
  mm_drain_sm(m, m->sm[th]);
  if (mm_l1_release_drops(scope))
    mm_l1_drop_all(m, m->sm[th]);
  return 1;
}

/* ---------------------------------------------------------------- */
/* Loads                                                             */

/* Makes the thread's stores visible at scope: cta = its SM, gpu/sys = L2
 * (the SM buffer drains whole: other threads' entries going early is
 * just another schedule). */
static inline void mm_release(wl_mach *m, int th, int scope) {
  mm_drain_thread(m, th);
  if (mm_release_publishes(scope)) {
    mm_link_drain(m, m->sm[th]); /* older than the SM buffer's stores */
    mm_drain_sm(m, m->sm[th]);
  }
  if (mm_l1_release_drops(scope))
    mm_l1_drop_all(m, m->sm[th]);
}

/* Whether a load would be served by L2: nothing for loc in the thread's
 * queue or its SM's buffer, and no L1 line it may use. */
static WL_HOT int mm_goes_to_l2(const wl_mach *m, const knobs *k, int th,
                                int loc, int sem, int scope) {
  int sm = m->sm[th];
  int64_t v;
  if ((k->thq > 0 && mm_q_find(&m->thq[th], loc, &v)) ||
      mm_q_find(&m->smb[sm], loc, &v))
    return 0;
  return !(mm_l1_serves(sem, scope, WL_CACHE_CA) &&
           (m->l1valid[sm] >> loc & 1));
}

/* A load performed now: its value. */
static WL_HOT int64_t mm_read(wl_mach *m, wl_rng *r, const knobs *k,
                              int th, int loc, int sem, int scope) {
  int sm = m->sm[th];
  int64_t v;
  int i;
  if (k->thq > 0 && mm_q_find(&m->thq[th], loc, &v)) /* else none there */
    return v;
  if ((i = mm_q_index(&m->smb[sm], loc)) >= 0) {
    if (k->otfwd > 0 && m->smb[sm].e[i].thread != th)
      m->fwd[th] |= 1ull << m->smb[sm].e[i].thread;
    return m->smb[sm].e[i].val;
  }
  if (mm_l1_serves(sem, scope, WL_CACHE_CA) &&
      (m->l1valid[sm] >> loc & 1))
    return m->l1[sm][loc];
  v = m->l2[loc];
  /* a line already held is always refreshed (a later load of this SM
   * must not see an older value than this one did); an absent line may
   * stay absent (l1.h) */
  if (mm_l1_fill(r, k, (int)(m->l1valid[sm] >> loc & 1))) {
    m->l1[sm][loc] = v;
    m->l1valid[sm] |= 1ull << loc;
  }
  return v;
}

/* Whether thread th has a store on its SM's link. */
static inline int mm_link_has(const wl_mach *m, int th) {
  const squeue *q = &m->link[m->sm[th]];
  int i;
  for (i = 0; i < q->n; i++)
    if (q->e[i].thread == th)
      return 1;
  return 0;
}

/* A load of a location on the link (see mm_link_store). */
static WL_HOT int64_t mm_link_load(wl_mach *m, wl_rng *r, const knobs *k,
                                   int th, int loc, int sem, int scope) {
  int sm = m->sm[th], i, last = -1, fenced = 0;
  squeue *q = &m->link[sm];
  int64_t v;
  if (mm_q_find(q, loc, &v))
    return v;
  for (i = 0; i < q->n; i++)
    if (q->e[i].thread == th) {
      last = i;
      fenced |= q->e[i].flags & (SE_FENCED | SE_GFENCED);
    }
  /* no load passes a store a gpu-scope fence came after */
  if (last >= 0 &&
      ((fenced & SE_GFENCED) ||
       !rare(r, k->pass[m->upmask[th] >> loc & 1 ? 0 : 1]
                       [fenced & SE_FENCED])))
    while (last-- >= 0)
      mm_link_drain_entry(m, sm, 0);
  return mm_read(m, r, k, th, loc, sem, scope);
}

/* A load of SM sm issued when its SM had seen issue stores, performed
 * late at L2: the index in loc's history of the newest write there
 * except the writes of its own SM made after the load was issued (those
 * stay invisible to it, so its SM sees it as performed at issue), or -1
 * when the history is too short (overflow is set: the run is
 * discarded). */
static inline int mm_late_read(wl_mach *m, int sm, int loc, uint32_t issue) {
  int k;
  for (k = m->nl2h[loc] - 1; k >= 0; k--) {
    const hentry *e = &m->l2h[loc][k];
    if (!(e->sm == sm && e->seq > issue))
      break;
  }
  if (k < 0)
    m->overflow = 1;
  return k;
}

/* As mm_read does for a load at L2: a line the SM holds is refreshed,
 * so that a later load of its threads served by L1 does not see an
 * older value than the load did. */
static inline void mm_refresh_l1(wl_mach *m, int sm, int loc) {
  if (m->l1valid[sm] >> loc & 1)
    m->l1[sm][loc] = m->l2[loc];
}

/* ---------------------------------------------------------------- */
/* Ordering and stores                                               */

/* Marks thread th's stores in its SM's buffer with flag f. */
static WL_HOT void mm_mark_own(wl_mach *m, int th, unsigned f) {
  squeue *q = &m->smb[m->sm[th]];
  int i;
  for (i = 0; i < q->n; i++)
    if (q->e[i].thread == th)
      q->e[i].flags |= (uint8_t)f;
}

/* Thread th orders memory (a fence, a barrier, an atomic, a release or
 * an acquire): its stores in its SM's buffer may no longer be overtaken,
 * and it must read a thread's store there again before a store of its
 * own may overtake one of that thread's (see mm_st_sm). */
static WL_HOT void mm_ordered(wl_mach *m, const knobs *k, int th) {
  if (!OVERTAKE(k))
    return;
  mm_mark_own(m, th, SE_FIXED);
  m->fwd[th] = 0;
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
static WL_HOT void mm_st_sm(wl_mach *m, wl_rng *r, const knobs *k, int th,
                            int loc, int64_t v) {
  squeue *q = &m->smb[m->sm[th]];
  int j;
  mm_sm_push(m, m->sm[th], loc, th, v);
  if (!OVERTAKE(k) || (m->rd[th] >> loc & 1) || m->overflow)
    return;
  for (j = q->n - 2; j >= 0 && q->e[j].key != (uint64_t)loc; j--)
    ;
  if (j >= 0 && q->e[j].thread != th && !(q->e[j].flags & SE_FIXED) &&
      ((m->fwd[th] >> q->e[j].thread & 1 && rare(r, k->otfwd)) ||
       ((q->e[j].flags & SE_LOADED) && rare(r, k->otld)))) {
    sentry e = q->e[q->n - 1];
    memmove(&q->e[j + 1], &q->e[j], (size_t)(q->n - 1 - j) * sizeof q->e[0]);
    q->e[j] = e;
  }
}

/* A store of thread th (sem: WL_SEM_RELEASE or not, at scope). */
static WL_HOT void mm_store(wl_mach *m, wl_rng *r, const knobs *k, int th,
                            int loc, int sem, int scope, int64_t v) {
  int sm = m->sm[th];
  if (sem == WL_SEM_RELEASE) {
    mm_release(m, th, scope);
    mm_ordered(m, k, th);
  }
  if (k->link && (m->linked >> loc & 1))
    mm_link_store(m, th, loc, v);
  else if (k->thq > 0 && chance(r, k->thq))
    mm_q_push(m, &m->thq[th], loc, th, v);
  else if (sb_goes_direct(r, k, &m->smb[sm]))
    /* on to L2 at once when it is alone in its SM's buffer (a drain the
     * scheduler could pick next; it overtakes no older store, so stores
     * of one SM still reach L2 in order when reorder is 0) */
    mm_l2_write(m, sm, loc, v, ++m->smseq[sm]);
  else if (sem == WL_SEM_RELEASE) {
    mm_sm_push(m, sm, loc, th, v);
    if (OVERTAKE(k) && !m->overflow)
      m->smb[sm].e[m->smb[sm].n - 1].flags |= SE_FIXED;
  } else
    mm_st_sm(m, r, k, th, loc, v);
}

/* ---------------------------------------------------------------- */
/* The memory system's own steps                                     */

/* Drains one entry somewhere (a step the scheduler gave the memory
 * system; nr: the threads that could have run instead, nth the
 * threads and SMs): 1, or 0 when nothing may drain now. */
static WL_HOT int mm_drain_step(wl_mach *m, wl_rng *r, const knobs *k,
                                int nth, int nr) {
  int cand[3 * WL_MAX_THREADS], nc = 0, c, i;
  if (k->thq > 0) /* store queues hold stores only when thq > 0 */
    for (i = 0; i < nth; i++)
      if (m->thq[i].n > 0)
        cand[nc++] = i;
  for (i = 0; i < nth; i++)
    if (sb_may_drain(&m->smb[i], nr))
      cand[nc++] = WL_MAX_THREADS + i;
  if (k->link && m->linked != 0)
    for (i = 0; i < nth; i++)
      if (m->link[i].n > 0)
        cand[nc++] = 2 * WL_MAX_THREADS + i;
  if (nc == 0)
    return 0;
  c = cand[pick(r, nc)];
  if (c >= 2 * WL_MAX_THREADS) {
    /* the link delivers its oldest store, or now and then the next one
     * (another location) first */
    squeue *q = &m->link[c - 2 * WL_MAX_THREADS];
    const sentry *e0 = &q->e[0];
    int e;
    /* a store the link passed (gswap) goes on a slow lane: each pick
     * delivers it with chance gslow only, and nothing passes it again */
    if ((e0->flags & SE_SLOW) && !knob(r, k->gslow))
      return 1;
    e = q->n > 1 && q->e[1].key != e0->key && !(e0->flags & SE_SLOW) &&
        ((e0->flags & SE_GFENCED)
             ? q->n >= 3 && q->e[2].thread == e0->thread &&
                   rare(r, k->gswap)
             : rare(r, k->swap[m->upmask[e0->thread] >> e0->key & 1
                                   ? 0 : 1][e0->flags & SE_FENCED]));
    if (e && (e0->flags & SE_GFENCED))
      q->e[0].flags |= SE_SLOW;
    mm_link_drain_entry(m, c - 2 * WL_MAX_THREADS, e);
  } else if (c < WL_MAX_THREADS)
    mm_drain_th_entry(m, c, sb_pick(r, &m->thq[c]));
  else {
    int sm = c - WL_MAX_THREADS;
    mm_drain_sm_entry(m, sm, sb_drain_pick(r, k, &m->smb[sm], &m->nhold));
  }
  return 1;
}

/* A step a thread took: SM buffers held after an overtaking count it. */
static WL_HOT void mm_hold_tick(wl_mach *m, const knobs *k, int nth) {
  int i;
  if (k->hold > 0 && m->nhold > 0)
    for (i = 0; i < nth; i++)
      sb_hold_tick(&m->smb[i], &m->nhold);
}

/* After a step of thread th: now and then its SM drops an L1 line. */
static WL_HOT void mm_evict_step(wl_mach *m, wl_rng *r, const knobs *k,
                                 int th) {
  if (mm_l1_evict_due(r, k))
    m->l1valid[m->sm[th]] = drop_bit(r, m->l1valid[m->sm[th]]);
}

#endif
