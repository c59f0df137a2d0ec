-- warplab/report.lua -- one self-contained HTML page that tells a test's
-- or a kernel's story: wl.report{...} (and `warplab report`).
--
-- Per litmus test: the verdict, the allowed final states (a table), the
-- sampled histogram as an SVG bar chart beside them, the witness graphs
-- of the states (Graphviz's dot, inline SVG; the DOT text when dot is
-- not installed), the why-not explanation when the condition's outcome
-- is forbidden, and the checker findings (errors, loop bounds, hung
-- runs).  Per kernel launch: occupancy, the per-line cost table and the
-- bank heatmaps of its shared-memory lines.  The page has no script and
-- loads nothing: it opens without a network.
--
-- Items: a .litmus file, a .lua script (run with explore, sample and
-- launch watched: every test it explores and every launch it makes goes
-- in, with what it prints), a warplab.Test, or a launch report.
local wl = ...
if type(wl) ~= "table" then wl = require "warplab" end

-- Text taken from a test (names, files, messages) is made valid UTF-8
-- whatever its bytes (wl._utf8_clean, check.lua), control characters
-- HTML does not allow become U+FFFD, then it is escaped.
local function esc(s)
  s = wl._utf8_clean(tostring(s)):gsub("[\0-\8\11\14-\31\127]",
                                       "\u{FFFD}")
  return (s:gsub("[&<>\"]", { ["&"] = "&amp;", ["<"] = "&lt;",
    [">"] = "&gt;", ['"'] = "&quot;" })) -- attributes are in "..."
end

-- An interrupt (SIGINT, SIGTERM: lsignal.c raises "interrupted by
-- SIGINT") caught by one of the report's pcalls ends the report: it is
-- raised again, never shown as one more error on the page.
local function pass_interrupt(err)
  if type(err) == "string" and err:find("interrupted by SIG%u+") then
    error(err, 0)
  end
  return err
end

-- ---------------------------------------------------------------- SVG

local has_dot
local function dot_installed()
  if has_dot == nil then
    has_dot = os.execute("command -v dot >/dev/null 2>&1") == true
  end
  return has_dot
end

-- wl.svg(dot_text) -> the SVG Graphviz's dot makes of it, or nil and a
-- message when dot is not installed or fails.
function wl.svg(text)
  if not dot_installed() then
    return nil, "Graphviz's dot is not installed (Debian: graphviz)"
  end
  local src, out = os.tmpname(), os.tmpname()
  local done, err = wl._write_file(src, text)
  if not done then
    os.remove(src)
    os.remove(out)
    return nil, err
  end
  local ok = os.execute(("dot -Tsvg %q -o %q 2>/dev/null"):format(src, out))
  local svg
  if ok then
    local f = io.open(out, "r")
    if f then svg = f:read("a"); f:close() end
  end
  os.remove(src)
  os.remove(out)
  if not svg or svg == "" then return nil, "dot failed on the graph" end
  return svg
end

-- An SVG document made inline: no XML prolog or doctype, a class.
local function inline_svg(svg, class)
  local s = svg:find("<svg", 1, true)
  if not s then return "" end
  svg = svg:sub(s)
  return (svg:gsub("^<svg", '<svg class="' .. class .. '"', 1))
end

local function graph_html(dot, caption)
  local svg, why = wl.svg(dot)
  local out = { '<figure class="graph">' }
  if svg then
    out[#out + 1] = inline_svg(svg, "wl-graph")
  else
    out[#out + 1] = '<p class="note">' .. esc(why) .. '; the DOT text:</p>'
    out[#out + 1] = '<pre class="dot wl-graph">' .. esc(dot) .. '</pre>'
  end
  out[#out + 1] = "<figcaption>" .. esc(caption) .. "</figcaption></figure>"
  return table.concat(out, "\n")
end

-- The histogram as a horizontal bar chart: one bar per outcome, the
-- condition's outcomes red, weak (non-SC) ones marked.
local function hist_svg(h, vars)
  local outs = {}
  for _, o in ipairs(h.outcomes) do outs[#outs + 1] = o end
  table.sort(outs, function(a, b) return a.count > b.count end)
  local max = 1
  for _, o in ipairs(outs) do if o.count > max then max = o.count end end
  local rowh, labw, barw = 22, 230, 260
  local hgt = 34 + rowh * #outs
  local s = { ('<svg class="wl-hist" xmlns="http://www.w3.org/2000/svg" ' ..
    'width="%d" height="%d" role="img" aria-label="histogram">'):format(
      labw + barw + 90, hgt) }
  s[#s + 1] = ('<text x="4" y="16" font-size="13" font-weight="bold">' ..
    '%d runs, seed %s</text>'):format(h.runs, tostring(h.seed))
  for i, o in ipairs(outs) do
    local y = 26 + (i - 1) * rowh
    local parts = {}
    for _, v in ipairs(vars) do
      if o[v] ~= nil then parts[#parts + 1] = v .. "=" .. tostring(o[v]) end
    end
    local w = math.max(1, math.floor(barw * o.count / max + 0.5))
    local color = o.sat and "#d62728" or (o.weak and "#ff7f0e" or "#7f7f7f")
    s[#s + 1] = ('<text x="%d" y="%d" font-size="11" text-anchor="end" ' ..
      'font-family="monospace">%s</text>'):format(labw - 4, y + 14,
      esc(table.concat(parts, " ")))
    s[#s + 1] = ('<rect class="bar" x="%d" y="%d" width="%d" height="%d" ' ..
      'fill="%s"><title>%d</title></rect>'):format(labw, y + 3, w,
      rowh - 6, color, o.count)
    s[#s + 1] = ('<text x="%d" y="%d" font-size="11">%d%s%s</text>'):format(
      labw + w + 4, y + 14, o.count, o.sat and " *" or "",
      o.weak and " weak" or "")
  end
  s[#s + 1] = "</svg>"
  return table.concat(s, "\n")
end

-- ---------------------------------------------------------------- tests

local function state_vars(states)
  local seen, vars = {}, {}
  for _, st in ipairs(states) do
    for k in pairs(st) do
      if type(k) == "string" and k ~= "sat" and k ~= "count" and
         not seen[k] then
        seen[k] = true
        vars[#vars + 1] = k
      end
    end
  end
  table.sort(vars, function(a, b)
    local ra, rb = a:find(":", 1, true), b:find(":", 1, true)
    if (ra ~= nil) ~= (rb ~= nil) then return ra ~= nil end
    return a < b
  end)
  return vars
end

local function same_values(st, o, vars)
  for _, v in ipairs(vars) do
    if o[v] ~= nil and o[v] ~= st[v] then return false end
  end
  return true
end

local function test_html(e, opts, n)
  local out = {}
  local r = e.result
  local id = "test-" .. n
  out[#out + 1] = ('<section class="test" id="%s">'):format(id)
  local verdict = r and (r.ok and "Ok" or "No") or "error"
  out[#out + 1] = ('<h3>%s <span class="verdict %s">%s</span></h3>'):format(
    esc(e.name), verdict == "Ok" and "ok" or "no", verdict)
  if e.origin then
    out[#out + 1] = '<p class="origin">' .. esc(e.origin) .. '</p>'
  end
  local findings = {}
  for _, f in ipairs(e.findings or {}) do findings[#findings + 1] = f end
  if r then
    local states = r.states
    local vars = state_vars(states)
    out[#out + 1] = '<div class="pair">'
    -- the allowed states
    local t = { '<table class="states"><caption>' .. #states ..
      ' allowed final state' .. (#states == 1 and "" or "s") ..
      '</caption><thead><tr><th>#</th>' }
    for _, v in ipairs(vars) do t[#t + 1] = "<th>" .. esc(v) .. "</th>" end
    t[#t + 1] = "<th>condition</th><th>executions</th>"
    if e.sample then t[#t + 1] = "<th>sampled</th>" end
    t[#t + 1] = "</tr></thead><tbody>"
    for i, st in ipairs(states) do
      t[#t + 1] = ('<tr class="%s"><td>%d</td>'):format(
        st.sat and "sat" or "", i)
      for _, v in ipairs(vars) do
        t[#t + 1] = "<td>" .. esc(tostring(st[v])) .. "</td>"
      end
      t[#t + 1] = ("<td>%s</td><td>%s</td>"):format(st.sat and "holds" or "",
        tostring(st.count or ""))
      if e.sample then
        local c = 0
        for _, o in ipairs(e.sample.outcomes) do
          if same_values(st, o, vars) then c = c + o.count end
        end
        t[#t + 1] = "<td>" .. c .. "</td>"
      end
      t[#t + 1] = "</tr>"
    end
    t[#t + 1] = "</tbody></table>"
    out[#out + 1] = table.concat(t)
    if e.sample then
      out[#out + 1] = '<figure class="chart">' .. hist_svg(e.sample, vars) ..
        '<figcaption>sampled on the simulator (' ..
        esc(e.sample.profile or "h100") .. ' profile)</figcaption></figure>'
      if (e.sample.hung or 0) > 0 then
        findings[#findings + 1] = e.sample.hung ..
          " sampled runs did not terminate (deadlock or out of steps)"
      end
    end
    out[#out + 1] = "</div>"
    if r.bound_hit then
      findings[#findings + 1] = "the loop unroll bound cut executions: " ..
        "outcomes needing more iterations are missing"
    end
    -- the explorer's data race and hang (r.race, r.hang: a table when
    -- one was found)
    local race = r.race
    if type(race) == "table" then
      local a, b = race[1], race[2]
      findings[#findings + 1] = ("data race on '%s': %s %s %s (line %s) " ..
        "and %s %s %s (line %s): not morally strong, not ordered by " ..
        "causality order"):format(race.location, a.name, a.kind == "W" and
        "writes" or "reads", tostring(a.value), tostring(a.line), b.name,
        b.kind == "W" and "writes" or "reads", tostring(b.value),
        tostring(b.line)) .. (race.fix and race.fix ~= "" and
        "; " .. race.fix or "")
    end
    local hang = r.hang
    if type(hang) == "table" then
      local reads = {}
      for _, rd in ipairs(hang.reads or {}) do
        reads[#reads + 1] = rd.location .. "=" .. tostring(rd.value)
      end
      findings[#findings + 1] = hang.kind == "spin" and
        ("possible hang: %s can spin forever at line %s, reading %s"):format(
          hang.name, tostring(hang.line), table.concat(reads, ", ")) or
        ("possible hang: %s can wait forever at the barrier of line %s"):format(
          hang.name, tostring(hang.line))
    end
    -- witness graphs: the condition's states first
    local order = {}
    for i, st in ipairs(states) do if st.sat then order[#order + 1] = i end end
    for i, st in ipairs(states) do
      if not st.sat then order[#order + 1] = i end
    end
    local ng = math.min(#order, opts.graphs)
    if ng > 0 then
      out[#out + 1] = '<div class="graphs"><h4>witness executions</h4>'
      for k = 1, ng do
        local i = order[k]
        local ok, dot = pcall(r.graph, r, i)
        pass_interrupt(dot)
        if ok then
          out[#out + 1] = graph_html(dot, ("state %d%s"):format(i,
            states[i].sat and " (the condition holds)" or ""))
        else
          findings[#findings + 1] = "graph: " .. tostring(dot)
          opts.problem(e.name, findings[#findings])
        end
      end
      out[#out + 1] = "</div>"
    end
    -- why not: the condition's outcome is not among the states
    local any = false
    for _, st in ipairs(states) do if st.sat then any = true end end
    if not any and opts.whynot then
      local ok, w = pcall(r.whynot, r, opts.model)
      pass_interrupt(w)
      if ok then
        out[#out + 1] = '<div class="whynot"><h4>why not: ' ..
          esc(w.check or w.status) .. '</h4><pre>' .. esc(w.text) .. '</pre>'
        if w.dot then
          out[#out + 1] = graph_html(w.dot, "closest candidate execution; " ..
            "forbidden by " .. (w.check or "?"))
        end
        out[#out + 1] = "</div>"
      else
        findings[#findings + 1] = "why-not: " .. tostring(w)
        opts.problem(e.name, findings[#findings])
      end
    end
  end
  if #findings > 0 then
    out[#out + 1] = '<div class="findings"><h4>checker findings</h4><ul>'
    for _, f in ipairs(findings) do
      out[#out + 1] = "<li>" .. esc(f) .. "</li>"
    end
    out[#out + 1] = "</ul></div>"
  end
  out[#out + 1] = "</section>"
  return table.concat(out, "\n")
end

-- ---------------------------------------------------------------- kernels

local cost_cols = {
  { "instructions", "smsp__inst_executed_op_shared_ld.sum",
    "smsp__inst_executed_op_shared_st.sum" },
  { "wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum" },
  { "conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum" },
  { "requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum" },
  { "sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum" },
  { "L1 hit", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum" },
  { "L2 hit", "lts__t_sectors_srcunit_tex_lookup_hit.sum" },
  { "L2 miss", "lts__t_sectors_srcunit_tex_lookup_miss.sum" },
  { "const req", "idc__requests.sum" },
}

local function colsum(c, counters)
  local v = 0
  for i = 2, #c do v = v + (counters[c[i]] or 0) end
  return v
end

local function kernel_html(e, n, opts)
  local r = e.report
  local out = { ('<section class="kernel" id="kernel-%d">'):format(n) }
  out[#out + 1] = "<h3>" .. esc(e.name) .. "</h3>"
  if r.findings and #r.findings > 0 then -- the checkers (check = true)
    out[#out + 1] = '<div class="findings"><h4>checker findings</h4><ul>'
    for _, f in ipairs(r.findings) do
      out[#out + 1] = "<li>" .. esc(f.message) ..
        (f.count > 1 and (" (seen %d times)"):format(f.count) or "") ..
        "</li>"
    end
    out[#out + 1] = "</ul></div>"
  end
  local o = r.occupancy or {}
  out[#out + 1] = '<table class="occupancy"><caption>occupancy</caption>' ..
    "<tbody>"
  for _, k in ipairs { "blocks_per_sm", "limited_by", "warps_per_sm",
                       "occupancy", "by_threads", "by_warps", "by_blocks",
                       "by_regs", "by_shared", "shared_per_block",
                       "shared_per_sm" } do
    if o[k] ~= nil then
      local v = o[k]
      if k == "occupancy" then v = ("%.0f%%"):format(v * 100) end
      out[#out + 1] = ("<tr><th>%s</th><td>%s</td></tr>"):format(esc(k),
        esc(tostring(v)))
    end
  end
  out[#out + 1] = "</tbody></table>"
  local used = {}
  for _, c in ipairs(cost_cols) do
    if colsum(c, r.counters or {}) > 0 then used[#used + 1] = c end
  end
  local t = { '<table class="costs"><caption>cost per source line' ..
    '</caption><thead><tr><th>line</th><th>space</th><th>op</th>' ..
    '<th>bytes</th>' }
  for _, c in ipairs(used) do t[#t + 1] = "<th>" .. esc(c[1]) .. "</th>" end
  t[#t + 1] = "</tr></thead><tbody>"
  local sites = {}
  for _, s in ipairs(r.sites or {}) do sites[#sites + 1] = s end
  table.sort(sites, function(a, b)
    if a.line ~= b.line then return a.line < b.line end
    if a.space ~= b.space then return a.space < b.space end
    return a.op < b.op
  end)
  for _, s in ipairs(sites) do
    t[#t + 1] = ("<tr><td>%d</td><td>%s</td><td>%s</td><td>%d</td>"):format(
      s.line, esc(s.space), esc(s.op), s.width)
    for _, c in ipairs(used) do
      t[#t + 1] = "<td>" .. colsum(c, s.counters) .. "</td>"
    end
    t[#t + 1] = "</tr>"
  end
  t[#t + 1] = '<tr class="total"><td>all</td><td></td><td></td><td></td>'
  for _, c in ipairs(used) do
    t[#t + 1] = "<td>" .. colsum(c, r.counters or {}) .. "</td>"
  end
  t[#t + 1] = "</tr></tbody></table>"
  out[#out + 1] = table.concat(t)
  local maps = {}
  for _, s in ipairs(sites) do
    if s.worst_access and #maps < opts.heatmaps then
      local ok, svg = pcall(wl.heatmap_svg, s.worst_access,
        { title = ("line %d %s (costliest request)"):format(s.line, s.op) })
      if ok then
        maps[#maps + 1] = '<figure class="heatmap">' ..
          inline_svg(svg, "wl-heatmap") .. "</figure>"
      end
    end
  end
  if #maps > 0 then
    out[#out + 1] = '<div class="heatmaps"><h4>bank heatmaps</h4>' ..
      table.concat(maps, "\n") .. "</div>"
  end
  out[#out + 1] = "</section>"
  return table.concat(out, "\n")
end

-- ---------------------------------------------------------------- capture

-- Runs fn with explore, sample and launch watched; returns the entries
-- (in order) and what the script printed.
local function watched(fn, opts)
  local entries, printed = {}, {}
  local tmeta = debug.getregistry()["warplab.Test"]
  local tm = tmeta and tmeta.__index
  if type(tm) == "function" then
    -- the methods table is the upvalue of the C __index (lwarplab.c)
    local _, up = debug.getupvalue(tm, 1)
    tm = up
  end
  local dm = wl._device_methods
  local old_explore, old_sample = tm.explore, tm.sample
  local old_launch, old_print = dm.launch, print
  local by_test = {}
  tm.explore = function(t, ...)
    local ok, r = pcall(old_explore, t, ...)
    local e = { kind = "test", test = t, name = t.name }
    if ok then
      e.result = r
      by_test[t] = e
    else
      e.findings = { tostring(r) }
    end
    if #entries < opts.max_entries then entries[#entries + 1] = e end
    if not ok then error(r, 0) end
    return r
  end
  tm.sample = function(t, ...)
    local h = old_sample(t, ...)
    local e = by_test[t]
    if e and not e.sample then e.sample = h end
    return h
  end
  local nkernels = 0
  dm.launch = function(dev, k, cfg, ...)
    local r = old_launch(dev, k, cfg, ...)
    nkernels = nkernels + 1
    if #entries < opts.max_entries and nkernels <= opts.kernels then
      local info = debug.getinfo(2, "Sl")
      entries[#entries + 1] = { kind = "kernel", report = r,
        name = ("launch %s at %s:%d"):format(
          type(k) == "table" and (k.name or "kernel") or "kernel",
          info and info.short_src or "?", info and info.currentline or 0) }
    end
    return r
  end
  print = function(...)
    local p = table.pack(...)
    for i = 1, p.n do p[i] = tostring(p[i]) end
    printed[#printed + 1] = table.concat(p, "\t", 1, p.n)
  end
  -- os.exit would end the report with no page: while the script runs
  -- it raises an error the report recognises instead.  os.exit(),
  -- os.exit(0) and os.exit(true) end the script as a success; another
  -- status is the script's failure.
  local old_exit, exit_mark = os.exit, {}
  os.exit = function(code)
    error(setmetatable({ code = code == nil and true or code }, exit_mark),
          0)
  end
  exit_mark.__tostring = function(x)
    return ("the script called os.exit(%s)"):format(tostring(x.code))
  end
  local ok, err = pcall(fn)
  tm.explore, tm.sample, dm.launch, print = old_explore, old_sample,
    old_launch, old_print
  os.exit = old_exit
  if not ok and getmetatable(err) == exit_mark then
    ok = err.code == true or err.code == 0
    err = tostring(err)
  end
  pass_interrupt(err)
  return entries, table.concat(printed, "\n"), ok, err
end

-- ---------------------------------------------------------------- page

local css = [[
body{font-family:Helvetica,Arial,sans-serif;margin:24px;color:#222;
max-width:1400px}
h1{font-size:22px}h2{border-bottom:2px solid #ddd;padding-bottom:4px}
section.test,section.kernel{border:1px solid #ddd;border-radius:6px;
padding:8px 14px;margin:14px 0;background:#fff}
.verdict{font-size:12px;padding:2px 8px;border-radius:9px;color:#fff}
.verdict.ok{background:#2ca02c}.verdict.no{background:#7f7f7f}
.pair{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}
table{border-collapse:collapse;font-size:12px;margin:6px 0}
th,td{border:1px solid #ccc;padding:2px 8px;text-align:right}
caption{font-weight:bold;text-align:left;padding:3px 0}
tr.sat td{background:#fde0e0}tr.total td{font-weight:bold}
figure{margin:6px 0;display:inline-block;vertical-align:top}
figcaption{font-size:11px;color:#555}
.graphs figure{margin-right:18px}
svg.wl-graph{max-width:100%;height:auto}
pre{background:#f6f6f6;padding:8px;overflow:auto;font-size:12px}
.findings li{color:#a00}.note{color:#a60}.origin{color:#666;font-size:12px}
nav ul{columns:3;font-size:13px}
]]

local function page(title, body, toc)
  return table.concat {
    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
    "<title>", esc(title), "</title><style>", css, "</style></head><body>",
    "<h1>", esc(title), "</h1>",
    "<nav><ul>", table.concat(toc), "</ul></nav>",
    table.concat(body, "\n"),
    "\n<footer><p class=\"origin\">made by warplab ", esc(wl.version or ""),
    "</p></footer></body></html>\n" }
end

-- The options of a report (spec's fields with their defaults), and its
-- list of problems: each "ITEM: message", added by opts.problem.
local function report_opts(spec)
  local opts = {
    runs = spec.runs or 1000, seed = spec.seed or 1,
    graphs = spec.graphs or 4, whynot = spec.whynot ~= false,
    model = spec.model, max_entries = spec.max_entries or 200,
    kernels = spec.kernels or 6, heatmaps = spec.heatmaps or 3,
  }
  -- what went wrong (a file that does not parse, a model that cannot be
  -- read, a script that fails, a graph or a sampling that fails): shown
  -- on the page and returned, one "ITEM: message" each
  local problems = {}
  opts.problem = function(where, msg)
    msg = tostring(msg)
    if where and msg:sub(1, #where + 1) ~= where .. ":" then
      msg = where .. ": " .. msg
    end
    problems[#problems + 1] = msg
  end
  return opts, problems
end

-- The page's entries so far: body and toc pieces, and n, the number of
-- the last entry (anchors test-N, kernel-N).
local function add_entries(st, entries, opts)
  for _, e in ipairs(entries) do
    st.n = st.n + 1
    local n = st.n
    if e.kind == "test" then
      if not e.sample and e.result and opts.runs > 0 and e.test then
        local ok, h = pcall(e.test.sample, e.test,
          { n = opts.runs, seed = opts.seed })
        pass_interrupt(h)
        if ok then e.sample = h
        else
          e.findings = e.findings or {}
          e.findings[#e.findings + 1] = "sample: " .. tostring(h)
          opts.problem(e.name, e.findings[#e.findings])
        end
      end
      st.body[#st.body + 1] = test_html(e, opts, n)
      st.toc[#st.toc + 1] = ('<li><a href="#test-%d">%s</a></li>'):format(n,
        esc(e.name))
    else
      st.body[#st.body + 1] = kernel_html(e, n, opts)
      st.toc[#st.toc + 1] = ('<li><a href="#kernel-%d">%s</a></li>'):format(
        n, esc(e.name))
    end
  end
end

-- A .litmus file's part of the page: its heading and its one entry.
local function litmus_item(st, item, opts)
  st.body[#st.body + 1] = "<h2>" .. esc(item) .. "</h2>"
  local ok, t = pcall(wl.load, item)
  pass_interrupt(t)
  local e = { kind = "test", name = item, origin = item }
  if ok then
    e.test, e.name = t, t.name
    local ok2, r = pcall(t.explore, t,
      opts.model and { model = opts.model } or nil)
    pass_interrupt(r)
    if ok2 then e.result = r else
      e.findings = { tostring(r) }
      opts.problem(item, tostring(r))
    end
  else
    e.findings = { tostring(t) }
    opts.problem(nil, tostring(t))
  end
  add_entries(st, { e }, opts)
end

-- wl._report_file(path, spec, n) -> the body and toc text of .litmus
-- file path as entry n of a report with spec's options, and its problems
-- (a list): what wl.report makes of the file, made apart so that
-- `warplab report --jobs` builds each file's part in a Lua state of its
-- own on the pool (bindings/cmd_report.c) and wl._report_page puts the
-- parts together: the page is the one wl.report makes.
function wl._report_file(path, spec, n)
  local opts, problems = report_opts(spec)
  local st = { body = {}, toc = {}, n = n - 1 }
  litmus_item(st, path, opts)
  return table.concat(st.body, "\n"), table.concat(st.toc), problems
end

-- wl._report_page(spec, bodies, tocs) -> the page of the parts made by
-- wl._report_file, in order, written to spec.output when given (as
-- wl.report writes it).
function wl._report_page(spec, bodies, tocs)
  local html = page(spec.title or "warplab report", bodies, tocs)
  if spec.output then -- whole or not at all (lfile.c)
    local ok, err = wl._write_file(spec.output, html)
    if not ok then error("wl.report: " .. err, 2) end
  end
  return html
end

-- wl.report{items..., output = "report.html", title =, runs = 1000,
-- seed = 1, graphs = 4, whynot = true, model =, max_entries = 200,
-- kernels = 6 (launches kept per script), heatmaps = 3 (per launch)}
-- -> the HTML text (also written to output when given, whole or not at
-- all: an error says why), and the list of problems (a file that does
-- not parse, a model that cannot be read, a script that fails or calls
-- os.exit with a failure status, a failed graph or sampling), each
-- "ITEM: message", also shown on the page.  A script's os.exit ends the
-- script, not the report.  SIGINT and SIGTERM end the report (raised).
function wl.report(spec)
  if type(spec) ~= "table" then
    error("wl.report{FILE or test..., output = PATH}: a table expected", 2)
  end
  local opts, problems = report_opts(spec)
  local title = spec.title or "warplab report"
  local st = { body = {}, toc = {}, n = 0 }
  local body, toc = st.body, st.toc
  for i, item in ipairs(spec) do
    if type(item) == "string" and item:match("%.lua$") then
      local chunk, lerr = loadfile(item)
      body[#body + 1] = "<h2>" .. esc(item) .. "</h2>"
      if not chunk then
        body[#body + 1] = '<div class="findings"><ul><li>' .. esc(lerr) ..
          "</li></ul></div>"
        opts.problem(nil, lerr)
      else
        local entries, printed, ok, err = watched(chunk, opts)
        if printed ~= "" then
          body[#body + 1] = '<details class="output"><summary>what the ' ..
            'script printed</summary><pre>' .. esc(printed) ..
            '</pre></details>'
        end
        if not ok then
          body[#body + 1] = '<div class="findings"><h4>checker findings' ..
            '</h4><ul><li>' .. esc(tostring(err)) .. "</li></ul></div>"
          opts.problem(item, tostring(err))
        elseif err ~= nil then -- os.exit(0): noted, not an error
          body[#body + 1] = '<p class="note">' .. esc(err) .. "</p>"
        end
        add_entries(st, entries, opts)
      end
    elseif type(item) == "string" then
      litmus_item(st, item, opts)
    elseif type(item) == "userdata" and item.explore then
      add_entries(st, { { kind = "test", test = item, name = item.name,
                          result = item:explore() } }, opts)
    elseif type(item) == "table" and item.sites and item.occupancy then
      add_entries(st, { { kind = "kernel", report = item,
                          name = "launch " .. i } }, opts)
    else
      error(("wl.report: item %d is not a file, a test or a launch " ..
             "report"):format(i), 2)
    end
  end
  local html = page(title, body, toc)
  if spec.output then -- whole or not at all (lfile.c)
    local ok, err = wl._write_file(spec.output, html)
    if not ok then error("wl.report: " .. err, 2) end
  end
  return html, problems
end
