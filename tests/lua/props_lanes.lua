-- props_lanes.lua -- properties of the warp-vector kernels' shortcuts,
-- each against the plain path it stands for:
--  1. lane-vector arithmetic (lwlanes.c: a number operand read in
--     place, the straight loops of + - * on whole warps) against Lua's
--     own arithmetic on each lane's values: generated operands (index
--     vectors, loaded vectors, mixed integer/float lanes, lanes without
--     values, numbers of both types with -0.0, NaN, inf, huge integers),
--     every operator, under generated active masks, each case evaluated
--     twice under the mask, then under all lanes.
--     Each case runs with the shortcuts and with the launch option
--     _plain = true (the general per-lane loop only);
--  2. warp-wide loads and stores (lwarpvec.c offsets and push_loaded,
--     engine/sim/access.c's whole-warp paths and the deferred-load skip)
--     against their general path (_plain = true): generated index
--     patterns (permutations, broadcast, strides, one lane out of
--     bounds), shared and global arrays of int32/float/double/int64,
--     partial last warps and divergent masks, weak or volatile loads,
--     1 to 3 blocks, deferred loads on or off, slices of 1, 2 and 64
--     accesses, profiles weak and h100, with and without the barrier
--     after the shared array's writes, the checkers on or off (race.c's
--     repeated-word shortcut in weak loads); the arrays, every counter,
--     the scheduler's steps, the checkers' findings, the report and the
--     failure message must be the same.
--   warplab run tests/lua/props_lanes.lua [SHARED [COUNT [SEED]]]
local wl = require "warplab"
local COUNT = tonumber(arg[2]) or 60
local SEED = tonumber(arg[3]) or 7
math.randomseed(SEED)

local function check(cond, msg) if not cond then error(msg, 2) end end

local dev = wl.device { preset = "sm_90", sms = 2 }

------------------------------------------------------------------------
-- 1. arithmetic
------------------------------------------------------------------------
local binops = {
  { "+", function(a, b) return a + b end },
  { "-", function(a, b) return a - b end },
  { "*", function(a, b) return a * b end },
  { "/", function(a, b) return a / b end },
  { "//", function(a, b) return a // b end },
  { "%", function(a, b) return a % b end },
  { "^", function(a, b) return a ^ b end },
  { "&", function(a, b) return a & b end },
  { "|", function(a, b) return a | b end },
  { "~", function(a, b) return a ~ b end },
  { "<<", function(a, b) return a << b end },
  { ">>", function(a, b) return a >> b end },
}
local unops = {
  { "unm", function(a) return -a end },
  { "bnot", function(a) return ~a end },
}

local numbers = { 0, 1, -1, 2, 3, 7, 16, -5, 63, 64, math.maxinteger,
                  math.mininteger, 0.0, -0.0, 2.0, 0.5, -2.5, 1e300,
                  math.huge, -math.huge, 0 / 0, 3.0, 1 << 40 }
local function pick(t) return t[math.random(#t)] end

-- the same value, Lua's way: math.type and bits (NaN equals NaN)
local function same(x, y)
  if x == nil or y == nil then return x == y end
  if math.type(x) ~= math.type(y) then return false end
  if x ~= x then return y ~= y end
  if x == 0 and math.type(x) == "float" then
    return 1 / x == 1 / y
  end
  return x == y
end
local function show(x)
  if x == nil then return "nil" end
  return ("%s(%s)"):format(math.type(x), tostring(x))
end

-- Lua's result, or nil when Lua raises (n//0, a float without an
-- integer representation in a bitwise operation)
local function lua_op(f, a, b)
  local ok, r = pcall(f, a, b)
  if ok then return r end
  return nil, r
end

-- Builds an operand in a warp kernel from a recipe: returns the value
-- (a lane vector or a number) and, per lane, what Lua holds there
-- (nil: no value).  Recipes: a number; an index vector (w.lane made by
-- arithmetic with numbers); a loaded vector (int64 or
-- double array); a mixed vector (w:select of an integer and a float
-- vector); a vector made with some lanes inactive.
local function recipe()
  local r = math.random(6)
  if r == 1 then return { kind = "number", v = pick(numbers) } end
  if r == 2 then
    return { kind = "index", m = pick({ 1, 2, -3, 5 }),
             c = pick({ 0, 1, -7, 2.5, 100 }) }
  end
  if r == 3 then
    local t = {}
    for k = 1, 32 do t[k] = pick({ 0, 1, -1, 3, 17, 64, -100, 1 << 33 }) end
    return { kind = "int", vals = t }
  end
  if r == 4 then
    local t = {}
    for k = 1, 32 do
      t[k] = pick({ 0.0, -0.0, 1.5, -3.0, 2.0, 1e20, 0 / 0, math.huge })
    end
    return { kind = "float", vals = t }
  end
  if r == 5 then
    return { kind = "mixed", sel = math.random(0, 0xffffffff) }
  end
  return { kind = "partial", sel = math.random(1, 0xffffffff) }
end

local function expected_lanes(rc)
  local e = {}
  for k = 0, 31 do
    if rc.kind == "number" then e[k] = rc.v
    elseif rc.kind == "index" then e[k] = k * rc.m + rc.c
    elseif rc.kind == "int" or rc.kind == "float" then e[k] = rc.vals[k + 1]
    elseif rc.kind == "mixed" then
      e[k] = (rc.sel >> k & 1) == 1 and k * 3 or k * 0.25
    else -- partial: k + 1 where the lane was active
      e[k] = (rc.sel >> k & 1) == 1 and k + 1 or nil
    end
  end
  return e
end

-- the arrays of the loaded recipes, one pair per operand
local I64 = { dev:malloc("int64", 32, "Ia"), dev:malloc("int64", 32, "Ib") }
local F64 = { dev:malloc("double", 32, "Fa"), dev:malloc("double", 32, "Fb") }

local function make(w, rc, side)
  if rc.kind == "number" then return rc.v end
  if rc.kind == "index" then return w.lane * rc.m + rc.c end
  if rc.kind == "int" then return I64[side][w.lane] end
  if rc.kind == "float" then return F64[side][w.lane] end
  if rc.kind == "mixed" then
    local bits = (w.lane:lt(64) * rc.sel >> w.lane) & 1
    return w:select(bits, w.lane * 3, w.lane * 0.25)
  end
  local v
  local bits = (w.lane:lt(64) * rc.sel >> w.lane) & 1
  w:where(bits, function() v = w.lane + 1 end)
  return v
end

-- a vector with a float and with the integer of the float's bits: the
-- number's type, not its bits, makes the lanes' type
dev:launch(wl.warp_kernel(function(w)
  local f = w.lane + 2.0
  local i = w.lane + 0x4000000000000000
  check(math.type(f:get(3)) == "float" and f:get(3) == 5.0, "lane + 2.0")
  check(math.type(i:get(3)) == "integer" and
        i:get(3) == 0x4000000000000003, "lane + bits of 2.0")
end, { name = "props_lanes twins" }), { block = 32 })

local cases, failures, evaluated = 0, 0, 0
local arith_cases = {}
for n = 1, COUNT * 4 do
  local c = { a = recipe(), b = recipe(), active = pick({
    0xffffffff, 0xffffffff, math.random(1, 0xffffffff), 0x0000ffff, 1 }) }
  if math.random(5) == 1 then
    c.un = pick(unops)
    if c.a.kind == "number" then c.a = { kind = "index", m = 1, c = 0 } end
  else
    c.op = pick(binops)
    if c.a.kind == "number" and c.b.kind == "number" then
      c.b = { kind = "index", m = 2, c = 1 }
    end
  end
  arith_cases[n] = c
end

local function run_arith(c, plain)
  -- the arrays the loaded recipes read
  for side, rc in ipairs({ c.a, c.b }) do
    if rc.kind == "int" then I64[side]:write(rc.vals) end
    if rc.kind == "float" then F64[side]:write(rc.vals) end
  end
  local got = {}
  local err
  local k = wl.warp_kernel(function(w)
    local a, b = make(w, c.a, 1), make(w, c.b, 2)
    local bits = (w.lane:lt(64) * c.active >> w.lane) & 1
    -- twice under the mask, then once more under all lanes
    for rep = 1, 2 do
      w:where(bits, function()
        local ok, r = pcall(function()
          if c.un then return c.un[2](a) end
          return c.op[2](a, b)
        end)
        got[rep] = ok and r or nil
        if not ok then err = r end
      end)
    end
    local ok, r = pcall(function()
      if c.un then return c.un[2](a) end
      return c.op[2](a, b)
    end)
    got[3] = ok and r or nil
  end, { name = "props_lanes arith" })
  local ok, lerr = pcall(dev.launch, dev, k, { block = 32, _plain = plain })
  return ok, lerr, got, err
end

for n, c in ipairs(arith_cases) do
  local ea, eb = expected_lanes(c.a), expected_lanes(c.b)
  -- Lua's result lane by lane; a lane where Lua raises makes the vector
  -- operation raise (checked: the launch fails), so such cases only
  -- check that
  local want, raises = { [1] = {}, [3] = {} }, false
  for rep, act in pairs({ [1] = c.active, [3] = 0xffffffff }) do
    for k = 0, 31 do
      local x = ea[k]
      local y = c.un and x or eb[k]
      if (act >> k & 1) == 1 and x ~= nil and y ~= nil then
        local r = lua_op(c.un and c.un[2] or c.op[2], x, y)
        if r == nil then raises = true end
        want[rep][k] = r
      end
    end
  end
  cases = cases + 1
  for _, plain in ipairs({ false, true }) do
    local ok, lerr, got = run_arith(c, plain)
    local function desc(rc)
      if rc.kind == "number" then return show(rc.v) end
      if rc.kind == "index" then
        return ("lane * %s + %s"):format(show(rc.m), show(rc.c))
      end
      if rc.kind == "mixed" or rc.kind == "partial" then
        return ("%s 0x%08x"):format(rc.kind, rc.sel)
      end
      return rc.kind
    end
    local what = ("case %d: %s %s %s, active 0x%08x%s"):format(n, desc(c.a),
      c.un and c.un[1] or c.op[1], c.un and "" or desc(c.b), c.active,
      plain and " (plain)" or "")
    if raises then
      if ok and got[1] ~= nil and got[3] ~= nil then
        failures = failures + 1
        print("MISMATCH " .. what .. ": Lua raises in a lane, the vector did not")
      end
    elseif not ok then
      failures = failures + 1
      print("MISMATCH " .. what .. ": " .. tostring(lerr))
    else
      for _, rep in ipairs({ 1, 2, 3 }) do
        local v, w = got[rep], want[rep == 2 and 1 or rep]
        if v == nil then
          failures = failures + 1
          print("MISMATCH " .. what .. ": no result (rep " .. rep .. ")")
          break
        end
        local bad
        for k = 0, 31 do
          evaluated = evaluated + 1
          if not same(v:get(k), w[k]) then
            bad = ("lane %d: %s, Lua %s (rep %d)"):format(k, show(v:get(k)),
                                                         show(w[k]), rep)
            break
          end
        end
        if bad then
          failures = failures + 1
          print("MISMATCH " .. what .. ": " .. bad)
          break
        end
      end
    end
  end
end
print(("props_lanes arithmetic: %d cases, %d lane values compared, %d failures")
      :format(cases, evaluated, failures))
check(failures == 0, "lane arithmetic differs from Lua's")

------------------------------------------------------------------------
-- 2. warp-wide accesses against their general path
------------------------------------------------------------------------
local types = { "int32", "float", "double", "int64" }
local function same_counters(a, b, what)
  local names = {}
  for name in pairs(a.counters) do names[#names + 1] = name end
  table.sort(names)
  for _, name in ipairs(names) do
    local v = a.counters[name]
    if b.counters[name] ~= v then
      return ("%s: %s %s vs %s"):format(what, name, v, b.counters[name])
    end
  end
  if a.steps ~= b.steps then
    return ("%s: scheduler steps %d vs %d"):format(what, a.steps, b.steps)
  end
end

local function index_pattern(n, len)
  local r, t = math.random(6), {}
  for k = 0, n - 1 do
    if r == 1 then t[k] = k % len
    elseif r == 2 then t[k] = (n - 1 - k) % len
    elseif r == 3 then t[k] = 3 % len
    elseif r == 4 then t[k] = (k * 2) % len
    elseif r == 5 then t[k] = (k * 33) % len
    else t[k] = math.random(0, len - 1) end
  end
  if math.random(8) == 1 then -- a lane out of bounds
    t[math.random(0, n - 1)] = pick({ len, -1, len + 40 })
  end
  return t
end

local acc_cases, acc_fail, acc_failed, acc_found = 0, 0, 0, 0
for n = 1, COUNT do
  local nt = pick({ 32, 64, 96, 40, 17 })
  local ty = pick(types)
  local len = 128
  local shared = math.random(2) == 1
  -- loads from anywhere; stores to a permutation (no two lanes store to
  -- one element: which of them wins is a race, ordered differently by
  -- the two kernels' branches)
  local ld, st = index_pattern(nt, len), {}
  local perm = {}
  for k = 0, len - 1 do perm[k + 1] = k end
  for k = len, 2, -1 do
    local r = math.random(k)
    perm[k], perm[r] = perm[r], perm[k]
  end
  for k = 0, nt - 1 do st[k] = perm[k + 1] end
  if math.random(8) == 1 then
    st[math.random(0, nt - 1)] = pick({ len, -1 })
  end
  local sel = pick({ 0xffffffff, 0xffffffff, math.random(0, 0xffffffff) })
  local seed = math.random(1, 1000)
  local defer = math.random(3) > 1
  local slice = pick({ 1, 2, 64 })
  local volatile = math.random(2) == 1
  local profile = pick({ "weak", "h100" })
  local grid = pick({ 1, 2, 3 })
  local sync = math.random(4) > 1
  local checked = math.random(2) == 1
  local idx = {}
  for k = 0, nt - 1 do idx[k + 1] = ld[k]; idx[nt + k + 1] = st[k] end
  local init = {}
  for k = 1, len do init[k] = (k * 7) % 23 end
  local vector = wl.warp_kernel(function(w, IDX, A, B, nt)
    local t = w.threadIdx.x
    -- (a warp that declared a __shared__ array defers no load)
    local S = shared and w:shared(ty, len, "S")
    local src = shared and S or A
    if shared then S[t % len] = A[t % len] end
    -- without the barrier the checker finds races on S
    if sync then w:syncthreads() end
    local i, j = IDX[t], IDX[nt + t]
    local bits = (t:lt(1 << 40) * sel >> (t % 32)) & 1
    w:where(bits, function()
      local x = (volatile and not shared) and w:volatile_load(src, i) or src[i]
      B[j] = x + 1
      -- stores where the lanes' own loads may still be deferred (the
      -- same element; another)
      A[i] = x * 2
      A[(j * 3 + 1) % len] = x * 3
    end, function()
      B[j] = src[(t + 1) % len]
    end)
    -- loads and stores of one element: a load still deferred at the
    -- store must be performed first (the hazard pass)
    for _ = 1, 3 do
      local y = A[j % len]
      A[j % len] = y + 1
    end
    w:syncthreads()
    B[(j + 5) % len] = src[j % len] + B[j]
    -- blocks passing a value (kernel_defer.lua's pattern): the stores
    -- after a deferred volatile load wait for it or not
    if w.blockIdx.x == 0 then
      local r = w:volatile_load(A, 0)
      B[j % len] = r + 1
      w:volatile_store(A, 1, 1)
      B[(j + 1) % len] = r + 2
    else
      w:volatile_store(A, 0, 7)
    end
  end, { name = "props_lanes access" })
  local res = {}
  for _, plain in ipairs({ true, false }) do
    -- a device each: its L2 outlives a launch
    local d = wl.device { preset = "sm_90", sms = 2 }
    local IDX = d:malloc("int32", 2 * nt, "IDX")
    local A = d:malloc(ty, len, "A")
    local B = d:malloc(ty, len, "B")
    IDX:write(idx); A:write(init); B:write(0)
    local ok, r = pcall(d.launch, d, vector, { block = nt, grid = grid,
      seed = seed, defer = defer, slice = slice, profile = profile,
      check = checked or nil, _plain = plain }, IDX, A, B, nt)
    -- (the report now: a later launch of the kernel adds to the "seen"
    -- counts of its findings' records)
    res[#res + 1] = { ok = ok, r = r, b = ok and B:read() or nil,
                      a = ok and A:read() or nil,
                      report = ok and tostring(r) or nil }
  end
  acc_cases = acc_cases + 1
  local what = ("case %d: %d x %d threads, %s, %s%s, mask 0x%08x, defer %s, "
    .. "slice %d, %s%s%s"):format(n, grid, nt, ty,
    shared and "shared" or "global", volatile and " volatile" or "", sel,
    defer, slice, profile, sync and "" or ", no barrier",
    checked and ", check" or "")
  local s, v = res[1], res[2]
  local bad
  if not s.ok then acc_failed = acc_failed + 1 end
  if s.ok ~= v.ok then
    bad = ("plain %s, shortcuts %s"):format(tostring(s.ok and "ran" or s.r),
                                             tostring(v.ok and "ran" or v.r))
  elseif not s.ok then
    -- the same failure, naming the same thread and line
    if tostring(s.r) ~= tostring(v.r) then
      bad = "failures differ: " .. tostring(s.r) .. " | " .. tostring(v.r)
    end
  else
    for k = 1, len do
      if not same(s.b[k], v.b[k]) or not same(s.a[k], v.a[k]) then
        bad = ("B[%d] %s vs %s, A[%d] %s vs %s"):format(k - 1, show(s.b[k]),
          show(v.b[k]), k - 1, show(s.a[k]), show(v.a[k]))
        break
      end
    end
    bad = bad or same_counters(s.r, v.r, "counters")
    -- the checkers' findings (races, uninitialised reads, spins) and
    -- the whole report
    local fs, fv = #(s.r.findings or {}), #(v.r.findings or {})
    if not bad and fs ~= fv then
      bad = ("%d findings vs %d"):format(fs, fv)
    end
    if not bad and s.report ~= v.report then
      bad = "reports differ:\n" .. s.report .. "\n" .. v.report
    end
    if fs > 0 then
      acc_found = acc_found + 1
    end
  end
  if bad then
    acc_fail = acc_fail + 1
    print("MISMATCH " .. what .. ": " .. bad)
  end
end
print(("props_lanes accesses: %d cases (%d failed launches, %d with "
       .. "findings), %d failures"):format(acc_cases, acc_failed, acc_found,
                                          acc_fail))
check(acc_fail == 0, "warp-wide accesses differ from their general path")
------------------------------------------------------------------------
-- 3. deferred loads across blocks (kernel_defer.lua's pattern, whole
--    warps): block 0 loads x, stores r + 1, stores z, stores r + 1 again;
--    block 1 stores x = 1.  The stores after the load wait for it (the
--    hazard pass, skipped when the slot has no deferred load) or not;
--    with and without _plain the same seed makes the same launch.
------------------------------------------------------------------------
local mp = wl.warp_kernel(function(w, O, X, Z)
  if w.blockIdx.x == 0 then
    local r = w:volatile_load(X, w.lane % 2)
    O[w.threadIdx.x] = r + 1
    w:volatile_store(Z, w.threadIdx.x, 1)
    O[64 + w.threadIdx.x] = r + 1
  else
    w:volatile_store(X, w.threadIdx.x % 2, 1)
  end
end, { name = "props_lanes mp" })
local mp_cases, mp_fail, mp_late = 0, 0, 0
for n = 1, COUNT * 5 do
  local nt = pick({ 1, 32, 32, 64, 40 })
  local seed = math.random(1, 100000)
  local res = {}
  for _, plain in ipairs({ true, false }) do
    local d = wl.device { preset = "sm_90", sms = 2 }
    local O = d:malloc("int32", 128, "O")
    local X = d:malloc("int32", 64, "X")
    local Z = d:malloc("int32", 64, "Z")
    O:write(0); X:write(0); Z:write(0)
    local r = d:launch(mp, { grid = 2, block = nt, profile = "h100",
                             slice = 1, seed = seed, _plain = plain }, O, X, Z)
    res[#res + 1] = { r = r, o = O:read() }
  end
  mp_cases = mp_cases + 1
  local bad = same_counters(res[1].r, res[2].r, "counters")
  for k = 1, 128 do
    if res[1].o[k] ~= res[2].o[k] then
      bad = ("O[%d] %d vs %d"):format(k - 1, res[1].o[k], res[2].o[k])
      break
    end
    if k <= nt and res[2].o[k] == 2 then mp_late = mp_late + 1 end
  end
  if bad then
    mp_fail = mp_fail + 1
    print(("MISMATCH mp case %d: %d threads, seed %d: %s"):format(n, nt, seed,
                                                                  bad))
  end
end
print(("props_lanes deferred loads: %d cases, %d lanes read x = 1, %d failures")
      :format(mp_cases, mp_late, mp_fail))
check(mp_fail == 0, "deferred loads differ from their general path")
------------------------------------------------------------------------
-- 4. the race and uninitialised-read checkers on warps reading shared
--    words in runs (lanes after lanes reading one word: race.c's
--    repeated-word shortcut), against _plain: generated writes by some
--    lanes, a barrier or not, reads of runs of equal indices repeated at
--    one line, more writes and reads; the reports must be the same.
------------------------------------------------------------------------
local chk_cases, chk_fail, chk_found = 0, 0, 0
for n = 1, COUNT * 3 do
  local nt = pick({ 32, 64, 96, 128 })
  local len = 64
  local idx = {}
  local k = 0
  while k < 4 * nt do -- runs of one index, of 1 to 16 lanes
    local v, run = math.random(0, len - 1), math.random(1, 16)
    for _ = 1, run do
      if k < 4 * nt then idx[k + 1] = v end
      k = k + 1
    end
  end
  -- the second reads: the first's words, the runs reversed in places (a
  -- lane reading a word after lanes that read it before it did)
  for i = 0, nt - 1, 8 do
    for j = 0, 7 do
      if i + j < nt then
        idx[3 * nt + i + j + 1] = idx[nt + i + (7 - j) % 8 + 1] or idx[nt + 1]
      end
    end
  end
  local wsel, wsel2 = math.random(0, 0xffffffff), math.random(0, 0xffffffff)
  local sync, reps = math.random(3) > 1, math.random(1, 4)
  local grid = pick({ 1, 2 })
  local kern = wl.warp_kernel(function(w, IDX, O)
    local t = w.threadIdx.x
    local S = w:shared("int32", len, "S")
    local lane = t % 32
    local wi, ri, wi2, ri2 = IDX[t], IDX[nt + t], IDX[2 * nt + t],
                             IDX[3 * nt + t]
    w:where((t:lt(1 << 40) * wsel >> lane) & 1, function()
      S[wi] = t
    end)
    if sync then w:syncthreads() end
    local sum = 0
    for rep = 1, reps do
      sum = sum + S[rep % 2 == 1 and ri or ri2]
    end
    w:where((t:lt(1 << 40) * wsel2 >> lane) & 1, function()
      S[wi2] = sum
    end)
    O[t] = S[ri] + S[wi]
  end, { name = "props_lanes checker" })
  local res = {}
  for _, plain in ipairs({ true, false }) do
    local d = wl.device { preset = "sm_90", sms = 2 }
    local IDX = d:malloc("int32", 4 * nt, "IDX")
    local O = d:malloc("int32", nt, "O")
    IDX:write(idx); O:write(0)
    local r = d:launch(kern, { block = nt, grid = grid,
                               seed = n, check = true, _plain = plain },
                       IDX, O)
    res[#res + 1] = { report = tostring(r), nf = #r.findings, o = O:read() }
  end
  chk_cases = chk_cases + 1
  if res[1].nf > 0 then chk_found = chk_found + 1 end
  local bad
  if res[1].report ~= res[2].report then
    bad = "reports differ:\n" .. res[1].report .. "\n" .. res[2].report
  end
  for i = 1, nt do
    if not bad and res[1].o[i] ~= res[2].o[i] then
      bad = ("O[%d] %d vs %d"):format(i - 1, res[1].o[i], res[2].o[i])
    end
  end
  if bad then
    chk_fail = chk_fail + 1
    print(("MISMATCH checker case %d: %d threads, %s, %d reads: %s"):format(
      n, nt, sync and "barrier" or "no barrier", reps, bad))
  end
end
print(("props_lanes checkers: %d cases (%d with findings), %d failures")
      :format(chk_cases, chk_found, chk_fail))
check(chk_fail == 0, "the checkers' findings differ from their general path")
print("props_lanes: ok")
