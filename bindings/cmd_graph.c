/* cmd_graph.c -- the witness graphs of `warplab litmus --graph DIR`:
 * DOT text held in memory, files written whole (lfile.c), names made
 * unique within a run, and Graphviz's dot run on them for the SVG.  On
 * the calling thread only (it forks dot and keeps the run's names):
 * with --jobs the units make the DOT text and the main thread writes
 * it here, in file order. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>
#include <sys/wait.h>

#include "cmd.h"
#include "lwarplab.h"

int wll_membuf_write(void *ud, const char *s, size_t n) {
  wll_membuf *m = ud;
  if (m->n + n + 1 > m->cap) {
    size_t cap = (m->cap ? m->cap * 2 : 4096) + n;
    char *p = realloc(m->p, cap);
    if (p == NULL) {
      m->oom = 1;
      return -1;
    }
    m->p = p;
    m->cap = cap;
  }
  memcpy(m->p + m->n, s, n);
  m->n += n;
  m->p[m->n] = '\0';
  return 0;
}

/* dot -Tsvg in -o out; 0 when it worked or dot is not installed (said
 * once: *missing is set, and later calls do nothing), -1 after a
 * message when dot failed (its own message first). */
int wll_render_svg(const char *in, int *missing) {
  char out[1200], tmp[1300];
  size_t n = strlen(in);
  struct stat ls;
  pid_t pid;
  int st, fd;
  if (*missing)
    return 0;
  if (n < 4 || n + 1 > sizeof out)
    return -1;
  memcpy(out, in, n - 4);
  memcpy(out + n - 4, ".svg", 5);
  /* dot writes a temporary renamed over the .svg (lfile.c's rule: a
   * device or a link there is written in place) */
  snprintf(tmp, sizeof tmp, "%s.XXXXXX", out);
  if (lstat(out, &ls) == 0 && !S_ISREG(ls.st_mode)) {
    snprintf(tmp, sizeof tmp, "%s", out);
  } else if ((fd = mkstemp(tmp)) < 0) {
    fprintf(stderr, "warplab: writing %s: %s\n", out, strerror(errno));
    return -1;
  } else {
    mode_t um = umask(0);
    umask(um);
    fchmod(fd, 0666 & ~um); /* a new file's mode, not mkstemp's 0600 */
    close(fd);
  }
  fflush(NULL);
  pid = fork();
  if (pid < 0) {
    fprintf(stderr, "warplab: cannot run dot: %s\n", strerror(errno));
    if (strcmp(tmp, out) != 0)
      unlink(tmp); /* ours: made by mkstemp above */
    return -1;
  }
  if (pid == 0) {
    execlp("dot", "dot", "-Tsvg", in, "-o", tmp, (char *)NULL);
    _exit(127);
  }
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) {
      st = -1;
      break;
    }
  if (strcmp(tmp, out) != 0) { /* the temporary is ours (mkstemp) */
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
      unlink(tmp);
    } else if (rename(tmp, out) != 0) {
      fprintf(stderr, "warplab: writing %s: %s\n", out, strerror(errno));
      unlink(tmp);
      return -1;
    }
  }
  if (st == -1)
    return -1;
  if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
    *missing = 1;
    fprintf(stderr, "warplab: Graphviz's dot is not installed: only the "
                    ".dot files are written (Debian: apt-get install "
                    "graphviz)\n");
    return 0;
  }
  if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
    return 0;
  fprintf(stderr, "warplab: dot -Tsvg %s -o %s failed\n", in, out);
  return -1;
}

/* The graphs' file names: DIR/STEM.N.dot (N: the state), STEM the
 * test's name made a file name (letters, digits and ".+-_" kept, other
 * bytes as '_').  Two tests of one run whose wll_stems are the same (the
 * same name, or names that differ only in what became '_') would
 * overwrite each other's graphs: the second gets STEM-2, the third
 * STEM-3, and a note says so. */
static int stem_used(const wll_stems *u, const char *s) {
  size_t k;
  for (k = 0; k < u->n; k++)
    if (strcmp(u->p[k], s) == 0)
      return 1;
  return 0;
}

/* The stem of the test name in out (n bytes), made unique among u and
 * added to it; 0, or -1 out of memory. */
int wll_graph_stem(wll_stems *u, const char *file, const char *name,
                      char *out, size_t n) {
  size_t k, len = 0;
  int dup;
  for (k = 0; name[k] && len + 16 < n; k++) {
    char c = name[k];
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
             (c >= '0' && c <= '9') || c == '.' || c == '+' || c == '-' ||
             c == '_';
    out[len++] = ok ? c : '_';
  }
  if (len == 0 || (len <= 2 && strspn(out, ".") == len))
    out[len++] = '_'; /* never "", "." or ".." */
  out[len] = '\0';
  for (dup = 1; stem_used(u, out); dup++)
    snprintf(out + len, n - len, "-%d", dup + 1);
  if (dup > 1)
    fprintf(stderr,
            "warplab: %s: another test of this run makes graphs named "
            "%.*s: this one's are %s.*.dot\n",
            file, (int)len, out, out);
  if (u->n == u->cap) {
    size_t cap = u->cap ? 2 * u->cap : 16;
    char **p = realloc(u->p, cap * sizeof *p);
    if (p == NULL) {
      fprintf(stderr, "warplab: out of memory\n");
      return -1;
    }
    u->p = p;
    u->cap = cap;
  }
  if ((u->p[u->n] = malloc(strlen(out) + 1)) == NULL) {
    fprintf(stderr, "warplab: out of memory\n");
    return -1;
  }
  strcpy(u->p[u->n++], out);
  return 0;
}

void wll_stems_free(wll_stems *u) {
  size_t k;
  for (k = 0; k < u->n; k++)
    free(u->p[k]);
  free(u->p);
}

/* DIR/STEM.what.dot in buf; 0, or -1 after a message when it does not
 * fit. */
int wll_graph_path(char *buf, size_t n, const char *dir,
                      const char *stem, const char *what) {
  int k = snprintf(buf, n, "%s/%s.%s.dot", dir, stem, what);
  if (k < 0 || (size_t)k >= n) {
    fprintf(stderr, "warplab: --graph %s: the path of %s's graphs is too "
                    "long\n", dir, stem);
    return -1;
  }
  return 0;
}

/* path's text, written whole or not at all (lfile.c). */
int wll_save_text(const char *path, const wll_membuf *m) {
  char err[1300];
  if (wll_save_file(path, m->p ? m->p : "", m->n, err, sizeof err) != 0) {
    fprintf(stderr, "warplab: %s\n", err);
    return -1;
  }
  return 0;
}

