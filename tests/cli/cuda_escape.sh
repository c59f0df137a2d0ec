# warplab cuda with hostile names (issue 20, item 2): a test name or a
# file name holding */, a newline, quotes, %n, backslashes, ??/, bytes
# that are not UTF-8, $(...) or backticks ends no comment and no string
# in the emitted program: the header comment closes only where the
# harness closes it, and the string literals, compiled, give back the
# exact bytes.  scripts/hw_run.sh runs programs with such names (a fake
# nvcc stands in for the real one) without running any of their text.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
CC=${CC:-cc}
# the name: what a .litmus header line may hold (no newline, no quote,
# no control character)
NAME='A*/int evil;/*%n\\??/`id`$(id)'$(printf '\377')'x'
DIR="$T/d*/ \$(touch $T/pwned1) \`touch $T/pwned2\` \"q' 
nl"
mkdir -p "$DIR/t*" || fail "mkdir"
F="$DIR/t*/%n\"\\.litmus"
{
  printf 'PTX %s\n' "$NAME"
  cat <<'L'
{ x=0; y=0; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;
 st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;
 st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;
exists (1:r0=1 /\ 1:r1=0)
L
} > "$F"
P="$DIR/p*\"%n\$(id).cu"
"$WL" cuda "$F" -o "$P" || fail "cuda: exit $?"
# the first */ of the file ends the header comment, just before the
# harness's #include lines
first=$(grep -a -n -F '*/' "$P" | head -n 1 | cut -d: -f1)
inc=$(grep -n '^#include <cstdio>$' "$P" | head -n 1 | cut -d: -f1)
[ -n "$first" ] && [ "$first" -eq $((inc - 1)) ] ||
  { head -n 3 "$P"; fail "the header comment ends at line $first"; }
# no comment opens inside the header comment either
[ "$(head -n "$first" "$P" | grep -c -F '/*')" -eq 1 ] ||
  fail "a comment opens inside the header comment"
# the literals, compiled, hold the exact bytes of the name and the file
{
  echo '#include <stdio.h>'
  grep '^static const char \*const test_name = ' "$P"
  grep '^static const char \*const test_file = ' "$P"
  grep '^static const char \*const cond_text = ' "$P"
  echo 'int main(void) { printf("%s|%s|%s", test_name, test_file, cond_text); return 0; }'
} > "$T/lit.c"
[ "$(grep -c 'const char' "$T/lit.c")" -eq 3 ] || fail "a literal spans lines"
if command -v "$CC" > /dev/null 2>&1; then
  "$CC" -std=c99 -Wall -Werror -Wno-trigraphs -trigraphs -o "$T/lit" "$T/lit.c" ||
    fail "the literals do not compile"
  "$T/lit" > "$T/lit.out" || fail "lit: exit $?"
  printf '%s|%s|%s' "$NAME" "$F" '(1:r0=1 /\ 1:r1=0)' > "$T/lit.want"
  cmp "$T/lit.out" "$T/lit.want" || fail "the literals are not the names"
fi
# the whole program builds (the host's C++ compiler against
# tests/cuda_stub where nvcc is missing) and prints the name as it is
sh "$ROOT/tests/cuda_stub/host.sh" "$P" "$T/prog"
rc=$?
if [ $rc -ne 77 ]; then
  [ $rc -eq 0 ] || fail "the program does not build"
  "$T/prog" --help | head -n 1 > "$T/help1" || fail "--help: exit $?"
  printf 'usage: %s [options]  (test %s)\n' "$T/prog" "$NAME" > "$T/help1.want"
  cmp "$T/help1" "$T/help1.want" || fail "--help: the name"
fi
# hw_run.sh: a fake nvcc "builds" each program as a script; names with
# quotes, spaces, a newline, $(...) and backticks run nothing
mkdir -p "$T/bin"
cat > "$T/bin/nvcc" <<'N'
#!/bin/sh
# fake nvcc: -o OUT ... SRC -> OUT, a script that prints the source's size
out= src=
while [ $# -gt 0 ]; do
  case $1 in -o) out=$2; shift ;; -*) ;; *) src=$1 ;; esac
  shift
done
printf '#!/bin/sh\necho ran "$@"\n' > "$out" && chmod +x "$out"
[ -f "$src" ]
N
chmod +x "$T/bin/nvcc"
cp "$P" "$DIR/second \$(touch pwned3) \`touch pwned4\`.cu"
(cd "$T" && PATH="$T/bin:$PATH" HW_JOBS=2 sh "$ROOT/scripts/hw_run.sh" \
  "$DIR" "$T/out" -b 4) > "$T/hw.log" 2>&1 ||
  { cat "$T/hw.log"; fail "hw_run: exit $?"; }
[ ! -e "$T/pwned1" ] && [ ! -e "$T/pwned2" ] && [ ! -e "$T/pwned3" ] &&
  [ ! -e "$T/pwned4" ] ||
  fail "hw_run.sh ran text from a file name"
grep -q 'nvcc failed' "$T/hw.log" && { cat "$T/hw.log"; fail "hw_run: nvcc failed"; }
[ "$(grep -c '' "$T/out/status.txt")" -eq 2 ] ||
  { cat "$T/out/status.txt"; fail "hw_run: not one status line per program"; }
grep -q '^ran -b 4$' "$T/out/p*\"%n\$(id).hist" ||
  { ls -la "$T/out"; fail "hw_run: the program did not run with its arguments"; }
exit 0
