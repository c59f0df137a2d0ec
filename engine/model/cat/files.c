/* files.c -- the files of a model: reading one, and the texts of the
 * files it includes.
 *
 * A model file is input like any other, so reading one is bounded: it
 * must be a regular file (a directory is named as such; a FIFO, device
 * or socket is refused before a byte is read, since it could block or
 * never end: /dev/zero) of at most WL_CAT_MAX_TEXT bytes.  It is opened
 * with O_NONBLOCK so that a FIFO put where a file was expected cannot
 * block the open itself.
 *
 * Includes (parse.c) are read in place, as herd reads them, so a file
 * included twice is parsed twice.  Its text is read from disk once and
 * kept here for the whole read, keyed by the path as resolved; and the
 * whole read is given a budget, repeats included: WL_CAT_MAX_TEXT bytes
 * of text and WL_CAT_MAX_INCLUDES include statements.  A few hundred
 * bytes of files that each include the next ten times would otherwise
 * mean 10^8 parses. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catint.h"

int wl__cat_slurp(const char *path, wl_buf *out, char *why, size_t n) {
  char chunk[8192];
  struct stat st;
  int fd;
  why[0] = '\0';
  do
    fd = open(path, O_RDONLY | O_NONBLOCK);
  while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    snprintf(why, n, "%s", strerror(errno));
    return WL_EIO;
  }
  if (fstat(fd, &st) != 0) {
    snprintf(why, n, "%s", strerror(errno));
    close(fd);
    return WL_EIO;
  }
  if (S_ISDIR(st.st_mode)) {
    snprintf(why, n, "is a directory, not a .cat file");
    close(fd);
    return WL_EIO;
  }
  if (!S_ISREG(st.st_mode)) {
    snprintf(why, n, "not a regular file (a %s)",
             S_ISFIFO(st.st_mode)   ? "FIFO"
             : S_ISCHR(st.st_mode)  ? "character device"
             : S_ISBLK(st.st_mode)  ? "block device"
             : S_ISSOCK(st.st_mode) ? "socket"
                                    : "special file");
    close(fd);
    return WL_EIO;
  }
  /* The size is checked before reading and again while reading: a file
   * may grow, and some (under /proc) report 0. */
  if (st.st_size > (off_t)WL_CAT_MAX_TEXT) {
    snprintf(why, n, "too large (over %d MiB)", WL_CAT_MAX_TEXT >> 20);
    close(fd);
    return WL_EIO;
  }
  for (;;) {
    ssize_t got = read(fd, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0) {
      snprintf(why, n, "%s", strerror(errno));
      close(fd);
      return WL_EIO;
    }
    if (got == 0)
      break;
    if (out->n + (size_t)got > WL_CAT_MAX_TEXT) {
      snprintf(why, n, "too large (over %d MiB)", WL_CAT_MAX_TEXT >> 20);
      close(fd);
      return WL_EIO;
    }
    wl__buf_add(out, chunk, (size_t)got);
    if (out->oom) {
      close(fd);
      return WL_ENOMEM;
    }
  }
  close(fd);
  return 0;
}

/* ---------------------------------------------------------------- */
/* The texts of included files                                       */

typedef struct cat_file {
  char *path;
  wl_buf text;
} cat_file;

int wl__cat_include_text(cat_prog *p, const char *path, const char **text,
                         size_t *len, char *why, size_t n) {
  cat_file *f;
  size_t i;
  int r;
  if (p->files.isz == 0)
    wl__vec_init(&p->files, sizeof(cat_file));
  for (i = 0; i < p->files.n; i++) {
    f = &WL_VEC_AT(&p->files, cat_file, i);
    if (strcmp(f->path, path) == 0)
      goto found;
  }
  f = wl__vec_push(p->ctx, &p->files);
  if (f == NULL)
    return WL_ENOMEM;
  wl__buf_init(&f->text, p->ctx);
  f->path = wl__strndup(p->ctx, path, strlen(path));
  if (f->path == NULL) {
    p->files.n--;
    return WL_ENOMEM;
  }
  r = wl__cat_slurp(path, &f->text, why, n);
  if (r != 0) {
    wl__buf_free(&f->text);
    wl__strfree(p->ctx, f->path);
    p->files.n--;
    return r;
  }
found:
  *text = f->text.p != NULL ? f->text.p : "";
  *len = f->text.n;
  return 0;
}

void wl__cat_files_free(cat_prog *p) {
  size_t i;
  for (i = 0; i < p->files.n; i++) {
    cat_file *f = &WL_VEC_AT(&p->files, cat_file, i);
    wl__buf_free(&f->text);
    wl__strfree(p->ctx, f->path);
  }
  if (p->files.isz != 0)
    wl__vec_free(p->ctx, &p->files);
}
