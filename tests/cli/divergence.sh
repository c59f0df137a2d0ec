# __syncthreads() (bar.sync 0) reached by only part of a CTA: a clear
# error naming file, line, thread and the thread that does not arrive.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
printf 'PTX div\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n ld.weak r0, x  | st.weak x, 1 ;\n beq r0, 1, LC0 | ;\n bar.sync 0 | bar.sync 0 ;\n LC0: | ;\nexists (0:r0=1)\n' > "$T/div.litmus"
"$WL" litmus "$T/div.litmus" > /dev/null 2> "$T/err"
[ $? -eq 1 ] || { echo "want exit 1"; exit 1; }
grep -q "div.litmus:6: thread P1 (CTA 0): barrier divergence: .* but P0 can finish without arriving there" "$T/err" || { cat "$T/err"; exit 1; }
# the same barrier reached by both threads is fine
printf 'PTX conv\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n ld.weak r0, x  | st.weak x, 1 ;\n bar.sync 0 | bar.sync 0 ;\nexists (0:r0=1)\n' > "$T/conv.litmus"
"$WL" litmus -q "$T/conv.litmus" | grep -q '^conv Ok$'
