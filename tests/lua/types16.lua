-- 16-bit element types in kernels (issue 10, 14): int16, uint16 and half
-- (IEEE binary16, rounding to nearest even), short/ushort as other names,
-- 2-byte alignment, the CUDA Guide's extern __shared__ layout, host reads
-- and writes, and only the atomics CUDA has for them (atomicAdd on half,
-- atomicCAS on ushort, sm_70 and later).
local wl = require "warplab"

local function fails(pattern, f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, "expected an error matching " .. pattern)
  err = tostring(err)
  assert(err:find(pattern, 1, true),
         "error\n  " .. err .. "\nlacks\n  " .. pattern)
  return err
end

local dev = wl.device "sm_90"

-- host writes and reads wrap (int16, uint16) or round (half) as C does
local S = dev:malloc("short", 4)
S:write { 32767, -32768, 65535, 40000 }
local s = S:read()
assert(s[1] == 32767 and s[2] == -32768 and s[3] == -1 and s[4] == -25536,
       "int16 " .. table.concat(s, " "))
local U = dev:malloc_managed("ushort", 3)
U:write { -1, 65536, 1234 }
local u = U:read()
assert(u[1] == 65535 and u[2] == 0 and u[3] == 1234)
U[1] = 7
assert(U[1] == 7 and math.type(U[1]) == "integer")
local H = dev:malloc_managed("half", 8)
-- 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even gives 1;
-- 1 + 3 * 2^-11 goes up to 1 + 2^-9; 65520 overflows; 2^-25 (half the
-- smallest subnormal) rounds to 0, a little more to 2^-24
H:write { 1 + 2^-11, 1 + 3 * 2^-11, 65504, 65520, 2^-25, 2^-25 * 1.5,
          -0.1, 0 / 0 }
local h = H:read()
assert(h[1] == 1.0, "ties to even: " .. h[1])
assert(h[2] == 1 + 2^-9, "rounds up: " .. h[2])
assert(h[3] == 65504 and h[4] == math.huge, "max, overflow")
assert(h[5] == 0 and h[6] == 2^-24, "subnormals")
assert(h[7] == -0.0999755859375, "-0.1 as a half: " .. h[7])
assert(h[8] ~= h[8], "NaN stays NaN")
assert(math.type(h[1]) == "float")

-- the CUDA Programming Guide's extern __shared__ layout:
--   short array0[128]; float array1[64]; int array2[256];
local OUT = dev:malloc("int32", 3)
local HS = dev:malloc("half", 64)
dev:launch(wl.kernel(function(c, out, hs)
  local t = c.threadIdx.x
  local array0 = c:extern_shared("short", 0, 128)
  local array1 = c:extern_shared("float", 256, 64)
  local array2 = c:extern_shared("int32", 512, 256)
  array0[t] = -t
  if t < 64 then array1[t] = t / 2 end
  array2[t] = t * 3
  array2[t + 128] = 1
  c:syncthreads()
  if t == 0 then
    local sum0, sum2 = 0, 0
    for i = 0, 127 do sum0 = sum0 + array0[i] end
    for i = 0, 255 do sum2 = sum2 + array2[i] end
    out[0] = sum0
    out[1] = math.floor(array1[63] * 2)
    out[2] = sum2
  end
  if t < 64 then hs[t] = t + 0.5 end
end), { block = 128, shared = 128 * 2 + 64 * 4 + 256 * 4 }, OUT, HS)
local o = OUT:read()
assert(o[1] == -(127 * 128 // 2), "short array0: " .. o[1])
assert(o[2] == 63, "float array1: " .. o[2])
assert(o[3] == 3 * (127 * 128 // 2) + 128, "int array2: " .. o[3])
assert(HS:read()[64] == 63.5)

-- 2-byte alignment: a short view at an odd byte offset is refused, at an
-- even one accepted (the int view needs a multiple of 4)
fails("misaligned for int16 (a multiple of 2 needed)", dev.launch, dev,
      wl.kernel(function(c) c:extern_shared("int16", 3) end),
      { block = 1, shared = 64 })
fails("misaligned for int32 (a multiple of 4 needed)", dev.launch, dev,
      wl.kernel(function(c) c:extern_shared("int32", 2) end),
      { block = 1, shared = 64 })
dev:launch(wl.kernel(function(c)
  local v = c:extern_shared("uint16", 2)
  v[0] = 70000 -- wraps to 4464
  assert(v[0] == 4464)
end), { block = 1, shared = 64 })
-- static __shared__ arrays of 16-bit types are aligned to 2 bytes
dev:launch(wl.kernel(function(c)
  local a = c:shared("half", 3)
  local b = c:shared("int16", 5)
  a[2] = 0.5
  b[4] = -2
  assert(a[2] == 0.5 and b[4] == -2 and #a == 3 and #b == 5)
end), { block = 1 })

-- atomics: atomicAdd on half (rounded to half), atomicCAS on ushort
local HA = dev:malloc("half", 1)
local UA = dev:malloc("ushort", 1)
local OLD = dev:malloc("int32", 64)
dev:launch(wl.kernel(function(c, ha, ua, old)
  c:atomicAdd(ha, 0, 0.25)
  local cur = ua[0]
  while true do -- one increment per thread through atomicCAS
    local prev = c:atomicCAS(ua, 0, cur, cur + 1)
    if prev == cur then break end
    cur = prev
  end
  old[c.threadIdx.x] = cur
end), { block = 64 }, HA, UA, OLD)
assert(HA:read()[1] == 16.0, "64 x 0.25 in half: " .. HA:read()[1])
assert(UA:read()[1] == 64, "CAS increments: " .. UA:read()[1])
-- a half sum that rounds: 2048 + 1 is not a half (ties to even: 2048)
HA:write { 2048 }
dev:launch(wl.kernel(function(c, ha)
  local old = c:atomicAdd(ha, 0, 1)
  assert(old == 2048 and math.type(old) == "float")
end), { block = 1 }, HA)
assert(HA:read()[1] == 2048.0)
-- the PTX form: atom.add.noftz.f16 and atom.cas.b16 (on short too)
local SA = dev:malloc("short", 1)
dev:launch(wl.kernel(function(c, ha, sa)
  c:atom("add", ha, 0, 0.5, "relaxed", "gpu")
  c:atom("cas", sa, 0, 0, -5, "relaxed", "gpu")
end), { block = 1 }, HA, SA)
assert(HA:read()[1] == 2048.0 and SA:read()[1] == -5)
-- warp-vector kernels: the same
dev:launch(wl.warp_kernel(function(w, ha)
  w:atomicAdd(ha, 0, 0.5)
end), { block = 32 }, HA)

-- what CUDA does not have is refused, naming the array
fails("CUDA has no atomicAdd on int16 ('s')", dev.launch, dev,
      wl.kernel(function(c, a) c:atomicAdd(a, 0, 1) end), { block = 1 },
      dev:malloc("int16", 1, "s"))
fails("CUDA has no atomicAdd on uint16", dev.launch, dev,
      wl.kernel(function(c, a) c:atomicAdd(a, 0, 1) end), { block = 1 }, UA)
fails("CUDA has no atomicExch on half", dev.launch, dev,
      wl.kernel(function(c, a) c:atomicExch(a, 0, 1) end), { block = 1 }, HA)
fails("CUDA has no atomicCAS on half", dev.launch, dev,
      wl.kernel(function(c, a) c:atomicCAS(a, 0, 0, 1) end), { block = 1 },
      HA)
fails("CUDA has no atomicMax on half", dev.launch, dev,
      wl.kernel(function(c, a) c:atomicMax(a, 0, 1) end), { block = 1 }, HA)
fails("CUDA has no atomicCAS on int16", dev.launch, dev,
      wl.kernel(function(c, a) c:atomicCAS(a, 0, 0, 1) end), { block = 1 },
      SA)
fails("CUDA has no atomicSub on uint16", dev.launch, dev,
      wl.kernel(function(c, a) c:atomic_fetch_sub(a, 0, 1) end),
      { block = 1 }, UA)
fails("CUDA has no atomicOr on int16", dev.launch, dev,
      wl.warp_kernel(function(w, a) w:atomicOr(a, 0, 1) end), { block = 32 },
      SA)
-- before compute capability 7.0 there is none at all
local kepler = wl.device "sm_35"
fails("atomicAdd on half ('half') needs compute capability 7.0 or later; "
      .. "this device is sm_35", kepler.launch, kepler,
      wl.kernel(function(c, a) c:atomicAdd(a, 0, 1) end), { block = 1 },
      kepler:malloc("half", 1, "half"))

-- 2-byte shared accesses are priced as such: 32 lanes reading
-- consecutive shorts touch 16 banks' words, one wavefront
local r = dev:launch(wl.kernel(function(c)
  local a = c:shared("short", 32)
  a[c.threadIdx.x] = 1
end), { block = 32 })
assert(r.counters["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"]
       == 1, "one wavefront")
assert(r.counters["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"]
       == 0, "no conflict")

-- the type names are checked, with the new words among the valid ones
fails("int16", dev.malloc, dev, "int8", 4)
print("types16: ok")
