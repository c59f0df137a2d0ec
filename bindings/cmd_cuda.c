/* cmd_cuda.c -- warplab cuda: a .litmus test as a CUDA program that
 * runs it on a real GPU. */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include <sys/stat.h>

#include "cmd.h"
#include "lpool.h"
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

/* ------------------------------------------------------------------ */
/* many files: one program each, DIR/NAME.cu, made on the pool         */
/* ------------------------------------------------------------------ */

/* What every file's run reads, and the main thread's state. */
typedef struct cuda_job {
  char **files;
  const wl_cuda_opts *o;
  const char *dir; /* -o DIR */
  int failed, sig;
  wll_stems used; /* the names written so far */
} cuda_job;

/* A file's program (or why there is none). */
typedef struct cuda_out {
  wll_out err;  /* its messages */
  text txt;     /* the program */
  char *base;   /* the file's name without folder and .litmus */
  int ok;
} cuda_out;

static void cuda_out_free(cuda_out *c) {
  if (c == NULL)
    return;
  wll_out_free(&c->err);
  free(c->txt.p);
  free(c->base);
  free(c);
}

/* The name a file's program gets: its base name, without .litmus (a
 * name that is empty, "." or ".." gets a '_'; standard input, "-", is
 * "stdin"). */
static char *cuda_base(const char *file) {
  const char *b = strrchr(file, '/');
  size_t n;
  char *p;
  b = b != NULL ? b + 1 : strcmp(file, "-") == 0 ? "stdin" : file;
  n = strlen(b);
  if (n > 7 && strcmp(b + n - 7, ".litmus") == 0)
    n -= 7;
  if ((p = malloc(n + 2)) == NULL)
    return NULL;
  memcpy(p, b, n);
  p[n] = '\0';
  if (n == 0 || strcmp(p, ".") == 0 || strcmp(p, "..") == 0)
    strcat(p, "_");
  return p;
}

/* On a pool thread: one file's program, whole, in memory. */
static int cuda_run(void *ud, size_t unit, wl_ctx *ctx, void *worker,
                    void *stop_ud, void **outp) {
  cuda_job *j = ud;
  const char *f = j->files[unit];
  cuda_out *c = calloc(1, sizeof *c);
  char err[600];
  size_t len = 0;
  char *src;
  wl_litmus *t = NULL;
  int rc;
  (void)worker;
  (void)stop_ud;
  *outp = c;
  if (c == NULL)
    return WLL_UNIT_DONE;
  if (wll_sig_pending())
    return WLL_UNIT_STOPPED; /* a signal between files */
  if ((c->base = cuda_base(f)) == NULL) {
    wll_out_printf(&c->err, WLL_OUT_STDERR, "warplab: out of memory\n");
    return WLL_UNIT_DONE;
  }
  if ((src = wll_read_file(f, &len, err, sizeof err)) == NULL) {
    wll_out_printf(&c->err, WLL_OUT_STDERR, "warplab: %s\n", err);
    return WLL_UNIT_DONE;
  }
  rc = wl_litmus_parse(ctx, f, src, len, &t);
  free(src);
  if (rc == 0)
    rc = wl_cuda_emit(ctx, t, j->o, collect, &c->txt);
  if (rc != 0) {
    const char *m = wl_ctx_errmsg(ctx);
    if (strncmp(m, f, strlen(f)) == 0)
      wll_out_printf(&c->err, WLL_OUT_STDERR, "warplab: %s\n", m);
    else
      wll_out_printf(&c->err, WLL_OUT_STDERR, "warplab: %s: %s\n", f, m);
  } else {
    c->ok = 1;
  }
  wl_litmus_free(t);
  return WLL_UNIT_DONE;
}

/* On the main thread, in file order: DIR/BASE.cu (BASE-2.cu, ... when
 * an earlier file of the run had the name, with a note). */
static int cuda_emit_file(void *ud, size_t unit, void *outp, int stopped) {
  cuda_job *j = ud;
  cuda_out *c = outp;
  const char *f = j->files[unit];
  (void)stopped;
  if (c == NULL) {
    fprintf(stderr, "warplab: %s: out of memory\n", f);
    j->failed++;
    return 0;
  }
  wll_out_flush(&c->err);
  if (!c->ok) {
    j->failed++;
  } else {
    char path[1300], err[1400];
    size_t k;
    int dup = 1, clash;
    do {
      int n = dup == 1 ? snprintf(path, sizeof path, "%s/%s.cu", j->dir,
                                  c->base)
                       : snprintf(path, sizeof path, "%s/%s-%d.cu", j->dir,
                                  c->base, dup);
      if (n < 0 || (size_t)n >= sizeof path) {
        fprintf(stderr, "warplab cuda: %s: the path of its program is too "
                        "long\n", f);
        j->failed++;
        cuda_out_free(c);
        return 0;
      }
      for (clash = 0, k = 0; k < j->used.n; k++)
        if (strcmp(j->used.p[k], path) == 0)
          clash = 1;
      dup += clash;
    } while (clash);
    if (dup > 1)
      fprintf(stderr, "warplab cuda: %s: an earlier file of this run made "
                      "%s/%s.cu: this one's program is %s\n",
              f, j->dir, c->base, path);
    if (j->used.n == j->used.cap) {
      size_t cap = j->used.cap ? 2 * j->used.cap : 16;
      char **p = realloc(j->used.p, cap * sizeof *p);
      if (p != NULL) {
        j->used.p = p;
        j->used.cap = cap;
      }
    }
    if (j->used.n < j->used.cap &&
        (j->used.p[j->used.n] = malloc(strlen(path) + 1)) != NULL)
      strcpy(j->used.p[j->used.n++], path);
    if (wll_save_file(path, c->txt.p, c->txt.n, err, sizeof err) != 0) {
      fprintf(stderr, "warplab cuda: %s\n", err);
      j->failed++;
    }
  }
  cuda_out_free(c);
  return 0;
}

static void cuda_drop(void *ud, size_t unit, void *outp) {
  (void)ud;
  (void)unit;
  cuda_out_free(outp);
}

/* A file's cost for the pool (lpool.h's cost: on the pool's threads,
 * not one stat after another on this one before any file runs): its
 * size. */
static uint64_t cuda_cost(void *ud, size_t unit, wl_ctx *ctx) {
  const cuda_job *j = ud;
  (void)ctx;
  return wll_file_cost(j->files[unit]);
}

/* Every file's program into dir, on jobs workers; the exit status. */
static int cuda_many(char **files, size_t n, const wl_cuda_opts *o,
                     const char *dir, int jobs) {
  cuda_job j;
  wll_pool_opts po;
  wll_pool_fns fns;
  wll_pool_result res;
  char note[300], perr[300];
  struct stat st;
  size_t k;
  int rc, sig = 0;
  if (wll_mkdir_p(dir) != 0 || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    fprintf(stderr, "warplab cuda: -o %s: %s\n", dir,
            errno == EEXIST ? "not a directory (several files need a "
                              "folder: one program per test)"
                            : strerror(errno));
    return 2;
  }
  memset(&j, 0, sizeof j);
  j.files = files;
  j.o = o;
  j.dir = dir;
  memset(&po, 0, sizeof po);
  memset(&fns, 0, sizeof fns);
  po.jobs = jobs > 0 ? jobs : wll_pool_default_jobs(n);
  for (k = 0; k < n; k++) {
    if (strcmp(files[k], "-") == 0)
      po.jobs = 1; /* standard input: read in its turn, by one thread */
  }
  po.progress = po.jobs > 1 && isatty(2);
  po.what = "cuda";
  po.units = "files";
  po.cost = cuda_cost;
  fns.run = cuda_run;
  fns.emit = cuda_emit_file;
  fns.drop = cuda_drop;
  rc = wll_pool_run(n, &po, &fns, &j, &res, note, sizeof note, perr,
                    sizeof perr);
  if (note[0] != '\0')
    fprintf(stderr, "warplab cuda: %s\n", note);
  if (rc != 0) {
    fprintf(stderr, "warplab cuda: %s\n", perr);
    j.failed++;
  }
  if (wll_sig_pending() && res.emitted < n) {
    sig = wll_sig_take();
    fprintf(stderr, "warplab cuda: interrupted by %s; the files from %s on "
                    "are skipped\n",
            wll_sig_name(sig), files[res.emitted]);
  }
  for (k = 0; k < j.used.n; k++)
    free(j.used.p[k]);
  free(j.used.p);
  return sig ? wll_sig_status(sig) : j.failed ? 1 : 0;
}

/* The command, its operands collected into files (argc long). */
static int cuda_main(int argc, char **argv, char **files) {
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
  int nf = 0, jobs = 0;
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
      {"jobs", required_argument, NULL, 'j'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  wl_cuda_opts_init(&o);
  memset(given, 0, sizeof given);
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, "-:o:hj:", longopts, NULL)) != -1) {
    uint64_t u;
    k = c - 256;
    if (c == 1) {
      files[nf++] = optarg;
    } else if (c == 'j') {
      if (wll_parse_jobs("cuda", optarg, &jobs) != 0)
        return 2;
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
  for (; optind < argc; optind++) /* after "--" */
    files[nf++] = argv[optind];
  if (nf == 0) {
    fprintf(stderr, "warplab cuda: no .litmus file given (see warplab cuda "
                    "--help)\n");
    return 2;
  }
  if (nf > 1) {
    /* one program per test: DIR/NAME.cu, made on the pool */
    if (out == NULL) {
      fprintf(stderr, "warplab cuda: several files need -o DIR (one "
                      "program per test, DIR/NAME.cu)\n");
      return 2;
    }
    return cuda_many(files, (size_t)nf, &o, out, jobs);
  }
  file = files[0];
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

int wll_cmd_cuda(int argc, char **argv) {
  char **files = malloc((size_t)(argc > 0 ? argc : 1) * sizeof *files);
  int rc;
  if (files == NULL) {
    fprintf(stderr, "warplab: out of memory\n");
    return 1;
  }
  rc = cuda_main(argc, argv, files);
  free(files);
  return rc;
}
