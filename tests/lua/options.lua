-- Every options table of the module is checked against its known keys:
-- a misspelt key is an error naming it and the nearest valid key, and a
-- bad enum value names its option (not a negative argument number).
local wl = require "warplab"

local function fails(pattern, f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, "expected an error matching " .. pattern)
  err = tostring(err)
  assert(err:find(pattern, 1, true),
         "error\n  " .. err .. "\nlacks\n  " .. pattern)
  return err
end

local dev = wl.device "sm_90"
local k = wl.kernel(function(c) end)
-- launch{grd = 4} used to run one block; shared_mem was dropped
fails("launch: unknown option 'grd' (did you mean 'grid'?)",
      dev.launch, dev, k, { grd = 4, block = 32 })
fails("launch: unknown option 'shared_mem' (did you mean 'shared'?)",
      dev.launch, dev, k, { grid = 1, block = 32, shared_mem = 64 })
fails("launch: unknown option 'max_step' (did you mean 'max_steps'?)",
      dev.launch, dev, k, { grid = 1, block = 32, max_step = 64 })
fails("block: unknown option 'w' (did you mean", dev.launch, dev, k,
      { grid = 1, block = { x = 32, w = 2 } })
-- enums name their option
local e = fails("launch: option 'profile': invalid profile 'bogus'",
                dev.launch, dev, k, { grid = 1, block = 32,
                                      profile = "bogus" })
assert(not e:find("#-", 1, true), e)
e = fails("occupancy: option 'cache': invalid cache 'prefer_none' "
          .. "(expected \"none\"", dev.occupancy, dev,
          { block = 32, cache = "prefer_none" })
assert(not e:find("#-", 1, true) and not e:find("'?'", 1, true), e)
fails("occupancy: unknown option 'thread' (did you mean", dev.occupancy, dev,
      { block = 32, thread = 1 })
fails("wl.kernel: option 'cache': invalid cache 'l1'", dev.launch, dev,
      wl.kernel(function() end, { cache = "l1" }), { grid = 1, block = 1 })
fails("wl.kernel: unknown option 'static_shard' (did you mean "
      .. "'static_shared'?)", wl.kernel, function() end, { static_shard = 8 })
fails("wl.device: unknown option 'bank' (did you mean 'banks'?)",
      wl.device, { bank = 16 })
fails("dev:sample: unknown option 'condtion' (did you mean 'condition'?)",
      dev.sample, dev, { run = function() return 1 end, condtion = print })
-- litmus tests, explore, sample
fails("wl.litmus: unknown option 'nmae' (did you mean 'name'?)", wl.litmus,
      { nmae = "x", { "st.weak x, 1" } })
fails("wl.litmus: thread 1: unknown option 'ta' (did you mean 'at'?)",
      wl.litmus, { { ta = "cta0", "st.weak x, 1" } })
fails("wl.litmus: thread 1: at: unknown option 'ctaa' (did you mean 'cta'?)",
      wl.litmus, { { at = { ctaa = 1 }, "st.weak x, 1" } })
local t = wl.litmus { init = { x = 0 }, { "st.weak x, 1" } }
fails("explore: unknown option 'unrol' (did you mean 'unroll'?)", t.explore,
      t, { unrol = 2 })
fails("sample: unknown option 'jbos' (did you mean 'jobs'?)", t.sample, t,
      { jbos = 2 })
fails("wl.bank_access: unknown option 'widht' (did you mean 'width'?)",
      wl.bank_access, { offsets = { 0 }, widht = 4 })
fails("wl.heatmap: unknown option 'titel' (did you mean 'title'?)",
      wl.heatmap, { offsets = { 0 } }, { titel = "x" })
fails("wl.heatmap_svg: unknown option 'cells' (did you mean 'cell'?)",
      wl.heatmap_svg, { offsets = { 0 } }, { cells = 3 })
fails("wl.corpus: unknown option 'filtre' (did you mean 'filter'?)",
      wl.corpus, {}, { filtre = "x" })
-- well-spelt options still work
assert(dev:launch(k, { grid = { 2, y = 1 }, block = 32, shared = 64,
                       profile = "h100", cache = "prefer_l1" }))
print("options ok")
