/* test_result_pack.c -- a split exploration's unit results as bytes
 * (wl_result_pack, wl_result_unpack), as the ranks of an MPI exploration
 * send them: every unit run on one explorer, packed, unpacked against a
 * second explorer prepared from a second parse of the text (another
 * process's), and merged in unit order, is wl_explore's result on that
 * parse -- its JSON (states, verdict, counts, race, hang) and every
 * witness as DOT, text for text, with and without observed-only states,
 * counting executions or not, and a partial unit's stop; every
 * malformed buffer (each truncation, another exploration's, an index out
 * of range, a state twice, bytes after the end) is refused with a
 * message; every allocation failure is WL_ENOMEM, nothing leaked. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../engine/warplab.h"
#include "faulty.h"
#include "sink.h"

/* weak message passing across CTAs: a data race, four states */
static const char mp_src[] = "PTX MP\n"
                             "{ x=0; y=0; }\n"
                             " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
                             " st.weak x, 1   | ld.weak r1, y  ;\n"
                             " st.weak y, 1   | ld.weak r2, x  ;\n"
                             "exists (P1:r1 == 1 /\\ P1:r2 == 0)\n";

/* the 3-block last-block-done reduction (bench/lastblock.awk -v n=3):
 * a branch on the ticket, so the search splits into several units */
static const char add_src[] =
    "PTX lastblock_3\n"
    "{ ticket=0; sum=0; p0=0; p1=0; p2=0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 ;\n"
    " st.weak p0, 1 | st.weak p1, 1 | st.weak p2, 1 ;\n"
    " fence.sc.gpu | fence.sc.gpu | fence.sc.gpu ;\n"
    " atom.relaxed.gpu.inc r0, ticket, 2 | atom.relaxed.gpu.inc r0, ticket, 2 | atom.relaxed.gpu.inc r0, ticket, 2 ;\n"
    " bne r0, 2, LC09 | bne r0, 2, LC19 | bne r0, 2, LC29 ;\n"
    " fence.sc.gpu | fence.sc.gpu | fence.sc.gpu ;\n"
    " mov r1, 0 | mov r1, 0 | mov r1, 0 ;\n"
    " ld.weak r2, p0 | ld.weak r2, p0 | ld.weak r2, p0 ;\n"
    " add r1, r1, r2 | add r1, r1, r2 | add r1, r1, r2 ;\n"
    " ld.weak r2, p1 | ld.weak r2, p1 | ld.weak r2, p1 ;\n"
    " add r1, r1, r2 | add r1, r1, r2 | add r1, r1, r2 ;\n"
    " ld.weak r2, p2 | ld.weak r2, p2 | ld.weak r2, p2 ;\n"
    " add r1, r1, r2 | add r1, r1, r2 | add r1, r1, r2 ;\n"
    " st.weak sum, r1 | st.weak sum, r1 | st.weak sum, r1 ;\n"
    " LC09: | LC19: | LC29: ;\n"
    "exists (sum != 3)\n";

typedef struct fixture {
  wl_ctx *ctx;
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  if (f == NULL || wl_ctx_new(NULL, &f->ctx) != 0) {
    free(f);
    return -1;
  }
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  wl_ctx_free(f->ctx);
  free(f);
  return 0;
}

static wl_litmus *parse(wl_ctx *ctx, const char *src) {
  wl_litmus *t = NULL;
  assert_int_equal(wl_litmus_parse(ctx, "t.litmus", src, strlen(src), &t), 0);
  return t;
}

/* The JSON and every state's witness as DOT: what must cross intact. */
static char *text_of(const wl_result *r) {
  sbuf b = {NULL, 0, 0, 0, 0};
  size_t s;
  assert_int_equal(wl_result_write_json(r, 0.0, sbuf_write, &b), 0);
  for (s = 0; s < wl_result_nstates(r); s++)
    assert_int_equal(wl_result_write_dot(r, s, sbuf_write, &b), 0);
  return b.p;
}

/* Units on e (of t) packed, unpacked against e2 (of u), merged. */
static wl_result *through_bytes(wl_ctx *ctx, wl_explorer *e, wl_explorer *e2) {
  wl_result *acc = NULL;
  size_t k, n = wl_explorer_units(e);
  assert_int_equal(wl_explorer_units(e2), n);
  for (k = 0; k < n; k++) {
    wl_result *part = NULL, *back = NULL;
    void *buf = NULL;
    size_t len = 0;
    /* known: what the units before found, as a driver gives it */
    assert_int_equal(wl_explore_unit(e, k, NULL, &part), 0);
    assert_int_equal(wl_result_pack(part, &buf, &len), 0);
    assert_true(len > 0);
    assert_int_equal(wl_result_unpack(ctx, e2, buf, len, &back), 0);
    assert_int_equal(wl_result_nstates(back), wl_result_nstates(part));
    assert_int_equal(wl_explore_merge(ctx, &acc, back), 0);
    wl_result_free(part);
    wl_result_free(back);
    free(buf);
  }
  return acc;
}

static void round_trip(fixture *f, const char *src, int observed_only,
                       int count, size_t min_units) {
  wl_litmus *t = parse(f->ctx, src), *u = parse(f->ctx, src);
  wl_explore_opts o;
  wl_explorer *e = NULL, *e2 = NULL;
  wl_result *whole = NULL, *acc;
  char *x, *y;
  memset(&o, 0, sizeof o);
  o.observed_only = observed_only;
  o.count_executions = count;
  assert_int_equal(wl_explore(f->ctx, u, &o, &whole), 0);
  assert_int_equal(wl_explore_split(f->ctx, t, &o, &e), 0);
  assert_int_equal(wl_explore_split(f->ctx, u, &o, &e2), 0);
  assert_true(wl_explorer_units(e) >= min_units);
  acc = through_bytes(f->ctx, e, e2);
  x = text_of(whole);
  y = text_of(acc);
  assert_string_equal(x, y);
  assert_int_equal(wl_result_race(acc, NULL), wl_result_race(whole, NULL));
  free(x);
  free(y);
  wl_result_free(whole);
  wl_result_free(acc);
  wl_explorer_free(e);
  wl_explorer_free(e2);
  wl_litmus_free(t);
  wl_litmus_free(u);
}

static void test_round_trip(void **state) {
  fixture *f = *state;
  int obs, count;
  for (obs = 0; obs <= 1; obs++)
    for (count = 0; count <= 1; count++) {
      round_trip(f, mp_src, obs, count, 1);
      round_trip(f, add_src, obs, count, 2);
    }
}

/* A race found crosses: MP's weak accesses race. */
static void test_race_crosses(void **state) {
  fixture *f = *state;
  wl_litmus *t = parse(f->ctx, mp_src);
  wl_explorer *e = NULL;
  wl_result *part = NULL, *back = NULL;
  wl_race_info a, b;
  void *buf = NULL;
  size_t len = 0;
  assert_int_equal(wl_explore_split(f->ctx, t, NULL, &e), 0);
  assert_int_equal(wl_explorer_units(e), 1);
  assert_int_equal(wl_explore_unit(e, 0, NULL, &part), 0);
  assert_int_equal(wl_result_race(part, &a), 1);
  assert_int_equal(wl_result_pack(part, &buf, &len), 0);
  assert_int_equal(wl_result_unpack(f->ctx, e, buf, len, &back), 0);
  assert_int_equal(wl_result_race(back, &b), 1);
  assert_memory_equal(&a, &b, sizeof a);
  free(buf);
  wl_result_free(part);
  wl_result_free(back);
  wl_explorer_free(e);
  wl_litmus_free(t);
}

/* A partial unit's stop and reason cross. */
static void test_partial_crosses(void **state) {
  fixture *f = *state;
  wl_litmus *t = parse(f->ctx, add_src);
  wl_explorer *e = NULL;
  wl_result *part = NULL, *back = NULL;
  const char *why = NULL;
  void *buf = NULL;
  size_t len = 0;
  assert_int_equal(wl_explore_split(f->ctx, t, NULL, &e), 0);
  assert_int_equal(wl_explore_unit(e, 0, NULL, &part), 0);
  assert_int_equal(wl_result_mark_partial(part, WL_ESTOPPED, "stopped here"),
                   0);
  assert_int_equal(wl_result_pack(part, &buf, &len), 0);
  assert_int_equal(wl_result_unpack(f->ctx, e, buf, len, &back), 0);
  assert_int_equal(wl_result_partial(back, &why), WL_ESTOPPED);
  assert_string_equal(why, "stopped here");
  free(buf);
  wl_result_free(part);
  wl_result_free(back);
  wl_explorer_free(e);
  wl_litmus_free(t);
}

/* The first unit's result with two states or more. */
static wl_result *rich_unit(wl_explorer *e) {
  size_t k;
  for (k = 0; k < wl_explorer_units(e); k++) {
    wl_result *part = NULL;
    assert_int_equal(wl_explore_unit(e, k, NULL, &part), 0);
    if (wl_result_nstates(part) >= 2)
      return part;
    wl_result_free(part);
  }
  fail_msg("no unit with two states");
  return NULL;
}

static void refused(fixture *f, const wl_explorer *e, const void *buf,
                    size_t len, const char *why) {
  wl_result *r = (wl_result *)buf; /* set to NULL by the failing call */
  if (wl_result_unpack(f->ctx, e, buf, len, &r) != WL_EINVAL)
    fail_msg("bytes %zu long accepted: expected '%s'", len, why);
  assert_null(r);
  if (strstr(wl_ctx_errmsg(f->ctx), why) == NULL)
    fail_msg("message '%s' lacks '%s'", wl_ctx_errmsg(f->ctx), why);
}

static void test_bad_bytes(void **state) {
  fixture *f = *state;
  wl_litmus *t = parse(f->ctx, add_src), *mp = parse(f->ctx, mp_src);
  wl_explore_opts o;
  wl_explorer *e = NULL, *other = NULL;
  wl_result *part = NULL, *r = NULL;
  unsigned char *buf = NULL, *bad;
  size_t len = 0, n, s0;
  memset(&o, 0, sizeof o);
  assert_int_equal(wl_explore_split(f->ctx, t, &o, &e), 0);
  assert_int_equal(wl_explore_split(f->ctx, mp, &o, &other), 0);
  part = rich_unit(e);
  assert_int_equal(wl_result_pack(part, (void **)&buf, &len), 0);
  /* every truncation */
  for (n = 0; n < len; n++)
    refused(f, e, buf, n, "not a packed result of this exploration");
  bad = malloc(len + 1);
  assert_non_null(bad);
  /* bytes after the end */
  memcpy(bad, buf, len);
  bad[len] = 0;
  refused(f, e, bad, len + 1, "bytes after the last state");
  /* another test's explorer: another layout */
  refused(f, other, buf, len, "another layout");
  /* another header */
  memcpy(bad, buf, len);
  bad[0] = 'X';
  refused(f, e, bad, len, "no WLR1 header");
  /* the states start after the fixed header: magic 4, nvals 4, nkey 4,
   * counted 1, bound 1, pos 8, neg 8, partial 4, why 4 + 0, race 2 +
   * 4 + 2 * 32, hang 2 + 4 * 3 + 8 + 4 + 8 * 12 + 4 + 64 * 8, count 8 */
  s0 = 4 + 4 + 4 + 1 + 1 + 8 + 8 + 4 + 4 + 2 + 4 + 64 + 2 + 12 + 8 + 4 +
       96 + 4 + 512 + 8;
  assert_int_equal(buf[s0 - 8], wl_result_nstates(part)); /* the count */
  /* the first state's truth not 0 or 1 */
  memcpy(bad, buf, len);
  bad[s0] = 7;
  refused(f, e, bad, len, "malformed state");
  /* the second state given as the first's values */
  {
    /* the layout's values, as the header gives them (bytes 4..7) */
    size_t nv = (size_t)buf[4] | (size_t)buf[5] << 8;
    size_t st1, w1;
    memcpy(bad, buf, len);
    /* the first state: truth 1, count 8, values, nwit 4, events */
    w1 = (size_t)bad[s0 + 9 + nv * 8] |
         (size_t)bad[s0 + 10 + nv * 8] << 8;
    st1 = s0 + 1 + 8 + nv * 8 + 4 + w1 * 28;
    memcpy(bad + st1 + 9, buf + s0 + 9, nv * 8);
    refused(f, e, bad, len, "a state given twice");
    /* the first witness event's thread out of range */
    memcpy(bad, buf, len);
    assert_true(w1 > 0);
    bad[s0 + 1 + 8 + nv * 8 + 4] = 9;
    refused(f, e, bad, len, "malformed state");
  }
  /* the bytes themselves are still good */
  assert_int_equal(wl_result_unpack(f->ctx, e, buf, len, &r), 0);
  assert_int_equal(wl_result_nstates(r), wl_result_nstates(part));
  wl_result_free(r);
  {
    void *none = (void *)buf;
    assert_int_equal(wl_result_pack(NULL, &none, &n), WL_EINVAL);
    assert_null(none);
  }
  assert_int_equal(wl_result_unpack(f->ctx, NULL, buf, len, &r), WL_EINVAL);
  assert_null(r);
  free(bad);
  free(buf);
  wl_result_free(part);
  wl_explorer_free(e);
  wl_explorer_free(other);
  wl_litmus_free(t);
  wl_litmus_free(mp);
}

/* Every allocation of an unpacking failing in turn: WL_ENOMEM with a
 * message, nothing made, nothing leaked. */
static void test_fault_unpack(void **state) {
  wl_ctx *ctx = NULL;
  wl_litmus *t = NULL;
  wl_explorer *e = NULL;
  wl_result *part = NULL, *r = NULL;
  faulty fa;
  wl_config cfg;
  void *buf = NULL;
  size_t len = 0, ns;
  long k;
  int rc;
  (void)state;
  memset(&fa, 0, sizeof fa);
  memset(&cfg, 0, sizeof cfg);
  cfg.alloc = faulty_alloc;
  cfg.alloc_ud = &fa;
  assert_int_equal(wl_ctx_new(&cfg, &ctx), 0);
  t = parse(ctx, add_src);
  assert_int_equal(wl_explore_split(ctx, t, NULL, &e), 0);
  part = rich_unit(e);
  ns = wl_result_nstates(part);
  assert_true(ns > 1);
  assert_int_equal(wl_result_pack(part, &buf, &len), 0);
  wl_result_free(part);
  for (k = 1;; k++) {
    fa.failed = 0;
    fa.fail_at = fa.calls + k;
    rc = wl_result_unpack(ctx, e, buf, len, &r);
    if (!fa.failed) {
      assert_int_equal(rc, 0);
      break;
    }
    assert_int_equal(rc, WL_ENOMEM);
    assert_null(r);
    assert_true(strlen(wl_ctx_errmsg(ctx)) > 0);
  }
  fa.fail_at = 0;
  assert_true(k > 2); /* the sweep met allocations */
  assert_int_equal(wl_result_nstates(r), ns);
  free(buf);
  wl_result_free(r);
  wl_explorer_free(e);
  wl_litmus_free(t);
  wl_ctx_free(ctx);
  assert_int_equal(fa.live, 0);
  assert_false(fa.bad);
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
  const struct CMUnitTest tests[] = {
      T(test_round_trip),
      T(test_race_crosses),
      T(test_partial_crosses),
      T(test_bad_bytes),
      T(test_fault_unpack),
  };
#undef T
  return cmocka_run_group_tests(tests, NULL, NULL);
}
