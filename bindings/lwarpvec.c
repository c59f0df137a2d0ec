/* lwarpvec.c -- warp-vector kernels: wl.warp_kernel(fn) runs fn once per
 * warp instead of once per thread, with lane vectors (userdata
 * "warplab.Lanes": a number for each of the warp's 32 lanes) in place of
 * per-thread numbers.  One Lua operation handles 32 lanes, and A[v] with
 * a lane vector index is one warp-wide request (wl_kernel_access_warp),
 * which a per-thread kernel builds from 32 separate accesses.
 *
 * A lane vector holds a value in the lanes that were active when it was
 * made (and in which its operands had values); each lane's value is an
 * integer or a float as Lua's arithmetic would make it.  Lua's `if`
 * cannot branch per lane, so divergence is explicit: comparisons are
 * methods returning 0/1 vectors (v:lt(x)), and w:where(mask, fn [, fn])
 * runs fn with the warp's active mask narrowed; memory operations and
 * arithmetic touch the active lanes only.  The driver (bindings/
 * lkrun.c, run_warp_vec) resumes one coroutine per warp. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lwlanes.h"

/* ------------------------------------------------------------------ */
/* masks and divergence                                                */
/* ------------------------------------------------------------------ */

static wll_krun *checkwarp(lua_State *L) {
  wll_krun *r = wll_lanes_ks(L)->run;
  if (r == NULL || !r->warp_mode)
    luaL_error(L, "this warp function can only be called inside a "
                  "warp-vector kernel (wl.warp_kernel)");
  return r;
}

/* The lanes where the mask at idx is true: a 0/1 (nonzero) vector, or a
 * boolean or number for every lane.  check: raise when an active lane of
 * the vector holds no value. */
static uint32_t mask_of(lua_State *L, int idx, uint32_t act, int check) {
  const wll_lanes *m;
  uint32_t bits = 0;
  int k;
  if (lua_type(L, idx) == LUA_TBOOLEAN)
    return lua_toboolean(L, idx) ? WLL_LANES_ALL : 0;
  if (lua_type(L, idx) == LUA_TNUMBER)
    return lua_tonumber(L, idx) != 0 ? WLL_LANES_ALL : 0;
  if ((m = wll_lanes_to(L, idx)) == NULL)
    luaL_typeerror(L, idx, "a mask (lane vector, boolean or number)");
  if (check && (act & ~m->valid))
    wll_lanes_error(L, __builtin_ctz(act & ~m->valid),
               "the mask has no value in this active lane (it was made "
               "while the lane was inactive)");
  for (k = 0; k < 32; k++)
    if ((m->valid >> k & 1) &&
        (m->isint >> k & 1 ? m->v[k].i != 0 : m->v[k].n != 0))
      bits |= 1u << k;
  return bits;
}

static int where_k(lua_State *L, int status, lua_KContext ctx);

/* Runs the branches of w:where from phase on: 0 the lanes of the mask,
 * 1 the others; an empty branch is skipped as a warp skips it. */
static int where_run(lua_State *L, wll_krun *r, uint32_t outer, int phase) {
  uint32_t m = mask_of(L, 2, outer, 0);
  for (; phase < 2; phase++) {
    uint32_t now = outer & (phase == 0 ? m : ~m);
    if (now == 0 || lua_isnoneornil(L, 3 + phase))
      continue;
    r->active = now;
    lua_pushvalue(L, 3 + phase);
    /* a continuation: the body may yield (a slice used up) */
    lua_callk(L, 0, 0, (lua_KContext)((uint64_t)outer | (uint64_t)phase << 32),
              where_k);
    r->active = outer;
  }
  r->active = outer;
  return 0;
}

static int where_k(lua_State *L, int status, lua_KContext ctx) {
  wll_krun *r = checkwarp(L);
  (void)status;
  r->active = (uint32_t)ctx;
  return where_run(L, r, (uint32_t)ctx, (int)((uint64_t)ctx >> 32) + 1);
}

/* w:where(mask, fn [, else_fn]) */
static int w_where(lua_State *L) {
  wll_krun *r = checkwarp(L);
  mask_of(L, 2, r->active, 1);
  luaL_checktype(L, 3, LUA_TFUNCTION);
  if (!lua_isnoneornil(L, 4))
    luaL_checktype(L, 4, LUA_TFUNCTION);
  lua_settop(L, 4);
  return where_run(L, r, r->active, 0);
}

/* w:any(mask), w:all(mask): over the active lanes */
static int w_any(lua_State *L) {
  wll_krun *r = checkwarp(L);
  lua_pushboolean(L, (mask_of(L, 2, r->active, 1) & r->active) != 0);
  return 1;
}

static int w_all(lua_State *L) {
  wll_krun *r = checkwarp(L);
  lua_pushboolean(L, (mask_of(L, 2, r->active, 1) & r->active) == r->active);
  return 1;
}

/* w:ballot(mask) -> the active lanes where mask is true, as an integer */
static int w_ballot(lua_State *L) {
  wll_krun *r = checkwarp(L);
  lua_pushinteger(L, (lua_Integer)(mask_of(L, 2, r->active, 1) & r->active));
  return 1;
}

/* w:active() -> the active lanes, as an integer bit mask */
static int w_active(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)checkwarp(L)->active);
  return 1;
}

/* w:select(mask, a, b) -> a where mask is true, b elsewhere */
static int w_select(lua_State *L) {
  wll_krun *r = checkwarp(L);
  uint32_t m = mask_of(L, 2, r->active, 1);
  wll_lanes ta, tb, *v;
  const wll_lanes *a = wll_lanes_operand(L, 3, &ta);
  const wll_lanes *b = wll_lanes_operand(L, 4, &tb);
  int k;
  v = wll_lanes_push(L);
  v->valid = r->active & ((m & a->valid) | (~m & b->valid));
  v->isint = v->valid & ((m & a->isint) | (~m & b->isint));
  for (k = 0; k < 32; k++)
    if (v->valid >> k & 1)
      v->v[k] = (m >> k & 1 ? a : b)->v[k];
  return 1;
}

/* w:lanes(x) -> x in every active lane */
static int w_lanes(lua_State *L) {
  wll_krun *r = checkwarp(L);
  wll_lanes t, *v;
  const wll_lanes *a;
  luaL_checknumber(L, 2);
  a = wll_lanes_operand(L, 2, &t);
  v = wll_lanes_push(L);
  memcpy(v->v, a->v, sizeof v->v);
  v->valid = r->active;
  v->isint = a->isint & r->active;
  return 1;
}

/* ------------------------------------------------------------------ */
/* memory                                                              */
/* ------------------------------------------------------------------ */

static wll_krun *running_warp(lua_State *L) {
  wll_krun *r = wll_kernel_running(L); /* stops the probe */
  if (!r->warp_mode)
    luaL_error(L, "this warp function can only be called inside a "
                  "warp-vector kernel (wl.warp_kernel)");
  return r;
}

static const char *no_value =
    "the lane vector has no value in this active lane (it was made while "
    "the lane was inactive, inside w:where)";

/* The byte offset of A[index] for every lane of mask, or the failure of
 * the first lane, in lane order, with a bad index. */
static WLL_HOT void offsets(lua_State *L, wll_krun *r, wll_darray *a, int arg,
                            uint32_t mask, uint64_t off[32]) {
  int k, first = __builtin_ctz(mask), lo = r->warp * 32;
  const wll_lanes *v;
  if (a->type >= WLL_NSCALAR)
    wll_kernel_fail(L, r, lo + first,
                    "'%s' holds %s vectors: warp-vector kernels access "
                    "arrays of scalars",
                    a->name, wll_type_words[a->type]);
  /* a vector in two API calls (as lwlanes.c's operands): NULL for
   * anything but userdata, a light one's length 0 */
  v = lua_touserdata(L, arg);
  if (v == NULL && lua_type(L, arg) == LUA_TNUMBER) { /* every lane: one
                                                        * element */
    int isnum;
    lua_Integer i = lua_tointegerx(L, arg, &isnum);
    uint64_t o;
    if (!isnum)
      wll_kernel_fail(L, r, lo + first,
                      "array '%s' indexed with a fraction (an integer from "
                      "0 to %lld expected)",
                      a->name, (long long)a->len - 1);
    o = wll_kernel_offset(L, r, a, i, lo + first);
    for (k = 0; k < 32; k++)
      off[k] = o;
    return;
  }
  if (v == NULL || lua_rawlen(L, arg) != sizeof(wll_lanes) ||
      v->tag != &wll_lanes_tag)
    wll_kernel_fail(L, r, lo + first,
                    "array '%s' indexed with %s (an integer or a lane "
                    "vector expected)",
                    a->name, luaL_typename(L, arg));
  if (mask & ~v->valid)
    wll_kernel_fail(L, r, lo + __builtin_ctz(mask & ~v->valid), "%s",
                    no_value);
  /* the first lane checks what all share (an array of an earlier launch) */
  wll_kernel_offset(L, r, a, 0, lo + first);
  if ((v->isint & mask) == mask) { /* integers: only bounds to check */
    uint32_t b;
    if (mask == WLL_LANES_ALL && !r->plain) {
      /* a whole warp in one pass; a bad index is raised by the loop
       * below, which finds the first bad lane in lane order */
      uint64_t base = a->base, es = (uint64_t)a->esize;
      uint64_t alo = (uint64_t)a->lo, span = (uint64_t)a->hi - (uint64_t)a->lo;
      /* index - lo < span, unsigned, for every lane: with span at most
       * 2^63, x < span when bit 63 of x is clear and that of x - span
       * set; and'ed over the lanes, and the element size a shift: a
       * loop without compares or products, which the compiler
       * vectorizes (a chain of compares was most of the load's own
       * time) */
      if ((es & (es - 1)) == 0 && span <= (uint64_t)1 << 63) {
        uint64_t all = ~(uint64_t)0;
        int sh = __builtin_ctzll(es);
        for (k = 0; k < 32; k++) {
          uint64_t i = (uint64_t)v->v[k].i, x = i - alo;
          all &= ~x & (x - span);
          off[k] = base + (i << sh);
        }
        if (all >> 63)
          return;
      } else {
        uint64_t most = 0; /* the largest index - lo, unsigned */
        for (k = 0; k < 32; k++) {
          uint64_t i = (uint64_t)v->v[k].i, x = i - alo;
          most = x > most ? x : most;
          off[k] = base + i * es;
        }
        if (most < span)
          return;
      }
    }
    for (b = mask; b != 0; b &= b - 1) {
      lua_Integer i;
      k = __builtin_ctz(b);
      i = v->v[k].i;
      if (i < a->lo || i >= a->hi)
        wll_kernel_offset(L, r, a, i, lo + k); /* raises */
      off[k] = a->base + (uint64_t)i * (uint64_t)a->esize;
    }
    return;
  }
  for (k = 0; k < 32; k++) {
    lua_Integer i;
    if (!(mask >> k & 1))
      continue;
    if (v->isint >> k & 1) {
      i = v->v[k].i;
    } else {
      lua_Number n = v->v[k].n;
      if (floor(n) != n || !(n >= -9223372036854775808.0 &&
                             n < 9223372036854775808.0))
        wll_kernel_fail(L, r, lo + k,
                        "array '%s' indexed with a fraction (an integer "
                        "from 0 to %lld expected)",
                        a->name, (long long)a->len - 1);
      i = (lua_Integer)n;
    }
    if (i < a->lo || i >= a->hi)
      wll_kernel_offset(L, r, a, i, lo + k); /* raises */
    off[k] = a->base + (uint64_t)i * (uint64_t)a->esize;
  }
}

/* The bytes of lane k's value (of vector x) as type (WL_TYPE_*), as
 * wll_tobytes in lktype.c converts a number. */
static void lane_bytes(lua_State *L, wll_krun *r, int type,
                       const wll_lanes *x, int k, uint8_t *out) {
  int64_t v;
  if (wll_type_isfloat(type)) {
    v = wl_value_from_double(type, wll_lanes_num(x, k));
  } else {
    if (x->isint >> k & 1) {
      v = (int64_t)x->v[k].i;
    } else {
      lua_Number n = x->v[k].n;
      if (floor(n) != n || !(n >= -9223372036854775808.0 &&
                             n < 9223372036854775808.0))
        wll_kernel_fail(L, r, r->warp * 32 + k,
                        "integer expected, got a fraction");
      v = (int64_t)n;
    }
    v = wl_value_from_int(type, v);
  }
  wll_carrier_bytes(type, v, out);
}

/* Pushes the values loaded for the lanes of mask as a vector. */
static WLL_HOT void push_loaded(lua_State *L, int type, uint32_t mask,
                                const uint8_t *buf, int width, int plain) {
  wll_lanes *v = wll_lanes_new(L, lua_upvalueindex(1));
  int k, fl = wll_type_isfloat(type);
  v->valid = mask;
  v->isint = fl ? 0 : mask;
  /* 4- and 8-byte scalars converted in place, as wll_bytes_carrier and
   * wl_value_to_double convert them */
  if (type == WL_TYPE_FLOAT && mask == WLL_LANES_ALL && !plain) {
    for (k = 0; k < 32; k++) {
      float f;
      memcpy(&f, buf + k * 4, 4);
      v->v[k].n = (lua_Number)f;
    }
    return;
  }
  if (type == WL_TYPE_FLOAT) {
    for (; mask != 0; mask &= mask - 1) {
      float f;
      k = __builtin_ctz(mask);
      memcpy(&f, buf + k * 4, 4);
      v->v[k].n = (lua_Number)f;
    }
    return;
  }
  if (type == WL_TYPE_INT32) {
    for (; mask != 0; mask &= mask - 1) {
      int32_t i;
      k = __builtin_ctz(mask);
      memcpy(&i, buf + k * 4, 4);
      v->v[k].i = (lua_Integer)i;
    }
    return;
  }
  if (type == WL_TYPE_DOUBLE) {
    for (; mask != 0; mask &= mask - 1) {
      k = __builtin_ctz(mask);
      memcpy(&v->v[k].n, buf + k * 8, 8);
    }
    return;
  }
  for (; mask != 0; mask &= mask - 1) {
    int64_t c;
    k = __builtin_ctz(mask);
    c = wll_bytes_carrier(type, buf + k * width);
    if (fl)
      v->v[k].n = (lua_Number)wl_value_to_double(type, c);
    else
      v->v[k].i = (lua_Integer)c;
  }
}

static void access_init(lua_State *L, wll_krun *r, wll_darray *a,
                        wl_access *acc, int kind, int sem, int scope,
                        int cache) {
  memset(acc, 0, sizeof *acc);
  acc->kind = kind;
  acc->sem = sem;
  acc->scope = scope;
  acc->cache = cache;
  acc->line = wll_site_line(L, r->ks);
  acc->space = a->space;
  acc->id = a->id;
  acc->width = a->esize;
  acc->type = wll_type_base[a->type];
}

/* Makes the warp-wide access acc (wl_kernel_access_warp) and logs it
 * for deferred loads, replaying the warp when one of them read a new
 * value (lwreplay.c); in replay mode, takes its results from the log.
 * Returns 0, or 1 when the warp should yield after it; raises on a
 * failure. */
static int store_wait_k(lua_State *L, int status, lua_KContext ctx);

static WLL_HOT int warp_access(lua_State *L, wll_krun *r, const wl_access *acc,
                               uint32_t mask, const uint64_t off[32],
                               const int64_t *ops, void *buf) {
  int rc;
  if (r->rp != NULL)
    return wll_wreplay_access(L, r, acc, mask, off, ops, buf);
  while ((rc = wl_kernel_access_warp(r->l, r->block, r->warp, mask, acc,
                                     off, ops, buf)) == WL_KERNEL_REPLAY ||
         rc == WL_KERNEL_WAIT) {
    if (rc == WL_KERNEL_WAIT) /* stores only: made when it runs again */
      return wll_wwait_store(L, r, acc, mask, off, buf, store_wait_k);
    wll_wreplay_run(L, r); /* a deferred load read a new value */
  }
  if (rc < 0)
    return wll_kernel_raise(L, r);
  if (r->defer)
    wll_wlog_access(L, r, acc, mask, off, ops, buf);
  return rc;
}

/* A warp-wide store that waited for its lanes' deferred loads, made
 * now: the rest of warp_store (which returns no value). */
static int store_wait_k(lua_State *L, int status, lua_KContext ctx) {
  wll_krun *r = wll_lanes_ks(L)->run;
  wl_access acc;
  uint64_t off[32];
  uint8_t buf[32 * 16];
  uint32_t mask;
  (void)status;
  (void)ctx;
  wll_wwaited_store(L, r, &acc, &mask, off, buf);
  return warp_access(L, r, &acc, mask, off, NULL, buf) == 1 ? lua_yield(L, 0)
                                                            : 0;
}

/* A[i] for the active lanes: one warp-wide load; yields when a lane's
 * slice is used up (the vector is what the access returns on resume). */
static int warp_load(lua_State *L, wll_krun *r, wll_darray *a, int iarg,
                     int sem, int scope, int cache) {
  uint64_t off[32];
  uint8_t buf[32 * 16];
  wl_access acc;
  uint32_t mask = r->active;
  int rc;
  if (mask == 0) { /* no lane active: nothing accessed */
    wll_lanes_new(L, lua_upvalueindex(1));
    return 1;
  }
  offsets(L, r, a, iarg, mask, off);
  access_init(L, r, a, &acc, WL_ACC_LOAD, sem, scope, cache);
  rc = warp_access(L, r, &acc, mask, off, NULL, buf);
  push_loaded(L, wll_type_base[a->type], mask, buf, a->esize, r->plain);
  return rc == 1 ? lua_yield(L, 1) : 1;
}

static int warp_store(lua_State *L, wll_krun *r, wll_darray *a, int iarg,
                      int varg, int sem, int scope, int cache) {
  uint64_t off[32];
  uint8_t buf[32 * 16];
  wl_access acc;
  wll_lanes t;
  const wll_lanes *x;
  uint32_t mask = r->active;
  int rc, k;
  if (mask == 0)
    return 0;
  offsets(L, r, a, iarg, mask, off);
  if (lua_type(L, varg) != LUA_TNUMBER && wll_lanes_to(L, varg) == NULL)
    wll_kernel_fail(L, r, r->warp * 32 + __builtin_ctz(mask),
                    lua_isnoneornil(L, varg)
                        ? "no value stored to '%s'"
                        : "'%s' stores numbers or lane vectors",
                    a->name);
  x = wll_lanes_operand(L, varg, &t);
  if (mask & ~x->valid)
    wll_kernel_fail(L, r, r->warp * 32 + __builtin_ctz(mask & ~x->valid),
                    "%s", no_value);
  if (wll_type_base[a->type] == WL_TYPE_FLOAT) {
    /* as lane_bytes converts: wl_value_from_double rounds to float */
    uint32_t b;
    if (mask == WLL_LANES_ALL && x->isint == 0 && !r->plain) {
      /* a warp of floats */
      for (k = 0; k < 32; k++) {
        float f = (float)x->v[k].n;
        memcpy(buf + k * 4, &f, 4);
      }
    } else {
      for (b = mask; b != 0; b &= b - 1) {
        float f;
        k = __builtin_ctz(b);
        f = (float)wll_lanes_num(x, k);
        memcpy(buf + k * 4, &f, 4);
      }
    }
  } else {
    for (k = 0; k < 32; k++)
      if (mask >> k & 1)
        lane_bytes(L, r, wll_type_base[a->type], x, k, buf + k * a->esize);
  }
  access_init(L, r, a, &acc, WL_ACC_STORE, sem, scope, cache);
  rc = warp_access(L, r, &acc, mask, off, NULL, buf);
  return rc == 1 ? lua_yield(L, 0) : 0;
}

int wll_warp_index(lua_State *L, wll_krun *r, wll_darray *a) {
  r = running_warp(L);
  return warp_load(L, r, a, 2, WL_SEM_WEAK, WL_SCOPE_NONE, WL_CACHE_CA);
}

int wll_warp_newindex(lua_State *L, wll_krun *r, wll_darray *a) {
  r = running_warp(L);
  return warp_store(L, r, a, 2, 3, WL_SEM_WEAK, WL_SCOPE_NONE, WL_CACHE_CA);
}

static const char *const load_sems[] = {"weak", "relaxed", "acquire", NULL};
static const int load_semv[] = {WL_SEM_WEAK, WL_SEM_RELAXED, WL_SEM_ACQUIRE};
static const char *const store_sems[] = {"weak", "relaxed", "release", NULL};
static const int store_semv[] = {WL_SEM_WEAK, WL_SEM_RELAXED, WL_SEM_RELEASE};
static const char *const scopes[] = {"cta", "gpu", "sys", NULL};
static const int scopev[] = {WL_SCOPE_CTA, WL_SCOPE_GPU, WL_SCOPE_SYS};

/* w:load(A, i [, sem [, scope]]) */
static int w_load(lua_State *L) {
  wll_krun *r = running_warp(L);
  wll_darray *a = wll_kernel_checkarr(L, 2);
  int sem = load_semv[wll_checkword(L, 4, "weak", load_sems,
                                    "load semantics")];
  int scope = sem == WL_SEM_WEAK
                  ? WL_SCOPE_NONE
                  : scopev[wll_checkword(L, 5, "gpu", scopes, "scope")];
  return warp_load(L, r, a, 3, sem, scope, WL_CACHE_CA);
}

/* w:store(A, i, x [, sem [, scope]]) */
static int w_store(lua_State *L) {
  wll_krun *r = running_warp(L);
  wll_darray *a = wll_kernel_checkarr(L, 2);
  int sem = store_semv[wll_checkword(L, 5, "weak", store_sems,
                                     "store semantics")];
  int scope = sem == WL_SEM_WEAK
                  ? WL_SCOPE_NONE
                  : scopev[wll_checkword(L, 6, "gpu", scopes, "scope")];
  return warp_store(L, r, a, 3, 4, sem, scope, WL_CACHE_CA);
}

/* volatile = ld/st.relaxed.sys (no L1 copy); __ldg the read-only path */
static int w_volatile_load(lua_State *L) {
  wll_krun *r = running_warp(L);
  return warp_load(L, r, wll_kernel_checkarr(L, 2), 3, WL_SEM_RELAXED,
                   WL_SCOPE_SYS, WL_CACHE_VOLATILE);
}

static int w_volatile_store(lua_State *L) {
  wll_krun *r = running_warp(L);
  return warp_store(L, r, wll_kernel_checkarr(L, 2), 3, 4, WL_SEM_RELAXED,
                    WL_SCOPE_SYS, WL_CACHE_VOLATILE);
}

static int w_ldg(lua_State *L) {
  wll_krun *r = running_warp(L);
  return warp_load(L, r, wll_kernel_checkarr(L, 2), 3, WL_SEM_WEAK,
                   WL_SCOPE_NONE, WL_CACHE_LDG);
}

/* The lane's operand of an atomic as the engine's carrier of type. */
static int64_t lane_carrier(lua_State *L, wll_krun *r, int type,
                            const wll_lanes *x, int k) {
  uint8_t b[8] = {0};
  if (wll_type_isfloat(type))
    return wl_value_from_double(type, wll_lanes_num(x, k));
  lane_bytes(L, r, type, x, k, b);
  return wll_bytes_carrier(type, b);
}

/* w:atomicAdd(A, i, x) and friends (x: a number or a vector; atomicCAS
 * takes compare, value) -> the old values; upvalues 3: op, 4: scope */
static int w_atomic(lua_State *L) {
  wll_krun *r = running_warp(L);
  wll_darray *a = wll_kernel_checkarr(L, 2);
  int op = (int)lua_tointeger(L, lua_upvalueindex(3));
  int scope = (int)lua_tointeger(L, lua_upvalueindex(4));
  uint64_t off[32];
  int64_t ops[64];
  uint8_t buf[32 * 16];
  wll_lanes ta, tb;
  const wll_lanes *x, *y = NULL;
  uint32_t mask = r->active;
  wl_access acc;
  int rc, k, lo = r->warp * 32, bt = wll_type_base[a->type];
  if (mask == 0) { /* no lane active: nothing accessed */
    wll_lanes_new(L, lua_upvalueindex(1));
    return 1;
  }
  offsets(L, r, a, 3, mask, off);
  {
    char why[200];
    if (wll_atomic16_refusal(bt, op, 0, r->sm, a->name, why, sizeof why))
      return wll_kernel_fail(L, r, lo + __builtin_ctz(mask), "%s", why);
  }
  if ((bt == WL_TYPE_FLOAT || bt == WL_TYPE_DOUBLE) &&
      (op == WL_OP_MIN || op == WL_OP_MAX))
    return wll_kernel_fail(L, r, r->warp * 32 + __builtin_ctz(r->active),
                           "CUDA has no %s for floating-point arrays ('%s')",
                           op == WL_OP_MIN ? "atomicMin" : "atomicMax",
                           a->name);
  if ((bt == WL_TYPE_FLOAT || bt == WL_TYPE_DOUBLE) && op != WL_OP_ADD &&
      op != WL_OP_SUB && op != WL_OP_EXCH && op != WL_OP_MIN &&
      op != WL_OP_MAX && op != WL_OP_CAS)
    wll_kernel_fail(L, r, lo + __builtin_ctz(mask),
                    "this atomic operation needs an integer array, '%s' "
                    "holds %s",
                    a->name, wll_type_words[a->type]);
  luaL_checkany(L, 4);
  x = wll_lanes_operand(L, 4, &ta);
  if (op == WL_OP_CAS) {
    luaL_checkany(L, 5);
    y = wll_lanes_operand(L, 5, &tb);
  }
  if (mask & ~x->valid)
    wll_kernel_fail(L, r, lo + __builtin_ctz(mask & ~x->valid), "%s",
                    no_value);
  if (y && (mask & ~y->valid))
    wll_kernel_fail(L, r, lo + __builtin_ctz(mask & ~y->valid), "%s",
                    no_value);
  for (k = 0; k < 32; k++) {
    if (!(mask >> k & 1))
      continue;
    ops[k] = lane_carrier(L, r, bt, x, k);
    ops[32 + k] = y ? lane_carrier(L, r, bt, y, k) : 0;
  }
  access_init(L, r, a, &acc, WL_ACC_ATOMIC, WL_SEM_RELAXED, scope,
              WL_CACHE_CA);
  acc.op = op;
  rc = warp_access(L, r, &acc, mask, off, ops, buf);
  push_loaded(L, wll_type_base[a->type], mask, buf, a->esize, r->plain);
  return rc == 1 ? lua_yield(L, 1) : 1;
}

/* The lanes of m as ranges, "0-15, 20". */
static void lane_ranges(uint32_t m, char *buf, size_t n) {
  size_t k = 0;
  int lane = 0;
  buf[0] = 0;
  while (lane < 32 && k + 8 < n) {
    int end;
    if (!(m >> lane & 1)) {
      lane++;
      continue;
    }
    for (end = lane; end + 1 < 32 && (m >> (end + 1) & 1); end++)
      ;
    k += (size_t)snprintf(buf + k, n - k, end > lane ? "%s%d-%d" : "%s%d",
                          k ? ", " : "", lane, end);
    lane = end + 1;
  }
}

/* w:syncthreads(): every lane of the warp must be active */
static int w_syncthreads(lua_State *L) {
  wll_krun *r = running_warp(L);
  int line;
  if (r->active != r->exist) {
    char in[64], out[64];
    lane_ranges(r->active, in, sizeof in);
    lane_ranges(r->exist & ~r->active, out, sizeof out);
    return wll_kernel_fail(
        L, r, r->warp * 32 + __builtin_ctz(r->exist & ~r->active),
        "barrier divergence: w:syncthreads() inside w:where with this "
        "lane inactive: lanes %s of warp %d arrived, lanes %s are in the "
        "other branch (a barrier must be reached by every thread of the "
        "block)",
        in, r->warp, out);
  }
  wll_wlog_unloggable(L, r); /* its loads performed at issue */
  line = wll_site_line(L, r->ks); /* cached by pc, as c:syncthreads */
  if (r->exist != 0 &&
      wl_kernel_barrier_warp(r->l, r->block, r->warp, r->exist, line) != 0)
    return wll_kernel_raise(L, r);
  return lua_yield(L, 0);
}

/* __threadfence_block / __threadfence / __threadfence_system, for every
 * active lane; upvalue 3: the scope */
static int w_threadfence(lua_State *L) {
  wll_krun *r = running_warp(L);
  int scope = (int)lua_tointeger(L, lua_upvalueindex(3)), rc;
  if (r->active == 0)
    return 0;
  if (r->rp != NULL) /* replaying the warp (lwreplay.c) */
    return wll_wreplay_fence(L, r, r->active, WL_SEM_SC, scope);
  while ((rc = wl_kernel_fence_warp(r->l, r->block, r->warp, r->active,
                                    WL_SEM_SC, scope, wll_curline(L))) ==
         WL_KERNEL_REPLAY)
    wll_wreplay_run(L, r); /* a deferred load read a new value */
  if (rc != 0)
    return wll_kernel_raise(L, r);
  if (r->defer)
    wll_wlog_fence(L, r, r->active, WL_SEM_SC, scope);
  /* the lanes wait it out together (WL_LANE_STALLED: a gpu/sys fence on
   * a profile with a stall): the warp yields until the wait is over */
  if (r->active != 0 &&
      wl_kernel_lane_state(r->l, r->block,
                           r->warp * 32 + __builtin_ctz(r->active)) ==
          WL_LANE_STALLED)
    return lua_yield(L, 0);
  return 0;
}

/* w:syncwarp([mask]), w:shfl_sync(mask, v, src [, width]),
 * w:shfl_up_sync / w:shfl_down_sync (mask, v, delta [, width]),
 * w:shfl_xor_sync(mask, v, lanemask [, width]) -> a lane vector;
 * w:ballot_sync(mask, p) -> an integer; w:any_sync, w:all_sync (mask, p)
 * -> a boolean.  The lanes of a warp-vector kernel run together, so the
 * mask must be the active lanes (those of another w:where branch cannot
 * be waited for); src, delta and lanemask may be lane vectors.
 * upvalue 3: WL_WARP_* */
static int w_warp_op(lua_State *L) {
  int kind = (int)lua_tointeger(L, lua_upvalueindex(3)), k;
  wll_krun *r = running_warp(L);
  uint32_t mask, b;
  /* its lanes' pending loads keep their first values (the engine's
   * rendezvous is not in the warp's log) */
  wll_wlog_unloggable(L, r);
  mask = (kind == WL_WARP_SYNC && lua_isnoneornil(L, 2)
              ? WLL_LANES_ALL
              : (uint32_t)luaL_checkinteger(L, 2)) &
         r->exist;
  if (r->active & ~mask)
    return wll_kernel_fail(
        L, r, r->warp * 32 + __builtin_ctz(r->active & ~mask),
        "%s(0x%08x): the calling lane %d is not in the mask (undefined "
        "behaviour)",
        wll_warp_ops[kind], mask, __builtin_ctz(r->active & ~mask));
  if (mask & ~r->active)
    return wll_kernel_fail(
        L, r, r->warp * 32 + __builtin_ctz(r->active),
        "%s(0x%08x): lane %d of the mask is inactive here (another "
        "w:where branch): the lanes of a warp-vector kernel run together, "
        "so it can never arrive (a deadlock on a GPU)",
        wll_warp_ops[kind], mask, __builtin_ctz(mask & ~r->active));
  if (kind == WL_WARP_SYNC) {
    if (wl_kernel_syncwarp_lanes(r->l, r->block, r->warp, mask,
                                 wll_curline(L)) != 0)
      return wll_kernel_raise(L, r);
    return 0;
  }
  if (kind >= WL_WARP_BALLOT) {
    uint32_t p = mask_of(L, 3, r->active, 1) & mask;
    if (kind == WL_WARP_BALLOT)
      lua_pushinteger(L, (lua_Integer)p);
    else
      lua_pushboolean(L, kind == WL_WARP_ANY ? p != 0 : p == mask);
    return 1;
  }
  {
    wll_lanes tv, ta, *o;
    const wll_lanes *v = wll_lanes_operand(L, 3, &tv);
    const wll_lanes *arg = wll_lanes_operand(L, 4, &ta);
    lua_Integer width = luaL_optinteger(L, 5, 32);
    if (width < 1 || width > 32 || (width & (width - 1)))
      return luaL_error(L, "%s: width must be a power of two from 1 to 32",
                        wll_warp_ops[kind]);
    o = wll_lanes_push(L);
    o->valid = o->isint = 0;
    for (b = mask; b != 0; b &= b - 1) {
      int src;
      k = __builtin_ctz(b);
      if (!(arg->valid >> k & 1) || !(v->valid >> k & 1))
        wll_lanes_error(L, k, no_value);
      src = wl_warp_src(kind, k, (int)wll_lanes_int(L, arg, k), (int)width,
                        mask);
      {
        /* the lane it means to read: outside the mask, a hazard for the
         * race checker (the value is undefined; k gets its own) */
        int want = wl_warp_src(kind, k, (int)wll_lanes_int(L, arg, k),
                               (int)width, WLL_LANES_ALL);
        if (want != src &&
            wl_kernel_shfl_src(r->l, r->block, r->warp, k, want, kind, mask,
                               wll_curline(L)) != 0)
          return wll_kernel_raise(L, r);
      }
      if (!(v->valid >> src & 1))
        wll_lanes_error(L, src, no_value);
      o->v[k] = v->v[src];
      o->valid |= 1u << k;
      o->isint |= (v->isint >> src & 1u) << k;
    }
    return 1;
  }
}

/* w:shared(type, n [, name]): a __shared__ array of the block */
static int w_shared(lua_State *L) {
  static const char *const types[] = {"int64", "int32", "uint32", "float",
                                      "double", NULL};
  wll_krun *r = wll_lanes_ks(L)->run;
  int type = wll_checkword(L, 2, NULL, types, "element type");
  lua_Integer n = luaL_checkinteger(L, 3);
  const char *name = luaL_optstring(L, 4, "shared");
  if (r == NULL || !r->warp_mode)
    return luaL_error(L, "w:shared can only be called inside a warp-vector "
                         "kernel");
  if (n < 0)
    return luaL_argerror(L, 3, "negative array size");
  if (!r->probe) /* a replay cannot declare it again */
    wll_wlog_unloggable(L, r);
  wll_kernel_shared(L, r, type, n, name, r->exist);
  return 1;
}

/* ------------------------------------------------------------------ */
/* registration                                                        */
/* ------------------------------------------------------------------ */

static const luaL_Reg w_methods[] = {
    {"load", w_load},
    {"store", w_store},
    {"volatile_load", w_volatile_load},
    {"volatile_store", w_volatile_store},
    {"ldg", w_ldg},
    {"syncthreads", w_syncthreads},
    {"shared", w_shared},
    {"where", w_where},
    {"select", w_select},
    {"any", w_any},
    {"all", w_all},
    {"ballot", w_ballot},
    {"active", w_active},
    {"lanes", w_lanes},
    {NULL, NULL}};

static const lua_CFunction f_w_atomic = w_atomic;
static const lua_CFunction f_w_threadfence = w_threadfence;
static const lua_CFunction f_w_warp_op = w_warp_op;

void wll_warpvec_open(lua_State *L, int ks) {
  /* the methods the probe runs (no device access): the rest are gated */
  static const char *const keep[] = {"shared", "where", "select", "any",
                                     "all",    "ballot", "active", "lanes",
                                     NULL};
  int mt;
  size_t i, j;
  wll_lanes_open(L, ks); /* the metatable of lane vectors */
  mt = lua_gettop(L);
  /* the methods of w */
  lua_newtable(L);
  lua_pushvalue(L, ks);
  lua_pushvalue(L, mt);
  wll_setfuncs_gated(L, w_methods, 2, keep);
  for (i = 0; wll_cuda_atomics[i].name != NULL; i++)
    for (j = 0; j < 3; j++) {
      char name[48];
      snprintf(name, sizeof name, "%s%s", wll_cuda_atomics[i].name, wll_scope_suffixes[j]);
      lua_pushvalue(L, ks);
      lua_pushvalue(L, mt);
      lua_pushinteger(L, wll_cuda_atomics[i].op);
      lua_pushinteger(L, wll_suffix_scope[j]);
      wll_push_gated(L, &f_w_atomic, 4);
      lua_setfield(L, -2, name);
    }
  for (i = 0; i < 3; i++) {
    lua_pushvalue(L, ks);
    lua_pushvalue(L, mt);
    lua_pushinteger(L, wll_suffix_scope[i]);
    wll_push_gated(L, &f_w_threadfence, 3);
    lua_setfield(L, -2, wll_fence_names[i]);
  }
  for (i = 0; wll_warp_ops[i] != NULL; i++) {
    lua_pushvalue(L, ks);
    lua_pushvalue(L, mt);
    lua_pushinteger(L, (lua_Integer)i);
    wll_push_gated(L, &f_w_warp_op, 3);
    lua_setfield(L, -2, wll_warp_ops[i]);
  }
  lua_setiuservalue(L, ks, 2);
  lua_setiuservalue(L, ks, 3); /* the metatable */
}
