/* props.c -- properties no reading of the PTX model may break, checked on
 * generated litmus tests (engine/gen: random programs and diy7-style
 * cycles under every annotation and placement):
 *
 *   cat      the built-in explorer and the literal evaluation of a cat
 *            model (default ptx-v6.0-isa.cat) give the same final
 *            states, verdict and loop-bound flag;
 *   sc       every final state of every sequentially consistent
 *            interleaving is allowed;
 *   sample   every outcome the simulator produces (weak and h100
 *            profiles) is allowed;
 *   law      the exact law of the simulator's outcomes (wl_sample_law,
 *            weak and h100 profiles) against its step-by-step runs
 *            (--law-runs R each, default 10,000): the law's probabilities
 *            sum to 1, every final state of the law is one the explorer
 *            allows (the law's whole support, however rare), every
 *            outcome the runs produce is in the law's support, every
 *            one of probability above 20/R is produced, and each count
 *            (and the hung runs') is within 6 sqrt(R p (1 - p)) + 6 of
 *            R p.  A test whose law falls back is counted, not failed;
 *   weak     the sampler's weak marks (wl_hist_weak, both profiles) agree
 *            with the explorer's SC states: those of the explorer run
 *            with an axiomatic SC model (SC_CAT below: one order of all
 *            events, barriers ordering what precedes them in their CTA
 *            before what follows), which must also be exactly
 *            wl_sc_states's.  An outcome marked weak is no SC state,
 *            one marked not weak is one, and the sampler knows its
 *            marks wherever the SC searches finished uncut.  (The
 *            sampler's weak marks and wl_sc_states are the one search
 *            of engine/model/scsearch.h with two sets of parameters;
 *            the SC model is the independent reference.)
 *   variant  reordering the threads and renaming locations and registers
 *            changes nothing (states mapped back through the renaming);
 *   observed the search that tells states apart by the observed variables
 *            only (observed_only: warplab litmus's default, which
 *            prunes what the others search) prints the same herd
 *            States block, verdict and loop flag as the full search;
 *   pad      (every fourth test) two threads of 40 stores to locations
 *            of their own put before the test's threads (an execution past 64 events,
 *            the test's events past the first words of every set)
 *            change neither the number of states, nor the verdict,
 *            nor the loop flag;
 *   twin     a test of two threads with a copy of its thread 0 added in
 *            thread 0's CTA (two interchangeable threads, which the
 *            explorer searches once and images) has the states the
 *            explorer finds without symmetry (and with --large the cat
 *            evaluator's);
 *   reduce   the search of warplab litmus's defaults (observed only,
 *            every reduction on) prints the same herd States block,
 *            verdict and loop flag as: each combination of turning off
 *            symmetry, prefix pruning, stutters and the thin-air
 *            pre-filter (one or two of the fifteen per test, drawn
 *            from its seed; all with --all-combos); the full search (every
 *            variable, no symmetry, no prefix pruning); the value
 *            search and the reads-from search, each with and without
 *            symmetry (one of the two per test by its seed, both with
 *            --all-combos; WL_EUNSUPPORTED from the reads-from search: not
 *            applicable); and the cat evaluator (unless cat runs too,
 *            which compares it with the full search; every fourth
 *            test, every test with --large or --from).  Meant for the
 *            copies kind (interchangeable threads, WL_GEN_COPIES; at
 *            most 3 writes a test, 4 with --large).
 *
 *   props [--count N] [--seed S] [--runs R] [--model CAT] [--keep DIR]
 *         [--only cat,sc,sample,law,weak,variant,twin,pad,observed,reduce]
 *         [--law-runs R]
 *         [--kind random,random3,family,edges,random4,copies]
 *         [--all-combos] [--large] [--timeout S] [--from FILE...]
 *
 * --kind chooses the generated tests' kinds, taken in turn (default:
 * random, random3, family, edges, and random4 with --large).
 *
 * A test whose exploration passes a limit of the explorer or takes
 * longer than --timeout seconds (default 10) is skipped and listed
 * ("SKIP name: why"), never counted as passing.
 *
 * One line per failure ("FAIL property test: why") with the test's text
 * (and DIR/NAME.litmus with --keep); then a summary line
 * "props: N tests, F failures (...)".  With --from, the files given are
 * checked instead of generated tests (how tests/props/ keeps the small
 * tests that once failed).  Exit status 1 on a failure. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../engine/warplab.h"

#include "slurp.h"
#include "tickets.h"

enum { P_CAT = 1, P_SC = 2, P_SAMPLE = 4, P_VARIANT = 8, P_TWIN = 16,
       P_PAD = 32, P_OBSERVED = 64, P_REDUCE = 128, P_WEAK = 256,
       P_LAW = 512 };
#define PAD_STORES 40

typedef struct stats {
  unsigned long tests, failures, skipped, states;
  double t_fast, t_cat, t_sc, t_sample, t_variant, t_reduce;
  unsigned long reduced, rvariants; /* reduce: tests, searches compared */
  double t_rv[5]; /* reduce: reductions off, full, values, rf, cat */
  /* weak: tests, those with barriers, histograms whose marks are
   * unknown, outcomes marked weak and not */
  unsigned long wtests, wbar, wunknown, wweak, wsc;
  double t_weak;
  /* law: laws compared, laws that fell back */
  unsigned long laws, lawfb;
  double t_law;
} stats;

static const char *keep_dir;
/* Each exploration may take this long (--timeout); a test that takes
 * longer is reported as skipped, never counted as passing. */
static double per_test = 10.0, deadline;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void fail(stats *st, const char *prop, const char *name,
                 const char *text, const char *why) {
  st->failures++;
  printf("FAIL %s %s: %s\n%s\n", prop, name, why, text);
  if (keep_dir != NULL) {
    char path[1200];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s-%s.litmus", keep_dir, prop, name);
    if ((f = fopen(path, "w")) != NULL) {
      fputs(text, f);
      fclose(f);
    }
  }
}

/* Index of the state of r equal to vals, or -1. */
static long find_state(const wl_result *r, const int64_t *vals, int n) {
  size_t s;
  int v;
  for (s = 0; s < wl_result_nstates(r); s++) {
    for (v = 0; v < n; v++)
      if (wl_result_value(r, s, v) != vals[v])
        break;
    if (v == n)
      return (long)s;
  }
  return -1;
}

static void state_text(const wl_result *r, const int64_t *vals, char *buf,
                       size_t n) {
  int v, nv = wl_result_nvars(r);
  size_t k = 0;
  buf[0] = '\0';
  for (v = 0; v < nv && k + 40 < n; v++) {
    int th = wl_result_var_thread(r, v);
    if (th >= 0)
      k += (size_t)snprintf(buf + k, n - k, "%d:%s=%lld; ", th,
                            wl_result_var_name(r, v), (long long)vals[v]);
    else
      k += (size_t)snprintf(buf + k, n - k, "%s=%lld; ",
                            wl_result_var_name(r, v), (long long)vals[v]);
  }
}

static int64_t *state_vals(const wl_result *r, size_t s, int64_t *buf) {
  int v, n = wl_result_nvars(r);
  for (v = 0; v < n; v++)
    buf[v] = wl_result_value(r, s, v);
  return buf;
}

/* a is a subset of b (same layout); on failure writes the first missing
 * state into why. */
static int subset(const wl_result *a, const wl_result *b, char *why,
                  size_t n, const char *what) {
  int64_t vals[2048];
  size_t s;
  for (s = 0; s < wl_result_nstates(a); s++) {
    int nv = wl_result_nvars(a);
    state_vals(a, s, vals);
    if (find_state(b, vals, nv) < 0) {
      char st[1024];
      state_text(a, vals, st, sizeof st);
      snprintf(why, n, "%s: %s", what, st);
      return 0;
    }
  }
  return 1;
}

static int past_deadline(void *ud) {
  (void)ud;
  return now() > deadline;
}

static int no_symmetry; /* explore(): search every thread (twins) */
static int observed;    /* explore(): observed_only */
static int large;       /* --large */

static int explore(wl_ctx *ctx, const wl_litmus *t, const wl_model *m,
                   wl_result **r) {
  wl_explore_opts o;
  memset(&o, 0, sizeof o);
  o.model = m;
  o.no_symmetry = no_symmetry;
  o.observed_only = observed;
  o.should_stop = past_deadline;
  deadline = now() + per_test;
  return wl_explore(ctx, t, &o, r);
}

/* ---------------- sc ---------------- */

typedef struct scck {
  const wl_result *r, *c; /* the explorer's, the cat model's (or NULL) */
  int bad, badcat;
  char why[1200], whycat[1200];
} scck;

static int sc_each(void *ud, const int64_t *vals, int nvals) {
  scck *c = ud;
  char st[1024];
  if (!c->bad && find_state(c->r, vals, nvals) < 0) {
    state_text(c->r, vals, st, sizeof st);
    snprintf(c->why, sizeof c->why,
             "a sequentially consistent state is forbidden: %s", st);
    c->bad = 1;
  }
  if (c->c != NULL && !c->badcat && find_state(c->c, vals, nvals) < 0) {
    state_text(c->c, vals, st, sizeof st);
    snprintf(c->whycat, sizeof c->whycat,
             "the cat model forbids a sequentially consistent state: %s",
             st);
    c->badcat = 1;
  }
  return 0;
}

/* ---------------- weak ---------------- */

/* Sequential consistency as a cat model, for the explorer: what the
 * interleaving search (engine/model/scsearch.h) computes, found
 * another way. */
static const char SC_CAT[] =
    "SC\n"
    "let co = co+\n"
    "let fr = rf^-1; co\n"
    "let bar = po; [B]; (syncbar & scta); [B]; po\n"
    "acyclic po | rf | co | fr | bar as sc\n"
    "empty rmw & (fr; co) as atomic\n"
    "empty ((W * W) & loc) \\ (co | co^-1 | id) as total\n";
static wl_model *sc_model;

/* The explorer's SC states, in wl_result_var order. */
typedef struct scset {
  int64_t *v;
  size_t n, cap;
  int nv, oom;
} scset;

static int sc_keep(void *ud, const int64_t *vals, int nvals) {
  scset *s = ud;
  if (s->n == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 64;
    int64_t *p = realloc(s->v, cap * (size_t)nvals * sizeof *p);
    if (p == NULL) {
      s->oom = 1;
      return 1;
    }
    s->v = p;
    s->cap = cap;
  }
  s->nv = nvals;
  memcpy(s->v + s->n++ * (size_t)nvals, vals, (size_t)nvals * sizeof *vals);
  return 0;
}

static void check_weak(wl_ctx *ctx, stats *st, const char *name,
                       const char *text, wl_litmus *t, uint64_t seed,
                       uint64_t runs) {
  scset s;
  wl_result *cs = NULL;
  char why[2048];
  int hit = 0, rc, prof;
  size_t i;
  double t0 = now();
  memset(&s, 0, sizeof s);
  rc = wl_sc_states(ctx, t, 0, sc_keep, &s, &hit);
  if (s.oom) {
    fail(st, "weak", name, text, "out of memory");
    free(s.v);
    return;
  }
  /* the SC model's states: the reference (when neither search is cut,
   * the two sets are the same) */
  if (explore(ctx, t, sc_model, &cs) != 0) {
    st->skipped++;
    printf("SKIP %s: the SC model: %s\n", name, wl_ctx_errmsg(ctx));
    free(s.v);
    return;
  }
  if (wl_result_bound_hit(cs) || hit || rc != 0) {
    st->skipped++;
    printf("SKIP %s: an SC search was cut (bound hit: model %d, "
           "interleavings %d) or failed (%s)\n",
           name, wl_result_bound_hit(cs), hit,
           rc ? wl_ctx_errmsg(ctx) : "no");
    wl_result_free(cs);
    free(s.v);
    return;
  }
  for (i = 0; i < s.n; i++)
    if (find_state(cs, s.v + i * (size_t)s.nv, s.nv) < 0)
      break;
  if (i < s.n || s.n != wl_result_nstates(cs)) {
    snprintf(why, sizeof why,
             "wl_sc_states gives %zu states, the SC model %zu%s", s.n,
             wl_result_nstates(cs),
             i < s.n ? ", one of them not the model's" : "");
    fail(st, "weak", name, text, why);
  }
  st->wtests++;
  st->wbar += strstr(text, "bar.") != NULL;
  for (prof = 0; prof < 2; prof++) {
    const char *pn = prof ? "h100" : "weak";
    wl_sample_opts o;
    wl_hist *h = NULL;
    memset(&o, 0, sizeof o);
    o.runs = runs;
    o.seed = seed;
    o.profile = prof ? WL_PROFILE_H100 : WL_PROFILE_WEAK;
    if (wl_sample(ctx, t, &o, &h) != 0) {
      snprintf(why, sizeof why, "the sampler fails (%s profile): %s", pn,
               wl_ctx_errmsg(ctx));
      fail(st, "weak", name, text, why);
      continue;
    }
    if (wl_hist_noutcomes(h) == 0) { /* every run hung: nothing marked */
      wl_hist_free(h);
      continue;
    }
    (void)wl_hist_weak(h, 0); /* the search runs on first use */
    if (!wl_hist_weak_known(h)) {
      st->wunknown++;
      snprintf(why, sizeof why,
               "the sampler (%s profile) does not know which outcomes are "
               "weak, but the SC searches finished uncut (%zu states)",
               pn, wl_result_nstates(cs));
      fail(st, "weak", name, text, why);
      wl_hist_free(h);
      continue;
    }
    if (wl_hist_nvars(h) != wl_result_nvars(cs)) {
      snprintf(why, sizeof why,
               "the histogram has %d variables, the SC states %d",
               wl_hist_nvars(h), wl_result_nvars(cs));
      fail(st, "weak", name, text, why);
      wl_hist_free(h);
      continue;
    }
    for (i = 0; i < wl_hist_noutcomes(h); i++) {
      int64_t vals[2048];
      int w = wl_hist_weak(h, i), n = wl_hist_nvars(h), in, v, k = 0;
      wl_hist_values(h, i, vals, n);
      in = find_state(cs, vals, n) >= 0;
      if (w == 1)
        st->wweak++;
      else
        st->wsc++;
      if (w != !in) {
        k = snprintf(why, sizeof why,
                     "the %s profile's outcome %zu is marked %s, but the "
                     "SC model %s it (%zu SC states):",
                     pn, i, w == 1 ? "weak" : w == 0 ? "not weak" : "unknown",
                     in ? "allows" : "forbids", wl_result_nstates(cs));
        for (v = 0; v < n && k + 40 < (int)sizeof why; v++) {
          int th = wl_hist_var_thread(h, v);
          if (th >= 0)
            k += snprintf(why + k, sizeof why - (size_t)k, " %d:", th);
          else
            k += snprintf(why + k, sizeof why - (size_t)k, " ");
          k += snprintf(why + k, sizeof why - (size_t)k, "%s=%lld",
                        wl_hist_var_name(h, v), (long long)vals[v]);
        }
        fail(st, "weak", name, text, why);
        break;
      }
    }
    wl_hist_free(h);
  }
  wl_result_free(cs);
  free(s.v);
  st->t_weak += now() - t0;
}

/* ---------------- variant ---------------- */

/* The variable of v (the variant's result) that holds variable k of r
 * (the original's), through the renaming; -1 if none. */
static int map_var(const wl_result *r, const wl_result *v,
                   const wl_gen_map *m, int k) {
  int th = wl_result_var_thread(r, k), vth = -1, j, nv;
  const char *name = wl_result_var_name(r, k), *vname = name;
  if (th >= 0) {
    if (th >= m->nthreads)
      return -1;
    vth = m->thread[th];
    for (j = 0; j < m->nregs[th]; j++)
      if (strcmp(m->reg[th][j][0], name) == 0)
        vname = m->reg[th][j][1];
  } else {
    for (j = 0; j < m->nlocs; j++)
      if (strcmp(m->loc[j][0], name) == 0)
        vname = m->loc[j][1];
  }
  nv = wl_result_nvars(v);
  for (j = 0; j < nv; j++)
    if (wl_result_var_thread(v, j) == vth &&
        strcmp(wl_result_var_name(v, j), vname) == 0)
      return j;
  return -1;
}

static int check_variant(wl_ctx *ctx, wl_gen *g, uint64_t seed,
                         const wl_result *r, char *why, size_t n) {
  const char *text;
  size_t len, s;
  wl_gen_map m;
  wl_litmus *t = NULL;
  wl_result *v = NULL;
  int rc, nv = wl_result_nvars(r), k, ok = 1;
  int idx[2048];
  int64_t vals[2048], back[2048];
  if ((rc = wl_gen_variant(g, seed, &text, &len, &m)) != 0) {
    snprintf(why, n, "wl_gen_variant: %s", wl_ctx_errmsg(ctx));
    return 0;
  }
  if ((rc = wl_litmus_parse(ctx, "variant.litmus", text, len, &t)) != 0 ||
      (rc = explore(ctx, t, NULL, &v)) != 0) {
    snprintf(why, n, "the variant fails: %s\n%s", wl_ctx_errmsg(ctx), text);
    wl_litmus_free(t);
    return 0;
  }
  if (wl_result_verdict(v) != wl_result_verdict(r) ||
      wl_result_nstates(v) != wl_result_nstates(r) ||
      wl_result_nvars(v) != nv) {
    snprintf(why, n,
             "the variant has verdict %d and %zu states (%d values), the "
             "test %d and %zu (%d)\n%s",
             wl_result_verdict(v), wl_result_nstates(v), wl_result_nvars(v),
             wl_result_verdict(r), wl_result_nstates(r), nv, text);
    ok = 0;
  }
  for (k = 0; ok && k < nv; k++)
    if ((idx[k] = map_var(r, v, &m, k)) < 0) {
      snprintf(why, n, "value %s of the test is not in the variant\n%s",
               wl_result_var_name(r, k), text);
      ok = 0;
    }
  for (s = 0; ok && s < wl_result_nstates(v); s++) {
    state_vals(v, s, vals);
    for (k = 0; k < nv; k++)
      back[k] = vals[idx[k]];
    if (find_state(r, back, nv) < 0) {
      char st[1024];
      state_text(r, back, st, sizeof st);
      snprintf(why, n, "a state of the variant, mapped back, is not the "
                       "test's: %s\n%s",
               st, text);
      ok = 0;
    }
  }
  wl_result_free(v);
  wl_litmus_free(t);
  return ok;
}

/* ---------------- twins ---------------- */

/* Appends s[0..n) to the growing buffer *b (length *bn, capacity *bc). */
static int put(char **b, size_t *bn, size_t *bc, const char *s, size_t n) {
  if (*bn + n + 1 > *bc) {
    size_t c = (*bn + n + 1) * 2;
    char *q = realloc(*b, c);
    if (q == NULL)
      return -1;
    *b = q;
    *bc = c;
  }
  memcpy(*b + *bn, s, n);
  *bn += n;
  (*b)[*bn] = '\0';
  return 0;
}

/* The test's text with a copy of thread 0 added as thread N (N: the
 * number of threads) in thread 0's CTA, its registers' initial values
 * copied; NULL when the text is not a generated test's layout (a header
 * row "P0@cta A,gpu B | ...", rows of cells ending in ";"). */
static char *twin_text(const char *text, size_t len) {
  char *b = NULL, *cell0 = NULL;
  size_t bn = 0, bc = 0;
  const char *p = text, *end = text + len;
  int nth = 0, stage = 0, cta = -1, gpu = -1;
  char tmp[256];
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl ? nl : end, *semi;
    const char *q = p;
    while (q < le && *q == ' ')
      q++;
    if (stage == 0 && strncmp(p, "PTX ", 4) == 0) {
      put(&b, &bn, &bc, p, (size_t)(le - p));
      put(&b, &bn, &bc, "-twin\n", 6);
    } else if (stage == 0 && *q == '{') {
      /* the initial values: P0:r=V copied as PN:r=V (after the header
       * is known: emitted once the thread count is, below) */
      cell0 = strndup(p, (size_t)(le - p));
    } else if (stage == 0 && strncmp(q, "P0@", 3) == 0) {
      const char *c;
      for (c = q; c < le; c++)
        nth += *c == '|';
      nth++;
      if (sscanf(q, "P0@cta %d,gpu %d", &cta, &gpu) != 2 ||
          (semi = memchr(q, ';', (size_t)(le - q))) == NULL)
        goto bad;
      if (cell0 != NULL) { /* the init line, with thread 0's copied */
        const char *s = cell0, *r = strchr(cell0, '}');
        if (r == NULL)
          goto bad;
        put(&b, &bn, &bc, s, (size_t)(r - s));
        while ((s = strstr(s, "P0:")) != NULL && s < r) {
          const char *e = strchr(s, ';');
          if (e == NULL || e > r)
            goto bad;
          snprintf(tmp, sizeof tmp, "P%d:%.*s; ", nth, (int)(e - s - 3),
                   s + 3);
          put(&b, &bn, &bc, tmp, strlen(tmp));
          s = e;
        }
        put(&b, &bn, &bc, r, strlen(r));
        put(&b, &bn, &bc, "\n", 1);
        free(cell0);
        cell0 = NULL;
      }
      put(&b, &bn, &bc, p, (size_t)(semi - p));
      snprintf(tmp, sizeof tmp, "| P%d@cta %d,gpu %d ;\n", nth, cta, gpu);
      put(&b, &bn, &bc, tmp, strlen(tmp));
      stage = 1;
    } else if (stage == 1 && q < le && strncmp(q, "exists", 6) != 0 &&
               strncmp(q, "~exists", 7) != 0 &&
               strncmp(q, "forall", 6) != 0 &&
               strncmp(q, "locations", 9) != 0) {
      const char *bar = memchr(q, '|', (size_t)(le - q));
      if ((semi = memchr(q, ';', (size_t)(le - q))) == NULL)
        goto bad;
      if (bar == NULL || bar > semi)
        bar = semi;
      put(&b, &bn, &bc, p, (size_t)(semi - p));
      put(&b, &bn, &bc, "| ", 2);
      put(&b, &bn, &bc, q, (size_t)(bar - q));
      put(&b, &bn, &bc, ";\n", 2);
    } else {
      if (stage == 1)
        stage = 2;
      if (cell0 != NULL)
        goto bad;
      put(&b, &bn, &bc, p, (size_t)(le - p));
      put(&b, &bn, &bc, "\n", 1);
    }
    p = nl ? nl + 1 : end;
  }
  if (stage != 2 || b == NULL)
    goto bad;
  return b;
bad:
  free(cell0);
  free(b);
  return NULL;
}

static void check_test(wl_ctx *ctx, stats *st, const char *name,
                       const char *text, size_t len, const wl_model *m,
                       unsigned props, uint64_t runs, wl_gen *g,
                       uint64_t seed);

/* The twin's states with symmetry (interchangeable threads searched
 * once), without it, and with --large from the cat evaluator. */
static void check_twin(wl_ctx *ctx, stats *st, const char *name,
                       const char *tw, const wl_model *m) {
  wl_litmus *t = NULL;
  wl_result *a = NULL, *b = NULL;
  char tname[300], why[2048];
  int ra, rb;
  double t0 = now();
  snprintf(tname, sizeof tname, "%s-twin", name);
  if (wl_litmus_parse(ctx, tname, tw, strlen(tw), &t) != 0) {
    fail(st, "twin", tname, tw, wl_ctx_errmsg(ctx));
    return;
  }
  st->tests++;
  /* a tenth of the per-test time each (CI's make test runs a thousand) */
  per_test /= 10;
  ra = explore(ctx, t, NULL, &a);
  no_symmetry = 1;
  rb = explore(ctx, t, NULL, &b);
  no_symmetry = 0;
  per_test *= 10;
  st->t_fast += now() - t0;
  if (ra != 0 || rb != 0) {
    /* a limit or the time limit on either side (the search without
     * symmetry is the slower): not judged */
    if ((ra == 0 || ra == WL_ELIMIT || ra == WL_ESTOPPED) &&
        (rb == 0 || rb == WL_ELIMIT || rb == WL_ESTOPPED)) {
      st->skipped++;
      printf("SKIP %s: %s\n", tname, wl_ctx_errmsg(ctx));
    } else {
      snprintf(why, sizeof why, "explore fails (%d with symmetry, %d "
               "without): %s", ra, rb, wl_ctx_errmsg(ctx));
      fail(st, "twin", tname, tw, why);
    }
  } else if (wl_result_verdict(a) != wl_result_verdict(b) ||
             wl_result_bound_hit(a) != wl_result_bound_hit(b)) {
    snprintf(why, sizeof why, "verdict %d (bound hit %d) with symmetry, "
             "%d (%d) without", wl_result_verdict(a), wl_result_bound_hit(a),
             wl_result_verdict(b), wl_result_bound_hit(b));
    fail(st, "twin", tname, tw, why);
  } else if (!subset(a, b, why, sizeof why,
                     "found with symmetry, not without") ||
             !subset(b, a, why, sizeof why,
                     "found without symmetry, not with")) {
    fail(st, "twin", tname, tw, why);
  } else {
    st->states += wl_result_nstates(a);
  }
  wl_result_free(a);
  wl_result_free(b);
  wl_litmus_free(t);
  if (large)
    check_test(ctx, st, tname, tw, strlen(tw), m, P_CAT, 0, NULL, 0);
}

/* The test's text with two threads of PAD_STORES stores each (to
 * locations z0 and z1 of their own) put first: the test's threads are
 * renumbered P2.., in the header, the initial values and the
 * condition.  NULL when the text is not a generated test's layout. */
static char *pad_text(const char *text, size_t len) {
  char *b = NULL;
  size_t bn = 0, bc = 0;
  const char *p = text, *end = text + len;
  int stage = 0, row = 0, nth = 0, k;
  char tmp[256];
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *le = nl ? nl : end, *c;
    const char *q = p;
    while (q < le && *q == ' ')
      q++;
    if (stage == 0 && strncmp(q, "P0@", 3) == 0) {
      for (c = q; c < le; c++)
        nth += *c == '|';
      nth++;
      stage = 1;
      put(&b, &bn, &bc, " P0@cta 1000,gpu 0 | P1@cta 1001,gpu 0 |", 40);
    } else if (stage == 1 && q < le && strncmp(q, "exists", 6) != 0 &&
               strncmp(q, "~exists", 7) != 0 &&
               strncmp(q, "forall", 6) != 0 &&
               strncmp(q, "locations", 9) != 0) {
      row++;
      snprintf(tmp, sizeof tmp, " st.relaxed.cta z0, %d | st.relaxed.cta "
               "z1, %d |", row, row);
      put(&b, &bn, &bc, tmp, strlen(tmp));
      put(&b, &bn, &bc, p, (size_t)(le - p));
      put(&b, &bn, &bc, "\n", 1);
      p = nl ? nl + 1 : end;
      continue;
    } else if (stage == 1) {
      /* the rest of the padding threads, the test's cells empty */
      for (; row < PAD_STORES; row++) {
        snprintf(tmp, sizeof tmp, " st.relaxed.cta z0, %d | st.relaxed.cta "
                 "z1, %d", row + 1, row + 1);
        put(&b, &bn, &bc, tmp, strlen(tmp));
        for (k = 0; k < nth; k++)
          put(&b, &bn, &bc, " |", 2);
        put(&b, &bn, &bc, " ;\n", 3);
      }
      stage = 2;
    } else if (stage == 0 && *q == '{') {
      put(&b, &bn, &bc, "{ z0=0; z1=0;", 13);
      q++;
      p = q;
    }
    /* copy the line, renumbering P<k> (header, init) and k: (condition) */
    for (c = p; c < le;) {
      int n = 0, d;
      const char *s = c;
      if (*s == 'P' && (c == p || !((c[-1] >= 'A' && c[-1] <= 'Z') ||
                                    (c[-1] >= 'a' && c[-1] <= 'z') ||
                                    (c[-1] >= '0' && c[-1] <= '9'))))
        s++;
      for (d = 0; s + d < le && s[d] >= '0' && s[d] <= '9'; d++)
        n = n * 10 + (s[d] - '0');
      if (d > 0 && s + d < le && (s[d] == ':' || s[d] == '@') &&
          (s == c || *c == 'P') &&
          (c == p || !((c[-1] >= 'A' && c[-1] <= 'Z') ||
                       (c[-1] >= 'a' && c[-1] <= 'z') ||
                       (c[-1] >= '0' && c[-1] <= '9') || c[-1] == '_'))) {
        snprintf(tmp, sizeof tmp, "%s%d", s != c ? "P" : "", n + 2);
        put(&b, &bn, &bc, tmp, strlen(tmp));
        c = s + d;
        continue;
      }
      put(&b, &bn, &bc, c, 1);
      c++;
    }
    put(&b, &bn, &bc, "\n", 1);
    p = nl ? nl + 1 : end;
  }
  if (stage != 2 || b == NULL || row > PAD_STORES) {
    free(b);
    return NULL;
  }
  return b;
}

/* A result's herd text up to its Positive line (the States block, the
 * verdict and the loop warning), into a buffer. */
typedef struct sbuf {
  char *p;
  size_t n, cap;
} sbuf;

static int sbuf_write(void *ud, const char *s, size_t n) {
  sbuf *b = ud;
  return put(&b->p, &b->n, &b->cap, s, n);
}

static char *herd_states(const wl_result *r) {
  sbuf b = {NULL, 0, 0};
  char *cut;
  if (wl_result_write_herd(r, 0, sbuf_write, &b) != 0 || b.p == NULL) {
    free(b.p);
    return NULL;
  }
  if ((cut = strstr(b.p, "\nPositive:")) != NULL)
    cut[1] = '\0';
  return b.p;
}

/* The observed-only search against the full one's result r. */
static void check_observed(wl_ctx *ctx, stats *st, const char *name,
                           const char *text, const wl_litmus *t,
                           const wl_result *r) {
  wl_result *a = NULL;
  char *ha, *hr, why[4096];
  int rc;
  double t0 = now();
  observed = 1;
  rc = explore(ctx, t, NULL, &a);
  observed = 0;
  st->t_fast += now() - t0;
  if (rc == WL_ESTOPPED || rc == WL_ELIMIT) {
    st->skipped++;
    printf("SKIP %s (observed only): %s\n", name, wl_ctx_errmsg(ctx));
    return;
  }
  if (rc != 0) {
    fail(st, "observed", name, text, wl_ctx_errmsg(ctx));
    return;
  }
  ha = herd_states(a);
  hr = herd_states(r);
  if (ha == NULL || hr == NULL) {
    fail(st, "observed", name, text, "the herd text failed");
  } else if (strcmp(ha, hr) != 0 ||
             wl_result_bound_hit(a) != wl_result_bound_hit(r)) {
    snprintf(why, sizeof why, "observed only:\n%s\nevery state:\n%s", ha,
             hr);
    fail(st, "observed", name, text, why);
  }
  free(ha);
  free(hr);
  wl_result_free(a);
}

/* ---------------- reduce ---------------- */

static int all_combos; /* --all-combos: all fifteen per test */
static int from_files; /* --from: the cat evaluator on every file */

/* Explores t under o (its should_stop set here, within --timeout). */
static int explore_opts(wl_ctx *ctx, const wl_litmus *t,
                        const wl_explore_opts *o, wl_result **r) {
  wl_explore_opts x = *o;
  x.should_stop = past_deadline;
  deadline = now() + per_test;
  return wl_explore(ctx, t, &x, r);
}

/* Writes variant o's name into buf ("no_symmetry+no_prefix, observed
 * only"). */
static void reduce_name(const wl_explore_opts *o, char *buf, size_t n) {
  static const char *const searches[] = {"auto", "values", "rf"};
  if (o->model != NULL) {
    snprintf(buf, n, "the cat evaluator");
    return;
  }
  snprintf(buf, n, "%s%s%s%s%s%s, search %s",
           o->no_symmetry ? "no_symmetry " : "",
           o->no_prefix ? "no_prefix " : "",
           o->no_stutter ? "no_stutter " : "",
           o->no_thin_air_filter ? "no_thin_air_filter " : "",
           o->no_commute ? "no_commute " : "",
           o->observed_only ? "observed_only" : "every variable",
           searches[o->search]);
}

/* (e) the race and hang searches: whether a race (on which location)
 * and a hang exist is the same with the reductions on as with symmetry
 * and the commutation of inert RMWs off, or with the value search. */
static void check_reduce_ub(wl_ctx *ctx, stats *st, const char *name,
                            const char *text, const wl_litmus *t,
                            uint64_t seed) {
  wl_explore_opts o[2];
  wl_result *r[2] = {NULL, NULL};
  int k, rc;
  char why[512];
  memset(o, 0, sizeof o);
  o[0].observed_only = o[1].observed_only = 1;
  o[1].no_symmetry = o[1].no_commute = 1;
  if (seed % 3 == 0)
    o[1].search = WL_SEARCH_VALUES;
  for (k = 0; k < 2; k++)
    if ((rc = explore_opts(ctx, t, &o[k], &r[k])) != 0) {
      if (rc != WL_ESTOPPED && rc != WL_ELIMIT) {
        snprintf(why, sizeof why, "races and hangs: %s", wl_ctx_errmsg(ctx));
        fail(st, "reduce", name, text, why);
      }
      wl_result_free(r[0]);
      return;
    }
  {
    wl_race_info ra[2];
    wl_hang_info ha[2];
    int rr[2], hh[2];
    for (k = 0; k < 2; k++) {
      rr[k] = wl_result_race(r[k], &ra[k]);
      hh[k] = wl_result_hang(r[k], &ha[k]);
    }
    if (rr[0] != rr[1] || hh[0] != hh[1]) {
      snprintf(why, sizeof why,
               "races and hangs: race %d hang %d with the reductions, race "
               "%d hang %d with symmetry and commutation off%s",
               rr[0], hh[0], rr[1], hh[1],
               o[1].search ? " (value search)" : "");
      fail(st, "reduce", name, text, why);
    }
  }
  wl_result_free(r[0]);
  wl_result_free(r[1]);
}

/* (f) counting executions: each full state's count is the same with
 * symmetry (the reads-from search then records the executions its twin
 * choices stand for) as without. */
static void check_reduce_counts(wl_ctx *ctx, stats *st, const char *name,
                                const char *text, const wl_litmus *t) {
  wl_explore_opts o[2];
  wl_result *r[2] = {NULL, NULL};
  int k, rc, nv;
  size_t s;
  char why[2048];
  memset(o, 0, sizeof o);
  o[0].count_executions = o[1].count_executions = 1;
  o[0].no_checks = o[1].no_checks = 1;
  o[1].no_symmetry = 1;
  for (k = 0; k < 2; k++)
    if ((rc = explore_opts(ctx, t, &o[k], &r[k])) != 0) {
      if (rc != WL_ESTOPPED && rc != WL_ELIMIT) {
        snprintf(why, sizeof why, "counting: %s", wl_ctx_errmsg(ctx));
        fail(st, "reduce", name, text, why);
      }
      wl_result_free(r[0]);
      return;
    }
  nv = wl_result_nvars(r[0]);
  if (wl_result_nstates(r[0]) != wl_result_nstates(r[1]) ||
      wl_result_positive(r[0]) != wl_result_positive(r[1]) ||
      wl_result_negative(r[0]) != wl_result_negative(r[1])) {
    snprintf(why, sizeof why,
             "counting: %zu states, %llu+%llu executions with symmetry, "
             "%zu, %llu+%llu without",
             wl_result_nstates(r[0]),
             (unsigned long long)wl_result_positive(r[0]),
             (unsigned long long)wl_result_negative(r[0]),
             wl_result_nstates(r[1]),
             (unsigned long long)wl_result_positive(r[1]),
             (unsigned long long)wl_result_negative(r[1]));
    fail(st, "reduce", name, text, why);
  } else {
    for (s = 0; s < wl_result_nstates(r[0]); s++) {
      int64_t vals[2048];
      long j;
      state_vals(r[0], s, vals);
      j = find_state(r[1], vals, nv);
      if (j < 0 || wl_result_state_count(r[1], (size_t)j) !=
                       wl_result_state_count(r[0], s)) {
        char stx[1024];
        state_text(r[0], vals, stx, sizeof stx);
        snprintf(why, sizeof why,
                 "counting: state %s: %llu executions with symmetry, %llu "
                 "without",
                 stx, (unsigned long long)wl_result_state_count(r[0], s),
                 j < 0 ? 0ull
                       : (unsigned long long)wl_result_state_count(
                             r[1], (size_t)j));
        fail(st, "reduce", name, text, why);
        break;
      }
    }
  }
  wl_result_free(r[0]);
  wl_result_free(r[1]);
}

/* The search of warplab litmus's defaults against the reductions turned
 * off one combination at a time, the full search, each search with and
 * without symmetry, and (unless the cat property runs) the cat
 * evaluator; the first difference is one failure. */
static void check_reduce(wl_ctx *ctx, stats *st, const char *name,
                         const char *text, const wl_litmus *t,
                         const wl_model *m, unsigned props, uint64_t seed) {
  wl_explore_opts base, v[48];
  wl_result *ref = NULL;
  char *href = NULL, why[4096], vname[160];
  int nv = 0, k, rc, failed = 0;
  unsigned combos = 0;
  double t0 = now();
  memset(&base, 0, sizeof base);
  base.observed_only = 1; /* warplab litmus's defaults */
  base.no_checks = 1;     /* races and hangs: no part of the states */
  rc = explore_opts(ctx, t, &base, &ref);
  if (rc == WL_ESTOPPED || rc == WL_ELIMIT) {
    st->skipped++;
    printf("SKIP %s (reduce): %s\n", name, wl_ctx_errmsg(ctx));
    st->t_reduce += now() - t0;
    return;
  }
  if (rc != 0) {
    fail(st, "reduce", name, text, wl_ctx_errmsg(ctx));
    st->t_reduce += now() - t0;
    return;
  }
  st->reduced++;
  if ((href = herd_states(ref)) == NULL) {
    fail(st, "reduce", name, text, "the herd text failed");
    wl_result_free(ref);
    return;
  }
  /* (a) reductions off: all 31 combinations, or two drawn from the
   * seed (each of the 31 comes once in about fifteen tests), and
   * no_commute alone (the commutation of inert RMWs) */
  if (all_combos) {
    combos = 0xfffffffeu;
  } else {
    uint64_t r = (seed + 1) * 0x9e3779b97f4a7c15ull;
    unsigned a, b;
    r ^= r >> 29;
    r *= 0xbf58476d1ce4e5b9ull;
    r ^= r >> 32;
    a = 1 + (unsigned)(r % 31);
    b = 1 + (unsigned)((a + (r >> 16) % 30) % 31); /* another */
    combos = (1u << a) | (seed % 2 ? 0 : 1u << b) | 1u << 16;
  }
  for (k = 1; k < 32; k++) {
    if (!(combos & (1u << k)))
      continue;
    v[nv] = base;
    v[nv].no_symmetry = (k & 1) != 0;
    v[nv].no_prefix = (k & 2) != 0;
    v[nv].no_stutter = (k & 4) != 0;
    v[nv].no_thin_air_filter = (k & 8) != 0;
    v[nv].no_commute = (k & 16) != 0;
    nv++;
  }
  /* (b) the full search */
  v[nv] = base;
  v[nv].observed_only = 0;
  v[nv].no_symmetry = v[nv].no_prefix = 1;
  nv++;
  /* (c) each search, with and without symmetry (with --all-combos;
   * else one of the two, by the seed) */
  for (k = 0; k < 4; k++) {
    if (!all_combos && (k & 1) != (int)(seed / 2 % 2))
      continue;
    v[nv] = base;
    v[nv].search = k < 2 ? WL_SEARCH_VALUES : WL_SEARCH_RF;
    v[nv].no_symmetry = k & 1;
    nv++;
  }
  /* (d) the cat evaluator (the slowest: every fourth test, every test
   * with --large or --from) */
  if (!(props & P_CAT) && m != NULL && (large || from_files || seed % 4 == 0)) {
    v[nv] = base;
    v[nv].model = m;
    nv++;
  }
  for (k = 0; k < nv && !failed; k++) {
    wl_result *a = NULL;
    char *ha;
    double t1 = now();
    int cls = v[k].model != NULL                  ? 4
              : v[k].search == WL_SEARCH_RF       ? 3
              : v[k].search == WL_SEARCH_VALUES   ? 2
              : !v[k].observed_only               ? 1
                                                  : 0;
    rc = explore_opts(ctx, t, &v[k], &a);
    st->t_rv[cls] += now() - t1;
    reduce_name(&v[k], vname, sizeof vname);
    if (rc == WL_EUNSUPPORTED && v[k].search == WL_SEARCH_RF)
      continue; /* the reads-from search does not apply */
    if (rc == WL_ESTOPPED || rc == WL_ELIMIT) {
      st->skipped++;
      printf("SKIP %s (reduce: %s): %s\n", name, vname, wl_ctx_errmsg(ctx));
      continue;
    }
    if (rc != 0) {
      snprintf(why, sizeof why, "%s: %s", vname, wl_ctx_errmsg(ctx));
      fail(st, "reduce", name, text, why);
      failed = 1;
      continue;
    }
    st->rvariants++;
    ha = herd_states(a);
    if (ha == NULL) {
      fail(st, "reduce", name, text, "the herd text failed");
      failed = 1;
    } else if (strcmp(ha, href) != 0 ||
               wl_result_bound_hit(a) != wl_result_bound_hit(ref)) {
      snprintf(why, sizeof why,
               "warplab litmus's defaults and %s differ; the defaults "
               "(bound hit %d):\n%s\n%s (bound hit %d):\n%s",
               vname, wl_result_bound_hit(ref), href, vname,
               wl_result_bound_hit(a), ha);
      fail(st, "reduce", name, text, why);
      failed = 1;
    }
    free(ha);
    wl_result_free(a);
  }
  free(href);
  wl_result_free(ref);
  /* every other test (every test with --all-combos): races and hangs,
   * and execution counts */
  if (!failed && (all_combos || seed % 2 == 0))
    check_reduce_ub(ctx, st, name, text, t, seed);
  if (!failed && (all_combos || seed % 2 == 1))
    check_reduce_counts(ctx, st, name, text, t);
  st->t_reduce += now() - t0;
}

/* The padded test against the test's own result r. */
static void check_pad(wl_ctx *ctx, stats *st, const char *name,
                      const char *text, size_t len, const wl_result *r) {
  char *pt = pad_text(text, len);
  wl_litmus *t = NULL;
  wl_result *a = NULL;
  char tname[300], why[600];
  int rc;
  double t0 = now();
  snprintf(tname, sizeof tname, "%s-pad", name);
  if (pt == NULL) {
    fail(st, "pad", name, text, "the text cannot be padded");
    return;
  }
  st->tests++;
  if (wl_litmus_parse(ctx, tname, pt, strlen(pt), &t) != 0) {
    fail(st, "pad", tname, pt, wl_ctx_errmsg(ctx));
    free(pt);
    return;
  }
  rc = explore(ctx, t, NULL, &a);
  st->t_fast += now() - t0;
  if (rc == WL_ESTOPPED || rc == WL_ELIMIT) {
    st->skipped++;
    printf("SKIP %s: %s\n", tname, wl_ctx_errmsg(ctx));
  } else if (rc != 0) {
    fail(st, "pad", tname, pt, wl_ctx_errmsg(ctx));
  } else if (wl_result_nstates(a) != wl_result_nstates(r) ||
             wl_result_verdict(a) != wl_result_verdict(r) ||
             wl_result_bound_hit(a) != wl_result_bound_hit(r)) {
    snprintf(why, sizeof why, "%zu states, verdict %d, bound hit %d padded; "
             "%zu, %d, %d without", wl_result_nstates(a),
             wl_result_verdict(a), wl_result_bound_hit(a),
             wl_result_nstates(r), wl_result_verdict(r),
             wl_result_bound_hit(r));
    fail(st, "pad", tname, pt, why);
  } else {
    st->states += wl_result_nstates(a);
  }
  wl_result_free(a);
  wl_litmus_free(t);
  free(pt);
}

/* ---------------- one test ---------------- */

static uint64_t law_runs = 10000; /* --law-runs */

/* sqrt for the messages, by Newton's method (props links no libm) */
static double sqrt36(double x) {
  double y = x > 1 ? x : 1;
  int i;
  for (i = 0; i < 60; i++)
    y = (y + x / y) / 2;
  return x > 0 ? y : 0;
}

/* law: the exact law against the step-by-step runs (see the top). */
static void check_law(wl_ctx *ctx, stats *st, const char *name,
                      const char *text, const wl_litmus *t,
                      const wl_result *r, uint64_t seed) {
  int prof;
  char why[2048];
  /* the weak profile, h100, and h100 with the delay harness's start
   * delays and stalls (draws of their own) */
  for (prof = 0; prof < 3; prof++) {
    const char *pn = prof == 2 ? "h100, delay harness"
                               : prof ? "h100" : "weak";
    wl_sample_opts o;
    wl_law *w = NULL;
    wl_hist *h = NULL;
    int64_t vals[2048], hv[2048];
    int nv = wl_result_nvars(r), bad = 0;
    size_t i, j, no;
    double sum = 0, R = (double)law_runs;
    memset(&o, 0, sizeof o);
    /* the law itself, with as many states as 2^20 runs take (16,384) */
    o.runs = (uint64_t)1 << 20;
    o.seed = seed;
    o.profile = prof ? WL_PROFILE_H100 : WL_PROFILE_WEAK;
    o.harness = prof == 2 ? wl_cuda_harness_find("delay") : 0;
    if (wl_sample_law(ctx, t, &o, &w) != 0) {
      snprintf(why, sizeof why, "wl_sample_law fails (%s profile): %s", pn,
               wl_ctx_errmsg(ctx));
      fail(st, "law", name, text, why);
      continue;
    }
    if (!wl_law_exact(w)) {
      st->lawfb++;
      wl_law_free(w);
      continue;
    }
    st->laws++;
    no = wl_law_noutcomes(w);
    for (i = 0; i <= no; i++)
      sum += wl_law_prob(w, i);
    if (!(sum > 1 - 1e-9 && sum < 1 + 1e-9)) {
      snprintf(why, sizeof why, "the %s profile's law sums to %.17g", pn, sum);
      fail(st, "law", name, text, why);
      bad = 1;
    }
    for (i = 0; i < no && !bad; i++) {
      wl_law_values(w, i, vals, nv);
      if (wl_law_prob(w, i) > 0 && find_state(r, vals, nv) < 0) {
        char sv[1024];
        state_text(r, vals, sv, sizeof sv);
        snprintf(why, sizeof why,
                 "the %s profile's law gives a forbidden state (p = %.3g): "
                 "%s",
                 pn, wl_law_prob(w, i), sv);
        fail(st, "law", name, text, why);
        bad = 1;
      }
    }
    o.runs = law_runs;
    o.step = 1;
    if (!bad && wl_sample(ctx, t, &o, &h) != 0) {
      snprintf(why, sizeof why, "the sampler fails (%s profile): %s", pn,
               wl_ctx_errmsg(ctx));
      fail(st, "law", name, text, why);
      bad = 1;
    }
    /* each law outcome (and hanging) against the runs' count */
    for (i = 0; i <= no && !bad; i++) {
      double p = wl_law_prob(w, i), c = 0, tol, d;
      char sv[1024];
      if (i < no) {
        wl_law_values(w, i, vals, nv);
        for (j = 0; j < wl_hist_noutcomes(h); j++) {
          wl_hist_values(h, j, hv, nv);
          if (memcmp(hv, vals, (size_t)nv * sizeof *vals) == 0)
            c = (double)wl_hist_count(h, j);
        }
        state_text(r, vals, sv, sizeof sv);
      } else {
        c = (double)wl_hist_hung(h);
        snprintf(sv, sizeof sv, "(hung)");
      }
      /* |c - R p| > 6 sqrt(R p (1 - p)) + 6, without libm */
      d = c > R * p ? c - R * p : R * p - c;
      tol = 36 * R * p * (1 - p);
      if ((d > 6 && (d - 6) * (d - 6) > tol) || (p > 20 / R && c == 0) ||
          (p == 0 && c > 0)) {
        snprintf(why, sizeof why,
                 "the %s profile: %.0f of %.0f step-by-step runs gave %s, "
                 "the law's p = %.6g expects %.1f (6 sigma: %.1f)",
                 pn, c, R, sv, p, R * p, 6 * sqrt36(tol / 36));
        fail(st, "law", name, text, why);
        bad = 1;
      }
    }
    /* every outcome of the runs is in the law's support */
    for (j = 0; h != NULL && j < wl_hist_noutcomes(h) && !bad; j++) {
      wl_hist_values(h, j, hv, nv);
      for (i = 0; i < no; i++) {
        wl_law_values(w, i, vals, nv);
        if (memcmp(hv, vals, (size_t)nv * sizeof *vals) == 0 &&
            wl_law_prob(w, i) > 0)
          break;
      }
      if (i == no) {
        char sv[1024];
        state_text(r, hv, sv, sizeof sv);
        snprintf(why, sizeof why,
                 "the %s profile's runs gave %s (%llu times), which its "
                 "law does not",
                 pn, sv, (unsigned long long)wl_hist_count(h, j));
        fail(st, "law", name, text, why);
        bad = 1;
      }
    }
    wl_hist_free(h);
    wl_law_free(w);
  }
}

static void check_test(wl_ctx *ctx, stats *st, const char *name,
                       const char *text, size_t len, const wl_model *m,
                       unsigned props, uint64_t runs, wl_gen *g,
                       uint64_t seed) {
  wl_litmus *t = NULL;
  wl_result *r = NULL, *c = NULL;
  char why[2048];
  double t0;
  int rc;
  st->tests++;
  if ((rc = wl_litmus_parse(ctx, name, text, len, &t)) != 0) {
    fail(st, "parse", name, text, wl_ctx_errmsg(ctx));
    return;
  }
  t0 = now();
  rc = explore(ctx, t, NULL, &r);
  st->t_fast += now() - t0;
  if (rc != 0) {
    if (rc == WL_EUNSUPPORTED || rc == WL_ELIMIT || rc == WL_ESTOPPED) {
      st->skipped++;
      printf("SKIP %s: %s\n", name,
             rc == WL_ESTOPPED ? "the explorer took longer than --timeout"
                               : wl_ctx_errmsg(ctx));
    } else {
      fail(st, "explore", name, text, wl_ctx_errmsg(ctx));
    }
    wl_litmus_free(t);
    return;
  }
  st->states += wl_result_nstates(r);
  if (props & P_CAT) {
    t0 = now();
    rc = explore(ctx, t, m, &c);
    st->t_cat += now() - t0;
    if (now() - t0 > 1.0)
      fprintf(stderr, "props: slow: the cat evaluator took %.1f s on %s\n",
              now() - t0, name);
    if (rc == WL_ESTOPPED || rc == WL_ELIMIT) {
      st->skipped++;
      printf("SKIP %s: the cat evaluator: %s\n", name,
             rc == WL_ESTOPPED ? "took longer than --timeout"
                               : wl_ctx_errmsg(ctx));
    } else if (rc != 0) {
      snprintf(why, sizeof why, "the cat evaluator fails: %s",
               wl_ctx_errmsg(ctx));
      fail(st, "cat", name, text, why);
    } else if (wl_result_verdict(c) != wl_result_verdict(r) ||
               wl_result_bound_hit(c) != wl_result_bound_hit(r)) {
      snprintf(why, sizeof why,
               "verdict %d (bound hit %d) from the explorer, %d (%d) from "
               "the cat evaluator",
               wl_result_verdict(r), wl_result_bound_hit(r),
               wl_result_verdict(c), wl_result_bound_hit(c));
      fail(st, "cat", name, text, why);
    } else if (!subset(r, c, why, sizeof why,
                       "the explorer allows, the cat model forbids") ||
               !subset(c, r, why, sizeof why,
                       "the cat model allows, the explorer forbids")) {
      fail(st, "cat", name, text, why);
    }
  }
  if (props & P_SC) {
    scck k;
    int hit = 0;
    memset(&k, 0, sizeof k);
    k.r = r;
    k.c = c;
    t0 = now();
    rc = wl_sc_states(ctx, t, 0, sc_each, &k, &hit);
    st->t_sc += now() - t0;
    if (rc != 0 && rc != WL_EUNSUPPORTED) {
      snprintf(why, sizeof why, "the SC interpreter fails: %s",
               wl_ctx_errmsg(ctx));
      fail(st, "sc", name, text, why);
    } else {
      if (k.bad)
        fail(st, "sc", name, text, k.why);
      if (k.badcat)
        fail(st, "sc-cat", name, text, k.whycat);
    }
  }
  wl_result_free(c);
  if ((props & P_SAMPLE) && runs > 0) {
    int prof;
    t0 = now();
    /* weak, h100, and h100 with the delay harness */
    for (prof = 0; prof < 3; prof++) {
      wl_sample_opts o;
      wl_hist *h = NULL;
      wl_law *w = NULL;
      size_t i;
      memset(&o, 0, sizeof o);
      o.runs = runs;
      o.seed = seed;
      o.profile = prof == 0 ? WL_PROFILE_WEAK : WL_PROFILE_H100;
      o.harness = prof == 2 ? wl_cuda_harness_find("delay") : 0;
      /* the runs come from the exact law when the test has one: then
       * its whole support (rare outcomes too) must be allowed */
      if ((rc = wl_sample_law(ctx, t, &o, &w)) != 0 ||
          (o.law = w, rc = wl_sample(ctx, t, &o, &h)) != 0) {
        snprintf(why, sizeof why, "the sampler fails (%s profile): %s",
                 prof == 2 ? "h100 (delay harness)" : prof ? "h100" : "weak", wl_ctx_errmsg(ctx));
        fail(st, "sample", name, text, why);
        wl_law_free(w);
        continue;
      }
      for (i = 0; i < wl_law_noutcomes(w); i++) {
        int64_t vals[2048];
        int nv = wl_result_nvars(r);
        wl_law_values(w, i, vals, nv);
        if (wl_law_prob(w, i) > 0 && find_state(r, vals, nv) < 0) {
          char s[1024];
          state_text(r, vals, s, sizeof s);
          snprintf(why, sizeof why,
                   "the %s profile's law gives a forbidden state (p = "
                   "%.3g): %s",
                   prof == 2 ? "h100 (delay harness)" : prof ? "h100" : "weak", wl_law_prob(w, i), s);
          fail(st, "sample", name, text, why);
          break;
        }
      }
      wl_law_free(w);
      w = NULL;
      for (i = 0; i < wl_hist_noutcomes(h); i++) {
        int64_t vals[2048];
        int nv = wl_result_nvars(r);
        wl_hist_values(h, i, vals, nv);
        if (find_state(r, vals, nv) < 0) {
          char s[1024];
          state_text(r, vals, s, sizeof s);
          snprintf(why, sizeof why,
                   "the %s profile produced a forbidden state (%llu "
                   "times): %s",
                   prof == 2 ? "h100 (delay harness)" : prof ? "h100" : "weak",
                   (unsigned long long)wl_hist_count(h, i), s);
          fail(st, "sample", name, text, why);
          break;
        }
      }
      wl_hist_free(h);
    }
    st->t_sample += now() - t0;
  }
  if ((props & P_LAW) && law_runs > 0) {
    t0 = now();
    check_law(ctx, st, name, text, t, r, seed);
    st->t_law += now() - t0;
  }
  if ((props & P_WEAK) && runs > 0)
    check_weak(ctx, st, name, text, t, seed, runs);
  if ((props & P_TWIN) && wl_litmus_nthreads(t) == 2) {
    char *tw = twin_text(text, len);
    if (tw == NULL)
      fail(st, "twin", name, text, "the text has no twin");
    else
      check_twin(ctx, st, name, tw, m);
    free(tw);
  }
  if (props & P_OBSERVED)
    check_observed(ctx, st, name, text, t, r);
  if (props & P_REDUCE)
    check_reduce(ctx, st, name, text, t, m, props, seed);
  /* a padded test costs ten of its own: every fourth test */
  if ((props & P_PAD) && wl_litmus_nthreads(t) <= 4 && seed % 4 == 0)
    check_pad(ctx, st, name, text, len, r);
  if ((props & P_VARIANT) && g != NULL) {
    t0 = now();
    if (!check_variant(ctx, g, seed ^ 0x9e3779b97f4a7c15ull, r, why,
                       sizeof why))
      fail(st, "variant", name, text, why);
    st->t_variant += now() - t0;
  }
  wl_result_free(r);
  wl_litmus_free(t);
}

/* ---------------- generated tests ---------------- */

/* The kinds of generated tests, taken in turn: random programs with
 * every kind of instruction (2 threads of 4 instructions, 3 of 3; with
 * --large also 4 threads of 3, whose literal cat evaluation takes up to
 * seconds each), and sampled cycles (every family shape, and cycles over
 * the whole edge vocabulary). */
static void gen_opts(int kind, uint64_t seed, wl_gen_opts *o) {
  memset(o, 0, sizeof *o);
  o->seed = seed;
  switch (kind) {
  case 0:
    o->mode = WL_GEN_RANDOM;
    o->threads = 2;
    o->insns = 4;
    o->locs = 2;
    break;
  case 1:
    o->mode = WL_GEN_RANDOM;
    o->threads = 3;
    o->insns = 3;
    o->locs = 2;
    break;
  case 2:
    o->mode = WL_GEN_FAMILY;
    o->family = "all";
    o->sample = 1;
    break;
  case 3:
    o->mode = WL_GEN_EDGES;
    o->edges = "PodWW PodWR PodRW PodRR Rfe Fre Coe Rfi Fri Rmw DpDatadW "
               "DpCtrldW FenceScCtadWW FenceScGpudWR FenceAcqRelSysdRR";
    o->max_size = 5;
    o->sample = 1;
    break;
  case 4:
    o->mode = WL_GEN_RANDOM;
    o->threads = 4;
    o->insns = 3;
    o->locs = 3;
    break;
  default: /* interchangeable threads, for reduce: at most 3 writes
            * (the generator's 4 with --large) */
    o->mode = WL_GEN_COPIES;
    o->max_size = large ? 0 : 3;
    break;
  }
}

#define NKINDS 7
#define KIND_TICKETS 6 /* tickets.h, not a wl_gen */
static const char *const kind_names[NKINDS] = {
    "random", "random3", "family", "edges", "random4", "copies", "tickets"};

int main(int argc, char **argv) {
  static const struct option longopts[] = {
      {"count", required_argument, NULL, 'n'},
      {"seed", required_argument, NULL, 's'},
      {"runs", required_argument, NULL, 'r'},
      {"model", required_argument, NULL, 'm'},
      {"keep", required_argument, NULL, 'k'},
      {"only", required_argument, NULL, 'o'},
      {"from", no_argument, NULL, 'f'},
      {"large", no_argument, NULL, 'L'},
      {"timeout", required_argument, NULL, 't'},
      {"kind", required_argument, NULL, 'K'},
      {"all-combos", no_argument, NULL, 'A'},
      {"law-runs", required_argument, NULL, 'W'},
      {NULL, 0, NULL, 0}};
  unsigned long count = 2000, i;
  uint64_t seed = 1, runs = 200;
  const char *model_path = NULL;
  unsigned props = P_CAT | P_SC | P_SAMPLE | P_LAW | P_WEAK | P_VARIANT |
                   P_TWIN | P_PAD | P_OBSERVED | P_REDUCE;
  int from = 0, nkinds = 0, c, k, kinds[NKINDS];
  wl_ctx *ctx;
  wl_model *m = NULL;
  wl_gen *gens[NKINDS];
  stats st;
  double t0 = now();
  char path[1200];
  while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
    switch (c) {
    case 'n':
      count = strtoul(optarg, NULL, 10);
      break;
    case 's':
      seed = strtoull(optarg, NULL, 10);
      break;
    case 'r':
      runs = strtoull(optarg, NULL, 10);
      break;
    case 'W':
      law_runs = strtoull(optarg, NULL, 10);
      break;
    case 'm':
      model_path = optarg;
      break;
    case 'k':
      keep_dir = optarg;
      break;
    case 'o':
      props = (strstr(optarg, "cat") ? P_CAT : 0) |
              (strstr(optarg, "sc") ? P_SC : 0) |
              (strstr(optarg, "sample") ? P_SAMPLE : 0) |
              (strstr(optarg, "law") ? P_LAW : 0) |
              (strstr(optarg, "weak") ? P_WEAK : 0) |
              (strstr(optarg, "variant") ? P_VARIANT : 0) |
              (strstr(optarg, "twin") ? P_TWIN : 0) |
              (strstr(optarg, "pad") ? P_PAD : 0) |
              (strstr(optarg, "observed") ? P_OBSERVED : 0) |
              (strstr(optarg, "reduce") ? P_REDUCE : 0);
      break;
    case 'K': {
      const char *p = optarg;
      nkinds = 0;
      while (*p != '\0') {
        size_t n = strcspn(p, ",");
        for (k = 0; k < NKINDS; k++)
          if (strlen(kind_names[k]) == n && strncmp(p, kind_names[k], n) == 0)
            break;
        if (k == NKINDS || nkinds == NKINDS) {
          fprintf(stderr, "props: --kind takes a list of random, random3, "
                          "family, edges, random4, copies, not '%s'\n",
                  optarg);
          return 2;
        }
        kinds[nkinds++] = k;
        p += n + (p[n] == ',');
      }
      break;
    }
    case 'A':
      all_combos = 1;
      break;
    case 'f':
      from = from_files = 1;
      break;
    case 'L':
      large = 1;
      break;
    case 't':
      per_test = strtod(optarg, NULL);
      break;
    default:
      fprintf(stderr, "usage: props [--count N] [--seed S] [--runs R] "
                      "[--model CAT] [--keep DIR] [--only LIST] "
                      "[--kind LIST] [--all-combos] [--large] [--law-runs R] "
                      "[--timeout S] [--from FILE...]\n");
      return 2;
    }
  }
  if (model_path == NULL) {
    const char *sh = getenv("WARPLAB_SHARED");
    snprintf(path, sizeof path, "%s/spec/ptx-v6.0-isa.cat",
             sh ? sh : "../shared");
    model_path = path;
  }
  if (wl_ctx_new(NULL, &ctx) != 0)
    return 2;
  if (wl_model_load(ctx, model_path, &m) != 0) {
    fprintf(stderr, "props: %s\n", wl_ctx_errmsg(ctx));
    return 2;
  }
  if ((props & P_WEAK) && wl_model_parse(ctx, "sc.cat", SC_CAT,
                                          sizeof SC_CAT - 1, &sc_model) != 0) {
    fprintf(stderr, "props: the SC model: %s\n", wl_ctx_errmsg(ctx));
    return 2;
  }
  memset(&st, 0, sizeof st);
  memset(gens, 0, sizeof gens);
  if (from) {
    for (k = optind; k < argc; k++) {
      size_t len;
      char *src = slurp(argv[k], &len);
      if (src == NULL) {
        printf("FAIL read %s\n", argv[k]);
        st.failures++;
        continue;
      }
      check_test(ctx, &st, argv[k], src, len, m, props & ~(unsigned)P_VARIANT,
                 runs, NULL, seed);
      free(src);
    }
  } else {
    if (nkinds == 0) /* the default kinds */
      for (k = 0; k < (large ? 5 : 4); k++)
        kinds[nkinds++] = k;
    for (k = 0; k < nkinds; k++) {
      wl_gen_opts o;
      if (kinds[k] == KIND_TICKETS)
        continue; /* written by ticket_text */
      /* (the seeds of the first five kinds as before --kind) */
      gen_opts(kinds[k], seed * 5 + (uint64_t)kinds[k], &o);
      if (wl_gen_new(ctx, &o, &gens[k]) != 0) {
        fprintf(stderr, "props: %s\n", wl_ctx_errmsg(ctx));
        return 2;
      }
    }
    for (i = 0; i < count; i++) {
      wl_gen *g = gens[i % (unsigned long)nkinds];
      const char *text;
      size_t len;
      if (kinds[i % (unsigned long)nkinds] == KIND_TICKETS) {
        static char tbuf[16384];
        char tname[64];
        uint64_t ts = seed * 1000003u + i;
        if (ticket_text(ts, !large, tbuf, sizeof tbuf) == NULL) {
          fprintf(stderr, "props: a ticket test does not fit\n");
          return 2;
        }
        snprintf(tname, sizeof tname, "ticket-%llu", (unsigned long long)ts);
        check_test(ctx, &st, tname, tbuf, strlen(tbuf), m,
                   props & ~(unsigned)P_VARIANT, runs, NULL, seed + i);
        continue;
      }
      if (wl_gen_next(g, &text, &len) != 0 || text == NULL) {
        fprintf(stderr, "props: the generator stopped: %s\n",
                wl_ctx_errmsg(ctx));
        return 2;
      }
      check_test(ctx, &st, wl_gen_name(g), text, len, m, props, runs, g,
                 seed + i);
    }
  }
  if (props & P_REDUCE)
    printf("props: reduce: %lu tests, %lu searches compared with warplab "
           "litmus's defaults, %.2f seconds (reductions off %.2f, full "
           "%.2f, values %.2f, rf %.2f, cat %.2f)\n",
           st.reduced, st.rvariants, st.t_reduce, st.t_rv[0], st.t_rv[1],
           st.t_rv[2], st.t_rv[3], st.t_rv[4]);
  printf("props: %lu tests, %lu failures, %lu skipped (over a limit), %lu "
         "states; seconds: explorer %.2f, cat %.2f, sc %.2f, sample %.2f, "
         "variant %.2f, reduce %.2f, total %.2f\n",
         st.tests, st.failures, st.skipped, st.states, st.t_fast, st.t_cat,
         st.t_sc, st.t_sample, st.t_variant, st.t_reduce, now() - t0);
  if (props & P_LAW)
    printf("law: %lu laws compared with %llu step-by-step runs each, %lu "
           "fell back (step by step only); %.2f s\n",
           st.laws, (unsigned long long)law_runs, st.lawfb, st.t_law);
  if (props & P_WEAK)
    printf("weak: %lu tests (%lu with barriers), %lu histograms whose marks "
           "are unknown, %lu outcomes marked weak, %lu not; %.2f s\n",
           st.wtests, st.wbar, st.wunknown, st.wweak, st.wsc, st.t_weak);
  for (k = 0; k < NKINDS; k++)
    wl_gen_free(gens[k]);
  wl_model_free(m);
  wl_model_free(sc_model);
  wl_ctx_free(ctx);
  return st.failures ? 1 : 0;
}
