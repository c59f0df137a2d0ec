-- A Lua predicate as the condition: the verdict, the counts and the herd
-- and JSON text all follow it.
local wl = require "warplab"
local function mp(cond)
  return wl.litmus { name = "MP-pred", init = { x = 0, y = 0 },
    { "st.weak x, 1", "st.weak y, 1" },
    { at = "cta1", "ld.weak r0, y", "ld.weak r1, x" },
    condition = cond }
end
local r = mp(function(s) return s["1:r0"] == 1 and s["1:r1"] == 0 end):explore()
assert(r.ok and r.positive == 1 and r.negative == 3, "exists-style predicate")
local text = tostring(r)
assert(text:find("\nOk\n", 1, true), text)
assert(text:find("Positive: 1 Negative: 3", 1, true), text)
assert(text:find("Condition exists (a Lua predicate)", 1, true), text)
assert(r:json():find('"ok": true', 1, true))
-- forall with a predicate: fails when some state violates it
r = mp({ forall = function(s) return s["1:r0"] <= s["1:r1"] end }):explore()
assert(not r.ok, "forall fails: r0=1, r1=0 is reachable")
assert(tostring(r):find("\nNo\n", 1, true))
assert(tostring(r):find("Condition forall (a Lua predicate)", 1, true))
print("predicate: ok")
