/* lkarray.c -- device arrays (userdata "warplab.DeviceArray"): typed
 * views of device memory.  Inside a kernel, a[i] and a[i] = v are the
 * running lane's loads and stores (wl_kernel_access); between launches the
 * host reads and writes managed memory element by element and any array
 * with a:read() / a:write(t); a:view(first, n) is pointer arithmetic. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lkernel.h"
/* ------------------------------------------------------------------ */
/* accesses                                                            */
/* ------------------------------------------------------------------ */

/* luaL_checkudata looks the metatable up by name (a string hash and a
 * strcmp per access); comparing pointers is enough. */
static darray *checkarr(lua_State *L, int arg) {
  void *p = lua_touserdata(L, arg);
  if (p != NULL && lua_getmetatable(L, arg)) {
    int ok = lua_topointer(L, -1) == KS(L)->arr_mt;
    lua_pop(L, 1);
    if (ok)
      return p;
  }
  luaL_typeerror(L, arg, WLL_DARRAY);
  return NULL;
}

wll_darray *wll_kernel_checkarr(lua_State *L, int arg) {
  return checkarr(L, arg);
}

/* The byte offset of element i of a (in [lo, hi): no overflow). */
static uint64_t byte_off(const darray *a, lua_Integer i) {
  return a->base + (uint64_t)i * (uint64_t)a->esize;
}

/* The byte offset of a[i], or a lane failure. */
uint64_t wll_elem_off(lua_State *L, krun *r, darray *a, int arg) {
  int isnum;
  lua_Integer i = lua_tointegerx(L, arg, &isnum);
  if (!isnum)
    wll_lane_fail(L, r,
                  "array '%s' indexed with %s (an integer from 0 to %lld "
                  "expected)",
                  a->name,
                  lua_type(L, arg) == LUA_TNUMBER ? "a fraction"
                                                  : luaL_typename(L, arg),
                  (long long)a->len - 1);
  return wll_kernel_offset(L, r, a, i, r->thread);
}

uint64_t wll_kernel_offset(lua_State *L, wll_krun *r, wll_darray *a,
                           lua_Integer i, int thread) {
  if (i < a->lo || i >= a->hi) {
    const char *sp = a->space == WL_SPACE_SHARED     ? "shared"
                     : a->space == WL_SPACE_LOCAL    ? "local"
                     : a->space == WL_SPACE_CONSTANT ? "constant"
                     : a->space == WL_SPACE_PARAM    ? "parameter"
                                                     : "global";
    if (a->lo < 0) /* a view: name the memory it lies in */
      wll_kernel_fail(L, r, thread,
                      "index %lld out of bounds for %s view '%s' (valid "
                      "indices %lld to %lld: its array)",
                      (long long)i, sp, a->name, (long long)a->lo,
                      (long long)a->hi - 1);
    wll_kernel_fail(L, r, thread,
                    "index %lld out of bounds for %s array '%s' of %lld "
                    "elements",
                    (long long)i, sp, a->name, (long long)a->len);
  }
  if ((a->space == WL_SPACE_SHARED || a->space == WL_SPACE_LOCAL) &&
      a->gen != r->gen)
    wll_kernel_fail(L, r, thread, "%s array '%s' belongs to an earlier launch",
                    a->space == WL_SPACE_SHARED ? "shared" : "local",
                    a->name);
  return byte_off(a, i);
}

/* Performs acc for the running lane; yields when its slice is used up.
 * Pushes nres values first (the caller pushes them into out). */
int wll_finish(lua_State *L, krun *r, int rc, int nres) {
  if (rc < 0)
    return wll_kernel_raise(L, r);
  if (rc == 1)
    return lua_yield(L, nres);
  return nres;
}

static inline int access_now(lua_State *L, krun *r, const wl_access *acc,
                      void *buf);
static int store_wait_k(lua_State *L, int status, lua_KContext ctx);

/* wll_do_access, inline in a lane's a[i] and a[i] = v */
static inline int do_access(lua_State *L, krun *r, darray *a, uint64_t off,
                            wl_access *acc, void *buf) {
  acc->line = wll_site_line(L, r->ks);
  acc->space = a->space;
  acc->id = a->id;
  acc->off = off;
  acc->width = a->esize;
  acc->type = type_base[a->type];
  if (r->rp != NULL) /* replaying the lane (lkreplay.c) */
    return wll_replay_access(L, r, acc, buf);
  return access_now(L, r, acc, buf);
}

int wll_do_access(lua_State *L, krun *r, darray *a, uint64_t off,
                  wl_access *acc, void *buf) {
  return do_access(L, r, a, off, acc, buf);
}

/* wll_elem_off's common case inline (an integer index in bounds, of an
 * array of this launch); the rest, a failure, through it. */
static inline uint64_t elem_off(lua_State *L, krun *r, darray *a, int arg) {
  int isnum;
  lua_Integer i = lua_tointegerx(L, arg, &isnum);
  if (isnum && i >= a->lo && i < a->hi &&
      ((a->space != WL_SPACE_SHARED && a->space != WL_SPACE_LOCAL) ||
       a->gen == r->gen))
    return byte_off(a, i);
  return wll_elem_off(L, r, a, arg); /* raises */
}

/* Makes access acc of the running lane: replays it when a deferred load
 * read a new value, and yields when its store waits for its loads
 * (WL_KERNEL_WAIT), making the store when resumed (store_wait_k). */
static inline int access_now(lua_State *L, krun *r, const wl_access *acc,
                      void *buf) {
  int rc = wl_kernel_access(r->l, r->block, r->thread, acc, buf);
  while (rc == WL_KERNEL_REPLAY || rc == WL_KERNEL_WAIT) {
    if (rc == WL_KERNEL_WAIT) /* stores only: nothing to push after */
      return wll_wait_store(L, r, acc, buf, store_wait_k);
    wll_replay_run(L, r); /* a deferred load read a new value */
    rc = wl_kernel_access(r->l, r->block, r->thread, acc, buf);
  }
  if (rc >= 0 && r->defer && r->lane_log != WLL_LOG_DEAD) /* the test */
    wll_log_access(L, r, acc, buf); /* wll_rlog_next starts with, inline */
  return rc;
}

/* A store that waited for the lane's deferred loads, made now: the rest
 * of store_run or c:store_vec (which return no value). */
static int store_wait_k(lua_State *L, int status, lua_KContext ctx) {
  krun *r = KS(L)->run;
  wl_access acc;
  uint8_t buf[16];
  (void)status;
  (void)ctx;
  wll_waited_store(r, &acc, buf);
  return wll_finish(L, r, access_now(L, r, &acc, buf), 0);
}

static int vec_misuse(lua_State *L, krun *r, darray *a) {
  return wll_lane_fail(L, r,
                       "'%s' holds %s vectors: use c:load_vec(%s, i) and "
                       "c:store_vec(%s, i, ...)",
                       a->name, type_words[a->type], a->name, a->name);
}

/* A scalar's bytes, and the values of the commonest types in place. */
typedef union scalar {
  uint8_t b[16];
  float f;
  double d;
  int32_t i32;
  int64_t i64;
} scalar;

/* The fields of a lane's access that its call sets (wll_do_access sets
 * its place: line, memory, offset, width, type). */
static void acc_init(wl_access *acc, int kind, int sem, int scope,
                     int cache) {
  acc->kind = kind;
  acc->sem = sem;
  acc->scope = scope;
  acc->cache = cache;
  acc->op = 0;
  acc->a = acc->b = 0;
}

/* A lane's load of a[i] (i at arg 2): pushes the value (4- and 8-byte
 * scalars converted in place, as wll_pushbytes converts them). */
static WLL_HOT int load_run(lua_State *L, krun *r, darray *a, int sem,
                            int scope, int cache) {
  uint64_t off = elem_off(L, r, a, 2);
  wl_access acc;
  scalar buf;
  int rc;
  if (a->type >= NSCALAR)
    return vec_misuse(L, r, a);
  acc_init(&acc, WL_ACC_LOAD, sem, scope, cache);
  memset(buf.b, 0, sizeof buf.b);
  rc = do_access(L, r, a, off, &acc, buf.b);
  if (rc < 0)
    return wll_kernel_raise(L, r);
  switch (a->type) {
  case WL_TYPE_FLOAT:
    lua_pushnumber(L, (lua_Number)buf.f);
    break;
  case WL_TYPE_DOUBLE:
    lua_pushnumber(L, (lua_Number)buf.d);
    break;
  case WL_TYPE_INT32:
    lua_pushinteger(L, (lua_Integer)buf.i32);
    break;
  case WL_TYPE_INT64:
    lua_pushinteger(L, (lua_Integer)buf.i64);
    break;
  default:
    wll_pushbytes(L, a->type, buf.b);
    break;
  }
  return rc == 1 ? lua_yield(L, 1) : 1;
}

/* A lane's store of the value at arg varg to a[i] (i at arg 2): floats
 * converted in place, as wll_tobytes converts them. */
static WLL_HOT int store_run(lua_State *L, krun *r, darray *a, int sem,
                             int scope, int cache, int varg) {
  uint64_t off = elem_off(L, r, a, 2);
  wl_access acc;
  scalar buf;
  int isnum = 0;
  if (a->type >= NSCALAR)
    return vec_misuse(L, r, a);
  memset(buf.b, 0, sizeof buf.b);
  if (a->type == WL_TYPE_FLOAT || a->type == WL_TYPE_DOUBLE) {
    lua_Number n = lua_tonumberx(L, varg, &isnum);
    if (a->type == WL_TYPE_FLOAT)
      buf.f = (float)n;
    else
      buf.d = n;
  }
  if (!isnum) {
    if (lua_isnoneornil(L, varg))
      wll_lane_fail(L, r, "no value stored to '%s'", a->name);
    wll_tobytes(L, a->type, varg, buf.b);
  }
  acc_init(&acc, WL_ACC_STORE, sem, scope, cache);
  return wll_finish(L, r, do_access(L, r, a, off, &acc, buf.b), 0);
}

int wll_load_with(lua_State *L, int sem, int scope, int cache) {
  darray *a = checkarr(L, 1);
  return load_run(L, wll_kernel_running(L), a, sem, scope, cache);
}

int wll_store_with(lua_State *L, int sem, int scope, int cache, int varg) {
  darray *a = checkarr(L, 1);
  return store_run(L, wll_kernel_running(L), a, sem, scope, cache, varg);
}

/* a[i] and a[i] = v of a lane: weak, .ca */
static int load_plain(lua_State *L, krun *r, darray *a) {
  return load_run(L, r, a, WL_SEM_WEAK, WL_SCOPE_NONE, WL_CACHE_CA);
}

static int store_plain(lua_State *L, krun *r, darray *a) {
  return store_run(L, r, a, WL_SEM_WEAK, WL_SCOPE_NONE, WL_CACHE_CA, 3);
}

/* host access to managed memory (cudaMallocManaged) between launches */
static int host_elem(lua_State *L, darray *a, uint64_t *off) {
  lua_Integer i = luaL_checkinteger(L, 2);
  if (a->dev == NULL)
    return luaL_error(L, "%s array '%s' exists only inside its kernel",
                      a->space == WL_SPACE_SHARED ? "shared" : "local",
                      a->name);
  if (a->space != WL_SPACE_MANAGED)
    return luaL_error(L,
                      "'%s' is %s memory: the host cannot index it (use "
                      "%s:read() / %s:write(t), or allocate it with "
                      "dev:malloc_managed)",
                      a->name,
                      a->space == WL_SPACE_CONSTANT ? "__constant__"
                      : a->space == WL_SPACE_PARAM  ? "parameter"
                                                    : "global device",
                      a->name, a->name);
  if (a->type >= NSCALAR)
    return luaL_error(L, "'%s' holds %s vectors: use %s:read() and "
                         "%s:write(t) (components in order)",
                      a->name, type_words[a->type], a->name, a->name);
  if (i < a->lo || i >= a->hi)
    return luaL_error(L, "index %I out of bounds for '%s' of %I elements%s", i,
                      a->name, a->len,
                      a->lo < 0 ? " (nor inside the array it views)" : "");
  *off = byte_off(a, i);
  return 0;
}

static int arr_index(lua_State *L);
static int arr_newindex(lua_State *L);

/* The continuations of the gate (a probe stopped at a[i] or a[i] = v):
 * the access runs on the frame it left. */
static int arr_index_k(lua_State *L, int status, lua_KContext ctx) {
  (void)status;
  (void)ctx;
  return arr_index(L);
}

static int arr_newindex_k(lua_State *L, int status, lua_KContext ctx) {
  (void)status;
  (void)ctx;
  return arr_newindex(L);
}

/* __index and __newindex pass the gate themselves (wll_push_gated's,
 * inline: one look at the kstate for both; a replay that has made the
 * lane's every event stops here too). */
static int arr_index(lua_State *L) {
  darray *a = lua_touserdata(L, 1);
  int kt = lua_type(L, 2);
  krun *r;
  if (a == NULL) /* the metamethod called on something else */
    return luaL_typeerror(L, 1, WLL_DARRAY);
  r = a->ks->run;
  if (r != NULL && (r->probe || (r->co != NULL && L != r->co) ||
                    (r->rp != NULL && wll_replay_reached(r))))
    return wll_gate_closed(L, r, arr_index_k);
  if (kt == LUA_TNUMBER || kt == LUA_TUSERDATA) {
    if (r != NULL && !r->warp_mode && kt == LUA_TNUMBER)
      return load_plain(L, r, a); /* a lane's a[i]: the common case */
    if (r != NULL && r->warp_mode) /* a lane vector or a broadcast */
      return wll_warp_index(L, r, a);
    if (r != NULL) /* a metamethod: arg 1 is an array */
      return load_plain(L, r, a);
    {
      uint64_t off;
      uint8_t buf[16];
      host_elem(L, a, &off);
      if (wl_device_read(a->dev->d, a->id, off, buf, (uint64_t)a->esize))
        return luaL_error(L, "%s", wl_ctx_errmsg(a->dev->ctx));
      wll_pushbytes(L, a->type, buf);
      return 1;
    }
  }
  lua_pushvalue(L, 2);
  lua_rawget(L, lua_upvalueindex(2)); /* methods */
  if (lua_isnil(L, -1) && lua_type(L, 2) == LUA_TSTRING) {
    const char *k = lua_tostring(L, 2);
    if (strcmp(k, "type") == 0)
      lua_pushstring(L, type_words[a->type]);
    else if (strcmp(k, "name") == 0)
      lua_pushstring(L, a->name);
    else if (strcmp(k, "space") == 0) {
      static const char *const sp[] = {"global", "managed", "constant",
                                       "param",  "shared",  "local"};
      lua_pushstring(L, sp[a->space]);
    } else if (strcmp(k, "address") == 0 && a->dev)
      lua_pushinteger(L,
                      (lua_Integer)wl_device_alloc_addr(a->dev->d, a->id));
  }
  return 1;
}

static int arr_newindex(lua_State *L) {
  darray *a = lua_touserdata(L, 1);
  krun *r;
  if (a == NULL) /* the metamethod called on something else */
    return luaL_typeerror(L, 1, WLL_DARRAY);
  r = a->ks->run;
  if (r != NULL && (r->probe || (r->co != NULL && L != r->co) ||
                    (r->rp != NULL && wll_replay_reached(r))))
    return wll_gate_closed(L, r, arr_newindex_k);
  if (r != NULL && r->warp_mode)
    return wll_warp_newindex(L, r, a);
  if (r != NULL)
    return store_plain(L, r, a);
  {
    uint64_t off;
    uint8_t buf[16] = {0};
    host_elem(L, a, &off);
    wll_tobytes(L, a->type, 3, buf);
    if (wl_device_write(a->dev->d, a->id, off, buf, (uint64_t)a->esize))
      return luaL_error(L, "%s", wl_ctx_errmsg(a->dev->ctx));
  }
  return 0;
}

static int arr_len(lua_State *L) {
  lua_pushinteger(L, checkarr(L, 1)->len);
  return 1;
}

static int arr_tostring(lua_State *L) {
  darray *a = checkarr(L, 1);
  static const char *const sp[] = {"global", "managed", "constant",
                                   "param",  "shared",  "local"};
  lua_pushfstring(L, "%s %s[%I] '%s'", sp[a->space], type_words[a->type],
                  a->len, a->name);
  return 1;
}

/* a:read([first [, n]]) -> table of values (host, between launches) */
static int arr_read(lua_State *L) {
  darray *a = checkarr(L, 1);
  lua_Integer first = luaL_optinteger(L, 2, 0);
  lua_Integer n, i;
  uint8_t buf[16];
  if (a->dev == NULL)
    return luaL_error(L, "'%s' exists only inside its kernel", a->name);
  if (KS(L)->run != NULL)
    return luaL_error(L, "read '%s' on the host, after the launch", a->name);
  n = lua_isnoneornil(L, 3) && first >= 0 && first <= a->len
          ? a->len - first
          : luaL_optinteger(L, 3, 0);
  if (!wl_range_inside(first, n, 0, a->len))
    return luaL_error(L, "read of %I elements from %I outside '%s' of %I "
                         "elements",
                      n, first, a->name, a->len);
  if (n > INT_MAX / wll_type_ncomp[a->type])
    return luaL_error(L, "read of %I elements: too many for one table", n);
  {
    /* vectors read as their components, one after the other */
    int nc = wll_type_ncomp[a->type], cs = a->esize / nc;
    lua_createtable(L, (int)(n * nc), 0);
    for (i = 0; i < n * nc; i++) {
      if (wl_device_read(a->dev->d, a->id,
                         byte_off(a, first) + (uint64_t)i * cs,
                         buf, (uint64_t)cs))
        return luaL_error(L, "%s", wl_ctx_errmsg(a->dev->ctx));
      wll_pushbytes(L, type_base[a->type], buf);
      lua_rawseti(L, -2, i + 1);
    }
  }
  return 1;
}

/* Writes the values of the table at idx from element first on, or fills
 * the array with the value at idx when it is not a table. */
void wll_write_values(lua_State *L, darray *a, int idx, lua_Integer first) {
  lua_Integer n, i;
  uint8_t buf[16] = {0};
  int nc = wll_type_ncomp[a->type], cs = a->esize / nc, bt = type_base[a->type];
  idx = lua_absindex(L, idx);
  if (lua_type(L, idx) != LUA_TTABLE) {
    wll_tobytes(L, bt, idx, buf);
    for (i = 0; i < a->len * nc; i++)
      wl_device_write(a->dev->d, a->id, a->base + (uint64_t)i * cs, buf,
                      (uint64_t)cs);
    return;
  }
  /* vectors take their components, one after the other: n values fill
   * ceil(n / nc) elements */
  n = (lua_Integer)luaL_len(L, idx);
  if (!wl_range_inside(first, n / nc + (n % nc != 0), 0, a->len))
    luaL_error(L, "write of %I values at %I outside '%s' of %I elements", n,
               first, a->name, a->len * nc);
  for (i = 0; i < n; i++) {
    lua_rawgeti(L, idx, i + 1);
    wll_tobytes(L, bt, -1, buf);
    lua_pop(L, 1);
    if (wl_device_write(a->dev->d, a->id,
                        byte_off(a, first) + (uint64_t)i * cs,
                        buf, (uint64_t)cs))
      luaL_error(L, "%s", wl_ctx_errmsg(a->dev->ctx));
  }
}

/* a:write(t [, first]) or a:write(value) to fill: cudaMemcpy /
 * cudaMemcpyToSymbol from the host */
int wll_arr_write(lua_State *L) {
  darray *a = checkarr(L, 1);
  lua_Integer first = luaL_optinteger(L, 3, 0), n, i;
  uint8_t buf[16] = {0};
  if (a->dev == NULL)
    return luaL_error(L, "'%s' exists only inside its kernel", a->name);
  if (KS(L)->run != NULL)
    return luaL_error(L, "write '%s' on the host, before or after a launch",
                      a->name);
  (void)n;
  (void)i;
  (void)buf;
  wll_write_values(L, a, 2, first);
  return 0;
}

darray *wll_newarr(lua_State *L, kdev *dev, int id, int space, int type,
                   lua_Integer len, const char *name) {
  darray *a = lua_newuserdatauv(L, sizeof *a, 1);
  memset(a, 0, sizeof *a);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &wll_kstate_key);
  a->ks = lua_touserdata(L, -1);
  lua_pop(L, 1);
  a->dev = dev;
  a->id = id;
  a->space = space;
  a->type = type;
  a->esize = type_sizes[type];
  a->len = len;
  a->lo = 0;
  a->hi = len;
  { /* as snprintf "%s" would (truncated), without its cost per thread */
    const char *nm = name ? name : "?";
    size_t n = strlen(nm);
    if (n > sizeof a->name - 1)
      n = sizeof a->name - 1;
    memcpy(a->name, nm, n);
    a->name[n] = 0;
  }
  luaL_setmetatable(L, WLL_DARRAY);
  return a;
}

/* a:view(first [, n]) -- elements first .. first+n-1 of a as an array of
 * their own (pointer arithmetic: &a[first]) */
static int arr_view(lua_State *L) {
  darray *a = checkarr(L, 1), *v;
  lua_Integer first = luaL_checkinteger(L, 2), n;
  /* a view of a view may start before it (V:view(-1)): anywhere in the
   * memory both lie in */
  n = lua_isnoneornil(L, 3) && first >= a->lo && first <= a->len
          ? a->len - first
          : luaL_optinteger(L, 3, 0);
  if (!wl_range_inside(first, n, a->lo, a->hi))
    return luaL_error(L, "view of %I elements from %I outside '%s' of %I "
                         "elements",
                      n, first, a->name, a->len);
  v = lua_newuserdatauv(L, sizeof *v, 1);
  *v = *a;
  v->base = byte_off(a, first);
  v->len = n;
  v->lo = a->lo - first;
  v->hi = a->hi - first;
  luaL_setmetatable(L, WLL_DARRAY);
  lua_getiuservalue(L, 1, 1);
  lua_setiuservalue(L, -2, 1);
  return 1;
}


static const luaL_Reg arr_methods[] = {
    {"read", arr_read},
    {"write", wll_arr_write},
    {"view", arr_view},
    {NULL, NULL}};

/* Builds the metatable of device arrays; ks: the kstate's stack index. */
void wll_darray_open(lua_State *L, int ks) {
  kstate *k = lua_touserdata(L, ks);
  luaL_newmetatable(L, WLL_DARRAY);
  k->arr_mt = lua_topointer(L, -1);
  lua_pushvalue(L, ks);
  lua_newtable(L);
  lua_pushvalue(L, ks);
  luaL_setfuncs(L, arr_methods, 1);
  lua_pushcclosure(L, arr_index, 2);
  lua_setfield(L, -2, "__index");
  lua_pushvalue(L, ks);
  lua_pushcclosure(L, arr_newindex, 1);
  lua_setfield(L, -2, "__newindex");
  lua_pushvalue(L, ks);
  lua_pushcclosure(L, arr_len, 1);
  lua_setfield(L, -2, "__len");
  lua_pushvalue(L, ks);
  lua_pushcclosure(L, arr_tostring, 1);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
}
