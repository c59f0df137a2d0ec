/* build.c -- the test object and the builder API: wl_litmus_new and
 * _free, wl_litmus_add_* (locations, aliases, threads, instructions),
 * registers, conditions, callback threads, labels, and typed locations. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "reader.h"

/* ---------------------------------------------------------------- */

void wl_litmus_free(wl_litmus *t) {
  int i, j;
  wl_ctx *ctx;
  if (t == NULL)
    return;
  ctx = t->ctx;
  for (i = 0; i < WL_MAX_THREADS; i++) {
    wl_thread *th = &t->threads[i];
    for (j = 0; j < th->nregs; j++)
      wl__strfree(ctx, th->regnames[j]);
    wl__free(ctx, th->labels, (size_t)th->labcap * sizeof *th->labels);
    wl__free(ctx, th->insns, (size_t)th->cap * sizeof *th->insns);
  }
  for (i = 0; i < t->nlocs; i++)
    wl__strfree(ctx, t->locnames[i]);
  for (i = 0; i < t->naliases; i++)
    wl__strfree(ctx, t->aliasnames[i]);
  wl__free(ctx, t->cnodes, (size_t)t->cnodes_cap * sizeof *t->cnodes);
  wl__strfree(ctx, t->name);
  wl__strfree(ctx, t->filename);
  wl__strfree(ctx, t->cond_text);
  wl__free(ctx, t, sizeof *t);
}

const char *wl_litmus_name(const wl_litmus *t) { return t->name; }
const char *wl_litmus_file(const wl_litmus *t) {
  return t->filename ? t->filename : "";
}
int wl_litmus_nthreads(const wl_litmus *t) { return t->nthreads; }

/* ---------------------------------------------------------------- */
/* Building tests programmatically                                   */

int wl_litmus_new(wl_ctx *ctx, const char *name, wl_litmus **out) {
  wl_litmus *t;
  if (ctx == NULL || out == NULL)
    return WL_EINVAL;
  *out = NULL;
  if (name == NULL || *name == '\0')
    name = "test";
  /* the name starts lines of every text output (herd's, sample's, the
   * CUDA program's histogram): no line breaks, no control characters */
  for (const unsigned char *p = (const unsigned char *)name; *p; p++)
    if (*p < ' ' || *p == 0x7f)
      return wl__err(ctx, WL_EINVAL,
                     "test name: byte %d is a control character (0x%02x): "
                     "the name starts lines of the output",
                     (int)(p - (const unsigned char *)name) + 1, *p);
  t = wl__calloc(ctx, sizeof *t);
  if (t == NULL)
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  t->ctx = ctx;
  t->name = wl__strndup(ctx, name, strlen(name));
  if (t->name == NULL) {
    wl_litmus_free(t);
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  }
  t->cond_kind = WL_COND_EXISTS;
  *out = t;
  return 0;
}

/* An identifier, optionally indexed: "x", "a[3]". */
static int is_loc_or_elem(const char *s) {
  size_t n = strlen(s), i;
  const char *br = strchr(s, '[');
  if (br == NULL)
    return wl__name_is_loc(s, n);
  if (!wl__name_is_loc(s, (size_t)(br - s)) || s[n - 1] != ']' ||
      br + 1 >= s + n - 1)
    return 0;
  for (i = (size_t)(br - s) + 1; i < n - 1; i++)
    if (!isdigit((unsigned char)s[i]))
      return 0;
  return 1;
}

int wl_litmus_add_location(wl_litmus *t, const char *name, int64_t init,
                           int *index) {
  int l;
  if (t == NULL || name == NULL)
    return WL_EINVAL;
  if (!is_loc_or_elem(name) || strlen(name) > 64)
    return wl__err(t->ctx, WL_EINVAL,
                   "'%.64s' is not a location name (a name like x or "
                   "a[3])",
                   name);
  if (wl__name_alias(t, name, strlen(name)) >= 0)
    return wl__err(t->ctx, WL_EINVAL,
                   "'%s' is an alias: it has no initial value of its own",
                   name);
  l = wl__litmus_loc(t, name, strlen(name));
  if (l == -2)
    return wl__err(t->ctx, WL_ENOMEM, "out of memory");
  if (l < 0)
    return wl__err(t->ctx, WL_ELIMIT, "too many locations (at most %d)",
                   WL_MAX_LOCS);
  t->locinit[l] = init;
  if (index != NULL)
    *index = l;
  return 0;
}

int wl_litmus_location(const wl_litmus *t, const char *name) {
  int i;
  if (t == NULL || name == NULL)
    return -1;
  for (i = 0; i < t->nlocs; i++)
    if (strcmp(t->locnames[i], name) == 0)
      return i;
  if ((i = wl__name_alias(t, name, strlen(name))) >= 0)
    return t->aliasloc[i];
  return -1;
}

int wl_litmus_alias(const wl_litmus *t, const char *name) {
  if (t == NULL || name == NULL)
    return -1;
  return wl__name_alias(t, name, strlen(name));
}

int wl_litmus_add_alias(wl_litmus *t, const char *name, int proxy,
                        const char *target, int *index) {
  int k;
  if (t == NULL || name == NULL || target == NULL || proxy < WL_PROXY_GEN ||
      proxy > WL_PROXY_CON)
    return WL_EINVAL;
  if (!wl__name_is_loc(name, strlen(name)) ||
      wl__name_is_reg(name, strlen(name)) || strlen(name) > 64)
    return wl__err(t->ctx, WL_EINVAL, "'%.64s' is not a location name", name);
  k = wl__name_add_alias(t, name, strlen(name), proxy, target, strlen(target),
                         0);
  switch (k) {
  case AL_TWICE:
    return wl__err(t->ctx, WL_EINVAL, "alias '%s' declared twice", name);
  case AL_USED:
    return wl__err(t->ctx, WL_EINVAL,
                   "'%s' is already a location; an alias needs a name of "
                   "its own",
                   name);
  case AL_NOTARGET:
    return wl__err(t->ctx, WL_EINVAL,
                   "'%s' aliases '%.64s', which is not declared before it",
                   name, target);
  case AL_FULL:
    return wl__err(t->ctx, WL_ELIMIT, "too many aliases (at most %d)",
                   WL_MAX_ALIASES);
  case AL_NOMEM:
    return wl__err(t->ctx, WL_ENOMEM, "out of memory");
  default:
    break;
  }
  if (t->v75line == 0) {
    t->v75line = -1;
    t->v75alias = 1;
  }
  if (index != NULL)
    *index = k;
  return 0;
}

int wl__insn_vloc(const wl_litmus *t, const wl_insn *in) {
  if (in->alias > 0 && in->alias <= t->naliases)
    return t->aliasvloc[in->alias - 1];
  return in->loc;
}

int wl__litmus_check_v60(const wl_litmus *t, const char *who) {
  const char *f = t->filename ? t->filename : t->name;
  if (t->v75line == 0)
    return 0;
  if (t->v75line < 0)
    return wl__err(t->ctx, WL_EUNSUPPORTED,
                   "%s: aliases need the PTX 7.5 model, which %s does not "
                   "implement: use --model ptx-v7.5.cat",
                   f, who);
  return wl__err(t->ctx, WL_EUNSUPPORTED,
                 "%s:%d:%d: %s need the PTX 7.5 model, which %s does not "
                 "implement: use --model ptx-v7.5.cat",
                 f, t->v75line, t->v75col,
                 t->v75alias ? "aliases" : "proxy instructions", who);
}

int wl_litmus_nlocations(const wl_litmus *t) { return t ? t->nlocs : 0; }

const char *wl_litmus_location_name(const wl_litmus *t, int index) {
  if (t == NULL || index < 0 || index >= t->nlocs)
    return NULL;
  return t->locnames[index];
}

int wl_litmus_set_source(wl_litmus *t, const char *file) {
  char *f;
  if (t == NULL || file == NULL)
    return WL_EINVAL;
  f = wl__strndup(t->ctx, file, strlen(file));
  if (f == NULL)
    return wl__err(t->ctx, WL_ENOMEM, "out of memory");
  wl__strfree(t->ctx, t->filename);
  t->filename = f;
  return 0;
}

int wl_litmus_add_thread(wl_litmus *t, int cta, int gpu, int *index) {
  wl_thread *th;
  if (t == NULL || cta < 0 || gpu < 0)
    return WL_EINVAL;
  if (t->nthreads >= WL_MAX_THREADS)
    return wl__err(t->ctx, WL_ELIMIT, "%s: at most %d threads", t->name,
                   WL_MAX_THREADS);
  th = &t->threads[t->nthreads];
  snprintf(th->name, sizeof th->name, "P%d", t->nthreads);
  th->cta = cta;
  th->gpu = gpu;
  if (index != NULL)
    *index = t->nthreads;
  t->nthreads++;
  return 0;
}

int wl__litmus_push_insn(parser *p, wl_thread *t, const wl_insn *in) {
  if (t->ninsns == t->cap) {
    int cap = t->cap ? t->cap * 2 : 16;
    wl_insn *q;
    if (cap > 4096)
      return wl__lex_err(p, WL_ELIMIT, in->line, in->col,
                         "%s has too many instructions (at most 4096)",
                         t->name);
    q = wl__realloc(p->ctx, t->insns, (size_t)t->cap * sizeof *q,
                    (size_t)cap * sizeof *q);
    if (q == NULL)
      return wl__lex_err(p, WL_ENOMEM, in->line, in->col, "out of memory");
    t->insns = q;
    t->cap = cap;
  }
  t->insns[t->ninsns++] = *in;
  if (in->proxy != WL_PROXY_GEN || in->pfence != PFENCE_NONE)
    wl__name_mark_v75(p, in->line, in->col, 0);
  return 0;
}

static wl_label *find_label(wl_thread *th, const char *s, size_t n) {
  int i;
  for (i = 0; i < th->nlabels; i++)
    if (strlen(th->labels[i].name) == n &&
        memcmp(th->labels[i].name, s, n) == 0)
      return &th->labels[i];
  return NULL;
}

static wl_label *add_label(parser *p, wl_thread *th, const tok *t) {
  wl_label *l;
  if (t->n >= sizeof l->name) {
    wl__lex_err(p, WL_ESYNTAX, t->line, t->col, "label name too long");
    return NULL;
  }
  if (th->nlabels == th->labcap) {
    int cap = th->labcap ? th->labcap * 2 : 8;
    wl_label *q =
        wl__realloc(p->ctx, th->labels, (size_t)th->labcap * sizeof *q,
                    (size_t)cap * sizeof *q);
    if (q == NULL) {
      wl__lex_err(p, WL_ENOMEM, t->line, t->col, "out of memory");
      return NULL;
    }
    th->labels = q;
    th->labcap = cap;
  }
  l = &th->labels[th->nlabels++];
  memcpy(l->name, t->s, t->n);
  l->name[t->n] = '\0';
  l->at = -1;
  l->line = t->line;
  l->col = t->col;
  return l;
}

static void init_parser(parser *p, wl_litmus *t, const char *file,
                        const char *text, int line) {
  memset(p, 0, sizeof *p);
  p->ctx = t->ctx;
  p->file = file ? file : (t->filename ? t->filename : "<lua>");
  p->src = text;
  p->len = strlen(text);
  p->line = line > 0 ? line : 1;
  p->col = 1;
  p->lt = t;
  t->ctx->errmsg[0] = '\0';
}

int wl_litmus_add_insn(wl_litmus *t, int thread, const char *text,
                       const char *file, int line) {
  parser p;
  cell c;
  wl_insn in;
  const tok *label, *target;
  wl_thread *th;
  int r;
  if (t == NULL || text == NULL || thread < 0 || thread >= t->nthreads)
    return WL_EINVAL;
  th = &t->threads[thread];
  if (th->fn != NULL)
    return wl__err(t->ctx, WL_EINVAL,
                   "%s is a function thread; it has no instructions", th->name);
  if (t->filename == NULL && file != NULL) {
    t->filename = wl__strndup(t->ctx, file, strlen(file));
    if (t->filename == NULL)
      return wl__err(t->ctx, WL_ENOMEM, "out of memory");
  }
  init_parser(&p, t, file, text, line);
  c.n = 0;
  wl__lex_next(&p);
  while (p.t.kind != T_EOF && !p.err) {
    if (wl__lex_is_p(&p, ";") || wl__lex_is_p(&p, "|"))
      return wl__lex_err(&p, WL_ESYNTAX, p.t.line, p.t.col,
                         "one instruction per string: unexpected '%.*s'",
                         (int)p.t.n, p.t.s);
    if (c.n == 16)
      return wl__lex_err(&p, WL_ESYNTAX, p.t.line, p.t.col,
                         "instruction too long");
    c.toks[c.n++] = p.t;
    wl__lex_next(&p);
  }
  if (p.err)
    return p.err;
  if (c.n == 0)
    return wl__lex_err(&p, WL_ESYNTAX, p.line, 1, "empty instruction");
  if ((r = wl__insn_parse(&p, th, &c, &in, &label, &target)) != 0)
    return r;
  if (label != NULL) {
    wl_label *l = find_label(th, label->s, label->n);
    if (l != NULL && l->at >= 0)
      return wl__lex_err(&p, WL_ESYNTAX, label->line, label->col,
                         "label '%.*s' defined twice in %s", (int)label->n,
                         label->s, th->name);
    if (l == NULL && (l = add_label(&p, th, label)) == NULL)
      return p.err;
    l->at = th->ninsns;
    /* back-patch the branches that jumped here before */
    {
      int i;
      for (i = 0; i < th->ninsns; i++)
        if (th->insns[i].target == -2 - (int)(l - th->labels))
          th->insns[i].target = l->at;
    }
  }
  if (target != NULL) {
    wl_label *l = find_label(th, target->s, target->n);
    if (l == NULL && (l = add_label(&p, th, target)) == NULL)
      return p.err;
    /* unresolved targets are encoded as -2 - label index */
    in.target = l->at >= 0 ? l->at : -2 - (int)(l - th->labels);
  }
  return wl__litmus_push_insn(&p, th, &in);
}

int wl_litmus_set_reg(wl_litmus *t, int thread, const char *reg,
                      int64_t value) {
  int r;
  if (t == NULL || reg == NULL || thread < 0 || thread >= t->nthreads)
    return WL_EINVAL;
  if (!wl__name_is_reg(reg, strlen(reg)))
    return wl__err(t->ctx, WL_EINVAL,
                   "'%.32s' is not a register name (r0, r1, ...)", reg);
  r = wl__thread_reg(t->ctx, &t->threads[thread], reg, strlen(reg));
  if (r == -2)
    return wl__err(t->ctx, WL_ENOMEM, "out of memory");
  if (r < 0)
    return wl__err(t->ctx, WL_ELIMIT, "too many registers");
  t->threads[thread].reginit[r] = value;
  return 0;
}

int wl_litmus_set_condition(wl_litmus *t, const char *text, const char *file,
                            int line) {
  parser p;
  int r;
  if (t == NULL || text == NULL)
    return WL_EINVAL;
  init_parser(&p, t, file, text, line);
  t->ncnodes = 0;
  t->has_cond = 0;
  t->nobserved = 0;
  wl__strfree(t->ctx, t->cond_text);
  t->cond_text = NULL;
  wl__lex_next(&p);
  if (p.t.kind == T_EOF)
    return wl__lex_err(&p, WL_ESYNTAX, p.line, p.col,
                       "expected 'exists', '~exists' or 'forall'");
  r = wl__cond_parse(&p);
  if (r == 0 && p.err)
    r = p.err;
  if (r != 0) {
    t->ncnodes = 0;
    t->has_cond = 0;
  }
  return r;
}

int wl_litmus_set_thread_fn(wl_litmus *t, int thread, wl_thread_fn fn,
                            void *ud) {
  wl_thread *th;
  if (t == NULL || fn == NULL || thread < 0 || thread >= t->nthreads)
    return WL_EINVAL;
  th = &t->threads[thread];
  if (th->ninsns > 0)
    return wl__err(t->ctx, WL_EINVAL, "%s already has instructions", th->name);
  th->fn = fn;
  th->fn_ud = ud;
  return 0;
}

int wl_litmus_set_thread_code(wl_litmus *t, int thread, int code) {
  if (t == NULL || thread < 0 || thread >= t->nthreads || code < 0)
    return WL_EINVAL;
  t->threads[thread].code = code;
  return 0;
}

/* The first branch target that names no label, as a message; 0 if all
 * resolve.  Called by the explorer before it runs a built test. */
int wl__litmus_check_labels(const wl_litmus *t) {
  int th, i;
  for (th = 0; th < t->nthreads; th++) {
    const wl_thread *tt = &t->threads[th];
    for (i = 0; i < tt->ninsns; i++) {
      const wl_insn *in = &tt->insns[i];
      if ((in->op == OP_BRANCH || in->op == OP_GOTO) && in->target < 0) {
        const wl_label *l = &tt->labels[-2 - in->target];
        return wl__err(t->ctx, WL_ESYNTAX,
                       "%s:%d:%d: label '%s' is not defined in %s",
                       t->filename ? t->filename : "<lua>", in->line, in->col,
                       l->name, tt->name);
      }
    }
  }
  return 0;
}

/* ---------------------------------------------------------------- */
/* Typed locations                                                   */

int wl_litmus_set_type(wl_litmus *t, int loc, int type) {
  if (t == NULL || loc < 0 || loc >= t->nlocs || type < WL_TYPE_INT64 ||
      type > WL_TYPE_DOUBLE)
    return WL_EINVAL;
  t->loctype[loc] = (uint8_t)type;
  return 0;
}

int wl_litmus_set_shared(wl_litmus *t, int loc, int shared) {
  if (t == NULL || loc < 0 || loc >= t->nlocs)
    return WL_EINVAL;
  t->locshared[loc] = shared != 0;
  return 0;
}

int wl_litmus_set_home(wl_litmus *t, int loc, int gpu) {
  if (t == NULL || loc < 0 || loc >= t->nlocs || gpu < -1 || gpu > 7)
    return WL_EINVAL;
  t->lochome[loc] = (int8_t)gpu;
  return 0;
}

int wl__loc_home(const wl_litmus *t, int loc) {
  if (t->lochome[loc] >= 0)
    return t->lochome[loc];
  return t->nthreads > 0 ? t->threads[0].gpu : 0;
}

int wl_litmus_location_type(const wl_litmus *t, int loc) {
  if (t == NULL || loc < 0 || loc >= t->nlocs)
    return WL_EINVAL;
  return t->loctype[loc];
}
