/* common.c -- errors, allocation, buffers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* wl_assert's failure (internal.h); in the library whatever the build,
 * so that code built with WL_ASSERTS links against a release library. */
void wl__assert_fail(const char *expr, const char *file, int line,
                     const char *func) {
  fflush(stdout);
  fprintf(stderr, "warplab: assertion failed: %s (%s:%d, %s)\n", expr, file,
          line, func);
  abort();
}

const char *wl_err_name(int err) {
  switch (err) {
#define WL_ERR_NAME(name, code, msg)                                           \
  case WL_##name:                                                              \
    return "WL_" #name;
    WL_ERRNO_MAP(WL_ERR_NAME)
#undef WL_ERR_NAME
  default:
    return "unknown";
  }
}

const char *wl_strerror(int err) {
  switch (err) {
#define WL_ERR_STR(name, code, msg)                                            \
  case WL_##name:                                                              \
    return msg;
    WL_ERRNO_MAP(WL_ERR_STR)
#undef WL_ERR_STR
  default:
    return "unknown error";
  }
}

int wl_size_mul(uint64_t a, uint64_t b, uint64_t *out) {
  if (a != 0 && b > UINT64_MAX / a)
    return WL_ELIMIT;
  *out = a * b;
  return 0;
}

int wl_size_add(uint64_t a, uint64_t b, uint64_t *out) {
  if (b > UINT64_MAX - a)
    return WL_ELIMIT;
  *out = a + b;
  return 0;
}

int wl_range_inside(int64_t first, int64_t n, int64_t lo, int64_t hi) {
  /* first + n <= hi without computing first + n: once first <= hi,
   * hi - first is exact in unsigned arithmetic */
  if (n < 0 || first < lo || first > hi)
    return 0;
  return (uint64_t)n <= (uint64_t)hi - (uint64_t)first;
}

static void *default_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud;
  (void)osize;
  if (nsize == 0) {
    free(ptr);
    return NULL;
  }
  return realloc(ptr, nsize);
}

int wl_ctx_new(const wl_config *cfg, wl_ctx **out) {
  wl_alloc_fn fn = default_alloc;
  void *ud = NULL;
  wl_ctx *ctx;
  if (out == NULL)
    return WL_EINVAL;
  *out = NULL;
  if (cfg != NULL && cfg->alloc != NULL) {
    fn = cfg->alloc;
    ud = cfg->alloc_ud;
  }
  ctx = fn(ud, NULL, 0, sizeof *ctx);
  if (ctx == NULL)
    return WL_ENOMEM;
  memset(ctx, 0, sizeof *ctx);
  ctx->alloc = fn;
  ctx->alloc_ud = ud;
  *out = ctx;
  return 0;
}

void wl_ctx_free(wl_ctx *ctx) {
  if (ctx == NULL)
    return;
  ctx->alloc(ctx->alloc_ud, ctx, sizeof *ctx, 0);
}

void wl_ctx_set_stop(wl_ctx *ctx, int (*should_stop)(void *ud), void *ud) {
  if (ctx == NULL)
    return;
  ctx->stop = should_stop;
  ctx->stop_ud = ud;
}

int wl__ctx_stop(wl_ctx *ctx) {
  return ctx->stop != NULL && ctx->stop(ctx->stop_ud);
}

const char *wl_ctx_errmsg(const wl_ctx *ctx) {
  return ctx == NULL ? "no context" : ctx->errmsg;
}

int wl_ctx_set_error(wl_ctx *ctx, int err, const char *msg) {
  if (ctx != NULL)
    snprintf(ctx->errmsg, sizeof ctx->errmsg, "%s", msg != NULL ? msg : "");
  return err;
}

int wl__err(wl_ctx *ctx, int err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ctx->errmsg, sizeof ctx->errmsg, fmt, ap);
  va_end(ap);
  return err;
}

void *wl__alloc(wl_ctx *ctx, size_t n) {
  if (n == 0)
    n = 1;
  return ctx->alloc(ctx->alloc_ud, NULL, 0, n);
}

void *wl__calloc(wl_ctx *ctx, size_t n) {
  void *p = wl__alloc(ctx, n);
  if (p != NULL)
    memset(p, 0, n);
  return p;
}

void *wl__realloc(wl_ctx *ctx, void *ptr, size_t osize, size_t nsize) {
  if (nsize == 0)
    nsize = 1;
  return ctx->alloc(ctx->alloc_ud, ptr, osize, nsize);
}

void wl__free(wl_ctx *ctx, void *ptr, size_t size) {
  if (ptr != NULL)
    ctx->alloc(ctx->alloc_ud, ptr, size, 0);
}

char *wl__strndup(wl_ctx *ctx, const char *s, size_t n) {
  char *p = wl__alloc(ctx, n + 1);
  if (p == NULL)
    return NULL;
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

void wl__strfree(wl_ctx *ctx, char *s) {
  if (s != NULL)
    wl__free(ctx, s, strlen(s) + 1);
}

void wl__buf_init(wl_buf *b, wl_ctx *ctx) {
  memset(b, 0, sizeof *b);
  b->ctx = ctx;
}

void wl__buf_free(wl_buf *b) {
  wl__free(b->ctx, b->p, b->cap);
  b->p = NULL;
  b->n = b->cap = 0;
}

static int buf_reserve(wl_buf *b, size_t extra) {
  size_t want = b->n + extra + 1, cap = b->cap ? b->cap : 64;
  char *p;
  if (b->oom)
    return -1;
  if (want <= b->cap)
    return 0;
  while (cap < want)
    cap *= 2;
  p = wl__realloc(b->ctx, b->p, b->cap, cap);
  if (p == NULL) {
    b->oom = 1;
    return -1;
  }
  b->p = p;
  b->cap = cap;
  return 0;
}

void wl__buf_add(wl_buf *b, const char *s, size_t n) {
  if (buf_reserve(b, n) != 0)
    return;
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = '\0';
}

void wl__buf_puts(wl_buf *b, const char *s) { wl__buf_add(b, s, strlen(s)); }

void wl__buf_printf(wl_buf *b, const char *fmt, ...) {
  char tmp[256];
  va_list ap;
  int n;
  va_start(ap, fmt);
  n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  if ((size_t)n < sizeof tmp) {
    wl__buf_add(b, tmp, (size_t)n);
    return;
  }
  if (buf_reserve(b, (size_t)n) != 0)
    return;
  va_start(ap, fmt);
  vsnprintf(b->p + b->n, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->n += (size_t)n;
}

void wl__vec_init(wl_vec *v, size_t isz) {
  memset(v, 0, sizeof *v);
  v->isz = isz;
}

void *wl__vec_push(wl_ctx *ctx, wl_vec *v) {
  char *item;
  if (v->n == v->cap) {
    size_t cap = v->cap ? v->cap * 2 : 8;
    void *p = wl__realloc(ctx, v->p, v->cap * v->isz, cap * v->isz);
    if (p == NULL)
      return NULL;
    v->p = p;
    v->cap = cap;
  }
  item = (char *)v->p + v->n * v->isz;
  memset(item, 0, v->isz);
  v->n++;
  return item;
}

void wl__vec_free(wl_ctx *ctx, wl_vec *v) {
  wl__free(ctx, v->p, v->cap * v->isz);
  v->p = NULL;
  v->n = v->cap = 0;
}

/* The length of the well-formed UTF-8 sequence at s (RFC 3629, table
 * 3-7 of the Unicode standard: no overlong forms, no surrogates, nothing
 * above U+10FFFF), or 0 when the byte at s does not start one. */
size_t wl__utf8_len(const char *s) {
  const unsigned char *u = (const unsigned char *)s;
  unsigned char lo = 0x80, hi = 0xbf;
  size_t n, k;
  if (u[0] < 0x80)
    return 1;
  if (u[0] >= 0xc2 && u[0] <= 0xdf)
    n = 2;
  else if (u[0] >= 0xe0 && u[0] <= 0xef)
    n = 3;
  else if (u[0] >= 0xf0 && u[0] <= 0xf4)
    n = 4;
  else
    return 0;
  if (u[0] == 0xe0)
    lo = 0xa0;
  else if (u[0] == 0xed)
    hi = 0x9f;
  else if (u[0] == 0xf0)
    lo = 0x90;
  else if (u[0] == 0xf4)
    hi = 0x8f;
  if (u[1] < lo || u[1] > hi)
    return 0;
  for (k = 2; k < n; k++)
    if (u[k] < 0x80 || u[k] > 0xbf)
      return 0;
  return n;
}

/* The JSON text of the next character of *s (advanced past it) in out
 * (at least 8 bytes), its length returned: '"' and backslash escaped,
 * control characters (and DEL) as \u00XX, a byte that does not start
 * well-formed UTF-8 as \ufffd (the replacement character). */
static size_t json_piece(const char **s, char out[8]) {
  unsigned char c = (unsigned char)**s;
  size_t n = wl__utf8_len(*s);
  if (n == 0) {
    (*s)++;
    memcpy(out, "\\ufffd", 6);
    return 6;
  }
  if (c == '"' || c == '\\') {
    (*s)++;
    out[0] = '\\';
    out[1] = (char)c;
    return 2;
  }
  if (c < 0x20 || c == 0x7f) {
    (*s)++;
    snprintf(out, 8, "\\u%04x", c);
    return 6;
  }
  memcpy(out, *s, n);
  *s += n;
  return n;
}

void wl__buf_json_str(wl_buf *b, const char *s) {
  char piece[8];
  wl__buf_puts(b, "\"");
  while (*s) {
    size_t n = json_piece(&s, piece);
    wl__buf_add(b, piece, n);
  }
  wl__buf_puts(b, "\"");
}

int wl_json_string(const char *s, wl_write_fn write, void *ud) {
  char buf[256];
  size_t n = 0;
  if (s == NULL || write == NULL)
    return WL_EINVAL;
  buf[n++] = '"';
  while (*s) {
    if (n + 8 > sizeof buf) {
      if (write(ud, buf, n) != 0)
        return WL_EIO;
      n = 0;
    }
    n += json_piece(&s, buf + n);
  }
  buf[n++] = '"';
  return write(ud, buf, n) != 0 ? WL_EIO : 0;
}
