/* cost.c -- a guess at what a test's exploration costs, made from its
 * program alone, before any search (wl_litmus_cost in warplab.h).
 *
 * Drivers that spread many files over workers (libuv's pool, MPI ranks)
 * start the largest first (Graham's LPT rule, engine/common/shard.c), so
 * what matters is the order of the guesses, not their unit: one file in
 * the conformance corpus (a 2-thread spin loop of exchanges) takes more
 * time than the other 747 together, and a guess that ranks it with the
 * small ones (its size in bytes, say) leaves one worker with it alone at
 * the end.
 *
 * The guess follows the searches' own sizes.  Every read chooses what it
 * reads from: the location's initial value or one of its writes, so a
 * read costs a factor of (writes of its location + 1).  Writes to one
 * location are ordered by coherence: a factor of (writes)!.  A thread
 * with a backward branch runs its body up to unroll + 1 times in a trace
 * and is searched by guessing its read values (the values search, one
 * trace per guess): its reads and writes count once per trip.  Threads
 * and fences add a small factor each (the combinations and the checks
 * of each).  The product is taken in logarithms and its fourth root
 * returned, saturating at UINT64_MAX, so that costs of very different
 * tests stay ordered and never overflow; a test with a spin loop gets
 * 2^32 more, so that it comes before every test without one (the loops
 * are what the values search, far slower, is for) and so that a driver
 * may guess the cost of a file with no loop in it (no label, or only
 * forward branches: wl_litmus_text_may_loop, below, tells from the
 * text) from its size alone, without parsing it.
 *
 * Measured on the conformance corpus (one core of the 2-core dev
 * machine): the spin-loop tests take nearly all of the time (two of
 * them 29 s and 9 s of 52 s), and the guess puts them first; within
 * them it cannot tell the 29 s one from its mirror image, which takes
 * 0.3 s (the same accesses, other branch conditions), so a driver
 * should hand the first units out one at a time, to whichever worker is
 * free, rather than deal them ahead. */
#include <stdint.h>
#include <string.h>

#include "../program/ir.h"
#include "model.h"

/* log2(x) for x >= 1, near enough for a guess (no libm: the library
 * links without it): the integer part, and the fraction's parabola. */
static double lg2(double x) {
  double n = 0, m;
  if (x <= 1)
    return 0;
  while (x >= 2) {
    x /= 2;
    n++;
  }
  m = x - 1; /* [0, 1): log2(1 + m) ~ m (1.3466 - 0.3466 m) */
  return n + m * (1.3466 - 0.3466 * m);
}

/* 2^q for 0 <= q < 63, near enough: the integer part, the fraction's
 * parabola. */
static uint64_t pow2(double q) {
  int n = (int)q;
  double f = q - n;
  return (uint64_t)((double)((uint64_t)1 << n) *
                    (1 + f * (0.6565 + 0.3435 * f)));
}

/* Whether thread th has a branch back to an earlier instruction. */
static int has_loop(const wl_thread *th) {
  int i;
  for (i = 0; i < th->ninsns; i++) {
    const wl_insn *in = &th->insns[i];
    if ((in->op == OP_BRANCH || in->op == OP_GOTO) && in->target <= i)
      return 1;
  }
  return 0;
}

uint64_t wl_litmus_cost(const wl_litmus *t, int unroll) {
  double writes[WL_MAX_LOCS] = {0}, lg = 0;
  int trips[WL_MAX_THREADS];
  int k, i, l, loops = 0;
  if (t == NULL)
    return 0;
  if (unroll < 0)
    unroll = 0;
  if (unroll > 64)
    unroll = 64;
  for (k = 0; k < t->nthreads && k < WL_MAX_THREADS; k++) {
    const wl_thread *th = &t->threads[k];
    /* a callback thread: its accesses are unknown before it runs; one
     * trip of a small body */
    trips[k] = th->fn == NULL && has_loop(th) ? unroll + 1 : 1;
    loops |= trips[k] > 1;
    for (i = 0; i < th->ninsns; i++) {
      const wl_insn *in = &th->insns[i];
      if ((in->op == OP_ST || in->op == OP_ATOM || in->op == OP_RED) &&
          in->loc >= 0 && in->loc < WL_MAX_LOCS)
        writes[in->loc] += trips[k];
    }
  }
  for (k = 0; k < t->nthreads && k < WL_MAX_THREADS; k++) {
    const wl_thread *th = &t->threads[k];
    lg += 1.0; /* a thread: its traces' combinations */
    for (i = 0; i < th->ninsns; i++) {
      const wl_insn *in = &th->insns[i];
      if ((in->op == OP_LD || in->op == OP_ATOM) && in->loc >= 0 &&
          in->loc < WL_MAX_LOCS)
        lg += trips[k] * lg2(writes[in->loc] + 1);
      else if (in->op == OP_FENCE || in->op == OP_BAR)
        lg += 0.25 * trips[k];
    }
  }
  for (l = 0; l < t->nlocs && l < WL_MAX_LOCS; l++) {
    double w; /* log2(writes!) */
    for (w = 2; w <= writes[l]; w++)
      lg += lg2(w);
  }
  /* 2^(lg / 4): the searches prune, so a factor of 2 in the product is
   * far less in time; 2^62 at lg = 248.  A test with a spin loop costs
   * 2^32 more: more than any without one but the huge (lg >= 128). */
  if (lg >= 248)
    return UINT64_MAX;
  return pow2(lg / 4) + 1 + (loops ? (uint64_t)1 << 32 : 0);
}

/* A name's characters, as the litmus reader's words (lex.c, in the C
 * locale). */
static int word_start(int c) {
  return c == '_' || c == '%' || (c >= 'a' && c <= 'z') ||
         (c >= 'A' && c <= 'Z');
}
static int word_char(int c) {
  return word_start(c) || c == '.' || c == '$' || (c >= '0' && c <= '9');
}

/* Past the blanks and comments ("(* *)", and "//" to the line's end) from
 * q, as the reader skips them between words; past line ends too when nl
 * is set, else at the first one. */
static const char *skip_gap(const char *q, const char *end, int nl) {
  while (q < end) {
    if (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\f' ||
        *q == '\v' || (nl && *q == '\n'))
      q++;
    else if (*q == '(' && q + 1 < end && q[1] == '*') {
      for (q += 2; q < end && !(*q == '*' && q + 1 < end && q[1] == ')');
           q++)
        ;
      q = q < end ? q + 2 : end;
    } else if (*q == '/' && q + 1 < end && q[1] == '/') {
      while (q < end && *q != '\n')
        q++;
    } else
      break;
  }
  return q;
}

/* Whether a label's ':' ends at q (the text past the ':' has blanks and
 * comments only, then '|', ';', the line's end or the text's). */
static int label_end(const char *q, const char *end) {
  q = skip_gap(q, end, 0);
  return q == end || *q == '|' || *q == ';' || *q == '\n';
}

/* Whether text has a label's ':' at all: most tests have none, and this
 * says so fast. */
static int has_label(const char *text, size_t len) {
  const char *p = text, *end = text + len;
  while ((p = memchr(p, ':', (size_t)(end - p))) != NULL)
    if (label_end(++p, end))
      return 1;
  return 0;
}

#define LABEL_SLOTS 256 /* names remembered; more labels: "may loop" */

/* (warplab.h) A branch back goes to a label defined in an earlier row
 * of its thread, and the rows are in text order, so the branch's name
 * comes after the label's: a text where every label's name comes only
 * before it (forward branches, as in every generated test) has no loop.
 * Names alike in other threads, in comments, or as registers only make
 * it say "may" where there is none.  One pass, the names in a small
 * hash set. */
int wl_litmus_text_may_loop(const char *text, size_t len) {
  const char *name[LABEL_SLOTS];
  size_t nlen[LABEL_SLOTS], i = 0, n, k;
  int nlabels = 0;
  if (!has_label(text, len))
    return 0;
  memset(name, 0, sizeof name);
  while (i < len) {
    const char *q, *end = text + len;
    uint32_t h = 2166136261u;
    if (!word_start((unsigned char)text[i]) ||
        (i > 0 && word_char((unsigned char)text[i - 1]))) {
      i++;
      continue;
    }
    for (n = 0; i + n < len && word_char((unsigned char)text[i + n]); n++)
      h = (h ^ (unsigned char)text[i + n]) * 16777619u;
    q = skip_gap(text + i + n, end, 1);
    k = h % LABEL_SLOTS;
    if (q < end && *q == ':') { /* a label, if alone in its cell */
      if (label_end(q + 1, end)) {
        while (name[k] != NULL &&
               !(nlen[k] == n && memcmp(name[k], text + i, n) == 0))
          k = (k + 1) % LABEL_SLOTS;
        if (name[k] == NULL) {
          if (++nlabels > LABEL_SLOTS / 2)
            return 1; /* too many to follow: parse it */
          name[k] = text + i;
          nlen[k] = n;
        }
        i += n;
        continue;
      }
    }
    /* a use: of a label defined before it? */
    while (name[k] != NULL) {
      if (nlen[k] == n && memcmp(name[k], text + i, n) == 0)
        return 1;
      k = (k + 1) % LABEL_SLOTS;
    }
    i += n;
  }
  return 0;
}
