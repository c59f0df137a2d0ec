/* bytes.c -- growing a byte buffer and reading one back, little-endian
 * (internal.h: wl__wbuf, wl__rbuf): the one implementation under the
 * engine's packed forms (sim/hist_pack.c, model/result_pack.c). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void wl__wbuf_put(wl__wbuf *b, const void *s, size_t n) {
  if (b->oom || n == 0)
    return;
  if (n > b->cap - b->n) {
    size_t cap = b->cap ? b->cap : 256;
    unsigned char *q;
    while (cap - b->n < n) {
      if (cap > ((size_t)-1) / 2) {
        b->oom = 1;
        return;
      }
      cap *= 2;
    }
    if ((q = realloc(b->p, cap)) == NULL) {
      b->oom = 1;
      return;
    }
    b->p = q;
    b->cap = cap;
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
}

void wl__wbuf_le(wl__wbuf *b, uint64_t v, int nbytes) {
  unsigned char c[8];
  int i;
  for (i = 0; i < nbytes && i < 8; i++)
    c[i] = (unsigned char)(v >> (8 * i));
  wl__wbuf_put(b, c, (size_t)i);
}

const unsigned char *wl__rbuf_take(wl__rbuf *r, size_t n) {
  const unsigned char *s;
  if (r->bad || r->n - r->at < n) {
    r->bad = 1;
    return NULL;
  }
  s = r->p + r->at;
  r->at += n;
  return s;
}

uint64_t wl__rbuf_le(wl__rbuf *r, int nbytes) {
  const unsigned char *c = wl__rbuf_take(r, (size_t)nbytes);
  uint64_t v = 0;
  int i;
  if (c != NULL)
    for (i = nbytes - 1; i >= 0; i--)
      v = v << 8 | c[i];
  return v;
}
