#!/usr/bin/env bash
# net_rel_loop.sh [BUILD_DIR] [ROUNDS] [MAX_SIZE]: the reliability layer's
# cost on one host, both ranks over TCP loopback (FTMPI_TRANSPORT=tcp):
# bench_pingpong's bandwidth test (a window of non-blocking sends) with
# --reliability=on and =off, ROUNDS rounds (default 5) alternating on/off,
# then the per-size medians and the on/off ratio. With PLACE_AB=1 a third
# kind, "copy" (the layer on, zero-copy receive off: FTMPI_REL_PLACE=0),
# runs in the same rounds and gets its own columns; with REL_AB='VAR=VAL ...'
# a kind "ab" (the layer on with those variables, e.g. the settings before a
# change: REL_AB=FTMPI_REL_FRAG=131072) likewise. No namespaces (no root);
# bench/net_rel.sh measures across two namespace hosts and against Open MPI.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$ROOT/build}
rounds=${2:-5}
max=${3:-1048576}
[ -x "$build/bin/mpirun" ] || { echo "net_rel_loop.sh: no $build/bin/mpirun (build first)" >&2; exit 2; }
out=$(mktemp "${TMPDIR:-/tmp}/net_rel_loop.XXXXXX")
trap 'rm -f "$out"' EXIT
kinds="on off"
[ "${PLACE_AB:-0}" = 1 ] && kinds="$kinds copy"
[ -n "${REL_AB:-}" ] && kinds="$kinds ab"
for r in $(seq "$rounds"); do
    for k in $kinds; do
        rel=$k place=1 extra=()
        [ $k = copy ] && rel=on place=0
        [ $k = ab ] && rel=on extra=(${REL_AB})
        env "${extra[@]}" FTMPI_TRANSPORT=tcp FTMPI_REL_PLACE=$place "$build/bin/mpirun" --timeout 120 \
            --reliability=$rel -np 2 "$build/bin/bench_pingpong" --bandwidth-only \
            --max-size "$max" --reps 5 --batch-ms 20 |
            awk -v k=$k '$1 == "bandwidth" { print k, $2, $3 }' >>"$out"
    done
done
python3 - "$out" "$rounds" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    k, size, v = line.split()
    runs[(k, int(size))].append(float(v))
print(f"bandwidth MB/s, TCP loopback, median of {sys.argv[2]} runs each\n")
extra = [k for k in ("copy", "ab") if any(kk == k for kk, _ in runs)]
name = {"copy": "on, no zero-copy", "ab": "on, REL_AB"}
print("| size | rel on | rel off | on/off |" + "".join(f" {name[k]} | its on/off |" for k in extra))
print("| ---: | ---: | ---: | ---: |" + " ---: | ---: |" * len(extra))
for s in sorted({s for _, s in runs}):
    on, off = statistics.median(runs[("on", s)]), statistics.median(runs[("off", s)])
    row = f"| {s} | {on:.1f} | {off:.1f} | {on / off:.2f} |"
    for k in extra:
        cp = statistics.median(runs[(k, s)])
        row += f" {cp:.1f} | {cp / off:.2f} |"
    print(row)
PY
