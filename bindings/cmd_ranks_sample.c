/* cmd_ranks_sample.c -- warplab sample's runs split over the ranks of
 * an MPI job (ranks.h), each rank's share on its own libuv pool
 * (lsched.c), the histograms merged on rank 0.
 *
 * The engine seeds run i from (seed, i) alone (wl_sample_opts.first), so
 * rank r of P runs the indices [lo_r, hi_r) of the total (P nearly
 * equal ranges, in rank order) and the merged histogram is the one a
 * single process gets with the same seed and total, for any P.  One
 * thing depends on the total: the exact law (wl_sample_law) is tried
 * only when the runs are worth its states, so every rank computes it
 * for the total runs, and when it falls back on any rank (a timeout or
 * a signal during it) every rank runs step by step, as the fallback
 * does: the ranks never mix the two.  With one rank this is
 * wll_sample_parallel itself. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "lsched.h"
#include "lwarplab.h"
#include "ranks.h"

/* While the law is computed: a signal, or past half the timeout. */
typedef struct law_stop {
  double deadline; /* wll_seconds(); 0: none */
} law_stop;

static int law_should_stop(void *ud) {
  law_stop *l = ud;
  return wll_sig_stop(NULL) ||
         (l->deadline > 0 && wll_seconds() >= l->deadline);
}

/* What a rank sends rank 0: its answer, why it stopped, its message,
 * then its packed histogram (none after a failure). */
typedef struct share_head {
  int32_t rc, partial;
  uint32_t errlen;
} share_head;

static void *pack_share(int rc, int partial, const char *err, const void *h,
                        size_t hlen, size_t *len) {
  share_head hd;
  size_t el = rc != 0 ? strlen(err) : 0;
  char *p;
  hd.rc = rc;
  hd.partial = partial;
  hd.errlen = (uint32_t)el;
  *len = sizeof hd + el + hlen;
  if ((p = malloc(*len)) == NULL)
    return NULL;
  memcpy(p, &hd, sizeof hd);
  memcpy(p + sizeof hd, err, el);
  if (hlen > 0)
    memcpy(p + sizeof hd + el, h, hlen);
  return p;
}

int wll_sample_ranks(wl_ctx *ctx, const wl_litmus *t,
                     const wl_sample_opts *base, int jobs, double timeout_s,
                     int progress, wl_hist **out, int *partial, char *err,
                     size_t errlen) {
  int nr = wll_nranks(), me = wll_rank(), rc, r;
  uint64_t q, rem, lo, n;
  wl_sample_opts o = *base;
  wl_law *law = NULL;
  wl_hist *h = NULL;
  void *packed = NULL, *share, **all = NULL;
  size_t plen = 0, slen, *lens = NULL;
  int32_t verdict[2];
  void *vp;
  size_t vlen;
  if (nr == 1)
    return wll_sample_parallel(ctx, t, base, jobs, timeout_s, progress, out,
                               partial, err, errlen);
  *out = NULL;
  *partial = WLL_STOP_ERROR;
  if (!o.step && o.runs > 0) {
    law_stop ls;
    double t0 = wll_seconds();
    wl_sample_opts lo_opts = o;
    ls.deadline = timeout_s > 0 ? t0 + timeout_s * 0.5 : 0;
    lo_opts.should_stop = law_should_stop;
    lo_opts.stop_ud = &ls;
    rc = wl_sample_law(ctx, t, &lo_opts, &law);
    if (rc != 0)
      law = NULL; /* the failure is the sampling's, below */
    if (timeout_s > 0) {
      double spent = wll_seconds() - t0;
      timeout_s = spent < timeout_s ? timeout_s - spent : 1e-3;
    }
    /* as lsched.c says it, once (rank 0's) */
    if (getenv("WARPLAB_LAW_STATS") != NULL && me == 0 && law != NULL) {
      if (wl_law_exact(law))
        fprintf(stderr, "law %s: exact, %zu states, %zu outcomes, %.3f s\n",
                wl_litmus_name(t), wl_law_nstates(law), wl_law_noutcomes(law),
                wll_seconds() - t0);
      else
        fprintf(stderr, "law %s: step by step (%s), %.3f s\n",
                wl_litmus_name(t), wl_law_why(law), wll_seconds() - t0);
    }
    /* every rank exact, or every rank step by step */
    if (wll_ranks_max(law == NULL || !wl_law_exact(law))) {
      wl_law_free(law);
      law = NULL;
      o.step = 1;
    } else
      o.law = law;
  }
  q = base->runs / (uint64_t)nr;
  rem = base->runs % (uint64_t)nr;
  lo = (uint64_t)me * q + ((uint64_t)me < rem ? (uint64_t)me : rem);
  n = q + ((uint64_t)me < rem);
  o.first = base->first + lo;
  o.runs = n;
  rc = wll_sample_parallel(ctx, t, &o, jobs, timeout_s, progress && me == 0,
                           &h, partial, err, errlen);
  wl_law_free(law);
  if (rc == 0 && (rc = wl_hist_pack(h, &packed, &plen)) != 0)
    snprintf(err, errlen, "%s", wl_ctx_errmsg(ctx));
  share = pack_share(rc, *partial, err, packed, plen, &slen);
  free(packed);
  if (share == NULL) { /* still takes part, with a failure */
    static const share_head oom = {WL_ENOMEM, WLL_STOP_ERROR, 0};
    share = NULL;
    slen = sizeof oom;
    if (wll_ranks_gather(&oom, slen, &all, &lens) != 0)
      all = NULL;
  } else if (wll_ranks_gather(share, slen, &all, &lens) != 0)
    all = NULL;
  free(share);
  if (me == 0) {
    /* rank 0's histogram takes the others, in rank order; the first
     * failure in rank order is the answer, as the first failing batch
     * is a single process's */
    int why = rc == 0 ? *partial : WLL_STOP_NONE;
    if (all == NULL && rc == 0) {
      rc = WL_ENOMEM;
      snprintf(err, errlen, "out of memory");
    }
    for (r = 1; all != NULL && r < nr && rc == 0; r++) {
      share_head hd;
      const char *p = all[r];
      if (lens[r] < sizeof hd) {
        rc = WL_EIO;
        snprintf(err, errlen, "rank %d sent no histogram", r);
        break;
      }
      memcpy(&hd, p, sizeof hd);
      if (hd.rc != 0) {
        rc = hd.rc;
        snprintf(err, errlen, "rank %d: %.*s", r, (int)hd.errlen,
                 p + sizeof hd);
        break;
      }
      if (hd.partial > why)
        why = hd.partial;
      if (wl_hist_unpack_merge(h, p + sizeof hd + hd.errlen,
                               lens[r] - sizeof hd - hd.errlen) != 0) {
        rc = WL_EIO;
        snprintf(err, errlen, "rank %d: %s", r, wl_ctx_errmsg(ctx));
      }
    }
    wll_ranks_free_all(all, lens);
    verdict[0] = rc;
    verdict[1] = why;
  }
  /* every rank learns the answer, so that all go on (or stop) alike */
  vp = verdict;
  vlen = sizeof verdict;
  wll_ranks_bcast(&vp, &vlen);
  if (me != 0) {
    memcpy(verdict, vp, sizeof verdict);
    free(vp);
    wl_hist_free(h);
    h = NULL;
    if (verdict[0] != 0)
      snprintf(err, errlen, "failed on another rank");
  }
  rc = verdict[0];
  if (rc != 0) {
    wl_hist_free(h);
    *partial = WLL_STOP_ERROR;
    return rc;
  }
  *partial = verdict[1];
  *out = h; /* NULL on ranks other than 0 */
  return 0;
}
