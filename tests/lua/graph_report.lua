-- r:graph(i), r:whynot([model]) and wl.report{...} from Lua (issue 14).
local wl = require "warplab"

local function mp(scope)
  return wl.litmus {
    name = "MP+fence." .. scope,
    init = { x = 0, y = 0 },
    { at = "cta0", "st.weak x, 1", "fence.sc." .. scope, "st.relaxed.gpu y, 1" },
    { at = "cta1", "ld.relaxed.gpu r0, y", "fence.sc." .. scope,
      "ld.weak r1, x" },
    exists = "1:r0 == 1 /\\ 1:r1 == 0",
  }
end

-- across CTAs, fence.sc.cta: allowed, and the graph closes the cycle
local r = mp("cta"):explore()
assert(r.ok)
local found
for i, s in ipairs(r.states) do
  if s.sat then found = i end
end
local dot = r:graph(found)
assert(dot:find('digraph execution', 1, true))
assert(dot:find('id="hl_fr_', 1, true), "the fr edge is highlighted")
assert(dot:find('ld.weak r1, x = 0', 1, true), "instruction, value")
assert(dot:find('fence.sc.cta', 1, true))
assert(not pcall(r.graph, r, 99), "state out of range")
assert(r:whynot().status == "allowed")

-- fence.sc.gpu: forbidden; the explanation names the axiom
local r2 = mp("gpu"):explore()
assert(not r2.ok)
local w = r2:whynot()
assert(w.status == "forbidden" and w.check == "axiom-Causality", w.check)
assert(w.text:find("forbidden by axiom-Causality", 1, true), w.text)
assert(w.dot:find('id="hl_sc_', 1, true), "the fence-SC edge of the cycle")
assert(w.json:find('"check": "axiom-Causality"', 1, true))
-- the same with the model given
assert(r2:whynot(wl.model "ptx-v6.0-isa.cat").check == "axiom-Causality")

-- a callback thread (Lua function) explains the same way
local t = wl.litmus {
  name = "XY+threadfence", init = { X = 1, Y = 2 },
  { at = "cta0", fn = function(d) d.X = 10; d:threadfence(); d.Y = 20 end },
  { at = "cta1", fn = function(d)
      local B = d.Y; d:threadfence(); local A = d.X
      return { A = A, B = B }
    end },
  exists = "1:A == 1 /\\ 1:B == 20",
}
local r3 = t:explore()
assert(r3:whynot().check == "axiom-Causality")

-- the report page, from a test
local out = os.tmpname()
local html = wl.report { mp("gpu"), mp("cta"), output = out, runs = 50,
                         title = "two MPs" }
local f = assert(io.open(out))
assert(f:read("a") == html)
f:close()
os.remove(out)
assert(html:find("<title>two MPs</title>", 1, true))
assert(html:find('class="states"', 1, true))
assert(html:find('<svg class="wl-hist"', 1, true))
assert(html:find("why not: axiom-Causality", 1, true))
assert(select(2, html:gsub('<section class="test"', "")) == 2)
-- the explorer's findings: in the executions where the load of y misses
-- the flag, nothing orders the weak pair on x, whatever the fence (a race
-- in both tests)
assert(select(2, html:gsub("data race on 'x': P0 writes 1", "")) == 2, html)
-- a lock never released: the other thread may spin forever
local dead = wl.litmus { name = "dead", init = { m = 0 },
  { at = "cta0", "LC0:", "atom.acquire.gpu.exch r0, m, 1", "bne r0, 0, LC0" },
  { at = "cta1", "LC1:", "atom.acquire.gpu.exch r0, m, 1", "bne r0, 0, LC1" } }
local hd = wl.report { dead, runs = 10 }
assert(hd:find("possible hang: P%d can spin forever at line %d+, reading m=1"),
       hd)
assert(not pcall(wl.report, { 42 }))
print("ok")
