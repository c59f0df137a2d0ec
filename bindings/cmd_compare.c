/* cmd_compare.c -- warplab compare: a histogram observed on hardware
 * beside the outcomes the model allows. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

/* ------------------------------------------------------------------ */
/* warplab compare HIST FILE...: observations beside the model          */
/* ------------------------------------------------------------------ */

int wll_cmd_compare(int argc, char **argv) {
  wl_explore_opts opts;
  wl_model *model = NULL;
  const char *model_path = NULL, *hist_path;
  char err[600];
  char *hist;
  size_t hlen = 0;
  wl_ctx *ctx;
  int i = 0, failed = 0, forbidden = 0;
  static const struct option longopts[] = {
      {"model", required_argument, NULL, 'm'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  int c;
  memset(&opts, 0, sizeof opts);
  opterr = 0;
  optind = 1;
  /* GNU getopt_long moves the histogram and the files after the options,
   * wherever they were written */
  while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
    if (c == 'm') {
      model_path = optarg;
    } else if (c == 'h') {
      wll_print_help(stdout, "compare");
      return wll_stdout_done();
    } else {
      fprintf(stderr, "warplab compare: %s '%s' (see warplab compare --help)\n",
              c == ':' ? "a value is missing after" : "unknown option",
              argv[optind - 1]);
      return 2;
    }
  }
  i = optind;
  if (argc - i < 2) {
    fprintf(stderr, "warplab compare: give a histogram and one or more "
                    ".litmus files (see warplab compare --help)\n");
    return 2;
  }
  hist_path = argv[i++];
  if ((hist = wll_read_file(hist_path, &hlen, err, sizeof err)) == NULL) {
    fprintf(stderr, "warplab: %s\n", err);
    return 1;
  }
  if (wl_ctx_new(NULL, &ctx) != 0) {
    free(hist);
    fprintf(stderr, "warplab: out of memory\n");
    return 1;
  }
  if (model_path != NULL) {
    int rc = wll_load_model(ctx, model_path, &model);
    if (rc != 0) {
      wl_ctx_free(ctx);
      free(hist);
      return rc;
    }
    opts.model = model;
  }
  for (; i < argc; i++) {
    size_t len = 0;
    char *src = wll_read_file(argv[i], &len, err, sizeof err);
    wl_litmus *t = NULL;
    wl_result *r = NULL;
    wl_compare_report rep;
    int rc;
    if (src == NULL) {
      fprintf(stderr, "warplab: %s\n", err);
      failed++;
      continue;
    }
    rc = wl_litmus_parse(ctx, argv[i], src, len, &t);
    free(src);
    if (rc == 0)
      rc = wl_explore(ctx, t, &opts, &r);
    if (rc == 0)
      rc = wl_compare(ctx, t, r, hist_path, hist, hlen, wll_write_stdout, NULL,
                      &rep);
    if (rc != 0) {
      const char *m = wl_ctx_errmsg(ctx);
      if (strncmp(m, argv[i], strlen(argv[i])) == 0 ||
          strncmp(m, hist_path, strlen(hist_path)) == 0)
        fprintf(stderr, "warplab: %s\n", m);
      else
        fprintf(stderr, "warplab: %s: %s\n", argv[i], m);
      failed++;
    } else {
      if (rep.forbidden > 0) {
        fflush(stdout);
        fprintf(stderr,
                "warplab: %s: %zu outcome%s the model forbids observed in "
                "%s (%llu runs): a model or hardware bug, or a harness "
                "that does not run the test as written\n",
                wl_litmus_name(t), rep.forbidden,
                rep.forbidden > 1 ? "s" : "", hist_path,
                (unsigned long long)rep.forbidden_runs);
        forbidden++;
      }
      if (wl_result_bound_hit(r))
        printf("Warning %s: the unroll bound cut some executions; allowed "
               "states may be missing\n", wl_litmus_name(t));
      fputs("\n", stdout);
    }
    wl_result_free(r);
    wl_litmus_free(t);
  }
  wl_model_free(model);
  wl_ctx_free(ctx);
  free(hist);
  if (wll_stdout_done() != 0)
    return 1;
  return forbidden ? 4 : failed ? 1 : 0;
}
