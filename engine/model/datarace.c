/* datarace.c -- data races in the explorer's executions (issue 12).
 *
 * PTX ISA 6.0, "Memory Consistency Model": two memory operations
 * conflict when they overlap (here: the same location) and at least one
 * is a write; two conflicting operations are in a data race when they
 * are not morally strong and not related in causality order.  Events of
 * one thread are morally strong with each other (exe.c), so a race is
 * always between two threads; the initial writes never race.
 *
 * The search (explore.c, mode XP_RACE) goes over every consistent
 * execution, as count_executions does, prefixes of threads that spin
 * forever included (a race in a prefix is a race of every execution
 * that extends it; traces the unroll bound cut are left out), and
 * stops at the first that races.  Causality order only grows as the fence-SC
 * order is chosen, so once reads-from is fixed a combination whose
 * every conflicting pair is already ordered (or morally strong) cannot
 * race in any completion: wl__xp_race_possible prunes it there. */
#include <string.h>

#include "explore.h"

static int is_access(const wl_ev *e) { return e->type == EV_R || e->type == EV_W; }

/* Whether events i and j of E race under E's current causality order. */
static int races(const exe *E, int i, int j) {
  const wl_ev *a = &E->ev[i], *b = &E->ev[j];
  if (E->thread[i] < 0 || E->thread[j] < 0 || E->thread[i] == E->thread[j])
    return 0;
  if (!is_access(a) || !is_access(b) || a->loc != b->loc)
    return 0;
  if (a->type != EV_W && b->type != EV_W)
    return 0;
  if (rel_has(E->ms, i, j))
    return 0;
  return !rel_has(E->cause, i, j) && !rel_has(E->cause, j, i);
}

/* The first racing pair (i < j) of E, or 0. */
static int first_race(const exe *E, int *pi, int *pj) {
  int i, j;
  for (i = E->ninit; i < E->n; i++)
    for (j = i + 1; j < E->n; j++)
      if (races(E, i, j)) {
        *pi = i;
        *pj = j;
        return 1;
      }
  return 0;
}

int wl__xp_race_possible(const exe *E) {
  int i, j;
  return first_race(E, &i, &j);
}

/* The position of event i among its thread's events. */
static int thread_index(const exe *E, int i) {
  int k, n = 0;
  for (k = E->ninit; k < i; k++)
    n += E->thread[k] == E->thread[i];
  return n;
}

static void describe(const exe *E, int i, wl_race_access *a) {
  const wl_ev *e = &E->ev[i];
  a->thread = E->thread[i];
  a->index = thread_index(E, i);
  a->kind = e->type == EV_W ? 'W' : 'R';
  a->sem = e->sem;
  a->scope = e->scope;
  a->line = e->line;
  a->value = e->val;
}

int wl__xp_race_found(xp *x, exe *E) {
  int i, j;
  /* the causality order of the complete fence-SC order (sc_dfs leaves
   * the last one computed; recomputing it costs little here) */
  if (!wl__xp_cause_ok(E) || !first_race(E, &i, &j))
    return 0;
  x->res->race_found = 1;
  memset(&x->res->race, 0, sizeof x->res->race);
  x->res->race.loc = E->ev[i].loc;
  describe(E, i, &x->res->race.a[0]);
  describe(E, j, &x->res->race.a[1]);
  x->ub_done = 1;
  return 0;
}

int wl_result_race(const wl_result *r, wl_race_info *out) {
  if (r == NULL || !r->race_checked)
    return -1;
  if (r->race_found && out != NULL)
    *out = r->race;
  return r->race_found;
}
