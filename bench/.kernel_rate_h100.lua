-- kernel_rate.lua [reps] -- simulated warp memory instructions per second
-- for the tour's tiled matrix multiplication (64 x 64 floats, 16 x 16
-- tiles: 16 blocks of 256 threads, 18,560 warp-wide memory instructions
-- per launch).  CPU time of the launches only (os.clock), best of reps.
local wl = require "warplab"
local reps = tonumber(arg[1]) or 5
local WIDTH, TILE = 64, 16

-- the tour's kernels themselves (scripts/examples/09_matmul.lua)
local here = arg[0]:match("^(.*)/[^/]*$") or "."
local K = assert(loadfile(here .. "/../scripts/examples/09_matmul.lua"))(
  "kernels")
local tiled, wtiled = K.tiled, K.wtiled
assert(K.TILE == TILE)

local dev = wl.device "sm_90"
local M = dev:malloc("float", WIDTH * WIDTH, "M")
local N = dev:malloc("float", WIDTH * WIDTH, "N")
local P = dev:malloc("float", WIDTH * WIDTH, "P")
M:write(1.0); N:write(2.0)
local cfg = { grid = { WIDTH // TILE, WIDTH // TILE }, block = { TILE, TILE }, profile = "h100" }
local function rate(k)
  local best, inst = math.huge, 0
  for i = 1, reps do
    cfg.seed = i
    P:write(0)
    local t0 = os.clock()
    local r = dev:launch(k, cfg, M, N, P, WIDTH)
    local dt = os.clock() - t0
    inst = r.counters["smsp__inst_executed.sum"]
    if dt < best then best = dt end
  end
  assert(P:read()[1] == 2.0 * WIDTH, "wrong product")
  return best, inst
end
local best, inst = rate(tiled)
print(("kernel: tiled matmul %dx%d, %d warp memory instructions per launch, best of %d: %.3f s -> %.0f warp memory instructions/s (target 1,000,000)"):format(
  WIDTH, WIDTH, inst, reps, best, inst / best))
local wbest
wbest, inst = rate(wtiled)
print(("kernel: tiled matmul (warp-vector kernel) %dx%d, %d warp memory instructions per launch, best of %d: %.3f s -> %.0f warp memory instructions/s (target 1,000,000)"):format(
  WIDTH, WIDTH, inst, reps, wbest, inst / wbest))
-- the same launches with every checker on (race detector, uninitialised
-- reads, spins): the cost of check = true (target: at most 2x)
cfg.check = true
local cbest = rate(tiled)
print(("kernel: tiled matmul with check = true, best of %d: %.3f s -> %.0f warp memory instructions/s, %.2fx the time without (target <= 2x)"):format(
  reps, cbest, inst / cbest, cbest / best))
local cwbest = rate(wtiled)
print(("kernel: tiled matmul (warp-vector kernel) with check = true, best of %d: %.3f s -> %.0f warp memory instructions/s, %.2fx the time without (target <= 2x)"):format(
  reps, cwbest, inst / cwbest, cwbest / wbest))
cfg.check = nil
