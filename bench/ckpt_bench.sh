#!/usr/bin/env bash
# ckpt_bench.sh: benchmarks of in-memory checkpointing (docs/cg.md, "Benchmarks").
#
#   bench/ckpt_bench.sh [BUILD_DIR] [--np N] [--mib M] [--n N] [--runs R] [--quick]
#
# 1. Encode throughput: ISA-L Reed-Solomon encode on one core
#    (dckpt_bench_encode --kernels) against a checkpoint of M MiB per data
#    rank on N ranks (one group, Reed-Solomon with 2 checksum ranks, and XOR),
#    per data rank; also at 2 ranks (1 data + 1 checksum: one core each on a
#    2-core machine).
# 2. Checkpoint time against each data rank writing the same bytes to a file
#    on local disk (--dir, default /tmp) followed by fsync.
# 3. CG (apps/cg, N^3 Poisson, 8 ranks, RS m=2) with checkpoints every
#    0 (none), 10, 50 and 100 iterations: solve time and overhead.
# Each number is the median of R runs (default 3). Markdown tables on stdout,
# progress on stderr. --quick: small sizes, one run.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=build
np=8
mib=64
n=96
runs=3
dir=/tmp
while [ $# -gt 0 ]; do
    case "$1" in
        --np) np=$2; shift 2 ;;
        --mib) mib=$2; shift 2 ;;
        --n) n=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --dir) dir=$2; shift 2 ;;
        --quick) mib=8; n=48; runs=1; shift ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        -*) echo "ckpt_bench: unknown option $1" >&2; exit 2 ;;
        *) build=$1; shift ;;
    esac
done
run=$build/bin/mpirun
enc=$build/bin/dckpt_bench_encode
cg=$build/bin/cg
for f in "$run" "$enc" "$cg"; do
    [ -x "$f" ] || { echo "ckpt_bench: $f missing (build the project first)" >&2; exit 2; }
done
say() { echo "ckpt_bench: $*" >&2; }

median() { sort -g | awk '{v[NR] = $1} END {if (NR) print v[int((NR + 1) / 2)]; else print "nan"}'; }
# metric NAME < "name value" lines
metric() { awk -v k="$1" '$1 == k {print $2}'; }

# ---------------------------------------------------------------- 1 + 2
say "ISA-L single-core kernels ($runs runs)"
kern=$(for r in $(seq "$runs"); do "$enc" --kernels --mib "$mib"; done)
isal42=$(printf '%s\n' "$kern" | metric isal_rs_4p2_encode_gbps | median)
isal71=$(printf '%s\n' "$kern" | metric isal_rs_7p1_encode_gbps | median)
memcpy=$(printf '%s\n' "$kern" | metric memcpy_gbps | median)

echo "## Checkpoint encode throughput and file+fsync ($(nproc) cores, $mib MiB per data rank)"
echo
echo "Single core: ISA-L RS 4+2 encode $isal42 GB/s, RS 7+1 $isal71 GB/s, memcpy $memcpy GB/s."
echo
echo "| ranks | code | chunk | checkpoint s | per data rank GB/s | % of ISA-L 4+2 | restore (1 lost) s | file+fsync s | checkpoint / file |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
bench_ckpt() {   # np code m chunk_kib
    local out
    say "checkpoint: $1 ranks, $2 m=$3, chunk $4 KiB ($runs runs)"
    out=$(for r in $(seq "$runs"); do
        "$run" --timeout 600 -np "$1" "$enc" --mib "$mib" --code "$2" --m "$3" \
            --chunk-kib "$4" --dir "$dir"
    done)
    local c=$2 m=$3
    local t g rt ft
    t=$(printf '%s\n' "$out" | metric "ckpt_${c}_m${m}_seconds" | median)
    g=$(printf '%s\n' "$out" | metric "ckpt_${c}_m${m}_per_rank_gbps" | median)
    rt=$(printf '%s\n' "$out" | metric "restore_${c}_m${m}_1lost_seconds" | median)
    ft=$(printf '%s\n' "$out" | metric file_fsync_seconds | median)
    awk -v np="$1" -v c="$c" -v m="$m" -v ch="$4" -v t="$t" -v g="$g" -v i="$isal42" \
        -v rt="$rt" -v ft="$ft" 'BEGIN {
        printf "| %d | %s m=%d | %d KiB | %.4f | %.3f | %.0f%% | %.4f | %.4f | %.2f |\n",
               np, c, m, ch, t, g, 100 * g / i, rt, ft, t / ft }'
}
bench_ckpt 2 rs 1 256
bench_ckpt "$np" rs 2 256
bench_ckpt "$np" rs 2 4096
bench_ckpt "$np" xor 1 256
echo

# ---------------------------------------------------------------- 3
echo "## CG with checkpoints every K iterations (n=$n, 8 ranks: 6 data + 2 checksum, RS)"
echo
echo "| K | checkpoints | MiB per data rank | solve s | time per iteration ms | checkpoint s | overhead vs K=0 | reported overhead |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
# the runs of the four intervals are interleaved, so that a noisy period of
# a shared machine does not land on one K only
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for r in $(seq "$runs"); do
    for k in 0 10 50 100; do
        say "cg --n $n --ckpt-interval $k (run $r of $runs)"
        "$run" --timeout 600 --comm-mode=rebuild -np 8 "$cg" --n "$n" --encoding rs \
            --checksums 2 --ckpt-interval "$k" --json >> "$tmp/k$k"
    done
done
base=""
for k in 0 10 50 100; do
    get() { grep -o "\"$1\": [0-9.e+-]*" "$tmp/k$k" | awk '{print $2}' | median; }
    solve=$(get solve_time_s)
    [ -n "$base" ] || base=$solve
    awk -v k="$k" -v nc="$(get checkpoints)" -v b="$(get checkpoint_bytes_per_rank)" \
        -v s="$solve" -v tpi="$(get time_per_iteration_s)" -v c="$(get checkpoint_time_s)" \
        -v o="$(get checkpoint_overhead_pct)" -v base="$base" 'BEGIN {
        printf "| %d | %d | %.2f | %.3f | %.3f | %.3f | %+.1f%% | %.1f%% |\n",
               k, nc, b / 1048576, s, 1e3 * tpi, c, 100 * (s - base) / base, o }'
done
