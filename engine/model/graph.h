/* graph.h -- execution graphs in Graphviz's DOT language, for witnesses
 * (wl_result_write_dot) and for the candidates of why-not explanations
 * (whynot.c). */
#ifndef WL_GRAPH_H
#define WL_GRAPH_H

#include "model.h"

/* An edge to highlight: from and to are event indices, kind one of
 * "po" "rf" "co" "fr" "sc" "bar" "rmw", or another relation's name
 * (drawn as an edge of its own, labelled with it).  Static strings. */
typedef struct wl__gedge {
  int from, to;
  const char *kind;
} wl__gedge;

/* Appends to b the graph of the execution ev[0..n) of a test of r:
 * events in one column per thread, the edges of program order,
 * reads-from, coherence, from-read, the fence-SC order, barrier phases
 * and RMW pairs.  hl (nhl entries) are the edges to highlight; with hl
 * NULL the graph highlights a shortest cycle of po | rf | co | fr (the
 * edges that make a non-SC outcome possible), else the rf edges.
 * title goes on top (may be NULL); note, when not NULL, is a second
 * line under it. */
void wl__graph_write(const wl_result *r, const wl_wit_ev *ev, int n,
                     const char *title, const char *note,
                     const wl__gedge *hl, int nhl, wl_buf *b);

/* Shortest cycle of po | rf | co | fr over ev[0..n); fills cyc (at most
 * WL_MAX_EVENTS edges) and returns its length, 0 when acyclic. */
int wl__graph_cycle(const wl_wit_ev *ev, int n, wl__gedge *cyc);

/* "a".."z", then "e26"...: an event's short name in graphs and text. */
void wl__graph_evname(int i, char out[8]);
/* One line describing event i: "P1 line 7: ld.weak r0, x = 0"
 * (init writes: "init: x = 0"). */
void wl__graph_evtext(const wl_result *r, const wl_wit_ev *ev, int i,
                      wl_buf *b);

#endif
