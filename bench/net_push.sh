#!/usr/bin/env bash
# net_push.sh: the TCP push (docs/network.md, "Push") measured against the
# rendezvous it replaces and against Open MPI's TCP path, interleaved.
#
#   bench/net_push.sh [BUILD_DIR] [ROUNDS] [-- pingpong options...]
#
# Each round runs bench/pingpong three times on TCP loopback, 2 ranks:
#   push   ftmpi, FTMPI_TRANSPORT=tcp (the default: push up to 4 MiB)
#   rndv   the same with FTMPI_TCP_PUSH_LIMIT=0 (RTS with its head, CTS, stream)
#   ompi   Open MPI, --mca btl tcp,self
# and prints per size the median over the rounds of each (each run reports
# its own median), with push/rndv and push/ompi. FTMPIRUN_OPTS adds ftmpirun
# options (e.g. --reliability=off). Default pingpong options:
#   --max-size 4194304 --reps 5 --batch-ms 10
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$ROOT/build
rounds=3
if [ $# -gt 0 ] && [ "$1" != -- ]; then build=$(cd "$1" && pwd); shift; fi
if [ $# -gt 0 ] && [ "$1" != -- ]; then rounds=$1; shift; fi
[ "${1:-}" = -- ] && shift
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--max-size 4194304 --reps 5 --batch-ms 10)
case $rounds in ''|*[!0-9]*) echo "net_push.sh: ROUNDS must be a number" >&2; exit 2 ;; esac
[ -x "$build/bin/mpirun" ] && [ -x "$build/bin/bench_pingpong" ] ||
    { echo "net_push.sh: no $build/bin/mpirun or bench_pingpong (build first)" >&2; exit 2; }
command -v mpicc.openmpi >/dev/null ||
    { echo "net_push.sh: mpicc.openmpi not found (apt-get install libopenmpi-dev)" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ftmpi-push.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mpicc.openmpi -O2 -o "$tmp/pp.ompi" "$ROOT/bench/pingpong.c" -lm
run() { # name command...
    local name=$1; shift
    echo "net_push.sh: round $r: $name" >&2
    "$@" "${args[@]}" | awk -v n="$name" '$1=="latency"||$1=="bandwidth"{print n, $1, $2, $3}' \
        >>"$tmp/all" || echo "net_push.sh: $name failed in round $r" >&2
}
for r in $(seq 1 "$rounds"); do
    run push "$build/bin/mpirun" --timeout 300 -x FTMPI_TRANSPORT=tcp ${FTMPIRUN_OPTS:-} \
        -np 2 "$build/bin/bench_pingpong"
    run rndv "$build/bin/mpirun" --timeout 300 -x FTMPI_TRANSPORT=tcp -x FTMPI_TCP_PUSH_LIMIT=0 \
        ${FTMPIRUN_OPTS:-} -np 2 "$build/bin/bench_pingpong"
    run ompi mpirun.openmpi --allow-run-as-root --oversubscribe --mca btl tcp,self -np 2 \
        "$tmp/pp.ompi"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%H:%M) UTC; rounds $rounds; ${FTMPIRUN_OPTS:-default options}"
sort -k2,2 -k3,3n "$tmp/all" | awk '
function med(s,   a, n, t) { n = split(s, a, " "); asort(a);
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
{ k = $2 " " $3; v[k, $1] = v[k, $1] " " $4; if (!(k in seen)) { seen[k] = 1; order[++nk] = k } }
END {
    for (i = 1; i <= nk; i++) {
        split(order[i], f, " ");
        if (f[1] != last) { last = f[1];
            printf "\n%s (%s)\n\n| size | push | rndv | Open MPI | push/rndv | push/Open MPI |\n| ---: | ---: | ---: | ---: | ---: | ---: |\n", f[1], f[1] == "latency" ? "us, lower is better" : "MB/s, higher is better" }
        p = med(v[order[i], "push"]); q = med(v[order[i], "rndv"]); o = med(v[order[i], "ompi"]);
        printf "| %s | %.1f | %.1f | %.1f | %.2f | %.2f |\n", f[2], p, q, o, q ? p / q : 0, o ? p / o : 0
    }
}'
