/* fuzz_lua.c -- libFuzzer harness for the Lua API surface of the module.
 *
 * The input drives a generator: it picks up to 12 statements from
 * templates of API calls (wl.litmus, explore, sample, results, wl.parse,
 * wl.device, malloc, views, reads and writes, launches of small kernels
 * whose bodies call the per-thread API, wl.gen, the cost models, wl.load
 * and wl.corpus on fixed paths, close) and fills their arguments from a
 * pool of hostile values (extreme integers, NaN, wrong types, misspelt
 * options, the results of earlier statements).  Each statement runs under
 * pcall in a fresh lua_State, with an instruction-count hook that ends
 * the chunk past a budget; launches carry max_seconds and max_steps, and
 * samples a small n, so every input does a bounded amount of work.
 *
 * Built and run by tests/fuzz/run.sh (FUZZ_TARGET=lua), with the
 * module's sources and the system's Lua.  A Lua error is acceptable;
 * crashes, leaks, undefined behaviour and timeouts are not.  With
 * FUZZ_LUA_PRINT set, the generated chunk is printed (to reproduce a
 * finding with `warplab run`). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

int luaopen_warplab(lua_State *L);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the input, read a byte at a time (zeros once it runs out) */
typedef struct in {
  const uint8_t *p;
  size_t n, i;
} in;

static unsigned pick(in *x, unsigned n) {
  unsigned b = x->i < x->n ? x->p[x->i++] : 0;
  return n ? b % n : 0;
}

/* a growing text */
typedef struct out {
  char buf[16384];
  size_t n;
} out;

static void put(out *o, const char *s) {
  size_t k = strlen(s);
  if (o->n + k < sizeof o->buf) {
    memcpy(o->buf + o->n, s, k);
    o->n += k;
    o->buf[o->n] = '\0';
  }
}

static const char *const ints[] = {
    "0", "1", "-1", "2", "3", "31", "32", "33", "64", "1024", "4096",
    "2^31", "-2^31", "2^32", "2^62", "-2^62", "math.maxinteger",
    "math.mininteger", "0x7fffffff", "65536", "100", "1e300", "0/0",
    "1/0", "-0.0", "0.5", "-7"};
static const char *const words[] = {
    "'x'", "'y'", "''", "'int32'", "'uint32'", "'int64'", "'float'",
    "'double'", "'int16'", "'uint16'", "'half'", "'short'", "'float4'",
    "'int2'", "'weak'", "'relaxed'", "'acquire'", "'release'", "'acq_rel'",
    "'sc'", "'cta'", "'gpu'", "'sys'", "'sm_90'", "'sm_70'", "'h100'",
    "'a[1]'", "'x[0]'", "'cta1'", "'\\0'", "('z'):rep(300)", "'MP'",
    "'st.weak x, 1'", "'ld.acquire.gpu r0, y'", "'bar.sync 0, -5'",
    "'fence.sc.gpu'", "'atom.relaxed.gpu.add r1, x, 1'",
    "'exists (x == 1)'", "'1:r0 == 1 /\\\\ x == 0'", "'a[1] == 2'",
    "'ld.weak r0, x'", "'red.relaxed.gpu.add x, 2'", "'bar.sync 1, 64'",
    "'LC0:'", "'bra LC0'", "'~exists (((('"};
static const char *const keys[] = {
    "n", "seed", "profile", "jobs", "unroll", "grid", "block", "shared",
    "grd", "init", "types", "exists", "forall", "name", "at", "fn", "regs",
    "preset", "sms", "offsets", "width", "addresses", "op", "banks",
    "family", "annotations", "scopes", "placements", "cycle", "count",
    "max_steps", "timeout", "cta", "warp", "filter", "aliases", "proxy"};

static void value(in *x, out *o, int depth);

static void table(in *x, out *o, int depth) {
  unsigned k, n = pick(x, 5);
  put(o, "{");
  for (k = 0; k < n; k++) {
    if (pick(x, 2)) {
      put(o, keys[pick(x, sizeof keys / sizeof *keys)]);
      put(o, "=");
    }
    value(x, o, depth + 1);
    put(o, ",");
  }
  put(o, "}");
}

static void value(in *x, out *o, int depth) {
  switch (pick(x, depth > 2 ? 4 : 8)) {
  case 0:
  case 1:
    put(o, ints[pick(x, sizeof ints / sizeof *ints)]);
    break;
  case 2:
  case 3:
    put(o, words[pick(x, sizeof words / sizeof *words)]);
    break;
  case 4:
    table(x, o, depth);
    break;
  case 5: {
    char v[24];
    snprintf(v, sizeof v, "V[%u]", pick(x, 15) + 1);
    put(o, v);
    break;
  }
  case 6:
    put(o, pick(x, 2) ? "nil" : "true");
    break;
  default:
    put(o, "function(d) return ");
    value(x, o, depth + 1);
    put(o, " end");
  }
}

/* a thread of wl.litmus: instruction strings or a function of d */
static void thread(in *x, out *o) {
  static const char *const fbody[] = {
      "d.x = 1", "local r = d.x; return { r = r }",
      "d:store('y', 1, 'release', 'gpu')",
      "return { r = d:load('y', 'acquire', 'gpu') }",
      "d:fence('sc', 'cta')", "d:syncthreads()",
      "return { o = d:atomicAdd('x', 1) }", "d.a[1] = 2",
      "return { f = d:atomicAdd('f', 0.5) }",
      "return { v = d:atomicMax('f', 1.5) }", "while d.y == 0 do end"};
  unsigned k, n = pick(x, 4);
  if (pick(x, 2)) {
    put(o, "{ at = ");
    value(x, o, 2);
    put(o, ", fn = function(d) ");
    for (k = 0; k <= n; k++) {
      put(o, fbody[pick(x, sizeof fbody / sizeof *fbody)]);
      put(o, "; ");
      if (strstr(o->buf + o->n - 10, "return") != NULL)
        break;
    }
    put(o, "end }");
    return;
  }
  put(o, "{ ");
  for (k = 0; k <= n; k++) {
    value(x, o, 2);
    put(o, ", ");
  }
  put(o, "}");
}

/* the per-thread API inside a kernel */
static void kbody(in *x, out *o) {
  static const char *const ops[] = {
      "A[i] = ", "c:atomicAdd(A, ", "c:atomicMax(A, ", "c:shared(",
      "c:extern_shared(", "c:local_array(", "c:load(A, ", "c:store(A, ",
      "c:fence(", "c:syncthreads(", "A:view(", "c:atomicCAS(A, ",
      "c:load_vec(A, ", "c:ld(A, "};
  unsigned k, n = pick(x, 4);
  for (k = 0; k <= n; k++) {
    unsigned op = pick(x, sizeof ops / sizeof *ops);
    put(o, "  ");
    put(o, ops[op]);
    value(x, o, 2);
    if (op != 0) {
      put(o, ", ");
      value(x, o, 2);
      put(o, ")");
    }
    put(o, "\n");
  }
}

static void statement(in *x, out *o, unsigned k) {
  char v[64];
  snprintf(v, sizeof v, "ok, V[%u] = pcall(function() return ", k + 1);
  put(o, v);
  switch (pick(x, 20)) {
  case 0:
  case 1: {
    unsigned t, n = pick(x, 3) + 1;
    put(o, "wl.litmus { init = { x = ");
    value(x, o, 1);
    put(o, ", y = 0, f = 0.5, a = { 1, 2 } }, types = { f = 'float' }, ");
    if (pick(x, 2)) {
      put(o, "shared = ");
      table(x, o, 1);
      put(o, ", ");
    }
    for (t = 0; t < n; t++) {
      thread(x, o);
      put(o, ", ");
    }
    put(o, pick(x, 2) ? "exists = " : "forall = ");
    value(x, o, 1);
    put(o, " }");
    break;
  }
  case 2:
    snprintf(v, sizeof v, "V[%u]", pick(x, 15) + 1);
    put(o, v);
    put(o, ":explore { unroll = ");
    put(o, ints[pick(x, 6)]);
    put(o, " }");
    break;
  case 3:
    snprintf(v, sizeof v, "V[%u]", pick(x, 15) + 1);
    put(o, v);
    put(o, ":sample { n = ");
    put(o, ints[pick(x, 5)]);
    put(o, ", seed = ");
    value(x, o, 2);
    put(o, ", profile = ");
    value(x, o, 2);
    put(o, ", max_steps = 2000 }");
    break;
  case 4: {
    static const char *const m[] = {":herd()", ":json()", ".states",
                                    ":locations()", ":close()", ".ok",
                                    ".outcomes", ":site(1)", ".name"};
    snprintf(v, sizeof v, "V[%u]", pick(x, 15) + 1);
    put(o, v);
    put(o, m[pick(x, sizeof m / sizeof *m)]);
    break;
  }
  case 5:
    put(o, "tostring(");
    value(x, o, 1);
    put(o, ")");
    break;
  case 6:
    put(o, "wl.parse(");
    value(x, o, 1);
    put(o, ", ");
    value(x, o, 1);
    put(o, ")");
    break;
  case 7:
    put(o, "wl.device(");
    value(x, o, 1);
    put(o, ")");
    break;
  case 8:
  case 9:
    put(o, "D:malloc(");
    value(x, o, 1);
    put(o, ", ");
    value(x, o, 1);
    put(o, ", ");
    value(x, o, 1);
    put(o, ")");
    break;
  case 10: {
    static const char *const m[] = {":write(", ":read(", ":view(",
                                    ":fill(", ":copy_to(", ":free("};
    snprintf(v, sizeof v, "V[%u]", pick(x, 15) + 1);
    put(o, v);
    put(o, m[pick(x, sizeof m / sizeof *m)]);
    value(x, o, 1);
    put(o, ", ");
    value(x, o, 1);
    put(o, ")");
    break;
  }
  case 11:
  case 12:
    put(o, "D:launch(wl.kernel(function(c, A, B)\n"
           "  local i = c.threadIdx.x\n");
    kbody(x, o);
    put(o, "end), { grid = ");
    put(o, ints[pick(x, 6)]);
    put(o, ", block = ");
    put(o, ints[pick(x, 8)]);
    put(o, ", shared = ");
    put(o, ints[pick(x, 11)]);
    if (pick(x, 2)) { /* its blocks in parts across cores (lksplit.c) */
      put(o, ", jobs = ");
      put(o, ints[pick(x, 8)]);
    }
    put(o, ", max_steps = 20000, max_seconds = 0.5 }, ");
    value(x, o, 1);
    put(o, ", ");
    value(x, o, 1);
    put(o, ")");
    break;
  case 13:
    put(o, "D:launch(wl.warp_kernel(function(w, A)\n"
           "  A[w.lane] = ");
    value(x, o, 2);
    put(o, "\nend), { grid = 1, block = ");
    put(o, ints[pick(x, 9)]);
    put(o, ", max_steps = 20000, max_seconds = 0.5 }, ");
    value(x, o, 1);
    put(o, ")");
    break;
  case 14:
    put(o, "wl.gen(");
    table(x, o, 0);
    put(o, ")");
    break;
  case 15: {
    static const char *const f[] = {"wl.bank_access(", "wl.global_access(",
                                    "wl.constant_access(", "wl.heatmap("};
    put(o, f[pick(x, 4)]);
    table(x, o, 0);
    put(o, ")");
    break;
  }
  case 16: {
    static const char *const f[] = {
        "wl.load('scripts/litmus/MP.litmus')", "wl.load('scripts')",
        "wl.load('/nonexistent')", "wl.corpus('scripts/litmus')",
        "wl.litmus_functions(", "D:occupancy(", "D:set_cache_config(",
        "D:set_shared_mem_config("};
    unsigned c = pick(x, 8);
    put(o, f[c]);
    if (c >= 4) {
      value(x, o, 1);
      put(o, ")");
    }
    break;
  }
  case 17:
    snprintf(v, sizeof v, "V[%u]", pick(x, 15) + 1);
    put(o, v);
    put(o, ":explore { model = ");
    value(x, o, 2);
    put(o, " }");
    break;
  case 18:
    put(o, "D:sample { n = 3, run = function(dev, cfg) return ");
    value(x, o, 2);
    put(o, " end }");
    break;
  default:
    put(o, "wl._checkopts(");
    value(x, o, 1);
    put(o, ", 'f', ");
    table(x, o, 1);
    put(o, ")");
  }
  put(o, " end)\n");
}

/* the count hook: ends a chunk that runs past its budget */
static void budget(lua_State *L, lua_Debug *ar) {
  (void)ar;
  luaL_error(L, "fuzz: instruction budget spent");
}

static int run(lua_State *L) {
  const char *code = lua_touserdata(L, 1);
  luaL_openlibs(L);
  luaL_requiref(L, "warplab", luaopen_warplab, 0);
  lua_setglobal(L, "wl");
  if (luaL_loadstring(L, code) != LUA_OK)
    return 0; /* the generator wrote something Lua refuses: no matter */
  lua_sethook(L, budget, LUA_MASKCOUNT, 2000000);
  lua_call(L, 0, 0);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static out o;
  in x = {data, size, 0};
  unsigned k, n;
  lua_State *L;
  o.n = 0;
  o.buf[0] = '\0';
  put(&o, "local V, ok = {}\n"
          "local D = wl.device { preset = 'sm_90', sms = 2 }\n"
          "V[2] = D:malloc('int32', 64, 'A')\n"
          "V[3] = D:malloc('float', 64, 'F')\n"
          "V[1] = wl.litmus { init = { x = 0, y = 0 },\n"
          "  { 'st.weak x, 1', 'st.release.gpu y, 1' },\n"
          "  { at = 'cta1', 'ld.acquire.gpu r0, y', 'ld.weak r1, x' },\n"
          "  exists = '1:r0 == 1' }\n");
  n = pick(&x, 12) + 1;
  for (k = 0; k < n; k++)
    statement(&x, &o, k + 3); /* V[4] on */
  if (getenv("FUZZ_LUA_PRINT") != NULL)
    fputs(o.buf, stderr);
  L = luaL_newstate();
  if (L == NULL)
    abort();
  lua_pushcfunction(L, run);
  lua_pushlightuserdata(L, o.buf);
  (void)lua_pcall(L, 1, 0, 0);
  lua_close(L);
  return 0;
}
