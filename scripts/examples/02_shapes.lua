-- The classic shapes with fences of each scope, threads in one block or
-- in different blocks: which weak outcomes does PTX allow?
local wl = require "warplab"

-- Each shape: threads as instruction lists with FENCE where a fence goes,
-- and the weak outcome.  Accesses are volatile (relaxed.sys), as in
-- CUDA code that uses volatile for inter-thread communication.
local shapes = {
  MP = { { "st.volatile x, 1", "FENCE", "st.volatile y, 1" },
         { "ld.volatile r0, y", "FENCE", "ld.volatile r1, x" },
         weak = "1:r0 == 1 /\\ 1:r1 == 0" },
  SB = { { "st.volatile x, 1", "FENCE", "ld.volatile r0, y" },
         { "st.volatile y, 1", "FENCE", "ld.volatile r0, x" },
         weak = "0:r0 == 0 /\\ 1:r0 == 0" },
  LB = { { "ld.volatile r0, x", "FENCE", "st.volatile y, 1" },
         { "ld.volatile r0, y", "FENCE", "st.volatile x, 1" },
         weak = "0:r0 == 1 /\\ 1:r0 == 1" },
  IRIW = { { "st.volatile x, 1" },
           { "ld.volatile r0, x", "FENCE", "ld.volatile r1, y" },
           { "st.volatile y, 1" },
           { "ld.volatile r0, y", "FENCE", "ld.volatile r1, x" },
           weak = "1:r0 == 1 /\\ 1:r1 == 0 /\\ 3:r0 == 1 /\\ 3:r1 == 0" },
  CoRR = { { "st.volatile x, 1" },
           { "ld.volatile r0, x", "FENCE", "ld.volatile r1, x" },
           weak = "1:r0 == 1 /\\ 1:r1 == 0" },
}
local order = { "MP", "SB", "LB", "IRIW", "CoRR" }
local fences = { { "none", nil }, { "block", "fence.sc.cta" },
                 { "device", "fence.sc.gpu" }, { "system", "fence.sc.sys" } }

local function build(name, shape, fence, same_block)
  local spec = { name = name, init = { x = 0, y = 0 },
                 exists = shape.weak }
  for i, thread in ipairs(shape) do
    local t = { at = same_block and "cta0" or ("cta" .. (i - 1)) }
    for _, ins in ipairs(thread) do
      if ins ~= "FENCE" then t[#t + 1] = ins
      elseif fence then t[#t + 1] = fence end
    end
    spec[#spec + 1] = t
  end
  return wl.litmus(spec)
end

-- What the PTX 6.0 model says (the table below is checked against it).
local expected = {
  MP = { one = "aFFF", two = "aaFF" }, SB = { one = "aFFF", two = "aaFF" },
  LB = { one = "aFFF", two = "aaFF" }, IRIW = { one = "aFFF", two = "aaFF" },
  CoRR = { one = "FFFF", two = "FFFF" },
}

print("weak outcome: a = allowed, F = forbidden")
print(("%-6s %-11s %s"):format("shape", "placement",
      "none  __threadfence_block  __threadfence  __threadfence_system"))
for _, name in ipairs(order) do
  for _, same in ipairs({ true, false }) do
    local got = {}
    for _, f in ipairs(fences) do
      local r = build(name, shapes[name], f[2], same):explore()
      got[#got + 1] = r.ok and "a" or "F"
    end
    local row = table.concat(got)
    print(("%-6s %-11s %s     %s                    %s              %s"):format(
      name, same and "one block" or "two blocks", got[1], got[2], got[3], got[4]))
    assert(row == expected[name][same and "one" or "two"],
           name .. ": unexpected row " .. row)
  end
end
print([[

Fences order a thread's accesses only for threads inside the fence's
scope: __threadfence_block() works within a block, __threadfence() across
the GPU. CoRR never shows its weak outcome: volatile (relaxed) accesses to
one location are coherent on their own.]])
