# warplab run --check: the checkers on every launch, a summary after the
# script's output (--json: one JSON object), and --check-error's status 4
# for CI; a clean script exits 0.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
cat > "$T/racy.lua" <<'LUA'
local wl = require "warplab"
local dev = wl.device {}
local A = dev:malloc("int32", 64, "A")
A:write(0)
dev:launch(wl.kernel(function(c, A)
  local s = c:shared("int32", 64, "s")
  s[c.threadIdx.x] = 1
  A[c.threadIdx.x] = s[63 - c.threadIdx.x]
end), { grid = 1, block = 64 }, A)
print("script done")
LUA
cat > "$T/clean.lua" <<'LUA'
local wl = require "warplab"
local dev = wl.device {}
local A = dev:malloc("int32", 64, "A")
A:write(0)
dev:launch(wl.kernel(function(c, A) A[c.threadIdx.x] = 1 end),
           { grid = 1, block = 64 }, A)
LUA
"$WL" run "$T/racy.lua" > "$T/out" || fail "plain run failed"
grep -q "Checks" "$T/out" && fail "no summary without --check"
"$WL" run --check "$T/racy.lua" > "$T/out" || fail "--check alone exits 0"
head -n 1 "$T/out" | grep -q "script done" || fail "the script's output first"
grep -q "^Checks: .*data race" "$T/out" || { cat "$T/out"; fail "no summary"; }
grep -q "racy.lua:[78]: data race on shared 's' " "$T/out" || fail "no place"
"$WL" run --check --check-error "$T/racy.lua" > /dev/null
[ $? -eq 4 ] || fail "--check-error: want 4"
"$WL" run --check-error "$T/clean.lua" > "$T/out" || fail "clean: want 0"
grep -q "^Checks: nothing found" "$T/out" || fail "clean summary"
"$WL" run --check=uninit --json "$T/racy.lua" > "$T/out" || fail "json"
tail -n 1 "$T/out" | grep -q '^{"count":' || fail "json summary"
"$WL" run --check=rcaes "$T/racy.lua" 2> "$T/err"
[ $? -eq 1 ] || fail "unknown checker: want 1"
grep -q "unknown checker 'rcaes'" "$T/err" || fail "unknown checker message"
"$WL" run --check=bogus "$T/racy.lua" 2> /dev/null
[ $? -eq 2 ] || fail "bad --check list: want 2"
exit 0
