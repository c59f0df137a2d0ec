-- A property on generated tests: a test written with Lua-function threads
-- (wl.litmus_functions: each thread interprets its instructions through
-- the device API) gives the same final states and verdict as its
-- instruction-string form.  Random programs and sampled cycles, without
-- dependencies: the explorer reads dependencies of instructions
-- syntactically and those of functions semantically (ptxfn.lua).  And
-- (every fourth test) the sampler's weak marks agree between the two
-- forms on the outcomes both histograms have: the SC search
-- (engine/model/scsearch.h) replays the callback threads and keeps their
-- results in the histogram, where the instruction form's are registers.
--
--   warplab run tests/lua/props_fn.lua [SHARED [COUNT [SEED]]]
local wl = require "warplab"

local count = tonumber(arg and arg[2]) or 2000
local seed = tonumber(arg and arg[3]) or 1
local mix = "weak,relaxed,acqrel,atom,red,fence,bar"

local sources = {
  function(n, s)
    return wl.gen { random = true, threads = 2, insns = 4, locs = 2,
                    mix = mix, count = n, seed = s }
  end,
  function(n, s)
    return wl.gen { random = true, threads = 3, insns = 3, locs = 2,
                    mix = mix, count = n, seed = s }
  end,
  function(n, s)
    return wl.gen { family = "all", sample = true, count = n, seed = s }
  end,
  function(n, s)
    return wl.gen { edges = "PodWW PodWR PodRW PodRR Rfe Fre Coe Rfi Fri " ..
                            "Rmw FenceScCtadWW FenceScGpudWR " ..
                            "FenceAcqRelSysdRR",
                    max_size = 5, sample = true, count = n, seed = s }
  end,
}

-- the tests this property once failed on, reduced (tests/props/)
local kept = { "tests/props/fn-cas-write-shift.litmus" }

-- The weak marks of the outcomes sampled from both forms, compared over
-- vars; nil, or what differs.
local weak_compared, weak_outcomes, weak_marked = 0, 0, 0
local function weak_differs(ta, tb, vars, s)
  local opts = { n = 300, seed = s, profile = "weak", jobs = 1 }
  local ha, hb = ta:sample(opts), tb:sample(opts)
  if ha.weak_known ~= hb.weak_known then
    return "weak_known " .. tostring(ha.weak_known) .. " (instructions), " ..
           tostring(hb.weak_known) .. " (functions)"
  end
  local function key(o)
    local k = {}
    for j, v in ipairs(vars) do k[j] = tostring(o[v]) end
    return table.concat(k, ",")
  end
  local marks = {}
  for _, o in ipairs(ha.outcomes) do marks[key(o)] = o.weak end
  for _, o in ipairs(hb.outcomes) do
    local w = marks[key(o)]
    if w ~= nil then
      weak_outcomes = weak_outcomes + 1
      weak_marked = weak_marked + (o.weak and 1 or 0)
    end
    if w ~= nil and w ~= o.weak then
      return "outcome " .. key(o) .. " marked weak " .. tostring(w) ..
             " (instructions), " .. tostring(o.weak) .. " (functions)"
    end
  end
  weak_compared = weak_compared + 1
  return nil
end

local checked, failures = 0, 0
local per = count // #sources + 1
for _, path in ipairs(kept) do
  local f = assert(io.open(path))
  local text = f:read("a")
  f:close()
  table.insert(sources, 1, function() return { text }, { path } end)
end
for k, src in ipairs(sources) do
  local texts, names = src(per, seed * 10 + k)
  for i, text in ipairs(texts) do
    if checked >= count + #kept then break end
    checked = checked + 1
    local a = wl.parse(text):explore()
    local spec = wl.litmus_functions(text, names[i])
    local b = wl.litmus(spec):explore()
    local vars = {}
    for key in pairs(a.states[1] or {}) do
      if type(key) == "string" and key ~= "sat" and key ~= "count" then
        vars[#vars + 1] = key
      end
    end
    table.sort(vars)
    local pa, pb = wl.project(a, vars), wl.project(b, vars)
    local same, why = wl.same(pa, pb)
    if same and checked % 4 == 0 then
      why = weak_differs(wl.parse(text), wl.litmus(spec), vars, checked)
      same = why == nil
    end
    if not same or a.ok ~= b.ok then
      failures = failures + 1
      print(string.format("FAIL fn %s: %s (verdicts %s, %s)\n%s", names[i],
                          tostring(why), tostring(a.ok), tostring(b.ok),
                          text))
      if failures >= 5 then break end
    end
  end
end
print(string.format("props_fn: %d tests, %d failures; weak marks compared "
                    .. "on %d (%d outcomes, %d weak)", checked, failures,
                    weak_compared, weak_outcomes, weak_marked))
assert(failures == 0)
assert(checked >= math.min(count, 1))
assert(count < 4 or weak_outcomes > 0, "no weak marks compared")
