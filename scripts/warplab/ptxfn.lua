-- warplab/ptxfn.lua -- a .litmus test's threads as Lua functions.
--
-- wl.litmus_functions(text) reads a test in Dat3M's PTX dialect and
-- returns the table wl.litmus takes, with every thread a Lua function
-- that performs the same memory operations through the device object
-- (d:load, d:store, d:atom, d:fence, d:bar_sync) by interpreting the
-- thread's instructions: the same test written the other way, for
-- comparing the two forms and for reading how PTX maps onto the Lua API.
--
-- The explorer finds dependencies of Lua functions semantically (a load
-- a later event's value or existence actually depends on), where it
-- reads them syntactically from instructions; tests whose dependencies
-- are false (xor r1, r0, r0) or that branch around code and join may
-- therefore differ, as they would between a compiler and the source.
-- Proxy instructions and aliases have no Lua form: they raise.
local wl = ...
if type(wl) ~= "table" then wl = require "warplab" end

local function trim(s) return (s:gsub("^%s+", ""):gsub("%s+$", "")) end

local function split(s, sep)
  local out = {}
  for part in (s .. sep):gmatch("(.-)" .. sep:gsub("%p", "%%%0")) do
    out[#out + 1] = part
  end
  return out
end

local load_sems = { weak = true, relaxed = true, acquire = true,
                    volatile = true }
local store_sems = { weak = true, relaxed = true, release = true,
                     volatile = true }
local atom_sems = { relaxed = true, acquire = true, release = true,
                    acq_rel = true }
local scopes = { cta = true, gpu = true, sys = true }
local conds = { beq = "==", bne = "~=", blt = "<", ble = "<=", bgt = ">",
                bge = ">=" }
local alu = { add = true, sub = true, mul = true, div = true, rem = true,
              ["and"] = true, ["or"] = true, xor = true, min = true,
              max = true, shl = true, shr = true }

-- The parts of a mnemonic: sem, scope and op among the dot-separated
-- words, type suffixes (.u32, .global, ...) dropped.
local function qualifiers(words)
  local q = {}
  for i = 2, #words do
    local w = words[i]
    if load_sems[w] or store_sems[w] or atom_sems[w] or w == "sc" then
      q.sem = w
    elseif scopes[w] then
      q.scope = w
    elseif w == "gl" then
      q.scope = "gpu"
    elseif alu[w] or w == "inc" or w == "dec" or w == "exch" or w == "cas" then
      q.op = w
    end
  end
  return q
end

-- One instruction, parsed once: { kind, ... }.
local function parse_insn(text, where)
  local label = text:match("^([%w_]+):$")
  if label then return { kind = "label", label = label } end
  local mnem, rest = text:match("^(%S+)%s*(.*)$")
  local words = split(mnem, ".")
  local ops = {}
  if rest ~= "" then
    for _, o in ipairs(split(rest, ",")) do ops[#ops + 1] = trim(o) end
  end
  local q = qualifiers(words)
  local head = words[1]
  local function fail(why)
    error(string.format("%s: '%s': %s", where, text, why), 0)
  end
  if head == "ld" then
    if ops[2] and ops[2]:match("^-?%d+$") then
      return { kind = "mov", dst = ops[1], a = ops[2] }
    end
    local sem = q.sem or "weak"
    if sem == "volatile" then sem, q.scope = "relaxed", "sys" end
    return { kind = "ld", dst = ops[1], loc = ops[2], sem = sem,
             scope = sem ~= "weak" and (q.scope or "gpu") or nil }
  elseif head == "st" then
    local sem = q.sem or "weak"
    if sem == "volatile" then sem, q.scope = "relaxed", "sys" end
    return { kind = "st", loc = ops[1], a = ops[2], sem = sem,
             scope = sem ~= "weak" and (q.scope or "gpu") or nil }
  elseif head == "atom" or head == "red" then
    local a = { kind = "atom", op = q.op, sem = q.sem or "relaxed",
                scope = q.scope or "gpu" }
    if not a.op then fail("no operation") end
    if head == "atom" then
      a.dst, a.loc, a.a, a.b = ops[1], ops[2], ops[3], ops[4]
    else
      a.loc, a.a, a.b = ops[1], ops[2], ops[3]
    end
    return a
  elseif head == "fence" then
    if words[2] == "proxy" then fail("proxy fences have no Lua form") end
    return { kind = "fence", sem = q.sem or "sc", scope = q.scope or "gpu" }
  elseif head == "membar" then
    return { kind = "fence", sem = "sc", scope = q.scope or "gpu" }
  elseif head == "bar" or head == "barrier" then
    if words[#words] == "arrive" then
      return { kind = "bar", arrive = true, id = ops[1], count = ops[2] }
    end
    return { kind = "bar", id = ops[1] or "0", count = ops[2] }
  elseif head == "mov" then
    return { kind = "mov", dst = ops[1], a = ops[2] }
  elseif alu[head] then
    return { kind = "alu", op = head, dst = ops[1], a = ops[2], b = ops[3] }
  elseif conds[head] then
    return { kind = "branch", cond = conds[head], a = ops[1], b = ops[2],
             target = ops[3] }
  elseif head == "goto" or head == "bra" then
    return { kind = "goto", target = ops[1] }
  end
  fail("no Lua form for this instruction")
end

local function aluop(op, a, b)
  if op == "add" then return a + b
  elseif op == "sub" then return a - b
  elseif op == "mul" then return a * b
  elseif op == "div" then return b ~= 0 and a // b or 0
  elseif op == "rem" then return b ~= 0 and math.fmod(a, b) or 0
  elseif op == "and" then return a & b
  elseif op == "or" then return a | b
  elseif op == "xor" then return a ~ b
  elseif op == "min" then return math.min(a, b)
  elseif op == "max" then return math.max(a, b)
  elseif op == "shl" then return a << (b & 63)
  else return a >> (b & 63) end
end

-- The thread function interpreting insns (registers start from init).
local function thread_fn(insns, init, regnames)
  local labels = {}
  for i, ins in ipairs(insns) do
    if ins.kind == "label" then labels[ins.label] = i end
  end
  return function(d)
    local regs = {}
    for k, v in pairs(init) do regs[k] = v end
    local function val(o)
      if o == nil then return 0 end
      local n = math.tointeger(tonumber(o))
      if n then return n end
      return regs[o] or 0
    end
    local pc = 1
    while pc <= #insns do
      local ins = insns[pc]
      pc = pc + 1
      local k = ins.kind
      if k == "ld" then
        regs[ins.dst] = d:load(ins.loc, ins.sem, ins.scope)
      elseif k == "st" then
        d:store(ins.loc, val(ins.a), ins.sem, ins.scope)
      elseif k == "atom" then
        local old
        if ins.op == "cas" then
          old = d:atom("cas", ins.loc, val(ins.a), val(ins.b), ins.sem,
                       ins.scope)
        else
          old = d:atom(ins.op, ins.loc, val(ins.a), ins.sem, ins.scope)
        end
        if ins.dst then regs[ins.dst] = old end
      elseif k == "fence" then
        d:fence(ins.sem, ins.scope)
      elseif k == "bar" then
        local count = ins.count and val(ins.count) or nil
        if ins.arrive then d:bar_arrive(val(ins.id), count)
        else d:bar_sync(val(ins.id), count) end
      elseif k == "mov" then
        regs[ins.dst] = val(ins.a)
      elseif k == "alu" then
        regs[ins.dst] = aluop(ins.op, val(ins.a), val(ins.b))
      elseif k == "branch" then
        local a, b, c = val(ins.a), val(ins.b), ins.cond
        local taken = (c == "==" and a == b) or (c == "~=" and a ~= b) or
                      (c == "<" and a < b) or (c == "<=" and a <= b) or
                      (c == ">" and a > b) or (c == ">=" and a >= b)
        if taken then pc = labels[ins.target] end
      elseif k == "goto" then
        pc = labels[ins.target]
      end
    end
    local out = {}
    for _, r in ipairs(regnames) do out[r] = regs[r] or 0 end
    return out
  end
end

-- wl.litmus_functions(text [, name]) -> the table for wl.litmus.
function wl.litmus_functions(text, where)
  where = where or "litmus"
  local lines = {}
  for line in (text .. "\n"):gmatch("(.-)\r?\n") do lines[#lines + 1] = line end
  local spec = { init = {} }
  local i = 1
  spec.name = (lines[1] or ""):match("^%s*%S+%s+(%S+)")
  -- the initial state: "{ x=0; y=1; P0:r0=2; }", possibly on several lines
  local init = text:match("%b{}")
  if not init then error(where .. ": no initial state { ... }", 0) end
  local reginit = {}
  for item in init:sub(2, -2):gmatch("[^;]+") do
    local lhs, rhs = item:match("^%s*(.-)%s*=%s*(.-)%s*$")
    if lhs and lhs ~= "" then
      if lhs:find("@") then
        error(where .. ": aliases have no Lua form", 0)
      end
      local th, reg = lhs:match("^P?(%d+):(%S+)$")
      if th then
        reginit[tonumber(th)] = reginit[tonumber(th)] or {}
        reginit[tonumber(th)][reg] = math.tointeger(tonumber(rhs))
      else
        spec.init[lhs] = math.tointeger(tonumber(rhs)) or rhs
      end
    end
  end
  while i <= #lines and not lines[i]:match("^%s*P0%s*@") do i = i + 1 end
  if i > #lines then error(where .. ": no thread header (P0@...)", 0) end
  local heads = split(lines[i]:gsub(";%s*$", ""), "|")
  local threads = {}
  for t, h in ipairs(heads) do
    local cta, gpu = h:match("cta%s*(%d+)%s*,%s*gpu%s*(%d+)")
    threads[t] = { cta = tonumber(cta) or 0, gpu = tonumber(gpu) or 0,
                   insns = {}, regs = {}, seen = {} }
  end
  i = i + 1
  while i <= #lines do
    local line = lines[i]
    if line:match("^%s*~?%s*exists") or line:match("^%s*forall") or
       line:match("^%s*~exists") or line:match("^%s*locations") then
      break
    end
    if line:find("|") or line:match(";%s*$") then
      local cells = split(line:gsub(";%s*$", ""), "|")
      for t, cell in ipairs(cells) do
        local c = trim(cell)
        if c ~= "" and threads[t] then
          local ins = parse_insn(c, where .. ":" .. i)
          local th = threads[t]
          th.insns[#th.insns + 1] = ins
          for _, r in ipairs { ins.dst } do
            if not th.seen[r] then
              th.seen[r] = true
              th.regs[#th.regs + 1] = r
            end
          end
        end
      end
    end
    i = i + 1
  end
  local cond = table.concat(lines, "\n", i):match("^%s*(.-)%s*$")
  if cond ~= "" then
    local kind, body = cond:match("^(~?%s*exists)%s*(.*)$")
    if not kind then kind, body = cond:match("^(forall)%s*(.*)$") end
    if kind then
      kind = kind:gsub("%s", "")
      spec[kind == "~exists" and "not_exists" or kind] = body
    end
  end
  for t, th in ipairs(threads) do
    local init_t = reginit[t - 1] or {}
    for r in pairs(init_t) do
      if not th.seen[r] then th.seen[r] = true; th.regs[#th.regs + 1] = r end
    end
    spec[t] = { at = { cta = th.cta, gpu = th.gpu },
                fn = thread_fn(th.insns, init_t, th.regs) }
  end
  return spec
end

return wl
