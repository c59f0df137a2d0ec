# SIGINT and SIGTERM during a split launch (dev:launch{jobs=}, issue 24,
# item 5): the parts stop, `warplab run` reports the interruption and
# exits 130 / 143; caught by pcall, the script goes on and the device
# takes split launches again.  The signal is sent once the script said
# the launch is about to start (a bounded wait on stdout, not a sleep,
# decides when); its kernel runs for minutes.
set -u
T=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
cat > "$T/long.lua" <<'LUA'
local wl = require "warplab"
local catch = arg[1] == "catch"
local dev = wl.device("sm_90")
local out = dev:malloc("int32", 64, "out")
out:write(0)
local k = wl.kernel(function(c, o)
  local s = 0
  for _ = 1, 100000000 do s = s + c:load(o, c.threadIdx.x) end
  o[c.blockIdx.x * 8 + c.threadIdx.x] = s
end)
local function go()
  return dev:launch(k, { grid = 8, block = 8, jobs = 2,
                         max_seconds = 1000 }, out)
end
print("start")
io.stdout:flush()
if not catch then go() return end
local ok, e = pcall(go)
assert(not ok and tostring(e):find("interrupted by SIG"), tostring(e))
print("caught: " .. tostring(e):gsub("\n.*", ""))
local quick = wl.kernel(function(c, o) o[c.blockIdx.x * 8 + c.threadIdx.x] = 9 end)
local r = dev:launch(quick, { grid = 8, block = 8, jobs = 2 }, out)
assert(r.split.joined and out:read()[64] == 9)
print("again: joined")
LUA
# wait_for FILE PATTERN: until FILE matches (at most 60 s)
wait_for() {
  n=0
  until grep -q "$2" "$1" 2>/dev/null; do
    n=$((n + 1))
    [ $n -le 600 ] || { cat "$1"; fail "timed out waiting for '$2'"; }
    sleep 0.1
  done
}
for sig in INT TERM; do
  want=130
  [ $sig = TERM ] && want=143
  rm -f "$T/out" # (else the wait could see the last run's "start" and
  # send the signal before the script even started)
  "$WL" run "$T/long.lua" > "$T/out" 2> "$T/err" &
  pid=$!
  wait_for "$T/out" '^start'
  kill -s $sig "$pid"
  wait "$pid"
  rc=$?
  pid=
  [ $rc -eq $want ] || { cat "$T/err"; fail "SIG$sig: exit $rc, want $want"; }
  grep -q "interrupted by SIG$sig" "$T/err" || { cat "$T/err"; fail "SIG$sig: no message"; }
done
rm -f "$T/out"
"$WL" run "$T/long.lua" catch > "$T/out" 2> "$T/err" &
pid=$!
wait_for "$T/out" '^start'
kill -s INT "$pid"
wait "$pid"
rc=$?
pid=
[ $rc -eq 0 ] || { cat "$T/out" "$T/err"; fail "caught: exit $rc"; }
grep -q '^caught: .*interrupted by SIGINT' "$T/out" || { cat "$T/out"; fail "caught: no message"; }
grep -q '^again: joined' "$T/out" || { cat "$T/out" "$T/err"; fail "the device after an interrupted split launch"; }
exit 0
