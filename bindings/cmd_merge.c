/* cmd_merge.c -- warplab merge: the outputs of `warplab litmus` run on
 * shards of a file list (a Slurm job array, GNU parallel, xargs -P: see
 * warplab campaign), given in the shards' order, merged into the output
 * one process gives on the whole list.  Every shard must be a whole
 * output of one format: JSON (litmus --json: one array, checked as JSON
 * here), or text (the default or --herd: blocks starting "Test ").
 * JSON arrays are joined as the writer joins its elements ("[" e1
 * "\n,\n" e2 ... "\n]\n"); text is concatenated.  A shard that was cut
 * short (a Partial result) is merged, and said on stderr (exit 1).
 * Every shard is checked before anything is written; then each is read
 * again and written, so that one shard is held at a time. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "lwarplab.h"

/* ---------------- a JSON checker (RFC 8259's grammar) ---------------- */

typedef struct jp {
  const char *s;
  size_t n, at;
  int depth;
} jp;

#define JSON_MAX_DEPTH 512

static void ws(jp *p) {
  while (p->at < p->n && strchr(" \t\r\n", p->s[p->at]) != NULL &&
         p->s[p->at] != '\0')
    p->at++;
}

static int lit(jp *p, const char *w) {
  size_t k = strlen(w);
  if (p->n - p->at < k || memcmp(p->s + p->at, w, k) != 0)
    return -1;
  p->at += k;
  return 0;
}

static int jstring(jp *p) {
  if (p->at >= p->n || p->s[p->at] != '"')
    return -1;
  for (p->at++; p->at < p->n; p->at++) {
    unsigned char c = (unsigned char)p->s[p->at];
    if (c == '"') {
      p->at++;
      return 0;
    }
    if (c < 0x20)
      return -1;
    if (c == '\\') {
      const char *esc = "\"\\/bfnrtu";
      if (++p->at >= p->n || strchr(esc, p->s[p->at]) == NULL ||
          p->s[p->at] == '\0')
        return -1;
      if (p->s[p->at] == 'u') {
        int k;
        for (k = 0; k < 4; k++)
          if (++p->at >= p->n || strchr("0123456789abcdefABCDEF",
                                        p->s[p->at]) == NULL ||
              p->s[p->at] == '\0')
            return -1;
      }
    }
  }
  return -1;
}

static int digits(jp *p) {
  size_t a = p->at;
  while (p->at < p->n && p->s[p->at] >= '0' && p->s[p->at] <= '9')
    p->at++;
  return p->at > a ? 0 : -1;
}

static int jnumber(jp *p) {
  if (p->at < p->n && p->s[p->at] == '-')
    p->at++;
  if (p->at < p->n && p->s[p->at] == '0')
    p->at++;
  else if (digits(p) != 0)
    return -1;
  if (p->at < p->n && p->s[p->at] == '.') {
    p->at++;
    if (digits(p) != 0)
      return -1;
  }
  if (p->at < p->n && (p->s[p->at] == 'e' || p->s[p->at] == 'E')) {
    p->at++;
    if (p->at < p->n && (p->s[p->at] == '+' || p->s[p->at] == '-'))
      p->at++;
    if (digits(p) != 0)
      return -1;
  }
  return 0;
}

static int jvalue(jp *p);

/* [ v, ... ] or { "k": v, ... } */
static int jcompound(jp *p, char close) {
  int first = 1;
  if (++p->depth > JSON_MAX_DEPTH)
    return -1;
  p->at++; /* the opening bracket */
  for (;;) {
    ws(p);
    if (p->at < p->n && p->s[p->at] == close) {
      p->at++;
      p->depth--;
      return 0;
    }
    if (!first) {
      if (p->at >= p->n || p->s[p->at] != ',')
        return -1;
      p->at++;
      ws(p);
    } else if (p->at < p->n && p->s[p->at] == ',')
      return -1;
    if (close == '}') {
      if (jstring(p) != 0)
        return -1;
      ws(p);
      if (p->at >= p->n || p->s[p->at] != ':')
        return -1;
      p->at++;
    }
    if (jvalue(p) != 0)
      return -1;
    first = 0;
  }
}

static int jvalue(jp *p) {
  ws(p);
  if (p->at >= p->n)
    return -1;
  switch (p->s[p->at]) {
  case '{':
    return jcompound(p, '}');
  case '[':
    return jcompound(p, ']');
  case '"':
    return jstring(p);
  case 't':
    return lit(p, "true");
  case 'f':
    return lit(p, "false");
  case 'n':
    return lit(p, "null");
  default:
    return jnumber(p);
  }
}

/* Whether s is one JSON value and nothing more (white space aside). */
static int json_ok(const char *s, size_t n) {
  jp p = {s, n, 0, 0};
  if (jvalue(&p) != 0)
    return 0;
  ws(&p);
  return p.at == n;
}

/* ---------------- shards ---------------- */

enum { FMT_NONE, FMT_TEXT, FMT_JSON };

typedef struct shard {
  const char *path;
  char *s;
  size_t n;
} shard;

/* The format of a shard's text; FMT_NONE when it is no litmus output. */
static int shard_format(const shard *h, char *why, size_t whylen) {
  if (h->n == 0)
    return FMT_TEXT; /* a shard whose every file failed */
  if (h->s[0] == '[') {
    if (!json_ok(h->s, h->n)) {
      snprintf(why, whylen, "not valid JSON");
      return FMT_NONE;
    }
    /* the writer's layout: "[]\n", or "[{" ... "}\n]\n" */
    if (!((h->n == 3 && memcmp(h->s, "[]\n", 3) == 0) ||
          (h->n >= 6 && memcmp(h->s, "[{", 2) == 0 &&
           memcmp(h->s + h->n - 4, "}\n]\n", 4) == 0))) {
      snprintf(why, whylen, "not laid out as litmus --json lays it out");
      return FMT_NONE;
    }
    return FMT_JSON;
  }
  if (h->n >= 5 && memcmp(h->s, "Test ", 5) == 0 && h->s[h->n - 1] == '\n')
    return FMT_TEXT;
  snprintf(why, whylen, "neither litmus's text (\"Test ...\" blocks) nor its "
                        "JSON (an array)");
  return FMT_NONE;
}

/* Whether a shard holds a result cut short. */
static int shard_partial(const shard *h, int fmt) {
  const char *key = fmt == FMT_JSON ? "\"partial\": true" : "\nPartial ";
  size_t k = strlen(key), i;
  if (fmt == FMT_TEXT && h->n >= 8 && memcmp(h->s, "Partial ", 8) == 0)
    return 1;
  for (i = 0; i + k <= h->n; i++)
    if (memcmp(h->s + i, key, k) == 0)
      return 1;
  return 0;
}

static int put_out(FILE *f, const char *s, size_t n) {
  return fwrite(s, 1, n, f) == n ? 0 : -1;
}

int wll_cmd_merge(int argc, char **argv) {
  static const struct option longopts[] = {
      {"output", required_argument, NULL, 'o'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  const char **files, *out = NULL;
  shard *sh = NULL;
  int c, nf = 0, i, fmt = FMT_NONE, rc = 0, partial = 0, first = 1;
  char err[4400], why[200], tmp[4200];
  FILE *f = stdout;
  if ((files = malloc((size_t)argc * sizeof *files)) == NULL) {
    fprintf(stderr, "warplab: out of memory\n");
    return 1;
  }
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, "-:o:h", longopts, NULL)) != -1) {
    switch (c) {
    case 1:
      files[nf++] = optarg;
      break;
    case 'o':
      out = optarg;
      break;
    case 'h':
      free(files);
      wll_print_help(stdout, "merge");
      return wll_stdout_done();
    default:
      free(files);
      return wll_opt_error("merge", c, argv);
    }
  }
  nf = wll_add_rest(argc, argv, files, nf);
  if (nf == 0) {
    free(files);
    fprintf(stderr, "warplab merge: no shard output given (see warplab "
                    "merge --help)\n");
    return 2;
  }
  if ((sh = calloc((size_t)nf, sizeof *sh)) == NULL) {
    free(files);
    fprintf(stderr, "warplab: out of memory\n");
    return 1;
  }
  /* every shard read and checked before anything is written, one at a
   * time (a campaign's JSON runs to gigabytes: one shard is held at
   * once, read again to be written) */
  for (i = 0; i < nf && rc == 0; i++) {
    int k;
    sh[i].path = files[i];
    sh[i].s = wll_read_file(files[i], &sh[i].n, err, sizeof err);
    if (sh[i].s == NULL) {
      fprintf(stderr, "warplab merge: %s\n", err);
      rc = 1;
      break;
    }
    k = shard_format(&sh[i], why, sizeof why);
    if (k == FMT_NONE) {
      fprintf(stderr, "warplab merge: %s: %s\n", files[i], why);
      rc = 1;
    } else if (fmt != FMT_NONE && k != fmt) {
      /* (litmus --json always writes an array, "[]" at least) */
      fprintf(stderr, "warplab merge: %s: %s, where %s is %s\n", files[i],
              k == FMT_JSON ? "JSON" : sh[i].n == 0 ? "empty" : "text",
              sh[0].path, fmt == FMT_JSON ? "JSON" : "text");
      rc = 1;
    }
    fmt = k;
    if (rc == 0 && shard_partial(&sh[i], k)) {
      fprintf(stderr, "warplab merge: %s: a result in it was cut short "
                      "(Partial): the merged output is partial\n",
              files[i]);
      partial = 1;
    }
    free(sh[i].s);
    sh[i].s = NULL;
  }
  /* -o: a temporary beside it, renamed over it once whole */
  if (rc == 0 && out != NULL) {
    snprintf(tmp, sizeof tmp, "%s.merge-tmp", out);
    if ((f = fopen(tmp, "wb")) == NULL) {
      fprintf(stderr, "warplab merge: writing %s: %s\n", tmp,
              strerror(errno));
      rc = 1;
    }
  }
  if (rc == 0) {
    int w = 0;
    if (fmt == FMT_JSON)
      w |= put_out(f, "[", 1);
    for (i = 0; i < nf && rc == 0 && w == 0; i++) {
      size_t n0 = sh[i].n;
      sh[i].s = wll_read_file(files[i], &sh[i].n, err, sizeof err);
      if (sh[i].s == NULL || sh[i].n != n0 ||
          shard_format(&sh[i], why, sizeof why) != fmt) {
        fprintf(stderr, "warplab merge: %s: %s\n", files[i],
                sh[i].s == NULL ? err : "changed while it was merged");
        rc = 1;
      } else if (fmt == FMT_JSON && sh[i].n > 3) { /* not [] */
        if (!first)
          w |= put_out(f, "\n,\n", 3);
        first = 0;
        /* the elements: between "[" and "\n]\n" */
        w |= put_out(f, sh[i].s + 1, sh[i].n - 4);
      } else if (fmt != FMT_JSON)
        w |= put_out(f, sh[i].s, sh[i].n);
      free(sh[i].s);
      sh[i].s = NULL;
    }
    if (rc == 0 && fmt == FMT_JSON)
      w |= put_out(f, first ? "]\n" : "\n]\n", first ? 2 : 3);
    if (f != stdout) {
      if (fclose(f) != 0)
        w = -1;
      if (rc == 0 && w == 0 && rename(tmp, out) != 0)
        w = -1;
      if (w != 0)
        fprintf(stderr, "warplab merge: writing %s: %s\n", out,
                strerror(errno));
      if (w != 0 || rc != 0) {
        remove(tmp);
        rc = 1;
      }
    } else if (wll_stdout_done() != 0 || w != 0)
      rc = 1;
  }
  for (i = 0; i < nf; i++)
    free(sh[i].s);
  free(sh);
  free(files);
  return rc != 0 ? rc : partial ? 1 : 0;
}
