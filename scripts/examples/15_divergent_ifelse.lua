-- The if/else with a __syncthreads() in each branch, written as a litmus
-- test: both threads of the block run the same function, thread 0 takes
-- the "then" branch and thread 1 the "else" branch.  PTX's bar.sync
-- counts arrivals, so the memory model alone would let the two barriers
-- pair up; CUDA does not allow it (a __syncthreads() must be reached by
-- every thread of the block, so its condition must be the same across
-- the block).  The explorer reports the divergence with both lines and
-- the threads at each, as the kernel checker does for kernels.  Moved
-- out of the branch, the barrier orders the store before the load.
-- The same test with the flag read by a plain load in a spin loop is in
-- 13; here the question is only where the threads wait.
local wl = require "warplab"

local function ifelse(d)
  if d.threadIdx.x == 0 then
    d.x = 1
    d:syncthreads()                                   -- THEN_BAR
  else
    d:syncthreads()                                   -- ELSE_BAR
    return { r = d.x }
  end
end

local t = wl.litmus { name = "ifelse-syncthreads", init = { x = 0 },
  { at = "cta0", fn = ifelse }, { at = "cta0", fn = ifelse } }
local ok, err = pcall(t.explore, t)
print(ok and "no error?!" or ("error, as it should be:\n  " .. tostring(err)))
assert(not ok, "a divergent __syncthreads() must be an error")
err = tostring(err)
-- short_src (as messages name the script) may be shortened with "...";
-- the file itself is read by its full name
local here = debug.getinfo(1, "S").short_src
local path = (debug.getinfo(1, "S").source:gsub("^@", ""))
local function line_of(tag)
  local n = 0
  for l in io.lines(path) do
    n = n + 1
    if l:find("-- " .. tag, 1, true) then return n end
  end
end
local tb, eb = line_of("THEN_BAR"), line_of("ELSE_BAR")
assert(err:find(here .. ":" .. tb .. ": barrier divergence", 1, true), err)
assert(err:find("reached by P0; not by P1 at line " .. eb, 1, true), err)

-- the barrier after the if: every thread reaches it, the load sees 1
local function converged(d)
  if d.threadIdx.x == 0 then d.x = 1 end
  d:syncthreads()
  if d.threadIdx.x == 1 then return { r = d.x } end
end
local c = wl.litmus { name = "converged-syncthreads", init = { x = 0 },
  { at = "cta0", fn = converged }, { at = "cta0", fn = converged },
  exists = "1:r == 0" }
local r = c:explore()
print(("converged: %d state(s), 1:r == 0 %s; race: %s, hang: %s"):format(
  r.nstates, r.ok and "possible" or "impossible",
  tostring(r.race), tostring(r.hang)))
assert(r.nstates == 1 and not r.ok, "the barrier orders the store first")
assert(r.race == false and r.hang == false, "nothing to report")
