/* lmodel.c -- memory models as cat files in Lua: wl.model(path) gives a
 * warplab.Model, and test:explore{model = m or path} evaluates it
 * literally instead of running the built-in PTX 6.0 explorer.  Also
 * where models are found, for Lua and for the warplab command alike.
 *
 * The shipped models (models/ in the repository, PREFIX/share/warplab/
 * models once installed) are found from the program, never from the
 * current directory: $WARPLAB_MODELS, else beside the binary or the
 * module (BIN/../share/warplab/models installed, BUILD/../../models in
 * the build tree), else the folder compiled in (WL_MODELDIR).
 *
 * The box holds its own context, so a model outlives the tests it is
 * used with and serves many of them. */
#define _GNU_SOURCE /* dladdr: where the module itself lies */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "lwarplab.h"

#ifndef WL_MODELDIR
#define WL_MODELDIR "/usr/local/share/warplab/models"
#endif

typedef struct wll_model {
  wl_ctx *ctx;
  wl_model *m;
} wll_model;

/* The folders the shipped models may be in, in order; each entry of
 * dirs (ndirs of room, each PATH_LEN bytes) gets one.  Returns how many. */
#define PATH_LEN 1200
static const char anchor; /* an object of this module, for dladdr */

/* dir/.. of the file at path (dir: path without its last part), then
 * the two layouts, into dirs. */
static int beside(const char *file, char (*dirs)[PATH_LEN], int k) {
  const char *slash = strrchr(file, '/');
  int len;
  if (slash == NULL || file[0] != '/')
    return k;
  len = (int)(slash - file);
  snprintf(dirs[k++], PATH_LEN, "%.*s/../share/warplab/models", len, file);
  snprintf(dirs[k++], PATH_LEN, "%.*s/../../models", len, file);
  return k;
}

static int model_dirs(char (*dirs)[PATH_LEN]) {
  char exe[PATH_LEN];
  const char *env = getenv("WARPLAB_MODELS");
  Dl_info info;
  ssize_t len;
  int k = 0;
  if (env != NULL && *env != '\0')
    snprintf(dirs[k++], PATH_LEN, "%s", env);
  len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len > 0) {
    exe[len] = '\0';
    k = beside(exe, dirs, k);
  }
  if (dladdr(&anchor, &info) != 0 && info.dli_fname != NULL &&
      (len <= 0 || strcmp(info.dli_fname, exe) != 0))
    k = beside(info.dli_fname, dirs, k);
  snprintf(dirs[k++], PATH_LEN, "%s", WL_MODELDIR);
  return k;
}

static int is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

const char *wll_find_shipped(const char *name, char *buf, size_t n) {
  char dirs[8][PATH_LEN];
  size_t len = strlen(name);
  int k, nd = model_dirs(dirs);
  int suffix = len < 4 || strcmp(name + len - 4, ".cat") != 0;
  if (strchr(name, '/') != NULL || len == 0)
    return NULL;
  for (k = 0; k < nd; k++) {
    snprintf(buf, n, "%s/%s", dirs[k], name);
    if (is_file(buf))
      return buf;
    if (suffix) {
      snprintf(buf, n, "%s/%s.cat", dirs[k], name);
      if (is_file(buf))
        return buf;
    }
  }
  return NULL;
}

const char *wll_find_model(const char *name, char *buf, size_t n) {
  struct stat st;
  const char *p;
  /* a path, or a file of that name here, is read as it is (a directory
   * or a FIFO too, for the reader to refuse) */
  if (strchr(name, '/') != NULL || stat(name, &st) == 0)
    return name;
  p = wll_find_shipped(name, buf, n);
  return p != NULL ? p : name;
}

int wll_model_load(wl_ctx *ctx, const char *name, wl_model **out,
                   char *err, size_t n) {
  char buf[PATH_LEN];
  const char *path = wll_find_model(name, buf, sizeof buf);
  struct stat st;
  int rc = wl_model_load(ctx, path, out);
  if (rc == 0)
    return 0;
  if (path == name && strchr(name, '/') == NULL && stat(name, &st) != 0) {
    char dirs[8][PATH_LEN];
    int nd = model_dirs(dirs), k;
    size_t len;
    snprintf(err, n,
             "no model '%s': no such file, and no shipped model of that "
             "name (ptx-v6.0, ptx-v6.0-isa, ptx-v7.5) in",
             name);
    for (k = 0; k < nd; k++) {
      len = strlen(err);
      snprintf(err + len, n - len, "%s %s", k ? "," : "", dirs[k]);
    }
    len = strlen(err);
    snprintf(err + len, n - len, " (set WARPLAB_MODELS)");
    return WL_EIO;
  }
  snprintf(err, n, "%s", wl_ctx_errmsg(ctx));
  return rc;
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
  char err[2048];
  wll_model *b = lua_newuserdatauv(L, sizeof *b, 0);
  int rc;
  memset(b, 0, sizeof *b);
  luaL_setmetatable(L, WLL_MODEL);
  if (wl_ctx_new(NULL, &b->ctx) != 0)
    luaL_error(L, "model: out of memory");
  /* reading stops on SIGINT/SIGTERM (lsignal.c), as exploring does */
  wl_ctx_set_stop(b->ctx, wll_sig_stop, NULL);
  wll_sig_enter();
  rc = wll_model_load(b->ctx, name, &b->m, err, sizeof err);
  wll_sig_leave();
  wl_ctx_set_stop(b->ctx, NULL, NULL);
  if (rc == WL_ESTOPPED && wll_sig_pending()) {
    char what[300];
    wl_ctx_free(b->ctx);
    b->ctx = NULL;
    snprintf(what, sizeof what, "model %s", name);
    wll_sig_error(L, what); /* raises */
    return b;
  }
  if (rc != 0) {
    lua_pushfstring(L, "model: %s", err);
    wl_ctx_free(b->ctx);
    b->ctx = NULL;
    lua_error(L);
  }
  return b;
}

/* wl.model(path): a name without a folder that is no file here names a
 * shipped model, with or without its .cat (wll_find_model). */
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
