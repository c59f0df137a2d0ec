-- test:explore{jobs = N}: one exploration split into units on N workers
-- of libuv's pool (bindings/lexplore.c), merged in unit order: the JSON
-- (every state in order, its witness, counts, verdict, race and hang)
-- and the herd text are those of the plain exploration for N = 1, 2, 4.
local wl = require "warplab"

-- the last-block-done reduction of 5 blocks (bench/idioms.sh's): each
-- block stores its partial, fences, takes a ticket; the last sums
local function lastblock(n)
  local rows, cols = {}, {}
  for i = 0, n - 1 do
    local c = { "st.weak p" .. i .. ", 1", "fence.sc.gpu",
                "atom.relaxed.gpu.inc r0, ticket, " .. (n - 1),
                "bne r0, " .. (n - 1) .. ", LC" .. i .. "9",
                "fence.sc.gpu", "mov r1, 0" }
    for j = 0, n - 1 do
      c[#c + 1] = "ld.weak r2, p" .. j
      c[#c + 1] = "add r1, r1, r2"
    end
    c[#c + 1] = "st.weak sum, r1"
    c[#c + 1] = "LC" .. i .. "9:"
    cols[i + 1] = c
  end
  local init, head = { "ticket=0; sum=0;" }, {}
  for i = 0, n - 1 do
    init[#init + 1] = "p" .. i .. "=0;"
    head[#head + 1] = "P" .. i .. "@cta " .. i .. ",gpu 0"
  end
  rows[1] = "PTX lastblock_" .. n
  rows[2] = "{ " .. table.concat(init, " ") .. " }"
  rows[3] = table.concat(head, " | ") .. " ;"
  for k = 1, #cols[1] do
    local r = {}
    for i = 1, n do r[i] = cols[i][k] end
    rows[#rows + 1] = table.concat(r, " | ") .. " ;"
  end
  rows[#rows + 1] = "exists (sum != " .. n .. ")"
  return table.concat(rows, "\n") .. "\n"
end

local function same(t, opts, what)
  local plain = t:explore(opts)
  local pj, ph = plain:json(0), plain:herd(0)
  for _, n in ipairs { 1, 2, 4 } do
    local o = {}
    for k, v in pairs(opts) do o[k] = v end
    o.jobs = n
    local r = t:explore(o)
    assert(r:json(0) == pj, what .. ": jobs=" .. n .. ": the JSON differs")
    assert(r:herd(0) == ph, what .. ": jobs=" .. n .. ": the herd text differs")
    assert(r.nstates == plain.nstates and r.ok == plain.ok)
  end
  return plain
end

local lb = wl.parse(lastblock(5), "lastblock_5.litmus")
local r = same(lb, { observed_only = true }, "lastblock_5")
assert(r.nstates == 1 and r.ok == false, "lastblock_5: one state, No")
r = same(lb, { observed_only = false }, "lastblock_5 full")
assert(r.nstates > 1, "lastblock_5: every variable: more states")
same(wl.load("tests/props/reduce-atom2x2.litmus"),
     { count_executions = true }, "atom2x2 counted")

-- threads written as Lua functions run their units on this thread
local mp = wl.litmus {
  name = "MP+fn",
  init = { x = 0, y = 0 },
  { at = "cta0", fn = function(d) d.x = 1; d.y = 1 end },
  { at = "cta1", fn = function(d) local a = d.y; local b = d.x
      return { a = a, b = b } end },
  exists = "1:a == 1 /\\ 1:b == 0",
}
r = same(mp, {}, "MP+fn")
assert(r.ok == true, "MP without fences: the stale read is allowed")

-- a bad jobs names the option
local ok, err = pcall(lb.explore, lb, { jobs = 0 })
assert(not ok and err:find("explore: jobs must be an integer from 1 to 1024",
                           1, true), err)
ok, err = pcall(lb.explore, lb, { jobs = "two" })
assert(not ok and err:find("jobs must be", 1, true), err)
print("explore_jobs: ok")
