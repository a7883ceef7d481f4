#!/usr/bin/env bash
# dense_bench.sh: the dense demos (lu, matmul, qr) against ScaLAPACK (pdgetrf,
# pdgemm, pdgeqrf under Debian's Open MPI), side by side, plus the cost of --ft ckpt
# and --ft abft and the recovery time of one kill (docs/dense.md,
# "Benchmarks").
#
#   bench/dense_bench.sh [BUILD_DIR] [--n 4000] [--nb 64] [--grids "1x2 2x2"]
#                        [--runs 1] [--apps "lu matmul qr"] [--quick]
#                        [--variants "none scalapack ckpt ovl abft kill"]
#
# ftmpi's GFLOP/s are those of its panels (report key panel_gflops: the
# factorization or the product, slowest rank), the same work that the
# ScaLAPACK driver times (pdgetrf, pdgeqrf, pdgemm between barriers), not
# the setup, input generation, solve and checks that solve_time_s has.
# Per app and grid, each run does, in this order (interleaved, so a slow
# phase of a noisy machine hits every variant): ftmpi --ft none, ScaLAPACK,
# --ft ckpt (K = 8, RS, 1 checksum rank), the same with --ckpt-overlap
# ("ovl": encoded while the next panels compute), --ft abft, --ft ckpt with rank 1
# killed at panel npanels/2 (recovery = detection + MPI recovery + restore,
# from the report with --event-log). Prints one Markdown table per app with
# medians and ratios. OPENBLAS_NUM_THREADS=1 everywhere. Needs
# libscalapack-openmpi-dev (bench only: .ci/deps.sh --bench). The defaults
# (n = 4000, both grids, the three apps, one run) take about 7 minutes on a
# quiet 2-core machine; each raw line goes to stderr as it is measured.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$ROOT/build N=4000 NB=64 GRIDS="1x2 2x2" RUNS=1 APPS="lu matmul qr"
VARIANTS="none scalapack ckpt ovl abft kill"
while [ $# -gt 0 ]; do
    case $1 in
        --n) N=$2; shift ;;
        --nb) NB=$2; shift ;;
        --grids) GRIDS=$2; shift ;;
        --runs) RUNS=$2; shift ;;
        --apps) APPS=$2; shift ;;
        --variants) VARIANTS=$2; shift ;;
        --quick) N=1000; RUNS=1 ;;
        -h|--help) sed -n 2,26p "$0"; exit 0 ;;
        -*) echo "dense_bench: unknown option $1" >&2; exit 2 ;;
        *) BUILD=$1 ;;
    esac
    shift
done
export OPENBLAS_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for t in mpirun $APPS; do
    [ -x "$BUILD/bin/$t" ] || { echo "dense_bench: no $BUILD/bin/$t (build first)" >&2; exit 2; }
done
command -v mpicc.openmpi >/dev/null || { echo "dense_bench: needs Open MPI's mpicc" >&2; exit 2; }
WORK=$(mktemp -d /tmp/dense_bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
# a copy of the binaries: a rebuild during the run does not change them
for app in $APPS; do cp "$BUILD/bin/$app" "$WORK/"; done
mpicc.openmpi -O2 -o "$WORK/scalapack_dense" "$ROOT/bench/scalapack_dense.c" \
    -lscalapack-openmpi -lopenblas
RUN="$BUILD/bin/mpirun --timeout 590 --comm-mode=rebuild"
RAW=$WORK/raw
: > "$RAW"
T0=$(date +%s)
echo "dense_bench: n=$N nb=$NB grids=$GRIDS runs=$RUNS; load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
want() { [[ " $VARIANTS " == *" $1 "* ]]; }
json() { grep -Eo "\"$2\": [0-9.e+-]+" <<<"$1" | head -n 1 | sed 's/.*: //'; }
# the factorization's time: the panels plus the checkpoints or panel-count
# control steps (slowest rank each), without the setup, the input, the
# prefault, the solve and the checks (qr's checks cost as much as the
# factorization)
fact() {
    local p c
    p=$(json "$1" panel_time_s) c=$(json "$1" checkpoint_time_s)
    python3 -c "print(${p:-float('nan')} + ${c:-0})"
}
for app in $APPS; do
    case $app in lu) op=getrf ;; qr) op=geqrf ;; *) op=gemm ;; esac
    for grid in $GRIDS; do
        P=${grid%x*} Q=${grid#*x} np=$((P * Q)) half=$(( (N + NB - 1) / NB / 2 ))
        for r in $(seq "$RUNS"); do
            if want none; then
            o=$($RUN -np $np "$WORK/$app" --n $N --nb $NB --grid $grid --json)
            echo "$app $grid none $(json "$o" panel_gflops) $(json "$o" solve_time_s) 0 $(fact "$o")" | tee -a "$RAW" >&2
            fi
            if want scalapack; then
            o=$(mpirun.openmpi --oversubscribe -np $np "$WORK/scalapack_dense" $op $N $NB $P $Q)
            echo "$app $grid scalapack $(sed 's/.*gflops=\([0-9.]*\).*/\1/' <<<"$o") $(sed 's/.*time_s=\([0-9.]*\).*/\1/' <<<"$o")" | tee -a "$RAW" >&2
            fi
            for v in ckpt ovl; do
                want $v || continue
                o=$($RUN -np $((np + 1)) "$WORK/$app" --n $N --nb $NB --grid $grid --ft ckpt --ckpt-interval 8 $([ $v = ovl ] && echo --ckpt-overlap) --json)
                echo "$app $grid $v $(json "$o" gflops) $(json "$o" solve_time_s) $(json "$o" checkpoint_overhead_pct) $(fact "$o") $(json "$o" ckpt_prefault_s)" | tee -a "$RAW" >&2
            done
            # abft: a checksum column (lu, qr: P ranks) or row (matmul: Q ranks), + 1
            ck=$([ "$app" = matmul ] && echo $Q || echo $P)
            if want abft && o=$($RUN -np $((np + ck + 1)) "$WORK/$app" --n $N --nb $NB --grid $grid --ft abft --json 2>/dev/null); then
                echo "$app $grid abft $(json "$o" gflops) $(json "$o" solve_time_s) 0 $(fact "$o")" | tee -a "$RAW" >&2
            fi
            want kill || continue
            ev=$WORK/ev.jsonl
            o=$($RUN --event-log "$ev" --kill-at panel=$half@1 -np $((np + 1)) "$WORK/$app" --n $N --nb $NB --grid $grid --ft ckpt --ckpt-interval 8 --json --event-log "$ev")
            d=$(json "$o" detection_s) m=$(json "$o" mpi_recovery_s) s=$(json "$o" restore_s)
            echo "$app $grid kill $(json "$o" gflops) $(json "$o" solve_time_s) $d $m $s" | tee -a "$RAW" >&2
            rm -f "$ev"
        done
    done
done
echo "dense_bench: load after: $(cut -d' ' -f1-3 /proc/loadavg); $(( $(date +%s) - T0 )) s" >&2
python3 - "$RAW" "$N" "$NB" <<'PY'
import sys, statistics as st
raw, n, nb = sys.argv[1], sys.argv[2], sys.argv[3]
rows = {}
for line in open(raw):
    f = line.split()
    rows.setdefault((f[0], f[1], f[2]), []).append([float(x) for x in f[3:]])
def med(key, i):
    v = [r[i] for r in rows.get(key, []) if len(r) > i]
    return st.median(v) if v else float('nan')
for app in dict.fromkeys(k[0] for k in rows):
    print(f"\n**{app}**, n = {n}, NB = {nb} (medians of {max(len(v) for k, v in rows.items() if k[0] == app)} runs)\n")
    print("| grid | ftmpi GFLOP/s | ScaLAPACK GFLOP/s | ratio | factorization s (none / ckpt K=8 / overlapped / abft) | ckpt overhead | ckpt overhead (reported) | overlapped overhead (reported) | ckpt prefault s | abft overhead | recovery s (detect + MPI + restore) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for grid in dict.fromkeys(k[1] for k in rows if k[0] == app):
        g0, gs = med((app, grid, 'none'), 0), med((app, grid, 'scalapack'), 0)
        f0, fc, fo, fa = (med((app, grid, v), 3) for v in ('none', 'ckpt', 'ovl', 'abft'))
        rec = [sum(r[2:5]) for r in rows.get((app, grid, 'kill'), []) if len(r) >= 5]
        parts = [med((app, grid, 'kill'), i) for i in (2, 3, 4)]
        recs = f"{st.median(rec):.3f} ({parts[0]:.3f} + {parts[1]:.3f} + {parts[2]:.3f})" if rec else "n/a"
        abft = f"{100*(fa/f0-1):+.1f}%" if fa == fa else "n/a"
        fas = f"{fa:.2f}" if fa == fa else "n/a"
        print(f"| {grid} | {g0:.2f} | {gs:.2f} | {g0/gs:.2f} | {f0:.2f} / {fc:.2f} / {fo:.2f} / {fas} | "
              f"{100*(fc/f0-1):+.1f}% / {100*(fo/f0-1):+.1f}% | {med((app, grid, 'ckpt'), 2):.1f}% | "
              f"{med((app, grid, 'ovl'), 2):.1f}% | "
              f"{med((app, grid, 'ckpt'), 4):.2f} | {abft} | {recs} |")
PY
