-- A flag with cuda::atomic-style operations: the producer writes data and
-- releases the flag, the consumer acquires the flag and reads the data.
local wl = require "warplab"

local function flag(store_order, load_order)
  return wl.litmus {
    name = ("flag(%s/%s)"):format(store_order, load_order),
    init = { data = 0, flag = 0 },
    { at = "cta0", fn = function(d)
        d.data = 42
        d:atomic_store("flag", 1, store_order, "gpu")
      end },
    { at = "cta1", fn = function(d)
        local f = d:atomic_load("flag", load_order, "gpu")
        local v = d.data
        return { f = f, v = v }
      end },
    exists = "1:f == 1 /\\ 1:v == 0",
  }
end

print("producer: data = 42; flag.store(1, S)   consumer: f = flag.load(L); v = data")
local cases = {
  { "relaxed", "relaxed", true }, { "release", "relaxed", true },
  { "relaxed", "acquire", true }, { "release", "acquire", false },
  { "seq_cst", "seq_cst", false },
}
for _, c in ipairs(cases) do
  local r = flag(c[1], c[2]):explore()
  print(("store %-8s load %-8s  f=1 but v=0: %s"):format(c[1], c[2],
        r.ok and "possible" or "forbidden"))
  assert(r.ok == c[3], "unexpected verdict")
end
print([[

Only a release store observed by an acquire load (or seq_cst on both
sides) makes the data visible with the flag.]])
