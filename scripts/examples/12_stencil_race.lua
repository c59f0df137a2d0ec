-- A tiled 1-D stencil (the CUDA "shared memory" lesson): each block
-- stages its tile of the input, plus RADIUS halo cells on each side, in
-- shared memory, then every thread sums 2 * RADIUS + 1 neighbours from
-- the tile.  Without the __syncthreads() between the staging stores and
-- the sums, a thread reads tile cells that other threads of its block
-- have not stored yet: a data race, which the race detector (launch
-- option check = true) reports with both source lines, both threads, the
-- address, and what would order them.
local wl = require "warplab"

local N, B, RADIUS = 512, 128, 3

local function stencil(sync)
  return wl.kernel(function(c, inp, out)
    local tile = c:shared("float", B + 2 * RADIUS, "tile")
    local t = c.threadIdx.x
    local g = c.blockIdx.x * B + t
    tile[t + RADIUS] = inp[g + RADIUS]                  -- STORE
    if t < RADIUS then
      tile[t] = inp[g]                                  -- halo, left
      tile[t + B + RADIUS] = inp[g + B + RADIUS]        -- halo, right
    end
    if sync then c:syncthreads() end
    local s = 0
    for k = -RADIUS, RADIUS do s = s + tile[t + RADIUS + k] end  -- LOAD
    out[g] = s
  end, { name = sync and "stencil" or "stencil without __syncthreads" })
end

-- the lines this script asserts the report names
local STORE_LINE, LOAD_LINE = 18, 25

local dev = wl.device { preset = "sm_90" }
local inp = dev:malloc("float", N + 2 * RADIUS, "in")
local out = dev:malloc("float", N, "out")
local v = {}
for i = 1, N + 2 * RADIUS do v[i] = i % 10 end
inp:write(v)
out:write(0)

-- without the barrier
local r = dev:launch(stencil(false), { grid = N // B, block = B,
                                       check = true }, inp, out)
print("without __syncthreads():")
print(wl.findings_text(r.findings))
local race
for _, f in ipairs(r.findings) do
  if f.kind == "race" and f.name == "tile" and f.space == "shared" then
    local lines = { [f.a.line] = true, [f.b.line] = true }
    if lines[STORE_LINE] and lines[LOAD_LINE] then race = f end
  end
end
assert(race, "the race between the tile's store and load is reported")
assert(race.fix:find("__syncthreads"), "the report says what orders them")
assert(race.a.warp ~= race.b.warp, "threads of different warps")

-- with it: nothing to report, and the sums are right
r = dev:launch(stencil(true), { grid = N // B, block = B, check = true },
               inp, out)
print()
print(("with __syncthreads(): %d findings"):format(#r.findings))
assert(#r.findings == 0, "the synchronized stencil is race-free")
local o = out:read()
for i = 0, N - 1 do
  local s = 0
  for k = 0, 2 * RADIUS do s = s + v[i + k + 1] end
  assert(o[i + 1] == s, "wrong sum")
end
print([[

The race shows up even though this run's sums may be right: the
detector does not wait for a wrong value, it finds the two accesses that
nothing orders (PTX: conflicting, not morally strong, not ordered by
causality).  Accesses by lanes of one warp are reported separately as
warp-synchronous hazards (14_warp_reduction.lua).]])
