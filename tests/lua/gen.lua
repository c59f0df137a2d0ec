-- wl.gen{...}: litmus texts from the generator.  The same seed gives the
-- same tests; every test parses and explores; MP with release/acquire
-- at gpu scope across CTAs is forbidden, with weak accesses allowed;
-- bad options raise naming the option.
local wl = require "warplab"

-- a family: two annotations x one placement, in order, named
local tests, names = wl.gen { family = "MP", annotations = { "weak", "ra" },
                              scopes = "gpu", placements = "gpu" }
assert(#tests == 2 and #names == 2, #tests)
assert(names[1] == "MP_weak_gpu" and names[2] == "MP_ra.gpu_gpu", names[1])
assert(tests[2]:find("^PTX MP_ra.gpu_gpu\n"), tests[2])
assert(wl.parse(tests[1]):explore().ok, "MP with weak accesses: allowed")
assert(not wl.parse(tests[2]):explore().ok, "MP release/acquire: forbidden")

-- a cycle given as edges, with fences: SB+fence.sc.gpu is forbidden
local sb = wl.gen { cycle = "FenceScGpudWR Fre FenceScGpudWR Fre",
                    annotations = "rlx", scopes = "gpu", placements = "gpu" }
assert(#sb == 1)
assert(not wl.parse(sb[1]):explore().ok, sb[1])

-- every cycle up to 5 edges of a vocabulary explores
local all = wl.gen { edges = "Pod** Rfe Fre Coe DpCtrldW", max_size = 5,
                     annotations = "ra", scopes = "gpu", placements = "gpu" }
assert(#all > 50, #all)
for _, text in ipairs(all) do
  local r = wl.parse(text):explore { unroll = 1 }
  assert(r.nstates >= 1)
end

-- random programs: deterministic by seed, and they explore
local a = wl.gen { random = true, threads = 3, insns = 3, locs = 2,
                   count = 40, seed = 9 }
local b = wl.gen { random = true, threads = 3, insns = 3, locs = 2,
                   count = 40, seed = 9 }
local c = wl.gen { random = true, threads = 3, insns = 3, locs = 2,
                   count = 40, seed = 10 }
assert(#a == 40)
local same, differ = true, false
for i = 1, 40 do
  same = same and a[i] == b[i]
  differ = differ or a[i] ~= c[i]
  wl.parse(a[i]):explore { unroll = 1 }
end
assert(same and differ)

-- interchangeable threads: copies of one or two bodies, and they explore
local cp, cpn = wl.gen { copies = true, count = 20, seed = 4 }
assert(#cp == 20 and cpn[1] == "copies-s4-0", cpn[1])
for i = 1, 20 do wl.parse(cp[i]):explore() end
cp = wl.gen { copies = true, threads = 8, insns = 1, count = 5, seed = 1 }
for i = 1, 5 do
  assert(select(2, cp[i]:gsub("P%d@cta", "")) == 8, cp[i])
end
assert(#wl.gen { random = true } == 10, "default count 10")

-- sampling a family
local s, sn = wl.gen { family = "all", sample = true, count = 7, seed = 3 }
assert(#s == 7 and sn[7]:find("%-6$"), sn[7])

-- the classic shapes
local fam = wl.gen_families()
assert(fam.MP == "PodWW Rfe PodRR Fre" and fam.IRIW, fam.MP)

-- errors name the option
local function err(opts, want)
  local ok, msg = pcall(wl.gen, opts)
  assert(not ok, "expected an error: " .. want)
  assert(msg:find(want, 1, true), msg)
end
err({}, "give one of cycle, family, edges, random = true or copies = true")
err({ family = "MP", cycle = "Rfe" }, "give one of")
err({ family = "MQ" }, "'MQ' is not a family")
err({ family = "MP", placements = "gpx" },
    "invalid placements 'gpx' (expected cta, gpu, sys or mix)")
err({ family = "MP", annotations = { "weak", 3 } }, "invalid annotations")
err({ random = true, threads = 9 }, "wl_gen_opts.threads: 9 is not in 1..8")
err({ random = true, count = 0 }, "need a count of at least 1")
err({ random = true, seed = "x" }, "'seed' must be an integer")
err({ cycle = "PodWW Rfe DpAddrdR Fre" }, "address dependencies")
err({ cycle = "PodWR Fre" }, "two external edges")
print("gen.lua: ok")
