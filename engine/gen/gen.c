/* gen.c -- the generator's handle: options, the order in which tests
 * come (enumeration or sampling), the printer, and variants.
 *
 * An enumeration walks cycles in order (for WL_GEN_EDGES: every sequence
 * of vocabulary indices of each length that is its own smallest
 * rotation, so each cycle comes once) and, for each cycle that makes a
 * test, every annotation and then every placement.  Sampling draws all
 * three from the PRNG.  The PRNG is the handle's: nothing else draws
 * from it, so a seed replays. */
#include <stdio.h>
#include <string.h>

#include "gen.h"

const char *const wl__gen_locpool[GMAX_L] = {"x", "y", "z", "w",
                                             "u", "v", "s", "t"};

static const char *const scope_words[] = {"", "cta", "gpu", "sys"};
static const char *const sem_words[] = {"weak",    "relaxed", "acquire",
                                        "release", "acq_rel", "sc"};
static const char *const place_words[] = {"cta", "gpu", "sys", "mix"};
static const char *const aop_words[] = {"add", "sub", "mul", "div", "rem",
                                        "and", "or",  "xor", "min", "max",
                                        "inc", "dec", "exch", "cas"};

struct wl_gen {
  wl_ctx *ctx;
  wl_gen_opts o;
  char *strs[3]; /* copies of cycle, family, edges */
  uint64_t rng;
  uint64_t produced;
  int done;
  /* cycles */
  gedge voc[GMAX_VOCAB];
  int nvoc;
  gedge cyc[GMAX_CYCLE];
  int ncyc, have_cycle;
  int fam;                  /* FAMILY: the current family, -1: none yet */
  int seq[GMAX_CYCLE], len; /* EDGES: the odometer */
  gann anns[16];
  int nann, places[4], nplace, anni, placei;
  /* the last test */
  gtest cur;
  int have_cur;
  wl_buf text, vtext;
};

/* ---------------------------------------------------------------- */
/* PRNG                                                              */

uint64_t wl__gen_rand(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

int wl__gen_below(uint64_t *s, int n) {
  return n <= 1 ? 0 : (int)(wl__gen_rand(s) % (uint64_t)n);
}

/* ---------------------------------------------------------------- */
/* Printing                                                          */

void wl__gen_identity(gnames *n) {
  int i, k;
  for (i = 0; i < GMAX_T; i++)
    n->order[i] = i;
  for (i = 0; i < GMAX_L; i++)
    n->locname[i] = n->decl[i] = i;
  for (i = 0; i < GMAX_T; i++)
    for (k = 0; k < GMAX_R; k++)
      n->regname[i][k] = k;
}

static void print_op(const gop *o, int t, const gnames *nm, char *buf,
                     size_t len) {
  const char *L = o->loc >= 0 ? wl__gen_locpool[nm->locname[o->loc]] : "";
  char q[32], v[24];
  if (o->sem == WL_SEM_WEAK || o->scope == WL_SCOPE_NONE)
    snprintf(q, sizeof q, ".%s", o->sem == WL_SEM_WEAK ? "weak" : "");
  else
    snprintf(q, sizeof q, ".%s.%s", sem_words[o->sem], scope_words[o->scope]);
  if (o->src >= 0)
    snprintf(v, sizeof v, "r%d", nm->regname[t][o->src]);
  else
    snprintf(v, sizeof v, "%lld", (long long)o->a);
  switch (o->kind) {
  case G_LD:
    snprintf(buf, len, "ld%s r%d, %s", q, nm->regname[t][o->dst], L);
    break;
  case G_ST:
    snprintf(buf, len, "st%s %s, %s", q, L, v);
    break;
  case G_ATOM:
    if (o->sem == WL_SEM_WEAK)
      q[0] = '\0';
    if (o->aop == WL_OP_CAS)
      snprintf(buf, len, "atom%s.cas r%d, %s, %lld, %lld", q,
               nm->regname[t][o->dst], L, (long long)o->a, (long long)o->b);
    else
      snprintf(buf, len, "atom%s.%s r%d, %s, %s", q, aop_words[o->aop],
               nm->regname[t][o->dst], L, v);
    break;
  case G_RED:
    snprintf(buf, len, "red%s.%s %s, %s", q, aop_words[o->aop], L, v);
    break;
  case G_FENCE:
    snprintf(buf, len, "fence.%s.%s", sem_words[o->sem],
             scope_words[o->scope]);
    break;
  case G_BAR:
    snprintf(buf, len, "bar.sync 0");
    break;
  case G_ALU:
    if (o->aop == WL_OP_XOR)
      snprintf(buf, len, "xor r%d, r%d, r%d", nm->regname[t][o->dst],
               nm->regname[t][o->src], nm->regname[t][o->src]);
    else
      snprintf(buf, len, "add r%d, r%d, %lld", nm->regname[t][o->dst],
               nm->regname[t][o->src], (long long)o->a);
    break;
  case G_BR:
    snprintf(buf, len, "%s r%d, %lld, LC%d%d", o->ne ? "bne" : "beq",
             nm->regname[t][o->src], (long long)o->a, t, o->label);
    break;
  default:
    snprintf(buf, len, "LC%d%d:", t, o->label);
    break;
  }
}

static void print_atom(const gtest *t, const gatom *a, const gnames *nm,
                       const int *vpos, wl_buf *b) {
  if (a->thread < 0)
    wl__buf_printf(b, "%s", wl__gen_locpool[nm->locname[a->idx]]);
  else
    wl__buf_printf(b, "P%d:r%d", vpos[a->thread],
                   nm->regname[a->thread][a->idx]);
  (void)t;
  /* herd's syntax: "P1:r0=1", "x!=2" (warplab reads it as well) */
  wl__buf_printf(b, "%s%lld", a->ne ? "!=" : "=", (long long)a->v);
}

void wl__gen_print(const gtest *t, const gnames *nm, wl_buf *b) {
  static const char *const kinds[] = {"exists", "~exists", "forall"};
  char cell[GMAX_T][96];
  int width[GMAX_T], vpos[GMAX_T];
  int i, k, c, rows = 0;
  for (i = 0; i < t->nthreads; i++)
    vpos[nm->order[i]] = i;
  wl__buf_printf(b, "PTX %s\n\"%s\"\n{", t->name, t->comment);
  for (i = 0; i < t->nlocs; i++)
    wl__buf_printf(b, " %s=0;", wl__gen_locpool[nm->locname[nm->decl[i]]]);
  wl__buf_puts(b, " }\n");
  /* column widths: the thread headers and every cell */
  for (i = 0; i < t->nthreads; i++) {
    const gthread *th = &t->th[nm->order[i]];
    width[i] = snprintf(cell[i], sizeof cell[i], "P%d@cta %d,gpu %d", i,
                        th->cta, th->gpu);
    if (th->nops > rows)
      rows = th->nops;
    for (k = 0; k < th->nops; k++) {
      char s[96];
      int w;
      print_op(&th->op[k], nm->order[i], nm, s, sizeof s);
      w = (int)strlen(s);
      if (w > width[i])
        width[i] = w;
    }
  }
  for (k = -1; k < rows; k++) {
    for (i = 0; i < t->nthreads; i++) {
      const gthread *th = &t->th[nm->order[i]];
      if (k < 0)
        snprintf(cell[i], sizeof cell[i], "P%d@cta %d,gpu %d", i, th->cta,
                 th->gpu);
      else if (k < th->nops)
        print_op(&th->op[k], nm->order[i], nm, cell[i], sizeof cell[i]);
      else
        cell[i][0] = '\0';
      wl__buf_printf(b, " %-*s %s", width[i], cell[i],
                     i + 1 < t->nthreads ? "|" : ";\n");
    }
  }
  wl__buf_printf(b, "%s (", kinds[t->kind]);
  for (c = 0; c < t->nclauses; c++) {
    if (t->nclauses > 1)
      wl__buf_puts(b, c ? " \\/ (" : "(");
    for (k = 0; k < t->nat[c]; k++) {
      if (k)
        wl__buf_puts(b, " /\\ ");
      print_atom(t, &t->at[c][k], nm, vpos, b);
    }
    if (t->nclauses > 1)
      wl__buf_puts(b, ")");
  }
  if (t->nclauses == 1 && t->nat[0] == 0)
    wl__buf_puts(b, "true");
  wl__buf_puts(b, ")\n");
}

/* ---------------------------------------------------------------- */
/* Options                                                           */

static int einval_range(wl_ctx *ctx, const char *field, long long v, int lo,
                        int hi) {
  return wl__err(ctx, WL_EINVAL, "wl_gen_opts.%s: %lld is not in %d..%d",
                 field, v, lo, hi);
}

static int check_bits(wl_ctx *ctx, const char *field, unsigned v,
                      unsigned all) {
  if (v & ~all)
    return wl__err(ctx, WL_EINVAL,
                   "wl_gen_opts.%s: 0x%x has bits that name nothing (the "
                   "valid bits are 0x%x)",
                   field, v, all);
  return 0;
}

static int find_family(const char *name) {
  int f;
  for (f = 0; wl__gen_family_names[f] != NULL; f++)
    if (strcmp(wl__gen_family_names[f], name) == 0)
      return f;
  return -1;
}

const char *const *wl_gen_families(void) { return wl__gen_family_names; }

const char *wl_gen_family_cycle(const char *name) {
  int f = name != NULL ? find_family(name) : -1;
  return f >= 0 ? wl__gen_family_cycles[f] : NULL;
}

static int check_opts(wl_ctx *ctx, const wl_gen_opts *o) {
  int r;
  if (o->mode < WL_GEN_CYCLE || o->mode > WL_GEN_COPIES)
    return wl__err(ctx, WL_EINVAL,
                   "wl_gen_opts.mode: %d is not WL_GEN_CYCLE, WL_GEN_FAMILY, "
                   "WL_GEN_EDGES, WL_GEN_RANDOM or WL_GEN_COPIES",
                   o->mode);
  if (o->sample != 0 && o->sample != 1)
    return einval_range(ctx, "sample", o->sample, 0, 1);
  if ((r = check_bits(ctx, "annotations", o->annotations, 15)) != 0 ||
      (r = check_bits(ctx, "placements", o->placements, 15)) != 0 ||
      (r = check_bits(ctx, "scopes", o->scopes, 7)) != 0 ||
      (r = check_bits(ctx, "mix", o->mix, 255)) != 0)
    return r;
  if (o->mode == WL_GEN_CYCLE && o->cycle == NULL)
    return wl__err(ctx, WL_EINVAL,
                   "wl_gen_opts.cycle: NULL (WL_GEN_CYCLE needs a cycle, "
                   "e.g. \"PodWW Rfe PodRR Fre\")");
  if (o->mode == WL_GEN_FAMILY) {
    if (o->family == NULL)
      return wl__err(ctx, WL_EINVAL,
                     "wl_gen_opts.family: NULL (WL_GEN_FAMILY needs a "
                     "name, e.g. \"MP\", or \"all\")");
    if (strcmp(o->family, "all") != 0 && find_family(o->family) < 0) {
      char list[256] = "";
      int f;
      for (f = 0; wl__gen_family_names[f] != NULL; f++) {
        size_t at = strlen(list);
        snprintf(list + at, sizeof list - at, "%s, ",
                 wl__gen_family_names[f]);
      }
      return wl__err(ctx, WL_EINVAL,
                     "wl_gen_opts.family: '%s' is not a family (expected "
                     "%sor all)",
                     o->family, list);
    }
  }
  if (o->mode == WL_GEN_EDGES && o->max_size != 0 &&
      (o->max_size < 3 || o->max_size > GMAX_CYCLE))
    return einval_range(ctx, "max_size", o->max_size, 3, GMAX_CYCLE);
  if (o->mode == WL_GEN_RANDOM) {
    if (o->threads < 0 || o->threads > GMAX_T)
      return einval_range(ctx, "threads", o->threads, 1, GMAX_T);
    if (o->insns < 0 || o->insns > 16)
      return einval_range(ctx, "insns", o->insns, 1, 16);
    if (o->locs < 0 || o->locs > GMAX_L)
      return einval_range(ctx, "locs", o->locs, 1, GMAX_L);
  }
  if (o->mode == WL_GEN_COPIES) {
    if (o->threads != 0 && (o->threads < 2 || o->threads > GMAX_T))
      return einval_range(ctx, "threads", o->threads, 2, GMAX_T);
    if (o->insns < 0 || o->insns > 3)
      return einval_range(ctx, "insns", o->insns, 1, 3);
    if (o->locs < 0 || o->locs > 2)
      return einval_range(ctx, "locs", o->locs, 1, 2);
    if (o->max_size < 0 || o->max_size > GMAX_T)
      return einval_range(ctx, "max_size", o->max_size, 1, GMAX_T);
  }
  return 0;
}

static void build_choices(wl_gen *g) {
  unsigned a = g->o.annotations, p = g->o.placements;
  int s, k;
  if (a == 0)
    a = g->o.sample ? 15u : 7u;
  if (p == 0)
    p = g->o.sample ? 15u : 7u;
  g->nann = 0;
  if (a & WL_GEN_ANN_WEAK)
    g->anns[g->nann++].kind = ANN_WEAK;
  for (k = 0; k < 2; k++) {
    if (!(a & (k ? WL_GEN_ANN_ACQREL : WL_GEN_ANN_RELAXED)))
      continue;
    for (s = 0; s < 3; s++) {
      if (g->o.scopes != 0 && !(g->o.scopes & (1u << s)))
        continue;
      g->anns[g->nann].kind = k ? ANN_RA : ANN_RLX;
      g->anns[g->nann++].scope = WL_SCOPE_CTA + s;
    }
  }
  if (a & WL_GEN_ANN_MIX)
    g->anns[g->nann++].kind = ANN_MIX;
  if (g->nann == 0) /* only scoped annotations asked, with no scope */
    g->anns[g->nann++].kind = ANN_WEAK;
  g->nplace = 0;
  for (k = 0; k < 4; k++)
    if (p & (1u << k))
      g->places[g->nplace++] = k;
}

static void ann_word(const gann *a, char *buf, size_t n) {
  if (a->kind == ANN_WEAK)
    snprintf(buf, n, "weak");
  else if (a->kind == ANN_MIX)
    snprintf(buf, n, "mix");
  else
    snprintf(buf, n, "%s.%s", a->kind == ANN_RLX ? "rlx" : "ra",
             scope_words[a->scope]);
}

/* Parses family f's cycle into g->cyc. */
static void load_family(wl_gen *g, int f) {
  g->fam = f;
  wl__gen_parse_edges(g->ctx, "family", wl__gen_family_cycles[f], 0, g->cyc,
                      GMAX_CYCLE, &g->ncyc);
}

/* A cycle of the odometer: valid when it is its own smallest rotation
 * and makes a test. */
static int seq_ok(wl_gen *g) {
  int r, i, n = g->len;
  gtest t;
  gann a;
  char why[160];
  uint64_t rng = 0;
  for (r = 1; r < n; r++) {
    for (i = 0; i < n; i++) {
      int x = g->seq[i], y = g->seq[(i + r) % n];
      if (x != y) {
        if (y < x)
          return 0;
        break;
      }
    }
  }
  for (i = 0; i < n; i++)
    g->cyc[i] = g->voc[g->seq[i]];
  g->ncyc = n;
  a.kind = ANN_WEAK;
  a.scope = 0;
  return wl__gen_cycle_build(g->cyc, n, &a, PL_CTA, 0, &rng, &t, why,
                             sizeof why) == 0;
}

/* Moves the odometer to the next sequence whose neighbouring edges
 * chain (including the last to the first) and whose first edge is its
 * smallest; fresh starts at length len.  0 at the end of this length. */
static int seq_step(wl_gen *g, int fresh) {
  int n = g->len, k;
  if (fresh) {
    k = 0;
    g->seq[0] = 0;
  } else {
    k = n - 1;
    g->seq[k]++;
  }
  for (;;) {
    if (g->seq[k] >= g->nvoc) {
      if (--k < 0)
        return 0;
      g->seq[k]++;
      continue;
    }
    if (k > 0 && (g->seq[k] < g->seq[0] ||
                  g->voc[g->seq[k - 1]].dst != g->voc[g->seq[k]].src)) {
      g->seq[k]++;
      continue;
    }
    if (k == n - 1) {
      if (g->voc[g->seq[k]].dst != g->voc[g->seq[0]].src) {
        g->seq[k]++;
        continue;
      }
      return 1;
    }
    g->seq[++k] = 0;
  }
}

/* The next cycle of an enumeration into g->cyc; 0 at the end. */
static int next_cycle(wl_gen *g) {
  int maxn = g->o.max_size ? g->o.max_size : 4;
  switch (g->o.mode) {
  case WL_GEN_CYCLE:
    if (g->have_cycle)
      return 0;
    return 1; /* parsed by wl_gen_new */
  case WL_GEN_FAMILY:
    if (strcmp(g->o.family, "all") != 0) {
      if (g->have_cycle)
        return 0;
      load_family(g, find_family(g->o.family));
      return 1;
    }
    if (wl__gen_family_names[g->fam + 1] == NULL)
      return 0;
    load_family(g, g->fam + 1);
    return 1;
  default: {
    int fresh = !g->have_cycle;
    if (fresh)
      g->len = 2;
    for (;;) {
      if (!seq_step(g, fresh)) {
        if (++g->len > maxn)
          return 0;
        fresh = 1;
        continue;
      }
      fresh = 0;
      if (seq_ok(g))
        return 1;
    }
  }
  }
}

/* A random cycle from the vocabulary into g->cyc (a walk that chains),
 * 0 when none was found in many tries. */
static int draw_cycle(wl_gen *g) {
  int maxn = g->o.max_size ? g->o.max_size : 4, tries, i;
  for (tries = 0; tries < 20000; tries++) {
    int n = 3 + wl__gen_below(&g->rng, maxn - 2), ok = 1;
    gtest t;
    gann a;
    char why[160];
    uint64_t r2 = 0;
    for (i = 0; i < n && ok; i++) {
      int cand[GMAX_VOCAB], nc = 0, k;
      for (k = 0; k < g->nvoc; k++)
        if (i == 0 || g->voc[k].src == g->cyc[i - 1].dst)
          cand[nc++] = k;
      if (nc == 0)
        ok = 0;
      else
        g->cyc[i] = g->voc[cand[wl__gen_below(&g->rng, nc)]];
    }
    if (!ok)
      continue;
    g->ncyc = n;
    a.kind = ANN_WEAK;
    a.scope = 0;
    if (wl__gen_cycle_build(g->cyc, n, &a, PL_CTA, 0, &r2, &t, why,
                            sizeof why) == 0)
      return 1;
  }
  return 0;
}

static int copy_str(wl_gen *g, int i, const char **field) {
  if (*field == NULL)
    return 0;
  g->strs[i] = wl__strndup(g->ctx, *field, strlen(*field));
  if (g->strs[i] == NULL)
    return wl__err(g->ctx, WL_ENOMEM, "out of memory");
  *field = g->strs[i];
  return 0;
}

int wl_gen_new(wl_ctx *ctx, const wl_gen_opts *opts, wl_gen **out) {
  wl_gen *g;
  int r;
  char why[200];
  if (out != NULL)
    *out = NULL;
  if (ctx == NULL || out == NULL)
    return WL_EINVAL;
  if (opts == NULL)
    return wl__err(ctx, WL_EINVAL, "wl_gen_new: opts is NULL");
  if ((r = check_opts(ctx, opts)) != 0)
    return r;
  g = wl__calloc(ctx, sizeof *g);
  if (g == NULL)
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  g->ctx = ctx;
  g->o = *opts;
  g->rng = opts->seed;
  g->fam = -1;
  wl__buf_init(&g->text, ctx);
  wl__buf_init(&g->vtext, ctx);
  if ((r = copy_str(g, 0, &g->o.cycle)) != 0 ||
      (r = copy_str(g, 1, &g->o.family)) != 0 ||
      (r = copy_str(g, 2, &g->o.edges)) != 0)
    goto fail;
  build_choices(g);
  if (g->o.mode == WL_GEN_CYCLE) {
    gtest t;
    gann a;
    uint64_t r2 = 0;
    if ((r = wl__gen_parse_edges(ctx, "cycle", g->o.cycle, 0, g->cyc,
                                 GMAX_CYCLE, &g->ncyc)) != 0)
      goto fail;
    a.kind = ANN_WEAK;
    a.scope = 0;
    if (wl__gen_cycle_build(g->cyc, g->ncyc, &a, PL_CTA, 0, &r2, &t, why,
                            sizeof why) != 0) {
      r = wl__err(ctx, WL_EINVAL, "wl_gen_opts.cycle: '%s': %s", g->o.cycle,
                  why);
      goto fail;
    }
  } else if (g->o.mode == WL_GEN_EDGES) {
    wl_gen probe;
    if ((r = wl__gen_parse_edges(
             ctx, "edges",
             g->o.edges ? g->o.edges : "PodWW PodWR PodRW PodRR Rfe Fre Coe",
             1, g->voc, GMAX_VOCAB, &g->nvoc)) != 0)
      goto fail;
    /* at least one cycle must close */
    memcpy(&probe.o, &g->o, sizeof probe.o);
    memcpy(probe.voc, g->voc, sizeof probe.voc);
    probe.nvoc = g->nvoc;
    probe.have_cycle = 0;
    if (!next_cycle(&probe)) {
      r = wl__err(ctx, WL_EINVAL,
                  "wl_gen_opts.edges: no cycle of 3..%d edges closes with "
                  "this vocabulary (a cycle needs two external edges and "
                  "edges whose ends meet)",
                  g->o.max_size ? g->o.max_size : 4);
      goto fail;
    }
  }
  *out = g;
  return 0;
fail:
  wl_gen_free(g);
  return r;
}

void wl_gen_free(wl_gen *g) {
  int i;
  if (g == NULL)
    return;
  for (i = 0; i < 3; i++)
    wl__strfree(g->ctx, g->strs[i]);
  wl__buf_free(&g->text);
  wl__buf_free(&g->vtext);
  wl__free(g->ctx, g, sizeof *g);
}

/* Appends "_ann_place" and, when sampling, "-N" to the test's name. */
static void finish_name(wl_gen *g, const gann *a, int place) {
  gtest *t = &g->cur;
  char w[16];
  size_t at = strlen(t->name);
  ann_word(a, w, sizeof w);
  snprintf(t->name + at, sizeof t->name - at, "_%s_%s", w,
           place_words[place]);
  if (g->o.sample) {
    at = strlen(t->name);
    snprintf(t->name + at, sizeof t->name - at, "-%llu",
             (unsigned long long)g->produced);
  }
}

int wl_gen_next(wl_gen *g, const char **text, size_t *len) {
  gnames nm;
  char why[200];
  if (text != NULL)
    *text = NULL;
  if (len != NULL)
    *len = 0;
  if (g == NULL || text == NULL)
    return WL_EINVAL;
  if (g->done || (g->o.count != 0 && g->produced >= g->o.count)) {
    g->done = 1;
    g->have_cur = 0;
    return 0;
  }
  if (g->o.mode == WL_GEN_RANDOM) {
    wl__gen_random(&g->o, &g->rng, &g->cur);
    snprintf(g->cur.name, sizeof g->cur.name, "rand-s%llu-%llu",
             (unsigned long long)g->o.seed, (unsigned long long)g->produced);
    snprintf(g->cur.comment, sizeof g->cur.comment,
             "random program (warplab gen --random --seed %llu, test %llu)",
             (unsigned long long)g->o.seed, (unsigned long long)g->produced);
  } else if (g->o.mode == WL_GEN_COPIES) {
    wl__gen_copies(&g->o, &g->rng, &g->cur);
    snprintf(g->cur.name, sizeof g->cur.name, "copies-s%llu-%llu",
             (unsigned long long)g->o.seed, (unsigned long long)g->produced);
    snprintf(g->cur.comment, sizeof g->cur.comment,
             "copies of thread bodies (warplab gen --copies --seed %llu, "
             "test %llu)",
             (unsigned long long)g->o.seed, (unsigned long long)g->produced);
  } else if (g->o.sample) {
    const gann *a;
    int place;
    if (g->o.mode == WL_GEN_FAMILY) {
      int f = find_family(g->o.family), nf = 0;
      if (f < 0) {
        while (wl__gen_family_names[nf] != NULL)
          nf++;
        f = wl__gen_below(&g->rng, nf);
      }
      load_family(g, f);
    } else if (g->o.mode == WL_GEN_EDGES && !draw_cycle(g)) {
      return wl__err(g->ctx, WL_EINVAL,
                     "wl_gen_opts.edges: no cycle found by sampling");
    }
    a = &g->anns[wl__gen_below(&g->rng, g->nann)];
    place = g->places[wl__gen_below(&g->rng, g->nplace)];
    wl__gen_cycle_build(g->cyc, g->ncyc, a, place, g->o.scopes, &g->rng,
                        &g->cur, why, sizeof why);
    finish_name(g, a, place);
  } else {
    const gann *a;
    int place;
    if (!g->have_cycle || g->anni >= g->nann) {
      if (!next_cycle(g)) {
        g->done = 1;
        g->have_cur = 0;
        return 0;
      }
      g->have_cycle = 1;
      g->anni = g->placei = 0;
    }
    a = &g->anns[g->anni];
    place = g->places[g->placei];
    if (++g->placei >= g->nplace) {
      g->placei = 0;
      g->anni++;
    }
    wl__gen_cycle_build(g->cyc, g->ncyc, a, place, g->o.scopes, &g->rng,
                        &g->cur, why, sizeof why);
    finish_name(g, a, place);
  }
  g->produced++;
  g->have_cur = 1;
  g->text.n = 0;
  wl__gen_identity(&nm);
  wl__gen_print(&g->cur, &nm, &g->text);
  wl__buf_add(&g->text, "", 1); /* the NUL */
  if (g->text.oom)
    return wl__err(g->ctx, WL_ENOMEM, "out of memory");
  *text = g->text.p;
  if (len != NULL)
    *len = g->text.n - 1;
  return 0;
}

const char *wl_gen_name(const wl_gen *g) {
  return g != NULL && g->have_cur ? g->cur.name : "";
}

/* A random permutation of 0..n-1 into p (Fisher-Yates). */
static void permute(uint64_t *rng, int *p, int n) {
  int i;
  for (i = 0; i < n; i++)
    p[i] = i;
  for (i = n - 1; i > 0; i--) {
    int j = wl__gen_below(rng, i + 1), tmp = p[i];
    p[i] = p[j];
    p[j] = tmp;
  }
}

int wl_gen_variant(wl_gen *g, uint64_t seed, const char **text, size_t *len,
                   wl_gen_map *map) {
  gnames nm;
  const gtest *t;
  uint64_t rng = seed ^ 0x5851f42d4c957f2dull;
  int i, k, pos[GMAX_T];
  if (text != NULL)
    *text = NULL;
  if (len != NULL)
    *len = 0;
  if (g == NULL || text == NULL)
    return WL_EINVAL;
  if (!g->have_cur)
    return wl__err(g->ctx, WL_EINVAL,
                   "wl_gen_variant: no test (call wl_gen_next first)");
  t = &g->cur;
  permute(&rng, nm.order, t->nthreads);
  permute(&rng, nm.locname, GMAX_L);
  permute(&rng, nm.decl, t->nlocs);
  for (i = 0; i < GMAX_T; i++)
    permute(&rng, nm.regname[i], GMAX_R);
  for (i = 0; i < t->nthreads; i++)
    pos[nm.order[i]] = i;
  g->vtext.n = 0;
  wl__gen_print(t, &nm, &g->vtext);
  wl__buf_add(&g->vtext, "", 1);
  if (g->vtext.oom)
    return wl__err(g->ctx, WL_ENOMEM, "out of memory");
  if (map != NULL) {
    memset(map, 0, sizeof *map);
    map->nthreads = t->nthreads;
    map->nlocs = t->nlocs;
    for (i = 0; i < t->nthreads; i++) {
      map->thread[i] = pos[i];
      map->nregs[i] = t->th[i].nregs;
      for (k = 0; k < t->th[i].nregs; k++) {
        snprintf(map->reg[i][k][0], WL_GEN_NAME_MAX, "r%d",
                 (unsigned char)k);
        snprintf(map->reg[i][k][1], WL_GEN_NAME_MAX, "r%d",
                 (unsigned char)nm.regname[i][k]);
      }
    }
    for (k = 0; k < t->nlocs; k++) {
      snprintf(map->loc[k][0], WL_GEN_NAME_MAX, "%s", wl__gen_locpool[k]);
      snprintf(map->loc[k][1], WL_GEN_NAME_MAX, "%s",
               wl__gen_locpool[nm.locname[k]]);
    }
  }
  *text = g->vtext.p;
  if (len != NULL)
    *len = g->vtext.n - 1;
  return 0;
}
