/* whynot.c -- why a model forbids an outcome: the check (the cat file's
 * "as" name) that rules it out, on the closest candidate execution, and
 * the cycle or the non-empty relation that makes the check fail.
 *
 * The outcome is the test's condition: the final states that satisfy
 * its proposition (for forall, those that do not).  "Closest" is the
 * candidate whose first failing check comes latest in the model, found
 * without touching the explorer: the model is copied, and its checks
 * from K on are waived (a candidate failing only them is consistent),
 * for K = 0, 1, ... until no state of the outcome is left.  With the
 * largest K whose exploration still reaches the outcome, every
 * candidate reaching it under checks 0..K-1 fails check K: that is the
 * check to name, and the witness of the outcome's state under K is the
 * candidate to show.  A second exploration under the same K watches
 * the consistent candidates (wl__cat_set_observer) and keeps the one
 * that is that witness, so that the check's relation can be computed
 * on it (wl__cat_check_value).  The relation's cycle, reflexive pair
 * or pair is then shown through the base relations of the candidate
 * (po, rf, co, fr, sync_fence, syncbar, rmw, dependencies) as a
 * shortest path, fences and synchronisation preferred to communication
 * (a deliberate simplification: the path is one that exists in the
 * candidate, not a derivation of the check's relation). */
#include <string.h>

#include "cand.h"
#include "graph.h"

struct wl_whynot {
  wl_ctx *ctx;
  const wl_litmus *t;
  wl_cat *m;         /* the private copy */
  int status;        /* WL_WHYNOT_* */
  int check;         /* the failing check, or -1 */
  wl_result *res;    /* the exploration under checks 0..check-1 */
  size_t state;      /* its state of the outcome */
  int captured;
  wl__cand cand;     /* the witness of that state, as the model saw it */
  int kind, negated; /* of the check: 'a' 'i' 'e' 's' */
  uint64_t rows[WL_CAT_MAXEV], set;
  int nedges;        /* the explanation, as edges of the candidate */
  wl__gedge edges[2 * WL_MAX_EVENTS];
  int npair;         /* 'e': the pair shown; 'i': the event */
  int pair[2];
};

/* A final state belongs to the outcome. */
static int in_outcome(const wl_result *r, size_t s) {
  int sat = wl_result_state_sat(r, s);
  return r->cond_kind == WL_COND_FORALL ? !sat : sat;
}

static int find_outcome(const wl_result *r, size_t *s) {
  size_t i;
  for (i = 0; i < r->nstates; i++)
    if (in_outcome(r, i)) {
      *s = i;
      return 1;
    }
  return 0;
}

/* The observer: keeps the candidate whose events, rf, coherence order,
 * fence-SC order and barrier phases are those of the witness. */
static int same_as_witness(void *ud, const wl__cand *c, const void *exe_) {
  wl_whynot *w = ud;
  const exe *E = exe_;
  const wl_state *st = &w->res->states[w->state];
  int i, l, k;
  if (w->captured || E->n != st->nwit)
    return 0;
  for (i = 0; i < E->n; i++) {
    const wl_wit_ev *x = &st->wit[i];
    const wl_ev *e = &E->ev[i];
    int64_t v = e->type == EV_B ? e->bar_id : e->val;
    if (x->thread != E->thread[i] || x->type != e->type || x->line != e->line ||
        x->val != v || x->phase != E->phase[i])
      return 0;
    if ((e->type == EV_R || e->type == EV_W) && x->loc != e->loc)
      return 0;
    if (e->type == EV_R && x->rf != E->rf[i])
      return 0;
  }
  for (l = 0; l < w->t->nlocs; l++)
    for (k = 0; k < E->nwl[l]; k++)
      if (st->wit[E->wl[l][k]].co != k)
        return 0;
  for (k = 0; k < E->nscf; k++)
    if (st->wit[E->scf[E->scorder[k]]].sc != k)
      return 0;
  w->cand = *c;
  w->captured = 1;
  return WL_ESTOPPED; /* found: the exploration may stop */
}

/* ---------------- paths through the base relations ---------------- */

typedef struct base {
  const char *kind;
  int rel, weight;
} base;

/* Synchronisation and program order first, communication last. */
static const base bases[] = {
    {"po", WL_CAT_R_PO, 1},        {"sc", WL_CAT_R_SYNC_FENCE, 1},
    {"bar", WL_CAT_R_SYNCBAR, 1},  {"rmw", WL_CAT_R_RMWR, 1},
    {"data", WL_CAT_R_DATA, 1},    {"ctrl", WL_CAT_R_CTRL, 1},
    {"addr", WL_CAT_R_ADDR, 1},    {"rf", WL_CAT_R_RF, 3},
    {"co", WL_CAT_R_CO, 5},        {"fr", WL_CAT_R_FR, 5}};
#define NBASES ((int)(sizeof bases / sizeof bases[0]))

/* Row i of base b, program order and coherence reduced to immediate
 * successors (so that paths pass through the events in between). */
static uint64_t base_row(const wl__cand *c, int b, int i) {
  uint64_t r = c->rel[bases[b].rel][i];
  if (bases[b].rel == WL_CAT_R_PO || bases[b].rel == WL_CAT_R_CO) {
    uint64_t m = r, far = 0;
    while (m) {
      int j = __builtin_ctzll(m);
      m &= m - 1;
      far |= c->rel[bases[b].rel][j];
    }
    r &= ~far;
  }
  return r;
}

/* The kind of a direct base edge u -> v, or NULL. */
static const char *direct(const wl__cand *c, int u, int v) {
  int b;
  for (b = 0; b < NBASES; b++)
    if (c->rel[bases[b].rel][u] >> v & 1)
      return bases[b].kind;
  return NULL;
}

/* Appends the cheapest path u -> v (Dijkstra over n <= 64 events) to
 * w->edges; 0 when there is none. */
static int path(wl_whynot *w, int u, int v) {
  const wl__cand *c = &w->cand;
  int n = c->n, dist[WL_CAT_MAXEV], prev[WL_CAT_MAXEV], pk[WL_CAT_MAXEV];
  int i, b, k, stack[WL_CAT_MAXEV], ns = 0;
  uint64_t done = 0;
  for (i = 0; i < n; i++)
    dist[i] = 1 << 29;
  /* the first step leaves u, so that u == v finds a cycle */
  for (b = 0; b < NBASES; b++) {
    uint64_t m = base_row(c, b, u);
    while (m) {
      int j = __builtin_ctzll(m);
      m &= m - 1;
      if (bases[b].weight < dist[j]) {
        dist[j] = bases[b].weight;
        prev[j] = u;
        pk[j] = b;
      }
    }
  }
  for (;;) {
    int best = -1;
    for (i = 0; i < n; i++)
      if (!(done >> i & 1) && dist[i] < (1 << 29) &&
          (best < 0 || dist[i] < dist[best]))
        best = i;
    if (best < 0 || best == v)
      break;
    done |= 1ull << best;
    for (b = 0; b < NBASES; b++) {
      uint64_t m = base_row(c, b, best);
      while (m) {
        int j = __builtin_ctzll(m);
        m &= m - 1;
        if ((j != u || u == v) && dist[best] + bases[b].weight < dist[j]) {
          dist[j] = dist[best] + bases[b].weight;
          prev[j] = best;
          pk[j] = b;
        }
      }
    }
  }
  if (dist[v] >= (1 << 29))
    return 0;
  k = v;
  do {
    stack[ns++] = k;
    k = prev[k];
  } while (k != u && ns < n);
  for (i = ns - 1; i >= 0; i--) {
    int to = stack[i], from = i == ns - 1 ? u : stack[i + 1];
    if (w->nedges < (int)(sizeof w->edges / sizeof w->edges[0])) {
      w->edges[w->nedges].from = from;
      w->edges[w->nedges].to = to;
      w->edges[w->nedges].kind = bases[pk[to]].kind;
      w->nedges++;
    }
  }
  return 1;
}

/* One derived edge u -> v: a base edge when there is one, else a path,
 * else the edge itself named by the check. */
static void explain_edge(wl_whynot *w, int u, int v) {
  const char *d = u != v ? direct(&w->cand, u, v) : NULL;
  if (d != NULL && w->nedges < (int)(sizeof w->edges / sizeof w->edges[0])) {
    w->edges[w->nedges].from = u;
    w->edges[w->nedges].to = v;
    w->edges[w->nedges].kind = d;
    w->nedges++;
    return;
  }
  if (path(w, u, v))
    return;
  if (w->nedges < (int)(sizeof w->edges / sizeof w->edges[0])) {
    w->edges[w->nedges].from = u;
    w->edges[w->nedges].to = v;
    w->edges[w->nedges].kind = "axiom";
    w->nedges++;
  }
}

/* A shortest cycle of the relation rows over n events: cyc[0..len). */
static int rel_cycle(const uint64_t *rows, int n, int *cyc) {
  int s, best = 0;
  for (s = 0; s < n; s++) {
    int prev[WL_CAT_MAXEV], q[WL_CAT_MAXEV], qh = 0, qt = 0, found = -1;
    uint64_t seen = 1ull << s;
    q[qt++] = s;
    while (qh < qt && found < 0) {
      int u = q[qh++];
      uint64_t m = rows[u];
      while (m) {
        int v = __builtin_ctzll(m);
        m &= m - 1;
        if (v == s) {
          found = u;
          break;
        }
        if (!(seen >> v & 1)) {
          seen |= 1ull << v;
          prev[v] = u;
          q[qt++] = v;
        }
      }
    }
    if (found >= 0) {
      int len = 1, j, k;
      for (j = found; j != s; j = prev[j])
        len++;
      if (best == 0 || len < best) {
        best = len;
        k = len - 1;
        cyc[k] = found;
        for (j = found; j != s; j = prev[j])
          cyc[--k] = prev[j];
      }
    }
  }
  return best;
}

static int explain(wl_whynot *w) {
  wl__cat_scratch *scr;
  int r, n = w->cand.n, i;
  if ((r = wl__cat_scratch_new(w->ctx, w->m, &scr)) != 0)
    return r;
  r = wl__cat_check_value(w->m, scr, &w->cand, w->check, &w->kind,
                          &w->negated, w->rows, &w->set);
  wl__cat_scratch_free(scr);
  if (r != 0)
    return wl__err(w->ctx, r, "%s", r == WL_ENOMEM ? "out of memory"
                                                   : "no such check");
  if (w->negated)
    return 0; /* a negated check fails on an empty relation: no edges */
  if (w->kind == 'a') {
    int cyc[WL_CAT_MAXEV], len = rel_cycle(w->rows, n, cyc);
    for (i = 0; i < len; i++)
      explain_edge(w, cyc[i], cyc[(i + 1) % len]);
  } else if (w->kind == 'i') {
    for (i = 0; i < n; i++)
      if (w->rows[i] >> i & 1) {
        w->npair = 1;
        w->pair[0] = w->pair[1] = i;
        explain_edge(w, i, i);
        break;
      }
  } else if (w->kind == 'e') {
    for (i = 0; i < n && !w->npair; i++)
      if (w->rows[i]) {
        w->npair = 1;
        w->pair[0] = i;
        w->pair[1] = __builtin_ctzll(w->rows[i]);
        explain_edge(w, w->pair[0], w->pair[1]);
      }
  }
  return 0;
}

int wl_whynot_explain(wl_ctx *ctx, const wl_litmus *t, const wl_model *m,
                      int unroll, wl_whynot **out) {
  wl_whynot *w;
  wl_explore_opts o;
  int k, nchecks, r = 0;
  if (out != NULL)
    *out = NULL;
  if (ctx == NULL || t == NULL || m == NULL || out == NULL || unroll < 0)
    return WL_EINVAL;
  w = wl__calloc(ctx, sizeof *w);
  if (w == NULL)
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  w->ctx = ctx;
  w->t = t;
  w->check = -1;
  if ((r = wl__cat_copy(ctx, m, &w->m)) != 0)
    goto fail;
  nchecks = wl__cat_nchecks(w->m);
  if (nchecks > 64)
    nchecks = 64;
  memset(&o, 0, sizeof o);
  o.unroll = unroll;
  o.model = w->m;
  o.should_stop = ctx->stop; /* wl_ctx_set_stop */
  o.stop_ud = ctx->stop_ud;
  /* K = nchecks is the model itself: the outcome allowed? then K = 0
   * (no check at all), 1, ... */
  for (k = nchecks; k >= 0; k = k == nchecks ? 0 : k + 1) {
    wl_result *res = NULL;
    size_t s;
    uint64_t waived = k >= 64 ? 0 : ~0ull << k;
    wl__cat_set_waived(w->m, waived);
    if ((r = wl_explore(ctx, t, &o, &res)) != 0)
      goto fail;
    if (!find_outcome(res, &s)) {
      wl_result_free(res);
      if (k == nchecks && nchecks > 0)
        continue; /* forbidden: look for the check */
      break; /* check k-1 removes it (or no candidate reaches it) */
    }
    wl_result_free(w->res);
    w->res = res;
    w->state = s;
    if (k == nchecks) {
      w->status = WL_WHYNOT_ALLOWED;
      *out = w;
      return 0;
    }
    w->check = k;
    if (k == nchecks - 1)
      break;
  }
  if (w->res == NULL) {
    w->status = WL_WHYNOT_NO_CANDIDATE;
    w->check = -1;
    *out = w;
    return 0;
  }
  w->status = WL_WHYNOT_FORBIDDEN;
  /* the candidate behind the witness */
  wl__cat_set_waived(w->m, ~0ull << w->check);
  wl__cat_set_observer(w->m, same_as_witness, w);
  {
    wl_result *again = NULL;
    r = wl_explore(ctx, t, &o, &again);
    wl_result_free(again);
  }
  wl__cat_set_observer(w->m, NULL, NULL);
  wl__cat_set_waived(w->m, 0);
  if (r != 0 && !(r == WL_ESTOPPED && w->captured))
    goto fail;
  ctx->errmsg[0] = '\0';
  if (!w->captured) {
    r = wl__err(ctx, WL_EINVAL, "%s: the witness of the outcome was not "
                                "found again (an internal error)",
                t->name);
    goto fail;
  }
  if ((r = explain(w)) != 0)
    goto fail;
  *out = w;
  return 0;
fail:
  wl_whynot_free(w);
  return r;
}

void wl_whynot_free(wl_whynot *w) {
  if (w == NULL)
    return;
  wl_result_free(w->res);
  wl__cat_free(w->m);
  wl__free(w->ctx, w, sizeof *w);
}

int wl_whynot_status(const wl_whynot *w) { return w ? w->status : -1; }

const char *wl_whynot_check(const wl_whynot *w) {
  return w && w->check >= 0 ? wl__cat_check_name(w->m, w->check) : NULL;
}

/* ---------------- writers ---------------- */

static const char *kind_words(int k) {
  return k == 'a'   ? "acyclic"
         : k == 'i' ? "irreflexive"
                    : "empty";
}

static int emit(const wl_whynot *w, wl_buf *b, wl_write_fn write, void *ud) {
  int rc = 0;
  if (b->oom)
    rc = wl__err(w->ctx, WL_ENOMEM, "out of memory");
  else if (write(ud, b->p ? b->p : "", b->n) != 0)
    rc = wl__err(w->ctx, WL_EIO, "the writer stopped the output");
  wl__buf_free(b);
  return rc;
}

static const char *cond_text(const wl_whynot *w) {
  return w->t->cond_text ? w->t->cond_text : "true";
}

static const char *kind_cond(int k) {
  return k == WL_COND_EXISTS   ? "exists"
         : k == WL_COND_FORALL ? "forall"
                               : "~exists";
}

int wl_whynot_write_text(const wl_whynot *w, wl_write_fn write, void *ud) {
  wl_buf b;
  int i;
  char a[8], z[8];
  if (w == NULL || write == NULL)
    return WL_EINVAL;
  wl__buf_init(&b, w->ctx);
  wl__buf_printf(&b, "Why not %s: %s%s %s\n", w->t->name,
                 w->t->cond_kind == WL_COND_FORALL ? "not " : "",
                 kind_cond(w->t->cond_kind), cond_text(w));
  wl__buf_printf(&b, "model: %s\n", wl__cat_name(w->m));
  if (w->status == WL_WHYNOT_ALLOWED) {
    wl__buf_puts(&b, "the model allows this outcome: nothing rules it "
                     "out\n");
    return emit(w, &b, write, ud);
  }
  if (w->status == WL_WHYNOT_NO_CANDIDATE) {
    wl__buf_puts(&b, "no candidate execution reaches this outcome: the "
                     "program's values and control flow rule it out "
                     "before any axiom\n");
    return emit(w, &b, write, ud);
  }
  wl__buf_printf(&b, "forbidden by %s (%s check %d of %d)\n",
                 wl__cat_check_name(w->m, w->check), kind_words(w->kind),
                 w->check + 1, wl__cat_nchecks(w->m));
  if (w->check > 0) {
    wl__buf_puts(&b, "the closest candidate execution passes");
    for (i = 0; i < w->check; i++)
      wl__buf_printf(&b, "%s %s", i ? "," : "", wl__cat_check_name(w->m, i));
    wl__buf_puts(&b, "\n");
  }
  wl__buf_puts(&b, "closest candidate execution:\n");
  for (i = 0; i < w->res->states[w->state].nwit; i++) {
    wl__buf_puts(&b, "  ");
    wl__graph_evtext(w->res, w->res->states[w->state].wit, i, &b);
    wl__buf_puts(&b, "\n");
  }
  if (w->negated)
    wl__buf_printf(&b, "the negated check needs a non-empty relation; it "
                       "is empty here\n");
  else if (w->kind == 'a')
    wl__buf_printf(&b, "a cycle it forbids:");
  else if (w->kind == 'i') {
    wl__graph_evname(w->pair[0], a);
    wl__buf_printf(&b, "%s is related to itself; a cycle through it:", a);
  } else if (w->kind == 'e') {
    wl__graph_evname(w->pair[0], a);
    wl__graph_evname(w->pair[1], z);
    wl__buf_printf(&b, "the relation must be empty but holds (%s, %s):", a,
                   z);
  } else {
    wl__buf_puts(&b, "the set must be empty but holds");
    for (i = 0; i < w->cand.n; i++)
      if (w->set >> i & 1) {
        wl__graph_evname(i, a);
        wl__buf_printf(&b, " %s", a);
      }
  }
  for (i = 0; i < w->nedges; i++) {
    wl__graph_evname(w->edges[i].from, a);
    wl__graph_evname(w->edges[i].to, z);
    if (i == 0)
      wl__buf_printf(&b, " %s", a);
    wl__buf_printf(&b, " -%s-> %s", w->edges[i].kind, z);
  }
  wl__buf_puts(&b, "\n");
  return emit(w, &b, write, ud);
}

int wl_whynot_write_dot(const wl_whynot *w, wl_write_fn write, void *ud) {
  wl_buf b, title;
  const wl_state *st;
  int rc;
  if (w == NULL || write == NULL)
    return WL_EINVAL;
  if (w->status != WL_WHYNOT_FORBIDDEN)
    return wl__err(w->ctx, WL_EINVAL,
                   "%s: the outcome is not forbidden by a check: no graph",
                   w->t->name);
  st = &w->res->states[w->state];
  wl__buf_init(&b, w->ctx);
  wl__buf_init(&title, w->ctx);
  wl__buf_printf(&title, "%s: why not %s %s", w->t->name,
                 kind_cond(w->t->cond_kind), cond_text(w));
  {
    wl_buf note;
    wl__buf_init(&note, w->ctx);
    wl__buf_printf(&note, "closest candidate; forbidden by %s (%s)",
                   wl__cat_check_name(w->m, w->check), kind_words(w->kind));
    wl__graph_write(w->res, st->wit, st->nwit, title.p, note.p, w->edges,
                    w->nedges, &b);
    if (note.oom)
      b.oom = 1;
    wl__buf_free(&note);
  }
  if (title.oom)
    b.oom = 1;
  wl__buf_free(&title);
  rc = emit(w, &b, write, ud);
  return rc;
}

static void json_str(wl_buf *b, const char *s) { wl__buf_json_str(b, s); }

int wl_whynot_write_json(const wl_whynot *w, wl_write_fn write, void *ud) {
  static const char *const st_words[] = {"allowed", "no_candidate",
                                         "forbidden"};
  wl_buf b;
  int i;
  if (w == NULL || write == NULL)
    return WL_EINVAL;
  wl__buf_init(&b, w->ctx);
  wl__buf_puts(&b, "{\"test\": ");
  json_str(&b, w->t->name);
  wl__buf_printf(&b, ", \"kind\": \"%s\", \"condition\": ",
                 kind_cond(w->t->cond_kind));
  json_str(&b, cond_text(w));
  wl__buf_puts(&b, ", \"model\": ");
  json_str(&b, wl__cat_name(w->m) ? wl__cat_name(w->m) : "");
  wl__buf_printf(&b, ", \"status\": \"%s\"", st_words[w->status]);
  if (w->status == WL_WHYNOT_FORBIDDEN) {
    const wl_state *st = &w->res->states[w->state];
    wl__buf_puts(&b, ", \"check\": ");
    json_str(&b, wl__cat_check_name(w->m, w->check));
    wl__buf_printf(&b, ", \"check_kind\": \"%s\", \"negated\": %s, "
                       "\"passed\": [",
                   w->kind == 's' ? "empty" : kind_words(w->kind),
                   w->negated ? "true" : "false");
    for (i = 0; i < w->check; i++) {
      wl__buf_puts(&b, i ? ", " : "");
      json_str(&b, wl__cat_check_name(w->m, i));
    }
    wl__buf_puts(&b, "], \"events\": [");
    for (i = 0; i < st->nwit; i++) {
      wl_buf e;
      char nm[8];
      wl__graph_evname(i, nm);
      wl__buf_init(&e, w->ctx);
      wl__graph_evtext(w->res, st->wit, i, &e);
      wl__buf_printf(&b, "%s{\"id\": %d, \"name\": \"%s\", \"thread\": %d, "
                         "\"text\": ",
                     i ? ", " : "", i, nm, st->wit[i].thread);
      json_str(&b, e.p ? e.p : "");
      if (e.oom)
        b.oom = 1;
      wl__buf_free(&e);
      wl__buf_puts(&b, "}");
    }
    wl__buf_puts(&b, "], \"edges\": [");
    for (i = 0; i < w->nedges; i++)
      wl__buf_printf(&b, "%s{\"from\": %d, \"to\": %d, \"kind\": \"%s\"}",
                     i ? ", " : "", w->edges[i].from, w->edges[i].to,
                     w->edges[i].kind);
    wl__buf_puts(&b, "]");
    if (w->npair)
      wl__buf_printf(&b, ", \"pair\": [%d, %d]", w->pair[0], w->pair[1]);
  }
  wl__buf_puts(&b, "}\n");
  return emit(w, &b, write, ud);
}
