/* hist_pack.c -- a histogram as bytes (wl_hist_pack) and back, merged
 * into a histogram of the same test in another process
 * (wl_hist_unpack_merge): how the ranks of an MPI sampling send their
 * histograms to the rank that writes the result.  The bytes are
 * little-endian whatever the machine's order; an unpacking checks every
 * length, count and index against the test before it touches the
 * histogram it merges into, and the merge itself is wl_hist_merge's
 * (all or nothing). */
#include <stdlib.h>
#include <string.h>

#include "../program/ir.h"
#include "hist.h"

/* "WLH" and the format's version */
static const unsigned char MAGIC[4] = {'W', 'L', 'H', '1'};

typedef wl__wbuf pbuf;

static void put(pbuf *b, const void *s, size_t n) { wl__wbuf_put(b, s, n); }
static void put_u64(pbuf *b, uint64_t v) { wl__wbuf_le(b, v, 8); }
static void put_u32(pbuf *b, uint32_t v) { wl__wbuf_le(b, v, 4); }
static void put_u8(pbuf *b, unsigned v) { wl__wbuf_le(b, v, 1); }

static void put_str(pbuf *b, const char *s) {
  size_t n = strlen(s);
  put_u32(b, (uint32_t)n);
  put(b, s, n);
}

/*
 * Layout: magic; the test's name; nthreads, nlocs; per thread its
 * registers (the test's) and results (a callback thread's, not the
 * test's), each result's name, and every one's type and whether a
 * report fixed it; runs, hung, the number of outcomes; per outcome its
 * count, whether the condition holds, and its values in the layout
 * above.
 */
int wl_hist_pack(const wl_hist *h, void **buf, size_t *len) {
  pbuf b = {NULL, 0, 0, 0};
  int th, k, v;
  size_t i;
  if (buf == NULL || len == NULL)
    return WL_EINVAL;
  *buf = NULL;
  *len = 0;
  if (h == NULL)
    return WL_EINVAL;
  put(&b, MAGIC, sizeof MAGIC);
  put_str(&b, wl_litmus_name(h->t));
  put_u32(&b, (uint32_t)h->t->nthreads);
  put_u32(&b, (uint32_t)h->t->nlocs);
  for (th = 0; th < h->t->nthreads; th++) {
    put_u32(&b, (uint32_t)h->tregs[th]);
    put_u32(&b, (uint32_t)h->nx[th]);
    for (k = 0; k < h->nx[th]; k++)
      put_str(&b, h->xname[th][k]);
    for (k = 0; k < nreg(h, th); k++) {
      put_u8(&b, h->rtype[th][k]);
      put_u8(&b, h->rtyped[th][k]);
    }
  }
  put_u64(&b, h->runs);
  put_u64(&b, h->hung);
  put_u64(&b, (uint64_t)h->n);
  for (i = 0; i < h->n; i++) {
    put_u64(&b, h->o[i].count);
    put_u8(&b, h->o[i].sat != 0);
    for (v = 0; v < h->lay.nvals; v++)
      put_u64(&b, (uint64_t)h->o[i].vals[v]);
  }
  if (b.oom) {
    free(b.p);
    return wl__err(h->ctx, WL_ENOMEM, "out of memory");
  }
  *buf = b.p;
  *len = b.n;
  return 0;
}

typedef wl__rbuf rbuf;

static const unsigned char *take(rbuf *r, size_t n) {
  return wl__rbuf_take(r, n);
}
static uint64_t get_u64(rbuf *r) { return wl__rbuf_le(r, 8); }
static uint32_t get_u32(rbuf *r) { return (uint32_t)wl__rbuf_le(r, 4); }
static unsigned get_u8(rbuf *r) { return (unsigned)wl__rbuf_le(r, 1); }

/* A string of the buffer as (s, n): not NUL-terminated. */
static const char *get_str(rbuf *r, size_t *n) {
  uint32_t len = get_u32(r);
  const unsigned char *s = take(r, len);
  *n = len;
  return (const char *)s;
}

static int bad(wl_ctx *ctx, const char *why) {
  return wl__err(ctx, WL_EINVAL, "not a packed histogram of this test: %s",
                 why);
}

/* A histogram of t with nothing in it, made as wl_sample makes one. */
static wl_hist *hist_empty(wl_ctx *ctx, const wl_litmus *t) {
  wl_hist *h = wl__calloc(ctx, sizeof *h);
  if (h == NULL)
    return NULL;
  h->ctx = ctx;
  h->t = t;
  h->kind = t->cond_kind;
  wl__hist_layout_init(h);
  return h;
}

/* Reads the buffer into tmp (a histogram of into's test made for it):
 * names, types, then outcomes. */
static int unpack_into(wl_hist *tmp, rbuf *r) {
  wl_ctx *ctx = tmp->ctx;
  const wl_litmus *t = tmp->t;
  int64_t vals[WL_MAX_THREADS * WL_MAX_REGS + WL_MAX_LOCS];
  const unsigned char *m = take(r, sizeof MAGIC);
  const char *s;
  size_t n, i;
  uint64_t no, sum;
  int th, k, v, rc;
  if (m == NULL || memcmp(m, MAGIC, sizeof MAGIC) != 0)
    return bad(ctx, "no WLH1 header");
  s = get_str(r, &n);
  if (s == NULL || strlen(wl_litmus_name(t)) != n ||
      memcmp(s, wl_litmus_name(t), n) != 0)
    return bad(ctx, "another test's name");
  if (get_u32(r) != (uint32_t)t->nthreads || get_u32(r) != (uint32_t)t->nlocs)
    return bad(ctx, "other threads or locations");
  for (th = 0; th < t->nthreads; th++) {
    uint32_t tr = get_u32(r), nx = get_u32(r);
    if (r->bad || tr != (uint32_t)tmp->tregs[th] ||
        nx > (uint32_t)(WL_MAX_REGS - tr))
      return bad(ctx, "other registers");
    for (k = 0; k < (int)nx; k++) {
      char name[256];
      s = get_str(r, &n);
      if (s == NULL || n == 0 || n >= sizeof name)
        return bad(ctx, "a result's name");
      memcpy(name, s, n);
      name[n] = '\0';
      if (memchr(name, '\0', n) != NULL || wl__hist_reg(tmp, th, name) >= 0)
        return bad(ctx, "a result's name");
      /* its type is set with the others below */
      if ((rc = wl__hist_add_name(tmp, th, name, WL_TYPE_INT64)) < 0)
        return rc;
    }
    for (k = 0; k < nreg(tmp, th); k++) {
      unsigned ty = get_u8(r), typed = get_u8(r);
      if (r->bad || ty > WL_TYPE_HALF || typed > 1)
        return bad(ctx, "a value's type");
      tmp->rtype[th][k] = (uint8_t)ty;
      tmp->rtyped[th][k] = (uint8_t)typed;
    }
  }
  tmp->runs = get_u64(r);
  tmp->hung = get_u64(r);
  no = get_u64(r);
  /* each outcome takes at least 9 bytes: no more than the buffer holds */
  if (r->bad || no > (r->n - r->at) / 9)
    return bad(ctx, "a truncated outcome list");
  sum = tmp->hung;
  for (i = 0; i < no; i++) {
    uint64_t c = get_u64(r);
    unsigned sat = get_u8(r);
    for (v = 0; v < tmp->lay.nvals; v++)
      vals[v] = (int64_t)get_u64(r);
    if (r->bad || sat > 1 || sum + c < sum)
      return bad(ctx, "a truncated or malformed outcome");
    if (wl__hist_find(tmp, vals) >= 0)
      return bad(ctx, "an outcome given twice");
    sum += c;
    if ((rc = wl__hist_add(tmp, vals, (int)sat, c)) != 0)
      return wl__err(ctx, rc, "out of memory");
  }
  if (r->at != r->n)
    return bad(ctx, "bytes after the last outcome");
  if (sum != tmp->runs)
    return bad(ctx, "counts that do not add up to its runs");
  return 0;
}

int wl_hist_unpack_merge(wl_hist *into, const void *buf, size_t len) {
  rbuf r;
  wl_hist *tmp;
  int rc;
  if (into == NULL || (buf == NULL && len > 0))
    return WL_EINVAL;
  r.p = buf;
  r.n = len;
  r.at = 0;
  r.bad = 0;
  if ((tmp = hist_empty(into->ctx, into->t)) == NULL)
    return wl__err(into->ctx, WL_ENOMEM, "out of memory");
  rc = unpack_into(tmp, &r);
  if (rc == 0)
    rc = wl_hist_merge(into, tmp);
  wl_hist_free(tmp);
  return rc;
}
