# --jobs beyond what the address space holds: libuv gives each pool
# thread 8 MiB of stack and aborts when one cannot be made (exit 134,
# no message).  Under ulimit -v, warplab starts as many workers as fit,
# says so, and the histogram is the one of --jobs 1.  (Not under ASan,
# whose shadow memory needs more address space than any such limit.)
set -u
case $WL in *asan*) exit 0 ;; esac
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
L="$ROOT/scripts/litmus"
"$WL" sample -n 5000 --jobs 1 "$L/SB.litmus" > "$T/one" || fail "jobs 1"
# 1 GiB: room for about a hundred 8 MiB stacks, not for a thousand
(ulimit -v 1048576 && exec "$WL" sample -n 5000 --jobs 1000 "$L/SB.litmus") \
  > "$T/many" 2> "$T/err"
rc=$?
[ $rc -eq 0 ] || { cat "$T/err"; fail "--jobs 1000 under ulimit -v: exit $rc"; }
grep -q "^warplab sample: only [0-9]* worker threads\{0,1\} of 1000 could be started (each needs 8 MiB of address space for its stack; ulimit -v, ulimit -u); running with [0-9]*$" "$T/err" ||
  { cat "$T/err"; fail "no note"; }
grep -v '^Time ' "$T/one" > "$T/a"
grep -v '^Time ' "$T/many" > "$T/b"
cmp -s "$T/a" "$T/b" || { diff "$T/a" "$T/b"; fail "histograms differ"; }
# from Lua: the same, with the note in the result
cat > "$T/s.lua" <<'LUA'
local wl = require "warplab"
local t = wl.load(arg[1])
local r = t:sample { n = 2000, jobs = 1000 }
assert(r.workers < 1000, r.workers)
assert(r.note and r.note:find("worker threads? of 1000 could be started"),
       tostring(r.note))
print(r.workers)
LUA
(ulimit -v 1048576 && exec "$WL" run "$T/s.lua" "$L/SB.litmus") > "$T/out" 2>&1 ||
  { cat "$T/out"; fail "Lua: sample{jobs = 1000} under ulimit -v"; }
exit 0
