/* output.c -- results as herd7 text and as JSON. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

/* An observed variable: a register of a thread or a location. */
typedef struct obsvar {
  int is_reg, thread, idx; /* idx: register or location */
} obsvar;

typedef struct out {
  wl_buf b;
  wl_write_fn write;
  void *ud;
  int failed;
} out;

static void flush(out *o) {
  if (o->b.n > 0 && !o->failed && !o->b.oom &&
      o->write(o->ud, o->b.p, o->b.n) != 0)
    o->failed = 1;
  o->b.n = 0;
  if (o->b.p)
    o->b.p[0] = '\0';
}

static int finish(out *o) {
  int oom = o->b.oom;
  wl_ctx *ctx = o->b.ctx;
  flush(o);
  wl__buf_free(&o->b);
  if (oom)
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  return o->failed ? wl__err(ctx, WL_EIO, "the writer stopped the output") : 0;
}

static void add_var(obsvar *v, int *n, int is_reg, int thread, int idx) {
  int i;
  for (i = 0; i < *n; i++)
    if (v[i].is_reg == is_reg && v[i].thread == thread && v[i].idx == idx)
      return;
  if (*n >= 256)
    return;
  v[*n].is_reg = is_reg;
  v[*n].thread = thread;
  v[*n].idx = idx;
  (*n)++;
}

/* registers first, by thread then name (r2 before r10); then locations
 * by name */
static int regname_cmp(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la != lb && a[0] == b[0])
    return la < lb ? -1 : 1;
  return strcmp(a, b);
}

static int var_cmp(const wl_litmus *t, const obsvar *a, const obsvar *b) {
  if (a->is_reg != b->is_reg)
    return a->is_reg ? -1 : 1;
  if (a->is_reg) {
    if (a->thread != b->thread)
      return a->thread - b->thread;
    return regname_cmp(t->threads[a->thread].regnames[a->idx],
                       t->threads[b->thread].regnames[b->idx]);
  }
  return strcmp(t->locnames[a->idx], t->locnames[b->idx]);
}

static void collect_vars(const wl_litmus *t, obsvar *v, int *n) {
  int i;
  *n = 0;
  for (i = 0; i < t->ncnodes; i++) {
    const wl_cnode *c = &t->cnodes[i];
    const wl_atom *at[2];
    int k;
    if (c->kind != CN_CMP)
      continue;
    at[0] = &c->a;
    at[1] = &c->b;
    for (k = 0; k < 2; k++) {
      if (at[k]->kind == AT_REG)
        add_var(v, n, 1, at[k]->thread, at[k]->reg);
      else if (at[k]->kind == AT_LOC)
        add_var(v, n, 0, 0, at[k]->loc);
    }
  }
  for (i = 0; i < t->nobserved; i++) {
    const wl_atom *a = &t->observed[i];
    if (a->kind == AT_REG)
      add_var(v, n, 1, a->thread, a->reg);
    else if (a->kind == AT_LOC)
      add_var(v, n, 0, 0, a->loc);
  }
  if (*n == 0) {
    /* no condition: every register and location */
    int th, r;
    for (th = 0; th < t->nthreads; th++)
      for (r = 0; r < t->threads[th].nregs; r++)
        add_var(v, n, 1, th, r);
    for (r = 0; r < t->nlocs; r++)
      add_var(v, n, 0, 0, r);
  }
  /* insertion sort: few variables, and no global comparison context */
  for (i = 1; i < *n; i++) {
    obsvar key = v[i];
    int j = i;
    while (j > 0 && var_cmp(t, &v[j - 1], &key) > 0) {
      v[j] = v[j - 1];
      j--;
    }
    v[j] = key;
  }
}

static int64_t var_val(const wl_result *r, const wl_state *s, const obsvar *v) {
  if (v->is_reg)
    return s->vals[r->lay.regoff[v->thread] + v->idx];
  return s->vals[r->lay.regoff[r->t->nthreads] + v->idx];
}

/* The distinct projections of the states on the observed variables,
 * sorted; returns a malloc'd array of nproj * nv values. */
static int64_t *project(const wl_result *r, const obsvar *v, int nv,
                        size_t *nproj) {
  size_t s, k, np = 0;
  int64_t *p;
  size_t w = nv ? (size_t)nv : 1;
  p = wl__alloc(r->ctx, (r->nstates ? r->nstates : 1) * w * sizeof *p);
  if (p == NULL)
    return NULL;
  for (s = 0; s < r->nstates; s++) {
    int64_t row[256];
    int i;
    for (i = 0; i < nv; i++)
      row[i] = var_val(r, &r->states[s], &v[i]);
    for (k = 0; k < np; k++)
      if (memcmp(p + k * w, row, (size_t)nv * sizeof row[0]) == 0)
        break;
    if (k < np)
      continue;
    /* insertion keeping order */
    for (k = np; k > 0; k--) {
      int c = 0;
      for (i = 0; i < nv && c == 0; i++) {
        int64_t a = p[(k - 1) * w + (size_t)i];
        c = a < row[i] ? -1 : a > row[i];
      }
      if (c <= 0)
        break;
      memcpy(p + k * w, p + (k - 1) * w, w * sizeof *p);
    }
    memcpy(p + k * w, row, (size_t)nv * sizeof row[0]);
    np++;
  }
  *nproj = np;
  return p;
}

/* A value of a location in its type (float and double as numbers). */
static void put_val(wl_buf *b, const wl_litmus *t, int loc, int64_t v) {
  wl__buf_value(b, loc >= 0 ? t->loctype[loc] : WL_TYPE_INT64, v);
}

/* A value of an observed variable in its type: a location's, or a
 * register's (a callback's result may be a float). */
static void put_var(wl_buf *b, const wl_litmus *t, const obsvar *o,
                    int64_t v) {
  wl__buf_value(b,
                o->is_reg ? t->threads[o->thread].regtype[o->idx]
                          : t->loctype[o->idx],
                v);
}

int wl_result_var_type(const wl_result *r, int var) {
  return r == NULL ? WL_EINVAL : wl__layout_type(&r->lay, r->t, var);
}

static void var_name(const wl_litmus *t, const obsvar *v, wl_buf *b) {
  if (v->is_reg)
    wl__buf_printf(b, "%d:%s", v->thread,
                   t->threads[v->thread].regnames[v->idx]);
  else
    wl__buf_puts(b, t->locnames[v->idx]);
}

static const char *kind_word(int k) {
  return k == WL_COND_EXISTS   ? "Allowed"
         : k == WL_COND_FORALL ? "Required"
                               : "Forbidden";
}

static const char *kind_cond(int k) {
  return k == WL_COND_EXISTS   ? "exists"
         : k == WL_COND_FORALL ? "forall"
                               : "~exists";
}

/* The condition as herd7 prints it: "1:r0=1 /\ [x]=2", not "P1:r0 == 1
 * /\ x == 2": a thread's register without the P, a location in
 * brackets, '=' for "==" and no spaces around '=' and "!=". */
static void herd_cond(wl_buf *b, const char *s) {
  size_t i = 0;
  while (s[i] != '\0') {
    char c = s[i];
    if ((isalpha((unsigned char)c) || c == '_') &&
        (i == 0 || (!isalnum((unsigned char)s[i - 1]) && s[i - 1] != ':' &&
                    s[i - 1] != '_' && s[i - 1] != '['))) {
      /* a word: a location when '=' or "!=" follows (not a register,
       * which follows ':', nor an array cell, which '[' follows) */
      size_t j = i, k;
      while (isalnum((unsigned char)s[j]) || s[j] == '_' || s[j] == '.')
        j++;
      k = j;
      while (s[k] == ' ')
        k++;
      if (s[j] != ':' && (s[k] == '=' || (s[k] == '!' && s[k + 1] == '='))) {
        wl__buf_puts(b, "[");
        wl__buf_add(b, s + i, j - i);
        wl__buf_puts(b, "]");
        i = j;
        continue;
      }
      /* a P before a thread number stays out (next loop); other words
       * are copied whole */
      if (!((c == 'P' || c == 'p') && isdigit((unsigned char)s[i + 1]))) {
        wl__buf_add(b, s + i, j - i);
        i = j;
        continue;
      }
    }
    if ((c == 'P' || c == 'p') && isdigit((unsigned char)s[i + 1]) &&
        (i == 0 || !isalnum((unsigned char)s[i - 1]))) {
      size_t j = i + 1;
      while (isdigit((unsigned char)s[j]))
        j++;
      if (s[j] == ':') { /* a thread's register: drop the P */
        i++;
        continue;
      }
    }
    if (c == ' ' && (strncmp(s + i, " == ", 4) == 0 ||
                     strncmp(s + i, " != ", 4) == 0 ||
                     strncmp(s + i, " = ", 3) == 0)) {
      i++;
      continue;
    }
    if ((c == '=' || c == '!') && s[i + 1] == '=') {
      wl__buf_puts(b, c == '=' ? "=" : "!=");
      i += 2;
    } else {
      wl__buf_add(b, &c, 1);
      i++;
    }
    if (s[i - 1] == '=' && s[i] == ' ')
      i++;
  }
}

static int write_herd(const wl_result *r, double seconds, int herd7,
                      wl_write_fn write, void *ud) {
  const wl_litmus *t;
  obsvar v[256];
  int nv, i;
  size_t np, k;
  int64_t *proj;
  out o;
  if (r == NULL || write == NULL)
    return WL_EINVAL;
  t = r->t;
  wl__buf_init(&o.b, r->ctx);
  o.write = write;
  o.ud = ud;
  o.failed = 0;
  collect_vars(t, v, &nv);
  proj = project(r, v, nv, &np);
  if (proj == NULL)
    return wl__err(r->ctx, WL_ENOMEM, "out of memory");
  wl__buf_printf(&o.b, "Test %s %s\nStates %zu\n", t->name,
                 kind_word(r->cond_kind), np);
  for (k = 0; k < np; k++) {
    for (i = 0; i < nv; i++) {
      if (herd7 && !v[i].is_reg) /* herd7 writes a location [x] */
        wl__buf_printf(&o.b, "[%s]", t->locnames[v[i].idx]);
      else
        var_name(t, &v[i], &o.b);
      wl__buf_puts(&o.b, "=");
      put_var(&o.b, t, &v[i], proj[k * (size_t)(nv ? nv : 1) + (size_t)i]);
      wl__buf_puts(&o.b, i + 1 < nv ? "; " : ";");
    }
    wl__buf_puts(&o.b, "\n");
    if (o.b.n > 4096)
      flush(&o);
  }
  wl__free(r->ctx, proj,
           (r->nstates ? r->nstates : 1) * (size_t)(nv ? nv : 1) *
               sizeof *proj);
  {
    /* herd7 counts the witnesses of ~exists the other way round: the
     * states where the proposition fails are its positive ones */
    int swap = herd7 && r->cond_kind == WL_COND_NOTEXISTS;
    const char *cond = r->cond_override ? r->cond_override
                       : t->cond_text   ? t->cond_text
                                        : "(true)";
    wl__buf_printf(&o.b,
                   "%s%s\nWitnesses\nPositive: %llu Negative: %llu\n",
                   r->bound_hit ? "Loop " : "", r->verdict ? "Ok" : "No",
                   (unsigned long long)(swap ? r->neg : r->pos),
                   (unsigned long long)(swap ? r->pos : r->neg));
    wl__buf_printf(&o.b, "Condition %s ", kind_cond(r->cond_kind));
    if (herd7)
      herd_cond(&o.b, cond);
    else
      wl__buf_puts(&o.b, cond);
    wl__buf_puts(&o.b, "\n");
  }
  wl__buf_printf(&o.b, "Observation %s %s %llu %llu\n", t->name,
                 r->pos == 0   ? "Never"
                 : r->neg == 0 ? "Always"
                               : "Sometimes",
                 (unsigned long long)r->pos, (unsigned long long)r->neg);
  if (r->bound_hit && !herd7)
    wl__buf_printf(&o.b,
                   "Warning %s: loop unroll bound %d reached; outcomes that "
                   "need more iterations are not listed\n",
                   t->name, r->unroll);
  if (r->partial && !herd7)
    wl__buf_printf(&o.b,
                   "Warning %s: partial result (%s); the states listed are "
                   "allowed, others may be missing\n",
                   t->name, r->why ? r->why : wl_strerror(r->partial));
  wl__buf_printf(&o.b, "Time %s %.2f\n", t->name, seconds);
  if (herd7 && t->hash[0] != '\0')
    wl__buf_printf(&o.b, "Hash=%s\n", t->hash);
  wl__buf_puts(&o.b, "\n");
  return finish(&o);
}

int wl_result_write_herd(const wl_result *r, double seconds, wl_write_fn write,
                         void *ud) {
  return write_herd(r, seconds, 0, write, ud);
}

int wl_result_write_herd7(const wl_result *r, double seconds,
                          wl_write_fn write, void *ud) {
  return write_herd(r, seconds, 1, write, ud);
}

/* ---------------------------------------------------------------- */

static void json_str(wl_buf *b, const char *s) { wl__buf_json_str(b, s); }

static const char *sem_word(int s) {
  static const char *w[] = {"weak",    "relaxed", "acquire",
                            "release", "acq_rel", "sc"};
  return s >= 0 && s < 6 ? w[s] : "?";
}

static const char *scope_word(int s) {
  static const char *w[] = {"", "cta", "gpu", "sys"};
  return s >= 0 && s < 4 ? w[s] : "?";
}

static void json_state_vals(const wl_result *r, const wl_state *s, wl_buf *b) {
  const wl_litmus *t = r->t;
  int th, i, first = 1;
  wl__buf_puts(b, "{");
  for (th = 0; th < t->nthreads; th++)
    for (i = 0; i < t->threads[th].nregs; i++) {
      wl_buf nb; /* "1:r0", escaped as a whole */
      wl__buf_init(&nb, r->ctx);
      wl__buf_printf(&nb, "%d:%s", th, t->threads[th].regnames[i]);
      wl__buf_puts(b, first ? "" : ", ");
      json_str(b, nb.p ? nb.p : "");
      if (nb.oom)
        b->oom = 1;
      wl__buf_free(&nb);
      wl__buf_puts(b, ": ");
      wl__buf_value(b, t->threads[th].regtype[i],
                    s->vals[r->lay.regoff[th] + i]);
      first = 0;
    }
  for (i = 0; i < t->nlocs; i++) {
    wl__buf_puts(b, first ? "" : ", ");
    json_str(b, t->locnames[i]);
    wl__buf_puts(b, ": ");
    put_val(b, t, i, s->vals[r->lay.regoff[t->nthreads] + i]);
    first = 0;
  }
  wl__buf_puts(b, "}");
}

static void json_witness(const wl_result *r, const wl_state *s, wl_buf *b) {
  const wl_litmus *t = r->t;
  int i;
  static const char *kinds[] = {"R", "W", "F", "B"};
  wl__buf_puts(b, "{\"events\": [");
  for (i = 0; i < s->nwit; i++) {
    const wl_wit_ev *e = &s->wit[i];
    wl__buf_printf(b, "%s\n      {\"id\": %d, \"thread\": %d, \"kind\": \"%s\"",
                   i ? "," : "", i, e->thread, kinds[e->type & 3]);
    if (e->thread >= 0)
      wl__buf_printf(b, ", \"line\": %d", e->line);
    else
      wl__buf_puts(b, ", \"init\": true");
    if (e->type == EV_R || e->type == EV_W) {
      wl__buf_puts(b, ", \"loc\": ");
      json_str(b, t->locnames[e->loc]);
      wl__buf_puts(b, ", \"value\": ");
      put_val(b, t, e->loc, e->val);
    }
    if (e->type != EV_B)
      wl__buf_printf(b, ", \"sem\": \"%s\"", sem_word(e->sem));
    if (e->scope)
      wl__buf_printf(b, ", \"scope\": \"%s\"", scope_word(e->scope));
    if (e->rmw)
      wl__buf_puts(b, ", \"rmw\": true");
    if (e->type == EV_R)
      wl__buf_printf(b, ", \"rf\": %d", e->rf);
    if (e->type == EV_W)
      wl__buf_printf(b, ", \"co\": %d", e->co);
    if (e->sc >= 0)
      wl__buf_printf(b, ", \"sc\": %d", e->sc);
    if (e->type == EV_B)
      wl__buf_printf(b, ", \"barrier\": %lld, \"op\": \"%s\", \"phase\": %d",
                     (long long)e->val, e->bar_kind ? "arrive" : "sync",
                     e->phase);
    wl__buf_puts(b, "}");
  }
  wl__buf_puts(b, "]}");
}

int wl_result_write_json(const wl_result *r, double seconds, wl_write_fn write,
                         void *ud) {
  const wl_litmus *t;
  obsvar v[256];
  int nv, i;
  size_t np, k, s;
  int64_t *proj;
  out o;
  if (r == NULL || write == NULL)
    return WL_EINVAL;
  t = r->t;
  wl__buf_init(&o.b, r->ctx);
  o.write = write;
  o.ud = ud;
  o.failed = 0;
  collect_vars(t, v, &nv);
  proj = project(r, v, nv, &np);
  if (proj == NULL)
    return wl__err(r->ctx, WL_ENOMEM, "out of memory");
  wl__buf_puts(&o.b, "{\"test\": ");
  json_str(&o.b, t->name);
  wl__buf_puts(&o.b, ", \"file\": ");
  json_str(&o.b, t->filename ? t->filename : "");
  wl__buf_printf(
      &o.b, ", \"kind\": \"%s\", \"condition\": ", kind_cond(r->cond_kind));
  json_str(&o.b, r->cond_override ? r->cond_override
                 : t->cond_text   ? t->cond_text
                                  : "true");
  wl__buf_printf(&o.b,
                 ", \"ok\": %s, \"verdict\": %d, \"positive\": %llu, "
                 "\"negative\": %llu, \"bound_hit\": %s, \"unroll\": %d, "
                 "\"partial\": %s, \"time\": %.6f,\n  \"observed\": [",
                 r->verdict ? "true" : "false", r->verdict,
                 (unsigned long long)r->pos, (unsigned long long)r->neg,
                 r->bound_hit ? "true" : "false", r->unroll,
                 r->partial ? "true" : "false", seconds);
  for (i = 0; i < nv; i++) {
    wl_buf nb;
    wl__buf_init(&nb, r->ctx);
    var_name(t, &v[i], &nb);
    wl__buf_puts(&o.b, i ? ", " : "");
    json_str(&o.b, nb.p ? nb.p : "");
    if (nb.oom)
      o.b.oom = 1; /* not a silently empty name */
    wl__buf_free(&nb);
  }
  wl__buf_puts(&o.b, "],\n  \"states\": [");
  for (k = 0; k < np; k++) {
    wl__buf_puts(&o.b, k ? ", [" : "[");
    for (i = 0; i < nv; i++) {
      wl__buf_puts(&o.b, i ? ", " : "");
      put_var(&o.b, t, &v[i], proj[k * (size_t)(nv ? nv : 1) + (size_t)i]);
    }
    wl__buf_puts(&o.b, "]");
  }
  wl__free(r->ctx, proj,
           (r->nstates ? r->nstates : 1) * (size_t)(nv ? nv : 1) *
               sizeof *proj);
  wl__buf_puts(&o.b, "],\n  \"final_states\": [");
  for (s = 0; s < r->nstates; s++) {
    const wl_state *st = &r->states[s];
    wl__buf_puts(&o.b, s ? ",\n    {\"values\": " : "\n    {\"values\": ");
    json_state_vals(r, st, &o.b);
    wl__buf_printf(&o.b,
                   ", \"condition\": %s, \"executions\": %llu, "
                   "\"witness\": ",
                   st->sat ? "true" : "false", (unsigned long long)st->count);
    json_witness(r, st, &o.b);
    wl__buf_puts(&o.b, "}");
    if (o.b.n > 65536)
      flush(&o);
  }
  wl__buf_puts(&o.b, "]");
  wl__findings_json(r, &o.b); /* "race", "hang" (findings.c) */
  wl__buf_puts(&o.b, "}\n");
  return finish(&o);
}
