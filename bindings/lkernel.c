/* lkernel.c -- the simulated device in Lua: wl.device{...}, device memory
 * (global, managed, constant, grid-constant parameters; shared and local
 * inside kernels), wl.kernel(fn) and dev:launch(k, cfg, args...).
 *
 * Every thread of a kernel is a coroutine running the kernel function
 * with its own context `c` (threadIdx, blockIdx, ... and the device API).
 * The engine (engine/sim/device.c) decides which warp runs; run_warp
 * resumes that warp's runnable lanes one after the other until each
 * yields: at __syncthreads(), at its end, or after a slice of accesses
 * (so that spin loops let other warps run).  Every memory access goes
 * through wl_kernel_access, which also gathers the lanes' accesses into
 * warp-wide requests for the cost model.
 *
 * Errors inside a kernel (a Lua error, an out-of-bounds index, a write to
 * constant memory) stop the launch; dev:launch raises one message naming
 * the file, line, block, thread, warp and lane, and the device stays
 * usable.
 *
 * This file holds the kernel state (one per Lua state), the gate of the
 * device API, the raising of kernel errors, the device object and the
 * opening of it all; lkernel.h lists the files that hold the rest. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lkernel.h"

/* the registry key of the kstate (for the count hook) */
const char wll_kstate_key = 0;

/* ------------------------------------------------------------------ */
/* the gate of the device API                                          */
/* ------------------------------------------------------------------ */

/* A gated closure's last upvalue points at its function (a static
 * lua_CFunction object: a function pointer cannot travel as a light
 * userdata in ISO C). */
static lua_CFunction gated_fn(lua_State *L) {
  int i = 2;
  while (lua_type(L, lua_upvalueindex(i)) != LUA_TNONE)
    i++;
  return *(const lua_CFunction *)lua_touserdata(L, lua_upvalueindex(i - 1));
}

/* The continuation: the launch resumed the thread the probe stopped, on
 * the frame the call left, so the call runs now with its own arguments
 * (and its caller, at level 1, is still the kernel's Lua code). */
static int gate_k(lua_State *L, int status, lua_KContext ctx) {
  (void)status;
  (void)ctx;
  return gated_fn(L)(L);
}

/* A device call from a coroutine other than the running thread's (one
 * the kernel created with coroutine.create or coroutine.wrap): warplab
 * runs each thread (or warp) as its own coroutine and yields it at
 * barriers and between slices of accesses, which it cannot do across the
 * kernel's own coroutine.resume; so the call is refused, naming its
 * line, and the launch fails even when the kernel catches the error. */
static int foreign_co(lua_State *L, krun *r) {
  static const char msg[] =
      "device call inside a coroutine the kernel created "
      "(coroutine.create/wrap): a thread's device accesses, barriers and "
      "warp operations must run in the kernel function's own coroutine "
      "(warplab schedules each thread as one), so call them there";
  if (r->cofail && !r->probe && wl_launch_errmsg(r->l)[0] != 0)
    return wll_kernel_raise(L, r); /* the launch has failed already */
  r->cofail = 1;
  if (r->probe) {
    lua_Debug ar;
    if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "Sl", &ar) &&
        ar.currentline > 0)
      snprintf(r->cofail_msg, sizeof r->cofail_msg, "%s:%d: %s",
               ar.short_src, ar.currentline, msg);
    else
      snprintf(r->cofail_msg, sizeof r->cofail_msg, "%s", msg);
    r->probe_thread = r->thread;
    lua_pushstring(L, r->cofail_msg);
    return lua_error(L);
  }
  return wll_kernel_fail(L, r, r->thread, "%s", msg);
}

/* The gate of a closure with n upvalues, its function at upvalue n: one
 * per n, so that the common path finds its function without looking
 * for the last upvalue (a device access is one gated call). */
static inline int gate_at(lua_State *L, int n) {
  krun *r = KS(L)->run;
  if (r != NULL && (r->probe || (r->co != NULL && L != r->co) ||
                    (r->rp != NULL && wll_replay_reached(r))))
    return wll_gate_closed(L, r, gate_k);
  return (*(const lua_CFunction *)lua_touserdata(L, lua_upvalueindex(n)))(L);
}

/* The gate closed: a call from a foreign coroutine is refused; the
 * probe, and a replay that has made the lane's every event, stop at this
 * call, which runs (k) when the coroutine, now the lane, is resumed. */
int wll_gate_closed(lua_State *L, krun *r, lua_KFunction k) {
  if (r->co != NULL && L != r->co)
    return foreign_co(L, r);
  return lua_yieldk(L, 0, 0, k);
}

#define GATE(n)                                                                \
  static int gate##n(lua_State *L) { return gate_at(L, n); }
GATE(2)
GATE(3)
GATE(4)
GATE(5)
#undef GATE

void wll_push_gated(lua_State *L, const lua_CFunction *f, int nup) {
  static const lua_CFunction gates[] = {gate2, gate3, gate4, gate5};
  if (nup < 1 || nup > 4)
    luaL_error(L, "warplab: a gated function has 1 to 4 upvalues");
  lua_pushlightuserdata(L, (void *)(uintptr_t)f);
  lua_pushcclosure(L, gates[nup - 1], nup + 1);
}

void wll_setfuncs_gated(lua_State *L, const luaL_Reg *l, int nup,
                        const char *const keep[]) {
  int i, k, kept;
  luaL_checkstack(L, nup + 1, "too many upvalues");
  for (; l->name != NULL; l++) {
    for (kept = 0, k = 0; keep != NULL && keep[k] != NULL; k++)
      kept |= strcmp(keep[k], l->name) == 0;
    for (i = 0; i < nup; i++)
      lua_pushvalue(L, -nup);
    if (kept)
      lua_pushcclosure(L, l->func, nup);
    else
      wll_push_gated(L, &l->func, nup);
    lua_setfield(L, -(nup + 2), l->name);
  }
  lua_pop(L, nup);
}

static const void *saved_pc(const lua_Debug *ar) {
  const void *pc;
  memcpy(&pc, (const char *)ar->i_ci + 4 * sizeof(void *), sizeof pc);
  return pc;
}

/* The line of the Lua code that made the current call. */
int wll_site_line(lua_State *L, kstate *ks) {
  lua_Debug ar;
  const void *pc;
  pcline *e;
  if (!ks->fast_lines || !lua_getstack(L, 1, &ar))
    return wll_curline(L);
  pc = saved_pc(&ar);
  e = &ks->lines[((uintptr_t)pc >> 2) * 2654435761u % WLL_PCLINES];
  if (e->pc == pc && pc != NULL)
    return e->line;
  if (!lua_getinfo(L, "l", &ar) || ar.currentline <= 0)
    return wll_curline(L); /* level 1 is no Lua function */
  e->pc = pc;
  e->line = ar.currentline;
  return ar.currentline;
}

/* lua: returns the key and line of its call site */
static int probe_site(lua_State *L) {
  lua_Debug ar;
  if (!lua_getstack(L, 1, &ar) || !lua_getinfo(L, "l", &ar))
    return 0;
  lua_pushlightuserdata(L, (void *)(uintptr_t)saved_pc(&ar));
  lua_pushinteger(L, ar.currentline);
  return 2;
}

/* Checks the pc cache's assumption on this Lua (see kstate). */
static int probe_lines(lua_State *L) {
  static const char chunk[] =
      "local f = ...\n"
      "local k = {}\n"
      "for i = 1, 2 do\n"
      "  local a, la = f(); local b, lb = f()\n"
      "  local c, lc = f()\n"
      "  k[i] = { a, la, b, lb, c, lc }\n"
      "end\n"
      "local x, y = k[1], k[2]\n"
      "return x[1] ~= nil and x[1] ~= x[3] and x[1] ~= x[5] and\n"
      "  x[3] ~= x[5] and x[2] == 4 and x[4] == 4 and x[6] == 5 and\n"
      "  y[1] == x[1] and y[3] == x[3] and y[5] == x[5]\n";
  int ok = 0, top = lua_gettop(L);
  if (LUA_VERSION_NUM == 504 &&
      luaL_loadbuffer(L, chunk, sizeof chunk - 1, "=probe") == LUA_OK) {
    lua_pushcfunction(L, probe_site);
    if (lua_pcall(L, 1, 1, 0) == LUA_OK)
      ok = lua_toboolean(L, -1);
  }
  lua_settop(L, top);
  return ok;
}

/* ------------------------------------------------------------------ */
/* raising kernel errors                                               */
/* ------------------------------------------------------------------ */

void wll_user_where(lua_State *L) {
  static const char own[] = "@scripts/warplab/";
  lua_Debug ar;
  int level;
  for (level = 1; lua_getstack(L, level, &ar); level++)
    if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0 &&
        strncmp(ar.source, own, sizeof own - 1) != 0) {
      lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
      return;
    }
  lua_pushliteral(L, "");
}

/* Raises the launch's formatted message as is (no position prefix: it
 * names its own file and line). */
static int raise_launch(lua_State *L, krun *r) {
  lua_pushstring(L, wl_launch_errmsg(r->l));
  return lua_error(L);
}

static int lane_failv(lua_State *L, krun *r, int thread, const char *fmt,
                      va_list ap) {
  char msg[300];
  lua_Debug ar;
  const char *file = NULL;
  int line = 0;
  vsnprintf(msg, sizeof msg, fmt, ap);
  if (r->probe) { /* no launch yet: the failure is the thread's when the
                   * launch runs it (probe_owed) */
    r->probe_thread = thread;
    return luaL_error(L, "%s", msg);
  }
  if (r->rp != NULL) /* a replay failing is no failure of the lane's */
    return wll_replay_fail(L, r);
  if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "Sl", &ar)) {
    file = ar.short_src;
    line = ar.currentline;
  }
  wl_kernel_fail(r->l, r->block, thread, file, line, msg);
  return raise_launch(L, r);
}

/* Fails the running lane with a message at the current line. */
int wll_lane_fail(lua_State *L, krun *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  lane_failv(L, r, r->thread, fmt, ap);
  va_end(ap);
  return 0;
}

int wll_kernel_fail(lua_State *L, wll_krun *r, int thread, const char *fmt,
                    ...) {
  va_list ap;
  va_start(ap, fmt);
  lane_failv(L, r, thread, fmt, ap);
  va_end(ap);
  return 0;
}

int wll_kernel_raise(lua_State *L, wll_krun *r) { return raise_launch(L, r); }

wll_krun *wll_kernel_running(lua_State *L) {
  krun *r = KS(L)->run;
  if (r == NULL)
    luaL_error(L, "this device function can only be called inside a "
                  "kernel");
  if (r->probe) /* every device call is gated (wll_push_gated) */
    luaL_error(L, "warplab: a device call ran inside the probe (a device "
                  "function missing its gate)");
  return r;
}

/* ------------------------------------------------------------------ */
/* the device object                                                   */
/* ------------------------------------------------------------------ */

kdev *wll_checkkdev(lua_State *L, int arg) {
  kdev *d = luaL_checkudata(L, arg, WLL_KDEV);
  if (d->d == NULL)
    luaL_error(L, "the device was closed");
  return d;
}

static int kdev_gc(lua_State *L) {
  kdev *d = luaL_checkudata(L, 1, WLL_KDEV);
  if (d->d)
    wl_device_free(d->d);
  if (d->ctx)
    wl_ctx_free(d->ctx);
  d->d = NULL;
  d->ctx = NULL;
  return 0;
}

#define CFG_INT_FIELDS(X)                                                      \
  X(sms) X(max_threads_per_sm) X(max_warps_per_sm) X(max_blocks_per_sm)        \
  X(max_threads_per_block) X(regs_per_sm) X(max_regs_per_thread)               \
  X(reg_alloc_unit) X(banks) X(bank_bytes) X(fixed_carveout)
#define CFG_U32_FIELDS(X)                                                      \
  X(l1_shared_bytes) X(shared_per_sm) X(shared_per_block) X(shared_reserved)   \
  X(shared_alloc_unit) X(l1_line) X(l1_sector) X(l1_ways) X(l2_bytes)          \
  X(l2_line) X(l2_sector) X(l2_ways) X(const_bytes) X(const_cache_bytes)       \
  X(const_line)

static void push_cfg(lua_State *L, const wl_device_cfg *c) {
  lua_newtable(L);
  lua_pushstring(L, c->name);
  lua_setfield(L, -2, "preset");
#define PUSH(f)                                                                \
  lua_pushinteger(L, (lua_Integer)c->f);                                       \
  lua_setfield(L, -2, #f);
  CFG_INT_FIELDS(PUSH)
  CFG_U32_FIELDS(PUSH)
  PUSH(global_bytes)
#undef PUSH
}

#define NAME(f) #f,
static const char *const device_keys[] = {
    "preset", "arch", CFG_INT_FIELDS(NAME) CFG_U32_FIELDS(NAME) "global_bytes",
    NULL};
#undef NAME

/* wl.device{preset = "sm_90", field = value...} or wl.device("sm_90") */
static int l_device(lua_State *L) {
  wl_device_cfg cfg;
  wl_ctx *ctx;
  kdev *d;
  const char *preset = "sm_90";
  if (lua_type(L, 1) == LUA_TSTRING)
    preset = lua_tostring(L, 1);
  else if (lua_type(L, 1) == LUA_TTABLE) {
    wll_checkopts(L, 1, "wl.device", device_keys, 0);
    lua_getfield(L, 1, "preset");
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      lua_getfield(L, 1, "arch");
    }
    if (!lua_isnil(L, -1))
      preset = luaL_checkstring(L, -1);
    lua_pop(L, 1);
  } else if (!lua_isnoneornil(L, 1))
    return luaL_argerror(L, 1, "a preset name or a table expected");
  d = lua_newuserdatauv(L, sizeof *d, 0);
  memset(d, 0, sizeof *d);
  luaL_setmetatable(L, WLL_KDEV);
  if (wl_ctx_new(NULL, &ctx) != 0)
    return luaL_error(L, "out of memory");
  d->ctx = ctx;
  if (wl_device_preset(ctx, preset, &cfg) != 0)
    return luaL_error(L, "wl.device: %s", wl_ctx_errmsg(ctx));
  if (lua_type(L, 1) == LUA_TTABLE) {
    lua_pushnil(L);
    while (lua_next(L, 1)) {
      const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2)
                                                      : "";
      int isnum, found = 0;
      lua_Integer v = lua_tointegerx(L, -1, &isnum);
      if (strcmp(k, "preset") == 0 || strcmp(k, "arch") == 0) {
        lua_pop(L, 1);
        continue;
      }
#define SET(f)                                                                 \
  if (strcmp(k, #f) == 0) {                                                    \
    if (!isnum || v < 0 || v > 0xffffffffLL)                                   \
      return luaL_error(L, "wl.device: %s must be a non-negative integer", k); \
    cfg.f = (__typeof__(cfg.f))v;                                              \
    found = 1;                                                                 \
  }
      CFG_INT_FIELDS(SET)
      CFG_U32_FIELDS(SET)
#undef SET
      if (strcmp(k, "global_bytes") == 0) {
        if (!isnum || v < 0)
          return luaL_error(L, "wl.device: global_bytes must be a "
                               "non-negative integer");
        cfg.global_bytes = (uint64_t)v;
        found = 1;
      }
      if (!found)
        return luaL_error(L, "wl.device: unknown field '%s'", k);
      lua_pop(L, 1);
    }
  }
  if (wl_device_new(ctx, &cfg, &d->d) != 0)
    return luaL_error(L, "wl.device: %s", wl_ctx_errmsg(ctx));
  return 1;
}

static int alloc_arr(lua_State *L, int space) {
  kdev *d = wll_checkkdev(L, 1);
  int type = wll_checktype(L, 2), id;
  lua_Integer n;
  const char *name = luaL_optstring(L, 4, space == WL_SPACE_CONSTANT
                                              ? "constant"
                                          : space == WL_SPACE_MANAGED
                                              ? "managed"
                                              : "global");
  darray *a;
  if (lua_type(L, 3) == LUA_TTABLE)
    n = (lua_Integer)luaL_len(L, 3);
  else
    n = luaL_checkinteger(L, 3);
  if (n < 0)
    return luaL_argerror(L, 3, "negative element count");
  if (KS(L)->run != NULL)
    return luaL_error(L, "allocate device memory on the host, outside "
                         "kernels");
  if (wl_device_alloc(d->d, space, wll_bytes(L, n, type_sizes[type], name),
                      name, &id) != 0)
    return luaL_error(L, "%s", wl_ctx_errmsg(d->ctx));
  a = wll_newarr(L, d, id, space, type, n, name);
  lua_pushvalue(L, 1);
  lua_setiuservalue(L, -2, 1); /* the array keeps its device alive */
  if (lua_type(L, 3) == LUA_TTABLE)
    wll_write_values(L, a, 3, 0);
  return 1;
}

/* dev:malloc(type, n | values [, name]) */
static int kd_malloc(lua_State *L) { return alloc_arr(L, WL_SPACE_GLOBAL); }
static int kd_managed(lua_State *L) { return alloc_arr(L, WL_SPACE_MANAGED); }
static int kd_constant(lua_State *L) {
  return alloc_arr(L, WL_SPACE_CONSTANT);
}

static int kd_free(lua_State *L) {
  kdev *d = wll_checkkdev(L, 1);
  darray *a = wll_kernel_checkarr(L, 2);
  if (a->dev != d)
    return luaL_argerror(L, 2, "not an allocation of this device");
  if (KS(L)->run != NULL)
    return luaL_error(L, "dev:free during a launch (free device memory on "
                         "the host, between launches)");
  if (wl_device_release(d->d, a->id) != 0)
    return luaL_error(L, "%s", wl_ctx_errmsg(d->ctx));
  a->len = a->lo = a->hi = 0;
  return 0;
}

/* dev:memcpy_to_symbol(C, values [, first]) */
static int kd_memcpy_to_symbol(lua_State *L) {
  wll_checkkdev(L, 1);
  lua_remove(L, 1);
  return wll_arr_write(L);
}

static int kd_index(lua_State *L) {
  kdev *d = wll_checkkdev(L, 1);
  const char *k = luaL_checkstring(L, 2);
  if (strcmp(k, "config") == 0) {
    push_cfg(L, wl_device_config(d->d));
    return 1;
  }
  if (strcmp(k, "cache_config") == 0) { /* dev:set_cache_config's */
    lua_pushstring(L, wll_pref_words[d->cache_pref]);
    return 1;
  }
  lua_pushvalue(L, 2);
  lua_rawget(L, lua_upvalueindex(1));
  return 1;
}

static int kd_tostring(lua_State *L) {
  kdev *d = wll_checkkdev(L, 1);
  const wl_device_cfg *c = wl_device_config(d->d);
  lua_pushfstring(L, "device %s: %d SMs, %d threads/SM, %d KB shared/SM, "
                     "%d banks x %d B",
                  c->name, c->sms, c->max_threads_per_sm,
                  (int)(c->shared_per_sm / 1024), c->banks, c->bank_bytes);
  return 1;
}

/* dev:set_cache_config(pref) -- cudaDeviceSetCacheConfig: the carve-out
 * preference of launches that name none (nor their kernel); returns the
 * previous one */
static int kd_set_cache(lua_State *L) {
  kdev *d = wll_checkkdev(L, 1);
  int prev = d->cache_pref;
  if (KS(L)->run != NULL)
    return luaL_error(L, "set the cache configuration between launches");
  d->cache_pref = wll_checkword(L, 2, NULL, wll_pref_words, "cache preference");
  lua_pushstring(L, wll_pref_words[prev]);
  return 1;
}

/* dev:set_shared_mem_config("four_byte" | "eight_byte") --
 * cudaDeviceSetSharedMemConfig: the width of a bank (Kepler's 8-byte
 * mode); returns the previous one.  Real GPUs since Maxwell ignore it,
 * and so do the sm_70, sm_80 and sm_90 presets (eight_byte returns a
 * note as a second value); the others follow it. */
static int kd_set_banks(lua_State *L) {
  static const char *const words[] = {"four_byte", "eight_byte", NULL};
  kdev *d = wll_checkkdev(L, 1);
  const wl_device_cfg *c = wl_device_config(d->d);
  int prev = c->bank_bytes;
  int w = wll_checkword(L, 2, NULL, words, "bank size") == 0 ? 4 : 8;
  if (KS(L)->run != NULL)
    return luaL_error(L, "set the bank size between launches");
  if (strcmp(c->name, "sm_90") == 0 || strcmp(c->name, "sm_80") == 0 ||
      strcmp(c->name, "sm_70") == 0) {
    /* as the driver does since Maxwell: success, and nothing changes */
    lua_pushstring(L, prev == 8 ? "eight_byte" : "four_byte");
    if (w == 8) {
      lua_pushfstring(L, "%s ignores cudaDeviceSetSharedMemConfig: its banks "
                         "stay four bytes wide (eight_byte was Kepler's; "
                         "wl.device{preset = \"%s\", bank_bytes = 8} "
                         "simulates it)",
                      c->name, c->name);
      return 2;
    }
    return 1;
  }
  if (wl_device_set_banks(d->d, c->banks, w) != 0)
    return luaL_error(L, "%s", wl_ctx_errmsg(d->ctx));
  lua_pushstring(L, prev == 8 ? "eight_byte" : "four_byte");
  return 1;
}

static const luaL_Reg kd_methods[] = {{"malloc", kd_malloc},
                                      {"malloc_managed", kd_managed},
                                      {"constant", kd_constant},
                                      {"free", kd_free},
                                      {"memcpy_to_symbol", kd_memcpy_to_symbol},
                                      {"_launch", wll_kd_launch},
                                      {"occupancy", wll_kd_occupancy},
                                      {"set_cache_config", kd_set_cache},
                                      {"set_shared_mem_config", kd_set_banks},
                                      {NULL, NULL}};

/* wl.device_presets() -> list of names */
static int l_presets(lua_State *L) {
  const char *const *p = wl_device_presets();
  int i;
  lua_newtable(L);
  for (i = 0; p[i]; i++) {
    lua_pushstring(L, p[i]);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

/* lua: wl._watch_usable() -> whether launches on this thread bound their
 * time with the watch (lkwatch.c) rather than the count hook */
static int l_watch_usable(lua_State *L) {
  lua_pushboolean(L, wll_watch_usable());
  return 1;
}

void wll_kernel_open(lua_State *L) {
  int mod = lua_gettop(L), ks;
  kstate *k = lua_newuserdatauv(L, sizeof *k, 3);
  memset(k, 0, sizeof *k);
  ks = lua_gettop(L);
  lua_pushvalue(L, ks);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &wll_kstate_key);
  k->fast_lines = probe_lines(L);
  wll_push_c_methods(L, ks);
  lua_setiuservalue(L, ks, 1);
  wll_warpvec_open(L, ks);
  wll_darray_open(L, ks);
  /* a launch's box (kd_launch) */
  luaL_newmetatable(L, WLL_LAUNCH);
  lua_pushcfunction(L, wll_launch_gc);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);
  /* devices */
  luaL_newmetatable(L, WLL_KDEV);
  lua_pushcfunction(L, kdev_gc);
  lua_setfield(L, -2, "__gc");
  lua_pushcfunction(L, kd_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_newtable(L);
  lua_pushvalue(L, ks);
  luaL_setfuncs(L, kd_methods, 1);
  lua_pushvalue(L, -1);
  lua_setfield(L, mod, "_device_methods"); /* kernel.lua adds to it */
  lua_pushcclosure(L, kd_index, 1);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
  lua_pushcfunction(L, l_device);
  lua_setfield(L, mod, "device");
  lua_pushcfunction(L, l_presets);
  lua_setfield(L, mod, "device_presets");
  lua_pushboolean(L, k->fast_lines);
  lua_setfield(L, mod, "_fast_lines"); /* for the tests */
  lua_pushcfunction(L, l_watch_usable);
  lua_setfield(L, mod, "_watch_usable"); /* for the tests */
  lua_settop(L, mod);
}
