/* test_perf.c -- the memory system's cost models (engine/perf): shared
 * banks against every row of the H100 tables, other bank layouts, global
 * sectors, constant serialization and its cycle fit, the sectored LRU
 * cache of engine/mem/cache.c (with the failing allocator, and the L1's
 * data copies on its lines), and occupancy. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../engine/perf/perf.h"
#include "../slurp.h"
#include "faulty.h"

/* ---------------------------------------------------------------- */
/* Finding the data                                                  */

/* argv[0], to find the repository from build/MODE/tests/test_perf. */
static const char *argv0 = "";

/* A path under the repository root: as given when run from the root
 * (make test), else found from argv[0] (ROOT/build/...) or from this
 * file's path as the compiler saw it. */
static void repo_path(char *buf, size_t n, const char *rel) {
  const char *bases[2];
  const char *end;
  FILE *probe;
  int i;
  bases[0] = argv0;
  bases[1] = __FILE__;
  snprintf(buf, n, "%s", rel);
  if ((probe = fopen(buf, "rb")) != NULL) {
    fclose(probe);
    return;
  }
  for (i = 0; i < 2; i++) {
    end = strstr(bases[i], i == 0 ? "build/" : "tests/unit/test_perf.c");
    if (end == NULL)
      continue;
    snprintf(buf, n, "%.*s%s", (int)(end - bases[i]), bases[i], rel);
    if ((probe = fopen(buf, "rb")) != NULL) {
      fclose(probe);
      return;
    }
  }
  snprintf(buf, n, "%s", rel);
}

/* The shared folder (scripts/shared.sh's order): $WARPLAB_SHARED, else
 * ROOT/../shared. */
static void shared_path(char *buf, size_t n, const char *rel) {
  const char *env = getenv("WARPLAB_SHARED");
  char tmp[1024];
  if (env != NULL && *env != '\0') {
    snprintf(buf, n, "%s/%s", env, rel);
    return;
  }
  snprintf(tmp, sizeof tmp, "../shared/%s", rel);
  repo_path(buf, n, tmp);
}

static char *read_table(const char *path) {
  size_t len;
  char *s = slurp(path, &len);
  if (s == NULL)
    fail_msg("cannot read %s (set WARPLAB_SHARED)", path);
  return s;
}

/* Splits line at tabs into at most max fields (in place). */
static int split_tabs(char *line, char **f, int max) {
  int n = 0;
  char *p = line;
  static char empty[] = "";
  for (n = 0; n < max; n++)
    f[n] = empty;
  n = 0;
  while (n < max) {
    f[n++] = p;
    p = strchr(p, '\t');
    if (p == NULL)
      break;
    *p++ = '\0';
  }
  return n;
}

/* Iterates over the data lines of a table (skips '#' lines and the
 * header, which starts with `header`). */
static char *next_line(char **cur, const char *header) {
  for (;;) {
    char *line = *cur, *nl;
    if (line == NULL || *line == '\0')
      return NULL;
    nl = strchr(line, '\n');
    if (nl != NULL) {
      *nl = '\0';
      *cur = nl + 1;
    } else {
      *cur = line + strlen(line);
    }
    if (nl != NULL && nl > line && nl[-1] == '\r')
      nl[-1] = '\0';
    if (*line == '#' || *line == '\0' ||
        strncmp(line, header, strlen(header)) == 0)
      continue;
    return line;
  }
}

static void parse_offsets(const char *s, wl_warp_req *r) {
  int i;
  char *end;
  for (i = 0; i < 32; i++) {
    r->addr[i] = strtoull(s, &end, 10);
    assert_true(end != s);
    s = end;
  }
}

static const wl_bank_cfg h100_banks = {32, 4};

/* ---------------------------------------------------------------- */
/* Shared memory against the tables                                  */

/* One row: returns 1 when it matches, else prints it. */
static int check_shared_row(const char *file, int lineno, const char *name,
                            const char *op, int width, uint32_t active, int wf,
                            int conf, const char *offsets) {
  wl_warp_req r;
  wl_shared_cost c;
  int rc;
  memset(&r, 0, sizeof r);
  r.active = active;
  r.width = width;
  r.store = strcmp(op, "st") == 0;
  parse_offsets(offsets, &r);
  rc = wl_price_shared(&h100_banks, &r, &c);
  if (rc != 0 || c.wavefronts != wf || c.conflicts != conf) {
    print_error("%s:%d: %s %s %d-byte mask %08x: expected %d wavefronts %d "
                "conflicts, got %d and %d (rc %d)\n",
                file, lineno, name, op, width, (unsigned)active, wf, conf,
                c.wavefronts, c.conflicts, rc);
    return 0;
  }
  return 1;
}

static void test_shared_h100_table(void **state) {
  char path[1024], *buf, *cur, *line;
  int rows = 0, bad = 0, lineno = 0;
  (void)state;
  shared_path(path, sizeof path, "hw/h100/shared_wavefronts.tsv");
  cur = buf = read_table(path);
  while ((line = next_line(&cur, "pattern\t")) != NULL) {
    char *f[6] = {0};
    lineno++;
    assert_int_equal(split_tabs(line, f, 6), 6);
    rows++;
    bad +=
        !check_shared_row("shared_wavefronts.tsv", rows, f[0], f[1], atoi(f[2]),
                          0xffffffffu, atoi(f[3]), atoi(f[4]), f[5]);
  }
  free(buf);
  assert_int_equal(rows, 56);
  assert_int_equal(bad, 0);
}

static void test_shared_more_table(void **state) {
  char path[1024], *buf, *cur, *line;
  int rows = 0, bad = 0;
  (void)state;
  repo_path(path, sizeof path, "tests/hw/shared_wavefronts_more.tsv");
  cur = buf = read_table(path);
  while ((line = next_line(&cur, "pattern\t")) != NULL) {
    char *f[7] = {0};
    assert_int_equal(split_tabs(line, f, 7), 7);
    rows++;
    bad += !check_shared_row("shared_wavefronts_more.tsv", rows, f[0], f[1],
                             atoi(f[2]), (uint32_t)strtoul(f[3], NULL, 16),
                             atoi(f[4]), atoi(f[5]), f[6]);
  }
  free(buf);
  assert_int_equal(rows, 72);
  assert_int_equal(bad, 0);
}

/* Counts the rows of a measured table under tests/hw that the bank rule
 * misses, printing each (every row has the columns of
 * shared_wavefronts_gathers.tsv). */
static int misfits(const char *table, int want_rows) {
  char path[1024], *buf, *cur, *line;
  int rows = 0, bad = 0;
  repo_path(path, sizeof path, table);
  cur = buf = read_table(path);
  while ((line = next_line(&cur, "pattern\t")) != NULL) {
    char *f[7] = {0};
    assert_int_equal(split_tabs(line, f, 7), 7);
    rows++;
    bad += !check_shared_row(table, rows, f[0], f[1], atoi(f[2]),
                             (uint32_t)strtoul(f[3], NULL, 16), atoi(f[4]),
                             atoi(f[5]), f[6]);
  }
  free(buf);
  assert_int_equal(rows, want_rows);
  return bad;
}

/* 440 more 8- and 16-byte rows (tests/hw/shared_probe2.cu): random
 * gathers in small ranges, few distinct words, partial masks; 329 rows
 * aimed at the phase rule (tests/hw/shared_probe3.cu); and 140 rows of
 * lane-pair patterns measured after the rule was written, to test its
 * predictions (tests/hw/shared_probe4.cu).  The bank rule fits every
 * one of them, wavefronts and conflicts (it missed 93, 14 and 52 before
 * loads packed by lane pairs, banks.c).  The numbers may only go down. */
#define WL_GATHER_MISFITS 0
#define WL_PHASE_MISFITS 0
#define WL_PAIR_MISFITS 0
static void test_shared_gathers_table(void **state) {
  (void)state;
  assert_int_equal(misfits("tests/hw/shared_wavefronts_gathers.tsv", 440),
                   WL_GATHER_MISFITS);
  assert_int_equal(misfits("tests/hw/shared_wavefronts_phases.tsv", 329),
                   WL_PHASE_MISFITS);
  assert_int_equal(misfits("tests/hw/shared_wavefronts_pairs.tsv", 140),
                   WL_PAIR_MISFITS);
}

/* ---------------------------------------------------------------- */
/* Shared memory: layouts, masks, errors                             */

static wl_warp_req strided(int width, uint64_t stride_bytes, uint32_t active) {
  wl_warp_req r;
  int i;
  memset(&r, 0, sizeof r);
  r.active = active;
  r.width = width;
  for (i = 0; i < 32; i++)
    r.addr[i] = (uint64_t)i * stride_bytes;
  return r;
}

static int wavefronts(const wl_bank_cfg *cfg, const wl_warp_req *r) {
  wl_shared_cost c;
  assert_int_equal(wl_price_shared(cfg, r, &c), 0);
  return c.wavefronts;
}

/* The textbook padding example on a toy 5-bank memory: 5 threads read a
 * column of a 5-wide array (stride 5 words): all in bank 0; padding the
 * rows to 6 words spreads them over the 5 banks. */
static void test_shared_toy_padding(void **state) {
  wl_bank_cfg toy = {5, 4};
  wl_warp_req col = strided(4, 5 * 4, 0x1f), padded = strided(4, 6 * 4, 0x1f);
  wl_shared_cost c;
  (void)state;
  assert_int_equal(wl_price_shared(&toy, &col, &c), 0);
  assert_int_equal(c.wavefronts, 5);
  assert_int_equal(c.conflicts, 4);
  assert_int_equal(c.bank_words[0], 5);
  assert_int_equal(c.bank_words[1], 0);
  assert_int_equal(wl_price_shared(&toy, &padded, &c), 0);
  assert_int_equal(c.wavefronts, 1);
  assert_int_equal(c.conflicts, 0);
  /* A whole warp of consecutive words needs ceil(32 / 5) = 7 wavefronts,
   * none of them a conflict. */
  col = strided(4, 4, 0xffffffffu);
  assert_int_equal(wl_price_shared(&toy, &col, &c), 0);
  assert_int_equal(c.wavefronts, 7);
  assert_int_equal(c.conflicts, 0);
  /* Wide accesses on the toy layout follow the same phase rule. */
  col = strided(8, 8, 0xffffffffu);
  assert_true(wavefronts(&toy, &col) >= 13);
}

/* Kepler's 8-byte bank mode: 32 banks of 8 bytes. */
static void test_shared_8byte_banks(void **state) {
  wl_bank_cfg k8 = {32, 8};
  wl_warp_req r;
  (void)state;
  r = strided(4, 4, 0xffffffffu); /* two lanes per 8-byte word: no conflict */
  assert_int_equal(wavefronts(&k8, &r), 1);
  r = strided(4, 8, 0xffffffffu); /* 32 words in 32 banks */
  assert_int_equal(wavefronts(&k8, &r), 1);
  assert_int_equal(wavefronts(&h100_banks, &r), 2);
  r = strided(8, 8, 0xffffffffu); /* one 8-byte word per bank */
  assert_int_equal(wavefronts(&k8, &r), 1);
  assert_int_equal(wavefronts(&h100_banks, &r), 2);
  r = strided(8, 16, 0xffffffffu); /* even banks only */
  assert_int_equal(wavefronts(&k8, &r), 2);
  r = strided(4, 256, 0xffffffffu); /* all in bank 0 */
  assert_int_equal(wavefronts(&k8, &r), 32);
  r = strided(16, 16, 0xffffffffu); /* 512 bytes: two phases of 256 */
  assert_int_equal(wavefronts(&k8, &r), 2);
}

static void test_shared_masks(void **state) {
  wl_warp_req r = strided(4, 128, 0);
  wl_shared_cost c;
  (void)state;
  assert_int_equal(wl_price_shared(&h100_banks, &r, &c), 0);
  assert_int_equal(c.wavefronts, 0);
  assert_int_equal(c.conflicts, 0);
  r.active = 1;
  assert_int_equal(wavefronts(&h100_banks, &r), 1);
  r.active = 0x0000ffffu;
  assert_int_equal(wavefronts(&h100_banks, &r), 16);
  r.active = 0x11111111u;
  assert_int_equal(wavefronts(&h100_banks, &r), 8);
  /* Inactive lanes neither conflict nor need to be aligned. */
  r.addr[1] = 3;
  r.active = 0x00000001u;
  assert_int_equal(wavefronts(&h100_banks, &r), 1);
  /* Stores pay every phase; loads merge them. */
  r = strided(16, 0, 0xffffffffu);
  assert_int_equal(wavefronts(&h100_banks, &r), 2);
  r.store = 1;
  assert_int_equal(wavefronts(&h100_banks, &r), 4);
  /* Heatmap: stride 2 uses the even banks, two words each. */
  r = strided(4, 8, 0xffffffffu);
  assert_int_equal(wl_price_shared(&h100_banks, &r, &c), 0);
  assert_int_equal(c.bank_words[0], 2);
  assert_int_equal(c.bank_words[1], 0);
  assert_int_equal(c.bank_words[30], 2);
}

static void test_shared_errors(void **state) {
  wl_warp_req r = strided(4, 4, 0xffffffffu);
  wl_shared_cost c;
  wl_bank_cfg bad = {0, 4}, big = {65, 4};
  (void)state;
  r.addr[7] = 30; /* lane 7 misaligned */
  assert_int_equal(wl_req_misaligned(&r), 7);
  assert_int_equal(wl_price_shared(&h100_banks, &r, &c), WL_EINVAL);
  assert_int_equal(c.bad_lane, 7);
  r.active &= ~(1u << 7);
  assert_int_equal(wl_req_misaligned(&r), -1);
  assert_int_equal(wl_price_shared(&h100_banks, &r, &c), 0);
  r.width = 3;
  assert_int_equal(wl_price_shared(&h100_banks, &r, &c), WL_EINVAL);
  assert_int_equal(c.bad_lane, -1);
  r.width = 4;
  assert_int_equal(wl_price_shared(&bad, &r, &c), WL_EINVAL);
  assert_int_equal(wl_price_shared(&big, &r, &c), WL_EINVAL);
  r = strided(16, 8, 0xffffffffu); /* 16-byte lanes 8 bytes apart */
  assert_int_equal(wl_price_shared(&h100_banks, &r, &c), WL_EINVAL);
  assert_int_equal(c.bad_lane, 1);
}

/* ---------------------------------------------------------------- */
/* Global memory                                                     */

static void test_global_table(void **state) {
  char path[1024], *buf, *cur, *line;
  int rows = 0, bad = 0;
  (void)state;
  shared_path(path, sizeof path, "hw/h100/global_sectors.tsv");
  cur = buf = read_table(path);
  while ((line = next_line(&cur, "width_bytes\t")) != NULL) {
    char *f[5] = {0};
    int w, stride, off, i;
    wl_warp_req r;
    wl_global_cost g;
    assert_int_equal(split_tabs(line, f, 5), 5);
    rows++;
    w = atoi(f[0]);
    stride = atoi(f[1]);
    off = atoi(f[2]);
    memset(&r, 0, sizeof r);
    r.active = 0xffffffffu;
    r.width = w;
    for (i = 0; i < 32; i++) /* a 256-byte aligned base */
      r.addr[i] = 0x10000 + (uint64_t)(off + i * stride) * (uint64_t)w;
    if (wl_price_global(&r, &g) != 0 || g.sectors != atoi(f[3]) ||
        g.requests != atoi(f[4])) {
      print_error("global_sectors.tsv row %d (width %d stride %d offset "
                  "%d): expected %s sectors %s requests, got %d and %d\n",
                  rows, w, stride, off, f[3], f[4], g.sectors, g.requests);
      bad++;
    }
  }
  free(buf);
  assert_int_equal(rows, 16);
  assert_int_equal(bad, 0);
}

static void test_global_details(void **state) {
  wl_warp_req r = strided(4, 4, 0xffffffffu);
  wl_global_cost g;
  int i;
  (void)state;
  for (i = 0; i < 32; i++)
    r.addr[i] += 4; /* 4..131: five sectors over two lines */
  assert_int_equal(wl_price_global(&r, &g), 0);
  assert_int_equal(g.sectors, 5);
  assert_int_equal(g.nsec, 5);
  assert_int_equal(g.lines, 2);
  for (i = 0; i < 5; i++)
    assert_int_equal(g.sector[i], (uint64_t)i * 32);
  /* Descending lanes still give ascending sectors. */
  for (i = 0; i < 32; i++)
    r.addr[i] = (uint64_t)(31 - i) * 256;
  assert_int_equal(wl_price_global(&r, &g), 0);
  assert_int_equal(g.sectors, 32);
  assert_int_equal(g.lines, 32);
  for (i = 1; i < 32; i++)
    assert_true(g.sector[i - 1] < g.sector[i]);
  r.active = 0;
  assert_int_equal(wl_price_global(&r, &g), 0);
  assert_int_equal(g.requests, 0);
  assert_int_equal(g.sectors, 0);
  r = strided(8, 8, 0xffffffffu);
  r.addr[31] = 4;
  assert_int_equal(wl_price_global(&r, &g), WL_EINVAL);
  assert_int_equal(g.bad_lane, 31);
}

/* wl_price_global on generated requests (ascending rows with repeats,
 * broadcasts, strided rows, the same shuffled, random addresses, some
 * misaligned, partial masks) against a plain count: the active lanes'
 * sectors sorted and made distinct, the lines among them, the first
 * misaligned lane.  Ascending requests take coalesce.c's one-pass path,
 * the others the sort: both must give the plain count. */
static uint64_t xs64(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

static void test_global_generated(void **state) {
  uint64_t x = 0x9e3779b97f4a7c15ull;
  int step;
  (void)state;
  for (step = 0; step < 20000; step++) {
    wl_warp_req r;
    wl_global_cost g;
    uint64_t sec[32], base, stride;
    int i, j, n = 0, nsec = 0, lines = 0, bad = -1, shape, rc;
    static const int widths[] = {1, 2, 4, 8, 16};
    memset(&r, 0, sizeof r);
    r.width = widths[xs64(&x) % 5];
    r.active = (uint32_t)xs64(&x);
    if (xs64(&x) % 3 == 0)
      r.active = 0xffffffffu;
    if (xs64(&x) % 17 == 0)
      r.active = 0;
    shape = (int)(xs64(&x) % 5);
    base = xs64(&x) % 4096 * (uint64_t)r.width;
    stride = xs64(&x) % 5 * (uint64_t)r.width;
    for (i = 0; i < 32; i++) {
      switch (shape) {
      case 0: /* base + stride * lane */
      case 1: /* the same, shuffled below */
        r.addr[i] = base + stride * (uint64_t)i;
        break;
      case 2: /* ascending with repeats */
        r.addr[i] = (i ? r.addr[i - 1] : base) +
                    (xs64(&x) % 3 == 0 ? (uint64_t)r.width : 0);
        break;
      case 3: /* a broadcast */
        r.addr[i] = base;
        break;
      default:
        r.addr[i] = xs64(&x) % 8192 * (uint64_t)r.width;
      }
    }
    if (shape == 1)
      for (i = 31; i > 0; i--) {
        uint64_t t;
        j = (int)(xs64(&x) % (uint64_t)(i + 1));
        t = r.addr[i];
        r.addr[i] = r.addr[j];
        r.addr[j] = t;
      }
    if (xs64(&x) % 7 == 0) /* a misaligned lane */
      r.addr[xs64(&x) % 32] += 1 + xs64(&x) % 15;
    /* the plain count */
    for (i = 0; i < 32; i++)
      if (r.active >> i & 1) {
        if (bad < 0 && (r.addr[i] & (uint64_t)(r.width - 1)) != 0)
          bad = i;
        sec[n++] = r.addr[i] / 32 * 32;
      }
    for (i = 1; i < n; i++)
      for (j = i; j > 0 && sec[j - 1] > sec[j]; j--) {
        uint64_t t = sec[j];
        sec[j] = sec[j - 1];
        sec[j - 1] = t;
      }
    for (i = 0; i < n; i++) {
      if (nsec > 0 && sec[nsec - 1] == sec[i])
        continue;
      if (nsec == 0 || sec[nsec - 1] / 128 != sec[i] / 128)
        lines++;
      sec[nsec++] = sec[i];
    }
    rc = wl_price_global(&r, &g);
    if (bad >= 0) {
      assert_int_equal(rc, WL_EINVAL);
      assert_int_equal(g.bad_lane, bad);
      continue;
    }
    assert_int_equal(rc, 0);
    assert_int_equal(g.bad_lane, -1);
    assert_int_equal(g.requests, n > 0);
    assert_int_equal(g.sectors, nsec);
    assert_int_equal(g.nsec, nsec);
    assert_int_equal(g.lines, lines);
    for (i = 0; i < 128; i++)
      assert_true(g.sector[i] == (i < nsec ? sec[i] : 0));
  }
}

/* ---------------------------------------------------------------- */
/* Constant memory                                                   */

static void test_const_requests(void **state) {
  wl_warp_req r = strided(4, 0, 0xffffffffu);
  int i;
  (void)state;
  assert_int_equal(wl_const_requests(&r), 1);
  for (i = 0; i < 32; i++)
    r.addr[i] = (uint64_t)(i % 4) * 256;
  assert_int_equal(wl_const_requests(&r), 4);
  r.active = 0x3;
  assert_int_equal(wl_const_requests(&r), 2);
  r.active = 0;
  assert_int_equal(wl_const_requests(&r), 0);
  r = strided(4, 4, 0xffffffffu);
  assert_int_equal(wl_const_requests(&r), 32);
}

/* The cycle fit against shared/hw/h100/constant_cache.tsv; the hits and
 * misses come from a model of the per-SM constant cache level (8 lines,
 * fully associative, LRU) looped over as the measurement did. */
static void test_const_cycles(void **state) {
  char path[1024], *buf, *cur, *line;
  wl_ctx *ctx;
  wl_cache_cfg ccfg = {8 * 64, 64, 64, 8};
  int rows = 0;
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  shared_path(path, sizeof path, "hw/h100/constant_cache.tsv");
  cur = buf = read_table(path);
  while ((line = next_line(&cur, "distinct_addresses\t")) != NULL) {
    char *f[2] = {0};
    int n, it, i, misses = 0;
    double want, got;
    wl_cache *c;
    assert_int_equal(split_tabs(line, f, 2), 2);
    n = atoi(f[0]);
    want = atof(f[1]);
    assert_int_equal(wl__cache_new(ctx, &ccfg, &c), 0);
    for (it = 0; it < 3; it++) { /* warm up, then count the last pass */
      misses = 0;
      for (i = 0; i < n; i++)
        misses += !wl__cache_access(c, (uint64_t)i * 256, 1);
    }
    wl__cache_free(c);
    assert_int_equal(misses, n <= 8 ? 0 : n);
    got = wl_const_cycles(n, misses);
    if (got < want * 0.9 || got > want * 1.1)
      fail_msg("constant_cache.tsv: %d distinct: %.2f cycles, fit %.2f", n,
               want, got);
    if (n <= 8) /* the hit line is tighter than 10% */
      assert_true(got > want * 0.99 && got < want * 1.01);
    rows++;
  }
  free(buf);
  wl_ctx_free(ctx);
  assert_int_equal(rows, 6);
  assert_true(wl_const_cycles(0, 0) == 0.0);
}

/* ---------------------------------------------------------------- */
/* Cache                                                             */

/* The overlay of a cache (split launches' L2, engine/sim/split.c)
 * against the plain path: on generated geometries and address streams,
 * an overlay of base looks up exactly as a separate cache that went
 * through base's history would (hits, misses, statistics), again after
 * each reset, and base itself never changes (it then looks up as a
 * replay of its history does). */
static uint64_t ov_rng(uint64_t *x) {
  *x ^= *x << 13;
  *x ^= *x >> 7;
  *x ^= *x << 17;
  return *x;
}

static wl_cache *ov_replay(wl_ctx *ctx, const wl_cache_cfg *cfg,
                           const uint64_t *h, int n) {
  wl_cache *c;
  int i;
  assert_int_equal(wl__cache_new(ctx, cfg, &c), 0);
  for (i = 0; i < n; i++)
    wl__cache_access(c, h[i] >> 1, (int)(h[i] & 1));
  return c;
}

static void test_cache_overlay(void **state) {
  wl_ctx *ctx;
  uint64_t x = 0x9e3779b97f4a7c15ull, hist[400];
  int cse;
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  for (cse = 0; cse < 300; cse++) {
    uint32_t ways = 1u << ov_rng(&x) % 3, sets = 1 + (uint32_t)(ov_rng(&x) % 5);
    wl_cache_cfg cfg = {sets * ways * 128, 128, 32, ways};
    uint64_t span = (uint64_t)sets * ways * 128 * (2 + ov_rng(&x) % 3);
    int nh = (int)(ov_rng(&x) % 200), round, i;
    wl_cache *base, *ov, *twin;
    wl_cache_stats a, b;
    for (i = 0; i < nh; i++) /* address << 1 | fill */
      hist[i] = (ov_rng(&x) % span) << 1 | (ov_rng(&x) % 4 != 0);
    base = ov_replay(ctx, &cfg, hist, nh);
    assert_int_equal(wl__cache_overlay(ctx, base, &ov), 0);
    for (round = 0; round < 3; round++) {
      int n = (int)(ov_rng(&x) % 200);
      twin = ov_replay(ctx, &cfg, hist, nh);
      for (i = 0; i < n; i++) {
        uint64_t addr = ov_rng(&x) % span;
        int fill = ov_rng(&x) % 4 != 0;
        assert_int_equal(wl__cache_access(ov, addr, fill),
                         wl__cache_access(twin, addr, fill));
      }
      wl__cache_stats(ov, &a);
      wl__cache_stats(twin, &b);
      assert_true(a.hits == b.hits && a.misses == b.misses);
      wl__cache_free(twin);
      assert_int_equal(wl__cache_overlay_reset(ov), 0);
    }
    wl__cache_free(ov);
    /* base is as its history left it */
    twin = ov_replay(ctx, &cfg, hist, nh);
    wl__cache_stats(base, &a);
    wl__cache_stats(twin, &b);
    assert_true(a.hits == b.hits && a.misses == b.misses);
    for (i = 0; i < 100; i++) {
      uint64_t addr = ov_rng(&x) % span;
      assert_int_equal(wl__cache_access(base, addr, 1),
                       wl__cache_access(twin, addr, 1));
    }
    wl__cache_free(twin);
    wl__cache_free(base);
  }
  wl_ctx_free(ctx);
}

static void test_cache_lru(void **state) {
  wl_ctx *ctx;
  wl_cache *c;
  /* 4 lines of 128 bytes (4 sectors of 32), 2 ways: 2 sets. */
  wl_cache_cfg cfg = {512, 128, 32, 2};
  wl_cache_stats st;
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  assert_int_equal(wl__cache_new(ctx, &cfg, &c), 0);
  assert_true(wl__cache_hit_rate(c) == 0.0);
  assert_int_equal(wl__cache_access(c, 0, 1), 0); /* set 0, line 0 */
  assert_int_equal(wl__cache_access(c, 0, 1), 1);
  assert_int_equal(wl__cache_access(c, 31, 1), 1); /* same sector */
  assert_int_equal(wl__cache_access(c, 32, 1), 0); /* sector 1: miss */
  assert_int_equal(wl__cache_access(c, 32, 1), 1);
  assert_int_equal(wl__cache_access(c, 256, 1), 0); /* line 2, set 0 */
  assert_int_equal(wl__cache_access(c, 0, 1), 1);   /* line 0 now MRU */
  assert_int_equal(wl__cache_access(c, 512, 1), 0); /* evicts line 2 */
  assert_int_equal(wl__cache_access(c, 0, 1), 1);
  assert_int_equal(wl__cache_access(c, 256, 0), 0); /* gone; no fill */
  assert_int_equal(wl__cache_access(c, 256, 0), 0);
  assert_int_equal(wl__cache_access(c, 512, 1), 1);
  assert_int_equal(wl__cache_access(c, 128, 1), 0); /* set 1 untouched */
  assert_int_equal(wl__cache_access(c, 128, 1), 1);
  wl__cache_stats(c, &st);
  assert_int_equal(st.hits, 7);
  assert_int_equal(st.misses, 7);
  assert_true(wl__cache_hit_rate(c) == 0.5);
  wl__cache_invalidate(c);
  assert_int_equal(wl__cache_access(c, 0, 1), 0);
  wl__cache_reset_stats(c);
  wl__cache_stats(c, &st);
  assert_int_equal(st.hits + st.misses, 0);
  assert_int_equal(wl__cache_cfg(c)->ways, 2);
  wl__cache_free(c);
  wl__cache_free(NULL);
  wl_ctx_free(ctx);
}

/* Streaming over a working set: fits -> all hits after the first pass;
 * one line too many for LRU -> every access misses. */
static void test_cache_hit_rate(void **state) {
  wl_ctx *ctx;
  wl_cache *c;
  wl_cache_cfg cfg = {4096, 128, 32, 4}; /* 32 lines, 8 sets */
  wl_cache_stats st;
  uint64_t a;
  int pass;
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  assert_int_equal(wl__cache_new(ctx, &cfg, &c), 0);
  for (pass = 0; pass < 4; pass++)
    for (a = 0; a < 4096; a += 32)
      wl__cache_access(c, a, 1);
  wl__cache_stats(c, &st);
  assert_int_equal(st.misses, 128); /* the first pass, sector by sector */
  assert_int_equal(st.hits, 3 * 128);
  wl__cache_invalidate(c);
  wl__cache_reset_stats(c);
  for (pass = 0; pass < 4; pass++)
    for (a = 0; a < 4096 + 8 * 128; a += 128) /* 5 lines per 4-way set */
      wl__cache_access(c, a, 1);
  assert_true(wl__cache_hit_rate(c) == 0.0);
  wl__cache_free(c);
  wl_ctx_free(ctx);
}

/* Sizes need not be powers of two (H100: 50 MB of L2): sets are indexed
 * modulo their number. */
static void test_cache_odd_size(void **state) {
  wl_ctx *ctx;
  wl_cache *c;
  wl_cache_cfg cfg = {3 * 128 * 2, 128, 32, 2}; /* 3 sets of 2 ways */
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  assert_int_equal(wl__cache_new(ctx, &cfg, &c), 0);
  assert_int_equal(wl__cache_access(c, 0, 1), 0);       /* set 0 */
  assert_int_equal(wl__cache_access(c, 3 * 128, 1), 0); /* set 0 */
  assert_int_equal(wl__cache_access(c, 128, 1), 0);     /* set 1 */
  assert_int_equal(wl__cache_access(c, 0, 1), 1);
  assert_int_equal(wl__cache_access(c, 3 * 128, 1), 1);
  assert_int_equal(wl__cache_access(c, 6 * 128, 1), 0); /* evicts line 0 */
  assert_int_equal(wl__cache_access(c, 0, 0), 0);
  wl__cache_free(c);
  wl_ctx_free(ctx);
}

static void test_cache_geometry(void **state) {
  static const struct {
    wl_cache_cfg cfg;
    const char *msg; /* a part of the message */
  } bad[] = {
      {{1000, 128, 32, 4}, "the size (1000) a multiple of the line"},
      {{4096, 96, 32, 4}, "powers of two"},
      {{4096, 128, 0, 4}, "powers of two"},
      {{4096, 128, 256, 4}, "sector (256) <= line (128)"},
      {{64, 128, 32, 1}, "the size (64) a multiple of the line"},
      {{4096, 4096, 64, 1}, "at most 32 sectors"},
      {{4096, 128, 32, 3}, "3 ways do not divide the 32 lines"},
      {{4096, 128, 32, 0}, "0 ways"},
      {{4096, 128, 32, 64}, "64 ways"},
  };
  wl_ctx *ctx;
  wl_cache *c = (wl_cache *)&c;
  size_t i;
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    assert_int_equal(wl__cache_new(ctx, &bad[i].cfg, &c), WL_EINVAL);
    assert_null(c);
    if (strstr(wl_ctx_errmsg(ctx), bad[i].msg) == NULL)
      fail_msg("geometry %zu: \"%s\" lacks \"%s\"", i, wl_ctx_errmsg(ctx),
               bad[i].msg);
  }
  wl_ctx_free(ctx);
}

/* The L1's data copies on the lines (engine/mem/cache.h): a random mix
 * of fills, copies, drops and invalidations on a small cache against a
 * plain record of each sector's last copied bytes: a copy the cache
 * reports holds exactly those bytes (never another line's, e.g. a
 * victim's), a sector just filled takes a copy, and after its set has
 * seen as many other lines as it has ways, or a drop of every line, or
 * an invalidation, no copy is left. */
static void test_cache_copies(void **state) {
  wl_cache_cfg cfg = {1024, 128, 32, 2}; /* 4 sets of 2 ways */
  enum { NSEC = 64 };                    /* sectors of 16 lines */
  static uint8_t last[NSEC][32];
  wl_ctx *ctx;
  wl_cache *c;
  uint64_t r = 88172645463325252ull;
  int step, i;
  (void)state;
  assert_int_equal(wl_ctx_new(NULL, &ctx), 0);
  assert_int_equal(wl__cache_new(ctx, &cfg, &c), 0);
  assert_false(wl__cache_has_copies(c));
  for (step = 0; step < 20000; step++) {
    uint64_t sec, addr;
    int op;
    r ^= r << 13, r ^= r >> 7, r ^= r << 17;
    sec = r % NSEC;
    addr = sec * 32 + (r >> 8) % 32;
    op = (int)((r >> 16) % 16);
    if (op < 8) { /* a priced load: the sector, then a copy of it */
      uint8_t src[32], *p;
      for (i = 0; i < 32; i++)
        src[i] = (uint8_t)(r >> (i % 8 * 8)) ^ (uint8_t)step;
      wl__cache_access(c, addr, 1);
      p = wl__cache_copy_fill(c, addr, src);
      assert_non_null(p);
      assert_ptr_equal(p, wl__cache_copy(c, addr));
      memcpy(last[sec], src, 32);
    } else if (op < 12) { /* a load of a sector only */
      wl__cache_access(c, addr, 1);
    } else if (op < 15) {
      wl__cache_drop(c, r >> 24);
    } else if (step % 7 == 0) {
      wl__cache_invalidate(c);
    }
    for (i = 0; i < NSEC; i++) {
      const uint8_t *p = wl__cache_copy(c, (uint64_t)i * 32);
      if (p != NULL)
        assert_memory_equal(p, last[i], 32);
    }
  }
  /* the set of sector 0 sees two other lines: no copy of it is left */
  {
    uint8_t src[32] = {1};
    wl__cache_access(c, 0, 1);
    assert_non_null(wl__cache_copy_fill(c, 0, src));
    wl__cache_access(c, 4 * 128, 1); /* lines 4 and 8: set 0 */
    wl__cache_access(c, 8 * 128, 1);
    assert_null(wl__cache_copy(c, 0));
    /* an absent sector takes no copy */
    assert_null(wl__cache_copy_fill(c, 12 * 128, src));
    wl__cache_access(c, 0, 1);
    assert_non_null(wl__cache_copy_fill(c, 0, src));
    for (i = 0; i < 8; i++)
      wl__cache_drop(c, (uint64_t)i);
    assert_null(wl__cache_copy(c, 0));
  }
  wl__cache_free(c);
  wl_ctx_free(ctx);
}

/* Every allocation failure returns WL_ENOMEM and leaks nothing. */
static void test_cache_oom(void **state) {
  wl_cache_cfg cfg = {4096, 128, 32, 4};
  long at;
  (void)state;
  for (at = 1;; at++) {
    faulty fa;
    wl_config ccfg;
    wl_ctx *ctx;
    wl_cache *c;
    int rc;
    memset(&fa, 0, sizeof fa);
    memset(&ccfg, 0, sizeof ccfg);
    ccfg.alloc = faulty_alloc;
    ccfg.alloc_ud = &fa;
    assert_int_equal(wl_ctx_new(&ccfg, &ctx), 0);
    fa.fail_at = fa.calls + at;
    rc = wl__cache_new(ctx, &cfg, &c);
    if (rc == 0) {
      assert_false(fa.failed);
      wl__cache_access(c, 0, 1);
      wl__cache_free(c);
    } else {
      assert_int_equal(rc, WL_ENOMEM);
      assert_null(c);
    }
    wl_ctx_free(ctx);
    assert_int_equal(fa.blocks, 0);
    assert_int_equal(fa.bad, 0);
    if (!fa.failed)
      break;
  }
  assert_int_equal(at, 4); /* three allocations (the cache, its ways, the
                            * bits of its sets in use), each tried */
}

/* ---------------------------------------------------------------- */
/* Occupancy                                                         */

/* The CUDA Programming Guide's example device: 16 KB of shared memory and
 * 768 threads per SM. */
static void toy_device(wl_occ_cfg *d) {
  memset(d, 0, sizeof *d);
  d->warp_size = 32;
  d->max_threads_per_block = 512;
  d->max_threads_per_sm = 768;
  d->max_blocks_per_sm = 8;
  d->max_warps_per_sm = 24;
  d->regs_per_sm = 8192;
  d->reg_alloc_unit = 256;
  d->max_regs_per_thread = 124;
  d->shared_per_sm_bytes = 16 * 1024;
  d->shared_per_block_max = 16 * 1024;
  d->shared_alloc_unit = 128;
  d->shared_reserved_per_block = 0;
}

static void test_occupancy_toy(void **state) {
  wl_occ_cfg d;
  wl_occ_kernel k = {64, 0, 2 * 1024};
  wl_occ_result o;
  (void)state;
  toy_device(&d);
  assert_int_equal(wl__occupancy(&d, &k, &o), 0);
  assert_int_equal(o.by_shared, 8);
  assert_int_equal(o.blocks_per_sm, 8);
  k.threads_per_block = 256;
  assert_int_equal(wl__occupancy(&d, &k, &o), 0);
  assert_int_equal(o.by_shared, 8);
  assert_int_equal(o.by_threads, 3);
  assert_int_equal(o.blocks_per_sm, 3);
  assert_int_equal(o.limit, WL_OCC_THREADS);
  assert_string_equal(wl__occ_limit_name(o.limit), "threads");
  assert_int_equal(o.active_warps, 24);
  assert_true(o.occupancy == 1.0);
  k.shared_per_block = 48 * 1024;
  assert_int_equal(wl__occupancy(&d, &k, &o), WL_EINVAL);
  assert_string_equal(o.msg,
                      "a block needs 48 KB of shared memory; the SM has 16 KB");
}

static void test_occupancy_sm90(void **state) {
  wl_occ_cfg d;
  wl_device_cfg dev;
  wl_occ_kernel k = {256, 32, 0};
  wl_occ_result o;
  (void)state;
  assert_int_equal(wl_device_preset(NULL, "sm_90", &dev), 0);
  wl__occ_from_device(&dev, &d);
  /* 256 threads, 32 registers, no shared memory: full occupancy. */
  assert_int_equal(wl__occupancy(&d, &k, &o), 0);
  assert_int_equal(o.blocks_per_sm, 8);
  assert_int_equal(o.limit, WL_OCC_THREADS);
  assert_int_equal(o.by_warps, 8);
  assert_int_equal(o.by_regs, 8);
  assert_int_equal(o.by_shared, 228); /* the 1 KB reserved per block */
  assert_true(o.occupancy == 1.0);
  /* 64 registers: 2048 per warp, 32 warps: registers limit to 4. */
  k.regs_per_thread = 64;
  assert_int_equal(wl__occupancy(&d, &k, &o), 0);
  assert_int_equal(o.blocks_per_sm, 4);
  assert_int_equal(o.limit, WL_OCC_REGISTERS);
  assert_true(o.occupancy == 0.5);
  /* 33 registers round up to 1280 per warp: 51 warps, 6 blocks. */
  k.regs_per_thread = 33;
  assert_int_equal(wl__occupancy(&d, &k, &o), 0);
  assert_int_equal(o.by_regs, 6);
  /* 48 KB of shared memory (+1 KB reserved): 228 / 49 = 4 blocks. */
  k.regs_per_thread = 32;
  k.shared_per_block = 48 * 1024;
  assert_int_equal(wl__occupancy(&d, &k, &o), 0);
  assert_int_equal(o.blocks_per_sm, 4);
  assert_int_equal(o.limit, WL_OCC_SHARED);
  /* Small blocks: the 32 block slots bind. */
  k.threads_per_block = 32;
  k.shared_per_block = 0;
  assert_int_equal(wl__occupancy(&d, &k, &o), 0);
  assert_int_equal(o.blocks_per_sm, 32);
  assert_int_equal(o.limit, WL_OCC_BLOCKS);
  assert_true(o.occupancy == 0.5);
  /* 48-thread blocks take 2 warp slots each. */
  k.threads_per_block = 48;
  assert_int_equal(wl__occupancy(&d, &k, &o), 0);
  assert_int_equal(o.warps_per_block, 2);
  assert_int_equal(o.blocks_per_sm, 32);
  /* Errors. */
  k.threads_per_block = 256;
  k.shared_per_block = 228 * 1024;
  assert_int_equal(wl__occupancy(&d, &k, &o), WL_EINVAL);
  assert_non_null(strstr(o.msg, "shared memory; the SM has 228 KB"));
  k.shared_per_block = 227 * 1024 + 1;
  assert_int_equal(wl__occupancy(&d, &k, &o), WL_EINVAL);
  k.shared_per_block = 0;
  k.regs_per_thread = 256;
  assert_int_equal(wl__occupancy(&d, &k, &o), WL_EINVAL);
  assert_non_null(strstr(o.msg, "256 registers"));
  k.regs_per_thread = 255;
  k.threads_per_block = 1024; /* 8192 x 32 warps > 65536 */
  assert_int_equal(wl__occupancy(&d, &k, &o), WL_EINVAL);
  assert_non_null(strstr(o.msg, "registers"));
  k.threads_per_block = 2048;
  k.regs_per_thread = 0;
  assert_int_equal(wl__occupancy(&d, &k, &o), WL_EINVAL);
  k.threads_per_block = 0;
  assert_int_equal(wl__occupancy(&d, &k, &o), WL_EINVAL);
}

int main(int argc, char **argv) {
  if (argc > 0)
    argv0 = argv[0];
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_shared_h100_table),
      cmocka_unit_test(test_shared_more_table),
      cmocka_unit_test(test_shared_gathers_table),
      cmocka_unit_test(test_shared_toy_padding),
      cmocka_unit_test(test_shared_8byte_banks),
      cmocka_unit_test(test_shared_masks),
      cmocka_unit_test(test_shared_errors),
      cmocka_unit_test(test_global_table),
      cmocka_unit_test(test_global_details),
      cmocka_unit_test(test_global_generated),
      cmocka_unit_test(test_const_requests),
      cmocka_unit_test(test_const_cycles),
      cmocka_unit_test(test_cache_lru),
      cmocka_unit_test(test_cache_overlay),
      cmocka_unit_test(test_cache_hit_rate),
      cmocka_unit_test(test_cache_odd_size),
      cmocka_unit_test(test_cache_geometry),
      cmocka_unit_test(test_cache_copies),
      cmocka_unit_test(test_cache_oom),
      cmocka_unit_test(test_occupancy_toy),
      cmocka_unit_test(test_occupancy_sm90),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
