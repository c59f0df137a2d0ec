/* llitmus.c -- wl.litmus{...}: a litmus test from a Lua table (its
 * locations, their types and aliases, the threads as instruction strings
 * or functions, their placement, and the condition), built into a
 * warplab.Test (lwarplab.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lwarplab.h"

static int64_t checkvalue(lua_State *L, int idx, const char *what,
                          const char *name) {
  int isnum;
  lua_Integer v;
  if (lua_type(L, idx) == LUA_TBOOLEAN)
    return lua_toboolean(L, idx);
  v = lua_tointegerx(L, idx, &isnum);
  if (!isnum || lua_type(L, idx) != LUA_TNUMBER)
    luaL_error(L, "wl.litmus: %s '%s' must be an integer, not %s", what, name,
               lua_type(L, idx) == LUA_TNUMBER ? "a fraction"
                                               : luaL_typename(L, idx));
  return (int64_t)v;
}

/* Declares the locations of an init/shared table (at idx), in the
 * order of their names so that runs replay. */
static const char *const type_words[] = {"int64", "int32",  "uint32",
                                         "float", "double", NULL};

/* The declared type of location (or array) name: types[name], checked
 * against the words above; WL_TYPE_INT64 when not declared. */
static int type_of(lua_State *L, int types, const char *name) {
  int k, ty = WL_TYPE_INT64;
  if (types == 0)
    return ty;
  if (lua_getfield(L, types, name) != LUA_TNIL) {
    const char *w = lua_tostring(L, -1);
    for (k = 0; w != NULL && type_words[k] != NULL; k++)
      if (strcmp(w, type_words[k]) == 0)
        break;
    if (w == NULL || type_words[k] == NULL)
      luaL_error(L,
                 "wl.litmus: types.%s: unknown type '%s' (expected "
                 "\"int64\", \"int32\", \"uint32\", \"float\" or "
                 "\"double\")",
                 name, w ? w : luaL_typename(L, -1));
    ty = k;
  }
  lua_pop(L, 1);
  return ty;
}

/* An initial value of a location of type ty, as its int64 carrier. */
static int64_t typed_init(lua_State *L, int idx, int ty, const char *what,
                          const char *name) {
  if (ty == WL_TYPE_FLOAT || ty == WL_TYPE_DOUBLE) {
    if (lua_type(L, idx) != LUA_TNUMBER)
      luaL_error(L, "wl.litmus: %s '%s' must be a number, not %s", what, name,
                 luaL_typename(L, idx));
    return wl_value_from_double(ty, lua_tonumber(L, idx));
  }
  {
    int64_t v = checkvalue(L, idx, what, name);
    if ((ty == WL_TYPE_INT32 && (v < INT32_MIN || v > INT32_MAX)) ||
        (ty == WL_TYPE_UINT32 && (v < 0 || v > (int64_t)UINT32_MAX)))
      luaL_error(L, "wl.litmus: %s '%s' = %I does not fit in %s", what, name,
                 (lua_Integer)v, type_words[ty]);
    return v;
  }
}

/* Whether the value at idx declares a PTX 7.5 alias:
 * { aliases = "x" [, proxy = "generic"|"surface"|"texture"|"constant"] }
 * (the .litmus line "y @ <proxy> aliases x"). */
static int is_alias_decl(lua_State *L, int idx) {
  int r;
  if (!lua_istable(L, idx))
    return 0;
  r = lua_getfield(L, idx, "aliases") != LUA_TNIL;
  lua_pop(L, 1);
  return r;
}

/* Checks the alias declaration of name at the top of the stack; gives
 * its target (anchored by the declaration) and proxy. */
static const char *alias_decl(lua_State *L, const char *name, int *proxy) {
  static const char *const proxies[] = {"generic", "surface", "texture",
                                        "constant", NULL};
  const char *target;
  int k;
  static const char *const keys[] = {"aliases", "proxy", NULL};
  lua_pushfstring(L, "wl.litmus: alias '%s'", name);
  wll_checkopts(L, -2, lua_tostring(L, -1), keys, 0);
  lua_pop(L, 1);
  lua_getfield(L, -1, "aliases");
  if (lua_type(L, -1) != LUA_TSTRING)
    luaL_error(L,
               "wl.litmus: alias '%s': 'aliases' must name a location, not "
               "%s",
               name, luaL_typename(L, -1));
  target = lua_tostring(L, -1);
  lua_pop(L, 1);
  *proxy = WL_PROXY_GEN;
  if (lua_getfield(L, -1, "proxy") != LUA_TNIL) {
    const char *w = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1)
                                                    : NULL;
    for (k = 0; w != NULL && proxies[k] != NULL; k++)
      if (strcmp(w, proxies[k]) == 0)
        break;
    if (w == NULL || proxies[k] == NULL)
      luaL_error(L,
                 "wl.litmus: alias '%s': unknown proxy '%s' (expected "
                 "\"generic\", \"surface\", \"texture\" or "
                 "\"constant\")",
                 name, w ? w : luaL_typename(L, -1));
    *proxy = k; /* WL_PROXY_* are in the order of proxies[] */
  }
  lua_pop(L, 1);
  return target;
}

/* Declares the aliases of init (at idx) once their targets are: each
 * time the first by name whose target is declared, so that runs
 * replay. */
static void add_aliases(lua_State *L, wll_test *t, int idx) {
  idx = lua_absindex(L, idx);
  if (!lua_istable(L, idx))
    return;
  for (;;) {
    const char *best = NULL, *first = NULL, *ftarget = NULL;
    int rc, proxy = 0;
    lua_pushnil(L);
    while (lua_next(L, idx) != 0) {
      const char *name = lua_tostring(L, -2), *target;
      int px;
      if (!is_alias_decl(L, -1) || wl_litmus_alias(t->lt, name) >= 0) {
        lua_pop(L, 1);
        continue;
      }
      target = alias_decl(L, name, &px);
      if (first == NULL || strcmp(name, first) < 0) {
        first = name;
        ftarget = target;
      }
      if (wl_litmus_location(t->lt, target) >= 0 &&
          (best == NULL || strcmp(name, best) < 0)) {
        best = name;
        proxy = px;
      }
      lua_pop(L, 1);
    }
    if (first == NULL)
      return;
    if (best == NULL)
      luaL_error(L,
                 "wl.litmus: alias '%s' aliases '%s', which is no location "
                 "of init or shared",
                 first, ftarget);
    lua_getfield(L, idx, best);
    {
      const char *target = alias_decl(L, best, &proxy);
      rc = wl_litmus_add_alias(t->lt, best, proxy, target, NULL);
    }
    if (rc != 0)
      luaL_error(L, "wl.litmus: alias '%s': %s", best,
                 wl_ctx_errmsg(t->ctx)[0] ? wl_ctx_errmsg(t->ctx)
                                          : wl_strerror(rc));
    lua_pop(L, 1);
  }
}

static void add_memory(lua_State *L, wll_test *t, int idx, int ttab,
                       const char *field, int types) {
  const char *prev = NULL;
  idx = lua_absindex(L, idx);
  if (lua_isnil(L, idx))
    return;
  if (!lua_istable(L, idx))
    luaL_error(L, "wl.litmus: '%s' must be a table of locations, not %s", field,
               luaL_typename(L, idx));
  for (;;) {
    /* the smallest name after prev (tests have at most 64 locations) */
    const char *best = NULL;
    lua_pushnil(L);
    while (lua_next(L, idx) != 0) {
      const char *k;
      lua_pop(L, 1);
      if (lua_type(L, -1) != LUA_TSTRING)
        luaL_error(L, "wl.litmus: '%s' has a key that is not a name (%s)",
                   field, luaL_typename(L, -1));
      k = lua_tostring(L, -1);
      if ((prev == NULL || strcmp(k, prev) > 0) &&
          (best == NULL || strcmp(k, best) < 0))
        best = k; /* anchored by the table at idx */
    }
    if (best == NULL)
      break;
    prev = best;
    lua_getfield(L, idx, best);
    if (is_alias_decl(L, -1)) {
      if (strcmp(field, "init") != 0)
        luaL_error(L, "wl.litmus: alias '%s' belongs in init, not %s", best,
                   field);
      lua_pop(L, 1);
      continue; /* add_aliases declares it */
    } else if (lua_istable(L, -1)) {
      lua_Integer i, n = luaL_len(L, -1);
      if (n < 1)
        luaL_error(L, "wl.litmus: array '%s' is empty", best);
      for (i = 0; i < n; i++) {
        const char *nm = lua_pushfstring(L, "%s[%I]", best, i);
        int64_t v;
        int rc;
        int ty = type_of(L, types, best), loc = -1;
        lua_geti(L, -2, i + 1);
        v = typed_init(L, -1, ty, "array element", nm);
        lua_pop(L, 1);
        rc = wl_litmus_add_location(t->lt, nm, v, &loc);
        if (rc == 0)
          rc = wl_litmus_set_type(t->lt, loc, ty);
        if (rc == 0 && strcmp(field, "shared") == 0)
          rc = wl_litmus_set_shared(t->lt, loc, 1);
        if (rc != 0)
          luaL_error(L, "wl.litmus: location '%s': %s", nm,
                     wl_ctx_errmsg(t->ctx)[0] ? wl_ctx_errmsg(t->ctx)
                                              : wl_strerror(rc));
        lua_pop(L, 1);
      }
      lua_getfield(L, ttab, "arrays");
      lua_pushinteger(L, n);
      lua_setfield(L, -2, best);
      lua_pop(L, 1);
    } else {
      int rc, loc = -1, ty = type_of(L, types, best);
      int64_t v = typed_init(L, -1, ty, "location", best);
      rc = wl_litmus_add_location(t->lt, best, v, &loc);
      if (rc == 0)
        rc = wl_litmus_set_type(t->lt, loc, ty);
      if (rc == 0 && strcmp(field, "shared") == 0)
        rc = wl_litmus_set_shared(t->lt, loc, 1);
      if (rc != 0)
        luaL_error(L, "wl.litmus: location '%s': %s", best,
                   wl_ctx_errmsg(t->ctx)[0] ? wl_ctx_errmsg(t->ctx)
                                            : wl_strerror(rc));
    }
    lua_pop(L, 1);
    if (strcmp(field, "shared") == 0) {
      lua_getfield(L, ttab, "shared");
      lua_pushboolean(L, 1);
      lua_setfield(L, -2, best);
      lua_pop(L, 1);
    }
  }
}

/* "cta1", "cta1,gpu1", "cta 1, gpu 0, warp 2", or {cta=, gpu=, warp=} */
static void placement(lua_State *L, int idx, int n, int *cta, int *gpu,
                      int *warp) {
  idx = lua_absindex(L, idx);
  if (lua_type(L, idx) == LUA_TSTRING) {
    const char *s = lua_tostring(L, idx), *p = s;
    while (*p) {
      int *dst;
      long v;
      char *end;
      while (*p == ' ' || *p == ',' || *p == '\t')
        p++;
      if (*p == '\0')
        break;
      if (strncmp(p, "cta", 3) == 0)
        dst = cta, p += 3;
      else if (strncmp(p, "gpu", 3) == 0)
        dst = gpu, p += 3;
      else if (strncmp(p, "warp", 4) == 0)
        dst = warp, p += 4;
      else
        dst = NULL;
      while (dst != NULL && *p == ' ')
        p++;
      v = dst != NULL ? strtol(p, &end, 10) : 0;
      if (dst == NULL || end == p || v < 0 || v > 1000000)
        luaL_error(L,
                   "wl.litmus: thread %d: bad placement '%s' (expected "
                   "e.g. \"cta1\", \"cta1,gpu0\" or "
                   "{cta=1, gpu=0, warp=0})",
                   n, s);
      *dst = (int)v;
      p = end;
    }
  } else if (lua_istable(L, idx)) {
    static const char *const keys[] = {"cta", "gpu", "warp", NULL};
    int *dsts[3];
    int k;
    lua_pushfstring(L, "wl.litmus: thread %d: at", n);
    wll_checkopts(L, idx, lua_tostring(L, -1), keys, 0);
    lua_pop(L, 1);
    dsts[0] = cta, dsts[1] = gpu, dsts[2] = warp;
    for (k = 0; k < 3; k++) {
      if (lua_getfield(L, idx, keys[k]) != LUA_TNIL) {
        int isnum;
        lua_Integer v = lua_tointegerx(L, -1, &isnum);
        if (!isnum || v < 0 || v > 1000000)
          luaL_error(L,
                     "wl.litmus: thread %d: at.%s must be a "
                     "non-negative integer",
                     n, keys[k]);
        *dsts[k] = (int)v;
      }
      lua_pop(L, 1);
    }
  } else if (!lua_isnil(L, idx)) {
    luaL_error(L,
               "wl.litmus: thread %d: 'at' must be a string or a table, "
               "not %s",
               n, luaL_typename(L, idx));
  }
}

static void engine_error(lua_State *L, wll_test *t, int rc, const char *what) {
  const char *m = wl_ctx_errmsg(t->ctx);
  if (m[0] == '\0')
    m = wl_strerror(rc);
  luaL_error(L, "%s%s", what, m);
}

/* One thread: a function, or a table of instruction strings / fn. */
static void add_thread(lua_State *L, wll_test *t, int idx, int n, int ttab,
                       const char *src, int line) {
  int cta = n - 1, gpu = 0, warp = 0, fnidx = 0, tid, rc, i;
  wll_thread *th;
  idx = lua_absindex(L, idx);
  if (t->nthreads >= WLL_MAX_THREADS)
    luaL_error(L, "wl.litmus: too many threads (at most %d)", WLL_MAX_THREADS);
  if (lua_isfunction(L, idx)) {
    fnidx = idx;
  } else if (lua_istable(L, idx)) {
    static const char *const keys[] = {"at", "fn", "regs", NULL};
    lua_pushfstring(L, "wl.litmus: thread %d", n);
    wll_checkopts(L, idx, lua_tostring(L, -1), keys, WLL_OPTS_ARRAY);
    lua_pop(L, 1);
    lua_getfield(L, idx, "at");
    placement(L, -1, n, &cta, &gpu, &warp);
    lua_pop(L, 1);
    if (lua_getfield(L, idx, "fn") != LUA_TNIL) {
      if (!lua_isfunction(L, -1))
        luaL_error(L, "wl.litmus: thread %d: 'fn' must be a function", n);
      if (luaL_len(L, idx) > 0)
        luaL_error(L,
                   "wl.litmus: thread %d: give either instructions or "
                   "fn, not both",
                   n);
      fnidx = lua_gettop(L);
    } else {
      lua_pop(L, 1);
    }
  } else {
    luaL_error(L,
               "wl.litmus: thread %d must be a function or a table of "
               "instructions, not %s",
               n, luaL_typename(L, idx));
  }
  if (cta > 1000000 || gpu > 1000000)
    luaL_error(L, "wl.litmus: thread %d: placement out of range", n);
  rc = wl_litmus_add_thread(t->lt, cta, gpu, &i);
  if (rc != 0)
    engine_error(L, t, rc, "wl.litmus: ");
  th = &t->th[t->nthreads++];
  th->test = t;
  th->index = i;
  th->cta = cta, th->gpu = gpu, th->warp = warp;
  for (tid = 0; tid < t->nthreads - 1; tid++) {
    wll_thread *o = &t->th[tid];
    if (o->cta == cta && o->gpu == gpu && o->warp == warp)
      th->tid++;
  }
  th->tid += warp * 32;
  if (th->tid + 1 > t->blockdim)
    t->blockdim = th->tid + 1;
  if (cta + 1 > t->griddim)
    t->griddim = cta + 1;
  if (fnidx) {
    lua_getfield(L, ttab, "fns");
    lua_pushvalue(L, fnidx);
    lua_rawseti(L, -2, i + 1);
    lua_pop(L, 1);
    lua_getfield(L, ttab, "devices");
    th->dev = wll_device_new(L, th, 2); /* the test */
    lua_rawseti(L, -2, i + 1);
    lua_pop(L, 1);
    rc = wl_litmus_set_thread_fn(t->lt, i, wll_thread_cb, th);
    if (rc != 0)
      engine_error(L, t, rc, "wl.litmus: ");
    /* one function given to several threads: they run one program, so
     * the explorer holds them to the same barriers (divergence) */
    lua_getfield(L, ttab, "fns");
    for (tid = 0; tid < i; tid++) {
      int same = lua_rawgeti(L, -1, tid + 1) == LUA_TFUNCTION &&
                 lua_rawequal(L, -1, fnidx);
      lua_pop(L, 1);
      if (same) {
        wl_litmus_set_thread_code(t->lt, tid, tid + 1);
        wl_litmus_set_thread_code(t->lt, i, tid + 1);
        break;
      }
    }
    lua_pop(L, 1);
  } else {
    lua_Integer j, len = luaL_len(L, idx);
    for (j = 1; j <= len; j++) {
      if (lua_geti(L, idx, j) != LUA_TSTRING)
        luaL_error(L,
                   "wl.litmus: thread %d, instruction %d: expected a "
                   "string, got %s",
                   n, (int)j, luaL_typename(L, -1));
      rc = wl_litmus_add_insn(t->lt, i, lua_tostring(L, -1), src, line);
      if (rc != 0)
        engine_error(L, t, rc, "");
      lua_pop(L, 1);
    }
    if (lua_getfield(L, idx, "regs") != LUA_TNIL) {
      luaL_checktype(L, -1, LUA_TTABLE);
      lua_pushnil(L);
      while (lua_next(L, -2) != 0) {
        const char *k = lua_tostring(L, -2);
        int64_t v;
        if (lua_type(L, -2) != LUA_TSTRING)
          luaL_error(L, "wl.litmus: thread %d: regs keys must be names", n);
        v = checkvalue(L, -1, "register", k);
        rc = wl_litmus_set_reg(t->lt, i, k, v);
        if (rc != 0)
          engine_error(L, t, rc, "wl.litmus: ");
        lua_pop(L, 1);
      }
    }
    lua_pop(L, 1);
  }
}

static const char *const cond_fields[] = {"exists", "not_exists", "forall",
                                          "condition", NULL};

/* The condition: a herd string, or a Lua predicate (kept in pred). */
static void set_condition(lua_State *L, wll_test *t, int spec, int ttab,
                          const char *src, int line) {
  int k, found = -1, rc, kind;
  for (k = 0; cond_fields[k] != NULL; k++) {
    if (lua_getfield(L, spec, cond_fields[k]) != LUA_TNIL) {
      if (found >= 0)
        luaL_error(L,
                   "wl.litmus: give one condition, not both '%s' and "
                   "'%s'",
                   cond_fields[found], cond_fields[k]);
      found = k;
    }
    lua_pop(L, 1);
  }
  if (found < 0)
    return;
  lua_getfield(L, spec, cond_fields[found]);
  kind = found == 0 || found == 3 ? WL_COND_EXISTS
         : found == 1             ? WL_COND_NOTEXISTS
                                  : WL_COND_FORALL;
  if (found == 3 && lua_istable(L, -1)) {
    int inner = lua_gettop(L), got = 0;
    for (k = 0; k < 3 && !got; k++) {
      if (lua_getfield(L, inner, cond_fields[k]) != LUA_TNIL) {
        got = 1;
        kind = k == 0   ? WL_COND_EXISTS
               : k == 1 ? WL_COND_NOTEXISTS
                        : WL_COND_FORALL;
      } else {
        lua_pop(L, 1);
      }
    }
    if (!got || !lua_isfunction(L, -1))
      luaL_error(L, "wl.litmus: condition table must be {exists=fn}, "
                    "{not_exists=fn} or {forall=fn}");
    lua_replace(L, inner);
  }
  if (lua_isfunction(L, -1)) {
    t->pred = kind;
    lua_setfield(L, ttab, "pred");
    return;
  }
  if (lua_type(L, -1) != LUA_TSTRING)
    luaL_error(L, "wl.litmus: '%s' must be a string or a function, not %s",
               cond_fields[found], luaL_typename(L, -1));
  if (found == 3)
    lua_pushvalue(L, -1);
  else
    lua_pushfstring(L, "%s (%s)",
                    found == 0   ? "exists"
                    : found == 1 ? "~exists"
                                 : "forall",
                    lua_tostring(L, -1));
  rc = wl_litmus_set_condition(t->lt, lua_tostring(L, -1), src, line);
  if (rc != 0)
    engine_error(L, t, rc, "");
  lua_pop(L, 2);
}

int wll_litmus(lua_State *L) {
  static const char *const known[] = {"name",      "init",       "shared",
                                      "exists",    "not_exists", "forall",
                                      "condition", "types",      "homes",
                                      NULL};
  const char *name = "test";
  int types;
  char src[256];
  int line, ttab, rc;
  lua_Integer i, n;
  wll_test *t;
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  wll_where(L, src, sizeof src, &line);
  /* check the fields first: a typo is an error (the threads are the
   * array part) */
  wll_checkopts(L, 1, "wl.litmus", known, WLL_OPTS_ARRAY);
  if (lua_getfield(L, 1, "name") != LUA_TNIL) {
    if (lua_type(L, -1) != LUA_TSTRING)
      luaL_error(L, "wl.litmus: 'name' must be a string");
    name = lua_tostring(L, -1);
  }
  t = wll_test_box(L); /* 3 */
  rc = wl_litmus_new(t->ctx, name, &t->lt);
  if (rc == 0)
    rc = wl_litmus_set_source(t->lt, src); /* messages name the script */
  if (rc != 0)
    engine_error(L, t, rc, "wl.litmus: ");
  lua_replace(L, 2); /* the test at 2 */
  lua_settop(L, 2);
  wll_testtable(L, 2);
  ttab = lua_gettop(L);
  lua_newtable(L);
  lua_setfield(L, ttab, "fns");
  lua_newtable(L);
  lua_setfield(L, ttab, "devices");
  lua_newtable(L);
  lua_setfield(L, ttab, "arrays");
  lua_newtable(L);
  lua_setfield(L, ttab, "shared");
  lua_getfield(L, 1, "types");
  types = lua_gettop(L);
  if (lua_isnil(L, types))
    types = 0;
  else if (!lua_istable(L, types))
    luaL_error(L,
               "wl.litmus: 'types' must be a table (name = \"float\", "
               "...), not %s",
               luaL_typename(L, types));
  lua_getfield(L, 1, "init");
  add_memory(L, t, -1, ttab, "init", types);
  lua_pop(L, 1);
  lua_getfield(L, 1, "shared");
  add_memory(L, t, -1, ttab, "shared", types);
  lua_pop(L, 1);
  lua_getfield(L, 1, "init");
  add_aliases(L, t, -1);
  lua_pop(L, 1);
  if (types != 0) {
    /* every typed name must be a declared location or array */
    lua_pushnil(L);
    while (lua_next(L, types) != 0) {
      const char *tk;
      int found;
      lua_pop(L, 1);
      if (lua_type(L, -1) != LUA_TSTRING)
        luaL_error(L, "wl.litmus: 'types' has a key that is not a name");
      tk = lua_tostring(L, -1);
      found = wl_litmus_location(t->lt, tk) >= 0;
      if (!found) {
        found = wl_litmus_location(t->lt, lua_pushfstring(L, "%s[0]", tk)) >= 0;
        lua_pop(L, 1);
      }
      if (!found)
        luaL_error(L,
                   "wl.litmus: types.%s names no location in init or "
                   "shared",
                   tk);
    }
  }
  if (lua_getfield(L, 1, "homes") != LUA_TNIL) {
    /* homes = { x = 1 }: the GPU whose memory holds x ("x = 0 @ gpu 1") */
    if (!lua_istable(L, -1))
      luaL_error(L, "wl.litmus: 'homes' must be a table (name = gpu, ...), "
                    "not %s",
                 luaL_typename(L, -1));
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
      const char *hk;
      int loc;
      if (lua_type(L, -2) != LUA_TSTRING)
        luaL_error(L, "wl.litmus: 'homes' has a key that is not a name");
      hk = lua_tostring(L, -2);
      if ((loc = wl_litmus_location(t->lt, hk)) < 0)
        luaL_error(L, "wl.litmus: homes.%s names no location in init", hk);
      if (!lua_isinteger(L, -1) ||
          wl_litmus_set_home(t->lt, loc, (int)lua_tointeger(L, -1)) != 0)
        luaL_error(L, "wl.litmus: homes.%s must be a GPU number 0..7", hk);
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  n = luaL_len(L, 1);
  if (n < 1)
    luaL_error(L, "wl.litmus: a test needs at least one thread");
  for (i = 1; i <= n; i++) {
    lua_geti(L, 1, i);
    add_thread(L, t, -1, (int)i, ttab, src, line);
    lua_settop(L, ttab);
  }
  set_condition(L, t, 1, ttab, src, line);
  lua_settop(L, 2);
  return 1;
}
