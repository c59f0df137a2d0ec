/* cuda_harness.c -- the presets of the one-GPU CUDA harness
 * (`warplab cuda --harness NAME`, the program's own --harness and
 * --tune): the one table of them, written into each program too.
 *
 * plain is the harness of warplab 0.1 (roles start as their warps are
 * scheduled, no stress): results stay comparable with earlier runs.
 * The others add, in turn, what litmus7 and GPUHarbor / MC Mutants
 * (Levine et al., ASPLOS 2023) do to make outcomes show:
 *   sync      a per-instance rendezvous (each role announces itself on
 *             a counter of its instance and polls until the others are
 *             there; after sync_spins polls it gives up and the instance
 *             counts as unsynchronised, not as an outcome), and the warps
 *             that play each role drawn per instance block;
 *   stress    sync, and each test thread first runs pre_stress
 *             store-load pairs on GPUHarbor's stress lines (lines lines
 *             of line_words words of a scratch area, drawn per launch);
 *   parallel  stress, plus stress blocks of their own (one per SM of an
 *             H100) running the same pattern alongside the test;
 *   delay     sync, and after the rendezvous each warp of a role waits a
 *             drawn number of cycles in [0, delay) (litmus7's start
 *             delays: the roles start together, or one well before the
 *             other, instance by instance; harness_check.cu), and
 *             each role stalls before one drawn instruction for a drawn
 *             number of cycles in [0, gap) (cuda_gap.c). */
#include <string.h>

#include "../common/internal.h"
#include "emit.h"

const wl__cuda_preset wl__cuda_presets[] = {
    /* name  sync place pre pattern stress iters lines words delay gap */
    {"plain", 0, 0, 0, WL_CUDA_PAT_RANDOM, 0, 256, 64, 32, 0, 0},
    {"sync", 1, 1, 0, WL_CUDA_PAT_RANDOM, 0, 256, 64, 32, 0, 0},
    {"stress", 1, 1, 64, WL_CUDA_PAT_SL, 0, 256, 64, 32, 0, 0},
    {"parallel", 1, 1, 64, WL_CUDA_PAT_SL, 132, 1024, 64, 32, 0, 0},
    {"delay", 1, 1, 0, WL_CUDA_PAT_RANDOM, 0, 256, 64, 32, 2048, 4096},
    {NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}};

static const char *const pattern_names[] = {"random", "ss", "sl", "ls",
                                            "ll", NULL};

const char *wl_cuda_harness_name(int k) {
  int n;
  for (n = 0; wl__cuda_presets[n].name != NULL; n++)
    ;
  return k >= 0 && k < n ? wl__cuda_presets[k].name : NULL;
}

const char *wl_cuda_pattern_name(int k) {
  return k >= 0 && k <= WL_CUDA_PAT_LL ? pattern_names[k] : NULL;
}

int wl_cuda_pattern_find(const char *name) {
  int k;
  for (k = 0; name != NULL && pattern_names[k] != NULL; k++)
    if (strcmp(pattern_names[k], name) == 0)
      return k;
  return -1;
}

void wl__cuda_preset_apply(wl_cuda_opts *o, int k) {
  const wl__cuda_preset *q = &wl__cuda_presets[k];
  o->harness = k;
  o->sync = q->sync;
  o->place = q->place;
  o->pre_stress = q->pre_stress;
  o->stress_pattern = q->pattern;
  o->stress_blocks = q->stress;
  o->stress_iters = q->stress_iters;
  o->stress_lines = q->lines;
  o->line_words = q->line_words;
  o->delay = q->delay;
  o->gap = q->gap;
}

int wl_cuda_harness_find(const char *name) {
  int k;
  for (k = 0; name != NULL && wl__cuda_presets[k].name != NULL; k++)
    if (strcmp(wl__cuda_presets[k].name, name) == 0)
      return k;
  return -1;
}

int wl_cuda_harness(wl_cuda_opts *o, const char *name) {
  int k = wl_cuda_harness_find(name);
  if (o == NULL || k < 0)
    return WL_EINVAL;
  wl__cuda_preset_apply(o, k);
  return 0;
}

void wl__cuda_put_presets(wl_buf *b) {
  int k;
  wl__buf_puts(b, "/* --harness: the presets (warplab's "
                  "engine/emit/cuda_harness.c) */\nstruct preset {\n"
                  "  const char *name;\n  int sync, place, pre_stress, "
                  "pattern, stress, stress_iters, lines, line_words, "
                  "delay, gap;\n};\n"
                  "static const preset presets[] = {\n");
  for (k = 0; wl__cuda_presets[k].name != NULL; k++) {
    const wl__cuda_preset *q = &wl__cuda_presets[k];
    wl__buf_printf(b, "  {\"%s\", %d, %d, %d, %d, %d, %d, %d, %d, %d, %d},\n",
                   q->name, q->sync, q->place, q->pre_stress, q->pattern,
                   q->stress, q->stress_iters, q->lines, q->line_words,
                   q->delay, q->gap);
  }
  wl__buf_puts(b, "  {NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}};\n\n");
}

/* A two-GPU program has one harness (its slots held to rounds, or the
 * stream): the settings of the one-GPU harness are refused there rather
 * than dropped.  The first one o sets other than its default. */
const char *wl__cuda_one_gpu_setting(const wl_cuda_opts *o) {
  wl_cuda_opts d;
  wl_cuda_opts_init(&d);
  if (o->harness != d.harness)
    return "--harness";
  if (o->sync != d.sync)
    return "--sync";
  if (o->sync_spins != d.sync_spins)
    return "--sync-spins";
  if (o->place != d.place)
    return "--place";
  if (o->pre_stress != d.pre_stress)
    return "--pre-stress";
  if (o->stress_pattern != d.stress_pattern)
    return "--stress-pattern";
  if (o->stress_lines != d.stress_lines)
    return "--stress-lines";
  if (o->line_words != d.line_words)
    return "--line-words";
  if (o->delay != d.delay)
    return "--delay";
  if (o->gap != d.gap)
    return "--gap";
  if (o->tune != d.tune)
    return "--tune";
  return NULL;
}
