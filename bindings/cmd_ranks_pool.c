/* cmd_ranks_pool.c -- units of work (lpool.h) over the ranks of an MPI
 * job (ranks.h): the rank driver of the engine's sharding, a thin layer
 * over the libuv one.  Rank 0 holds the plan (wl_shard: largest first)
 * and hands the units out one at a time to whichever worker of any rank
 * is free (its own through its pool's source, the others' through
 * wll_ranks_claim, answered by its loop every millisecond): a guess of
 * the cost cannot tell a 29 s test from its 0.3 s mirror image (the
 * conformance corpus has both, engine/model/cost.c), so units dealt
 * ahead could leave one rank with the long ones.  A rank runs what it
 * is handed on its pool, its emit packing each output instead of
 * printing it; rank 0 gathers the packed outputs and emits them in unit
 * order (the plan again: wl_shard_done as they arrive, wl_shard_next in
 * order), so that the output is one process's for any number of ranks,
 * whichever rank ran what.
 *
 * What a rank sends: its answer (rc, stop) and message, then each
 * output its pool emitted (a prefix of its units, in unit order): the
 * unit, whether it was stopped, its bytes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "lpool.h"
#include "lsched.h"
#include "lwarplab.h"
#include "ranks.h"

/* The records' integers (cmd_pack.c's: little-endian 64-bit): 0, or -1
 * when the bytes ran out. */
static int get_u64(const unsigned char *p, size_t len, size_t *at,
                   uint64_t *v) {
  wll_unpack r;
  r.p = p;
  r.n = len;
  r.at = *at;
  r.bad = 0;
  *v = wll_unpack_u64(&r);
  if (r.bad)
    return -1;
  *at = r.at;
  return 0;
}

/* This rank's side: what its pool emitted, packed, and (rank 0) the
 * plan it hands units out from. */
typedef struct local {
  const wll_pool_fns *fns;
  const wll_ranks_codec *codec;
  void *ud;
  wll_pack out; /* the records */
  uint64_t nrec;
  int failed;     /* a pack failed: the run stops with an error */
  wl_shard *plan; /* rank 0's */
  int done;       /* rank 0: the ranks that will claim no more */
} local;

static int l_run(void *ud, size_t u, wl_ctx *ctx, void *worker,
                 void *stop_ud, void **out) {
  local *l = ud;
  return l->fns->run(l->ud, u, ctx, worker, stop_ud, out);
}

/* Rank 0: the next unit of the plan, for any rank; none once a signal
 * came (the units handed out finish, marked, as in one process). */
static int next_unit(void *ud, uint64_t *unit) {
  local *l = ud;
  size_t u;
  if (wll_sig_pending() || !wl_shard_take(l->plan, &u))
    return 0;
  *unit = u;
  return 1;
}

/* The pool's source: rank 0 takes from its plan and answers the other
 * ranks' claims on each tick; the others claim from rank 0. */
static int src_claim(void *ud, size_t *unit) {
  uint64_t u = 0;
  int got = wll_rank() == 0 ? next_unit(ud, &u) : wll_ranks_claim(&u);
  *unit = (size_t)u;
  return got;
}

static void src_tick(void *ud) {
  local *l = ud;
  wll_ranks_serve(next_unit, l, &l->done);
}

static int l_emit(void *ud, size_t u, void *out, int stopped) {
  local *l = ud;
  size_t len = 0;
  void *buf = NULL;
  int rc = l->codec->pack(l->ud, u, out, &buf, &len);
  if (l->fns->drop != NULL)
    l->fns->drop(l->ud, u, out);
  if (rc != 0) {
    l->failed = 1;
    return 1;
  }
  wll_pack_u64(&l->out, u);
  wll_pack_u64(&l->out, (uint64_t)(stopped != 0));
  wll_pack_u64(&l->out, len);
  wll_pack_raw(&l->out, buf, len);
  free(buf);
  l->nrec++;
  return l->out.oom;
}

static void l_drop(void *ud, size_t u, void *out) {
  local *l = ud;
  if (l->fns->drop != NULL)
    l->fns->drop(l->ud, u, out);
}

static int l_worker_new(void *ud, wl_ctx *ctx, void **worker) {
  local *l = ud;
  return l->fns->worker_new(l->ud, ctx, worker);
}

static void l_worker_free(void *ud, void *worker) {
  local *l = ud;
  l->fns->worker_free(l->ud, worker);
}

/* A unit's record, on rank 0. */
typedef struct rec {
  const unsigned char *p;
  size_t len;
  int stopped;
} rec;

/* Rank 0: reads rank r's records into recs (by unit) and the plan. */
static int read_rank(const unsigned char *p, size_t len, size_t n,
                     wl_shard *plan, rec *recs, int32_t *rc, int32_t *stop,
                     char *err, size_t errlen, int r) {
  size_t at = 0;
  uint64_t v, nrec, i, el;
  if (get_u64(p, len, &at, &v) != 0)
    goto bad;
  *rc = (int32_t)(int64_t)v;
  if (get_u64(p, len, &at, &v) != 0)
    goto bad;
  *stop = (int32_t)v;
  if (get_u64(p, len, &at, &el) != 0 || el > len - at)
    goto bad;
  if (*rc != 0) {
    snprintf(err, errlen, "rank %d: %.*s", r, (int)el,
             (const char *)p + at);
    return 0;
  }
  at += (size_t)el;
  if (get_u64(p, len, &at, &nrec) != 0)
    goto bad;
  for (i = 0; i < nrec; i++) {
    uint64_t u, st, bl;
    if (get_u64(p, len, &at, &u) != 0 || get_u64(p, len, &at, &st) != 0 ||
        get_u64(p, len, &at, &bl) != 0 || u >= n || bl > len - at)
      goto bad;
    recs[u].p = p + at;
    recs[u].len = (size_t)bl;
    recs[u].stopped = st != 0;
    if (wl_shard_done(plan, (size_t)u, &recs[u]) != 0)
      goto bad;
    at += (size_t)bl;
  }
  return 0;
bad:
  snprintf(err, errlen, "rank %d sent malformed outputs", r);
  *rc = WL_EIO;
  return -1;
}

int wll_ranks_pool_run(size_t n, const wll_pool_opts *opts,
                       const wll_pool_fns *fns, const wll_ranks_codec *codec,
                       void *ud, wll_pool_result *res, char *note,
                       size_t notelen, char *err, size_t errlen) {
  int nr = wll_nranks(), me = wll_rank(), rc = 0, r;
  wl_ctx *ctx = NULL;
  wl_shard *plan = NULL;
  uint64_t *costs = NULL;
  void *cb;
  size_t cblen, k, el;
  local l;
  wll_pool_opts lo;
  wll_pool_fns lf;
  wll_pool_result lres;
  wll_pool_source src;
  wll_pack send = {NULL, 0, 0, 0};
  void **all = NULL;
  size_t *lens = NULL;
  int32_t verdict[3];
  uint64_t n64 = (uint64_t)n;
  if (nr == 1)
    return wll_pool_run(n, opts, fns, ud, res, note, notelen, err, errlen);
  memset(res, 0, sizeof *res);
  memset(&l, 0, sizeof l);
  memset(&lres, 0, sizeof lres);
  if (err != NULL && errlen > 0)
    err[0] = '\0';
  if (note != NULL && notelen > 0)
    note[0] = '\0';
  /* rank 0's count of units to every rank: the same work everywhere */
  cb = &n64;
  cblen = sizeof n64;
  wll_ranks_bcast(&cb, &cblen);
  if (me != 0) {
    if (cblen != sizeof n64 || memcmp(cb, &n64, sizeof n64) != 0) {
      snprintf(err, errlen, "the ranks were given different work");
      rc = WL_EINVAL;
    }
    free(cb);
  }
  /* rank 0's plan: the units largest first, by its costs */
  if (rc == 0 && me == 0) {
    costs = calloc(n > 0 ? n : 1, sizeof *costs);
    if (costs == NULL)
      rc = WL_ENOMEM;
    for (k = 0; costs != NULL && k < n; k++)
      costs[k] = opts->costs != NULL ? opts->costs[k] : 1;
    if (rc == 0 && (rc = wl_ctx_new(NULL, &ctx)) == 0)
      rc = wl_shard_new(ctx, n, costs, &plan);
  }
  l.fns = fns;
  l.codec = codec;
  l.ud = ud;
  l.plan = plan;
  if (rc == 0) {
    lo = *opts;
    lo.progress = opts->progress && me == 0;
    memset(&src, 0, sizeof src);
    src.claim = src_claim;
    src.ud = &l;
    if (me == 0) { /* its loop answers the others' claims */
      src.tick = src_tick;
      src.tick_ms = 1;
    }
    lo.source = &src;
    memset(&lf, 0, sizeof lf);
    lf.run = l_run;
    lf.emit = l_emit;
    lf.drop = l_drop;
    if (fns->worker_new != NULL)
      lf.worker_new = l_worker_new;
    if (fns->worker_free != NULL)
      lf.worker_free = l_worker_free;
    rc = wll_pool_run(n, &lo, &lf, &l, &lres, note, notelen, err, errlen);
    if (rc == 0 && (l.failed || l.out.oom)) {
      rc = WL_ENOMEM;
      snprintf(err, errlen, "out of memory");
    }
  } else if (err[0] == '\0')
    snprintf(err, errlen, "%s",
             rc == WL_ENOMEM || ctx == NULL ? "out of memory"
                                            : wl_ctx_errmsg(ctx));
  /* the claims end: rank 0 answers (none, once its plan is out or it
   * failed) until every other rank said it is done */
  if (me == 0) {
    if (rc != 0)
      l.plan = NULL; /* none for anyone */
    wll_ranks_serve_all(next_unit, &l, &l.done);
  } else
    wll_ranks_claims_done();
  /* what this rank sends */
  el = rc != 0 ? strlen(err) : 0;
  wll_pack_u64(&send, (uint64_t)(int64_t)rc);
  wll_pack_u64(&send, (uint64_t)lres.stop);
  wll_pack_u64(&send, el);
  wll_pack_raw(&send, err, el);
  wll_pack_u64(&send, rc != 0 ? 0 : l.nrec);
  if (rc == 0)
    wll_pack_raw(&send, l.out.p, l.out.n);
  free(l.out.p);
  if (send.oom) { /* an answer that says so, from a buffer that fits */
    static const unsigned char oom[24] = {(unsigned char)WL_ENOMEM, 0xff,
                                          0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    wll_ranks_gather(oom, sizeof oom, &all, &lens);
  } else
    wll_ranks_gather(send.p, send.n, &all, &lens);
  free(send.p);
  if (me == 0) {
    rec *recs = calloc(n > 0 ? n : 1, sizeof *recs);
    int32_t stop = WLL_STOP_NONE, first_rc = 0;
    char rerr[600];
    rerr[0] = '\0';
    if (recs == NULL || all == NULL) {
      first_rc = WL_ENOMEM;
      snprintf(rerr, sizeof rerr, "out of memory");
    }
    /* every rank's answer, the first failure in rank order */
    for (r = 0; first_rc == 0 && r < nr; r++) {
      int32_t rrc = 0, rst = 0;
      char e[600];
      e[0] = '\0';
      read_rank(all[r], lens[r], n, plan, recs, &rrc, &rst, e, sizeof e, r);
      if (rrc != 0) {
        first_rc = rrc;
        snprintf(rerr, sizeof rerr, "%s", r == 0 ? err : e);
      }
      if (rst > stop)
        stop = rst;
    }
    /* the outputs in unit order, up to the first missing */
    if (first_rc == 0) {
      size_t u;
      void *rp;
      while (wl_shard_next(plan, &u, &rp)) {
        rec *x = rp;
        void *out = NULL;
        if (codec->unpack(ud, u, x->p, x->len, &out) != 0) {
          first_rc = WL_EIO;
          snprintf(rerr, sizeof rerr, "unit %zu's output cannot be read", u);
          break;
        }
        res->emitted++;
        if (fns->emit(ud, u, out, x->stopped) != 0) {
          stop = WLL_STOP_ERROR;
          break;
        }
        if (x->stopped)
          break;
      }
      if (first_rc == 0 && stop == WLL_STOP_NONE && res->emitted < n) {
        first_rc = WL_EIO; /* no rank stopped, yet a unit is missing */
        snprintf(rerr, sizeof rerr, "a rank did not send unit %zu",
                 res->emitted);
      }
    }
    free(recs);
    wll_ranks_free_all(all, lens);
    verdict[0] = first_rc;
    verdict[1] = stop;
    verdict[2] = (int32_t)res->emitted;
    if (first_rc != 0)
      snprintf(err, errlen, "%s", rerr);
  }
  {
    void *vp = verdict;
    size_t vl = sizeof verdict;
    wll_ranks_bcast(&vp, &vl);
    if (me != 0) {
      memcpy(verdict, vp, sizeof verdict);
      free(vp);
      if (verdict[0] != 0)
        snprintf(err, errlen, "failed on another rank");
    }
  }
  res->stop = verdict[1];
  res->emitted = (size_t)verdict[2];
  res->workers = lres.workers;
  wl_shard_free(plan);
  wl_ctx_free(ctx);
  free(costs);
  return verdict[0];
}
