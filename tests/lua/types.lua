-- Typed locations: int32/uint32 wrap, float/double arithmetic in atomics,
-- values come back in their type (Lua floats for float/double).
local wl = require "warplab"

-- two float atomicAdds on one location: always 1.5 + 0.25 + 2.0
local t = wl.litmus {
  name = "float-add",
  init = { f = 1.5, d = 0.5, i = 2147483647, u = 4294967295, a = { 0.5, 1.5 } },
  types = { f = "float", d = "double", i = "int32", u = "uint32", a = "float" },
  { at = "cta0", fn = function(dev)
      local old = dev:atomicAdd("f", 0.25)
      dev:atomicAdd("i", 1)             -- int32 wraps
      dev:atomicAdd("u", 1)             -- uint32 wraps
      dev.a[1] = dev.a[0] + 0.25
      return { oldf = math.floor(old * 4) }
    end },
  { at = "cta1", fn = function(dev)
      dev:atomicAdd("f", 2.0)
      dev.d = dev.d * 3                 -- a plain store of a double
    end },
}
local r = t:explore()
assert(r.nstates >= 1)
for _, s in ipairs(r.states) do
  assert(math.type(s.f) == "float" and s.f == 3.75, "f = " .. tostring(s.f))
  assert(s.d == 1.5 or s.d == 0.5, "d = " .. tostring(s.d))
  assert(s.i == -2147483648, "int32 wraps: " .. tostring(s.i))
  assert(s.u == 0, "uint32 wraps: " .. tostring(s.u))
  assert(s["a[1]"] == 0.75, "a[1] = " .. tostring(s["a[1]"]))
  assert(s["0:oldf"] == 6 or s["0:oldf"] == 14, "old " .. s["0:oldf"])
end
-- the herd text prints the float values as numbers
local text = tostring(r)
assert(text:find("f=3.75;"), text)
-- witness values are typed too
local w = r:witness(1)
local sawf = false
for _, e in ipairs(w.events) do
  if e.loc == "f" and e.kind == "W" and e.value == 3.75 then sawf = true end
end
assert(sawf, "a write of 3.75 to f in the witness")

-- errors: unknown type word, out-of-range init, typed name not declared
local function fails(spec, pat)
  local ok, err = pcall(function() return wl.litmus(spec) end)
  assert(not ok and tostring(err):find(pat, 1, true),
         "expected an error with '" .. pat .. "', got " .. tostring(err))
  assert(tostring(err):find("types.lua:"), "error names the script: " .. tostring(err))
end
fails({ init = { x = 0 }, types = { x = "half" }, { "st.weak x, 1" } },
      "unknown type 'half'")
fails({ init = { x = 5000000000 }, types = { x = "int32" }, { "st.weak x, 1" } },
      "does not fit in int32")
fails({ init = { x = 0 }, types = { y = "float" }, { "st.weak x, 1" } },
      "types.y names no location")
fails({ init = { x = "a" }, types = { x = "float" }, { "st.weak x, 1" } },
      "must be a number")
print("types: ok")
