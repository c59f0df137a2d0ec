/* fuzz_litmus.c -- libFuzzer harness for the .litmus reader and, on what
 * parses, the explorer and both result writers.
 *
 * Built and run by tests/fuzz/run.sh (make fuzz).  Any error code from the
 * engine is acceptable; crashes, leaks, undefined behaviour and timeouts
 * are not.  The exploration is bounded by a should_stop callback that
 * counts its calls, so every input does a bounded, deterministic amount
 * of work. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/warplab.h"

/* The explorer calls should_stop once per 1024 units of work, so this
 * bounds an input to about 20k units: the slowest of the 748 conformance
 * seeds then takes about 0.5 s under ASan+UBSan (with 20000 calls some
 * took over 80 s, past libFuzzer's -timeout).  run.sh may override it. */
#ifndef FUZZ_STOP_CALLS
#define FUZZ_STOP_CALLS 20
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static wl_ctx *g_ctx; /* one context for the whole run (harness only) */

static int count_stop(void *ud) {
  unsigned long *calls = ud;
  return ++*calls >= FUZZ_STOP_CALLS;
}

/* A sink that discards, but touches every byte so that ASan checks the
 * buffer the writer hands out. */
static int discard(void *ud, const char *s, size_t n) {
  volatile unsigned char *acc = ud;
  size_t i;
  for (i = 0; i < n; i++)
    *acc ^= (unsigned char)s[i];
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  wl_litmus *t = NULL;
  wl_result *r = NULL;
  wl_explore_opts opts;
  unsigned long calls = 0;
  unsigned char acc = 0;
  const char *msg;

  if (g_ctx == NULL && wl_ctx_new(NULL, &g_ctx) != 0)
    abort();

  if (wl_litmus_parse(g_ctx, "fuzz.litmus", (const char *)data, size, &t) !=
      0) {
    msg = wl_ctx_errmsg(g_ctx);
    discard(&acc, msg, 0);
    if (t != NULL) /* a failed parse must not hand out an object */
      abort();
    return 0;
  }
  if (t == NULL)
    abort();
  (void)wl_litmus_name(t);
  (void)wl_litmus_nthreads(t);

  memset(&opts, 0, sizeof opts); /* fields added later (model) are 0 */
  opts.unroll = 2;
  opts.should_stop = count_stop;
  opts.stop_ud = &calls;
  if (wl_explore(g_ctx, t, &opts, &r) == 0) {
    if (r == NULL)
      abort();
    (void)wl_result_verdict(r);
    (void)wl_result_cond_kind(r);
    (void)wl_result_nstates(r);
    (void)wl_result_positive(r);
    (void)wl_result_negative(r);
    (void)wl_result_bound_hit(r);
    (void)wl_result_traces_cut(r);
    (void)wl_result_write_herd(r, 0.0, discard, &acc);
    (void)wl_result_write_json(r, 0.0, discard, &acc);
    wl_result_free(r);
  } else if (r != NULL) {
    abort(); /* a failed exploration must not hand out a result */
  }
  /* the simulator on the same test: a few short runs of each profile */
  {
    int prof;
    for (prof = WL_PROFILE_WEAK; prof <= WL_PROFILE_H100; prof++) {
      wl_sample_opts so;
      wl_hist *h = NULL;
      size_t i;
      int rc;
      memset(&so, 0, sizeof so);
      so.runs = 20;
      so.seed = 7;
      so.profile = prof;
      so.max_steps = 300;
      rc = wl_sample(g_ctx, t, &so, &h);
      if (rc != 0 && rc != WL_ESTOPPED) {
        if (h != NULL)
          abort(); /* a failed sampling must not hand out a histogram */
        continue;
      }
      for (i = 0; i < wl_hist_noutcomes(h); i++)
        (void)wl_hist_weak(h, i);
      (void)wl_hist_write(h, 0, 0.0, discard, &acc);
      wl_hist_free(h);
    }
  }
  wl_litmus_free(t);
  return 0;
}
