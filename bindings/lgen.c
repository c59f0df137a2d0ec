/* lgen.c -- wl.gen{...}: litmus tests from the generator (engine/gen/).
 *
 *   local tests, names = wl.gen { family = "MP", placements = "gpu" }
 *   for _, text in ipairs(wl.gen { random = true, threads = 3, count = 100,
 *                                  seed = 7 }) do
 *     local r = wl.parse(text):explore()
 *   end
 *
 * Exactly one of cycle = "EDGES", family = "NAME"|"all", edges = "LIST"
 * (with max_size), random = true or copies = true (interchangeable
 * threads, WL_GEN_COPIES: max_size the most writes); then sample, seed,
 * count (default: the whole enumeration, 10 when sampling, random or
 * copies), annotations,
 * placements, scopes and mix as lists of words (a string "weak,ra" or
 * a table {"weak", "ra"}), threads, insns, locs.  Returns the list of
 * texts and the list of their names.  The generator lives in a userdata
 * box made before it, so an error while the texts are pushed frees it. */
#include <string.h>

#include "lwarplab.h"

#define WLL_GEN "warplab.Gen"

typedef struct gbox {
  wl_ctx *ctx;
  wl_gen *g;
} gbox;

static int gbox_gc(lua_State *L) {
  gbox *b = luaL_checkudata(L, 1, WLL_GEN);
  wl_gen_free(b->g);
  wl_ctx_free(b->ctx);
  b->g = NULL;
  b->ctx = NULL;
  return 0;
}

/* The position of the word at the top of the stack in words[]; raises
 * naming the field and the valid words otherwise. */
static int check_word(lua_State *L, const char *k, const char *const words[]) {
  const char *s = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
  int i;
  luaL_Buffer b;
  for (i = 0; s != NULL && words[i] != NULL; i++)
    if (strcmp(words[i], s) == 0)
      return i;
  luaL_buffinit(L, &b);
  for (i = 0; words[i] != NULL; i++) {
    if (i > 0)
      luaL_addstring(&b, words[i + 1] != NULL ? ", " : " or ");
    luaL_addstring(&b, words[i]);
  }
  luaL_pushresult(&b);
  return luaL_error(L, "wl.gen: invalid %s '%s' (expected %s)", k,
                    s != NULL ? s : luaL_typename(L, -2), lua_tostring(L, -1));
}

/* Reads field k of the options (a string of words separated by commas,
 * or a table of words) into the bits of the words' positions. */
static unsigned word_field(lua_State *L, const char *k,
                           const char *const words[]) {
  unsigned bits = 0;
  int t = lua_getfield(L, 1, k);
  if (t == LUA_TNIL) {
    lua_pop(L, 1);
    return 0;
  }
  if (t == LUA_TTABLE) {
    lua_Integer i, n = luaL_len(L, -1);
    for (i = 1; i <= n; i++) {
      lua_geti(L, -1, i);
      bits |= 1u << check_word(L, k, words);
      lua_pop(L, 1);
    }
  } else if (t == LUA_TSTRING) {
    const char *p = lua_tostring(L, -1);
    while (*p != '\0') {
      size_t n = strcspn(p, ", ");
      if (n > 0) {
        lua_pushlstring(L, p, n);
        bits |= 1u << check_word(L, k, words);
        lua_pop(L, 1);
      }
      p += n;
      while (*p == ',' || *p == ' ')
        p++;
    }
  } else {
    luaL_error(L, "wl.gen: '%s' must be a string or a list of words, not %s",
               k, luaL_typename(L, -1));
  }
  lua_pop(L, 1);
  return bits;
}

static lua_Integer int_field(lua_State *L, const char *k, lua_Integer def) {
  lua_Integer v = def;
  int t = lua_getfield(L, 1, k);
  if (t != LUA_TNIL) {
    int isnum;
    v = lua_tointegerx(L, -1, &isnum);
    if (!isnum || t != LUA_TNUMBER)
      luaL_error(L, "wl.gen: '%s' must be an integer, not %s", k,
                 t == LUA_TNUMBER ? lua_tostring(L, -1) : luaL_typename(L, -1));
  }
  lua_pop(L, 1);
  return v;
}

/* A string field, kept on the stack (it must outlive the call); NULL
 * when absent. */
static const char *str_field(lua_State *L, const char *k) {
  int t = lua_getfield(L, 1, k);
  if (t == LUA_TNIL) {
    lua_pop(L, 1);
    return NULL;
  }
  if (t != LUA_TSTRING)
    luaL_error(L, "wl.gen: '%s' must be a string, not %s", k,
               luaL_typename(L, -1));
  return lua_tostring(L, -1);
}

static int l_gen(lua_State *L) {
  static const char *const ann_words[] = {"weak", "rlx", "ra", "mix", NULL};
  static const char *const place_words[] = {"cta", "gpu", "sys", "mix",
                                            NULL};
  static const char *const scope_words[] = {"cta", "gpu", "sys", NULL};
  static const char *const mix_words[] = {"weak", "relaxed", "acqrel",
                                          "atom", "red",     "fence",
                                          "dep",  "bar",     NULL};
  wl_gen_opts o;
  gbox *b;
  int modes = 0, rc;
  lua_Integer v;
  lua_Integer n = 0;
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  memset(&o, 0, sizeof o);
  /* 1. every option (may raise; nothing held) */
  if ((o.cycle = str_field(L, "cycle")) != NULL) {
    o.mode = WL_GEN_CYCLE;
    modes++;
  }
  if ((o.family = str_field(L, "family")) != NULL) {
    o.mode = WL_GEN_FAMILY;
    modes++;
  }
  if ((o.edges = str_field(L, "edges")) != NULL) {
    o.mode = WL_GEN_EDGES;
    modes++;
  }
  lua_getfield(L, 1, "random");
  if (lua_toboolean(L, -1)) {
    o.mode = WL_GEN_RANDOM;
    modes++;
  }
  lua_pop(L, 1);
  lua_getfield(L, 1, "copies");
  if (lua_toboolean(L, -1)) {
    o.mode = WL_GEN_COPIES;
    modes++;
  }
  lua_pop(L, 1);
  if (modes != 1)
    return luaL_error(L, "wl.gen: give one of cycle, family, edges, "
                         "random = true or copies = true");
  lua_getfield(L, 1, "sample");
  o.sample = lua_toboolean(L, -1);
  lua_pop(L, 1);
  o.seed = (uint64_t)int_field(L, "seed", 1);
  v = int_field(L, "count", o.sample || o.mode == WL_GEN_RANDOM ||
                                    o.mode == WL_GEN_COPIES
                                ? 10
                                : 0);
  if (v < 0)
    return luaL_error(L, "wl.gen: 'count' must not be negative");
  o.count = (uint64_t)v;
  if (o.count == 0 &&
      (o.sample || o.mode == WL_GEN_RANDOM || o.mode == WL_GEN_COPIES))
    return luaL_error(L, "wl.gen: sampling and random programs need a "
                         "count of at least 1");
  o.max_size = (int)int_field(L, "max_size", 0);
  o.threads = (int)int_field(L, "threads", 0);
  o.insns = (int)int_field(L, "insns", 0);
  o.locs = (int)int_field(L, "locs", 0);
  o.annotations = word_field(L, "annotations", ann_words);
  o.placements = word_field(L, "placements", place_words);
  o.scopes = word_field(L, "scopes", scope_words);
  o.mix = word_field(L, "mix", mix_words);
  /* 2. the box, then the engine objects */
  b = lua_newuserdatauv(L, sizeof *b, 0);
  b->ctx = NULL;
  b->g = NULL;
  luaL_setmetatable(L, WLL_GEN);
  if (wl_ctx_new(NULL, &b->ctx) != 0)
    return luaL_error(L, "wl.gen: out of memory");
  rc = wl_gen_new(b->ctx, &o, &b->g);
  if (rc != 0)
    return luaL_error(L, "wl.gen: %s", wl_ctx_errmsg(b->ctx));
  /* 3. the texts and names (a raise here leaves the box to __gc) */
  lua_newtable(L);
  lua_newtable(L);
  for (;;) {
    const char *text;
    size_t len;
    rc = wl_gen_next(b->g, &text, &len);
    if (rc != 0)
      return luaL_error(L, "wl.gen: %s", wl_ctx_errmsg(b->ctx));
    if (text == NULL)
      break;
    n++;
    lua_pushlstring(L, text, len);
    lua_rawseti(L, -3, n);
    lua_pushstring(L, wl_gen_name(b->g));
    lua_rawseti(L, -2, n);
  }
  wl_gen_free(b->g);
  wl_ctx_free(b->ctx);
  b->g = NULL;
  b->ctx = NULL;
  return 2;
}

/* wl.gen_families(): name -> cycle of every classic shape. */
static int l_families(lua_State *L) {
  const char *const *f = wl_gen_families();
  lua_newtable(L);
  for (; *f != NULL; f++) {
    lua_pushstring(L, wl_gen_family_cycle(*f));
    lua_setfield(L, -2, *f);
  }
  return 1;
}

static const luaL_Reg funcs[] = {{"gen", l_gen},
                                 {"gen_families", l_families},
                                 {NULL, NULL}};

void wll_gen_open(lua_State *L) {
  luaL_newmetatable(L, WLL_GEN);
  lua_pushcfunction(L, gbox_gc);
  lua_setfield(L, -2, "__gc");
  lua_pushcfunction(L, gbox_gc);
  lua_setfield(L, -2, "__close");
  lua_pop(L, 1);
  luaL_setfuncs(L, funcs, 0);
}
