#!/bin/sh
# host.sh PROGRAM.cu OUT -- builds a program written by `warplab cuda`
# with the host's C++ compiler ($CXX, default c++) against the stand-in
# cuda_runtime.h beside this script: kernel launches become plain calls
# and inline PTX is dropped, so what is checked is the C++ around them
# (the tables, the literals, the option parsing), not the GPU code.
# Exit 0 when it built; 77 when there is no C++ compiler or perl.
set -eu
src=$1
out=$2
CXX=${CXX:-c++}
command -v "$CXX" > /dev/null 2>&1 || exit 77
command -v perl > /dev/null 2>&1 || exit 77
perl -0pe 's/<<<.*?>>>//gs; s/\basm volatile\s*\(/WL_ASM(/g' "$src" > "$out.cpp"
"$CXX" -std=c++14 -O0 -w -I"$(dirname "$0")" -o "$out" "$out.cpp" 2> "$out.log" ||
  { cat "$out.log" >&2; exit 1; }
