/* cat.h -- the cat language as data: a reader for memory models written
 * in herd's cat language (as the files of shared/spec use it) and a literal
 * evaluator over one candidate execution.
 *
 * The evaluator is the second engine: the candidate enumerator
 * (model/cand.c) builds every candidate execution of a test plainly (no
 * model-specific pruning), fills a wl__cand with the base sets and
 * relations named below, and asks wl__cat_check whether the model's
 * checks hold.  A candidate has at most WL_CAT_MAXEV events; a relation
 * is one 64-bit row per event (bit j of row i: the pair (i, j)), a set
 * one 64-bit mask. */
#ifndef WL_CAT_H
#define WL_CAT_H

#include <stdint.h>

#include "../../common/internal.h"

#define WL_CAT_MAXEV 64

/* The base sets a model may name.  ORDER: WL_CAT_SETS and the names in
 * cat/eval.c's table stay in step (the X-macro gives both).
 *   _        every event
 *   R W F M  reads, writes, fences (barriers included, as Dat3M makes
 *            them fences), memory events (R | W)
 *   IW       the initial writes (one per location; weak, no thread)
 *   B        barrier events (bar.sync, bar.arrive, barrier.cta.*)
 *   RMW      the read and the write of every atom/red
 *   WEAK RLX ACQ REL ACQ_REL SC   semantics: ld/st.weak; .relaxed (and
 *            volatile); an acquire read; a release write; fence.acq_rel;
 *            fence.sc (also in ACQ_REL: FenceSC extends FenceAcqRel).
 *            An atom.acq_rel's read is ACQ and its write REL; .acquire:
 *            read ACQ, write RLX; .release: read RLX, write REL.
 *   CTA GPU SYS   the event's scope (strong accesses, fences, atomics)
 *   GEN SUR TEX CON  the proxy of a memory event or proxy fence (PTX
 *            7.5); ordinary accesses and fences are GEN
 *   ALIAS    fence.proxy.alias */
#define WL_CAT_SETS(X)                                                       \
  X(ALL, "_")                                                                \
  X(R, "R")                                                                  \
  X(W, "W")                                                                  \
  X(F, "F")                                                                  \
  X(M, "M")                                                                  \
  X(IW, "IW")                                                                \
  X(B, "B")                                                                  \
  X(RMW, "RMW")                                                              \
  X(WEAK, "WEAK")                                                            \
  X(RLX, "RLX")                                                              \
  X(ACQ, "ACQ")                                                              \
  X(REL, "REL")                                                              \
  X(ACQ_REL, "ACQ_REL")                                                      \
  X(SC, "SC")                                                                \
  X(CTA, "CTA")                                                              \
  X(GPU, "GPU")                                                              \
  X(SYS, "SYS")                                                              \
  X(GEN, "GEN")                                                              \
  X(SUR, "SUR")                                                              \
  X(TEX, "TEX")                                                              \
  X(CON, "CON")                                                              \
  X(ALIAS, "ALIAS")

/* The base relations.
 *   id       identity on events
 *   po       program order (strict, within a thread; not the init writes)
 *   po-loc   po & loc (also spelt poloc)
 *   loc      same location, memory events only (physical location:
 *            aliases of one location are the same location)
 *   vloc     same virtual address (PTX 7.5: an alias "y @ generic
 *            aliases x" is loc-equal to x but not vloc-equal)
 *   int ext  same thread / different threads (init writes: their own)
 *   rf co fr reads-from, coherence (strict, same location), and
 *            rf^-1;co minus id.  co as the candidate gives it: a strict
 *            partial order per location with the initial write first
 *   rmw      an RMW's read to its write
 *   addr data ctrl   dependencies from a read to a later event
 *   sr       same scope: both events have a scope and each one's scope
 *            instance contains the other's thread (same thread included)
 *   scta     both events' threads are in the same CTA (and GPU)
 *   syncbar  barrier events of one barrier phase: an arrival to every
 *            bar.sync (wait) of another thread in that phase
 *   sync_fence  fence.sc pairs that are morally strong, ordered by the
 *            candidate's fence-SC total order */
#define WL_CAT_RELS(X)                                                       \
  X(ID, "id")                                                                \
  X(PO, "po")                                                                \
  X(POLOC, "po-loc")                                                         \
  X(LOC, "loc")                                                               \
  X(VLOC, "vloc")                                                            \
  X(INT, "int")                                                              \
  X(EXT, "ext")                                                              \
  X(RF, "rf")                                                                \
  X(CO, "co")                                                                \
  X(FR, "fr")                                                                \
  X(RMWR, "rmw")                                                             \
  X(ADDR, "addr")                                                            \
  X(DATA, "data")                                                            \
  X(CTRL, "ctrl")                                                            \
  X(SR, "sr")                                                                \
  X(SCTA, "scta")                                                            \
  X(SYNCBAR, "syncbar")                                                      \
  X(SYNC_FENCE, "sync_fence")

#define WL_CAT_SET_ENUM(id, name) WL_CAT_S_##id,
#define WL_CAT_REL_ENUM(id, name) WL_CAT_R_##id,
enum { WL_CAT_SETS(WL_CAT_SET_ENUM) WL_CAT_NSETS };
enum { WL_CAT_RELS(WL_CAT_REL_ENUM) WL_CAT_NRELS };
#undef WL_CAT_SET_ENUM
#undef WL_CAT_REL_ENUM

typedef uint64_t wl__catrel[WL_CAT_MAXEV];

/* One candidate execution, as the evaluator sees it.  Rows and bits at
 * or past n are zero. */
typedef struct wl__cand {
  int n;
  uint64_t set[WL_CAT_NSETS];
  wl__catrel rel[WL_CAT_NRELS];
} wl__cand;

/* A parsed model (opaque; cat/catint.h).  It is the public wl_model
 * (warplab.h) under its engine name: a const wl_model * from
 * wl_explore_opts.model can be passed to wl__cat_check as it is. */
typedef struct wl_model wl_cat;

/* Reads a model.  filename names it in messages and is the directory
 * "include" is resolved against (NULL: the current directory); text is
 * not kept.  Errors (WL_ESYNTAX) read "file:line:col: message": a syntax
 * error, an unknown name, a set used where a relation is needed (or the
 * reverse), an include that cannot be read or that includes itself. */
int wl__cat_parse(wl_ctx *ctx, const char *filename, const char *text,
                  size_t len, wl_cat **out);
/* Reads the file at path. */
int wl__cat_load(wl_ctx *ctx, const char *path, wl_cat **out);
void wl__cat_free(wl_cat *m);
/* The model's name: its first line's word or string. */
const char *wl__cat_name(const wl_cat *m);

/* Outcome of one check of a candidate. */
typedef struct wl__cat_out {
  int consistent;  /* every acyclic/irreflexive/empty check holds */
  int failed;      /* index of the first failing check, or -1 */
  uint64_t flags;  /* bit k: flag k (in model order) is raised (its
                    * condition holds).  Evaluation stops at the first
                    * failing check, as herd does: flags after it are 0,
                    * so read flags of consistent candidates only. */
} wl__cat_out;

/* Evaluates every binding and check of m on c, literally.  Returns 0
 * (and fills out), WL_ENOMEM or WL_ESTOPPED (wl__cat_scratch_set_stop).
 * m is not changed: one model may be checked from several threads at
 * once, each with its own scratch (wl__cat_scratch). */
typedef struct wl__cat_scratch wl__cat_scratch;
int wl__cat_scratch_new(wl_ctx *ctx, const wl_cat *m, wl__cat_scratch **out);
void wl__cat_scratch_free(wl__cat_scratch *s);
/* Makes the evaluations with s poll stop (NULL: none) now and then (every
 * 65,536 operations run, let rec rounds included): when it returns
 * non-zero, the evaluation returns WL_ESTOPPED (no message; out is not
 * to be read) and s's kept values are dropped. */
void wl__cat_scratch_set_stop(wl__cat_scratch *s, int (*stop)(void *ud),
                              void *ud);
int wl__cat_check(const wl_cat *m, wl__cat_scratch *s, const wl__cand *c,
                  wl__cat_out *out);

/* Evaluates only the non-flag checks whose bit is set in only (check k:
 * bit k; checks past 63 are never evaluated); out->consistent is 0 when
 * one of them fails.  Flags are not evaluated. */
int wl__cat_check_only(const wl_cat *m, wl__cat_scratch *s,
                       const wl__cand *c, uint64_t only, wl__cat_out *out);

/* As wl__cat_check (partial == 0) or wl__cat_check_only (partial != 0,
 * only: the checks to evaluate), but s keeps the values it computed for
 * the previous candidate checked with s, and reuses every value that
 * depends on no base relation in changed_rels (bit WL_CAT_R_*) and no
 * base set in changed_sets (bit WL_CAT_S_*).  Pass ~0 for both when
 * the candidate is new (another combination of events); a different n
 * also recomputes everything.  The masks must cover every change since
 * the previous call with s (of any of these three functions), whatever
 * wl__cand c is: a change left out gives wrong verdicts.  A partial
 * call computes only what the checks in only read.  The outcome is
 * exactly wl__cat_check's (wl__cat_check_only's) on c. */
int wl__cat_eval(const wl_cat *m, wl__cat_scratch *s, const wl__cand *c,
                 uint64_t changed_rels, uint64_t changed_sets, int partial,
                 uint64_t only, wl__cat_out *out);

/* The non-flag checks (bit k: check k, k < 64) that can only turn false
 * as the base relations in rels (bit WL_CAT_R_*) grow: a failure of one
 * of them on a candidate whose rels are subsets of a completion's is a
 * failure of the completion (polarity.c).  ctx: scratch allocation (an
 * allocation failure gives 0, no pruning). */
uint64_t wl__cat_monotone_checks(const wl_cat *m, uint64_t rels,
                                 wl_ctx *ctx);

/* The model's checks, for reports: count, and the name of check k (its
 * "as" name, else "check k" with its kind), and whether it is a flag.
 * Flags are numbered among flags, checks among non-flag checks. */
int wl__cat_nchecks(const wl_cat *m);
const char *wl__cat_check_name(const wl_cat *m, int k);
int wl__cat_nflags(const wl_cat *m);
const char *wl__cat_flag_name(const wl_cat *m, int k);

/* Whether m uses base relation/set id (so the enumerator can skip work
 * nobody reads, e.g. sync_fence orders for a model without it).  Only
 * what some check or flag reads counts: a let nobody uses does not. */
int wl__cat_uses_rel(const wl_cat *m, int rel);
int wl__cat_uses_set(const wl_cat *m, int set);

/* ---------------- explanations (explain.c) ---------------- */

/* Called by the candidate enumerator (model/cand.c) for every
 * consistent candidate, just before it is reported, with the candidate
 * and the enumerator's execution (a struct exe of model/model.h); a
 * non-zero return stops the enumeration with that code. */
typedef int (*wl__cat_observe_fn)(void *ud, const wl__cand *c,
                                  const void *exe);

/* A copy of m that may be changed by the calls below (m never is),
 * allocated from ctx (the caller's: m may be shared read-only by
 * threads each with a context of its own, bindings/lpool.c), which
 * frees it.  WL_ENOMEM. */
int wl__cat_copy(wl_ctx *ctx, const wl_cat *m, wl_cat **out);
/* Non-flag checks (bit k: check k) that no longer decide consistency:
 * a candidate failing only them is consistent.  0 restores the model. */
void wl__cat_set_waived(wl_cat *m, uint64_t waived);
void wl__cat_set_observer(wl_cat *m, wl__cat_observe_fn fn, void *ud);
/* The observer of m, or NULL (*ud gets its argument). */
wl__cat_observe_fn wl__cat_observer(const wl_cat *m, void **ud);

/* What check k (a non-flag check) tests on c: *kind is 'a' (acyclic),
 * 'i' (irreflexive), 'e' (empty relation) or 's' (empty set); rows
 * (WL_CAT_MAXEV entries) get the relation, *set the set; *negated is
 * set for a check written with '~'.  Evaluates only what check k reads,
 * with s.  0, WL_EINVAL (no such check) or WL_ENOMEM. */
int wl__cat_check_value(const wl_cat *m, wl__cat_scratch *s,
                        const wl__cand *c, int k, int *kind, int *negated,
                        uint64_t *rows, uint64_t *set);

#endif
