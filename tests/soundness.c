/* soundness.c -- every outcome the simulator produces must be allowed by
 * the PTX model: for each test, sample RUNS runs with both profiles and
 * check each sampled final state against wl_explore's states.
 *
 *   soundness RUNS FILE...       (one line per file; exit 1 on a
 *                                 violation)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/warplab.h"

#include "slurp.h"

int main(int argc, char **argv) {
  wl_ctx *ctx;
  int i, bad = 0, nvals;
  uint64_t runs;
  if (argc < 3) {
    fprintf(stderr, "usage: soundness RUNS FILE...\n");
    return 2;
  }
  runs = strtoull(argv[1], NULL, 10);
  if (wl_ctx_new(NULL, &ctx) != 0)
    return 2;
  for (i = 2; i < argc; i++) {
    size_t len, k, s;
    char *src = slurp(argv[i], &len);
    wl_litmus *t = NULL;
    wl_result *r = NULL;
    int prof, violations = 0;
    uint64_t weakruns[2] = {0, 0}, hung[2] = {0, 0};
    if (src == NULL || wl_litmus_parse(ctx, argv[i], src, len, &t) != 0 ||
        wl_explore(ctx, t, NULL, &r) != 0) {
      printf("ERROR %s: %s\n", argv[i], wl_ctx_errmsg(ctx));
      free(src);
      wl_litmus_free(t);
      bad = 1;
      continue;
    }
    free(src);
    nvals = wl_result_nvars(r);
    for (prof = 0; prof < 2; prof++) {
      wl_sample_opts o;
      wl_hist *h = NULL;
      memset(&o, 0, sizeof o);
      o.runs = runs;
      o.seed = 12345;
      o.profile = prof == 0 ? WL_PROFILE_WEAK : WL_PROFILE_H100;
      if (wl_sample(ctx, t, &o, &h) != 0) {
        printf("ERROR %s: %s\n", argv[i], wl_ctx_errmsg(ctx));
        bad = 1;
        continue;
      }
      hung[prof] = wl_hist_hung(h);
      for (k = 0; k < wl_hist_noutcomes(h); k++) {
        int64_t vals[2048];
        int found = 0, v;
        wl_hist_values(h, k, vals, nvals);
        for (s = 0; s < wl_result_nstates(r) && !found; s++) {
          found = 1;
          for (v = 0; v < nvals && found; v++)
            found = wl_result_value(r, s, v) == vals[v];
        }
        if (!found) {
          violations++;
          printf("VIOLATION %s (%s profile, %llu runs): sampled state not "
                 "allowed:",
                 argv[i], prof == 0 ? "weak" : "h100",
                 (unsigned long long)wl_hist_count(h, k));
          for (v = 0; v < nvals; v++)
            printf(" %s=%lld", wl_result_var_name(r, v), (long long)vals[v]);
          printf("\n");
        }
        if (wl_hist_sat(h, k) && wl_result_cond_kind(r) == WL_COND_EXISTS)
          weakruns[prof] += wl_hist_count(h, k);
      }
      wl_hist_free(h);
    }
    if (violations)
      bad = 1;
    else
      printf("ok %s (condition seen: weak %llu, h100 %llu; hung: %llu, "
             "%llu)\n",
             argv[i], (unsigned long long)weakruns[0],
             (unsigned long long)weakruns[1], (unsigned long long)hung[0],
             (unsigned long long)hung[1]);
    wl_result_free(r);
    wl_litmus_free(t);
  }
  wl_ctx_free(ctx);
  return bad;
}
