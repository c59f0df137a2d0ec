/* lsample.c -- test:sample{...}: runs a test many times on the
 * operational simulator (batches on libuv's thread pool, lsched.c) and
 * returns the histogram as a table. */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "lsched.h"
#include "lwarplab.h"

#define WLL_HIST "warplab.Hist"     /* the box that owns a wl_hist */
#define WLL_SAMPLE "warplab.Sample" /* the metatable of the result */
#define MAX_VALUES 1024             /* > 16 threads' registers + 64 locs */

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

static void push_hist_text(lua_State *L, const wl_hist *h, int partial,
                           double secs) {
  wll_push_written(L, "sample", write_hist, h, partial, secs);
}

/* Pushes value v of a variable: registers as integers, locations in
 * their type. */
static void push_value(lua_State *L, wll_test *t, const char *name, int th,
                       int64_t v) {
  int loc = th < 0 ? wl_litmus_location(t->lt, name) : -1;
  int ty = loc >= 0 ? wl_litmus_location_type(t->lt, loc) : WL_TYPE_INT64;
  if (ty == WL_TYPE_FLOAT || ty == WL_TYPE_DOUBLE)
    lua_pushnumber(L, (lua_Number)wl_value_to_double(ty, v));
  else
    lua_pushinteger(L, (lua_Integer)v);
}

/* Pushes outcome i: { count=, sat=, values={...}, ["1:r0"]=, x=,
 * [thread+1] = { r0=, ... } } (the shape of test:explore()'s states). */
static void push_outcome(lua_State *L, wll_test *t, const wl_hist *h, size_t i,
                         int names, int64_t *vals) {
  int nv, v, nt = wl_litmus_nthreads(t->lt), th;
  int nn = names ? (int)luaL_len(L, names) : 0;
  nv = wl_hist_values(h, i, vals, nn > 0 ? nn : MAX_VALUES);
  if (nv < 0)
    luaL_error(L, "sample: %s", wl_strerror(nv));
  if (nv == 0 || nv > MAX_VALUES)
    nv = nn; /* the count is n itself when the call answers 0 */
  lua_createtable(L, nt, nv + 3);
  for (th = 0; th < nt; th++) {
    lua_newtable(L);
    lua_rawseti(L, -2, th + 1);
  }
  lua_createtable(L, nv, 0);
  for (v = 0; v < nv; v++) {
    lua_pushinteger(L, (lua_Integer)vals[v]);
    lua_rawseti(L, -2, v + 1);
  }
  lua_setfield(L, -2, "values");
  for (v = 0; v < nv && v < nn; v++) {
    const char *name;
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
    if (th >= 0 && th < nt) {
      lua_pushfstring(L, "%d:%s", th, name);
      lua_pushinteger(L, (lua_Integer)vals[v]);
      lua_rawset(L, -5);
      lua_rawgeti(L, -3, th + 1);
      lua_pushinteger(L, (lua_Integer)vals[v]);
      lua_setfield(L, -2, name);
      lua_pop(L, 1);
    } else {
      push_value(L, t, name, th, vals[v]);
      lua_setfield(L, -4, name);
    }
    lua_pop(L, 2);
  }
  lua_pushinteger(L, (lua_Integer)wl_hist_count(h, i));
  lua_setfield(L, -2, "count");
  lua_pushboolean(L, wl_hist_sat(h, i));
  lua_setfield(L, -2, "sat");
}

/* ------------------------------------------------------------------ */
/* test:sample{...}                                                    */
/* ------------------------------------------------------------------ */

static const char *const sample_keys[] = {
    "n", "seed", "profile", "jobs", "max_steps", "timeout", "progress", NULL};
static const char *const profile_words[] = {"weak", "h100", NULL};

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
 * progress=} -> { name=, runs=, hung=, partial=, stopped=, observed=,
 * outcomes={...}, text=, time= } with tostring giving the text. */
int wll_test_sample(lua_State *L) {
  wll_test *t = wll_checktest(L, 1);
  wl_sample_opts o;
  hist_box *box;
  double timeout = 0, t0, secs;
  int opts = 0, jobs, progress = 0, rc, partial = 0, names, res, outs, i;
  char err[600];
  size_t k, nout;
  int64_t *vals;
  int observed = 0;
  memset(&o, 0, sizeof o);
  if (t->exploring)
    return luaL_error(L, "sample: this test is being explored");
  if (!lua_isnoneornil(L, 2)) {
    luaL_checktype(L, 2, LUA_TTABLE);
    opts = 2;
    lua_pushnil(L);
    while (lua_next(L, 2) != 0) {
      int j;
      lua_pop(L, 1);
      for (j = 0; sample_keys[j] != NULL; j++)
        if (lua_type(L, -1) == LUA_TSTRING &&
            strcmp(lua_tostring(L, -1), sample_keys[j]) == 0)
          break;
      if (sample_keys[j] == NULL)
        return luaL_error(L,
                          "sample: unknown option '%s' (expected n, seed, "
                          "profile, jobs, max_steps, timeout or progress)",
                          luaL_tolstring(L, -1, NULL));
    }
  }
  lua_settop(L, 2);
  o.runs = (uint64_t)int_field(L, opts, "n", 100000, 1, LUA_MAXINTEGER);
  o.seed = (uint64_t)int_field(L, opts, "seed", 1, 0, LUA_MAXINTEGER);
  o.max_steps = (int)int_field(L, opts, "max_steps", 0, 1, INT32_MAX);
  jobs = (int)int_field(L, opts, "jobs", wll_ncpus(), 1, 1024);
  o.profile = WL_PROFILE_H100;
  if (opts != 0) {
    if (lua_getfield(L, opts, "profile") != LUA_TNIL) {
      const char *w = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
      if (strcmp(w, profile_words[0]) == 0)
        o.profile = WL_PROFILE_WEAK;
      else if (strcmp(w, profile_words[1]) != 0)
        return luaL_error(L,
                          "sample: profile must be \"weak\" or \"h100\", "
                          "not %s",
                          luaL_tolstring(L, -1, NULL));
    }
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
  }
  for (i = 0; i < t->nthreads; i++)
    if (t->th[i].dev != NULL)
      return luaL_error(L,
                        "sample: thread %d of test '%s' is a Lua function; "
                        "the simulator runs only threads of PTX "
                        "instructions for now (explore it with "
                        "test:explore())",
                        i + 1, wl_litmus_name(t->lt));
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
  /* from here to the scheduler's return nothing raises */
  t0 = now();
  rc = wll_sample_parallel(t->ctx, t->lt, &o, jobs, timeout, progress, &box->h,
                           &partial, err, sizeof err);
  secs = now() - t0;
  if (rc != 0)
    return luaL_error(L, "sample %s: %s", wl_litmus_name(t->lt),
                      err[0] ? err : wl_strerror(rc));
  push_varnames(L, box->h);
  lua_replace(L, names);
  lua_createtable(L, 0, 12); /* 6 */
  res = lua_gettop(L);
  lua_pushstring(L, wl_litmus_name(t->lt));
  lua_setfield(L, res, "name");
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
  lua_pushnumber(L, secs);
  lua_setfield(L, res, "time");
  nout = wl_hist_noutcomes(box->h);
  lua_createtable(L, (int)(nout < 1000000 ? nout : 0), 0);
  outs = lua_gettop(L);
  if (t->pred >= 0) {
    wll_testtable(L, 1);
    lua_getfield(L, -1, "pred");
    lua_remove(L, -2); /* outs + 1: the Lua predicate */
  }
  for (k = 0; k < nout; k++) {
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
    if (lua_toboolean(L, -1) && wl_hist_count(box->h, k) > 0)
      observed = 1;
    lua_pop(L, 1);
    lua_rawseti(L, outs, (lua_Integer)k + 1);
  }
  lua_settop(L, outs);
  if (t->pred >= 0)
    wl_hist_set_condition(box->h, t->pred, "(a Lua predicate)");
  push_hist_text(L, box->h, partial != WLL_STOP_NONE, secs);
  lua_setfield(L, res, "text");
  lua_setfield(L, res, "outcomes");
  lua_pushboolean(L, observed);
  lua_setfield(L, res, "observed");
  hist_release(box); /* the histogram and the test's count go now */
  lua_settop(L, res);
  luaL_setmetatable(L, WLL_SAMPLE);
  return 1;
}

static int sample_tostring(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_getfield(L, 1, "text");
  if (!lua_isstring(L, -1))
    lua_pushliteral(L, WLL_SAMPLE);
  return 1;
}

void wll_sample_open(lua_State *L) {
  luaL_newmetatable(L, WLL_HIST);
  lua_pushcfunction(L, hist_gc);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);
  luaL_newmetatable(L, WLL_SAMPLE);
  lua_pushcfunction(L, sample_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_pop(L, 1);
}
