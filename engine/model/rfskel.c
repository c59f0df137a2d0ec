/* rfskel.c -- the reads-from search's threads (rfsearch.c has the
 * search): whether the search applies, each thread's skeletons (its
 * paths with every loaded value unknown, forking at each branch on a
 * loaded value and at each atom.cas), and the replay of a skeleton with
 * given loaded values. */
#include <string.h>

#include "explore.h"

/* ---------------------------------------------------------------- */
/* Whether the search applies                                        */

int wl__xp_rf_applies(const xp *x, const char **why) {
  const wl_litmus *t = x->t;
  int th, i;
  if (x->cand != NULL) {
    *why = "a cat model evaluates its own candidates";
    return 0;
  }
  for (th = 0; th < t->nthreads; th++) {
    const wl_thread *thr = &t->threads[th];
    if (thr->fn != NULL) {
      *why = "a thread is a function";
      return 0;
    }
    for (i = 0; i < thr->ninsns; i++) {
      const wl_insn *in = &thr->insns[i];
      if ((in->op == OP_BRANCH || in->op == OP_GOTO) && in->target <= i) {
        *why = "a thread has a backward branch (a loop)";
        return 0;
      }
      if (in->op == OP_BAR && (in->a.is_reg || in->b.is_reg)) {
        *why = "a barrier's id or count is a register";
        return 0;
      }
    }
  }
  return 1;
}

/* ---------------------------------------------------------------- */
/* 1. Skeletons                                                      */


typedef struct skgen {
  xp *x;
  int th;
  const wl_thread *thr;
  wl_ev ev[WL_MAX_TEV];
  int nev;
  int64_t regs[WL_MAX_REGS];
  uint64_t taint[WL_MAX_REGS];
  uint64_t ctrl;
  int dec[MAX_DEC]; /* pc * 2 + outcome */
  uint64_t dtaint[MAX_DEC]; /* the loads the decision depends on */
  int ndec;
  int last_bar;
} skgen;

static uint64_t sk_taint(const skgen *g, const wl_operand *o) {
  return o->is_reg ? g->taint[o->reg] : 0;
}

static int64_t sk_val(const skgen *g, const wl_operand *o) {
  return o->is_reg ? g->regs[o->reg] : o->imm;
}

static void sk_emit(skgen *g) {
  xp *x = g->x;
  tpool *p = &x->pool[g->th];
  wl_trace *tr;
  int i;
  if (x->err)
    return;
  if (p->traces.n >= WL_MAX_TRACES) {
    x->err = wl__err(x->ctx, WL_ELIMIT,
                     "%s: thread %s has more than %d paths",
                     x->t->filename ? x->t->filename : x->t->name,
                     g->thr->name, WL_MAX_TRACES);
    return;
  }
  if ((tr = wl__vec_push(x->ctx, &p->traces)) == NULL)
    goto nomem;
  memset(tr, 0, sizeof *tr);
  tr->ev0 = p->ev.n;
  tr->nev = g->nev;
  tr->reg0 = p->regs.n;
  tr->nregs = g->thr->nregs;
  tr->spin0 = g->nev;
  tr->ch0 = p->ch.n;
  tr->nch = g->ndec;
  for (i = 0; i < g->ndec; i++) {
    int *c = wl__vec_push(x->ctx, &p->ch);
    uint64_t *dt;
    if (c == NULL)
      goto nomem;
    *c = g->dec[i];
    /* the decisions' taints sit at the same index as the decisions */
    while (p->dtaint.n < p->ch.n - 1)
      if (wl__vec_push(x->ctx, &p->dtaint) == NULL)
        goto nomem;
    if ((dt = wl__vec_push(x->ctx, &p->dtaint)) == NULL)
      goto nomem;
    *dt = g->dtaint[i];
  }
  for (i = 0; i < g->nev; i++) {
    wl_ev *e = wl__vec_push(x->ctx, &p->ev);
    if (e == NULL)
      goto nomem;
    *e = g->ev[i];
    if (e->type == EV_B)
      e->bar_tail = (uint8_t)(i == g->last_bar);
  }
  /* the registers (overwritten with each execution's), then the
   * skeleton's own values and each register's taint (the loads its
   * final value depends on: obs_known) */
  for (i = 0; i < 3 * g->thr->nregs; i++) {
    int64_t *r = wl__vec_push(x->ctx, &p->regs);
    int k = i % g->thr->nregs;
    if (r == NULL)
      goto nomem;
    *r = i < 2 * g->thr->nregs ? g->regs[k] : (int64_t)g->taint[k];
  }
  return;
nomem:
  x->err = wl__err(x->ctx, WL_ENOMEM, "out of memory");
}

static wl_ev *sk_push(skgen *g, const wl_insn *in, int type) {
  wl_ev *e;
  if (g->nev >= WL_MAX_TEV) {
    g->x->err = wl__err(g->x->ctx, WL_ELIMIT,
                        "%s:%d:%d: thread %s executes more than %d memory "
                        "events in straight-line code (the explorer's limit "
                        "per thread; no loop is unrolled, so --unroll does "
                        "not help): split the thread's work into smaller "
                        "tests",
                        g->x->t->filename ? g->x->t->filename : g->x->t->name,
                        in->line, in->col, g->thr->name, WL_MAX_TEV);
    return NULL;
  }
  e = &g->ev[g->nev++];
  memset(e, 0, sizeof *e);
  e->type = (uint8_t)type;
  e->loc = (int16_t)in->loc;
  e->vloc = (int16_t)wl__insn_vloc(g->x->t, in);
  e->proxy = in->proxy;
  e->alias = in->op == OP_FENCE && in->pfence == PFENCE_ALIAS;
  e->insn = (int)(in - g->thr->insns);
  e->line = in->line;
  e->deps = g->ctrl;
  e->cdeps = g->ctrl;
  return e;
}

static int sk_decide(skgen *g, const wl_insn *in, int pc, int outcome,
                     uint64_t taint) {
  if (g->ndec >= MAX_DEC) {
    g->x->err = wl__err(g->x->ctx, WL_ELIMIT,
                        "%s:%d: thread %s takes more than %d decisions",
                        g->x->t->filename ? g->x->t->filename : g->x->t->name,
                        in->line, g->thr->name, MAX_DEC);
    return -1;
  }
  g->dtaint[g->ndec] = taint;
  g->dec[g->ndec++] = pc * 2 + outcome;
  return 0;
}

/* The RMW part of an atom/red whose read is event r: its write, with
 * the value computed from the placeholder read value v. */
static int sk_rmw_write(skgen *g, const wl_insn *in, int r, int64_t v) {
  wl_ev *w;
  g->ev[r].rmw = 1;
  if ((w = sk_push(g, in, EV_W)) == NULL)
    return -1;
  w->rmw = 1;
  w->scope = in->scope;
  w->sem = (uint8_t)wl__rmw_write_sem(in->sem);
  w->val = wl__aop_typed(g->x->t->loctype[in->loc], in->aop, v,
                         sk_val(g, &in->a), sk_val(g, &in->b));
  w->deps |= sk_taint(g, &in->a) | sk_taint(g, &in->b) | (1ull << r);
  w->ddeps |= sk_taint(g, &in->a) | sk_taint(g, &in->b);
  if (in->aop == AOP_CAS)
    w->cdeps |= 1ull << r;
  else if (in->aop != AOP_EXCH)
    w->ddeps |= 1ull << r;
  return 0;
}

static void sk_run(skgen *g, int pc) {
  xp *x = g->x;
  const wl_thread *thr = g->thr;
  while (pc < thr->ninsns && !x->err) {
    const wl_insn *in = &thr->insns[pc];
    switch (in->op) {
    case OP_MOV:
      g->regs[in->dst] = sk_val(g, &in->a);
      g->taint[in->dst] = sk_taint(g, &in->a);
      g->last_bar = -1;
      pc++;
      continue;
    case OP_ALU:
      g->regs[in->dst] =
          wl__aop_apply(in->aop, sk_val(g, &in->a), sk_val(g, &in->b), 0);
      g->taint[in->dst] = sk_taint(g, &in->a) | sk_taint(g, &in->b);
      g->last_bar = -1;
      pc++;
      continue;
    case OP_ST: {
      wl_ev *e = sk_push(g, in, EV_W);
      if (e == NULL)
        return;
      e->sem = in->sem;
      e->scope = in->scope;
      e->val = sk_val(g, &in->a);
      e->deps |= sk_taint(g, &in->a);
      e->ddeps |= sk_taint(g, &in->a);
      g->last_bar = -1;
      pc++;
      continue;
    }
    case OP_FENCE: {
      wl_ev *e = sk_push(g, in, EV_F);
      if (e == NULL)
        return;
      e->sem = in->sem;
      e->scope = in->scope;
      g->last_bar = -1;
      pc++;
      continue;
    }
    case OP_BAR: {
      wl_ev *e = sk_push(g, in, EV_B);
      if (e == NULL)
        return;
      e->sem = WL_SEM_ACQ_REL;
      e->scope = WL_SCOPE_CTA;
      e->bar_kind = in->bar_kind;
      e->bar_ns = in->bar_ns;
      e->has_count = in->has_count;
      e->bar_id = in->bar_ns == BARNS_INSTANCE ? in->bar_inst
                                               : sk_val(g, &in->a);
      e->bar_count = in->has_count ? sk_val(g, &in->b) : 0;
      g->last_bar = g->nev - 1;
      pc++;
      continue;
    }
    case OP_BRANCH: {
      uint64_t tn = sk_taint(g, &in->a) | sk_taint(g, &in->b);
      if (tn == 0) {
        pc = wl__cond_holds(in->cond, sk_val(g, &in->a), sk_val(g, &in->b))
                 ? in->target
                 : pc + 1;
        continue;
      }
      {
        /* forks on a loaded value: both outcomes, checked by the
         * replay once the values are known */
        int d, nev = g->nev, ndec = g->ndec, lb = g->last_bar;
        int64_t regs[WL_MAX_REGS];
        uint64_t taint[WL_MAX_REGS], ctrl = g->ctrl;
        memcpy(regs, g->regs, sizeof regs);
        memcpy(taint, g->taint, sizeof taint);
        for (d = 0; d < 2 && !x->err; d++) {
          if (sk_decide(g, in, pc, d, tn) != 0)
            return;
          g->ctrl |= tn;
          sk_run(g, d ? in->target : pc + 1);
          g->nev = nev;
          g->ndec = ndec;
          g->last_bar = lb;
          g->ctrl = ctrl;
          memcpy(g->regs, regs, sizeof regs);
          memcpy(g->taint, taint, sizeof taint);
        }
        return;
      }
    }
    case OP_GOTO:
      pc = in->target;
      continue;
    case OP_LD:
    case OP_ATOM:
    case OP_RED: {
      int dst = in->op == OP_RED ? -1 : in->dst, r;
      wl_ev *e = sk_push(g, in, EV_R);
      if (e == NULL)
        return;
      r = g->nev - 1;
      e->scope = in->scope;
      if (in->op == OP_LD)
        e->sem = in->sem;
      else
        e->sem = (uint8_t)wl__rmw_read_sem(in->sem);
      g->last_bar = -1;
      if (in->op != OP_LD && in->aop == AOP_CAS) {
        /* the cas writes exactly when it reads its compare value: both
         * outcomes, as for a branch */
        int d, nev = g->nev, ndec = g->ndec;
        int64_t regs[WL_MAX_REGS];
        uint64_t taint[WL_MAX_REGS];
        memcpy(regs, g->regs, sizeof regs);
        memcpy(taint, g->taint, sizeof taint);
        for (d = 0; d < 2 && !x->err; d++) {
          int64_t v = d ? sk_val(g, &in->a) : 0;
          if (sk_decide(g, in, pc, d, (1ull << r) | sk_taint(g, &in->a)) !=
              0)
            return;
          if (d && sk_rmw_write(g, in, r, v) != 0)
            return;
          if (dst >= 0) {
            g->regs[dst] = v;
            g->taint[dst] = 1ull << r;
          }
          sk_run(g, pc + 1);
          g->nev = nev;
          g->ndec = ndec;
          g->ev[r].rmw = 0;
          memcpy(g->regs, regs, sizeof regs);
          memcpy(g->taint, taint, sizeof taint);
        }
        return;
      }
      if (in->op != OP_LD && sk_rmw_write(g, in, r, 0) != 0)
        return;
      if (dst >= 0) {
        g->regs[dst] = 0;
        g->taint[dst] = 1ull << r;
      }
      pc++;
      continue;
    }
    default:
      pc++;
      continue;
    }
  }
  if (!x->err)
    sk_emit(g);
}

int wl__xp_rf_skeletons(xp *x) {
  const wl_litmus *t = x->t;
  int th;
  for (th = 0; th < t->nthreads && !x->err; th++) {
    const wl_thread *thr = &t->threads[th];
    skgen *g = wl__calloc(x->ctx, sizeof *g);
    int i;
    if (g == NULL)
      return x->err = wl__err(x->ctx, WL_ENOMEM, "out of memory");
    g->x = x;
    g->th = th;
    g->thr = thr;
    g->last_bar = -1;
    for (i = 0; i < thr->nregs; i++)
      g->regs[i] = thr->reginit[i];
    sk_run(g, 0);
    wl__free(x->ctx, g, sizeof *g);
  }
  return x->err;
}

/* ---------------------------------------------------------------- */
/* 3. Replays                                                        */

/* Replays thread th's skeleton tr with its reads returning rv[] (by
 * event index); writes the written values into wv[] and the final
 * registers into regs.  Returns 1 when every branch and cas took the
 * skeleton's decision. */
int wl__xp_rf_replay(const xp *x, int th, const wl_trace *tr,
                     const int64_t *rv, int64_t *wv, int64_t *regs,
                     uint8_t *act) {
  const wl_thread *thr = &x->t->threads[th];
  const int *dec = WL_VEC_PTR(&x->pool[th].ch, int, tr->ch0);
  int pc = 0, k = 0, d = 0, ok = 1, i;
  for (i = 0; i < thr->nregs; i++)
    regs[i] = thr->reginit[i];
#define RV(o) ((o)->is_reg ? regs[(o)->reg] : (o)->imm)
  while (pc < thr->ninsns) {
    const wl_insn *in = &thr->insns[pc];
    switch (in->op) {
    case OP_MOV:
      regs[in->dst] = RV(&in->a);
      pc++;
      break;
    case OP_ALU:
      regs[in->dst] = wl__aop_apply(in->aop, RV(&in->a), RV(&in->b), 0);
      pc++;
      break;
    case OP_ST:
      wv[k++] = RV(&in->a);
      pc++;
      break;
    case OP_FENCE:
    case OP_BAR:
      k++;
      pc++;
      break;
    case OP_BRANCH: {
      int taken = wl__cond_holds(in->cond, RV(&in->a), RV(&in->b));
      if (d < tr->nch && dec[d] >> 1 == pc) {
        ok &= taken == (dec[d] & 1);
        if (act != NULL)
          act[d] = (uint8_t)taken;
        taken = dec[d++] & 1;
      }
      pc = taken ? in->target : pc + 1;
      break;
    }
    case OP_GOTO:
      pc = in->target;
      break;
    case OP_LD:
    case OP_ATOM:
    case OP_RED: {
      int64_t v = rv[k], a = RV(&in->a), b = RV(&in->b);
      int writes = in->op != OP_LD;
      k++;
      if (writes && in->aop == AOP_CAS) {
        int succ = v == a;
        if (d < tr->nch && dec[d] >> 1 == pc) {
          ok &= succ == (dec[d] & 1);
          if (act != NULL)
            act[d] = (uint8_t)succ;
          succ = dec[d++] & 1;
        }
        writes = succ;
      }
      /* a cas taken as succeeding writes its new value whatever the
       * value read so far (the replay that decides reads a) */
      if (writes)
        wv[k++] = wl__aop_typed(x->t->loctype[in->loc], in->aop,
                                in->aop == AOP_CAS ? a : v, a, b);
      if (in->op != OP_RED)
        regs[in->dst] = v;
      pc++;
      break;
    }
    default:
      pc++;
      break;
    }
  }
#undef RV
  return ok;
}

