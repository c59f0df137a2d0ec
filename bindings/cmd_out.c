/* cmd_out.c -- a unit's output held until its turn: what a command run
 * on many files (on libuv's pool, bindings/lpool.c) would have written
 * to stdout and stderr for one file, as segments in the order written,
 * so that the main thread writes it out in file order, stdout flushed
 * before each stderr segment (what the commands do when they write
 * directly). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

void wll_out_init(wll_out *o) { memset(o, 0, sizeof *o); }

void wll_out_free(wll_out *o) {
  if (o == NULL)
    return;
  free(o->text);
  free(o->seg);
  memset(o, 0, sizeof *o);
}

int wll_out_write(wll_out *o, int stream, const char *s, size_t n) {
  wll_out_seg *last = o->nseg > 0 ? &o->seg[o->nseg - 1] : NULL;
  if (o->oom)
    return -1;
  if (n == 0)
    return 0;
  if (n > o->cap - o->len) {
    size_t cap = o->cap ? o->cap : 1024;
    char *p;
    while (cap - o->len < n) {
      if (cap > ((size_t)-1) / 2)
        goto oom;
      cap *= 2;
    }
    if ((p = realloc(o->text, cap)) == NULL)
      goto oom;
    o->text = p;
    o->cap = cap;
  }
  memcpy(o->text + o->len, s, n);
  if (last != NULL && last->stream == stream) {
    last->len += n;
  } else {
    if (o->nseg == o->segcap) {
      size_t cap = o->segcap ? 2 * o->segcap : 4;
      wll_out_seg *q = realloc(o->seg, cap * sizeof *q);
      if (q == NULL)
        goto oom;
      o->seg = q;
      o->segcap = cap;
    }
    o->seg[o->nseg].stream = stream;
    o->seg[o->nseg].off = o->len;
    o->seg[o->nseg].len = n;
    o->nseg++;
  }
  o->len += n;
  return 0;
oom:
  o->oom = 1;
  return -1;
}

int wll_out_printf(wll_out *o, int stream, const char *fmt, ...) {
  char small[512], *p = small;
  va_list ap;
  int k, rc;
  va_start(ap, fmt);
  k = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (k < 0)
    return -1;
  if ((size_t)k >= sizeof small) {
    if ((p = malloc((size_t)k + 1)) == NULL) {
      o->oom = 1;
      return -1;
    }
    va_start(ap, fmt);
    vsnprintf(p, (size_t)k + 1, fmt, ap);
    va_end(ap);
  }
  rc = wll_out_write(o, stream, p, (size_t)k);
  if (p != small)
    free(p);
  return rc;
}

int wll_out_stdout(void *ud, const char *s, size_t n) {
  return wll_out_write(ud, WLL_OUT_STDOUT, s, n);
}

int wll_out_stderr(void *ud, const char *s, size_t n) {
  return wll_out_write(ud, WLL_OUT_STDERR, s, n);
}

int wll_out_flush(const wll_out *o) {
  size_t k;
  int rc = 0;
  for (k = 0; k < o->nseg; k++) {
    const wll_out_seg *g = &o->seg[k];
    if (g->stream == WLL_OUT_STDOUT) {
      if (wll_write_stdout(NULL, o->text + g->off, g->len) != 0)
        rc = -1;
    } else {
      fflush(stdout);
      fwrite(o->text + g->off, 1, g->len, stderr);
    }
  }
  if (o->oom) {
    fflush(stdout);
    fprintf(stderr, "warplab: out of memory (some output is missing)\n");
    rc = -1;
  }
  return rc;
}
