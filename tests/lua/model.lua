-- Cat models from Lua: wl.model(path) and test:explore{model = ...}.  The
-- built-in explorer and ptx-v6.0-isa.cat agree on MP with fence.sc.cta in
-- two CTAs joined by gpu release/acquire (3 states); ptx-v6.0.cat read
-- literally forbids the sequentially consistent r0=1, r1=1.
local wl = require "warplab"
local shared = arg and arg[1] or "../shared"
local spec = shared .. "/spec/"

local mp = wl.litmus {
  name = "MP+sc.cta", init = { x = 0, y = 0 },
  { at = "cta0", "st.weak x, 1", "fence.sc.cta", "st.release.gpu y, 1" },
  { at = "cta1", "ld.acquire.gpu r0, y", "fence.sc.cta", "ld.weak r1, x" },
  exists = "1:r0 == 1 /\\ 1:r1 == 0",
}
local isa = wl.model(spec .. "ptx-v6.0-isa.cat")
assert(tostring(isa):find("warplab.Model"), tostring(isa))
assert(type(isa.name) == "string")
local a = mp:explore()
local b = mp:explore { model = isa }
local c = mp:explore { model = spec .. "ptx-v6.0.cat" }
assert(a.nstates == 3 and b.nstates == 3, a.nstates .. " " .. b.nstates)
assert(c.nstates == 2, c.nstates)
assert(not a.ok and not b.ok and not c.ok)
-- the same model serves many tests, also written as Lua functions
local fn = wl.litmus {
  init = { x = 0, y = 0 },
  function(d) d.x = 1; d:fence("sc", "cta"); d:store("y", 1, "release", "gpu") end,
  { at = "cta1", fn = function(d)
      local r0 = d:load("y", "acquire", "gpu")
      d:fence("sc", "cta")
      return { r0 = r0, r1 = d.x }
    end },
  exists = "1:r0 == 1 /\\ 1:r1 == 0",
}
assert(fn:explore { model = isa }.nstates == 3)
-- errors: a bad file names file:line:col, a bad value names the option
local ok, err = pcall(mp.explore, mp, { model = spec .. "no-such.cat" })
assert(not ok and err:find("no%-such%.cat"), err)
local path = os.tmpname()
local f = assert(io.open(path, "w"))
f:write("M\nacyclic po |\n")
f:close()
ok, err = pcall(wl.model, path)
assert(not ok and err:find(":3:1: "), err)
os.remove(path)
-- the shipped models by name, .cat optional, found beside the program
-- (never ../shared or the current directory; issue 20, item 21)
assert(wl.model("ptx-v7.5").name == "PTX")
assert(mp:explore { model = "ptx-v6.0" }.nstates == 2)
assert(mp:explore { model = "ptx-v6.0-isa.cat" }.nstates == 3)
ok, err = pcall(wl.model, "ptx-v9.9")
assert(not ok and err:find("no model 'ptx%-v9%.9'") and
       err:find("shipped model") and err:find("WARPLAB_MODELS"), err)
-- a directory is named as one (item 10), as is a device (item 7)
ok, err = pcall(wl.model, "scripts")
assert(not ok and err:find("'scripts': is a directory"), err)
ok, err = pcall(wl.model, "/dev/zero")
assert(not ok and err:find("not a regular file"), err)
ok, err = pcall(mp.explore, mp, { model = 42 })
assert(not ok and err:find("model"), err)
isa:close()
ok, err = pcall(mp.explore, mp, { model = isa })
assert(not ok and err:find("closed"), err)
print("model: ok")
