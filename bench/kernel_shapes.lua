-- kernel_shapes.lua [R [SEED [SLICE]]] -- do kernels inherit the
-- calibration?  Each of the nine shapes of tests/hw/shapes (MP, SB, LB,
-- 2+2W, S, R, WRC, IRIW, CoRR; no fence, fence.sc.cta, fence.sc.gpu;
-- diffCTA, sameCTA, sameSM) written as a per-thread and a warp-vector
-- kernel (tests/lib/shape_kernels.lua), launched R times (seeds SEED ..
-- SEED+R-1, profile h100; SLICE: the launch's slice, default the
-- launch's own 64) against `warplab sample` on the .litmus form (R runs,
-- seed SEED, profile h100).  Per row: the condition's count in each
-- (and per run), their ratio kernel/sampler, the H100's rate where
-- tests/hw/expect.txt has one (0: never seen there), and the verdict:
-- agree when both counts are zero or within 3x of each other and every
-- outcome seen 5 times on one side is seen on the other.  CPU time
-- (os.clock).  Defaults: R = 10000, SEED = 1.
local here = arg[0]:match("^(.*)/[^/]*$") or "."
local root = here .. "/.."
local SK = dofile(root .. "/tests/lib/shape_kernels.lua")
local R = tonumber(arg[1]) or 10000
local seed = tonumber(arg[2]) or 1
local slice = tonumber(arg[3])

-- the H100's weak outcomes per run, from tests/hw/expect.txt
local hw = {}
do
  local f = io.open(root .. "/tests/hw/expect.txt", "r")
  if f then
    for line in f:lines() do
      local name, yes, n, runs = line:match("^(%S+)%s+(%a+)%s*(%S*)%s*(%S*)")
      if name and not name:find("^#") then
        hw[name] = yes == "no" and 0
                   or (tonumber(n) or 0) / (tonumber(runs) or 200000)
      end
    end
    f:close()
  end
end

local function rate(n, runs)
  return ("%6d %.1e"):format(n, n / runs)
end

print(("kernel_shapes: %d launches per kernel (seeds %d..%d), %d sampler "
       .. "runs (seed %d), profile h100, slice %s"):format(
  R, seed, seed + R - 1, R, seed, slice and tostring(slice) or "64 (default)"))
print(("%-5s %-12s %-7s %-6s %16s %16s %7s %8s  %s"):format(
  "shape", "fence", "place", "style", "sampler", "kernel", "ratio", "h100",
  "verdict"))
local t0 = os.clock()
local rows, agree, per = 0, 0, { thread = { 0, 0 }, warp = { 0, 0 } }
local notes = {}
for _, path in ipairs(SK.files(root .. "/tests/hw/shapes")) do
  local t = SK.parse(path)
  local s = SK.run_sampler(t, R, seed)
  for _, style in ipairs(SK.styles) do
    local k = SK.run_kernel(t, style, R, s.vars,
                            { seed = seed, launch = { slice = slice } })
    local v = SK.compare(s, k)
    rows = rows + 1
    per[style][2] = per[style][2] + 1
    if v.agree then
      agree = agree + 1
      per[style][1] = per[style][1] + 1
    end
    local ratio = v.ratio == nil and "-" or v.ratio == math.huge and "inf"
                  or ("%.2f"):format(v.ratio)
    local h = hw[t.name]
    local why = v.agree and "agree"
                or "DISAGREE" .. (v.rate_ok and "" or " rate")
                   .. (v.set_ok and "" or (" outcomes(%d)"):format(#v.missing))
    print(("%-5s %-12s %-7s %-6s %16s %16s %7s %8s  %s"):format(
      t.shape, t.fence, t.place, style, rate(s.weak, s.runs),
      rate(k.weak, k.runs), ratio, h and ("%.1e"):format(h) or "-", why))
    for _, m in ipairs(v.missing) do
      notes[#notes + 1] = ("  %s %s: %s"):format(t.name, style, m)
    end
  end
end
if #notes > 0 then
  print("outcomes seen on one side only (at least 5 times):")
  for _, n in ipairs(notes) do print(n) end
end
print(("kernel_shapes: %d of %d rows agree (per-thread %d/%d, warp-vector "
       .. "%d/%d), R = %d, %.1f s"):format(agree, rows, per.thread[1],
  per.thread[2], per.warp[1], per.warp[2], R, os.clock() - t0))
