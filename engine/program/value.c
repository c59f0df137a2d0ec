/* value.c -- typed values: the bits of an int, float, half or double
 * location held in an int64_t, converting them, printing them, and
 * typed atomic arithmetic. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

static double f32_of(int64_t c) {
  uint32_t u = (uint32_t)c;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static int64_t of_f32(double d) {
  float f = (float)d;
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return (int64_t)u;
}

/* IEEE binary16 from a double, rounding to nearest, ties to even, in
 * one step from the double's bits (through float would round twice). */
static int64_t of_f16(double d) {
  uint64_t u, m, rem, halfway, q;
  int e, shift;
  uint32_t sign;
  memcpy(&u, &d, sizeof u);
  sign = (uint32_t)(u >> 48) & 0x8000u;
  e = (int)(u >> 52 & 0x7ff);
  m = u & ((1ull << 52) - 1);
  if (e == 0x7ff) /* infinity, or a quiet NaN keeping the top payload */
    return (int64_t)(sign | 0x7c00u | (m ? 0x200u | (uint32_t)(m >> 42) : 0));
  if (e == 0) /* a double subnormal is far below half's smallest */
    return (int64_t)sign;
  m |= 1ull << 52;
  e -= 1023;
  /* q = the value in units of the result's last place: 2^(e-10) for a
   * normal half (e >= -14), 2^-24 for a subnormal one */
  shift = e >= -14 ? 42 : 28 - e;
  if (shift > 54) /* below half of 2^-24: rounds to zero */
    return (int64_t)sign;
  q = m >> shift;
  rem = m & ((1ull << shift) - 1);
  halfway = 1ull << (shift - 1);
  if (rem > halfway || (rem == halfway && (q & 1)))
    q++;
  if (e < -14) /* subnormal; q == 1024 is the smallest normal's bits */
    return (int64_t)(sign | (uint32_t)q);
  if (q == 1ull << 11) { /* rounded up to the next binade */
    q >>= 1;
    e++;
  }
  if (e > 15)
    return (int64_t)(sign | 0x7c00u);
  return (int64_t)(sign | (uint32_t)(e + 15) << 10 | ((uint32_t)q & 0x3ffu));
}

static double f16_of(int64_t c) {
  uint32_t h = (uint32_t)c & 0xffffu, e = h >> 10 & 0x1f, m = h & 0x3ff;
  uint64_t u = (uint64_t)(h & 0x8000u) << 48;
  double d;
  if (e == 0) { /* zero or subnormal: m * 2^-24, exact */
    d = (double)m / 16777216.0;
    return h & 0x8000u ? -d : d;
  }
  if (e == 31)
    u |= 0x7ffull << 52 | (uint64_t)m << 42;
  else
    u |= (uint64_t)(e - 15 + 1023) << 52 | (uint64_t)m << 42;
  memcpy(&d, &u, sizeof d);
  return d;
}

static double f64_of(int64_t c) {
  double d;
  memcpy(&d, &c, sizeof d);
  return d;
}

static int64_t of_f64(double d) {
  int64_t c;
  memcpy(&c, &d, sizeof c);
  return c;
}

/* double -> int64 without undefined behaviour for NaN or out-of-range */
static int64_t clamp_i64(double d) {
  if (d != d)
    return 0;
  if (d >= 9223372036854775807.0)
    return INT64_MAX;
  if (d <= -9223372036854775808.0)
    return INT64_MIN;
  return (int64_t)d;
}

int64_t wl_value_from_int(int type, int64_t i) {
  switch (type) {
  case WL_TYPE_INT32:
    return (int64_t)(int32_t)(uint32_t)(uint64_t)i;
  case WL_TYPE_UINT32:
    return (int64_t)(uint32_t)(uint64_t)i;
  case WL_TYPE_FLOAT:
    return of_f32((double)i);
  case WL_TYPE_DOUBLE:
    return of_f64((double)i);
  case WL_TYPE_INT16:
    return (int64_t)(int16_t)(uint16_t)(uint64_t)i;
  case WL_TYPE_UINT16:
    return (int64_t)(uint16_t)(uint64_t)i;
  case WL_TYPE_HALF:
    return of_f16((double)i);
  default:
    return i;
  }
}

int64_t wl_value_from_double(int type, double d) {
  switch (type) {
  case WL_TYPE_FLOAT:
    return of_f32(d);
  case WL_TYPE_DOUBLE:
    return of_f64(d);
  case WL_TYPE_HALF:
    return of_f16(d);
  default:
    return wl_value_from_int(type, clamp_i64(d));
  }
}

double wl_value_to_double(int type, int64_t c) {
  switch (type) {
  case WL_TYPE_FLOAT:
    return f32_of(c);
  case WL_TYPE_DOUBLE:
    return f64_of(c);
  case WL_TYPE_HALF:
    return f16_of(c);
  case WL_TYPE_UINT32:
    return (double)(uint32_t)c;
  case WL_TYPE_INT16:
    return (double)(int16_t)(uint16_t)c;
  case WL_TYPE_UINT16:
    return (double)(uint16_t)c;
  default:
    return (double)c;
  }
}

int wl__result_type_err(wl_ctx *ctx, const char *thread, const char *name,
                        int was, int type) {
  const char *w = wl__type_name(was), *n = wl__type_name(type);
  return wl__err(ctx, WL_EINVAL,
                 "result '%s' of %s is a%s %s in one trace and a%s %s in "
                 "another (give it one type: math.tointeger(v), or v + 0.0)",
                 name, thread, w[0] == 'i' || w[0] == 'u' ? "n" : "", w,
                 n[0] == 'i' || n[0] == 'u' ? "n" : "", n);
}

const char *wl__type_name(int type) {
  static const char *const w[] = {"int64", "int32",  "uint32", "float",
                                  "double", "int16", "uint16", "half"};
  return type >= 0 && type < (int)(sizeof w / sizeof w[0]) ? w[type] : "?";
}

/* The fewest significant digits (from lo to hi) that read back as the
 * same value of the type: 0.1f prints as 0.1, not 0.100000001. */
void wl__buf_value(wl_buf *b, int type, int64_t v) {
  char s[40];
  double d;
  int p, lo, hi;
  if (type != WL_TYPE_FLOAT && type != WL_TYPE_DOUBLE &&
      type != WL_TYPE_HALF) {
    wl__buf_printf(b, "%lld", (long long)v);
    return;
  }
  d = wl_value_to_double(type, v);
  if (d != d || d - d != 0) { /* NaN, inf */
    wl__buf_printf(b, "\"%g\"", d);
    return;
  }
  lo = type == WL_TYPE_DOUBLE ? 15 : type == WL_TYPE_FLOAT ? 6 : 3;
  hi = type == WL_TYPE_DOUBLE ? 17 : type == WL_TYPE_FLOAT ? 9 : 5;
  for (p = lo; p < hi; p++) {
    /* at most 24 bytes at 17 digits (the test is for -O0 builds, where
     * gcc cannot see that p < 17 and warns of a truncation) */
    if (snprintf(s, sizeof s, "%.*g", p, d) >= (int)sizeof s)
      break;
    if (wl_value_from_double(type, strtod(s, NULL)) == v)
      break;
  }
  wl__buf_printf(b, "%.*g", p, d);
}

int64_t wl__aop_typed(int type, int aop, int64_t old, int64_t a, int64_t b) {
  if (type == WL_TYPE_FLOAT || type == WL_TYPE_DOUBLE ||
      type == WL_TYPE_HALF) {
    double o = wl_value_to_double(type, old), x = wl_value_to_double(type, a);
    switch (aop) {
    case AOP_ADD:
      return wl_value_from_double(type, o + x);
    case AOP_SUB:
      return wl_value_from_double(type, o - x);
    case AOP_MIN:
      return x < o ? a : old;
    case AOP_MAX:
      return x > o ? a : old;
    default:
      return wl__aop_apply(aop, old, a, b); /* exch, cas: bits */
    }
  }
  if (type == WL_TYPE_UINT32 || type == WL_TYPE_UINT16) {
    uint64_t mask = type == WL_TYPE_UINT32 ? 0xffffffffu : 0xffffu;
    uint64_t uo = (uint64_t)old & mask, ua = (uint64_t)a & mask;
    switch (aop) {
    case AOP_MIN:
      return (int64_t)(uo < ua ? uo : ua);
    case AOP_MAX:
      return (int64_t)(uo > ua ? uo : ua);
    case AOP_DIV:
      return ua ? (int64_t)(uo / ua) : 0;
    case AOP_REM:
      return ua ? (int64_t)(uo % ua) : 0;
    default:
      return wl_value_from_int(type,
                               wl__aop_apply(aop, (int64_t)uo, (int64_t)ua, b));
    }
  }
  if (type == WL_TYPE_INT32 || type == WL_TYPE_INT16)
    return wl_value_from_int(type, wl__aop_apply(aop, old, a, b));
  return wl__aop_apply(aop, old, a, b);
}
