/* thread.c -- the public wl_tb_* calls of callback threads: each checks
 * its arguments (the boundary of the API: a callback is user code) and
 * hands the call to the engine that runs the callback, through the ops
 * table of its wl_tb (thread.h).  No engine is named here. */
#include <stdarg.h>
#include <stdio.h>

#include "ir.h"

/* A bad argument: the engine's fail op records it (WL_EINVAL). */
static int bad(wl_tb *tb, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static int bad(wl_tb *tb, const char *fmt, ...) {
  char msg[160];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return tb->ops->fail(tb, WL_EINVAL, msg);
}

/* What every memory access shares: a location of the test and a
 * semantics/scope pair (.weak has no scope, anything else needs one). */
static int loc_ok(const wl_tb *tb, int loc) {
  return loc >= 0 && loc < tb->t->nlocs;
}

static int sem_scope_ok(int sem, int scope) {
  return sem >= WL_SEM_WEAK && sem <= WL_SEM_SC && scope >= WL_SCOPE_NONE &&
         scope <= WL_SCOPE_SYS && (sem == WL_SEM_WEAK) == (scope == 0);
}

static int load_sem(int sem) {
  return sem == WL_SEM_WEAK || sem == WL_SEM_RELAXED || sem == WL_SEM_ACQUIRE;
}

static int check_access(wl_tb *tb, int loc, int sem, int scope) {
  if (!loc_ok(tb, loc))
    return bad(tb, "no location %d", loc);
  if (!sem_scope_ok(sem, scope))
    return bad(tb,
               "bad semantics/scope (%d, %d): .weak has no scope, every "
               "other semantics needs one",
               sem, scope);
  return 0;
}

int wl__tb_load_ok(const wl_tb *tb, int loc, int sem, int scope) {
  return tb != NULL && loc_ok(tb, loc) && sem_scope_ok(sem, scope) &&
         load_sem(sem);
}

int wl__tb_await_ok(const wl_tb *tb, int loc, int sem, int scope, int cmp) {
  return wl__tb_load_ok(tb, loc, sem, scope) && cmp >= WL_CMP_EQ &&
         cmp <= WL_CMP_GE;
}

int wl__tb_store_ok(const wl_tb *tb, int loc, int sem, int scope) {
  return tb != NULL && loc_ok(tb, loc) && sem_scope_ok(sem, scope) &&
         (sem == WL_SEM_WEAK || sem == WL_SEM_RELAXED || sem == WL_SEM_RELEASE);
}

int wl__tb_atomic_ok(const wl_tb *tb, int loc, int op, int sem, int scope) {
  return tb != NULL && loc_ok(tb, loc) && sem_scope_ok(sem, scope) &&
         op >= WL_OP_ADD && op <= WL_OP_CAS && sem != WL_SEM_WEAK &&
         sem != WL_SEM_SC;
}

int wl__tb_fence_ok(const wl_tb *tb, int sem, int scope) {
  return tb != NULL && (sem == WL_SEM_SC || sem == WL_SEM_ACQ_REL) &&
         scope >= WL_SCOPE_CTA && scope <= WL_SCOPE_SYS;
}

int wl__tb_barrier_ok(const wl_tb *tb, int kind, int64_t count) {
  return tb != NULL && (kind == WL_BAR_SYNC || kind == WL_BAR_ARRIVE) &&
         count >= 0;
}

int wl__tb_result_ok(const wl_tb *tb, const char *name, int type) {
  return tb != NULL && name != NULL && *name != '\0' && type >= WL_TYPE_INT64 &&
         type <= WL_TYPE_DOUBLE;
}

int wl_tb_load(wl_tb *tb, int loc, int sem, int scope, int line,
               int64_t *value) {
  int r;
  if (tb == NULL)
    return WL_EINVAL;
  if ((r = check_access(tb, loc, sem, scope)) != 0)
    return r;
  if (!load_sem(sem))
    return bad(tb, "a load is weak, relaxed or acquire");
  return tb->ops->load(tb, loc, sem, scope, line, value);
}

int wl_tb_await(wl_tb *tb, int loc, int sem, int scope, int cmp,
                int64_t operand, int line, int64_t *value) {
  int r;
  int64_t v;
  if (tb == NULL)
    return WL_EINVAL;
  if ((r = check_access(tb, loc, sem, scope)) != 0)
    return r;
  if (!load_sem(sem))
    return bad(tb, "an await loads: weak, relaxed or acquire");
  if (!wl__tb_await_ok(tb, loc, sem, scope, cmp))
    return bad(tb, "bad comparison %d", cmp);
  if (tb->ops->await != NULL)
    return tb->ops->await(tb, loc, sem, scope, cmp, operand, line, value);
  /* the plain loop; the engine's load bounds it */
  do {
    if ((r = tb->ops->load(tb, loc, sem, scope, line, &v)) != 0)
      return r;
  } while (!wl__cond_holds(cmp, v, operand));
  if (value != NULL)
    *value = v;
  return 0;
}

int wl_tb_store(wl_tb *tb, int loc, int64_t value, int sem, int scope,
                int line) {
  int r;
  if (tb == NULL)
    return WL_EINVAL;
  if ((r = check_access(tb, loc, sem, scope)) != 0)
    return r;
  if (!wl__tb_store_ok(tb, loc, sem, scope))
    return bad(tb, "a store is weak, relaxed or release");
  return tb->ops->store(tb, loc, value, sem, scope, line);
}

int wl_tb_atomic(wl_tb *tb, int loc, int op, int64_t a, int64_t b, int sem,
                 int scope, int line, int64_t *old) {
  int r;
  if (tb == NULL)
    return WL_EINVAL;
  if ((r = check_access(tb, loc, sem, scope)) != 0)
    return r;
  if (!wl__tb_atomic_ok(tb, loc, op, sem, scope))
    return bad(tb, "an atomic is relaxed, acquire, release or acq_rel "
                   "with a scope, and a known operation");
  return tb->ops->atomic(tb, loc, op, a, b, sem, scope, line, old);
}

int wl_tb_fence(wl_tb *tb, int sem, int scope, int line) {
  if (tb == NULL)
    return WL_EINVAL;
  if (!wl__tb_fence_ok(tb, sem, scope))
    return bad(tb, "a fence is sc or acq_rel, with scope cta, gpu or sys");
  return tb->ops->fence(tb, sem, scope, line);
}

int wl_tb_barrier(wl_tb *tb, int kind, int64_t id, int64_t count, int line) {
  if (tb == NULL)
    return WL_EINVAL;
  if (!wl__tb_barrier_ok(tb, kind, count))
    return bad(tb, "bad barrier: the kind is WL_BAR_SYNC or WL_BAR_ARRIVE "
                   "and the thread count is 0 (the CTA) or more");
  return tb->ops->barrier(tb, kind, id, count, line);
}

int wl_tb_result(wl_tb *tb, const char *name, int64_t value) {
  return wl_tb_result_typed(tb, name, WL_TYPE_INT64, value);
}

int wl_tb_result_typed(wl_tb *tb, const char *name, int type, int64_t value) {
  if (tb == NULL)
    return WL_EINVAL;
  if (name == NULL || *name == '\0')
    return bad(tb, "a result needs a name");
  if (!wl__tb_result_ok(tb, name, type))
    return bad(tb, "a result's type is int64, int32, uint32, float or "
                   "double");
  return tb->ops->result(tb, name, type, value);
}

int wl_tb_thread(const wl_tb *tb) {
  return tb == NULL ? -1 : tb->ops->thread(tb);
}

int wl_tb_fail(wl_tb *tb, int err, const char *msg) {
  if (tb == NULL)
    return err;
  return tb->ops->fail(tb, err, msg);
}
