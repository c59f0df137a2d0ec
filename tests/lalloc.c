/* lalloc.c -- the Lua-level allocation-failure sweep of the bindings
 * (Lua's testes/api.lua `testalloc`, SQLite's fault simulator).
 *
 * Each case is a Lua snippet calling the module.  For n = 1, 2, ... it
 * runs in a fresh lua_State whose lua_Alloc fails the n-th allocation
 * made after the state is set up (standard libraries opened, the module
 * required) and every one after it, until a run makes no more than n - 1 allocations and so
 * completes.  Every failed run must end in a clean Lua error whose
 * message says "not enough memory" (Lua's) or "out of memory" (the
 * engine's, as the bindings report it), never another error (a binding
 * that went on with a half-made object) and never a crash; after
 * lua_close, every block the allocator handed out must be back
 * (valgrind and ASan check the engine's own allocations).
 *
 *   lalloc [--step K] [--case NAME] [SHARED]
 *
 * --step K tries every K-th failure point only (valgrind runs use it);
 * SHARED is the folder holding spec/ (for wl.model).  Prints one line
 * per case and "lalloc: N passed, N failed"; exit 1 on a failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "unit/faulty.h"

int luaopen_warplab(lua_State *L);

typedef struct lcase {
  const char *name;
  const char *code;
} lcase;

/* The snippets: each asserts its results, so that a call that returned
 * a wrong value after a failure is caught as a non-memory error. */
static const lcase cases[] = {
    {"litmus_explore",
     "local t = wl.litmus { name = 'MP', init = { x = 0, y = 0 },\n"
     "  { 'st.weak x, 1', 'st.release.gpu y, 1' },\n"
     "  { at = 'cta1', 'ld.acquire.gpu r0, y', 'ld.weak r1, x' },\n"
     "  exists = '1:r0 == 1 /\\\\ 1:r1 == 0' }\n"
     "local r = t:explore()\n"
     "assert(r.nstates == 3 and not r.ok)\n"
     "assert(#r:herd() > 0 and #r:json() > 0 and #tostring(r) > 0)\n"
     "assert(#t:locations() == 2 and t.name == 'MP')\n"
     "r:close(); t:close()\n"},
    {"litmus_arrays_types",
     "local t = wl.litmus { init = { a = { 1, 2 }, f = 0.5 },\n"
     "  shared = { s = 0 }, types = { f = 'float', a = 'int32' },\n"
     "  { fn = function(d) d.a[1] = d.a[0] + #d.a; d.s = 1 end },\n"
     "  { at = 'cta0', 'atom.relaxed.gpu.add r1, f, 1', 'st.weak s, 2' },\n"
     "  forall = 'a[1] == 3' }\n"
     "assert(t:explore().ok)\n"},
    {"litmus_functions",
     "local t = wl.litmus { init = { x = 0, y = 0 },\n"
     "  function(d) d.x = 1; d:fence('sc', 'gpu')\n"
     "    d:store('y', 1, 'relaxed', 'gpu') end,\n"
     "  { at = 'cta1', fn = function(d)\n"
     "      local r0 = d:load('y', 'acquire', 'gpu')\n"
     "      return { r0 = r0, r1 = d.x } end },\n"
     "  exists = function(s) return s['1:r0'] == 1 and s['1:r1'] == 0 end }\n"
     "local r = t:explore()\n"
     "assert(r.ok == false, tostring(r.ok))\n"},
    {"sample",
     "local t = wl.parse([[\n"
     "PTX SB\n"
     "{ x=0; y=0; }\n"
     " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
     " st.weak x, 1 | st.weak y, 1 ;\n"
     " ld.weak r0, y | ld.weak r1, x ;\n"
     "exists (0:r0 == 0 /\\ 1:r1 == 0)\n"
     "]], 'sb.litmus')\n"
     "local s = t:sample { n = 200, seed = 3 }\n"
     "assert(#s.outcomes >= 1)\n"
     "assert(#tostring(s) > 0)\n"},
    {"sample_fn",
     "local t = wl.litmus { init = { x = 0 },\n"
     "  function(d) d:store('x', 1, 'relaxed', 'gpu') end,\n"
     "  function(d) return { r0 = d:load('x', 'relaxed', 'gpu') } end,\n"
     "  exists = '1:r0 == 1' }\n"
     "local s = t:sample { n = 50, seed = 1 }\n"
     "assert(#s.outcomes >= 1)\n"},
    {"float_results_json",
     "local t = wl.litmus { init = { f = 0.5 }, types = { f = 'float' },\n"
     "  function(d) return { o = d:atomicAdd('f', 0.25) } end,\n"
     "  { at = 'cta1', fn = function(d) d:atomicAdd('f', 1.0) end } }\n"
     "local r = t:explore()\n"
     "assert(math.type(r.states[1]['0:o']) == 'float')\n"
     "assert(#r:json() > 0 and #tostring(r) > 0)\n"
     "local s = t:sample { n = 20, seed = 1, jobs = 1 }\n"
     "assert(s:json():find('\"outcomes\"', 1, true))\n"},
    {"types16",
     "local dev = wl.device { preset = 'sm_90', sms = 1 }\n"
     "local H = dev:malloc('half', 4, 'H')\n"
     "H:write { 0.5, 1.5, 2.5, 3.5 }\n"
     "dev:launch(wl.kernel(function(c, H)\n"
     "  local s = c:extern_shared('short', 2, 4)\n"
     "  s[c.threadIdx.x] = -c.threadIdx.x\n"
     "  c:atomicAdd(H, c.threadIdx.x, 0.25)\n"
     "end), { block = 4, shared = 16 }, H)\n"
     "assert(H:read()[4] == 3.75)\n"},
    {"device_kernel",
     "local dev = wl.device { preset = 'sm_90', sms = 2 }\n"
     "local A = dev:malloc('float', 40, 'A')\n"
     "local B = dev:malloc('int32', 40, 'B')\n"
     "local a = {}\n"
     "for i = 1, 40 do a[i] = i end\n"
     "A:write(a)\n"
     "local k = wl.kernel(function(c, A, B, n)\n"
     "  local s = c:shared('int32', 64)\n"
     "  local i = c.blockIdx.x * c.blockDim.x + c.threadIdx.x\n"
     "  s[c.threadIdx.x] = i\n"
     "  c:syncthreads()\n"
     "  if i < n then B[i] = s[c.threadIdx.x] + math.floor(A[i]) end\n"
     "end)\n"
     "local r = dev:launch(k, { grid = 2, block = 32 }, A, B, 40)\n"
     "local out = B:read()\n"
     "assert(out[40] == 39 + 40, tostring(out[40]))\n"
     "assert(#tostring(r) > 0 and #r.sites > 0)\n"
     "dev:free(A)\n"},
    {"warp_kernel",
     "local dev = wl.device { preset = 'sm_80', sms = 1 }\n"
     "local I = dev:malloc('int64', 64, 'I')\n"
     "dev:launch(wl.warp_kernel(function(w, I)\n"
     "  local l = w.lane\n"
     "  I[l] = l * 2\n"
     "end), { grid = 1, block = 32 }, I)\n"
     "assert(I:read()[3] == 4)\n"},
    {"checked_kernel",
     "local dev = wl.device { preset = 'sm_80', sms = 1 }\n"
     "local A = dev:malloc('int32', 64, 'A')\n"
     "local r = dev:launch(wl.kernel(function(c, A)\n"
     "  local s = c:shared('int32', 64, 's')\n"
     "  local t = c.threadIdx.x\n"
     "  s[t] = t\n"
     "  local v = c:shfl_xor_sync(0xffffffff, t, 1)\n"
     "  c:syncwarp()\n"
     "  A[t] = s[(t + 33) % 64] + v\n"
     "end), { grid = 1, block = 64, check = true, schedule = 'random' },\n"
     "  A)\n"
     "assert(#r.findings > 0 and #r.findings[1].message > 0)\n"
     "assert(#wl.check_summary() > 0)\n"},
    {"extern_shared_atomics",
     "local dev = wl.device { preset = 'sm_70', sms = 1 }\n"
     "local F = dev:malloc('float', 1, 'F')\n"
     "local k = wl.kernel(function(c, F)\n"
     "  local f = c:extern_shared('float', 4)\n"
     "  f[c.threadIdx.x % 4] = 1.5\n"
     "  c:syncthreads()\n"
     "  c:atomicAdd(F, 0, f[0])\n"
     "end)\n"
     "dev:launch(k, { grid = 1, block = 8, shared = 20 }, F)\n"
     "assert(F:read()[1] == 12.0)\n"},
    {"gen",
     "local tests, names = wl.gen { family = 'MP',\n"
     "  annotations = { 'weak', 'ra' }, scopes = 'gpu',\n"
     "  placements = 'gpu' }\n"
     "assert(#tests == 2 and #names == 2)\n"
     "assert(not wl.parse(tests[2]):explore().ok)\n"
     "assert(next(wl.gen_families()))\n"},
    {"model",
     "local m = wl.model(SHARED .. '/spec/ptx-v6.0-isa.cat')\n"
     "assert(#tostring(m) > 0)\n"
     "local t = wl.litmus { init = { x = 0, y = 0 },\n"
     "  { 'st.weak x, 1', 'st.release.gpu y, 1' },\n"
     "  { at = 'cta1', 'ld.acquire.gpu r0, y', 'ld.weak r1, x' },\n"
     "  exists = '1:r0 == 1 /\\\\ 1:r1 == 0' }\n"
     "assert(t:explore { model = m }.nstates == 3)\n"},
    {"parse_load_corpus",
     "local t = wl.load('scripts/litmus/MP.litmus')\n"
     "assert(t.nthreads == 2)\n"
     "local ok, err = pcall(wl.parse, 'PTX bad\\n{', 'bad.litmus')\n"
     "assert(not ok and tostring(err):find('bad.litmus'))\n"
     "local c = wl.corpus('scripts/litmus', { filter = 'MP' })\n"
     "assert(#tostring(c) > 0)\n"},
    {"litmus_functions_text",
     "local spec = wl.litmus_functions([[\n"
     "PTX LB\n"
     "{ x=0; y=0; }\n"
     " P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n"
     " ld.weak r0, x | ld.weak r1, y ;\n"
     " st.weak y, 1 | st.weak x, 1 ;\n"
     "exists (0:r0 == 1 /\\ 1:r1 == 1)\n"
     "]], 'lb.litmus')\n"
     "assert(wl.litmus(spec):explore().ok)\n"},
    {"perf",
     "local offs = {}\n"
     "for i = 1, 32 do offs[i] = (i - 1) * 8 end\n"
     "local b = wl.bank_access { offsets = offs, width = 4 }\n"
     "assert(b.wavefronts >= 1)\n"
     "local g = wl.global_access { addresses = offs, width = 4 }\n"
     "assert(g.sectors >= 1)\n"
     "assert(#wl.heatmap { offsets = offs, width = 4 } > 0)\n"},
    {"errors",
     "local ok, err = pcall(wl.litmus, { { 'ld.bogus r0, x' } })\n"
     "assert(not ok and tostring(err):find('bogus'))\n"
     "ok, err = pcall(wl.device, { bogus = 1 })\n"
     "assert(not ok and tostring(err):find('bogus'))\n"
     "local dev = wl.device()\n"
     "local A = dev:malloc('int32', 4, 'A')\n"
     "ok, err = pcall(dev.launch, dev, wl.kernel(function(c, A)\n"
     "  A[c.threadIdx.x + 4] = 1 end), { block = 2 }, A)\n"
     "assert(not ok and tostring(err):find('out of bounds'))\n"},
    {NULL, NULL}};

typedef struct sweep {
  faulty fa;
  const lcase *c;
  const char *shared;
  long n;     /* the failure point, counted after the setup (0: none) */
  long setup; /* allocations made by the setup */
} sweep;

/* The state's allocator: from the failure point on, every allocation
 * and every growing reallocation fails (a persistent fault: a single
 * one is absorbed by Lua's emergency collection and retry).  Shrinking
 * never fails, as with Lua's own ltests.c limit. */
static void *sweep_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  sweep *s = ud;
  int grows = nsize > 0 && (ptr == NULL || nsize > osize);
  if (grows && s->fa.fail_at > 0 && s->fa.calls + 1 >= s->fa.fail_at) {
    s->fa.calls++;
    s->fa.failed = 1;
    return NULL;
  }
  return faulty_alloc(&s->fa, ptr, osize, nsize);
}

/* Sets up the state and runs the case (in protected mode): the failure
 * point counts from the end of the setup. */
static int run_case(lua_State *L) {
  sweep *s = lua_touserdata(L, 1);
  luaL_openlibs(L);
  luaL_requiref(L, "warplab", luaopen_warplab, 0);
  lua_setglobal(L, "wl");
  lua_pushstring(L, s->shared);
  lua_setglobal(L, "SHARED");
  s->setup = s->fa.calls;
  if (s->n > 0)
    s->fa.fail_at = s->fa.calls + s->n;
  if (luaL_loadbuffer(L, s->c->code, strlen(s->c->code), s->c->name) !=
      LUA_OK)
    return lua_error(L);
  lua_call(L, 0, 0);
  return 0;
}

/* One run with the n-th allocation failing (0: none).  Returns 0 when it
 * completed, 1 when it failed cleanly, -1 on a wrong outcome (printed). */
static int run_once(const lcase *c, const char *shared, long n, long *used) {
  sweep s;
  lua_State *L;
  int rc, out;
  memset(&s, 0, sizeof s);
  s.c = c;
  s.shared = shared;
  s.n = n;
  L = lua_newstate(sweep_alloc, &s);
  if (L == NULL) {
    fprintf(stderr, "lalloc: %s: no state\n", c->name);
    return -1;
  }
  lua_pushcfunction(L, run_case);
  lua_pushlightuserdata(L, &s);
  rc = lua_pcall(L, 1, 0, 0);
  *used = s.fa.calls - s.setup;
  if (rc == LUA_OK) {
    out = 0;
  } else {
    const char *msg = lua_tostring(L, -1);
    if (msg == NULL)
      msg = "(not a string)";
    if (!s.fa.failed) {
      fprintf(stderr, "lalloc: %s: fails without a failed allocation: %s\n",
              c->name, msg);
      out = -1;
    } else if (rc == LUA_ERRMEM || strstr(msg, "not enough memory") ||
               strstr(msg, "out of memory")) {
      out = 1;
    } else {
      fprintf(stderr,
              "lalloc: %s: allocation %ld failed, and the error is not "
              "about memory: %s\n",
              c->name, n, msg);
      out = -1;
    }
  }
  lua_close(L);
  if (s.fa.blocks != 0 || s.fa.live != 0 || s.fa.bad) {
    fprintf(stderr,
            "lalloc: %s: allocation %ld failed: %ld blocks (%ld bytes) "
            "held after lua_close%s\n",
            c->name, n, s.fa.blocks, s.fa.live,
            s.fa.bad ? ", and a block's size was misreported" : "");
    out = -1;
  }
  return out;
}

/* Sweeps one case; returns the number of bad failure points. */
static int sweep_case(const lcase *c, const char *shared, long step) {
  long n, used = 0, tried = 0;
  int bad = 0, r = run_once(c, shared, 0, &used);
  long total = used;
  if (r != 0) {
    fprintf(stderr, "lalloc: %s: fails with no allocation failing\n",
            c->name);
    return 1;
  }
  for (n = 1; n <= total + 1; n += step) {
    r = run_once(c, shared, n, &used);
    tried++;
    if (r < 0 && ++bad >= 5)
      break;
    if (r == 0) /* fewer allocations than n: done */
      break;
  }
  printf("lalloc %s: %ld allocations, %ld failure points tried, %d bad\n",
         c->name, total, tried, bad);
  return bad;
}

int main(int argc, char **argv) {
  const char *shared = "../shared", *only = NULL;
  long step = 1;
  int i, pass = 0, fail = 0;
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--step") == 0 && i + 1 < argc)
      step = atol(argv[++i]);
    else if (strcmp(argv[i], "--case") == 0 && i + 1 < argc)
      only = argv[++i];
    else
      shared = argv[i];
  }
  if (step < 1)
    step = 1;
  for (i = 0; cases[i].name != NULL; i++) {
    if (only != NULL && strcmp(only, cases[i].name) != 0)
      continue;
    if (sweep_case(&cases[i], shared, step) == 0)
      pass++;
    else
      fail++;
  }
  printf("lalloc: %d passed, %d failed\n", pass, fail);
  return fail == 0 ? 0 : 1;
}
