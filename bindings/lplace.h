/* lplace.h -- the workers of one pool run on CPUs of their own
 * (lplace.c says why).  Plain C and the OS: no Lua, no libuv.  Not
 * installed. */
#ifndef LPLACE_H
#define LPLACE_H

#if defined(__GNUC__)
#define WLL_PLACE_HIDDEN __attribute__((visibility("hidden")))
#else
#define WLL_PLACE_HIDDEN
#endif

/* The CPUs one pool run's workers hold (opaque). */
typedef struct wll_place wll_place;

/* A place for one run's workers (how many); NULL when out of memory
 * (then the workers go where the OS puts them). */
WLL_PLACE_HIDDEN wll_place *wll_place_new(int workers);
WLL_PLACE_HIDDEN void wll_place_free(wll_place *pl);

/*
 * Called by a worker as it starts its share of the run: it takes the CPU
 * it runs on, or, when another worker of the run holds that one, moves
 * to a CPU of its mask that none holds and takes it (its mask is then
 * as before: the worker is placed, not pinned).  Returns the CPU it
 * holds, or -1 (none could be taken: more workers than CPUs, or not
 * Linux); *moved says whether it moved.  While the run's other workers
 * have not all taken a place, it first yields its CPU a few times, to
 * one of them that may wait there.  wll_place_leave gives the CPU back
 * when the worker's share ends.  Safe from any number of threads.
 */
WLL_PLACE_HIDDEN int wll_place_take(wll_place *pl, int *moved);
WLL_PLACE_HIDDEN void wll_place_leave(wll_place *pl, int cpu);

#endif
