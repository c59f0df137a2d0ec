/* strength.h -- the PTX 6.0 notions of strength, each judged once (PTX
 * ISA 6.0, "Memory Consistency Model"; spec/ptx-v6.0-isa.cat): strong
 * operations, releases and acquires, the semantics of an RMW's two
 * events, scope inclusion and morally strong.  The explorer (model/exe.c,
 * traces.c, findings.c), its race search (model/datarace.c), the kernel
 * race checker (check/race.c) and the simulator (sim/) ask these; the
 * cat engine's candidates (model/cand.c) hand the cat its base sets and
 * the sr relation instead, and the cat composes morally-strong itself.
 * Static inline: exe.c's pair loop and the race checker's every access
 * are hot paths.  Only warplab.h is needed (no wl_thread): the checker
 * places its threads by block, not by a test's threads. */
#ifndef WL_STRENGTH_H
#define WL_STRENGTH_H

#include "../warplab.h"

/* Strong (the cat's strong-read/strong-write): a memory operation whose
 * semantics is not .weak (relaxed, acquire, release, acq_rel).  A fence
 * is always a strong operation (strong-operation = strong-m | F); callers
 * that hold fences say so themselves. */
static inline int wl__sem_strong(int sem) { return sem != WL_SEM_WEAK; }

/* Whether an operation of semantics sem releases: .release, .acq_rel
 * (atom's write, fence.acq_rel) and fence.sc (FenceSC extends
 * FenceAcqRel, PTX ISA 6.0, 8.7.2). */
static inline int wl__sem_releases(int sem) {
  return sem == WL_SEM_RELEASE || sem == WL_SEM_ACQ_REL || sem == WL_SEM_SC;
}

/* Whether it acquires: .acquire, .acq_rel, fence.sc. */
static inline int wl__sem_acquires(int sem) {
  return sem == WL_SEM_ACQUIRE || sem == WL_SEM_ACQ_REL || sem == WL_SEM_SC;
}

/* The semantics of the read and of the write event of an RMW (atom, red)
 * of semantics sem (never .weak or .sc: the parser and wl_tb_atomic
 * refuse those): atom.acq_rel is an acquire read and a release write,
 * atom.acquire an acquire read, atom.release a release write; the other
 * half is relaxed. */
static inline int wl__rmw_read_sem(int sem) {
  return wl__sem_acquires(sem) ? WL_SEM_ACQUIRE : WL_SEM_RELAXED;
}
static inline int wl__rmw_write_sem(int sem) {
  return wl__sem_releases(sem) ? WL_SEM_RELEASE : WL_SEM_RELAXED;
}

/* Whether scope (WL_SCOPE_*) of an operation of a thread placed at (cta,
 * gpu) includes a thread placed at (octa, ogpu): the same CTA of the same
 * GPU, the same GPU, or any thread; none for WL_SCOPE_NONE (.weak). */
static inline int wl__scope_covers(int scope, int cta, int gpu, int octa,
                                   int ogpu) {
  switch (scope) {
  case WL_SCOPE_CTA:
    return cta == octa && gpu == ogpu;
  case WL_SCOPE_GPU:
    return gpu == ogpu;
  case WL_SCOPE_SYS:
    return 1;
  default:
    return 0;
  }
}

/* One side of a pair, as morally strong sees it. */
typedef struct wl__msop {
  int strong;   /* a strong operation: wl__sem_strong of an access's
                 * semantics, or 1 for a fence */
  int scope;    /* WL_SCOPE_* */
  int cta, gpu; /* its thread's placement */
} wl__msop;

/* Morally strong (ptx-v6.0-isa.cat's morally-strong = (ms1 & ms2) \ id):
 *   ms1: the two are related in program order (po: of one thread), or
 *        both are strong and each one's scope includes the other's
 *        thread;
 *   ms2: when both are memory operations they overlap completely
 *        (overlap: the same location; for byte-addressed memory the
 *        same bytes -- the spec's "overlap completely": two accesses of
 *        different sizes, or partly overlapping, are not morally strong
 *        even when both are strong); 1 when either is a fence.
 * Pairs of an event with itself (id) are the caller's to leave out. */
static inline int wl__morally_strong(int po, int overlap, wl__msop a,
                                     wl__msop b) {
  if (!overlap)
    return 0;
  return po || (a.strong && b.strong &&
                wl__scope_covers(a.scope, a.cta, a.gpu, b.cta, b.gpu) &&
                wl__scope_covers(b.scope, b.cta, b.gpu, a.cta, a.gpu));
}

#endif
