/* litmus_bench.c -- how long the explorer takes over the conformance
 * list: every test parsed and explored exhaustively, in one process.
 *
 *   litmus_bench CSV DIR [REPEATS]
 *
 * Reads the files once, then times REPEATS passes (default 5) and prints
 * the best and median pass, and the slowest tests of the best pass. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../engine/warplab.h"

typedef struct item {
  char path[600];
  char *src;
  size_t len;
  double best;
} item;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#include "../tests/slurp.h"

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int cmp_item(const void *a, const void *b) {
  double x = ((const item *)a)->best, y = ((const item *)b)->best;
  return x > y ? -1 : x < y;
}

int main(int argc, char **argv) {
  char *csv;
  size_t len, i = 0;
  item *items = NULL;
  int n = 0, cap = 0, reps, rep, k;
  double *pass;
  wl_ctx *ctx;
  wl_model *model = NULL;
  wl_explore_opts opts;
  const char *label = "litmus";
  char lbuf[300];
  if (argc < 3) {
    fprintf(stderr, "usage: litmus_bench CSV DIR [REPEATS [MODEL.cat]]\n");
    return 2;
  }
  reps = argc > 3 ? atoi(argv[3]) : 5;
  if (reps < 1)
    reps = 1;
  csv = slurp(argv[1], &len);
  if (csv == NULL) {
    fprintf(stderr, "litmus_bench: cannot read %s\n", argv[1]);
    return 2;
  }
  while (i < len) {
    char line[600];
    size_t m = 0;
    char *comma;
    while (i < len && csv[i] != '\n') {
      if (csv[i] != '\r' && m + 1 < sizeof line)
        line[m++] = csv[i];
      i++;
    }
    i++;
    line[m] = '\0';
    comma = strrchr(line, ',');
    if (comma == NULL || strncmp(line, "litmus/PTX/", 11) != 0)
      continue;
    *comma = '\0';
    if (n == cap) {
      item *p = realloc(items, (size_t)(cap = cap ? cap * 2 : 256) *
                                   sizeof *items);
      if (p == NULL)
        return 2;
      items = p;
    }
    snprintf(items[n].path, sizeof items[n].path, "%s/%s", argv[2],
             line + 11);
    items[n].src = slurp(items[n].path, &items[n].len);
    if (items[n].src == NULL) {
      fprintf(stderr, "litmus_bench: cannot read %s\n", items[n].path);
      return 2;
    }
    items[n].best = 1e9;
    n++;
  }
  free(csv);
  if (wl_ctx_new(NULL, &ctx) != 0)
    return 2;
  memset(&opts, 0, sizeof opts);
  if (argc > 4) {
    const char *b = strrchr(argv[4], '/');
    if (wl_model_load(ctx, argv[4], &model) != 0) {
      fprintf(stderr, "litmus_bench: %s\n", wl_ctx_errmsg(ctx));
      return 2;
    }
    opts.model = model;
    snprintf(lbuf, sizeof lbuf, "litmus (cat evaluator, %s)",
             b ? b + 1 : argv[4]);
    label = lbuf;
  }
  pass = calloc((size_t)reps, sizeof *pass);
  if (pass == NULL)
    return 2;
  for (rep = 0; rep < reps; rep++) {
    double t0 = now();
    for (k = 0; k < n; k++) {
      double t1 = now(), dt;
      wl_litmus *t;
      wl_result *r;
      if (wl_litmus_parse(ctx, items[k].path, items[k].src, items[k].len,
                          &t) != 0 ||
          wl_explore(ctx, t, &opts, &r) != 0) {
        fprintf(stderr, "litmus_bench: %s\n", wl_ctx_errmsg(ctx));
        return 1;
      }
      wl_result_free(r);
      wl_litmus_free(t);
      dt = now() - t1;
      if (dt < items[k].best)
        items[k].best = dt;
    }
    pass[rep] = now() - t0;
  }
  qsort(pass, (size_t)reps, sizeof *pass, cmp_double);
  printf("%s: %d tests explored exhaustively per pass, %d passes\n", label,
         n, reps);
  printf("%s: best pass %.4f s, median pass %.4f s%s\n", label, pass[0],
         pass[reps / 2], model ? "" : " (target: under 1 s)");
  qsort(items, (size_t)n, sizeof *items, cmp_item);
  printf("%s: slowest tests (best of %d):\n", label, reps);
  for (k = 0; k < n && k < 5; k++) {
    const char *s = strstr(items[k].path, "/PTX/");
    printf("  %8.4f s  %s\n", items[k].best, s ? s + 5 : items[k].path);
  }
  for (k = 0; k < n; k++)
    free(items[k].src);
  free(items);
  free(pass);
  wl_model_free(model);
  wl_ctx_free(ctx);
  return 0;
}
