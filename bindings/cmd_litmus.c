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
#include "lwarplab.h"

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
 * those are printed instead): the Partial line alone. */
static void litmus_partial(const char *name, int sig, int json, int quiet,
                           int first, double secs) {
  if (quiet)
    printf("%s Partial\n", name);
  else if (json) {
    printf("%s{\"test\": ", first ? "" : ",\n");
    wl_json_string(name, wll_write_stdout, NULL);
    printf(", \"partial\": true, \"interrupted\": \"%s\", \"time\": %.2f}",
           wll_sig_name(sig), secs);
  }
  else
    printf("Test %s Partial\nStates 0\nPartial %s: interrupted by %s "
           "after %.2f s, before the exploration ended (no states)\n\n",
           name, name, wll_sig_name(sig), secs);
}


/* ---------------- graphs and why-not for litmus ---------------- */

typedef struct membuf {
  char *p;
  size_t n, cap;
  int oom;
} membuf;

static int write_mem(void *ud, const char *s, size_t n) {
  membuf *m = ud;
  if (m->n + n + 1 > m->cap) {
    size_t cap = (m->cap ? m->cap * 2 : 4096) + n;
    char *p = realloc(m->p, cap);
    if (p == NULL) {
      m->oom = 1;
      return -1;
    }
    m->p = p;
    m->cap = cap;
  }
  memcpy(m->p + m->n, s, n);
  m->n += n;
  m->p[m->n] = '\0';
  return 0;
}

/* dot -Tsvg in -o out; 0 when it worked or dot is not installed (said
 * once: *missing is set, and later calls do nothing), -1 after a
 * message when dot failed (its own message first). */
static int render_svg(const char *in, int *missing) {
  char out[1200], tmp[1300];
  size_t n = strlen(in);
  struct stat ls;
  pid_t pid;
  int st, fd;
  if (*missing)
    return 0;
  if (n < 4 || n + 1 > sizeof out)
    return -1;
  memcpy(out, in, n - 4);
  memcpy(out + n - 4, ".svg", 5);
  /* dot writes a temporary renamed over the .svg (lfile.c's rule: a
   * device or a link there is written in place) */
  snprintf(tmp, sizeof tmp, "%s.XXXXXX", out);
  if (lstat(out, &ls) == 0 && !S_ISREG(ls.st_mode)) {
    snprintf(tmp, sizeof tmp, "%s", out);
  } else if ((fd = mkstemp(tmp)) < 0) {
    fprintf(stderr, "warplab: writing %s: %s\n", out, strerror(errno));
    return -1;
  } else {
    mode_t um = umask(0);
    umask(um);
    fchmod(fd, 0666 & ~um); /* a new file's mode, not mkstemp's 0600 */
    close(fd);
  }
  fflush(NULL);
  pid = fork();
  if (pid < 0) {
    fprintf(stderr, "warplab: cannot run dot: %s\n", strerror(errno));
    if (strcmp(tmp, out) != 0)
      unlink(tmp); /* ours: made by mkstemp above */
    return -1;
  }
  if (pid == 0) {
    execlp("dot", "dot", "-Tsvg", in, "-o", tmp, (char *)NULL);
    _exit(127);
  }
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) {
      st = -1;
      break;
    }
  if (strcmp(tmp, out) != 0) { /* the temporary is ours (mkstemp) */
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
      unlink(tmp);
    } else if (rename(tmp, out) != 0) {
      fprintf(stderr, "warplab: writing %s: %s\n", out, strerror(errno));
      unlink(tmp);
      return -1;
    }
  }
  if (st == -1)
    return -1;
  if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
    *missing = 1;
    fprintf(stderr, "warplab: Graphviz's dot is not installed: only the "
                    ".dot files are written (Debian: apt-get install "
                    "graphviz)\n");
    return 0;
  }
  if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
    return 0;
  fprintf(stderr, "warplab: dot -Tsvg %s -o %s failed\n", in, out);
  return -1;
}

/* The graphs' file names: DIR/STEM.N.dot (N: the state), STEM the
 * test's name made a file name (letters, digits and ".+-_" kept, other
 * bytes as '_').  Two tests of one run whose stems are the same (the
 * same name, or names that differ only in what became '_') would
 * overwrite each other's graphs: the second gets STEM-2, the third
 * STEM-3, and a note says so. */
typedef struct stems {
  char **p;
  size_t n, cap;
} stems;

static int stem_used(const stems *u, const char *s) {
  size_t k;
  for (k = 0; k < u->n; k++)
    if (strcmp(u->p[k], s) == 0)
      return 1;
  return 0;
}

/* The stem of the test name in out (n bytes), made unique among u and
 * added to it; 0, or -1 out of memory. */
static int graph_stem(stems *u, const char *file, const char *name,
                      char *out, size_t n) {
  size_t k, len = 0;
  int dup;
  for (k = 0; name[k] && len + 16 < n; k++) {
    char c = name[k];
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
             (c >= '0' && c <= '9') || c == '.' || c == '+' || c == '-' ||
             c == '_';
    out[len++] = ok ? c : '_';
  }
  if (len == 0 || (len <= 2 && strspn(out, ".") == len))
    out[len++] = '_'; /* never "", "." or ".." */
  out[len] = '\0';
  for (dup = 1; stem_used(u, out); dup++)
    snprintf(out + len, n - len, "-%d", dup + 1);
  if (dup > 1)
    fprintf(stderr,
            "warplab: %s: another test of this run makes graphs named "
            "%.*s: this one's are %s.*.dot\n",
            file, (int)len, out, out);
  if (u->n == u->cap) {
    size_t cap = u->cap ? 2 * u->cap : 16;
    char **p = realloc(u->p, cap * sizeof *p);
    if (p == NULL) {
      fprintf(stderr, "warplab: out of memory\n");
      return -1;
    }
    u->p = p;
    u->cap = cap;
  }
  if ((u->p[u->n] = malloc(strlen(out) + 1)) == NULL) {
    fprintf(stderr, "warplab: out of memory\n");
    return -1;
  }
  strcpy(u->p[u->n++], out);
  return 0;
}

static void stems_free(stems *u) {
  size_t k;
  for (k = 0; k < u->n; k++)
    free(u->p[k]);
  free(u->p);
}

/* DIR/STEM.what.dot in buf; 0, or -1 after a message when it does not
 * fit. */
static int graph_path(char *buf, size_t n, const char *dir,
                      const char *stem, const char *what) {
  int k = snprintf(buf, n, "%s/%s.%s.dot", dir, stem, what);
  if (k < 0 || (size_t)k >= n) {
    fprintf(stderr, "warplab: --graph %s: the path of %s's graphs is too "
                    "long\n", dir, stem);
    return -1;
  }
  return 0;
}

/* path's text, written whole or not at all (lfile.c). */
static int save_text(const char *path, const membuf *m) {
  char err[1300];
  if (wll_save_file(path, m->p ? m->p : "", m->n, err, sizeof err) != 0) {
    fprintf(stderr, "warplab: %s\n", err);
    return -1;
  }
  return 0;
}

/* Writes every state's witness graph of r under dir; 0 or -1. */
static int write_graphs(const wl_result *r, const char *dir,
                        const char *name, int *missing) {
  size_t s;
  for (s = 0; s < wl_result_nstates(r); s++) {
    char path[1200], what[32];
    membuf m = {NULL, 0, 0, 0};
    snprintf(what, sizeof what, "%zu", s + 1);
    if (graph_path(path, sizeof path, dir, name, what) != 0 ||
        wl_result_write_dot(r, s, write_mem, &m) != 0 || m.oom ||
        save_text(path, &m) != 0) {
      free(m.p);
      return -1;
    }
    free(m.p);
    if (render_svg(path, missing) != 0)
      return -1;
  }
  return 0;
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

/* A wl_write_fn to standard error (--herd's findings). */
static int write_stderr(void *ud, const char *s, size_t n) {
  (void)ud;
  return fwrite(s, 1, n, stderr) == n ? 0 : -1;
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
  int c, i, nf = 0, json = 0, quiet = 0, failed = 0, first = 1, sig = 0;
  int whynot = 0, no_dot = 0, interrupted = 0, full = 0;
  int check_error = 0, nfound = 0, herd = 0;
  int jobs = 0; /* --jobs: each file's exploration split (lexplore.h) */
  const char *graph_dir = NULL;
  stems used = {NULL, 0, 0};
  wl_model *why_model = NULL; /* the default model, loaded on first use */
  uint64_t u;
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
    case 'j':
      if (wll_parse_count(optarg, 1, 1024, &u) != 0) {
        free(files);
        return wll_bad_value("litmus", "--jobs", optarg,
                             "a number from 1 to 1024");
      }
      jobs = (int)u;
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
  opts.should_stop = litmus_should_stop;
  opts.stop_ud = &ls;
  opts.progress = litmus_progress;
  opts.progress_ud = &ls;
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
  if (json)
    fputs("[", stdout);
  for (i = 0; i < nf && sig == 0; i++) {
    const char *f = files[i];
    char err[600];
    size_t len = 0;
    char *src;
    wl_litmus *t = NULL;
    wl_result *r = NULL;
    double t0;
    int rc;
    if ((sig = wll_sig_take()) != 0)
      break; /* a signal between files: the rest are skipped */
    src = wll_read_file(f, &len, err, sizeof err);
    if (src == NULL) {
      fprintf(stderr, "warplab: %s\n", err);
      failed++;
      continue;
    }
    t0 = wll_seconds();
    ls.deadline = timeout > 0 ? t0 + timeout : 0;
    ls.started = t0;
    ls.file = f;
    rc = wl_litmus_parse(ctx, f, src, len, &t);
    free(src);
    if (rc == 0)
      rc = jobs > 0 ? wll_explore_jobs(ctx, t, &opts, jobs, isatty(2), &r)
                    : wl_explore(ctx, t, &opts, &r);
    litmus_unprogress(&ls);
    interrupted = 0;
    if (rc == 0 && wl_result_partial(r, NULL) == WL_ESTOPPED) {
      /* a signal: what was found is printed, marked partial, and the
       * files after it are skipped; --timeout: the file failed */
      if ((interrupted = wll_sig_take()) == 0) {
        rc = WL_ESTOPPED;
        wl_result_free(r);
        r = NULL;
      }
    }
    if (rc == WL_ESTOPPED && (sig = wll_sig_take()) != 0) {
      litmus_partial(wl_litmus_name(t), sig, json, quiet, first,
                     wll_seconds() - t0);
      first = 0;
      fflush(stdout);
      fprintf(stderr,
              "warplab: %s: interrupted by %s; the files after it "
              "are skipped\n",
              f, wll_sig_name(sig));
      wl_litmus_free(t);
      break;
    }
    if (rc != 0) {
      const char *m = wl_ctx_errmsg(ctx);
      if (strncmp(m, f, strlen(f)) == 0)
        fprintf(stderr, "warplab: %s\n", m);
      else
        fprintf(stderr, "warplab: %s: %s\n", f, m);
      if (rc == WL_ESTOPPED)
        fprintf(stderr, "warplab: %s: gave up after --timeout %g s\n", f,
                timeout);
      wl_litmus_free(t);
      failed++;
      continue;
    }
    {
      double secs = wll_seconds() - t0;
      wl_whynot *w = NULL;
      membuf wj = {NULL, 0, 0, 0};
      if ((whynot || graph_dir != NULL) && outcome_absent(r)) {
        const wl_model *m = model;
        if (m == NULL && why_model == NULL) {
          /* --graph alone: the why-not graph needs the default model */
          char found[1200];
          const char *path = wll_find_shipped(WHYNOT_MODEL, found,
                                              sizeof found);
          if (path == NULL || wl_model_load(ctx, path, &why_model) != 0) {
            fprintf(stderr, "warplab: %s: no why-not graph: %s\n", f,
                    path == NULL ? "the model " WHYNOT_MODEL " is not "
                                   "installed (see --model)"
                                 : wl_ctx_errmsg(ctx));
            failed++;
          }
        }
        if (m == NULL)
          m = why_model;
        if (m != NULL &&
            wl_whynot_explain(ctx, t, m, opts.unroll, &w) != 0) {
          /* an explanation asked for and not given fails the file (the
           * JSON has no "whynot" then: never silently) */
          fprintf(stderr, "warplab: %s: why-not: %s\n", f,
                  wl_ctx_errmsg(ctx));
          w = NULL;
          failed++;
        }
      }
      if (quiet) {
        printf("%s %s%s\n", wl_litmus_name(t),
               wl_result_bound_hit(r) ? "Loop " : "",
               wl_result_verdict(r) ? "Ok" : "No");
      } else if (json) {
        membuf rj = {NULL, 0, 0, 0};
        if (!first)
          fputs(",\n", stdout);
        if (whynot && w != NULL &&
            wl_result_write_json(r, secs, write_mem, &rj) == 0 &&
            wl_whynot_write_json(w, write_mem, &wj) == 0 && rj.n > 2 &&
            wj.n > 1) {
          /* the result's object, with "whynot" added before its end */
          while (rj.n > 0 && (rj.p[rj.n - 1] == '\n' || rj.p[rj.n - 1] == '}'))
            if (rj.p[--rj.n] == '}')
              break;
          while (wj.n > 0 && wj.p[wj.n - 1] == '\n')
            wj.n--;
          fwrite(rj.p, 1, rj.n, stdout);
          fputs(",\n  \"whynot\": ", stdout);
          fwrite(wj.p, 1, wj.n, stdout);
          fputs("}\n", stdout);
        } else {
          if (whynot && w != NULL) { /* out of memory: said, and failed */
            fprintf(stderr, "warplab: %s: why-not: out of memory\n", f);
            failed++;
          }
          wl_result_write_json(r, secs, wll_write_stdout, NULL);
        }
        free(rj.p);
        first = 0;
      } else if (herd) {
        /* herd7's text alone on stdout, for msort7 and mcompare7: what
         * herd has no line for goes to stderr */
        wl_result_write_herd7(r, secs, wll_write_stdout, NULL);
        fflush(stdout);
        if (wl_result_bound_hit(r))
          fprintf(stderr,
                  "warplab: %s: loop unroll bound %d reached; outcomes "
                  "that need more iterations are not listed\n",
                  f, opts.unroll ? opts.unroll : WL_DEFAULT_UNROLL);
        wl_result_write_findings(r, write_stderr, NULL);
        if (whynot && w != NULL)
          wl_whynot_write_text(w, write_stderr, NULL);
      } else {
        wl_result_write_herd(r, secs, wll_write_stdout, NULL);
        wl_result_write_findings(r, wll_write_stdout, NULL);
        if (whynot && w != NULL)
          wl_whynot_write_text(w, wll_write_stdout, NULL);
      }
      nfound += wl_result_nfindings(r);
      if (graph_dir != NULL) {
        char stem[300];
        if (graph_stem(&used, f, wl_litmus_name(t), stem, sizeof stem) !=
                0 ||
            write_graphs(r, graph_dir, stem, &no_dot) != 0)
          failed++;
        if (w != NULL && wl_whynot_status(w) == WL_WHYNOT_FORBIDDEN) {
          char path[1200];
          membuf m = {NULL, 0, 0, 0};
          if (graph_path(path, sizeof path, graph_dir, stem, "whynot") != 0 ||
              wl_whynot_write_dot(w, write_mem, &m) != 0 ||
              save_text(path, &m) != 0 || render_svg(path, &no_dot) != 0)
            failed++;
          free(m.p);
        }
      }
      free(wj.p);
      wl_whynot_free(w);
    }
    {
      const char *why;
      if (interrupted) {
        if (quiet)
          printf("%s Partial\n", wl_litmus_name(t));
        else if (!json)
          printf("Partial %s: interrupted by %s after %.2f s; the states "
                 "above were found before it\n\n",
                 wl_litmus_name(t), wll_sig_name(interrupted),
                 wll_seconds() - t0);
        fflush(stdout);
        fprintf(stderr,
                "warplab: %s: interrupted by %s; the result above "
                "is partial and the files after it are skipped\n",
                f, wll_sig_name(interrupted));
        sig = interrupted;
        wl_result_free(r);
        wl_litmus_free(t);
        break;
      }
      if (wl_result_partial(r, &why)) {
        fflush(stdout);
        fprintf(stderr, "warplab: %s: %s; the result above is partial\n", f,
                why);
        failed++;
      }
    }
    wl_result_free(r);
    wl_litmus_free(t);
  }
  if (json)
    fputs("]\n", stdout);
  stems_free(&used);
  wl_model_free(why_model);
  wl_model_free(model);
  wl_ctx_free(ctx);
  free(files);
  if (wll_stdout_done() != 0)
    return 1;
  return sig ? wll_sig_status(sig) : failed ? 1 : check_error && nfound ? 4 : 0;
}
