# A loop that counts hits the unroll bound: "Loop" and a Warning say so.
set -eu
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
printf 'PTX count\n{ x=0; }\n P0@cta 0,gpu 0 ;\n LC00: ;\n add r1, r1, 1 ;\n bne r1, 10, LC00 ;\n st.weak x, r1 ;\nexists (x=10)\n' > "$T/count.litmus"
out=$("$WL" litmus --unroll 3 "$T/count.litmus")
printf "%s\n" "$out" | grep -q '^Loop No$' || { echo "$out"; exit 1; }
printf "%s\n" "$out" | grep -q '^Warning count: loop unroll bound 3 reached' || { echo "$out"; exit 1; }
out=$("$WL" litmus --unroll 12 "$T/count.litmus")
printf "%s\n" "$out" | grep -q '^Ok$' || { echo "$out"; exit 1; }
# a spin loop costs nothing: no Loop with the smallest bound
out=$("$WL" litmus --unroll 1 "$ROOT/scripts/litmus/Spinlock.litmus")
printf "%s\n" "$out" | grep -q '^Ok$' || { echo "$out"; exit 1; }
