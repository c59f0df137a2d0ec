-- Kernels on the simulated device: memory spaces, SIMT requests, errors.
local wl = require "warplab"

local function check(cond, msg) if not cond then error(msg, 2) end end
local function fails(pattern, f, ...)
  local ok, err = pcall(f, ...)
  check(not ok, "expected an error matching " .. pattern)
  check(tostring(err):find(pattern), "error '" .. tostring(err) ..
        "' does not match '" .. pattern .. "'")
  return err
end

-- access sites are found by the calling instruction (a cache of lines by
-- saved pc, checked by a probe when the module loads); on Debian's Lua
-- 5.4 the probe passes
check(wl._fast_lines == true, "the line cache's probe failed on this Lua")

local dev = wl.device { preset = "sm_90", sms = 4 }
check(dev.config.sms == 4 and dev.config.banks == 32, "config")
fails("wl.device: unknown option 'bogus'", wl.device, { bogus = 1 })
fails("unknown device preset", wl.device, "sm_99")

-- vector add: global memory persists, host copies, 3 blocks x 64
local N = 150
local A = dev:malloc("float", N, "A")
local B = dev:malloc("float", N, "B")
local C = dev:malloc("float", N, "C")
local a, b = {}, {}
for i = 1, N do a[i] = i; b[i] = 2 * i end
A:write(a); B:write(b)
local add = wl.kernel(function(c, A, B, C, n)
  local i = c.blockIdx.x * c.blockDim.x + c.threadIdx.x
  if i < n then C[i] = A[i] + B[i] end
end)
local r = dev:launch(add, { grid = 3, block = 64 }, A, B, C, N)
local out = C:read()
for i = 1, N do check(out[i] == 3 * i, "vector add element " .. i) end
-- 3 blocks x 2 warps; the second warp of block 2 has no thread below n
-- (150 = 2*64 + 22), so 5 warps make two load requests each
local ld_line
for _, st in ipairs(r.sites) do if st.op == "ld" then ld_line = st.line end end
local ld = r:site(ld_line, "global", "ld")
check(ld["smsp__inst_executed.sum"] == 2 * 5, "two load requests per warp: "
      .. tostring(ld["smsp__inst_executed.sum"]))
-- a full warp of 4-byte floats touches 4 sectors; the warp with 22 lanes
-- touches 3 (88 bytes from a 128-aligned start)
check(ld["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] == 2 * (4 * 4 + 3),
      "sectors " .. tostring(ld["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]))
fails("host cannot index", function() return A[0] end)

-- shared memory tree reduction with __syncthreads, one block of 128
local S = dev:malloc("int32", 1, "sum")
local red = wl.kernel(function(c, out)
  local buf = c:shared("int32", 128)
  local t = c.threadIdx.x
  buf[t] = t + 1
  c:syncthreads()
  local s = 64
  while s > 0 do
    if t < s then buf[t] = buf[t] + buf[t + s] end
    c:syncthreads()
    s = s // 2
  end
  if t == 0 then out[0] = buf[0] end
end)
r = dev:launch(red, { grid = 1, block = 128 }, S)
check(S:read()[1] == 128 * 129 // 2, "reduction " .. S:read()[1])
check(r.occupancy.shared_per_block >= 512, "probe sized the shared array")

-- managed memory: the host indexes it directly
local M = dev:malloc_managed("int64", 4, "M")
M[0] = 5
dev:launch(wl.kernel(function(c, M) M[c.threadIdx.x] = M[0] * 10 + c.threadIdx.x end),
           { grid = 1, block = 1 }, M)
check(M[0] == 50, "managed")

-- constant memory: host-written, read-only on the device
local K = dev:constant("float", 9, "coef")
dev:memcpy_to_symbol(K, { 1, 2, 3, 4, 5, 4, 3, 2, 1 })
local O = dev:malloc("float", 32, "O")
r = dev:launch(wl.kernel(function(c, K, O)
  O[c.threadIdx.x] = K[c.threadIdx.x % 9]
end), { grid = 1, block = 32 }, K, O)
check(O:read()[10] == 1 and O:read()[5] == 5, "constant read")
check(r.counters["idc__requests.sum"] == 9, "9 distinct constant addresses: " ..
      r.counters["idc__requests.sum"])
local err = fails("write to __constant__ memory 'coef'", dev.launch, dev,
  wl.kernel(function(c, K) if c.threadIdx.x == 7 then K[0] = 1 end end),
  { grid = 2, block = 32 }, K)
check(err:find("kernel_basic.lua:%d+: block %(0,0,0%) thread %(7,0,0%) warp 0 lane 7"),
      "names line, block, thread and lane: " .. err)

-- grid-constant parameters: a plain array of numbers, read-only
dev:launch(wl.kernel(function(c, P, O) O[c.threadIdx.x] = P[c.threadIdx.x] end),
           { grid = 1, block = 3 }, { 7, 8, 9 }, O)
check(O:read()[3] == 9, "parameter array")
fails("__grid_constant__ parameter", dev.launch, dev,
      wl.kernel(function(c, P) P[0] = 1 end), { grid = 1, block = 1 }, { 1 })

-- out of bounds: names the array, the index, block, thread and lane
err = fails("index 150 out of bounds for global array 'A' of 150 elements",
  dev.launch, dev, wl.kernel(function(c, A) local x = A[c.blockIdx.x * 32 + c.threadIdx.x] end),
  { grid = 5, block = 32 }, A)
check(err:find("block %(4,0,0%) thread %(22,0,0%) warp 0 lane 22"), err)

-- a Lua error in a kernel
err = fails("attempt to perform arithmetic", dev.launch, dev,
  wl.kernel(function(c) if c.threadIdx.x == 33 then local x = nil + 1 end end),
  { grid = 1, block = 64 })
check(err:find("thread %(33,0,0%) warp 1 lane 1"), err)

-- a barrier part of the block never reaches
err = fails("barrier divergence", dev.launch, dev, wl.kernel(function(c)
  if c.threadIdx.x < 16 then c:syncthreads() end
end), { grid = 1, block = 32 })

-- the device stays usable after errors
r = dev:launch(add, { grid = 3, block = 64 }, A, B, C, N)
check(C:read()[N] == 3 * N, "device usable after errors")

-- spin-waiting on a flag another block sets: lanes yield after a slice
local F = dev:malloc("int32", 2, "flag")
dev:launch(wl.kernel(function(c, F)
  if c.blockIdx.x == 0 then
    while c:volatile_load(F, 0) == 0 do end
    F[1] = 1
  else
    c:volatile_store(F, 0, 1)
  end
end), { grid = 2, block = 1, slice = 4 }, F)
check(F:read()[2] == 1, "spin loop finished")
-- and a spin that never ends stops at max_steps with a clear error
fails("without finishing", dev.launch, dev, wl.kernel(function(c, F)
  while c:volatile_load(F, 1) ~= 7 do end
end), { grid = 1, block = 1, max_steps = 1000, slice = 1 }, F)

-- the toy device of the occupancy lesson: 16 KB shared, 768 threads/SM
local toy = wl.device "toy"
local o = toy:occupancy { block = 256, shared = 2048 }
check(o.blocks_per_sm == 3 and o.limited_by == "threads" and o.by_shared == 8,
      "toy occupancy")
o = toy:occupancy { block = 64, shared = 2048 }
check(o.blocks_per_sm == 8 and o.by_shared == 8, "toy shared limit")
fails("shared memory", toy.occupancy, toy, { block = 32, shared = 20000 })

-- the dynamic (extern) shared region, carved into typed views by byte
-- offsets with their alignment checked; views of global arrays
local O2 = dev:malloc("float", 32, "O2")
dev:launch(wl.kernel(function(c, O)
  local st = c:shared("int32", 4)
  local f = c:extern_shared("float", 0, 32)
  local d = c:extern_shared("double", 128, 16)
  local t = c.threadIdx.x
  f[t] = t * 1.5
  if t < 16 then d[t] = t end
  st[t % 4] = t
  c:syncthreads()
  O[t] = f[31 - t] + (t < 16 and d[t] or 0)
end), { grid = 1, block = 32, shared = 256 }, O2)
local o2 = O2:read()
check(o2[1] == 46.5 and o2[2] == 46 and o2[32] == 0, "extern shared views")
fails("misaligned for double", dev.launch, dev, wl.kernel(function(c)
  local f = c:extern_shared("double", 4)
end), { grid = 1, block = 1, shared = 64 })
fails("does not fit the launch's 64 dynamic bytes", dev.launch, dev,
  wl.kernel(function(c) local f = c:extern_shared("double", 0, 20) end),
  { grid = 1, block = 1, shared = 64 })
-- an offset and no count: the view runs to the region's end (the probe
-- once read its own new view as the missing count)
local O3 = dev:malloc("int32", 1, "O3")
dev:launch(wl.kernel(function(c, O)
  local f = c:extern_shared("int32", 8)
  if c.threadIdx.x == 0 then O[0] = #f end
end), { grid = 1, block = 1, shared = 64 }, O3)
check(O3:read()[1] == 14, "an extern shared view from an offset to the end")
local v = O2:view(30)
check(#v == 2 and v:read()[1] == o2[31], "a view of a global array")
dev:launch(wl.kernel(function(c, v) v[1] = 99 end), { grid = 1, block = 1 }, v)
check(O2:read()[32] == 99, "a kernel writes through a view")

-- vectors: float4 loads and stores are 16-byte accesses
local V = dev:malloc("float4", 32, "V")
local comps = {}
for i = 1, 128 do comps[i] = i end
V:write(comps)
r = dev:launch(wl.kernel(function(c, V)
  local s = c:shared("float4", 32)
  local i = c.threadIdx.x
  local x, y, z, w = c:load_vec(V, i)
  c:store_vec(s, i, x, y, z, w)
  c:syncthreads()
  local a, b, cc, d = c:load_vec(s, (i * 2) % 32)
  c:store_vec(V, i, a + 1, b, cc, d)
end), { grid = 1, block = 32 }, V)
local vv = V:read()
check(vv[1] == 2 and vv[5] == 10 and #vv == 128, "float4 round trip")
-- stride-1 16-byte stores: 4 wavefronts; stride-2 16-byte loads: 8 and 4
-- conflicts (shared/hw/h100/shared_wavefronts.tsv)
check(r.counters["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"] == 4, "st wavefronts")
check(r.counters["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] == 8, "ld wavefronts")
check(r.counters["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] == 4, "ld conflicts")
fails("use c:load_vec", dev.launch, dev,
  wl.kernel(function(c, V) local x = V[0] end), { grid = 1, block = 1 }, V)

-- the bank heatmap of a kernel's costliest shared access at a line
r = dev:launch(wl.kernel(function(c)
  local tile = c:shared("float", 32 * 32)
  local t = c.threadIdx.x
  tile[t * 32] = t                      -- a column: one bank, 32 words
  local x = tile[t * 33 % 1024]         -- padded diagonal: 32 banks
end), { grid = 1, block = 32 })
local hm = r:heatmap(r.sites[1].line, "st")
check(hm:find("32 wavefronts") and hm:find("bank  0 |#+| 32"), hm)
local w = r.sites[1].worst_access or r.sites[2].worst_access
check(w and wl.bank_access(w).wavefronts >= 1, "worst access spec")
check(r:heatmap_svg(r.sites[1].line):find("^<svg") or
      r:heatmap_svg(r.sites[1].line):find("<svg"), "svg heatmap")
fails("no shared%-memory access at line 1", r.heatmap, r, 1)

-- cache operators: .ca fills L1 and the same load then hits; .cg and
-- volatile go to L2; __ldg uses L1
local Ac = dev:malloc("float", 64, "Ac")
r = dev:launch(wl.kernel(function(c, A)
  local t = c.threadIdx.x
  local a = A[t]
  local b = A[t]
  local x = c:ld(A, t, "cg")
  local y = c:volatile_load(A, t)
  local z = c:ldg(A, t)
end), { grid = 1, block = 32 }, Ac)
local hit, l2hit = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
  "lts__t_sectors_srcunit_tex_lookup_hit.sum"
local L0 = r.sites[1].line
check(r:site(L0)[hit] == 0 and r:site(L0 + 1)[hit] == 4, ".ca then a hit")
check(r:site(L0 + 2)[hit] == 0 and r:site(L0 + 2)[l2hit] == 4, ".cg: L2")
check(r:site(L0 + 3)[hit] == 0 and r:site(L0 + 3)[l2hit] == 4, "volatile: L2")
check(r:site(L0 + 4)[hit] == 4, "__ldg: L1")

-- constant memory: releasing the newest allocation gives its space back
local d2 = wl.device()
local big = d2:constant("float", 16384, "big")      -- all 64 KB
fails("constant memory is 65536 bytes", d2.constant, d2, "float", 1)
d2:free(big)
check(#d2:constant("float", 4, "small") == 4, "constant space returned")

-- two accesses on one line are one site; a line reached through pcall
-- (a C function in between) still gets its own line
local P2 = dev:malloc("int32", 64, "P2")
r = dev:launch(wl.kernel(function(c, P)
  local t = c.threadIdx.x
  P[t] = t; P[t + 32] = t
  pcall(c.store, c, P, t, 7)
end), { grid = 1, block = 32 }, P2)
local lines = {}
for _, st in ipairs(r.sites) do lines[#lines + 1] = st.line .. ":" .. st.counters["smsp__inst_executed.sum"] end
table.sort(lines)
local base = r.sites[1].line
check(#r.sites == 2, "two sites: " .. table.concat(lines, " "))

-- cudaDeviceSetSharedMemConfig: 8-byte loads on 4-byte banks take two
-- wavefronts, on 8-byte banks one
local kep = wl.device "sm_35"
check(kep:set_shared_mem_config("four_byte") == "eight_byte", "previous mode")
local k8 = wl.kernel(function(c)
  local s = c:shared("double", 64)
  local x = s[c.threadIdx.x]
end)
local WF = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
check(kep:launch(k8, { grid = 1, block = 32 }).counters[WF] == 2, "4-byte banks")
kep:set_shared_mem_config("eight_byte")
check(kep:launch(k8, { grid = 1, block = 32 }).counters[WF] == 1, "8-byte banks")
fails("invalid bank size", kep.set_shared_mem_config, kep, "sixteen")

-- cache preferences: per device (cudaDeviceSetCacheConfig), per kernel
-- (cudaFuncSetCacheConfig), per launch, the most specific winning
local h = wl.device()
check(h:set_cache_config("prefer_l1") == "none", "previous preference")
local ks = wl.kernel(function(c) local s = c:shared("float", 1024); s[0] = 1 end)
check(h:launch(ks, { grid = 1, block = 32 }).occupancy.shared_per_sm == 8192,
      "device preference")
check(h:launch(ks, { grid = 1, block = 32, cache = "prefer_shared" })
      .occupancy.shared_per_sm == 228 * 1024, "launch preference")
local kq = wl.kernel(function(c) local s = c:shared("float", 1024); s[0] = 1 end,
                     { cache = "prefer_equal" })
check(h:launch(kq, { grid = 1, block = 32 }).occupancy.shared_per_sm == 132 * 1024,
      "kernel preference")

print("kernel_basic: ok")
