/* lwlanes.c -- lane vectors (userdata "warplab.Lanes"), the values of
 * warp-vector kernels (lwarpvec.c): a number for each of the warp's 32
 * lanes.  A vector holds a value in the lanes that were active when it
 * was made (and in which its operands had values); each lane's value is
 * an integer or a float as Lua's arithmetic would make it.  Arithmetic
 * (+ - * / // % ^, bitwise operators) works lane by lane on the active
 * lanes; comparisons are methods returning 0/1 vectors (v:lt(x)), since
 * Lua's < must give one boolean. */
#include <math.h>
#include <string.h>

#include "lwlanes.h"

const char wll_lanes_tag = 0;

wll_lanes *wll_lanes_new(lua_State *L, int ks) {
  wll_lanes *v = lua_newuserdatauv(L, sizeof *v, 0);
  v->tag = &wll_lanes_tag;
  v->valid = v->isint = 0;
  lua_getiuservalue(L, ks, 3);
  lua_setmetatable(L, -2);
  return v;
}

void wll_lanes_seti(wll_lanes *v, int k, lua_Integer i) {
  v->v[k].i = i;
  v->valid |= 1u << k;
  v->isint |= 1u << k;
}

wll_lanes *wll_lanes_push(lua_State *L) {
  wll_lanes *v = lua_newuserdatauv(L, sizeof *v, 0);
  v->tag = &wll_lanes_tag;
  lua_pushvalue(L, lua_upvalueindex(2));
  lua_setmetatable(L, -2);
  return v;
}

wll_lanes *wll_lanes_to(lua_State *L, int idx) {
  return wll_lanes_at(L, idx);
}

/* The running warp-vector kernel, or NULL (a vector used elsewhere). */
static wll_krun *warprun(lua_State *L) {
  wll_krun *r = wll_lanes_ks(L)->run;
  return r != NULL && r->warp_mode ? r : NULL;
}

static uint32_t active(lua_State *L) {
  wll_krun *r = warprun(L);
  return r != NULL ? r->active : WLL_LANES_ALL;
}

int wll_lanes_error(lua_State *L, int k, const char *msg) {
  wll_krun *r = warprun(L);
  if (r != NULL)
    return wll_kernel_fail(L, r, r->warp * 32 + k, "%s", msg);
  return luaL_error(L, "lane %d: %s", k, msg);
}

const wll_lanes *wll_lanes_operand(lua_State *L, int idx, wll_lanes *tmp) {
  const wll_lanes *v;
  int k;
  if (lua_type(L, idx) == LUA_TNUMBER) {
    tmp->valid = WLL_LANES_ALL;
    if (lua_isinteger(L, idx)) {
      lua_Integer i = lua_tointeger(L, idx);
      tmp->isint = WLL_LANES_ALL;
      for (k = 0; k < 32; k++)
        tmp->v[k].i = i;
    } else {
      lua_Number n = lua_tonumber(L, idx);
      tmp->isint = 0;
      for (k = 0; k < 32; k++)
        tmp->v[k].n = n;
    }
    return tmp;
  }
  if ((v = wll_lanes_to(L, idx)) != NULL)
    return v;
  luaL_error(L, "attempt to perform arithmetic on a %s value (lane "
                "vectors combine with numbers and lane vectors)",
             luaL_typename(L, idx));
  return NULL;
}

lua_Integer wll_lanes_int(lua_State *L, const wll_lanes *v, int k) {
  lua_Number n, f;
  if (v->isint >> k & 1)
    return v->v[k].i;
  n = v->v[k].n;
  f = floor(n);
  if (f != n || !(n >= -9223372036854775808.0 && n < 9223372036854775808.0))
    wll_lanes_error(L, k, "number has no integer representation");
  return (lua_Integer)n;
}

enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_IDIV, OP_MOD, OP_POW, OP_UNM,
       OP_BAND, OP_BOR, OP_BXOR, OP_SHL, OP_SHR, OP_BNOT };

static lua_Integer shiftl(lua_Integer x, lua_Integer y) {
  if (y < 0) {
    if (y <= -64)
      return 0;
    return (lua_Integer)((lua_Unsigned)x >> (lua_Unsigned)(-y));
  }
  if (y >= 64)
    return 0;
  return (lua_Integer)((lua_Unsigned)x << (lua_Unsigned)y);
}

/* One lane of an integer operation (Lua 5.4's lvm.c semantics). */
static lua_Integer int_op(lua_State *L, int op, lua_Integer a, lua_Integer b,
                          int k) {
  switch (op) {
  case OP_ADD:
    return (lua_Integer)((lua_Unsigned)a + (lua_Unsigned)b);
  case OP_SUB:
    return (lua_Integer)((lua_Unsigned)a - (lua_Unsigned)b);
  case OP_MUL:
    return (lua_Integer)((lua_Unsigned)a * (lua_Unsigned)b);
  case OP_UNM:
    return (lua_Integer)(0u - (lua_Unsigned)a);
  case OP_IDIV:
    if (b == 0)
      wll_lanes_error(L, k, "attempt to perform 'n//0'");
    if (b == -1)
      return (lua_Integer)(0u - (lua_Unsigned)a);
    {
      lua_Integer q = a / b;
      if ((a % b != 0) && ((a ^ b) < 0))
        q -= 1;
      return q;
    }
  case OP_MOD:
    if (b == 0)
      wll_lanes_error(L, k, "attempt to perform 'n%%0'");
    if (b == -1)
      return 0;
    {
      lua_Integer m = a % b;
      if (m != 0 && (m ^ b) < 0)
        m += b;
      return m;
    }
  case OP_BAND:
    return a & b;
  case OP_BOR:
    return a | b;
  case OP_BXOR:
    return a ^ b;
  case OP_SHL:
    return shiftl(a, b);
  case OP_SHR:
    return shiftl(a, (lua_Integer)(0u - (lua_Unsigned)b));
  case OP_BNOT:
    return ~a;
  default:
    return 0;
  }
}

static lua_Number flt_op(int op, lua_Number a, lua_Number b) {
  switch (op) {
  case OP_ADD:
    return a + b;
  case OP_SUB:
    return a - b;
  case OP_MUL:
    return a * b;
  case OP_DIV:
    return a / b;
  case OP_IDIV:
    return floor(a / b);
  case OP_MOD: {
    lua_Number m = fmod(a, b);
    if ((m > 0) ? b < 0 : (m < 0 && b > 0))
      m += b;
    return m;
  }
  case OP_POW:
    return b == 2 ? a * a : pow(a, b);
  case OP_UNM:
    return -a;
  default:
    return 0;
  }
}

/* An operand of arithmetic as the lanes see it: a vector's values, or a
 * number's one value read by every lane (step 0, nothing broadcast). */
typedef struct operand {
  const wll_lane *v; /* lane k: v[k * step] */
  int step;
  uint32_t valid, isint;
  wll_lane one;
} operand;

/* The operand at idx (a number or a lane vector); raises for anything
 * else, as wll_lanes_operand does. */
static WLL_HOT void get_operand(lua_State *L, int idx, operand *o) {
  /* a vector in two calls: lua_touserdata is NULL for anything but
   * userdata, and lua_rawlen 0 for a light one (the size is checked
   * before the tag is read) */
  const wll_lanes *v = lua_touserdata(L, idx);
  if (v != NULL) {
    if (lua_rawlen(L, idx) == sizeof(wll_lanes) && v->tag == &wll_lanes_tag) {
      o->v = v->v;
      o->step = 1;
      o->valid = v->valid;
      o->isint = v->isint;
      return;
    }
  } else if (lua_isinteger(L, idx)) {
    o->v = &o->one;
    o->step = 0;
    o->valid = WLL_LANES_ALL;
    o->one.i = lua_tointeger(L, idx);
    o->isint = WLL_LANES_ALL;
    return;
  } else if (lua_type(L, idx) == LUA_TNUMBER) {
    o->v = &o->one;
    o->step = 0;
    o->valid = WLL_LANES_ALL;
    o->one.n = lua_tonumber(L, idx);
    o->isint = 0;
    return;
  }
  o->v = &o->one; /* (luaL_error does not return: for the compiler) */
  o->step = 0;
  o->valid = o->isint = 0;
  luaL_error(L, "attempt to perform arithmetic on a %s value (lane "
                "vectors combine with numbers and lane vectors)",
             luaL_typename(L, idx));
}

static lua_Number operand_num(const operand *o, int k) {
  const wll_lane *x = &o->v[k * o->step];
  return o->isint >> k & 1 ? (lua_Number)x->i : x->n;
}

/* Lane k as an integer, as wll_lanes_int converts. */
static lua_Integer operand_int(lua_State *L, const operand *o, int k) {
  const wll_lane *x = &o->v[k * o->step];
  lua_Number n, f;
  if (o->isint >> k & 1)
    return x->i;
  n = x->n;
  f = floor(n);
  if (f != n || !(n >= -9223372036854775808.0 && n < 9223372036854775808.0))
    wll_lanes_error(L, k, "number has no integer representation");
  return (lua_Integer)n;
}

/* + - * on every lane, all integers or all floats (the straight loops;
 * a number operand has step 0).  Returns 0 when op is none of them. */
#define LOOP(field, expr, SA, SB)                                              \
  for (k = 0; k < 32; k++) {                                                   \
    const wll_lane *x = &a->v[k * (SA)], *y = &b->v[k * (SB)];                 \
    r->v[k].field = expr;                                                      \
  }
#define STRAIGHT(field, expr)                                                  \
  if (sa && sb)                                                                \
    LOOP(field, expr, 1, 1)                                                    \
  else if (sa)                                                                 \
    LOOP(field, expr, 1, 0)                                                    \
  else if (sb)                                                                 \
    LOOP(field, expr, 0, 1)                                                    \
  else                                                                         \
    LOOP(field, expr, 0, 0)
static int straight_int(int op, const operand *a, const operand *b,
                        wll_lanes *r) {
  int k, sa = a->step, sb = b->step;
  switch (op) {
  case OP_ADD:
    STRAIGHT(i, (lua_Integer)((lua_Unsigned)x->i + (lua_Unsigned)y->i))
    return 1;
  case OP_SUB:
    STRAIGHT(i, (lua_Integer)((lua_Unsigned)x->i - (lua_Unsigned)y->i))
    return 1;
  case OP_MUL:
    /* by a power of two (ty * TILE): a shift, which vectorizes (the
     * same bits: products wrap modulo 2^64) */
    if (sa != sb) {
      lua_Unsigned c = (lua_Unsigned)(sa ? b : a)->one.i;
      if (c != 0 && (c & (c - 1)) == 0) {
        const wll_lane *x = (sa ? a : b)->v;
        int sh = __builtin_ctzll((unsigned long long)c);
        for (k = 0; k < 32; k++)
          r->v[k].i = (lua_Integer)((lua_Unsigned)x[k].i << sh);
        return 1;
      }
    }
    STRAIGHT(i, (lua_Integer)((lua_Unsigned)x->i * (lua_Unsigned)y->i))
    return 1;
  default:
    return 0;
  }
}

static int straight_flt(int op, const operand *a, const operand *b,
                        wll_lanes *r) {
  int k, sa = a->step, sb = b->step;
  switch (op) {
  case OP_ADD:
    STRAIGHT(n, x->n + y->n)
    return 1;
  case OP_SUB:
    STRAIGHT(n, x->n - y->n)
    return 1;
  case OP_MUL:
    STRAIGHT(n, x->n * y->n)
    return 1;
  default:
    return 0;
  }
}
#undef STRAIGHT
#undef LOOP

/* The metamethods of + - * / // % ^ and unary -, & | ~ << >> and unary
 * ~: one new vector, computed in the lanes that are active and hold a
 * value in both operands. */
static WLL_HOT int arith(lua_State *L, int op) {
  wll_kstate *ks = wll_lanes_ks(L);
  wll_krun *run = ks->run;
  operand a, b;
  wll_lanes *r;
  uint32_t valid, ints;
  int k, bitwise = op >= OP_BAND, plain;
  get_operand(L, 1, &a);
  get_operand(L, 2, &b);
  valid = a.valid & b.valid &
          (run != NULL && run->warp_mode ? run->active : WLL_LANES_ALL);
  plain = run != NULL && run->plain;
  r = wll_lanes_push(L);
  r->valid = valid;
  if (bitwise) {
    r->isint = valid;
    for (k = 0; k < 32; k++)
      if (valid >> k & 1)
        r->v[k].i = int_op(L, op, operand_int(L, &a, k),
                           operand_int(L, &b, k), k);
    return 1;
  }
  ints = op == OP_DIV || op == OP_POW ? 0 : a.isint & b.isint & valid;
  r->isint = ints;
  /* the common cases, straight (what the lanes without a value compute
   * is never read) */
  if (valid == WLL_LANES_ALL && ints == WLL_LANES_ALL && !plain &&
      straight_int(op, &a, &b, r))
    return 1;
  if (valid == WLL_LANES_ALL && (a.isint | b.isint) == 0 && !plain &&
      straight_flt(op, &a, &b, r))
    return 1;
  for (k = 0; k < 32; k++) {
    if (!(valid >> k & 1))
      continue;
    if (ints >> k & 1)
      r->v[k].i = int_op(L, op, a.v[k * a.step].i, b.v[k * b.step].i, k);
    else
      r->v[k].n = flt_op(op, operand_num(&a, k), operand_num(&b, k));
  }
  return 1;
}

#define ARITH(name, op)                                                        \
  static int name(lua_State *L) { return arith(L, op); }
ARITH(v_add, OP_ADD)
ARITH(v_sub, OP_SUB)
ARITH(v_mul, OP_MUL)
ARITH(v_div, OP_DIV)
ARITH(v_idiv, OP_IDIV)
ARITH(v_mod, OP_MOD)
ARITH(v_pow, OP_POW)
ARITH(v_unm, OP_UNM)
ARITH(v_band, OP_BAND)
ARITH(v_bor, OP_BOR)
ARITH(v_bxor, OP_BXOR)
ARITH(v_shl, OP_SHL)
ARITH(v_shr, OP_SHR)
ARITH(v_bnot, OP_BNOT)
#undef ARITH

/* Three-way comparison of lane k of a and b with Lua's exact
 * integer/float rules: -1, 0, 1, or 2 when unordered (NaN). */
static int cmp3(const wll_lanes *a, const wll_lanes *b, int k) {
  int ai = a->isint >> k & 1, bi = b->isint >> k & 1;
  lua_Number x, y;
  if (ai && bi) {
    lua_Integer p = a->v[k].i, q = b->v[k].i;
    return p < q ? -1 : p > q;
  }
  if (ai != bi) { /* an integer and a float */
    lua_Integer i = ai ? a->v[k].i : b->v[k].i;
    lua_Number f = ai ? b->v[k].n : a->v[k].n;
    int c;
    if (i >= -(1LL << 53) && i <= (1LL << 53)) { /* exact as a float */
      x = (lua_Number)i;
      c = x < f ? -1 : x > f ? 1 : x == f ? 0 : 2;
    } else if (f != f) {
      c = 2;
    } else if (f >= 9223372036854775808.0) {
      c = -1;
    } else if (f < -9223372036854775808.0) {
      c = 1;
    } else if (floor(f) == f) {
      lua_Integer g = (lua_Integer)f;
      c = i < g ? -1 : i > g;
    } else { /* |f| < 2^53 < |i| */
      c = i > 0 ? 1 : -1;
    }
    return ai || c == 2 ? c : -c;
  }
  x = a->v[k].n;
  y = b->v[k].n;
  return x < y ? -1 : x > y ? 1 : x == y ? 0 : 2;
}

enum { CMP_LT, CMP_LE, CMP_EQ, CMP_NE, CMP_GT, CMP_GE };

/* v:lt(x) and friends: a 0/1 integer vector. */
static int compare(lua_State *L, int op) {
  wll_lanes ta, tb, *r;
  const wll_lanes *a = wll_lanes_operand(L, 1, &ta);
  const wll_lanes *b = wll_lanes_operand(L, 2, &tb);
  uint32_t valid = a->valid & b->valid & active(L);
  int k;
  r = wll_lanes_push(L);
  r->valid = r->isint = valid;
  for (k = 0; k < 32; k++) {
    int c, t;
    if (!(valid >> k & 1))
      continue;
    c = cmp3(a, b, k);
    switch (op) {
    case CMP_LT:
      t = c == -1;
      break;
    case CMP_LE:
      t = c == -1 || c == 0;
      break;
    case CMP_EQ:
      t = c == 0;
      break;
    case CMP_NE:
      t = c != 0;
      break;
    case CMP_GT:
      t = c == 1;
      break;
    default:
      t = c == 0 || c == 1;
      break;
    }
    r->v[k].i = t;
  }
  return 1;
}

#define CMP(name, op)                                                          \
  static int name(lua_State *L) { return compare(L, op); }
CMP(v_lt, CMP_LT)
CMP(v_le, CMP_LE)
CMP(v_eq, CMP_EQ)
CMP(v_ne, CMP_NE)
CMP(v_gt, CMP_GT)
CMP(v_ge, CMP_GE)
#undef CMP

/* < <= == on lane vectors would give one boolean for 32 lanes. */
static int v_nocompare(lua_State *L) {
  return luaL_error(L, "compare lane vectors with v:lt(x) and branch with "
                       "w:where(mask, fn)");
}

static void push_lane(lua_State *L, const wll_lanes *v, int k) {
  if (!(v->valid >> k & 1))
    lua_pushnil(L);
  else if (v->isint >> k & 1)
    lua_pushinteger(L, v->v[k].i);
  else
    lua_pushnumber(L, v->v[k].n);
}

static const wll_lanes *checklanes(lua_State *L, int idx) {
  const wll_lanes *v = wll_lanes_to(L, idx);
  if (v == NULL)
    luaL_typeerror(L, idx, WLL_LANES);
  return v;
}

/* v:get(lane) -> lane's value, nil where it has none */
static int v_get(lua_State *L) {
  const wll_lanes *v = checklanes(L, 1);
  lua_Integer k = luaL_checkinteger(L, 2);
  luaL_argcheck(L, k >= 0 && k < 32, 2, "a lane from 0 to 31 expected");
  push_lane(L, v, (int)k);
  return 1;
}

/* v:totable() -> {[lane + 1] = value} (nil where a lane has none) */
static int v_totable(lua_State *L) {
  const wll_lanes *v = checklanes(L, 1);
  int k;
  lua_createtable(L, 32, 0);
  for (k = 0; k < 32; k++) {
    push_lane(L, v, k);
    lua_rawseti(L, -2, k + 1);
  }
  return 1;
}

/* v:mask() -> the lanes that hold a value, as an integer bit mask */
static int v_mask(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)checklanes(L, 1)->valid);
  return 1;
}

static int v_len(lua_State *L) {
  lua_pushinteger(L, 32);
  return 1;
}

static int v_tostring(lua_State *L) {
  const wll_lanes *v = checklanes(L, 1);
  luaL_Buffer b;
  int k;
  luaL_buffinit(L, &b);
  luaL_addstring(&b, "lanes(");
  for (k = 0; k < 32; k++) {
    if (k)
      luaL_addstring(&b, ", ");
    if (!(v->valid >> k & 1))
      luaL_addchar(&b, '-');
    else {
      push_lane(L, v, k);
      luaL_addvalue(&b);
    }
  }
  luaL_addchar(&b, ')');
  luaL_pushresult(&b);
  return 1;
}

/* ------------------------------------------------------------------ */
/* registration                                                        */
/* ------------------------------------------------------------------ */

static const luaL_Reg lanes_meta[] = {
    {"__add", v_add},   {"__sub", v_sub},     {"__mul", v_mul},
    {"__div", v_div},   {"__idiv", v_idiv},   {"__mod", v_mod},
    {"__pow", v_pow},   {"__unm", v_unm},     {"__band", v_band},
    {"__bor", v_bor},   {"__bxor", v_bxor},   {"__shl", v_shl},
    {"__shr", v_shr},   {"__bnot", v_bnot},   {"__lt", v_nocompare},
    {"__le", v_nocompare}, {"__eq", v_nocompare}, {"__len", v_len},
    {"__tostring", v_tostring}, {NULL, NULL}};

static const luaL_Reg lanes_methods[] = {
    {"lt", v_lt},   {"le", v_le},           {"eq", v_eq},
    {"ne", v_ne},   {"gt", v_gt},           {"ge", v_ge},
    {"get", v_get}, {"totable", v_totable}, {"mask", v_mask},
    {NULL, NULL}};

void wll_lanes_open(lua_State *L, int ks) {
  int mt;
  luaL_newmetatable(L, WLL_LANES);
  mt = lua_gettop(L);
  lua_pushvalue(L, ks);
  lua_pushvalue(L, mt);
  luaL_setfuncs(L, lanes_meta, 2);
  lua_newtable(L);
  lua_pushvalue(L, ks);
  lua_pushvalue(L, mt);
  luaL_setfuncs(L, lanes_methods, 2);
  lua_setfield(L, mt, "__index");
}
