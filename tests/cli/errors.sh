# Bad input: clear messages naming file:line:col, exit status 1 or 2.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
printf 'PTX bad\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.acquire r0, x ;\nexists (0:r0=1)\n' > "$T/bad.litmus"
"$WL" litmus "$T/bad.litmus" > "$T/out" 2> "$T/err"
[ $? -eq 1 ] || fail "malformed file: want exit 1"
grep -q "bad.litmus:4:2: ld.acquire needs a scope" "$T/err" || { cat "$T/err"; fail "no file:line:col"; }
"$WL" litmus "$T/missing.litmus" 2> "$T/err"
[ $? -eq 1 ] || fail "missing file: want exit 1"
grep -q "missing.litmus: No such file" "$T/err" || fail "missing file message"
"$WL" litmus --frobnicate x 2> "$T/err"; [ $? -eq 2 ] || fail "bad option: want 2"
"$WL" litmus 2> "$T/err"; [ $? -eq 2 ] || fail "no file: want 2"
"$WL" litmus --unroll 0 x 2> "$T/err"; [ $? -eq 2 ] || fail "--unroll 0: want 2"
"$WL" frob 2> "$T/err"; [ $? -eq 2 ] || fail "unknown command: want 2"
printf 'PTX p\n{ x=0; y @ generic aliases x; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x=1)\n' > "$T/proxy.litmus"
"$WL" litmus "$T/proxy.litmus" 2> "$T/err"
[ $? -eq 1 ] || fail "proxy: want exit 1"
grep -q "proxy.litmus:2:8: aliases need the PTX 7.5 model, which the built-in PTX 6.0 explorer does not implement: use --model ptx-v7.5.cat" "$T/err" || { cat "$T/err"; fail "proxy message"; }
printf 'PTX lab\n{ x=0; }\n P0@cta 0,gpu 0 ;\n goto LC09 ;\nexists (x=1)\n' > "$T/lab.litmus"
"$WL" litmus "$T/lab.litmus" 2> "$T/err"
grep -q "lab.litmus:4:7: label 'LC09' is not defined in P0" "$T/err" || { cat "$T/err"; fail "label message"; }
exit 0
