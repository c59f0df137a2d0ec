/* test_build.c -- tests built programmatically (engine/program/build.c,
 * wl_litmus_new .. wl_litmus_set_condition), threads as callbacks
 * (engine/model/explore.c, wl_tb_*), results as values, and fault
 * injection over a built test with callback and instruction threads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../engine/warplab.h"
#include "sink.h"

/* ---------------------------------------------------------------- */
/* Helpers                                                           */

/* Two tests and their results: most cases compare a built or callback
 * version (slot 1) with the same test parsed from .litmus text (0). */
typedef struct fixture {
  wl_ctx *ctx;
  wl_litmus *t[2];
  wl_result *r[2];
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
  int i;
  for (i = 0; i < 2; i++) {
    wl_result_free(f->r[i]);
    wl_litmus_free(f->t[i]);
  }
  wl_ctx_free(f->ctx);
  free(f);
  return 0;
}

/* A call that must succeed; the failure names the call and the message. */
#define OK(f, call) ok_((f), (call), #call, __LINE__)
static void ok_(const fixture *f, int rc, const char *what, int line) {
  if (rc != 0)
    fail_msg("line %d: %s: %s: %s", line, what, wl_err_name(rc),
             wl_ctx_errmsg(f->ctx));
}

/* A call that must fail with err and a message starting with prefix
 * (NULL: any message). */
#define FAILS(f, call, err, prefix)                                        \
  fails_((f), (call), #call, (err), (prefix), __LINE__)
static void fails_(const fixture *f, int rc, const char *what, int err,
                   const char *prefix, int line) {
  const char *msg = wl_ctx_errmsg(f->ctx);
  if (rc != err)
    fail_msg("line %d: %s returned %s, not %s (%s)", line, what,
             wl_err_name(rc), wl_err_name(err), msg);
  if (prefix != NULL && strncmp(msg, prefix, strlen(prefix)) != 0)
    fail_msg("line %d: %s: message '%s' does not start with '%s'", line,
             what, msg, prefix);
}

static void msg_has(const fixture *f, const char *needle) {
  if (strstr(wl_ctx_errmsg(f->ctx), needle) == NULL)
    fail_msg("no '%s' in the message '%s'", needle, wl_ctx_errmsg(f->ctx));
}

static wl_litmus *parse(fixture *f, int k, const char *src) {
  int r = wl_litmus_parse(f->ctx, "t.litmus", src, strlen(src), &f->t[k]);
  if (r != 0)
    fail_msg("parse: %s: %s", wl_err_name(r), wl_ctx_errmsg(f->ctx));
  return f->t[k];
}

static wl_litmus *new_test(fixture *f, int k, const char *name) {
  OK(f, wl_litmus_new(f->ctx, name, &f->t[k]));
  assert_non_null(f->t[k]);
  return f->t[k];
}

static wl_result *explore_opts(fixture *f, int k,
                               const wl_explore_opts *opts) {
  OK(f, wl_explore(f->ctx, f->t[k], opts, &f->r[k]));
  assert_non_null(f->r[k]);
  return f->r[k];
}

static wl_result *explore(fixture *f, int k) {
  return explore_opts(f, k, NULL);
}

static wl_result *explore_unroll(fixture *f, int k, int unroll) {
  wl_explore_opts o;
  memset(&o, 0, sizeof o);
  o.unroll = unroll;
  return explore_opts(f, k, &o);
}

static int add_thread(fixture *f, int k, int cta) {
  int th = -1;
  OK(f, wl_litmus_add_thread(f->t[k], cta, 0, &th));
  return th;
}

/* Appends the NULL-terminated instructions, line 1, 2, ... of b.lua. */
static void add_insns(fixture *f, int k, int th, const char *const *insns) {
  int i;
  for (i = 0; insns[i] != NULL; i++) {
    int r = wl_litmus_add_insn(f->t[k], th, insns[i], "b.lua", i + 1);
    if (r != 0)
      fail_msg("add_insn '%s': %s: %s", insns[i], wl_err_name(r),
               wl_ctx_errmsg(f->ctx));
  }
}

static int loc(fixture *f, int k, const char *name) {
  int i = -1;
  OK(f, wl_litmus_add_location(f->t[k], name, 0, &i));
  return i;
}


static char *herd(const wl_result *r) {
  sbuf b;
  memset(&b, 0, sizeof b);
  assert_int_equal(wl_result_write_herd(r, 0.0, sbuf_write, &b), 0);
  assert_non_null(b.p);
  return b.p;
}

/* The herd text without the Time line and with the test's name taken
 * out of the lines that carry it (caller frees). */
static char *herd_norm(const wl_result *r, const char *name) {
  static const char *const named[] = {"Test ", "Observation ", "Warning ",
                                      NULL};
  char *text = herd(r), *out = malloc(strlen(text) + 1), *o = out;
  const char *line = text;
  size_t nn = strlen(name);
  assert_non_null(out);
  while (*line != '\0') {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) + 1 : strlen(line);
    int i;
    if (strncmp(line, "Time ", 5) != 0) {
      for (i = 0; named[i] != NULL; i++) {
        size_t pl = strlen(named[i]);
        if (strncmp(line, named[i], pl) == 0 &&
            strncmp(line + pl, name, nn) == 0) {
          memcpy(o, line, pl);
          o += pl;
          line += pl + nn;
          len -= pl + nn;
          break;
        }
      }
      memcpy(o, line, len);
      o += len;
    }
    line += len;
  }
  *o = '\0';
  free(text);
  return out;
}

static void herd_same(const fixture *f, const char *name0,
                      const char *name1) {
  char *a = herd_norm(f->r[0], name0), *b = herd_norm(f->r[1], name1);
  if (strcmp(a, b) != 0)
    fail_msg("herd output differs:\n--- parsed\n%s--- built\n%s", a, b);
  free(a);
  free(b);
}

/* text has `line` as one whole line. */
static void has_line(const char *text, const char *line) {
  size_t n = strlen(line);
  const char *p = text;
  while ((p = strstr(p, line)) != NULL) {
    if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
      return;
    p++;
  }
  fail_msg("no line '%s' in:\n%s", line, text);
}

static void herd_has(const wl_result *r, const char *const *lines) {
  char *text = herd(r);
  for (; *lines != NULL; lines++)
    has_line(text, *lines);
  free(text);
}

/* The variable named "1:r0" (a register or result of thread 1) or "x"
 * (a location). */
static int find_var(const wl_result *r, const char *key) {
  const char *colon = strchr(key, ':');
  int th = colon ? atoi(key) : -1, v;
  const char *name = colon ? colon + 1 : key;
  for (v = 0; v < wl_result_nvars(r); v++)
    if (wl_result_var_thread(r, v) == th &&
        strcmp(wl_result_var_name(r, v), name) == 0)
      return v;
  fail_msg("no variable %s in the result", key);
  return -1;
}

/* The states projected on keys, one sorted line of values per distinct
 * row ("1 0 1 1"); with counts, each row ends with ": N", the number of
 * consistent executions that reach it (caller frees). */
static char *states_over(const wl_result *r, const char *const *keys,
                         int counts) {
  size_t ns = wl_result_nstates(r), s, n = 0, len = 1;
  char **rows = calloc(ns ? ns : 1, sizeof *rows);
  uint64_t *cnt = calloc(ns ? ns : 1, sizeof *cnt);
  int vars[16], nk = 0, i;
  char *out;
  assert_non_null(rows);
  assert_non_null(cnt);
  for (; keys[nk] != NULL; nk++)
    vars[nk] = find_var(r, keys[nk]);
  for (s = 0; s < ns; s++) {
    char row[512];
    size_t o = 0, k;
    row[0] = '\0';
    for (i = 0; i < nk; i++)
      o += (size_t)snprintf(row + o, sizeof row - o, "%s%lld",
                            i ? " " : "",
                            (long long)wl_result_value(r, s, vars[i]));
    for (k = 0; k < n; k++)
      if (strcmp(rows[k], row) == 0)
        break;
    if (k == n) {
      rows[n] = strdup(row);
      assert_non_null(rows[n]);
      n++;
    }
    cnt[k] += wl_result_state_count(r, s);
  }
  /* insertion sort of the rows with their counts */
  for (s = 1; s < n; s++) {
    size_t j = s;
    while (j > 0 && strcmp(rows[j - 1], rows[j]) > 0) {
      char *t = rows[j];
      uint64_t c = cnt[j];
      rows[j] = rows[j - 1];
      cnt[j] = cnt[j - 1];
      rows[j - 1] = t;
      cnt[j - 1] = c;
      j--;
    }
  }
  for (s = 0; s < n; s++)
    len += strlen(rows[s]) + 32;
  out = malloc(len);
  assert_non_null(out);
  out[0] = '\0';
  for (s = 0; s < n; s++) {
    char c[32] = "";
    if (counts)
      snprintf(c, sizeof c, ": %llu", (unsigned long long)cnt[s]);
    strcat(out, rows[s]);
    strcat(out, c);
    strcat(out, "\n");
    free(rows[s]);
  }
  free(rows);
  free(cnt);
  return out;
}

/* The states of r[0] over keys0 (say 1:r0, 1:r1, x) are the states of
 * r[1] over keys1 (1:A, 1:B, x), with the same executions per state
 * when counts. */
static void same_states(const fixture *f, const char *const *keys0,
                        const char *const *keys1, int counts) {
  char *a = states_over(f->r[0], keys0, counts);
  char *b = states_over(f->r[1], keys1, counts);
  if (strcmp(a, b) != 0)
    fail_msg("states differ:\n--- instructions\n%s--- callbacks\n%s", a, b);
  free(a);
  free(b);
}

/* Checks every state's witness: kinds, init events, rf, co ranks,
 * fence-SC ranks and the index checks; sum of the states' executions is
 * positive + negative; state_sat agrees with the positive count. */
static void check_results(const wl_result *r) {
  size_t s, ns = wl_result_nstates(r);
  uint64_t sum = 0, pos = 0;
  int v, nv = wl_result_nvars(r);
  wl_event_info e;
  assert_true(ns > 0);
  for (v = 0; v < nv; v++) {
    assert_non_null(wl_result_var_name(r, v));
    assert_true(wl_result_var_thread(r, v) >= -1);
  }
  assert_int_equal(wl_result_var_thread(r, -1), -1);
  assert_int_equal(wl_result_var_thread(r, nv), -1);
  assert_null(wl_result_var_name(r, -1));
  assert_null(wl_result_var_name(r, nv));
  assert_int_equal(wl_result_value(r, ns, 0), 0);
  assert_int_equal(wl_result_value(r, 0, nv), 0);
  assert_int_equal(wl_result_state_count(r, ns), 0);
  assert_int_equal(wl_result_state_sat(r, ns), 0);
  assert_int_equal(wl_result_witness_nevents(r, ns), 0);
  assert_int_equal(wl_result_witness_event(r, ns, 0, &e), WL_EINVAL);
  for (s = 0; s < ns; s++) {
    int n = wl_result_witness_nevents(r, s), i, j;
    int nsc = 0, scseen = 0;
    uint64_t c = wl_result_state_count(r, s);
    assert_true(c > 0);
    sum += c;
    if (wl_result_state_sat(r, s))
      pos += c;
    assert_true(n > 0);
    assert_int_equal(wl_result_witness_event(r, s, -1, &e), WL_EINVAL);
    assert_int_equal(wl_result_witness_event(r, s, n, &e), WL_EINVAL);
    assert_int_equal(wl_result_witness_event(r, s, 0, NULL), WL_EINVAL);
    for (i = 0; i < n; i++) {
      assert_int_equal(wl_result_witness_event(r, s, i, &e), 0);
      assert_true(e.kind == 'R' || e.kind == 'W' || e.kind == 'F' ||
                  e.kind == 'B');
      if (e.thread == -1) {
        /* the initial write: rank 0 in its location's coherence */
        assert_int_equal(e.kind, 'W');
        assert_int_equal(e.co, 0);
      }
      if (e.kind == 'R') {
        wl_event_info w;
        assert_true(e.loc >= 0);
        assert_true(e.rf >= 0 && e.rf < n);
        assert_int_equal(wl_result_witness_event(r, s, e.rf, &w), 0);
        assert_int_equal(w.kind, 'W');
        assert_int_equal(w.loc, e.loc);
        assert_int_equal(w.value, e.value);
        assert_int_equal(e.co, -1);
      } else {
        assert_int_equal(e.rf, -1);
      }
      if (e.kind == 'W') {
        /* co ranks of a location are 0..n-1, each once */
        int nw = 0, seen = 0;
        assert_true(e.loc >= 0);
        for (j = 0; j < n; j++) {
          wl_event_info o;
          assert_int_equal(wl_result_witness_event(r, s, j, &o), 0);
          if (o.kind == 'W' && o.loc == e.loc) {
            nw++;
            if (o.co == e.co)
              seen++;
          }
        }
        assert_true(e.co >= 0 && e.co < nw);
        assert_int_equal(seen, 1);
      }
      if (e.kind == 'F' || e.kind == 'B')
        assert_int_equal(e.loc, -1);
      if (e.kind != 'B')
        assert_int_equal(e.phase, -1);
      if (e.kind == 'F' && e.sem == WL_SEM_SC) {
        assert_true(e.sc >= 0);
        nsc++;
        scseen |= 1 << e.sc;
      } else {
        assert_int_equal(e.sc, -1);
      }
    }
    /* fence-SC ranks 0..nsc-1 */
    assert_int_equal(scseen, (1 << nsc) - 1);
  }
  assert_int_equal(sum, wl_result_positive(r) + wl_result_negative(r));
  assert_int_equal(pos, wl_result_positive(r));
}

/* ---------------------------------------------------------------- */
/* Callbacks                                                         */

#define TRY(e)                                                             \
  do {                                                                     \
    int rc_ = (e);                                                         \
    if (rc_ != 0)                                                          \
      return rc_;                                                          \
  } while (0)

/* One callback thread: two accesses with their semantics. */
typedef struct side {
  int loc1, loc2;
  int sem1, scope1, sem2, scope2;
  int fence; /* st_ld: a fence.sc.gpu between the accesses */
  int mode;  /* ld_st: what is stored */
} side;

enum { STORE_ONE, STORE_LOADED, STORE_IF_ONE };

static side mk(int loc1, int sem1, int scope1, int loc2, int sem2,
               int scope2) {
  side s;
  memset(&s, 0, sizeof s);
  s.loc1 = loc1;
  s.loc2 = loc2;
  s.sem1 = sem1;
  s.scope1 = scope1;
  s.sem2 = sem2;
  s.scope2 = scope2;
  return s;
}

#define WEAK WL_SEM_WEAK, WL_SCOPE_NONE
#define RLX WL_SEM_RELAXED, WL_SCOPE_GPU
#define ACQ WL_SEM_ACQUIRE, WL_SCOPE_GPU
#define REL WL_SEM_RELEASE, WL_SCOPE_GPU

/* [loc1] = 1 */
static int cb_st(void *ud, wl_tb *tb) {
  const side *s = ud;
  return wl_tb_store(tb, s->loc1, 1, s->sem1, s->scope1, __LINE__);
}

/* [loc1] = 1; [loc2] = 1 */
static int cb_st_st(void *ud, wl_tb *tb) {
  const side *s = ud;
  TRY(wl_tb_store(tb, s->loc1, 1, s->sem1, s->scope1, __LINE__));
  return wl_tb_store(tb, s->loc2, 1, s->sem2, s->scope2, __LINE__);
}

/* A = [loc1]; B = [loc2] */
static int cb_ld_ld(void *ud, wl_tb *tb) {
  const side *s = ud;
  int64_t a, b;
  TRY(wl_tb_load(tb, s->loc1, s->sem1, s->scope1, __LINE__, &a));
  TRY(wl_tb_load(tb, s->loc2, s->sem2, s->scope2, __LINE__, &b));
  TRY(wl_tb_result(tb, "A", a));
  return wl_tb_result(tb, "B", b);
}

/* [loc1] = 1; fence?; A = [loc2] */
static int cb_st_ld(void *ud, wl_tb *tb) {
  const side *s = ud;
  int64_t a;
  TRY(wl_tb_store(tb, s->loc1, 1, s->sem1, s->scope1, __LINE__));
  if (s->fence)
    TRY(wl_tb_fence(tb, WL_SEM_SC, WL_SCOPE_GPU, __LINE__));
  TRY(wl_tb_load(tb, s->loc2, s->sem2, s->scope2, __LINE__, &a));
  return wl_tb_result(tb, "A", a);
}

/* A = [loc1]; then [loc2] = 1, [loc2] = A, or if (A == 1) [loc2] = 1 */
static int cb_ld_st(void *ud, wl_tb *tb) {
  const side *s = ud;
  int64_t a;
  TRY(wl_tb_load(tb, s->loc1, s->sem1, s->scope1, __LINE__, &a));
  TRY(wl_tb_result(tb, "A", a));
  if (s->mode == STORE_IF_ONE && a != 1)
    return 0;
  return wl_tb_store(tb, s->loc2, s->mode == STORE_LOADED ? a : 1, s->sem2,
                     s->scope2, __LINE__);
}

/* ---------------------------------------------------------------- */
/* Building tests                                                    */

static void test_new_and_locations(void **state) {
  fixture *f = *state;
  wl_litmus *t;
  side s;
  int i = -1;
  static const char *const bad[] = {"",     "1x",    "x y",  "a[",  "a[]",
                                    "a[x]", "a[3]b", "[3]",  "a]",  "x-1",
                                    "a[3", "a[-1]", NULL};
  assert_int_equal(wl_litmus_new(NULL, "T", &t), WL_EINVAL);
  assert_int_equal(wl_litmus_new(f->ctx, "T", NULL), WL_EINVAL);
  t = new_test(f, 0, "T");
  assert_string_equal(wl_litmus_name(t), "T");
  assert_int_equal(wl_litmus_nthreads(t), 0);
  assert_int_equal(wl_litmus_nlocations(t), 0);
  OK(f, wl_litmus_add_location(t, "x", 5, &i));
  assert_int_equal(i, 0);
  OK(f, wl_litmus_add_location(t, "a[3]", 0, &i));
  assert_int_equal(i, 1);
  OK(f, wl_litmus_add_location(t, "_y2", 0, NULL));
  assert_int_equal(wl_litmus_nlocations(t), 3);
  assert_int_equal(wl_litmus_location(t, "x"), 0);
  assert_int_equal(wl_litmus_location(t, "a[3]"), 1);
  assert_int_equal(wl_litmus_location(t, "_y2"), 2);
  assert_int_equal(wl_litmus_location(t, "a"), -1);
  assert_int_equal(wl_litmus_location(t, "z"), -1);
  assert_int_equal(wl_litmus_location(t, NULL), -1);
  assert_int_equal(wl_litmus_location(NULL, "x"), -1);
  assert_string_equal(wl_litmus_location_name(t, 0), "x");
  assert_string_equal(wl_litmus_location_name(t, 1), "a[3]");
  assert_null(wl_litmus_location_name(t, 3));
  assert_null(wl_litmus_location_name(t, -1));
  assert_int_equal(wl_litmus_nlocations(NULL), 0);
  for (i = 0; bad[i] != NULL; i++) {
    int idx = 77;
    FAILS(f, wl_litmus_add_location(t, bad[i], 0, &idx), WL_EINVAL, "'");
    msg_has(f, "is not a location name");
    assert_int_equal(idx, 77);
  }
  assert_int_equal(wl_litmus_add_location(t, NULL, 0, NULL), WL_EINVAL);
  assert_int_equal(wl_litmus_add_location(NULL, "x", 0, NULL), WL_EINVAL);
  assert_int_equal(wl_litmus_nlocations(t), 3);
  /* re-adding keeps the index and changes the initial value */
  OK(f, wl_litmus_add_location(t, "x", 7, &i));
  assert_int_equal(i, 0);
  assert_int_equal(wl_litmus_nlocations(t), 3);
  OK(f, wl_litmus_add_location(t, "a[3]", 9, &i));
  assert_int_equal(i, 1);
  /* instructions name x; elements are reached through callbacks */
  add_thread(f, 0, 0);
  add_insns(f, 0, 0, (const char *const[]){"ld.weak r0, x", NULL});
  add_thread(f, 0, 1);
  s = mk(1, WEAK, 1, WEAK);
  OK(f, wl_litmus_set_thread_fn(t, 1, cb_ld_ld, &s));
  explore(f, 0);
  assert_int_equal(wl_result_nstates(f->r[0]), 1);
  assert_int_equal(wl_result_value(f->r[0], 0, find_var(f->r[0], "0:r0")),
                   7);
  assert_int_equal(wl_result_value(f->r[0], 0, find_var(f->r[0], "x")), 7);
  assert_int_equal(wl_result_value(f->r[0], 0, find_var(f->r[0], "1:A")),
                   9);
  assert_int_equal(wl_result_value(f->r[0], 0, find_var(f->r[0], "a[3]")),
                   9);
  herd_has(f->r[0],
           (const char *const[]){"0:r0=7; 1:A=9; 1:B=9; _y2=0; a[3]=9; x=7;",
                                 NULL});
}

static void test_new_default_name(void **state) {
  fixture *f = *state;
  wl_litmus *t = new_test(f, 0, NULL);
  assert_string_equal(wl_litmus_name(t), "test");
  wl_litmus_free(t);
  f->t[0] = NULL;
  t = new_test(f, 0, "");
  assert_string_equal(wl_litmus_name(t), "test");
  wl_litmus_free(NULL);
}

static void test_location_limit(void **state) {
  fixture *f = *state;
  wl_litmus *t = new_test(f, 0, "T");
  int i, idx;
  char name[16];
  for (i = 0; i < 64; i++) {
    snprintf(name, sizeof name, "v%d", i);
    OK(f, wl_litmus_add_location(t, name, i, &idx));
    assert_int_equal(idx, i);
  }
  FAILS(f, wl_litmus_add_location(t, "v64", 0, NULL), WL_ELIMIT, "too many");
  /* an existing one may still change */
  OK(f, wl_litmus_add_location(t, "v3", 30, &idx));
  assert_int_equal(idx, 3);
}

static void test_thread_limit(void **state) {
  fixture *f = *state;
  wl_litmus *t = new_test(f, 0, "T");
  int i, idx = -1;
  assert_int_equal(wl_litmus_add_thread(t, -1, 0, NULL), WL_EINVAL);
  assert_int_equal(wl_litmus_add_thread(t, 0, -1, NULL), WL_EINVAL);
  assert_int_equal(wl_litmus_add_thread(NULL, 0, 0, NULL), WL_EINVAL);
  for (i = 0; i < 64; i++) {
    OK(f, wl_litmus_add_thread(t, i % 3, i / 32, &idx));
    assert_int_equal(idx, i);
  }
  assert_int_equal(wl_litmus_nthreads(t), 64);
  FAILS(f, wl_litmus_add_thread(t, 0, 0, &idx), WL_ELIMIT, "T: at most 64");
  assert_int_equal(idx, 63);
  assert_int_equal(wl_litmus_nthreads(t), 64);
  /* thread indices are checked */
  assert_int_equal(wl_litmus_add_insn(t, 64, "st.weak x, 1", "b.lua", 1),
                   WL_EINVAL);
  assert_int_equal(wl_litmus_add_insn(t, -1, "st.weak x, 1", "b.lua", 1),
                   WL_EINVAL);
  assert_int_equal(wl_litmus_add_insn(t, 0, NULL, "b.lua", 1), WL_EINVAL);
  assert_int_equal(wl_litmus_set_reg(t, 64, "r0", 1), WL_EINVAL);
  assert_int_equal(wl_litmus_set_thread_fn(t, 64, cb_st, NULL), WL_EINVAL);
  assert_int_equal(wl_litmus_set_thread_fn(t, 0, NULL, NULL), WL_EINVAL);
}

/* MP, SB and LB, cell by cell, against the same .litmus text. */
typedef struct shape {
  const char *name, *src, *cond;
  int ctas[4];
  const char *const *cells[4];
} shape;

static void built_equals_parsed(fixture *f, const shape *sh) {
  int th, n = 0;
  char name[64];
  snprintf(name, sizeof name, "%s-built", sh->name);
  parse(f, 0, sh->src);
  explore(f, 0);
  new_test(f, 1, name);
  while (n < 4 && sh->cells[n] != NULL)
    n++;
  for (th = 0; th < n; th++)
    assert_int_equal(add_thread(f, 1, sh->ctas[th]), th);
  for (th = 0; th < n; th++)
    add_insns(f, 1, th, sh->cells[th]);
  OK(f, wl_litmus_set_condition(f->t[1], sh->cond, "b.lua", 10));
  explore(f, 1);
  assert_int_equal(wl_litmus_nthreads(f->t[1]), n);
  herd_same(f, sh->name, name);
  assert_int_equal(wl_result_nstates(f->r[0]), wl_result_nstates(f->r[1]));
  assert_int_equal(wl_result_nvars(f->r[0]), wl_result_nvars(f->r[1]));
  check_results(f->r[1]);
}

static void test_built_mp(void **state) {
  const shape sh = {
      "MP",
      "PTX MP\n"
      "{ x=0; y=0; }\n"
      " P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;\n"
      " st.weak x, 1        | ld.acquire.gpu r1, y ;\n"
      " st.release.gpu y, 1 | ld.weak r2, x        ;\n"
      "exists (P1:r1 == 1 /\\ P1:r2 == 0)\n",
      "exists (P1:r1 == 1 /\\ P1:r2 == 0)",
      {0, 1, 0, 0},
      {(const char *const[]){"st.weak x, 1", "st.release.gpu y, 1", NULL},
       (const char *const[]){"ld.acquire.gpu r1, y", "ld.weak r2, x", NULL},
       NULL, NULL}};
  fixture *f = *state;
  built_equals_parsed(f, &sh);
  herd_has(f->r[1], (const char *const[]){"Test MP-built Allowed",
                                          "States 3", "No", NULL});
}

static void test_built_mp_weak(void **state) {
  const shape sh = {
      "MPw",
      "PTX MPw\n"
      "{ x=0; y=0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
      " st.weak x, 1   | ld.weak r1, y  ;\n"
      " st.weak y, 1   | ld.weak r2, x  ;\n"
      "~exists (P1:r1 == 1 /\\ P1:r2 == 0)\n",
      "~exists (P1:r1 == 1 /\\ P1:r2 == 0)",
      {0, 1, 0, 0},
      {(const char *const[]){"st.weak x, 1", "st.weak y, 1", NULL},
       (const char *const[]){"ld.weak r1, y", "ld.weak r2, x", NULL}, NULL,
       NULL}};
  fixture *f = *state;
  built_equals_parsed(f, &sh);
  herd_has(f->r[1], (const char *const[]){"States 4", "No", NULL});
}

static void test_built_sb(void **state) {
  const shape sh = {
      "SB+fence.sc",
      "PTX SB+fence.sc\n"
      "{ x=0; y=0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
      " st.weak x, 1   | st.weak y, 1   ;\n"
      " fence.sc.gpu   | fence.sc.gpu   ;\n"
      " ld.weak r0, y  | ld.weak r0, x  ;\n"
      "~exists (P0:r0 == 0 /\\ P1:r0 == 0)\n",
      "~exists (P0:r0 == 0 /\\ P1:r0 == 0)",
      {0, 1, 0, 0},
      {(const char *const[]){"st.weak x, 1", "fence.sc.gpu", "ld.weak r0, y",
                             NULL},
       (const char *const[]){"st.weak y, 1", "fence.sc.gpu", "ld.weak r0, x",
                             NULL},
       NULL, NULL}};
  fixture *f = *state;
  built_equals_parsed(f, &sh);
  herd_has(f->r[1],
           (const char *const[]){"Test SB+fence.sc-built Forbidden",
                                 "States 3", "Ok",
                                 "Positive: 0 Negative: 3", NULL});
}

static void test_built_lb(void **state) {
  const shape sh = {
      "LB",
      "PTX LB\n"
      "{ x=0; y=0; }\n"
      " P0@cta 0,gpu 0       | P1@cta 1,gpu 0       ;\n"
      " ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, y ;\n"
      " st.relaxed.gpu y, 1  | st.relaxed.gpu x, 1  ;\n"
      "exists (P0:r0 == 1 /\\ P1:r0 == 1)\n",
      "exists (P0:r0 == 1 /\\ P1:r0 == 1)",
      {0, 1, 0, 0},
      {(const char *const[]){"ld.relaxed.gpu r0, x", "st.relaxed.gpu y, 1",
                             NULL},
       (const char *const[]){"ld.relaxed.gpu r0, y", "st.relaxed.gpu x, 1",
                             NULL},
       NULL, NULL}};
  fixture *f = *state;
  built_equals_parsed(f, &sh);
  herd_has(f->r[1], (const char *const[]){"States 4", "Ok", NULL});
}

/* A forward branch to a label defined later (back-patched, twice), and a
 * backward one, against the parsed text. */
static void test_built_labels(void **state) {
  const shape sh = {
      "BR",
      "PTX BR\n"
      "{ x=0; y=0; }\n"
      " P0@cta 0,gpu 0       | P1@cta 1,gpu 0      ;\n"
      " ld.relaxed.gpu r0, x | st.relaxed.gpu x, 1 ;\n"
      " beq r0, 1, LC1       | st.relaxed.gpu x, 2 ;\n"
      " beq r0, 2, LC1       |                     ;\n"
      " st.relaxed.gpu y, 1  |                     ;\n"
      " LC1:                 |                     ;\n"
      " ld.relaxed.gpu r1, y |                     ;\n"
      " LC2:                 |                     ;\n"
      " add r2, r2, 1        |                     ;\n"
      " bne r2, 2, LC2       |                     ;\n"
      "exists (P0:r0 == 0 /\\ P0:r1 == 1 /\\ P0:r2 == 2)\n",
      "exists (P0:r0 == 0 /\\ P0:r1 == 1 /\\ P0:r2 == 2)",
      {0, 1, 0, 0},
      {(const char *const[]){"ld.relaxed.gpu r0, x", "beq r0, 1, LC1",
                             "beq r0, 2, LC1", "st.relaxed.gpu y, 1",
                             "LC1:", "ld.relaxed.gpu r1, y", "LC2:",
                             "add r2, r2, 1", "bne r2, 2, LC2", NULL},
       (const char *const[]){"st.relaxed.gpu x, 1", "st.relaxed.gpu x, 2",
                             NULL},
       NULL, NULL}};
  fixture *f = *state;
  built_equals_parsed(f, &sh);
  /* r0 = 0 stores y (r1 = 1); r0 = 1 or 2 skips it (r1 = 0) */
  herd_has(f->r[1],
           (const char *const[]){"States 3", "0:r0=0; 0:r1=1; 0:r2=2;",
                                 "0:r0=1; 0:r1=0; 0:r2=2;",
                                 "0:r0=2; 0:r1=0; 0:r2=2;", "Ok", NULL});
  assert_int_equal(wl_result_bound_hit(f->r[1]), 0);
}

/* Bug fixed: trace generation restored only a load's own register
 * between the values it tries, so a counter bumped after the load's
 * first value leaked into the next one: here r1 = 1 started the loop at
 * r2 = 2, never met "bne r2, 2" and was cut (no states, "Loop No"). */
static void test_regs_restored_between_values(void **state) {
  static const char src[] =
      "PTX leak\n"
      "{ y=0; }\n"
      " P0@cta 0,gpu 0       ;\n"
      " st.relaxed.gpu y, 1  ;\n"
      " ld.relaxed.gpu r1, y ;\n"
      " LC2:                 ;\n"
      " add r2, r2, 1        ;\n"
      " bne r2, 2, LC2       ;\n"
      "forall (P0:r1 == 1 /\\ P0:r2 == 2)\n";
  fixture *f = *state;
  wl_result *r;
  parse(f, 0, src);
  r = explore(f, 0);
  assert_int_equal(wl_result_bound_hit(r), 0);
  assert_int_equal(wl_result_nstates(r), 1);
  assert_int_equal(wl_result_verdict(r), 1);
  herd_has(r, (const char *const[]){"0:r1=1; 0:r2=2;", "Ok", NULL});
  /* the same built: two loads of two values each, a counter after both */
  new_test(f, 1, "leak2");
  add_thread(f, 1, 0);
  add_thread(f, 1, 1);
  add_insns(f, 1, 0,
            (const char *const[]){"ld.weak r0, x", "add r5, r5, 1",
                                  "ld.weak r1, x", "add r5, r5, 1", NULL});
  add_insns(f, 1, 1, (const char *const[]){"st.weak x, 1", NULL});
  OK(f, wl_litmus_set_condition(f->t[1], "forall (0:r5 == 2)", "b.lua", 9));
  r = explore(f, 1);
  assert_int_equal(wl_result_verdict(r), 1);
  assert_int_equal(wl_result_bound_hit(r), 0);
}

static void test_undefined_label(void **state) {
  fixture *f = *state;
  wl_litmus *t = new_test(f, 0, "T");
  add_thread(f, 0, 0);
  OK(f, wl_litmus_add_insn(t, 0, "ld.weak r0, x", "lab.lua", 3));
  OK(f, wl_litmus_add_insn(t, 0, "  beq r0, 1, LC9", "lab.lua", 4));
  OK(f, wl_litmus_add_insn(t, 0, "st.weak x, 2", "lab.lua", 5));
  FAILS(f, wl_explore(f->ctx, t, NULL, &f->r[0]), WL_ESYNTAX,
        "lab.lua:4:3: label 'LC9' is not defined in P0");
  assert_null(f->r[0]);
  /* defining it later makes the test good */
  OK(f, wl_litmus_add_insn(t, 0, "LC9:", "lab.lua", 6));
  explore(f, 0);
  assert_int_equal(wl_result_nstates(f->r[0]), 1);
}

static void test_undefined_label_second_thread(void **state) {
  fixture *f = *state;
  wl_litmus *t = new_test(f, 0, "T");
  add_thread(f, 0, 0);
  add_thread(f, 0, 1);
  OK(f, wl_litmus_add_insn(t, 0, "LC9:", "g.lua", 1));
  OK(f, wl_litmus_add_insn(t, 1, "goto LC9", "g.lua", 8));
  FAILS(f, wl_explore(f->ctx, t, NULL, &f->r[0]), WL_ESYNTAX,
        "g.lua:8:1: label 'LC9' is not defined in P1");
}

static void test_duplicate_label(void **state) {
  fixture *f = *state;
  wl_litmus *t = new_test(f, 0, "T");
  add_thread(f, 0, 0);
  OK(f, wl_litmus_add_insn(t, 0, "LC0:", "d.lua", 1));
  OK(f, wl_litmus_add_insn(t, 0, "st.weak x, 1", "d.lua", 2));
  FAILS(f, wl_litmus_add_insn(t, 0, "LC0:", "d.lua", 3), WL_ESYNTAX,
        "d.lua:3:1: label 'LC0' defined twice in P0");
  /* a label only branched to so far is not a duplicate */
  OK(f, wl_litmus_add_insn(t, 0, "bra LC1", "d.lua", 4));
  OK(f, wl_litmus_add_insn(t, 0, "LC1:", "d.lua", 5));
  FAILS(f, wl_litmus_add_insn(t, 0, " LC1:", "d.lua", 6), WL_ESYNTAX,
        "d.lua:6:2: label 'LC1' defined twice");
  explore(f, 0);
}

static void test_bad_insn_text(void **state) {
  static const struct {
    const char *text;
    int err;
    const char *prefix;
  } cases[] = {
      {"st.bogus x, 1", WL_ESYNTAX, "e.lua:42:1: "},
      {"frobnicate r0", WL_ESYNTAX, "e.lua:42:1: unknown instruction"},
      {"   ld.weak r0", WL_ESYNTAX, "e.lua:42:4: "},
      {"ld r0, x; st x, 1", WL_ESYNTAX,
       "e.lua:42:9: one instruction per string"},
      {"st.weak x, 1 | st.weak y, 1", WL_ESYNTAX,
       "e.lua:42:14: one instruction per string"},
      {"", WL_ESYNTAX, "e.lua:42:1: empty instruction"},
      {"LC0: st.weak x, 1", WL_ESYNTAX, "e.lua:42:1: a label"},
      {"fence.gpu", WL_ESYNTAX, "e.lua:42:1: "},
      {"sust.b.1d x, 1", WL_ESYNTAX, "e.lua:42:1: unknown qualifier"},
      {"fence.proxy.tensormap", WL_ESYNTAX, "e.lua:42:1: expected fence."},
  };
  fixture *f = *state;
  wl_litmus *t = new_test(f, 0, "T");
  size_t i;
  add_thread(f, 0, 0);
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
    FAILS(f, wl_litmus_add_insn(t, 0, cases[i].text, "e.lua", 42),
          cases[i].err, cases[i].prefix);
  /* the thread got none of them */
  OK(f, wl_litmus_add_insn(t, 0, "st.weak x, 1", "e.lua", 43));
  explore(f, 0);
  herd_has(f->r[0], (const char *const[]){"States 1", "x=1;", NULL});
}

static void test_set_reg(void **state) {
  fixture *f = *state;
  wl_litmus *t = new_test(f, 0, "T");
  add_thread(f, 0, 0);
  add_insns(f, 0, 0, (const char *const[]){"st.weak x, r0", NULL});
  OK(f, wl_litmus_set_reg(t, 0, "r0", 5));
  OK(f, wl_litmus_set_reg(t, 0, "r7", -3));
  FAILS(f, wl_litmus_set_reg(t, 0, "x", 1), WL_EINVAL, "'x' is not");
  FAILS(f, wl_litmus_set_reg(t, 0, "r", 1), WL_EINVAL, "'r' is not");
  assert_int_equal(wl_litmus_set_reg(t, 0, NULL, 1), WL_EINVAL);
  assert_int_equal(wl_litmus_set_reg(t, -1, "r0", 1), WL_EINVAL);
  explore(f, 0);
  herd_has(f->r[0], (const char *const[]){"0:r0=5; 0:r7=-3; x=5;", NULL});
}

static void test_set_condition(void **state) {
  fixture *f = *state;
  wl_litmus *t = new_test(f, 0, "T");
  add_thread(f, 0, 0);
  add_insns(f, 0, 0,
            (const char *const[]){"st.weak x, 1", "ld.weak r0, x", NULL});
  /* errors name file:line:col */
  FAILS(f, wl_litmus_set_condition(t, "exists (0:r0 == )", "c.lua", 9),
        WL_ESYNTAX, "c.lua:9:17: ");
  FAILS(f, wl_litmus_set_condition(t, "", "c.lua", 9), WL_ESYNTAX,
        "c.lua:9:1: expected 'exists', '~exists' or 'forall'");
  FAILS(f, wl_litmus_set_condition(t, "maybe (x == 1)", "c.lua", 2),
        WL_ESYNTAX, "c.lua:2:1: ");
  FAILS(f, wl_litmus_set_condition(t, "exists (P5:r0 == 1)", "c.lua", 3),
        WL_ESYNTAX, "c.lua:3:9: the test has no thread P5");
  FAILS(f, wl_litmus_set_condition(t, "exists (x == 1) junk", "c.lua", 4),
        WL_ESYNTAX, "c.lua:4:17: ");
  assert_int_equal(wl_litmus_set_condition(t, NULL, "c.lua", 1), WL_EINVAL);
  /* a failed condition leaves none: every register and location */
  explore(f, 0);
  herd_has(f->r[0], (const char *const[]){"0:r0=1; x=1;", NULL});
  wl_result_free(f->r[0]);
  f->r[0] = NULL;

  OK(f, wl_litmus_set_condition(t, "exists (0:r0 == 1 /\\ x == 1)", "c.lua",
                                1));
  explore(f, 0);
  assert_int_equal(wl_result_cond_kind(f->r[0]), WL_COND_EXISTS);
  assert_int_equal(wl_result_verdict(f->r[0]), 1);
  herd_has(f->r[0], (const char *const[]){
                        "Test T Allowed", "Ok",
                        "Condition exists (0:r0 == 1 /\\ x == 1)", NULL});
  wl_result_free(f->r[0]);
  f->r[0] = NULL;

  /* replacing it; text spaces are normalised */
  OK(f, wl_litmus_set_condition(t, "~exists\n  (P0:r0 ==   0)", "c.lua", 1));
  explore(f, 0);
  assert_int_equal(wl_result_cond_kind(f->r[0]), WL_COND_NOTEXISTS);
  assert_int_equal(wl_result_verdict(f->r[0]), 1);
  herd_has(f->r[0], (const char *const[]){"Test T Forbidden",
                                          "Condition ~exists (P0:r0 == 0)",
                                          NULL});
  wl_result_free(f->r[0]);
  f->r[0] = NULL;

  OK(f, wl_litmus_set_condition(t, "forall (x == 2)", "c.lua", 1));
  explore(f, 0);
  assert_int_equal(wl_result_cond_kind(f->r[0]), WL_COND_FORALL);
  assert_int_equal(wl_result_verdict(f->r[0]), 0);
  herd_has(f->r[0], (const char *const[]){"Test T Required", "No",
                                          "x=1;", NULL});
}

static void test_insn_on_callback_thread(void **state) {
  fixture *f = *state;
  wl_litmus *t = new_test(f, 0, "T");
  side s = mk(0, WEAK, 0, WEAK);
  assert_int_equal(loc(f, 0, "x"), 0);
  add_thread(f, 0, 0);
  add_thread(f, 0, 1);
  OK(f, wl_litmus_set_thread_fn(t, 0, cb_st, &s));
  FAILS(f, wl_litmus_add_insn(t, 0, "st.weak x, 1", "b.lua", 1), WL_EINVAL,
        "P0 is a function thread");
  /* and the other way round */
  OK(f, wl_litmus_add_insn(t, 1, "ld.weak r0, x", "b.lua", 2));
  FAILS(f, wl_litmus_set_thread_fn(t, 1, cb_st, &s), WL_EINVAL,
        "P1 already has instructions");
  explore(f, 0);
  herd_has(f->r[0], (const char *const[]){"States 2", "1:r0=0; x=1;",
                                          "1:r0=1; x=1;", NULL});
}

/* ---------------------------------------------------------------- */
/* Callback threads                                                  */

enum { X, Y, Z };

/* Slot k: locations x, y, z (0, 1, 2) and one callback thread per fn,
 * thread i in CTA ctas[i] (or CTA i when ctas is NULL). */
static wl_litmus *cb_test(fixture *f, int k, const char *name, int n,
                          const wl_thread_fn *fns, side *sides,
                          const int *ctas) {
  wl_litmus *t = new_test(f, k, name);
  int i;
  assert_int_equal(loc(f, k, "x"), X);
  assert_int_equal(loc(f, k, "y"), Y);
  assert_int_equal(loc(f, k, "z"), Z);
  for (i = 0; i < n; i++) {
    assert_int_equal(add_thread(f, k, ctas ? ctas[i] : i), i);
    OK(f, wl_litmus_set_thread_fn(t, i, fns[i], &sides[i]));
  }
  return t;
}

static void test_cb_mp(void **state) {
  static const char src[] =
      "PTX MP\n"
      "{ x=0; y=0; z=0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
      " st.weak x, 1   | ld.weak r0, y  ;\n"
      " st.weak y, 1   | ld.weak r1, x  ;\n";
  fixture *f = *state;
  side s[2];
  s[0] = mk(X, WEAK, Y, WEAK);
  s[1] = mk(Y, WEAK, X, WEAK);
  parse(f, 0, src);
  explore(f, 0);
  cb_test(f, 1, "MP-cb", 2, (const wl_thread_fn[]){cb_st_st, cb_ld_ld}, s,
          NULL);
  OK(f, wl_litmus_set_condition(f->t[1], "exists (1:A == 1 /\\ 1:B == 0)",
                                "cb.c", 1));
  explore(f, 1);
  same_states(f, (const char *const[]){"1:r0", "1:r1", "x", "y", NULL},
              (const char *const[]){"1:A", "1:B", "x", "y", NULL}, 1);
  assert_int_equal(wl_result_nstates(f->r[1]), 4);
  herd_has(f->r[1], (const char *const[]){
                        "Test MP-cb Allowed", "States 4", "1:A=1; 1:B=0;",
                        "Ok", "Condition exists (1:A == 1 /\\ 1:B == 0)",
                        NULL});
  check_results(f->r[1]);
}

static void test_cb_mp_release_acquire(void **state) {
  static const char src[] =
      "PTX MP+rel+acq\n"
      "{ x=0; y=0; z=0; }\n"
      " P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;\n"
      " st.weak x, 1        | ld.acquire.gpu r0, y ;\n"
      " st.release.gpu y, 1 | ld.weak r1, x        ;\n";
  fixture *f = *state;
  side s[2];
  s[0] = mk(X, WEAK, Y, REL);
  s[1] = mk(Y, ACQ, X, WEAK);
  parse(f, 0, src);
  explore(f, 0);
  cb_test(f, 1, "MP-cb", 2, (const wl_thread_fn[]){cb_st_st, cb_ld_ld}, s,
          NULL);
  OK(f, wl_litmus_set_condition(f->t[1], "~exists (1:A == 1 /\\ 1:B == 0)",
                                "cb.c", 1));
  explore(f, 1);
  same_states(f, (const char *const[]){"1:r0", "1:r1", "x", "y", NULL},
              (const char *const[]){"1:A", "1:B", "x", "y", NULL}, 1);
  assert_int_equal(wl_result_nstates(f->r[1]), 3);
  assert_int_equal(wl_result_verdict(f->r[1]), 1);
  check_results(f->r[1]);
}

static void test_cb_sb(void **state) {
  static const char src[] =
      "PTX SB\n"
      "{ x=0; y=0; z=0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
      " st.weak x, 1   | st.weak y, 1   ;\n"
      " ld.weak r0, y  | ld.weak r0, x  ;\n";
  fixture *f = *state;
  side s[2];
  s[0] = mk(X, WEAK, Y, WEAK);
  s[1] = mk(Y, WEAK, X, WEAK);
  parse(f, 0, src);
  explore(f, 0);
  cb_test(f, 1, "SB-cb", 2, (const wl_thread_fn[]){cb_st_ld, cb_st_ld}, s,
          NULL);
  explore(f, 1);
  same_states(f, (const char *const[]){"0:r0", "1:r0", "x", "y", NULL},
              (const char *const[]){"0:A", "1:A", "x", "y", NULL}, 1);
  assert_int_equal(wl_result_nstates(f->r[1]), 4);
  /* no condition: every result and location, named like registers */
  herd_has(f->r[1], (const char *const[]){"0:A=0; 1:A=0; x=1; y=1; z=0;",
                                          "0:A=1; 1:A=1; x=1; y=1; z=0;",
                                          NULL});
  check_results(f->r[1]);
}

static void test_cb_sb_fence_sc(void **state) {
  static const char src[] =
      "PTX SB+fence.sc\n"
      "{ x=0; y=0; z=0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
      " st.weak x, 1   | st.weak y, 1   ;\n"
      " fence.sc.gpu   | fence.sc.gpu   ;\n"
      " ld.weak r0, y  | ld.weak r0, x  ;\n";
  fixture *f = *state;
  side s[2];
  s[0] = mk(X, WEAK, Y, WEAK);
  s[1] = mk(Y, WEAK, X, WEAK);
  s[0].fence = s[1].fence = 1;
  parse(f, 0, src);
  explore(f, 0);
  cb_test(f, 1, "SB-cb", 2, (const wl_thread_fn[]){cb_st_ld, cb_st_ld}, s,
          NULL);
  OK(f, wl_litmus_set_condition(f->t[1], "~exists (0:A == 0 /\\ 1:A == 0)",
                                "cb.c", 1));
  explore(f, 1);
  same_states(f, (const char *const[]){"0:r0", "1:r0", "x", "y", NULL},
              (const char *const[]){"0:A", "1:A", "x", "y", NULL}, 1);
  assert_int_equal(wl_result_nstates(f->r[1]), 3);
  assert_int_equal(wl_result_verdict(f->r[1]), 1);
  /* the counts are of states unless executions are counted */
  assert_int_equal(wl_result_negative(f->r[1]), 3);
  check_results(f->r[1]);
}

static void test_cb_lb(void **state) {
  static const char src[] =
      "PTX LB\n"
      "{ x=0; y=0; z=0; }\n"
      " P0@cta 0,gpu 0       | P1@cta 1,gpu 0       ;\n"
      " ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, y ;\n"
      " st.relaxed.gpu y, 1  | st.relaxed.gpu x, 1  ;\n";
  fixture *f = *state;
  side s[2];
  s[0] = mk(X, RLX, Y, RLX);
  s[1] = mk(Y, RLX, X, RLX);
  parse(f, 0, src);
  explore(f, 0);
  cb_test(f, 1, "LB-cb", 2, (const wl_thread_fn[]){cb_ld_st, cb_ld_st}, s,
          NULL);
  OK(f, wl_litmus_set_condition(f->t[1], "exists (0:A == 1 /\\ 1:A == 1)",
                                "cb.c", 1));
  explore(f, 1);
  same_states(f, (const char *const[]){"0:r0", "1:r0", "x", "y", NULL},
              (const char *const[]){"0:A", "1:A", "x", "y", NULL}, 1);
  /* without a dependency, r = 1 / r = 1 is allowed */
  assert_int_equal(wl_result_nstates(f->r[1]), 4);
  assert_int_equal(wl_result_verdict(f->r[1]), 1);
  check_results(f->r[1]);
}

/* Each store writes the loaded value: the data dependency is found
 * semantically, so no value comes out of thin air.  A third thread
 * writes 1 to x; the executions per state match the instruction
 * version, which has the dependency syntactically. */
static void test_cb_lb_data(void **state) {
  static const char src[] =
      "PTX LB+datas\n"
      "{ x=0; y=0; z=0; }\n"
      " P0@cta 0,gpu 0       | P1@cta 1,gpu 0       | P2@cta 2,gpu 0 ;\n"
      " ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, y | "
      "st.relaxed.gpu x, 1 ;\n"
      " st.relaxed.gpu y, r0 | st.relaxed.gpu x, r0 | ;\n";
  static const char *const ki[] = {"0:r0", "1:r0", "x", "y", NULL};
  static const char *const kc[] = {"0:A", "1:A", "x", "y", NULL};
  fixture *f = *state;
  side s[3];
  size_t i;
  int v;
  s[0] = mk(X, RLX, Y, RLX);
  s[1] = mk(Y, RLX, X, RLX);
  s[2] = mk(X, RLX, 0, RLX);
  s[0].mode = s[1].mode = STORE_LOADED;
  parse(f, 0, src);
  explore(f, 0);
  cb_test(f, 1, "LB-cb", 3,
          (const wl_thread_fn[]){cb_ld_st, cb_ld_st, cb_st}, s, NULL);
  explore(f, 1);
  same_states(f, ki, kc, 1);
  assert_int_equal(wl_result_positive(f->r[0]) + wl_result_negative(f->r[0]),
                   wl_result_positive(f->r[1]) + wl_result_negative(f->r[1]));
  /* only values the program writes */
  for (i = 0; i < wl_result_nstates(f->r[1]); i++)
    for (v = 0; v < wl_result_nvars(f->r[1]); v++) {
      int64_t val = wl_result_value(f->r[1], i, v);
      assert_true(val == 0 || val == 1);
    }
  check_results(f->r[1]);
}

/* Without the third thread, the data dependencies forbid 1/1 entirely:
 * only 0s are ever read. */
static void test_cb_lb_data_thin_air(void **state) {
  fixture *f = *state;
  side s[2];
  s[0] = mk(X, WEAK, Y, WEAK);
  s[1] = mk(Y, WEAK, X, WEAK);
  s[0].mode = s[1].mode = STORE_LOADED;
  cb_test(f, 1, "LB-cb", 2, (const wl_thread_fn[]){cb_ld_st, cb_ld_st}, s,
          NULL);
  OK(f, wl_litmus_set_condition(f->t[1], "forall (0:A == 0 /\\ 1:A == 0)",
                                "cb.c", 1));
  explore(f, 1);
  assert_int_equal(wl_result_nstates(f->r[1]), 1);
  assert_int_equal(wl_result_verdict(f->r[1]), 1);
}

/* A callback that branches on a loaded value: a control dependency.  A
 * third thread writes 1 to x, so 1 can be read; the executions per state
 * match the instruction version, whose branch carries the dependency
 * syntactically (without it, more executions would reach 1/1: those where
 * each store justifies the other's load). */
static void test_cb_lb_ctrl(void **state) {
  static const char src[] =
      "PTX LB+ctrls\n"
      "{ x=0; y=0; z=0; }\n"
      " P0@cta 0,gpu 0       | P1@cta 1,gpu 0       | P2@cta 2,gpu 0 ;\n"
      " ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, y | "
      "st.relaxed.gpu x, 1 ;\n"
      " bne r0, 1, LC0       | bne r0, 1, LC1       | ;\n"
      " st.relaxed.gpu y, 1  | st.relaxed.gpu x, 1  | ;\n"
      " LC0:                 | LC1:                 | ;\n"
      "exists (P0:r0 == 1 /\\ P1:r0 == 1)\n";
  static const char *const ki[] = {"0:r0", "1:r0", "x", "y", NULL};
  static const char *const kc[] = {"0:A", "1:A", "x", "y", NULL};
  fixture *f = *state;
  side s[3];
  s[0] = mk(X, RLX, Y, RLX);
  s[1] = mk(Y, RLX, X, RLX);
  s[2] = mk(X, RLX, 0, RLX);
  s[0].mode = s[1].mode = STORE_IF_ONE;
  parse(f, 0, src);
  explore(f, 0);
  cb_test(f, 1, "LB-ctrl-cb", 3,
          (const wl_thread_fn[]){cb_ld_st, cb_ld_st, cb_st}, s, NULL);
  OK(f, wl_litmus_set_condition(f->t[1], "exists (0:A == 1 /\\ 1:A == 1)",
                                "cb.c", 1));
  explore(f, 1);
  same_states(f, ki, kc, 1);
  assert_int_equal(wl_result_positive(f->r[0]), wl_result_positive(f->r[1]));
  assert_int_equal(wl_result_negative(f->r[0]), wl_result_negative(f->r[1]));
  check_results(f->r[1]);
}

/* Without a writer of 1, the branch never stores: only 0s. */
static void test_cb_lb_ctrl_alone(void **state) {
  fixture *f = *state;
  side s[2];
  s[0] = mk(X, RLX, Y, RLX);
  s[1] = mk(Y, RLX, X, RLX);
  s[0].mode = s[1].mode = STORE_IF_ONE;
  cb_test(f, 1, "LB-ctrl-cb", 2,
          (const wl_thread_fn[]){cb_ld_st, cb_ld_st}, s, NULL);
  explore(f, 1);
  assert_int_equal(wl_result_nstates(f->r[1]), 1);
  herd_has(f->r[1], (const char *const[]){"0:A=0; 1:A=0; x=0; y=0; z=0;",
                                          NULL});
}

static void test_cb_corr(void **state) {
  static const char src[] =
      "PTX CoRR\n"
      "{ x=0; y=0; z=0; }\n"
      " P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;\n"
      " st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, x ;\n"
      "                     | ld.relaxed.gpu r1, x ;\n";
  fixture *f = *state;
  side s[2];
  s[0] = mk(X, RLX, 0, RLX);
  s[1] = mk(X, RLX, X, RLX);
  parse(f, 0, src);
  explore(f, 0);
  cb_test(f, 1, "CoRR-cb", 2, (const wl_thread_fn[]){cb_st, cb_ld_ld}, s,
          NULL);
  OK(f, wl_litmus_set_condition(f->t[1], "~exists (1:A == 1 /\\ 1:B == 0)",
                                "cb.c", 1));
  explore(f, 1);
  same_states(f, (const char *const[]){"1:r0", "1:r1", "x", NULL},
              (const char *const[]){"1:A", "1:B", "x", NULL}, 1);
  assert_int_equal(wl_result_nstates(f->r[1]), 3);
  assert_int_equal(wl_result_verdict(f->r[1]), 1);
  check_results(f->r[1]);
}

static void test_cb_iriw(void **state) {
  static const char src[] =
      "PTX IRIW\n"
      "{ x=0; y=0; z=0; }\n"
      " P0@cta 0,gpu 0      | P1@cta 1,gpu 0       | "
      "P2@cta 2,gpu 0      | P3@cta 3,gpu 0       ;\n"
      " st.relaxed.gpu x, 1 | ld.acquire.gpu r0, x | "
      "st.relaxed.gpu y, 1 | ld.acquire.gpu r0, y ;\n"
      "                     | ld.acquire.gpu r1, y | "
      "                    | ld.acquire.gpu r1, x ;\n";
  static const char *const ki[] = {"1:r0", "1:r1", "3:r0", "3:r1", NULL};
  static const char *const kc[] = {"1:A", "1:B", "3:A", "3:B", NULL};
  fixture *f = *state;
  side s[4];
  s[0] = mk(X, RLX, 0, RLX);
  s[1] = mk(X, ACQ, Y, ACQ);
  s[2] = mk(Y, RLX, 0, RLX);
  s[3] = mk(Y, ACQ, X, ACQ);
  parse(f, 0, src);
  explore(f, 0);
  cb_test(f, 1, "IRIW-cb", 4,
          (const wl_thread_fn[]){cb_st, cb_ld_ld, cb_st, cb_ld_ld}, s, NULL);
  explore(f, 1);
  same_states(f, ki, kc, 1);
  assert_int_equal(wl_result_nstates(f->r[0]), wl_result_nstates(f->r[1]));
  /* acquire loads alone do not forbid IRIW's 1 0 1 0 in PTX */
  {
    char *rows = states_over(f->r[1], kc, 0);
    assert_non_null(strstr(rows, "1 0 1 0\n"));
    free(rows);
  }
  check_results(f->r[1]);
}

/* Two callback threads of one CTA: the barrier orders P0's store before
 * P1's load, as bar.sync 0 does between instruction threads. */
static int cb_st_bar(void *ud, wl_tb *tb) {
  const side *s = ud;
  TRY(wl_tb_store(tb, s->loc1, 1, WEAK, __LINE__));
  if (s->fence)
    TRY(wl_tb_barrier(tb, WL_BAR_SYNC, 0, 0, __LINE__));
  return 0;
}

static int cb_bar_ld(void *ud, wl_tb *tb) {
  const side *s = ud;
  int64_t a;
  if (s->fence)
    TRY(wl_tb_barrier(tb, WL_BAR_SYNC, 0, 0, __LINE__));
  TRY(wl_tb_load(tb, s->loc1, WEAK, __LINE__, &a));
  return wl_tb_result(tb, "A", a);
}

static void test_cb_barrier(void **state) {
  static const char src[] =
      "PTX MP+bar\n"
      "{ x=0; y=0; z=0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n"
      " st.weak x, 1   | bar.sync 0     ;\n"
      " bar.sync 0     | ld.weak r0, x  ;\n";
  fixture *f = *state;
  side s[2];
  static const int ctas[] = {0, 0};
  size_t i;
  s[0] = mk(X, WEAK, 0, WEAK);
  s[1] = mk(X, WEAK, 0, WEAK);
  s[0].fence = s[1].fence = 1;
  parse(f, 0, src);
  explore(f, 0);
  cb_test(f, 1, "bar-cb", 2, (const wl_thread_fn[]){cb_st_bar, cb_bar_ld},
          s, ctas);
  OK(f, wl_litmus_set_condition(f->t[1], "forall (1:A == 1)", "cb.c", 1));
  explore(f, 1);
  same_states(f, (const char *const[]){"1:r0", "x", NULL},
              (const char *const[]){"1:A", "x", NULL}, 1);
  assert_int_equal(wl_result_nstates(f->r[1]), 1);
  assert_int_equal(wl_result_verdict(f->r[1]), 1);
  check_results(f->r[1]);
  /* the witness has both barriers, id 0, in one phase */
  for (i = 0; i < (size_t)wl_result_witness_nevents(f->r[1], 0); i++) {
    wl_event_info e;
    OK(f, wl_result_witness_event(f->r[1], 0, (int)i, &e));
    if (e.kind == 'B') {
      assert_int_equal(e.value, 0);
      assert_true(e.phase >= 0);
      assert_true(e.thread == 0 || e.thread == 1);
    }
  }
  /* without the barriers, 0 may be read */
  wl_result_free(f->r[1]);
  wl_litmus_free(f->t[1]);
  f->r[1] = NULL;
  f->t[1] = NULL;
  s[0].fence = s[1].fence = 0;
  cb_test(f, 1, "nobar-cb", 2,
          (const wl_thread_fn[]){cb_st_bar, cb_bar_ld}, s, ctas);
  explore(f, 1);
  assert_int_equal(wl_result_nstates(f->r[1]), 2);
}

/* while ([y] == 0) ; A = [x] */
static int cb_spin(void *ud, wl_tb *tb) {
  const side *s = ud;
  int64_t v, a;
  do
    TRY(wl_tb_load(tb, s->loc1, s->sem1, s->scope1, __LINE__, &v));
  while (v == 0);
  TRY(wl_tb_load(tb, s->loc2, s->sem2, s->scope2, __LINE__, &a));
  return wl_tb_result(tb, "A", a);
}

static void test_cb_spin_bound(void **state) {
  fixture *f = *state;
  side s[2];
  size_t i;
  int seen1 = 0;
  s[0] = mk(X, WEAK, Y, REL);
  s[1] = mk(Y, ACQ, X, WEAK);
  cb_test(f, 1, "spin-cb", 2, (const wl_thread_fn[]){cb_st_st, cb_spin}, s,
          NULL);
  OK(f, wl_litmus_set_condition(f->t[1], "exists (1:A == 1)", "cb.c", 1));
  explore_unroll(f, 1, 2);
  /* reading 0 three times cuts the trace: the bound was hit, the
   * exploration still finishes */
  assert_int_equal(wl_result_bound_hit(f->r[1]), 1);
  assert_true(wl_result_traces_cut(f->r[1]) >= 1);
  assert_int_equal(wl_result_verdict(f->r[1]), 1);
  herd_has(f->r[1],
           (const char *const[]){
               "Loop Ok",
               "Warning spin-cb: loop unroll bound 2 reached; outcomes that "
               "need more iterations are not listed",
               NULL});
  for (i = 0; i < wl_result_nstates(f->r[1]); i++)
    if (wl_result_value(f->r[1], i, find_var(f->r[1], "1:A")) == 1)
      seen1 = 1;
  assert_true(seen1);
  /* message passing holds on every complete trace: A == 0 only where
   * the flag was never seen */
  check_results(f->r[1]);
}

/* N = the number of reads of x that did not see 3 */
static int cb_count(void *ud, wl_tb *tb) {
  const side *s = ud;
  int64_t v, n;
  for (n = 0;; n++) {
    TRY(wl_tb_load(tb, s->loc1, s->sem1, s->scope1, __LINE__, &v));
    if (v == 3)
      return wl_tb_result(tb, "N", n);
  }
}

static int cb_st123(void *ud, wl_tb *tb) {
  const side *s = ud;
  int64_t v;
  for (v = 1; v <= 3; v++)
    TRY(wl_tb_store(tb, s->loc1, v, s->sem1, s->scope1, __LINE__));
  return 0;
}

static int64_t max_over(const wl_result *r, const char *key) {
  int v = find_var(r, key);
  int64_t m = INT64_MIN;
  size_t i;
  for (i = 0; i < wl_result_nstates(r); i++)
    if (wl_result_value(r, i, v) > m)
      m = wl_result_value(r, i, v);
  return m;
}

static void test_cb_unroll(void **state) {
  fixture *f = *state;
  side s[2];
  s[0] = mk(X, RLX, 0, RLX);
  s[1] = mk(X, RLX, 0, RLX);
  cb_test(f, 0, "count-cb", 2, (const wl_thread_fn[]){cb_st123, cb_count},
          s, NULL);
  cb_test(f, 1, "count-cb", 2, (const wl_thread_fn[]){cb_st123, cb_count},
          s, NULL);
  explore_unroll(f, 0, 1);
  explore_unroll(f, 1, 3);
  assert_int_equal(wl_result_bound_hit(f->r[0]), 1);
  assert_int_equal(wl_result_bound_hit(f->r[1]), 1);
  /* with unroll u, x is read at most u + 1 times */
  assert_int_equal(max_over(f->r[0], "1:N"), 1);
  assert_int_equal(max_over(f->r[1], "1:N"), 3);
  assert_true(wl_result_nstates(f->r[1]) > wl_result_nstates(f->r[0]));
  check_results(f->r[0]);
  check_results(f->r[1]);
}

static int cb_fail(void *ud, wl_tb *tb) {
  const side *s = ud;
  int64_t v;
  TRY(wl_tb_load(tb, s->loc1, WEAK, __LINE__, &v));
  if (v == 1)
    return wl_tb_fail(tb, WL_EUNSUPPORTED, "cb.c:7: the widget saw 1");
  return 0;
}

static int cb_fail_plain(void *ud, wl_tb *tb) {
  (void)ud;
  (void)tb;
  return WL_EIO;
}

static void test_cb_fail(void **state) {
  fixture *f = *state;
  side s[2];
  s[0] = mk(X, WEAK, 0, WEAK);
  s[1] = mk(X, WEAK, 0, WEAK);
  cb_test(f, 0, "fail-cb", 2, (const wl_thread_fn[]){cb_st, cb_fail}, s,
          NULL);
  FAILS(f, wl_explore(f->ctx, f->t[0], NULL, &f->r[0]), WL_EUNSUPPORTED,
        NULL);
  assert_string_equal(wl_ctx_errmsg(f->ctx), "cb.c:7: the widget saw 1");
  assert_null(f->r[0]);
  /* without a message: the thread and the code's text */
  cb_test(f, 1, "fail-cb", 1, (const wl_thread_fn[]){cb_fail_plain}, s,
          NULL);
  FAILS(f, wl_explore(f->ctx, f->t[1], NULL, &f->r[1]), WL_EIO,
        "thread P0 failed: i/o error");
  assert_null(f->r[1]);
  /* wl_tb_fail returns its code; a NULL message gives the code's text */
  assert_int_equal(wl_tb_fail(NULL, WL_EINVAL, "x"), WL_EINVAL);
}

/* Loads x, then a different location on every other run: the runs are
 * counted through ud, so a rerun with the same loaded values loads
 * elsewhere. */
typedef struct nondet {
  int a, b; /* the location of the first run, of later runs */
  long runs;
} nondet;

static int cb_nondet(void *ud, wl_tb *tb) {
  nondet *n = ud;
  int64_t v;
  TRY(wl_tb_load(tb, X, WEAK, __LINE__, &v));
  TRY(wl_tb_load(tb, n->runs++ % 2 ? n->b : n->a, WEAK, __LINE__, &v));
  return wl_tb_result(tb, "A", v);
}

static void nondet_case(fixture *f, int a, int b) {
  nondet n;
  side s[3];
  int i;
  memset(&n, 0, sizeof n);
  n.a = a;
  n.b = b;
  s[0] = mk(X, WEAK, 0, WEAK);
  s[1] = mk(Y, WEAK, 0, WEAK);
  new_test(f, 0, "nondet");
  assert_int_equal(loc(f, 0, "x"), X);
  assert_int_equal(loc(f, 0, "y"), Y);
  assert_int_equal(loc(f, 0, "z"), Z);
  for (i = 0; i < 3; i++)
    add_thread(f, 0, i);
  OK(f, wl_litmus_set_thread_fn(f->t[0], 0, cb_st, &s[0]));
  OK(f, wl_litmus_set_thread_fn(f->t[0], 1, cb_st, &s[1]));
  OK(f, wl_litmus_set_thread_fn(f->t[0], 2, cb_nondet, &n));
  FAILS(f, wl_explore(f->ctx, f->t[0], NULL, &f->r[0]), WL_EINVAL,
        "thread P2 is not deterministic");
  assert_null(f->r[0]);
  wl_litmus_free(f->t[0]);
  f->t[0] = NULL;
}

static void test_cb_nondeterministic(void **state) {
  fixture *f = *state;
  /* x has values 0 and 1, z only 0: the rerun sees another domain */
  nondet_case(f, X, Z);
  /* x and y both have values 0 and 1: the rerun's choice has as many
   * values, but of another location */
  nondet_case(f, X, Y);
}

/* A callback that stops earlier on every other run. */
static int cb_shorter(void *ud, wl_tb *tb) {
  nondet *n = ud;
  int64_t v;
  TRY(wl_tb_load(tb, n->a, WEAK, __LINE__, &v));
  if (n->runs++ % 2)
    return 0;
  return wl_tb_load(tb, n->a, WEAK, __LINE__, &v);
}

static void test_cb_nondeterministic_shorter(void **state) {
  fixture *f = *state;
  nondet n;
  side s = mk(X, WEAK, 0, WEAK);
  memset(&n, 0, sizeof n);
  n.a = X;
  new_test(f, 0, "nondet");
  assert_int_equal(loc(f, 0, "x"), X);
  add_thread(f, 0, 0);
  add_thread(f, 0, 1);
  OK(f, wl_litmus_set_thread_fn(f->t[0], 0, cb_st, &s));
  OK(f, wl_litmus_set_thread_fn(f->t[0], 1, cb_shorter, &n));
  FAILS(f, wl_explore(f->ctx, f->t[0], NULL, &f->r[0]), WL_EINVAL,
        "thread P1 is not deterministic");
}

/* One atomic on x (initially 12), its old value as OLD. */
typedef struct atom_case {
  int op;
  int64_t a, b, want;
  int writes;
} atom_case;

static int cb_atom(void *ud, wl_tb *tb) {
  const atom_case *c = ud;
  int64_t old = -1;
  TRY(wl_tb_atomic(tb, X, c->op, c->a, c->b, WL_SEM_ACQ_REL, WL_SCOPE_GPU,
                   __LINE__, &old));
  return wl_tb_result(tb, "OLD", old);
}

static void test_cb_atomic_ops(void **state) {
  static const atom_case cases[] = {
      {WL_OP_ADD, 5, 0, 17, 1},   {WL_OP_SUB, 5, 0, 7, 1},
      {WL_OP_MUL, 5, 0, 60, 1},   {WL_OP_DIV, 5, 0, 2, 1},
      {WL_OP_REM, 5, 0, 2, 1},    {WL_OP_AND, 5, 0, 4, 1},
      {WL_OP_OR, 5, 0, 13, 1},    {WL_OP_XOR, 5, 0, 9, 1},
      {WL_OP_MIN, 5, 0, 5, 1},    {WL_OP_MAX, 5, 0, 12, 1},
      {WL_OP_INC, 20, 0, 13, 1},  {WL_OP_INC, 5, 0, 0, 1},
      {WL_OP_DEC, 20, 0, 11, 1},  {WL_OP_DEC, 5, 0, 5, 1},
      {WL_OP_EXCH, 5, 0, 5, 1},   {WL_OP_CAS, 12, 99, 99, 1},
      {WL_OP_CAS, 7, 99, 12, 0},
  };
  fixture *f = *state;
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    wl_result *r;
    int n, k, nr = 0, nw = 0;
    new_test(f, 0, "atom");
    OK(f, wl_litmus_add_location(f->t[0], "x", 12, NULL));
    add_thread(f, 0, 0);
    OK(f, wl_litmus_set_thread_fn(f->t[0], 0, cb_atom, (void *)&cases[i]));
    r = explore(f, 0);
    assert_int_equal(wl_result_nstates(r), 1);
    if (wl_result_value(r, 0, find_var(r, "x")) != cases[i].want ||
        wl_result_value(r, 0, find_var(r, "0:OLD")) != 12)
      fail_msg("op %d (%lld, %lld): x = %lld, old = %lld; want %lld, 12",
               cases[i].op, (long long)cases[i].a, (long long)cases[i].b,
               (long long)wl_result_value(r, 0, find_var(r, "x")),
               (long long)wl_result_value(r, 0, find_var(r, "0:OLD")),
               (long long)cases[i].want);
    /* the witness: the initial write, the read, and the write of a
     * successful RMW, both marked rmw */
    n = wl_result_witness_nevents(r, 0);
    for (k = 0; k < n; k++) {
      wl_event_info e;
      OK(f, wl_result_witness_event(r, 0, k, &e));
      if (e.thread != 0)
        continue;
      assert_int_equal(e.rmw, cases[i].writes);
      assert_int_equal(e.scope, WL_SCOPE_GPU);
      if (e.kind == 'R') {
        nr++;
        assert_int_equal(e.value, 12);
        assert_int_equal(e.sem, WL_SEM_ACQUIRE);
      } else {
        nw++;
        assert_int_equal(e.kind, 'W');
        assert_int_equal(e.value, cases[i].want);
        assert_int_equal(e.sem, WL_SEM_RELEASE);
        assert_int_equal(e.co, 1);
      }
    }
    assert_int_equal(nr, 1);
    assert_int_equal(nw, cases[i].writes);
    check_results(r);
    wl_result_free(r);
    wl_litmus_free(f->t[0]);
    f->r[0] = NULL;
    f->t[0] = NULL;
  }
}

/* Two atomic increments in different CTAs, gpu scope: both count. */
static int cb_inc(void *ud, wl_tb *tb) {
  int64_t old;
  (void)ud;
  TRY(wl_tb_atomic(tb, X, WL_OP_ADD, 1, 0, WL_SEM_RELAXED, WL_SCOPE_GPU,
                   __LINE__, &old));
  return wl_tb_result(tb, "A", old);
}

static void test_cb_atomic_two_threads(void **state) {
  static const char src[] =
      "PTX atom\n"
      "{ x=0; y=0; z=0; }\n"
      " P0@cta 0,gpu 0                | P1@cta 1,gpu 0 ;\n"
      " atom.relaxed.gpu.add r0, x, 1 | atom.relaxed.gpu.add r0, x, 1 ;\n";
  fixture *f = *state;
  side s[2];
  parse(f, 0, src);
  explore(f, 0);
  cb_test(f, 1, "atom-cb", 2, (const wl_thread_fn[]){cb_inc, cb_inc}, s,
          NULL);
  OK(f, wl_litmus_set_condition(f->t[1], "forall (x == 2)", "cb.c", 1));
  explore(f, 1);
  same_states(f, (const char *const[]){"0:r0", "1:r0", "x", NULL},
              (const char *const[]){"0:A", "1:A", "x", NULL}, 1);
  assert_int_equal(wl_result_nstates(f->r[1]), 2);
  assert_int_equal(wl_result_verdict(f->r[1]), 1);
  check_results(f->r[1]);
}

/* Bad arguments of the wl_tb calls come back as WL_EINVAL; the callback
 * records the codes and carries on. */
typedef struct badargs {
  int rc[32], n;
} badargs;

static int cb_badargs(void *ud, wl_tb *tb) {
  badargs *b = ud;
  int64_t v;
  b->n = 0;
  b->rc[b->n++] = wl_tb_fence(tb, WL_SEM_RELAXED, WL_SCOPE_GPU, 1);
  b->rc[b->n++] = wl_tb_fence(tb, WL_SEM_ACQUIRE, WL_SCOPE_GPU, 1);
  b->rc[b->n++] = wl_tb_fence(tb, WL_SEM_SC, WL_SCOPE_NONE, 1);
  b->rc[b->n++] = wl_tb_fence(tb, WL_SEM_SC, 7, 1);
  b->rc[b->n++] = wl_tb_fence(tb, 99, WL_SCOPE_GPU, 1);
  b->rc[b->n++] = wl_tb_load(tb, X, WL_SEM_RELEASE, WL_SCOPE_GPU, 1, &v);
  b->rc[b->n++] = wl_tb_load(tb, X, WL_SEM_WEAK, WL_SCOPE_GPU, 1, &v);
  b->rc[b->n++] = wl_tb_load(tb, X, WL_SEM_RELAXED, WL_SCOPE_NONE, 1, &v);
  b->rc[b->n++] = wl_tb_load(tb, 3, WL_SEM_WEAK, WL_SCOPE_NONE, 1, &v);
  b->rc[b->n++] = wl_tb_load(tb, -1, WL_SEM_WEAK, WL_SCOPE_NONE, 1, &v);
  b->rc[b->n++] = wl_tb_store(tb, X, 1, WL_SEM_ACQUIRE, WL_SCOPE_GPU, 1);
  b->rc[b->n++] = wl_tb_store(tb, X, 1, WL_SEM_SC, WL_SCOPE_GPU, 1);
  b->rc[b->n++] = wl_tb_store(tb, 9, 1, WL_SEM_WEAK, WL_SCOPE_NONE, 1);
  b->rc[b->n++] =
      wl_tb_atomic(tb, X, 99, 1, 0, WL_SEM_RELAXED, WL_SCOPE_GPU, 1, &v);
  b->rc[b->n++] =
      wl_tb_atomic(tb, X, -1, 1, 0, WL_SEM_RELAXED, WL_SCOPE_GPU, 1, &v);
  b->rc[b->n++] =
      wl_tb_atomic(tb, X, WL_OP_ADD, 1, 0, WL_SEM_WEAK, WL_SCOPE_NONE, 1, &v);
  b->rc[b->n++] =
      wl_tb_atomic(tb, X, WL_OP_ADD, 1, 0, WL_SEM_SC, WL_SCOPE_GPU, 1, &v);
  b->rc[b->n++] = wl_tb_barrier(tb, 7, 0, 0, 1);
  b->rc[b->n++] = wl_tb_barrier(tb, WL_BAR_SYNC, 0, -1, 1);
  b->rc[b->n++] = wl_tb_result(tb, NULL, 1);
  b->rc[b->n++] = wl_tb_result(tb, "", 1);
  b->rc[b->n++] = wl_tb_load(NULL, X, WL_SEM_WEAK, WL_SCOPE_NONE, 1, &v);
  b->rc[b->n++] = wl_tb_store(NULL, X, 1, WL_SEM_WEAK, WL_SCOPE_NONE, 1);
  b->rc[b->n++] = wl_tb_fence(NULL, WL_SEM_SC, WL_SCOPE_GPU, 1);
  b->rc[b->n++] = wl_tb_barrier(NULL, WL_BAR_SYNC, 0, 0, 1);
  b->rc[b->n++] = wl_tb_result(NULL, "A", 1);
  /* the good ones still work after the bad ones */
  TRY(wl_tb_fence(tb, WL_SEM_ACQ_REL, WL_SCOPE_SYS, 2));
  TRY(wl_tb_store(tb, X, 4, WL_SEM_RELEASE, WL_SCOPE_CTA, 3));
  return wl_tb_result(tb, "T", wl_tb_thread(tb));
}

static int cb_badfence(void *ud, wl_tb *tb) {
  (void)ud;
  return wl_tb_fence(tb, WL_SEM_SC, WL_SCOPE_NONE, 1);
}

static void test_cb_bad_args(void **state) {
  fixture *f = *state;
  badargs b;
  int i;
  wl_result *r;
  memset(&b, 0, sizeof b);
  new_test(f, 0, "bad");
  assert_int_equal(loc(f, 0, "x"), X);
  add_thread(f, 0, 0);
  add_thread(f, 0, 1);
  OK(f, wl_litmus_set_thread_fn(f->t[0], 1, cb_badargs, &b));
  r = explore(f, 0);
  assert_int_equal(b.n, 26);
  for (i = 0; i < b.n; i++)
    if (b.rc[i] != WL_EINVAL)
      fail_msg("bad call %d returned %s, not WL_EINVAL", i,
               wl_err_name(b.rc[i]));
  assert_int_equal(wl_result_nstates(r), 1);
  assert_int_equal(wl_result_value(r, 0, find_var(r, "x")), 4);
  assert_int_equal(wl_result_value(r, 0, find_var(r, "1:T")), 1);
  assert_int_equal(wl_tb_thread(NULL), -1);
  check_results(r);
  /* returned from the callback, a bad fence fails the exploration */
  new_test(f, 1, "badfence");
  add_thread(f, 1, 0);
  OK(f, wl_litmus_set_thread_fn(f->t[1], 0, cb_badfence, NULL));
  FAILS(f, wl_explore(f->ctx, f->t[1], NULL, &f->r[1]), WL_EINVAL,
        "a fence is sc or acq_rel");
  assert_null(f->r[1]);
}

/* ---------------------------------------------------------------- */
/* Results as values                                                 */

static void test_values_mp(void **state) {
  static const char src[] =
      "PTX MP\n"
      "{ x=0; y=0; }\n"
      " P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;\n"
      " st.weak x, 1        | ld.acquire.gpu r1, y ;\n"
      " st.release.gpu y, 1 | ld.weak r2, x        ;\n"
      "exists (P1:r1 == 1 /\\ P1:r2 == 1)\n";
  fixture *f = *state;
  wl_result *r;
  size_t s;
  int r1, r2, x, y;
  parse(f, 0, src);
  r = explore(f, 0);
  /* P0 has no registers; P1 r1, r2; then x, y */
  assert_int_equal(wl_result_nvars(r), 4);
  assert_int_equal(wl_result_nvars(NULL), 0);
  assert_int_equal(wl_result_var_thread(r, 0), 1);
  assert_string_equal(wl_result_var_name(r, 0), "r1");
  assert_int_equal(wl_result_var_thread(r, 1), 1);
  assert_string_equal(wl_result_var_name(r, 1), "r2");
  assert_int_equal(wl_result_var_thread(r, 2), -1);
  assert_string_equal(wl_result_var_name(r, 2), "x");
  assert_int_equal(wl_result_var_thread(r, 3), -1);
  assert_string_equal(wl_result_var_name(r, 3), "y");
  r1 = find_var(r, "1:r1");
  r2 = find_var(r, "1:r2");
  x = find_var(r, "x");
  y = find_var(r, "y");
  assert_int_equal(wl_result_nstates(r), 3);
  for (s = 0; s < wl_result_nstates(r); s++) {
    int64_t a = wl_result_value(r, s, r1), b = wl_result_value(r, s, r2);
    assert_int_equal(wl_result_value(r, s, x), 1);
    assert_int_equal(wl_result_value(r, s, y), 1);
    assert_false(a == 1 && b == 0);
    assert_int_equal(wl_result_state_sat(r, s), a == 1 && b == 1);
  }
  check_results(r);
}

/* SC fences get ranks 0, 1 in each witness; a state reached by two
 * fence-SC orders counts two executions. */
static void test_values_fence_sc(void **state) {
  static const char src[] =
      "PTX SB+fence.sc\n"
      "{ x=0; y=0; }\n"
      " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
      " st.weak x, 1   | st.weak y, 1   ;\n"
      " fence.sc.gpu   | fence.sc.gpu   ;\n"
      " ld.weak r0, y  | ld.weak r0, x  ;\n"
      "~exists (P0:r0 == 0 /\\ P1:r0 == 0)\n";
  fixture *f = *state;
  wl_result *r;
  size_t s;
  uint64_t total = 0;
  parse(f, 0, src);
  r = explore(f, 0);
  for (s = 0; s < wl_result_nstates(r); s++) {
    int n = wl_result_witness_nevents(r, s), i, nf = 0, ninit = 0;
    total += wl_result_state_count(r, s);
    assert_int_equal(wl_result_state_sat(r, s), 0);
    for (i = 0; i < n; i++) {
      wl_event_info e;
      OK(f, wl_result_witness_event(r, s, i, &e));
      if (e.kind == 'F') {
        nf++;
        assert_int_equal(e.sem, WL_SEM_SC);
        assert_int_equal(e.scope, WL_SCOPE_GPU);
        assert_int_equal(e.line, 5);
      }
      if (e.thread == -1) {
        ninit++;
        assert_int_equal(e.value, 0);
      }
      if (e.kind == 'R' || (e.kind == 'W' && e.thread >= 0))
        assert_int_equal(e.sem, WL_SEM_WEAK);
    }
    assert_int_equal(nf, 2);
    assert_int_equal(ninit, 2);
  }
  assert_int_equal(total, 3); /* one per state: executions not counted */
  assert_int_equal(wl_result_positive(r), 0);
  check_results(r);
}

/* ---------------------------------------------------------------- */
/* Fault injection (the failing allocator of test_alloc.c)           */

#include "faulty.h"

typedef struct outcome {
  int rc;            /* 0 or the first error */
  const char *stage; /* the call that failed */
  char errmsg[512];  /* wl_ctx_errmsg after the failure */
  sbuf herd, json;   /* the output of a complete run */
} outcome;

static void outcome_free(outcome *o) {
  free(o->herd.p);
  free(o->json.p);
  memset(o, 0, sizeof *o);
}

#define STEP(o, call)                                                      \
  do {                                                                     \
    if ((o)->rc == 0) {                                                    \
      (o)->stage = #call;                                                  \
      (o)->rc = (call);                                                    \
    }                                                                      \
  } while (0)

/* Builds MP with a callback reader and a spinning instruction reader,
 * explores it and writes both outputs; frees everything.  bad_label
 * adds a branch to a label never defined (the exploration then fails
 * with WL_ESYNTAX). */
static void build_pipeline(const wl_config *cfg, int bad_label,
                           outcome *o) {
  static const char *const p2[] = {
      "LC0:", "ld.acquire.gpu r0, y", "beq r0, 0, LC0", "beq r0, 1, LC1",
      "ld.weak r1, x", "LC1:", "ld.weak r2, x", NULL};
  wl_ctx *ctx = NULL;
  wl_litmus *t = NULL;
  wl_result *r = NULL;
  side s;
  int x = -1, y = -1, th = -1, i;
  memset(o, 0, sizeof *o);
  o->stage = "wl_ctx_new";
  o->rc = wl_ctx_new(cfg, &ctx);
  if (o->rc != 0) {
    assert_null(ctx);
    return;
  }
  STEP(o, wl_litmus_new(ctx, "MP-built", &t));
  STEP(o, wl_litmus_add_location(t, "x", 0, &x));
  STEP(o, wl_litmus_add_location(t, "y", 0, &y));
  STEP(o, wl_litmus_add_location(t, "a[2]", 3, NULL));
  STEP(o, wl_litmus_add_thread(t, 0, 0, &th));
  STEP(o, wl_litmus_add_thread(t, 1, 0, &th));
  STEP(o, wl_litmus_add_thread(t, 2, 0, &th));
  STEP(o, wl_litmus_add_insn(t, 0, "st.weak x, 1", "f.lua", 1));
  STEP(o, wl_litmus_add_insn(t, 0, "st.release.gpu y, 1", "f.lua", 2));
  if (bad_label)
    STEP(o, wl_litmus_add_insn(t, 0, "bra LC7", "f.lua", 3));
  s = mk(y, ACQ, x, WEAK);
  STEP(o, wl_litmus_set_thread_fn(t, 1, cb_ld_ld, &s));
  for (i = 0; p2[i] != NULL; i++)
    STEP(o, wl_litmus_add_insn(t, 2, p2[i], "f.lua", 10 + i));
  STEP(o, wl_litmus_set_reg(t, 2, "r5", 3));
  STEP(o, wl_litmus_set_condition(
              t, "exists (1:A == 1 /\\ 1:B == 0 /\\ 2:r2 == 1)", "f.lua", 20));
  STEP(o, wl_explore(ctx, t, NULL, &r));
  STEP(o, wl_result_write_herd(r, 0.0, sbuf_write, &o->herd));
  STEP(o, wl_result_write_json(r, 0.0, sbuf_write, &o->json));
  if (o->rc != 0)
    snprintf(o->errmsg, sizeof o->errmsg, "%s", wl_ctx_errmsg(ctx));
  else
    o->stage = NULL;
  wl_result_free(r);
  wl_litmus_free(t);
  wl_ctx_free(ctx);
}

/* Fails allocation 1, 2, ... until a run needs no more; returns how many
 * runs failed. */
static long build_fault_sweep(int bad_label) {
  outcome ref, o;
  faulty fa;
  wl_config cfg;
  long n;
  int want = bad_label ? WL_ESYNTAX : 0;
  build_pipeline(NULL, bad_label, &ref);
  if (ref.rc != want)
    fail_msg("reference run: %s: %s", ref.stage, ref.errmsg);
  cfg.alloc = faulty_alloc;
  cfg.alloc_ud = &fa;
  for (n = 1;; n++) {
    memset(&fa, 0, sizeof fa);
    fa.fail_at = n;
    build_pipeline(&cfg, bad_label, &o);
    if (fa.live != 0 || fa.blocks != 0)
      fail_msg("allocation %ld failed in %s: %ld bytes in %ld blocks leak",
               n, o.stage ? o.stage : "(none)", fa.live, fa.blocks);
    if (fa.bad)
      fail_msg("allocation %ld: a block was freed with the wrong size", n);
    if (!fa.failed) {
      /* past the last allocation: as without the hook */
      assert_int_equal(o.rc, want);
      if (want == 0) {
        assert_string_equal(o.herd.p, ref.herd.p);
        assert_string_equal(o.json.p, ref.json.p);
      } else {
        assert_string_equal(o.errmsg, ref.errmsg);
      }
      outcome_free(&o);
      break;
    }
    if (o.rc == 0)
      fail_msg("allocation %ld failed but every call succeeded", n);
    if (o.rc != WL_ENOMEM)
      fail_msg("allocation %ld: %s returned %s (%s), not WL_ENOMEM", n,
               o.stage, wl_err_name(o.rc), o.errmsg);
    if (strcmp(o.stage, "wl_ctx_new") != 0 && o.errmsg[0] == '\0')
      fail_msg("allocation %ld: %s failed without a message", n, o.stage);
    outcome_free(&o);
  }
  outcome_free(&ref);
  return n - 1;
}

static void test_fault_built(void **state) {
  (void)state;
  assert_true(build_fault_sweep(0) > 20);
}

static void test_fault_built_bad_label(void **state) {
  (void)state;
  assert_true(build_fault_sweep(1) > 10);
}

/* A float atomicAdd on float x (0.5), its old value as a double
 * result F, and an int64 result N; with *flip set, F changes type when
 * the load of y reads 1 (a second thread stores it). */
static int cb_fadd(void *ud, wl_tb *tb) {
  const int *flip = ud;
  int64_t old = 0, y = 0;
  TRY(wl_tb_atomic(tb, X, WL_OP_ADD, wl_value_from_double(WL_TYPE_FLOAT, 0.25),
                   0, WL_SEM_RELAXED, WL_SCOPE_GPU, __LINE__, &old));
  if (*flip)
    TRY(wl_tb_load(tb, 1, WL_SEM_WEAK, WL_SCOPE_NONE, __LINE__, &y));
  TRY(wl_tb_result(tb, "N", 7));
  if (y == 1)
    return wl_tb_result(tb, "F", 1);
  return wl_tb_result_typed(
      tb, "F", WL_TYPE_DOUBLE,
      wl_value_from_double(WL_TYPE_DOUBLE,
                           wl_value_to_double(WL_TYPE_FLOAT, old)));
}

static int cb_sty(void *ud, wl_tb *tb) {
  (void)ud;
  return wl_tb_store(tb, 1, 1, WL_SEM_WEAK, WL_SCOPE_NONE, __LINE__);
}

static void test_cb_typed_result(void **state) {
  fixture *f = *state;
  int flip = 0, loc, v;
  wl_result *r;
  wl_hist *h = NULL;
  wl_sample_opts so;
  sbuf b = {0};
  new_test(f, 0, "fadd");
  OK(f, wl_litmus_add_location(f->t[0], "x",
                               wl_value_from_double(WL_TYPE_FLOAT, 0.5),
                               &loc));
  OK(f, wl_litmus_set_type(f->t[0], loc, WL_TYPE_FLOAT));
  OK(f, wl_litmus_add_location(f->t[0], "y", 0, NULL));
  add_thread(f, 0, 0);
  OK(f, wl_litmus_set_thread_fn(f->t[0], 0, cb_fadd, &flip));
  /* the condition names 0:F before any report: its type is still open */
  OK(f, wl_litmus_set_condition(f->t[0], "exists (0:F = 0 /\\ 0:N = 7)",
                                NULL, 1));
  r = explore(f, 0);
  assert_int_equal(wl_result_nstates(r), 1);
  v = find_var(r, "0:F");
  assert_int_equal(wl_result_var_type(r, v), WL_TYPE_DOUBLE);
  assert_true(wl_value_to_double(WL_TYPE_DOUBLE, wl_result_value(r, 0, v)) ==
              0.5);
  assert_int_equal(wl_result_var_type(r, find_var(r, "0:N")), WL_TYPE_INT64);
  assert_int_equal(wl_result_var_type(r, find_var(r, "x")), WL_TYPE_FLOAT);
  assert_int_equal(wl_result_var_type(r, 999), WL_EINVAL);
  OK(f, wl_result_write_herd(r, 0, sbuf_write, &b));
  assert_non_null(strstr(b.p, "0:F=0.5; 0:N=7;"));
  b.n = 0;
  OK(f, wl_result_write_json(r, 0, sbuf_write, &b));
  assert_non_null(strstr(b.p, "\"0:F\": 0.5, \"0:N\": 7, \"x\": 0.75"));
  /* the sampler and its SC search type it alike */
  memset(&so, 0, sizeof so);
  so.runs = 20;
  so.seed = 1;
  OK(f, wl_sample(f->ctx, f->t[0], &so, &h));
  for (v = 0; v < wl_hist_nvars(h); v++)
    if (strcmp(wl_hist_var_name(h, v), "F") == 0)
      assert_int_equal(wl_hist_var_type(h, v), WL_TYPE_DOUBLE);
  assert_int_equal(wl_hist_weak(h, 0), 0);
  b.n = 0;
  OK(f, wl_hist_write(h, 0, 0, sbuf_write, &b));
  assert_non_null(strstr(b.p, "0:F=0.5; 0:N=7; x=0.75; y=0;"));
  wl_hist_free(h);
  free(b.p);
  /* a type the first report did not give fails, naming both */
  new_test(f, 1, "flip");
  OK(f, wl_litmus_add_location(f->t[1], "x", 0, &loc));
  OK(f, wl_litmus_set_type(f->t[1], loc, WL_TYPE_FLOAT));
  OK(f, wl_litmus_add_location(f->t[1], "y", 0, NULL));
  add_thread(f, 1, 0);
  add_thread(f, 1, 1);
  flip = 1;
  OK(f, wl_litmus_set_thread_fn(f->t[1], 0, cb_fadd, &flip));
  OK(f, wl_litmus_set_thread_fn(f->t[1], 1, cb_sty, NULL));
  FAILS(f, wl_explore(f->ctx, f->t[1], NULL, &f->r[1]), WL_EINVAL,
        "result 'F' of P0 is a double in one trace and an int64 in another");
}

/* Every half's value converts back to its own bits; the midpoint of two
 * adjacent finite halves rounds to the one with an even last bit;
 * 16-bit integers wrap; half atomics add in double and round once. */
static void test_half_values(void **state) {
  uint32_t h;
  (void)state;
  for (h = 0; h < 0x10000u; h++) {
    double d = wl_value_to_double(WL_TYPE_HALF, (int64_t)h);
    if ((h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0) { /* NaN */
      assert_true(d != d);
      assert_true(wl_value_from_double(WL_TYPE_HALF, d) & 0x3ff);
      continue;
    }
    assert_int_equal(wl_value_from_double(WL_TYPE_HALF, d), (int64_t)h);
    if ((h & 0x7fffu) < 0x7bffu) { /* h and its successor are finite */
      double up = wl_value_to_double(WL_TYPE_HALF, (int64_t)h + 1);
      double mid = (d + up) / 2;
      /* (for a negative h the successor's magnitude is the larger:
       * the even pattern is the one to pick either way) */
      int64_t want = (h & 1) ? (int64_t)h + 1 : (int64_t)h;
      assert_int_equal(wl_value_from_double(WL_TYPE_HALF, mid), want);
    }
  }
  assert_int_equal(wl_value_from_double(WL_TYPE_HALF, 65520.0), 0x7c00);
  assert_int_equal(wl_value_from_double(WL_TYPE_HALF, 65519.99), 0x7bff);
  assert_int_equal(wl_value_from_double(WL_TYPE_HALF, -1e300), 0xfc00);
  assert_int_equal(wl_value_from_double(WL_TYPE_HALF, 1e-300), 0);
  assert_int_equal(wl_value_from_int(WL_TYPE_INT16, 40000), -25536);
  assert_int_equal(wl_value_from_int(WL_TYPE_UINT16, -1), 65535);
  assert_true(wl_value_to_double(WL_TYPE_INT16, 0xffff) == -1.0);
  assert_true(wl_value_to_double(WL_TYPE_UINT16, -1) == 65535.0);
  /* 16-bit types are for device memory, not litmus locations */
  {
    wl_ctx *ctx = NULL;
    wl_litmus *t = NULL;
    int loc;
    assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
    assert_int_equal(wl_litmus_new(ctx, "h", &t), 0);
    assert_int_equal(wl_litmus_add_location(t, "x", 0, &loc), 0);
    assert_int_equal(wl_litmus_set_type(t, loc, WL_TYPE_HALF), WL_EINVAL);
    wl_litmus_free(t);
    wl_ctx_free(ctx);
  }
}

int main(void) {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
  const struct CMUnitTest tests[] = {
      T(test_new_and_locations),
      T(test_new_default_name),
      T(test_location_limit),
      T(test_thread_limit),
      T(test_built_mp),
      T(test_built_mp_weak),
      T(test_built_sb),
      T(test_built_lb),
      T(test_built_labels),
      T(test_regs_restored_between_values),
      T(test_undefined_label),
      T(test_undefined_label_second_thread),
      T(test_duplicate_label),
      T(test_bad_insn_text),
      T(test_set_reg),
      T(test_set_condition),
      T(test_insn_on_callback_thread),
      T(test_cb_mp),
      T(test_cb_mp_release_acquire),
      T(test_cb_sb),
      T(test_cb_sb_fence_sc),
      T(test_cb_lb),
      T(test_cb_lb_data),
      T(test_cb_lb_data_thin_air),
      T(test_cb_lb_ctrl),
      T(test_cb_lb_ctrl_alone),
      T(test_cb_corr),
      T(test_cb_iriw),
      T(test_cb_barrier),
      T(test_cb_spin_bound),
      T(test_cb_unroll),
      T(test_cb_fail),
      T(test_cb_nondeterministic),
      T(test_cb_nondeterministic_shorter),
      T(test_cb_atomic_ops),
      T(test_cb_atomic_two_threads),
      T(test_cb_bad_args),
      T(test_values_mp),
      T(test_values_fence_sc),
      cmocka_unit_test(test_fault_built),
      cmocka_unit_test(test_fault_built_bad_label),
      cmocka_unit_test(test_half_values),
      T(test_cb_typed_result),
  };
#undef T
  return cmocka_run_group_tests(tests, NULL, NULL);
}
