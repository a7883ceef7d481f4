#!/usr/bin/env bash
# qr_bench.sh: apps/qr against ScaLAPACK's pdgeqrf (Debian's
# libscalapack-openmpi under Open MPI), side by side, interleaved runs, medians
# and ratios (docs/qr.md, "Performance"). One BLAS thread per rank.
#
#   bench/qr_bench.sh [--build DIR] [--n N] [--nb NB] [--grids "1x2 2x2"] [--runs R]
#
# For each grid and run, in this order: qr --ft none, pdgeqrf, qr --ft ckpt
# (RS, 1 checksum rank, every --interval panels), qr --ft ckpt with rank 1
# killed at half the panels (--kill-at panel=K@1). Reported per grid (medians):
#   GFLOP/s     4/3 n^3 over the factorization time: qr's slowest rank's time
#               in panels (time_per_panel_s x panels), pdgeqrf's barrier-to-
#               barrier time; ratio qr / pdgeqrf
#   ckpt        qr's checkpoint_overhead_pct (checkpoint time over the
#               failure-free panel time)
#   recovery    detection + MPI recovery + restore of the one kill (s)
# Exit status: 0, or 1 when a run failed (its line says which).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$ROOT/build n=4000 nb=64 grids="1x2 2x2" runs=3 interval=8
while [ $# -gt 0 ]; do
    case "$1" in
        --build) build=$2; shift 2 ;;
        --n) n=$2; shift 2 ;;
        --nb) nb=$2; shift 2 ;;
        --grids) grids=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --interval) interval=$2; shift 2 ;;
        -h|--help) sed -n 2,18p "$0"; exit 0 ;;
        *) echo "qr_bench.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
QR=$build/bin/qr FTRUN=$build/bin/mpirun
[ -x "$QR" ] && [ -x "$FTRUN" ] || { echo "qr_bench.sh: build qr first ($QR)" >&2; exit 2; }
command -v mpicc.openmpi >/dev/null || { echo "qr_bench.sh: needs openmpi-bin, libopenmpi-dev" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mpicc.openmpi -O2 "$ROOT/bench/scalapack_qr.c" -o "$tmp/scalapack_qr" -lscalapack-openmpi \
    -lopenblas -lm || { echo "qr_bench.sh: needs libscalapack-openmpi-dev" >&2; exit 2; }
export OPENBLAS_NUM_THREADS=1
fail=0
run() { # label file cmd...
    local label=$1 out=$2; shift 2
    if ! timeout 900 "$@" >"$out" 2>"$out.err"; then
        echo "qr_bench.sh: FAILED: $label: $*" >&2; tail -5 "$out.err" >&2; fail=1
    fi
}
echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores, $(date -u +%FT%TZ)"
for g in $grids; do
    np=$(( ${g%x*} * ${g#*x} ))
    kill_at=$(( (n + nb - 1) / nb / 2 ))
    for r in $(seq 1 "$runs"); do
        run "qr none $g" "$tmp/none.$g.$r" "$FTRUN" --timeout 900 -np "$np" "$QR" --n "$n" --nb "$nb" \
            --grid "$g" --json
        run "pdgeqrf $g" "$tmp/scal.$g.$r" mpirun.openmpi --allow-run-as-root --oversubscribe \
            -np "$np" "$tmp/scalapack_qr" --n "$n" --nb "$nb" --grid "$g"
        run "qr ckpt $g" "$tmp/ckpt.$g.$r" "$FTRUN" --timeout 900 --comm-mode=rebuild \
            -np $((np + 1)) "$QR" --n "$n" --nb "$nb" --grid "$g" --ft ckpt --ckpt-interval "$interval" --json
        run "qr kill $g" "$tmp/kill.$g.$r" "$FTRUN" --timeout 900 --comm-mode=rebuild \
            --event-log "$tmp/ev.$g.$r" --kill-at "panel=$kill_at@1" -np $((np + 1)) "$QR" --n "$n" \
            --nb "$nb" --grid "$g" --ft ckpt --ckpt-interval "$interval" --json --event-log "$tmp/ev.$g.$r"
    done
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$tmp" "$n" "$nb" "$runs" $grids <<'PY'
import json, statistics, sys, glob, re
tmp, n, nb, runs, grids = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:]
flops = 4.0 / 3.0 * n ** 3
def js(path):
    try:
        return json.loads(open(path).read().strip().splitlines()[-1])
    except Exception:
        return None
def med(v):
    v = [x for x in v if x is not None]
    return statistics.median(v) if v else float("nan")
print(f"| grid | n | nb | qr GFLOP/s | pdgeqrf GFLOP/s | ratio | ckpt K=8 overhead | one recovery (s) | checks passed |")
print("|---|---|---|---|---|---|---|---|---|")
for g in grids:
    q, s, o, rec, ok = [], [], [], [], True
    for r in range(1, runs + 1):
        a = js(f"{tmp}/none.{g}.{r}")
        if a:
            q.append(flops / (a["time_per_panel_s"] * a["panels"]) / 1e9)
            ok &= a["check_passed"]
        m = re.search(r"gflops ([0-9.]+)", open(f"{tmp}/scal.{g}.{r}").read() or "")
        s.append(float(m.group(1)) if m else None)
        c = js(f"{tmp}/ckpt.{g}.{r}")
        if c:
            o.append(c["checkpoint_overhead_pct"]); ok &= c["check_passed"]
        k = js(f"{tmp}/kill.{g}.{r}")
        if k and k["recoveries"]:
            x = k["recoveries"][0]
            rec.append((x["detection_s"] or 0) + x["mpi_recovery_s"] + x["restore_s"])
            ok &= k["check_passed"] and k["solution_checksum"] == (c or {}).get("solution_checksum")
        else:
            ok = False
    mq, ms = med(q), med(s)
    print(f"| {g} | {n} | {nb} | {mq:.2f} | {ms:.2f} | {mq / ms:.2f} | {med(o):.1f}% | {med(rec):.3f} | {'yes' if ok else 'NO'} |")
    print(f"<!-- {g}: qr {['%.2f' % x for x in q]} pdgeqrf {s} ckpt% {['%.1f' % x for x in o]} rec {['%.3f' % x for x in rec]} -->")
PY
exit $fail
