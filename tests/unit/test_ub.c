/* test_ub.c -- data races and hangs in the explorer (engine/model/
 * datarace.c, liveness.c, bardiv.c, findings.c): exact findings on small
 * tests, the not-searched cases, the text and JSON, and the
 * allocation-failure sweep of an exploration that searches both. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../engine/warplab.h"
#include "faulty.h"
#include "sink.h"

static wl_result *explore_text(wl_ctx *ctx, const char *src, int no_checks,
                               wl_litmus **t) {
  wl_explore_opts o;
  wl_result *r = NULL;
  memset(&o, 0, sizeof o);
  o.no_checks = no_checks;
  assert_int_equal(wl_litmus_parse(ctx, "t.litmus", src, strlen(src), t), 0);
  assert_int_equal(wl_explore(ctx, *t, &o, &r), 0);
  return r;
}

static const char mp_weak[] =
    "PTX MP\n{ x=0; y=0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
    " st.weak x, 1   | ld.weak r0, y ;\n"
    " st.weak y, 1   | ld.weak r1, x ;\n"
    "exists (1:r0=1 /\\ 1:r1=0)\n";

static const char sb_rlx[] =
    "PTX SB\n{ x=0; y=0; }\n"
    " P0@cta 0,gpu 0      | P1@cta 1,gpu 0 ;\n"
    " st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 ;\n"
    " ld.relaxed.gpu r0, y | ld.relaxed.gpu r1, x ;\n"
    "exists (0:r0=0 /\\ 1:r1=0)\n";

static const char spin_reset[] =
    "PTX spin\n{ f=0; }\n"
    " P0@cta 0,gpu 0      | P1@cta 1,gpu 0 ;\n"
    " st.relaxed.gpu f, 1 | LC0: ;\n"
    " st.relaxed.gpu f, 0 | ld.relaxed.gpu r0, f ;\n"
    "                     | beq r0, 0, LC0 ;\n"
    "exists (1:r0=1)\n";

static const char spin_ok[] =
    "PTX spinok\n{ f=0; }\n"
    " P0@cta 0,gpu 0      | P1@cta 1,gpu 0 ;\n"
    " st.relaxed.gpu f, 1 | LC0: ;\n"
    "                     | ld.relaxed.gpu r0, f ;\n"
    "                     | beq r0, 0, LC0 ;\n"
    "exists (1:r0=1)\n";

static void test_race_mp(void **state) {
  wl_ctx *ctx;
  wl_litmus *t;
  wl_result *r;
  wl_race_info ri;
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  r = explore_text(ctx, mp_weak, 0, &t);
  assert_int_equal(wl_result_race(r, &ri), 1);
  assert_int_equal(wl_result_race(r, NULL), 1);
  /* the first pair in event order: x's store (P0) and load (P1) */
  assert_string_equal(wl_litmus_location_name(t, ri.loc), "x");
  assert_int_equal(ri.a[0].thread, 0);
  assert_int_equal(ri.a[0].kind, 'W');
  assert_int_equal(ri.a[0].line, 4);
  assert_int_equal(ri.a[1].thread, 1);
  assert_int_equal(ri.a[1].kind, 'R');
  assert_int_equal(ri.a[1].line, 5);
  assert_int_equal(ri.a[1].index, 1);
  assert_int_equal(wl_result_hang(r, NULL), 0);
  assert_int_equal(wl_result_nfindings(r), 1);
  wl_result_free(r);
  wl_litmus_free(t);
  /* not searched: -1, and nothing counted */
  r = explore_text(ctx, mp_weak, 1, &t);
  assert_int_equal(wl_result_race(r, &ri), -1);
  assert_int_equal(wl_result_hang(r, NULL), -1);
  assert_int_equal(wl_result_nfindings(r), 0);
  wl_result_free(r);
  wl_litmus_free(t);
  assert_int_equal(wl_result_race(NULL, NULL), -1);
  wl_ctx_free(ctx);
}

static void test_no_race_strong(void **state) {
  wl_ctx *ctx;
  wl_litmus *t;
  wl_result *r;
  sbuf s = {0};
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  r = explore_text(ctx, sb_rlx, 0, &t);
  assert_int_equal(wl_result_race(r, NULL), 0);
  assert_int_equal(wl_result_hang(r, NULL), 0);
  assert_int_equal(wl_result_write_findings(r, sbuf_write, &s), 0);
  assert_true(s.n == 0); /* nothing to say */
  free(s.p);
  memset(&s, 0, sizeof s);
  assert_int_equal(wl_result_write_json(r, 0, sbuf_write, &s), 0);
  assert_non_null(strstr(s.p, "\"race\": false,\n  \"hang\": false}"));
  free(s.p);
  memset(&s, 0, sizeof s);
  wl_result_free(r);
  wl_litmus_free(t);
  wl_ctx_free(ctx);
}

static void test_hang_spin(void **state) {
  wl_ctx *ctx;
  wl_litmus *t;
  wl_result *r;
  wl_hang_info h;
  sbuf s = {0};
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  r = explore_text(ctx, spin_reset, 0, &t);
  assert_int_equal(wl_result_hang(r, &h), 1);
  assert_int_equal(h.kind, WL_HANG_SPIN);
  assert_int_equal(h.thread, 1);
  assert_int_equal(h.line, 4); /* the loop head LC0 */
  assert_int_equal(h.nreads, 1);
  assert_int_equal(h.value[0], 0);
  assert_int_equal(h.nthreads, 2);
  assert_int_equal(h.status[0], 0);
  assert_int_equal(h.status[1], 1);
  assert_int_equal(wl_result_race(r, NULL), 0); /* all morally strong */
  assert_int_equal(wl_result_write_findings(r, sbuf_write, &s), 0);
  assert_non_null(strstr(s.p, "Hang spin: t.litmus:4: thread P1 can spin "
                              "forever in the loop of this line, reading "
                              "f=0 (the last values written); P0 ends "
                              "(liveness violation)\n"));
  free(s.p);
  memset(&s, 0, sizeof s);
  wl_result_free(r);
  wl_litmus_free(t);
  /* without the reset the last write is 1, which ends the loop */
  r = explore_text(ctx, spin_ok, 0, &t);
  assert_int_equal(wl_result_hang(r, NULL), 0);
  wl_result_free(r);
  wl_litmus_free(t);
  wl_ctx_free(ctx);
}

/* Every allocation of an exploration that finds a race and a hang may
 * fail: WL_ENOMEM or success, never a crash or a leak (faulty.h). */
static void test_alloc_sweep(void **state) {
  int k, ok = 0;
  (void)state;
  for (k = 1; k < 4000 && !ok; k++) {
    faulty fa = {0};
    wl_config cfg = {faulty_alloc, NULL};
    wl_ctx *ctx;
    wl_litmus *t = NULL;
    wl_result *r = NULL;
    int rc;
    fa.fail_at = k;
    cfg.alloc_ud = &fa;
    if (wl_ctx_new(&cfg, &ctx) != 0)
      continue;
    rc = wl_litmus_parse(ctx, "t.litmus", spin_reset, strlen(spin_reset), &t);
    if (rc == 0)
      rc = wl_explore(ctx, t, NULL, &r);
    assert_true(rc == 0 || rc == WL_ENOMEM);
    if (rc == 0) {
      assert_int_equal(wl_result_hang(r, NULL), 1);
      ok = !fa.failed;
    }
    wl_result_free(r);
    wl_litmus_free(t);
    wl_ctx_free(ctx);
    assert_int_equal(fa.live, 0);
    assert_int_equal(fa.blocks, 0);
    assert_int_equal(fa.bad, 0);
  }
  assert_true(ok);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_race_mp),
      cmocka_unit_test(test_no_race_strong),
      cmocka_unit_test(test_hang_spin),
      cmocka_unit_test(test_alloc_sweep),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
