-- scale_fn.lua -- the four-block grid barrier explored as PTX strings and
-- as Lua functions (d:await, and the plain spin loop), with and without
-- fences: the Lua-function forms should stay within a small factor.
local wl = require "warplab"

local function now() return os.clock() end

local function grid(fences)
  local spec = { init = { f0 = 0, f1 = 0, f2 = 0, f3 = 0, c = 0 } }
  for b = 0, 3 do
    local th = { at = "cta" .. b, "st.relaxed.gpu f" .. b .. ", 1" }
    if fences then th[#th + 1] = "fence.sc.gpu" end
    th[#th + 1] = "red.relaxed.gpu.add c, 1"
    th[#th + 1] = "LC" .. b .. "0:"
    th[#th + 1] = "ld.relaxed.gpu r0, c"
    th[#th + 1] = "bne r0, 4, LC" .. b .. "0"
    if fences then th[#th + 1] = "fence.sc.gpu" end
    th[#th + 1] = "ld.relaxed.gpu r1, f" .. (b + 1) % 4
    spec[#spec + 1] = th
  end
  return wl.litmus(spec)
end

local function grid_fn(fences, await)
  local spec = { init = { f0 = 0, f1 = 0, f2 = 0, f3 = 0, c = 0 } }
  for b = 0, 3 do
    spec[#spec + 1] = { at = "cta" .. b, fn = function(d)
      d:store("f" .. b, 1, "relaxed", "gpu")
      if fences then d:fence("sc", "gpu") end
      d:atom("add", "c", 1, "relaxed", "gpu")
      if await then
        d:await("c", "==", 4, "relaxed", "gpu")
      else
        repeat until d:load("c", "relaxed", "gpu") == 4
      end
      if fences then d:fence("sc", "gpu") end
      return { r1 = d:load("f" .. (b + 1) % 4, "relaxed", "gpu") }
    end }
  end
  return wl.litmus(spec)
end

local function time(t, opts)
  local t0 = now()
  local r = t:explore(opts)
  return now() - t0, r.nstates
end

print("scale: the grid barrier as PTX and as Lua functions (CPU seconds)")
for _, f in ipairs { false, true } do
  local name = f and "with fence.sc" or "no fences"
  local tp, np = time(grid(f))
  local ta, na = time(grid_fn(f, true))
  local tl, nl = time(grid_fn(f, false), { unroll = 2 })
  print(string.format("  %-14s PTX %.3f s (%d states), Lua d:await %.3f s " ..
                      "(%d, %.1fx), Lua spin loop at unroll 2 %.3f s (%d)",
                      name, tp, np, ta, na, ta / math.max(tp, 1e-3), tl, nl))
end
