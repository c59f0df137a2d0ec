-- The warp-synchronous reduction: the last 32 partial sums of a block
-- reduction are added by one warp without __syncthreads(), relying on its
-- 32 lanes running in lockstep (the "unrolled last warp" of the classic
-- CUDA reduction sample).  Since Volta, lanes of a warp are scheduled
-- independently: a lane may read s[t + off] before the lane that owns it
-- has stored its sum.  The race detector reports the lanes' unordered
-- accesses as a warp-synchronous hazard; the launch option schedule =
-- "lockstep" runs lanes as pre-Volta SIMT did (the sum comes out right),
-- "independent" (the default) and "random" as Volta may (it comes out
-- wrong).  __syncwarp() between the reads and the writes fixes it under
-- every schedule.
local wl = require "warplab"

local function reduce(sync)
  return wl.kernel(function(c, input, out)
    local s = c:shared("int32", 64, "s")
    local t = c.threadIdx.x
    s[t] = input[t]
    s[t + 32] = input[t + 32]
    if sync then c:syncwarp() end
    local off = 32
    while off > 0 do
      if sync then
        local v = s[t] + s[t + off]
        c:syncwarp()
        s[t] = v
        c:syncwarp()
      else
        s[t] = s[t] + s[t + off]                        -- SUM
      end
      off = off // 2
    end
    if t == 0 then out[0] = s[0] end
  end, { name = sync and "warp reduce+__syncwarp" or "warp reduce" })
end
local SUM = 29

local dev = wl.device { preset = "sm_90" }
local input = dev:malloc("int32", 64, "input")
local out = dev:malloc("int32", 1, "out")
local v, expected = {}, 0
for i = 1, 64 do v[i] = i * 3 % 17; expected = expected + v[i] end
input:write(v)

local function run(k, schedule)
  out:write(0)
  local r = dev:launch(k, { grid = 1, block = 32, check = true,
                            schedule = schedule, seed = 7 }, input, out)
  return out:read()[1], r
end

print(("expected sum %d"):format(expected))
for _, sched in ipairs({ "lockstep", "independent", "random" }) do
  local got, r = run(reduce(false), sched)
  local hazard
  for _, f in ipairs(r.findings) do
    if f.kind == "warp race" and (f.a.line == SUM or f.b.line == SUM) then
      hazard = f
    end
  end
  print(("without __syncwarp(), %-11s: sum %4d, %d findings"):format(
    sched, got, #r.findings))
  assert(hazard, "the warp-synchronous hazard is reported")
  assert(hazard.a.warp == hazard.b.warp and hazard.a.lane ~= hazard.b.lane,
         "between lanes of one warp")
  assert(hazard.fix:find("__syncwarp"), "the report says what orders them")
  if sched == "lockstep" then
    assert(got == expected, "correct under lockstep")
  else
    assert(got ~= expected, "wrong under independent scheduling")
  end
end
for _, sched in ipairs({ "lockstep", "independent", "random" }) do
  local got, r = run(reduce(true), sched)
  print(("with __syncwarp(),    %-11s: sum %4d, %d findings"):format(
    sched, got, #r.findings))
  assert(got == expected and #r.findings == 0, "correct and race-free")
end

-- the same reduction with shuffles (registers, no shared memory)
local shfl = wl.kernel(function(c, input, out)
  local t = c.threadIdx.x
  local x = input[t] + input[t + 32]
  local off = 16
  while off > 0 do
    x = x + c:shfl_down_sync(0xffffffff, x, off)
    off = off // 2
  end
  if t == 0 then out[0] = x end
end, { name = "shfl reduce" })
for _, sched in ipairs({ "lockstep", "independent", "random" }) do
  local got, r = run(shfl, sched)
  assert(got == expected and #r.findings == 0, "shuffles need no memory")
end
print("with __shfl_down_sync: correct under every schedule")
