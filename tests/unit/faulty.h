/* faulty.h -- the failing allocator the unit tests share (SQLite's fault
 * simulator): fails the fail_at-th allocation, counts what is held, and
 * checks that every osize the engine passes back is the block's size. */
#ifndef WL_TEST_FAULTY_H
#define WL_TEST_FAULTY_H

#include <stddef.h>
#include <stdlib.h>

typedef struct faulty {
  long calls;   /* allocations and reallocations so far */
  long fail_at; /* the one that fails (0: none) */
  int failed;   /* it happened */
  long live;    /* bytes held */
  long blocks;  /* blocks held */
  int bad;      /* an osize did not match the block's size */
} faulty;

/* Each block carries its size in front. */
typedef union faulty_hdr {
  size_t size;
  max_align_t align;
} faulty_hdr;

static void *faulty_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  faulty *fa = ud;
  faulty_hdr *h = ptr != NULL ? (faulty_hdr *)ptr - 1 : NULL;
  if (h != NULL && h->size != osize)
    fa->bad = 1;
  if (nsize == 0) {
    if (h != NULL) {
      fa->live -= (long)h->size;
      fa->blocks--;
      free(h);
    }
    return NULL;
  }
  if (++fa->calls == fa->fail_at) {
    fa->failed = 1;
    return NULL;
  }
  {
    faulty_hdr *q = realloc(h, sizeof *q + nsize);
    if (q == NULL)
      return NULL;
    if (h == NULL)
      fa->blocks++;
    else
      fa->live -= (long)q->size;
    q->size = nsize;
    fa->live += (long)nsize;
    return q + 1;
  }
}

#endif
