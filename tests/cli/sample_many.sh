# A test with tens of thousands of distinct outcomes: --timeout still
# ends the sampling on time and the histogram comes out in seconds
# (outcomes are merged through a hash index and sorted in O(n log n):
# a linear search once made `--timeout 5` return after 82-108 s, with
# Ctrl-C ignored meanwhile).  The 90 s watchdog is 4 times what a
# loaded sanitizer build needs; the linear merge took minutes here.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
# 8 threads in 8 CTAs, each storing its location twice and reading the
# 7 others after each store: nearly every run is a new outcome
awk 'BEGIN {
  N = 8; printf "PTX Many\n{"
  for (i = 0; i < N; i++) printf " x%d=0;", i
  printf " }\n"
  for (i = 0; i < N; i++) printf "%sP%d@cta %d,gpu 0", i ? " | " : " ", i, i
  printf " ;\n"
  for (k = 0; k < 2 * N; k++) {
    for (i = 0; i < N; i++) {
      sep = i ? " | " : " "
      if (k % N == 0) printf "%sst.weak x%d, %d", sep, i, k / N + 1
      else printf "%sld.weak r%d, x%d", sep, k - 1 - int(k / N), (i + k % N) % N
    }
    printf " ;\n"
  }
  printf "exists (x0=2)\n"
}' > "$T/many.litmus"
# the test is big enough (deterministic: a seed's fixed number of runs)
"$WL" sample -n 20000 --jobs 2 --profile weak "$T/many.litmus" > "$T/fixed" ||
  fail "sample -n 20000"
n=$(sed -n 's/^Histogram (\([0-9]*\) states)$/\1/p' "$T/fixed")
[ "${n:-0}" -gt 5000 ] || fail "only ${n:-0} outcomes: the test is too small"
timeout 90 "$WL" sample -n 1000000000 --jobs 2 --timeout 2 --profile weak \
  "$T/many.litmus" > "$T/out" 2> "$T/err"
rc=$?
[ $rc -ne 124 ] || fail "sample --timeout 2 took over 90 s"
[ $rc -eq 3 ] || { cat "$T/err"; fail "want exit 3, got $rc"; }
grep -q "^Partial Many: interrupted after [0-9]* runs" "$T/out" ||
  { tail -n 5 "$T/out"; fail "no Partial line"; }
# every outcome is a line, sorted by value, and the counts add up
runs=$(sed -n 's/^Partial Many: interrupted after \([0-9]*\) runs$/\1/p' "$T/out")
sum=$(awk '/^[0-9]+ *[*:]>/ { s += $1 } END { print s }' "$T/out")
[ "$sum" = "$runs" ] || fail "counts add up to $sum, not $runs"
# Ctrl-C in the middle: as prompt, with the partial histogram
timeout --preserve-status -s INT 2 timeout 90 "$WL" sample -n 1000000000 \
  --jobs 2 --profile weak "$T/many.litmus" > "$T/out" 2> "$T/err"
rc=$?
[ $rc -ne 124 ] || fail "sample interrupted after 2 s took over 90 s"
[ $rc -eq 130 ] || { cat "$T/err"; fail "SIGINT: want exit 130, got $rc"; }
grep -q "^Partial Many: interrupted after [0-9]* runs" "$T/out" ||
  { tail -n 5 "$T/out"; fail "SIGINT: no Partial line"; }
exit 0
