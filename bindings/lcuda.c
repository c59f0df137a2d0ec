/* lcuda.c -- test:cuda{...}: the test as a CUDA program (engine/emit). */
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "lwarplab.h"

static const char *const cuda_keys[] = {
    "blocks", "threads", "launches", "stress", "stress_iters", "spacing",
    "seed",   "budget",  "shuffle",  "rounds", "sm",     "harness",
    "sync",   "sync_spins", "place", "pre_stress", "stress_pattern",
    "stress_lines", "line_words", "tune", "delay", "gap", "stream", NULL};

static int cuda_int(lua_State *L, int opts, const char *key, int def, int lo,
                    int hi) {
  lua_Integer v = def;
  if (opts != 0 && lua_getfield(L, opts, key) != LUA_TNIL) {
    int isnum;
    v = lua_tointegerx(L, -1, &isnum);
    if (!isnum || v < lo || v > hi)
      return luaL_error(L, "cuda: %s must be an integer from %d to %d", key,
                        lo, hi);
  }
  if (opts != 0)
    lua_pop(L, 1);
  return (int)v;
}

/* The text is written twice: once to learn its length, then into a
 * userdata of that length, so that no Lua call (which may raise) runs
 * inside the engine and nothing C-allocated is held across one. */
typedef struct sink {
  char *p;
  size_t n, cap;
} sink;

static int collect(void *ud, const char *s, size_t n) {
  sink *k = ud;
  if (k->p != NULL && n > k->cap - k->n)
    return -1; /* longer than the first time */
  if (k->p != NULL)
    memcpy(k->p + k->n, s, n);
  k->n += n;
  return 0;
}

/* test:cuda{blocks=, threads=, launches=, stress=, stress_iters=,
 * spacing=, seed=, budget=, shuffle=, rounds=, sm=, harness=, sync=,
 * sync_spins=, place=, pre_stress=, stress_pattern=, stress_lines=,
 * line_words=, tune=, delay=, gap=, stream=} -> the program's text (sm:
 * "any", "same" or "different"; harness: a preset, applied before the
 * other keys; stream: a two-GPU MP test's streaming program). */
int wll_test_cuda(lua_State *L) {
  wll_test *t = wll_checktest(L, 1);
  wl_cuda_opts o;
  sink k = {NULL, 0, 0};
  size_t len;
  int opts = 0, rc;
  wl_cuda_opts_init(&o);
  if (!lua_isnoneornil(L, 2)) {
    luaL_checktype(L, 2, LUA_TTABLE);
    opts = 2;
    wll_checkopts(L, 2, "cuda", cuda_keys, 0);
  }
  lua_settop(L, 2);
  /* the preset first; the other keys change it */
  if (opts != 0) {
    if (lua_getfield(L, opts, "harness") != LUA_TNIL &&
        (lua_type(L, -1) != LUA_TSTRING ||
         wl_cuda_harness(&o, lua_tostring(L, -1)) != 0))
      return luaL_error(L, "cuda: harness must be \"plain\", \"sync\", "
                           "\"stress\", \"parallel\" or \"delay\"");
    lua_pop(L, 1);
    if (lua_getfield(L, opts, "stress_pattern") != LUA_TNIL &&
        (lua_type(L, -1) != LUA_TSTRING ||
         (o.stress_pattern = wl_cuda_pattern_find(lua_tostring(L, -1))) <
             0))
      return luaL_error(L, "cuda: stress_pattern must be \"random\", "
                           "\"ss\", \"sl\", \"ls\" or \"ll\"");
    lua_pop(L, 1);
    if (lua_getfield(L, opts, "tune") != LUA_TNIL)
      o.tune = lua_toboolean(L, -1);
    lua_pop(L, 1);
  }
  o.sync = cuda_int(L, opts, "sync", o.sync, 0, 1);
  o.sync_spins = cuda_int(L, opts, "sync_spins", o.sync_spins, 1, 1 << 30);
  o.place = cuda_int(L, opts, "place", o.place, 0, 1);
  o.pre_stress = cuda_int(L, opts, "pre_stress", o.pre_stress, 0, 1 << 20);
  o.stress_lines =
      cuda_int(L, opts, "stress_lines", o.stress_lines, 1, 1 << 16);
  o.line_words = cuda_int(L, opts, "line_words", o.line_words, 1, 1024);
  o.delay = cuda_int(L, opts, "delay", o.delay, 0, 1 << 20);
  o.gap = cuda_int(L, opts, "gap", o.gap, 0, 1 << 20);
  o.blocks = cuda_int(L, opts, "blocks", o.blocks, 1, 1 << 20);
  o.threads = cuda_int(L, opts, "threads", o.threads, 1, 1024);
  o.launches = cuda_int(L, opts, "launches", o.launches, 1, 1 << 30);
  o.stress_blocks = cuda_int(L, opts, "stress", o.stress_blocks, 0, 1 << 16);
  o.stress_iters =
      cuda_int(L, opts, "stress_iters", o.stress_iters, 0, 1 << 30);
  o.spacing = cuda_int(L, opts, "spacing", o.spacing, 1, 1024);
  o.seed = (uint64_t)cuda_int(L, opts, "seed", 1, 0, 0x7fffffff);
  o.budget = cuda_int(L, opts, "budget", o.budget, 1, 1 << 30);
  o.rounds = cuda_int(L, opts, "rounds", o.rounds, 1, 1 << 20);
  o.stream = cuda_int(L, opts, "stream", o.stream, 0, 1 << 20);
  if (opts != 0) {
    if (lua_getfield(L, opts, "shuffle") != LUA_TNIL)
      o.no_shuffle = !lua_toboolean(L, -1);
    lua_pop(L, 1);
    if (lua_getfield(L, opts, "sm") != LUA_TNIL) {
      const char *s = lua_tostring(L, -1);
      if (lua_type(L, -1) != LUA_TSTRING ||
          (strcmp(s, "any") != 0 && strcmp(s, "same") != 0 &&
           strcmp(s, "different") != 0))
        return luaL_error(L, "cuda: sm must be \"any\", \"same\" or "
                             "\"different\"");
      o.sm = s[0] == 'a'   ? WL_CUDA_SM_ANY
             : s[0] == 's' ? WL_CUDA_SM_SAME
                           : WL_CUDA_SM_DIFFERENT;
    }
    lua_pop(L, 1);
  }
  rc = wl_cuda_emit(t->ctx, t->lt, &o, collect, &k);
  if (rc != 0)
    return luaL_error(L, "cuda: %s", wl_ctx_errmsg(t->ctx));
  len = k.n;
  k.p = lua_newuserdatauv(L, len + 1, 0);
  k.n = 0;
  k.cap = len;
  rc = wl_cuda_emit(t->ctx, t->lt, &o, collect, &k);
  if (rc != 0 || k.n != len)
    return luaL_error(L, "cuda: %s",
                      rc ? wl_ctx_errmsg(t->ctx) : "the text changed");
  lua_pushlstring(L, k.p, len);
  return 1;
}
