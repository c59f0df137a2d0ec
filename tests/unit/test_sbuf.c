/* test_sbuf.c -- the one store buffer (engine/mem/sbuf.h) against plain
 * models of what it stands for:
 *   bytes     the device's use: stores of 1..16 bytes split into 8-byte
 *             words, loads forwarded from it or waiting for it, drains
 *             in any order the profile's pick allows, against a plain
 *             per-byte record of the stores: every byte reaches L2 in
 *             the order it was stored, a forwarded load reads each
 *             byte's newest pending store, a load that finds nothing
 *             has no pending byte, and the key filter never hides an
 *             entry (build with -DWL_MUTANT_SBFILTER, which makes the
 *             filter look at a neighbouring sector, or
 *             -DWL_MUTANT_SBCHAIN, which drains a picked entry without
 *             its older overlapping stores, and this test fails);
 *   pick      the sampler's use (whole locations): the pick is the
 *             machine's earlier one, the oldest store of a random
 *             entry's location, drawing the same numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../engine/mem/sbuf.h"

#define NID 3
#define NB 64    /* bytes per allocation */
#define NSEQ 512 /* stores a byte may see */

typedef struct plain {
  uint8_t l2[NID][NB];
  uint8_t stored[NID][NB][NSEQ]; /* the values stored, in order */
  int nstored[NID][NB];
  int nwritten[NID][NB]; /* of those, the ones L2 has had */
} plain;

static plain P;

static void drain(squeue *q, sb_filter *f, int i) {
  uint8_t v[8];
  uint64_t off;
  int id, n = sb_take_bytes(q, f, i, &id, &off, v), b;
  for (b = 0; b < n; b++) {
    int k = P.nwritten[id][off + b]++;
    /* the byte's next store in the order they were made */
    assert_true(k < P.nstored[id][off + b]);
    assert_int_equal(v[b], P.stored[id][off + b][k]);
    P.l2[id][off + b] = v[b];
  }
}

static int pending(int id, uint64_t b) {
  return P.nstored[id][b] - P.nwritten[id][b];
}

static void test_bytes(void **state) {
  static const int widths[] = {1, 2, 4, 8, 16};
  uint64_t r = 0x9e3779b97f4a7c15ull;
  int run;
  (void)state;
  for (run = 0; run < 200; run++) {
    squeue q;
    sb_filter f;
    int step, nops = 1 + (int)(rnd(&r) % 300);
    unsigned reorder = (unsigned)(rnd(&r) % 1025);
    knobs k;
    int nhold = 0;
    memset(&P, 0, sizeof P);
    memset(&q, 0, sizeof q);
    memset(&f, 0, sizeof f);
    memset(&k, 0, sizeof k);
    k.reorder = reorder;
    for (step = 0; step < nops; step++) {
      int op = (int)(rnd(&r) % 8), id = (int)(rnd(&r) % NID);
      int width = widths[rnd(&r) % 5];
      uint64_t off = (rnd(&r) % (NB / (unsigned)width)) * (unsigned)width, b;
      uint64_t key;
      if (op < 4) { /* a store */
        uint8_t data[16];
        for (b = 0; b < (uint64_t)width; b++)
          data[b] = (uint8_t)rnd(&r);
        while (!sb_room(&q, off, width))
          drain(&q, &f, 0);
        if (P.nstored[id][off] >= NSEQ - 1)
          continue;
        sb_put_bytes(&q, &f, id, off, width, data);
        for (b = 0; b < (uint64_t)width; b++)
          P.stored[id][off + b][P.nstored[id][off + b]++] = data[b];
      } else if (op < 6) { /* a load */
        uint8_t out[16];
        int got = sb_get_bytes(&q, &f, id, off, width, out), any = 0, all = 1;
        int newest = sb_newest_bytes(&q, &f, id, off, width);
        for (b = off; b < off + (uint64_t)width; b++) {
          any |= pending(id, b) > 0;
          all &= pending(id, b) > 0;
        }
        assert_int_equal(newest >= 0, any);
        if (got == 0)
          assert_false(any);
        if (got != 0)
          assert_true(any);
        if (got == 1) {
          assert_true(all);
          for (b = off; b < off + (uint64_t)width; b++)
            assert_int_equal(out[b - off],
                             P.stored[id][b][P.nstored[id][b] - 1]);
        }
        if (got == -1) { /* it waits: the entries up to the newest drain */
          int i;
          for (i = 0; i <= newest; i++)
            drain(&q, &f, 0);
          for (b = off; b < off + (uint64_t)width; b++)
            assert_int_equal(pending(id, b), 0);
        }
      } else if (q.n > 0) { /* a drain as the profile picks it */
        q.hold = 0;
        drain(&q, &f, sb_drain_pick(&r, &k, &q, &nhold));
      }
      /* the filter hides no entry */
      key = sb_dev_key(id, off);
      if (sb_newest(&q, key, SB_WHOLE) >= 0)
        assert_true(sb_filter_may(&f, key));
    }
    while (q.n > 0)
      drain(&q, &f, 0);
    {
      int id;
      uint64_t b;
      for (id = 0; id < NID; id++)
        for (b = 0; b < NB; b++) {
          assert_int_equal(P.nwritten[id][b], P.nstored[id][b]);
          if (P.nstored[id][b] > 0)
            assert_int_equal(P.l2[id][b],
                             P.stored[id][b][P.nstored[id][b] - 1]);
        }
    }
  }
}

/* The sampler's pick before sbuf.h (machine.h's mm_q_pick). */
static int old_pick(uint64_t *r, const squeue *q) {
  int i = pick(r, q->n), j;
  for (j = 0; j < i; j++)
    if (q->e[j].key == q->e[i].key)
      return j;
  return i;
}

static void test_pick(void **state) {
  uint64_t r = 12345;
  int run;
  (void)state;
  for (run = 0; run < 20000; run++) {
    squeue q;
    int n = 1 + (int)(rnd(&r) % SB_MAX), i, nloc = 1 + (int)(rnd(&r) % 8);
    uint64_t r1, r2;
    q.n = 0;
    q.hold = 0;
    for (i = 0; i < n; i++)
      assert_non_null(
          sb_push(&q, rnd(&r) % (unsigned)nloc, SB_WHOLE, i % 4, i));
    r1 = r2 = rnd(&r) | 1;
    assert_int_equal(sb_pick(&r1, &q), old_pick(&r2, &q));
    assert_true(r1 == r2); /* the same draws */
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bytes),
      cmocka_unit_test(test_pick),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
