/* fuzz_cat.c -- libFuzzer harness for the cat reader (wl_model_parse,
 * wl_model_load with include files) and, on what parses, the literal
 * evaluator on a tiny candidate: the message-passing test with fences,
 * explored under the model.
 *
 * An input is one model, or several files: lines "---" split it into
 * the top file fuzz.cat and a.cat, b.cat, c.cat beside it (in a folder
 * of this process's own), which the top file and each other may
 * include, repeatedly or in cycles; the files of an input without a
 * "---" line are not written and it is read from memory.  Inputs that
 * name an absolute include ("/...") or one with ".." are skipped: the
 * reader would open any file the fuzzer spells.  The context's stop
 * hook and the explorer's allow FUZZ_STOP_CALLS polls each.  Any error
 * code is acceptable; crashes, leaks, undefined behaviour and timeouts
 * are not.
 *
 * Built and run by tests/fuzz/run.sh (FUZZ_TARGET=cat). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* The folder the files of an input go to (made once). */
static char dir[64];
static const char *const names[] = {"fuzz.cat", "a.cat", "b.cat", "c.cat"};

static void path_of(char *buf, size_t n, int k) {
  snprintf(buf, n, "%s/%s", dir, names[k]);
}

/* The folder and its files go at exit. */
static void remove_dir(void) {
  char path[128];
  int k;
  for (k = 0; k < 4; k++) {
    path_of(path, sizeof path, k);
    unlink(path);
  }
  rmdir(dir);
}

/* Splits the input at "\n---\n" lines into up to four files and writes
 * them (the files past the last part are removed).  0 when the input
 * has no such line. */
static int write_parts(const uint8_t *data, size_t size) {
  static const char sep[] = "\n---\n";
  size_t at = 0;
  int k, nparts = 0;
  char path[128];
  if (dir[0] == '\0') {
    snprintf(dir, sizeof dir, "/tmp/fuzz_cat_XXXXXX");
    if (mkdtemp(dir) == NULL)
      abort();
    atexit(remove_dir);
  }
  for (k = 0; k < 4 && at <= size; k++) {
    size_t end = at, next;
    FILE *f;
    while (end + 5 <= size && memcmp(data + end, sep, 5) != 0)
      end++;
    if (end + 5 > size)
      end = size;
    next = end < size ? end + 5 : size + 1;
    if (k == 3)
      end = size, next = size + 1; /* the rest is the last file */
    if (k == 0 && end == size)
      return 0;
    path_of(path, sizeof path, k);
    if ((f = fopen(path, "wb")) == NULL)
      abort();
    if (end > at && fwrite(data + at, 1, end - at, f) != end - at)
      abort();
    if (fclose(f) != 0)
      abort();
    nparts++;
    at = next;
  }
  for (k = nparts; k < 4; k++) {
    path_of(path, sizeof path, k);
    unlink(path);
  }
  return nparts;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static wl_ctx *ctx; /* harness only: one context for the run */
  static wl_litmus *t;
  wl_model *m = NULL;
  wl_result *r = NULL;
  wl_explore_opts opts;
  unsigned long calls = 0, read_calls = 0;
  size_t i;
  int rc;

  if (ctx == NULL) {
    if (wl_ctx_new(NULL, &ctx) != 0 ||
        wl_litmus_parse(ctx, "mp.litmus", mp, sizeof mp - 1, &t) != 0)
      abort();
  }
  for (i = 0; i + 1 < size; i++)
    if ((data[i] == '"' && data[i + 1] == '/') ||
        (data[i] == '.' && data[i + 1] == '.'))
      return 0;
  wl_ctx_set_stop(ctx, count_stop, &read_calls);
  if (write_parts(data, size) > 0) {
    char top[128];
    path_of(top, sizeof top, 0);
    rc = wl_model_load(ctx, top, &m);
  } else {
    rc = wl_model_parse(ctx, "fuzz.cat", (const char *)data, size, &m);
  }
  wl_ctx_set_stop(ctx, NULL, NULL);
  if (rc != 0) {
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
