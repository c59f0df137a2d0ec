/* lwlanes.h -- lane vectors (userdata "warplab.Lanes": a number for each
 * of a warp's 32 lanes), what lwlanes.c (the values, their arithmetic and
 * comparisons, their methods) shares with lwarpvec.c (the warp-vector
 * kernels that compute with them).  Not installed. */
#ifndef LWLANES_H
#define LWLANES_H

#include "lwarplab.h"

#define WLL_LANES "warplab.Lanes"
#define WLL_LANES_ALL 0xffffffffu

typedef union wll_lane {
  lua_Integer i;
  lua_Number n;
} wll_lane;

struct wll_lanes {
  /* &wll_lanes_tag in every lane vector: with the userdata's size, what
   * tells a lane vector from other userdata in two API calls (the
   * metatable's pointer took four, on every operand of every operation;
   * no other userdata of warplab's has this size and this first field,
   * and Lua code cannot write a userdata's bytes) */
  const void *tag;
  uint32_t valid; /* lanes that hold a value */
  uint32_t isint; /* of those, the lanes holding an integer */
  wll_lane v[32];
};

WLL_HIDDEN extern const char wll_lanes_tag;

/* The lane vector at idx, or NULL (wll_lanes_to, inline). */
static inline wll_lanes *wll_lanes_at(lua_State *L, int idx) {
  wll_lanes *v;
  if (lua_type(L, idx) != LUA_TUSERDATA ||
      lua_rawlen(L, idx) != sizeof(wll_lanes))
    return NULL;
  v = lua_touserdata(L, idx);
  return v->tag == &wll_lanes_tag ? v : NULL;
}

/* The kstate: upvalue 1 of every function of lane vectors and of w. */
static inline wll_kstate *wll_lanes_ks(lua_State *L) {
  return lua_touserdata(L, lua_upvalueindex(1));
}

/* Lane k of v as a float. */
static inline lua_Number wll_lanes_num(const wll_lanes *v, int k) {
  return v->isint >> k & 1 ? (lua_Number)v->v[k].i : v->v[k].n;
}

/* Pushes a new vector without values, inside functions whose upvalue 2
 * is the metatable of lane vectors. */
WLL_HIDDEN wll_lanes *wll_lanes_push(lua_State *L);
/* The lane vector at idx, or NULL. */
WLL_HIDDEN wll_lanes *wll_lanes_to(lua_State *L, int idx);
/* The operand at idx as a vector: a number is broadcast into tmp; raises
 * for anything else. */
WLL_HIDDEN const wll_lanes *wll_lanes_operand(lua_State *L, int idx,
                                              wll_lanes *tmp);
/* Lane k as an integer, as Lua's bitwise operators convert (raises for a
 * float with no integer representation). */
WLL_HIDDEN lua_Integer wll_lanes_int(lua_State *L, const wll_lanes *v, int k);
/* Raises msg for lane k: a failure of its thread inside a kernel. */
WLL_HIDDEN int wll_lanes_error(lua_State *L, int k, const char *msg);
/* Pushes the metatable of lane vectors, its functions (re)set to see the
 * kstate at ks and the metatable itself (upvalues 1 and 2). */
WLL_HIDDEN void wll_lanes_open(lua_State *L, int ks);

#endif
