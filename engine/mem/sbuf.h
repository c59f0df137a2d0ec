/* sbuf.h -- the one store buffer of the memory system: a queue of
 * pending stores, oldest first, and its operations, used by the litmus
 * sampler's machine (machine.h: a thread's store queue, an SM's buffer,
 * an SM's link queue) and by the kernel device's SMs (engine/sim/
 * memory.c).  Not installed.
 *
 * An entry is a store to one location (key) of some of its bytes
 * (mask, bit b: byte b of the location's 8; SB_WHOLE for all of them)
 * with its value (the location's 8 bytes, little-endian, of which the
 * mask's count).  The sampler's key is its location's index and its
 * stores write whole locations; the device's key is an allocation's
 * 8-byte word (sb_dev_key), a narrower store writing some of its bytes
 * and a 16-byte store two entries, one per word.  Two entries overlap
 * when they have a key and a byte in common.
 *
 * Invariant (asserted: sb_remove): the entries that overlap keep the
 * order they entered the queue, except where a user moves a store ahead
 * of another thread's on purpose (machine.h's mm_st_sm); an entry leaves
 * only when no older entry overlaps it, so that each byte reaches the
 * next level in the order it was stored.
 *
 * The profile's policy for a buffer (engine/mem/profile.h), the same
 * for both users: a drain takes the oldest entry, or with chance
 * reorder any entry's oldest overlapping store (sb_drain_pick); after
 * such an out-of-order drain the buffer stays put for hold steps of
 * the threads (sb_hold, sb_hold_tick). */
#ifndef WL_MEM_SBUF_H
#define WL_MEM_SBUF_H

#include <stdint.h>
#include <string.h>

#include "../common/internal.h"
#include "profile.h"
#include "rng.h"

#define SB_MAX 64      /* entries a buffer holds */
#define SB_WHOLE 0xffu /* an entry writing all 8 bytes of its location */

/* A pending store. */
typedef struct sentry {
  uint64_t key;   /* its location */
  int64_t val;    /* the location's bytes it writes (those of mask) */
  uint32_t seq;   /* in an SM buffer or link: the order it entered the SM */
  int16_t thread; /* the thread that stored it (the sampler's), or -1 */
  uint8_t flags;  /* its user's (machine.h: SE_*) */
  uint8_t mask;   /* the bytes of the location it writes */
} sentry;

/* A store buffer: entries oldest first, and how many more steps of the
 * threads it stays put (hold). */
typedef struct squeue {
  sentry e[SB_MAX];
  int n;
  int hold;
} squeue;

/* Whether entry e writes a byte of mask at key. */
static inline int sb_hits(const sentry *e, uint64_t key, unsigned mask) {
  /* every entry writes a byte: a whole location's access (a constant
   * SB_WHOLE where the sampler inlines this) overlaps any at its key */
  return e->key == key && (mask == SB_WHOLE || (e->mask & mask) != 0);
}

/* A new youngest entry (thread th's store of the bytes mask of key,
 * value v, flags and seq 0), or NULL when the buffer is full (its user
 * says what then: the sampler discards the run, the device drains the
 * oldest entry first). */
static inline sentry *sb_push(squeue *q, uint64_t key, unsigned mask, int th,
                              int64_t v) {
  sentry *e;
  if (q->n == SB_MAX)
    return NULL;
  wl_assert(q->n >= 0 && q->n < SB_MAX);
  e = &q->e[q->n++];
  e->key = key;
  e->thread = (int16_t)th;
  e->val = v;
  e->flags = 0;
  e->mask = (uint8_t)mask;
  e->seq = 0;
  return e;
}

#ifdef WL_ASSERTS
/* Whether an entry of q older than entry i overlaps it. */
static inline int sb_older(const squeue *q, int i) {
  int j;
  for (j = 0; j < i; j++)
    if (sb_hits(&q->e[j], q->e[i].key, q->e[i].mask))
      return 1;
  return 0;
}
#endif

/* Entry i leaves q: one no older entry overlaps (the invariant above).
 * (The buffers hold a few entries: a loop, not a memmove call.) */
static inline void sb_remove(squeue *q, int i) {
  wl_assert(i >= 0 && i < q->n);
  wl_assert(!sb_older(q, i));
  for (q->n--; i < q->n; i++)
    q->e[i] = q->e[i + 1];
}

/* The newest entry overlapping the bytes mask of key, or -1 when none:
 * the store a load of them is forwarded (or must wait for). */
static inline int sb_newest(const squeue *q, uint64_t key, unsigned mask) {
  int i;
  for (i = q->n - 1; i >= 0; i--)
    if (sb_hits(&q->e[i], key, mask))
      return i;
  return -1;
}

/* The entry that may leave the buffer for entry i's bytes: the oldest
 * overlapping i, then the oldest overlapping that one, and so on (i
 * itself when none is older).  With whole-location entries the first
 * step finds the location's oldest store and the chain ends there. */
static inline int sb_oldest_overlap(const squeue *q, int i) {
#ifdef WL_MUTANT_SBCHAIN /* tests/unit/test_sbuf.c: no chain */
  return i;
#endif
  for (;;) {
    int j;
    for (j = 0; j < i && !sb_hits(&q->e[j], q->e[i].key, q->e[i].mask); j++)
      ;
    /* i writes its whole location: j is the oldest entry at its key,
     * and only entries at that key can overlap j */
    if (j == i || q->e[i].mask == SB_WHOLE)
      return j;
    i = j;
  }
}

/* An entry that may leave the buffer now, at random: any entry's oldest
 * overlapping store. */
static inline int sb_pick(wl_rng *r, const squeue *q) {
  return sb_oldest_overlap(q, pick(r, q->n));
}

/* The entry a drain of buffer q takes under the profile: the oldest, or
 * with chance reorder any (sb_pick).  An out-of-order drain makes the
 * buffer stay put for the profile's hold steps (*nhold counts the
 * buffers held); the caller removes the entry. */
static WL_HOT int sb_drain_pick(wl_rng *r, const knobs *k, squeue *q,
                                int *nhold) {
  int e = 0;
  if (k->reorder >= 1024 || (k->reorder > 0 && chance(r, k->reorder)))
    e = sb_pick(r, q);
  if (e > 0 && k->hold > 0) {
    if (q->hold == 0)
      ++*nhold;
    q->hold = (int)k->hold;
  }
  return e;
}

/* Whether a store entering buffer q goes on to the next level at once
 * (the profile's direct: only when it is alone there, so that it
 * overtakes no older store). */
static WL_HOT int sb_goes_direct(wl_rng *r, const knobs *k, const squeue *q) {
  return q->n == 0 && knob(r, k->direct);
}

/* Whether buffer q may drain now (nr: the threads that could run
 * instead; a held buffer drains when none could). */
static inline int sb_may_drain(const squeue *q, int nr) {
  return q->n > 0 && (q->hold == 0 || nr == 0);
}

/* A step a thread took: a held buffer counts it. */
static inline void sb_hold_tick(squeue *q, int *nhold) {
  if (q->hold > 0 && --q->hold == 0)
    --*nhold;
}

/* ---------------------------------------------------------------- */
/* The device's locations: 8-byte words of allocations               */

#define SB_OFF_BITS 40 /* an allocation's words: 2^40 (8 TiB) */

/* The key of the word holding byte off of allocation id. */
static inline uint64_t sb_dev_key(int id, uint64_t off) {
  return (uint64_t)id << SB_OFF_BITS | off >> 3;
}
static inline int sb_dev_id(uint64_t key) { return (int)(key >> SB_OFF_BITS); }
static inline uint64_t sb_dev_off(uint64_t key) {
  return (key & ((1ull << SB_OFF_BITS) - 1)) << 3;
}

/* The bytes of the word at off & ~7 that [off, off+width) covers (width
 * may run past the word: the rest is the next word's). */
static inline unsigned sb_word_mask(uint64_t off, int width) {
  unsigned lo = (unsigned)(off & 7), n = (unsigned)width;
  if (lo + n > 8)
    n = 8 - lo;
  return ((1u << n) - 1) << lo;
}

/* A filter over keys for a buffer that loads mostly miss (the device's:
 * most loads skip the scan): a count of the entries per key hash, by
 * 32-byte sector.  sb_filter_may is 0 only when no entry has the key. */
#define SB_FILTER 64
typedef struct sb_filter {
  uint8_t n[SB_FILTER];
} sb_filter;

static inline unsigned sb_filter_slot(uint64_t key) {
  return (unsigned)((key >> 2) * 0x9e3779b97f4a7c15ull >> 58);
}
static inline int sb_filter_may(const sb_filter *f, uint64_t key) {
#ifdef WL_MUTANT_SBFILTER /* tests/unit/test_sbuf.c: the next sector's */
  return f->n[sb_filter_slot(key + 4)] != 0;
#else
  return f->n[sb_filter_slot(key)] != 0;
#endif
}

/* The words of an access to bytes [off, off+width) of allocation id,
 * each as key and mask (a 16-byte access: two words; at most three). */
static inline int sb_words(int id, uint64_t off, int width, uint64_t *key,
                           unsigned *mask) {
  uint64_t lo = off, end = off + (uint64_t)width;
  int n = 0;
  for (; lo < end; lo = (lo | 7) + 1, n++) {
    key[n] = sb_dev_key(id, lo);
    mask[n] = sb_word_mask(lo, (int)(end - lo));
  }
  return n;
}

/* Byte b's offset of an entry's word, and its bytes' count. */
static inline int sb_first_byte(const sentry *e) {
  return __builtin_ctz(e->mask);
}
static inline int sb_nbytes(const sentry *e) {
  return __builtin_popcount(e->mask);
}

/* A store of bytes [off, off+width) of id (data) enters q (and f): an
 * entry per word, youngest last.  The caller made room (sb_room). */
static inline void sb_put_bytes(squeue *q, sb_filter *f, int id, uint64_t off,
                                int width, const uint8_t *data) {
  uint64_t key[3];
  unsigned mask[3];
  int n = sb_words(id, off, width, key, mask), w;
  for (w = 0; w < n; w++) {
    uint8_t v[8] = {0};
    uint64_t lo = sb_dev_off(key[w]) + (uint64_t)__builtin_ctz(mask[w]);
    sentry *e = sb_push(q, key[w], mask[w], -1, 0);
    wl_assert(e != NULL);
    if (e == NULL)
      return;
    memcpy(v + (lo & 7), data + (lo - off),
           (size_t)__builtin_popcount(mask[w]));
    memcpy(&e->val, v, 8); /* little-endian hosts */
    f->n[sb_filter_slot(key[w])]++;
  }
}

/* Whether q has room for a store of width bytes at off. */
static inline int sb_room(const squeue *q, uint64_t off, int width) {
  return q->n + (int)(((off + (uint64_t)width - 1) >> 3) - (off >> 3)) + 1 <=
         SB_MAX;
}

/* Entry i's bytes (into out[0..sb_nbytes)) at allocation *id, byte *off;
 * it leaves q and f. */
static inline int sb_take_bytes(squeue *q, sb_filter *f, int i, int *id,
                                uint64_t *off, uint8_t *out) {
  const sentry *e = &q->e[i];
  uint8_t v[8];
  int b0 = sb_first_byte(e), n = sb_nbytes(e);
  wl_assert(f->n[sb_filter_slot(e->key)] > 0);
  *id = sb_dev_id(e->key);
  *off = sb_dev_off(e->key) + (uint64_t)b0;
  memcpy(v, &e->val, 8);
  memcpy(out, v + b0, (size_t)n);
  f->n[sb_filter_slot(e->key)]--;
  sb_remove(q, i);
  return n;
}

/* The newest entry overlapping bytes [off, off+width) of id, or -1. */
static inline int sb_newest_bytes(const squeue *q, const sb_filter *f, int id,
                                  uint64_t off, int width) {
  uint64_t key[3];
  unsigned mask[3];
  int n, w, last = -1, i;
  if (q->n == 0) /* an empty buffer (most loads find one) */
    return -1;
  n = sb_words(id, off, width, key, mask);
  for (w = 0; w < n; w++)
    if (sb_filter_may(f, key[w]) && (i = sb_newest(q, key[w], mask[w])) > last)
      last = i;
  return last;
}

/* What q holds for a load of bytes [off, off+width) of id: 0 nothing;
 * 1 when for each word it covers the stores there write all of exactly
 * its bytes (the newest's are forwarded to out); -1 when stores write
 * some of its bytes otherwise (the load must wait for them). */
static inline int sb_get_bytes(const squeue *q, const sb_filter *f, int id,
                               uint64_t off, int width, uint8_t *out) {
  uint64_t key[3];
  unsigned mask[3];
  int n, w, any = 0, all = 1;
  if (q->n == 0) /* an empty buffer: nothing (most loads find one) */
    return 0;
  n = sb_words(id, off, width, key, mask);
  for (w = 0; w < n; w++) {
    int i, newest = -1;
    if (!sb_filter_may(f, key[w])) {
      all = 0;
      continue;
    }
    for (i = 0; i < q->n; i++)
      if (sb_hits(&q->e[i], key[w], mask[w])) {
        if (q->e[i].mask != mask[w])
          return -1;
        newest = i;
      }
    if (newest < 0) {
      all = 0;
      continue;
    }
    any = 1;
    {
      uint8_t v[8];
      uint64_t lo = sb_dev_off(key[w]) + (uint64_t)__builtin_ctz(mask[w]);
      memcpy(v, &q->e[newest].val, 8);
      memcpy(out + (lo - off), v + (lo & 7),
             (size_t)__builtin_popcount(mask[w]));
    }
  }
  return !any ? 0 : all ? 1 : -1;
}

#endif
