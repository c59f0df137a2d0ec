/* gen.h -- what the files of the litmus-test generator share: a test as
 * the generator builds it (threads of operations over location and
 * register indices, a condition in disjunctive form), the edges of
 * cycles, and the PRNG.  Names are given only when a test is printed,
 * so a variant is the same test printed under other names.  Not
 * installed. */
#ifndef WL_GEN_H
#define WL_GEN_H

#include <stdint.h>

#include "../common/internal.h"

#define GMAX_T WL_GEN_MAX_THREADS
#define GMAX_L WL_GEN_MAX_LOCS
#define GMAX_R WL_GEN_MAX_REGS
#define GMAX_OPS 64   /* operations of one thread, labels included */
#define GMAX_ATOMS 16 /* atoms of a condition, over all clauses */
#define GMAX_CYCLE 12 /* edges of a cycle */
#define GMAX_VOCAB 160

/* Operations of a generated thread. */
enum { G_LD, G_ST, G_ATOM, G_RED, G_FENCE, G_BAR, G_ALU, G_BR, G_LABEL };

typedef struct gop {
  uint8_t kind;
  uint8_t sem, scope; /* WL_SEM_*, WL_SCOPE_*; atom with sem WEAK: the
                       * default .relaxed.gpu, printed bare */
  uint8_t aop;        /* WL_OP_* (atom, red, alu: ADD or XOR) */
  uint8_t ne;         /* G_BR: bne (else beq) */
  int8_t loc;         /* location index, or -1 */
  int8_t dst;         /* register written, or -1 */
  int8_t src;         /* register operand (st value, alu, br), or -1 */
  int64_t a, b;       /* immediates: st value, atom/red operand, cas new
                       * value, alu operand, br comparand */
  int label;          /* G_BR target, G_LABEL: its number */
} gop;

typedef struct gthread {
  int cta, gpu;
  int nops, nregs;
  gop op[GMAX_OPS];
} gthread;

/* thread -1: the final value of location idx; else register idx of
 * thread.  ne: != instead of ==. */
typedef struct gatom {
  int thread, idx, ne;
  int64_t v;
} gatom;

typedef struct gtest {
  char name[128];
  char comment[200];
  int nthreads, nlocs;
  gthread th[GMAX_T];
  int kind;          /* WL_COND_* */
  int nclauses;      /* 1 or 2: a disjunction of conjunctions */
  int nat[2];
  gatom at[2][GMAX_ATOMS];
} gtest;

/* Names a printed test uses: thread order[i] of the test is printed as
 * P<i>; location k is named pool name locname[k] and declared in the
 * order of decl[]; register k of (original) thread t is r<regname[t][k]>. */
typedef struct gnames {
  int order[GMAX_T];
  int locname[GMAX_L];
  int decl[GMAX_L];
  int regname[GMAX_T][GMAX_R];
} gnames;

extern const char *const wl__gen_locpool[GMAX_L];
void wl__gen_identity(gnames *n);
/* Appends the test's text to b. */
void wl__gen_print(const gtest *t, const gnames *n, wl_buf *b);

/* PRNG: splitmix64 over the state *s. */
uint64_t wl__gen_rand(uint64_t *s);
/* Uniform in 0..n-1 (n >= 1). */
int wl__gen_below(uint64_t *s, int n);

/* Edges of cycles. */
enum { EK_PO, EK_FENCE, EK_DATA, EK_CTRL, EK_RF, EK_FR, EK_CO, EK_RMW };
typedef struct gedge {
  uint8_t kind;
  char src, dst;   /* 'R' or 'W' */
  uint8_t ext;     /* between two threads */
  uint8_t same;    /* same location */
  uint8_t fsem;    /* EK_FENCE: WL_SEM_SC or WL_SEM_ACQ_REL */
  uint8_t fscope;  /* EK_FENCE: WL_SCOPE_* */
} gedge;

/* Annotation schemes of a cycle's accesses. */
enum { ANN_WEAK, ANN_RLX, ANN_RA, ANN_MIX };
typedef struct gann {
  int kind, scope; /* scope: WL_SCOPE_* for RLX and RA */
} gann;
enum { PL_CTA, PL_GPU, PL_SYS, PL_MIX };

/* Writes an edge's name ("PodWR") into buf. */
void wl__gen_edge_name(const gedge *e, char *buf, size_t n);
/* Parses a list of edge words (separated by spaces, commas or '+') for
 * the options field `field`: a cycle (star 0) or a vocabulary (star 1:
 * '*' stands for R and W; duplicates dropped).  Returns 0, or WL_EINVAL
 * / WL_EUNSUPPORTED with the context's message set. */
int wl__gen_parse_edges(wl_ctx *ctx, const char *field, const char *text,
                        int star, gedge *out, int max, int *n);
/*
 * Builds the test of cycle c[0..n-1] under annotation ann and placement
 * place (mix draws from rng; scopes: WL_GEN_SCOPE_* bits for mix).
 * Returns 0, or -1 when the cycle makes no test, with the reason in why.
 * Sets t->name to the shape's name; the caller appends the rest.
 */
int wl__gen_cycle_build(const gedge *c, int n, const gann *ann, int place,
                        unsigned scopes, uint64_t *rng, gtest *t, char *why,
                        size_t whylen);
/* Places the threads of t (PL_*). */
void wl__gen_place(gtest *t, int place, uint64_t *rng);

/* The classic shapes: names and cycles, NULL-terminated. */
extern const char *const wl__gen_family_names[];
extern const char *const wl__gen_family_cycles[];

/* Builds a random program (the options are checked). */
void wl__gen_random(const wl_gen_opts *o, uint64_t *rng, gtest *t);
/* Builds a test of interchangeable threads (WL_GEN_COPIES; the options
 * are checked). */
void wl__gen_copies(const wl_gen_opts *o, uint64_t *rng, gtest *t);

#endif
