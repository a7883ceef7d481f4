#!/usr/bin/env bash
# demo.sh: the project's demo (README: `bash .ci/demo.sh`).
# Installs missing packages, builds the project into build/ (or $BUILD_DIR),
# compiles an ordinary MPI program (bench/ring_demo.c: a token passed around a
# ring, then an allreduce) with the project's mpicc and runs it on 4 ranks with
# the project's mpirun.
#
#   bash .ci/demo.sh [--np N] [--no-build] [--mpicc CC] [--mpirun RUN]
#
# --no-build skips the package check and the build; --mpicc/--mpirun use
# another MPI's wrappers (e.g. mpicc.mpich/mpirun.mpich) to check the demo itself.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-2}
np=4
build=1
mpicc=""
mpirun=""

die() { echo "demo: error: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
    case "$1" in
        --np) [ $# -ge 2 ] || die "--np needs a number"; np=$2; shift 2 ;;
        --no-build) build=0; shift ;;
        --mpicc) [ $# -ge 2 ] || die "--mpicc needs a command"; mpicc=$2; shift 2 ;;
        --mpirun) [ $# -ge 2 ] || die "--mpirun needs a command"; mpirun=$2; shift 2 ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done
case "$np" in ''|*[!0-9]*|0) die "--np wants a positive integer, got '$np'" ;; esac

if [ "$build" = 1 ]; then
    bash .ci/deps.sh
    echo "demo: building the project into $BUILD_DIR"
    cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-RelWithDebInfo}" >/dev/null
    cmake --build "$BUILD_DIR" -j "$JOBS" >/dev/null
fi

if [ -n "$mpirun" ]; then
    # Another MPI was asked for: let Open MPI run as root and oversubscribe.
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    export OMPI_MCA_rmaps_base_oversubscribe=1
fi
mpicc=${mpicc:-$BUILD_DIR/bin/mpicc}
mpirun=${mpirun:-$BUILD_DIR/bin/mpirun}
command -v "$mpicc" >/dev/null 2>&1 || die "no compiler wrapper '$mpicc' (did the build succeed?)"
command -v "$mpirun" >/dev/null 2>&1 || die "no launcher '$mpirun' (did the build succeed?)"

mkdir -p "$BUILD_DIR/demo"
prog="$BUILD_DIR/demo/ring_demo"
echo "demo: $mpicc -O2 bench/ring_demo.c -o $prog"
"$mpicc" -O2 bench/ring_demo.c -o "$prog"
echo "demo: $mpirun -np $np $prog"
rc=0
timeout -k 10 120 "$mpirun" -np "$np" "$prog" </dev/null || rc=$?
case "$rc" in
    0) echo "demo: OK" ;;
    124|137) die "the demo did not finish within 120 s" ;;
    *) die "the demo failed (exit status $rc)" ;;
esac
