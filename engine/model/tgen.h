/* tgen.h -- a thread's trace generator, shared by traces.c (instruction
 * threads, the driver) and cbtraces.c (callback threads).  Internal to
 * engine/model. */
#ifndef WL_TGEN_H
#define WL_TGEN_H

#include "explore.h"

typedef struct snap {
  int pc, nwrites, nev;
  int64_t regs[WL_MAX_REGS];
} snap;

typedef struct tgen {
  xp *x;
  int th;
  const wl_thread *thr;
  wl_ev ev[WL_MAX_TEV];
  int nev, nwrites;
  int64_t regs[WL_MAX_REGS];
  uint64_t taint[WL_MAX_REGS];
  uint64_t ctrl;
  int backs[4096]; /* times each backward branch was taken */
  int nback;       /* backward branches taken on the path so far: a
                    * trace with none has no unrolled loop in it, so the
                    * limits it crosses are not the unroll bound's */
  /* registers and taints at each load, restored before the load's next
   * value is tried (the rest of the trace changes more than its dst) */
  int64_t sregs[WL_MAX_TEV + 1][WL_MAX_REGS];
  uint64_t staint[WL_MAX_TEV + 1][WL_MAX_REGS];
  snap *snaps;
  int nsnaps, snapcap;
  int last_bar; /* event index of a barrier with nothing after it */
  /* callback threads: replayed load choices */
  int ch[WL_MAX_TEV], nchoice[WL_MAX_TEV], chloc[WL_MAX_TEV], nch, depth;
  int reads_of[WL_MAX_LOCS];
  int cut;
  int spin0, spin_line; /* cut == 2: the spin part (wl_trace) */
} tgen;

/* traces.c: 1 when the trace being built went round a loop (a backward
 * branch taken, or a callback thread's location read again) */
int wl__tg_looped(const tgen *g);
/* traces.c: adds the events so far as a trace of the thread's pool
 * (cut: 0 it ends, 1 the unroll bound cut it, 2 it spins or waits
 * forever) */
void wl__tg_emit(tgen *g, int cut);
/* cbtraces.c: a callback thread's traces, re-running the function with
 * each choice of loaded values */
void wl__tg_run_callback(tgen *g);

#endif
