-- lane_lint.lua -- wl.warp_kernel refuses `==` / `~=` between a lane
-- vector and a value (scripts/warplab/lanelint.lua): Lua calls no
-- metamethod there, so the comparison would be false (true) for every
-- lane, silently.  Kernels are built from source strings, as a script's
-- own would be, and from this file.
local wl = require "warplab"

local function build(body)
  local src = "local wl = ...\nreturn wl.warp_kernel(function(w, A, n)\n"
              .. body .. "\nend)"
  -- (loaded with its text as the chunk's name, as load(text) does: the
  -- source the lint reads; a chunk named "=..." has none to read)
  local chunk = assert(load(src, src, "t"))
  return pcall(chunk, wl)
end

-- refused: the error names the line and the lane vector
local refused = {
  { "if w.lane == 0 then A[0] = 1 end", "w.lane ==", 3 },
  { "if 0 == w.lane then A[0] = 1 end", "w.lane ==", 3 },
  { "if w.threadIdx.x ~= 5 then A[0] = 1 end", "w.threadIdx.x ~=", 3 },
  { "local tid = w.blockIdx.x * 32 + w.threadIdx.x\nif tid == n then A[0] = 1 end",
    "tid ==", 4 },
  { "local v = A[w.lane]\nlocal u = v * 2\n\nif u == 4 then end", "u ==", 6 },
  { "local m = w.lane:eq(3)\nif m == 1 then end", "m ==", 4 },
  { "local t = w.threadIdx\nif t == nil then end", "t ==", 4 },
  { "local s = 0\nfor k = 0, 3 do s = s + A[w.lane + k] end\nif s == 0 then end",
    "s ==", 5 },
}
-- lane vectors as conditions (a userdata: true for every lane)
local conditions = {
  { "if w.lane:lt(4) then A[0] = 1 end", "if w.lane:lt(4)", 3 },
  { "local m = w.lane:eq(0)\nif n > 0 and not m then end", "if not m", 4 },
  { "local tid = w.threadIdx.x\nwhile tid do break end", "while tid", 4 },
  { "if n > 1 then\nelseif w.lane then end", "elseif w.lane", 4 },
  { "local y = w.lane:lt(4) and 1 or 2", "w.lane:lt(4)", 3 },
  { "local tid = w.threadIdx.x\nreturn not tid", "not tid", 4 },
  { "local m = w.lane:gt(2)\nA[0] = m and n or 0", "m", 4 },
}
for _, c in ipairs(conditions) do
  local ok, e = build(c[1])
  assert(not ok, "accepted: " .. c[1])
  assert(e:find(("\"]:%d: wl.warp_kernel: '%s'"):format(c[3], c[2]), 1,
                true), e)
  assert(e:find("true for every lane", 1, true), e)
end
-- ... and a lane vector as the value an and/or gives is fine
for _, body in ipairs { "local y = n > 0 and w.lane or w.lane * 2",
                        "local m = w.lane:gt(2)\nA[0] = n > 0 and m or 0",
                        "local d = w.lane or 0",
                        "local z = w:select(w.lane:lt(4), 1, 2)" } do
  local ok, e = build(body)
  assert(ok, "refused: " .. body .. "\n" .. tostring(e))
end
for _, c in ipairs(refused) do
  local ok, e = build(c[1])
  assert(not ok, "accepted: " .. c[1])
  assert(e:find(("\"]:%d: wl.warp_kernel: '%s'"):format(c[3], c[2]), 1,
                true), e)
  assert(e:find(c[2]:match("~=$") and "true for every lane" or
                "false for every lane", 1, true), e)
end

-- accepted: scalars, reductions, lane vectors compared by their methods
local accepted = {
  "if n == 64 then A[0] = 1 end",
  "local any = w:any(w.lane:lt(4))\nif any == true then end",
  "local b = w:ballot(w.lane:lt(4))\nif b ~= 0 then end",
  "local x = A[0]\nif x == 0 then end",
  "w:where(w.lane:eq(0), function() A[0] = 1 end)",
  "local s = 'a == b'\n-- w.lane == 0 in a comment\nlocal t = [[w.lane ~= 1]]",
  "local tid = w.threadIdx.x\nlocal k = n\nif k == 3 then end",
  "local row = w.blockIdx.y\nif row == 0 then end",
  "if w:any(w.lane:lt(4)) then A[0] = 1 end",
  "if n > 0 and w:all(w.lane:ge(0)) then end",
  "while n > 0 do n = n - 1 end",
  "local f = w.lane:lt(3)\nrepeat n = n + 1 until n > 3",
}
for _, body in ipairs(accepted) do
  local ok, e = build(body)
  assert(ok, "refused: " .. body .. "\n" .. tostring(e))
end

-- a kernel of this file: the error names this file and line
local ok, e = pcall(wl.warp_kernel, function(w, A)
  if w.lane == 31 then A[0] = 1 end
end)
assert(not ok and e:find("lane_lint.lua:%d+: wl.warp_kernel: 'w.lane =='"),
       tostring(e))

-- what the refused comparison would have done: nothing, for every lane
local dev = wl.device "sm_90"
local A = dev:malloc("int32", 32, "A")
A:write(0)
dev:launch(wl.warp_kernel(function(w, a)
  w:where(w.lane:eq(0), function() a[w.lane] = 7 end)
end), { block = 32 }, A)
assert(A:read()[1] == 7, "w:where with lane:eq")
print("lane_lint: ok")
