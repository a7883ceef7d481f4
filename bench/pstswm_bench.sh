#!/usr/bin/env bash
# pstswm_bench.sh: benchmarks of apps/pstswm (docs/pstswm.md, "Benchmarks").
#
#   bench/pstswm_bench.sh [BUILD_DIR] [--runs R] [--np "1 2 4"] [--dir /tmp] [--quick]
#
# 1. Time per step (case 6, 60 steps) at T42, T85 and T170 for each rank count of --np
#    (the model's own loop, every rank computes: --checksums 0), and the
#    parallel efficiency t(1) / (np t(np)); beside it the same from the CPU
#    time of a step (pstswm --profile: the busiest rank's thread CPU time,
#    which a loaded machine inflates far less than the wall time).
# 2. Checkpoints at T85 every 100 steps (300 steps, 2 computing ranks): in
#    memory (XOR onto a third rank) against the model's own restart files
#    written every 100 steps with fsync into --dir; overhead against the
#    step time, time per checkpoint.
# 3. Recovery from one kill at T85 (a computing rank killed at step 150,
#    checkpoints every 100 steps): detection, MPI recovery, restore, steps
#    recomputed, from the run's report with ftmpirun's event log.
# Each number is the median of R runs (default 3), the runs of different
# configurations interleaved. Markdown tables on stdout, progress on stderr.
# --quick: T21/T42 only, one run (a check that the script works).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=build
runs=3
nps="1 2 4"
dir=/tmp
truncs="42 85 170"
quick=0
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=$2; shift 2 ;;
        --np) nps=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        --quick) runs=1; truncs="21 42"; quick=1; shift ;;
        -h|--help) sed -n '2,23p' "$0"; exit 0 ;;
        -*) echo "pstswm_bench: unknown option $1" >&2; exit 2 ;;
        *) build=$1; shift ;;
    esac
done
run="$build/bin/mpirun --timeout 600"
sw=$build/bin/pstswm
for f in "$build/bin/mpirun" "$sw"; do
    [ -x "$f" ] || { echo "pstswm_bench: $f missing (build the project first)" >&2; exit 2; }
done
say() { echo "pstswm_bench: $*" >&2; }
median() { sort -g | awk '{v[NR] = $1} END {if (NR) print v[int((NR + 1) / 2)]; else print "nan"}'; }
# key NAME < JSON report: the first value of "NAME" (numbers only)
key() { grep -Eo "\"$1\": [-0-9.e+]+" | head -n 1 | awk '{print $2}'; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pstswm_bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# the model's default time step (sw_default_dt: 1200 s at T42 as 1/M, a divisor of a day)
dt_for() { local d=$(( 50400 / $1 )); while [ $(( 86400 % d )) -ne 0 ]; do d=$((d - 1)); done; echo $d; }
# days for N steps at truncation T
days_for() { awk -v s="$2" -v dt="$(dt_for "$1")" 'BEGIN {printf "%.10g", s * dt / 86400}'; }

echo "## pstswm time per step (case 6, the model's own loop; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
echo
echo "| truncation | grid | steps | np | ms per step | speed-up | parallel efficiency | CPU ms per step | CPU efficiency |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for T in $truncs; do
    d=$(days_for "$T" 60)
    for r in $(seq "$runs"); do
        for np in $nps; do
            say "T$T np $np run $r"
            $run -np "$np" "$sw" --case 6 --trunc "$T" --days "$d" --checksums 0 --json \
                --output-hours 0 --profile > "$tmp/t$T.np$np.r$r.json"
        done
    done
    t1=""
    for np in $nps; do
        t=$(cat "$tmp"/t$T.np$np.r*.json | key time_per_step_s | median)
        c=$(cat "$tmp"/t$T.np$np.r*.json | key cpu_ms_per_step_total_max | median)
        [ -z "$t1" ] && t1=$t && c1=$c && np1=$np
        f=$tmp/t$T.np$np.r1.json
        awk -v T="$T" -v nlon="$(key nlon < "$f")" -v nlat="$(key nlat < "$f")" \
            -v s="$(key steps < "$f")" -v np="$np" -v t="$t" -v t1="$t1" -v np1="$np1" \
            -v c="$c" -v c1="$c1" 'BEGIN {
            sp = t1 * np1 / t
            printf "| T%d | %d x %d | %d | %d | %.3f | %.2f | %.0f%% | %.3f | %.0f%% |\n",
                T, nlon, nlat, s, np, 1e3 * t, sp / np1, 100 * sp / np, c,
                100 * c1 * np1 / (np * c) }'
    done
done
echo

T=85
[ "$quick" = 1 ] && T=42
steps=300
days=$(days_for $T $steps)
K=100
mem=(-np 3 "$sw" --case 6 --trunc $T --days "$days" --ckpt-interval $K --encoding xor --json --output-hours 0)
file=(-np 2 "$sw" --case 6 --trunc $T --days "$days" --checksums 0 --restart-out "$dir/pstswm_bench_rst.$$"
      --restart-every $K --json --output-hours 0)
none=(-np 2 "$sw" --case 6 --trunc $T --days "$days" --checksums 0 --json --output-hours 0)
for r in $(seq "$runs"); do
    say "checkpoints T$T run $r"
    $run --comm-mode=rebuild "${mem[@]}" > "$tmp/mem.r$r.json"
    $run "${file[@]}" > "$tmp/file.r$r.json"
    $run "${none[@]}" > "$tmp/none.r$r.json"
done
rm -f "$dir"/pstswm_bench_rst.$$.r*
echo "## Checkpoints every $K steps at T$T ($steps steps, 2 computing ranks; files in $dir with fsync)"
echo
echo "| checkpoints | count | bytes per rank | ms per step | checkpoint s | s per checkpoint | overhead vs step time |"
echo "| --- | --- | --- | --- | --- | --- | --- |"
for kind in none mem file; do
    case $kind in
        mem) c=checkpoints; b=checkpoint_bytes_per_rank; s=checkpoint_time_s; o=checkpoint_overhead_pct; name="in memory (XOR, 3rd rank)" ;;
        file) c=restart_file_writes; b=restart_bytes_per_rank; s=restart_file_time_s; o=restart_file_overhead_pct; name="restart files + fsync" ;;
        none) c=checkpoints; b=checkpoint_bytes_per_rank; s=checkpoint_time_s; o=checkpoint_overhead_pct; name="none" ;;
    esac
    cnt=$(key $c < "$tmp/$kind.r1.json")
    by=$(key $b < "$tmp/$kind.r1.json")
    [ "$kind" = none ] && by=0
    tps=$(cat "$tmp"/$kind.r*.json | key time_per_step_s | median)
    cs=$(cat "$tmp"/$kind.r*.json | key $s | median)
    ov=$(cat "$tmp"/$kind.r*.json | key $o | median)
    awk -v n="$name" -v c="$cnt" -v b="$by" -v t="$tps" -v s="$cs" -v o="$ov" 'BEGIN {
        printf "| %s | %d | %d | %.3f | %.4f | %.4f | %.2f%% |\n", n, c, b, 1e3 * t, s,
            (c > 0 ? s / c : 0), o }'
done
echo

say "recovery T$T"
echo "## Recovery from one kill at T$T (rank 1 of 2 computing killed at step 150, checkpoints every $K)"
echo
echo "| run | detection ms | MPI recovery ms | restore ms | steps recomputed | same state checksum |"
echo "| --- | --- | --- | --- | --- | --- |"
ref=$(grep -Eo '"state_checksum": "[0-9a-f]+"' "$tmp/mem.r1.json")
for r in $(seq "$runs"); do
    ev=$tmp/ev.$r.jsonl
    $run --comm-mode=rebuild --event-log "$ev" --kill-at iter=150@1 "${mem[@]}" \
        --event-log "$ev" > "$tmp/kill.r$r.json"
    f=$tmp/kill.r$r.json
    same=no
    [ "$(grep -Eo '"state_checksum": "[0-9a-f]+"' "$f")" = "$ref" ] && same=yes
    awk -v r="$r" -v d="$(key detection_s < "$f")" -v m="$(key mpi_recovery_s < "$f")" \
        -v s="$(key restore_s < "$f")" -v k="$(key steps_recomputed < "$f")" -v same=$same 'BEGIN {
        printf "| %d | %.2f | %.2f | %.2f | %d | %s |\n", r, 1e3 * d, 1e3 * m, 1e3 * s, k, same }'
done
