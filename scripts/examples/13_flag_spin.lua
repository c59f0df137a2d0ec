-- Message passing between blocks through a flag.  Block 0 writes a value
-- and raises a flag; block 1 spins until it sees the flag, then reads
-- the value.  Written with plain loads and stores, this is undefined
-- behaviour twice over: the flag's store and the loads polling it race
-- (and so do the value's store and load: nothing orders them), and the
-- compiler may read the flag once and spin forever.  The checkers
-- report the races and the possible hang.  With st.release / ld.acquire
-- (cuda::atomic_ref's store(release) / load(acquire)) they report
-- nothing.
local wl = require "warplab"

local function mp(kind)
  return wl.kernel(function(c, flag, data, out, work)
    if c.threadIdx.x ~= 0 then return end
    if c.blockIdx.x == 0 then
      for i = 0, 255 do work[i] = i end    -- some work first: block 1 polls
      data[0] = 42                                     -- DATA_ST
      if kind == "plain" then
        flag[0] = 1                                    -- FLAG_ST
      else
        c:atomic_store(flag, 0, 1, "release", "gpu")
      end
    else
      if kind == "plain" then
        while flag[0] == 0 do end                      -- FLAG_LD
      else
        while c:atomic_load(flag, 0, "acquire", "gpu") == 0 do end
      end
      out[0] = data[0]                                 -- DATA_LD
    end
  end, { name = "mp+" .. kind })
end
local DATA_ST, FLAG_ST, FLAG_LD, DATA_LD = 17, 19, 25, 29

local dev = wl.device { preset = "sm_90" }
local flag = dev:malloc("int32", 1, "flag")
local data = dev:malloc("int32", 1, "data")
local out = dev:malloc("int32", 1, "out")
local work = dev:malloc("int32", 256, "work")

local function run(kind)
  flag:write(0); data:write(0); out:write(0)
  local r = dev:launch(mp(kind), { grid = 2, block = 32, check = true },
                       flag, data, out, work)
  return r, out:read()[1]
end

local r, got = run("plain")
print("plain loads and stores:")
print(wl.findings_text(r.findings))
local function has(kind, name, l1, l2)
  for _, f in ipairs(r.findings) do
    if f.kind == kind and f.name == name and
       (l2 == nil or (f.a.line == l1 and f.b.line == l2) or
                     (f.a.line == l2 and f.b.line == l1)) and
       (l2 ~= nil or f.a.line == l1) then
      return f
    end
  end
end
local fr = has("race", "flag", FLAG_ST, FLAG_LD)
assert(fr, "the flag's store and the polling loads race")
assert(fr.a.block.x ~= fr.b.block.x, "between blocks")
assert(has("race", "data", DATA_ST, DATA_LD), "so do the data's")
assert(has("spin", "flag", FLAG_LD), "and the spin may never end")
print(("(this run ended with out = %d: the simulator rereads memory, a "
       .. "compiler need not)"):format(got))

r, got = run("release/acquire")
print()
print(("release/acquire: %d findings, out = %d"):format(#r.findings, got))
assert(#r.findings == 0 and got == 42, "the release/acquire version is clean")
