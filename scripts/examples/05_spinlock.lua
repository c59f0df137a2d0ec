-- A spin lock from atomicCAS / atomicExch protecting a plain counter: do
-- increments get lost?  Threads are PTX instruction strings here: the
-- explorer recognises a spin iteration that changes nothing, so the spin
-- costs nothing against the loop bound.
local wl = require "warplab"

local function lock(variant)
  local acq = { none = "atom.relaxed.gpu.cas r0, m, 0, 1",
                fences = "atom.relaxed.gpu.cas r0, m, 0, 1",
                acqrel = "atom.acquire.gpu.cas r0, m, 0, 1" }
  local rel = { none = "atom.relaxed.gpu.exch r2, m, 0",
                fences = "atom.relaxed.gpu.exch r2, m, 0",
                acqrel = "atom.release.gpu.exch r2, m, 0" }
  local f = variant == "fences" and "fence.sc.gpu" or nil
  local function thread(cta)
    local t = { at = "cta" .. cta, "LC00:", acq[variant], "bne r0, 0, LC00" }
    if f then t[#t + 1] = f end
    for _, i in ipairs({ "ld.weak r1, c", "add r1, r1, 1", "st.weak c, r1" }) do
      t[#t + 1] = i
    end
    if f then t[#t + 1] = f end
    t[#t + 1] = rel[variant]
    return t
  end
  return wl.litmus {
    name = "spinlock+" .. variant,
    init = { m = 0, c = 0 },
    thread(0), thread(1),
    forall = "c == 2",
  }
end

local expect = { none = false, fences = true, acqrel = true }
for _, v in ipairs({ "none", "fences", "acqrel" }) do
  local r = lock(v):explore()
  local finals = {}
  for _, s in ipairs(r.states) do finals[#finals + 1] = s.c end
  table.sort(finals)
  print(("%-7s mutual exclusion %-8s final counter values: %s%s"):format(
    v, r.ok and "holds" or "broken", table.concat(finals, ", "),
    r.bound_hit and " (loop bound hit)" or ""))
  assert(r.ok == expect[v], "unexpected verdict for " .. v)
  assert(not r.bound_hit, "spin loops must not hit the bound")
end
print([[

With relaxed atomics alone the critical sections may overlap in effect:
the counter's load can read a stale value.  __threadfence() after taking
and before releasing the lock, or acquire/release atomics, restore mutual
exclusion.]])
