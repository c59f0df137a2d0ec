-- shape_kernels.lua -- the instrument of issue 21 item 2: the litmus
-- shapes of tests/hw/shapes written as kernels on the simulated device,
-- against `warplab sample` on their .litmus form.
--
-- For a .litmus file of volatile accesses and fences (st.volatile LOC, V;
-- ld.volatile REG, LOC; fence.sc.cta; fence.sc.gpu), M.parse reads its
-- threads, their placement and its condition, and M.kernel builds the
-- same program as a per-thread kernel (wl.kernel: c:volatile_store,
-- c:volatile_load, c:threadfence_block / c:threadfence) or a warp-vector
-- kernel (wl.warp_kernel: w:volatile_store ..., lane 0 of the role's
-- warp).  Placement, as the hardware harness (`warplab cuda`) places
-- roles:
--   each thread its own CTA (diffCTA): one block per CTA, blocks land on
--     SMs round-robin, so each on its own SM of the 132;
--   threads of one CTA (sameCTA): one block, each role in its own warp,
--     lane 0 playing it (lanes 1..31 exit at once);
--   CTAs on one SM ("sm 0" for each: sameSM): the same blocks on a
--     device of one SM, where the occupancy puts every block.
-- Each location is a device array of one int32, reset to its initial
-- value before each launch; each role writes its registers to an out
-- array (plain stores, as the harness does) after its last instruction.
-- M.run_kernel counts the final outcomes over launches seeded 1..R (by
-- default) as the sampler keys them (its `variables`: registers "1:r0"
-- and final memory "x"), M.run_sampler samples the .litmus form, and
-- M.compare judges the pair: the condition's rate within 3x (or both
-- zero), and the same outcomes seen (one seen at least `few` times on a
-- side must be seen on the other).
local wl = require "warplab"

local M = {}

local function trim(s) return (s:gsub("^%s+", ""):gsub("%s+$", "")) end

-- ------------------------------------------------------------------
-- reading the .litmus form
-- ------------------------------------------------------------------

-- One instruction: {k = "st", loc, v} | {k = "ld", reg, loc} |
-- {k = "fence", scope}.
local function instr(text, where)
  local loc, v = text:match("^st%.volatile%s+([%a_][%w_]*)%s*,%s*(%-?%d+)$")
  if loc then return { k = "st", loc = loc, v = tonumber(v) } end
  local reg
  reg, loc = text:match("^ld%.volatile%s+([%a_][%w_]*)%s*,%s*([%a_][%w_]*)$")
  if reg then return { k = "ld", reg = reg, loc = loc } end
  local scope = text:match("^fence%.sc%.(%a+)$")
  if scope == "cta" or scope == "gpu" then
    return { k = "fence", scope = scope }
  end
  error(("%s: '%s': the shape instrument knows st.volatile, ld.volatile, "
         .. "fence.sc.cta and fence.sc.gpu"):format(where, text), 0)
end

-- The test of file `path`: {name, init = {loc = v}, locs = {names in
-- order}, threads = {{ops, regs, cta, sm}}, cond = {{name, value}},
-- cond_text, shape, fence, place}.
function M.parse(path)
  local f = assert(io.open(path, "r"))
  local text = f:read("a")
  f:close()
  local t = { path = path, init = {}, locs = {}, threads = {}, cond = {} }
  t.name = assert(text:match("^%s*PTX%s+(%S+)"), path .. ": no PTX header")
  t.shape, t.fence, t.place = t.name:match("^(.+)%+([^+]+)%+(%a+)$")
  local init = assert(text:match("{(.-)}"), path .. ": no initial state")
  for loc, v in init:gmatch("([%a_][%w_]*)%s*=%s*(%-?%d+)") do
    t.init[loc] = tonumber(v)
    t.locs[#t.locs + 1] = loc
  end
  local body = text:sub(select(2, text:find("}", 1, true)) + 1)
  local rows = {}
  for line in body:gmatch("[^\n]+") do
    if line:find("^%s*exists") then
      t.cond_text = trim(line:match("exists%s*(.*)$"))
      break
    end
    if line:find("|", 1, true) or line:find(";%s*$") then
      local cols = {}
      local l = line:gsub(";%s*$", "")
      for c in (l .. "|"):gmatch("(.-)|") do cols[#cols + 1] = trim(c) end
      rows[#rows + 1] = cols
    end
  end
  assert(t.cond_text, path .. ": no exists clause")
  for term in t.cond_text:gsub("^%(", ""):gsub("%)$", ""):gmatch("[^/\\]+") do
    local name, v = trim(term):match("^([%w_:]+)%s*=%s*(%-?%d+)$")
    assert(name, path .. ": the condition is not a conjunction of X=V: "
           .. t.cond_text)
    t.cond[#t.cond + 1] = { name = name, value = tonumber(v) }
  end
  local head = table.remove(rows, 1)
  for i, h in ipairs(head) do
    local p, at = h:match("^P(%d+)@(.*)$")
    assert(tonumber(p) == i - 1, path .. ": thread header " .. h)
    local th = { ops = {}, regs = {}, id = i - 1 }
    th.cta = tonumber(at:match("cta%s*(%d+)"))
    th.sm = tonumber(at:match("sm%s*(%d+)"))
    assert(th.cta, path .. ": no cta for P" .. (i - 1))
    t.threads[i] = th
  end
  for r, cols in ipairs(rows) do
    for i, c in ipairs(cols) do
      if c ~= "" then
        local th = assert(t.threads[i], path .. ": a column past the threads")
        local op = instr(c, ("%s: row %d, P%d"):format(path, r, i - 1))
        th.ops[#th.ops + 1] = op
        if op.k == "ld" then
          local seen = false
          for _, g in ipairs(th.regs) do seen = seen or g == op.reg end
          if not seen then th.regs[#th.regs + 1] = op.reg end
        end
      end
    end
  end
  M.place(t)
  return t
end

-- The launch geometry of t: t.blocks (CTA numbers in order of first
-- appearance), each thread's block index and warp, t.block_threads,
-- t.same_sm (every thread names one SM and there are several CTAs).
function M.place(t)
  local block_of, nwarps = {}, {}
  t.nblocks = 0
  local sm
  t.same_sm = true
  for _, th in ipairs(t.threads) do
    if block_of[th.cta] == nil then
      block_of[th.cta] = t.nblocks
      nwarps[t.nblocks] = 0
      t.nblocks = t.nblocks + 1
    end
    th.block = block_of[th.cta]
    th.warp = nwarps[th.block]
    nwarps[th.block] = th.warp + 1
    if th.sm == nil or (sm ~= nil and th.sm ~= sm) then t.same_sm = false end
    sm = th.sm or sm
  end
  t.same_sm = t.same_sm and t.nblocks > 1
  local most = 0
  for b = 0, t.nblocks - 1 do most = math.max(most, nwarps[b]) end
  -- one role per block: a block of one thread; else a warp per role
  t.block_threads = most == 1 and 1 or 32 * most
  t.role_at = {}
  for _, th in ipairs(t.threads) do
    t.role_at[th.block * t.block_threads + th.warp * 32] = th
  end
  t.nregs = 0
  for _, th in ipairs(t.threads) do t.nregs = math.max(t.nregs, #th.regs) end
end

-- Whether outcome `vals` (name -> value) satisfies t's condition.
function M.sat(t, vals)
  for _, c in ipairs(t.cond) do
    if vals[c.name] ~= c.value then return false end
  end
  return true
end

-- ------------------------------------------------------------------
-- the kernels
-- ------------------------------------------------------------------

-- The device a test's placement needs (one per kind, made once).
local devices = {}
function M.device(t)
  local key = t.same_sm and "sm1" or "sm_90"
  if devices[key] == nil then
    devices[key] = t.same_sm and wl.device { preset = "sm_90", sms = 1 }
                   or wl.device "sm_90"
  end
  return devices[key]
end

-- The per-thread kernel of t: fn(c, O, loc1, loc2, ...).
local function per_thread(t)
  local role_at, locs, bt, nregs = t.role_at, t.locs, t.block_threads, t.nregs
  return wl.kernel(function(c, O, ...)
    local th = role_at[c.blockIdx.x * bt + c.threadIdx.x]
    if th == nil then return end
    local A, regs = {}, {}
    for i, name in ipairs(locs) do A[name] = select(i, ...) end
    for _, op in ipairs(th.ops) do
      if op.k == "st" then
        c:volatile_store(A[op.loc], 0, op.v)
      elseif op.k == "ld" then
        regs[op.reg] = c:volatile_load(A[op.loc], 0)
      elseif op.scope == "cta" then
        c:threadfence_block()
      else
        c:threadfence()
      end
    end
    for i, r in ipairs(th.regs) do O[th.id * nregs + i - 1] = regs[r] end
  end, { name = t.name .. " (per-thread)" })
end

-- The warp-vector kernel of t: lane 0 of the role's warp plays it.
local function warp_vector(t)
  local role_at, locs, bt, nregs = t.role_at, t.locs, t.block_threads, t.nregs
  return wl.warp_kernel(function(w, O, ...)
    local th = role_at[w.blockIdx.x * bt + w.warp * 32]
    if th == nil then return end
    local A = {}
    for i, name in ipairs(locs) do A[name] = select(i, ...) end
    w:where(w.lane:eq(0), function()
      local regs = {}
      for _, op in ipairs(th.ops) do
        if op.k == "st" then
          w:volatile_store(A[op.loc], 0, op.v)
        elseif op.k == "ld" then
          regs[op.reg] = w:volatile_load(A[op.loc], 0)
        elseif op.scope == "cta" then
          w:threadfence_block()
        else
          w:threadfence()
        end
      end
      for i, r in ipairs(th.regs) do O[th.id * nregs + i - 1] = regs[r] end
    end)
  end, { name = t.name .. " (warp-vector)" })
end

M.styles = { "thread", "warp" }

function M.kernel(t, style)
  if style == "thread" then return per_thread(t) end
  if style == "warp" then return warp_vector(t) end
  error("style: thread or warp expected, got " .. tostring(style), 2)
end

-- The outcome key of vals over the variables vars: "1:r0=1 1:r1=0 x=1".
function M.key(vars, vals)
  local p = {}
  for i, v in ipairs(vars) do p[i] = v .. "=" .. tostring(vals[v]) end
  return table.concat(p, " ")
end

-- The variables of t as the sampler names them (registers "T:r", then
-- locations), when no sample is at hand.
function M.variables(t)
  local v = {}
  for _, th in ipairs(t.threads) do
    for _, r in ipairs(th.regs) do v[#v + 1] = th.id .. ":" .. r end
  end
  for _, l in ipairs(t.locs) do v[#v + 1] = l end
  return v
end

-- Runs t's kernel of `style` R times (launch seeds seed0 .. seed0+R-1,
-- profile h100 unless opts.profile; opts.launch: more launch options)
-- -> {counts = {key -> n}, sat = {key -> bool}, runs = R, weak = n}.
function M.run_kernel(t, style, R, vars, opts)
  opts = opts or {}
  local dev = M.device(t)
  local k = M.kernel(t, style)
  local O = dev:malloc("int32", #t.threads * math.max(t.nregs, 1), "out")
  local arrs = {}
  for i, name in ipairs(t.locs) do arrs[i] = dev:malloc("int32", 1, name) end
  local cfg = { grid = t.nblocks, block = t.block_threads,
                profile = opts.profile or "h100" }
  for key, v in pairs(opts.launch or {}) do cfg[key] = v end
  local res = { counts = {}, sat = {}, runs = R, weak = 0 }
  local seed0 = opts.seed or 1
  local vals = {}
  for i = 0, R - 1 do
    O:write(0)
    for j, name in ipairs(t.locs) do arrs[j]:write(t.init[name]) end
    cfg.seed = seed0 + i
    local r = dev:launch(k, cfg, O, table.unpack(arrs))
    if i == 0 and t.same_sm and r.occupancy.blocks_per_sm < t.nblocks then
      error(t.name .. ": one SM cannot hold every block at once", 0)
    end
    local o = O:read()
    for _, th in ipairs(t.threads) do
      for j, reg in ipairs(th.regs) do
        vals[th.id .. ":" .. reg] = o[th.id * t.nregs + j]
      end
    end
    for j, name in ipairs(t.locs) do vals[name] = arrs[j]:read()[1] end
    local key = M.key(vars, vals)
    res.counts[key] = (res.counts[key] or 0) + 1
    if res.sat[key] == nil then res.sat[key] = M.sat(t, vals) end
    if res.sat[key] then res.weak = res.weak + 1 end
  end
  dev:free(O)
  for _, a in ipairs(arrs) do dev:free(a) end
  return res
end

-- Samples t's .litmus form: n runs, seed, profile h100, one worker ->
-- the same shape as run_kernel's, plus vars (the sampler's variables).
-- exact = false: every run step by step (not drawn from the exact law).
function M.run_sampler(t, R, seed, profile, exact)
  local s = wl.load(t.path):sample { n = R, seed = seed or 1,
                                     profile = profile or "h100", jobs = 1,
                                     exact = exact ~= false }
  local res = { counts = {}, sat = {}, runs = s.runs, weak = 0,
                vars = s.variables }
  for _, o in ipairs(s.outcomes) do
    local key = M.key(s.variables, o.values)
    res.counts[key] = (res.counts[key] or 0) + o.count
    res.sat[key] = o.sat
    if o.sat then res.weak = res.weak + o.count end
  end
  return res
end

-- The judgement of kernel result k against sampler result s (same
-- number of runs): {rate_ok, set_ok, ratio, missing = {lines}, agree}.
-- rate: both counts of the condition zero, or their ratio within 3x;
-- outcomes: each seen >= few times (default 5) on one side is seen on
-- the other.
function M.compare(s, k, few)
  few = few or 5
  local v = { missing = {} }
  local rs, rk = s.weak / s.runs, k.weak / k.runs
  if s.weak == 0 and k.weak == 0 then
    v.rate_ok = true
  elseif s.weak == 0 or k.weak == 0 then
    v.rate_ok = false
    v.ratio = s.weak == 0 and math.huge or 0
  else
    v.ratio = rk / rs
    v.rate_ok = v.ratio <= 3 and v.ratio >= 1 / 3
  end
  local function absent(a, b, side)
    local keys = {}
    for key in pairs(a.counts) do keys[#keys + 1] = key end
    table.sort(keys)
    for _, key in ipairs(keys) do
      local n = a.counts[key]
      if n >= few * a.runs / b.runs and (b.counts[key] or 0) == 0 then
        v.missing[#v.missing + 1] = ("%s %d times, only by the %s"):format(
          key, n, side)
      end
    end
  end
  absent(s, k, "sampler")
  absent(k, s, "kernel")
  v.set_ok = #v.missing == 0
  v.agree = v.rate_ok and v.set_ok
  return v
end

-- The .litmus files of the nine shapes, each fence (none, fence.sc.cta,
-- fence.sc.gpu) and placement (diffCTA, sameCTA, sameSM) in dir, sorted.
M.shapes = { "MP", "SB", "LB", "2+2W", "S", "R", "WRC", "IRIW", "CoRR" }
function M.files(dir)
  local out = {}
  local fences = { none = 1, ["fence.sc.cta"] = 2, ["fence.sc.gpu"] = 3 }
  local places = { diffCTA = 1, sameCTA = 2, sameSM = 3 }
  for si, shape in ipairs(M.shapes) do
    for fence, fi in pairs(fences) do
      for place, pi in pairs(places) do
        local path = ("%s/%s+%s+%s.litmus"):format(dir, shape, fence, place)
        local f = io.open(path, "r")
        if f then
          f:close()
          out[#out + 1] = { path = path, order = si * 100 + fi * 10 + pi }
        end
      end
    end
  end
  table.sort(out, function(a, b) return a.order < b.order end)
  for i, e in ipairs(out) do out[i] = e.path end
  return out
end

return M
