/* lkrun.c -- running a launch: the context `c` of each thread (threadIdx,
 * blockIdx, ...), the coroutine of each thread (or of each warp in a
 * warp-vector kernel), the probe that sizes static shared memory before
 * the launch, the count hook that enforces the time limit, and the
 * engine's callbacks (run_warp resumes a warp's runnable lanes,
 * block_done drops a finished block's coroutines).  Lua errors inside a
 * kernel become the launch's message, naming file, line and thread. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lkernel.h"
/* ------------------------------------------------------------------ */
/* launches                                                            */
/* ------------------------------------------------------------------ */

/* One dimension of a launch: an integer from 1 to 2^31 - 1 (CUDA's
 * largest gridDim.x), never truncated to an int. */
static int dim_value(lua_State *L, int idx, const char *key) {
  int isnum;
  lua_Integer v = lua_tointegerx(L, idx, &isnum);
  if (!isnum || v < 1 || v > INT_MAX)
    luaL_error(L, "launch: %s dimensions must be integers from 1 to %d",
               key, INT_MAX);
  return (int)v;
}

void wll_dim3(lua_State *L, int idx, const char *key, int out[3]) {
  int t;
  out[0] = out[1] = out[2] = 1;
  t = lua_getfield(L, idx, key);
  if (t == LUA_TNUMBER) {
    out[0] = dim_value(L, -1, key);
  } else if (t == LUA_TTABLE) {
    static const char *const xyz[] = {"x", "y", "z", NULL};
    int i;
    wll_checkopts(L, -1, key, xyz, WLL_OPTS_ARRAY);
    for (i = 0; i < 3; i++) {
      if (lua_rawgeti(L, -1, i + 1) == LUA_TNUMBER)
        out[i] = dim_value(L, -1, key);
      else if (!lua_isnil(L, -1))
        luaL_error(L, "launch: %s[%d] must be an integer", key, i + 1);
      lua_pop(L, 1);
      lua_getfield(L, -1, i == 0 ? "x" : i == 1 ? "y" : "z");
      if (lua_type(L, -1) == LUA_TNUMBER)
        out[i] = dim_value(L, -1, key);
      lua_pop(L, 1);
    }
  } else if (t != LUA_TNIL) {
    luaL_error(L, "launch: %s must be a number or {x, y, z}", key);
  }
  lua_pop(L, 1);
  if (out[0] < 1 || out[1] < 1 || out[2] < 1)
    luaL_error(L, "launch: %s dimensions must be positive", key);
}

void wll_push_dim(lua_State *L, int x, int y, int z) {
  lua_createtable(L, 0, 3);
  lua_pushinteger(L, x);
  lua_setfield(L, -2, "x");
  lua_pushinteger(L, y);
  lua_setfield(L, -2, "y");
  lua_pushinteger(L, z);
  lua_setfield(L, -2, "z");
}

/* Pushes the context `c` of thread t of block b. */
static void push_c(lua_State *L, lctx *x, int b, int t) {
  int bi[3], ti[3];
  bi[0] = b % x->r.gdim[0];
  bi[1] = b / x->r.gdim[0] % x->r.gdim[1];
  bi[2] = (int)(b / ((int64_t)x->r.gdim[0] * x->r.gdim[1]));
  ti[0] = t % x->r.bdim[0];
  ti[1] = t / x->r.bdim[0] % x->r.bdim[1];
  ti[2] = (int)(t / ((int64_t)x->r.bdim[0] * x->r.bdim[1]));
  lua_createtable(L, 0, 8);
  wll_push_dim(L, ti[0], ti[1], ti[2]);
  lua_setfield(L, -2, "threadIdx");
  wll_push_dim(L, bi[0], bi[1], bi[2]);
  lua_setfield(L, -2, "blockIdx");
  lua_getfield(L, x->dims, "blockDim");
  lua_setfield(L, -2, "blockDim");
  lua_getfield(L, x->dims, "gridDim");
  lua_setfield(L, -2, "gridDim");
  lua_pushinteger(L, 32);
  lua_setfield(L, -2, "warpSize");
  lua_pushinteger(L, t % 32);
  lua_setfield(L, -2, "lane");
  lua_pushinteger(L, t / 32);
  lua_setfield(L, -2, "warp");
  lua_pushvalue(L, x->cmeta);
  lua_setmetatable(L, -2);
}

/* The lanes of warp w that exist (a block's last warp may be partial). */
static uint32_t warp_lanes(const lctx *x, int w) {
  int64_t n = (int64_t)x->r.bdim[0] * x->r.bdim[1] * x->r.bdim[2] - w * 32;
  return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

/* Pushes the context `w` of warp w of block b (a warp-vector kernel):
 * threadIdx.x/y/z and lane are lane vectors over the warp's threads. */
static void push_w(lua_State *L, lctx *x, int b, int w) {
  int bi[3], lane, k;
  uint32_t exist = warp_lanes(x, w);
  wll_lanes *v[4];
  bi[0] = b % x->r.gdim[0];
  bi[1] = b / x->r.gdim[0] % x->r.gdim[1];
  bi[2] = (int)(b / ((int64_t)x->r.gdim[0] * x->r.gdim[1]));
  lua_createtable(L, 0, 8);
  lua_createtable(L, 0, 3);
  for (k = 0; k < 3; k++) {
    v[k] = wll_lanes_new(L, x->ks);
    lua_setfield(L, -2, k == 0 ? "x" : k == 1 ? "y" : "z");
  }
  lua_setfield(L, -2, "threadIdx");
  v[3] = wll_lanes_new(L, x->ks);
  lua_setfield(L, -2, "lane");
  for (lane = 0; lane < 32; lane++) {
    int t = w * 32 + lane;
    if (!(exist >> lane & 1))
      continue;
    wll_lanes_seti(v[0], lane, t % x->r.bdim[0]);
    wll_lanes_seti(v[1], lane, t / x->r.bdim[0] % x->r.bdim[1]);
    wll_lanes_seti(v[2], lane, (int)(t / ((int64_t)x->r.bdim[0] * x->r.bdim[1])));
    wll_lanes_seti(v[3], lane, lane);
  }
  wll_push_dim(L, bi[0], bi[1], bi[2]);
  lua_setfield(L, -2, "blockIdx");
  lua_getfield(L, x->dims, "blockDim");
  lua_setfield(L, -2, "blockDim");
  lua_getfield(L, x->dims, "gridDim");
  lua_setfield(L, -2, "gridDim");
  lua_pushinteger(L, 32);
  lua_setfield(L, -2, "warpSize");
  lua_pushinteger(L, w);
  lua_setfield(L, -2, "warp");
  lua_pushvalue(L, x->cmeta);
  lua_setmetatable(L, -2);
}

/* Splits "chunk:line: message" (a Lua error) into its parts. */
static const char *split_where(const char *m, char *file, size_t n,
                               int *line) {
  const char *p = m;
  *line = 0;
  file[0] = 0;
  while ((p = strchr(p, ':')) != NULL) {
    char *end;
    long v = strtol(p + 1, &end, 10);
    if (end > p + 1 && *end == ':') {
      size_t len = (size_t)(p - m) < n - 1 ? (size_t)(p - m) : n - 1;
      memcpy(file, m, len);
      file[len] = 0;
      *line = (int)v;
      return end[1] == ' ' ? end + 2 : end + 1;
    }
    p++;
  }
  return m;
}

/* Where coroutine co is (suspended, or dead of an error: its stack is
 * not unwound): the innermost Lua function's file and line. */
static int co_where(lua_State *co, char *file, size_t n) {
  lua_Debug ar;
  int level;
  for (level = 0; lua_getstack(co, level, &ar); level++)
    if (lua_getinfo(co, "Sl", &ar) && ar.currentline > 0) {
      snprintf(file, n, "%s", ar.short_src);
      return ar.currentline;
    }
  return 0;
}

/* Fails the launch with the error a coroutine raised (thread: the lane
 * to name), unless an engine failure raised it.  An error object that
 * is no string (a table, say) is named by its __tostring, or its type,
 * and placed where the coroutine stopped. */
static int co_error(lua_State *L, lua_State *co, wl_launch *l, int block,
                    int thread) {
  char file[256];
  int line;
  const char *m;
  (void)L;
  if (wl_launch_errmsg(l)[0] != 0) /* raised from an engine failure */
    return WL_ERUNTIME;
  if (lua_type(co, -1) == LUA_TSTRING) {
    m = split_where(lua_tostring(co, -1), file, sizeof file, &line);
  } else {
    if (luaL_getmetafield(co, -1, "__tostring") != LUA_TNIL) {
      lua_pop(co, 1);
      m = lua_pushfstring(co, "error object: %s", luaL_tolstring(co, -1, NULL));
    } else {
      m = lua_pushfstring(co, "error object is a %s value",
                          luaL_typename(co, -1));
    }
    line = 0;
  }
  if (line == 0)
    line = co_where(co, file, sizeof file);
  wl_kernel_fail(l, block, thread, file[0] ? file : NULL, line, m);
  return WL_ERUNTIME;
}

/* Pushes the table of block `block`'s coroutines (a new one the first
 * time; in warp mode with the warps' active masks at key 0). */
static void block_table(lua_State *L, lctx *x, int block, int nt) {
  if (lua_rawgeti(L, x->threads, block + 1) == LUA_TTABLE)
    return;
  lua_pop(L, 1);
  if (x->r.warp_mode) {
    int nw = (nt + 31) / 32;
    lua_createtable(L, nw, 1);
    lua_newuserdatauv(L, sizeof(uint32_t) * (size_t)nw, 0);
    lua_rawseti(L, -2, 0);
  } else {
    lua_createtable(L, nt, 0);
  }
  lua_pushvalue(L, -1);
  lua_rawseti(L, x->threads, block + 1);
}

/* Pushes the coroutine at key of the table at tbl: the one a lane (vec
 * 0: thread `who`) or a warp (vec 1: warp `who`) runs in.  A new one
 * gets the kernel, its context and the launch's arguments: *nargs is
 * what to resume it with.  An existing one resumes with what its last
 * yield left on its stack: *nargs is then -(that count) - 1. */
static lua_State *thread_co(lua_State *L, lctx *x, int tbl, int key,
                            int block, int who, int vec, int *nargs) {
  lua_State *co;
  int i, na;
  if (lua_rawgeti(L, tbl, key + 1) == LUA_TTHREAD) {
    co = lua_tothread(L, -1);
    *nargs = -lua_gettop(co) - 1;
    return co;
  }
  lua_pop(L, 1);
  na = (int)luaL_len(L, x->args);
  /* the kernel, its context and every argument: on this stack, then on
   * the coroutine's (a new thread has room for LUA_MINSTACK values) */
  luaL_checkstack(L, na + 4, "too many kernel arguments");
  co = lua_newthread(L);
  if (!lua_checkstack(co, na + 2))
    luaL_error(L, "launch: too many kernel arguments (%d)", na);
  lua_pushvalue(L, -1);
  lua_rawseti(L, tbl, key + 1);
  lua_pushvalue(L, x->fn);
  if (vec)
    push_w(L, x, block, who);
  else
    push_c(L, x, block, who);
  for (i = 1; i <= na; i++)
    lua_rawgeti(L, x->args, i);
  lua_xmove(L, co, na + 2);
  *nargs = na + 1;
  return co;
}

lua_State *wll_lane_co(lua_State *L, lctx *x, int block, int t, int vec,
                       int *nargs) {
  lua_State *co;
  int i, na = (int)luaL_len(L, x->args);
  luaL_checkstack(L, na + 4, "too many kernel arguments");
  co = lua_newthread(L);
  if (!lua_checkstack(co, na + 2))
    luaL_error(L, "launch: too many kernel arguments (%d)", na);
  lua_pushvalue(L, x->fn);
  if (vec)
    push_w(L, x, block, t);
  else
    push_c(L, x, block, t);
  for (i = 1; i <= na; i++)
    lua_rawgeti(L, x->args, i);
  lua_xmove(L, co, na + 2);
  *nargs = na + 1;
  return co;
}

/* After a yield: keep exactly the yielded values on the coroutine's
 * stack; they are what the access returns when it resumes. */
static void keep_yielded(lua_State *co, int nres) {
  if (lua_gettop(co) > nres) {
    lua_rotate(co, 1, nres);
    lua_settop(co, nres);
  }
}

/* ------------------------------------------------------------------ */
/* the probe                                                           */
/* ------------------------------------------------------------------ */

/* The probe sizes static shared memory before the launch: it runs block
 * 0's first thread (or warp), with its real context, up to its first
 * device call, which yields (the gate) without running.  The launch then
 * resumes that same coroutine, so the kernel's code before its first
 * device call runs once; the __shared__ arrays the probe saw declared are
 * declared in the engine just before (replay_decls), in their order. */
void wll_probe_run(lua_State *L, lctx *x, kstate *ks) {
  int top = lua_gettop(L), nt, nargs, nres = 0, status;
  uint32_t *masks = NULL;
  lua_State *co;
  void *watch;
  {
    int64_t n64 = (int64_t)x->r.bdim[0] * x->r.bdim[1] * x->r.bdim[2];
    nt = n64 > 1024 * 1024 ? 1024 * 1024 : (int)n64; /* the engine refuses
                                                      * such blocks */
  }
  lua_newtable(L);
  x->r.probe_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  x->r.npdecl = 0;
  x->r.probe_shared = 0;
  x->r.probe_thread = 0;
  x->r.block = x->r.probe_block;
  x->r.thread = 0;
  block_table(L, x, x->r.probe_block, nt);
  if (x->r.warp_mode) {
    lua_rawgeti(L, -1, 0);
    masks = lua_touserdata(L, -1);
    lua_pop(L, 1);
    x->r.warp = 0;
    x->r.exist = x->r.active = masks[0] = warp_lanes(x, 0);
  }
  co = thread_co(L, x, top + 1, 0, x->r.probe_block, 0, x->r.warp_mode,
                 &nargs);
  x->r.probe = 1;
  x->r.co = co;
  ks->run = &x->r;
  watch = wll_watch_start(&x->r);
  if (x->r.watch && wll_now() >= x->r.deadline) /* a split launch's part
                                                 * begun past its deadline */
    lua_sethook(co, wll_count_hook, LUA_MASKCOUNT, 1);
  status = lua_resume(co, L, nargs, &nres);
  wll_watch_stop(&x->r, watch);
  ks->run = NULL;
  x->r.probe = 0;
  x->r.co = NULL;
  if (x->r.cofail && status != LUA_ERRMEM) {
    /* a device call inside a coroutine of the kernel's: the failure
     * stays even if the kernel caught it (probe_owed reports it) */
    lua_settop(co, 0);
    lua_pushstring(co, x->r.cofail_msg);
    x->r.probe_state = WLL_PROBE_FAILED;
    x->r.cofail = 0; /* the probe's failure is its thread's to report */
  } else if (status == LUA_YIELD) {
    x->r.probe_state = WLL_PROBE_YIELDED; /* the gate's frame stays */
    if (masks != NULL)
      masks[0] = x->r.active; /* it may have stopped inside w:where */
  } else if (status == LUA_OK) {
    lua_settop(co, 0);
    x->r.probe_state = WLL_PROBE_DONE;
  } else {
    x->r.probe_state = WLL_PROBE_FAILED; /* the error stays on co */
  }
  lua_settop(L, top);
}

/* Declares in the engine the arrays the probe's thread declared (block
 * 0, thread 0 or warp 0), as c:shared and c:extern_shared would have. */
static int replay_decls(lua_State *L, lctx *x, wl_launch *l) {
  krun *r = &x->r;
  int i;
  (void)L;
  for (i = 0; i < r->npdecl; i++) {
    wll_pdecl *p = &r->pdecl[i];
    darray *a = p->a;
    int es = type_sizes[p->type], lane, first = -1, k, t;
    uint64_t size = 0;
    if (p->ext) {
      lua_Integer n;
      if (wl_kernel_shared(l, r->probe_block, 0, 0, 16, 1, p->line, &k, &size) != 0)
        return WL_ERUNTIME;
      n = p->nset ? p->n : ((lua_Integer)size - p->off) / es;
      if (!wl_range_inside(p->off / es, n, 0, (lua_Integer)(size / es))) {
        char msg[200];
        snprintf(msg, sizeof msg,
                 "extern shared view '%s' (%lld x %s at byte %lld) does not "
                 "fit the launch's %llu dynamic bytes (launch option "
                 "shared =)",
                 a->name, (long long)n, type_words[p->type],
                 (long long)p->off, (unsigned long long)size);
        return wl_kernel_fail(l, r->probe_block, 0, NULL, p->line, msg);
      }
      a->id = k;
      a->base = (uint64_t)p->off;
      a->len = a->hi = n;
    } else {
      for (lane = 0; lane < 32; lane++) {
        t = p->lanes ? lane : 0;
        if (p->lanes && !(p->lanes >> lane & 1))
          continue;
        if (wl_kernel_shared(l, r->probe_block, t, (uint64_t)p->n * (uint64_t)es, es, 0,
                             p->line, &k, &size) != 0)
          return WL_ERUNTIME;
        if (first < 0)
          first = k;
        if (!p->lanes)
          break;
      }
      a->id = first;
      a->len = a->hi = (lua_Integer)(size / (uint64_t)es);
      if (first >= 0 && first < WLL_PROBE_DECLS)
        snprintf(r->shname[first], sizeof r->shname[first], "%s", a->name);
    }
    a->gen = r->gen;
  }
  r->npdecl = 0;
  return 0;
}

/* What the probe left for thread (or warp) 0 of block 0, settled when
 * the launch first runs it: 1 when co is to be resumed as usual. */
static int probe_owed(lua_State *L, lctx *x, wl_launch *l, lua_State *co,
                      int *rc) {
  int st = x->r.probe_state;
  x->r.probe_state = WLL_PROBE_NONE;
  *rc = replay_decls(L, x, l);
  if (*rc != 0)
    return 0;
  if (st == WLL_PROBE_FAILED) {
    *rc = co_error(L, co, l, x->r.probe_block, x->r.probe_thread);
    return 0;
  }
  if (st == WLL_PROBE_DONE) {
    int lane;
    uint32_t ex = x->r.warp_mode ? warp_lanes(x, 0) : 1;
    for (lane = 0; lane < 32; lane++)
      if ((ex >> lane & 1) && wl_kernel_exit(l, 0, lane) != 0) {
        *rc = WL_ERUNTIME;
        return 0;
      }
    lua_pushnil(L);
    lua_rawseti(L, -3, 1); /* the block table, below co */
    return 0;
  }
  return 1;
}

/* ------------------------------------------------------------------ */
/* time                                                                */
/* ------------------------------------------------------------------ */

double wll_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* sig: the signal pending when the caller decided to stop (read once:
 * under jobs another part may take it meanwhile, to report it, and put
 * it back -- read again here, it said "time bound" for a SIGTERM) */
static void time_msg(const krun *r, int sig, char *msg, size_t n,
                     const char *what) {
  if (sig != 0) { /* SIGINT/SIGTERM end a launch as its time bound does */
    snprintf(msg, n, "the launch was interrupted by %s", wll_sig_name(sig));
    return;
  }
  snprintf(msg, n,
           "the launch ran past its time bound (max_seconds = %g) %s; "
           "raise max_seconds if the kernel is just long",
           r->max_seconds, what);
}

/* Lua's count hook, on a coroutine of a launch: a kernel looping in Lua
 * alone (no device call, so no step) is stopped by the time bound too.
 * Set by the watch's tick (lkwatch.c) on the coroutine running past the
 * time bound, or, where the watch cannot run, on the launching state
 * for the whole launch (its coroutines inherit it).  Outside launches it
 * hands over to the hook it replaced. */
void wll_count_hook(lua_State *L, lua_Debug *ar) {
  kstate *ks;
  krun *r;
  char msg[300], file[LUA_IDSIZE + 1];
  int line, sig;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &wll_kstate_key);
  ks = lua_touserdata(L, -1);
  lua_pop(L, 1);
  if (ks == NULL)
    return;
  r = ks->run;
  if (ar->event != LUA_HOOKCOUNT || r == NULL || r->L == L) {
    /* not a kernel's coroutine, or another hook's event */
    if (ks->old_hook != NULL && (ks->old_mask & LUA_MASKCOUNT))
      ks->old_hook(L, ar);
    return;
  }
  sig = wll_sig_pending();
  if (wll_now() < r->deadline && !sig)
    return;
  if (!sig) {
    /* a loop that makes device calls yields, and the launch's next step
     * reports the bound (past_deadline, with its hint): this hook says
     * "no device call" only once the launch made no step for
     * WLL_HOOK_COUNT of the kernel's instructions (in the probe, which
     * makes no steps: once it ran that many past the bound, so that a
     * probe that is merely slow -- under valgrind -- ends first) */
    uint64_t steps = !r->probe && r->l != NULL ? wl_launch_steps(r->l) : 0;
    if (steps != r->hook_steps) {
      r->hook_steps = steps;
      r->hook_instrs = 0;
    }
    r->hook_instrs += lua_gethookcount(L) > 0 ? lua_gethookcount(L) : 1;
    if (r->hook_instrs <= WLL_HOOK_COUNT)
      return;
  }
  time_msg(r, sig, msg, sizeof msg, "in a loop that makes no device call");
  lua_getinfo(L, "Sl", ar);
  line = ar->currentline;
  snprintf(file, sizeof file, "%s", ar->short_src);
  if (r->probe) {
    luaL_error(L, "%s:%d: %s", file, line, msg);
    return;
  }
  wl_kernel_fail(r->l, r->block, r->thread, file, line, msg);
  lua_pushstring(L, wl_launch_errmsg(r->l));
  lua_error(L);
}

/* Bounds the time of launch r: by the watch (lkwatch.c) when it can run
 * and no other hook is set, else by the count hook on L for the whole
 * launch, keeping the hook it replaces. */
void wll_hook_on(lua_State *L, kstate *ks, krun *r) {
  r->watch = 0;
  if (lua_gethook(L) == wll_count_hook)
    return;
  if (lua_gethook(L) == NULL && wll_watch_usable()) {
    r->watch = 1;
    wll_watch_coroutines(L, ks, 1);
    return;
  }
  ks->old_hook = lua_gethook(L);
  ks->old_mask = lua_gethookmask(L);
  ks->old_count = lua_gethookcount(L);
  lua_sethook(L, wll_count_hook, LUA_MASKCOUNT | ks->old_mask, WLL_HOOK_COUNT);
}

/* Gives L back the hook it had, unless someone set another meanwhile. */
void wll_hook_off(lua_State *L, kstate *ks) {
  wll_watch_coroutines(L, ks, 0);
  if (lua_gethook(L) == wll_count_hook)
    lua_sethook(L, ks->old_hook, ks->old_mask, ks->old_count);
  ks->old_hook = NULL;
  ks->old_mask = ks->old_count = 0;
}

/* The time bound between steps: a warp spinning on a flag makes steps,
 * slowly, and is stopped here, named with its line. */
static int past_deadline(lua_State *L, lctx *x, wl_launch *l, int block,
                         int thread) {
  char msg[300], file[256] = "";
  int line = 0, sig = wll_sig_pending();
  if ((wll_now() < x->r.deadline && !sig) ||
      (block == x->r.probe_block && thread < 32 &&
       x->r.probe_state != WLL_PROBE_NONE))
    return 0; /* what the probe left is settled first */
  if (x->r.probe_state == WLL_PROBE_FAILED &&
      lua_rawgeti(L, x->threads, x->r.probe_block + 1) == LUA_TTABLE &&
      lua_rawgeti(L, -1, 1) == LUA_TTHREAD) {
    /* the probe's thread failed (past the time bound in a loop of plain
     * Lua, say) and another warp met the bound first: the launch fails
     * with the probe's failure, its true cause */
    x->r.probe_state = WLL_PROBE_NONE;
    return co_error(L, lua_tothread(L, -1), l, x->r.probe_block,
                    x->r.probe_thread);
  }
  if (lua_rawgeti(L, x->threads, block + 1) == LUA_TTABLE &&
      lua_rawgeti(L, -1, (x->r.warp_mode ? thread / 32 : thread) + 1) ==
          LUA_TTHREAD)
    line = co_where(lua_tothread(L, -1), file, sizeof file);
  time_msg(&x->r, sig, msg, sizeof msg, "(a spin loop waiting for a value "
                                       "no thread writes?)");
  return wl_kernel_fail(l, block, thread, file[0] ? file : NULL, line, msg);
}

/* ------------------------------------------------------------------ */
/* the engine's callbacks                                              */
/* ------------------------------------------------------------------ */

/* Every Lua call made from an engine callback runs inside lua_pcall
 * (lua.c's pmain, luv's work callbacks): an error, out of memory
 * included, never unwinds through engine frames.  The protected function
 * receives the launch's values as arguments (KARG_*), so the stack
 * indices of lctx are those of its own frame while it runs. */
enum { KARG_FN = 1, KARG_ARGS, KARG_THREADS, KARG_CMETA, KARG_DIMS, KARG_KS,
       KARG_CALL, KARG_N };

typedef struct kcall {
  lctx *x;
  wl_launch *l;
  int block, warp, rc;
} kcall;

/* run_warp of a warp-vector kernel: one coroutine per warp, whose lanes
 * never diverge at barriers or at the end (w:syncthreads checks that
 * every lane is active), so all of them are runnable or none.  The
 * block's table holds the coroutines at warp + 1 and, at 0, the active
 * mask each warp had when it last yielded (inside w:where). */
static int run_warp_vec(lctx *x, wl_launch *l, int block, int warp) {
  lua_State *L = x->r.L, *co;
  int top = lua_gettop(L), nt = wl_kernel_threads_per_block(l);
  int status, nres = 0, nargs, lane, rc;
  uint32_t *masks, exist = warp_lanes(x, warp);
  if (wl_kernel_lane_state(l, block, warp * 32) != WL_LANE_RUNNABLE)
    return 0;
  if ((rc = past_deadline(L, x, l, block, warp * 32)) != 0)
    return rc;
  lua_settop(L, top);
  block_table(L, x, block, nt);
  lua_rawgeti(L, top + 1, 0);
  masks = lua_touserdata(L, -1);
  lua_pop(L, 1);
  x->r.l = l;
  x->r.block = block;
  x->r.warp = warp;
  x->r.thread = warp * 32;
  x->r.exist = exist;
  co = thread_co(L, x, top + 1, warp, block, warp, 1, &nargs);
  x->r.active = nargs < 0 ? masks[warp] : exist;
  nargs = nargs < 0 ? -nargs - 1 : nargs;
  if (x->r.defer) /* its event log (lwreplay.c) */
    wll_rlog_lookup(L, &x->r, top + 1, warp);
  if (block == x->r.probe_block && warp == 0 &&
      x->r.probe_state != WLL_PROBE_NONE &&
      x->r.npdecl > 0 && x->r.defer) /* declared shared in the probe */
    wll_wlog_unloggable(L, &x->r);
  if (block == x->r.probe_block && warp == 0 &&
      x->r.probe_state != WLL_PROBE_NONE &&
      !probe_owed(L, x, l, co, &rc)) {
    lua_settop(L, top);
    return rc;
  }
  lua_pop(L, 1);
  x->r.co = co;
  status = lua_resume(co, L, nargs, &nres);
  x->r.co = NULL;
  if (x->r.cofail && status != LUA_ERRRUN) { /* caught by the kernel */
    lua_settop(L, top);
    return WL_ERUNTIME;
  }
  if (status == LUA_YIELD) {
    keep_yielded(co, nres);
    masks[warp] = x->r.active;
    lua_settop(L, top);
    return 0;
  }
  if (status == LUA_OK) {
    lua_settop(co, 0);
    lua_pushnil(L);
    lua_rawseti(L, top + 1, warp + 1);
    if (x->r.log != NULL) { /* its log goes with it */
      lua_pushnil(L);
      lua_rawseti(L, top + 1, -(lua_Integer)warp - 1);
    }
    lua_settop(L, top);
    for (lane = 0; lane < 32; lane++)
      if ((exist >> lane & 1) &&
          wl_kernel_exit(l, block, warp * 32 + lane) != 0)
        return WL_ERUNTIME;
    return 0;
  }
  /* an error: named after the warp's first active lane */
  lane = x->r.active ? __builtin_ctz(x->r.active) : 0;
  status = co_error(L, co, l, block, warp * 32 + lane);
  lua_settop(L, top);
  return status;
}

static int run_lanes(lctx *x, wl_launch *l, int block, int warp) {
  lua_State *L = x->r.L;
  int nt = wl_kernel_threads_per_block(l), lane, top = lua_gettop(L), rc;
  int order[32], norder, k;
  x->r.l = l;
  if ((rc = past_deadline(L, x, l, block, warp * 32)) != 0)
    return rc;
  lua_settop(L, top);
  block_table(L, x, block, nt);
  norder = wl_kernel_lane_order(l, block, warp, order);
  for (k = 0; k < norder; k++) {
    int t, status, nres = 0, nargs;
    lua_State *co;
    lane = order[k];
    t = warp * 32 + lane;
    if (wl_kernel_lane_state(l, block, t) != WL_LANE_RUNNABLE)
      continue;
    co = thread_co(L, x, top + 1, t, block, t, 0, &nargs);
    nargs = nargs < 0 ? -nargs - 1 : nargs;
    x->r.block = block;
    x->r.thread = t;
    if (x->r.defer) /* its event log (lkreplay.c) */
      wll_rlog_lookup(L, &x->r, top + 1, t);
    if (block == x->r.probe_block && t == 0 &&
        x->r.probe_state != WLL_PROBE_NONE &&
        x->r.npdecl > 0 && x->r.defer) /* declared shared in the probe */
      wll_rlog_stop(L, &x->r);
    if (block == x->r.probe_block && t == 0 &&
        x->r.probe_state != WLL_PROBE_NONE &&
        !probe_owed(L, x, l, co, &rc)) {
      lua_pop(L, 1);
      if (rc != 0) {
        lua_settop(L, top);
        return rc;
      }
      continue;
    }
    lua_pop(L, 1);
    x->r.co = co;
    status = lua_resume(co, L, nargs, &nres);
    x->r.co = NULL;
    if (x->r.cofail && status != LUA_ERRRUN) { /* caught by the kernel */
      lua_settop(L, top);
      return WL_ERUNTIME;
    }
    if (status == LUA_YIELD) {
      keep_yielded(co, nres);
      continue;
    }
    if (status == LUA_OK) {
      lua_settop(co, 0);
      lua_pushnil(L);
      lua_rawseti(L, top + 1, t + 1);
      if (x->r.log != NULL) { /* its log goes with it */
        lua_pushnil(L);
        lua_rawseti(L, top + 1, -(lua_Integer)t - 1);
      }
      if (wl_kernel_exit(l, block, t) != 0)
        return WL_ERUNTIME;
      continue;
    }
    /* an error */
    status = co_error(L, co, l, block, t);
    lua_settop(L, top);
    return status;
  }
  lua_settop(L, top);
  return 0;
}

/* The protected body of run_warp (arguments: KARG_*). */
static int run_warp_p(lua_State *L) {
  kcall *c = lua_touserdata(L, KARG_CALL);
  lctx *x = c->x;
  c->rc = x->r.warp_mode ? run_warp_vec(x, c->l, c->block, c->warp)
                         : run_lanes(x, c->l, c->block, c->warp);
  return 0;
}

int wll_run_warp(void *ud, wl_launch *l, int block, int warp) {
  lctx *x = ud, outer = *x;
  lua_State *L = x->r.L;
  kcall c;
  int status;
  if (!lua_checkstack(L, KARG_N + LUA_MINSTACK))
    return wl_kernel_fail(l, block, warp * 32, NULL, 0,
                          "Lua stack overflow");
  c.x = x;
  c.l = l;
  c.block = block;
  c.warp = warp;
  c.rc = 0;
  lua_pushcfunction(L, run_warp_p);
  lua_pushvalue(L, outer.fn);
  lua_pushvalue(L, outer.args);
  lua_pushvalue(L, outer.threads);
  lua_pushvalue(L, outer.cmeta);
  lua_pushvalue(L, outer.dims);
  lua_pushvalue(L, outer.ks);
  lua_pushlightuserdata(L, &c);
  x->fn = KARG_FN;
  x->args = KARG_ARGS;
  x->threads = KARG_THREADS;
  x->cmeta = KARG_CMETA;
  x->dims = KARG_DIMS;
  x->ks = KARG_KS;
  status = lua_pcall(L, KARG_N - 1, 0, 0);
  x->fn = outer.fn;
  x->args = outer.args;
  x->threads = outer.threads;
  x->cmeta = outer.cmeta;
  x->dims = outer.dims;
  x->ks = outer.ks;
  if (status != LUA_OK) { /* out of memory, say: the launch fails */
    if (wl_launch_errmsg(l)[0] == 0)
      wl_kernel_fail(l, block, x->r.thread, NULL, 0,
                     lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1)
                                                    : "error in the driver");
    lua_pop(L, 1);
    return WL_ERUNTIME;
  }
  return c.rc;
}

void wll_block_done(void *ud, wl_launch *l, int block) {
  lctx *x = ud;
  (void)l;
  /* neither call can raise: a stack slot is there (run_warp checked)
   * and a raw set of nil allocates nothing */
  if (!lua_checkstack(x->r.L, 1))
    return;
  lua_pushnil(x->r.L);
  lua_rawseti(x->r.L, x->threads, block + 1);
}
