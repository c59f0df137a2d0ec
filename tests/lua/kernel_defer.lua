-- Deferred loads in per-thread kernels (engine/sim/defer.c,
-- bindings/lkreplay.c): a lane goes on with the value its load read at
-- issue; when the load, performed later, reads another value, the lane
-- is replayed with it and the replay takes its place only if it makes
-- the same events.  Checked here:
--  * a lane's two stores of one loaded value always agree, even when
--    the first was made before the load was performed (a replay that
--    made another event must be dropped: with the event comparison
--    broken, the stores disagree), and the late value does show; the
--    same for a warp-vector kernel (the warp is replayed, lwreplay.c),
--    where LB shows its weak outcome too, and not with defer = false;
--  * the kernel's Lua code before the load runs again in a replay (the
--    contract of sample{fn=} threads), and not with defer = false;
--  * a lane that declared a __shared__ array defers nothing (its log
--    could not repeat the declaration): LB shows no weak outcome;
--  * defer must be a boolean.
--
--   warplab run tests/lua/kernel_defer.lua [SHARED [LAUNCHES]]
local wl = require "warplab"

local N = tonumber(arg and arg[2]) or 600

local function check(cond, msg) if not cond then error(msg, 2) end end

local dev = wl.device { preset = "sm_90" }

-- one thread per block: block 0 loads x and stores r + 1 twice around a
-- store to z, block 1 stores x = 1
local twice = wl.kernel(function(c, O, X, Z)
  if c.blockIdx.x == 0 then
    local r = c:volatile_load(X, 0)
    O[0] = r + 1
    c:volatile_store(Z, 0, 1)
    O[1] = r + 1
  else
    c:volatile_store(X, 0, 1)
  end
end)

local O = dev:malloc("int32", 2, "O")
local X = dev:malloc("int32", 1, "x")
local Z = dev:malloc("int32", 1, "z")
local late, split = 0, 0
for seed = 1, N do
  O:write(0)
  X:write(0)
  Z:write(0)
  dev:launch(twice, { grid = 2, block = 1, profile = "h100", slice = 1,
                      seed = seed }, O, X, Z)
  local o = O:read()
  check(o[1] == o[2], ("seed %d: the lane stored %d, then %d, for one "
        .. "loaded value"):format(seed, o[1], o[2]))
  check(o[1] == 1 or o[1] == 2, "seed " .. seed .. ": stored " .. o[1])
  if o[1] == 2 then late = late + 1 end
end
check(late > 0, "no launch read x = 1")

-- the same in a warp-vector kernel: the warp is replayed (lwreplay.c);
-- each block's warp has one lane, and lane 0 of block 0's warp stores
-- its loaded value plus 1 twice around a store to z
local twice_w = wl.warp_kernel(function(w, O, X, Z)
  if w.blockIdx.x == 0 then
    local r = w:volatile_load(X, 0)
    O[0] = r + 1
    w:volatile_store(Z, 0, 1)
    O[1] = r + 1
  else
    w:volatile_store(X, 0, 1)
  end
end)
local wruns = 0
local counted_w = wl.warp_kernel(function(w, X, Y, O)
  wruns = wruns + 1
  if w.blockIdx.x == 0 then
    local r = w:volatile_load(X, 0)
    w:volatile_store(Y, 0, 1)
    O[0] = r
  else
    local r = w:volatile_load(Y, 0)
    w:volatile_store(X, 0, 1)
    O[1] = r
  end
end)
late = 0
local wweak, wreplays = 0, 0
do
  local Yw = dev:malloc("int32", 1, "yw")
  local Ow = dev:malloc("int32", 2, "Ow")
  for seed = 1, N do
    O:write(0)
    X:write(0)
    Z:write(0)
    dev:launch(twice_w, { grid = 2, block = 1, profile = "h100", slice = 1,
                          seed = seed }, O, X, Z)
    local o = O:read()
    check(o[1] == o[2], ("warp-vector, seed %d: the lane stored %d, then "
          .. "%d, for one loaded value"):format(seed, o[1], o[2]))
    check(o[1] == 1 or o[1] == 2, "warp-vector, seed " .. seed ..
          ": stored " .. o[1])
    if o[1] == 2 then late = late + 1 end
    -- LB as warps: the weak outcome shows, and warps are replayed
    X:write(0)
    Yw:write(0)
    Ow:write(0)
    wruns = 0
    dev:launch(counted_w, { grid = 2, block = 1, profile = "h100",
                            slice = 1, seed = seed }, X, Yw, Ow)
    local ow = Ow:read()
    if ow[1] == 1 and ow[2] == 1 then wweak = wweak + 1 end
    wreplays = wreplays + wruns - 2
  end
  check(late > 0, "warp-vector: no launch read x = 1")
  check(wweak > 0, "warp-vector LB shows no weak outcome")
  check(wreplays > 0, "no warp was replayed")
  wweak, wreplays = 0, 0
  for seed = 1, N // 4 do
    X:write(0)
    Yw:write(0)
    Ow:write(0)
    wruns = 0
    dev:launch(counted_w, { grid = 2, block = 1, profile = "h100",
                            slice = 1, seed = seed, defer = false },
               X, Yw, Ow)
    local ow = Ow:read()
    if ow[1] == 1 and ow[2] == 1 then wweak = wweak + 1 end
    wreplays = wreplays + wruns - 2
  end
  check(wweak == 0 and wreplays == 0,
        ("warp-vector, defer = false: LB %d times, %d replays")
        :format(wweak, wreplays))
end

-- Lua code before the load runs again when a lane is replayed
local runs = 0
local counted = wl.kernel(function(c, X, Y, O)
  runs = runs + 1
  if c.blockIdx.x == 0 then
    local r = c:volatile_load(X, 0)
    c:volatile_store(Y, 0, 1)
    O[0] = r
  else
    local r = c:volatile_load(Y, 0)
    c:volatile_store(X, 0, 1)
    O[1] = r
  end
end)
local Y = dev:malloc("int32", 1, "y")
local O2 = dev:malloc("int32", 2, "O2")
local function lb(k, cfg)
  local weak, total = 0, 0
  runs = 0
  for seed = 1, N do
    X:write(0)
    Y:write(0)
    O2:write(0)
    cfg.seed = seed
    dev:launch(k, cfg, X, Y, O2)
    local o = O2:read()
    if o[1] == 1 and o[2] == 1 then weak = weak + 1 end
    total = total + 2
  end
  return weak, runs - total
end
local weak, again = lb(counted, { grid = 2, block = 1, profile = "h100",
                                  slice = 1 })
check(weak > 0, "LB shows no weak outcome with deferred loads")
check(again > 0, "no lane was replayed (its Lua code ran once)")
weak, again = lb(counted, { grid = 2, block = 1, profile = "h100",
                            slice = 1, defer = false })
check(weak == 0 and again == 0,
      ("defer = false: LB %d times, %d replays"):format(weak, again))

-- a lane that declared a __shared__ array defers nothing
local shared = wl.kernel(function(c, X, Y, O)
  local S = c:shared("int32", 1)
  if c.blockIdx.x == 0 then
    local r = c:volatile_load(X, 0)
    c:volatile_store(Y, 0, 1)
    O[0] = r
  else
    local r = c:volatile_load(Y, 0)
    c:volatile_store(X, 0, 1)
    O[1] = r
  end
  S[0] = 1
end)
weak = lb(shared, { grid = 2, block = 1, profile = "h100", slice = 1 })
check(weak == 0, "LB with __shared__ declarations: " .. weak)

local ok, err = pcall(dev.launch, dev, twice, { grid = 2, block = 1,
                                                defer = 1 }, O, X, Z)
check(not ok and tostring(err):find("defer must be a boolean", 1, true),
      tostring(err))
print("kernel_defer: ok")

-- a lane whose log grows past what a replay may repeat stops deferring:
-- its loads still pending keep their first values, and its stores never
-- wait for them (before: "a store waits without a log")
do
  local long = wl.kernel(function(c, X, Y)
    for i = 0, 699 do
      local v = c:volatile_load(X, i % 4)
      c:volatile_store(Y, i % 4, v + 1)
    end
  end)
  local X = dev:malloc("int32", 4, "X")
  local Y = dev:malloc("int32", 4, "Y")
  for seed = 1, 40 do
    X:write(0)
    Y:write(0)
    local r = dev:launch(long, { grid = 2, block = 1, seed = seed,
                                 profile = "h100" }, X, Y)
    check(r ~= nil, "the long kernel launches")
    for i, v in ipairs(Y:read()) do
      check(v == 1, ("seed %d: Y[%d] = %s"):format(seed, i - 1, tostring(v)))
    end
  end
end
print("kernel_defer: long lanes ok")
