/* test_cost.c -- the guess of an exploration's cost
 * (engine/model/cost.c): spin loops before everything else, more reads
 * and more writes to a location cost more, the unroll bound counts; and
 * the text's loop check never misses a loop. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../engine/warplab.h"

static const char mp[] =
    "PTX MP\n{ x=0; y=0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
    " st.weak x, 1 | ld.weak r0, y ;\n"
    " st.weak y, 1 | ld.weak r1, x ;\n"
    "exists (1:r0=1 /\\ 1:r1=0)\n";

/* MP with a third read, and a third write to x */
static const char mp3[] =
    "PTX MP3\n{ x=0; y=0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
    " st.weak x, 1 | ld.weak r0, y ;\n"
    " st.weak y, 1 | ld.weak r1, x ;\n"
    " st.weak x, 2 | ld.weak r2, x ;\n"
    "exists (1:r0=1 /\\ 1:r1=0)\n";

/* a spin loop on a flag */
static const char spin[] =
    "PTX spin\n{ f=0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
    " LC00: | st.relaxed.gpu f, 1 ;\n"
    " ld.relaxed.gpu r0, f | ;\n"
    " beq r0, 0, LC00 | ;\n"
    "exists (0:r0=1)\n";

/* a forward branch (a generated test's kind: gen --random) */
static const char fwd[] =
    "PTX fwd\n{ x=0; y=0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
    " st.release.sys x, 1 | atom.cas r0, y, 0, 1 ;\n"
    " ld.weak r1, y | bne r0, 1, LC10 ;\n"
    " | ld.acquire.gpu r1, y ;\n"
    " | LC10: ;\n"
    " | st.weak y, 2 ;\n"
    "exists (1:r0=1)\n";

/* a loop whose label has a blank before its ':' and a tab after, in
 * lines that end in CR LF */
static const char spin_ws[] =
    "PTX spin_ws\r\n{ f=0; }\r\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\r\n"
    " st.relaxed.gpu f, 1 | L_1 :\t ;\r\n"
    " | ld.relaxed.gpu r0, f ;\r\n"
    " | bne r0, 1, L_1 ;\r\n"
    "exists (1:r0=1)\r\n";

/* a loop whose label's cell has comments after the ':', as the reader
 * allows */
static const char spin_cmt[] =
    "PTX spin_cmt\n{ f=0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
    " st.relaxed.gpu f, 1 | LC00: (* top *) ;\n"
    " | ld.relaxed.gpu r0, f // the flag\n ;\n"
    " | bne r0, 1, LC00 ;\n"
    "exists (1:r0=1)\n";

/* forward branches in both threads to labels of the same name: P1's
 * label comes before P0's branch in the text, so the text says "may"
 * (a false alarm: the guess then parses it) */
static const char twin[] =
    "PTX twin\n{ x=0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
    " ld.weak r0, x | bne r1, 0, L ;\n"
    " st.weak x, 1 | L: ;\n"
    " bne r0, 0, L | st.weak x, 2 ;\n"
    " L: | ;\n"
    "exists (0:r0=1)\n";

static uint64_t cost_of(const char *src, int unroll) {
  wl_ctx *ctx;
  wl_litmus *t;
  uint64_t c;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  if (wl_litmus_parse(ctx, "t.litmus", src, strlen(src), &t) != 0)
    fail_msg("%s", wl_ctx_errmsg(ctx));
  c = wl_litmus_cost(t, unroll);
  wl_litmus_free(t);
  wl_ctx_free(ctx);
  return c;
}

static void test_order(void **state) {
  uint64_t a = cost_of(mp, 4), b = cost_of(mp3, 4), l = cost_of(spin, 4);
  (void)state;
  assert_true(a > 0);
  assert_true(b > a);                  /* more reads, more writes */
  assert_true(l > ((uint64_t)1 << 32)); /* a spin loop: above them all */
  assert_true(a < ((uint64_t)1 << 32) && b < ((uint64_t)1 << 32));
  assert_true(cost_of(spin, 8) > l);    /* more trips */
  assert_true(cost_of(mp, 8) == a);     /* no loop: the bound is moot */
  assert_true(wl_litmus_cost(NULL, 4) == 0);
}

/* The text's loop check against the parsed program's: never "no loop"
 * for a test with one (its guess would lose its spin-loop weight). */
static void test_text_loop(void **state) {
  static const char *const loops[] = {spin, spin_ws, spin_cmt};
  static const char *const none[] = {mp, mp3, fwd};
  size_t k;
  (void)state;
  for (k = 0; k < sizeof loops / sizeof *loops; k++) {
    assert_true(cost_of(loops[k], 4) > ((uint64_t)1 << 32));
    assert_int_equal(wl_litmus_text_may_loop(loops[k], strlen(loops[k])), 1);
  }
  for (k = 0; k < sizeof none / sizeof *none; k++) {
    assert_true(cost_of(none[k], 4) < ((uint64_t)1 << 32));
    assert_int_equal(wl_litmus_text_may_loop(none[k], strlen(none[k])), 0);
  }
  /* a false alarm is allowed, and this one is raised */
  assert_true(cost_of(twin, 4) < ((uint64_t)1 << 32));
  assert_int_equal(wl_litmus_text_may_loop(twin, strlen(twin)), 1);
  /* the text ends at len: the label's use past it is not seen */
  assert_int_equal(wl_litmus_text_may_loop(spin, strstr(spin, "beq") -
                                                     spin), 0);
  assert_int_equal(wl_litmus_text_may_loop("", 0), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_order),
      cmocka_unit_test(test_text_loop),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
