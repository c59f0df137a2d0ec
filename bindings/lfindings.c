/* lfindings.c -- a result's findings as Lua values: r.race and r.hang
 * (false when the search found nothing, nil when it did not run). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lwarplab.h"

/* A growing C string the engine writes into (no Lua call can raise
 * while the engine writes). */
typedef struct text {
  char *p;
  size_t n, cap;
  int oom;
} text;

static int text_write(void *ud, const char *s, size_t n) {
  text *t = ud;
  if (t->n + n + 1 > t->cap) {
    size_t cap = (t->n + n + 1) * 2;
    char *p = realloc(t->p, cap);
    if (p == NULL) {
      t->oom = 1;
      return -1;
    }
    t->p = p;
    t->cap = cap;
  }
  memcpy(t->p + t->n, s, n);
  t->n += n;
  t->p[t->n] = '\0';
  return 0;
}

static const char *sem_word(int s) {
  static const char *w[] = {"weak",    "relaxed", "acquire",
                            "release", "acq_rel", "sc"};
  return s >= 0 && s < 6 ? w[s] : "?";
}

static const char *scope_word(int s) {
  static const char *w[] = {"", "cta", "gpu", "sys"};
  return s > 0 && s < 4 ? w[s] : NULL;
}

static void push_thread(lua_State *L, int th) {
  char name[24];
  snprintf(name, sizeof name, "P%d", th);
  lua_pushinteger(L, th);
  lua_setfield(L, -2, "thread");
  lua_pushstring(L, name);
  lua_setfield(L, -2, "name");
}

/* { location = "x", accesses = { a, b }, a, b } with a = { thread = 0,
 * name = "P0", event = 2, kind = "W", sem = "weak", scope = "", line =
 * 6, value = 1 }, fix = "what would order the pair" (the JSON's fields;
 * the accesses also at [1] and [2]) */
void wll_push_race(lua_State *L, const wl_result *r, const wl_litmus *t) {
  wl_race_info ri;
  int k, has = wl_result_race(r, &ri);
  if (has < 0) {
    lua_pushnil(L);
    return;
  }
  if (has == 0) {
    lua_pushboolean(L, 0);
    return;
  }
  lua_createtable(L, 2, 2);
  lua_pushstring(L, wl_litmus_location_name(t, ri.loc));
  lua_setfield(L, -2, "location");
  lua_createtable(L, 2, 0);
  lua_setfield(L, -2, "accesses");
  for (k = 0; k < 2; k++) {
    const wl_race_access *a = &ri.a[k];
    char kind[2] = {(char)a->kind, 0};
    lua_createtable(L, 0, 8);
    push_thread(L, a->thread);
    lua_pushinteger(L, a->index);
    lua_setfield(L, -2, "event");
    lua_pushstring(L, kind);
    lua_setfield(L, -2, "kind");
    lua_pushstring(L, sem_word(a->sem));
    lua_setfield(L, -2, "sem");
    lua_pushstring(L, a->sem != WL_SEM_WEAK && scope_word(a->scope) != NULL
                          ? scope_word(a->scope)
                          : "");
    lua_setfield(L, -2, "scope");
    lua_pushinteger(L, a->line);
    lua_setfield(L, -2, "line");
    wll_push_carrier(L, wl_litmus_location_type(t, ri.loc), a->value);
    lua_setfield(L, -2, "value");
    lua_getfield(L, -2, "accesses");
    lua_pushvalue(L, -2);
    lua_rawseti(L, -2, k + 1);
    lua_pop(L, 1);
    lua_rawseti(L, -2, k + 1);
  }
  { /* what would order the pair (the Race line's end) */
    text fx = {NULL, 0, 0, 0};
    int rc = wl_result_write_race_fix(r, text_write, &fx);
    if (rc == 0 && fx.p != NULL)
      lua_pushlstring(L, fx.p, fx.n);
    else
      lua_pushliteral(L, "");
    free(fx.p);
    lua_setfield(L, -2, "fix");
  }
}

/* { kind = "spin"|"barrier", thread = 1, name = "P1", line = 14,
 *   barrier = id, reads = { { location = "f", value = 1 } },
 *   threads = { { name = "P0", status = "ends" }, ... } } */
void wll_push_hang(lua_State *L, const wl_result *r, const wl_litmus *t) {
  static const char *st[] = {"ends", "spins", "waits"};
  wl_hang_info h;
  int k, has = wl_result_hang(r, &h);
  if (has < 0) {
    lua_pushnil(L);
    return;
  }
  if (has == 0) {
    lua_pushboolean(L, 0);
    return;
  }
  lua_createtable(L, 0, 7);
  lua_pushstring(L, h.kind == WL_HANG_SPIN ? "spin" : "barrier");
  lua_setfield(L, -2, "kind");
  push_thread(L, h.thread);
  lua_pushinteger(L, h.line);
  lua_setfield(L, -2, "line");
  if (h.kind == WL_HANG_BARRIER) {
    lua_pushinteger(L, (lua_Integer)h.barrier);
    lua_setfield(L, -2, "barrier");
  }
  lua_createtable(L, h.nreads, 0);
  for (k = 0; k < h.nreads; k++) {
    lua_createtable(L, 0, 2);
    lua_pushstring(L, wl_litmus_location_name(t, h.loc[k]));
    lua_setfield(L, -2, "location");
    wll_push_carrier(L, wl_litmus_location_type(t, h.loc[k]), h.value[k]);
    lua_setfield(L, -2, "value");
    lua_rawseti(L, -2, k + 1);
  }
  lua_setfield(L, -2, "reads");
  lua_createtable(L, h.nthreads, 0);
  for (k = 0; k < h.nthreads; k++) {
    lua_createtable(L, 0, 4);
    push_thread(L, k);
    lua_pushstring(L, st[h.status[k] % 3]);
    lua_setfield(L, -2, "status");
    if (h.status[k]) {
      lua_pushinteger(L, h.at_line[k]);
      lua_setfield(L, -2, "line");
    }
    lua_rawseti(L, -2, k + 1);
  }
  lua_setfield(L, -2, "threads");
}
