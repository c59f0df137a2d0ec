/* traces.c -- each thread's traces (issue 1 of the explorer).  A thread's
 * program is run with a load-value oracle: a load (or the read of an
 * RMW) may return any value of its location's domain, so a thread yields
 * one trace per choice of values.  Domains start at the initial values
 * and grow to a fixpoint over the values written by combinations of
 * traces whose every read is matched by a write of the same combination
 * (explore.c drives the fixpoint).  Loops are unrolled up to a bound;
 * spin-loop iterations that change nothing are stutters.  Callback
 * threads are re-run with each choice of loaded values. */
#include <stdio.h>
#include <string.h>

#include "explore.h"
#include "tgen.h"

int wl__xp_dom_has(const vdom *d, int64_t v) {
  int lo = 0, hi = d->n;
  while (lo < hi) {
    int m = (lo + hi) / 2;
    if (d->v[m] == v)
      return 1;
    if (d->v[m] < v)
      lo = m + 1;
    else
      hi = m;
  }
  return 0;
}

/* Where event e of thread th comes from, for the limit errors:
 * "file:line:col" of its instruction, "file:line" for a callback
 * thread's event, the test's file (or name) when neither is known. */
const char *wl__xp_ev_place(const xp *x, int th, const wl_ev *e, char *buf,
                            size_t n) {
  const wl_litmus *t = x->t;
  const char *f = t->filename ? t->filename : t->name;
  const wl_thread *w = th >= 0 && th < t->nthreads ? &t->threads[th] : NULL;
  if (e != NULL && w != NULL && e->insn >= 0 && e->insn < w->ninsns &&
      w->insns[e->insn].line > 0)
    snprintf(buf, n, "%s:%d:%d", f, w->insns[e->insn].line,
             w->insns[e->insn].col);
  else if (e != NULL && e->line > 0)
    snprintf(buf, n, "%s:%d", f, e->line);
  else if (w != NULL && w->line > 0)
    snprintf(buf, n, "%s:%d", f, w->line);
  else
    snprintf(buf, n, "%s", f);
  return buf;
}

/* Inserts v keeping the domain sorted; 1 if added, 0 if present, <0 on
 * error.  at (thread th) is the write that brings v, NULL for an initial
 * value: the limit's message names its place. */
int wl__xp_dom_add(xp *x, vdom *d, int64_t v, int loc, int th,
                   const wl_ev *at) {
  int i;
  char where[300];
  if (wl__xp_dom_has(d, v))
    return 0;
  if (d->n >= WL_MAX_VALUES)
    return x->err =
               wl__err(x->ctx, WL_ELIMIT,
                       "%s: location '%s' can hold more than %d values; the "
                       "explorer needs a finite value domain (bound the loops "
                       "that compute stored values)",
                       wl__xp_ev_place(x, th, at, where, sizeof where),
                       x->t->locnames[loc], WL_MAX_VALUES);
  if (d->n == d->cap) {
    int cap = d->cap ? d->cap * 2 : 8;
    int64_t *p = wl__realloc(x->ctx, d->v, (size_t)d->cap * sizeof *p,
                             (size_t)cap * sizeof *p);
    if (p == NULL)
      return x->err = wl__err(x->ctx, WL_ENOMEM, "out of memory");
    d->v = p;
    d->cap = cap;
  }
  for (i = d->n; i > 0 && d->v[i - 1] > v; i--)
    d->v[i] = d->v[i - 1];
  d->v[i] = v;
  d->n++;
  return 1;
}

/* ---------------------------------------------------------------- */
/* 1. Traces                                                         */

/* snap and tgen: tgen.h */

static uint64_t op_taint(const tgen *g, const wl_operand *o) {
  return o->is_reg ? g->taint[o->reg] : 0;
}

static int64_t op_val(const tgen *g, const wl_operand *o) {
  return o->is_reg ? g->regs[o->reg] : o->imm;
}

/* 1 when the trace being built went round a loop: a backward branch
 * taken (a PTX thread), or a location read again (a callback thread,
 * whose loops the unroll bound counts that way: tb_bound). */
int wl__tg_looped(const tgen *g) {
  int l;
  if (g->nback > 0)
    return 1;
  if (g->thr->fn != NULL)
    for (l = 0; l < WL_MAX_LOCS; l++)
      if (g->reads_of[l] > 1)
        return 1;
  return 0;
}

/* 1 when some trace of the pool went round a loop. */
static int pool_looped(const tpool *p) {
  size_t i;
  for (i = 0; i < p->traces.n; i++)
    if (WL_VEC_PTR(&p->traces, wl_trace, i)->looped)
      return 1;
  return 0;
}

void wl__tg_emit(tgen *g, int cut) {
  xp *x = g->x;
  tpool *p = &x->pool[g->th];
  wl_trace *tr;
  int i;
  if (x->err)
    return;
  if (p->traces.n >= WL_MAX_TRACES) {
    char where[300];
    x->err = wl__err(x->ctx, WL_ELIMIT,
                     "%s: thread %s has more than %d traces (paths through "
                     "its code, the explorer's limit per thread); %s",
                     wl__xp_ev_place(x, g->th,
                                     g->nev ? &g->ev[g->nev - 1] : NULL,
                                     where, sizeof where),
                     g->thr->name, WL_MAX_TRACES,
                     pool_looped(p) || wl__tg_looped(g)
                         ? "lower the unroll bound (--unroll N, explore{"
                           "unroll = N}) or simplify the test"
                         : "its loads have too many possible values: "
                           "simplify the test (fewer loads or branches on "
                           "their values)");
    return;
  }
  tr = wl__vec_push(x->ctx, &p->traces);
  if (tr == NULL) {
    x->err = wl__err(x->ctx, WL_ENOMEM, "out of memory");
    return;
  }
  tr->ev0 = p->ev.n;
  tr->nev = g->nev;
  tr->reg0 = p->regs.n;
  tr->nregs = g->thr->nregs;
  tr->cut = (uint8_t)cut;
  tr->looped = (uint8_t)wl__tg_looped(g);
  tr->spin0 = cut == 2 ? g->spin0 : g->nev;
  tr->spin_line = cut == 2 ? g->spin_line : 0;
  tr->ch0 = p->ch.n;
  tr->nch = g->nch;
  for (i = 0; i < g->nch; i++) {
    int *c = wl__vec_push(x->ctx, &p->ch);
    if (c == NULL) {
      x->err = wl__err(x->ctx, WL_ENOMEM, "out of memory");
      return;
    }
    *c = g->ch[i];
  }
  for (i = 0; i < g->nev; i++) {
    wl_ev *e = wl__vec_push(x->ctx, &p->ev);
    if (e == NULL) {
      x->err = wl__err(x->ctx, WL_ENOMEM, "out of memory");
      return;
    }
    *e = g->ev[i];
    if (e->type == EV_B)
      e->bar_tail = (uint8_t)(i == g->last_bar && cut == 0);
  }
  for (i = 0; i < g->thr->nregs; i++) {
    int64_t *r = wl__vec_push(x->ctx, &p->regs);
    if (r == NULL) {
      x->err = wl__err(x->ctx, WL_ENOMEM, "out of memory");
      return;
    }
    *r = g->regs[i];
  }
  if (cut == 1)
    x->res->traces_cut++;
}

static int push_ev(tgen *g, const wl_insn *in, int type) {
  wl_ev *e;
  if (g->nev >= WL_MAX_TEV) {
    if (wl__tg_looped(g))
      g->x->err = wl__err(
          g->x->ctx, WL_ELIMIT,
          "%s:%d:%d: thread %s executes more than %d memory events in one "
          "trace (the explorer's limit per thread) with its loops unrolled "
          "%d times; lower the unroll bound (--unroll N, explore{unroll = "
          "N}) or make the loop body shorter",
          g->x->t->filename ? g->x->t->filename : g->x->t->name, in->line,
          in->col, g->thr->name, WL_MAX_TEV, g->x->unroll);
    else
      g->x->err = wl__err(
          g->x->ctx, WL_ELIMIT,
          "%s:%d:%d: thread %s executes more than %d memory events in "
          "straight-line code (the explorer's limit per thread; no loop is "
          "unrolled, so --unroll does not help): split the thread's work "
          "into smaller tests",
          g->x->t->filename ? g->x->t->filename : g->x->t->name, in->line,
          in->col, g->thr->name, WL_MAX_TEV);
    return -1;
  }
  e = &g->ev[g->nev];
  memset(e, 0, sizeof *e);
  e->type = (uint8_t)type;
  e->loc = (int16_t)in->loc; /* physical; the alias named is in vloc */
  e->vloc = (int16_t)wl__insn_vloc(g->x->t, in);
  e->proxy = in->proxy;
  e->alias = in->op == OP_FENCE && in->pfence == PFENCE_ALIAS;
  e->insn = (int)(in - g->thr->insns);
  e->line = in->line;
  e->deps = g->ctrl;
  e->cdeps = g->ctrl;
  return g->nev++;
}

static void run_from(tgen *g, int pc);

/* Whether the registers live at pc have the values they had in s.  A
 * register that every path from pc overwrites before reading it (the
 * destination of a spin loop's load) cannot tell two visits apart, so
 * an iteration that only re-read such registers is a stutter too. */
static int same_live(const tgen *g, const snap *s, int pc) {
  uint64_t live = g->x->live[pc];
  while (live) {
    int r = __builtin_ctzll(live);
    live &= live - 1;
    if (r < g->thr->nregs && s->regs[r] != g->regs[r])
      return 0;
  }
  return 1;
}

/* Backward liveness over the thread's instructions: at the end of the
 * program every register is live (it is part of the final state). */
static void live_regs(xp *x, const wl_thread *thr) {
  int changed = 1, pc;
  uint64_t all = thr->nregs >= 64 ? ~0ull : (1ull << thr->nregs) - 1;
  memset(x->live, 0, (size_t)thr->ninsns * sizeof x->live[0]);
  while (changed) {
    changed = 0;
    for (pc = thr->ninsns - 1; pc >= 0; pc--) {
      const wl_insn *in = &thr->insns[pc];
      uint64_t out = 0, use = 0, def = 0, v;
      int fall = in->op != OP_GOTO;
      if (fall)
        out |= pc + 1 < thr->ninsns ? x->live[pc + 1] : all;
      if (in->op == OP_BRANCH || in->op == OP_GOTO)
        out |= in->target < thr->ninsns ? x->live[in->target] : all;
      if (in->a.is_reg)
        use |= 1ull << in->a.reg;
      if (in->b.is_reg)
        use |= 1ull << in->b.reg;
      if (in->dst >= 0 && (in->op == OP_MOV || in->op == OP_ALU ||
                           in->op == OP_LD || in->op == OP_ATOM))
        def = 1ull << in->dst;
      v = use | (out & ~def);
      if (v != x->live[pc]) {
        x->live[pc] = v;
        changed = 1;
      }
    }
  }
}

/* Jumps to target; handles loops: a backward jump that returns to a loop
 * head in a state already seen there, with no write or barrier since, is
 * a stutter (a spin-loop iteration that changed nothing): the trace is
 * dropped, since removing the iteration's reads and fences gives an
 * execution with the same final state that is consistent whenever this
 * one is (all axioms are monotone under removing such events). */
static void jump(tgen *g, int pc, int target) {
  if (target <= pc) {
    int i;
    const wl_explore_opts *o = g->x->opts;
    for (i = 0; i < g->nsnaps && (o == NULL || !o->no_stutter); i++) {
      const snap *s = &g->snaps[i];
      if (s->pc == target && s->nwrites == g->nwrites &&
          same_live(g, s, target)) {
        /* stutter: kept as a prefix that writes values (the domain
         * fixpoint needs the writes of spinning threads) and for the
         * liveness search, which needs the spin part */
        g->spin0 = s->nev;
        g->spin_line = g->thr->insns[target].line;
        wl__tg_emit(g, 2);
        return;
      }
    }
    if (g->backs[pc] >= g->x->unroll) {
      wl__tg_emit(g, 1);
      return;
    }
    g->backs[pc]++;
    g->nback++;
    run_from(g, target);
    g->nback--;
    g->backs[pc]--;
    return;
  }
  run_from(g, target);
}

static void run_from(tgen *g, int pc) {
  xp *x = g->x;
  const wl_thread *thr = g->thr;
  int pushed_snap = 0;
  if (x->err)
    return;
  if (wl__xp_stop(x))
    return;
  if (pc < thr->ninsns && x->loophead[pc]) {
    snap *s;
    if (g->nsnaps == g->snapcap) {
      int cap = g->snapcap ? g->snapcap * 2 : 8;
      snap *q = wl__realloc(x->ctx, g->snaps, (size_t)g->snapcap * sizeof *q,
                            (size_t)cap * sizeof *q);
      if (q == NULL) {
        x->err = wl__err(x->ctx, WL_ENOMEM, "out of memory");
        return;
      }
      g->snaps = q;
      g->snapcap = cap;
    }
    s = &g->snaps[g->nsnaps++];
    s->pc = pc;
    s->nwrites = g->nwrites;
    s->nev = g->nev;
    memcpy(s->regs, g->regs, sizeof g->regs);
    pushed_snap = 1;
  }
  while (pc < thr->ninsns && !x->err) {
    const wl_insn *in = &thr->insns[pc];
    switch (in->op) {
    case OP_NOP:
      pc++;
      continue;
    case OP_MOV:
      g->regs[in->dst] = op_val(g, &in->a);
      g->taint[in->dst] = op_taint(g, &in->a);
      g->last_bar = -1;
      pc++;
      continue;
    case OP_ALU:
      g->regs[in->dst] =
          wl__aop_apply(in->aop, op_val(g, &in->a), op_val(g, &in->b), 0);
      g->taint[in->dst] = op_taint(g, &in->a) | op_taint(g, &in->b);
      g->last_bar = -1;
      pc++;
      continue;
    case OP_ST: {
      int e = push_ev(g, in, EV_W);
      if (e < 0)
        return;
      g->ev[e].sem = in->sem;
      g->ev[e].scope = in->scope;
      g->ev[e].val = op_val(g, &in->a);
      g->ev[e].deps |= op_taint(g, &in->a);
      g->ev[e].ddeps |= op_taint(g, &in->a);
      g->nwrites++;
      g->last_bar = -1;
      pc++;
      continue;
    }
    case OP_FENCE: {
      int e = push_ev(g, in, EV_F);
      if (e < 0)
        return;
      g->ev[e].sem = in->sem;
      g->ev[e].scope = in->scope;
      g->last_bar = -1;
      pc++;
      continue;
    }
    case OP_BAR: {
      int e = push_ev(g, in, EV_B);
      if (e < 0)
        return;
      g->ev[e].sem = WL_SEM_ACQ_REL;
      g->ev[e].scope = WL_SCOPE_CTA;
      g->ev[e].bar_kind = in->bar_kind;
      g->ev[e].bar_ns = in->bar_ns;
      g->ev[e].has_count = in->has_count;
      g->ev[e].bar_id =
          in->bar_ns == BARNS_INSTANCE ? in->bar_inst : op_val(g, &in->a);
      g->ev[e].bar_count = in->has_count ? op_val(g, &in->b) : 0;
      g->ev[e].deps |= op_taint(g, &in->a) | op_taint(g, &in->b);
      g->ev[e].ddeps |= op_taint(g, &in->a) | op_taint(g, &in->b);
      g->nwrites++; /* barriers end stutter detection too */
      g->last_bar = e;
      pc++;
      continue;
    }
    case OP_BRANCH: {
      int taken =
          wl__cond_holds(in->cond, op_val(g, &in->a), op_val(g, &in->b));
      uint64_t saved = g->ctrl;
      g->ctrl |= op_taint(g, &in->a) | op_taint(g, &in->b);
      if (taken)
        jump(g, pc, in->target);
      else
        run_from(g, pc + 1);
      g->ctrl = saved;
      goto out;
    }
    case OP_GOTO:
      jump(g, pc, in->target);
      goto out;
    case OP_LD:
    case OP_ATOM:
    case OP_RED: {
      /* Branch on every value of the location's domain. */
      const vdom *d = &x->dom[in->loc];
      int k, saved_nev = g->nev, saved_nw = g->nwrites, saved_lb = g->last_bar;
      int dst = in->op == OP_RED ? -1 : in->dst;
      int64_t saved_reg = dst >= 0 ? g->regs[dst] : 0;
      uint64_t saved_taint = dst >= 0 ? g->taint[dst] : 0;
      size_t nr = (size_t)thr->nregs;
      memcpy(g->sregs[saved_nev], g->regs, nr * sizeof g->regs[0]);
      memcpy(g->staint[saved_nev], g->taint, nr * sizeof g->taint[0]);
      for (k = 0; k < d->n && !x->err; k++) {
        int64_t v = d->v[k];
        int r = push_ev(g, in, EV_R), w;
        if (r < 0)
          return;
        g->ev[r].val = v;
        g->ev[r].scope = in->scope;
        if (in->op == OP_LD) {
          g->ev[r].sem = in->sem;
        } else {
          /* atom.acq_rel: acquire read, release write (strength.h) */
          g->ev[r].sem = (uint8_t)wl__rmw_read_sem(in->sem);
          if (!(in->aop == AOP_CAS && v != op_val(g, &in->a))) {
            g->ev[r].rmw = 1;
            if ((w = push_ev(g, in, EV_W)) < 0)
              return;
            g->ev[w].rmw = 1;
            g->ev[w].scope = in->scope;
            g->ev[w].sem = (uint8_t)wl__rmw_write_sem(in->sem);
            g->ev[w].val = wl__aop_typed(x->t->loctype[in->loc], in->aop, v,
                                         op_val(g, &in->a), op_val(g, &in->b));
            g->ev[w].deps |=
                op_taint(g, &in->a) | op_taint(g, &in->b) | (1ull << r);
            g->ev[w].ddeps |= op_taint(g, &in->a) | op_taint(g, &in->b);
            if (in->aop == AOP_CAS)
              g->ev[w].cdeps |= 1ull << r;
            else if (in->aop != AOP_EXCH)
              g->ev[w].ddeps |= 1ull << r;
            /* an RMW that writes back the value it read (a failed exch
             * of a lock) changes nothing where atomicity keeps its
             * write next to its source (quiet_rmw_locs) */
            if (!x->rmw_quiet[in->loc] || g->ev[w].val != v)
              g->nwrites++;
          }
        }
        if (dst >= 0) {
          g->regs[dst] = v;
          g->taint[dst] = 1ull << r;
        }
        g->last_bar = -1;
        run_from(g, pc + 1);
        g->nev = saved_nev;
        g->nwrites = saved_nw;
        g->last_bar = saved_lb;
        memcpy(g->regs, g->sregs[saved_nev], nr * sizeof g->regs[0]);
        memcpy(g->taint, g->staint[saved_nev], nr * sizeof g->taint[0]);
        if (dst >= 0) {
          g->regs[dst] = saved_reg;
          g->taint[dst] = saved_taint;
        }
      }
      goto out;
    }
    default:
      pc++;
      continue;
    }
  }
  if (pc >= thr->ninsns)
    wl__tg_emit(g, 0);
out:
  if (pushed_snap)
    g->nsnaps--;
}

/* Whether an access instruction touches location l. */
static int touches(const wl_insn *in, int l) {
  return in->loc == l && (in->op == OP_LD || in->op == OP_ST ||
                          in->op == OP_ATOM || in->op == OP_RED);
}

/* The locations where every write is morally strong with every access
 * of another thread: strong (not weak), with a scope that includes each
 * other thread that touches the location.  There, Atomicity puts an
 * RMW's write right after the write it read from in coherence, so an
 * RMW that writes back the value it read can be removed from an
 * execution without changing its final state or its consistency: a
 * spin-loop iteration made of such RMWs (a failed exch of a lock) is a
 * stutter, as one of plain reads is (jump()). */
static void quiet_rmw_locs(xp *x) {
  const wl_litmus *t = x->t;
  int l, th, o, i, j;
  for (l = 0; l < t->nlocs; l++)
    x->rmw_quiet[l] = x->opts == NULL || !x->opts->no_stutter;
  for (th = 0; th < t->nthreads; th++)
    if (t->threads[th].fn != NULL) { /* its accesses are not known */
      memset(x->rmw_quiet, 0, sizeof x->rmw_quiet);
      return;
    }
  for (th = 0; th < t->nthreads; th++) {
    const wl_thread *a = &t->threads[th];
    for (i = 0; i < a->ninsns; i++) {
      const wl_insn *in = &a->insns[i];
      if (!touches(in, in->loc) || in->op == OP_LD)
        continue;
      l = in->loc;
      if (in->sem == WL_SEM_WEAK || in->scope == WL_SCOPE_NONE) {
        x->rmw_quiet[l] = 0;
        continue;
      }
      for (o = 0; o < t->nthreads && x->rmw_quiet[l]; o++) {
        const wl_thread *b = &t->threads[o];
        if (o == th)
          continue;
        for (j = 0; j < b->ninsns; j++)
          if (touches(&b->insns[j], l) &&
              !wl__scope_includes(in->scope, a, b)) {
            x->rmw_quiet[l] = 0;
            break;
          }
      }
    }
  }
}

int wl__xp_gen_traces(xp *x) {
  int th;
  quiet_rmw_locs(x);
  for (th = 0; th < x->t->nthreads && !x->err; th++) {
    const wl_thread *thr = &x->t->threads[th];
    tpool *p = &x->pool[th];
    tgen *g;
    int i;
    p->ev.n = p->regs.n = p->traces.n = p->ch.n = 0;
    g = wl__calloc(x->ctx, sizeof *g);
    if (g == NULL)
      return x->err = wl__err(x->ctx, WL_ENOMEM, "out of memory");
    g->x = x;
    g->th = th;
    g->thr = thr;
    g->last_bar = -1;
    memcpy(g->regs, thr->reginit, sizeof g->regs);
    memset(x->loophead, 0, sizeof x->loophead);
    for (i = 0; i < thr->ninsns; i++) {
      const wl_insn *in = &thr->insns[i];
      if ((in->op == OP_BRANCH || in->op == OP_GOTO) && in->target <= i)
        x->loophead[in->target] = 1;
    }
    live_regs(x, thr);
    if (thr->fn != NULL)
      wl__tg_run_callback(g);
    else
      run_from(g, 0);
    wl__free(x->ctx, g->snaps, (size_t)g->snapcap * sizeof *g->snaps);
    wl__free(x->ctx, g, sizeof *g);
  }
  return x->err;
}

/* Shared memory is per CTA: a location marked shared that threads of
 * two CTAs access would be two different variables on a GPU, so the
 * test is rejected, naming the two accesses. */
int wl__xp_check_shared(xp *x) {
  const wl_litmus *t = x->t;
  int l, th;
  for (l = 0; l < t->nlocs; l++) {
    int first = -1, fline = 0;
    if (!t->locshared[l])
      continue;
    for (th = 0; th < t->nthreads; th++) {
      const tpool *p = &x->pool[th];
      size_t k;
      for (k = 0; k < p->ev.n; k++) {
        const wl_ev *e = WL_VEC_PTR(&p->ev, wl_ev, k);
        const wl_thread *a, *b;
        if ((e->type != EV_R && e->type != EV_W) || e->loc != l)
          continue;
        if (first < 0) {
          first = th;
          fline = e->line;
          break;
        }
        a = &t->threads[first];
        b = &t->threads[th];
        if (a->cta != b->cta || a->gpu != b->gpu)
          return x->err = wl__err(
                     x->ctx, WL_EINVAL,
                     "%s: shared location '%s' is used by %s (CTA %d, line "
                     "%d) and %s (CTA %d, line %d); shared memory exists "
                     "once per CTA, so these would be two variables (make "
                     "it global, or place the threads in one CTA)",
                     t->filename ? t->filename : t->name, t->locnames[l],
                     a->name, a->cta, fline, b->name, b->cta, e->line);
        break;
      }
    }
  }
  return 0;
}
