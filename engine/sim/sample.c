/* sample.c -- a run of the operational simulator for litmus tests (the
 * litmus sampler): a seeded scheduler picks every step, which either
 * lets the memory machine (engine/mem/machine.h: store queues, SM
 * buffers, L1s, L2 with its write history, links between GPUs) drain a
 * store, or executes one instruction of a thread on it.  sampling.c
 * runs these and fills the histogram; sample_cb.c runs callback
 * threads.
 *
 *   load   from the machine (mm_read); a load may also be deferred
 *          (performed later than instructions after it) unless it is an
 *          acquire, and never past an instruction that uses its
 *          register, touches its location, or orders memory (fence,
 *          release, acquire, atomic, barrier): this is how load
 *          buffering happens (complete_pending: it reads L2's history)
 *   store  into the machine (mm_store)
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
 * H100 profile: a gpu/sys-scope fence.sc, or a gpu/sys-scope atomic that
 * releases, makes its thread wait some turns while the others run on
 * (wait_turn); under the delay harness a gpu/sys-scope release store,
 * releasing red or fence.acq_rel too, each wait a drawn length.
 *
 * Each of these rules only ever produces executions that the PTX model
 * allows; the conformance tests check every sampled outcome against
 * wl_explore (tests/props_rare with the rare events made frequent). */
#include <string.h>

#include "sample.h"

/* The features of a test that a run must look for; a test without
 * any (most litmus tests) runs a function compiled without them. */
#define F_CB 1   /* callback threads */
#define F_LINK 2 /* locations on a link between GPUs */
#define F_WAIT 4 /* instructions that make their thread wait (wait_turn) */
#define F_HARN 8 /* the harness's start delays and stalls (harn_wait) */
#define F_ALL 15

/* ---------------------------------------------------------------- */
/* Threads                                                           */

static int64_t opv(const sthread *t, const wl_operand *o) {
  return o->is_reg ? t->regs[o->reg] : o->imm;
}

static void complete_pending(sim *s, int th, int i) {
  wl_mach *m = &s->m;
  sthread *t = &s->th[th];
  pend p = t->p[i];
  int k;
  /* A late load was issued when its value was neither in its thread's
   * queue, nor in its SM, nor in L1 (for the loads that may use it): it
   * is performed at L2 now, reading the newest write there except the
   * writes of its own SM made after it was issued.  Those stay invisible
   * to it, so its SM (its CTA) sees it as performed at issue, before any
   * cta-scope fence it has passed; other SMs see it performed late. */
  k = mm_late_read(m, m->sm[th], p.loc, p.issue);
  if (p.reg >= 0) {
    t->regs[p.reg] = k >= 0 ? m->l2h[p.loc][k].val : 0;
  } else if (k >= 0 && m->l2h[p.loc][k].val != p.v0) {
    /* A callback thread went on with the value its load read at issue
     * (it needs a value to say what it does next).  The late value
     * stands only if the callback, given it, does exactly the events it
     * has done since (they did not depend on the load, as a program's
     * instructions after a deferred load do not); otherwise the load
     * keeps the value it read at issue, as if performed then. */
    wl__scb_probe(s, th, p.lvi, m->l2h[p.loc][k].val);
  }
  /* coherence: a strong late load observes, and a po-later weak load
   * of this thread served by L1 must not read before it */
  mm_refresh_l1(m, m->sm[th], p.loc);
  for (t->np--; i < t->np; i++)
    t->p[i] = t->p[i + 1];
}

static void complete_all_slow(sim *s, int th) {
  while (s->th[th].np > 0)
    complete_pending(s, th, 0);
}

static WL_HOT void complete_all(sim *s, int th) {
  if (s->th[th].np > 0)
    complete_all_slow(s, th);
}

/* Completes the deferred loads an instruction must wait for. */
static WL_HOT void hazards(sim *s, wl_rng *r, const knobs *k, int th, const wl_insn *in) {
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
    s->m.overflow = 1;
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

/* A load of thread th. */
static WL_HOT void exec_ld(sim *s, wl_rng *r, const knobs *k, unsigned f,
                           int th, const wl_insn *in) {
  wl_mach *m = &s->m;
  sthread *t = &s->th[th];
  m->rd[th] |= 1ull << in->loc;
  if (k->otld > 0)
    mm_mark_own(m, th, SE_LOADED);
  if (in->sem == WL_SEM_ACQUIRE)
    mm_ordered(m, k, th);
  if ((f & F_LINK) && k->link && (m->linked >> in->loc & 1)) {
    /* a load of another GPU's memory is now and then performed late at
     * its home L2 (rdefer), when nothing of the thread's own is on the
     * link and nothing nearer could serve it (its SM's link holds no
     * store to the location: a load served from there reads newer than
     * L2 holds, and a late one after it must not read older: CoRR); as
     * a deferred load below */
    int64_t lv;
    if (k->rdefer > 0 && (m->remote[th] >> in->loc & 1) &&
        in->sem != WL_SEM_ACQUIRE && t->np < SIM_PEND &&
        !((f & F_CB) && t->cb) && !mm_link_has(m, th) &&
        !mm_q_find(&m->link[m->sm[th]], in->loc, &lv) &&
        mm_goes_to_l2(m, k, th, in->loc, in->sem, in->scope) &&
        rare(r, k->rdefer)) {
      pend *p = &t->p[t->np++];
      p->reg = in->dst;
      p->loc = in->loc;
      p->sem = in->sem;
      p->scope = in->scope;
      p->issue = m->smseq[m->sm[th]];
      return;
    }
    t->regs[in->dst] = mm_link_load(m, r, k, th, in->loc, in->sem, in->scope);
    if (mm_l1_drops(in->sem, in->scope))
      mm_l1_drop_all(m, m->sm[th]);
    return;
  }
  /* A callback thread's load is deferred too, but the callback goes
   * on with the value read now (its next event may depend on it):
   * complete_pending decides whether the late value can stand. */
  if (in->sem != WL_SEM_ACQUIRE && t->np < SIM_PEND &&
      chance(r, k->defer) &&
      mm_goes_to_l2(m, k, th, in->loc, in->sem, in->scope)) {
    pend *p = &t->p[t->np++];
    p->reg = (f & F_CB) && t->cb ? -1 : in->dst;
    p->loc = in->loc;
    p->sem = in->sem;
    p->scope = in->scope;
    p->issue = m->smseq[m->sm[th]];
    if ((f & F_CB) && t->cb) {
      p->lvi = s->cb[th]->nlv; /* where cb_executed puts the value */
      p->v0 = mm_read(m, r, k, th, in->loc, in->sem, in->scope);
      t->regs[in->dst] = p->v0;
    }
    return;
  }
  t->regs[in->dst] = mm_read(m, r, k, th, in->loc, in->sem, in->scope);
  if (mm_l1_drops(in->sem, in->scope))
    mm_l1_drop_all(m, m->sm[th]);
}

/* Executes instruction in for thread th (one of its program, or one
 * event of a callback thread); returns 0 when it set the pc itself (a
 * branch) or must not advance, 1 when the pc moves to the next one. */
static WL_HOT int exec_insn(sim *s, wl_rng *r, const knobs *k, unsigned f,
                           int th, const wl_insn *in) {
  wl_mach *m = &s->m;
  sthread *t = &s->th[th];
  /* the common instructions by plain branches first (the switch's
   * indirect jump mispredicts more) */
  if (in->op == OP_LD) {
    exec_ld(s, r, k, f, th, in);
    return 1;
  }
  if (in->op == OP_ST) {
    mm_store(m, r, k, th, in->loc, in->sem, in->scope, opv(t, &in->a));
    return 1;
  }
  switch (in->op) {
  case OP_MOV:
    t->regs[in->dst] = opv(t, &in->a);
    break;
  case OP_ALU:
    t->regs[in->dst] =
        wl__aop_apply(in->aop, opv(t, &in->a), opv(t, &in->b), 0);
    break;
  case OP_ATOM:
  case OP_RED: {
    int type = s->t->loctype[in->loc];
    int64_t old, nv;
    int rel = in->sem == WL_SEM_RELEASE || in->sem == WL_SEM_ACQ_REL;
    if (rel)
      mm_release(m, th, in->scope);
    m->rd[th] |= 1ull << in->loc;
    mm_ordered(m, k, th);
    mm_drain_thread(m, th); /* own earlier stores come first (po-loc) */
    if ((f & F_LINK) && k->link && (m->linked >> in->loc & 1))
      mm_link_drain(m, m->sm[th]); /* and those on the link */
    if (mm_atomic_at_l2(k, in->scope)) {
      /* at L2: the SM's pending stores to loc go first */
      int i;
      for (i = 0; i < m->smb[m->sm[th]].n;)
        if (m->smb[m->sm[th]].e[i].key == (uint64_t)in->loc)
          mm_drain_sm_entry(m, m->sm[th], i);
        else
          i++;
      old = m->l2[in->loc];
      nv = wl__aop_typed(type, in->aop, old, opv(t, &in->a), opv(t, &in->b));
      if (!(in->aop == AOP_CAS && old != opv(t, &in->a)))
        mm_l2_write(m, m->sm[th], in->loc, nv, ++m->smseq[m->sm[th]]);
      /* as for a load at L2: the SM's line is refreshed, so that a
       * po-later weak load does not read older than the atomic did (it
       * observed the value: Causality, observation; po-loc) */
      mm_refresh_l1(m, m->sm[th], in->loc);
    } else {
      old = mm_read(m, r, k, th, in->loc, WL_SEM_RELAXED, WL_SCOPE_CTA);
      nv = wl__aop_typed(type, in->aop, old, opv(t, &in->a), opv(t, &in->b));
      if (!(in->aop == AOP_CAS && old != opv(t, &in->a))) {
        mm_sm_push(m, m->sm[th], in->loc, th, nv);
        if (!m->overflow) /* its write stays right after what it read */
          m->smb[m->sm[th]].e[m->smb[m->sm[th]].n - 1].flags |= SE_FIXED;
      }
    }
    if (in->op == OP_ATOM)
      t->regs[in->dst] = old;
    if (mm_l1_drops(in->sem, in->scope))
      mm_l1_drop_all(m, m->sm[th]);
    break;
  }
  case OP_FENCE:
    if (!((f & F_LINK) && k->link && mm_link_gpu_fence(m, k, th, in->scope)))
      mm_release(m, th, in->scope);
    mm_ordered(m, k, th);
    if ((f & F_LINK) && k->link && in->scope == WL_SCOPE_CTA) {
      int i;
      for (i = 0; i < m->link[m->sm[th]].n; i++)
        if (m->link[m->sm[th]].e[i].thread == th)
          m->link[m->sm[th]].e[i].flags |= SE_FENCED;
    }
    /* performing the late loads and draining the SM are steps the
     * scheduler may take at any time */
    if (in->scope == WL_SCOPE_CTA && knob(r, k->fcta)) {
      complete_all(s, th);
      mm_drain_sm(m, m->sm[th]);
    }
    break;
  case OP_BAR: {
    sbarrier *b = barrier_of(s, th, in);
    if (b == NULL)
      return 0;
    mm_drain_thread(m, th); /* the barrier publishes to the CTA */
    mm_ordered(m, k, th);
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

/* The turns thread th waits before instruction in (wait_turn), 0 none:
 * a gpu/sys-scope fence.sc, or a gpu/sys-scope atomic that releases
 * (the hardware's slow memory barriers), sim.wstall; under a harness
 * drawn in cycles also a gpu/sys-scope release store, releasing red or
 * fence.acq_rel (a barrier too, the thread's earlier accesses
 * acknowledged before it goes on), sim.wrel by scope.  An atomic that
 * only acquires does not wait (profile.h: its barrier holds back what
 * follows, not the atomic; the generated set of issue 22 showed the
 * H100 performing it ahead of the other threads). */
static WL_HOT int wait_len(const sim *s, const wl_insn *in) {
  if (in->scope < WL_SCOPE_GPU)
    return 0;
  if ((in->op == OP_FENCE && in->sem == WL_SEM_SC) ||
      (in->op == OP_ATOM && in->sem >= WL_SEM_RELEASE))
    return s->wstall;
  if ((in->op == OP_ST && in->sem == WL_SEM_RELEASE) ||
      (in->op == OP_RED && in->sem >= WL_SEM_RELEASE) ||
      (in->op == OP_FENCE && in->sem == WL_SEM_ACQ_REL))
    return s->wrel[in->scope == WL_SCOPE_SYS];
  return 0;
}

/* Whether thread th waits this turn before instruction in: wait_len's
 * turns first (under a harness drawn in cycles, sim.wdraw: a number
 * drawn in [0, 2 wait_len], the barrier's latency varying with what
 * it waits for), while the other threads run on; its deferred loads
 * are performed during the wait (knobs.wlate), the rest when it goes
 * on.  Waiting is one of the schedules the scheduler could pick
 * anyway. */
static WL_HOT int wait_turn(sim *s, wl_rng *r, const knobs *k, unsigned f,
                             int th,
                             const wl_insn *in) {
  sthread *t = &s->th[th];
  int len;
  if (!(f & F_WAIT) || k->stall == 0 || (len = wait_len(s, in)) == 0)
    return 0;
  /* a gpu-scope fence that leaves the link as it is (mm_link_gpu_fence)
   * does not wait for it either */
  if (in->op == OP_FENCE && (f & F_LINK) && k->link && k->gswap > 0 &&
      in->scope == WL_SCOPE_GPU && mm_link_gpu_fence_applies(&s->m, th))
    return 0;
  if (!t->waited) {
    t->waited = 1;
    t->stall = s->wdraw ? pick(r, 2 * len + 1) : len;
  }
  /* (alone, with no store pending anywhere, nothing would change while
   * it waits: it goes on at once) */
  if (t->stall > 0 && (s->nr > 1 || s->m.npend > 0)) {
    t->stall--;
    if (t->np > 0 && knob(r, k->wlate))
      complete_pending(s, th, pick(r, t->np));
    return 1;
  }
  t->waited = t->stall = 0; /* it goes on now */
  return 0;
}

/* Whether program thread th spends this turn waiting as the harness
 * makes it (sim.hdelay, sim.hgap): on its first pick it draws a wait in
 * [0, hdelay); before each later instruction, until it has stalled
 * once, it stalls there with probability 1/(instructions left), so that
 * the stalled instruction is uniform over all but its first, for a
 * drawn number of turns in [0, hgap).  As in wait_turn, a thread alone
 * with nothing pending anywhere goes on at once: waiting would change
 * nothing. */
static WL_HOT int harn_wait(sim *s, wl_rng *r, int th) {
  sthread *t = &s->th[th];
  if (t->hphase == 0) {
    t->hphase = 1;
    t->hwait = s->hdelay > 1 ? pick(r, s->hdelay) : 0;
  } else if (t->hphase == 1 && t->hwait == 0 && t->pc > 0) {
    int left = t->ninsns - t->pc; /* this one and those after it */
    if (left <= 1 || pick(r, left) == 0) {
      t->hphase = 2;
      t->hwait = s->hgap > 1 ? pick(r, s->hgap) : 0;
    }
  }
  if (t->hwait > 0 && (s->nr > 1 || s->m.npend > 0)) {
    t->hwait--;
    return 1;
  }
  t->hwait = 0;
  return 0;
}

/* Executes one instruction of thread th (one event of a callback
 * thread).  exec_insn has this one call site, so that it is inlined
 * into run_once with the generator's state. */
static WL_HOT int step_thread(sim *s, wl_rng *r, const knobs *k,
                               unsigned f, int th) {
  sthread *t = &s->th[th];
  const wl_insn *in;
  wl_insn cbin;
  int second = 0, adv, checked = 0; /* checked: wait_turn was asked */
  if ((f & F_CB) && t->cb) {
    cbthread *c = s->cb[th];
    if (t->np > 0) {
      /* its late loads first, as for a program (hazards); at its end
       * they may stay in flight (linger) */
      if (wl__scb_learn(s, th) != 0)
        return 0;
      if (c->nexec == c->nev) {
        if (knob(r, k->linger))
          return 0;
        complete_all(s, th);
      } else {
        wl__scb_insn(&c->ev[c->nexec], &cbin);
        if (wait_turn(s, r, k, f, th, &cbin))
          return 1;
        checked = 1;
        hazards(s, r, k, th, &cbin);
      }
    }
    if ((in = wl__scb_next(s, th, &cbin)) == NULL)
      return 0;
    if (!checked && wait_turn(s, r, k, f, th, in))
      return 1;
    s->cbexec = 1; /* a probe during the event keeps it (cb_probe) */
  } else {
    if (t->pc >= t->ninsns) {
      if (t->np > 0 && knob(r, k->linger))
        return 0; /* its late loads stay in flight one more step */
      complete_all(s, th);
      t->done = 1;
      s->rmask &= ~(1ull << th);
      s->rdirty = 1;
      return 0;
    }
    in = &t->insns[t->pc];
    if ((f & F_HARN) && harn_wait(s, r, th))
      return 1;
    if (wait_turn(s, r, k, f, th, in))
      return 1;
    hazards(s, r, k, th, in);
  }
  for (;;) {
    adv = exec_insn(s, r, k, f, th, in);
    if ((f & F_CB) && t->cb) {
      s->cbexec = 0;
      wl__scb_executed(s, th);
      return 0;
    }
    if (adv)
      t->pc++;
    /* running two instructions of a thread back to back is one of the
     * schedules the scheduler could pick anyway */
    if (second ||
        !(in->op == OP_FENCE && in->scope == WL_SCOPE_CTA &&
          t->pc < t->ninsns && !t->waiting &&
          knob(r, k->ffree)))
      return 0;
    second = 1;
    in = &t->insns[t->pc];
    if (wait_turn(s, r, k, f, th, in))
      return 0;
    hazards(s, r, k, th, in);
  }
}

/* Resets s for a run. */
static WL_HOT void run_start(sim *s) {
  const wl_litmus *t = s->t;
  wl_mach *m = &s->m;
  int th, l, nth = t->nthreads;
  /* reset only what this test uses: a run must be cheap */
  for (th = 0; th < nth; th++) {
    sthread *st = &s->th[th];
    st->pc = st->done = st->waiting = st->np = st->barev = 0;
    st->stall = st->waited = st->hphase = st->hwait = 0;
    mm_reset_unit(m, th);
    if (st->cb) {
      cbthread *c = s->cb[th];
      c->nev = c->nexec = c->nlv = c->finished = 0;
    }
  }
  mm_reset(m, t->nlocs, t->locinit);
  s->nbar = 0;
  for (th = 0; th < nth; th++) /* a few: no memcpy call */
    for (l = 0; l < t->threads[th].nregs; l++)
      s->th[th].regs[l] = t->threads[th].reginit[l];
  s->rdirty = 1;
  s->rmask = nth >= 64 ? ~0ull : (1ull << nth) - 1;
}

/* One step of a run (the scheduler's pick, then a drain or a thread's
 * instruction): RS_END when nothing is left to run or drain (no draw
 * made), RS_STEP after a step, RS_TURN after a turn spent waiting
 * (wait_turn), which is no step. */
#define RS_END 0
#define RS_STEP 1
#define RS_TURN 2
static WL_HOT int run_step(sim *s, wl_rng *r, const knobs *k, unsigned f,
                           int nth) {
  wl_mach *m = &s->m;
  int nr, th, busy = m->npend > 0, turn = 0;
  if (s->rdirty) {
    /* the runnable threads in order, from the mask (no branch per
     * thread) */
    uint64_t rm;
    s->nr = 0;
    for (rm = s->rmask; rm != 0; rm &= rm - 1)
      s->runnable[s->nr++] = __builtin_ctzll(rm);
    s->rdirty = 0;
  }
  nr = s->nr;
  if (nr == 0 && !busy)
    return RS_END;
  if (busy && (nr == 0 || chance(r, k->drain)) &&
      mm_drain_step(m, r, k, nth, nr))
    return RS_STEP;
  mm_hold_tick(m, k, nth);
  th = s->runnable[pick(r, nr)];
  if (k->late > 0 && s->th[th].np > 0 && chance(r, k->late))
    complete_pending(s, th, pick(r, s->th[th].np));
  else
    turn = step_thread(s, r, k, f, th); /* a turn spent waiting for L2 */
  mm_evict_step(m, r, k, th);
  return turn ? RS_TURN : RS_STEP;
}

/* After a run's last step (RS_END): 1 with the final state in vals, 0
 * when it hung (a thread left waiting before its last instruction). */
static int run_end(sim *s, int64_t *vals, const int *regoff) {
  const wl_litmus *t = s->t;
  int th, l, nth = t->nthreads;
  wl_assert(s->m.npend == 0 && mm_pend_count(&s->m, nth) == 0);
  /* threads left waiting must be at their last instruction (a barrier
   * with nothing after it), else the run hangs */
  for (th = 0; th < nth; th++) {
    if (!s->th[th].waiting)
      continue;
    if (s->th[th].cb) {
      cbthread *c = s->cb[th];
      if (wl__scb_learn(s, th) != 0 || c->nexec < c->nev)
        return 0;
      wl__scb_finish(s, th);
    } else if (s->th[th].barev + 1 < t->threads[th].ninsns) {
      return 0;
    }
  }
  for (th = 0; th < nth; th++) {
    int n = nreg(s->h, th);
    for (l = 0; l < n; l++)
      vals[regoff[th] + l] = s->th[th].regs[l];
  }
  for (l = 0; l < t->nlocs; l++)
    vals[regoff[nth] + l] = s->m.l2[l];
  return 1;
}

#ifndef WL_RNG_ENUM
/* One run; returns 1 with the final state in vals, 0 when it hung. */
static WL_HOT int run_once(sim *s, const knobs *k, unsigned f, uint64_t seed,
                           int max_steps, int64_t *vals, const int *regoff) {
  wl_rng rs = seed, *r = &rs;
  int steps, st = RS_STEP, nth = s->t->nthreads;
  run_start(s);
  for (steps = 0; steps < max_steps && !s->m.overflow; steps++) {
    st = run_step(s, r, k, f, nth);
    if (st == RS_END)
      break;
    if (st == RS_TURN)
      steps--; /* a turn spent waiting for L2 is not a step */
  }
  if (st != RS_END || s->m.overflow)
    return 0;
  return run_end(s, vals, regoff);
}

/* One function per profile and kind of test (plain: none of the
 * features F_ALL names), the knobs and features constants in each. */
static int run_weak(sim *s, uint64_t seed, int max_steps, int64_t *vals,
                    const int *regoff) {
  return run_once(s, &wl__profiles[WL_PROFILE_WEAK], F_ALL, seed, max_steps,
                  vals, regoff);
}

static int run_weak_plain(sim *s, uint64_t seed, int max_steps,
                          int64_t *vals, const int *regoff) {
  return run_once(s, &wl__profiles[WL_PROFILE_WEAK], 0, seed, max_steps,
                  vals, regoff);
}

static int run_h100(sim *s, uint64_t seed, int max_steps, int64_t *vals,
                    const int *regoff) {
  return run_once(s, &wl__profiles[WL_PROFILE_H100], F_ALL, seed, max_steps,
                  vals, regoff);
}

static int run_h100_plain(sim *s, uint64_t seed, int max_steps,
                          int64_t *vals, const int *regoff) {
  return run_once(s, &wl__profiles[WL_PROFILE_H100], 0, seed, max_steps,
                  vals, regoff);
}

/* The features the sampling s uses (F_*): its test's, its machine's
 * and its harness's. */
static unsigned features(const sim *s) {
  const wl_litmus *t = s->t;
  unsigned f = s->m.linked != 0 ? F_LINK : 0;
  int th, i;
  for (th = 0; th < t->nthreads; th++) {
    const wl_thread *tt = &t->threads[th];
    if (tt->fn != NULL)
      f |= F_CB | F_WAIT; /* (its events are not known ahead) */
    for (i = 0; i < tt->ninsns; i++)
      if (wait_len(s, &tt->insns[i]) > 0)
        f |= F_WAIT;
  }
  if (s->hdelay > 1 || s->hgap > 1)
    f |= F_HARN;
  return f;
}

int wl__sim_run(sim *s, uint64_t seed, int max_steps, int64_t *vals,
                const int *regoff) {
  if (s->feat < 0)
    s->feat = (int)features(s);
  if (s->profile == WL_PROFILE_H100)
    return (s->feat ? run_h100 : run_h100_plain)(s, seed, max_steps, vals,
                                                 regoff);
  return (s->feat ? run_weak : run_weak_plain)(s, seed, max_steps, vals,
                                               regoff);
}
#endif
