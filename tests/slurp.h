/* slurp.h -- reads a whole file into a malloc'd, NUL-terminated buffer
 * (the conformance runner, the soundness check and the benchmark share
 * it).  NULL when the file cannot be read or memory runs out. */
#ifndef WL_TEST_SLURP_H
#define WL_TEST_SLURP_H

#include <stdio.h>
#include <stdlib.h>

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  size_t cap = 0, n = 0, got;
  if (f == NULL)
    return NULL;
  do {
    if (n + 1 >= cap) {
      char *p = realloc(buf, cap = cap ? cap * 2 : 4096);
      if (p == NULL) {
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = p;
    }
    got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
  } while (got > 0);
  if (ferror(f)) {
    free(buf);
    fclose(f);
    return NULL;
  }
  fclose(f);
  buf[n] = '\0';
  *len = n;
  return buf;
}

#endif
