# warplab cuda -o PATH (issue 20, item 1): the text is made before
# anything is opened, so a refused test leaves PATH as it was (an
# existing file, a symbolic link); a regular file is replaced through a
# temporary file renamed into place (links and permissions kept);
# devices and FIFOs are written as they are, never replaced or removed;
# a failed write (a full disk: /dev/full) says what failed and exits 1.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
S="$ROOT/tests/hw/shapes/MP+none+diffCTA.litmus"
cat > "$T/bar.litmus" <<'L'
PTX bar
{ x=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 st.weak x, 1   | bar.cta.sync 0 ;
 bar.cta.sync 0 | ld.weak r0, x  ;
exists (1:r0=0)
L
echo keep > "$T/keep.txt"
ln -s keep.txt "$T/link.cu"
# a refused test: the file and the link stay, nothing new appears
"$WL" cuda "$T/bar.litmus" -o "$T/keep.txt" > /dev/null 2> "$T/err"
[ $? -eq 1 ] || fail "refused -o file: exit status"
grep -q 'bar.litmus:5:2: P0: barriers' "$T/err" || { cat "$T/err"; fail "refused: message"; }
[ "$(cat "$T/keep.txt")" = keep ] || fail "refused test changed the file"
"$WL" cuda "$T/bar.litmus" -o "$T/link.cu" > /dev/null 2>&1
[ $? -eq 1 ] || fail "refused -o link: exit status"
[ -L "$T/link.cu" ] || fail "refused test removed the link"
[ "$(cat "$T/keep.txt")" = keep ] || fail "refused test wrote through the link"
"$WL" cuda "$T/bar.litmus" -o "$T/new.cu" > /dev/null 2>&1
[ $? -eq 1 ] || fail "refused -o new: exit status"
[ ! -e "$T/new.cu" ] || fail "refused test created the file"
# a FIFO with a reader: a refused test never opens it (a writer would
# block forever without a reader; the reader here gets end of file)
mkfifo "$T/fifo" 2> /dev/null && {
  "$WL" cuda "$T/bar.litmus" -o "$T/fifo" > /dev/null 2>&1
  [ $? -eq 1 ] || fail "refused -o fifo: exit status"
  [ -p "$T/fifo" ] || fail "refused test removed the FIFO"
  cat "$T/fifo" > "$T/fromfifo" &
  "$WL" cuda "$S" -o "$T/fifo" || fail "-o fifo: exit $?"
  wait
  [ -p "$T/fifo" ] || fail "-o fifo replaced the FIFO"
  grep -q '__global__ void test_kernel' "$T/fromfifo" || fail "-o fifo: text"
}
# a written file through a link: the link stays, its target gets the
# text, the target's permissions are kept; no temporary file is left
chmod 640 "$T/keep.txt"
"$WL" cuda "$S" -o "$T/link.cu" || fail "-o link: exit $?"
[ -L "$T/link.cu" ] || fail "-o link: the link was replaced"
grep -q '__global__ void test_kernel' "$T/keep.txt" || fail "-o link: text"
[ "$(ls -l "$T/keep.txt" | cut -c1-10)" = "-rw-r-----" ] ||
  fail "-o link: permissions not kept: $(ls -l "$T/keep.txt")"
"$WL" cuda "$S" -o "$T/new.cu" || fail "-o new: exit $?"
"$WL" cuda "$S" | cmp -s - "$T/new.cu" || fail "-o and stdout differ"
[ "$(ls -A "$T" | grep -c '^\.')" -eq 0 ] || fail "temporary files left: $(ls -A "$T")"
# devices: written as they are; /dev/null stays a device
"$WL" cuda "$S" -o /dev/null || fail "-o /dev/null: exit $?"
[ -c /dev/null ] || fail "/dev/null is no longer a device"
# /dev/stdout: the command's standard output
"$WL" cuda "$S" -o /dev/stdout > "$T/so.cu" || fail "-o /dev/stdout: exit $?"
cmp -s "$T/so.cu" "$T/new.cu" || fail "-o /dev/stdout: text"
# a full disk: the failure named, exit 1
if [ -c /dev/full ]; then
  "$WL" cuda "$S" -o /dev/full 2> "$T/err"
  [ $? -eq 1 ] || fail "-o /dev/full: exit status"
  grep -q '/dev/full: No space left on device' "$T/err" ||
    { cat "$T/err"; fail "-o /dev/full: message"; }
  "$WL" cuda "$S" > /dev/full 2> "$T/err"
  [ $? -eq 1 ] || fail "> /dev/full: exit status"
  grep -q 'standard output: No space left on device' "$T/err" ||
    { cat "$T/err"; fail "> /dev/full: message"; }
fi
# a directory, a missing directory, a dangling link: refused, nothing made
"$WL" cuda "$S" -o "$T" 2> "$T/err"
[ $? -eq 1 ] || fail "-o DIR: exit status"
grep -q 'is a directory' "$T/err" || fail "-o DIR: message"
"$WL" cuda "$S" -o "$T/no/x.cu" 2> /dev/null
[ $? -eq 1 ] || fail "-o missing dir: exit status"
ln -s nowhere "$T/dangling.cu"
"$WL" cuda "$S" -o "$T/dangling.cu" 2> /dev/null
[ $? -eq 1 ] || fail "-o dangling link: exit status"
[ -L "$T/dangling.cu" ] && [ ! -e "$T/nowhere" ] || fail "dangling link changed"
exit 0
