/* sink.h -- a wl_write_fn into a growable string, shared by the unit
 * tests that read what the engine's writers produce; fail_at > 0 makes
 * the fail_at-th call fail (a writer's error path). */
#ifndef WL_TEST_SINK_H
#define WL_TEST_SINK_H

#include <stdlib.h>
#include <string.h>

typedef struct sbuf {
  char *p;
  size_t n, cap;
  int calls, fail_at;
} sbuf;

static int sbuf_write(void *ud, const char *s, size_t n) {
  sbuf *b = ud;
  b->calls++;
  if (b->fail_at > 0 && b->calls == b->fail_at)
    return 1;
  if (b->n + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    char *q;
    while (cap < b->n + n + 1)
      cap *= 2;
    q = realloc(b->p, cap);
    if (q == NULL)
      return 1;
    b->p = q;
    b->cap = cap;
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = '\0';
  return 0;
}

#endif
