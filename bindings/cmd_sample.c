/* cmd_sample.c -- warplab sample: each .litmus file run many times on
 * the simulated device, its outcomes as a histogram. */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "lsched.h"
#include "lwarplab.h"
#include "ranks.h"

/* ------------------------------------------------------------------ */
/* warplab sample [options] FILE...                                    */
/* ------------------------------------------------------------------ */

/* The histogram's writer: stops the output when a new signal comes. */
static int write_stdout_sig(void *ud, const char *s, size_t n) {
  if (wll_sig_pending())
    return -1;
  return wll_write_stdout(ud, s, n);
}

int wll_cmd_sample(int argc, char **argv) {
  enum {
    O_SEED = 256,
    O_PROFILE,
    O_TIMEOUT,
    O_MAXSTEPS,
    O_JSON,
    O_NOEXACT,
    O_HARNESS
  };
  static const struct option longopts[] = {
      {"json", no_argument, NULL, O_JSON},
      {"runs", required_argument, NULL, 'n'},
      {"seed", required_argument, NULL, O_SEED},
      {"profile", required_argument, NULL, O_PROFILE},
      {"harness", required_argument, NULL, O_HARNESS},
      {"jobs", required_argument, NULL, 'j'},
      {"timeout", required_argument, NULL, O_TIMEOUT},
      {"max-steps", required_argument, NULL, O_MAXSTEPS},
      {"no-exact", no_argument, NULL, O_NOEXACT},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  wl_sample_opts opts;
  const char **files;
  uint64_t u;
  int c, i, nf = 0, jobs = wll_ncpus(), failed = 0, cut = 0, sig = 0;
  int root = wll_rank() == 0, progress = isatty(2) && root, json = 0;
  int first = 1;
  double timeout = 0;
  memset(&opts, 0, sizeof opts);
  opts.runs = 100000;
  opts.seed = 1;
  opts.profile = WL_PROFILE_H100;
  if ((files = malloc((size_t)argc * sizeof *files)) == NULL) {
    fprintf(stderr, "warplab: out of memory\n");
    return 1;
  }
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, "-:n:j:h", longopts, NULL)) != -1) {
    const char *v = optarg;
    int bad = 0;
    switch (c) {
    case 1:
      files[nf++] = v;
      break;
    case O_JSON:
      json = 1;
      break;
    case O_NOEXACT:
      opts.step = 1;
      break;
    case 'n':
      if (wll_parse_count(v, 1, UINT64_MAX, &opts.runs) != 0)
        bad =
            wll_bad_value("sample", "-n", v, "a number of runs of at least 1");
      break;
    case O_SEED:
      if (wll_parse_count(v, 0, UINT64_MAX, &opts.seed) != 0)
        bad = wll_bad_value("sample", "--seed", v, "a non-negative integer");
      break;
    case O_PROFILE:
      if ((opts.profile = wl_profile_find(v)) < 0)
        bad = wll_bad_value("sample", "--profile", v, "weak or h100");
      break;
    case O_HARNESS:
      if ((opts.harness = wl_cuda_harness_find(v)) < 0)
        bad = wll_bad_value("sample", "--harness", v,
                            "plain, sync, stress, parallel or delay");
      break;
    case 'j':
      if (wll_parse_count(v, 1, 1024, &u) != 0)
        bad = wll_bad_value("sample", "--jobs", v, "a number from 1 to 1024");
      jobs = (int)u;
      break;
    case O_MAXSTEPS:
      if (wll_parse_count(v, 1, INT_MAX, &u) != 0)
        bad = wll_bad_value("sample", "--max-steps", v, "a positive number");
      opts.max_steps = (int)u;
      break;
    case O_TIMEOUT:
      if (wll_parse_seconds(v, &timeout) != 0)
        bad = wll_bad_value("sample", "--timeout", v,
                            "a positive number of seconds");
      break;
    case 'h':
      free(files);
      wll_print_help(stdout, "sample");
      return wll_stdout_done();
    default:
      bad = wll_opt_error("sample", c, argv);
      break;
    }
    if (bad) {
      free(files);
      return bad;
    }
  }
  nf = wll_add_rest(argc, argv, files, nf);
  if (nf == 0) {
    free(files);
    fprintf(stderr, "warplab sample: no .litmus file given (see warplab sample "
                    "--help)\n");
    return 2;
  }
  {
    /* fewer workers when the address space or the thread limit cannot
     * hold them all (libuv would abort): say so, and go on */
    char note[300];
    int w = wll_pool_start(jobs, note, sizeof note);
    if (note[0] != '\0' && root)
      fprintf(stderr, "warplab sample: %s\n", note);
    jobs = w > 0 ? w : 1;
  }
  if (json && root)
    fputs("[", stdout);
  /* Under MPI every rank goes through every file (each runs its share
   * of the runs) and only rank 0 writes; whether to stop is agreed on
   * at the top of each file, so that the ranks stop alike. */
  for (i = 0; i < nf; i++) {
    const char *f = files[i];
    char err[600];
    size_t len = 0;
    char *src;
    wl_ctx *ctx = NULL;
    wl_litmus *t = NULL;
    wl_hist *h = NULL;
    double t0;
    int rc, partial = WLL_STOP_NONE;
    sig = (int)wll_ranks_max(sig != 0 ? sig : wll_sig_take());
    if (sig != 0)
      break; /* a signal between files: the rest are skipped */
    src = wll_read_file_ranks(f, &len, err, sizeof err);
    if (src == NULL) {
      if (root)
        fprintf(stderr, "warplab: %s\n", err);
      failed++;
      continue;
    }
    /* the test's context only parses; the workers have their own */
    rc = wl_ctx_new(NULL, &ctx);
    if (rc == 0)
      rc = wl_litmus_parse(ctx, f, src, len, &t);
    free(src);
    if (rc != 0) {
      const char *m = ctx != NULL ? wl_ctx_errmsg(ctx) : "";
      if (m[0] == '\0')
        m = wl_strerror(rc);
      if (!root)
        ;
      else if (strncmp(m, f, strlen(f)) == 0)
        fprintf(stderr, "warplab: %s\n", m);
      else
        fprintf(stderr, "warplab: %s: %s\n", f, m);
      wl_ctx_free(ctx);
      failed++;
      continue;
    }
    t0 = wll_seconds();
    rc = wll_sample_ranks(ctx, t, &opts, jobs, timeout, progress, &h,
                          &partial, err, sizeof err);
    if (partial == WLL_STOP_SIGNAL) /* reported below; a new one stops */
      sig = (int)wll_ranks_max(wll_sig_take()); /* the output */
    if (rc != 0) {
      if (!root)
        ;
      else if (strncmp(err, f, strlen(f)) == 0)
        fprintf(stderr, "warplab: %s\n", err);
      else
        fprintf(stderr, "warplab: %s: %s\n", f, err);
      failed++;
    } else if (root) {
      /* a signal during the output ends the SC search (no outcome is
       * then called weak) and the output itself */
      wl_hist_set_stop(h, wll_sig_stop, NULL);
      if (json && !first)
        fputs(",\n", stdout);
      first = 0;
      rc = (json ? wl_hist_write_json
                 : wl_hist_write)(h, partial != WLL_STOP_NONE,
                                  wll_seconds() - t0, write_stdout_sig, NULL);
      if (rc != 0 && wll_sig_pending()) {
        int s2 = wll_sig_take();
        fflush(stdout);
        fprintf(stderr, "\nwarplab: %s: output interrupted by %s\n", f,
                wll_sig_name(s2));
        if (sig == 0)
          sig = s2;
      } else if (rc != 0) {
        fprintf(stderr, "warplab: %s: %s\n", f, wl_ctx_errmsg(ctx));
        failed++;
      }
      if (partial != WLL_STOP_NONE) {
        char why[64];
        fflush(stdout);
        if (partial == WLL_STOP_TIMEOUT)
          snprintf(why, sizeof why, "stopped by --timeout");
        else
          snprintf(why, sizeof why, "interrupted by %s", wll_sig_name(sig));
        fprintf(stderr,
                "warplab: %s: %s after %llu of %llu runs; the histogram "
                "is partial\n",
                f, why, (unsigned long long)wl_hist_runs(h),
                (unsigned long long)opts.runs);
        if (partial == WLL_STOP_TIMEOUT)
          cut++;
      }
    }
    wl_hist_free(h);
    wl_litmus_free(t);
    wl_ctx_free(ctx);
  }
  if (json && root)
    fputs("]\n", stdout);
  free(files);
  /* every rank exits with rank 0's status (mpirun's is the first
   * non-zero one) */
  c = !root ? 0
      : wll_stdout_done() != 0 ? 1
      : sig ? wll_sig_status(sig) : failed ? 1 : cut ? 3 : 0;
  return (int)wll_ranks_max(c);
}
