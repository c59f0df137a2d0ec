-- kernel_bound.lua [reps] -- the ceiling of the per-thread kernel style:
-- the tour's per-thread tiled matmul (64 x 64 floats, 16 x 16 tiles)
-- run as plain Lua, thread after thread, on Lua tables instead of
-- device arrays -- the kernel's own arithmetic and indexing with no
-- simulation at all (no scheduler, no memory model, no costs).  Prints
-- the rate in warp memory instructions per second (18,560 a launch, as
-- bench/kernel_rate.lua counts them): no per-thread simulation, which
-- runs this Lua for every lane, can pass it on one core.
local reps = tonumber(arg[1]) or 5
local WIDTH, TILE = 64, 16
local M, N, P = {}, {}, {}
for i = 0, WIDTH * WIDTH - 1 do M[i] = 1.0; N[i] = 2.0; P[i] = 0 end
-- the kernel of scripts/examples/09_matmul.lua, with c's fields passed
-- in and the block's shared tiles as tables; threads run one after the
-- other up to each barrier (a coroutine per thread, as launches do)
local function tiled(c, Mds, Nds, M_, N_, P_, width)
  local tx, ty = c.threadIdx.x, c.threadIdx.y
  local row = c.blockIdx.y * TILE + ty
  local col = c.blockIdx.x * TILE + tx
  local sum = 0.0
  for m = 0, width // TILE - 1 do
    Mds[ty * TILE + tx] = M_[row * width + m * TILE + tx]
    Nds[ty * TILE + tx] = N_[(m * TILE + ty) * width + col]
    coroutine.yield() -- __syncthreads
    for k = 0, TILE - 1 do
      sum = sum + Mds[ty * TILE + k] * Nds[k * TILE + tx]
    end
    coroutine.yield()
  end
  P_[row * width + col] = sum
end
local function launch()
  for by = 0, WIDTH // TILE - 1 do
    for bx = 0, WIDTH // TILE - 1 do
      local Mds, Nds, cos = {}, {}, {}
      for t = 0, TILE * TILE - 1 do
        local c = { threadIdx = { x = t % TILE, y = t // TILE },
                    blockIdx = { x = bx, y = by } }
        local co = coroutine.create(tiled)
        cos[#cos + 1] = co
        assert(coroutine.resume(co, c, Mds, Nds, M, N, P, WIDTH))
      end
      local alive = true
      while alive do
        alive = false
        for _, co in ipairs(cos) do
          if coroutine.status(co) == "suspended" then
            assert(coroutine.resume(co))
            alive = true
          end
        end
      end
    end
  end
end
local best = math.huge
for _ = 1, reps do
  local t0 = os.clock()
  launch()
  local dt = os.clock() - t0
  if dt < best then best = dt end
end
assert(P[0] == 2.0 * WIDTH, "wrong product")
-- warp memory instructions of the launch: per warp, 2 global loads and
-- 2 shared stores per tile step, 2 x TILE shared loads per tile step,
-- one global store (bench/kernel_rate.lua's 18,560)
local warps = WIDTH * WIDTH // 32
local inst = warps * ((WIDTH // TILE) * (4 + 2 * TILE) + 1)
print(("kernel_bound: the per-thread tiled matmul %dx%d as plain Lua, "
       .. "no simulation: best of %d %.3f s -> %.0f warp memory "
       .. "instructions/s (the ceiling of the per-thread style on one "
       .. "core; issue 21's target 1,000,000)"):format(WIDTH, WIDTH, reps,
                                                       best, inst / best))
