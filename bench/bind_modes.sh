#!/usr/bin/env bash
# bind_modes.sh: does binding change the small-message latencies of ftmpi?
# Runs coll_lat (--quick) and pingpong (--quick) at np 2 RUNS times under each
# --bind-to mode, interleaved (core, none, core, none, ...), and prints, per
# metric and size, every run's value sorted, the median, and how many runs
# fell in the slow mode (above 1.5x the fastest run of both modes together).
# See docs/runtime.md, "Binding".
#
# usage: bench/bind_modes.sh [--runs R] [--np N] [--modes core,none]
#                            [--sizes 8] [--ops OPS] [BUILD_DIR]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=10 np=2 modes=core,none sizes=8 build=$ROOT/build
ops=barrier,bcast,reduce,allreduce,gather,scatter
while [ $# -gt 0 ]; do
    case $1 in
    --runs) runs=$2; shift 2 ;;
    --np) np=$2; shift 2 ;;
    --modes) modes=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --ops) ops=$2; shift 2 ;;
    -h|--help) sed -n 2,11p "$0"; exit 0 ;;
    -*) echo "bind_modes.sh: unknown option '$1'" >&2; exit 2 ;;
    *) build=$1; shift ;;
    esac
done
case $runs in ''|*[!0-9]*) echo "bind_modes.sh: --runs '$runs' is not a count" >&2; exit 2 ;; esac
[ -x "$build/bin/mpicc" ] || { echo "bind_modes.sh: no $build/bin/mpicc" >&2; exit 2; }
W=$(mktemp -d "${TMPDIR:-/tmp}/bind-modes.XXXXXX")
trap 'rm -rf "$W"' EXIT
"$build/bin/mpicc" -O2 -o "$W/coll_lat" "$ROOT/bench/coll_lat.c" -lm
"$build/bin/mpicc" -O2 -o "$W/pingpong" "$ROOT/bench/pingpong.c" -lm
IFS=, read -r -a M <<<"$modes"
for ((r = 1; r <= runs; r++)); do
    for m in "${M[@]}"; do
        for b in coll_lat pingpong; do
            args=(--quick)
            [ $b = coll_lat ] && args+=(--ops "$ops")
            [ $b = pingpong ] && args+=(--max-size 8)
            "$build/bin/mpirun" --timeout 120 -np "$np" --bind-to "$m" \
                "$W/$b" "${args[@]}" >"$W/out" 2>&1 ||
                { echo "bind_modes.sh: run $r $m $b failed:" >&2; cat "$W/out" >&2; exit 1; }
            awk -v m="$m" '$1 !~ /^#/ && NF == 3 && $3 + 0 == $3 { print m, $1, $2, $3 }' \
                "$W/out" >>"$W/all"
        done
    done
done
echo "# np $np, $runs runs per mode, $(date -u +%F\ %H:%M) UTC, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| metric | size | mode | median | slow runs (> 1.5x fastest) | sorted values |"
echo "| --- | ---: | --- | ---: | ---: | --- |"
IFS=, read -r -a S <<<"$sizes"
awk '{print $2}' "$W/all" | awk '!seen[$0]++' >"$W/metrics"
while read -r metric; do
    for s in 0 "${S[@]}"; do
        best=$(awk -v k="$metric" -v s="$s" '$2 == k && $3 == s' "$W/all" | sort -g -k4 | head -1 | awk '{print $4}')
        [ -n "$best" ] || continue
        for m in "${M[@]}"; do
            awk -v k="$metric" -v s="$s" -v m="$m" '$1 == m && $2 == k && $3 == s {print $4}' "$W/all" |
                sort -g | awk -v k="$metric" -v s="$s" -v m="$m" -v best="$best" '
                    { v[NR] = $1; slow += ($1 > 1.5 * best) }
                    END {
                        if (!NR) exit
                        med = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                        line = ""
                        for (i = 1; i <= NR; i++) line = line (i > 1 ? " " : "") v[i]
                        printf "| %s | %s | %s | %.3f | %d/%d | %s |\n", k, s, m, med, slow, NR, line
                    }'
        done
    done
done <"$W/metrics"
