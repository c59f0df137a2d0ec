/* ranks_one.c -- one process, one rank (ranks.h): the warplab command
 * without MPI.  A broadcast leaves rank 0's bytes where they are, a
 * gather copies this process's bytes, a maximum is its own value. */
#include <stdlib.h>
#include <string.h>

#include "ranks.h"

void wll_ranks_init(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
}

void wll_ranks_fini(void) {}

int wll_rank(void) { return 0; }
int wll_nranks(void) { return 1; }
const char *wll_ranks_kind(void) { return "one"; }

int wll_ranks_bcast(void **buf, size_t *len) {
  (void)buf;
  (void)len;
  return 0;
}

int wll_ranks_gather(const void *buf, size_t len, void ***out, size_t **lens) {
  *out = calloc(1, sizeof **out);
  *lens = calloc(1, sizeof **lens);
  if (*out == NULL || *lens == NULL ||
      (len > 0 && ((*out)[0] = malloc(len)) == NULL)) {
    wll_ranks_free_all(*out, *lens);
    *out = NULL;
    *lens = NULL;
    return -1;
  }
  if (len > 0)
    memcpy((*out)[0], buf, len);
  (*lens)[0] = len;
  return 0;
}

void wll_ranks_free_all(void **out, size_t *lens) {
  int r, n = wll_nranks();
  if (out != NULL)
    for (r = 0; r < n; r++)
      free(out[r]);
  free(out);
  free(lens);
}

long long wll_ranks_max(long long v) { return v; }

/* one rank: nobody to claim from or to serve */
int wll_ranks_claim(uint64_t *unit) {
  (void)unit;
  return 0;
}

void wll_ranks_claims_done(void) {}

void wll_ranks_serve(int (*next)(void *ud, uint64_t *unit), void *ud,
                     int *done) {
  (void)next;
  (void)ud;
  (void)done;
}

void wll_ranks_serve_all(int (*next)(void *ud, uint64_t *unit), void *ud,
                         int *done) {
  (void)next;
  (void)ud;
  (void)done;
}
