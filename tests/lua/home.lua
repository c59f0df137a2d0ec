-- A location's home GPU ("x = 0 @ gpu 1" in a .litmus file, homes = {}
-- in wl.litmus) and the h100 profile's link model: SB across two GPUs
-- shows its weak outcome with x and y on GPU 1 (the first thread
-- reaches them over the link), never with them on GPU 0 or with
-- fence.sc.gpu, as two H200s did (tests/hw/observed/h200x2-2026-11-26);
-- Lua-function threads get the same machine; bad homes are refused.
local wl = require "warplab"

local function weak(t)
  local r = t:sample { n = 200000, seed = 3, profile = "h100", jobs = 1 }
  local n = 0
  for _, o in ipairs(r.outcomes) do if o.sat then n = n + o.count end end
  return n
end

local function sb(home, fence, fn)
  local function body(d, mine, other)
    d:store(mine, 1, "relaxed", "sys")
    if fence then d:fence("sc", fence) end
    return { r0 = d:load(other, "relaxed", "sys") }
  end
  local t0, t1
  if fn then
    t0 = { at = "cta0,gpu0", fn = function(d) return body(d, "x", "y") end }
    t1 = { at = "cta0,gpu1", fn = function(d) return body(d, "y", "x") end }
  else
    local function prog(at, mine, other)
      local p = { at = at, "st.relaxed.sys " .. mine .. ", 1" }
      if fence then p[#p + 1] = "fence.sc." .. fence end
      p[#p + 1] = "ld.relaxed.sys r0, " .. other
      return p
    end
    t0, t1 = prog("cta0,gpu0", "x", "y"), prog("cta0,gpu1", "y", "x")
  end
  return wl.litmus {
    name = "SB", init = { x = 0, y = 0 }, homes = { x = home, y = home },
    t0, t1, exists = "0:r0 == 0 /\\ 1:r0 == 0",
  }
end

local res = {}
for _, fn in ipairs { false, true } do
  local w1, w0, wg = weak(sb(1, nil, fn)), weak(sb(0, nil, fn)),
                     weak(sb(1, "gpu", fn))
  res[#res + 1] = string.format("%s: home 1 %d, home 0 %d, fence.sc.gpu %d",
                                fn and "functions" or "strings", w1, w0, wg)
  -- the H200s: 63,006 in 102,400,000 rounds, 123 per 200,000
  assert(w1 >= 41 and w1 <= 369, res[#res])
  assert(w0 == 0 and wg == 0, res[#res])
end

-- the .litmus form and its errors
local t = wl.parse([[
PTX SB
{ x=0 @ gpu 1; y = 0 @gpu 1; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;
 st.relaxed.sys x, 1 | st.relaxed.sys y, 1 ;
 ld.relaxed.sys r0, y | ld.relaxed.sys r0, x ;
exists (0:r0=0 /\ 1:r0=0)
]], "sb.litmus")
assert(weak(t) > 0)
local ok, err = pcall(wl.parse, "PTX t\n{ x=0 @ gpu; }\n P0@cta 0,gpu 0 ;\n"
                      .. " st.weak x, 1 ;\nexists (x=1)\n", "bad.litmus")
assert(not ok and err:find("bad.litmus:2:12: expected a GPU number"), err)
ok, err = pcall(wl.litmus, { init = { x = 0 }, homes = { y = 1 },
                             { "st.weak x, 1" } })
assert(not ok and err:find("homes.y names no location"), err)
ok, err = pcall(wl.litmus, { init = { x = 0 }, homes = { x = 9 },
                             { "st.weak x, 1" } })
assert(not ok and err:find("GPU number 0..7"), err)
print("home: " .. table.concat(res, "; "))
