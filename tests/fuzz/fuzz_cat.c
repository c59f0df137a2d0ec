/* fuzz_cat.c -- libFuzzer harness for the cat reader (wl_model_parse)
 * and, on what parses, the literal evaluator on a tiny candidate: the
 * message-passing test with fences, explored under the model.
 *
 * Built and run by tests/fuzz/run.sh (FUZZ_TARGET=cat).  Inputs that
 * name an absolute include ("/...") are skipped: the reader would open
 * any file the fuzzer spells, /dev/zero among them.  Any error code is
 * acceptable; crashes, leaks, undefined behaviour and timeouts are
 * not. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/warplab.h"

#ifndef FUZZ_STOP_CALLS
#define FUZZ_STOP_CALLS 20
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char mp[] =
    "PTX MP\n"
    "{ x=0; y=0; }\n"
    " P0@cta 0,gpu 0       | P1@cta 1,gpu 0      ;\n"
    " st.weak x, 1         | ld.acquire.gpu r0, y ;\n"
    " fence.sc.gpu         | ld.weak r1, x       ;\n"
    " st.release.gpu y, 1  |                     ;\n"
    "exists (1:r0 == 1 /\\ 1:r1 == 0)\n";

static int count_stop(void *ud) {
  unsigned long *calls = ud;
  return ++*calls >= FUZZ_STOP_CALLS;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static wl_ctx *ctx; /* harness only: one context for the run */
  static wl_litmus *t;
  wl_model *m = NULL;
  wl_result *r = NULL;
  wl_explore_opts opts;
  unsigned long calls = 0;
  size_t i;

  if (ctx == NULL) {
    if (wl_ctx_new(NULL, &ctx) != 0 ||
        wl_litmus_parse(ctx, "mp.litmus", mp, sizeof mp - 1, &t) != 0)
      abort();
  }
  for (i = 0; i + 1 < size; i++)
    if (data[i] == '"' && data[i + 1] == '/')
      return 0;
  if (wl_model_parse(ctx, "fuzz.cat", (const char *)data, size, &m) != 0) {
    if (m != NULL)
      abort(); /* a failed parse must not hand out a model */
    return 0;
  }
  if (m == NULL)
    abort();
  (void)wl_model_name(m);
  memset(&opts, 0, sizeof opts);
  opts.unroll = 2;
  opts.should_stop = count_stop;
  opts.stop_ud = &calls;
  opts.model = m;
  if (wl_explore(ctx, t, &opts, &r) == 0) {
    if (r == NULL)
      abort();
    (void)wl_result_verdict(r);
    wl_result_free(r);
  } else if (r != NULL) {
    abort();
  }
  wl_model_free(m);
  return 0;
}
