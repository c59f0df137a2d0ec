# One signal policy for every long command: SIGINT and SIGTERM end the
# work, print what there is marked Partial, and exit 130 / 143; inside
# `warplab run` they interrupt the script with an error it can catch
# (pcall), in pure Lua, in a sampling, an exploration and a kernel
# launch.  Signals go to a background process once it says it is at the
# long part (a bounded wait, not a sleep, decides when).
set -u
T=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
L="$ROOT/scripts/litmus"
# eight threads storing to and loading from two locations: minutes for
# either search, with states found from the first second (the name is
# historical)
cat > "$T/xchg.litmus" <<'LIT'
PTX xchg
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 | P3@cta 3,gpu 0 | P4@cta 4,gpu 0 | P5@cta 5,gpu 0 | P6@cta 6,gpu 0 | P7@cta 7,gpu 0 ;
 st.relaxed.gpu x, 1 | st.relaxed.gpu x, 2 | st.relaxed.gpu x, 3 | st.relaxed.gpu x, 4 | st.relaxed.gpu x, 5 | st.relaxed.gpu x, 6 | st.relaxed.gpu x, 7 | st.relaxed.gpu x, 8 ;
 ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, x ;
 st.relaxed.gpu y, 1 | st.relaxed.gpu y, 2 | st.relaxed.gpu y, 3 | st.relaxed.gpu y, 4 | st.relaxed.gpu y, 5 | st.relaxed.gpu y, 6 | st.relaxed.gpu y, 7 | st.relaxed.gpu y, 8 ;
 ld.relaxed.gpu r1, y | ld.relaxed.gpu r1, y | ld.relaxed.gpu r1, y | ld.relaxed.gpu r1, y | ld.relaxed.gpu r1, y | ld.relaxed.gpu r1, y | ld.relaxed.gpu r1, y | ld.relaxed.gpu r1, y ;
exists (x=0)
LIT
# wait_for FILE PATTERN: until a line of FILE matches (at most 60 s)
wait_for() {
  n=0
  until grep -q "$2" "$1" 2>/dev/null; do
    n=$((n + 1))
    [ $n -le 600 ] || { cat "$1"; fail "timed out waiting for '$2'"; }
    sleep 0.1
  done
}

# sample: SIGTERM (what timeout and schedulers send) keeps the partial
# histogram and exits 143
timeout --preserve-status -s TERM 1 \
  "$WL" sample -n 1000000000000 --jobs 2 "$L/SB.litmus" > "$T/out" 2> "$T/err"
rc=$?
[ $rc -eq 143 ] || { cat "$T/err"; fail "sample SIGTERM: want 143, got $rc"; }
grep -q "^Partial SB: interrupted after [0-9]* runs" "$T/out" ||
  { cat "$T/out"; fail "sample SIGTERM: no Partial line"; }
grep -q "^Observation SB " "$T/out" || fail "sample SIGTERM: no histogram"
grep -q "SB.litmus: interrupted by SIGTERM after [0-9]* of" "$T/err" ||
  { cat "$T/err"; fail "sample SIGTERM message"; }

# litmus: SIGINT and SIGTERM end the exploration, print the states found
# so far marked Partial, skip the files after it, exit 130 / 143
for s in INT:130 TERM:143; do
  sig=${s%:*} want=${s#*:}
  timeout --preserve-status -s $sig 1 "$WL" litmus --unroll 8 \
    "$L/MP.litmus" "$T/xchg.litmus" "$L/SB.litmus" > "$T/out" 2> "$T/err"
  rc=$?
  [ $rc -eq $want ] || { cat "$T/err"; fail "litmus SIG$sig: want $want, got $rc"; }
  grep -q "^Test MP Allowed" "$T/out" || { cat "$T/out"; fail "litmus: MP"; }
  grep -q "^Partial xchg: interrupted by SIG$sig after" "$T/out" ||
    { cat "$T/out"; fail "litmus SIG$sig: no Partial line"; }
  grep -q "^Warning xchg: partial result" "$T/out" ||
    { cat "$T/out"; fail "litmus SIG$sig: the partial states are not marked"; }
  grep -q "^[0-9]:r0=" "$T/out" ||
    { cat "$T/out"; fail "litmus SIG$sig: no states found so far"; }
  ! grep -q "^Test SB" "$T/out" || fail "litmus SIG$sig: the next file ran"
  grep -q "xchg.litmus: interrupted by SIG$sig" "$T/err" ||
    { cat "$T/err"; fail "litmus SIG$sig message"; }
done
# --json stays one valid array
timeout --preserve-status -s INT 1 "$WL" litmus --json --unroll 8 \
  "$L/MP.litmus" "$T/xchg.litmus" > "$T/out" 2> /dev/null
[ $? -eq 130 ] || fail "litmus --json SIGINT: want 130"
if command -v python3 >/dev/null 2>&1; then
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d)==2 and d[1]["partial"] and len(d[1]["states"]) > 0, d' "$T/out" ||
    { cat "$T/out"; fail "litmus --json after SIGINT is not valid"; }
fi

# run: each long part is interrupted by an error the script catches;
# then an uncaught one ends it with the signal's status
cat > "$T/s.lua" <<'LUA'
local wl = require "warplab"
local function phase(name, f)
  local ok, err = pcall(function()
    io.stdout:write("ready ", name, "\n")
    io.stdout:flush()
    f()
  end)
  io.stdout:write("caught ", name, ": ", tostring(ok), " ", tostring(err),
                  "\n")
  io.stdout:flush()
end
phase("lua", function() while true do end end)
phase("sample", function()
  wl.load(arg[1]):sample { n = 10^12 // 1, jobs = 2 }
end)
phase("explore", function() wl.load(arg[2]):explore { unroll = 8 } end)
phase("launch", function()
  local dev = wl.device { preset = "sm_90" }
  local flag = dev:malloc("int32", 1)
  flag:write(0)
  dev:launch(wl.kernel(function(c, f) while f[0] == 0 do end end),
             { grid = 2, block = 64, max_seconds = 1000,
               max_steps = 10^15 // 1 }, flag)
end)
-- a kernel looping in pure Lua (no device call, so no step): the launch
-- sets no count hook, its watch (bindings/lkwatch.c) sees the signal
phase("kloop", function()
  local dev = wl.device { preset = "sm_90" }
  local a = dev:malloc("int32", 64)
  dev:launch(wl.kernel(function(c, a)
               a[c.threadIdx.x] = 1
               while true do end
             end), { grid = 1, block = 64, max_seconds = 1000 }, a)
end)
io.stdout:write("ready last\n")
io.stdout:flush()
while true do end
LUA
"$WL" run "$T/s.lua" "$L/SB.litmus" "$T/xchg.litmus" > "$T/out" 2> "$T/err" &
pid=$!
for p in lua sample explore launch kloop; do
  wait_for "$T/out" "^ready $p$"
  kill -INT $pid
  wait_for "$T/out" "^caught $p: "
  grep -q "^caught $p: false .*interrupted by SIGINT" "$T/out" ||
    { cat "$T/out" "$T/err"; fail "run: $p not interrupted by an error"; }
done
wait_for "$T/out" "^ready last$"
kill -TERM $pid
wait $pid
rc=$?
pid=
[ $rc -eq 143 ] || { cat "$T/out" "$T/err"; fail "run SIGTERM: want 143, got $rc"; }
grep -q "^warplab: .*interrupted by SIGTERM" "$T/err" ||
  { cat "$T/err"; fail "run SIGTERM message"; }
exit 0
