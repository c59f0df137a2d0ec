#!/bin/sh
# one.sh TEST [BUILD] -- runs one test of `make test` by itself, from the
# top of the repository, with what tests/run.sh gives each: WL (the
# command under BUILD, default build/release), ROOT and SHARED (the
# corpus folder) for a tests/cli/*.sh, the SHARED argument for a
# tests/lua/*.lua.  Exit status: the test's (0 = passed).
set -u
[ $# -ge 1 ] || { echo "usage: sh tests/one.sh tests/cli/X.sh|tests/lua/X.lua [BUILD]" >&2; exit 2; }
t=$1
B=${2:-build/release}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=$(sh "$ROOT/scripts/shared.sh" "$ROOT")
WL=$(cd "$B" 2> /dev/null && pwd)/warplab
[ -x "$WL" ] || { echo "one.sh: no $B/warplab (make first)" >&2; exit 2; }
WARPLAB_SHARED=$SHARED
export WARPLAB_SHARED
case $t in
*.sh) WL="$WL" ROOT="$ROOT" SHARED="$SHARED" sh "$t" ;;
*.lua) "$WL" run "$t" "$SHARED" ;;
*) echo "one.sh: $t is not a .sh or .lua test" >&2; exit 2 ;;
esac
