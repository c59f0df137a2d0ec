/* lsample.c -- test:sample{...}: runs a test many times on the
 * operational simulator (batches on libuv's thread pool, lsched.c) and
 * returns the histogram as a table. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <lualib.h>

#include "lsched.h"
#include "lwarplab.h"

/* the module's one export (lwarplab.c): each worker's state loads it */
int luaopen_warplab(lua_State *L);

#define WLL_HIST "warplab.Hist"     /* the box that owns a wl_hist */
#define WLL_SAMPLE "warplab.Sample" /* the metatable of the result */
#define MAX_VALUES (64 * 64 + 64) /* 64 threads' registers + 64 locs */

/* A histogram is made from the test's context, so the box holds the
 * test (user value 1, and a count in nresults) until the histogram is
 * freed. */
typedef struct hist_box {
  wl_hist *h;
  wll_test *test;
} hist_box;

static void hist_release(hist_box *b) {
  wl_hist_free(b->h);
  b->h = NULL;
  if (b->test != NULL) {
    wll_test_unref(b->test);
    b->test = NULL;
  }
}

static int hist_gc(lua_State *L) {
  hist_release(luaL_checkudata(L, 1, WLL_HIST));
  return 0;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------------ */
/* names of the values                                                 */
/* ------------------------------------------------------------------ */

/* Pushes the names of a histogram's values, { {name=, thread=}, ... }
 * in the order of its values (registers of all threads, then
 * locations). */
static void push_varnames(lua_State *L, const wl_hist *h) {
  int v, nv = wl_hist_nvars(h);
  lua_createtable(L, nv, 0);
  for (v = 0; v < nv; v++) {
    lua_createtable(L, 0, 2);
    lua_pushstring(L, wl_hist_var_name(h, v));
    lua_setfield(L, -2, "name");
    lua_pushinteger(L, wl_hist_var_thread(h, v));
    lua_setfield(L, -2, "thread");
    lua_rawseti(L, -2, v + 1);
  }
}

/* ------------------------------------------------------------------ */
/* the histogram as a table                                            */
/* ------------------------------------------------------------------ */

/* Pushes wl_hist_write's text: count, then copy into a Lua buffer. */
static int write_hist(const void *obj, int partial, double secs, wl_write_fn w,
                      void *ud) {
  return wl_hist_write(obj, partial, secs, w, ud);
}

static int write_hist_json(const void *obj, int partial, double secs,
                           wl_write_fn w, void *ud) {
  return wl_hist_write_json(obj, partial, secs, w, ud);
}

/* The registry key of a table with weak keys: sample result -> its
 * histogram box (the result keeps it, so that r:json() can write the
 * histogram when asked, without an internal key in its table). */
static const char box_key = 0;

/* r:json() -- the histogram as wl_hist_write_json writes it */
static int sample_json(lua_State *L) {
  hist_box *box;
  int partial;
  double secs;
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &box_key);
  lua_pushvalue(L, 1);
  lua_rawget(L, -2);
  box = luaL_testudata(L, -1, WLL_HIST);
  if (box == NULL || box->h == NULL)
    return luaL_error(L, "json: not a sample result");
  lua_getfield(L, 1, "partial");
  partial = lua_toboolean(L, -1);
  lua_getfield(L, 1, "time");
  secs = lua_tonumber(L, -1);
  lua_pop(L, 4);
  wll_push_written(L, "json", write_hist_json, box->h, partial, secs);
  return 1;
}

static void push_hist_text(lua_State *L, const wl_hist *h, int partial,
                           double secs) {
  wll_push_written(L, "sample", write_hist, h, partial, secs);
}


/* Pushes outcome i with the JSON's names: { values = { ["1:r0"]=,
 * x=, ... }, count=, condition (through its metatable, WLL_STATE), weak=
 * (set by the caller) }, and as test:explore()'s states, ["1:r0"]=, x=,
 * [thread+1] = { r0=, ... } and sat (= condition). */
static void push_outcome(lua_State *L, wll_test *t, const wl_hist *h, size_t i,
                         int names, int64_t *vals) {
  int nv, v, nt = wl_litmus_nthreads(t->lt), th, out, map;
  int nn = names ? (int)luaL_len(L, names) : 0;
  nv = wl_hist_values(h, i, vals, nn > 0 ? nn : MAX_VALUES);
  if (nv < 0)
    luaL_error(L, "sample: %s", wl_strerror(nv));
  if (nv == 0 || nv > MAX_VALUES)
    nv = nn; /* the count is n itself when the call answers 0 */
  luaL_checkstack(L, 8, "sample");
  lua_createtable(L, nt, nv + 5);
  out = lua_gettop(L);
  for (th = 0; th < nt; th++) {
    lua_newtable(L);
    lua_rawseti(L, -2, th + 1);
  }
  lua_createtable(L, 0, nv);
  map = lua_gettop(L);
  for (v = 0; v < nv && v < nn; v++) {
    const char *name;
    int ty = wl_hist_var_type(h, v);
    lua_rawgeti(L, names, v + 1);
    lua_getfield(L, -1, "name");
    lua_getfield(L, -2, "thread");
    name = lua_tostring(L, -2);
    th = (int)lua_tointeger(L, -1);
    lua_pop(L, 1);
    if (name == NULL) {
      lua_pop(L, 2);
      continue;
    }
    if (th >= 0) /* the JSON's name: "1:r0" */
      lua_pushfstring(L, "%d:%s", th, name);
    else
      lua_pushstring(L, name);
    wll_push_carrier(L, ty, vals[v]);
    lua_rawset(L, map);
    if (th >= 0 && th < nt) {
      lua_pushfstring(L, "%d:%s", th, name);
      wll_push_carrier(L, ty, vals[v]);
      lua_rawset(L, out);
      lua_rawgeti(L, out, th + 1);
      wll_push_carrier(L, ty, vals[v]);
      lua_setfield(L, -2, name);
      lua_pop(L, 1);
    } else if (th < 0) {
      wll_push_carrier(L, ty, vals[v]);
      lua_setfield(L, out, name);
    }
    lua_pop(L, 2);
  }
  lua_setfield(L, out, "values");
  lua_pushinteger(L, (lua_Integer)wl_hist_count(h, i));
  lua_setfield(L, out, "count");
  lua_pushboolean(L, wl_hist_sat(h, i));
  lua_setfield(L, out, "sat");
  luaL_setmetatable(L, WLL_STATE); /* condition: the JSON's name of sat */
}

/* The outcomes' order: by their values, as wl_hist_write_json sorts
 * them (a merge sort of order[0..n) through tmp, over all n x nv values
 * in vals). */
static int cmp_outcomes(const int64_t *vals, int nv, size_t a, size_t b) {
  int v;
  for (v = 0; v < nv; v++)
    if (vals[a * (size_t)nv + (size_t)v] != vals[b * (size_t)nv + (size_t)v])
      return vals[a * (size_t)nv + (size_t)v] <
                     vals[b * (size_t)nv + (size_t)v]
                 ? -1
                 : 1;
  return 0;
}

static void sort_outcomes(const int64_t *vals, int nv, size_t *order,
                          size_t *tmp, size_t n) {
  size_t w, lo;
  for (w = 1; w < n; w *= 2) {
    for (lo = 0; lo < n; lo += 2 * w) {
      size_t mid = lo + w < n ? lo + w : n;
      size_t hi = mid + w < n ? mid + w : n, a = lo, b = mid, k = lo;
      while (a < mid && b < hi)
        tmp[k++] = cmp_outcomes(vals, nv, order[b], order[a]) < 0
                       ? order[b++]
                       : order[a++];
      while (a < mid)
        tmp[k++] = order[a++];
      while (b < hi)
        tmp[k++] = order[b++];
    }
    memcpy(order, tmp, n * sizeof *order);
  }
}

/* Pushes a userdata holding the outcomes' order (nout entries). */
static size_t *push_order(lua_State *L, const wl_hist *h, size_t nout) {
  int nv = wl_hist_nvars(h);
  size_t k, *order;
  int64_t *all;
  if (nv < 1)
    nv = 1;
  if (nout > ((size_t)1 << 40) / (sizeof *order * 2 + sizeof *all * (size_t)nv))
    luaL_error(L, "sample: too many outcomes");
  order = lua_newuserdatauv(L, nout * (sizeof *order * 2 +
                                       sizeof *all * (size_t)nv) + 1, 0);
  all = (int64_t *)(order + 2 * nout);
  for (k = 0; k < nout; k++) {
    int n = wl_hist_values(h, k, all + k * (size_t)nv, nv);
    if (n < 0)
      luaL_error(L, "sample: %s", wl_strerror(n));
    order[k] = k;
  }
  sort_outcomes(all, nv, order, order + nout, nout);
  return order;
}

/* ------------------------------------------------------------------ */
/* threads written as Lua functions                                    */
/* ------------------------------------------------------------------ */

/* The rule: one engine instance and, for Lua code, one lua_State
 * per worker.  A worker's state gets the standard libraries, the warplab
 * module, the thread functions (string.dump'ed and loaded again, with
 * their upvalues copied), and the script's globals that are plain data.
 * Thread functions whose upvalues cannot be copied (functions, userdata,
 * coroutines) make the batches run on the script's own state, on the
 * loop thread: the histogram is the same either way (runs are seeded by
 * their index), only slower. */

#define COPY_DEPTH 32

/* Whether the value at idx can be copied to another state: nil,
 * booleans, numbers, strings, and tables of those (keys and values),
 * to COPY_DEPTH levels (no cycles). */
static int copyable(lua_State *L, int idx, int depth) {
  int ok = 1;
  idx = lua_absindex(L, idx);
  switch (lua_type(L, idx)) {
  case LUA_TNIL:
  case LUA_TBOOLEAN:
  case LUA_TNUMBER:
  case LUA_TSTRING:
    return 1;
  case LUA_TTABLE:
    if (depth >= COPY_DEPTH || lua_getmetatable(L, idx)) {
      if (depth < COPY_DEPTH)
        lua_pop(L, 1);
      return 0;
    }
    if (!lua_checkstack(L, 4))
      return 0;
    lua_pushnil(L);
    while (ok && lua_next(L, idx) != 0) {
      ok = copyable(L, -2, depth + 1) && copyable(L, -1, depth + 1);
      lua_pop(L, 1);
    }
    if (!ok)
      lua_pop(L, 1); /* the key lua_next left */
    return ok;
  default:
    return 0;
  }
}

/* Pushes onto W a copy of the value at idx of L (copyable() said yes). */
static void copy_value(lua_State *L, int idx, lua_State *W) {
  size_t len;
  const char *s;
  idx = lua_absindex(L, idx);
  luaL_checkstack(W, 4, "copying to a worker");
  switch (lua_type(L, idx)) {
  case LUA_TBOOLEAN:
    lua_pushboolean(W, lua_toboolean(L, idx));
    break;
  case LUA_TNUMBER:
    if (lua_isinteger(L, idx))
      lua_pushinteger(W, lua_tointeger(L, idx));
    else
      lua_pushnumber(W, lua_tonumber(L, idx));
    break;
  case LUA_TSTRING:
    s = lua_tolstring(L, idx, &len);
    lua_pushlstring(W, s, len);
    break;
  case LUA_TTABLE:
    lua_newtable(W);
    lua_pushnil(L);
    while (lua_next(L, idx) != 0) {
      copy_value(L, -2, W);
      copy_value(L, -1, W);
      lua_rawset(W, -3);
      lua_pop(L, 1);
    }
    break;
  default:
    lua_pushnil(W);
    break;
  }
}

/* What an upvalue of a thread function is to a worker. */
enum { UP_COPY, UP_GLOBALS, UP_MODULE, UP_NONE };

static int upvalue_kind(lua_State *L, int idx) {
  int k = UP_NONE;
  idx = lua_absindex(L, idx);
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
  if (lua_rawequal(L, idx, -1))
    k = UP_GLOBALS;
  lua_pop(L, 1);
  if (k == UP_NONE) {
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_getfield(L, -1, "warplab");
    if (lua_type(L, idx) == LUA_TTABLE && lua_rawequal(L, idx, -1))
      k = UP_MODULE;
    lua_pop(L, 2);
  }
  if (k == UP_NONE && copyable(L, idx, 0))
    k = UP_COPY;
  return k;
}

/* Whether every Lua thread function of t can go to a worker; when not,
 * why (in why). fns: the test's table of functions. */
static int portable(lua_State *L, wll_test *t, int fns, char *why,
                    size_t n) {
  int i, u;
  for (i = 0; i < t->nthreads; i++) {
    if (t->th[i].dev == NULL)
      continue;
    lua_rawgeti(L, fns, i + 1);
    if (lua_iscfunction(L, -1)) {
      snprintf(why, n, "the function of P%d is a C function", i);
      lua_pop(L, 1);
      return 0;
    }
    for (u = 1;; u++) {
      const char *name = lua_getupvalue(L, -1, u);
      int k;
      if (name == NULL)
        break;
      k = upvalue_kind(L, -1);
      if (k == UP_NONE) {
        snprintf(why, n,
                 "the function of P%d has upvalue '%s' (a %s) that a "
                 "worker's Lua state cannot copy",
                 i, name[0] ? name : "?", luaL_typename(L, -1));
        lua_pop(L, 2);
        return 0;
      }
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  return 1;
}

static int dump_writer(lua_State *L, const void *p, size_t sz, void *ud) {
  (void)L;
  luaL_addlstring(ud, p, sz);
  return 0;
}

/* What the runner's callbacks need: the script's state with the test
 * at index 1. */
typedef struct lrunner {
  lua_State *L;
  wll_test *t;
} lrunner;

/* Builds a worker's state (protected: runs inside lua_pcall on W, with
 * the lrunner and the slot's context as light userdata). */
static int worker_build(lua_State *W) {
  lrunner *r = lua_touserdata(W, 1);
  wl_ctx *ctx = lua_touserdata(W, 2);
  lua_State *L = r->L;
  wll_test *t = r->t, *box;
  int i, u, wtab, ltab, base = lua_gettop(L);
  lua_settop(W, 0);
  luaL_openlibs(W);
  luaL_requiref(W, "warplab", luaopen_warplab, 0);
  lua_pop(W, 1);
  /* 1: the worker's test box: no metatable, so closing W frees only
   * the box; its engine objects are the script's test's (only read)
   * and the slot's context */
  box = lua_newuserdatauv(W, sizeof *box, 1);
  memset(box, 0, sizeof *box);
  box->ctx = ctx;
  box->lt = t->lt;
  box->pred = -1;
  box->nthreads = t->nthreads;
  box->blockdim = t->blockdim;
  box->griddim = t->griddim;
  box->L = W;
  box->selfslot = 1;
  box->errslot = 2;
  lua_pushnil(W); /* 2: a thread function's error */
  lua_createtable(W, 0, 4);
  wtab = lua_gettop(W);
  lua_pushvalue(W, wtab);
  lua_setiuservalue(W, 1, 1);
  wll_testtable(L, 1);
  ltab = lua_gettop(L);
  lua_getfield(L, ltab, "arrays");
  copy_value(L, -1, W); /* names and lengths */
  lua_setfield(W, wtab, "arrays");
  lua_pop(L, 1);
  lua_newtable(W);
  lua_setfield(W, wtab, "fns");
  lua_newtable(W);
  lua_setfield(W, wtab, "devices");
  /* the script's plain-data globals that W does not have */
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
  lua_rawgeti(W, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
  lua_pushnil(L);
  while (lua_next(L, -2) != 0) {
    if (lua_type(L, -2) == LUA_TSTRING && copyable(L, -1, 0)) {
      const char *k = lua_tostring(L, -2);
      if (lua_getfield(W, -1, k) == LUA_TNIL) {
        copy_value(L, -1, W);
        lua_setfield(W, -3, k);
      }
      lua_pop(W, 1);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  lua_pop(W, 1);
  lua_getfield(L, ltab, "fns");
  for (i = 0; i < t->nthreads; i++) {
    wll_thread *th = &box->th[i];
    *th = t->th[i];
    th->test = box;
    th->dev = NULL;
    if (t->th[i].dev == NULL)
      continue;
    /* the function, through string.dump (with its debug information,
     * so that errors name the script's lines) */
    lua_rawgeti(L, -1, i + 1);
    {
      luaL_Buffer b;
      size_t len;
      const char *code;
      luaL_buffinit(W, &b);
      if (lua_dump(L, dump_writer, &b, 0) != 0)
        return luaL_error(W, "cannot dump the function of P%d", i);
      luaL_pushresult(&b);
      code = lua_tolstring(W, -1, &len);
      if (luaL_loadbufferx(W, code, len, "=(thread)", "b") != LUA_OK)
        return lua_error(W);
      lua_remove(W, -2);
    }
    for (u = 1;; u++) {
      const char *name = lua_getupvalue(L, -1, u);
      if (name == NULL)
        break;
      switch (upvalue_kind(L, -1)) {
      case UP_GLOBALS:
        lua_rawgeti(W, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
        break;
      case UP_MODULE:
        luaL_getsubtable(W, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
        lua_getfield(W, -1, "warplab");
        lua_remove(W, -2);
        break;
      default:
        copy_value(L, -1, W);
        break;
      }
      lua_setupvalue(W, -2, u);
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
    lua_getfield(W, wtab, "fns");
    lua_insert(W, -2);
    lua_rawseti(W, -2, i + 1);
    lua_pop(W, 1);
    lua_getfield(W, wtab, "devices");
    th->dev = wll_device_new(W, th, 1);
    lua_rawseti(W, -2, i + 1);
    lua_pop(W, 1);
  }
  lua_settop(L, base);
  lua_settop(W, 2);
  return 2; /* they stay at 1 and 2 of W's stack */
}

static int worker_make(void *ud, wl_ctx *ctx, void **worker) {
  lrunner *r = ud;
  int base = lua_gettop(r->L);
  lua_State *W = luaL_newstate();
  *worker = NULL;
  if (W == NULL)
    return -1;
  lua_pushcfunction(W, worker_build);
  lua_pushlightuserdata(W, r);
  lua_pushlightuserdata(W, ctx);
  if (lua_pcall(W, 2, 2, 0) != LUA_OK) {
    lua_settop(r->L, base);
    lua_close(W);
    return -1;
  }
  lua_settop(r->L, base);
  *worker = lua_touserdata(W, 1); /* the box; box->L is W */
  return 0;
}

static void worker_drop(void *ud, void *worker) {
  wll_test *box = worker;
  (void)ud;
  lua_close(box->L);
}

/* The wl_thread_fn of a worker: its own copy of the thread's function. */
static int worker_thread(void *ud, wl_tb *tb) {
  wll_test *box = ud;
  int th = wl_tb_thread(tb);
  if (th < 0 || th >= box->nthreads || box->th[th].dev == NULL)
    return wl_tb_fail(tb, WL_EINVAL, "no Lua function for this thread");
  return wll_thread_cb(&box->th[th], tb);
}

/* ------------------------------------------------------------------ */
/* test:sample{...}                                                    */
/* ------------------------------------------------------------------ */

static const char *const sample_keys[] = {
    "n",       "seed",     "profile", "jobs",    "max_steps",
    "timeout", "progress", "exact",   "harness", NULL};

/* opts[key] as an integer in [lo, hi], or def when absent. */
static lua_Integer int_field(lua_State *L, int opts, const char *key,
                             lua_Integer def, lua_Integer lo, lua_Integer hi) {
  lua_Integer v = def;
  if (opts != 0 && lua_getfield(L, opts, key) != LUA_TNIL) {
    int isnum;
    v = lua_tointegerx(L, -1, &isnum);
    if (!isnum || v < lo || v > hi)
      luaL_error(L, "sample: %s must be an integer from %I to %I", key, lo, hi);
  }
  if (opts != 0)
    lua_pop(L, 1);
  return v;
}

/* test:sample{n=, seed=, profile=, jobs=, max_steps=, timeout=,
 * progress=, exact=, harness=} -> { name=, runs=, hung=, partial=, stopped=, observed=,
 * outcomes={...}, text=, time=, workers=, note= } with tostring giving
 * the text (and the note).  workers: the engine instances (and, for
 * threads written as Lua functions, lua_States) that ran batches at
 * once; note: why Lua functions ran on the script's state alone. */
int wll_test_sample(lua_State *L) {
  wll_test *t = wll_checktest(L, 1);
  wl_sample_opts o;
  hist_box *box;
  double timeout = 0, t0, secs;
  int opts = 0, jobs, progress = 0, rc = 0, partial = 0, names, res, outs, i;
  char err[600];
  size_t k, j, nout, *order;
  int64_t *vals;
  uint64_t npos = 0, nneg = 0;
  int observed = 0, has_fn = 0, use_workers = 0, workers, kind, ok;
  char note[400], why[200];
  lrunner lr = {NULL, NULL};
  memset(&o, 0, sizeof o);
  if (t->exploring)
    return luaL_error(L, "sample: this test is being explored");
  if (!lua_isnoneornil(L, 2)) {
    luaL_checktype(L, 2, LUA_TTABLE);
    opts = 2;
    wll_checkopts(L, 2, "sample", sample_keys, 0);
  }
  lua_settop(L, 2);
  o.runs = (uint64_t)int_field(L, opts, "n", 100000, 1, LUA_MAXINTEGER);
  o.seed = (uint64_t)int_field(L, opts, "seed", 1, 0, LUA_MAXINTEGER);
  o.max_steps = (int)int_field(L, opts, "max_steps", 0, 1, INT32_MAX);
  jobs = (int)int_field(L, opts, "jobs", wll_ncpus(), 1, 1024);
  o.profile = WL_PROFILE_H100;
  if (opts != 0) {
    o.profile = wll_optword(L, opts, "sample", "profile", "h100",
                            wll_profile_words());
    /* harness=: the program the runs stand for (warplab cuda's presets) */
    if (lua_getfield(L, opts, "harness") != LUA_TNIL &&
        (!lua_isstring(L, -1) ||
         (o.harness = wl_cuda_harness_find(lua_tostring(L, -1))) < 0))
      return luaL_error(L, "sample: harness must be \"plain\", \"sync\", "
                           "\"stress\", \"parallel\" or \"delay\"");
    lua_pop(L, 1);
    if (lua_getfield(L, opts, "timeout") != LUA_TNIL) {
      int isnum;
      timeout = lua_tonumberx(L, -1, &isnum);
      if (!isnum || !(timeout > 0))
        return luaL_error(L, "sample: timeout must be a positive number of "
                             "seconds");
    }
    lua_pop(L, 1);
    lua_getfield(L, opts, "progress");
    progress = lua_toboolean(L, -1);
    lua_pop(L, 1);
    /* exact=false: every run step by step (never the exact law) */
    if (lua_getfield(L, opts, "exact") != LUA_TNIL) {
      if (!lua_isboolean(L, -1))
        return luaL_error(L, "sample: exact must be true or false");
      o.step = !lua_toboolean(L, -1);
    }
    lua_pop(L, 1);
  }
  for (i = 0; i < t->nthreads; i++)
    if (t->th[i].dev != NULL)
      has_fn = 1;
  box = lua_newuserdatauv(L, sizeof *box, 1); /* 3 */
  memset(box, 0, sizeof *box);
  luaL_setmetatable(L, WLL_HIST);
  lua_pushvalue(L, 1);
  lua_setiuservalue(L, 3, 1);
  box->test = t;
  t->nresults++;
  lua_pushnil(L); /* 4: the names, once there is a histogram */
  names = 4;
  vals = lua_newuserdatauv(L, sizeof *vals * MAX_VALUES, 0); /* 5 */
  lua_pushnil(L); /* 6: a thread function's error (the script's state) */
  /* fewer workers when the address space or the thread limit cannot
   * hold them all (wll_pool_start), with a note saying so */
  workers = wll_pool_start(jobs, note, sizeof note);
  jobs = workers = workers > 0 ? workers : 1;
  if (has_fn) {
    int pos;
    luaL_checkstack(L, 40, "sample");
    wll_testtable(L, 1);
    lua_getfield(L, -1, "fns");
    pos = portable(L, t, lua_gettop(L), why, sizeof why);
    lua_pop(L, 2);
    use_workers = pos && jobs > 1;
    if (!pos && jobs > 1)
      snprintf(note, sizeof note,
               "%s: sampled on the script's own Lua state (one job)", why);
    lr.L = L;
    lr.t = t;
  }
  /* from here to the scheduler's return nothing raises; Lua thread
   * functions run on the script's state only inline, on this thread */
  t0 = now();
  if (has_fn) {
    t->L = L;
    t->selfslot = 1;
    t->errslot = 6;
    t->exploring = 1;
  }
  if (use_workers) {
    wll_runner run = {0, worker_make, worker_drop, worker_thread, NULL};
    run.ud = &lr;
    rc = wll_sample_parallel_run(t->ctx, t->lt, &o, jobs, timeout, progress, &run,
                             &box->h, &partial, err, sizeof err);
    if (rc != 0) {
      /* whatever went wrong in a worker's copy is done again on the
       * script's own state: the same histogram, or the error with its
       * real traceback */
      snprintf(note, sizeof note,
               "a worker's Lua state failed (%.200s): sampled again on the "
               "script's own Lua state",
               err);
      use_workers = 0;
    }
  }
  if (has_fn && !use_workers) {
    wll_runner run = {1, NULL, NULL, NULL, NULL};
    double left = timeout > 0 ? timeout - (now() - t0) : 0;
    workers = 1;
    rc = wll_sample_parallel_run(
        t->ctx, t->lt, &o, 1, timeout > 0 ? (left > 1e-3 ? left : 1e-3) : 0,
        progress, &run, &box->h, &partial, err, sizeof err);
  } else if (!has_fn) {
    rc = wll_sample_parallel(t->ctx, t->lt, &o, jobs, timeout, progress,
                             &box->h, &partial, err, sizeof err);
  }
  secs = now() - t0;
  if (has_fn) {
    /* the weak marks replay the thread functions (on this state) */
    if (rc == 0 && partial != WLL_STOP_SIGNAL && wl_hist_noutcomes(box->h) > 0)
      wl_hist_weak(box->h, 0);
    t->exploring = 0;
    t->L = NULL;
  }
  if (rc != 0)
    return luaL_error(L, "sample %s: %s", wl_litmus_name(t->lt),
                      err[0] ? err : wl_strerror(rc));
  if (partial == WLL_STOP_SIGNAL) {
    /* SIGINT/SIGTERM: the script is interrupted (an error it may catch),
     * not handed a partial result; the box frees the histogram */
    char what[300];
    snprintf(what, sizeof what, "sample %s after %llu of %llu runs",
             wl_litmus_name(t->lt), (unsigned long long)wl_hist_runs(box->h),
             (unsigned long long)o.runs);
    return wll_sig_error(L, what);
  }
  push_varnames(L, box->h);
  lua_replace(L, names);
  if (t->pred >= 0)
    wl_hist_set_condition(box->h, t->pred, "(a Lua predicate)");
  lua_createtable(L, 0, 24); /* 6 */
  res = lua_gettop(L);
  lua_pushstring(L, wl_litmus_name(t->lt));
  lua_pushvalue(L, -1);
  lua_setfield(L, res, "name");
  lua_setfield(L, res, "test"); /* the JSON's name */
  lua_pushstring(L, wl_litmus_file(t->lt));
  lua_setfield(L, res, "file");
  kind = wl_hist_cond_kind(box->h);
  lua_pushstring(L, kind == WL_COND_EXISTS      ? "exists"
                    : kind == WL_COND_NOTEXISTS ? "~exists"
                                                : "forall");
  lua_setfield(L, res, "kind");
  lua_pushstring(L, wl_hist_condition(box->h));
  lua_setfield(L, res, "condition");
  lua_pushinteger(L, (lua_Integer)wl_hist_runs(box->h));
  lua_setfield(L, res, "runs");
  lua_pushinteger(L, (lua_Integer)wl_hist_hung(box->h));
  lua_setfield(L, res, "hung");
  lua_pushboolean(L, partial != WLL_STOP_NONE);
  lua_setfield(L, res, "partial");
  if (partial != WLL_STOP_NONE) {
    lua_pushstring(L, partial == WLL_STOP_TIMEOUT ? "timeout" : "interrupt");
    lua_setfield(L, res, "stopped");
  }
  lua_pushinteger(L, (lua_Integer)o.seed);
  lua_setfield(L, res, "seed");
  lua_pushinteger(L, workers);
  lua_setfield(L, res, "workers");
  if (note[0]) {
    lua_pushstring(L, note);
    lua_setfield(L, res, "note");
  }
  lua_pushnumber(L, secs);
  lua_setfield(L, res, "time");
  nout = wl_hist_noutcomes(box->h);
  order = push_order(L, box->h, nout);
  lua_createtable(L, (int)(nout < 1000000 ? nout : 0), 0);
  outs = lua_gettop(L);
  if (t->pred >= 0) {
    wll_testtable(L, 1);
    lua_getfield(L, -1, "pred");
    lua_remove(L, -2); /* outs + 1: the Lua predicate */
  }
  for (j = 0; j < nout; j++) {
    k = order[j]; /* sorted by value, as the JSON's outcomes */
    push_outcome(L, t, box->h, k, names, vals);
    if (t->pred >= 0) {
      /* the test's condition is a Lua predicate: it decides sat */
      lua_pushvalue(L, outs + 1);
      lua_pushvalue(L, -2);
      lua_call(L, 1, 1);
      wl_hist_set_sat(box->h, k, lua_toboolean(L, -1));
      lua_pushboolean(L, lua_toboolean(L, -1));
      lua_setfield(L, -3, "sat");
      lua_pop(L, 1);
    }
    {
      int weak = wl_hist_weak(box->h, k);
      if (weak >= 0) {
        lua_pushboolean(L, weak);
        lua_setfield(L, -2, "weak");
      }
    }
    lua_getfield(L, -1, "sat");
    if (lua_toboolean(L, -1)) {
      if (wl_hist_count(box->h, k) > 0)
        observed = 1;
      npos += wl_hist_count(box->h, k);
    } else {
      nneg += wl_hist_count(box->h, k);
    }
    lua_pop(L, 1);
    lua_rawseti(L, outs, (lua_Integer)j + 1);
  }
  lua_settop(L, outs);
  /* the verdict, as the JSON's */
  ok = kind == WL_COND_EXISTS   ? npos > 0
       : kind == WL_COND_FORALL ? nneg == 0
                                : npos == 0;
  lua_pushboolean(L, ok);
  lua_setfield(L, res, "ok");
  lua_pushinteger(L, ok);
  lua_setfield(L, res, "verdict");
  lua_pushinteger(L, (lua_Integer)npos);
  lua_setfield(L, res, "positive");
  lua_pushinteger(L, (lua_Integer)nneg);
  lua_setfield(L, res, "negative");
  lua_pushboolean(L, wl_hist_weak_known(box->h));
  lua_setfield(L, res, "weak_known");
  {
    int v, nv = (int)luaL_len(L, names);
    lua_createtable(L, nv, 0);
    for (v = 0; v < nv; v++) {
      int th;
      lua_rawgeti(L, names, v + 1);
      lua_getfield(L, -1, "thread");
      th = (int)lua_tointeger(L, -1);
      lua_getfield(L, -2, "name");
      if (th >= 0)
        lua_pushfstring(L, "%d:%s", th, lua_tostring(L, -1));
      else
        lua_pushvalue(L, -1);
      lua_rawseti(L, -5, v + 1);
      lua_pop(L, 3);
    }
    lua_setfield(L, res, "variables");
  }
  push_hist_text(L, box->h, partial != WLL_STOP_NONE, secs);
  lua_setfield(L, res, "text");
  lua_setfield(L, res, "outcomes");
  lua_pushboolean(L, observed);
  lua_setfield(L, res, "observed");
  /* the result keeps the histogram (and so the test) for r:json(), in
   * a table with weak keys: no internal key in the result's own table */
  lua_rawgetp(L, LUA_REGISTRYINDEX, &box_key);
  lua_pushvalue(L, res);
  lua_pushvalue(L, 3);
  lua_rawset(L, -3);
  lua_pop(L, 1);
  lua_settop(L, res);
  luaL_setmetatable(L, WLL_SAMPLE);
  return 1;
}

static int sample_tostring(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_getfield(L, 1, "text");
  if (!lua_isstring(L, -1))
    lua_pushliteral(L, WLL_SAMPLE);
  else if (lua_getfield(L, 1, "note") == LUA_TSTRING) {
    lua_pushliteral(L, "Note ");
    lua_insert(L, -2);
    lua_pushliteral(L, "\n");
    lua_concat(L, 4);
    return 1;
  } else
    lua_pop(L, 1);
  return 1;
}

void wll_sample_open(lua_State *L) {
  luaL_newmetatable(L, WLL_HIST);
  lua_pushcfunction(L, hist_gc);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);
  /* the results' histograms: weak keys (an ephemeron table) */
  lua_newtable(L);
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "k");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &box_key);
  luaL_newmetatable(L, WLL_SAMPLE);
  lua_pushcfunction(L, sample_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, sample_json);
  lua_setfield(L, -2, "json");
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
}
