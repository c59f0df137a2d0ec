/* test_cost.c -- the guess of an exploration's cost
 * (engine/model/cost.c): spin loops before everything else, more reads
 * and more writes to a location cost more, the unroll bound counts. */
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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_order),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
