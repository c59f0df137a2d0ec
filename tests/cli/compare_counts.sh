# compare's counts (issue 20, item 18): a count that does not fit in 64
# bits is refused with file:line (it was saturated), counts whose total
# does not fit are refused (the total wrapped), as are values and thread
# numbers that do not fit and an announced number of outcomes the file
# cannot hold (it was allocated first); big counts that fit are exact.
# A failed write to stdout is an error (item 15).
set -u
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
fail() { echo "$*"; exit 1; }
MP="$ROOT/scripts/litmus/MP.litmus"
hist() { # hist FILE LINE... : a histogram of MP with these outcome lines
  f=$1; shift
  { echo "Test MP Allowed"; echo "Histogram ($# states)"
    for l in "$@"; do echo "$l"; done; } > "$f"
}
refused() { # refused HIST PATTERN
  "$WL" compare "$1" "$MP" > "$D/out" 2> "$D/err"
  rc=$?
  [ $rc -eq 1 ] || { cat "$D/out" "$D/err"; fail "$1: want 1, got $rc"; }
  grep -q -- "$2" "$D/err" || { cat "$D/err"; fail "$1: no '$2'"; }
}
# the largest count that fits, exact
hist "$D/max.txt" "18446744073709551615 :>1:r0=0; 1:r1=0;"
"$WL" compare "$D/max.txt" "$MP" > "$D/out" 2> "$D/err" || { cat "$D/err"; fail "max count"; }
grep -q "in 18446744073709551615 runs" "$D/out" || { cat "$D/out"; fail "max count not exact"; }
grep -q "^18446744073709551615 yes" "$D/out" || { cat "$D/out"; fail "max count row"; }
# one more does not fit
hist "$D/big.txt" "18446744073709551616 :>1:r0=0; 1:r1=0;"
refused "$D/big.txt" "big.txt:3: the count 18446744073709551616 does not fit in 64 bits"
hist "$D/huge.txt" "1000000000000000000000000000000000000000000000000000 :>1:r0=0; 1:r1=0;"
refused "$D/huge.txt" "huge.txt:3: the count 1000000000000000000000000000000000000000... does not fit"
# two that fit, whose total does not
hist "$D/sum.txt" "18446744073709551615 :>1:r0=0; 1:r1=0;" \
  "1 :>1:r0=0; 1:r1=1;"
refused "$D/sum.txt" "sum.txt: the counts of test MP add up to more than 18446744073709551615 runs"
# a value, a thread that do not fit
hist "$D/val.txt" "1 :>1:r0=99999999999999999999; 1:r1=0;"
refused "$D/val.txt" "val.txt:3: the value 99999999999999999999 does not fit in 64 bits"
hist "$D/th.txt" "1 :>99999999999999999999:r0=0; 1:r1=0;"
refused "$D/th.txt" "th.txt:3: no such thread 99999999999999999999"
# more outcomes announced than lines
printf 'Test MP Allowed\nHistogram (9223372036854775807 states)\n1 :>1:r0=0; 1:r1=0;\n' > "$D/n.txt"
refused "$D/n.txt" "n.txt:2: 9223372036854775807 outcomes announced, but 1 lines follow"
# stdout on a full device
hist "$D/ok.txt" "5 :>1:r0=0; 1:r1=0;"
"$WL" compare "$D/ok.txt" "$MP" > /dev/full 2> "$D/err"
rc=$?
[ $rc -eq 1 ] || fail "compare > /dev/full: want 1, got $rc"
grep -q "writing stdout: No space left on device" "$D/err" || { cat "$D/err"; fail "compare > /dev/full: no message"; }
exit 0
