# warplab.so exports luaopen_warplab alone: the engine's wl_* functions
# and the bindings' internals (wll_*, wl__*) are hidden by the linker
# (bindings/warplab.map), so they cannot clash with another library's.
set -u
SO=$(dirname "$WL")/warplab.so
command -v nm >/dev/null 2>&1 || { echo "nm missing: apt-get install -y binutils"; exit 1; }
[ -f "$SO" ] || { echo "no $SO"; exit 1; }
syms=$(nm -D --defined-only "$SO" | awk 'NF == 3 { print $3 }') || exit 1
[ "$syms" = "luaopen_warplab" ] || {
  echo "warplab.so exports more than luaopen_warplab:"
  printf '%s\n' "$syms" | head -n 20
  exit 1
}
