/* finding.c -- the checkers' findings (wl_finding): a race between two
 * accesses or a warning about one (an uninitialised read, a weak load
 * polled in a loop), each kept once per pair of lines (per line for
 * warnings) and counted, with the accesses' threads and places and the
 * fix the report gives.  race.c finds them; shadow.h has the types. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "shadow.h"

static void coords(int lin, const int d3[3], int out[3]) {
  out[0] = lin % d3[0];
  out[1] = lin / d3[0] % d3[1];
  out[2] = lin / (d3[0] * d3[1]);
}

static void fill_access(const wl__chk *c, const ep *e, wl_find_access *f) {
  f->block = e->blk - 1;
  f->thread = e->thread;
  coords(f->block, c->cfg.gdim, f->bidx);
  coords(f->thread, c->cfg.bdim, f->tidx);
  f->warp = e->thread / 32;
  f->lane = e->thread % 32;
  f->line = e->line;
  f->kind = EP_KIND(e);
  f->sem = EP_SEM(e);
  f->scope = EP_SCOPE(e);
}

static wl_finding *find_or_add(wl__chk *c, int kind, int la, int lb,
                               int *fresh) {
  size_t i;
  wl_finding *f;
  int lo = la < lb ? la : lb, hi = la < lb ? lb : la;
  *fresh = 0;
  for (i = 0; i < c->finds.n; i++) {
    f = WL_VEC_PTR(&c->finds, wl_finding, i);
    if (f->kind == kind &&
        ((f->a.line == lo && f->b.line == hi) ||
         (f->a.line == hi && f->b.line == lo))) {
      f->count++;
      return f; /* not fresh */
    }
  }
  if (c->finds.n >= MAX_FINDINGS)
    return NULL;
  if ((f = wl__vec_push(c->ctx, &c->finds)) == NULL)
    return NULL; /* a finding lost to memory; the run goes on */
  f->kind = kind;
  f->count = 1;
  *fresh = 1;
  return f;
}

static void where(wl_finding *f, int space, const wl__chk_mem *m) {
  f->space = space;
  snprintf(f->name, sizeof f->name, "%s", m->name ? m->name : "?");
  f->id = m->id;
  f->off = m->aoff;
  f->addr = m->addr;
}

static const char *const space_words[] = {"global", "managed", "constant",
                                          "param",  "shared",  "local"};

/* The fix of a race where a side is the store of a non-atomic
 * read-modify-write.  both: each side updates the word (hist[b] += 1 in
 * every thread): an atomic, since no barrier makes concurrent updates
 * indivisible.  Otherwise the other side may be the same update (an
 * atomic) or only read or write it (order the two): both are said. */
static void rmw_fix(wl_finding *f, const ep *prev, const ep *cur, int both) {
  int warp = prev->blk == cur->blk && prev->thread / 32 == cur->thread / 32;
  const ep *upd = EP_KIND(cur) == WL_ACC_STORE && (cur->sem & EP_RMW)
                      ? cur : prev;
  const ep *other = upd == cur ? prev : cur;
  const char *scope = prev->blk != cur->blk
                          ? " at .gpu scope (not atomicAdd_block: threads "
                            "of other blocks update it)"
                          : " (atomicAdd_block if only the block's threads "
                            "use it)";
  if (both)
    snprintf(f->fix, sizeof f->fix,
             "threads %d and %d both update it with a non-atomic "
             "read-modify-write (like hist[b] += 1), so updates are lost: "
             "use atomicAdd (or the matching atomicSub/Max/Min/And/Or/Xor/"
             "Exch/CAS)%s; no barrier makes the updates indivisible",
             prev->thread, cur->thread, scope);
  else
    snprintf(f->fix, sizeof f->fix,
             "thread %d updates it with a non-atomic read-modify-write and "
             "thread %d %s it: if both update it (like hist[b] += 1), use "
             "atomicAdd (or the matching atomicSub/Max/.../CAS)%s; if not, "
             "order the two with %s",
             upd->thread, other->thread,
             EP_KIND(other) == WL_ACC_STORE ? "writes" : "reads",
             prev->blk != cur->blk ? " at .gpu scope" : "",
             warp                    ? "__syncwarp()"
             : prev->blk == cur->blk ? "__syncthreads()"
                                     : "a release/acquire flag");
}

void wl__chk_race(wl__chk *c, const cslot *s, const ep *prev,
                  const ep *cur, int space, const wl__chk_mem *m) {
  int warp = prev->blk == cur->blk && prev->thread / 32 == cur->thread / 32;
  int fresh, rmw_prev, rmw_cur, rmw, both;
  wl_finding *f = find_or_add(c, warp ? WL_FIND_WARP_RACE : WL_FIND_RACE,
                              cur->line, prev->line, &fresh);
  (void)s;
  rmw_prev = EP_KIND(prev) == WL_ACC_STORE && (prev->sem & EP_RMW);
  rmw_cur = EP_KIND(cur) == WL_ACC_STORE && (cur->sem & EP_RMW);
  rmw = (rmw_prev || rmw_cur) && !strong(prev) && !strong(cur);
  /* both update it: both stores are such, or a store at the line of
   * another thread's update (the same statement: its read was overtaken
   * by that update's write) */
  both = rmw && ((rmw_prev && rmw_cur) ||
                 (EP_KIND(prev) == WL_ACC_STORE &&
                  EP_KIND(cur) == WL_ACC_STORE && prev->line == cur->line));
  if (f != NULL && !fresh && both &&
      strstr(f->fix, "so updates are lost") == NULL) {
    /* a later race of the same lines shows what the first did not */
    fill_access(c, cur, &f->a);
    fill_access(c, prev, &f->b);
    rmw_fix(f, prev, cur, 1);
    return;
  }
  if (f == NULL || !fresh)
    return;
  where(f, space, m);
  fill_access(c, cur, &f->a);
  fill_access(c, prev, &f->b);
  if (rmw)
    rmw_fix(f, prev, cur, both);
  else if (warp)
    snprintf(f->fix, sizeof f->fix,
             "lanes %d and %d of warp %d are not ordered: put __syncwarp() "
             "between the two accesses (since Volta the lanes of a warp "
             "need not run in lockstep; a warp primitive orders no memory)",
             prev->thread % 32, cur->thread % 32, cur->thread / 32);
  else if (prev->blk == cur->blk)
    snprintf(f->fix, sizeof f->fix,
             "threads %d and %d of the block are in different warps: put "
             "__syncthreads() between the two accesses%s",
             prev->thread, cur->thread,
             strong(prev) || strong(cur)
                 ? ", or make both strong (atomic, volatile, or "
                   ".relaxed/.acquire/.release)"
                 : "");
  else if (strong(prev) && strong(cur))
    snprintf(f->fix, sizeof f->fix,
             "both accesses are strong but a .cta scope does not include "
             "a thread of another block: use .gpu scope (atomicAdd, not "
             "atomicAdd_block; __threadfence, not __threadfence_block)");
  else
    snprintf(f->fix, sizeof f->fix,
             "nothing orders accesses of different blocks here: the "
             "writer must release (__threadfence() then a flag store, or "
             "st.release.gpu) and the reader acquire that flag "
             "(ld.acquire.gpu, or a load then __threadfence()) before its "
             "access; or make both accesses strong (atomic or volatile)");
}

/* once per line: uninitialised reads and spins */
static int first_warning(wl__chk *c, int kind, int line) {
  uint32_t key = (uint32_t)line * 4u + (uint32_t)kind, i;
  i = (key * 2654435761u) % 512;
  for (;;) {
    if (c->warned[i] == key + 1)
      return 0;
    if (c->warned[i] == 0)
      break;
    i = (i + 1) % 512;
    if (i == (key * 2654435761u) % 512)
      return 0; /* full: stay quiet */
  }
  c->warned[i] = key + 1;
  return 1;
}

void wl__chk_warn(wl__chk *c, const cslot *s, int thread, int kind,
                  const wl_access *a, const wl__chk_mem *m) {
  int fresh;
  wl_finding *f;
  ep e;
  if (!first_warning(c, kind, a->line)) {
    size_t i;
    for (i = 0; i < c->finds.n; i++) {
      f = WL_VEC_PTR(&c->finds, wl_finding, i);
      if (f->kind == kind && f->a.line == a->line) {
        f->count++;
        break;
      }
    }
    return;
  }
  if ((f = find_or_add(c, kind, a->line, a->line, &fresh)) == NULL || !fresh)
    return;
  where(f, a->space, m);
  memset(&e, 0, sizeof e);
  e.blk = s->block + 1;
  e.thread = (uint16_t)thread;
  e.bits = (uint8_t)(a->kind | (a->scope & 3) << 2);
  e.sem = (uint8_t)a->sem;
  e.line = a->line;
  fill_access(c, &e, &f->a);
  f->b.block = f->b.thread = -1;
  if (kind == WL_FIND_UNINIT)
    snprintf(f->fix, sizeof f->fix,
             "no store and no host copy wrote this %s word before: the "
             "value loaded is undefined (cudaMalloc and __shared__ memory "
             "start uninitialised)",
             space_words[a->space]);
  else
    snprintf(f->fix, sizeof f->fix,
             "a weak load polled in a loop: the compiler may load it once "
             "and spin forever, and no store is ordered before it; use a "
             "volatile, .relaxed or .acquire load (or an atomic)");
}

int wl__chk_shfl(wl__chk *c, int slot, int thread, int src, int line,
                 const char *fix) {
  cslot *s = &c->slots[slot];
  wl_finding *f;
  int fresh;
  ep e;
  if (!(c->cfg.flags & WL_CHECK_RACES))
    return 0;
  if ((f = find_or_add(c, WL_FIND_SHFL, line, line, &fresh)) == NULL ||
      !fresh)
    return 0;
  f->space = WL_SPACE_LOCAL; /* registers: no memory */
  f->name[0] = 0;
  f->id = -1;
  f->off = f->addr = 0;
  memset(&e, 0, sizeof e);
  e.blk = s->block + 1;
  e.thread = (uint16_t)thread;
  e.line = line;
  fill_access(c, &e, &f->a);
  e.thread = (uint16_t)src;
  fill_access(c, &e, &f->b);
  snprintf(f->fix, sizeof f->fix, "%s", fix);
  return 0;
}

int wl__chk_nfindings(const wl__chk *c) { return (int)c->finds.n; }

const wl_finding *wl__chk_finding(const wl__chk *c, int i) {
  if (i < 0 || (size_t)i >= c->finds.n)
    return NULL;
  return WL_VEC_PTR(&c->finds, wl_finding, (size_t)i);
}
