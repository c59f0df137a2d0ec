/* test_place.c -- a pool run's workers on CPUs of their own
 * (bindings/lplace.c): a worker on a CPU another holds moves to a free
 * one of its mask and keeps its mask; one alone stays; a CPU given back
 * is taken again; with every CPU of the mask held, it stays where it is.
 * One thread plays the workers in turn: it is put on a CPU (its mask
 * set to that CPU, then back), then takes a place as a worker would. */
#define _GNU_SOURCE /* sched_getcpu, sched_setaffinity, CPU_* */
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../bindings/lplace.h"

static cpu_set_t start; /* the test's own mask, put back after each */
static int cpus[2];     /* two CPUs of it */

/* The first two CPUs of the mask; 0 when it has fewer. */
static int two_cpus(void) {
  int c, n = 0;
  if (sched_getaffinity(0, sizeof start, &start) != 0)
    return 0;
  for (c = 0; c < CPU_SETSIZE && n < 2; c++)
    if (CPU_ISSET(c, &start))
      cpus[n++] = c;
  return n == 2;
}

/* Puts this thread on cpu, with mask as its mask afterwards. */
static void put_on(int cpu, const cpu_set_t *mask) {
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  assert_int_equal(sched_setaffinity(0, sizeof one, &one), 0);
  assert_int_equal(sched_getcpu(), cpu);
  assert_int_equal(sched_setaffinity(0, sizeof *mask, mask), 0);
}

static void test_spread(void **state) {
  wll_place *pl;
  cpu_set_t now;
  int moved, a, b, c;
  (void)state;
  if (!two_cpus())
    skip();
  assert_non_null(pl = wll_place_new(2));
  /* worker A alone on cpus[0]: stays */
  put_on(cpus[0], &start);
  a = wll_place_take(pl, &moved);
  assert_int_equal(a, cpus[0]);
  assert_int_equal(moved, 0);
  /* worker B stacked on the same CPU: moves to another of its mask */
  put_on(cpus[0], &start);
  b = wll_place_take(pl, &moved);
  assert_true(b >= 0 && b != a && CPU_ISSET(b, &start));
  assert_int_equal(moved, 1);
  /* placed, not pinned: its mask is the one it had */
  assert_int_equal(sched_getaffinity(0, sizeof now, &now), 0);
  assert_true(CPU_EQUAL(&now, &start));
  /* A gives its CPU back: the next worker there keeps it */
  wll_place_leave(pl, a);
  put_on(cpus[0], &start);
  c = wll_place_take(pl, &moved);
  assert_int_equal(c, cpus[0]);
  assert_int_equal(moved, 0);
  wll_place_leave(pl, b);
  wll_place_leave(pl, c);
  wll_place_free(pl);
}

/* A mask of one CPU, held: nowhere to go, and nothing taken. */
static void test_full(void **state) {
  wll_place *pl;
  cpu_set_t one;
  int moved;
  (void)state;
  if (!two_cpus())
    skip();
  CPU_ZERO(&one);
  CPU_SET(cpus[1], &one);
  assert_non_null(pl = wll_place_new(2));
  put_on(cpus[1], &one);
  assert_int_equal(wll_place_take(pl, &moved), cpus[1]);
  assert_int_equal(wll_place_take(pl, &moved), -1);
  assert_int_equal(moved, 0);
  assert_int_equal(sched_getcpu(), cpus[1]);
  wll_place_free(pl);
  assert_int_equal(sched_setaffinity(0, sizeof start, &start), 0);
}

/* No place (out of memory): the worker stays where the OS put it. */
static void test_none(void **state) {
  int moved = 7;
  (void)state;
  assert_int_equal(wll_place_take(NULL, &moved), -1);
  assert_int_equal(moved, 0);
  wll_place_leave(NULL, 0);
  wll_place_free(NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_spread),
      cmocka_unit_test(test_full),
      cmocka_unit_test(test_none),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
