/* ldevice.c -- threads written as Lua functions: the device object `d`
 * with a CUDA-like API, and the callback through which the explorer runs
 * them (wl_thread_fn).
 *
 * The explorer calls wll_thread_cb from inside wl_explore.  The Lua
 * function runs under lua_pcall with a traceback handler, so a Lua error
 * never unwinds through engine frames: it is kept in the explore call's
 * error slot and re-raised by test:explore once wl_explore has returned.
 * When a wl_tb call reports the loop bound (WL_ELIMIT), the device raises
 * a marker (the address of bound_marker) that the callback recognises:
 * the trace is cut, which is no error. */
#include <stdio.h>
#include <string.h>

#include "lwarplab.h"

static const char bound_marker = 0;

/* Raises the marker that unwinds a thread function cut by the bound. */
static int raise_bound(lua_State *L, wll_device *d) {
  d->cut = 1;
  lua_pushlightuserdata(L, (void *)&bound_marker);
  return lua_error(L);
}

static wll_device *checkdev(lua_State *L, int arg) {
  wll_device *d = luaL_checkudata(L, arg, WLL_DEVICE);
  if (d->tb == NULL)
    luaL_error(L, "a " WLL_DEVICE " can only be used while its thread "
                  "function runs");
  if (d->cut)
    raise_bound(L, d);
  return d;
}

/* After an engine call: the bound unwinds, other failures raise. */
static void tbcheck(lua_State *L, wll_device *d, int rc, const char *what) {
  const char *m;
  if (rc == 0)
    return;
  if (rc == WL_ELIMIT)
    raise_bound(L, d);
  m = wl_ctx_errmsg(d->th->test->ctx);
  luaL_error(L, "%s: %s", what, m[0] ? m : wl_strerror(rc));
}

/* The location named name, or -1.  Aliases (PTX 7.5) are refused: the
 * wl_tb calls a function thread makes are generic accesses of a
 * location, and the built-in explorer models no proxies. */
static int devloc(lua_State *L, wll_device *d, const char *name) {
  if (wl_litmus_alias(d->th->test->lt, name) >= 0)
    luaL_error(L,
               "'%s' is an alias (PTX 7.5): threads written as Lua "
               "functions cannot use aliases or proxies; write the thread "
               "as instruction strings",
               name);
  return wl_litmus_location(d->th->test->lt, name);
}

static int checkloc(lua_State *L, wll_device *d, int arg) {
  const char *name = luaL_checkstring(L, arg);
  int loc = devloc(L, d, name);
  if (loc < 0)
    luaL_argerror(L, arg,
                  lua_pushfstring(L,
                                  "no location '%s' (declare it in init "
                                  "or shared)",
                                  name));
  return loc;
}

static int64_t checkint(lua_State *L, int arg) {
  int isnum;
  lua_Integer v;
  if (lua_type(L, arg) == LUA_TBOOLEAN)
    return lua_toboolean(L, arg);
  v = lua_tointegerx(L, arg, &isnum);
  if (!isnum || lua_type(L, arg) != LUA_TNUMBER)
    luaL_argerror(L, arg,
                  lua_pushfstring(L, "integer value expected, got %s",
                                  lua_type(L, arg) == LUA_TNUMBER
                                      ? "a fraction"
                                      : luaL_typename(L, arg)));
  return (int64_t)v;
}

/* A value for location loc, converted to its type's int64 carrier:
 * float and double locations take any number, integer ones integers
 * (wrapped to 32 bits for int32/uint32, as a C conversion would). */
static int64_t checkval(lua_State *L, wll_device *d, int loc, int arg) {
  int ty = wl_litmus_location_type(d->th->test->lt, loc);
  if (ty == WL_TYPE_FLOAT || ty == WL_TYPE_DOUBLE) {
    if (lua_type(L, arg) == LUA_TBOOLEAN)
      return wl_value_from_double(ty, lua_toboolean(L, arg));
    return wl_value_from_double(ty, luaL_checknumber(L, arg));
  }
  return wl_value_from_int(ty, checkint(L, arg));
}

/* Pushes a loaded value of location loc as a Lua number of its type. */
static void pushval(lua_State *L, wll_device *d, int loc, int64_t v) {
  int ty = wl_litmus_location_type(d->th->test->lt, loc);
  if (ty == WL_TYPE_FLOAT || ty == WL_TYPE_DOUBLE)
    lua_pushnumber(L, (lua_Number)wl_value_to_double(ty, v));
  else
    lua_pushinteger(L, (lua_Integer)v);
}

static const char *const load_sems[] = {"weak", "relaxed", "acquire", NULL};
static const int load_semv[] = {WL_SEM_WEAK, WL_SEM_RELAXED, WL_SEM_ACQUIRE};
static const char *const store_sems[] = {"weak", "relaxed", "release", NULL};
static const int store_semv[] = {WL_SEM_WEAK, WL_SEM_RELAXED, WL_SEM_RELEASE};
static const char *const scopes[] = {"cta", "gpu", "sys", NULL};
static const int scopev[] = {WL_SCOPE_CTA, WL_SCOPE_GPU, WL_SCOPE_SYS};
static const char *const fence_sems[] = {"sc", "acq_rel", NULL};
static const int fence_semv[] = {WL_SEM_SC, WL_SEM_ACQ_REL};
static const char *const atom_sems[] = {"relaxed", "acquire", "release",
                                        "acq_rel", NULL};
static const int atom_semv[] = {WL_SEM_RELAXED, WL_SEM_ACQUIRE, WL_SEM_RELEASE,
                                WL_SEM_ACQ_REL};

/* A scope argument: required after a strong semantics, absent after a
 * weak one. */
static int checkscope(lua_State *L, int arg, int sem) {
  if (sem == WL_SEM_WEAK) {
    if (!lua_isnoneornil(L, arg))
      luaL_argerror(L, arg, "a weak access has no scope");
    return WL_SCOPE_NONE;
  }
  return scopev[wll_checkword(L, arg, "gpu", scopes, "scope")];
}

/* ------------------------------------------------------------------ */
/* memory operations                                                   */
/* ------------------------------------------------------------------ */

static int64_t do_load(lua_State *L, wll_device *d, int loc, int sem,
                       int scope) {
  int64_t v = 0;
  int rc = wl_tb_load(d->tb, loc, sem, scope, wll_curline(L), &v);
  tbcheck(L, d, rc, "load");
  return v;
}

static void do_store(lua_State *L, wll_device *d, int loc, int64_t v, int sem,
                     int scope) {
  int rc = wl_tb_store(d->tb, loc, v, sem, scope, wll_curline(L));
  tbcheck(L, d, rc, "store");
}

static int64_t do_atom(lua_State *L, wll_device *d, int loc, int op, int64_t a,
                       int64_t b, int sem, int scope) {
  int64_t old = 0;
  int rc = wl_tb_atomic(d->tb, loc, op, a, b, sem, scope, wll_curline(L), &old);
  tbcheck(L, d, rc, "atomic");
  return old;
}

static void do_fence(lua_State *L, wll_device *d, int sem, int scope) {
  int rc = wl_tb_fence(d->tb, sem, scope, wll_curline(L));
  tbcheck(L, d, rc, "fence");
}

/* d:load(name [, sem [, scope]]) */
static int d_load(lua_State *L) {
  wll_device *d = checkdev(L, 1);
  int loc = checkloc(L, d, 2);
  int sem = load_semv[wll_checkword(L, 3, "weak", load_sems, "load semantics")];
  int scope = checkscope(L, 4, sem);
  pushval(L, d, loc, do_load(L, d, loc, sem, scope));
  return 1;
}

static const char *const cmp_words[] = {"==", "~=", "<", "<=", ">", ">=",
                                        "!=", NULL};
static const int cmp_val[] = {WL_CMP_EQ, WL_CMP_NE, WL_CMP_LT, WL_CMP_LE,
                              WL_CMP_GT, WL_CMP_GE, WL_CMP_NE};

/* d:await(name, cmp, value [, sem [, scope]]) -> the value read: a spin
 * loop (`repeat v = d:load(...) until v cmp value`) the explorer runs as
 * one load of a value that passes, whatever the unroll bound. */
static int d_await(lua_State *L) {
  wll_device *d = checkdev(L, 1);
  int loc = checkloc(L, d, 2);
  int cmp = cmp_val[luaL_checkoption(L, 3, NULL, cmp_words)];
  int64_t operand = checkval(L, d, loc, 4);
  int sem = load_semv[wll_checkword(L, 5, "weak", load_sems, "load semantics")];
  int scope = checkscope(L, 6, sem);
  int64_t v = 0;
  int rc = wl_tb_await(d->tb, loc, sem, scope, cmp, operand, wll_curline(L),
                       &v);
  tbcheck(L, d, rc, "await");
  pushval(L, d, loc, v);
  return 1;
}

/* d:store(name, value [, sem [, scope]]) */
static int d_store(lua_State *L) {
  wll_device *d = checkdev(L, 1);
  int loc = checkloc(L, d, 2);
  int64_t v = checkval(L, d, loc, 3);
  int sem =
      store_semv[wll_checkword(L, 4, "weak", store_sems, "store semantics")];
  int scope = checkscope(L, 5, sem);
  do_store(L, d, loc, v, sem, scope);
  return 0;
}

/* volatile = ld/st.relaxed.sys (shared/spec/README.md, CUDA to PTX) */
static int d_volatile_load(lua_State *L) {
  wll_device *d = checkdev(L, 1);
  int loc = checkloc(L, d, 2);
  pushval(L, d, loc, do_load(L, d, loc, WL_SEM_RELAXED, WL_SCOPE_SYS));
  return 1;
}

static int d_volatile_store(lua_State *L) {
  wll_device *d = checkdev(L, 1);
  int loc = checkloc(L, d, 2);
  int64_t v = checkval(L, d, loc, 3);
  do_store(L, d, loc, v, WL_SEM_RELAXED, WL_SCOPE_SYS);
  return 0;
}

/* CUDA atomics: atom.relaxed.<scope>.<op>; upvalues: op, scope, nargs */
static int d_cuda_atomic(lua_State *L) {
  wll_device *d = checkdev(L, 1);
  int op = (int)lua_tointeger(L, lua_upvalueindex(1));
  int scope = (int)lua_tointeger(L, lua_upvalueindex(2));
  int loc = checkloc(L, d, 2);
  int64_t a, b;
  int ty = wl_litmus_location_type(d->th->test->lt, loc);
  /* CUDA's atomicMax/atomicMin take integers only (as kernels check
   * too); d:atom("max", ...) stays for PTX's atom.max.f32 */
  if ((op == WL_OP_MAX || op == WL_OP_MIN) &&
      (ty == WL_TYPE_FLOAT || ty == WL_TYPE_DOUBLE))
    return luaL_error(L,
                      "%s on '%s' (%s): CUDA has no floating-point "
                      "atomicMax/atomicMin",
                      op == WL_OP_MAX ? "atomicMax" : "atomicMin",
                      lua_tostring(L, 2),
                      ty == WL_TYPE_FLOAT ? "float" : "double");
  a = checkval(L, d, loc, 3);
  b = op == WL_OP_CAS ? checkval(L, d, loc, 4) : 0;
  pushval(L, d, loc, do_atom(L, d, loc, op, a, b, WL_SEM_RELAXED, scope));
  return 1;
}

/* d:atom(op, name, a [, b], sem, scope): any PTX atom */
static const char *const atom_ops[] = {"add", "sub", "mul",  "div", "rem",
                                       "and", "or",  "xor",  "min", "max",
                                       "inc", "dec", "exch", "cas", NULL};

static int d_atom(lua_State *L) {
  wll_device *d = checkdev(L, 1);
  int op = wll_checkword(L, 2, NULL, atom_ops, "atomic operation");
  int loc = checkloc(L, d, 3);
  int64_t a = checkval(L, d, loc, 4), b = 0;
  int arg = 5, sem, scope;
  if (op == WL_OP_CAS)
    b = checkval(L, d, loc, arg++);
  sem = atom_semv[wll_checkword(L, arg, "relaxed", atom_sems,
                                "atomic semantics")];
  scope = scopev[wll_checkword(L, arg + 1, "gpu", scopes, "scope")];
  pushval(L, d, loc, do_atom(L, d, loc, op, a, b, sem, scope));
  return 1;
}

/* __threadfence_block/__threadfence/__threadfence_system = fence.sc.S;
 * upvalue: scope */
static int d_threadfence(lua_State *L) {
  wll_device *d = checkdev(L, 1);
  do_fence(L, d, WL_SEM_SC, (int)lua_tointeger(L, lua_upvalueindex(1)));
  return 0;
}

/* d:fence(sem, scope) */
static int d_fence(lua_State *L) {
  wll_device *d = checkdev(L, 1);
  int sem =
      fence_semv[wll_checkword(L, 2, "sc", fence_sems, "fence semantics")];
  int scope = scopev[wll_checkword(L, 3, "gpu", scopes, "scope")];
  do_fence(L, d, sem, scope);
  return 0;
}

static void do_barrier(lua_State *L, wll_device *d, int kind, int64_t id,
                       int64_t count) {
  int rc = wl_tb_barrier(d->tb, kind, id, count, wll_curline(L));
  tbcheck(L, d, rc, "barrier");
}

/* __syncthreads() = bar.sync 0 over the whole CTA */
static int d_syncthreads(lua_State *L) {
  wll_device *d = checkdev(L, 1);
  do_barrier(L, d, WL_BAR_SYNC, 0, 0);
  return 0;
}

/* d:bar_sync(id [, count]), d:bar_arrive(id, count); upvalue: kind */
static int d_bar(lua_State *L) {
  wll_device *d = checkdev(L, 1);
  int64_t id = checkint(L, 2);
  int64_t count = lua_isnoneornil(L, 3) ? 0 : checkint(L, 3);
  if (id < 0 || id > 15)
    luaL_argerror(L, 2, "barrier id must be from 0 to 15");
  if (count < 0)
    luaL_argerror(L, 3, "thread count must not be negative");
  if (count == 0 && lua_tointeger(L, lua_upvalueindex(1)) == WL_BAR_ARRIVE)
    luaL_argerror(L, 3, "bar_arrive needs a thread count (PTX requires a "
                        "non-zero count for bar.arrive)");
  do_barrier(L, d, (int)lua_tointeger(L, lua_upvalueindex(1)), id, count);
  return 0;
}

/* ------------------------------------------------------------------ */
/* cuda::atomic_ref style, with shared/spec/README.md's mapping:       */
/* seq_cst load = fence.sc; ld.acquire, store = fence.sc; st.relaxed,  */
/* RMW = fence.sc; atom.acquire; acquire/release map directly.         */
/* ------------------------------------------------------------------ */

enum { O_RELAXED, O_ACQUIRE, O_RELEASE, O_ACQ_REL, O_SEQ_CST };
static const char *const orders[] = {"relaxed", "acquire", "release",
                                     "acq_rel", "seq_cst", NULL};
static const char *const load_orders[] = {"relaxed", "acquire", "seq_cst",
                                          NULL};
static const int load_orderv[] = {O_RELAXED, O_ACQUIRE, O_SEQ_CST};
static const char *const store_orders[] = {"relaxed", "release", "seq_cst",
                                           NULL};
static const int store_orderv[] = {O_RELAXED, O_RELEASE, O_SEQ_CST};

static int d_atomic_load(lua_State *L) {
  wll_device *d = checkdev(L, 1);
  int loc = checkloc(L, d, 2);
  int o = load_orderv[wll_checkword(L, 3, "seq_cst", load_orders,
                                    "memory order for a load")];
  int scope = scopev[wll_checkword(L, 4, "gpu", scopes, "scope")];
  if (o == O_SEQ_CST)
    do_fence(L, d, WL_SEM_SC, scope);
  pushval(L, d, loc,
          do_load(L, d, loc, o == O_RELAXED ? WL_SEM_RELAXED : WL_SEM_ACQUIRE,
                  scope));
  return 1;
}

static int d_atomic_store(lua_State *L) {
  wll_device *d = checkdev(L, 1);
  int loc = checkloc(L, d, 2);
  int64_t v = checkval(L, d, loc, 3);
  int o = store_orderv[wll_checkword(L, 4, "seq_cst", store_orders,
                                     "memory order for a store")];
  int scope = scopev[wll_checkword(L, 5, "gpu", scopes, "scope")];
  if (o == O_SEQ_CST)
    do_fence(L, d, WL_SEM_SC, scope);
  do_store(L, d, loc, v, o == O_RELEASE ? WL_SEM_RELEASE : WL_SEM_RELAXED,
           scope);
  return 0;
}

/* fetch_<op>(name, v [, order [, scope]]), exchange, and
 * compare_exchange(name, expected, desired [, order [, scope]]) which
 * returns success, old.  upvalue: op */
static int d_atomic_rmw(lua_State *L) {
  static const int semv[] = {WL_SEM_RELAXED, WL_SEM_ACQUIRE, WL_SEM_RELEASE,
                             WL_SEM_ACQ_REL, WL_SEM_ACQUIRE};
  wll_device *d = checkdev(L, 1);
  int op = (int)lua_tointeger(L, lua_upvalueindex(1));
  int loc = checkloc(L, d, 2);
  int64_t a = checkval(L, d, loc, 3), b = 0, old;
  int arg = 4, o, scope;
  if (op == WL_OP_CAS)
    b = checkval(L, d, loc, arg++);
  o = wll_checkword(L, arg, "seq_cst", orders, "memory order");
  scope = scopev[wll_checkword(L, arg + 1, "gpu", scopes, "scope")];
  if (o == O_SEQ_CST)
    do_fence(L, d, WL_SEM_SC, scope);
  old = do_atom(L, d, loc, op, a, b, semv[o], scope);
  if (op == WL_OP_CAS) {
    lua_pushboolean(L, old == a);
    pushval(L, d, loc, old);
    return 2;
  }
  pushval(L, d, loc, old);
  return 1;
}

/* ------------------------------------------------------------------ */
/* indexing: d.x, d.x = v, d.a[i], d.threadIdx ...                     */
/* ------------------------------------------------------------------ */

typedef struct wll_array {
  wll_device *dev;
  lua_Integer len;
} wll_array;

static void push_dim3(lua_State *L, int x) {
  lua_createtable(L, 0, 3);
  lua_pushinteger(L, x);
  lua_setfield(L, -2, "x");
  lua_pushinteger(L, 0);
  lua_setfield(L, -2, "y");
  lua_pushinteger(L, 0);
  lua_setfield(L, -2, "z");
}

/* Pushes the array length of name, or returns 0 when it is no array. */
static lua_Integer array_len(lua_State *L, wll_device *d, int key) {
  lua_Integer n = 0;
  lua_getiuservalue(L, 1, 1); /* the test */
  wll_testtable(L, -1);
  if (lua_getfield(L, -1, "arrays") == LUA_TTABLE) {
    lua_pushvalue(L, key);
    if (lua_rawget(L, -2) == LUA_TNUMBER)
      n = lua_tointeger(L, -1);
    lua_pop(L, 1);
  }
  lua_pop(L, 3);
  (void)d;
  return n;
}

static int dev_index(lua_State *L) {
  wll_device *d = luaL_checkudata(L, 1, WLL_DEVICE);
  const char *k;
  lua_Integer n;
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL)
    return 1; /* a method */
  lua_pop(L, 1);
  if (lua_type(L, 2) != LUA_TSTRING)
    return luaL_error(L, "a device is indexed by location names, not %s",
                      luaL_typename(L, 2));
  k = lua_tostring(L, 2);
  if (strcmp(k, "threadIdx") == 0) {
    push_dim3(L, d->th->tid);
  } else if (strcmp(k, "blockIdx") == 0) {
    push_dim3(L, d->th->cta);
  } else if (strcmp(k, "blockDim") == 0) {
    push_dim3(L, d->th->test->blockdim);
  } else if (strcmp(k, "gridDim") == 0) {
    push_dim3(L, d->th->test->griddim);
  } else if (strcmp(k, "warpSize") == 0) {
    lua_pushinteger(L, 32);
  } else if (strcmp(k, "thread") == 0) {
    lua_pushinteger(L, d->th->index);
  } else if (strcmp(k, "gpu") == 0) {
    lua_pushinteger(L, d->th->gpu);
  } else if ((n = array_len(L, d, 2)) > 0) {
    wll_array *a;
    checkdev(L, 1);
    a = lua_newuserdatauv(L, sizeof *a, 2);
    a->dev = d;
    a->len = n;
    luaL_setmetatable(L, WLL_ARRAY);
    lua_pushvalue(L, 1);
    lua_setiuservalue(L, -2, 1);
    lua_pushvalue(L, 2);
    lua_setiuservalue(L, -2, 2);
  } else {
    int loc;
    checkdev(L, 1);
    loc = devloc(L, d, k);
    if (loc < 0)
      return luaL_error(L,
                        "no location '%s' (declare it in init or "
                        "shared)",
                        k);
    pushval(L, d, loc, do_load(L, d, loc, WL_SEM_WEAK, WL_SCOPE_NONE));
  }
  return 1;
}

static int dev_newindex(lua_State *L) {
  wll_device *d = checkdev(L, 1);
  const char *k;
  int64_t v;
  int loc;
  if (lua_type(L, 2) != LUA_TSTRING)
    return luaL_error(L, "a device is indexed by location names, not %s",
                      luaL_typename(L, 2));
  k = lua_tostring(L, 2);
  if (array_len(L, d, 2) > 0)
    return luaL_error(L,
                      "cannot assign to array '%s' (assign its elements: "
                      "d.%s[i] = v)",
                      k, k);
  loc = devloc(L, d, k);
  if (loc < 0)
    return luaL_error(L, "no location '%s' (declare it in init or shared)", k);
  v = checkval(L, d, loc, 3);
  do_store(L, d, loc, v, WL_SEM_WEAK, WL_SCOPE_NONE);
  return 0;
}

static int dev_tostring(lua_State *L) {
  wll_device *d = luaL_checkudata(L, 1, WLL_DEVICE);
  lua_pushfstring(L, WLL_DEVICE " of P%d", d->th->index);
  return 1;
}

/* The location of a[i] (pushes nothing); raises naming the line. */
static int array_loc(lua_State *L, wll_array **pa) {
  wll_array *a = luaL_checkudata(L, 1, WLL_ARRAY);
  const char *name;
  lua_Integer i;
  int isnum, loc;
  *pa = a;
  lua_getiuservalue(L, 1, 1);
  checkdev(L, -1);
  lua_getiuservalue(L, 1, 2);
  name = lua_tostring(L, -1);
  i = lua_tointegerx(L, 2, &isnum);
  if (!isnum)
    return luaL_error(L,
                      "array '%s' indexed with %s (an integer from 0 to "
                      "%I expected)",
                      name, luaL_typename(L, 2), a->len - 1);
  if (i < 0 || i >= a->len)
    return luaL_error(L, "index %I out of range for array '%s' (size %I)", i,
                      name, a->len);
  loc = wl_litmus_location(a->dev->th->test->lt,
                           lua_pushfstring(L, "%s[%I]", name, i));
  lua_pop(L, 3);
  if (loc < 0)
    return luaL_error(L, "no location '%s[%I]'", name, i);
  return loc;
}

static int array_index(lua_State *L) {
  wll_array *a;
  int loc = array_loc(L, &a);
  pushval(L, a->dev, loc, do_load(L, a->dev, loc, WL_SEM_WEAK, WL_SCOPE_NONE));
  return 1;
}

static int array_newindex(lua_State *L) {
  wll_array *a;
  int loc = array_loc(L, &a);
  int64_t v = checkval(L, a->dev, loc, 3);
  do_store(L, a->dev, loc, v, WL_SEM_WEAK, WL_SCOPE_NONE);
  return 0;
}

static int array_len_mm(lua_State *L) {
  wll_array *a = luaL_checkudata(L, 1, WLL_ARRAY);
  lua_pushinteger(L, a->len);
  return 1;
}

/* ------------------------------------------------------------------ */
/* the thread callback                                                 */
/* ------------------------------------------------------------------ */

/* Runs inside lua_pcall: (test, index, tb) -> cut.  Calls the thread's
 * function with its device and reports the named results it returns,
 * in the order of their names. */
static int run_thread(lua_State *L) {
  int index = (int)lua_tointeger(L, 2);
  wl_tb *tb = lua_touserdata(L, 3);
  wll_test *t = lua_touserdata(L, 1);
  wll_device *d = t->th[index].dev;
  const char *prev = NULL;
  lua_settop(L, 1);
  wll_testtable(L, 1);           /* 2 */
  lua_getfield(L, 2, "fns");     /* 3 */
  lua_getfield(L, 2, "devices"); /* 4 */
  lua_rawgeti(L, 3, index + 1);  /* 5: fn */
  lua_rawgeti(L, 4, index + 1);  /* 6: device */
  lua_call(L, 1, 1);             /* 5: fn's result */
  if (d->cut) {
    lua_pushboolean(L, 1);
    return 1;
  }
  if (lua_isnil(L, 5)) {
    lua_pushboolean(L, 0);
    return 1;
  }
  if (!lua_istable(L, 5)) {
    lua_Debug ar;
    lua_rawgeti(L, 3, index + 1);
    lua_getinfo(L, ">S", &ar);
    return luaL_error(L,
                      "%s:%d: the function of P%d must return a table "
                      "of named results or nothing, not %s",
                      ar.short_src, ar.linedefined, index, luaL_typename(L, 5));
  }
  for (;;) {
    const char *best = NULL;
    int rc, isnum, type;
    lua_Integer v;
    lua_pushnil(L);
    while (lua_next(L, 5) != 0) {
      const char *k;
      lua_pop(L, 1);
      if (lua_type(L, -1) != LUA_TSTRING)
        return luaL_error(L,
                          "the function of P%d returned a result with "
                          "a %s key (names expected)",
                          index, luaL_typename(L, -1));
      k = lua_tostring(L, -1);
      if ((prev == NULL || strcmp(k, prev) > 0) &&
          (best == NULL || strcmp(k, best) < 0))
        best = k;
    }
    if (best == NULL)
      break;
    prev = best;
    lua_getfield(L, 5, best);
    /* integers and booleans are int64 results; a float (the old value
     * of a float atomicAdd) is carried as a double, Lua's own number */
    type = WL_TYPE_INT64;
    if (lua_type(L, -1) == LUA_TBOOLEAN) {
      v = lua_toboolean(L, -1);
      isnum = 1;
    } else if (lua_isinteger(L, -1)) {
      v = lua_tointegerx(L, -1, &isnum);
    } else if (lua_type(L, -1) == LUA_TNUMBER) {
      type = WL_TYPE_DOUBLE;
      v = wl_value_from_double(type, lua_tonumber(L, -1));
      isnum = 1;
    } else {
      isnum = 0;
    }
    if (!isnum) {
      /* the function has returned: its definition is the place left */
      lua_Debug ar;
      const char *what = luaL_typename(L, -1);
      lua_rawgeti(L, 3, index + 1);
      lua_getinfo(L, ">S", &ar);
      return luaL_error(L,
                        "%s:%d: the function of P%d returned %s for "
                        "result '%s' (results are numbers or booleans)",
                        ar.short_src, ar.linedefined, index, what, best);
    }
    lua_pop(L, 1);
    rc = wl_tb_result_typed(tb, best, type, (int64_t)v);
    if (rc == WL_ELIMIT)
      raise_bound(L, d);
    if (rc != 0) {
      const char *m = wl_ctx_errmsg(t->ctx);
      if (strncmp(m, "result '", 8) == 0) /* it names them itself */
        return luaL_error(L, "%s", m);
      return luaL_error(L, "result '%s' of P%d: %s", best, index,
                        m[0] ? m : wl_strerror(rc));
    }
  }
  lua_pushboolean(L, 0);
  return 1;
}

int wll_thread_cb(void *ud, wl_tb *tb) {
  wll_thread *th = ud;
  wll_test *t = th->test;
  lua_State *L = t->L;
  int base, rc, ret;
  if (L == NULL || th->dev == NULL)
    return wl_tb_fail(tb, WL_EINVAL,
                      "Lua thread function called outside "
                      "test:explore");
  if (!lua_checkstack(L, 8))
    return wl_tb_fail(tb, WL_ENOMEM, "Lua stack overflow");
  /* nothing below raises outside the protected call */
  base = lua_gettop(L);
  th->dev->tb = tb;
  th->dev->cut = 0;
  lua_pushcfunction(L, wll_msghandler);
  lua_pushcfunction(L, run_thread);
  lua_pushvalue(L, t->selfslot);
  lua_pushinteger(L, th->index);
  lua_pushlightuserdata(L, tb);
  rc = lua_pcall(L, 3, 1, base + 1);
  th->dev->tb = NULL;
  if (rc == LUA_OK) {
    ret = lua_toboolean(L, -1) || th->dev->cut ? WL_ELIMIT : 0;
  } else if (lua_touserdata(L, -1) == (void *)&bound_marker) {
    ret = WL_ELIMIT;
  } else {
    const char *m = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1)
                                                   : "error in thread "
                                                     "function";
    lua_copy(L, -1, t->errslot);
    ret = wl_tb_fail(tb, rc == LUA_ERRMEM ? WL_ENOMEM : WL_EINVAL, m);
  }
  lua_settop(L, base);
  return ret;
}

/* ------------------------------------------------------------------ */
/* creation and the metatables                                         */
/* ------------------------------------------------------------------ */

wll_device *wll_device_new(lua_State *L, wll_thread *th, int testarg) {
  wll_device *d;
  testarg = lua_absindex(L, testarg);
  d = lua_newuserdatauv(L, sizeof *d, 1);
  d->th = th;
  d->tb = NULL;
  d->cut = 0;
  luaL_setmetatable(L, WLL_DEVICE);
  lua_pushvalue(L, testarg);
  lua_setiuservalue(L, -2, 1);
  return d;
}

static const luaL_Reg dev_methods[] = {{"load", d_load},
                                       {"await", d_await},
                                       {"store", d_store},
                                       {"volatile_load", d_volatile_load},
                                       {"volatile_store", d_volatile_store},
                                       {"atom", d_atom},
                                       {"fence", d_fence},
                                       {"syncthreads", d_syncthreads},
                                       {"atomic_load", d_atomic_load},
                                       {"atomic_store", d_atomic_store},
                                       {NULL, NULL}};

static void set_closure(lua_State *L, const char *name, lua_CFunction f, int a,
                        int b) {
  lua_pushinteger(L, a);
  lua_pushinteger(L, b);
  lua_pushcclosure(L, f, 2);
  lua_setfield(L, -2, name);
}

void wll_device_open(lua_State *L) {
  size_t i, j;
  luaL_newmetatable(L, WLL_DEVICE);
  luaL_newlib(L, dev_methods);
  for (i = 0; wll_cuda_atomics[i].name != NULL; i++) {
    for (j = 0; j < 3; j++) {
      char name[64];
      snprintf(name, sizeof name, "%s%s", wll_cuda_atomics[i].name, wll_scope_suffixes[j]);
      set_closure(L, name, d_cuda_atomic, wll_cuda_atomics[i].op, wll_suffix_scope[j]);
    }
  }
  for (i = 0; wll_atomic_rmws[i].name != NULL; i++)
    set_closure(L, wll_atomic_rmws[i].name, d_atomic_rmw, wll_atomic_rmws[i].op, 0);
  for (i = 0; i < 3; i++) {
    lua_pushinteger(L, wll_suffix_scope[i]);
    lua_pushcclosure(L, d_threadfence, 1);
    lua_setfield(L, -2, wll_fence_names[i]);
  }
  lua_pushinteger(L, WL_BAR_SYNC);
  lua_pushcclosure(L, d_bar, 1);
  lua_setfield(L, -2, "bar_sync");
  lua_pushinteger(L, WL_BAR_ARRIVE);
  lua_pushcclosure(L, d_bar, 1);
  lua_setfield(L, -2, "bar_arrive");
  lua_pushcclosure(L, dev_index, 1);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, dev_newindex);
  lua_setfield(L, -2, "__newindex");
  lua_pushcfunction(L, dev_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
  luaL_newmetatable(L, WLL_ARRAY);
  lua_pushcfunction(L, array_index);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, array_newindex);
  lua_setfield(L, -2, "__newindex");
  lua_pushcfunction(L, array_len_mm);
  lua_setfield(L, -2, "__len");
  lua_pop(L, 1);
}
