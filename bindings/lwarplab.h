/* lwarplab.h -- what the files of the Lua binding share.  Not installed;
 * the one exported symbol of the module is luaopen_warplab. */
#ifndef LWARPLAB_H
#define LWARPLAB_H

#include <stddef.h>
#include <stdint.h>

#include <lauxlib.h>
#include <lua.h>

#include "../engine/warplab.h"

#if defined(__GNUC__)
#define WLL_HIDDEN __attribute__((visibility("hidden")))
/* a static function of a hot path always inlined into its callers (gcc
 * keeps large ones out of line, a call and its register saves per
 * operation), as the engine's WL_HOT */
#define WLL_HOT inline __attribute__((always_inline))
#else
#define WLL_HIDDEN
#define WLL_HOT inline
#endif

#define WLL_TEST "warplab.Test"
#define WLL_RESULT "warplab.Result"
#define WLL_DEVICE "warplab.Device"
#define WLL_ARRAY "warplab.Array"
#define WLL_STATES "warplab.States"
/* the metatable of a state and a sampled outcome: the JSON's names
 * condition (= sat), executions (= count) and values (the variables by
 * name) without being keys of the table (lresult.c) */
#define WLL_STATE "warplab.State"
#define WLL_MODEL "warplab.Model"
#define WLL_MAX_THREADS 64

typedef struct wll_test wll_test;
typedef struct wll_device wll_device;

/* One thread of a test built in Lua: its placement, and for a thread
 * written as a Lua function, the device object passed to it. */
typedef struct wll_thread {
  wll_test *test;
  int index;          /* P<index> */
  int cta, gpu, warp; /* placement */
  int tid;            /* threadIdx.x: warp * 32 + rank in its warp */
  wll_device *dev;    /* NULL for a thread of instructions */
} wll_thread;

/* The box of a warplab.Test.  Its user value is a table holding the
 * thread functions (fns), their devices (devices), the arrays of the
 * initial memory (arrays: name -> length), the shared locations and the
 * Lua predicate of the condition (pred). */
struct wll_test {
  wl_ctx *ctx;
  wl_litmus *lt;
  int closed;    /* :close() or __gc ran */
  int nresults;  /* live warplab.Result objects that refer to lt */
  int exploring; /* inside test:explore */
  lua_State *L;  /* while exploring: the state that called explore */
  int selfslot;  /* while exploring: stack index of the Test */
  int errslot;   /* while exploring: where a thread's error is kept */
  int pred;      /* -1, or the wl_cond_kind of the Lua predicate */
  int nthreads;
  wll_thread th[WLL_MAX_THREADS];
  int blockdim, griddim;
};

/* A device: the object a thread function receives. */
struct wll_device {
  wll_thread *th;
  wl_tb *tb; /* set only while the function runs */
  int cut;   /* the loop bound cut this trace */
};

/* lwarplab.c */
WLL_HIDDEN wll_test *wll_checktest(lua_State *L, int arg);
/* Creates an empty Test box (pushed); the engine objects come after the
 * box so that a failure leaks nothing. */
WLL_HIDDEN wll_test *wll_test_box(lua_State *L);
/* Where the innermost Lua function is: its chunk name and line. */
WLL_HIDDEN void wll_where(lua_State *L, char *src, size_t n, int *line);
/* llitmus.c: wl.litmus{...} */
WLL_HIDDEN int wll_litmus(lua_State *L);
/* Pushes the Test's table of Lua-side parts (its user value). */
WLL_HIDDEN void wll_testtable(lua_State *L, int arg);
WLL_HIDDEN void wll_test_unref(wll_test *t);
/* Checks that arg is one of the words in lst (NULL-terminated), or absent
 * (then def, when def is not NULL); on failure names every valid word. */
WLL_HIDDEN int wll_checkword(lua_State *L, int arg, const char *def,
                             const char *const lst[], const char *what);
/* The value of option key of the table at idx, checked like
 * wll_checkword (def when absent); a bad value raises "fname: option
 * 'key': invalid key 'x' (expected ...)". */
WLL_HIDDEN int wll_optword(lua_State *L, int idx, const char *fname,
                           const char *key, const char *def,
                           const char *const lst[]);
/* The profiles' names (wl_profile_name), NULL-terminated, for
 * wll_optword: the option profile= of sample and launch. */
WLL_HIDDEN const char *const *wll_profile_words(void);
/* Checks every key of the options table at idx (if it is a table)
 * against keys (NULL-terminated): a key not among them raises "fname:
 * unknown option 'grd' (did you mean 'grid'?)", naming the nearest valid
 * key.  With WLL_OPTS_ARRAY, integer keys (an array part) pass too.  One
 * checker for every options table of the module, in C and in Lua
 * (wl._checkopts). */
#define WLL_OPTS_ARRAY 1
WLL_HIDDEN void wll_checkopts(lua_State *L, int idx, const char *fname,
                              const char *const keys[], int flags);
/* The key of keys nearest to key (edit distance; a prefix counts as
 * near), or NULL when keys is empty. */
WLL_HIDDEN const char *wll_nearest(const char *key, const char *const keys[]);
/* Checked sizes from the user (wl_size_mul): n elements of esize bytes,
 * or raises "fname: N elements of M bytes: too large" (n < 0 too). */
WLL_HIDDEN uint64_t wll_bytes(lua_State *L, lua_Integer n, int esize,
                              const char *fname);
/* Option key of the table at idx as an integer in [lo, hi] (def when
 * absent); raises "fname: option 'key' must be an integer from lo to
 * hi" otherwise, so that no option is silently truncated to a C type. */
WLL_HIDDEN lua_Integer wll_optint(lua_State *L, int idx, const char *fname,
                                  const char *key, lua_Integer def,
                                  lua_Integer lo, lua_Integer hi);
/* The memory limit of an exploration when none is given (warplab
 * litmus, test:explore): three quarters of the machine's memory, so that
 * a search too large for it stops with a partial result rather than
 * meeting the out-of-memory killer; 0 when the size is unknown. */
WLL_HIDDEN size_t wll_default_max_memory(void);
/* The current line of the innermost Lua function (0 if none). */
WLL_HIDDEN int wll_curline(lua_State *L);
/* Pushes "file:line: " of the user's code that made the current call:
 * the innermost Lua function, from level 1 up, that is not warplab's own
 * Lua (the chunks "@scripts/warplab/..."); "" when there is none.  Errors
 * of a user's mistake name that place, not a line of kernel.lua. */
WLL_HIDDEN void wll_user_where(lua_State *L);
/* Pushes the text an engine writer produces (herd, JSON, histogram): a
 * pass to size it, then a pass into a userdata, so that nothing allocated
 * outside Lua leaks if pushing raises.  Raises "what: message". */
typedef int (*wll_writer)(const void *obj, int flag, double secs,
                          wl_write_fn write, void *ud);
WLL_HIDDEN void wll_push_written(lua_State *L, const char *what, wll_writer w,
                                 const void *obj, int flag, double secs);
WLL_HIDDEN int wll_msghandler(lua_State *L);
extern WLL_HIDDEN const char *const wll_sem_words[];
/* The device API's names, shared by litmus threads (ldevice.c), kernels
 * (lkapi.c) and warp-vector kernels (lwarpvec.c): CUDA's atomics (each
 * also with the suffixes "_block" and "_system"), cuda::atomic's
 * read-modify-writes, and the three threadfences; NULL-terminated.
 * wll_suffix_scope[i] is the scope of suffix i and of fence i. */
typedef struct wll_named_op {
  const char *name;
  int op;
} wll_named_op;
extern WLL_HIDDEN const wll_named_op wll_cuda_atomics[];
extern WLL_HIDDEN const wll_named_op wll_atomic_rmws[];
extern WLL_HIDDEN const char *const wll_scope_suffixes[];
extern WLL_HIDDEN const char *const wll_fence_names[];
extern WLL_HIDDEN const int wll_suffix_scope[];
extern WLL_HIDDEN const char *const wll_scope_words[];

/* ldevice.c */
WLL_HIDDEN void wll_device_open(lua_State *L);
/* Creates the device of thread th (pushes it). */
WLL_HIDDEN wll_device *wll_device_new(lua_State *L, wll_thread *th,
                                      int testarg);
/* The wl_thread_fn of every Lua thread function; ud is a wll_thread. */
WLL_HIDDEN int wll_thread_cb(void *ud, wl_tb *tb);

/* lresult.c */
WLL_HIDDEN void wll_result_open(lua_State *L);
/* test:explore(opts) */
WLL_HIDDEN int wll_test_explore(lua_State *L);

/* The result at arg and its test (raises when closed). */
WLL_HIDDEN const wl_result *wll_checkresult(lua_State *L, int arg,
                                            wll_test **t);
/* lfindings.c: r.race and r.hang (a table, false, or nil) */
WLL_HIDDEN void wll_push_race(lua_State *L, const wl_result *r,
                              const wl_litmus *t);
WLL_HIDDEN void wll_push_hang(lua_State *L, const wl_result *r,
                              const wl_litmus *t);
/* lgraph.c: r:graph(i), r:whynot([model]) */
WLL_HIDDEN int wll_result_graph(lua_State *L);
WLL_HIDDEN int wll_result_whynot(lua_State *L);

/* lmodel.c: wl.model; adds it to the module table at the top of the
 * stack */
WLL_HIDDEN void wll_model_open(lua_State *L);
/* The model at arg: a warplab.Model, or a .cat file name (loaded; the
 * new Model replaces the name on the stack, so it lives as long as that
 * slot).  Raises with the file:line:col of a bad model. */
WLL_HIDDEN const wl_model *wll_tomodel(lua_State *L, int arg);
/* Where the model named name is: name itself if it has a folder or is
 * a file here, else the shipped model of that name, ".cat" optional
 * (wll_find_shipped, into buf), else name. */
WLL_HIDDEN const char *wll_find_model(const char *name, char *buf, size_t n);
/* The shipped model name (a bare name, ".cat" optional) from the folders
 * found from the program, never the current directory: $WARPLAB_MODELS,
 * BIN/../share/warplab/models, BUILD/../../models (the repository's
 * models/), WL_MODELDIR.  Into buf; NULL when there is none. */
WLL_HIDDEN const char *wll_find_shipped(const char *name, char *buf,
                                        size_t n);
/* Loads the model name names (wll_find_model).  0, or the error code
 * with the message in err: the reader's (file:line:col), or for a bare
 * name found nowhere, where the shipped models were looked for. */
WLL_HIDDEN int wll_model_load(wl_ctx *ctx, const char *name, wl_model **out,
                              char *err, size_t n);

/* lcuda.c: test:cuda{...} */
WLL_HIDDEN int wll_test_cuda(lua_State *L);

/* lsample.c */
WLL_HIDDEN void wll_sample_open(lua_State *L);
/* test:sample{...} */
WLL_HIDDEN int wll_test_sample(lua_State *L);

/* The warp operations' method names, in WL_WARP_* order. */
extern WLL_HIDDEN const char *const wll_warp_ops[];
/* A vote's predicate at idx: false, nil and the number 0 are false. */
WLL_HIDDEN int wll_predicate(lua_State *L, int idx);
/* The launch option check = true | false | "races,uninit,spin" | "all" |
 * {races = true, ...} at idx, as WL_CHECK_* bits. */
WLL_HIDDEN int wll_check_flags(lua_State *L, int idx);

/* lkernel.c and the lk*.c files beside it (lkernel.h): wl.device and
 * kernels; adds its functions to the module table at the top of the
 * stack */
/* The engine's carrier (WL_TYPE_* int64 convention) of the integer
 * bytes b of type, for atomics' operands. */
WLL_HIDDEN int64_t wll_int_carrier(int type, const uint8_t *b);
/* Of a scalar WL_TYPE_* (an element type's wll_type_base): whether it is
 * a floating-point type, its size in bytes, a carrier to the value's
 * bytes and back, and a carrier pushed as a Lua number or integer. */
WLL_HIDDEN int wll_type_isfloat(int base);
WLL_HIDDEN int wll_base_size(int base);
WLL_HIDDEN void wll_carrier_bytes(int base, int64_t c, uint8_t *out);
WLL_HIDDEN int64_t wll_bytes_carrier(int base, const uint8_t *p);
WLL_HIDDEN void wll_push_carrier(lua_State *L, int base, int64_t c);
/* The compute capability (x10) of a device preset name "sm_NN", 0 for
 * other names. */
WLL_HIDDEN int wll_device_sm(const char *name);
/* NULL when atomic op (WL_OP_*) is allowed on an array of scalar type
 * base; for 16-bit types, the reason it is not, written to msg (the
 * array's name in it).  ptx: made through c:atom (PTX's b16 cas). sm:
 * the device's compute capability x10 (0: unknown, not checked). */
WLL_HIDDEN const char *wll_atomic16_refusal(int base, int op, int ptx, int sm,
                                            const char *name, char *msg,
                                            size_t n);
WLL_HIDDEN void wll_kernel_open(lua_State *L);
/* lkruns.c: wl._kernel_runs (dev:runs' C half) on the module table at
 * the top. */
WLL_HIDDEN void wll_kruns_open(lua_State *L);

/* Kernels on the simulated device: what lkernel.c and its siblings
 * (lkarray.c: device memory, lkapi.c: the per-thread API, lkrun.c and
 * lklaunch.c: the launch driver; lkernel.h) and lwarpvec.c (warp-vector
 * kernels: lane vectors and the per-warp API) share. */

/* A typed view of device memory (userdata "warplab.DeviceArray"). */
typedef struct wll_darray {
  struct kdev *dev; /* NULL for shared/local arrays (launch-bound) */
  struct wll_kstate *ks; /* its Lua state's (a[i] finds the run here) */
  int id;           /* allocation, shared declaration or local array */
  int space;        /* WL_SPACE_* */
  int type;         /* index in wll_type_words */
  int esize;        /* bytes per element */
  uint64_t base;    /* byte offset of element 0 in its memory (views) */
  lua_Integer len;  /* #a: what read, write and a fill cover */
  /* the indices that lie inside the underlying memory: lo <= i < hi.
   * An array has lo = 0, hi = len; a view of A from element f has lo =
   * -f, so that V[-1] (the stencil's `in + RADIUS` idiom) is A[f - 1],
   * as pointer arithmetic in CUDA allows. */
  lua_Integer lo, hi;
  unsigned gen;     /* shared/local: the launch that made it */
  char name[40];
} wll_darray;

/* A __shared__ declaration the probe saw (see probe_run in lkrun.c):
 * declared in the engine when the launch starts. */
#define WLL_PROBE_DECLS 64
typedef struct wll_pdecl {
  struct wll_darray *a; /* the array the kernel holds (anchored) */
  int type, ext, line, nset;
  lua_Integer n, off; /* extern: n only when nset */
  uint32_t lanes;     /* warp mode: the lanes declaring it */
} wll_pdecl;

enum { WLL_PROBE_NONE, WLL_PROBE_YIELDED, WLL_PROBE_DONE, WLL_PROBE_FAILED };

/* The launch in progress in this Lua state (one at a time). */
typedef struct wll_krun {
  lua_State *L;
  wl_launch *l;
  int block, thread; /* the lane running now (warp mode: its first lane) */
  int nargs;
  int probe;             /* the probe run that sizes static shared memory */
  uint64_t probe_shared; /* bytes the probe saw declared */
  uint64_t probe_dynamic; /* the launch's extern __shared__ bytes */
  int probe_state;       /* WLL_PROBE_*: what the probe block's first
                          * thread (or warp) still owes the launch */
  int probe_block;       /* the block the probe runs: 0, or a split
                          * launch's part's first (lksplit.c) */
  int probe_ref;         /* registry: the probe's arrays, anchored */
  int probe_thread;      /* the lane a failure in the probe names */
  int npdecl;
  wll_pdecl pdecl[WLL_PROBE_DECLS];
  double deadline;       /* max_seconds: the monotonic time it ends */
  int watch;             /* bounded by the watch (lkwatch.c), not by a
                          * count hook on the launching state */
  double max_seconds;
  /* past the deadline, the count hook's view (lkrun.c): the launch's
   * steps when it last looked, and the VM instructions run since they
   * last changed */
  uint64_t hook_steps;
  long hook_instrs;
  unsigned gen;
  int gdim[3], bdim[3];
  int sm; /* the device's compute capability x10, 0 when not an sm_NN */
  struct wll_kstate *ks;
  /* the coroutine of the thread (or warp) running now: a device call made
   * from any other coroutine (one the kernel created) is refused, since
   * its accesses and barriers could not be scheduled as the thread's.
   * cofail: set once that happened (the launch fails even when the
   * kernel catches the error); in the probe, cofail_msg holds the
   * message, placed. */
  lua_State *co;
  int cofail;
  char cofail_msg[400];
  /* warp-vector kernels (wl.warp_kernel): one coroutine per warp */
  int warp_mode;
  int plain;       /* launch option _plain: no shortcuts (the property
                    * tests compare both paths) */
  int warp;        /* the warp running now */
  uint32_t exist;  /* its lanes that exist (a last, partial warp) */
  uint32_t active; /* its active lanes (narrowed by w:where) */
  /* the names of the block's __shared__ declarations, by id, for the
   * checkers' findings */
  char shname[WLL_PROBE_DECLS][40];
  /* deferred loads (lkreplay.c): the launch defers them; the running
   * lane's event log (NULL: none yet, or none any more: lane_log); its
   * block's table on L's stack; a replay in progress */
  int defer;
  int lane_log; /* WLL_LOG_*: the running lane's log state */
  struct wll_rlog *log; /* the running lane's, or warp's (lkrlog.c) */
  int btab;
  struct wll_replay *rp;
} wll_krun;

enum { WLL_LOG_FRESH, WLL_LOG_ON, WLL_LOG_DEAD };
typedef struct wll_rlog wll_rlog;

/* A replay in progress (krun.rp): a lane's (lkreplay.c) or a warp's
 * (lwreplay.c).  It stops at the gate of its first device call after
 * the n logged events (wll_replay_reached). */
typedef struct wll_replay {
  wll_rlog *log;   /* the lane's or the warp's log */
  uint32_t n;      /* the events logged */
  uint32_t pos, k; /* the next logged event; the load with the new value */
  int lane;        /* a warp's: the lane of that load */
  int width, state;
  uint8_t v[16];
} wll_replay;
enum { WLL_RP_RUN, WLL_RP_REACHED, WLL_RP_FAILED };

/* The source line of every access names its site.  lua_getinfo per
 * access was a third of a kernel's time, so lines are cached by the
 * calling instruction: Lua 5.4 keeps the saved pc of a Lua function at
 * the start of its CallInfo's union, after four pointers (lstate.h,
 * 5.4.0 to 5.4.6).  The pc is only a cache key (never dereferenced), and
 * at startup a probe checks that distinct call sites give distinct keys
 * and the same site the same key; otherwise every access asks
 * lua_getinfo. */
#define WLL_PCLINES 4096
typedef struct wll_pcline {
  const void *pc;
  int line;
} wll_pcline;

/* Per Lua state: the run, shared by every kernel function through
 * upvalue 1 (and reachable from the count hook through the registry).  User values: 1 the methods of a thread's `c`, 2 the
 * methods of a warp's `w`, 3 the metatable of lane vectors. */
typedef struct wll_kstate {
  wll_krun *run;
  unsigned gen;
  const void *arr_mt;   /* the metatable of device arrays */
  int fast_lines;     /* the pc cache is usable */
  /* the hook that was set before a launch set its count hook */
  lua_Hook old_hook;
  int old_mask, old_count;
  int co_wrapped; /* coroutine.create/wrap give their coroutines the
                   * count hook (lkwatch.c wll_watch_coroutines) */
  wll_pcline lines[WLL_PCLINES];
  /* a part of a split launch (lksplit.c): its launch, kept for the join
   * rather than freed, and the names of its shared arrays */
  struct wl_launch *kept;
  char kept_shname[WLL_PROBE_DECLS][40];
  /* polled while a part runs (self: its launch): non-zero stops it */
  int (*part_stop)(void *ud, const struct wl_launch *self);
  void *part_stop_ud;
} wll_kstate;

/* Element types: the engine's scalar types, then CUDA's vector types;
 * wll_type_base gives a type's WL_TYPE_* (of its components). */
#define WLL_NSCALAR 8
/* the types (scalars and vectors); wll_type_words goes on with other
 * names of some of them (short, ushort) */
#define WLL_NTYPES 13
extern WLL_HIDDEN const char *const wll_type_words[];
extern WLL_HIDDEN const int wll_type_sizes[];
extern WLL_HIDDEN const int wll_type_base[];

/* The source line of the Lua code that made the current call (cached). */
WLL_HIDDEN int wll_site_line(lua_State *L, wll_kstate *ks);
/* The device array at arg (a type error otherwise); upvalue 1 of the
 * calling C function must be the kstate. */
WLL_HIDDEN wll_darray *wll_kernel_checkarr(lua_State *L, int arg);
/* The byte offset of element i of a, checked for thread (raises a
 * failure naming it). */
WLL_HIDDEN uint64_t wll_kernel_offset(lua_State *L, wll_krun *r,
                                      wll_darray *a, lua_Integer i,
                                      int thread);
/* Stops the launch with a message for thread at the current line, and
 * raises it (never returns). */
WLL_HIDDEN int wll_kernel_fail(lua_State *L, wll_krun *r, int thread,
                               const char *fmt, ...);
/* Raises the launch's message (after an engine failure). */
WLL_HIDDEN int wll_kernel_raise(lua_State *L, wll_krun *r);
/* The run, inside a kernel (raises outside one; stops the probe). */
WLL_HIDDEN wll_krun *wll_kernel_running(lua_State *L);
/* Declares a __shared__ array of type for the threads of `lanes` of the
 * running warp (warp mode) or for the running thread (lanes 0), as
 * c:shared does, and pushes it. */
WLL_HIDDEN void wll_kernel_shared(lua_State *L, wll_krun *r, int type,
                                  lua_Integer n, const char *name,
                                  uint32_t lanes);

/* The device API's gate: pushes a C closure of f with the nup values on
 * the top of the stack as its upvalues (the kstate first).  Inside the
 * probe it yields before f runs, with a continuation that runs f on the
 * same frame when the launch resumes the thread: so a kernel's code
 * before its first device call runs once, not twice. *f must be static. */
WLL_HIDDEN void wll_push_gated(lua_State *L, const lua_CFunction *f, int nup);
/* The gate's slow path for a function that checks it itself (the
 * arrays' a[i], the commonest device call): r is running and either
 * in the probe or called from a coroutine other than the thread's.
 * Yields with continuation k in the probe (k reruns the function),
 * else raises the foreign-coroutine failure. */
WLL_HIDDEN int wll_gate_closed(lua_State *L, wll_krun *r, lua_KFunction k);
/* luaL_setfuncs through the gate, except the functions named in keep
 * (NULL-terminated: those the probe runs, like c:shared). */
WLL_HIDDEN void wll_setfuncs_gated(lua_State *L, const luaL_Reg *l, int nup,
                                   const char *const keep[]);

/* lwarpvec.c: warp-vector kernels.  Builds the lane-vector metatable and
 * the methods of `w` into the kstate at stack index ks. */
WLL_HIDDEN void wll_warpvec_open(lua_State *L, int ks);
/* Pushes a new lane vector; ks: the kstate's stack index. */
typedef struct wll_lanes wll_lanes;
WLL_HIDDEN wll_lanes *wll_lanes_new(lua_State *L, int ks);
/* Sets lane k of v to the integer i (v's lanes start without values). */
WLL_HIDDEN void wll_lanes_seti(wll_lanes *v, int k, lua_Integer i);
/* Warp-wide accesses for A[v] and A[v] = x in a warp-vector kernel (arg
 * 1: the array, 2: the index, 3: the value). */
WLL_HIDDEN int wll_warp_index(lua_State *L, wll_krun *r, wll_darray *a);
WLL_HIDDEN int wll_warp_newindex(lua_State *L, wll_krun *r, wll_darray *a);

/* lwreplay.c: deferred loads in warp-vector kernels, by replaying the
 * warp (see the file's comment).  Logging a performed warp-wide access
 * (data: 32 values of a->width bytes, by lane; ops: an atomic's
 * operands or NULL) or fence of the lanes of mask; in replay mode
 * (r->rp) the same call must be the next logged event (the loads'
 * results go to data), else the replay fails (never returns). */
WLL_HIDDEN void wll_wlog_access(lua_State *L, wll_krun *r,
                                const wl_access *a, uint32_t mask,
                                const uint64_t off[32], const int64_t *ops,
                                const void *data);
WLL_HIDDEN void wll_wlog_fence(lua_State *L, wll_krun *r, uint32_t mask,
                               int sem, int scope);
WLL_HIDDEN int wll_wreplay_access(lua_State *L, wll_krun *r,
                                  const wl_access *a, uint32_t mask,
                                  const uint64_t off[32], const int64_t *ops,
                                  void *data);
WLL_HIDDEN int wll_wreplay_fence(lua_State *L, wll_krun *r, uint32_t mask,
                                 int sem, int scope);
/* The running warp does what its log cannot repeat (a barrier, a warp
 * operation, a __shared__ declaration): a replay fails here (never
 * returns); else the warp logs nothing more and its lanes defer no load
 * from now on. */
WLL_HIDDEN void wll_wlog_unloggable(lua_State *L, wll_krun *r);
/* A warp-wide store waits for its lanes' deferred loads
 * (WL_KERNEL_WAIT): keeps it beside the warp's log and yields with
 * continuation k, which takes it back with wll_wwaited_store. */
WLL_HIDDEN int wll_wwait_store(lua_State *L, wll_krun *r,
                               const wl_access *a, uint32_t mask,
                               const uint64_t off[32], const void *data,
                               lua_KFunction k);
WLL_HIDDEN void wll_wwaited_store(lua_State *L, wll_krun *r, wl_access *a,
                                  uint32_t *mask, uint64_t off[32],
                                  void *data);
/* Replays the running warp after WL_KERNEL_REPLAY: 0 when the load
 * keeps its first value (make the call again); else the warp yields for
 * good. */
WLL_HIDDEN int wll_wreplay_run(lua_State *L, wll_krun *r);

/* lperf.c: wl.bank_access, wl.global_access, wl.constant_access (the cost
 * models without a kernel); adds them to the module table at the top of
 * the stack */
WLL_HIDDEN void wll_perf_open(lua_State *L);

/* lgen.c: wl.gen{...} and wl.gen_families(); adds them to the module
 * table at the top of the stack */
WLL_HIDDEN void wll_gen_open(lua_State *L);

/* lfile.c: output files, written whole or not at all (a temporary
 * renamed over a regular file, links kept; standard output, a device or
 * a pipe written as it is; every write and close checked).  0, or -1 with "writing PATH: why" in
 * err.  wll_file_open sets wl._write_file in the table on top. */
WLL_HIDDEN int wll_save_file(const char *path, const char *data, size_t n,
                             char *err, size_t errlen);
WLL_HIDDEN void wll_file_open(lua_State *L);

/* lsignal.c: the signal policy.  SIGINT and SIGTERM end long work: the
 * handler (installed between wll_sig_enter and the matching
 * wll_sig_leave, which nest) records the signal; work polls
 * wll_sig_pending (wll_sig_stop is the same as a should_stop hook) and,
 * stopping for it, takes it (wll_sig_take: the number, then 0) to report
 * a partial result, or raises with wll_sig_error.  With wll_sig_lua(L),
 * a signal also interrupts the Lua running on L (lua.c's way: a hook
 * raising "interrupted by SIGINT"); wll_sig_lua(NULL) ends that. */
WLL_HIDDEN void wll_sig_enter(void);
WLL_HIDDEN void wll_sig_leave(void);
WLL_HIDDEN int wll_sig_pending(void);
WLL_HIDDEN int wll_sig_take(void);
/* Makes sig pending again when none is (a pool thread whose Lua took
 * it with wll_sig_error gives it back, so that the whole run stops). */
WLL_HIDDEN void wll_sig_put_back(int sig);
WLL_HIDDEN int wll_sig_stop(void *ud);
WLL_HIDDEN const char *wll_sig_name(int sig); /* "SIGINT", "SIGTERM" */
WLL_HIDDEN void wll_sig_lua(lua_State *L);
/* Takes the signal and raises "WHAT: interrupted by SIGINT". */
WLL_HIDDEN int wll_sig_error(lua_State *L, const char *what);
/* The signal an error message says interrupted it (SIGINT, SIGTERM), or
 * 0: a pcall that caught such an error must not take it for another
 * failure (the signal was taken to raise it). */
WLL_HIDDEN int wll_sig_in(const char *msg);

/* The pure-Lua part (scripts/warplab/ *.lua), embedded at build time. */
typedef struct wll_chunk {
  const char *name;
  const unsigned char *src;
  size_t len;
} wll_chunk;
extern WLL_HIDDEN const wll_chunk wll_chunks[];
extern WLL_HIDDEN const size_t wll_nchunks;

#endif
