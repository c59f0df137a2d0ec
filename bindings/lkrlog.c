/* lkrlog.c -- the event log that deferred loads replay, for both kinds
 * of kernel: a lane of a per-thread kernel (lkreplay.c: one event per
 * access or fence) and a warp of a warp-vector kernel (lwreplay.c: one
 * event per warp-wide call).  Here is what they share: the log itself
 * (a userdata of fixed-size events, grown up to a bound), kept in the
 * block's table at key -(unit + 1) (the unit: the lane's thread index,
 * or the warp's index) from the unit's first event until it stops
 * logging or ends; the unit's log state in krun (lane_log, log); and
 * running a replay: a fresh coroutine runs the kernel function from its
 * start in replay mode (r->rp), and once it has made every logged event
 * it takes the unit's place in the block's table.  What an event holds,
 * how it is logged and how a replayed call is matched against it are the
 * two files' own. */
#include <stdlib.h>
#include <string.h>

#include "lkernel.h"

#define WLL_RLOG_MT "warplab.KernelLog"

/* the events of a lane (per-thread kernels) and of a warp */
#define LANE_EV_MAX 512
#define LANE_EV_CAP0 16
#define WARP_EV_MAX 128
#define WARP_EV_CAP0 8

static int rlog_gc(lua_State *L) {
  wll_rlog *g = lua_touserdata(L, 1);
  free(g->ev);
  g->ev = NULL;
  g->n = g->cap = 0;
  return 0;
}

/* The running unit: the lane's thread, or the warp. */
static int unit_of(const krun *r) { return r->warp_mode ? r->warp : r->thread; }

/* Sets the running unit's entry in its block's table (on r->L's stack at
 * r->btab) to the value at the top of L's stack, popped. */
static void set_entry(lua_State *L, krun *r) {
  lua_pushvalue(r->L, r->btab);
  lua_xmove(r->L, L, 1);
  lua_insert(L, -2);
  lua_rawseti(L, -2, -(lua_Integer)unit_of(r) - 1);
  lua_pop(L, 1);
}

void wll_rlog_stop(lua_State *L, krun *r) {
  int k;
  if (!r->defer || r->lane_log == WLL_LOG_DEAD || r->rp != NULL)
    return;
  if (!r->warp_mode)
    wl_kernel_defer_lane(r->l, r->block, r->thread, 0);
  else
    for (k = 0; k < 32; k++)
      if (r->exist >> k & 1)
        wl_kernel_defer_lane(r->l, r->block, r->warp * 32 + k, 0);
  r->lane_log = WLL_LOG_DEAD;
  if (r->log != NULL) {
    r->log = NULL;
    lua_pushnil(L);
    set_entry(L, r);
  }
}

void *wll_rlog_next(lua_State *L, krun *r, size_t esize) {
  wll_rlog *g = r->log;
  unsigned char *e;
  if (!r->defer || r->lane_log == WLL_LOG_DEAD)
    return NULL;
  if (g == NULL) {
    g = lua_newuserdatauv(L, sizeof *g, 0);
    memset(g, 0, sizeof *g);
    g->esize = esize;
    if (luaL_newmetatable(L, WLL_RLOG_MT)) {
      lua_pushcfunction(L, rlog_gc);
      lua_setfield(L, -2, "__gc");
    }
    lua_setmetatable(L, -2);
    set_entry(L, r);
    r->log = g;
    r->lane_log = WLL_LOG_ON;
  }
  if (g->n == g->cap) {
    uint32_t max = r->warp_mode ? WARP_EV_MAX : LANE_EV_MAX;
    uint32_t cap = g->cap ? g->cap * 2
                          : r->warp_mode ? WARP_EV_CAP0 : LANE_EV_CAP0;
    if (g->n >= max || (e = realloc(g->ev, cap * g->esize)) == NULL) {
      wll_rlog_stop(L, r); /* too long to replay */
      return NULL;
    }
    g->ev = e;
    g->cap = cap;
  }
  e = g->ev + g->n++ * g->esize;
  memset(e, 0, g->esize);
  return e;
}

void wll_rlog_lookup(lua_State *L, krun *r, int btab, int unit) {
  int ty;
  r->btab = btab;
  r->log = NULL;
  if (wl_kernel_defer_lane(r->l, r->block, r->warp_mode ? unit * 32 : unit,
                           -1) != 1) {
    r->lane_log = WLL_LOG_DEAD;
    return;
  }
  ty = lua_rawgeti(L, btab, -(lua_Integer)unit - 1);
  r->log = ty == LUA_TUSERDATA ? lua_touserdata(L, -1) : NULL;
  r->lane_log = r->log != NULL ? WLL_LOG_ON : WLL_LOG_FRESH;
  lua_pop(L, 1);
}

void wll_ev_head_set(wll_ev_head *h, const wl_access *a) {
  memset(h, 0, sizeof *h);
  h->kind = (int8_t)a->kind;
  h->width = (int8_t)a->width;
  h->space = (int8_t)a->space;
  h->sem = (int8_t)a->sem;
  h->scope = (int8_t)a->scope;
  h->cache = (int8_t)a->cache;
  h->op = (int8_t)a->op;
  h->type = (int8_t)a->type;
  h->id = a->id;
}

int wll_replay_fail(lua_State *L, krun *r) {
  r->rp->state = WLL_RP_FAILED;
  return lua_yield(L, 0); /* the replay is dropped, never resumed */
}

int wll_replay_reached(krun *r) {
  if (r->rp->pos < r->rp->n)
    return 0;
  r->rp->state = WLL_RP_REACHED;
  return 1;
}

int wll_rlog_replay(lua_State *L, krun *r, wll_replay *p) {
  lctx *x = (lctx *)r;
  lua_State *co, *running = r->co;
  uint32_t active = r->active;
  int nargs, nres = 0, status, top = lua_gettop(L), unit = unit_of(r);
  p->log = r->log;
  p->n = r->log->n;
  p->state = WLL_RP_RUN;
  co = wll_lane_co(r->L, x, r->block, unit, r->warp_mode, &nargs);
  lua_xmove(r->L, L, 1); /* anchored on the running unit's stack */
  r->rp = p;
  r->co = co;
  if (r->warp_mode)
    r->active = r->exist; /* as the warp started */
  status = lua_resume(co, L, nargs, &nres);
  r->co = running;
  r->rp = NULL;
  if (status != LUA_YIELD || p->state != WLL_RP_REACHED) {
    r->active = active;
    lua_settop(L, top);
    return 0;
  }
  return 1;
}

int wll_rlog_take_place(lua_State *L, krun *r) {
  lua_pushvalue(r->L, r->btab);
  lua_xmove(r->L, L, 1);
  lua_pushvalue(L, -2);
  lua_rawseti(L, -2, (lua_Integer)unit_of(r) + 1);
  lua_pop(L, 2);
  return lua_yield(L, 0);
}
