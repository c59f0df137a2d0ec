-- warplab/heatmap.lua -- bank heatmaps of one warp-wide shared-memory
-- access: wl.heatmap (text, one row per bank) and wl.heatmap_svg (a
-- standalone SVG for reports).  Both take a wl.bank_access result or the
-- spec table wl.bank_access takes.
local wl = ...
if type(wl) ~= "table" then wl = require "warplab" end

-- The access priced, and its words: banks[b + 1] = list of
-- { word = k, lanes = {lane, ...} } sorted by word, for bank b.
local function analyse(x, fname)
  if type(x) ~= "table" then
    error(fname .. ": a wl.bank_access result or spec expected, got "
          .. type(x), 3)
  end
  local r = x
  if type(x.wavefronts) ~= "number" or type(x.banks) ~= "table" then
    local ok, res = pcall(wl.bank_access, x)
    if not ok then error((tostring(res):gsub("^.-wl%.bank_access",
                                                 fname)), 3) end
    r = res
  end
  local nb, bb, w = r.nbanks, r.bank_bytes, r.width
  local words = {}
  for lane = 0, 31 do
    local off = r.offsets[lane + 1]
    if off then
      for k = off // bb, (off + w - 1) // bb do
        local e = words[k]
        if not e then e = { word = k, lanes = {} }; words[k] = e end
        if e.lanes[#e.lanes] ~= lane then e.lanes[#e.lanes + 1] = lane end
      end
    end
  end
  local banks = {}
  for b = 1, nb do banks[b] = {} end
  for k, e in pairs(words) do
    local list = banks[k % nb + 1]
    list[#list + 1] = e
  end
  for b = 1, nb do
    table.sort(banks[b], function(p, q) return p.word < q.word end)
  end
  return r, banks
end

-- "0-7,16,24": lanes as ranges of consecutive numbers.
local function lane_list(lanes)
  local parts, i = {}, 1
  while i <= #lanes do
    local j = i
    while j < #lanes and lanes[j + 1] == lanes[j] + 1 do j = j + 1 end
    if j > i + 1 then
      parts[#parts + 1] = lanes[i] .. "-" .. lanes[j]
    else
      for k = i, j do parts[#parts + 1] = tostring(lanes[k]) end
    end
    i = j + 1
  end
  return table.concat(parts, ",")
end

-- The lanes that touch bank b's words, ascending.
local function bank_lanes(words)
  local seen, out = {}, {}
  for _, e in ipairs(words) do
    for _, l in ipairs(e.lanes) do
      if not seen[l] then seen[l] = true; out[#out + 1] = l end
    end
  end
  table.sort(out)
  return out
end

local function plural(n, word)
  return n .. " " .. word .. (n == 1 and "" or "s")
end

local function summary(r)
  local lanes = 0
  for l = 0, 31 do if r.active >> l & 1 == 1 then lanes = lanes + 1 end end
  return ("%s, %d-byte %s, %d banks x %d B: %s (ideal %d), %s"):format(
    plural(lanes, "lane"), r.width, r.op, r.nbanks, r.bank_bytes,
    plural(r.wavefronts, "wavefront"), r.ideal,
    plural(r.conflicts, "bank conflict"))
end

-- wl.heatmap(access [, opts]) -> text: one row per bank with a bar of
-- its distinct words (each word of a bank is served in its own
-- wavefront), the count and the lanes that touch it; banks holding the
-- most words are marked when they hold more than an even share.  opts:
-- width (longest bar, 32), char ("#"), lanes (true: list lanes), title.
function wl.heatmap(x, opts)
  local r, banks = analyse(x, "wl.heatmap")
  opts = wl._checkopts(opts, "wl.heatmap",
                       { "width", "char", "title", "lanes" }) or {}
  local width = opts.width or 32
  local ch = opts.char or "#"
  local even = -(-r.words // r.nbanks) -- ceil
  local scale = r.worst > width and width / r.worst or 1
  local out = { (opts.title and opts.title .. ": " or "bank heatmap: ")
                .. summary(r) }
  local bw = #tostring(r.nbanks - 1)
  local barw = math.floor(r.worst * scale + 0.5)
  for b = 0, r.nbanks - 1 do
    local n = r.banks[b + 1]
    local len = math.floor(n * scale + 0.5)
    if n > 0 and len == 0 then len = 1 end
    local row = ("bank %" .. bw .. "d |%s%s| %2d"):format(b, ch:rep(len),
      (" "):rep(barw - len), n)
    if n > 0 and opts.lanes ~= false then
      local ll = lane_list(bank_lanes(banks[b + 1]))
      if #ll > 40 then ll = ll:sub(1, 37) .. "..." end
      row = row .. "  lanes " .. ll
    end
    if n == r.worst and n > even then row = row .. "  <- worst" end
    out[#out + 1] = row
  end
  out[#out + 1] = ("worst bank %d: %s -> %s"):format(r.worst_bank,
    plural(r.worst, "distinct word"), plural(r.wavefronts, "wavefront"))
  return table.concat(out, "\n")
end

local function esc(s)
  return (tostring(s):gsub("[&<>\"]", { ["&"] = "&amp;", ["<"] = "&lt;",
                                        [">"] = "&gt;", ['"'] = "&quot;" }))
end

-- wl.heatmap_svg(access [, opts]) -> a standalone SVG document: banks as
-- columns, a heat bar per bank (its distinct words), and under it one
-- cell per distinct word, colored by bank and labelled with the lanes
-- that read or write it (a column's cells take separate wavefronts).
-- opts: title, cell (column width in px, 28).
function wl.heatmap_svg(x, opts)
  local r, banks = analyse(x, "wl.heatmap_svg")
  opts = wl._checkopts(opts, "wl.heatmap_svg", { "title", "cell" }) or {}
  local cw = opts.cell or 28
  local rh, hb, left, top = 16, 80, 70, 56
  local nb = r.nbanks
  local rows = math.max(r.worst, 1)
  local gy = top + hb + 22 -- grid top
  local W = left + nb * cw + 20
  local H = gy + rows * rh + 40
  local o = {}
  local function add(s) o[#o + 1] = s end
  add('<?xml version="1.0" encoding="UTF-8"?>')
  add(('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
       .. 'viewBox="0 0 %d %d" font-family="monospace" font-size="10">')
      :format(W, H, W, H))
  add(('<title>%s</title>'):format(esc(opts.title or "bank heatmap")))
  add(('<rect x="0" y="0" width="%d" height="%d" fill="#ffffff"/>')
      :format(W, H))
  add(('<text x="%d" y="16" font-size="13" font-weight="bold">%s</text>')
      :format(left, esc(opts.title or "bank heatmap")))
  add(('<text x="%d" y="32">%s</text>'):format(left, esc(summary(r))))
  -- heat bars
  add(('<text x="4" y="%d">words</text>'):format(top + hb))
  for b = 0, nb - 1 do
    local n = r.banks[b + 1]
    local x0 = left + b * cw
    local h = r.worst > 0 and n / r.worst * hb or 0
    local t = r.worst > 1 and (n - 1) / (r.worst - 1) or 0
    local fill = n == 0 and "#eeeeee"
      or ("hsl(%d,75%%,50%%)"):format(math.floor(120 * (1 - t) + 0.5))
    add(('<rect x="%d" y="%.1f" width="%d" height="%.1f" fill="%s" '
         .. 'stroke="#888888" stroke-width="0.5"><title>bank %d: %d '
         .. 'words</title></rect>'):format(x0 + 2, top + hb - h, cw - 4,
         h, fill, b, n))
    add(('<text x="%d" y="%.1f" text-anchor="middle">%d</text>'):format(
      x0 + cw // 2, top + hb - h - 3, n))
    add(('<text x="%d" y="%d" text-anchor="middle" fill="#444444">%d</text>')
        :format(x0 + cw // 2, top + hb + 14, b))
  end
  add(('<text x="4" y="%d">bank</text>'):format(top + hb + 14))
  -- one cell per distinct word
  for k = 1, rows do
    add(('<text x="4" y="%d" fill="#444444">word %d</text>'):format(
      gy + (k - 1) * rh + 12, k))
  end
  for b = 0, nb - 1 do
    local hue = math.floor(b * 360 / nb)
    for k, e in ipairs(banks[b + 1]) do
      local x0, y0 = left + b * cw, gy + (k - 1) * rh
      local label = #e.lanes == 1 and tostring(e.lanes[1])
        or (e.lanes[1] .. "+")
      add(('<rect x="%d" y="%d" width="%d" height="%d" fill="hsl(%d,65%%,'
           .. '75%%)" stroke="#ffffff"><title>bank %d word %d: lanes %s'
           .. '</title></rect>'):format(x0 + 1, y0, cw - 2, rh - 1, hue, b,
           e.word, esc(lane_list(e.lanes))))
      add(('<text x="%d" y="%d" text-anchor="middle" font-size="9">%s'
           .. '</text>'):format(x0 + cw // 2, y0 + 11, esc(label)))
    end
  end
  add(('<text x="%d" y="%d" fill="#444444">cells: distinct words, labelled '
       .. 'with their first lane (+: more lanes share it); a column\'s cells '
       .. 'take separate wavefronts</text>'):format(left, H - 14))
  add('</svg>')
  return table.concat(o, "\n") .. "\n"
end

return wl
