/* cmd_litmus.c -- warplab litmus: every outcome of each .litmus file
 * (the built-in explorer or a cat model), in herd7's format or JSON,
 * with its progress line, limits (--timeout, --max-memory), witness
 * graphs and why-not explanations: the options, the models, and the
 * files' drive over the pool or the ranks (one file's work is
 * cmd_litmus_file.c's). */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>
#include <sys/wait.h>

#include "cmd.h"
#include "cmd_litmus.h"
#include "lexplore.h"
#include "lpool.h"
#include "lwarplab.h"
#include "ranks.h"

/* ------------------------------------------------------------------ */
/* warplab litmus [options] FILE...                                    */
/* ------------------------------------------------------------------ */

/* What the cost guesses may keep of the files they read, for the runs
 * (else each file is read twice: 1,434 small files, 3 ms a worker). */
#define KEEP_BYTES ((size_t)64 << 20)
static atomic_size_t kept;

/* A file's cost for the pool (lpool.h's cost; ud: the litmus_job), on a
 * pool thread: the file read, its cost guessed, its text kept in
 * j->pre[unit] for its run while KEEP_BYTES allow (each unit's slot is
 * its own: no other thread touches it until the runs start). */
static uint64_t litmus_cost(void *ud, size_t unit, wl_ctx *ctx) {
  litmus_job *j = ud;
  char err[64];
  char *src;
  size_t len = 0;
  uint64_t c;
  if (j->pre[unit] != NULL) /* standard input, read before */
    return wll_litmus_cost(ctx, j->files[unit], j->pre[unit],
                           j->prelen[unit], j->unroll);
  if (strcmp(j->files[unit], "-") == 0 ||
      (src = wll_read_file(j->files[unit], &len, err, sizeof err)) == NULL)
    return 0; /* its error comes in its run */
  c = wll_litmus_cost(ctx, j->files[unit], src, len, j->unroll);
  if (atomic_fetch_add(&kept, len) + len <= KEEP_BYTES) {
    j->pre[unit] = src;
    j->prelen[unit] = len;
  } else
    free(src);
  return c;
}

/* Standard output's buffer for files on the pool (stdout's until the
 * process ends; glibc takes no size without a buffer). */
static char outbuf[(size_t)1 << 16];

/* The model --why-not explains with when --model gives none. */
#define WHYNOT_MODEL "ptx-v6.0-isa.cat"

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
  wl_ctx_set_stop(ctx, wll_litmus_should_stop, &ls);
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
  job.unroll = opts.unroll ? opts.unroll : WL_DEFAULT_UNROLL;
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
  /* (the cost guesses keep what they read there too) */
  if (i < nf || (jobs > 1 && nf > 1 && wll_nranks() == 1)) {
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
    /* under MPI, rank 0's guess of each file's search (the ones used),
     * made here; on one machine the pool's threads make it (po.cost) */
    wl_ctx *cctx = NULL;
    int guess = nf > 1 && wll_nranks() > 1 && wll_rank() == 0 &&
                wl_ctx_new(NULL, &cctx) == 0;
    for (i = 0; costs != NULL && wll_nranks() > 1 && i < nf; i++) {
      const char *pre = job.pre != NULL ? job.pre[i] : NULL;
      size_t plen = pre != NULL ? job.prelen[i] : 0;
      if (guess)
        costs[i] = wll_litmus_cost(cctx, files[i], pre, plen, job.unroll);
      else
        costs[i] = pre != NULL ? (uint64_t)plen : wll_file_cost(files[i]);
    }
    wl_ctx_free(cctx);
  }
  /* files on the pool: those back while an earlier one holds the output
   * up go out together when it comes (lpool.c's drain, one flush), often
   * most of them at the very end, after the workers: in 64 KiB writes,
   * not 4 KiB ones (1,434 files, 0.9 MB to a file: 1.2 ms of the main
   * thread alone at the end, 220 writes).  Before any output. */
  if (jobs > 1 && nf > 1 && !isatty(1))
    (void)setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
  if (json && root)
    fputs("[", stdout);
  if (pool_rc == 0) {
    wll_pool_opts po;
    wll_pool_fns fns;
    wll_pool_result res;
    static const wll_ranks_codec codec = {wll_litmus_pack, wll_litmus_unpack};
    char note[300], perr[300];
    memset(&po, 0, sizeof po);
    memset(&fns, 0, sizeof fns);
    po.jobs = jobs;
    po.progress = !job.detail && isatty(2);
    po.what = "litmus";
    po.units = "files";
    if (wll_nranks() > 1)
      po.costs = costs;
    else /* guessed on the pool's threads (with one job: unit order) */
      po.cost = litmus_cost;
    fns.worker_new = wll_litmus_worker_new;
    fns.worker_free = wll_litmus_worker_free;
    fns.run = wll_litmus_run;
    fns.emit = wll_litmus_emit;
    fns.drop = wll_litmus_drop;
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
          wll_litmus_worker_new(&job, uctx, &w) != 0) {
        snprintf(perr, sizeof perr, "out of memory");
        pool_rc = WL_ENOMEM;
      } else {
        int st = wll_litmus_run(&job, 0, uctx, w, NULL, &out);
        res.emitted = 1;
        (root ? wll_litmus_emit : wll_litmus_emit_none)(&job, 0, out,
                                                st == WLL_UNIT_STOPPED);
      }
      if (w != NULL)
        wll_litmus_worker_free(&job, w);
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
