# man/warplab.1: well-formed troff (groff -ww reports nothing, or mandoc
# -T lint; else its skeleton is checked), and it agrees with the help:
# every option of `warplab CMD --help` is in the man page's section of
# CMD, and every option there is in the help.
set -u
M="$ROOT/man/warplab.1"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "$*"; exit 1; }
[ -f "$M" ] || fail "no $M"
for s in NAME SYNOPSIS DESCRIPTION COMMANDS "EXIT STATUS" EXAMPLES; do
  grep -q "^\.SH \"\{0,1\}$s" "$M" || fail "no section $s"
done
grep -q '^\.TH WARPLAB 1 ' "$M" || fail "no .TH"
# the text as a reader sees it
if command -v groff > /dev/null 2>&1; then
  groff -man -Tutf8 -ww -z "$M" 2> "$T/warn"
  [ ! -s "$T/warn" ] || { cat "$T/warn"; fail "groff warns"; }
  # no hyphenation and long lines: an option never broken across lines
  groff -man -rHY=0 -rLL=250n -Tascii -P-c -P-b -P-u -P-o "$M" 2> /dev/null |
    sed 's/\x1b\[[0-9;]*m//g' > "$T/text"
elif command -v mandoc > /dev/null 2>&1; then
  mandoc -T lint "$M" > "$T/warn" 2>&1 || { cat "$T/warn"; fail "mandoc lint"; }
  mandoc -T ascii -O width=250 "$M" | col -b > "$T/text"
else
  # no formatter: the requests stripped, '\-' as '-'
  sed -e 's/\\-/-/g' -e 's/\\f[BIR]//g' -e 's/^\.[A-Z][A-Z]* *//' "$M" > "$T/text"
fi
# the version on the page is the program's
v=$("$WL" version | sed 's/^warplab //')
grep -q "^\.TH WARPLAB 1 .*\"warplab $v\"" "$M" || fail "the page is not of warplab $v"
for c in litmus sample gen cuda compare run report campaign merge; do
  # the man page's section of c: from its heading to the next command's
  awk -v c="$c" '
    /^"?COMMANDS/ { cmds = 1; next }
    cmds && $0 ~ "^(   |\"|)warplab " c " " { on = 1; next }
    on && /^(   |"|)warplab [a-z]+ / { exit }
    on && /^EXIT STATUS/ { exit }
    on { print }' "$T/text" > "$T/man.$c"
  [ -s "$T/man.$c" ] || fail "no section for $c in the man page"
  # the help's own part (up to the example)
  "$WL" "$c" --help | sed '/^examples\{0,1\}:$/,$d' > "$T/help.$c"
  grep -oE -- '--[a-z][a-z-]*[a-z]' "$T/help.$c" | sort -u > "$T/ho"
  grep -oE -- '--[a-z][a-z-]*[a-z]' "$T/man.$c" | sort -u > "$T/mo"
  # short options: the help's option column
  grep -oE -- '^      -[a-zA-Z]\b' "$T/help.$c" | tr -d ' ' | sort -u >> "$T/ho"
  missing=$(comm -23 "$T/ho" "$T/mo" | while read -r o; do
    case "$o" in --*) ;; *) grep -q -- "$o\b" "$T/man.$c" && continue ;; esac
    echo "$o"; done)
  [ -z "$missing" ] || fail "man page, $c: lacks $(echo $missing)"
  extra=$(comm -13 "$T/ho" "$T/mo")
  [ -z "$extra" ] || fail "man page, $c: $(echo $extra) not in warplab $c --help"
done
exit 0
