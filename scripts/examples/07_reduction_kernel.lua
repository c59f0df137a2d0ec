-- The threadfence reduction as a real kernel (CUDA Programming Guide,
-- "Memory Fence Functions"): 8 blocks x 128 threads sum 1024 numbers.
-- Each block reduces its slice in shared memory, thread 0 writes the
-- block's partial sum to global memory and takes a ticket with
-- atomicInc; the block that draws the last ticket sums the partials.
-- Without __threadfence() between the partial-sum store and atomicInc,
-- the last block can read a partial sum that has not reached L2 yet.
local wl = require "warplab"

local BLOCKS, THREADS = 8, 128
local N = BLOCKS * THREADS

local function reduction(with_fence)
  return wl.kernel(function(c, input, partial, count, result)
    local sdata = c:shared("int32", THREADS, "sdata")
    local last = c:shared("int32", 1, "isLastBlockDone")
    local t, b = c.threadIdx.x, c.blockIdx.x
    sdata[t] = input[b * THREADS + t]
    c:syncthreads()
    local s = THREADS // 2
    while s > 0 do
      if t < s then sdata[t] = sdata[t] + sdata[t + s] end
      c:syncthreads()
      s = s // 2
    end
    if t == 0 then
      partial[b] = sdata[0]
      if with_fence then c:threadfence() end
      local ticket = c:atomicInc(count, 0, c.gridDim.x)
      last[0] = (ticket == c.gridDim.x - 1) and 1 or 0
    end
    c:syncthreads()
    if last[0] == 1 and t == 0 then
      local total = 0
      for i = 0, c.gridDim.x - 1 do total = total + partial[i] end
      result[0] = total
      count[0] = 0
    end
  end, { name = with_fence and "sum+threadfence" or "sum" })
end

local dev = wl.device { preset = "sm_90" }
local input = dev:malloc("int32", N, "input")
local values, expected = {}, 0
for i = 1, N do values[i] = i % 7 + 1; expected = expected + values[i] end
input:write(values)
local partial = dev:malloc("int32", BLOCKS, "partial")
local count = dev:malloc("int32", 1, "count")
local result = dev:malloc("int32", 1, "result")

local function run(k)
  return function(d, cfg)
    partial:write(0); count:write(0); result:write(0)
    d:launch(k, { grid = BLOCKS, block = THREADS, seed = cfg.seed,
                  profile = cfg.profile }, input, partial, count, result)
    local got = result:read()[1]
    return got == expected and "correct sum" or "stale sum"
  end
end

-- one launch, and what it costs
local r = dev:launch(reduction(true), { grid = BLOCKS, block = THREADS },
                     input, partial, count, result)
assert(result:read()[1] == expected, "the fenced reduction is correct")
print(("sum of %d numbers = %d"):format(N, expected))
print(r)

local RUNS = tonumber(arg and arg[1]) or 60
for _, fence in ipairs({ false, true }) do
  local h = dev:sample { n = RUNS, seed = 1, profile = "weak",
                        run = run(reduction(fence)),
                        condition = function(o) return o == "stale sum" end,
                        name = fence and "sum+threadfence" or "sum" }
  print()
  print(fence and "with __threadfence():" or "without a fence:")
  print(h)
  if fence then
    assert(h.seen == 0, "the fence must prevent stale sums")
  else
    assert(h.seen > 0, "sampling should find a stale sum without the fence")
  end
end
print([[

Without the fence, thread 0's partial-sum store can still sit in its
SM's store buffer when atomicInc (performed at L2) hands out the last
ticket, so the last block reads an old partial.  __threadfence() drains
the buffer before the ticket is taken.]])
