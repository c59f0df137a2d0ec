/* thread.h -- the interface of callback threads (wl_thread_fn).
 *
 * A callback thread reports its events through the public wl_tb_* calls
 * (engine/program/thread.c).  Every engine that runs callback threads --
 * the explorer's trace generator (model/explore.c), the simulator's
 * thread driver (sim/sample.c), the sequentially consistent interpreter
 * (model/sc.c) -- implements the table of functions below and hands the
 * callback a wl_tb whose ops point at its table.  The engine's own state
 * sits around the wl_tb: it embeds the wl_tb in a struct of its own and
 * finds that struct again with WL__TB_OWNER (libuv's uv__work /
 * container_of).
 *
 * Invariant: the wl_tb_* wrappers validate every argument before they
 * call an op, so an op sees a non-NULL tb, a location of the test, a
 * semantics/scope pair that is well formed and allowed for the operation,
 * a known atomic operation, barrier kind and a count >= 0, and a
 * non-empty result name with a type of locations.  A bad argument is
 * reported through the engine's fail op with WL_EINVAL and the wrapper's
 * message, so each engine keeps its own rule for what a failure does to
 * the run.  The wrappers decide with the predicates below, and each op
 * asserts the same predicate (wl_assert: debug builds), so an engine
 * that reaches an op another way fails loudly there.
 */
#ifndef WL_THREAD_H
#define WL_THREAD_H

#include <stddef.h>
#include <stdint.h>

#include "../warplab.h"

typedef struct wl__tb_ops {
  /* *value gets the value the load returns (value may be NULL). */
  int (*load)(wl_tb *tb, int loc, int sem, int scope, int line, int64_t *value);
  int (*store)(wl_tb *tb, int loc, int64_t value, int sem, int scope, int line);
  /* optional (NULL: wl_tb_await loops on load) */
  int (*await)(wl_tb *tb, int loc, int sem, int scope, int cmp,
               int64_t operand, int line, int64_t *value);
  /* op is a WL_OP_*; *old gets the value read (old may be NULL). */
  int (*atomic)(wl_tb *tb, int loc, int op, int64_t a, int64_t b, int sem,
                int scope, int line, int64_t *old);
  int (*fence)(wl_tb *tb, int sem, int scope, int line);
  int (*barrier)(wl_tb *tb, int kind, int64_t id, int64_t count, int line);
  /* type: WL_TYPE_INT64 .. WL_TYPE_DOUBLE, value its carrier */
  int (*result)(wl_tb *tb, const char *name, int type, int64_t value);
  /* the thread's index in the test */
  int (*thread)(const wl_tb *tb);
  /* records msg as the failure of the run (the engine decides whether
   * it is sticky) and returns the code the caller should see */
  int (*fail)(wl_tb *tb, int err, const char *msg);
} wl__tb_ops;

/* The handle a callback thread reports through.  Engines embed it in
 * their own per-run state and set both fields. */
struct wl_tb {
  const wl__tb_ops *ops;
  const wl_litmus *t; /* the test: the wrappers check locations in it */
};

/* What the wrappers guarantee an op (thread.c): 1 when the arguments
 * are good, else 0. */
int wl__tb_load_ok(const wl_tb *tb, int loc, int sem, int scope);
int wl__tb_await_ok(const wl_tb *tb, int loc, int sem, int scope, int cmp);
int wl__tb_store_ok(const wl_tb *tb, int loc, int sem, int scope);
int wl__tb_atomic_ok(const wl_tb *tb, int loc, int op, int sem, int scope);
int wl__tb_fence_ok(const wl_tb *tb, int sem, int scope);
int wl__tb_barrier_ok(const wl_tb *tb, int kind, int64_t count);
int wl__tb_result_ok(const wl_tb *tb, const char *name, int type);

/* The struct of type T whose member M is the wl_tb tb (and its const
 * twin, for the thread op). */
#define WL__TB_OWNER(tb, T, M) ((T *)(void *)((char *)(tb)-offsetof(T, M)))
#define WL__TB_OWNER_C(tb, T, M)                                               \
  ((const T *)(const void *)((const char *)(tb)-offsetof(T, M)))

#endif
