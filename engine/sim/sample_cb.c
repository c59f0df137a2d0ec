/* sample_cb.c -- callback threads (Lua functions as threads) in a run
 * of the litmus sampler: their events as instructions, learning the
 * next ones (the replays: cbreplay.c), and their results. */
#include <string.h>

#include "sample.h"

int wl__scb_probe(sim *s, int th, int lvi, int64_t v) {
  return wl__cb_probe(s->ctx, s->t, s->h, s->fn, s->fn_ud, th, s->cb[th],
                      s->cb[th]->nexec + s->cbexec, lvi, v);
}

void wl__scb_insn(const cbev *e, wl_insn *in) {
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

int wl__scb_learn(sim *s, int th) {
  cbthread *c = s->cb[th];
  int rc;
  if (c->nexec < c->nev || c->finished)
    return 0;
  rc = wl__cb_replay(s->ctx, s->t, s->h, 1, s->fn, s->fn_ud, th, c,
                     &s->m.overflow);
  if (rc != 0) {
    s->err = rc;
    s->m.overflow = 1; /* ends the run */
    return -1;
  }
  return s->m.overflow ? -1 : 0;
}

void wl__scb_finish(sim *s, int th) {
  memcpy(s->th[th].regs, s->cb[th]->res,
         (size_t)nreg(s->h, th) * sizeof s->th[th].regs[0]);
}

const wl_insn *wl__scb_next(sim *s, int th, wl_insn *buf) {
  sthread *t = &s->th[th];
  cbthread *c = s->cb[th];
  if (wl__scb_learn(s, th) != 0)
    return NULL;
  if (c->nexec == c->nev) {
    wl__scb_finish(s, th);
    t->done = 1;
    s->rmask &= ~(1ull << th);
    s->rdirty = 1;
    return NULL;
  }
  wl__scb_insn(&c->ev[c->nexec], buf);
  t->pc = c->nexec; /* a barrier remembers where it waits */
  return buf;
}

void wl__scb_executed(sim *s, int th) {
  cbthread *c = s->cb[th];
  const cbev *e = &c->ev[c->nexec];
  if (e->kind == CB_LOAD || e->kind == CB_ATOM)
    c->lv[c->nlv++] = s->th[th].regs[CB_SCRATCH];
  c->nexec++;
}
