-- kernel_split.lua [SHARED [COUNT [SEED]]] -- dev:launch{jobs=}: a
-- launch's blocks in parts across cores (bindings/lksplit.c,
-- engine/sim/split.c).
--
-- The property, on generated kernels whose blocks sometimes communicate
-- (a counter every block increments, reads of another block's cells)
-- and sometimes do not (own cells, __syncthreads between neighbours,
-- read-only inputs, a cell of its own in a second array):
--   * jobs = 1, 2 and 4 give the same memory and the same report
--     (counters, steps, sites, findings, how the parts joined);
--   * the memory is the launch's without jobs: parts whose blocks did
--     not communicate compute what the whole launch computes (each
--     block's cells depend on its own block alone), and parts that did
--     are run whole -- then the report is the whole launch's too.
--   * a launch that fails without jobs (a block out of bounds, steps
--     past max_steps) fails with the same message, and leaves the same
--     memory, with any jobs: the parts' failures and their steps run
--     the launch whole.
-- tests/cli/launch_split.sh runs this with a warplab whose parts always
-- join (WL_MUTANT_SPLITJOIN), which must fail it.
local wl = require "warplab"
-- launches that give no jobs run whole, even under warplab run --jobs N
-- (they are the reference)
wl.set_launch_jobs(nil)
local COUNT = tonumber(arg[2]) or 40
local SEED = tonumber(arg[3]) or 1

local failures = 0
local function fail(fmt, ...)
  failures = failures + 1
  print("FAIL " .. fmt:format(...))
end

-- a small deterministic generator (xorshift)
local state = SEED * 2654435761 % 4294967296 + 1
local function rnd(n)
  state = state ~ (state << 13) & 0xffffffff
  state = state ~ (state >> 17)
  state = state ~ (state << 5) & 0xffffffff
  return state % n
end

-- the kernel interprets its steps (a plain table: it crosses to the
-- workers as it is, and is never changed)
local function make_kernel(steps, G, T, fb, SP)
  return wl.kernel(function(c, A, B, In)
    local b, t = c.blockIdx.x, c.threadIdx.x
    local acc = b * 7 + t
    for _, s in ipairs(steps) do
      if s == "own" then
        A[(b * T + t) * SP] = acc
      elseif s == "neighbour" then
        c:syncthreads()
        acc = acc + A[(b * T + (t + 1) % T) * SP]
        c:syncthreads()
        A[(b * T + t) * SP] = acc
      elseif s == "cross" then
        acc = acc + A[(((b + 1) % G) * T + t) * SP]
      elseif s == "counter" then
        acc = acc + c:atomicAdd(A, G * T * SP, 1) * 0
      elseif s == "input" then
        acc = acc + In[(b + t) % 8]
      elseif s == "cell" then
        if t == 0 then B[b] = acc end
      elseif s == "fault" then -- block fb writes past A's end
        if b == fb then A[(G * T + 1 + t) * SP] = acc end
      end
    end
  end)
end

local kinds = { "own", "own", "neighbour", "cross", "counter", "input",
                "cell", "own", "neighbour", "cross", "counter", "input",
                "cell", "fault" }

-- the report as text: what must be the same for any jobs
-- (sorted: its sites and findings in sorted order, for a sum of parts
-- whose order is another)
local function report_text(r, sorted)
  local out = { ("steps=%d"):format(r.steps) }
  local keys = {}
  for k in pairs(r.counters) do keys[#keys + 1] = k end
  table.sort(keys)
  for _, k in ipairs(keys) do out[#out + 1] = k .. "=" .. r.counters[k] end
  local rest = {}
  for _, s in ipairs(r.sites) do
    local c = {}
    for _, k in ipairs(keys) do c[#c + 1] = s.counters[k] or 0 end
    rest[#rest + 1] = ("site %d %s %s %d: %s"):format(s.line, s.space, s.op,
                                                      s.width,
                                                      table.concat(c, ","))
  end
  for _, f in ipairs(r.findings or {}) do
    rest[#rest + 1] = ("finding %s %d"):format(f.kind, f.count)
  end
  if sorted then table.sort(rest) end
  for _, line in ipairs(rest) do out[#out + 1] = line end
  if r.split then
    out[#out + 1] = ("split parts=%d joined=%s why=%s"):format(
      r.split.parts, tostring(r.split.joined), tostring(r.split.why))
  end
  return table.concat(out, "\n")
end

-- a fresh device with the kernels' arrays (the L2 a launch leaves is
-- the next one's)
local memtext
local function fresh(G, T, SP)
  -- (2 or 3 SMs when cells are apart: parts of several blocks, with
  -- other parts' cells between theirs)
  local dev = wl.device { preset = "sm_90",
                          sms = SP == 1 and 132 or 2 + SP % 2 }
  local A = dev:malloc("int32", (G * T + 1) * SP, "A")
  local B = dev:malloc("int32", G, "B")
  local In = dev:malloc("int32", 8, "In")
  In:write { 1, 2, 3, 4, 5, 6, 7, 8 }
  A:write(0)
  B:write(0)
  return dev, A, B, In
end

-- A's cells, the ones the kernels touch (every SP-th)
memtext = function(A, G, T, SP)
  if SP == 1 then return table.concat(A:read(), ",") end
  local out = {}
  for i = 0, G * T do out[#out + 1] = A:read(i * SP, 1)[1] end
  return table.concat(out, ",")
end

-- a launch on a fresh device
local function run(G, T, k, cfg, SP)
  local dev, A, B, In = fresh(G, T, SP)
  local ok, r = pcall(dev.launch, dev, k, cfg, A, B, In)
  return memtext(A, G, T, SP) .. " | " .. table.concat(B:read(), ","),
         r, ok
end

-- the parts of a launch one after the other on one fresh device, with
-- their reports summed as a join sums them: the report's text and the
-- memory
local function sequential(G, T, k, cfg, parts, SP)
  local dev, A, B, In = fresh(G, T, SP)
  local sum = { steps = 0, counters = {}, sites = {}, findings = {} }
  local sites, finds = {}, {}
  for part = 0, tonumber(parts) - 1 do
    local c = {}
    for key, v in pairs(cfg) do c[key] = v end
    c._part, c._parts = part, tonumber(parts)
    local r = dev:launch(k, c, A, B, In)
    sum.steps = sum.steps + r.steps
    for key, v in pairs(r.counters) do
      sum.counters[key] = (sum.counters[key] or 0) + v
    end
    for _, st in ipairs(r.sites) do
      local id = ("%d %s %s %d"):format(st.line, st.space, st.op, st.width)
      local into = sites[id]
      if into == nil then
        into = { line = st.line, space = st.space, op = st.op,
                 width = st.width, counters = {}, id = id }
        sites[id] = into
        sum.sites[#sum.sites + 1] = into
      end
      for key, v in pairs(st.counters) do
        into.counters[key] = (into.counters[key] or 0) + v
      end
    end
    for _, f in ipairs(r.findings or {}) do
      finds[f.kind] = (finds[f.kind] or 0) + f.count
    end
  end
  table.sort(sum.sites, function(a, b) return a.id < b.id end)
  local kinds = {}
  for kind in pairs(finds) do kinds[#kinds + 1] = kind end
  table.sort(kinds)
  for _, kind in ipairs(kinds) do
    sum.findings[#sum.findings + 1] = { kind = kind, count = finds[kind] }
  end
  return report_text(sum, true),
         memtext(A, G, T, SP) .. " | " .. table.concat(B:read(), ",")
end

local joined, whole, failed = 0, 0, 0
for case = 1, COUNT do
  local G = 1 + rnd(6)
  local T = ({ 1, 2, 32, 40 })[1 + rnd(4)]
  local steps = {}
  for i = 1, 1 + rnd(5) do steps[i] = kinds[1 + rnd(#kinds)] end
  local seed = 1 + rnd(1000)
  local check = rnd(3) == 0
  local fb = rnd(G)
  -- cells SP elements apart: 1, 4099 (16 KB) or 8209 (past 32 KB): a
  -- part's record of what it touched then spans many of split.c's 32 KB
  -- chunks, with chunks it never made between them
  local SP = ({ 1, 4099, 8209 })[1 + rnd(3)]
  local k = make_kernel(steps, G, T, fb, SP)
  local name = ("case %d (grid %d, block %d, seed %d, cells %d apart, %s%s)"):format(
    case, G, T, seed, SP, table.concat(steps, " "), check and ", checked" or "")
  local cfg = { grid = G, block = T, seed = seed, check = check }
  local m0, r0, ok0 = run(G, T, k, cfg, SP)
  if ok0 and rnd(4) == 0 then
    -- a step bound the launch may pass: each part's steps are under it
    cfg.max_steps = 1 + rnd(r0.steps)
    name = name .. (", max_steps %d of %d"):format(cfg.max_steps, r0.steps)
    m0, r0, ok0 = run(G, T, k, cfg, SP)
  end
  local want = ok0 and report_text(r0)
  local m, r, ok, rj = {}, {}, {}, nil
  for _, j in ipairs { 1, 2, 4 } do
    local c = {}
    for key, v in pairs(cfg) do c[key] = v end
    c.jobs = j
    m[j], r[j], ok[j] = run(G, T, k, c, SP)
    if ok[j] then
      if j == 1 then rj = r[j] end
      r[j] = report_text(r[j])
    end
  end
  if not ok0 then
    failed = failed + 1
    for _, j in ipairs { 1, 2, 4 } do
      if ok[j] then
        fail("%s: the launch fails without jobs (%s), not with jobs %d",
             name, r0, j)
      elseif r[j] ~= r0 then
        fail("%s: jobs %d fails otherwise:\n%s\n--\n%s", name, j, r0,
             r[j])
      end
      if m[j] ~= m0 then
        fail("%s: memory after the failure differs with jobs %d", name, j)
      end
    end
    goto next
  end
  for _, j in ipairs { 1, 2, 4 } do
    if not ok[j] then
      fail("%s: jobs %d fails, not the launch without jobs: %s", name, j,
           r[j])
      goto next
    end
  end
  for _, j in ipairs { 2, 4 } do
    if m[j] ~= m[1] then fail("%s: memory of jobs %d differs from jobs 1",
                              name, j) end
    if r[j] ~= r[1] then
      fail("%s: report of jobs %d differs from jobs 1:\n%s\n--\n%s", name,
           j, r[1], r[j])
    end
  end
  if m[1] ~= m0 then
    fail("%s: memory differs from the launch without jobs:\n  %s\n  %s",
         name, m0, m[1])
  end
  if r[1]:find("joined=true", 1, true) then
    joined = joined + 1
    -- the independent path: the parts one after the other on the device
    -- itself (a part launch on the script's state reports as a launch),
    -- whose L2 sees each part's lookups in turn: the joined launch's
    -- counters (L2 hits and misses included), steps and memory
    local got, mseq = sequential(G, T, k, cfg, r[1]:match("parts=(%d+)"), SP)
    local want_j = report_text(rj, true):gsub("\nsplit parts=[^\n]*$", "")
    if got ~= want_j then
      fail("%s: the joined report is not the parts' one after the other:"
           .. "\n%s\n--\n%s", name, want_j, got)
    end
    if mseq ~= m[1] then
      fail("%s: the joined memory is not the parts' one after the other",
           name)
    end
  else
    whole = whole + 1
    -- run whole: the report is the whole launch's, with the reason
    local got = r[1]:gsub("\nsplit parts=[^\n]*$", "")
    if got ~= want then
      fail("%s: a launch run whole reports otherwise:\n%s\n--\n%s", name,
           want, got)
    end
  end
  ::next::
end
print(("kernel_split: %d generated kernels (seed %d), %d joined, %d run "
       .. "whole, %d failing, %d failures"):format(COUNT, SEED, joined,
                                                   whole, failed, failures))

-- what a user sees: prints in part order, errors naming the thread, a
-- kernel that changes an upvalue run whole
local dev = wl.device "sm_90"
local O = dev:malloc("int32", 64, "out")
local bad = wl.kernel(function(c, out)
  local b = c.blockIdx.x
  out[b * 8 + c.threadIdx.x + (b == 5 and 64 or 0)] = 1
end)
local msgs = {}
for _, j in ipairs { false, 1, 2 } do
  local ok, e = pcall(dev.launch, dev, bad, { grid = 8, block = 8,
                                              jobs = j or nil }, O)
  assert(not ok)
  msgs[#msgs + 1] = e
end
assert(msgs[2] == msgs[3], "the failure differs across jobs")
assert(msgs[1] == msgs[2], "the failure differs from the launch's "
       .. "without jobs:\n" .. msgs[1] .. "\n" .. msgs[2])
assert(msgs[2]:find("block %(5,0,0%) thread %(0,0,0%)"), msgs[2])
assert(msgs[2]:find("out of bounds", 1, true), msgs[2])
assert(not msgs[2]:find("kernel_split.lua:%d+: [^\n]*kernel_split.lua"),
       "the failure's place named twice: " .. msgs[2])

local seen = {}
local counting = wl.kernel(function(c, out)
  if c.threadIdx.x == 0 then seen[#seen + 1] = c.blockIdx.x end
  out[c.blockIdx.x * 8 + c.threadIdx.x] = 1
end)
seen = {}
local r = dev:launch(counting, { grid = 8, block = 8, jobs = 2 }, O)
assert(r.split and not r.split.joined and #seen == 8,
       "a kernel that changes an upvalue must run whole")
assert(r.split.why:find("changed a Lua value", 1, true), r.split.why)

local C = dev:malloc("int32", 1, "count")
local counter = wl.kernel(function(c, count, out)
  c:atomicAdd(count, 0, 1)
  out[c.blockIdx.x * 8 + c.threadIdx.x] = 2
end)
C:write(0)
r = dev:launch(counter, { grid = 8, block = 8, jobs = 4 }, C, O)
assert(C:read()[1] == 64, "the counter: " .. C:read()[1])
assert(not r.split.joined and r.split.why:find("'count'", 1, true),
       r.split.why)

-- a flag one block sets and another polls: run whole, quickly (the
-- polling part stops once the setting part finished)
local F = dev:malloc("int32", 1, "flag")
local spin = wl.kernel(function(c, flag, out)
  if c.blockIdx.x == 0 then c:store(flag, 0, 1, "release")
  else while c:load(flag, 0, "acquire") == 0 do end end
  out[c.blockIdx.x] = 7
end)
F:write(0)
r = dev:launch(spin, { grid = 2, block = 1, jobs = 2 }, F, O)
assert(not r.split.joined and r.split.why:find("'flag'", 1, true))
assert(O:read()[2] == 7)

-- parts that meet on an allocation an earlier part never touched (the
-- message's search for the earlier part read past that part's tracking)
local A1 = dev:malloc("int32", 4, "first")
local B1 = dev:malloc("int32", 4, "second")
local meet = wl.kernel(function(c, a, b)
  if c.blockIdx.x == 0 then a[0] = 1 else b[0] = c.blockIdx.x end
end)
r = dev:launch(meet, { grid = 3, block = 1, jobs = 2 }, A1, B1)
assert(not r.split.joined and
       r.split.why:find("parts 1 and 2 of 3 both touch (one writing) byte "
                        .. "0 of 'second'", 1, true), r.split.why)

-- a kernel that captures a device array: run whole, saying why
local captured = wl.kernel(function(c)
  O[c.blockIdx.x * 8 + c.threadIdx.x] = 5
end)
r = dev:launch(captured, { grid = 8, block = 8, jobs = 2 })
assert(not r.split.joined and r.split.why:find("upvalue 'O'", 1, true),
       r.split.why)
assert(O:read()[64] == 5)

-- bad jobs values: an error naming the caller's line
for _, j in ipairs { 0, 1025, 1.5, true } do
  local ok, e = pcall(dev.launch, dev, counting, { grid = 2, block = 8,
                                                  jobs = j }, O)
  assert(not ok and e:find("kernel_split.lua:%d+: launch: jobs must be an "
                           .. "integer from 1 to 1024"), tostring(e))
end

if failures > 0 then error(("%d failures"):format(failures)) end
print("kernel_split: ok")
