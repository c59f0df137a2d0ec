-- Sizes and indices from the user go through checked arithmetic: no byte
-- size wraps, no index overflows, no option is truncated to a C type.
local wl = require "warplab"

local function fails(pattern, f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, "expected an error matching " .. pattern)
  err = tostring(err)
  assert(err:find(pattern, 1, true),
         "error\n  " .. err .. "\nlacks\n  " .. pattern)
  return err
end

local dev = wl.device "sm_90"
-- 2^62 doubles are 2^65 bytes: used to wrap to 0 and succeed
fails("too large", dev.malloc, dev, "double", 2^62 // 1)
fails("too large", dev.malloc, dev, "float4", 2^60 // 1)
fails("too large", dev.malloc_managed, dev, "int64", math.maxinteger)
fails("negative element count", dev.malloc, dev, "int32", -1)
-- larger than the device: refused by the device, not wrapped
fails("out of device memory", dev.malloc, dev, "float4", 2^40 // 1)

-- views: first + n used to overflow (signed), landing writes in A[0]
local A = dev:malloc_managed("int32", 128)
A:write(0)
fails("outside 'managed'", A.view, A, 2^62 // 1 - 64, 2^62 // 1 + 64)
fails("outside 'managed'", A.view, A, math.maxinteger, 2)
fails("outside 'managed'", A.view, A, 1, math.maxinteger)
fails("outside 'managed'", A.view, A, math.mininteger)
fails("outside 'managed'", A.read, A, math.maxinteger, 2)
fails("outside 'managed'", A.read, A, 1, math.maxinteger)
fails("outside 'managed'", A.write, A, { 1, 2 }, math.maxinteger)
assert(A[0] == 0)
-- a view from A[4]: V[-1] is A[3] (the stencil's `in + RADIUS`), V[-5]
-- lies before A
local V = A:view(4)
A[3] = 33
assert(V[-1] == 33 and #V == 124)
V[-4] = 7
assert(A[0] == 7)
fails("out of bounds", function() return V[-5] end)
fails("out of bounds", function() return V[124] end)
local W = V:view(-2, 4) -- a view may start before its view, inside A
assert(W[1] == 33)

-- launch sizes: 2^32 + 64 bytes of shared memory used to act as 64
local k = wl.kernel(function(c) end)
fails("option 'shared' must be an integer from 0 to 4294967295", dev.launch,
      dev, k, { grid = 1, block = 32, shared = 2^32 // 1 + 64 })
fails("option 'regs' must be", dev.launch, dev, k,
      { grid = 1, block = 32, regs = 2^32 // 1 + 32 })
fails("grid dimensions must be integers from 1", dev.launch, dev, k,
      { grid = 2^32 // 1 + 1, block = 32 })
fails("block dimensions must be integers from 1", dev.launch, dev, k,
      { grid = 1, block = { 32, 2^32 // 1 + 1 } })
fails("too large to simulate", dev.launch, dev, k,
      { grid = { 2^31 // 1 - 1, 2^31 // 1 - 1, 2^31 // 1 - 1 }, block = 1 })
fails("exceeds the device's 1024 threads", dev.occupancy, dev,
      { block = { 2^16 // 1, 2^16 // 1, 2 } })
fails("option 'shared' must be", dev.occupancy, dev,
      { block = 32, shared = -1 })
-- inside kernels: shared and local arrays
fails("too large", dev.launch, dev, wl.kernel(function(c)
  c:shared("double", 2^62 // 1)
end), { grid = 1, block = 1 })
fails("too large", dev.launch, dev, wl.kernel(function(c)
  c:local_array("double", 2^62 // 1)
end), { grid = 1, block = 1 })
-- a kernel's view below its start, inside the array
local B = dev:malloc("int32", 64)
dev:launch(wl.kernel(function(c, b)
  local v = b:view(8)
  v[-1] = 5
  v[-8] = 1
end), { grid = 1, block = 1 }, B)
local r = B:read()
assert(r[8] == 5 and r[1] == 1)
fails("out of bounds for global view", dev.launch, dev, wl.kernel(function(c, b)
  b:view(8)[-9] = 1
end), { grid = 1, block = 1 }, B)
print("limits ok")

-- CUDA's gaps, as CUDA has them: no atomicMax/atomicMin on floats; Hopper
-- ignores cudaDeviceSetSharedMemConfig
local F = dev:malloc("float", 4)
fails("CUDA has no atomicMax for float", dev.launch, dev,
      wl.kernel(function(c, f) c:atomicMax(f, 0, 1.5) end), { block = 1 }, F)
fails("CUDA has no atomicMin for floating-point", dev.launch, dev,
      wl.warp_kernel(function(w, f) w:atomicMin(f, 0, 1.5) end),
      { block = 32 }, F)
dev:launch(wl.kernel(function(c, f) c:atomicAdd(f, 0, 1.5) end),
           { block = 2 }, F)
assert(F:read()[1] == 3.0)
local prev, note = dev:set_shared_mem_config("eight_byte")
assert(prev == "four_byte" and note:find("sm_90 ignores", 1, true), note)
assert(dev.config.bank_bytes == 4)
print("gaps ok")

-- the explorer's limits name the file, line (and column) of the
-- instruction or call that crossed them
local function rep(s, n) local t = {} for i = 1, n do t[i] = s end return t end
local here = debug.getinfo(1, "S").short_src
local function at(col)
  local line = debug.getinfo(2, "l").currentline + 1 -- the next line's
  return here .. ":" .. line .. (col and ":" .. col or "") .. ": "
end
fails(at(1) .. "more than 32 fence.sc in one execution", function()
  return wl.litmus { rep("fence.sc.gpu", 33) }:explore() end)
fails(at(1) .. "an execution has more than 256 events", function()
  return wl.litmus { rep("st.weak x, 1", 45), rep("st.weak y, 1", 45),
                     rep("st.weak x, 2", 45), rep("st.weak y, 2", 45),
                     rep("st.weak x, 3", 45), rep("st.weak y, 3", 45) }
  :explore() end)
fails(at(1) .. "thread P0 executes more than 48 memory events", function()
  return wl.litmus { rep("st.weak x, 1", 49) }:explore() end)
-- the limits say which bound was crossed (issue 20): straight-line code
-- is not helped by --unroll; a loop unrolled too far is
local function says(want, nowant, f)
  local ok, e = pcall(f)
  assert(not ok, "expected an error with " .. want)
  e = tostring(e)
  assert(e:find(want, 1, true), e)
  assert(not e:find(nowant, 1, true), e)
end
says("in straight-line code (the explorer's limit per thread; no loop is "
     .. "unrolled, so --unroll does not help)", "lower the unroll", function()
  return wl.litmus { rep("st.weak x, 1", 49) }:explore() end)
says("(straight-line code), so --unroll does not help", "lower the unroll",
     function()
  return wl.litmus { rep("st.weak x, 1", 45), rep("st.weak y, 1", 45),
                     rep("st.weak x, 2", 45), rep("st.weak y, 2", 45),
                     rep("st.weak x, 3", 45), rep("st.weak y, 3", 45) }
  :explore() end)
says("with its loops unrolled 60 times; lower the unroll bound", "straight",
     function()
  return wl.litmus { { "LC00:", "st.weak x, r1", "add r1, r1, 1",
                       "bne r1, 100, LC00" } }:explore { unroll = 60 } end)
-- a function thread past the limit is refused, not listed as a cut loop
-- with the states of the part that fit
says("thread P0 makes more than 48 memory events in one run (the "
     .. "explorer's limit per thread; no location is read twice", "lower",
     function()
  return wl.litmus { init = { x = 0 }, function(d)
    for i = 1, 49 do d.x = i end end }:explore() end)
says("with its loops unrolled 30 times; lower the unroll bound", "straight",
     function()
  return wl.litmus { init = { x = 0, y = 0 }, function(d)
    for _ = 1, 30 do d.y = d.x; d.x = 1 end end }:explore { unroll = 30 } end)
local nine_fences = wl.litmus { function(d)
  for _ = 1, 33 do
    d:fence("sc", "gpu") -- the 33rd crosses the limit
  end end }
fails(here .. ":" .. debug.getinfo(1, "l").currentline - 2 ..
      ": more than 32 fence.sc in one execution", nine_fences.explore,
      nine_fences)
local st1, st2 = {}, {}
for i = 1, 32 do st1[i] = "st.weak y, " .. i end
for i = 1, 31 do st2[i] = "st.weak z, " .. i end
-- 33 values of y times 32 of z: 1056 values of x, past the 1024 allowed
local many = wl.litmus { init = { x = 0, y = 0, z = 0 }, st1, st2,
  function(d)
    local a, b = d.y, d.z
    d.x = a * 33 + b -- the write past the limit
  end }
fails(here .. ":" .. debug.getinfo(1, "l").currentline - 2 ..
      ": location 'x' can hold more than 1024 values", many.explore, many)

-- barrier counts: zero or negative is refused where it is written; so
-- is a barrier id PTX does not have, and bar_arrive without a count
fails(at(13) .. "barrier thread count -5: a count must be positive",
      function() return wl.litmus { { "bar.sync 0, -5" } } end)
fails(at(15) .. "barrier thread count 0", function()
  return wl.litmus { { "bar.arrive 1, 0" } } end)
fails(at(20) .. "barrier thread count -2", function()
  return wl.litmus { { "bar.cta.sync 1, 1, -2" } } end)
fails(at(10) .. "barrier id 16 out of range", function()
  return wl.litmus { { "bar.sync 16" } } end)
fails("bar_arrive needs a thread count", function()
  return wl.litmus { function(d) d:bar_arrive(1) end }:explore() end)
assert(wl.litmus { { "bar.sync 1, 64" } }:explore(), "a count of 64")
