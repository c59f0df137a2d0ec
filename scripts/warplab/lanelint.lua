-- warplab/lanelint.lua -- a warp-vector kernel's `==` and `~=` on lane
-- vectors, caught when wl.warp_kernel is given the function.
--
-- Lua calls __eq only when both operands are tables or both userdata, so
-- `if w.lane == 0 then` compares a lane vector with a number *without*
-- any metamethod: always false (`~=` always true), for every lane, with
-- no error -- a silent wrong answer.  (`<`, `<=` and `==` between two
-- lane vectors do reach the lane vectors' metamethods, which refuse.)
-- This reads the kernel's source (a file, or the string a chunk was
-- loaded from) and finds `==` / `~=` whose operand is a lane vector:
-- w.lane, w.threadIdx(.x/.y/.z), or a local assigned from them by
-- arithmetic, indexing or a method of a lane vector (`tid:eq(0)`), with
-- w the function's first parameter.  A value passed into a call (`w:any
-- (tid:lt(4))`, `w:ballot(...)`) is no lane vector by this reading, so a
-- reduction's result may be compared.  wl._lane_lint(fn) returns nil,
-- or line and message.
local wl = ...
if type(wl) ~= "table" then wl = require "warplab" end

local keywords = {}
for k in ([[and break do else elseif end false for function goto if in
  local nil not or repeat return then true until while]]):gmatch("%a+") do
  keywords[k] = true
end

-- The tokens of src: { text, line, kind } for names, numbers (kind
-- "num"), strings ("str") and operators; comments dropped.
local function tokens(src)
  local out, i, line, n = {}, 1, 1, #src
  local function add(t, kind) out[#out + 1] = { t, line, kind } end
  while i <= n do
    local c = src:sub(i, i)
    if c == "\n" then
      line = line + 1
      i = i + 1
    elseif c:match("%s") then
      i = i + 1
    elseif src:sub(i, i + 1) == "--" then
      local eq = src:match("^%[(=*)%[", i + 2)
      local stop
      if eq then
        stop = select(2, src:find("]" .. eq .. "]", i, true)) or n
      else
        stop = (src:find("\n", i, true) or n + 1) - 1
      end
      local _, nl = src:sub(i, stop):gsub("\n", "")
      line = line + nl
      i = stop + 1
    elseif c == "[" and src:match("^%[=*%[", i) then
      local eq = src:match("^%[(=*)%[", i)
      local stop = select(2, src:find("]" .. eq .. "]", i, true)) or n
      local _, nl = src:sub(i, stop):gsub("\n", "")
      add(src:sub(i, stop), "str")
      line = line + nl
      i = stop + 1
    elseif c == "'" or c == '"' then
      local j = i + 1
      while j <= n do
        local d = src:sub(j, j)
        if d == "\\" then
          j = j + 2
        elseif d == c or d == "\n" then
          break
        else
          j = j + 1
        end
      end
      add(src:sub(i, j), "str")
      i = j + 1
    elseif c:match("[%a_]") then
      local w = src:match("^[%w_]+", i)
      add(w)
      i = i + #w
    elseif c:match("%d") or (c == "." and src:match("^%.%d", i)) then
      local w = src:match("^0[xX][%x%.]*[pP]?[%+%-]?%x*", i) or
                src:match("^[%d%.]+[eE][%+%-]?%d+", i) or
                src:match("^[%d%.]+", i)
      add(w, "num")
      i = i + #w
    else
      local op = src:match("^%.%.%.", i) or src:match("^::", i) or
                 src:match("^[=~<>]=", i) or src:match("^//", i) or
                 src:match("^%.%.", i) or src:match("^<<", i) or
                 src:match("^>>", i) or c
      add(op)
      i = i + #op
    end
  end
  return out
end

-- The source of tokens a..b, spaced as code is
local tight = { ["."] = true, [":"] = true, ["("] = true, [")"] = true,
                ["["] = true, ["]"] = true, [","] = true }
local function text(t, a, b)
  local out = {}
  for q = a, b do
    local x = t[q][1]
    if q > a and not tight[x] and not tight[t[q - 1][1]] or
        q > a and t[q - 1][1] == "," then
      out[#out + 1] = " "
    end
    out[#out + 1] = x
  end
  return table.concat(out)
end

local function lane_root(t, k, w)
  -- w.lane, w.threadIdx, w.threadIdx.x (and the tokens it spans)
  if t[k] and t[k][1] == w and t[k + 1] and t[k + 1][1] == "." and
      t[k + 2] and (t[k + 2][1] == "lane" or t[k + 2][1] == "threadIdx") then
    if t[k + 2][1] == "threadIdx" and t[k + 3] and t[k + 3][1] == "." then
      return k + 4
    end
    return k + 2
  end
end

-- Does the expression t[a..b] hold a lane vector outside any call's
-- arguments?
local function vector_expr(t, a, b, w, lanes)
  local depth = 0 -- inside a call's parentheses
  local k = a
  while k <= b do
    local s = t[k][1]
    if s == "(" then
      -- a call's arguments when it follows a name, ] or ): not the value
      local p = t[k - 1] and t[k - 1][1]
      if depth > 0 or (p and (p:match("^[%a_]") and not keywords[p] or
                              p == "]" or p == ")" or t[k - 1][3] == "str")) then
        depth = depth + 1
      end
    elseif s == ")" then
      if depth > 0 then depth = depth - 1 end
    elseif depth == 0 then
      local e = lane_root(t, k, w)
      if e then return true end
      if lanes[s] and not (t[k - 1] and (t[k - 1][1] == "." or
                                         t[k - 1][1] == ":")) then
        return true
      end
    end
    k = k + 1
  end
  return false
end

-- The end of the expression that starts at t[a]: the token before the
-- next statement at depth 0 (a keyword that starts one, or a name after
-- a complete operand on a later line).
local starts = { ["local"] = true, ["if"] = true, ["for"] = true,
                 ["while"] = true, ["return"] = true, ["end"] = true,
                 ["then"] = true, ["do"] = true, ["else"] = true,
                 ["elseif"] = true, ["until"] = true, ["repeat"] = true,
                 ["break"] = true, ["goto"] = true, [";"] = true }
local function expr_end(t, a)
  local depth, k = 0, a
  while t[k] do
    local s = t[k][1]
    if s == "(" or s == "[" or s == "{" then
      depth = depth + 1
    elseif s == ")" or s == "]" or s == "}" then
      if depth == 0 then return k - 1 end
      depth = depth - 1
    elseif depth == 0 and (starts[s] or s == "=" or s == ",") and k > a then
      return k - 1
    elseif depth == 0 and k > a and t[k][2] > t[k - 1][2] and
        (s:match("^[%a_]") or t[k][3] ~= nil) and not keywords[s] then
      local p = t[k - 1][1]
      -- a new line that starts with an operand after a complete one
      if p:match("^[%w_]") and not keywords[p] or p == ")" or p == "]" or
          p == "}" or t[k - 1][3] ~= nil then
        return k - 1
      end
    end
    k = k + 1
  end
  return k - 1
end

-- The operand of a comparison next to t[k] (the operator), on the left
-- (dir -1) or right (dir 1): its first and last token, for names with
-- field accesses (w.lane, tid, t.x) only; nil otherwise.
local function operand(t, k, dir)
  if dir > 0 then
    local a, b = k + 1, k + 1
    if not t[a] or not t[a][1]:match("^[%a_]") or keywords[t[a][1]] then
      return
    end
    while t[b + 1] and t[b + 1][1] == "." and t[b + 2] do b = b + 2 end
    if t[b + 1] and (t[b + 1][1] == "(" or t[b + 1][1] == "[" or
                     t[b + 1][1] == ":") then
      return -- a call or an index: its value is not this name's
    end
    return a, b
  end
  local b, a = k - 1, k - 1
  if not t[b] or not t[b][1]:match("^[%a_]") or keywords[t[b][1]] then
    return
  end
  while t[a - 1] and t[a - 1][1] == "." and t[a - 2] do a = a - 2 end
  if t[a - 1] and (t[a - 1][1] == ":" ) then return end
  return a, b
end

local function plain_value(t, a, b)
  -- a number, string, nil, true or false literal
  return a == b and (t[a][3] ~= nil or
                     t[a][1] == "nil" or t[a][1] == "true" or
                     t[a][1] == "false")
end

function wl._lane_lint(fn)
  local info = debug.getinfo(fn, "S")
  if info.what ~= "Lua" or info.linedefined <= 0 then return end
  local w = debug.getlocal(fn, 1)
  if w == nil then return end
  local src
  if info.source:sub(1, 1) == "@" then
    local f = io.open(info.source:sub(2), "r")
    if f == nil then return end
    src = f:read("a")
    f:close()
  elseif info.source:sub(1, 1) ~= "=" then
    src = info.source
  else
    return
  end
  local t, body = tokens(src), {}
  for _, tok in ipairs(t) do
    if tok[2] >= info.linedefined and tok[2] <= info.lastlinedefined then
      body[#body + 1] = tok
    end
  end
  t = body
  -- the locals that hold lane vectors, from their assignments (twice:
  -- one may name another assigned later in a loop)
  local lanes = {}
  for _ = 1, 2 do
    local k = 1
    while t[k] do
      if t[k][1] == "=" then
        -- the names before it (local a, b = / a, b =)
        local names, j = {}, k - 1
        while t[j] and t[j][1]:match("^[%a_]") and not keywords[t[j][1]] do
          names[#names + 1] = t[j][1]
          if t[j - 1] and t[j - 1][1] == "," then j = j - 2 else break end
        end
        local e = expr_end(t, k + 1)
        if #names > 0 and vector_expr(t, k + 1, e, w, lanes) then
          for _, nm in ipairs(names) do lanes[nm] = true end
        end
      end
      k = k + 1
    end
  end
  -- a lane vector where Lua tests truth (a condition, an operand of and,
  -- or and not) is a userdata: true for every lane.  clause(a, b, last):
  -- a message when t[a..b], not a comparison, holds a lane vector (for
  -- the last operand of an and/or expression's value: only under not)
  local function clause(a, b, what, last)
    local negated, a0 = false, a
    while a <= b and t[a][1] == "not" do a = a + 1; negated = true end
    if a > b or (last and not negated) then return end
    local d = 0
    for q = a, b do
      local x = t[q][1]
      if x == "(" or x == "[" or x == "{" then d = d + 1
      elseif x == ")" or x == "]" or x == "}" then d = d - 1
      elseif d == 0 and (x == "<" or x == "<=" or x == ">" or
                         x == ">=" or x == "==" or x == "~=") then
        return -- a comparison: the other checks' business
      end
    end
    if vector_expr(t, a, b, w, lanes) then
      return t[a][2], ("'%s': a lane vector is a userdata, which Lua "
        .. "takes as true for every lane %s; use w:where(mask, fn [, "
        .. "else_fn]) for the lanes it holds, w:select(mask, a, b), or "
        .. "w:any(mask) / w:all(mask)"):format(what .. text(t, a0, b),
          what ~= "" and "in a condition" or "under and, or and not")
    end
  end
  -- the operands of t[a..b] split at its and/or, each through clause:
  -- in a condition (all) every one; in a value, the first when an `and`
  -- follows it (`m and x or y`: m taken as true), and any under not
  -- (`c and v or w` gives v, a lane vector being true, as meant; `v or
  -- d` gives v)
  local function tested(a, b, what, all)
    local depth, first, n = 0, a, 0
    for j = a, b + 1 do
      local x = j <= b and t[j][1] or nil
      if x == "(" or x == "[" or x == "{" then
        depth = depth + 1
      elseif x == ")" or x == "]" or x == "}" then
        depth = depth - 1
      elseif x == nil or (depth == 0 and (x == "and" or x == "or")) then
        n = n + 1
        local line, msg = clause(first, j - 1, what,
                                 not all and not (n == 1 and x == "and"))
        if line then return line, msg end
        first = j + 1
      end
    end
  end
  for k, tok in ipairs(t) do
    local s = tok[1]
    local line, msg
    if s == "if" or s == "elseif" or s == "while" then
      local depth, j = 0, k + 1
      while t[j] do
        local x = t[j][1]
        if x == "(" or x == "[" or x == "{" then depth = depth + 1
        elseif x == ")" or x == "]" or x == "}" then depth = depth - 1
        elseif depth == 0 and (x == "then" or x == "do") then break end
        j = j + 1
      end
      line, msg = tested(k + 1, j - 1, s .. " ", true)
    elseif s == "until" then
      line, msg = tested(k + 1, expr_end(t, k + 1), s .. " ", true)
    elseif s == "=" or s == "return" then
      line, msg = tested(k + 1, expr_end(t, k + 1), "", false)
    end
    if line then return line, msg end
  end
  for k, tok in ipairs(t) do
    if tok[1] == "==" or tok[1] == "~=" then
      local la, lb = operand(t, k, -1)
      local ra, rb = operand(t, k, 1)
      local function is_vec(a, b)
        if a == nil then return false end
        if lane_root(t, a, w) == b then return true end
        return a == b and lanes[t[a][1]] == true
      end
      local lv, rv = is_vec(la, lb), is_vec(ra, rb)
      -- one side a lane vector, the other a plain value or a name that
      -- is none (two lane vectors reach __eq, which refuses)
      if lv ~= rv then
        -- (the other side: a value, or a name that holds no lane
        -- vector by this reading; nil when it is no plain name)
        local vec_a, vec_b, other_a, other_b = la, lb, ra, rb
        if rv then vec_a, vec_b, other_a, other_b = ra, rb, la, lb end
        local parts = {}
        for j = vec_a, vec_b do parts[#parts + 1] = t[j][1] end
        local name = table.concat(parts)
        if other_a == nil or plain_value(t, other_a, other_b) or
            not is_vec(other_a, other_b) then
          local fix = tok[1] == "==" and "eq" or "ne"
          return tok[2], ("'%s %s': Lua compares a lane vector with "
            .. "a number (or any non-vector) without a metamethod, so it "
            .. "is %s for every lane; use %s:%s(x) (0 or 1 per lane) with "
            .. "w:where, w:select, w:any or w:all"):format(
              name, tok[1], tok[1] == "==" and "false" or "true", name, fix)
        end
      end
    end
  end
end
