/* test_cat_input.c -- a model file as hostile input (issue 20): the
 * reader's stop hook (wl_ctx_set_stop) and the evaluator's
 * (wl__cat_scratch_set_stop), the name table (shadowing, groups, a
 * table that grows), the budget of text and includes, and files that
 * are not regular.  test_cat.c has the language itself. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include <cmocka.h>

#include "../../engine/model/cat/catint.h"

/* A growing text (the models below are generated). */
typedef struct text {
  char *p;
  size_t n, cap;
} text;

static void add(text *t, const char *fmt, ...) {
  va_list ap;
  int k;
  if (t->cap - t->n < 256) {
    t->cap = t->cap ? t->cap * 2 : 4096;
    t->p = realloc(t->p, t->cap);
    assert_non_null(t->p);
  }
  va_start(ap, fmt);
  k = vsnprintf(t->p + t->n, t->cap - t->n, fmt, ap);
  va_end(ap);
  assert_true(k >= 0 && (size_t)k < t->cap - t->n);
  t->n += (size_t)k;
}

/* Stops after *ud calls (counting down), or never with a negative
 * count. */
static int countdown(void *ud) {
  long *left = ud;
  if (*left < 0)
    return 0;
  return (*left)-- == 0;
}

/* A let rec of n names, each the next one's (a1 = a2, ..., an = po):
 * n rounds of n updates to its fixpoint. */
static void chain(text *t, int n) {
  int i;
  add(t, "Chain\nlet rec a1 = a2");
  for (i = 2; i < n; i++)
    add(t, "\nand a%d = a%d", i, i + 1);
  add(t, "\nand a%d = po\nacyclic a1 as c\nempty a1 \\ po as d\n", n);
}

static void test_read_stops(void **state) {
  wl_ctx *ctx;
  wl_cat *m = NULL;
  text t = {NULL, 0, 0};
  long left;
  int i;
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  add(&t, "Big\nlet a0 = po\n");
  for (i = 1; i < 20000; i++)
    add(&t, "let a%d = a%d | rf\n", i, i - 1);
  add(&t, "acyclic a19999\n");
  /* polled while reading: the third poll stops it, at a token */
  left = 2;
  wl_ctx_set_stop(ctx, countdown, &left);
  assert_int_equal(wl__cat_parse(ctx, "big.cat", t.p, t.n, &m),
                   WL_ESTOPPED);
  assert_null(m);
  assert_non_null(strstr(wl_ctx_errmsg(ctx), "big.cat:"));
  assert_non_null(strstr(wl_ctx_errmsg(ctx), ": reading the model stopped"));
  /* never stopping: read */
  left = -1;
  assert_int_equal(wl__cat_parse(ctx, "big.cat", t.p, t.n, &m), 0);
  wl__cat_free(m);
  /* the hook removed */
  wl_ctx_set_stop(ctx, NULL, NULL);
  assert_int_equal(wl__cat_parse(ctx, "big.cat", t.p, t.n, &m), 0);
  wl__cat_free(m);
  free(t.p);
  wl_ctx_free(ctx);
}

static void test_eval_stops(void **state) {
  wl_ctx *ctx;
  wl_cat *m = NULL;
  wl__cat_scratch *s = NULL;
  wl__cand c;
  wl__cat_out out;
  text t = {NULL, 0, 0};
  long left;
  int i;
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  chain(&t, 3000);
  assert_int_equal(wl__cat_parse(ctx, "chain.cat", t.p, t.n, &m), 0);
  assert_int_equal(wl__cat_scratch_new(ctx, m, &s), 0);
  memset(&c, 0, sizeof c);
  c.n = 4;
  for (i = 0; i + 1 < 4; i++)
    c.rel[WL_CAT_R_PO][i] = (uint64_t)1 << (i + 1);
  /* 3000 rounds of 3000 updates: the hook is asked inside the loop */
  left = 0;
  wl__cat_scratch_set_stop(s, countdown, &left);
  assert_int_equal(wl__cat_check(m, s, &c, &out), WL_ESTOPPED);
  assert_int_equal(left, -1);
  /* after a stop nothing half-computed is kept: the same verdict as a
   * fresh scratch, incrementally too */
  left = -1;
  assert_int_equal(wl__cat_eval(m, s, &c, 0, 0, 0, 0, &out), 0);
  assert_int_equal(out.consistent, 1);
  c.rel[WL_CAT_R_PO][3] = 1; /* a cycle */
  assert_int_equal(
      wl__cat_eval(m, s, &c, (uint64_t)1 << WL_CAT_R_PO, 0, 0, 0, &out), 0);
  assert_int_equal(out.consistent, 0);
  wl__cat_scratch_set_stop(s, NULL, NULL);
  assert_int_equal(wl__cat_check(m, s, &c, &out), 0);
  assert_int_equal(out.consistent, 0);
  wl__cat_scratch_free(s);
  wl__cat_free(m);
  free(t.p);
  wl_ctx_free(ctx);
}

/* Names resolve to their latest visible binding: a plain let group
 * sees the outer scope until it ends, a let rec group its own names,
 * and the table grows past its first size without losing one. */
static void test_names(void **state) {
  wl_ctx *ctx;
  wl_cat *m = NULL;
  wl__cat_scratch *s = NULL;
  wl__cand c;
  wl__cat_out out;
  text t = {NULL, 0, 0};
  int i;
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  add(&t, "N\nlet a = po\nlet b = rf\n");
  for (i = 0; i < 3000; i++) /* grows the table many times */
    add(&t, "let n%d = a\n", i);
  /* the group's a and b are the outer ones: a = rf, b = po after */
  add(&t, "let a = b and b = a\n");
  add(&t, "empty a \\ rf as a-is-rf\nempty rf \\ a as rf-is-a\n");
  add(&t, "empty b \\ po as b-is-po\nempty po \\ b as po-is-b\n");
  add(&t, "empty n2999 \\ po as n-is-po\n");
  /* a let rec's own name wins over an outer one of that name */
  add(&t, "let rec a = co | (a ; a)\nempty a \\ co+ as fix\n");
  if (wl__cat_parse(ctx, "n.cat", t.p, t.n, &m) != 0)
    fail_msg("%s", wl_ctx_errmsg(ctx));
  assert_int_equal(wl__cat_scratch_new(ctx, m, &s), 0);
  memset(&c, 0, sizeof c);
  c.n = 3;
  c.rel[WL_CAT_R_PO][0] = 2;
  c.rel[WL_CAT_R_RF][1] = 4;
  c.rel[WL_CAT_R_CO][0] = 2;
  c.rel[WL_CAT_R_CO][1] = 4;
  assert_int_equal(wl__cat_check(m, s, &c, &out), 0);
  assert_int_equal(out.failed, -1);
  assert_int_equal(out.consistent, 1);
  /* bound twice in one group */
  wl__cat_scratch_free(s);
  wl__cat_free(m);
  assert_int_equal(wl__cat_parse(ctx, "d.cat", "D\nlet x = po and x = rf\n",
                                 24, &m),
                   WL_ESYNTAX);
  assert_string_equal(wl_ctx_errmsg(ctx),
                      "d.cat:2:16: 'x' is bound twice in one let");
  assert_int_equal(wl__cat_parse(ctx, "d.cat",
                                 "D\nlet rec x = po and x = rf\n", 28, &m),
                   WL_ESYNTAX);
  assert_string_equal(wl_ctx_errmsg(ctx),
                      "d.cat:2:20: 'x' is bound twice in one let rec");
  free(t.p);
  wl_ctx_free(ctx);
}

/* A let rec whose names take their types from each other in either
 * order (the worklist of parse.c) gets them all. */
static void test_rec_types(void **state) {
  wl_ctx *ctx;
  wl_cat *m = NULL;
  text t = {NULL, 0, 0};
  int i;
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  add(&t, "S\nlet rec s1 = s2");
  for (i = 2; i < 500; i++)
    add(&t, "\nand s%d = s%d", i, i + 1);
  add(&t, "\nand s500 = R\nempty s1 & W\n");
  /* a set: [s1] needs one, and "empty s1 & W" is a set check */
  add(&t, "acyclic [s1] ; po\n");
  assert_int_equal(wl__cat_parse(ctx, "s.cat", t.p, t.n, &m), 0);
  wl__cat_free(m);
  free(t.p);
  wl_ctx_free(ctx);
}

/* ---------------------------------------------------------------- */
/* Files                                                             */

static char dir[64];

static const char *put(const char *name, const char *body) {
  static char path[256];
  FILE *f;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  f = fopen(path, "w");
  assert_non_null(f);
  fputs(body, f);
  fclose(f);
  return path;
}

static void test_files(void **state) {
  wl_ctx *ctx;
  wl_cat *m = NULL;
  char want[512], big_path[256];
  const char *top;
  FILE *f;
  int i;
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  snprintf(dir, sizeof dir, "/tmp/wl_cat_input_XXXXXX");
  assert_non_null(mkdtemp(dir));
  /* a directory, a device, a FIFO: named, never read */
  assert_int_equal(wl__cat_load(ctx, dir, &m), WL_EIO);
  snprintf(want, sizeof want, "cannot read '%s': is a directory, not a "
                              ".cat file", dir);
  assert_string_equal(wl_ctx_errmsg(ctx), want);
  assert_int_equal(wl__cat_load(ctx, "/dev/zero", &m), WL_EIO);
  assert_string_equal(wl_ctx_errmsg(ctx),
                      "cannot read '/dev/zero': not a regular file (a "
                      "character device)");
  snprintf(want, sizeof want, "%s/fifo", dir);
  assert_int_equal(mkfifo(want, 0600), 0);
  assert_int_equal(wl__cat_load(ctx, want, &m), WL_EIO);
  assert_non_null(strstr(wl_ctx_errmsg(ctx), "not a regular file (a FIFO)"));
  /* text over 16 MiB, from memory or from a file */
  {
    size_t n = (size_t)WL_CAT_MAX_TEXT + 1;
    char *big = malloc(n);
    assert_non_null(big);
    memset(big, ' ', n);
    assert_int_equal(wl__cat_parse(ctx, "big.cat", big, n, &m), WL_ELIMIT);
    assert_string_equal(wl_ctx_errmsg(ctx),
                        "big.cat: too large (over 16 MiB)");
    snprintf(big_path, sizeof big_path, "%s/big.cat", dir);
    f = fopen(big_path, "w");
    assert_non_null(f);
    assert_int_equal(fwrite(big, 1, n, f), n);
    fclose(f);
    free(big);
  }
  assert_int_equal(wl__cat_load(ctx, big_path, &m), WL_EIO);
  assert_non_null(strstr(wl_ctx_errmsg(ctx), "too large (over 16 MiB)"));
  /* ten includes of the next file, eight deep: the include budget, at
   * the include past it */
  for (i = 0; i < 8; i++) {
    char name[32], body[512];
    int k, len = snprintf(body, sizeof body, "F%d\n", i);
    for (k = 0; k < 10; k++)
      len += snprintf(body + len, sizeof body - (size_t)len,
                      "include \"f%d.cat\"\n", i + 1);
    snprintf(name, sizeof name, "f%d.cat", i);
    put(name, body);
  }
  put("f8.cat", "let x = po\n");
  top = put("bomb.cat", "B\ninclude \"f0.cat\"\nacyclic x\n");
  assert_int_equal(wl__cat_load(ctx, top, &m), WL_ESYNTAX);
  snprintf(want, sizeof want,
           "%s/f7.cat:7:9: more than 1000 includes in all (a file "
           "included over and over?)",
           dir);
  assert_string_equal(wl_ctx_errmsg(ctx), want);
  /* one file included a few times: each read in place (the second
   * binding shadows the first), read from disk once */
  put("lib.cat", "L\nlet y = po\n");
  top = put("twice.cat",
            "T\ninclude \"lib.cat\"\nlet z = y\ninclude \"lib.cat\"\n"
            "acyclic y | z\n");
  assert_int_equal(wl__cat_load(ctx, top, &m), 0);
  wl__cat_free(m);
  /* an include that is a directory */
  top = put("incdir.cat", "T\ninclude \".\"\n");
  assert_int_equal(wl__cat_load(ctx, top, &m), WL_ESYNTAX);
  assert_non_null(strstr(wl_ctx_errmsg(ctx), "incdir.cat:2:9: cannot read"));
  assert_non_null(strstr(wl_ctx_errmsg(ctx), "is a directory"));
  wl_ctx_free(ctx);
  snprintf(want, sizeof want, "rm -rf '%s'", dir);
  assert_int_equal(system(want), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_read_stops), cmocka_unit_test(test_eval_stops),
      cmocka_unit_test(test_names),      cmocka_unit_test(test_rec_types),
      cmocka_unit_test(test_files),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
