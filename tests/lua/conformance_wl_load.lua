-- Every test of PTXv6_0-expected.csv, loaded with wl.load and explored
-- from Lua, gives Dat3M's verdict.  arg[1]: the shared/ folder.
local wl = require "warplab"
local shared = arg[1] or "../shared"
local dir = shared .. "/conformance/dat3m"
local f = assert(io.open(dir .. "/expected/PTXv6_0-expected.csv"))
local n, bad = 0, {}
for line in f:lines() do
  local path, v = line:match("^litmus/PTX/([^,]+),%s*([01])")
  if path then
    local t = wl.load(dir .. "/PTX/" .. path)
    local r = t:explore()
    n = n + 1
    if r.verdict ~= tonumber(v) or r.ok ~= (v == "1") then
      bad[#bad + 1] = ("%s: expected %s, got %d"):format(path, v, r.verdict)
    end
  end
end
f:close()
assert(n == 135, "expected 135 rows, read " .. n)
assert(#bad == 0, "mismatches:\n" .. table.concat(bad, "\n"))
print(("wl.load: %d tests, all verdicts match"):format(n))
