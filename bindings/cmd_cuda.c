/* cmd_cuda.c -- warplab cuda: a .litmus test as a CUDA program that
 * runs it on a real GPU. */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "lwarplab.h"

/* ------------------------------------------------------------------ */
/* warplab cuda [options] FILE: the test as a CUDA program             */
/* ------------------------------------------------------------------ */

static int cuda_usage(const char *opt, const char *v, const char *want) {
  fprintf(stderr, "warplab cuda: %s takes %s, not '%s'\n", opt, want, v);
  return 2;
}

/* The program's text, collected whole before anything is written. */
typedef struct text {
  char *p;
  size_t n, cap;
} text;

static int collect(void *ud, const char *s, size_t n) {
  text *t = ud;
  if (n > t->cap - t->n) {
    size_t cap = t->cap ? t->cap : 65536;
    char *q;
    while (cap - t->n < n) {
      if (cap > ((size_t)-1) / 2)
        return -1;
      cap *= 2;
    }
    if ((q = realloc(t->p, cap)) == NULL)
      return -1;
    t->p = q;
    t->cap = cap;
  }
  memcpy(t->p + t->n, s, n);
  t->n += n;
  return 0;
}

int wll_cmd_cuda(int argc, char **argv) {
  static const struct {
    const char *name, *want;
    long lo, hi;
  } nums[] = {{"--blocks", "a number from 1 to 1048576", 1, 1L << 20},
              {"--threads", "a number from 1 to 1024", 1, 1024},
              {"--launches", "a number of at least 1", 1, 1L << 30},
              {"--stress", "a number from 0 to 65536", 0, 1L << 16},
              {"--stress-iters", "a non-negative number", 0, 1L << 30},
              {"--spacing", "a number from 1 to 1024", 1, 1024},
              {"--seed", "a non-negative integer", 0, 0x7fffffffL},
              {"--budget", "a positive number", 1, 1L << 30},
              {"--rounds", "a number from 1 to 1048576", 1, 1L << 20},
              {"--sync", "0 or 1", 0, 1},
              {"--sync-spins", "a positive number", 1, 1L << 30},
              {"--place", "0 or 1", 0, 1},
              {"--pre-stress", "a number from 0 to 1048576", 0, 1L << 20},
              {"--stress-lines", "a number from 1 to 65536", 1, 1L << 16},
              {"--line-words", "a number from 1 to 1024", 1, 1024},
              {"--delay", "a number from 0 to 1048576", 0, 1L << 20},
              {"--gap", "a number from 0 to 1048576", 0, 1L << 20},
              {"--stream", "a number from 1 to 1048576", 1, 1L << 20}};
  uint64_t val[sizeof nums / sizeof nums[0]];
  int given[sizeof nums / sizeof nums[0]], pattern = -1;
  const char *harness = NULL;
  wl_cuda_opts o;
  const char *out = NULL, *file = NULL;
  char err[600];
  size_t len = 0;
  char *src;
  wl_ctx *ctx;
  wl_litmus *t = NULL;
  text txt = {NULL, 0, 0};
  int c, rc, k;
  static const struct option longopts[] = {
      {"blocks", required_argument, NULL, 256},
      {"threads", required_argument, NULL, 257},
      {"launches", required_argument, NULL, 258},
      {"stress", required_argument, NULL, 259},
      {"stress-iters", required_argument, NULL, 260},
      {"spacing", required_argument, NULL, 261},
      {"seed", required_argument, NULL, 262},
      {"budget", required_argument, NULL, 263},
      {"rounds", required_argument, NULL, 264},
      {"sync", required_argument, NULL, 265},
      {"sync-spins", required_argument, NULL, 266},
      {"place", required_argument, NULL, 267},
      {"pre-stress", required_argument, NULL, 268},
      {"stress-lines", required_argument, NULL, 269},
      {"line-words", required_argument, NULL, 270},
      {"delay", required_argument, NULL, 271},
      {"gap", required_argument, NULL, 272},
      {"stream", required_argument, NULL, 273},
      {"harness", required_argument, NULL, 'H'},
      {"stress-pattern", required_argument, NULL, 'P'},
      {"tune", no_argument, NULL, 'T'},
      {"sm", required_argument, NULL, 'S'},
      {"no-shuffle", no_argument, NULL, 'N'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  wl_cuda_opts_init(&o);
  memset(given, 0, sizeof given);
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, "-:o:h", longopts, NULL)) != -1) {
    uint64_t u;
    k = c - 256;
    if (c == 1) {
      if (file != NULL) {
        fprintf(stderr, "warplab cuda: one .litmus file at a time ('%s' "
                        "is a second)\n", optarg);
        return 2;
      }
      file = optarg;
    } else if (c == 'o') {
      out = optarg;
    } else if (c == 'N') {
      o.no_shuffle = 1;
    } else if (c == 'T') {
      o.tune = 1;
    } else if (c == 'H') {
      wl_cuda_opts tmp;
      if (wl_cuda_harness(&tmp, optarg) != 0)
        return cuda_usage("--harness", optarg,
                          "plain, sync, stress, parallel or delay");
      harness = optarg;
    } else if (c == 'P') {
      if ((pattern = wl_cuda_pattern_find(optarg)) < 0)
        return cuda_usage("--stress-pattern", optarg,
                          "random, ss, sl, ls or ll");
    } else if (c == 'S') {
      if (strcmp(optarg, "any") == 0)
        o.sm = WL_CUDA_SM_ANY;
      else if (strcmp(optarg, "same") == 0)
        o.sm = WL_CUDA_SM_SAME;
      else if (strcmp(optarg, "different") == 0)
        o.sm = WL_CUDA_SM_DIFFERENT;
      else
        return cuda_usage("--sm", optarg, "any, same or different");
    } else if (c == 'h') {
      wll_print_help(stdout, "cuda");
      return wll_stdout_done();
    } else if (k >= 0 && (size_t)k < sizeof nums / sizeof nums[0]) {
      if (wll_parse_count(optarg, (uint64_t)nums[k].lo, (uint64_t)nums[k].hi,
                          &u) != 0)
        return cuda_usage(nums[k].name, optarg, nums[k].want);
      val[k] = u;
      given[k] = 1;
    } else if (c == ':') {
      fprintf(stderr,
              "warplab cuda: %s needs a value (see warplab cuda --help)\n",
              argv[optind - 1]);
      return 2;
    } else {
      fprintf(stderr, "warplab cuda: unknown option '%s' (see warplab cuda "
                      "--help)\n", argv[optind - 1]);
      return 2;
    }
  }
  /* the preset first, wherever it was written; the settings change it */
  if (harness != NULL)
    (void)wl_cuda_harness(&o, harness);
  if (pattern >= 0)
    o.stress_pattern = pattern;
  for (k = 0; k < (int)(sizeof nums / sizeof nums[0]); k++) {
    int v = (int)val[k];
    if (!given[k])
      continue;
    switch (k) {
    case 0: o.blocks = v; break;
    case 1: o.threads = v; break;
    case 2: o.launches = v; break;
    case 3: o.stress_blocks = v; break;
    case 4: o.stress_iters = v; break;
    case 5: o.spacing = v; break;
    case 6: o.seed = val[k]; break;
    case 7: o.budget = v; break;
    case 8: o.rounds = v; break;
    case 9: o.sync = v; break;
    case 10: o.sync_spins = v; break;
    case 11: o.place = v; break;
    case 12: o.pre_stress = v; break;
    case 13: o.stress_lines = v; break;
    case 14: o.line_words = v; break;
    case 15: o.delay = v; break;
    case 16: o.gap = v; break;
    default: o.stream = v; break;
    }
  }
  for (; optind < argc; optind++) { /* after "--" */
    if (file != NULL) {
      fprintf(stderr, "warplab cuda: one .litmus file at a time ('%s' is "
                      "a second)\n", argv[optind]);
      return 2;
    }
    file = argv[optind];
  }
  if (file == NULL) {
    fprintf(stderr, "warplab cuda: no .litmus file given (see warplab cuda "
                    "--help)\n");
    return 2;
  }
  if ((src = wll_read_file(file, &len, err, sizeof err)) == NULL) {
    fprintf(stderr, "warplab: %s\n", err);
    return 1;
  }
  if (wl_ctx_new(NULL, &ctx) != 0) {
    free(src);
    fprintf(stderr, "warplab: out of memory\n");
    return 1;
  }
  rc = wl_litmus_parse(ctx, file, src, len, &t);
  free(src);
  /* the whole text first: a refused test opens and removes nothing */
  if (rc == 0)
    rc = wl_cuda_emit(ctx, t, &o, collect, &txt);
  if (rc != 0) {
    const char *m = wl_ctx_errmsg(ctx);
    if (strncmp(m, file, strlen(file)) == 0)
      fprintf(stderr, "warplab: %s\n", m);
    else
      fprintf(stderr, "warplab: %s: %s\n", file, m);
  } else if (out != NULL) {
    if (wll_save_file(out, txt.p, txt.n, err, sizeof err) != 0) {
      fprintf(stderr, "warplab cuda: %s\n", err);
      rc = WL_EIO;
    }
  } else if (fwrite(txt.p, 1, txt.n, stdout) != txt.n ||
             fflush(stdout) != 0) {
    fprintf(stderr, "warplab cuda: standard output: %s\n", strerror(errno));
    rc = WL_EIO;
  }
  free(txt.p);
  wl_litmus_free(t);
  wl_ctx_free(ctx);
  return rc != 0 ? 1 : 0;
}
