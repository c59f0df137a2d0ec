-- The CUDA-like device API of Lua thread functions: atomics and their
-- scopes, cuda::atomic orders, fences, barriers, arrays, thread indices,
-- loops on loaded values, and Lua predicates as conditions.
local wl = require "warplab"

local function states(r, vars) return table.concat(wl.project(r, vars), " | ") end

-- atomics: two atomicAdd give 2; the old values are 0 and 1
local r = wl.litmus {
  init = { c = 0 },
  function(d) return { old = d:atomicAdd("c", 1) } end,
  function(d) return { old = d:atomicAdd_system("c", 1) } end,
  forall = "c == 2",
}:explore()
assert(r.ok, "atomicAdd lost an update: " .. states(r, { "c" }))
assert(states(r, { "0:old", "1:old" }) == "0:old=0; 1:old=1 | 0:old=1; 1:old=0",
       states(r, { "0:old", "1:old" }))

-- every atomic of the CUDA list, single-threaded, checked against C
local ops = {
  { "atomicSub", 10, 3, 7 }, { "atomicExch", 10, 3, 3 },
  { "atomicMin", 10, 3, 3 }, { "atomicMax", 10, 3, 10 },
  { "atomicAnd", 12, 10, 8 }, { "atomicOr", 12, 10, 14 },
  { "atomicXor", 12, 10, 6 }, { "atomicInc", 5, 5, 0 },
  { "atomicInc", 4, 5, 5 }, { "atomicDec", 0, 5, 5 },
  { "atomicDec", 3, 5, 2 },
}
for _, o in ipairs(ops) do
  for _, suffix in ipairs { "", "_block", "_system" } do
    local name, init, arg, want = o[1] .. suffix, o[2], o[3], o[4]
    r = wl.litmus {
      init = { v = init },
      function(d) return { old = d[name](d, "v", arg) } end,
    }:explore()
    assert(r.nstates == 1, name)
    local s = r.states[1]
    assert(s.v == want and s["0:old"] == init,
           string.format("%s(%d, %d): got v=%d old=%d, want v=%d",
                         name, init, arg, s.v, s["0:old"], want))
  end
end
r = wl.litmus {
  init = { v = 5 },
  function(d)
    local a = d:atomicCAS("v", 5, 7)
    local b = d:atomicCAS("v", 5, 9)
    return { a = a, b = b }
  end,
}:explore()
assert(states(r, { "0:a", "0:b", "v" }) == "0:a=5; 0:b=7; v=7", "atomicCAS")

-- a spinlock with atomicCAS / atomicExch protects a weak counter
r = wl.litmus {
  name = "spinlock",
  init = { lock = 0, n = 0 },
  function(d)
    while d:atomicCAS("lock", 0, 1) ~= 0 do end
    d:threadfence()
    d.n = d.n + 1
    d:threadfence()
    d:atomicExch("lock", 0)
  end,
  function(d)
    while d:atomicCAS("lock", 0, 1) ~= 0 do end
    d:threadfence()
    d.n = d.n + 1
    d:threadfence()
    d:atomicExch("lock", 0)
  end,
  exists = "n == 1",
}:explore { unroll = 2 }
assert(not r.ok, "spinlock lost an increment: " .. states(r, { "n" }))

-- cuda::atomic seq_cst gives SB its SC outcome set
r = wl.litmus {
  init = { x = 0, y = 0 },
  function(d)
    d:atomic_store("x", 1)
    return { r0 = d:atomic_load("y") }
  end,
  function(d)
    d:atomic_store("y", 1, "seq_cst", "gpu")
    return { r0 = d:atomic_load("x", "seq_cst", "gpu") }
  end,
  exists = "0:r0 == 0 /\\ 1:r0 == 0",
}:explore()
assert(not r.ok, "seq_cst SB allowed 0/0")
-- and relaxed does not
r = wl.litmus {
  init = { x = 0, y = 0 },
  function(d)
    d:atomic_store("x", 1, "relaxed")
    return { r0 = d:atomic_load("y", "relaxed") }
  end,
  function(d)
    d:atomic_store("y", 1, "relaxed")
    return { r0 = d:atomic_load("x", "relaxed") }
  end,
  exists = "0:r0 == 0 /\\ 1:r0 == 0",
}:explore()
assert(r.ok, "relaxed SB forbade 0/0")

-- release/acquire via cuda::atomic and fetch_add / compare_exchange
r = wl.litmus {
  init = { x = 0, f = 0 },
  function(d)
    d.x = 1
    d:atomic_fetch_add("f", 1, "release")
  end,
  function(d)
    local ok, old = d:atomic_compare_exchange("f", 1, 2, "acquire")
    return { ok = ok, old = old, x = d.x }
  end,
  exists = "1:ok == 1 /\\ 1:x == 0",
}:explore()
assert(not r.ok, "release fetch_add / acquire CAS did not synchronise")
assert(states(r, { "1:ok", "1:old" }):find("1:ok=1; 1:old=1", 1, true))

-- volatile = relaxed.sys: MP with volatile is not ordered
r = wl.litmus {
  init = { x = 0, y = 0 },
  function(d) d:volatile_store("x", 1); d:volatile_store("y", 1) end,
  function(d)
    local a = d:volatile_load("y")
    return { a = a, b = d:volatile_load("x") }
  end,
  exists = "1:a == 1 /\\ 1:b == 0",
}:explore()
assert(r.ok, "volatile MP should be weak")

-- fences: threadfence_block between CTAs does not order, threadfence does
local function mp(fence, at)
  return wl.litmus {
    init = { x = 0, y = 0 },
    { at = "cta0", fn = function(d)
        d:store("x", 1, "relaxed", "gpu"); d[fence](d)
        d:store("y", 1, "relaxed", "gpu")
      end },
    { at = at, fn = function(d)
        local a = d:load("y", "relaxed", "gpu"); d[fence](d)
        return { a = a, b = d:load("x", "relaxed", "gpu") }
      end },
    exists = "1:a == 1 /\\ 1:b == 0",
  }:explore()
end
assert(not mp("threadfence", "cta1").ok, "threadfence MP")
assert(not mp("threadfence_system", "cta1").ok, "threadfence_system MP")
assert(mp("threadfence_block", "cta1").ok, "threadfence_block across CTAs")
assert(not mp("threadfence_block", "cta0").ok, "threadfence_block in a CTA")
r = wl.litmus {
  init = { x = 0, y = 0 },
  function(d)
    d:store("x", 1, "relaxed", "gpu"); d:fence("acq_rel", "gpu")
    d:store("y", 1, "relaxed", "gpu")
  end,
  function(d)
    local a = d:load("y", "relaxed", "gpu"); d:fence("acq_rel", "gpu")
    return { a = a, b = d:load("x", "relaxed", "gpu") }
  end,
  exists = "1:a == 1 /\\ 1:b == 0",
}:explore()
assert(not r.ok, "fence.acq_rel MP")

-- syncthreads orders weak accesses within a CTA
r = wl.litmus {
  init = { x = 0 },
  { at = "cta0", fn = function(d) d.x = 1; d:syncthreads() end },
  { at = "cta0", fn = function(d) d:syncthreads(); return { a = d.x } end },
  exists = "1:a == 0",
}:explore()
assert(not r.ok, "syncthreads did not order: " .. states(r, { "1:a" }))

-- arrays, threadIdx and friends
r = wl.litmus {
  init = { a = { 0, 0, 0, 0 } },
  shared = { s = 0 },
  { at = "cta0", fn = function(d) d.a[d.threadIdx.x] = d.threadIdx.x + 10 end },
  { at = "cta0", fn = function(d) d.a[d.threadIdx.x] = d.threadIdx.x + 10 end },
  { at = { cta = 1, warp = 1 }, fn = function(d)
      assert(d.threadIdx.x == 32 and d.blockIdx.x == 1, "threadIdx/blockIdx")
      assert(d.blockDim.x == 33 and d.gridDim.x == 2 and d.warpSize == 32)
      assert(#d.a == 4)
      d.a[3] = d.blockIdx.x
      d.s = 5
      return { n = #d.a }
    end },
}:explore()
assert(r.nstates == 1)
local s = r.states[1]
assert(s["a[0]"] == 10 and s["a[1]"] == 11 and s["a[2]"] == 0 and
       s["a[3]"] == 1 and s.s == 5 and s[3].n == 4, "arrays")

-- conditions name array elements (a[1]); an element the array lacks is
-- an error at its line:col
r = wl.litmus { init = { a = { 1, 2 } },
  { fn = function(d) d.a[1] = d.a[0] + #d.a end },
  forall = "a[1] == 3 /\\ a[0] == 1" }:explore()
assert(r.ok and r.nstates == 1, "a condition on array elements")
local ok, err = pcall(wl.litmus, { init = { a = { 1, 2 } },
  { "st.weak b, 1" }, exists = "b == 1 /\\ a[2] == 3" })
assert(not ok and err:find(":%d+:%d+: 'a%[2%]' is no element"), err)

-- loops on loaded values: a flag spin loop reads 1 eventually
r = wl.litmus {
  init = { x = 0, flag = 0 },
  function(d) d.x = 42; d:store("flag", 1, "release", "gpu") end,
  function(d)
    while d:load("flag", "acquire", "gpu") == 0 do end
    return { v = d.x }
  end,
  forall = "1:v == 42",
}:explore()
assert(r.ok, "spin loop then read: " .. states(r, { "1:v" }))

-- Lua predicates: exists-style, and {forall = fn}
local t = wl.litmus {
  init = { x = 0, y = 0 },
  function(d) d.x = 1; d.y = 1 end,
  function(d) local a = d.y; return { a = a, b = d.x } end,
  condition = function(st) return st[2].a == 1 and st[2].b == 0 end,
}
r = t:explore()
assert(r.ok and r.positive > 0 and r.kind == "exists", "predicate")
assert(r.condition == "(a Lua predicate)", r.condition)
local nsat = 0
for _, st in r:states() do if st.sat then nsat = nsat + 1 end end
assert(nsat == 1, "one state satisfies the predicate")
r = wl.litmus {
  init = { x = 0 },
  function(d) d:atomicAdd("x", 1) end,
  function(d) d:atomicAdd("x", 1) end,
  condition = { forall = function(st) return st.x == 2 end },
}:explore()
assert(r.ok and r.negative == 0 and r.kind == "forall", "forall fn")
r = wl.litmus {
  init = { x = 0 },
  function(d) d.x = 1 end,
  not_exists = "x == 2",
}:explore()
assert(r.ok and r.kind == "~exists", "not_exists")

-- placement strings and PTX threads with regs
r = wl.litmus {
  init = { x = 0 },
  { at = "cta1,gpu0", regs = { r1 = 7 }, "st.relaxed.gpu x, r1" },
  forall = "x == 7",
}:explore()
assert(r.ok, "regs")

-- the generic d:atom and named barriers
r = wl.litmus {
  init = { x = 3 },
  function(d) return { o = d:atom("mul", "x", 5, "acq_rel", "sys") } end,
}:explore()
assert(r.states[1].x == 15 and r.states[1]["0:o"] == 3, "d:atom mul")

print("device_api: ok")

-- CUDA has no floating-point atomicMax/atomicMin (kernels refuse them
-- too); a result that is no number names the function's line (a float
-- is a result: tests/lua/float_results.lua)
do
  local t = wl.litmus { init = { f = 0.5 }, types = { f = "float" },
    function(d) d:atomicMax("f", 1.5) end }
  local ok, err = pcall(t.explore, t)
  assert(not ok and err:find("atomicMax on 'f' %(float%): CUDA has no"), err)
  local line = debug.getinfo(1, "l").currentline + 2
  t = wl.litmus { init = { f = 0.5 }, types = { f = "float" },
    function(d) return { o = { d:atomicAdd("f", 1.5) } } end }
  ok, err = pcall(t.explore, t)
  assert(not ok and err:find(":" .. line .. ": the function of P0 returned "
         .. "table for result 'o'", 1, true), err)
  t = wl.litmus { init = { f = 0.5 }, types = { f = "float" },
    function(d) return { o = d:atomicAdd("f", 1.5) == 0.5 } end }
  assert(t:explore().states[1]["0:o"] == 1, "a comparison as a result")
end
