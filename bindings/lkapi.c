/* lkapi.c -- the device API inside kernels: the methods of a thread's
 * context `c` (c:load, c:store, c:atom, atomicAdd..., c:fence,
 * __threadfence..., the warp operations, c:syncthreads, __shared__ and
 * local arrays).  Each runs for the running lane of the launch in progress
 * and goes through the gate (lkernel.c), so that the probe can stop a
 * thread at its first device call. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lkernel.h"
/* ------------------------------------------------------------------ */
/* the device API inside kernels: c:method(...)                        */
/* ------------------------------------------------------------------ */

static const char *const load_sems[] = {"weak", "relaxed", "acquire", NULL};
static const int load_semv[] = {WL_SEM_WEAK, WL_SEM_RELAXED, WL_SEM_ACQUIRE};
static const char *const store_sems[] = {"weak", "relaxed", "release", NULL};
static const int store_semv[] = {WL_SEM_WEAK, WL_SEM_RELAXED, WL_SEM_RELEASE};
static const char *const scopes[] = {"cta", "gpu", "sys", NULL};
static const int scopev[] = {WL_SCOPE_CTA, WL_SCOPE_GPU, WL_SCOPE_SYS};

/* c:load(A, i [, sem [, scope]]) */
static int c_load(lua_State *L) {
  int sem, scope = WL_SCOPE_NONE;
  lua_remove(L, 1);
  sem = load_semv[wll_checkword(L, 3, "weak", load_sems, "load semantics")];
  if (sem != WL_SEM_WEAK)
    scope = scopev[wll_checkword(L, 4, "gpu", scopes, "scope")];
  lua_settop(L, 2);
  return wll_load_with(L, sem, scope, WL_CACHE_CA);
}

/* c:store(A, i, v [, sem [, scope]]) */
static int c_store(lua_State *L) {
  int sem, scope = WL_SCOPE_NONE;
  lua_remove(L, 1);
  sem = store_semv[wll_checkword(L, 4, "weak", store_sems,
                                 "store semantics")];
  if (sem != WL_SEM_WEAK)
    scope = scopev[wll_checkword(L, 5, "gpu", scopes, "scope")];
  lua_settop(L, 3);
  return wll_store_with(L, sem, scope, WL_CACHE_CA, 3);
}

/* volatile = ld/st.relaxed.sys (no L1 copy) */
static int c_volatile_load(lua_State *L) {
  lua_remove(L, 1);
  lua_settop(L, 2);
  return wll_load_with(L, WL_SEM_RELAXED, WL_SCOPE_SYS, WL_CACHE_VOLATILE);
}

static int c_volatile_store(lua_State *L) {
  lua_remove(L, 1);
  lua_settop(L, 3);
  return wll_store_with(L, WL_SEM_RELAXED, WL_SCOPE_SYS, WL_CACHE_VOLATILE, 3);
}

/* __ldg: the read-only data path */
static int c_ldg(lua_State *L) {
  lua_remove(L, 1);
  lua_settop(L, 2);
  return wll_load_with(L, WL_SEM_WEAK, WL_SCOPE_NONE, WL_CACHE_LDG);
}

/* c:ld(A, i, op) with a PTX cache operator: ca, cg, cs, cv, lu */
static const char *const ld_ops[] = {"ca", "cg", "cs", "cv", "lu", NULL};
static const int ld_opv[] = {WL_CACHE_CA, WL_CACHE_CG, WL_CACHE_CS,
                             WL_CACHE_CV, WL_CACHE_CS};
static int c_ld(lua_State *L) {
  int op = ld_opv[wll_checkword(L, 4, "ca", ld_ops, "cache operator")];
  lua_remove(L, 1);
  lua_settop(L, 2);
  return wll_load_with(L, WL_SEM_WEAK, WL_SCOPE_NONE, op);
}

/* c:st(A, i, v, op): wb, cg, cs, wt */
static const char *const st_ops[] = {"wb", "cg", "cs", "wt", NULL};
static const int st_opv[] = {WL_CACHE_CA, WL_CACHE_CG, WL_CACHE_CS,
                             WL_CACHE_CV};
static int c_st(lua_State *L) {
  int op = st_opv[wll_checkword(L, 5, "wb", st_ops, "cache operator")];
  lua_remove(L, 1);
  lua_settop(L, 3);
  return wll_store_with(L, WL_SEM_WEAK, WL_SCOPE_NONE, op, 3);
}

static int atomic_with(lua_State *L, int op, int sem, int scope, int aarg,
                       int barg, int ptx) {
  krun *r = wll_kernel_running(L);
  darray *a = wll_kernel_checkarr(L, 1);
  uint64_t off = wll_elem_off(L, r, a, 2);
  wl_access acc;
  uint8_t buf[16] = {0};
  char why[200];
  int rc;
  memset(&acc, 0, sizeof acc);
  if (a->type >= NSCALAR)
    wll_lane_fail(L, r, "atomics need a scalar array; '%s' holds %s", a->name,
                  type_words[a->type]);
  if (wll_atomic16_refusal(a->type, op, ptx, r->sm, a->name, why,
                           sizeof why) != NULL)
    wll_lane_fail(L, r, "%s", why);
  if (a->type == WL_TYPE_FLOAT || a->type == WL_TYPE_DOUBLE) {
    if (op != WL_OP_ADD && op != WL_OP_SUB && op != WL_OP_EXCH &&
        op != WL_OP_MIN && op != WL_OP_MAX && op != WL_OP_CAS)
      wll_lane_fail(L, r,
                    "this atomic operation needs an integer array, '%s' "
                    "holds %s",
                    a->name, type_words[a->type]);
  }
  acc.kind = WL_ACC_ATOMIC;
  acc.op = op;
  acc.sem = sem;
  acc.scope = scope;
  acc.a = wll_tocarrier(L, type_base[a->type], aarg);
  acc.b = barg ? wll_tocarrier(L, type_base[a->type], barg) : 0;
  rc = wll_do_access(L, r, a, off, &acc, buf);
  if (rc >= 0)
    wll_pushbytes(L, a->type, buf);
  return wll_finish(L, r, rc, 1);
}

/* c:atomicAdd(A, i, v) and friends; upvalues: kstate, op, scope */
static int c_cuda_atomic(lua_State *L) {
  int op = (int)lua_tointeger(L, lua_upvalueindex(2));
  int scope = (int)lua_tointeger(L, lua_upvalueindex(3));
  lua_remove(L, 1);
  if (op == WL_OP_MIN || op == WL_OP_MAX) { /* CUDA has none for floats */
    darray *a = wll_kernel_checkarr(L, 1);
    if (type_base[a->type] == WL_TYPE_FLOAT ||
        type_base[a->type] == WL_TYPE_DOUBLE)
      return wll_lane_fail(L, wll_kernel_running(L),
                           "CUDA has no %s for %s ('%s'); use atomicCAS on its "
                           "bits, or c:atomic_fetch_%s",
                           op == WL_OP_MIN ? "atomicMin" : "atomicMax",
                           type_words[a->type], a->name,
                           op == WL_OP_MIN ? "min" : "max");
  }
  return atomic_with(L, op, WL_SEM_RELAXED, scope, 3,
                     op == WL_OP_CAS ? 4 : 0, 0);
}

/* c:atom(op, A, i, a [, b], sem, scope) */
static const char *const atom_ops[] = {"add", "sub", "mul",  "div", "rem",
                                       "and", "or",  "xor",  "min", "max",
                                       "inc", "dec", "exch", "cas", NULL};
static const char *const atom_sems[] = {"relaxed", "acquire", "release",
                                        "acq_rel", NULL};
static const int atom_semv[] = {WL_SEM_RELAXED, WL_SEM_ACQUIRE, WL_SEM_RELEASE,
                                WL_SEM_ACQ_REL};
static int c_atom(lua_State *L) {
  int op = wll_checkword(L, 2, NULL, atom_ops, "atomic operation");
  int arg = op == WL_OP_CAS ? 7 : 6;
  int sem = atom_semv[wll_checkword(L, arg, "relaxed", atom_sems,
                                    "atomic semantics")];
  int scope = scopev[wll_checkword(L, arg + 1, "gpu", scopes, "scope")];
  lua_remove(L, 1);
  lua_remove(L, 1); /* A, i, a [, b] */
  return atomic_with(L, op, sem, scope, 3, op == WL_OP_CAS ? 4 : 0, 1);
}

/* cuda::atomic_ref-style: c:atomic_load(A, i [, order [, scope]]) ... */
static const char *const ld_orders[] = {"relaxed", "acquire", "seq_cst",
                                        NULL};
static const char *const st_orders[] = {"relaxed", "release", "seq_cst",
                                        NULL};
static const char *const rmw_orders[] = {"relaxed", "acquire", "release",
                                         "acq_rel", "seq_cst", NULL};

static int do_fence(lua_State *L, krun *r, int sem, int scope) {
  int rc;
  if (r->rp != NULL) /* replaying the lane (lkreplay.c) */
    return wll_replay_fence(L, r, sem, scope);
  while ((rc = wl_kernel_fence(r->l, r->block, r->thread, sem, scope,
                               wll_curline(L))) == WL_KERNEL_REPLAY)
    wll_replay_run(L, r); /* a deferred load read a new value */
  if (rc != 0)
    return wll_kernel_raise(L, r);
  if (r->defer)
    wll_log_fence(L, r, sem, scope);
  return 0;
}

/* A device call the lane's log cannot repeat: a replay fails at it, and
 * the lane stops logging (its loads are no longer deferred). */
static void unloggable(lua_State *L, krun *r) {
  if (r->rp != NULL)
    wll_replay_fail(L, r);
  wll_rlog_stop(L, r);
}

/* After a fence: a lane that waits it out (WL_LANE_STALLED: a gpu/sys
 * fence.sc on a profile with a stall) yields, and runs again once the
 * wait is over. */
static int stall_yield(lua_State *L, krun *r) {
  if (r->rp == NULL &&
      wl_kernel_lane_state(r->l, r->block, r->thread) == WL_LANE_STALLED)
    return lua_yield(L, 0);
  return 0;
}

static int c_atomic_load(lua_State *L) {
  krun *r = wll_kernel_running(L);
  int o = wll_checkword(L, 4, "seq_cst", ld_orders, "memory order");
  int scope = scopev[wll_checkword(L, 5, "gpu", scopes, "scope")];
  if (o == 2)
    do_fence(L, r, WL_SEM_SC, scope);
  lua_remove(L, 1);
  lua_settop(L, 2);
  return wll_load_with(L, o == 0 ? WL_SEM_RELAXED : WL_SEM_ACQUIRE, scope,
                       WL_CACHE_CG);
}

static int c_atomic_store(lua_State *L) {
  krun *r = wll_kernel_running(L);
  int o = wll_checkword(L, 5, "seq_cst", st_orders, "memory order");
  int scope = scopev[wll_checkword(L, 6, "gpu", scopes, "scope")];
  if (o == 2)
    do_fence(L, r, WL_SEM_SC, scope);
  lua_remove(L, 1);
  lua_settop(L, 3);
  return wll_store_with(L, o == 0 ? WL_SEM_RELAXED : WL_SEM_RELEASE, scope,
                        WL_CACHE_CG, 3);
}

/* c:atomic_fetch_add(A, i, v [, order [, scope]]) etc.; upvalue 2: op */
static int c_atomic_rmw(lua_State *L) {
  int op = (int)lua_tointeger(L, lua_upvalueindex(2));
  int arg = op == WL_OP_CAS ? 6 : 5;
  krun *r = wll_kernel_running(L);
  int o = wll_checkword(L, arg, "seq_cst", rmw_orders, "memory order");
  int scope = scopev[wll_checkword(L, arg + 1, "gpu", scopes, "scope")];
  static const int semv[] = {WL_SEM_RELAXED, WL_SEM_ACQUIRE, WL_SEM_RELEASE,
                             WL_SEM_ACQ_REL, WL_SEM_ACQ_REL};
  if (o == 4)
    do_fence(L, r, WL_SEM_SC, scope);
  lua_remove(L, 1);
  return atomic_with(L, op, semv[o], scope, 3, op == WL_OP_CAS ? 4 : 0, 0);
}

/* __threadfence_block / __threadfence / __threadfence_system; upvalue 2 */
static int c_threadfence(lua_State *L) {
  krun *r = wll_kernel_running(L);
  do_fence(L, r, WL_SEM_SC, (int)lua_tointeger(L, lua_upvalueindex(2)));
  return stall_yield(L, r);
}

static int c_fence(lua_State *L) {
  static const char *const fs[] = {"sc", "acq_rel", NULL};
  krun *r = wll_kernel_running(L);
  int sem = wll_checkword(L, 2, "sc", fs, "fence semantics") == 0
                ? WL_SEM_SC
                : WL_SEM_ACQ_REL;
  int scope = scopev[wll_checkword(L, 3, "gpu", scopes, "scope")];
  do_fence(L, r, sem, scope);
  return stall_yield(L, r);
}

/* After a warp operation's rendezvous: its result (ctx: WL_WARP_*). */
static int warp_op_k(lua_State *L, int status, lua_KContext ctx) {
  krun *r = wll_kernel_running(L);
  int isint = 1, kind = (int)ctx;
  int64_t v = wl_kernel_warp_result(r->l, r->block, r->thread, &isint);
  (void)status;
  switch (kind) {
  case WL_WARP_SYNC:
    return 0;
  case WL_WARP_BALLOT:
    lua_pushinteger(L, (lua_Integer)(uint32_t)v);
    return 1;
  case WL_WARP_ANY:
  case WL_WARP_ALL:
    lua_pushboolean(L, v != 0);
    return 1;
  default:
    if (isint) {
      lua_pushinteger(L, (lua_Integer)v);
    } else {
      double d;
      memcpy(&d, &v, sizeof d);
      lua_pushnumber(L, d);
    }
    return 1;
  }
}

/* A vote's predicate: false, nil and the number 0 are false. */
int wll_predicate(lua_State *L, int idx) {
  if (lua_type(L, idx) == LUA_TNUMBER)
    return lua_tonumber(L, idx) != 0;
  return lua_toboolean(L, idx);
}

/* c:syncwarp([mask]), c:shfl_sync(mask, v, src [, width]),
 * c:shfl_up_sync / shfl_down_sync (mask, v, delta [, width]),
 * c:shfl_xor_sync(mask, v, lanemask [, width]), c:ballot_sync(mask, p),
 * c:any_sync(mask, p), c:all_sync(mask, p); upvalue 2: WL_WARP_* */
static int c_warp_op(lua_State *L) {
  int kind = (int)lua_tointeger(L, lua_upvalueindex(2));
  krun *r = wll_kernel_running(L);
  wl_warp_op op;
  memset(&op, 0, sizeof op);
  unloggable(L, r);
  op.kind = kind;
  op.width = 32;
  op.line = wll_curline(L);
  op.mask = kind == WL_WARP_SYNC && lua_isnoneornil(L, 2)
                ? 0xffffffffu
                : (uint32_t)luaL_checkinteger(L, 2);
  if (kind >= WL_WARP_SHFL && kind <= WL_WARP_SHFL_XOR) {
    luaL_checknumber(L, 3);
    if (lua_isinteger(L, 3)) {
      op.isint = 1;
      op.value = (int64_t)lua_tointeger(L, 3);
    } else {
      double d = lua_tonumber(L, 3);
      memcpy(&op.value, &d, sizeof d);
    }
    op.arg = (int)luaL_checkinteger(L, 4);
    op.width = (int)luaL_optinteger(L, 5, 32);
  } else if (kind != WL_WARP_SYNC) {
    luaL_checkany(L, 3);
    op.value = wll_predicate(L, 3);
  }
  if (wl_kernel_warp_op(r->l, r->block, r->thread, &op) != 0)
    return wll_kernel_raise(L, r);
  return lua_yieldk(L, 0, (lua_KContext)kind, warp_op_k);
}

static int c_syncthreads(lua_State *L) {
  krun *r = wll_kernel_running(L);
  unloggable(L, r);
  /* the line as an access finds it (cached by pc: lua_getinfo per
   * barrier was a twentieth of a tiled kernel's time) */
  if (wl_kernel_barrier(r->l, r->block, r->thread,
                        wll_site_line(L, r->ks)) != 0)
    return wll_kernel_raise(L, r);
  return lua_yield(L, 0);
}
/* Records a declaration the probe made (its array is at the top of the
 * stack), to be made in the engine when the launch starts (replay). */
static void probe_decl(lua_State *L, krun *r, darray *a, int type,
                       lua_Integer n, int ext, lua_Integer off, int nset,
                       uint32_t lanes) {
  wll_pdecl *p;
  if (r->npdecl == WLL_PROBE_DECLS)
    luaL_error(L, "more than %d __shared__ declarations before the kernel's "
                  "first device access (give static_shared = bytes)",
               WLL_PROBE_DECLS);
  lua_rawgeti(L, LUA_REGISTRYINDEX, r->probe_ref);
  lua_pushvalue(L, -2);
  lua_rawseti(L, -2, r->npdecl + 1); /* anchored until the launch ends */
  lua_pop(L, 1);
  p = &r->pdecl[r->npdecl++];
  p->a = a;
  p->type = type;
  p->ext = ext;
  p->line = wll_curline(L);
  p->n = n;
  p->off = off;
  p->nset = nset;
  p->lanes = lanes;
}

void wll_kernel_shared(lua_State *L, wll_krun *r, int type, lua_Integer n,
                       const char *name, uint32_t lanes) {
  uint64_t size = 0;
  int id = -1, lane, first = -1, line;
  darray *a;
  uint64_t bytes = wll_bytes(L, n, type_sizes[type], "shared array");
  if (r->probe) {
    uint64_t al = (uint64_t)type_sizes[type];
    if (wl_size_add((r->probe_shared + al - 1) / al * al, bytes,
                    &r->probe_shared) != 0)
      r->probe_shared = UINT64_MAX;
    a = wll_newarr(L, NULL, -1, WL_SPACE_SHARED, type, n, name);
    probe_decl(L, r, a, type, n, 0, 0, 1, lanes);
    return;
  }
  if (!r->warp_mode)
    unloggable(L, r);
  /* a warp declares it for each of its threads: the k-th declaration of
   * every thread is the block's k-th array (one call site: its line
   * found once) */
  line = wll_site_line(L, r->ks);
  for (lane = 0; lane < 32; lane++) {
    int t = lanes ? r->warp * 32 + lane : r->thread, k;
    if (lanes && !(lanes >> lane & 1))
      continue;
    if (wl_kernel_shared(r->l, r->block, t, bytes, type_sizes[type], 0,
                         line, &k, &size) != 0)
      wll_kernel_raise(L, r);
    if (first < 0)
      first = id = k;
    if (!lanes)
      break;
  }
  a = wll_newarr(L, NULL, id, WL_SPACE_SHARED, type,
                 (lua_Integer)(size / (uint64_t)type_sizes[type]), name);
  a->gen = r->gen;
  /* every thread of the block names it (the same name, mostly: written
   * only when it differs) */
  if (id >= 0 && id < WLL_PROBE_DECLS &&
      strncmp(r->shname[id], name, sizeof r->shname[id] - 1) != 0)
    snprintf(r->shname[id], sizeof r->shname[id], "%s", name);
}

/* c:shared(type, n [, name]) -- a __shared__ array of the block: the
 * k-th declaration a thread makes is the block's k-th array */
static int c_shared(lua_State *L) {
  kstate *ks = KS(L);
  krun *r = ks->run;
  int type = wll_checktype(L, 2);
  lua_Integer n = luaL_checkinteger(L, 3);
  const char *name = luaL_optstring(L, 4, "shared");
  if (r == NULL)
    return luaL_error(L, "c:shared can only be called inside a kernel");
  if (n < 0)
    return luaL_argerror(L, 3, "negative array size");
  wll_kernel_shared(L, r, type, n, name, 0);
  return 1;
}

/* c:extern_shared(type [, byte_offset [, n [, name]]]) -- a typed view of
 * the block's dynamic shared region (extern __shared__, sized by the
 * launch's shared = bytes), carved at byte_offset, which must be aligned
 * to the type's size */
static int c_extern_shared(lua_State *L) {
  kstate *ks = KS(L);
  krun *r = ks->run;
  int type = wll_checktype(L, 2), id, es = type_sizes[type];
  lua_Integer off = luaL_optinteger(L, 3, 0);
  const char *name = luaL_optstring(L, 5, "extern shared");
  uint64_t size;
  lua_Integer n;
  darray *a;
  if (r == NULL)
    return luaL_error(L, "c:extern_shared can only be called inside a "
                         "kernel");
  if (r->probe) {
    if (off < 0 || off % es != 0)
      return wll_lane_fail(L, r,
                           "extern shared view '%s' at byte offset %lld "
                           "is misaligned for %s (a multiple of %d needed)",
                           name, (long long)off, type_words[type], es);
    /* n is read before the view is pushed: pushed, it would be read as
     * argument 4 when the call gives none */
    lua_Integer pn = luaL_optinteger(L, 4, 0);
    int nset = !lua_isnoneornil(L, 4);
    /* its length is known now (the launch's dynamic bytes), so that #v
     * before the first device access is right; replay checks the fit */
    n = nset ? pn
        : (uint64_t)off < r->probe_dynamic
            ? (lua_Integer)((r->probe_dynamic - (uint64_t)off) / es)
            : 0;
    a = wll_newarr(L, NULL, -1, WL_SPACE_SHARED, type, n, name);
    probe_decl(L, r, a, type, pn, 1, off, nset, 0);
    return 1;
  }
  unloggable(L, r);
  if (wl_kernel_shared(r->l, r->block, r->thread, 0, 16, 1, wll_curline(L),
                       &id, &size) != 0)
    return wll_kernel_raise(L, r);
  if (off < 0 || off % es != 0)
    return wll_lane_fail(L, r,
                         "extern shared view '%s' at byte offset %lld is "
                         "misaligned for %s (a multiple of %d needed)",
                         name, (long long)off, type_words[type], es);
  n = lua_isnoneornil(L, 4) ? ((lua_Integer)size - off) / es
                            : luaL_checkinteger(L, 4);
  if (!wl_range_inside(off / es, n, 0, (lua_Integer)(size / (uint64_t)es)))
    return wll_lane_fail(L, r,
                         "extern shared view '%s' (%lld x %s at byte %lld) "
                         "does not fit the launch's %llu dynamic bytes "
                         "(launch option shared =)",
                         name, (long long)n, type_words[type], (long long)off,
                         (unsigned long long)size);
  a = wll_newarr(L, NULL, id, WL_SPACE_SHARED, type, n, name);
  a->base = (uint64_t)off;
  a->gen = r->gen;
  return 1;
}
/* c:load_vec(V, i) -> its components (a float4 load is one 16-byte
 * access per lane) */
static int c_load_vec(lua_State *L) {
  krun *r = wll_kernel_running(L);
  darray *a = wll_kernel_checkarr(L, 2);
  uint64_t off = wll_elem_off(L, r, a, 3);
  wl_access acc;
  uint8_t buf[16] = {0};
  int rc, k, nc = wll_type_ncomp[a->type], cs = a->esize / nc;
  memset(&acc, 0, sizeof acc);
  acc.kind = WL_ACC_LOAD;
  acc.sem = WL_SEM_WEAK;
  acc.cache = WL_CACHE_CA;
  rc = wll_do_access(L, r, a, off, &acc, buf);
  if (rc >= 0)
    for (k = 0; k < nc; k++)
      wll_pushbytes(L, type_base[a->type], buf + k * cs);
  return wll_finish(L, r, rc, nc);
}

/* c:store_vec(V, i, x, y [, z, w]) */
static int c_store_vec(lua_State *L) {
  krun *r = wll_kernel_running(L);
  darray *a = wll_kernel_checkarr(L, 2);
  uint64_t off = wll_elem_off(L, r, a, 3);
  wl_access acc;
  uint8_t buf[16] = {0};
  int k, nc = wll_type_ncomp[a->type], cs = a->esize / nc;
  memset(&acc, 0, sizeof acc);
  acc.kind = WL_ACC_STORE;
  acc.sem = WL_SEM_WEAK;
  acc.cache = WL_CACHE_CA;
  for (k = 0; k < nc; k++) {
    if (lua_isnoneornil(L, 4 + k))
      wll_lane_fail(L, r, "c:store_vec to '%s' needs %d components", a->name,
                    nc);
    wll_tobytes(L, type_base[a->type], 4 + k, buf + k * cs);
  }
  return wll_finish(L, r, wll_do_access(L, r, a, off, &acc, buf), 0);
}

/* c:local_array(type, n [, name]) */
static int c_local_array(lua_State *L) {
  krun *r = wll_kernel_running(L);
  int type = wll_checktype(L, 2), id;
  lua_Integer n = luaL_checkinteger(L, 3);
  darray *a;
  if (n < 0)
    return luaL_argerror(L, 3, "negative array size");
  unloggable(L, r);
  if (wl_kernel_local(r->l, r->block, r->thread,
                      wll_bytes(L, n, type_sizes[type], "c:local_array"),
                      wll_curline(L), &id) != 0)
    return wll_kernel_raise(L, r);
  a = wll_newarr(L, NULL, id, WL_SPACE_LOCAL, type, n,
                 luaL_optstring(L, 4, "local"));
  a->gen = r->gen;
  return 1;
}

static const luaL_Reg c_methods[] = {
    {"load", c_load},
    {"store", c_store},
    {"volatile_load", c_volatile_load},
    {"volatile_store", c_volatile_store},
    {"ldg", c_ldg},
    {"ld", c_ld},
    {"st", c_st},
    {"atom", c_atom},
    {"atomic_load", c_atomic_load},
    {"atomic_store", c_atomic_store},
    {"fence", c_fence},
    {"syncthreads", c_syncthreads},
    {"shared", c_shared},
    {"extern_shared", c_extern_shared},
    {"local_array", c_local_array},
    {"load_vec", c_load_vec},
    {"store_vec", c_store_vec},
    {NULL, NULL}};

/* The methods table (pushed), with the kstate at stack index ks. */
static const lua_CFunction f_cuda_atomic = c_cuda_atomic;
static const lua_CFunction f_atomic_rmw = c_atomic_rmw;
static const lua_CFunction f_threadfence = c_threadfence;
static const lua_CFunction f_warp_op = c_warp_op;

void wll_push_c_methods(lua_State *L, int ks) {
  static const char *const keep[] = {"shared", "extern_shared", NULL};
  size_t i, j;
  lua_newtable(L);
  lua_pushvalue(L, ks);
  wll_setfuncs_gated(L, c_methods, 1, keep);
  for (i = 0; wll_cuda_atomics[i].name != NULL; i++)
    for (j = 0; j < 3; j++) {
      char name[48];
      snprintf(name, sizeof name, "%s%s", wll_cuda_atomics[i].name, wll_scope_suffixes[j]);
      lua_pushvalue(L, ks);
      lua_pushinteger(L, wll_cuda_atomics[i].op);
      lua_pushinteger(L, wll_suffix_scope[j]);
      wll_push_gated(L, &f_cuda_atomic, 3);
      lua_setfield(L, -2, name);
    }
  for (i = 0; wll_atomic_rmws[i].name != NULL; i++) {
    lua_pushvalue(L, ks);
    lua_pushinteger(L, wll_atomic_rmws[i].op);
    wll_push_gated(L, &f_atomic_rmw, 2);
    lua_setfield(L, -2, wll_atomic_rmws[i].name);
  }
  for (i = 0; i < 3; i++) {
    lua_pushvalue(L, ks);
    lua_pushinteger(L, wll_suffix_scope[i]);
    wll_push_gated(L, &f_threadfence, 2);
    lua_setfield(L, -2, wll_fence_names[i]);
  }
  for (i = 0; wll_warp_ops[i] != NULL; i++) {
    lua_pushvalue(L, ks);
    lua_pushinteger(L, (lua_Integer)i);
    wll_push_gated(L, &f_warp_op, 2);
    lua_setfield(L, -2, wll_warp_ops[i]);
  }
}
