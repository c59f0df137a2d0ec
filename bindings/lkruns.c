/* lkruns.c -- one kernel run many times across cores: the C half of
 * dev:runs (scripts/warplab/kernel.lua has the other half and its
 * documentation).  Issue 24, item 4: "a Lua kernel is loaded into each
 * worker's own lua_State; a kernel that captures what cannot cross
 * states gets a clear error naming the upvalue".
 *
 * The kernel, the output function and the run's description (device,
 * launch options, arguments) are packed on the script's state into
 * bytes (lkpack.c) before any worker exists.  Each worker of the pool
 * (lpool.h) makes its own lua_State with the standard libraries and the
 * warplab module.  A run is one unit: on its worker's state it unpacks
 * fresh copies of the kernel, out and the description (so that nothing
 * a run leaves in an upvalue, a table or a global it made reaches the
 * next run there: the globals are put back to what the worker had plus
 * the script's), then wl._kernel_run_one (kernel.lua) builds a fresh
 * device, launches with the run's seed and returns the outcome's key.
 * The keys come back to the calling thread in run order and are counted
 * there.  A run's seed is a function of (seed, run index) alone, so the
 * histogram is the same for any jobs. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lkernel.h"
#include "lmempool.h"
#include "lpool.h"
#include "lsched.h"


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

/* Makes a worker's state (protected mode): 1 wl._kernel_run_one. */
static int worker_build(lua_State *W) {
  wll_worker_build(W);
  luaL_getsubtable(W, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  lua_getfield(W, -1, "warplab");
  lua_getfield(W, -1, "_kernel_run_one");
  lua_replace(W, 1);
  lua_settop(W, 1);
  return 1;
}

/* One run (protected mode, on the worker's state; 1: the job, 2: the
 * seed): the globals put back, fresh copies unpacked, the run made. */
static int run_one(lua_State *W) {
  job *j = lua_touserdata(W, 1);
  lua_Integer seed = lua_tointeger(W, 2);
  int g;
  lua_settop(W, 0);
  wll_worker_reset(W); /* the globals a run made go */
  lua_rawgeti(W, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
  g = lua_gettop(W);
  wll_kunpack(W, j->pack, j->npack, 3); /* g+1..g+3, g+4: globals */
  wll_worker_globals(W, g + 4);
  lua_settop(W, g + 3);
  luaL_getsubtable(W, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  lua_getfield(W, -1, "warplab");
  lua_getfield(W, -1, "_kernel_run_one");
  lua_pushvalue(W, g + 1);
  lua_pushvalue(W, g + 2);
  lua_pushvalue(W, g + 3);
  lua_pushinteger(W, seed);
  lua_call(W, 4, 1);
  return 1;
}

static int worker_new(void *ud, wl_ctx *ctx, void **worker) {
  lua_State *W = wll_newstate(); /* lmempool.c */
  (void)ctx;
  *worker = NULL;
  if (W == NULL)
    return -1;
  lua_pushcfunction(W, worker_build);
  if (lua_pcall(W, 0, 1, 0) != LUA_OK || !lua_isfunction(W, 1)) {
    job *j = ud;
    if (j->werr[0] == '\0')
      snprintf(j->werr, sizeof j->werr, "%s",
               lua_isstring(W, -1) ? lua_tostring(W, -1)
                                   : "no wl._kernel_run_one");
    wll_closestate(W);
    return -1;
  }
  *worker = W;
  return 0;
}

static void worker_free(void *ud, void *worker) {
  (void)ud;
  wll_closestate(worker);
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
  lua_settop(W, 0);
  lua_pushcfunction(W, run_one);
  lua_pushlightuserdata(W, j);
  lua_pushinteger(W, (lua_Integer)run_seed(j->seed, unit));
  rc = lua_pcall(W, 2, 1, 0);
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
    lua_settop(W, 0);
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
  lua_settop(W, 0);
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
  const char *bytes;
  size_t nbytes;
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
  if (lua_iscfunction(L, 1))
    return luaL_error(L, "dev:runs: the kernel is a C function; a Lua "
                         "function expected");
  {
    static const int idx[] = {1, 2, 3};
    static const char *const paths[] = {"kernel", "out function",
                                        "dev:runs's run"};
    wll_kpack(L, idx, paths, 3, &bytes, &nbytes); /* 8: their box */
  }
  j = lua_newuserdatauv(L, sizeof *j, 0); /* 9 */
  memset(j, 0, sizeof *j);
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, job_gc);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  j->pack = bytes;
  j->npack = nbytes;
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
