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
                  "(PTX data race)\n");
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
    wl__buf_puts(b, "]}");
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
