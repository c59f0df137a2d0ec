# SIGINT and SIGTERM during dev:runs (issue 24, items 4 and 5): the runs
# stop, and the error raised is the histogram of the runs that finished,
# marked partial: uncaught, `warplab run` prints it ("dev:runs:
# interrupted by SIGINT after K of N runs", the histogram, "Partial: K of
# N runs") and exits 130 / 143; caught by pcall, the script gets the
# histogram itself (h.partial, h.signal) and goes on.  The signal is sent
# once the progress line shows runs done (a bounded wait on stderr, not
# a sleep, decides when): a million runs take minutes, so the runs are
# always under way then.
set -u
T=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
cat > "$T/runs.lua" <<'LUA'
local wl = require "warplab"
local jobs, catch = tonumber(arg[1]), arg[2] == "catch"
local dev = wl.device("sm_90")
local k = wl.kernel(function(c, flag, data, out)
  if c.threadIdx.x ~= 0 then return end
  if c.blockIdx.x == 0 then data[0] = 42; flag[0] = 1
  else out[0] = flag[0] * 100 + data[0] end
end)
local flag = dev:malloc("int32", 1, "flag")
local data = dev:malloc("int32", 1, "data")
local out = dev:malloc("int32", 1, "out")
local function go()
  return dev:runs(k, { grid = 2, block = 32, slice = 1 },
                  { n = 1000000, jobs = jobs, seed = 3, progress = true },
                  flag, data, out)
end
if not catch then go() return end
local ok, h = pcall(go)
assert(not ok and type(h) == "table", "want the partial histogram")
assert(h.partial == true and h.signal ~= nil and h.runs < 1000000)
local sum = 0
for _, o in ipairs(h.outcomes) do sum = sum + o.count end
assert(sum == h.runs and h.runs > 0)
print("caught " .. h.signal .. " after " .. h.runs .. " runs")
print(h)
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
for run in 1:INT:130 2:INT:130 2:TERM:143 4:INT:130; do
  j=${run%%:*} rest=${run#*:}
  sig=${rest%:*} want=${rest#*:}
  rm -f "$T/err"
  "$WL" run "$T/runs.lua" "$j" > "$T/out" 2> "$T/err" &
  pid=$!
  wait_for "$T/err" "dev:runs: [0-9]*% [1-9][0-9]*/1000000 runs"
  kill -$sig $pid
  wait $pid
  rc=$?
  pid=
  [ $rc -eq $want ] ||
    { cat "$T/err"; fail "--jobs $j SIG$sig: want $want, got $rc"; }
  grep -q "dev:runs: interrupted by SIG$sig after [1-9][0-9]* of 1000000 runs" \
    "$T/err" || { cat "$T/err"; fail "jobs $j SIG$sig: no interrupt line"; }
  grep -q "^Partial: [1-9][0-9]* of 1000000 runs" "$T/err" ||
    { cat "$T/err"; fail "jobs $j SIG$sig: no Partial line"; }
  grep -q "^Histogram (" "$T/err" ||
    { cat "$T/err"; fail "jobs $j SIG$sig: no histogram"; }
done
# caught: the script gets the partial histogram and goes on (exit 0).
# (err is removed first, as in the loop: the shell truncates it in the
# child, after wait_for may have read the last run's progress line in
# it and sent the signal before the script even started)
rm -f "$T/err"
"$WL" run "$T/runs.lua" 2 catch > "$T/out" 2> "$T/err" &
pid=$!
wait_for "$T/err" "dev:runs: [0-9]*% [1-9][0-9]*/1000000 runs"
kill -INT $pid
wait $pid
rc=$?
pid=
[ $rc -eq 0 ] || { cat "$T/err" "$T/out"; fail "caught: want 0, got $rc"; }
grep -q "^caught SIGINT after [1-9][0-9]* runs" "$T/out" ||
  { cat "$T/out"; fail "caught: no line"; }
grep -q "^Partial: " "$T/out" || { cat "$T/out"; fail "caught: no Partial"; }
echo "kernel_runs_signal: ok"
