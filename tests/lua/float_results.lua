-- A Lua-function thread may return a float (issue 10, 14): the old value
-- of a float atomicAdd is carried as a double result, and states give
-- and print it as a number -- Lua tables, herd text and JSON, for
-- explore and sample alike; a result given two types is an error.
local wl = require "warplab"

local function mk(exists)
  return wl.litmus {
    name = "fadd",
    init = { f = 0.5 },
    types = { f = "float" },
    exists = exists,
    { at = "cta0", fn = function(d)
        return { o = d:atomicAdd("f", 0.25), n = 1 }
      end },
    { at = "cta1", fn = function(d)
        return { p = d:atomicAdd("f", 1.5) }
      end },
  }
end

-- explore: the old values are 0.5 or 2.0 (P0), 0.5 or 0.75 (P1)
local t = mk("0:o == 0 \\/ 1:p == 0")
local r = t:explore()
assert(r.nstates == 2, "states " .. r.nstates)
local seen = {}
for _, s in ipairs(r.states) do
  assert(math.type(s["0:o"]) == "float" and math.type(s[2].p) == "float")
  assert(math.type(s["0:n"]) == "integer" and s["0:n"] == 1)
  assert(s.f == 2.25)
  seen[s["0:o"] .. "/" .. s["1:p"]] = true
end
assert(seen["0.5/0.75"] and seen["2.0/0.5"], "old values")
local text = tostring(r)
assert(text:find("0:o=0.5; 1:p=0.75;", 1, true), text)
assert(text:find("0:o=2; 1:p=0.5;", 1, true), text)
local json = r:json()
assert(json:find('"0:o": 0.5, "1:p": 0.75', 1, true) or
       json:find('"1:p": 0.75', 1, true), json)
assert(json:find('[0.5, 0.75]', 1, true), json)
assert(not json:find('4602678819172646912', 1, true), "no raw carriers")

-- a predicate sees the numbers
t = wl.litmus {
  init = { f = 0.5 }, types = { f = "float" },
  exists = function(s) return s["0:o"] == 2.0 end,
  { at = "cta0", fn = function(d) return { o = d:atomicAdd("f", 0.25) } end },
  { at = "cta1", fn = function(d) d:atomicAdd("f", 1.5) end },
}
assert(t:explore().ok, "exists 0:o == 2.0")

-- sample: outcomes as tables and text in the same types
t = mk("0:o == 0 \\/ 1:p == 0")
local s = t:sample { n = 200, seed = 3 }
assert(#s.outcomes >= 1)
for _, o in ipairs(s.outcomes) do
  assert(math.type(o["0:o"]) == "float", "sampled 0:o")
  assert(o["0:o"] == 0.5 or o["0:o"] == 2.0, "sampled value " .. o["0:o"])
  assert(math.type(o[1].o) == "float" and math.type(o["0:n"]) == "integer")
  assert(o.f == 2.25 and math.type(o.f) == "float")
end
local st = tostring(s)
assert(st:find("0:o=0.5;", 1, true) or st:find("0:o=2;", 1, true), st)
assert(st:find(" f=2.25;", 1, true), "the float location prints as a " ..
       "number in the histogram too:\n" .. st)

-- r:json(): the histogram as JSON, values in their types
local sj = s:json()
assert(sj:find('^{"test": "fadd", '), sj)
assert(sj:find('"runs": 200, "hung": 0, "partial": false', 1, true), sj)
assert(sj:find('"variables": ["0:o", "0:n", "1:p", "f"]', 1, true), sj)
assert(sj:find('"f": 2.25}, "count": ', 1, true), sj)
assert(sj:find('"0:o": 0.5, ', 1, true) or sj:find('"0:o": 2, ', 1, true),
       sj)
assert(sj == s:json(), "the same text again")
local ok0, e0 = pcall(s.json, {})
assert(not ok0 and e0:find("not a sample result"), e0)

-- one name, two types: an error naming the result and both types
t = wl.litmus {
  init = { x = 0 },
  { at = "cta0", fn = function(d)
      if d:load("x") == 0 then return { v = 1 } end
      return { v = 1.5 }
    end },
  { at = "cta1", fn = function(d) d:store("x", 1) end },
}
local ok, err = pcall(t.explore, t)
assert(not ok and err:find("result 'v' of P0 is an int64 in one trace and " ..
                           "a double in another", 1, true), err)
-- a result of another kind names the function's line
local line = debug.getinfo(1, "l").currentline + 2
t = wl.litmus { init = { x = 0 },
  function(d) return { o = "one" } end }
ok, err = pcall(t.explore, t)
assert(not ok and err:find(":" .. line .. ": the function of P0 returned " ..
       "string for result 'o' (results are numbers or booleans)", 1, true),
       err)
print("float_results: ok")
