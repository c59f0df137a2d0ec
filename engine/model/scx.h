/* scx.h -- the sequentially consistent search's state (model/sc.c
 * the search, model/sccb.c the replays of callback threads): the
 * per-test layout of a state blob and its accessors.  Internal to the
 * two files; scsearch.h is the search's face. */
#ifndef WL_SCX_H
#define WL_SCX_H

#include "model.h"
#include "scsearch.h"

#define SC_MAXKEYS 16         /* barriers in use in one execution */
#define SC_SNAPS 16           /* loop-head snapshots kept per thread */
#define SC_MAXSTATES 4000000u /* memoised states */
/* unbounded: backward jumps in a row with no visible step before the
 * cut */
#define SC_LOCALBACKS 100000

/* results of the internal steps, beside the WL_E* codes (< 0) */
enum { SC_OK = 0, SC_DEAD = 1 };
/* run_local's verdicts */
enum { RL_STOP, RL_CUT, RL_DROP, RL_NOTTAIL };

/* A callback thread's event, as a replay reports it. */
enum { CE_LOAD, CE_STORE, CE_ATOM, CE_FENCE, CE_BAR };
typedef struct scev {
  int32_t kind, loc, sem, scope, op, line;
  int64_t a, b;
} scev;

typedef struct scthr {
  int32_t pc;    /* instruction threads: the next instruction */
  int32_t done;  /* the thread ended */
  int32_t wait;  /* the barrier key it waits at, -1 */
  int32_t nsnap; /* loop-head snapshots since its last write */
} scthr;

typedef struct sckey {
  int32_t ns, cta, gpu, has_count;
  int64_t id, count;
  uint64_t guess; /* Dat3M, no count: the threads guessed to use it */
  uint64_t used;  /* the threads that arrived so far */
  int32_t nopen;  /* arrivals in the open phase */
  int32_t pad;
} sckey;

typedef struct sccb {
  int32_t nexec;   /* events performed */
  int32_t nlv;     /* values its loads returned (the memo key) */
  int32_t nev;     /* events learnt from replays */
  int32_t fin;     /* the callback returns after its nev events */
  int32_t cutat;   /* the bound cuts it at this event, -1 */
  int32_t nomatch; /* (fin) a result the sink has no slot for
                    * (WL__SC_NOMATCH): its final states are dropped */
  int64_t lv[WL_MAX_TEV];
  scev ev[WL_MAX_TEV];
  int64_t res[WL_MAX_REGS]; /* its registers when it returns */
} sccb;

/* a memo slot: the key's hash, its offset in the arena + 1 (0: empty) */
typedef struct scslot {
  uint64_t h;
  size_t off;
} scslot;

typedef struct scx {
  wl_ctx *ctx;
  const wl_litmus *t;
  wl__sc_params *p;
  int unroll;
  int bound_hit;
  size_t maxstates;
  int maxkeys; /* room for barriers: SC_MAXKEYS, 0 without any */
  /* the thread whose step made the state (the others are in normal
   * form already), or -1: all */
  int moved;
  int headkey;         /* no snapshots, callbacks or barriers: the memo
                        * key is the blob's head as it is */
  unsigned long polls; /* states entered, for polling p->stop */
  /* blob layout */
  size_t size, off_mem, off_regs, off_thr, off_backs, off_snaps, off_keys,
      off_cb;
  int regoff[WL_MAX_THREADS];     /* into the registers */
  int backoff[WL_MAX_THREADS];    /* into the backward-branch counts */
  int backn[WL_MAX_THREADS];      /* backward branches of each thread */
  int snapoff[WL_MAX_THREADS];    /* into the snapshots (int64 words) */
  int cbidx[WL_MAX_THREADS];      /* callback slot, -1 */
  int *bidx[WL_MAX_THREADS];      /* per pc: backward-branch index, -1 */
  uint8_t *lhead[WL_MAX_THREADS]; /* per pc: a loop head */
  /* the search stack: a blob per depth */
  uint8_t **stack;
  int nstack;
  /* memo: keys in an arena, a hash table of offset + 1 */
  uint8_t *key;
  size_t keycap;
  uint8_t *arena;
  size_t narena, arenacap;
  scslot *tab;
  size_t tabcap, nmemo;
} scx;

/* ---------------------------------------------------------------- */
/* The blob                                                          */

static inline int64_t *s_mem(const scx *c, uint8_t *s) {
  return (int64_t *)(void *)(s + c->off_mem);
}
static inline int64_t *s_regs(const scx *c, uint8_t *s, int th) {
  return (int64_t *)(void *)(s + c->off_regs) + c->regoff[th];
}
static inline scthr *s_thr(const scx *c, uint8_t *s, int th) {
  return (scthr *)(void *)(s + c->off_thr) + th;
}
static inline int32_t *s_backs(const scx *c, uint8_t *s, int th) {
  return (int32_t *)(void *)(s + c->off_backs) + c->backoff[th];
}
/* snapshot k of thread th: pc, then its registers */
static inline int64_t *s_snap(const scx *c, uint8_t *s, int th, int k) {
  int nr = c->t->threads[th].nregs;
  return (int64_t *)(void *)(s + c->off_snaps) + c->snapoff[th] +
         (size_t)k * (size_t)(nr + 1);
}
static inline int32_t *s_nkeys(const scx *c, uint8_t *s) {
  return (int32_t *)(void *)(s + c->off_keys);
}
static inline sckey *s_key(const scx *c, uint8_t *s, int k) {
  return (sckey *)(void *)(s + c->off_keys + 8) + k;
}
static inline sccb *s_cb(const scx *c, uint8_t *s, int th) {
  return (sccb *)(void *)(s + c->off_cb) + c->cbidx[th];
}

static inline size_t up8(size_t n) { return (n + 7) & ~(size_t)7; }

static inline int64_t opv(const int64_t *regs, const wl_operand *o) {
  return o->is_reg ? regs[o->reg] : o->imm;
}

static inline const char *tname(const scx *c) {
  return c->t->filename ? c->t->filename : c->t->name;
}

/* Re-runs callback thread th of state s with the values its loads
 * returned so far, to learn its next events, where the bound cuts it,
 * or that it returns (sccb.c). */
int wl__sc_learn(scx *c, uint8_t *s, int th);

#endif
