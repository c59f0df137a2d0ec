# The C module loads into the system lua5.4 from the build folder, with
# its embedded pure-Lua part; `warplab run` passes arguments and reports
# errors as "warplab: script.lua:LINE: message" with a traceback.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
B=$(dirname "$WL")
command -v lua5.4 >/dev/null 2>&1 || fail "lua5.4 missing: apt-get install -y lua5.4"
# A sanitizer build of the module needs its runtime loaded first.
case $B in
  *asan*|*ubsan*)
    pre=""
    for l in libasan.so libubsan.so; do
      p=$(${CC:-cc} -print-file-name=$l 2>/dev/null)
      [ -f "$p" ] && pre="$pre $p"
    done
    export LD_PRELOAD="${pre# }" ASAN_OPTIONS=detect_leaks=0 ;;
esac
out=$(cd "$ROOT" && lua5.4 -e "package.cpath='$B/?.so;'..package.cpath" -e '
  local wl = require "warplab"
  assert(type(wl.litmus) == "function" and type(wl.corpus) == "function")
  local r = wl.litmus {
    init = { x = 0, y = 0 },
    { "st.weak x, 1", "st.release.gpu y, 1" },
    function(d) local a = d:load("y", "acquire", "gpu"); return { a = a, b = d.x } end,
    exists = "1:a == 1 /\\ 1:b == 0",
  }:explore()
  print(r.ok, r.nstates)' 2>&1) || fail "require from lua5.4 failed: $out"
[ "$out" = "false	3" ] || fail "unexpected output: $out"
# arguments and arg
printf 'local wl = require "warplab"\nprint(arg[0], ..., arg[2], wl.version ~= nil)\n' > "$T/args.lua"
out=$("$WL" run "$T/args.lua" one two) || fail "run args.lua failed"
[ "$out" = "$T/args.lua	one	two	true" ] || fail "arg/...: $out"
# an error: the script line, a traceback, exit 1
printf 'local x = 1\nerror("boom")\n' > "$T/err.lua"
"$WL" run "$T/err.lua" > "$T/out" 2> "$T/err"
[ $? -eq 1 ] || fail "error: want exit 1"
grep -q "^warplab: $T/err.lua:2: boom" "$T/err" || { cat "$T/err"; fail "error message"; }
grep -q "stack traceback:" "$T/err" || fail "no traceback"
# an error inside a thread function keeps its one traceback
printf 'local wl = require "warplab"\nlocal t = wl.litmus { init = { x = 0 },\n  function(d) error("in thread") end }\nt:explore()\n' > "$T/thr.lua"
"$WL" run "$T/thr.lua" 2> "$T/err"
[ $? -eq 1 ] || fail "thread error: want exit 1"
grep -q "^warplab: $T/thr.lua:3: in thread" "$T/err" || { cat "$T/err"; fail "thread error message"; }
[ "$(grep -c 'stack traceback:' "$T/err")" -eq 1 ] || { cat "$T/err"; fail "one traceback"; }
# a syntax error, a missing script, no script
printf 'x = = 1\n' > "$T/syn.lua"
"$WL" run "$T/syn.lua" 2> "$T/err"; [ $? -eq 1 ] || fail "syntax: want 1"
grep -q "syn.lua:1:" "$T/err" || fail "syntax message"
"$WL" run "$T/none.lua" 2> "$T/err"; [ $? -eq 1 ] || fail "missing: want 1"
"$WL" run 2> "$T/err"; [ $? -eq 2 ] || fail "no script: want 2"
"$WL" help | grep -q "run SCRIPT.lua" || fail "help lacks run"
exit 0
