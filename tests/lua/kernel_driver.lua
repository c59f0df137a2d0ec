-- The launch driver: the probe that sizes static shared memory runs no
-- user code twice; device-changing calls inside a launch are errors;
-- every Lua call from an engine callback is protected and stack-checked
-- (45 arguments); a time bound stops spinning kernels and pure-Lua loops
-- (Lua's count hook); errors name their place.
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

-- (8) code before the first device access runs once per thread: 64, not 65
local count = 0
local A = dev:malloc("int32", 64)
dev:launch(wl.kernel(function(c, a)
  count = count + 1
  a[c.threadIdx.x] = 1
end), { grid = 1, block = 64 }, A)
assert(count == 64, "ran " .. count .. " times")
-- also when the probe's thread declares shared arrays first, and when it
-- makes no device call at all
count = 0
dev:launch(wl.kernel(function(c, a)
  count = count + 1
  local s = c:shared("int32", 64, "s")
  local t = c:shared("float", 8, "t")
  s[c.threadIdx.x] = c.threadIdx.x
  t[c.threadIdx.x % 8] = 1.5
  c:syncthreads()
  a[c.threadIdx.x] = s[63 - c.threadIdx.x]
end), { grid = 2, block = 64 }, A)
assert(count == 128, "ran " .. count .. " times")
assert(A:read()[1] == 63 and A:read()[64] == 0)
count = 0
dev:launch(wl.kernel(function(c) count = count + 1 end), { block = 32 })
assert(count == 32)
-- warp-vector kernels: once per warp
count = 0
dev:launch(wl.warp_kernel(function(w, a)
  count = count + 1
  local s = w:shared("int32", 64)
  s[w.threadIdx.x] = w.threadIdx.x
  w:syncthreads()
  a[w.threadIdx.x] = s[w.threadIdx.x]
end), { block = 64 }, A)
assert(count == 2)
-- extern shared declared before the first access
dev:launch(wl.kernel(function(c, a)
  local e = c:extern_shared("int32")
  e[c.threadIdx.x] = c.threadIdx.x * 2
  c:syncthreads()
  a[c.threadIdx.x] = e[c.threadIdx.x]
end), { block = 64, shared = 256 }, A)
assert(A:read()[64] == 126)

-- (8) device-changing calls during a launch are errors, also before the
-- first access (the probe used to let dev:free succeed)
local B = dev:malloc("int32", 4)
fails("dev:free during a launch", dev.launch, dev, wl.kernel(function(c)
  dev:free(B)
end), { block = 1 })
fails("allocate device memory on the host", dev.launch, dev,
      wl.kernel(function(c) dev:malloc("int32", 4) end), { block = 1 })
fails("set the cache configuration between launches", dev.launch, dev,
      wl.kernel(function(c) dev:set_cache_config("prefer_l1") end),
      { block = 1 })
B:write(0) -- B is still allocated
assert(#B == 4)

-- (12) 45 (and 200) numeric arguments: the coroutine's stack is checked
local function sum(c, out, ...)
  local s = 0
  for _, v in ipairs({ ... }) do s = s + v end
  out[0] = s
end
local args = {}
for i = 1, 200 do args[i] = i end
local out = dev:malloc("int64", 1)
dev:launch(wl.kernel(sum), { block = 1 }, out, table.unpack(args, 1, 45))
assert(out:read()[1] == 45 * 46 // 2)
dev:launch(wl.kernel(sum), { block = 33 }, out, table.unpack(args))
assert(out:read()[1] == 200 * 201 // 2)

-- (5) a kernel spinning on a flag no thread writes, and a plain Lua loop,
-- stop at the time bound, naming file, line, block and thread
local flag = dev:malloc("int32", 1)
flag:write(0)
local t0 = os.clock()
local e = fails("max_seconds = 0.3", dev.launch, dev, wl.kernel(function(c, f)
  while f[0] == 0 do end
end), { grid = 2, block = 64, max_seconds = 0.3, max_steps = 10^15 // 1 },
  flag)
assert(e:find("kernel_driver.lua:%d+: block %(%d,0,0%) thread %(%d+,0,0%)"),
       e)
e = fails("in a loop that makes no device call", dev.launch, dev,
  wl.kernel(function(c, a)
    a[c.threadIdx.x] = 1
    while true do end
  end), { block = 2, max_seconds = 0.2 }, A)
assert(e:find("kernel_driver.lua:%d+: block %(0,0,0%) thread %(0,0,0%)"), e)
-- before the first access too (inside the probe)
e = fails("in a loop that makes no device call", dev.launch, dev,
  wl.kernel(function(c) while true do end end),
  { block = 2, max_seconds = 0.2 })
assert(e:find("kernel_driver.lua:%d+: block %(0,0,0%) thread %(0,0,0%)"), e)
-- the time bound is kept by the watch (bindings/lkwatch.c), not by a
-- count hook, on Linux unless WARPLAB_COUNT_HOOK asks for the hook
if package.config:sub(1, 1) == "/" and io.popen("uname -s"):read("l") ==
    "Linux" then
  local e = os.getenv("WARPLAB_COUNT_HOOK")
  assert(wl._watch_usable() == (e == nil or e == "" or e == "0"),
         "the watch is not used")
end
-- a warp-vector kernel looping in pure Lua stops the same way
e = fails("in a loop that makes no device call", dev.launch, dev,
  wl.warp_kernel(function(w, a)
    a[w.threadIdx.x] = 1
    while true do end
  end), { block = 32, max_seconds = 0.2 }, A)
assert(e:find("kernel_driver.lua:%d+: block %(0,0,0%) thread %(0,0,0%)"), e)
-- a coroutine the kernel makes itself, looping in pure Lua, stops too
-- (coroutine.create and coroutine.wrap give it the count hook while a
-- launch is watched), and the library's functions are back after
do
  local create, wrap = coroutine.create, coroutine.wrap
  e = fails("in a loop that makes no device call", dev.launch, dev,
    wl.kernel(function(c, a)
      a[c.threadIdx.x] = 1
      local co = coroutine.create(function() while true do end end)
      coroutine.resume(co)
    end), { block = 2, max_seconds = 0.2 }, A)
  e = fails("in a loop that makes no device call", dev.launch, dev,
    wl.kernel(function(c, a)
      a[c.threadIdx.x] = 1
      coroutine.wrap(function() while true do end end)()
    end), { block = 2, max_seconds = 0.2 }, A)
  -- a kernel's coroutines otherwise work as before
  local B = dev:malloc("int32", 2)
  dev:launch(wl.kernel(function(c, b)
    local gen = coroutine.wrap(function() for i = 1, 3 do
      coroutine.yield(i) end end)
    local co = coroutine.create(function(x) return x * 2 end)
    local _, d = coroutine.resume(co, 21)
    b[c.threadIdx.x] = gen() + gen() + gen() + d
  end), { block = 2 }, B)
  local got = B:read()
  assert(got[1] == 48 and got[2] == 48, "coroutines in a kernel")
  assert(coroutine.create == create and coroutine.wrap == wrap,
         "the coroutine library's own functions are back")
  local co = coroutine.create(function() end)
  assert(debug.gethook(co) == nil, "no hook on coroutines outside launches")
end
-- with a hook of the script's own set, the launch bounds its time with
-- Lua's count hook (not the watch, bindings/lkwatch.c) and gives the
-- script's hook back after
do
  local function mine() end
  debug.sethook(mine, "", 1000)
  e = fails("in a loop that makes no device call", dev.launch, dev,
    wl.kernel(function(c, a)
      a[c.threadIdx.x] = 1
      while true do end
    end), { block = 2, max_seconds = 0.2 }, A)
  local h, mask, count = debug.gethook()
  debug.sethook()
  assert(h == mine and mask == "" and count == 1000, "the script's hook is back")
  assert(e:find("kernel_driver.lua:%d+: block %(0,0,0%) thread %(0,0,0%)"), e)
end
assert(os.clock() - t0 < 5, "the time bound held")
-- which message: a loop that makes device calls is a spin loop (the
-- launch still steps), one of plain Lua makes none; with many blocks,
-- the probe's thread stuck in plain Lua is the failure, not another
-- warp that met the bound between steps; and the same with a launch's
-- blocks split in parts (jobs), under one time bound for the launch
local spinning = wl.kernel(function(c, f)
  if c.blockIdx.x == 1 then while f[0] == 0 do end end
end)
local plain = wl.kernel(function(c) local x = 0 while x >= 0 do x = x + 1 end end)
local plain_line = debug.getinfo(1, "l").currentline - 1
for _, jobs in ipairs { false, 2 } do
  e = fails("(a spin loop waiting for a value no thread writes?)", dev.launch,
            dev, spinning, { grid = 4, block = 8, max_seconds = 0.2,
                             jobs = jobs or nil }, flag)
  assert(not e:find("no device call", 1, true), e)
  assert(e:find("block (1,0,0)", 1, true), e)
  e = fails("in a loop that makes no device call", dev.launch, dev, plain,
            { grid = 16, block = 8, max_seconds = 0.2, jobs = jobs or nil })
  assert(e:find(("kernel_driver.lua:%d: block (0,0,0) thread (0,0,0)")
                :format(plain_line), 1, true), e)
end
fails("option 'max_seconds' must be a positive number", dev.launch, dev,
      wl.kernel(function() end), { max_seconds = 0 })
-- the hook is gone after the launch: a long Lua loop outside is fine
do local n = 0; for i = 1, 3000000 do n = n + i end end

-- (11) an error object that is a table is placed at its line
e = fails("error object is a table value", dev.launch, dev,
  wl.kernel(function(c, a)
    a[0] = 1
    error({ code = 1 })
  end), { block = 1 }, A)
assert(e:find("kernel_driver.lua:%d+: block"), e)
assert(not e:find(":0: block", 1, true), e)
-- a barrier loop that hits the step bound names the barrier's line
e = fails("warp steps without finishing", dev.launch, dev,
  wl.kernel(function(c)
    while true do c:syncthreads() end
  end), { block = 32, max_steps = 1000 })
assert(not e:find(":0: block", 1, true), e)
assert(e:find("kernel_driver.lua:%d+: block"), e)
print("kernel driver ok")
