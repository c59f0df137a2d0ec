/* lksplit.c -- dev:launch{jobs = N}: one launch's blocks across cores
 * (issue 24, item 4), the C half (engine/sim/split.c has the engine's
 * and the semantics; scripts/warplab/kernel.lua documents the option).
 *
 * The grid is cut into parts by block: part k of P runs the blocks b
 * with b % P == k, where P = min(blocks, SMs) -- a function of the
 * launch and the device alone, never of jobs -- so a part is the blocks
 * the hardware's round-robin would give one SM.  The kernel, the
 * launch's options and its arguments are packed on the script's state
 * (lkpack.c: device arrays as the allocation and view they name), and
 * each worker of the pool (lpool.h) gets its own lua_State and its own
 * copy of the device (wl_device_clone, made on this thread before any
 * part runs).  A part unpacks fresh copies, launches with _part/_parts
 * (lklaunch.c keeps the launch, tracking what it touches), and its copy
 * of the device is put back for the next part (wl_device_restore).
 *
 * The parts come back in part order.  When no part touched what
 * another wrote, the device takes their writes and L2 lookups in part
 * order and the report is the parts' joined counters, steps and
 * findings; else wll_launch_split returns 0 and the launch runs whole,
 * on the script's state, as without jobs (its report says why).  What a
 * kernel prints (print, io.write) on a worker is kept per part and
 * printed in part order after a join.  Everything a part does is a
 * function of the launch, the device and the part's index: the report
 * and the memory are the same for any jobs. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdatomic.h>

#include "lkernel.h"
#include "lmempool.h"
#include "lpool.h"
#include "lsched.h"

/* A part's outcome, back from its worker. */
typedef struct partout {
  wl_launch *l;   /* the part's launch (its worker's copy), or NULL */
  int failed;     /* the part raised */
  int changed;    /* the kernel changed a Lua value it reaches */
  char *msg;      /* its message (malloc'ed) */
  char *printed;  /* what the kernel printed (malloc'ed), nprinted bytes */
  size_t nprinted;
  char shname[WLL_PROBE_DECLS][40];
} partout;

/* A worker: its state and its copy of the device (a kdev in the state,
 * anchored in the registry). */
typedef struct worker {
  lua_State *W;   /* NULL until worker_start made it */
  int ready;      /* readied for the job (worker_start) */
  char err[300];  /* why worker_start failed */
  kdev *dev;
  struct job *job;
  size_t part; /* the part it runs */
  struct worker *next; /* the job's list of workers to close */
} worker;

typedef struct job {
  _Atomic(wl_launch *) *finished; /* by part: its launch once it ran */
  const char *pack;
  size_t npack;
  kdev *dev;      /* the script's device: read by the workers' copies */
  int parts;
  partout **outs; /* by part, once emitted */
  worker *done;   /* workers the pool let go, back to the cache after
                   * the join */
  struct wcache *cache;
  char werr[300];
} job;

/* registry keys of a worker's state */
static const char dev_key = 0;   /* its device copy */
static const char print_key = 0; /* the table of what it printed */
static const char prep_key = 0;  /* its launch, prepared (prepare) */

/* print and io.write on a worker: appended to the registry's table */
static int captured_write(lua_State *W, int first, int tabs) {
  int n = lua_gettop(W), i;
  luaL_Buffer b;
  lua_rawgetp(W, LUA_REGISTRYINDEX, &print_key);
  luaL_buffinit(W, &b);
  for (i = first; i <= n; i++) {
    if (tabs && i > first)
      luaL_addchar(&b, '\t');
    luaL_tolstring(W, i, NULL);
    luaL_addvalue(&b);
  }
  if (tabs)
    luaL_addchar(&b, '\n');
  luaL_pushresult(&b);
  lua_rawseti(W, n + 1, (lua_Integer)luaL_len(W, n + 1) + 1);
  return 0;
}

static int captured_print(lua_State *W) { return captured_write(W, 1, 1); }

static int captured_iowrite(lua_State *W) {
  captured_write(W, 1, 0);
  lua_getglobal(W, "io");
  lua_getfield(W, -1, "stdout");
  return 1;
}

/* Puts the capture in place of print and io.write (the globals). */
static void capture_prints(lua_State *W) {
  lua_pushcfunction(W, captured_print);
  lua_setglobal(W, "print");
  if (lua_getglobal(W, "io") == LUA_TTABLE) {
    lua_pushcfunction(W, captured_iowrite);
    lua_setfield(W, -2, "write");
  }
  lua_pop(W, 1);
}

/* A running part stops once it touched what a finished part wrote (or
 * wrote what one read): the parts communicated, so the join will run
 * the launch whole whatever the rest of this part does -- a part that
 * polls a flag another part sets would otherwise poll to its time
 * bound.  Which finished parts it sees depends on timing; the join's
 * verdict does not (it compares every pair). */
static int part_stop(void *ud, const wl_launch *self) {
  worker *w = ud;
  job *j = w->job;
  int k;
  for (k = 0; k < j->parts; k++) {
    const wl_launch *o;
    if ((size_t)k == w->part)
      continue;
    o = atomic_load_explicit(&j->finished[k], memory_order_acquire);
    if (o != NULL && wl_launch_overlaps(self, o))
      return 1;
  }
  return 0;
}

/* Idle workers, kept between launches in the script's state's registry
 * (a state with the module loaded costs milliseconds to make): a launch
 * takes them back with a fresh copy of its device (worker_new). */
static const char cache_key = 0;
#define CACHE_MAX 64
typedef struct wcache {
  worker *idle;
  int n;
} wcache;

static void worker_close(worker *w) {
  if (w->W != NULL)
    wll_closestate(w->W);
  free(w);
}

static int cache_gc(lua_State *L) {
  wcache *c = lua_touserdata(L, 1);
  while (c->idle != NULL) {
    worker *w = c->idle;
    c->idle = w->next;
    worker_close(w);
  }
  c->n = 0;
  return 0;
}

static const char iowrite_key = 0; /* io.write as the library made it */

/* Makes a worker's state (protected mode): lkworker.c's, and io.write
 * kept (capture_prints replaces it). */
static int worker_build(lua_State *W) {
  wll_worker_build(W);
  lua_getglobal(W, "io");
  lua_getfield(W, -1, "write");
  lua_rawsetp(W, LUA_REGISTRYINDEX, &iowrite_key);
  lua_pop(W, 1);
  return 0;
}

/* Readies a worker for a launch (protected mode; 1: the job): the
 * globals as when it was made, a fresh copy of the job's device, nothing
 * of an earlier launch (its prepared kernel, what it printed). */
static int worker_ready(lua_State *W) {
  job *j = lua_touserdata(W, 1);
  kdev *k;
  wl_ctx *ctx;
  lua_settop(W, 0);
  wll_worker_reset(W);
  if (lua_getglobal(W, "io") == LUA_TTABLE) { /* capture_prints' change */
    lua_rawgetp(W, LUA_REGISTRYINDEX, &iowrite_key);
    lua_setfield(W, -2, "write");
  }
  lua_settop(W, 0);
  lua_pushnil(W);
  lua_rawsetp(W, LUA_REGISTRYINDEX, &prep_key);
  lua_newtable(W);
  lua_rawsetp(W, LUA_REGISTRYINDEX, &print_key);
  k = lua_newuserdatauv(W, sizeof *k, 0);
  memset(k, 0, sizeof *k);
  luaL_setmetatable(W, WLL_KDEV); /* its __gc frees the copy and ctx */
  if (lua_rawgetp(W, LUA_REGISTRYINDEX, &dev_key) == LUA_TUSERDATA) {
    /* an earlier launch's copy: made the device's copy again where it
     * differs (a large device is not copied whole at every launch), and
     * moved to the new handle (what still points at the old one -- that
     * launch's arrays -- is garbage, and finds it closed) */
    kdev *old = lua_touserdata(W, -1);
    if (old->d != NULL && wl_device_sync(old->d, j->dev->d) == 0) {
      k->d = old->d;
      k->ctx = old->ctx;
      old->d = NULL;
      old->ctx = NULL;
    }
    if (old->d != NULL)
      wl_device_free(old->d);
    if (old->ctx != NULL)
      wl_ctx_free(old->ctx);
    old->d = NULL;
    old->ctx = NULL;
  }
  lua_pop(W, 1);
  if (k->d == NULL) {
    if (wl_ctx_new(NULL, &ctx) != 0)
      return luaL_error(W, "out of memory");
    k->ctx = ctx;
    if (wl_device_clone(ctx, j->dev->d, &k->d) != 0)
      return luaL_error(W, "%s", wl_ctx_errmsg(ctx));
  }
  k->cache_pref = j->dev->cache_pref;
  lua_rawsetp(W, LUA_REGISTRYINDEX, &dev_key);
  return 0;
}

/* A slot's worker: an idle one of the cache, or a new one; its state is
 * made (or readied) by worker_start, on the slot's own pool thread. */
static int worker_new(void *ud, wl_ctx *ctx, void **out) {
  job *j = ud;
  worker *w;
  (void)ctx;
  *out = NULL;
  if (j->cache->idle != NULL) {
    w = j->cache->idle;
    j->cache->idle = w->next;
    j->cache->n--;
  } else if ((w = calloc(1, sizeof *w)) == NULL) {
    return -1;
  }
  w->job = j;
  w->next = NULL;
  w->ready = 0;
  w->dev = NULL;
  *out = w;
  return 0;
}

/* Makes the worker's state if it has none, and readies it for the job
 * (on the slot's pool thread: states apart, the device only read).
 * NULL, or why it could not. */
static const char *worker_start(worker *w) {
  const char *err = NULL;
  if (w->W == NULL) {
    if ((w->W = wll_newstate()) == NULL)
      return "out of memory";
    lua_pushcfunction(w->W, worker_build);
    if (lua_pcall(w->W, 0, 0, 0) != LUA_OK)
      err = "a worker's Lua state could not be made";
  }
  if (err == NULL) {
    lua_pushcfunction(w->W, worker_ready);
    lua_pushlightuserdata(w->W, w->job);
    if (lua_pcall(w->W, 1, 0, 0) != LUA_OK)
      err = lua_isstring(w->W, -1) ? lua_tostring(w->W, -1)
                                   : "a worker could not be readied";
  }
  if (err != NULL) {
    snprintf(w->err, sizeof w->err, "launch: %s", err);
    wll_closestate(w->W);
    w->W = NULL;
    return w->err;
  }
  lua_rawgetp(w->W, LUA_REGISTRYINDEX, &dev_key);
  w->dev = lua_touserdata(w->W, -1);
  lua_pop(w->W, 1);
  w->ready = 1;
  return NULL;
}

/* The pool is done with a worker: its state (and device copy, which the
 * parts' launches point into) lives on until the join. */
static void worker_free(void *ud, void *p) {
  job *j = ud;
  worker *w = p;
  w->next = j->done;
  j->done = w;
}

/* The integer field key of the table at idx. */
static lua_Integer int_field(lua_State *W, int idx, const char *key) {
  lua_Integer v;
  lua_getfield(W, idx, key);
  v = lua_tointeger(W, -1);
  lua_pop(W, 1);
  return v;
}

/* Pushes argument idx (a descriptor table {_darray = id, ...} or a
 * value) as the worker's: device arrays over its copy. */
static void rebuild_arg(lua_State *W, kdev *dev, int idx) {
  darray *a;
  int isarr;
  if (lua_type(W, idx) != LUA_TTABLE) {
    lua_pushvalue(W, idx);
    return;
  }
  isarr = lua_getfield(W, idx, "_darray") != LUA_TNIL;
  lua_pop(W, 1);
  if (!isarr) {
    lua_pushvalue(W, idx);
    return;
  }
  lua_getfield(W, idx, "name");
  a = wll_newarr(W, dev, (int)int_field(W, idx, "_darray"),
                 (int)int_field(W, idx, "space"),
                 (int)int_field(W, idx, "type"), int_field(W, idx, "len"),
                 lua_tostring(W, -1));
  lua_remove(W, -2); /* the name */
  a->base = (uint64_t)int_field(W, idx, "base");
  a->lo = int_field(W, idx, "lo");
  a->hi = int_field(W, idx, "hi");
}

/* The bytes of a pack repack left (its box at idx). */
static const char *packed_bytes(lua_State *W, int idx, size_t *n) {
  const char **p = lua_touserdata(W, idx);
  *n = (size_t)(uintptr_t)p[1];
  return p[0];
}

/* repack(kernel) -> a userdata {bytes, length} over a pack of it (the
 * pack's own box kept as its user value); raises as wll_kpack does. */
static int repack(lua_State *W) {
  static const char *const path[] = {"kernel"};
  const int idx[] = {1};
  const char *bytes;
  size_t n;
  const char **p;
  lua_settop(W, 1);
  wll_kpack(W, idx, path, 1, &bytes, &n); /* 2: its box */
  p = lua_newuserdatauv(W, 2 * sizeof *p, 1);
  p[0] = bytes;
  p[1] = (const char *)(uintptr_t)n;
  lua_pushvalue(W, 2);
  lua_setiuservalue(W, -2, 1);
  return 1;
}

/* The worker's launch, made at its first part (protected mode, on the
 * worker's state; 1: the job, 2: the worker): the pack unpacked once
 * (the kernel, the options, the arguments rebuilt over the copy, the
 * script's globals installed) and what the kernel reaches packed, in
 * the registry's prep table {kernel, cfg, args, n, before}.  Later parts
 * on the worker reuse them: a part that changed any of them makes the
 * join run the launch whole, so an unchanged one is as fresh. */
static void prepare(lua_State *W, job *j, worker *w) {
  int g, nargs, i, prep;
  lua_rawgeti(W, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
  g = lua_gettop(W);
  wll_kunpack(W, j->pack, j->npack, 3); /* g+1 kernel, g+2 cfg, g+3 args,
                                         * g+4 the script's globals */
  wll_worker_globals(W, g + 4);
  lua_settop(W, g + 3);
  capture_prints(W);
  lua_createtable(W, 0, 5);
  prep = lua_gettop(W);
  lua_pushvalue(W, g + 1);
  lua_setfield(W, prep, "kernel");
  lua_pushvalue(W, g + 2);
  lua_setfield(W, prep, "cfg");
  nargs = (int)luaL_len(W, g + 3);
  lua_pushinteger(W, nargs);
  lua_setfield(W, prep, "n");
  lua_createtable(W, nargs, 0);
  for (i = 1; i <= nargs; i++) {
    lua_rawgeti(W, g + 3, i);
    rebuild_arg(W, w->dev, lua_gettop(W));
    lua_rawseti(W, -3, i);
    lua_pop(W, 1);
  }
  lua_setfield(W, prep, "args");
  lua_pushcfunction(W, repack);
  lua_pushvalue(W, g + 1);
  lua_call(W, 1, 1);
  lua_setfield(W, prep, "before");
  lua_rawsetp(W, LUA_REGISTRYINDEX, &prep_key);
  lua_settop(W, 0);
}

/* One part (protected mode, on the worker's state; 1: the job, 2: the
 * worker, 3: the part) -> whether the kernel changed what it reaches. */
static int run_part(lua_State *W) {
  job *j = lua_touserdata(W, 1);
  worker *w = lua_touserdata(W, 2);
  lua_Integer part = lua_tointeger(W, 3);
  int prep, nargs, i, base;
  const char *before, *after;
  size_t nb, na;
  lua_settop(W, 0);
  if (lua_rawgetp(W, LUA_REGISTRYINDEX, &prep_key) != LUA_TTABLE) {
    lua_pop(W, 1);
    prepare(W, j, w);
    lua_rawgetp(W, LUA_REGISTRYINDEX, &prep_key);
  }
  prep = lua_gettop(W);
  lua_getfield(W, prep, "cfg");
  lua_pushinteger(W, part);
  lua_setfield(W, -2, "_part");
  lua_pushinteger(W, j->parts);
  lua_setfield(W, -2, "_parts");
  lua_pop(W, 1);
  luaL_getsubtable(W, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  lua_getfield(W, -1, "warplab");
  lua_getfield(W, -1, "_kernel_run_part"); /* (dev, kernel, cfg, args...) */
  base = lua_gettop(W);
  lua_rawgetp(W, LUA_REGISTRYINDEX, &dev_key);
  lua_getfield(W, prep, "kernel");
  lua_getfield(W, prep, "cfg");
  lua_getfield(W, prep, "n");
  nargs = (int)lua_tointeger(W, -1);
  lua_pop(W, 1);
  luaL_checkstack(W, nargs + 8, "dev:launch");
  lua_getfield(W, prep, "args");
  for (i = 1; i <= nargs; i++)
    lua_rawgeti(W, base + 4, i);
  lua_remove(W, base + 4);
  lua_call(W, lua_gettop(W) - base, 0);
  /* what the kernel reaches, against the pack made before the first
   * part: a kernel that changed a value it captured, or a global, did
   * what a part run apart cannot hand back (the join runs the launch
   * whole) */
  lua_getfield(W, prep, "before");
  before = packed_bytes(W, -1, &nb);
  lua_pushcfunction(W, repack);
  lua_getfield(W, prep, "kernel");
  if (lua_pcall(W, 1, 1, 0) != LUA_OK) {
    lua_pushboolean(W, 1);
    return 1;
  }
  after = packed_bytes(W, -1, &na);
  lua_pushboolean(W, na != nb || memcmp(before, after, nb) != 0);
  return 1;
}

/* Takes what the worker printed in the last part (and empties it). */
static void take_printed(lua_State *W, partout *o) {
  size_t n;
  const char *s;
  lua_rawgetp(W, LUA_REGISTRYINDEX, &print_key);
  if (luaL_len(W, -1) > 0) {
    lua_getglobal(W, "table");
    lua_getfield(W, -1, "concat");
    lua_pushvalue(W, -3);
    if (lua_pcall(W, 1, 1, 0) == LUA_OK &&
        (s = lua_tolstring(W, -1, &n)) != NULL &&
        (o->printed = malloc(n ? n : 1)) != NULL) {
      memcpy(o->printed, s, n);
      o->nprinted = n;
    }
    lua_settop(W, 0);
    lua_newtable(W);
    lua_rawsetp(W, LUA_REGISTRYINDEX, &print_key);
  }
  lua_settop(W, 0);
}

static void part_free(partout *o) {
  if (o == NULL)
    return;
  wl_launch_free(o->l);
  free(o->msg);
  free(o->printed);
  free(o);
}

/* Part `unit` on the worker's state (a pool thread). */
static int run_unit(void *ud, size_t unit, wl_ctx *ctx, void *p,
                    void *stop_ud, void **out) {
  job *j = ud;
  worker *w = p;
  lua_State *W;
  wll_kstate *ks;
  partout *o;
  int rc;
  const char *err;
  (void)ctx;
  *out = NULL;
  if (wll_pool_should_stop(stop_ud))
    return WLL_UNIT_STOPPED;
  if ((o = calloc(1, sizeof *o)) == NULL)
    return WLL_UNIT_DONE; /* NULL: out of memory, said by emit */
  if (!w->ready && (err = worker_start(w)) != NULL) {
    o->failed = 1;
    o->msg = strdup(err);
    *out = o;
    return WLL_UNIT_DONE;
  }
  W = w->W;
  lua_rawgetp(W, LUA_REGISTRYINDEX, &wll_kstate_key);
  ks = lua_touserdata(W, -1);
  lua_settop(W, 0);
  ks->kept = NULL;
  w->part = unit;
  ks->part_stop = part_stop;
  ks->part_stop_ud = w;
  lua_pushcfunction(W, run_part);
  lua_pushlightuserdata(W, j);
  lua_pushlightuserdata(W, w);
  lua_pushinteger(W, (lua_Integer)unit);
  rc = lua_pcall(W, 3, 1, 0);
  o->changed = rc == LUA_OK && lua_toboolean(W, -1);
  o->l = ks->kept;
  ks->kept = NULL;
  if (o->l != NULL)
    memcpy(o->shname, ks->kept_shname, sizeof o->shname);
  if (rc != LUA_OK) {
    const char *s = lua_tostring(W, -1);
    /* a part launch leaves a signal pending (lklaunch.c); one that
     * something on the worker took to report it is put back, so that
     * the whole launch stops and the script's thread reports it */
    wll_sig_put_back(wll_sig_in(s));
    o->failed = 1;
    o->msg = strdup(s != NULL ? s : "(an error object that is not a "
                                    "string)");
  }
  take_printed(W, o);
  /* the copy is the device again for the next part */
  if (o->l != NULL && wl_device_restore(w->dev->d, j->dev->d, o->l) != 0 &&
      !o->failed) {
    o->failed = 1;
    free(o->msg);
    o->msg = strdup(wl_ctx_errmsg(w->dev->ctx));
  }
  if (rc != LUA_OK && wll_pool_should_stop(stop_ud)) {
    part_free(o); /* never published: no part looks at it */
    return WLL_UNIT_STOPPED;
  }
  if (o->l != NULL) /* the parts still running may stop for it */
    atomic_store_explicit(&j->finished[unit], o->l, memory_order_release);
  *out = o;
  return WLL_UNIT_DONE;
}

static int emit_unit(void *ud, size_t unit, void *p, int stopped) {
  job *j = ud;
  if (p == NULL)
    return 1; /* out of memory or stopped: the caller says which */
  (void)stopped;
  j->outs[unit] = p;
  return 0;
}

static void drop_unit(void *ud, size_t unit, void *p) {
  (void)ud;
  (void)unit;
  part_free(p);
}

/* Frees the parts and hands the workers back to the cache (parts first:
 * their launches point into the workers' devices); again does nothing. */
static void job_finish(job *j) {
  int k;
  if (j->outs != NULL)
    for (k = 0; k < j->parts; k++)
      part_free(j->outs[k]);
  free(j->outs);
  j->outs = NULL;
  free((void *)j->finished);
  j->finished = NULL;
  while (j->done != NULL) {
    worker *w = j->done;
    j->done = w->next;
    if (j->cache != NULL && j->cache->n < CACHE_MAX && w->W != NULL) {
      w->next = j->cache->idle;
      j->cache->idle = w;
      j->cache->n++;
    } else {
      worker_close(w);
    }
  }
}

/* The job's box on the script's state: job_finish whatever happens. */
static int job_gc(lua_State *L) {
  job_finish(lua_touserdata(L, 1));
  return 0;
}

void wll_push_split(lua_State *L, int parts, const char *why) {
  lua_createtable(L, 0, 3);
  lua_pushinteger(L, parts);
  lua_setfield(L, -2, "parts");
  lua_pushboolean(L, why == NULL);
  lua_setfield(L, -2, "joined");
  if (why != NULL) {
    lua_pushstring(L, why);
    lua_setfield(L, -2, "why");
  }
}

/* Pushes the descriptor of argument at idx: a device array as {_darray
 * = id, space, type, len, base, lo, hi, name}; anything else as it is
 * (lkpack.c says what can cross). */
static void push_desc(lua_State *L, int idx, int argno) {
  darray *a = luaL_testudata(L, idx, WLL_DARRAY);
  if (a == NULL) {
    lua_pushvalue(L, idx);
    return;
  }
  if (a->dev == NULL)
    luaL_error(L, "launch: argument %d is a %s array of a launch; only "
                  "device memory goes to a kernel",
               argno, a->space == WL_SPACE_SHARED ? "shared" : "local");
  lua_createtable(L, 0, 8);
  lua_pushinteger(L, a->id);
  lua_setfield(L, -2, "_darray");
  lua_pushinteger(L, a->space);
  lua_setfield(L, -2, "space");
  lua_pushinteger(L, a->type);
  lua_setfield(L, -2, "type");
  lua_pushinteger(L, a->len);
  lua_setfield(L, -2, "len");
  lua_pushinteger(L, (lua_Integer)a->base);
  lua_setfield(L, -2, "base");
  lua_pushinteger(L, a->lo);
  lua_setfield(L, -2, "lo");
  lua_pushinteger(L, a->hi);
  lua_setfield(L, -2, "hi");
  lua_pushstring(L, a->name);
  lua_setfield(L, -2, "name");
}

/* The kernel at idx as it crosses: its function, or for wl.kernel's
 * tables {fn =, name =, static_shared =, regs =, cache =, mode =}
 * without the metatable. */
static void push_kernel(lua_State *L, int idx) {
  static const char *const keys[] = {"fn",   "name",  "static_shared",
                                     "regs", "cache", "mode", NULL};
  int i;
  if (lua_type(L, idx) == LUA_TFUNCTION && !lua_iscfunction(L, idx)) {
    lua_pushvalue(L, idx);
    return;
  }
  if (lua_type(L, idx) != LUA_TTABLE ||
      lua_getfield(L, idx, "fn") != LUA_TFUNCTION)
    luaL_error(L, "dev:launch: a kernel (wl.kernel(fn) or a Lua function) "
                  "expected, got %s", luaL_typename(L, idx));
  lua_pop(L, 1);
  lua_createtable(L, 0, 6);
  for (i = 0; keys[i]; i++) {
    lua_getfield(L, idx, keys[i]);
    lua_setfield(L, -2, keys[i]);
  }
}

/* wll_kpack of the kernel, the options and the arguments (1-3), run
 * protected; 4: where the bytes go.  -> the pack's box. */
typedef struct packed {
  const char *bytes;
  size_t n;
} packed;

/* 1 when the launch is to run whole because of how its parts ended,
 * with why: a part's kernel failed (out of bounds, a divergent barrier,
 * its steps past max_steps...), or the parts' steps together passed
 * max_steps.  Without jobs, the launch's first failure is a matter of
 * its whole schedule, and its bound counts every part's steps: run
 * whole, it fails as it does without jobs.  A signal or the time bound
 * (max_seconds) is reported as the part saw it: running whole would
 * take as long again. */
static int part_fault(const job *j, wl_launch *const *ls, int parts,
                      char *why, size_t whylen) {
  uint64_t steps = 0;
  int k;
  for (k = 0; k < parts; k++) {
    const char *m = j->outs[k]->msg;
    if (!j->outs[k]->failed)
      continue;
    if (m != NULL && (strstr(m, "interrupted by SIG") != NULL ||
                      strstr(m, "past its time bound") != NULL))
      return 0;
  }
  for (k = 0; k < parts; k++)
    if (j->outs[k]->failed) {
      snprintf(why, whylen, "part %d of %d stopped with an error, which "
                            "the launch run whole reports", k, parts);
      return 1;
    }
  for (k = 0; k < parts; k++)
    steps += wl_launch_steps(ls[k]);
  if (steps > wl_launch_max_steps(ls[0])) {
    snprintf(why, whylen, "the parts took %llu steps together, past "
                          "max_steps (%llu)", (unsigned long long)steps,
             (unsigned long long)wl_launch_max_steps(ls[0]));
    return 1;
  }
  return 0;
}

static int pack_p(lua_State *L) {
  static const char *const paths[] = {"kernel", "launch options",
                                      "launch arguments"};
  const int idx[] = {1, 2, 3};
  packed *p = lua_touserdata(L, 4);
  wll_kpack(L, idx, paths, 3, &p->bytes, &p->n);
  return 1;
}

int wll_launch_split(lua_State *L, kdev *d, const wl_launch_cfg *cfg,
                     int jobs, int *parts, char *why, size_t whylen,
                     int *as_is) {
  int nargs = lua_gettop(L) - 3, i, k, top, rc, nblocks = 1;
  const char *bytes;
  size_t nbytes;
  job *j;
  wll_pool_opts po;
  wll_pool_fns fns;
  wll_pool_result res;
  char note[300], perr[300];
  wl_launch **ls;
  wcache *cache;
  const int sms = wl_device_config(d->d)->sms;
  for (i = 0; i < 3; i++)
    nblocks *= cfg->grid[i] > 0 ? cfg->grid[i] : 1;
  *parts = nblocks < sms ? nblocks : sms;
  if (lua_type(L, 2) == LUA_TTABLE)
    lua_getfield(L, 2, "fn");
  else
    lua_pushvalue(L, 2);
  i = lua_iscfunction(L, -1);
  lua_pop(L, 1);
  if (i) { /* the launch checked it is a kernel */
    snprintf(why, whylen, "the kernel is a C function, which cannot cross "
                          "to a worker's Lua state");
    return 0;
  }
  /* the pack: the kernel, the options (less jobs), the arguments */
  push_kernel(L, 2);
  lua_createtable(L, 0, 8);
  lua_pushnil(L);
  while (lua_next(L, 3) != 0) {
    if (lua_type(L, -2) == LUA_TSTRING &&
        strcmp(lua_tostring(L, -2), "jobs") == 0) {
      lua_pop(L, 1);
      continue;
    }
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, -4);
  }
  /* one time bound for the launch, however its parts are dealt: a part
   * ends by the launch's deadline, not max_seconds after it began */
  lua_pushnumber(L, wll_now() + wll_launch_max_seconds(L, 3));
  lua_setfield(L, -2, "_deadline");
  lua_createtable(L, nargs, 0);
  for (i = 0; i < nargs; i++) {
    push_desc(L, 4 + i, i + 1);
    lua_rawseti(L, -2, i + 1);
  }
  top = lua_gettop(L);
  {
    /* what cannot cross (an upvalue that is a device array, a C
     * function of no library...) keeps the launch whole, with a note */
    packed pk;
    lua_pushcfunction(L, pack_p);
    lua_insert(L, top - 2);
    lua_pushlightuserdata(L, &pk);
    if (lua_pcall(L, 4, 1, 0) != LUA_OK) {
      const char *m = lua_tostring(L, -1);
      /* a signal that came while the pack ran (the script's hook raised
       * it, taking it) is the launch's interruption, not a kernel that
       * cannot cross: run whole, it ran on for minutes */
      if (wll_sig_in(m) != 0)
        return lua_error(L);
      if (m == NULL)
        m = "the kernel cannot cross to a worker's Lua state";
      if (strncmp(m, "dev:runs: ", 10) == 0) /* lkpack.c's own prefix */
        m += 10;
      snprintf(why, whylen, "%s", m);
      lua_settop(L, nargs + 3);
      return 0;
    }
    bytes = pk.bytes;
    nbytes = pk.n;
  }
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &cache_key) != LUA_TUSERDATA) {
    lua_pop(L, 1);
    memset(lua_newuserdatauv(L, sizeof(wcache), 0), 0, sizeof(wcache));
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, cache_gc);
    lua_setfield(L, -2, "__gc");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &cache_key);
  }
  cache = lua_touserdata(L, -1);
  lua_pop(L, 1); /* anchored in the registry */
  j = lua_newuserdatauv(L, sizeof *j, 0);
  memset(j, 0, sizeof *j);
  j->cache = cache;
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, job_gc);
  lua_setfield(L, -2, "__gc");
  lua_setmetatable(L, -2);
  j->pack = bytes;
  j->npack = nbytes;
  j->dev = d;
  j->parts = *parts;
  if ((j->outs = calloc((size_t)*parts, sizeof *j->outs)) == NULL ||
      (j->finished = calloc((size_t)*parts, sizeof *j->finished)) == NULL)
    return luaL_error(L, "launch: out of memory");
  for (k = 0; k < *parts; k++)
    atomic_init(&j->finished[k], NULL);
  /* the workers copy the device on their own threads: what a copy needs
   * of it is made first (its L2), so that they only read it */
  if (wl_device_prepare_clones(d->d) != 0)
    return luaL_error(L, "launch: %s", wl_ctx_errmsg(d->ctx));
  memset(&po, 0, sizeof po);
  po.jobs = jobs < *parts ? jobs : *parts;
  po.what = "dev:launch";
  po.units = "parts";
  memset(&fns, 0, sizeof fns);
  fns.worker_new = worker_new;
  fns.worker_free = worker_free;
  fns.run = run_unit;
  fns.emit = emit_unit;
  fns.drop = drop_unit;
  /* from here to the pool's return nothing raises on L */
  rc = wll_pool_run((size_t)*parts, &po, &fns, j, &res, note, sizeof note,
                    perr, sizeof perr);
  if (rc != 0)
    return luaL_error(L, "launch: %s", j->werr[0] ? j->werr
                                       : perr[0]  ? perr
                                                  : wl_strerror(rc));
  if (res.emitted < (size_t)*parts) {
    /* stopped by a signal, which this error reports (taken, as the
     * launch without jobs takes it: a pcall that catches the error goes
     * on) */
    int sig = wll_sig_take();
    if (sig != 0)
      return luaL_error(L, "the launch was interrupted by %s",
                        wll_sig_name(sig));
    return luaL_error(L, "launch: out of memory");
  }
  /* did the parts communicate?  (failed ones too: what they touched
   * before they stopped counts) */
  if ((ls = lua_newuserdatauv(L, sizeof *ls * (size_t)*parts, 0)) == NULL)
    return luaL_error(L, "launch: out of memory");
  for (k = 0; k < *parts; k++) {
    if (j->outs[k]->l == NULL) /* failed before its launch ran */
      return luaL_error(L, "%s", j->outs[k]->msg);
    ls[k] = j->outs[k]->l;
  }
  rc = 0;
  for (k = 0; k < *parts && rc == 0; k++)
    if (j->outs[k]->changed) {
      snprintf(why, whylen, "the kernel changed a Lua value it reaches "
                            "(an upvalue, a table or a global) in part %d "
                            "of %d", k, *parts);
      rc = 1;
    }
  if (rc == 0)
    rc = wl_launch_conflicts(ls, *parts, why, whylen);
  if (rc == 0)
    rc = part_fault(j, ls, *parts, why, whylen);
  if (rc < 0)
    return luaL_error(L, "launch: out of memory joining the parts");
  if (rc == 1) { /* the caller runs the launch whole */
    job_finish(j);
    lua_settop(L, nargs + 3);
    return 0;
  }
  for (k = 0; k < *parts; k++)
    if (j->outs[k]->failed) {
      wll_sig_take(); /* a signal that stopped it is reported by it */
      *as_is = 1;     /* it names its place and thread */
      lua_pushstring(L, j->outs[k]->msg);
      return lua_error(L);
    }
  /* the join: the device takes each part's writes, in part order */
  for (k = 0; k < *parts; k++)
    if (wl_device_apply(d->d, ls[k]) != 0 ||
        (k > 0 && wl_launch_merge(ls[0], ls[k]) != 0))
      return luaL_error(L, "launch: %s", wl_ctx_errmsg(d->ctx));
  for (k = 0; k < *parts; k++)
    if (j->outs[k]->nprinted > 0) {
      fwrite(j->outs[k]->printed, 1, j->outs[k]->nprinted, stdout);
    }
  {
    krun *r = lua_newuserdatauv(L, sizeof *r, 0);
    lua_Debug ar;
    char src[LUA_IDSIZE + 1];
    memset(r, 0, sizeof *r);
    memcpy(r->shname, j->outs[0]->shname, sizeof r->shname);
    lua_pushvalue(L, 2);
    if (lua_type(L, -1) == LUA_TTABLE) {
      lua_getfield(L, -1, "fn");
      lua_remove(L, -2);
    }
    if (lua_isfunction(L, -1)) {
      lua_getinfo(L, ">S", &ar);
      snprintf(src, sizeof src, "%s", ar.short_src);
    } else {
      lua_pop(L, 1);
      snprintf(src, sizeof src, "kernel");
    }
    if (wll_launch_report(L, ls[0], r, src, cfg->check,
                          wl_device_config(d->d)) != LUA_OK)
      return lua_error(L);
  }
  wll_push_split(L, *parts, NULL);
  lua_setfield(L, -2, "split");
  job_finish(j);
  return 1;
}
