/* cmd_compare.c -- warplab compare: a histogram observed on hardware
 * beside the outcomes the model allows. */
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

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

/* One line per test, then the summary: tests, SC coverage, weak
 * coverage, forbidden observations, tests that saw every SC state. */
static int summary(wl_ctx *ctx, wl_explore_opts *opts, const char *dir,
                   char **args, int nargs) {
  names hf = {NULL, 0, 0}, lf = {NULL, 0, 0};
  char **text = NULL, err[600];
  size_t *len = NULL, k;
  size_t tests = 0, nohist = 0, unknown = 0, allsc = 0, forb = 0, ftests = 0;
  size_t sca = 0, sco = 0, wka = 0, wko = 0;
  int failed = 0, i;
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
  for (k = 0; k < lf.n; k++) {
    size_t slen = 0;
    char *src = wll_read_file(lf.v[k], &slen, err, sizeof err);
    wl_litmus *t = NULL;
    wl_result *r = NULL;
    wl_compare_report rep;
    long h = -1;
    int rc;
    if (src == NULL) {
      fprintf(stderr, "warplab: %s\n", err);
      failed++;
      continue;
    }
    rc = wl_litmus_parse(ctx, lf.v[k], src, slen, &t);
    free(src);
    if (rc == 0 && (h = find_hist(text, len, hf.n, wl_litmus_name(t))) < 0) {
      printf("Coverage %s: no histogram in %s\n", wl_litmus_name(t), dir);
      nohist++;
      wl_litmus_free(t);
      continue;
    }
    if (rc == 0)
      rc = wl_explore(ctx, t, opts, &r);
    if (rc == 0)
      rc = wl_compare(ctx, t, r, hf.v[h], text[h], len[h], NULL, NULL, &rep);
    if (rc != 0) {
      fprintf(stderr, "warplab: %s: %s\n", lf.v[k], wl_ctx_errmsg(ctx));
      failed++;
    } else {
      tests++;
      if (rep.forbidden > 0) {
        fprintf(stderr, "warplab: %s: %zu outcome%s the model forbids "
                        "observed in %s (%llu runs)\n",
                wl_litmus_name(t), rep.forbidden,
                rep.forbidden > 1 ? "s" : "", hf.v[h],
                (unsigned long long)rep.forbidden_runs);
        forb += rep.forbidden;
        ftests++;
      }
      if (!rep.sc_known) {
        unknown++;
        printf("Coverage %s: unknown (the search for SC states gave up)\n",
               wl_litmus_name(t));
      } else {
        sca += rep.sc_allowed;
        sco += rep.sc_observed;
        wka += rep.weak_allowed;
        wko += rep.weak_observed;
        allsc += rep.sc_observed == rep.sc_allowed;
        printf("Coverage %s: SC states %zu of %zu observed (%.1f%%), weak "
               "states %zu of %zu (%.1f%%), %llu runs\n",
               wl_litmus_name(t), rep.sc_observed, rep.sc_allowed,
               pct(rep.sc_observed, rep.sc_allowed), rep.weak_observed,
               rep.weak_allowed, pct(rep.weak_observed, rep.weak_allowed),
               (unsigned long long)rep.runs);
      }
    }
    wl_result_free(r);
    wl_litmus_free(t);
  }
  printf("Summary %s: %zu tests, SC coverage %zu of %zu (%.1f%%), weak "
         "coverage %zu of %zu (%.1f%%), forbidden observations %zu (in %zu "
         "tests); every SC state seen in %zu of %zu tests",
         dir, tests, sco, sca, pct(sco, sca), wko, wka, pct(wko, wka), forb,
         ftests, allsc, tests - unknown);
  if (unknown)
    printf("; SC states unknown in %zu", unknown);
  if (nohist)
    printf("; %zu without a histogram", nohist);
  printf("\n");
  for (k = 0; k < hf.n; k++)
    free(text[k]);
  free(text);
  free(len);
  names_free(&hf);
  names_free(&lf);
  if (wll_stdout_done() != 0)
    return 1;
  return forb ? 4 : failed ? 1 : 0;
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
  int i = 0, failed = 0, forbidden = 0;
  static const struct option longopts[] = {
      {"model", required_argument, NULL, 'm'},
      {"summary", required_argument, NULL, 's'},
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
    rc = summary(ctx, &opts, sum_dir, argv + i, argc - i);
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
