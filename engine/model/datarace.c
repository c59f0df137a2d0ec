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

/* Whether any two threads have conflicting accesses that are not
 * morally strong in some pair of their traces: when none has, no
 * execution races and the race search is skipped (its every
 * combination would be built only to find each pair morally strong). */
typedef struct akind {
  int16_t loc;
  uint8_t type, strong, scope;
} akind;
#define AKINDS 128

static int kinds_of(const xp *x, int th, akind *k) {
  const tpool *p = &x->pool[th];
  size_t i;
  int n = 0, j;
  for (i = 0; i < p->ev.n; i++) {
    const wl_ev *e = WL_VEC_PTR(&p->ev, wl_ev, i);
    akind a;
    if (!is_access(e))
      continue;
    a.loc = e->loc;
    a.type = e->type;
    a.strong = (uint8_t)wl__sem_strong(e->sem);
    a.scope = e->scope;
    for (j = 0; j < n; j++)
      if (k[j].loc == a.loc && k[j].type == a.type &&
          k[j].strong == a.strong && k[j].scope == a.scope)
        break;
    if (j < n)
      continue;
    if (n == AKINDS)
      return -1;
    k[n++] = a;
  }
  return n;
}

int wl__xp_race_any(const xp *x) {
  const wl_litmus *t = x->t;
  akind ka[AKINDS], kb[AKINDS];
  int a, b, i, j, na, nb;
  for (a = 0; a < t->nthreads; a++) {
    if (t->threads[a].fn != NULL || (na = kinds_of(x, a, ka)) < 0)
      return 1; /* not known ahead: search */
    for (b = a + 1; b < t->nthreads; b++) {
      const wl_thread *ta = &t->threads[a], *tb = &t->threads[b];
      if (tb->fn != NULL || (nb = kinds_of(x, b, kb)) < 0)
        return 1;
      for (i = 0; i < na; i++)
        for (j = 0; j < nb; j++) {
          wl__msop oa = {ka[i].strong, ka[i].scope, ta->cta, ta->gpu};
          wl__msop ob = {kb[j].strong, kb[j].scope, tb->cta, tb->gpu};
          /* conflicting (the same location, one writes) and not
           * morally strong (threads a and b differ: no program order) */
          if (ka[i].loc == kb[j].loc &&
              (ka[i].type == EV_W || kb[j].type == EV_W) &&
              !wl__morally_strong(0, 1, oa, ob))
            return 1;
        }
    }
  }
  return 0;
}
