/* main.c -- the warplab command. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/stat.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "../engine/warplab.h"
#include "lsched.h"
#include "lwarplab.h"

/* bindings/lwarplab.c */
int luaopen_warplab(lua_State *L);

/* The help text, in pieces (C11 guarantees string literals of 4095
 * characters only); the first holds the one %d. */
static const char usage[] =
    "usage: warplab <command> [options] [args]\n"
    "\n"
    "commands:\n"
    "  litmus [options] FILE...   explore every outcome the PTX 6.0 memory\n"
    "                             model allows for each .litmus file and\n"
    "                             print it in herd7's format\n"
    "      --json                 print JSON instead (one array of results,\n"
    "                             with every final state and a witness\n"
    "                             execution per state)\n"
    "      --model FILE.cat       evaluate this cat model literally over\n"
    "                             every candidate execution (the second\n"
    "                             engine; a name without a folder is also\n"
    "                             looked up in $WARPLAB_SHARED/spec and\n"
    "                             ../shared/spec), e.g. ptx-v7.5.cat for\n"
    "                             the proxy tests; default: the built-in\n"
    "                             explorer of ptx-v6.0-isa.cat's axioms\n"
    "      --unroll N             take each backward branch at most N times\n"
    "                             (default %d; spin-loop iterations that\n"
    "                             change nothing are free); when the bound\n"
    "                             cuts an execution the verdict line reads\n"
    "                             'Loop Ok'/'Loop No' and a Warning line\n"
    "                             follows\n"
    "      --timeout SECONDS      give up on a file after this long (the\n"
    "                             file counts as failed; the rest go on)\n"
    "      -q, --quiet            print only 'NAME Ok|No' per file\n"
    ;
static const char usage_sample[] =
    "  sample [options] FILE...   run each .litmus file many times on the\n"
    "                             operational simulator and print the\n"
    "                             histogram of outcomes in litmus7's style\n"
    "                             (count, '*>' where the condition holds,\n"
    "                             'weak' for outcomes sequential\n"
    "                             consistency cannot give, the verdict)\n"
    "      -n N                   runs per file (default 100000)\n"
    "      --seed S               seed (default 1); the same seed gives the\n"
    "                             same histogram for any --jobs\n"
    "      --profile weak|h100    weak: weak outcomes frequent; h100: at\n"
    "                             rates like an H100's (default h100)\n"
    "      --jobs J               worker threads (default: the number of\n"
    "                             CPUs)\n"
    "      --timeout SECONDS      stop a file's runs after this long and\n"
    "                             print the partial histogram\n"
    "      --max-steps N          scheduler steps before a run counts as\n"
    "                             hung (default 10000)\n"
    "                             A progress line is drawn on stderr when\n"
    "                             it is a terminal.  Ctrl-C stops the\n"
    "                             workers, prints the partial histogram\n"
    "                             marked as such and exits with 130\n"
    ;

static const char usage_gen[] =
    "  gen [options]              write litmus tests (Dat3M's PTX dialect):\n"
    "                             families from cycles of relations\n"
    "                             (diy7-style) or random programs; to\n"
    "                             stdout, one after another with a blank\n"
    "                             line between, or one file per test\n"
    "      --cycle \"EDGES\"        one cycle, e.g. \"PodWW Rfe PodRR Fre\",\n"
    "                             under every annotation and placement\n"
    "      --family NAME|all      a classic shape (MP, SB, LB, S, R, 2+2W,\n"
    "                             WRC, RWC, WWC, IRIW, ISA2, W+RWC, 3.SB,\n"
    "                             3.LB, 3.2W, CoRR, CoRW, CoWR) or all\n"
    "      --edges \"LIST\"         every cycle of 3..--max-size N edges\n"
    "                             (default 4) from the vocabulary; edges:\n"
    "                             Pod/Pos+XY, Rfe Rfi Fre Fri Coe Coi,\n"
    "                             Rmw, DpDatadW, DpCtrldR|W, FenceSc|\n"
    "                             FenceAcqRel+Cta|Gpu|Sys+d|s+XY ('*' in a\n"
    "                             word: R and W)\n"
    "      --random               random programs: --threads N (2)\n"
    "                             --insns N (4) --locs N (2) --mix LIST\n"
    "                             (weak,relaxed,acqrel,atom,red,fence,dep,\n"
    "                             bar; default all)\n"
    "      --sample               draw cycles, annotations and placements\n"
    "                             at random instead of enumerating them\n"
    "      --annotations LIST     weak,rlx,ra,mix (default: all but mix;\n"
    "                             with --sample all)\n"
    "      --placements LIST      cta,gpu,sys,mix: threads in one CTA, one\n"
    "                             CTA each, one GPU each, drawn (default:\n"
    "                             all but mix; with --sample all)\n"
    "      --scopes LIST          cta,gpu,sys (default all)\n"
    "      --count N              at most N tests (default: the whole\n"
    "                             enumeration; 10 for --sample, --random)\n"
    "      --seed S               the seed (default 1): the same seed gives\n"
    "                             the same tests\n"
    "      -o DIR                 write DIR/NAME.litmus for each test\n"
    "                             (DIR is created)\n"
    "      --list                 print the names only\n"
    "      --explore              explore each test; print 'NAME Ok|No\n"
    "                             STATES' (--unroll N as for litmus)\n"
    "      --families             print the classic shapes' cycles\n"
    ;

static const char usage_cuda[] =
    "  cuda [options] FILE        write a CUDA program that runs the test\n"
    "                             on an NVIDIA GPU (nvcc -arch=sm_70 or\n"
    "                             later): the test's instructions as\n"
    "                             inline PTX, many instances per launch,\n"
    "                             outcomes counted on the GPU and printed\n"
    "                             like sample's histogram; the program\n"
    "                             takes these settings again (-h)\n"
    "      -o FILE.cu             write there (default: stdout)\n"
    "      --blocks N             test blocks per launch (default 1024)\n"
    "      --threads N            threads per block (default 256)\n"
    "      --launches N           launches (default 200)\n"
    "      --stress N             extra blocks of memory stress (0)\n"
    "      --stress-iters N       accesses per stress thread (256)\n"
    "      --spacing N            words between instances' copies of a\n"
    "                             location (1); above 1 the stress hits\n"
    "                             the words between (the test's lines)\n"
    "      --seed S               seed of the thread-to-role tables (1)\n"
    "      --budget N             backward branches per thread before its\n"
    "                             instance counts as hung (10000)\n"
    "      --no-shuffle           roles in order, not drawn at random\n"
    "  compare HIST FILE...       put a histogram (from a cuda program or\n"
    "                             sample) beside the outcomes the model\n"
    "                             allows for each FILE: observed outcomes\n"
    "                             the model forbids are flagged (exit\n"
    "                             status 4), allowed outcomes never seen\n"
    "                             are listed\n"
    "      --model FILE.cat       judge with this cat model (as litmus)\n"
    ;

static const char usage_run[] =
    "  run SCRIPT.lua [ARGS...]   run a Lua script with the warplab module\n"
    "                             preloaded (require \"warplab\"); arg and\n"
    "                             ... hold ARGS as in lua5.4; '-' reads the\n"
    "                             script from stdin.  An error prints\n"
    "                             'warplab: script.lua:LINE: message' and a\n"
    "                             traceback, and exits with status 1.\n"
    "                             Scripts build litmus tests (wl.litmus),\n"
    "                             explore and sample them, and run kernels\n"
    "                             on a simulated GPU: wl.device{preset =\n"
    "                             \"sm_90\"|\"sm_80\"|\"sm_70\"|\"sm_35\"|\"toy\"|\n"
    "                             \"banks5\", ...}, dev:malloc/constant/\n"
    "                             malloc_managed, wl.kernel(fn), dev:launch\n"
    "                             (k, {grid=, block=, shared=}, ...) with\n"
    "                             per-line counters named as Nsight\n"
    "                             Compute names them (README.md)\n"
    "  help                       this text\n"
    "  version                    the version\n"
    "\n"
    "Exit status: 0 when every file ran, 1 when some file could not be\n"
    "read, parsed, explored or sampled (the reason goes to stderr as\n"
    "file:line:col: message), 2 on a usage error; for sample also 3\n"
    "when --timeout cut a file's runs short (and no file failed), and\n"
    "130 after Ctrl-C (the files after the interrupted one are skipped);\n"
    "for compare 4 when an observed outcome is one the model forbids.\n"
    "\n"
    "The .litmus dialect is Dat3M's PTX dialect; README.md describes it.\n";

static void print_usage(FILE *f) {
  fprintf(f, usage, WL_DEFAULT_UNROLL);
  fputs(usage_sample, f);
  fputs(usage_gen, f);
  fputs(usage_cuda, f);
  fputs(usage_run, f);
}

static int write_stdout(void *ud, const char *s, size_t n) {
  (void)ud;
  return fwrite(s, 1, n, stdout) == n ? 0 : -1;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double deadline;

static int past_deadline(void *ud) {
  (void)ud;
  return now() > deadline;
}

static char *read_file(const char *path, size_t *len, char *err,
                       size_t errlen) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  size_t cap = 0, n = 0;
  if (f == NULL) {
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    return NULL;
  }
  for (;;) {
    size_t got;
    if (n == cap) {
      size_t ncap = cap ? cap * 2 : 4096;
      char *p;
      if (ncap > ((size_t)64 << 20)) {
        snprintf(err, errlen, "%s: file too large (over 64 MiB)", path);
        free(buf);
        fclose(f);
        return NULL;
      }
      p = realloc(buf, ncap);
      if (p == NULL) {
        snprintf(err, errlen, "%s: out of memory", path);
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = p;
      cap = ncap;
    }
    got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0)
      break;
  }
  if (ferror(f)) {
    snprintf(err, errlen, "%s: read error", path);
    free(buf);
    fclose(f);
    return NULL;
  }
  fclose(f);
  *len = n;
  return buf;
}

static int cmd_litmus(int argc, char **argv) {
  wl_explore_opts opts;
  wl_ctx *ctx;
  wl_model *model = NULL;
  const char *model_path = NULL;
  int i, json = 0, quiet = 0, failed = 0, nfiles = 0, first = 1;
  double timeout = 0;
  memset(&opts, 0, sizeof opts);
  for (i = 0; i < argc; i++) {
    if (strcmp(argv[i], "--json") == 0) {
      json = 1;
    } else if (strcmp(argv[i], "-q") == 0 || strcmp(argv[i], "--quiet") == 0) {
      quiet = 1;
    } else if (strcmp(argv[i], "--unroll") == 0 ||
               strncmp(argv[i], "--unroll=", 9) == 0) {
      const char *v = argv[i][8] == '=' ? argv[i] + 9 : NULL;
      char *end;
      long n;
      if (v == NULL) {
        if (i + 1 >= argc) {
          fprintf(stderr, "warplab litmus: --unroll needs a number\n");
          return 2;
        }
        v = argv[++i];
      }
      n = strtol(v, &end, 10);
      if (*v == '\0' || *end != '\0' || n < 1 || n > 1000) {
        fprintf(stderr,
                "warplab litmus: --unroll takes a number from 1 to 1000, "
                "not '%s'\n",
                v);
        return 2;
      }
      opts.unroll = (int)n;
    } else if (strcmp(argv[i], "--timeout") == 0) {
      char *end;
      if (i + 1 >= argc) {
        fprintf(stderr, "warplab litmus: --timeout needs a number of "
                        "seconds\n");
        return 2;
      }
      timeout = strtod(argv[++i], &end);
      if (*argv[i] == '\0' || *end != '\0' || !(timeout > 0)) {
        fprintf(stderr,
                "warplab litmus: --timeout takes a positive number of "
                "seconds, not '%s'\n",
                argv[i]);
        return 2;
      }
      opts.should_stop = past_deadline;
    } else if (strcmp(argv[i], "--model") == 0 ||
               strncmp(argv[i], "--model=", 8) == 0) {
      if (argv[i][7] == '=') {
        model_path = argv[i] + 8;
      } else if (i + 1 >= argc) {
        fprintf(stderr, "warplab litmus: --model needs a .cat file\n");
        return 2;
      } else {
        model_path = argv[++i];
      }
    } else if (strcmp(argv[i], "--") == 0) {
      i++;
      break;
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      fprintf(stderr,
              "warplab litmus: unknown option '%s' (see warplab "
              "help)\n",
              argv[i]);
      return 2;
    } else {
      break;
    }
  }
  if (i >= argc) {
    fprintf(stderr, "warplab litmus: no .litmus file given (see warplab "
                    "help)\n");
    return 2;
  }
  if (wl_ctx_new(NULL, &ctx) != 0) {
    fprintf(stderr, "warplab: out of memory\n");
    return 1;
  }
  if (model_path != NULL) {
    char found[1200];
    const char *path = wll_find_model(model_path, found, sizeof found);
    int rc = wl_model_load(ctx, path, &model);
    if (rc != 0) {
      fprintf(stderr, "warplab: %s\n", wl_ctx_errmsg(ctx));
      wl_ctx_free(ctx);
      return rc == WL_ESYNTAX ? 1 : 2;
    }
    opts.model = model;
  }
  if (json)
    fputs("[", stdout);
  for (; i < argc; i++) {
    char err[600];
    size_t len = 0;
    char *src = read_file(argv[i], &len, err, sizeof err);
    wl_litmus *t = NULL;
    wl_result *r = NULL;
    double t0;
    int rc;
    nfiles++;
    if (src == NULL) {
      fprintf(stderr, "warplab: %s\n", err);
      failed++;
      continue;
    }
    t0 = now();
    deadline = t0 + timeout;
    rc = wl_litmus_parse(ctx, argv[i], src, len, &t);
    free(src);
    if (rc == 0)
      rc = wl_explore(ctx, t, &opts, &r);
    if (rc != 0) {
      const char *m = wl_ctx_errmsg(ctx);
      if (strncmp(m, argv[i], strlen(argv[i])) == 0)
        fprintf(stderr, "warplab: %s\n", m);
      else
        fprintf(stderr, "warplab: %s: %s\n", argv[i], m);
      if (rc == WL_ESTOPPED)
        fprintf(stderr, "warplab: %s: gave up after --timeout %g s\n", argv[i],
                timeout);
      wl_litmus_free(t);
      failed++;
      continue;
    }
    if (quiet) {
      printf("%s %s%s\n", wl_litmus_name(t),
             wl_result_bound_hit(r) ? "Loop " : "",
             wl_result_verdict(r) ? "Ok" : "No");
    } else if (json) {
      if (!first)
        fputs(",\n", stdout);
      wl_result_write_json(r, now() - t0, write_stdout, NULL);
      first = 0;
    } else {
      wl_result_write_herd(r, now() - t0, write_stdout, NULL);
    }
    wl_result_free(r);
    wl_litmus_free(t);
  }
  if (json)
    fputs("]\n", stdout);
  wl_model_free(model);
  wl_ctx_free(ctx);
  if (fflush(stdout) != 0)
    return 1;
  return failed ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* warplab sample [options] FILE...                                    */
/* ------------------------------------------------------------------ */

/* An option's value: "--opt V" or "--opt=V"; NULL (and a message) when
 * it is missing.  *i moves past a separate value. */
static const char *opt_value(int argc, char **argv, int *i, const char *name) {
  size_t n = strlen(name);
  if (strncmp(argv[*i], name, n) == 0 && argv[*i][n] == '=')
    return argv[*i] + n + 1;
  if (*i + 1 >= argc) {
    fprintf(stderr, "warplab sample: %s needs a value (see warplab help)\n",
            name);
    return NULL;
  }
  return argv[++*i];
}

static int is_opt(const char *arg, const char *name) {
  size_t n = strlen(name);
  return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

/* A count: digits, or a number like 1e6 that is a whole number. */
static int parse_count(const char *v, uint64_t lo, uint64_t hi, uint64_t *out) {
  char *end;
  unsigned long long u;
  if (*v == '\0' || *v == '-' || *v == '+' || *v == ' ')
    return -1;
  errno = 0;
  u = strtoull(v, &end, 10);
  if (*end != '\0' || errno != 0) {
    double d = strtod(v, &end);
    if (*end != '\0' || !(d >= 0) || d > 9007199254740992.0)
      return -1;
    u = (unsigned long long)d;
    if ((double)u != d) /* not a whole number */
      return -1;
  }
  if (u < lo || u > hi)
    return -1;
  *out = u;
  return 0;
}

static int sample_usage(const char *opt, const char *v, const char *want) {
  fprintf(stderr, "warplab sample: %s takes %s, not '%s'\n", opt, want, v);
  return 2;
}

static int cmd_sample(int argc, char **argv) {
  wl_sample_opts opts;
  uint64_t u;
  int i, jobs = wll_ncpus(), failed = 0, cut = 0, interrupted = 0;
  int progress = isatty(2);
  double timeout = 0;
  memset(&opts, 0, sizeof opts);
  opts.runs = 100000;
  opts.seed = 1;
  opts.profile = WL_PROFILE_H100;
  for (i = 0; i < argc; i++) {
    const char *a = argv[i], *v;
    if (is_opt(a, "-n") || is_opt(a, "--runs")) {
      if ((v = opt_value(argc, argv, &i, a[1] == 'n' ? "-n" : "--runs")) ==
          NULL)
        return 2;
      if (parse_count(v, 1, UINT64_MAX, &opts.runs) != 0)
        return sample_usage("-n", v, "a number of runs of at least 1");
    } else if (is_opt(a, "--seed")) {
      if ((v = opt_value(argc, argv, &i, "--seed")) == NULL)
        return 2;
      if (parse_count(v, 0, UINT64_MAX, &opts.seed) != 0)
        return sample_usage("--seed", v, "a non-negative integer");
    } else if (is_opt(a, "--profile")) {
      if ((v = opt_value(argc, argv, &i, "--profile")) == NULL)
        return 2;
      if (strcmp(v, "weak") == 0)
        opts.profile = WL_PROFILE_WEAK;
      else if (strcmp(v, "h100") == 0)
        opts.profile = WL_PROFILE_H100;
      else
        return sample_usage("--profile", v, "weak or h100");
    } else if (is_opt(a, "--jobs") || is_opt(a, "-j")) {
      if ((v = opt_value(argc, argv, &i, a[1] == 'j' ? "-j" : "--jobs")) ==
          NULL)
        return 2;
      if (parse_count(v, 1, 1024, &u) != 0)
        return sample_usage("--jobs", v, "a number from 1 to 1024");
      jobs = (int)u;
    } else if (is_opt(a, "--max-steps")) {
      if ((v = opt_value(argc, argv, &i, "--max-steps")) == NULL)
        return 2;
      if (parse_count(v, 1, INT_MAX, &u) != 0)
        return sample_usage("--max-steps", v, "a positive number");
      opts.max_steps = (int)u;
    } else if (is_opt(a, "--timeout")) {
      char *end;
      if ((v = opt_value(argc, argv, &i, "--timeout")) == NULL)
        return 2;
      timeout = strtod(v, &end);
      if (*v == '\0' || *end != '\0' || !(timeout > 0) || timeout > 1e9)
        return sample_usage("--timeout", v, "a positive number of seconds");
    } else if (strcmp(a, "--") == 0) {
      i++;
      break;
    } else if (a[0] == '-' && a[1] != '\0') {
      fprintf(stderr,
              "warplab sample: unknown option '%s' (see warplab help)\n", a);
      return 2;
    } else {
      break;
    }
  }
  if (i >= argc) {
    fprintf(stderr, "warplab sample: no .litmus file given (see warplab "
                    "help)\n");
    return 2;
  }
  for (; i < argc && !interrupted; i++) {
    char err[600];
    size_t len = 0;
    char *src = read_file(argv[i], &len, err, sizeof err);
    wl_ctx *ctx = NULL;
    wl_litmus *t = NULL;
    wl_hist *h = NULL;
    double t0;
    int rc, partial = WLL_STOP_NONE;
    if (src == NULL) {
      fprintf(stderr, "warplab: %s\n", err);
      failed++;
      continue;
    }
    /* the test's context only parses; the workers have their own */
    rc = wl_ctx_new(NULL, &ctx);
    if (rc == 0)
      rc = wl_litmus_parse(ctx, argv[i], src, len, &t);
    free(src);
    if (rc != 0) {
      const char *m = ctx != NULL ? wl_ctx_errmsg(ctx) : "";
      if (m[0] == '\0')
        m = wl_strerror(rc);
      if (strncmp(m, argv[i], strlen(argv[i])) == 0)
        fprintf(stderr, "warplab: %s\n", m);
      else
        fprintf(stderr, "warplab: %s: %s\n", argv[i], m);
      wl_ctx_free(ctx);
      failed++;
      continue;
    }
    t0 = now();
    rc = wll_sample_parallel(ctx, t, &opts, jobs, timeout, progress, &h,
                             &partial, err, sizeof err);
    if (rc != 0) {
      if (strncmp(err, argv[i], strlen(argv[i])) == 0)
        fprintf(stderr, "warplab: %s\n", err);
      else
        fprintf(stderr, "warplab: %s: %s\n", argv[i], err);
      failed++;
    } else {
      rc = wl_hist_write(h, partial != WLL_STOP_NONE, now() - t0, write_stdout,
                         NULL);
      if (rc != 0)
        failed++;
      if (partial != WLL_STOP_NONE) {
        fflush(stdout);
        fprintf(stderr,
                "warplab: %s: %s after %llu of %llu runs; the histogram "
                "is partial\n",
                argv[i],
                partial == WLL_STOP_TIMEOUT ? "stopped by --timeout"
                                            : "interrupted",
                (unsigned long long)wl_hist_runs(h),
                (unsigned long long)opts.runs);
        if (partial == WLL_STOP_TIMEOUT)
          cut++;
        else
          interrupted = 1;
      }
    }
    wl_hist_free(h);
    wl_litmus_free(t);
    wl_ctx_free(ctx);
  }
  if (fflush(stdout) != 0)
    return 1;
  return interrupted ? 130 : failed ? 1 : cut ? 3 : 0;
}

/* ------------------------------------------------------------------ */
/* warplab cuda [options] FILE: the test as a CUDA program             */
/* ------------------------------------------------------------------ */

static int cuda_usage(const char *opt, const char *v, const char *want) {
  fprintf(stderr, "warplab cuda: %s takes %s, not '%s'\n", opt, want, v);
  return 2;
}

static int write_file(void *ud, const char *s, size_t n) {
  return fwrite(s, 1, n, (FILE *)ud) == n ? 0 : -1;
}

static int cmd_cuda(int argc, char **argv) {
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
              {"--budget", "a positive number", 1, 1L << 30}};
  wl_cuda_opts o;
  const char *out = NULL, *file = NULL;
  char err[600];
  size_t len = 0;
  char *src;
  wl_ctx *ctx;
  wl_litmus *t = NULL;
  FILE *f;
  int i, rc;
  wl_cuda_opts_init(&o);
  for (i = 0; i < argc; i++) {
    const char *a = argv[i], *v;
    size_t k;
    int done = 0;
    for (k = 0; k < sizeof nums / sizeof nums[0] && !done; k++) {
      uint64_t u;
      if (!is_opt(a, nums[k].name))
        continue;
      if ((v = opt_value(argc, argv, &i, nums[k].name)) == NULL)
        return 2;
      if (parse_count(v, (uint64_t)nums[k].lo, (uint64_t)nums[k].hi, &u) !=
          0)
        return cuda_usage(nums[k].name, v, nums[k].want);
      switch (k) {
      case 0: o.blocks = (int)u; break;
      case 1: o.threads = (int)u; break;
      case 2: o.launches = (int)u; break;
      case 3: o.stress_blocks = (int)u; break;
      case 4: o.stress_iters = (int)u; break;
      case 5: o.spacing = (int)u; break;
      case 6: o.seed = u; break;
      default: o.budget = (int)u; break;
      }
      done = 1;
    }
    if (done)
      continue;
    if (strcmp(a, "-o") == 0 || strncmp(a, "-o", 2) == 0) {
      if (a[2] != '\0')
        out = a + 2;
      else if (i + 1 < argc)
        out = argv[++i];
      else {
        fprintf(stderr, "warplab cuda: -o needs a file name\n");
        return 2;
      }
    } else if (strcmp(a, "--no-shuffle") == 0) {
      o.no_shuffle = 1;
    } else if (strcmp(a, "--") == 0 && i + 1 < argc && file == NULL) {
      file = argv[++i];
    } else if (a[0] == '-' && a[1] != '\0') {
      fprintf(stderr, "warplab cuda: unknown option '%s' (see warplab "
                      "help)\n", a);
      return 2;
    } else if (file == NULL) {
      file = a;
    } else {
      fprintf(stderr, "warplab cuda: one .litmus file at a time ('%s' is "
                      "a second)\n", a);
      return 2;
    }
  }
  if (file == NULL) {
    fprintf(stderr, "warplab cuda: no .litmus file given (see warplab "
                    "help)\n");
    return 2;
  }
  if ((src = read_file(file, &len, err, sizeof err)) == NULL) {
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
  f = stdout;
  if (rc == 0 && out != NULL && (f = fopen(out, "wb")) == NULL) {
    fprintf(stderr, "warplab cuda: %s: %s\n", out, strerror(errno));
    wl_litmus_free(t);
    wl_ctx_free(ctx);
    return 1;
  }
  if (rc == 0)
    rc = wl_cuda_emit(ctx, t, &o, write_file, f);
  if (rc != 0) {
    const char *m = wl_ctx_errmsg(ctx);
    if (strncmp(m, file, strlen(file)) == 0)
      fprintf(stderr, "warplab: %s\n", m);
    else
      fprintf(stderr, "warplab: %s: %s\n", file, m);
  }
  if (f != stdout && fclose(f) != 0 && rc == 0) {
    fprintf(stderr, "warplab cuda: %s: %s\n", out, strerror(errno));
    rc = WL_EIO;
  }
  if (rc != 0 && f != stdout)
    remove(out);
  wl_litmus_free(t);
  wl_ctx_free(ctx);
  if (f == stdout && fflush(stdout) != 0)
    return 1;
  return rc != 0 ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* warplab compare HIST FILE...: observations beside the model          */
/* ------------------------------------------------------------------ */

static int cmd_compare(int argc, char **argv) {
  wl_explore_opts opts;
  wl_model *model = NULL;
  const char *model_path = NULL, *hist_path;
  char err[600];
  char *hist;
  size_t hlen = 0;
  wl_ctx *ctx;
  int i = 0, failed = 0, forbidden = 0;
  memset(&opts, 0, sizeof opts);
  for (; i < argc; i++) {
    if (is_opt(argv[i], "--model")) {
      if ((model_path = opt_value(argc, argv, &i, "--model")) == NULL)
        return 2;
    } else if (strcmp(argv[i], "--") == 0) {
      i++;
      break;
    } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
      fprintf(stderr, "warplab compare: unknown option '%s' (see warplab "
                      "help)\n", argv[i]);
      return 2;
    } else {
      break;
    }
  }
  if (argc - i < 2) {
    fprintf(stderr, "warplab compare: give a histogram and one or more "
                    ".litmus files (see warplab help)\n");
    return 2;
  }
  hist_path = argv[i++];
  if ((hist = read_file(hist_path, &hlen, err, sizeof err)) == NULL) {
    fprintf(stderr, "warplab: %s\n", err);
    return 1;
  }
  if (wl_ctx_new(NULL, &ctx) != 0) {
    free(hist);
    fprintf(stderr, "warplab: out of memory\n");
    return 1;
  }
  if (model_path != NULL) {
    char found[1200];
    const char *path = wll_find_model(model_path, found, sizeof found);
    int rc = wl_model_load(ctx, path, &model);
    if (rc != 0) {
      fprintf(stderr, "warplab: %s\n", wl_ctx_errmsg(ctx));
      wl_ctx_free(ctx);
      free(hist);
      return rc == WL_ESYNTAX ? 1 : 2;
    }
    opts.model = model;
  }
  for (; i < argc; i++) {
    size_t len = 0;
    char *src = read_file(argv[i], &len, err, sizeof err);
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
      rc = wl_compare(ctx, t, r, hist_path, hist, hlen, write_stdout, NULL,
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
  if (fflush(stdout) != 0)
    return 1;
  return forbidden ? 4 : failed ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* warplab gen [options]: litmus tests from cycles or at random        */
/* ------------------------------------------------------------------ */

/* A comma-separated list of words to the bits of their positions in
 * words[] (NULL-terminated); -1 naming nothing valid. */
static int word_bits(const char *v, const char *const words[],
                     unsigned *out) {
  unsigned bits = 0;
  const char *p = v;
  while (*p != '\0') {
    size_t n = strcspn(p, ",");
    int k, found = -1;
    for (k = 0; words[k] != NULL; k++)
      if (strlen(words[k]) == n && strncmp(p, words[k], n) == 0)
        found = k;
    if (found < 0)
      return -1;
    bits |= 1u << found;
    p += n;
    if (*p == ',')
      p++;
  }
  if (bits == 0)
    return -1;
  *out = bits;
  return 0;
}

static int gen_usage(const char *opt, const char *v, const char *want) {
  fprintf(stderr, "warplab gen: %s takes %s, not '%s'\n", opt, want, v);
  return 2;
}

/* Writes text to DIR/NAME.litmus; 0 or -1 (message printed). */
static int gen_write_file(const char *dir, const char *name,
                          const char *text, size_t len) {
  char path[4096];
  FILE *f;
  snprintf(path, sizeof path, "%s/%s.litmus", dir, name);
  f = fopen(path, "wb");
  if (f == NULL || fwrite(text, 1, len, f) != len) {
    fprintf(stderr, "warplab gen: %s: %s\n", path, strerror(errno));
    if (f != NULL)
      fclose(f);
    return -1;
  }
  if (fclose(f) != 0) {
    fprintf(stderr, "warplab gen: %s: %s\n", path, strerror(errno));
    return -1;
  }
  return 0;
}

static int cmd_gen(int argc, char **argv) {
  static const char *const ann_words[] = {"weak", "rlx", "ra", "mix", NULL};
  static const char *const place_words[] = {"cta", "gpu", "sys", "mix",
                                            NULL};
  static const char *const mix_words[] = {"weak", "relaxed", "acqrel",
                                          "atom", "red",     "fence",
                                          "dep",  "bar",     NULL};
  enum { O_CYCLE = 256, O_FAMILY, O_EDGES, O_MAXSIZE, O_RANDOM, O_SAMPLE,
         O_ANN, O_PLACE, O_SCOPES, O_COUNT, O_SEED, O_THREADS, O_INSNS,
         O_LOCS, O_MIX, O_LIST, O_EXPLORE, O_UNROLL, O_FAMILIES };
  static const struct option longopts[] = {
      {"cycle", required_argument, NULL, O_CYCLE},
      {"family", required_argument, NULL, O_FAMILY},
      {"edges", required_argument, NULL, O_EDGES},
      {"max-size", required_argument, NULL, O_MAXSIZE},
      {"random", no_argument, NULL, O_RANDOM},
      {"sample", no_argument, NULL, O_SAMPLE},
      {"annotations", required_argument, NULL, O_ANN},
      {"placements", required_argument, NULL, O_PLACE},
      {"scopes", required_argument, NULL, O_SCOPES},
      {"count", required_argument, NULL, O_COUNT},
      {"seed", required_argument, NULL, O_SEED},
      {"threads", required_argument, NULL, O_THREADS},
      {"insns", required_argument, NULL, O_INSNS},
      {"locs", required_argument, NULL, O_LOCS},
      {"mix", required_argument, NULL, O_MIX},
      {"list", no_argument, NULL, O_LIST},
      {"explore", no_argument, NULL, O_EXPLORE},
      {"unroll", required_argument, NULL, O_UNROLL},
      {"families", no_argument, NULL, O_FAMILIES},
      {NULL, 0, NULL, 0}};
  wl_gen_opts o;
  wl_explore_opts xo;
  wl_ctx *ctx = NULL;
  wl_gen *g = NULL;
  const char *dir = NULL;
  int c, modes = 0, list = 0, explore = 0, count_set = 0, rc, failed = 0;
  uint64_t u, n = 0;
  memset(&o, 0, sizeof o);
  memset(&xo, 0, sizeof xo);
  o.seed = 1;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
    const char *v = optarg;
    switch (c) {
    case O_CYCLE:
      o.mode = WL_GEN_CYCLE;
      o.cycle = v;
      modes++;
      break;
    case O_FAMILY:
      o.mode = WL_GEN_FAMILY;
      o.family = v;
      modes++;
      break;
    case O_EDGES:
      o.mode = WL_GEN_EDGES;
      o.edges = v;
      modes++;
      break;
    case O_RANDOM:
      o.mode = WL_GEN_RANDOM;
      modes++;
      break;
    case O_SAMPLE:
      o.sample = 1;
      break;
    case O_MAXSIZE:
      if (parse_count(v, 3, 12, &u) != 0)
        return gen_usage("--max-size", v, "a number from 3 to 12");
      o.max_size = (int)u;
      break;
    case O_THREADS:
    case O_INSNS:
    case O_LOCS: {
      int hi = c == O_INSNS ? 16 : 8;
      const char *nm = c == O_THREADS ? "--threads"
                       : c == O_INSNS ? "--insns"
                                      : "--locs";
      if (parse_count(v, 1, (uint64_t)hi, &u) != 0) {
        fprintf(stderr, "warplab gen: %s takes a number from 1 to %d, not "
                        "'%s'\n", nm, hi, v);
        return 2;
      }
      if (c == O_THREADS)
        o.threads = (int)u;
      else if (c == O_INSNS)
        o.insns = (int)u;
      else
        o.locs = (int)u;
      break;
    }
    case O_ANN:
      if (word_bits(v, ann_words, &o.annotations) != 0)
        return gen_usage("--annotations", v, "a list of weak,rlx,ra,mix");
      break;
    case O_PLACE:
      if (word_bits(v, place_words, &o.placements) != 0)
        return gen_usage("--placements", v, "a list of cta,gpu,sys,mix");
      break;
    case O_SCOPES:
      if (word_bits(v, place_words, &o.scopes) != 0 || (o.scopes & 8u))
        return gen_usage("--scopes", v, "a list of cta,gpu,sys");
      break;
    case O_MIX:
      if (word_bits(v, mix_words, &o.mix) != 0)
        return gen_usage("--mix", v,
                         "a list of weak,relaxed,acqrel,atom,red,fence,dep,"
                         "bar");
      break;
    case O_COUNT:
      if (parse_count(v, 1, UINT64_MAX, &o.count) != 0)
        return gen_usage("--count", v, "a number of at least 1");
      count_set = 1;
      break;
    case O_SEED:
      if (parse_count(v, 0, UINT64_MAX, &o.seed) != 0)
        return gen_usage("--seed", v, "a non-negative integer");
      break;
    case O_UNROLL:
      if (parse_count(v, 1, 1000, &u) != 0)
        return gen_usage("--unroll", v, "a number from 1 to 1000");
      xo.unroll = (int)u;
      break;
    case 'o':
      dir = v;
      break;
    case O_LIST:
      list = 1;
      break;
    case O_EXPLORE:
      explore = 1;
      break;
    case O_FAMILIES: {
      const char *const *f = wl_gen_families();
      for (; *f != NULL; f++)
        printf("%-6s %s\n", *f, wl_gen_family_cycle(*f));
      return fflush(stdout) != 0;
    }
    case ':':
      fprintf(stderr, "warplab gen: %s needs a value (see warplab help)\n",
              argv[optind - 1]);
      return 2;
    default:
      fprintf(stderr, "warplab gen: unknown option '%s' (see warplab help)\n",
              argv[optind - 1]);
      return 2;
    }
  }
  if (optind < argc) {
    fprintf(stderr, "warplab gen: unexpected argument '%s' (see warplab "
                    "help)\n", argv[optind]);
    return 2;
  }
  if (modes != 1) {
    fprintf(stderr, "warplab gen: give one of --cycle, --family, --edges or "
                    "--random (see warplab help)\n");
    return 2;
  }
  if (!count_set && (o.sample || o.mode == WL_GEN_RANDOM))
    o.count = 10;
  if (wl_ctx_new(NULL, &ctx) != 0) {
    fprintf(stderr, "warplab: out of memory\n");
    return 1;
  }
  rc = wl_gen_new(ctx, &o, &g);
  if (rc != 0) {
    fprintf(stderr, "warplab gen: %s\n", wl_ctx_errmsg(ctx));
    wl_ctx_free(ctx);
    return rc == WL_ENOMEM ? 1 : 2;
  }
  if (dir != NULL && mkdir(dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "warplab gen: %s: %s\n", dir, strerror(errno));
    wl_gen_free(g);
    wl_ctx_free(ctx);
    return 1;
  }
  for (;;) {
    const char *text;
    size_t len;
    if ((rc = wl_gen_next(g, &text, &len)) != 0) {
      fprintf(stderr, "warplab gen: %s\n", wl_ctx_errmsg(ctx));
      failed++;
      break;
    }
    if (text == NULL)
      break;
    n++;
    if (dir != NULL && gen_write_file(dir, wl_gen_name(g), text, len) != 0) {
      failed++;
      break;
    }
    if (explore) {
      wl_litmus *t = NULL;
      wl_result *r = NULL;
      rc = wl_litmus_parse(ctx, wl_gen_name(g), text, len, &t);
      if (rc == 0)
        rc = wl_explore(ctx, t, &xo, &r);
      if (rc != 0) {
        fprintf(stderr, "warplab gen: %s: %s\n", wl_gen_name(g),
                wl_ctx_errmsg(ctx));
        failed++;
      } else {
        printf("%s %s%s %zu\n", wl_gen_name(g),
               wl_result_bound_hit(r) ? "Loop " : "",
               wl_result_verdict(r) ? "Ok" : "No", wl_result_nstates(r));
      }
      wl_result_free(r);
      wl_litmus_free(t);
    } else if (list) {
      printf("%s\n", wl_gen_name(g));
    } else if (dir == NULL) {
      if (n > 1)
        fputc('\n', stdout);
      fwrite(text, 1, len, stdout);
    }
  }
  if (dir != NULL && !failed)
    fprintf(stderr, "warplab gen: wrote %llu tests to %s\n",
            (unsigned long long)n, dir);
  wl_gen_free(g);
  wl_ctx_free(ctx);
  if (fflush(stdout) != 0)
    return 1;
  return failed ? 1 : 0;
}

/* ------------------------------------------------------------------ */
/* warplab run SCRIPT [ARGS]: lua.c's way of running a script          */
/* ------------------------------------------------------------------ */

/* lua.c's msghandler; a message that already carries a traceback (an
 * error of a thread function re-raised by test:explore) keeps its own. */
static int run_msghandler(lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  if (msg == NULL) {
    if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
      return 1;
    msg =
        lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  }
  if (strstr(msg, "\nstack traceback:") != NULL)
    return 1;
  luaL_traceback(L, L, msg, 1);
  return 1;
}

/* Runs in protected mode: argv[0] is the script, the rest its args. */
static int run_main(lua_State *L) {
  int argc = (int)lua_tointeger(L, 1);
  char **argv = lua_touserdata(L, 2);
  const char *script = argv[2];
  int i, n;
  luaL_openlibs(L);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_pushcfunction(L, luaopen_warplab);
  lua_setfield(L, -2, "warplab");
  lua_pop(L, 1);
  /* arg: the script at 0, its arguments from 1, the command below */
  lua_createtable(L, argc - 3, 3);
  for (i = 0; i < argc; i++) {
    lua_pushstring(L, argv[i]);
    lua_rawseti(L, -2, i - 2);
  }
  lua_setglobal(L, "arg");
  lua_pushcfunction(L, run_msghandler);
  if (luaL_loadfile(L, strcmp(script, "-") == 0 ? NULL : script) != LUA_OK)
    return lua_error(L);
  n = argc - 3;
  luaL_checkstack(L, n + 1, "too many arguments to script");
  for (i = 3; i < argc; i++)
    lua_pushstring(L, argv[i]);
  if (lua_pcall(L, n, 0, lua_gettop(L) - n - 1) != LUA_OK)
    return lua_error(L);
  return 0;
}

/* The script's Lua state allocates small blocks from size-class free
 * lists: kernels create many short-lived objects (warp-vector kernels a
 * lane vector per operation), and malloc/free were a tenth of their
 * time.  Blocks over POOL_MAX go to realloc/free.  Only this one state
 * uses the pool (libuv workers make their own states with
 * luaL_newstate), so it needs no lock. */
#define POOL_MAX 512
#define POOL_CHUNK (256 * 1024)
typedef struct pool_blk {
  struct pool_blk *next;
} pool_blk;
typedef struct pool_chunk {
  struct pool_chunk *next;
} pool_chunk;
typedef struct pool {
  pool_blk *free[POOL_MAX / 16 + 1];
  pool_chunk *chunks;
  char *cur;    /* unused part of the newest chunk */
  size_t left;
} pool;

static size_t pool_class(size_t n) { return (n + 15) / 16; }

static void *pool_get(pool *P, size_t c) {
  pool_blk *b = P->free[c];
  size_t sz = c * 16;
  if (b != NULL) {
    P->free[c] = b->next;
    return b;
  }
  if (P->left < sz) {
    pool_chunk *k = malloc(POOL_CHUNK);
    if (k == NULL)
      return NULL;
    k->next = P->chunks;
    P->chunks = k;
    P->cur = (char *)k + 16;
    P->left = POOL_CHUNK - 16;
  }
  b = (pool_blk *)(void *)P->cur;
  P->cur += sz;
  P->left -= sz;
  return b;
}

static void pool_put(pool *P, void *p, size_t c) {
  pool_blk *b = p;
  b->next = P->free[c];
  P->free[c] = b;
}

static void *pool_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  pool *P = ud;
  size_t oc, nc;
  if (ptr == NULL)
    osize = 0; /* then osize names the kind of object, not a size */
  oc = osize > 0 && osize <= POOL_MAX ? pool_class(osize) : 0;
  nc = nsize > 0 && nsize <= POOL_MAX ? pool_class(nsize) : 0;
  if (nsize == 0) {
    if (ptr != NULL) {
      if (oc)
        pool_put(P, ptr, oc);
      else
        free(ptr);
    }
    return NULL;
  }
  if (ptr != NULL && oc == 0 && nc == 0)
    return realloc(ptr, nsize);
  if (ptr != NULL && oc != 0 && oc == nc)
    return ptr;
  {
    void *q = nc ? pool_get(P, nc) : malloc(nsize);
    if (q == NULL)
      return NULL; /* Lua keeps ptr */
    if (ptr != NULL) {
      memcpy(q, ptr, osize < nsize ? osize : nsize);
      if (oc)
        pool_put(P, ptr, oc);
      else
        free(ptr);
    }
    return q;
  }
}

static void pool_release(pool *P) {
  while (P->chunks != NULL) {
    pool_chunk *k = P->chunks;
    P->chunks = k->next;
    free(k);
  }
}

static int lua_panic_fn(lua_State *L) {
  const char *msg = lua_tostring(L, -1);
  fprintf(stderr, "warplab: unprotected Lua error: %s\n",
          msg ? msg : "(error object is not a string)");
  return 0; /* Lua aborts */
}

/* Lua's warn(): off until "@on", as in lua5.4 */
static int warn_on;
static void lua_warn_fn(void *ud, const char *msg, int tocont) {
  static int cont;
  (void)ud;
  if (!cont && msg[0] == '@') {
    if (strcmp(msg, "@on") == 0)
      warn_on = 1;
    else if (strcmp(msg, "@off") == 0)
      warn_on = 0;
    return;
  }
  if (warn_on) {
    if (!cont)
      fputs("Lua warning: ", stderr);
    fputs(msg, stderr);
    if (!tocont)
      fputc('\n', stderr);
  }
  cont = tocont;
}

static int cmd_run(int argc, char **argv) {
  static pool P;
  lua_State *L;
  int rc;
  if (argc < 3) {
    fprintf(stderr, "warplab run: no script given (see warplab help)\n");
    return 2;
  }
  /* WARPLAB_NO_POOL=1: plain malloc, so valgrind sees every Lua block */
  L = getenv("WARPLAB_NO_POOL") != NULL ? luaL_newstate()
                                        : lua_newstate(pool_alloc, &P);
  if (L == NULL) {
    fprintf(stderr, "warplab: cannot create a Lua state (out of memory)\n");
    return 1;
  }
  if (getenv("WARPLAB_NO_POOL") == NULL) {
    lua_atpanic(L, lua_panic_fn);
    lua_setwarnf(L, lua_warn_fn, NULL);
  }
  lua_pushcfunction(L, run_main);
  lua_pushinteger(L, argc);
  lua_pushlightuserdata(L, argv);
  rc = lua_pcall(L, 2, 0, 0);
  if (rc != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "warplab: %s\n",
            msg != NULL ? msg : "(error object is not a string)");
  }
  lua_close(L);
  pool_release(&P);
  if (fflush(stdout) != 0)
    return 1;
  return rc == LUA_OK ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    print_usage(stderr);
    return 2;
  }
  if (strcmp(argv[1], "litmus") == 0)
    return cmd_litmus(argc - 2, argv + 2);
  if (strcmp(argv[1], "sample") == 0)
    return cmd_sample(argc - 2, argv + 2);
  if (strcmp(argv[1], "run") == 0)
    return cmd_run(argc, argv);
  if (strcmp(argv[1], "gen") == 0)
    return cmd_gen(argc - 1, argv + 1);
  if (strcmp(argv[1], "cuda") == 0)
    return cmd_cuda(argc - 2, argv + 2);
  if (strcmp(argv[1], "compare") == 0)
    return cmd_compare(argc - 2, argv + 2);
  if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 ||
      strcmp(argv[1], "-h") == 0) {
    print_usage(stdout);
    return 0;
  }
  if (strcmp(argv[1], "version") == 0 || strcmp(argv[1], "--version") == 0) {
    printf("warplab %s\n", WL_VERSION);
    return 0;
  }
  fprintf(stderr, "warplab: unknown command '%s'\n\n", argv[1]);
  print_usage(stderr);
  return 2;
}
