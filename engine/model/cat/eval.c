/* eval.c -- the literal evaluator: runs a compiled model's operations
 * (catint.h) over one candidate execution.
 *
 * Representation: a relation over the candidate's n <= 64 events is n
 * rows of 64 bits (bit j of row i: the pair (i, j)); a set is one 64-bit
 * mask.  Base relations are read where the candidate keeps them; the
 * scratch relations lie n rows apart in one block, so a small candidate
 * touches little memory.  Every operation works on rows 0 .. n-1 only
 * and never reads a row it has not written for this candidate, so what
 * an earlier (larger) candidate left behind is never seen.
 *
 * Incremental evaluation (wl__cat_eval): the scratch keeps every
 * register's value from the previous candidate, and a state byte per
 * operation says whether its value (for a check: its verdict) is the
 * current one.  A call first marks stale every operation whose
 * dependency mask (m->info, compile.c) meets the changed base names,
 * then runs the list skipping the current ones.  Validity is per
 * operation, not per call: a stale operation stays stale until it runs,
 * so one that an early stop (a failing check) or a partial call left
 * out is computed when a later call needs it.  Registers are written by
 * one operation each, except a let rec name, whose unit (zeroing, loop
 * body, OP_LOOP) shares one mask: it goes stale whole and is run whole
 * from the zeroing, as wl__cat_check would.
 *
 * Nothing here allocates: the scratch is sized once per model
 * (wl__cat_scratch_new), and one model may be checked from several
 * threads, each with its own scratch. */
#include <string.h>

#include "catint.h"

#define WL_CAT_SET_NAME(id, name) name,
#define WL_CAT_REL_NAME(id, name) name,
const char *const wl__cat_set_names[WL_CAT_NSETS] = {
    WL_CAT_SETS(WL_CAT_SET_NAME)};
const char *const wl__cat_rel_names[WL_CAT_NRELS] = {
    WL_CAT_RELS(WL_CAT_REL_NAME)};
#undef WL_CAT_SET_NAME
#undef WL_CAT_REL_NAME

/* The uses_* masks have one bit per base name. */
_Static_assert(WL_CAT_NSETS <= 64 && WL_CAT_NRELS <= 64,
               "base names fit a 64-bit mask");

struct wl__cat_scratch {
  wl_ctx *ctx;
  const wl_cat *m;
  int n;                /* the candidate size rp is laid out for, or -1 */
  uint64_t *mem;        /* scratch relations */
  size_t memsz;
  const uint64_t **rp;  /* every relation register's rows */
  uint64_t *set;        /* every set register */
  uint8_t *st;          /* per operation: ST_* */
  /* wl__cat_scratch_set_stop: polled every STOP_POLL operations run in
   * let rec loops and at the end of every evaluation */
  int (*stop)(void *ud);
  void *stop_ud;
  uint64_t work, next_poll;
};

#define STOP_POLL (1u << 16)

/* An operation's state: its register (or verdict) is that of the
 * current candidate; a check's verdict is "holds" (before negation). */
enum { ST_VALID = 1, ST_HOLDS = 2 };

int wl__cat_scratch_new(wl_ctx *ctx, const wl_cat *m,
                        wl__cat_scratch **out) {
  wl__cat_scratch *s;
  size_t ntemp = (size_t)(m->nrel - WL_CAT_NRELS);
  *out = NULL;
  s = wl__calloc(ctx, sizeof *s);
  if (s == NULL)
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  s->ctx = ctx;
  s->m = m;
  s->n = -1;
  /* One spare relation keeps the block non-empty (a model with no
   * scratch relation). */
  s->memsz = (ntemp + 1) * WL_CAT_MAXEV * sizeof(uint64_t);
  s->mem = wl__calloc(ctx, s->memsz);
  s->rp = wl__calloc(ctx, (size_t)m->nrel * sizeof *s->rp);
  s->set = wl__calloc(ctx, (size_t)m->nset * sizeof *s->set);
  s->st = wl__calloc(ctx, m->nops + 1);
  if (s->mem == NULL || s->rp == NULL || s->set == NULL || s->st == NULL) {
    wl__cat_scratch_free(s);
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  }
  *out = s;
  return 0;
}

void wl__cat_scratch_set_stop(wl__cat_scratch *s, int (*stop)(void *ud),
                              void *ud) {
  s->stop = stop;
  s->stop_ud = ud;
  s->next_poll = s->work + STOP_POLL;
}

/* Whether the evaluation should stop, asked once STOP_POLL operations
 * have run since the last time.  A stop leaves every value stale: the
 * let rec loop it cut short has not reached its fixpoint. */
static int stopping(const wl_cat *m, wl__cat_scratch *s) {
  if (s->stop == NULL || s->work < s->next_poll)
    return 0;
  s->next_poll = s->work + STOP_POLL;
  if (!s->stop(s->stop_ud))
    return 0;
  memset(s->st, 0, m->nops);
  return 1;
}

void wl__cat_scratch_free(wl__cat_scratch *s) {
  if (s == NULL)
    return;
  wl__free(s->ctx, s->mem, s->memsz);
  wl__free(s->ctx, s->rp, (size_t)s->m->nrel * sizeof *s->rp);
  wl__free(s->ctx, s->set, (size_t)s->m->nset * sizeof *s->set);
  wl__free(s->ctx, s->st, s->m->nops + 1);
  wl__free(s->ctx, s, sizeof *s);
}

/* ---------------------------------------------------------------- */
/* Relations                                                         */

static int ctz64(uint64_t x) {
#if defined(__GNUC__)
  return __builtin_ctzll(x);
#else
  int k = 0;
  while (!(x & 1)) {
    x >>= 1;
    k++;
  }
  return k;
#endif
}

/* d = a ; b: row i of d is the union of b's rows at a's row i's bits. */
static void r_seq(uint64_t *d, const uint64_t *a, const uint64_t *b,
                  int n) {
  int i;
  for (i = 0; i < n; i++) {
    uint64_t x = a[i], acc = 0;
    while (x) {
      acc |= b[ctz64(x)];
      x &= x - 1;
    }
    d[i] = acc;
  }
}

static void r_inv(uint64_t *d, const uint64_t *a, int n) {
  int i;
  memset(d, 0, (size_t)n * sizeof *d);
  for (i = 0; i < n; i++) {
    uint64_t x = a[i];
    while (x) {
      d[ctz64(x)] |= (uint64_t)1 << i;
      x &= x - 1;
    }
  }
}

/* d = a+ (Warshall on rows: after step k, d[i] reaches through 0..k). */
static void r_plus(uint64_t *d, const uint64_t *a, int n) {
  int i, k;
  memcpy(d, a, (size_t)n * sizeof *d);
  for (k = 0; k < n; k++) {
    uint64_t bit = (uint64_t)1 << k, rowk = d[k];
    if (rowk == 0)
      continue;
    for (i = 0; i < n; i++)
      if (d[i] & bit)
        d[i] |= rowk;
  }
}

static void r_add_id(uint64_t *d, int n) {
  int i;
  for (i = 0; i < n; i++)
    d[i] |= (uint64_t)1 << i;
}

/* Acyclic: peel the events with no predecessor or no successor among
 * those left; a cycle is what never peels. */
static int r_acyclic(const uint64_t *a, uint64_t full) {
  uint64_t rem = full;
  while (rem) {
    uint64_t haspred = 0, sinks = 0, x = rem, peel;
    while (x) {
      int i = ctz64(x);
      uint64_t succ = a[i] & rem;
      haspred |= succ;
      if (succ == 0)
        sinks |= (uint64_t)1 << i;
      x &= x - 1;
    }
    peel = (rem & ~haspred) | sinks;
    if (peel == 0)
      return 0;
    rem &= ~peel;
  }
  return 1;
}

static int r_irreflexive(const uint64_t *a, int n) {
  int i;
  for (i = 0; i < n; i++)
    if ((a[i] >> i) & 1)
      return 0;
  return 1;
}

static int r_empty(const uint64_t *a, int n) {
  uint64_t acc = 0;
  int i;
  for (i = 0; i < n; i++)
    acc |= a[i];
  return acc == 0;
}

/* ---------------------------------------------------------------- */
/* The interpreter                                                   */

/* Lays the scratch relations n rows apart. */
static void layout(wl__cat_scratch *s, int n) {
  int i;
  for (i = WL_CAT_NRELS; i < s->m->nrel; i++)
    s->rp[i] = s->mem + (size_t)(i - WL_CAT_NRELS) * (size_t)n;
  s->n = n;
}

/* Marks stale what the changed base names reach (everything for a new
 * size, which also moves the scratch relations). */
static void invalidate(const wl_cat *m, wl__cat_scratch *s, int n,
                       uint64_t changed_rels, uint64_t changed_sets) {
  size_t k;
  if (s->n != n) {
    layout(s, n);
    memset(s->st, 0, m->nops);
    return;
  }
  if (m->no_incr || (changed_rels == ~(uint64_t)0 &&
                     changed_sets == ~(uint64_t)0)) {
    memset(s->st, 0, m->nops);
    return;
  }
  if ((changed_rels | changed_sets) == 0)
    return;
  for (k = 0; k < m->nops; k++)
    if ((m->info[k].rels & changed_rels) ||
        (m->info[k].sets & changed_sets))
      s->st[k] = 0;
}

/* Reports check op's verdict (holds: its condition, before negation)
 * into out; 1 when the check fails, which ends the evaluation. */
static int verdict(const wl_cat *m, const cat_op *op, int holds,
                   wl__cat_out *out) {
  holds ^= op->b;
  if (op->c) {
    /* A flag is raised when its condition holds (herd's flag). */
    if (holds)
      out->flags |= (uint64_t)1 << op->d;
    return 0;
  }
  if (holds)
    return 0;
  /* a waived check (explain.c) does not decide consistency */
  if (op->d < 64 && ((m->waived >> op->d) & 1))
    return 0;
  /* herd stops at the first failing check: the candidate is not an
   * execution of the model, and nothing later matters. */
  out->consistent = 0;
  out->failed = op->d;
  return 1;
}

static int run(const wl_cat *m, wl__cat_scratch *s, const wl__cand *c,
               uint64_t changed_rels, uint64_t changed_sets, int partial,
               uint64_t only, wl__cat_out *out) {
  const int n = c->n;
  const uint64_t full = n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
  /* an empty model has no ops array: NULL + 0 is undefined in C */
  const cat_op *op = m->ops, *end = m->nops ? m->ops + m->nops : m->ops;
  const uint64_t **rp = s->rp;
  uint64_t *set = s->set, *mem = s->mem;
  uint8_t *st = s->st;
  int changed = 0, iter = 0, i;
  wl_assert(n >= 0 && n <= WL_CAT_MAXEV); /* a row is one word */
  invalidate(m, s, n, changed_rels, changed_sets);
  for (i = 0; i < WL_CAT_NRELS; i++)
    rp[i] = c->rel[i];
  memcpy(set, c->set, sizeof c->set);
  out->consistent = 1;
  out->failed = -1;
  out->flags = 0;
  if (!partial)
    only = ~(uint64_t)0;
  for (; op < end; op++) {
    const size_t k = (size_t)(op - m->ops);
    /* The destination, for the relation operations (listed first). */
    uint64_t *d = op->op <= OP_R_UPD
                      ? mem + (size_t)(op->d - WL_CAT_NRELS) * (size_t)n
                      : NULL;
    const uint64_t *a, *b;
    int holds;
    /* A partial call computes only what the checks asked for read. */
    if (partial && !(m->info[k].users & only))
      continue;
    if (st[k] & ST_VALID) {
      /* Kept from an earlier candidate (or this one's loop). */
      if (op->op >= OP_CHK_ACYCLIC &&
          verdict(m, op, (st[k] & ST_HOLDS) != 0, out))
        return 0;
      continue;
    }
    st[k] = ST_VALID;
    switch (op->op) {
    case OP_R_ZERO:
      memset(d, 0, (size_t)n * sizeof *d);
      break;
    case OP_R_UNION:
      a = rp[op->a], b = rp[op->b];
      for (i = 0; i < n; i++)
        d[i] = a[i] | b[i];
      break;
    case OP_R_INTER:
      a = rp[op->a], b = rp[op->b];
      for (i = 0; i < n; i++)
        d[i] = a[i] & b[i];
      break;
    case OP_R_DIFF:
      a = rp[op->a], b = rp[op->b];
      for (i = 0; i < n; i++)
        d[i] = a[i] & ~b[i];
      break;
    case OP_R_SEQ:
      r_seq(d, rp[op->a], rp[op->b], n);
      break;
    case OP_R_DOMF: {
      uint64_t sa = set[op->a];
      b = rp[op->b];
      for (i = 0; i < n; i++)
        d[i] = ((sa >> i) & 1) ? b[i] : 0;
      break;
    }
    case OP_R_RNGF: {
      uint64_t sb = set[op->b];
      a = rp[op->a];
      for (i = 0; i < n; i++)
        d[i] = a[i] & sb;
      break;
    }
    case OP_R_FILT: {
      uint64_t sa = set[op->a], sc = set[op->c];
      b = rp[op->b];
      for (i = 0; i < n; i++)
        d[i] = ((sa >> i) & 1) ? b[i] & sc : 0;
      break;
    }
    case OP_R_CART: {
      uint64_t sa = set[op->a], sb = set[op->b];
      for (i = 0; i < n; i++)
        d[i] = ((sa >> i) & 1) ? sb : 0;
      break;
    }
    case OP_R_TOID: {
      uint64_t sa = set[op->a];
      for (i = 0; i < n; i++)
        d[i] = sa & ((uint64_t)1 << i);
      break;
    }
    case OP_R_INV:
      r_inv(d, rp[op->a], n);
      break;
    case OP_R_PLUS:
      r_plus(d, rp[op->a], n);
      break;
    case OP_R_STAR:
      r_plus(d, rp[op->a], n);
      r_add_id(d, n);
      break;
    case OP_R_OPT:
      memcpy(d, rp[op->a], (size_t)n * sizeof *d);
      r_add_id(d, n);
      break;
    case OP_R_COMPL:
      a = rp[op->a];
      for (i = 0; i < n; i++)
        d[i] = ~a[i] & full;
      break;
    case OP_R_UPD:
      a = rp[op->a];
      if (memcmp(d, a, (size_t)n * sizeof *d) != 0) {
        memcpy(d, a, (size_t)n * sizeof *d);
        changed = 1;
      }
      break;
    case OP_S_ZERO:
      set[op->d] = 0;
      break;
    case OP_S_UNION:
      set[op->d] = set[op->a] | set[op->b];
      break;
    case OP_S_INTER:
      set[op->d] = set[op->a] & set[op->b];
      break;
    case OP_S_DIFF:
      set[op->d] = set[op->a] & ~set[op->b];
      break;
    case OP_S_COMPL:
      set[op->d] = ~set[op->a] & full;
      break;
    case OP_S_DOMAIN: {
      uint64_t acc = 0;
      a = rp[op->a];
      for (i = 0; i < n; i++)
        if (a[i])
          acc |= (uint64_t)1 << i;
      set[op->d] = acc;
      break;
    }
    case OP_S_RANGE: {
      uint64_t acc = 0;
      a = rp[op->a];
      for (i = 0; i < n; i++)
        acc |= a[i];
      set[op->d] = acc;
      break;
    }
    case OP_S_UPD:
      if (set[op->d] != set[op->a]) {
        set[op->d] = set[op->a];
        changed = 1;
      }
      break;
    case OP_LOOP:
      /* A monotone let rec reaches its least fixpoint within (names x
       * n x n) rounds, each adding a pair; the bound stops a body that
       * is not monotone (herd would not terminate on it either). */
      if (changed && ++iter < op->c * n * n + 2) {
        /* The body runs again: stale until the loop ends. */
        s->work += k + 1 - (size_t)op->d;
        if (stopping(m, s))
          return WL_ESTOPPED;
        memset(st + op->d, 0, k + 1 - (size_t)op->d);
        op = m->ops + op->d - 1;
      } else {
        iter = 0;
      }
      changed = 0;
      break;
    case OP_CHK_ACYCLIC:
    case OP_CHK_IRREFL:
    case OP_CHK_EMPTY_R:
    case OP_CHK_EMPTY_S:
      if (op->op == OP_CHK_ACYCLIC)
        holds = r_acyclic(rp[op->a], full);
      else if (op->op == OP_CHK_IRREFL)
        holds = r_irreflexive(rp[op->a], n);
      else if (op->op == OP_CHK_EMPTY_R)
        holds = r_empty(rp[op->a], n);
      else
        holds = set[op->a] == 0;
      if (holds)
        st[k] |= ST_HOLDS;
      if (verdict(m, op, holds, out))
        return 0;
      break;
    default:
      break;
    }
  }
  s->work += m->nops;
  if (stopping(m, s))
    return WL_ESTOPPED;
  return 0;
}

int wl__cat_eval(const wl_cat *m, wl__cat_scratch *s, const wl__cand *c,
                 uint64_t changed_rels, uint64_t changed_sets, int partial,
                 uint64_t only, wl__cat_out *out) {
  return run(m, s, c, changed_rels, changed_sets, partial != 0, only, out);
}

int wl__cat_check(const wl_cat *m, wl__cat_scratch *s, const wl__cand *c,
                  wl__cat_out *out) {
  return run(m, s, c, ~(uint64_t)0, ~(uint64_t)0, 0, 0, out);
}

int wl__cat_check_only(const wl_cat *m, wl__cat_scratch *s,
                       const wl__cand *c, uint64_t only, wl__cat_out *out) {
  return run(m, s, c, ~(uint64_t)0, ~(uint64_t)0, 1, only, out);
}

/* For explain.c: a register's value after an evaluation with s. */
const uint64_t *wl__cat_scratch_rel(const wl__cat_scratch *s, int reg) {
  return s->rp[reg];
}

uint64_t wl__cat_scratch_set(const wl__cat_scratch *s, int reg) {
  return s->set[reg];
}
