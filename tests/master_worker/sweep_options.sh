#!/bin/sh
# sweep_options.sh MPIRUN SWEEP: every bad option value of the sweep example
# (not a number, NaN, Inf, out of range, --mu-min above --mu-max, unknown,
# missing) makes it exit 2 with a message naming the option, alone and under
# mpirun -np 2; nothing is computed (no output line).
set -u
RUN=$1 SWEEP=$2
n=0
check() {
    re=$1; shift
    for how in alone mpirun; do
        if [ $how = alone ]; then out=$("$SWEEP" --quiet "$@" 2>&1); rc=$?
        else out=$("$RUN" --timeout 30 -np 2 "$SWEEP" --quiet "$@" 2>&1); rc=$?; fi
        [ $rc -eq 2 ] || { echo "FAIL ($how): sweep $* exited $rc, want 2"; echo "$out"; exit 1; }
        printf '%s\n' "$out" | grep -Eq "^sweep: .*$re" ||
            { echo "FAIL ($how): sweep $*: no message matching '$re'"; echo "$out"; exit 1; }
        printf '%s\n' "$out" | grep -Eq '^-?[0-9.]+ ' &&
            { echo "FAIL ($how): sweep $* computed something"; echo "$out"; exit 1; }
        n=$((n + 1))
    done
}
check "bad value 'nan' for --t-end" --t-end nan
check "bad value 'inf' for --mu-min" --mu-min inf
check "bad value '1e999' for --mu-max" --mu-max 1e999
check "bad value 'abc' for --tasks" --tasks abc
check "bad value '3.5' for --tasks \\(an integer\\)" --tasks 3.5
check "bad value '10x' for --task-ms" --task-ms 10x
check "bad value '0' for --depth" --depth 0
check "--mu-min 5 is above --mu-max 1" --mu-min 5 --mu-max 1
check "unknown option '--frob'" --frob 1
check "--depth needs a value" --depth
echo "PASS [sweep_options]: $n bad command lines, each exit 2 with its message"
