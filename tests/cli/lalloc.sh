#!/bin/sh
# The Lua-level allocation-failure sweep of the bindings (tests/lalloc.c):
# every allocation of each snippet fails in turn and ends in a clean
# memory error, holding nothing.
set -eu
B=$(dirname "$WL")
cd "$ROOT"
"$B/tests/lalloc" "$SHARED"
