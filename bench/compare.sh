#!/usr/bin/env bash
# compare.sh: run one benchmark from bench/ under ftmpi, Open MPI and MPICH and
# print one table per metric, with ftmpi/Open MPI and ftmpi/MPICH ratios.
#
# The benchmark (bench/<name>.c) is a plain MPI program that prints lines
#   <metric> <size> <value>
# and may print "# unit <metric> <unit> <lower|higher>" to say how a metric reads.
# Every other line is ignored. It should accept --quick for a short run.
#
# The implementations run interleaved (ftmpi, Open MPI, MPICH, then again in a
# rotated order, ...) so that a slow phase of a noisy machine hits all of them;
# the table shows, per size, the median over the runs of each implementation
# (each run itself reports a median over several timed batches).
#
# See docs/benchmarks.md. Run bench/compare.sh --help for the options.
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$SCRIPT_DIR/.." && pwd)

usage() {
    cat <<EOF
usage: bench/compare.sh [options] [BUILD_DIR] [-- BENCH_ARGS...]

  BUILD_DIR, -b, --build DIR
                     the ftmpi build dir (default: $ROOT/build); its bin/mpicc
                     and bin/mpirun are used. Without them ftmpi is skipped.
  --bench NAME       benchmark to run: bench/NAME.c, or a path to a .c file,
                     or to a .f90 file (built with the mpifort wrappers)
                     (default: pingpong)
  --np N             number of ranks (default: 2)
  --runs R           runs per implementation, interleaved (default: 3)
  --quick            pass --quick to the benchmark (short run)
  --impl LIST        comma-separated subset of ftmpi,openmpi,mpich
                     (default: all three)
  --timeout S        limit for one run in seconds (default: 300)
  --markdown         print the tables in Markdown
  --keep DIR         keep the compiled programs and raw outputs in DIR
  --cflags FLAGS     compiler flags (default: -O2)
  -h, --help         this text
  -- ARGS...         everything after -- is passed to the benchmark

Environment overrides for the compilers and launchers:
  MPICC_FTMPI MPIRUN_FTMPI MPICC_OPENMPI MPIRUN_OPENMPI MPICC_MPICH MPIRUN_MPICH

Exit status: 0 when every run succeeded, 1 when some run failed (the table
still shows what the others measured), 2 on a usage or setup error.
EOF
}

die() { echo "compare.sh: error: $*" >&2; exit 2; }
note() { echo "compare.sh: $*" >&2; }

# ---- arguments ---------------------------------------------------------------
build_dir=""
bench=pingpong
np=2
runs=3
quick=0
impls="ftmpi,openmpi,mpich"
run_timeout=300
markdown=0
keep=""
cflags="-O2"
bench_args=()

while [ $# -gt 0 ]; do
    case "$1" in
        -b|--build) [ $# -ge 2 ] || die "$1 needs a directory"; build_dir=$2; shift 2 ;;
        --bench) [ $# -ge 2 ] || die "--bench needs a name"; bench=$2; shift 2 ;;
        --np) [ $# -ge 2 ] || die "--np needs a number"; np=$2; shift 2 ;;
        --runs) [ $# -ge 2 ] || die "--runs needs a number"; runs=$2; shift 2 ;;
        --quick) quick=1; shift ;;
        --impl) [ $# -ge 2 ] || die "--impl needs a list"; impls=$2; shift 2 ;;
        --timeout) [ $# -ge 2 ] || die "--timeout needs seconds"; run_timeout=$2; shift 2 ;;
        --markdown) markdown=1; shift ;;
        --keep) [ $# -ge 2 ] || die "--keep needs a directory"; keep=$2; shift 2 ;;
        --cflags) [ $# -ge 2 ] || die "--cflags needs flags"; cflags=$2; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        --) shift; bench_args=("$@"); break ;;
        -*) usage >&2; die "unknown option '$1'" ;;
        *) [ -z "$build_dir" ] || die "more than one build dir given ('$build_dir', '$1')"
           build_dir=$1; shift ;;
    esac
done

is_uint() { case "$1" in ''|*[!0-9]*) return 1 ;; *) return 0 ;; esac; }
positive() {
    if ! is_uint "$2" || [ "$2" -lt 1 ]; then die "$1 wants a positive integer, got '$2'"; fi
}
positive --np "$np"
positive --runs "$runs"
positive --timeout "$run_timeout"

[ -n "$build_dir" ] || build_dir="$ROOT/build"
case "$bench" in
    *.c) src=$bench; bench_name=$(basename "$bench" .c) ;;
    *.f90) src=$bench; bench_name=$(basename "$bench" .f90); fortran=1 ;;
    */*) die "--bench wants a name from bench/, a .c or a .f90 file, got '$bench'" ;;
    *) src="$SCRIPT_DIR/$bench.c"; bench_name=$bench ;;
esac
[ -f "$src" ] || die "no benchmark source '$src'"
src=$(cd "$(dirname "$src")" && pwd)/$(basename "$src")
[ "$quick" = 1 ] && bench_args=(--quick "${bench_args[@]+"${bench_args[@]}"}")

for tool in awk timeout; do
    command -v "$tool" >/dev/null || die "'$tool' not found"
done

# ---- implementations -----------------------------------------------------------
build_dir_abs=$(cd "$build_dir" 2>/dev/null && pwd) || build_dir_abs=$build_dir

impl_label() {
    case "$1" in ftmpi) echo ftmpi ;; openmpi) echo "Open MPI" ;; mpich) echo MPICH ;; esac
}
impl_cc() {
    if [ "${fortran:-0}" = 1 ]; then   # a .f90 benchmark: the Fortran wrappers
        case "$1" in
            ftmpi) echo "${MPICC_FTMPI:-$build_dir_abs/bin/mpifort}" ;;
            openmpi) echo "${MPICC_OPENMPI:-mpifort.openmpi}" ;;
            mpich) echo "${MPICC_MPICH:-mpifort.mpich}" ;;
        esac
        return
    fi
    case "$1" in
        ftmpi) echo "${MPICC_FTMPI:-$build_dir_abs/bin/mpicc}" ;;
        openmpi) echo "${MPICC_OPENMPI:-mpicc.openmpi}" ;;
        mpich) echo "${MPICC_MPICH:-mpicc.mpich}" ;;
    esac
}
impl_run() {
    case "$1" in
        ftmpi) echo "${MPIRUN_FTMPI:-$build_dir_abs/bin/mpirun}" ;;
        openmpi) echo "${MPIRUN_OPENMPI:-mpirun.openmpi}" ;;
        mpich) echo "${MPIRUN_MPICH:-mpirun.mpich}" ;;
    esac
}

# Open MPI refuses to run as root without --allow-run-as-root (and the
# OMPI_ALLOW_RUN_AS_ROOT* variables set at launch below); --oversubscribe lets
# it start more ranks than cores. "--mca btl_vader_single_copy_mechanism none"
# is added only after a run failed because the kernel forbids the single-copy
# (CMA, process_vm_readv) path, as some containers do.
ompi_vader_none=0
launch_cmd() {  # impl prog: sets the global array cmd to the launch command
    local impl=$1 prog=$2
    local run
    run=$(impl_run "$impl")
    case "$impl" in
        openmpi)
            local extra=(--oversubscribe)
            [ "$(id -u)" = 0 ] && extra+=(--allow-run-as-root)
            [ "$ompi_vader_none" = 1 ] && extra+=(--mca btl_vader_single_copy_mechanism none)
            cmd=("$run" -np "$np" "${extra[@]}" "$prog") ;;
        mpich) cmd=("$run" -n "$np" "$prog") ;;
        ftmpi) cmd=("$run" -np "$np" "$prog") ;;
    esac
    cmd+=("${bench_args[@]+"${bench_args[@]}"}")
}

work=$(mktemp -d "${TMPDIR:-/tmp}/ftmpi-compare.XXXXXX")
# shellcheck disable=SC2317 # called by the trap
cleanup() { [ -n "$keep" ] || rm -rf "$work"; }
trap cleanup EXIT
if [ -n "$keep" ]; then
    mkdir -p "$keep" || die "cannot create '$keep'"
    rm -rf "$work"; work=$(cd "$keep" && pwd)
    rm -f "$work"/*.run*.out "$work"/*.run*.out.failed "$work"/*.run*.err "$work"/build.*.log
fi

active=()
IFS=',' read -r -a wanted <<<"$impls"
for impl in "${wanted[@]}"; do
    case "$impl" in ftmpi|openmpi|mpich) ;; *) die "unknown implementation '$impl' in --impl" ;; esac
    cc=$(impl_cc "$impl"); run=$(impl_run "$impl")
    if ! command -v "$cc" >/dev/null 2>&1; then
        if [ "$impl" = ftmpi ]; then
            note "ftmpi: no compiler wrapper at '$cc' (build the project first:" \
                 "cmake -B build && cmake --build build -j2); comparing the others only"
        else
            note "$(impl_label "$impl"): '$cc' not found; skipping it"
        fi
        continue
    fi
    if ! command -v "$run" >/dev/null 2>&1; then
        note "$(impl_label "$impl"): launcher '$run' not found; skipping it"
        continue
    fi
    prog="$work/$bench_name.$impl"
    # shellcheck disable=SC2086 # cflags is a list of words
    if ! "$cc" $cflags -o "$prog" "$src" -lm >"$work/build.$impl.log" 2>&1; then
        note "$(impl_label "$impl"): building $src failed; skipping it. Compiler output:"
        sed 's/^/    /' "$work/build.$impl.log" >&2
        continue
    fi
    active+=("$impl")
done
[ "${#active[@]}" -gt 0 ] || die "no MPI implementation could build $src"

# ---- runs, interleaved and rotated -----------------------------------------------
failed=0
n_active=${#active[@]}
for ((r = 1; r <= runs; r++)); do
    for ((k = 0; k < n_active; k++)); do
        impl=${active[$(((r - 1 + k) % n_active))]}
        prog="$work/$bench_name.$impl"
        out="$work/$impl.run$r.out"; err="$work/$impl.run$r.err"
        launch_cmd "$impl" "$prog"
        note "run $r/$runs: $(impl_label "$impl"): ${cmd[*]}"
        rc=0
        (cd "$work" && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
            timeout -k 10 "$run_timeout" "${cmd[@]}") </dev/null >"$out" 2>"$err" || rc=$?
        if [ "$rc" -ne 0 ] && [ "$impl" = openmpi ] && [ "$ompi_vader_none" = 0 ] &&
           grep -qiE 'single.copy|process_vm_readv|Read -1, expected|CMA support' "$err" "$out"; then
            note "Open MPI failed in its shared-memory single-copy path; retrying with" \
                 "btl_vader_single_copy_mechanism=none from now on"
            ompi_vader_none=1
            launch_cmd "$impl" "$prog"
            rc=0
            (cd "$work" && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
                timeout -k 10 "$run_timeout" "${cmd[@]}") </dev/null >"$out" 2>"$err" || rc=$?
        fi
        if [ "$rc" -ne 0 ]; then
            failed=1
            if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
                note "run $r: $(impl_label "$impl") timed out after ${run_timeout}s"
            else
                note "run $r: $(impl_label "$impl") failed with exit status $rc"
            fi
            tail -n 15 "$err" | sed 's/^/    /' >&2
            mv "$out" "$out.failed"   # results of a failed run are not tabulated
        fi
    done
done

files=()
for impl in "${active[@]}"; do
    for f in "$work/$impl".run*.out; do [ -f "$f" ] && files+=("$f"); done
done
if [ "${#files[@]}" -eq 0 ]; then
    note "no run succeeded; nothing to tabulate"
    exit 1
fi

# ---- header ----------------------------------------------------------------------
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
ver_openmpi=$( (mpirun.openmpi --version 2>/dev/null || true) | awk 'NR == 1 { print $NF }')
ver_mpich=$( (mpichversion 2>/dev/null || true) |
    awk '{ x = $0; sub(/^[^:]*:[ \t]*/, "", x) }
         /^MPICH Version/ { v = x } /^MPICH Device/ { d = " (" x ")" } END { print v d }')
p="#"
[ "$markdown" = 1 ] && p="-"
echo "$p benchmark: $bench_name${bench_args[*]+" ${bench_args[*]}"}; ranks: $np; runs per implementation: $runs"
echo "$p machine: $(nproc) cores, ${cpu:-unknown CPU}; $(date -u '+%Y-%m-%d %H:%M UTC')"
case ",$impls," in
    *,ftmpi,*) ver_ftmpi="not built (no $(impl_cc ftmpi))" ;;
    *) ver_ftmpi="not compared" ;;
esac
for impl in "${active[@]}"; do
    [ "$impl" = ftmpi ] && ver_ftmpi="built with $(impl_cc ftmpi)"
done
echo "$p versions: Open MPI ${ver_openmpi:-?}, MPICH ${ver_mpich:-?}, ftmpi ${ver_ftmpi}"
if [ "$ompi_vader_none" = 1 ]; then
    echo "$p note: Open MPI ran with btl_vader_single_copy_mechanism=none"
fi
echo

# ---- tables ----------------------------------------------------------------------
awk -v impls="${active[*]}" -v md="$markdown" -f "$SCRIPT_DIR/tabulate.awk" "${files[@]}"
exit "$failed"
