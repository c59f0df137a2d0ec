-- test:cuda{...}: the CUDA program of a test built in Lua, with the
-- harness settings as its defaults; bad settings and function threads
-- raise with the place named.
local wl = require "warplab"

local t = wl.litmus {
  name = "MP-lua", init = { x = 0, y = 0 },
  { at = "cta0", "st.weak x, 1", "fence.sc.gpu", "st.relaxed.gpu y, 1" },
  { at = "cta1", "ld.relaxed.gpu r0, y", "fence.sc.gpu", "ld.weak r1, x" },
  exists = "1:r0 == 1 /\\ 1:r1 == 0",
}
local src = t:cuda { blocks = 32, threads = 64, launches = 3, seed = 5 }
assert(type(src) == "string" and #src > 10000, "cuda: no text")
for _, want in ipairs {
  "st.weak.global.b32", "st.relaxed.gpu.global.b32", "fence.sc.gpu;",
  "ld.relaxed.gpu.global.b32", "ld.weak.global.b32",
  "#define DEF_BLOCKS 32", "#define DEF_THREADS 64",
  "#define DEF_LAUNCHES 3", "#define DEF_SEED 5ULL", "#define NGROUPS 2",
  'test_name = "MP-lua"',
} do
  assert(src:find(want, 1, true), "cuda: no '" .. want .. "'")
end
assert(t:cuda() == t:cuda {}, "cuda: not deterministic")
assert(t:cuda { shuffle = false }:find("#define DEF_SHUFFLE 0", 1, true))
-- sm=: the instances counted by the SMs their blocks ran on (%smid)
assert(src:find("#define DEF_SM 0", 1, true))
assert(src:find("mov.u32 %0, %%smid;", 1, true))
assert(t:cuda { sm = "same" }:find("#define DEF_SM 1", 1, true))
assert(t:cuda { sm = "different" }:find("#define DEF_SM 2", 1, true))
assert(t:cuda { sm = "any" } == t:cuda())
local ok, err = pcall(t.cuda, t, { sm = "near" })
assert(not ok and err:find("sm must be"), err)

-- delay=: the drawn start waits (the delay preset sets them)
assert(t:cuda { delay = 99 }:find("#define DEF_DELAY 99", 1, true))
assert(t:cuda { gap = 98 }:find("#define DEF_GAP 98", 1, true))
assert(t:cuda { harness = "delay" }:find("#define DEF_HARNESS 4", 1, true))
ok, err = pcall(t.cuda, t, { delay = -1 })
assert(not ok and err:find("delay must be an integer"), err)

ok, err = pcall(t.cuda, t, { blocks = 0 })
assert(not ok and err:find("blocks must be an integer"), err)
ok, err = pcall(t.cuda, t, { bogus = 1 })
assert(not ok and err:find("bogus"), err)

-- two GPUs: rounds= sets the two-GPU program's rounds per launch
local two = wl.litmus {
  name = "two", init = { x = 0, y = 0 },
  { at = "cta0,gpu0", "st.relaxed.sys x, 1", "st.relaxed.sys y, 1" },
  { at = "cta0,gpu1", "ld.relaxed.sys r0, y", "ld.relaxed.sys r1, x" },
}
local src = two:cuda { rounds = 9 }
assert(src:find("#define DEF_ROUNDS 9", 1, true))
assert(src:find("cudaDeviceEnablePeerAccess", 1, true))
ok, err = pcall(two.cuda, two, { rounds = 0 })
assert(not ok and err:find("rounds must be an integer"), err)
ok, err = pcall(two.cuda, two, { sm = "same" })
assert(not ok and err:find("several CTAs of one GPU"), err)
-- stream= writes the streaming program; the one-GPU harness's settings
-- are refused for a two-GPU test
local ss = two:cuda { stream = 300 }
assert(ss:find("#define DEF_STREAM 300", 1, true), "stream: K")
assert(ss:find("r_ld_flag", 1, true) and not ss:find("DEF_ROUNDS", 1, true))
ok, err = pcall(two.cuda, two, { harness = "sync" })
assert(not ok and err:find("setting of the one-GPU harness", 1, true), err)
ok, err = pcall(t.cuda, t, { stream = 5 })
assert(not ok and err:find("two GPUs"), err)

local f = wl.litmus {
  name = "fn", init = { x = 0 },
  function(d) d.x = 1 end,
  { at = "cta1", fn = function(d) return { r0 = d.x } end },
}
ok, err = pcall(f.cuda, f)
assert(not ok and err:find("function thread"), err)
-- hostile names (issue 20, item 2): a name that holds */, a newline, a
-- quote, %n, backslashes, ??/ and bytes that are not UTF-8 closes no
-- comment and no string: the header comment ends where the harness ends
-- it, and the literal is the name escaped byte for byte
local evil = wl.litmus {
  name = "E*/int x;/*\"%n\\??/\255`id`$(id)", init = { x = 0 },
  { at = "cta0", "st.relaxed.gpu x, 1" },
  { at = "cta1", "ld.relaxed.gpu r0, x" },
}
local es = evil:cuda()
local close = es:find("*/", 1, true)
local inc = es:find("\n */\n#include <cstdio>\n", 1, true)
assert(close and inc and close == inc + 2,
       "cuda: the header comment ends early: " .. es:sub(1, 200))
assert(es:find('test_name = "E*/int x;/*\\"%n\\\\\\?\\?/\\377' ..
               '`id`$(id)";', 1, true), "cuda: the name's literal")
-- a name with a newline or another control character is refused where
-- the test is made: it would start a line of its own in every text
-- output (issue 20, item 2)
for _, bad in ipairs { "A\nB", "A\001", "A\rB", "A\t", "A\127" } do
  local ok2, e2 = pcall(wl.litmus, { name = bad, init = { x = 0 },
    { "st.relaxed.gpu x, 1" } })
  assert(not ok2 and e2:find("test name: byte", 1, true), e2)
end
assert(not es:find("[\128-\255]"), "cuda: raw bytes that are not ASCII")
-- values outside the harness's 32-bit words are refused, with the
-- script's place where there is one (issue 20, item 3)
local wide = wl.litmus {
  name = "wide", init = { x = 1 << 40 },
  { at = "cta0", "st.relaxed.gpu x, 1" },
  { at = "cta1", "ld.relaxed.gpu r0, x" },
}
ok, err = pcall(wide.cuda, wide)
assert(not ok and err:find("cuda.lua: location x: initial value " ..
                           "1099511627776 does not fit", 1, true), err)
local wide2 = wl.litmus {
  name = "wide2", init = { x = 0 },
  { at = "cta0", "st.relaxed.gpu x, -2147483649" },
  { at = "cta1", "ld.relaxed.gpu r0, x" },
}
ok, err = pcall(wide2.cuda, wide2)
assert(not ok and err:find("cuda.lua:%d+:%d+: P0: the value %-2147483649 " ..
                           "does not fit"), err)
print("cuda.lua ok")
