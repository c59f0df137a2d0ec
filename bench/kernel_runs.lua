-- kernel_runs.lua WHAT N JOBS -- dev:runs for bench/kernel_runs.sh: N runs
-- of a kernel on JOBS cores, printing the histogram (the same for any
-- JOBS: the shell script compares them).  WHAT: "matmul", the tour's
-- per-thread tiled matrix multiplication (scripts/examples/09_matmul.lua:
-- 64 x 64 floats, 16 blocks of 256 threads, one launch a run; issue 24's
-- kernel target), or "mp", a two-block flag handoff (many short runs).
local wl = require "warplab"
local what, n, jobs = arg[1], tonumber(arg[2]), tonumber(arg[3])
assert(what and n and jobs, "usage: kernel_runs.lua matmul|mp N JOBS")
local dev = wl.device "sm_90"
local h
if what == "matmul" then
  local here = arg[0]:match("^(.*)/[^/]*$") or "."
  local K = assert(loadfile(here .. "/../scripts/examples/09_matmul.lua"))(
    "kernels")
  local WIDTH, TILE = 64, K.TILE
  local M = dev:malloc("float", WIDTH * WIDTH, "M")
  local N = dev:malloc("float", WIDTH * WIDTH, "N")
  local P = dev:malloc("float", WIDTH * WIDTH, "P")
  M:write(1.0); N:write(2.0); P:write(0)
  h = dev:runs(K.tiled, { grid = { WIDTH // TILE, WIDTH // TILE },
                          block = { TILE, TILE } },
               { n = n, jobs = jobs, seed = 1,
                 out = function(_, _, p)
                   for _, v in ipairs(p:read()) do
                     if v ~= 2.0 * WIDTH then return "wrong product" end
                   end
                   return "right product"
                 end }, M, N, P, WIDTH)
  assert(h.counts["right product"] == n, tostring(h))
elseif what == "mp" then
  local k = wl.kernel(function(c, flag, data, out)
    if c.threadIdx.x ~= 0 then return end
    if c.blockIdx.x == 0 then data[0] = 42; flag[0] = 1
    else out[0] = flag[0] * 100 + data[0] end
  end)
  h = dev:runs(k, { grid = 2, block = 32, slice = 1 },
               { n = n, jobs = jobs, seed = 1, profile = "weak" },
               dev:malloc("int32", 1, "flag"), dev:malloc("int32", 1, "data"),
               dev:malloc("int32", 1, "out"))
else
  error("kernel_runs.lua: matmul or mp, not " .. tostring(what))
end
print(h)
