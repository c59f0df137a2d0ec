/* lfile.c -- output files: written whole or not at all.
 *
 * A regular file (or a path that does not exist yet) is replaced by
 * writing a temporary beside it (PATH.XXXXXX, made with mkstemp), then
 * renaming it over PATH: a full disk, an interrupt or a crash never
 * leaves half a file, and what was there stays until the new text is
 * complete.  Anything else -- a device like /dev/null or /dev/full, a
 * pipe, a symbolic link -- is written in place, never replaced or
 * removed: warplab removes only the temporaries it made.  Every write,
 * flush and close is checked; the reason of a failure is the system's
 * ("writing out.html: No space left on device").
 *
 * wll_save_file is shared by the command (--graph) and the module
 * (wl.report's output, through wl._write_file). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <fcntl.h>
#include <sys/stat.h>

#include "lwarplab.h"

/* Writes n bytes to fd; 0, or -1 with errno set. */
static int write_all(int fd, const char *s, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, s, n);
    if (w < 0) {
      if (errno == EINTR)
        continue;
      return -1;
    }
    if (w == 0) { /* no progress and no reason: call it EIO */
      errno = EIO;
      return -1;
    }
    s += w;
    n -= (size_t)w;
  }
  return 0;
}

/* In place: a device, a pipe or a symbolic link. */
static int save_in_place(const char *path, const char *data, size_t n) {
  int fd = open(path, O_WRONLY | O_TRUNC), e;
  if (fd < 0)
    return -1;
  if (write_all(fd, data, n) != 0) {
    e = errno;
    close(fd);
    errno = e;
    return -1;
  }
  return close(fd);
}

int wll_save_file(const char *path, const char *data, size_t n, char *err,
                  size_t errlen) {
  struct stat st;
  char *tmp;
  size_t len;
  int fd, e, have = lstat(path, &st) == 0;
  mode_t mode;
  if (path[0] == '\0') {
    snprintf(err, errlen, "writing '': an empty file name");
    return -1;
  }
  if (have && S_ISDIR(st.st_mode)) {
    snprintf(err, errlen, "writing %s: %s", path, strerror(EISDIR));
    return -1;
  }
  if (have && !S_ISREG(st.st_mode)) {
    if (save_in_place(path, data, n) != 0) {
      snprintf(err, errlen, "writing %s: %s", path, strerror(errno));
      return -1;
    }
    return 0;
  }
  len = strlen(path);
  if ((tmp = malloc(len + 8)) == NULL) {
    snprintf(err, errlen, "writing %s: out of memory", path);
    return -1;
  }
  memcpy(tmp, path, len);
  memcpy(tmp + len, ".XXXXXX", 8);
  if ((fd = mkstemp(tmp)) < 0) {
    snprintf(err, errlen, "writing %s: %s", path, strerror(errno));
    free(tmp);
    return -1;
  }
  /* the mode a new file would get (0666 less the umask), or the mode of
   * the file it replaces */
  if (have) {
    mode = st.st_mode & 07777;
  } else {
    mode = umask(0);
    umask(mode);
    mode = 0666 & ~mode;
  }
  if (fchmod(fd, mode) != 0 || write_all(fd, data, n) != 0) {
    e = errno;
    close(fd);
    goto fail;
  }
  if (close(fd) != 0 || rename(tmp, path) != 0) {
    e = errno;
    goto fail;
  }
  free(tmp);
  return 0;
fail:
  unlink(tmp); /* ours: made by mkstemp above */
  free(tmp);
  snprintf(err, errlen, "writing %s: %s", path, strerror(e));
  return -1;
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
