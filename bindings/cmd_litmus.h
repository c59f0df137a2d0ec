/* cmd_litmus.h -- warplab litmus's two halves: the command (options,
 * models, the pool's drive: cmd_litmus.c) and one file's work, a unit of
 * the pool (explore, print into its output, pack it for another rank:
 * cmd_litmus_file.c).  Part of the warplab command.  Not installed. */
#ifndef CMD_LITMUS_H
#define CMD_LITMUS_H

#include <stddef.h>

#include "cmd.h"

typedef struct litmus_stop {
  double deadline; /* 0: none */
  double started;  /* the file's start, for the progress line */
  const char *file;
  int shown;       /* a progress line is on the terminal */
} litmus_stop;

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
  int unroll; /* the bound the explorer runs with (for the cost guess) */
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

/* The explorer's should_stop: --timeout, SIGINT and SIGTERM (ud: a
 * litmus_stop). */
int wll_litmus_should_stop(void *ud);
/* Erases the explorer's progress line, if drawn. */
void wll_litmus_unprogress(litmus_stop *ls);
/* The pool's side (lpool.h's wll_pool_fns, ud: the litmus_job): a
 * slot's state, one file's run, its output's emission in file order
 * (emit_none: a rank other than 0, which prints nothing), its drop, and
 * its bytes for rank 0 (ranks.h's codec). */
int wll_litmus_worker_new(void *ud, wl_ctx *ctx, void **worker);
void wll_litmus_worker_free(void *ud, void *worker);
int wll_litmus_run(void *ud, size_t unit, wl_ctx *ctx, void *worker,
                   void *stop_ud, void **outp);
int wll_litmus_emit(void *ud, size_t unit, void *outp, int stopped);
int wll_litmus_emit_none(void *ud, size_t unit, void *outp, int stopped);
void wll_litmus_drop(void *ud, size_t unit, void *outp);
int wll_litmus_pack(void *ud, size_t unit, const void *outp, void **buf,
                    size_t *len);
int wll_litmus_unpack(void *ud, size_t unit, const void *buf, size_t len,
                      void **outp);

#endif
