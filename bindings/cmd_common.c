/* cmd_common.c -- what the warplab command's commands share: writing to
 * standard output, the clock, reading a whole file, and the command
 * line (getopt_long everywhere: options, counts, seconds, operands). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/stat.h>

#include "cmd.h"
#include "lwarplab.h"
#include "ranks.h"

/* The reason of the first write to standard output that failed. */
static int out_errno;

int wll_write_stdout(void *ud, const char *s, size_t n) {
  (void)ud;
  if (fwrite(s, 1, n, stdout) == n)
    return 0;
  if (out_errno == 0)
    out_errno = errno != 0 ? errno : EIO;
  return -1;
}

/* Everything written to standard output must have reached it: a flush
 * that fails, or an error stdio recorded on the way (a flush that Lua's
 * print made and nobody checked, a write of the engine's), is reported
 * once with the system's reason. */
int wll_stdout_done(void) {
  static int reported;
  int e = 0;
  errno = 0;
  if (fflush(stdout) != 0)
    e = errno != 0 ? errno : EIO;
  else if (ferror(stdout)) {
    e = out_errno;
    /* lost before: ask the file again (a device like /dev/full says
     * why to an empty write; a file on a full disk may not) */
    if (e == 0 && write(fileno(stdout), "", 0) < 0)
      e = errno;
    if (e == 0)
      e = EIO;
  }
  if (e == 0)
    return 0;
  if (!reported)
    fprintf(stderr, "warplab: writing stdout: %s\n", strerror(e));
  reported = 1;
  return 1;
}

double wll_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define READ_MAX ((size_t)64 << 20) /* the largest file read */

/* Standard input, whole, through stdio (read once). */
static char *read_stdin(size_t *len, char *err, size_t errlen) {
  char *buf = NULL;
  size_t cap = 0, n = 0;
  errno = 0;
  for (;;) {
    size_t got;
    if (n == cap) {
      size_t ncap = cap ? cap * 2 : 4096;
      char *p;
      if (ncap > READ_MAX) {
        snprintf(err, errlen, "-: file too large (over 64 MiB)");
        free(buf);
        return NULL;
      }
      if ((p = realloc(buf, ncap)) == NULL) {
        snprintf(err, errlen, "-: out of memory");
        free(buf);
        return NULL;
      }
      buf = p;
      cap = ncap;
    }
    got = fread(buf + n, 1, cap - n, stdin);
    n += got;
    if (got == 0)
      break;
  }
  if (ferror(stdin)) {
    snprintf(err, errlen, "-: %s",
             errno != 0 ? strerror(errno) : "read error");
    free(buf);
    return NULL;
  }
  *len = n;
  return buf;
}

/* The whole file at path ("-": standard input, read once), in a buffer
 * of its size: texts are often kept (litmus --jobs keeps every file its
 * cost guess read until the file runs), and a litmus test is a few
 * hundred bytes.  Named files are read with open and read, the first
 * 4 KiB on the stack: no stdio stream and buffer to make and free, and
 * one system call fewer (litmus --jobs 2 on the 1,434 generated tests:
 * the cost guesses, which read every file, took 11-13 ms of CPU with
 * stdio, 6-8 ms so). */
char *wll_read_file(const char *path, size_t *len, char *err, size_t errlen) {
  char first[4096], *buf = NULL;
  size_t cap = sizeof first, n = 0;
  int fd, bad = 0;
  if (strcmp(path, "-") == 0)
    return read_stdin(len, err, errlen);
  if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    return NULL;
  }
  for (;;) {
    ssize_t got;
    if (n == cap) { /* to the heap, twice as large */
      size_t ncap = cap * 2;
      char *p;
      if (ncap > READ_MAX) {
        snprintf(err, errlen, "%s: file too large (over 64 MiB)", path);
        bad = 1;
        break;
      }
      if ((p = realloc(buf, ncap)) == NULL) {
        snprintf(err, errlen, "%s: out of memory", path);
        bad = 1;
        break;
      }
      if (buf == NULL)
        memcpy(p, first, n);
      buf = p;
      cap = ncap;
    }
    got = read(fd, (buf != NULL ? buf : first) + n, cap - n);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0) {
      snprintf(err, errlen, "%s: %s", path, strerror(errno));
      bad = 1;
      break;
    }
    if (got == 0)
      break;
    n += (size_t)got;
  }
  close(fd);
  if (bad) {
    free(buf);
    return NULL;
  }
  if (buf == NULL) { /* all of it in first */
    if ((buf = malloc(n > 0 ? n : 1)) == NULL) {
      snprintf(err, errlen, "%s: out of memory", path);
      return NULL;
    }
    memcpy(buf, first, n);
  } else if (n + 256 < cap) {
    char *p = realloc(buf, n > 0 ? n : 1);
    if (p != NULL)
      buf = p;
  }
  *len = n;
  return buf;
}

/* Rank 0 sends a byte (0: the file follows; 1: the reason it could not
 * be read follows), then the bytes; every rank answers from them. */
char *wll_read_file_ranks(const char *path, size_t *len, char *err,
                          size_t errlen) {
  char small[700], *msg = small, *buf = NULL;
  void *p;
  size_t n = 0, m = 0;
  if (wll_nranks() == 1)
    return wll_read_file(path, len, err, errlen);
  if (wll_rank() == 0) {
    char *f = wll_read_file(path, &n, err, errlen);
    if (f != NULL && (msg = malloc(n + 1)) == NULL) {
      snprintf(err, errlen, "%s: out of memory", path);
      msg = small;
    } else if (f != NULL) {
      msg[0] = 0;
      memcpy(msg + 1, f, n);
    }
    free(f);
    if (msg == small) {
      small[0] = 1;
      snprintf(small + 1, sizeof small - 1, "%s", err);
      m = strlen(small + 1) + 1;
    } else
      m = n + 1;
  }
  p = msg;
  wll_ranks_bcast(&p, &m);
  msg = p;
  if (m >= 1 && msg[0] == 0 && (buf = malloc(m > 1 ? m - 1 : 1)) != NULL) {
    memcpy(buf, msg + 1, m - 1);
    *len = m - 1;
  } else if (m >= 1 && msg[0] == 1)
    snprintf(err, errlen, "%.*s", (int)(m - 1), msg + 1);
  else
    snprintf(err, errlen, "%s: out of memory", path);
  if (msg != small)
    free(msg);
  return buf;
}

/* ------------------------------------------------------------------ */
/* command lines: getopt_long everywhere                               */
/* ------------------------------------------------------------------ */

/* Options may come anywhere among the operands ("warplab sample FILE -n
 * N"); "--" ends the options; "-" as a file is standard input.  The
 * optstring starts with "-" (operands come back in order as option 1,
 * whatever POSIXLY_CORRECT says) and ":" (a missing value is ':'). */

/* The usage error for getopt_long's answer c ('?' or ':'): exit 2.  A
 * long option is named as written (up to any '='), a short one by its
 * letter (optopt; it may sit in a cluster like -qx). */
int wll_opt_error(const char *cmd, int c, char **argv) {
  const char *arg = argv[optind - 1];
  char name[64];
  if (arg[0] == '-' && arg[1] == '-')
    snprintf(name, sizeof name, "%.*s", (int)strcspn(arg, "="), arg);
  else
    snprintf(name, sizeof name, "-%c", optopt);
  if (c == ':')
    fprintf(stderr, "warplab %s: %s needs a value (see warplab %s --help)\n",
            cmd, name, cmd);
  else
    fprintf(stderr,
            "warplab %s: unknown option '%s' (see warplab %s --help)\n", cmd,
            name, cmd);
  return 2;
}

/* A count: digits, or a number like 1e6 that is a whole number. */
int wll_parse_count(const char *v, uint64_t lo, uint64_t hi, uint64_t *out) {
  char *end;
  unsigned long long u;
  if (*v == '\0' || *v == '-' || *v == '+' || *v == ' ')
    return -1;
  errno = 0;
  u = strtoull(v, &end, 10);
  if (*end != '\0' || errno != 0) {
    double d = strtod(v, &end);
    if (*end != '\0' || !(d >= 0) || d > 9007199254740992.0)
      return -1;
    u = (unsigned long long)d;
    if ((double)u != d) /* not a whole number */
      return -1;
  }
  if (u < lo || u > hi)
    return -1;
  *out = u;
  return 0;
}

/* A number of seconds: positive, at most 1e9. */
int wll_parse_seconds(const char *v, double *out) {
  char *end;
  double d = strtod(v, &end);
  if (*v == '\0' || *end != '\0' || !(d > 0) || d > 1e9)
    return -1;
  *out = d;
  return 0;
}

int wll_bad_value(const char *cmd, const char *opt, const char *v,
                  const char *want) {
  fprintf(stderr, "warplab %s: %s takes %s, not '%s'\n", cmd, opt, want, v);
  return 2;
}

/* The operands, gathered in order: those getopt_long returned as option
 * 1 and those after "--".  files must have room for argc entries. */
int wll_add_rest(int argc, char **argv, const char **files, int n) {
  for (; optind < argc; optind++)
    files[n++] = argv[optind];
  return n;
}

/* The exit status after a signal: 128 + its number (130, 143). */
int wll_sig_status(int sig) { return 128 + sig; }

/* Loads the model named by --model (a bare name is also looked up among
 * the specs: wll_find_model).  0, or the exit status after printing the
 * reason: 1 for a model that does not parse, 2 for one that cannot be
 * read. */
int wll_load_model(wl_ctx *ctx, const char *name, wl_model **out) {
  char err[2048];
  int rc = wll_model_load(ctx, name, out, err, sizeof err);
  if (rc == 0)
    return 0;
  fprintf(stderr, "warplab: %s\n", err);
  return rc == WL_ESYNTAX ? 1 : 2;
}

/* ------------------------------------------------------------------ */
/* many files on the pool (bindings/lpool.h)                           */
/* ------------------------------------------------------------------ */

int wll_parse_jobs(const char *cmd, const char *v, int *jobs) {
  uint64_t u;
  if (wll_parse_count(v, 1, 1024, &u) != 0)
    return wll_bad_value(cmd, "--jobs", v, "a number from 1 to 1024");
  *jobs = (int)u;
  return 0;
}

int wll_mkdir_p(const char *dir) {
  char *p, *q;
  struct stat st;
  int rc = 0;
  if ((p = strdup(dir)) == NULL)
    return -1;
  /* each prefix ending before a '/' (past the leading ones), then dir */
  for (q = p; *q == '/'; q++)
    ;
  for (;; q++) {
    if (*q == '/' || *q == '\0') {
      char c = *q;
      *q = '\0';
      if (mkdir(p, 0777) != 0 && errno != EEXIST)
        rc = -1;
      else if (stat(p, &st) != 0 || !S_ISDIR(st.st_mode)) {
        errno = EEXIST;
        rc = -1;
      }
      *q = c;
      if (rc != 0 || c == '\0')
        break;
      while (q[1] == '/')
        q++;
    }
  }
  free(p);
  return rc;
}

uint64_t wll_file_cost(const char *path) {
  struct stat st;
  if (strcmp(path, "-") == 0 || stat(path, &st) != 0 || st.st_size < 0)
    return 0;
  return (uint64_t)st.st_size;
}

uint64_t wll_litmus_cost(wl_ctx *ctx, const char *path, const char *text,
                         size_t len, int unroll) {
  char err[64];
  char *src = NULL;
  wl_litmus *t = NULL;
  uint64_t c = 0;
  if (text == NULL) {
    if (strcmp(path, "-") == 0 ||
        (src = wll_read_file(path, &len, err, sizeof err)) == NULL)
      return 0;
    text = src;
  }
  if (!wl_litmus_text_may_loop(text, len)) {
    c = len; /* no loop: its size says enough (cost.c) */
  } else if (wl_litmus_parse(ctx, path, text, len, &t) == 0) {
    c = wl_litmus_cost(t, unroll);
    wl_litmus_free(t);
  } else {
    c = len; /* its error comes in its turn */
  }
  free(src);
  return c;
}
