-- Exhaustive at realistic size (issue 11): the four-block software grid
-- barrier with and without fences, as PTX strings and as Lua functions
-- (a spin loop and d:await), threads storing to and loading from one
-- location, the memory limit's partial result, and the options of
-- explore{}.  Assertions are on states; times are in `make bench`.
local wl = require "warplab"

local function states(r, vars) return table.concat(wl.project(r, vars), " | ") end
local R1 = { "0:r1", "1:r1", "2:r1", "3:r1" }

-- The grid barrier: each block stores its flag, adds 1 to the counter,
-- spins until the counter reaches 4, then reads its neighbour's flag.
local function grid(fences)
  local spec = { name = fences and "grid+fences" or "grid",
                 init = { f0 = 0, f1 = 0, f2 = 0, f3 = 0, c = 0 } }
  local fence = fences == "acq_rel" and "fence.acq_rel.gpu" or "fence.sc.gpu"
  for b = 0, 3 do
    local th = { at = "cta" .. b, "st.relaxed.gpu f" .. b .. ", 1" }
    if fences then th[#th + 1] = fence end
    th[#th + 1] = "red.relaxed.gpu.add c, 1"
    th[#th + 1] = "LC" .. b .. "0:"
    th[#th + 1] = "ld.relaxed.gpu r0, c"
    th[#th + 1] = "bne r0, 4, LC" .. b .. "0"
    if fences then th[#th + 1] = fence end
    th[#th + 1] = "ld.relaxed.gpu r1, f" .. (b + 1) % 4
    spec[#spec + 1] = th
  end
  spec.exists = "0:r1 == 0 \\/ 1:r1 == 0 \\/ 2:r1 == 0 \\/ 3:r1 == 0"
  return wl.litmus(spec)
end

-- without fences every combination of neighbour flags is allowed
local r = grid(false):explore()
assert(r.nstates == 16 and r.ok and not r.bound_hit and not r.partial,
       "grid: " .. r.nstates .. " states")
-- the same states as the cat evaluator's
local cat = wl.model(arg[1] .. "/spec/ptx-v6.0-isa.cat")
local rc = grid(false):explore { model = cat }
assert(states(rc, R1) == states(r, R1), "grid: explorer and cat differ:\n" ..
       states(r, R1) .. "\n" .. states(rc, R1))
-- with fence.sc after the flag and after the spin, every block sees its
-- neighbour's flag: one state
r = grid(true):explore()
assert(r.nstates == 1 and not r.ok and not r.bound_hit,
       "grid+fences: " .. states(r, R1))
assert(states(r, R1) == "0:r1=1; 1:r1=1; 2:r1=1; 3:r1=1", states(r, R1))
-- with fence.acq_rel the same single state, and the cat evaluator agrees
-- (eight fence.sc are past what its enumeration of orders can take)
r = grid("acq_rel"):explore()
rc = grid("acq_rel"):explore { model = cat }
assert(states(r, R1) == "0:r1=1; 1:r1=1; 2:r1=1; 3:r1=1" and
       states(rc, R1) == states(r, R1), "grid+acq_rel: " .. states(rc, R1))
-- at unroll 1 too (spin iterations that re-read cost nothing)
assert(grid(true):explore { unroll = 1 }.nstates == 1, "grid+fences unroll 1")

-- The same barrier as Lua functions: a spin loop, then d:await.
local function grid_fn(fences, await)
  local spec = { init = { f0 = 0, f1 = 0, f2 = 0, f3 = 0, c = 0 } }
  for b = 0, 3 do
    spec[#spec + 1] = { at = "cta" .. b, fn = function(d)
      d:store("f" .. b, 1, "relaxed", "gpu")
      if fences then d:fence("sc", "gpu") end
      d:atom("add", "c", 1, "relaxed", "gpu")
      if await then
        d:await("c", "==", 4, "relaxed", "gpu")
      else
        repeat until d:load("c", "relaxed", "gpu") == 4
      end
      if fences then d:fence("sc", "gpu") end
      return { r1 = d:load("f" .. (b + 1) % 4, "relaxed", "gpu") }
    end }
  end
  return wl.litmus(spec)
end
local want = states(grid(false):explore(), R1)
r = grid_fn(false, true):explore()
assert(states(r, R1) == want and not r.bound_hit, "grid_fn await: " ..
       states(r, R1))
r = grid_fn(true, true):explore()
assert(states(r, R1) == "0:r1=1; 1:r1=1; 2:r1=1; 3:r1=1",
       "grid_fn+fences await: " .. states(r, R1))
-- the plain loop at unroll 1: the same states, the bound reported
r = grid_fn(false, false):explore { unroll = 1 }
assert(states(r, R1) == want, "grid_fn loop: " .. states(r, R1))

-- await waits: a value never written blocks the thread (no final state)
r = wl.litmus {
  init = { x = 0 },
  function(d) d.x = 1 end,
  function(d) return { v = d:await("x", ">=", 1) } end,
}:explore()
assert(states(r, { "1:v" }) == "1:v=1", states(r, { "1:v" }))
r = wl.litmus {
  init = { x = 0 },
  function(d) d.x = 1 end,
  function(d) return { v = d:await("x", "==", 2) } end,
}:explore()
assert(r.nstates == 0, "await on a value never written")

-- n threads each storing to and loading from one location
local function store_load(n)
  local spec = { name = "SL" .. n, init = { x = 0 } }
  for i = 0, n - 1 do
    spec[#spec + 1] = { at = "cta" .. i, "st.relaxed.gpu x, " .. (i + 1),
                        "ld.relaxed.gpu r0, x" }
  end
  spec.exists = "0:r0 == 1"
  return wl.litmus(spec)
end
r = store_load(3):explore()
-- each thread reads its own value or one coherence puts after it; the
-- final value is the coherence-last write
assert(r.nstates == 24, "SL3: " .. r.nstates)
local rc3 = store_load(3):explore { model = cat }
local V3 = { "0:r0", "1:r0", "2:r0", "x" }
assert(states(r, V3) == states(rc3, V3), "SL3 explorer and cat differ")
-- counting executions finds the same states
local rall = store_load(3):explore { count_executions = true }
assert(states(rall, V3) == states(r, V3) and rall.positive > r.positive,
       "SL3 count_executions")

-- the memory limit: a partial result, marked, with the states so far
r = store_load(6):explore { max_memory = 2e6 }
assert(r.partial and r.partial:find("memory limit", 1, true), tostring(r.partial))
assert(r.nstates > 0 and r.nstates < 5000, "partial: " .. r.nstates)
-- a timeout too
r = store_load(7):explore { timeout = 0.2 }
assert(r.partial and r.partial:find("stopped", 1, true), tostring(r.partial))

-- option errors
local ok, e = pcall(function() return store_load(2):explore { timeout = -1 } end)
assert(not ok and e:find("timeout must be", 1, true), e)
ok, e = pcall(function() return store_load(2):explore { max_memory = 0 } end)
assert(not ok and e:find("max_memory must be", 1, true), e)
-- limits: twelve fence.sc in one execution (the explorer orders them pair
-- by pair; it used to stop at 8); the cat evaluator names its own limit
local spec = { name = "many-sc", init = { x = 0 } }
for i = 0, 5 do
  spec[#spec + 1] = { at = "cta" .. i, "fence.sc.gpu",
                      "st.relaxed.gpu x, " .. (i + 1), "fence.sc.gpu" }
end
r = wl.litmus(spec):explore()
assert(r.nstates == 6, "many-sc: " .. r.nstates)
ok, e = pcall(function() return wl.litmus(spec):explore { model = cat } end)
assert(not ok and e:find("many-sc: an execution has 12 fence.sc; the cat " ..
                         "evaluator takes at most 8", 1, true), e)
-- 69 events (past the cat evaluator's 64, within the explorer's 256):
-- the explorer answers, the cat evaluator names its limit
spec = { name = "wide", init = { x = 0 } }
for i = 0, 3 do
  local th = { at = "cta" .. i }
  for k = 1, 17 do th[#th + 1] = "st.relaxed.gpu x, " .. (i * 100 + k) end
  spec[#spec + 1] = th
end
r = wl.litmus(spec):explore()
assert(r.nstates == 4, "wide: " .. r.nstates) -- x: one thread's last store
ok, e = pcall(function() return wl.litmus(spec):explore { model = cat } end)
assert(not ok and e:find("wide: an execution has 69 events; the cat " ..
                         "evaluator takes at most 64", 1, true), e)
-- an execution past the explorer's 256 events: an error naming the test
-- and the limit
spec = { name = "too-big", init = { x = 0 } }
for i = 0, 5 do
  local th = { at = "cta" .. i }
  for k = 1, 45 do th[#th + 1] = "st.relaxed.gpu x, " .. k end
  spec[#spec + 1] = th
end
ok, e = pcall(function() return wl.litmus(spec):explore() end)
assert(not ok and e:find(": an execution has more than 256 events",
                         1, true), e)
-- a spin lock of three identical threads: failed exchs are stutters (no
-- loop bound hit), the threads are searched once (symmetry = false
-- searches all and finds the same states), and observed_only tells the
-- states apart by x alone
local function lock(n)
  local spec = { name = "lock" .. n, init = { m = 0, x = 0 },
                 exists = "x != " .. n }
  for i = 1, n do
    spec[i] = { at = "cta" .. (i - 1), "LC0:",
      "atom.acquire.gpu.exch r0, m, 1", "bne r0, 0, LC0",
      "ld.relaxed.gpu r1, x", "add r1, r1, 1", "st.relaxed.gpu x, r1",
      "st.release.gpu m, 0" }
  end
  return wl.litmus(spec)
end
local l3 = lock(3)
local ls = l3:explore()
local ln = l3:explore { symmetry = false }
assert(ls.nstates == 6 and ln.nstates == 6, ls.nstates .. " " .. ln.nstates)
assert(not ls.bound_hit and not ln.bound_hit and not ls.ok, "lock3")
assert(states(ls, { "0:r1", "1:r1", "2:r1", "x" }) ==
       states(ln, { "0:r1", "1:r1", "2:r1", "x" }), "lock3 symmetry")
local lo = l3:explore { observed_only = true }
assert(lo.nstates == 1 and not lo.ok, "lock3 observed only: " .. lo.nstates)
-- a value only a thin-air cycle could write (st x, r0 after ld x beside
-- atom.add x): the domain stays small and the search ends at once
local ta = wl.litmus { name = "thin-air-domain", init = { x = 0, y = 0 },
  { at = "cta0", "ld.weak r0, x", "atom.exch r1, y, 1", "st.release.gpu x, r0",
    "ld.acquire.sys r2, x" },
  { at = "cta0,gpu1", "ld.relaxed.sys r0, x", "atom.acq_rel.cta.add r1, x, 1",
    "st.relaxed.sys x, r0", "st.weak y, 2" } }
local rt = ta:explore { timeout = 5 }
assert(not rt.partial, "thin-air-domain: " .. tostring(rt.partial))
print("scale: ok")
