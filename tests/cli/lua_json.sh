# Lua results match the JSON, field by field: test:explore() against
# `warplab litmus --json` and test:sample{} against `warplab sample
# --json` for the bundled tests: every JSON field is in the Lua result
# with the same value (the JSON's final_states are the Lua result's
# states, with values, condition and executions), sample results carry
# positive, negative, ok and verdict, outcomes come in the JSON's order
# with its names, pairs() works on explore results, and no key of a
# result table is anything but a string or an index.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$ROOT" || exit 1
for f in scripts/litmus/*.litmus; do
  b=$(basename "$f" .litmus)
  "$WL" litmus --json "$f" > "$T/$b.x.json" || { echo "litmus $f"; exit 1; }
  "$WL" sample --json -n 3000 --seed 7 -j 2 "$f" > "$T/$b.s.json" ||
    { echo "sample $f"; exit 1; }
done
cat > "$T/cmp.lua" <<'LUA'
local wl = require "warplab"
local dir = ...
local NULL = {}
-- a small JSON reader: objects, arrays, strings, numbers, literals
local function decode(s)
  local i = 1
  local function ws() i = s:find("[^ \t\r\n]", i) or #s + 1 end
  local val
  local function str()
    local out, j = {}, i + 1
    while true do
      local c = s:sub(j, j)
      if c == '"' then i = j + 1; return table.concat(out) end
      if c == "\\" then
        local e = s:sub(j + 1, j + 1)
        local map = { n = "\n", t = "\t", r = "\r", b = "\b", f = "\f" }
        if e == "u" then
          out[#out + 1] = utf8.char(tonumber(s:sub(j + 2, j + 5), 16)); j = j + 6
        else out[#out + 1] = map[e] or e; j = j + 2 end
      else out[#out + 1] = c; j = j + 1 end
    end
  end
  function val()
    ws()
    local c = s:sub(i, i)
    if c == "{" then
      local o = {}; i = i + 1; ws()
      if s:sub(i, i) == "}" then i = i + 1; return o end
      while true do
        ws(); local k = str(); ws(); assert(s:sub(i, i) == ":"); i = i + 1
        o[k] = val(); ws()
        local d = s:sub(i, i); i = i + 1
        if d == "}" then return o end
        assert(d == ",", "JSON: , or } expected at " .. i)
      end
    elseif c == "[" then
      local a = {}; i = i + 1; ws()
      if s:sub(i, i) == "]" then i = i + 1; return a end
      while true do
        a[#a + 1] = val(); ws()
        local d = s:sub(i, i); i = i + 1
        if d == "]" then return a end
        assert(d == ",", "JSON: , or ] expected at " .. i)
      end
    elseif c == '"' then return str()
    elseif s:sub(i, i + 3) == "true" then i = i + 4; return true
    elseif s:sub(i, i + 4) == "false" then i = i + 5; return false
    elseif s:sub(i, i + 3) == "null" then i = i + 4; return NULL
    else
      local n = s:match("^-?[%d.eE+-]+", i); i = i + #n
      return math.tointeger(tonumber(n)) or tonumber(n)
    end
  end
  return val()
end
local function slurp(p) local f = assert(io.open(p)); local s = f:read("a"); f:close(); return s end

-- every field of the JSON value j is in the Lua value l, equal
local function same(j, l, path)
  if j == NULL then
    assert(l == nil, path .. ": JSON null, Lua " .. tostring(l))
  elseif type(j) == "table" then
    assert(type(l) == "table" or type(l) == "userdata",
           path .. ": Lua " .. type(l))
    if #j > 0 then assert(#l == #j, path .. ": " .. #j .. " vs " .. #l) end
    for k, v in pairs(j) do same(v, l[k], path .. "." .. tostring(k)) end
  elseif type(j) == "number" and math.type(j) == "float" then
    assert(type(l) == "number" and math.abs(l - j) < 1e-6 * (1 + math.abs(j)),
           path .. ": " .. j .. " vs " .. tostring(l))
  else
    assert(j == l, path .. ": JSON " .. tostring(j) .. ", Lua " .. tostring(l))
  end
end

-- no key but strings and array indices, at any depth
local function plain_keys(t, path, seen)
  seen = seen or {}
  if seen[t] then return end
  seen[t] = true
  for k, v in pairs(t) do
    assert(type(k) == "string" or math.type(k) == "integer",
           path .. ": a " .. type(k) .. " key")
    if type(v) == "table" then plain_keys(v, path .. "." .. tostring(k), seen) end
  end
end

local n = 0
local p = io.popen("ls scripts/litmus/*.litmus")
for f in p:lines() do
  local b = f:match("([^/]+)%.litmus$")
  local t = wl.load(f)
  -- explore
  local jx = decode(slurp(dir .. "/" .. b .. ".x.json"))[1]
  local r = t:explore {}
  local keys = {}
  for k, v in pairs(r) do
    assert(type(k) == "string", b .. ": pairs gives a " .. type(k) .. " key")
    keys[k] = v
  end
  for k, v in pairs(jx) do
    if k == "time" then
      assert(type(r.time) == "number" and keys.time, b .. ": time")
    elseif k == "final_states" then
      same(#v, #r.states, b .. ".final_states (count)")
      for i, s in ipairs(v) do
        same(s.values, r.states[i].values, b .. ".states[" .. i .. "].values")
        same(s.condition, r.states[i].condition, b .. ".states[" .. i .. "].condition")
        same(s.executions, r.states[i].executions, b .. ".states[" .. i .. "].executions")
        same(#s.witness.events, #r:witness(i).events, b .. ".witness " .. i)
      end
    elseif k ~= "states" and k ~= "observed" then
      -- observed and states: the JSON's projection on the observed
      -- variables; the Lua states carry every variable (final_states)
      assert(v == NULL or keys[k] ~= nil, b .. ": pairs() lacks " .. k)
      same(v, r[k], b .. "." .. k)
    end
  end
  -- sample
  local js = decode(slurp(dir .. "/" .. b .. ".s.json"))[1]
  local s = t:sample { n = 3000, seed = 7, jobs = 2 }
  plain_keys(s, b .. " sample")
  for k, v in pairs(js) do
    if k == "time" then assert(type(s.time) == "number", b .. ": sample time")
    else same(v, s[k], b .. " sample." .. k) end
  end
  for _, k in ipairs { "positive", "negative", "ok", "verdict" } do
    assert(s[k] ~= nil, b .. ": sample lacks " .. k)
  end
  n = n + 1
end
p:close()
assert(n >= 10, "only " .. n .. " tests")
print("ok", n)
LUA
"$WL" run "$T/cmp.lua" "$T" || exit 1
