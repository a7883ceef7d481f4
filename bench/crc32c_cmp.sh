#!/usr/bin/env bash
# crc32c_cmp.sh [REV] [ROUNDS]: util/crc32c.c of git revision REV (default
# HEAD~1) against the working tree's, side by side: bench/crc32c_bw.c built
# against each (cc -O2, as the library), run in turn ROUNDS times (default
# 3), then per size the median GB/s of each and the ratio new/old.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rev=${1:-HEAD~1}
rounds=${2:-3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/crc32c_cmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
git -C "$ROOT" show "$rev:ftmpi/util/crc32c.c" >"$tmp/old.c" ||
    { echo "crc32c_cmp.sh: no ftmpi/util/crc32c.c at revision '$rev'" >&2; exit 2; }
for v in old new; do
    src=$tmp/old.c
    [ $v = new ] && src=$ROOT/ftmpi/util/crc32c.c
    ${CC:-cc} -O2 -I"$ROOT/ftmpi" "$ROOT/bench/crc32c_bw.c" "$src" -o "$tmp/$v" -lpthread
done
for r in $(seq "$rounds"); do
    for v in old new; do
        "$tmp/$v" 20 | awk -v k=$v '$1 ~ /^[0-9]+$/ { print k, $1, $2, $3 }' >>"$tmp/runs"
    done
done
python3 - "$tmp/runs" "$rev" "$rounds" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    k, size, crc, copy = line.split()
    runs[(k, int(size))].append((float(crc), float(copy)))
print(f"GB/s, median of {sys.argv[3]} runs (each the best of 20 timings of 8 MiB), old = {sys.argv[2]}\n")
print("| bytes | crc old | crc new | new/old | copy+crc old | copy+crc new | new/old |")
print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for s in sorted({s for _, s in runs}):
    o = [statistics.median(x) for x in zip(*runs[("old", s)])]
    n = [statistics.median(x) for x in zip(*runs[("new", s)])]
    print(f"| {s} | {o[0]:.2f} | {n[0]:.2f} | {n[0] / o[0]:.2f} | {o[1]:.2f} | {n[1]:.2f} | {n[1] / o[1]:.2f} |")
PY
