/* compare.c -- a histogram observed on hardware (or sampled) beside the
 * outcomes the model allows.
 *
 * The histogram is text in the format of wl_hist_write, which programs
 * written by wl_cuda_emit print too: "Test NAME ...", "Histogram (N
 * states)", then N lines "COUNT *>T:reg=V; ...; loc=V;[ weak]".  Lines
 * starting with '#' are notes and skipped.  Each observed outcome is
 * matched by variable name against the result's states, projected on
 * the variables the histogram names (a histogram may name fewer).  An
 * observed outcome no allowed state gives is the red flag: a model or
 * hardware bug, or a harness that does not run what the test says. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/internal.h"
#include "emit.h"

#define MAXV 256

typedef struct obs {
  uint64_t count;
  int64_t v[MAXV];
} obs;

/* The next line of text from *p (its length in *n); 0 at the end. */
static int next_line(const char **p, const char *end, const char **line,
                     size_t *n) {
  const char *s = *p, *e;
  if (s >= end)
    return 0;
  e = memchr(s, '\n', (size_t)(end - s));
  if (e == NULL)
    e = end;
  *line = s;
  *n = (size_t)(e - s);
  *p = e < end ? e + 1 : end;
  return 1;
}

/* The variable of the result named "thread:name" (thread -1: a
 * location), or -1. */
static int find_var(const wl_result *r, int thread, const char *name,
                     size_t n) {
  int k, nv = wl_result_nvars(r);
  for (k = 0; k < nv; k++) {
    const char *vn = wl_result_var_name(r, k);
    if (wl_result_var_thread(r, k) == thread && vn != NULL &&
        strlen(vn) == n && strncmp(vn, name, n) == 0)
      return k;
  }
  return -1;
}

/* Parses one outcome line; fills vars[] (the result's variable of each
 * value, in order) on the first line and checks it on the others. */
static int parse_outcome(wl_ctx *ctx, const wl_result *r, const char *who,
                         int lineno, const char *s, size_t n, obs *o,
                         int *vars, int *nvars, int first) {
  const char *e = s + n;
  char *endp;
  size_t k;
  int nv = 0;
  uint64_t c = 0;
  /* the count: digits, refused when it does not fit in 64 bits (never
   * saturated) */
  for (k = 0; k < n && s[k] >= '0' && s[k] <= '9'; k++) {
    unsigned d = (unsigned)(s[k] - '0');
    if (c > (UINT64_MAX - d) / 10) {
      size_t dl = k; /* the digits, within the line */
      while (dl < n && s[dl] >= '0' && s[dl] <= '9')
        dl++;
      return wl__err(ctx, WL_ELIMIT,
                     "%s:%d: the count %.*s%s does not fit in 64 bits "
                     "(at most %llu)",
                     who, lineno, (int)(dl < 40 ? dl : 40), s,
                     dl > 40 ? "..." : "", (unsigned long long)UINT64_MAX);
    }
    c = c * 10 + d;
  }
  if (k == 0)
    return wl__err(ctx, WL_ESYNTAX, "%s:%d: expected an outcome's count",
                   who, lineno);
  o->count = c;
  s += k;
  while (s < e && *s == ' ')
    s++;
  if (e - s < 2 || (s[0] != '*' && s[0] != ':') || s[1] != '>')
    return wl__err(ctx, WL_ESYNTAX, "%s:%d: expected '*>' or ':>'", who,
                   lineno);
  s += 2;
  for (;;) {
    const char *name, *eq;
    int thread = -1, var;
    while (s < e && *s == ' ')
      s++;
    if (s >= e || (e - s >= 4 && strncmp(s, "weak", 4) == 0))
      break;
    if (*s >= '0' && *s <= '9') {
      long th;
      errno = 0;
      th = strtol(s, &endp, 10);
      if (errno == ERANGE || th > INT_MAX)
        return wl__err(ctx, WL_ESYNTAX, "%s:%d: no such thread %.*s", who,
                       lineno, (int)(endp - s < 40 ? endp - s : 40), s);
      thread = (int)th;
      if (endp >= e || *endp != ':')
        return wl__err(ctx, WL_ESYNTAX, "%s:%d: expected ':' after a "
                       "thread number", who, lineno);
      s = endp + 1;
    }
    name = s;
    eq = memchr(s, '=', (size_t)(e - s));
    if (eq == NULL)
      return wl__err(ctx, WL_ESYNTAX, "%s:%d: expected NAME=VALUE;", who,
                     lineno);
    var = find_var(r, thread, name, (size_t)(eq - name));
    if (var < 0)
      return wl__err(ctx, WL_EINVAL,
                     "%s:%d: the test has no %s%.*s%s (the histogram is of "
                     "another test?)",
                     who, lineno, thread >= 0 ? "register " : "location ",
                     (int)(eq - name), name, thread >= 0 ? "" : "");
    if (nv >= MAXV)
      return wl__err(ctx, WL_ELIMIT, "%s:%d: more than %d values", who,
                     lineno, MAXV);
    errno = 0;
    o->v[nv] = strtoll(eq + 1, &endp, 10);
    if (endp == eq + 1 || endp >= e || *endp != ';')
      return wl__err(ctx, WL_ESYNTAX, "%s:%d: expected a number and ';'",
                     who, lineno);
    if (errno == ERANGE)
      return wl__err(ctx, WL_ELIMIT,
                     "%s:%d: the value %.*s does not fit in 64 bits", who,
                     lineno, (int)(endp - eq - 1 < 40 ? endp - eq - 1 : 40),
                     eq + 1);
    if (first)
      vars[nv] = var;
    else if (nv >= *nvars || vars[nv] != var)
      return wl__err(ctx, WL_ESYNTAX,
                     "%s:%d: the outcome names other variables than the "
                     "first",
                     who, lineno);
    nv++;
    s = endp + 1;
  }
  if (first)
    *nvars = nv;
  else if (nv != *nvars)
    return wl__err(ctx, WL_ESYNTAX,
                   "%s:%d: the outcome names other variables than the first",
                   who, lineno);
  return 0;
}

/* The final states sequential consistency gives (wl_sc_states), nvals
 * values each in the result's variable order. */
typedef struct scset {
  wl_ctx *ctx;
  int64_t *v;
  size_t n, cap;
  int nvals, oom;
} scset;

static int sc_add(void *ud, const int64_t *vals, int nvals) {
  scset *c = ud;
  if (c->nvals == 0)
    c->nvals = nvals;
  if (nvals != c->nvals)
    return 0;
  if (c->n == c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 64;
    int64_t *q = wl__realloc(c->ctx, c->v,
                             c->cap * (size_t)nvals * sizeof *q,
                             cap * (size_t)nvals * sizeof *q);
    if (q == NULL) {
      c->oom = 1;
      return 1;
    }
    c->v = q;
    c->cap = cap;
  }
  memcpy(c->v + c->n * (size_t)nvals, vals, (size_t)nvals * sizeof *vals);
  c->n++;
  return 0;
}

/* The allowed states, projected on vars: pv holds each projection once
 * (in the order of the states that first give it), pid[st] is state st's;
 * sc the SC states' projections.  WL_ENOMEM when out of memory. */
static int index_states(wl_ctx *ctx, const wl_result *r, const scset *c,
                        const int *vars, int nvars, wl__vecset *pv,
                        size_t *pid, wl__vecset *sc) {
  size_t st, nst = wl_result_nstates(r), i;
  int64_t v[MAXV];
  int k, added;
  for (st = 0; st < nst; st++) {
    for (k = 0; k < nvars; k++)
      v[k] = wl_result_value(r, st, vars[k]);
    if ((pid[st] = wl__vecset_add(pv, v, &added)) == WL__VECSET_OOM)
      return WL_ENOMEM;
  }
  /* an SC state lacks a variable past its own: then none matches */
  for (k = 0; k < nvars; k++)
    if (vars[k] >= c->nvals)
      return 0;
  for (i = 0; i < c->n; i++) {
    const int64_t *w = c->v + i * (size_t)c->nvals;
    for (k = 0; k < nvars; k++)
      v[k] = w[vars[k]];
    if (wl__vecset_add(sc, v, &added) == WL__VECSET_OOM)
      return WL_ENOMEM;
  }
  (void)ctx;
  return 0;
}

static void put_vals(wl_buf *b, const wl_result *r, const int *vars,
                     int nvars, const int64_t *v) {
  int k;
  for (k = 0; k < nvars; k++) {
    int th = wl_result_var_thread(r, vars[k]);
    if (k)
      wl__buf_puts(b, " ");
    if (th >= 0)
      wl__buf_printf(b, "%d:", th);
    wl__buf_printf(b, "%s=%lld;", wl_result_var_name(r, vars[k]),
                   (long long)v[k]);
  }
}

int wl_compare(wl_ctx *ctx, const wl_litmus *t, const wl_result *r,
               const char *who, const char *hist, size_t len,
               wl_write_fn write, void *ud, wl_compare_report *rep) {
  const char *p = hist, *end = hist + len, *line;
  const char *name;
  size_t n, nname, i, nobs = 0, nst;
  int lineno = 0, found = 0, nvars = 0, rc = 0, vars[MAXV];
  long want = -1;
  obs *o = NULL;
  wl_buf b;
  char *seen = NULL; /* per projection: 1 observed, 2 listed */
  size_t *pid = NULL;
  scset sc;
  wl__vecset pv, scv;
  if (ctx == NULL || t == NULL || r == NULL || hist == NULL ||
      rep == NULL)
    return WL_EINVAL;
  memset(rep, 0, sizeof *rep);
  memset(&sc, 0, sizeof sc);
  wl__vecset_init(&pv, ctx, 0);
  wl__vecset_init(&scv, ctx, 0);
  if (who == NULL)
    who = "<histogram>";
  name = wl_litmus_name(t);
  nname = strlen(name);
  while (next_line(&p, end, &line, &n)) {
    lineno++;
    if (n > 5 + nname && strncmp(line, "Test ", 5) == 0 &&
        strncmp(line + 5, name, nname) == 0 && line[5 + nname] == ' ') {
      found = 1;
      break;
    }
  }
  if (!found)
    return wl__err(ctx, WL_EINVAL, "%s: no histogram of test %s", who, name);
  while (next_line(&p, end, &line, &n)) {
    lineno++;
    if (n > 0 && line[0] == '#')
      continue;
    if (n > 11 && strncmp(line, "Histogram (", 11) == 0 &&
        line[11] >= '0' && line[11] <= '9') {
      errno = 0;
      want = strtol(line + 11, NULL, 10);
      if (errno == ERANGE)
        want = LONG_MAX;
    }
    break;
  }
  if (want < 0)
    return wl__err(ctx, WL_ESYNTAX, "%s:%d: expected 'Histogram (N states)'",
                   who, lineno);
  {
    /* no more outcomes than lines: a count that big is refused before
     * anything is allocated for it */
    size_t left = p < end ? 1 : 0;
    const char *q;
    for (q = p; q < end; q++)
      if (*q == '\n' && q + 1 < end)
        left++;
    if ((unsigned long)want > left)
      return wl__err(ctx, WL_ESYNTAX,
                     "%s:%d: %ld outcomes announced, but %zu lines follow",
                     who, lineno, want, left);
  }
  o = wl__calloc(ctx, ((size_t)want + 1) * sizeof *o);
  if (o == NULL)
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  while (rc == 0 && nobs < (size_t)want && next_line(&p, end, &line, &n)) {
    lineno++;
    if (n > 0 && line[0] == '#')
      continue;
    rc = parse_outcome(ctx, r, who, lineno, line, n, &o[nobs], vars, &nvars,
                       nobs == 0);
    nobs++;
  }
  if (rc == 0 && nobs < (size_t)want)
    rc = wl__err(ctx, WL_ESYNTAX, "%s: the histogram ends after %zu of %ld "
                 "outcomes", who, nobs, want);
  nst = wl_result_nstates(r);
  if (rc == 0 && ((seen = wl__calloc(ctx, nst + 1)) == NULL ||
                  (pid = wl__calloc(ctx, (nst + 1) * sizeof *pid)) == NULL))
    rc = wl__err(ctx, WL_ENOMEM, "out of memory");
  /* the SC states, to split the allowed states into SC and weak ones
   * (unknown when the search fails or its unroll bound cuts it) */
  if (rc == 0) {
    int bound = 0, src;
    sc.ctx = ctx;
    src = wl_sc_states(ctx, t, 0, sc_add, &sc, &bound);
    rep->sc_known = src == 0 && !bound && !sc.oom;
    pv.k = scv.k = nvars;
    if (index_states(ctx, r, &sc, vars, nvars, &pv, pid, &scv) != 0)
      rc = wl__err(ctx, WL_ENOMEM, "out of memory");
  }
  if (rc != 0) {
    wl__vecset_free(&pv);
    wl__vecset_free(&scv);
    wl__free(ctx, sc.v, sc.cap * (size_t)sc.nvals * sizeof *sc.v);
    wl__free(ctx, pid, (nst + 1) * sizeof *pid);
    wl__free(ctx, seen, nst + 1);
    wl__free(ctx, o, ((size_t)want + 1) * sizeof *o);
    return rc;
  }
  /* the runs: a total that does not fit is refused, never wrapped */
  for (i = 0; i < nobs; i++) {
    if (o[i].count > UINT64_MAX - rep->runs) {
      wl__vecset_free(&pv);
      wl__vecset_free(&scv);
      wl__free(ctx, sc.v, sc.cap * (size_t)sc.nvals * sizeof *sc.v);
      wl__free(ctx, pid, (nst + 1) * sizeof *pid);
      wl__free(ctx, seen, nst + 1);
      wl__free(ctx, o, ((size_t)want + 1) * sizeof *o);
      return wl__err(ctx, WL_ELIMIT,
                     "%s: the counts of test %s add up to more than %llu "
                     "runs",
                     who, name, (unsigned long long)UINT64_MAX);
    }
    rep->runs += o[i].count;
  }
  wl__buf_init(&b, ctx);
  wl__buf_printf(&b, "Compare %s: %zu outcomes observed in %llu runs (%s), "
                     "%zu states allowed\n",
                 name, nobs, (unsigned long long)rep->runs, who, nst);
  wl__buf_puts(&b, "Observed   Allowed    Outcome\n");
  rep->observed = nobs;
  for (i = 0; i < nobs; i++) {
    size_t id = wl__vecset_find(&pv, o[i].v);
    int ok = id != WL__VECSET_NONE;
    if (ok)
      seen[id] = 1;
    if (!ok) {
      rep->forbidden++;
      rep->forbidden_runs += o[i].count;
    }
    wl__buf_printf(&b, "%-10llu %-10s ", (unsigned long long)o[i].count,
                   ok ? "yes" : "FORBIDDEN");
    put_vals(&b, r, vars, nvars, o[i].v);
    wl__buf_puts(&b, ok ? "\n" : "   <-- the model forbids this\n");
  }
  /* allowed states, once per projection: observed or not, SC or weak;
   * those never observed are listed (" weak" after the weak ones) */
  for (i = 0; i < nst; i++) {
    const int64_t *v = pv.v + pid[i] * (size_t)nvars;
    int obs_ = seen[pid[i]] == 1, weak;
    if (seen[pid[i]] >= 2)
      continue; /* a projection an earlier state gave */
    seen[pid[i]] = (char)(obs_ ? 3 : 2);
    weak = rep->sc_known &&
           wl__vecset_find(&scv, v) == WL__VECSET_NONE;
    if (rep->sc_known) {
      if (weak)
        rep->weak_allowed++, rep->weak_observed += (size_t)obs_;
      else
        rep->sc_allowed++, rep->sc_observed += (size_t)obs_;
    }
    if (obs_)
      continue;
    if (rep->unseen == 0)
      wl__buf_puts(&b, "Allowed, never observed (executions in the "
                       "model):\n");
    rep->unseen++;
    wl__buf_printf(&b, "           %-10llu ",
                   (unsigned long long)wl_result_state_count(r, i));
    put_vals(&b, r, vars, nvars, v);
    wl__buf_puts(&b, weak ? " weak\n" : "\n");
  }
  if (rep->sc_known)
    wl__buf_printf(&b, "Coverage %s: SC states %zu of %zu observed (%.1f%%), "
                       "weak states %zu of %zu (%.1f%%)\n",
                   name, rep->sc_observed, rep->sc_allowed,
                   rep->sc_allowed ? 100.0 * (double)rep->sc_observed /
                                         (double)rep->sc_allowed
                                   : 100.0,
                   rep->weak_observed, rep->weak_allowed,
                   rep->weak_allowed ? 100.0 * (double)rep->weak_observed /
                                           (double)rep->weak_allowed
                                     : 100.0);
  else
    wl__buf_printf(&b, "Coverage %s: unknown (the search for SC states "
                       "gave up)\n", name);
  if (rep->forbidden)
    wl__buf_printf(&b, "Verdict %s FORBIDDEN: %zu observed outcome%s "
                       "(%llu runs) the model forbids\n",
                   name, rep->forbidden, rep->forbidden > 1 ? "s" : "",
                   (unsigned long long)rep->forbidden_runs);
  else
    wl__buf_printf(&b, "Verdict %s Ok: every observed outcome is allowed "
                       "(%zu allowed never observed)\n",
                   name, rep->unseen);
  if (b.oom)
    rc = wl__err(ctx, WL_ENOMEM, "out of memory");
  else if (write != NULL && write(ud, b.p, b.n) != 0)
    rc = wl__err(ctx, WL_EIO, "the writer stopped the output");
  wl__buf_free(&b);
  wl__vecset_free(&pv);
  wl__vecset_free(&scv);
  wl__free(ctx, sc.v, sc.cap * (size_t)sc.nvals * sizeof *sc.v);
  wl__free(ctx, pid, (nst + 1) * sizeof *pid);
  wl__free(ctx, seen, nst + 1);
  wl__free(ctx, o, ((size_t)want + 1) * sizeof *o);
  return rc;
}
