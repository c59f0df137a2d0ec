# Every outcome stored in tests/hw/observed (histograms printed by
# programs that `warplab cuda` wrote, run on real GPUs) is one the model
# allows: `warplab compare` exits 0 for each, never 4 (observed but
# forbidden).  No GPU is needed: the histograms are data.
set -u
fail() { echo "$*"; exit 1; }
n=0
for h in "$ROOT"/tests/hw/observed/*/*/*.hist; do
  [ -f "$h" ] || continue
  src=$(sed -n -e 's/^# warplab cuda: test [^ ]* (\(.*\))$/\1/p' \
    -e 's/^# warplab cuda --stream: test [^ ]* (\(.*\))$/\1/p' "$h" | head -n 1)
  case "$src" in
    tests/*) f="$ROOT/$src" ;;
    dat3m/*) f="$SHARED/conformance/$src" ;;
    *) fail "$h: no '# warplab cuda: test NAME (FILE)' line" ;;
  esac
  [ -f "$f" ] || fail "$h: the test $f is missing"
  out=$("$WL" compare "$h" "$f" 2>&1)
  rc=$?
  [ $rc -eq 0 ] || { printf '%s\n' "$out"; fail "$h: compare exit $rc"; }
  printf '%s\n' "$out" | grep -q '^Verdict .* Ok:' || fail "$h: no verdict"
  n=$((n + 1))
done
[ $n -ge 471 ] || fail "only $n stored histograms (expected 471)"
# two GPUs (tests/hw/two_gpu.cu): a row that saw the weak outcome names a
# test the model allows; those it forbids (fence.sc.sys) saw none
for t in "$ROOT"/tests/hw/observed/*/two_gpu.tsv; do
  [ -f "$t" ] || continue
  grep -v '^#' "$t" | tail -n +2 | while read -r shape fence home pairs rounds weak rest; do
    f="$ROOT/tests/hw/two_gpu/$shape+$fence+home$home.litmus"
    [ -f "$f" ] || { echo "$t: no $f"; exit 1; }
    v=$("$WL" litmus -q "$f" | awk '{print $2}')
    if [ "$weak" -gt 0 ] && [ "$v" != Ok ]; then
      echo "$t: $shape $fence home $home: $weak weak outcomes the model forbids"
      exit 1
    fi
  done || fail "two-GPU observations"
done
# a forbidden outcome is flagged with exit status 4
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
sed 's/S+none+sameCTA/S+fence.sc.cta+sameCTA/' \
  "$ROOT/tests/hw/observed/h100-2026-11-26/shapes/S+none+sameCTA.hist" \
  > "$T/h"
"$WL" compare "$T/h" "$ROOT/tests/hw/shapes/S+fence.sc.cta+sameCTA.litmus" \
  > "$T/out" 2> "$T/err"
[ $? -eq 4 ] || fail "a forbidden outcome: exit status not 4"
grep -q FORBIDDEN "$T/out" || fail "a forbidden outcome: not flagged"
grep -q 'model forbids' "$T/err" || fail "a forbidden outcome: no message"
exit 0
