-- The cost models from Lua: wl.bank_access against every measured row
-- of shared/hw/h100/shared_wavefronts.tsv and tests/hw/
-- shared_wavefronts_more.tsv, wl.global_access against every row of
-- global_sectors.tsv, wl.constant_access; the same rows priced by
-- one-warp kernels on the sm_90 device (launch counters); the bank
-- heatmaps; error messages.  arg[1]: the shared/ folder.
local wl = require "warplab"
local shared = arg[1] or "../shared"

local function check(cond, msg) if not cond then error(msg, 2) end end
local function fails(pattern, f, ...)
  local ok, err = pcall(f, ...)
  check(not ok, "expected an error matching " .. pattern)
  check(tostring(err):find(pattern), "error '" .. tostring(err) ..
        "' does not match '" .. pattern .. "'")
  return err
end

-- Reads a TSV file: rows as tables keyed by the header's names; offsets
-- become a list of numbers (lane + 1).
local function read_tsv(path)
  local f = assert(io.open(path), "cannot open " .. path)
  local header, rows = nil, {}
  for line in f:lines() do
    if line ~= "" and not line:match("^#") then
      local fields = {}
      for v in (line .. "\t"):gmatch("([^\t]*)\t") do
        fields[#fields + 1] = v
      end
      if not header then
        header = fields
      else
        local row = {}
        for i, name in ipairs(header) do row[name] = fields[i] end
        if row.offsets then
          local offs = {}
          for n in row.offsets:gmatch("%d+") do
            offs[#offs + 1] = tonumber(n)
          end
          row.offsets = offs
        end
        rows[#rows + 1] = row
      end
    end
  end
  f:close()
  return rows
end

local function rowname(r)
  return ("%s %s %s-byte%s"):format(r.pattern, r.op, r.width_bytes,
    r.active and (" active " .. r.active) or "")
end

-- 1. wl.bank_access, every row of both tables
local base = read_tsv(shared .. "/hw/h100/shared_wavefronts.tsv")
local more = read_tsv("tests/hw/shared_wavefronts_more.tsv")
check(#base == 56, "shared_wavefronts.tsv: 56 rows, read " .. #base)
check(#more == 72, "shared_wavefronts_more.tsv: 72 rows, read " .. #more)
local nrows = 0
for _, rows in ipairs({ base, more }) do
  for _, row in ipairs(rows) do
    check(#row.offsets == 32, rowname(row) .. ": 32 offsets")
    local a = wl.bank_access { offsets = row.offsets, op = row.op,
      width = tonumber(row.width_bytes),
      active = row.active and tonumber(row.active) or nil }
    check(a.wavefronts == tonumber(row.wavefronts) and
          a.conflicts == tonumber(row.conflicts),
          ("%s: %d wavefronts / %d conflicts, measured %s / %s"):format(
            rowname(row), a.wavefronts, a.conflicts, row.wavefronts,
            row.conflicts))
    check(a.ideal == a.wavefronts - a.conflicts, rowname(row) .. ": ideal")
    nrows = nrows + 1
  end
end
check(nrows == 128, "rows checked " .. nrows)

-- the result's shape: banks, lanes, worst, the spec echoed
local stride2 = {}
for i = 0, 31 do stride2[i + 1] = 8 * i end
local a = wl.bank_access { offsets = stride2 }
check(#a.banks == 32 and a.banks[1] == 2 and a.banks[2] == 0, "banks")
check(a.words == 32 and a.worst == 2 and a.worst_bank == 0, "worst")
check(a.lanes[1] == 0 and a.lanes[2] == 2 and a.lanes[17] == 0, "lanes")
check(a.width == 4 and a.op == "ld" and a.active == 0xffffffff and
      a.nbanks == 32 and a.bank_bytes == 4 and a.offsets[32] == 248, "spec")
-- partial warps: lanes without an offset are inactive
a = wl.bank_access { offsets = { [1] = 0, [3] = 128 } }
check(a.active == 5 and a.wavefronts == 2 and a.lanes[2] == false, "partial")
a = wl.bank_access { offsets = stride2, active = 0 }
check(a.wavefronts == 0 and a.words == 0, "no active lane: 0 wavefronts")
-- other layouts: the toy 5 banks, Kepler's 8-byte banks, a device's
a = wl.bank_access { offsets = { 0, 20, 40, 60, 80 }, banks = 5 }
check(a.wavefronts == 5 and a.conflicts == 4 and a.worst_bank == 0, "banks5")
a = wl.bank_access { offsets = { 0, 24, 48, 72, 96 }, banks = 5 }
check(a.wavefronts == 1, "banks5, padded row of 6 words")
a = wl.bank_access { offsets = stride2, device = wl.device "banks5" }
check(a.nbanks == 5 and a.bank_bytes == 4 and a.wavefronts == 7, "device")
a = wl.bank_access { offsets = stride2, device = wl.device "sm_35" }
check(a.nbanks == 32 and a.bank_bytes == 8 and a.wavefronts == 1,
      "sm_35: 8-byte banks take stride 2 without a conflict")
a = wl.bank_access { offsets = stride2, width = 8, banks = 32, bank_bytes = 8 }
check(a.wavefronts == 1 and a.conflicts == 0, "8-byte banks, 8-byte lanes")

-- 2. wl.global_access, every row of global_sectors.tsv (256-byte aligned
-- base; lane i reads element offset + i * stride)
local sec = read_tsv(shared .. "/hw/h100/global_sectors.tsv")
check(#sec == 16, "global_sectors.tsv: 16 rows, read " .. #sec)
for _, row in ipairs(sec) do
  local w, st, off = tonumber(row.width_bytes), tonumber(row.stride_elems),
    tonumber(row.offset_elems)
  local addrs = {}
  for i = 0, 31 do addrs[i + 1] = 4096 + (off + i * st) * w end
  local g = wl.global_access { addresses = addrs, width = w }
  check(g.sectors == tonumber(row.sectors) and
        g.requests == tonumber(row.requests),
        ("global width %d stride %d offset %d: %d sectors %d requests, "
         .. "measured %s %s"):format(w, st, off, g.sectors, g.requests,
         row.sectors, row.requests))
  check(#g.sector_addresses == g.sectors, "sector list")
end
local g = wl.global_access { addresses = stride2 }
check(g.lines == 2 and g.sector_addresses[8] == 224, "lines and sectors")
g = wl.global_access { addresses = stride2, active = 0 }
check(g.requests == 0 and g.sectors == 0, "no active lane: no request")

-- 3. wl.constant_access: one request per distinct address
local same, nine = {}, {}
for i = 0, 31 do same[i + 1] = 16; nine[i + 1] = 4 * (i % 9) end
local n, cyc = wl.constant_access { addresses = same }
check(n == 1 and math.abs(cyc - 57.33) < 0.01, "broadcast: 1 request")
n = wl.constant_access { addresses = nine }
check(n == 9, "9 distinct coefficients: 9 requests, got " .. n)
local _, c16 = wl.constant_access { addresses = nine, misses = 9 }
check(c16 > 9 * 69, "misses cost")

-- 4. the same rows priced by kernels: one warp on the sm_90 device, a
-- shared array at the start of the block's shared memory, each lane
-- accessing it at offset / width (vector types for 8 and 16 bytes);
-- lanes outside `active` do not take part
local dev = wl.device { preset = "sm_90" }
local types = { [4] = "int32", [8] = "float2", [16] = "float4" }
local WF = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_"
local BC = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_"
local function kernel_row(row)
  local w = tonumber(row.width_bytes)
  local ty = types[w]
  if not ty then return false end
  local maxoff = 0
  for _, o in ipairs(row.offsets) do maxoff = math.max(maxoff, o) end
  local nel = maxoff // w + 1
  local idx = {}
  for i, o in ipairs(row.offsets) do idx[i] = o // w end
  local active = row.active and tonumber(row.active) or 0xffffffff
  local store = row.op == "st"
  local k = wl.kernel(function(c)
    local S = c:shared(ty, nel, "S")
    local lane = c.threadIdx.x
    if active >> lane & 1 == 1 then
      local i = idx[lane + 1]
      if w == 4 then
        if store then S[i] = lane + 1 else local _ = S[i] end
      elseif store then
        c:store_vec(S, i, lane, lane + 1, lane + 2, lane + 3)
      else
        local _ = c:load_vec(S, i)
      end
    end
  end, { name = rowname(row) })
  local r = dev:launch(k, { grid = 1, block = 32 })
  local op = store and "st" or "ld"
  local other = store and "ld" or "st"
  local cn = r.counters
  check(cn[WF .. op .. ".sum"] == tonumber(row.wavefronts) and
        cn[BC .. op .. ".sum"] == tonumber(row.conflicts),
        ("kernel %s: %d wavefronts / %d conflicts, measured %s / %s"):format(
          rowname(row), cn[WF .. op .. ".sum"], cn[BC .. op .. ".sum"],
          row.wavefronts, row.conflicts))
  check(cn[WF .. other .. ".sum"] == 0, rowname(row) .. ": one op only")
  check(cn["smsp__inst_executed.sum"] == 1, rowname(row) .. ": one request")
  return true
end
local nk, n4 = 0, 0
for _, rows in ipairs({ base, more }) do
  for _, row in ipairs(rows) do
    if kernel_row(row) then
      nk = nk + 1
      if row.width_bytes == "4" and rows == base then n4 = n4 + 1 end
    end
  end
end
check(n4 == 28, "every 4-byte row of shared_wavefronts.tsv as a kernel: " .. n4)

-- 5. heatmaps: text and SVG, from a result or a spec
local col = {}
for i = 0, 31 do col[i + 1] = 128 * i end
local text = wl.heatmap { offsets = col }
local rows = {}
for l in text:gmatch("[^\n]+") do rows[#rows + 1] = l end
check(#rows == 34, "title, 32 banks, footer: " .. #rows)
check(rows[1]:find("32 wavefronts") and rows[1]:find("31 bank conflicts"),
      "summary: " .. rows[1])
check(rows[2]:match("^bank  0 |(#+)|") == ("#"):rep(32), "bank 0 bar")
check(rows[2]:find("32  lanes 0%-31  <%- worst"), "bank 0: " .. rows[2])
check(rows[3]:find("|  0$"), "bank 1 empty: " .. rows[3])
check(rows[34]:find("worst bank 0: 32 distinct words %-> 32 wavefronts"),
      rows[34])
-- every bank's count in the text equals the result's
local s16 = {}
for i = 0, 31 do s16[i + 1] = 32 * i end
local res = wl.bank_access { offsets = s16, width = 16 }
text = wl.heatmap(res, { title = "float4 stride 2" })
check(text:find("^float4 stride 2: "), "title")
local b = 0
for count in text:gmatch("\nbank +%d+ |[# ]*| +(%d+)") do
  b = b + 1
  check(tonumber(count) == res.banks[b], "bank " .. (b - 1) .. " count")
end
check(b == 32, "32 bank rows")
-- a long bar is scaled to opts.width
text = wl.heatmap({ offsets = col }, { width = 8, char = "=" })
check(text:find("\nbank  0 |========| 32"), "scaled bar")

local svg = wl.heatmap_svg({ offsets = col }, { title = "column <read> & co" })
check(svg:match("^<%?xml version=\"1.0\""), "xml declaration")
check(svg:find('<svg xmlns="http://www.w3.org/2000/svg"', 1, true), "svg ns")
check(svg:match("</svg>\n$"), "closed")
check(svg:find("column &lt;read&gt; &amp; co", 1, true), "title escaped")
check(not svg:find("href") and not svg:find("url%("), "no external resources")
-- well-formed: every tag closed in order
local stack, nrect, ncells = {}, 0, 0
for close, name, rest in svg:gmatch("<(/?)([%w:]+)([^>]*)>") do
  if close == "/" then
    check(stack[#stack] == name, "unbalanced </" .. name .. ">")
    stack[#stack] = nil
  elseif not rest:match("/$") then
    stack[#stack + 1] = name
  end
  if name == "rect" and close == "" then nrect = nrect + 1 end
end
check(#stack == 0, "every element closed")
for _ in svg:gmatch("<title>bank 0 word %d+: lanes %d+</title>") do
  ncells = ncells + 1
end
-- a background, 32 heat bars, 32 word cells (all in bank 0)
check(nrect == 1 + 32 + 32 and ncells == 32, "rects " .. nrect)
check(not svg:find("[^%g%s]"), "ASCII only")

-- 6. errors name the function, the field and the lane
fails("wl.bank_access: a table expected", wl.bank_access, 4)
fails("field 'offsets' %(or 'addresses'%) must be a table", wl.bank_access, {})
fails("unknown option 'offset' %(did you mean 'offsets'%?%)", wl.bank_access, { offset = { 0 } })
fails("width must be 1, 2, 4, 8 or 16 bytes %(got 3%)", wl.bank_access,
      { offsets = { 0 }, width = 3 })
fails("lane 2: offset 6 is not a multiple of the width %(4 bytes%)",
      wl.bank_access, { offsets = { 0, 4, 6 } })
fails("lane 1: offset 8 is not a multiple of the width %(16 bytes%)",
      wl.global_access, { addresses = { 0, 8 }, width = 16 })
fails("lane 3: active but has no offset", wl.bank_access,
      { offsets = { 0, 4, 8 }, active = 0xf })
fails("lane 0: negative offset", wl.bank_access, { offsets = { -4 } })
fails("lane 1: offset must be an integer, got 4.5", wl.bank_access,
      { offsets = { 0, 4.5 } })
fails("33 offsets given; a warp has 32 lanes", wl.bank_access,
      { offsets = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 } })
fails("op must be \"ld\" or \"st\" %(got load%)", wl.bank_access,
      { offsets = { 0 }, op = "load" })
fails("banks must be 1..64", wl.bank_access, { offsets = { 0 }, banks = 65 })
fails("bank_bytes must be a power of two", wl.bank_access,
      { offsets = { 0 }, bank_bytes = 3 })
fails("active must be a 32%-bit lane mask", wl.bank_access,
      { offsets = { 0 }, active = -1 })
fails("field 'width' must be an integer", wl.bank_access,
      { offsets = { 0 }, width = "4" })
fails("wl.constant_access: unknown option 'op'", wl.constant_access,
      { addresses = { 0 }, op = "ld" })
fails("wl.heatmap: a wl.bank_access result or spec expected",
      wl.heatmap, "x")
fails("wl.heatmap_svg: lane 0: offset 2", wl.heatmap_svg, { offsets = { 2 } })
-- errors point at the caller's line
fails("perf_api.lua:%d+: wl.bank_access", function()
  local _ = wl.bank_access(1)
end)
fails("perf_api.lua:%d+: wl.heatmap: lane 0", function()
  local _ = wl.heatmap { offsets = { 1 } }
end)

print(("perf_api: %d measured shared rows, %d as kernels, %d global rows: ok")
      :format(nrows, nk, #sec))
