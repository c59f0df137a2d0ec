/* launch.c -- a kernel launch on the simulated device: its setup and
 * teardown, the blocks admitted onto SMs as resources free up, the
 * seeded choice of the next warp to run (wl_launch_run), the failure
 * message naming the thread, and the per-site counters the launch
 * reports (sites are the source lines of accesses).  sim.h has the
 * launch's representation. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../check/check.h"
#include "../common/internal.h"
#include "../perf/perf.h"
#include "../program/ir.h"
#include "sim.h"

/* ------------------------------------------------------------------ */
/* launches                                                            */
/* ------------------------------------------------------------------ */

static const char *const counter_names[] = {
#define C_NAME(id, name) name,
    COUNTERS(C_NAME)
#undef C_NAME
        NULL};

const char *wl_launch_counter_name(int i) {
  return i >= 0 && i < NCOUNTERS ? counter_names[i] : NULL;
}

int wl_kernel_fail(wl_launch *l, int block, int thread, const char *file,
                   int line, const char *msg) {
  int b[3], t[3];
  coords(block, l->gdim, b);
  coords(thread, l->bdim, t);
  snprintf(l->err, sizeof l->err,
           "%s:%d: block (%d,%d,%d) thread (%d,%d,%d) warp %d lane %d: %s",
           file ? file : l->cfg.source ? l->cfg.source : "kernel", line, b[0],
           b[1], b[2],
           t[0], t[1], t[2], thread / 32, thread % 32, msg);
  l->failed = 1;
  return wl__err(l->ctx, WL_ERUNTIME, "%s", l->err);
}

const char *wl_launch_errmsg(const wl_launch *l) { return l->err; }

int wl_kernel_lane_state(const wl_launch *l, int block, int thread) {
  slot *s;
  if (l->slot_of == NULL || block < 0 || block >= l->nblocks ||
      l->slot_of[block] < 0 || thread < 0 || thread >= l->nthreads)
    return WL_LANE_NONE;
  s = &l->slots[l->slot_of[block]];
  if (s->state[thread] == WL_LANE_RUNNABLE &&
      (s->warps[thread / 32].stalled >> (thread % 32) & 1))
    return WL_LANE_STALLED;
  return s->state[thread];
}

int wl_kernel_threads_per_block(const wl_launch *l) { return l->nthreads; }

/* --------------------------- blocks ------------------------------- */

void wl__sim_slot_release(wl_launch *l, slot *s) {
  int t;
  if (s->state == NULL)
    return;
  for (t = 0; t < l->nthreads; t++) {
    size_t i;
    for (i = 0; i < s->locals[t].n; i++) {
      local_arr *la = WL_VEC_PTR(&s->locals[t], local_arr, i);
      wl__free(l->ctx, la->p, la->n ? la->n : 1);
    }
    wl__vec_free(l->ctx, &s->locals[t]);
  }
  for (t = 0; t < l->nwarps; t++)
    wl__vec_free(l->ctx, &s->warps[t].groups);
  wl__vec_free(l->ctx, &s->decls);
  wl__free(l->ctx, s->shmem, s->shcap ? s->shcap : 1);
  wl__free(l->ctx, s->state, (size_t)l->nthreads);
  wl__free(l->ctx, s->barline, sizeof(int) * (size_t)l->nthreads);
  wl__free(l->ctx, s->ndecl, sizeof(int) * (size_t)l->nthreads);
  wl__free(l->ctx, s->slice, sizeof(uint32_t) * (size_t)l->nthreads);
  wl__free(l->ctx, s->seq, sizeof(uint32_t) * (size_t)l->nthreads);
  wl__free(l->ctx, s->irregular, (size_t)l->nthreads);
  wl__free(l->ctx, s->locals, sizeof(wl_vec) * (size_t)l->nthreads);
  wl__free(l->ctx, s->warps, sizeof(warp_st) * (size_t)l->nwarps);
  wl__free(l->ctx, s->wop, sizeof(wl_warp_op) * (size_t)l->nthreads);
  wl__free(l->ctx, s->wres, sizeof(int64_t) * (size_t)l->nthreads);
  wl__free(l->ctx, s->wresint, (size_t)l->nthreads);
  wl__free(l->ctx, s->dl, sizeof(dlane) * (size_t)l->nthreads);
  memset(s, 0, sizeof *s);
  s->block = -1;
}

static int slot_start(wl_launch *l, slot *s, int block, int sm) {
  int t;
  size_t nt = (size_t)l->nthreads;
  s->block = block;
  s->sm = sm;
  s->dyn_id = -1;
  s->shcap = l->shared_cap;
  s->shmem = wl__calloc(l->ctx, s->shcap ? s->shcap : 1);
  s->state = wl__calloc(l->ctx, nt);
  s->barline = wl__calloc(l->ctx, sizeof(int) * nt);
  s->ndecl = wl__calloc(l->ctx, sizeof(int) * nt);
  s->slice = wl__calloc(l->ctx, sizeof(uint32_t) * nt);
  s->seq = wl__calloc(l->ctx, sizeof(uint32_t) * nt);
  s->irregular = wl__calloc(l->ctx, nt);
  s->locals = wl__calloc(l->ctx, sizeof(wl_vec) * nt);
  s->warps = wl__calloc(l->ctx, sizeof(warp_st) * (size_t)l->nwarps);
  wl__vec_init(&s->decls, sizeof(shared_arr));
  if (!s->shmem || !s->state || !s->barline || !s->ndecl || !s->slice ||
      !s->seq || !s->irregular || !s->locals || !s->warps) {
    /* slot_release needs the per-thread vectors initialised */
    if (s->locals && s->warps && s->state) {
      wl__sim_slot_release(l, s);
    } else {
      wl__free(l->ctx, s->shmem, s->shcap ? s->shcap : 1);
      wl__free(l->ctx, s->state, nt);
      wl__free(l->ctx, s->barline, sizeof(int) * nt);
      wl__free(l->ctx, s->ndecl, sizeof(int) * nt);
      wl__free(l->ctx, s->slice, sizeof(uint32_t) * nt);
      wl__free(l->ctx, s->seq, sizeof(uint32_t) * nt);
      wl__free(l->ctx, s->irregular, nt);
      wl__free(l->ctx, s->locals, sizeof(wl_vec) * nt);
      wl__free(l->ctx, s->warps, sizeof(warp_st) * (size_t)l->nwarps);
      memset(s, 0, sizeof *s);
      s->block = -1;
    }
    return wl__err(l->ctx, WL_ENOMEM, "out of memory starting a block");
  }
  for (t = 0; t < l->nthreads; t++) {
    wl__vec_init(&s->locals[t], sizeof(local_arr));
  }
  if (l->cfg.defer &&
      (s->dl = wl__calloc(l->ctx, sizeof(dlane) * nt)) == NULL) {
    wl__sim_slot_release(l, s);
    return wl__err(l->ctx, WL_ENOMEM, "out of memory starting a block");
  }
  for (t = 0; t < l->nwarps; t++) {
    int n = l->nthreads - t * 32;
    wl__vec_init(&s->warps[t].groups, sizeof(group));
    s->warps[t].alive = n >= 32 ? 0xffffffffu : (1u << n) - 1;
  }
  l->slot_of[block] = (int)(s - l->slots);
  l->sms[sm].resident++;
  if (l->chk != NULL &&
      wl__chk_block_start(l->chk, (int)(s - l->slots), block) != 0)
    return WL_ENOMEM;
  return 0;
}

/* Places waiting blocks on SMs with room, in block order, round-robin
 * over the SMs as the hardware's block scheduler does. */
int wl__sim_admit(wl_launch *l) {
  int i, rc;
  for (i = 0; i < l->nslots && l->next_block < l->nblocks; i++) {
    slot *s = &l->slots[i];
    int sm, k;
    if (s->block >= 0)
      continue;
    sm = l->next_block % l->nsms;
    for (k = 0; k < l->nsms; k++) {
      if (l->sms[(sm + k) % l->nsms].resident < l->occ.blocks_per_sm)
        break;
    }
    if (k == l->nsms)
      return 0;
    if ((rc = slot_start(l, s, l->next_block, (sm + k) % l->nsms)) != 0)
      return rc;
    /* a part of a split launch runs every part_n-th block */
    l->next_block += l->cfg.part_n > 0 ? l->cfg.part_n : 1;
  }
  return 0;
}

static int pick_warp(wl_launch *l, slot **ps, int *pw) {
  int total = l->nslots * l->nwarps, start, k;
  if (total == 0)
    return 0;
  start = pick(&l->rng, total);
  for (k = 0; k < total; k++) {
    int i = (start + k) % total, si = i / l->nwarps, w = i % l->nwarps, t;
    slot *s = &l->slots[si];
    if (s->block < 0)
      continue;
    for (t = w * 32; t < w * 32 + 32 && t < l->nthreads; t++)
      if (s->state[t] == WL_LANE_RUNNABLE) {
        *ps = s;
        *pw = w;
        return 1;
      }
  }
  return 0;
}

/* Whether a warp other than w of s has a runnable lane. */
static int others_run(const wl_launch *l, const slot *s, int w) {
  int i, t;
  for (i = 0; i < l->nslots; i++) {
    const slot *o = &l->slots[i];
    if (o->block < 0)
      continue;
    for (t = 0; t < l->nthreads; t++)
      if (o->state[t] == WL_LANE_RUNNABLE && (o != s || t / 32 != w))
        return 1;
  }
  return 0;
}

/* A turn of warp w of s, some of whose lanes wait out a gpu/sys-scope
 * fence.sc (the profile's stall), as the sampler's wait_turn: while the
 * wait lasts and something could change meanwhile (another warp runs
 * or a store is pending), the turn counts one of the wait.  Lanes of w
 * not waiting run in it (their accesses take the memory system's
 * steps); when none does, the whole turn is spent waiting and the
 * memory system takes the step it takes beside any turn (drains and
 * evictions, wl__sim_drain_step: the sampler draws its drain chance
 * before every turn, a waiting one too).  1 when the whole turn is
 * spent waiting (it is no step); 0 when lanes of w run (the waiting
 * ones after `stall` turns of the wait). */
static int waited_turn(wl_launch *l, slot *s, int w) {
  warp_st *ws = &s->warps[w];
  int t, hi = w * 32 + 32 < l->nthreads ? w * 32 + 32 : l->nthreads;
  if (ws->stall > 0 && (l->npend > 0 || others_run(l, s, w))) {
    ws->stall--;
    for (t = w * 32; t < hi; t++)
      if (s->state[t] == WL_LANE_RUNNABLE && !(ws->stalled >> (t % 32) & 1))
        return 0; /* lanes not waiting run */
    wl__sim_drain_step(l, s->sm);
    return 1;
  }
  ws->stalled = 0;
  ws->stall = 0;
  return 0;
}

static void launch_release(wl_launch *l) {
  int i;
  if (l->slots)
    for (i = 0; i < l->nslots; i++)
      wl__sim_slot_release(l, &l->slots[i]);
  if (l->sms)
    for (i = 0; i < l->nsms; i++) {
      wl__vec_free(l->ctx, &l->sms[i].dpend);
      wl__cache_free(l->sms[i].pl1);
      wl__cache_free(l->sms[i].pconst);
    }
  wl__free(l->ctx, l->sms, sizeof(sm_st) * (size_t)l->nsms);
  wl__free(l->ctx, l->slots, sizeof(slot) * (size_t)l->nslots);
  wl__free(l->ctx, l->slot_of, sizeof(int) * (size_t)l->nblocks);
  l->sms = NULL;
  l->slots = NULL;
  l->slot_of = NULL;
  l->pl2 = NULL;
}

void wl_launch_free(wl_launch *l) {
  if (l == NULL)
    return;
  launch_release(l);
  wl__chk_free(l->chk);
  wl__sim_touch_free(l);
  wl__vec_free(l->ctx, &l->finds);
  wl__vec_free(l->ctx, &l->sites);
  wl__free(l->ctx, l->site_hash, sizeof(int) * (size_t)l->site_hash_n);
  wl__free(l->ctx, l, sizeof *l);
}

static int setup(wl_device *d, const wl_launch_cfg *cfg, wl_launch *l) {
  const wl_device_cfg *c = &d->cfg;
  int i, rc;
  uint64_t nb;
  for (i = 0; i < 3; i++) {
    l->gdim[i] = dim(cfg->grid[i]);
    l->bdim[i] = dim(cfg->block[i]);
    if (cfg->grid[i] < 0 || cfg->block[i] < 0)
      return wl__err(d->ctx, WL_EINVAL, "negative launch dimension");
  }
  if (wl_size_mul((uint64_t)l->gdim[0], (uint64_t)l->gdim[1], &nb) != 0 ||
      wl_size_mul(nb, (uint64_t)l->gdim[2], &nb) != 0)
    nb = UINT64_MAX;
  if (nb > (1u << 24))
    return wl__err(d->ctx, WL_ELIMIT,
                   "a grid of %llu blocks is too large to simulate (16M)",
                   (unsigned long long)nb);
  l->nblocks = (int)nb;
  l->nrun = l->nblocks;
  if (cfg->part_n > 0) {
    if (cfg->part_k < 0 || cfg->part_k >= cfg->part_n)
      return wl__err(d->ctx, WL_EINVAL,
                     "launch: part %d of %d does not exist", cfg->part_k,
                     cfg->part_n);
    l->nrun = cfg->part_k < l->nblocks
                  ? (l->nblocks - cfg->part_k + cfg->part_n - 1) / cfg->part_n
                  : 0;
    l->next_block = cfg->part_k;
  } else if (cfg->part_n < 0) {
    return wl__err(d->ctx, WL_EINVAL, "launch: negative part count");
  }
  if ((uint64_t)l->bdim[0] * (uint64_t)l->bdim[1] * (uint64_t)l->bdim[2] >
      (uint64_t)c->max_threads_per_block)
    return wl__err(d->ctx, WL_EINVAL,
                   "a block of %d x %d x %d threads exceeds the device's %d "
                   "threads per block",
                   l->bdim[0], l->bdim[1], l->bdim[2],
                   c->max_threads_per_block);
  l->nthreads = l->bdim[0] * l->bdim[1] * l->bdim[2];
  l->nwarps = (l->nthreads + 31) / 32;
  if (cfg->run_warp == NULL)
    return wl__err(d->ctx, WL_EINVAL, "wl_launch_run: run_warp is NULL");
  if ((rc = wl_device_occupancy(d, cfg, &l->occ)) != 0)
    return rc;
  l->shared_cap = (uint64_t)cfg->static_shared + cfg->dynamic_shared;
  l->nsms = c->sms;
  /* _plain: the drains look at every SM (memory.c) */
  l->sbtop = l->cfg.plain ? l->nsms : 0;
  {
    uint64_t ns = (uint64_t)l->nsms * (uint64_t)l->occ.blocks_per_sm;
    l->nslots = (int)(ns < nb ? ns : nb);
  }
  l->slots = wl__calloc(d->ctx, sizeof(slot) * (size_t)l->nslots);
  l->slot_of = wl__alloc(d->ctx, sizeof(int) * (size_t)l->nblocks);
  l->sms = wl__calloc(d->ctx, sizeof(sm_st) * (size_t)l->nsms);
  l->site_hash_n = 4096;
  l->site_hash = wl__alloc(d->ctx, sizeof(int) * (size_t)l->site_hash_n);
  if (!l->slots || !l->slot_of || !l->sms || !l->site_hash)
    return wl__err(d->ctx, WL_ENOMEM, "out of memory");
  for (i = 0; i < l->site_hash_n; i++)
    l->site_hash[i] = -1;
  for (i = 0; i < l->nblocks; i++)
    l->slot_of[i] = -1;
  for (i = 0; i < l->nslots; i++)
    l->slots[i].block = -1;
  if (cfg->check & WL_CHECK_ALL) {
    wl__chk_cfg cc;
    cc.flags = cfg->check & WL_CHECK_ALL;
    cc.nblocks = l->nblocks;
    cc.nthreads = l->nthreads;
    cc.nslots = l->nslots;
    cc.plain = cfg->plain;
    for (i = 0; i < 3; i++) {
      cc.gdim[i] = l->gdim[i];
      cc.bdim[i] = l->bdim[i];
    }
    if ((rc = wl__chk_new(d->ctx, &cc, &l->chk)) != 0)
      return rc;
  }
  {
    wl_cache_cfg l1c, cc;
    uint32_t l1bytes = c->l1_shared_bytes - l->occ.shared_per_sm;
    l1c.size_bytes = l1bytes;
    l1c.line_bytes = c->l1_line;
    l1c.sector_bytes = c->l1_sector;
    l1c.ways = c->l1_ways;
    cc.size_bytes = c->const_cache_bytes;
    cc.line_bytes = c->const_line;
    cc.sector_bytes = c->const_line;
    cc.ways = c->const_cache_bytes / c->const_line < 4
                  ? c->const_cache_bytes / c->const_line
                  : 4;
    if (d->l2 == NULL && (rc = wl__sim_device_l2(d)) != 0)
      return rc;
    l->pl2 = d->l2;
    wl__vec_init(&l->l2log, sizeof(l2look));
    l->l1c = l1c;
    l->cc = cc;
    l->has_l1 = l1bytes >= c->l1_line * c->l1_ways;
    for (i = 0; i < l->nsms; i++) {
      sm_st *m = &l->sms[i];
      wl__vec_init(&m->dpend, sizeof(dpend));
    }
  }
  return 0;
}

int wl_launch_run(wl_device *d, const wl_launch_cfg *cfg, wl_launch **out) {
  wl_launch *l;
  int rc = 0, i;
  if (out)
    *out = NULL;
  if (d->running)
    return wl__err(d->ctx, WL_EINVAL,
                   "a launch is already running on this device (launches "
                   "do not nest)");
  if ((l = wl__calloc(d->ctx, sizeof *l)) == NULL)
    return wl__err(d->ctx, WL_ENOMEM, "out of memory");
  l->dev = d;
  l->ctx = d->ctx;
  l->cfg = *cfg;
  if (l->cfg.slice <= 0)
    l->cfg.slice = 64;
  if (l->cfg.max_steps == 0)
    l->cfg.max_steps = 10000000;
  if (l->cfg.schedule < WL_SCHED_INDEPENDENT ||
      l->cfg.schedule > WL_SCHED_RANDOM) {
    wl__free(d->ctx, l, sizeof *l);
    return wl__err(d->ctx, WL_EINVAL, "launch: unknown lane schedule %d",
                   cfg->schedule);
  }
  if (cfg->profile < 0 || cfg->profile >= WL_NPROFILES) {
    wl__free(d->ctx, l, sizeof *l);
    return wl__err(d->ctx, WL_EINVAL, "launch: unknown profile %d",
                   cfg->profile);
  }
  wl__vec_init(&l->finds, sizeof(wl_finding));
  l->prof = &wl__profiles[cfg->profile];
  l->bank_shift = -1;
  for (i = 0; i < 16; i++)
    if (d->cfg.bank_bytes == 1 << i)
      l->bank_shift = i;
  /* xorshift: never 0; a part of a split launch draws from (seed, part) */
  l->rng = wl__splitmix(cfg->part_n > 0
                            ? wl__splitmix(cfg->seed) ^
                                  (uint64_t)(cfg->part_k + 1) *
                                      0x9e3779b97f4a7c15ull
                            : cfg->seed) |
           1;
  wl__vec_init(&l->sites, sizeof(site));
  if ((rc = setup(d, cfg, l)) != 0) {
    wl_launch_free(l);
    return rc;
  }
  if (out)
    *out = l;
  d->running = 1;
  /* without the uninitialised-read checker, stores are not tracked: the
   * launch may have written any word */
  if (!(cfg->check & WL_CHECK_UNINIT))
    for (i = 0; i < (int)d->allocs.n; i++)
      WL_VEC_PTR(&d->allocs, alloc, (size_t)i)->all_written = 1;
  rc = wl__sim_admit(l);
  while (rc == 0 && l->done_blocks < l->nrun) {
    slot *s;
    int w, b;
    uint32_t alive;
    if (!pick_warp(l, &s, &w)) {
      rc = wl__err(d->ctx, WL_ERUNTIME,
                   "%s: the kernel cannot make progress (no runnable warp)",
                   cfg->source ? cfg->source : "kernel");
      snprintf(l->err, sizeof l->err, "%s", wl_ctx_errmsg(d->ctx));
      break;
    }
    if (s->warps[w].stalled != 0 && waited_turn(l, s, w))
      continue;
    if (++l->steps > l->cfg.max_steps) {
      char msg[200];
      snprintf(msg, sizeof msg,
               "the kernel ran %llu warp steps without finishing (a "
               "spin loop that never ends?); this thread's last access was "
               "here; raise max_steps if the kernel is just long",
               (unsigned long long)l->cfg.max_steps);
      rc = wl_kernel_fail(l, l->last_block, l->last_thread, NULL,
                          l->last_line, msg);
      break;
    }
    if (cfg->should_stop && (l->steps & 1023) == 0 &&
        cfg->should_stop(cfg->stop_ud)) {
      rc = wl__err(d->ctx, WL_ESTOPPED, "launch stopped");
      break;
    }
    b = s->block;
    alive = s->warps[w].alive;
    rc = cfg->run_warp(cfg->ud, l, b, w);
    if (rc == 0 && l->failed)
      rc = WL_ERUNTIME;
    if (rc != 0)
      break;
    /* a turn in which lanes of the warp ended is one more step of the
     * memory system, as the sampler's thread takes a step of its own past
     * its last instruction (before which its drain chance is drawn) */
    if (s->warps[w].alive != alive)
      wl__sim_drain_step(l, s->sm);
    rc = wl__sim_settle(l, s, w);
  }
  if (rc != 0 && l->err[0] == 0)
    snprintf(l->err, sizeof l->err, "%s", wl_ctx_errmsg(d->ctx));
  /* the kernel boundary: every store reaches L2; blocks still resident
   * after a failure are dropped.  After the last lane, the memory system
   * takes its steps alone, as the sampler's does once every thread is
   * done (its steps are all drains then): buffers picked at random, in
   * the profile's order within each (reorder), so that the stores of
   * different SMs still reach L2 in either order.  (Each
   * wl__sim_drain_step drains with chance drain until it stops.) */
  if (rc == 0 && l->prof->drain > 0)
    while (l->npend > 0)
      wl__sim_drain_step(l, 0);
  for (i = 0; i < l->nsms; i++)
    wl__sim_drain_all(l, &l->sms[i]);
  if (cfg->track) { /* what it wrote, while the device still holds it */
    int rk = wl__sim_touch_keep(l);
    if (rc == 0)
      rc = rk;
  }
  if (rc != 0 && cfg->block_done)
    for (i = 0; i < l->nslots; i++)
      if (l->slots[i].block >= 0)
        cfg->block_done(cfg->ud, l, l->slots[i].block);
  launch_release(l);
  if (l->chk != NULL) {
    int k, n = wl__chk_nfindings(l->chk);
    for (k = 0; k < n; k++) {
      wl_finding *f = wl__vec_push(d->ctx, &l->finds);
      if (f == NULL)
        break; /* findings lost to memory */
      *f = *wl__chk_finding(l->chk, k);
    }
    wl__chk_free(l->chk);
    l->chk = NULL;
  }
  d->running = 0;
  if (rc != 0 && l->err[0])
    wl__err(d->ctx, rc, "%s", l->err);
  if (out == NULL)
    wl_launch_free(l);
  return rc;
}
