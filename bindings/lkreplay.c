/* lkreplay.c -- deferred loads in per-thread kernels, by replay (the
 * sampler's method for callback threads, engine/sim/cbreplay.c).  The
 * engine may defer a lane's load (engine/sim/defer.c): the lane goes on
 * with the value the load read at issue, and when the load is performed
 * later and reads another value, the engine call that performed it
 * returns WL_KERNEL_REPLAY.  The lane's code cannot be rewound, so it is
 * run again: a fresh coroutine runs the kernel function from its start
 * with the same context and arguments, in replay mode, where each access
 * and fence returns the result logged for the lane (the new value for
 * that load) without reaching the device, and must be the event the log
 * holds (kind, memory, offset, width, semantics, scope, cache operator,
 * operands, stored bytes).  Once it has made every logged event, its
 * next device call is where the lane stopped: it is suspended at the
 * gate of that call (lkernel.c) and takes the lane's place, the call
 * being made for real when the lane next runs.  If it makes another
 * event first, ends, fails, or does what the log cannot repeat, it is
 * dropped and the load keeps its first value (performed at issue: an
 * execution the model allows too).
 *
 * So a kernel's Lua code before the load runs again, as a callback
 * thread of sample{fn=} does: its effects outside the device (a Lua
 * table it fills, a counter) are repeated.  A lane stops logging (its
 * loads are no longer deferred, wl_kernel_defer_lane) once it declares
 * shared or local arrays, waits at a barrier, makes a warp operation, or
 * logs more than 512 events (lkrlog.c); dev:launch's defer = false turns it
 * all off.  The log and running a replay are lkrlog.c's (shared with
 * warp-vector kernels' lwreplay.c); the lane's events are this file's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lkernel.h"

typedef struct dev_ev {
  wll_ev_head h;
  uint64_t off;
  int64_t a, b;
  uint8_t in[16], out[16];
} dev_ev;

/* The lane's next log entry, zeroed (NULL: the lane logs nothing). */
static dev_ev *log_next(lua_State *L, krun *r) {
  return wll_rlog_next(L, r, sizeof(dev_ev));
}

static const dev_ev *log_at(const wll_rlog *g, uint32_t i) {
  return (const dev_ev *)g->ev + i;
}

static void fill(dev_ev *e, const wl_access *a, const void *data) {
  wll_ev_head_set(&e->h, a);
  e->off = a->off;
  e->a = a->a;
  e->b = a->b;
  if (a->kind == WL_ACC_STORE)
    memcpy(e->in, data, (size_t)a->width);
  else
    memcpy(e->out, data, (size_t)a->width);
}

void wll_log_access(lua_State *L, krun *r, const wl_access *a,
                    const void *data) {
  dev_ev *e = log_next(L, r);
  if (e != NULL)
    fill(e, a, data);
}

void wll_log_fence(lua_State *L, krun *r, int sem, int scope) {
  dev_ev *e = log_next(L, r);
  if (e != NULL) {
    e->h.kind = WLL_EV_FENCE;
    e->h.sem = (int8_t)sem;
    e->h.scope = (int8_t)scope;
  }
}

int wll_wait_store(lua_State *L, krun *r, const wl_access *a,
                   const void *data, lua_KFunction k) {
  if (r->log == NULL) /* (a lane with deferred loads has a log) */
    return luaL_error(L, "warplab: a store waits without a log");
  r->log->wacc = *a;
  memcpy(r->log->wbuf, data, (size_t)a->width);
  return lua_yieldk(L, 0, 0, k);
}

void wll_waited_store(krun *r, wl_access *a, void *data) {
  *a = r->log->wacc;
  memcpy(data, r->log->wbuf, 16);
}

int wll_replay_access(lua_State *L, krun *r, const wl_access *a,
                      void *data) {
  wll_replay *p = r->rp;
  dev_ev now;
  const dev_ev *e;
  if (p->pos >= p->n) /* past the lane's point inside one call */
    return wll_replay_fail(L, r);
  e = log_at(p->log, p->pos);
  memset(&now, 0, sizeof now);
  fill(&now, a, data);
  if (memcmp(&now.h, &e->h, sizeof now.h) != 0 || now.off != e->off ||
      now.a != e->a || now.b != e->b ||
      (a->kind == WL_ACC_STORE &&
       memcmp(now.in, e->in, (size_t)a->width) != 0))
    return wll_replay_fail(L, r);
  if (a->kind != WL_ACC_STORE)
    memcpy(data, p->pos == p->k ? p->v : e->out, (size_t)a->width);
  p->pos++;
  return 0;
}

int wll_replay_fence(lua_State *L, krun *r, int sem, int scope) {
  wll_replay *p = r->rp;
  const dev_ev *e;
  if (p->pos >= p->n)
    return wll_replay_fail(L, r);
  e = log_at(p->log, p->pos);
  if (e->h.kind != WLL_EV_FENCE || e->h.sem != sem || e->h.scope != scope)
    return wll_replay_fail(L, r);
  p->pos++;
  return 0;
}

/* The engine asked for a replay of the running lane (its call returned
 * WL_KERNEL_REPLAY; L is the lane's coroutine, inside that call).
 * Returns 0 when the load keeps its first value (the caller makes its
 * call again); on success the replay has taken the lane's place in its
 * block's table and L yields for good (this does not return). */
int wll_replay_run(lua_State *L, krun *r) {
  wll_replay p;
  uint32_t ev;
  memset(&p, 0, sizeof p);
  p.width = wl_kernel_replay_load(r->l, r->block, r->thread, &ev, p.v);
  if (p.width == 0 || r->log == NULL || ev >= r->log->n ||
      log_at(r->log, ev)->h.kind != WL_ACC_LOAD ||
      log_at(r->log, ev)->h.width != p.width)
    return 0; /* nothing this lane can replay: the first value stands */
  p.k = ev;
  if (!wll_rlog_replay(L, r, &p))
    return 0;
  /* the replay stands: its load's value is the lane's now, and its
   * coroutine runs the lane from the call it stopped at */
  memcpy(((dev_ev *)r->log->ev + ev)->out, p.v, (size_t)p.width);
  return wll_rlog_take_place(L, r);
}
