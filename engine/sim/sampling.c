/* sampling.c -- wl_sample: the litmus sampler's driver.  It sets up a
 * test's machine once (each thread's SM, the locations on the link,
 * callback threads), runs it from one seed per run (sample.c) and fills
 * the outcome histogram (hist.c), judging the condition once per
 * distinct outcome. */
#include "../emit/emit.h"
#include "../mem/profile.h"
#include "law.h"
#include "sample.h"

/* vals packed into w, or 0 when some value does not fit. */
static int oc_pack(const int64_t *v, int n, uint64_t w[2]) {
  uint64_t bad = 0;
  int i;
  w[0] = w[1] = 0;
  for (i = 0; i < n; i++) {
    uint64_t u = (uint64_t)v[i] + 32768;
    bad |= u >> 16;
    w[i >> 2] |= (u & 0xffff) << (16 * (i & 3));
  }
  return bad == 0;
}

static size_t oc_slot(const uint64_t w[2]) {
  return (size_t)(((w[0] * 0x9e3779b97f4a7c15ull) ^
                   (w[1] * 0xc2b2ae3d27d4eb4full)) >> 56);
}

static void oc_put(ocache *oc, const uint64_t w[2], size_t sl, long k) {
  if (sl == OC_SLOTS)
    return;
  oc->key[sl][0] = w[0];
  oc->key[sl][1] = w[1];
  oc->k1[sl] = (uint32_t)(k + 1);
}

/* The index of the outcome vals, or -1 when it is new; w and sl: its
 * packed key and slot (*sl OC_SLOTS when it has none). */
static long oc_find(ocache *oc, const wl_hist *h, const int64_t *vals,
                    uint64_t w[2], size_t *sl) {
  long k;
  *sl = OC_SLOTS;
  if (oc != NULL && oc_pack(vals, h->lay.nvals, w)) {
    *sl = oc_slot(w);
    if (oc->k1[*sl] != 0 && oc->key[*sl][0] == w[0] &&
        oc->key[*sl][1] == w[1])
      return (long)oc->k1[*sl] - 1;
  }
  k = wl__hist_find(h, vals);
  if (k >= 0)
    oc_put(oc, w, *sl, k);
  return k;
}

/* Which locations are on the link: those a thread uses (a callback
 * thread: any) that live on another GPU than the thread's. */
static void link_setup(sim *s) {
  const wl_litmus *t = s->t;
  wl_mach *m = &s->m;
  int th, i, l;
  m->linked = 0;
  for (th = 0; th < t->nthreads; th++) {
    const wl_thread *tt = &t->threads[th];
    uint64_t uses = 0;
    if (tt->fn != NULL)
      uses = ~0ull;
    for (i = 0; i < tt->ninsns; i++)
      if (tt->insns[i].loc >= 0)
        uses |= 1ull << tt->insns[i].loc;
    m->remote[th] = m->upmask[th] = 0;
    for (l = 0; l < t->nlocs; l++) {
      int home = wl__loc_home(t, l);
      if (!(uses >> l & 1) || home == tt->gpu)
        continue;
      m->remote[th] |= 1ull << l;
      if (home > tt->gpu)
        m->upmask[th] |= 1ull << l;
    }
    m->linked |= m->remote[th];
  }
  m->lone = 0;
  for (th = 0; th < t->nthreads; th++) {
    int o, alone = 1;
    for (o = 0; o < t->nthreads; o++)
      if (o != th && t->threads[o].gpu == t->threads[th].gpu)
        alone = 0;
    if (alone)
      m->lone |= 1ull << th;
  }
}


int wl__sim_init(wl_ctx *ctx, sim *s, wl_hist *h, const wl_litmus *t,
                 const wl_sample_opts *opts) {
  int th, rc = 0;
  s->t = t;
  s->profile = opts->profile;
  s->ctx = ctx;
  s->h = h;
  s->fn = opts->thread_fn;
  s->fn_ud = opts->thread_ud;
  s->feat = -1;
  s->hdelay = s->hgap = 0;
  s->wstall = (int)wl__profiles[opts->profile].stall;
  s->wrel[0] = s->wrel[1] = s->wdraw = 0;
  if (wl_cuda_harness_name(opts->harness) != NULL) {
    const wl__cuda_preset *q = &wl__cuda_presets[opts->harness];
    unsigned c = wl__profile_turn_cycles[opts->profile];
    s->hdelay = (int)((unsigned)q->delay / c);
    s->hgap = (int)((unsigned)q->gap / c);
    /* with the harness's waits in turns of c cycles, the stall is a
     * time in those turns too (profile.h) */
    if ((s->hdelay > 1 || s->hgap > 1) && s->wstall > 0) {
      const knobs *k = &wl__profiles[opts->profile];
      s->wstall = (int)((k->hstall + c / 2) / c);
      s->wrel[0] = (int)((k->hrel[0] + c / 2) / c);
      s->wrel[1] = (int)((k->hrel[1] + c / 2) / c);
      s->wdraw = 1;
    }
  }
  /* one SM per CTA (the same for every run), unless the test puts
   * CTAs on one SM ("sm N"): they then share its store path and L1, as
   * blocks on one SM of an H100/H200 do (no weak MP, SB, LB or 2+2W
   * between them: tests/hw/observed/h200-2026-11-26/sm) */
  for (th = 0; th < t->nthreads; th++) {
    int o;
    const wl_thread *a = &t->threads[th];
    s->m.sm[th] = th;
    s->th[th].insns = a->insns;
    s->th[th].ninsns = a->ninsns;
    for (o = 0; o < th; o++) {
      const wl_thread *b = &t->threads[o];
      if (b->gpu == a->gpu && (a->sm1 != 0 ? b->sm1 == a->sm1
                                           : b->cta == a->cta)) {
        s->m.sm[th] = s->m.sm[o];
        break;
      }
    }
  }
  link_setup(s);
  for (th = 0; th < t->nthreads && rc == 0; th++) {
    if (t->threads[th].fn == NULL)
      continue;
    s->th[th].cb = 1;
    if ((s->cb[th] = wl__calloc(ctx, sizeof *s->cb[th])) == NULL)
      rc = wl__err(ctx, WL_ENOMEM, "out of memory");
  }
  return rc;
}

void wl__sim_fini(wl_ctx *ctx, sim *s) {
  int th;
  for (th = 0; th < s->t->nthreads; th++)
    wl__free(ctx, s->cb[th], sizeof *s->cb[th]);
  wl__free(ctx, s, sizeof *s);
}

/* Checks a sampling's arguments and test; 0 or a WL_E* code. */
int wl__sample_check(wl_ctx *ctx, const wl_litmus *t,
                     const wl_sample_opts *opts) {
  int rc;
  ctx->errmsg[0] = '\0';
  if (opts->profile != WL_PROFILE_WEAK && opts->profile != WL_PROFILE_H100)
    return wl__err(ctx, WL_EINVAL, "unknown profile %d", opts->profile);
  if (wl_cuda_harness_name(opts->harness) == NULL)
    return wl__err(ctx, WL_EINVAL, "unknown harness %d", opts->harness);
  if ((rc = wl__litmus_check_labels(t)) != 0)
    return rc;
  return wl__litmus_check_v60(t, "the simulator");
}

/* The runs of a sampling drawn from the law w: run i's outcome from one
 * number of (seed, first + i), counted per outcome, then added to h in
 * the order the runs first met them (as the step-by-step runs add
 * them, so that the order does not depend on how runs are split). */
static int sample_law(wl_ctx *ctx, const wl_litmus *t,
                      const wl_sample_opts *opts, const struct wl_law *w,
                      wl_hist *h) {
  uint64_t *cnt, i = 0, n = opts->runs;
  uint32_t *ord, no = 0, j;
  int rc = 0;
  cnt = wl__calloc(ctx, (w->nout + 1) * sizeof *cnt);
  ord = wl__calloc(ctx, (w->nout + 1) * sizeof *ord);
  if (cnt == NULL || ord == NULL) {
    rc = wl__err(ctx, WL_ENOMEM, "out of memory");
    goto out;
  }
  while (i < n) {
    /* in slices, polling should_stop between them, as the runs do */
    uint64_t end = n - i > 16384 ? i + 16384 : n;
    if (opts->should_stop != NULL && opts->should_stop(opts->stop_ud)) {
      rc = wl__err(ctx, WL_ESTOPPED, "%s: sampling stopped after %llu runs",
                   t->name, (unsigned long long)i);
      break;
    }
    for (; i < end; i++) {
      size_t k = wl__law_draw(
          w, wl__splitmix(opts->seed ^ wl__splitmix(opts->first + i)));
      if (cnt[k]++ == 0)
        ord[no++] = (uint32_t)k;
    }
  }
  h->runs = i;
  for (j = 0; j < no && rc != WL_ENOMEM; j++) {
    size_t k = ord[j];
    if (k == w->nout)
      h->hung += cnt[k];
    else if (wl__hist_add(h, w->vals + k * (size_t)w->nvals, w->sat[k],
                          cnt[k]) != 0)
      rc = wl__err(ctx, WL_ENOMEM, "out of memory");
  }
out:
  wl__free(ctx, cnt, (w->nout + 1) * sizeof *cnt);
  wl__free(ctx, ord, (w->nout + 1) * sizeof *ord);
  return rc;
}

int wl_sample(wl_ctx *ctx, const wl_litmus *t, const wl_sample_opts *opts,
              wl_hist **out) {
  wl_hist *h;
  sim *s;
  uint64_t i;
  int th, rc = 0, max_steps;
  int64_t vals[WL_MAX_THREADS * WL_MAX_REGS + WL_MAX_LOCS];
  int64_t *regp[WL_MAX_THREADS];
  ocache *oc = NULL;
  uint64_t w[2];
  size_t sl;
  long k;
  if (ctx == NULL || t == NULL || opts == NULL || out == NULL)
    return WL_EINVAL;
  *out = NULL;
  if ((rc = wl__sample_check(ctx, t, opts)) != 0)
    return rc;
  max_steps = opts->max_steps > 0 ? opts->max_steps : 10000;
  h = wl__calloc(ctx, sizeof *h);
  if (h == NULL)
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  h->ctx = ctx;
  h->t = t;
  h->kind = t->cond_kind;
  wl__hist_layout_init(h);
  if (!opts->step && opts->runs > 0) {
    /* the exact law, when the test has one */
    const struct wl_law *law = opts->law;
    wl_law *own = NULL;
    if (law == NULL) {
      /* (its cost is bounded by the runs': it does not poll
       * should_stop, which the runs then do) */
      wl_sample_opts lo = *opts;
      lo.should_stop = NULL;
      rc = wl_sample_law(ctx, t, &lo, &own);
      law = own;
    }
    if (rc == 0 && law->exact)
      rc = sample_law(ctx, t, opts, law, h);
    if (rc == 0 && law->exact) {
      wl_law_free(own);
      wl_assert(wl__hist_totals_ok(h));
      *out = h;
      return 0;
    }
    wl_law_free(own);
    if (rc != 0 && rc != WL_ESTOPPED) {
      wl_hist_free(h);
      return rc;
    }
    if (rc == WL_ESTOPPED) {
      *out = h;
      return rc;
    }
  }
  s = wl__calloc(ctx, sizeof *s);
  if (s == NULL) {
    wl_hist_free(h);
    return wl__err(ctx, WL_ENOMEM, "out of memory");
  }
  if ((rc = wl__sim_init(ctx, s, h, t, opts)) == 0 && h->lay.nvals <= 8) {
    int ncb = 0;
    for (th = 0; th < t->nthreads; th++)
      ncb += s->th[th].cb;
    if (ncb == 0)
      oc = &s->oc;
  }
  for (i = 0; i < opts->runs && rc == 0; i++) {
    if (opts->should_stop != NULL && (i & 255) == 0 &&
        opts->should_stop(opts->stop_ud)) {
      rc = wl__err(ctx, WL_ESTOPPED, "%s: sampling stopped after %llu runs",
                   t->name, (unsigned long long)i);
      break;
    }
    h->runs++;
    /* run_once fills every value of a run that terminates */
    if (!wl__sim_run(s,
                     wl__splitmix(opts->seed ^ wl__splitmix(opts->first + i)) |
                         1,
                     max_steps, vals, h->lay.regoff)) {
      if (s->err != 0) {
        h->runs--;
        rc = s->err;
        break;
      }
      h->hung++;
      continue;
    }
    /* judge the condition only for outcomes not seen before */
    if ((k = oc_find(oc, h, vals, w, &sl)) >= 0) {
      h->o[k].count++;
      continue;
    }
    for (th = 0; th < t->nthreads; th++)
      regp[th] = vals + h->lay.regoff[th];
    if (wl__hist_add(h, vals,
                 t->has_cond ? wl__cond_eval(t, t->cond_root, regp,
                                             vals + h->lay.regoff[t->nthreads])
                             : 1,
                 1) != 0) {
      rc = wl__err(ctx, WL_ENOMEM, "out of memory");
      break;
    }
    oc_put(oc, w, sl, (long)h->n - 1);
  }
  wl__sim_fini(ctx, s);
  if (rc != 0 && rc != WL_ESTOPPED) {
    wl_hist_free(h);
    return rc;
  }
  wl_assert(wl__hist_totals_ok(h));
  *out = h;
  return rc;
}
