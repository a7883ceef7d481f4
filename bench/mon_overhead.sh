#!/usr/bin/env bash
# mon_overhead.sh: the cost of the monitor's message counting
# (runtime/monrank, docs/tools.md "Cost"): 8-byte ping-pong latency of
# bench_pingpong on 2 ranks, alternating in one run between
#   base  a build without the counting hook (BASE_BIN, e.g. main's build),
#   off   this build without --monitor (the hook is one test of a NULL
#         pointer),
#   on    this build with --monitor (counting, and a report every second).
# Prints each run and the medians.
#   bash bench/mon_overhead.sh BUILD_BIN BASE_BIN [ROUNDS]
set -euo pipefail
bin=${1:?usage: mon_overhead.sh BUILD_BIN BASE_BIN [ROUNDS]}
base=${2:?usage: mon_overhead.sh BUILD_BIN BASE_BIN [ROUNDS]}
rounds=${3:-7}
rt=$(mktemp -d)
trap 'rm -rf "$rt"' EXIT
chmod 700 "$rt"
lat() { # MPIRUN [ARGS...] -> the 8-byte latency in us
    local run=$1
    shift
    FTMPI_RUNTIME_DIR=$rt "$run" --timeout 120 "$@" -np 2 "$(dirname "$run")/bench_pingpong" \
        --quick --latency-only 2>/dev/null | awk '$1 == 8 || $2 == 8 { print $NF; exit }'
}
declare -A all
for i in $(seq "$rounds"); do
    all[base]+="$(lat "$base/mpirun") "
    all[off]+="$(lat "$bin/mpirun") "
    all[on]+="$(lat "$bin/mpirun" --monitor) "
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-5s %8s  %s\n' run median runs
for k in base off on; do
    printf '%-5s %8s  %s\n' "$k" "$(echo "${all[$k]}" | median)" "${all[$k]}"
done
