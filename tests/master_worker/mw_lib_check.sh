#!/bin/sh
# mw_lib_check.sh RUNS WANT_RC LINE_RE -- CMD...
# Runs CMD RUNS times in a row; each run must exit with status WANT_RC (not
# 124, a --timeout) and print a line matching the extended regular
# expression LINE_RE, and no line containing "BUG". Every output is shown.
set -u
runs=$1 want=$2 re=$3
shift 3
[ "$1" = "--" ] || { echo "usage: mw_lib_check.sh RUNS WANT_RC LINE_RE -- CMD..." >&2; exit 2; }
shift
i=1
while [ $i -le "$runs" ]; do
    out=$("$@" 2>&1); rc=$?
    printf '%s\n' "$out"
    [ $rc -ne 124 ] || { echo "mw_lib_check: run $i timed out (exit 124)"; exit 1; }
    [ $rc -eq "$want" ] || { echo "mw_lib_check: run $i: exit status $rc, want $want"; exit 1; }
    printf '%s\n' "$out" | grep -Eq "$re" || { echo "mw_lib_check: run $i: no line matching '$re'"; exit 1; }
    if printf '%s\n' "$out" | grep -q BUG; then echo "mw_lib_check: run $i: BUG"; exit 1; fi
    i=$((i + 1))
done
echo "mw_lib_check: ok ($runs run(s), exit $want)"
exit 0
