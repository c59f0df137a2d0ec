/* axioms.c -- the axioms of the PTX 6.0 model
 * (ptx-v6.0-isa.cat) on executions being built: Coherence,
 * SC-per-Location, Atomicity and Causality with the coherence pairs known
 * so far, Fence-SC with a partial fence-SC order, No-Thin-Air and
 * SC-per-Location on a partial reads-from.  Every check is monotone in
 * the choices still open, so a failure prunes the whole branch. */
#include <stdio.h>
#include <string.h>

#include "explore.h"

/* ---------------- axioms ---------------- */

/* Checks the co-dependent axioms for the current total coherence order
 * (E->wl).  PTX coherence is partial: only pairs that are morally strong,
 * ordered by causality, or from the initial write must be ordered, so the
 * axioms are evaluated on cop = (co & needco)+ as in ptx-asplos19.cat;
 * the final value of a location is its co-last write. */
int wl__xp_check_co(xp *x, exe *E) {
  int n = E->n, i, k;
  rel cop, fr, tmp;
  const evset *co = E->cok;
  evset mem = es_or(E->setR, E->setW);
  (void)x;
  /* only rows of writes (cop) and of reads (fr) can be non-empty */
  rel_zero(cop, n);
  rel_zero(fr, n);
  ES_FOR(i, E->setW) {
    cop[i] = i < E->ninit ? co[i]
                          : es_and(co[i], es_or(E->ms[i], E->cause[i]));
  }
  rel_closure_on(cop, E->setW);
  /* fr = (rf^-1 ; cop) \ id: a read has one write to read from */
  ES_FOR(i, E->setR) {
    fr[i] = cop[E->rf[i]];
    es_del(&fr[i], i);
  }
  /* Atomicity: empty ((ms & fr) ; (ms & cop)) & rmw */
  ES_FOR(i, E->setR) {
    evset r = E->rmw[i], mid;
    if (es_empty(r))
      continue;
    mid = es_and(fr[i], E->ms[i]);
    ES_FOR(k, mid)
    if (es_meets(es_and(cop[k], E->ms[k]), r))
      return 0;
  }
  /* SC-per-Location: acyclic ((ms & (rf | cop | fr)) | po-loc) */
  rel_zero(tmp, n);
  ES_FOR(i, mem) {
    tmp[i] = es_or(es_and(E->ms[i], es_or(E->rfr[i], es_or(cop[i], fr[i]))),
                   E->poloc[i]);
  }
  rel_closure_on(tmp, mem);
  ES_FOR(i, mem)
  if (es_has(tmp[i], i))
    return 0;
  /* Causality: irreflexive ((rf | fr) ; cause) */
  ES_FOR(i, mem) {
    evset row = es_or(E->rfr[i], fr[i]);
    ES_FOR(k, row)
    if (es_has(E->cause[k], i))
      return 0;
  }
  return 1;
}

/* The writes of location l other than its initial write. */
evset wl__xp_loc_writes(const exe *E, int l) {
  evset m = ES_EMPTY;
  int i;
  for (i = E->ninit; i < E->n; i++)
    if (E->ev[i].type == EV_W && E->ev[i].loc == l)
      es_add(&m, i);
  return m;
}

/* The causality order of the current reads-from, barrier phases and
 * (possibly partial) fence-SC order, and the axioms that depend on it
 * but not on coherence.  Every relation here is monotone in sf, so a
 * failure on a partial fence-SC order holds for every completion. */
int wl__xp_cause_ok(exe *E) {
  int n = E->n, i;
  rel X, S, tmp, cb;
  rel_zero(S, n); /* every row is set below; gcc -O1 cannot tell */
  /* cause-base = po?; ((sync | sync_fence | sync_barrier); po?)+ */
  for (i = 0; i < n; i++)
    S[i] = es_or(E->sync[i], es_or(E->sf[i], E->sb[i]));
  rel_seq(tmp, S, E->po, n);
  for (i = 0; i < n; i++)
    X[i] = es_or(S[i], tmp[i]);
  rel_closure(X, n);
  rel_seq(tmp, E->po, X, n);
  for (i = 0; i < n; i++)
    cb[i] = es_or(X[i], tmp[i]);
  /* cause = cause-base | observation; (cause-base | po-loc) */
  for (i = 0; i < n; i++)
    tmp[i] = es_or(cb[i], E->poloc[i]);
  rel_seq(E->cause, E->obs, tmp, n);
  for (i = 0; i < n; i++)
    E->cause[i] = es_or(E->cause[i], cb[i]);
  /* Fence-SC, as the PTX ISA words it (ptx-v6.0-isa.cat): irreflexive
   * (sync_fence ; cause).  Only morally strong fence.sc pairs are
   * ordered; ptx-v6.0.cat's literal "empty ([F&SC]; cause; [F&SC]) \
   * sync_fence" would also forbid causality between fence.sc that are
   * not morally strong (spec/README.md, "Where ptx-v6.0.cat leaves a
   * choice"). */
  for (i = 0; i < n; i++) {
    int j;
    ES_FOR(j, E->sf[i])
    if (es_has(E->cause[j], i))
      return 0;
  }
  /* Causality, the rf half: irreflexive (rf ; cause) */
  rel_seq(tmp, E->rfr, E->cause, n);
  return rel_irreflexive(tmp, n);
}

/* Coherence, with rf, sf and cause fixed.  Cause-ordered writes to one
 * location are co-ordered, program-ordered writes too
 * (SC-per-Location): these are the required pairs of the coherence
 * search.  E->cok holds the pairs known before any choice (the initial
 * write first). */
/* The coherence pairs every consistent completion must have (between
 * non-initial writes): cause- and program-ordered writes of a location,
 * the co-last choice, and from reads-from (coWR): when r reads w and
 * another write w' of the location is po-loc-before r (morally strong
 * with r) or cause-before r, w' must come before w wherever w -> w'
 * would be a pair of cop (w and w' morally strong or cause-ordered) --
 * the other way round, fr would close a cycle of SC-per-Location or of
 * Causality. */
void wl__xp_co_required(const exe *E, rel req) {
  int n = E->n, i, r;
  for (i = 0; i < n; i++) {
    evset same;
    req[i] = ES_EMPTY;
    if (E->ev[i].type != EV_W || i < E->ninit)
      continue;
    same = wl__xp_loc_writes(E, E->ev[i].loc);
    req[i] = es_or(es_and(es_or(E->cause[i], E->poloc[i]), same),
                   E->colast[i]);
  }
  ES_FOR(r, E->setR) {
    int w = E->rf[r], w2;
    evset ws;
    if (w < E->ninit)
      continue; /* wl__xp_check_co judges reads of the initial value */
    /* an RMW's write follows the write its read reads from when the
     * three are morally strong: the other way round, co; rf; po-loc
     * would close a cycle of SC-per-Location (an RMW chain on a counter
     * is then one order, not a search) */
    if (E->ev[r].rmw && es_has(E->ms[w], r) && es_has(E->ms[w], r + 1))
      es_add(&req[w], r + 1);
    ws = wl__xp_loc_writes(E, E->ev[r].loc);
    es_del(&ws, w);
    ES_FOR(w2, ws) {
      if ((es_has(es_and(E->poloc[w2], E->ms[w2]), r) ||
           es_has(E->cause[w2], r)) &&
          es_has(es_or(E->ms[w], E->cause[w]), w2))
        es_add(&req[w2], w);
    }
  }
}

/* Whether `to` is reachable from `from` in rf | dep | rmw (the
 * relation of No-Thin-Air), walking frontiers of bit rows. */
static int reaches_nta(const exe *E, int from, int to) {
  evset seen = es_single(from), front = seen;
  while (!es_empty(front)) {
    evset next = ES_EMPTY;
    int i;
    ES_FOR(i, front)
    next = es_or(next, es_or(E->rfr[i], es_or(E->dep[i], E->rmw[i])));
    if (es_has(next, to))
      return 1;
    front = es_andnot(next, seen);
    seen = es_or(seen, next);
  }
  return 0;
}

/* The same in (ms & rf) | po-loc (SC-per-Location's part fixed by rf). */
static int reaches_scl(const exe *E, int from, int to) {
  evset seen = es_single(from), front = seen;
  while (!es_empty(front)) {
    evset next = ES_EMPTY;
    int i;
    ES_FOR(i, front)
    next = es_or(next, es_or(es_and(E->ms[i], E->rfr[i]), E->poloc[i]));
    if (es_has(next, to))
      return 1;
    front = es_andnot(next, seen);
    seen = es_or(seen, next);
  }
  return 0;
}

/* Pruning while reads-from is chosen: checks that hold for every
 * completion of a partial choice. */
int wl__xp_rf_partial_ok(const exe *E, int r, int w) {
  /* Atomicity: two RMWs morally strong with each other and with their
   * source cannot both read from one write: whichever writes first lies
   * between the other's read and write. */
  if (E->ev[r].rmw) {
    int w1 = r + 1, r2;
    evset others = E->rfr[w];
    es_del(&others, r);
    ES_FOR(r2, others) {
      int w2 = r2 + 1;
      if (!E->ev[r2].rmw)
        continue;
      if ((w < E->ninit || (es_has(E->ms[w], w1) && es_has(E->ms[w], w2))) &&
          es_has(E->ms[r2], w1) && es_has(E->ms[r], w2) &&
          es_has(E->ms[w1], w2))
        return 0;
    }
  }
  /* No-Thin-Air and the rf part of SC-per-Location on the partial rf:
   * both relations were acyclic before the edge w -> r was added, so a
   * cycle would go through it: r would reach w. */
  if (reaches_nta(E, r, w))
    return 0;
  return !(es_has(E->ms[w], r) && reaches_scl(E, r, w));
}
