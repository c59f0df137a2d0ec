/* fuzz_insn.c -- libFuzzer harness for the PTX instruction strings of
 * wl.litmus threads (wl_litmus_add_insn) and conditions given as text
 * (wl_litmus_set_condition), then the explorer and the simulator on
 * what is accepted.
 *
 * The input is lines: each is one instruction of the current thread; a
 * line "|" starts the next thread (at most 4, alternately in CTA 0 and
 * CTA 1); a line starting with "?" is the condition (herd's text after
 * the "?").  Locations x, y (global) and s (shared) are declared first,
 * as a script would.  Built and run by tests/fuzz/run.sh
 * (FUZZ_TARGET=insn).  Any error code is acceptable; crashes, leaks,
 * undefined behaviour and timeouts are not. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/warplab.h"

#ifndef FUZZ_STOP_CALLS
#define FUZZ_STOP_CALLS 20
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int count_stop(void *ud) {
  unsigned long *calls = ud;
  return ++*calls >= FUZZ_STOP_CALLS;
}

static int discard(void *ud, const char *s, size_t n) {
  volatile unsigned char *acc = ud;
  size_t i;
  for (i = 0; i < n; i++)
    *acc ^= (unsigned char)s[i];
  return 0;
}

/* Builds the test from the lines of data; 0 when every call accepted
 * its text. */
static int build(wl_litmus *t, const char *data, size_t size) {
  int th, nth = 1, loc, rc;
  size_t i = 0;
  if (wl_litmus_add_location(t, "x", 0, NULL) != 0 ||
      wl_litmus_add_location(t, "y", 0, NULL) != 0 ||
      wl_litmus_add_location(t, "s", 0, &loc) != 0 ||
      wl_litmus_set_shared(t, loc, 1) != 0 ||
      wl_litmus_add_thread(t, 0, 0, &th) != 0)
    return -1;
  while (i < size) {
    char line[512];
    size_t n = 0;
    while (i < size && data[i] != '\n') {
      if (n + 1 < sizeof line)
        line[n++] = data[i];
      i++;
    }
    i++;
    line[n] = '\0';
    if (strcmp(line, "|") == 0) {
      if (nth >= 4)
        return -1;
      if (wl_litmus_add_thread(t, nth % 2, 0, &th) != 0)
        return -1;
      nth++;
      continue;
    }
    if (line[0] == '?')
      rc = wl_litmus_set_condition(t, line + 1, "fuzz.lua", 3);
    else
      rc = wl_litmus_add_insn(t, th, line, "fuzz.lua", (int)i);
    if (rc != 0)
      return rc;
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static wl_ctx *ctx; /* one context for the whole run (harness only) */
  wl_litmus *t = NULL;
  wl_result *r = NULL;
  wl_explore_opts opts;
  unsigned long calls = 0;
  unsigned char acc = 0;
  int prof;

  if (ctx == NULL && wl_ctx_new(NULL, &ctx) != 0)
    abort();
  if (wl_litmus_new(ctx, "fuzz", &t) != 0)
    abort();
  if (build(t, (const char *)data, size) != 0) {
    const char *msg = wl_ctx_errmsg(ctx);
    discard(&acc, msg, strlen(msg));
    wl_litmus_free(t);
    return 0;
  }
  memset(&opts, 0, sizeof opts);
  opts.unroll = 2;
  opts.should_stop = count_stop;
  opts.stop_ud = &calls;
  if (wl_explore(ctx, t, &opts, &r) == 0) {
    if (r == NULL)
      abort();
    (void)wl_result_write_herd(r, 0.0, discard, &acc);
    (void)wl_result_write_json(r, 0.0, discard, &acc);
    wl_result_free(r);
  } else if (r != NULL) {
    abort();
  }
  for (prof = WL_PROFILE_WEAK; prof <= WL_PROFILE_H100; prof++) {
    wl_sample_opts so;
    wl_hist *h = NULL;
    int rc;
    memset(&so, 0, sizeof so);
    so.runs = 10;
    so.seed = 7;
    so.profile = prof;
    so.max_steps = 300;
    rc = wl_sample(ctx, t, &so, &h);
    if (rc != 0 && rc != WL_ESTOPPED) {
      if (h != NULL)
        abort();
      continue;
    }
    (void)wl_hist_write(h, 0, 0.0, discard, &acc);
    wl_hist_free(h);
  }
  wl_litmus_free(t);
  return 0;
}
