/* test_device.c -- the simulated device (engine/sim/device.c) through its
 * public API: presets and configuration checks, memory spaces, occupancy,
 * launches of small kernels written as state machines, counters and
 * sites, barriers, runtime errors, determinism, the weak memory system
 * (message passing with and without fences), the cost functions, and
 * fault injection (the failing allocator of faulty.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../engine/warplab.h"

/* ---------------------------------------------------------------- */
/* Kernels as state machines                                         */

#define MAXB 8   /* blocks a test kernel keeps state for */
#define MAXT 256 /* threads per block */
#define NBUF 8   /* allocation ids a kernel uses */

struct kern;
/* Runs thread t of block b from its program counter until it yields;
 * returns 0 or a negative error. */
typedef int (*thread_fn)(struct kern *k, wl_launch *l, int b, int t);

typedef struct kern {
  thread_fn fn;
  int buf[NBUF];            /* allocation ids */
  int n;                    /* a size the kernel uses */
  int fence;                /* MP: with fences */
  int pc[MAXB][MAXT];       /* per-thread program counter */
  int64_t reg[MAXB][MAXT];  /* one register per thread */
  int64_t reg2[MAXB][MAXT]; /* and another */
  int sh[MAXB];             /* shared array id per block */
  int blocks_done;          /* block_done calls */
  wl_device *dev;           /* k_nest: the device it runs on */
  int rc[2];                /* k_nest: what the calls returned */
} kern;

static int run_warp(void *ud, wl_launch *l, int block, int warp) {
  kern *k = ud;
  int n = wl_kernel_threads_per_block(l), t;
  assert_true(block >= 0 && block < MAXB);
  for (t = warp * 32; t < warp * 32 + 32 && t < n; t++) {
    if (wl_kernel_lane_state(l, block, t) == WL_LANE_RUNNABLE) {
      int rc = k->fn(k, l, block, t);
      if (rc < 0)
        return rc;
    }
  }
  return 0;
}

static void block_done(void *ud, wl_launch *l, int block) {
  kern *k = ud;
  (void)l;
  (void)block;
  k->blocks_done++;
}

/* One access; value in/out through *v (little-endian, width <= 8). */
static int acc(wl_launch *l, int b, int t, int kind, int space, int id,
               uint64_t off, int width, int sem, int scope, int line,
               int64_t *v) {
  wl_access a;
  memset(&a, 0, sizeof a);
  a.kind = kind;
  a.space = space;
  a.id = id;
  a.off = off;
  a.width = width;
  a.type = WL_TYPE_INT32;
  a.sem = sem;
  a.scope = sem == WL_SEM_WEAK ? WL_SCOPE_NONE : scope;
  a.cache = WL_CACHE_CA;
  a.line = line;
  return wl_kernel_access(l, b, t, &a, v);
}

static int ld(wl_launch *l, int b, int t, int space, int id, uint64_t off,
              int line, int64_t *v) {
  *v = 0;
  return acc(l, b, t, WL_ACC_LOAD, space, id, off, 4, WL_SEM_WEAK,
             WL_SCOPE_NONE, line, v);
}

static int st(wl_launch *l, int b, int t, int space, int id, uint64_t off,
              int line, int64_t v) {
  return acc(l, b, t, WL_ACC_STORE, space, id, off, 4, WL_SEM_WEAK,
             WL_SCOPE_NONE, line, &v);
}

/* After a step: an error ends the call, 1 (slice used up) yields. */
#define STEP(expr)                                                             \
  do {                                                                         \
    int rc_ = (expr);                                                          \
    if (rc_ < 0)                                                               \
      return rc_;                                                              \
    if (rc_ > 0)                                                               \
      return 0;                                                                \
  } while (0)

/* c[i] = a[i] + b[i], i = block * blockDim + thread (buf 0, 1, 2). */
static int k_vadd(kern *k, wl_launch *l, int b, int t) {
  uint64_t i =
      (uint64_t)b * (uint64_t)wl_kernel_threads_per_block(l) + (uint64_t)t;
  for (;;) {
    switch (k->pc[b][t]++) {
    case 0:
      STEP(ld(l, b, t, WL_SPACE_GLOBAL, k->buf[0], 4 * i, 10, &k->reg[b][t]));
      break;
    case 1:
      STEP(ld(l, b, t, WL_SPACE_MANAGED, k->buf[1], 4 * i, 11, &k->reg2[b][t]));
      break;
    case 2:
      STEP(st(l, b, t, WL_SPACE_GLOBAL, k->buf[2], 4 * i, 12,
              k->reg[b][t] + k->reg2[b][t]));
      break;
    default:
      return wl_kernel_exit(l, b, t);
    }
  }
}

/* A __shared__ int s[64]; each thread loads s[2 * (t % 32)]: a stride-2
 * request per warp. */
static int k_stride2(kern *k, wl_launch *l, int b, int t) {
  for (;;) {
    switch (k->pc[b][t]++) {
    case 0: {
      uint64_t size;
      STEP(wl_kernel_shared(l, b, t, 256, 4, 0, 20, &k->sh[b], &size));
      assert_int_equal(size, 256);
      break;
    }
    case 1:
      STEP(ld(l, b, t, WL_SPACE_SHARED, k->sh[b], 8 * (uint64_t)(t % 32), 21,
              &k->reg[b][t]));
      break;
    default:
      return wl_kernel_exit(l, b, t);
    }
  }
}

/* s[t] = t; __syncthreads(); then lane 0 of each warp loads the warp's
 * 32 words in one wl_kernel_access_warp (as a warp-vector kernel does),
 * lane l from word l, but for one bad lane 5 (k->n: 1 one word past the
 * end, 2 at 2^31 bytes, 3 misaligned; 0 none). */
static int k_warp_words(kern *k, wl_launch *l, int b, int t) {
  for (;;) {
    switch (k->pc[b][t]++) {
    case 0: {
      uint64_t size;
      STEP(wl_kernel_shared(l, b, t, 256, 4, 0, 40, &k->sh[b], &size));
      break;
    }
    case 1:
      STEP(st(l, b, t, WL_SPACE_SHARED, k->sh[b], 4 * (uint64_t)t, 41, t));
      break;
    case 2:
      return wl_kernel_barrier(l, b, t, 42);
    case 3:
      if (t % 32 == 0) {
        wl_access a;
        uint64_t off[32];
        int32_t v[32];
        int i;
        memset(&a, 0, sizeof a);
        a.kind = WL_ACC_LOAD;
        a.space = WL_SPACE_SHARED;
        a.id = k->sh[b];
        a.width = 4;
        a.type = WL_TYPE_INT32;
        a.sem = WL_SEM_WEAK;
        a.scope = WL_SCOPE_NONE;
        a.cache = WL_CACHE_CA;
        a.line = 43;
        for (i = 0; i < 32; i++)
          off[i] = 4 * (uint64_t)(t + i);
        off[5] = k->n == 1   ? 256
                 : k->n == 2 ? (uint64_t)1 << 31
                 : k->n == 3 ? 4 * (uint64_t)(t + 5) + 2
                             : off[5];
        memset(v, 0, sizeof v);
        i = wl_kernel_access_warp(l, b, t / 32, 0xffffffffu, &a, off, NULL, v);
        if (i < 0)
          return i;
        for (i = 0; i < 32; i++)
          k->reg[b][t + i] = v[i];
      }
      break;
    default:
      return wl_kernel_exit(l, b, t);
    }
  }
}

/* s[t] = t; __syncthreads(); out[i] = s[(t + 1) % n] * 10 + b. */
static int k_rotate(kern *k, wl_launch *l, int b, int t) {
  int n = wl_kernel_threads_per_block(l);
  uint64_t i = (uint64_t)b * (uint64_t)n + (uint64_t)t;
  for (;;) {
    switch (k->pc[b][t]++) {
    case 0: {
      uint64_t size;
      STEP(wl_kernel_shared(l, b, t, 4 * (uint64_t)n, 4, 0, 30, &k->sh[b],
                            &size));
      break;
    }
    case 1:
      STEP(st(l, b, t, WL_SPACE_SHARED, k->sh[b], 4 * (uint64_t)t, 31, t));
      break;
    case 2:
      return wl_kernel_barrier(l, b, t, 32);
    case 3:
      STEP(ld(l, b, t, WL_SPACE_SHARED, k->sh[b], 4 * (uint64_t)((t + 1) % n),
              33, &k->reg[b][t]));
      break;
    case 4:
      STEP(st(l, b, t, WL_SPACE_GLOBAL, k->buf[0], 4 * i, 34,
              k->reg[b][t] * 10 + b));
      break;
    default:
      return wl_kernel_exit(l, b, t);
    }
  }
}

/* Thread k->n of each block exits at once; the others wait at a
 * barrier. */
static int k_diverge(kern *k, wl_launch *l, int b, int t) {
  switch (k->pc[b][t]++) {
  case 0:
    if (t == k->n)
      return wl_kernel_exit(l, b, t);
    return wl_kernel_barrier(l, b, t, 40);
  default:
    return wl_kernel_exit(l, b, t);
  }
}

/* Threads 0..31 wait at the barrier of line 40, the others at line 41. */
static int k_two_barriers(kern *k, wl_launch *l, int b, int t) {
  switch (k->pc[b][t]++) {
  case 0:
    return wl_kernel_barrier(l, b, t, t < 32 ? 40 : 41);
  default:
    return wl_kernel_exit(l, b, t);
  }
}

/* Thread 0 tries a nested launch and a cudaFree during the launch. */
static int k_nest(kern *k, wl_launch *l, int b, int t) {
  if (t == 0) {
    wl_launch_cfg c;
    memset(&c, 0, sizeof c);
    c.run_warp = run_warp;
    c.ud = k;
    k->rc[0] = wl_launch_run(k->dev, &c, NULL);
    k->rc[1] = wl_device_release(k->dev, k->buf[0]);
  }
  return wl_kernel_exit(l, b, t);
}

/* What k_bad does (k->n). */
enum { BAD_OOB, BAD_CONST_STORE, BAD_PARAM_STORE, BAD_MISALIGNED, BAD_SPIN };

/* Thread 5 of block 1 misbehaves; the others load buf 0 and exit. */
static int k_bad(kern *k, wl_launch *l, int b, int t) {
  int64_t v = 7;
  for (;;) {
    switch (k->pc[b][t]++) {
    case 0:
      if (b == 1 && t == 5) {
        switch (k->n) {
        case BAD_OOB: /* buf 0 has 64 bytes */
          STEP(ld(l, b, t, WL_SPACE_GLOBAL, k->buf[0], 64, 50, &v));
          break;
        case BAD_CONST_STORE:
          STEP(st(l, b, t, WL_SPACE_CONSTANT, k->buf[1], 0, 51, v));
          break;
        case BAD_PARAM_STORE:
          STEP(st(l, b, t, WL_SPACE_PARAM, k->buf[2], 0, 52, v));
          break;
        case BAD_MISALIGNED:
          STEP(ld(l, b, t, WL_SPACE_GLOBAL, k->buf[0], 2, 53, &v));
          break;
        default: /* spin forever on a relaxed load */
          k->pc[b][t]--;
          STEP(acc(l, b, t, WL_ACC_LOAD, WL_SPACE_GLOBAL, k->buf[0], 0, 4,
                   WL_SEM_RELAXED, WL_SCOPE_GPU, 54, &v));
          break;
        }
        break;
      }
      STEP(ld(l, b, t, WL_SPACE_GLOBAL, k->buf[0], 4 * (uint64_t)(t % 16), 55,
              &v));
      break;
    default:
      return wl_kernel_exit(l, b, t);
    }
  }
}

/* Message passing across two blocks (one thread each): block 0 stores
 * data (buf 0) then flag (buf 1), weakly; block 1 spins on a relaxed
 * load of flag, then loads data weakly into reg.  k->fence: block 0
 * fences between its stores, block 1 after its flag read. */
/* Stores of two widths over the same bytes, then a load of the wider
 * one's upper half (which drains what overlaps it): the bytes must end
 * as the newer store left them, however the buffer drains. */
static int k_widths(kern *k, wl_launch *l, int b, int t) {
  int64_t v;
  for (;;) {
    switch (k->pc[b][t]++) {
    case 0:
      v = 0x11111111;
      STEP(acc(l, b, t, WL_ACC_STORE, WL_SPACE_GLOBAL, k->buf[0], 0, 4,
               WL_SEM_WEAK, WL_SCOPE_NONE, 80, &v));
      break;
    case 1:
      v = 0x2222222233333333ll;
      STEP(acc(l, b, t, WL_ACC_STORE, WL_SPACE_GLOBAL, k->buf[0], 0, 8,
               WL_SEM_WEAK, WL_SCOPE_NONE, 81, &v));
      break;
    case 2:
      v = 0;
      STEP(acc(l, b, t, WL_ACC_LOAD, WL_SPACE_GLOBAL, k->buf[0], 4, 4,
               WL_SEM_WEAK, WL_SCOPE_NONE, 82, &v));
      k->reg[b][t] = v;
      break;
    default:
      return wl_kernel_exit(l, b, t);
    }
  }
}

static int k_mp(kern *k, wl_launch *l, int b, int t) {
  int64_t v;
  for (;;) {
    if (b == 0) {
      switch (k->pc[b][t]++) {
      case 0:
        STEP(st(l, b, t, WL_SPACE_GLOBAL, k->buf[0], 0, 60, 1));
        break;
      case 1:
        if (k->fence)
          STEP(wl_kernel_fence(l, b, t, WL_SEM_SC, WL_SCOPE_GPU, 61));
        break;
      case 2:
        STEP(st(l, b, t, WL_SPACE_GLOBAL, k->buf[1], 0, 62, 1));
        break;
      default:
        return wl_kernel_exit(l, b, t);
      }
    } else {
      switch (k->pc[b][t]++) {
      case 0:
        v = 0;
        {
          int rc = acc(l, b, t, WL_ACC_LOAD, WL_SPACE_GLOBAL, k->buf[1], 0, 4,
                       WL_SEM_RELAXED, WL_SCOPE_GPU, 70, &v);
          if (v == 0)
            k->pc[b][t]--; /* spin */
          STEP(rc);
        }
        break;
      case 1:
        if (k->fence)
          STEP(wl_kernel_fence(l, b, t, WL_SEM_SC, WL_SCOPE_GPU, 71));
        break;
      case 2:
        STEP(ld(l, b, t, WL_SPACE_GLOBAL, k->buf[0], 0, 72, &k->reg[b][t]));
        break;
      default:
        return wl_kernel_exit(l, b, t);
      }
    }
  }
}

/* A small kernel touching shared, local, global (stores buffered) and
 * constant memory: for the fault sweep.  buf 0: global out, buf 1:
 * constant. */
static int k_mixed(kern *k, wl_launch *l, int b, int t) {
  int n = wl_kernel_threads_per_block(l);
  uint64_t i = (uint64_t)b * (uint64_t)n + (uint64_t)t;
  for (;;) {
    switch (k->pc[b][t]++) {
    case 0: {
      uint64_t size;
      STEP(wl_kernel_shared(l, b, t, 4 * (uint64_t)n, 4, 0, 80, &k->sh[b],
                            &size));
      break;
    }
    case 1: {
      int id;
      STEP(wl_kernel_local(l, b, t, 16, 81, &id));
      k->reg2[b][t] = id;
      break;
    }
    case 2:
      STEP(st(l, b, t, WL_SPACE_LOCAL, (int)k->reg2[b][t], 4, 82, t));
      break;
    case 3:
      STEP(ld(l, b, t, WL_SPACE_CONSTANT, k->buf[1], 0, 83, &k->reg[b][t]));
      break;
    case 4:
      STEP(st(l, b, t, WL_SPACE_SHARED, k->sh[b], 4 * (uint64_t)t, 84,
              k->reg[b][t] + t));
      break;
    case 5:
      return wl_kernel_barrier(l, b, t, 85);
    case 6:
      STEP(ld(l, b, t, WL_SPACE_SHARED, k->sh[b], 4 * (uint64_t)(n - 1 - t), 86,
              &k->reg[b][t]));
      break;
    case 7:
      STEP(st(l, b, t, WL_SPACE_GLOBAL, k->buf[0], 4 * i, 87, k->reg[b][t]));
      break;
    default:
      return wl_kernel_exit(l, b, t);
    }
  }
}

/* ---------------------------------------------------------------- */
/* Helpers                                                           */

typedef struct fixture {
  wl_ctx *ctx;
  wl_device *d;
  wl_launch *l;
  kern *k;
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  if (f == NULL || wl_ctx_new(NULL, &f->ctx) != 0 ||
      (f->k = calloc(1, sizeof *f->k)) == NULL) {
    if (f)
      wl_ctx_free(f->ctx);
    free(f);
    return -1;
  }
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  wl_launch_free(f->l);
  wl_device_free(f->d);
  wl_ctx_free(f->ctx);
  free(f->k);
  free(f);
  return 0;
}

static void has(const char *text, const char *needle) {
  if (text == NULL || strstr(text, needle) == NULL)
    fail_msg("'%s' not in:\n%s", needle, text ? text : "(null)");
}

/* f->d made from a preset. */
static wl_device *device(fixture *f, const char *preset) {
  wl_device_cfg c;
  int r;
  wl_device_free(f->d);
  f->d = NULL;
  assert_int_equal(wl_device_preset(f->ctx, preset, &c), 0);
  r = wl_device_new(f->ctx, &c, &f->d);
  if (r != 0)
    fail_msg("device: %s: %s", wl_err_name(r), wl_ctx_errmsg(f->ctx));
  return f->d;
}

static int alloc(fixture *f, int space, uint64_t bytes, const char *name) {
  int id, r = wl_device_alloc(f->d, space, bytes, name, &id);
  if (r != 0)
    fail_msg("alloc: %s: %s", wl_err_name(r), wl_ctx_errmsg(f->ctx));
  return id;
}

static void launch_cfg(wl_launch_cfg *c, kern *k, thread_fn fn, int grid,
                       int block, uint64_t seed) {
  memset(c, 0, sizeof *c);
  c->grid[0] = grid;
  c->block[0] = block;
  c->seed = seed;
  c->profile = WL_PROFILE_WEAK;
  c->source = "k.cu";
  c->run_warp = run_warp;
  c->block_done = block_done;
  c->ud = k;
  memset(k->pc, 0, sizeof k->pc);
  memset(k->reg, 0, sizeof k->reg);
  memset(k->reg2, 0, sizeof k->reg2);
  k->blocks_done = 0;
  k->fn = fn;
}

/* Runs a launch into f->l (freed first); returns its code. */
static int launch(fixture *f, const wl_launch_cfg *c) {
  wl_launch_free(f->l);
  f->l = NULL;
  return wl_launch_run(f->d, c, &f->l);
}

static void launch_ok(fixture *f, const wl_launch_cfg *c) {
  int r = launch(f, c);
  if (r != 0)
    fail_msg("launch: %s: %s", wl_err_name(r), wl_ctx_errmsg(f->ctx));
  assert_non_null(f->l);
}

static int counter_index(const char *name) {
  int i;
  const char *n;
  for (i = 0; (n = wl_launch_counter_name(i)) != NULL; i++)
    if (strcmp(n, name) == 0)
      return i;
  fail_msg("no counter %s", name);
  return -1;
}

static uint64_t total(const wl_launch *l, const char *name) {
  return wl_launch_counter(l, -1, counter_index(name));
}

/* The site at line (with kind), or -1. */
static int site_at(const wl_launch *l, int line, int kind) {
  int s, n = wl_launch_nsites(l);
  for (s = 0; s < n; s++) {
    int ln, sp, kd, w;
    assert_int_equal(wl_launch_site(l, s, &ln, &sp, &kd, &w), 0);
    if (ln == line && kd == kind)
      return s;
  }
  return -1;
}

/* A vector add over 3 blocks x 64 threads: allocations, launch, check. */
static void vadd(fixture *f, uint64_t seed) {
  wl_launch_cfg c;
  int32_t a[192], b[192], out[192];
  int i;
  for (i = 0; i < 192; i++) {
    a[i] = i;
    b[i] = 1000 * i;
  }
  f->k->buf[0] = alloc(f, WL_SPACE_GLOBAL, sizeof a, "a");
  f->k->buf[1] = alloc(f, WL_SPACE_MANAGED, sizeof b, "b");
  f->k->buf[2] = alloc(f, WL_SPACE_GLOBAL, sizeof out, "c");
  assert_int_equal(wl_device_write(f->d, f->k->buf[0], 0, a, sizeof a), 0);
  assert_int_equal(wl_device_write(f->d, f->k->buf[1], 0, b, sizeof b), 0);
  launch_cfg(&c, f->k, k_vadd, 3, 64, seed);
  launch_ok(f, &c);
  assert_int_equal(f->k->blocks_done, 3);
  assert_int_equal(wl_device_read(f->d, f->k->buf[2], 0, out, sizeof out), 0);
  for (i = 0; i < 192; i++)
    assert_int_equal(out[i], 1001 * i);
}

/* ---------------------------------------------------------------- */
/* Presets and configuration                                         */

static void test_presets(void **state) {
  fixture *f = *state;
  const char *const *names = wl_device_presets();
  wl_device_cfg c;
  int n;
  for (n = 0; names[n] != NULL; n++) {
    wl_device *d = NULL;
    memset(&c, 0xab, sizeof c);
    assert_int_equal(wl_device_preset(f->ctx, names[n], &c), 0);
    assert_string_equal(c.name, names[n]);
    assert_int_equal(wl_device_new(f->ctx, &c, &d), 0);
    assert_non_null(d);
    assert_string_equal(wl_device_config(d)->name, names[n]);
    assert_memory_equal(wl_device_config(d), &c, sizeof c);
    wl_device_free(d);
  }
  assert_int_equal(n, 6);
  /* the documented values of a few */
  assert_int_equal(wl_device_preset(f->ctx, "toy", &c), 0);
  assert_int_equal(c.shared_per_sm, 16 * 1024);
  assert_int_equal(c.max_threads_per_sm, 768);
  assert_int_equal(wl_device_preset(f->ctx, "sm_35", &c), 0);
  assert_int_equal(c.bank_bytes, 8);
  assert_int_equal(wl_device_preset(f->ctx, "banks5", &c), 0);
  assert_int_equal(c.banks, 5);
  assert_int_equal(c.bank_bytes, 4);
  /* NULL is the default, sm_90 */
  assert_int_equal(wl_device_preset(f->ctx, NULL, &c), 0);
  assert_string_equal(c.name, "sm_90");
  assert_int_equal(c.banks, 32);
  assert_int_equal(c.const_bytes, 64 * 1024);
  wl_device_free(NULL);
}

static void test_preset_unknown(void **state) {
  fixture *f = *state;
  const char *const *names = wl_device_presets();
  wl_device_cfg c;
  int n;
  assert_int_equal(wl_device_preset(f->ctx, "sm_99", &c), WL_EINVAL);
  has(wl_ctx_errmsg(f->ctx), "sm_99");
  for (n = 0; names[n] != NULL; n++)
    has(wl_ctx_errmsg(f->ctx), names[n]);
}

static void bad_cfg(fixture *f, const wl_device_cfg *c, const char *field) {
  wl_device *d = (wl_device *)&d;
  assert_int_equal(wl_device_new(f->ctx, c, &d), WL_EINVAL);
  assert_null(d);
  has(wl_ctx_errmsg(f->ctx), field);
}

static void test_device_new_rejects(void **state) {
  fixture *f = *state;
  wl_device_cfg base, c;
  assert_int_equal(wl_device_preset(f->ctx, "sm_90", &base), 0);
  c = base;
  c.banks = 0;
  bad_cfg(f, &c, "banks");
  c = base;
  c.banks = 65;
  bad_cfg(f, &c, "banks");
  c = base;
  c.bank_bytes = 3;
  bad_cfg(f, &c, "bank_bytes");
  c = base;
  c.shared_per_block = c.shared_per_sm + 1;
  bad_cfg(f, &c, "shared_per_block");
  c = base;
  c.shared_per_sm = c.l1_shared_bytes + 1;
  bad_cfg(f, &c, "shared_per_sm");
  c = base;
  c.sms = 0;
  bad_cfg(f, &c, "sms");
  c = base;
  c.max_threads_per_block = 0;
  bad_cfg(f, &c, "max_threads_per_block");
  c = base;
  c.l1_sector = 24;
  bad_cfg(f, &c, "L1");
  c = base;
  c.const_line = 48;
  bad_cfg(f, &c, "const_line");
  c = base;
  c.global_bytes = 16;
  bad_cfg(f, &c, "global_bytes");
  /* and the base is fine */
  assert_int_equal(wl_device_new(f->ctx, &base, &f->d), 0);
}

/* ---------------------------------------------------------------- */
/* Memory                                                            */

static void test_alloc_spaces(void **state) {
  fixture *f = *state;
  static const int spaces[] = {WL_SPACE_GLOBAL, WL_SPACE_MANAGED,
                               WL_SPACE_CONSTANT, WL_SPACE_PARAM};
  static const uint64_t sizes[] = {1, 300, 4, 257, 4096, 33};
  uint8_t buf[300];
  int ids[6], i, j, id;
  device(f, "sm_90");
  for (i = 0; i < 4; i++) {
    char name[16];
    snprintf(name, sizeof name, "x%d", i);
    id = alloc(f, spaces[i], 100, name);
    assert_int_equal(wl_device_alloc_space(f->d, id), spaces[i]);
    assert_int_equal(wl_device_alloc_size(f->d, id), 100);
    assert_string_equal(wl_device_alloc_name(f->d, id), name);
    /* zeroed, and a host may write every space */
    memset(buf, 0xff, sizeof buf);
    assert_int_equal(wl_device_read(f->d, id, 0, buf, 100), 0);
    for (j = 0; j < 100; j++)
      assert_int_equal(buf[j], 0);
    buf[0] = 42;
    buf[99] = 43;
    assert_int_equal(wl_device_write(f->d, id, 0, buf, 100), 0);
    memset(buf, 0, sizeof buf);
    assert_int_equal(wl_device_read(f->d, id, 99, buf, 1), 0);
    assert_int_equal(buf[0], 43);
  }
  /* global addresses are 256-aligned and do not overlap */
  for (i = 0; i < 6; i++) {
    ids[i] =
        alloc(f, i % 2 ? WL_SPACE_MANAGED : WL_SPACE_GLOBAL, sizes[i], "g");
    assert_int_equal(wl_device_alloc_addr(f->d, ids[i]) % 256, 0);
    assert_true(wl_device_alloc_addr(f->d, ids[i]) != 0);
  }
  for (i = 0; i < 6; i++)
    for (j = 0; j < 6; j++) {
      uint64_t ai = wl_device_alloc_addr(f->d, ids[i]);
      uint64_t aj = wl_device_alloc_addr(f->d, ids[j]);
      if (i != j)
        assert_true(ai + sizes[i] <= aj || aj + sizes[j] <= ai);
    }
  /* shared and local memory are not host allocations */
  assert_int_equal(wl_device_alloc(f->d, WL_SPACE_SHARED, 16, "s", &id),
                   WL_EINVAL);
  assert_int_equal(id, -1);
  assert_int_equal(wl_device_alloc(f->d, WL_SPACE_LOCAL, 16, "s", &id),
                   WL_EINVAL);
  assert_int_equal(wl_device_alloc(f->d, 99, 16, "s", &id), WL_EINVAL);
  /* parameters: 32764 bytes at most */
  alloc(f, WL_SPACE_PARAM, 32764, "p");
  assert_int_equal(wl_device_alloc(f->d, WL_SPACE_PARAM, 32765, "p", &id),
                   WL_ELIMIT);
}

static void test_alloc_constant_limit(void **state) {
  fixture *f = *state;
  int id;
  device(f, "sm_90");
  assert_int_equal(wl_device_alloc(f->d, WL_SPACE_CONSTANT, 65537, "big", &id),
                   WL_ELIMIT);
  assert_int_equal(id, -1);
  has(wl_ctx_errmsg(f->ctx), "big");
  alloc(f, WL_SPACE_CONSTANT, 60000, "c1");
  alloc(f, WL_SPACE_CONSTANT, 5536, "c2"); /* exactly 64 KB in all */
  assert_int_equal(wl_device_alloc(f->d, WL_SPACE_CONSTANT, 1, "c3", &id),
                   WL_ELIMIT);
  has(wl_ctx_errmsg(f->ctx), "constant");
  /* global memory is separate */
  alloc(f, WL_SPACE_GLOBAL, 65536, "g");
}

static void test_alloc_global_limit(void **state) {
  fixture *f = *state;
  wl_device_cfg c;
  int a, b, id;
  assert_int_equal(wl_device_preset(f->ctx, "sm_90", &c), 0);
  c.global_bytes = 4096;
  assert_int_equal(wl_device_new(f->ctx, &c, &f->d), 0);
  a = alloc(f, WL_SPACE_GLOBAL, 3000, "a");
  b = alloc(f, WL_SPACE_MANAGED, 1096, "b");
  assert_int_equal(wl_device_alloc(f->d, WL_SPACE_GLOBAL, 1, "c", &id),
                   WL_ELIMIT);
  has(wl_ctx_errmsg(f->ctx), "out of device memory");
  assert_int_equal(wl_device_alloc(f->d, WL_SPACE_MANAGED, 1, "c", &id),
                   WL_ELIMIT);
  /* a release gives the bytes back; ids are not reused */
  assert_int_equal(wl_device_release(f->d, a), 0);
  id = alloc(f, WL_SPACE_GLOBAL, 3000, "a2");
  assert_true(id != a && id != b);
  assert_int_equal(wl_device_alloc_addr(f->d, id) % 256, 0);
}

static void test_host_copies(void **state) {
  fixture *f = *state;
  uint8_t buf[64] = {0};
  int id;
  device(f, "sm_90");
  id = alloc(f, WL_SPACE_GLOBAL, 32, "x");
  assert_int_equal(wl_device_write(f->d, id, 30, buf, 4), WL_EINVAL);
  has(wl_ctx_errmsg(f->ctx), "outside 'x'");
  assert_int_equal(wl_device_write(f->d, id, 33, buf, 0), WL_EINVAL);
  assert_int_equal(wl_device_write(f->d, id, 0, buf, 33), WL_EINVAL);
  assert_int_equal(wl_device_write(f->d, id, UINT64_MAX, buf, 2), WL_EINVAL);
  assert_int_equal(wl_device_write(f->d, id, 8, buf, UINT64_MAX), WL_EINVAL);
  assert_int_equal(wl_device_read(f->d, id, 29, buf, 4), WL_EINVAL);
  assert_int_equal(wl_device_read(f->d, id, 0, buf, 33), WL_EINVAL);
  assert_int_equal(wl_device_read(f->d, id + 1, 0, buf, 1), WL_EINVAL);
  assert_int_equal(wl_device_read(f->d, -1, 0, buf, 1), WL_EINVAL);
  /* the edges */
  assert_int_equal(wl_device_write(f->d, id, 32, buf, 0), 0);
  assert_int_equal(wl_device_write(f->d, id, 0, buf, 32), 0);
  assert_int_equal(wl_device_read(f->d, id, 28, buf, 4), 0);
}

static void test_release(void **state) {
  fixture *f = *state;
  uint8_t b = 0;
  int id;
  device(f, "sm_90");
  id = alloc(f, WL_SPACE_GLOBAL, 32, "x");
  assert_int_equal(wl_device_release(f->d, id), 0);
  assert_int_equal(wl_device_release(f->d, id), WL_EINVAL);
  has(wl_ctx_errmsg(f->ctx), "freed twice");
  assert_int_equal(wl_device_release(f->d, 12345), WL_EINVAL);
  assert_int_equal(wl_device_release(f->d, -1), WL_EINVAL);
  /* a released id answers nothing */
  assert_int_equal(wl_device_read(f->d, id, 0, &b, 1), WL_EINVAL);
  assert_int_equal(wl_device_write(f->d, id, 0, &b, 1), WL_EINVAL);
  assert_int_equal(wl_device_alloc_size(f->d, id), 0);
  assert_int_equal(wl_device_alloc_space(f->d, id), -1);
  assert_null(wl_device_alloc_name(f->d, id));
  /* constant and param allocations release too */
  id = alloc(f, WL_SPACE_CONSTANT, 16, "k");
  assert_int_equal(wl_device_release(f->d, id), 0);
  id = alloc(f, WL_SPACE_PARAM, 16, "p");
  assert_int_equal(wl_device_release(f->d, id), 0);
}

/* ---------------------------------------------------------------- */
/* Occupancy                                                         */

static void test_occupancy_toy(void **state) {
  fixture *f = *state;
  wl_launch_cfg c;
  wl_occupancy o;
  device(f, "toy");
  launch_cfg(&c, f->k, k_vadd, 1, 256, 1);
  c.static_shared = 2048;
  assert_int_equal(wl_device_occupancy(f->d, &c, &o), 0);
  assert_int_equal(o.blocks_per_sm, 3);
  assert_int_equal(o.by_threads, 3);
  assert_int_equal(o.by_shared, 8);
  assert_int_equal(o.by_blocks, 8);
  /* 768 threads are 24 warps: threads and warps give the same bound */
  assert_true(o.limiter == WL_LIMIT_THREADS || o.limiter == WL_LIMIT_WARPS);
  assert_int_equal(o.shared_per_sm, 16 * 1024);
  assert_int_equal(o.shared_per_block, 2048);
  assert_int_equal(o.warps_per_sm, 24);
  assert_true(o.occupancy > 0.999 && o.occupancy < 1.001);
  /* 8 KB of shared memory: shared memory limits */
  c.static_shared = 4096;
  c.dynamic_shared = 4096;
  assert_int_equal(wl_device_occupancy(f->d, &c, &o), 0);
  assert_int_equal(o.blocks_per_sm, 2);
  assert_int_equal(o.by_shared, 2);
  assert_int_equal(o.limiter, WL_LIMIT_SHARED);
}

static void test_occupancy_regs(void **state) {
  fixture *f = *state;
  wl_launch_cfg c;
  wl_occupancy o;
  device(f, "sm_90");
  launch_cfg(&c, f->k, k_vadd, 1, 256, 1);
  c.regs_per_thread = 128;
  assert_int_equal(wl_device_occupancy(f->d, &c, &o), 0);
  assert_int_equal(o.blocks_per_sm, 2);
  assert_int_equal(o.by_regs, 2);
  assert_int_equal(o.limiter, WL_LIMIT_REGS);
  assert_int_equal(o.warps_per_sm, 16);
  /* the default is 32 registers: 8 blocks of 256 threads, threads */
  c.regs_per_thread = 0;
  assert_int_equal(wl_device_occupancy(f->d, &c, &o), 0);
  assert_int_equal(o.blocks_per_sm, 8);
  assert_int_equal(o.by_threads, 8);
}

static void test_occupancy_no_fit(void **state) {
  fixture *f = *state;
  wl_launch_cfg c;
  wl_occupancy o;
  device(f, "toy");
  launch_cfg(&c, f->k, k_vadd, 1, 256, 1);
  c.static_shared = 16 * 1024 + 1;
  assert_int_equal(wl_device_occupancy(f->d, &c, &o), WL_EINVAL);
  has(wl_ctx_errmsg(f->ctx), "shared memory");
  /* a launch reports the same */
  assert_int_equal(launch(f, &c), WL_EINVAL);
  assert_null(f->l);
  has(wl_ctx_errmsg(f->ctx), "shared memory");
  /* registers: 255 x 1024 threads do not fit an sm_90 SM */
  device(f, "sm_90");
  launch_cfg(&c, f->k, k_vadd, 1, 1024, 1);
  c.regs_per_thread = 255;
  assert_int_equal(wl_device_occupancy(f->d, &c, &o), WL_EINVAL);
  assert_true(wl_ctx_errmsg(f->ctx)[0] != '\0');
  /* too many threads per block */
  launch_cfg(&c, f->k, k_vadd, 1, 2048, 1);
  assert_int_equal(launch(f, &c), WL_EINVAL);
  has(wl_ctx_errmsg(f->ctx), "threads per block");
  /* no run_warp; negative dimensions */
  launch_cfg(&c, f->k, k_vadd, 1, 32, 1);
  c.run_warp = NULL;
  assert_int_equal(launch(f, &c), WL_EINVAL);
  launch_cfg(&c, f->k, k_vadd, 1, 32, 1);
  c.grid[1] = -1;
  assert_int_equal(launch(f, &c), WL_EINVAL);
}

/* ---------------------------------------------------------------- */
/* Launches and counters                                             */

static void test_launch_vadd(void **state) {
  fixture *f = *state;
  const wl_occupancy *o;
  int s, line, space, kind, width;
  device(f, "sm_90");
  vadd(f, 1);
  o = wl_launch_occupancy(f->l);
  assert_int_equal(o->blocks_per_sm, 32);
  assert_true(wl_launch_steps(f->l) >= 6);
  /* 6 warps x 3 instructions of 32 lanes */
  assert_int_equal(total(f->l, "smsp__inst_executed.sum"), 18);
  assert_int_equal(total(f->l, "smsp__thread_inst_executed.sum"), 18 * 32);
  assert_int_equal(
      total(f->l, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 12);
  assert_int_equal(
      total(f->l, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 48);
  assert_int_equal(
      total(f->l, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"), 6);
  assert_int_equal(
      total(f->l, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"), 24);
  assert_int_equal(
      total(f->l, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), 0);
  /* loads: every sector is looked up in L1 once */
  assert_int_equal(
      total(f->l, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum") +
          total(f->l,
                "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum"),
      48);
  /* sites: lines 10, 11 (loads) and 12 (store) */
  assert_int_equal(wl_launch_nsites(f->l), 3);
  s = site_at(f->l, 12, WL_ACC_STORE);
  assert_true(s >= 0);
  assert_int_equal(wl_launch_site(f->l, s, &line, &space, &kind, &width), 0);
  assert_int_equal(line, 12);
  assert_int_equal(space, WL_SPACE_GLOBAL);
  assert_int_equal(width, 4);
  assert_int_equal(
      wl_launch_counter(f->l, s, counter_index("smsp__inst_executed.sum")), 6);
  s = site_at(f->l, 11, WL_ACC_LOAD);
  assert_true(s >= 0);
  assert_int_equal(wl_launch_site(f->l, s, &line, &space, &kind, &width), 0);
  assert_int_equal(space, WL_SPACE_MANAGED);
  assert_int_equal(
      wl_launch_counter(
          f->l, s,
          counter_index("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")),
      6);
  assert_true(site_at(f->l, 10, WL_ACC_LOAD) >= 0);
  /* out of range */
  assert_int_equal(wl_launch_site(f->l, 3, &line, &space, &kind, &width),
                   WL_EINVAL);
  assert_int_equal(wl_launch_site(f->l, -1, &line, &space, &kind, &width),
                   WL_EINVAL);
  assert_int_equal(wl_launch_counter(f->l, 3, 0), 0);
  assert_int_equal(wl_launch_counter(f->l, -1, 999), 0);
  assert_int_equal(wl_launch_counter(f->l, -1, -1), 0);
  assert_null(wl_launch_counter_name(-1));
  assert_string_equal(wl_launch_counter_name(0), "smsp__inst_executed.sum");
  /* a launch without out */
  {
    wl_launch_cfg c;
    launch_cfg(&c, f->k, k_vadd, 3, 64, 2);
    assert_int_equal(wl_launch_run(f->d, &c, NULL), 0);
    assert_int_equal(f->k->blocks_done, 3);
  }
}

static void test_shared_stride2(void **state) {
  fixture *f = *state;
  wl_launch_cfg c;
  const char *wf = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
  const char *bc = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
  int s;
  device(f, "sm_90");
  /* 2 blocks x 64 threads: 4 warps, one request each */
  launch_cfg(&c, f->k, k_stride2, 2, 64, 3);
  c.static_shared = 256;
  launch_ok(f, &c);
  assert_int_equal(total(f->l, "smsp__inst_executed.sum"), 4);
  assert_int_equal(total(f->l, wf), 8);
  assert_int_equal(total(f->l, bc), 4);
  s = site_at(f->l, 21, WL_ACC_LOAD);
  assert_true(s >= 0);
  assert_int_equal(wl_launch_counter(f->l, s, counter_index(wf)), 8);
  assert_int_equal(wl_launch_counter(f->l, s, counter_index(bc)), 4);
  assert_int_equal(
      total(f->l, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 0);
  /* banks5: the 16 words 0, 2, .., 62 of one warp: 32 words over 5 banks,
   * at most 7 distinct words in one bank */
  {
    wl_bank_cfg b5 = {5, 4};
    wl_warp_req r;
    wl_shared_cost sc;
    int i;
    memset(&r, 0, sizeof r);
    r.active = 0xffffffffu;
    r.width = 4;
    for (i = 0; i < 32; i++)
      r.addr[i] = 8 * (uint64_t)i;
    assert_int_equal(wl_price_shared(&b5, &r, &sc), 0);
    device(f, "banks5");
    launch_cfg(&c, f->k, k_stride2, 1, 32, 3);
    c.static_shared = 256;
    launch_ok(f, &c);
    assert_int_equal(total(f->l, wf), (uint64_t)sc.wavefronts);
    assert_int_equal(total(f->l, bc), (uint64_t)sc.conflicts);
  }
}

/* A whole warp's aligned 4-byte shared loads in one call (the engine's
 * whole-warp path: bounds and alignment for the 32 lanes at once): the
 * words, and each kind of bad lane refused as a lane's own access is. */
static void test_warp_words(void **state) {
  fixture *f = *state;
  wl_launch_cfg c;
  int i, bad;
  static const char *const why[] = {NULL, "out-of-bounds load",
                                    "out-of-bounds load", "misaligned"};
  device(f, "sm_90");
  f->k->n = 0;
  launch_cfg(&c, f->k, k_warp_words, 1, 64, 3);
  c.static_shared = 256;
  launch_ok(f, &c);
  for (i = 0; i < 64; i++)
    assert_int_equal(f->k->reg[0][i], i);
  /* a store and a load a warp, each one request */
  assert_int_equal(total(f->l, "smsp__inst_executed.sum"), 4);
  for (bad = 1; bad <= 3; bad++) {
    f->k->n = bad;
    launch_cfg(&c, f->k, k_warp_words, 1, 64, 3);
    c.static_shared = 256;
    if (launch(f, &c) != WL_ERUNTIME)
      fail_msg("case %d: not refused", bad);
    has(wl_launch_errmsg(f->l), why[bad]);
    has(wl_launch_errmsg(f->l), "lane 5");
  }
}

/* ---------------------------------------------------------------- */
/* Barriers                                                          */

static void test_barrier(void **state) {
  fixture *f = *state;
  wl_launch_cfg c;
  int32_t out[3 * 96];
  int b, t;
  device(f, "sm_90");
  f->k->buf[0] = alloc(f, WL_SPACE_GLOBAL, sizeof out, "out");
  /* 96 threads: three warps, lanes run one after the other */
  launch_cfg(&c, f->k, k_rotate, 3, 96, 4);
  c.static_shared = 4 * 96;
  launch_ok(f, &c);
  assert_int_equal(f->k->blocks_done, 3);
  assert_int_equal(wl_device_read(f->d, f->k->buf[0], 0, out, sizeof out), 0);
  for (b = 0; b < 3; b++)
    for (t = 0; t < 96; t++)
      assert_int_equal(out[b * 96 + t], ((t + 1) % 96) * 10 + b);
  /* the barrier splits the shared stores from the loads: two requests
   * per warp at lines 31 and 33 */
  assert_int_equal(
      total(f->l, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"), 9);
  assert_int_equal(
      total(f->l, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), 9);
  /* several blocks on one SM (toy: 1 SM) with a barrier each */
  device(f, "toy");
  f->k->buf[0] = alloc(f, WL_SPACE_GLOBAL, sizeof out, "out");
  launch_cfg(&c, f->k, k_rotate, 3, 96, 5);
  c.static_shared = 4 * 96;
  launch_ok(f, &c);
  assert_int_equal(wl_device_read(f->d, f->k->buf[0], 0, out, sizeof out), 0);
  for (b = 0; b < 3; b++)
    for (t = 0; t < 96; t++)
      assert_int_equal(out[b * 96 + t], ((t + 1) % 96) * 10 + b);
}

static void test_barrier_divergence(void **state) {
  fixture *f = *state;
  wl_launch_cfg c;
  device(f, "sm_90");
  /* thread 37 (warp 1 lane 5) exits; the rest wait at line 40 */
  f->k->n = 37;
  launch_cfg(&c, f->k, k_diverge, 2, 64, 6);
  assert_int_equal(launch(f, &c), WL_ERUNTIME);
  assert_non_null(f->l);
  has(wl_launch_errmsg(f->l), "barrier divergence");
  has(wl_launch_errmsg(f->l), "k.cu:40: block (");
  has(wl_launch_errmsg(f->l), "thread (37,0,0) warp 1 lane 5");
  has(wl_ctx_errmsg(f->ctx), "barrier divergence");
  has(wl_ctx_errmsg(f->ctx), "thread (37,0,0)");
  /* the blocks that were resident were handed back */
  assert_int_equal(f->k->blocks_done, 2);
  /* thread 0 exits */
  f->k->n = 0;
  launch_cfg(&c, f->k, k_diverge, 1, 32, 6);
  assert_int_equal(launch(f, &c), WL_ERUNTIME);
  has(wl_launch_errmsg(f->l), "block (0,0,0) thread (0,0,0)");
  has(wl_launch_errmsg(f->l), "barrier divergence");
  /* two warps at the barriers of two lines */
  launch_cfg(&c, f->k, k_two_barriers, 1, 64, 6);
  assert_int_equal(launch(f, &c), WL_ERUNTIME);
  has(wl_launch_errmsg(f->l), "barrier divergence");
  has(wl_launch_errmsg(f->l), "thread (32,0,0)");
  has(wl_launch_errmsg(f->l), "line 41");
  has(wl_launch_errmsg(f->l), "line 40");
  /* the device is still usable */
  vadd(f, 7);
}

/* Launches do not nest; allocations stay while a launch runs. */
static void test_launch_nesting(void **state) {
  fixture *f = *state;
  wl_launch_cfg c;
  device(f, "sm_90");
  f->k->dev = f->d;
  f->k->buf[0] = alloc(f, WL_SPACE_GLOBAL, 16, "x");
  launch_cfg(&c, f->k, k_nest, 1, 32, 1);
  launch_ok(f, &c);
  assert_int_equal(f->k->rc[0], WL_EINVAL);
  assert_int_equal(f->k->rc[1], WL_EINVAL);
  has(wl_ctx_errmsg(f->ctx), "during a launch");
  assert_int_equal(wl_device_alloc_size(f->d, f->k->buf[0]), 16);
  /* after it, both work */
  assert_int_equal(wl_device_release(f->d, f->k->buf[0]), 0);
  vadd(f, 1);
}

/* ---------------------------------------------------------------- */
/* Runtime errors                                                    */

static void bad_launch(fixture *f, int what, const char *needle) {
  wl_launch_cfg c;
  int rc;
  f->k->n = what;
  launch_cfg(&c, f->k, k_bad, 2, 32, 8);
  if (what == BAD_SPIN)
    c.max_steps = 500;
  rc = launch(f, &c);
  if (rc != WL_ERUNTIME)
    fail_msg("case %d: %s (%s)", what, wl_err_name(rc), wl_ctx_errmsg(f->ctx));
  assert_non_null(f->l);
  has(wl_launch_errmsg(f->l), needle);
  has(wl_launch_errmsg(f->l), "k.cu:5");
  has(wl_launch_errmsg(f->l), "block (1,0,0)");
  has(wl_launch_errmsg(f->l), "thread (5,0,0)");
  has(wl_launch_errmsg(f->l), "lane 5");
  has(wl_ctx_errmsg(f->ctx), needle);
  has(wl_ctx_errmsg(f->ctx), "block (1,0,0) thread (5,0,0)");
  /* every resident block was handed back */
  assert_true(f->k->blocks_done == 2);
}

static void test_runtime_errors(void **state) {
  fixture *f = *state;
  int32_t v = 99, out;
  int id;
  device(f, "sm_90");
  f->k->buf[0] = alloc(f, WL_SPACE_GLOBAL, 64, "x");
  f->k->buf[1] = alloc(f, WL_SPACE_CONSTANT, 16, "coeffs");
  f->k->buf[2] = alloc(f, WL_SPACE_PARAM, 16, "params");
  assert_int_equal(wl_device_write(f->d, f->k->buf[1], 0, &v, 4), 0);
  bad_launch(f, BAD_OOB, "out-of-bounds load");
  has(wl_launch_errmsg(f->l), "'x'");
  bad_launch(f, BAD_CONST_STORE, "__constant__");
  has(wl_launch_errmsg(f->l), "coeffs");
  bad_launch(f, BAD_PARAM_STORE, "__grid_constant__");
  bad_launch(f, BAD_MISALIGNED, "misaligned");
  bad_launch(f, BAD_SPIN, "without finishing");
  assert_int_equal(wl_launch_steps(f->l), 501);
  /* the failed stores changed nothing */
  assert_int_equal(wl_device_read(f->d, f->k->buf[1], 0, &out, 4), 0);
  assert_int_equal(out, 99);
  assert_int_equal(wl_device_read(f->d, f->k->buf[2], 0, &out, 4), 0);
  assert_int_equal(out, 0);
  /* a freed allocation is unknown memory */
  id = f->k->buf[0];
  assert_int_equal(wl_device_release(f->d, id), 0);
  f->k->n = BAD_OOB;
  {
    wl_launch_cfg c;
    launch_cfg(&c, f->k, k_bad, 2, 32, 8);
    assert_int_equal(launch(f, &c), WL_ERUNTIME);
    has(wl_launch_errmsg(f->l), "freed or unknown");
  }
  /* the device is still usable */
  vadd(f, 9);
}

/* A run_warp that fails with its own message. */
static int k_fail(kern *k, wl_launch *l, int b, int t) {
  (void)k;
  if (b == 0 && t == 3)
    return wl_kernel_fail(l, b, t, "my.lua", 7, "assertion failed!");
  return wl_kernel_exit(l, b, t);
}

/* A kernel that never runs anything: no runnable warp. */
static int k_stuck(kern *k, wl_launch *l, int b, int t) {
  (void)k;
  (void)l;
  (void)b;
  (void)t;
  return 0; /* the lane neither yields at a barrier nor exits */
}

static int stop_now(void *ud) {
  (void)ud;
  return 1;
}

static void test_kernel_fail_and_stop(void **state) {
  fixture *f = *state;
  wl_launch_cfg c;
  device(f, "sm_90");
  launch_cfg(&c, f->k, k_fail, 1, 32, 1);
  assert_int_equal(launch(f, &c), WL_ERUNTIME);
  assert_string_equal(wl_launch_errmsg(f->l),
                      "my.lua:7: block (0,0,0) thread (3,0,0) warp 0 lane 3: "
                      "assertion failed!");
  assert_string_equal(wl_ctx_errmsg(f->ctx), wl_launch_errmsg(f->l));
  /* should_stop is polled */
  launch_cfg(&c, f->k, k_stuck, 1, 32, 1);
  c.should_stop = stop_now;
  assert_int_equal(launch(f, &c), WL_ESTOPPED);
  /* without it, max_steps ends the launch */
  launch_cfg(&c, f->k, k_stuck, 1, 32, 1);
  c.max_steps = 100;
  assert_int_equal(launch(f, &c), WL_ERUNTIME);
  has(wl_launch_errmsg(f->l), "without finishing");
  /* kernel calls on a launch that has returned find no thread */
  assert_int_equal(wl_kernel_lane_state(f->l, 0, 0), WL_LANE_NONE);
  assert_int_equal(wl_kernel_lane_state(f->l, -1, 0), WL_LANE_NONE);
  vadd(f, 10);
}

/* ---------------------------------------------------------------- */
/* Determinism and the weak memory system                            */

typedef struct snapshot {
  uint64_t steps;
  int nsites;
  uint64_t c[16][32];
  int32_t mem[192];
} snapshot;

static void snap(fixture *f, snapshot *s) {
  int i, j;
  memset(s, 0, sizeof *s);
  s->steps = wl_launch_steps(f->l);
  s->nsites = wl_launch_nsites(f->l);
  assert_true(s->nsites < 15);
  for (i = -1; i < s->nsites; i++)
    for (j = 0; wl_launch_counter_name(j) != NULL; j++) {
      assert_true(j < 32);
      s->c[i + 1][j] = wl_launch_counter(f->l, i, j);
    }
  assert_int_equal(wl_device_read(f->d, f->k->buf[2], 0, s->mem, sizeof s->mem),
                   0);
}

static void test_determinism(void **state) {
  fixture *f = *state;
  snapshot a, b;
  device(f, "toy"); /* 1 SM: blocks share it, the order matters */
  vadd(f, 77);
  snap(f, &a);
  device(f, "toy");
  vadd(f, 77);
  snap(f, &b);
  assert_memory_equal(&a, &b, sizeof a);
}

/* Runs MP with seed; returns the data value block 1 read. */
static int64_t mp_once(fixture *f, uint64_t seed, int fence, int profile) {
  wl_launch_cfg c;
  int32_t zero = 0;
  assert_int_equal(wl_device_write(f->d, f->k->buf[0], 0, &zero, 4), 0);
  assert_int_equal(wl_device_write(f->d, f->k->buf[1], 0, &zero, 4), 0);
  f->k->fence = fence;
  launch_cfg(&c, f->k, k_mp, 2, 1, seed);
  c.profile = profile;
  launch_ok(f, &c);
  return f->k->reg[1][0];
}

static void test_mp_weak(void **state) {
  fixture *f = *state;
  uint64_t seed, stale = 0, first = 0;
  device(f, "sm_90");
  f->k->buf[0] = alloc(f, WL_SPACE_GLOBAL, 4, "data");
  f->k->buf[1] = alloc(f, WL_SPACE_GLOBAL, 4, "flag");
  for (seed = 1; seed <= 2000 && stale == 0; seed++) {
    int64_t v = mp_once(f, seed, 0, WL_PROFILE_WEAK);
    assert_true(v == 0 || v == 1);
    if (v == 0) {
      stale++;
      first = seed;
    }
  }
  if (stale == 0)
    fail_msg("no stale data read in 2000 seeds of MP on WL_PROFILE_WEAK");
  /* the same seed replays the same outcome */
  assert_int_equal(mp_once(f, first, 0, WL_PROFILE_WEAK), 0);
  /* with fences: never */
  for (seed = 1; seed <= 300; seed++) {
    if (mp_once(f, seed, 1, WL_PROFILE_WEAK) != 1)
      fail_msg("MP with fence.sc.gpu read stale data (seed %llu)",
               (unsigned long long)seed);
    if (mp_once(f, seed, 1, WL_PROFILE_H100) != 1)
      fail_msg("MP with fence.sc.gpu read stale data on H100 (seed %llu)",
               (unsigned long long)seed);
  }
  /* the stale seed, fenced */
  assert_int_equal(mp_once(f, first, 1, WL_PROFILE_WEAK), 1);
}

static void test_mixed_widths(void **state) {
  fixture *f = *state;
  uint64_t seed;
  int prof;
  device(f, "sm_90");
  f->k->buf[0] = alloc(f, WL_SPACE_GLOBAL, 8, "w");
  for (prof = 0; prof < WL_NPROFILES; prof++)
    for (seed = 1; seed <= 200; seed++) {
      wl_launch_cfg c;
      uint8_t zero[8] = {0};
      int64_t got = 0;
      memset(f->k->pc, 0, sizeof f->k->pc);
      assert_int_equal(wl_device_write(f->d, f->k->buf[0], 0, zero, 8), 0);
      launch_cfg(&c, f->k, k_widths, 1, 1, seed);
      c.profile = prof;
      launch_ok(f, &c);
      assert_int_equal(f->k->reg[0][0], 0x22222222);
      assert_int_equal(wl_device_read(f->d, f->k->buf[0], 0, &got, 8), 0);
      if (got != 0x2222222233333333ll)
        fail_msg("profile %d seed %llu: the older 4-byte store landed last "
                 "(%llx)", prof, (unsigned long long)seed,
                 (unsigned long long)got);
    }
}

/* ---------------------------------------------------------------- */
/* Cost functions                                                    */

static void req(wl_warp_req *r, uint32_t active, int width, uint64_t base,
                uint64_t stride) {
  int i;
  memset(r, 0, sizeof *r);
  r->active = active;
  r->width = width;
  for (i = 0; i < 32; i++)
    r->addr[i] = base + stride * (uint64_t)i;
}

static void test_cost_functions(void **state) {
  wl_bank_cfg h100 = {32, 4};
  wl_warp_req r;
  wl_shared_cost sc;
  wl_global_cost gc;
  (void)state;
  /* shared: stride 1, 2, broadcast, 32 */
  req(&r, 0xffffffffu, 4, 0, 4);
  assert_int_equal(wl_price_shared(&h100, &r, &sc), 0);
  assert_int_equal(sc.wavefronts, 1);
  assert_int_equal(sc.conflicts, 0);
  req(&r, 0xffffffffu, 4, 0, 8);
  assert_int_equal(wl_price_shared(&h100, &r, &sc), 0);
  assert_int_equal(sc.wavefronts, 2);
  assert_int_equal(sc.conflicts, 1);
  assert_int_equal(sc.ideal, 1);
  req(&r, 0xffffffffu, 4, 64, 0);
  assert_int_equal(wl_price_shared(&h100, &r, &sc), 0);
  assert_int_equal(sc.wavefronts, 1);
  assert_int_equal(sc.conflicts, 0);
  req(&r, 0xffffffffu, 4, 0, 128);
  assert_int_equal(wl_price_shared(&h100, &r, &sc), 0);
  assert_int_equal(sc.wavefronts, 32);
  assert_int_equal(sc.conflicts, 31);
  assert_int_equal(sc.bank_words[0], 32);
  req(&r, 0, 4, 0, 4);
  assert_int_equal(wl_price_shared(&h100, &r, &sc), 0);
  assert_int_equal(sc.wavefronts, 0);
  req(&r, 0xffffffffu, 4, 2, 4);
  assert_int_equal(wl_price_shared(&h100, &r, &sc), WL_EINVAL);
  assert_int_equal(sc.bad_lane, 0);
  /* global: coalesced, stride 32 bytes, none, misaligned lane */
  req(&r, 0xffffffffu, 4, 256, 4);
  assert_int_equal(wl_price_global(&r, &gc), 0);
  assert_int_equal(gc.requests, 1);
  assert_int_equal(gc.sectors, 4);
  assert_int_equal(gc.lines, 1);
  assert_int_equal(gc.nsec, 4);
  assert_int_equal(gc.sector[0], 256);
  assert_int_equal(gc.sector[3], 256 + 96);
  req(&r, 0xffffffffu, 4, 0, 32);
  assert_int_equal(wl_price_global(&r, &gc), 0);
  assert_int_equal(gc.sectors, 32);
  assert_int_equal(gc.lines, 8);
  req(&r, 0, 4, 0, 4);
  assert_int_equal(wl_price_global(&r, &gc), 0);
  assert_int_equal(gc.requests, 0);
  assert_int_equal(gc.sectors, 0);
  req(&r, 0xffffffffu, 8, 0, 8);
  r.addr[7] += 4;
  assert_int_equal(wl_price_global(&r, &gc), WL_EINVAL);
  assert_int_equal(gc.bad_lane, 7);
  assert_int_equal(wl_req_misaligned(&r), 7);
  req(&r, 0xffffffffu, 3, 0, 4);
  assert_int_equal(wl_price_global(&r, &gc), WL_EINVAL);
  assert_int_equal(gc.bad_lane, -1);
  /* constant: distinct addresses */
  req(&r, 0xffffffffu, 4, 0, 0);
  assert_int_equal(wl_const_requests(&r), 1);
  req(&r, 0xffffffffu, 4, 0, 4);
  assert_int_equal(wl_const_requests(&r), 32);
  req(&r, 0x0000000fu, 4, 0, 4);
  assert_int_equal(wl_const_requests(&r), 4);
  req(&r, 0, 4, 0, 4);
  assert_int_equal(wl_const_requests(&r), 0);
  assert_true(wl_const_cycles(1, 0) > WL_CONST_BASE_CYCLES);
}

/* The constant counters of a launch: a broadcast load per warp. */
static void test_constant_counters(void **state) {
  fixture *f = *state;
  wl_launch_cfg c;
  int32_t out[64];
  int i;
  device(f, "sm_90");
  f->k->buf[0] = alloc(f, WL_SPACE_GLOBAL, sizeof out, "out");
  f->k->buf[1] = alloc(f, WL_SPACE_CONSTANT, 16, "k");
  i = 5;
  assert_int_equal(wl_device_write(f->d, f->k->buf[1], 0, &i, 4), 0);
  launch_cfg(&c, f->k, k_mixed, 1, 64, 1);
  c.static_shared = 256;
  launch_ok(f, &c);
  assert_int_equal(wl_device_read(f->d, f->k->buf[0], 0, out, sizeof out), 0);
  for (i = 0; i < 64; i++)
    assert_int_equal(out[i], 5 + 63 - i);
  /* 2 warps, each a broadcast: one request each */
  assert_int_equal(total(f->l, "idc__requests.sum"), 2);
  assert_int_equal(total(f->l, "idc__requests_lookup_hit.sum") +
                       total(f->l, "idc__requests_lookup_miss.sum"),
                   2);
  assert_int_equal(total(f->l, "l1tex__t_requests_pipe_lsu_mem_local.sum"), 2);
}

/* ---------------------------------------------------------------- */
/* Fault injection                                                   */

#include "faulty.h"

typedef struct outcome {
  int rc;
  const char *stage;
  char errmsg[512];
  int32_t out[64];
} outcome;

/* ctx, device, allocations, a launch of k_mixed over 2 blocks, a second
 * launch, the read back; frees everything. */
static void pipeline(const wl_config *cfg, kern *k, outcome *o) {
  wl_ctx *ctx = NULL;
  wl_device *d = NULL;
  wl_launch *l = NULL;
  wl_device_cfg dc;
  wl_launch_cfg c;
  int32_t five = 5;
  memset(o, 0, sizeof *o);
  o->stage = "wl_ctx_new";
  o->rc = wl_ctx_new(cfg, &ctx);
  if (o->rc != 0) {
    assert_null(ctx);
    return;
  }
  o->stage = "wl_device_new";
  assert_int_equal(wl_device_preset(ctx, "toy", &dc), 0);
  o->rc = wl_device_new(ctx, &dc, &d);
  if (o->rc != 0)
    assert_null(d);
  if (o->rc == 0) {
    o->stage = "wl_device_alloc";
    o->rc =
        wl_device_alloc(d, WL_SPACE_GLOBAL, sizeof o->out, "out", &k->buf[0]);
  }
  if (o->rc == 0)
    o->rc = wl_device_alloc(d, WL_SPACE_CONSTANT, 16, "k", &k->buf[1]);
  if (o->rc == 0)
    o->rc = wl_device_write(d, k->buf[1], 0, &five, 4);
  if (o->rc == 0) {
    o->stage = "wl_launch_run";
    launch_cfg(&c, k, k_mixed, 2, 32, 11);
    c.static_shared = 128;
    o->rc = wl_launch_run(d, &c, &l);
    if (o->rc != 0 && l != NULL)
      snprintf(o->errmsg, sizeof o->errmsg, "%s", wl_launch_errmsg(l));
    wl_launch_free(l);
    l = NULL;
  }
  if (o->rc == 0) {
    o->stage = "wl_launch_run (second)";
    launch_cfg(&c, k, k_mixed, 2, 32, 12);
    c.static_shared = 128;
    c.profile = WL_PROFILE_H100;
    o->rc = wl_launch_run(d, &c, NULL);
  }
  if (o->rc == 0) {
    o->stage = "wl_device_read";
    o->rc = wl_device_read(d, k->buf[0], 0, o->out, sizeof o->out);
  }
  if (o->rc != 0 && o->errmsg[0] == '\0')
    snprintf(o->errmsg, sizeof o->errmsg, "%s", wl_ctx_errmsg(ctx));
  if (o->rc == 0)
    o->stage = NULL;
  wl_device_free(d);
  wl_ctx_free(ctx);
}

static void test_fault_launch(void **state) {
  fixture *f = *state;
  outcome ref, o;
  faulty fa;
  wl_config cfg;
  long n, total_calls;
  int i;
  pipeline(NULL, f->k, &ref);
  if (ref.rc != 0)
    fail_msg("reference run: %s: %s", ref.stage, ref.errmsg);
  for (i = 0; i < 64; i++)
    assert_int_equal(ref.out[i], 5 + 31 - i % 32);
  cfg.alloc = faulty_alloc;
  cfg.alloc_ud = &fa;
  memset(&fa, 0, sizeof fa);
  pipeline(&cfg, f->k, &o);
  assert_int_equal(o.rc, 0);
  assert_int_equal(fa.live, 0);
  assert_int_equal(fa.blocks, 0);
  assert_false(fa.bad);
  total_calls = fa.calls;
  assert_true(total_calls > 10);
  for (n = 1;; n++) {
    memset(&fa, 0, sizeof fa);
    fa.fail_at = n;
    pipeline(&cfg, f->k, &o);
    if (fa.live != 0 || fa.blocks != 0)
      fail_msg("allocation %ld failed in %s: %ld bytes in %ld blocks leak", n,
               o.stage ? o.stage : "(none)", fa.live, fa.blocks);
    if (fa.bad)
      fail_msg("allocation %ld: a block was freed with the wrong size", n);
    if (!fa.failed) {
      assert_int_equal(o.rc, 0);
      assert_int_equal(n, total_calls + 1);
      assert_memory_equal(o.out, ref.out, sizeof o.out);
      break;
    }
    if (o.rc == 0)
      fail_msg("allocation %ld failed but every call succeeded", n);
    if (o.rc != WL_ENOMEM)
      fail_msg("allocation %ld: %s returned %s (%s), not WL_ENOMEM", n, o.stage,
               wl_err_name(o.rc), o.errmsg);
    if (strcmp(o.stage, "wl_ctx_new") != 0 &&
        strstr(o.errmsg, "out of memory") == NULL)
      fail_msg("allocation %ld: %s failed with message '%s'", n, o.stage,
               o.errmsg);
  }
}

int main(void) {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
  const struct CMUnitTest tests[] = {
      T(test_presets),
      T(test_preset_unknown),
      T(test_device_new_rejects),
      T(test_alloc_spaces),
      T(test_alloc_constant_limit),
      T(test_alloc_global_limit),
      T(test_host_copies),
      T(test_release),
      T(test_occupancy_toy),
      T(test_occupancy_regs),
      T(test_occupancy_no_fit),
      T(test_launch_vadd),
      T(test_shared_stride2),
      T(test_warp_words),
      T(test_barrier),
      T(test_barrier_divergence),
      T(test_launch_nesting),
      T(test_runtime_errors),
      T(test_kernel_fail_and_stop),
      T(test_determinism),
      T(test_mp_weak),
      T(test_mixed_widths),
      T(test_cost_functions),
      T(test_constant_counters),
      T(test_fault_launch),
  };
#undef T
  return cmocka_run_group_tests(tests, NULL, NULL);
}
