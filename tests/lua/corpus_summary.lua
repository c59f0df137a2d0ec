-- tostring(wl.corpus(...)) lays out names of any length: a test named
-- with 100 or 300 characters, beside a short one, gives aligned rows
-- (Lua's string.format takes widths of two digits only).
local wl = require "warplab"

local files = {}
local function litmus(name)
  local path = os.tmpname()
  local f = assert(io.open(path, "w"))
  f:write("PTX ", name, "\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n",
          "exists (x=1)\n")
  f:close()
  files[#files + 1] = path
end
local long, longer = string.rep("A", 100), string.rep("B", 300)
litmus("MP")
litmus(long)
litmus(longer)

local ok, text = pcall(function() return tostring(wl.corpus(files)) end)
for _, p in ipairs(files) do os.remove(p) end
assert(ok, text)
local lines = {}
for l in text:gmatch("[^\n]+") do lines[#lines + 1] = l end
assert(#lines == 4, text)
-- every verdict starts in the same column: after the longest name
local col = #longer + 3
assert(lines[1]:sub(1, 2) == "MP" and lines[1]:find("Ok", 1, true) == col,
       lines[1])
assert(lines[2]:sub(1, 100) == long and lines[2]:find("Ok", 1, true) == col,
       lines[2])
assert(lines[3]:sub(1, 300) == longer and lines[3]:find("Ok") == col,
       lines[3])
assert(lines[4] == "3 tests: 3 Ok, 0 No, 0 errors, 0 bound hit", lines[4])
