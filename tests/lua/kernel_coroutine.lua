-- Coroutines inside kernels (issue 20, item 4): a kernel may create and
-- resume coroutines of its own for plain Lua work, but a device call
-- (an access, a barrier, a warp operation) made inside one is refused
-- with the file and line of the call and the thread, and the launch
-- fails even when the kernel catches the error: before, the accesses
-- were lost while the launch reported success, and __syncthreads() there
-- failed with "wl_kernel_exit: no such thread".
local wl = require "warplab"

local here = debug.getinfo(1, "S").short_src
local function line_of(f) return debug.getinfo(f, "S").linedefined end

-- fails(f, line, thread): f raises an error naming here:line and the
-- coroutine rule (and "thread (t,0,0)" when thread is given)
local function fails(f, line, thread)
  local ok, err = pcall(f)
  assert(not ok, "the launch succeeded")
  err = tostring(err)
  assert(err:find(here .. ":" .. line .. ":", 1, true), err)
  assert(err:find("device call inside a coroutine the kernel created", 1,
                  true), err)
  if thread then
    assert(err:find("thread (" .. thread .. ",0,0)", 1, true), err)
  end
  assert(not err:find("kernel.lua", 1, true), err)
  return err
end

local dev = wl.device { preset = "sm_90", sms = 1 }
local A = dev:malloc("int32", 32, "A")

-- an access inside a coroutine; the kernel ignores what resume returns
local store = wl.kernel(function(c, A)
  local co = coroutine.create(function()
    A[c.threadIdx.x] = 7 -- store line
  end)
  coroutine.resume(co)
end)
local store_line = line_of(store.fn) + 2
fails(function() dev:launch(store, { grid = 1, block = 4 }, A) end,
      store_line, 0)
-- many warps and blocks, whichever runs first: the failure names the
-- lane that made the call
for seed = 1, 6 do
  fails(function()
    dev:launch(store, { grid = 4, block = 64, seed = seed },
               dev:malloc("int32", 64, "B"))
  end, store_line)
end
-- no probe (static_shared given): the same, in the launch proper, from a
-- thread other than the first
local later = wl.kernel(function(c, A)
  if c.threadIdx.x == 3 then
    pcall(coroutine.wrap(function() A[0] = 1 end)) -- caught, still fails
  end
  A[c.threadIdx.x] = c.threadIdx.x
end)
fails(function()
  dev:launch(later, { grid = 1, block = 4, static_shared = 0 }, A)
end, line_of(later.fn) + 2, 3)

-- __syncthreads() inside a coroutine
local bar = wl.kernel(function(c)
  local f = coroutine.wrap(function()
    c:syncthreads()
  end)
  f()
end)
fails(function() dev:launch(bar, { grid = 1, block = 4 }) end,
      line_of(bar.fn) + 2, 0)

-- a warp-vector kernel: w's operations and A[v] are refused alike
local wk = wl.warp_kernel(function(w, A)
  local co = coroutine.create(function() A[w.lane] = w.lane end)
  assert(not coroutine.resume(co))
end)
fails(function() dev:launch(wk, { grid = 1, block = 32 }, A) end,
      line_of(wk.fn) + 1)

-- coroutines for plain Lua work are fine: device calls stay outside
local gen = wl.kernel(function(c, A)
  local nums = coroutine.wrap(function()
    for i = 1, 3 do coroutine.yield(i) end
  end)
  local s = 0
  for _ = 1, 3 do s = s + nums() end
  A[c.threadIdx.x] = s + c.threadIdx.x
end)
dev:launch(gen, { grid = 1, block = 32 }, A)
local out = A:read()
for i = 1, 32 do assert(out[i] == 6 + i - 1, "element " .. i) end
print("kernel coroutines ok")
