-- lua_shapes.lua -- exploring the classic shapes written as Lua functions
-- against the same shapes written as PTX instruction strings.
-- Run: warplab run bench/lua_shapes.lua [REPEATS]
local wl = require "warplab"
local reps = tonumber(arg and arg[1]) or 200

local function rl(d, x) return d:load(x, "relaxed", "gpu") end
local function st(d, x, v) d:store(x, v, "relaxed", "gpu") end

local shapes = {
  { "MP",
    { { "st.relaxed.gpu x, 1", "st.relaxed.gpu y, 1" },
      { "ld.relaxed.gpu r0, y", "ld.relaxed.gpu r1, x" } },
    { function(d) st(d, "x", 1); st(d, "y", 1) end,
      function(d) local a = rl(d, "y"); local b = rl(d, "x")
                  return { r0 = a, r1 = b } end } },
  { "SB",
    { { "st.relaxed.gpu x, 1", "ld.relaxed.gpu r0, y" },
      { "st.relaxed.gpu y, 1", "ld.relaxed.gpu r0, x" } },
    { function(d) st(d, "x", 1); return { r0 = rl(d, "y") } end,
      function(d) st(d, "y", 1); return { r0 = rl(d, "x") } end } },
  { "LB",
    { { "ld.relaxed.gpu r0, x", "st.relaxed.gpu y, 1" },
      { "ld.relaxed.gpu r0, y", "st.relaxed.gpu x, 1" } },
    { function(d) local a = rl(d, "x"); st(d, "y", 1); return { r0 = a } end,
      function(d) local a = rl(d, "y"); st(d, "x", 1); return { r0 = a } end } },
  { "IRIW",
    { { "st.relaxed.gpu x, 1" },
      { "ld.relaxed.gpu r0, x", "ld.relaxed.gpu r1, y" },
      { "st.relaxed.gpu y, 1" },
      { "ld.relaxed.gpu r0, y", "ld.relaxed.gpu r1, x" } },
    { function(d) st(d, "x", 1) end,
      function(d) local a = rl(d, "x"); local b = rl(d, "y")
                  return { r0 = a, r1 = b } end,
      function(d) st(d, "y", 1) end,
      function(d) local a = rl(d, "y"); local b = rl(d, "x")
                  return { r0 = a, r1 = b } end } },
  { "CoRR",
    { { "st.relaxed.gpu x, 1" },
      { "ld.relaxed.gpu r0, x", "ld.relaxed.gpu r1, x" } },
    { function(d) st(d, "x", 1) end,
      function(d) local a = rl(d, "x"); local b = rl(d, "x")
                  return { r0 = a, r1 = b } end } },
}

local function build(name, threads, as_fn)
  local spec = { name = name, init = { x = 0, y = 0 } }
  for i, th in ipairs(threads) do
    local t = { at = "cta" .. (i - 1) }
    if as_fn then t.fn = th else for _, s in ipairs(th) do t[#t + 1] = s end end
    spec[#spec + 1] = t
  end
  return wl.litmus(spec)
end

local function time(test)
  local t0 = os.clock()
  local r
  for _ = 1, reps do r = test:explore() end
  return (os.clock() - t0) / reps, r
end

print(("lua_shapes: %d explorations per test (CPU time per exploration)"):format(reps))
local worst = 0
for _, s in ipairs(shapes) do
  local ti, ri = time(build(s[1], s[2], false))
  local tf, rf = time(build(s[1], s[3], true))
  assert(ri.nstates == rf.nstates, s[1] .. ": state counts differ")
  local ratio = tf / ti
  if ratio > worst then worst = ratio end
  print(("  %-5s strings %8.1f us   functions %8.1f us   ratio %.2fx   (%d states)"):format(
    s[1], ti * 1e6, tf * 1e6, ratio, ri.nstates))
end
print(("lua_shapes: worst ratio %.2fx (target: within 5x)"):format(worst))
