#!/usr/bin/env bash
# mon_overhead.sh: the cost of the monitor's and tracer's hooks in libftmpi
# (runtime/monrank, docs/tools.md "Cost"): 8-byte ping-pong latency of
# bench_pingpong on 2 ranks, alternating in one run between
#   base   a build of this tree with the hooks compiled out
#          (cmake -DFTMPI_MON_HOOKS=OFF: no counting, no FT-event hook),
#          made in BUILD_DIR-nohooks when missing (ccache makes it cheap);
#   off    BUILD_DIR without --monitor (each hook is one test of a NULL
#          pointer);
#   on     BUILD_DIR with --monitor (counting, a report every second, the
#          daemons sampling /proc every second);
#   trace  BUILD_DIR with --trace DIR (counting, one event per MPI call).
# Prints the load, each run and the medians.
#   bash bench/mon_overhead.sh BUILD_DIR [ROUNDS]
set -euo pipefail
build=$(cd "${1:?usage: mon_overhead.sh BUILD_DIR [ROUNDS]}" && pwd)
rounds=${2:-7}
src=$(cd "$(dirname "$0")/.." && pwd)
base=$build-nohooks
if [ ! -x "$base/bin/bench_pingpong" ]; then
    echo "building the base (hooks compiled out) in $base" >&2
    cmake -S "$src" -B "$base" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_C_COMPILER_LAUNCHER=ccache -DFTMPI_MON_HOOKS=OFF \
        -DFTMPI_BUILD_TESTS=OFF -DFTMPI_FORTRAN=OFF >/dev/null
    cmake --build "$base" -j2 --target ftmpirun bench_pingpong >/dev/null
fi
rt=$(mktemp -d)
trap 'rm -rf "$rt"' EXIT
chmod 700 "$rt"
lat() { # BIN [ARGS...] -> the 8-byte latency in us
    local bin=$1
    shift
    FTMPI_RUNTIME_DIR=$rt "$bin/ftmpirun" --timeout 120 "$@" -np 2 "$bin/bench_pingpong" \
        --quick --latency-only 2>/dev/null | awk '$1 == 8 || $2 == 8 { print $NF; exit }'
}
declare -A all
load0=$(cut -d' ' -f1-3 /proc/loadavg)
for i in $(seq "$rounds"); do
    all[base]+="$(lat "$base/bin") "
    all[off]+="$(lat "$build/bin") "
    all[on]+="$(lat "$build/bin" --monitor) "
    rm -rf "$rt/tr"
    all[trace]+="$(lat "$build/bin" --trace "$rt/tr") "
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "load average: $load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end; $(nproc) cores"
printf '%-6s %8s  %s\n' run median "runs (8-byte latency, us)"
for k in base off on trace; do
    printf '%-6s %8s  %s\n' "$k" "$(echo "${all[$k]}" | median)" "${all[$k]}"
done
