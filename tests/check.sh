#!/bin/sh
# check.sh -- what `make check` adds after the sanitizer run: the
# layering rule (engine free of Lua, libuv and MPI), and valgrind over the
# unit tests, the conformance run and the command.
set -u
B=build/release
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SHARED=$(sh "$ROOT/scripts/shared.sh" "$ROOT")
# the unit tests find the spec files through it, as under tests/run.sh
# (a clone not beside ../shared has no other way)
WARPLAB_SHARED=$SHARED
export WARPLAB_SHARED
C="$SHARED/conformance/dat3m"
fail=0
bad=$(nm -u "$B/libwarplab.a" | grep -E ' (lua_|luaL_|uv_|MPI_)' || true)
if [ -n "$bad" ]; then
  echo "check: engine library refers to Lua/libuv/MPI symbols:"; echo "$bad"
  fail=1
else
  echo "check: libwarplab.a has no lua_/luaL_/uv_/MPI_ symbols"
fi
inc=$(grep -rlE '#include *[<"](lua|lauxlib|lualib|uv|mpi)\.h' engine || true)
[ -z "$inc" ] || { echo "check: engine includes Lua/libuv/MPI: $inc"; fail=1; }
# MPI in one file of the bindings (ranks.h's transport), none elsewhere
inc=$(grep -rlE '#include *[<"]mpi\.h' bindings |
  grep -v '^bindings/ranks_mpi\.c$' || true)
[ -z "$inc" ] ||
  { echo "check: mpi.h outside bindings/ranks_mpi.c: $inc"; fail=1; }
if ! command -v valgrind >/dev/null 2>&1; then
  echo "check: valgrind missing: apt-get install -y valgrind"; exit 1
fi
# the script state's pooled allocator would hide Lua blocks from valgrind
export WARPLAB_NO_POOL=1
# tests whose statistics make test checks run a memory check's share
export WARPLAB_MEMCHECK=1
VG="valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99"
for t in "$B"/tests/test_*; do
  [ -x "$t" ] || continue
  if $VG "$t" > /tmp/wl-vg.$$ 2>&1; then
    echo "check: valgrind clean: $(basename "$t")"
  else
    echo "check: valgrind FAILED: $(basename "$t")"; tail -n 30 /tmp/wl-vg.$$
    fail=1
  fi
done
if $VG "$B/tests/conformance" "$C/expected/PTXv6_0-expected.csv" "$C/PTX" \
     --proxy "$C/expected/PTXv7_5-expected.csv" > /tmp/wl-vg.$$ 2>&1; then
  echo "check: valgrind clean: conformance ($(grep -c '^ok' /tmp/wl-vg.$$) tests)"
else
  echo "check: valgrind FAILED: conformance"; grep -v '^ok' /tmp/wl-vg.$$ | tail -n 30
  fail=1
fi
if $VG "$B/warplab" litmus --json "$ROOT"/scripts/litmus/*.litmus > /dev/null 2> /tmp/wl-vg.$$; then
  echo "check: valgrind clean: warplab litmus --json on the tour"
else
  echo "check: valgrind FAILED: warplab"; tail -n 30 /tmp/wl-vg.$$
  fail=1
fi
# the scheduler: libuv's loop, pool threads and handles all go away
if $VG "$B/warplab" sample -n 2000 --jobs 2 "$ROOT/scripts/litmus/SB.litmus" > /dev/null 2> /tmp/wl-vg.$$; then
  echo "check: valgrind clean: warplab sample --jobs 2"
else
  echo "check: valgrind FAILED: warplab sample"; tail -n 30 /tmp/wl-vg.$$
  fail=1
fi
# the Lua-level allocation-failure sweep, every 50th failure point
if (cd "$ROOT" && $VG "$B/tests/lalloc" --step 50 "$SHARED") > /tmp/wl-vg.$$ 2>&1; then
  echo "check: valgrind clean: tests/lalloc --step 50"
else
  echo "check: valgrind FAILED: tests/lalloc"; tail -n 30 /tmp/wl-vg.$$
  fail=1
fi
for t in "$ROOT"/tests/lua/*.lua; do
  if (cd "$ROOT" && $VG "$B/warplab" run "tests/lua/$(basename "$t")" "$SHARED") > /tmp/wl-vg.$$ 2>&1; then
    echo "check: valgrind clean: warplab run tests/lua/$(basename "$t")"
  else
    echo "check: valgrind FAILED: tests/lua/$(basename "$t")"; tail -n 30 /tmp/wl-vg.$$
    fail=1
  fi
done
rm -f /tmp/wl-vg.$$
[ $fail -eq 0 ] && echo "check: all clean"
exit $fail
