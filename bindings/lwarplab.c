/* lwarplab.c -- the warplab Lua module: wl.load, wl.parse and the
 * warplab.Test type.  wl.litmus{...} (a test from a Lua table) lives in
 * llitmus.c, devices (thread functions) in ldevice.c, results in
 * lresult.c. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <unistd.h>

#include "lwarplab.h"

size_t wll_default_max_memory(void) {
  long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || size <= 0)
    return 0;
  return (size_t)pages / 4 * 3 * (size_t)size;
}

/* exported: the module's one symbol */
int luaopen_warplab(lua_State *L);

const char *const wll_sem_words[] = {"weak",    "relaxed", "acquire", "release",
                                     "acq_rel", "sc",      NULL};
const char *const wll_scope_words[] = {"none", "cta", "gpu", "sys", NULL};

const wll_named_op wll_cuda_atomics[] = {
    {"atomicAdd", WL_OP_ADD}, {"atomicSub", WL_OP_SUB},
    {"atomicExch", WL_OP_EXCH}, {"atomicMin", WL_OP_MIN},
    {"atomicMax", WL_OP_MAX}, {"atomicAnd", WL_OP_AND},
    {"atomicOr", WL_OP_OR}, {"atomicXor", WL_OP_XOR},
    {"atomicInc", WL_OP_INC}, {"atomicDec", WL_OP_DEC},
    {"atomicCAS", WL_OP_CAS}, {NULL, 0}};
const wll_named_op wll_atomic_rmws[] = {
    {"atomic_fetch_add", WL_OP_ADD}, {"atomic_fetch_sub", WL_OP_SUB},
    {"atomic_fetch_and", WL_OP_AND}, {"atomic_fetch_or", WL_OP_OR},
    {"atomic_fetch_xor", WL_OP_XOR}, {"atomic_fetch_min", WL_OP_MIN},
    {"atomic_fetch_max", WL_OP_MAX}, {"atomic_exchange", WL_OP_EXCH},
    {"atomic_compare_exchange", WL_OP_CAS}, {NULL, 0}};
const char *const wll_scope_suffixes[] = {"", "_block", "_system", NULL};
const char *const wll_warp_ops[] = {
    "syncwarp",      "shfl_sync",   "shfl_up_sync", "shfl_down_sync",
    "shfl_xor_sync", "ballot_sync", "any_sync",     "all_sync", NULL};
const char *const wll_fence_names[] = {"threadfence", "threadfence_block",
                                       "threadfence_system", NULL};
const int wll_suffix_scope[] = {WL_SCOPE_GPU, WL_SCOPE_CTA, WL_SCOPE_SYS};

/* ------------------------------------------------------------------ */
/* helpers                                                             */
/* ------------------------------------------------------------------ */

/* The index of the value at arg in lst, or -1; def when it is absent. */
static int find_word(lua_State *L, int arg, const char *def,
                     const char *const lst[]) {
  const char *s;
  int i;
  if (lua_isnoneornil(L, arg))
    s = def;
  else if (lua_type(L, arg) == LUA_TSTRING)
    s = lua_tostring(L, arg);
  else
    s = NULL;
  for (i = 0; s != NULL && lst[i] != NULL; i++)
    if (strcmp(lst[i], s) == 0)
      return i;
  return -1;
}

/* Pushes "invalid WHAT 'x' (expected "a", "b" or "c")" for the value at
 * arg. */
static const char *push_bad_word(lua_State *L, int arg,
                                 const char *const lst[], const char *what) {
  luaL_Buffer b;
  int i;
  arg = lua_absindex(L, arg);
  luaL_buffinit(L, &b);
  if (lua_type(L, arg) == LUA_TSTRING)
    lua_pushfstring(L, "invalid %s '%s' (expected ", what,
                    lua_tostring(L, arg));
  else
    lua_pushfstring(L, "%s expected, got %s (one of ", what,
                    luaL_typename(L, arg));
  luaL_addvalue(&b);
  for (i = 0; lst[i] != NULL; i++) {
    if (i > 0)
      luaL_addstring(&b, lst[i + 1] == NULL ? " or " : ", ");
    luaL_addchar(&b, '"');
    luaL_addstring(&b, lst[i]);
    luaL_addchar(&b, '"');
  }
  luaL_addchar(&b, ')');
  luaL_pushresult(&b);
  return lua_tostring(L, -1);
}

int wll_checkword(lua_State *L, int arg, const char *def,
                  const char *const lst[], const char *what) {
  int i = find_word(L, arg, def, lst);
  if (i >= 0)
    return i;
  if (arg < 0 && arg > LUA_REGISTRYINDEX) /* no argument to name */
    return luaL_error(L, "%s", push_bad_word(L, arg, lst, what));
  return luaL_argerror(L, arg, push_bad_word(L, arg, lst, what));
}

const char *const *wll_profile_words(void) {
  /* one per thread: Lua states on libuv's pool threads (warplab report
   * --jobs) ask at once, and filling one shared array was a data race */
  static _Thread_local const char *w[WL_NPROFILES + 1];
  int i;
  if (w[0] == NULL)
    for (i = 0; i < WL_NPROFILES; i++)
      w[i] = wl_profile_name(i);
  return w;
}

int wll_optword(lua_State *L, int idx, const char *fname, const char *key,
                const char *def, const char *const lst[]) {
  int i;
  lua_getfield(L, idx, key);
  i = find_word(L, -1, def, lst);
  if (i < 0) {
    const char *m = push_bad_word(L, -1, lst, key);
    luaL_error(L, "%s: option '%s': %s", fname, key, m);
  }
  lua_pop(L, 1);
  return i;
}

uint64_t wll_bytes(lua_State *L, lua_Integer n, int esize,
                   const char *fname) {
  uint64_t b;
  if (n < 0)
    luaL_error(L, "%s: negative element count (%I)", fname, n);
  if (wl_size_mul((uint64_t)n, (uint64_t)esize, &b) != 0)
    luaL_error(L, "%s: %I elements of %d bytes: too large", fname, n, esize);
  return b;
}

lua_Integer wll_optint(lua_State *L, int idx, const char *fname,
                       const char *key, lua_Integer def, lua_Integer lo,
                       lua_Integer hi) {
  lua_Integer v = def;
  if (lua_getfield(L, idx, key) != LUA_TNIL) {
    int isnum;
    v = lua_tointegerx(L, -1, &isnum);
    if (!isnum || v < lo || v > hi)
      luaL_error(L, "%s: option '%s' must be an integer from %I to %I, not %s",
                 fname, key, lo, hi, luaL_tolstring(L, -1, NULL));
  }
  lua_pop(L, 1);
  return v;
}

/* The edit distance of a and b (insertions, deletions, substitutions and
 * transpositions of neighbours), capped at 99. */
static int edit_distance(const char *a, const char *b) {
  enum { N = 40 };
  int d[N + 1][N + 1], i, j;
  size_t na = strlen(a), nb = strlen(b);
  if (na > N || nb > N)
    return 99;
  for (i = 0; i <= (int)na; i++)
    d[i][0] = i;
  for (j = 0; j <= (int)nb; j++)
    d[0][j] = j;
  for (i = 1; i <= (int)na; i++)
    for (j = 1; j <= (int)nb; j++) {
      int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
      if (d[i - 1][j] + 1 < c)
        c = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < c)
        c = d[i][j - 1] + 1;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
          d[i - 2][j - 2] + 1 < c)
        c = d[i - 2][j - 2] + 1;
      d[i][j] = c;
    }
  return d[na][nb];
}

const char *wll_nearest(const char *key, const char *const keys[]) {
  const char *best = NULL;
  int i, bd = 1 << 30;
  for (i = 0; keys[i] != NULL; i++) {
    int dd = edit_distance(key, keys[i]);
    /* a key that one begins with the other ("shared_mem", "shared") is
     * near whatever the distance */
    size_t n = strlen(keys[i]), m = strlen(key);
    if (strncmp(key, keys[i], n < m ? n : m) == 0)
      dd = dd < 2 ? dd : 2;
    if (dd < bd) {
      bd = dd;
      best = keys[i];
    }
  }
  return best;
}

void wll_checkopts(lua_State *L, int idx, const char *fname,
                   const char *const keys[], int flags) {
  idx = lua_absindex(L, idx);
  if (!lua_istable(L, idx))
    return;
  lua_pushnil(L);
  while (lua_next(L, idx) != 0) {
    int i;
    lua_pop(L, 1);
    if (lua_type(L, -1) == LUA_TSTRING) {
      const char *k = lua_tostring(L, -1), *near;
      for (i = 0; keys[i] != NULL; i++)
        if (strcmp(keys[i], k) == 0)
          break;
      if (keys[i] != NULL)
        continue;
      near = wll_nearest(k, keys);
      if (near != NULL)
        luaL_error(L, "%s: unknown option '%s' (did you mean '%s'?)", fname,
                   k, near);
      luaL_error(L, "%s: unknown option '%s' (it takes none)", fname, k);
    } else if (!(flags & WLL_OPTS_ARRAY) || !lua_isinteger(L, -1)) {
      luaL_error(L, "%s: unexpected %s key in the options (option names "
                    "are strings)",
                 fname, luaL_typename(L, -1));
    }
  }
}

/* The body of wl._checkopts, run protected. */
static int checkopts_body(lua_State *L) {
  const char *keys[65];
  const char *fname = luaL_checkstring(L, 2);
  lua_Integer i, n;
  luaL_checktype(L, 3, LUA_TTABLE);
  n = luaL_len(L, 3);
  luaL_argcheck(L, n < 65, 3, "at most 64 keys");
  for (i = 0; i < n; i++) {
    lua_rawgeti(L, 3, i + 1);
    keys[i] = luaL_checkstring(L, -1); /* anchored by the table */
    lua_pop(L, 1);
  }
  keys[n] = NULL;
  if (!lua_isnoneornil(L, 1)) {
    if (!lua_istable(L, 1))
      return luaL_error(L, "%s: options must be a table, got %s", fname,
                        luaL_typename(L, 1));
    wll_checkopts(L, 1, fname, keys, lua_toboolean(L, 4) ? WLL_OPTS_ARRAY : 0);
  }
  lua_settop(L, 1);
  return 1;
}

/* wl._checkopts(t, fname, {keys...} [, array]): wll_checkopts for the
 * pure-Lua part of the module; returns t.  Its errors name the user's
 * line that called the warplab function (wll_user_where), not the
 * module's own line that called this. */
static int l_checkopts(lua_State *L) {
  lua_settop(L, 4);
  lua_pushcfunction(L, checkopts_body);
  lua_insert(L, 1);
  if (lua_pcall(L, 4, 1, 0) == LUA_OK)
    return 1;
  if (lua_type(L, -1) == LUA_TSTRING) {
    wll_user_where(L);
    lua_insert(L, -2);
    lua_concat(L, 2);
  }
  return lua_error(L);
}

typedef struct sink {
  char *p;
  size_t n;
} sink;

static int sink_write(void *ud, const char *s, size_t n) {
  sink *k = ud;
  if (k->p != NULL)
    memcpy(k->p + k->n, s, n);
  k->n += n;
  return 0;
}

void wll_push_written(lua_State *L, const char *what, wll_writer w,
                      const void *obj, int flag, double secs) {
  sink k = {NULL, 0};
  size_t len;
  int rc = w(obj, flag, secs, sink_write, &k);
  if (rc != 0)
    luaL_error(L, "%s: %s", what, wl_strerror(rc));
  len = k.n;
  k.p = lua_newuserdatauv(L, len ? len : 1, 0);
  k.n = 0;
  rc = w(obj, flag, secs, sink_write, &k);
  if (rc != 0 || k.n != len)
    luaL_error(L, "%s: the text changed between passes", what);
  lua_pushlstring(L, k.p, len);
  lua_remove(L, -2);
}

int wll_curline(lua_State *L) {
  lua_Debug ar;
  int level;
  for (level = 1; lua_getstack(L, level, &ar); level++) {
    if (lua_getinfo(L, "l", &ar) && ar.currentline > 0)
      return ar.currentline;
  }
  return 0;
}

/* Where the innermost Lua function is: its chunk name and line. */
void wll_where(lua_State *L, char *src, size_t n, int *line) {
  lua_Debug ar;
  int level;
  snprintf(src, n, "?");
  *line = 0;
  for (level = 1; lua_getstack(L, level, &ar); level++) {
    if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0) {
      snprintf(src, n, "%s", ar.short_src);
      *line = ar.currentline;
      return;
    }
  }
}

/* lua.c's message handler: a string message gets a traceback; the loop
 * bound's marker passes through untouched. */
int wll_msghandler(lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  if (lua_type(L, 1) == LUA_TLIGHTUSERDATA)
    return 1;
  if (msg == NULL) {
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
      msg = lua_tostring(L, -1);
    else
      msg = lua_pushfstring(L, "(error object is a %s value)",
                            luaL_typename(L, 1));
  }
  luaL_traceback(L, L, msg, 1);
  return 1;
}

/* ------------------------------------------------------------------ */
/* warplab.Test                                                        */
/* ------------------------------------------------------------------ */

static void test_freeengine(wll_test *t) {
  wl_litmus_free(t->lt);
  t->lt = NULL;
  wl_ctx_free(t->ctx);
  t->ctx = NULL;
}

void wll_test_unref(wll_test *t) {
  t->nresults--;
  if (t->closed && t->nresults == 0)
    test_freeengine(t);
}

/* __gc, __close and :close(): the engine objects go when the last result
 * that refers to them goes. */
static int test_close(lua_State *L) {
  wll_test *t = luaL_checkudata(L, 1, WLL_TEST);
  if (t->exploring)
    return luaL_error(L, "cannot close a " WLL_TEST " while it is being "
                         "explored");
  if (!t->closed) {
    t->closed = 1;
    if (t->nresults == 0)
      test_freeengine(t);
  }
  return 0;
}

wll_test *wll_checktest(lua_State *L, int arg) {
  wll_test *t = luaL_checkudata(L, arg, WLL_TEST);
  if (t->closed || t->lt == NULL)
    luaL_error(L, "attempt to use a closed " WLL_TEST);
  return t;
}

void wll_testtable(lua_State *L, int arg) {
  if (lua_getiuservalue(L, arg, 1) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setiuservalue(L, arg < 0 ? arg - 1 : arg, 1);
  }
}

/* Creates an empty Test box (pushed); the engine objects come after the
 * box so that a failure leaks nothing. */
wll_test *wll_test_box(lua_State *L) {
  wll_test *t = lua_newuserdatauv(L, sizeof *t, 1);
  memset(t, 0, sizeof *t);
  t->pred = -1;
  luaL_setmetatable(L, WLL_TEST);
  lua_newtable(L);
  lua_setiuservalue(L, -2, 1);
  if (wl_ctx_new(NULL, &t->ctx) != 0)
    luaL_error(L, "warplab: out of memory");
  return t;
}

static int test_tostring(lua_State *L) {
  wll_test *t = luaL_checkudata(L, 1, WLL_TEST);
  if (t->closed)
    lua_pushstring(L, WLL_TEST " (closed)");
  else
    lua_pushfstring(L, WLL_TEST " %s (%d threads)", wl_litmus_name(t->lt),
                    wl_litmus_nthreads(t->lt));
  return 1;
}

static int test_locations(lua_State *L) {
  wll_test *t = wll_checktest(L, 1);
  int i, n = wl_litmus_nlocations(t->lt);
  lua_createtable(L, n, 0);
  for (i = 0; i < n; i++) {
    lua_pushstring(L, wl_litmus_location_name(t->lt, i));
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

static const char *const test_fields[] = {"name", "nthreads", "shared", NULL};

static int test_index(lua_State *L) {
  wll_test *t;
  const char *k;
  lua_pushvalue(L, 2);
  if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL)
    return 1; /* methods check the test themselves */
  t = wll_checktest(L, 1);
  k = luaL_checkstring(L, 2);
  if (strcmp(k, test_fields[0]) == 0) {
    lua_pushstring(L, wl_litmus_name(t->lt));
  } else if (strcmp(k, test_fields[1]) == 0) {
    lua_pushinteger(L, wl_litmus_nthreads(t->lt));
  } else if (strcmp(k, test_fields[2]) == 0) {
    wll_testtable(L, 1);
    if (lua_getfield(L, -1, "shared") == LUA_TNIL) {
      lua_newtable(L);
    }
  } else {
    lua_pushnil(L);
  }
  return 1;
}

/* ------------------------------------------------------------------ */
/* wl.load(path), wl.parse(text [, filename])                          */
/* ------------------------------------------------------------------ */

static int parse_into(lua_State *L, const char *filename, const char *s,
                      size_t len) {
  wll_test *t = wll_test_box(L);
  int rc = wl_litmus_parse(t->ctx, filename, s, len, &t->lt);
  if (rc != 0) {
    const char *m = wl_ctx_errmsg(t->ctx);
    if (strncmp(m, filename, strlen(filename)) == 0)
      lua_pushstring(L, m);
    else
      lua_pushfstring(L, "%s: %s", filename, m);
    test_freeengine(t);
    t->closed = 1;
    return lua_error(L);
  }
  {
    int i, nt = wl_litmus_nthreads(t->lt);
    for (i = 0; i < nt && i < WLL_MAX_THREADS; i++) {
      t->th[i].test = t;
      t->th[i].index = i;
    }
    t->nthreads = nt;
  }
  return 1;
}

static int l_parse(lua_State *L) {
  size_t len;
  const char *s = luaL_checklstring(L, 1, &len);
  const char *fn = luaL_optstring(L, 2, "(string)");
  return parse_into(L, fn, s, len);
}

/* An OS handle held across Lua calls that may raise (a buffer that grows,
 * a string pushed): its box is made first and closes it when collected,
 * so that it is released "even in case of errors" (lauxlib's
 * luaL_loadfilex, liolib's newprefile). */
#define WLL_HANDLE "warplab.Handle"
typedef struct handle {
  FILE *f;
  DIR *d;
} handle;

static int handle_close(lua_State *L) {
  handle *h = luaL_checkudata(L, 1, WLL_HANDLE);
  if (h->f != NULL)
    fclose(h->f);
  if (h->d != NULL)
    closedir(h->d);
  h->f = NULL;
  h->d = NULL;
  return 0;
}

static handle *handle_box(lua_State *L) {
  handle *h = lua_newuserdatauv(L, sizeof *h, 0);
  h->f = NULL;
  h->d = NULL;
  if (luaL_newmetatable(L, WLL_HANDLE)) {
    lua_pushcfunction(L, handle_close);
    lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, handle_close);
    lua_setfield(L, -2, "__close");
  }
  lua_setmetatable(L, -2);
  return h;
}

static int l_load(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  luaL_Buffer b;
  handle *h;
  size_t got;
  struct stat st;
  lua_settop(L, 1);
  h = handle_box(L); /* 2 */
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    return luaL_error(L, "%s: is a directory (wl.load reads one .litmus "
                         "file; wl.corpus reads a directory)",
                      path);
  h->f = fopen(path, "rb");
  if (h->f == NULL)
    return luaL_error(L, "%s: %s", path, strerror(errno));
  luaL_buffinit(L, &b);
  do {
    char *p = luaL_prepbuffer(&b);
    got = fread(p, 1, LUAL_BUFFERSIZE, h->f);
    luaL_addsize(&b, got);
  } while (got == LUAL_BUFFERSIZE);
  if (ferror(h->f)) {
    int e = errno;
    return luaL_error(L, "%s: read error: %s", path, strerror(e));
  }
  luaL_pushresult(&b);
  lua_pushcfunction(L, handle_close);
  lua_pushvalue(L, 2);
  lua_call(L, 1, 0);
  {
    size_t len;
    const char *s = lua_tolstring(L, -1, &len);
    return parse_into(L, path, s, len);
  }
}

/* wl._listdir(path) -> { {name=, dir=bool}, ... } sorted by name, for
 * the corpus helper.  Raises on an unreadable directory. */
static int l_listdir(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  handle *h;
  struct dirent *e;
  lua_Integer n = 0;
  lua_settop(L, 1);
  h = handle_box(L); /* 2: closes the directory if a push raises */
  lua_newtable(L);
  h->d = opendir(path);
  if (h->d == NULL)
    return luaL_error(L, "%s: %s", path, strerror(errno));
  while ((e = readdir(h->d)) != NULL) {
    struct stat st;
    const char *full;
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    full = lua_pushfstring(L, "%s/%s", path, e->d_name);
    lua_createtable(L, 0, 2);
    lua_pushstring(L, e->d_name);
    lua_setfield(L, -2, "name");
    lua_pushboolean(L, stat(full, &st) == 0 && S_ISDIR(st.st_mode));
    lua_setfield(L, -2, "dir");
    lua_rawseti(L, -3, ++n);
    lua_pop(L, 1);
  }
  closedir(h->d);
  h->d = NULL;
  return 1;
}

/* ------------------------------------------------------------------ */
/* luaopen_warplab                                                     */
/* ------------------------------------------------------------------ */

static const luaL_Reg test_methods[] = {{"explore", wll_test_explore},
                                        {"sample", wll_test_sample},
                                        {"cuda", wll_test_cuda},
                                        {"close", test_close},
                                        {"locations", test_locations},
                                        {NULL, NULL}};

static const luaL_Reg test_meta[] = {{"__gc", test_close},
                                     {"__close", test_close},
                                     {"__tostring", test_tostring},
                                     {NULL, NULL}};

static const luaL_Reg funcs[] = {{"litmus", wll_litmus},
                                 {"load", l_load},
                                 {"parse", l_parse},
                                 {"_listdir", l_listdir},
                                 {"_checkopts", l_checkopts},
                                 {NULL, NULL}};

int luaopen_warplab(lua_State *L) {
  size_t i;
  luaL_newmetatable(L, WLL_TEST);
  luaL_setfuncs(L, test_meta, 0);
  luaL_newlib(L, test_methods);
  lua_pushcclosure(L, test_index, 1);
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1);
  wll_device_open(L);
  wll_result_open(L);
  wll_sample_open(L);
  luaL_newlib(L, funcs);
  lua_pushliteral(L, WL_VERSION);
  lua_setfield(L, -2, "version");
  lua_pushinteger(L, WL_DEFAULT_UNROLL);
  lua_setfield(L, -2, "default_unroll");
  wll_kernel_open(L);
  wll_kruns_open(L);
  wll_perf_open(L);
  wll_model_open(L);
  wll_gen_open(L);
  wll_file_open(L);
  /* the pure-Lua part: each chunk gets the module table */
  for (i = 0; i < wll_nchunks; i++) {
    if (luaL_loadbuffer(L, (const char *)wll_chunks[i].src, wll_chunks[i].len,
                        wll_chunks[i].name) != LUA_OK)
      return lua_error(L);
    lua_pushvalue(L, -2);
    lua_call(L, 1, 0);
  }
  return 1;
}
