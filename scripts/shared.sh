#!/bin/sh
# shared.sh ROOT -- prints the folder holding conformance/ (the corpus the
# tests and benchmarks read): $WARPLAB_SHARED, else ROOT/../shared, else
# ../shared beside the repository this one was cloned from.
ROOT=$1
if [ -n "${WARPLAB_SHARED:-}" ]; then echo "$WARPLAB_SHARED"; exit 0; fi
if [ -d "$ROOT/../shared/conformance" ]; then echo "$ROOT/../shared"; exit 0; fi
origin=$(git -C "$ROOT" config --get remote.origin.url 2>/dev/null || true)
if [ -n "$origin" ] && [ -d "$origin/../shared/conformance" ]; then
  (cd "$origin/../shared" && pwd); exit 0
fi
echo "$ROOT/../shared"
