/* lmempool.h -- Lua states whose small blocks come from size-class free
 * lists (lmempool.c): the script's state of `warplab run` and the pool
 * workers' states of dev:runs and split launches.  Not installed. */
#ifndef LMEMPOOL_H
#define LMEMPOOL_H

#include <lua.h>

#if defined(__GNUC__)
#define WLL_MEMPOOL_HIDDEN __attribute__((visibility("hidden")))
#else
#define WLL_MEMPOOL_HIDDEN
#endif

/* A new Lua state allocating from its own pool (one state a pool: no
 * lock), with luaL_newstate's panic and warning functions; under
 * WARPLAB_NO_POOL (valgrind, tests/check.sh) a plain luaL_newstate.
 * NULL when out of memory.  Close it with wll_closestate. */
WLL_MEMPOOL_HIDDEN lua_State *wll_newstate(void);
/* Closes L and frees its pool. */
WLL_MEMPOOL_HIDDEN void wll_closestate(lua_State *L);
/* Whether L allocates from a pool of wll_newstate. */
WLL_MEMPOOL_HIDDEN int wll_state_pooled(lua_State *L);

#endif
