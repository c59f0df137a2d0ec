/* test_graph.c -- execution graphs (model/graph.c: wl_result_write_dot)
 * and why-not explanations (model/whynot.c: wl_whynot_*): MP across
 * CTAs with fence.sc.cta (allowed; the witness graph highlights the
 * cycle with its fr edge) and with fence.sc.gpu (forbidden by
 * axiom-Causality), a test no candidate reaches, bad arguments, and
 * every allocation failure of an explanation. */
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

static const char *mp_cta =
    "PTX MP+cta\n{ x=0; y=0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
    " st.weak x, 1 | ld.relaxed.gpu r0, y ;\n"
    " fence.sc.cta | fence.sc.cta ;\n"
    " st.relaxed.gpu y, 1 | ld.weak r1, x ;\n"
    "exists (1:r0=1 /\\ 1:r1=0)\n";
static const char *mp_gpu =
    "PTX MP+gpu\n{ x=0; y=0; }\n"
    " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
    " st.weak x, 1 | ld.relaxed.gpu r0, y ;\n"
    " fence.sc.gpu | fence.sc.gpu ;\n"
    " st.relaxed.gpu y, 1 | ld.weak r1, x ;\n"
    "exists (1:r0=1 /\\ 1:r1=0)\n";
/* r0 can only be 0 or 1: no candidate reaches r0 == 2 */
static const char *never =
    "PTX Never\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
    " st.weak x, 1 | ld.weak r0, x ;\nexists (1:r0=2)\n";

typedef struct text {
  char buf[65536];
  size_t n;
} text;

static int put(void *ud, const char *s, size_t n) {
  text *t = ud;
  if (t->n + n + 1 > sizeof t->buf)
    return 1;
  memcpy(t->buf + t->n, s, n);
  t->n += n;
  t->buf[t->n] = '\0';
  return 0;
}

static void model_path(char *buf, size_t n) {
  const char *env = getenv("WARPLAB_SHARED");
  snprintf(buf, n, "%s/spec/ptx-v6.0-isa.cat", env ? env : "../shared");
}

static wl_litmus *parse(wl_ctx *ctx, const char *src) {
  wl_litmus *t = NULL;
  int r = wl_litmus_parse(ctx, "t.litmus", src, strlen(src), &t);
  if (r != 0)
    fail_msg("%s", wl_ctx_errmsg(ctx));
  return t;
}

static void test_witness_graph(void **state) {
  wl_ctx *ctx;
  wl_litmus *t;
  wl_result *r;
  size_t s, hit = (size_t)-1;
  text *out = calloc(1, sizeof *out);
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  t = parse(ctx, mp_cta);
  assert_int_equal(wl_explore(ctx, t, NULL, &r), 0);
  assert_int_equal(wl_result_verdict(r), 1);
  for (s = 0; s < wl_result_nstates(r); s++)
    if (wl_result_state_sat(r, s))
      hit = s;
  assert_true(hit != (size_t)-1);
  assert_int_equal(wl_result_write_dot(r, hit, put, out), 0);
  assert_non_null(strstr(out->buf, "digraph execution"));
  assert_non_null(strstr(out->buf, "subgraph P1 {"));
  /* the threads in order: P0 left of P1 (a flat edge on one rank) */
  assert_non_null(strstr(out->buf, "P0 -> P1 [style=invis]"));
  assert_non_null(strstr(out->buf, "{ rank=same; P0; P1; }"));
  assert_non_null(strstr(out->buf, "ld.weak r1, x = 0"));
  /* the cycle: W x -po-> F -po-> W y -rf-> R y -po-> F -po-> R x -fr-> */
  assert_non_null(strstr(out->buf, "id=\"hl_fr_h_c\""));
  assert_non_null(strstr(out->buf, "id=\"hl_rf_e_f\""));
  assert_non_null(strstr(out->buf, "id=\"hl_po_c_d\""));
  assert_int_equal(wl_result_write_dot(r, 99, put, out), WL_EINVAL);
  assert_int_equal(wl_result_write_dot(NULL, 0, put, out), WL_EINVAL);
  /* a writer that stops */
  out->n = sizeof out->buf;
  assert_int_equal(wl_result_write_dot(r, hit, put, out), WL_EIO);
  wl_result_free(r);
  wl_litmus_free(t);
  wl_ctx_free(ctx);
  free(out);
}

static void test_whynot(void **state) {
  wl_ctx *ctx;
  wl_litmus *t, *t2, *t3;
  wl_model *m;
  wl_whynot *w;
  char path[1024];
  text *out = calloc(1, sizeof *out);
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  model_path(path, sizeof path);
  if (wl_model_load(ctx, path, &m) != 0)
    fail_msg("%s (set WARPLAB_SHARED)", wl_ctx_errmsg(ctx));
  t = parse(ctx, mp_gpu);
  assert_int_equal(wl_whynot_explain(ctx, t, m, 0, &w), 0);
  assert_int_equal(wl_whynot_status(w), WL_WHYNOT_FORBIDDEN);
  assert_string_equal(wl_whynot_check(w), "axiom-Causality");
  assert_int_equal(wl_whynot_write_text(w, put, out), 0);
  assert_non_null(strstr(out->buf, "forbidden by axiom-Causality"));
  assert_non_null(strstr(out->buf, "h -fr-> c -po-> d -sc-> g -po-> h"));
  out->n = 0;
  assert_int_equal(wl_whynot_write_dot(w, put, out), 0);
  assert_non_null(strstr(out->buf, "id=\"hl_sc_d_g\""));
  out->n = 0;
  assert_int_equal(wl_whynot_write_json(w, put, out), 0);
  assert_non_null(strstr(out->buf, "\"status\": \"forbidden\""));
  assert_non_null(strstr(out->buf, "\"check_kind\": \"irreflexive\""));
  wl_whynot_free(w);
  /* allowed: nothing to explain, no graph */
  t2 = parse(ctx, mp_cta);
  assert_int_equal(wl_whynot_explain(ctx, t2, m, 0, &w), 0);
  assert_int_equal(wl_whynot_status(w), WL_WHYNOT_ALLOWED);
  assert_null(wl_whynot_check(w));
  assert_int_equal(wl_whynot_write_dot(w, put, out), WL_EINVAL);
  wl_whynot_free(w);
  /* no candidate reaches it */
  t3 = parse(ctx, never);
  assert_int_equal(wl_whynot_explain(ctx, t3, m, 0, &w), 0);
  assert_int_equal(wl_whynot_status(w), WL_WHYNOT_NO_CANDIDATE);
  out->n = 0;
  assert_int_equal(wl_whynot_write_text(w, put, out), 0);
  assert_non_null(strstr(out->buf, "no candidate execution"));
  wl_whynot_free(w);
  /* arguments */
  assert_int_equal(wl_whynot_explain(ctx, NULL, m, 0, &w), WL_EINVAL);
  assert_int_equal(wl_whynot_explain(ctx, t, NULL, 0, &w), WL_EINVAL);
  assert_int_equal(wl_whynot_explain(ctx, t, m, -1, &w), WL_EINVAL);
  assert_null(w);
  wl_whynot_free(NULL);
  wl_litmus_free(t);
  wl_litmus_free(t2);
  wl_litmus_free(t3);
  wl_model_free(m);
  wl_ctx_free(ctx);
  free(out);
}

/* Every allocation of an explanation may fail: the call returns
 * WL_ENOMEM (or, where the engine degrades, the same explanation) and
 * nothing is held. */
static void test_whynot_nomem(void **state) {
  char path[1024];
  long k;
  (void)state;
  model_path(path, sizeof path);
  for (k = 1;; k++) {
    faulty fa;
    wl_config cfg;
    wl_ctx *ctx;
    wl_litmus *t;
    wl_model *m;
    wl_whynot *w = NULL;
    int r;
    memset(&fa, 0, sizeof fa);
    cfg.alloc = faulty_alloc;
    cfg.alloc_ud = &fa;
    assert_int_equal(wl_ctx_new(&cfg, &ctx), 0);
    assert_int_equal(wl_model_load(ctx, path, &m), 0);
    t = parse(ctx, mp_gpu);
    fa.fail_at = fa.calls + k;
    r = wl_whynot_explain(ctx, t, m, 0, &w);
    if (!fa.failed) {
      assert_int_equal(r, 0);
      wl_whynot_free(w);
      wl_litmus_free(t);
      wl_model_free(m);
      wl_ctx_free(ctx);
      assert_int_equal(fa.blocks, 0);
      break;
    }
    /* the cat evaluator's pruning degrades to none when its scratch
     * cannot be allocated (cand.c): the explanation still succeeds */
    if (r == 0) {
      assert_int_equal(wl_whynot_status(w), WL_WHYNOT_FORBIDDEN);
      wl_whynot_free(w);
    } else {
      assert_int_equal(r, WL_ENOMEM);
      assert_null(w);
    }
    wl_litmus_free(t);
    wl_model_free(m);
    wl_ctx_free(ctx);
    assert_int_equal(fa.blocks, 0);
    assert_false(fa.bad);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_witness_graph),
      cmocka_unit_test(test_whynot),
      cmocka_unit_test(test_whynot_nomem),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
