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
 * logs more than WLL_LOG_MAX events; dev:launch's defer = false turns it
 * all off.  The log lives in the block's table at key -(thread + 1)
 * from the lane's first event until it stops logging or ends. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lkernel.h"

#define WLL_LOG_MAX 512
#define WLL_LOG_MT "warplab.KernelLog"
enum { EV_FENCE = 3 }; /* after WL_ACC_* */

typedef struct dev_ev {
  int8_t kind, width, space, sem, scope, cache, op, type;
  int id;
  uint64_t off;
  int64_t a, b;
  uint8_t in[16], out[16];
} dev_ev;

struct wll_dlog {
  uint32_t n, cap;
  dev_ev *ev;
  wl_access wacc; /* a store waiting for the lane's deferred loads */
  uint8_t wbuf[16];
};

enum { RP_RUN = WLL_RP_RUN, RP_REACHED = WLL_RP_REACHED,
       RP_FAILED = WLL_RP_FAILED };

static int log_gc(lua_State *L) {
  wll_dlog *g = lua_touserdata(L, 1);
  free(g->ev);
  g->ev = NULL;
  g->n = g->cap = 0;
  return 0;
}

/* Sets the running lane's entry in its block's table (on r->L's stack
 * at r->btab) to the value at the top of L's stack, popped. */
static void set_entry(lua_State *L, krun *r) {
  lua_pushvalue(r->L, r->btab);
  lua_xmove(r->L, L, 1);
  lua_insert(L, -2);
  lua_rawseti(L, -2, -(lua_Integer)r->thread - 1);
  lua_pop(L, 1);
}

void wll_log_stop(lua_State *L, krun *r) {
  if (!r->defer || r->lane_log == WLL_LOG_DEAD || r->rp != NULL)
    return;
  wl_kernel_defer_lane(r->l, r->block, r->thread, 0);
  r->lane_log = WLL_LOG_DEAD;
  if (r->log != NULL) {
    r->log = NULL;
    lua_pushnil(L);
    set_entry(L, r);
  }
}

/* The lane's next log entry (NULL: the lane logs nothing). */
static dev_ev *log_next(lua_State *L, krun *r) {
  wll_dlog *g = r->log;
  if (r->lane_log == WLL_LOG_DEAD)
    return NULL;
  if (g == NULL) {
    g = lua_newuserdatauv(L, sizeof *g, 0);
    memset(g, 0, sizeof *g);
    if (luaL_newmetatable(L, WLL_LOG_MT)) {
      lua_pushcfunction(L, log_gc);
      lua_setfield(L, -2, "__gc");
    }
    lua_setmetatable(L, -2);
    set_entry(L, r);
    r->log = g;
    r->lane_log = WLL_LOG_ON;
  }
  if (g->n == g->cap) {
    uint32_t cap = g->cap ? g->cap * 2 : 16;
    dev_ev *e;
    if (g->n >= WLL_LOG_MAX || (e = realloc(g->ev, cap * sizeof *e)) == NULL) {
      wll_log_stop(L, r); /* too long to replay */
      return NULL;
    }
    g->ev = e;
    g->cap = cap;
  }
  return &g->ev[g->n++];
}

static void fill(dev_ev *e, const wl_access *a, const void *data) {
  memset(e, 0, sizeof *e);
  e->kind = (int8_t)a->kind;
  e->width = (int8_t)a->width;
  e->space = (int8_t)a->space;
  e->sem = (int8_t)a->sem;
  e->scope = (int8_t)a->scope;
  e->cache = (int8_t)a->cache;
  e->op = (int8_t)a->op;
  e->type = (int8_t)a->type;
  e->id = a->id;
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
    memset(e, 0, sizeof *e);
    e->kind = EV_FENCE;
    e->sem = (int8_t)sem;
    e->scope = (int8_t)scope;
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

int wll_replay_fail(lua_State *L, krun *r) {
  r->rp->state = RP_FAILED;
  return lua_yield(L, 0); /* the replay is dropped, never resumed */
}

int wll_replay_access(lua_State *L, krun *r, const wl_access *a,
                      void *data) {
  wll_replay *p = r->rp;
  wll_dlog *g = p->log;
  dev_ev now;
  const dev_ev *e;
  if (p->pos >= p->n) /* past the lane's point inside one call */
    return wll_replay_fail(L, r);
  e = &g->ev[p->pos];
  fill(&now, a, data);
  if (now.kind != e->kind || now.width != e->width ||
      now.space != e->space || now.sem != e->sem || now.scope != e->scope ||
      now.cache != e->cache || now.op != e->op || now.type != e->type ||
      now.id != e->id || now.off != e->off || now.a != e->a ||
      now.b != e->b ||
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
  e = &((wll_dlog *)p->log)->ev[p->pos];
  if (e->kind != EV_FENCE || e->sem != sem || e->scope != scope)
    return wll_replay_fail(L, r);
  p->pos++;
  return 0;
}

int wll_replay_reached(krun *r) {
  if (r->rp->pos < r->rp->n)
    return 0;
  r->rp->state = RP_REACHED;
  return 1;
}

/* The engine asked for a replay of the running lane (its call returned
 * WL_KERNEL_REPLAY; L is the lane's coroutine, inside that call).
 * Returns 0 when the load keeps its first value (the caller makes its
 * call again); on success the replay has taken the lane's place in its
 * block's table and L yields for good (this does not return). */
int wll_replay_run(lua_State *L, krun *r) {
  lctx *x = (lctx *)r;
  wll_replay p;
  lua_State *co, *lane = r->co;
  int nargs, nres = 0, status, top = lua_gettop(L);
  uint32_t ev;
  memset(&p, 0, sizeof p);
  p.width = wl_kernel_replay_load(r->l, r->block, r->thread, &ev, p.v);
  if (p.width == 0 || r->log == NULL || ev >= r->log->n ||
      r->log->ev[ev].kind != WL_ACC_LOAD ||
      r->log->ev[ev].width != p.width)
    return 0; /* nothing this lane can replay: the first value stands */
  p.log = r->log;
  p.n = r->log->n;
  p.k = ev;
  p.state = RP_RUN;
  co = wll_lane_co(r->L, x, r->block, r->thread, 0, &nargs);
  lua_xmove(r->L, L, 1); /* anchored on the lane's stack */
  r->rp = &p;
  r->co = co;
  status = lua_resume(co, L, nargs, &nres);
  r->co = lane;
  r->rp = NULL;
  if (status != LUA_YIELD || p.state != RP_REACHED) {
    lua_settop(L, top);
    return 0;
  }
  /* the replay stands: its load's value is the lane's now, and its
   * coroutine runs the lane from the call it stopped at */
  memcpy(r->log->ev[ev].out, p.v, (size_t)p.width);
  lua_pushvalue(r->L, r->btab);
  lua_xmove(r->L, L, 1);
  lua_pushvalue(L, -2);
  lua_rawseti(L, -2, (lua_Integer)r->thread + 1);
  lua_settop(L, top);
  return lua_yield(L, 0);
}

/* Looks up the log of lane t in the block table at btab (L's stack) and
 * sets r's state for it (a lane the engine no longer defers for has
 * none: no look-up). */
void wll_log_lookup(lua_State *L, krun *r, int btab, int t) {
  int ty;
  r->btab = btab;
  r->log = NULL;
  if (wl_kernel_defer_lane(r->l, r->block, t, -1) != 1) {
    r->lane_log = WLL_LOG_DEAD;
    return;
  }
  ty = lua_rawgeti(L, btab, -(lua_Integer)t - 1);
  r->log = ty == LUA_TUSERDATA ? lua_touserdata(L, -1) : NULL;
  r->lane_log = r->log != NULL ? WLL_LOG_ON : WLL_LOG_FRESH;
  lua_pop(L, 1);
}
