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
  int n = E->n, i;
  rel cop, fr, tmp;
  const uint64_t *co = E->cok;
  uint64_t m, mem = E->setR | E->setW;
  (void)x;
  /* only rows of writes (cop) and of reads (fr) can be non-empty */
  rel_zero(cop, n);
  rel_zero(fr, n);
  for (m = E->setW; m; m &= m - 1) {
    i = __builtin_ctzll(m);
    cop[i] = co[i] & (i < E->ninit ? ~0ull : E->ms[i] | E->cause[i]);
  }
  rel_closure_on(cop, E->setW);
  /* fr = (rf^-1 ; cop) \ id: a read has one write to read from */
  for (m = E->setR; m; m &= m - 1) {
    i = __builtin_ctzll(m);
    fr[i] = cop[E->rf[i]] & ~(1ull << i);
  }
  /* Atomicity: empty ((ms & fr) ; (ms & cop)) & rmw */
  for (m = E->setR; m; m &= m - 1) {
    uint64_t r, mid;
    i = __builtin_ctzll(m);
    if (!(r = E->rmw[i]))
      continue;
    mid = fr[i] & E->ms[i];
    while (mid) {
      int k = __builtin_ctzll(mid);
      mid &= mid - 1;
      if (cop[k] & E->ms[k] & r)
        return 0;
    }
  }
  /* SC-per-Location: acyclic ((ms & (rf | cop | fr)) | po-loc) */
  rel_zero(tmp, n);
  for (m = mem; m; m &= m - 1) {
    i = __builtin_ctzll(m);
    tmp[i] = (E->ms[i] & (E->rfr[i] | cop[i] | fr[i])) | E->poloc[i];
  }
  rel_closure_on(tmp, mem);
  for (m = mem; m; m &= m - 1)
    if (tmp[__builtin_ctzll(m)] >> __builtin_ctzll(m) & 1)
      return 0;
  /* Causality: irreflexive ((rf | fr) ; cause) */
  for (m = mem; m; m &= m - 1) {
    uint64_t row;
    i = __builtin_ctzll(m);
    for (row = E->rfr[i] | fr[i]; row; row &= row - 1)
      if (E->cause[__builtin_ctzll(row)] >> i & 1)
        return 0;
  }
  return 1;
}

/* The writes of location l other than its initial write. */
uint64_t wl__xp_loc_writes(const exe *E, int l) {
  uint64_t m = 0;
  int i;
  for (i = E->ninit; i < E->n; i++)
    if (E->ev[i].type == EV_W && E->ev[i].loc == l)
      m |= 1ull << i;
  return m;
}

/* The causality order of the current reads-from, barrier phases and
 * (possibly partial) fence-SC order, and the axioms that depend on it
 * but not on coherence.  Every relation here is monotone in sf, so a
 * failure on a partial fence-SC order holds for every completion. */
int wl__xp_cause_ok(exe *E) {
  int n = E->n, i;
  rel X, S = {0}, tmp, cb; /* S: gcc -O1 warns maybe-uninitialized */
  /* cause-base = po?; ((sync | sync_fence | sync_barrier); po?)+ */
  for (i = 0; i < n; i++)
    S[i] = E->sync[i] | E->sf[i] | E->sb[i];
  rel_seq(tmp, S, E->po, n);
  for (i = 0; i < n; i++)
    X[i] = S[i] | tmp[i];
  rel_closure(X, n);
  rel_seq(tmp, E->po, X, n);
  for (i = 0; i < n; i++)
    cb[i] = X[i] | tmp[i];
  /* cause = cause-base | observation; (cause-base | po-loc) */
  for (i = 0; i < n; i++)
    tmp[i] = cb[i] | E->poloc[i];
  rel_seq(E->cause, E->obs, tmp, n);
  for (i = 0; i < n; i++)
    E->cause[i] |= cb[i];
  /* Fence-SC, as the PTX ISA words it (ptx-v6.0-isa.cat): irreflexive
   * (sync_fence ; cause).  Only morally strong fence.sc pairs are
   * ordered; ptx-v6.0.cat's literal "empty ([F&SC]; cause; [F&SC]) \
   * sync_fence" would also forbid causality between fence.sc that are
   * not morally strong (spec/README.md, "Where ptx-v6.0.cat leaves a
   * choice"). */
  for (i = 0; i < n; i++) {
    uint64_t after = E->sf[i];
    while (after) {
      int j = __builtin_ctzll(after);
      after &= after - 1;
      if (E->cause[j] >> i & 1)
        return 0;
    }
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
  int n = E->n, i;
  uint64_t m;
  for (i = 0; i < n; i++) {
    uint64_t same;
    req[i] = 0;
    if (E->ev[i].type != EV_W || i < E->ninit)
      continue;
    same = wl__xp_loc_writes(E, E->ev[i].loc);
    req[i] = ((E->cause[i] | E->poloc[i]) & same) | E->colast[i];
  }
  for (m = E->setR; m; m &= m - 1) {
    int r = __builtin_ctzll(m), w = E->rf[r];
    uint64_t ws;
    if (w < E->ninit)
      continue; /* wl__xp_check_co judges reads of the initial value */
    ws = wl__xp_loc_writes(E, E->ev[r].loc) & ~(1ull << w);
    for (; ws; ws &= ws - 1) {
      int w2 = __builtin_ctzll(ws);
      if ((((E->poloc[w2] & E->ms[w2]) >> r & 1) || (E->cause[w2] >> r & 1)) &&
          (((E->ms[w] | E->cause[w]) >> w2) & 1))
        req[w2] |= 1ull << w;
    }
  }
}

/* Whether `to` is reachable from `from` in rf | dep | rmw (the
 * relation of No-Thin-Air), walking frontiers of bit rows. */
static int reaches_nta(const exe *E, int from, int to) {
  uint64_t seen = 1ull << from, front = seen;
  while (front) {
    uint64_t next = 0;
    while (front) {
      int i = __builtin_ctzll(front);
      front &= front - 1;
      next |= E->rfr[i] | E->dep[i] | E->rmw[i];
    }
    if (next >> to & 1)
      return 1;
    front = next & ~seen;
    seen |= next;
  }
  return 0;
}

/* The same in (ms & rf) | po-loc (SC-per-Location's part fixed by rf). */
static int reaches_scl(const exe *E, int from, int to) {
  uint64_t seen = 1ull << from, front = seen;
  while (front) {
    uint64_t next = 0;
    while (front) {
      int i = __builtin_ctzll(front);
      front &= front - 1;
      next |= (E->ms[i] & E->rfr[i]) | E->poloc[i];
    }
    if (next >> to & 1)
      return 1;
    front = next & ~seen;
    seen |= next;
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
    int w1 = r + 1;
    uint64_t others = E->rfr[w] & ~(1ull << r);
    while (others) {
      int r2 = __builtin_ctzll(others), w2 = r2 + 1;
      others &= others - 1;
      if (!E->ev[r2].rmw)
        continue;
      if ((w < E->ninit || ((E->ms[w] >> w1 & 1) && (E->ms[w] >> w2 & 1))) &&
          (E->ms[r2] >> w1 & 1) && (E->ms[r] >> w2 & 1) &&
          (E->ms[w1] >> w2 & 1))
        return 0;
    }
  }
  /* No-Thin-Air and the rf part of SC-per-Location on the partial rf:
   * both relations were acyclic before the edge w -> r was added, so a
   * cycle would go through it: r would reach w. */
  if (reaches_nta(E, r, w))
    return 0;
  return !((E->ms[w] >> r & 1) && reaches_scl(E, r, w));
}
