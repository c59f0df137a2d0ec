# Many files in one process; a bad one in the middle does not stop the rest.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
printf 'PTX broken\n{ x=0 }\n P0@cta 0 gpu 0 ;\n' > "$T/broken.litmus"
out=$("$WL" litmus -q "$ROOT/scripts/litmus/SB.litmus" "$T/broken.litmus" "$ROOT/scripts/litmus/LB.litmus" 2> "$T/err")
rc=$?
[ $rc -eq 1 ] || { echo "want exit 1, got $rc"; exit 1; }
[ "$out" = "SB Ok
LB Ok" ] || { echo "got: $out"; exit 1; }
grep -q "broken.litmus:3:" "$T/err" || { cat "$T/err"; exit 1; }
