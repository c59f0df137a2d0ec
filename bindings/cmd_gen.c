/* cmd_gen.c -- warplab gen: litmus tests generated from cycles or at
 * random, written as .litmus files. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <sys/stat.h>

#include "cmd.h"
#include "lwarplab.h"

/* ------------------------------------------------------------------ */
/* warplab gen [options]: litmus tests from cycles or at random        */
/* ------------------------------------------------------------------ */

/* A comma-separated list of words to the bits of their positions in
 * words[] (NULL-terminated); -1 naming nothing valid. */
static int word_bits(const char *v, const char *const words[],
                     unsigned *out) {
  unsigned bits = 0;
  const char *p = v;
  while (*p != '\0') {
    size_t n = strcspn(p, ",");
    int k, found = -1;
    for (k = 0; words[k] != NULL; k++)
      if (strlen(words[k]) == n && strncmp(p, words[k], n) == 0)
        found = k;
    if (found < 0)
      return -1;
    bits |= 1u << found;
    p += n;
    if (*p == ',')
      p++;
  }
  if (bits == 0)
    return -1;
  *out = bits;
  return 0;
}

static int gen_usage(const char *opt, const char *v, const char *want) {
  fprintf(stderr, "warplab gen: %s takes %s, not '%s'\n", opt, want, v);
  return 2;
}

/* Writes text to DIR/NAME.litmus (a temporary renamed over it: lfile.c);
 * 0 or -1 (message printed). */
static int gen_write_file(const char *dir, const char *name,
                          const char *text, size_t len) {
  char path[4096], err[4400];
  snprintf(path, sizeof path, "%s/%s.litmus", dir, name);
  if (wll_save_file(path, text, len, err, sizeof err) != 0) {
    fprintf(stderr, "warplab gen: %s\n", err);
    return -1;
  }
  return 0;
}

int wll_cmd_gen(int argc, char **argv) {
  static const char *const ann_words[] = {"weak", "rlx", "ra", "mix", NULL};
  static const char *const place_words[] = {"cta", "gpu", "sys", "mix", NULL};
  static const char *const mix_words[] = {"weak", "relaxed", "acqrel",
                                          "atom", "red",     "fence",
                                          "dep",  "bar",     NULL};
  enum { O_CYCLE = 256, O_FAMILY, O_EDGES, O_MAXSIZE, O_RANDOM, O_SAMPLE,
         O_ANN, O_PLACE, O_SCOPES, O_COUNT, O_SEED, O_THREADS, O_INSNS,
         O_LOCS, O_MIX, O_LIST, O_EXPLORE, O_UNROLL, O_FAMILIES,
         O_COPIES };
  static const struct option longopts[] = {
      {"cycle", required_argument, NULL, O_CYCLE},
      {"family", required_argument, NULL, O_FAMILY},
      {"edges", required_argument, NULL, O_EDGES},
      {"max-size", required_argument, NULL, O_MAXSIZE},
      {"random", no_argument, NULL, O_RANDOM},
      {"copies", no_argument, NULL, O_COPIES},
      {"sample", no_argument, NULL, O_SAMPLE},
      {"annotations", required_argument, NULL, O_ANN},
      {"placements", required_argument, NULL, O_PLACE},
      {"scopes", required_argument, NULL, O_SCOPES},
      {"count", required_argument, NULL, O_COUNT},
      {"seed", required_argument, NULL, O_SEED},
      {"threads", required_argument, NULL, O_THREADS},
      {"insns", required_argument, NULL, O_INSNS},
      {"locs", required_argument, NULL, O_LOCS},
      {"mix", required_argument, NULL, O_MIX},
      {"list", no_argument, NULL, O_LIST},
      {"explore", no_argument, NULL, O_EXPLORE},
      {"unroll", required_argument, NULL, O_UNROLL},
      {"families", no_argument, NULL, O_FAMILIES},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  wl_gen_opts o;
  wl_explore_opts xo;
  wl_ctx *ctx = NULL;
  wl_gen *g = NULL;
  const char *dir = NULL;
  int c, modes = 0, list = 0, explore = 0, count_set = 0, rc, failed = 0;
  int sig = 0;
  uint64_t u, n = 0;
  memset(&o, 0, sizeof o);
  memset(&xo, 0, sizeof xo);
  o.seed = 1;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, "+:o:h", longopts, NULL)) != -1) {
    const char *v = optarg;
    switch (c) {
    case O_CYCLE:
      o.mode = WL_GEN_CYCLE;
      o.cycle = v;
      modes++;
      break;
    case O_FAMILY:
      o.mode = WL_GEN_FAMILY;
      o.family = v;
      modes++;
      break;
    case O_EDGES:
      o.mode = WL_GEN_EDGES;
      o.edges = v;
      modes++;
      break;
    case O_RANDOM:
      o.mode = WL_GEN_RANDOM;
      modes++;
      break;
    case O_COPIES:
      o.mode = WL_GEN_COPIES;
      modes++;
      break;
    case O_SAMPLE:
      o.sample = 1;
      break;
    case O_MAXSIZE:
      if (wll_parse_count(v, 1, 12, &u) != 0)
        return gen_usage("--max-size", v,
                         "a number from 3 to 12 (--copies: 1 to 8)");
      o.max_size = (int)u;
      break;
    case O_THREADS:
    case O_INSNS:
    case O_LOCS: {
      int hi = c == O_INSNS ? 16 : 8;
      const char *nm = c == O_THREADS ? "--threads"
                       : c == O_INSNS ? "--insns"
                                      : "--locs";
      if (wll_parse_count(v, 1, (uint64_t)hi, &u) != 0) {
        fprintf(stderr,
                "warplab gen: %s takes a number from 1 to %d, not "
                "'%s'\n",
                nm, hi, v);
        return 2;
      }
      if (c == O_THREADS)
        o.threads = (int)u;
      else if (c == O_INSNS)
        o.insns = (int)u;
      else
        o.locs = (int)u;
      break;
    }
    case O_ANN:
      if (word_bits(v, ann_words, &o.annotations) != 0)
        return gen_usage("--annotations", v, "a list of weak,rlx,ra,mix");
      break;
    case O_PLACE:
      if (word_bits(v, place_words, &o.placements) != 0)
        return gen_usage("--placements", v, "a list of cta,gpu,sys,mix");
      break;
    case O_SCOPES:
      if (word_bits(v, place_words, &o.scopes) != 0 || (o.scopes & 8u))
        return gen_usage("--scopes", v, "a list of cta,gpu,sys");
      break;
    case O_MIX:
      if (word_bits(v, mix_words, &o.mix) != 0)
        return gen_usage("--mix", v,
                         "a list of weak,relaxed,acqrel,atom,red,fence,dep,"
                         "bar");
      break;
    case O_COUNT:
      if (wll_parse_count(v, 1, UINT64_MAX, &o.count) != 0)
        return gen_usage("--count", v, "a number of at least 1");
      count_set = 1;
      break;
    case O_SEED:
      if (wll_parse_count(v, 0, UINT64_MAX, &o.seed) != 0)
        return gen_usage("--seed", v, "a non-negative integer");
      break;
    case O_UNROLL:
      if (wll_parse_count(v, 1, 1000, &u) != 0)
        return gen_usage("--unroll", v, "a number from 1 to 1000");
      xo.unroll = (int)u;
      break;
    case 'o':
      dir = v;
      break;
    case O_LIST:
      list = 1;
      break;
    case O_EXPLORE:
      explore = 1;
      break;
    case O_FAMILIES: {
      const char *const *f = wl_gen_families();
      for (; *f != NULL; f++)
        printf("%-6s %s\n", *f, wl_gen_family_cycle(*f));
      return wll_stdout_done();
    }
    case 'h':
      wll_print_help(stdout, "gen");
      return wll_stdout_done();
    default:
      return wll_opt_error("gen", c, argv);
    }
  }
  if (optind < argc) {
    fprintf(stderr, "warplab gen: unexpected argument '%s' (see warplab gen "
                    "--help)\n", argv[optind]);
    return 2;
  }
  if (modes != 1) {
    fprintf(stderr, "warplab gen: give one of --cycle, --family, --edges, "
                    "--random or --copies (see warplab gen --help)\n");
    return 2;
  }
  if (!count_set &&
      (o.sample || o.mode == WL_GEN_RANDOM || o.mode == WL_GEN_COPIES))
    o.count = 10;
  if (wl_ctx_new(NULL, &ctx) != 0) {
    fprintf(stderr, "warplab: out of memory\n");
    return 1;
  }
  rc = wl_gen_new(ctx, &o, &g);
  if (rc != 0) {
    fprintf(stderr, "warplab gen: %s\n", wl_ctx_errmsg(ctx));
    wl_ctx_free(ctx);
    return rc == WL_ENOMEM ? 1 : 2;
  }
  if (dir != NULL && wll_mkdir_p(dir) != 0) {
    fprintf(stderr, "warplab gen: %s: %s\n", dir,
            errno == EEXIST ? "not a directory" : strerror(errno));
    wl_gen_free(g);
    wl_ctx_free(ctx);
    return 1;
  }
  xo.should_stop = wll_sig_stop; /* SIGINT/SIGTERM */
  for (;;) {
    const char *text;
    size_t len;
    if ((sig = wll_sig_take()) != 0) {
      /* the tests so far are out; say where it stopped */
      fflush(stdout);
      fprintf(stderr, "warplab gen: interrupted by %s after %llu tests\n",
              wll_sig_name(sig), (unsigned long long)n);
      break;
    }
    if ((rc = wl_gen_next(g, &text, &len)) != 0) {
      fprintf(stderr, "warplab gen: %s\n", wl_ctx_errmsg(ctx));
      failed++;
      break;
    }
    if (text == NULL)
      break;
    n++;
    if (dir != NULL && gen_write_file(dir, wl_gen_name(g), text, len) != 0) {
      failed++;
      break;
    }
    if (explore) {
      wl_litmus *t = NULL;
      wl_result *r = NULL;
      rc = wl_litmus_parse(ctx, wl_gen_name(g), text, len, &t);
      if (rc == 0)
        rc = wl_explore(ctx, t, &xo, &r);
      if (rc == WL_ESTOPPED && wll_sig_pending()) {
        printf("%s Partial\n", wl_gen_name(g)); /* seen at the loop's top */
      } else if (rc != 0) {
        fprintf(stderr, "warplab gen: %s: %s\n", wl_gen_name(g),
                wl_ctx_errmsg(ctx));
        failed++;
      } else {
        printf("%s %s%s %zu\n", wl_gen_name(g),
               wl_result_bound_hit(r) ? "Loop " : "",
               wl_result_verdict(r) ? "Ok" : "No", wl_result_nstates(r));
      }
      wl_result_free(r);
      wl_litmus_free(t);
    } else if (list) {
      printf("%s\n", wl_gen_name(g));
    } else if (dir == NULL) {
      if (n > 1)
        fputc('\n', stdout);
      fwrite(text, 1, len, stdout);
    }
  }
  if (dir != NULL && !failed)
    fprintf(stderr, "warplab gen: wrote %llu tests to %s\n",
            (unsigned long long)n, dir);
  wl_gen_free(g);
  wl_ctx_free(ctx);
  if (wll_stdout_done() != 0)
    return 1;
  return sig ? wll_sig_status(sig) : failed ? 1 : 0;
}
