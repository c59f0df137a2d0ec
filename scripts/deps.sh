#!/bin/sh
# deps.sh -- makes sure the Debian packages warplab builds with are here.
# As root it installs what is missing (apt-get); otherwise it prints the
# exact command to run and fails.
set -u
need=""
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_pc() { have_cmd pkg-config && pkg-config --exists "$1" 2>/dev/null; }

have_cmd cc || need="$need gcc libc6-dev"
have_cmd make || need="$need make"
have_cmd pkg-config || need="$need pkg-config"
have_pc lua5.4 || need="$need liblua5.4-dev"
have_cmd lua5.4 || need="$need lua5.4"
have_pc libuv || need="$need libuv1-dev"
have_pc cmocka || need="$need libcmocka-dev"
# Graphviz's dot renders execution graphs as SVG (optional at run time;
# the tests of graphs and of the report use it)
have_cmd dot || need="$need graphviz"
# Open MPI: warplab-mpi (make MPI=1) and make test's runs under mpirun
# (the default build and make test work without it: issue 23)
{ have_pc ompi-c && have_cmd mpirun; } ||
  need="$need libopenmpi-dev openmpi-bin"
# extra tools for some targets: WARPLAB_DEPS="valgrind clang"
for t in ${WARPLAB_DEPS:-}; do
  case $t in
    valgrind) have_cmd valgrind || need="$need valgrind" ;;
    clang) have_cmd clang || need="$need clang libclang-rt-dev" ;;
    # the report's browser test (tests/cli/report_browser.sh)
    chromium) have_cmd chromium || need="$need chromium" ;;
    # warplab-mpi (make MPI=1) and its tests under mpirun
    mpi) { have_pc ompi-c && have_cmd mpirun; } ||
      need="$need libopenmpi-dev openmpi-bin" ;;
  esac
done

[ -z "$need" ] && exit 0
echo "warplab: missing Debian packages:$need" >&2
if [ "$(id -u)" = 0 ] && have_cmd apt-get; then
  echo "warplab: installing them with apt-get" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y --no-install-recommends $need >/dev/null 2>&1 || {
    apt-get update >/dev/null 2>&1 &&
      apt-get install -y --no-install-recommends $need
  } || {
    echo "warplab: apt-get failed; install them by hand:" >&2
    echo "  apt-get install -y$need" >&2
    exit 1
  }
  exit 0
fi
echo "warplab: install them first, as root:" >&2
echo "  sudo apt-get install -y$need" >&2
exit 1
