-- Undefined behaviour and hangs found by the explorer (issue 12): r.race
-- and r.hang as tables, checks = false, the if/else with a
-- __syncthreads() in each branch as a litmus test, and two properties
-- over generated tests: a test whose every access is morally strong
-- never races; the same shapes with weak accesses always race.
local wl = require "warplab"

local function check(cond, msg) if not cond then error(msg, 2) end end

-- MP with a release/acquire flag still races on x: the execution that
-- reads y == 0 reads x with nothing ordering it after the store
local mp = wl.litmus { name = "MP+ra", init = { x = 0, y = 0 },
  { at = "cta0", "st.weak x, 1", "st.release.gpu y, 1" },
  { at = "cta1", "ld.acquire.gpu r0, y", "ld.weak r1, x" },
  exists = "1:r0 == 1 /\\ 1:r1 == 0" }
local r = mp:explore()
check(r.ok == false, "MP+ra: the weak outcome is forbidden")
check(type(r.race) == "table", "MP+ra races")
check(r.race.location == "x", "on x")
local w, rd = r.race[1], r.race[2]
check(w.name == "P0" and w.kind == "W" and w.sem == "weak" and w.value == 1,
      "the store first")
check(rd.name == "P1" and rd.kind == "R" and rd.event == 1, "then the load")
check(w.line == 12 and rd.line == 12, "lines of the script: " .. w.line)
check(r.hang == false, "MP has no loop: no hang")
local off = mp:explore { checks = false }
check(off.race == nil and off.hang == nil, "checks = false: not searched")

-- every access morally strong (relaxed.gpu, one GPU): no race
local mpr = wl.litmus { name = "MP+rlx", init = { x = 0, y = 0 },
  { at = "cta0", "st.relaxed.gpu x, 1", "st.relaxed.gpu y, 1" },
  { at = "cta1", "ld.relaxed.gpu r0, y", "ld.relaxed.gpu r1, x" } }
check(mpr:explore().race == false, "morally strong accesses never race")
-- cta scope across CTAs is not morally strong: a race again
local mpc = wl.litmus { name = "MP+rlx.cta", init = { x = 0, y = 0 },
  { at = "cta0", "st.relaxed.cta x, 1", "st.relaxed.gpu y, 1" },
  { at = "cta1", "ld.relaxed.gpu r0, y", "ld.relaxed.cta r1, x" } }
check(mpc:explore().race.location == "x", "cta scope across CTAs races")
-- a barrier orders the pair: no race
local bar = wl.litmus { name = "MP+bar", init = { x = 0 },
  { at = "cta0", "st.weak x, 1", "bar.sync 0" },
  { at = "cta0", "bar.sync 0", "ld.weak r0, x" } }
check(bar:explore().race == false, "bar.sync orders the weak pair")

-- a weak flag polled in a loop: a race and a possible hang
local spin = wl.litmus { name = "spin", init = { f = 0, x = 0 },
  { at = "cta0", "st.weak x, 1", "st.weak f, 1" },
  { at = "cta1", "LC0:", "ld.weak r0, f", "beq r0, 0, LC0",
    "ld.weak r1, x" } }
local rs = spin:explore()
check(rs.race, "a weak flag races")
check(rs.hang == false, "the flag's store is the last write: no hang")
-- the writer resets the flag: the reader may read 0 forever
local spin2 = wl.litmus { name = "spin2", init = { f = 0 },
  { at = "cta0", "st.relaxed.gpu f, 1", "st.relaxed.gpu f, 0" },
  { at = "cta1", "LC0:", "ld.relaxed.gpu r0, f", "beq r0, 0, LC0" } }
local h = spin2:explore().hang
check(type(h) == "table" and h.kind == "spin" and h.name == "P1",
      "a hang in P1")
check(h.reads[1].location == "f" and h.reads[1].value == 0, "reading f=0")
check(h.threads[1].status == "ends" and h.threads[2].status == "spins",
      "P0 ends, P1 spins")
-- a barrier too few threads reach
local q = wl.litmus { name = "quorum", init = { x = 0 },
  { at = "cta0", "bar.cta.sync 1, 1, 3" },
  { at = "cta0", "bar.cta.sync 1, 1, 3" } }
local hq = q:explore().hang
check(hq.kind == "barrier" and hq.barrier == 1, "a barrier hang")

-- the if/else with a __syncthreads() in each branch, one function for
-- both threads: barrier divergence, naming both lines
local function body(d)
  if d.threadIdx.x == 0 then
    d.x = 1
    d:syncthreads()                                   -- line 75
  else
    d:syncthreads()                                   -- line 77
    return { r = d.x }
  end
end
local div = wl.litmus { name = "ifelse", init = { x = 0 },
  { at = "cta0", fn = body }, { at = "cta0", fn = body } }
local ok, err = pcall(div.explore, div)
check(not ok, "divergent if/else must be an error")
err = tostring(err)
check(err:find("ub_explore.lua:75: barrier divergence", 1, true), err)
check(err:find("reached by P0; not by P1 at line 77", 1, true), err)
-- the same function with its barrier outside the if: fine
local function body2(d)
  if d.threadIdx.x == 0 then d.x = 1 end
  d:syncthreads()
  if d.threadIdx.x == 1 then return { r = d.x } end
end
local conv = wl.litmus { name = "conv", init = { x = 0 },
  { at = "cta0", fn = body2 }, { at = "cta0", fn = body2 } }
local rc = conv:explore()
check(rc.race == false and rc.hang == false and rc.nstates == 1,
      "a convergent barrier orders the pair")

-- properties over generated tests: the classic shapes, each under
-- relaxed.gpu annotations on one GPU (every pair morally strong) and
-- under weak ones (no pair is)
local n = 0
for _, fam in ipairs { "MP", "SB", "LB", "S", "R", "2+2W", "WRC", "IRIW" } do
  for _, pl in ipairs { "cta", "gpu" } do
    local strong = wl.gen { family = fam, annotations = "rlx", scopes = "gpu",
                            placements = pl }
    for i, text in ipairs(strong) do
      local t = wl.parse(text, fam .. "-rlx-" .. pl .. "-" .. i)
      local res = t:explore()
      check(res.race == false, fam .. " (relaxed.gpu) must not race:\n" ..
            text)
      n = n + 1
    end
    local weak = wl.gen { family = fam, annotations = "weak",
                          placements = pl }
    for i, text in ipairs(weak) do
      local t = wl.parse(text, fam .. "-weak-" .. pl .. "-" .. i)
      local res = t:explore()
      check(type(res.race) == "table", fam .. " (weak) must race:\n" .. text)
      check(res.hang == false, fam .. " has no loop")
      n = n + 1
    end
  end
end
check(n >= 32, "generated tests checked: " .. n)
print("ok", n)
