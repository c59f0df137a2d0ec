/* emit.h -- what the emitters share: the fixed text of the CUDA harness
 * (build/MODE/gen/harness.c, generated at build time by
 * scripts/embed_cuda.sh from harness_head.cu and harness_body.cu for one
 * GPU, harness_two_head.cu and harness_two.cu for two), one line per
 * string, NULL at the end. */
#ifndef WL_EMIT_H
#define WL_EMIT_H

extern const char *const wl__cuda_head[];
extern const char *const wl__cuda_body[];
extern const char *const wl__cuda_two_head[];
extern const char *const wl__cuda_two_body[];

#endif
