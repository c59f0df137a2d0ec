/*
 * warplab.h -- the C API of the warplab engine.
 *
 * This header is the manual of the engine.  The engine is C11 and libc
 * only: it has no clock, no threads and no global state.  Everything hangs
 * off a context (wl_ctx) that the caller creates; two contexts may be used
 * from two threads at once, one context from one thread at a time.
 *
 * Errors: functions that can fail return 0 or a negative WL_E* code.  The
 * human-readable detail of the last failure (with file:line:column where a
 * source text is involved) is owned by the context and stays valid until
 * the next call on that context: wl_ctx_errmsg().
 *
 * Ownership: every wl_*_new/parse/explore that hands out an object has a
 * matching *_free; passing NULL to a *_free is a no-op.  The engine copies
 * every string and buffer it keeps; the caller's buffers may be released
 * as soon as a call returns.
 */
#ifndef WARPLAB_H
#define WARPLAB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WL_VERSION "0.1.0"

/* The error table: code, name, message (libuv's UV_ERRNO_MAP). */
#define WL_ERRNO_MAP(X)                                                        \
  X(ENOMEM, -1, "out of memory")                                               \
  X(EINVAL, -2, "invalid argument")                                            \
  X(ESYNTAX, -3, "syntax error")                                               \
  X(EUNSUPPORTED, -4, "not supported")                                         \
  X(ELIMIT, -5, "a size limit of the explorer was exceeded")                   \
  X(EIO, -6, "i/o error")                                                      \
  X(ESTOPPED, -7, "stopped by the caller")                                    \
  X(ERUNTIME, -8, "a kernel failed")

typedef enum {
#define WL_ERR_ENUM(name, code, msg) WL_##name = (code),
  WL_ERRNO_MAP(WL_ERR_ENUM)
#undef WL_ERR_ENUM
      WL_OK_ = 0
} wl_errno;

/* "WL_ESYNTAX" for WL_ESYNTAX; "unknown" for anything else. Static. */
const char *wl_err_name(int err);
/* "syntax error" for WL_ESYNTAX; static string. */
const char *wl_strerror(int err);

/*
 * Checked arithmetic for every size and index that comes from a caller
 * (an element count times an element size, an offset plus a length, a
 * view of an array): one set of helpers, so that no size wraps and no
 * index overflows on the way to a bounds check.
 */
/* *out = a * b; 0, or WL_ELIMIT (and *out untouched) when it does not
 * fit in 64 bits. */
int wl_size_mul(uint64_t a, uint64_t b, uint64_t *out);
/* *out = a + b; 0, or WL_ELIMIT (and *out untouched) on overflow. */
int wl_size_add(uint64_t a, uint64_t b, uint64_t *out);
/* 1 when the n elements from first on lie within [lo, hi) (first + n
 * computed without overflow; n >= 0 required), else 0. */
int wl_range_inside(int64_t first, int64_t n, int64_t lo, int64_t hi);

/* ------------------------------------------------------------------ */
/* Context                                                             */
/* ------------------------------------------------------------------ */

/*
 * The allocator hook has lua_Alloc's shape: with nsize == 0 it frees ptr
 * and returns NULL; otherwise it returns a block of nsize bytes holding
 * the first min(osize, nsize) bytes of ptr (ptr may be NULL), or NULL on
 * failure, in which case ptr is untouched.  NULL in wl_config means the
 * C library's realloc/free.
 */
typedef void *(*wl_alloc_fn)(void *ud, void *ptr, size_t osize, size_t nsize);

typedef struct wl_config {
  wl_alloc_fn alloc; /* NULL: realloc/free */
  void *alloc_ud;    /* passed to alloc */
} wl_config;

typedef struct wl_ctx wl_ctx;

/* Creates a context.  cfg may be NULL (defaults).  Returns 0 and sets
 * *out, or WL_ENOMEM (then *out is NULL). */
int wl_ctx_new(const wl_config *cfg, wl_ctx **out);
/* Frees the context.  Objects made from it must be freed first. */
void wl_ctx_free(wl_ctx *ctx);
/* The message of the last failure on ctx ("" if none).  Owned by ctx. */
const char *wl_ctx_errmsg(const wl_ctx *ctx);
/* Sets ctx's message (copied, cut to the message's size) to msg and
 * returns err: for a driver that reports, through the context it was
 * given, a failure that happened in another (a worker's). */
int wl_ctx_set_error(wl_ctx *ctx, int err, const char *msg);
/* Sets (NULL: removes) the stop hook of work on ctx that has no
 * should_stop of its own: reading a model (wl_model_load, _parse) and
 * explaining an outcome (wl_whynot_explain) poll it now and then, and a
 * non-zero return stops them with WL_ESTOPPED and a message.  It may be
 * called from any thread that uses ctx (one at a time, as ctx is). */
void wl_ctx_set_stop(wl_ctx *ctx, int (*should_stop)(void *ud), void *ud);

/* ------------------------------------------------------------------ */
/* Sharding: work split into units, results merged in unit order       */
/* ------------------------------------------------------------------ */

/*
 * One plan for splitting work across workers, whatever the workers are:
 * the warplab command's libuv pool (bindings/lpool.c) deals files to
 * its threads with it, and a driver over MPI ranks deals them the same
 * way.  A unit is a piece of work that runs alone: a .litmus file, a
 * batch of runs, a prefix of a search, a group of blocks.  Units are
 * numbered 0..n-1 in the order their results are merged (the files'
 * order on the command line), and each has a cost estimate on any
 * scale (a file's size in bytes, a batch's runs).
 *
 * Dealing: units go out largest first (cost decreasing, equal costs in
 * unit order: the longest-processing-time rule), either pulled one at a
 * time by whichever worker is free (wl_shard_take: a pool), or dealt
 * up front to k workers (wl_shard_deal: each unit in that order to the
 * worker with the least cost so far, ties to the lower worker: ranks
 * that cannot ask).  Merging: the driver records each unit's result as
 * it comes back (wl_shard_done, in any order) and takes them back in
 * unit order (wl_shard_next), each as soon as every unit before it is
 * back, so the merged output is the same for any number of workers and
 * any timing.  After a stop, the units that came back but were never
 * merged are found with wl_shard_is_done / wl_shard_result.
 *
 * Everything here is a function of the costs, k and the calls made,
 * never of time.  A plan is used by one thread at a time (the
 * driver's); results are opaque pointers the plan stores, never frees
 * and never reads.  ctx allocates the plan and holds its errors.
 */
typedef struct wl_shard wl_shard;

/* A plan for n units (n may be 0), costs[i] unit i's estimate (copied).
 * Returns 0 and sets *out (free it with wl_shard_free, before ctx), or
 * WL_EINVAL (a NULL argument), WL_ELIMIT or WL_ENOMEM, *out NULL. */
int wl_shard_new(wl_ctx *ctx, size_t n, const uint64_t *costs,
                 wl_shard **out);
/* Frees the plan (not the results it holds); NULL: nothing. */
void wl_shard_free(wl_shard *s);
/* The number of units; unit's cost (0 out of range). */
size_t wl_shard_count(const wl_shard *s);
uint64_t wl_shard_cost(const wl_shard *s, size_t unit);
/* The unit dispatched k-th (0 <= k < n), largest first; (size_t)-1 out
 * of range. */
size_t wl_shard_order(const wl_shard *s, size_t k);
/* Pulling: 1 and the next unit in dispatch order in *unit, or 0 when
 * every unit was taken; wl_shard_taken says how many were. */
int wl_shard_take(wl_shard *s, size_t *unit);
size_t wl_shard_taken(const wl_shard *s);
/* Dealing up front to workers >= 1 workers; then wl_shard_owner(s, u)
 * is unit u's worker (0..workers-1), -1 before a deal or out of range.
 * A later deal replaces the earlier.  Returns 0, WL_EINVAL or
 * WL_ENOMEM. */
int wl_shard_deal(wl_shard *s, int workers);
int wl_shard_owner(const wl_shard *s, size_t unit);
/* Unit came back with result (may be NULL).  Returns 0, or WL_EINVAL
 * for a unit out of range or one already back. */
int wl_shard_done(wl_shard *s, size_t unit, void *result);
/* Merging in unit order: when the first unit not yet merged is back,
 * returns 1 with it and its result (the plan forgets the result),
 * else 0.  wl_shard_merged: the units merged so far (a prefix). */
int wl_shard_next(wl_shard *s, size_t *unit, void **result);
size_t wl_shard_merged(const wl_shard *s);
/* Whether unit came back; the result of a unit back and not merged
 * (NULL otherwise): what a driver frees after a stop. */
int wl_shard_is_done(const wl_shard *s, size_t unit);
void *wl_shard_result(const wl_shard *s, size_t unit);

/* ------------------------------------------------------------------ */
/* Litmus tests                                                        */
/* ------------------------------------------------------------------ */

typedef struct wl_litmus wl_litmus;

/*
 * Parses a litmus test in Dat3M's PTX dialect (see README.md, "The
 * .litmus dialect").  src need not be NUL-terminated; filename is used in
 * error messages only.  On success returns 0 and sets *out (free it with
 * wl_litmus_free).  On failure returns WL_ESYNTAX (malformed text),
 * WL_EUNSUPPORTED (a construct warplab recognises but cannot run, e.g.
 * registers holding addresses), WL_ELIMIT or WL_ENOMEM, with
 * "file:line:col: what was expected" in wl_ctx_errmsg().
 */
int wl_litmus_parse(wl_ctx *ctx, const char *filename, const char *src,
                    size_t len, wl_litmus **out);
void wl_litmus_free(wl_litmus *t);
/* The test's name (after "PTX" on the first line).  Owned by t. */
const char *wl_litmus_name(const wl_litmus *t);
/* Number of threads. */
int wl_litmus_nthreads(const wl_litmus *t);
/* A guess at what exploring t costs (wl_explore with this unroll
 * bound), from its program alone: larger for more reads, more writes
 * per location and spin loops (engine/model/cost.c says how).  Only
 * the order of two guesses means something: drivers that spread many
 * files over workers start the largest first.  0 for NULL. */
uint64_t wl_litmus_cost(const wl_litmus *t, int unroll);
/* Whether the text of a litmus test (len bytes, not NUL-terminated) may
 * have a loop, without parsing it: 1 when a label ("LC00:" alone in its
 * cell) has its name come again after it, else 0.  A test whose text
 * says 0 has no branch back (only forward branches, or no label), so a
 * driver may guess its cost by its size instead of parsing it for
 * wl_litmus_cost; 1 may be wrong (a name alike elsewhere), 0 never is. */
int wl_litmus_text_may_loop(const char *src, size_t len);
/* The file it was read from (wl_litmus_parse's filename, or
 * wl_litmus_set_source's), "" when none.  Owned by t. */
const char *wl_litmus_file(const wl_litmus *t);
/* The hash of the test's text herd7's Hash= line shows: the MD5 of the
 * text from the '{' that opens the initial state to the end, with
 * comments dropped and white space removed except one space between two
 * word characters (so layout and comments do not change it, and the name
 * line does not count), as 32 lowercase hex digits owned by t; NULL for
 * a test built with the functions below. */
const char *wl_litmus_hash(const wl_litmus *t);

/* ------------------------------------------------------------------ */
/* Building tests programmatically (the Lua bindings do)               */
/* ------------------------------------------------------------------ */

/* The spec's words, as numbers.  WL_SEM_WEAK has no scope. */
enum {
  WL_SEM_WEAK,
  WL_SEM_RELAXED,
  WL_SEM_ACQUIRE,
  WL_SEM_RELEASE,
  WL_SEM_ACQ_REL,
  WL_SEM_SC
};
enum { WL_SCOPE_NONE, WL_SCOPE_CTA, WL_SCOPE_GPU, WL_SCOPE_SYS };
/* Operations of wl_tb_atomic (PTX atom): old = [loc]; [loc] = f(old). */
enum {
  WL_OP_ADD,
  WL_OP_SUB,
  WL_OP_MUL,
  WL_OP_DIV,
  WL_OP_REM,
  WL_OP_AND,
  WL_OP_OR,
  WL_OP_XOR,
  WL_OP_MIN,
  WL_OP_MAX,
  WL_OP_INC,
  WL_OP_DEC,
  WL_OP_EXCH,
  WL_OP_CAS
};
enum { WL_BAR_SYNC, WL_BAR_ARRIVE };

/* An empty test named name (copied; NULL or "": "test"; a name with a
 * control character, a newline say, is WL_EINVAL: it starts lines of
 * every text output).  Add locations, threads,
 * instructions and a condition, then explore it. */
int wl_litmus_new(wl_ctx *ctx, const char *name, wl_litmus **out);
/* Declares a location with its initial value (or changes the initial
 * value of an existing one); its index goes to *index (may be NULL).
 * WL_EINVAL for a name that is not an identifier, WL_ELIMIT past 64. */
int wl_litmus_add_location(wl_litmus *t, const char *name, int64_t init,
                           int *index);
/* The index of a location, or -1.  An alias's name gives the location
 * it aliases. */
int wl_litmus_location(const wl_litmus *t, const char *name);
int wl_litmus_nlocations(const wl_litmus *t);
const char *wl_litmus_location_name(const wl_litmus *t, int index);
/* Names the file the test comes from (a script); error messages and
 * reports use it.  The parser sets it from its filename argument. */
int wl_litmus_set_source(wl_litmus *t, const char *file);
/* Value types of locations.  Every value is carried in an int64_t:
 * int32 sign-extended, uint32 zero-extended, float as its 32-bit IEEE
 * pattern (zero-extended), double as its 64-bit pattern.  Atomics on a
 * typed location compute in its type (int32/uint32 wrap; uint32 compares
 * unsigned; float/double add, sub, min and max in floating point; exch
 * and cas on the bits), and the herd/JSON writers print its values in
 * its type.  The default is int64. */
enum {
  WL_TYPE_INT64,
  WL_TYPE_INT32,
  WL_TYPE_UINT32,
  WL_TYPE_FLOAT,
  WL_TYPE_DOUBLE,
  /* 16-bit element types of device memory (kernels): int16 (short)
   * sign-extended, uint16 (unsigned short) zero-extended, half (IEEE
   * binary16, CUDA's __half) as its 16-bit pattern, converted from other
   * values rounding to nearest, ties to even.  Locations of litmus tests
   * do not take them (wl_litmus_set_type refuses them). */
  WL_TYPE_INT16,
  WL_TYPE_UINT16,
  WL_TYPE_HALF
};
/* WL_TYPE_INT64 .. WL_TYPE_DOUBLE; WL_EINVAL otherwise. */
int wl_litmus_set_type(wl_litmus *t, int loc, int type);
/* Marks a location as shared memory (__shared__): it exists once per
 * CTA, so threads of two different CTAs cannot both use it; exploring a
 * test where they do fails with WL_EINVAL naming both threads and lines.
 * (Unmarked locations are global memory.) */
int wl_litmus_set_shared(wl_litmus *t, int loc, int shared);
/* The GPU whose memory holds a location (the .litmus form: "x = 0 @
 * gpu 1" in the initial state), 0..7, or -1 for the default: the GPU of
 * thread P0.  The h100 profile's link model makes threads on other
 * GPUs reach it over the link (the explorer ignores it; `warplab cuda`
 * allocates it in that GPU's memory).  WL_EINVAL for a bad location or
 * GPU. */
int wl_litmus_set_home(wl_litmus *t, int loc, int gpu);
/* PTX 7.5 proxies: the path through which an access reaches memory
 * (generic, surface, texture, constant). */
enum { WL_PROXY_GEN, WL_PROXY_SUR, WL_PROXY_TEX, WL_PROXY_CON };
/* Declares name as an alias of target (a location, or an alias declared
 * before): another virtual address of the same physical location, as
 * the .litmus line "name @ <proxy> aliases target".  A generic alias
 * (WL_PROXY_GEN) has a virtual address of its own; a surface, texture
 * or constant alias shares target's virtual address (Dat3M's meaning).
 * Instructions may then name it; conditions and results read it as its
 * physical location.  Only an exploration with the PTX 7.5 model
 * (wl_explore_opts.model, ptx-v7.5.cat) can run a test with aliases.
 * *index (may be NULL) gets the alias's number (wl_litmus_alias).
 * WL_EINVAL: bad name, name already used, target not declared;
 * WL_ELIMIT past 64 aliases. */
int wl_litmus_add_alias(wl_litmus *t, const char *name, int proxy,
                        const char *target, int *index);
/* The number of an alias, or -1 (wl_litmus_location(t, name) gives its
 * physical location). */
int wl_litmus_alias(const wl_litmus *t, const char *name);
int wl_litmus_location_type(const wl_litmus *t, int loc);
/* Conversions between a value of a type and its int64_t carrier; the
 * carrier of a double d of type WL_TYPE_INT32 wraps like a C cast (NaN
 * gives 0, an integer type saturates a double past int64's range first);
 * a half rounds to nearest even (overflow gives infinity). */
int64_t wl_value_from_double(int type, double d);
int64_t wl_value_from_int(int type, int64_t i);
double wl_value_to_double(int type, int64_t carrier);
/* Adds thread P<n> placed in CTA cta of GPU gpu; *index gets n. */
int wl_litmus_add_thread(wl_litmus *t, int cta, int gpu, int *index);
/*
 * Appends one instruction (or a label "LC0:") to a thread, written as in
 * a .litmus cell ("ld.acquire.gpu r0, x").  file and line are where the
 * text comes from (error messages and witnesses name them).  Locations
 * are declared on first use (initial value 0).  Branch targets are
 * resolved when the test is explored: a missing label is reported then.
 * WL_ESYNTAX / WL_EUNSUPPORTED with "file:line:col: ..." on bad text.
 */
int wl_litmus_add_insn(wl_litmus *t, int thread, const char *text,
                       const char *file, int line);
/* Sets a register's initial value. */
int wl_litmus_set_reg(wl_litmus *t, int thread, const char *reg, int64_t value);
/* Sets the condition from herd-style text: "exists (1:r0 == 1 /\ x == 0)",
 * "~exists ...", "forall ...".  Errors name file:line:col. */
int wl_litmus_set_condition(wl_litmus *t, const char *text, const char *file,
                            int line);

/*
 * Threads as callbacks.  Instead of instructions, a thread may be a
 * function that the explorer runs many times: each run is one trace, and
 * every load it performs returns the value the explorer chooses (each
 * candidate value in turn), so the function may branch and loop on
 * loaded values.  The function must be deterministic given the values
 * its loads return.  It reports its memory operations through the wl_tb
 * calls below and returns 0, or an error code (then the exploration
 * fails with that code and the message the callback set with
 * wl_tb_fail).  When a wl_tb call returns WL_ELIMIT the trace has hit
 * the loop bound: the callback must stop (return WL_ELIMIT); the trace
 * is counted as cut, not as an error.
 *
 * Dependencies are found semantically: an event depends on an earlier
 * load when another value of that load (all else equal) changes whether
 * the event happens, its kind, location or written value.
 */
typedef struct wl_tb wl_tb;
typedef int (*wl_thread_fn)(void *ud, wl_tb *tb);
/* Says that the threads given the same non-zero code run one program
 * (a Lua function given to several threads, as a CUDA kernel's threads
 * all run the kernel): a barrier (bar.sync / __syncthreads()) phase that
 * such threads of one CTA complete at different source lines is barrier
 * divergence (CUDA: __syncthreads() in conditional code only when the
 * condition is the same across the block), and wl_explore fails with
 * WL_EINVAL naming the threads that arrived at each line.  0 (the
 * default) is a program of its own; threads written as instructions run
 * one program when their instructions are the same (their registers may
 * start differently).  WL_EINVAL for a bad thread or a negative code. */
int wl_litmus_set_thread_code(wl_litmus *t, int thread, int code);
int wl_litmus_set_thread_fn(wl_litmus *t, int thread, wl_thread_fn fn,
                            void *ud);
/* Load: *value gets the chosen value.  Each location may be read at most
 * unroll+1 times in one trace (the loop bound of callback threads). */
int wl_tb_load(wl_tb *tb, int loc, int sem, int scope, int line,
               int64_t *value);
int wl_tb_store(wl_tb *tb, int loc, int64_t value, int sem, int scope,
                int line);
/* A spin loop in one call: loads loc until its value v satisfies
 * "v <cmp> operand" (cmp a WL_CMP_*) and returns that value in *value.
 * The explorer chooses only values that satisfy the condition (the
 * failed iterations of a side-effect-free spin loop change no final
 * state), so waiting costs one event, not one per iteration and never
 * the loop bound; a thread that can never pass waits forever and has no
 * final state.  Engines without a native await run the loop of loads. */
enum { WL_CMP_EQ, WL_CMP_NE, WL_CMP_LT, WL_CMP_LE, WL_CMP_GT, WL_CMP_GE };
int wl_tb_await(wl_tb *tb, int loc, int sem, int scope, int cmp,
                int64_t operand, int line, int64_t *value);
/* RMW: *old gets the value read; cas writes b when old == a. */
int wl_tb_atomic(wl_tb *tb, int loc, int op, int64_t a, int64_t b, int sem,
                 int scope, int line, int64_t *old);
/* fence.sem.scope with sem WL_SEM_SC or WL_SEM_ACQ_REL. */
int wl_tb_fence(wl_tb *tb, int sem, int scope, int line);
/* Barrier id with count threads (0: every thread of the CTA). */
int wl_tb_barrier(wl_tb *tb, int kind, int64_t id, int64_t count, int line);
/* A named result of this trace, reported like a register ("1:A"). */
int wl_tb_result(wl_tb *tb, const char *name, int64_t value);
/* The same with a value type: value is the carrier of a value of type
 * (WL_TYPE_INT64 .. WL_TYPE_DOUBLE, the types of locations), and states
 * print and give the result in that type (wl_result_var_type,
 * wl_hist_var_type): the old value of a float atomicAdd is a float.
 * wl_tb_result is this with WL_TYPE_INT64.  A result's first report
 * fixes its type for the test; a report of the same name with another
 * type fails with WL_EINVAL ("result 'A' of P0 is a double in one trace
 * and an int64 in another"). */
int wl_tb_result_typed(wl_tb *tb, const char *name, int type, int64_t value);
/* The thread's index, placement, and the explorer's context. */
int wl_tb_thread(const wl_tb *tb);
/* Sets the message the exploration fails with; returns err. */
int wl_tb_fail(wl_tb *tb, int err, const char *msg);

/* ------------------------------------------------------------------ */
/* Exhaustive exploration (PTX 6.0 memory consistency model)           */
/* ------------------------------------------------------------------ */

/* ---------------- memory models as cat files ---------------- */

/*
 * A memory model written in herd's cat language (shared/spec/ptx-*.cat):
 * let / let rec bindings over the base sets and relations of a candidate
 * execution, and acyclic / irreflexive / empty checks (flag checks are
 * reported, not enforced).  The base names are listed in
 * engine/model/cat/cat.h and in the README.  Exploring with a model
 * (wl_explore_opts.model) evaluates it literally over every candidate
 * execution, enumerated plainly: slower than the built-in PTX 6.0
 * explorer, and the reference it is checked against.
 */
typedef struct wl_model wl_model;
/* Reads the model in the file at path; "include" is resolved beside it.
 * The file and each include must be a regular file (a directory, FIFO
 * or device is refused before it is read); the text parsed in all,
 * includes counted each time they are read, is at most 16 MiB, in at
 * most 1000 includes.  A let rec whose name appears under a complement
 * or on the right of a difference (not monotone: no least fixpoint) is
 * refused.  Fails with WL_EIO (unreadable: "cannot read 'path': is a
 * directory", ...), WL_ESYNTAX ("file:line:col: message", also for an
 * unknown name, a set used as a relation, an include over the budget),
 * WL_ELIMIT (text over 16 MiB), WL_ESTOPPED (wl_ctx_set_stop's hook)
 * or WL_ENOMEM. */
int wl_model_load(wl_ctx *ctx, const char *path, wl_model **out);
/* The same from text; name is the file name used in messages and for
 * resolving includes (NULL: "<model>", includes from the current
 * directory). */
int wl_model_parse(wl_ctx *ctx, const char *name, const char *text,
                   size_t len, wl_model **out);
void wl_model_free(wl_model *m);
/* The model's title (its first line); owned by m. */
const char *wl_model_name(const wl_model *m);

struct wl_explore_progress;
typedef struct wl_explore_opts {
  /* Each backward branch is taken at most `unroll` times in a trace;
   * 0 means the default (WL_DEFAULT_UNROLL).  Iterations that only
   * re-read values into the same registers (spin loops) are recognised
   * and cost nothing against the bound. */
  int unroll;
  /* Optional: called now and then; a non-zero return stops the
   * exploration with WL_ESTOPPED. */
  int (*should_stop)(void *ud);
  void *stop_ud;
  /* NULL: the built-in PTX 6.0 explorer (ptx-v6.0-isa.cat's axioms).
   * Otherwise the model is evaluated literally on every candidate
   * execution (wl_model_load); it must outlive the call. */
  const wl_model *model;
  /* 0 (the default): the question is the final states and the verdict;
   * the search keeps one witness per state and stops expanding a branch
   * whose final state is known, so each state's count is 1 and the
   * result's positive and negative counts are counts of states.
   * Non-zero: every consistent execution is found and counted, as herd
   * counts them (slower: their number grows much faster than the
   * number of states). */
  int count_executions;
  /* Bytes the exploration may hold (traces, states, witnesses, search
   * state); 0: no limit.  Past it the exploration stops with WL_ELIMIT
   * and a message naming the test and the limit, as should_stop stops
   * it with WL_ESTOPPED: never the system's out-of-memory killer. */
  size_t max_memory;
  /* Non-zero: a stop (should_stop or max_memory) returns 0 and the
   * states found so far, in a result marked partial (wl_result_partial
   * says why); zero: a stop is an error and there is no result. */
  int keep_partial;
  /* Optional: called now and then (about as often as should_stop) with
   * the exploration's progress; the host decides whether to draw it. */
  void (*progress)(void *ud, const struct wl_explore_progress *p);
  void *progress_ud;
  /* Non-zero: states are told apart only by the observed variables (the
   * condition's, and the test's "locations [...]"; every variable when
   * there are neither), as herd's States line shows them.  The search
   * then skips every execution whose observation is known, which is far
   * less work when most registers are not observed; each state's other
   * values are those of its witness, and the counts are per observation.
   * 0 (the default): every register and location tells states apart. */
  int observed_only;
  /* Non-zero: search every thread's traces, even where threads are
   * interchangeable (same instructions, a placement that swapping them
   * maps onto itself).  By default such threads are searched once and
   * each state found is recorded with its images under their
   * permutations (the same states, faster); the cat engine and
   * count_executions never use symmetry. */
  int no_symmetry;
  /* Non-zero: skip the data-race and liveness searches (see
   * wl_result_race, wl_result_hang), which run by default. */
  int no_checks;
  /* The search's other reductions, each of which keeps the exact final
   * states and verdict (tests/props.c checks every combination of them
   * against the plain search and the cat engine); non-zero turns one
   * off, for checking or for measuring what it saves:
   * no_prefix: search combinations, prefixes of combinations and co-last
   *   choices whose every reachable state is known already (by default
   *   they are skipped);
   * no_stutter: count spin-loop iterations that change nothing against
   *   the unroll bound like any other (by default they are stutters: the
   *   trace ends there and is not a final state, since dropping the
   *   iteration gives the same state);
   * no_thin_air_filter: search combinations whose reads only a cycle
   *   through their own values justifies (by default they are dropped
   *   before any search: No-Thin-Air rejects each of their executions). */
  int no_prefix, no_stutter, no_thin_air_filter;
  /* Non-zero: the reads-from search tries every order of inert RMWs
   * (below) on an RMW chain.  By default two adjacent RMWs of a counter
   * that are inert -- relaxed, the last event of a thread no symmetry
   * class holds, whose registers are not observed, whose value only
   * decides branches that test it against constants the same way in
   * both threads -- are searched in one order only: swapping them
   * changes neither consistency nor the observation (the blocks of a
   * last-block-done reduction that are not last). */
  int no_commute;
  /* Which search the built-in explorer runs (WL_SEARCH_*):
   * WL_SEARCH_AUTO (0, the default) the reads-from search where it
   * applies (instruction threads without backward branches), else the
   * value search; WL_SEARCH_VALUES the value search (each thread's
   * traces under guessed load values, then their combinations);
   * WL_SEARCH_RF the reads-from search, or WL_EUNSUPPORTED where it
   * does not apply. */
  int search;
} wl_explore_opts;

enum { WL_SEARCH_AUTO = 0, WL_SEARCH_VALUES = 1, WL_SEARCH_RF = 2 };

typedef struct wl_explore_progress {
  size_t states;         /* final states found so far */
  uint64_t combinations; /* combinations of traces searched */
  size_t memory;         /* bytes the exploration holds */
} wl_explore_progress;

#define WL_DEFAULT_UNROLL 4

typedef enum {
  WL_COND_EXISTS,    /* exists P: Ok when some final state satisfies P */
  WL_COND_NOTEXISTS, /* ~exists P: Ok when no final state satisfies P */
  WL_COND_FORALL     /* forall P: Ok when every final state satisfies P */
} wl_cond_kind;

typedef struct wl_result wl_result;

/*
 * Explores every consistent execution of t under the PTX 6.0 model
 * (Lustig et al., ASPLOS'19; shared/spec/ptx-v6.0.cat).  opts may be
 * NULL.  On success returns 0 and sets *out.  Fails with WL_ELIMIT when
 * an execution would exceed the explorer's limits (256 events, 64
 * threads, 32 fence.sc per execution, 1024 values per location; the cat
 * engine 64 events, 8 fence.sc), WL_ESTOPPED when
 * should_stop asked, or WL_ENOMEM; the message says which limit.
 * Without a model (opts->model NULL), a test with PTX 7.5 aliases or
 * proxy instructions fails with WL_EUNSUPPORTED ("file:line:col: proxy
 * instructions need the PTX 7.5 model ... use --model ptx-v7.5.cat");
 * wl_sample refuses it the same way.
 * The result refers to t: free the result before the test.
 */
int wl_explore(wl_ctx *ctx, const wl_litmus *t, const wl_explore_opts *opts,
               wl_result **out);
void wl_result_free(wl_result *r);

/*
 * One exploration split into units (Sharding, above): the units run
 * apart, in any order, on any workers, and merged in unit order they
 * give what wl_explore gives -- the same states in the same order, the
 * same witnesses, counts, verdict, bound flag, race and hang.
 *
 * A unit is a prefix of the search: the traces chosen for the first
 * threads (the same number of threads for every unit, chosen so that
 * there are about 256 units, at most 4096; one unit when nothing
 * splits).  Each worker (a pool thread, an MPI rank) makes its own
 * explorer with wl_explore_split from its own context: the preparation
 * (traces, value domains, symmetry) is deterministic, so every
 * explorer of (t, opts) numbers the units alike, and a unit is named by
 * its number alone.  Then:
 *
 *   wl_explore_split(ctx, t, opts, &e);      // per worker
 *   n = wl_explorer_units(e);
 *   wl_explore_unit(e, u, known, &part);     // any u, any order
 *   wl_explore_merge(mctx, &acc, part);      // in unit order 0..n-1
 *   wl_result_free(part);
 *
 * The merged result is made in mctx (the driver's context) and is
 * complete once every unit is merged; merging a unit's result into an
 * acc that came from another exploration is WL_EINVAL.  A unit's result
 * alone is a valid result of that part of the search (its verdict
 * covers that part only).
 *
 * wl_explore_split prepares e from ctx and opts (copied; its callbacks
 * and model must outlive e), failing as wl_explore fails before its
 * search (WL_EINVAL, WL_EUNSUPPORTED, WL_ELIMIT, WL_ESTOPPED,
 * WL_ENOMEM); e is used by one thread at a time and freed by
 * wl_explorer_free (NULL: nothing) before ctx and t.
 *
 * wl_explore_unit runs unit u (0 <= u < n, else WL_EINVAL) into a new
 * result from e's context.  known (may be NULL; read only, from any
 * context, not changed while the call runs) is what earlier units
 * found: the merge of some of the units before u (not after: WL_EINVAL
 * is not detected, the result would be wrong).  The search then skips
 * what those states make known, as the whole search does, so the unit
 * costs what it costs in wl_explore; its result lists only the states
 * it found itself (those known too may be missing from it, which the
 * merge does not need), and is merged as one without.  Counting
 * executions, known is not used.  It fails as wl_explore's search does
 * (one caveat: a limit -- WL_ELIMIT, an execution past 256 events, say
 * -- met in a combination that the whole search skips because its
 * states are known already fails the unit that meets it with less
 * knowledge, where wl_explore succeeds), and
 * with opts.keep_partial a stop gives a partial result instead (as
 * wl_explore).  opts.max_memory bounds each unit's search plus what e
 * holds, not the whole exploration.
 *
 * wl_explore_merge merges part (unchanged; it may come from any
 * context) into *acc, making *acc (in ctx) when it is NULL: the states
 * part found that no earlier unit found, in part's order, with part's
 * witnesses; with count_executions the counts of the states found
 * before are added to; the bound flag is or-ed; the race (hang) is the
 * first unit's that has one; a partial part makes *acc partial with
 * its reason, and nothing may be merged after it (WL_EINVAL).  The
 * verdict is recomputed after each merge.  Returns 0, WL_EINVAL or
 * WL_ENOMEM (then *acc is as before the call, but may hold some of
 * part's states: free it).
 */
typedef struct wl_explorer wl_explorer;
int wl_explore_split(wl_ctx *ctx, const wl_litmus *t,
                     const wl_explore_opts *opts, wl_explorer **out);
size_t wl_explorer_units(const wl_explorer *e);
int wl_explore_unit(wl_explorer *e, size_t unit, const wl_result *known,
                    wl_result **out);
void wl_explorer_free(wl_explorer *e);
int wl_explore_merge(wl_ctx *ctx, wl_result **acc, const wl_result *part);
/* The should_stop the explorer's units poll from now on (replacing the
 * one in the options it was made with): a driver that hands a prepared
 * explorer to another worker. */
void wl_explorer_set_stop(wl_explorer *e, int (*should_stop)(void *ud),
                          void *ud);
/* Marks a result partial (a driver that stopped between units: the units
 * merged so far), with code (WL_ESTOPPED) and why (copied) as
 * wl_result_partial gives them.  WL_EINVAL (NULL, code 0), WL_ENOMEM. */
int wl_result_mark_partial(wl_result *r, int code, const char *why);
/*
 * A unit's result as bytes, for a driver whose units run in other
 * processes (the ranks of an MPI job: bindings/lexplore.c).
 * wl_result_pack writes what wl_explore_merge reads of r -- its states
 * (values, truth, count, witness), counts, bound flag, race, hang and a
 * stop's reason -- into *buf (malloc'd: free it with free; little-endian,
 * whatever the machine).  WL_EINVAL (NULL), WL_ENOMEM.
 *
 * wl_result_unpack makes *out (in ctx) from such bytes: a result like
 * the units of e (an explorer prepared with wl_explore_split from the
 * same test text and options: its test, layout and observed values) and
 * with the bytes' states, to be merged as the unit's own result.  Bytes
 * that are not such a result -- truncated, another layout, an index out
 * of range, a state given twice, bytes after the end -- give WL_EINVAL
 * and a message ("not a packed result of this exploration: ..."),
 * WL_ENOMEM out of memory; *out is then NULL and nothing is held.
 */
int wl_result_pack(const wl_result *r, void **buf, size_t *len);
int wl_result_unpack(wl_ctx *ctx, const wl_explorer *e, const void *buf,
                     size_t len, wl_result **out);

/* 1 when the test's condition holds (Dat3M's convention: for exists,
 * the outcome is reachable; for ~exists and forall, the property holds). */
int wl_result_verdict(const wl_result *r);
wl_cond_kind wl_result_cond_kind(const wl_result *r);
/* Number of distinct final states (over all registers and locations). */
size_t wl_result_nstates(const wl_result *r);
/* Consistent executions whose final state satisfies / fails the
 * condition's proposition (herd's Positive / Negative). */
uint64_t wl_result_positive(const wl_result *r);
uint64_t wl_result_negative(const wl_result *r);
/* Non-zero when the unroll bound cut at least one trace that was part of
 * a consistent execution: states needing more iterations are missing, so
 * a "No" for exists (or "Ok" for ~exists/forall) is not a proof. */
int wl_result_bound_hit(const wl_result *r);
/* Number of the thread's traces cut by the bound. */
uint64_t wl_result_traces_cut(const wl_result *r);
/* The unroll bound the exploration ran with. */
int wl_result_unroll(const wl_result *r);
/* The condition's text as the JSON's "condition" gives it (the test's,
 * or wl_result_set_condition's; "true" when there is none).  Owned by
 * r. */
const char *wl_result_condition(const wl_result *r);
/* 0 for a complete result; WL_ESTOPPED or WL_ELIMIT (max_memory) when
 * the exploration stopped early and keep_partial kept what it had found:
 * the states listed are allowed, others may be missing, and only an
 * "Ok" for exists (a "No" for ~exists/forall) is a proof.  *why (may be
 * NULL) gets the message, owned by r. */
int wl_result_partial(const wl_result *r, const char **why);

/* ---------------- undefined behaviour and hangs ----------------
 *
 * wl_explore also asks two questions of every test (unless
 * opts->no_checks is set or a model is given):
 *
 * Data races (PTX ISA 6.0, "Memory Consistency Model", data race): two
 * conflicting accesses of different threads (same location, at least
 * one a write) that are not morally strong and not ordered by causality
 * order, in some consistent execution (or prefix of one that spins
 * forever).  The search
 * stops at the first racing pair it finds.
 *
 * Liveness (Dat3M's liveness property, the expectations of
 * PTXv6_0-Liveness-expected.csv): a hang is a consistent execution in
 * which every thread has ended, or waits at a barrier that no phase
 * completes, or spins: its trace ends with a loop iteration that wrote
 * nothing and came back to the loop head in a state seen there, every
 * read of that iteration reading the coherence-last write of its
 * location (so running it again reads the same values, forever); and at
 * least one thread does not end.  Such an execution is fair: nothing
 * the others do can still change what the spinning thread reads.
 * Simplification: a thread blocked at a barrier keeps the events after
 * it in the execution (they do not run; a test whose hang depends on
 * them may be judged by them).  Callback threads hang only at an await
 * that no value of its location can pass; their other loops are cut by
 * the unroll bound (wl_result_bound_hit). */

/* One access of a race. */
typedef struct wl_race_access {
  int thread;    /* thread index */
  int index;     /* the event's position among its thread's events */
  int kind;      /* 'R' or 'W' (an RMW's read or write) */
  int sem, scope; /* WL_SEM_*, WL_SCOPE_* */
  int line;      /* source line */
  int64_t value; /* read or written */
} wl_race_access;

typedef struct wl_race_info {
  int loc; /* location index (wl_litmus_location_name) */
  wl_race_access a[2]; /* a[0] comes first in the thread order */
} wl_race_info;

enum { WL_HANG_SPIN = 1, WL_HANG_BARRIER = 2 };

#define WL_HANG_MAX_READS 8
typedef struct wl_hang_info {
  int kind;   /* WL_HANG_SPIN or WL_HANG_BARRIER */
  int thread; /* the thread that does not end */
  int line;   /* SPIN: the loop head's line; BARRIER: the barrier's */
  int64_t barrier; /* BARRIER: its id */
  /* SPIN: what the spin iteration reads forever, in program order
   * (the first WL_HANG_MAX_READS reads) */
  int nreads;
  int loc[WL_HANG_MAX_READS];
  int64_t value[WL_HANG_MAX_READS];
  /* every thread: 0 ended, 1 spins, 2 blocked at a barrier */
  int nthreads;
  int status[64];
  int at_line[64]; /* where each thread that did not end stopped */
} wl_hang_info;

/* 1 and *out filled when some consistent execution races, 0 when none
 * does, -1 when the search did not run (no_checks, a model, or a
 * partial result).  Executions in which a thread spins forever are
 * searched up to where it spins; traces the unroll bound cuts are not
 * (races only they reach are missing: wl_result_bound_hit says the
 * bound was hit).  out may be NULL. */
int wl_result_race(const wl_result *r, wl_race_info *out);
/* 1 and *out filled when a hang (liveness violation) exists, 0 when
 * none does (Dat3M's "1" is 0 here), -1 when not searched. */
int wl_result_hang(const wl_result *r, wl_hang_info *out);

/* ---------------- results as values ---------------- */

/* Observed variables of the states: every register (and callback result)
 * of every thread, then every location. */
int wl_result_nvars(const wl_result *r);
/* thread index for a register, -1 for a location */
int wl_result_var_thread(const wl_result *r, int var);
/* register or location name (owned by the test) */
const char *wl_result_var_name(const wl_result *r, int var);
int64_t wl_result_value(const wl_result *r, size_t state, int var);
/* the variable's value type (WL_TYPE_*): a location's type, int64 for a
 * register, a callback result's reported type (wl_tb_result_typed);
 * WL_EINVAL for a bad index.  wl_result_value gives its carrier. */
int wl_result_var_type(const wl_result *r, int var);
/* 1 when the state satisfies the condition's proposition */
int wl_result_state_sat(const wl_result *r, size_t state);
/* consistent executions that end in the state */
uint64_t wl_result_state_count(const wl_result *r, size_t state);

/* Re-judges a result under a condition the caller evaluates itself (a
 * Lua predicate): set each state's truth with wl_result_set_sat, then
 * wl_result_set_condition recomputes the verdict and the
 * positive/negative counts, and the writers print text (copied) as the
 * condition.  kind is a wl_cond_kind. */
int wl_result_set_sat(wl_result *r, size_t state, int sat);
int wl_result_set_condition(wl_result *r, int kind, const char *text);

/* One event of a state's witness execution. */
typedef struct wl_event_info {
  int thread;     /* -1: the initial write of a location */
  int kind;       /* 'R', 'W', 'F' or 'B' */
  int loc;        /* R/W: location index, else -1 */
  int64_t value;  /* R: read; W: written; B: barrier id */
  int sem, scope; /* WL_SEM_*, WL_SCOPE_* */
  int line;       /* source line */
  int rmw;        /* part of a read-modify-write */
  int rf;         /* R: the event read from */
  int co;         /* W: rank in its location's coherence order */
  int sc;         /* fence.sc: rank in the fence-SC order, else -1 */
  int phase;      /* B: barrier phase, -1 when it synchronised no one */
} wl_event_info;

int wl_result_witness_nevents(const wl_result *r, size_t state);
int wl_result_witness_event(const wl_result *r, size_t state, int i,
                            wl_event_info *out);

/* Output sinks: write n bytes; return 0, or non-zero to stop (the
 * writer then returns WL_EIO). */
typedef int (*wl_write_fn)(void *ud, const char *s, size_t n);

/* Writes s as one JSON string (RFC 8259), valid JSON and valid UTF-8
 * whatever the bytes of s: '"' and backslash escaped, control
 * characters and DEL as \u00XX, each byte that does not start a
 * well-formed UTF-8 sequence (overlong forms and surrogates included) as
 * \ufffd, the replacement character.  Every JSON writer of the engine
 * escapes names (tests, files, registers, locations, threads) this way.
 * WL_EINVAL for a NULL argument, WL_EIO when write stops. */
int wl_json_string(const char *s, wl_write_fn write, void *ud);

/*
 * Writes the result in herd7's format: "Test", "States", the states over
 * the registers and locations the condition mentions (sorted), Ok/No,
 * "Witnesses", "Positive/Negative", "Condition", "Observation" and
 * "Time" (seconds is printed with two decimals; the engine has no clock,
 * the caller measures).  When the bound was hit a "Warning" line says so.
 */
int wl_result_write_herd(const wl_result *r, double seconds, wl_write_fn write,
                         void *ud);
/*
 * Writes the result exactly as herd7 does, for its tools (msort7,
 * mcompare7): as wl_result_write_herd, but Positive/Negative counted as
 * herd counts them (for ~exists, Positive is the number of states that
 * fail the proposition), locations written "[x]" in the states and the
 * condition, the condition as herd prints it ("1:r0=1", "!=", no spaces
 * around them), no Warning lines (the caller
 * says on stderr what they would), and after "Time" a line
 * "Hash=<32 hex digits>" when the test was read from text (see
 * wl_litmus_hash), then a blank line.
 */
int wl_result_write_herd7(const wl_result *r, double seconds,
                          wl_write_fn write, void *ud);
/* The same content as a JSON object, plus every full final state and one
 * witness execution per state (events, rf, co, fence-SC order). */
int wl_result_write_json(const wl_result *r, double seconds, wl_write_fn write,
                         void *ud);
/* The findings as text, one line each, nothing when there are none:
 *   Race NAME: data race on 'x': FILE:LINE: thread P0 st.weak (writes 1)
 *     and FILE:LINE: thread P1 ld.weak (reads 0): not morally strong ...
 *     (PTX data race); both accesses are weak and nothing orders them:
 *     ... (what would order the pair: a wider scope, a release/acquire
 *     pair, waiting for the flag, or strong accesses; by its cause)
 *   Hang NAME: FILE:LINE: thread P1 can spin forever in the loop of
 *     this line, reading f=1 (the last values written); P0 ends, P2
 *     waits at the barrier of line 9 (liveness violation)
 * (wl_result_write_json has them as "race" and "hang": false when none,
 * null when not searched).  WL_EIO when write stops, WL_ENOMEM. */
int wl_result_write_findings(const wl_result *r, wl_write_fn write, void *ud);
/* What would order the race's pair, the end of its Race line without
 * the leading "; " ("both accesses are weak and nothing orders them: a
 * release by P0 ..."); nothing when there is no race.  The JSON's
 * "race" has it as "fix", Lua's r.race as fix.  WL_EIO, WL_ENOMEM. */
int wl_result_write_race_fix(const wl_result *r, wl_write_fn write,
                             void *ud);
/* How many findings the result has (a race, a hang): 0, 1 or 2. */
int wl_result_nfindings(const wl_result *r);


/*
 * Writes the witness execution of a state as a graph in Graphviz's DOT
 * language: the events in one column per thread, left to right as P0,
 * P1, ... under a header node named P0, P1, ... (the instruction, the
 * value read or written, its semantics and scope, its source line), the
 * initial writes above them, and edges for program order (po),
 * reads-from (rf), coherence (co), from-read (fr), the fence-SC order
 * (sc), barrier phases (bar) and read-modify-writes (rmw).  The edges
 * that make the outcome possible are highlighted (red, and an id
 * starting with "hl_", e.g. "hl_fr_e_a", that Graphviz keeps in SVG): a
 * shortest cycle of po | rf | co | fr when there is one (what sequential
 * consistency forbids), else the rf edges.  Names from the test are
 * escaped in the labels (bytes that are not UTF-8 as U+FFFD, control
 * characters as the text \xNN, '&' as &amp;).  Render it with
 * `dot -Tsvg`.  WL_EINVAL for a state out of range.
 */
int wl_result_write_dot(const wl_result *r, size_t state, wl_write_fn write,
                        void *ud);

/* ---------------- why not: explanations ---------------- */

/*
 * Explains why the model m does not allow the test's outcome: the final
 * states that satisfy the condition's proposition (for forall, those
 * that do not).  It finds the closest candidate execution reaching the
 * outcome, the one whose first failing check of m comes latest, by
 * exploring t under the first K checks of m for K = 0, 1, ...: the
 * check it names is the first that no candidate reaching the outcome
 * passes.  The explanation shows that candidate and the cycle (acyclic),
 * the reflexive event (irreflexive) or the pair (empty) that makes the
 * check fail, as a path through the candidate's po, rf, co, fr, fence-SC
 * order (sc), barrier (bar), rmw and dependency edges.  It costs a few
 * explorations with the cat evaluator.  unroll: as wl_explore_opts
 * (0: the default).  The explanation refers to t and m's copy: free it
 * before t.  Errors: those of wl_explore (WL_ESTOPPED: the context's
 * stop hook, wl_ctx_set_stop), WL_EINVAL.
 */
typedef struct wl_whynot wl_whynot;
enum {
  WL_WHYNOT_ALLOWED,      /* m allows the outcome: nothing to explain */
  WL_WHYNOT_NO_CANDIDATE, /* no candidate execution reaches it at all */
  WL_WHYNOT_FORBIDDEN     /* a check rules it out */
};
int wl_whynot_explain(wl_ctx *ctx, const wl_litmus *t, const wl_model *m,
                      int unroll, wl_whynot **out);
void wl_whynot_free(wl_whynot *w);
int wl_whynot_status(const wl_whynot *w);
/* The failing check's "as" name ("axiom-Causality"), or NULL unless
 * the status is WL_WHYNOT_FORBIDDEN.  Owned by w. */
const char *wl_whynot_check(const wl_whynot *w);
/* The explanation as text (the check, the checks the candidate passes,
 * its events, the path), as a DOT graph of the candidate with the path
 * highlighted (WL_EINVAL unless forbidden), and as JSON ("status",
 * "check", "check_kind", "passed", "events", "edges"; README). */
int wl_whynot_write_text(const wl_whynot *w, wl_write_fn write, void *ud);
int wl_whynot_write_dot(const wl_whynot *w, wl_write_fn write, void *ud);
int wl_whynot_write_json(const wl_whynot *w, wl_write_fn write, void *ud);

/* ---------------- sequential consistency ---------------- */

/*
 * The reference the explorer is checked against: every interleaving of
 * t's threads over one shared memory, one instruction (or callback event)
 * at a time, each load reading the last value stored; RMWs indivisible,
 * fences no-ops, every semantics and scope alike.  Barriers block as the
 * explorer schedules them (bar.sync waits until the expected arrivals of
 * its CTA have come: the count given, else every thread of the CTA for
 * PTX bar.sync, else the CTA's threads that use the barrier for Dat3M's
 * bar.cta.sync); a thread left waiting at its last event ends there.
 * Loops are bounded as wl_explore bounds them (unroll, 0 meaning
 * WL_DEFAULT_UNROLL; spin iterations that change nothing are free): an
 * interleaving that needs more iterations is cut, gives no final state,
 * and sets *bound_hit (may be NULL).  Callback threads are re-run from
 * the start with the values their loads have returned so far, like the
 * simulator runs them.  The same search, without the unroll bound, tells
 * which outcomes of a histogram are weak (wl_hist_weak).
 *
 * each(ud, vals, nvals) is called once per distinct final state, after
 * the search, with the values in the order of wl_result_var_* (every
 * register and callback result of every thread, then every location;
 * registers never written keep their initial value); vals is valid
 * during the call only.  A non-zero return stops with WL_ESTOPPED.  Like
 * wl_explore, the call may add the names of callback results to t's
 * registers.  Every state given is one the PTX model allows (the tests
 * check wl_explore against it).
 *
 * Errors: WL_EINVAL (bad arguments, a barrier divergence, a callback that
 * is not deterministic), WL_EUNSUPPORTED (one barrier used with different
 * thread counts), WL_ELIMIT (more than 16 barriers in one execution, or
 * 4,000,000 states), WL_ENOMEM, or the code a callback failed with; the
 * message is in wl_ctx_errmsg.
 */
typedef int (*wl_state_fn)(void *ud, const int64_t *vals, int nvals);
int wl_sc_states(wl_ctx *ctx, const wl_litmus *t, int unroll,
                 wl_state_fn each, void *ud, int *bound_hit);

/* ------------------------------------------------------------------ */
/* Test generation                                                     */
/* ------------------------------------------------------------------ */

/*
 * A generator writes litmus tests in the dialect wl_litmus_parse reads,
 * one at a time, deterministically from a seed (its PRNG lives in the
 * handle; two generators with the same options give the same tests).
 * Every test it writes parses and explores (tests/unit/test_gen.c checks
 * thousands); tests are small: 2 to 8 threads of a few instructions.
 *
 * Families from cycles (diy7's idea, warplab's names).  A cycle is a list
 * of edges between memory accesses, written as words:
 *   PodXY PosXY     program order, different (d) or same (s) location,
 *                   from an access of kind X to one of kind Y (R or W)
 *   Rfe Rfi         a write read by a read of another (e) / the same (i)
 *                   thread; Fre Fri: a read before a write in coherence
 *                   (from-read); Coe Coi: two writes in coherence order
 *   FenceScCtadXY   program order through fence.sc.cta; also FenceSc{Gpu,
 *                   Sys}, FenceAcqRel{Cta,Gpu,Sys}, and d or s as for Po
 *   DpDatadW DpDatasW   a write whose value depends on the read before it
 *   DpCtrldR DpCtrldW DpCtrlsR DpCtrlsW   a branch on the read before
 *   Rmw             the read and the write of one atom.exch
 * ('*' in a word of a vocabulary stands for R and for W.)  Address
 * dependencies (DpAddr*) are refused with WL_EUNSUPPORTED: the dialect
 * has no registers holding addresses.  The test is the one whose
 * condition holds exactly when the execution follows the cycle: each
 * external edge starts a new thread, same-location edges share a
 * location, writes to a location get values 1, 2, ... in the coherence
 * order the cycle asks for, and the condition (exists) says which value
 * each read reads (the source of its Rf edge, or the initial 0 before
 * its Fr edge) and, where the cycle fixes the coherence-last write of a
 * location, its final value.  A location with three or more writes not
 * ordered by reads is witnessed by its final value only (a deliberate
 * simplification).  A cycle needs two external edges; a cycle that asks
 * for one access at two locations, or for a coherence order that is
 * itself cyclic ("Rfe Fre", "Coe Coe"), is refused with WL_EINVAL.
 *
 * Each cycle is written with an annotation (how its accesses are marked)
 * and a placement (where its threads run):
 *   weak        ld.weak / st.weak
 *   rlx.S       ld.relaxed.S / st.relaxed.S           (S: cta, gpu, sys)
 *   ra.S        ld.acquire.S / st.release.S
 *   mix         each access drawn from the above, stores sometimes
 *               atom.exch (from the PRNG)
 *   placement   cta (one CTA), gpu (one CTA per thread, one GPU), sys
 *               (one GPU per thread), mix (drawn per thread)
 * Tests are named like diy7's: the classic shape when the cycle is one
 * with fences and dependencies read as plain program order (MP, SB, LB,
 * S, R, 2+2W, WRC, RWC, WWC, IRIW, ISA2, W+RWC, 3.SB, 3.LB, 3.2W, CoRR,
 * CoRW, CoWR; wl_gen_families), followed by the program-order edges of
 * each thread ("MP+fence.sc.gpu+ctrl") when some are fences or
 * dependencies, else the edges joined by '+'; then "_" annotation "_"
 * placement: "MP_ra.gpu_gpu".  Sampled and random tests add "-" and the
 * test's number, so names are unique within a run.
 */
enum {
  WL_GEN_CYCLE,  /* opts.cycle: one cycle, under every annotation and
                  * placement */
  WL_GEN_FAMILY, /* opts.family: a classic shape by name ("MP"), or "all" */
  WL_GEN_EDGES,  /* opts.edges: every cycle of 3..max_size edges from the
                  * vocabulary */
  WL_GEN_RANDOM, /* random programs of the given size */
  WL_GEN_COPIES  /* interchangeable threads: 2..8 copies of one or two
                  * thread bodies (below) */
};
/* Annotations to use (bits); 0: all but WL_GEN_ANN_MIX when enumerating,
 * all when sampling. */
enum {
  WL_GEN_ANN_WEAK = 1,
  WL_GEN_ANN_RELAXED = 2, /* rlx.S for each scope of opts.scopes */
  WL_GEN_ANN_ACQREL = 4,  /* ra.S for each scope of opts.scopes */
  WL_GEN_ANN_MIX = 8
};
/* Placements to use (bits); 0: all but WL_GEN_PLACE_MIX when enumerating,
 * all when sampling and for random programs. */
enum {
  WL_GEN_PLACE_CTA = 1,
  WL_GEN_PLACE_GPU = 2,
  WL_GEN_PLACE_SYS = 4,
  WL_GEN_PLACE_MIX = 8
};
/* Scopes of annotations, fences and atomics (bits); 0: all three. */
enum { WL_GEN_SCOPE_CTA = 1, WL_GEN_SCOPE_GPU = 2, WL_GEN_SCOPE_SYS = 4 };
/* What random programs are made of (bits); 0: all.  Loads and stores
 * are always there; the bits choose their semantics and the rest. */
enum {
  WL_GEN_MIX_WEAK = 1,    /* ld.weak, st.weak */
  WL_GEN_MIX_RELAXED = 2, /* .relaxed.S */
  WL_GEN_MIX_ACQREL = 4,  /* ld.acquire.S, st.release.S */
  WL_GEN_MIX_ATOM = 8,    /* atom.{add,exch,cas,or,max} */
  WL_GEN_MIX_RED = 16,    /* red.add */
  WL_GEN_MIX_FENCE = 32,  /* fence.sc.S, fence.acq_rel.S */
  WL_GEN_MIX_DEP = 64,    /* data (st x, rN) and control (a forward
                           * branch on a loaded value) dependencies */
  WL_GEN_MIX_BAR = 128    /* bar.sync 0 at one row in every thread of a
                           * CTA that holds several */
};

typedef struct wl_gen_opts {
  int mode;          /* WL_GEN_* */
  int sample;        /* CYCLE/FAMILY/EDGES: 0 enumerates every cycle x
                      * annotation x placement in order; 1 draws them at
                      * random */
  uint64_t seed;     /* the PRNG's seed (any value) */
  uint64_t count;    /* the most tests to give; 0: all of an enumeration,
                      * no end when sampling or random */
  const char *cycle; /* WL_GEN_CYCLE: "PodWW Rfe PodRR Fre" */
  const char *family; /* WL_GEN_FAMILY: "MP", ... or "all" */
  const char *edges; /* WL_GEN_EDGES: the vocabulary, words separated by
                      * spaces or commas; NULL: "PodWW PodWR PodRW PodRR
                      * Rfe Fre Coe" */
  int max_size;      /* WL_GEN_EDGES: longest cycle, 3..12 (0: 4);
                      * WL_GEN_COPIES: the most writes (stores, RMWs,
                      * reductions) in all, copies counted, 1..8 (0: 4) */
  unsigned annotations; /* WL_GEN_ANN_* */
  unsigned placements;  /* WL_GEN_PLACE_* */
  unsigned scopes;      /* WL_GEN_SCOPE_* */
  /* WL_GEN_RANDOM (and WL_GEN_COPIES, see below) */
  int threads;       /* 1..8 (0: 2) */
  int insns;         /* instructions per thread, 1..16 (0: 4) */
  int locs;          /* locations, 1..8 (0: 2) */
  unsigned mix;      /* WL_GEN_MIX_* */
} wl_gen_opts;
/*
 * WL_GEN_COPIES: tests of interchangeable threads, for the explorer's
 * symmetry reduction.  Each test has 2 to 8 byte-identical copies of one
 * thread body, or copies of two bodies (at least two of the first);
 * a body is 1 to 3 instructions: RMWs (atom add, exch, cas, inc under
 * every semantics and scope, or bare), loads and stores (the mix's
 * semantics), red.add and fences, over 1 or 2 locations, with about 12
 * instructions in all (8 copies only of one instruction).  Placement
 * (opts.placements): one CTA, one CTA or one GPU per thread, or mixed
 * (copies grouped by body, in pairs, or drawn).  The condition is on
 * one copy's registers (usually P0's), on the locations' final values,
 * or both.  threads: 2..8 (0: drawn); insns: 1..3 per body (0: drawn);
 * locs: 1..2 (0: drawn); max_size: writes in all (the coherence orders
 * to search grow as the factorial of a location's); mix: as for random
 * programs (dep and bar ignored).  Names "copies-sSEED-N".
 */

#define WL_GEN_MAX_THREADS 8
#define WL_GEN_MAX_LOCS 8
#define WL_GEN_MAX_REGS 16
#define WL_GEN_NAME_MAX 8

typedef struct wl_gen wl_gen;

/*
 * Creates a generator.  opts is copied (its strings too).  Fails with
 * WL_EINVAL naming the field ("wl_gen_opts.threads: 9 is not in 1..8",
 * "wl_gen_opts.cycle: edge 2 'Rfx' is not an edge (expected ...)"),
 * WL_EUNSUPPORTED (an address dependency) or WL_ENOMEM, with the message
 * in wl_ctx_errmsg(ctx); then *out is NULL.
 */
int wl_gen_new(wl_ctx *ctx, const wl_gen_opts *opts, wl_gen **out);
/* Frees the generator and the texts it handed out.  NULL: no-op. */
void wl_gen_free(wl_gen *g);
/*
 * Writes the next test: *text (NUL-terminated, *len bytes without the
 * NUL; len may be NULL) is owned by g and stays valid until the next
 * wl_gen_next or wl_gen_free.  At the end of the tests (an enumeration
 * done, or count reached) returns 0 with *text NULL.  Errors:
 * WL_EINVAL (NULL arguments), WL_ENOMEM.
 */
int wl_gen_next(wl_gen *g, const char **text, size_t *len);
/* The name of the test wl_gen_next wrote last (its "PTX NAME"); "" before
 * the first.  Owned by g, valid as the text is. */
const char *wl_gen_name(const wl_gen *g);
/* The names of the classic shapes (WL_GEN_FAMILY), NULL-terminated, and
 * the cycle of one of them (NULL for an unknown name).  Static. */
const char *const *wl_gen_families(void);
const char *wl_gen_family_cycle(const char *name);

/* How a variant relates to the test it comes from (names without their
 * thread: "r0", "x"). */
typedef struct wl_gen_map {
  int nthreads;
  int thread[WL_GEN_MAX_THREADS]; /* original thread t is P<thread[t]>
                                   * of the variant */
  int nlocs;
  char loc[WL_GEN_MAX_LOCS][2][WL_GEN_NAME_MAX]; /* [k][0] original
                                                  * name, [k][1] variant */
  int nregs[WL_GEN_MAX_THREADS]; /* per original thread */
  char reg[WL_GEN_MAX_THREADS][WL_GEN_MAX_REGS][2][WL_GEN_NAME_MAX];
} wl_gen_map;

/*
 * Writes a variant of the test wl_gen_next wrote last: the same test
 * with its threads reordered (each keeps its CTA and GPU), its
 * locations renamed (and declared in another order) and each thread's
 * registers renamed, all by permutations drawn from seed alone (the
 * generator's own sequence is not disturbed).  Its final states are the
 * original's under the renaming, so it explores to the same verdict and
 * number of states.  *text is owned by g, valid until the next
 * wl_gen_variant, wl_gen_next or wl_gen_free; *map (may be NULL) gets
 * the renaming.  WL_EINVAL before the first test or after the end.
 */
int wl_gen_variant(wl_gen *g, uint64_t seed, const char **text, size_t *len,
                   wl_gen_map *map);

/* ------------------------------------------------------------------ */
/* Sampling on the operational simulator                               */
/* ------------------------------------------------------------------ */

/*
 * The simulator runs a litmus test the way a GPU-like machine would: each
 * thread on the SM of its CTA, stores entering a per-thread store queue
 * that drains to the SM and then to L2 out of order (per address in
 * order), loads served by the thread's own queue, the SM, a per-SM L1
 * that may hold stale lines (weak loads only) or L2, the point of
 * coherence; fences, release/acquire, barriers and atomics (performed at
 * L2 for gpu/sys scope) with their operational meaning.  A seeded
 * scheduler picks every step.  Every outcome it produces is allowed by
 * the PTX model (tests check this against wl_explore).
 */
enum {
  WL_PROFILE_WEAK, /* weak outcomes frequent: long queues, stale L1 */
  WL_PROFILE_H100, /* weak outcomes at roughly the rates an H100
                    * showed under warplab cuda's harness
                    * (tests/hw/observed: MP, SB, LB, S, R, 2+2W, WRC,
                    * IRIW across CTAs with no fence and
                    * __threadfence_block within a factor of 2, S and R
                    * inside one CTA within 3, MP and SB across two GPUs
                    * within 3), and none where it showed none
                    * (__threadfence, CoRR, the other shapes inside one
                    * CTA or SM); the v6.0 conformance tests' conditions
                    * seen, or never seen, as on the H100 */
  WL_NPROFILES     /* how many; profiles are numbered 0..WL_NPROFILES-1 */
};

/* A profile's name ("weak", "h100"), NULL for none; and the profile
 * named name, or -1.  The same profiles serve wl_sample and
 * wl_launch_run: one table of knobs (engine/mem/profile.h). */
const char *wl_profile_name(int profile);
int wl_profile_find(const char *name);

typedef struct wl_sample_opts {
  uint64_t runs;  /* how many runs */
  uint64_t seed;  /* run i is seeded from (seed, first + i) alone, so a
                   * histogram does not depend on how runs are split */
  uint64_t first; /* index of the first run */
  int profile;    /* WL_PROFILE_* */
  int max_steps;  /* scheduler steps per run before the run counts as
                   * not terminating (0: 10000) */
  int (*should_stop)(void *ud); /* polled; non-zero stops with a partial
                                 * histogram and WL_ESTOPPED */
  void *stop_ud;
  /* Optional: runs the callback threads instead of the functions set
   * with wl_litmus_set_thread_fn, as thread_fn(thread_ud, tb) (the
   * thread is wl_tb_thread(tb)); the Lua bindings give each worker its
   * own copies of the functions this way.  NULL: the test's own. */
  wl_thread_fn thread_fn;
  void *thread_ud;
  /* 1: run every run step by step (the machine's own random process),
   * never drawing outcomes from the exact law (below); the histogram of
   * a seed is then the one the step-by-step sampler always gave. */
  int step;
  /* The law of t's outcomes under these opts' profile and max_steps
   * (wl_sample_law), shared read-only by every call that samples t
   * with them; NULL: wl_sample computes it itself when it needs it. */
  const struct wl_law *law;
  /* The test program the runs stand for: an index of `warplab cuda`'s
   * harness presets (wl_cuda_harness_name, wl_cuda_harness_find).  0,
   * plain (the default): the threads start together and the scheduler
   * alone orders them, the harness the profiles' shapes were calibrated
   * with.  A preset with start delays or stalls (delay) makes each
   * thread first wait a drawn number of its turns, and stall before one
   * drawn instruction (not its first) a drawn number of turns: the
   * preset's cycles over the profile's cycles per turn (profile.h). */
  int harness;
} wl_sample_opts;

typedef struct wl_hist wl_hist;

/*
 * The exact law of a test's outcomes on the simulator.  A run is a
 * finite random process: each step is a function of the machine's
 * state and the generator's draws.  wl_sample_law enumerates that
 * process (every state a run can reach, every draw's alternatives with
 * their exact probabilities) and gives the probability of each final
 * state and of hanging (a run that overflows a queue or history, or
 * leaves a thread waiting at a barrier).  wl_sample then draws run i's
 * outcome from the law with one number of (seed, first + i): the same
 * law as running it, at a fraction of the cost, and again the same
 * histogram for any split of the runs.  A test the enumeration cannot
 * take falls back to running every run step by step (wl_law_exact 0,
 * wl_law_why says why): callback threads, a run that can come back to
 * a state it left (a spin loop), one whose steps could reach max_steps,
 * or more states than the runs are worth: opts->runs / 64 (a state
 * costs about as much as 64 runs), at least 256, at most 262,144.  opts->should_stop is polled here too
 * (a stop gives a law that falls back).  Returns 0 and *out (free it
 * with wl_law_free before ctx), or WL_ENOMEM / WL_EINVAL.
 */
typedef struct wl_law wl_law;
int wl_sample_law(wl_ctx *ctx, const wl_litmus *t, const wl_sample_opts *opts,
                  wl_law **out);
void wl_law_free(wl_law *law);
int wl_law_exact(const wl_law *law);       /* 1: exact; 0: falls back */
const char *wl_law_why(const wl_law *law); /* why it falls back, or "" */
size_t wl_law_nstates(const wl_law *law);  /* states enumerated */
size_t wl_law_noutcomes(const wl_law *law); /* final states of p > 0 */
/* outcome i's values, as wl_hist_values; and its probability (i ==
 * wl_law_noutcomes: that of hanging) */
int wl_law_values(const wl_law *law, size_t i, int64_t *vals, int n);
double wl_law_prob(const wl_law *law, size_t i);

/*
 * Runs t opts->runs times.  On WL_ESTOPPED *out still holds the runs
 * done.  The histogram allocates through ctx and refers to t: free it
 * before either (runs = 0 gives an empty histogram to merge batches
 * into).  t is only read: several contexts may sample it at once.
 *
 * Callback threads (wl_litmus_set_thread_fn) run step by step: to learn
 * a thread's next event the simulator re-runs its callback with the
 * values its loads returned so far in this run, and stops it
 * (WL_ELIMIT, as for the explorer's loop bound: the callback must
 * return) at its first load whose value is not known yet; every event
 * then enters the machine as the instruction that does the same.  So
 * the callback must be deterministic given its loaded values (else
 * WL_EINVAL, "not deterministic"), and it runs O(events) times per run.
 * Its loads may be deferred as a program's are: the callback goes on with
 * the value read at issue, and the value read late stands only when the
 * callback, given it, does the same events again (else the load counts
 * as performed at issue), so load buffering and message passing show at
 * the rates of the instruction form.  A thread with more than 256
 * events in a run makes the run count as not terminating.  The results
 * it reports with wl_tb_result in its last, complete run are its
 * registers in the outcome (0 when not reported), named as wl_explore
 * names them; results that are no register of the test are kept in the
 * histogram, after the thread's registers (the test is not changed).
 * A callback's failure fails the sampling with its code and the
 * message "thread P1: ..." (the one given to wl_tb_fail).
 */
int wl_sample(wl_ctx *ctx, const wl_litmus *t, const wl_sample_opts *opts,
              wl_hist **out);
/* Adds the counts of from into into (both from the same test). */
int wl_hist_merge(wl_hist *into, const wl_hist *from);
/*
 * A histogram as bytes, for another process that samples the same test
 * (the ranks of an MPI sampling): its outcomes with their counts and
 * condition truths, its runs and hung runs, and the names and types of
 * its values.  *buf is malloc'd (free it with free); little-endian,
 * whatever the machine.  wl_hist_unpack_merge adds such bytes to into,
 * a histogram of a test parsed from the same text (same name, threads,
 * registers and locations), as wl_hist_merge adds a histogram: all or
 * nothing.  Bytes that are not such a histogram (truncated, another
 * test's, counts that do not add up to the runs) give WL_EINVAL and a
 * message, into unchanged.
 */
int wl_hist_pack(const wl_hist *h, void **buf, size_t *len);
int wl_hist_unpack_merge(wl_hist *into, const void *buf, size_t len);
void wl_hist_free(wl_hist *h);
uint64_t wl_hist_runs(const wl_hist *h);     /* runs attempted */
uint64_t wl_hist_hung(const wl_hist *h);     /* deadlocked / out of steps */
/* Whether the SC outcomes are known (the JSON's "weak_known"). */
int wl_hist_weak_known(const wl_hist *h);
/* The condition's kind (wl_cond_kind) and text, as the JSON's "kind"
 * and "condition" give them; the text is owned by h. */
int wl_hist_cond_kind(const wl_hist *h);
const char *wl_hist_condition(const wl_hist *h);
size_t wl_hist_noutcomes(const wl_hist *h);  /* distinct final states */
uint64_t wl_hist_count(const wl_hist *h, size_t i);
int wl_hist_sat(const wl_hist *h, size_t i); /* condition holds */
/* The state's values, in the order of wl_result_var_* (registers of all
 * threads, then locations); n is the number of values written. */
int wl_hist_values(const wl_hist *h, size_t i, int64_t *vals, int n);
/* The values' names, as wl_result_var_*: registers of all threads, then
 * locations. */
int wl_hist_nvars(const wl_hist *h);
int wl_hist_var_thread(const wl_hist *h, int var); /* -1: a location */
const char *wl_hist_var_name(const wl_hist *h, int var);
/* its value type, as wl_result_var_type (WL_EINVAL for a bad index) */
int wl_hist_var_type(const wl_hist *h, int var);
/* 1 when sequential consistency cannot produce outcome i (a weak
 * outcome), 0 when it can, -1 when the search for SC outcomes gave up
 * (past 65,536 states or 2,000 steps in one interleaving, a barrier
 * divergence, or a callback thread failed).  The search is wl_sc_states's
 * (barriers block; spin iterations that change nothing are free) with
 * no unroll bound: a loop is followed until it comes back to a state
 * met before.  Computed once per
 * histogram, on first use (by this or wl_hist_write), on the calling
 * thread: callback threads are run there, through the test's own
 * functions (never opts->thread_fn). */
int wl_hist_weak(wl_hist *h, size_t i);
/* Re-judges the outcomes under a condition the caller evaluates (a Lua
 * predicate): set each outcome's truth, then the kind and the text the
 * writer prints (copied). */
int wl_hist_set_sat(wl_hist *h, size_t i, int sat);
int wl_hist_set_condition(wl_hist *h, int kind, const char *text);
/* Optional (NULL: none): polled every 4,096 states of the search for SC
 * outcomes (wl_hist_weak, wl_hist_write); a non-zero return ends it,
 * and no outcome is called weak (wl_hist_weak gives -1) until a later
 * call searches again.  For a command's deadline or Ctrl-C: the search
 * is bounded (65,536 states) but may take a fraction of a second on
 * large tests. */
void wl_hist_set_stop(wl_hist *h, int (*should_stop)(void *ud), void *ud);
/* Writes the histogram in litmus7's style: one line per outcome with
 * its count, '*>' where the condition holds and ':>' otherwise, "weak"
 * after outcomes that sequential consistency cannot produce, then the
 * verdict ("Ok" when the condition's outcome was observed for exists),
 * Positive/Negative, the Observation line and, when partial is set,
 * a line saying the run was interrupted.  The text goes to write in
 * pieces of about 64 KiB, in order; when write returns non-zero the
 * output stops there, with WL_EIO.  Outcomes are sorted by value:
 * O(n log n) in the outcomes. */
int wl_hist_write(const wl_hist *h, int partial, double seconds,
                  wl_write_fn write, void *ud);
/*
 * The same histogram as one JSON object, with wl_result_write_json's
 * names where they mean the same ("test", "file", "kind", "condition",
 * "ok", "verdict", "positive", "negative", "time"), then
 *   "runs", "hung": runs attempted, runs that did not terminate;
 *   "partial": true when the caller says the runs were cut short;
 *   "weak_known": false when the search for SC outcomes gave up;
 *   "variables": every value's name, "1:r0" for registers and callback
 *     results, then locations (wl_hist_var_name's order);
 *   "outcomes": [{"values": {"1:r0": 1, "x": 2.5, ...}, "count": runs,
 *     "condition": bool, "weak": bool, or null when weak_known is
 *     false}, ...]: values as in the JSON of results' final_states
 *     (every variable, in its type; NaN and infinities as strings),
 *     outcomes sorted as wl_hist_write sorts them.
 * Written in pieces like wl_hist_write; WL_EIO when write stops it.
 */
int wl_hist_write_json(const wl_hist *h, int partial, double seconds,
                       wl_write_fn write, void *ud);

/* ------------------------------------------------------------------ */
/* Running a test on a real GPU                                        */
/* ------------------------------------------------------------------ */

/* The harness settings of an emitted program (its defaults; the program
 * takes each again on its command line). */
typedef struct wl_cuda_opts {
  int blocks;        /* test blocks per launch (1024) */
  int threads;       /* threads per block (256) */
  int launches;      /* launches (200) */
  int stress_blocks; /* extra blocks of memory stress (0) */
  int stress_iters;  /* loads and stores per stress thread (256) */
  int spacing;       /* words between instances' copies of a location (1);
                      * above 1 the stress hits the words between */
  uint64_t seed;     /* seed of the thread-to-role tables (1) */
  int budget;        /* backward branches per role before it gives up and
                      * its instance counts as hung (10000) */
  int no_shuffle;    /* 1: roles in order instead of drawn at random */
  int rounds;        /* two-GPU tests: instances each slot runs per launch,
                      * its roles held in step round by round (100) */
  int stream;        /* two-GPU MP tests: 1..1048576 makes the streaming
                      * program instead, each writer/reader pair running
                      * this many rounds back to back (its --stream);
                      * 0: off (0) */
  int sm;            /* which instances count, by the SMs their blocks
                      * ran on: WL_CUDA_SM_ANY (all), _SAME or _DIFFERENT */
  /* One GPU (two-GPU programs ignore them).  A preset (wl_cuda_harness)
   * sets harness, sync, place, pre_stress, stress_pattern, stress_lines,
   * line_words, delay, gap, stress_blocks and stress_iters; plain (0) is
   * the harness of warplab 0.1, delay (4) the default. */
  int harness;        /* the preset's index (wl_cuda_harness_name) */
  int sync;           /* 1: the roles of an instance meet before they
                       * start (a rendezvous on a counter per instance) */
  int sync_spins;     /* polls before a waiting role gives up; its
                       * instance counts as unsynchronised (20000) */
  int place;          /* 1: which warps play each role is drawn per
                       * instance block; 0: role r takes region r */
  int pre_stress;     /* stress iterations of each test thread first */
  int stress_pattern; /* WL_CUDA_PAT_*: what stress threads do */
  int stress_lines;   /* lines the patterns hit (64) */
  int line_words;     /* words of a stress line (32) */
  int delay;          /* 1..: after the rendezvous each warp of a role
                       * waits a drawn number of SM cycles in [0, delay)
                       * (0: none) */
  int gap;            /* 1..: one drawn instruction of each role waits a
                       * drawn number of SM cycles in [0, gap) before it
                       * runs (a stall inside the role; 0: none) */
  int tune;           /* 1: the program tunes by default (its --tune) */
} wl_cuda_opts;

/* wl_cuda_opts.stress_pattern: random loads and stores over a scratch
 * area (or the test's lines, spacing > 1: warplab 0.1's stress), or
 * GPUHarbor's store-store, store-load, load-store, load-load pairs on
 * stress lines. */
enum {
  WL_CUDA_PAT_RANDOM = 0,
  WL_CUDA_PAT_SS = 1,
  WL_CUDA_PAT_SL = 2,
  WL_CUDA_PAT_LS = 3,
  WL_CUDA_PAT_LL = 4
};

/* Applies the harness preset called name (plain, sync, stress,
 * parallel) to o: 0, or WL_EINVAL for an unknown name. */
int wl_cuda_harness(wl_cuda_opts *o, const char *name);
/* The name of preset k (0..), NULL past the last. */
const char *wl_cuda_harness_name(int k);
/* The index of the preset called name, or -1. */
int wl_cuda_harness_find(const char *name);
/* A stress pattern's name (random, ss, sl, ls, ll) and back (-1). */
const char *wl_cuda_pattern_name(int k);
int wl_cuda_pattern_find(const char *name);

/* wl_cuda_opts.sm: a test whose threads sit in several CTAs, on one GPU,
 * may count only the instances whose blocks ran on one SM (SAME) or on
 * several (DIFFERENT); the program reads each block's %smid. */
enum { WL_CUDA_SM_ANY = 0, WL_CUDA_SM_SAME = 1, WL_CUDA_SM_DIFFERENT = 2 };

void wl_cuda_opts_init(wl_cuda_opts *o);

/*
 * Writes a self-contained CUDA program (one .cu file; nvcc -arch=sm_70 or
 * later) that runs t on a GPU many times at once and prints the outcome
 * histogram in wl_hist_write's format, after '#' lines naming the GPU,
 * driver, date and harness settings.  Each test thread is one inline-PTX
 * statement with the test's instructions as written (ld/st/atom/red with
 * their .sem, .scope and state space, fence.sc/acq_rel, branches as bra
 * to labels; a backward branch spends a budget so that a spin loop ends).
 * Many instances run per launch, one role per GPU thread: threads of one
 * CTA of the test in one block (different warps), threads of different
 * CTAs in different blocks, drawn at random per table of roles.  Each
 * location is a 32-bit word per instance: a value written in the test
 * outside -2^31..2^31-1 (an initial value, an operand, a constant of the
 * condition) is refused (WL_EUNSUPPORTED, "file:line:col: ..."); a
 * value the test computes is checked in the program (register
 * arithmetic in 64 bits as the model does it, atom/red add and sub whose
 * sum may leave 32 bits), and instances that leave 32 bits are counted
 * on a "Wide" line instead of in the histogram.  The
 * test's name and file name are escaped wherever they land (comments,
 * string literals).  The program takes the settings of opts again as
 * options of the same names as `warplab cuda`'s (--blocks, --seed, ...;
 * --help lists them).  Outcomes are counted on the
 * GPU; the program marks as weak the outcomes wl_sc_states does not give.
 * A test whose threads are on GPUs 0 and 1 (or with a location homed on
 * a GPU without its threads) gets a two-GPU program: it enables peer
 * access between CUDA devices 0 and 1 (and stops with a message when
 * there are fewer GPUs or no peer access), allocates each location in
 * its home GPU's memory, launches on each GPU only the roles placed on
 * it, holds the roles of each slot in step for opts->rounds instances per
 * launch (each in fresh locations), and counts the outcomes of both on
 * GPU 0; one-GPU harness settings (harness, sync, sync_spins, place,
 * pre_stress, stress_pattern, stress_lines, line_words, delay, gap, tune
 * other than their defaults) are refused for it (WL_EINVAL).  With
 * opts->stream K > 0 an MP test on two GPUs (a writer "st data, V;
 * [fence;] st flag, W", a reader "ld r, flag; [fence;] ld s, data", both
 * locations at 0) gets the streaming program instead: each of BLOCKS x
 * THREADS writer/reader pairs runs K rounds back to back with the test's
 * instructions (data = k, flag = k; the reader polls the flag until it
 * reads k or more, then loads the data), a read weak when the data is
 * older than the flag, each read printed as a run of the one-shot test
 * (WL_EINVAL for a one-GPU test, WL_EUNSUPPORTED for another shape).
 * CUDA cannot place a block on a chosen SM: with opts->sm SAME or
 * DIFFERENT (the program's --sm) each block notes its SM id (PTX
 * %smid), only the instances whose blocks ran on one SM (SAME) or on
 * several (DIFFERENT) are counted, and a '#' line gives how many
 * instances each class had; it needs threads in several CTAs of one
 * GPU (WL_EINVAL otherwise); with SAME a probe launch maps blocks to
 * SMs and the role tables put each instance's CTAs in blocks the probe
 * saw on one SM.  opts may be NULL (the defaults).  Fails with WL_EINVAL
 * (bad settings), WL_EUNSUPPORTED ("file:line:col: P0: ..." for callback
 * threads, barriers other than bar.sync a{, b} with a constant a in
 * 0..15 and b the test's thread count, barriers in a test of several
 * CTAs -- a barrier test runs one instance per CTA, blocks of its
 * threads, BLOCKS x (THREADS / threads) of them a launch --, GPUs other
 * than 0 and 1 or __shared__ locations in
 * a two-GPU test, floating-point locations, sc accesses or PTX 7.5
 * proxies), WL_ENOMEM, or WL_EIO when write fails.
 */
int wl_cuda_emit(wl_ctx *ctx, const wl_litmus *t, const wl_cuda_opts *opts,
                 wl_write_fn write, void *ud);

/* What wl_compare found. */
typedef struct wl_compare_report {
  uint64_t runs;           /* runs the histogram counts */
  size_t observed;         /* distinct outcomes observed */
  size_t forbidden;        /* observed outcomes the model forbids */
  uint64_t forbidden_runs; /* runs that ended in them */
  size_t unseen;           /* allowed outcomes never observed */
  /* Coverage (sc_known: wl_sc_states gave the SC states, else the four
   * counts are 0): the allowed outcomes, projected on the histogram's
   * variables, that sequential consistency gives (sc) and the others
   * (weak), and how many of each were observed. */
  int sc_known;
  size_t sc_allowed, sc_observed, weak_allowed, weak_observed;
} wl_compare_report;

/*
 * Puts the histogram of test t in the text hist (the format of
 * wl_hist_write, as programs from wl_cuda_emit print it; '#' lines are
 * skipped; the text may hold other tests' histograms too: the one after
 * "Test NAME" is used) beside r, t's exploration: each observed outcome
 * with its count and whether some allowed state gives it (matched by
 * variable name, on the variables the histogram names), then the
 * allowed outcomes never observed with the model's execution counts,
 * then a Verdict line.  who names the histogram in messages (NULL:
 * "<histogram>").  write may be NULL (report only).  Fails with
 * WL_EINVAL (no histogram of t, or it names a variable t lacks),
 * WL_ESYNTAX ("who:line: ..."), WL_ENOMEM or WL_EIO; an outcome the
 * model forbids is no failure: it is counted in rep->forbidden.
 */
int wl_compare(wl_ctx *ctx, const wl_litmus *t, const wl_result *r,
               const char *who, const char *hist, size_t len,
               wl_write_fn write, void *ud, wl_compare_report *rep);

/* ------------------------------------------------------------------ */
/* The simulated device: memory spaces, kernels, SIMT warps            */
/* ------------------------------------------------------------------ */

/*
 * A device has SMs, a global memory (allocations placed at 256-byte
 * aligned addresses), 64 KB of __constant__ memory, and the sampler's
 * memory system: per-SM store buffers that drain to L2 out of order
 * across addresses, per-SM L1 copies of global data (on the cost model's
 * L1 lines) that weak .ca/.cs/ldg and cta-scope loads may read stale, L2
 * as the point of coherence, atomics at L2.  A kernel runs
 * as blocks placed on SMs as resources allow (threads, warps, blocks,
 * registers, shared memory); the host code that runs each thread (Lua in
 * bindings/) is a callback: the engine asks it to run the threads of one
 * warp until each yields (a barrier, its end, or a slice of accesses),
 * and the threads report every memory access through wl_kernel_access.
 * Lanes of a warp that make their k-th access at one source line form one
 * warp-wide request, which the cost model (engine/perf/) prices.
 */
typedef struct wl_device_cfg {
  char name[24];              /* preset name, "sm_90" */
  int sms;                    /* streaming multiprocessors */
  int max_threads_per_sm;     /* 2048 */
  int max_warps_per_sm;       /* 64 */
  int max_blocks_per_sm;      /* 32 */
  int max_threads_per_block;  /* 1024 */
  int regs_per_sm;            /* 65536 */
  int max_regs_per_thread;    /* 255 */
  int reg_alloc_unit;         /* registers, per warp granularity: 256 */
  uint32_t l1_shared_bytes;   /* unified L1 + shared memory per SM */
  uint32_t shared_per_sm;     /* the largest shared carve-out per SM */
  uint32_t shared_per_block;  /* the most one block may use */
  uint32_t shared_reserved;   /* reserved per block by the system: 1 KB */
  uint32_t shared_alloc_unit; /* shared memory granularity: 128 */
  int fixed_carveout;         /* 1: shared_per_sm is always the carve-out
                               * (toy, sm_70, sm_35); 0: chosen from the
                               * sm_8x/9x options as the driver does */
  int banks, bank_bytes;      /* 32 banks of 4 bytes */
  uint32_t l1_line, l1_sector, l1_ways;
  uint32_t l2_bytes, l2_line, l2_sector, l2_ways;
  uint32_t const_bytes;       /* __constant__ memory: 64 KB */
  uint32_t const_cache_bytes; /* per-SM constant cache */
  uint32_t const_line;        /* its line size */
  uint64_t global_bytes;      /* global + managed memory available */
} wl_device_cfg;

/* Fills *cfg with a named preset: "sm_90" (H100 SXM-like, the default),
 * "sm_80" (A100-like), "sm_70" (V100-like), "sm_35" (Kepler, 8-byte
 * banks), "toy" (the CUDA guide's occupancy example: 16 KB shared and
 * 768 threads per SM) or "banks5" (5 banks of 4 bytes, the padding
 * lesson).  WL_EINVAL names the presets for an unknown name. */
int wl_device_preset(wl_ctx *ctx, const char *name, wl_device_cfg *cfg);
/* The names of the presets, NULL-terminated. */
const char *const *wl_device_presets(void);

typedef struct wl_device wl_device;
/* Checks cfg (WL_EINVAL naming the field) and creates a device. */
int wl_device_new(wl_ctx *ctx, const wl_device_cfg *cfg, wl_device **out);
void wl_device_free(wl_device *d);
const wl_device_cfg *wl_device_config(const wl_device *d);
/* Changes the shared-memory bank layout between launches
 * (cudaDeviceSetSharedMemConfig's 4- or 8-byte banks); WL_EINVAL during
 * a launch or for a layout wl_device_new would refuse. */
int wl_device_set_banks(wl_device *d, int nbanks, int bank_bytes);

/* Memory spaces. */
enum {
  WL_SPACE_GLOBAL,   /* __device__ / cudaMalloc: persists across launches */
  WL_SPACE_MANAGED,  /* cudaMallocManaged: global, also host-accessible */
  WL_SPACE_CONSTANT, /* __constant__: host-written, read-only on the device */
  WL_SPACE_PARAM,    /* __grid_constant__ kernel parameters: read-only */
  WL_SPACE_SHARED,   /* per block; lives while the block runs */
  WL_SPACE_LOCAL     /* per thread */
};
/* A value's type in device memory (also WL_TYPE_*). */
enum { WL_TYPE_BYTES = 16 }; /* raw bytes: vector loads/stores */

/* Allocates bytes in space (GLOBAL, MANAGED, CONSTANT or PARAM), zeroed,
 * at an address aligned to 256 bytes (constant and parameters: 16).  *id names the
 * allocation in later calls.  Fails with WL_ELIMIT past the device's
 * global memory or 64 KB of constant memory. */
int wl_device_alloc(wl_device *d, int space, uint64_t bytes, const char *name,
                    int *id);
/* Host copies (cudaMemcpy / cudaMemcpyToSymbol): bounds-checked
 * (WL_EINVAL), allowed on every space a host may write. */
int wl_device_write(wl_device *d, int id, uint64_t off, const void *src,
                    uint64_t n);
int wl_device_read(const wl_device *d, int id, uint64_t off, void *dst,
                   uint64_t n);
uint64_t wl_device_alloc_size(const wl_device *d, int id);
int wl_device_alloc_space(const wl_device *d, int id);
uint64_t wl_device_alloc_addr(const wl_device *d, int id);
const char *wl_device_alloc_name(const wl_device *d, int id);
/* Releases an allocation (cudaFree); its id is not reused.  Global
 * memory is counted back; constant and parameter memory come back when
 * the newest allocation of their space is released. */
int wl_device_release(wl_device *d, int id);

typedef struct wl_launch wl_launch;

/* Runs the threads of one warp: for each lane whose state is RUNNABLE
 * (wl_kernel_lane_state), run it until it yields.  Returns 0, or an
 * error after wl_kernel_fail. */
typedef int (*wl_warp_fn)(void *ud, wl_launch *l, int block, int warp);
/* A block's threads all finished: release what the host keeps for it. */
typedef void (*wl_block_fn)(void *ud, wl_launch *l, int block);

enum { WL_CACHE_PREFER_NONE, WL_CACHE_PREFER_SHARED, WL_CACHE_PREFER_L1,
       WL_CACHE_PREFER_EQUAL };

typedef struct wl_launch_cfg {
  int grid[3], block[3];   /* dimensions; 0 reads as 1 */
  uint32_t static_shared;  /* bytes of __shared__ arrays per block */
  uint32_t dynamic_shared; /* extern __shared__ bytes, set at launch */
  int regs_per_thread;     /* 0: 32 */
  int cache_pref;          /* WL_CACHE_PREFER_* (carve-out) */
  uint64_t seed;           /* the scheduler's seed */
  int profile;             /* WL_PROFILE_WEAK or WL_PROFILE_H100 */
  uint64_t max_steps;      /* warp slices before the launch is stopped as
                            * not terminating (0: 10 million) */
  int slice;               /* accesses a lane makes before it yields
                            * (0: 64): the grain at which lanes
                            * interleave.  1 interleaves access by
                            * access, as the litmus sampler interleaves
                            * instructions, and gives its outcomes at
                            * its rates (tests/lua/shape_kernels_all.lua);
                            * at 64 a short role runs whole in its turn
                            * (roles of one SM never interleave), about
                            * twice as fast per-thread */
  const char *source;      /* the kernel's file, for messages */
  wl_warp_fn run_warp;
  wl_block_fn block_done;  /* may be NULL */
  void *ud;
  int (*should_stop)(void *ud); /* polled; non-zero stops: WL_ESTOPPED */
  void *stop_ud;
  int check;               /* WL_CHECK_* bits: the checkers to run (0:
                            * none; each costs time, see wl_finding) */
  int schedule;            /* WL_SCHED_*: how the lanes of a warp take
                            * turns (per-thread host code) */
  int end_line;            /* the kernel's last line (where a thread that
                            * returned stopped, in messages); 0: unknown */
  int defer;               /* 1: the host can replay lanes, so their loads
                            * may be deferred (see wl_kernel_replay_load);
                            * 0: every load is performed at once */
  int plain;               /* for the property tests: 1 makes every
                            * warp-wide access take its general path (no
                            * whole-warp shortcut, the deferred-load checks
                            * and event counts of every lane) and the
                            * store buffers' drains look at every SM; the
                            * results are the same */
  int part_n, part_k;      /* a part of a split launch (wl_launch_merge):
                            * part_n > 0 runs only the blocks b with
                            * b % part_n == part_k, drawing from (seed,
                            * part_k); 0: every block */
  int track;               /* 1: record the global and managed bytes read
                            * and written, the values written and the L2
                            * lookups (wl_launch_touched) */
} wl_launch_cfg;

/* Lane schedules (wl_launch_cfg.schedule).  INDEPENDENT: each lane runs
 * until it yields (a barrier, its end, or `slice` accesses), one after
 * the other in lane order, as independent thread scheduling (Volta and
 * later) allows; LOCKSTEP: every lane yields after each access, lanes in
 * lane order, so the lanes of a warp make their k-th accesses together
 * (pre-Volta SIMT; a lane that skips an access in a divergent branch
 * runs one access ahead, a simplification); RANDOM: each turn takes the
 * lanes in an order drawn from the seed, each for 1 to 8 accesses. */
enum { WL_SCHED_INDEPENDENT, WL_SCHED_LOCKSTEP, WL_SCHED_RANDOM };

/* Checkers (wl_launch_cfg.check), engine/check/:
 * RACES: data races by the PTX definition over global, managed and
 *   shared memory (two conflicting accesses, one a write, not morally
 *   strong, not ordered by causality order: program order, barriers,
 *   __syncwarp, release/acquire patterns, fence.sc order, observation of
 *   a strong write); races between lanes of one warp are reported as
 *   warp-synchronous hazards;
 * UNINIT: loads of global, managed or shared words never written (by
 *   the host or a device store; a launch without this checker counts as
 *   writing all of global memory);
 * SPIN: a weak load of global or managed memory polled in a loop (the
 *   same thread, line and address reading the same value 8 times in a
 *   row): the compiler may read it once, so the loop may never end. */
enum { WL_CHECK_RACES = 1, WL_CHECK_UNINIT = 2, WL_CHECK_SPIN = 4,
       WL_CHECK_ALL = 7 };
/* What a checker found (wl_finding.kind).  WL_FIND_SHFL (the race
 * checker): a shuffle of a lane whose source lane is outside the mask
 * (left out, exited, or past the block's end): CUDA leaves the value
 * undefined (the simulator gives the lane its own); a is the reading
 * lane, b the source lane, and the memory fields say nothing. */
enum { WL_FIND_RACE, WL_FIND_WARP_RACE, WL_FIND_UNINIT, WL_FIND_SPIN,
       WL_FIND_SHFL };

/* One access of a finding. */
typedef struct wl_find_access {
  int block, thread;           /* linear indices */
  int bidx[3], tidx[3];        /* blockIdx, threadIdx */
  int warp, lane, line;
  int kind, sem, scope;        /* WL_ACC_*, WL_SEM_*, WL_SCOPE_* */
} wl_find_access;

/* A finding: races are reported once per pair of source lines (and
 * kind), uninitialised reads and spins once per line; count says how
 * many times it was seen. */
typedef struct wl_finding {
  int kind;                    /* WL_FIND_* */
  int space;                   /* WL_SPACE_* */
  char name[48];               /* the memory's name */
  int id;                      /* the allocation (global, managed) or the
                                * block's shared declaration, in
                                * wl_kernel_shared's numbering */
  uint64_t off;                /* byte offset in it */
  uint64_t addr;               /* global: device address; shared: offset
                                * in the block's shared memory */
  wl_find_access a;            /* the access that found it (the later) */
  wl_find_access b;            /* races: the earlier, conflicting one */
  uint64_t count;
  char fix[320];               /* what would order them, or what to do */
} wl_finding;
/* The findings of a launch run with checkers, in the order found (at
 * most 256 distinct; the count goes on). */
int wl_launch_nfindings(const wl_launch *l);
const wl_finding *wl_launch_finding(const wl_launch *l, int i);

/* Occupancy as the launch computes it: blocks resident per SM, the
 * resource that limits them, and each resource's own limit. */
enum { WL_LIMIT_THREADS, WL_LIMIT_WARPS, WL_LIMIT_BLOCKS, WL_LIMIT_REGS,
       WL_LIMIT_SHARED };
typedef struct wl_occupancy {
  int blocks_per_sm, limiter;            /* limiter: WL_LIMIT_* */
  int by_threads, by_warps, by_blocks, by_regs, by_shared;
  uint32_t shared_per_sm;                /* the carve-out chosen */
  uint32_t shared_per_block;             /* static + dynamic + reserved */
  int warps_per_sm;                      /* resident warps */
  double occupancy;                      /* warps_per_sm / max */
} wl_occupancy;
/* Computes occupancy for cfg's block size and resources; WL_EINVAL with
 * a message when a block cannot fit on an SM at all. */
int wl_device_occupancy(wl_device *d, const wl_launch_cfg *cfg,
                        wl_occupancy *out);

/* Launches a kernel and runs it to the end.  Global memory persists;
 * at the end every buffered store has reached L2 (kernel boundary).
 * Errors: WL_EINVAL for a bad configuration; WL_ERUNTIME when a thread
 * failed (message "file:line: block (x,y,z) thread (x,y,z) lane n: ..."),
 * for barrier divergence, and past max_steps; the device stays usable.
 * *out (may be NULL) receives the launch for its counters; free it with
 * wl_launch_free.  On failure *out is still set when the launch started. */
int wl_launch_run(wl_device *d, const wl_launch_cfg *cfg, wl_launch **out);
void wl_launch_free(wl_launch *l);

/*
 * Split launches (engine/sim/split.c; the bindings' dev:launch{jobs=}):
 * the blocks of a launch in parts that run apart, each on a copy of the
 * device as it was when the launch began, then joined in part order.
 *
 * wl_device_clone: a copy of src (configuration, allocations with their
 * ids, bytes and written bits; its L2 a view of src's), allocated
 * through ctx; src must not change, nor be freed, while copies made from
 * it are in use, and wl_device_prepare_clones(src) must have run first
 * (it makes src's L2, empty, when src has none): then copies of src can
 * be made on several threads at once, which only read it.  A part runs on a copy
 * with cfg.track and cfg.part_n/part_k set; wl_device_restore(copy, src,
 * part) then puts back what the part changed on the copy (the bytes it
 * wrote, the written bits, the L2), so that the copy equals src again
 * for the next part.  The launch of the part is kept until the join.
 *
 * wl_launch_conflicts: 1 when some part reads or writes a byte of global
 * or managed memory that another part writes -- the parts' blocks
 * communicated, and their separate runs mean nothing (the caller runs
 * the launch whole); why names the byte and the parts.  0: none did, and
 * the parts run one after the other is an execution of the launch: then
 * wl_device_apply(src, part) for each part in order writes its bytes and
 * written bits into src and looks its L2 sectors up again there (the
 * part's L2 hits and misses become those lookups': the parts' L2
 * counters are those of the parts run one after the other), and
 * wl_launch_merge(into, part) adds each later part's steps, counters per
 * site and findings to the first part's launch, which then reports the
 * whole launch.  wl_launch_touched: 1 when a tracked launch read (write
 * 0) or wrote (1) byte off of allocation id.
 */
int wl_device_prepare_clones(wl_device *src);
int wl_device_clone(wl_ctx *ctx, const wl_device *src, wl_device **out);
/* Makes the copy d (wl_device_clone's) a copy of src again, as it is
 * now: allocations that kept their size keep their buffers, and only
 * the pages that differ are written; its L2 a fresh overlay of src's.
 * 1 when src's configuration is another's (then make a new copy). */
int wl_device_sync(wl_device *d, const wl_device *src);
int wl_device_restore(wl_device *copy, const wl_device *src,
                      const wl_launch *part);
int wl_launch_conflicts(wl_launch *const *parts, int n, char *why,
                        size_t whylen);
int wl_device_apply(wl_device *d, wl_launch *part);
int wl_launch_merge(wl_launch *into, const wl_launch *part);
int wl_launch_touched(const wl_launch *l, int id, uint64_t off, int write);
/* Whether tracked launch a read or wrote a byte that b wrote, or wrote
 * one b read: the test of wl_launch_conflicts for one pair, cheap enough
 * to poll while a is running (wl_launch_run sets *out before it runs):
 * a part that met a finished part's writes can stop at once, since the
 * join would run the launch whole anyway. */
int wl_launch_overlaps(const wl_launch *a, const wl_launch *b);

/* Inside run_warp.  STALLED: runnable, but waiting out a gpu/sys-scope
 * fence.sc (the profile's stall: `stall` turns of its warp while the
 * others run on; a turn in which no lane of the warp runs is the memory
 * system's step, as a waiting thread's turn is in the sampler): the
 * bindings yield a lane that wl_kernel_fence left STALLED, and do not
 * resume it until it is RUNNABLE again. */
enum { WL_LANE_RUNNABLE, WL_LANE_BARRIER, WL_LANE_EXITED, WL_LANE_NONE,
       WL_LANE_WARPSYNC, WL_LANE_STALLED };
int wl_kernel_lane_state(const wl_launch *l, int block, int thread);
int wl_kernel_threads_per_block(const wl_launch *l);
/* A kernel access.  kind: */
enum { WL_ACC_LOAD, WL_ACC_STORE, WL_ACC_ATOMIC };
/* cache operators for global loads and stores */
enum { WL_CACHE_CA, WL_CACHE_CG, WL_CACHE_CS, WL_CACHE_CV, WL_CACHE_LDG,
       WL_CACHE_VOLATILE };
typedef struct wl_access {
  int kind;       /* WL_ACC_* */
  int space;      /* WL_SPACE_* */
  int id;         /* allocation (global/managed/constant/param), shared
                   * array (wl_kernel_shared) or local array */
  uint64_t off;   /* byte offset inside it */
  int width;      /* bytes: 1, 2, 4, 8 or 16 */
  int type;       /* WL_TYPE_* of the value (atomics) */
  int sem, scope; /* WL_SEM_*, WL_SCOPE_*; weak accesses: WL_SEM_WEAK */
  int cache;      /* WL_CACHE_* */
  int op;         /* atomics: WL_OP_* */
  int64_t a, b;   /* atomics: operands (carriers of type) */
  int line;       /* source line */
} wl_access;
/* Performs access a for thread `thread` of `block`.  Loads and atomics
 * write the bytes read (the old value) to data; stores read them from
 * data.  Returns 0, 1 when the lane's slice is used up (it should yield
 * after this access), or an error (out of bounds, misaligned, a write to
 * constant memory or parameters) with the message set for the lane. */
int wl_kernel_access(wl_launch *l, int block, int thread, const wl_access *a,
                     void *data);
/* The same access made by the lanes of `mask` of warp `warp` at once
 * (warp-vector kernels, which run one host function per warp): lane i
 * accesses byte offset off[i] (a->off is ignored), in lane order, each
 * with exactly the semantics of wl_kernel_access for its thread; for
 * atomics, ops (NULL: a->a and a->b for every lane) holds lane i's
 * operands at ops[i] and ops[32 + i].  data holds 32 values of a->width
 * bytes indexed by lane: loads and atomics write each active lane's
 * bytes read, stores read them.  The access is priced as one warp-wide
 * request at its site right away (no gathering): the counters are those
 * of a converged warp whose lanes made it one by one.  Every lane of
 * mask must be runnable (WL_EINVAL when a lane does not exist or the
 * first is not running).  Returns 0, 1 when an active lane's slice is
 * used up (the warp should yield after this access), or an error: the
 * first lane, in lane order, that fails (out of bounds, misaligned, a
 * write to constant memory...) stops the access with the message of
 * wl_kernel_access naming that lane's thread, the lanes before it having
 * made theirs.  An empty mask accesses nothing and counts nothing.
 * With deferred loads (wl_launch_cfg.defer) each lane's loads are
 * deferred and performed as its own (wl_kernel_replay_load), and each
 * lane of mask counts one event; a lane's deferred load that reads a new
 * value stops the whole access before any lane makes it: it returns
 * WL_KERNEL_REPLAY for that lane, or WL_KERNEL_WAIT when the store waits
 * for a lane's loads (the warp yields and makes it again). */
int wl_kernel_access_warp(wl_launch *l, int block, int warp, uint32_t mask,
                          const wl_access *a, const uint64_t off[32],
                          const int64_t *ops, void *data);
/* A fence (WL_SEM_SC/ACQ_REL, scope) by a thread. */
int wl_kernel_fence(wl_launch *l, int block, int thread, int sem, int scope,
                    int line);
/* The same fence by the lanes of mask of warp `warp` (warp-vector
 * kernels), each with the semantics of wl_kernel_fence for its thread;
 * every lane's deferred loads are settled before any lane fences, so
 * that WL_KERNEL_REPLAY (for one lane) leaves the whole fence undone.
 * The lanes of a warp-vector kernel run together: when the fence's
 * lanes wait it out (WL_LANE_STALLED), so do the warp's other runnable
 * lanes. */
int wl_kernel_fence_warp(wl_launch *l, int block, int warp, uint32_t mask,
                         int sem, int scope, int line);
/* Warp-level operations of per-thread kernels (__syncwarp and the
 * warp primitives): the lane waits (it must yield now) until every lane
 * of mask has reached one with the same mask; then each gets its result
 * (wl_kernel_warp_result).  A lane of mask that exited, or waits at a
 * different operation or at __syncthreads() while the others can no
 * longer run, stops the launch (deadlock).  Only WL_WARP_SYNC orders
 * memory (bar.warp.sync); the others synchronize execution only (PTX:
 * shfl.sync, vote.sync). */
enum { WL_WARP_SYNC, WL_WARP_SHFL, WL_WARP_SHFL_UP, WL_WARP_SHFL_DOWN,
       WL_WARP_SHFL_XOR, WL_WARP_BALLOT, WL_WARP_ANY, WL_WARP_ALL };
typedef struct wl_warp_op {
  int kind;       /* WL_WARP_* */
  uint32_t mask;  /* the lanes taking part (the calling lane among them) */
  int64_t value;  /* the lane's value (shfl) or predicate (votes) */
  int isint;      /* shfl: value is an integer (else a double's bits) */
  int arg, width; /* shfl: source lane, delta or lane mask; width */
  int line;
} wl_warp_op;
int wl_kernel_warp_op(wl_launch *l, int block, int thread,
                      const wl_warp_op *op);
/* The result of the lane's last warp operation: shfl: the value (and
 * *isint); ballot: the mask; any/all: 0 or 1. */
int64_t wl_kernel_warp_result(const wl_launch *l, int block, int thread,
                              int *isint);
/* The lane a shuffle of kind reads for `lane` (CUDA's rules: within the
 * lane's segment of width lanes; a source outside the segment, or
 * outside mask, gives the lane's own value, which CUDA leaves undefined
 * for the latter). */
int wl_warp_src(int kind, int lane, int arg, int width, uint32_t mask);
/* A warp-vector kernel's shuffle: lane `lane` of warp `warp` (mask: the
 * lanes taking part) reads lane src of its segment; when src is outside
 * the mask, the race checker records a WL_FIND_SHFL finding (per-thread
 * kernels get it from wl_kernel_warp_op).  Returns 0, or WL_ENOMEM. */
int wl_kernel_shfl_src(wl_launch *l, int block, int warp, int lane, int src,
                       int kind, uint32_t mask, int line);
/* __syncwarp(mask) of a warp-vector kernel, whose lanes of mask run
 * together: orders memory among them (the race checker). */
int wl_kernel_syncwarp_lanes(wl_launch *l, int block, int warp,
                             uint32_t mask, int line);
/* The order in which run_warp takes the lanes of a warp this turn (the
 * launch's schedule): fills order[0..n) and returns n (the lanes that
 * exist). */
int wl_kernel_lane_order(wl_launch *l, int block, int warp, int order[32]);
/* __syncthreads(): the lane waits (it must yield now). */
int wl_kernel_barrier(wl_launch *l, int block, int thread, int line);
/* The same barrier for the lanes of mask of warp `warp` (warp-vector
 * kernels), wl_kernel_barrier for each in lane order; every lane of
 * mask must be running (else WL_EINVAL, and no lane waits). */
int wl_kernel_barrier_warp(wl_launch *l, int block, int warp, uint32_t mask,
                           int line);
/* The lane's function returned. */
int wl_kernel_exit(wl_launch *l, int block, int thread);
/* A __shared__ array declared by a thread of a block: the block's k-th
 * declaration (k counted per thread) gets the same array in every
 * thread; the first thread sizes it.  Returns its id (or an error when
 * the block's shared memory is exceeded or the sizes disagree).
 * dynamic: the block's one extern region (id WL_SHARED_EXTERN, size the
 * launch's dynamic_shared; bytes is ignored), which callers carve into
 * typed views by offsets. */
enum { WL_SHARED_EXTERN = -2 };
int wl_kernel_shared(wl_launch *l, int block, int thread, uint64_t bytes,
                     int align, int dynamic, int line, int *id,
                     uint64_t *size);
/* A local array of the thread (zeroed). */
int wl_kernel_local(wl_launch *l, int block, int thread, uint64_t bytes,
                    int line, int *id);
/* Deferred loads (wl_launch_cfg.defer = 1), as the litmus sampler's:
 * with the profile's knob `defer`, a global load that would read L2
 * (not an acquire, not one served by L1 or the SM's store buffer) gives
 * the lane the value L2 holds now and stays pending; it is performed
 * later: before the lane's next access that overlaps it, before an
 * atomic, an acquire load or a release store of the lane, before its
 * other stores with chance `stwait`, before its gpu/sys-scope fences (a
 * cta-scope fence waits with chance `fcta`), and with chance `late` at
 * any access of the lane.  Performed late, it reads L2 then, except
 * where its own SM has written that location at L2 since it was issued
 * (then it keeps its first value).  If that value differs from the one
 * the lane got, the lane must be replayed before it goes on: the call
 * that performed it (wl_kernel_access or wl_kernel_fence) does nothing
 * else and returns WL_KERNEL_REPLAY; wl_kernel_replay_load says which of
 * the lane's events it was and the new value.  The host re-runs the
 * lane's code from its start, giving each event its recorded result and
 * the new value to that load; if it makes the same events up to where
 * the lane stopped, the replay takes the lane's place, else the lane
 * keeps the value it got (the load counts as performed at issue, an
 * execution the memory model allows either way).  Then it makes the call
 * again.  A lane's events are numbered from 0 in the order of its
 * wl_kernel_access and wl_kernel_fence calls that returned 0 or 1 (and
 * of the wl_kernel_access_warp and wl_kernel_fence_warp calls whose mask
 * held it: a warp-vector kernel's host replays the warp).
 * Loads pending at a barrier, a warp operation or the lane's exit keep
 * their first values (performed at issue).  wl_kernel_defer_lane(...,
 * 0) says the host cannot replay the lane any more (it did something
 * its log cannot repeat: a __shared__ declaration, a barrier...): none
 * of its loads is deferred from then on, and those pending keep their
 * first values. */
enum { WL_KERNEL_REPLAY = 2, WL_KERNEL_WAIT = 3 };
/* WL_KERNEL_WAIT (a store of a lane with deferred loads it must wait
 * for, with the profile's chance `linger`): nothing was done; the lane
 * should yield and make the same call when it runs again, its loads
 * still in flight meanwhile. */
/* The replay the last WL_KERNEL_REPLAY of thread asked for: its event
 * number in *ev, the new value's bytes in v (16 bytes of room); returns
 * the width, 0 when there is none. */
int wl_kernel_replay_load(const wl_launch *l, int block, int thread,
                          uint32_t *ev, void *v);
/* Whether thread's loads may be deferred (on: 1, the default of a
 * launch with cfg.defer; 0 is for good); on < 0 asks: 1 when they may
 * be, else 0. */
int wl_kernel_defer_lane(wl_launch *l, int block, int thread, int on);

/* Stops the launch with a message for thread of block at line:
 * "file:line: block (..) thread (..) warp w lane n: msg" (file NULL: the
 * launch's source).  Returns WL_ERUNTIME. */
int wl_kernel_fail(wl_launch *l, int block, int thread, const char *file,
                   int line, const char *msg);
const char *wl_launch_errmsg(const wl_launch *l);

/* Counters of a launch.  Per site (source line and access kind) and for
 * the whole kernel, named after Nsight Compute's metrics where it has a
 * name.  wl_launch_counter_name(i) for i = 0.. until NULL. */
const char *wl_launch_counter_name(int i);
int wl_launch_nsites(const wl_launch *l);
/* A site's line, space (WL_SPACE_*), kind (WL_ACC_*) and width. */
int wl_launch_site(const wl_launch *l, int site, int *line, int *space,
                   int *kind, int *width);
/* For a shared-memory site: the active lanes and their addresses (offsets
 * in the block's shared memory) of its costliest request, the first with
 * the most wavefronts, which it returns; WL_EINVAL for other sites. */
int wl_launch_site_worst(const wl_launch *l, int site, uint32_t *mask,
                         uint64_t addr[32]);
/* Counter i of a site (site -1: the whole kernel). */
uint64_t wl_launch_counter(const wl_launch *l, int site, int i);
const wl_occupancy *wl_launch_occupancy(const wl_launch *l);
uint64_t wl_launch_steps(const wl_launch *l);
/* The launch's bound on its steps (its max_steps, 0 made the default),
 * once it ran. */
uint64_t wl_launch_max_steps(const wl_launch *l);

/* ------------------------------------------------------------------ */
/* Cost models: one warp-wide memory instruction                       */
/* ------------------------------------------------------------------ */

/* What the simulated device prices for every warp-wide request, usable
 * on its own (Lua: wl.bank_access, wl.global_access,
 * wl.constant_access).  Fitted to shared/hw/h100 and the rows measured
 * in tests/hw/shared_wavefronts_more.tsv. */
typedef struct wl_warp_req {
  uint32_t active;   /* lanes that take part (bit i = lane i) */
  int width;         /* bytes per lane: 1, 2, 4, 8 or 16 */
  int store;         /* 0 load, 1 store (atomics: treat as store) */
  uint64_t addr[32]; /* byte address (or shared-window offset) per lane */
} wl_warp_req;

/* The first active lane whose address is not a multiple of the width, or
 * -1 when every active lane is aligned (or the width is invalid: see
 * wl_req_valid_width).  The caller turns it into a per-lane report. */
int wl_req_misaligned(const wl_warp_req *r);
/* 1 when width is 1, 2, 4, 8 or 16. */
int wl_req_valid_width(int width);

/* Shared memory banks. */

/* bank = (addr / bank_bytes) % nbanks; a "word" is bank_bytes wide.
 * 32 x 4 is the default (sm_5x..sm_90), 32 x 8 Kepler's 8-byte mode,
 * 5 x 4 the toy layout of the padding example.  nbanks 1..64. */
typedef struct wl_bank_cfg {
  int nbanks;
  int bank_bytes;
} wl_bank_cfg;

#define WL_BANK_MAX 64

typedef struct wl_shared_cost {
  int wavefronts; /* l1tex__data_pipe_lsu_wavefronts_mem_shared_op_* */
  int conflicts;  /* l1tex__data_bank_conflicts_..._op_*: wavefronts - ideal */
  int ideal;      /* the wavefronts the access needs without conflicts */
  int merged;     /* 8/16-byte loads: 1 when packed by lane pairs, two
                   * passes of lanes priced as one (banks.c) */
  int bad_lane;   /* on WL_EINVAL: the misaligned lane, else -1 */
  uint32_t bank_words[WL_BANK_MAX]; /* distinct words per bank over the
                                     * whole warp, for heatmaps */
} wl_shared_cost;

/*
 * Prices one shared-memory instruction (the rule is spelled out at the
 * top of banks.c).  Returns 0, or WL_EINVAL for a bad bank configuration
 * or width (bad_lane -1) or a misaligned active lane (bad_lane = that
 * lane); *out is zeroed first in every case.  No active lanes: 0
 * wavefronts.
 */
int wl_price_shared(const wl_bank_cfg *cfg, const wl_warp_req *r,
                    wl_shared_cost *out);

/* Global and constant memory. */

#define WL_SECTOR_BYTES 32
#define WL_LINE_BYTES 128

typedef struct wl_global_cost {
  int requests;         /* 1 per warp instruction with an active lane, else 0 */
  int sectors;          /* distinct 32-byte sectors */
  int lines;            /* distinct 128-byte lines */
  int bad_lane;         /* on WL_EINVAL: the misaligned lane, else -1 */
  int nsec;             /* entries of sector[] (== sectors) */
  uint64_t sector[128]; /* the distinct sector addresses, ascending */
} wl_global_cost;

/* Prices one global-memory instruction (shared/hw/h100/global_sectors.tsv).
 * Returns 0, or WL_EINVAL (bad width: bad_lane -1; misaligned lane). */
int wl_price_global(const wl_warp_req *r, wl_global_cost *out);

/* Constant memory: the number of distinct addresses among active lanes
 * (serialized requests; 1 for a broadcast, 0 with no active lane). */
int wl_const_requests(const wl_warp_req *r);

/* Estimated cycles of one warp-wide constant load issuing `distinct`
 * serialized requests of which `misses` missed the constant cache: the
 * linear fit to shared/hw/h100/constant_cache.tsv documented in
 * coalesce.c (base + per request + per miss). */
double wl_const_cycles(int distinct, int misses);
#define WL_CONST_BASE_CYCLES 46.06
#define WL_CONST_REQ_CYCLES 11.27
#define WL_CONST_MISS_CYCLES 69.93

#ifdef __cplusplus
}
#endif
#endif /* WARPLAB_H */
