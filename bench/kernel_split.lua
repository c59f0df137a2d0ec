-- kernel_split.lua STYLE JOBS [LAUNCHES] -- launches of the tour's tiled
-- matmul (64 x 64 floats, 16 blocks of 256 threads; STYLE "thread":
-- per-thread, "warp": warp-vector), each with dev:launch{jobs = JOBS}
-- (0: without jobs); prints each launch's counters and the product's
-- checksum, which must be the same for any JOBS (bench/kernel_split.sh
-- compares).
local wl = require "warplab"
local here = arg[0]:match("^(.*)/[^/]*$") or "."
local K = assert(loadfile(here .. "/../scripts/examples/09_matmul.lua"))(
  "kernels")
local style, jobs = arg[1] or "thread", tonumber(arg[2]) or 1
local n = tonumber(arg[3]) or 4
local W = 64
local dev = wl.device "sm_90"
local M = dev:malloc("float", W * W, "M")
local N = dev:malloc("float", W * W, "N")
local P = dev:malloc("float", W * W, "P")
local mv, nv = {}, {}
for i = 1, W * W do mv[i] = i % 7; nv[i] = i % 5 - 2 end
M:write(mv)
N:write(nv)
local k = style == "warp" and K.wtiled or K.tiled
for i = 1, n do
  P:write(0)
  local r = dev:launch(k, { grid = { W // 16, W // 16 }, block = { 16, 16 },
                            seed = i, jobs = jobs > 0 and jobs or nil },
                       M, N, P, W)
  local c = r.counters
  print(("launch %d: %d warp instructions, L2 hits %d, steps %d"):format(
    i, c["smsp__inst_executed.sum"],
    c["lts__t_sectors_srcunit_tex_lookup_hit.sum"], r.steps))
end
-- the product of the last launch (the same for every launch)
local s = 0
for j, v in ipairs(P:read()) do s = s + v * j end
print(("checksum %.1f"):format(s))
