/* conformance.c -- runs every test listed in Dat3M's expectations and
 * compares the explorer's verdict with the expected one.
 *
 *   conformance [--model CAT] CSV DIR [--proxy CSV75]
 *   conformance --liveness CSV DIR
 *
 * CSV rows are "litmus/PTX/<path>,0|1"; DIR is the PTX folder.  Prints
 * one line per mismatch and a summary "conformance: N match, M mismatch".
 * With --model, tests are explored by evaluating the cat file literally
 * (the second engine) instead of the built-in explorer.
 * With --proxy, the rows of the v7.5 list that are not in the v6.0 list
 * (the proxy tests) must each parse, and the built-in (PTX 6.0) explorer
 * must refuse them cleanly with WL_EUNSUPPORTED.
 * With --liveness, the rows are Dat3M's liveness expectations (1: every
 * fair execution ends; 0: a liveness violation, a hang, exists) and are
 * compared with wl_result_hang.
 * Exit status 0 when everything matches. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/warplab.h"

#include "slurp.h"

typedef struct row {
  char path[600];
  int expect;
} row;

static int read_rows(const char *csv, row **out) {
  char *text;
  size_t len, i = 0;
  int n = 0, cap = 0;
  row *rows = NULL;
  text = slurp(csv, &len);
  if (text == NULL)
    return -1;
  while (i < len) {
    char line[600];
    size_t k = 0;
    char *comma;
    while (i < len && text[i] != '\n') {
      if (text[i] != '\r' && k + 1 < sizeof line)
        line[k++] = text[i];
      i++;
    }
    i++;
    line[k] = '\0';
    comma = strrchr(line, ',');
    if (comma == NULL || strncmp(line, "litmus/PTX/", 11) != 0)
      continue;
    *comma = '\0';
    if (n == cap) {
      row *p;
      cap = cap ? cap * 2 : 256;
      p = realloc(rows, (size_t)cap * sizeof *rows);
      if (p == NULL) {
        free(rows);
        free(text);
        return -1;
      }
      rows = p;
    }
    snprintf(rows[n].path, sizeof rows[n].path, "%s", line + 11);
    rows[n].expect = atoi(comma + 1);
    n++;
  }
  free(text);
  *out = rows;
  return n;
}

static const wl_model *model;
static int liveness;

/* Runs one file; returns the verdict (0/1) or a negative error code;
 * *parsed (may be NULL) tells whether the file parsed. */
static int run_one(wl_ctx *ctx, const char *path, int *parsed) {
  wl_explore_opts opts;
  size_t len;
  char *src = slurp(path, &len);
  wl_litmus *t = NULL;
  wl_result *r = NULL;
  int rc, v;
  if (src == NULL) {
    fprintf(stderr, "conformance: cannot read %s\n", path);
    return WL_EIO;
  }
  rc = wl_litmus_parse(ctx, path, src, len, &t);
  free(src);
  if (parsed != NULL)
    *parsed = rc == 0;
  if (rc != 0)
    return rc;
  memset(&opts, 0, sizeof opts);
  opts.model = model;
  rc = wl_explore(ctx, t, &opts, &r);
  if (rc != 0) {
    wl_litmus_free(t);
    return rc;
  }
  v = wl_result_verdict(r);
  if (liveness) {
    int h = wl_result_hang(r, NULL);
    v = h < 0 ? WL_EINVAL : !h;
    if (h < 0)
      fprintf(stderr, "conformance: %s: liveness not searched\n", path);
  }
  if (wl_result_bound_hit(r))
    fprintf(stderr, "conformance: %s: unroll bound hit\n", path);
  wl_result_free(r);
  wl_litmus_free(t);
  return v;
}

int main(int argc, char **argv) {
  static const struct option longopts[] = {
      {"model", required_argument, NULL, 'm'},
      {"liveness", no_argument, NULL, 'l'},
      {"proxy", required_argument, NULL, 'p'},
      {NULL, 0, NULL, 0}};
  row *rows = NULL, *prox = NULL;
  int n, np = 0, i, j, c, match = 0, mismatch = 0, rej = 0, notrej = 0;
  const char *model_path = NULL, *proxy_csv = NULL, *csv, *dir, *base;
  wl_model *m = NULL;
  wl_ctx *ctx;
  char path[1300];
  while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
    if (c == 'm')
      model_path = optarg;
    else if (c == 'l')
      liveness = 1;
    else if (c == 'p')
      proxy_csv = optarg;
    else
      return 2;
  }
  if (argc - optind != 2) {
    fprintf(stderr,
            "usage: conformance [--model CAT] CSV DIR [--proxy CSV75]\n");
    return 2;
  }
  csv = argv[optind];
  dir = argv[optind + 1];
  base = strrchr(csv, '/') ? strrchr(csv, '/') + 1 : csv;
  n = read_rows(csv, &rows);
  if (n <= 0) {
    fprintf(stderr, "conformance: cannot read %s\n", csv);
    return 2;
  }
  if (proxy_csv != NULL && (np = read_rows(proxy_csv, &prox)) < 0) {
    fprintf(stderr, "conformance: cannot read %s\n", proxy_csv);
    return 2;
  }
  if (wl_ctx_new(NULL, &ctx) != 0)
    return 2;
  if (model_path != NULL) {
    if (wl_model_load(ctx, model_path, &m) != 0) {
      fprintf(stderr, "conformance: %s\n", wl_ctx_errmsg(ctx));
      return 2;
    }
    model = m;
  }
  for (i = 0; i < n; i++) {
    int v;
    snprintf(path, sizeof path, "%s/%s", dir, rows[i].path);
    v = run_one(ctx, path, NULL);
    if (v == rows[i].expect) {
      match++;
      printf("ok %s\n", rows[i].path);
    } else {
      mismatch++;
      if (v < 0)
        printf("MISMATCH %s: expected %d, got error: %s\n", rows[i].path,
               rows[i].expect, wl_ctx_errmsg(ctx));
      else
        printf("MISMATCH %s: expected %d, got %d\n", rows[i].path,
               rows[i].expect, v);
    }
  }
  for (i = 0; i < np; i++) {
    int in6 = 0, v, parsed = 0;
    for (j = 0; j < n && !in6; j++)
      in6 = strcmp(rows[j].path, prox[i].path) == 0;
    if (in6)
      continue;
    snprintf(path, sizeof path, "%s/%s", dir, prox[i].path);
    v = run_one(ctx, path, &parsed);
    if (parsed && v == WL_EUNSUPPORTED &&
        strstr(wl_ctx_errmsg(ctx), "need the PTX 7.5 model") != NULL &&
        strstr(wl_ctx_errmsg(ctx), "--model ptx-v7.5.cat") != NULL) {
      rej++;
      printf("ok proxy-rejected %s\n", prox[i].path);
    } else {
      notrej++;
      printf("MISMATCH proxy %s: expected it to parse and the built-in "
             "explorer to refuse it ('... need the PTX 7.5 model'), got "
             "%d (%s)\n",
             prox[i].path, v, v < 0 ? wl_ctx_errmsg(ctx) : "a verdict");
    }
  }
  printf("conformance: %d match, %d mismatch (%s%s%s)\n", match, mismatch,
         base, model_path ? ", model " : "",
         model_path ? (strrchr(model_path, '/') ? strrchr(model_path, '/') + 1
                                                : model_path)
                    : "");
  if (np > 0)
    printf("conformance: %d proxy tests parsed and rejected cleanly by "
           "the built-in explorer, %d not\n",
           rej,
           notrej);
  wl_model_free(m);
  wl_ctx_free(ctx);
  free(rows);
  free(prox);
  return (mismatch || notrej) ? 1 : 0;
}
