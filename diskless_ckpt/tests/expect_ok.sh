#!/bin/sh
# expect_ok.sh SECONDS PASS_RE FAIL_RE -- CMD...
# Runs CMD (an MPI launcher command) under `timeout SECONDS`: it must exit 0
# (so a crash, an abort or a timeout fails), print a line matching the
# extended regular expression PASS_RE and none matching FAIL_RE (unless
# FAIL_RE is empty).
# Works with any launcher (ctest's PASS_REGULAR_EXPRESSION alone would
# ignore the exit status).
set -u
secs=$1 re=$2 bad=$3
shift 3
[ "$1" = "--" ] || { echo "usage: expect_ok.sh SECONDS PASS_RE FAIL_RE -- CMD..." >&2; exit 2; }
shift
out=$(timeout -k 5 "$secs" "$@" 2>&1); rc=$?
printf '%s\n' "$out"
[ $rc -ne 124 ] || { echo "expect_ok: timed out after $secs s"; exit 1; }
[ $rc -eq 0 ] || { echo "expect_ok: exit status $rc"; exit 1; }
printf '%s\n' "$out" | grep -Eq "$re" || { echo "expect_ok: no line matching '$re'"; exit 1; }
if [ -n "$bad" ] && printf '%s\n' "$out" | grep -Eq "$bad"; then
    echo "expect_ok: a line matches '$bad'"; exit 1
fi
echo "expect_ok: ok"
exit 0
