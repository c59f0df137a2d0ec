/* lwarplab.h -- what the files of the Lua binding share.  Not installed;
 * the one exported symbol of the module is luaopen_warplab. */
#ifndef LWARPLAB_H
#define LWARPLAB_H

#include <stddef.h>

#include <lauxlib.h>
#include <lua.h>

#include "../engine/warplab.h"

#if defined(__GNUC__)
#define WLL_HIDDEN __attribute__((visibility("hidden")))
#else
#define WLL_HIDDEN
#endif

#define WLL_TEST "warplab.Test"
#define WLL_RESULT "warplab.Result"
#define WLL_DEVICE "warplab.Device"
#define WLL_ARRAY "warplab.Array"
#define WLL_STATES "warplab.States"
#define WLL_MAX_THREADS 16

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
/* Pushes the Test's table of Lua-side parts (its user value). */
WLL_HIDDEN void wll_testtable(lua_State *L, int arg);
WLL_HIDDEN void wll_test_unref(wll_test *t);
/* Checks that arg is one of the words in lst (NULL-terminated), or absent
 * (then def, when def is not NULL); on failure names every valid word. */
WLL_HIDDEN int wll_checkword(lua_State *L, int arg, const char *def,
                             const char *const lst[], const char *what);
/* The current line of the innermost Lua function (0 if none). */
WLL_HIDDEN int wll_curline(lua_State *L);
/* Pushes the text an engine writer produces (herd, JSON, histogram): a
 * pass to size it, then a pass into a userdata, so that nothing allocated
 * outside Lua leaks if pushing raises.  Raises "what: message". */
typedef int (*wll_writer)(const void *obj, int flag, double secs,
                          wl_write_fn write, void *ud);
WLL_HIDDEN void wll_push_written(lua_State *L, const char *what, wll_writer w,
                                 const void *obj, int flag, double secs);
WLL_HIDDEN int wll_msghandler(lua_State *L);
extern WLL_HIDDEN const char *const wll_sem_words[];
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

/* lsample.c */
WLL_HIDDEN void wll_sample_open(lua_State *L);
/* test:sample{...} */
WLL_HIDDEN int wll_test_sample(lua_State *L);

/* lkernel.c: wl.device and kernels; adds its functions to the module
 * table at the top of the stack */
WLL_HIDDEN void wll_kernel_open(lua_State *L);

/* lperf.c: wl.bank_access, wl.global_access, wl.constant_access (the cost
 * models without a kernel); adds them to the module table at the top of
 * the stack */
WLL_HIDDEN void wll_perf_open(lua_State *L);

/* The pure-Lua part (scripts/warplab/ *.lua), embedded at build time. */
typedef struct wll_chunk {
  const char *name;
  const unsigned char *src;
  size_t len;
} wll_chunk;
extern WLL_HIDDEN const wll_chunk wll_chunks[];
extern WLL_HIDDEN const size_t wll_nchunks;

#endif
