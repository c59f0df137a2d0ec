/* names.c -- names in a litmus test: registers and callback results of
 * a thread, locations, and aliases of locations (PTX 7.5; litmus.c's top
 * comment says what an alias means), as the reader and the builder
 * declare and look them up. */
#include <ctype.h>
#include <string.h>

#include "reader.h"

/* ---------------------------------------------------------------- */
/* Names                                                             */

int wl__thread_reg(wl_ctx *ctx, wl_thread *t, const char *name, size_t n) {
  int i;
  for (i = 0; i < t->nregs; i++)
    if (strlen(t->regnames[i]) == n && memcmp(t->regnames[i], name, n) == 0)
      return i;
  if (t->nregs >= WL_MAX_REGS)
    return -1;
  t->regnames[t->nregs] = wl__strndup(ctx, name, n);
  if (t->regnames[t->nregs] == NULL)
    return -2;
  t->reginit[t->nregs] = 0;
  t->regtype[t->nregs] = WL_TYPE_INT64;
  t->regtyped[t->nregs] = 0;
  return t->nregs++;
}

int wl__thread_result(wl_ctx *ctx, wl_thread *t, const char *name, int type,
                      int *was) {
  int r = wl__thread_reg(ctx, t, name, strlen(name));
  if (r < 0)
    return r;
  if (!t->regtyped[r]) {
    t->regtype[r] = (uint8_t)type;
    t->regtyped[r] = 1;
  }
  *was = t->regtype[r];
  return *was == type ? r : -3;
}

int wl__litmus_loc(wl_litmus *t, const char *name, size_t n) {
  int i;
  for (i = 0; i < t->nlocs; i++)
    if (strlen(t->locnames[i]) == n && memcmp(t->locnames[i], name, n) == 0)
      return i;
  if (t->nlocs >= WL_MAX_LOCS)
    return -1;
  t->locnames[t->nlocs] = wl__strndup(t->ctx, name, n);
  if (t->locnames[t->nlocs] == NULL)
    return -2;
  t->locinit[t->nlocs] = 0;
  t->lochome[t->nlocs] = -1;
  return t->nlocs++;
}

/* A register name: r<digits> (Dat3M), or %r<digits> as PTX spells it. */
int wl__name_is_reg(const char *s, size_t n) {
  size_t i = 0;
  if (n > 0 && s[0] == '%')
    i = 1;
  if (n < i + 2 || s[i] != 'r')
    return 0;
  for (i++; i < n; i++)
    if (!isdigit((unsigned char)s[i]))
      return 0;
  return 1;
}

int wl__name_is_loc(const char *s, size_t n) {
  size_t i;
  if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
    return 0;
  for (i = 1; i < n; i++)
    if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
      return 0;
  return 1;
}

int wl__name_reg(parser *p, wl_thread *th, const tok *t) {
  int r = wl__thread_reg(p->ctx, th, t->s, t->n);
  if (r == -2)
    return wl__lex_err(p, WL_ENOMEM, t->line, t->col, "out of memory");
  if (r < 0)
    return wl__lex_err(p, WL_ELIMIT, t->line, t->col,
                       "too many registers in %s (at most %d)", th->name,
                       WL_MAX_REGS);
  return r;
}

/* The alias named s[0..n), or -1. */
int wl__name_alias(const wl_litmus *t, const char *s, size_t n) {
  int k;
  for (k = 0; k < t->naliases; k++)
    if (strlen(t->aliasnames[k]) == n && memcmp(t->aliasnames[k], s, n) == 0)
      return k;
  return -1;
}

/* The physical location a name denotes (declaring a location on first
 * use); an alias's name gives the location it aliases, and its number
 * + 1 in *alias (when alias is not NULL; 0 for a location). */
int wl__name_loc_via(parser *p, const tok *t, int *alias) {
  int l, k;
  if (alias != NULL)
    *alias = 0;
  if (!wl__name_is_loc(t->s, t->n))
    return wl__lex_err(p, WL_ESYNTAX, t->line, t->col,
                       "'%.*s' is not a location name", (int)t->n, t->s);
  if ((k = wl__name_alias(p->lt, t->s, t->n)) >= 0) {
    if (alias != NULL)
      *alias = k + 1;
    return p->lt->aliasloc[k];
  }
  l = wl__litmus_loc(p->lt, t->s, t->n);
  if (l == -2)
    return wl__lex_err(p, WL_ENOMEM, t->line, t->col, "out of memory");
  if (l < 0)
    return wl__lex_err(p, WL_ELIMIT, t->line, t->col,
                       "too many locations (at most %d)", WL_MAX_LOCS);
  return l;
}

int wl__name_loc(parser *p, const tok *t) {
  return wl__name_loc_via(p, t, NULL);
}

int wl__name_add_alias(wl_litmus *t, const char *name, size_t n, int proxy,
                       const char *target, size_t tn, int line) {
  int k, tl, tv, i;
  if (wl__name_alias(t, name, n) >= 0)
    return AL_TWICE;
  for (i = 0; i < t->nlocs; i++)
    if (strlen(t->locnames[i]) == n && memcmp(t->locnames[i], name, n) == 0)
      return AL_USED;
  if ((k = wl__name_alias(t, target, tn)) >= 0) {
    /* the target itself, even when it is a non-generic alias (whose
     * own accesses have its target's virtual address): Dat3M's
     * VirtualMemoryObject takes the alias object, not its generic
     * address */
    tl = t->aliasloc[k];
    tv = WL_MAX_LOCS + k;
  } else {
    for (tl = 0; tl < t->nlocs; tl++)
      if (strlen(t->locnames[tl]) == tn &&
          memcmp(t->locnames[tl], target, tn) == 0)
        break;
    if (tl == t->nlocs)
      return AL_NOTARGET;
    tv = tl;
  }
  if (t->naliases == WL_MAX_ALIASES)
    return AL_FULL;
  k = t->naliases;
  if ((t->aliasnames[k] = wl__strndup(t->ctx, name, n)) == NULL)
    return AL_NOMEM;
  t->aliasloc[k] = tl;
  /* Dat3M: the generic address of a generic alias is itself, that of
   * any other alias is its target (the target itself) */
  t->aliasvloc[k] = proxy == WL_PROXY_GEN ? WL_MAX_LOCS + k : tv;
  t->aliasproxy[k] = (uint8_t)proxy;
  t->aliasline[k] = line;
  t->naliases++;
  return k;
}

/* Notes the first PTX 7.5 construct, for wl__litmus_check_v60. */
void wl__name_mark_v75(parser *p, int line, int col, int alias) {
  if (p->lt->v75line == 0) {
    p->lt->v75line = line;
    p->lt->v75col = col;
    p->lt->v75alias = (uint8_t)alias;
  }
}

int wl__name_thread(parser *p, const tok *t, int *out) {
  /* "P3" or "3" */
  const char *s = t->s;
  size_t n = t->n, i = 0;
  long v = 0;
  if (t->kind == T_NUM) {
    if (t->num < 0 || t->num >= WL_MAX_THREADS)
      return wl__lex_err(p, WL_ESYNTAX, t->line, t->col, "no thread %lld",
                         (long long)t->num);
    *out = (int)t->num;
    return 0;
  }
  if (t->kind != T_WORD || n < 2 || s[0] != 'P')
    return wl__lex_expected(p, "a thread (P0, P1, ...)");
  for (i = 1; i < n; i++) {
    if (!isdigit((unsigned char)s[i]) || v > 1000)
      return wl__lex_err(p, WL_ESYNTAX, t->line, t->col,
                         "expected a thread (P0, P1, ...), found '%.*s'",
                         (int)n, s);
    v = v * 10 + (s[i] - '0');
  }
  if (v >= WL_MAX_THREADS)
    return wl__lex_err(p, WL_ELIMIT, t->line, t->col,
                       "thread P%ld: at most %d threads", v, WL_MAX_THREADS);
  *out = (int)v;
  return 0;
}

/* "P1:r0" / "1:r0"; the current token is the thread. */
int wl__name_thread_reg(parser *p, int *thread, int *reg, int must_exist) {
  tok tt = p->t;
  int th = 0, r; /* set by thread_index; gcc -O3 cannot see it */
  if ((r = wl__name_thread(p, &tt, &th)) != 0)
    return r;
  wl__lex_next(p);
  if (wl__lex_expect_p(p, ":"))
    return p->err;
  /* registers are r0, r1, ...; a callback thread's results may have any
   * name ("1:A") */
  if (p->t.kind != T_WORD ||
      !(wl__name_is_reg(p->t.s, p->t.n) || wl__name_is_loc(p->t.s, p->t.n)))
    return wl__lex_expected(p, "a register (r0, r1, ...) or a result name");
  if (must_exist && th >= p->lt->nthreads)
    return wl__lex_err(p, WL_ESYNTAX, tt.line, tt.col,
                       "the test has no thread P%d", th);
  r = wl__name_reg(p, &p->lt->threads[th], &p->t);
  if (r < 0)
    return r;
  wl__lex_next(p);
  *thread = th;
  *reg = r;
  return 0;
}
