/* graph.c -- execution graphs in DOT (Graphviz).
 *
 * Layout: one column per thread, in P0, P1, ... order, under its header
 * ("P1 (cta 1, gpu 0)"), its events top to bottom in program order (po
 * edges are the only ones that constrain the layout, so each thread
 * stays a column), the initial writes in a cluster of their own above.
 * Edges follow herd7's vocabulary: po, rf, co (immediate successors in
 * the witness's coherence order), fr (from a read to the write that
 * follows, in coherence, the one it read), sc (successive fence.sc in
 * the fence-SC order), bar (barrier events of one phase) and rmw.
 * Highlighted edges are drawn thick and red, with an id starting with
 * "hl_" that survives into Graphviz's SVG (tests look for it). */
#include <stdio.h>
#include <string.h>

#include "graph.h"
#include "rel.h"

/* Colours: one per relation, a red for highlighted edges. */
#define HL_COLOR "#d62728"

typedef struct kinddef {
  const char *kind, *color, *style;
  int constraint;
} kinddef;

static const kinddef kinds[] = {
    {"po", "#555555", "solid", 1},   {"rf", "#1f77b4", "solid", 0},
    {"co", "#9467bd", "solid", 0},   {"fr", "#ff7f0e", "solid", 0},
    {"sc", "#2ca02c", "dashed", 0},  {"bar", "#17becf", "dashed", 0},
    {"rmw", "#8c564b", "dotted", 0}, {NULL, "#e377c2", "solid", 0}};

static const kinddef *kind_of(const char *k) {
  int i;
  for (i = 0; kinds[i].kind != NULL; i++)
    if (strcmp(kinds[i].kind, k) == 0)
      return &kinds[i];
  return &kinds[i];
}

void wl__graph_evname(int i, char out[8]) {
  if (i >= 0 && i < 26) {
    out[0] = (char)('a' + i);
    out[1] = '\0';
  } else {
    snprintf(out, 8, "e%d", i < 0 ? 0 : i % 1000000);
  }
}

static const char *sem_word(int s) {
  static const char *w[] = {"weak",    "relaxed", "acquire",
                            "release", "acq_rel", "sc"};
  return s >= 0 && s < 6 ? w[s] : "?";
}

static const char *scope_word(int s) {
  static const char *w[] = {"", "cta", "gpu", "sys"};
  return s >= 0 && s < 4 ? w[s] : "?";
}

/* The register an access at this line of the thread writes, or NULL:
 * the load or atom of that line and location (a line may hold several
 * instructions: threads built from a Lua table share one). */
static const char *dst_reg(const wl_litmus *t, const wl_wit_ev *e) {
  const wl_thread *p;
  int i;
  if (e->thread < 0 || e->thread >= t->nthreads)
    return NULL;
  p = &t->threads[e->thread];
  for (i = 0; i < p->ninsns; i++) {
    const wl_insn *in = &p->insns[i];
    if (in->line == e->line && in->dst >= 0 && in->dst < p->nregs &&
        in->loc == e->loc && (in->op == OP_LD || in->op == OP_ATOM))
      return p->regnames[in->dst];
  }
  return NULL;
}

static void put_val(wl_buf *b, const wl_litmus *t, int loc, int64_t v) {
  int ty = loc >= 0 && loc < t->nlocs ? t->loctype[loc] : WL_TYPE_INT64;
  if (ty == WL_TYPE_FLOAT || ty == WL_TYPE_DOUBLE)
    wl__buf_printf(b, "%g", wl_value_to_double(ty, v));
  else
    wl__buf_printf(b, "%lld", (long long)v);
}

/* The instruction-like text of an event, without the thread. */
static void ev_insn(const wl_litmus *t, const wl_wit_ev *e, wl_buf *b) {
  const char *reg;
  const char *loc = e->loc >= 0 && e->loc < t->nlocs ? t->locnames[e->loc]
                                                     : "?";
  switch (e->type) {
  case EV_R:
    reg = dst_reg(t, e);
    wl__buf_printf(b, "%s.%s", e->rmw ? "atom" : "ld", sem_word(e->sem));
    if (e->sem != WL_SEM_WEAK && e->scope)
      wl__buf_printf(b, ".%s", scope_word(e->scope));
    wl__buf_printf(b, " %s%s%s = ", reg ? reg : "", reg ? ", " : "", loc);
    put_val(b, t, e->loc, e->val);
    break;
  case EV_W:
    if (e->thread < 0) {
      wl__buf_printf(b, "%s = ", loc);
      put_val(b, t, e->loc, e->val);
      break;
    }
    wl__buf_printf(b, "%s.%s", e->rmw ? "atom" : "st", sem_word(e->sem));
    if (e->sem != WL_SEM_WEAK && e->scope)
      wl__buf_printf(b, ".%s", scope_word(e->scope));
    wl__buf_printf(b, " %s, ", loc);
    put_val(b, t, e->loc, e->val);
    break;
  case EV_F:
    wl__buf_printf(b, "fence.%s.%s", sem_word(e->sem), scope_word(e->scope));
    break;
  default:
    wl__buf_printf(b, "bar.%s %lld", e->bar_kind ? "arrive" : "sync",
                   (long long)e->val);
    break;
  }
}

void wl__graph_evtext(const wl_result *r, const wl_wit_ev *ev, int i,
                      wl_buf *b) {
  const wl_wit_ev *e = &ev[i];
  char nm[8];
  wl__graph_evname(i, nm);
  if (e->thread < 0)
    wl__buf_printf(b, "%s: init ", nm);
  else
    wl__buf_printf(b, "%s: P%d line %d: ", nm, e->thread, e->line);
  ev_insn(r->t, e, b);
}

/* DOT strings, whatever the bytes of s: quotes and backslashes escaped,
 * a newline as DOT's line break, other control characters shown as the
 * text \xNN,
 * '&' as &amp; (Graphviz reads entities in labels: a name like "&lt;"
 * shows as written), and each byte that does not start well-formed
 * UTF-8 (Graphviz's charset) as U+FFFD. */
static void dot_str(wl_buf *b, const char *s) {
  wl__buf_puts(b, "\"");
  while (*s) {
    unsigned char c = (unsigned char)*s;
    size_t n = wl__utf8_len(s);
    if (n == 0) {
      wl__buf_puts(b, "\xef\xbf\xbd");
      s++;
      continue;
    }
    if (c == '"' || c == '\\')
      wl__buf_add(b, "\\", 1);
    if (c == '\n')
      wl__buf_puts(b, "\\n");
    else if (c < 0x20 || c == 0x7f)
      wl__buf_printf(b, "\\\\x%02x", c);
    else if (c == '&')
      wl__buf_puts(b, "&amp;");
    else
      wl__buf_add(b, s, n);
    s += n;
  }
  wl__buf_puts(b, "\"");
}

/* The write that follows w in its location's coherence order, or -1. */
static int co_next(const wl_wit_ev *ev, int n, int w) {
  int i;
  for (i = 0; i < n; i++)
    if (ev[i].type == EV_W && ev[i].loc == ev[w].loc &&
        ev[i].co == ev[w].co + 1)
      return i;
  return -1;
}

/* The edges of the graph, before highlighting. */
typedef struct edge {
  int from, to;
  const char *kind;
  int hl;
} edge;

static int edge_add(edge *es, int ne, int cap, int from, int to,
                    const char *kind) {
  int i;
  if (from < 0 || to < 0 || ne >= cap)
    return ne;
  for (i = 0; i < ne; i++)
    if (es[i].from == from && es[i].to == to &&
        strcmp(es[i].kind, kind) == 0)
      return ne;
  es[ne].from = from;
  es[ne].to = to;
  es[ne].kind = kind;
  es[ne].hl = 0;
  return ne + 1;
}

static int base_edges(const wl_wit_ev *ev, int n, edge *es, int cap) {
  int ne = 0, i, j;
  for (i = 0; i < n; i++) {
    const wl_wit_ev *e = &ev[i];
    if (e->thread >= 0) {
      for (j = i + 1; j < n && ev[j].thread != e->thread; j++)
        ;
      if (j < n)
        ne = edge_add(es, ne, cap, i, j, "po");
    }
    if (e->type == EV_R && e->rf >= 0 && e->rf < n) {
      int nx = co_next(ev, n, e->rf);
      ne = edge_add(es, ne, cap, e->rf, i, "rf");
      /* an RMW's read is fr-before its own write: implied, not drawn */
      if (nx >= 0 && !(e->rmw && nx == i + 1))
        ne = edge_add(es, ne, cap, i, nx, "fr");
    }
    if (e->type == EV_W)
      ne = edge_add(es, ne, cap, i, co_next(ev, n, i), "co");
    if (e->type == EV_R && e->rmw && i + 1 < n && ev[i + 1].rmw &&
        ev[i + 1].type == EV_W)
      ne = edge_add(es, ne, cap, i, i + 1, "rmw");
    if (e->type == EV_F && e->sc >= 0)
      for (j = 0; j < n; j++)
        if (ev[j].type == EV_F && ev[j].sc == e->sc + 1)
          ne = edge_add(es, ne, cap, i, j, "sc");
    if (e->type == EV_B && e->phase >= 0)
      for (j = i + 1; j < n; j++)
        if (ev[j].type == EV_B && ev[j].phase == e->phase &&
            ev[j].thread != e->thread && ev[j].val == e->val) {
          ne = edge_add(es, ne, cap, i, j, "bar");
          break;
        }
  }
  return ne;
}

int wl__graph_cycle(const wl_wit_ev *ev, int n, wl__gedge *cyc) {
  /* adjacency of po (immediate) | rf | co (immediate) | fr (every
   * co-later write), with each edge's kind */
  static const char *const kn[] = {"po", "rf", "co", "fr"};
  rel adj[4];
  int i, j, k, best = 0, s;
  if (n > WL_MAX_EVENTS)
    n = WL_MAX_EVENTS;
  memset(adj, 0, sizeof adj);
  for (i = 0; i < n; i++) {
    const wl_wit_ev *e = &ev[i];
    if (e->thread >= 0) {
      for (j = i + 1; j < n && ev[j].thread != e->thread; j++)
        ;
      if (j < n)
        rel_add(adj[0], i, j);
    }
    if (e->type == EV_R && e->rf >= 0 && e->rf < n) {
      rel_add(adj[1], e->rf, i);
      for (j = 0; j < n; j++)
        if (ev[j].type == EV_W && ev[j].loc == e->loc &&
            ev[j].co > ev[e->rf].co && j != i + (e->rmw ? 1 : 0))
          rel_add(adj[3], i, j);
    }
    if (e->type == EV_W) {
      int nx = co_next(ev, n, i);
      if (nx >= 0)
        rel_add(adj[2], i, nx);
    }
  }
  /* BFS from every event back to itself; the shortest cycle wins */
  for (s = 0; s < n; s++) {
    int prev[WL_MAX_EVENTS], pk[WL_MAX_EVENTS], q[WL_MAX_EVENTS];
    int qh = 0, qt = 0, found = -1, fk = 0, len;
    evset seen = es_single(s);
    q[qt++] = s;
    while (qh < qt && found < 0) {
      int u = q[qh++];
      for (k = 0; k < 4 && found < 0; k++) {
        int v;
        ES_FOR(v, adj[k][u]) {
          if (v == s) {
            found = u;
            fk = k;
            break;
          }
          if (es_has(seen, v))
            continue;
          es_add(&seen, v);
          prev[v] = u;
          pk[v] = k;
          q[qt++] = v;
        }
      }
    }
    if (found < 0)
      continue;
    /* length: edges from s to found, plus the closing one */
    len = 1;
    for (j = found; j != s; j = prev[j])
      len++;
    if (best != 0 && len >= best)
      continue;
    best = len;
    k = len - 1;
    cyc[k].from = found;
    cyc[k].to = s;
    cyc[k].kind = kn[fk];
    for (j = found; j != s; j = prev[j]) {
      k--;
      cyc[k].from = prev[j];
      cyc[k].to = j;
      cyc[k].kind = kn[pk[j]];
    }
  }
  return best;
}

void wl__graph_write(const wl_result *r, const wl_wit_ev *ev, int n,
                     const char *title, const char *note,
                     const wl__gedge *hl, int nhl, wl_buf *b) {
  const wl_litmus *t = r->t;
  enum { CAP = 4 * WL_MAX_EVENTS + 2 * WL_MAX_EVENTS };
  edge es[CAP];
  wl__gedge cyc[WL_MAX_EVENTS];
  int ne, i, j, th, auto_rf = 0;
  if (n > WL_MAX_EVENTS)
    n = WL_MAX_EVENTS;
  ne = base_edges(ev, n, es, CAP);
  if (hl == NULL) {
    nhl = wl__graph_cycle(ev, n, cyc);
    hl = cyc;
    auto_rf = nhl == 0;
  }
  for (i = 0; i < nhl; i++) {
    for (j = 0; j < ne; j++)
      if (es[j].from == hl[i].from && es[j].to == hl[i].to &&
          strcmp(es[j].kind, hl[i].kind) == 0)
        break;
    if (j == ne)
      ne = edge_add(es, ne, CAP, hl[i].from, hl[i].to, hl[i].kind);
    if (j < ne)
      es[j].hl = 1;
  }
  if (auto_rf)
    for (j = 0; j < ne; j++)
      if (strcmp(es[j].kind, "rf") == 0 && ev[es[j].from].thread >= 0)
        es[j].hl = 1;
  wl__buf_puts(b, "digraph execution {\n  graph [rankdir=TB, newrank=true, "
                  "fontname=\"Helvetica\", fontsize=12, labelloc=t, "
                  "label=");
  {
    wl_buf lb;
    wl__buf_init(&lb, r->ctx);
    wl__buf_puts(&lb, title ? title : t->name);
    if (note) {
      wl__buf_puts(&lb, "\n");
      wl__buf_puts(&lb, note);
    }
    dot_str(b, lb.p ? lb.p : "");
    if (lb.oom)
      b->oom = 1;
    wl__buf_free(&lb);
  }
  wl__buf_puts(b, "];\n  node [shape=box, style=\"rounded,filled\", "
                  "fillcolor=\"#f7f7f7\", fontname=\"Helvetica\", "
                  "fontsize=11];\n  edge [fontname=\"Helvetica\", "
                  "fontsize=10, arrowsize=0.7];\n");
  /* the initial writes, then one column per thread */
  for (th = -1; th < t->nthreads; th++) {
    int any = 0;
    for (i = 0; i < n; i++)
      if (ev[i].thread == th)
        any = 1;
    if (!any)
      continue;
    if (th < 0)
      wl__buf_puts(b, "  subgraph cluster_init {\n    label=\"initial "
                      "state\"; style=dashed; color=\"#bbbbbb\";\n");
    else /* a plain subgraph: see the header row below */
      wl__buf_printf(b,
                     "  subgraph P%d {\n    P%d [id=\"thread_P%d\", "
                     "label=\"P%d (cta %d, gpu %d)\", shape=box, "
                     "style=rounded, color=\"#888888\"];\n",
                     th, th, th, th, t->threads[th].cta, t->threads[th].gpu);
    for (i = 0; i < n; i++) {
      wl_buf lb;
      char nm[8];
      static const char kc[] = "RWFB";
      if (ev[i].thread != th)
        continue;
      wl__graph_evname(i, nm);
      wl__buf_init(&lb, r->ctx);
      if (th < 0)
        wl__buf_printf(&lb, "%s: W ", nm);
      else
        wl__buf_printf(&lb, "%s: %c  (line %d)\n", nm, kc[ev[i].type & 3],
                       ev[i].line);
      ev_insn(t, &ev[i], &lb);
      wl__buf_printf(b, "    e%d [id=\"ev_%s\", label=", i, nm);
      dot_str(b, lb.p ? lb.p : "");
      if (lb.oom)
        b->oom = 1;
      wl__buf_free(&lb);
      wl__buf_printf(b, "%s];\n",
                     ev[i].type == EV_F || ev[i].type == EV_B
                         ? ", fillcolor=\"#fff5d6\""
                         : "");
    }
    wl__buf_puts(b, "  }\n");
  }
  /* threads left to right in P0, P1, ... order in every graph: each
   * thread's header above its first event, the headers on one rank
   * chained by invisible flat edges, which dot keeps left to right.
   * (Clusters would box the columns, but dot's crossing minimisation
   * moves whole clusters and ignores flat edges between them: IRIW's
   * four threads came out as P2 P3 P0 P1.) */
  {
    int prev = -1, nth = 0;
    for (th = 0; th < t->nthreads; th++)
      for (j = 0; j < n; j++)
        if (ev[j].thread == th) {
          wl__buf_printf(b, "  P%d -> e%d [style=invis, weight=10];\n", th,
                         j);
          if (prev >= 0)
            wl__buf_printf(b, "  P%d -> P%d [style=invis];\n", prev, th);
          prev = th;
          nth++;
          break;
        }
    if (nth > 1) {
      wl__buf_puts(b, "  { rank=same;");
      for (th = 0; th < t->nthreads; th++)
        for (j = 0; j < n; j++)
          if (ev[j].thread == th) {
            wl__buf_printf(b, " P%d;", th);
            break;
          }
      wl__buf_puts(b, " }\n");
    }
  }
  /* keep the initial writes above everything: an invisible edge from
   * each to each thread's header */
  for (i = 0; i < n; i++) {
    if (ev[i].thread >= 0)
      continue;
    for (th = 0; th < t->nthreads; th++)
      for (j = 0; j < n; j++)
        if (ev[j].thread == th) {
          wl__buf_printf(b, "  e%d -> P%d [style=invis];\n", i, th);
          break;
        }
  }
  for (i = 0; i < ne; i++) {
    const kinddef *k = kind_of(es[i].kind);
    char a[8], z[8];
    wl__graph_evname(es[i].from, a);
    wl__graph_evname(es[i].to, z);
    wl__buf_printf(b, "  e%d -> e%d [id=\"%s%s_%s_%s\", label=\"%s\", ",
                   es[i].from, es[i].to, es[i].hl ? "hl_" : "",
                   es[i].kind, a, z, es[i].kind);
    if (es[i].hl)
      wl__buf_printf(b, "color=\"%s\", fontcolor=\"%s\", penwidth=2.6, "
                        "style=bold",
                     HL_COLOR, HL_COLOR);
    else
      wl__buf_printf(b, "color=\"%s\", fontcolor=\"%s\", style=%s",
                     k->color, k->color, k->style);
    if (!k->constraint)
      wl__buf_puts(b, ", constraint=false");
    else
      wl__buf_puts(b, ", weight=10");
    if (strcmp(es[i].kind, "bar") == 0)
      wl__buf_puts(b, ", dir=none");
    wl__buf_puts(b, "];\n");
  }
  wl__buf_puts(b, "}\n");
}

/* ---------------- the public writer ---------------- */

int wl_result_write_dot(const wl_result *r, size_t state, wl_write_fn write,
                        void *ud) {
  const wl_state *st;
  const wl_litmus *t;
  wl_buf b, title;
  int th, i, first = 1, rc = 0, oom;
  if (r == NULL || write == NULL)
    return WL_EINVAL;
  if (state >= r->nstates)
    return wl__err(r->ctx, WL_EINVAL,
                   "wl_result_write_dot: no state %zu (the result has %zu)",
                   state, r->nstates);
  st = &r->states[state];
  t = r->t;
  wl__buf_init(&title, r->ctx);
  wl__buf_printf(&title, "%s: witness of ", t->name);
  for (th = 0; th < t->nthreads; th++)
    for (i = 0; i < t->threads[th].nregs; i++) {
      wl__buf_printf(&title, "%s%d:%s=%lld", first ? "" : " ", th,
                     t->threads[th].regnames[i],
                     (long long)st->vals[r->lay.regoff[th] + i]);
      first = 0;
    }
  for (i = 0; i < t->nlocs; i++) {
    wl__buf_printf(&title, "%s%s=", first ? "" : " ", t->locnames[i]);
    put_val(&title, t, i, st->vals[r->lay.regoff[t->nthreads] + i]);
    first = 0;
  }
  wl__buf_init(&b, r->ctx);
  wl__graph_write(r, st->wit, st->nwit, title.p ? title.p : t->name,
                  st->sat ? "the condition holds in this state" : NULL,
                  NULL, 0, &b);
  oom = b.oom || title.oom;
  if (!oom && write(ud, b.p, b.n) != 0)
    rc = wl__err(r->ctx, WL_EIO, "the writer stopped the output");
  wl__buf_free(&b);
  wl__buf_free(&title);
  if (oom)
    return wl__err(r->ctx, WL_ENOMEM, "out of memory");
  return rc;
}
