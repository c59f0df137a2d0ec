/* sim.h -- what the files of the simulated device share (not
 * installed): the device, its allocations, and a launch's representation.
 *
 *   device.c  presets, the device and its memory, occupancy
 *   launch.c  a launch: setup, blocks, scheduling, failure, counters
 *   price.c   gathering lanes' accesses into requests and pricing them
 *   memory.c  the device's side of the memory system (engine/mem/: the
 *             SMs' store buffers, sbuf.h; their L1 copies, l1.h and
 *             cache.h, shared with the cost model's L1 lines)
 *   access.c  accesses, fences, barriers, exits, shared/local arrays
 *   stop.c    where threads stopped: settling, divergence, deadlock
 *   warp.c    warp operations
 *   defer.c   deferred loads of replayable lanes (wl_launch_cfg.defer)
 *   sample.c  the litmus sampler (sample.h lists its files) and hist.c
 *             its outcome histograms (apart: they share hist.h and
 *             engine/mem/, nothing here)
 *
 * The memory system both run on is engine/mem/'s: one store buffer
 * (sbuf.h), one L1 policy (l1.h), the caches (cache.h), one profile
 * table (profile.h) and one generator of draws (rng.h). */
#ifndef WL_SIM_H
#define WL_SIM_H

#include <stdint.h>

#include "../check/check.h"
#include "../common/internal.h"
#include "../mem/profile.h"
#include "../mem/rng.h"
#include "../mem/sbuf.h"
#include "../perf/perf.h"
#include "../program/ir.h"

typedef struct alloc {
  uint64_t base, size, cap; /* cap: bytes allocated, whole 32-byte sectors
                             * (an L1 fill copies a sector) */
  int space, live;
  char name[48];
  uint8_t *data;
  /* global and managed memory: a bit per 4-byte word ever written (by
   * the host or a store), for WL_CHECK_UNINIT; all_written once a launch
   * without that checker ran (it may have written anything) */
  uint8_t *written;
  int all_written;
} alloc;

static inline uint64_t written_bytes(const alloc *a) {
  return a->size / 32 + 1;
}

struct wl_device {
  wl_ctx *ctx;
  wl_device_cfg cfg;
  wl_vec allocs; /* alloc */
  uint64_t gnext, gused, cused, pnext;
  int running;  /* a launch is in progress */
  wl_cache *l2; /* the cost model's L2: warm across launches */
};

/* the counters, per site and per kernel */
#define COUNTERS(X)                                                            \
  X(INST, "smsp__inst_executed.sum")                                           \
  X(THREAD_INST, "smsp__thread_inst_executed.sum")                             \
  X(SH_WF_LD, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum")          \
  X(SH_WF_ST, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum")          \
  X(SH_BC_LD, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")      \
  X(SH_BC_ST, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")      \
  X(GL_REQ_LD, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")              \
  X(GL_REQ_ST, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum")              \
  X(GL_REQ_ATOM, "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum")          \
  X(GL_SEC_LD, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")               \
  X(GL_SEC_ST, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum")               \
  X(GL_SEC_ATOM, "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum")           \
  X(GL_HIT_LD, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum")    \
  X(GL_MISS_LD, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum")  \
  X(LO_REQ, "l1tex__t_requests_pipe_lsu_mem_local.sum")                        \
  X(LO_SEC, "l1tex__t_sectors_pipe_lsu_mem_local.sum")                         \
  X(L2_SEC, "lts__t_sectors_srcunit_tex.sum")                                  \
  X(L2_HIT, "lts__t_sectors_srcunit_tex_lookup_hit.sum")                       \
  X(L2_MISS, "lts__t_sectors_srcunit_tex_lookup_miss.sum")                     \
  X(CONST_REQ, "idc__requests.sum")                                            \
  X(CONST_HIT, "idc__requests_lookup_hit.sum")                                 \
  X(CONST_MISS, "idc__requests_lookup_miss.sum")                               \
  X(CONST_CYC, "warplab__constant_cycles_estimate.sum")

enum {
#define C_ENUM(id, name) C_##id,
  COUNTERS(C_ENUM)
#undef C_ENUM
      NCOUNTERS
};

typedef struct site {
  int line, space, kind, width;
  int l1pol; /* L1_ALLOCATE: weak .ca/.cs loads and __ldg; L1_BYPASS:
              * .cg (L2 only), .cv and volatile (fetched again), strong
              * loads (relaxed/acquire: performed at L2) */
  uint64_t c[NCOUNTERS];
  /* shared sites: the lanes' addresses of the costliest request (the
   * first of the most wavefronts), for heatmaps */
  int worst; /* its wavefronts, -1 before any */
  uint32_t worst_mask;
  uint64_t worst_addr[32];
} site;

/* a warp-wide request being gathered: the n-th access of its lanes at
 * one site */
typedef struct group {
  int site, done; /* done: priced, kept so positions stay hints */
  uint32_t mask;
  uint64_t addr[32];
} group;

typedef struct local_arr {
  uint8_t *p;
  uint64_t n;
} local_arr;

typedef struct shared_arr {
  uint64_t off, size;
} shared_arr;

typedef struct warp_st {
  wl_vec groups;  /* group, in the order lanes first reach them */
  uint32_t alive; /* lanes that have not exited */
  int compacted;  /* positions are no hints until the warp converges */
  uint32_t stalled; /* lanes waiting out a gpu/sys-scope fence.sc (the
                     * profile's stall, as the sampler's wait_turn) */
  int stall;        /* turns of the warp they still wait */
  uint32_t nev;     /* events every lane made at once (a warp-wide access
                     * of the whole warp): each lane's count of events is
                     * its dlane's nev plus this */
} warp_st;

typedef struct slot {
  int block; /* -1: free */
  int sm;
  uint8_t *shmem;
  uint64_t shcap, shused;
  wl_vec decls;    /* shared_arr */
  uint8_t *state;  /* WL_LANE_* per thread */
  int *barline;    /* line of the barrier a thread waits at */
  int *ndecl;      /* shared declarations made, per thread */
  uint32_t *slice; /* accesses since the lane was resumed */
  uint32_t *seq;   /* accesses since the warp converged: the lane's n-th
                    * access usually joins the warp's n-th request */
  uint8_t *irregular; /* the lane joined a request off its position */
  wl_vec *locals;  /* local_arr, per thread */
  warp_st *warps;
  int nexited, nwaiting;
  int dyn_id;       /* WL_SHARED_EXTERN once the extern region is placed */
  uint64_t dyn_off; /* where it is in the block's shared memory */
  /* warp operations (__syncwarp, shuffles, votes), made at the first:
   * per thread, the one it waits at and its result */
  wl_warp_op *wop;
  int64_t *wres;
  uint8_t *wresint;
  struct dlane *dl; /* per thread, when the launch defers loads */
  uint32_t npend;    /* the deferred loads of its lanes (the sum of their
                      * dl[].np): 0, and no lane has one */
} slot;

/* A lane's deferred-load state (defer.c). */
typedef struct dlane {
  uint8_t np;    /* its deferred loads (in its SM's dpend) */
  uint8_t norep; /* the host cannot replay it: nothing more is deferred,
                  * and a deferred load keeps the value read at issue */
  uint8_t swait; /* its next store waits for its deferred loads (it did
                  * WL_KERNEL_WAIT: the decision stands) */
  uint32_t nev;  /* its accesses and fences so far (event numbers),
                  * less those of its warp's nev */
} dlane;

/* A deferred load (defer.c), in its SM's list. */
typedef struct dpend {
  int block, thread, id, width;
  uint64_t off;
  uint32_t ev;   /* the lane's event number of the load */
  int own;       /* its SM wrote the location at L2 since it was issued */
  uint8_t v0[16]; /* the value it read at issue */
} dpend;

typedef struct sm_st {
  squeue sb;     /* its store buffer (engine/mem/sbuf.h: keys sb_dev_key) */
  sb_filter sbf; /* its entries by key: most loads skip the scan */
  int resident;
  wl_cache *pl1;    /* its L1: the cost model's lines (hit rates) and the
                     * memory system's copies on them (engine/mem/l1.h) */
  int copies;       /* pl1 may hold copies (none made since it was last
                     * invalidated: 0) */
  wl_cache *pconst; /* constant cache */
  wl_vec dpend;     /* dpend: deferred loads of the SM's lanes */
} sm_st;

#define SITE_MEMO 256
struct wl_launch {
  wl_device *dev;
  wl_ctx *ctx;
  wl_launch_cfg cfg;
  wl_occupancy occ;
  const knobs *prof; /* the profile (engine/mem/profile.h) */
  uint64_t npend;    /* entries in all SMs' store buffers */
  int nhold;         /* SMs' buffers held (sbuf.h) */
  int sbtop;         /* 1 + the highest SM whose buffer has had a store:
                      * the drains' scans stop there (a buffer above it
                      * is empty and never held); _plain: nsms */
  int gdim[3], bdim[3];
  int nblocks, nthreads, nwarps;
  int next_block, done_blocks;
  slot *slots;
  int nslots;
  int *slot_of; /* block -> slot, -1 */
  sm_st *sms;
  int nsms;
  wl_cache *pl2;
  uint64_t rng, steps, shared_cap;
  wl_cache_cfg l1c, cc; /* per-SM caches, made when an SM first needs one */
  int bank_shift;       /* log2 of bank_bytes (-1: not a power of two) */
  int has_l1;
  wl_vec sites; /* site */
  int *site_hash;
  int site_hash_n;
  /* the site each source line found last, by line % SITE_MEMO: most
   * accesses skip site_hash (k + 1; 0: none) */
  struct {
    int line, key, k1;
  } site_memo[SITE_MEMO];
  uint64_t total[NCOUNTERS];
  char err[WL_ERRMSG_MAX];
  int failed;
  int last_block, last_thread, last_line; /* the latest access */
  wl__chk *chk; /* the checkers (cfg.check), while the launch runs */
  wl_vec finds; /* wl_finding: what they found */
  uint64_t ndefer; /* deferred loads pending in all SMs */
  struct {          /* the replay a completed load asks for (defer.c) */
    int block, thread, width;
    uint32_t ev;
    uint8_t v[16];
  } rep;
  int nrun; /* the blocks this launch runs (cfg.part_n: its part's) */
  /* cfg.track (split.c): per allocation id (ntrack of them), a bit per
   * byte of global or managed memory the launch read and wrote (NULL:
   * none), and once it ended the values of the bytes it wrote (packed in
   * the order of their bits) and the allocation's written bits; the L2
   * sectors it looked up, in order (uint64_t) */
  int ntrack;
  uint8_t ***trd, ***twr; /* by allocation: bits in chunks (split.c) */
  uint8_t **tval, **twb;
  uint64_t *tlo, *thi; /* the lowest and highest byte touched */
  wl_vec l2log;        /* l2look */
};

/* An L2 lookup of a tracked launch: the sector and the site it counted
 * for (split.c looks them up again, in part order, when parts join). */
typedef struct l2look {
  uint64_t sector;
  int site;
} l2look;

/* device.c: makes d's L2 (empty), as a launch does on a device that
 * has none. */
int wl__sim_device_l2(wl_device *d);
/* split.c: marks bytes [off, off+width) of allocation id read (load),
 * written (store) or both (atomic) by launch l, which tracks them. */
void wl__sim_touch(wl_launch *l, const wl_access *a);
/* split.c: once l (cfg.track) ended, keeps the values of the bytes it
 * wrote and the written bits of its allocations; frees what tracking
 * holds (wl_launch_free). */
int wl__sim_touch_keep(wl_launch *l);
void wl__sim_touch_free(wl_launch *l);

/* how a load uses the SM's L1 in the cost model */
enum { L1_ALLOCATE, L1_BYPASS };

static inline int dim(int x) { return x <= 0 ? 1 : x; }
/* The launch's draws are the memory system's (engine/mem/rng.h), from
 * its generator l->rng. */
/* true with chance p/1024 (a profile's knob), drawing no number at 0
 * or 1024 */
static inline int wl__sim_knob(wl_launch *l, unsigned p) {
  return knob(&l->rng, p);
}


static inline void coords(int lin, const int d3[3], int out[3]) {
  out[0] = lin % d3[0];
  out[1] = lin / d3[0] % d3[1];
  out[2] = lin / (d3[0] * d3[1]);
}

/* The slot block runs in, NULL when it is not resident. */
static inline slot *slot_of(wl_launch *l, int block) {
  if (l->slot_of == NULL || block < 0 || block >= l->nblocks ||
      l->slot_of[block] < 0)
    return NULL;
  return &l->slots[l->slot_of[block]];
}

static inline alloc *get_alloc(const wl_device *d, int id) {
  alloc *a;
  if (id < 0 || (size_t)id >= d->allocs.n)
    return NULL;
  a = WL_VEC_PTR(&d->allocs, alloc, id);
  return a->live ? a : NULL;
}

/* Copies an access's bytes (width 1..16; 4 and 8 without a call). */
static inline void copy_bytes(void *dst, const void *src, int width) {
  if (width == 4)
    memcpy(dst, src, 4);
  else if (width == 8)
    memcpy(dst, src, 8);
  else
    memcpy(dst, src, (size_t)width);
}

/* Loads and stores outside global memory (shared, local, constant,
 * parameters) reach their bytes directly: no buffer, no L1. */
static inline int plain_access(const wl_access *a) {
  return a->kind != WL_ACC_ATOMIC && a->space != WL_SPACE_GLOBAL &&
         a->space != WL_SPACE_MANAGED;
}

static inline void perform_plain(const wl_access *a, uint8_t *p,
                                 void *data) {
  if (a->kind == WL_ACC_LOAD)
    copy_bytes(data, p, a->width);
  else
    copy_bytes(p, data, a->width);
}

/* price.c */
/* The site of an access (its line, space, kind, width and L1 policy),
 * made at its first access; -1 when out of memory. */
int wl__sim_site_id(wl_launch *l, int line, int space, int kind, int width,
                    int l1pol);
/* Adds the k-th access of thread (at address addr) to its warp's
 * request; prices requests once the warp converges. */
int wl__sim_gather(wl_launch *l, slot *s, int thread, int k, uint64_t addr);
/* Prices request g of a warp on SM sm into its site's counters. */
int wl__sim_price(wl_launch *l, int sm, const group *g);
/* The same for a whole warp's narrow shared access whose caller found
 * the lowest and highest bank word its lanes touch (lo, hi: address >>
 * the bank shift), as wl__sim_price's own pass over the lanes would. */
int wl__sim_price_span(wl_launch *l, int sm, const group *g, uint64_t lo,
                       uint64_t hi);
/* Prices the requests warp has gathered and forgets them. */
int wl__sim_flush_warp(wl_launch *l, slot *s, int warp);

/* memory.c */
/* Performs access a of thread `thread` on the bytes p (address addr) in
 * the memory system of SM m. */
int wl__sim_perform(wl_launch *l, sm_st *m, int block, int thread,
                    const wl_access *a, uint8_t *p, uint64_t addr,
                    void *data);
/* Whether load a (address addr) of SM m would be performed at L2: no
 * store for its bytes in the SM's buffer, no L1 copy it may read (as the
 * sampler's mm_goes_to_l2). */
int wl__sim_goes_to_l2(const sm_st *m, const wl_access *a, uint64_t addr);
/* SM m's L1 copy of the bytes at global address addr (if it holds
 * them) becomes src. */
void wl__sim_l1_refresh(sm_st *m, uint64_t addr, const uint8_t *src,
                        int width);
/* As a load of bytes [off, off+width) of id (address addr) performed at
 * L2 (read src): SM m's L1 copy of them, if it holds one, is refreshed,
 * its own pending stores staying on it. */
void wl__sim_l1_from_l2(sm_st *m, int id, uint64_t off, uint64_t addr,
                        const uint8_t *src, int width);
/* SM m's L1 forgets its copies (and the cost model its lines). */
void wl__sim_l1_clear(sm_st *m);
/* Drains all of SM m's store buffer to L2. */
void wl__sim_drain_all(wl_launch *l, sm_st *m);
/* One step of the memory system of SM sm (drains, evictions), before
 * each access. */
void wl__sim_drain_step(wl_launch *l, int sm);

/* launch.c */
/* Frees what slot s holds for its block (the slot becomes free). */
void wl__sim_slot_release(wl_launch *l, slot *s);
/* Places waiting blocks into free slots while resources allow. */
int wl__sim_admit(wl_launch *l);

/* stop.c: after warp of s ran (see the file's comment). */
int wl__sim_settle(wl_launch *l, slot *s, int warp);

/* defer.c (see the file's comment) */
/* Whether lane thread's load a (bytes p at address addr) is deferred: then data
 * holds the value read now and 1 is returned. */
int wl__sim_defer_load(wl_launch *l, slot *s, int thread, const wl_access *a,
                       const uint8_t *p, uint64_t addr, void *data);
/* Performs the deferred loads of thread that access a must wait for;
 * WL_KERNEL_REPLAY when one read a new value and the lane must be
 * replayed first (nothing else done), or WL_KERNEL_WAIT when a store
 * waits its turn out (only when may_wait: fences never do).  a NULL:
 * every one (a fence); data: a store's bytes. */
int wl__sim_defer_hazards(wl_launch *l, slot *s, int thread,
                          const wl_access *a, const void *data, int may_wait);
/* Every deferred load of thread keeps the value it read at issue (an
 * exit, a barrier, a warp operation). */
void wl__sim_defer_drop(wl_launch *l, slot *s, int thread);
/* SM m wrote bytes [off, off+width) of allocation id at L2. */
void wl__sim_defer_l2w(wl_launch *l, sm_st *m, int id, uint64_t off,
                       int width);
static inline void defer_l2w(wl_launch *l, sm_st *m, int id, uint64_t off,
                             int width) {
  if (l->ndefer > 0)
    wl__sim_defer_l2w(l, m, id, off, width);
}

/* warp.c: the CUDA name of warp operation kind (WL_WARP_*). */
const char *wl__sim_warp_op_name(int kind);

#endif
