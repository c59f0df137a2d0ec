/* ir.h -- the instruction set shared by the .litmus reader, the Lua
 * bindings and the explorer: PTX memory instructions with semantics and
 * scope, register arithmetic, branches and barriers. */
#ifndef WL_IR_H
#define WL_IR_H

#include <stdint.h>

#include "../common/internal.h"
#include "strength.h"
#include "thread.h"

#define WL_MAX_THREADS 64
#define WL_MAX_REGS 64
#define WL_MAX_LOCS 64
#define WL_MAX_ALIASES 64

/* Proxies of PTX 7.5: WL_PROXY_* in warplab.h (the cat sets GEN SUR TEX
 * CON).  OP_FENCE kinds: fence.sem.scope; fence.proxy.<proxy> (insn proxy);
 * fence.proxy.alias. */
enum { PFENCE_NONE, PFENCE_PROXY, PFENCE_ALIAS };

/* Memory-order qualifiers (PTX ".sem") and scopes: WL_SEM_* and
 * WL_SCOPE_* (warplab.h, the public names). */

enum {
  OP_NOP,    /* a label */
  OP_MOV,    /* dst = a (Dat3M writes "ld r0, 2") */
  OP_ALU,    /* dst = a <aop> b */
  OP_LD,     /* dst = [loc] */
  OP_ST,     /* [loc] = a */
  OP_ATOM,   /* dst = [loc]; [loc] = old <aop> a  (cas: b is the new value) */
  OP_RED,    /* [loc] = [loc] <aop> a */
  OP_FENCE,  /* fence.sem.scope */
  OP_BAR,    /* barrier */
  OP_BRANCH, /* if (a <cond> b) goto target */
  OP_GOTO
};

/* Operations of atom/red and of register arithmetic. */
enum {
  AOP_ADD,
  AOP_SUB,
  AOP_MUL,
  AOP_DIV,
  AOP_REM,
  AOP_AND,
  AOP_OR,
  AOP_XOR,
  AOP_MIN,
  AOP_MAX,
  AOP_INC,
  AOP_DEC,
  AOP_EXCH,
  AOP_CAS,
  AOP_SHL,
  AOP_SHR
};

enum { COND_EQ, COND_NE, COND_LT, COND_LE, COND_GT, COND_GE };

/* Barrier flavours.  In Dat3M's dialect "bar.cta.sync I{, ID{, N}}" names
 * a static instance I, an optional logical barrier ID and an optional
 * thread count N; the PTX form "bar.sync a{, b}" names barrier a and the
 * thread count b (default: every thread of the CTA). */
enum { BAR_SYNC, BAR_ARRIVE };
enum { BARNS_INSTANCE, BARNS_NAMED, BARNS_PTX };

typedef struct wl_operand {
  uint8_t is_reg;
  int reg;     /* when is_reg */
  int64_t imm; /* otherwise */
} wl_operand;

typedef struct wl_insn {
  uint8_t op, sem, scope, aop, cond;
  uint8_t bar_kind, bar_ns; /* OP_BAR */
  uint8_t has_count;        /* OP_BAR: b/N given */
  uint8_t proxy;  /* WL_PROXY_*: of a memory access or of fence.proxy */
  uint8_t pfence; /* OP_FENCE: PFENCE_* (sem and scope are 0 unless
                   * PFENCE_NONE) */
  int dst;        /* register, or -1 */
  int loc;        /* physical location index, or -1 */
  int alias;      /* 0, or 1 + the alias (wl_litmus.alias*) the access
                   * names: loc is then the alias's physical location */
  wl_operand a, b;          /* value operands (bar: id, count) */
  int64_t bar_inst;         /* OP_BAR, BARNS_INSTANCE/NAMED: instance */
  int target;               /* branch target (instruction index) */
  int line, col;            /* source position */
} wl_insn;

typedef struct wl_thread {
  char name[16]; /* "P0" */
  int cta, gpu;  /* placement */
  int sm1;       /* 1 + the SM its CTA runs on ("P1@cta 1,gpu 0,sm 0",
                  * warplab's own); 0: an SM of its own */
  wl_insn *insns;
  int ninsns, cap;
  int nregs;
  char *regnames[WL_MAX_REGS];
  /* WL_TYPE_* of each register's values: int64, except the results of
   * a callback thread, typed by their first report (wl__thread_result) */
  uint8_t regtype[WL_MAX_REGS];
  uint8_t regtyped[WL_MAX_REGS]; /* a report fixed regtype (a register a
                                  * condition names exists before) */
  int64_t reginit[WL_MAX_REGS];
  /* where a .litmus file sets reginit ("P0:r1 = 5": the register's
   * line and column); 0 where not given or not from a file */
  int reginitline[WL_MAX_REGS], reginitcol[WL_MAX_REGS];
  int line; /* where the thread is declared */
  /* threads built instruction by instruction keep their labels until
   * the test is explored (branches may jump forward) */
  struct wl_label *labels;
  int nlabels, labcap;
  /* a thread given as a callback instead of instructions */
  wl_thread_fn fn;
  void *fn_ud;
  /* threads with the same non-zero code run the same program (one
   * function given to several threads, as a kernel's threads):
   * wl_litmus_set_thread_code */
  int code;
} wl_thread;

/* A callback thread reports through the wl_tb_* calls: their interface,
 * which every engine that runs callbacks implements, is in thread.h. */

typedef struct wl_label {
  char name[32];
  int at; /* instruction index, -1 while only jumped to */
  int line, col;
} wl_label;

/* Condition: a proposition over final registers and memory. */
enum { CN_TRUE, CN_AND, CN_OR, CN_NOT, CN_CMP };
enum { AT_CONST, AT_REG, AT_LOC };

typedef struct wl_atom {
  uint8_t kind;
  int thread, reg, loc;
  int64_t val;
  int line, col; /* AT_CONST: where the constant is written (0: unknown) */
} wl_atom;

/* A condition tree is at most WL_COND_MAX_DEPTH deep (the parser refuses
 * deeper ones), so that wl__cond_eval and every other pass that recurses
 * over it has a bounded stack; the parser's own recursion (parentheses
 * and negations) is bounded by the same number. */
#define WL_COND_MAX_DEPTH 1000

typedef struct wl_cnode {
  uint8_t kind, cmp; /* cmp: COND_* */
  uint16_t depth;    /* 1 for a leaf */
  int l, r;          /* children (node indices) */
  wl_atom a, b;      /* CN_CMP */
} wl_cnode;

struct wl_litmus {
  wl_ctx *ctx;
  char *name;
  char *filename;
  int nthreads;
  wl_thread threads[WL_MAX_THREADS];
  int nlocs;
  char *locnames[WL_MAX_LOCS];
  int64_t locinit[WL_MAX_LOCS];
  /* where a .litmus file gives locinit (the value's line and column);
   * 0 where not given or not from a file */
  int initline[WL_MAX_LOCS], initcol[WL_MAX_LOCS];
  uint8_t loctype[WL_MAX_LOCS];   /* WL_TYPE_* */
  uint8_t locshared[WL_MAX_LOCS]; /* __shared__: one instance per CTA */
  /* the GPU whose memory holds the location ("x = 0 @ gpu 1"); -1: not
   * given, which means the GPU of the first thread (wl__loc_home) */
  int8_t lochome[WL_MAX_LOCS];
  /* condition */
  int cond_kind; /* wl_cond_kind */
  int has_cond;
  wl_cnode *cnodes;
  int ncnodes, cnodes_cap;
  int cond_root;
  char *cond_text; /* as written, normalised spaces */
  /* MD5 of the normalised text from '{' on (hash.c); "" when the test
   * was built, not read */
  char hash[33];
  /* extra observed variables ("locations [...]") */
  wl_atom observed[64];
  int nobserved;
  /* PTX 7.5 aliases ("y @ generic aliases x"): other names, with their
   * own virtual address, of a physical location.  They are not
   * locations: nlocs counts physical locations only, so final states
   * hold each physical location once. */
  int naliases;
  char *aliasnames[WL_MAX_ALIASES];
  int aliasloc[WL_MAX_ALIASES];      /* the physical location */
  int aliasvloc[WL_MAX_ALIASES];     /* the virtual address (wl__vloc) */
  uint8_t aliasproxy[WL_MAX_ALIASES]; /* WL_PROXY_* as declared */
  int aliasline[WL_MAX_ALIASES];
  /* where the first PTX 7.5 construct is (alias or proxy instruction),
   * for wl__litmus_check_v60's message; 0 when there is none */
  int v75line, v75col;
  uint8_t v75alias; /* that construct is an alias declaration */
};

/* The GPU whose memory holds location loc: its declared home, else the
 * GPU of thread P0. */
int wl__loc_home(const wl_litmus *t, int loc);

/* Finds or adds a register / location by name; -1 when full. */
int wl__thread_reg(wl_ctx *ctx, wl_thread *t, const char *name, size_t n);
/* Finds or adds the register of a callback's result `name` of value type
 * `type` (WL_TYPE_*): the first report of a name fixes its type, so
 * that every state carries its values alike.  The register's index, -1
 * when full, -2 out of memory, -3 when it was reported with another type
 * before (*was gets that type, which stays). */
int wl__thread_result(wl_ctx *ctx, wl_thread *t, const char *name, int type,
                      int *was);
/* WL_EINVAL with "result 'A' of P0 is an int64 in one trace and a
 * double in another" (was: its type so far; wl__thread_result's -3). */
int wl__result_type_err(wl_ctx *ctx, const char *thread, const char *name,
                        int was, int type);
/* "int64", "float"... for a WL_TYPE_* */
const char *wl__type_name(int type);
/* Appends carrier v of a value of type as a number: integers in
 * decimal, floating-point values in the fewest digits that read back as
 * the same value (NaN and infinities quoted, JSON having no literal). */
void wl__buf_value(wl_buf *b, int type, int64_t v);
int wl__litmus_loc(wl_litmus *t, const char *name, size_t n);
/* Evaluates the condition on a final state (regs[thread][reg], mem[loc]).*/
int wl__cond_eval(const wl_litmus *t, int node, int64_t *const *regs,
                  const int64_t *mem);
/* Register arithmetic and the atomic operations, on 64-bit values. */
int64_t wl__aop_apply(int aop, int64_t old, int64_t a, int64_t b);
/* The same in a location's value type (WL_TYPE_*). */
int64_t wl__aop_typed(int type, int aop, int64_t old, int64_t a, int64_t b);
int wl__cond_holds(int cond, int64_t a, int64_t b);
/* Whether scope (WL_SCOPE_*) of an event of thread a includes thread b: the
 * same CTA (and GPU), the same GPU, or any thread; 0 for WL_SCOPE_NONE. */
int wl__scope_includes(int scope, const wl_thread *a, const wl_thread *b);
/* Whether each of two operations' scopes (sa of thread a, sb of thread
 * b) includes the other's thread: the scope half of morally strong
 * (strength.h's wl__morally_strong judges the whole). */
int wl__scopes_meet(int sa, const wl_thread *a, int sb, const wl_thread *b);
int wl__litmus_check_labels(const wl_litmus *t);
/* WL_EUNSUPPORTED (with "file:line:col: ..." naming the first alias or
 * proxy instruction) when t uses PTX 7.5 proxies or aliases, which the
 * built-in explorer and the simulator do not model; 0 otherwise. */
int wl__litmus_check_v60(const wl_litmus *t, const char *who);
/* The virtual address of an access: the vloc relation of ptx-v7.5.cat
 * relates accesses with equal virtual addresses.  A location's own
 * virtual address is its index; a generic alias has its own
 * (WL_MAX_LOCS + alias index); a non-generic alias ("s @ surface aliases
 * x") has the virtual address of what it aliases, as in Dat3M. */
int wl__insn_vloc(const wl_litmus *t, const wl_insn *in);

/* A final state's values: every register of every thread, then every
 * location.  Results and histograms share this layout. */
typedef struct wl_layout {
  int nvals;
  int regoff[WL_MAX_THREADS + 1]; /* regoff[nthreads]: the locations */
} wl_layout;
void wl__layout_init(wl_layout *l, const wl_litmus *t);
/* the thread of a register value, -1 for a location or a bad index */
int wl__layout_thread(const wl_layout *l, const wl_litmus *t, int var);
/* its register or location name, NULL for a bad index */
const char *wl__layout_name(const wl_layout *l, const wl_litmus *t, int var);
/* its value type (WL_TYPE_*), WL_EINVAL for a bad index */
int wl__layout_type(const wl_layout *l, const wl_litmus *t, int var);

#endif
