/* lmempool.c -- a Lua state's allocator of small blocks (lmempool.h).
 *
 * Kernels create many short-lived objects (warp-vector kernels a lane
 * vector per operation), and malloc/free were a tenth of their time.
 * Blocks up to POOL_MAX bytes come from free lists by 16-byte size
 * class, carved out of 256 KiB chunks; larger ones go to
 * realloc/free.  Each state has its own pool and is used by one thread
 * at a time, so the pool needs no lock. */
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "lmempool.h"

#define POOL_MAX 512
#define POOL_CHUNK (256 * 1024)

typedef struct pool_blk {
  struct pool_blk *next;
} pool_blk;
typedef struct pool_chunk {
  struct pool_chunk *next;
} pool_chunk;
typedef struct pool {
  pool_blk *free[POOL_MAX / 16 + 1];
  pool_chunk *chunks;
  char *cur; /* unused part of the newest chunk */
  size_t left;
  int warn_on, warn_cont; /* the state's warn(): "@on", a message going
                           * on */
} pool;

static size_t pool_class(size_t n) { return (n + 15) / 16; }

static void *pool_get(pool *P, size_t c) {
  pool_blk *b = P->free[c];
  size_t sz = c * 16;
  if (b != NULL) {
    P->free[c] = b->next;
    /* the class's next block, for the next allocation: a block freed a
     * while ago is out of the L1 cache, and reading its link was most
     * of the pool's time (warp-vector kernels make a lane vector per
     * operation) */
    if (b->next != NULL)
      __builtin_prefetch(b->next, 1);
    return b;
  }
  if (P->left < sz) {
    pool_chunk *k = malloc(POOL_CHUNK);
    if (k == NULL)
      return NULL;
    k->next = P->chunks;
    P->chunks = k;
    P->cur = (char *)k + 16;
    P->left = POOL_CHUNK - 16;
  }
  b = (pool_blk *)(void *)P->cur;
  P->cur += sz;
  P->left -= sz;
  return b;
}

static void pool_put(pool *P, void *p, size_t c) {
  pool_blk *b = p;
  b->next = P->free[c];
  P->free[c] = b;
}

static void *pool_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  pool *P = ud;
  size_t oc, nc;
  if (ptr == NULL)
    osize = 0; /* then osize names the kind of object, not a size */
  oc = osize > 0 && osize <= POOL_MAX ? pool_class(osize) : 0;
  nc = nsize > 0 && nsize <= POOL_MAX ? pool_class(nsize) : 0;
  if (nsize == 0) {
    if (ptr != NULL) {
      if (oc)
        pool_put(P, ptr, oc);
      else
        free(ptr);
    }
    return NULL;
  }
  if (ptr != NULL && oc == 0 && nc == 0)
    return realloc(ptr, nsize);
  if (ptr != NULL && oc != 0 && oc == nc)
    return ptr;
  {
    void *q = nc ? pool_get(P, nc) : malloc(nsize);
    if (q == NULL)
      return NULL; /* Lua keeps ptr */
    if (ptr != NULL) {
      memcpy(q, ptr, osize < nsize ? osize : nsize);
      if (oc)
        pool_put(P, ptr, oc);
      else
        free(ptr);
    }
    return q;
  }
}

static void pool_release(pool *P) {
  while (P->chunks != NULL) {
    pool_chunk *k = P->chunks;
    P->chunks = k->next;
    free(k);
  }
  free(P);
}

/* luaL_newstate's panic function, in words of its own */
static int panic(lua_State *L) {
  const char *msg = lua_tostring(L, -1);
  lua_writestringerror("PANIC: unprotected error in call to Lua API (%s)\n",
                       msg ? msg : "error object is not a string");
  return 0; /* Lua aborts */
}

/* Lua's warn(): off until "@on", as luaL_newstate's */
static void warnf(void *ud, const char *msg, int tocont) {
  pool *P = ud;
  if (!P->warn_cont && msg[0] == '@') {
    if (strcmp(msg, "@on") == 0)
      P->warn_on = 1;
    else if (strcmp(msg, "@off") == 0)
      P->warn_on = 0;
    return;
  }
  if (P->warn_on) {
    if (!P->warn_cont)
      lua_writestringerror("%s", "Lua warning: ");
    lua_writestringerror("%s", msg);
    if (!tocont)
      lua_writestringerror("%s", "\n");
  }
  P->warn_cont = tocont;
}

lua_State *wll_newstate(void) {
  pool *P;
  lua_State *L;
  if (getenv("WARPLAB_NO_POOL") != NULL)
    return luaL_newstate();
  if ((P = calloc(1, sizeof *P)) == NULL)
    return NULL;
  if ((L = lua_newstate(pool_alloc, P)) == NULL) {
    pool_release(P);
    return NULL;
  }
  lua_atpanic(L, panic);
  lua_setwarnf(L, warnf, P);
  return L;
}

int wll_state_pooled(lua_State *L) {
  void *ud;
  return lua_getallocf(L, &ud) == pool_alloc;
}

void wll_closestate(lua_State *L) {
  void *ud;
  int pooled = lua_getallocf(L, &ud) == pool_alloc;
  lua_close(L);
  if (pooled)
    pool_release(ud);
}
