-- warplab/corpus.lua -- wl.corpus: run a folder (or a list) of litmus
-- tests and tabulate their verdicts.  Part of the warplab module: the C
-- module embeds this file and runs it with the module table as its
-- argument; installed, `require "warplab.corpus"` loads it the same way.
local wl = ...
if type(wl) ~= "table" then wl = require "warplab" end

-- Every *.litmus file under dir, sorted, recursively.
local function collect(dir, out)
  for _, e in ipairs(wl._listdir(dir)) do
    local path = dir .. "/" .. e.name
    if e.dir then
      collect(path, out)
    elseif e.name:match("%.litmus$") then
      out[#out + 1] = path
    end
  end
  table.sort(out)
  return out
end

-- Expected verdicts from a Dat3M CSV ("litmus/PTX/x/MP.litmus,1"): the
-- path after the first component, and "Ok"/"No".
local function read_csv(path)
  local f = assert(io.open(path, "r"))
  local t = {}
  for line in f:lines() do
    local p, v = line:match("^%s*([^,]+),%s*([01])%s*$")
    if p then t[#t + 1] = { p:gsub("^litmus/", ""), v == "1" } end
  end
  f:close()
  return t
end

local function expected_for(exp, row)
  if exp == nil then return nil end
  if type(exp) == "function" then return exp(row) end
  local v = exp[row.name]
  if v == nil then v = exp[row.file] end
  if v == nil and exp[1] then
    for _, e in ipairs(exp) do
      local p = e[1]
      if row.file:sub(-#p) == p then v = e[2] break end
    end
  end
  if v == "Ok" or v == 1 then return true end
  if v == "No" or v == 0 then return false end
  return v
end

local Corpus = {}
Corpus.__index = Corpus

-- s padded with spaces to w columns.  Not string.format("%-Ns"): Lua's
-- format takes widths of at most two digits, and a name may be longer.
local function pad(s, w)
  return s .. string.rep(" ", w - #s)
end

-- A printable table: file, verdict, states, and a summary line.
function Corpus:summary()
  local lines, w = {}, 4
  for _, r in ipairs(self) do w = math.max(w, #r.name) end
  for _, r in ipairs(self) do
    local v
    if r.error then v = "ERROR " .. r.error:gsub("\n.*", "")
    else
      v = (r.bound_hit and "Loop " or "") .. (r.ok and "Ok" or "No")
      v = string.format("%-7s %5d states", v, r.nstates)
      if r.expected ~= nil then
        v = v .. (r.match and "  (as expected)" or
                  "  MISMATCH: expected " .. (r.expected and "Ok" or "No"))
      end
    end
    lines[#lines + 1] = pad(r.name, w) .. "  " .. v
  end
  lines[#lines + 1] = string.format(
    "%d tests: %d Ok, %d No, %d errors, %d bound hit%s",
    #self, self.nok, self.nno, self.nerrors, self.nbound,
    self.nexpected > 0 and string.format(", %d/%d as expected",
                                         self.nmatch, self.nexpected) or "")
  return table.concat(lines, "\n")
end
Corpus.__tostring = Corpus.summary

-- wl.corpus(dir_or_list [, opts]) -> rows {file, name, ok, bound_hit,
-- nstates, error, expected, match} with counts and :summary().
-- opts: unroll, expected (a table name|file -> "Ok"/"No"/bool, a function
-- of the row, or the path of a Dat3M CSV), filter (pattern on the path).
function wl.corpus(src, opts)
  opts = wl._checkopts(opts, "wl.corpus",
                       { "unroll", "expected", "filter" }) or {}
  local files
  if type(src) == "string" then
    files = collect(src, {})
  elseif type(src) == "table" then
    files = src
  else
    error("wl.corpus: a directory or a list of files expected, got "
          .. type(src), 2)
  end
  local exp = opts.expected
  if type(exp) == "string" then exp = read_csv(exp) end
  local res = setmetatable({ nok = 0, nno = 0, nerrors = 0, nbound = 0,
                             nexpected = 0, nmatch = 0 }, Corpus)
  for _, file in ipairs(files) do
    if not opts.filter or file:match(opts.filter) then
      local row = { file = file, name = file:match("([^/]+)%.litmus$") or file }
      local ok, err = pcall(function()
        local t = wl.load(file)
        row.name = t.name
        local r = t:explore { unroll = opts.unroll }
        row.ok, row.bound_hit, row.nstates = r.ok, r.bound_hit, r.nstates
        row.verdict = r.verdict
        r:close()
        t:close()
      end)
      if not ok then
        row.error = tostring(err)
        res.nerrors = res.nerrors + 1
      else
        if row.ok then res.nok = res.nok + 1 else res.nno = res.nno + 1 end
        if row.bound_hit then res.nbound = res.nbound + 1 end
        local e = expected_for(exp, row)
        if e ~= nil then
          row.expected, row.match = e, (e == row.ok)
          res.nexpected = res.nexpected + 1
          if row.match then res.nmatch = res.nmatch + 1 end
        end
      end
      res[#res + 1] = row
    end
  end
  return res
end

return wl
