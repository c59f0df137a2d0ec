/* lkworker.c -- a pool worker's Lua state for kernels (dev:runs,
 * lkruns.c; split launches, lksplit.c): the standard libraries and the
 * warplab module, the globals it had when made kept as its base, and
 * the script's globals that crossed in a pack (lkpack.c) set over them.
 * What a run or a launch leaves in the globals goes before the next
 * (wll_worker_reset), so that none depends on which worker ran what. */
#include <lualib.h>

#include "lkernel.h"

int luaopen_warplab(lua_State *L);

/* The registry key of a worker's base: its globals when made, name ->
 * value. */
static const char base_key = 0;

int wll_worker_build(lua_State *W) {
  lua_settop(W, 0);
  luaL_openlibs(W);
  luaL_requiref(W, "warplab", luaopen_warplab, 0);
  lua_pop(W, 1);
  lua_newtable(W);
  lua_rawgeti(W, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
  lua_pushnil(W);
  while (lua_next(W, -2) != 0) {
    lua_pushvalue(W, -2);
    lua_insert(W, -2);
    lua_rawset(W, -5); /* name -> its value */
  }
  lua_pop(W, 1);
  lua_rawsetp(W, LUA_REGISTRYINDEX, &base_key);
  return 0;
}

void wll_worker_reset(lua_State *W) {
  int g;
  lua_rawgeti(W, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
  g = lua_gettop(W);
  lua_rawgetp(W, LUA_REGISTRYINDEX, &base_key);
  /* the names it did not have go (set to nil while traversing:
   * allowed), then the base's values come back */
  lua_pushnil(W);
  while (lua_next(W, g) != 0) {
    lua_pop(W, 1);
    lua_pushvalue(W, -1);
    if (lua_rawget(W, g + 1) == LUA_TNIL) {
      lua_pushvalue(W, -2);
      lua_pushnil(W);
      lua_rawset(W, g);
    }
    lua_pop(W, 1);
  }
  wll_worker_globals(W, g + 1);
  lua_settop(W, g - 1);
}

void wll_worker_globals(lua_State *W, int idx) {
  idx = lua_absindex(W, idx);
  lua_rawgeti(W, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
  lua_pushnil(W);
  while (lua_next(W, idx) != 0) {
    lua_pushvalue(W, -2);
    lua_insert(W, -2);
    lua_rawset(W, -4);
  }
  lua_pop(W, 1);
}
