-- Occupancy: how many blocks an SM holds at once, and which resource
-- runs out first.  Part 1 is the CUDA Programming Guide's lesson (also
-- Kirk & Hwu, "Programming Massively Parallel Processors"): an SM with
-- 16 KB of shared memory and 768 threads (wl.device "toy": also 8 blocks
-- and 24 warps per SM); each block uses 2 KB of shared memory.  Part 2
-- is an H100 (sm_90): registers, and the shared-memory carve-out of the
-- unified 256 KB L1 chosen by cudaFuncSetAttribute(...PreferredShared
-- MemoryCarveout) -- here the launch's cache preference.
local wl = require "warplab"

local toy = wl.device "toy"
-- The Guide's SM has all 16 KB as shared memory: the toy preset has a
-- fixed carve-out (fixed_carveout = 1), so the cache preference changes
-- nothing there; on sm_90 it does (part 2).
local SH = "none"
print("1. toy SM: 16 KB shared, 768 threads, at most 8 blocks; 2 KB per block")
print("   threads/block  by threads  by shared  blocks/SM  limited by")
local expect = { [64] = { 12, 8 }, [128] = { 6, 6 }, [256] = { 3, 3 },
                 [512] = { 1, 1 } }
for _, t in ipairs({ 64, 128, 256, 512 }) do
  local o = toy:occupancy { block = t, shared = 2048, cache = SH }
  print(("   %13d  %10d  %9d  %9d  %s"):format(t, o.by_threads, o.by_shared,
    o.blocks_per_sm, o.limited_by))
  -- 16 KB / 2 KB: shared memory allows 8 blocks whatever their size
  assert(o.by_shared == 8, "2 KB per block: 8 blocks by shared memory")
  assert(o.by_threads == expect[t][1] and o.blocks_per_sm == expect[t][2])
end
-- 64 threads: shared memory and the 8-block limit both allow 8 (the
-- report names the first of a tie); 256 threads: 768 / 256 = 3 blocks:
-- threads limit, not shared memory
local o = toy:occupancy { block = 256, shared = 2048, cache = SH }
assert(o.blocks_per_sm == 3 and o.limited_by == "threads")
-- more shared memory per block: now it is the limit
print("   shared/block   by threads  by shared  blocks/SM  limited by")
for _, kb in ipairs({ 2, 4, 6, 8 }) do
  o = toy:occupancy { block = 128, shared = kb * 1024, cache = SH }
  print(("   %10d KB  %10d  %9d  %9d  %s"):format(kb, o.by_threads,
    o.by_shared, o.blocks_per_sm, o.limited_by))
  assert(o.by_shared == 16 // kb)
  assert(o.blocks_per_sm == math.min(6, 16 // kb))
end
assert(o.limited_by == "shared memory", "8 KB blocks: 2 per SM by shared")

-- a launch on the toy device reports the same: 6 blocks of 256 threads,
-- each with a 2 KB __shared__ array, run 3 at a time
local k = wl.kernel(function(c, out)
  local buf = c:shared("float", 512, "buf") -- 2 KB
  local t = c.threadIdx.x
  buf[t] = t
  buf[t + 256] = t
  c:syncthreads()
  if t == 0 then out[c.blockIdx.x] = buf[255] + buf[511] end
end, { name = "two_kb" })
local out = toy:malloc("float", 6, "out")
local r = toy:launch(k, { grid = 6, block = 256, cache = SH }, out)
print("\n   launch of 6 blocks x 256 threads on the toy SM:")
print("   " .. tostring(r):match("^[^\n]+"))
assert(r.occupancy.blocks_per_sm == 3 and r.occupancy.limited_by == "threads")
assert(r.occupancy.by_shared == 8 and r.occupancy.warps_per_sm == 24)
assert(r.occupancy.occupancy == 1.0, "3 x 8 warps fill the 24 warp slots")
for _, v in ipairs(out:read()) do assert(v == 510) end

-- 2. H100: 65,536 registers per SM, allocated per warp in units of 256
local h100 = wl.device { preset = "sm_90" }
print("\n2. sm_90, 256 threads per block: registers per thread")
print("   regs  by registers  by threads  blocks/SM  warps  limited by")
local by_regs = { [32] = 8, [64] = 4, [128] = 2, [255] = 1 }
for _, regs in ipairs({ 32, 64, 128, 255 }) do
  o = h100:occupancy { block = 256, regs = regs }
  print(("   %4d  %12d  %10d  %9d  %5d  %s"):format(regs, o.by_registers,
    o.by_threads, o.blocks_per_sm, o.warps_per_sm, o.limited_by))
  assert(o.by_registers == by_regs[regs] and o.by_threads == 8)
end
-- 128 registers x 256 threads = 32,768 per block: 2 blocks, 16 warps
o = h100:occupancy { block = 256, regs = 128 }
assert(o.blocks_per_sm == 2 and o.limited_by == "registers")
assert(o.warps_per_sm == 16 and o.occupancy == 0.25)

-- the carve-out: a block of 256 threads with 40 KB of shared memory
-- (+1 KB the system reserves per block)
print("\n   40 KB shared per block, 256 threads: the carve-out")
print("   cache            carve-out  blocks/SM  L1 left  limited by")
local carve = {}
for _, pref in ipairs({ "prefer_shared", "prefer_equal", "prefer_l1" }) do
  o = h100:occupancy { block = 256, shared = 40 * 1024, cache = pref }
  carve[pref] = o
  print(("   %-15s  %6d KB  %9d  %4d KB  %s"):format(pref,
    o.shared_per_sm // 1024, o.blocks_per_sm,
    256 - o.shared_per_sm // 1024, o.limited_by))
end
-- PreferShared: all 228 KB, 228 // 41 = 5 blocks; PreferL1: the smallest
-- carve-out that holds one block (64 KB), 1 block and 192 KB of L1
assert(carve.prefer_shared.shared_per_sm == 228 * 1024 and
       carve.prefer_shared.blocks_per_sm == 5)
assert(carve.prefer_l1.shared_per_sm == 64 * 1024 and
       carve.prefer_l1.blocks_per_sm == 1)
assert(carve.prefer_equal.shared_per_sm == 132 * 1024 and
       carve.prefer_equal.blocks_per_sm == 3)
for _, c in pairs(carve) do assert(c.limited_by == "shared memory") end
-- and a launch picks it up
local big = wl.kernel(function(c)
  local s = c:shared("float", 10 * 1024, "s") -- 40 KB
  s[c.threadIdx.x] = 1
end)
for _, pw in ipairs({ { "prefer_shared", 5 }, { "prefer_l1", 1 } }) do
  local pref, want = pw[1], pw[2]
  r = h100:launch(big, { grid = 1, block = 256, cache = pref })
  print(("   launch with cache = %q: %s"):format(pref,
    tostring(r):match("^[^\n]+")))
  assert(r.occupancy.blocks_per_sm == want)
end
