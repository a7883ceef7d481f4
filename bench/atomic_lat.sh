#!/usr/bin/env bash
# atomic_lat.sh: the cost of --coll-mode=atomic on small collectives
# (docs/ft.md, "ATOMIC without the head"). bench/coll_lat.c (8-byte
# Allreduce and Barrier by default) runs, interleaved, under:
#   nonatomic   ftmpi, --coll-mode=nonatomic (no decision at all)
#   atomic      ftmpi, --coll-mode=atomic (decided in the shared slots)
#   head        ftmpi, --coll-mode=atomic with FTMPI_ATOMIC_SLOTS=0 (every
#               decision through the launcher's head: the method before)
#   openmpi     Open MPI's mpirun, when installed (no ATOMIC mode: the
#               reference for the collective itself)
# and prints, per metric, the median over the runs (each run reports the
# median of its batches) and the ratios to nonatomic and to Open MPI.
#
#   bench/atomic_lat.sh [--np N] [--runs R] [--build DIR] [-- coll_lat args]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
np=4 runs=7 build=$ROOT/build
args=(--ops allreduce,barrier --max-size 8 --reps 5)
while [ $# -gt 0 ]; do
    case $1 in
        --np) np=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --build) build=$2; shift 2 ;;
        --) shift; args=("$@"); break ;;
        -h|--help) sed -n 2,16p "$0"; exit 0 ;;
        *) echo "atomic_lat.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[ -x "$build/bin/mpicc" ] || { echo "atomic_lat.sh: no $build/bin/mpicc (build first)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/bin/mpicc" -O2 "$ROOT/bench/coll_lat.c" -o "$tmp/cl_ftmpi"
impls=(nonatomic atomic head)
if command -v mpicc.openmpi >/dev/null && command -v mpirun.openmpi >/dev/null; then
    mpicc.openmpi -O2 "$ROOT/bench/coll_lat.c" -o "$tmp/cl_ompi"
    impls+=(openmpi)
fi

run_one() { # impl -> "metric size usec" lines
    local ft=("$build/bin/mpirun" --timeout 120 -np "$np" --comm-mode=shrink)
    case $1 in
        nonatomic) "${ft[@]}" --coll-mode=nonatomic "$tmp/cl_ftmpi" "${args[@]}" ;;
        atomic) FTMPI_ATOMIC_SLOTS=1 "${ft[@]}" --coll-mode=atomic -x FTMPI_ATOMIC_SLOTS \
                    "$tmp/cl_ftmpi" "${args[@]}" ;;
        head) FTMPI_ATOMIC_SLOTS=0 "${ft[@]}" --coll-mode=atomic -x FTMPI_ATOMIC_SLOTS \
                  "$tmp/cl_ftmpi" "${args[@]}" ;;
        openmpi) OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 120 \
                     mpirun.openmpi --oversubscribe -np "$np" "$tmp/cl_ompi" "${args[@]}" ;;
    esac 2>/dev/null | grep -v '^#' || true
}

n=${#impls[@]}
for ((r = 0; r < runs; r++)); do # rotate the order: a slow phase hits every one
    for ((k = 0; k < n; k++)); do
        i=${impls[$(((k + r) % n))]}
        run_one "$i" | sed "s/^/$i /" >>"$tmp/all"
    done
done
echo "# np $np, $runs interleaved runs, load: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs"
echo "# coll_lat ${args[*]}; usec per call, medians"
awk -v order="${impls[*]}" '
    { v[$2" "$3, $1] = v[$2" "$3, $1] " " $4; keys[$2" "$3] = 1 }
    function median(s,   a, m, i, j, t) {
        m = split(s, a, " ")
        for (i = 2; i <= m; i++) for (j = i; j > 1 && a[j-1]+0 > a[j]+0; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
        return m ? (m % 2 ? a[(m+1)/2] : (a[m/2] + a[m/2+1]) / 2) : ""
    }
    END {
        ni = split(order, im, " ")
        printf "| metric | size |"; for (i = 1; i <= ni; i++) printf " %s |", im[i]
        printf " atomic/nonatomic | head/nonatomic | atomic/head |"
        if (ni > 3) printf " atomic/openmpi |"
        printf "\n|---|---|"; for (i = 1; i <= ni + 3 + (ni > 3); i++) printf "---|"; printf "\n"
        for (k in keys) {
            for (i = 1; i <= ni; i++) med[im[i]] = median(v[k, im[i]])
            split(k, kk, " ")
            printf "| %s | %s |", kk[1], kk[2]
            for (i = 1; i <= ni; i++) printf " %.2f |", med[im[i]]
            printf " %.2f | %.2f | %.2f |", med["atomic"] / med["nonatomic"], med["head"] / med["nonatomic"], med["atomic"] / med["head"]
            if (ni > 3) printf " %.2f |", med["atomic"] / med["openmpi"]
            printf "\n"
        }
    }' "$tmp/all"
