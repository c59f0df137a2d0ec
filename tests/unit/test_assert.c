/* test_assert.c -- the engine's assertions (wl_assert, engine/common/
 * internal.h): the checked form aborts with its message, the release form
 * does not evaluate its argument, wl_assert is the checked form exactly
 * in the builds other than release (the Makefile's WL_ASSERTS), and so
 * are the library's own assertions (a histogram whose totals are broken
 * by hand, merged). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../engine/common/internal.h"
#include "../../engine/sim/hist.h"

/* The build this binary belongs to (build/MODE/tests/test_assert), from
 * argv[0]: "release" or another mode. */
static const char *argv0 = "";

static int release_build(void) { return strstr(argv0, "/release/") != NULL; }

/* What a child that runs fn(ud) leaves: whether it died of SIGABRT, and
 * its stderr. */
typedef struct child {
  int aborted, exited0;
  char err[1024];
} child;

static child run_child(void (*fn)(void *), void *ud) {
  child c;
  int fd[2], st = 0;
  size_t n = 0;
  ssize_t k;
  pid_t pid;
  memset(&c, 0, sizeof c);
  assert_int_equal(pipe(fd), 0);
  fflush(NULL);
  pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    close(fd[0]);
    dup2(fd[1], 2);
    fn(ud);
    _exit(0);
  }
  close(fd[1]);
  while (n < sizeof c.err - 1 &&
         (k = read(fd[0], c.err + n, sizeof c.err - 1 - n)) > 0)
    n += (size_t)k;
  close(fd[0]);
  assert_int_equal(waitpid(pid, &st, 0), pid);
  c.aborted = WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT;
  c.exited0 = WIFEXITED(st) && WEXITSTATUS(st) == 0;
  return c;
}

/* The checked form: a false condition aborts with its text, file, line
 * and function on stderr. */
static void on_false(void *ud) {
  int x = *(int *)ud;
  WL__ASSERT_ON(x == 2);
}
enum { ON_FALSE_LINE = __LINE__ - 2 }; /* the line of the assertion */

static void test_on_fails(void **state) {
  int x = 1;
  char want[256];
  child c;
  (void)state;
  c = run_child(on_false, &x);
  assert_true(c.aborted);
  snprintf(want, sizeof want,
           "warplab: assertion failed: x == 2 (%s:%d, on_false)\n", __FILE__,
           (int)ON_FALSE_LINE);
  assert_string_equal(c.err, want);
}

/* A true condition is evaluated once and goes on. */
static void test_on_holds(void **state) {
  int n = 0;
  (void)state;
  WL__ASSERT_ON(++n == 1);
  assert_int_equal(n, 1);
}

/* The release form does not evaluate its argument. */
static void test_off_not_evaluated(void **state) {
  int n = 0;
  (void)state;
  WL__ASSERT_OFF(++n == 5);
  WL__ASSERT_OFF((abort(), 0));
  assert_int_equal(n, 0);
}

/* wl_assert is the checked form in every build but release. */
static void wl_false(void *ud) {
  int *n = ud;
  (void)n; /* unused where wl_assert is ((void)0) */
  wl_assert(++*n == 0);
}

static void test_wl_assert_mode(void **state) {
  int n = 0;
  child c;
  (void)state;
#ifdef WL_ASSERTS
  assert_false(release_build());
#else
  assert_true(release_build());
#endif
  c = run_child(wl_false, &n);
  if (release_build()) {
    assert_true(c.exited0);
    assert_string_equal(c.err, "");
  } else {
    assert_true(c.aborted);
    assert_non_null(strstr(c.err, "warplab: assertion failed: ++*n == 0 ("));
  }
  wl_assert(++n > 0); /* holds: n is 1 only where it was evaluated */
  assert_int_equal(n, release_build() ? 0 : 1);
}

/* The library's own assertions follow its build: a histogram whose
 * outcome counts and hung runs no longer add up to its runs (broken here
 * by hand) trips wl_hist_merge's check in every build but release. */
static const char sb_src[] =
    "PTX SB\n"
    "{ x=0; y=0; }\n"
    " P0@cta 0,gpu 0        | P1@cta 1,gpu 0        ;\n"
    " st.relaxed.gpu x, 1   | st.relaxed.gpu y, 1   ;\n"
    " ld.relaxed.gpu r0, y  | ld.relaxed.gpu r0, x  ;\n"
    "exists (P0:r0 == 0 /\\ P1:r0 == 0)\n";

typedef struct merge_args {
  wl_hist *into, *from;
  int rc;
} merge_args;

static void merge(void *ud) {
  merge_args *a = ud;
  a->rc = wl_hist_merge(a->into, a->from);
  if (a->rc != 0)
    _exit(3);
}

static void test_library_asserts(void **state) {
  wl_ctx *ctx = NULL;
  wl_litmus *t = NULL;
  wl_sample_opts o;
  merge_args a;
  child c;
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  assert_int_equal(wl_litmus_parse(ctx, "SB", sb_src, sizeof sb_src - 1, &t),
                   0);
  memset(&o, 0, sizeof o);
  o.runs = 100;
  o.seed = 7;
  memset(&a, 0, sizeof a);
  assert_int_equal(wl_sample(ctx, t, &o, &a.from), 0);
  o.runs = 0;
  assert_int_equal(wl_sample(ctx, t, &o, &a.into), 0);
  assert_true(wl__hist_totals_ok(a.from));
  assert_true(wl__hist_totals_ok(a.into));
  /* a sound merge passes */
  c = run_child(merge, &a);
  assert_true(c.exited0);
  a.from->runs++; /* one run neither hung nor counted */
  assert_false(wl__hist_totals_ok(a.from));
  c = run_child(merge, &a);
  if (release_build()) {
    assert_true(c.exited0);
  } else {
    assert_true(c.aborted);
    assert_non_null(strstr(c.err, "warplab: assertion failed: "
                                  "wl__hist_totals_ok(from)"));
    assert_non_null(strstr(c.err, "hist.c:"));
  }
  a.from->runs--;
  wl_hist_free(a.from);
  wl_hist_free(a.into);
  wl_litmus_free(t);
  wl_ctx_free(ctx);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_on_fails),
      cmocka_unit_test(test_on_holds),
      cmocka_unit_test(test_off_not_evaluated),
      cmocka_unit_test(test_wl_assert_mode),
      cmocka_unit_test(test_library_asserts),
  };
  (void)argc;
  argv0 = argv[0];
  return cmocka_run_group_tests(tests, NULL, NULL);
}
