/* emit.h -- what the emitters share: the fixed text of the CUDA harness
 * (build/MODE/gen/harness.c, generated at build time by
 * scripts/embed_cuda.sh from harness_head.cu, harness_check.cu,
 * harness_body.cu and harness_host.cu for one GPU, harness_two_head.cu
 * and harness_two.cu for two, harness_stream.cu for two GPUs streaming),
 * one line per string, NULL at the end. */
#ifndef WL_EMIT_H
#define WL_EMIT_H

#include "../common/internal.h"
#include "../program/ir.h"

/* The registers a role's asm declares are prefixed, so that they never
 * meet the names nvcc gives its own (%r...): cuda.c, cuda_gap.c. */
#define RP "wl_r"

extern const char *const wl__cuda_head[];
extern const char *const wl__cuda_check[];
extern const char *const wl__cuda_body[];
extern const char *const wl__cuda_host[];
extern const char *const wl__cuda_two_head[];
extern const char *const wl__cuda_two_body[];
extern const char *const wl__cuda_stream[];

/* cuda.c: text from the test as a C string literal or inside a comment
 * (escaped, so that it never becomes code), and the PTX words of a
 * semantics and a scope */
void wl__cuda_put_str_literal(wl_buf *b, const char *s);
void wl__cuda_put_comment_text(wl_buf *b, const char *s);
const char *wl__cuda_sem_word(int sem);
const char *wl__cuda_scope_word(int scope);
/* cuda_harness.c: the option of the one-GPU harness that o sets other
 * than its default ("--harness", "--sync", ...), or NULL */
const char *wl__cuda_one_gpu_setting(const wl_cuda_opts *o);
/* cuda_stream.c: WL_EINVAL (with a message) when o does not fit the
 * test's program: one-GPU harness settings for a two-GPU test (two),
 * stream for a one-GPU test; else 0 */
int wl__cuda_two_opts(wl_ctx *ctx, const wl_cuda_opts *o, int two);
/* cuda_stream.c: the streaming program of a two-GPU MP test
 * (wl_cuda_opts.stream; harness_stream.cu) */
int wl__cuda_stream_emit(wl_ctx *ctx, const wl_litmus *t,
                         const wl_cuda_opts *o, wl_write_fn write, void *ud);

/* The harness presets (cuda_harness.c): the settings each --harness NAME
 * gives, NULL-named at the end; written into each one-GPU program. */
typedef struct wl__cuda_preset {
  const char *name;
  int sync, place, pre_stress, pattern, stress, stress_iters, lines,
      line_words, delay, gap;
} wl__cuda_preset;
extern const wl__cuda_preset wl__cuda_presets[];
/* warplab cuda's default preset: delay, chosen on an H100 (2026-11-27,
 * tests/hw/observed/h100-2026-11-27-harness/README.md) by coverage: every
 * SC state of the 46 two-thread tests and the most weak outcomes there */
#define WL__CUDA_DEFAULT_PRESET 4
void wl__cuda_preset_apply(wl_cuda_opts *o, int k);
void wl__cuda_put_presets(wl_buf *b);
/* cuda_gap.c: a role's stall (--gap): its registers, read from the
 * statement's operand, and the stall before instruction i */
void wl__cuda_put_gap_regs(wl_buf *b, int operand);
void wl__cuda_put_gap(wl_buf *b, int i);
void wl__cuda_put_dispatch(wl_buf *b, const wl_litmus *t, const int *regoff,
                           const int *nostall, int two);
/* cuda_addr.c: whether a role's access reads through an address register
 * of its own (RP "x<i>", its weak loads and stores), and those registers,
 * made after the budget's (RP "bud") */
int wl__cuda_own_address(const wl_insn *in);
void wl__cuda_put_own_addresses(wl_buf *b, const wl_thread *tt,
                                const int *argloc);

/* vecset.c: a hashed set of vectors of k int64 values, indexed 0.. in
 * the order added (compare.c's matching of states) */
typedef struct wl__vecset {
  wl_ctx *ctx;
  int64_t *v;   /* n vectors of k values */
  size_t n, cap;
  size_t *slot; /* nslots slots: a vector's index + 1, 0 empty */
  size_t nslots;
  int k;
} wl__vecset;
#define WL__VECSET_NONE ((size_t)-1)
#define WL__VECSET_OOM ((size_t)-2)
void wl__vecset_init(wl__vecset *s, wl_ctx *ctx, int k);
/* v's index, adding it (*added = 1) when absent; WL__VECSET_OOM */
size_t wl__vecset_add(wl__vecset *s, const int64_t *v, int *added);
/* v's index, or WL__VECSET_NONE */
size_t wl__vecset_find(const wl__vecset *s, const int64_t *v);
void wl__vecset_free(wl__vecset *s);

#endif
