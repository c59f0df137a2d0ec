-- test:explore{...} turns each of the search's reductions off (symmetry,
-- prefix, stutter, thin_air_filter) and chooses the search; ATOM2x2 (two
-- CTAs adding 1 twice to a counter) has the same three states of P0:r0
-- every way.
local wl = require "warplab"

local t = wl.load("tests/props/reduce-atom2x2.litmus")

local function states(opts)
  opts.observed_only = true
  local r = t:explore(opts)
  assert(r.ok == true and #r.states == 3, "not Ok with three states")
  local seen = {}
  for _, s in ipairs(r.states) do seen[#seen + 1] = s["0:r0"] end
  table.sort(seen)
  return table.concat(seen, " ")
end

local want = "0 1 2"
for _, o in ipairs {
  {}, { symmetry = false }, { prefix = false }, { stutter = false },
  { thin_air_filter = false },
  { symmetry = false, prefix = false, stutter = false,
    thin_air_filter = false },
  { search = "auto" }, { search = "values" }, { search = "rf" },
  { search = "values", symmetry = false }, { search = "rf", symmetry = false },
} do
  local got = states(o)
  assert(got == want, "states " .. got .. ", not " .. want)
end

-- a bad search names its option and the valid words
local ok, err = pcall(t.explore, t, { search = "dfs" })
assert(not ok and err:find("explore: option 'search': invalid search 'dfs'",
                           1, true), err)
assert(err:find('"auto", "values" or "rf"', 1, true), err)
ok, err = pcall(t.explore, t, { prefixes = false })
assert(not ok and err:find("unknown option 'prefixes'", 1, true), err)
print("reduce: ok")
