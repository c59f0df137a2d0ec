# A model file is input like any other (issue 20, items 5, 7, 8, 10):
# a directory, /dev/zero and a FIFO are refused by name before a byte
# is read (no hang, no memory exhausted); a file over 16 MiB is refused;
# files that include the next one ten times each (10^8 parses) fail at
# the include past the budget, in well under a second; let rec under a
# complement or a difference's right side is refused with
# file:line:col.  Every refusal is a nonzero exit, within a bound.
set -eu
WL=$(cd "$(dirname "$WL")" && pwd)/$(basename "$WL")
T="$ROOT/tests/litmus/MP+sc.cta+diffCTA+relacq.gpu.litmus"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
# fails (not 0, not a signal) with $1 in its message
refused() {
  want=$1
  shift
  rc=0
  timeout -k 5 30 "$WL" litmus -q "$@" "$T" > "$d/out" 2> "$d/err" || rc=$?
  if [ "$rc" = 0 ] || [ "$rc" -ge 124 ]; then
    echo "exit $rc for $*"; cat "$d/err"; exit 1
  fi
  grep -qF -- "$want" "$d/err" || { echo "want: $want"; cat "$d/err"; exit 1; }
}
refused "cannot read '$d': is a directory" --model "$d"
refused "cannot read '/dev/zero': not a regular file (a character device)" \
  --model /dev/zero
mkfifo "$d/fifo.cat"
refused "cannot read '$d/fifo.cat': not a regular file (a FIFO)" \
  --model "$d/fifo.cat"
# the same for a relative name in the current directory
(cd "$d" && refused "cannot read 'fifo.cat': not a regular file (a FIFO)" \
  --model fifo.cat)
# and for includes
printf 'M\ninclude "fifo.cat"\n' > "$d/incfifo.cat"
refused "incfifo.cat:2:9: cannot read '$d/fifo.cat': not a regular file (a FIFO)" \
  --model "$d/incfifo.cat"
printf 'M\ninclude "/dev/zero"\n' > "$d/inczero.cat"
refused "inczero.cat:2:9: cannot read '/dev/zero': not a regular file" \
  --model "$d/inczero.cat"
# over 16 MiB: refused before parsing
{ echo M; head -c 17000000 /dev/zero | tr '\0' ' '; echo 'acyclic po'; } \
  > "$d/big.cat"
refused "cannot read '$d/big.cat': too large (over 16 MiB)" \
  --model "$d/big.cat"
# ten includes of the next file in each of eight files: 10^8 reads
i=0
while [ $i -lt 8 ]; do
  n=$((i + 1))
  { echo "F$i"; for k in 1 2 3 4 5 6 7 8 9 10; do echo "include \"f$n.cat\""; done; } \
    > "$d/f$i.cat"
  i=$n
done
printf 'let x = po\n' > "$d/f8.cat"
printf 'M\ninclude "f0.cat"\nacyclic x\n' > "$d/bomb.cat"
refused "more than 1000 includes in all" --model "$d/bomb.cat"
# a few repeats are fine (each read as herd reads it, in place)
printf 'L\nlet y = po\n' > "$d/lib.cat"
printf 'M\ninclude "lib.cat"\ninclude "lib.cat"\nacyclic y\n' > "$d/twice.cat"
"$WL" litmus -q --model "$d/twice.cat" "$T" > /dev/null
# a large file included over and over: the text budget
{ echo L; head -c 3000000 /dev/zero | tr '\0' ' '; echo 'let z = po'; } \
  > "$d/large.cat"
{ echo M; for k in 1 2 3 4 5 6; do echo 'include "large.cat"'; done; echo 'acyclic z'; } \
  > "$d/larges.cat"
refused "larges.cat:7:9: the model and its includes are over 16 MiB of text in all" \
  --model "$d/larges.cat"
# let rec must be monotone
printf 'M\nlet rec r = ~r\nempty r\n' > "$d/neg.cat"
refused "neg.cat:2:14: 'r' is used under the complement '~' at 2:13 in its own let rec" \
  --model "$d/neg.cat"
printf 'M\nlet rec r = ~r\nempty ~r\n' > "$d/neg2.cat"
refused "neg2.cat:2:14: 'r' is used under the complement" --model "$d/neg2.cat"
printf 'M\nlet rec a = po | b\nand b = rf \\ a\nacyclic a\n' > "$d/diff.cat"
refused "diff.cat:3:14: 'a' is used on the right of the '\\' at 3:12" \
  --model "$d/diff.cat"
