#!/usr/bin/env bash
# net_rel_loop.sh [BUILD_DIR] [ROUNDS] [MAX_SIZE]: the reliability layer's
# cost on one host, both ranks over TCP loopback (FTMPI_TRANSPORT=tcp):
# bench_pingpong's bandwidth test (a window of non-blocking sends) with
# --reliability=on and =off, ROUNDS rounds (default 5) alternating on/off,
# then the per-size medians and the on/off ratio. No namespaces (no root);
# bench/net_rel.sh measures across two namespace hosts and against Open MPI.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$ROOT/build}
rounds=${2:-5}
max=${3:-1048576}
[ -x "$build/bin/mpirun" ] || { echo "net_rel_loop.sh: no $build/bin/mpirun (build first)" >&2; exit 2; }
out=$(mktemp "${TMPDIR:-/tmp}/net_rel_loop.XXXXXX")
trap 'rm -f "$out"' EXIT
for r in $(seq "$rounds"); do
    for rel in on off; do
        FTMPI_TRANSPORT=tcp "$build/bin/mpirun" --timeout 120 --reliability=$rel -np 2 \
            "$build/bin/bench_pingpong" --bandwidth-only --max-size "$max" --reps 5 \
            --batch-ms 20 | awk -v k=$rel '$1 == "bandwidth" { print k, $2, $3 }' >>"$out"
    done
done
python3 - "$out" "$rounds" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    k, size, v = line.split()
    runs[(k, int(size))].append(float(v))
print(f"bandwidth MB/s, TCP loopback, median of {sys.argv[2]} runs each\n")
print("| size | rel on | rel off | on/off |")
print("| ---: | ---: | ---: | ---: |")
for s in sorted({s for _, s in runs}):
    on, off = statistics.median(runs[("on", s)]), statistics.median(runs[("off", s)])
    print(f"| {s} | {on:.1f} | {off:.1f} | {on / off:.2f} |")
PY
