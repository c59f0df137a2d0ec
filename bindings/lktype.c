/* lktype.c -- element types of device arrays and their values: the
 * engine's scalar types and CUDA's vector types, the word that names each,
 * and the conversions between Lua values, the bytes of device memory and
 * the engine's int64 carriers (WL_TYPE_* convention). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lkernel.h"
/* ------------------------------------------------------------------ */
/* types and values                                                    */
/* ------------------------------------------------------------------ */

/* Element types: the engine's scalar types (WL_TYPE_*, in its order:
 * index == WL_TYPE_* below WLL_NSCALAR), then vectors of them (CUDA's
 * float2, float4, int2, int4, double2: 8- and 16-byte accesses, read
 * with c:load_vec and written with c:store_vec), then the words that
 * are other names of a type (C's short and unsigned short), which
 * checktype maps to the type itself. */
const char *const wll_type_words[] = {
    "int64", "int32",  "uint32", "float", "double", "int16",   "uint16",
    "half",  "float2", "float4", "int2",  "int4",   "double2", "short",
    "ushort", NULL};
const int wll_type_sizes[] = {8, 4, 4, 4, 8, 2, 2, 2, 8, 16, 8, 16, 16};
const int wll_type_base[] = {
    WL_TYPE_INT64, WL_TYPE_INT32, WL_TYPE_UINT32, WL_TYPE_FLOAT,
    WL_TYPE_DOUBLE, WL_TYPE_INT16, WL_TYPE_UINT16, WL_TYPE_HALF,
    WL_TYPE_FLOAT, WL_TYPE_FLOAT, WL_TYPE_INT32, WL_TYPE_INT32,
    WL_TYPE_DOUBLE};
const int wll_type_ncomp[] = {1, 1, 1, 1, 1, 1, 1, 1, 2, 4, 2, 4, 2};
/* the types the alias words (from index WLL_NTYPES on) name */
static const int type_alias[] = {WL_TYPE_INT16, WL_TYPE_UINT16};

int wll_checktype(lua_State *L, int arg) {
  int k = wll_checkword(L, arg, NULL, type_words, "element type");
  return k < WLL_NTYPES ? k : type_alias[k - WLL_NTYPES];
}

int wll_type_isfloat(int base) {
  return base == WL_TYPE_FLOAT || base == WL_TYPE_DOUBLE ||
         base == WL_TYPE_HALF;
}

int wll_base_size(int base) {
  switch (base) {
  case WL_TYPE_INT64:
  case WL_TYPE_DOUBLE:
    return 8;
  case WL_TYPE_INT16:
  case WL_TYPE_UINT16:
  case WL_TYPE_HALF:
    return 2;
  default:
    return 4;
  }
}

/* Carriers and the little-endian bytes of memory: the low bytes of the
 * carrier are the value's bytes in every type (hosts are little-endian,
 * as the engine assumes too). */
void wll_carrier_bytes(int base, int64_t c, uint8_t *out) {
  memcpy(out, &c, (size_t)wll_base_size(base));
}

int64_t wll_bytes_carrier(int base, const uint8_t *p) {
  uint64_t u = 0;
  memcpy(&u, p, (size_t)wll_base_size(base));
  switch (base) {
  case WL_TYPE_INT32:
    return (int64_t)(int32_t)(uint32_t)u;
  case WL_TYPE_INT16:
    return (int64_t)(int16_t)(uint16_t)u;
  default: /* zero-extended, or all 8 bytes */
    return (int64_t)u;
  }
}

void wll_push_carrier(lua_State *L, int base, int64_t c) {
  if (wll_type_isfloat(base))
    lua_pushnumber(L, (lua_Number)wl_value_to_double(base, c));
  else
    lua_pushinteger(L, (lua_Integer)c);
}

int wll_device_sm(const char *name) {
  int sm = 0;
  if (name == NULL || strncmp(name, "sm_", 3) != 0)
    return 0;
  for (name += 3; *name >= '0' && *name <= '9' && sm < 1000; name++)
    sm = sm * 10 + (*name - '0');
  return *name == '\0' ? sm : 0;
}

/* CUDA's atomics on 16-bit types are __half atomicAdd and unsigned
 * short atomicCAS, both for compute capability 7.x and later (CUDA
 * Programming Guide, atomicAdd and atomicCAS; sm_70_rt.h); PTX has
 * atom.add.noftz.f16 and atom.cas.b16 (sm_70), so c:atom takes a 16-bit
 * cas on short too.  No other atomic exists for them: NULL when op is
 * allowed on base for this api, else why not (msg, n bytes). */
const char *wll_atomic16_refusal(int base, int op, int ptx, int sm,
                                 const char *name, char *msg, size_t n) {
  static const char *const opn[] = {
      "atomicAdd", "atomicSub", "mul",   "div", "rem",        "atomicAnd",
      "atomicOr",  "atomicXor", "atomicMin", "atomicMax", "atomicInc",
      "atomicDec", "atomicExch", "atomicCAS"};
  const char *tw = base == WL_TYPE_HALF    ? "half"
                   : base == WL_TYPE_INT16 ? "int16"
                                           : "uint16";
  int ok;
  if (base != WL_TYPE_INT16 && base != WL_TYPE_UINT16 && base != WL_TYPE_HALF)
    return NULL;
  ok = base == WL_TYPE_HALF ? op == WL_OP_ADD
       : op == WL_OP_CAS    ? base == WL_TYPE_UINT16 || ptx
                            : 0;
  if (!ok) {
    snprintf(msg, n,
             "CUDA has no %s on %s ('%s'): 16-bit atomics are atomicAdd "
             "on half and atomicCAS on ushort (sm_70 and later)",
             op >= WL_OP_ADD && op <= WL_OP_CAS ? opn[op - WL_OP_ADD] : "?",
             tw, name);
    return msg;
  }
  if (sm != 0 && sm < 70) {
    snprintf(msg, n,
             "%s on %s ('%s') needs compute capability 7.0 or later; "
             "this device is sm_%d",
             op == WL_OP_ADD ? "atomicAdd" : "atomicCAS", tw, name, sm);
    return msg;
  }
  return NULL;
}

/* Converts the Lua value at arg to the bytes of type (little-endian). */
void wll_tobytes(lua_State *L, int type, int arg, void *out) {
  int isnum;
  int64_t c;
  if (wll_type_isfloat(type)) {
    lua_Number n = lua_tonumberx(L, arg, &isnum);
    if (!isnum)
      luaL_error(L, "number expected, got %s", luaL_typename(L, arg));
    c = wl_value_from_double(type, n);
  } else {
    lua_Integer i = lua_tointegerx(L, arg, &isnum);
    if (!isnum) {
      if (lua_type(L, arg) == LUA_TBOOLEAN)
        i = lua_toboolean(L, arg);
      else
        luaL_error(L, "integer expected, got %s",
                   lua_type(L, arg) == LUA_TNUMBER ? "a fraction"
                                                    : luaL_typename(L, arg));
    }
    c = wl_value_from_int(type, (int64_t)i);
  }
  wll_carrier_bytes(type, c, out);
}

void wll_pushbytes(lua_State *L, int type, const void *p) {
  wll_push_carrier(L, type, wll_bytes_carrier(type, p));
}

/* The carrier (engine convention) of the Lua value at arg, for atomics. */
int64_t wll_tocarrier(lua_State *L, int type, int arg) {
  if (wll_type_isfloat(type))
    return wl_value_from_double(type, luaL_checknumber(L, arg));
  {
    uint8_t b[8] = {0};
    wll_tobytes(L, type, arg, b);
    return wll_bytes_carrier(type, b);
  }
}

int64_t wll_int_carrier(int type, const uint8_t *b) {
  return wll_bytes_carrier(type, b);
}
