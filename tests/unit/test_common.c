/* test_common.c -- errors and contexts (engine/common). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../engine/warplab.h"

/* Every code of the table, with its expected name and message. */
static const struct {
  int code;
  const char *name, *msg;
} codes[] = {
    {WL_ENOMEM, "WL_ENOMEM", "out of memory"},
    {WL_EINVAL, "WL_EINVAL", "invalid argument"},
    {WL_ESYNTAX, "WL_ESYNTAX", "syntax error"},
    {WL_EUNSUPPORTED, "WL_EUNSUPPORTED", "not supported"},
    {WL_ELIMIT, "WL_ELIMIT", "a size limit of the explorer was exceeded"},
    {WL_EIO, "WL_EIO", "i/o error"},
    {WL_ESTOPPED, "WL_ESTOPPED", "stopped by the caller"},
    {WL_ERUNTIME, "WL_ERUNTIME", "a kernel failed"},
};
#define NCODES (sizeof codes / sizeof codes[0])

static void test_err_name(void **state) {
  size_t i;
  (void)state;
  for (i = 0; i < NCODES; i++)
    assert_string_equal(wl_err_name(codes[i].code), codes[i].name);
  assert_string_equal(wl_err_name(0), "unknown");
  assert_string_equal(wl_err_name(1), "unknown");
  assert_string_equal(wl_err_name(-9), "unknown");
  assert_string_equal(wl_err_name(-1000), "unknown");
}

static void test_strerror(void **state) {
  size_t i;
  (void)state;
  for (i = 0; i < NCODES; i++)
    assert_string_equal(wl_strerror(codes[i].code), codes[i].msg);
  assert_string_equal(wl_strerror(0), "unknown error");
  assert_string_equal(wl_strerror(-9), "unknown error");
  assert_string_equal(wl_strerror(12345), "unknown error");
}

/* The codes are distinct and negative, and the table covers them all:
 * the X-macro gives exactly the names listed above. */
static void test_err_table_complete(void **state) {
  int n = 0;
  size_t i, j;
  (void)state;
#define COUNT(name, code, msg) n++;
  WL_ERRNO_MAP(COUNT)
#undef COUNT
  assert_int_equal(n, (int)NCODES);
  for (i = 0; i < NCODES; i++) {
    assert_true(codes[i].code < 0);
    for (j = i + 1; j < NCODES; j++)
      assert_int_not_equal(codes[i].code, codes[j].code);
  }
}

static void test_ctx_default(void **state) {
  wl_ctx *ctx = (wl_ctx *)(uintptr_t)1;
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  assert_non_null(ctx);
  assert_string_equal(wl_ctx_errmsg(ctx), "");
  wl_ctx_free(ctx);
}

static void test_ctx_null_config_alloc(void **state) {
  wl_config cfg = {NULL, NULL};
  wl_ctx *ctx = NULL;
  (void)state;
  assert_int_equal(wl_ctx_new(&cfg, &ctx), 0);
  assert_non_null(ctx);
  wl_ctx_free(ctx);
}

static void test_ctx_null_out(void **state) {
  wl_config cfg = {NULL, NULL};
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, NULL), WL_EINVAL);
  assert_int_equal(wl_ctx_new(&cfg, NULL), WL_EINVAL);
}

static void test_ctx_free_null(void **state) {
  (void)state;
  wl_ctx_free(NULL); /* no-op, no crash */
  assert_string_equal(wl_ctx_errmsg(NULL), "no context");
}

/* A counting allocator: every call goes through it. */
typedef struct counter {
  int allocs, frees, reallocs;
  long live;
  int fail; /* non-zero: every allocation fails */
} counter;

static void *counting_alloc(void *ud, void *ptr, size_t osize,
                            size_t nsize) {
  counter *c = ud;
  if (nsize == 0) {
    if (ptr != NULL) {
      c->frees++;
      c->live -= (long)osize;
    }
    free(ptr);
    return NULL;
  }
  if (c->fail)
    return NULL;
  if (ptr == NULL) {
    c->allocs++;
    osize = 0;
  } else {
    c->reallocs++;
  }
  ptr = realloc(ptr, nsize);
  if (ptr != NULL)
    c->live += (long)nsize - (long)osize;
  return ptr;
}

static void test_ctx_custom_alloc(void **state) {
  counter c;
  wl_config cfg;
  wl_ctx *ctx = NULL;
  (void)state;
  memset(&c, 0, sizeof c);
  cfg.alloc = counting_alloc;
  cfg.alloc_ud = &c;
  assert_int_equal(wl_ctx_new(&cfg, &ctx), 0);
  assert_non_null(ctx);
  assert_int_equal(c.allocs, 1);
  assert_true(c.live > 0);
  wl_ctx_free(ctx);
  assert_int_equal(c.frees, 1);
  assert_int_equal(c.live, 0);
}

static void test_ctx_custom_alloc_fails(void **state) {
  counter c;
  wl_config cfg;
  wl_ctx *ctx = (wl_ctx *)(uintptr_t)1;
  (void)state;
  memset(&c, 0, sizeof c);
  c.fail = 1;
  cfg.alloc = counting_alloc;
  cfg.alloc_ud = &c;
  assert_int_equal(wl_ctx_new(&cfg, &ctx), WL_ENOMEM);
  assert_null(ctx);
  assert_int_equal(c.live, 0);
}

/* The context's allocator is the one later objects use. */
static void test_ctx_alloc_used_by_parse(void **state) {
  static const char src[] = "PTX T\n{ x=0; }\n P0@cta 0,gpu 0 ;\n"
                            " st.weak x, 1 ;\nexists (x == 1)\n";
  counter c;
  wl_config cfg;
  wl_ctx *ctx = NULL;
  wl_litmus *t = NULL;
  int before;
  (void)state;
  memset(&c, 0, sizeof c);
  cfg.alloc = counting_alloc;
  cfg.alloc_ud = &c;
  assert_int_equal(wl_ctx_new(&cfg, &ctx), 0);
  before = c.allocs;
  assert_int_equal(wl_litmus_parse(ctx, "t.litmus", src, strlen(src), &t),
                   0);
  assert_true(c.allocs > before);
  wl_litmus_free(t);
  wl_ctx_free(ctx);
  assert_int_equal(c.live, 0);
}

/* Two contexts are independent: a failure on one leaves the other's
 * message alone. */
static void test_ctx_messages_independent(void **state) {
  wl_ctx *a = NULL, *b = NULL;
  wl_litmus *t = NULL;
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &a), 0);
  assert_int_equal(wl_ctx_new(NULL, &b), 0);
  assert_int_equal(wl_litmus_parse(a, "a.litmus", "nope", 4, &t),
                   WL_ESYNTAX);
  assert_null(t);
  assert_true(wl_ctx_errmsg(a)[0] != '\0');
  assert_string_equal(wl_ctx_errmsg(b), "");
  wl_ctx_free(a);
  wl_ctx_free(b);
}

/* wl_json_string: valid JSON and UTF-8 whatever the bytes (issue 20,
 * item 11). */
typedef struct jbuf {
  char p[512];
  size_t n, stop_after;
} jbuf;

static int jput(void *ud, const char *s, size_t n) {
  jbuf *b = ud;
  if (b->stop_after && b->n + n > b->stop_after)
    return -1;
  assert_true(b->n + n < sizeof b->p);
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = '\0';
  return 0;
}

static const char *json_of(jbuf *b, const char *s) {
  memset(b, 0, sizeof *b);
  assert_int_equal(wl_json_string(s, jput, b), 0);
  return b->p;
}

static void test_json_string(void **state) {
  jbuf b;
  char big[400];
  (void)state;
  assert_string_equal(json_of(&b, ""), "\"\"");
  assert_string_equal(json_of(&b, "MP+fence"), "\"MP+fence\"");
  assert_string_equal(json_of(&b, "a\"b\\c"), "\"a\\\"b\\\\c\"");
  assert_string_equal(json_of(&b, "\n\t\x01\x1f\x7f"),
                      "\"\\u000a\\u0009\\u0001\\u001f\\u007f\"");
  /* well-formed UTF-8 stays as it is: 2, 3 and 4 bytes, the edges */
  assert_string_equal(json_of(&b, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"),
                      "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");
  assert_string_equal(json_of(&b, "\xc2\x80\xef\xbf\xbf\xf4\x8f\xbf\xbf"),
                      "\"\xc2\x80\xef\xbf\xbf\xf4\x8f\xbf\xbf\"");
  /* each bad byte as \ufffd: a lone continuation, a byte never in
   * UTF-8, overlong forms, surrogates, above U+10FFFF, a sequence cut
   * short (at the end and before an ASCII byte) */
  assert_string_equal(json_of(&b, "a\x80z"), "\"a\\ufffdz\"");
  assert_string_equal(json_of(&b, "\xff\xfe"), "\"\\ufffd\\ufffd\"");
  assert_string_equal(json_of(&b, "\xc0\xaf"), "\"\\ufffd\\ufffd\"");
  assert_string_equal(json_of(&b, "\xe0\x80\xaf"),
                      "\"\\ufffd\\ufffd\\ufffd\"");
  assert_string_equal(json_of(&b, "\xed\xa0\x80"),
                      "\"\\ufffd\\ufffd\\ufffd\"");
  assert_string_equal(json_of(&b, "\xf4\x90\x80\x80"),
                      "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
  assert_string_equal(json_of(&b, "x\xe2\x82"), "\"x\\ufffd\\ufffd\"");
  assert_string_equal(json_of(&b, "\xe2\x82y"), "\"\\ufffd\\ufffdy\"");
  /* longer than the writer's chunk, and a writer that stops */
  memset(big, 'a', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  json_of(&b, big);
  assert_int_equal(b.n, sizeof big - 1 + 2);
  memset(&b, 0, sizeof b);
  b.stop_after = 10;
  assert_int_equal(wl_json_string(big, jput, &b), WL_EIO);
  assert_int_equal(wl_json_string(NULL, jput, &b), WL_EINVAL);
  assert_int_equal(wl_json_string("x", NULL, &b), WL_EINVAL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_err_name),
      cmocka_unit_test(test_strerror),
      cmocka_unit_test(test_err_table_complete),
      cmocka_unit_test(test_ctx_default),
      cmocka_unit_test(test_ctx_null_config_alloc),
      cmocka_unit_test(test_ctx_null_out),
      cmocka_unit_test(test_ctx_free_null),
      cmocka_unit_test(test_ctx_custom_alloc),
      cmocka_unit_test(test_ctx_custom_alloc_fails),
      cmocka_unit_test(test_ctx_alloc_used_by_parse),
      cmocka_unit_test(test_ctx_messages_independent),
      cmocka_unit_test(test_json_string),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
