-- The threadfence reduction (CUDA Programming Guide, "Memory Fence
-- Functions"): each block writes its partial sum, executes
-- __threadfence(), and takes a ticket with atomicInc; the block that gets
-- the last ticket sums the partials.  Can it read a stale partial?
local wl = require "warplab"

local PARTIAL = { 3, 4 }   -- block 0 writes 3, block 1 writes 4: total 7

-- placement: "none", "before" (the Guide's: fence before atomicInc in
-- every block) or "both" (also a fence in the last block after its
-- atomicInc, before it reads the partials)
local function reduction(placement)
  local function block(b)
    return function(d)
      d.partial[b] = PARTIAL[b + 1]
      if placement ~= "none" then d:threadfence() end
      local ticket = d:atomicInc("count", d.gridDim.x - 1)
      if ticket ~= d.gridDim.x - 1 then return { last = 0, sum = 0 } end
      if placement == "both" then d:threadfence() end
      return { last = 1, sum = d.partial[0] + d.partial[1] }
    end
  end
  return wl.litmus {
    name = "reduction+" .. placement,
    init = { partial = { 0, 0 }, count = 0 },
    { at = "cta0", fn = block(0) },
    { at = "cta1", fn = block(1) },
    -- the stale-sum outcome: the last block's sum is not 7
    condition = function(s)
      return (s["0:last"] == 1 and s["0:sum"] ~= 7) or
             (s["1:last"] == 1 and s["1:sum"] ~= 7)
    end,
  }
end

local function sums(r)
  local seen, out = {}, {}
  for _, s in ipairs(r.states) do
    for b = 0, 1 do
      if s[b .. ":last"] == 1 and not seen[s[b .. ":sum"]] then
        seen[s[b .. ":sum"]] = true
        out[#out + 1] = s[b .. ":sum"]
      end
    end
  end
  table.sort(out)
  return table.concat(out, ", ")
end

local expect = { none = true, before = true, both = false }
for _, p in ipairs({ "none", "before", "both" }) do
  local r = reduction(p):explore()
  print(("%-7s stale sum %-9s sums the last block can compute: %s"):format(
    p, r.ok and "possible" or "forbidden", sums(r)))
  assert(r.ok == expect[p], "unexpected verdict for " .. p)
end
print([[

Without a fence the last block can sum a stale partial.  With the Guide's
single __threadfence() before atomicInc, PTX 6.0 still allows it: the
writer's fence orders its partial before its ticket, but the last block
has nothing that orders its own ticket before its reads of the partials
(loads may be performed early; a control dependency does not order them).
A second __threadfence() in the last block, after atomicInc, completes
the fence-fence synchronisation and the stale sum disappears.]])
