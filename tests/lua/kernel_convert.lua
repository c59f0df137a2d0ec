-- A lane's a[i] and a[i] = v convert 4- and 8-byte scalars in place
-- (bindings/lkarray.c load_run/store_run: float, double, int32, int64),
-- the other types through the carriers (wll_pushbytes, wll_tobytes), as
-- the host's a:read() / a:write(t) always do.  Property: for generated
-- values of every scalar type, what a kernel stores with a[i] = v, with
-- c:store(a, i, v, "relaxed", "gpu") and with c:volatile_store is what
-- the host writes with a:write(t) (read back by the host), and what a
-- kernel loads with a[i], c:load(a, i, "acquire", "gpu") and c:ldg is
-- what the host reads with a:read().
local wl = require "warplab"

local function check(cond, msg) if not cond then error(msg, 2) end end
-- two values are the same: the same type, and equal or both NaN
local function same(x, y)
  if math.type(x) ~= math.type(y) then return false end
  if x ~= x then return y ~= y end
  return x == y
end

local seed = 12345
local function rnd(n) -- a small LCG: the values are the same every run
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n
end

local ints = { 0, 1, -1, 2^31 // 1 - 1, -(2^31 // 1), 2^31 // 1, 65535,
               65536, -32768, 32767, math.maxinteger, math.mininteger, 7 }
local floats = { 0.0, -0.0, 1.5, -2.25, 1 / 3, 1e300, -1e-300, 3.4e38,
                 1e39, 2^-149, 0 / 0, 1 / 0, -1 / 0, 16777217.0 }
-- the integer types but int64: their lowest value and their count
local ranges = { int32 = { -(2^31 // 1), 2^32 // 1 },
                 uint32 = { 0, 2^32 // 1 }, int16 = { -32768, 65536 },
                 short = { -32768, 65536 }, uint16 = { 0, 65536 },
                 ushort = { 0, 65536 } }
local function gen(ty, n)
  local t = {}
  for k = 1, n do
    if ty == "float" or ty == "double" or ty == "half" then
      t[k] = rnd(3) == 0 and (rnd(2000) - 1000) / (rnd(7) + 1) or
             floats[rnd(#floats) + 1]
    else
      local v = rnd(3) == 0 and rnd(2000) - 1000 or ints[rnd(#ints) + 1]
      local range = ranges[ty] -- values the type holds
      if range then v = (v - range[1]) % range[2] + range[1] end
      t[k] = v
    end
  end
  return t
end

local dev = wl.device "sm_90"
local N = 96
-- the values (a Lua table, not an argument: that would be a parameter
-- array) and the values loaded: upvalues of the kernels
local V, out
local store = wl.kernel(function(c, A, how)
  local i = c.blockIdx.x * c.blockDim.x + c.threadIdx.x
  local v = V[i + 1]
  if how == 0 then A[i] = v
  elseif how == 1 then c:store(A, i, v, "relaxed", "gpu")
  else c:volatile_store(A, i, v) end
end)
local load = wl.kernel(function(c, A, how)
  local i = c.blockIdx.x * c.blockDim.x + c.threadIdx.x
  local v
  if how == 0 then v = A[i]
  elseif how == 1 then v = c:load(A, i, "acquire", "gpu")
  else v = c:ldg(A, i) end
  out[i + 1] = v
end)
local rows = 0
for _, ty in ipairs { "float", "double", "int32", "int64", "uint32",
                      "int16", "uint16", "half", "short", "ushort" } do
  local vals = gen(ty, N)
  local H = dev:malloc(ty, N, "H")
  H:write(vals)
  local want = H:read() -- the host's conversion
  for how = 0, 2 do
    local A = dev:malloc(ty, N, "A")
    A:write(0)
    V = vals
    dev:launch(store, { grid = 3, block = 32, seed = how + 1 }, A, how)
    local got = A:read()
    for k = 1, N do
      check(same(got[k], want[k]), ("%s store %d: element %d is %s, the host "
            .. "writes %s (from %s)"):format(ty, how, k - 1, tostring(got[k]),
            tostring(want[k]), tostring(vals[k])))
    end
    out = {}
    dev:launch(load, { grid = 3, block = 32, seed = how + 1 }, H, how)
    for k = 1, N do
      check(same(out[k], want[k]), ("%s load %d: element %d is %s, the host "
            .. "reads %s"):format(ty, how, k - 1, tostring(out[k]),
            tostring(want[k])))
    end
    rows = rows + 1
  end
end
print(("kernel_convert: ok (%d rows of %d values)"):format(rows, N))
