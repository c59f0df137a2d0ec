# The README's examples run as written, the way a user runs them in a
# fresh clone: in a copy of the tracked files (git ls-files), with no
# ../shared beside it and WARPLAB_SHARED unset, and the built warplab
# where the README says it is (build/release/, a link to the build
# under test).  tests/readme_blocks.lua runs every ```sh, ```console
# and ```lua block and compares shown output.
set -u
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
C=$T/clone/warplab
mkdir -p "$C"
command -v git > /dev/null 2>&1 || { echo "git missing"; exit 1; }
(cd "$ROOT" && git ls-files -z) > "$T/files" || { echo "git ls-files"; exit 1; }
(cd "$ROOT" && xargs -0 cp --parents -t "$C" < "$T/files") ||
  { echo "copying the tracked files"; exit 1; }
B=$(cd "$(dirname "$WL")" && pwd)
WL=$B/$(basename "$WL") # the runs below start in the copy
mkdir -p "$C/build"
ln -s "$B" "$C/build/release"
[ ! -e "$T/clone/shared" ] || exit 1
cd "$C" || exit 1
env -u WARPLAB_SHARED HOME="$T" "$WL" run tests/readme_blocks.lua README.md \
  build/release/warplab
