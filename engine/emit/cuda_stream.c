/* cuda_stream.c -- warplab cuda --stream K: an MP test across two GPUs
 * as a streaming program (harness_stream.cu), where each writer/reader
 * pair runs K rounds back to back instead of one instance per round.
 * The harness that showed __threadfence() failing across two GPUs
 * (issue 22) streams this way: the reader, polling the flag, meets the
 * writer's stores as they arrive, which one-shot instances held in
 * step rarely do.
 *
 * The test must be an MP shape: two threads on GPUs 0 and 1, the
 * writer "st data, V; [fence;] st flag, W", the reader "ld r, flag;
 * [fence;] ld s, data", data and flag distinct locations starting at 0,
 * V and W constants other than 0.  Everything else is refused with a
 * message naming what the stream needs.  The test's own instructions
 * (semantics, scope) do the stream's stores, fences and loads; round k
 * stores k instead of V and W.  Each read is printed as one run of the
 * one-shot test (a histogram the compare command reads): flag register
 * W, data register V, or data's initial value when the data was older
 * than the flag. */
#include <stdio.h>
#include <string.h>

#include "../program/ir.h"
#include "emit.h"

int wl__cuda_two_opts(wl_ctx *ctx, const wl_cuda_opts *o, int two) {
  const char *one = two ? wl__cuda_one_gpu_setting(o) : NULL;
  if (one != NULL)
    return wl__err(ctx, WL_EINVAL, "cuda: %s is a setting of the one-GPU "
                   "harness; a two-GPU test's program has its own (slots "
                   "held to rounds, or --stream)", one);
  if (o->stream > 0 && !two)
    return wl__err(ctx, WL_EINVAL, "cuda: --stream needs a test whose "
                   "threads are on two GPUs (an MP shape)");
  return 0;
}

/* The MP shape's parts. */
typedef struct mp {
  const wl_insn *st_data, *w_fence, *st_flag; /* writer */
  const wl_insn *ld_flag, *r_fence, *ld_data; /* reader */
  int w, r;                                   /* the threads */
} mp;

/* Thread th's instructions without nops: at most 3 into in[], their
 * count (4: more than 3). */
static int body(const wl_thread *tt, const wl_insn **in) {
  int i, n = 0;
  for (i = 0; i < tt->ninsns; i++)
    if (tt->insns[i].op != OP_NOP) {
      if (n == 3)
        return 4;
      in[n++] = &tt->insns[i];
    }
  return n;
}

/* Whether in is a fence the program can write (fence.sc or
 * fence.acq_rel, no proxy fence). */
static int plain_fence(const wl_insn *in) {
  return in->op == OP_FENCE && in->pfence == PFENCE_NONE &&
         (in->sem == WL_SEM_SC || in->sem == WL_SEM_ACQ_REL);
}

/* Splits a thread's body into access, optional fence, access. */
static int split(const wl_thread *tt, int op, const wl_insn **a,
                 const wl_insn **f, const wl_insn **b) {
  const wl_insn *in[3];
  int n = body(tt, in);
  *f = NULL;
  if (n == 2 && in[0]->op == op && in[1]->op == op) {
    *a = in[0];
    *b = in[1];
    return 1;
  }
  if (n == 3 && in[0]->op == op && plain_fence(in[1]) && in[2]->op == op) {
    *a = in[0];
    *f = in[1];
    *b = in[2];
    return 1;
  }
  return 0;
}

static int access_ok(const wl_litmus *t, const wl_insn *in) {
  return in->sem != WL_SEM_SC && in->proxy == WL_PROXY_GEN &&
         in->alias == 0 && in->loc >= 0 && t->locinit[in->loc] == 0 &&
         (in->op == OP_LD || (!in->a.is_reg && in->a.imm != 0 &&
                              in->a.imm >= INT32_MIN &&
                              in->a.imm <= INT32_MAX));
}

static int find_mp(const wl_litmus *t, mp *s) {
  int w;
  if (t->nthreads != 2 || t->threads[0].gpu == t->threads[1].gpu)
    return 0;
  for (w = 0; w < 2; w++) {
    s->w = w;
    s->r = 1 - w;
    if (split(&t->threads[w], OP_ST, &s->st_data, &s->w_fence,
              &s->st_flag) &&
        split(&t->threads[s->r], OP_LD, &s->ld_flag, &s->r_fence,
              &s->ld_data))
      break;
  }
  return w < 2 && s->st_data->loc != s->st_flag->loc &&
         s->ld_flag->loc == s->st_flag->loc &&
         s->ld_data->loc == s->st_data->loc &&
         s->ld_flag->dst != s->ld_data->dst && access_ok(t, s->st_data) &&
         access_ok(t, s->st_flag) && access_ok(t, s->ld_flag) &&
         access_ok(t, s->ld_data);
}

/* ".relaxed.sys", ".weak" (a load or store's qualifiers, as cuda.c
 * writes them) */
static void put_quals(wl_buf *b, const wl_insn *in) {
  if (in->sem == WL_SEM_WEAK)
    wl__buf_puts(b, ".weak");
  else
    wl__buf_printf(b, ".%s.%s", wl__cuda_sem_word(in->sem),
                   wl__cuda_scope_word(in->scope));
}

static void put_store(wl_buf *b, const char *name, const wl_insn *in) {
  wl__buf_printf(b, "static __device__ __forceinline__ void %s(unsigned *a, "
                    "unsigned v) {\n  asm volatile(\"st", name);
  put_quals(b, in);
  wl__buf_puts(b, ".global.b32 [%0], %1;\" ::\"l\"(a), \"r\"(v) : "
                  "\"memory\");\n}\n");
}

static void put_load(wl_buf *b, const char *name, const wl_insn *in) {
  wl__buf_printf(b, "static __device__ __forceinline__ unsigned %s("
                    "const unsigned *a) {\n  unsigned v;\n  asm volatile("
                    "\"ld", name);
  put_quals(b, in);
  wl__buf_puts(b, ".global.b32 %0, [%1];\" : \"=r\"(v) : \"l\"(a) : "
                  "\"memory\");\n  return v;\n}\n");
}

static void put_fence(wl_buf *b, const char *name, const wl_insn *in) {
  wl__buf_printf(b, "static __device__ __forceinline__ void %s(void) {", name);
  if (in != NULL)
    wl__buf_printf(b, "\n  asm volatile(\"fence.%s.%s;\" ::: \"memory\");\n",
                   in->sem == WL_SEM_SC ? "sc" : "acq_rel",
                   wl__cuda_scope_word(in->scope));
  wl__buf_puts(b, "}\n");
}

/* The one-shot outcome a read stands for (weak: data older than the
 * flag) into v (the layout's order), and whether the condition holds. */
static int outcome(const wl_litmus *t, const wl_layout *lay, const mp *s,
                   int weak, int64_t *v) {
  int64_t *regs[WL_MAX_THREADS];
  int th, r, l;
  for (th = 0; th < t->nthreads; th++) {
    regs[th] = v + lay->regoff[th];
    for (r = 0; r < t->threads[th].nregs; r++)
      regs[th][r] = t->threads[th].reginit[r];
  }
  regs[s->r][s->ld_flag->dst] = s->st_flag->a.imm;
  regs[s->r][s->ld_data->dst] =
      weak ? t->locinit[s->st_data->loc] : s->st_data->a.imm;
  for (l = 0; l < t->nlocs; l++)
    v[lay->regoff[t->nthreads] + l] = t->locinit[l];
  v[lay->regoff[t->nthreads] + s->st_data->loc] = s->st_data->a.imm;
  v[lay->regoff[t->nthreads] + s->st_flag->loc] = s->st_flag->a.imm;
  return !t->has_cond ||
         wl__cond_eval(t, t->cond_root, regs, v + lay->regoff[t->nthreads]);
}

static void put_tables(wl_buf *b, const wl_litmus *t, const wl_cuda_opts *o,
                       const mp *s) {
  wl_layout lay;
  int64_t v[2][WL_MAX_THREADS * WL_MAX_REGS + WL_MAX_LOCS];
  int sat[2], k, i;
  wl__layout_init(&lay, t);
  wl__buf_printf(b, "#define DEF_STREAM %d\n#define DEF_BLOCKS %d\n"
                    "#define DEF_THREADS %d\n#define DEF_LAUNCHES %d\n"
                    "#define DEF_SPACING %d\n#define NVALS %d\n"
                    "#define COND_KIND %d\n",
                 o->stream, o->blocks, o->threads, o->launches, o->spacing,
                 lay.nvals, t->cond_kind);
  wl__buf_printf(b, "/* the writer's and the reader's GPU, the homes of the "
                    "data and the flag */\n#define W_GPU %d\n#define R_GPU "
                    "%d\n#define DATA_HOME %d\n#define FLAG_HOME %d\n\n",
                 t->threads[s->w].gpu, t->threads[s->r].gpu,
                 wl__loc_home(t, s->st_data->loc),
                 wl__loc_home(t, s->st_flag->loc));
  wl__buf_puts(b, "static const char *const test_name = ");
  wl__cuda_put_str_literal(b, t->name);
  wl__buf_puts(b, ";\nstatic const char *const test_file = ");
  wl__cuda_put_str_literal(b, t->filename ? t->filename : "<lua>");
  wl__buf_puts(b, ";\nstatic const char *const cond_text = ");
  wl__cuda_put_str_literal(b, t->cond_text ? t->cond_text : "(true)");
  wl__buf_puts(b, ";\nstatic const char *const var_name[NVALS] = {");
  for (i = 0; i < lay.nvals; i++) {
    wl__buf_puts(b, i ? ", " : "");
    wl__cuda_put_str_literal(b, wl__layout_name(&lay, t, i));
  }
  wl__buf_puts(b, "};\nstatic const int var_thread[NVALS] = {");
  for (i = 0; i < lay.nvals; i++)
    wl__buf_printf(b, "%s%d", i ? ", " : "", wl__layout_thread(&lay, t, i));
  wl__buf_puts(b, "};\n/* the outcome of a read: 0 data as new as the flag, "
                  "1 older (weak) */\nstatic const int state_vals[2][NVALS] "
                  "= {");
  for (k = 0; k < 2; k++) {
    sat[k] = outcome(t, &lay, s, k, v[k]);
    wl__buf_puts(b, k ? ", {" : "{");
    for (i = 0; i < lay.nvals; i++)
      wl__buf_printf(b, "%s%d", i ? ", " : "", (int)(int32_t)v[k][i]);
    wl__buf_puts(b, "}");
  }
  wl__buf_printf(b, "};\nstatic const int state_cond[2] = {%d, %d};\n\n",
                 sat[0], sat[1]);
  put_store(b, "w_st_data", s->st_data);
  put_fence(b, "w_fence", s->w_fence);
  put_store(b, "w_st_flag", s->st_flag);
  put_load(b, "r_ld_flag", s->ld_flag);
  put_fence(b, "r_fence", s->r_fence);
  put_load(b, "r_ld_data", s->ld_data);
  wl__buf_puts(b, "\n");
}

int wl__cuda_stream_emit(wl_ctx *ctx, const wl_litmus *t,
                         const wl_cuda_opts *o, wl_write_fn write, void *ud) {
  const char *const *line;
  wl_buf b;
  mp s;
  int rc = 0;
  if (!find_mp(t, &s))
    return wl__err(ctx, WL_EUNSUPPORTED,
                   "cuda: --stream runs an MP shape only: two threads "
                   "on two GPUs, one \"st data, V; [fence;] st flag, W\", "
                   "the other \"ld r, flag; [fence;] ld s, data\" (data and "
                   "flag distinct, starting at 0; V, W constants other "
                   "than 0; no sc access)");
  wl__buf_init(&b, ctx);
  wl__buf_puts(&b, "/* ");
  wl__cuda_put_comment_text(&b, t->name);
  wl__buf_puts(&b, ".cu -- test ");
  wl__cuda_put_comment_text(&b, t->name);
  if (t->filename) {
    wl__buf_puts(&b, " (");
    wl__cuda_put_comment_text(&b, t->filename);
    wl__buf_puts(&b, ")");
  }
  wl__buf_puts(&b, " on two GPUs, streaming, written by warplab cuda "
                   "--stream.\n");
  /* the head's comment first; the tables after the includes */
  for (line = wl__cuda_stream; *line != NULL; line++) {
    wl__buf_puts(&b, *line);
    wl__buf_puts(&b, "\n");
    if (strncmp(*line, "#include <cuda_runtime.h>", 25) == 0) {
      wl__buf_puts(&b, "\n");
      put_tables(&b, t, o, &s);
    }
  }
  if (b.oom)
    rc = wl__err(ctx, WL_ENOMEM, "out of memory");
  else if (write(ud, b.p, b.n) != 0)
    rc = wl__err(ctx, WL_EIO, "the writer stopped the output");
  wl__buf_free(&b);
  return rc;
}
