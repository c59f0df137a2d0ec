-- PTX 7.5 proxies and aliases from Lua: instruction strings take every
-- proxy form, init declares aliases as { aliases = "x", proxy = ... },
-- and the built-in (PTX 6.0) explorer refuses such tests by name.
local wl = require "warplab"
local here = debug.getinfo(1, "S").short_src

local function fails(pattern, f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, "expected an error matching " .. pattern)
  err = tostring(err)
  assert(err:find(pattern, 1, true),
         "error\n  " .. err .. "\nlacks\n  " .. pattern)
  return err
end

local refused = "aliases need the PTX 7.5 model, which the built-in PTX "
  .. "6.0 explorer does not implement: use --model ptx-v7.5.cat"

-- every proxy form, through aliases declared in init (their targets
-- first, whatever the order of the table)
local t = wl.litmus {
  name = "Proxy-MP",
  init = { x = 0, flag = 0, y = { aliases = "x" },
           s = { aliases = "x", proxy = "surface" },
           s1 = { aliases = "y", proxy = "surface" },
           tx = { aliases = "y", proxy = "texture" },
           c = { aliases = "x", proxy = "constant" } },
  { at = "cta0", "sust.weak s, 2", "fence.proxy.surface", "fence.proxy.alias",
    "st.release.gpu flag, 1", "suatom.relaxed.gpu.add r1, s, 1",
    "sured.relaxed.gpu.add s1, 1", "fence.proxy.generic" },
  { at = "cta0", "ld.acquire.gpu r0, flag", "fence.proxy.texture",
    "tld.weak r1, tx", "suld.weak r2, s1", "fence.proxy.constant",
    "cold.weak r3, c", "ld.weak r4, y" },
  not_exists = "1:r0 == 1 /\\ 1:r4 != 2 /\\ y == 2",
}
fails("explore Proxy-MP: " .. here .. ": " .. refused, t.explore, t)
fails("the simulator", t.sample, t, { n = 10, seed = 1 })

-- a proxy instruction without aliases: the refusal names its line
local l0 = debug.getinfo(1, "l").currentline + 1
local p = wl.litmus {
  { "st.weak x, 1", "fence.proxy.alias" },
}
fails(here .. ":" .. l0 .. ":", p.explore, p)
fails("proxy instructions need the PTX 7.5 model", p.explore, p)

-- malformed proxy instructions name the script line and the column
local l1 = debug.getinfo(1, "l").currentline + 1
local err = fails(here .. ":" .. l1 .. ":1: ", function() return wl.litmus { { "fence.proxy.tensor" } } end)
assert(err:find("expected fence.proxy.alias", 1, true), err)
fails("tld cannot be .release", wl.litmus, { { "tld.release.gpu r0, x" } })

-- alias declarations
fails("wl.litmus: alias 'y' aliases 'z', which is no location of init",
      wl.litmus, { init = { x = 0, y = { aliases = "z" } },
                   { "st.weak x, 1" } })
fails("wl.litmus: alias 'w' aliases 'y', which is no location of init",
      wl.litmus, { init = { x = 0, y = { aliases = "w" },
                            w = { aliases = "y" } },
                   { "st.weak x, 1" } })
fails("wl.litmus: alias 'y': unknown proxy 'sur' (expected \"generic\", "
      .. "\"surface\", \"texture\" or \"constant\")",
      wl.litmus, { init = { x = 0, y = { aliases = "x", proxy = "sur" } },
                   { "st.weak x, 1" } })
fails("wl.litmus: alias 'y': unknown option 'bogus'", wl.litmus,
      { init = { x = 0, y = { aliases = "x", bogus = 1 } },
        { "st.weak x, 1" } })
fails("wl.litmus: alias 'y': 'aliases' must name a location, not number",
      wl.litmus, { init = { x = 0, y = { aliases = 1 } }, { "st.weak x, 1" } })
fails("wl.litmus: alias 'y' belongs in init, not shared", wl.litmus,
      { shared = { x = 0, y = { aliases = "x" } }, { "st.weak x, 1" } })

-- function threads cannot use aliases (their accesses are generic)
local f = wl.litmus {
  init = { x = 0 },
  function(d) d.x = 1 end,
}
assert(f:explore())

-- a parsed .litmus file with aliases: the same refusal
local q = wl.parse([[
PTX Q
{ x = 0; y @ generic aliases x; }
 P0@cta 0,gpu 0 ;
 st.weak y, 1 ;
exists (x == 1)
]], "q.litmus")
fails("q.litmus:2:10: " .. refused, q.explore, q)
print("proxy: ok")
