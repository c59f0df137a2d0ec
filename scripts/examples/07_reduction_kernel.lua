-- The threadfence reduction as a real kernel (CUDA Programming Guide,
-- "Memory Fence Functions"): 8 blocks x 128 threads sum 1024 numbers.
-- Each block reduces its slice in shared memory, thread 0 writes the
-- block's partial sum to global memory and takes a ticket with
-- atomicInc; the block that draws the last ticket sums the partials.
-- Without __threadfence() between the partial-sum store and atomicInc,
-- the last block can read a partial sum that has not reached L2 yet.
-- The race detector (check = true) holds each variant to PTX: with the
-- Guide's single fence the last block's plain loads of the partials
-- still race with the stores (as 03_threadfence_reduction.lua shows in
-- the explorer); a second fence after atomicInc in the last block makes
-- the kernel race-free, and the checker then reports nothing.
local wl = require "warplab"

local BLOCKS, THREADS = 8, 128
local N = BLOCKS * THREADS

-- fences: 0 none, 1 the Guide's (before atomicInc), 2 also after it
local function reduction(fences, threads)
  threads = threads or THREADS
  return wl.kernel(function(c, input, partial, count, result)
    local sdata = c:shared("int32", threads, "sdata")
    local last = c:shared("int32", 1, "isLastBlockDone")
    local t, b = c.threadIdx.x, c.blockIdx.x
    sdata[t] = input[b * threads + t]
    c:syncthreads()
    local s = threads // 2
    while s > 0 do
      if t < s then sdata[t] = sdata[t] + sdata[t + s] end
      c:syncthreads()
      s = s // 2
    end
    if t == 0 then
      partial[b] = sdata[0]
      if fences >= 1 then c:threadfence() end
      local ticket = c:atomicInc(count, 0, c.gridDim.x)
      if fences >= 2 then c:threadfence() end
      last[0] = (ticket == c.gridDim.x - 1) and 1 or 0
    end
    c:syncthreads()
    if last[0] == 1 and t == 0 then
      local total = 0
      for i = 0, c.gridDim.x - 1 do total = total + partial[i] end
      result[0] = total
      count[0] = 0
    end
  end, { name = ({ [0] = "sum", "sum+threadfence", "sum+2threadfences" })[
            fences] })
end

local dev = wl.device { preset = "sm_90" }
local input = dev:malloc("int32", N, "input")
local values, expected = {}, 0
for i = 1, N do values[i] = i % 7 + 1; expected = expected + values[i] end
input:write(values)
local partial = dev:malloc("int32", BLOCKS, "partial")
local count = dev:malloc("int32", 1, "count")
local result = dev:malloc("int32", 1, "result")
partial:write(0); count:write(0); result:write(0)

-- Sampling: a stale sum needs another block's partial-sum store still in
-- its SM's buffer when the last block reads it, a narrow window while
-- every access of every lane lets the memory system drain buffers; a
-- small grid (2 blocks of 32 threads) and many cheap runs find it.
local SB, ST = 2, 32
local sinput = dev:malloc("int32", SB * ST, "sinput")
local svalues, sexpected = {}, 0
for i = 1, SB * ST do
  svalues[i] = i % 7 + 1; sexpected = sexpected + svalues[i]
end
sinput:write(svalues)
local function run(k)
  return function(d, cfg)
    partial:write(0); count:write(0); result:write(0)
    d:launch(k, { grid = SB, block = ST, seed = cfg.seed,
                  profile = cfg.profile }, sinput, partial, count, result)
    local got = result:read()[1]
    return got == sexpected and "correct sum" or "stale sum"
  end
end

-- one launch of the fenced reduction with the checkers, and what it costs
local r = dev:launch(reduction(2), { grid = BLOCKS, block = THREADS,
                                     check = true },
                     input, partial, count, result)
assert(result:read()[1] == expected, "the fenced reduction is correct")
print(("sum of %d numbers = %d"):format(N, expected))
print(r)
assert(#r.findings == 0, "the fenced reduction is race-free")

-- The Guide's single fence: here the checker finds nothing either, but
-- only because of the order in which this run executed the blocks'
-- fence.sc operations (PTX orders every two of them, Fence-SC order,
-- and the earlier synchronizes with the later).  PTX also allows the
-- order where the last block's fence comes first; then nothing orders
-- its loads of the partials after the stores, and they race.  A dynamic
-- checker judges the execution it ran; the explorer judges them all
-- (03_threadfence_reduction.lua finds the stale sum).
count:write(0)
r = dev:launch(reduction(1), { grid = BLOCKS, block = THREADS,
                               check = true },
               input, partial, count, result)
print()
print(("with the Guide's single __threadfence(): %d finding%s in this run"):format(
  #r.findings, #r.findings == 1 and "" or "s"))

local RUNS = tonumber(arg and arg[1]) or 1000
for _, fence in ipairs({ false, true }) do
  local h = dev:sample { n = RUNS, seed = 1, profile = "weak",
                        run = run(reduction(fence and 1 or 0, ST)),
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
