-- Shared-memory banks (CUDA Programming Guide, "Shared Memory" of compute
-- capability 5.x and later): shared memory is 32 banks of 4-byte words,
-- word k in bank k % 32.  A warp's request takes one wavefront per
-- distinct word in its busiest bank; lanes reading the same word share
-- it (broadcast).  Every count below is Nsight Compute's
--   l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum    (wavefronts)
--   l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum (conflicts)
-- from a kernel launch, and the expected values are those measured on an
-- H100 (shared/hw/h100/shared_wavefronts.tsv).
local wl = require "warplab"

local WF = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
local BC = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
local INST = "smsp__inst_executed.sum"
local dev = wl.device { preset = "sm_90" }
local one_warp = { grid = 1, block = 32 }

-- lane i reads S[idx(i)]: one warp-wide shared load
local function gather(ty, n, idx)
  return wl.kernel(function(c)
    local S = c:shared(ty, n, "S")
    if ty == "float" then
      local _ = S[idx(c.threadIdx.x)]
    else
      local _ = c:load_vec(S, idx(c.threadIdx.x))
    end
  end)
end

local function cost(k, cfg, ...)
  local r = dev:launch(k, cfg or one_warp, ...)
  return r.counters[WF], r.counters[BC], r
end

-- 1. strides: lane i reads S[i * s] (4-byte floats); the H100's numbers
print("1. lane i reads S[i * stride] (float):")
print("  stride  wavefronts  conflicts")
local measured = { [1] = { 1, 0 }, [2] = { 2, 1 }, [3] = { 1, 0 },
  [4] = { 4, 3 }, [8] = { 8, 7 }, [16] = { 16, 15 }, [32] = { 32, 31 },
  [33] = { 1, 0 } }
for _, s in ipairs({ 1, 2, 3, 4, 8, 16, 32, 33 }) do
  local wf, bc = cost(gather("float", 32 * s, function(i) return i * s end))
  print(("  %6d  %10d  %9d"):format(s, wf, bc))
  assert(wf == measured[s][1] and bc == measured[s][2],
         "stride " .. s .. " differs from the H100")
end
print("  An odd stride visits all 32 banks; a stride with factor 2^k puts")
print("  2^k words in each bank it uses (gcd(stride, 32)-way conflict).")

-- 2. broadcast: every lane reads the same word
local wf, bc = cost(gather("float", 32, function() return 7 end))
print(("\n2. broadcast (all lanes read S[7]): %d wavefront, %d conflicts")
      :format(wf, bc))
assert(wf == 1 and bc == 0, "a broadcast is one wavefront")

-- 3. irregular patterns: any permutation of one row of 32 words is free;
-- a random gather costs its busiest bank
local perm = {}
for i = 0, 31 do perm[i] = i * 7 % 32 end
wf, bc = cost(gather("float", 32, function(i) return perm[i] end))
print(("3. permutation (lane i reads S[7i mod 32]): %d wavefront"):format(wf))
assert(wf == 1 and bc == 0, "a permutation is conflict-free")
local seed, rnd = 12345, {}
for i = 0, 31 do
  seed = (seed * 1103515245 + 12345) % 2147483648
  rnd[i] = seed // 65536 % 1024
end
local words_in_bank, busiest = {}, 0
for i = 0, 31 do
  local b = rnd[i] % 32
  words_in_bank[b] = words_in_bank[b] or {}
  if not words_in_bank[b][rnd[i]] then
    words_in_bank[b][rnd[i]] = true
    local n = 0
    for _ in pairs(words_in_bank[b]) do n = n + 1 end
    busiest = math.max(busiest, n)
  end
end
local rg
wf, bc, rg = cost(gather("float", 1024, function(i) return rnd[i] end))
print(("   random gather from 1024 words: %d wavefronts, %d conflicts "
       .. "(busiest bank holds %d of the words)"):format(wf, bc, busiest))
assert(wf == busiest and bc == busiest - 1 and rg.counters[INST] == 1,
       "a gather costs its busiest bank")

-- 4. 8- and 16-byte lanes (float2, float4): a warp moves 256 or 512
-- bytes, at least 2 or 4 wavefronts of 128 bytes
print("\n4. wide lanes: lane i reads V[i * stride]")
print("  type    stride  wavefronts  conflicts  (H100)")
local wide = {
  { "float2", 1, 2, 0 }, { "float2", 2, 4, 2 }, { "float4", 1, 4, 0 },
  { "float4", 2, 8, 4 }, { "float2", 0, 1, 0 }, { "float4", 0, 2, 0 },
}
for _, w in ipairs(wide) do
  local ty, s = w[1], w[2]
  wf, bc = cost(gather(ty, 64, function(i) return i * s end))
  print(("  %-6s  %6s  %10d  %9d"):format(ty, s == 0 and "bcast" or s, wf, bc))
  assert(wf == w[3] and bc == w[4], ty .. " stride " .. s)
end

-- 5. the toy layout: 5 banks of 4 bytes (wl.device "banks5").  Five
-- threads read one column of a 5 x 5 tile: with rows of 5 words every
-- element of a column is in the same bank; a padding word per row
-- (rows of 6) spreads the column over all 5 banks.
local toy = wl.device "banks5"
local column = function(width)
  return wl.kernel(function(c)
    local T = c:shared("float", 5 * width, "tile")
    local _ = T[c.threadIdx.x * width + 2]
  end)
end
print("\n5. 5 banks: 5 threads read column 2 of a 5 x 5 tile")
local r5 = toy:launch(column(5), { grid = 1, block = 5 })
local r6 = toy:launch(column(6), { grid = 1, block = 5 })
print(("   rows of 5 words: %d wavefronts, %d conflicts; padded to 6: %d, %d")
      :format(r5.counters[WF], r5.counters[BC], r6.counters[WF],
              r6.counters[BC]))
assert(r5.counters[WF] == 5 and r5.counters[BC] == 4, "5-way conflict")
assert(r6.counters[WF] == 1 and r6.counters[BC] == 0, "padding fixes it")
print(wl.heatmap({ offsets = { 8, 28, 48, 68, 88 }, banks = 5 },
                 { title = "column of T[5][5]" }))
print(wl.heatmap({ offsets = { 8, 32, 56, 80, 104 }, banks = 5 },
                 { title = "column of T[5][6]" }))

-- 6. a 32 x 32 float tile, one block of 32 x 32 threads: stored by row,
-- then read by row and by column (the transpose's access), with rows of
-- 32 words and of 33 (one padding word)
local tile = function(width)
  return wl.kernel(function(c, out)
    local T = c:shared("float", 32 * width, "tile")
    local tx, ty = c.threadIdx.x, c.threadIdx.y
    T[ty * width + tx] = ty * 32 + tx
    c:syncthreads()
    local by_row = T[ty * width + tx]
    local by_col = T[tx * width + ty]
    out[ty * 32 + tx] = by_row + by_col
  end, { name = "tile" .. width })
end
local out = dev:malloc("float", 32 * 32, "out")
print("\n6. 32 x 32 float tile, 32 warps (one per row ty):")
print("   row words  access     requests  wavefronts  per request  conflicts")
for _, width in ipairs({ 32, 33 }) do
  local r = dev:launch(tile(width), { grid = 1, block = { 32, 32 } }, out)
  local loads = {}
  for _, s in ipairs(r.sites) do
    if s.space == "shared" and s.op == "ld" then loads[#loads + 1] = s end
  end
  table.sort(loads, function(a, b) return a.line < b.line end)
  assert(#loads == 2, "two shared loads")
  local expect = { { 1, 0 }, width == 32 and { 32, 31 } or { 1, 0 } }
  for i, name in ipairs({ "by row", "by column" }) do
    local cn = loads[i].counters
    local per = cn[WF] / cn[INST]
    print(("   %9d  %-9s  %8d  %10d  %11d  %9d"):format(width, name,
      cn[INST], cn[WF], per, cn[BC]))
    assert(cn[INST] == 32, "one request per warp")
    assert(per == expect[i][1] and cn[BC] == expect[i][2] * 32,
           ("width %d, %s"):format(width, name))
  end
  local o = out:read()
  assert(o[1 * 32 + 2 + 1] == (1 * 32 + 2) + (2 * 32 + 1), "transposed sum")
end

-- 7. the heatmaps of warp 0's column read: 32 words in bank 0, and with
-- padding one word in each bank
local col32, col33 = {}, {}
for i = 0, 31 do col32[i + 1] = 4 * 32 * i; col33[i + 1] = 4 * 33 * i end
local hot = wl.bank_access { offsets = col32 }
local cool = wl.bank_access { offsets = col33 }
assert(hot.wavefronts == 32 and hot.worst == 32 and hot.banks[1] == 32)
assert(cool.wavefronts == 1 and cool.worst == 1)
print()
print(wl.heatmap(hot, { title = "column read, rows of 32 words", width = 32 }))
print()
print(wl.heatmap(cool, { title = "column read, rows of 33 words" }))

-- `warplab run 08_shared_banks.lua DIR` also writes both as SVG files
if arg and arg[1] then
  for _, na in ipairs({ { "column32", hot }, { "column33", cool } }) do
    local name, acc = na[1], na[2]
    local path = arg[1] .. "/" .. name .. ".svg"
    local f = assert(io.open(path, "w"))
    f:write(wl.heatmap_svg(acc, { title = "column read, " .. name }))
    f:close()
    print("wrote " .. path)
  end
end
