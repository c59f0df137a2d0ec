/* shadow.h -- the race checker's representation (internal to
 * engine/check/): epochs, shadow words and their cold parts, the
 * per-slot state of threads and the checker itself.  check.h describes
 * the design; race.c does the work. */
#ifndef WL_CHECK_SHADOW_H
#define WL_CHECK_SHADOW_H

#include "../program/strength.h"
#include "check.h"

#define PAGE_WORDS 256
#define SPIN_REPEATS 8

/* An access, as the shadow memory remembers it (20 bytes). */
typedef struct ep {
  int32_t blk; /* block + 1; 0: none (the host, or nothing yet) */
  uint16_t thread;
  uint8_t bits; /* kind | scope << 2 | mask << 4 (the bytes of the word
                 * it touched) */
  uint8_t sem;
  uint32_t clock, gen;
  int32_t line;
} ep;
#define EP_KIND(e) ((e)->bits & 3)
#define EP_SCOPE(e) ((e)->bits >> 2 & 3)
#define EP_MASK(e) ((e)->bits >> 4)
/* sem's top bit marks a weak store whose thread read the word since its
 * last write: the store of a non-atomic read-modify-write (hist[b] += 1),
 * whose race wants an atomic, not a barrier */
#define EP_RMW 0x80
#define EP_SEM(e) ((e)->sem & 0x7f)

/* Strong (strength.h): not .weak; an atomic always is. */
static inline int strong_access(int kind, int sem) {
  return kind == WL_ACC_ATOMIC || wl__sem_strong(sem);
}

/* A strong access, as the shadow remembers it. */
static inline int strong(const ep *e) {
  return strong_access(EP_KIND(e), EP_SEM(e));
}
_Static_assert(sizeof(ep) == 20, "an epoch is 20 bytes");

/* A word's accesses: one cache line, what every access reads. */
typedef struct sword {
  ep w, r[2];      /* the last write; the newest read and an older one
                    * not ordered before it */
  uint8_t written; /* shared memory: the bytes ever written */
  uint8_t pad[3];
} sword;
_Static_assert(sizeof(sword) == 64, "a shadow word is one cache line");

/* What only strong accesses use, in pages of their own made at the
 * first strong write to a page (weak code never touches them). */
typedef struct scold {
  int32_t obs_blk;   /* block + 1 of the thread whose morally strong read
                      * observed w (0: none) */
  uint16_t obs_thread;
  uint8_t relcta;    /* rel holds a cta-scoped release */
  int32_t relsrc;    /* block + 1 of the releasing threads; -1: several */
  uint32_t wval;     /* the bytes a strong w wrote (the word's,
                      * little-endian): a read that loads other bytes did
                      * not read from w (it read an older value, from a
                      * store buffer's point of view), so it neither
                      * observes nor acquires w */
  wl__kmap *rel;     /* the release clock of the word as a flag */
} scold;

typedef struct shadow {
  sword **pages;
  scold **cold; /* NULL until a strong write */
  size_t npages;
  uint64_t lastp; /* the page looked up last, + 1 (0: none) */
  sword *last;
} shadow;

typedef struct tstate {
  uint32_t clk;   /* from 1 */
  uint32_t fmark; /* clk at the last fence (0: none yet) */
  wl__kmap k;     /* what it acquired since the block's last barrier */
  wl__kmap pend;  /* strong reads' release clocks, for the next fence */
  /* the spin detector: the last weak load and its repeats */
  int sobj, sline;
  uint64_t soff, sval;
  uint32_t scount;
  /* the word of its last load (memory lobj, word lword - 1; 0: none): a
   * weak store to it is the store of a read-modify-write (EP_RMW) */
  int lobj;
  uint64_t lword;
} tstate;

typedef struct cslot {
  int block; /* -1: none */
  uint32_t gen;
  tstate *t;    /* nthreads, made when the slot first runs a block */
  uint32_t *wk; /* nthreads x 32 warp clocks, made at the first
                 * __syncwarp */
  wl__kmap bk;  /* joined at barriers: what any thread had acquired */
  wl__kmap sc;  /* fence.sc.cta order */
  shadow sh;    /* the block's shared memory */
} cslot;

struct wl__chk {
  wl_ctx *ctx;
  wl__chk_cfg cfg;
  cslot *slots;
  wl_vec glob;    /* shadow, per allocation id */
  wl__kmap sc;    /* fence.sc.gpu/sys order */
  wl_vec finds;   /* wl_finding */
  uint32_t *warned; /* lines already warned about (uninit, spin) */
};

/* finding.c: a race between prev and cur (cur's memory m, in space),
 * and a warning of kind (WL_FIND_UNINIT, WL_FIND_SPIN) about thread's
 * access a; each recorded once per pair of lines, then counted. */
void wl__chk_race(wl__chk *c, const cslot *s, const ep *prev, const ep *cur,
                  int space, const wl__chk_mem *m);
void wl__chk_warn(wl__chk *c, const cslot *s, int thread, int kind,
                  const wl_access *a, const wl__chk_mem *m);

#endif
