-- The device API inside per-thread kernels: atomics of every flavour,
-- load/store with semantics and scope, cache operators, fences, local
-- arrays, and the errors of bad arguments (with line, block, thread).
local wl = require "warplab"

local function check(cond, msg) if not cond then error(msg, 2) end end
local function fails(pattern, f, ...)
  local ok, err = pcall(f, ...)
  check(not ok, "expected an error matching " .. pattern)
  check(tostring(err):find(pattern), "error '" .. tostring(err) ..
        "' does not match '" .. pattern .. "'")
  return err
end

local dev = wl.device { sms = 4 }
local I = dev:malloc("int32", 8, "I")
local F = dev:malloc("float", 2, "F")
local O = dev:malloc("int32", 128, "O")

-- 2 blocks x 64 threads: every atomic flavour on its own counter
dev:launch(wl.kernel(function(c, I, F, O)
  local t = c.blockIdx.x * 64 + c.threadIdx.x
  c:atomicAdd(I, 0, 1)                          -- gpu scope
  c:atomicAdd_block(I, 1, 1)                    -- per block, same word
  c:atomicAdd_system(I, 2, 2)
  c:atomicMax(I, 3, t)
  c:atom("min", I, 4, -t, "relaxed", "gpu")
  c:atomic_fetch_add(I, 5, 3, "acq_rel", "gpu")
  local old = c:atomicExch(I, 6, t)
  c:atomicAdd(F, 0, 0.5)
  O[t] = old
end), { grid = 2, block = 64 }, I, F, O)
local i = I:read()
check(i[1] == 128 and i[2] == 128 and i[3] == 256, "add counts " ..
      i[1] .. " " .. i[2] .. " " .. i[3])
check(i[4] == 127 and i[5] == -127 and i[6] == 384, "max/min/fetch_add")
check(F:read()[1] == 64.0, "float atomicAdd")
-- atomicExch hands each old value out once (0 may come twice: the
-- initial value and thread 0's index)
local seen = {}
for _, v in ipairs(O:read()) do
  check(v == 0 or not seen[v], "atomicExch returned " .. v .. " twice")
  seen[v] = true
end

-- release/acquire flag across blocks, cuda::atomic style, and fences
local D = dev:malloc("int32", 2, "D")
local R = dev:malloc("int32", 1, "R")
for seed = 1, 20 do
  D:write(0)
  dev:launch(wl.kernel(function(c, D, R)
    if c.blockIdx.x == 0 then
      D[0] = 42
      c:atomic_store(D, 1, 1, "release", "gpu")
    else
      while c:atomic_load(D, 1, "acquire", "gpu") == 0 do end
      R[0] = D[0]
    end
  end), { grid = 2, block = 1, seed = seed, profile = "weak" }, D, R)
  check(R:read()[1] == 42, "release/acquire: seed " .. seed)
  D:write(0)
  dev:launch(wl.kernel(function(c, D, R)
    if c.blockIdx.x == 0 then
      c:store(D, 0, 7)
      c:fence("acq_rel", "gpu")
      c:store(D, 1, 1, "relaxed", "gpu")
    else
      while c:load(D, 1, "relaxed", "gpu") == 0 do end
      c:threadfence_system()
      R[0] = c:ld(D, 0, "cv")
    end
  end), { grid = 2, block = 1, seed = seed, profile = "weak" }, D, R)
  check(R:read()[1] == 7, "fence-fence message passing: seed " .. seed)
end

-- local arrays are per thread; c:st with a cache operator
dev:launch(wl.kernel(function(c, O)
  local t = c.threadIdx.x
  local loc = c:local_array("int32", 4)
  for k = 0, 3 do loc[k] = t * 10 + k end
  local s = 0
  for k = 0, 3 do s = s + loc[k] end
  c:st(O, t, s, "cg")
end), { grid = 1, block = 32 }, O)
check(O:read()[2] == 46 and O:read()[32] == 31 * 40 + 6, "local arrays")

-- bad arguments: clear errors naming line, block and thread
local err = fails("invalid load semantics 'bogus'", dev.launch, dev,
  wl.kernel(function(c, I) local x = c:load(I, 0, "bogus") end),
  { grid = 1, block = 1 }, I)
check(err:find("kernel_api.lua:%d+:") and err:find("thread %(0,0,0%)"), err)
fails("needs an integer array", dev.launch, dev,
  wl.kernel(function(c, F) c:atomicAnd(F, 0, 1) end), { grid = 1, block = 1 }, F)
fails("index 4 out of bounds for local array", dev.launch, dev,
  wl.kernel(function(c) local a = c:local_array("float", 4); a[4] = 1 end),
  { grid = 1, block = 1 })
fails("integer expected, got a fraction", dev.launch, dev,
  wl.kernel(function(c, I) I[0] = 1.5 end), { grid = 1, block = 1 }, I)
fails("can only be called inside a kernel", function()
  local ctx
  dev:launch(wl.kernel(function(c) ctx = c end), { grid = 1, block = 1 })
  ctx:syncthreads()
end)
fails("launches do not nest", dev.launch, dev,
  wl.kernel(function(c) dev:launch(wl.kernel(function() end), { grid = 1, block = 1 }) end),
  { grid = 1, block = 1 })

print("kernel_api: ok")
