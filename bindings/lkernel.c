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
 * usable. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lwarplab.h"

#define WLL_KDEV "warplab.SimDevice"
#define WLL_DARRAY "warplab.DeviceArray"
#define WLL_KSTATE "warplab.KernelState"
#define WLL_LAUNCH "warplab.Launch"

typedef struct kdev {
  wl_ctx *ctx;
  wl_device *d;
  int cache_pref; /* cudaDeviceSetCacheConfig: launches without a cache
                   * preference of their own or their kernel's use it */
} kdev;

typedef wll_darray darray;
typedef wll_krun krun;
typedef wll_kstate kstate;
typedef wll_pcline pcline;

/* the registry key of the kstate (for the count hook) */
static const char kstate_key = 0;

static kstate *KS(lua_State *L) {
  return lua_touserdata(L, lua_upvalueindex(1));
}

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

static int gate(lua_State *L) {
  krun *r = KS(L)->run;
  if (r != NULL && r->probe)
    return lua_yieldk(L, 0, 0, gate_k);
  return gated_fn(L)(L);
}

void wll_push_gated(lua_State *L, const lua_CFunction *f, int nup) {
  lua_pushlightuserdata(L, (void *)(uintptr_t)f);
  lua_pushcclosure(L, gate, nup + 1);
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
/* types and values                                                    */
/* ------------------------------------------------------------------ */

/* Element types: the engine's scalar types (WL_TYPE_*, in its order:
 * index == WL_TYPE_* below WLL_NSCALAR), then vectors of them (CUDA's
 * float2, float4, int2, int4, double2: 8- and 16-byte accesses, read
 * with c:load_vec and written with c:store_vec), then the words that
 * are other names of a type (C's short and unsigned short), which
 * checktype maps to the type itself. */
#define type_words wll_type_words
#define type_sizes wll_type_sizes
#define type_base wll_type_base
#define NSCALAR WLL_NSCALAR
const char *const wll_type_words[] = {
    "int64", "int32",  "uint32", "float", "double", "int16",   "uint16",
    "half",  "float2", "float4", "int2",  "int4",   "double2", "short",
    "ushort", NULL};
const int wll_type_sizes[] = {8, 4, 4, 4, 8, 2, 2, 2, 8, 16, 8, 16, 16};
const int wll_type_base[] = {
    WL_TYPE_INT64, WL_TYPE_INT32, WL_TYPE_UINT32, WL_TYPE_FLOAT,
    WL_TYPE_DOUBLE, WL_TYPE_INT16, WL_TYPE_UINT16, WL_TYPE_HALF,
    WL_TYPE_FLOAT, WL_TYPE_FLOAT, WL_TYPE_INT32, WL_TYPE_INT32,
    WL_TYPE_DOUBLE};
static const int type_ncomp[] = {1, 1, 1, 1, 1, 1, 1, 1, 2, 4, 2, 4, 2};
/* the types the alias words (from index WLL_NTYPES on) name */
static const int type_alias[] = {WL_TYPE_INT16, WL_TYPE_UINT16};

static int checktype(lua_State *L, int arg) {
  int k = wll_checkword(L, arg, NULL, type_words, "element type");
  return k < WLL_NTYPES ? k : type_alias[k - WLL_NTYPES];
}

int wll_type_isfloat(int base) {
  return base == WL_TYPE_FLOAT || base == WL_TYPE_DOUBLE ||
         base == WL_TYPE_HALF;
}

int wll_base_size(int base) {
  switch (base) {
  case WL_TYPE_INT64:
  case WL_TYPE_DOUBLE:
    return 8;
  case WL_TYPE_INT16:
  case WL_TYPE_UINT16:
  case WL_TYPE_HALF:
    return 2;
  default:
    return 4;
  }
}

/* Carriers and the little-endian bytes of memory: the low bytes of the
 * carrier are the value's bytes in every type (hosts are little-endian,
 * as the engine assumes too). */
void wll_carrier_bytes(int base, int64_t c, uint8_t *out) {
  memcpy(out, &c, (size_t)wll_base_size(base));
}

int64_t wll_bytes_carrier(int base, const uint8_t *p) {
  uint64_t u = 0;
  memcpy(&u, p, (size_t)wll_base_size(base));
  switch (base) {
  case WL_TYPE_INT32:
    return (int64_t)(int32_t)(uint32_t)u;
  case WL_TYPE_INT16:
    return (int64_t)(int16_t)(uint16_t)u;
  default: /* zero-extended, or all 8 bytes */
    return (int64_t)u;
  }
}

void wll_push_carrier(lua_State *L, int base, int64_t c) {
  if (wll_type_isfloat(base))
    lua_pushnumber(L, (lua_Number)wl_value_to_double(base, c));
  else
    lua_pushinteger(L, (lua_Integer)c);
}

int wll_device_sm(const char *name) {
  int sm = 0;
  if (name == NULL || strncmp(name, "sm_", 3) != 0)
    return 0;
  for (name += 3; *name >= '0' && *name <= '9' && sm < 1000; name++)
    sm = sm * 10 + (*name - '0');
  return *name == '\0' ? sm : 0;
}

/* CUDA's atomics on 16-bit types are __half atomicAdd and unsigned
 * short atomicCAS, both for compute capability 7.x and later (CUDA
 * Programming Guide, atomicAdd and atomicCAS; sm_70_rt.h); PTX has
 * atom.add.noftz.f16 and atom.cas.b16 (sm_70), so c:atom takes a 16-bit
 * cas on short too.  No other atomic exists for them: NULL when op is
 * allowed on base for this api, else why not (msg, n bytes). */
const char *wll_atomic16_refusal(int base, int op, int ptx, int sm,
                                 const char *name, char *msg, size_t n) {
  static const char *const opn[] = {
      "atomicAdd", "atomicSub", "mul",   "div", "rem",        "atomicAnd",
      "atomicOr",  "atomicXor", "atomicMin", "atomicMax", "atomicInc",
      "atomicDec", "atomicExch", "atomicCAS"};
  const char *tw = base == WL_TYPE_HALF    ? "half"
                   : base == WL_TYPE_INT16 ? "int16"
                                           : "uint16";
  int ok;
  if (base != WL_TYPE_INT16 && base != WL_TYPE_UINT16 && base != WL_TYPE_HALF)
    return NULL;
  ok = base == WL_TYPE_HALF ? op == WL_OP_ADD
       : op == WL_OP_CAS    ? base == WL_TYPE_UINT16 || ptx
                            : 0;
  if (!ok) {
    snprintf(msg, n,
             "CUDA has no %s on %s ('%s'): 16-bit atomics are atomicAdd "
             "on half and atomicCAS on ushort (sm_70 and later)",
             op >= WL_OP_ADD && op <= WL_OP_CAS ? opn[op - WL_OP_ADD] : "?",
             tw, name);
    return msg;
  }
  if (sm != 0 && sm < 70) {
    snprintf(msg, n,
             "%s on %s ('%s') needs compute capability 7.0 or later; "
             "this device is sm_%d",
             op == WL_OP_ADD ? "atomicAdd" : "atomicCAS", tw, name, sm);
    return msg;
  }
  return NULL;
}

/* Converts the Lua value at arg to the bytes of type (little-endian). */
static void tobytes(lua_State *L, int type, int arg, void *out) {
  int isnum;
  int64_t c;
  if (wll_type_isfloat(type)) {
    lua_Number n = lua_tonumberx(L, arg, &isnum);
    if (!isnum)
      luaL_error(L, "number expected, got %s", luaL_typename(L, arg));
    c = wl_value_from_double(type, n);
  } else {
    lua_Integer i = lua_tointegerx(L, arg, &isnum);
    if (!isnum) {
      if (lua_type(L, arg) == LUA_TBOOLEAN)
        i = lua_toboolean(L, arg);
      else
        luaL_error(L, "integer expected, got %s",
                   lua_type(L, arg) == LUA_TNUMBER ? "a fraction"
                                                    : luaL_typename(L, arg));
    }
    c = wl_value_from_int(type, (int64_t)i);
  }
  wll_carrier_bytes(type, c, out);
}

static void pushbytes(lua_State *L, int type, const void *p) {
  wll_push_carrier(L, type, wll_bytes_carrier(type, p));
}

/* The carrier (engine convention) of the Lua value at arg, for atomics. */
static int64_t tocarrier(lua_State *L, int type, int arg) {
  if (wll_type_isfloat(type))
    return wl_value_from_double(type, luaL_checknumber(L, arg));
  {
    uint8_t b[8] = {0};
    tobytes(L, type, arg, b);
    return wll_bytes_carrier(type, b);
  }
}

int64_t wll_int_carrier(int type, const uint8_t *b) {
  return wll_bytes_carrier(type, b);
}

/* ------------------------------------------------------------------ */
/* raising kernel errors                                               */
/* ------------------------------------------------------------------ */

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
  if (lua_getstack(L, 1, &ar) && lua_getinfo(L, "Sl", &ar)) {
    file = ar.short_src;
    line = ar.currentline;
  }
  wl_kernel_fail(r->l, r->block, thread, file, line, msg);
  return raise_launch(L, r);
}

/* Fails the running lane with a message at the current line. */
static int lane_fail(lua_State *L, krun *r, const char *fmt, ...) {
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

static krun *running(lua_State *L) { return wll_kernel_running(L); }

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
static uint64_t elem_off(lua_State *L, krun *r, darray *a, int arg) {
  int isnum;
  lua_Integer i = lua_tointegerx(L, arg, &isnum);
  if (!isnum)
    lane_fail(L, r, "array '%s' indexed with %s (an integer from 0 to %lld "
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
static int finish(lua_State *L, krun *r, int rc, int nres) {
  if (rc < 0)
    return raise_launch(L, r);
  if (rc == 1)
    return lua_yield(L, nres);
  return nres;
}

static int do_access(lua_State *L, krun *r, darray *a, uint64_t off,
                     wl_access *acc, void *buf) {
  acc->line = wll_site_line(L, r->ks);
  acc->space = a->space;
  acc->id = a->id;
  acc->off = off;
  acc->width = a->esize;
  acc->type = type_base[a->type];
  return wl_kernel_access(r->l, r->block, r->thread, acc, buf);
}

static int load_arr(lua_State *L, darray *a, int sem, int scope,
                    int cache);
static int load_run(lua_State *L, krun *r, darray *a, int sem, int scope,
                    int cache);
static int store_arr(lua_State *L, darray *a, int sem, int scope, int cache,
                     int varg);

static int load_with(lua_State *L, int sem, int scope, int cache) {
  return load_arr(L, checkarr(L, 1), sem, scope, cache);
}

static int store_with(lua_State *L, int sem, int scope, int cache, int varg) {
  return store_arr(L, checkarr(L, 1), sem, scope, cache, varg);
}

static int vec_misuse(lua_State *L, krun *r, darray *a) {
  return lane_fail(L, r, "'%s' holds %s vectors: use c:load_vec(%s, i) and "
                         "c:store_vec(%s, i, ...)",
                   a->name, type_words[a->type], a->name, a->name);
}

static int load_arr(lua_State *L, darray *a, int sem, int scope,
                    int cache) {
  krun *r = running(L);
  return load_run(L, r, a, sem, scope, cache);
}

static int load_run(lua_State *L, krun *r, darray *a, int sem, int scope,
                    int cache) {
  uint64_t off = elem_off(L, r, a, 2);
  if (a->type >= NSCALAR)
    return vec_misuse(L, r, a);
  wl_access acc;
  uint8_t buf[16] = {0};
  int rc;
  memset(&acc, 0, sizeof acc);
  acc.kind = WL_ACC_LOAD;
  acc.sem = sem;
  acc.scope = scope;
  acc.cache = cache;
  rc = do_access(L, r, a, off, &acc, buf);
  if (rc >= 0)
    pushbytes(L, a->type, buf);
  return finish(L, r, rc, 1);
}

static int store_arr(lua_State *L, darray *a, int sem, int scope, int cache,
                     int varg) {
  krun *r = running(L);
  uint64_t off = elem_off(L, r, a, 2);
  if (a->type >= NSCALAR)
    return vec_misuse(L, r, a);
  wl_access acc;
  uint8_t buf[16] = {0};
  memset(&acc, 0, sizeof acc);
  acc.kind = WL_ACC_STORE;
  acc.sem = sem;
  acc.scope = scope;
  acc.cache = cache;
  if (lua_isnoneornil(L, varg))
    lane_fail(L, r, "no value stored to '%s'", a->name);
  tobytes(L, a->type, varg, buf);
  return finish(L, r, do_access(L, r, a, off, &acc, buf), 0);
}

/* c:load_vec(V, i) -> its components (a float4 load is one 16-byte
 * access per lane) */
static int c_load_vec(lua_State *L) {
  krun *r = running(L);
  darray *a = checkarr(L, 2);
  uint64_t off = elem_off(L, r, a, 3);
  wl_access acc;
  uint8_t buf[16] = {0};
  int rc, k, nc = type_ncomp[a->type], cs = a->esize / nc;
  memset(&acc, 0, sizeof acc);
  acc.kind = WL_ACC_LOAD;
  acc.sem = WL_SEM_WEAK;
  acc.cache = WL_CACHE_CA;
  rc = do_access(L, r, a, off, &acc, buf);
  if (rc >= 0)
    for (k = 0; k < nc; k++)
      pushbytes(L, type_base[a->type], buf + k * cs);
  return finish(L, r, rc, nc);
}

/* c:store_vec(V, i, x, y [, z, w]) */
static int c_store_vec(lua_State *L) {
  krun *r = running(L);
  darray *a = checkarr(L, 2);
  uint64_t off = elem_off(L, r, a, 3);
  wl_access acc;
  uint8_t buf[16] = {0};
  int k, nc = type_ncomp[a->type], cs = a->esize / nc;
  memset(&acc, 0, sizeof acc);
  acc.kind = WL_ACC_STORE;
  acc.sem = WL_SEM_WEAK;
  acc.cache = WL_CACHE_CA;
  for (k = 0; k < nc; k++) {
    if (lua_isnoneornil(L, 4 + k))
      lane_fail(L, r, "c:store_vec to '%s' needs %d components", a->name,
                nc);
    tobytes(L, type_base[a->type], 4 + k, buf + k * cs);
  }
  return finish(L, r, do_access(L, r, a, off, &acc, buf), 0);
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

static int arr_index(lua_State *L) {
  darray *a = lua_touserdata(L, 1);
  if (lua_type(L, 2) == LUA_TUSERDATA || lua_type(L, 2) == LUA_TNUMBER) {
    krun *r = KS(L)->run;
    if (r != NULL && r->warp_mode) /* a lane vector or a broadcast */
      return wll_warp_index(L, r, a);
    if (r != NULL) /* a metamethod: arg 1 is an array */
      return load_run(L, r, a, WL_SEM_WEAK, WL_SCOPE_NONE, WL_CACHE_CA);
    {
      uint64_t off;
      uint8_t buf[16];
      host_elem(L, a, &off);
      if (wl_device_read(a->dev->d, a->id, off, buf, (uint64_t)a->esize))
        return luaL_error(L, "%s", wl_ctx_errmsg(a->dev->ctx));
      pushbytes(L, a->type, buf);
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
  if (KS(L)->run != NULL && KS(L)->run->warp_mode)
    return wll_warp_newindex(L, KS(L)->run, a);
  if (KS(L)->run != NULL)
    return store_arr(L, a, WL_SEM_WEAK, WL_SCOPE_NONE, WL_CACHE_CA, 3);
  {
    uint64_t off;
    uint8_t buf[16] = {0};
    host_elem(L, a, &off);
    tobytes(L, a->type, 3, buf);
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
  if (n > INT_MAX / type_ncomp[a->type])
    return luaL_error(L, "read of %I elements: too many for one table", n);
  {
    /* vectors read as their components, one after the other */
    int nc = type_ncomp[a->type], cs = a->esize / nc;
    lua_createtable(L, (int)(n * nc), 0);
    for (i = 0; i < n * nc; i++) {
      if (wl_device_read(a->dev->d, a->id,
                         byte_off(a, first) + (uint64_t)i * cs,
                         buf, (uint64_t)cs))
        return luaL_error(L, "%s", wl_ctx_errmsg(a->dev->ctx));
      pushbytes(L, type_base[a->type], buf);
      lua_rawseti(L, -2, i + 1);
    }
  }
  return 1;
}

/* Writes the values of the table at idx from element first on, or fills
 * the array with the value at idx when it is not a table. */
static void write_values(lua_State *L, darray *a, int idx, lua_Integer first) {
  lua_Integer n, i;
  uint8_t buf[16] = {0};
  int nc = type_ncomp[a->type], cs = a->esize / nc, bt = type_base[a->type];
  idx = lua_absindex(L, idx);
  if (lua_type(L, idx) != LUA_TTABLE) {
    tobytes(L, bt, idx, buf);
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
    tobytes(L, bt, -1, buf);
    lua_pop(L, 1);
    if (wl_device_write(a->dev->d, a->id,
                        byte_off(a, first) + (uint64_t)i * cs,
                        buf, (uint64_t)cs))
      luaL_error(L, "%s", wl_ctx_errmsg(a->dev->ctx));
  }
}

/* a:write(t [, first]) or a:write(value) to fill: cudaMemcpy /
 * cudaMemcpyToSymbol from the host */
static int arr_write(lua_State *L) {
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
  write_values(L, a, 2, first);
  return 0;
}

/* ------------------------------------------------------------------ */
/* the device API inside kernels: c:method(...)                        */
/* ------------------------------------------------------------------ */

static const char *const load_sems[] = {"weak", "relaxed", "acquire", NULL};
static const int load_semv[] = {WL_SEM_WEAK, WL_SEM_RELAXED, WL_SEM_ACQUIRE};
static const char *const store_sems[] = {"weak", "relaxed", "release", NULL};
static const int store_semv[] = {WL_SEM_WEAK, WL_SEM_RELAXED, WL_SEM_RELEASE};
static const char *const scopes[] = {"cta", "gpu", "sys", NULL};
static const int scopev[] = {WL_SCOPE_CTA, WL_SCOPE_GPU, WL_SCOPE_SYS};

/* c:load(A, i [, sem [, scope]]) */
static int c_load(lua_State *L) {
  int sem, scope = WL_SCOPE_NONE;
  lua_remove(L, 1);
  sem = load_semv[wll_checkword(L, 3, "weak", load_sems, "load semantics")];
  if (sem != WL_SEM_WEAK)
    scope = scopev[wll_checkword(L, 4, "gpu", scopes, "scope")];
  lua_settop(L, 2);
  return load_with(L, sem, scope, WL_CACHE_CA);
}

/* c:store(A, i, v [, sem [, scope]]) */
static int c_store(lua_State *L) {
  int sem, scope = WL_SCOPE_NONE;
  lua_remove(L, 1);
  sem = store_semv[wll_checkword(L, 4, "weak", store_sems,
                                 "store semantics")];
  if (sem != WL_SEM_WEAK)
    scope = scopev[wll_checkword(L, 5, "gpu", scopes, "scope")];
  lua_settop(L, 3);
  return store_with(L, sem, scope, WL_CACHE_CA, 3);
}

/* volatile = ld/st.relaxed.sys (no L1 copy) */
static int c_volatile_load(lua_State *L) {
  lua_remove(L, 1);
  lua_settop(L, 2);
  return load_with(L, WL_SEM_RELAXED, WL_SCOPE_SYS, WL_CACHE_VOLATILE);
}

static int c_volatile_store(lua_State *L) {
  lua_remove(L, 1);
  lua_settop(L, 3);
  return store_with(L, WL_SEM_RELAXED, WL_SCOPE_SYS, WL_CACHE_VOLATILE, 3);
}

/* __ldg: the read-only data path */
static int c_ldg(lua_State *L) {
  lua_remove(L, 1);
  lua_settop(L, 2);
  return load_with(L, WL_SEM_WEAK, WL_SCOPE_NONE, WL_CACHE_LDG);
}

/* c:ld(A, i, op) with a PTX cache operator: ca, cg, cs, cv, lu */
static const char *const ld_ops[] = {"ca", "cg", "cs", "cv", "lu", NULL};
static const int ld_opv[] = {WL_CACHE_CA, WL_CACHE_CG, WL_CACHE_CS,
                             WL_CACHE_CV, WL_CACHE_CS};
static int c_ld(lua_State *L) {
  int op = ld_opv[wll_checkword(L, 4, "ca", ld_ops, "cache operator")];
  lua_remove(L, 1);
  lua_settop(L, 2);
  return load_with(L, WL_SEM_WEAK, WL_SCOPE_NONE, op);
}

/* c:st(A, i, v, op): wb, cg, cs, wt */
static const char *const st_ops[] = {"wb", "cg", "cs", "wt", NULL};
static const int st_opv[] = {WL_CACHE_CA, WL_CACHE_CG, WL_CACHE_CS,
                             WL_CACHE_CV};
static int c_st(lua_State *L) {
  int op = st_opv[wll_checkword(L, 5, "wb", st_ops, "cache operator")];
  lua_remove(L, 1);
  lua_settop(L, 3);
  return store_with(L, WL_SEM_WEAK, WL_SCOPE_NONE, op, 3);
}

static int atomic_with(lua_State *L, int op, int sem, int scope, int aarg,
                       int barg, int ptx) {
  krun *r = running(L);
  darray *a = checkarr(L, 1);
  uint64_t off = elem_off(L, r, a, 2);
  wl_access acc;
  uint8_t buf[16] = {0};
  char why[200];
  int rc;
  memset(&acc, 0, sizeof acc);
  if (a->type >= NSCALAR)
    lane_fail(L, r, "atomics need a scalar array; '%s' holds %s", a->name,
              type_words[a->type]);
  if (wll_atomic16_refusal(a->type, op, ptx, r->sm, a->name, why,
                           sizeof why) != NULL)
    lane_fail(L, r, "%s", why);
  if (a->type == WL_TYPE_FLOAT || a->type == WL_TYPE_DOUBLE) {
    if (op != WL_OP_ADD && op != WL_OP_SUB && op != WL_OP_EXCH &&
        op != WL_OP_MIN && op != WL_OP_MAX && op != WL_OP_CAS)
      lane_fail(L, r, "this atomic operation needs an integer array, '%s' "
                      "holds %s",
                a->name, type_words[a->type]);
  }
  acc.kind = WL_ACC_ATOMIC;
  acc.op = op;
  acc.sem = sem;
  acc.scope = scope;
  acc.a = tocarrier(L, type_base[a->type], aarg);
  acc.b = barg ? tocarrier(L, type_base[a->type], barg) : 0;
  rc = do_access(L, r, a, off, &acc, buf);
  if (rc >= 0)
    pushbytes(L, a->type, buf);
  return finish(L, r, rc, 1);
}

/* c:atomicAdd(A, i, v) and friends; upvalues: kstate, op, scope */
static int c_cuda_atomic(lua_State *L) {
  int op = (int)lua_tointeger(L, lua_upvalueindex(2));
  int scope = (int)lua_tointeger(L, lua_upvalueindex(3));
  lua_remove(L, 1);
  if (op == WL_OP_MIN || op == WL_OP_MAX) { /* CUDA has none for floats */
    darray *a = checkarr(L, 1);
    if (type_base[a->type] == WL_TYPE_FLOAT ||
        type_base[a->type] == WL_TYPE_DOUBLE)
      return lane_fail(L, running(L),
                       "CUDA has no %s for %s ('%s'); use atomicCAS on its "
                       "bits, or c:atomic_fetch_%s",
                       op == WL_OP_MIN ? "atomicMin" : "atomicMax",
                       type_words[a->type], a->name,
                       op == WL_OP_MIN ? "min" : "max");
  }
  return atomic_with(L, op, WL_SEM_RELAXED, scope, 3,
                     op == WL_OP_CAS ? 4 : 0, 0);
}

/* c:atom(op, A, i, a [, b], sem, scope) */
static const char *const atom_ops[] = {"add", "sub", "mul",  "div", "rem",
                                       "and", "or",  "xor",  "min", "max",
                                       "inc", "dec", "exch", "cas", NULL};
static const char *const atom_sems[] = {"relaxed", "acquire", "release",
                                        "acq_rel", NULL};
static const int atom_semv[] = {WL_SEM_RELAXED, WL_SEM_ACQUIRE, WL_SEM_RELEASE,
                                WL_SEM_ACQ_REL};
static int c_atom(lua_State *L) {
  int op = wll_checkword(L, 2, NULL, atom_ops, "atomic operation");
  int arg = op == WL_OP_CAS ? 7 : 6;
  int sem = atom_semv[wll_checkword(L, arg, "relaxed", atom_sems,
                                    "atomic semantics")];
  int scope = scopev[wll_checkword(L, arg + 1, "gpu", scopes, "scope")];
  lua_remove(L, 1);
  lua_remove(L, 1); /* A, i, a [, b] */
  return atomic_with(L, op, sem, scope, 3, op == WL_OP_CAS ? 4 : 0, 1);
}

/* cuda::atomic_ref-style: c:atomic_load(A, i [, order [, scope]]) ... */
static const char *const ld_orders[] = {"relaxed", "acquire", "seq_cst",
                                        NULL};
static const char *const st_orders[] = {"relaxed", "release", "seq_cst",
                                        NULL};
static const char *const rmw_orders[] = {"relaxed", "acquire", "release",
                                         "acq_rel", "seq_cst", NULL};

static int do_fence(lua_State *L, krun *r, int sem, int scope) {
  if (wl_kernel_fence(r->l, r->block, r->thread, sem, scope,
                      wll_curline(L)) != 0)
    return raise_launch(L, r);
  return 0;
}

static int c_atomic_load(lua_State *L) {
  krun *r = running(L);
  int o = wll_checkword(L, 4, "seq_cst", ld_orders, "memory order");
  int scope = scopev[wll_checkword(L, 5, "gpu", scopes, "scope")];
  if (o == 2)
    do_fence(L, r, WL_SEM_SC, scope);
  lua_remove(L, 1);
  lua_settop(L, 2);
  return load_with(L, o == 0 ? WL_SEM_RELAXED : WL_SEM_ACQUIRE, scope,
                   WL_CACHE_CG);
}

static int c_atomic_store(lua_State *L) {
  krun *r = running(L);
  int o = wll_checkword(L, 5, "seq_cst", st_orders, "memory order");
  int scope = scopev[wll_checkword(L, 6, "gpu", scopes, "scope")];
  if (o == 2)
    do_fence(L, r, WL_SEM_SC, scope);
  lua_remove(L, 1);
  lua_settop(L, 3);
  return store_with(L, o == 0 ? WL_SEM_RELAXED : WL_SEM_RELEASE, scope,
                    WL_CACHE_CG, 3);
}

/* c:atomic_fetch_add(A, i, v [, order [, scope]]) etc.; upvalue 2: op */
static int c_atomic_rmw(lua_State *L) {
  int op = (int)lua_tointeger(L, lua_upvalueindex(2));
  int arg = op == WL_OP_CAS ? 6 : 5;
  krun *r = running(L);
  int o = wll_checkword(L, arg, "seq_cst", rmw_orders, "memory order");
  int scope = scopev[wll_checkword(L, arg + 1, "gpu", scopes, "scope")];
  static const int semv[] = {WL_SEM_RELAXED, WL_SEM_ACQUIRE, WL_SEM_RELEASE,
                             WL_SEM_ACQ_REL, WL_SEM_ACQ_REL};
  if (o == 4)
    do_fence(L, r, WL_SEM_SC, scope);
  lua_remove(L, 1);
  return atomic_with(L, op, semv[o], scope, 3, op == WL_OP_CAS ? 4 : 0, 0);
}

/* __threadfence_block / __threadfence / __threadfence_system; upvalue 2 */
static int c_threadfence(lua_State *L) {
  krun *r = running(L);
  do_fence(L, r, WL_SEM_SC, (int)lua_tointeger(L, lua_upvalueindex(2)));
  return 0;
}

static int c_fence(lua_State *L) {
  static const char *const fs[] = {"sc", "acq_rel", NULL};
  krun *r = running(L);
  int sem = wll_checkword(L, 2, "sc", fs, "fence semantics") == 0
                ? WL_SEM_SC
                : WL_SEM_ACQ_REL;
  int scope = scopev[wll_checkword(L, 3, "gpu", scopes, "scope")];
  do_fence(L, r, sem, scope);
  return 0;
}

/* After a warp operation's rendezvous: its result (ctx: WL_WARP_*). */
static int warp_op_k(lua_State *L, int status, lua_KContext ctx) {
  krun *r = running(L);
  int isint = 1, kind = (int)ctx;
  int64_t v = wl_kernel_warp_result(r->l, r->block, r->thread, &isint);
  (void)status;
  switch (kind) {
  case WL_WARP_SYNC:
    return 0;
  case WL_WARP_BALLOT:
    lua_pushinteger(L, (lua_Integer)(uint32_t)v);
    return 1;
  case WL_WARP_ANY:
  case WL_WARP_ALL:
    lua_pushboolean(L, v != 0);
    return 1;
  default:
    if (isint) {
      lua_pushinteger(L, (lua_Integer)v);
    } else {
      double d;
      memcpy(&d, &v, sizeof d);
      lua_pushnumber(L, d);
    }
    return 1;
  }
}

/* A vote's predicate: false, nil and the number 0 are false. */
int wll_predicate(lua_State *L, int idx) {
  if (lua_type(L, idx) == LUA_TNUMBER)
    return lua_tonumber(L, idx) != 0;
  return lua_toboolean(L, idx);
}

/* c:syncwarp([mask]), c:shfl_sync(mask, v, src [, width]),
 * c:shfl_up_sync / shfl_down_sync (mask, v, delta [, width]),
 * c:shfl_xor_sync(mask, v, lanemask [, width]), c:ballot_sync(mask, p),
 * c:any_sync(mask, p), c:all_sync(mask, p); upvalue 2: WL_WARP_* */
static int c_warp_op(lua_State *L) {
  int kind = (int)lua_tointeger(L, lua_upvalueindex(2));
  krun *r = running(L);
  wl_warp_op op;
  memset(&op, 0, sizeof op);
  op.kind = kind;
  op.width = 32;
  op.line = wll_curline(L);
  op.mask = kind == WL_WARP_SYNC && lua_isnoneornil(L, 2)
                ? 0xffffffffu
                : (uint32_t)luaL_checkinteger(L, 2);
  if (kind >= WL_WARP_SHFL && kind <= WL_WARP_SHFL_XOR) {
    luaL_checknumber(L, 3);
    if (lua_isinteger(L, 3)) {
      op.isint = 1;
      op.value = (int64_t)lua_tointeger(L, 3);
    } else {
      double d = lua_tonumber(L, 3);
      memcpy(&op.value, &d, sizeof d);
    }
    op.arg = (int)luaL_checkinteger(L, 4);
    op.width = (int)luaL_optinteger(L, 5, 32);
  } else if (kind != WL_WARP_SYNC) {
    luaL_checkany(L, 3);
    op.value = wll_predicate(L, 3);
  }
  if (wl_kernel_warp_op(r->l, r->block, r->thread, &op) != 0)
    return raise_launch(L, r);
  return lua_yieldk(L, 0, (lua_KContext)kind, warp_op_k);
}

static int c_syncthreads(lua_State *L) {
  krun *r = running(L);
  if (wl_kernel_barrier(r->l, r->block, r->thread, wll_curline(L)) != 0)
    return raise_launch(L, r);
  return lua_yield(L, 0);
}

static darray *newarr(lua_State *L, kdev *dev, int id, int space, int type,
                      lua_Integer len, const char *name) {
  darray *a = lua_newuserdatauv(L, sizeof *a, 1);
  memset(a, 0, sizeof *a);
  a->dev = dev;
  a->id = id;
  a->space = space;
  a->type = type;
  a->esize = type_sizes[type];
  a->len = len;
  a->lo = 0;
  a->hi = len;
  snprintf(a->name, sizeof a->name, "%s", name ? name : "?");
  luaL_setmetatable(L, WLL_DARRAY);
  return a;
}

/* Records a declaration the probe made (its array is at the top of the
 * stack), to be made in the engine when the launch starts (replay). */
static void probe_decl(lua_State *L, krun *r, darray *a, int type,
                       lua_Integer n, int ext, lua_Integer off, int nset,
                       uint32_t lanes) {
  wll_pdecl *p;
  if (r->npdecl == WLL_PROBE_DECLS)
    luaL_error(L, "more than %d __shared__ declarations before the kernel's "
                  "first device access (give static_shared = bytes)",
               WLL_PROBE_DECLS);
  lua_rawgeti(L, LUA_REGISTRYINDEX, r->probe_ref);
  lua_pushvalue(L, -2);
  lua_rawseti(L, -2, r->npdecl + 1); /* anchored until the launch ends */
  lua_pop(L, 1);
  p = &r->pdecl[r->npdecl++];
  p->a = a;
  p->type = type;
  p->ext = ext;
  p->line = wll_curline(L);
  p->n = n;
  p->off = off;
  p->nset = nset;
  p->lanes = lanes;
}

void wll_kernel_shared(lua_State *L, wll_krun *r, int type, lua_Integer n,
                       const char *name, uint32_t lanes) {
  uint64_t size = 0;
  int id = -1, lane, first = -1;
  darray *a;
  uint64_t bytes = wll_bytes(L, n, type_sizes[type], "shared array");
  if (r->probe) {
    uint64_t al = (uint64_t)type_sizes[type];
    if (wl_size_add((r->probe_shared + al - 1) / al * al, bytes,
                    &r->probe_shared) != 0)
      r->probe_shared = UINT64_MAX;
    a = newarr(L, NULL, -1, WL_SPACE_SHARED, type, n, name);
    probe_decl(L, r, a, type, n, 0, 0, 1, lanes);
    return;
  }
  /* a warp declares it for each of its threads: the k-th declaration of
   * every thread is the block's k-th array */
  for (lane = 0; lane < 32; lane++) {
    int t = lanes ? r->warp * 32 + lane : r->thread, k;
    if (lanes && !(lanes >> lane & 1))
      continue;
    if (wl_kernel_shared(r->l, r->block, t, bytes, type_sizes[type], 0, wll_curline(L), &k,
                         &size) != 0)
      raise_launch(L, r);
    if (first < 0)
      first = id = k;
    if (!lanes)
      break;
  }
  a = newarr(L, NULL, id, WL_SPACE_SHARED, type,
             (lua_Integer)(size / (uint64_t)type_sizes[type]), name);
  a->gen = r->gen;
  if (id >= 0 && id < WLL_PROBE_DECLS)
    snprintf(r->shname[id], sizeof r->shname[id], "%s", name);
}

/* c:shared(type, n [, name]) -- a __shared__ array of the block: the
 * k-th declaration a thread makes is the block's k-th array */
static int c_shared(lua_State *L) {
  kstate *ks = KS(L);
  krun *r = ks->run;
  int type = checktype(L, 2);
  lua_Integer n = luaL_checkinteger(L, 3);
  const char *name = luaL_optstring(L, 4, "shared");
  if (r == NULL)
    return luaL_error(L, "c:shared can only be called inside a kernel");
  if (n < 0)
    return luaL_argerror(L, 3, "negative array size");
  wll_kernel_shared(L, r, type, n, name, 0);
  return 1;
}

/* c:extern_shared(type [, byte_offset [, n [, name]]]) -- a typed view of
 * the block's dynamic shared region (extern __shared__, sized by the
 * launch's shared = bytes), carved at byte_offset, which must be aligned
 * to the type's size */
static int c_extern_shared(lua_State *L) {
  kstate *ks = KS(L);
  krun *r = ks->run;
  int type = checktype(L, 2), id, es = type_sizes[type];
  lua_Integer off = luaL_optinteger(L, 3, 0);
  const char *name = luaL_optstring(L, 5, "extern shared");
  uint64_t size;
  lua_Integer n;
  darray *a;
  if (r == NULL)
    return luaL_error(L, "c:extern_shared can only be called inside a "
                         "kernel");
  if (r->probe) {
    if (off < 0 || off % es != 0)
      return lane_fail(L, r, "extern shared view '%s' at byte offset %lld "
                             "is misaligned for %s (a multiple of %d needed)",
                       name, (long long)off, type_words[type], es);
    /* n is read before the view is pushed: pushed, it would be read as
     * argument 4 when the call gives none */
    lua_Integer pn = luaL_optinteger(L, 4, 0);
    int nset = !lua_isnoneornil(L, 4);
    /* its length is known now (the launch's dynamic bytes), so that #v
     * before the first device access is right; replay checks the fit */
    n = nset ? pn
        : (uint64_t)off < r->probe_dynamic
            ? (lua_Integer)((r->probe_dynamic - (uint64_t)off) / es)
            : 0;
    a = newarr(L, NULL, -1, WL_SPACE_SHARED, type, n, name);
    probe_decl(L, r, a, type, pn, 1, off, nset, 0);
    return 1;
  }
  if (wl_kernel_shared(r->l, r->block, r->thread, 0, 16, 1, wll_curline(L),
                       &id, &size) != 0)
    return raise_launch(L, r);
  if (off < 0 || off % es != 0)
    return lane_fail(L, r, "extern shared view '%s' at byte offset %lld is "
                           "misaligned for %s (a multiple of %d needed)",
                     name, (long long)off, type_words[type], es);
  n = lua_isnoneornil(L, 4) ? ((lua_Integer)size - off) / es
                            : luaL_checkinteger(L, 4);
  if (!wl_range_inside(off / es, n, 0, (lua_Integer)(size / (uint64_t)es)))
    return lane_fail(L, r, "extern shared view '%s' (%lld x %s at byte %lld) "
                           "does not fit the launch's %llu dynamic bytes "
                           "(launch option shared =)",
                     name, (long long)n, type_words[type], (long long)off,
                     (unsigned long long)size);
  a = newarr(L, NULL, id, WL_SPACE_SHARED, type, n, name);
  a->base = (uint64_t)off;
  a->gen = r->gen;
  return 1;
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

/* c:local_array(type, n [, name]) */
static int c_local_array(lua_State *L) {
  krun *r = running(L);
  int type = checktype(L, 2), id;
  lua_Integer n = luaL_checkinteger(L, 3);
  darray *a;
  if (n < 0)
    return luaL_argerror(L, 3, "negative array size");
  if (wl_kernel_local(r->l, r->block, r->thread,
                      wll_bytes(L, n, type_sizes[type], "c:local_array"),
                      wll_curline(L), &id) != 0)
    return raise_launch(L, r);
  a = newarr(L, NULL, id, WL_SPACE_LOCAL, type, n,
             luaL_optstring(L, 4, "local"));
  a->gen = r->gen;
  return 1;
}

static const luaL_Reg c_methods[] = {
    {"load", c_load},
    {"store", c_store},
    {"volatile_load", c_volatile_load},
    {"volatile_store", c_volatile_store},
    {"ldg", c_ldg},
    {"ld", c_ld},
    {"st", c_st},
    {"atom", c_atom},
    {"atomic_load", c_atomic_load},
    {"atomic_store", c_atomic_store},
    {"fence", c_fence},
    {"syncthreads", c_syncthreads},
    {"shared", c_shared},
    {"extern_shared", c_extern_shared},
    {"local_array", c_local_array},
    {"load_vec", c_load_vec},
    {"store_vec", c_store_vec},
    {NULL, NULL}};

/* The methods table (pushed), with the kstate at stack index ks. */
static const lua_CFunction f_cuda_atomic = c_cuda_atomic;
static const lua_CFunction f_atomic_rmw = c_atomic_rmw;
static const lua_CFunction f_threadfence = c_threadfence;
static const lua_CFunction f_warp_op = c_warp_op;
static const lua_CFunction f_arr_index = arr_index;
static const lua_CFunction f_arr_newindex = arr_newindex;

static void push_c_methods(lua_State *L, int ks) {
  static const char *const keep[] = {"shared", "extern_shared", NULL};
  size_t i, j;
  lua_newtable(L);
  lua_pushvalue(L, ks);
  wll_setfuncs_gated(L, c_methods, 1, keep);
  for (i = 0; wll_cuda_atomics[i].name != NULL; i++)
    for (j = 0; j < 3; j++) {
      char name[48];
      snprintf(name, sizeof name, "%s%s", wll_cuda_atomics[i].name, wll_scope_suffixes[j]);
      lua_pushvalue(L, ks);
      lua_pushinteger(L, wll_cuda_atomics[i].op);
      lua_pushinteger(L, wll_suffix_scope[j]);
      wll_push_gated(L, &f_cuda_atomic, 3);
      lua_setfield(L, -2, name);
    }
  for (i = 0; wll_atomic_rmws[i].name != NULL; i++) {
    lua_pushvalue(L, ks);
    lua_pushinteger(L, wll_atomic_rmws[i].op);
    wll_push_gated(L, &f_atomic_rmw, 2);
    lua_setfield(L, -2, wll_atomic_rmws[i].name);
  }
  for (i = 0; i < 3; i++) {
    lua_pushvalue(L, ks);
    lua_pushinteger(L, wll_suffix_scope[i]);
    wll_push_gated(L, &f_threadfence, 2);
    lua_setfield(L, -2, wll_fence_names[i]);
  }
  for (i = 0; wll_warp_ops[i] != NULL; i++) {
    lua_pushvalue(L, ks);
    lua_pushinteger(L, (lua_Integer)i);
    wll_push_gated(L, &f_warp_op, 2);
    lua_setfield(L, -2, wll_warp_ops[i]);
  }
}

/* ------------------------------------------------------------------ */
/* the device object                                                   */
/* ------------------------------------------------------------------ */

static kdev *checkkdev(lua_State *L, int arg) {
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
  kdev *d = checkkdev(L, 1);
  int type = checktype(L, 2), id;
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
  a = newarr(L, d, id, space, type, n, name);
  lua_pushvalue(L, 1);
  lua_setiuservalue(L, -2, 1); /* the array keeps its device alive */
  if (lua_type(L, 3) == LUA_TTABLE)
    write_values(L, a, 3, 0);
  return 1;
}

/* dev:malloc(type, n | values [, name]) */
static int kd_malloc(lua_State *L) { return alloc_arr(L, WL_SPACE_GLOBAL); }
static int kd_managed(lua_State *L) { return alloc_arr(L, WL_SPACE_MANAGED); }
static int kd_constant(lua_State *L) {
  return alloc_arr(L, WL_SPACE_CONSTANT);
}

static int kd_free(lua_State *L) {
  kdev *d = checkkdev(L, 1);
  darray *a = checkarr(L, 2);
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
  checkkdev(L, 1);
  lua_remove(L, 1);
  return arr_write(L);
}

static int kd_index(lua_State *L) {
  kdev *d = checkkdev(L, 1);
  const char *k = luaL_checkstring(L, 2);
  if (strcmp(k, "config") == 0) {
    push_cfg(L, wl_device_config(d->d));
    return 1;
  }
  lua_pushvalue(L, 2);
  lua_rawget(L, lua_upvalueindex(1));
  return 1;
}

static int kd_tostring(lua_State *L) {
  kdev *d = checkkdev(L, 1);
  const wl_device_cfg *c = wl_device_config(d->d);
  lua_pushfstring(L, "device %s: %d SMs, %d threads/SM, %d KB shared/SM, "
                     "%d banks x %d B",
                  c->name, c->sms, c->max_threads_per_sm,
                  (int)(c->shared_per_sm / 1024), c->banks, c->bank_bytes);
  return 1;
}

/* ------------------------------------------------------------------ */
/* launches                                                            */
/* ------------------------------------------------------------------ */

/* registry slots of a launch, on the launching stack:
 *   FN: the kernel function, ARGS: table of arguments, THREADS: block ->
 *   table of coroutines (index t+1) and pending yield counts ("n"..t) */
typedef struct lctx {
  krun r;
  int fn, args, threads, cmeta, dims; /* stack indices */
  int ks;                             /* the kstate: upvalue 1 */
} lctx;

/* One dimension of a launch: an integer from 1 to 2^31 - 1 (CUDA's
 * largest gridDim.x), never truncated to an int. */
static int dim_value(lua_State *L, int idx, const char *key) {
  int isnum;
  lua_Integer v = lua_tointegerx(L, idx, &isnum);
  if (!isnum || v < 1 || v > INT_MAX)
    luaL_error(L, "launch: %s dimensions must be integers from 1 to %d",
               key, INT_MAX);
  return (int)v;
}

static void dim3(lua_State *L, int idx, const char *key, int out[3]) {
  int t;
  out[0] = out[1] = out[2] = 1;
  t = lua_getfield(L, idx, key);
  if (t == LUA_TNUMBER) {
    out[0] = dim_value(L, -1, key);
  } else if (t == LUA_TTABLE) {
    static const char *const xyz[] = {"x", "y", "z", NULL};
    int i;
    wll_checkopts(L, -1, key, xyz, WLL_OPTS_ARRAY);
    for (i = 0; i < 3; i++) {
      if (lua_rawgeti(L, -1, i + 1) == LUA_TNUMBER)
        out[i] = dim_value(L, -1, key);
      else if (!lua_isnil(L, -1))
        luaL_error(L, "launch: %s[%d] must be an integer", key, i + 1);
      lua_pop(L, 1);
      lua_getfield(L, -1, i == 0 ? "x" : i == 1 ? "y" : "z");
      if (lua_type(L, -1) == LUA_TNUMBER)
        out[i] = dim_value(L, -1, key);
      lua_pop(L, 1);
    }
  } else if (t != LUA_TNIL) {
    luaL_error(L, "launch: %s must be a number or {x, y, z}", key);
  }
  lua_pop(L, 1);
  if (out[0] < 1 || out[1] < 1 || out[2] < 1)
    luaL_error(L, "launch: %s dimensions must be positive", key);
}

static void push_dim(lua_State *L, int x, int y, int z) {
  lua_createtable(L, 0, 3);
  lua_pushinteger(L, x);
  lua_setfield(L, -2, "x");
  lua_pushinteger(L, y);
  lua_setfield(L, -2, "y");
  lua_pushinteger(L, z);
  lua_setfield(L, -2, "z");
}

/* Pushes the context `c` of thread t of block b. */
static void push_c(lua_State *L, lctx *x, int b, int t) {
  int bi[3], ti[3];
  bi[0] = b % x->r.gdim[0];
  bi[1] = b / x->r.gdim[0] % x->r.gdim[1];
  bi[2] = (int)(b / ((int64_t)x->r.gdim[0] * x->r.gdim[1]));
  ti[0] = t % x->r.bdim[0];
  ti[1] = t / x->r.bdim[0] % x->r.bdim[1];
  ti[2] = (int)(t / ((int64_t)x->r.bdim[0] * x->r.bdim[1]));
  lua_createtable(L, 0, 8);
  push_dim(L, ti[0], ti[1], ti[2]);
  lua_setfield(L, -2, "threadIdx");
  push_dim(L, bi[0], bi[1], bi[2]);
  lua_setfield(L, -2, "blockIdx");
  lua_getfield(L, x->dims, "blockDim");
  lua_setfield(L, -2, "blockDim");
  lua_getfield(L, x->dims, "gridDim");
  lua_setfield(L, -2, "gridDim");
  lua_pushinteger(L, 32);
  lua_setfield(L, -2, "warpSize");
  lua_pushinteger(L, t % 32);
  lua_setfield(L, -2, "lane");
  lua_pushinteger(L, t / 32);
  lua_setfield(L, -2, "warp");
  lua_pushvalue(L, x->cmeta);
  lua_setmetatable(L, -2);
}

/* The lanes of warp w that exist (a block's last warp may be partial). */
static uint32_t warp_lanes(const lctx *x, int w) {
  int64_t n = (int64_t)x->r.bdim[0] * x->r.bdim[1] * x->r.bdim[2] - w * 32;
  return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

/* Pushes the context `w` of warp w of block b (a warp-vector kernel):
 * threadIdx.x/y/z and lane are lane vectors over the warp's threads. */
static void push_w(lua_State *L, lctx *x, int b, int w) {
  int bi[3], lane, k;
  uint32_t exist = warp_lanes(x, w);
  wll_lanes *v[4];
  bi[0] = b % x->r.gdim[0];
  bi[1] = b / x->r.gdim[0] % x->r.gdim[1];
  bi[2] = (int)(b / ((int64_t)x->r.gdim[0] * x->r.gdim[1]));
  lua_createtable(L, 0, 8);
  lua_createtable(L, 0, 3);
  for (k = 0; k < 3; k++) {
    v[k] = wll_lanes_new(L, x->ks);
    lua_setfield(L, -2, k == 0 ? "x" : k == 1 ? "y" : "z");
  }
  lua_setfield(L, -2, "threadIdx");
  v[3] = wll_lanes_new(L, x->ks);
  lua_setfield(L, -2, "lane");
  for (lane = 0; lane < 32; lane++) {
    int t = w * 32 + lane;
    if (!(exist >> lane & 1))
      continue;
    wll_lanes_seti(v[0], lane, t % x->r.bdim[0]);
    wll_lanes_seti(v[1], lane, t / x->r.bdim[0] % x->r.bdim[1]);
    wll_lanes_seti(v[2], lane, (int)(t / ((int64_t)x->r.bdim[0] * x->r.bdim[1])));
    wll_lanes_seti(v[3], lane, lane);
  }
  push_dim(L, bi[0], bi[1], bi[2]);
  lua_setfield(L, -2, "blockIdx");
  lua_getfield(L, x->dims, "blockDim");
  lua_setfield(L, -2, "blockDim");
  lua_getfield(L, x->dims, "gridDim");
  lua_setfield(L, -2, "gridDim");
  lua_pushinteger(L, 32);
  lua_setfield(L, -2, "warpSize");
  lua_pushinteger(L, w);
  lua_setfield(L, -2, "warp");
  lua_pushvalue(L, x->cmeta);
  lua_setmetatable(L, -2);
}

/* Splits "chunk:line: message" (a Lua error) into its parts. */
static const char *split_where(const char *m, char *file, size_t n,
                               int *line) {
  const char *p = m;
  *line = 0;
  file[0] = 0;
  while ((p = strchr(p, ':')) != NULL) {
    char *end;
    long v = strtol(p + 1, &end, 10);
    if (end > p + 1 && *end == ':') {
      size_t len = (size_t)(p - m) < n - 1 ? (size_t)(p - m) : n - 1;
      memcpy(file, m, len);
      file[len] = 0;
      *line = (int)v;
      return end[1] == ' ' ? end + 2 : end + 1;
    }
    p++;
  }
  return m;
}

/* Where coroutine co is (suspended, or dead of an error: its stack is
 * not unwound): the innermost Lua function's file and line. */
static int co_where(lua_State *co, char *file, size_t n) {
  lua_Debug ar;
  int level;
  for (level = 0; lua_getstack(co, level, &ar); level++)
    if (lua_getinfo(co, "Sl", &ar) && ar.currentline > 0) {
      snprintf(file, n, "%s", ar.short_src);
      return ar.currentline;
    }
  return 0;
}

/* Fails the launch with the error a coroutine raised (thread: the lane
 * to name), unless an engine failure raised it.  An error object that
 * is no string (a table, say) is named by its __tostring, or its type,
 * and placed where the coroutine stopped. */
static int co_error(lua_State *L, lua_State *co, wl_launch *l, int block,
                    int thread) {
  char file[256];
  int line;
  const char *m;
  (void)L;
  if (wl_launch_errmsg(l)[0] != 0) /* raised from an engine failure */
    return WL_ERUNTIME;
  if (lua_type(co, -1) == LUA_TSTRING) {
    m = split_where(lua_tostring(co, -1), file, sizeof file, &line);
  } else {
    if (luaL_getmetafield(co, -1, "__tostring") != LUA_TNIL) {
      lua_pop(co, 1);
      m = lua_pushfstring(co, "error object: %s", luaL_tolstring(co, -1, NULL));
    } else {
      m = lua_pushfstring(co, "error object is a %s value",
                          luaL_typename(co, -1));
    }
    line = 0;
  }
  if (line == 0)
    line = co_where(co, file, sizeof file);
  wl_kernel_fail(l, block, thread, file[0] ? file : NULL, line, m);
  return WL_ERUNTIME;
}

/* Pushes the table of block `block`'s coroutines (a new one the first
 * time; in warp mode with the warps' active masks at key 0). */
static void block_table(lua_State *L, lctx *x, int block, int nt) {
  if (lua_rawgeti(L, x->threads, block + 1) == LUA_TTABLE)
    return;
  lua_pop(L, 1);
  if (x->r.warp_mode) {
    int nw = (nt + 31) / 32;
    lua_createtable(L, nw, 1);
    lua_newuserdatauv(L, sizeof(uint32_t) * (size_t)nw, 0);
    lua_rawseti(L, -2, 0);
  } else {
    lua_createtable(L, nt, 0);
  }
  lua_pushvalue(L, -1);
  lua_rawseti(L, x->threads, block + 1);
}

/* Pushes the coroutine at key of the table at tbl: the one a lane (vec
 * 0: thread `who`) or a warp (vec 1: warp `who`) runs in.  A new one
 * gets the kernel, its context and the launch's arguments: *nargs is
 * what to resume it with.  An existing one resumes with what its last
 * yield left on its stack: *nargs is then -(that count) - 1. */
static lua_State *thread_co(lua_State *L, lctx *x, int tbl, int key,
                            int block, int who, int vec, int *nargs) {
  lua_State *co;
  int i, na;
  if (lua_rawgeti(L, tbl, key + 1) == LUA_TTHREAD) {
    co = lua_tothread(L, -1);
    *nargs = -lua_gettop(co) - 1;
    return co;
  }
  lua_pop(L, 1);
  na = (int)luaL_len(L, x->args);
  /* the kernel, its context and every argument: on this stack, then on
   * the coroutine's (a new thread has room for LUA_MINSTACK values) */
  luaL_checkstack(L, na + 4, "too many kernel arguments");
  co = lua_newthread(L);
  if (!lua_checkstack(co, na + 2))
    luaL_error(L, "launch: too many kernel arguments (%d)", na);
  lua_pushvalue(L, -1);
  lua_rawseti(L, tbl, key + 1);
  lua_pushvalue(L, x->fn);
  if (vec)
    push_w(L, x, block, who);
  else
    push_c(L, x, block, who);
  for (i = 1; i <= na; i++)
    lua_rawgeti(L, x->args, i);
  lua_xmove(L, co, na + 2);
  *nargs = na + 1;
  return co;
}

/* After a yield: keep exactly the yielded values on the coroutine's
 * stack; they are what the access returns when it resumes. */
static void keep_yielded(lua_State *co, int nres) {
  if (lua_gettop(co) > nres) {
    lua_rotate(co, 1, nres);
    lua_settop(co, nres);
  }
}

/* ------------------------------------------------------------------ */
/* the probe                                                           */
/* ------------------------------------------------------------------ */

/* The probe sizes static shared memory before the launch: it runs block
 * 0's first thread (or warp), with its real context, up to its first
 * device call, which yields (the gate) without running.  The launch then
 * resumes that same coroutine, so the kernel's code before its first
 * device call runs once; the __shared__ arrays the probe saw declared are
 * declared in the engine just before (replay_decls), in their order. */
static void probe_run(lua_State *L, lctx *x, kstate *ks) {
  int top = lua_gettop(L), nt, nargs, nres = 0, status;
  uint32_t *masks = NULL;
  lua_State *co;
  {
    int64_t n64 = (int64_t)x->r.bdim[0] * x->r.bdim[1] * x->r.bdim[2];
    nt = n64 > 1024 * 1024 ? 1024 * 1024 : (int)n64; /* the engine refuses
                                                      * such blocks */
  }
  lua_newtable(L);
  x->r.probe_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  x->r.npdecl = 0;
  x->r.probe_shared = 0;
  x->r.probe_thread = 0;
  x->r.block = 0;
  x->r.thread = 0;
  block_table(L, x, 0, nt);
  if (x->r.warp_mode) {
    lua_rawgeti(L, -1, 0);
    masks = lua_touserdata(L, -1);
    lua_pop(L, 1);
    x->r.warp = 0;
    x->r.exist = x->r.active = masks[0] = warp_lanes(x, 0);
  }
  co = thread_co(L, x, top + 1, 0, 0, 0, x->r.warp_mode, &nargs);
  x->r.probe = 1;
  ks->run = &x->r;
  status = lua_resume(co, L, nargs, &nres);
  ks->run = NULL;
  x->r.probe = 0;
  if (status == LUA_YIELD) {
    x->r.probe_state = WLL_PROBE_YIELDED; /* the gate's frame stays */
    if (masks != NULL)
      masks[0] = x->r.active; /* it may have stopped inside w:where */
  } else if (status == LUA_OK) {
    lua_settop(co, 0);
    x->r.probe_state = WLL_PROBE_DONE;
  } else {
    x->r.probe_state = WLL_PROBE_FAILED; /* the error stays on co */
  }
  lua_settop(L, top);
}

/* Declares in the engine the arrays the probe's thread declared (block
 * 0, thread 0 or warp 0), as c:shared and c:extern_shared would have. */
static int replay_decls(lua_State *L, lctx *x, wl_launch *l) {
  krun *r = &x->r;
  int i;
  (void)L;
  for (i = 0; i < r->npdecl; i++) {
    wll_pdecl *p = &r->pdecl[i];
    darray *a = p->a;
    int es = type_sizes[p->type], lane, first = -1, k, t;
    uint64_t size = 0;
    if (p->ext) {
      lua_Integer n;
      if (wl_kernel_shared(l, 0, 0, 0, 16, 1, p->line, &k, &size) != 0)
        return WL_ERUNTIME;
      n = p->nset ? p->n : ((lua_Integer)size - p->off) / es;
      if (!wl_range_inside(p->off / es, n, 0, (lua_Integer)(size / es))) {
        char msg[200];
        snprintf(msg, sizeof msg,
                 "extern shared view '%s' (%lld x %s at byte %lld) does not "
                 "fit the launch's %llu dynamic bytes (launch option "
                 "shared =)",
                 a->name, (long long)n, type_words[p->type],
                 (long long)p->off, (unsigned long long)size);
        return wl_kernel_fail(l, 0, 0, NULL, p->line, msg);
      }
      a->id = k;
      a->base = (uint64_t)p->off;
      a->len = a->hi = n;
    } else {
      for (lane = 0; lane < 32; lane++) {
        t = p->lanes ? lane : 0;
        if (p->lanes && !(p->lanes >> lane & 1))
          continue;
        if (wl_kernel_shared(l, 0, t, (uint64_t)p->n * (uint64_t)es, es, 0,
                             p->line, &k, &size) != 0)
          return WL_ERUNTIME;
        if (first < 0)
          first = k;
        if (!p->lanes)
          break;
      }
      a->id = first;
      a->len = a->hi = (lua_Integer)(size / (uint64_t)es);
      if (first >= 0 && first < WLL_PROBE_DECLS)
        snprintf(r->shname[first], sizeof r->shname[first], "%s", a->name);
    }
    a->gen = r->gen;
  }
  r->npdecl = 0;
  return 0;
}

/* What the probe left for thread (or warp) 0 of block 0, settled when
 * the launch first runs it: 1 when co is to be resumed as usual. */
static int probe_owed(lua_State *L, lctx *x, wl_launch *l, lua_State *co,
                      int *rc) {
  int st = x->r.probe_state;
  x->r.probe_state = WLL_PROBE_NONE;
  *rc = replay_decls(L, x, l);
  if (*rc != 0)
    return 0;
  if (st == WLL_PROBE_FAILED) {
    *rc = co_error(L, co, l, 0, x->r.probe_thread);
    return 0;
  }
  if (st == WLL_PROBE_DONE) {
    int lane;
    uint32_t ex = x->r.warp_mode ? warp_lanes(x, 0) : 1;
    for (lane = 0; lane < 32; lane++)
      if ((ex >> lane & 1) && wl_kernel_exit(l, 0, lane) != 0) {
        *rc = WL_ERUNTIME;
        return 0;
      }
    lua_pushnil(L);
    lua_rawseti(L, -3, 1); /* the block table, below co */
    return 0;
  }
  return 1;
}

/* ------------------------------------------------------------------ */
/* time                                                                */
/* ------------------------------------------------------------------ */

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void time_msg(const krun *r, char *msg, size_t n, const char *what) {
  int sig = wll_sig_pending();
  if (sig != 0) { /* SIGINT/SIGTERM end a launch as its time bound does */
    snprintf(msg, n, "the launch was interrupted by %s", wll_sig_name(sig));
    return;
  }
  snprintf(msg, n,
           "the launch ran past its time bound (max_seconds = %g) %s; "
           "raise max_seconds if the kernel is just long",
           r->max_seconds, what);
}

/* Lua's count hook, on every coroutine of a launch: a kernel looping in
 * Lua alone (no device call, so no step) is stopped by the time bound
 * too.  Outside launches it hands over to the hook it replaced. */
static void count_hook(lua_State *L, lua_Debug *ar) {
  kstate *ks;
  krun *r;
  char msg[300], file[LUA_IDSIZE + 1];
  int line;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &kstate_key);
  ks = lua_touserdata(L, -1);
  lua_pop(L, 1);
  if (ks == NULL)
    return;
  r = ks->run;
  if (ar->event != LUA_HOOKCOUNT || r == NULL || r->L == L) {
    /* not a kernel's coroutine, or another hook's event */
    if (ks->old_hook != NULL && (ks->old_mask & LUA_MASKCOUNT))
      ks->old_hook(L, ar);
    return;
  }
  if (now() < r->deadline && !wll_sig_pending())
    return;
  time_msg(r, msg, sizeof msg, "in a loop that makes no device call");
  lua_getinfo(L, "Sl", ar);
  line = ar->currentline;
  snprintf(file, sizeof file, "%s", ar->short_src);
  if (r->probe) {
    luaL_error(L, "%s:%d: %s", file, line, msg);
    return;
  }
  wl_kernel_fail(r->l, r->block, r->thread, file, line, msg);
  lua_pushstring(L, wl_launch_errmsg(r->l));
  lua_error(L);
}

#define HOOK_COUNT 100000
/* the default of launch option max_seconds: a few seconds of work */
#define WLL_MAX_SECONDS 10.0

/* Sets the count hook on L for a launch, keeping the one it replaces. */
static void hook_on(lua_State *L, kstate *ks) {
  if (lua_gethook(L) == count_hook)
    return;
  ks->old_hook = lua_gethook(L);
  ks->old_mask = lua_gethookmask(L);
  ks->old_count = lua_gethookcount(L);
  lua_sethook(L, count_hook, LUA_MASKCOUNT | ks->old_mask, HOOK_COUNT);
}

/* Gives L back the hook it had, unless someone set another meanwhile. */
static void hook_off(lua_State *L, kstate *ks) {
  if (lua_gethook(L) == count_hook)
    lua_sethook(L, ks->old_hook, ks->old_mask, ks->old_count);
  ks->old_hook = NULL;
  ks->old_mask = ks->old_count = 0;
}

/* The time bound between steps: a warp spinning on a flag makes steps,
 * slowly, and is stopped here, named with its line. */
static int past_deadline(lua_State *L, lctx *x, wl_launch *l, int block,
                         int thread) {
  char msg[300], file[256] = "";
  int line = 0;
  if ((now() < x->r.deadline && !wll_sig_pending()) ||
      (block == 0 && thread < 32 && x->r.probe_state != WLL_PROBE_NONE))
    return 0; /* what the probe left is settled first */
  if (lua_rawgeti(L, x->threads, block + 1) == LUA_TTABLE &&
      lua_rawgeti(L, -1, (x->r.warp_mode ? thread / 32 : thread) + 1) ==
          LUA_TTHREAD)
    line = co_where(lua_tothread(L, -1), file, sizeof file);
  time_msg(&x->r, msg, sizeof msg, "(a spin loop waiting for a value no "
                                  "thread writes?)");
  return wl_kernel_fail(l, block, thread, file[0] ? file : NULL, line, msg);
}

/* ------------------------------------------------------------------ */
/* the engine's callbacks                                              */
/* ------------------------------------------------------------------ */

/* Every Lua call made from an engine callback runs inside lua_pcall
 * (lua.c's pmain, luv's work callbacks): an error, out of memory
 * included, never unwinds through engine frames.  The protected function
 * receives the launch's values as arguments (KARG_*), so the stack
 * indices of lctx are those of its own frame while it runs. */
enum { KARG_FN = 1, KARG_ARGS, KARG_THREADS, KARG_CMETA, KARG_DIMS, KARG_KS,
       KARG_CALL, KARG_N };

typedef struct kcall {
  lctx *x;
  wl_launch *l;
  int block, warp, rc;
} kcall;

/* run_warp of a warp-vector kernel: one coroutine per warp, whose lanes
 * never diverge at barriers or at the end (w:syncthreads checks that
 * every lane is active), so all of them are runnable or none.  The
 * block's table holds the coroutines at warp + 1 and, at 0, the active
 * mask each warp had when it last yielded (inside w:where). */
static int run_warp_vec(lctx *x, wl_launch *l, int block, int warp) {
  lua_State *L = x->r.L, *co;
  int top = lua_gettop(L), nt = wl_kernel_threads_per_block(l);
  int status, nres = 0, nargs, lane, rc;
  uint32_t *masks, exist = warp_lanes(x, warp);
  if (wl_kernel_lane_state(l, block, warp * 32) != WL_LANE_RUNNABLE)
    return 0;
  if ((rc = past_deadline(L, x, l, block, warp * 32)) != 0)
    return rc;
  lua_settop(L, top);
  block_table(L, x, block, nt);
  lua_rawgeti(L, top + 1, 0);
  masks = lua_touserdata(L, -1);
  lua_pop(L, 1);
  x->r.l = l;
  x->r.block = block;
  x->r.warp = warp;
  x->r.thread = warp * 32;
  x->r.exist = exist;
  co = thread_co(L, x, top + 1, warp, block, warp, 1, &nargs);
  x->r.active = nargs < 0 ? masks[warp] : exist;
  nargs = nargs < 0 ? -nargs - 1 : nargs;
  if (block == 0 && warp == 0 && x->r.probe_state != WLL_PROBE_NONE &&
      !probe_owed(L, x, l, co, &rc)) {
    lua_settop(L, top);
    return rc;
  }
  lua_pop(L, 1);
  status = lua_resume(co, L, nargs, &nres);
  if (status == LUA_YIELD) {
    keep_yielded(co, nres);
    masks[warp] = x->r.active;
    lua_settop(L, top);
    return 0;
  }
  if (status == LUA_OK) {
    lua_settop(co, 0);
    lua_pushnil(L);
    lua_rawseti(L, top + 1, warp + 1);
    lua_settop(L, top);
    for (lane = 0; lane < 32; lane++)
      if ((exist >> lane & 1) &&
          wl_kernel_exit(l, block, warp * 32 + lane) != 0)
        return WL_ERUNTIME;
    return 0;
  }
  /* an error: named after the warp's first active lane */
  lane = x->r.active ? __builtin_ctz(x->r.active) : 0;
  status = co_error(L, co, l, block, warp * 32 + lane);
  lua_settop(L, top);
  return status;
}

static int run_lanes(lctx *x, wl_launch *l, int block, int warp) {
  lua_State *L = x->r.L;
  int nt = wl_kernel_threads_per_block(l), lane, top = lua_gettop(L), rc;
  int order[32], norder, k;
  x->r.l = l;
  if ((rc = past_deadline(L, x, l, block, warp * 32)) != 0)
    return rc;
  lua_settop(L, top);
  block_table(L, x, block, nt);
  norder = wl_kernel_lane_order(l, block, warp, order);
  for (k = 0; k < norder; k++) {
    int t, status, nres = 0, nargs;
    lua_State *co;
    lane = order[k];
    t = warp * 32 + lane;
    if (wl_kernel_lane_state(l, block, t) != WL_LANE_RUNNABLE)
      continue;
    co = thread_co(L, x, top + 1, t, block, t, 0, &nargs);
    nargs = nargs < 0 ? -nargs - 1 : nargs;
    x->r.block = block;
    x->r.thread = t;
    if (block == 0 && t == 0 && x->r.probe_state != WLL_PROBE_NONE &&
        !probe_owed(L, x, l, co, &rc)) {
      lua_pop(L, 1);
      if (rc != 0) {
        lua_settop(L, top);
        return rc;
      }
      continue;
    }
    lua_pop(L, 1);
    status = lua_resume(co, L, nargs, &nres);
    if (status == LUA_YIELD) {
      keep_yielded(co, nres);
      continue;
    }
    if (status == LUA_OK) {
      lua_settop(co, 0);
      lua_pushnil(L);
      lua_rawseti(L, top + 1, t + 1);
      if (wl_kernel_exit(l, block, t) != 0)
        return WL_ERUNTIME;
      continue;
    }
    /* an error */
    status = co_error(L, co, l, block, t);
    lua_settop(L, top);
    return status;
  }
  lua_settop(L, top);
  return 0;
}

/* The protected body of run_warp (arguments: KARG_*). */
static int run_warp_p(lua_State *L) {
  kcall *c = lua_touserdata(L, KARG_CALL);
  lctx *x = c->x;
  c->rc = x->r.warp_mode ? run_warp_vec(x, c->l, c->block, c->warp)
                         : run_lanes(x, c->l, c->block, c->warp);
  return 0;
}

static int run_warp(void *ud, wl_launch *l, int block, int warp) {
  lctx *x = ud, outer = *x;
  lua_State *L = x->r.L;
  kcall c;
  int status;
  if (!lua_checkstack(L, KARG_N + LUA_MINSTACK))
    return wl_kernel_fail(l, block, warp * 32, NULL, 0,
                          "Lua stack overflow");
  c.x = x;
  c.l = l;
  c.block = block;
  c.warp = warp;
  c.rc = 0;
  lua_pushcfunction(L, run_warp_p);
  lua_pushvalue(L, outer.fn);
  lua_pushvalue(L, outer.args);
  lua_pushvalue(L, outer.threads);
  lua_pushvalue(L, outer.cmeta);
  lua_pushvalue(L, outer.dims);
  lua_pushvalue(L, outer.ks);
  lua_pushlightuserdata(L, &c);
  x->fn = KARG_FN;
  x->args = KARG_ARGS;
  x->threads = KARG_THREADS;
  x->cmeta = KARG_CMETA;
  x->dims = KARG_DIMS;
  x->ks = KARG_KS;
  status = lua_pcall(L, KARG_N - 1, 0, 0);
  x->fn = outer.fn;
  x->args = outer.args;
  x->threads = outer.threads;
  x->cmeta = outer.cmeta;
  x->dims = outer.dims;
  x->ks = outer.ks;
  if (status != LUA_OK) { /* out of memory, say: the launch fails */
    if (wl_launch_errmsg(l)[0] == 0)
      wl_kernel_fail(l, block, x->r.thread, NULL, 0,
                     lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1)
                                                    : "error in the driver");
    lua_pop(L, 1);
    return WL_ERUNTIME;
  }
  return c.rc;
}

static void block_done(void *ud, wl_launch *l, int block) {
  lctx *x = ud;
  (void)l;
  /* neither call can raise: a stack slot is there (run_warp checked)
   * and a raw set of nil allocates nothing */
  if (!lua_checkstack(x->r.L, 1))
    return;
  lua_pushnil(x->r.L);
  lua_rawseti(x->r.L, x->threads, block + 1);
}

static const char *const profile_words[] = {"weak", "h100", NULL};
static const char *const pref_words[] = {"none", "prefer_shared",
                                         "prefer_l1", "prefer_equal", NULL};

static const char *const launch_keys[] = {
    "grid",  "block",   "shared", "regs",          "seed",
    "max_steps", "slice", "profile", "cache", "static_shared",
    "max_seconds", "check", "schedule", NULL};
static const char *const schedule_words[] = {"independent", "lockstep",
                                             "random", NULL};
static const char *const occupancy_keys[] = {
    "block", "shared", "static_shared", "regs", "cache", NULL};


int wll_check_flags(lua_State *L, int idx) {
  static const char *const words[] = {"races", "uninit", "spin", NULL};
  int flags = 0, i;
  idx = lua_absindex(L, idx);
  switch (lua_type(L, idx)) {
  case LUA_TNIL:
    return 0;
  case LUA_TBOOLEAN:
    return lua_toboolean(L, idx) ? WL_CHECK_ALL : 0;
  case LUA_TSTRING: {
    const char *p = lua_tostring(L, idx);
    if (strcmp(p, "all") == 0)
      return WL_CHECK_ALL;
    while (*p) {
      size_t n = strcspn(p, ", ");
      for (i = 0; words[i] && !(strlen(words[i]) == n &&
                                strncmp(words[i], p, n) == 0);
           i++)
        ;
      if (n > 0 && words[i] == NULL) {
        lua_pushlstring(L, p, n);
        return luaL_error(L, "check: unknown checker '%s' (races, uninit, "
                             "spin, all)",
                          lua_tostring(L, -1));
      }
      if (n > 0)
        flags |= 1 << i;
      p += n;
      p += strspn(p, ", ");
    }
    return flags;
  }
  case LUA_TTABLE:
    for (i = 0; words[i]; i++) {
      if (lua_getfield(L, idx, words[i]) != LUA_TNIL && lua_toboolean(L, -1))
        flags |= 1 << i;
      lua_pop(L, 1);
    }
    lua_pushnil(L);
    while (lua_next(L, idx)) {
      lua_pop(L, 1);
      for (i = 0; words[i] && !(lua_type(L, -1) == LUA_TSTRING &&
                                strcmp(lua_tostring(L, -1), words[i]) == 0);
           i++)
        ;
      if (words[i] == NULL) {
        lua_pop(L, 1);
        return luaL_error(L, "check: unknown checker (races, uninit, spin)");
      }
    }
    return flags;
  default:
    return luaL_error(L, "check: true, false, a list like \"races,uninit\" "
                         "or a table {races = true, ...} expected, got %s",
                      luaL_typename(L, idx));
  }
}

/* Pushes the function of kernel argument k: wl.kernel(...) and
 * wl.warp_kernel(...) tables or plain functions; returns 1 for a
 * warp-vector kernel (mode = "warp"). */
static int kernel_fn(lua_State *L, int k) {
  int warp;
  if (lua_type(L, k) == LUA_TFUNCTION) {
    lua_pushvalue(L, k);
    return 0;
  }
  if (lua_type(L, k) == LUA_TTABLE) {
    lua_getfield(L, k, "mode");
    warp = lua_type(L, -1) == LUA_TSTRING &&
           strcmp(lua_tostring(L, -1), "warp") == 0;
    lua_pop(L, 1);
    if (lua_getfield(L, k, "fn") == LUA_TFUNCTION)
      return warp;
  }
  return luaL_argerror(L, k, "a kernel (wl.kernel(fn) or a function) "
                             "expected");
}

static void push_occ(lua_State *L, const wl_occupancy *o) {
  static const char *const lim[] = {"threads", "warps", "blocks",
                                    "registers", "shared memory"};
  lua_createtable(L, 0, 12);
  lua_pushinteger(L, o->blocks_per_sm);
  lua_setfield(L, -2, "blocks_per_sm");
  lua_pushstring(L, lim[o->limiter]);
  lua_setfield(L, -2, "limited_by");
  lua_pushinteger(L, o->by_threads);
  lua_setfield(L, -2, "by_threads");
  lua_pushinteger(L, o->by_warps);
  lua_setfield(L, -2, "by_warps");
  lua_pushinteger(L, o->by_blocks);
  lua_setfield(L, -2, "by_blocks");
  lua_pushinteger(L, o->by_regs);
  lua_setfield(L, -2, "by_registers");
  lua_pushinteger(L, o->by_shared);
  lua_setfield(L, -2, "by_shared");
  lua_pushinteger(L, o->shared_per_sm);
  lua_setfield(L, -2, "shared_per_sm");
  lua_pushinteger(L, o->shared_per_block);
  lua_setfield(L, -2, "shared_per_block");
  lua_pushinteger(L, o->warps_per_sm);
  lua_setfield(L, -2, "warps_per_sm");
  lua_pushnumber(L, o->occupancy);
  lua_setfield(L, -2, "occupancy");
}

static void push_counters(lua_State *L, const wl_launch *l, int site) {
  int i;
  const char *n;
  lua_newtable(L);
  for (i = 0; (n = wl_launch_counter_name(i)) != NULL; i++) {
    lua_pushinteger(L, (lua_Integer)wl_launch_counter(l, site, i));
    lua_setfield(L, -2, n);
  }
}

/* Pushes the launch report: {occupancy, counters, sites, steps}. */
static void push_report(lua_State *L, const wl_launch *l, int banks,
                        int bank_bytes);

typedef struct report_args {
  const wl_launch *l;
  int banks, bank_bytes;
} report_args;

/* push_report run by lua_pcall: (report_args *) -> the report */
static int push_report_p(lua_State *L) {
  const report_args *a = lua_touserdata(L, 1);
  push_report(L, a->l, a->banks, a->bank_bytes);
  return 1;
}

static void push_report(lua_State *L, const wl_launch *l, int banks,
                        int bank_bytes) {
  static const char *const sp[] = {"global", "managed", "constant",
                                   "param",  "shared",  "local"};
  static const char *const kinds[] = {"ld", "st", "atom"};
  int k, n = wl_launch_nsites(l);
  lua_createtable(L, 0, 4);
  push_occ(L, wl_launch_occupancy(l));
  lua_setfield(L, -2, "occupancy");
  push_counters(L, l, -1);
  lua_setfield(L, -2, "counters");
  lua_pushinteger(L, (lua_Integer)wl_launch_steps(l));
  lua_setfield(L, -2, "steps");
  lua_createtable(L, n, 0);
  for (k = 0; k < n; k++) {
    int line, space, kind, width;
    wl_launch_site(l, k, &line, &space, &kind, &width);
    lua_createtable(L, 0, 5);
    lua_pushinteger(L, line);
    lua_setfield(L, -2, "line");
    lua_pushstring(L, sp[space]);
    lua_setfield(L, -2, "space");
    lua_pushstring(L, kinds[kind]);
    lua_setfield(L, -2, "op");
    lua_pushinteger(L, width);
    lua_setfield(L, -2, "width");
    push_counters(L, l, k);
    lua_setfield(L, -2, "counters");
    {
      uint32_t mask;
      uint64_t addr[32];
      int wf = wl_launch_site_worst(l, k, &mask, addr), i;
      if (wf >= 0) { /* a spec wl.bank_access / wl.heatmap take */
        lua_createtable(L, 0, 6);
        lua_createtable(L, 32, 0);
        for (i = 0; i < 32; i++)
          if (mask >> i & 1) {
            lua_pushinteger(L, (lua_Integer)addr[i]);
            lua_rawseti(L, -2, i + 1);
          }
        lua_setfield(L, -2, "offsets");
        lua_pushinteger(L, (lua_Integer)mask);
        lua_setfield(L, -2, "active");
        lua_pushinteger(L, width);
        lua_setfield(L, -2, "width");
        lua_pushstring(L, kind == WL_ACC_LOAD ? "ld" : "st");
        lua_setfield(L, -2, "op");
        lua_pushinteger(L, banks);
        lua_setfield(L, -2, "banks");
        lua_pushinteger(L, bank_bytes);
        lua_setfield(L, -2, "bank_bytes");
        lua_setfield(L, -2, "worst_access");
      }
    }
    lua_rawseti(L, -2, k + 1);
  }
  lua_setfield(L, -2, "sites");
}

static void push_access(lua_State *L, const wl_find_access *a) {
  static const char *const kinds[] = {"ld", "st", "atom"};
  static const char *const sems[] = {"weak", "relaxed", "acquire",
                                     "release", "acq_rel", "sc"};
  static const char *const scopes_w[] = {"", "cta", "gpu", "sys"};
  lua_createtable(L, 0, 10);
  lua_createtable(L, 0, 3);
  lua_pushinteger(L, a->bidx[0]);
  lua_setfield(L, -2, "x");
  lua_pushinteger(L, a->bidx[1]);
  lua_setfield(L, -2, "y");
  lua_pushinteger(L, a->bidx[2]);
  lua_setfield(L, -2, "z");
  lua_setfield(L, -2, "block");
  lua_createtable(L, 0, 3);
  lua_pushinteger(L, a->tidx[0]);
  lua_setfield(L, -2, "x");
  lua_pushinteger(L, a->tidx[1]);
  lua_setfield(L, -2, "y");
  lua_pushinteger(L, a->tidx[2]);
  lua_setfield(L, -2, "z");
  lua_setfield(L, -2, "thread");
  lua_pushinteger(L, a->warp);
  lua_setfield(L, -2, "warp");
  lua_pushinteger(L, a->lane);
  lua_setfield(L, -2, "lane");
  lua_pushinteger(L, a->line);
  lua_setfield(L, -2, "line");
  lua_pushstring(L, kinds[a->kind >= 0 && a->kind <= 2 ? a->kind : 0]);
  lua_setfield(L, -2, "op");
  lua_pushstring(L, sems[a->sem >= 0 && a->sem <= 5 ? a->sem : 0]);
  lua_setfield(L, -2, "sem");
  if (a->scope > 0 && a->scope <= 3) {
    lua_pushstring(L, scopes_w[a->scope]);
    lua_setfield(L, -2, "scope");
  }
}

/* Pushes the launch's findings: an array of tables {kind, space, name,
 * offset, address, a, b, count, fix, message}. */
static void push_findings(lua_State *L, const wl_launch *l, const krun *r,
                          const char *src) {
  static const char *const kinds[] = {"race", "warp race", "uninit",
                                      "spin"};
  static const char *const sp[] = {"global", "managed", "constant",
                                   "param",  "shared",  "local"};
  int i, n = wl_launch_nfindings(l);
  lua_createtable(L, n, 0);
  for (i = 0; i < n; i++) {
    const wl_finding *f = wl_launch_finding(l, i);
    const char *name = f->name;
    luaL_Buffer b;
    if (f->space == WL_SPACE_SHARED)
      name = f->id == WL_SHARED_EXTERN ? "extern shared"
             : f->id >= 0 && f->id < WLL_PROBE_DECLS && r->shname[f->id][0]
                 ? r->shname[f->id]
                 : "shared";
    lua_createtable(L, 0, 12);
    lua_pushstring(L, kinds[f->kind]);
    lua_setfield(L, -2, "kind");
    lua_pushstring(L, sp[f->space]);
    lua_setfield(L, -2, "space");
    lua_pushstring(L, name);
    lua_setfield(L, -2, "name");
    lua_pushinteger(L, (lua_Integer)f->off);
    lua_setfield(L, -2, "offset");
    lua_pushinteger(L, (lua_Integer)f->addr);
    lua_setfield(L, -2, "address");
    lua_pushinteger(L, (lua_Integer)f->count);
    lua_setfield(L, -2, "count");
    lua_pushstring(L, f->fix);
    lua_setfield(L, -2, "fix");
    push_access(L, &f->a);
    lua_setfield(L, -2, "a");
    if (f->b.block >= 0) {
      push_access(L, &f->b);
      lua_setfield(L, -2, "b");
    }
    /* the message: "file:line: kind ..." naming both threads */
    luaL_buffinit(L, &b);
    lua_pushfstring(L, "%s:%d: ", src, f->a.line);
    luaL_addvalue(&b);
    if (f->kind == WL_FIND_RACE || f->kind == WL_FIND_WARP_RACE) {
      lua_pushfstring(
          L,
          "%s on %s '%s' (byte %d, address %p): %s by block (%d,%d,%d) "
          "thread (%d,%d,%d) warp %d lane %d at line %d and %s by block "
          "(%d,%d,%d) thread (%d,%d,%d) warp %d lane %d at line %d",
          f->kind == WL_FIND_RACE ? "data race" : "warp-synchronous hazard "
                                                  "(a data race between lanes "
                                                  "of one warp)",
          sp[f->space], name, (int)f->off, (void *)(uintptr_t)f->addr,
          f->b.kind == WL_ACC_LOAD ? "load" : f->b.kind == WL_ACC_STORE
                                                  ? "store" : "atomic",
          f->b.bidx[0], f->b.bidx[1], f->b.bidx[2], f->b.tidx[0],
          f->b.tidx[1], f->b.tidx[2], f->b.warp, f->b.lane, f->b.line,
          f->a.kind == WL_ACC_LOAD ? "load" : f->a.kind == WL_ACC_STORE
                                                  ? "store" : "atomic",
          f->a.bidx[0], f->a.bidx[1], f->a.bidx[2], f->a.tidx[0],
          f->a.tidx[1], f->a.tidx[2], f->a.warp, f->a.lane, f->a.line);
    } else {
      lua_pushfstring(L, "%s %s '%s' (byte %d): block (%d,%d,%d) thread "
                         "(%d,%d,%d) warp %d lane %d",
                      f->kind == WL_FIND_UNINIT
                          ? "read of memory never written:"
                          : "possible hang: a spin on",
                      sp[f->space], name, (int)f->off, f->a.bidx[0],
                      f->a.bidx[1], f->a.bidx[2], f->a.tidx[0],
                      f->a.tidx[1], f->a.tidx[2], f->a.warp, f->a.lane);
    }
    luaL_addvalue(&b);
    luaL_addstring(&b, "; ");
    luaL_addstring(&b, f->fix);
    luaL_pushresult(&b);
    lua_setfield(L, -2, "message");
    lua_rawseti(L, -2, i + 1);
  }
}

/* Copies the array of numbers at idx into a new parameter allocation and
 * pushes its (read-only) view. */
static int make_param(lua_State *L, kdev *d, int idx, int argno) {
  lua_Integer n = (lua_Integer)luaL_len(L, idx), j;
  int isint = 1, id, type;
  char name[32];
  darray *a;
  for (j = 1; j <= n; j++) {
    int t = lua_rawgeti(L, idx, j);
    if (t != LUA_TNUMBER)
      luaL_error(L, "launch: argument %d is a table but element %d is %s "
                    "(a parameter array holds numbers)",
                 argno, (int)j, lua_typename(L, t));
    if (!lua_isinteger(L, -1))
      isint = 0;
    lua_pop(L, 1);
  }
  type = isint ? WL_TYPE_INT64 : WL_TYPE_DOUBLE;
  snprintf(name, sizeof name, "argument %d", argno);
  if (wl_device_alloc(d->d, WL_SPACE_PARAM, wll_bytes(L, n, 8, name), name,
                      &id) != 0)
    luaL_error(L, "launch: %s", wl_ctx_errmsg(d->ctx));
  a = newarr(L, d, id, WL_SPACE_PARAM, type, n, name);
  write_values(L, a, idx, 0);
  return id;
}

/* dev:launch(kernel, {grid=, block=, shared=, seed=, profile=, regs=,
 * cache=, max_steps=, slice=}, args...) -> report */
/* A finished launch's box: it holds the launch while the report is
 * built, so that a memory error there frees it (its __gc). */
static int launch_gc(lua_State *L) {
  wl_launch **b = luaL_checkudata(L, 1, WLL_LAUNCH);
  wl_launch_free(*b);
  *b = NULL;
  return 0;
}

static int kd_launch(lua_State *L) {
  kdev *d = checkkdev(L, 1);
  kstate *ks = KS(L);
  int nargs = lua_gettop(L) - 3, i, rc;
  lctx x;
  wl_launch_cfg cfg;
  wl_launch *l = NULL, **box;
  int params[64], nparams = 0;
  uint64_t bsz;
  lua_Debug ar;
  char src[LUA_IDSIZE + 1];
  if (ks->run != NULL)
    return luaL_error(L, "launches do not nest (dev:launch inside a "
                         "kernel)");
  luaL_checktype(L, 3, LUA_TTABLE);
  wll_checkopts(L, 3, "launch", launch_keys, 0);
  memset(&x, 0, sizeof x);
  memset(&cfg, 0, sizeof cfg);
  dim3(L, 3, "grid", cfg.grid);
  dim3(L, 3, "block", cfg.block);
  cfg.dynamic_shared =
      (uint32_t)wll_optint(L, 3, "launch", "shared", 0, 0, UINT32_MAX);
  cfg.regs_per_thread = (int)wll_optint(L, 3, "launch", "regs", 0, 0, 255);
  cfg.seed = (uint64_t)wll_optint(L, 3, "launch", "seed", 1, LUA_MININTEGER,
                                  LUA_MAXINTEGER);
  cfg.max_steps = (uint64_t)wll_optint(L, 3, "launch", "max_steps", 0, 0,
                                       LUA_MAXINTEGER);
  cfg.slice = (int)wll_optint(L, 3, "launch", "slice", 0, 0, INT_MAX);
  cfg.profile =
      wll_optword(L, 3, "launch", "profile", "weak", profile_words) == 1
          ? WL_PROFILE_H100
          : WL_PROFILE_WEAK;
  cfg.schedule = wll_optword(L, 3, "launch", "schedule", "independent",
                             schedule_words);
  lua_getfield(L, 3, "check");
  cfg.check = wll_check_flags(L, -1);
  lua_pop(L, 1);
  if (lua_getfield(L, 3, "cache") != LUA_TNIL)
    cfg.cache_pref = wll_optword(L, 3, "launch", "cache", NULL, pref_words);
  else if (lua_type(L, 2) == LUA_TTABLE &&
           lua_getfield(L, 2, "cache") != LUA_TNIL) /* the kernel's own */
    cfg.cache_pref = wll_optword(L, 2, "wl.kernel", "cache", NULL,
                                 pref_words);
  else
    cfg.cache_pref = d->cache_pref;
  lua_settop(L, nargs + 3);
  /* stack: dev, kernel, cfg, args... then ours */
  x.r.warp_mode = kernel_fn(L, 2);
  x.fn = lua_gettop(L);
  x.ks = lua_upvalueindex(1);
  lua_createtable(L, nargs, 0);
  for (i = 0; i < nargs; i++) {
    if (lua_type(L, 4 + i) == LUA_TTABLE && !lua_getmetatable(L, 4 + i)) {
      /* a plain array of numbers: a __grid_constant__ parameter */
      if (nparams == (int)(sizeof params / sizeof params[0]))
        return luaL_error(L, "launch: too many table arguments");
      params[nparams] = make_param(L, d, 4 + i, i + 1);
      nparams++;
    } else {
      if (lua_type(L, 4 + i) == LUA_TTABLE)
        lua_pop(L, 1); /* its metatable */
      lua_pushvalue(L, 4 + i);
    }
    lua_rawseti(L, -2, i + 1);
  }
  x.args = lua_gettop(L);
  lua_newtable(L);
  x.threads = lua_gettop(L);
  lua_newtable(L); /* the metatable of every c (or w) */
  lua_getiuservalue(L, lua_upvalueindex(1), x.r.warp_mode ? 2 : 1);
  lua_setfield(L, -2, "__index");
  x.cmeta = lua_gettop(L);
  lua_createtable(L, 0, 2);
  push_dim(L, cfg.block[0], cfg.block[1], cfg.block[2]);
  lua_setfield(L, -2, "blockDim");
  push_dim(L, cfg.grid[0], cfg.grid[1], cfg.grid[2]);
  lua_setfield(L, -2, "gridDim");
  x.dims = lua_gettop(L);
  x.r.L = L;
  for (i = 0; i < 3; i++) {
    x.r.gdim[i] = cfg.grid[i];
    x.r.bdim[i] = cfg.block[i];
  }
  x.r.sm = wll_device_sm(wl_device_config(d->d)->name);
  lua_pushvalue(L, x.fn);
  lua_getinfo(L, ">S", &ar);
  snprintf(src, sizeof src, "%s", ar.short_src);
  cfg.source = src;
  cfg.end_line = ar.lastlinedefined > 0 ? ar.lastlinedefined : 0;
  /* the time bound, and Lua's count hook so that it holds for code that
   * makes no device call; both from before the probe, which runs the
   * kernel's first thread */
  x.r.max_seconds = WLL_MAX_SECONDS;
  if (lua_getfield(L, 3, "max_seconds") != LUA_TNIL) {
    int isnum;
    x.r.max_seconds = lua_tonumberx(L, -1, &isnum);
    if (!isnum || !(x.r.max_seconds > 0))
      return luaL_error(L, "launch: option 'max_seconds' must be a positive "
                           "number of seconds");
  }
  lua_pop(L, 1);
  x.r.deadline = now() + x.r.max_seconds;
  x.r.probe_ref = LUA_NOREF;
  x.r.probe_dynamic = cfg.dynamic_shared;
  hook_on(L, ks);
  if (lua_getfield(L, 3, "static_shared") != LUA_TNIL) {
    cfg.static_shared = (uint32_t)wll_optint(L, 3, "launch", "static_shared",
                                             0, 0, UINT32_MAX);
  } else if (wl_size_mul((uint64_t)cfg.block[0], (uint64_t)cfg.block[1],
                         &bsz) == 0 &&
             wl_size_mul(bsz, (uint64_t)cfg.block[2], &bsz) == 0 &&
             bsz <= (uint64_t)wl_device_config(d->d)->max_threads_per_block) {
    /* (a block too large for the device: the launch refuses it below,
     * with no thread run) */
    probe_run(L, &x, ks);
    cfg.static_shared = x.r.probe_shared > UINT32_MAX
                            ? UINT32_MAX
                            : (uint32_t)x.r.probe_shared;
  }
  lua_pop(L, 1);
  cfg.run_warp = run_warp;
  cfg.block_done = block_done;
  cfg.ud = &x;
  x.r.gen = ++ks->gen;
  x.r.ks = ks;
  /* code of an earlier launch may be gone and its pcs reused */
  memset(ks->lines, 0, sizeof ks->lines);
  ks->run = &x.r;
  lua_settop(L, x.dims);
  box = lua_newuserdatauv(L, sizeof *box, 0); /* before the launch */
  *box = NULL;
  luaL_setmetatable(L, WLL_LAUNCH);
  wll_sig_enter();
  rc = wl_launch_run(d->d, &cfg, &l);
  wll_sig_leave();
  *box = l;
  ks->run = NULL;
  hook_off(L, ks);
  luaL_unref(L, LUA_REGISTRYINDEX, x.r.probe_ref);
  for (i = nparams - 1; i >= 0; i--) /* newest first: the space returns */
    wl_device_release(d->d, params[i]);
  if (rc != 0) {
    /* the message is copied out first: pushing it may raise (out of
     * memory), and the launch must be freed before anything raises */
    char msg[1024];
    wll_sig_take(); /* a signal that ended it is reported by this error */
    snprintf(msg, sizeof msg, "%s",
             l && wl_launch_errmsg(l)[0] ? wl_launch_errmsg(l)
                                         : wl_ctx_errmsg(d->ctx));
    *box = NULL;
    wl_launch_free(l);
    return luaL_error(L, "%s", msg);
  }
  {
    /* the report is built in a protected call, so that a memory error
     * there frees the launch before it goes on up */
    report_args ra;
    ra.l = l;
    ra.banks = wl_device_config(d->d)->banks;
    ra.bank_bytes = wl_device_config(d->d)->bank_bytes;
    if (!lua_checkstack(L, 4)) {
      *box = NULL;
      wl_launch_free(l);
      return luaL_error(L, "launch: out of memory");
    }
    lua_pushcfunction(L, push_report_p);
    lua_pushlightuserdata(L, &ra);
    rc = lua_pcall(L, 1, 1, 0);
    if (rc == LUA_OK && cfg.check) {
      /* the checkers' findings, while the launch still holds them (a
       * memory error here frees the launch through its box) */
      push_findings(L, l, &x.r, src);
      lua_setfield(L, -2, "findings");
    }
    *box = NULL;
    wl_launch_free(l);
    if (rc != LUA_OK)
      return lua_error(L);
  }
  return 1;
}

/* dev:occupancy{block=, shared=, static_shared=, regs=, cache=} */
static int kd_occupancy(lua_State *L) {
  kdev *d = checkkdev(L, 1);
  wl_launch_cfg cfg;
  wl_occupancy o;
  luaL_checktype(L, 2, LUA_TTABLE);
  wll_checkopts(L, 2, "occupancy", occupancy_keys, 0);
  memset(&cfg, 0, sizeof cfg);
  dim3(L, 2, "block", cfg.block);
  cfg.dynamic_shared =
      (uint32_t)wll_optint(L, 2, "occupancy", "shared", 0, 0, UINT32_MAX);
  cfg.static_shared = (uint32_t)wll_optint(L, 2, "occupancy", "static_shared",
                                           0, 0, UINT32_MAX);
  cfg.regs_per_thread =
      (int)wll_optint(L, 2, "occupancy", "regs", 0, 0, 255);
  cfg.cache_pref = wll_optword(L, 2, "occupancy", "cache", "none", pref_words);
  if (wl_device_occupancy(d->d, &cfg, &o) != 0)
    return luaL_error(L, "%s", wl_ctx_errmsg(d->ctx));
  push_occ(L, &o);
  return 1;
}

/* dev:set_cache_config(pref) -- cudaDeviceSetCacheConfig: the carve-out
 * preference of launches that name none (nor their kernel); returns the
 * previous one */
static int kd_set_cache(lua_State *L) {
  kdev *d = checkkdev(L, 1);
  int prev = d->cache_pref;
  if (KS(L)->run != NULL)
    return luaL_error(L, "set the cache configuration between launches");
  d->cache_pref = wll_checkword(L, 2, NULL, pref_words, "cache preference");
  lua_pushstring(L, pref_words[prev]);
  return 1;
}

/* dev:set_shared_mem_config("four_byte" | "eight_byte") --
 * cudaDeviceSetSharedMemConfig: the width of a bank (Kepler's 8-byte
 * mode); returns the previous one.  Real GPUs since Maxwell ignore it,
 * and so do the sm_70, sm_80 and sm_90 presets (eight_byte returns a
 * note as a second value); the others follow it. */
static int kd_set_banks(lua_State *L) {
  static const char *const words[] = {"four_byte", "eight_byte", NULL};
  kdev *d = checkkdev(L, 1);
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
                                      {"_launch", kd_launch},
                                      {"occupancy", kd_occupancy},
                                      {"set_cache_config", kd_set_cache},
                                      {"set_shared_mem_config", kd_set_banks},
                                      {NULL, NULL}};

static const luaL_Reg arr_methods[] = {
    {"read", arr_read}, {"write", arr_write}, {"view", arr_view}, {NULL, NULL}};

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

void wll_kernel_open(lua_State *L) {
  int mod = lua_gettop(L), ks;
  kstate *k = lua_newuserdatauv(L, sizeof *k, 3);
  memset(k, 0, sizeof *k);
  ks = lua_gettop(L);
  lua_pushvalue(L, ks);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &kstate_key);
  k->fast_lines = probe_lines(L);
  push_c_methods(L, ks);
  lua_setiuservalue(L, ks, 1);
  wll_warpvec_open(L, ks);
  /* device arrays */
  luaL_newmetatable(L, WLL_DARRAY);
  k->arr_mt = lua_topointer(L, -1);
  lua_pushvalue(L, ks);
  lua_newtable(L);
  lua_pushvalue(L, ks);
  luaL_setfuncs(L, arr_methods, 1);
  wll_push_gated(L, &f_arr_index, 2);
  lua_setfield(L, -2, "__index");
  lua_pushvalue(L, ks);
  wll_push_gated(L, &f_arr_newindex, 1);
  lua_setfield(L, -2, "__newindex");
  lua_pushvalue(L, ks);
  lua_pushcclosure(L, arr_len, 1);
  lua_setfield(L, -2, "__len");
  lua_pushvalue(L, ks);
  lua_pushcclosure(L, arr_tostring, 1);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
  /* a launch's box (kd_launch) */
  luaL_newmetatable(L, WLL_LAUNCH);
  lua_pushcfunction(L, launch_gc);
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
  lua_settop(L, mod);
}
