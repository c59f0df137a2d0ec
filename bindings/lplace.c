/* lplace.c -- the workers of one pool run on CPUs of their own.
 *
 * Linux wakes a sleeping thread on the CPU it last ran on or on its
 * waker's, and a pool's threads, woken together as a run starts, were
 * often stacked on one CPU while another stayed idle until the load
 * balancer moved one: on the device hosts' KVM Xeons (taskset to two
 * CPUs), `--jobs 2` of the tour's per-thread matmul launch split over
 * blocks ran 1.17x faster than `jobs 1` where two processes got 1.93 of
 * 2.00, and `litmus --jobs 2` on the 1,434 generated tests took 0.11 s
 * or 0.20 s by turns.  A sched_switch trace on the dev machine showed
 * both workers sharing CPU 1 for the first 20 ms while CPU 0 idled.
 *
 * So a worker, as it starts its share of a run, takes the CPU it is on;
 * when another worker of the run holds that one, it moves to a CPU of
 * its mask that none holds (sched_setaffinity to that CPU alone, which
 * migrates it at once) and puts its mask back: placed, not pinned, so
 * the scheduler may still move it for another process's load, and two
 * warplab processes are not bound to the same CPUs.  Workers already on
 * distinct CPUs make one atomic exchange each and no system call.  Off
 * Linux it does nothing.  Only where threads run changes, never what
 * they compute: the results are the same for any placement. */
#if defined(__linux__)
#define _GNU_SOURCE /* sched_getcpu, sched_setaffinity, CPU_* */
#include <sched.h>
#endif
#include <stdatomic.h>
#include <stdlib.h>

#include "lplace.h"

#if defined(__linux__)
#define NCPU CPU_SETSIZE
#else
#define NCPU 1
#endif

/* How many times a worker that arrived before the others lets one run
 * that may wait on its CPU (wll_place_take). */
#define YIELDS 4

struct wll_place {
  atomic_flag held[NCPU]; /* by CPU: a worker of the run holds it */
  atomic_int arrived;     /* workers that took a place so far */
  int workers;            /* the run's */
};

wll_place *wll_place_new(int workers) {
  wll_place *pl = malloc(sizeof *pl);
  int c;
  if (pl == NULL)
    return NULL;
  for (c = 0; c < NCPU; c++)
    atomic_flag_clear(&pl->held[c]);
  atomic_init(&pl->arrived, 0);
  pl->workers = workers;
  return pl;
}

void wll_place_free(wll_place *pl) { free(pl); }

#if defined(__linux__)
static int place_on(wll_place *pl, int *moved) {
  cpu_set_t mask, one;
  int cpu, c, k;
  *moved = 0;
  if (pl == NULL || (cpu = sched_getcpu()) < 0 || cpu >= NCPU)
    return -1;
  if (!atomic_flag_test_and_set(&pl->held[cpu]))
    return cpu; /* the usual case: its own CPU */
  if (sched_getaffinity(0, sizeof mask, &mask) != 0)
    return -1;
  /* the next free CPU of its mask after this one, round the mask: a
   * worker stacked on CPU c goes to c+1 before CPU 0 */
  for (k = 1; k < NCPU; k++) {
    c = (cpu + k) % NCPU;
    if (!CPU_ISSET(c, &mask) || atomic_flag_test_and_set(&pl->held[c]))
      continue;
    CPU_ZERO(&one);
    CPU_SET(c, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) {
      atomic_flag_clear(&pl->held[c]);
      return -1;
    }
    *moved = sched_getcpu() == c;
    sched_setaffinity(0, sizeof mask, &mask);
    return c;
  }
  return -1; /* every CPU of its mask is held: more workers than CPUs */
}

/* The workers that arrive first give their CPU up a few times while the
 * run's others have not arrived: a worker woken onto a CPU where one is
 * running may otherwise wait there for its time slice to end (3 to 6 ms
 * late in half the runs of litmus --jobs 2 on the 1,434 files, on a
 * device host's Xeon), and it moves only once it runs. */
int wll_place_take(wll_place *pl, int *moved) {
  int cpu = place_on(pl, moved), k;
  if (pl == NULL)
    return cpu;
  if (atomic_fetch_add(&pl->arrived, 1) + 1 < pl->workers)
    for (k = 0; k < YIELDS && atomic_load(&pl->arrived) < pl->workers; k++)
      sched_yield();
  return cpu;
}
#else
int wll_place_take(wll_place *pl, int *moved) {
  (void)pl;
  *moved = 0;
  return -1;
}
#endif

void wll_place_leave(wll_place *pl, int cpu) {
  if (pl != NULL && cpu >= 0 && cpu < NCPU)
    atomic_flag_clear(&pl->held[cpu]);
}
