/* lkruns.c -- one kernel run many times across cores: the C half of
 * dev:runs (scripts/warplab/kernel.lua has the other half and its
 * documentation).  Issue 24, item 4: "a Lua kernel is loaded into each
 * worker's own lua_State; a kernel that captures what cannot cross
 * states gets a clear error naming the upvalue".
 *
 * The kernel, the output function and the run's description (device,
 * launch options, arguments) are packed on the script's state into
 * bytes (the pack below), before any worker exists; each worker of the
 * pool (lpool.h) makes its own lua_State, opens the standard libraries
 * and the warplab module, and unpacks them there.  A run is one unit:
 * wl._kernel_run_one (kernel.lua) builds a fresh device, launches with
 * the run's seed and returns the outcome's key; the keys come back to
 * the calling thread in run order and are counted there.  A run's seed
 * is a function of (seed, run index) alone, so the histogram is the
 * same for any jobs.
 *
 * What crosses (the pack's tags): nil, booleans, numbers, strings;
 * tables without metatables (deep, shared and cyclic ones kept so);
 * Lua functions (string.dump with their debug information, so that
 * errors name the script's file and line, and their upvalues packed in
 * turn); the globals table (the worker's own globals: _ENV); the
 * standard library tables and the warplab module, and the functions in
 * them, by name (the worker's own).  Anything else -- userdata such as
 * device arrays, coroutines, other C functions, tables with metatables
 * -- is an error naming the path to it ("kernel upvalue 'A' (a device
 * array) ...").  The script's globals that the worker lacks go across
 * when they can (a global helper function the kernel calls); the ones
 * that cannot are left out.  A deliberate simplification: closures that
 * shared an upvalue get copies of its value, not one shared variable
 * (each run is a fresh device and a fresh launch: nothing a run writes
 * to a Lua variable is meant to outlive it). */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lualib.h>

#include "lkernel.h"
#include "lpool.h"
#include "lsched.h"

int luaopen_warplab(lua_State *L);

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

static void pack(lua_State *L, pk *b, int idx, const char *path, int depth);

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
  int u, nups;
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
  lua_pushvalue(L, idx);
  lua_pushinteger(L, b->nid++);
  lua_rawset(L, b->seen);
  for (u = 1; u <= nups && !b->fail; u++) {
    const char *name = lua_getupvalue(L, idx, u);
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
/* the runs on the pool                                                */
/* ------------------------------------------------------------------ */

/* The outcomes counted, in order of first appearance (an open hash of
 * their indices). */
typedef struct counts {
  char **keys;
  size_t *len;
  uint64_t *count;
  size_t n, cap;
  size_t *slot; /* hash: index + 1, 0 empty; nslot a power of 2 */
  size_t nslot;
} counts;

/* The job, shared read-only by the workers while the pool runs. */
typedef struct job {
  const char *pack;
  size_t npack;
  uint64_t seed;
  counts c;
  char *err; /* the first run that failed, its message */
  size_t err_run;
  char werr[300]; /* why a worker's state could not be made */
} job;

/* One outcome back from a worker. */
typedef struct outk {
  int failed;
  size_t len;
  char s[]; /* the key, or the failure's message */
} outk;

static uint64_t hash(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  size_t k;
  for (k = 0; k < n; k++)
    h = (h ^ (unsigned char)s[k]) * 1099511628211ull;
  return h;
}

static int grow(counts *c) {
  size_t k, ns = c->nslot ? c->nslot * 2 : 64, *slot;
  if (c->n == c->cap) {
    size_t cap = c->cap ? c->cap * 2 : 32;
    char **keys = realloc(c->keys, cap * sizeof *keys);
    size_t *len;
    uint64_t *count;
    if (keys == NULL)
      return -1;
    c->keys = keys;
    if ((len = realloc(c->len, cap * sizeof *len)) == NULL)
      return -1;
    c->len = len;
    if ((count = realloc(c->count, cap * sizeof *count)) == NULL)
      return -1;
    c->count = count;
    c->cap = cap;
  }
  if ((c->n + 1) * 2 <= c->nslot)
    return 0;
  if ((slot = calloc(ns, sizeof *slot)) == NULL)
    return -1;
  for (k = 0; k < c->n; k++) {
    size_t h = (size_t)hash(c->keys[k], c->len[k]) & (ns - 1);
    while (slot[h] != 0)
      h = (h + 1) & (ns - 1);
    slot[h] = k + 1;
  }
  free(c->slot);
  c->slot = slot;
  c->nslot = ns;
  return 0;
}

/* Counts one outcome; -1: out of memory. */
static int count_key(counts *c, const char *s, size_t n) {
  size_t h;
  char *k;
  if (grow(c) != 0)
    return -1;
  h = (size_t)hash(s, n) & (c->nslot - 1);
  while (c->slot[h] != 0) {
    size_t i = c->slot[h] - 1;
    if (c->len[i] == n && memcmp(c->keys[i], s, n) == 0) {
      c->count[i]++;
      return 0;
    }
    h = (h + 1) & (c->nslot - 1);
  }
  if ((k = malloc(n + 1)) == NULL)
    return -1;
  memcpy(k, s, n);
  k[n] = '\0';
  c->keys[c->n] = k;
  c->len[c->n] = n;
  c->count[c->n] = 1;
  c->slot[h] = ++c->n;
  return 0;
}

static void counts_free(counts *c) {
  size_t k;
  for (k = 0; k < c->n; k++)
    free(c->keys[k]);
  free(c->keys);
  free(c->len);
  free(c->count);
  free(c->slot);
  memset(c, 0, sizeof *c);
}

/* Run i's launch seed: splitmix64 of (seed, i), a function of the two
 * alone (so of no worker and no timing), in the launch seed's range. */
static uint64_t run_seed(uint64_t seed, uint64_t i) {
  uint64_t z = seed + (i + 1) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return z & 0x7fffffffffffffffull;
}

/* A worker's state: 1 wl._kernel_run_one, 2 the kernel, 3 the output
 * function, 4 the run's description (built by worker_build in
 * protected mode). */
static int worker_build(lua_State *W) {
  job *j = lua_touserdata(W, 1);
  upk u;
  int ids;
  lua_settop(W, 0);
  luaL_openlibs(W);
  luaL_requiref(W, "warplab", luaopen_warplab, 0);
  lua_pop(W, 1);
  lua_newtable(W);
  ids = lua_gettop(W);
  memset(&u, 0, sizeof u);
  u.p = j->pack;
  u.n = j->npack;
  u.ids = ids;
  unpack(W, &u, 0); /* the kernel */
  unpack(W, &u, 0); /* the output function */
  unpack(W, &u, 0); /* the job */
  unpack(W, &u, 0); /* the script's globals */
  /* the globals the worker lacks */
  lua_rawgeti(W, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
  lua_pushnil(W);
  while (lua_next(W, -3) != 0) {
    lua_pushvalue(W, -2);
    if (lua_rawget(W, -4) == LUA_TNIL) {
      lua_pop(W, 1);
      lua_pushvalue(W, -2);
      lua_insert(W, -2);
      lua_rawset(W, -4);
    } else
      lua_pop(W, 2);
  }
  lua_pop(W, 2);
  luaL_getsubtable(W, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  lua_getfield(W, -1, "warplab");
  lua_getfield(W, -1, "_kernel_run_one");
  lua_replace(W, ids); /* 1: the ids are done with */
  lua_settop(W, 4);
  return 4;
}

static int worker_new(void *ud, wl_ctx *ctx, void **worker) {
  lua_State *W = luaL_newstate();
  (void)ctx;
  *worker = NULL;
  if (W == NULL)
    return -1;
  lua_pushcfunction(W, worker_build);
  lua_pushlightuserdata(W, ud);
  if (lua_pcall(W, 1, 4, 0) != LUA_OK || !lua_isfunction(W, 1)) {
    job *j = ud;
    if (j->werr[0] == '\0')
      snprintf(j->werr, sizeof j->werr, "%s",
               lua_isstring(W, -1) ? lua_tostring(W, -1)
                                   : "no wl._kernel_run_one");
    lua_close(W);
    return -1;
  }
  *worker = W;
  return 0;
}

static void worker_free(void *ud, void *worker) {
  (void)ud;
  lua_close(worker);
}

static outk *new_out(int failed, const char *s, size_t n) {
  outk *o = malloc(sizeof *o + n + 1);
  if (o == NULL)
    return NULL;
  o->failed = failed;
  o->len = n;
  memcpy(o->s, s, n);
  o->s[n] = '\0';
  return o;
}

/* Run `unit` on the worker's state (a pool thread). */
static int run_unit(void *ud, size_t unit, wl_ctx *ctx, void *worker,
                    void *stop_ud, void **out) {
  job *j = ud;
  lua_State *W = worker;
  int rc;
  size_t n;
  const char *s;
  (void)ctx;
  *out = NULL;
  if (wll_pool_should_stop(stop_ud))
    return WLL_UNIT_STOPPED;
  lua_settop(W, 4);
  lua_pushvalue(W, 1);
  lua_pushvalue(W, 2);
  lua_pushvalue(W, 3);
  lua_pushvalue(W, 4);
  lua_pushinteger(W, (lua_Integer)run_seed(j->seed, unit));
  rc = lua_pcall(W, 4, 1, 0);
  if (rc != LUA_OK && lua_type(W, -1) == LUA_TSTRING) {
    /* a launch that SIGINT/SIGTERM ended took the signal to report it
     * (lklaunch.c): it is put back, so that the whole run stops and
     * dev:runs reports it */
    s = lua_tostring(W, -1);
    if (strstr(s, "interrupted by SIGINT") != NULL)
      wll_sig_put_back(SIGINT);
    else if (strstr(s, "interrupted by SIGTERM") != NULL)
      wll_sig_put_back(SIGTERM);
  }
  if (rc != LUA_OK && wll_pool_should_stop(stop_ud)) {
    lua_settop(W, 4);
    return WLL_UNIT_STOPPED;
  }
  s = lua_tolstring(W, -1, &n);
  if (s == NULL) {
    s = rc != LUA_OK ? "(an error object that is not a string)"
                     : "(the outcome is not a string)";
    n = strlen(s);
    rc = rc != LUA_OK ? rc : LUA_ERRRUN;
  }
  *out = new_out(rc != LUA_OK, s, n);
  lua_settop(W, 4);
  /* each run made a device: let it go before the next */
  lua_gc(W, LUA_GCCOLLECT);
  return WLL_UNIT_DONE;
}

static int emit_unit(void *ud, size_t unit, void *p, int stopped) {
  job *j = ud;
  outk *o = p;
  int rc = 0;
  (void)stopped;
  if (o == NULL) {
    if (!stopped && j->err == NULL)
      j->err = strdup("out of memory"), j->err_run = unit;
    return stopped ? 0 : 1;
  }
  if (o->failed) {
    if (j->err == NULL) {
      j->err = strdup(o->s);
      j->err_run = unit;
    }
    rc = 1;
  } else if (count_key(&j->c, o->s, o->len) != 0) {
    if (j->err == NULL)
      j->err = strdup("out of memory"), j->err_run = unit;
    rc = 1;
  }
  free(o);
  return rc;
}

static void drop_unit(void *ud, size_t unit, void *p) {
  (void)ud;
  (void)unit;
  free(p);
}

/* The job's box on the script's state: frees the counts and the error
 * whatever happens. */
static int job_gc(lua_State *L) {
  job *j = lua_touserdata(L, 1);
  counts_free(&j->c);
  free(j->err);
  j->err = NULL;
  return 0;
}

/* wl._kernel_runs(kernel_fn, out_fn|nil, job, n, seed, jobs, progress)
 * -> {outcomes = {{outcome =, count =}...} in order of first appearance,
 * runs =, workers =, partial =, signal =, note =}.  Raises on a
 * value that cannot cross, and on a run that failed ("run I: ..."). */
static int l_kernel_runs(lua_State *L) {
  lua_Integer n = luaL_checkinteger(L, 4);
  lua_Integer seed = luaL_checkinteger(L, 5);
  int jobs = (int)luaL_checkinteger(L, 6);
  int progress = lua_toboolean(L, 7);
  pk *b;
  job *j;
  int top;
  wll_pool_opts po;
  wll_pool_fns fns;
  wll_pool_result res;
  char note[300], perr[300];
  int rc, sig;
  size_t k;
  luaL_checktype(L, 1, LUA_TFUNCTION);
  luaL_checktype(L, 3, LUA_TTABLE);
  if (n < 0)
    return luaL_error(L, "dev:runs: n must be a non-negative integer");
  if (jobs < 0 || jobs > 1024)
    return luaL_error(L, "dev:runs: jobs must be an integer from 1 to 1024");
  if (jobs == 0) /* the default: the CPUs this process may use */
    jobs = wll_pool_default_jobs((size_t)n);
  lua_settop(L, 7);
  b = lua_newuserdatauv(L, sizeof *b, 0); /* 8 */
  memset(b, 0, sizeof *b);
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, pk_gc);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  lua_newtable(L); /* 9: seen */
  lua_newtable(L); /* 10: names */
  b->seen = 9;
  b->names = 10;
  build_names(L, 10);
  if (lua_iscfunction(L, 1))
    cannot(L, b, 1, "the kernel");
  pack(L, b, 1, "kernel", 0);
  pack(L, b, 2, "out function", 0);
  pack(L, b, 3, "dev:runs's run", 0);
  pack_globals(L, b);
  j = lua_newuserdatauv(L, sizeof *j, 0); /* 11 */
  memset(j, 0, sizeof *j);
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, job_gc);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  j->pack = b->p;
  j->npack = b->n;
  j->seed = (uint64_t)seed;
  luaL_checkstack(L, 20, "dev:runs");
  top = lua_gettop(L);
  memset(&po, 0, sizeof po);
  po.jobs = jobs;
  po.progress = progress;
  po.what = "dev:runs";
  po.units = "runs";
  memset(&fns, 0, sizeof fns);
  fns.worker_new = worker_new;
  fns.worker_free = worker_free;
  fns.run = run_unit;
  fns.emit = emit_unit;
  fns.drop = drop_unit;
  /* from here to the pool's return nothing raises on L */
  rc = wll_pool_run((size_t)n, &po, &fns, j, &res, note, sizeof note, perr,
                    sizeof perr);
  if (rc != 0)
    return luaL_error(L, "dev:runs: %s", j->werr[0] ? j->werr
                                         : perr[0] ? perr
                                                   : wl_strerror(rc));
  if (j->err != NULL) {
    sig = wll_sig_take();
    lua_pushfstring(L, "dev:runs: run %I: %s", (lua_Integer)j->err_run,
                    j->err);
    if (sig != 0)
      wll_sig_put_back(sig);
    return lua_error(L);
  }
  lua_settop(L, top);
  lua_createtable(L, 0, 6);
  lua_createtable(L, (int)(j->c.n < 1000000 ? j->c.n : 0), 0);
  {
    uint64_t runs = 0;
    for (k = 0; k < j->c.n; k++) {
      lua_createtable(L, 0, 2);
      lua_pushlstring(L, j->c.keys[k], j->c.len[k]);
      lua_setfield(L, -2, "outcome");
      lua_pushinteger(L, (lua_Integer)j->c.count[k]);
      lua_setfield(L, -2, "count");
      lua_rawseti(L, -2, (lua_Integer)k + 1);
      runs += j->c.count[k];
    }
    lua_setfield(L, -2, "outcomes");
    lua_pushinteger(L, (lua_Integer)runs);
    lua_setfield(L, -2, "runs");
  }
  lua_pushinteger(L, res.workers > 0 ? res.workers : 1);
  lua_setfield(L, -2, "workers");
  lua_pushboolean(L, res.stop != WLL_STOP_NONE);
  lua_setfield(L, -2, "partial");
  sig = wll_sig_take();
  if (sig != 0) {
    lua_pushstring(L, wll_sig_name(sig));
    lua_setfield(L, -2, "signal");
  }
  if (note[0]) {
    lua_pushstring(L, note);
    lua_setfield(L, -2, "note");
  }
  return 1;
}

/* wl._device_array(v) -> nil when v is no device array, else whether
 * it is a whole allocation (not a view into one). */
static int l_device_array(lua_State *L) {
  darray *a = luaL_testudata(L, 1, WLL_DARRAY);
  if (a == NULL)
    lua_pushnil(L);
  else
    lua_pushboolean(L, a->base == 0 && a->lo == 0 && a->hi == a->len);
  return 1;
}

void wll_kruns_open(lua_State *L) {
  lua_pushcfunction(L, l_kernel_runs);
  lua_setfield(L, -2, "_kernel_runs");
  lua_pushcfunction(L, l_device_array);
  lua_setfield(L, -2, "_device_array");
}
