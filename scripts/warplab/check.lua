-- warplab/check.lua -- the kernel checkers from Lua: the default of every
-- launch's `check` option, the findings of all launches so far, and the
-- summary `warplab run --check` prints after the script's own output.
--
-- dev:launch(k, {..., check = true}) runs the race detector, the
-- uninitialised-read checker and the spin detector (or a subset: check
-- = "races,uninit,spin" or {races = true}); its report then holds
-- r.findings, an array of tables:
--   { kind = "race" | "warp race" | "uninit" | "spin" | "shfl", space =
--     "global" | "managed" | "shared", name = "tile", offset = bytes,
--     address = n, a = access, b = access (races: the earlier one), count
--     = n, fix = "what would order them", message = "file:line: ..." }
-- (a "shfl" finding: the lane a of a shuffle read lane b, outside the
-- mask; it has no space, name, offset or address)
-- where an access is { block = {x, y, z}, thread = {x, y, z}, warp,
-- lane, line, op = "ld" | "st" | "atom", sem = "weak" | "relaxed" | ...,
-- scope = "cta" | "gpu" | "sys" }.
local wl = ...
if type(wl) ~= "table" then wl = require "warplab" end

local default -- the check option of launches that give none
local all = {} -- every finding of every launch, in order
local seen -- key -> {i, f}: where a finding is in all

-- wl.set_check(v): the check option of later launches that give none
-- (true, false, "races,uninit,spin", "all" or a table); returns the
-- previous one.
function wl.set_check(v)
  local t = type(v)
  if v ~= nil and t ~= "boolean" and t ~= "string" and t ~= "table" then
    error("wl.set_check: true, false, a list like \"races,uninit\" or a "
          .. "table expected, got " .. t, 2)
  end
  local old = default
  default = v
  return old
end

-- wl.findings() -> every finding of the launches run with a checker so
-- far (each also holds kernel = the kernel's name); wl.clear_findings()
-- forgets them.
function wl.findings()
  local out = {}
  for i, f in ipairs(all) do out[i] = f end
  return out
end

function wl.clear_findings() all = {}; seen = {} end

-- for kernel.lua's dev:launch: the configuration with the default check
-- option, and the record of a launch's findings
function wl._check_cfg(cfg)
  if cfg.check ~= nil or default == nil then return cfg end
  local c = {}
  for k, v in pairs(cfg) do c[k] = v end
  c.check = default
  return c
end

-- (a finding seen again by a later launch of the same kernel, at the
-- same lines, adds its count to the first)
seen = {}
function wl._check_record(k, r)
  for _, f in ipairs(r.findings or {}) do
    f.kernel = type(k) == "table" and k.name or "kernel"
    local la, lb = f.a.line, f.b and f.b.line or f.a.line
    if la > lb then la, lb = lb, la end
    local key = ("%s|%s|%d|%d"):format(f.kernel, f.kind, la, lb)
    local old = seen[key]
    if old and all[old.i] == old.f then
      old.f.count = old.f.count + f.count
    else
      all[#all + 1] = f
      seen[key] = { i = #all, f = f }
    end
  end
end

local words = { race = "data race", ["warp race"] = "warp hazard",
                uninit = "uninitialised read", spin = "possible hang",
                shfl = "shuffle hazard" }

-- wl.findings_text(findings) -> one paragraph per finding
function wl.findings_text(fs)
  local out = {}
  for _, f in ipairs(fs) do
    out[#out + 1] = ("%s%s"):format(f.message,
      f.count > 1 and (" (seen %d times)"):format(f.count) or "")
  end
  return table.concat(out, "\n")
end

-- wl._utf8_clean(s) -> s made valid UTF-8 whatever its bytes: each byte
-- that does not start a well-formed UTF-8 sequence becomes U+FFFD, as in
-- the engine's JSON and DOT writers (for the JSON here and the report's
-- HTML).
function wl._utf8_clean(s)
  if utf8.len(s) then return s end
  local out, i = {}, 1
  while i <= #s do
    local n, bad = utf8.len(s, i)
    if n then out[#out + 1] = s:sub(i); break end
    out[#out + 1] = s:sub(i, bad - 1)
    out[#out + 1] = "\u{FFFD}"
    i = bad + 1
  end
  return table.concat(out)
end

local function json(v, out)
  local t = type(v)
  if t == "table" then
    if #v > 0 or next(v) == nil then
      out[#out + 1] = "["
      for i, x in ipairs(v) do
        if i > 1 then out[#out + 1] = "," end
        json(x, out)
      end
      out[#out + 1] = "]"
    else
      local keys = {}
      for k in pairs(v) do keys[#keys + 1] = k end
      table.sort(keys)
      out[#out + 1] = "{"
      for i, k in ipairs(keys) do
        if i > 1 then out[#out + 1] = "," end
        json(tostring(k), out)
        out[#out + 1] = ":"
        json(v[k], out)
      end
      out[#out + 1] = "}"
    end
  elseif t == "string" then
    out[#out + 1] = '"' .. wl._utf8_clean(v):gsub('[%c"\\]', function(c)
      return c == '"' and '\\"' or c == "\\" and "\\\\" or
             ("\\u%04x"):format(c:byte())
    end) .. '"'
  elseif t == "number" or t == "boolean" then
    out[#out + 1] = tostring(v)
  else
    out[#out + 1] = "null"
  end
end

-- wl.check_summary([json]) -> the summary of every finding so far: a
-- text ("Checks: 2 data races, 1 possible hang" then one line each) or,
-- with json true, one JSON object {"findings": [...], "count": n}; and
-- the number of findings.
function wl.check_summary(as_json)
  if as_json then
    local out = {}
    json({ count = #all, findings = all }, out)
    return table.concat(out), #all
  end
  local n, order = {}, {}
  for _, f in ipairs(all) do
    local w = words[f.kind] or f.kind
    if not n[w] then n[w] = 0; order[#order + 1] = w end
    n[w] = n[w] + 1
  end
  local parts = {}
  for _, w in ipairs(order) do
    parts[#parts + 1] = ("%d %s%s"):format(n[w], w, n[w] > 1 and "s" or "")
  end
  local head = #all == 0 and "Checks: nothing found" or
               "Checks: " .. table.concat(parts, ", ")
  if #all == 0 then return head, 0 end
  return head .. "\n" .. wl.findings_text(all), #all
end
