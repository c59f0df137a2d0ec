/* internal.h -- what engine files share: the context, allocation,
 * growable buffers, error reporting, assertions.  Not installed. */
#ifndef WL_INTERNAL_H
#define WL_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "../warplab.h"

#define WL_ERRMSG_MAX 512

/* WL_HOT: a function always inlined, so that the arguments its callers
 * pass as constants are constants in its body (the memory machine's
 * profile knobs, race.c's loop variants); gcc otherwise keeps a large
 * static inline function out of line, and tests them at run time. */
#if defined(__GNUC__)
#define WL_HOT inline __attribute__((always_inline))
#else
#define WL_HOT inline
#endif

/* wl_assert(cond): an invariant the code relies on (Lua's lua_assert),
 * never a check of input: bad input is an error code (wl__err).
 *
 * Checked where WL_ASSERTS is defined: the Makefile's debug, asan and
 * ubsan builds (so make check runs every test with them on).  A false
 * cond prints
 *   warplab: assertion failed: COND (FILE:LINE, FUNCTION)
 * to stderr and calls abort().  In release builds wl_assert(cond) is
 * ((void)0) and cond is not evaluated: it costs nothing, and it must
 * have no effect the program relies on.  A static function that only
 * assertions call sits under #ifdef WL_ASSERTS (else it is unused).
 * WL__ASSERT_ON and WL__ASSERT_OFF are the two forms, whatever the
 * build (tests/unit/test_assert.c checks both). */
#if defined(__GNUC__)
__attribute__((noreturn))
#endif
void wl__assert_fail(const char *expr, const char *file, int line,
                     const char *func);
#define WL__ASSERT_ON(cond)                                                    \
  ((cond) ? (void)0 : wl__assert_fail(#cond, __FILE__, __LINE__, __func__))
#define WL__ASSERT_OFF(cond) ((void)0)
#ifdef WL_ASSERTS
#define wl_assert(cond) WL__ASSERT_ON(cond)
#else
#define wl_assert(cond) WL__ASSERT_OFF(cond)
#endif

struct wl_ctx {
  wl_alloc_fn alloc;
  void *alloc_ud;
  char errmsg[WL_ERRMSG_MAX];
  int (*stop)(void *ud); /* wl_ctx_set_stop */
  void *stop_ud;
};

/* Whether ctx's stop hook (wl_ctx_set_stop) asks to stop. */
int wl__ctx_stop(wl_ctx *ctx);

/* Allocation through the context's hook.  wl__realloc keeps ptr on
 * failure (returns NULL). */
void *wl__alloc(wl_ctx *ctx, size_t n);
void *wl__calloc(wl_ctx *ctx, size_t n);
void *wl__realloc(wl_ctx *ctx, void *ptr, size_t osize, size_t nsize);
void wl__free(wl_ctx *ctx, void *ptr, size_t size);
char *wl__strndup(wl_ctx *ctx, const char *s, size_t n);
void wl__strfree(wl_ctx *ctx, char *s);

/* Sets the context's message and returns err. */
int wl__err(wl_ctx *ctx, int err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* A growable byte buffer allocated through a context. */
typedef struct wl_buf {
  wl_ctx *ctx;
  char *p;
  size_t n, cap;
  int oom; /* sticky: an append failed */
} wl_buf;

void wl__buf_init(wl_buf *b, wl_ctx *ctx);
void wl__buf_free(wl_buf *b);
void wl__buf_add(wl_buf *b, const char *s, size_t n);
void wl__buf_puts(wl_buf *b, const char *s);
void wl__buf_printf(wl_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Appends s as a JSON string, always valid JSON and UTF-8 whatever the
 * bytes (wl_json_string in warplab.h says how). */
void wl__buf_json_str(wl_buf *b, const char *s);
/* The length of the well-formed UTF-8 sequence at s, or 0. */
size_t wl__utf8_len(const char *s);

/* A growable array of fixed-size items. */
typedef struct wl_vec {
  void *p;
  size_t n, cap, isz;
} wl_vec;

void wl__vec_init(wl_vec *v, size_t isz);
/* Appends one zeroed item and returns it, or NULL (out of memory). */
void *wl__vec_push(wl_ctx *ctx, wl_vec *v);
void wl__vec_free(wl_ctx *ctx, wl_vec *v);
#define WL_VEC_AT(v, T, i) (((T *)(v)->p)[i])
/* A pointer to item i; NULL while the vector has no storage, so that an
 * empty vector never takes part in pointer arithmetic on NULL. */
#define WL_VEC_PTR(v, T, i) ((v)->p ? (T *)(v)->p + (i) : (T *)NULL)

/* MD5 (md5.c), streamed: init, any number of updates, then the digest
 * as 32 lowercase hex digits (the state is spent). */
typedef struct wl_md5 {
  uint32_t h[4];
  uint64_t n; /* bytes so far */
  unsigned char buf[64];
} wl_md5;
void wl__md5_init(wl_md5 *m);
void wl__md5_update(wl_md5 *m, const void *p, size_t n);
void wl__md5_hex(wl_md5 *m, char out[33]);

/* Bytes written and read back (bytes.c): what wl_hist_pack and
 * wl_result_pack make, malloc'd since the caller frees them with free.
 * Writing: put appends n bytes (nothing once oom is set, which a failed
 * growth sets); le appends v's low nbytes bytes, little-endian.
 * Reading: take gives the next n bytes, or NULL once they run out (bad
 * is then set and every later read gives nothing); le reads nbytes
 * bytes little-endian (0 when bad). */
typedef struct wl__wbuf {
  unsigned char *p;
  size_t n, cap;
  int oom;
} wl__wbuf;
void wl__wbuf_put(wl__wbuf *b, const void *s, size_t n);
void wl__wbuf_le(wl__wbuf *b, uint64_t v, int nbytes);
typedef struct wl__rbuf {
  const unsigned char *p;
  size_t n, at;
  int bad;
} wl__rbuf;
const unsigned char *wl__rbuf_take(wl__rbuf *r, size_t n);
uint64_t wl__rbuf_le(wl__rbuf *r, int nbytes);

#endif
