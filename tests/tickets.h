/* tickets.h -- generated tests of the ticket idiom, for the property
 * that checks the reads-from search's commutation of inert RMWs
 * (engine/model/rfsearch.c; tests/props.c, property "commute").
 *
 * Each test has 3 to 6 threads that take a ticket from one counter c
 * with an RMW (inc, add or exch; mostly relaxed at gpu scope, sometimes
 * acquire, release or acq_rel, sometimes cta or sys scope), after a
 * prefix (a weak or relaxed store of the thread's own partial p<i>, a
 * load of a flag, or nothing) and a fence (none, fence.sc.gpu,
 * fence.acq_rel.gpu or fence.sc.cta).  Most threads then branch on the
 * ticket (bne against the last ticket or another value) to a tail that
 * fences and sums some partials into sum; some store a flag after the
 * RMW instead (the RMW is then not their last event), some load the
 * counter plainly.  Threads sit in CTAs of their own, or two share one.
 * The condition is on sum, on c, on the flag or on a thread's ticket
 * register (an observed register keeps that thread's RMW from being
 * inert), with exists, ~exists or forall.  Threads whose prefix is
 * empty run the same code (a symmetry class, which the commutation
 * leaves alone). */
#ifndef WL_TESTS_TICKETS_H
#define WL_TESTS_TICKETS_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t tk_next(uint64_t *s) {
  uint64_t x = *s;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  *s = x;
  return x;
}

static int tk_pick(uint64_t *s, int n) { return (int)(tk_next(s) % (uint64_t)n); }

#define TK_MAXT 6
#define TK_ROWS 40

/* Writes test number `seed` into buf (cap bytes); returns buf, or NULL
 * when it does not fit.  small != 0: at most 4 threads and short tails
 * (for the cat engine). */
static char *ticket_text(uint64_t seed, int small, char *buf, size_t cap) {
  uint64_t s = seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
  char cell[TK_MAXT][TK_ROWS][64];
  int nrow[TK_MAXT], T, i, j, r, maxrow = 0, cta[TK_MAXT];
  size_t n = 0;
  const char *sems[] = {"relaxed", "relaxed", "relaxed", "relaxed",
                        "relaxed", "acquire", "release", "acq_rel"};
  const char *scopes[] = {"gpu", "gpu", "gpu", "gpu", "cta", "sys"};
  const char *fences[] = {"", "fence.sc.gpu", "fence.acq_rel.gpu",
                          "fence.sc.cta", "fence.sc.gpu"};
  int op, k, bound;
  if (s == 0)
    s = 1;
  tk_next(&s);
  T = 3 + tk_pick(&s, small ? 2 : 4);
  op = tk_pick(&s, 6); /* 0-3 inc, 4 add, 5 exch: one kind per test */
  bound = T - 1;
  memset(nrow, 0, sizeof nrow);
#define ROW(...) snprintf(cell[i][nrow[i]++], sizeof cell[0][0], __VA_ARGS__)
  for (i = 0; i < T; i++) {
    int pre = tk_pick(&s, 5), fence = tk_pick(&s, 5), post = tk_pick(&s, 20);
    const char *sem = sems[tk_pick(&s, 8)], *sc = scopes[tk_pick(&s, 6)];
    cta[i] = i;
    if (i > 0 && tk_pick(&s, 5) == 0)
      cta[i] = cta[i - 1]; /* two threads in one CTA */
    if (pre == 0)
      ROW("st.weak p%d, 1", i);
    else if (pre == 1)
      ROW("st.relaxed.gpu p%d, 1", i);
    else if (pre == 2)
      ROW("ld.weak r3, y");
    if (fences[fence][0] != '\0')
      ROW("%s", fences[fence]);
    if (op <= 3)
      ROW("atom.%s.%s.inc r0, c, %d", sem, sc, bound);
    else if (op == 4)
      ROW("atom.%s.%s.add r0, c, 1", sem, sc);
    else
      ROW("atom.%s.%s.exch r0, c, 5", sem, sc);
    if (post < 14) {
      /* the last ticket (or another) runs the tail: a sum of partials,
       * or a flag of the thread's own */
      int want = tk_pick(&s, 2) ? bound : tk_pick(&s, T);
      int nl = small ? 1 + tk_pick(&s, 2) : 1 + tk_pick(&s, T);
      ROW("%s r0, %d, LC%d9", tk_pick(&s, 2) ? "bne" : "beq", want, i);
      if (tk_pick(&s, 2)) {
        ROW("st.weak s%d, 1", i);
      } else {
        if (tk_pick(&s, 4))
          ROW("fence.sc.gpu");
        ROW("mov r1, 0");
        for (j = 0; j < nl; j++) {
          ROW("ld.weak r2, p%d", (i + 1 + j) % T);
          ROW("add r1, r1, r2");
        }
        ROW("st.weak sum, r1");
      }
      ROW("LC%d9:", i);
    } else if (post < 17) {
      ROW("st.relaxed.gpu y, 1"); /* the RMW is not the last event */
    } else if (post == 17) {
      ROW("ld.relaxed.gpu r4, c"); /* a plain read of the counter */
    }
    if (nrow[i] > maxrow)
      maxrow = nrow[i];
  }
#undef ROW
#define PUT(...)                                                             \
  do {                                                                       \
    int w_ = snprintf(buf + n, cap - n, __VA_ARGS__);                        \
    if (w_ < 0 || (size_t)w_ >= cap - n)                                     \
      return NULL;                                                           \
    n += (size_t)w_;                                                         \
  } while (0)
  PUT("PTX ticket-%llu\n{ c=0; sum=0; y=0;", (unsigned long long)seed);
  for (i = 0; i < T; i++)
    PUT(" p%d=0; s%d=0;", i, i);
  PUT(" }\n");
  for (i = 0; i < T; i++)
    PUT("%s P%d@cta %d,gpu 0", i ? " |" : "", i, cta[i]);
  PUT(" ;\n");
  for (r = 0; r < maxrow; r++) {
    for (i = 0; i < T; i++)
      PUT("%s %s", i ? " |" : "", r < nrow[i] ? cell[i][r] : "");
    PUT(" ;\n");
  }
  k = tk_pick(&s, 10);
  {
    const char *q = tk_pick(&s, 5) == 0 ? "~exists" : tk_pick(&s, 6) == 0
                                                         ? "forall"
                                                         : "exists";
    if (k <= 2)
      PUT("%s (sum %s %d)\n", q, k == 2 ? "==" : "!=", T - tk_pick(&s, 2));
    else if (k == 3)
      PUT("%s (c == %d)\n", q, tk_pick(&s, T + 1));
    else if (k == 4)
      PUT("%s (y == 1 /\\ sum == 0)\n", q);
    else if (k <= 6)
      PUT("%s (P%d:r0 == %d)\n", q, tk_pick(&s, T), tk_pick(&s, T));
    else /* which threads ran their flag's tail */
      PUT("%s (s0 == %d /\\ s1 == %d /\\ s2 == %d)\n", q, tk_pick(&s, 2),
          tk_pick(&s, 2), tk_pick(&s, 2));
  }
#undef PUT
  return buf;
}

#endif
