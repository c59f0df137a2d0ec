-- Results as values: states, herd text, JSON, witnesses naming script
-- lines; wl.load on conformance files; the corpus helper.
local wl = require "warplab"
local SHARED = arg[1] or os.getenv("WARPLAB_SHARED") or "../shared"
local here = debug.getinfo(1, "S").short_src

-- herd text equals what `warplab litmus` prints for the same file
local t = wl.load("scripts/litmus/MP.litmus")
assert(t.name == "MP" and t.nthreads == 2)
local r = t:explore()
local herd = r:herd(0)
assert(herd:find("^Test MP Allowed\nStates 3\n"), herd)
assert(herd:find("Time MP 0.00", 1, true), herd)
assert(tostring(r):find("Observation MP Never 0 3", 1, true))
assert(r.ok == false and r.verdict == 0 and r.positive == 0 and
       r.negative == 3 and r.nstates == 3 and r.bound_hit == false)
assert(#r == 3 and #r.states == 3)
local n = 0
for i, s in r:states() do
  n = n + 1
  assert(s == r.states[i] and s[2].r0 == s["1:r0"] and s.count >= 1)
  assert(s.sat == false)
end
assert(n == 3)
local json = r:json(0)
assert(json:find('"test": "MP"', 1, true) and json:find('"ok": false', 1, true))

-- the same test written in Lua: witness events carry the script lines
local L0 = debug.getinfo(1, "l").currentline
t = wl.litmus {
  name = "MP",
  init = { x = 0, y = 0 },
  function(d)
    d.x = 1                                -- L0 + 5
    d:store("y", 1, "release", "gpu")      -- L0 + 6
  end,
  function(d)
    local a = d:load("y", "acquire", "gpu") -- L0 + 9
    local b = d.x                           -- L0 + 10
    return { r0 = a, r1 = b }
  end,
  exists = "1:r0 == 1 /\\ 1:r1 == 0",
}
r = t:explore()
assert(r.nstates == 3 and not r.ok)
for i = 1, r.nstates do
  local w = r:witness(i)
  local s = r.states[i]
  local seen = {}
  for id, e in ipairs(w.events) do
    assert(e.id == id)
    assert(e.kind == "R" or e.kind == "W" or e.kind == "F" or e.kind == "B")
    if e.thread >= 0 then
      seen[#seen + 1] = string.format("%d %s %s %d %s", e.thread, e.kind,
                                      e.loc, e.line - L0, e.sem)
    else
      assert(e.init and e.kind == "W" and e.value == 0)
    end
  end
  local got = table.concat(seen, ", ")
  assert(got == "0 W x 5 weak, 0 W y 6 release, 1 R y 9 acquire, 1 R x 10 weak",
         got)
  -- rf edges: each read reads a write of its location with its value
  local reads = 0
  for _, e in ipairs(w.rf) do
    local wr, rd = w.events[e.from], w.events[e[2]]
    assert(wr.kind == "W" and rd.kind == "R" and wr.loc == rd.loc and
           wr.value == rd.value and rd.rf == e.from, "rf edge")
    reads = reads + 1
  end
  assert(reads == 2)
  -- the reads' values are the state's
  for _, e in ipairs(w.events) do
    if e.kind == "R" and e.loc == "y" then assert(e.value == s["1:r0"]) end
    if e.kind == "R" and e.loc == "x" then assert(e.value == s["1:r1"]) end
  end
  -- co: initial write then the store, per location; fr from reads of 0
  assert(#w.co == 2, "co")
  for _, e in ipairs(w.co) do
    assert(w.events[e.from].init and w.events[e.to].thread == 0)
  end
  for _, e in ipairs(w.fr) do
    assert(w.events[e.from].kind == "R" and w.events[e.from].value == 0)
  end
  assert(type(w.sync) == "table")
end
assert(r:witness(1).events[1].scope == nil)
local ok, err = pcall(r.witness, r, 4)
assert(not ok and err:find("no state 4", 1, true), err)

-- sync edges: fence-SC order and barrier phases
r = wl.litmus {
  init = { x = 0, y = 0 },
  { at = "cta0", fn = function(d) d:threadfence(); d:syncthreads() end },
  { at = "cta0", fn = function(d) d:threadfence(); d:syncthreads() end },
}:explore()
local w = r:witness(1)
local kinds = {}
for _, e in ipairs(w.sync) do kinds[e.kind] = (kinds[e.kind] or 0) + 1 end
assert(kinds.sc == 1 and kinds.bar == 2,
       "sync: sc=" .. tostring(kinds.sc) .. " bar=" .. tostring(kinds.bar))

-- wl.load on conformance files, verdicts against Dat3M's expectations
local C = SHARED .. "/conformance/dat3m"
local csv = io.open(C .. "/expected/PTXv6_0-expected.csv")
if csv then
  local want, count = {}, 0
  for line in csv:lines() do
    local p, v = line:match("^litmus/PTX/(.-),([01])$")
    if p then want[p] = v == "1" end
  end
  csv:close()
  for _, p in ipairs { "Nvidia/MP-cta-gpu.litmus", "Nvidia/SB-cta.litmus",
                       "Nvidia/Atom-SB.litmus",
                       "Nvidia/Release-acquire-pattern.litmus" } do
    if want[p] ~= nil then
      local tt = wl.load(C .. "/PTX/" .. p)
      local rr = tt:explore()
      assert(rr.ok == want[p], p .. ": verdict differs from Dat3M")
      count = count + 1
    end
  end
  assert(count >= 3, "conformance files not found")
  -- the corpus helper over a folder, with the CSV as expectations
  local res = wl.corpus(C .. "/PTX/Nvidia", {
    filter = "/Nvidia/[^/]+%.litmus$",
    expected = C .. "/expected/PTXv6_0-expected.csv" })
  assert(#res >= 5 and res.nerrors == 0, tostring(res))
  assert(res.nexpected >= 5 and res.nmatch == res.nexpected, tostring(res))
else
  print("results: conformance corpus not found under " .. SHARED)
end

-- the corpus helper over the tour, printable
local res = wl.corpus("scripts/litmus")
assert(#res >= 10 and res.nerrors == 0, tostring(res))
local text = tostring(res)
assert(text:find("MP +No", 1) and text:find("tests: ", 1, true), text)
for _, row in ipairs(res) do
  assert(row.file and row.name and type(row.ok) == "boolean")
end
-- a list with a broken file reports the error in its row
local bad = os.tmpname()
local f = assert(io.open(bad, "w")); f:write("PTX x\n{ }\n garbage\n"); f:close()
res = wl.corpus({ "scripts/litmus/SB.litmus", bad })
os.remove(bad)
assert(res.nerrors == 1 and res[2].error and res[1].ok ~= nil, tostring(res))

assert(here)
print("results: ok")
