/* lresult.c -- test:explore and the warplab.Result type: the verdict,
 * the allowed final states as tables, a witness execution per state, and
 * the herd/JSON text. */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "lexplore.h"
#include "lwarplab.h"

typedef struct wll_result {
  wl_result *r;
  wll_test *test; /* kept alive by user value 1 */
  double seconds; /* measured around wl_explore */
  int pred;       /* -1, or the kind of the test's Lua predicate */
  int verdict;    /* when pred >= 0 */
  uint64_t positive, negative;
} wll_result;

/* Pushes value v of location loc in the location's type. */
static void push_locval(lua_State *L, const wll_result *r, int loc, int64_t v) {
  wll_push_carrier(L,
                 loc >= 0 ? wl_litmus_location_type(r->test->lt, loc)
                          : WL_TYPE_INT64,
                 v);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static wll_result *checkresult(lua_State *L, int arg) {
  wll_result *r = luaL_checkudata(L, arg, WLL_RESULT);
  if (r->r == NULL)
    luaL_error(L, "attempt to use a closed " WLL_RESULT);
  return r;
}

/* __gc, __close and :close() */
static int result_close(lua_State *L) {
  wll_result *r = luaL_checkudata(L, 1, WLL_RESULT);
  wl_result_free(r->r);
  r->r = NULL;
  if (r->test != NULL) {
    wll_test_unref(r->test);
    r->test = NULL;
  }
  return 0;
}

/* ------------------------------------------------------------------ */
/* states                                                              */
/* ------------------------------------------------------------------ */

static int states_next(lua_State *L) {
  lua_Integer i = luaL_checkinteger(L, 2) + 1;
  lua_pushinteger(L, i);
  return lua_rawgeti(L, 1, i) == LUA_TNIL ? 1 : 2;
}

/* r:states() -> iterator over (i, state); r.states is also the array */
static int states_call(lua_State *L) {
  lua_pushcfunction(L, states_next);
  lua_pushvalue(L, 1);
  lua_pushinteger(L, 0);
  return 3;
}

/* Pushes the array of state tables, built once and cached. */
static void push_states(lua_State *L, int arg, wll_result *r) {
  size_t k, ns = wl_result_nstates(r->r);
  int v, nv = wl_result_nvars(r->r);
  int th, nt = wl_litmus_nthreads(r->test->lt);
  arg = lua_absindex(L, arg);
  lua_getiuservalue(L, arg, 2);
  if (lua_getfield(L, -1, "states") == LUA_TTABLE) {
    lua_remove(L, -2);
    return;
  }
  lua_pop(L, 1);
  lua_createtable(L, (int)ns, 0);
  for (k = 0; k < ns; k++) {
    lua_createtable(L, nt, nv + 2);
    for (th = 0; th < nt; th++) {
      lua_newtable(L);
      lua_rawseti(L, -2, th + 1);
    }
    for (v = 0; v < nv; v++) {
      const char *name = wl_result_var_name(r->r, v);
      int64_t val = wl_result_value(r->r, k, v);
      int ty = wl_result_var_type(r->r, v);
      th = wl_result_var_thread(r->r, v);
      if (th >= 0 && th < nt) { /* a register, or a typed result */
        lua_pushfstring(L, "%d:%s", th, name);
        wll_push_carrier(L, ty, val);
        lua_rawset(L, -3);
        lua_rawgeti(L, -1, th + 1);
        wll_push_carrier(L, ty, val);
        lua_setfield(L, -2, name);
        lua_pop(L, 1);
      } else {
        wll_push_carrier(L, ty, val);
        lua_setfield(L, -2, name);
      }
    }
    lua_pushinteger(L, (lua_Integer)wl_result_state_count(r->r, k));
    lua_setfield(L, -2, "count");
    lua_pushboolean(L, wl_result_state_sat(r->r, k));
    lua_setfield(L, -2, "sat");
    luaL_setmetatable(L, WLL_STATE); /* values, condition, executions */
    lua_rawseti(L, -2, (lua_Integer)k + 1);
  }
  luaL_setmetatable(L, WLL_STATES);
  lua_pushvalue(L, -1);
  lua_setfield(L, -3, "states");
  lua_remove(L, -2);
}

/* The verdict under the test's Lua predicate, exists/~exists/forall. */
static void eval_pred(lua_State *L, int arg, wll_result *r) {
  size_t k, ns = wl_result_nstates(r->r);
  size_t nsat = 0;
  push_states(L, arg, r);
  lua_getiuservalue(L, arg, 1);
  wll_testtable(L, -1);
  lua_getfield(L, -1, "pred");
  for (k = 0; k < ns; k++) {
    int sat;
    uint64_t c = wl_result_state_count(r->r, k);
    lua_pushvalue(L, -1);
    lua_rawgeti(L, -5, (lua_Integer)k + 1);
    lua_call(L, 1, 1);
    sat = lua_toboolean(L, -1);
    lua_pop(L, 1);
    lua_rawgeti(L, -4, (lua_Integer)k + 1);
    lua_pushboolean(L, sat);
    lua_setfield(L, -2, "sat");
    lua_pop(L, 1);
    wl_result_set_sat(r->r, k, sat);
    if (sat) {
      nsat++;
      r->positive += c;
    } else {
      r->negative += c;
    }
  }
  lua_pop(L, 4);
  /* the herd and JSON text follow the Lua verdict (only memory runs out
   * here, and then the text keeps the engine's condition) */
  wl_result_set_condition(r->r, r->pred, "(a Lua predicate)");
  r->verdict = r->pred == WL_COND_EXISTS      ? nsat > 0
               : r->pred == WL_COND_NOTEXISTS ? nsat == 0
                                              : nsat == ns;
}

static int explore_stop(void *ud) {
  double d = *(const double *)ud;
  return wll_sig_stop(NULL) || (d > 0 && now() > d);
}

/* test:explore([{unroll = N, timeout = S, max_memory = BYTES,
 * count_executions = B, observed_only = B, model = M, checks = B,
 * symmetry = B, prefix = B, stutter = B, thin_air_filter = B,
 * commute = B, search = "auto"|"values"|"rf", jobs = N}]) ->
 * warplab.Result.  A timeout or
 * the memory limit stops the exploration with the states found so far:
 * result.partial says why (nil for a complete result).
 * The search's reductions, each on by default and each keeping the
 * final states and verdict (false turns one off, to check it or to
 * measure what it saves; wl_explore_opts): symmetry (interchangeable
 * threads searched once, their states imaged), prefix (combinations
 * and prefixes whose every state is known skipped), stutter (spin-loop
 * iterations that change nothing end the trace), thin_air_filter
 * (combinations only a cycle through their own values justifies
 * dropped), commute (adjacent inert RMWs of a counter searched in one
 * order: wl_explore_opts.no_commute).  search: "auto" (the default: the reads-from search where
 * it applies, instruction threads without backward branches, else the
 * value search), "values", or "rf" (an error where it does not
 * apply).  jobs = N (1 to 1024): the exploration split into units
 * (wl_explore_split) that N workers of libuv's pool run, merged in unit
 * order (bindings/lexplore.c): the same result for every N; a test with
 * threads written as Lua functions runs its units on the calling
 * thread (its lua_State is not for other threads). */
int wll_test_explore(lua_State *L) {
  wll_test *t = wll_checktest(L, 1);
  wl_explore_opts o;
  wll_result *r;
  double t0, deadline = 0;
  int rc, jobs = 0;
  memset(&o, 0, sizeof o);
  if (t->exploring)
    return luaL_error(L, "explore: this test is already being explored");
  if (!lua_isnoneornil(L, 2)) {
    static const char *const keys[] = {"unroll", "model", "timeout",
                                       "max_memory", "count_executions",
                                       "observed_only", "checks",
                                       "symmetry", "prefix", "stutter",
                                       "thin_air_filter", "commute",
                                       "search", "jobs", NULL};
    static const char *const searches[] = {"auto", "values", "rf", NULL};
    luaL_checktype(L, 2, LUA_TTABLE);
    wll_checkopts(L, 2, "explore", keys, 0);
    if (lua_getfield(L, 2, "unroll") != LUA_TNIL) {
      int isnum;
      lua_Integer n = lua_tointegerx(L, -1, &isnum);
      if (!isnum || n < 1 || n > 1000)
        return luaL_error(L, "explore: unroll must be an integer from 1 to "
                             "1000");
      o.unroll = (int)n;
    }
    if (lua_getfield(L, 2, "timeout") != LUA_TNIL) {
      int isnum;
      lua_Number sec = lua_tonumberx(L, -1, &isnum);
      if (!isnum || !(sec > 0) || sec > 1e9)
        return luaL_error(L, "explore: timeout must be a positive number "
                             "of seconds");
      deadline = sec;
    }
    if (lua_getfield(L, 2, "max_memory") != LUA_TNIL) {
      int isnum;
      lua_Number b = lua_tonumberx(L, -1, &isnum);
      if (!isnum || !(b >= 1) || b > 1e18)
        return luaL_error(L, "explore: max_memory must be a positive number "
                             "of bytes");
      o.max_memory = (size_t)b;
    }
    if (lua_getfield(L, 2, "count_executions") != LUA_TNIL)
      o.count_executions = lua_toboolean(L, -1);
    /* states told apart by the condition's variables only (a condition
     * given as a Lua function observes every variable) */
    if (lua_getfield(L, 2, "observed_only") != LUA_TNIL)
      o.observed_only = lua_toboolean(L, -1);
    /* symmetry = false: interchangeable threads searched one by one */
    if (lua_getfield(L, 2, "symmetry") != LUA_TNIL)
      o.no_symmetry = !lua_toboolean(L, -1);
    if (lua_getfield(L, 2, "prefix") != LUA_TNIL)
      o.no_prefix = !lua_toboolean(L, -1);
    if (lua_getfield(L, 2, "stutter") != LUA_TNIL)
      o.no_stutter = !lua_toboolean(L, -1);
    if (lua_getfield(L, 2, "thin_air_filter") != LUA_TNIL)
      o.no_thin_air_filter = !lua_toboolean(L, -1);
    /* commute = false: every order of inert RMWs on a counter */
    if (lua_getfield(L, 2, "commute") != LUA_TNIL)
      o.no_commute = !lua_toboolean(L, -1);
    /* search = "auto" | "values" | "rf" (WL_SEARCH_* in that order) */
    o.search = wll_optword(L, 2, "explore", "search", "auto", searches);
    /* checks = false: no data-race or hang search (r.race, r.hang nil) */
    if (lua_getfield(L, 2, "checks") != LUA_TNIL)
      o.no_checks = !lua_toboolean(L, -1);
    if (lua_getfield(L, 2, "jobs") != LUA_TNIL) {
      int isnum, i;
      lua_Integer n = lua_tointegerx(L, -1, &isnum);
      if (!isnum || n < 1 || n > 1024)
        return luaL_error(L, "explore: jobs must be an integer from 1 to "
                             "1024");
      jobs = (int)n;
      for (i = 0; i < t->nthreads; i++)
        if (t->th[i].dev != NULL)
          jobs = 1; /* Lua functions: on this thread, unit by unit */
    }
  }
  o.keep_partial = 1;
  if (o.max_memory == 0) /* never the out-of-memory killer */
    o.max_memory = wll_default_max_memory();
  lua_settop(L, 2);
  r = lua_newuserdatauv(L, sizeof *r, 2); /* 3 */
  memset(r, 0, sizeof *r);
  r->pred = t->pred;
  luaL_setmetatable(L, WLL_RESULT);
  lua_newtable(L);
  lua_setiuservalue(L, 3, 2);
  lua_pushnil(L); /* 4: a thread function's error */
  /* 5: the model, kept on the stack while exploring */
  if (!lua_isnoneornil(L, 2))
    lua_getfield(L, 2, "model");
  else
    lua_pushnil(L);
  if (!lua_isnil(L, 5))
    o.model = wll_tomodel(L, 5);
  if (!lua_checkstack(L, 20))
    return luaL_error(L, "explore: Lua stack overflow");
  /* from here to wl_explore's return nothing raises */
  t->L = L;
  t->selfslot = 1;
  t->errslot = 4;
  t->exploring = 1;
  t0 = now();
  if (deadline > 0)
    deadline += t0;
  /* SIGINT/SIGTERM (lsignal.c), or the timeout */
  o.should_stop = explore_stop;
  o.stop_ud = &deadline;
  wll_sig_enter();
  rc = jobs > 0 ? wll_explore_jobs(t->ctx, t->lt, &o, jobs, 0, &r->r)
                : wl_explore(t->ctx, t->lt, &o, &r->r);
  wll_sig_leave();
  r->seconds = now() - t0;
  t->exploring = 0;
  t->L = NULL;
  if (rc == WL_ESTOPPED && wll_sig_pending()) {
    char what[300];
    if (r->r != NULL) {
      wl_result_free(r->r);
      r->r = NULL;
    }
    snprintf(what, sizeof what, "explore %s", wl_litmus_name(t->lt));
    return wll_sig_error(L, what);
  }
  if (rc != 0) {
    const char *m = wl_ctx_errmsg(t->ctx);
    if (r->r != NULL) {
      wl_result_free(r->r);
      r->r = NULL;
    }
    if (!lua_isnil(L, 4)) {
      lua_settop(L, 4);
      return lua_error(L);
    }
    return luaL_error(L, "explore %s: %s", wl_litmus_name(t->lt),
                      m[0] ? m : wl_strerror(rc));
  }
  r->test = t;
  t->nresults++;
  lua_pushvalue(L, 1);
  lua_setiuservalue(L, 3, 1);
  lua_settop(L, 3);
  if (r->pred >= 0)
    eval_pred(L, 3, r);
  return 1;
}

/* ------------------------------------------------------------------ */
/* witnesses                                                           */
/* ------------------------------------------------------------------ */

static void push_edge(lua_State *L, int list, int from, int to) {
  lua_createtable(L, 2, 2);
  lua_pushinteger(L, from);
  lua_rawseti(L, -2, 1);
  lua_pushinteger(L, to);
  lua_rawseti(L, -2, 2);
  lua_pushinteger(L, from);
  lua_setfield(L, -2, "from");
  lua_pushinteger(L, to);
  lua_setfield(L, -2, "to");
  lua_rawseti(L, list, luaL_len(L, list) + 1);
}

/* r:witness(i) -> { events, rf, co, fr, sync } for state i (1-based);
 * event ids are indices into events. */
static int result_witness(lua_State *L) {
  wll_result *r = checkresult(L, 1);
  lua_Integer si = luaL_checkinteger(L, 2);
  size_t ns = wl_result_nstates(r->r), st;
  wl_event_info *ev;
  int n, i, j, top;
  const wl_litmus *lt = r->test->lt;
  if (si < 1 || (size_t)si > ns)
    return luaL_argerror(L, 2,
                         lua_pushfstring(L,
                                         "no state %I (the result "
                                         "has %d)",
                                         si, (int)ns));
  st = (size_t)si - 1;
  n = wl_result_witness_nevents(r->r, st);
  if (n < 0)
    return luaL_error(L, "witness: %s", wl_strerror(n));
  ev = lua_newuserdatauv(L, sizeof *ev * (size_t)(n ? n : 1), 0);
  for (i = 0; i < n; i++) {
    int rc = wl_result_witness_event(r->r, st, i, &ev[i]);
    if (rc != 0)
      return luaL_error(L, "witness: %s", wl_strerror(rc));
  }
  lua_createtable(L, 0, 5);
  top = lua_gettop(L);
  lua_createtable(L, n, 0); /* events */
  for (i = 0; i < n; i++) {
    const wl_event_info *e = &ev[i];
    char kind[2];
    lua_createtable(L, 0, 12);
    lua_pushinteger(L, i + 1);
    lua_setfield(L, -2, "id");
    lua_pushinteger(L, e->thread);
    lua_setfield(L, -2, "thread");
    lua_pushboolean(L, e->thread < 0);
    lua_setfield(L, -2, "init");
    lua_pushinteger(L, e->line);
    lua_setfield(L, -2, "line");
    kind[0] = (char)e->kind;
    kind[1] = '\0';
    lua_pushstring(L, kind);
    lua_setfield(L, -2, "kind");
    if (e->loc >= 0 && e->loc < wl_litmus_nlocations(lt)) {
      lua_pushstring(L, wl_litmus_location_name(lt, e->loc));
      lua_setfield(L, -2, "loc");
    }
    if (e->kind == 'R' || e->kind == 'W')
      push_locval(L, r, e->loc, e->value);
    else
      lua_pushinteger(L, (lua_Integer)e->value);
    lua_setfield(L, -2, "value");
    if (e->sem >= WL_SEM_WEAK && e->sem <= WL_SEM_SC) {
      lua_pushstring(L, wll_sem_words[e->sem]);
      lua_setfield(L, -2, "sem");
    }
    if (e->scope > WL_SCOPE_NONE && e->scope <= WL_SCOPE_SYS) {
      lua_pushstring(L, wll_scope_words[e->scope]);
      lua_setfield(L, -2, "scope");
    }
    lua_pushboolean(L, e->rmw);
    lua_setfield(L, -2, "rmw");
    if (e->kind == 'R' && e->rf >= 0) {
      lua_pushinteger(L, e->rf + 1);
      lua_setfield(L, -2, "rf");
    }
    if (e->kind == 'W') {
      lua_pushinteger(L, e->co);
      lua_setfield(L, -2, "co");
    }
    if (e->kind == 'F' && e->sc >= 0) {
      lua_pushinteger(L, e->sc);
      lua_setfield(L, -2, "sc");
    }
    if (e->kind == 'B') {
      lua_pushinteger(L, e->phase);
      lua_setfield(L, -2, "phase");
    }
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, top, "events");
  /* rf */
  lua_newtable(L);
  for (i = 0; i < n; i++)
    if (ev[i].kind == 'R' && ev[i].rf >= 0 && ev[i].rf < n)
      push_edge(L, lua_gettop(L), ev[i].rf + 1, i + 1);
  lua_setfield(L, top, "rf");
  /* co: each write to its immediate successor */
  lua_newtable(L);
  for (i = 0; i < n; i++) {
    int best = -1;
    if (ev[i].kind != 'W')
      continue;
    for (j = 0; j < n; j++)
      if (ev[j].kind == 'W' && ev[j].loc == ev[i].loc && ev[j].co > ev[i].co &&
          (best < 0 || ev[j].co < ev[best].co))
        best = j;
    if (best >= 0)
      push_edge(L, lua_gettop(L), i + 1, best + 1);
  }
  lua_setfield(L, top, "co");
  /* fr = rf^-1; co: a read to every write co-after its source */
  lua_newtable(L);
  for (i = 0; i < n; i++) {
    int w = ev[i].rf;
    if (ev[i].kind != 'R' || w < 0 || w >= n)
      continue;
    for (j = 0; j < n; j++)
      if (ev[j].kind == 'W' && ev[j].loc == ev[i].loc && ev[j].co > ev[w].co)
        push_edge(L, lua_gettop(L), i + 1, j + 1);
  }
  lua_setfield(L, top, "fr");
  /* sync: the fence-SC order (successive fences) and barrier phases */
  lua_newtable(L);
  for (i = 0; i < n; i++) {
    if (ev[i].kind == 'F' && ev[i].sc >= 0) {
      for (j = 0; j < n; j++)
        if (ev[j].kind == 'F' && ev[j].sc == ev[i].sc + 1) {
          push_edge(L, lua_gettop(L), i + 1, j + 1);
          lua_rawgeti(L, -1, luaL_len(L, -1));
          lua_pushliteral(L, "sc");
          lua_setfield(L, -2, "kind");
          lua_pop(L, 1);
        }
    }
    if (ev[i].kind == 'B' && ev[i].phase >= 0) {
      for (j = 0; j < n; j++)
        if (j != i && ev[j].kind == 'B' && ev[j].phase == ev[i].phase &&
            ev[j].thread != ev[i].thread) {
          push_edge(L, lua_gettop(L), i + 1, j + 1);
          lua_rawgeti(L, -1, luaL_len(L, -1));
          lua_pushliteral(L, "bar");
          lua_setfield(L, -2, "kind");
          lua_pushinteger(L, ev[i].phase);
          lua_setfield(L, -2, "phase");
          lua_pop(L, 1);
        }
    }
  }
  lua_setfield(L, top, "sync");
  return 1;
}

/* ------------------------------------------------------------------ */
/* text                                                                */
/* ------------------------------------------------------------------ */

/* Two passes of the writer: count, then copy into a userdata sized for
 * it, so that nothing allocated outside Lua can leak if pushing raises. */

static int write_result(const void *obj, int json, double secs, wl_write_fn w,
                        void *ud) {
  const wl_result *r = obj;
  return json ? wl_result_write_json(r, secs, w, ud)
              : wl_result_write_herd(r, secs, w, ud);
}

static int push_text(lua_State *L, wll_result *r, int json, double secs) {
  wll_push_written(L, json ? "json" : "herd", write_result, r->r, json, secs);
  return 1;
}

static double opt_seconds(lua_State *L, int arg, wll_result *r) {
  return lua_isnoneornil(L, arg) ? r->seconds : luaL_checknumber(L, arg);
}

static int result_tostring(lua_State *L) {
  wll_result *r = luaL_checkudata(L, 1, WLL_RESULT);
  if (r->r == NULL) {
    lua_pushliteral(L, WLL_RESULT " (closed)");
    return 1;
  }
  return push_text(L, r, 0, r->seconds);
}

/* r:herd([seconds]) and r:json([seconds]); seconds default: measured */
static int result_herd(lua_State *L) {
  wll_result *r = checkresult(L, 1);
  return push_text(L, r, 0, opt_seconds(L, 2, r));
}

static int result_json(lua_State *L) {
  wll_result *r = checkresult(L, 1);
  return push_text(L, r, 1, opt_seconds(L, 2, r));
}

static int result_len(lua_State *L) {
  wll_result *r = checkresult(L, 1);
  lua_pushinteger(L, (lua_Integer)wl_result_nstates(r->r));
  return 1;
}

static int result_index(lua_State *L) {
  wll_result *r;
  const char *k;
  int verdict, kind;
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL)
    return 1; /* methods check the result themselves */
  r = checkresult(L, 1);
  verdict = r->pred >= 0 ? r->verdict : wl_result_verdict(r->r);
  kind = r->pred >= 0 ? r->pred : (int)wl_result_cond_kind(r->r);
  if (lua_type(L, 2) != LUA_TSTRING)
    return 1;
  k = lua_tostring(L, 2);
  if (strcmp(k, "ok") == 0)
    lua_pushboolean(L, verdict);
  else if (strcmp(k, "verdict") == 0)
    lua_pushinteger(L, verdict);
  else if (strcmp(k, "positive") == 0)
    lua_pushinteger(L, (lua_Integer)(r->pred >= 0 ? r->positive
                                                  : wl_result_positive(r->r)));
  else if (strcmp(k, "negative") == 0)
    lua_pushinteger(L, (lua_Integer)(r->pred >= 0 ? r->negative
                                                  : wl_result_negative(r->r)));
  else if (strcmp(k, "bound_hit") == 0)
    lua_pushboolean(L, wl_result_bound_hit(r->r));
  else if (strcmp(k, "partial") == 0) {
    /* false for a complete result (the JSON's), else why the
     * exploration stopped */
    const char *why;
    if (wl_result_partial(r->r, &why))
      lua_pushstring(L, why);
    else
      lua_pushboolean(L, 0);
  }
  else if (strcmp(k, "unroll") == 0)
    lua_pushinteger(L, wl_result_unroll(r->r));
  else if (strcmp(k, "file") == 0)
    lua_pushstring(L, wl_litmus_file(r->test->lt));
  else if (strcmp(k, "traces_cut") == 0)
    lua_pushinteger(L, (lua_Integer)wl_result_traces_cut(r->r));
  else if (strcmp(k, "nstates") == 0)
    lua_pushinteger(L, (lua_Integer)wl_result_nstates(r->r));
  else if (strcmp(k, "name") == 0 || strcmp(k, "test") == 0)
    lua_pushstring(L, wl_litmus_name(r->test->lt));
  else if (strcmp(k, "kind") == 0)
    lua_pushstring(L, kind == WL_COND_EXISTS      ? "exists"
                      : kind == WL_COND_NOTEXISTS ? "~exists"
                                                  : "forall");
  else if (strcmp(k, "condition") == 0)
    lua_pushstring(L, r->pred >= 0 ? "(a Lua predicate)"
                                   : wl_result_condition(r->r));
  else if (strcmp(k, "time") == 0)
    lua_pushnumber(L, r->seconds);
  else if (strcmp(k, "states") == 0)
    push_states(L, 1, r);
  else if (strcmp(k, "race") == 0)
    wll_push_race(L, r->r, r->test->lt);
  else if (strcmp(k, "hang") == 0)
    wll_push_hang(L, r->r, r->test->lt);
  else
    lua_pushnil(L);
  return 1;
}

/* The fields pairs() gives, in this order (result_index has each; the
 * JSON's names, plus name, nstates and traces_cut). */
static const char *const result_fields[] = {
    "test", "name", "file", "kind", "condition", "ok", "verdict",
    "positive", "negative", "bound_hit", "unroll", "partial", "traces_cut",
    "time", "nstates", "states", "race", "hang", NULL};

/* pairs(r): the next field after key 2 whose value is not nil */
static int result_next(lua_State *L) {
  int i = 0;
  if (!lua_isnil(L, 2)) {
    const char *k = lua_tostring(L, 2);
    while (result_fields[i] != NULL &&
           (k == NULL || strcmp(result_fields[i], k) != 0))
      i++;
    if (result_fields[i] == NULL)
      return luaL_error(L, "invalid key to 'next'");
    i++;
  }
  for (; result_fields[i] != NULL; i++) {
    lua_settop(L, 1);
    lua_pushstring(L, result_fields[i]);
    luaL_getmetafield(L, 1, "__index"); /* result_index, with its methods */
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_call(L, 2, 1);
    if (!lua_isnil(L, -1))
      return 2;
  }
  lua_pushnil(L);
  return 1;
}

static int result_pairs(lua_State *L) {
  checkresult(L, 1);
  lua_pushcfunction(L, result_next);
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}

/* For lgraph.c: the result at arg (raises when closed) and its test. */
const wl_result *wll_checkresult(lua_State *L, int arg, wll_test **t) {
  wll_result *r = checkresult(L, arg);
  *t = r->test;
  return r->r;
}

static const luaL_Reg result_methods[] = {{"witness", result_witness},
                                          {"graph", wll_result_graph},
                                          {"whynot", wll_result_whynot},
                                          {"herd", result_herd},
                                          {"json", result_json},
                                          {"close", result_close},
                                          {NULL, NULL}};

static const luaL_Reg result_meta[] = {{"__gc", result_close},
                                       {"__close", result_close},
                                       {"__tostring", result_tostring},
                                       {"__len", result_len},
                                       {"__pairs", result_pairs},
                                       {NULL, NULL}};

/* A state's (or sampled outcome's) fields under the JSON's names, which
 * are not keys of its table, so that scripts that walk a state's keys
 * see its variables, sat and count as before: condition (sat),
 * executions (count), values (a new table of the variables by name:
 * "1:r0", "x"; a sampled outcome has its own). */
static int state_index(lua_State *L) {
  const char *k = lua_tostring(L, 2);
  luaL_checktype(L, 1, LUA_TTABLE);
  if (lua_type(L, 2) != LUA_TSTRING)
    lua_pushnil(L);
  else if (strcmp(k, "condition") == 0)
    lua_getfield(L, 1, "sat");
  else if (strcmp(k, "executions") == 0)
    lua_getfield(L, 1, "count");
  else if (strcmp(k, "values") == 0) {
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, 1) != 0) {
      const char *name = lua_type(L, -2) == LUA_TSTRING
                             ? lua_tostring(L, -2) : NULL;
      if (name != NULL && strcmp(name, "sat") != 0 &&
          strcmp(name, "count") != 0 && strcmp(name, "weak") != 0 &&
          lua_type(L, -1) == LUA_TNUMBER) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, -4);
      } else {
        lua_pop(L, 1);
      }
    }
  } else
    lua_pushnil(L);
  return 1;
}

void wll_result_open(lua_State *L) {
  luaL_newmetatable(L, WLL_STATE);
  lua_pushcfunction(L, state_index);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
  luaL_newmetatable(L, WLL_RESULT);
  luaL_setfuncs(L, result_meta, 0);
  luaL_newlib(L, result_methods);
  lua_pushcclosure(L, result_index, 1);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
  luaL_newmetatable(L, WLL_STATES);
  lua_pushcfunction(L, states_call);
  lua_setfield(L, -2, "__call");
  lua_pop(L, 1);
}
