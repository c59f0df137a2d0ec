/* test_cat.c -- the cat reader and its literal evaluator
 * (engine/model/cat): the shared spec files, hand-built candidate
 * executions with known verdicts, every operator, let rec, checks and
 * flags, the errors (exact "file:line:col: message"), includes, and the
 * failing allocator. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../engine/model/cat/catint.h"
#include "faulty.h"

/* ---------------------------------------------------------------- */
/* Finding the spec files                                            */

static const char *argv0 = "";

/* A path under the repository root: as given when run from the root,
 * else found from argv[0] (ROOT/build/...) or from this file's path. */
static void repo_path(char *buf, size_t n, const char *rel) {
  const char *bases[2];
  const char *end;
  FILE *probe;
  int i;
  bases[0] = argv0;
  bases[1] = __FILE__;
  snprintf(buf, n, "%s", rel);
  if ((probe = fopen(buf, "rb")) != NULL) {
    fclose(probe);
    return;
  }
  for (i = 0; i < 2; i++) {
    end = strstr(bases[i], i == 0 ? "build/" : "tests/unit/test_cat.c");
    if (end == NULL)
      continue;
    if (snprintf(buf, n, "%.*s%s", (int)(end - bases[i]), bases[i],
                 rel) >= (int)n)
      continue;
    if ((probe = fopen(buf, "rb")) != NULL) {
      fclose(probe);
      return;
    }
  }
  snprintf(buf, n, "%s", rel);
}

/* The shared folder: $WARPLAB_SHARED, else ROOT/../shared. */
static void spec_path(char *buf, size_t n, const char *file) {
  const char *env = getenv("WARPLAB_SHARED");
  char tmp[1024];
  if (env != NULL && *env != '\0') {
    snprintf(buf, n, "%s/spec/%s", env, file);
    return;
  }
  snprintf(tmp, sizeof tmp, "../shared/spec/%s", file);
  repo_path(buf, n, tmp);
}

/* ---------------------------------------------------------------- */
/* Fixture                                                           */

typedef struct fixture {
  wl_ctx *ctx;
  wl_cat *m;
  wl__cat_scratch *s;
  wl__cand c;
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

static void drop_model(fixture *f) {
  wl__cat_scratch_free(f->s);
  wl__cat_free(f->m);
  f->s = NULL;
  f->m = NULL;
}

static int teardown(void **state) {
  fixture *f = *state;
  drop_model(f);
  wl_ctx_free(f->ctx);
  free(f);
  return 0;
}

/* Reads src as model "t.cat" (replacing the fixture's model). */
static void model(fixture *f, const char *src) {
  int r;
  drop_model(f);
  r = wl__cat_parse(f->ctx, "t.cat", src, strlen(src), &f->m);
  if (r != 0)
    fail_msg("parse: %s: %s", wl_err_name(r), wl_ctx_errmsg(f->ctx));
  assert_int_equal(wl__cat_scratch_new(f->ctx, f->m, &f->s), 0);
}

static void load_spec(fixture *f, const char *file) {
  char path[1024];
  int r;
  drop_model(f);
  spec_path(path, sizeof path, file);
  r = wl__cat_load(f->ctx, path, &f->m);
  if (r != 0)
    fail_msg("%s: %s: %s (set WARPLAB_SHARED)", path, wl_err_name(r),
             wl_ctx_errmsg(f->ctx));
  assert_int_equal(wl__cat_scratch_new(f->ctx, f->m, &f->s), 0);
}

/* The parse of src must fail with WL_ESYNTAX and exactly msg. */
static void bad(fixture *f, const char *src, const char *msg) {
  wl_cat *m = NULL;
  int r = wl__cat_parse(f->ctx, "t.cat", src, strlen(src), &m);
  if (r == 0) {
    wl__cat_free(m);
    fail_msg("parsed, expected: %s", msg);
  }
  assert_null(m);
  assert_int_equal(r, WL_ESYNTAX);
  assert_string_equal(wl_ctx_errmsg(f->ctx), msg);
}

static wl__cat_out check(fixture *f) {
  wl__cat_out o;
  assert_int_equal(wl__cat_check(f->m, f->s, &f->c, &o), 0);
  return o;
}

/* ---------------------------------------------------------------- */
/* Building candidates                                               */

static const uint64_t B1 = 1;
#define BIT(i) (B1 << (i))

static void cand_clear(wl__cand *c, int n) {
  memset(c, 0, sizeof *c);
  c->n = n;
  c->set[WL_CAT_S_ALL] = n >= 64 ? ~(uint64_t)0 : BIT(n) - 1;
}

static void edge(wl__cand *c, int rel, int i, int j) {
  c->rel[rel][i] |= BIT(j);
}

/* Sets a relation from a string of pairs "0>1 2>3". */
static void rel_set(wl__cand *c, int rel, const char *pairs) {
  int i, j, k;
  memset(c->rel[rel], 0, sizeof c->rel[rel]);
  while (sscanf(pairs, " %d>%d%n", &i, &j, &k) == 2) {
    edge(c, rel, i, j);
    pairs += k;
  }
}

static void set_set(wl__cand *c, int set, uint64_t mask) {
  c->set[set] = mask;
}

/* One event of a hand-built execution: its kind, thread (-1: an initial
 * write), CTA, location (-1: none) and extra base sets. */
typedef struct ev {
  char kind; /* 'R', 'W', 'F' */
  int thread, cta, loc;
  uint64_t sets; /* BIT(WL_CAT_S_*) */
} ev;

#define S(x) BIT(WL_CAT_S_##x)

/* Everything that follows from the events: the kind sets, id, po,
 * po-loc, loc, vloc, int, ext, sr, scta; then rf and co are given and
 * fr derived (rf^-1; co minus id). */
static void cand_build(wl__cand *c, const ev *e, int n, const char *rf,
                       const char *co) {
  int i, j;
  cand_clear(c, n);
  for (i = 0; i < n; i++) {
    int k;
    c->set[e[i].kind == 'R'   ? WL_CAT_S_R
           : e[i].kind == 'W' ? WL_CAT_S_W
                              : WL_CAT_S_F] |= BIT(i);
    if (e[i].kind != 'F')
      c->set[WL_CAT_S_M] |= BIT(i);
    if (e[i].thread < 0)
      c->set[WL_CAT_S_IW] |= BIT(i);
    for (k = 0; k < WL_CAT_NSETS; k++)
      if ((e[i].sets >> k) & 1)
        c->set[k] |= BIT(i);
    edge(c, WL_CAT_R_ID, i, i);
  }
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      int same_thread = e[i].thread >= 0 && e[i].thread == e[j].thread;
      int same_loc = e[i].loc >= 0 && e[i].loc == e[j].loc;
      int scoped_i = (e[i].sets & (S(CTA) | S(GPU) | S(SYS))) != 0;
      int scoped_j = (e[j].sets & (S(CTA) | S(GPU) | S(SYS))) != 0;
      int same_cta = e[i].thread >= 0 && e[j].thread >= 0 &&
                     e[i].cta == e[j].cta;
      if (same_thread && i < j)
        edge(c, WL_CAT_R_PO, i, j);
      if (same_thread && i < j && same_loc)
        edge(c, WL_CAT_R_POLOC, i, j);
      if (same_loc) {
        edge(c, WL_CAT_R_LOC, i, j);
        edge(c, WL_CAT_R_VLOC, i, j);
      }
      if (same_thread || i == j)
        edge(c, WL_CAT_R_INT, i, j);
      else
        edge(c, WL_CAT_R_EXT, i, j);
      if (same_cta)
        edge(c, WL_CAT_R_SCTA, i, j);
      /* Same scope: each one's scope instance holds the other's thread
       * (one GPU here, so only CTA scope can leave a thread out). */
      if (scoped_i && scoped_j &&
          (!(e[i].sets & S(CTA)) || same_cta) &&
          (!(e[j].sets & S(CTA)) || same_cta))
        edge(c, WL_CAT_R_SR, i, j);
    }
  rel_set(c, WL_CAT_R_RF, rf);
  rel_set(c, WL_CAT_R_CO, co);
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      if ((c->rel[WL_CAT_R_RF][j] >> i) & 1)
        c->rel[WL_CAT_R_FR][i] |= c->rel[WL_CAT_R_CO][j] & ~BIT(i);
}

/* ---------------------------------------------------------------- */
/* The spec files                                                    */

static void test_spec_files(void **state) {
  fixture *f = *state;
  static const char *const v60[] = {
      "axiom-Coherence", "axiom-Coherence2",    "axiom-FenceSC",
      "axiom-Atomicity", "axiom-NoThinAir",     "axiom-ScPerLocation",
      "axiom-Causality"};
  int k;
  load_spec(f, "ptx-v6.0.cat");
  assert_string_equal(wl__cat_name(f->m), "PTX");
  assert_int_equal(wl__cat_nchecks(f->m), 7);
  assert_int_equal(wl__cat_nflags(f->m), 0);
  for (k = 0; k < 7; k++)
    assert_string_equal(wl__cat_check_name(f->m, k), v60[k]);
  assert_null(wl__cat_check_name(f->m, 7));
  assert_null(wl__cat_check_name(f->m, -1));
  assert_true(wl__cat_uses_rel(f->m, WL_CAT_R_SYNC_FENCE));
  assert_true(wl__cat_uses_rel(f->m, WL_CAT_R_SR));
  assert_true(wl__cat_uses_set(f->m, WL_CAT_S_SC));
  /* fr is recomputed from rf and co; vloc and the proxies are 7.5's. */
  assert_false(wl__cat_uses_rel(f->m, WL_CAT_R_FR));
  assert_false(wl__cat_uses_rel(f->m, WL_CAT_R_VLOC));
  assert_false(wl__cat_uses_set(f->m, WL_CAT_S_GEN));
  assert_false(wl__cat_uses_rel(f->m, -1));
  assert_false(wl__cat_uses_rel(f->m, WL_CAT_NRELS));

  load_spec(f, "ptx-v6.0-isa.cat");
  assert_string_equal(wl__cat_name(f->m), "PTX");
  assert_int_equal(wl__cat_nchecks(f->m), 7);
  for (k = 0; k < 7; k++)
    assert_string_equal(wl__cat_check_name(f->m, k), v60[k]);
  /* Fence-SC as the ISA words it: no [F & SC] filter. */
  assert_false(wl__cat_uses_set(f->m, WL_CAT_S_SC));

  load_spec(f, "ptx-v7.5.cat");
  assert_string_equal(wl__cat_name(f->m), "PTX");
  assert_int_equal(wl__cat_nchecks(f->m), 6);
  assert_string_equal(wl__cat_check_name(f->m, 5), "axiom-Causality");
  assert_true(wl__cat_uses_rel(f->m, WL_CAT_R_VLOC));
  assert_true(wl__cat_uses_set(f->m, WL_CAT_S_ALIAS));
  assert_true(wl__cat_uses_set(f->m, WL_CAT_S_CON));
  /* po-loc is no longer used by 7.5 (po-vloc replaces it). */
  assert_false(wl__cat_uses_rel(f->m, WL_CAT_R_POLOC));
}

/* The ASPLOS'19 port needs herd's bell file: refused at the first thing
 * this reader cannot know (a bell-defined set), not misread. */
static void test_spec_asplos_refused(void **state) {
  fixture *f = *state;
  char path[1024];
  wl_cat *m = NULL;
  spec_path(path, sizeof path, "ptx-asplos19.cat");
  assert_int_equal(wl__cat_load(f->ctx, path, &m), WL_ESYNTAX);
  assert_null(m);
  assert_non_null(strstr(wl_ctx_errmsg(f->ctx),
                         "ptx-asplos19.cat:24:12: unknown relation 'Cta'"));
  spec_path(path, sizeof path, "ptx.bell");
  assert_int_equal(wl__cat_load(f->ctx, path, &m), WL_ESYNTAX);
  assert_non_null(strstr(wl_ctx_errmsg(f->ctx),
                         "ptx.bell:5:1: 'enum' (herd's extended language) "
                         "is not supported"));
}

/* ---------------------------------------------------------------- */
/* Message passing against ptx-v6.0-isa.cat                          */

/* MP: T0 writes x then y; T1 reads y then x.  Events: 0 IW x, 1 IW y,
 * 2 W x, 3 W y (T0, CTA 0), 4 R y, 5 R x (T1, CTA 1).  stale: the read
 * of x sees the initial write although y's read saw T0's write. */
static void mp(wl__cand *c, uint64_t wy, uint64_t ry, int stale) {
  const ev e[6] = {
      {'W', -1, 0, 0, S(WEAK)}, {'W', -1, 0, 1, S(WEAK)},
      {'W', 0, 0, 0, S(WEAK)},  {'W', 0, 0, 1, wy},
      {'R', 1, 1, 1, ry},       {'R', 1, 1, 0, S(WEAK)},
  };
  cand_build(c, e, 6, stale ? "3>4 0>5" : "3>4 2>5", "0>2 1>3");
}

static void test_mp_weak(void **state) {
  fixture *f = *state;
  wl__cat_out o;
  load_spec(f, "ptx-v6.0-isa.cat");
  mp(&f->c, S(WEAK), S(WEAK), 1);
  o = check(f);
  assert_int_equal(o.consistent, 1);
  assert_int_equal(o.failed, -1);
  assert_int_equal(o.flags, 0);
  /* Relaxed but morally strong: still no synchronisation. */
  mp(&f->c, S(RLX) | S(GPU), S(RLX) | S(GPU), 1);
  assert_int_equal(check(f).consistent, 1);
}

static void test_mp_release_acquire(void **state) {
  fixture *f = *state;
  wl__cat_out o;
  load_spec(f, "ptx-v6.0-isa.cat");
  mp(&f->c, S(REL) | S(GPU), S(ACQ) | S(GPU), 1);
  o = check(f);
  assert_int_equal(o.consistent, 0);
  assert_int_equal(o.failed, 6);
  assert_string_equal(wl__cat_check_name(f->m, o.failed),
                      "axiom-Causality");
  /* The read of x sees T0's write: allowed. */
  mp(&f->c, S(REL) | S(GPU), S(ACQ) | S(GPU), 0);
  assert_int_equal(check(f).consistent, 1);
  /* CTA scope across two CTAs is not morally strong: no sync. */
  mp(&f->c, S(REL) | S(CTA), S(ACQ) | S(CTA), 1);
  assert_int_equal(check(f).consistent, 1);
  /* The original Dat3M file agrees here. */
  load_spec(f, "ptx-v6.0.cat");
  mp(&f->c, S(REL) | S(GPU), S(ACQ) | S(GPU), 1);
  o = check(f);
  assert_int_equal(o.consistent, 0);
  assert_int_equal(o.failed, 6);
}

/* MP with fence.sc.gpu between the accesses of each thread: 0 IW x, 1
 * IW y, 2 W x, 3 F, 4 W y (T0), 5 R y, 6 F, 7 R x (T1). sc_order is
 * the fence-SC order's pair. */
static void mp_fenced(wl__cand *c, const char *sc_order, int stale) {
  const uint64_t rlx = S(RLX) | S(GPU), fsc = S(SC) | S(ACQ_REL) | S(GPU);
  const ev e[8] = {
      {'W', -1, 0, 0, S(WEAK)}, {'W', -1, 0, 1, S(WEAK)},
      {'W', 0, 0, 0, S(WEAK)},  {'F', 0, 0, -1, fsc},
      {'W', 0, 0, 1, rlx},      {'R', 1, 1, 1, rlx},
      {'F', 1, 1, -1, fsc},     {'R', 1, 1, 0, S(WEAK)},
  };
  cand_build(c, e, 8, stale ? "4>5 0>7" : "4>5 2>7", "0>2 1>4");
  rel_set(c, WL_CAT_R_SYNC_FENCE, sc_order);
}

static void test_mp_fences(void **state) {
  fixture *f = *state;
  wl__cat_out o;
  load_spec(f, "ptx-v6.0-isa.cat");
  mp_fenced(&f->c, "3>6", 1);
  o = check(f);
  assert_int_equal(o.consistent, 0);
  assert_int_equal(o.failed, 6); /* Causality */
  /* The other fence-SC order closes a causality cycle through y's
   * write, which Coherence already sees (W y cause W y, not in co). */
  mp_fenced(&f->c, "6>3", 1);
  o = check(f);
  assert_int_equal(o.consistent, 0);
  assert_int_equal(o.failed, 0);
  assert_string_equal(wl__cat_check_name(f->m, 0), "axiom-Coherence");
  mp_fenced(&f->c, "3>6", 0);
  assert_int_equal(check(f).consistent, 1);
}

/* Fence-SC alone: fence.sc; bar.arrive in T0, bar.sync; fence.sc in
 * T1 (one CTA).  The barrier orders the first fence before the second,
 * so the fence-SC order must agree. */
static void test_fence_sc_barrier(void **state) {
  fixture *f = *state;
  const uint64_t fsc = S(SC) | S(ACQ_REL) | S(CTA), bar = S(B) | S(CTA);
  const ev e[4] = {
      {'F', 0, 0, -1, fsc}, {'F', 0, 0, -1, bar},
      {'F', 1, 0, -1, bar}, {'F', 1, 0, -1, fsc},
  };
  wl__cat_out o;
  load_spec(f, "ptx-v6.0-isa.cat");
  cand_build(&f->c, e, 4, "", "");
  rel_set(&f->c, WL_CAT_R_SYNCBAR, "1>2");
  rel_set(&f->c, WL_CAT_R_SYNC_FENCE, "0>3");
  assert_int_equal(check(f).consistent, 1);
  rel_set(&f->c, WL_CAT_R_SYNC_FENCE, "3>0");
  o = check(f);
  assert_int_equal(o.consistent, 0);
  assert_int_equal(o.failed, 2);
  assert_string_equal(wl__cat_check_name(f->m, 2), "axiom-FenceSC");
  /* The barrier outside the CTA relation does not synchronise. */
  rel_set(&f->c, WL_CAT_R_SCTA, "");
  assert_int_equal(check(f).consistent, 1);
}

/* The same MP under PTX 7.5: every access generic. */
static void test_mp_v75(void **state) {
  fixture *f = *state;
  int i;
  load_spec(f, "ptx-v7.5.cat");
  mp(&f->c, S(REL) | S(GPU), S(ACQ) | S(GPU), 1);
  for (i = 0; i < 6; i++)
    f->c.set[WL_CAT_S_GEN] |= BIT(i);
  assert_int_equal(check(f).consistent, 0);
  mp(&f->c, S(WEAK), S(WEAK), 1);
  for (i = 0; i < 6; i++)
    f->c.set[WL_CAT_S_GEN] |= BIT(i);
  assert_int_equal(check(f).consistent, 1);
}

/* One scratch, candidates of different sizes in turn. */
static void test_scratch_reuse(void **state) {
  fixture *f = *state;
  int round;
  load_spec(f, "ptx-v6.0-isa.cat");
  for (round = 0; round < 3; round++) {
    mp_fenced(&f->c, "3>6", 1);
    assert_int_equal(check(f).failed, 6);
    mp(&f->c, S(REL) | S(GPU), S(ACQ) | S(GPU), 0);
    assert_int_equal(check(f).consistent, 1);
    mp(&f->c, S(REL) | S(GPU), S(ACQ) | S(GPU), 1);
    assert_int_equal(check(f).failed, 6);
  }
}

/* ---------------------------------------------------------------- */
/* Operators                                                         */

/* Whether e (over the fixture's candidate) equals the relation in
 * `data` (or, for a set expression, the set SUR): compiled as two
 * emptiness checks. */
static int equals(fixture *f, const char *e, int is_set) {
  char src[1024];
  const char *ref = is_set ? "SUR" : "data";
  snprintf(src, sizeof src,
           "T\nlet e = %s\nempty e \\ %s\nempty %s \\ e\n", e, ref, ref);
  model(f, src);
  return check(f).consistent;
}

static void expect_rel(fixture *f, const char *e, const char *pairs) {
  rel_set(&f->c, WL_CAT_R_DATA, pairs);
  if (!equals(f, e, 0))
    fail_msg("%s is not {%s}", e, pairs);
}

static void expect_set(fixture *f, const char *e, uint64_t mask) {
  f->c.set[WL_CAT_S_SUR] = mask;
  if (!equals(f, e, 1))
    fail_msg("%s is not %#llx", e, (unsigned long long)mask);
}

/* Four events; po = 0>1 1>2, rf = 1>3 2>0, R = {0,1}, W = {2,3}. */
static void small(wl__cand *c) {
  int i;
  cand_clear(c, 4);
  for (i = 0; i < 4; i++)
    edge(c, WL_CAT_R_ID, i, i);
  rel_set(c, WL_CAT_R_PO, "0>1 1>2");
  rel_set(c, WL_CAT_R_RF, "1>3 2>0");
  set_set(c, WL_CAT_S_R, BIT(0) | BIT(1));
  set_set(c, WL_CAT_S_W, BIT(2) | BIT(3));
}

static void test_operators(void **state) {
  fixture *f = *state;
  small(&f->c);
  expect_rel(f, "po | rf", "0>1 1>2 1>3 2>0");
  expect_rel(f, "po & rf", "");
  expect_rel(f, "(po | rf) & rf", "1>3 2>0");
  expect_rel(f, "(po | rf) \\ po", "1>3 2>0");
  expect_rel(f, "po ; rf", "0>3 1>0");
  expect_rel(f, "rf ; po", "2>1");
  expect_rel(f, "po^-1", "1>0 2>1");
  expect_rel(f, "po+", "0>1 1>2 0>2");
  expect_rel(f, "po*", "0>1 1>2 0>2 0>0 1>1 2>2 3>3");
  expect_rel(f, "po?", "0>1 1>2 0>0 1>1 2>2 3>3");
  expect_rel(f, "(po | rf)+",
             "0>1 1>2 1>3 2>0 0>2 0>3 0>0 1>0 1>1 2>1 2>2 2>3");
  expect_rel(f, "~po",
             "0>0 0>2 0>3 1>0 1>1 1>3 2>0 2>1 2>2 2>3 3>0 3>1 3>2 3>3");
  expect_rel(f, "[R]", "0>0 1>1");
  expect_rel(f, "R * W", "0>2 0>3 1>2 1>3");
  expect_rel(f, "[R]; po", "0>1 1>2");
  expect_rel(f, "po; [W]", "1>2");
  expect_rel(f, "[R]; po; [W]", "1>2");
  expect_rel(f, "[W]; (po | rf); [R]", "2>0");
  expect_rel(f, "[R]; [W]", "");
  expect_rel(f, "[R]; [R | W]", "0>0 1>1");
  expect_rel(f, "0", "");
  expect_rel(f, "po | 0", "0>1 1>2");
  expect_rel(f, "id", "0>0 1>1 2>2 3>3");
  expect_rel(f, "_ * _ \\ id",
             "0>1 0>2 0>3 1>0 1>2 1>3 2>0 2>1 2>3 3>0 3>1 3>2");
  expect_rel(f, "[_]", "0>0 1>1 2>2 3>3");
  /* Sets. */
  expect_set(f, "R | W", 0xf);
  expect_set(f, "(R | W) & W", BIT(2) | BIT(3));
  expect_set(f, "_ \\ R", BIT(2) | BIT(3));
  expect_set(f, "~R", BIT(2) | BIT(3));
  expect_set(f, "~_", 0);
  expect_set(f, "domain(po)", BIT(0) | BIT(1));
  expect_set(f, "range(po)", BIT(1) | BIT(2));
  expect_set(f, "domain(rf) & range(rf)", 0);
  expect_set(f, "domain(rf) & range(po)", BIT(1) | BIT(2));
  expect_set(f, "R | 0", BIT(0) | BIT(1));
  expect_set(f, "0 | 0 | W", BIT(2) | BIT(3));
  expect_set(f, "domain([W])", BIT(2) | BIT(3));
}

/* herd's precedence: | loosest, then ;, then \, then &, then the
 * cartesian *, then ~, then the postfix operators. */
static void test_precedence(void **state) {
  fixture *f = *state;
  small(&f->c);
  /* po | rf; po = po | (rf; po) */
  expect_rel(f, "po | rf ; po", "0>1 1>2 2>1");
  /* rf; po & po = rf; (po & po) (not (rf; po) & po, which is empty) */
  expect_rel(f, "rf ; po & po", "2>1");
  /* (po | rf) \ po & rf = (po | rf) \ (po & rf): & binds tighter. */
  expect_rel(f, "(po | rf) \\ po & rf", "0>1 1>2 1>3 2>0");
  /* po \ po ; rf = (po \ po); rf, which is empty: \ tighter than ;. */
  expect_rel(f, "po \\ po ; rf", "");
  /* \ is left-associative: (a \ b) \ c. */
  expect_rel(f, "(po | rf) \\ po \\ rf", "");
  /* R * W & loc-free: R * W & rf = (R * W) & rf. */
  expect_rel(f, "R * W & rf", "1>3");
  /* ~ binds tighter than ;: (~po); [W] ... restricted by [R]. */
  expect_rel(f, "[R]; ~po; [W]", "0>3 1>3 0>2");
  /* Postfix before prefix: ~po+ = ~(po+), not (~po)+ (everything). */
  expect_rel(f, "~po+ & (po | rf)", "1>3 2>0");
  /* A postfix * then ; is the closure, not a product. */
  expect_rel(f, "po* ; rf", "0>3 0>0 1>0 1>3 2>0");
  /* po+ then the next statement's check. */
  model(f, "T\nlet a = po*\n~empty a\n");
  assert_int_equal(check(f).consistent, 1);
  model(f, "T\nlet a = R*\nW\n~empty a\n"
           "acyclic po");
  assert_int_equal(check(f).consistent, 1);
}

static void test_checks_and_flags(void **state) {
  fixture *f = *state;
  wl__cat_out o;
  small(&f->c);
  model(f, "T\nacyclic po\nirreflexive po+\nempty po & rf\n"
           "~empty po\n~acyclic po | rf\n~irreflexive (po | rf)+\n"
           "empty R & W\nacyclic 0\n");
  o = check(f);
  assert_int_equal(o.consistent, 1);
  assert_int_equal(wl__cat_nchecks(f->m), 8);
  assert_string_equal(wl__cat_check_name(f->m, 0), "check 0 (acyclic)");
  assert_string_equal(wl__cat_check_name(f->m, 3), "check 3 (~empty)");
  assert_string_equal(wl__cat_check_name(f->m, 5),
                      "check 5 (~irreflexive)");
  /* The first failing check counts; later ones are not run. */
  model(f, "T\nacyclic po as ok\nacyclic po | rf as cyc\n"
           "irreflexive id as refl\n");
  o = check(f);
  assert_int_equal(o.consistent, 0);
  assert_int_equal(o.failed, 1);
  assert_string_equal(wl__cat_check_name(f->m, 1), "cyc");
  model(f, "T\nirreflexive po | id\n");
  assert_int_equal(check(f).failed, 0);
  model(f, "T\n~empty po & rf as nope\n");
  assert_int_equal(check(f).failed, 0);
  model(f, "T\nempty R as sets-too\n");
  assert_int_equal(check(f).failed, 0);
  /* Flags: reported when their condition holds, never enforced; and
   * numbered apart from the checks. */
  model(f, "T\nflag ~empty po & rf as race\n"
           "flag ~empty po as has-po\n"
           "acyclic po as ok\n"
           "flag empty W as no-writes\n"
           "flag acyclic po\n");
  o = check(f);
  assert_int_equal(o.consistent, 1);
  assert_int_equal(o.failed, -1);
  assert_int_equal(wl__cat_nchecks(f->m), 1);
  assert_int_equal(wl__cat_nflags(f->m), 4);
  assert_int_equal(o.flags, BIT(1) | BIT(3));
  assert_string_equal(wl__cat_flag_name(f->m, 0), "race");
  assert_string_equal(wl__cat_flag_name(f->m, 1), "has-po");
  assert_string_equal(wl__cat_flag_name(f->m, 2), "no-writes");
  assert_string_equal(wl__cat_flag_name(f->m, 3), "flag 3 (acyclic)");
  assert_null(wl__cat_flag_name(f->m, 4));
  assert_string_equal(wl__cat_check_name(f->m, 0), "ok");
  /* Cycles of every length, and the self-loop. */
  cand_clear(&f->c, 64);
  model(f, "T\nacyclic po\n");
  assert_int_equal(check(f).consistent, 1);
  {
    int i;
    for (i = 0; i + 1 < 64; i++)
      edge(&f->c, WL_CAT_R_PO, i, i + 1);
    assert_int_equal(check(f).consistent, 1);
    edge(&f->c, WL_CAT_R_PO, 63, 0);
    assert_int_equal(check(f).consistent, 0);
    rel_set(&f->c, WL_CAT_R_PO, "5>5");
    assert_int_equal(check(f).consistent, 0);
    rel_set(&f->c, WL_CAT_R_PO, "1>2 2>3 3>1 0>1 3>4");
    assert_int_equal(check(f).consistent, 0);
  }
  /* 64 events: complements and universes use every bit. */
  {
    int i;
    for (i = 0; i < 64; i++)
      edge(&f->c, WL_CAT_R_ID, i, i);
  }
  model(f, "T\nempty ~(_ * _)\nempty ~_\n~empty ~po & id\n"
           "irreflexive ~id\n");
  assert_int_equal(check(f).consistent, 1);
}

/* ---------------------------------------------------------------- */
/* let, let rec                                                      */

static void test_let(void **state) {
  fixture *f = *state;
  small(&f->c);
  /* Later bindings shadow earlier ones and base names. */
  expect_rel(f, "po", "0>1 1>2");
  model(f, "T\nlet po = po | rf\nlet x = po\nlet data = x\n"
           "~empty data \\ (po & rf)\nacyclic data \\ rf\n");
  assert_int_equal(check(f).consistent, 1);
  /* poloc is po-loc. */
  rel_set(&f->c, WL_CAT_R_POLOC, "0>2");
  expect_rel(f, "poloc", "0>2");
  expect_rel(f, "po-loc | po", "0>1 1>2 0>2");
  /* A plain let group sees the outer scope. */
  rel_set(&f->c, WL_CAT_R_DATA, "1>3 2>0");
  model(f, "T\nlet a = po\nlet a = rf and b = a\n"
           "empty a \\ data\nempty data \\ a\nempty b \\ po\n"
           "empty po \\ b\n");
  assert_int_equal(check(f).consistent, 1);
}

static void test_let_rec_models(void **state) {
  fixture *f = *state;
  small(&f->c);
  rel_set(&f->c, WL_CAT_R_DATA, "0>1 1>2 0>2");
  model(f, "T\nlet rec t = po | (t ; po)\n"
           "empty t \\ data\nempty data \\ t\n");
  assert_int_equal(check(f).consistent, 1);
  model(f, "T\nlet rec t = po | (t ; t)\nempty t \\ po+\n"
           "empty po+ \\ t\n");
  assert_int_equal(check(f).consistent, 1);
  /* Mutual recursion: even and odd powers of (po | rf). */
  model(f, "T\nlet r = po | rf\n"
           "let rec odd = r | (even ; r) and even = odd ; r\n"
           "empty (odd | even) \\ r+\nempty r+ \\ (odd | even)\n"
           "~empty even & odd\n");
  assert_int_equal(check(f).consistent, 1);
  /* A set by recursion: what the writes reach by po^-1. */
  f->c.set[WL_CAT_S_SUR] = BIT(0) | BIT(1) | BIT(2);
  model(f, "T\nlet rec s = W & range(po) | domain(po; [s])\n"
           "empty s \\ SUR\nempty SUR \\ s\n");
  assert_int_equal(check(f).consistent, 1);
  /* Seen from an earlier name: the group's own name wins. */
  model(f, "T\nlet b = id\nlet rec a = po | b and b = a ; po\n"
           "empty a \\ po+\nempty po+ \\ a\n");
  assert_int_equal(check(f).consistent, 1);
  /* ptx-v6.0's observation: rf chained through rmw. */
  cand_clear(&f->c, 5);
  rel_set(&f->c, WL_CAT_R_RF, "0>1 2>3");
  rel_set(&f->c, WL_CAT_R_RMWR, "1>2 3>4");
  rel_set(&f->c, WL_CAT_R_DATA, "0>1 2>3 0>3");
  model(f, "T\nlet rec observation = rf | (observation; rmw; "
           "observation)\n"
           "empty observation \\ data\nempty data \\ observation\n");
  assert_int_equal(check(f).consistent, 1);
  /* The same subexpression inside the loop and after it, in either
   * order of | (one value): the fixpoint's. */
  model(f, "T\nlet rec ob = rf | (ob; rmw; ob)\n"
           "let x = (ob; rmw; ob) | rf\n"
           "empty x \\ data\nempty data \\ x\n"
           "empty (rf | ob; rmw; ob) \\ data\n");
  assert_int_equal(check(f).consistent, 1);
  /* A body that is not monotone is refused (no least fixpoint); an
   * even number of complements is monotone. */
  bad(f, "T\nlet rec x = ~x\nacyclic 0\n",
      "t.cat:2:14: 'x' is used under the complement '~' at 2:13 in its "
      "own let rec: the recursion is not monotone (it has no least "
      "fixpoint)");
  bad(f, "T\nlet rec s = ~s & R\nempty s\n",
      "t.cat:2:14: 's' is used under the complement '~' at 2:13 in its "
      "own let rec: the recursion is not monotone (it has no least "
      "fixpoint)");
  bad(f, "T\nlet rec a = po | b and b = rf \\ (a ; po)\nacyclic a\n",
      "t.cat:2:34: 'a' is used on the right of the '\\' at 2:31 in its "
      "own let rec: the recursion is not monotone (it has no least "
      "fixpoint)");
  model(f, "T\nlet rec x = po | ~~x\nlet rec y = (y \\ rf) | po\n"
           "empty x \\ po\nempty y \\ po\n");
  assert_int_equal(check(f).consistent, 1);
  /* Unused let rec costs nothing and reads nothing. */
  model(f, "T\nlet rec x = x | sync_fence\nacyclic po\n");
  assert_false(wl__cat_uses_rel(f->m, WL_CAT_R_SYNC_FENCE));
  assert_true(wl__cat_uses_rel(f->m, WL_CAT_R_PO));
}

/* ---------------------------------------------------------------- */
/* Syntax                                                            */

static void test_syntax(void **state) {
  fixture *f = *state;
  small(&f->c);
  /* Comments: nested (* *), and // lines; a quoted title. */
  model(f, "\"My model (v1)\" (* a (* nested *) comment *)\n"
           "// line comment\n"
           "let a = po // trailing\n"
           "(* acyclic rf *) acyclic a\n"
           "show a\nshow a, po as x\nunshow a\n"
           "include \"cos.cat\"\ninclude \"stdlib.cat\"\n"
           "empty a & rf as n.o-overlap_1\n");
  assert_string_equal(wl__cat_name(f->m), "My model (v1)");
  assert_int_equal(wl__cat_nchecks(f->m), 2);
  assert_string_equal(wl__cat_check_name(f->m, 1), "n.o-overlap_1");
  assert_int_equal(check(f).consistent, 1);
  /* No title: the file's name. */
  model(f, "acyclic po\n");
  assert_string_equal(wl__cat_name(f->m), "t.cat");
  /* An empty model allows everything. */
  model(f, "X\n");
  assert_int_equal(wl__cat_nchecks(f->m), 0);
  assert_int_equal(check(f).consistent, 1);
  model(f, "");
  assert_int_equal(check(f).consistent, 1);
  /* Line breaks inside expressions and before an operator. */
  model(f, "T\nlet a = po\n    | rf\n  & rf\nacyclic\n a\n");
  assert_int_equal(check(f).consistent, 0);
}

static void test_errors(void **state) {
  fixture *f = *state;
  bad(f, "T\nlet a = po |\n  foo\n", "t.cat:3:3: unknown relation 'foo'");
  bad(f, "T\nacyclic po ; bar\n", "t.cat:2:14: unknown relation 'bar'");
  bad(f, "T\nlet a = po\nlet b = a | (rf\nacyclic b\n",
      "t.cat:4:1: expected ')', found 'acyclic'");
  bad(f, "T\nlet a = [R\n", "t.cat:3:1: expected ']', found end of file");
  bad(f, "T\nlet = po\n", "t.cat:2:5: expected a name, found '='");
  bad(f, "T\nlet a po\n",
      "t.cat:2:5: function definitions ('let a(...)') are not supported");
  bad(f, "T\nlet f(x) = x\n",
      "t.cat:2:5: function definitions ('let f(...)') are not supported");
  bad(f, "T\nlet a = po |\n",
      "t.cat:3:1: expected an expression, found end of file");
  bad(f, "T\nlet a = | po\n",
      "t.cat:2:9: expected an expression, found '|'");
  bad(f, "T\npo\n",
      "t.cat:2:1: expected a statement (let, include, acyclic, "
      "irreflexive, empty, flag), found 'po'");
  bad(f, "T\nacyclic po as\n", "t.cat:3:1: expected a name, found end of "
                               "file");
  bad(f, "T\nflag po\n",
      "t.cat:2:6: expected acyclic, irreflexive or empty, found 'po'");
  bad(f, "T\n(* never closed\n(* nested *)\n",
      "t.cat:2:1: unterminated comment");
  bad(f, "\"title\nacyclic po\n", "t.cat:1:1: unterminated string");
  bad(f, "T\nlet a = po ^ 2\n", "t.cat:2:12: expected ^-1");
  bad(f, "T\nlet a = po @ rf\n", "t.cat:2:12: unexpected '@'");
  bad(f, "T\nlet a = 1\n",
      "t.cat:2:9: numbers other than 0 are not supported");
  /* Types. */
  bad(f, "T\nlet a = R | po\n", "t.cat:2:11: '|' of a set and a relation");
  bad(f, "T\nlet a = po & W\n", "t.cat:2:12: '&' of a set and a relation");
  bad(f, "T\nlet a = po \\ W\n",
      "t.cat:2:12: '\\' of a set and a relation");
  bad(f, "T\nlet a = R ; W\n",
      "t.cat:2:11: ';' needs relations, not a set (write [S] for the "
      "identity on S)");
  bad(f, "T\nlet a = po * rf\n",
      "t.cat:2:12: '*' between operands is the cartesian product of two "
      "sets, not of a relation");
  bad(f, "T\nlet a = [po]\n",
      "t.cat:2:9: [...] needs a set, not a relation");
  bad(f, "T\nlet a = R+\n", "t.cat:2:10: '+' needs a relation, not a set");
  bad(f, "T\nlet a = W^-1\n",
      "t.cat:2:10: '^-1' needs a relation, not a set");
  bad(f, "T\nlet a = (R)?\n",
      "t.cat:2:12: '?' needs a relation, not a set");
  bad(f, "T\nlet a = domain(R)\n",
      "t.cat:2:9: domain() needs a relation, not a set");
  bad(f, "T\nacyclic R\n", "t.cat:2:1: acyclic needs a relation, not a set");
  bad(f, "T\n~irreflexive domain(po)\n",
      "t.cat:2:2: irreflexive needs a relation, not a set");
  bad(f, "T\nlet s = R\nlet a = s | po\n",
      "t.cat:3:11: '|' of a set and a relation");
  bad(f, "T\nlet rec x = domain(x)\n",
      "t.cat:2:13: domain() needs a relation, not a set");
  bad(f, "T\nlet rec x = po | y and y = R\n",
      "t.cat:2:16: '|' of a set and a relation");
  bad(f, "T\nlet rec x = po and x = rf\n",
      "t.cat:2:20: 'x' is bound twice in one let rec");
  bad(f, "T\nlet x = po and x = rf\n",
      "t.cat:2:16: 'x' is bound twice in one let");
  /* herd's extended language. */
  bad(f, "T\nwith sc from linearisations(F, 0)\n",
      "t.cat:2:1: 'with ... from' is not supported");
  bad(f, "T\nlet a = match x with || 'a -> po end\n",
      "t.cat:2:9: 'match' (herd's extended language) is not supported");
  bad(f, "T\nenum scopes = 'cta || 'gpu\n",
      "t.cat:2:1: 'enum' (herd's extended language) is not supported");
  bad(f, "T\ninstructions R[{'weak}]\n",
      "t.cat:2:1: 'instructions' (herd's extended language) is not "
      "supported");
  bad(f, "T\nlet a = tag2scope('cta)\n",
      "t.cat:2:9: function application 'tag2scope(...)' is not supported "
      "(only domain and range)");
  bad(f, "T\nlet a = po & 'cta\n",
      "t.cat:2:14: tags ('name) are not supported");
  bad(f, "T\nlet a = {}\n",
      "t.cat:2:9: explicit sets ({...}) are not supported");
  bad(f, "T\nlet a = po ++ rf\n", "t.cat:2:12: '++' is not supported");
  bad(f, "T\nlet a = po in a\n",
      "t.cat:2:12: 'let ... in' is not supported");
  bad(f, "T\nprocedure p() = acyclic po end\n",
      "t.cat:2:1: 'procedure' (herd's extended language) is not "
      "supported");
}

static void test_error_limits(void **state) {
  fixture *f = *state;
  char *src = malloc(20000);
  size_t n = 0;
  int i;
  assert_non_null(src);
  /* Parentheses nested past the bound. */
  n += (size_t)sprintf(src, "T\nlet a = ");
  for (i = 0; i < 1200; i++)
    src[n++] = '(';
  strcpy(src + n, "po");
  {
    wl_cat *m = NULL;
    assert_int_equal(wl__cat_parse(f->ctx, "t.cat", src, strlen(src), &m),
                     WL_ESYNTAX);
    assert_non_null(strstr(wl_ctx_errmsg(f->ctx),
                           "expression nested too deeply"));
  }
  /* A long chain builds a deep tree: refused too, not a deep stack. */
  n = (size_t)sprintf(src, "T\nlet a = po");
  for (i = 0; i < 1500; i++)
    n += (size_t)sprintf(src + n, " | po");
  {
    wl_cat *m = NULL;
    assert_int_equal(wl__cat_parse(f->ctx, "t.cat", src, strlen(src), &m),
                     WL_ESYNTAX);
    assert_non_null(strstr(wl_ctx_errmsg(f->ctx),
                           "expression nested too deeply"));
  }
  /* 64 flags fit, 65 do not. */
  n = (size_t)sprintf(src, "T\n");
  for (i = 0; i < 64; i++)
    n += (size_t)sprintf(src + n, "flag ~empty po\n");
  model(f, src);
  assert_int_equal(wl__cat_nflags(f->m), 64);
  small(&f->c);
  assert_int_equal(check(f).flags, ~(uint64_t)0);
  sprintf(src + n, "flag ~empty po\n");
  bad(f, src, "t.cat:66:7: more than 64 flags");
  free(src);
}

/* ---------------------------------------------------------------- */
/* Include                                                           */

typedef struct tmpdir {
  char path[256];
  char files[16][300];
  int nfiles;
} tmpdir;

static void tmp_make(tmpdir *t) {
  memset(t, 0, sizeof *t);
  snprintf(t->path, sizeof t->path, "/tmp/wl_cat_XXXXXX");
  assert_non_null(mkdtemp(t->path));
}

static const char *tmp_file(tmpdir *t, const char *name, const char *text) {
  FILE *fp;
  char tmp[300];
  char *p;
  assert_true(t->nfiles < 16);
  p = t->files[t->nfiles++];
  snprintf(tmp, sizeof tmp, "%s/%s", t->path, name);
  memcpy(p, tmp, sizeof tmp);
  fp = fopen(p, "wb");
  assert_non_null(fp);
  fputs(text, fp);
  fclose(fp);
  return p;
}

static void tmp_remove(tmpdir *t) {
  int i;
  for (i = 0; i < t->nfiles; i++)
    remove(t->files[i]);
  rmdir(t->path);
}

static void test_include(void **state) {
  fixture *f = *state;
  tmpdir t;
  char msg[1024];
  const char *top;
  wl_cat *m = NULL;
  tmp_make(&t);
  tmp_file(&t, "lib.cat", "\"library\"\nlet ppo = po | rf\n"
                          "include \"lib2.cat\"\n");
  tmp_file(&t, "lib2.cat", "let ppo2 = ppo ; ppo\n");
  top = tmp_file(&t, "top.cat",
                 "Top\ninclude \"lib.cat\"\nacyclic ppo as a\n"
                 "irreflexive ppo2 as b\n");
  drop_model(f);
  assert_int_equal(wl__cat_load(f->ctx, top, &f->m), 0);
  assert_int_equal(wl__cat_scratch_new(f->ctx, f->m, &f->s), 0);
  assert_string_equal(wl__cat_name(f->m), "Top");
  assert_int_equal(wl__cat_nchecks(f->m), 2);
  small(&f->c);
  assert_int_equal(check(f).failed, 0);
  rel_set(&f->c, WL_CAT_R_RF, "");
  assert_int_equal(check(f).consistent, 1);

  /* A missing include, an error inside an include, a cycle. */
  top = tmp_file(&t, "miss.cat", "M\n  include \"nothere.cat\"\n");
  assert_int_equal(wl__cat_load(f->ctx, top, &m), WL_ESYNTAX);
  snprintf(msg, sizeof msg,
           "%s:2:11: cannot read '%s/nothere.cat': No such file or "
           "directory",
           top, t.path);
  assert_string_equal(wl_ctx_errmsg(f->ctx), msg);
  tmp_file(&t, "broken.cat", "let x = po\nlet y = nope\n");
  top = tmp_file(&t, "usebroken.cat", "U\ninclude \"broken.cat\"\n");
  assert_int_equal(wl__cat_load(f->ctx, top, &m), WL_ESYNTAX);
  snprintf(msg, sizeof msg, "%s/broken.cat:2:9: unknown relation 'nope'",
           t.path);
  assert_string_equal(wl_ctx_errmsg(f->ctx), msg);
  tmp_file(&t, "a.cat", "A\ninclude \"b.cat\"\n");
  tmp_file(&t, "b.cat", "B\nlet x = po\ninclude \"a.cat\"\n");
  assert_int_equal(wl__cat_load(f->ctx, t.files[t.nfiles - 2], &m),
                   WL_ESYNTAX);
  snprintf(msg, sizeof msg,
           "%s/b.cat:3:9: include cycle: '%s/a.cat' includes itself",
           t.path, t.path);
  assert_string_equal(wl_ctx_errmsg(f->ctx), msg);
  top = tmp_file(&t, "self.cat", "S\ninclude \"self.cat\"\n");
  assert_int_equal(wl__cat_load(f->ctx, top, &m), WL_ESYNTAX);
  assert_non_null(strstr(wl_ctx_errmsg(f->ctx), "include cycle"));
  assert_null(m);

  /* Text without a file: includes from the current directory. */
  assert_int_equal(wl__cat_parse(f->ctx, NULL, "X\nlet a = q\n", 12, &m),
                   WL_ESYNTAX);
  assert_string_equal(wl_ctx_errmsg(f->ctx),
                      "<model>:2:9: unknown relation 'q'");
  tmp_remove(&t);
}

/* ---------------------------------------------------------------- */
/* The public API                                                    */

/* The checks that can judge a partial candidate (cat/polarity.c): those
 * whose expression only grows with rf and co.  In ptx-v6.0-isa.cat every
 * check but the two Coherence ones (co under a difference) qualifies. */
static void test_monotone_checks(void **state) {
  fixture *f = *state;
  const uint64_t rfco = (1ull << WL_CAT_R_RF) | (1ull << WL_CAT_R_CO) |
                        (1ull << WL_CAT_R_FR);
  uint64_t mask;
  int k, n;
  load_spec(f, "ptx-v6.0-isa.cat");
  mask = wl__cat_monotone_checks(f->m, rfco, f->ctx);
  n = wl__cat_nchecks(f->m);
  for (k = 0; k < n; k++) {
    const char *name = wl__cat_check_name(f->m, k);
    int coh = strncmp(name, "axiom-Coherence", 15) == 0;
    if (((mask >> k) & 1) == (uint64_t)coh)
      fail_msg("check %s: monotone %d", name, (int)((mask >> k) & 1));
  }
  /* a difference by rf, a complement, a negated check */
  model(f, "M\nacyclic po \\ rf as a\nempty ~rf as b\n"
           "~empty rf as c\nirreflexive rf;co as d\n");
  mask = wl__cat_monotone_checks(f->m, rfco, f->ctx);
  assert_int_equal(mask, 1ull << 3);
  /* nothing enumerated: every check may judge */
  assert_int_equal(wl__cat_monotone_checks(f->m, 0, f->ctx), 0xfull);
}

static void test_model_api(void **state) {
  fixture *f = *state;
  wl_model *m = (wl_model *)1;
  char path[1024];
  const char *src = "\"api\"\nacyclic po\n";
  assert_int_equal(wl_model_parse(NULL, "x", src, strlen(src), &m),
                   WL_EINVAL);
  assert_null(m);
  assert_int_equal(wl_model_parse(f->ctx, "x", src, strlen(src), NULL),
                   WL_EINVAL);
  assert_int_equal(wl_model_parse(f->ctx, "x", NULL, 3, &m), WL_EINVAL);
  assert_int_equal(wl_model_load(f->ctx, NULL, &m), WL_EINVAL);
  assert_int_equal(wl_model_load(NULL, "x", &m), WL_EINVAL);
  assert_int_equal(wl_model_load(f->ctx, "/nonexistent/x.cat", &m),
                   WL_EIO);
  assert_null(m);
  assert_string_equal(wl_ctx_errmsg(f->ctx),
                      "cannot read '/nonexistent/x.cat': No such file or "
                      "directory");
  assert_int_equal(wl_model_parse(f->ctx, "x", src, strlen(src), &m), 0);
  assert_string_equal(wl_model_name(m), "api");
  /* A wl_model is a wl_cat. */
  assert_int_equal(wl__cat_nchecks(m), 1);
  wl_model_free(m);
  wl_model_free(NULL);
  assert_null(wl_model_name(NULL));
  assert_int_equal(wl_model_parse(f->ctx, NULL, NULL, 0, &m), 0);
  assert_string_equal(wl_model_name(m), "<model>");
  wl_model_free(m);
  spec_path(path, sizeof path, "ptx-v7.5.cat");
  assert_int_equal(wl_model_load(f->ctx, path, &m), 0);
  assert_string_equal(wl_model_name(m), "PTX");
  wl_model_free(m);
}

/* ---------------------------------------------------------------- */
/* Incremental evaluation                                            */

/* xorshift64*: the tests replay from their seed. */
static uint64_t rnd(uint64_t *x) {
  *x ^= *x >> 12;
  *x ^= *x << 25;
  *x ^= *x >> 27;
  return *x * 2685821657736338717ull;
}

static int rnd_below(uint64_t *x, int n) {
  return (int)(rnd(x) % (uint64_t)n);
}

/* Scope and semantics bits an access or fence may carry. */
static uint64_t rnd_sem(uint64_t *x, char kind) {
  static const uint64_t scope[3] = {S(CTA), S(GPU), S(SYS)};
  uint64_t v = S(GEN);
  switch (rnd_below(x, 4)) {
  case 0:
    return kind == 'F' ? v | S(SC) | S(ACQ_REL) | scope[rnd_below(x, 3)]
                       : v | S(WEAK);
  case 1:
    return v | (kind == 'F' ? S(ACQ_REL) : S(RLX)) | scope[rnd_below(x, 3)];
  case 2:
    return v | (kind == 'W' ? S(REL) : S(ACQ)) | scope[rnd_below(x, 3)];
  default:
    return v | (kind == 'F' ? S(SC) | S(ACQ_REL) : S(WEAK)) |
           (kind == 'F' ? scope[rnd_below(x, 3)] : 0);
  }
}

/* A random execution: the events of ev[] and the sizes. */
typedef struct rexec {
  ev e[24];
  int n, nloc;
} rexec;

/* New events: an initial write per location, then 2 or 3 threads of 1
 * to 5 events in 2 CTAs, and the static relations (cand_build). */
static void rexec_new(rexec *x, wl__cand *c, uint64_t *seed) {
  int t, nt = 2 + rnd_below(seed, 2), l;
  x->nloc = 1 + rnd_below(seed, 3);
  x->n = 0;
  for (l = 0; l < x->nloc; l++) {
    ev w = {'W', -1, 0, 0, S(WEAK) | S(GEN)};
    w.loc = l;
    x->e[x->n++] = w;
  }
  for (t = 0; t < nt; t++) {
    int k, len = 1 + rnd_below(seed, 5);
    for (k = 0; k < len; k++) {
      static const char kinds[] = "RRWWF";
      ev v;
      v.kind = kinds[rnd_below(seed, 5)];
      v.thread = t;
      v.cta = t % 2;
      v.loc = v.kind == 'F' ? -1 : rnd_below(seed, x->nloc);
      v.sets = rnd_sem(seed, v.kind);
      x->e[x->n++] = v;
    }
  }
  cand_build(c, x->e, x->n, "", "");
}

/* New reads-from (each read from a write of its location), coherence
 * (a random total order per location, the initial write first) and fr;
 * rf_too == 0 keeps rf. */
static void rexec_rfco(const rexec *x, wl__cand *c, uint64_t *seed,
                       int rf_too) {
  int i, j, l;
  if (rf_too) {
    memset(c->rel[WL_CAT_R_RF], 0, sizeof c->rel[WL_CAT_R_RF]);
    for (i = 0; i < x->n; i++) {
      int w[24], nw = 0;
      if (x->e[i].kind != 'R')
        continue;
      for (j = 0; j < x->n; j++)
        if (x->e[j].kind == 'W' && x->e[j].loc == x->e[i].loc)
          w[nw++] = j;
      edge(c, WL_CAT_R_RF, w[rnd_below(seed, nw)], i);
    }
  }
  memset(c->rel[WL_CAT_R_CO], 0, sizeof c->rel[WL_CAT_R_CO]);
  for (l = 0; l < x->nloc; l++) {
    int w[24], nw = 0, k;
    for (j = x->nloc; j < x->n; j++)
      if (x->e[j].kind == 'W' && x->e[j].loc == l)
        w[nw++] = j;
    for (k = nw - 1; k > 0; k--) {
      int r = rnd_below(seed, k + 1), t = w[k];
      w[k] = w[r];
      w[r] = t;
    }
    for (k = 0; k < nw; k++) {
      edge(c, WL_CAT_R_CO, l, w[k]);
      for (j = k + 1; j < nw; j++)
        edge(c, WL_CAT_R_CO, w[k], w[j]);
    }
  }
  memset(c->rel[WL_CAT_R_FR], 0, sizeof c->rel[WL_CAT_R_FR]);
  for (i = 0; i < x->n; i++)
    for (j = 0; j < x->n; j++)
      if ((c->rel[WL_CAT_R_RF][j] >> i) & 1)
        c->rel[WL_CAT_R_FR][i] |= c->rel[WL_CAT_R_CO][j] & ~BIT(i);
}

/* A random order of the fence.sc events, as sync_fence. */
static void rexec_sf(const rexec *x, wl__cand *c, uint64_t *seed) {
  int f[24], nf = 0, i, j;
  memset(c->rel[WL_CAT_R_SYNC_FENCE], 0,
         sizeof c->rel[WL_CAT_R_SYNC_FENCE]);
  for (i = 0; i < x->n; i++)
    if (x->e[i].kind == 'F' && (x->e[i].sets & S(SC)))
      f[nf++] = i;
  for (i = nf - 1; i > 0; i--) {
    int r = rnd_below(seed, i + 1), t = f[i];
    f[i] = f[r];
    f[r] = t;
  }
  for (i = 0; i < nf; i++)
    for (j = i + 1; j < nf; j++)
      edge(c, WL_CAT_R_SYNC_FENCE, f[i], f[j]);
}

/* Counts of the outcomes seen, so a run shows it reached both. */
typedef struct tally {
  int consistent, failed, flagged, partial;
} tally;

/* Random sequences of candidates, each step changing a random subset
 * of the base names, through one scratch kept across the steps
 * (wl__cat_eval with the true changed masks) and a fresh evaluation
 * (wl__cat_check, wl__cat_check_only on a second scratch): the
 * outcomes must be the same.  Partial and full calls interleave. */
static void incr_run(fixture *f, uint64_t seed, int steps, tally *ty) {
  wl__cat_scratch *ref;
  wl__cand *prev = calloc(1, sizeof *prev);
  rexec x;
  int step, nchecks = wl__cat_nchecks(f->m);
  const uint64_t all_checks =
      nchecks >= 64 ? ~(uint64_t)0 : (BIT(nchecks) - 1);
  assert_non_null(prev);
  assert_int_equal(wl__cat_scratch_new(f->ctx, f->m, &ref), 0);
  for (step = 0; step < steps; step++) {
    wl__cand *c = &f->c;
    uint64_t cr = 0, cs = 0, only = 0;
    int what = rnd_below(&seed, 16), i, partial;
    wl__cat_out a, b;
    if (step == 0 || what == 0) {
      rexec_new(&x, c, &seed);
      rexec_rfco(&x, c, &seed, 1);
      rexec_sf(&x, c, &seed);
    } else if (what <= 5) {
      rexec_rfco(&x, c, &seed, 1);
    } else if (what <= 9) {
      rexec_rfco(&x, c, &seed, 0);
    } else if (what == 10) {
      rexec_sf(&x, c, &seed);
    } else if (what <= 13) {
      /* A few bits of a few random names flipped. */
      int k, nk = 1 + rnd_below(&seed, 3);
      for (k = 0; k < nk; k++) {
        int r = rnd_below(&seed, WL_CAT_NRELS + WL_CAT_NSETS);
        int ev_i = rnd_below(&seed, c->n), ev_j = rnd_below(&seed, c->n);
        if (r < WL_CAT_NRELS)
          c->rel[r][ev_i] ^= BIT(ev_j);
        else
          c->set[r - WL_CAT_NRELS] ^= BIT(ev_i);
      }
    } /* else: the same candidate again */
    /* The true changes (a new size: everything, as the caller would
     * pass for new events; also without, see below). */
    for (i = 0; i < WL_CAT_NRELS; i++)
      if (memcmp(prev->rel[i], c->rel[i], sizeof c->rel[i]) != 0)
        cr |= BIT(i);
    for (i = 0; i < WL_CAT_NSETS; i++)
      if (prev->set[i] != c->set[i])
        cs |= BIT(i);
    if (step == 0)
      cr = cs = ~(uint64_t)0;
    else if (what == 0 && rnd_below(&seed, 2))
      cr = cs = ~(uint64_t)0;
    else if (prev->n != c->n && rnd_below(&seed, 2))
      cr = cs = 0; /* a different n recomputes everything anyway */
    else if (rnd_below(&seed, 8) == 0)
      cr |= rnd(&seed); /* more than changed is allowed */
    *prev = *c;
    partial = rnd_below(&seed, 2);
    if (partial) {
      only = rnd_below(&seed, 3) == 0 ? all_checks : rnd(&seed);
      assert_int_equal(wl__cat_check_only(f->m, ref, c, only, &a), 0);
    } else {
      assert_int_equal(wl__cat_check(f->m, ref, c, &a), 0);
    }
    assert_int_equal(
        wl__cat_eval(f->m, f->s, c, cr, cs, partial, only, &b), 0);
    if (a.consistent != b.consistent || a.failed != b.failed ||
        a.flags != b.flags)
      fail_msg("step %d (change %d, partial %d): expected %d/%d/%#llx, "
               "got %d/%d/%#llx",
               step, what, partial, a.consistent, a.failed,
               (unsigned long long)a.flags, b.consistent, b.failed,
               (unsigned long long)b.flags);
    if (partial) {
      /* Against the full evaluation: the checks before its failing
       * one hold, and that one fails if asked for. */
      wl__cat_out full;
      assert_int_equal(wl__cat_check(f->m, ref, c, &full), 0);
      if (full.consistent || !((only >> full.failed) & 1))
        assert_true(a.consistent || a.failed > full.failed);
      else
        assert_int_equal(a.failed, full.failed);
    }
    ty->consistent += a.consistent;
    ty->failed += !a.consistent;
    ty->flagged += a.flags != 0;
    ty->partial += partial;
  }
  wl__cat_scratch_free(ref);
  free(prev);
}

static void test_incremental_specs(void **state) {
  static const char *const files[] = {"ptx-v6.0-isa.cat", "ptx-v6.0.cat",
                                      "ptx-v7.5.cat"};
  fixture *f = *state;
  size_t i;
  for (i = 0; i < sizeof files / sizeof *files; i++) {
    tally ty = {0, 0, 0, 0};
    uint64_t seed;
    load_spec(f, files[i]);
    for (seed = 1; seed <= 4; seed++)
      incr_run(f, seed * 0x9e3779b97f4a7c15ull, 400, &ty);
    assert_true(ty.consistent > 20);
    assert_true(ty.failed > 20);
    assert_true(ty.partial > 20);
  }
}

static void test_incremental_let_rec(void **state) {
  static const char *const models[] = {
      /* let rec between checks, flags before and after. */
      "T\nlet rec t = po | (t ; po)\nflag ~empty t & rf as f0\n"
      "acyclic t | rf as c0\n"
      "let rec ob = rf | (ob; rmw; ob)\nflag ~empty co & ob as f1\n"
      "irreflexive ob ; fr as c1\nflag ~empty fr ; t as f2\n"
      "acyclic co | fr | ob | t as c2\nflag ~empty ob as f3\n",
      /* Mutual recursion, a set by recursion, shared subexpressions. */
      "T\nlet r = po | rf\n"
      "let rec odd = r | (even ; r) and even = odd ; r\n"
      "let rec s = W & range(rf) | domain(co; [s])\n"
      "empty (odd & even) & loc as c0\nflag ~empty s as f0\n"
      "acyclic [s]; po; [R] | fr as c1\n"
      "let rec u = [s]; co | (u; u)\n"
      "empty [s]; co; [IW] as c2\nflag ~empty u & (odd | even) as f1\n"
      "irreflexive u; fr as c3\n",
      /* Differences and complements outside the recursion (bodies
       * that are not monotone are refused: test_let_rec_models). */
      "T\nlet rec x = (rf | co) & ~po | (x ; x) \\ id\n"
      "flag empty x as xe\n"
      "let rec y = ((rf | co) \\ loc) | (y ; ~~y)\nflag ~empty y as ye\n"
      "acyclic x | po as c0\nacyclic y as c1\n",
      /* Only sets; an unused let rec. */
      "T\nlet rec a = R & range(rf) | domain(po; [a])\n"
      "let rec b = b | sync_fence\n"
      "flag ~empty a as fa\nempty a & W as c0\n"
      "~empty a | IW as c1\n",
  };
  fixture *f = *state;
  size_t i;
  for (i = 0; i < sizeof models / sizeof *models; i++) {
    tally ty = {0, 0, 0, 0};
    uint64_t seed;
    model(f, models[i]);
    assert_false(f->m->no_incr);
    for (seed = 1; seed <= 4; seed++)
      incr_run(f, seed * 0xda942042e4dd58b5ull + i, 300, &ty);
    assert_true(ty.consistent > 0 || ty.failed > 0);
  }
}

/* Validity is per operation: a check that an early stop left out is
 * computed when a later candidate reaches it, even when what it reads
 * did not change in between. */
static void test_incremental_early_stop(void **state) {
  fixture *f = *state;
  wl__cat_out o;
  small(&f->c);
  model(f, "T\nacyclic po | rf as first\nlet x = po ; po\n"
           "flag ~empty x as has-x\nempty x & rf as second\n");
  /* 2>0 closes po | rf into a cycle: stop at the first check. */
  rel_set(&f->c, WL_CAT_R_RF, "2>0");
  assert_int_equal(wl__cat_eval(f->m, f->s, &f->c, ~(uint64_t)0,
                                ~(uint64_t)0, 0, 0, &o),
                   0);
  assert_int_equal(o.failed, 0);
  assert_int_equal(o.flags, 0);
  /* rf changes; x (po only) is reached for the first time. */
  rel_set(&f->c, WL_CAT_R_RF, "0>2");
  assert_int_equal(wl__cat_eval(f->m, f->s, &f->c, BIT(WL_CAT_R_RF), 0,
                                0, 0, &o),
                   0);
  assert_int_equal(o.failed, 1);
  assert_int_equal(o.flags, 1);
  /* Nothing changed: every verdict kept, the same outcome. */
  assert_int_equal(wl__cat_eval(f->m, f->s, &f->c, 0, 0, 0, 0, &o), 0);
  assert_int_equal(o.failed, 1);
  assert_int_equal(o.flags, 1);
  /* A partial call asking for the first check only, then a full one. */
  rel_set(&f->c, WL_CAT_R_RF, "");
  assert_int_equal(wl__cat_eval(f->m, f->s, &f->c, BIT(WL_CAT_R_RF), 0,
                                1, 1, &o),
                   0);
  assert_int_equal(o.consistent, 1);
  assert_int_equal(wl__cat_eval(f->m, f->s, &f->c, 0, 0, 0, 0, &o), 0);
  assert_int_equal(o.consistent, 1);
  assert_int_equal(o.flags, 1);
  /* A new size with no change named: recomputed all the same. */
  cand_clear(&f->c, 3);
  assert_int_equal(wl__cat_eval(f->m, f->s, &f->c, 0, 0, 0, 0, &o), 0);
  assert_int_equal(o.consistent, 1);
  assert_int_equal(o.flags, 0);
}

/* ---------------------------------------------------------------- */
/* Allocation failures                                               */

/* Loads path (and checks MP on it: the verdict must be `consistent`, if
 * that is not -1) failing allocation 1, 2, ... until a run needs no
 * failing allocation. */
static void sweep(const char *path, int consistent) {
  long k;
  for (k = 1;; k++) {
    faulty fa;
    wl_config cfg;
    wl_ctx *ctx = NULL;
    wl_cat *m = NULL;
    wl__cat_scratch *s = NULL;
    int r;
    memset(&fa, 0, sizeof fa);
    fa.fail_at = k;
    memset(&cfg, 0, sizeof cfg);
    cfg.alloc = faulty_alloc;
    cfg.alloc_ud = &fa;
    r = wl_ctx_new(&cfg, &ctx);
    if (r == 0) {
      r = wl__cat_load(ctx, path, &m);
      if (r == 0)
        r = wl__cat_scratch_new(ctx, m, &s);
      if (r == 0) {
        wl__cand *c = calloc(1, sizeof *c);
        wl__cat_out o;
        assert_non_null(c);
        mp(c, S(REL) | S(GPU), S(ACQ) | S(GPU), 1);
        assert_int_equal(wl__cat_check(m, s, c, &o), 0);
        if (consistent >= 0)
          assert_int_equal(o.consistent, consistent);
        free(c);
      }
      if (r != 0) {
        assert_int_equal(r, WL_ENOMEM);
        assert_string_equal(wl_ctx_errmsg(ctx), "out of memory");
      }
      wl__cat_scratch_free(s);
      wl__cat_free(m);
      wl_ctx_free(ctx);
    } else {
      assert_int_equal(r, WL_ENOMEM);
    }
    assert_int_equal(fa.live, 0);
    assert_int_equal(fa.blocks, 0);
    assert_int_equal(fa.bad, 0);
    if (!fa.failed) {
      assert_int_equal(r, 0);
      break;
    }
  }
  assert_true(k > 10);
}

/* A let rec body that ends before its "and" (the pre-scan had bound
 * the names after it): an error, not a read of an unset body (found by
 * fuzz_cat: a heap overflow in retype). */
static void test_let_rec_short_body(void **state) {
  fixture *f = *state;
  wl_model *m = (wl_model *)1;
  const char *src = "let rec a = 0(b) and b = a\n";
  assert_int_equal(wl_model_parse(f->ctx, "x.cat", src, strlen(src), &m),
                   WL_ESYNTAX);
  assert_null(m);
  assert_non_null(strstr(wl_ctx_errmsg(f->ctx), "x.cat:1:14: expected 'and'"));
}

static void test_alloc_failures(void **state) {
  char path[1024];
  tmpdir t;
  (void)state;
  spec_path(path, sizeof path, "ptx-v6.0-isa.cat");
  sweep(path, 0);
  spec_path(path, sizeof path, "ptx-v7.5.cat");
  sweep(path, -1);
  /* Through an include, and a let rec. */
  tmp_make(&t);
  tmp_file(&t, "inc.cat", "let rec ob = rf | (ob; rmw; ob)\n"
                          "let x = po | ob and y = [W]; po\n");
  sweep(tmp_file(&t, "top.cat",
                 "Top\ninclude \"inc.cat\"\nflag ~empty y as f\n"
                 "irreflexive (fr | rf); po; x as c\n"),
        -1);
  tmp_remove(&t);
}

int main(int argc, char **argv) {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
  const struct CMUnitTest tests[] = {
      T(test_spec_files),
      T(test_spec_asplos_refused),
      T(test_mp_weak),
      T(test_mp_release_acquire),
      T(test_mp_fences),
      T(test_fence_sc_barrier),
      T(test_mp_v75),
      T(test_scratch_reuse),
      T(test_operators),
      T(test_precedence),
      T(test_checks_and_flags),
      T(test_let),
      T(test_let_rec_models),
      T(test_syntax),
      T(test_errors),
      T(test_error_limits),
      T(test_include),
      T(test_model_api),
      T(test_monotone_checks),
      T(test_incremental_specs),
      T(test_incremental_let_rec),
      T(test_incremental_early_stop),
      T(test_let_rec_short_body),
      T(test_alloc_failures),
  };
#undef T
  if (argc > 0)
    argv0 = argv[0];
  return cmocka_run_group_tests(tests, NULL, NULL);
}
