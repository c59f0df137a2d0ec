/* test_check.c -- the kernel checkers (engine/check/) through the
 * simulator's public API: data races by the PTX definition (barriers,
 * __syncwarp, release/acquire, fences, morally strong pairs, scopes),
 * warp-synchronous hazards, reads of memory never written, weak-load
 * spins, the warp operations and lane schedules, and fault injection.
 * Kernels are small programs of ops that every thread walks, each op
 * naming the threads that perform it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../engine/check/shadow.h" /* SPIN_REPEATS */
#include "../../engine/warplab.h"
#include "faulty.h"

enum { LD, ST, ATOM, FENCE, BAR, WOP, SPIN, END };

typedef struct op {
  int kind;
  int b, t;      /* who: block and thread (-1: any; t -2: t < 32) */
  int space, id; /* id: the allocation, or -1: the shared array */
  int off, sem, scope, line;
  int wkind;     /* WOP: WL_WARP_* */
  uint32_t mask; /* WOP */
  int value;     /* ST: the value; WOP: the lane's value */
} op;

#define MAXT 128
#define MAXB 4
typedef struct prog {
  const op *ops;
  int pc[MAXB][MAXT];
  int sh[MAXB]; /* the shared array, declared at the first access */
  int64_t got[MAXB][MAXT];
  int zeros[MAXB][MAXT]; /* SPIN: the reads of 0 so far */
  int ids[4];
} prog;

static int who(const op *o, int b, int t) {
  return (o->b < 0 || o->b == b) &&
         (o->t == -1 || o->t == t || (o->t == -2 && t < 32));
}

static int step(prog *p, wl_launch *l, int b, int t) {
  int pc = p->pc[b][t];
  if (pc > 0 && p->ops[pc - 1].kind == WOP && who(&p->ops[pc - 1], b, t))
    p->got[b][t] = wl_kernel_warp_result(l, b, t, NULL);
  for (;;) {
    const op *o = &p->ops[p->pc[b][t]];
    wl_access a;
    int64_t v = 0;
    int rc;
    if (o->kind == END)
      return wl_kernel_exit(l, b, t);
    p->pc[b][t]++;
    if (!who(o, b, t))
      continue;
    memset(&a, 0, sizeof a);
    a.kind = o->kind == LD || o->kind == SPIN ? WL_ACC_LOAD
             : o->kind == ST                 ? WL_ACC_STORE
                                             : WL_ACC_ATOMIC;
    a.space = o->space;
    a.id = o->id;
    a.off = (uint64_t)o->off;
    a.width = 4;
    a.type = WL_TYPE_INT32;
    a.sem = o->sem;
    a.scope = o->sem == WL_SEM_WEAK && o->kind != ATOM ? WL_SCOPE_NONE
                                                       : o->scope;
    a.op = WL_OP_ADD;
    a.a = 1;
    a.line = o->line;
    if (o->kind <= ATOM || o->kind == SPIN) {
      if (o->space == WL_SPACE_SHARED) {
        uint64_t size;
        int id;
        if (p->sh[b] < 0) {
          rc = wl_kernel_shared(l, b, t, 256, 4, 0, o->line, &id, &size);
          if (rc != 0)
            return rc;
          p->sh[b] = id;
        }
        a.id = p->sh[b];
      }
      if (o->kind == ST)
        v = o->value;
      do { /* SPIN: until the value is nonzero */
        rc = wl_kernel_access(l, b, t, &a, &v);
        if (rc < 0)
          return rc;
        p->zeros[b][t] += o->kind == SPIN && (int32_t)v == 0;
      } while (o->kind == SPIN && (int32_t)v == 0 && rc == 0);
      p->got[b][t] = v;
      if (o->kind == SPIN && (int32_t)v == 0) {
        p->pc[b][t]--; /* the slice is used up: spin on later */
        return 0;
      }
      if (rc == 1)
        return 0;
    } else if (o->kind == FENCE) {
      if ((rc = wl_kernel_fence(l, b, t, o->sem, o->scope, o->line)) != 0)
        return rc;
    } else if (o->kind == BAR) {
      return wl_kernel_barrier(l, b, t, o->line);
    } else if (o->kind == WOP) {
      wl_warp_op w;
      memset(&w, 0, sizeof w);
      w.kind = o->wkind;
      w.mask = o->mask;
      w.value = o->value ? o->value : t % 32;
      w.isint = 1;
      w.arg = o->off;
      w.width = 32;
      w.line = o->line;
      return wl_kernel_warp_op(l, b, t, &w);
    }
  }
}

static int run_warp(void *ud, wl_launch *l, int block, int warp) {
  prog *p = ud;
  int n = wl_kernel_threads_per_block(l), k, order[32];
  int nl = wl_kernel_lane_order(l, block, warp, order);
  for (k = 0; k < nl; k++) {
    int t = warp * 32 + order[k];
    if (t < n && wl_kernel_lane_state(l, block, t) == WL_LANE_RUNNABLE) {
      int rc;
      if ((rc = step(p, l, block, t)) < 0)
        return rc;
    }
  }
  return 0;
}

typedef struct fixture {
  wl_ctx *ctx;
  wl_device *d;
  wl_launch *l;
  prog p;
  int g[4]; /* global allocations, 64 bytes each */
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  wl_device_cfg c;
  int i;
  if (f == NULL || wl_ctx_new(NULL, &f->ctx) != 0)
    return -1;
  if (wl_device_preset(f->ctx, "sm_90", &c) != 0 ||
      wl_device_new(f->ctx, &c, &f->d) != 0)
    return -1;
  for (i = 0; i < 4; i++)
    if (wl_device_alloc(f->d, WL_SPACE_GLOBAL, 64, "g", &f->g[i]) != 0)
      return -1;
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  wl_launch_free(f->l);
  wl_device_free(f->d);
  wl_ctx_free(f->ctx);
  free(f);
  return 0;
}

/* Runs ops on grid x block threads with the checkers; returns the
 * launch's status. */
static int run_seed(fixture *f, const op *ops, int grid, int block,
                    int sched, int check, uint64_t seed) {
  wl_launch_cfg c;
  memset(&c, 0, sizeof c);
  memset(&f->p, 0, sizeof f->p);
  memset(f->p.sh, -1, sizeof f->p.sh);
  f->p.ops = ops;
  c.grid[0] = grid;
  c.block[0] = block;
  c.seed = seed;
  c.source = "k.cu";
  c.run_warp = run_warp;
  c.ud = &f->p;
  c.check = check;
  c.schedule = sched;
  c.static_shared = 256;
  c.end_line = 99;
  wl_launch_free(f->l);
  f->l = NULL;
  return wl_launch_run(f->d, &c, &f->l);
}

static int run(fixture *f, const op *ops, int grid, int block, int sched,
               int check) {
  return run_seed(f, ops, grid, block, sched, check, 3);
}

static void zero(fixture *f) {
  static const uint8_t z[64];
  int i;
  for (i = 0; i < 4; i++)
    assert_int_equal(wl_device_write(f->d, f->g[i], 0, z, 64), 0);
}

static int count(fixture *f, int kind) {
  int i, n = 0;
  for (i = 0; i < wl_launch_nfindings(f->l); i++)
    n += wl_launch_finding(f->l, i)->kind == kind;
  return n;
}

static const wl_finding *first(fixture *f, int kind) {
  int i;
  for (i = 0; i < wl_launch_nfindings(f->l); i++)
    if (wl_launch_finding(f->l, i)->kind == kind)
      return wl_launch_finding(f->l, i);
  return NULL;
}

#define W WL_SEM_WEAK
#define G WL_SPACE_GLOBAL
#define S WL_SPACE_SHARED
#define OP(k, b, t, sp, id, off, sem, sc, line)                                \
  {k, b, t, sp, id, off, sem, sc, line, 0, 0, 1}
#define DONE {END, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}

/* thread 0 stores a shared word that thread 32 (another warp) loads */
static void test_barrier_orders(void **state) {
  fixture *f = *state;
  const wl_finding *x;
  op racy[] = {OP(ST, 0, 0, S, -1, 0, W, 0, 10),
               OP(LD, 0, 32, S, -1, 0, W, 0, 11), DONE};
  op fine[] = {OP(ST, 0, 0, S, -1, 0, W, 0, 10),
               OP(BAR, -1, -1, 0, 0, 0, 0, 0, 20),
               OP(LD, 0, 32, S, -1, 0, W, 0, 11), DONE};
  zero(f);
  assert_int_equal(run(f, racy, 1, 64, WL_SCHED_INDEPENDENT, WL_CHECK_ALL),
                   0);
  /* the load may come first (an uninitialised read) or second */
  x = first(f, WL_FIND_RACE);
  assert_non_null(x);
  assert_int_equal(x->space, WL_SPACE_SHARED);
  assert_true((x->a.line == 10 && x->b.line == 11) ||
              (x->a.line == 11 && x->b.line == 10));
  assert_true(x->a.warp != x->b.warp);
  assert_non_null(strstr(x->fix, "__syncthreads"));
  assert_int_equal(run(f, fine, 1, 64, WL_SCHED_INDEPENDENT, WL_CHECK_ALL),
                   0);
  assert_int_equal(wl_launch_nfindings(f->l), 0);
  /* without the checkers: nothing is looked for */
  assert_int_equal(run(f, racy, 1, 64, WL_SCHED_INDEPENDENT, 0), 0);
  assert_int_equal(wl_launch_nfindings(f->l), 0);
}

/* lanes of one warp: a hazard until __syncwarp */
static void test_syncwarp_orders(void **state) {
  fixture *f = *state;
  const wl_finding *x;
  op racy[] = {OP(ST, 0, 0, S, -1, 4, W, 0, 10),
               OP(LD, 0, 1, S, -1, 4, W, 0, 11), DONE};
  op fine[] = {OP(ST, 0, 0, S, -1, 4, W, 0, 10),
               {WOP, -1, -1, 0, 0, 0, 0, 0, 12, WL_WARP_SYNC, 0xffffffffu, 0},
               OP(LD, 0, 1, S, -1, 4, W, 0, 11), DONE};
  op shfl[] = {OP(ST, 0, 0, S, -1, 4, W, 0, 10),
               {WOP, -1, -1, 0, 0, 0, 0, 0, 12, WL_WARP_SHFL, 0xffffffffu, 0},
               OP(LD, 0, 1, S, -1, 4, W, 0, 11), DONE};
  zero(f);
  assert_int_equal(run(f, racy, 1, 32, WL_SCHED_LOCKSTEP, WL_CHECK_RACES), 0);
  x = first(f, WL_FIND_WARP_RACE);
  assert_non_null(x);
  assert_int_equal(x->a.warp, x->b.warp);
  assert_non_null(strstr(x->fix, "__syncwarp"));
  assert_int_equal(run(f, fine, 1, 32, WL_SCHED_RANDOM, WL_CHECK_ALL), 0);
  assert_int_equal(wl_launch_nfindings(f->l), 0);
  /* a shuffle synchronizes execution, not memory (PTX: shfl.sync) */
  assert_int_equal(run(f, shfl, 1, 32, WL_SCHED_LOCKSTEP, WL_CHECK_RACES), 0);
  assert_int_equal(count(f, WL_FIND_WARP_RACE), 1);
}

/* message passing between blocks */
static void test_release_acquire(void **state) {
  fixture *f = *state;
  int d = f->g[0], fl = f->g[1];
  op plain[] = {OP(ST, 0, 0, G, d, 0, W, 0, 10),
                OP(ST, 0, 0, G, fl, 0, W, 0, 11),
                OP(SPIN, 1, 0, G, fl, 0, W, 0, 20),
                OP(LD, 1, 0, G, d, 0, W, 0, 21), DONE};
  op relacq[] = {OP(ST, 0, 0, G, d, 0, W, 0, 10),
                 OP(ST, 0, 0, G, fl, 0, WL_SEM_RELEASE, WL_SCOPE_GPU, 11),
                 OP(SPIN, 1, 0, G, fl, 0, WL_SEM_ACQUIRE, WL_SCOPE_GPU, 20),
                 OP(LD, 1, 0, G, d, 0, W, 0, 21), DONE};
  op fences[] = {OP(ST, 0, 0, G, d, 0, W, 0, 10),
                 OP(FENCE, 0, 0, 0, 0, 0, WL_SEM_ACQ_REL, WL_SCOPE_GPU, 11),
                 OP(ST, 0, 0, G, fl, 0, WL_SEM_RELAXED, WL_SCOPE_GPU, 12),
                 OP(SPIN, 1, 0, G, fl, 0, WL_SEM_RELAXED, WL_SCOPE_GPU, 20),
                 OP(FENCE, 1, 0, 0, 0, 0, WL_SEM_ACQ_REL, WL_SCOPE_GPU, 21),
                 OP(LD, 1, 0, G, d, 0, W, 0, 22), DONE};
  op cta[] = {OP(ST, 0, 0, G, d, 0, W, 0, 10),
              OP(ST, 0, 0, G, fl, 0, WL_SEM_RELEASE, WL_SCOPE_CTA, 11),
              OP(SPIN, 1, 0, G, fl, 0, WL_SEM_ACQUIRE, WL_SCOPE_CTA, 20),
              OP(LD, 1, 0, G, d, 0, W, 0, 21), DONE};
  const wl_finding *x;
  uint64_t seed;
  int spun = 0;
  /* the spin on a weak load is found when it read the same value
   * SPIN_REPEATS times, which depends on the interleaving (whether the
   * flag's store reached L2 first): over seeds, it must be found exactly
   * then, and some seed must spin that long */
  for (seed = 1; seed <= 16; seed++) {
    zero(f);
    assert_int_equal(run_seed(f, plain, 2, 32, WL_SCHED_INDEPENDENT,
                              WL_CHECK_ALL, seed),
                     0);
    assert_int_equal(count(f, WL_FIND_RACE), 2); /* flag and data */
    x = first(f, WL_FIND_SPIN);
    if (f->p.zeros[1][0] >= SPIN_REPEATS) {
      spun++;
      assert_non_null(x);
      assert_int_equal(x->a.line, 20);
      assert_int_equal(x->a.block, 1);
    } else {
      assert_null(x);
    }
  }
  assert_true(spun > 0);
  zero(f);
  assert_int_equal(run(f, relacq, 2, 32, WL_SCHED_INDEPENDENT, WL_CHECK_ALL),
                   0);
  assert_int_equal(wl_launch_nfindings(f->l), 0);
  zero(f);
  assert_int_equal(run(f, fences, 2, 32, WL_SCHED_INDEPENDENT, WL_CHECK_ALL),
                   0);
  assert_int_equal(wl_launch_nfindings(f->l), 0);
  /* cta scope does not reach another block: the flag's accesses are not
   * morally strong, and nothing is acquired */
  zero(f);
  assert_int_equal(run(f, cta, 2, 32, WL_SCHED_INDEPENDENT, WL_CHECK_RACES),
                   0);
  assert_int_equal(count(f, WL_FIND_RACE), 2);
  x = first(f, WL_FIND_RACE);
  assert_true(x->a.block != x->b.block);
}

/* atomics are morally strong with each other; a plain store after this
 * thread's own atomic observed the others (observation order) */
static void test_atomics(void **state) {
  fixture *f = *state;
  int c = f->g[2];
  op ok[] = {OP(ATOM, -1, 0, G, c, 0, WL_SEM_RELAXED, WL_SCOPE_GPU, 10),
             DONE};
  op mixed[] = {OP(ATOM, 0, 0, G, c, 0, WL_SEM_RELAXED, WL_SCOPE_GPU, 10),
                OP(LD, 1, 0, G, c, 0, W, 0, 11), DONE};
  zero(f);
  assert_int_equal(run(f, ok, 4, 32, WL_SCHED_INDEPENDENT, WL_CHECK_ALL), 0);
  assert_int_equal(wl_launch_nfindings(f->l), 0);
  zero(f);
  assert_int_equal(run(f, mixed, 2, 32, WL_SCHED_INDEPENDENT, WL_CHECK_RACES),
                   0);
  /* a weak load and an atomic of another block: a race when the atomic
   * came first, none when the load did (a read and a write ordered by
   * nothing race either way) */
  assert_int_equal(count(f, WL_FIND_RACE), 1);
}

/* uninitialised reads: global memory the host never wrote, shared
 * memory no thread wrote */
static void test_uninit(void **state) {
  fixture *f = *state;
  int id;
  op rd[] = {OP(LD, 0, 0, G, 0, 8, W, 0, 10), DONE};
  op sh[] = {OP(LD, 0, 0, S, -1, 8, W, 0, 11), DONE};
  const wl_finding *x;
  assert_int_equal(wl_device_alloc(f->d, WL_SPACE_GLOBAL, 64, "fresh", &id),
                   0);
  rd[0].id = id;
  assert_int_equal(run(f, rd, 1, 1, WL_SCHED_INDEPENDENT, WL_CHECK_UNINIT), 0);
  x = first(f, WL_FIND_UNINIT);
  assert_non_null(x);
  assert_string_equal(x->name, "fresh");
  assert_int_equal(x->off, 8);
  assert_int_equal(x->a.line, 10);
  /* written by the host: quiet */
  assert_int_equal(wl_device_write(f->d, id, 8, "abcd", 4), 0);
  assert_int_equal(run(f, rd, 1, 1, WL_SCHED_INDEPENDENT, WL_CHECK_UNINIT), 0);
  assert_int_equal(wl_launch_nfindings(f->l), 0);
  assert_int_equal(run(f, sh, 1, 1, WL_SCHED_INDEPENDENT, WL_CHECK_UNINIT), 0);
  assert_int_equal(count(f, WL_FIND_UNINIT), 1);
  /* a launch without the checker may have written anything */
  assert_int_equal(wl_device_alloc(f->d, WL_SPACE_GLOBAL, 64, "fresh2", &id),
                   0);
  rd[0].id = id;
  assert_int_equal(run(f, rd, 1, 1, WL_SCHED_INDEPENDENT, WL_CHECK_RACES), 0);
  assert_int_equal(run(f, rd, 1, 1, WL_SCHED_INDEPENDENT, WL_CHECK_UNINIT), 0);
  assert_int_equal(wl_launch_nfindings(f->l), 0);
}

/* warp operations: results, and the deadlocks they can make */
static void test_warp_ops(void **state) {
  fixture *f = *state;
  op ballot[] = {{WOP, -1, -1, 0, 0, 0, 0, 0, 10, WL_WARP_BALLOT,
                  0xffffffffu, 0},
                 DONE};
  op shfl[] = {{WOP, -1, -1, 0, 0, 3, 0, 0, 10, WL_WARP_SHFL_DOWN,
                0xffffffffu, 0},
               DONE};
  op half[] = {{WOP, -1, -2, 0, 0, 0, 0, 0, 10, WL_WARP_SYNC, 0xffffffffu,
                0},
               DONE};
  int t;
  assert_int_equal(run(f, ballot, 1, 32, WL_SCHED_RANDOM, WL_CHECK_ALL), 0);
  /* every lane voted its lane number: all but lane 0 */
  for (t = 0; t < 32; t++)
    assert_int_equal(f->p.got[0][t], 0xfffffffe);
  assert_int_equal(wl_warp_src(WL_WARP_SHFL_DOWN, 30, 3, 32, 0xffffffffu),
                   30);
  assert_int_equal(wl_warp_src(WL_WARP_SHFL_DOWN, 3, 3, 32, 0xffffffffu), 6);
  assert_int_equal(wl_warp_src(WL_WARP_SHFL_UP, 2, 3, 32, 0xffffffffu), 2);
  assert_int_equal(wl_warp_src(WL_WARP_SHFL_XOR, 5, 1, 32, 0xffffffffu), 4);
  assert_int_equal(wl_warp_src(WL_WARP_SHFL, 9, 35, 16, 0xffffffffu), 3);
  assert_int_equal(wl_warp_src(WL_WARP_SHFL, 9, 1, 32, 0xfffffffdu), 9);
  assert_int_equal(run(f, shfl, 1, 32, WL_SCHED_LOCKSTEP, 0), 0);
  for (t = 0; t < 32; t++)
    assert_int_equal(f->p.got[0][t], t < 29 ? t + 3 : t);
  /* lanes 32..63 exist, the op names 0..31: only lanes < 32 wait, and
   * they need the lanes that returned */
  assert_int_equal(run(f, half, 1, 64, WL_SCHED_INDEPENDENT, 0), 0);
  {
    op part[] = {{WOP, -1, 5, 0, 0, 0, 0, 0, 10, WL_WARP_SYNC, 0x3u, 0},
                 DONE};
    assert_int_equal(run(f, part, 1, 32, WL_SCHED_INDEPENDENT, 0),
                     WL_ERUNTIME);
    assert_non_null(strstr(wl_launch_errmsg(f->l), "not in the mask"));
  }
  {
    op dead[] = {{WOP, -1, 0, 0, 0, 0, 0, 0, 10, WL_WARP_SYNC, 0x3u, 0},
                 {BAR, -1, 1, 0, 0, 0, 0, 0, 20, 0, 0, 0},
                 DONE};
    assert_int_equal(run(f, dead, 1, 32, WL_SCHED_INDEPENDENT, 0),
                     WL_ERUNTIME);
    assert_non_null(strstr(wl_launch_errmsg(f->l), "warp deadlock"));
    assert_non_null(strstr(wl_launch_errmsg(f->l), "__syncthreads() of "
                                                   "line 20"));
  }
}

/* a barrier part of the block skips: who arrived, who did not, where */
static void test_barrier_report(void **state) {
  fixture *f = *state;
  op div[] = {{BAR, -1, -2, 0, 0, 0, 0, 0, 40, 0, 0, 0}, DONE};
  const char *m;
  assert_int_equal(run(f, div, 1, 64, WL_SCHED_INDEPENDENT, 0), WL_ERUNTIME);
  m = wl_launch_errmsg(f->l);
  assert_non_null(strstr(m, "barrier divergence"));
  assert_non_null(strstr(m, "reached by 32 of the block's 64 threads (0-31)"));
  assert_non_null(strstr(m, "threads 32-63 returned (the kernel ends at "
                            "line 99)"));
}

/* every allocation of a checked launch can fail cleanly */
static void test_alloc_failures(void **state) {
  fixture *f0 = *state;
  op racy[] = {OP(ST, 0, 0, S, -1, 0, W, 0, 10),
               {WOP, -1, -1, 0, 0, 0, 0, 0, 12, WL_WARP_SYNC, 0xffffffffu, 0},
               OP(LD, -1, 33, S, -1, 0, W, 0, 11),
               OP(ATOM, -1, 0, G, 0, 0, WL_SEM_RELEASE, WL_SCOPE_GPU, 13),
               OP(FENCE, -1, 1, 0, 0, 0, WL_SEM_SC, WL_SCOPE_GPU, 14),
               {BAR, -1, -1, 0, 0, 0, 0, 0, 15, 0, 0, 0},
               OP(LD, -1, 2, G, 0, 0, WL_SEM_ACQUIRE, WL_SCOPE_GPU, 16),
               DONE};
  long k;
  (void)f0;
  for (k = 1; k < 400; k++) {
    faulty fa;
    fixture f;
    wl_device_cfg c;
    wl_config cfg;
    int rc;
    memset(&fa, 0, sizeof fa);
    memset(&f, 0, sizeof f);
    cfg.alloc = faulty_alloc;
    cfg.alloc_ud = &fa;
    assert_int_equal(wl_ctx_new(&cfg, &f.ctx), 0);
    assert_int_equal(wl_device_preset(f.ctx, "sm_90", &c), 0);
    c.sms = 2;
    assert_int_equal(wl_device_new(f.ctx, &c, &f.d), 0);
    assert_int_equal(wl_device_alloc(f.d, WL_SPACE_GLOBAL, 64, "g", &f.g[0]),
                     0);
    racy[3].id = f.g[0];
    racy[6].id = f.g[0];
    fa.fail_at = fa.calls + k;
    rc = run(&f, racy, 2, 64, WL_SCHED_RANDOM, WL_CHECK_ALL);
    if (!fa.failed || rc == 0) { /* a finding lost to memory is benign */
      assert_int_equal(rc, 0);
      if (fa.failed) {
        wl_launch_free(f.l);
        wl_device_free(f.d);
        wl_ctx_free(f.ctx);
        assert_int_equal(fa.live, 0);
        continue;
      }
      wl_launch_free(f.l);
      wl_device_free(f.d);
      wl_ctx_free(f.ctx);
      assert_int_equal(fa.live, 0);
      break;
    }
    if (rc != WL_ENOMEM && rc != WL_ERUNTIME)
      fail_msg("allocation %ld failed: %d %s (%s)", k, rc, wl_err_name(rc),
               wl_ctx_errmsg(f.ctx));
    wl_launch_free(f.l);
    wl_device_free(f.d);
    wl_ctx_free(f.ctx);
    if (fa.live != 0)
      fail_msg("allocation %ld failed: %ld bytes leaked (%s)", k, fa.live,
               wl_err_name(rc));
    assert_int_equal(fa.bad, 0);
  }
  assert_true(k < 400);
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
  const struct CMUnitTest tests[] = {
      T(test_barrier_orders), T(test_syncwarp_orders),
      T(test_release_acquire), T(test_atomics),
      T(test_uninit), T(test_warp_ops),
      T(test_barrier_report), T(test_alloc_failures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
