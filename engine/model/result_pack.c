/* result_pack.c -- a unit's result as bytes (wl_result_pack) and back
 * (wl_result_unpack): how the units of one exploration split across the
 * ranks of an MPI job (split.c) reach the rank that merges them.  The
 * bytes carry what wl_explore_merge reads of a unit's result: its
 * states (values, truth, count, witness), the counts, the bound flag,
 * the race and hang found, and a stop's reason; the rest (the test,
 * the layout, the observed values) is the explorer's, which the
 * unpacking rank prepared itself from the same text.  Integers are
 * little-endian whatever the machine; an unpacking checks every
 * length, index and flag against that explorer before it makes
 * anything, so bytes that are not such a result are refused with a
 * message, never read past or merged. */
#include <stdlib.h>
#include <string.h>

#include "explore.h"

/* "WLR" and the format's version */
static const unsigned char MAGIC[4] = {'W', 'L', 'R', '1'};

typedef wl__wbuf pbuf;

static void put(pbuf *b, const void *s, size_t n) { wl__wbuf_put(b, s, n); }
static void put_le(pbuf *b, uint64_t v, int nbytes) {
  wl__wbuf_le(b, v, nbytes);
}

#define PUT8(b, v) put_le((b), (uint64_t)(uint8_t)(v), 1)
#define PUT16(b, v) put_le((b), (uint64_t)(uint16_t)(int16_t)(v), 2)
#define PUT32(b, v) put_le((b), (uint64_t)(uint32_t)(int32_t)(v), 4)
#define PUT64(b, v) put_le((b), (uint64_t)(v), 8)

static void put_race(pbuf *b, const wl_race_info *ri) {
  int k;
  PUT32(b, ri->loc);
  for (k = 0; k < 2; k++) {
    const wl_race_access *a = &ri->a[k];
    PUT32(b, a->thread);
    PUT32(b, a->index);
    PUT32(b, a->kind);
    PUT32(b, a->sem);
    PUT32(b, a->scope);
    PUT32(b, a->line);
    PUT64(b, a->value);
  }
}

static void put_hang(pbuf *b, const wl_hang_info *h) {
  int k;
  PUT32(b, h->kind);
  PUT32(b, h->thread);
  PUT32(b, h->line);
  PUT64(b, h->barrier);
  PUT32(b, h->nreads);
  for (k = 0; k < WL_HANG_MAX_READS; k++) {
    PUT32(b, h->loc[k]);
    PUT64(b, h->value[k]);
  }
  PUT32(b, h->nthreads);
  for (k = 0; k < 64; k++) {
    PUT32(b, h->status[k]);
    PUT32(b, h->at_line[k]);
  }
}

/* one witness event: 28 bytes */
#define WIT_BYTES 28
static void put_wit(pbuf *b, const wl_wit_ev *w) {
  PUT8(b, w->thread);
  PUT8(b, w->type);
  PUT8(b, w->sem);
  PUT8(b, w->scope);
  PUT8(b, w->rmw);
  PUT8(b, w->bar_kind);
  PUT16(b, w->loc);
  PUT64(b, w->val);
  PUT32(b, w->line);
  PUT16(b, w->rf);
  PUT16(b, w->co);
  PUT16(b, w->sc);
  PUT16(b, w->phase);
}

/*
 * Layout: magic; nvals, nkey, counted (checked against the explorer);
 * bound_hit, pos, neg; partial and its reason; race_checked,
 * race_found and the race; hang_checked, hang_found and the hang; the
 * number of states; per state its truth, count, values (nvals of
 * them), and its witness (the number of events, then each).
 */
int wl_result_pack(const wl_result *r, void **buf, size_t *len) {
  pbuf b = {NULL, 0, 0, 0};
  size_t s;
  int v, k;
  if (buf == NULL || len == NULL)
    return WL_EINVAL;
  *buf = NULL;
  *len = 0;
  if (r == NULL)
    return WL_EINVAL;
  put(&b, MAGIC, sizeof MAGIC);
  PUT32(&b, r->lay.nvals);
  PUT32(&b, r->key != NULL ? r->nkey : -1);
  PUT8(&b, r->counted != 0);
  PUT8(&b, r->bound_hit != 0);
  PUT64(&b, r->pos);
  PUT64(&b, r->neg);
  PUT32(&b, r->partial);
  {
    size_t n = r->partial && r->why != NULL ? strlen(r->why) : 0;
    PUT32(&b, n);
    put(&b, r->why, n);
  }
  PUT8(&b, r->race_checked != 0);
  PUT8(&b, r->race_found != 0);
  put_race(&b, &r->race);
  PUT8(&b, r->hang_checked != 0);
  PUT8(&b, r->hang_found != 0);
  put_hang(&b, &r->hang);
  PUT64(&b, r->nstates);
  for (s = 0; s < r->nstates; s++) {
    const wl_state *st = &r->states[s];
    PUT8(&b, st->sat != 0);
    PUT64(&b, st->count);
    for (v = 0; v < r->lay.nvals; v++)
      PUT64(&b, st->vals[v]);
    PUT32(&b, st->nwit);
    for (k = 0; k < st->nwit; k++)
      put_wit(&b, &st->wit[k]);
  }
  if (b.oom) {
    free(b.p);
    return wl__err(r->ctx, WL_ENOMEM, "out of memory");
  }
  *buf = b.p;
  *len = b.n;
  return 0;
}

typedef wl__rbuf rbuf;

static const unsigned char *take(rbuf *r, size_t n) {
  return wl__rbuf_take(r, n);
}
static uint64_t get_le(rbuf *r, int nbytes) { return wl__rbuf_le(r, nbytes); }

static unsigned get_u8(rbuf *r) { return (unsigned)get_le(r, 1); }
static int get_i16(rbuf *r) { return (int16_t)(uint16_t)get_le(r, 2); }
static int get_i32(rbuf *r) { return (int32_t)(uint32_t)get_le(r, 4); }
static uint64_t get_u64(rbuf *r) { return get_le(r, 8); }

static int bad(wl_ctx *ctx, const char *why) {
  return wl__err(ctx, WL_EINVAL,
                 "not a packed result of this exploration: %s", why);
}

static int in(int v, int lo, int hi) { return v >= lo && v < hi; }

static int get_race(rbuf *r, const wl_litmus *t, int found,
                    wl_race_info *ri) {
  int k, ok;
  ri->loc = get_i32(r);
  ok = !found || in(ri->loc, 0, t->nlocs);
  for (k = 0; k < 2; k++) {
    wl_race_access *a = &ri->a[k];
    a->thread = get_i32(r);
    a->index = get_i32(r);
    a->kind = get_i32(r);
    a->sem = get_i32(r);
    a->scope = get_i32(r);
    a->line = get_i32(r);
    a->value = (int64_t)get_u64(r);
    if (found && (!in(a->thread, 0, t->nthreads) || a->index < 0 ||
                  (a->kind != 'R' && a->kind != 'W')))
      ok = 0;
  }
  return ok && !r->bad;
}

static int get_hang(rbuf *r, const wl_litmus *t, int found,
                    wl_hang_info *h) {
  int k, ok;
  h->kind = get_i32(r);
  h->thread = get_i32(r);
  h->line = get_i32(r);
  h->barrier = (int64_t)get_u64(r);
  h->nreads = get_i32(r);
  for (k = 0; k < WL_HANG_MAX_READS; k++) {
    h->loc[k] = get_i32(r);
    h->value[k] = (int64_t)get_u64(r);
  }
  h->nthreads = get_i32(r);
  for (k = 0; k < 64; k++) {
    h->status[k] = get_i32(r);
    h->at_line[k] = get_i32(r);
  }
  ok = !found ||
       ((h->kind == WL_HANG_SPIN || h->kind == WL_HANG_BARRIER) &&
        in(h->thread, 0, t->nthreads) &&
        in(h->nreads, 0, WL_HANG_MAX_READS + 1) &&
        in(h->nthreads, 0, 65) && h->nthreads <= t->nthreads);
  for (k = 0; ok && found && k < h->nreads; k++)
    ok = in(h->loc[k], 0, t->nlocs);
  return ok && !r->bad;
}

/* A witness of nwit events: every thread, location and reference to
 * another event in range. */
static int get_wit(rbuf *r, const wl_litmus *t, wl_wit_ev *w, int nwit) {
  int k;
  for (k = 0; k < nwit; k++) {
    wl_wit_ev *e = &w[k];
    e->thread = (int8_t)get_u8(r);
    e->type = (uint8_t)get_u8(r);
    e->sem = (uint8_t)get_u8(r);
    e->scope = (uint8_t)get_u8(r);
    e->rmw = (uint8_t)get_u8(r);
    e->bar_kind = (uint8_t)get_u8(r);
    e->loc = (int16_t)get_i16(r);
    e->val = (int64_t)get_u64(r);
    e->line = get_i32(r);
    e->rf = (int16_t)get_i16(r);
    e->co = (int16_t)get_i16(r);
    e->sc = (int16_t)get_i16(r);
    e->phase = (int16_t)get_i16(r);
    if (r->bad || !in(e->thread, -1, t->nthreads) || e->type > EV_B ||
        !in(e->loc, -1, t->nlocs) || !in(e->rf, -1, nwit) ||
        !in(e->co, -1, WL_MAX_EVENTS) || !in(e->sc, -1, WL_MAX_EVENTS) ||
        !in(e->phase, -1, WL_MAX_EVENTS))
      return 0;
  }
  return 1;
}

/* Reads the bytes into res (made like the explorer's template). */
static int unpack_into(wl_ctx *ctx, wl_result *res, rbuf *r) {
  const wl_litmus *t = res->t;
  const unsigned char *m = take(r, sizeof MAGIC);
  int nv = res->lay.nvals, v;
  int64_t vals[WL_MAX_THREADS * WL_MAX_REGS + WL_MAX_LOCS];
  wl_wit_ev wit[WL_MAX_EVENTS];
  uint64_t ns, s;
  uint32_t wn;
  const unsigned char *ws;
  if (m == NULL || memcmp(m, MAGIC, sizeof MAGIC) != 0)
    return bad(ctx, "no WLR1 header");
  if (get_i32(r) != nv || get_i32(r) != (res->key != NULL ? res->nkey : -1) ||
      get_u8(r) != (unsigned)(res->counted != 0))
    return bad(ctx, "another layout of its states");
  if ((size_t)nv > sizeof vals / sizeof vals[0])
    return bad(ctx, "another layout of its states");
  {
    unsigned bh = get_u8(r);
    if (bh > 1)
      return bad(ctx, "a malformed flag");
    res->bound_hit = (int)bh;
  }
  res->pos = get_u64(r);
  res->neg = get_u64(r);
  res->partial = get_i32(r);
  wn = (uint32_t)get_le(r, 4);
  ws = take(r, wn);
  if (r->bad)
    return bad(ctx, "a truncated header");
  if (res->partial > 0 || (res->partial == 0 && wn > 0) ||
      (wn > 0 && memchr(ws, '\0', wn) != NULL))
    return bad(ctx, "a malformed stop");
  if (res->partial != 0) {
    res->why = wl__strndup(ctx, (const char *)ws, wn);
    if (res->why == NULL)
      return wl__err(ctx, WL_ENOMEM, "out of memory");
  }
  res->race_checked = (int)get_u8(r);
  res->race_found = (int)get_u8(r);
  if (res->race_checked > 1 || res->race_found > 1 ||
      !get_race(r, t, res->race_found, &res->race))
    return bad(ctx, "a malformed race");
  res->hang_checked = (int)get_u8(r);
  res->hang_found = (int)get_u8(r);
  if (res->hang_checked > 1 || res->hang_found > 1 ||
      !get_hang(r, t, res->hang_found, &res->hang))
    return bad(ctx, "a malformed hang");
  ns = get_u64(r);
  /* each state takes at least 13 bytes: no more than the buffer holds */
  if (r->bad || ns > (r->n - r->at) / 13)
    return bad(ctx, "a truncated state list");
  for (s = 0; s < ns; s++) {
    wl_state st;
    unsigned sat = get_u8(r);
    int nwit;
    memset(&st, 0, sizeof st);
    st.count = get_u64(r);
    for (v = 0; v < nv; v++)
      vals[v] = (int64_t)get_u64(r);
    nwit = get_i32(r);
    if (r->bad || sat > 1 || !in(nwit, 0, WL_MAX_EVENTS + 1) ||
        (size_t)nwit > (r->n - r->at) / WIT_BYTES ||
        !get_wit(r, t, wit, nwit))
      return bad(ctx, "a truncated or malformed state");
    st.vals = vals;
    st.sat = (int)sat;
    st.wit = wit;
    st.nwit = nwit;
    if (wl__result_find(res, vals) >= 0)
      return bad(ctx, "a state given twice");
    if (wl__result_add(ctx, res, &st) != 0)
      return wl__err(ctx, WL_ENOMEM, "out of memory");
  }
  if (r->at != r->n)
    return bad(ctx, "bytes after the last state");
  wl__xp_set_verdict(res);
  return 0;
}

int wl_result_unpack(wl_ctx *ctx, const wl_explorer *e, const void *buf,
                     size_t len, wl_result **out) {
  rbuf r;
  wl_result *res;
  int rc;
  if (out != NULL)
    *out = NULL;
  if (ctx == NULL || e == NULL || out == NULL || (buf == NULL && len > 0))
    return WL_EINVAL;
  r.p = buf;
  r.n = len;
  r.at = 0;
  r.bad = 0;
  res = wl__result_like(ctx, wl__explorer_template(e));
  if (res == NULL)
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  if ((rc = unpack_into(ctx, res, &r)) != 0) {
    wl_result_free(res);
    return rc;
  }
  *out = res;
  return 0;
}
