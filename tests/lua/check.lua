-- The kernel checkers from Lua: the launch options check and schedule,
-- the findings tables, the warp operations of both kernel styles, and
-- the module's default and summary (wl.set_check, wl.findings,
-- wl.check_summary).
local wl = require "warplab"

local function check(cond, msg) if not cond then error(msg, 2) end end
local function fails(pattern, f, ...)
  local ok, err = pcall(f, ...)
  check(not ok, "expected an error matching " .. pattern)
  check(tostring(err):find(pattern, 1, true), "error '" .. tostring(err) ..
        "' does not match '" .. pattern .. "'")
  return err
end

local dev = wl.device { preset = "sm_90", sms = 4 }
local A = dev:malloc("int32", 64, "A")
A:write(0)

-- a race between warps, as a table
local racy = wl.kernel(function(c, A)
  local s = c:shared("int32", 64, "s")
  local t = c.threadIdx.x
  s[t] = t
  A[t] = s[63 - t]
end, { name = "racy" })
local r = dev:launch(racy, { grid = 1, block = 64, check = "races" }, A)
check(#r.findings >= 1, "a race")
local f = r.findings[1]
check(f.kind == "race" or f.kind == "warp race", "kind")
check(f.space == "shared" and f.name == "s",
      "where: " .. f.space .. " " .. f.name)
check(type(f.offset) == "number" and type(f.address) == "number", "address")
check(f.a.block.x == 0 and type(f.a.thread.x) == "number", "threads")
check(f.a.op and f.b.op and f.a.sem == "weak", "ops")
check(f.a.line ~= f.b.line, "two lines")
check(f.message:find("check.lua:%d+: "), "message names the place")
check(type(f.fix) == "string" and #f.fix > 0, "fix")
check(tostring(r):find("checks: "), "the report prints findings")
-- the option's forms
for _, v in ipairs({ true, "all", "races,uninit", { races = true } }) do
  r = dev:launch(racy, { grid = 1, block = 64, check = v }, A)
  check(#r.findings >= 1, "check = " .. tostring(v))
end
r = dev:launch(racy, { grid = 1, block = 64, check = "uninit" }, A)
for _, x in ipairs(r.findings) do
  check(x.kind == "uninit", "uninit only")
end
r = dev:launch(racy, { grid = 1, block = 64 }, A)
check(r.findings == nil, "no checkers, no findings")
fails("unknown checker 'rcaes'", dev.launch, dev, racy,
      { grid = 1, block = 64, check = "rcaes" }, A)
fails("check: true, false", dev.launch, dev, racy,
      { grid = 1, block = 64, check = 3 }, A)
fails("schedule", dev.launch, dev, racy,
      { grid = 1, block = 64, schedule = "chaos" }, A)

-- warp operations, per-thread kernels
local out = dev:malloc("int32", 128, "out")
local warpops = wl.kernel(function(c, out)
  local t = c.threadIdx.x
  local l = t % 32
  local x = c:shfl_sync(0xffffffff, l * 10, (l + 1) % 32)
  local up = c:shfl_up_sync(0xffffffff, l, 1)
  local xr = c:shfl_xor_sync(0xffffffff, l, 16)
  local fl = c:shfl_down_sync(0xffffffff, l + 0.5, 2, 8)
  local b = c:ballot_sync(0xffffffff, l < 4)
  local any = c:any_sync(0xffffffff, l == 7)
  local all = c:all_sync(0xffffffff, l >= 0)
  local none = c:all_sync(0xffffffff, l ~= 3)
  c:syncwarp()
  check(x == ((l + 1) % 32) * 10, "shfl " .. tostring(x))
  check(up == (l == 0 and 0 or l - 1), "shfl_up")
  check(xr == l ~ 16, "shfl_xor")
  check(fl == (l % 8 < 6 and l + 2.5 or l + 0.5), "shfl_down width 8 " .. fl)
  check(math.type(fl) == "float" and math.type(x) == "integer", "types")
  check(b == 15 and any and all and not none, "votes")
  out[c.blockIdx.x * 64 + t] = x
end)
for _, sched in ipairs({ "lockstep", "independent", "random" }) do
  r = dev:launch(warpops, { grid = 2, block = 64, schedule = sched,
                            check = true }, out)
  check(#r.findings == 0, "warp ops are clean under " .. sched)
end
-- a lane outside the mask, a mask lane that returned
fails("not in the mask", dev.launch, dev, wl.kernel(function(c)
  c:syncwarp(1)
end), { grid = 1, block = 32 })
fails("has exited", dev.launch, dev, wl.kernel(function(c)
  if c.threadIdx.x == 5 then return end
  c:syncwarp()
end), { grid = 1, block = 32, schedule = "lockstep" })
local err = fails("warp deadlock", dev.launch, dev, wl.kernel(function(c)
  if c.threadIdx.x < 16 then c:syncwarp() else c:syncthreads() end
end), { grid = 1, block = 32 })
check(err:find("__syncthreads%(%) of line %d+"), err)
err = fails("barrier divergence", dev.launch, dev, wl.kernel(function(c)
  if c.threadIdx.x < 40 then c:syncthreads() end
end), { grid = 1, block = 64 })
check(err:find("reached by 40 of the block's 64 threads (0-39)", 1, true), err)
check(err:find("threads 40-63 returned", 1, true), err)

-- warp operations, warp-vector kernels
local wk = wl.warp_kernel(function(w, out)
  local l = w.lane
  local x = w:shfl_sync(0xffffffff, l * 10, (l + 1) % 32)
  local d = w:shfl_down_sync(0xffffffff, l, 1)
  local b = w:ballot_sync(0xffffffff, l:lt(4))
  check(w:any_sync(0xffffffff, l:eq(7)) and w:all_sync(0xffffffff, true),
        "votes")
  check(b == 15, "ballot")
  check(x:get(31) == 0 and x:get(0) == 10 and d:get(31) == 31, "shfl")
  w:syncwarp()
  out[w.threadIdx.x] = x
end)
r = dev:launch(wk, { grid = 1, block = 64, check = true }, out)
check(#r.findings == 0, "warp-vector warp ops are clean")
check(out:read()[1] == 10, "stored")
fails("inactive here", dev.launch, dev, wl.warp_kernel(function(w)
  w:where(w.lane:lt(4), function() w:syncwarp() end)
end), { grid = 1, block = 32 })
-- a warp-vector kernel's hazards are found too
r = dev:launch(wl.warp_kernel(function(w, out)
  local s = w:shared("int32", 32, "ws")
  s[w.lane] = w.lane
  out[w.lane] = s[(w.lane + 1) % 32]
end), { grid = 1, block = 32, check = true }, out)
check(#r.findings == 1 and r.findings[1].kind == "warp race",
      "warp-vector hazard")

-- the module's default and summary
wl.clear_findings()
check(wl.set_check(true) == nil, "no default before")
r = dev:launch(racy, { grid = 1, block = 64 }, A)
check(#r.findings >= 1, "the default applies")
dev:launch(racy, { grid = 1, block = 64 }, A)
local n1 = #wl.findings()
check(n1 == #r.findings, "a second launch adds counts, not findings")
check(wl.findings()[1].count >= 2 and wl.findings()[1].kernel == "racy",
      "counted, named")
r = dev:launch(racy, { grid = 1, block = 64, check = false }, A)
check(r.findings == nil, "an explicit false wins")
check(wl.set_check(nil) == true, "the old default")
local text, n = wl.check_summary()
check(n == n1 and text:find("^Checks: "), text)
local js = wl.check_summary(true)
check(js:find('^{"count":%d+,"findings":%[{'), js)
wl.clear_findings()
check(select(2, wl.check_summary()) == 0, "cleared")
fails("wl.set_check", wl.set_check, 5)

-- a seed gives one lane schedule: the same wrong sum twice, another
-- seed may give another; lockstep and independent ignore the seed's
-- lane order
local S = dev:malloc("int32", 64, "S")
local sums = dev:malloc("int32", 1, "sum")
S:write((function() local t = {} for i = 1, 64 do t[i] = i end return t end)())
local wred = wl.kernel(function(c, S, sum)
  local s = c:shared("int32", 64, "s")
  local t = c.threadIdx.x
  s[t] = S[t]; s[t + 32] = S[t + 32]
  local off = 32
  while off > 0 do s[t] = s[t] + s[t + off]; off = off // 2 end
  if t == 0 then sum[0] = s[0] end
end)
local function sum_with(sched, seed)
  dev:launch(wred, { grid = 1, block = 32, schedule = sched, seed = seed },
             S, sums)
  return sums:read()[1]
end
check(sum_with("random", 5) == sum_with("random", 5), "random replays")
check(sum_with("lockstep", 1) == 2080 and sum_with("lockstep", 9) == 2080,
      "lockstep is right whatever the seed")

-- 2-D blocks: the findings carry both coordinates
r = dev:launch(wl.kernel(function(c, A)
  local s = c:shared("int32", 64, "s2")
  local t = c.threadIdx.y * 8 + c.threadIdx.x
  s[t] = t
  A[t] = s[(t + 9) % 64]
end), { grid = { 1, 1 }, block = { 8, 8 }, check = "races" }, A)
local seen2d = false
for _, x in ipairs(r.findings) do
  if x.a.thread.y ~= 0 or x.b.thread.y ~= 0 then seen2d = true end
  check(x.a.warp == (x.a.thread.y * 8 + x.a.thread.x) // 32, "warp")
end
check(seen2d, "threadIdx.y is reported")

-- issue 20: a histogram's non-atomic update races, and the fix said is
-- an atomic (not a barrier), in a block, across blocks and across lanes
-- of a warp, in both kernel styles
local D = dev:malloc("int32", 256, "data")
local dv = {}
for i = 1, 256 do dv[i] = (i * 7) % 4 end
D:write(dv)
local H = dev:malloc("int32", 4, "hist")
local function hist_fixes(k, grid, block)
  H:write(0)
  local rr = dev:launch(k, { grid = grid, block = block, check = "races" },
                        D, H)
  check(#rr.findings >= 1, "the histogram races")
  return rr.findings
end
local hist = wl.kernel(function(c, D, H)
  local b = D[c.blockIdx.x * c.blockDim.x + c.threadIdx.x]
  H[b] = H[b] + 1
end)
local hist_w = wl.warp_kernel(function(w, D, H)
  local b = D[w.threadIdx.x + w.blockIdx.x * w.blockDim.x]
  H[b] = H[b] + 1
end)
for _, case in ipairs { { hist, 1, 32 }, { hist, 1, 128 }, { hist, 2, 64 },
                        { hist_w, 1, 128 }, { hist_w, 2, 64 } } do
  for _, x in ipairs(hist_fixes(case[1], case[2], case[3])) do
    check(x.fix:find("both update it with a non-atomic read-modify-write",
                     1, true) and x.fix:find("use atomicAdd", 1, true),
          "an atomic for the histogram: " .. x.message)
    check(not x.fix:find("put __sync", 1, true), "no barrier: " .. x.fix)
    check((x.a.block.x ~= x.b.block.x) ==
          (x.fix:find("at .gpu scope", 1, true) ~= nil),
          "the scope follows the blocks: " .. x.message)
  end
end
-- one thread's update read by another without order is not said to be a
-- histogram for sure: the barrier is offered too
local reduce = wl.kernel(function(c, A)
  local s = c:shared("int32", 64, "red")
  local t = c.threadIdx.x
  s[t] = t
  c:syncthreads()
  if t < 32 then s[t] = s[t] + s[t + 32] end
  if t < 16 then s[t] = s[t] + s[t + 16] end -- no barrier between
  c:syncthreads()
  if t == 0 then A[0] = s[0] end
end)
r = dev:launch(reduce, { grid = 1, block = 64, check = "races" }, A)
check(#r.findings >= 1, "the reduction races")
for _, x in ipairs(r.findings) do
  check(not x.fix:find("so updates are lost", 1, true), x.message)
  check(x.fix:find("__syncwarp()", 1, true), x.message)
end

-- a shuffle reading a lane outside its mask (left out, exited, or past
-- the block's end) is a hazard with its line and lanes, in both styles
local function shfl_finding(k, block, why, lane, src, cfg)
  cfg = cfg or {}
  cfg.grid, cfg.block, cfg.check = 1, block, "races"
  A:write(0)
  local rr = dev:launch(k, cfg, A)
  check(#rr.findings == 1 and rr.findings[1].kind == "shfl",
        "one shuffle hazard, got " .. #rr.findings)
  local x = rr.findings[1]
  check(x.a.lane == lane and x.b.lane == src, "lanes " .. x.message)
  check(x.message:find("check.lua:%d+: shuffle hazard"), x.message)
  check(x.message:find(("lane %d reads lane %d"):format(lane, src), 1,
                       true), x.message)
  check(x.fix:find(why, 1, true), x.fix)
  check(x.space == nil, "no memory")
  return x
end
local line_down
shfl_finding(wl.kernel(function(c, A)
  local t = c.threadIdx.x
  if t < 16 then
    line_down = debug.getinfo(1, "l").currentline + 1
    A[t] = c:shfl_down_sync(0xffff, t * 10, 1)
  end
end), 32, "the mask leaves it out", 15, 16)
shfl_finding(wl.kernel(function(c, A)
  local t = c.threadIdx.x
  if t >= 8 then return end
  local x = A[t] + A[t + 32] -- accesses: the others exit meanwhile
  A[t] = c:shfl_sync(0xff, t + x, (t + 8) % 32)
end), 32, "it has exited", 0, 8, { slice = 1, check = "races" })
shfl_finding(wl.kernel(function(c, A)
  local t = c.threadIdx.x
  A[t] = c:shfl_down_sync(0xffffffff, t, 4)
end), 20, "it is past the block's end", 16, 20)
local x = shfl_finding(wl.warp_kernel(function(w, A)
  w:where(w.lane:lt(16), function()
    A[w.lane] = w:shfl_down_sync(0xffff, w.lane * 10, 1)
  end)
end), 32, "the mask leaves it out", 15, 16)
check(x.a.line > line_down, "the warp kernel's line")
r = dev:launch(wl.kernel(function(c, A)
  local t = c.threadIdx.x
  A[t] = c:shfl_down_sync(0xffffffff, t, 4) -- the top lanes read their own
end), { grid = 1, block = 32, check = "races" }, A)
check(#r.findings == 0, "a full mask reads no lane outside it")
print("check ok")
