-- A 1-D nine-point stencil, y[i] = sum_k c[k] * x[i + k] (k = 0..8),
-- with its nine coefficients in __constant__ memory or read through
-- __ldg from global memory (CUDA Programming Guide, "Constant Memory":
-- the constant cache serves one address per request, so a warp whose
-- lanes read k different addresses issues k requests, one after the
-- other; shared/hw/h100/constant_cache.tsv).
--
-- Four kernels compute the same sums:
--   uniform:  every lane reads c[k] in step k: one address per warp
--             instruction (a broadcast)
--   rotated:  lane t reads the terms in the order k = (step + t) % 9, so
--             the 32 lanes of a warp read 9 different coefficients at once
-- each with the coefficients in constant memory and through __ldg.
local wl = require "warplab"

local N, THREADS = 256, 128
local COEF = { 1, 2, 3, 4, 5, 4, 3, 2, 1 }

-- the coefficient loads live on these one-line functions, so that their
-- counters are the sites of these lines
local function from_constant(c, C, j) return C[j] end
local function through_ldg(c, G, j) return c:ldg(G, j) end
local COEF_LINE = {
  [from_constant] = debug.getinfo(from_constant, "S").linedefined,
  [through_ldg] = debug.getinfo(through_ldg, "S").linedefined,
}

local function stencil(load_coef, rotated, name)
  return wl.kernel(function(c, X, C, Y, n)
    local i = c.blockIdx.x * c.blockDim.x + c.threadIdx.x
    if i < n then
      local sum = 0.0
      for step = 0, 8 do
        local k = rotated and (step + c.threadIdx.x) % 9 or step
        sum = sum + load_coef(c, C, k) * X[i + k]
      end
      Y[i] = sum
    end
  end, { name = name })
end

local dev = wl.device { preset = "sm_90" }
local X = dev:malloc("float", N + 8, "x")
local Y = dev:malloc("float", N, "y")
local Cc = dev:constant("float", 9, "coef")     -- __constant__ float coef[9]
dev:memcpy_to_symbol(Cc, COEF)
local Cg = dev:malloc("float", 9, "coef_global") -- const float *__restrict__
Cg:write(COEF)
local x = {}
for i = 1, N + 8 do x[i] = (i * 7) % 11 - 5 end
X:write(x)

local function check_sums()
  local y = Y:read()
  for i = 0, N - 1 do
    local s = 0
    for k = 0, 8 do s = s + COEF[k + 1] * x[i + k + 1] end
    assert(y[i + 1] == s, ("y[%d] = %s, expected %s"):format(i, y[i + 1], s))
  end
end

local cfg = { grid = N // THREADS, block = THREADS }
local warps = N // 32
local runs = {}
print(("nine-point stencil, %d outputs, %d warps; coefficient loads:"):format(
  N, warps))
print(("%-18s %5s | %9s %8s %10s %6s | %6s %7s %6s"):format("kernel", "inst",
  "const_req", "req/inst", "const_miss", "cycles", "gl_req", "sectors",
  "L1hit"))
for _, v in ipairs({
  { "constant, uniform", from_constant, false },
  { "ldg, uniform", through_ldg, false },
  { "constant, rotated", from_constant, true },
  { "ldg, rotated", through_ldg, true },
}) do
  Y:write(0)
  local r = dev:launch(stencil(v[2], v[3], v[1]), cfg, X,
                       v[2] == from_constant and Cc or Cg, Y, N)
  check_sums()
  local s = r:site(COEF_LINE[v[2]])
  local inst = s["smsp__inst_executed.sum"]
  local creq = s["idc__requests.sum"]
  local greq = s["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"]
  local sec = s["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]
  local hit = s["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"]
  print(("%-18s %5d | %9d %8.1f %10d %6.0f | %6d %7d %6d"):format(v[1], inst,
    creq, creq / inst, s["idc__requests_lookup_miss.sum"],
    s["warplab__constant_cycles_estimate.sum"] / inst, greq, sec, hit))
  runs[v[1]] = s
end
print([[
(const_req: idc__requests.sum; const_miss: idc__requests_lookup_miss.sum;
 cycles: warplab__constant_cycles_estimate.sum per instruction, a fit to
 the H100; gl_req, sectors, L1hit: l1tex__t_requests_pipe_lsu_mem_global_
 op_ld.sum, l1tex__t_sectors_... and l1tex__t_sectors_..._lookup_hit.sum)]])

-- every warp executes the coefficient load 9 times
for _, s in pairs(runs) do
  assert(s["smsp__inst_executed.sum"] == 9 * warps, "9 loads per warp")
end
-- uniform constant reads: one request per warp instruction; the nine
-- coefficients share one constant-cache line, fetched once per SM
local cu = runs["constant, uniform"]
assert(cu["idc__requests.sum"] == 9 * warps, "one request per instruction")
assert(cu["idc__requests_lookup_miss.sum"] <= cfg.grid, "one miss per SM")
assert(cu["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == 0)
-- rotated constant reads serialize: 9 distinct addresses, 9 requests
local cr = runs["constant, rotated"]
assert(cr["idc__requests.sum"] == 9 * 9 * warps, "9 requests per instruction")
assert(cr["warplab__constant_cycles_estimate.sum"] >
       2 * cu["warplab__constant_cycles_estimate.sum"], "serialized")
-- __ldg: one request per instruction either way; the uniform load is one
-- sector, the rotated one the 2 sectors that hold 36 bytes, and after
-- the first touch on each SM they hit in L1
for _, name in ipairs({ "ldg, uniform", "ldg, rotated" }) do
  local s = runs[name]
  local sectors = name == "ldg, uniform" and 1 or 2
  assert(s["idc__requests.sum"] == 0, "__ldg does not use the constant cache")
  assert(s["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == 9 * warps)
  assert(s["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] ==
         sectors * 9 * warps, name .. ": sectors")
  assert(s["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"] >=
         sectors * 9 * warps - 2 * cfg.grid, name .. ": L1 hits")
end
-- the model without a kernel agrees
local uniform, rotated = {}, {}
for t = 0, 31 do uniform[t + 1] = 4 * 3; rotated[t + 1] = 4 * ((3 + t) % 9) end
assert(wl.constant_access { addresses = uniform } == 1)
assert(wl.constant_access { addresses = rotated } == 9)
assert(wl.global_access { addresses = rotated }.sectors == 2)
print([[

Constant memory suits a warp that reads one address at a time: the
uniform kernel makes one constant request per instruction.  The rotated
one reads 9 coefficients per instruction and its requests serialize (9
per instruction, about 2.5x the cycles); __ldg pays the same single
request for both patterns, one or two sectors served by L1.]])
