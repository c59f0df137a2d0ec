-- Naive vs tiled matrix multiplication (CUDA Programming Guide, "Shared
-- Memory"; Kirk & Hwu's tiled kernel): P = M x N for 64 x 64 float
-- matrices, 16 x 16 thread blocks.  The tiled kernel stages 16 x 16 tiles
-- of M and N in shared memory, so each element is loaded from global
-- memory 64/16 = 4 times instead of 64 times.
local wl = require "warplab"

local WIDTH = tonumber(arg and arg[1]) or 64
local TILE = 16

local naive = wl.kernel(function(c, M, N, P, width)
  local row = c.blockIdx.y * c.blockDim.y + c.threadIdx.y
  local col = c.blockIdx.x * c.blockDim.x + c.threadIdx.x
  local sum = 0.0
  for k = 0, width - 1 do
    sum = sum + M[row * width + k] * N[k * width + col]
  end
  P[row * width + col] = sum
end, { name = "naive" })

local tiled = wl.kernel(function(c, M, N, P, width)
  local Mds = c:shared("float", TILE * TILE, "Mds")
  local Nds = c:shared("float", TILE * TILE, "Nds")
  local tx, ty = c.threadIdx.x, c.threadIdx.y
  local row = c.blockIdx.y * TILE + ty
  local col = c.blockIdx.x * TILE + tx
  local sum = 0.0
  for m = 0, width // TILE - 1 do
    Mds[ty * TILE + tx] = M[row * width + m * TILE + tx]
    Nds[ty * TILE + tx] = N[(m * TILE + ty) * width + col]
    c:syncthreads()
    for k = 0, TILE - 1 do
      sum = sum + Mds[ty * TILE + k] * Nds[k * TILE + tx]
    end
    c:syncthreads()
  end
  P[row * width + col] = sum
end, { name = "tiled" })

-- The tiled kernel as a warp-vector kernel: the function runs once per
-- warp; tx, ty, row, col are lane vectors (one value per lane), each
-- operation handles the warp's 32 lanes, and Mds[i] with a lane vector
-- index is one warp-wide request.  Same code, same requests, same
-- counters; several times faster to simulate.
local wtiled = wl.warp_kernel(function(w, M, N, P, width)
  local Mds = w:shared("float", TILE * TILE, "Mds")
  local Nds = w:shared("float", TILE * TILE, "Nds")
  local tx, ty = w.threadIdx.x, w.threadIdx.y
  local row = w.blockIdx.y * TILE + ty
  local col = w.blockIdx.x * TILE + tx
  local sum = 0.0
  for m = 0, width // TILE - 1 do
    Mds[ty * TILE + tx] = M[row * width + m * TILE + tx]
    Nds[ty * TILE + tx] = N[(m * TILE + ty) * width + col]
    w:syncthreads()
    for k = 0, TILE - 1 do
      sum = sum + Mds[ty * TILE + k] * Nds[k * TILE + tx]
    end
    w:syncthreads()
  end
  P[row * width + col] = sum
end, { name = "warp-vector tiled" })

-- bench/kernel_rate.lua measures these very kernels: loaded with
-- "kernels" as its argument, the script hands them over and stops here
if select(1, ...) == "kernels" then
  return { naive = naive, tiled = tiled, wtiled = wtiled, TILE = TILE }
end

local dev = wl.device { preset = "sm_90" }
local M = dev:malloc("float", WIDTH * WIDTH, "M")
local N = dev:malloc("float", WIDTH * WIDTH, "N")
local P = dev:malloc("float", WIDTH * WIDTH, "P")
local m, n = {}, {}
for i = 0, WIDTH * WIDTH - 1 do
  m[i + 1] = (i % 5) - 2
  n[i + 1] = (i % 3) - 1
end
M:write(m)
N:write(n)
local function check_product()
  local p = P:read()
  for row = 0, WIDTH - 1, 7 do
    for col = 0, WIDTH - 1, 5 do
      local s = 0
      for k = 0, WIDTH - 1 do
        s = s + m[row * WIDTH + k + 1] * n[k * WIDTH + col + 1]
      end
      assert(p[row * WIDTH + col + 1] == s, "wrong product")
    end
  end
end

local cfg = { grid = { WIDTH // TILE, WIDTH // TILE }, block = { TILE, TILE } }
local results = {}
for _, k in ipairs({ naive, tiled }) do
  P:write(0)
  local t0 = os.clock()
  local r = dev:launch(k, cfg, M, N, P, WIDTH)
  local secs = os.clock() - t0
  check_product()
  results[k.name] = r
  print(("%s kernel (%dx%d, %dx%d tiles), %.2f s of simulation:"):format(
    k.name, WIDTH, WIDTH, TILE, TILE, secs))
  print(r)
  print()
end

local ld = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
local sec = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
local a, b = results.naive.counters, results.tiled.counters
print(("global load requests: naive %d, tiled %d (%.0fx fewer: the tile width)"):format(
  a[ld], b[ld], a[ld] / b[ld]))
print(("global load sectors:  naive %d, tiled %d"):format(a[sec], b[sec]))
assert(a[ld] == b[ld] * TILE, "tiling divides global load requests by TILE")
-- tile stores: each warp stores two rows of 16 consecutive floats (one
-- bank each): no conflicts; the inner loop reads Mds by broadcast (one
-- word per half-warp row) and Nds by consecutive words: no conflicts
local wst = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
local cst = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
local cld = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
print(("tile stores: %d wavefronts, %d bank conflicts; tile loads: %d conflicts"):format(
  b[wst], b[cst], b[cld]))
assert(b[cst] == 0 and b[cld] == 0, "the tiled kernel is conflict-free")

-- The warp-vector kernel against the per-thread one, each on a fresh
-- device (L2 stays warm across launches): every counter of every site
-- is the same (sites are keyed by kind, space, width and line offset:
-- the two kernels sit at different lines), and so is the product.
local function fresh(k)
  local d = wl.device { preset = "sm_90" }
  local dM = d:malloc("float", WIDTH * WIDTH, "M")
  local dN = d:malloc("float", WIDTH * WIDTH, "N")
  local dP = d:malloc("float", WIDTH * WIDTH, "P")
  dM:write(m)
  dN:write(n)
  local t0 = os.clock()
  local r = d:launch(k, cfg, dM, dN, dP, WIDTH)
  return r, dP:read(), os.clock() - t0
end
local rs, ps, ts = fresh(tiled)
local rw, pw, tw = fresh(wtiled)
print(("warp-vector tiled kernel, %.2f s of simulation (per-thread: %.2f s):"):format(
  tw, ts))
print(rw)
local function key(s, first)
  return ("%d %s %s %d"):format(s.line - first, s.space, s.op, s.width)
end
local function sites(r)
  local first, t = math.huge, {}
  for _, s in ipairs(r.sites) do first = math.min(first, s.line) end
  for _, s in ipairs(r.sites) do t[key(s, first)] = s.counters end
  return t
end
local ss, sw = sites(rs), sites(rw)
local nsites = 0
for k, c in pairs(ss) do
  nsites = nsites + 1
  assert(sw[k], "warp-vector kernel lacks site " .. k)
  for name, v in pairs(c) do
    assert(sw[k][name] == v, ("site %s: %s is %d per thread, %d per warp"):format(
      k, name, v, sw[k][name]))
  end
end
for k in pairs(sw) do assert(ss[k], "extra site " .. k) end
for name, v in pairs(rs.counters) do
  assert(rw.counters[name] == v, name .. " differs")
end
assert(rs.steps == rw.steps, "scheduler steps differ")
for i = 1, WIDTH * WIDTH do assert(ps[i] == pw[i], "products differ") end
print(("warp-vector == per-thread: %d sites, every counter equal, same product"):format(
  nsites))

-- The race detector and the other checkers (check = true) find nothing
-- in either tiled kernel: every tile is written before one
-- __syncthreads() and read before the next.
for _, k in ipairs({ tiled, wtiled }) do
  local d = wl.device { preset = "sm_90" }
  local dM = d:malloc("float", WIDTH * WIDTH, "M")
  local dN = d:malloc("float", WIDTH * WIDTH, "N")
  local dP = d:malloc("float", WIDTH * WIDTH, "P")
  dM:write(m)
  dN:write(n)
  local r = d:launch(k, { grid = cfg.grid, block = cfg.block, check = true },
                     dM, dN, dP, WIDTH)
  print(("%s with check = true: %d findings"):format(k.name, #r.findings))
  assert(#r.findings == 0, k.name .. " is race-free")
end
