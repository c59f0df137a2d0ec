-- test:sample: the simulator's histogram from Lua.  A fixed seed gives
-- the same outcomes twice and for any number of jobs; every sampled
-- outcome is a state the PTX model allows (test:explore()).
local wl = require "warplab"

-- outcomes as comparable text: values and counts, in order
local function key(o)
  local names, parts = {}, {}
  for name in pairs(o.values) do names[#names + 1] = name end
  table.sort(names)
  for _, name in ipairs(names) do parts[#parts + 1] = name .. "=" .. o.values[name] end
  assert(#parts > 0, "an outcome with no values")
  return table.concat(parts, ",")
end
local function dump(s)
  local lines = {}
  for _, o in ipairs(s.outcomes) do
    lines[#lines + 1] = key(o) .. "=" .. o.count .. (o.sat and "*" or "")
  end
  table.sort(lines)
  return table.concat(lines, "\n")
end

local t = wl.load("scripts/litmus/MP+weak.litmus")
local a = t:sample { n = 20000, seed = 5, profile = "weak", jobs = 1 }
local b = t:sample { n = 20000, seed = 5, profile = "weak", jobs = 1 }
local c = t:sample { n = 20000, seed = 5, profile = "weak", jobs = 2 }
local d = t:sample { n = 20000, seed = 5, profile = "weak", jobs = 3 }
assert(a.runs == 20000 and a.partial == false and a.stopped == nil, a.runs)
assert(a.name == "MP+weak" and a.seed == 5 and a.hung == 0)
assert(dump(a) == dump(b), "same seed, different outcomes")
assert(dump(a) == dump(c), "jobs=1 and jobs=2 differ:\n" .. dump(a) ..
       "\n--\n" .. dump(c))
assert(dump(a) == dump(d), "jobs=1 and jobs=3 differ")
-- the text is wl_hist_write's, and the same apart from the time
local function notime(s) return (tostring(s):gsub("\nTime [^\n]*", "")) end
assert(notime(a) == notime(c))
assert(tostring(a):find("^Test MP%+weak Allowed\nHistogram"), tostring(a))
assert(tostring(a) == a.text)

-- counts add up; the outcome tables have the shape of explore's states
local total, weak = 0, false
for _, o in ipairs(a.outcomes) do
  total = total + o.count
  assert(o["1:r0"] == o[2].r0 and o["1:r1"] == o[2].r1, "thread tables")
  assert(o.x == 1 and o.y == 1, "final memory")
  assert(o.sat == (o["1:r0"] == 1 and o["1:r1"] == 0))
  assert(o.weak == nil or type(o.weak) == "boolean")
  if o.weak then weak = true end
end
assert(total + a.hung == a.runs)
-- with the weak profile, 20000 runs see the stale read
assert(a.observed and weak, "weak outcome not observed")

-- every sampled outcome is allowed by the model
local r = t:explore()
local allowed = {}
for _, s in ipairs(r.states) do
  allowed[string.format("%d,%d,%d,%d", s["1:r0"], s["1:r1"], s.x, s.y)] = true
end
for _, o in ipairs(a.outcomes) do
  local k = string.format("%d,%d,%d,%d", o["1:r0"], o["1:r1"], o.x, o.y)
  assert(allowed[k], "sampled outcome not allowed: " .. k)
end

-- SB, and a test written in Lua with instruction strings
local sb = wl.load("scripts/litmus/SB.litmus")
assert(dump(sb:sample { n = 5000, seed = 9, jobs = 1 }) ==
       dump(sb:sample { n = 5000, seed = 9, jobs = 2 }))
local mp = wl.litmus {
  name = "MP-lua",
  init = { x = 0, y = 0 },
  { "st.weak x, 1", "st.weak y, 1" },
  { "ld.weak r0, y", "ld.weak r1, x" },
  exists = "1:r0 == 1 /\\ 1:r1 == 0",
}
local m = mp:sample { n = 3000, seed = 2, profile = "weak", jobs = 2 }
assert(m.runs == 3000 and #m.outcomes >= 1)
-- a Lua predicate decides sat
local mpp = wl.litmus {
  name = "MP-pred",
  init = { x = 0, y = 0 },
  { "st.weak x, 1", "st.weak y, 1" },
  { "ld.weak r0, y", "ld.weak r1, x" },
  exists = function(s) return s[2].r0 == 1 and s[2].r1 == 0 end,
}
local p = mpp:sample { n = 20000, seed = 5, profile = "weak", jobs = 2 }
for _, o in ipairs(p.outcomes) do
  assert(o.sat == (o["1:r0"] == 1 and o["1:r1"] == 0))
end

-- errors: bad options, and threads written as Lua functions
local function fails(f, pat)
  local ok, err = pcall(f)
  assert(not ok, "no error")
  assert(tostring(err):find(pat, 1, true), err)
end
fails(function() t:sample { n = 0 } end, "n must be an integer")
fails(function() t:sample { jobs = 0 } end, "jobs must be an integer")
fails(function() t:sample { profile = "fast" } end, "sample: option 'profile': invalid profile 'fast' (expected \"weak\"")
fails(function() t:sample { seeds = 1 } end, "unknown option 'seeds' (did you mean 'seed'?)")
fails(function() t:sample { timeout = -1 } end, "timeout must be")
-- threads written as Lua functions are sampled too (sample_fn.lua)
local fn = wl.litmus {
  init = { x = 0 },
  function(dev) dev.x = 1 end,
}
local fs = fn:sample { n = 10 }
assert(fs.runs == 10 and #fs.outcomes == 1 and fs.outcomes[1].x == 1)

-- a timeout gives a partial histogram, marked
local big = sb:sample { n = 1e12, jobs = 2, timeout = 0.01 }
assert(big.partial and big.stopped == "timeout" and big.runs < 1e12)
assert(tostring(big):find("\nPartial SB: interrupted after", 1, true))
print("sample: ok")
