/* cmd_pack.c -- a unit's output as bytes and back, for the rank driver
 * (cmd_ranks_pool.c): a command's codec (wll_ranks_codec) packs what
 * its run held (numbers, texts, a wll_out's segments) on the rank that
 * ran the unit, and unpacks it on rank 0, which emits it.  Integers are
 * little-endian 64-bit; every read is checked against the bytes left. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "ranks.h"

void wll_pack_raw(wll_pack *b, const void *s, size_t n) {
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

void wll_pack_u64(wll_pack *b, uint64_t v) {
  unsigned char c[8];
  int i;
  for (i = 0; i < 8; i++)
    c[i] = (unsigned char)(v >> (8 * i));
  wll_pack_raw(b, c, 8);
}

void wll_pack_bytes(wll_pack *b, const void *s, size_t n) {
  wll_pack_u64(b, (uint64_t)n);
  wll_pack_raw(b, s, n);
}

void wll_pack_out(wll_pack *b, const wll_out *o) {
  size_t k;
  wll_pack_u64(b, (uint64_t)(o->oom != 0));
  wll_pack_u64(b, (uint64_t)o->nseg);
  for (k = 0; k < o->nseg; k++) {
    wll_pack_u64(b, (uint64_t)o->seg[k].stream);
    wll_pack_bytes(b, o->text + o->seg[k].off, o->seg[k].len);
  }
}

uint64_t wll_unpack_u64(wll_unpack *r) {
  uint64_t v = 0;
  int i;
  if (r->bad || r->n - r->at < 8) {
    r->bad = 1;
    return 0;
  }
  for (i = 7; i >= 0; i--)
    v = v << 8 | r->p[r->at + (size_t)i];
  r->at += 8;
  return v;
}

const void *wll_unpack_bytes(wll_unpack *r, size_t *n) {
  uint64_t len = wll_unpack_u64(r);
  const void *s;
  if (r->bad || len > r->n - r->at) {
    r->bad = 1;
    *n = 0;
    return NULL;
  }
  s = r->p + r->at;
  r->at += (size_t)len;
  *n = (size_t)len;
  return s;
}

int wll_unpack_out(wll_unpack *r, wll_out *o) {
  uint64_t oom = wll_unpack_u64(r), nseg = wll_unpack_u64(r), k;
  wll_out_init(o);
  /* each segment takes at least 16 bytes */
  if (r->bad || oom > 1 || nseg > (r->n - r->at) / 16) {
    r->bad = 1;
    return -1;
  }
  for (k = 0; k < nseg; k++) {
    uint64_t stream = wll_unpack_u64(r);
    size_t len;
    const char *s = wll_unpack_bytes(r, &len);
    if (r->bad ||
        (stream != WLL_OUT_STDOUT && stream != WLL_OUT_STDERR)) {
      r->bad = 1;
      return -1;
    }
    if (wll_out_write(o, (int)stream, s, len) != 0)
      return -1;
  }
  o->oom = (int)oom; /* the rank's own shortage, said when flushed */
  return 0;
}
