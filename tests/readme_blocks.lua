-- readme_blocks.lua README.md -- runs every code block of the README
-- the way a user would, from the folder it is run in (tests/cli/
-- readme.sh: a copy of the tracked files, without ../shared):
--   ```sh       run with sh -e; it must exit 0
--   ```console  each "$ command" is run with sh; the lines after it, up
--               to the next "$ ", are its standard output: they must
--               match ("..." stands for any lines; the time on a
--               "Time NAME S" line is not compared)
--   ```lua      saved (as the file its first line names, "-- x.lua",
--               else readme-N.lua) and run with `warplab run`; it must
--               exit 0
--   ```json, ```text, ```c   shown, not run
-- A block that is not to run carries the line
--   <!-- readme-test: skip (why) -->
-- just before it; a block without a language is an error.  Prints each
-- failure and a count; exits 1 when a block failed.
local readme = assert(arg[1], "usage: readme_blocks.lua README.md")
local warplab = arg[2] or "build/release/warplab"
local run_langs = { sh = true, console = true, lua = true }
local show_langs = { json = true, text = true, c = true }

local blocks, lines = {}, {}
for l in io.lines(readme) do lines[#lines + 1] = l end
-- blocks, also indented ones (in a list item): the fence's indentation
-- is taken off every line of the block
local i = 1
while i <= #lines do
  local indent, fence, lang = lines[i]:match("^( *)(```+)(%S*)%s*$")
  if fence then
    local b = { line = i, lang = lang, text = {} }
    b.skip = i > 1 and
             lines[i - 1]:match("^%s*<!%-%- readme%-test: skip") ~= nil
    i = i + 1
    while i <= #lines and lines[i] ~= indent .. fence do
      local l = lines[i]
      if l:sub(1, #indent) == indent then l = l:sub(#indent + 1) end
      b.text[#b.text + 1] = l
      i = i + 1
    end
    blocks[#blocks + 1] = b
  end
  i = i + 1
end

local failures, nrun, nskip = 0, 0, 0
local function fail(b, fmt, ...)
  failures = failures + 1
  io.stderr:write(("%s:%d: ```%s block: " .. fmt .. "\n"):format(
    readme, b.line, b.lang, ...))
end

local function sh(cmd)
  local p = io.popen("exec 2>&1; " .. cmd)
  local out = p:read("a")
  local ok, _, code = p:close()
  return out, ok and 0 or code
end

local function quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

-- the output a console block shows: "..." matches any lines; a Time
-- line's seconds are not compared
local function norm(l)
  return (l:gsub("%s+$", ""):gsub("^(Time %S+) %d+%.%d+$", "%1 T"))
end
local function matches(want, got, wi, gi)
  wi, gi = wi or 1, gi or 1
  if wi > #want then return gi > #got end
  if want[wi] == "..." then
    for g = gi, #got + 1 do
      if matches(want, got, wi + 1, g) then return true end
    end
    return false
  end
  return gi <= #got and norm(want[wi]) == norm(got[gi]) and
         matches(want, got, wi + 1, gi + 1)
end
local function split(s)
  local t = {}
  for l in (s .. "\n"):gmatch("(.-)\n") do t[#t + 1] = l end
  while #t > 0 and t[#t] == "" do t[#t] = nil end
  return t
end

for n, b in ipairs(blocks) do
  if b.lang == "" then
    fail(b, "no language (```sh, ```console, ```lua, or ```text when it is not to run)")
  elseif b.skip then
    nskip = nskip + 1
  elseif run_langs[b.lang] then
    nrun = nrun + 1
    if b.lang == "sh" then
      local out, code = sh("sh -e -c " .. quote(table.concat(b.text, "\n")))
      if code ~= 0 then fail(b, "exit %s:\n%s", code, out) end
    elseif b.lang == "lua" then
      local name = b.text[1]:match("^%-%- ([%w_%-]+%.lua)$") or
                   ("readme-" .. n .. ".lua")
      local f = assert(io.open(name, "w"))
      f:write(table.concat(b.text, "\n"), "\n")
      f:close()
      local out, code = sh(quote(warplab) .. " run " .. quote(name))
      if code ~= 0 then fail(b, "warplab run: exit %s:\n%s", code, out) end
      os.remove(name)
    else -- console
      local k = 1
      if not (b.text[1] or ""):match("^%$ ") then
        fail(b, "the first line is not a command ('$ ...')")
      end
      while k <= #b.text do
        local cmd = b.text[k]:match("^%$ (.*)$")
        local want = {}
        k = k + 1
        while k <= #b.text and not b.text[k]:match("^%$ ") do
          want[#want + 1] = b.text[k]
          k = k + 1
        end
        if cmd then
          local p = io.popen(cmd .. " 2>/dev/null")
          local got = split(p:read("a"))
          p:close()
          while #want > 0 and want[#want] == "" do want[#want] = nil end
          if not matches(want, got) then
            fail(b, "$ %s\nwanted:\n%s\ngot:\n%s", cmd,
                 table.concat(want, "\n"), table.concat(got, "\n"))
          end
        end
      end
    end
  elseif not show_langs[b.lang] then
    fail(b, "unknown language '%s'", b.lang)
  end
end
print(("%s: %d blocks run, %d failed (%d skipped, %d shown)"):format(
      readme, nrun, failures, nskip, #blocks - nrun - nskip))
os.exit(failures == 0 and 0 or 1)
