-- Errors of a launch name the user's file and line (issue 20, item 19):
-- never a line of warplab's own Lua (scripts/warplab/kernel.lua), and a
-- kernel's failure names its place and thread once.
local wl = require "warplab"

local here = debug.getinfo(1, "S").short_src
local dev = wl.device { preset = "sm_90", sms = 1 }
local A = dev:malloc("int32", 32, "A")
local k = wl.kernel(function(c, A) A[c.threadIdx.x] = 1 end)

-- at(f, want [, thread]): f's error starts with here:<line of the call
-- to at>, or line, (the launch is on the same line), says want, names no line of
-- warplab's Lua, and has one place only
local function at(f, want, thread, line)
  line = line or debug.getinfo(2, "l").currentline
  local ok, err = pcall(f)
  assert(not ok, "no error for " .. want)
  err = tostring(err)
  local prefix = here .. ":" .. line .. ": "
  assert(err:sub(1, #prefix) == prefix, "'" .. err .. "' does not start "
         .. "with " .. prefix)
  assert(err:find(want, 1, true), err)
  assert(not err:find("scripts/warplab", 1, true), err)
  assert(not err:sub(#prefix + 1):find("^[^ ]+:%d+: "), "two places: " .. err)
  if thread then assert(err:find(thread, 1, true), err) end
end

-- the launch's options and arguments
at(function() dev:launch(k, { grid = 1, block = 4, bogus = 1 }, A) end, "unknown option 'bogus'")
at(function() dev:launch(k, { grid = 0, block = 4 }, A) end, "grid dimensions")
at(function() dev:launch(k, { grid = 1, block = 4096 }, A) end, "exceeds the device's 1024 threads per block")
at(function() dev:launch(42, { grid = 1, block = 4 }, A) end, "a kernel (wl.kernel(fn) or a function) expected, got number")
at(function() dev:launch(k, { grid = 1, block = 4, schedule = "x" }, A) end, "invalid schedule 'x'")
at(function() dev:launch(k, { grid = 1, block = 4, check = "x" }, A) end, "unknown checker 'x'")
at(function() dev:launch(k, { grid = 1, block = 4, max_seconds = -1 }, A) end, "max_seconds")
at(function() dev:launch(k, { grid = 1, block = 4 }, { 1, "x" }) end, "element 2 is string")
at(function() dev:launch(wl.kernel(function(c) c:shared("int32", 1e6) end), { grid = 1, block = 4 }) end, "bytes of shared memory")
at(function() wl.kernel(function() end, { bogus = 1 }) end, "wl.kernel: unknown option 'bogus'")
at(function() wl.warp_kernel(function() end, { bogus = 1 }) end, "wl.kernel: unknown option 'bogus'")
at(function() dev:sample { n = 1, run = function() end, bogus = 1 } end, "dev:sample: unknown option 'bogus'")

-- failures inside the kernel: its line and thread, named once
at(function() dev:launch(k, { grid = 1, block = 64 }, A) end,
   "index 32 out of bounds", "thread (32,0,0)",
   debug.getinfo(k.fn, "S").linedefined)
at(function() dev:launch(wl.kernel(function(c) error("boom") end), { grid = 1, block = 4 }) end, "boom", "thread (0,0,0)")
at(function() dev:launch(wl.kernel(function(c) if c.threadIdx.x < 2 then c:syncthreads() end end), { grid = 1, block = 4 }) end, "barrier divergence", "thread (2,0,0)")
at(function() dev:launch(wl.kernel(function(c) dev:launch(k, { grid = 1, block = 1 }, A) end), { grid = 1, block = 1 }) end, "launches do not nest", "thread (0,0,0)")
at(function() dev:launch(wl.warp_kernel(function(w, A) A[w.lane + 10] = 1 end), { grid = 1, block = 32 }, A) end, "out of bounds", "lane 22")
-- a lane's index: a fraction, out of bounds (named at its first bad
-- lane), a shared array kept from an earlier launch (lkarray.c takes
-- the good case inline; these go through wll_elem_off)
at(function() dev:launch(wl.kernel(function(c, A) local x = A[c.threadIdx.x + 0.5] end), { grid = 1, block = 4 }, A) end, "array 'A' indexed with a fraction", "thread (0,0,0)")
at(function() dev:launch(wl.kernel(function(c, A) A[c.threadIdx.x - 1] = 1 end), { grid = 1, block = 4 }, A) end, "index -1 out of bounds", "thread (0,0,0)")
local kept
local keep = wl.kernel(function(c, A)
  local S = c:shared("int32", 4, "S")
  kept = kept or S
  local x = kept[c.threadIdx.x]
end)
dev:launch(keep, { grid = 1, block = 4 }, A)
at(function() dev:launch(keep, { grid = 1, block = 4 }, A) end, "shared array 'S' belongs to an earlier launch", "thread (0,0,0)", debug.getinfo(keep.fn, "S").linedefined + 3)
print("kernel error places ok")
