/* ranks.h -- the processes a command's work is split over: the ranks of
 * an MPI job under warplab-mpi (bindings/ranks_mpi.c, built by make
 * MPI=1), or this one process alone in warplab (bindings/ranks_one.c).
 * The commands split their work by rank through these calls only, so
 * that one code path serves both: with one rank every call is a copy or
 * nothing.  Every call here is collective (every rank makes it, in the
 * same order) except wll_rank, wll_nranks and wll_ranks_kind.  A
 * failure of the transport ends the whole job with MPI's message (the
 * MPI library's default handler): a rank cannot go on alone.  Part of
 * the warplab command, not of the Lua module.  Not installed. */
#ifndef WL_RANKS_H
#define WL_RANKS_H

#include <stddef.h>
#include <stdint.h>

/* Called by main before anything else, and at the end. */
void wll_ranks_init(int *argc, char ***argv);
void wll_ranks_fini(void);

/* This process's rank (0 .. wll_nranks() - 1); rank 0 writes the
 * results. */
int wll_rank(void);
int wll_nranks(void);
/* "mpi" or "one": which of the two this binary has. */
const char *wll_ranks_kind(void);

/* Rank 0's bytes to every rank: on rank 0 *buf and *len are read; on
 * the others they are set to a malloc'd copy (free it).  Returns 0, or
 * -1 out of memory (on every rank alike: the length comes first). */
int wll_ranks_bcast(void **buf, size_t *len);
/* Every rank's bytes to rank 0, in rank order: on rank 0 *out is a
 * malloc'd array of wll_nranks() malloc'd copies and *lens their
 * lengths (wll_ranks_free_all frees them); on the others both are set
 * to NULL.  Returns 0, or -1 out of memory (on rank 0). */
int wll_ranks_gather(const void *buf, size_t len, void ***out, size_t **lens);
void wll_ranks_free_all(void **out, size_t *lens);
/* The largest v of every rank, on every rank. */
long long wll_ranks_max(long long v);

/*
 * Units handed out one at a time by rank 0 (cmd_ranks_pool.c): not
 * collective, point to point with rank 0.  A rank other than 0 asks
 * with wll_ranks_claim (1 and *unit, or 0: none is left) and, once it
 * will ask no more, says so with wll_ranks_claims_done.  Rank 0 answers
 * with wll_ranks_serve: every claim waiting gets next's answer (1 and
 * *unit, or 0: none), and each rank that said it is done adds one to
 * *done; wll_ranks_serve_all serves until *done is wll_nranks() - 1.
 */
int wll_ranks_claim(uint64_t *unit);
void wll_ranks_claims_done(void);
void wll_ranks_serve(int (*next)(void *ud, uint64_t *unit), void *ud,
                     int *done);
void wll_ranks_serve_all(int (*next)(void *ud, uint64_t *unit), void *ud,
                         int *done);

#endif

/* ------------------------------------------------------------------ */
/* Units of work over the ranks (cmd_ranks_pool.c)                      */
/* ------------------------------------------------------------------ */
#ifndef WL_RANKS_POOL_H
#define WL_RANKS_POOL_H

#include "lpool.h"

/* How a unit's output crosses from its rank to rank 0: pack makes bytes
 * of it (malloc'd; the output itself stays the caller's, freed through
 * fns->drop), unpack makes an output emit takes from them.  Each
 * returns 0, or non-zero (out of memory, or bytes that are not an
 * output: the run then stops with an error). */
typedef struct wll_ranks_codec {
  int (*pack)(void *ud, size_t unit, const void *out, void **buf,
              size_t *len);
  int (*unpack)(void *ud, size_t unit, const void *buf, size_t len,
                void **out);
} wll_ranks_codec;

/*
 * wll_pool_run with the units dealt to the ranks first: the engine's
 * plan (wl_shard_deal, rank 0's costs, sent to all) gives each unit an
 * owner rank, and each rank runs its own units on its libuv pool
 * (wll_pool_run, opts->jobs workers).  Rank 0 then gets every rank's
 * outputs (packed by codec) and emits them all in unit order, as one
 * process would, up to the first unit that did not finish after a stop
 * (a stopped unit is emitted, marked, and is the last); the other ranks
 * emit nothing.  Every rank returns the same answer and res->stop.
 * With one rank this is wll_pool_run itself (codec unused).  n must be
 * the same on every rank (the same command line).
 */
int wll_ranks_pool_run(size_t n, const wll_pool_opts *opts,
                       const wll_pool_fns *fns, const wll_ranks_codec *codec,
                       void *ud, wll_pool_result *res, char *note,
                       size_t notelen, char *err, size_t errlen);

/* cmd_pack.c: the pieces a codec packs and unpacks (wll_out: cmd.h). */
#include <stdint.h>
struct wll_out;
typedef struct wll_pack { /* bytes being packed; oom: something failed */
  unsigned char *p;
  size_t n, cap;
  int oom;
} wll_pack;
void wll_pack_raw(wll_pack *b, const void *s, size_t n);
void wll_pack_u64(wll_pack *b, uint64_t v);
void wll_pack_bytes(wll_pack *b, const void *s, size_t n); /* n, bytes */
void wll_pack_out(wll_pack *b, const struct wll_out *o);   /* segments */
typedef struct wll_unpack { /* bytes being read; bad: they ran out */
  const unsigned char *p;
  size_t n, at;
  int bad;
} wll_unpack;
uint64_t wll_unpack_u64(wll_unpack *r);
const void *wll_unpack_bytes(wll_unpack *r, size_t *n); /* into r->p */
/* o made from the segments (free it with wll_out_free, also on
 * failure); 0, or -1 (bad bytes: r->bad; or out of memory). */
int wll_unpack_out(wll_unpack *r, struct wll_out *o);

#endif
