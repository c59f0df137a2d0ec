-- warplab/states.lua -- helpers over results: projections of the state
-- sets, for comparing two tests (e.g. instructions vs Lua functions).
local wl = ...
if type(wl) ~= "table" then wl = require "warplab" end

-- wl.project(result, vars) -> sorted list of strings "k=v; k=v" over the
-- given variable names ("1:r0", "x", ...), duplicates removed.  vars may
-- map a name to the key to read: { ["1:r0"] = "1:B" }.
function wl.project(r, vars)
  local names, keys = {}, {}
  for k, v in pairs(vars) do
    if type(k) == "number" then names[#names + 1] = v; keys[v] = v
    else names[#names + 1] = k; keys[k] = v end
  end
  table.sort(names)
  local seen, out = {}, {}
  for _, s in ipairs(r.states) do
    local parts = {}
    for _, n in ipairs(names) do
      parts[#parts + 1] = n .. "=" .. tostring(s[keys[n]])
    end
    local line = table.concat(parts, "; ")
    if not seen[line] then seen[line] = true; out[#out + 1] = line end
  end
  table.sort(out)
  return out
end

-- wl.same(a, b) -> true when two projections are equal, else false and a
-- message naming the first difference.
function wl.same(a, b)
  local n = math.max(#a, #b)
  for i = 1, n do
    if a[i] ~= b[i] then
      return false, string.format("state %d differs: %s vs %s", i,
                                  tostring(a[i]), tostring(b[i]))
    end
  end
  return true
end

return wl
