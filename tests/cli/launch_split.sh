# dev:launch{jobs=} and warplab run --jobs (issue 24, item 4): the
# tour's scripts (scripts/examples/*.lua) print the same for --jobs 1, 2
# and 4 -- their kernels' memory, counters, findings and histograms --
# apart from the seconds of simulation they measure; the split launch's
# property (tests/lua/kernel_split.lua) fails with a warplab whose parts
# always join (WL_MUTANT_SPLITJOIN: blocks that communicated joined as
# if they had not), and with one whose joins keep each part's own L2
# hits and misses (WL_MUTANT_L2REPLAY); bad --jobs values are usage
# errors.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
case $WL in /*) ;; *) WL=$PWD/$WL ;; esac
B=$(dirname "$WL")
for f in "$ROOT"/scripts/examples/*.lua; do
  n=$(basename "$f" .lua)
  for j in 1 2 4; do
    (cd "$ROOT/scripts/examples" && "$WL" run --jobs "$j" "$n.lua") \
      > "$T/$n.$j" 2>&1 || fail "$n --jobs $j: exit $?: $(tail -n 3 "$T/$n.$j")"
    sed -E "s/[0-9]+\.[0-9]+ s( of simulation|\))/X s\1/g" \
      "$T/$n.$j" > "$T/$n.$j.m"
  done
  cmp -s "$T/$n.1.m" "$T/$n.2.m" || { diff "$T/$n.1.m" "$T/$n.2.m" | head; fail "$n: --jobs 2 differs from --jobs 1"; }
  cmp -s "$T/$n.1.m" "$T/$n.4.m" || { diff "$T/$n.1.m" "$T/$n.4.m" | head; fail "$n: --jobs 4 differs from --jobs 1"; }
done
for m in splitjoin l2replay; do
  M="$B/tests/warplab_$m"
  [ -x "$M" ] || fail "no $M (make test builds it)"
  (cd "$ROOT" && "$M" run tests/lua/kernel_split.lua "$SHARED" 40 3) \
    > "$T/mut" 2>&1 && fail "the $m mutant passed the property"
  grep -q '^FAIL case' "$T/mut" || { tail -n 5 "$T/mut"; fail "mutant $m: no FAIL line"; }
  # l2replay is caught by the comparison with the parts run in turn
  [ $m = splitjoin ] || grep -q "^FAIL case.*one after the other" "$T/mut" ||
    { tail -n 5 "$T/mut"; fail "mutant $m: not caught by the sequential check"; }
  echo "mutant $m: $(grep -c '^FAIL case' "$T/mut") failures on 40 kernels"
done
(cd "$ROOT" && "$WL" run tests/lua/kernel_split.lua "$SHARED" 40 3) \
  > "$T/real" 2>&1 || { tail -n 5 "$T/real"; fail "kernel_split seed 3 failed"; }
for bad in 0 1025 x; do
  "$WL" run --jobs "$bad" "$ROOT/scripts/examples/01_write_read_xy.lua" \
    > /dev/null 2> "$T/err"
  [ $? -eq 2 ] || fail "--jobs $bad: want exit 2"
  grep -q -- "--jobs" "$T/err" || fail "--jobs $bad: no message"
done
exit 0
