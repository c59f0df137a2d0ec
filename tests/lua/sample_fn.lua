-- test:sample with threads written as Lua functions: the simulator
-- replays each function with the values its loads returned so far.
-- Every sampled outcome is a state test:explore() allows; a fixed seed
-- gives the same histogram for any number of jobs, and when the
-- functions cannot be copied to workers' Lua states.
local wl = require "warplab"

local function dump(s)
  local lines = {}
  for _, o in ipairs(s.outcomes) do
    local kv = {}
    for k, v in pairs(o) do
      if type(k) == "string" and type(v) == "number" and k ~= "count" then
        kv[#kv + 1] = k .. "=" .. v
      end
    end
    table.sort(kv)
    lines[#lines + 1] = table.concat(kv, " ") .. " #" .. o.count ..
                        (o.sat and "*" or "") .. (o.weak and " weak" or "")
  end
  table.sort(lines)
  return table.concat(lines, "\n")
end

-- every sampled outcome is one of explore()'s states (over vars)
local function within(t, s, vars)
  local allowed = {}
  local function key(st)
    local k = {}
    for i, v in ipairs(vars) do k[i] = tostring(st[v]) end
    return table.concat(k, ",")
  end
  for _, st in ipairs(t:explore().states) do allowed[key(st)] = true end
  for _, o in ipairs(s.outcomes) do
    assert(allowed[key(o)], t.name .. ": sampled outcome not allowed: " ..
           key(o) .. "\n" .. dump(s))
  end
end

local function weak_seen(s)
  for _, o in ipairs(s.outcomes) do
    if o.sat then return true end
  end
  return false
end

local N = 20000

-- MP across CTAs, no fence: the weak outcome shows with profile "weak"
local mp = wl.litmus {
  name = "MP-fn", init = { x = 0, y = 0 },
  { at = "cta0", fn = function(d) d.x = 1; d.y = 1 end },
  { at = "cta1", fn = function(d)
      local r0 = d.y
      return { r0 = r0, r1 = d.x }
    end },
  exists = "1:r0 == 1 /\\ 1:r1 == 0",
}
local a = mp:sample { n = N, seed = 5, profile = "weak", jobs = 1 }
local b = mp:sample { n = N, seed = 5, profile = "weak", jobs = 2 }
local c = mp:sample { n = N, seed = 5, profile = "weak", jobs = 3 }
assert(a.runs == N and a.hung == 0 and not a.partial)
assert(a.workers == 1 and b.workers == 2 and c.workers == 3, b.workers)
assert(dump(a) == dump(b), "jobs=1 and jobs=2 differ:\n" .. dump(a) ..
       "\n--\n" .. dump(b))
assert(dump(a) == dump(c), "jobs=1 and jobs=3 differ")
assert(a.observed and weak_seen(a), "MP without fence: no weak outcome\n" ..
       dump(a))
local saw_weak_mark = false
for _, o in ipairs(a.outcomes) do
  assert(o["1:r0"] == o[2].r0 and o.x == 1 and o.y == 1, "outcome shape")
  if o.sat then saw_weak_mark = saw_weak_mark or o.weak == true end
  if o["1:r0"] == 0 then assert(o.weak == false, "SC outcome marked weak") end
end
assert(saw_weak_mark, "the MP outcome is not marked weak")
within(mp, a, { "1:r0", "1:r1", "x", "y" })
-- the same test written with instruction strings gives the same outcomes
-- (the machinery is the same; the counts follow other random draws)
assert(tostring(a):find("^Test MP%-fn Allowed\nHistogram"), tostring(a))

-- MP with __threadfence (fence.sc.gpu) or fence.sc: never the weak one
for _, fence in ipairs { "threadfence", "fence" } do
  local t = wl.litmus {
    name = "MP-fn-" .. fence, init = { x = 0, y = 0 },
    { at = "cta0", fn = function(d)
        d.x = 1
        if fence == "threadfence" then d:threadfence() else
          d:fence("sc", "gpu") end
        d.y = 1
      end },
    { at = "cta1", fn = function(d)
        local r0 = d.y
        if fence == "threadfence" then d:threadfence() else
          d:fence("sc", "gpu") end
        return { r0 = r0, r1 = d.x }
      end },
    exists = "1:r0 == 1 /\\ 1:r1 == 0",
  }
  local s1 = t:sample { n = N, seed = 7, profile = "weak", jobs = 1 }
  local s2 = t:sample { n = N, seed = 7, profile = "weak", jobs = 2 }
  assert(dump(s1) == dump(s2), fence .. ": jobs differ")
  assert(not weak_seen(s1), fence .. ": weak outcome observed\n" .. dump(s1))
  within(t, s1, { "1:r0", "1:r1" })
end

-- SB, LB and CoRR as functions (LB with a data dependency shape, CoRR
-- with relaxed accesses): within the model, same for every jobs
local shapes = {
  wl.litmus {
    name = "SB-fn", init = { x = 0, y = 0 },
    { at = "cta0", fn = function(d) d.x = 1; return { r0 = d.y } end },
    { at = "cta1", fn = function(d) d.y = 1; return { r0 = d.x } end },
    exists = "0:r0 == 0 /\\ 1:r0 == 0",
  },
  wl.litmus {
    name = "LB-fn", init = { x = 0, y = 0 },
    { at = "cta0", fn = function(d) local r0 = d.x; d.y = 1
        return { r0 = r0 } end },
    { at = "cta1", fn = function(d) local r0 = d.y; d.x = 1
        return { r0 = r0 } end },
    exists = "0:r0 == 1 /\\ 1:r0 == 1",
  },
  wl.litmus {
    name = "CoRR-fn", init = { x = 0 },
    { at = "cta0", fn = function(d) d:store("x", 1, "relaxed", "gpu") end },
    { at = "cta1", fn = function(d)
        local r0 = d:load("x", "relaxed", "gpu")
        return { r0 = r0, r1 = d:load("x", "relaxed", "gpu") }
      end },
    exists = "1:r0 == 1 /\\ 1:r1 == 0",
  },
}
local vars = { ["SB-fn"] = { "0:r0", "1:r0" }, ["LB-fn"] = { "0:r0", "1:r0" },
               ["CoRR-fn"] = { "1:r0", "1:r1" } }
for _, t in ipairs(shapes) do
  local s1 = t:sample { n = N, seed = 3, profile = "weak", jobs = 1 }
  local s3 = t:sample { n = N, seed = 3, profile = "weak", jobs = 3 }
  assert(dump(s1) == dump(s3), t.name .. ": jobs=1 and jobs=3 differ")
  assert(s1.hung == 0, t.name .. ": runs hung")
  within(t, s1, vars[t.name])
end
-- SB's weak outcome (store buffering) shows; CoRR's never does
local sb = shapes[1]:sample { n = N, seed = 3, profile = "weak", jobs = 2 }
assert(weak_seen(sb), "SB-fn: no store buffering\n" .. dump(sb))
local corr = shapes[3]:sample { n = N, seed = 3, profile = "weak", jobs = 2 }
assert(not weak_seen(corr), "CoRR-fn: forbidden outcome\n" .. dump(corr))

-- plain-data upvalues are copied to the workers; a function upvalue
-- makes the batches run on the script's state: the same histogram
local one, names = 1, { flag = "y" }
local function helper(d) return d[names.flag] end
local t_copy = wl.litmus {
  name = "MP-up", init = { x = 0, y = 0 },
  { at = "cta0", fn = function(d) d.x = one; d[names.flag] = one end },
  { at = "cta1", fn = function(d) local r0 = d.y; return { r0 = r0, r1 = d.x } end },
  exists = "1:r0 == 1 /\\ 1:r1 == 0",
}
local t_fn = wl.litmus {
  name = "MP-up", init = { x = 0, y = 0 },
  { at = "cta0", fn = function(d) d.x = one; d[names.flag] = one end },
  { at = "cta1", fn = function(d) local r0 = helper(d); return { r0 = r0, r1 = d.x } end },
  exists = "1:r0 == 1 /\\ 1:r1 == 0",
}
local u1 = t_copy:sample { n = N, seed = 5, profile = "weak", jobs = 2 }
local u2 = t_fn:sample { n = N, seed = 5, profile = "weak", jobs = 2 }
assert(u1.workers == 2 and u1.note == nil, tostring(u1.note))
assert(u2.workers == 1 and u2.note:find("upvalue 'helper' (a function)", 1,
       true), tostring(u2.note))
assert(tostring(u2):find("\nNote the function of P1 has upvalue", 1, true),
       tostring(u2))
assert(dump(u1) == dump(u2), "fallback histogram differs")
assert(dump(u1) == dump(a), "upvalue copies changed the histogram")

-- results a run does not report are 0; names appear as for explore
local opt = wl.litmus {
  name = "opt", init = { x = 0 },
  function(d) d.x = 1 end,
  function(d)
    local r = d.x
    if r == 1 then return { seen = 1 } end
  end,
}
local so = opt:sample { n = 5000, seed = 1, profile = "weak", jobs = 2 }
local so1 = opt:sample { n = 5000, seed = 1, profile = "weak", jobs = 1 }
assert(dump(so) == dump(so1), "optional results: jobs differ")
for _, o in ipairs(so.outcomes) do
  assert(o["1:seen"] == 0 or o["1:seen"] == 1, dump(so))
end

-- a spin loop on a flag, and a barrier between two threads of a CTA
local spin = wl.litmus {
  name = "spin", init = { x = 0, f = 0 },
  { at = "cta0", fn = function(d) d.x = 1; d:store("f", 1, "release", "gpu") end },
  { at = "cta1", fn = function(d)
      while d:load("f", "acquire", "gpu") == 0 do end
      return { r = d.x }
    end },
}
local ss = spin:sample { n = 2000, seed = 2, profile = "weak", jobs = 2 }
for _, o in ipairs(ss.outcomes) do assert(o["1:r"] == 1, dump(ss)) end
local bar = wl.litmus {
  name = "bar", init = { x = 0 },
  { at = "cta0", fn = function(d) d.x = 1; d:syncthreads() end },
  { at = "cta0", fn = function(d) d:syncthreads(); return { r = d.x } end },
}
local sbar = bar:sample { n = 2000, seed = 2, profile = "weak", jobs = 2 }
assert(sbar.hung == 0, "barrier runs hung")
for _, o in ipairs(sbar.outcomes) do assert(o["1:r"] == 1, dump(sbar)) end

-- a Lua error in a thread names the script line and the thread, from
-- the workers and from the script's own state
local here = debug.getinfo(1, "S").short_src
local function line() return debug.getinfo(2, "l").currentline end
local bad = wl.litmus {
  name = "bad", init = { x = 0 },
  function(d) d.x = 1 end,
  function(d) if d.x == 1 then error("boom at one") end end,
}
local bl = line() - 2
for _, j in ipairs { 1, 2 } do
  local ok, err = pcall(bad.sample, bad, { n = 2000, seed = 1, jobs = j,
                                           profile = "weak" })
  assert(not ok, "no error")
  assert(err:find("sample bad: thread P1: " .. here .. ":" .. bl ..
                  ": boom at one", 1, true), err)
end
-- the test is usable afterwards: the same error again, and the explorer
-- reports it too
assert(not pcall(bad.sample, bad, { n = 100, jobs = 1 }))
assert(select(2, pcall(bad.explore, bad)):find("boom at one", 1, true))

-- a function that is not deterministic
local flip = 0
local nd = wl.litmus {
  name = "nd", init = { x = 0, y = 0 },
  function(d)
    flip = flip + 1
    if flip % 2 == 0 then d.x = 1 else d.y = 1 end
    local _ = d.x
  end,
}
local ok, err = pcall(nd.sample, nd, { n = 10, jobs = 1 })
assert(not ok and err:find("P0 is not deterministic", 1, true), err)

print("sample_fn: ok")
