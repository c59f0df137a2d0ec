#!/bin/sh
# embed_cuda.sh OUT NAME=FILE.cu... -- the fixed text of the CUDA
# harness (engine/emit/harness_*.cu) as C arrays of lines, wl__cuda_NAME,
# for engine/emit/cuda.c: C11 promises string literals of 4095
# characters only, so one literal per line.  The Makefile writes OUT to
# build/MODE/gen/harness.c (tests/fuzz/run.sh to build/fuzz/) and
# compiles it with -Iengine/emit, where emit.h declares the arrays.
set -e
out=$1
shift
{
  echo "/* harness.c -- generated at build time by scripts/embed_cuda.sh"
  echo " * from engine/emit/harness_*.cu; edit those. */"
  echo "#include <stddef.h>"
  echo
  echo "#include \"emit.h\""
  for part in "$@"; do
    name=${part%%=*}
    f=${part#*=}
    echo
    echo "const char *const wl__cuda_$name[] = {"
    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$/",/' "$f"
    echo "    NULL};"
  done
} >"$out.tmp"
mv "$out.tmp" "$out"
