/* bardiv.c -- barrier divergence between threads that run one program
 * (issue 12): CUDA allows __syncthreads() in conditional code only when
 * the condition is the same across the block, so threads that run the
 * same function (wl_litmus_set_thread_code) and complete one barrier
 * phase at different source lines -- the if/else with a __syncthreads()
 * in each branch -- have diverged.  PTX's bar.sync would let them
 * synchronise (it counts arrivals, not places), which is why the
 * explorer finds nothing wrong in the states and has to say it here, as
 * the kernel checker does for kernels (engine/sim/device.c). */
#include <stdio.h>
#include <string.h>

#include "explore.h"

/* x->prog: threads that run one program are those given the same Lua
 * function (wl_litmus_set_thread_code) or, written as PTX, the same
 * instructions (their registers may start differently, as a thread
 * index would) -- CUDA's threads of a block running one kernel. */
static void programs(xp *x) {
  const wl_litmus *t = x->t;
  int a, b;
  for (a = 0; a < t->nthreads; a++) {
    const wl_thread *ta = &t->threads[a];
    x->prog[a] = -1;
    for (b = 0; b < a && x->prog[a] < 0; b++) {
      const wl_thread *tb = &t->threads[b];
      if (ta->code != 0 ? ta->code == tb->code
                        : tb->code == 0 && wl__xp_same_insns(ta, tb))
        x->prog[a] = x->prog[b] >= 0 ? x->prog[b] : b;
    }
    if (x->prog[a] >= 0)
      x->prog[x->prog[a]] = x->prog[a];
  }
  x->prog_ready = 1;
}

static int same_program(const xp *x, int a, int b) {
  const wl_litmus *t = x->t;
  return a != b && x->prog[a] >= 0 && x->prog[a] == x->prog[b] &&
         t->threads[a].cta == t->threads[b].cta &&
         t->threads[a].gpu == t->threads[b].gpu;
}

/* Appends "P0, P2" (the threads of program code whose event of phase ph
 * is at line `line`, or, with at_line 0, at another line, each with its
 * line) to buf. */
static void list_threads(const xp *x, const bsched *s, const exe *E, int ph,
                         int prog, int line, int at_line, char *buf,
                         size_t n) {
  size_t k = strlen(buf);
  int i, first = 1;
  for (i = 0; i < E->n && k + 24 < n; i++) {
    int th = E->thread[i];
    if (E->ev[i].type != EV_B || s->phase[i] != ph || th < 0 ||
        x->prog[th] != prog)
      continue;
    if ((E->ev[i].line == line) != at_line)
      continue;
    if (at_line)
      k += (size_t)snprintf(buf + k, n - k, "%s%s", first ? "" : ", ",
                            x->t->threads[th].name);
    else
      k += (size_t)snprintf(buf + k, n - k, "%s%s at line %d",
                            first ? "" : ", ", x->t->threads[th].name,
                            E->ev[i].line);
    first = 0;
  }
}

int wl__xp_bar_divergence(xp *x, const bsched *s, const exe *E) {
  const wl_litmus *t = x->t;
  int i, j, any = 0;
  char arrived[200], others[300];
  if (!x->prog_ready)
    programs(x);
  for (i = 0; i < t->nthreads && !any; i++)
    any = x->prog[i] >= 0;
  if (!any)
    return 0; /* no two threads run one program */
  for (i = E->ninit; i < E->n; i++) {
    const wl_ev *a = &E->ev[i];
    if (a->type != EV_B || a->bar_kind != BAR_SYNC || s->phase[i] < 0)
      continue;
    for (j = i + 1; j < E->n; j++) {
      const wl_ev *b = &E->ev[j];
      arrived[0] = others[0] = '\0';
      if (b->type != EV_B || b->bar_kind != BAR_SYNC ||
          s->phase[j] != s->phase[i] || b->line == a->line ||
          !same_program(x, E->thread[i], E->thread[j]))
        continue;
      list_threads(x, s, E, s->phase[i], x->prog[E->thread[i]],
                   a->line, 1, arrived, sizeof arrived);
      list_threads(x, s, E, s->phase[i], x->prog[E->thread[i]],
                   a->line, 0, others, sizeof others);
      return x->err = wl__err(
                 x->ctx, WL_EINVAL,
                 "%s:%d: barrier divergence: threads running the same "
                 "%s wait at different barriers: the %s of line %d is "
                 "reached by %s; not by %s (every thread of the CTA must "
                 "reach the same __syncthreads(): its condition must be "
                 "the same across the block)",
                 t->filename ? t->filename : t->name, a->line,
                 t->threads[E->thread[i]].code != 0 ? "function"
                                                    : "instructions",
                 t->threads[E->thread[i]].code != 0 ? "__syncthreads()"
                                                    : "bar.sync",
                 a->line, arrived, others);
    }
  }
  return 0;
}
