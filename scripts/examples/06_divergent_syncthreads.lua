-- __syncthreads() must be reached by every thread of the block.  Here one
-- thread skips it when it reads x == 1: the explorer stops with an error
-- naming the line and the threads.
local wl = require "warplab"

local t = wl.litmus {
  name = "divergent-syncthreads",
  init = { x = 0 },
  { at = "cta0", fn = function(d)
      if d.x == 0 then
        d:syncthreads()
      end
    end },
  { at = "cta0", fn = function(d)
      d.x = 1
      d:syncthreads()
    end },
}
local ok, err = pcall(t.explore, t)
print(ok and "no error?!" or ("error, as it should be:\n  " .. tostring(err)))
assert(not ok, "a divergent __syncthreads() must be an error")
assert(tostring(err):find("barrier divergence"), "the message says what")
assert(tostring(err):find("06_divergent_syncthreads.lua:16"),
       "the message names the script line of the waiting thread")
