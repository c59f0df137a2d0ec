/* occupancy.c -- how many blocks of a kernel fit on one SM, with the rules
 * of NVIDIA's CUDA occupancy calculator: each resource (threads, block
 * slots, warp slots, registers, shared memory) allows some number of
 * blocks, and the SM holds the smallest of them. */
#include <stdio.h>
#include <string.h>

#include "perf.h"

void wl__occ_from_device(const wl_device_cfg *c, wl_occ_cfg *o) {
  memset(o, 0, sizeof *o);
  o->warp_size = 32;
  o->max_threads_per_block = c->max_threads_per_block;
  o->max_threads_per_sm = c->max_threads_per_sm;
  o->max_blocks_per_sm = c->max_blocks_per_sm;
  o->max_warps_per_sm = c->max_warps_per_sm;
  o->regs_per_sm = c->regs_per_sm;
  o->reg_alloc_unit = c->reg_alloc_unit;
  o->max_regs_per_thread = c->max_regs_per_thread;
  o->shared_per_sm_bytes = (int)c->shared_per_sm;
  o->shared_per_block_max = (int)c->shared_per_block;
  o->shared_alloc_unit = (int)c->shared_alloc_unit;
  o->shared_reserved_per_block = (int)c->shared_reserved;
}

const char *wl__occ_limit_name(wl_occ_limit l) {
  static const char *const names[] = {"threads", "blocks", "warps", "registers",
                                      "shared"};
  return (unsigned)l < 5 ? names[l] : "unknown";
}

static int round_up(int x, int unit) {
  return unit > 1 ? (x + unit - 1) / unit * unit : x;
}

/* "48 KB" for whole kilobytes, else "1500 bytes". */
static void size_text(char *buf, size_t n, int bytes) {
  if (bytes % 1024 == 0)
    snprintf(buf, n, "%d KB", bytes / 1024);
  else
    snprintf(buf, n, "%d bytes", bytes);
}

static int fail(wl_occ_result *out, const char *msg) {
  snprintf(out->msg, sizeof out->msg, "%s", msg);
  return WL_EINVAL;
}

int wl__occupancy(const wl_occ_cfg *dev, const wl_occ_kernel *k,
                  wl_occ_result *out) {
  char msg[sizeof out->msg], a[32], b[32];
  int ws = dev->warp_size > 0 ? dev->warp_size : 32;
  int best, smem, i;
  int *by[5];
  memset(out, 0, sizeof *out);
  if (dev->max_threads_per_sm < 1 || dev->max_blocks_per_sm < 1 ||
      dev->max_warps_per_sm < 1 || dev->regs_per_sm < 0 ||
      dev->shared_per_sm_bytes < 0 || dev->shared_alloc_unit < 0 ||
      dev->reg_alloc_unit < 0 || dev->shared_reserved_per_block < 0)
    return fail(out, "occupancy: the device has a negative or zero limit");
  if (k->threads_per_block < 1 || k->regs_per_thread < 0 ||
      k->shared_per_block < 0)
    return fail(out, "occupancy: a block needs at least one thread, and "
                     "registers and shared memory cannot be negative");
  if (dev->max_threads_per_block > 0 &&
      k->threads_per_block > dev->max_threads_per_block) {
    snprintf(msg, sizeof msg,
             "a block of %d threads is larger than the device allows (%d)",
             k->threads_per_block, dev->max_threads_per_block);
    return fail(out, msg);
  }
  if (dev->max_regs_per_thread > 0 &&
      k->regs_per_thread > dev->max_regs_per_thread) {
    snprintf(msg, sizeof msg,
             "a thread needs %d registers; the device allows %d",
             k->regs_per_thread, dev->max_regs_per_thread);
    return fail(out, msg);
  }
  out->warps_per_block = (k->threads_per_block + ws - 1) / ws;

  out->by_threads = dev->max_threads_per_sm / k->threads_per_block;
  out->by_blocks = dev->max_blocks_per_sm;
  out->by_warps = dev->max_warps_per_sm / out->warps_per_block;

  /* Registers are allocated per warp, in units of reg_alloc_unit. */
  if (k->regs_per_thread == 0) {
    out->by_regs = dev->max_blocks_per_sm;
  } else {
    int per_warp = round_up(k->regs_per_thread * ws, dev->reg_alloc_unit);
    out->by_regs = dev->regs_per_sm / per_warp / out->warps_per_block;
  }

  /* Shared memory: the block's bytes plus the per-block reservation
   * (1 KB on sm_8x/9x), rounded up to the allocation unit. */
  smem = k->shared_per_block == 0 && dev->shared_reserved_per_block == 0
             ? 0
             : round_up(k->shared_per_block + dev->shared_reserved_per_block,
                        dev->shared_alloc_unit);
  if (smem > dev->shared_per_sm_bytes) {
    size_text(a, sizeof a, smem);
    size_text(b, sizeof b, dev->shared_per_sm_bytes);
    snprintf(msg, sizeof msg,
             "a block needs %s of shared memory; the SM has %s", a, b);
    return fail(out, msg);
  }
  if (dev->shared_per_block_max > 0 &&
      k->shared_per_block > dev->shared_per_block_max) {
    size_text(a, sizeof a, k->shared_per_block);
    size_text(b, sizeof b, dev->shared_per_block_max);
    snprintf(msg, sizeof msg,
             "a block needs %s of shared memory; a block may have at most "
             "%s",
             a, b);
    return fail(out, msg);
  }
  out->by_shared =
      smem == 0 ? dev->max_blocks_per_sm : dev->shared_per_sm_bytes / smem;

  if (out->by_regs == 0) {
    snprintf(msg, sizeof msg,
             "a block needs %d registers (%d threads x %d); the SM has %d",
             round_up(k->regs_per_thread * ws, dev->reg_alloc_unit) *
                 out->warps_per_block,
             k->threads_per_block, k->regs_per_thread, dev->regs_per_sm);
    return fail(out, msg);
  }
  if (out->by_threads == 0 || out->by_warps == 0) {
    snprintf(msg, sizeof msg,
             "a block of %d threads does not fit an SM of %d threads (%d "
             "warps)",
             k->threads_per_block, dev->max_threads_per_sm,
             dev->max_warps_per_sm);
    return fail(out, msg);
  }

  by[WL_OCC_THREADS] = &out->by_threads;
  by[WL_OCC_BLOCKS] = &out->by_blocks;
  by[WL_OCC_WARPS] = &out->by_warps;
  by[WL_OCC_REGISTERS] = &out->by_regs;
  by[WL_OCC_SHARED] = &out->by_shared;
  best = WL_OCC_THREADS;
  for (i = 1; i < 5; i++)
    if (*by[i] < *by[best])
      best = i;
  out->limit = (wl_occ_limit)best;
  out->blocks_per_sm = *by[best];
  out->active_warps = out->blocks_per_sm * out->warps_per_block;
  out->occupancy = (double)out->active_warps / dev->max_warps_per_sm;
  return 0;
}
