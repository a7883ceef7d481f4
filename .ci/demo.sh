#!/usr/bin/env bash
# demo.sh: the project's demo (README: `bash .ci/demo.sh`).
# Installs missing packages, builds the project into build/ (or $BUILD_DIR),
# then runs the CG demo (apps/cg, docs/cg.md) twice on 8 ranks with
# Reed-Solomon in-memory checkpoints (6 ranks compute, 2 hold checksums):
#   1. failure-free, for reference;
#   2. with two ranks SIGKILLed by the launcher at different iterations
#      (a computing rank at iteration 45, a checksum rank at iteration 120);
#      each is replaced (REBUILD), its state decoded from the checksums, and
#      the solve resumes from the last checkpoint.
# It prints the second run's report (recoveries, detection and recovery
# times, checkpoint overhead) and checks that both runs end with the same
# solution, bit for bit.
#
#   bash .ci/demo.sh [--no-build] [--n N] [--np NP]
#
# --no-build skips the package check and the build; --n sets the problem
# size (N^3 unknowns, default 64); --np the number of ranks (default 8; the
# last 2 are checksum ranks; the victims are ranks 2 and NP-2).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
BUILD_DIR=${BUILD_DIR:-build}
JOBS=${JOBS:-2}
np=8
n=64
build=1

die() { echo "demo: error: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
    case "$1" in
        --np) [ $# -ge 2 ] || die "--np needs a number"; np=$2; shift 2 ;;
        --n) [ $# -ge 2 ] || die "--n needs a number"; n=$2; shift 2 ;;
        --no-build) build=0; shift ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done
case "$np" in ''|*[!0-9]*) die "--np wants a number, got '$np'" ;; esac
case "$n" in ''|*[!0-9]*|0) die "--n wants a positive integer, got '$n'" ;; esac
[ "$np" -ge 4 ] || die "--np must be at least 4 (2 checksum ranks + 2 computing ranks)"

if [ "$build" = 1 ]; then
    bash .ci/deps.sh
    echo "demo: building the project into $BUILD_DIR"
    cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-RelWithDebInfo}" >/dev/null
    cmake --build "$BUILD_DIR" -j "$JOBS" >/dev/null
fi

mpirun=$BUILD_DIR/bin/mpirun
cg=$BUILD_DIR/bin/cg
[ -x "$mpirun" ] || die "no launcher '$mpirun' (did the build succeed?)"
[ -x "$cg" ] || die "no '$cg' (did the build succeed?)"

mkdir -p "$BUILD_DIR/demo"
log=$BUILD_DIR/demo/cg-events.jsonl
victim2=$((np - 2))   # the first checksum rank
opts=(--n "$n" --encoding rs --checksums 2 --ckpt-interval 20)

run() {   # run LABEL COMMAND...: runs it under a time limit, output to stdout
    local rc=0
    timeout -k 10 120 "$@" </dev/null || rc=$?
    case "$rc" in
        0) ;;
        124|137) die "$1 did not finish within 120 s" ;;
        *) die "the run failed (exit status $rc)" ;;
    esac
}

echo "demo: 1. failure-free reference run"
echo "demo: $mpirun --comm-mode=rebuild -np $np $cg ${opts[*]}"
ref=$(run "$mpirun" --comm-mode=rebuild -np "$np" "$cg" "${opts[@]}")
printf '%s\n' "$ref" | sed 's/^/    /'

echo
echo "demo: 2. the same run; ftmpirun kills rank 2 (computing) at iteration 45 and"
echo "demo:    rank $victim2 (checksum) at iteration 120"
rm -f "$log"
cmd=("$mpirun" --comm-mode=rebuild -v --event-log "$log"
     --kill-at iter=45@2 --kill-at "iter=120@$victim2" -np "$np"
     "$cg" "${opts[@]}" --event-log "$log" --verbose)
echo "demo: ${cmd[*]}"
out=$(run "${cmd[@]}" 2>&1)
printf '%s\n' "$out" | sed 's/^/    /'

sum_ref=$(printf '%s\n' "$ref" | sed -n 's/^cg: solution checksum //p')
sum=$(printf '%s\n' "$out" | sed -n 's/^cg: solution checksum //p')
nrec=$(printf '%s\n' "$out" | grep -c '^cg: recovery ' || true)
echo
[ -n "$sum_ref" ] || die "no solution checksum in the reference run"
[ "$nrec" -eq 2 ] || die "expected 2 recoveries, the report shows $nrec"
[ "$sum" = "$sum_ref" ] ||
    die "the solution differs from the failure-free run ($sum vs $sum_ref)"
echo "demo: 2 ranks killed and recovered; the solution is identical to the failure-free"
echo "demo: run, bit for bit (checksum $sum). Runtime events: $log"
echo "demo: OK"
