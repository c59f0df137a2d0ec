/* lfile.c -- output files: written whole or not at all.
 *
 * The caller makes the whole text first, so that a refused input opens
 * nothing; then, by what PATH is:
 *   - missing, or a regular file (also through symbolic links): the
 *     text goes to a new temporary file in the directory of the file
 *     (the link's target), which is flushed to disk and renamed over it;
 *     an existing file keeps its permissions, a symbolic link stays a
 *     link, and keeps its owner where the writer may set it.  (A file
 *     with other hard links gets a new inode: the other names keep the
 *     old text.)  A full disk, an interrupt or a crash never leaves half
 *     a file: on any failure the temporary is removed and PATH is left
 *     as it was.  warplab removes only the temporaries it made.
 *   - standard output or standard error (the same file, e.g.
 *     /dev/stdout): written there;
 *   - another non-regular file (a device such as /dev/null or /dev/full,
 *     a FIFO): opened for writing as it is, never created, replaced or
 *     removed;
 *   - a directory, '', or a symbolic link to nothing: refused.
 * Every write, the flush and the close are checked; the reason is the
 * system's ("writing out.html: No space left on device").
 *
 * wll_save_file is shared by the commands (--graph, gen -o, cuda -o) and
 * the module (wl.report's output, through wl._write_file). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lwarplab.h"

static int fail(char *err, size_t errlen, const char *path, int e) {
  snprintf(err, errlen, "writing %s: %s", path, strerror(e));
  return -1;
}

/* Writes all of s to fd, retrying short writes and EINTR. */
static int write_all(int fd, const char *s, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, s, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      if (w == 0)
        errno = EIO;
      return -1;
    }
    s += w;
    n -= (size_t)w;
  }
  return 0;
}

/* Into an existing non-regular file (device, FIFO): as it is. */
static int write_stream(const char *path, const char *s, size_t n, char *err,
                        size_t errlen) {
  int fd = open(path, O_WRONLY | O_NOCTTY), e;
  if (fd < 0)
    return fail(err, errlen, path, errno);
  if (write_all(fd, s, n) != 0) {
    e = errno;
    close(fd);
    return fail(err, errlen, path, e);
  }
  if (close(fd) != 0)
    return fail(err, errlen, path, errno);
  return 0;
}

/* A new file in target's directory, renamed over target. */
static int write_replace(const char *path, const char *target,
                         const struct stat *old, const char *s, size_t n,
                         char *err, size_t errlen) {
  const char *slash = strrchr(target, '/');
  size_t dl = slash == NULL ? 0 : (size_t)(slash - target) + 1;
  size_t bl = strlen(target) - dl;
  char *tmp = malloc(dl + bl + 16);
  mode_t mode;
  int fd, e;
  if (tmp == NULL)
    return fail(err, errlen, path, ENOMEM);
  memcpy(tmp, target, dl);
  tmp[dl] = '.';
  memcpy(tmp + dl + 1, target + dl, bl);
  memcpy(tmp + dl + 1 + bl, ".XXXXXX", 8);
  if ((fd = mkstemp(tmp)) < 0) {
    e = errno;
    free(tmp);
    return fail(err, errlen, path, e);
  }
  if (old == NULL) {
    mode_t um = umask(0);
    umask(um);
    mode = 0666 & ~um;
  } else {
    mode = old->st_mode;
    /* the file's owner too, where allowed (root); else the writer's */
    if (fchown(fd, old->st_uid, old->st_gid) != 0)
      errno = 0;
  }
  if (fchmod(fd, mode & 07777) != 0 || write_all(fd, s, n) != 0 ||
      fsync(fd) != 0) {
    e = errno;
    close(fd);
    unlink(tmp); /* ours: mkstemp made it */
    free(tmp);
    return fail(err, errlen, path, e);
  }
  if (close(fd) != 0 || rename(tmp, target) != 0) {
    e = errno;
    unlink(tmp);
    free(tmp);
    return fail(err, errlen, path, e);
  }
  free(tmp);
  return 0;
}

/* The file path names, through symbolic links (malloc'd), or NULL with
 * errno set.  Only the last component is followed: the rename then
 * happens in the directory that holds the file. */
static char *follow_links(const char *path) {
  char *cur = malloc(strlen(path) + 1), *next;
  char buf[PATH_MAX];
  struct stat st;
  int hops;
  if (cur == NULL)
    return NULL;
  strcpy(cur, path);
  for (hops = 0; hops < 40; hops++) {
    ssize_t k;
    const char *slash;
    size_t dl;
    if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
      return cur;
    if ((k = readlink(cur, buf, sizeof buf - 1)) < 0) {
      free(cur);
      return NULL;
    }
    buf[k] = '\0';
    slash = strrchr(cur, '/');
    dl = buf[0] == '/' || slash == NULL ? 0 : (size_t)(slash - cur) + 1;
    if ((next = malloc(dl + (size_t)k + 1)) == NULL) {
      free(cur);
      return NULL;
    }
    memcpy(next, cur, dl);
    memcpy(next + dl, buf, (size_t)k + 1);
    free(cur);
    cur = next;
  }
  free(cur);
  errno = ELOOP;
  return NULL;
}

static int same_file(const struct stat *a, int fd) {
  struct stat b;
  return fstat(fd, &b) == 0 && a->st_dev == b.st_dev && a->st_ino == b.st_ino;
}

int wll_save_file(const char *path, const char *s, size_t n, char *err,
                  size_t errlen) {
  struct stat st;
  char *real;
  int rc;
  if (path[0] == '\0') {
    snprintf(err, errlen, "writing '': an empty file name");
    return -1;
  }
  if (stat(path, &st) != 0) {
    if (errno != ENOENT)
      return fail(err, errlen, path, errno);
    if (lstat(path, &st) == 0) { /* a link to nothing: write its target? */
      snprintf(err, errlen, "writing %s: a symbolic link to a missing file",
               path);
      return -1;
    }
    return write_replace(path, path, NULL, s, n, err, errlen);
  }
  if (S_ISDIR(st.st_mode)) {
    snprintf(err, errlen, "writing %s: is a directory", path);
    return -1;
  }
  if (same_file(&st, STDOUT_FILENO) || same_file(&st, STDERR_FILENO)) {
    FILE *f = same_file(&st, STDOUT_FILENO) ? stdout : stderr;
    if (fwrite(s, 1, n, f) != n || fflush(f) != 0)
      return fail(err, errlen, path, errno);
    return 0;
  }
  if (!S_ISREG(st.st_mode))
    return write_stream(path, s, n, err, errlen);
  /* a regular file, maybe through links: replace the file, keep links */
  if ((real = follow_links(path)) == NULL)
    return fail(err, errlen, path, errno);
  rc = write_replace(path, real, &st, s, n, err, errlen);
  free(real);
  return rc;
}

/* wl._write_file(path, text) -> true, or nil and "writing PATH: why". */
static int l_write_file(lua_State *L) {
  size_t n;
  const char *path = luaL_checkstring(L, 1);
  const char *s = luaL_checklstring(L, 2, &n);
  char err[1200];
  if (wll_save_file(path, s, n, err, sizeof err) != 0) {
    luaL_pushfail(L);
    lua_pushstring(L, err);
    return 2;
  }
  lua_pushboolean(L, 1);
  return 1;
}

void wll_file_open(lua_State *L) {
  lua_pushcfunction(L, l_write_file);
  lua_setfield(L, -2, "_write_file");
}
