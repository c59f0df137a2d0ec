# sample --harness (wl_sample_opts.harness): the program the runs stand
# for.  plain is the default and changes nothing (the same histogram
# byte for byte); the presets without start delays or stalls run as
# plain; delay draws each thread's start delay and one stall, which
# reorder the threads (a schedule the scheduler could pick anyway), so
# every outcome is one the model allows, for any --jobs, stepped or
# drawn from the exact law; an unknown name is a usage error.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
L="$ROOT/scripts/litmus"
G="$ROOT/tests/hw/gen22set"
strip() { grep -v '^Time ' "$1"; }
for f in "$L/MP.litmus" "$L/SB.litmus" "$G/rand-s522-3.litmus"; do
  "$WL" sample -n 20000 --seed 7 "$f" > "$T/def" || fail "$f: default"
  for h in plain sync stress parallel; do
    "$WL" sample -n 20000 --seed 7 --harness $h "$f" > "$T/h" ||
      fail "$f: --harness $h"
    [ "$(strip "$T/def")" = "$(strip "$T/h")" ] ||
      fail "$f: --harness $h is not the default's histogram"
  done
done
# delay moves the threads against each other: on rand-s522-3 (P0's
# sys-scope atomic, P1's gpu-scope fence) the histogram changes
"$WL" sample -n 100000 --seed 7 "$G/rand-s522-3.litmus" > "$T/plain" ||
  fail "plain"
"$WL" sample -n 100000 --seed 7 --harness delay "$G/rand-s522-3.litmus" \
  > "$T/delay" || fail "delay"
[ "$(strip "$T/plain")" != "$(strip "$T/delay")" ] ||
  { cat "$T/plain"; fail "delay gives plain's histogram"; }
# the same seed gives the same histogram for any --jobs and any split;
# exact law and step by step give outcomes the model allows
for f in "$L/MP.litmus" "$L/SB.litmus" "$L/LB.litmus" \
         "$G/rand-s522-3.litmus" "$G/rand-s523-1.litmus" \
         "$G/rand-s524-0.litmus"; do
  "$WL" sample -n 30000 --seed 3 --harness delay --jobs 1 "$f" > "$T/j1" ||
    fail "$f: delay --jobs 1"
  "$WL" sample -n 30000 --seed 3 --harness delay --jobs 3 "$f" > "$T/j3" ||
    fail "$f: delay --jobs 3"
  [ "$(strip "$T/j1")" = "$(strip "$T/j3")" ] ||
    fail "$f: delay: --jobs 1 and 3 differ"
  for x in "" --no-exact; do
    # shellcheck disable=SC2086 # empty or one word
    "$WL" sample -n 30000 --seed 3 --harness delay $x "$f" > "$T/s" ||
      fail "$f: delay $x"
    "$WL" compare "$T/s" "$f" > "$T/c" 2>&1 ||
      { cat "$T/c"; fail "$f: delay $x: an outcome the model forbids"; }
  done
done
# bad names
"$WL" sample --harness nope "$L/MP.litmus" > "$T/o" 2> "$T/e"
[ $? -eq 2 ] || fail "--harness nope: not a usage error"
grep -q "harness" "$T/e" || { cat "$T/e"; fail "--harness nope: no message"; }
# Lua: harness= as sample's option
cat > "$T/h.lua" <<'LUA'
local wl = require "warplab"
local t = wl.load(arg[1])
local a = t:sample{n = 5000, seed = 2, jobs = 1}
local b = t:sample{n = 5000, seed = 2, jobs = 1, harness = "plain"}
local function untimed(r) return (r.text:gsub("\nTime [^\n]*", "")) end
assert(untimed(a) == untimed(b), "harness=plain changed the histogram")
local c = t:sample{n = 5000, seed = 2, jobs = 1, harness = "delay"}
assert(c.runs == 5000)
local ok, err = pcall(t.sample, t, {harness = "nope"})
assert(not ok and err:find("harness"), "harness=nope: " .. tostring(err))
print("ok")
LUA
out=$("$WL" run "$T/h.lua" "$G/rand-s522-3.litmus" 2>&1) ||
  { echo "$out"; fail "Lua harness="; }
[ "$out" = ok ] || { echo "$out"; fail "Lua harness=: $out"; }
exit 0
