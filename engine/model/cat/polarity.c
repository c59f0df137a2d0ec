/* polarity.c -- which checks of a model can judge a partial candidate.
 *
 * The candidate enumerator (model/cand.c) builds reads-from and
 * coherence pair by pair, so a partial candidate's rf and co are subsets
 * of every completion's.  A check whose tested expression grows (never
 * shrinks) as those relations grow -- an acyclic, irreflexive or empty
 * check of a monotone expression -- can only turn false as the candidate
 * is completed: when it fails on a partial candidate, it fails on every
 * completion, and the enumerator may drop them all.  This is a property
 * of the model file, found here by reading its compiled operations, not
 * a property of PTX: a check that reads co under a difference (such as
 * Coherence's "... \ co") or a complement is never used this way.
 *
 * Representation: for each register, the base relations it may grow with
 * (pos) and shrink with (neg) as bit masks; one pass over the operations
 * per round, unions only, until nothing changes (loops of let rec and
 * reused registers are covered because the masks only accumulate). */
#include "catint.h"

typedef struct pol {
  uint32_t pos, neg;
} pol;

static int join(pol *d, uint32_t pos, uint32_t neg) {
  uint32_t p = d->pos | pos, q = d->neg | neg;
  int changed = p != d->pos || q != d->neg;
  d->pos = p;
  d->neg = q;
  return changed;
}

uint64_t wl__cat_monotone_checks(const wl_cat *m, uint64_t rels,
                                 wl_ctx *ctx) {
  pol *r, *s;
  size_t i;
  int changed = 1, rounds = 0;
  uint64_t mask = 0;
  if (m == NULL || ctx == NULL)
    return 0;
  r = wl__calloc(ctx, (size_t)m->nrel * sizeof *r);
  s = wl__calloc(ctx, (size_t)m->nset * sizeof *s);
  if (r == NULL || s == NULL) {
    wl__free(ctx, r, (size_t)m->nrel * sizeof *r);
    wl__free(ctx, s, (size_t)m->nset * sizeof *s);
    return 0; /* no pruning: correct, only slower */
  }
  for (i = 0; i < WL_CAT_NRELS; i++)
    r[i].pos = (uint32_t)1 << i;
  while (changed && rounds++ < 1000) {
    changed = 0;
    for (i = 0; i < m->nops; i++) {
      const cat_op *op = &m->ops[i];
      pol *d = NULL;
      uint32_t p = 0, q = 0;
      switch (op->op) {
      case OP_R_UNION:
      case OP_R_INTER:
      case OP_R_SEQ:
        p = r[op->a].pos | r[op->b].pos;
        q = r[op->a].neg | r[op->b].neg;
        d = &r[op->d];
        break;
      case OP_R_DIFF:
        p = r[op->a].pos | r[op->b].neg;
        q = r[op->a].neg | r[op->b].pos;
        d = &r[op->d];
        break;
      case OP_R_DOMF:
        p = s[op->a].pos | r[op->b].pos;
        q = s[op->a].neg | r[op->b].neg;
        d = &r[op->d];
        break;
      case OP_R_RNGF:
        p = r[op->a].pos | s[op->b].pos;
        q = r[op->a].neg | s[op->b].neg;
        d = &r[op->d];
        break;
      case OP_R_FILT:
        p = s[op->a].pos | r[op->b].pos | s[op->c].pos;
        q = s[op->a].neg | r[op->b].neg | s[op->c].neg;
        d = &r[op->d];
        break;
      case OP_R_CART:
        p = s[op->a].pos | s[op->b].pos;
        q = s[op->a].neg | s[op->b].neg;
        d = &r[op->d];
        break;
      case OP_R_TOID:
        p = s[op->a].pos;
        q = s[op->a].neg;
        d = &r[op->d];
        break;
      case OP_R_INV:
      case OP_R_PLUS:
      case OP_R_STAR:
      case OP_R_OPT:
      case OP_R_UPD:
        p = r[op->a].pos;
        q = r[op->a].neg;
        d = &r[op->d];
        break;
      case OP_R_COMPL:
        p = r[op->a].neg;
        q = r[op->a].pos;
        d = &r[op->d];
        break;
      case OP_S_UNION:
      case OP_S_INTER:
        p = s[op->a].pos | s[op->b].pos;
        q = s[op->a].neg | s[op->b].neg;
        d = &s[op->d];
        break;
      case OP_S_DIFF:
        p = s[op->a].pos | s[op->b].neg;
        q = s[op->a].neg | s[op->b].pos;
        d = &s[op->d];
        break;
      case OP_S_COMPL:
        p = s[op->a].neg;
        q = s[op->a].pos;
        d = &s[op->d];
        break;
      case OP_S_DOMAIN:
      case OP_S_RANGE:
        p = r[op->a].pos;
        q = r[op->a].neg;
        d = &s[op->d];
        break;
      case OP_S_UPD:
        p = s[op->a].pos;
        q = s[op->a].neg;
        d = &s[op->d];
        break;
      default:
        break;
      }
      if (d != NULL && join(d, p, q))
        changed = 1;
    }
  }
  if (!changed) {
    for (i = 0; i < m->nops; i++) {
      const cat_op *op = &m->ops[i];
      pol t;
      if (op->op < OP_CHK_ACYCLIC || op->c || op->d < 0 || op->d >= 64)
        continue;
      t = op->op == OP_CHK_EMPTY_S ? s[op->a] : r[op->a];
      /* the check fails as its expression grows; negated, as it
       * shrinks */
      if (((op->b ? t.pos : t.neg) & rels) == 0)
        mask |= (uint64_t)1 << op->d;
    }
  }
  wl__free(ctx, r, (size_t)m->nrel * sizeof *r);
  wl__free(ctx, s, (size_t)m->nset * sizeof *s);
  return mask;
}
