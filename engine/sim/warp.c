/* warp.c -- warp operations (__syncwarp, shuffles, votes, match,
 * reductions): lanes wait at one until every lane of its mask arrives,
 * then each gets its result; the lane order of a warp's next run. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../check/check.h"
#include "../common/internal.h"
#include "../perf/perf.h"
#include "../program/ir.h"
#include "sim.h"

/* ------------------------ warp operations ------------------------- */

/* The lanes of mask have all reached a warp operation with that mask:
 * compute each one's result and let them run on. */
const char *wl__sim_warp_op_name(int kind) {
  static const char *const n[] = {"__syncwarp",      "__shfl_sync",
                                  "__shfl_up_sync",  "__shfl_down_sync",
                                  "__shfl_xor_sync", "__ballot_sync",
                                  "__any_sync",      "__all_sync"};
  return kind >= 0 && kind <= WL_WARP_ALL ? n[kind] : "?";
}

/* A shuffle by lane `lane` of warp `warp` whose source lane src (within
 * its segment) is outside mask: the race checker's WL_FIND_SHFL, saying
 * why the lane is outside (it exited, it does not exist, or the mask
 * leaves it out). */
static int shfl_hazard(wl_launch *l, slot *s, int warp, int lane, int src,
                       int kind, uint32_t mask, int line) {
  char fix[320];
  int t = warp * 32 + src;
  const char *why = t >= l->nthreads ? "it is past the block's end"
                    : s->state[t] == WL_LANE_EXITED ? "it has exited"
                                                    : "the mask leaves it out";
  if (l->chk == NULL)
    return 0;
  snprintf(fix, sizeof fix,
           "%s(0x%08x): lane %d reads lane %d, which is not in the mask "
           "(%s), so the value is undefined (warplab gives lane %d its own "
           "value): put lane %d in the mask and have it reach the shuffle, "
           "or read a lane that takes part",
           wl__sim_warp_op_name(kind), mask, lane, src, why, lane, src);
  if (wl__chk_shfl(l->chk, (int)(s - l->slots), warp * 32 + lane, t, line,
                   fix) != 0) {
    snprintf(l->err, sizeof l->err, "%s", wl_ctx_errmsg(l->ctx));
    l->failed = 1;
    return WL_ENOMEM;
  }
  return 0;
}

int wl_kernel_shfl_src(wl_launch *l, int block, int warp, int lane, int src,
                       int kind, uint32_t mask, int line) {
  slot *s = slot_of(l, block);
  if (s == NULL || warp < 0 || warp >= l->nwarps || lane < 0 || lane > 31 ||
      src < 0 || src > 31)
    return wl__err(l->ctx, WL_EINVAL, "wl_kernel_shfl_src: no such lane");
  if (mask >> src & 1)
    return 0;
  return shfl_hazard(l, s, warp, lane, src, kind, mask, line);
}

static int warp_meet(wl_launch *l, slot *s, int warp, uint32_t mask) {
  int lo = warp * 32, kind, u, rc;
  uint32_t b, votes = 0;
  for (b = mask; b != 0; b &= b - 1) {
    int t = lo + __builtin_ctz(b);
    if (s->state[t] != WL_LANE_WARPSYNC || s->wop[t].mask != mask)
      return 0;
  }
  kind = s->wop[lo + __builtin_ctz(mask)].kind;
  for (b = mask; b != 0; b &= b - 1) {
    int t = lo + __builtin_ctz(b);
    char msg[300];
    if (s->wop[t].kind == kind) {
      votes |= (uint32_t)(s->wop[t].value != 0) << (t - lo);
      continue;
    }
    snprintf(msg, sizeof msg,
             "warp divergence: this lane waits at the %s of line %d while "
             "lane %d waits at the %s of line %d, with the same mask "
             "0x%08x (the lanes must meet at the same kind of operation)",
             wl__sim_warp_op_name(s->wop[t].kind), s->wop[t].line,
             __builtin_ctz(mask), wl__sim_warp_op_name(kind),
             s->wop[lo + __builtin_ctz(mask)].line, mask);
    return wl_kernel_fail(l, s->block, t, NULL, s->wop[t].line, msg);
  }
  for (b = mask; b != 0; b &= b - 1) {
    int t = lo + (u = __builtin_ctz(b));
    const wl_warp_op *op = &s->wop[t];
    int src = wl_warp_src(kind, u, op->arg, op->width, mask);
    if (kind == WL_WARP_BALLOT) {
      s->wres[t] = (int64_t)votes;
      s->wresint[t] = 1;
    } else if (kind == WL_WARP_ANY || kind == WL_WARP_ALL) {
      s->wres[t] = kind == WL_WARP_ANY ? votes != 0 : votes == mask;
      s->wresint[t] = 1;
    } else {
      /* the lane it means to read, before the mask's rule */
      int want = wl_warp_src(kind, u, op->arg, op->width, 0xffffffffu);
      if (want != src &&
          (rc = shfl_hazard(l, s, warp, u, want, kind, mask, op->line)) != 0)
        return rc;
      s->wres[t] = s->wop[lo + src].value;
      s->wresint[t] = (uint8_t)s->wop[lo + src].isint;
    }
  }
  if (kind == WL_WARP_SYNC && l->chk != NULL &&
      (rc = wl__chk_syncwarp(l->chk, (int)(s - l->slots), warp, mask)) != 0) {
    snprintf(l->err, sizeof l->err, "%s", wl_ctx_errmsg(l->ctx));
    l->failed = 1;
    return rc;
  }
  for (b = mask; b != 0; b &= b - 1)
    s->state[lo + __builtin_ctz(b)] = WL_LANE_RUNNABLE;
  return 0;
}

int wl_warp_src(int kind, int lane, int arg, int width, uint32_t mask) {
  int w = width >= 1 && width <= 32 && !(width & (width - 1)) ? width : 32;
  int seg = lane & ~(w - 1), src = lane;
  switch (kind) {
  case WL_WARP_SHFL:
    src = seg + (int)((unsigned)arg & (unsigned)(w - 1));
    break;
  case WL_WARP_SHFL_UP:
    src = arg >= 0 && lane - arg >= seg ? lane - arg : lane;
    break;
  case WL_WARP_SHFL_DOWN:
    src = arg >= 0 && lane + arg < seg + w ? lane + arg : lane;
    break;
  case WL_WARP_SHFL_XOR:
    src = lane ^ (arg & 31);
    if (src < seg || src >= seg + w)
      src = lane;
    break;
  default:
    break;
  }
  return src >= 0 && src < 32 && (mask >> src & 1) ? src : lane;
}

int wl_kernel_warp_op(wl_launch *l, int block, int thread,
                      const wl_warp_op *op) {
  slot *s = slot_of(l, block);
  int warp = thread / 32, lane = thread % 32, lo = warp * 32;
  uint32_t exist, b;
  char msg[200];
  size_t nt = (size_t)l->nthreads;
  if (s == NULL || thread < 0 || thread >= l->nthreads ||
      s->state[thread] != WL_LANE_RUNNABLE || op == NULL ||
      op->kind < WL_WARP_SYNC || op->kind > WL_WARP_ALL)
    return wl__err(l->ctx, WL_EINVAL, "wl_kernel_warp_op: no such thread");
  exist = l->nthreads - lo >= 32 ? 0xffffffffu
                                 : (1u << (l->nthreads - lo)) - 1;
  if (!(op->mask >> lane & 1)) {
    snprintf(msg, sizeof msg,
             "%s(0x%08x): the calling lane %d is not in the mask "
             "(undefined behaviour)",
             wl__sim_warp_op_name(op->kind), op->mask, lane);
    return wl_kernel_fail(l, block, thread, NULL, op->line, msg);
  }

  if (op->width < 1 || op->width > 32 || (op->width & (op->width - 1))) {
    snprintf(msg, sizeof msg,
             "%s: width must be a power of two from 1 to 32, not %d",
             wl__sim_warp_op_name(op->kind), op->width);
    return wl_kernel_fail(l, block, thread, NULL, op->line, msg);
  }
  for (b = op->mask & exist; b != 0; b &= b - 1)
    if (s->state[lo + __builtin_ctz(b)] == WL_LANE_EXITED) {
      snprintf(msg, sizeof msg,
               "%s(0x%08x): lane %d of the mask has exited, so the warp "
               "can never meet here (undefined behaviour)",
               wl__sim_warp_op_name(op->kind), op->mask, __builtin_ctz(b));
      return wl_kernel_fail(l, block, thread, NULL, op->line, msg);
    }
  if (s->wop == NULL) {
    s->wop = wl__calloc(l->ctx, sizeof(wl_warp_op) * nt);
    s->wres = wl__calloc(l->ctx, sizeof(int64_t) * nt);
    s->wresint = wl__calloc(l->ctx, nt);
    if (s->wop == NULL || s->wres == NULL || s->wresint == NULL) {
      snprintf(l->err, sizeof l->err, "out of memory");
      l->failed = 1;
      return wl__err(l->ctx, WL_ENOMEM, "out of memory");
    }
  }
  wl__sim_defer_drop(l, s, thread); /* performed at issue */
  s->wop[thread] = *op;
  s->wop[thread].mask &= exist; /* lanes past the block's end: no threads */
  s->state[thread] = WL_LANE_WARPSYNC;
  s->slice[thread] = 0;
  l->last_block = block;
  l->last_thread = thread;
  l->last_line = op->line;
  return warp_meet(l, s, warp, s->wop[thread].mask);
}

int64_t wl_kernel_warp_result(const wl_launch *l, int block, int thread,
                              int *isint) {
  const slot *s = slot_of((wl_launch *)(uintptr_t)l, block);
  if (s == NULL || s->wres == NULL || thread < 0 || thread >= l->nthreads) {
    if (isint)
      *isint = 1;
    return 0;
  }
  if (isint)
    *isint = s->wresint[thread];
  return s->wres[thread];
}

int wl_kernel_syncwarp_lanes(wl_launch *l, int block, int warp,
                             uint32_t mask, int line) {
  slot *s = slot_of(l, block);
  int rc;
  (void)line;
  if (s == NULL || warp < 0 || warp >= l->nwarps)
    return wl__err(l->ctx, WL_EINVAL, "wl_kernel_syncwarp_lanes: no such "
                                      "warp");
  if (l->chk != NULL && mask != 0 &&
      (rc = wl__chk_syncwarp(l->chk, (int)(s - l->slots), warp, mask)) != 0) {
    snprintf(l->err, sizeof l->err, "%s", wl_ctx_errmsg(l->ctx));
    l->failed = 1;
    return rc;
  }
  return 0;
}

int wl_kernel_lane_order(wl_launch *l, int block, int warp, int order[32]) {
  slot *s = slot_of(l, block);
  int n = l->nthreads - warp * 32, i;
  if (n > 32)
    n = 32;
  if (s == NULL || n <= 0)
    return 0;
  for (i = 0; i < n; i++)
    order[i] = i;
  if (l->cfg.schedule == WL_SCHED_RANDOM) {
    uint32_t most = l->cfg.slice < 8 ? (uint32_t)l->cfg.slice : 8;
    for (i = n - 1; i > 0; i--) {
      int j = pick(&l->rng, i + 1), x = order[i];
      order[i] = order[j];
      order[j] = x;
    }
    for (i = 0; i < n; i++) /* 1 to 8 accesses before it yields */
      s->slice[warp * 32 + i] =
          (uint32_t)l->cfg.slice - 1 - (uint32_t)pick(&l->rng, (int)most);
  }
  return n;
}

/* Picks a resident warp with a runnable lane, at random. */
