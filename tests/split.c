/* split.c -- the property of one exploration split into units
 * (wl_explore_split, wl_explore_unit, wl_explore_merge; engine/model/
 * split.c), on generated tests:
 *
 *   split    the units run in a shuffled order, alternately on two
 *            explorers of their own contexts (two workers), each
 *            knowing (every other test) the merge of the units before
 *            it that ran already, as a pool's worker does, and merged
 *            in unit order, give a result whose JSON (every state in
 *            order, its witness, counts, verdict, bound flag, race and
 *            hang) and herd text are byte-identical to wl_explore's;
 *            a failure of wl_explore is the failure of the first unit
 *            that fails, in unit order, with the same code and message.
 *
 * Each test is checked under four sets of options: warplab litmus's
 * (observed variables only), every variable, counting executions, and
 * the value search (observed only).  Kinds: random, random3, family,
 * edges, copies (interchangeable threads: symmetry, twins), tickets
 * (tests/tickets.h: the last-block idiom, where inert RMWs commute),
 * loops (spin locks and flag spins: the value search, stutters, and an
 * unroll bound of 1 to 3, stutters off in one test of four: the loop
 * flag).
 *
 *   props_split [--count N] [--seed S] [--kind LIST] [--timeout S]
 *               [--merge-order run] [--ranks own|all] [--from FILE...]
 *
 * --merge-order run merges the units in the order they ran instead
 * (what a driver must not do): the property must then fail (the
 * mutation check of the driver's side, tests/cli/split_mutants.sh;
 * the engine's side is WL_MUTANT_SPLITDROP and WL_MUTANT_SPLITWIT).
 * --ranks own runs the units as MPI ranks do (bindings/lexplore.c's
 * spread): each unit to one of 2 to 4 ranks drawn from the seed (any
 * rank may ask for the next), each rank's units in unit
 * order knowing the merge of that rank's earlier units, each result
 * through wl_result_pack and wl_result_unpack; --ranks all (the
 * mutation check) lets a unit know every unit run before it on any
 * rank, the last rank first: later units' states, so it must fail.
 * One line per failure ("FAIL split NAME: why", then the test's text),
 * then "props_split: N tests, F failures, K skipped".  Exit status 1 on
 * a failure. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../engine/warplab.h"

#include "slurp.h"
#include "tickets.h"

static double per_test = 5.0, deadline;
static int merge_run_order;
/* --ranks own|all: the units dealt to ranks (0 none) */
static int ranks_mode; /* 1 own, 2 all */
static unsigned long tests, failures, skipped, units_run;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int past_deadline(void *ud) {
  (void)ud;
  return now() > deadline;
}

typedef struct buf {
  char *p;
  size_t n, cap;
} buf;

static int buf_write(void *ud, const char *s, size_t n) {
  buf *b = ud;
  if (b->n + n + 1 > b->cap) {
    size_t cap = (b->cap ? b->cap * 2 : 4096) + n;
    char *p = realloc(b->p, cap);
    if (p == NULL)
      return -1;
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = '\0';
  return 0;
}

/* The result as text: JSON (every state, witness, count, finding) then
 * the herd block. */
static char *result_text(const wl_result *r) {
  buf b = {NULL, 0, 0};
  if (wl_result_write_json(r, 0.0, buf_write, &b) != 0 ||
      wl_result_write_herd(r, 0.0, buf_write, &b) != 0) {
    free(b.p);
    return NULL;
  }
  return b.p != NULL ? b.p : calloc(1, 1);
}

static void fail(const char *name, const char *variant, const char *text,
                 const char *why) {
  failures++;
  printf("FAIL split %s (%s): %s\n%s\n", name, variant, why, text);
}

static uint64_t rng(uint64_t *s) {
  uint64_t x = *s;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return *s = x;
}

/* The split exploration of t: units in a shuffled order on two
 * explorers, merged in unit order (or run order).  Returns 0 with
 * *out, or the first failing unit's code (message in *msg, malloc'd). */
static int split_run(wl_ctx *c0, wl_ctx *c1, wl_ctx *cm, const wl_litmus *t,
                     const wl_explore_opts *o, uint64_t seed,
                     wl_result **out, char **msg) {
  wl_explorer *e[2] = {NULL, NULL};
  wl_ctx *cx[2] = {c0, c1};
  wl_result **parts = NULL, *acc = NULL;
  size_t n, i, *order = NULL, firstbad = (size_t)-1;
  int rc = 0, w, *rcs = NULL;
  char **msgs = NULL;
  *out = NULL;
  *msg = NULL;
  for (w = 0; w < 2; w++)
    if ((rc = wl_explore_split(cx[w], t, o, &e[w])) != 0) {
      *msg = strdup(wl_ctx_errmsg(cx[w]));
      goto done;
    }
  n = wl_explorer_units(e[0]);
  if (n != wl_explorer_units(e[1]) || n == 0) {
    rc = WL_EINVAL;
    *msg = strdup("the two explorers number the units differently");
    goto done;
  }
  parts = calloc(n, sizeof *parts);
  order = calloc(n, sizeof *order);
  rcs = calloc(n, sizeof *rcs);
  msgs = calloc(n, sizeof *msgs);
  if (parts == NULL || order == NULL || rcs == NULL || msgs == NULL) {
    rc = WL_ENOMEM;
    goto done;
  }
  for (i = 0; i < n; i++)
    order[i] = i;
  for (i = n; i > 1; i--) { /* Fisher-Yates */
    size_t j = (size_t)(rng(&seed) % i), tmp = order[i - 1];
    order[i - 1] = order[j];
    order[j] = tmp;
  }
  if (ranks_mode) {
    /* as MPI ranks run them (bindings/lexplore.c's spread): the units
     * handed out in unit order to whichever of R ranks asks (here each
     * to a rank drawn from the seed), each rank running its own in unit
     * order and knowing (every other seed) the merge of its own
     * earlier units, each result packed (wl_result_pack) and unpacked
     * against the other explorer (another process's), then all merged
     * in unit order.  --ranks all: a unit knows every unit run before
     * it on any rank, the ranks run last first (later units' states:
     * what a driver must not give) */
    int R = 2 + (int)(seed % 3), r;
    int use_known = (seed >> 7 & 1) != 0 || ranks_mode == 2;
    wl_result *all = NULL;
    unsigned char *rank_of = malloc(n > 0 ? n : 1);
    if (rank_of == NULL) {
      rc = WL_ENOMEM;
      *msg = strdup("out of memory");
      goto done;
    }
    for (i = 0; i < n; i++)
      rank_of[i] = (unsigned char)(rng(&seed) % (uint64_t)R);
    for (r = R - 1; r >= 0; r--) {
      wl_result *own = NULL;
      size_t u;
      w = r & 1;
      for (u = 0; u < n; u++) {
        wl_result *part = NULL;
        const wl_result *known =
            !use_known ? NULL : ranks_mode == 2 ? all : own;
        void *b = NULL;
        size_t bl = 0;
        if (rank_of[u] != r)
          continue;
        rcs[u] = wl_explore_unit(e[w], u, known, &part);
        units_run++;
        if (rcs[u] != 0) {
          msgs[u] = strdup(wl_ctx_errmsg(cx[w]));
          continue;
        }
        if (wl_result_pack(part, &b, &bl) != 0 ||
            wl_result_unpack(cm, e[1 - w], b, bl, &parts[u]) != 0) {
          rc = WL_ENOMEM;
          *msg = strdup("a unit's result did not cross as bytes");
          free(b);
          wl_result_free(part);
          wl_result_free(own);
          wl_result_free(all);
          free(rank_of);
          goto done;
        }
        free(b);
        if (wl_result_partial(part, NULL) == 0) {
          if (own == NULL || wl_result_partial(own, NULL) == 0)
            (void)wl_explore_merge(cm, &own, part);
          if (all == NULL || wl_result_partial(all, NULL) == 0)
            (void)wl_explore_merge(cm, &all, part);
        }
        wl_result_free(part);
      }
      wl_result_free(own);
    }
    wl_result_free(all);
    free(rank_of);
    for (i = 0; i < n && firstbad == (size_t)-1; i++) {
      if (rcs[i] != 0) {
        firstbad = i;
        break;
      }
      if ((rc = wl_explore_merge(cm, &acc, parts[i])) != 0) {
        *msg = strdup(wl_ctx_errmsg(cm));
        goto done;
      }
    }
  } else {
  /* in the shuffled order; each unit knows (every other seed) the
   * merge of the units before it that are back, as a pool's worker
   * does; the merge takes each unit as soon as all before it are in */
  {
    size_t merged = 0;
    int use_known = (seed >> 7 & 1) != 0;
    for (i = 0; i < n; i++) {
      size_t u = order[i];
      const wl_result *known =
          use_known && !merge_run_order && firstbad == (size_t)-1 ? acc
                                                                  : NULL;
      w = (int)(i & 1);
      rcs[u] = wl_explore_unit(e[w], u, known, &parts[u]);
      units_run++;
      if (rcs[u] != 0)
        msgs[u] = strdup(wl_ctx_errmsg(cx[w]));
      if (merge_run_order)
        continue;
      while (firstbad == (size_t)-1 && merged < n &&
             (parts[merged] != NULL || rcs[merged] != 0)) {
        if (rcs[merged] != 0) {
          firstbad = merged;
          break;
        }
        if ((rc = wl_explore_merge(cm, &acc, parts[merged])) != 0) {
          *msg = strdup(wl_ctx_errmsg(cm));
          goto done;
        }
        merged++;
      }
    }
  }
  }
  for (i = 0; merge_run_order && i < n; i++) {
    size_t u = order[i];
    if (rcs[u] != 0) {
      firstbad = u;
      break;
    }
    if ((rc = wl_explore_merge(cm, &acc, parts[u])) != 0) {
      *msg = strdup(wl_ctx_errmsg(cm));
      goto done;
    }
  }
  if (firstbad != (size_t)-1) {
    rc = rcs[firstbad];
    *msg = msgs[firstbad];
    msgs[firstbad] = NULL;
    goto done;
  }
  *out = acc;
  acc = NULL;
done:
  wl_result_free(acc);
  if (parts != NULL)
    for (i = 0; i < wl_explorer_units(e[0]); i++) {
      wl_result_free(parts[i]);
      if (msgs != NULL)
        free(msgs[i]);
    }
  free(parts);
  free(order);
  free(rcs);
  free(msgs);
  wl_explorer_free(e[0]);
  wl_explorer_free(e[1]);
  return rc;
}

static const char *const variants[] = {"observed", "full", "count",
                                       "values"};

static void check_text(const char *name, const char *text, size_t len,
                       uint64_t seed) {
  wl_ctx *ctx = NULL, *c0 = NULL, *c1 = NULL;
  wl_litmus *t = NULL;
  int v;
  if (wl_ctx_new(NULL, &ctx) != 0 || wl_ctx_new(NULL, &c0) != 0 ||
      wl_ctx_new(NULL, &c1) != 0) {
    fprintf(stderr, "props_split: out of memory\n");
    exit(2);
  }
  if (wl_litmus_parse(ctx, name, text, len, &t) != 0) {
    char why[700];
    snprintf(why, sizeof why, "does not parse: %s", wl_ctx_errmsg(ctx));
    fail(name, "parse", text, why);
    goto out;
  }
  tests++;
  for (v = 0; v < 4; v++) {
    wl_explore_opts o;
    wl_result *plain = NULL, *merged = NULL;
    char *pmsg = NULL, *smsg = NULL, *a = NULL, *b = NULL, why[900];
    int prc, src;
    memset(&o, 0, sizeof o);
    o.observed_only = v != 1 && v != 2;
    o.count_executions = v == 2;
    o.search = v == 3 ? WL_SEARCH_VALUES : WL_SEARCH_AUTO;
    o.unroll = 1 + (int)(seed % 3); /* loops: bounds that cut */
    o.no_stutter = seed % 4 == 3;
    o.should_stop = past_deadline;
    deadline = now() + per_test;
    prc = wl_explore(ctx, t, &o, &plain);
    if (prc == WL_ESTOPPED) {
      skipped++;
      printf("SKIP %s (%s): over %.1f s\n", name, variants[v], per_test);
      continue;
    }
    if (prc != 0)
      pmsg = strdup(wl_ctx_errmsg(ctx));
    deadline = now() + 2 * per_test;
    src = split_run(c0, c1, ctx, t, &o, seed * 4 + (uint64_t)v, &merged,
                    &smsg);
    if (src == WL_ESTOPPED) {
      skipped++;
      printf("SKIP %s (%s): the split over %.1f s\n", name, variants[v],
             2 * per_test);
    } else if (prc != src) {
      snprintf(why, sizeof why, "wl_explore returns %d (%s), the split %d "
                                "(%s)",
               prc, pmsg ? pmsg : "", src, smsg ? smsg : "");
      fail(name, variants[v], text, why);
    } else if (prc != 0) {
      if (strcmp(pmsg ? pmsg : "", smsg ? smsg : "") != 0) {
        snprintf(why, sizeof why, "messages differ: '%s' and '%s'",
                 pmsg ? pmsg : "", smsg ? smsg : "");
        fail(name, variants[v], text, why);
      }
    } else if ((a = result_text(plain)) == NULL ||
               (b = result_text(merged)) == NULL) {
      fail(name, variants[v], text, "cannot write the results");
    } else if (strcmp(a, b) != 0) {
      size_t k = 0;
      while (a[k] != '\0' && a[k] == b[k])
        k++;
      snprintf(why, sizeof why,
               "the merged result differs at byte %zu:\n--- wl_explore\n"
               "%.300s\n--- split\n%.300s",
               k, a + (k > 100 ? k - 100 : 0), b + (k > 100 ? k - 100 : 0));
      fail(name, variants[v], text, why);
    }
    free(a);
    free(b);
    free(pmsg);
    free(smsg);
    wl_result_free(plain);
    wl_result_free(merged);
  }
out:
  wl_litmus_free(t);
  wl_ctx_free(ctx);
  wl_ctx_free(c0);
  wl_ctx_free(c1);
}

/* A test with spin loops (the value search, its stutters and the
 * unroll bound): 2 to 4 threads, each a lock (exch or cas spin) around
 * an increment, or a flag spin (waiting for another thread's store),
 * or a store then a flag; scopes and orders drawn from the seed.
 * Written to buf (cap bytes). */
static char *loop_text(uint64_t seed, char *out, size_t cap) {
  uint64_t s = seed * 0x9e3779b97f4a7c15ull + 12345;
  const char *acq[] = {"acquire", "relaxed", "acquire"};
  const char *rel[] = {"release", "relaxed", "release"};
  const char *sc[] = {"gpu", "cta", "sys", "gpu"};
  char col[4][12][80];
  int nrow[4], T, i, r, maxrow = 0;
  size_t n = 0;
  rng(&s);
  T = 2 + (int)(rng(&s) % 3);
  for (i = 0; i < T; i++) {
    int kind = (int)(rng(&s) % 3), k = 0;
    const char *a = acq[rng(&s) % 3], *l = rel[rng(&s) % 3];
    const char *p = sc[rng(&s) % 4];
    if (kind == 0) { /* lock around x++ */
      snprintf(col[i][k++], 80, "LC%d0:", i);
      if (rng(&s) % 2)
        snprintf(col[i][k++], 80, "atom.%s.%s.exch r0, m, 1", a, p);
      else
        snprintf(col[i][k++], 80, "atom.%s.%s.cas r0, m, 0, 1", a, p);
      snprintf(col[i][k++], 80, "bne r0, 0, LC%d0", i);
      snprintf(col[i][k++], 80, "ld.relaxed.%s r1, x", p);
      snprintf(col[i][k++], 80, "add r1, r1, 1");
      snprintf(col[i][k++], 80, "st.relaxed.%s x, r1", p);
      snprintf(col[i][k++], 80, "st.%s.%s m, 0", l, p);
    } else if (kind == 1) { /* wait for the flag, then read y */
      snprintf(col[i][k++], 80, "LC%d0:", i);
      snprintf(col[i][k++], 80, "ld.%s.%s r0, f", a, p);
      snprintf(col[i][k++], 80, "bne r0, 1, LC%d0", i);
      snprintf(col[i][k++], 80, "ld.weak r1, y");
    } else { /* publish y, raise the flag */
      snprintf(col[i][k++], 80, "st.weak y, %d", 1 + (int)(rng(&s) % 2));
      if (rng(&s) % 2)
        snprintf(col[i][k++], 80, "fence.sc.%s", p);
      snprintf(col[i][k++], 80, "st.%s.%s f, 1", l, p);
    }
    nrow[i] = k;
    if (k > maxrow)
      maxrow = k;
  }
  n += (size_t)snprintf(out + n, cap - n, "PTX loops\n{ m=0; x=0; f=0; y=0; }\n");
  for (i = 0; i < T; i++)
    n += (size_t)snprintf(out + n, cap - n, "%s P%d@cta %d,gpu 0",
                          i ? " |" : "", i, (int)(rng(&s) % 2) ? i : 0);
  n += (size_t)snprintf(out + n, cap - n, " ;\n");
  for (r = 0; r < maxrow && n < cap; r++) {
    for (i = 0; i < T; i++)
      n += (size_t)snprintf(out + n, cap - n, "%s %s", i ? " |" : "",
                            r < nrow[i] ? col[i][r] : "");
    n += (size_t)snprintf(out + n, cap - n, " ;\n");
  }
  n += (size_t)snprintf(out + n, cap - n, "%s\n",
                        rng(&s) % 2 ? "exists (x != 0 /\\ f == 1)"
                                    : "forall (m == 0)");
  return n < cap ? out : NULL;
}

#define NKINDS 7
static const char *const kind_names[NKINDS] = {
    "random", "random3", "family", "edges", "copies", "tickets", "loops"};

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
  default:
    o->mode = WL_GEN_COPIES;
    o->max_size = 3;
    break;
  }
}

int main(int argc, char **argv) {
  static const struct option longopts[] = {
      {"count", required_argument, NULL, 'n'},
      {"seed", required_argument, NULL, 's'},
      {"kind", required_argument, NULL, 'K'},
      {"timeout", required_argument, NULL, 't'},
      {"merge-order", required_argument, NULL, 'M'},
      {"ranks", required_argument, NULL, 'R'},
      {"from", no_argument, NULL, 'f'},
      {NULL, 0, NULL, 0}};
  unsigned long count = 300, i;
  uint64_t seed = 1;
  int kinds[NKINDS], nkinds = 0, from = 0, c, k;
  wl_gen *gens[NKINDS];
  wl_ctx *ctx;
  double t0 = now();
  while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
    switch (c) {
    case 'n':
      count = strtoul(optarg, NULL, 10);
      break;
    case 's':
      seed = strtoull(optarg, NULL, 10);
      break;
    case 't':
      per_test = strtod(optarg, NULL);
      break;
    case 'f':
      from = 1;
      break;
    case 'M':
      if (strcmp(optarg, "run") != 0 && strcmp(optarg, "unit") != 0) {
        fprintf(stderr, "props_split: --merge-order takes unit or run\n");
        return 2;
      }
      merge_run_order = strcmp(optarg, "run") == 0;
      break;
    case 'R':
      if (strcmp(optarg, "own") != 0 && strcmp(optarg, "all") != 0) {
        fprintf(stderr, "props_split: --ranks takes own or all\n");
        return 2;
      }
      ranks_mode = strcmp(optarg, "own") == 0 ? 1 : 2;
      break;
    case 'K': {
      const char *p = optarg;
      while (*p) {
        size_t n = strcspn(p, ",");
        for (k = 0; k < NKINDS; k++)
          if (strlen(kind_names[k]) == n && strncmp(p, kind_names[k], n) == 0)
            break;
        if (k == NKINDS || nkinds == NKINDS) {
          fprintf(stderr, "props_split: --kind takes a list of random, "
                          "random3, family, edges, copies, tickets, "
                          "loops\n");
          return 2;
        }
        kinds[nkinds++] = k;
        p += n + (p[n] == ',');
      }
      break;
    }
    default:
      fprintf(stderr, "usage: props_split [--count N] [--seed S] [--kind "
                      "LIST] [--timeout S] [--merge-order unit|run] "
                      "[--ranks own|all] "
                      "[--from FILE...]\n");
      return 2;
    }
  }
  if (from) {
    for (k = optind; k < argc; k++) {
      size_t len;
      char *src = slurp(argv[k], &len);
      if (src == NULL) {
        printf("FAIL read %s\n", argv[k]);
        failures++;
        continue;
      }
      check_text(argv[k], src, len, seed + (uint64_t)k);
      free(src);
    }
  } else {
    if (wl_ctx_new(NULL, &ctx) != 0)
      return 2;
    memset(gens, 0, sizeof gens);
    if (nkinds == 0)
      for (k = 0; k < NKINDS; k++)
        kinds[nkinds++] = k;
    for (k = 0; k < nkinds; k++) {
      wl_gen_opts o;
      if (kinds[k] >= 5)
        continue; /* tickets.h, loop_text */
      gen_opts(kinds[k], seed * 7 + (uint64_t)kinds[k], &o);
      if (wl_gen_new(ctx, &o, &gens[k]) != 0) {
        fprintf(stderr, "props_split: %s\n", wl_ctx_errmsg(ctx));
        return 2;
      }
    }
    for (i = 0; i < count; i++) {
      int kk = (int)(i % (unsigned long)nkinds);
      const char *text;
      size_t len;
      if (kinds[kk] == 6) {
        static char lbuf[4096];
        char lname[64];
        uint64_t ls = seed * 1000003u + i;
        if (loop_text(ls, lbuf, sizeof lbuf) == NULL) {
          fprintf(stderr, "props_split: a loop test does not fit\n");
          return 2;
        }
        snprintf(lname, sizeof lname, "loops-%llu", (unsigned long long)ls);
        check_text(lname, lbuf, strlen(lbuf), seed + i);
        continue;
      }
      if (kinds[kk] == 5) {
        static char tbuf[16384];
        char tname[64];
        uint64_t ts = seed * 1000003u + i;
        if (ticket_text(ts, 1, tbuf, sizeof tbuf) == NULL) {
          fprintf(stderr, "props_split: a ticket test does not fit\n");
          return 2;
        }
        snprintf(tname, sizeof tname, "ticket-%llu", (unsigned long long)ts);
        check_text(tname, tbuf, strlen(tbuf), seed + i);
        continue;
      }
      if (wl_gen_next(gens[kk], &text, &len) != 0 || text == NULL) {
        fprintf(stderr, "props_split: the generator stopped: %s\n",
                wl_ctx_errmsg(ctx));
        return 2;
      }
      check_text(wl_gen_name(gens[kk]), text, len, seed + i);
    }
    for (k = 0; k < NKINDS; k++)
      wl_gen_free(gens[k]);
    wl_ctx_free(ctx);
  }
  printf("props_split: %lu tests, %lu failures, %lu skipped, %lu units "
         "run, %.2f s\n",
         tests, failures, skipped, units_run, now() - t0);
  return failures ? 1 : 0;
}
