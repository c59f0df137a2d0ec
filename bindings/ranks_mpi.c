/* ranks_mpi.c -- the ranks of an MPI job (ranks.h): warplab-mpi, built
 * by make MPI=1 with Open MPI.  The only file that includes mpi.h.
 *
 * Only the main thread calls MPI (MPI_THREAD_FUNNELED): libuv's pool
 * threads sample and explore, the main thread talks to the other ranks.
 * A rank that waits for others does not spin: Open MPI's blocking calls
 * busy-poll, which on a machine with as many ranks as cores takes the
 * core a rank still working needs, so every wait here is a non-blocking
 * call polled with MPI_Test every WAIT_NS.  Large buffers go in pieces
 * of CHUNK bytes (MPI counts are ints).  A rank other than 0 that runs
 * out of memory for a broadcast ends the job (MPI_Abort): it cannot
 * take part in the rest of the collective. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include "ranks.h"

#define CHUNK ((size_t)1 << 30)
#define WAIT_NS 200000L /* 0.2 ms between two polls of a wait */
#define TAG_LEN 1
#define TAG_DATA 2
#define TAG_CLAIM 3 /* a rank wants a unit */
#define TAG_UNIT 4  /* rank 0's answer: the unit, or NONE */
#define TAG_DONE 5  /* a rank will claim no more */
#define NONE UINT64_MAX

static int me, size = 1, started;

void wll_ranks_fini(void) {
  if (started)
    MPI_Finalize();
  started = 0;
}

/* a script's os.exit ends the process without main's wll_ranks_fini */
static void fini_at_exit(void) { wll_ranks_fini(); }

void wll_ranks_init(int *argc, char ***argv) {
  int provided;
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  started = 1;
  atexit(fini_at_exit);
}

int wll_rank(void) { return me; }
int wll_nranks(void) { return size; }
const char *wll_ranks_kind(void) { return "mpi"; }

/* Waits for r without spinning on the core. */
static void wait_req(MPI_Request *r) {
  struct timespec ts = {0, WAIT_NS};
  int done = 0;
  for (;;) {
    MPI_Test(r, &done, MPI_STATUS_IGNORE);
    if (done)
      return;
    nanosleep(&ts, NULL);
  }
}

static void die(const char *what) {
  fprintf(stderr, "warplab: rank %d: %s: out of memory\n", me, what);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

int wll_ranks_bcast(void **buf, size_t *len) {
  uint64_t n = me == 0 ? (uint64_t)*len : 0;
  MPI_Request r;
  size_t at;
  char *p;
  MPI_Ibcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD, &r);
  wait_req(&r);
  if (me != 0) {
    *len = (size_t)n;
    *buf = malloc(n > 0 ? (size_t)n : 1);
    if (*buf == NULL)
      die("a broadcast");
  }
  p = *buf;
  for (at = 0; at < (size_t)n; at += CHUNK) {
    size_t c = (size_t)n - at < CHUNK ? (size_t)n - at : CHUNK;
    MPI_Ibcast(p + at, (int)c, MPI_BYTE, 0, MPI_COMM_WORLD, &r);
    wait_req(&r);
  }
  return 0;
}

/* rank 0 receives each rank's length, then its bytes, in rank order;
 * rank 0's own are copied */
int wll_ranks_gather(const void *buf, size_t len, void ***out, size_t **lens) {
  MPI_Request rq;
  size_t at;
  int r, fail = 0;
  *out = NULL;
  *lens = NULL;
  if (me != 0) {
    uint64_t n = (uint64_t)len;
    MPI_Isend(&n, 1, MPI_UINT64_T, 0, TAG_LEN, MPI_COMM_WORLD, &rq);
    wait_req(&rq);
    for (at = 0; at < len; at += CHUNK) {
      size_t c = len - at < CHUNK ? len - at : CHUNK;
      MPI_Isend((const char *)buf + at, (int)c, MPI_BYTE, 0, TAG_DATA,
                MPI_COMM_WORLD, &rq);
      wait_req(&rq);
    }
    return 0;
  }
  *out = calloc((size_t)size, sizeof **out);
  *lens = calloc((size_t)size, sizeof **lens);
  if (*out == NULL || *lens == NULL)
    die("a gather"); /* the others are sending: no way back */
  for (r = 0; r < size; r++) {
    uint64_t n = len;
    char *p;
    if (r > 0) {
      MPI_Irecv(&n, 1, MPI_UINT64_T, r, TAG_LEN, MPI_COMM_WORLD, &rq);
      wait_req(&rq);
    }
    p = malloc(n > 0 ? (size_t)n : 1);
    if (p == NULL)
      die("a gather");
    if (r == 0)
      memcpy(p, buf, len);
    else
      for (at = 0; at < (size_t)n; at += CHUNK) {
        size_t c = (size_t)n - at < CHUNK ? (size_t)n - at : CHUNK;
        MPI_Irecv(p + at, (int)c, MPI_BYTE, r, TAG_DATA, MPI_COMM_WORLD, &rq);
        wait_req(&rq);
      }
    (*out)[r] = p;
    (*lens)[r] = (size_t)n;
  }
  return fail;
}

void wll_ranks_free_all(void **out, size_t *lens) {
  int r;
  if (out != NULL)
    for (r = 0; r < size; r++)
      free(out[r]);
  free(out);
  free(lens);
}

long long wll_ranks_max(long long v) {
  long long m = v;
  MPI_Request r;
  MPI_Iallreduce(&v, &m, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD, &r);
  wait_req(&r);
  return m;
}

int wll_ranks_claim(uint64_t *unit) {
  uint64_t v = 0, a = NONE;
  MPI_Request rq[2];
  MPI_Irecv(&a, 1, MPI_UINT64_T, 0, TAG_UNIT, MPI_COMM_WORLD, &rq[1]);
  MPI_Isend(&v, 1, MPI_UINT64_T, 0, TAG_CLAIM, MPI_COMM_WORLD, &rq[0]);
  wait_req(&rq[0]);
  wait_req(&rq[1]);
  if (a == NONE)
    return 0;
  *unit = a;
  return 1;
}

void wll_ranks_claims_done(void) {
  uint64_t v = 0;
  MPI_Request rq;
  MPI_Isend(&v, 1, MPI_UINT64_T, 0, TAG_DONE, MPI_COMM_WORLD, &rq);
  wait_req(&rq);
}

/* Each tag probed alone: a rank done claiming may already have sent a
 * gather's first message, which must not hide another rank's claim. */
void wll_ranks_serve(int (*next)(void *ud, uint64_t *unit), void *ud,
                     int *done) {
  for (;;) {
    int flag = 0;
    MPI_Status st;
    uint64_t v, u = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, TAG_CLAIM, MPI_COMM_WORLD, &flag, &st);
    if (!flag)
      break;
    MPI_Recv(&v, 1, MPI_UINT64_T, st.MPI_SOURCE, TAG_CLAIM, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    v = next(ud, &u) ? u : NONE;
    MPI_Send(&v, 1, MPI_UINT64_T, st.MPI_SOURCE, TAG_UNIT, MPI_COMM_WORLD);
  }
  for (;;) {
    int flag = 0;
    MPI_Status st;
    uint64_t v;
    MPI_Iprobe(MPI_ANY_SOURCE, TAG_DONE, MPI_COMM_WORLD, &flag, &st);
    if (!flag)
      break;
    MPI_Recv(&v, 1, MPI_UINT64_T, st.MPI_SOURCE, TAG_DONE, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    (*done)++;
  }
}

void wll_ranks_serve_all(int (*next)(void *ud, uint64_t *unit), void *ud,
                         int *done) {
  struct timespec ts = {0, WAIT_NS};
  for (;;) {
    wll_ranks_serve(next, ud, done);
    if (*done >= size - 1)
      return;
    nanosleep(&ts, NULL);
  }
}
