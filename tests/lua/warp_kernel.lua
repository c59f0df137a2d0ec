-- Warp-vector kernels (wl.warp_kernel): lane vectors, masks, warp-wide
-- accesses, errors naming lanes, and results and counters equal to the
-- per-thread kernels they rewrite.
local wl = require "warplab"

local function check(cond, msg) if not cond then error(msg, 2) end end
local function fails(pattern, f, ...)
  local ok, err = pcall(f, ...)
  check(not ok, "expected an error matching " .. pattern)
  check(tostring(err):find(pattern, 1, true), "error '" .. tostring(err) ..
        "' does not match '" .. pattern .. "'")
  return err
end
local function same_counters(a, b, what)
  for name, v in pairs(a.counters) do
    check(b.counters[name] == v, ("%s: %s %d vs %d"):format(what, name, v,
          b.counters[name]))
  end
  check(#a.sites == #b.sites, what .. ": number of sites")
  check(a.steps == b.steps, what .. ": scheduler steps")
end

local dev = wl.device { preset = "sm_90", sms = 4 }

-- arithmetic lane by lane, integers stay integers, floats are floats
local I = dev:malloc("int64", 32 * 8, "I")
local F = dev:malloc("double", 32 * 8, "F")
dev:launch(wl.warp_kernel(function(w, I, F)
  local l = w.lane
  check(math.type(l:get(3)) == "integer" and l:get(3) == 3, "lane")
  local base = 0
  local function put(v)
    if math.type(v:get(0)) == "float" or math.type(v:get(1)) == "float" then
      F[l + base] = v
    else
      I[l + base] = v
    end
    base = base + 32
  end
  put(l * 3 + 1 - 2)          -- integer
  put(l // 4 + l % 4 * 100)   -- integer floor division and modulo
  put(-l + (l << 2) - (l >> 1) + (l & 6) + (l | 1) + (l ~ 5) + ~l)
  put(l / 2)                  -- always a float
  put(l * 0.5 + 2 ^ 2)        -- float
  put((-l - 1) // 3)          -- floors toward minus infinity
  put(l % -5)                 -- sign of the divisor
  put(w:lanes(7) - l)
end, { name = "arith" }), { block = 32 }, I, F)
local i, f = I:read(), F:read()
for k = 0, 31 do
  check(i[k + 1] == k * 3 - 1, "mul/add")
  check(i[32 + k + 1] == k // 4 + k % 4 * 100, "idiv/mod")
  check(i[64 + k + 1] == -k + (k << 2) - (k >> 1) + (k & 6) + (k | 1) +
        (k ~ 5) + ~k, "bitwise")
  check(f[96 + k + 1] == k / 2, "div")
  check(f[128 + k + 1] == k * 0.5 + 4.0, "float")
  check(i[160 + k + 1] == (-k - 1) // 3, "floor")
  check(i[192 + k + 1] == k % -5, "mod sign")
  check(i[224 + k + 1] == 7 - k, "broadcast number")
end

-- broadcast index, where / select / any / all / ballot, comparisons
local B = dev:malloc("int32", 64, "B")
B:write((function() local t = {} for k = 1, 64 do t[k] = k - 1 end return t end)())
local O = dev:malloc("int32", 64 * 4, "O")
local rb = dev:launch(wl.warp_kernel(function(w, B, O)
  local l = w.lane
  local x = B[5]                          -- one element for every lane
  check(x:get(0) == 5 and x:get(31) == 5, "broadcast load")
  local even = (l % 2):eq(0)
  local y = l
  w:where(even, function()
    O[l] = l * 10                         -- only even lanes store
    y = l + 1000                          -- a vector of even lanes only
  end, function()
    O[64 + l] = -l                        -- only odd lanes
  end)
  check(y:get(0) == 1000 and y:get(1) == nil, "inside where: active lanes")
  local z = w:select(even, y, l)
  O[128 + l] = z
  check(w:any(l:gt(30)) and not w:any(l:gt(31)), "any")
  check(w:all(l:ge(0)) and not w:all(l:lt(31)), "all")
  check(w:ballot(l:lt(4)) == 15 and w:active() == 0xffffffff, "ballot")
  check(l:le(3):get(3) == 1 and l:ne(3):get(3) == 0 and l:eq(2.0):get(2) == 1,
        "comparisons")
  -- loops with a uniform exit: every lane counts up to its own bound
  local n, c = l % 5, w:lanes(0)
  while w:any(c:lt(n)) do
    w:where(c:lt(n), function() O[192 + l] = c + 1 end)
    c = w:select(c:lt(n), c + 1, c)
  end
end, { name = "masks" }), { block = 32 }, B, O)
local o = O:read()
for k = 0, 31 do
  check(o[k + 1] == (k % 2 == 0 and k * 10 or 0), "where: even lanes")
  check(o[64 + k + 1] == (k % 2 == 1 and -k or 0), "where: odd lanes")
  check(o[128 + k + 1] == (k % 2 == 0 and k + 1000 or k), "select")
  check(o[192 + k + 1] == k % 5, "loop with w:any")
end
check(rb.counters["smsp__inst_executed.sum"] >= 4, "requests counted")

-- atomics: one warp-wide request, the old values as a vector
local C = dev:malloc("int32", 4, "C")
local Old = dev:malloc("int32", 64, "Old")
local ra = dev:launch(wl.warp_kernel(function(w, C, Old)
  local old = w:atomicAdd(C, 0, 1)
  Old[w.warp * 32 + w.lane] = old
  w:atomicMax(C, 1, w.lane + w.warp * 100)
  w:atomicCAS(C, 2, 0, w.lane + 1)
end), { block = 64 }, C, Old)
local c, olds = C:read(), Old:read()
check(c[1] == 64 and c[2] == 131, "atomicAdd / atomicMax")
check(c[3] >= 1 and c[3] <= 32, "atomicCAS: one lane won")
table.sort(olds)
for k = 1, 64 do check(olds[k] == k - 1, "each lane saw a distinct old value") end
check(ra.counters["l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"] == 6,
      "one atomic request per warp and call")

-- shared memory: a stride-2 access is two wavefronts per request
local S = dev:malloc("float", 32, "S")
local rs = dev:launch(wl.warp_kernel(function(w, S)
  local sh = w:shared("float", 64, "sh")
  sh[w.lane * 2] = w.lane
  w:syncthreads()
  S[w.lane] = sh[w.lane * 2] + 0.5
end), { block = 32 }, S)
check(S:read()[4] == 3.5, "shared round trip")
local seen = false
for _, s in ipairs(rs.sites) do
  if s.space == "shared" and s.op == "st" then
    check(s.counters["smsp__inst_executed.sum"] == 1, "one request")
    check(s.counters["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"]
          == 2, "stride 2: two wavefronts")
    seen = true
  end
end
check(seen, "the shared store site")

-- errors name the lane (thread) that failed
local small = dev:malloc("float", 10, "small")
local e = fails("thread (3,0,0) warp 0 lane 3: index 10 out of bounds",
  dev.launch, dev, wl.warp_kernel(function(w, A)
    local v = A[w.lane * 7 % 11]       -- 0, 7, 3, 10: lane 3 is outside
  end), { block = 32 }, small)
check(e:find("lane 0", 1, true) == nil, "the first lane is not blamed")
fails("lane 2: index -1 out of bounds", dev.launch, dev,
  wl.warp_kernel(function(w, A)
    w:where(w.lane:ge(2), function() A[w.lane - 3] = 1 end)
  end), { block = 32 }, small)
local K = dev:constant("float", 4, "K")
fails("write to __constant__ memory 'K'", dev.launch, dev,
  wl.warp_kernel(function(w, K) K[w.lane % 4] = 1 end), { block = 32 }, K)
fails("lane 1: array 'small' indexed with a fraction", dev.launch, dev,
  wl.warp_kernel(function(w, A)
    local x = A[w.lane / 2]              -- lane 0: 0.0 is fine, 0.5 is not
  end), { block = 32 }, small)
fails("compare lane vectors with v:lt(x) and branch with w:where(mask, fn)",
  dev.launch, dev, wl.warp_kernel(function(w)
    if w.lane < 3 then end
  end), { block = 32 })
fails("barrier divergence: w:syncthreads() inside w:where", dev.launch, dev,
  wl.warp_kernel(function(w)
    w:where(w.lane:lt(16), function() w:syncthreads() end)
  end), { block = 64 })
fails("lane 1: the lane vector has no value in this active lane", dev.launch,
  dev, wl.warp_kernel(function(w, A)
    local v
    w:where(w.lane:eq(0), function() v = w.lane + 1 end)
    A[v] = 1
  end), { block = 32 }, small)
fails("lane 3: attempt to perform 'n//0'", dev.launch, dev,
  wl.warp_kernel(function(w)
    local q = 1 // (w.lane - 3)
  end), { block = 32 })
-- userdata that are no lane vectors (a file handle, a device array, the
-- context w) are refused as operands, indices and stored values: lane
-- vectors are told apart by their size and a tag (lwlanes.h)
for _, other in ipairs({ io.stdout, small, "w" }) do
  fails("attempt to perform arithmetic on a", dev.launch, dev,
    wl.warp_kernel(function(w, o)
      local x = w.lane + (o == "w" and w or o)
    end), { block = 32 }, other)
  fails("attempt to perform arithmetic on a", dev.launch, dev,
    wl.warp_kernel(function(w, o)
      local x = (o == "w" and w or o) * w.lane
    end), { block = 32 }, other)
  if other ~= "w" then
    fails("array 'small' indexed with userdata", dev.launch, dev,
      wl.warp_kernel(function(w, A, o) local x = A[o] end), { block = 32 },
      small, other)
    fails("array 'small' indexed with userdata", dev.launch, dev,
      wl.warp_kernel(function(w, A, o) A[o] = 1 end), { block = 32 },
      small, other)
    fails("'small' stores numbers or lane vectors", dev.launch, dev,
      wl.warp_kernel(function(w, A, o) A[w.lane % 4] = o end),
      { block = 32 }, small, other)
  end
end
-- a division by zero in an inactive lane is not made
dev:launch(wl.warp_kernel(function(w)
  w:where((w.lane - 3):ne(0), function() local q = 1 // (w.lane - 3) end)
end), { block = 32 })

-- per-thread and warp-vector kernels: same results, same counters
local N = 200
local X = dev:malloc("float", N, "X")
local Y = dev:malloc("float", N, "Y")
local xs = {}
for k = 1, N do xs[k] = (k * 7) % 13 - 6 end
X:write(xs)
local function run(k, out)
  out:write(0)
  local d = wl.device { preset = "sm_90", sms = 4 }
  local dX = d:malloc("float", N, "X")
  local dY = d:malloc("float", N, "Y")
  dX:write(xs)
  local r = d:launch(k, { grid = 2, block = 128 }, dX, dY, N)
  return r, dY:read()
end
-- guarded saxpy-like map with a divergent branch
local scalar = wl.kernel(function(c, X, Y, n)
  local i = c.blockIdx.x * c.blockDim.x + c.threadIdx.x
  if i < n then
    local x = X[i]
    if x > 0 then
      Y[i] = 2 * x + 1
    else
      Y[i] = -x
    end
  end
end)
local vector = wl.warp_kernel(function(w, X, Y, n)
  local i = w.blockIdx.x * w.blockDim.x + w.threadIdx.x
  w:where(i:lt(n), function()
    local x = X[i]
    w:where(x:gt(0), function()
      Y[i] = 2 * x + 1
    end, function()
      Y[i] = -x
    end)
  end)
end)
local r1, y1 = run(scalar, Y)
local r2, y2 = run(vector, Y)
for k = 1, N do check(y1[k] == y2[k], "map result " .. k) end
same_counters(r1, r2, "map")
-- a block reduction in shared memory with barriers
local scalar_red = wl.kernel(function(c, X, Y, n)
  local sh = c:shared("float", 128, "sh")
  local t = c.threadIdx.x
  local i = c.blockIdx.x * 128 + t
  sh[t] = i < n and X[i] or 0.0
  c:syncthreads()
  local s = 64
  while s > 0 do
    if t < s then sh[t] = sh[t] + sh[t + s] end
    c:syncthreads()
    s = s // 2
  end
  if t == 0 then Y[c.blockIdx.x] = sh[0] end
end)
local vector_red = wl.warp_kernel(function(w, X, Y, n)
  local sh = w:shared("float", 128, "sh")
  local t = w.threadIdx.x
  local i = w.blockIdx.x * 128 + t
  local inb = i:lt(n)
  local x = w:lanes(0.0)
  w:where(inb, function() x = w:select(inb, X[i], 0.0) end)
  x = w:select(inb, x, 0.0)
  sh[t] = x
  w:syncthreads()
  local s = 64
  while s > 0 do
    w:where(t:lt(s), function() sh[t] = sh[t] + sh[t + s] end)
    w:syncthreads()
    s = s // 2
  end
  w:where(t:eq(0), function() Y[w.blockIdx.x] = sh[0] end)
end)
local r3, y3 = run(scalar_red, Y)
local r4, y4 = run(vector_red, Y)
check(y3[1] == y4[1] and y3[2] == y4[2], "reduction result")
local sum = 0
for k = 1, N do sum = sum + xs[k] end
check(y4[1] + y4[2] == sum, "reduction sum")
same_counters(r3, r4, "reduction")

print("warp_kernel: ok")
