/* cmd_litmus.c -- warplab litmus: every outcome of each .litmus file
 * (the built-in explorer or a cat model), in herd7's format or JSON,
 * with its progress line, limits (--timeout, --max-memory), witness
 * graphs and why-not explanations. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>
#include <sys/wait.h>

#include "cmd.h"
#include "lexplore.h"
#include "lpool.h"
#include "lwarplab.h"
#include "ranks.h"

/* ------------------------------------------------------------------ */
/* warplab litmus [options] FILE...                                    */
/* ------------------------------------------------------------------ */

typedef struct litmus_stop {
  double deadline; /* 0: none */
  double started;  /* the file's start, for the progress line */
  const char *file;
  int shown;       /* a progress line is on the terminal */
} litmus_stop;

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

static void litmus_unprogress(litmus_stop *ls) {
  if (ls->shown)
    fputs("\r\033[K", stderr);
  ls->shown = 0;
}

/* "512", "512M", "2G", "64k": a size; a bare number is in MiB.  0 on a
 * bad or zero size. */
static size_t parse_size(const char *v) {
  char *end;
  double n = strtod(v, &end);
  double mul = 1 << 20;
  if (*v == '\0' || !(n > 0))
    return 0;
  if (*end == 'k' || *end == 'K')
    mul = 1 << 10, end++;
  else if (*end == 'm' || *end == 'M')
    end++;
  else if (*end == 'g' || *end == 'G')
    mul = (double)(1 << 30), end++;
  if (*end == 'B' || *end == 'b')
    end++;
  if (*end != '\0' || n * mul > 1e18)
    return 0;
  return (size_t)(n * mul);
}

/* The model --why-not explains with when --model gives none. */
#define WHYNOT_MODEL "ptx-v6.0-isa.cat"

/* The explorer's should_stop: --timeout, SIGINT and SIGTERM. */
static int litmus_should_stop(void *ud) {
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

/* What every file's run reads: set before the pool runs and unchanged
 * while it does (the pool threads read it at once), and the main
 * thread's totals, which only litmus_emit writes. */
typedef struct litmus_job {
  const char **files;
  char **pre;          /* a "-" file's text, read before (else NULL) */
  size_t *prelen;
  char **preerr;       /* why a "-" could not be read (else NULL) */
  wl_explore_opts opts;
  int json, quiet, herd, whynot, detail; /* detail: the explorer's own
                                          * progress line (one thread) */
  double timeout;
  int split; /* --jobs N on one file: its exploration split (lexplore.h) */
  int ranked; /* under MPI, one file: its units over the ranks, split
               * workers (at least 1) on each; rank 0 prints */
  const char *graph_dir;
  const wl_model *model;     /* --model: read once, shared read-only */
  const wl_model *why_model; /* the default model of --why-not/--graph */
  const char *why_err;       /* why that one is missing (--graph) */
  /* the main thread's, in file order */
  int first, failed, nfound, sig, no_dot;
  wll_stems used;
} litmus_job;

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

static int litmus_worker_new(void *ud, wl_ctx *ctx, void **worker) {
  litmus_worker *w = calloc(1, sizeof *w);
  (void)ud;
  if (w == NULL)
    return -1;
  /* reading nothing, explaining an outcome: stops as the search does */
  wl_ctx_set_stop(ctx, litmus_should_stop, &w->ls);
  *worker = w;
  return 0;
}

static void litmus_worker_free(void *ud, void *worker) {
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
static int litmus_run(void *ud, size_t unit, wl_ctx *ctx, void *worker,
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
    len = j->prelen[unit];
    src = malloc(len > 0 ? len : 1);
    if (src != NULL)
      memcpy(src, j->pre[unit], len);
    else
      snprintf(err, sizeof err, "%s: out of memory", f);
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
  opts.should_stop = litmus_should_stop;
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
        litmus_unprogress(ls);
      wl_litmus_free(t);
      return WLL_UNIT_DONE;
    }
  } else if (rc == 0)
    rc = j->split > 0 ? wll_explore_jobs(ctx, t, &opts, j->split,
                                         isatty(2), &r)
                      : wl_explore(ctx, t, &opts, &r);
  if (j->detail)
    litmus_unprogress(ls);
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
static int litmus_emit(void *ud, size_t unit, void *outp, int stopped) {
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
  fflush(stdout); /* each file whole as soon as it is out (tail -f) */
  return 0;
}

static void litmus_drop(void *ud, size_t unit, void *outp) {
  (void)ud;
  (void)unit;
  litmus_out_free(outp);
}

/* A rank other than 0 of a ranked exploration: rank 0 prints. */
static int litmus_emit_none(void *ud, size_t unit, void *outp, int stopped) {
  (void)stopped;
  litmus_drop(ud, unit, outp);
  return 0;
}

/* Under MPI (ranks.h): a file's output from the rank that explored it
 * to rank 0, which emits it in its turn.  NULL (out of memory on that
 * rank) crosses as such. */
static int litmus_pack(void *ud, size_t unit, const void *outp, void **buf,
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

static int litmus_unpack(void *ud, size_t unit, const void *buf, size_t len,
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

int wll_cmd_litmus(int argc, char **argv) {
  enum {
    O_JSON = 256,
    O_UNROLL,
    O_TIMEOUT,
    O_MODEL,
    O_GRAPH,
    O_WHYNOT,
    O_MAXMEM,
    O_COUNTEX,
    O_FULL,
    O_CHECK_ERROR,
    O_NO_CHECKS,
    O_NO_SYM,
    O_NO_PREFIX,
    O_NO_STUTTER,
    O_NO_TA,
    O_NO_COMMUTE,
    O_SEARCH,
    O_HERD
  };
  static const struct option longopts[] = {
      {"json", no_argument, NULL, O_JSON},
      {"herd", no_argument, NULL, O_HERD},
      {"max-memory", required_argument, NULL, O_MAXMEM},
      {"count-executions", no_argument, NULL, O_COUNTEX},
      {"full-states", no_argument, NULL, O_FULL},
      {"check-error", no_argument, NULL, O_CHECK_ERROR},
      {"no-checks", no_argument, NULL, O_NO_CHECKS},
      {"no-symmetry", no_argument, NULL, O_NO_SYM},
      {"no-prefix", no_argument, NULL, O_NO_PREFIX},
      {"no-stutter", no_argument, NULL, O_NO_STUTTER},
      {"no-thin-air-filter", no_argument, NULL, O_NO_TA},
      {"no-commute", no_argument, NULL, O_NO_COMMUTE},
      {"search", required_argument, NULL, O_SEARCH},
      {"graph", required_argument, NULL, O_GRAPH},
      {"why-not", no_argument, NULL, O_WHYNOT},
      {"quiet", no_argument, NULL, 'q'},
      {"unroll", required_argument, NULL, O_UNROLL},
      {"timeout", required_argument, NULL, O_TIMEOUT},
      {"model", required_argument, NULL, O_MODEL},
      {"jobs", required_argument, NULL, 'j'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  wl_explore_opts opts;
  wl_ctx *ctx;
  wl_model *model = NULL;
  const char *model_path = NULL, **files;
  litmus_stop ls = {0};
  litmus_job job;
  int c, i, nf = 0, json = 0, quiet = 0, failed = 0, sig = 0;
  int whynot = 0, full = 0, jobs = 0, pool_rc = 0, split = 0;
  int check_error = 0, nfound = 0, herd = 0, root = wll_rank() == 0;
  const char *graph_dir = NULL;
  wl_model *why_model = NULL; /* the default model of --why-not, --graph */
  char why_err[700] = "";
  uint64_t u, *costs = NULL;
  double timeout = 0;
  memset(&opts, 0, sizeof opts);
  opts.keep_partial = 1; /* a signal prints what was found */
  if ((files = malloc((size_t)argc * sizeof *files)) == NULL) {
    fprintf(stderr, "warplab: out of memory\n");
    return 1;
  }
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, "-:qhj:", longopts, NULL)) != -1) {
    switch (c) {
    case 1:
      files[nf++] = optarg;
      break;
    case 'j':
      if (wll_parse_jobs("litmus", optarg, &jobs) != 0) {
        free(files);
        return 2;
      }
      break;
    case O_JSON:
      json = 1;
      break;
    case O_HERD:
      herd = 1;
      break;
    case 'q':
      quiet = 1;
      break;
    case O_UNROLL:
      if (wll_parse_count(optarg, 1, 1000, &u) != 0) {
        free(files);
        return wll_bad_value("litmus", "--unroll", optarg,
                             "a number from 1 to 1000");
      }
      opts.unroll = (int)u;
      break;
    case O_TIMEOUT:
      if (wll_parse_seconds(optarg, &timeout) != 0) {
        free(files);
        return wll_bad_value("litmus", "--timeout", optarg,
                             "a positive number of seconds");
      }
      break;
    case O_MAXMEM:
      if ((opts.max_memory = parse_size(optarg)) == 0) {
        free(files);
        return wll_bad_value("litmus", "--max-memory", optarg,
                             "a size (MiB, or with a K, M or G suffix)");
      }
      opts.keep_partial = 1;
      break;
    case O_COUNTEX:
      opts.count_executions = 1;
      break;
    case O_FULL:
      full = 1;
      break;
    case O_CHECK_ERROR:
      check_error = 1;
      break;
    case O_NO_CHECKS:
      opts.no_checks = 1;
      break;
    case O_NO_SYM:
      opts.no_symmetry = 1;
      break;
    case O_NO_PREFIX:
      opts.no_prefix = 1;
      break;
    case O_NO_STUTTER:
      opts.no_stutter = 1;
      break;
    case O_NO_TA:
      opts.no_thin_air_filter = 1;
      break;
    case O_NO_COMMUTE:
      opts.no_commute = 1;
      break;
    case O_SEARCH:
      if (strcmp(optarg, "auto") == 0)
        opts.search = WL_SEARCH_AUTO;
      else if (strcmp(optarg, "values") == 0)
        opts.search = WL_SEARCH_VALUES;
      else if (strcmp(optarg, "rf") == 0)
        opts.search = WL_SEARCH_RF;
      else {
        free(files);
        return wll_bad_value("litmus", "--search", optarg,
                             "auto, values or rf");
      }
      break;
    case O_MODEL:
      model_path = optarg;
      break;
    case O_GRAPH:
      if (optarg[0] == '\0') {
        free(files);
        return wll_bad_value("litmus", "--graph", optarg,
                             "a directory name");
      }
      graph_dir = optarg;
      break;
    case O_WHYNOT:
      whynot = 1;
      break;
    case 'h':
      free(files);
      wll_print_help(stdout, "litmus");
      return wll_stdout_done();
    default:
      free(files);
      return wll_opt_error("litmus", c, argv);
    }
  }
  nf = wll_add_rest(argc, argv, files, nf);
  if (herd && json) {
    free(files);
    fprintf(stderr, "warplab litmus: --herd and --json do not go "
                    "together (see warplab litmus --help)\n");
    return 2;
  }
  if (quiet && (json || herd)) { /* -q is its own format: one line a file */
    free(files);
    fprintf(stderr, "warplab litmus: -q and --%s do not go together (see "
                    "warplab litmus --help)\n", json ? "json" : "herd");
    return 2;
  }
  /* the text shows the observed variables only, so states that differ
   * elsewhere need not be told apart; --json lists every full state */
  opts.observed_only = !json && !full;
  if (opts.max_memory == 0) /* never the out-of-memory killer */
    opts.max_memory = wll_default_max_memory();
  if (nf == 0) {
    free(files);
    fprintf(stderr, "warplab litmus: no .litmus file given (see warplab litmus "
                    "--help)\n");
    return 2;
  }
  /* --jobs N (N > 1) on one file: its exploration is split instead */
  split = jobs > 1 && nf == 1 ? jobs : 0;
  if (jobs == 0)
    jobs = wll_pool_default_jobs((size_t)nf);
  /* under MPI, one file: its exploration split over the ranks, with
   * --jobs workers (default 1) on each */
  if (nf == 1 && wll_nranks() > 1)
    split = jobs;
  if (wl_ctx_new(NULL, &ctx) != 0) {
    free(files);
    fprintf(stderr, "warplab: out of memory\n");
    return 1;
  }
  if (graph_dir != NULL) { /* made if missing; a directory */
    struct stat st;
    if ((mkdir(graph_dir, 0777) != 0 && errno != EEXIST) ||
        stat(graph_dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
      fprintf(stderr, "warplab litmus: --graph %s: %s\n", graph_dir,
              errno == EEXIST ? "not a directory" : strerror(errno));
      wl_ctx_free(ctx);
      free(files);
      return 2;
    }
  }
  /* reading a model and explaining an outcome stop as the search does
   * (--timeout, SIGINT, SIGTERM) */
  wl_ctx_set_stop(ctx, litmus_should_stop, &ls);
  if (model_path != NULL || whynot) {
    /* --why-not without --model explains with the shipped default,
     * found beside the program: no explanation is no result */
    char found[1200];
    const char *name = model_path;
    int rc;
    if (name == NULL &&
        (name = wll_find_shipped(WHYNOT_MODEL, found, sizeof found)) ==
            NULL)
      name = WHYNOT_MODEL;
    ls.started = wll_seconds();
    ls.deadline = timeout > 0 ? ls.started + timeout : 0;
    ls.file = name;
    rc = model_path != NULL ? wll_load_model(ctx, name, &model)
                            : wll_load_model(ctx, name, &why_model);
    if (rc == 0 && wll_sig_pending()) { /* read, then the signal */
      wl_model_free(model);
      wl_model_free(why_model);
      model = why_model = NULL;
      rc = 1;
    }
    if (rc != 0 && (sig = wll_sig_take()) != 0) {
      fprintf(stderr, "warplab: %s: interrupted by %s while reading the "
                      "model\n", name, wll_sig_name(sig));
      rc = wll_sig_status(sig);
    } else if (rc != 0 && ls.deadline > 0 &&
               wll_seconds() > ls.deadline) {
      fprintf(stderr, "warplab: %s: gave up after --timeout %g s\n", name,
              timeout);
      rc = 1;
    } else if (rc != 0 && model_path == NULL) {
      fprintf(stderr, "warplab: --why-not needs the model %s (see "
                      "warplab litmus --help: --model)\n", WHYNOT_MODEL);
    }
    if (rc != 0) {
      wl_ctx_free(ctx);
      free(files);
      return rc;
    }
    opts.model = model;
  }
  /* --graph alone: the why-not graph of a forbidden outcome needs the
   * default model, read once here (each file that needs it and finds it
   * missing says so in its turn, and fails) */
  if (graph_dir != NULL && model == NULL && why_model == NULL) {
    char found[1200];
    const char *path = wll_find_shipped(WHYNOT_MODEL, found, sizeof found);
    if (path == NULL)
      snprintf(why_err, sizeof why_err, "the model " WHYNOT_MODEL " is not "
                                        "installed (see --model)");
    else if (wl_model_load(ctx, path, &why_model) != 0)
      snprintf(why_err, sizeof why_err, "%s", wl_ctx_errmsg(ctx));
  }
  memset(&job, 0, sizeof job);
  job.files = files;
  job.opts = opts;
  job.json = json;
  job.quiet = quiet;
  job.herd = herd;
  job.whynot = whynot;
  job.timeout = timeout;
  job.graph_dir = graph_dir;
  job.model = model;
  job.why_model = why_model;
  job.why_err = why_err[0] ? why_err : NULL;
  job.first = 1;
  /* the explorer's own line (states, combinations) when one file runs at
   * a time; else the pool's (files done) */
  job.detail = jobs == 1 || nf == 1;
  job.split = split;
  job.ranked = nf == 1 && wll_nranks() > 1;
  /* standard input is read here, once, in order (the pool's threads
   * must not race for it) */
  for (i = 0; i < nf; i++)
    if (strcmp(files[i], "-") == 0)
      break;
  if (i < nf) {
    job.pre = calloc((size_t)(nf > 0 ? nf : 1), sizeof *job.pre);
    job.prelen = calloc((size_t)(nf > 0 ? nf : 1), sizeof *job.prelen);
    job.preerr = calloc((size_t)(nf > 0 ? nf : 1), sizeof *job.preerr);
    if (job.pre == NULL || job.prelen == NULL || job.preerr == NULL)
      pool_rc = WL_ENOMEM;
    for (; pool_rc == 0 && i < nf; i++) {
      char err[600];
      if (strcmp(files[i], "-") != 0)
        continue;
      job.pre[i] = wll_read_file_ranks("-", &job.prelen[i], err, sizeof err);
      if (job.pre[i] == NULL && (job.preerr[i] = malloc(strlen(err) + 1)))
        strcpy(job.preerr[i], err);
    }
  }
  costs = malloc((size_t)(nf > 0 ? nf : 1) * sizeof *costs);
  if (costs == NULL)
    pool_rc = WL_ENOMEM;
  {
    /* the guess of each file's search (parsed here, on one thread: a
     * small part of what exploring it takes) where files share workers
     * (under MPI rank 0's are the ones used) */
    wl_ctx *cctx = NULL;
    int guess = nf > 1 && (wll_nranks() > 1 ? wll_rank() == 0 : jobs > 1) &&
                wl_ctx_new(NULL, &cctx) == 0;
    int unroll = opts.unroll ? opts.unroll : WL_DEFAULT_UNROLL;
    for (i = 0; costs != NULL && i < nf; i++) {
      const char *pre = job.pre != NULL ? job.pre[i] : NULL;
      size_t plen = pre != NULL ? job.prelen[i] : 0;
      if (guess)
        costs[i] = wll_litmus_cost(cctx, files[i], pre, plen, unroll);
      else
        costs[i] = pre != NULL ? (uint64_t)plen : wll_file_cost(files[i]);
    }
    wl_ctx_free(cctx);
  }
  if (json && root)
    fputs("[", stdout);
  if (pool_rc == 0) {
    wll_pool_opts po;
    wll_pool_fns fns;
    wll_pool_result res;
    static const wll_ranks_codec codec = {litmus_pack, litmus_unpack};
    char note[300], perr[300];
    memset(&po, 0, sizeof po);
    memset(&fns, 0, sizeof fns);
    po.jobs = jobs;
    po.progress = !job.detail && isatty(2);
    po.what = "litmus";
    po.units = "files";
    po.costs = costs;
    fns.worker_new = litmus_worker_new;
    fns.worker_free = litmus_worker_free;
    fns.run = litmus_run;
    fns.emit = litmus_emit;
    fns.drop = litmus_drop;
    if (job.ranked) {
      /* one file under MPI: every rank runs it here, on the thread that
       * talks to the other ranks, its units over the ranks; not through
       * the pool, whose look at a pending signal before a unit could
       * let one rank skip the exploration's collective calls */
      wl_ctx *uctx = NULL;
      void *w = NULL, *out = NULL;
      memset(&res, 0, sizeof res);
      note[0] = perr[0] = '\0';
      if (wl_ctx_new(NULL, &uctx) != 0 ||
          litmus_worker_new(&job, uctx, &w) != 0) {
        snprintf(perr, sizeof perr, "out of memory");
        pool_rc = WL_ENOMEM;
      } else {
        int st = litmus_run(&job, 0, uctx, w, NULL, &out);
        res.emitted = 1;
        (root ? litmus_emit : litmus_emit_none)(&job, 0, out,
                                                st == WLL_UNIT_STOPPED);
      }
      if (w != NULL)
        litmus_worker_free(&job, w);
      wl_ctx_free(uctx);
    } else
      /* under MPI the files are dealt to the ranks, and rank 0 prints */
      pool_rc = wll_ranks_pool_run((size_t)nf, &po, &fns, &codec, &job,
                                   &res, note, sizeof note, perr,
                                   sizeof perr);
    if (note[0] != '\0')
      fprintf(stderr, "warplab litmus: %s\n", note);
    if (pool_rc != 0 && root) {
      fflush(stdout);
      fprintf(stderr, "warplab litmus: %s\n", perr);
    }
    /* one signal is one stop: taken here; a run cut before a file
     * started (nothing of it printed) ends with its status too */
    sig = job.sig;
    if (wll_sig_pending() && (sig != 0 || res.emitted < (size_t)nf))
      sig = wll_sig_take();
    else if (sig != 0)
      (void)wll_sig_take();
  } else {
    fflush(stdout);
    fprintf(stderr, "warplab: out of memory\n");
  }
  if (json && root)
    fputs("]\n", stdout);
  failed = job.failed + (pool_rc != 0);
  nfound = job.nfound;
  for (i = 0; job.pre != NULL && i < nf; i++) {
    free(job.pre[i]);
    free(job.preerr[i]);
  }
  free(job.pre);
  free(job.prelen);
  free(job.preerr);
  free(costs);
  wll_stems_free(&job.used);
  wl_model_free(why_model);
  wl_model_free(model);
  wl_ctx_free(ctx);
  free(files);
  /* every rank exits with rank 0's status (mpirun's is the first
   * non-zero one); rank 0 alone emitted */
  i = !root ? 0
      : wll_stdout_done() != 0 ? 1
      : sig ? wll_sig_status(sig)
      : failed ? 1 : check_error && nfound ? 4 : 0;
  return (int)wll_ranks_max(i);
}
