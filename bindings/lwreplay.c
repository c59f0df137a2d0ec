/* lwreplay.c -- deferred loads in warp-vector kernels, by replaying the
 * warp (lkreplay.c does it for the lanes of per-thread kernels).  The
 * engine defers each lane's loads on its own (engine/sim/defer.c) and
 * numbers each lane's events, a warp-wide access or fence counting one
 * for every lane of its mask; when one lane's deferred load reads a new
 * value, the warp-wide call that performed it (wl_kernel_access_warp,
 * wl_kernel_fence_warp) does nothing else and returns WL_KERNEL_REPLAY.
 * A warp's coroutine cannot be rewound, so the kernel function runs
 * again in a fresh one, in replay mode: each warp-wide access and fence
 * returns the results logged for the warp (the new value for that lane's
 * load) without reaching the device, and must be the call the log holds
 * (kind, memory, semantics, scope, cache operator, lane mask, and for
 * every lane of the mask its offset, operands and stored bytes).  Once
 * it has made every logged call it stops at the gate of its next device
 * call (lkernel.c) and takes the warp's place, with the active mask its
 * own w:where nesting gives; else (another call first, an error, or
 * what the log cannot repeat) it is dropped and the load keeps its first
 * value (performed at issue: an execution the model allows too).
 *
 * The warp stops logging (its lanes' loads are no longer deferred) once
 * it waits at a barrier, makes a warp operation (w:syncwarp,
 * w:shfl_sync...), declares shared memory, accesses wider elements than
 * 8 bytes, or logs more than WLL_WLOG_MAX calls.  The log lives in the
 * block's table at key -(warp + 1) from the warp's first call until it
 * stops logging or ends. */
#include <stdlib.h>
#include <string.h>

#include "lkernel.h"

#define WLL_WLOG_MAX 128
#define WLL_WLOG_MT "warplab.WarpLog"
enum { WEV_FENCE = 3 }; /* after WL_ACC_* */

/* One logged warp-wide call: the access's place and kind, the lanes of
 * its mask, and per lane (index k) the offset, operands and bytes. */
typedef struct warp_ev {
  int8_t kind, width, space, sem, scope, cache, op, type;
  int id;
  uint32_t mask;
  uint64_t off[32];
  int64_t ops[64];
  uint8_t in[32 * 8], out[32 * 8]; /* stored; loaded (or an atomic's old) */
} warp_ev;

struct wll_wlog {
  uint32_t n, cap;
  warp_ev *ev;
};

static int wlog_gc(lua_State *L) {
  wll_wlog *g = lua_touserdata(L, 1);
  free(g->ev);
  g->ev = NULL;
  g->n = g->cap = 0;
  return 0;
}

/* Sets the running warp's entry in its block's table (on r->L's stack
 * at r->btab) to the value at the top of L's stack, popped. */
static void set_entry(lua_State *L, krun *r) {
  lua_pushvalue(r->L, r->btab);
  lua_xmove(r->L, L, 1);
  lua_insert(L, -2);
  lua_rawseti(L, -2, -(lua_Integer)r->warp - 1);
  lua_pop(L, 1);
}

/* The warp logs nothing more: none of its lanes' loads is deferred. */
static void wlog_stop(lua_State *L, krun *r) {
  int k;
  if (!r->defer || r->lane_log == WLL_LOG_DEAD || r->rp != NULL)
    return;
  for (k = 0; k < 32; k++)
    if (r->exist >> k & 1)
      wl_kernel_defer_lane(r->l, r->block, r->warp * 32 + k, 0);
  r->lane_log = WLL_LOG_DEAD;
  if (r->wlog != NULL) {
    r->wlog = NULL;
    lua_pushnil(L);
    set_entry(L, r);
  }
}

void wll_wlog_unloggable(lua_State *L, krun *r) {
  if (r->rp != NULL)
    wll_replay_fail(L, r);
  wlog_stop(L, r);
}

/* The warp's next log entry (NULL: the warp logs nothing), zeroed. */
static warp_ev *wlog_next(lua_State *L, krun *r) {
  wll_wlog *g = r->wlog;
  warp_ev *e;
  if (!r->defer || r->lane_log == WLL_LOG_DEAD)
    return NULL;
  if (g == NULL) {
    g = lua_newuserdatauv(L, sizeof *g, 0);
    memset(g, 0, sizeof *g);
    if (luaL_newmetatable(L, WLL_WLOG_MT)) {
      lua_pushcfunction(L, wlog_gc);
      lua_setfield(L, -2, "__gc");
    }
    lua_setmetatable(L, -2);
    set_entry(L, r);
    r->wlog = g;
    r->lane_log = WLL_LOG_ON;
  }
  if (g->n == g->cap) {
    uint32_t cap = g->cap ? g->cap * 2 : 8;
    if (g->n >= WLL_WLOG_MAX ||
        (e = realloc(g->ev, cap * sizeof *e)) == NULL) {
      wlog_stop(L, r); /* too long to replay */
      return NULL;
    }
    g->ev = e;
    g->cap = cap;
  }
  e = &g->ev[g->n++];
  memset(e, 0, sizeof *e);
  return e;
}

static void fill_head(warp_ev *e, const wl_access *a, uint32_t mask) {
  e->kind = (int8_t)a->kind;
  e->width = (int8_t)a->width;
  e->space = (int8_t)a->space;
  e->sem = (int8_t)a->sem;
  e->scope = (int8_t)a->scope;
  e->cache = (int8_t)a->cache;
  e->op = (int8_t)a->op;
  e->type = (int8_t)a->type;
  e->id = a->id;
  e->mask = mask;
}

void wll_wlog_access(lua_State *L, krun *r, const wl_access *a,
                     uint32_t mask, const uint64_t off[32],
                     const int64_t *ops, const void *data) {
  const uint8_t *d = data;
  size_t w = (size_t)a->width;
  warp_ev *e;
  uint32_t b;
  if (a->width > 8) { /* (warp-vector arrays hold scalars) */
    wlog_stop(L, r);
    return;
  }
  if ((e = wlog_next(L, r)) == NULL)
    return;
  fill_head(e, a, mask);
  for (b = mask; b != 0; b &= b - 1) {
    int k = __builtin_ctz(b);
    e->off[k] = off[k];
    if (ops != NULL) {
      e->ops[k] = ops[k];
      e->ops[32 + k] = ops[32 + k];
    }
    memcpy(a->kind == WL_ACC_STORE ? e->in + k * w : e->out + k * w,
           d + k * w, w);
  }
}

void wll_wlog_fence(lua_State *L, krun *r, uint32_t mask, int sem,
                    int scope) {
  warp_ev *e = wlog_next(L, r);
  if (e != NULL) {
    e->kind = WEV_FENCE;
    e->sem = (int8_t)sem;
    e->scope = (int8_t)scope;
    e->mask = mask;
  }
}

int wll_wreplay_access(lua_State *L, krun *r, const wl_access *a,
                       uint32_t mask, const uint64_t off[32],
                       const int64_t *ops, void *data) {
  wll_replay *p = r->rp;
  const uint8_t *in = data;
  size_t w = (size_t)a->width;
  const warp_ev *e;
  uint32_t b;
  if (p->pos >= p->n) /* past the warp's point inside one call */
    return wll_replay_fail(L, r);
  e = &((wll_wlog *)p->log)->ev[p->pos];
  if (a->kind != e->kind || a->width != e->width || a->space != e->space ||
      a->sem != e->sem || a->scope != e->scope || a->cache != e->cache ||
      a->op != e->op || a->type != e->type || a->id != e->id ||
      mask != e->mask)
    return wll_replay_fail(L, r);
  for (b = mask; b != 0; b &= b - 1) {
    int k = __builtin_ctz(b);
    if (off[k] != e->off[k] ||
        (ops != NULL &&
         (ops[k] != e->ops[k] || ops[32 + k] != e->ops[32 + k])) ||
        (a->kind == WL_ACC_STORE && memcmp(in + k * w, e->in + k * w, w)))
      return wll_replay_fail(L, r);
  }
  if (a->kind != WL_ACC_STORE) {
    memcpy(data, e->out, 32 * w);
    if (p->pos == p->k)
      memcpy((uint8_t *)data + (size_t)p->lane * w, p->v, w);
  }
  p->pos++;
  return 0;
}

int wll_wreplay_fence(lua_State *L, krun *r, uint32_t mask, int sem,
                      int scope) {
  wll_replay *p = r->rp;
  const warp_ev *e;
  if (p->pos >= p->n)
    return wll_replay_fail(L, r);
  e = &((wll_wlog *)p->log)->ev[p->pos];
  if (e->kind != WEV_FENCE || e->sem != sem || e->scope != scope ||
      e->mask != mask)
    return wll_replay_fail(L, r);
  p->pos++;
  return 0;
}

/* A store waiting for the warp's deferred loads: kept in the block's
 * table at key WAIT_KEY - warp (a warp's coroutine stack is not kept
 * across its yields). */
#define WAIT_KEY (-((lua_Integer)1 << 40))
typedef struct wwait {
  wl_access a;
  uint32_t mask;
  uint64_t off[32];
  uint8_t data[32 * 16];
} wwait;

int wll_wwait_store(lua_State *L, krun *r, const wl_access *a,
                    uint32_t mask, const uint64_t off[32], const void *data,
                    lua_KFunction k) {
  wwait *w = lua_newuserdatauv(L, sizeof *w, 0);
  w->a = *a;
  w->mask = mask;
  memcpy(w->off, off, sizeof w->off);
  memcpy(w->data, data, 32 * (size_t)a->width);
  lua_pushvalue(r->L, r->btab);
  lua_xmove(r->L, L, 1);
  lua_insert(L, -2);
  lua_rawseti(L, -2, WAIT_KEY - r->warp);
  lua_pop(L, 1);
  return lua_yieldk(L, 0, 0, k);
}

void wll_wwaited_store(lua_State *L, krun *r, wl_access *a, uint32_t *mask,
                       uint64_t off[32], void *data) {
  const wwait *w;
  lua_pushvalue(r->L, r->btab);
  lua_xmove(r->L, L, 1);
  if (lua_rawgeti(L, -1, WAIT_KEY - r->warp) != LUA_TUSERDATA)
    luaL_error(L, "warplab: a waiting store was lost");
  w = lua_touserdata(L, -1);
  *a = w->a;
  *mask = w->mask;
  memcpy(off, w->off, sizeof w->off);
  memcpy(data, w->data, 32 * (size_t)w->a.width);
  lua_pop(L, 1);
  lua_pushnil(L);
  lua_rawseti(L, -2, WAIT_KEY - r->warp);
  lua_pop(L, 1);
}

/* The engine asked for a replay of the running warp (its warp-wide call
 * returned WL_KERNEL_REPLAY; L is the warp's coroutine, inside that
 * call).  Returns 0 when the load keeps its first value (the caller
 * makes its call again); on success the replay has taken the warp's
 * place in its block's table and L yields for good. */
int wll_wreplay_run(lua_State *L, krun *r) {
  lctx *x = (lctx *)r;
  wll_wlog *g = r->wlog;
  wll_replay p;
  lua_State *co, *warp = r->co;
  uint32_t ev = 0, i, j, active = r->active;
  int k, nargs, nres = 0, status, top = lua_gettop(L), lo = r->warp * 32;
  memset(&p, 0, sizeof p);
  for (k = 0; k < 32; k++)
    if ((r->exist >> k & 1) &&
        (p.width = wl_kernel_replay_load(r->l, r->block, lo + k, &ev,
                                         p.v)) != 0)
      break;
  if (p.width == 0 || g == NULL)
    return 0; /* nothing this warp can replay: the first value stands */
  /* lane k's event ev: the ev-th logged call whose mask holds k */
  for (i = 0, j = 0; i < g->n; i++)
    if ((g->ev[i].mask >> k & 1) && j++ == ev)
      break;
  if (i >= g->n || g->ev[i].kind != WL_ACC_LOAD ||
      g->ev[i].width != p.width)
    return 0;
  p.log = g;
  p.n = g->n;
  p.k = i;
  p.lane = k;
  p.state = WLL_RP_RUN;
  co = wll_lane_co(r->L, x, r->block, r->warp, 1, &nargs);
  lua_xmove(r->L, L, 1); /* anchored on the warp's stack */
  r->rp = &p;
  r->co = co;
  r->active = r->exist; /* as the warp started */
  status = lua_resume(co, L, nargs, &nres);
  r->co = warp;
  r->rp = NULL;
  if (status != LUA_YIELD || p.state != WLL_RP_REACHED) {
    r->active = active;
    lua_settop(L, top);
    return 0;
  }
  /* the replay stands: its load's value is the lane's now, and its
   * coroutine runs the warp from the call it stopped at, with the
   * active lanes it has there (r->active, kept by the driver) */
  memcpy(g->ev[i].out + (size_t)k * (size_t)p.width, p.v, (size_t)p.width);
  lua_pushvalue(r->L, r->btab);
  lua_xmove(r->L, L, 1);
  lua_pushvalue(L, -2);
  lua_rawseti(L, -2, (lua_Integer)r->warp + 1);
  lua_settop(L, top);
  return lua_yield(L, 0);
}

void wll_wlog_lookup(lua_State *L, krun *r, int btab, int w) {
  int ty;
  r->btab = btab;
  r->wlog = NULL;
  if (wl_kernel_defer_lane(r->l, r->block, w * 32, -1) != 1) {
    r->lane_log = WLL_LOG_DEAD;
    return;
  }
  ty = lua_rawgeti(L, btab, -(lua_Integer)w - 1);
  r->wlog = ty == LUA_TUSERDATA ? lua_touserdata(L, -1) : NULL;
  r->lane_log = r->wlog != NULL ? WLL_LOG_ON : WLL_LOG_FRESH;
  lua_pop(L, 1);
}
