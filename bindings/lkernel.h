/* lkernel.h -- what the files of the simulated device's Lua side share
 * (not installed).  lwarplab.h has what lwarpvec.c shares with them too
 * (wll_darray, wll_krun, wll_kstate).  The files, one concept each:
 *
 *   lkernel.c   the module part: the kstate, the gate of the device API,
 *               raising kernel errors, the device object (wl.device)
 *   lktype.c    element types and their values (carriers, bytes)
 *   lkarray.c   device arrays (warplab.DeviceArray): element accesses
 *               from kernels and from the host, views
 *   lkapi.c     the device API inside kernels: c:method(...)
 *   lkrun.c     running a launch: thread coroutines, the probe, time
 *               limits, the engine's callbacks (run_warp, block_done)
 *   lklaunch.c  dev:launch and dev:occupancy: options, parameters and
 *               the launch's result (counters, report, findings)
 *   lkrlog.c    deferred loads: the event log of a lane or a warp, and
 *               running a replay of it with a load's new value
 *   lkreplay.c  a lane's events (per-thread kernels): logged, replayed
 *   lwreplay.c  the same for the warps of warp-vector kernels
 *   lkwatch.c   the time bound's watch: a timer that stops Lua code
 *               making no device call, without a count hook
 *   lkruns.c    dev:runs: a kernel run many times across cores, packed
 *               into each pool worker's own lua_State
 *
 * Warp-vector kernels: lwarpvec.c (w:method(...), warp-wide accesses)
 * computes with lane vectors (lwlanes.c, lwlanes.h). */
#ifndef LKERNEL_H
#define LKERNEL_H

#include "lwarplab.h"

#define WLL_KDEV "warplab.SimDevice"
#define WLL_DARRAY "warplab.DeviceArray"
#define WLL_KSTATE "warplab.KernelState"
#define WLL_LAUNCH "warplab.Launch"

typedef struct kdev {
  wl_ctx *ctx;
  wl_device *d;
  int cache_pref; /* cudaDeviceSetCacheConfig: launches without a cache
                   * preference of their own or their kernel's use it */
} kdev;

typedef wll_darray darray;
typedef wll_krun krun;
typedef wll_kstate kstate;
typedef wll_pcline pcline;

/* The kstate: upvalue 1 of every device function. */
static inline kstate *KS(lua_State *L) {
  return lua_touserdata(L, lua_upvalueindex(1));
}

/* Short names of the element type tables (lktype.c). */
#define type_words wll_type_words
#define type_sizes wll_type_sizes
#define type_base wll_type_base
#define NSCALAR WLL_NSCALAR

/* registry slots of a launch, on the launching stack:
 *   FN: the kernel function, ARGS: table of arguments, THREADS: block ->
 *   table of coroutines (index t+1) and pending yield counts ("n"..t) */
typedef struct lctx {
  krun r;
  int fn, args, threads, cmeta, dims; /* stack indices */
  int ks;                             /* the kstate: upvalue 1 */
} lctx;

/* the default of launch option max_seconds: a few seconds of work in a
 * release build; a sanitizer build runs the same work about ten times
 * slower, so its default is ten times longer (and valgrind's, under
 * WARPLAB_MEMCHECK, lklaunch.c, thirty) */
#if defined(__SANITIZE_ADDRESS__) || defined(WL_ASSERTS)
#define WLL_MAX_SECONDS 100.0
#else
#define WLL_MAX_SECONDS 10.0
#endif

/* lkernel.c */
/* The registry key of the kstate (for the count hook). */
extern WLL_HIDDEN const char wll_kstate_key;
/* Fails the running lane with a message at the current line. */
WLL_HIDDEN int wll_lane_fail(lua_State *L, krun *r, const char *fmt, ...);
/* The device at arg (raises when closed). */
WLL_HIDDEN kdev *wll_checkkdev(lua_State *L, int arg);

/* lktype.c */
/* The number of components of each element type (2 or 4 for vectors). */
extern WLL_HIDDEN const int wll_type_ncomp[];
/* The element type at arg (a word of wll_type_words; aliases mapped). */
WLL_HIDDEN int wll_checktype(lua_State *L, int arg);
/* The Lua value at arg as the bytes of scalar type (raises if it does
 * not fit), and back. */
WLL_HIDDEN void wll_tobytes(lua_State *L, int type, int arg, void *out);
WLL_HIDDEN void wll_pushbytes(lua_State *L, int type, const void *p);
/* The Lua value at arg as the engine's carrier of scalar type. */
WLL_HIDDEN int64_t wll_tocarrier(lua_State *L, int type, int arg);

/* lkarray.c */
/* Pushes a new device array (its metatable set, its user value empty). */
WLL_HIDDEN darray *wll_newarr(lua_State *L, kdev *dev, int id, int space,
                              int type, lua_Integer len, const char *name);
/* The byte offset of a[i] for the running lane, i at stack index arg
 * (a lane failure when it is no integer or out of bounds). */
WLL_HIDDEN uint64_t wll_elem_off(lua_State *L, krun *r, darray *a, int arg);
/* Fills acc's place (line, space, id, offset, width, type) and performs
 * it for the running lane (wl_kernel_access). */
WLL_HIDDEN int wll_do_access(lua_State *L, krun *r, darray *a, uint64_t off,
                             wl_access *acc, void *buf);
/* Ends a device call that made an access: raises on failure (rc < 0),
 * yields when the lane's slice is used up (rc == 1), else returns nres. */
WLL_HIDDEN int wll_finish(lua_State *L, krun *r, int rc, int nres);
/* c:load(a, i) and c:store(a, i, v) with the given semantics. */
WLL_HIDDEN int wll_load_with(lua_State *L, int sem, int scope, int cache);
WLL_HIDDEN int wll_store_with(lua_State *L, int sem, int scope, int cache,
                              int varg);
/* Writes the values of the table at idx into a from element first. */
WLL_HIDDEN void wll_write_values(lua_State *L, darray *a, int idx,
                                 lua_Integer first);
/* a:write(t [, first]) */
WLL_HIDDEN int wll_arr_write(lua_State *L);
/* Builds the metatable of device arrays; ks: the kstate's stack index. */
WLL_HIDDEN void wll_darray_open(lua_State *L, int ks);

/* lkapi.c: pushes the methods table of `c`, with the kstate at stack
 * index ks. */
WLL_HIDDEN void wll_push_c_methods(lua_State *L, int ks);

/* lkrun.c */
/* Option key of the table at idx as launch dimensions {x, y, z} or a
 * number (missing ones are 1). */
WLL_HIDDEN void wll_dim3(lua_State *L, int idx, const char *key, int out[3]);
/* Pushes the table {x = x, y = y, z = z}. */
WLL_HIDDEN void wll_push_dim(lua_State *L, int x, int y, int z);
/* Runs the probe of launch x (see lkrun.c). */
WLL_HIDDEN void wll_probe_run(lua_State *L, lctx *x, kstate *ks);
/* Seconds on the monotonic clock. */
WLL_HIDDEN double wll_now(void);
WLL_HIDDEN double wll_launch_max_seconds(lua_State *L, int idx);
/* Bounds the time of launch r in code that makes no device call: by the
 * watch (lkwatch.c), or where it cannot run by the count hook on L,
 * keeping the one it replaces; hook_off puts that one back. */
WLL_HIDDEN void wll_hook_on(lua_State *L, kstate *ks, krun *r);
WLL_HIDDEN void wll_hook_off(lua_State *L, kstate *ks);
/* lkrun.c: the count hook, which fails the running lane past the time
 * bound (or when SIGINT/SIGTERM came). */
WLL_HIDDEN void wll_count_hook(lua_State *L, lua_Debug *ar);
/* lkwatch.c: whether this thread can watch a launch (a timer of its own
 * whose signal it takes); start ticks while r runs (when r->watch) and
 * returns what stop needs to go back to. */
WLL_HIDDEN int wll_watch_usable(void);
WLL_HIDDEN void *wll_watch_start(krun *r);
WLL_HIDDEN void wll_watch_stop(krun *r, void *prev);
/* While a launch is watched, coroutine.create and coroutine.wrap make
 * their coroutines with the count hook set (on != 0), so that the time
 * bound reaches a coroutine the kernel makes itself; off puts the
 * library's functions back. */
WLL_HIDDEN void wll_watch_coroutines(lua_State *L, kstate *ks, int on);
/* The count of the count hook (VM instructions between its calls). */
#define WLL_HOOK_COUNT 100000
/* The engine's callbacks of a launch (wl_launch_cfg); ud is its lctx. */
WLL_HIDDEN int wll_run_warp(void *ud, wl_launch *l, int block, int warp);
WLL_HIDDEN void wll_block_done(void *ud, wl_launch *l, int block);

/* lkrun.c: pushes on L a new coroutine for thread t of block (vec 1:
 * for warp t, a warp-vector kernel), holding the kernel, its context
 * and the launch's arguments (*nargs of them to resume it with). */
WLL_HIDDEN lua_State *wll_lane_co(lua_State *L, lctx *x, int block, int t,
                                  int vec, int *nargs);

/* lkrlog.c (see the file's comment): the log of the running unit (a
 * lane, or in warp mode a warp) in its block's table */
struct wll_rlog {
  uint32_t n, cap; /* events logged, room */
  size_t esize;    /* bytes per event (lkreplay.c's or lwreplay.c's) */
  unsigned char *ev;
  wl_access wacc; /* a lane's store waiting for its deferred loads */
  uint8_t wbuf[16];
};
/* What every event holds of its call: the kind (WL_ACC_*, or
 * WLL_EV_FENCE), width, memory, semantics, scope, cache operator, atomic
 * operation, type and allocation; set by wll_ev_head_set (zeroed first,
 * so that two heads compare with memcmp). */
typedef struct wll_ev_head {
  int8_t kind, width, space, sem, scope, cache, op, type;
  int id;
} wll_ev_head;
#define WLL_EV_FENCE 3 /* after WL_ACC_* */
WLL_HIDDEN void wll_ev_head_set(wll_ev_head *h, const wl_access *a);
/* The running unit logs nothing more and defers no load from now on. */
WLL_HIDDEN void wll_rlog_stop(lua_State *L, krun *r);
/* The unit's next event of esize bytes, zeroed; NULL when it logs
 * nothing (or no more: its log would grow past the bound). */
WLL_HIDDEN void *wll_rlog_next(lua_State *L, krun *r, size_t esize);
/* Sets r's log state for unit `unit` of the block table at btab (L's
 * stack). */
WLL_HIDDEN void wll_rlog_lookup(lua_State *L, krun *r, int btab, int unit);
/* Fails the replay in progress (something the log cannot repeat). */
WLL_HIDDEN int wll_replay_fail(lua_State *L, krun *r);
/* Whether the replay has made every logged event (it stops here). */
WLL_HIDDEN int wll_replay_reached(krun *r);
/* Runs a replay of the running unit (p: its load's event k, lane and new
 * value v set): 1 when it made every logged event and stopped at its
 * next device call, its coroutine left on L's stack for
 * wll_rlog_take_place; 0 when dropped. */
WLL_HIDDEN int wll_rlog_replay(lua_State *L, krun *r, wll_replay *p);
/* The replay's coroutine takes the unit's place in its block's table;
 * L (the unit's coroutine) yields for good. */
WLL_HIDDEN int wll_rlog_take_place(lua_State *L, krun *r);

/* lkreplay.c (see the file's comment) */
/* Logs a performed access (data: its bytes) or fence of the lane. */
WLL_HIDDEN void wll_log_access(lua_State *L, krun *r, const wl_access *a,
                               const void *data);
WLL_HIDDEN void wll_log_fence(lua_State *L, krun *r, int sem, int scope);
/* Replay mode (r->rp): the access or fence must be the next logged
 * event; a load's result goes to data.  Fails the replay (a yield that
 * is never resumed) otherwise. */
WLL_HIDDEN int wll_replay_access(lua_State *L, krun *r, const wl_access *a,
                                 void *data);
WLL_HIDDEN int wll_replay_fence(lua_State *L, krun *r, int sem, int scope);
/* A store of the lane waits for its deferred loads (WL_KERNEL_WAIT):
 * keeps it in the lane's log and yields with continuation k, which
 * takes it back with wll_waited_store. */
WLL_HIDDEN int wll_wait_store(lua_State *L, krun *r, const wl_access *a,
                              const void *data, lua_KFunction k);
WLL_HIDDEN void wll_waited_store(krun *r, wl_access *a, void *data);
/* Replays the running lane after WL_KERNEL_REPLAY: 0 when the load keeps
 * its first value (make the call again); else the lane yields for good. */
WLL_HIDDEN int wll_replay_run(lua_State *L, krun *r);

/* lkpack.c (see the file's comment) */
/* Packs the values at L's stack indices idx[0..n-1] (positive), paths[k]
 * naming each in errors ("kernel"), then the script's globals that can
 * cross; pushes the box that owns the bytes (freed with it) and sets
 * *bytes, *len to them.  Raises on a value that cannot cross. */
WLL_HIDDEN void wll_kpack(lua_State *L, const int *idx,
                          const char *const *paths, int n,
                          const char **bytes, size_t *len);
/* Pushes onto W the n values of a pack, then a table of the globals it
 * holds; raises (W) on damaged bytes.  Each call makes fresh copies. */
WLL_HIDDEN void wll_kunpack(lua_State *W, const char *bytes, size_t len,
                            int n);

/* lkworker.c: a pool worker's state for kernels.  wll_worker_build (a
 * lua_CFunction, run protected on the new state) opens the libraries
 * and the module and keeps the globals as the state's base;
 * wll_worker_reset puts the globals back to the base (names it did not
 * have go, its values come back); wll_worker_globals sets the globals
 * of the table at idx (a pack's, wll_kunpack). */
WLL_HIDDEN int wll_worker_build(lua_State *W);
WLL_HIDDEN void wll_worker_reset(lua_State *W);
WLL_HIDDEN void wll_worker_globals(lua_State *W, int idx);

/* lklaunch.c */
/* The words of the cache preferences (WL_CACHE_PREFER_* order). */
extern WLL_HIDDEN const char *const wll_pref_words[];
/* dev:_launch(k, cfg, args...), dev:occupancy{...} */
WLL_HIDDEN int wll_kd_launch(lua_State *L);
WLL_HIDDEN int wll_kd_occupancy(lua_State *L);
/* __gc of a launch's box (a wl_launch *) */
WLL_HIDDEN int wll_launch_gc(lua_State *L);
/* Pushes the report of finished launch l (lua_pcall's status; on error
 * its message): its counters, sites and steps, and with check the
 * checkers' findings (r: the shared arrays' names; src: the kernel's
 * file).  l is only read. */
WLL_HIDDEN int wll_launch_report(lua_State *L, const wl_launch *l,
                                 const krun *r, const char *src, int check,
                                 const wl_device_cfg *dc);

/* lksplit.c: dev:launch{jobs=}: the launch's blocks in parts, run across
 * `jobs` cores, each on its own copy of the device (engine/sim/split.c
 * says what joins them).  L's stack: 1 the device, 2 the kernel, 3 the
 * options, then the arguments; cfg the launch's options as parsed.
 * Returns 1 with the joined report pushed; 0 when the parts communicated
 * (nothing pushed; *parts and why say how many there were and where they
 * met): the caller runs the launch whole.  Raises a part's failure (the
 * first in part order: *as_is set, it names its own place) and errors
 * of the arguments. */
WLL_HIDDEN int wll_launch_split(lua_State *L, kdev *d,
                                const wl_launch_cfg *cfg, int jobs,
                                int *parts, char *why, size_t whylen,
                                int *as_is);
/* Pushes a report's `split` table: {parts =, joined = (why == NULL), why
 * =}. */
WLL_HIDDEN void wll_push_split(lua_State *L, int parts, const char *why);

#endif
