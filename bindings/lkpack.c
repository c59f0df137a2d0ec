/* lkpack.c -- a kernel and what it reaches, packed on the script's
 * state into bytes and unpacked into another lua_State (a pool worker's:
 * dev:runs, lkruns.c).  The bytes are made on the script's thread before
 * any worker exists, so a worker reads only plain memory.
 *
 * What crosses (the tags): nil, booleans, numbers, strings; tables
 * without metatables (deep; a table reached twice, or a cycle, is one
 * table there too: 'R' names it by number); Lua functions (string.dump
 * with their debug information, so that errors name the script's file
 * and line; their upvalues packed in turn, and an upvalue two closures
 * share is one shared upvalue there too, 'J', lua_upvaluejoin); the
 * globals table ('G': the other state's own globals, _ENV); the
 * standard library tables and the warplab module, and the functions in
 * them, by name ('L': the other state's own).  Anything else --
 * userdata such as device arrays, coroutines, other C functions, tables
 * with metatables -- is an error naming the path to it ("kernel upvalue
 * 'A' (a device array) cannot cross ...").  Then the script's globals
 * that the other state lacks and that can cross (a global helper the
 * kernel calls); those that cannot are left out. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lkernel.h"

#define PACK_DEPTH 64

/* ------------------------------------------------------------------ */
/* the pack                                                            */
/* ------------------------------------------------------------------ */

/* The bytes, in a userdata box of the script's state (its __gc frees
 * them, so an error while packing leaks nothing). */
typedef struct pk {
  char *p;
  size_t n, cap;
  int nid;   /* tables and functions numbered so far */
  int soft;  /* a value that cannot cross: fail quietly (globals) */
  int fail;  /* (soft) it failed */
  int seen;  /* L's stack: object -> its number */
  int upids; /* L's stack: upvalue (lua_upvalueid) -> number * 256 + n */
  int names; /* L's stack: library table / function -> "lib" "lib\0f" */
} pk;

static int pk_gc(lua_State *L) {
  pk *b = lua_touserdata(L, 1);
  free(b->p);
  b->p = NULL;
  b->n = b->cap = 0;
  return 0;
}

static void put(lua_State *L, pk *b, const void *p, size_t n) {
  if (b->cap - b->n < n) {
    size_t cap = b->cap ? b->cap : 256;
    char *q;
    while (cap - b->n < n)
      cap *= 2;
    if ((q = realloc(b->p, cap)) == NULL)
      luaL_error(L, "dev:runs: out of memory");
    b->p = q;
    b->cap = cap;
  }
  memcpy(b->p + b->n, p, n);
  b->n += n;
}

static void put_tag(lua_State *L, pk *b, char t) { put(L, b, &t, 1); }

static void put_u64(lua_State *L, pk *b, uint64_t v) { put(L, b, &v, 8); }

static void put_str(lua_State *L, pk *b, const char *s, size_t n) {
  put_u64(L, b, n);
  put(L, b, s, n);
}

/* What the value at idx is, in the words of an error message. */
static const char *what_is(lua_State *L, int idx, char *buf, size_t n) {
  switch (lua_type(L, idx)) {
  case LUA_TUSERDATA:
    if (luaL_getmetafield(L, idx, "__name") == LUA_TSTRING) {
      const char *nm = lua_tostring(L, -1);
      snprintf(buf, n, "%s",
               strcmp(nm, WLL_DARRAY) == 0  ? "a device array"
               : strcmp(nm, WLL_KDEV) == 0  ? "a device"
               : strcmp(nm, WLL_LAUNCH) == 0 ? "a launch"
                                             : nm);
      lua_pop(L, 1);
      return buf;
    }
    return "a userdata";
  case LUA_TTHREAD:
    return "a coroutine";
  case LUA_TFUNCTION:
    return "a C function";
  case LUA_TTABLE:
    if (luaL_getmetafield(L, idx, "__name") == LUA_TSTRING) {
      snprintf(buf, n, "a %s", lua_tostring(L, -1));
      lua_pop(L, 1);
      return buf;
    }
    return "a table with a metatable";
  default:
    return luaL_typename(L, idx);
  }
}

/* A value that cannot cross: an error naming its path (or, soft, a
 * quiet failure). */
static void cannot(lua_State *L, pk *b, int idx, const char *path) {
  char buf[80];
  const char *w;
  if (b->soft) {
    b->fail = 1;
    return;
  }
  w = what_is(L, idx, buf, sizeof buf);
  luaL_error(L, "dev:runs: %s (%s) cannot cross to a worker's Lua state; "
                "%s",
             path, w,
             strcmp(w, "a device array") == 0
                 ? "pass it as an argument"
                 : "make it inside the function, or pass plain data as an "
                   "argument");
}

static void pack(lua_State *L, pk *b, int idx, const char *path,
                 int depth);

/* Packs the table at idx (no metatable, not seen before). */
static void pack_table(lua_State *L, pk *b, int idx, const char *path,
                       int depth) {
  char sub[300];
  put_tag(L, b, 'T');
  lua_pushvalue(L, idx);
  lua_pushinteger(L, b->nid++);
  lua_rawset(L, b->seen);
  lua_pushnil(L);
  while (!b->fail && lua_next(L, idx) != 0) {
    if (lua_type(L, -2) == LUA_TSTRING)
      snprintf(sub, sizeof sub, "%s field '%s'", path, lua_tostring(L, -2));
    else if (lua_type(L, -2) == LUA_TNUMBER) {
      lua_pushvalue(L, -2);
      snprintf(sub, sizeof sub, "%s field [%s]", path, lua_tostring(L, -1));
      lua_pop(L, 1);
    } else
      snprintf(sub, sizeof sub, "a key of %s", path);
    pack(L, b, lua_gettop(L) - 1, sub, depth + 1);
    if (!b->fail)
      pack(L, b, lua_gettop(L), sub, depth + 1);
    lua_pop(L, 1);
  }
  if (b->fail)
    lua_pop(L, 1); /* the key lua_next left */
  else
    put_tag(L, b, 'e');
}

/* lua_dump's writer: straight into the pack (non-zero: out of memory,
 * which ends the dump; raising here would unwind through lua_dump). */
static int dump_writer(lua_State *L, const void *p, size_t sz, void *ud) {
  pk *b = ud;
  (void)L;
  if (b->cap - b->n < sz) {
    size_t cap = b->cap ? b->cap : 256;
    char *q;
    while (cap - b->n < sz)
      cap *= 2;
    if ((q = realloc(b->p, cap)) == NULL)
      return 1;
    b->p = q;
    b->cap = cap;
  }
  memcpy(b->p + b->n, p, sz);
  b->n += sz;
  return 0;
}

/* Packs the Lua function at idx (not seen before): its dump (with its
 * debug information: errors name the script's lines), then its
 * upvalues. */
static void pack_function(lua_State *L, pk *b, int idx, const char *path,
                          int depth) {
  char sub[300];
  int u, nups, self;
  size_t at;
  uint64_t len;
  lua_Debug ar;
  put_tag(L, b, 'F');
  at = b->n;
  put_u64(L, b, 0); /* the dump's length, set below */
  lua_pushvalue(L, idx);
  if (lua_dump(L, dump_writer, b, 0) != 0)
    luaL_error(L, "dev:runs: out of memory");
  lua_pop(L, 1);
  len = (uint64_t)(b->n - at - 8);
  memcpy(b->p + at, &len, 8);
  lua_pushvalue(L, idx);
  lua_getinfo(L, ">u", &ar);
  nups = ar.nups;
  put_u64(L, b, (uint64_t)nups);
  if (nups > 255)
    luaL_error(L, "dev:runs: %s has more than 255 upvalues", path);
  self = b->nid++;
  lua_pushvalue(L, idx);
  lua_pushinteger(L, self);
  lua_rawset(L, b->seen);
  for (u = 1; u <= nups && !b->fail; u++) {
    const char *name;
    /* an upvalue shared with a closure packed before: joined to its */
    lua_pushlightuserdata(L, lua_upvalueid(L, idx, u));
    if (lua_rawget(L, b->upids) == LUA_TNUMBER) {
      lua_Integer where = lua_tointeger(L, -1);
      lua_pop(L, 1);
      put_tag(L, b, 'J');
      put_u64(L, b, (uint64_t)(where / 256));
      put_u64(L, b, (uint64_t)(where % 256));
      continue;
    }
    lua_pop(L, 1);
    lua_pushlightuserdata(L, lua_upvalueid(L, idx, u));
    lua_pushinteger(L, (lua_Integer)self * 256 + u);
    lua_rawset(L, b->upids);
    name = lua_getupvalue(L, idx, u);
    if (name == NULL) {
      put_tag(L, b, 'n');
      continue;
    }
    snprintf(sub, sizeof sub, "%s upvalue '%s'", path,
             name[0] ? name : "?");
    pack(L, b, lua_gettop(L), sub, depth + 1);
    lua_pop(L, 1);
  }
}

static void pack(lua_State *L, pk *b, int idx, const char *path,
                 int depth) {
  int t = lua_type(L, idx);
  idx = lua_absindex(L, idx);
  if (b->fail)
    return;
  luaL_checkstack(L, 12, "dev:runs: packing");
  if (depth > PACK_DEPTH) {
    if (b->soft) {
      b->fail = 1;
      return;
    }
    luaL_error(L, "dev:runs: %s is nested more than %d levels deep", path,
               PACK_DEPTH);
  }
  switch (t) {
  case LUA_TNIL:
    put_tag(L, b, 'n');
    return;
  case LUA_TBOOLEAN:
    put_tag(L, b, lua_toboolean(L, idx) ? 't' : 'f');
    return;
  case LUA_TNUMBER:
    if (lua_isinteger(L, idx)) {
      put_tag(L, b, 'i');
      put_u64(L, b, (uint64_t)lua_tointeger(L, idx));
    } else {
      double d = lua_tonumber(L, idx);
      put_tag(L, b, 'd');
      put(L, b, &d, sizeof d);
    }
    return;
  case LUA_TSTRING: {
    size_t n;
    const char *s = lua_tolstring(L, idx, &n);
    put_tag(L, b, 's');
    put_str(L, b, s, n);
    return;
  }
  default:
    break;
  }
  /* the worker's own: globals, libraries, their functions */
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
  if (lua_rawequal(L, idx, -1)) {
    lua_pop(L, 1);
    put_tag(L, b, 'G');
    return;
  }
  lua_pop(L, 1);
  lua_pushvalue(L, idx);
  if (lua_rawget(L, b->names) == LUA_TSTRING) {
    size_t n;
    const char *s = lua_tolstring(L, -1, &n);
    put_tag(L, b, 'L');
    put_str(L, b, s, n);
    lua_pop(L, 1);
    return;
  }
  lua_pop(L, 1);
  /* seen before: the same object again (shared, or a cycle) */
  lua_pushvalue(L, idx);
  if (lua_rawget(L, b->seen) == LUA_TNUMBER) {
    put_tag(L, b, 'R');
    put_u64(L, b, (uint64_t)lua_tointeger(L, -1));
    lua_pop(L, 1);
    return;
  }
  lua_pop(L, 1);
  if (t == LUA_TTABLE && !lua_getmetatable(L, idx))
    pack_table(L, b, idx, path, depth);
  else if (t == LUA_TFUNCTION && !lua_iscfunction(L, idx))
    pack_function(L, b, idx, path, depth);
  else {
    if (t == LUA_TTABLE)
      lua_pop(L, 1); /* its metatable */
    cannot(L, b, idx, path);
  }
}

/* Fills the names table (at L's index names): each standard library
 * and the module by its name, the functions in them by "lib\0name"
 * (in _G only its C functions: the script's own global functions are
 * not the worker's). */
static void build_names(lua_State *L, int names) {
  static const char *const libs[] = {
      "warplab", "string",  "table", "math",  "utf8",
      "coroutine", "os",    "io",    "debug", "package",
      "_G",      NULL};
  int i;
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  for (i = 0; libs[i] != NULL; i++) {
    if (lua_getfield(L, -1, libs[i]) != LUA_TTABLE) {
      lua_pop(L, 1);
      continue;
    }
    if (strcmp(libs[i], "_G") != 0) {
      lua_pushvalue(L, -1);
      lua_pushstring(L, libs[i]);
      lua_rawset(L, names);
    }
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
      if (lua_type(L, -2) == LUA_TSTRING &&
          lua_type(L, -1) == LUA_TFUNCTION &&
          (strcmp(libs[i], "_G") != 0 || lua_iscfunction(L, -1))) {
        lua_pushvalue(L, -1);
        if (lua_rawget(L, names) == LUA_TNIL) {
          size_t n;
          const char *k = lua_tolstring(L, -3, &n);
          luaL_Buffer B;
          lua_pop(L, 1);
          lua_pushvalue(L, -1);
          luaL_buffinit(L, &B);
          luaL_addstring(&B, libs[i]);
          luaL_addchar(&B, '\0');
          luaL_addlstring(&B, k, n);
          luaL_pushresult(&B);
          lua_rawset(L, names);
        } else
          lua_pop(L, 1);
      }
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

/* Packs the script's globals that are not the worker's own anyway into
 * a table, leaving out those that cannot cross. */
static void pack_globals(lua_State *L, pk *b) {
  int g;
  put_tag(L, b, 'T');
  b->nid++;
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
  g = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, g) != 0) {
    if (lua_type(L, -2) == LUA_TSTRING && lua_type(L, -1) != LUA_TNUMBER &&
        lua_type(L, -1) != LUA_TSTRING && lua_type(L, -1) != LUA_TBOOLEAN) {
      /* tables and functions: unless named (the worker has them) */
      lua_pushvalue(L, -1);
      if (lua_rawget(L, b->names) != LUA_TNIL) {
        lua_pop(L, 2);
        continue;
      }
      lua_pop(L, 1);
    }
    if (lua_type(L, -2) == LUA_TSTRING) {
      size_t n0 = b->n;
      int id0 = b->nid;
      b->soft = 1;
      b->fail = 0;
      pack(L, b, g + 1, "a global", 0);
      if (!b->fail)
        pack(L, b, g + 2, "a global", 0);
      if (b->fail) { /* undone: the bytes and the numbers given */
        b->n = n0;
        b->nid = id0;
        lua_pushnil(L);
        while (lua_next(L, b->seen) != 0) {
          if (lua_tointeger(L, -1) >= id0) {
            lua_pushvalue(L, -2);
            lua_pushnil(L);
            lua_rawset(L, b->seen);
          }
          lua_pop(L, 1);
        }
        lua_pushnil(L);
        while (lua_next(L, b->upids) != 0) {
          if (lua_tointeger(L, -1) / 256 >= id0) {
            lua_pushvalue(L, -2);
            lua_pushnil(L);
            lua_rawset(L, b->upids);
          }
          lua_pop(L, 1);
        }
      }
      b->soft = b->fail = 0;
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  put_tag(L, b, 'e');
}

/* ------------------------------------------------------------------ */
/* unpacking, in a worker's state                                      */
/* ------------------------------------------------------------------ */

typedef struct upk {
  const char *p;
  size_t n, at;
  int nid;
  int ids; /* W's stack: number -> object */
} upk;

static const char *take(lua_State *W, upk *u, size_t n) {
  const char *s;
  if (u->n - u->at < n)
    luaL_error(W, "dev:runs: a damaged pack");
  s = u->p + u->at;
  u->at += n;
  return s;
}

static uint64_t take_u64(lua_State *W, upk *u) {
  uint64_t v;
  memcpy(&v, take(W, u, 8), 8);
  return v;
}

/* Pushes the next value of the pack onto W. */
static void unpack(lua_State *W, upk *u, int depth) {
  char t = *take(W, u, 1);
  uint64_t n;
  const char *s;
  luaL_checkstack(W, 8, "dev:runs: unpacking");
  if (depth > PACK_DEPTH + 2)
    luaL_error(W, "dev:runs: a damaged pack");
  switch (t) {
  case 'n':
    lua_pushnil(W);
    break;
  case 't':
  case 'f':
    lua_pushboolean(W, t == 't');
    break;
  case 'i':
    lua_pushinteger(W, (lua_Integer)take_u64(W, u));
    break;
  case 'd': {
    double d;
    memcpy(&d, take(W, u, sizeof d), sizeof d);
    lua_pushnumber(W, d);
    break;
  }
  case 's':
    n = take_u64(W, u);
    s = take(W, u, n);
    lua_pushlstring(W, s, n);
    break;
  case 'G':
    lua_rawgeti(W, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    break;
  case 'L': {
    size_t k;
    n = take_u64(W, u);
    s = take(W, u, n);
    for (k = 0; k < n && s[k] != '\0'; k++)
      ;
    luaL_getsubtable(W, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_pushlstring(W, s, k);
    lua_rawget(W, -2);
    if (k < n) {
      lua_pushlstring(W, s + k + 1, n - k - 1);
      lua_rawget(W, -2);
      lua_remove(W, -2);
    }
    lua_remove(W, -2);
    break;
  }
  case 'R':
    n = take_u64(W, u);
    if (n >= (uint64_t)u->nid)
      luaL_error(W, "dev:runs: a damaged pack");
    lua_rawgeti(W, u->ids, (lua_Integer)n + 1);
    break;
  case 'T': {
    int tab;
    lua_newtable(W);
    tab = lua_gettop(W);
    lua_pushvalue(W, tab);
    lua_rawseti(W, u->ids, ++u->nid);
    while (u->at < u->n && u->p[u->at] != 'e') {
      unpack(W, u, depth + 1);
      unpack(W, u, depth + 1);
      if (lua_isnil(W, -2))
        luaL_error(W, "dev:runs: a damaged pack");
      lua_rawset(W, tab);
    }
    take(W, u, 1); /* 'e' */
    break;
  }
  case 'F': {
    int fn;
    uint64_t k, nups;
    n = take_u64(W, u);
    s = take(W, u, n);
    if (luaL_loadbufferx(W, s, n, "=(kernel)", "b") != LUA_OK)
      lua_error(W);
    fn = lua_gettop(W);
    lua_pushvalue(W, fn);
    lua_rawseti(W, u->ids, ++u->nid);
    nups = take_u64(W, u);
    for (k = 1; k <= nups; k++) {
      if (u->at < u->n && u->p[u->at] == 'J') {
        uint64_t f, at;
        take(W, u, 1);
        f = take_u64(W, u);
        at = take_u64(W, u);
        if (f >= (uint64_t)u->nid || at < 1 || at > 255)
          luaL_error(W, "dev:runs: a damaged pack");
        lua_rawgeti(W, u->ids, (lua_Integer)f + 1);
        if (!lua_isfunction(W, -1) || lua_iscfunction(W, -1) ||
            lua_getupvalue(W, -1, (int)at) == NULL ||
            lua_getupvalue(W, fn, (int)k) == NULL)
          luaL_error(W, "dev:runs: a damaged pack");
        lua_pop(W, 2);
        lua_upvaluejoin(W, fn, (int)k, -1, (int)at);
        lua_pop(W, 1);
        continue;
      }
      unpack(W, u, depth + 1);
      if (lua_setupvalue(W, fn, (int)k) == NULL)
        lua_pop(W, 1);
    }
    break;
  }
  default:
    luaL_error(W, "dev:runs: a damaged pack");
  }
}


/* ------------------------------------------------------------------ */
/* the two ends                                                        */
/* ------------------------------------------------------------------ */

void wll_kpack(lua_State *L, const int *idx, const char *const *paths,
               int n, const char **bytes, size_t *len) {
  pk *b;
  int k, top;
  luaL_checkstack(L, 20, "dev:runs: packing");
  b = lua_newuserdatauv(L, sizeof *b, 0);
  memset(b, 0, sizeof *b);
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, pk_gc);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  top = lua_gettop(L);
  lua_newtable(L);
  b->seen = top + 1;
  lua_newtable(L);
  b->names = top + 2;
  lua_newtable(L);
  b->upids = top + 3;
  build_names(L, b->names);
  for (k = 0; k < n; k++)
    pack(L, b, idx[k], paths[k], 0);
  pack_globals(L, b);
  lua_settop(L, top);
  *bytes = b->p;
  *len = b->n;
}

void wll_kunpack(lua_State *W, const char *bytes, size_t len, int n) {
  upk u;
  int k, ids;
  luaL_checkstack(W, n + 20, "dev:runs: unpacking");
  lua_newtable(W);
  ids = lua_gettop(W);
  memset(&u, 0, sizeof u);
  u.p = bytes;
  u.n = len;
  u.ids = ids;
  for (k = 0; k <= n; k++) /* n values, then the globals' table */
    unpack(W, &u, 0);
  if (u.at != u.n)
    luaL_error(W, "dev:runs: a damaged pack");
  lua_remove(W, ids);
}
