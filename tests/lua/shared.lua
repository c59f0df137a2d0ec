-- Shared memory exists once per block: threads of one CTA communicate
-- through it as through global memory; threads of two CTAs cannot both
-- use one shared location (an error naming both accesses).
local wl = require "warplab"

-- MP through shared memory inside one block, with __syncthreads()
local t = wl.litmus {
  name = "MP-shared",
  shared = { s = 0, buf = { 0, 0 } },
  { at = "cta0", fn = function(d) d.buf[1] = 7; d:syncthreads() end },
  { at = "cta0", fn = function(d) d:syncthreads(); return { v = d.buf[1] } end },
  forall = "1:v == 7",
}
local r = t:explore()
assert(r.ok and r.nstates == 1, "the barrier orders the shared accesses")

-- the same location from two blocks: an error, with both lines
local bad = wl.litmus {
  name = "shared-two-blocks",
  shared = { s = 0 },
  { at = "cta0", fn = function(d) d.s = 1 end },
  { at = "cta1", fn = function(d) return { v = d.s } end },
}
local ok, err = pcall(bad.explore, bad)
assert(not ok, "two blocks on one shared location must fail")
err = tostring(err)
assert(err:find("shared location 's' is used by P0 (CTA 0, line 21) and P1 (CTA 1, line 22)", 1, true), err)

-- PTX-string threads are checked too
local bad2 = wl.litmus {
  name = "shared-strings",
  shared = { s = 0 },
  { at = "cta0", "st.weak s, 1" },
  { at = "cta1", "ld.weak r0, s" },
}
ok, err = pcall(bad2.explore, bad2)
assert(not ok and tostring(err):find("shared location 's'", 1, true), tostring(err))

-- global memory is fine across blocks
local good = wl.litmus {
  init = { g = 0 },
  { at = "cta0", fn = function(d) d.g = 1 end },
  { at = "cta1", fn = function(d) return { v = d.g } end },
}
assert(good:explore().nstates == 2)
print("shared: ok")
