/* cat.c -- a model's life: reading (parse.c, then compile.c), queries
 * on it, freeing; and the public wl_model API of warplab.h, which is the
 * same object (a wl_cat is a wl_model). */
#include <string.h>

#include "catint.h"

int wl__cat_parse(wl_ctx *ctx, const char *filename, const char *text,
                  size_t len, wl_cat **out) {
  cat_prog p;
  int r;
  *out = NULL;
  memset(&p, 0, sizeof p);
  r = wl__cat_read(&p, ctx, filename, text, len);
  if (r == 0)
    r = wl__cat_compile(&p, out);
  wl__cat_prog_free(&p);
  return r;
}

int wl__cat_load(wl_ctx *ctx, const char *path, wl_cat **out) {
  wl_buf text;
  char why[128];
  int r;
  *out = NULL;
  wl__buf_init(&text, ctx);
  r = wl__cat_slurp(path, &text, why, sizeof why);
  if (r == WL_EIO)
    r = wl__err(ctx, WL_EIO, "cannot read '%s': %s", path, why);
  else if (r != 0)
    r = wl__err(ctx, WL_ENOMEM, "out of memory");
  else
    r = wl__cat_parse(ctx, path, text.p != NULL ? text.p : "", text.n,
                      out);
  wl__buf_free(&text);
  return r;
}

void wl__cat_free(wl_cat *m) {
  wl_ctx *ctx;
  if (m == NULL)
    return;
  ctx = m->ctx;
  wl__free(ctx, m->ops, m->ops_cap * sizeof *m->ops);
  wl__free(ctx, m->info, m->nops * sizeof *m->info);
  wl__free(ctx, m->names, m->names_size);
  wl__free(ctx, m->name_off,
           (size_t)(m->nchecks + m->nflags + 1) * sizeof *m->name_off);
  wl__strfree(ctx, m->title);
  wl__free(ctx, m, sizeof *m);
}

const char *wl__cat_name(const wl_cat *m) { return m->title; }

int wl__cat_nchecks(const wl_cat *m) { return m->nchecks; }

const char *wl__cat_check_name(const wl_cat *m, int k) {
  if (k < 0 || k >= m->nchecks)
    return NULL;
  return m->names + m->name_off[k];
}

int wl__cat_nflags(const wl_cat *m) { return m->nflags; }

const char *wl__cat_flag_name(const wl_cat *m, int k) {
  if (k < 0 || k >= m->nflags)
    return NULL;
  return m->names + m->name_off[m->nchecks + k];
}

int wl__cat_uses_rel(const wl_cat *m, int rel) {
  if (rel < 0 || rel >= WL_CAT_NRELS)
    return 0;
  return (int)((m->uses_rel >> rel) & 1);
}

int wl__cat_uses_set(const wl_cat *m, int set) {
  if (set < 0 || set >= WL_CAT_NSETS)
    return 0;
  return (int)((m->uses_set >> set) & 1);
}

/* ---------------------------------------------------------------- */
/* The public API (warplab.h)                                        */

int wl_model_load(wl_ctx *ctx, const char *path, wl_model **out) {
  if (out != NULL)
    *out = NULL;
  if (ctx == NULL || out == NULL)
    return WL_EINVAL;
  if (path == NULL)
    return wl__err(ctx, WL_EINVAL, "wl_model_load: path is NULL");
  return wl__cat_load(ctx, path, out);
}

int wl_model_parse(wl_ctx *ctx, const char *name, const char *text,
                   size_t len, wl_model **out) {
  if (out != NULL)
    *out = NULL;
  if (ctx == NULL || out == NULL)
    return WL_EINVAL;
  if (text == NULL && len > 0)
    return wl__err(ctx, WL_EINVAL, "wl_model_parse: text is NULL");
  return wl__cat_parse(ctx, name, text != NULL ? text : "", len, out);
}

void wl_model_free(wl_model *m) { wl__cat_free(m); }

const char *wl_model_name(const wl_model *m) {
  return m != NULL ? wl__cat_name(m) : NULL;
}
