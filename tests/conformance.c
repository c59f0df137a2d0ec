/* conformance.c -- runs every test listed in Dat3M's expectations and
 * compares the explorer's verdict with the expected one.
 *
 *   conformance CSV DIR [--proxy CSV75]
 *
 * CSV rows are "litmus/PTX/<path>,0|1"; DIR is the PTX folder.  Prints
 * one line per mismatch and a summary "conformance: N match, M mismatch".
 * With --proxy, the rows of the v7.5 list that are not in the v6.0 list
 * (the proxy tests) must each parse, and the built-in (PTX 6.0) explorer
 * must refuse them cleanly with WL_EUNSUPPORTED.
 * Exit status 0 when everything matches. */
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

/* Runs one file; returns the verdict (0/1) or a negative error code;
 * *parsed (may be NULL) tells whether the file parsed. */
static int run_one(wl_ctx *ctx, const char *path, int *parsed) {
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
  rc = wl_explore(ctx, t, NULL, &r);
  if (rc != 0) {
    wl_litmus_free(t);
    return rc;
  }
  v = wl_result_verdict(r);
  if (wl_result_bound_hit(r))
    fprintf(stderr, "conformance: %s: unroll bound hit\n", path);
  wl_result_free(r);
  wl_litmus_free(t);
  return v;
}

int main(int argc, char **argv) {
  row *rows = NULL, *prox = NULL;
  int n, np = 0, i, j, match = 0, mismatch = 0, rej = 0, notrej = 0;
  wl_ctx *ctx;
  char path[1300];
  if (argc != 3 && argc != 5) {
    fprintf(stderr, "usage: conformance CSV DIR [--proxy CSV75]\n");
    return 2;
  }
  n = read_rows(argv[1], &rows);
  if (n <= 0) {
    fprintf(stderr, "conformance: cannot read %s\n", argv[1]);
    return 2;
  }
  if (argc == 5 && (np = read_rows(argv[4], &prox)) < 0) {
    fprintf(stderr, "conformance: cannot read %s\n", argv[4]);
    return 2;
  }
  if (wl_ctx_new(NULL, &ctx) != 0)
    return 2;
  for (i = 0; i < n; i++) {
    int v;
    snprintf(path, sizeof path, "%s/%s", argv[2], rows[i].path);
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
    snprintf(path, sizeof path, "%s/%s", argv[2], prox[i].path);
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
  printf("conformance: %d match, %d mismatch (PTXv6_0-expected.csv)\n",
         match, mismatch);
  if (np > 0)
    printf("conformance: %d proxy tests parsed and rejected cleanly by "
           "the built-in explorer, %d not\n",
           rej,
           notrej);
  wl_ctx_free(ctx);
  free(rows);
  free(prox);
  return (mismatch || notrej) ? 1 : 0;
}
