#!/bin/sh
# io_sfp_kill.sh MPIRUN PROG DIR: every rank of io_sfp_kill SIGKILLs itself
# with a file open; afterwards DIR must hold the data file and no hidden
# shared-pointer counter (.sfp.dat.sfp-PID-N). Prints "io.sfp_kill: ok".
set -u
run=$1 prog=$2 dir=$3/sfp_kill.$$
rm -rf "$dir" && mkdir -p "$dir" || exit 1
out=$("$run" --timeout 30 -np 3 "$prog" "$dir" 2>&1)
echo "$out"
case $out in
*"io_sfp_kill: open, no counter name"*) ;;
*) echo "io_sfp_kill.sh: check failed: the program did not reach the kill"; rm -rf "$dir"; exit 1 ;;
esac
left=$(ls -A "$dir" | grep -c '\.sfp-')
data=$(ls -A "$dir" | grep -c '^sfp\.dat$')
ls -lA "$dir"
rm -rf "$dir"
if [ "$left" -ne 0 ] || [ "$data" -ne 1 ]; then
    echo "io_sfp_kill.sh: check failed: $left counter file(s) left, data file present: $data"
    exit 1
fi
echo "io.sfp_kill: ok"
