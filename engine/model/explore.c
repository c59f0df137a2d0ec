/* explore.c -- the exhaustive explorer of the PTX 6.0 memory consistency
 * model (Lustig et al., ASPLOS'19; shared/spec/ptx-v6.0.cat, read beside
 * ptx-asplos19.cat).
 *
 * 1. Traces.  Each thread's program is run with a load-value oracle: a
 *    load (or the read of an RMW) may return any value of its location's
 *    domain, so a thread yields one trace per choice of values.  Domains
 *    start at the initial values and grow to a fixpoint over the values
 *    written by combinations of traces whose every read is matched by a
 *    write of the same combination.
 * 2. Candidates.  For each combination of traces (one per thread), each
 *    barrier schedule, each reads-from choice, each fence-SC order and
 *    each coherence order, the axioms of the model are checked on bit
 *    matrices (an execution has at most 64 events).
 * 3. Every consistent execution contributes its final state; the first
 *    one found per state is kept as the witness.
 */
#include <stdio.h>
#include <string.h>

#include "cand.h"

/* ---------------------------------------------------------------- */
/* Bit-matrix relations                                              */

static void rel_zero(rel r, int n) { memset(r, 0, (size_t)n * sizeof r[0]); }

static void rel_copy(rel d, const rel s, int n) {
  memcpy(d, s, (size_t)n * sizeof d[0]);
}

/* d = a ; b */
static void rel_seq(rel d, const rel a, const rel b, int n) {
  int i;
  for (i = 0; i < n; i++) {
    uint64_t row = a[i], acc = 0;
    while (row) {
      int j = __builtin_ctzll(row);
      row &= row - 1;
      acc |= b[j];
    }
    d[i] = acc;
  }
}

static void rel_closure(rel r, int n) {
  int i, k;
  for (k = 0; k < n; k++) {
    uint64_t bk = 1ull << k;
    for (i = 0; i < n; i++)
      if (r[i] & bk)
        r[i] |= r[k];
  }
}

static int rel_irreflexive(const rel r, int n) {
  int i;
  for (i = 0; i < n; i++)
    if (r[i] >> i & 1)
      return 0;
  return 1;
}

static int rel_acyclic(const rel r, int n) {
  rel c;
  rel_copy(c, r, n);
  rel_closure(c, n);
  return rel_irreflexive(c, n);
}

static void rel_inverse(rel d, const rel s, int n) {
  int i;
  rel_zero(d, n);
  for (i = 0; i < n; i++) {
    uint64_t row = s[i];
    while (row) {
      int j = __builtin_ctzll(row);
      row &= row - 1;
      d[j] |= 1ull << i;
    }
  }
}

/* ---------------------------------------------------------------- */
/* Explorer state                                                    */

typedef struct tpool {
  wl_vec ev;     /* wl_ev */
  wl_vec regs;   /* int64_t */
  wl_vec traces; /* wl_trace */
  wl_vec ch;     /* int: load choices of callback traces */
} tpool;

typedef struct vdom {
  int64_t *v;
  int n, cap;
} vdom;

typedef struct xp {
  wl_ctx *ctx;
  const wl_litmus *t;
  const wl_explore_opts *opts;
  wl_result *res;
  int unroll;
  vdom dom[WL_MAX_LOCS];
  tpool pool[WL_MAX_THREADS];
  int err;
  uint64_t work;
  /* trace generation scratch */
  int loophead[4096];
  /* the current combination */
  int choice[WL_MAX_THREADS];
  /* value-collection mode (domain fixpoint) */
  int collecting;
  vdom newv[WL_MAX_LOCS];
  int grew;
  /* a cat model given: its candidate enumerator (the second engine) */
  wl__candx *cand;
} xp;

static int stop_requested(xp *x) {
  if (x->opts != NULL && x->opts->should_stop != NULL &&
      (++x->work & 1023) == 0 && x->opts->should_stop(x->opts->stop_ud)) {
    x->err =
        wl__err(x->ctx, WL_ESTOPPED, "%s: exploration stopped", x->t->name);
    return 1;
  }
  return x->err != 0;
}

static int dom_has(const vdom *d, int64_t v) {
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
static const char *ev_place(const xp *x, int th, const wl_ev *e, char *buf,
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
static int dom_add(xp *x, vdom *d, int64_t v, int loc, int th,
                   const wl_ev *at) {
  int i;
  char where[300];
  if (dom_has(d, v))
    return 0;
  if (d->n >= WL_MAX_VALUES)
    return x->err =
               wl__err(x->ctx, WL_ELIMIT,
                       "%s: location '%s' can hold more than %d values; the "
                       "explorer needs a finite value domain (bound the loops "
                       "that compute stored values)",
                       ev_place(x, th, at, where, sizeof where),
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

typedef struct snap {
  int pc, nwrites;
  int64_t regs[WL_MAX_REGS];
} snap;

typedef struct tgen {
  xp *x;
  int th;
  const wl_thread *thr;
  wl_ev ev[WL_MAX_TEV];
  int nev, nwrites;
  int64_t regs[WL_MAX_REGS];
  uint64_t taint[WL_MAX_REGS];
  uint64_t ctrl;
  int backs[4096]; /* times each backward branch was taken */
  /* registers and taints at each load, restored before the load's next
   * value is tried (the rest of the trace changes more than its dst) */
  int64_t sregs[WL_MAX_TEV + 1][WL_MAX_REGS];
  uint64_t staint[WL_MAX_TEV + 1][WL_MAX_REGS];
  snap *snaps;
  int nsnaps, snapcap;
  int last_bar; /* event index of a barrier with nothing after it */
  /* callback threads: replayed load choices */
  int ch[WL_MAX_TEV], nchoice[WL_MAX_TEV], chloc[WL_MAX_TEV], nch, depth;
  int reads_of[WL_MAX_LOCS];
  int cut;
} tgen;

static uint64_t op_taint(const tgen *g, const wl_operand *o) {
  return o->is_reg ? g->taint[o->reg] : 0;
}

static int64_t op_val(const tgen *g, const wl_operand *o) {
  return o->is_reg ? g->regs[o->reg] : o->imm;
}

static void emit_trace(tgen *g, int cut) {
  xp *x = g->x;
  tpool *p = &x->pool[g->th];
  wl_trace *tr;
  int i;
  if (x->err)
    return;
  if (p->traces.n >= WL_MAX_TRACES) {
    char where[300];
    x->err = wl__err(x->ctx, WL_ELIMIT,
                     "%s: thread %s has more than %d traces; lower --unroll "
                     "or simplify the test",
                     ev_place(x, g->th, g->nev ? &g->ev[g->nev - 1] : NULL,
                              where, sizeof where),
                     g->thr->name, WL_MAX_TRACES);
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
    g->x->err = wl__err(g->x->ctx, WL_ELIMIT,
                        "%s:%d:%d: thread %s executes more than %d memory "
                        "events in one trace; lower --unroll",
                        g->x->t->filename ? g->x->t->filename : g->x->t->name,
                        in->line, in->col, g->thr->name, WL_MAX_TEV);
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

/* Jumps to target; handles loops: a backward jump that returns to a loop
 * head in a state already seen there, with no write or barrier since, is
 * a stutter (a spin-loop iteration that changed nothing): the trace is
 * dropped, since removing the iteration's reads and fences gives an
 * execution with the same final state that is consistent whenever this
 * one is (all axioms are monotone under removing such events). */
static void jump(tgen *g, int pc, int target) {
  if (target <= pc) {
    int i;
    for (i = 0; i < g->nsnaps; i++) {
      const snap *s = &g->snaps[i];
      if (s->pc == target && s->nwrites == g->nwrites &&
          memcmp(s->regs, g->regs, (size_t)g->thr->nregs * sizeof g->regs[0]) ==
              0) {
        /* stutter: kept only as a prefix that writes values (the
         * domain fixpoint needs the writes of spinning threads) */
        emit_trace(g, 2);
        return;
      }
    }
    if (g->backs[pc] >= g->x->unroll) {
      emit_trace(g, 1);
      return;
    }
    g->backs[pc]++;
    run_from(g, target);
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
  if (stop_requested(x))
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
      g->ev[e].sem = SEM_ACQ_REL;
      g->ev[e].scope = SCOPE_CTA;
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
          /* atom.acq_rel: acquire read, release write; atom.acquire:
           * acquire read; atom.release: release write. */
          g->ev[r].sem = (in->sem == SEM_ACQUIRE || in->sem == SEM_ACQ_REL)
                             ? SEM_ACQUIRE
                             : SEM_RELAXED;
          if (!(in->aop == AOP_CAS && v != op_val(g, &in->a))) {
            g->ev[r].rmw = 1;
            if ((w = push_ev(g, in, EV_W)) < 0)
              return;
            g->ev[w].rmw = 1;
            g->ev[w].scope = in->scope;
            g->ev[w].sem = (in->sem == SEM_RELEASE || in->sem == SEM_ACQ_REL)
                               ? SEM_RELEASE
                               : SEM_RELAXED;
            g->ev[w].val = wl__aop_typed(x->t->loctype[in->loc], in->aop, v,
                                         op_val(g, &in->a), op_val(g, &in->b));
            g->ev[w].deps |=
                op_taint(g, &in->a) | op_taint(g, &in->b) | (1ull << r);
            g->ev[w].ddeps |= op_taint(g, &in->a) | op_taint(g, &in->b);
            if (in->aop == AOP_CAS)
              g->ev[w].cdeps |= 1ull << r;
            else if (in->aop != AOP_EXCH)
              g->ev[w].ddeps |= 1ull << r;
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
    emit_trace(g, 0);
out:
  if (pushed_snap)
    g->nsnaps--;
}

/* ---------------- callback threads ---------------- */

/* The explorer's side of the callback interface (program/thread.h): the
 * wl_tb a callback reports through sits in an xtb beside its trace
 * generator.  Arguments arrive checked by the wl_tb_* wrappers. */
typedef struct xtb {
  wl_tb tb;
  tgen *g;
} xtb;

static tgen *tb_gen(wl_tb *tb) { return WL__TB_OWNER(tb, xtb, tb)->g; }

/* A load-like choice for callback threads: replays the recorded choice
 * at this depth or starts a new one (stateless model checking). */
static int tb_choose(tgen *g, int loc, int64_t *value) {
  const vdom *d = &g->x->dom[loc];
  int k = g->nch;
  if (k >= WL_MAX_TEV)
    return WL_ELIMIT;
  if (k < g->depth) {
    if (g->nchoice[k] != d->n || g->chloc[k] != loc) {
      g->x->err = wl__err(g->x->ctx, WL_EINVAL,
                          "thread %s is not deterministic: a rerun with "
                          "the same loaded values loaded something else",
                          g->thr->name);
      return WL_EINVAL;
    }
  } else {
    g->ch[k] = 0;
    g->nchoice[k] = d->n;
    g->chloc[k] = loc;
    g->depth = k + 1;
  }
  *value = d->v[g->ch[k]];
  g->nch++;
  return 0;
}

static int tb_room(tgen *g, int nev) {
  if (g->x->err)
    return g->x->err;
  if (g->nev + nev > WL_MAX_TEV) {
    g->cut = 1;
    return WL_ELIMIT;
  }
  return 0;
}

static wl_ev *tb_push(tgen *g, int type, int loc, int line) {
  wl_ev *e = &g->ev[g->nev++];
  memset(e, 0, sizeof *e);
  e->type = (uint8_t)type;
  e->loc = (int16_t)loc;
  e->vloc = (int16_t)loc;
  e->line = line;
  e->insn = -1;
  g->last_bar = -1;
  return e;
}

/* The loop bound of callback threads: each location is read at most
 * unroll+1 times in one trace. */
static int tb_bound(tgen *g, int loc) {
  if (++g->reads_of[loc] > g->x->unroll + 1) {
    g->cut = 1;
    return WL_ELIMIT;
  }
  return 0;
}

static int tb_load(wl_tb *tb, int loc, int sem, int scope, int line,
                   int64_t *value) {
  tgen *g = tb_gen(tb);
  wl_ev *e;
  int64_t v;
  int r;
  if ((r = tb_bound(g, loc)) != 0 || (r = tb_room(g, 1)) != 0)
    return r;
  if ((r = tb_choose(g, loc, &v)) != 0)
    return r;
  e = tb_push(g, EV_R, loc, line);
  e->sem = (uint8_t)sem;
  e->scope = (uint8_t)scope;
  e->val = v;
  if (value != NULL)
    *value = v;
  return 0;
}

static int tb_store(wl_tb *tb, int loc, int64_t value, int sem, int scope,
                    int line) {
  tgen *g = tb_gen(tb);
  wl_ev *e;
  int r;
  if ((r = tb_room(g, 1)) != 0)
    return r;
  e = tb_push(g, EV_W, loc, line);
  e->sem = (uint8_t)sem;
  e->scope = (uint8_t)scope;
  e->val = value;
  g->nwrites++;
  return 0;
}

static int tb_atomic(wl_tb *tb, int loc, int op, int64_t a, int64_t b, int sem,
                     int scope, int line, int64_t *old) {
  tgen *g = tb_gen(tb);
  wl_ev *e;
  int64_t v;
  int r;
  if ((r = tb_bound(g, loc)) != 0 || (r = tb_room(g, 2)) != 0)
    return r;
  if ((r = tb_choose(g, loc, &v)) != 0)
    return r;
  e = tb_push(g, EV_R, loc, line);
  e->scope = (uint8_t)scope;
  e->val = v;
  e->sem = (sem == WL_SEM_ACQUIRE || sem == WL_SEM_ACQ_REL) ? SEM_ACQUIRE
                                                            : SEM_RELAXED;
  if (!(op == WL_OP_CAS && v != a)) {
    wl_ev *w;
    e->rmw = 1;
    w = tb_push(g, EV_W, loc, line);
    w->rmw = 1;
    w->scope = (uint8_t)scope;
    w->sem = (sem == WL_SEM_RELEASE || sem == WL_SEM_ACQ_REL) ? SEM_RELEASE
                                                              : SEM_RELAXED;
    w->val = wl__aop_typed(g->x->t->loctype[loc], op, v, a, b);
    g->nwrites++;
  }
  if (old != NULL)
    *old = v;
  return 0;
}

static int tb_fence(wl_tb *tb, int sem, int scope, int line) {
  tgen *g = tb_gen(tb);
  wl_ev *e;
  int r;
  if ((r = tb_room(g, 1)) != 0)
    return r;
  e = tb_push(g, EV_F, -1, line);
  e->sem = (uint8_t)sem;
  e->scope = (uint8_t)scope;
  return 0;
}

static int tb_barrier(wl_tb *tb, int kind, int64_t id, int64_t count,
                      int line) {
  tgen *g = tb_gen(tb);
  wl_ev *e;
  int r;
  if ((r = tb_room(g, 1)) != 0)
    return r;
  e = tb_push(g, EV_B, -1, line);
  e->sem = SEM_ACQ_REL;
  e->scope = SCOPE_CTA;
  e->bar_kind = (uint8_t)kind;
  e->bar_ns = BARNS_PTX;
  e->bar_id = id;
  e->has_count = count > 0;
  e->bar_count = count;
  g->nwrites++;
  g->last_bar = g->nev - 1;
  return 0;
}

static int tb_result(wl_tb *tb, const char *name, int type, int64_t value) {
  tgen *g = tb_gen(tb);
  int r, was;
  /* the callback's results are the thread's registers: the test grows
   * them while it is explored */
  r = wl__thread_result(g->x->ctx, (wl_thread *)g->thr, name, type, &was);
  if (r == -3)
    return wl__result_type_err(g->x->ctx, g->thr->name, name, was, type);
  if (r == -2)
    return g->x->err = wl__err(g->x->ctx, WL_ENOMEM, "out of memory");
  if (r < 0)
  {
    char where[300];
    return wl__err(g->x->ctx, WL_ELIMIT, "%s: thread %s: more than %d results",
                   ev_place(g->x, g->th, g->nev ? &g->ev[g->nev - 1] : NULL,
                            where, sizeof where),
                   g->thr->name, WL_MAX_REGS);
  }
  g->regs[r] = value;
  return 0;
}

static int tb_thread(const wl_tb *tb) {
  return WL__TB_OWNER_C(tb, xtb, tb)->g->th;
}

/* Not sticky: the callback may go on, and fails the exploration only by
 * returning the code. */
static int tb_fail(wl_tb *tb, int err, const char *msg) {
  wl__err(tb_gen(tb)->x->ctx, err, "%s", msg ? msg : wl_strerror(err));
  return err;
}

static const wl__tb_ops tb_ops = {
    .load = tb_load,
    .store = tb_store,
    .atomic = tb_atomic,
    .fence = tb_fence,
    .barrier = tb_barrier,
    .result = tb_result,
    .thread = tb_thread,
    .fail = tb_fail,
};

/* Dependencies of callback traces, found semantically: for a load L of
 * trace T, take the trace T' that differs from T only in L's value (and
 * agrees on later choices as far as possible); the first event where T'
 * differs in kind, location or semantics starts a control dependency
 * (every later event depends on L); an event that differs only in the
 * value it writes has a data dependency on L. */
static void callback_deps(xp *x, int th) {
  tpool *p = &x->pool[th];
  size_t k, m;
  for (k = 0; k < p->traces.n; k++) {
    wl_trace *tr = WL_VEC_PTR(&p->traces, wl_trace, k);
    wl_ev *ev = WL_VEC_PTR(&p->ev, wl_ev, tr->ev0);
    const int *ch = WL_VEC_PTR(&p->ch, int, tr->ch0);
    int ci = 0, i;
    for (i = 0; i < tr->nev; i++) {
      int c;
      if (ev[i].type != EV_R)
        continue;
      c = ci++;
      for (m = 0; m < p->traces.n; m++) {
        const wl_trace *o = WL_VEC_PTR(&p->traces, wl_trace, m);
        const int *och = WL_VEC_PTR(&p->ch, int, o->ch0);
        const wl_ev *oe;
        int j, jo, same = 1, oc;
        if (m == k || o->nch <= c || och[c] == ch[c])
          continue;
        for (j = 0; j < c && same; j++)
          same = och[j] == ch[j];
        if (!same)
          continue;
        /* later choices: compare events while the choices agree.  The
         * two traces are walked side by side; an RMW's read that writes
         * in one trace and not in the other (a cas whose comparison
         * came out otherwise) is the same event, and only its write
         * depends on L -- the events after it do not shift. */
        oe = WL_VEC_PTR(&p->ev, wl_ev, o->ev0);
        oc = c + 1;
        for (j = i + 1 + ev[i].rmw, jo = i + 1 + oe[i].rmw; j < tr->nev;
             j++, jo++) {
          if (jo >= o->nev || oe[jo].type != ev[j].type ||
              oe[jo].loc != ev[j].loc || oe[jo].sem != ev[j].sem ||
              oe[jo].scope != ev[j].scope) {
            int q;
            for (q = j; q < tr->nev; q++) {
              ev[q].deps |= 1ull << i;
              ev[q].cdeps |= 1ull << i;
            }
            break;
          }
          if ((ev[j].type == EV_W && oe[jo].val != ev[j].val) ||
              (ev[j].type == EV_B && oe[jo].bar_id != ev[j].bar_id)) {
            ev[j].deps |= 1ull << i;
            ev[j].ddeps |= 1ull << i;
          }
          if (ev[j].type == EV_R) {
            /* a later load: stop where the two traces choose differently */
            int cj = oc++;
            if (cj >= o->nch || cj >= tr->nch || och[cj] != ch[cj])
              break;
            if (ev[j].rmw != oe[jo].rmw) {
              /* whether this RMW writes depends on L */
              if (ev[j].rmw) {
                ev[j + 1].deps |= 1ull << i;
                ev[j + 1].cdeps |= 1ull << i;
              }
              j += ev[j].rmw;
              jo += oe[jo].rmw;
            }
          }
        }
      }
    }
  }
}

static void run_callback(tgen *g) {
  xp *x = g->x;
  const wl_thread *thr = g->thr;
  xtb tb;
  tb.tb.ops = &tb_ops;
  tb.tb.t = x->t;
  tb.g = g;
  g->depth = 0;
  for (;;) {
    int rc, d;
    if (stop_requested(x))
      return;
    g->nev = 0;
    g->nch = 0;
    g->nwrites = 0;
    g->cut = 0;
    g->last_bar = -1;
    memset(g->reads_of, 0, sizeof g->reads_of);
    memcpy(g->regs, thr->reginit, sizeof g->regs);
    x->ctx->errmsg[0] = '\0';
    rc = thr->fn(thr->fn_ud, &tb.tb);
    if (x->err)
      return;
    if (rc != 0 && !(rc == WL_ELIMIT && g->cut)) {
      if (x->ctx->errmsg[0] == '\0')
        wl__err(x->ctx, rc, "thread %s failed: %s", thr->name, wl_strerror(rc));
      x->err = rc;
      return;
    }
    if (g->nch < g->depth) {
      x->err = wl__err(x->ctx, WL_EINVAL,
                       "thread %s is not deterministic: a rerun with the "
                       "same loaded values stopped earlier",
                       thr->name);
      return;
    }
    emit_trace(g, g->cut ? 1 : 0);
    if (x->err)
      return;
    /* next choice vector: the deepest choice with an untried value */
    for (d = g->nch - 1; d >= 0 && g->ch[d] + 1 >= g->nchoice[d]; d--)
      ;
    if (d < 0)
      break;
    g->ch[d]++;
    g->depth = d + 1;
  }
  callback_deps(x, g->th);
}

static int gen_traces(xp *x) {
  int th;
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
    if (thr->fn != NULL)
      run_callback(g);
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
static int check_shared(xp *x) {
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

/* ---------------------------------------------------------------- */
/* 2. Candidate executions                                           */


static int incl(int scope, const wl_thread *a, const wl_thread *b) {
  switch (scope) {
  case SCOPE_CTA:
    return a->cta == b->cta && a->gpu == b->gpu;
  case SCOPE_GPU:
    return a->gpu == b->gpu;
  case SCOPE_SYS:
    return 1;
  default:
    return 0;
  }
}

static int is_mem(const wl_ev *e) { return e->type == EV_R || e->type == EV_W; }

/* strong: not .weak (PTX: relaxed, acquire, release, acq_rel, sc, and
 * fences, which always carry a scope). */
static int is_strong(const wl_ev *e) {
  if (e->type == EV_F)
    return 1;
  if (e->type == EV_B)
    return 0;
  return e->sem != SEM_WEAK;
}

/* Builds the static relations of a combination of traces. */
static int build_exe(xp *x, exe *E) {
  const wl_litmus *t = x->t;
  int th, i, j, n = 0, l, bth = -1;
  uint64_t used = 0;
  const wl_ev *bev = NULL; /* toobig: the event past the limit */
  char where[300];
  memset(E->initloc, -1, sizeof E->initloc);
  /* which locations are accessed */
  for (th = 0; th < t->nthreads; th++) {
    const wl_trace *tr = E->tr[th];
    const wl_ev *ev = WL_VEC_PTR(&x->pool[th].ev, wl_ev, tr->ev0);
    for (i = 0; i < tr->nev; i++)
      if (is_mem(&ev[i]))
        used |= 1ull << ev[i].loc;
  }
  E->nlocs = 0;
  for (l = 0; l < t->nlocs; l++) {
    if (!(used >> l & 1))
      continue;
    if (n >= WL_MAX_EVENTS)
      goto toobig;
    memset(&E->ev[n], 0, sizeof E->ev[n]);
    E->ev[n].type = EV_W;
    E->ev[n].loc = (int16_t)l;
    E->ev[n].vloc = (int16_t)l;
    E->ev[n].val = t->locinit[l];
    E->ev[n].sem = SEM_WEAK;
    E->thread[n] = -1;
    E->initloc[l] = n;
    E->locs[E->nlocs++] = l;
    n++;
  }
  E->ninit = (int16_t)n;
  E->cut = 0;
  for (th = 0; th < t->nthreads; th++) {
    const wl_trace *tr = E->tr[th];
    const wl_ev *ev = WL_VEC_PTR(&x->pool[th].ev, wl_ev, tr->ev0);
    if (tr->cut)
      E->cut = 1;
    if (n + tr->nev > WL_MAX_EVENTS) {
      bth = th;
      bev = &ev[n < WL_MAX_EVENTS ? WL_MAX_EVENTS - n : 0];
      goto toobig;
    }
    for (i = 0; i < tr->nev; i++) {
      E->ev[n + i] = ev[i];
      E->thread[n + i] = (int8_t)th;
    }
    n += tr->nev;
  }
  E->n = n;
  rel_zero(E->po, n);
  rel_zero(E->poloc, n);
  rel_zero(E->rmw, n);
  rel_zero(E->dep, n);
  rel_zero(E->ms, n);
  E->setR = E->setW = E->setF = E->setB = E->setSC = E->strong = 0;
  E->nreads = 0;
  E->nscf = 0;
  {
    int base = E->ninit;
    for (th = 0; th < t->nthreads; th++) {
      int m = E->tr[th]->nev;
      for (i = 0; i < m; i++) {
        int a = base + i;
        uint64_t d = E->ev[a].deps;
        for (j = i + 1; j < m; j++)
          E->po[a] |= 1ull << (base + j);
        while (d) {
          int k = __builtin_ctzll(d);
          d &= d - 1;
          E->dep[base + k] |= 1ull << a;
        }
        if (E->ev[a].type == EV_R && E->ev[a].rmw)
          E->rmw[a] |= 1ull << (a + 1);
      }
      base += m;
    }
  }
  for (i = 0; i < n; i++) {
    const wl_ev *e = &E->ev[i];
    uint64_t b = 1ull << i;
    if (e->type == EV_R) {
      E->setR |= b;
      E->reads[E->nreads++] = i;
    } else if (e->type == EV_W) {
      E->setW |= b;
    } else if (e->type == EV_F) {
      E->setF |= b;
      if (e->sem == SEM_SC) {
        if (E->nscf == WL_MAX_SCF) {
          return x->err = wl__err(x->ctx, WL_ELIMIT,
                                  "%s: more than %d fence.sc in one "
                                  "execution",
                                  ev_place(x, E->thread[i], e, where,
                                           sizeof where),
                                  WL_MAX_SCF);
        }
        E->setSC |= b;
        E->scf[E->nscf++] = i;
      }
    } else {
      E->setB |= b;
    }
    if (E->thread[i] >= 0 && is_strong(e))
      E->strong |= b;
  }
  /* po-loc, morally strong */
  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++) {
      const wl_ev *a = &E->ev[i], *b = &E->ev[j];
      int ms1, ms2;
      if (i == j)
        continue;
      if ((E->po[i] >> j & 1) && is_mem(a) && is_mem(b) && a->loc == b->loc)
        E->poloc[i] |= 1ull << j;
      if (E->thread[i] < 0 || E->thread[j] < 0)
        continue; /* initial writes are weak and in no program order */
      ms1 = (E->thread[i] == E->thread[j]) ||
            ((E->strong >> i & 1) && (E->strong >> j & 1) &&
             incl(a->scope, &t->threads[E->thread[i]],
                  &t->threads[E->thread[j]]) &&
             incl(b->scope, &t->threads[E->thread[j]],
                  &t->threads[E->thread[i]]));
      ms2 = (is_mem(a) && is_mem(b)) ? a->loc == b->loc : 1;
      if (ms1 && ms2 && a->type != EV_B && b->type != EV_B)
        E->ms[i] |= 1ull << j;
    }
  }
  /* release pattern: [W&REL]; po-loc?; [strong-write]
   *                | [F&ACQ_REL]; po; [strong-write]
   * acquire pattern: [strong-read]; po-loc?; [R&ACQ]
   *                | [strong-read]; po; [F&ACQ_REL]
   * (fence.sc counts as a fence.acq_rel: FenceSC extends FenceAcqRel.) */
  rel_zero(E->rp, n);
  rel_zero(E->ap, n);
  {
    uint64_t sw = E->setW & E->strong, sr = E->setR & E->strong;
    for (i = 0; i < n; i++) {
      const wl_ev *e = &E->ev[i];
      if (E->thread[i] < 0)
        continue;
      if (e->type == EV_W && e->sem == SEM_RELEASE)
        E->rp[i] |= ((E->poloc[i] & sw) | (1ull << i));
      if (e->type == EV_F)
        E->rp[i] |= E->po[i] & sw;
      if (e->type == EV_R && (sr >> i & 1)) {
        uint64_t acq = 0;
        int k;
        for (k = 0; k < n; k++)
          if (E->ev[k].type == EV_R && E->ev[k].sem == SEM_ACQUIRE)
            acq |= 1ull << k;
        E->ap[i] |=
            (E->poloc[i] & acq) | (e->sem == SEM_ACQUIRE ? 1ull << i : 0);
        E->ap[i] |= E->po[i] & E->setF;
      }
    }
  }
  return 0;
toobig:
  return x->err = wl__err(x->ctx, WL_ELIMIT,
                          "%s: an execution has more than %d events (the "
                          "explorer's limit); lower --unroll or split the "
                          "test",
                          ev_place(x, bth, bev, where, sizeof where),
                          WL_MAX_EVENTS);
}

/* ---------------- barriers ---------------- */

typedef struct bsched {
  int nb[WL_MAX_THREADS];
  int bev[WL_MAX_THREADS][WL_MAX_TEV]; /* events, per thread */
  int pos[WL_MAX_THREADS];
  int waiting[WL_MAX_THREADS];
  int16_t phase[WL_MAX_EVENTS];
  int nphase;
  /* open phases: key index -> arrivals */
  int nkeys;
  int keyev[WL_MAX_EVENTS]; /* a representative event of each key */
  int keycta[WL_MAX_EVENTS];
  int open[WL_MAX_EVENTS][WL_MAX_EVENTS];
  int nopen[WL_MAX_EVENTS];
  int evkey[WL_MAX_EVENTS];
  int need[WL_MAX_EVENTS];
  /* outcomes */
  int16_t (*out)[WL_MAX_EVENTS];
  int nout, capout;
  long steps;
} bsched;

static int same_key(const exe *E, const wl_litmus *t, int a, int b) {
  const wl_ev *x = &E->ev[a], *y = &E->ev[b];
  const wl_thread *ta = &t->threads[E->thread[a]],
                  *tb = &t->threads[E->thread[b]];
  return x->bar_ns == y->bar_ns && x->bar_id == y->bar_id &&
         ta->cta == tb->cta && ta->gpu == tb->gpu;
}

/* A PTX barrier without a thread count (bar.sync 0, __syncthreads())
 * waits for every thread of the CTA: if some thread of the CTA can end
 * without arriving, the program is wrong (a divergent barrier; on a GPU
 * it hangs or is undefined), and the exploration fails saying where. */
static int barrier_divergence(xp *x, const bsched *s, const exe *E, int th,
                              int e) {
  const wl_litmus *t = x->t;
  const wl_thread *w = &t->threads[th];
  char others[160];
  size_t n = 0;
  int o;
  others[0] = '\0';
  for (o = 0; o < t->nthreads; o++) {
    const wl_thread *ot = &t->threads[o];
    int j, arrived = 0;
    if (o == th || ot->cta != w->cta || ot->gpu != w->gpu)
      continue;
    for (j = 0; j < s->pos[o]; j++)
      if (E->ev[s->bev[o][j]].bar_id == E->ev[e].bar_id &&
          s->phase[s->bev[o][j]] < 0)
        arrived = 1;
    if (!arrived && n + 8 < sizeof others)
      n += (size_t)snprintf(others + n, sizeof others - n, "%s%s",
                            n ? ", " : "", ot->name);
  }
  return x->err = wl__err(
             x->ctx, WL_EINVAL,
             "%s:%d: thread %s (CTA %d): barrier divergence: it waits at "
             "barrier %lld (bar.sync / __syncthreads) for every thread of "
             "its CTA, but %s can finish without arriving there",
             t->filename ? t->filename : t->name, E->ev[e].line, w->name,
             w->cta, (long long)E->ev[e].bar_id, n ? others : "another thread");
}

/* The place of the first barrier of the schedule, for its limits. */
static const char *bs_place(const xp *x, const bsched *s, const exe *E,
                            char *buf, size_t n) {
  int th;
  for (th = 0; th < x->t->nthreads; th++)
    if (s->nb[th] > 0)
      return ev_place(x, th, &E->ev[s->bev[th][0]], buf, n);
  return ev_place(x, -1, NULL, buf, n);
}

static int bs_record(xp *x, bsched *s, const exe *E) {
  int th, i, k;
  /* a thread blocked before the end of its program hangs: the execution
   * does not terminate and has no final state */
  for (th = 0; th < x->t->nthreads; th++) {
    if (s->waiting[th]) {
      int e = s->bev[th][s->pos[th] - 1];
      if (E->ev[e].bar_ns == BARNS_PTX && !E->ev[e].has_count && !E->cut)
        return barrier_divergence(x, s, E, th, e);
      if (!E->ev[e].bar_tail)
        return 0;
    }
  }
  for (k = 0; k < s->nout; k++)
    if (memcmp(s->out[k], s->phase, (size_t)E->n * sizeof s->phase[0]) == 0)
      return 0;
  if (s->nout == s->capout) {
    int cap = s->capout ? s->capout * 2 : 4;
    void *p;
    if (cap > 4096) {
      char where[300];
      return x->err = wl__err(x->ctx, WL_ELIMIT,
                              "%s: too many barrier schedules",
                              bs_place(x, s, E, where, sizeof where));
    }
    p = wl__realloc(x->ctx, s->out, (size_t)s->capout * sizeof *s->out,
                    (size_t)cap * sizeof *s->out);
    if (p == NULL)
      return x->err = wl__err(x->ctx, WL_ENOMEM, "out of memory");
    s->out = p;
    s->capout = cap;
  }
  memcpy(s->out[s->nout], s->phase, sizeof s->out[0]);
  (void)i;
  s->nout++;
  return 0;
}

/* Explores every order in which threads arrive at barriers.  A phase of
 * a barrier completes when its expected number of arrivals is reached;
 * bar.sync waits for its phase, bar.arrive does not. */
static int bs_dfs(xp *x, bsched *s, const exe *E) {
  int th, moved = 0;
  if (++s->steps > 2000000) {
    char where[300];
    return x->err = wl__err(x->ctx, WL_ELIMIT,
                            "%s: too many barrier interleavings",
                            bs_place(x, s, E, where, sizeof where));
  }
  for (th = 0; th < x->t->nthreads && !x->err; th++) {
    int e, key, k, done = 0;
    if (s->waiting[th] || s->pos[th] >= s->nb[th])
      continue;
    moved = 1;
    e = s->bev[th][s->pos[th]];
    key = s->evkey[e];
    s->pos[th]++;
    s->open[key][s->nopen[key]++] = e;
    if (E->ev[e].bar_kind == BAR_SYNC)
      s->waiting[th] = 1;
    if (s->nopen[key] >= s->need[key] ||
        (E->ev[e].has_count && s->nopen[key] >= E->ev[e].bar_count)) {
      /* the phase completes */
      int saved[WL_MAX_EVENTS], ns = s->nopen[key];
      int16_t id = (int16_t)s->nphase++;
      memcpy(saved, s->open[key], (size_t)ns * sizeof saved[0]);
      for (k = 0; k < ns; k++) {
        s->phase[saved[k]] = id;
        s->waiting[E->thread[saved[k]]] = 0;
      }
      s->nopen[key] = 0;
      done = 1;
      bs_dfs(x, s, E);
      s->nopen[key] = ns;
      memcpy(s->open[key], saved, (size_t)ns * sizeof saved[0]);
      for (k = 0; k < ns; k++) {
        s->phase[saved[k]] = -1;
        if (E->ev[saved[k]].bar_kind == BAR_SYNC)
          s->waiting[E->thread[saved[k]]] = 1;
      }
      s->nphase--;
    }
    if (!done)
      bs_dfs(x, s, E);
    s->nopen[key]--;
    s->waiting[th] = 0;
    s->pos[th]--;
  }
  if (!moved)
    return bs_record(x, s, E);
  return x->err;
}

/* Fills s->out with the distinct barrier outcomes (phase of each event,
 * -1 for none); returns the count (0: every schedule hangs). */
static int barrier_outcomes(xp *x, bsched *s, const exe *E) {
  const wl_litmus *t = x->t;
  int i, k, th;
  s->nout = 0;
  s->nkeys = 0;
  s->nphase = 0;
  s->steps = 0;
  memset(s->nb, 0, sizeof s->nb);
  memset(s->pos, 0, sizeof s->pos);
  memset(s->waiting, 0, sizeof s->waiting);
  for (i = 0; i < E->n; i++) {
    s->phase[i] = -1;
    if (E->ev[i].type != EV_B)
      continue;
    th = E->thread[i];
    s->bev[th][s->nb[th]++] = i;
    for (k = 0; k < s->nkeys; k++)
      if (same_key(E, t, s->keyev[k], i))
        break;
    if (k == s->nkeys) {
      s->keyev[k] = i;
      s->nopen[k] = 0;
      s->nkeys++;
    }
    s->evkey[i] = k;
  }
  if (s->nkeys == 0) {
    if (s->capout == 0) {
      s->out = wl__alloc(x->ctx, sizeof *s->out);
      if (s->out == NULL)
        return x->err = wl__err(x->ctx, WL_ENOMEM, "out of memory");
      s->capout = 1;
    }
    memcpy(s->out[0], s->phase, sizeof s->out[0]);
    s->nout = 1;
    return 0;
  }
  /* expected arrivals per phase: the thread count when given; otherwise
   * every thread of the CTA (PTX bar.sync), or, in Dat3M's dialect,
   * every thread of the CTA that uses this barrier in the execution */
  for (k = 0; k < s->nkeys; k++) {
    int e = s->keyev[k], cnt = 0;
    const wl_thread *te = &t->threads[E->thread[e]];
    for (th = 0; th < t->nthreads; th++) {
      const wl_thread *tt = &t->threads[th];
      int uses = 0, j;
      if (tt->cta != te->cta || tt->gpu != te->gpu)
        continue;
      if (E->ev[e].bar_ns == BARNS_PTX) {
        cnt++;
        continue;
      }
      for (j = 0; j < s->nb[th]; j++)
        if (s->evkey[s->bev[th][j]] == k)
          uses = 1;
      cnt += uses;
    }
    s->need[k] = cnt;
    if (E->ev[e].has_count)
      s->need[k] =
          E->ev[e].bar_count > 0
              ? (int)(E->ev[e].bar_count < 1000 ? E->ev[e].bar_count : 1000)
              : 1;
  }
  bs_dfs(x, s, E);
  return x->err;
}

/* ---------------- results ---------------- */

static uint64_t hash_vals(const int64_t *v, int n) {
  uint64_t h = 1469598103934665603ull;
  int i;
  for (i = 0; i < n; i++) {
    h ^= (uint64_t)v[i];
    h *= 1099511628211ull;
    h ^= h >> 29;
  }
  return h;
}

static int res_grow_hash(xp *x, wl_result *r) {
  size_t cap = r->hcap ? r->hcap * 2 : 64, i;
  size_t *h = wl__calloc(x->ctx, cap * sizeof *h);
  if (h == NULL)
    return -1;
  for (i = 0; i < r->nstates; i++) {
    size_t k = hash_vals(r->states[i].vals, r->lay.nvals) & (cap - 1);
    while (h[k])
      k = (k + 1) & (cap - 1);
    h[k] = i + 1;
  }
  wl__free(x->ctx, r->htab, r->hcap * sizeof *r->htab);
  r->htab = h;
  r->hcap = cap;
  return 0;
}

static int record_state(xp *x, exe *E) {
  wl_result *r = x->res;
  const wl_litmus *t = x->t;
  int64_t vals[WL_MAX_THREADS * WL_MAX_REGS + WL_MAX_LOCS];
  int64_t *regp[WL_MAX_THREADS];
  int th, i, l, sat;
  size_t k;
  wl_state *st;
  for (th = 0; th < t->nthreads; th++) {
    int nr = E->tr[th]->nregs;
    regp[th] = vals + r->lay.regoff[th];
    if (nr > t->threads[th].nregs)
      nr = t->threads[th].nregs;
    if (nr > 0) /* the pool may be empty: no memcpy from NULL */
      memcpy(vals + r->lay.regoff[th],
             &WL_VEC_AT(&x->pool[th].regs, int64_t, E->tr[th]->reg0),
             (size_t)nr * sizeof vals[0]);
    for (i = nr; i < t->threads[th].nregs; i++)
      vals[r->lay.regoff[th] + i] = t->threads[th].reginit[i];
  }
  for (l = 0; l < t->nlocs; l++) {
    int64_t v = t->locinit[l];
    if (E->initloc[l] >= 0 && E->nwl[l] > 0)
      v = E->ev[E->wl[l][E->nwl[l] - 1]].val;
    vals[r->lay.regoff[t->nthreads] + l] = v;
  }
  sat = t->has_cond ? wl__cond_eval(t, t->cond_root, regp,
                                    vals + r->lay.regoff[t->nthreads])
                    : 1;
  if (sat)
    r->pos++;
  else
    r->neg++;
  if (r->hcap == 0 || (r->nstates + 1) * 2 > r->hcap)
    if (res_grow_hash(x, r) != 0)
      return x->err = wl__err(x->ctx, WL_ENOMEM, "out of memory");
  k = hash_vals(vals, r->lay.nvals) & (r->hcap - 1);
  while (r->htab[k]) {
    st = &r->states[r->htab[k] - 1];
    if (memcmp(st->vals, vals, (size_t)r->lay.nvals * sizeof vals[0]) == 0) {
      st->count++;
      return 0;
    }
    k = (k + 1) & (r->hcap - 1);
  }
  if (r->nstates == r->cap) {
    size_t cap = r->cap ? r->cap * 2 : 16;
    wl_state *p =
        wl__realloc(x->ctx, r->states, r->cap * sizeof *p, cap * sizeof *p);
    if (p == NULL)
      return x->err = wl__err(x->ctx, WL_ENOMEM, "out of memory");
    r->states = p;
    r->cap = cap;
  }
  st = &r->states[r->nstates];
  memset(st, 0, sizeof *st);
  st->vals = wl__alloc(x->ctx, (size_t)r->lay.nvals * sizeof vals[0]);
  st->wit = wl__alloc(x->ctx, (size_t)E->n * sizeof *st->wit);
  if (st->vals == NULL || st->wit == NULL) {
    wl__free(x->ctx, st->vals, (size_t)r->lay.nvals * sizeof vals[0]);
    wl__free(x->ctx, st->wit, (size_t)E->n * sizeof *st->wit);
    return x->err = wl__err(x->ctx, WL_ENOMEM, "out of memory");
  }
  memcpy(st->vals, vals, (size_t)r->lay.nvals * sizeof vals[0]);
  st->sat = sat;
  st->count = 1;
  st->nwit = E->n;
  for (i = 0; i < E->n; i++) {
    wl_wit_ev *w = &st->wit[i];
    const wl_ev *e = &E->ev[i];
    w->thread = E->thread[i];
    w->type = e->type;
    w->sem = e->sem;
    w->scope = e->scope;
    w->rmw = e->rmw;
    w->bar_kind = e->bar_kind;
    w->loc = e->loc;
    w->val = e->type == EV_B ? e->bar_id : e->val;
    w->line = e->line;
    w->rf = (int16_t)(e->type == EV_R ? E->rf[i] : -1);
    w->co = -1;
    w->sc = -1;
    w->phase = E->phase[i];
  }
  for (l = 0; l < t->nlocs; l++)
    for (i = 0; i < E->nwl[l]; i++)
      st->wit[E->wl[l][i]].co = (int16_t)i;
  for (i = 0; i < E->nscf; i++)
    st->wit[E->scf[E->scorder[i]]].sc = (int16_t)i;
  r->htab[k] = r->nstates + 1; /* k: the free slot the probe ended on */
  r->nstates++;
  return 0;
}

/* ---------------- axioms ---------------- */

/* Checks the co-dependent axioms for the current total coherence order
 * (E->wl).  PTX coherence is partial: only pairs that are morally strong,
 * ordered by causality, or from the initial write must be ordered, so the
 * axioms are evaluated on cop = (co & needco)+ as in ptx-asplos19.cat;
 * the final value of a location is its co-last write. */
static int check_co(xp *x, exe *E) {
  int n = E->n, i;
  rel cop, fr, tmp, inv;
  const uint64_t *co = E->cok;
  (void)x;
  for (i = 0; i < n; i++) {
    uint64_t need = E->ms[i] | E->cause[i];
    if (i < E->ninit)
      need = ~0ull;
    cop[i] = co[i] & need;
  }
  rel_closure(cop, n);
  /* fr = (rf^-1 ; cop) \ id */
  rel_inverse(inv, E->rfr, n);
  rel_seq(fr, inv, cop, n);
  for (i = 0; i < n; i++)
    fr[i] &= ~(1ull << i);
  /* Atomicity: empty ((ms & fr) ; (ms & cop)) & rmw */
  for (i = 0; i < n; i++) {
    uint64_t r = E->rmw[i], mid;
    if (!r)
      continue;
    mid = fr[i] & E->ms[i];
    while (mid) {
      int k = __builtin_ctzll(mid);
      mid &= mid - 1;
      if (cop[k] & E->ms[k] & r)
        return 0;
    }
  }
  /* SC-per-Location: acyclic ((ms & (rf | cop | fr)) | po-loc) */
  for (i = 0; i < n; i++)
    tmp[i] = (E->ms[i] & (E->rfr[i] | cop[i] | fr[i])) | E->poloc[i];
  if (!rel_acyclic(tmp, n))
    return 0;
  /* Causality: irreflexive ((rf | fr) ; cause) */
  for (i = 0; i < n; i++)
    tmp[i] = E->rfr[i] | fr[i];
  rel_seq(inv, tmp, E->cause, n);
  if (!rel_irreflexive(inv, n))
    return 0;
  return 1;
}

static int consistent_found(xp *x, exe *E) {
  if (E->cut) {
    x->res->bound_hit = 1;
    return 0;
  }
  return record_state(x, E);
}

int wl__explore_found(xp *x, exe *E) { return consistent_found(x, E); }

int wl__explore_stop(xp *x) { return stop_requested(x); }

/* Enumerates total coherence orders, location by location, that extend
 * the required pairs (cause between writes, program order). */
static int co_dfs(xp *x, exe *E, int li, uint64_t left, rel req) {
  int loc;
  if (x->err || stop_requested(x))
    return x->err;
  if (li == E->nlocs) {
    if (check_co(x, E))
      return consistent_found(x, E);
    return 0;
  }
  loc = E->locs[li];
  if (left == 0) {
    uint64_t next = 0;
    int i;
    if (li + 1 < E->nlocs) {
      int nl = E->locs[li + 1];
      for (i = E->ninit; i < E->n; i++)
        if (E->ev[i].type == EV_W && E->ev[i].loc == nl)
          next |= 1ull << i;
      E->nwl[nl] = 1;
      E->wl[nl][0] = E->initloc[nl];
    }
    return co_dfs(x, E, li + 1, next, req);
  }
  {
    uint64_t cand = left;
    while (cand) {
      int w = __builtin_ctzll(cand);
      int i, ok = 1;
      cand &= cand - 1;
      /* w can come next only if no remaining write must precede it */
      for (i = 0; i < E->n && ok; i++)
        if ((left >> i & 1) && i != w && (req[i] >> w & 1))
          ok = 0;
      if (!ok)
        continue;
      /* Placing w makes it co-before every write still unplaced.  The
       * axioms are monotone in co, so a violation with the pairs known
       * so far holds in every completion: prune. */
      E->wl[loc][E->nwl[loc]++] = w;
      E->cok[w] = left & ~(1ull << w);
      if (check_co(x, E))
        co_dfs(x, E, li, left & ~(1ull << w), req);
      E->cok[w] = 0;
      E->nwl[loc]--;
      if (x->err)
        return x->err;
    }
  }
  return 0;
}

static int after_sc_order(xp *x, exe *E) {
  int n = E->n, i;
  rel X, S = {0}, tmp, cb; /* S: gcc -O1 warns maybe-uninitialized */
  /* cause-base = po?; ((sync | sync_fence | sync_barrier); po?)+ */
  for (i = 0; i < n; i++)
    S[i] = E->sync[i] | E->sf[i] | E->sb[i];
  rel_seq(tmp, S, E->po, n);
  for (i = 0; i < n; i++)
    X[i] = S[i] | tmp[i];
  rel_closure(X, n);
  rel_seq(tmp, E->po, X, n);
  for (i = 0; i < n; i++)
    cb[i] = X[i] | tmp[i];
  /* cause = cause-base | observation; (cause-base | po-loc) */
  for (i = 0; i < n; i++)
    tmp[i] = cb[i] | E->poloc[i];
  rel_seq(E->cause, E->obs, tmp, n);
  for (i = 0; i < n; i++)
    E->cause[i] |= cb[i];
  /* Fence-SC, as the PTX ISA words it (ptx-v6.0-isa.cat): irreflexive
   * (sync_fence ; cause).  Only morally strong fence.sc pairs are
   * ordered; ptx-v6.0.cat's literal "empty ([F&SC]; cause; [F&SC]) \
   * sync_fence" would also forbid causality between fence.sc that are
   * not morally strong (spec/README.md, "Where ptx-v6.0.cat leaves a
   * choice"). */
  for (i = 0; i < n; i++) {
    uint64_t after = E->sf[i];
    while (after) {
      int j = __builtin_ctzll(after);
      after &= after - 1;
      if (E->cause[j] >> i & 1)
        return 0;
    }
  }
  /* Causality, the rf half: irreflexive (rf ; cause) */
  rel_seq(tmp, E->rfr, E->cause, n);
  if (!rel_irreflexive(tmp, n))
    return 0;
  /* Coherence: cause-ordered writes to one location are co-ordered;
   * program-ordered writes too (SC-per-Location).  These become the
   * required pairs of the coherence enumeration. */
  {
    rel req;
    uint64_t first = 0;
    int loc0;
    for (i = 0; i < n; i++) {
      uint64_t same = 0;
      int j;
      if (E->ev[i].type != EV_W) {
        req[i] = 0;
        continue;
      }
      for (j = 0; j < n; j++)
        if (E->ev[j].type == EV_W && E->ev[j].loc == E->ev[i].loc)
          same |= 1ull << j;
      req[i] = (E->cause[i] | E->poloc[i]) & same;
    }
    if (!rel_acyclic(req, n))
      return 0;
    if (E->nlocs == 0)
      return check_co(x, E) ? consistent_found(x, E) : 0;
    /* known coherence pairs: the initial write precedes every write */
    rel_zero(E->cok, n);
    for (i = E->ninit; i < n; i++)
      if (E->ev[i].type == EV_W)
        E->cok[E->initloc[E->ev[i].loc]] |= 1ull << i;
    if (!check_co(x, E))
      return 0;
    loc0 = E->locs[0];
    for (i = E->ninit; i < n; i++)
      if (E->ev[i].type == EV_W && E->ev[i].loc == loc0)
        first |= 1ull << i;
    E->nwl[loc0] = 1;
    E->wl[loc0][0] = E->initloc[loc0];
    return co_dfs(x, E, 0, first, req);
  }
}

/* Enumerates fence-SC orders: sync_fence = order & morally-strong.  Two
 * orders inducing the same sync_fence give the same executions, so only
 * distinct ones are explored. */
static int sc_dfs(xp *x, exe *E, int k, uint64_t used, rel *seen, int *nseen) {
  int i, j;
  if (x->err)
    return x->err;
  if (k == E->nscf) {
    int n = E->n, s;
    rel_zero(E->sf, n);
    for (i = 0; i < E->nscf; i++)
      for (j = i + 1; j < E->nscf; j++) {
        int a = E->scf[E->scorder[i]], b = E->scf[E->scorder[j]];
        if (E->ms[a] >> b & 1)
          E->sf[a] |= 1ull << b;
      }
    for (s = 0; s < *nseen; s++) {
      int same = 1;
      for (i = 0; i < E->nscf && same; i++)
        if (seen[s][i] != E->sf[E->scf[i]])
          same = 0;
      if (same)
        return 0;
    }
    if (*nseen < 40320) {
      for (i = 0; i < E->nscf; i++)
        seen[*nseen][i] = E->sf[E->scf[i]];
      (*nseen)++;
    }
    return after_sc_order(x, E);
  }
  for (i = 0; i < E->nscf; i++) {
    if (used >> i & 1)
      continue;
    E->scorder[k] = i;
    sc_dfs(x, E, k + 1, used | (1ull << i), seen, nseen);
  }
  return x->err;
}

static int after_rf(xp *x, exe *E) {
  int n = E->n, i, changed;
  rel tmp, tmp2, u = {0}; /* u: gcc -O1 warns maybe-uninitialized */
  /* No-Thin-Air: acyclic (rf | dep), with rmw as in ptx-asplos19.cat */
  for (i = 0; i < n; i++)
    u[i] = E->rfr[i] | E->dep[i] | E->rmw[i];
  if (!rel_acyclic(u, n))
    return 0;
  /* SC-per-Location, the part fixed by rf: acyclic((ms & rf) | po-loc) */
  for (i = 0; i < n; i++)
    u[i] = (E->ms[i] & E->rfr[i]) | E->poloc[i];
  if (!rel_acyclic(u, n))
    return 0;
  /* observation = (ms & rf) | (observation; rmw; observation) */
  for (i = 0; i < n; i++)
    E->obs[i] = E->ms[i] & E->rfr[i];
  do {
    changed = 0;
    rel_seq(tmp, E->obs, E->rmw, n);
    rel_seq(tmp2, tmp, E->obs, n);
    for (i = 0; i < n; i++)
      if (tmp2[i] & ~E->obs[i]) {
        E->obs[i] |= tmp2[i];
        changed = 1;
      }
  } while (changed);
  /* sync = ms & (release-pattern; observation; acquire-pattern) */
  rel_seq(tmp, E->rp, E->obs, n);
  rel_seq(tmp2, tmp, E->ap, n);
  for (i = 0; i < n; i++)
    E->sync[i] = tmp2[i] & E->ms[i];
  if (E->nscf <= 1) {
    rel_zero(E->sf, n);
    if (E->nscf == 1)
      E->scorder[0] = 0;
    return after_sc_order(x, E);
  }
  {
    /* at most 8! orders; the seen-set keeps one row per fence */
    rel *seen;
    int nseen = 0;
    size_t sz = 40320 * sizeof *seen;
    seen = wl__alloc(x->ctx, sz);
    if (seen == NULL)
      return x->err = wl__err(x->ctx, WL_ENOMEM, "out of memory");
    sc_dfs(x, E, 0, 0, seen, &nseen);
    wl__free(x->ctx, seen, sz);
    return x->err;
  }
}

/* Pruning while reads-from is chosen: checks that hold for every
 * completion of a partial choice. */
static int rf_partial_ok(const exe *E, int r, int w) {
  int n = E->n, k;
  rel u = {0}; /* gcc -O1 cannot see the loops fill it */
  /* Atomicity: two RMWs morally strong with each other and with their
   * source cannot both read from one write: whichever writes first lies
   * between the other's read and write. */
  if (E->ev[r].rmw) {
    int w1 = r + 1;
    uint64_t others = E->rfr[w] & ~(1ull << r);
    while (others) {
      int r2 = __builtin_ctzll(others), w2 = r2 + 1;
      others &= others - 1;
      if (!E->ev[r2].rmw)
        continue;
      if ((w < E->ninit || ((E->ms[w] >> w1 & 1) && (E->ms[w] >> w2 & 1))) &&
          (E->ms[r2] >> w1 & 1) && (E->ms[r] >> w2 & 1) &&
          (E->ms[w1] >> w2 & 1))
        return 0;
    }
  }
  /* No-Thin-Air and the rf part of SC-per-Location on the partial rf */
  for (k = 0; k < n; k++)
    u[k] = E->rfr[k] | E->dep[k] | E->rmw[k];
  if (!rel_acyclic(u, n))
    return 0;
  for (k = 0; k < n; k++)
    u[k] = (E->ms[k] & E->rfr[k]) | E->poloc[k];
  return rel_acyclic(u, n);
}

static int rf_dfs(xp *x, exe *E, int k) {
  int r, n = E->n, w;
  if (x->err || stop_requested(x))
    return x->err;
  if (k == E->nreads)
    return after_rf(x, E);
  r = E->reads[k];
  for (w = 0; w < n; w++) {
    const wl_ev *ew = &E->ev[w];
    if (ew->type != EV_W || ew->loc != E->ev[r].loc || ew->val != E->ev[r].val)
      continue;
    if (E->po[r] >> w & 1)
      continue; /* a read never reads a po-later write (SC-per-Location) */
    if (w == r + 1 && E->ev[r].rmw)
      continue; /* nor its own write */
    E->rf[r] = w;
    E->rfr[w] |= 1ull << r;
    if (rf_partial_ok(E, r, w))
      rf_dfs(x, E, k + 1);
    E->rfr[w] &= ~(1ull << r);
    if (x->err)
      return x->err;
  }
  return 0;
}

static int explore_combo(xp *x, exe *E, bsched *bs) {
  int o, i, n;
  if (build_exe(x, E))
    return x->err;
  n = E->n;
  if (barrier_outcomes(x, bs, E))
    return x->err;
  for (o = 0; o < bs->nout && !x->err; o++) {
    memcpy(E->phase, bs->out[o], sizeof E->phase);
    rel_zero(E->sb, n);
    /* sync_barrier: an arrival synchronises with the waits of the same
     * phase of the same barrier in the same CTA (syncbar & scta) */
    for (i = 0; i < n; i++) {
      int j;
      if (E->ev[i].type != EV_B || E->phase[i] < 0)
        continue;
      for (j = 0; j < n; j++)
        if (j != i && E->ev[j].type == EV_B && E->phase[j] == E->phase[i] &&
            E->thread[j] != E->thread[i] && E->ev[j].bar_kind == BAR_SYNC)
          E->sb[i] |= 1ull << j;
    }
    rel_zero(E->rfr, n);
    if (x->cand != NULL) {
      int r = wl__candx_run(x->cand, x, E);
      if (r != 0 && x->err == 0)
        x->err = r;
    } else {
      rf_dfs(x, E, 0);
    }
  }
  return x->err;
}

/* Enumerates combinations of traces.  Before the candidate executions are
 * built, a combination must be value-consistent: every read must see a
 * value written to its location by the initial state or by a write of
 * the combination that is not program-order-after it. */
typedef struct wrec {
  int16_t loc;
  int8_t th;
  int idx; /* event index within the trace */
  int64_t val;
} wrec;

static int read_matched(xp *x, int th, const wl_trace *tr, int i,
                        const wl_trace *const *chosen, int upto,
                        int allow_future) {
  const wl_ev *ev = WL_VEC_PTR(&x->pool[th].ev, wl_ev, tr->ev0);
  const wl_ev *r = &ev[i];
  int o, j;
  if (x->t->locinit[r->loc] == r->val)
    return 1;
  for (j = 0; j < i; j++)
    if (ev[j].type == EV_W && ev[j].loc == r->loc && ev[j].val == r->val)
      return 1;
  for (o = 0; o < upto; o++) {
    const wl_trace *ot = chosen[o];
    const wl_ev *oe;
    if (o == th || ot == NULL)
      continue;
    oe = WL_VEC_PTR(&x->pool[o].ev, wl_ev, ot->ev0);
    for (j = 0; j < ot->nev; j++)
      if (oe[j].type == EV_W && oe[j].loc == r->loc && oe[j].val == r->val)
        return 1;
  }
  if (allow_future) {
    /* some trace of a thread not chosen yet could write it */
    for (o = upto; o < x->t->nthreads; o++) {
      const wl_vec *pv = &x->pool[o].ev;
      size_t q;
      if (o == th)
        continue;
      for (q = 0; q < pv->n; q++) {
        const wl_ev *oe = WL_VEC_PTR(pv, wl_ev, q);
        if (oe->type == EV_W && oe->loc == r->loc && oe->val == r->val)
          return 1;
      }
    }
  }
  return 0;
}

static int combo_dfs(xp *x, int th, const wl_trace **chosen, exe *E,
                     bsched *bs) {
  const wl_litmus *t = x->t;
  size_t k;
  if (x->err || stop_requested(x))
    return x->err;
  if (th == t->nthreads) {
    int o, i;
    /* full value check */
    for (o = 0; o < t->nthreads; o++) {
      const wl_trace *tr = chosen[o];
      const wl_ev *ev = WL_VEC_PTR(&x->pool[o].ev, wl_ev, tr->ev0);
      for (i = 0; i < tr->nev; i++)
        if (ev[i].type == EV_R &&
            !read_matched(x, o, tr, i, chosen, t->nthreads, 0))
          return 0;
    }
    if (x->collecting) {
      for (o = 0; o < t->nthreads; o++) {
        const wl_trace *tr = chosen[o];
        const wl_ev *ev = WL_VEC_PTR(&x->pool[o].ev, wl_ev, tr->ev0);
        for (i = 0; i < tr->nev; i++)
          if (ev[i].type == EV_W) {
            int a = dom_add(x, &x->dom[ev[i].loc], ev[i].val, ev[i].loc,
                            o, &ev[i]);
            if (a < 0)
              return x->err;
            if (a > 0)
              x->grew = 1;
          }
      }
      return 0;
    }
    for (o = 0; o < t->nthreads; o++)
      E->tr[o] = chosen[o];
    return explore_combo(x, E, bs);
  }
  for (k = 0; k < x->pool[th].traces.n; k++) {
    const wl_trace *tr = WL_VEC_PTR(&x->pool[th].traces, wl_trace, k);
    const wl_ev *ev = WL_VEC_PTR(&x->pool[th].ev, wl_ev, tr->ev0);
    int i, ok = 1;
    if (tr->cut == 2 && !x->collecting)
      continue; /* a stutter prefix: never a final state */
    chosen[th] = tr;
    /* reads of this thread must be satisfiable by what is chosen or
     * could still be chosen; reads of earlier threads may now have lost
     * their last possible writer */
    for (i = 0; i < tr->nev && ok; i++)
      if (ev[i].type == EV_R && !read_matched(x, th, tr, i, chosen, th, 1))
        ok = 0;
    if (ok)
      combo_dfs(x, th + 1, chosen, E, bs);
    chosen[th] = NULL;
    if (x->err)
      return x->err;
  }
  return 0;
}

/* ---------------------------------------------------------------- */

static void xp_free(xp *x) {
  int i;
  wl__candx_free(x->cand);
  for (i = 0; i < WL_MAX_LOCS; i++)
    wl__free(x->ctx, x->dom[i].v, (size_t)x->dom[i].cap * sizeof(int64_t));
  for (i = 0; i < WL_MAX_THREADS; i++) {
    wl__vec_free(x->ctx, &x->pool[i].ev);
    wl__vec_free(x->ctx, &x->pool[i].regs);
    wl__vec_free(x->ctx, &x->pool[i].traces);
    wl__vec_free(x->ctx, &x->pool[i].ch);
  }
}

void wl_result_free(wl_result *r) {
  size_t i;
  if (r == NULL)
    return;
  for (i = 0; i < r->nstates; i++) {
    wl__free(r->ctx, r->states[i].vals, (size_t)r->lay.nvals * sizeof(int64_t));
    wl__free(r->ctx, r->states[i].wit,
             (size_t)r->states[i].nwit * sizeof(wl_wit_ev));
  }
  wl__strfree(r->ctx, r->cond_override);
  wl__free(r->ctx, r->states, r->cap * sizeof *r->states);
  wl__free(r->ctx, r->htab, r->hcap * sizeof *r->htab);
  wl__free(r->ctx, r, sizeof *r);
}

int wl_explore(wl_ctx *ctx, const wl_litmus *t, const wl_explore_opts *opts,
               wl_result **out) {
  xp *x = NULL;
  exe *E = NULL;
  bsched *bs = NULL;
  const wl_trace *chosen[WL_MAX_THREADS];
  wl_result *r;
  int i, l, err = 0, rounds = 0;
  if (ctx == NULL || t == NULL || out == NULL)
    return WL_EINVAL;
  *out = NULL;
  ctx->errmsg[0] = '\0';
  if (opts != NULL && opts->unroll < 0)
    return wl__err(ctx, WL_EINVAL, "unroll bound must be >= 0");
  if ((err = wl__litmus_check_labels(t)) != 0)
    return err;
  if ((opts == NULL || opts->model == NULL) &&
      (err = wl__litmus_check_v60(t, "the built-in PTX 6.0 explorer")) != 0)
    return err;
  r = wl__calloc(ctx, sizeof *r);
  x = wl__calloc(ctx, sizeof *x);
  E = wl__calloc(ctx, sizeof *E);
  bs = wl__calloc(ctx, sizeof *bs);
  if (r != NULL)
    r->ctx = ctx; /* wl_result_free needs it on every path */
  if (r == NULL || x == NULL || E == NULL || bs == NULL) {
    err = wl__err(ctx, WL_ENOMEM, "out of memory");
    goto done;
  }
  r->ctx = ctx;
  r->t = t;
  r->cond_kind = t->cond_kind;
  r->has_cond = t->has_cond;
  x->ctx = ctx;
  x->t = t;
  x->opts = opts;
  x->res = r;
  x->unroll =
      (opts != NULL && opts->unroll > 0) ? opts->unroll : WL_DEFAULT_UNROLL;
  r->unroll = x->unroll;
  if (opts != NULL && opts->model != NULL &&
      wl__candx_new(ctx, opts->model, t, &x->cand) != 0) {
    err = WL_ENOMEM;
    goto done;
  }
  for (i = 0; i < WL_MAX_THREADS; i++) {
    wl__vec_init(&x->pool[i].ev, sizeof(wl_ev));
    wl__vec_init(&x->pool[i].regs, sizeof(int64_t));
    wl__vec_init(&x->pool[i].traces, sizeof(wl_trace));
    wl__vec_init(&x->pool[i].ch, sizeof(int));
  }
  for (l = 0; l < t->nlocs; l++)
    if (dom_add(x, &x->dom[l], t->locinit[l], l, -1, NULL) < 0)
      goto fail;
  /* the value-domain fixpoint */
  for (;;) {
    r->traces_cut = 0;
    if (gen_traces(x))
      goto fail;
    x->collecting = 1;
    x->grew = 0;
    memset(chosen, 0, sizeof chosen);
    if (combo_dfs(x, 0, chosen, E, bs))
      goto fail;
    x->collecting = 0;
    if (!x->grew)
      break;
    if (++rounds > 10000) {
      x->err =
          wl__err(ctx, WL_ELIMIT, "%s: value domains do not converge", t->name);
      goto fail;
    }
  }
  if (check_shared(x))
    goto fail;
  /* the state vector: every register (callback threads may have added
   * results while they ran), then every location */
  wl__layout_init(&r->lay, t);
  memset(chosen, 0, sizeof chosen);
  if (combo_dfs(x, 0, chosen, E, bs))
    goto fail;
  /* the verdict */
  {
    size_t s;
    int any = 0, all = 1;
    for (s = 0; s < r->nstates; s++) {
      if (r->states[s].sat)
        any = 1;
      else
        all = 0;
    }
    switch (t->cond_kind) {
    case WL_COND_EXISTS:
      r->verdict = any;
      break;
    case WL_COND_NOTEXISTS:
      r->verdict = !any;
      break;
    default:
      r->verdict = all;
      break;
    }
  }
  r->name = NULL;
  goto done;
fail:
  err = x->err;
done:
  if (x != NULL)
    xp_free(x);
  if (bs != NULL)
    wl__free(ctx, bs->out, (size_t)bs->capout * sizeof *bs->out);
  wl__free(ctx, bs, sizeof *bs);
  wl__free(ctx, E, sizeof *E);
  wl__free(ctx, x, sizeof *x);
  if (err) {
    wl_result_free(r);
    return err;
  }
  *out = r;
  return 0;
}

int wl_result_verdict(const wl_result *r) { return r->verdict; }
wl_cond_kind wl_result_cond_kind(const wl_result *r) {
  return (wl_cond_kind)r->cond_kind;
}
size_t wl_result_nstates(const wl_result *r) { return r->nstates; }
uint64_t wl_result_positive(const wl_result *r) { return r->pos; }
uint64_t wl_result_negative(const wl_result *r) { return r->neg; }
int wl_result_bound_hit(const wl_result *r) { return r->bound_hit; }
uint64_t wl_result_traces_cut(const wl_result *r) { return r->traces_cut; }

/* ---------------- results as values ---------------- */

int wl_result_nvars(const wl_result *r) { return r ? r->lay.nvals : 0; }

int wl_result_var_thread(const wl_result *r, int var) {
  return r == NULL ? -1 : wl__layout_thread(&r->lay, r->t, var);
}

const char *wl_result_var_name(const wl_result *r, int var) {
  return r == NULL ? NULL : wl__layout_name(&r->lay, r->t, var);
}

int64_t wl_result_value(const wl_result *r, size_t state, int var) {
  if (r == NULL || state >= r->nstates || var < 0 || var >= r->lay.nvals)
    return 0;
  return r->states[state].vals[var];
}

int wl_result_state_sat(const wl_result *r, size_t state) {
  return r != NULL && state < r->nstates ? r->states[state].sat : 0;
}

uint64_t wl_result_state_count(const wl_result *r, size_t state) {
  return r != NULL && state < r->nstates ? r->states[state].count : 0;
}

int wl_result_witness_nevents(const wl_result *r, size_t state) {
  return r != NULL && state < r->nstates ? r->states[state].nwit : 0;
}

int wl_result_witness_event(const wl_result *r, size_t state, int i,
                            wl_event_info *out) {
  const wl_wit_ev *e;
  static const char kinds[] = {'R', 'W', 'F', 'B'};
  if (r == NULL || out == NULL || state >= r->nstates || i < 0 ||
      i >= r->states[state].nwit)
    return WL_EINVAL;
  e = &r->states[state].wit[i];
  memset(out, 0, sizeof *out);
  out->thread = e->thread;
  out->kind = kinds[e->type & 3];
  out->loc = (e->type == EV_R || e->type == EV_W) ? e->loc : -1;
  out->value = e->val;
  out->sem = e->sem;
  out->scope = e->scope;
  out->line = e->line;
  out->rmw = e->rmw;
  out->rf = e->type == EV_R ? e->rf : -1;
  out->co = e->type == EV_W ? e->co : -1;
  out->sc = e->sc;
  out->phase = e->type == EV_B ? e->phase : -1;
  return 0;
}

int wl_result_set_sat(wl_result *r, size_t state, int sat) {
  if (r == NULL || state >= r->nstates)
    return WL_EINVAL;
  r->states[state].sat = sat != 0;
  return 0;
}

int wl_result_set_condition(wl_result *r, int kind, const char *text) {
  size_t s;
  int any = 0, all = 1;
  char *c = NULL;
  if (r == NULL || kind < WL_COND_EXISTS || kind > WL_COND_FORALL)
    return WL_EINVAL;
  if (text != NULL && (c = wl__strndup(r->ctx, text, strlen(text))) == NULL)
    return wl__err(r->ctx, WL_ENOMEM, "out of memory");
  wl__strfree(r->ctx, r->cond_override);
  r->cond_override = c;
  r->cond_kind = kind;
  r->has_cond = 1;
  r->pos = r->neg = 0;
  for (s = 0; s < r->nstates; s++) {
    if (r->states[s].sat) {
      any = 1;
      r->pos += r->states[s].count;
    } else {
      all = 0;
      r->neg += r->states[s].count;
    }
  }
  r->verdict = kind == WL_COND_EXISTS      ? any
               : kind == WL_COND_NOTEXISTS ? !any
                                           : all;
  return 0;
}
