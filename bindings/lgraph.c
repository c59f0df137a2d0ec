/* lgraph.c -- pictures and explanations of results: r:graph(i), the
 * witness of state i as a DOT graph, and r:whynot([model]), why the
 * model rules out the test's outcome.  (SVG and the report page are
 * pure Lua: scripts/warplab/report.lua.) */
#include <string.h>

#include "lwarplab.h"

static int write_dot(const void *obj, int state, double secs, wl_write_fn w,
                     void *ud) {
  (void)secs;
  return wl_result_write_dot(obj, (size_t)state, w, ud);
}

/* r:graph(i) -> the DOT text of state i's witness (1-based) */
int wll_result_graph(lua_State *L) {
  wll_test *t;
  const wl_result *r = wll_checkresult(L, 1, &t);
  lua_Integer i = luaL_checkinteger(L, 2);
  size_t ns = wl_result_nstates(r);
  if (i < 1 || (size_t)i > ns)
    return luaL_argerror(
        L, 2, lua_pushfstring(L, "no state %I (the result has %d)", i,
                              (int)ns));
  wll_push_written(L, "graph", write_dot, r, (int)(i - 1), 0);
  return 1;
}

enum { W_TEXT, W_DOT, W_JSON };

static int write_whynot(const void *obj, int what, double secs,
                        wl_write_fn w, void *ud) {
  (void)secs;
  return what == W_TEXT  ? wl_whynot_write_text(obj, w, ud)
         : what == W_DOT ? wl_whynot_write_dot(obj, w, ud)
                         : wl_whynot_write_json(obj, w, ud);
}

/* Pushes the explanation as a table; frees w on every path (a raising
 * push would leak it otherwise: the table is built from a protected
 * call's results). */
static int push_whynot(lua_State *L) {
  const wl_whynot *w = lua_touserdata(L, 1);
  static const char *const words[] = {"allowed", "no_candidate",
                                      "forbidden"};
  int st = wl_whynot_status(w);
  lua_createtable(L, 0, 5);
  lua_pushstring(L, words[st]);
  lua_setfield(L, -2, "status");
  if (wl_whynot_check(w) != NULL) {
    lua_pushstring(L, wl_whynot_check(w));
    lua_setfield(L, -2, "check");
  }
  wll_push_written(L, "whynot", write_whynot, w, W_TEXT, 0);
  lua_setfield(L, -2, "text");
  wll_push_written(L, "whynot", write_whynot, w, W_JSON, 0);
  lua_setfield(L, -2, "json");
  if (st == WL_WHYNOT_FORBIDDEN) {
    wll_push_written(L, "whynot", write_whynot, w, W_DOT, 0);
    lua_setfield(L, -2, "dot");
  }
  return 1;
}

/* r:whynot([model]) -> {status =, check =, text =, dot =, json =};
 * model: a warplab.Model or a .cat name (default ptx-v6.0-isa.cat). */
int wll_result_whynot(lua_State *L) {
  wll_test *t;
  wl_whynot *w = NULL;
  const wl_model *m;
  int rc;
  wll_checkresult(L, 1, &t);
  lua_settop(L, 2);
  if (lua_isnil(L, 2)) { /* the shipped default, never a file of that
                            * name in the current directory */
    char buf[1200];
    const char *p = wll_find_shipped("ptx-v6.0-isa.cat", buf, sizeof buf);
    lua_pushstring(L, p != NULL ? p : "ptx-v6.0-isa.cat");
    lua_replace(L, 2);
  }
  m = wll_tomodel(L, 2);
  if (t->exploring)
    return luaL_error(L, "whynot: this test is already being explored");
  lua_getiuservalue(L, 1, 1); /* 3: the test */
  lua_pushnil(L);             /* 4: a thread function's error */
  if (!lua_checkstack(L, 20))
    return luaL_error(L, "whynot: Lua stack overflow");
  /* from here to wl_whynot_explain's return nothing raises */
  t->L = L;
  t->selfslot = 3;
  t->errslot = 4;
  t->exploring = 1;
  wll_sig_enter();
  rc = wl_whynot_explain(t->ctx, t->lt, m, 0, &w);
  wll_sig_leave();
  t->exploring = 0;
  t->L = NULL;
  if (rc != 0) {
    if (!lua_isnil(L, 4)) {
      lua_settop(L, 4);
      return lua_error(L);
    }
    return luaL_error(L, "whynot %s: %s", wl_litmus_name(t->lt),
                      wl_ctx_errmsg(t->ctx)[0] ? wl_ctx_errmsg(t->ctx)
                                               : wl_strerror(rc));
  }
  lua_pushcfunction(L, push_whynot);
  lua_pushlightuserdata(L, w);
  rc = lua_pcall(L, 1, 1, 0);
  wl_whynot_free(w);
  if (rc != LUA_OK)
    return lua_error(L);
  return 1;
}
