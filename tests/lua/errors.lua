-- Errors name the script line; thread-function errors come back with a
-- traceback; an endless loop hits the bound instead of hanging.
local wl = require "warplab"
local here = debug.getinfo(1, "S").short_src

local function line() return debug.getinfo(2, "l").currentline end

local function fails(pattern, f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, "expected an error matching " .. pattern)
  err = tostring(err)
  assert(err:find(pattern, 1, true),
         "error\n  " .. err .. "\nlacks\n  " .. pattern)
  return err
end

-- wrong types in the test table
fails("wl.litmus: location 'x' must be an integer, not string",
      wl.litmus, { init = { x = "one" }, { "st.weak x, 1" } })
fails("wl.litmus: unknown option 'exist' (did you mean 'exists'?)",
      wl.litmus, { init = { x = 0 }, { "st.weak x, 1" }, exist = "x == 1" })
fails("wl.litmus: thread 2 must be a function or a table",
      wl.litmus, { { "st.weak x, 1" }, 42 })
fails("bad placement 'cat1'",
      wl.litmus, { { at = "cat1", "st.weak x, 1" } })
fails("a test needs at least one thread", wl.litmus, { init = { x = 0 } })
fails("give one condition", wl.litmus,
      { { "st.weak x, 1" }, exists = "x == 1", forall = "x == 1" })

-- a bad instruction names the script line of wl.litmus and the column
local l0 = line() + 1
local err = fails(here .. ":" .. l0 .. ":", function() return wl.litmus { { "ld.acquire r0, x" } } end)
assert(err:find("scope"), err)

-- an unknown semantics: the script line and the valid words
local t = wl.litmus {
  init = { x = 0 },
  function(d) return { r = d:load("x", "acqire", "gpu") } end,
}
local l1 = line() - 2
err = fails(here .. ":" .. l1 .. ":", t.explore, t)
assert(err:find("invalid load semantics 'acqire'", 1, true), err)
assert(err:find('"weak", "relaxed" or "acquire"', 1, true), err)
assert(err:find("stack traceback:", 1, true), err)

t = wl.litmus {
  init = { x = 0 },
  function(d) d:store("x", 1, "relaxed", "gpuu") end,
}
err = fails("invalid scope 'gpuu'", t.explore, t)
assert(err:find('"cta", "gpu" or "sys"', 1, true), err)

-- a value of the wrong type
t = wl.litmus { init = { x = 0 }, function(d) d.x = "one" end }
err = fails(here .. ":" .. (line() - 1) .. ":", t.explore, t)
assert(err:find("integer value expected, got string", 1, true), err)

-- an undeclared location
t = wl.litmus { init = { x = 0 }, function(d) return { r = d.z } end }
fails("no location 'z'", t.explore, t)

-- a thread function that raises: its line and a traceback
local function helper(v)
  if v == 1 then error("boom at one") end
end
local lh = line() - 2
t = wl.litmus {
  init = { x = 0 },
  function(d) d.x = 1 end,
  function(d) helper(d.x) end,
}
err = fails(here .. ":" .. lh .. ": boom at one", t.explore, t)
assert(err:find("stack traceback:", 1, true), err)
assert(err:find("in upvalue 'helper'", 1, true) or
       err:find("helper", 1, true), err)
-- the test stays usable after a failed exploration
fails("boom at one", t.explore, t)

-- error objects that are not strings
t = wl.litmus { init = { x = 0 }, function() error({}) end }
fails("error object is a table value", t.explore, t)

-- arrays: out of range names the line
t = wl.litmus {
  init = { a = { 0, 0, 0, 0 } },
  function(d) d.a[4] = 1 end,
}
err = fails(here .. ":" .. (line() - 2) .. ": index 4 out of range for array 'a' (size 4)",
            t.explore, t)

-- an endless loop hits the bound and is reported, not a hang
t = wl.litmus {
  init = { x = 0 },
  function(d) while true do local _ = d.x end end,
}
local r = t:explore { unroll = 2 }
assert(r.bound_hit == true, "bound not reported")
-- a bound swallowed by pcall inside the thread still cuts the trace
t = wl.litmus {
  init = { x = 0 },
  function(d) pcall(function() while true do local _ = d.x end end) end,
}
r = t:explore { unroll = 2 }
assert(r.bound_hit == true, "bound swallowed by pcall not reported")

-- explore options
t = wl.litmus { { "st.weak x, 1" } }
fails("unknown option 'unrol'", t.explore, t, { unrol = 3 })
fails("unroll must be an integer from 1 to 1000", t.explore, t, { unroll = 0 })

-- closed objects
r = t:explore()
t:close()
assert(r.nstates == 1, "result outlives its closed test")
fails("attempt to use a closed warplab.Test", t.explore, t)
t:close() -- idempotent
r:close()
fails("attempt to use a closed warplab.Result", function() return r.ok end)
do
  local t2 <close> = wl.litmus { { "st.weak x, 1" } }
  assert(t2.name == "test")
end

-- wl.load: missing file, syntax error with path:line:col
fails("nonexistent.litmus: No such file", wl.load, "nonexistent.litmus")
local tmp = os.tmpname()
local f = assert(io.open(tmp, "w"))
f:write("PTX bad\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.acquire r0, x ;\n",
        "exists (0:r0=1)\n")
f:close()
err = fails(tmp .. ":4:2: ld.acquire needs a scope", wl.load, tmp)
os.remove(tmp)
fails("(string):", wl.parse, "PTX x\n{ }\n garbage")

-- a device used outside its function
local saved
t = wl.litmus { init = { x = 0 }, function(d) saved = d end }
t:explore()
fails("can only be used while its thread function runs",
      function() return saved.x end)

print("errors: ok")

-- a directory as input says so (it used to say only "read error"); the
-- file and directory handles are held in a box that closes them on every
-- error path
fails("tests/lua: is a directory", wl.load, "tests/lua")
fails("no/such/dir: No such file or directory", wl._listdir, "no/such/dir")
assert(#wl._listdir("tests/lua") > 3)
