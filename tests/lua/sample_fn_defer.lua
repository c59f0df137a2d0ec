-- The sampler runs Lua-function threads with the machine it runs
-- instruction strings with, deferred loads included (a callback goes on
-- with the value read at issue; the late value stands only when the
-- callback, given it, does the same events): every outcome sampled from
-- the function form of generated tests, on both profiles, is one the
-- explorer allows for the string form; and MP written with functions
-- shows its weak outcome on the h100 profile within 2x of its string
-- form, as does S with both threads in one CTA (the profile's rare in-SM
-- store overtaking, ~2e-5 per run).
--
--   warplab run tests/lua/sample_fn_defer.lua [SHARED [COUNT [SEED]]]
local wl = require "warplab"

local count = tonumber(arg and arg[2]) or 150
local seed = tonumber(arg and arg[3]) or 1
local mix = "weak,relaxed,acqrel,atom,red,fence"
local sources = {
  function(n, s)
    return wl.gen { random = true, threads = 2, insns = 4, locs = 2,
                    mix = mix, count = n, seed = s }
  end,
  function(n, s)
    return wl.gen { family = "all", sample = true, count = n, seed = s }
  end,
}

local function key(st, vars)
  local parts = {}
  for _, v in ipairs(vars) do parts[#parts + 1] = v .. "=" .. tostring(st[v]) end
  return table.concat(parts, ";")
end

local checked, failures = 0, 0
for k, src in ipairs(sources) do
  local texts, names = src(count // #sources + 1, seed * 10 + k)
  for i, text in ipairs(texts) do
    checked = checked + 1
    local a = wl.parse(text):explore()
    local vars = {}
    for name in pairs(a.states[1] and a.states[1].values or {}) do
      vars[#vars + 1] = name
    end
    table.sort(vars)
    local allowed = {}
    for _, st in ipairs(a.states) do allowed[key(st, vars)] = true end
    local f = wl.litmus(wl.litmus_functions(text, names[i]))
    for _, profile in ipairs { "h100", "weak" } do
      local r = f:sample { n = 2000, seed = 5, profile = profile, jobs = 1 }
      for _, o in ipairs(r.outcomes) do
        if not allowed[key(o, vars)] then
          failures = failures + 1
          print(string.format("FAIL %s (%s): outcome %s not allowed\n%s",
                              names[i], profile, key(o, vars), text))
        end
      end
    end
  end
end

-- MP: the function form's weak rate beside the string form's on h100
local s = wl.litmus {
  name = "MP", init = { x = 0, y = 0 },
  { at = "cta0", "st.volatile x, 1", "st.volatile y, 1" },
  { at = "cta1", "ld.volatile r0, y", "ld.volatile r1, x" },
  exists = "1:r0 == 1 /\\ 1:r1 == 0",
}
local fn = wl.litmus {
  name = "MPfn", init = { x = 0, y = 0 },
  function(d)
    d:store("x", 1, "relaxed", "sys")
    d:store("y", 1, "relaxed", "sys")
  end,
  { at = "cta1", fn = function(d)
      local r0 = d:load("y", "relaxed", "sys")
      local r1 = d:load("x", "relaxed", "sys")
      return { r0 = r0, r1 = r1 }
    end },
  exists = "1:r0 == 1 /\\ 1:r1 == 0",
}
local function weak(t, n)
  local r = t:sample { n = n or 100000, seed = 7, profile = "h100", jobs = 1 }
  local n = 0
  for _, o in ipairs(r.outcomes) do if o.sat then n = n + o.count end end
  return n
end
local ws, wf = weak(s), weak(fn)
print(string.format("sample_fn_defer: %d tests, %d failures; MP weak on h100: "
                    .. "strings %d, functions %d (of 100,000)", checked,
                    failures, ws, wf))
assert(failures == 0)
assert(ws > 0 and wf >= ws / 2 and wf <= ws * 2,
       "MP: functions " .. wf .. " against strings " .. ws)

-- S inside one CTA: the rare in-SM event, for functions as for strings
local ss = wl.litmus {
  name = "S", init = { x = 0, y = 0 },
  { at = "cta0", "st.volatile x, 2", "st.volatile y, 1" },
  { at = "cta0", "ld.volatile r0, y", "st.volatile x, 1" },
  exists = "x == 2 /\\ 1:r0 == 1",
}
local sfn = wl.litmus {
  name = "Sfn", init = { x = 0, y = 0 },
  { at = "cta0", fn = function(d)
      d:store("x", 2, "relaxed", "sys")
      d:store("y", 1, "relaxed", "sys")
    end },
  { at = "cta0", fn = function(d)
      local r0 = d:load("y", "relaxed", "sys")
      d:store("x", 1, "relaxed", "sys")
      return { r0 = r0 }
    end },
  exists = "x == 2 /\\ 1:r0 == 1",
}
local ss_n, sf_n = weak(ss, 1000000), weak(sfn, 1000000)
print(string.format("sample_fn_defer: S in one CTA weak on h100: strings %d, "
                    .. "functions %d (of 1,000,000)", ss_n, sf_n))
assert(ss_n > 0 and sf_n >= ss_n / 2 and sf_n <= ss_n * 2,
       "S in one CTA: functions " .. sf_n .. " against strings " .. ss_n)
