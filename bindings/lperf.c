/* lperf.c -- the memory system's cost models without a kernel:
 * wl.bank_access, wl.global_access and wl.constant_access price one
 * warp-wide access given as a list of per-lane byte offsets (the same
 * functions dev:launch uses for every warp-wide instruction).
 *
 * The cost models are internal to the engine (engine/perf/perf.h): pure
 * functions over plain structs that neither allocate nor keep pointers,
 * so this file calls them directly instead of through a handle. */
#include <stdint.h>
#include <string.h>

#include "lwarplab.h"

/* One access as a spec table describes it. */
typedef struct spec {
  const char *fname; /* "wl.bank_access", for messages */
  wl_warp_req req;
  uint32_t given; /* lanes that have an offset */
  int nbanks, bank_bytes;
} spec;

/* Raises "fname: lane N: ..." (lanes count from 0, as threadIdx.x). */
static int lane_error(lua_State *L, const spec *s, int lane, const char *msg,
                      lua_Integer v) {
  return luaL_error(L, "%s: lane %d: %s (%I)", s->fname, lane, msg, v);
}

/* Reads an optional integer field of the table at idx. */
static lua_Integer opt_field(lua_State *L, const spec *s, int idx,
                             const char *k, lua_Integer def) {
  lua_Integer v = def;
  if (lua_getfield(L, idx, k) != LUA_TNIL) {
    int isnum;
    v = lua_tointegerx(L, -1, &isnum);
    if (!isnum || lua_type(L, -1) != LUA_TNUMBER)
      luaL_error(L, "%s: field '%s' must be an integer, got %s", s->fname, k,
                 lua_type(L, -1) == LUA_TNUMBER ? lua_tostring(L, -1)
                                                : luaL_typename(L, -1));
  }
  lua_pop(L, 1);
  return v;
}

/* Checks that every key of the spec at idx is one of allowed. */
static void check_keys(lua_State *L, const spec *s, int idx,
                       const char *const allowed[]) {
  wll_checkopts(L, idx, s->fname, allowed, 0);
}

/* Reads offsets (or addresses), width (4 by default), active and op of
 * the spec at idx, whose keys must be among keys.
 * Lanes without an offset are inactive unless `active` names them (then
 * an error).  Leaves the stack as it found it. */
static void read_spec(lua_State *L, int idx, spec *s,
                      const char *const keys[]) {
  int t, lane, isnum;
  lua_Integer active;
  memset(&s->req, 0, sizeof s->req);
  s->given = 0;
  if (lua_type(L, idx) != LUA_TTABLE)
    luaL_error(L,
               "%s: a table expected ({offsets = {...}, width = ...}), "
               "got %s",
               s->fname, luaL_typename(L, idx));
  check_keys(L, s, idx, keys);
  t = lua_getfield(L, idx, "offsets");
  if (t == LUA_TNIL) {
    lua_pop(L, 1);
    t = lua_getfield(L, idx, "addresses");
  }
  if (t != LUA_TTABLE)
    luaL_error(L,
               "%s: field 'offsets' (or 'addresses') must be a table "
               "of byte offsets, one per lane, got %s",
               s->fname, luaL_typename(L, -1));
  if (luaL_len(L, -1) > 32)
    luaL_error(L, "%s: %I offsets given; a warp has %d lanes", s->fname,
               (lua_Integer)luaL_len(L, -1), 32);
  lua_pushnil(L); /* only integer keys 1..32 */
  while (lua_next(L, -2) != 0) {
    lua_Integer k = lua_tointegerx(L, -2, &isnum);
    lua_pop(L, 1);
    if (!isnum || lua_type(L, -1) != LUA_TNUMBER || k < 1 || k > 32)
      luaL_error(L,
                 "%s: offsets are indexed by lane + 1 (1..%d); got key "
                 "%s",
                 s->fname, 32, luaL_tolstring(L, -1, NULL));
  }
  for (lane = 0; lane < 32; lane++) {
    if (lua_rawgeti(L, -1, lane + 1) != LUA_TNIL) {
      lua_Integer v = lua_tointegerx(L, -1, &isnum);
      if (!isnum || lua_type(L, -1) != LUA_TNUMBER)
        luaL_error(L, "%s: lane %d: offset must be an integer, got %s",
                   s->fname, lane,
                   lua_type(L, -1) == LUA_TNUMBER ? lua_tostring(L, -1)
                                                  : luaL_typename(L, -1));
      if (v < 0)
        lane_error(L, s, lane, "negative offset", v);
      s->req.addr[lane] = (uint64_t)v;
      s->given |= 1u << lane;
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  {
    lua_Integer w = opt_field(L, s, idx, "width", 4);
    if (w < 1 || w > 16 || !wl_req_valid_width((int)w))
      luaL_error(L, "%s: width must be 1, 2, 4, 8 or 16 bytes (got %I)",
                 s->fname, w);
    s->req.width = (int)w;
  }
  active = opt_field(L, s, idx, "active", (lua_Integer)s->given);
  if (active < 0 || active > (lua_Integer)0xffffffffu)
    luaL_error(L, "%s: active must be a 32-bit lane mask (got %I)", s->fname,
               active);
  s->req.active = (uint32_t)active;
  for (lane = 0; lane < 32; lane++)
    if ((s->req.active >> lane & 1u) && !(s->given >> lane & 1u))
      luaL_error(L, "%s: lane %d: active but has no offset", s->fname, lane);
  lane = wl_req_misaligned(&s->req);
  if (lane >= 0)
    luaL_error(L,
               "%s: lane %d: offset %I is not a multiple of the width "
               "(%d bytes)",
               s->fname, lane, (lua_Integer)s->req.addr[lane], s->req.width);
  s->req.store = 0;
  if (lua_getfield(L, idx, "op") != LUA_TNIL) {
    const char *op =
        lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    if (op == NULL || (strcmp(op, "ld") != 0 && strcmp(op, "st") != 0))
      luaL_error(L, "%s: op must be \"ld\" or \"st\" (got %s)", s->fname,
                 op != NULL ? op : luaL_typename(L, -1));
    s->req.store = op[0] == 's';
  }
  lua_pop(L, 1);
}

/* Pushes {offsets...}: the active lanes' offsets, by lane + 1. */
static void push_offsets(lua_State *L, const spec *s) {
  int lane;
  lua_createtable(L, 32, 0);
  for (lane = 0; lane < 32; lane++)
    if (s->req.active >> lane & 1u) {
      lua_pushinteger(L, (lua_Integer)s->req.addr[lane]);
      lua_rawseti(L, -2, lane + 1);
    }
}

/* wl.bank_access{offsets = {...}, width = 4, op = "ld", active = mask,
 * banks = 32, bank_bytes = 4 | device = dev} -> {wavefronts, conflicts,
 * ideal, merged, words, worst, worst_bank, banks = {distinct words per
 * bank, banks[b + 1] for bank b}, lanes = {bank of each lane's first
 * word, or false}, and the spec: offsets, width, op, active, nbanks,
 * bank_bytes} */
static int l_bank_access(lua_State *L) {
  static const char *const keys[] = {"offsets",    "addresses", "width",
                                     "op",         "active",    "banks",
                                     "bank_bytes", "device",    NULL};
  spec s;
  wl_bank_cfg bc;
  wl_shared_cost sc;
  int i, worst = 0, worst_bank = 0, words = 0;
  lua_Integer nb = 32, bb = 4;
  s.fname = "wl.bank_access";
  read_spec(L, 1, &s, keys);
  /* a device's layout, then explicit fields */
  if (lua_getfield(L, 1, "device") != LUA_TNIL) {
    if (lua_getfield(L, -1, "config") != LUA_TTABLE)
      luaL_error(L, "%s: field 'device' must be a device (wl.device)", s.fname);
    nb = opt_field(L, &s, lua_gettop(L), "banks", nb);
    bb = opt_field(L, &s, lua_gettop(L), "bank_bytes", bb);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  nb = opt_field(L, &s, 1, "banks", nb);
  bb = opt_field(L, &s, 1, "bank_bytes", bb);
  if (nb < 1 || nb > WL_BANK_MAX)
    luaL_error(L, "%s: banks must be 1..%d (got %I)", s.fname, WL_BANK_MAX, nb);
  if (bb < 1 || bb > 1024 || (bb & (bb - 1)) != 0)
    luaL_error(L,
               "%s: bank_bytes must be a power of two up to 1024 (got "
               "%I)",
               s.fname, bb);
  bc.nbanks = (int)nb;
  bc.bank_bytes = (int)bb;
  if (wl_price_shared(&bc, &s.req, &sc) != 0) /* checked above */
    return luaL_error(L, "%s: invalid access (lane %d)", s.fname, sc.bad_lane);
  lua_createtable(L, 0, 16);
  lua_pushinteger(L, sc.wavefronts);
  lua_setfield(L, -2, "wavefronts");
  lua_pushinteger(L, sc.conflicts);
  lua_setfield(L, -2, "conflicts");
  lua_pushinteger(L, sc.ideal);
  lua_setfield(L, -2, "ideal");
  lua_pushboolean(L, sc.merged);
  lua_setfield(L, -2, "merged");
  lua_createtable(L, bc.nbanks, 0);
  for (i = 0; i < bc.nbanks; i++) {
    words += (int)sc.bank_words[i];
    if ((int)sc.bank_words[i] > worst) {
      worst = (int)sc.bank_words[i];
      worst_bank = i;
    }
    lua_pushinteger(L, sc.bank_words[i]);
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "banks");
  lua_pushinteger(L, words);
  lua_setfield(L, -2, "words");
  lua_pushinteger(L, worst);
  lua_setfield(L, -2, "worst");
  lua_pushinteger(L, worst_bank);
  lua_setfield(L, -2, "worst_bank");
  lua_createtable(L, 32, 0);
  for (i = 0; i < 32; i++) {
    if (s.req.active >> i & 1u)
      lua_pushinteger(
          L, (lua_Integer)(s.req.addr[i] / (uint64_t)bb % (uint64_t)nb));
    else
      lua_pushboolean(L, 0);
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "lanes");
  push_offsets(L, &s);
  lua_setfield(L, -2, "offsets");
  lua_pushinteger(L, s.req.width);
  lua_setfield(L, -2, "width");
  lua_pushstring(L, s.req.store ? "st" : "ld");
  lua_setfield(L, -2, "op");
  lua_pushinteger(L, (lua_Integer)s.req.active);
  lua_setfield(L, -2, "active");
  lua_pushinteger(L, bc.nbanks);
  lua_setfield(L, -2, "nbanks");
  lua_pushinteger(L, bc.bank_bytes);
  lua_setfield(L, -2, "bank_bytes");
  return 1;
}

/* wl.global_access{addresses = {...}, width = 4, active = mask} ->
 * {requests, sectors, lines, sector_addresses = {...ascending}} */
static int l_global_access(lua_State *L) {
  static const char *const keys[] = {"offsets", "addresses", "width",
                                     "op",      "active",    NULL};
  spec s;
  wl_global_cost gc;
  int i;
  s.fname = "wl.global_access";
  read_spec(L, 1, &s, keys);
  if (wl_price_global(&s.req, &gc) != 0) /* checked above */
    return luaL_error(L, "%s: invalid access (lane %d)", s.fname, gc.bad_lane);
  lua_createtable(L, 0, 4);
  lua_pushinteger(L, gc.requests);
  lua_setfield(L, -2, "requests");
  lua_pushinteger(L, gc.sectors);
  lua_setfield(L, -2, "sectors");
  lua_pushinteger(L, gc.lines);
  lua_setfield(L, -2, "lines");
  lua_createtable(L, gc.nsec, 0);
  for (i = 0; i < gc.nsec; i++) {
    lua_pushinteger(L, (lua_Integer)gc.sector[i]);
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "sector_addresses");
  return 1;
}

/* wl.constant_access{addresses = {...}, width = 4, active = mask} ->
 * requests (distinct addresses, served one after the other), and the
 * cycles the H100 fit gives when every request hits the constant cache */
static int l_constant_access(lua_State *L) {
  static const char *const keys[] = {"offsets", "addresses", "width",
                                     "active",  "misses",    NULL};
  spec s;
  int n;
  lua_Integer misses;
  s.fname = "wl.constant_access";
  read_spec(L, 1, &s, keys);
  n = wl_const_requests(&s.req);
  misses = opt_field(L, &s, 1, "misses", 0);
  if (misses < 0 || misses > n)
    luaL_error(L, "%s: misses must be 0..%d, the requests (got %I)", s.fname, n,
               misses);
  lua_pushinteger(L, n);
  lua_pushnumber(L, wl_const_cycles(n, (int)misses));
  return 2;
}

static const luaL_Reg funcs[] = {{"bank_access", l_bank_access},
                                 {"global_access", l_global_access},
                                 {"constant_access", l_constant_access},
                                 {NULL, NULL}};

void wll_perf_open(lua_State *L) { luaL_setfuncs(L, funcs, 0); }
