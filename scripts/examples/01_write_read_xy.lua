-- writeXY / readXY: one thread writes X = 10 then Y = 20, another reads
-- B = Y then A = X (the CUDA Programming Guide's memory-fence example).
-- Which (A, B) pairs can the reader see?
local wl = require "warplab"

local fences = {
  none = function() end,
  threadfence_block = function(d) d:threadfence_block() end,
  threadfence = function(d) d:threadfence() end,
}

local function xy(fence, same_block)
  local f = fences[fence]
  return wl.litmus {
    name = ("XY+%s(%s)"):format(fence, same_block and "one block" or "two blocks"),
    init = { X = 1, Y = 2 },
    { at = "cta0", fn = function(d) d.X = 10; f(d); d.Y = 20 end },
    { at = same_block and "cta0" or "cta1",
      fn = function(d)
        local B = d.Y
        f(d)
        local A = d.X
        return { A = A, B = B }
      end },
    exists = "1:A == 1 /\\ 1:B == 20",
  }
end

local function pairs_of(r)
  local out = {}
  for _, s in ipairs(r.states) do
    out[#out + 1] = ("(A=%d,B=%d)"):format(s["1:A"], s["1:B"])
  end
  table.sort(out)
  return table.concat(out, " ")
end

print("writeXY: X = 10; [fence]; Y = 20     readXY: B = Y; [fence]; A = X")
print("initially X = 1, Y = 2; the surprising outcome is A = 1, B = 20\n")
local expect = {
  -- fence, same block, A=1/B=20 possible
  { "none", false, true }, { "none", true, true },
  { "threadfence_block", false, true }, { "threadfence_block", true, false },
  { "threadfence", false, false }, { "threadfence", true, false },
}
for _, e in ipairs(expect) do
  local r = xy(e[1], e[2]):explore()
  print(("%-18s %-10s A=1,B=20 %-9s outcomes: %s"):format(
    e[1], e[2] and "one block" or "two blocks",
    r.ok and "possible" or "forbidden", pairs_of(r)))
  assert(r.ok == e[3], "unexpected verdict for " .. e[1])
  if e[1] == "none" then assert(r.nstates == 4, "all four outcomes") end
end
print([[

Without a fence all four outcomes happen. __threadfence() (fence.sc.gpu)
on both sides forbids A=1,B=20 whether the threads share a block or not;
__threadfence_block() (fence.sc.cta) only orders threads of one block.]])
