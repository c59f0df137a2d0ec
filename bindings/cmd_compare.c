/* cmd_compare.c -- warplab compare: a histogram observed on hardware
 * beside the outcomes the model allows. */
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "cmd.h"
#include "lpool.h"
#include "lwarplab.h"
#include "ranks.h"

/* ------------------------------------------------------------------ */
/* warplab compare --summary DIR FILE|FOLDER...: coverage of a folder   */
/* ------------------------------------------------------------------ */

/* A folder's files, sorted by name: the regular files, or with ext
 * those whose names end in it. */
typedef struct names {
  char **v;
  size_t n, cap;
} names;

static int names_add(names *l, const char *dir, const char *name) {
  size_t len = strlen(dir) + strlen(name) + 2;
  char *p;
  if (l->n == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 64;
    char **q = realloc(l->v, cap * sizeof *q);
    if (q == NULL)
      return -1;
    l->v = q;
    l->cap = cap;
  }
  if ((p = malloc(len)) == NULL)
    return -1;
  if (dir[0] != '\0')
    snprintf(p, len, "%s/%s", dir, name);
  else
    snprintf(p, len, "%s", name);
  l->v[l->n++] = p;
  return 0;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_dir(const char *dir, const char *ext, names *l) {
  DIR *d = opendir(dir);
  struct dirent *e;
  size_t first = l->n;
  if (d == NULL)
    return -1;
  while ((e = readdir(d)) != NULL) {
    size_t n = strlen(e->d_name), x = ext ? strlen(ext) : 0;
    if (e->d_name[0] == '.' || n <= x ||
        (ext != NULL && strcmp(e->d_name + n - x, ext) != 0))
      continue;
    if (names_add(l, dir, e->d_name) != 0) {
      closedir(d);
      return -1;
    }
  }
  closedir(d);
  qsort(l->v + first, l->n - first, sizeof *l->v, by_name);
  return 0;
}

static void names_free(names *l) {
  size_t i;
  for (i = 0; i < l->n; i++)
    free(l->v[i]);
  free(l->v);
}

/* The histogram file (index into h) that holds "Test NAME ", or -1. */
static long find_hist(char **text, size_t *len, size_t n, const char *name) {
  size_t k, nl = strlen(name);
  for (k = 0; k < n; k++) {
    const char *p = text[k], *end = text[k] + len[k];
    while (p < end) {
      const char *e = memchr(p, '\n', (size_t)(end - p));
      if (e == NULL)
        e = end;
      if ((size_t)(e - p) > 5 + nl && strncmp(p, "Test ", 5) == 0 &&
          strncmp(p + 5, name, nl) == 0 && p[5 + nl] == ' ')
        return (long)k;
      p = e + 1;
    }
  }
  return -1;
}

static double pct(size_t a, size_t b) {
  return b ? 100.0 * (double)a / (double)b : 100.0;
}

/* ------------------------------------------------------------------ */
/* the files on the pool (bindings/lpool.h)                            */
/* ------------------------------------------------------------------ */

/* What every file's run reads (set before the pool, unchanged during)
 * and the totals the main thread adds up in file order. */
typedef struct cmp_job {
  char **files;
  const wl_explore_opts *opts; /* its model read once, shared read-only */
  const char *hist_path;       /* HIST, or --summary's folder */
  const char *hist;            /* HIST's text */
  size_t hlen;
  char **text;                 /* --summary: the histograms' texts */
  size_t *len;
  char **hnames;
  size_t nh;
  int summary;
  /* the main thread's */
  int failed, forbidden, sig;
  const char *stopped_file;
  size_t tests, nohist, unknown, allsc, forb, ftests;
  size_t sca, sco, wka, wko;
} cmp_job;

/* A file's output and what it adds to the totals. */
typedef struct cmp_out {
  wll_out out;
  int failed, forbidden, sig;
  int test, nohist, unknown, allsc; /* --summary: 0 or 1 each */
  size_t forb, sca, sco, wka, wko;
} cmp_out;

static void cmp_out_free(cmp_out *o) {
  if (o != NULL)
    wll_out_free(&o->out);
  free(o);
}

/* On a pool thread: one file, explored and put beside its histogram. */
static int cmp_run(void *ud, size_t unit, wl_ctx *ctx, void *worker,
                   void *stop_ud, void **outp) {
  cmp_job *j = ud;
  const char *f = j->files[unit];
  cmp_out *o = calloc(1, sizeof *o);
  wll_out *out;
  wl_explore_opts opts = *j->opts;
  char err[600];
  size_t slen = 0;
  char *src;
  wl_litmus *t = NULL;
  wl_result *r = NULL;
  wl_compare_report rep;
  long h = -1;
  int rc;
  (void)worker;
  *outp = o;
  if (o == NULL)
    return WLL_UNIT_DONE;
  out = &o->out;
  if (wll_sig_pending())
    return WLL_UNIT_STOPPED; /* a signal between files */
  if ((src = wll_read_file(f, &slen, err, sizeof err)) == NULL) {
    wll_out_printf(out, WLL_OUT_STDERR, "warplab: %s\n", err);
    o->failed++;
    return WLL_UNIT_DONE;
  }
  opts.should_stop = wll_pool_should_stop; /* SIGINT, SIGTERM */
  opts.stop_ud = stop_ud;
  rc = wl_litmus_parse(ctx, f, src, slen, &t);
  free(src);
  if (j->summary && rc == 0 &&
      (h = find_hist(j->text, j->len, j->nh, wl_litmus_name(t))) < 0) {
    wll_out_printf(out, WLL_OUT_STDOUT, "Coverage %s: no histogram in %s\n",
                   wl_litmus_name(t), j->hist_path);
    o->nohist = 1;
    wl_litmus_free(t);
    return WLL_UNIT_DONE;
  }
  if (rc == 0)
    rc = wl_explore(ctx, t, &opts, &r);
  if (rc == 0 && j->summary)
    rc = wl_compare(ctx, t, r, j->hnames[h], j->text[h], j->len[h], NULL,
                    NULL, &rep);
  else if (rc == 0)
    rc = wl_compare(ctx, t, r, j->hist_path, j->hist, j->hlen,
                    wll_out_stdout, out, &rep);
  if (rc == WL_ESTOPPED && wll_sig_pending()) {
    o->sig = wll_sig_pending();
    wll_out_printf(out, WLL_OUT_STDERR,
                   "warplab: %s: interrupted by %s; the files after it are "
                   "skipped\n",
                   f, wll_sig_name(o->sig));
    wl_litmus_free(t);
    return WLL_UNIT_STOPPED;
  }
  if (rc != 0) {
    const char *m = wl_ctx_errmsg(ctx);
    if (j->summary || (strncmp(m, f, strlen(f)) != 0 &&
                       strncmp(m, j->hist_path, strlen(j->hist_path)) != 0))
      wll_out_printf(out, WLL_OUT_STDERR, "warplab: %s: %s\n", f, m);
    else
      wll_out_printf(out, WLL_OUT_STDERR, "warplab: %s\n", m);
    o->failed++;
  } else if (j->summary) {
    o->test = 1;
    if (rep.forbidden > 0) {
      wll_out_printf(out, WLL_OUT_STDERR,
                     "warplab: %s: %zu outcome%s the model forbids "
                     "observed in %s (%llu runs)\n",
                     wl_litmus_name(t), rep.forbidden,
                     rep.forbidden > 1 ? "s" : "", j->hnames[h],
                     (unsigned long long)rep.forbidden_runs);
      o->forb = rep.forbidden;
    }
    if (!rep.sc_known) {
      o->unknown = 1;
      wll_out_printf(out, WLL_OUT_STDOUT,
                     "Coverage %s: unknown (the search for SC states gave "
                     "up)\n",
                     wl_litmus_name(t));
    } else {
      o->sca = rep.sc_allowed;
      o->sco = rep.sc_observed;
      o->wka = rep.weak_allowed;
      o->wko = rep.weak_observed;
      o->allsc = rep.sc_observed == rep.sc_allowed;
      wll_out_printf(out, WLL_OUT_STDOUT,
                     "Coverage %s: SC states %zu of %zu observed (%.1f%%), "
                     "weak states %zu of %zu (%.1f%%), %llu runs\n",
                     wl_litmus_name(t), rep.sc_observed, rep.sc_allowed,
                     pct(rep.sc_observed, rep.sc_allowed), rep.weak_observed,
                     rep.weak_allowed,
                     pct(rep.weak_observed, rep.weak_allowed),
                     (unsigned long long)rep.runs);
    }
  } else {
    if (rep.forbidden > 0) {
      wll_out_printf(out, WLL_OUT_STDERR,
                     "warplab: %s: %zu outcome%s the model forbids observed "
                     "in %s (%llu runs): a model or hardware bug, or a "
                     "harness that does not run the test as written\n",
                     wl_litmus_name(t), rep.forbidden,
                     rep.forbidden > 1 ? "s" : "", j->hist_path,
                     (unsigned long long)rep.forbidden_runs);
      o->forbidden = 1;
    }
    if (wl_result_bound_hit(r))
      wll_out_printf(out, WLL_OUT_STDOUT,
                     "Warning %s: the unroll bound cut some executions; "
                     "allowed states may be missing\n",
                     wl_litmus_name(t));
    wll_out_printf(out, WLL_OUT_STDOUT, "\n");
  }
  wl_result_free(r);
  wl_litmus_free(t);
  return WLL_UNIT_DONE;
}

static int cmp_emit(void *ud, size_t unit, void *outp, int stopped) {
  cmp_job *j = ud;
  cmp_out *o = outp;
  (void)stopped;
  if (o == NULL) {
    fflush(stdout);
    fprintf(stderr, "warplab: %s: out of memory\n", j->files[unit]);
    j->failed++;
    return 0;
  }
  if (wll_out_flush(&o->out) != 0 && o->out.oom)
    j->failed++;
  j->failed += o->failed;
  j->forbidden += o->forbidden;
  if (o->sig != 0) {
    j->sig = o->sig;
    j->stopped_file = j->files[unit];
  }
  j->tests += (size_t)o->test;
  j->nohist += (size_t)o->nohist;
  j->unknown += (size_t)o->unknown;
  j->allsc += (size_t)o->allsc;
  j->forb += o->forb;
  j->ftests += o->forb > 0;
  j->sca += o->sca;
  j->sco += o->sco;
  j->wka += o->wka;
  j->wko += o->wko;
  cmp_out_free(o);
  fflush(stdout); /* each file whole as soon as it is out (tail -f) */
  return 0;
}

static void cmp_drop(void *ud, size_t unit, void *outp) {
  (void)ud;
  (void)unit;
  cmp_out_free(outp);
}

/* Under MPI (ranks.h): a file's output from its rank to rank 0. */
static int cmp_pack(void *ud, size_t unit, const void *outp, void **buf,
                    size_t *len) {
  const cmp_out *o = outp;
  wll_pack b = {NULL, 0, 0, 0};
  (void)ud;
  (void)unit;
  wll_pack_u64(&b, o != NULL);
  if (o != NULL) {
    const size_t v[] = {(size_t)o->failed, (size_t)o->forbidden,
                        (size_t)o->sig,    (size_t)o->test,
                        (size_t)o->nohist, (size_t)o->unknown,
                        (size_t)o->allsc,  o->forb,
                        o->sca,            o->sco,
                        o->wka,            o->wko};
    size_t k;
    for (k = 0; k < sizeof v / sizeof v[0]; k++)
      wll_pack_u64(&b, (uint64_t)v[k]);
    wll_pack_out(&b, &o->out);
  }
  if (b.oom) {
    free(b.p);
    return -1;
  }
  *buf = b.p;
  *len = b.n;
  return 0;
}

static int cmp_unpack(void *ud, size_t unit, const void *buf, size_t len,
                      void **outp) {
  wll_unpack r = {buf, len, 0, 0};
  cmp_out *o;
  (void)ud;
  (void)unit;
  *outp = NULL;
  if (wll_unpack_u64(&r) == 0)
    return r.bad ? -1 : 0; /* NULL: out of memory there */
  if ((o = calloc(1, sizeof *o)) == NULL)
    return -1;
  o->failed = (int)wll_unpack_u64(&r);
  o->forbidden = (int)wll_unpack_u64(&r);
  o->sig = (int)wll_unpack_u64(&r);
  o->test = (int)wll_unpack_u64(&r);
  o->nohist = (int)wll_unpack_u64(&r);
  o->unknown = (int)wll_unpack_u64(&r);
  o->allsc = (int)wll_unpack_u64(&r);
  o->forb = (size_t)wll_unpack_u64(&r);
  o->sca = (size_t)wll_unpack_u64(&r);
  o->sco = (size_t)wll_unpack_u64(&r);
  o->wka = (size_t)wll_unpack_u64(&r);
  o->wko = (size_t)wll_unpack_u64(&r);
  if (r.bad || wll_unpack_out(&r, &o->out) != 0 || r.at != len) {
    cmp_out_free(o);
    return -1;
  }
  *outp = o;
  return 0;
}

/* A file's cost for the pool (lpool.h's cost: on the pool's threads,
 * not one stat after another on this one before any file runs): its
 * size. */
static uint64_t cmp_cost(void *ud, size_t unit, wl_ctx *ctx) {
  const cmp_job *j = ud;
  (void)ctx;
  return wll_file_cost(j->files[unit]);
}

/* Runs j's files on the pool (jobs workers); then *sig is the signal
 * that stopped it (taken), or 0.  0, or 1 after a message (the pool
 * could not run). */
static int cmp_files(cmp_job *j, size_t n, int jobs, int *sig) {
  wll_pool_opts po;
  wll_pool_fns fns;
  wll_pool_result res;
  static const wll_ranks_codec codec = {cmp_pack, cmp_unpack};
  uint64_t *costs = malloc((n > 0 ? n : 1) * sizeof *costs);
  char note[300], perr[300];
  size_t k;
  int rc;
  *sig = 0;
  if (costs == NULL) {
    fprintf(stderr, "warplab: out of memory\n");
    return 1;
  }
  memset(&po, 0, sizeof po);
  memset(&fns, 0, sizeof fns);
  po.jobs = jobs;
  for (k = 0; k < n; k++) {
    /* under MPI, rank 0's plan needs them here (cmd_ranks_pool.c) */
    costs[k] = wll_nranks() > 1 ? wll_file_cost(j->files[k]) : 0;
    if (strcmp(j->files[k], "-") == 0)
      po.jobs = 1; /* standard input: read in its turn, by one thread */
  }
  po.progress = jobs > 1 && n > 1 && isatty(2);
  po.what = "compare";
  po.units = "files";
  if (wll_nranks() > 1)
    po.costs = costs;
  else
    po.cost = cmp_cost;
  fns.run = cmp_run;
  fns.emit = cmp_emit;
  fns.drop = cmp_drop;
  /* under MPI the files are dealt to the ranks, and rank 0 prints */
  rc = wll_ranks_pool_run(n, &po, &fns, &codec, j, &res, note, sizeof note,
                          perr, sizeof perr);
  free(costs);
  if (note[0] != '\0')
    fprintf(stderr, "warplab compare: %s\n", note);
  if (rc != 0 && wll_rank() == 0) {
    fflush(stdout);
    fprintf(stderr, "warplab compare: %s\n", perr);
  }
  /* a signal: taken here (one signal, one stop) when it cut the run */
  if (wll_sig_pending() && (j->sig != 0 || res.emitted < n)) {
    *sig = wll_sig_take();
    if (j->stopped_file == NULL && res.emitted < n && wll_rank() == 0) {
      fflush(stdout);
      fprintf(stderr, "warplab compare: interrupted by %s; the files from "
                      "%s on are skipped\n",
              wll_sig_name(*sig), j->files[res.emitted]);
    }
  }
  return rc != 0;
}

/* One line per test, then the summary: tests, SC coverage, weak
 * coverage, forbidden observations, tests that saw every SC state. */
static int summary(wl_explore_opts *opts, const char *dir, char **args,
                   int nargs, int jobs) {
  names hf = {NULL, 0, 0}, lf = {NULL, 0, 0};
  char **text = NULL, err[600];
  size_t *len = NULL, k;
  cmp_job j;
  int failed = 0, i, sig = 0;
  if (list_dir(dir, NULL, &hf) != 0) {
    fprintf(stderr, "warplab compare: --summary %s: not a readable folder\n",
            dir);
    names_free(&hf);
    return 1;
  }
  for (i = 0; i < nargs; i++) {
    DIR *d = opendir(args[i]);
    if (d != NULL) {
      closedir(d);
      if (list_dir(args[i], ".litmus", &lf) != 0)
        failed++;
    } else if (names_add(&lf, "", args[i]) != 0) {
      failed++;
    }
  }
  text = calloc(hf.n + 1, sizeof *text);
  len = calloc(hf.n + 1, sizeof *len);
  if (text == NULL || len == NULL) {
    fprintf(stderr, "warplab: out of memory\n");
    failed++;
    hf.n = lf.n = 0;
  }
  for (k = 0; k < hf.n; k++)
    if ((text[k] = wll_read_file(hf.v[k], &len[k], err, sizeof err)) ==
        NULL) {
      fprintf(stderr, "warplab: %s\n", err);
      failed++;
    }
  memset(&j, 0, sizeof j);
  j.files = lf.v;
  j.opts = opts;
  j.hist_path = dir;
  j.text = text;
  j.len = len;
  j.hnames = hf.v;
  j.nh = hf.n;
  j.summary = 1;
  if (lf.n > 0 && jobs == 0)
    jobs = wll_pool_default_jobs(lf.n);
  if (lf.n > 0)
    failed += cmp_files(&j, lf.n, jobs, &sig);
  failed += j.failed;
  if (wll_rank() == 0) { /* under MPI, rank 0 has the totals */
    printf("Summary %s: %zu tests, SC coverage %zu of %zu (%.1f%%), weak "
           "coverage %zu of %zu (%.1f%%), forbidden observations %zu (in "
           "%zu tests); every SC state seen in %zu of %zu tests",
           dir, j.tests, j.sco, j.sca, pct(j.sco, j.sca), j.wko, j.wka,
           pct(j.wko, j.wka), j.forb, j.ftests, j.allsc,
           j.tests - j.unknown);
    if (j.unknown)
      printf("; SC states unknown in %zu", j.unknown);
    if (j.nohist)
      printf("; %zu without a histogram", j.nohist);
    if (sig)
      printf("; partial: interrupted by %s", wll_sig_name(sig));
    printf("\n");
  }
  for (k = 0; k < hf.n; k++)
    free(text[k]);
  free(text);
  free(len);
  names_free(&hf);
  names_free(&lf);
  /* every rank exits with rank 0's status */
  i = wll_rank() != 0 ? 0
      : wll_stdout_done() != 0 ? 1
      : sig ? wll_sig_status(sig) : j.forb ? 4 : failed ? 1 : 0;
  return (int)wll_ranks_max(i);
}

/* ------------------------------------------------------------------ */
/* warplab compare HIST FILE...: observations beside the model          */
/* ------------------------------------------------------------------ */

int wll_cmd_compare(int argc, char **argv) {
  wl_explore_opts opts;
  wl_model *model = NULL;
  const char *model_path = NULL, *hist_path, *sum_dir = NULL;
  char err[600];
  char *hist;
  size_t hlen = 0;
  wl_ctx *ctx;
  int i = 0, failed = 0, jobs = 0, sig = 0;
  cmp_job j;
  static const struct option longopts[] = {
      {"model", required_argument, NULL, 'm'},
      {"summary", required_argument, NULL, 's'},
      {"jobs", required_argument, NULL, 'j'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  int c;
  memset(&opts, 0, sizeof opts);
  opterr = 0;
  optind = 1;
  /* GNU getopt_long moves the histogram and the files after the options,
   * wherever they were written */
  while ((c = getopt_long(argc, argv, ":hj:", longopts, NULL)) != -1) {
    if (c == 'm') {
      model_path = optarg;
    } else if (c == 'j') {
      if (wll_parse_jobs("compare", optarg, &jobs) != 0)
        return 2;
    } else if (c == 's') {
      sum_dir = optarg;
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
  if (sum_dir != NULL) {
    int rc;
    if (argc - i < 1) {
      fprintf(stderr, "warplab compare: --summary DIR needs .litmus files "
                      "or folders (see warplab compare --help)\n");
      return 2;
    }
    if (wl_ctx_new(NULL, &ctx) != 0) {
      fprintf(stderr, "warplab: out of memory\n");
      return 1;
    }
    if (model_path != NULL &&
        (rc = wll_load_model(ctx, model_path, &model)) != 0) {
      wl_ctx_free(ctx);
      return rc;
    }
    opts.model = model;
    rc = summary(&opts, sum_dir, argv + i, argc - i, jobs);
    wl_model_free(model);
    wl_ctx_free(ctx);
    return rc;
  }
  if (argc - i < 2) {
    fprintf(stderr, "warplab compare: give a histogram and one or more "
                    ".litmus files (see warplab compare --help)\n");
    return 2;
  }
  hist_path = argv[i++];
  if ((hist = wll_read_file_ranks(hist_path, &hlen, err, sizeof err)) ==
      NULL) {
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
  memset(&j, 0, sizeof j);
  j.files = argv + i;
  j.opts = &opts;
  j.hist_path = hist_path;
  j.hist = hist;
  j.hlen = hlen;
  if (jobs == 0)
    jobs = wll_pool_default_jobs((size_t)(argc - i));
  failed = cmp_files(&j, (size_t)(argc - i), jobs, &sig);
  failed += j.failed;
  wl_model_free(model);
  wl_ctx_free(ctx);
  free(hist);
  /* every rank exits with rank 0's status */
  i = wll_rank() != 0 ? 0
      : wll_stdout_done() != 0 ? 1
      : sig ? wll_sig_status(sig) : j.forbidden ? 4 : failed ? 1 : 0;
  return (int)wll_ranks_max(i);
}
