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
 * 8 bytes, or logs more than 128 calls (lkrlog.c).  The log and running
 * a replay are lkrlog.c's (shared with per-thread kernels' lkreplay.c);
 * the warp's events are this file's. */
#include <stdlib.h>
#include <string.h>

#include "lkernel.h"

/* One logged warp-wide call: the access's place and kind, the lanes of
 * its mask, and per lane (index k) the offset, operands and bytes. */
typedef struct warp_ev {
  wll_ev_head h;
  uint32_t mask;
  uint64_t off[32];
  int64_t ops[64];
  uint8_t in[32 * 8], out[32 * 8]; /* stored; loaded (or an atomic's old) */
} warp_ev;

void wll_wlog_unloggable(lua_State *L, krun *r) {
  if (r->rp != NULL)
    wll_replay_fail(L, r);
  wll_rlog_stop(L, r);
}

/* The warp's next log entry, zeroed (NULL: the warp logs nothing). */
static warp_ev *wlog_next(lua_State *L, krun *r) {
  return wll_rlog_next(L, r, sizeof(warp_ev));
}

static const warp_ev *wlog_at(const wll_rlog *g, uint32_t i) {
  return (const warp_ev *)g->ev + i;
}

void wll_wlog_access(lua_State *L, krun *r, const wl_access *a,
                     uint32_t mask, const uint64_t off[32],
                     const int64_t *ops, const void *data) {
  const uint8_t *d = data;
  size_t w = (size_t)a->width;
  warp_ev *e;
  uint32_t b;
  if (a->width > 8) { /* (warp-vector arrays hold scalars) */
    wll_rlog_stop(L, r);
    return;
  }
  if ((e = wlog_next(L, r)) == NULL)
    return;
  wll_ev_head_set(&e->h, a);
  e->mask = mask;
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
    e->h.kind = WLL_EV_FENCE;
    e->h.sem = (int8_t)sem;
    e->h.scope = (int8_t)scope;
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
  wll_ev_head now;
  uint32_t b;
  if (p->pos >= p->n) /* past the warp's point inside one call */
    return wll_replay_fail(L, r);
  e = wlog_at(p->log, p->pos);
  wll_ev_head_set(&now, a);
  if (memcmp(&now, &e->h, sizeof now) != 0 || mask != e->mask)
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
  e = wlog_at(p->log, p->pos);
  if (e->h.kind != WLL_EV_FENCE || e->h.sem != sem || e->h.scope != scope ||
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
  wll_rlog *g = r->log;
  wll_replay p;
  uint32_t ev = 0, i, j;
  int k, lo = r->warp * 32;
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
    if ((wlog_at(g, i)->mask >> k & 1) && j++ == ev)
      break;
  if (i >= g->n || wlog_at(g, i)->h.kind != WL_ACC_LOAD ||
      wlog_at(g, i)->h.width != p.width)
    return 0;
  p.k = i;
  p.lane = k;
  if (!wll_rlog_replay(L, r, &p))
    return 0;
  /* the replay stands: its load's value is the lane's now, and its
   * coroutine runs the warp from the call it stopped at, with the
   * active lanes it has there (r->active, kept by the driver) */
  memcpy(((warp_ev *)g->ev + i)->out + (size_t)k * (size_t)p.width, p.v,
         (size_t)p.width);
  return wll_rlog_take_place(L, r);
}
