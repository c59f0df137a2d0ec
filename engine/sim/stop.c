/* stop.c -- where threads stopped: after a warp ran, settle prices the
 * converged warp, retires a finished block and opens barriers every
 * thread reached; a barrier some threads can never reach (barrier
 * divergence) and a warp whose lanes wait on each other (deadlock) are
 * reported with the lines where each thread stopped. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../check/check.h"
#include "../common/internal.h"
#include "../perf/perf.h"
#include "../program/ir.h"
#include "sim.h"

/* --------------------- where threads stopped --------------------- */

static void appendf(char *buf, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void appendf(char *buf, size_t n, const char *fmt, ...) {
  size_t k = strlen(buf);
  va_list ap;
  if (k + 1 >= n)
    return;
  va_start(ap, fmt);
  vsnprintf(buf + k, n - k, fmt, ap);
  va_end(ap);
}

/* Where thread t stopped: its state and the line (a barrier's, a warp
 * operation's, or the kernel's end). */
static int stop_line(const wl_launch *l, const slot *s, int t) {
  switch (s->state[t]) {
  case WL_LANE_BARRIER:
    return s->barline[t];
  case WL_LANE_WARPSYNC:
    return s->wop[t].line;
  case WL_LANE_EXITED:
    return l->cfg.end_line;
  default:
    return 0;
  }
}

/* Appends the threads of [lo, hi) that stopped in state at line (line
 * -1: any) as ranges of linear indices, "0-15, 32". */
static void add_threads(const wl_launch *l, const slot *s, int lo, int hi,
                        int state, int line, char *buf, size_t n) {
  int t = lo, k = 0;
#define MATCH(x)                                                               \
  (s->state[x] == state && (line < 0 || stop_line(l, s, x) == line))
  while (t < hi) {
    int u;
    if (!MATCH(t)) {
      t++;
      continue;
    }
    for (u = t; u + 1 < hi && MATCH(u + 1); u++)
      ;
    if (k < 4)
      appendf(buf, n, u > t ? "%s%d-%d" : "%s%d", k ? ", " : "", t, u);
    else if (k == 4)
      appendf(buf, n, ", ...");
    k++;
    t = u + 1;
  }
#undef MATCH
}
/* Appends where the threads of [lo, hi) other than those in state at
 * line stopped, grouped: "threads 37-63 returned from the kernel (line
 * 45)"; at most three groups. */
static void add_others(const wl_launch *l, const slot *s, int lo, int hi,
                       int state, int line, char *buf, size_t n) {
  int t, groups = 0;
  for (t = lo; t < hi && groups < 3; t++) {
    int st = s->state[t], ln = stop_line(l, s, t), f;
    if ((st == state && ln == line) || st == WL_LANE_RUNNABLE)
      continue;
    for (f = lo; f < t; f++) /* a group is listed at its first thread */
      if (s->state[f] == st && stop_line(l, s, f) == ln)
        break;
    if (f < t)
      continue;
    appendf(buf, n, "%sthreads ", groups ? "; " : "");
    add_threads(l, s, lo, hi, st, ln, buf, n);
    if (st == WL_LANE_EXITED)
      appendf(buf, n, ln > 0 ? " returned (the kernel ends at line %d)"
                             : " returned",
              ln);
    else if (st == WL_LANE_BARRIER)
      appendf(buf, n, " wait at the __syncthreads() of line %d", ln);
    else
      appendf(buf, n, " wait at the %s(0x%08x) of line %d",
              wl__sim_warp_op_name(s->wop[t].kind), s->wop[t].mask, ln);
    groups++;
  }
}

/* Every thread of the block waits or has exited, and not all at one
 * barrier: the report names who arrived, who did not and where each
 * stopped. */
static int barrier_divergence(wl_launch *l, slot *s) {
  char msg[WL_ERRMSG_MAX];
  int t, w, line, named = -1, arrived = 0;
  for (w = 0; w < l->nthreads && s->state[w] != WL_LANE_BARRIER; w++)
    ;
  line = s->barline[w];
  for (t = 0; t < l->nthreads; t++) {
    if (s->state[t] == WL_LANE_BARRIER && s->barline[t] == line)
      arrived++;
    else if (named < 0)
      named = t;
  }
  msg[0] = 0;
  appendf(msg, sizeof msg,
          "barrier divergence: the __syncthreads() of line %d is reached "
          "by %d of the block's %d threads (",
          line, arrived, l->nthreads);
  add_threads(l, s, 0, l->nthreads, WL_LANE_BARRIER, line, msg, sizeof msg);
  appendf(msg, sizeof msg, "); ");
  add_others(l, s, 0, l->nthreads, WL_LANE_BARRIER, line, msg, sizeof msg);
  appendf(msg, sizeof msg,
          " (a barrier must be reached by every thread of the block)");
  return wl_kernel_fail(
      l, s->block, named, NULL,
      s->state[named] == WL_LANE_BARRIER ? s->barline[named] : line, msg);
}

/* No lane of the warp can run and some wait at a warp operation that
 * cannot complete. */
static int warp_deadlock(wl_launch *l, slot *s, int warp) {
  char msg[WL_ERRMSG_MAX];
  int lo = warp * 32, hi = lo + 32 < l->nthreads ? lo + 32 : l->nthreads, t;
  const wl_warp_op *op;
  for (t = lo; t < hi && s->state[t] != WL_LANE_WARPSYNC; t++)
    ;
  if (t == hi)
    return 0;
  op = &s->wop[t];
  msg[0] = 0;
  appendf(msg, sizeof msg,
          "warp deadlock: the %s(0x%08x) of line %d cannot complete: "
          "threads ",
          wl__sim_warp_op_name(op->kind), op->mask, op->line);
  add_threads(l, s, lo, hi, WL_LANE_WARPSYNC, op->line, msg, sizeof msg);
  appendf(msg, sizeof msg, " arrived; ");
  add_others(l, s, lo, hi, WL_LANE_WARPSYNC, op->line, msg, sizeof msg);
  appendf(msg, sizeof msg,
          " (every lane of the mask must reach a warp operation with the "
          "same mask)");
  return wl_kernel_fail(l, s->block, t, NULL, op->line, msg);
}

/* After a warp ran: converged warps are priced, a finished block leaves
 * its SM, a barrier every thread reached opens, and a barrier some
 * threads can never reach is reported. */
int wl__sim_settle(wl_launch *l, slot *s, int warp) {
  int t, rc, line = -1;
  int lo = warp * 32, hi = lo + 32 < l->nthreads ? lo + 32 : l->nthreads;
  for (t = lo; t < hi && s->state[t] != WL_LANE_RUNNABLE; t++)
    ;
  if (t == hi && s->wop != NULL && (rc = warp_deadlock(l, s, warp)) != 0)
    return rc;
  if (t == hi && (rc = wl__sim_flush_warp(l, s, warp)) != 0)
    return rc;
  if (s->nexited == l->nthreads) {
    int b = s->block, w;
    for (w = 0; w < l->nwarps; w++)
      if ((rc = wl__sim_flush_warp(l, s, w)) != 0)
        return rc;
    l->sms[s->sm].resident--;
    if (l->cfg.block_done)
      l->cfg.block_done(l->cfg.ud, l, b);
    l->slot_of[b] = -1;
    wl__sim_slot_release(l, s);
    l->done_blocks++;
    return wl__sim_admit(l);
  }
  if (s->nwaiting + s->nexited < l->nthreads || s->nwaiting == 0)
    return 0;
  /* every thread waits or has exited */
  for (t = 0; t < l->nthreads; t++) {
    if (s->state[t] == WL_LANE_EXITED)
      return barrier_divergence(l, s);
    if (line < 0)
      line = s->barline[t];
    else if (s->barline[t] != line)
      return barrier_divergence(l, s);
  }
  if (l->chk != NULL && wl__chk_barrier(l->chk, (int)(s - l->slots)) != 0) {
    snprintf(l->err, sizeof l->err, "%s", wl_ctx_errmsg(l->ctx));
    l->failed = 1;
    return WL_ENOMEM;
  }
  for (t = 0; t < l->nthreads; t++)
    s->state[t] = WL_LANE_RUNNABLE;
  s->nwaiting = 0;
  return 0;
}
