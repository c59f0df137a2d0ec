/* findings.c -- the data race and the hang of a result (datarace.c,
 * liveness.c) as text lines after the herd text, and as the "race" and
 * "hang" members of the JSON object. */
#include <stdio.h>
#include <string.h>

#include "model.h"

static const char *sem_name(int s) {
  static const char *w[] = {"weak",    "relaxed", "acquire",
                            "release", "acq_rel", "sc"};
  return s >= 0 && s < 6 ? w[s] : "?";
}

static const char *scope_name(int s) {
  static const char *w[] = {"", "cta", "gpu", "sys"};
  return s >= 0 && s < 4 ? w[s] : "?";
}

static const char *file_of(const wl_litmus *t) {
  return t->filename ? t->filename : t->name;
}

/* "st.weak" / "ld.relaxed.gpu" */
static void access_words(wl_buf *b, const wl_race_access *a) {
  wl__buf_printf(b, "%s.%s", a->kind == 'W' ? "st" : "ld", sem_name(a->sem));
  if (a->sem != WL_SEM_WEAK && a->scope > 0)
    wl__buf_printf(b, ".%s", scope_name(a->scope));
}

/* The narrowest scope that includes both threads of the pair. */
static int covering_scope(const wl_thread *a, const wl_thread *b) {
  int sc;
  for (sc = WL_SCOPE_CTA; sc < WL_SCOPE_SYS; sc++)
    if (wl__scopes_meet(sc, a, sc, b))
      return sc;
  return WL_SCOPE_SYS;
}

/* The synchronisation in thread a's program towards thread b: fences,
 * and releases and acquires (strong accesses and RMWs).  *ok: one has a
 * scope that includes b; returns the first whose scope does not (NULL:
 * none).  A callback thread's program is not known: nothing found. */
static const wl_insn *sync_ops(const wl_thread *a, const wl_thread *b,
                               int *ok) {
  const wl_insn *narrow = NULL;
  int i;
  *ok = 0;
  for (i = 0; a->fn == NULL && i < a->ninsns; i++) {
    const wl_insn *in = &a->insns[i];
    int rl = wl__sem_releases(in->sem), acq = wl__sem_acquires(in->sem);
    if (!(in->op == OP_FENCE ||
          ((in->op == OP_ST || in->op == OP_RED || in->op == OP_ATOM) && rl) ||
          ((in->op == OP_LD || in->op == OP_ATOM) && acq)))
      continue;
    if (wl__scope_includes(in->scope, a, b))
      *ok = 1;
    else if (narrow == NULL)
      narrow = in;
  }
  return narrow;
}

/* "fence.sc.cta" / "st.release.cta" / "ld.acquire.cta" / "atom.cta" */
static void insn_words(wl_buf *b, const wl_insn *in) {
  static const char *const op[] = {"nop", "mov", "alu", "ld",    "st",
                                   "atom", "red", "fence", "bar", "bra",
                                   "bra"};
  wl__buf_printf(b, "%s.%s.%s", in->op <= OP_GOTO ? op[in->op] : "?",
                 sem_name(in->sem), scope_name(in->scope));
}

/* What would order the racing pair, after the PTX definition: the pair
 * is morally strong when both accesses are strong with scopes that
 * include each other's thread, and ordered when causality order relates
 * them (a release pattern observed by an acquire pattern, fence.sc).
 * Tailored to the cause: strong accesses whose scope is too narrow;
 * weak accesses with synchronisation whose scope is too narrow; with
 * synchronisation wide enough that this execution does not use (the
 * later access does not wait for the flag); or with none. */
static void race_fix(const wl_result *r, wl_buf *b) {
  const wl_litmus *t = r->t;
  const wl_race_info *ri = &r->race;
  const wl_race_access *x = &ri->a[0], *y = &ri->a[1], *w, *o;
  const wl_thread *tx = &t->threads[x->thread], *ty = &t->threads[y->thread];
  const char *sc = scope_name(covering_scope(tx, ty));
  const char *kx = x->kind == 'W' ? "st" : "ld", *ky = y->kind == 'W' ? "st"
                                                                     : "ld";
  const wl_insn *nx, *ny;
  int wx = x->sem == WL_SEM_WEAK, wy = y->sem == WL_SEM_WEAK, k, okx, oky;
  if (!wx && !wy) {
    /* both strong: a scope leaves the other thread out */
    wl__buf_puts(b, "; both are strong, but ");
    for (k = 0; k < 2; k++) {
      const wl_race_access *a = &ri->a[k];
      const wl_thread *ta = &t->threads[a->thread];
      const wl_thread *tb = &t->threads[ri->a[1 - k].thread];
      if (!wl__scope_includes(a->scope, ta, tb))
        wl__buf_printf(b, "%s's .%s scope does not include %s, ", ta->name,
                       scope_name(a->scope), tb->name);
    }
    wl__buf_printf(b, "so the pair is not morally strong: give both .%s "
                      "scope (%s.relaxed.%s and %s.relaxed.%s, or atomics at "
                      ".%s)",
                   sc, kx, sc, ky, sc, sc);
    return;
  }
  if (wx && wy)
    wl__buf_puts(b, "; both accesses are weak");
  else
    wl__buf_printf(b, "; %s's access is weak", wx ? tx->name : ty->name);
  /* w: the write (the first when both write), o: the other access */
  w = x->kind == 'W' ? x : y;
  o = w == x ? y : x;
  nx = sync_ops(tx, ty, &okx);
  ny = sync_ops(ty, tx, &oky);
  if (nx != NULL || ny != NULL) {
    wl__buf_puts(b, " and the synchronisation's scope is too narrow (");
    for (k = 0; k < 2; k++) {
      const wl_insn *in = k ? ny : nx;
      const wl_thread *ta = k ? ty : tx, *tb = k ? tx : ty;
      if (in == NULL)
        continue;
      if (k && nx != NULL)
        wl__buf_puts(b, "; ");
      wl__buf_printf(b, "%s's ", ta->name);
      insn_words(b, in);
      wl__buf_printf(b, " at line %d does not include %s", in->line,
                     tb->name);
    }
    wl__buf_printf(b, "): use .%s (fence.sc.%s, st.release.%s / "
                      "ld.acquire.%s)",
                   sc, sc, sc, sc);
  } else if (okx && oky) {
    wl__buf_printf(b, ": %s and %s synchronise at a scope covering both, "
                      "but that orders the pair only when %s's acquire "
                      "reads the value %s's release wrote (through strong "
                      "flag accesses), which this execution does not do: "
                      "have %s's %s wait until it sees the flag (a branch "
                      "or a spin on it)",
                   tx->name, ty->name, t->threads[o->thread].name,
                   t->threads[w->thread].name, t->threads[o->thread].name,
                   o->kind == 'W' ? "write" : "read");
  } else {
    wl__buf_printf(b, " and nothing orders them: a release by %s after its "
                      "write (st.release.%s of a flag, or fence.sc.%s "
                      "before a strong flag store) that %s observes with "
                      "an acquire before its %s (ld.acquire.%s of the flag, "
                      "or a strong flag load then fence.sc.%s)",
                   t->threads[w->thread].name, sc, sc,
                   t->threads[o->thread].name,
                   o->kind == 'W' ? "write" : "read", sc, sc);
  }
  wl__buf_printf(b, "; or make both strong at .%s (%s.relaxed.%s and "
                    "%s.relaxed.%s, or atomics)",
                 sc, kx, sc, ky, sc);
}

static void race_text(const wl_result *r, wl_buf *b) {
  const wl_litmus *t = r->t;
  const wl_race_info *ri = &r->race;
  int k;
  wl__buf_printf(b, "Race %s: data race on '%s': ", t->name,
                 t->locnames[ri->loc]);
  for (k = 0; k < 2; k++) {
    const wl_race_access *a = &ri->a[k];
    wl__buf_printf(b, "%s%s:%d: thread %s ", k ? " and " : "", file_of(t),
                   a->line, t->threads[a->thread].name);
    access_words(b, a);
    wl__buf_printf(b, " (%s ", a->kind == 'W' ? "writes" : "reads");
    wl__buf_value(b, t->loctype[ri->loc], a->value);
    wl__buf_puts(b, ")");
  }
  wl__buf_puts(b, ": not morally strong and not ordered by causality order "
                  "(PTX data race)");
  race_fix(r, b);
  wl__buf_puts(b, "\n");
}

static void hang_text(const wl_result *r, wl_buf *b) {
  const wl_litmus *t = r->t;
  const wl_hang_info *h = &r->hang;
  int k, th, other = 0;
  wl__buf_printf(b, "Hang %s: %s:%d: thread %s ", t->name,
                 file_of(t), h->line, t->threads[h->thread].name);
  if (h->kind == WL_HANG_SPIN) {
    wl__buf_puts(b, "can spin forever in the loop of this line");
    for (k = 0; k < h->nreads; k++) {
      wl__buf_printf(b, "%s%s=", k ? ", " : ", reading ", t->locnames[h->loc[k]]);
      wl__buf_value(b, t->loctype[h->loc[k]], h->value[k]);
    }
    if (h->nreads > 0)
      wl__buf_puts(b, " (the last values written)");
  } else {
    wl__buf_printf(b, "can wait forever at barrier %lld (too few threads "
                      "arrive)",
                   (long long)h->barrier);
  }
  for (th = 0; th < h->nthreads; th++) {
    if (th == h->thread)
      continue;
    wl__buf_printf(b, "%s%s ", other++ ? ", " : "; ", t->threads[th].name);
    if (h->status[th] == 0)
      wl__buf_puts(b, "ends");
    else if (h->status[th] == 1)
      wl__buf_printf(b, "spins at line %d", h->at_line[th]);
    else
      wl__buf_printf(b, "waits at the barrier of line %d", h->at_line[th]);
  }
  wl__buf_puts(b, " (liveness violation)\n");
}

int wl_result_write_findings(const wl_result *r, wl_write_fn write, void *ud) {
  wl_buf b;
  int rc = 0;
  if (r == NULL || write == NULL)
    return WL_EINVAL;
  wl__buf_init(&b, r->ctx);
  if (r->race_checked && r->race_found)
    race_text(r, &b);
  if (r->hang_checked && r->hang_found)
    hang_text(r, &b);
  if (b.oom)
    rc = wl__err(r->ctx, WL_ENOMEM, "out of memory");
  else if (b.n > 0 && write(ud, b.p, b.n) != 0)
    rc = wl__err(r->ctx, WL_EIO, "the writer stopped the output");
  wl__buf_free(&b);
  return rc;
}

int wl_result_write_race_fix(const wl_result *r, wl_write_fn write,
                             void *ud) {
  wl_buf b;
  int rc = 0;
  if (r == NULL || write == NULL)
    return WL_EINVAL;
  if (!r->race_checked || !r->race_found)
    return 0;
  wl__buf_init(&b, r->ctx);
  race_fix(r, &b);
  if (b.oom)
    rc = wl__err(r->ctx, WL_ENOMEM, "out of memory");
  else if (b.n > 2 && write(ud, b.p + 2, b.n - 2) != 0) /* past "; " */
    rc = wl__err(r->ctx, WL_EIO, "the writer stopped the output");
  wl__buf_free(&b);
  return rc;
}

int wl_result_nfindings(const wl_result *r) {
  if (r == NULL)
    return 0;
  return (r->race_checked && r->race_found) + (r->hang_checked && r->hang_found);
}

void wl__findings_json(const wl_result *r, wl_buf *b) {
  const wl_litmus *t = r->t;
  int k;
  wl__buf_puts(b, ",\n  \"race\": ");
  if (!r->race_checked) {
    wl__buf_puts(b, "null");
  } else if (!r->race_found) {
    wl__buf_puts(b, "false");
  } else {
    const wl_race_info *ri = &r->race;
    wl__buf_puts(b, "{\"location\": ");
    wl__buf_json_str(b, t->locnames[ri->loc]);
    wl__buf_puts(b, ", \"accesses\": [");
    for (k = 0; k < 2; k++) {
      const wl_race_access *a = &ri->a[k];
      wl__buf_printf(b, "%s{\"thread\": %d, \"name\": ", k ? ", " : "",
                     a->thread);
      wl__buf_json_str(b, t->threads[a->thread].name);
      wl__buf_printf(b, ", \"event\": %d, \"kind\": \"%c\", \"sem\": \"%s\", "
                        "\"scope\": \"%s\", \"line\": %d, \"value\": ",
                     a->index, a->kind, sem_name(a->sem),
                     a->sem == WL_SEM_WEAK ? "" : scope_name(a->scope),
                     a->line);
      wl__buf_value(b, t->loctype[ri->loc], a->value);
      wl__buf_puts(b, "}");
    }
    wl__buf_puts(b, "], \"fix\": ");
    {
      wl_buf fx;
      wl__buf_init(&fx, r->ctx);
      race_fix(r, &fx);
      if (fx.oom)
        b->oom = 1;
      else {
        wl__buf_add(&fx, "", 1); /* a C string */
        wl__buf_json_str(b, fx.n > 2 ? fx.p + 2 : "");
      }
      wl__buf_free(&fx);
    }
    wl__buf_puts(b, "}");
  }
  wl__buf_puts(b, ",\n  \"hang\": ");
  if (!r->hang_checked) {
    wl__buf_puts(b, "null");
  } else if (!r->hang_found) {
    wl__buf_puts(b, "false");
  } else {
    const wl_hang_info *h = &r->hang;
    static const char *st[] = {"ends", "spins", "waits"};
    wl__buf_printf(b, "{\"kind\": \"%s\", \"thread\": %d, \"name\": ",
                   h->kind == WL_HANG_SPIN ? "spin" : "barrier", h->thread);
    wl__buf_json_str(b, t->threads[h->thread].name);
    wl__buf_printf(b, ", \"line\": %d", h->line);
    if (h->kind == WL_HANG_BARRIER)
      wl__buf_printf(b, ", \"barrier\": %lld", (long long)h->barrier);
    wl__buf_puts(b, ", \"reads\": [");
    for (k = 0; k < h->nreads; k++) {
      wl__buf_puts(b, k ? ", {\"location\": " : "{\"location\": ");
      wl__buf_json_str(b, t->locnames[h->loc[k]]);
      wl__buf_puts(b, ", \"value\": ");
      wl__buf_value(b, t->loctype[h->loc[k]], h->value[k]);
      wl__buf_puts(b, "}");
    }
    wl__buf_puts(b, "], \"threads\": [");
    for (k = 0; k < h->nthreads; k++) {
      wl__buf_puts(b, k ? ", {\"name\": " : "{\"name\": ");
      wl__buf_json_str(b, t->threads[k].name);
      wl__buf_printf(b, ", \"status\": \"%s\"", st[h->status[k] % 3]);
      if (h->status[k])
        wl__buf_printf(b, ", \"line\": %d", h->at_line[k]);
      wl__buf_puts(b, "}");
    }
    wl__buf_puts(b, "]}");
  }
}
