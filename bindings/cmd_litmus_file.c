/* cmd_litmus_file.c -- one file of warplab litmus, a unit of the pool
 * (cmd_litmus.h): read and explore it (the built-in explorer or a cat
 * model), print its states, witnesses, race and hang, why-not and graphs
 * into its output, emit that in the file's turn, or pack it for rank 0
 * under MPI.  cmd_litmus.c is the command that drives it. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "cmd_litmus.h"
#include "lexplore.h"
#include "lpool.h"
#include "lwarplab.h"
#include "ranks.h"

/* The progress line: on a terminal only, once a file has taken more than
 * a second, at most ten times a second; erased before the result. */
static void litmus_progress(void *ud, const wl_explore_progress *p) {
  litmus_stop *ls = ud;
  static double last;
  double t = wll_seconds();
  if (t - ls->started < 1 || t - last < 0.1 || !isatty(2))
    return;
  last = t;
  fprintf(stderr, "\r\033[K%s: %.0f s, %zu states, %llu combinations, %zu MB",
          ls->file, t - ls->started, p->states,
          (unsigned long long)p->combinations, p->memory >> 20);
  ls->shown = 1;
}

void wll_litmus_unprogress(litmus_stop *ls) {
  if (ls->shown)
    fputs("\r\033[K", stderr);
  ls->shown = 0;
}



/* The explorer's should_stop: --timeout, SIGINT and SIGTERM. */
int wll_litmus_should_stop(void *ud) {
  const litmus_stop *ls = ud;
  return wll_sig_pending() ||
         (ls->deadline > 0 && wll_seconds() > ls->deadline);
}

/* A file's exploration ended by a signal with no result to print (the
 * explorer normally keeps the states found so far, keep_partial, and
 * those are printed instead): the Partial line alone, into o. */
static void litmus_partial(wll_out *o, const char *name, int sig, int json,
                           int quiet, double secs) {
  if (quiet)
    wll_out_printf(o, WLL_OUT_STDOUT, "%s Partial\n", name);
  else if (json) {
    wll_out_printf(o, WLL_OUT_STDOUT, "{\"test\": ");
    wl_json_string(name, wll_out_stdout, o);
    wll_out_printf(o, WLL_OUT_STDOUT,
                   ", \"partial\": true, \"interrupted\": \"%s\", "
                   "\"time\": %.2f}",
                   wll_sig_name(sig), secs);
  }
  else
    wll_out_printf(o, WLL_OUT_STDOUT,
                   "Test %s Partial\nStates 0\nPartial %s: interrupted by "
                   "%s after %.2f s, before the exploration ended (no "
                   "states)\n\n",
                   name, name, wll_sig_name(sig), secs);
}

/* Whether no final state is in the condition's outcome (what why-not
 * explains): none satisfies it (exists, ~exists), or none violates it
 * (forall). */
static int outcome_absent(const wl_result *r) {
  size_t s;
  int forall = wl_result_cond_kind(r) == WL_COND_FORALL;
  for (s = 0; s < wl_result_nstates(r); s++)
    if (wl_result_state_sat(r, s) != forall)
      return 0;
  return 1;
}

/* ---------------- one file: a unit of the pool ---------------- */


/* A slot's own: the stop of the file it runs (deadline, progress). */
typedef struct litmus_worker {
  litmus_stop ls;
} litmus_worker;

/* What a file's run hands back: its text, and what the main thread does
 * with it in the file's turn (the graphs, the totals). */
typedef struct litmus_out {
  wll_out out;  /* stdout and stderr, before the graphs */
  wll_out tail; /* after them: the partial and interrupt notes */
  int element;  /* --json: out holds an element of the array */
  int failed, nfound;
  int sig;      /* interrupted by this signal: the files after are skipped */
  char *name;   /* --graph: the test's name (NULL: no graphs) */
  wll_membuf *graphs; /* --graph: each state's witness as DOT */
  size_t ngraphs;
  int graphs_failed;  /* a state's DOT could not be made */
  wll_membuf whynot_dot; /* the why-not graph, when forbidden (p NULL: none) */
} litmus_out;

int wll_litmus_worker_new(void *ud, wl_ctx *ctx, void **worker) {
  litmus_worker *w = calloc(1, sizeof *w);
  (void)ud;
  if (w == NULL)
    return -1;
  /* reading nothing, explaining an outcome: stops as the search does */
  wl_ctx_set_stop(ctx, wll_litmus_should_stop, &w->ls);
  *worker = w;
  return 0;
}

void wll_litmus_worker_free(void *ud, void *worker) {
  (void)ud;
  free(worker);
}

static void litmus_out_free(litmus_out *o) {
  size_t k;
  if (o == NULL)
    return;
  wll_out_free(&o->out);
  wll_out_free(&o->tail);
  for (k = 0; k < o->ngraphs; k++)
    free(o->graphs[k].p);
  free(o->graphs);
  free(o->whynot_dot.p);
  free(o->name);
  free(o);
}

/* The graphs of r (and w's, when it shows the outcome forbidden) as DOT
 * text, for the main thread to write in the file's turn. */
static void litmus_dots(litmus_out *o, const wl_result *r,
                        const wl_whynot *w, const char *name) {
  size_t n = wl_result_nstates(r), s;
  if ((o->name = malloc(strlen(name) + 1)) == NULL ||
      (n > 0 && (o->graphs = calloc(n, sizeof *o->graphs)) == NULL)) {
    o->graphs_failed = 1;
    return;
  }
  strcpy(o->name, name);
  for (s = 0; s < n; s++) {
    wll_membuf *m = &o->graphs[s];
    o->ngraphs = s + 1;
    if (wl_result_write_dot(r, s, wll_membuf_write, m) != 0 || m->oom) {
      o->graphs_failed = 1;
      return;
    }
  }
  if (w != NULL && wl_whynot_status(w) == WL_WHYNOT_FORBIDDEN &&
      (wl_whynot_write_dot(w, wll_membuf_write, &o->whynot_dot) != 0 ||
       o->whynot_dot.oom))
    o->graphs_failed = 1;
}

/*
 * One file, on a pool thread (or the calling one with --jobs 1): read,
 * parse, explore, explain, and every line it prints, into its output.
 * The context is the slot's; what it shares (the job, the models) it
 * only reads.  The signal is polled, never taken: the main thread takes
 * it when the run ends.
 */
int wll_litmus_run(void *ud, size_t unit, wl_ctx *ctx, void *worker,
                      void *stop_ud, void **outp) {
  litmus_job *j = ud;
  litmus_stop *ls = &((litmus_worker *)worker)->ls;
  const char *f = j->files[unit];
  wl_explore_opts opts = j->opts;
  litmus_out *o = calloc(1, sizeof *o);
  wll_out *out;
  char err[600];
  size_t len = 0;
  char *src;
  wl_litmus *t = NULL;
  wl_result *r = NULL;
  double t0;
  int rc, interrupted = 0, sig;
  (void)stop_ud;
  *outp = o;
  if (o == NULL)
    return WLL_UNIT_DONE; /* said in its turn */
  out = &o->out;
  /* a signal between files: the rest skipped (not ranked: every rank
   * must go on to the exploration's collective calls, which stop) */
  if (!j->ranked && wll_sig_pending())
    return WLL_UNIT_STOPPED;
  if (j->pre != NULL && j->pre[unit] != NULL) {
    /* read before (standard input, or kept by the cost guess): this
     * run's own from here (no other run touches its slot) */
    src = j->pre[unit];
    len = j->prelen[unit];
    j->pre[unit] = NULL;
  } else if (j->preerr != NULL && j->preerr[unit] != NULL) {
    snprintf(err, sizeof err, "%s", j->preerr[unit]);
    src = NULL;
  } else {
    src = wll_read_file(f, &len, err, sizeof err);
  }
  if (src == NULL) {
    wll_out_printf(out, WLL_OUT_STDERR, "warplab: %s\n", err);
    o->failed++;
    return WLL_UNIT_DONE;
  }
  t0 = wll_seconds();
  ls->deadline = j->timeout > 0 ? t0 + j->timeout : 0;
  ls->started = t0;
  ls->file = f;
  opts.should_stop = wll_litmus_should_stop;
  opts.stop_ud = ls;
  opts.progress = j->detail ? litmus_progress : NULL;
  opts.progress_ud = ls;
  rc = wl_litmus_parse(ctx, f, src, len, &t);
  free(src);
  if (rc == 0 && j->ranked) {
    /* every rank runs this (the same file, parsed alike): the units are
     * dealt to the ranks, and rank 0 merges them (lexplore.h) */
    rc = wll_explore_spread_run(ctx, t, &opts, j->split, isatty(2),
                                wll_ranks_pool_run, wll_rank() == 0, &r);
    if (rc == 0 && r == NULL) { /* not rank 0: nothing to print */
      if (j->detail)
        wll_litmus_unprogress(ls);
      wl_litmus_free(t);
      return WLL_UNIT_DONE;
    }
  } else if (rc == 0)
    rc = j->split > 0 ? wll_explore_jobs(ctx, t, &opts, j->split,
                                         isatty(2), &r)
                      : wl_explore(ctx, t, &opts, &r);
  if (j->detail)
    wll_litmus_unprogress(ls);
  if (rc == 0 && wl_result_partial(r, NULL) == WL_ESTOPPED) {
    /* a signal: what was found is printed, marked partial, and the
     * files after it are skipped; --timeout: the file failed */
    if ((interrupted = wll_sig_pending()) == 0) {
      rc = WL_ESTOPPED;
      wl_result_free(r);
      r = NULL;
    }
  }
  if (rc == WL_ESTOPPED && (sig = wll_sig_pending()) != 0) {
    litmus_partial(out, wl_litmus_name(t), sig, j->json, j->quiet,
                   wll_seconds() - t0);
    o->element = j->json && !j->quiet;
    wll_out_printf(&o->tail, WLL_OUT_STDERR,
                   "warplab: %s: interrupted by %s; the files after it "
                   "are skipped\n",
                   f, wll_sig_name(sig));
    o->sig = sig;
    wl_litmus_free(t);
    return WLL_UNIT_STOPPED;
  }
  if (rc != 0) {
    const char *m = wl_ctx_errmsg(ctx);
    if (strncmp(m, f, strlen(f)) == 0)
      wll_out_printf(out, WLL_OUT_STDERR, "warplab: %s\n", m);
    else
      wll_out_printf(out, WLL_OUT_STDERR, "warplab: %s: %s\n", f, m);
    if (rc == WL_ESTOPPED)
      wll_out_printf(out, WLL_OUT_STDERR,
                     "warplab: %s: gave up after --timeout %g s\n", f,
                     j->timeout);
    wl_litmus_free(t);
    o->failed++;
    return WLL_UNIT_DONE;
  }
  {
    double secs = wll_seconds() - t0;
    wl_whynot *w = NULL;
    wll_membuf wj = {NULL, 0, 0, 0};
    if ((j->whynot || j->graph_dir != NULL) && outcome_absent(r)) {
      const wl_model *m = j->model != NULL ? j->model : j->why_model;
      if (m == NULL) {
        /* --graph alone: the why-not graph needs the default model */
        wll_out_printf(out, WLL_OUT_STDERR,
                       "warplab: %s: no why-not graph: %s\n", f,
                       j->why_err != NULL ? j->why_err : "no model");
        o->failed++;
      } else if (wl_whynot_explain(ctx, t, m, opts.unroll, &w) != 0) {
        /* an explanation asked for and not given fails the file (the
         * JSON has no "whynot" then: never silently) */
        wll_out_printf(out, WLL_OUT_STDERR, "warplab: %s: why-not: %s\n", f,
                       wl_ctx_errmsg(ctx));
        w = NULL;
        o->failed++;
      }
    }
    if (j->quiet) {
      wll_out_printf(out, WLL_OUT_STDOUT, "%s %s%s\n", wl_litmus_name(t),
                     wl_result_bound_hit(r) ? "Loop " : "",
                     wl_result_verdict(r) ? "Ok" : "No");
    } else if (j->json) {
      wll_membuf rj = {NULL, 0, 0, 0};
      o->element = 1;
      if (j->whynot && w != NULL &&
          wl_result_write_json(r, secs, wll_membuf_write, &rj) == 0 &&
          wl_whynot_write_json(w, wll_membuf_write, &wj) == 0 && rj.n > 2 &&
          wj.n > 1) {
        /* the result's object, with "whynot" added before its end */
        while (rj.n > 0 && (rj.p[rj.n - 1] == '\n' || rj.p[rj.n - 1] == '}'))
          if (rj.p[--rj.n] == '}')
            break;
        while (wj.n > 0 && wj.p[wj.n - 1] == '\n')
          wj.n--;
        wll_out_write(out, WLL_OUT_STDOUT, rj.p, rj.n);
        wll_out_printf(out, WLL_OUT_STDOUT, ",\n  \"whynot\": ");
        wll_out_write(out, WLL_OUT_STDOUT, wj.p, wj.n);
        wll_out_printf(out, WLL_OUT_STDOUT, "}\n");
      } else {
        if (j->whynot && w != NULL) { /* out of memory: said, and failed */
          wll_out_printf(out, WLL_OUT_STDERR,
                         "warplab: %s: why-not: out of memory\n", f);
          o->failed++;
        }
        wl_result_write_json(r, secs, wll_out_stdout, out);
      }
      free(rj.p);
    } else if (j->herd) {
      /* herd7's text alone on stdout, for msort7 and mcompare7: what
       * herd has no line for goes to stderr */
      wl_result_write_herd7(r, secs, wll_out_stdout, out);
      if (wl_result_bound_hit(r))
        wll_out_printf(out, WLL_OUT_STDERR,
                       "warplab: %s: loop unroll bound %d reached; outcomes "
                       "that need more iterations are not listed\n",
                       f, opts.unroll ? opts.unroll : WL_DEFAULT_UNROLL);
      wl_result_write_findings(r, wll_out_stderr, out);
      if (j->whynot && w != NULL)
        wl_whynot_write_text(w, wll_out_stderr, out);
    } else {
      wl_result_write_herd(r, secs, wll_out_stdout, out);
      wl_result_write_findings(r, wll_out_stdout, out);
      if (j->whynot && w != NULL)
        wl_whynot_write_text(w, wll_out_stdout, out);
    }
    o->nfound += wl_result_nfindings(r);
    if (j->graph_dir != NULL)
      litmus_dots(o, r, w, wl_litmus_name(t));
    free(wj.p);
    wl_whynot_free(w);
  }
  {
    const char *why;
    if (interrupted) {
      if (j->quiet)
        wll_out_printf(&o->tail, WLL_OUT_STDOUT, "%s Partial\n",
                       wl_litmus_name(t));
      else if (!j->json)
        wll_out_printf(&o->tail, WLL_OUT_STDOUT,
                       "Partial %s: interrupted by %s after %.2f s; the "
                       "states above were found before it\n\n",
                       wl_litmus_name(t), wll_sig_name(interrupted),
                       wll_seconds() - t0);
      wll_out_printf(&o->tail, WLL_OUT_STDERR,
                     "warplab: %s: interrupted by %s; the result above "
                     "is partial and the files after it are skipped\n",
                     f, wll_sig_name(interrupted));
      o->sig = interrupted;
      wl_result_free(r);
      wl_litmus_free(t);
      return WLL_UNIT_STOPPED;
    }
    if (wl_result_partial(r, &why)) {
      wll_out_printf(&o->tail, WLL_OUT_STDERR,
                     "warplab: %s: %s; the result above is partial\n", f,
                     why);
      o->failed++;
    }
  }
  wl_result_free(r);
  wl_litmus_free(t);
  return WLL_UNIT_DONE;
}

/* --graph: a file's graphs written under the run's names, in its turn
 * (the names of earlier files decide its stem). */
static void litmus_graphs(litmus_job *j, const char *f, litmus_out *o) {
  char stem[300], path[1200];
  size_t s;
  if (o->name == NULL || /* out of memory */
      wll_graph_stem(&j->used, f, o->name, stem, sizeof stem) != 0) {
    j->failed++;
    return;
  }
  for (s = 0; s < o->ngraphs; s++) {
    char what[32];
    if (s + 1 == o->ngraphs && o->graphs_failed)
      break; /* its text could not be made */
    snprintf(what, sizeof what, "%zu", s + 1);
    if (wll_graph_path(path, sizeof path, j->graph_dir, stem, what) != 0 ||
        wll_save_text(path, &o->graphs[s]) != 0 ||
        wll_render_svg(path, &j->no_dot) != 0) {
      j->failed++;
      return;
    }
  }
  if (o->graphs_failed) {
    j->failed++;
    return;
  }
  if (o->whynot_dot.p != NULL &&
      (wll_graph_path(path, sizeof path, j->graph_dir, stem, "whynot") != 0 ||
       wll_save_text(path, &o->whynot_dot) != 0 ||
       wll_render_svg(path, &j->no_dot) != 0))
    j->failed++;
}

/* On the main thread, in file order: the file's text, its graphs, its
 * notes, its totals. */
int wll_litmus_emit(void *ud, size_t unit, void *outp, int stopped) {
  litmus_job *j = ud;
  litmus_out *o = outp;
  (void)stopped;
  if (o == NULL) {
    fflush(stdout);
    fprintf(stderr, "warplab: %s: out of memory\n", j->files[unit]);
    j->failed++;
    return 0;
  }
  if (o->element) {
    if (!j->first)
      wll_write_stdout(NULL, ",\n", 2);
    j->first = 0;
  }
  if (wll_out_flush(&o->out) != 0 && o->out.oom)
    j->failed++;
  if (o->name != NULL || o->graphs_failed)
    litmus_graphs(j, j->files[unit], o);
  if (wll_out_flush(&o->tail) != 0 && o->tail.oom)
    j->failed++;
  j->failed += o->failed;
  j->nfound += o->nfound;
  if (o->sig != 0)
    j->sig = o->sig;
  litmus_out_free(o);
  /* stdout goes out at the end of each batch of files the pool emits
   * (lpool.c's drain), as soon as it is done (tail -f) */
  return 0;
}

void wll_litmus_drop(void *ud, size_t unit, void *outp) {
  (void)ud;
  (void)unit;
  litmus_out_free(outp);
}

/* A rank other than 0 of a ranked exploration: rank 0 prints. */
int wll_litmus_emit_none(void *ud, size_t unit, void *outp, int stopped) {
  (void)stopped;
  wll_litmus_drop(ud, unit, outp);
  return 0;
}

/* Under MPI (ranks.h): a file's output from the rank that explored it
 * to rank 0, which emits it in its turn.  NULL (out of memory on that
 * rank) crosses as such. */
int wll_litmus_pack(void *ud, size_t unit, const void *outp, void **buf,
                       size_t *len) {
  const litmus_out *o = outp;
  wll_pack b = {NULL, 0, 0, 0};
  size_t k;
  (void)ud;
  (void)unit;
  wll_pack_u64(&b, o != NULL);
  if (o != NULL) {
    wll_pack_u64(&b, (uint64_t)o->element);
    wll_pack_u64(&b, (uint64_t)o->failed);
    wll_pack_u64(&b, (uint64_t)o->nfound);
    wll_pack_u64(&b, (uint64_t)o->sig);
    wll_pack_out(&b, &o->out);
    wll_pack_out(&b, &o->tail);
    wll_pack_u64(&b, o->name != NULL);
    if (o->name != NULL)
      wll_pack_bytes(&b, o->name, strlen(o->name));
    wll_pack_u64(&b, (uint64_t)o->graphs_failed);
    wll_pack_u64(&b, (uint64_t)o->ngraphs);
    for (k = 0; k < o->ngraphs; k++)
      wll_pack_bytes(&b, o->graphs[k].p, o->graphs[k].n);
    wll_pack_u64(&b, o->whynot_dot.p != NULL);
    if (o->whynot_dot.p != NULL)
      wll_pack_bytes(&b, o->whynot_dot.p, o->whynot_dot.n);
  }
  if (b.oom) {
    free(b.p);
    return -1;
  }
  *buf = b.p;
  *len = b.n;
  return 0;
}

/* A text of the bytes as a NUL-ended membuf's (p NULL out of memory). */
static int unpack_text(wll_unpack *r, wll_membuf *m) {
  size_t n;
  const char *s = wll_unpack_bytes(r, &n);
  memset(m, 0, sizeof *m);
  if (r->bad || (m->p = malloc(n + 1)) == NULL)
    return -1;
  memcpy(m->p, s, n);
  m->p[n] = '\0';
  m->n = n;
  m->cap = n + 1;
  return 0;
}

int wll_litmus_unpack(void *ud, size_t unit, const void *buf, size_t len,
                         void **outp) {
  wll_unpack r = {buf, len, 0, 0};
  litmus_out *o;
  wll_membuf m;
  uint64_t k, ng;
  (void)ud;
  (void)unit;
  *outp = NULL;
  if (wll_unpack_u64(&r) == 0)
    return r.bad ? -1 : 0; /* NULL: out of memory there */
  if ((o = calloc(1, sizeof *o)) == NULL)
    return -1;
  o->element = (int)wll_unpack_u64(&r);
  o->failed = (int)wll_unpack_u64(&r);
  o->nfound = (int)wll_unpack_u64(&r);
  o->sig = (int)wll_unpack_u64(&r);
  if (wll_unpack_out(&r, &o->out) != 0 || wll_unpack_out(&r, &o->tail) != 0)
    goto bad;
  if (wll_unpack_u64(&r) != 0) {
    if (unpack_text(&r, &m) != 0)
      goto bad;
    o->name = m.p;
  }
  o->graphs_failed = (int)wll_unpack_u64(&r);
  ng = wll_unpack_u64(&r);
  if (r.bad || ng > (len - r.at) / 8)
    goto bad;
  if (ng > 0 && (o->graphs = calloc((size_t)ng, sizeof *o->graphs)) == NULL)
    goto bad;
  for (k = 0; k < ng; k++, o->ngraphs++)
    if (unpack_text(&r, &o->graphs[k]) != 0)
      goto bad;
  if (wll_unpack_u64(&r) != 0 && unpack_text(&r, &o->whynot_dot) != 0)
    goto bad;
  if (r.bad || r.at != len)
    goto bad;
  *outp = o;
  return 0;
bad:
  litmus_out_free(o);
  return -1;
}
