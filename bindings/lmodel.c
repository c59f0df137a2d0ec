/* lmodel.c -- memory models as cat files in Lua: wl.model(path) gives a
 * warplab.Model, and test:explore{model = m or path} evaluates it
 * literally instead of running the built-in PTX 6.0 explorer.
 *
 * The box holds its own context, so a model outlives the tests it is
 * used with and serves many of them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lwarplab.h"

typedef struct wll_model {
  wl_ctx *ctx;
  wl_model *m;
} wll_model;

const char *wll_find_model(const char *name, char *buf, size_t n) {
  const char *dirs[2];
  int k;
  FILE *f;
  if (strchr(name, '/') != NULL)
    return name;
  if ((f = fopen(name, "r")) != NULL) {
    fclose(f);
    return name;
  }
  dirs[0] = getenv("WARPLAB_SHARED");
  dirs[1] = "../shared";
  for (k = 0; k < 2; k++) {
    if (dirs[k] == NULL)
      continue;
    snprintf(buf, n, "%s/spec/%s", dirs[k], name);
    if ((f = fopen(buf, "r")) != NULL) {
      fclose(f);
      return buf;
    }
  }
  return name;
}

static int model_close(lua_State *L) {
  wll_model *b = luaL_checkudata(L, 1, WLL_MODEL);
  wl_model_free(b->m);
  wl_ctx_free(b->ctx);
  b->m = NULL;
  b->ctx = NULL;
  return 0;
}

static wll_model *checkmodel(lua_State *L, int arg) {
  wll_model *b = luaL_checkudata(L, arg, WLL_MODEL);
  if (b->m == NULL)
    luaL_error(L, "attempt to use a closed %s", WLL_MODEL);
  return b;
}

/* Pushes a new model read from the file named at stack index arg. */
static wll_model *push_loaded(lua_State *L, int arg) {
  const char *name = luaL_checkstring(L, arg);
  char buf[1200];
  wll_model *b = lua_newuserdatauv(L, sizeof *b, 0);
  int rc;
  memset(b, 0, sizeof *b);
  luaL_setmetatable(L, WLL_MODEL);
  if (wl_ctx_new(NULL, &b->ctx) != 0)
    luaL_error(L, "model: out of memory");
  rc = wl_model_load(b->ctx, wll_find_model(name, buf, sizeof buf), &b->m);
  if (rc != 0) {
    lua_pushfstring(L, "model: %s", wl_ctx_errmsg(b->ctx));
    wl_ctx_free(b->ctx);
    b->ctx = NULL;
    lua_error(L);
  }
  return b;
}

/* wl.model(path): a name without a folder is also looked up in
 * $WARPLAB_SHARED/spec and ../shared/spec. */
static int l_model(lua_State *L) {
  push_loaded(L, 1);
  return 1;
}

const wl_model *wll_tomodel(lua_State *L, int arg) {
  if (lua_type(L, arg) == LUA_TSTRING) {
    wll_model *b = push_loaded(L, arg);
    lua_replace(L, arg);
    return b->m;
  }
  if (luaL_testudata(L, arg, WLL_MODEL) == NULL)
    luaL_error(L, "model must be a .cat file name or a %s, not %s",
               WLL_MODEL, luaL_typename(L, arg));
  return checkmodel(L, arg)->m;
}

static int model_index(lua_State *L) {
  wll_model *b = checkmodel(L, 1);
  const char *k = luaL_checkstring(L, 2);
  if (strcmp(k, "name") == 0) {
    lua_pushstring(L, wl_model_name(b->m));
    return 1;
  }
  if (strcmp(k, "close") == 0) {
    lua_pushcfunction(L, model_close);
    return 1;
  }
  return 0;
}

static int model_tostring(lua_State *L) {
  wll_model *b = luaL_checkudata(L, 1, WLL_MODEL);
  if (b->m == NULL)
    lua_pushliteral(L, "warplab.Model (closed)");
  else
    lua_pushfstring(L, "warplab.Model (%s)", wl_model_name(b->m));
  return 1;
}

static const luaL_Reg model_meta[] = {{"__gc", model_close},
                                      {"__close", model_close},
                                      {"__index", model_index},
                                      {"__tostring", model_tostring},
                                      {NULL, NULL}};

void wll_model_open(lua_State *L) {
  luaL_newmetatable(L, WLL_MODEL);
  luaL_setfuncs(L, model_meta, 0);
  lua_pop(L, 1);
  lua_pushcfunction(L, l_model);
  lua_setfield(L, -2, "model");
}
