/* lklaunch.c -- dev:launch(k, cfg, args...) and dev:occupancy{...}: the
 * launch options, the kernel's parameters (grid-constant copies), and the
 * launch's result: occupancy, counters per source line, the report and
 * the checkers' findings. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lkernel.h"

const char *const wll_pref_words[] = {"none", "prefer_shared", "prefer_l1",
                                      "prefer_equal", NULL};

static const char *const launch_keys[] = {
    "grid",  "block",   "shared", "regs",          "seed",
    "max_steps", "slice", "profile", "cache", "static_shared",
    "max_seconds", "check", "schedule", "defer", "jobs", "_plain", "_part",
    "_parts", "_deadline", NULL};
/* The time bound of a launch with options at idx: max_seconds, else
 * WLL_MAX_SECONDS (30 times that under WARPLAB_MEMCHECK). */
double wll_launch_max_seconds(lua_State *L, int idx) {
  double secs = WLL_MAX_SECONDS;
  if (getenv("WARPLAB_MEMCHECK") != NULL) /* tests/check.sh: valgrind */
    secs *= 30;
  if (lua_getfield(L, idx, "max_seconds") != LUA_TNIL) {
    int isnum;
    secs = lua_tonumberx(L, -1, &isnum);
    if (!isnum || !(secs > 0))
      luaL_error(L, "launch: option 'max_seconds' must be a positive "
                    "number of seconds");
  }
  lua_pop(L, 1);
  return secs;
}

static const char *const schedule_words[] = {"independent", "lockstep",
                                             "random", NULL};
static const char *const occupancy_keys[] = {
    "block", "shared", "static_shared", "regs", "cache", NULL};

int wll_check_flags(lua_State *L, int idx) {
  static const char *const words[] = {"races", "uninit", "spin", NULL};
  int flags = 0, i;
  idx = lua_absindex(L, idx);
  switch (lua_type(L, idx)) {
  case LUA_TNIL:
    return 0;
  case LUA_TBOOLEAN:
    return lua_toboolean(L, idx) ? WL_CHECK_ALL : 0;
  case LUA_TSTRING: {
    const char *p = lua_tostring(L, idx);
    if (strcmp(p, "all") == 0)
      return WL_CHECK_ALL;
    while (*p) {
      size_t n = strcspn(p, ", ");
      for (i = 0; words[i] && !(strlen(words[i]) == n &&
                                strncmp(words[i], p, n) == 0);
           i++)
        ;
      if (n > 0 && words[i] == NULL) {
        lua_pushlstring(L, p, n);
        return luaL_error(L, "check: unknown checker '%s' (races, uninit, "
                             "spin, all)",
                          lua_tostring(L, -1));
      }
      if (n > 0)
        flags |= 1 << i;
      p += n;
      p += strspn(p, ", ");
    }
    return flags;
  }
  case LUA_TTABLE:
    for (i = 0; words[i]; i++) {
      if (lua_getfield(L, idx, words[i]) != LUA_TNIL && lua_toboolean(L, -1))
        flags |= 1 << i;
      lua_pop(L, 1);
    }
    lua_pushnil(L);
    while (lua_next(L, idx)) {
      lua_pop(L, 1);
      for (i = 0; words[i] && !(lua_type(L, -1) == LUA_TSTRING &&
                                strcmp(lua_tostring(L, -1), words[i]) == 0);
           i++)
        ;
      if (words[i] == NULL) {
        lua_pop(L, 1);
        return luaL_error(L, "check: unknown checker (races, uninit, spin)");
      }
    }
    return flags;
  default:
    return luaL_error(L, "check: true, false, a list like \"races,uninit\" "
                         "or a table {races = true, ...} expected, got %s",
                      luaL_typename(L, idx));
  }
}

/* Pushes the function of kernel argument k: wl.kernel(...) and
 * wl.warp_kernel(...) tables or plain functions; returns 1 for a
 * warp-vector kernel (mode = "warp"). */
static int kernel_fn(lua_State *L, int k) {
  int warp;
  if (lua_type(L, k) == LUA_TFUNCTION) {
    lua_pushvalue(L, k);
    return 0;
  }
  if (lua_type(L, k) == LUA_TTABLE) {
    lua_getfield(L, k, "mode");
    warp = lua_type(L, -1) == LUA_TSTRING &&
           strcmp(lua_tostring(L, -1), "warp") == 0;
    lua_pop(L, 1);
    if (lua_getfield(L, k, "fn") == LUA_TFUNCTION)
      return warp;
  }
  return luaL_error(L, "dev:launch: a kernel (wl.kernel(fn) or a function) "
                       "expected, got %s", luaL_typename(L, k));
}

static void push_occ(lua_State *L, const wl_occupancy *o) {
  static const char *const lim[] = {"threads", "warps", "blocks",
                                    "registers", "shared memory"};
  lua_createtable(L, 0, 12);
  lua_pushinteger(L, o->blocks_per_sm);
  lua_setfield(L, -2, "blocks_per_sm");
  lua_pushstring(L, lim[o->limiter]);
  lua_setfield(L, -2, "limited_by");
  lua_pushinteger(L, o->by_threads);
  lua_setfield(L, -2, "by_threads");
  lua_pushinteger(L, o->by_warps);
  lua_setfield(L, -2, "by_warps");
  lua_pushinteger(L, o->by_blocks);
  lua_setfield(L, -2, "by_blocks");
  lua_pushinteger(L, o->by_regs);
  lua_setfield(L, -2, "by_registers");
  lua_pushinteger(L, o->by_shared);
  lua_setfield(L, -2, "by_shared");
  lua_pushinteger(L, o->shared_per_sm);
  lua_setfield(L, -2, "shared_per_sm");
  lua_pushinteger(L, o->shared_per_block);
  lua_setfield(L, -2, "shared_per_block");
  lua_pushinteger(L, o->warps_per_sm);
  lua_setfield(L, -2, "warps_per_sm");
  lua_pushnumber(L, o->occupancy);
  lua_setfield(L, -2, "occupancy");
}

static void push_counters(lua_State *L, const wl_launch *l, int site) {
  int i;
  const char *n;
  lua_newtable(L);
  for (i = 0; (n = wl_launch_counter_name(i)) != NULL; i++) {
    lua_pushinteger(L, (lua_Integer)wl_launch_counter(l, site, i));
    lua_setfield(L, -2, n);
  }
}

/* Pushes the launch report: {occupancy, counters, sites, steps}. */
static void push_report(lua_State *L, const wl_launch *l, int banks,
                        int bank_bytes);

static void push_findings(lua_State *L, const wl_launch *l, const krun *r,
                          const char *src);

typedef struct report_args {
  const wl_launch *l;
  int banks, bank_bytes;
  const krun *r;   /* the shared arrays' names (findings) */
  const char *src; /* the kernel's file */
  int check;       /* the launch ran checkers: its findings too */
} report_args;

/* push_report run by lua_pcall: (report_args *) -> the report, with the
 * checkers' findings */
static int push_report_p(lua_State *L) {
  const report_args *a = lua_touserdata(L, 1);
  push_report(L, a->l, a->banks, a->bank_bytes);
  if (a->check) {
    push_findings(L, a->l, a->r, a->src);
    lua_setfield(L, -2, "findings");
  }
  return 1;
}

int wll_launch_report(lua_State *L, const wl_launch *l, const krun *r,
                      const char *src, int check, const wl_device_cfg *dc) {
  report_args ra;
  ra.l = l;
  ra.banks = dc->banks;
  ra.bank_bytes = dc->bank_bytes;
  ra.r = r;
  ra.src = src;
  ra.check = check;
  if (!lua_checkstack(L, 4)) {
    lua_pushliteral(L, "launch: out of memory");
    return LUA_ERRMEM;
  }
  lua_pushcfunction(L, push_report_p);
  lua_pushlightuserdata(L, &ra);
  return lua_pcall(L, 1, 1, 0);
}

static void push_report(lua_State *L, const wl_launch *l, int banks,
                        int bank_bytes) {
  static const char *const sp[] = {"global", "managed", "constant",
                                   "param",  "shared",  "local"};
  static const char *const kinds[] = {"ld", "st", "atom"};
  int k, n = wl_launch_nsites(l);
  lua_createtable(L, 0, 4);
  push_occ(L, wl_launch_occupancy(l));
  lua_setfield(L, -2, "occupancy");
  push_counters(L, l, -1);
  lua_setfield(L, -2, "counters");
  lua_pushinteger(L, (lua_Integer)wl_launch_steps(l));
  lua_setfield(L, -2, "steps");
  lua_createtable(L, n, 0);
  for (k = 0; k < n; k++) {
    int line, space, kind, width;
    wl_launch_site(l, k, &line, &space, &kind, &width);
    lua_createtable(L, 0, 5);
    lua_pushinteger(L, line);
    lua_setfield(L, -2, "line");
    lua_pushstring(L, sp[space]);
    lua_setfield(L, -2, "space");
    lua_pushstring(L, kinds[kind]);
    lua_setfield(L, -2, "op");
    lua_pushinteger(L, width);
    lua_setfield(L, -2, "width");
    push_counters(L, l, k);
    lua_setfield(L, -2, "counters");
    {
      uint32_t mask;
      uint64_t addr[32];
      int wf = wl_launch_site_worst(l, k, &mask, addr), i;
      if (wf >= 0) { /* a spec wl.bank_access / wl.heatmap take */
        lua_createtable(L, 0, 6);
        lua_createtable(L, 32, 0);
        for (i = 0; i < 32; i++)
          if (mask >> i & 1) {
            lua_pushinteger(L, (lua_Integer)addr[i]);
            lua_rawseti(L, -2, i + 1);
          }
        lua_setfield(L, -2, "offsets");
        lua_pushinteger(L, (lua_Integer)mask);
        lua_setfield(L, -2, "active");
        lua_pushinteger(L, width);
        lua_setfield(L, -2, "width");
        lua_pushstring(L, kind == WL_ACC_LOAD ? "ld" : "st");
        lua_setfield(L, -2, "op");
        lua_pushinteger(L, banks);
        lua_setfield(L, -2, "banks");
        lua_pushinteger(L, bank_bytes);
        lua_setfield(L, -2, "bank_bytes");
        lua_setfield(L, -2, "worst_access");
      }
    }
    lua_rawseti(L, -2, k + 1);
  }
  lua_setfield(L, -2, "sites");
}

static void push_access(lua_State *L, const wl_find_access *a) {
  static const char *const kinds[] = {"ld", "st", "atom"};
  static const char *const sems[] = {"weak", "relaxed", "acquire",
                                     "release", "acq_rel", "sc"};
  static const char *const scopes_w[] = {"", "cta", "gpu", "sys"};
  lua_createtable(L, 0, 10);
  lua_createtable(L, 0, 3);
  lua_pushinteger(L, a->bidx[0]);
  lua_setfield(L, -2, "x");
  lua_pushinteger(L, a->bidx[1]);
  lua_setfield(L, -2, "y");
  lua_pushinteger(L, a->bidx[2]);
  lua_setfield(L, -2, "z");
  lua_setfield(L, -2, "block");
  lua_createtable(L, 0, 3);
  lua_pushinteger(L, a->tidx[0]);
  lua_setfield(L, -2, "x");
  lua_pushinteger(L, a->tidx[1]);
  lua_setfield(L, -2, "y");
  lua_pushinteger(L, a->tidx[2]);
  lua_setfield(L, -2, "z");
  lua_setfield(L, -2, "thread");
  lua_pushinteger(L, a->warp);
  lua_setfield(L, -2, "warp");
  lua_pushinteger(L, a->lane);
  lua_setfield(L, -2, "lane");
  lua_pushinteger(L, a->line);
  lua_setfield(L, -2, "line");
  lua_pushstring(L, kinds[a->kind >= 0 && a->kind <= 2 ? a->kind : 0]);
  lua_setfield(L, -2, "op");
  lua_pushstring(L, sems[a->sem >= 0 && a->sem <= 5 ? a->sem : 0]);
  lua_setfield(L, -2, "sem");
  if (a->scope > 0 && a->scope <= 3) {
    lua_pushstring(L, scopes_w[a->scope]);
    lua_setfield(L, -2, "scope");
  }
}

/* Pushes the launch's findings: an array of tables {kind, space, name,
 * offset, address, a, b, count, fix, message}. */
static void push_findings(lua_State *L, const wl_launch *l, const krun *r,
                          const char *src) {
  static const char *const kinds[] = {"race", "warp race", "uninit",
                                      "spin", "shfl"};
  static const char *const sp[] = {"global", "managed", "constant",
                                   "param",  "shared",  "local"};
  int i, n = wl_launch_nfindings(l);
  lua_createtable(L, n, 0);
  for (i = 0; i < n; i++) {
    const wl_finding *f = wl_launch_finding(l, i);
    const char *name = f->name;
    luaL_Buffer b;
    if (f->space == WL_SPACE_SHARED)
      name = f->id == WL_SHARED_EXTERN ? "extern shared"
             : f->id >= 0 && f->id < WLL_PROBE_DECLS && r->shname[f->id][0]
                 ? r->shname[f->id]
                 : "shared";
    lua_createtable(L, 0, 12);
    lua_pushstring(L, kinds[f->kind]);
    lua_setfield(L, -2, "kind");
    if (f->kind != WL_FIND_SHFL) { /* a shuffle reads no memory */
      lua_pushstring(L, sp[f->space]);
      lua_setfield(L, -2, "space");
      lua_pushstring(L, name);
      lua_setfield(L, -2, "name");
      lua_pushinteger(L, (lua_Integer)f->off);
      lua_setfield(L, -2, "offset");
      lua_pushinteger(L, (lua_Integer)f->addr);
      lua_setfield(L, -2, "address");
    }
    lua_pushinteger(L, (lua_Integer)f->count);
    lua_setfield(L, -2, "count");
    lua_pushstring(L, f->fix);
    lua_setfield(L, -2, "fix");
    push_access(L, &f->a);
    lua_setfield(L, -2, "a");
    if (f->b.block >= 0) {
      push_access(L, &f->b);
      lua_setfield(L, -2, "b");
    }
    /* the message: "file:line: kind ..." naming both threads */
    luaL_buffinit(L, &b);
    lua_pushfstring(L, "%s:%d: ", src, f->a.line);
    luaL_addvalue(&b);
    if (f->kind == WL_FIND_RACE || f->kind == WL_FIND_WARP_RACE) {
      lua_pushfstring(
          L,
          "%s on %s '%s' (byte %d, address %p): %s by block (%d,%d,%d) "
          "thread (%d,%d,%d) warp %d lane %d at line %d and %s by block "
          "(%d,%d,%d) thread (%d,%d,%d) warp %d lane %d at line %d",
          f->kind == WL_FIND_RACE ? "data race" : "warp-synchronous hazard "
                                                  "(a data race between lanes "
                                                  "of one warp)",
          sp[f->space], name, (int)f->off, (void *)(uintptr_t)f->addr,
          f->b.kind == WL_ACC_LOAD ? "load" : f->b.kind == WL_ACC_STORE
                                                  ? "store" : "atomic",
          f->b.bidx[0], f->b.bidx[1], f->b.bidx[2], f->b.tidx[0],
          f->b.tidx[1], f->b.tidx[2], f->b.warp, f->b.lane, f->b.line,
          f->a.kind == WL_ACC_LOAD ? "load" : f->a.kind == WL_ACC_STORE
                                                  ? "store" : "atomic",
          f->a.bidx[0], f->a.bidx[1], f->a.bidx[2], f->a.tidx[0],
          f->a.tidx[1], f->a.tidx[2], f->a.warp, f->a.lane, f->a.line);
    } else if (f->kind == WL_FIND_SHFL) {
      lua_pushfstring(L, "shuffle hazard (a lane read outside the warp "
                         "operation's mask): block (%d,%d,%d) thread "
                         "(%d,%d,%d) warp %d lane %d reads lane %d",
                      f->a.bidx[0], f->a.bidx[1], f->a.bidx[2], f->a.tidx[0],
                      f->a.tidx[1], f->a.tidx[2], f->a.warp, f->a.lane,
                      f->b.lane);
    } else {
      lua_pushfstring(L, "%s %s '%s' (byte %d): block (%d,%d,%d) thread "
                         "(%d,%d,%d) warp %d lane %d",
                      f->kind == WL_FIND_UNINIT
                          ? "read of memory never written:"
                          : "possible hang: a spin on",
                      sp[f->space], name, (int)f->off, f->a.bidx[0],
                      f->a.bidx[1], f->a.bidx[2], f->a.tidx[0],
                      f->a.tidx[1], f->a.tidx[2], f->a.warp, f->a.lane);
    }
    luaL_addvalue(&b);
    luaL_addstring(&b, "; ");
    luaL_addstring(&b, f->fix);
    luaL_pushresult(&b);
    lua_setfield(L, -2, "message");
    lua_rawseti(L, -2, i + 1);
  }
}

/* Copies the array of numbers at idx into a new parameter allocation and
 * pushes its (read-only) view. */
static int make_param(lua_State *L, kdev *d, int idx, int argno) {
  lua_Integer n = (lua_Integer)luaL_len(L, idx), j;
  int isint = 1, id, type;
  char name[32];
  darray *a;
  for (j = 1; j <= n; j++) {
    int t = lua_rawgeti(L, idx, j);
    if (t != LUA_TNUMBER)
      luaL_error(L, "launch: argument %d is a table but element %d is %s "
                    "(a parameter array holds numbers)",
                 argno, (int)j, lua_typename(L, t));
    if (!lua_isinteger(L, -1))
      isint = 0;
    lua_pop(L, 1);
  }
  type = isint ? WL_TYPE_INT64 : WL_TYPE_DOUBLE;
  snprintf(name, sizeof name, "argument %d", argno);
  if (wl_device_alloc(d->d, WL_SPACE_PARAM, wll_bytes(L, n, 8, name), name,
                      &id) != 0)
    luaL_error(L, "launch: %s", wl_ctx_errmsg(d->ctx));
  a = wll_newarr(L, d, id, WL_SPACE_PARAM, type, n, name);
  wll_write_values(L, a, idx, 0);
  return id;
}

/* dev:launch(kernel, {grid=, block=, shared=, seed=, profile=, regs=,
 * cache=, max_steps=, slice=}, args...) -> report */
/* A finished launch's box: it holds the launch while the report is
 * built, so that a memory error there frees it (its __gc). */
int wll_launch_gc(lua_State *L) {
  wl_launch **b = luaL_checkudata(L, 1, WLL_LAUNCH);
  wl_launch_free(*b);
  *b = NULL;
  return 0;
}

/* A part's should_stop: its kstate's part_stop asked about the launch
 * running (set by wl_launch_run before it runs). */
typedef struct part_watch {
  kstate *ks;
  wl_launch **self;
} part_watch;

static int part_should_stop(void *ud) {
  part_watch *w = ud;
  return *w->self != NULL &&
         w->ks->part_stop(w->ks->part_stop_ud, *w->self);
}

/* The body of dev:_launch, run protected by wll_kd_launch (upvalue 1:
 * the kstate, 2: an int set when the error raised is a kernel's failure,
 * which names its own file, line and thread). */
static int launch_body(lua_State *L) {
  kdev *d = wll_checkkdev(L, 1);
  kstate *ks = KS(L);
  int nargs = lua_gettop(L) - 3, i, rc;
  lctx x;
  wl_launch_cfg cfg;
  wl_launch *l = NULL, **box;
  int params[64], nparams = 0;
  uint64_t bsz;
  lua_Debug ar;
  void *watch;
  char src[LUA_IDSIZE + 1];
  char split_why[200];
  int split = 0, split_parts = 0;
  part_watch pw;
  if (ks->run != NULL)
    return luaL_error(L, "launches do not nest (dev:launch inside a "
                         "kernel)");
  luaL_checktype(L, 3, LUA_TTABLE);
  wll_checkopts(L, 3, "launch", launch_keys, 0);
  memset(&x, 0, sizeof x);
  memset(&cfg, 0, sizeof cfg);
  wll_dim3(L, 3, "grid", cfg.grid);
  wll_dim3(L, 3, "block", cfg.block);
  cfg.dynamic_shared =
      (uint32_t)wll_optint(L, 3, "launch", "shared", 0, 0, UINT32_MAX);
  cfg.regs_per_thread = (int)wll_optint(L, 3, "launch", "regs", 0, 0, 255);
  cfg.seed = (uint64_t)wll_optint(L, 3, "launch", "seed", 1, LUA_MININTEGER,
                                  LUA_MAXINTEGER);
  cfg.max_steps = (uint64_t)wll_optint(L, 3, "launch", "max_steps", 0, 0,
                                       LUA_MAXINTEGER);
  cfg.slice = (int)wll_optint(L, 3, "launch", "slice", 0, 0, INT_MAX);
  cfg.profile = wll_optword(L, 3, "launch", "profile", "weak",
                            wll_profile_words());
  cfg.schedule = wll_optword(L, 3, "launch", "schedule", "independent",
                             schedule_words);
  lua_getfield(L, 3, "check");
  cfg.check = wll_check_flags(L, -1);
  lua_pop(L, 1);
  if (lua_getfield(L, 3, "cache") != LUA_TNIL)
    cfg.cache_pref = wll_optword(L, 3, "launch", "cache", NULL, wll_pref_words);
  else if (lua_type(L, 2) == LUA_TTABLE &&
           lua_getfield(L, 2, "cache") != LUA_TNIL) /* the kernel's own */
    cfg.cache_pref = wll_optword(L, 2, "wl.kernel", "cache", NULL,
                                 wll_pref_words);
  else
    cfg.cache_pref = d->cache_pref;
  /* a part of a split launch (lksplit.c runs these on its workers) */
  cfg.part_k = (int)wll_optint(L, 3, "launch", "_part", 0, 0, INT_MAX - 1);
  cfg.part_n = (int)wll_optint(L, 3, "launch", "_parts", 0, 0, INT_MAX);
  cfg.track = cfg.part_n > 0;
  if (cfg.part_n > 0 && cfg.part_k >= cfg.part_n)
    return luaL_error(L, "launch: _part must be below _parts");
  kernel_fn(L, 2); /* a kernel, or the launch's error, before any split */
  lua_pop(L, 1);
  if (lua_getfield(L, 3, "jobs") != LUA_TNIL) {
    /* the blocks in parts across cores (lksplit.c): the joined report,
     * or nothing when the parts communicated (then the launch runs
     * whole, below, and its report says why) */
    int isint, jobs = (int)lua_tointegerx(L, -1, &isint);
    if (!isint || lua_tointeger(L, -1) < 1 || lua_tointeger(L, -1) > 1024)
      return luaL_error(L, "launch: jobs must be an integer from 1 to 1024");
    if (cfg.part_n > 0)
      return luaL_error(L, "launch: a part of a split launch splits no "
                           "further");
    lua_settop(L, nargs + 3);
    if (wll_launch_split(L, d, &cfg, jobs, &split_parts, split_why,
                         sizeof split_why,
                         (int *)lua_touserdata(L, lua_upvalueindex(2))))
      return 1;
    split = 1;
  }
  lua_settop(L, nargs + 3);
  /* stack: dev, kernel, cfg, args... then ours */
  x.r.warp_mode = kernel_fn(L, 2);
  /* deferred loads, unless defer = false (per-thread kernels' lanes
   * are replayed, lkreplay.c; warp-vector kernels' warps, lwreplay.c) */
  if (lua_getfield(L, 3, "defer") != LUA_TNIL &&
      lua_type(L, -1) != LUA_TBOOLEAN)
    return luaL_error(L, "launch: defer must be a boolean");
  cfg.defer = lua_isnil(L, -1) || lua_toboolean(L, -1);
  x.r.defer = cfg.defer;
  lua_pop(L, 1);
  /* _plain = true: every shortcut of warp-vector kernels off, for the
   * property tests (tests/lua/props_lanes.lua) */
  lua_getfield(L, 3, "_plain");
  cfg.plain = x.r.plain = lua_toboolean(L, -1);
  lua_pop(L, 1);
  x.fn = lua_gettop(L);
  x.ks = lua_upvalueindex(1);
  lua_createtable(L, nargs, 0);
  for (i = 0; i < nargs; i++) {
    if (lua_type(L, 4 + i) == LUA_TTABLE && !lua_getmetatable(L, 4 + i)) {
      /* a plain array of numbers: a __grid_constant__ parameter */
      if (nparams == (int)(sizeof params / sizeof params[0]))
        return luaL_error(L, "launch: too many table arguments");
      params[nparams] = make_param(L, d, 4 + i, i + 1);
      nparams++;
    } else {
      if (lua_type(L, 4 + i) == LUA_TTABLE)
        lua_pop(L, 1); /* its metatable */
      lua_pushvalue(L, 4 + i);
    }
    lua_rawseti(L, -2, i + 1);
  }
  x.args = lua_gettop(L);
  lua_newtable(L);
  x.threads = lua_gettop(L);
  lua_newtable(L); /* the metatable of every c (or w) */
  lua_getiuservalue(L, lua_upvalueindex(1), x.r.warp_mode ? 2 : 1);
  lua_setfield(L, -2, "__index");
  x.cmeta = lua_gettop(L);
  lua_createtable(L, 0, 2);
  wll_push_dim(L, cfg.block[0], cfg.block[1], cfg.block[2]);
  lua_setfield(L, -2, "blockDim");
  wll_push_dim(L, cfg.grid[0], cfg.grid[1], cfg.grid[2]);
  lua_setfield(L, -2, "gridDim");
  x.dims = lua_gettop(L);
  x.r.L = L;
  for (i = 0; i < 3; i++) {
    x.r.gdim[i] = cfg.grid[i];
    x.r.bdim[i] = cfg.block[i];
  }
  x.r.sm = wll_device_sm(wl_device_config(d->d)->name);
  lua_pushvalue(L, x.fn);
  lua_getinfo(L, ">S", &ar);
  snprintf(src, sizeof src, "%s", ar.short_src);
  cfg.source = src;
  cfg.end_line = ar.lastlinedefined > 0 ? ar.lastlinedefined : 0;
  /* the time bound, and Lua's count hook so that it holds for code that
   * makes no device call; both from before the probe, which runs the
   * kernel's first thread */
  x.r.max_seconds = wll_launch_max_seconds(L, 3);
  x.r.deadline = wll_now() + x.r.max_seconds;
  if (lua_getfield(L, 3, "_deadline") == LUA_TNUMBER &&
      lua_tonumber(L, -1) < x.r.deadline) /* a part: the launch's own */
    x.r.deadline = lua_tonumber(L, -1);
  lua_pop(L, 1);
  x.r.probe_ref = LUA_NOREF;
  x.r.probe_block = cfg.part_n > 0 ? cfg.part_k : 0; /* its first block */
  x.r.probe_dynamic = cfg.dynamic_shared;
  wll_hook_on(L, ks, &x.r);
  if (lua_getfield(L, 3, "static_shared") != LUA_TNIL) {
    cfg.static_shared = (uint32_t)wll_optint(L, 3, "launch", "static_shared",
                                             0, 0, UINT32_MAX);
  } else if (wl_size_mul((uint64_t)cfg.block[0], (uint64_t)cfg.block[1],
                         &bsz) == 0 &&
             wl_size_mul(bsz, (uint64_t)cfg.block[2], &bsz) == 0 &&
             bsz <= (uint64_t)wl_device_config(d->d)->max_threads_per_block) {
    /* (a block too large for the device: the launch refuses it below,
     * with no thread run) */
    wll_probe_run(L, &x, ks);
    cfg.static_shared = x.r.probe_shared > UINT32_MAX
                            ? UINT32_MAX
                            : (uint32_t)x.r.probe_shared;
  }
  lua_pop(L, 1);
  cfg.run_warp = wll_run_warp;
  cfg.block_done = wll_block_done;
  cfg.ud = &x;
  x.r.gen = ++ks->gen;
  x.r.ks = ks;
  /* code of an earlier launch may be gone and its pcs reused */
  memset(ks->lines, 0, sizeof ks->lines);
  ks->run = &x.r;
  lua_settop(L, x.dims);
  box = lua_newuserdatauv(L, sizeof *box, 0); /* before the launch */
  *box = NULL;
  luaL_setmetatable(L, WLL_LAUNCH);
  if (cfg.part_n > 0 && ks->part_stop != NULL) {
    pw.ks = ks;
    pw.self = &l;
    cfg.should_stop = part_should_stop;
    cfg.stop_ud = &pw;
  }
  wll_sig_enter();
  watch = wll_watch_start(&x.r);
  rc = wl_launch_run(d->d, &cfg, &l);
  wll_watch_stop(&x.r, watch);
  wll_sig_leave();
  *box = l;
  ks->run = NULL;
  wll_hook_off(L, ks);
  luaL_unref(L, LUA_REGISTRYINDEX, x.r.probe_ref);
  for (i = nparams - 1; i >= 0; i--) /* newest first: the space returns */
    wl_device_release(d->d, params[i]);
  if (cfg.part_n > 0 && l != NULL && ks->part_stop != NULL) {
    /* a part on a worker: its launch goes to lksplit.c, which joins it
     * with the others (a failed one too: what it touched still counts).
     * On the script's own state a part launch reports as any launch:
     * the parts run one after the other on the device itself, the
     * independent path tests/lua/kernel_split.lua checks joins with */
    memcpy(ks->kept_shname, x.r.shname, sizeof ks->kept_shname);
    ks->kept = l;
    *box = NULL;
    if (rc != 0) /* a signal stays pending: the other parts stop for it
                  * too, and the script's thread takes it to report it
                  * (taken here, a part failing with another error in
                  * the meantime lost it, and one stopping for it
                  * reported a time bound) */
      return luaL_error(L, "%s", wl_launch_errmsg(l)[0]
                                     ? wl_launch_errmsg(l)
                                     : wl_ctx_errmsg(d->ctx));
    lua_pushnil(L);
    return 1;
  }
  if (rc != 0) {
    /* the message is copied out first: pushing it may raise (out of
     * memory), and the launch must be freed before anything raises */
    char msg[1024];
    wll_sig_take(); /* a signal that ended it is reported by this error */
    snprintf(msg, sizeof msg, "%s",
             l && wl_launch_errmsg(l)[0] ? wl_launch_errmsg(l)
                                         : wl_ctx_errmsg(d->ctx));
    if (l && wl_launch_errmsg(l)[0])
      *(int *)lua_touserdata(L, lua_upvalueindex(2)) = 1;
    *box = NULL;
    wl_launch_free(l);
    return luaL_error(L, "%s", msg);
  }
  {
    /* the report and the checkers' findings are built in a protected
     * call, so that a memory error there frees the launch before it
     * goes on up */
    rc = wll_launch_report(L, l, &x.r, src, cfg.check,
                           wl_device_config(d->d));
    if (rc == LUA_OK && split) {
      wll_push_split(L, split_parts, split_why);
      lua_setfield(L, -2, "split");
    }
    *box = NULL;
    wl_launch_free(l);
    if (rc != LUA_OK)
      return lua_error(L);
  }
  return 1;
}

/* dev:_launch(k, cfg, args...), called by dev:launch (kernel.lua): the
 * body runs protected, so that an error of the launch's options or
 * arguments names the user's line (wll_user_where) rather than
 * kernel.lua's; a kernel's failure already names its place and thread
 * and goes up as it is. */
int wll_kd_launch(lua_State *L) {
  int n = lua_gettop(L), as_is = 0;
  luaL_checkstack(L, 3, "dev:launch");
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushlightuserdata(L, &as_is);
  lua_pushcclosure(L, launch_body, 2);
  lua_insert(L, 1);
  if (lua_pcall(L, n, 1, 0) == LUA_OK)
    return 1;
  if (!as_is && lua_type(L, -1) == LUA_TSTRING) {
    wll_user_where(L);
    lua_insert(L, -2);
    lua_concat(L, 2);
  }
  return lua_error(L);
}

/* dev:occupancy{block=, shared=, static_shared=, regs=, cache=} */
int wll_kd_occupancy(lua_State *L) {
  kdev *d = wll_checkkdev(L, 1);
  wl_launch_cfg cfg;
  wl_occupancy o;
  luaL_checktype(L, 2, LUA_TTABLE);
  wll_checkopts(L, 2, "occupancy", occupancy_keys, 0);
  memset(&cfg, 0, sizeof cfg);
  wll_dim3(L, 2, "block", cfg.block);
  cfg.dynamic_shared =
      (uint32_t)wll_optint(L, 2, "occupancy", "shared", 0, 0, UINT32_MAX);
  cfg.static_shared = (uint32_t)wll_optint(L, 2, "occupancy", "static_shared",
                                           0, 0, UINT32_MAX);
  cfg.regs_per_thread =
      (int)wll_optint(L, 2, "occupancy", "regs", 0, 0, 255);
  cfg.cache_pref =
      wll_optword(L, 2, "occupancy", "cache", "none", wll_pref_words);
  if (wl_device_occupancy(d->d, &cfg, &o) != 0)
    return luaL_error(L, "%s", wl_ctx_errmsg(d->ctx));
  push_occ(L, &o);
  return 1;
}

