#!/bin/sh
# MPIEXEC_TIMEOUT is mpirun's default --timeout (issue 19): a job that runs
# longer is killed with exit 124; --timeout on the command line wins; a bad
# value is refused with exit 2 and a message naming the variable.
# Usage: mpiexec_timeout.sh MPIRUN
run=$1
fail=0
MPIEXEC_TIMEOUT=1 "$run" -np 2 sleep 60 2>/dev/null
rc=$?
[ $rc -eq 124 ] || { echo "FAIL: MPIEXEC_TIMEOUT=1: exit $rc, expected 124"; fail=1; }
MPIEXEC_TIMEOUT=1 "$run" --timeout 60 -np 1 sleep 3
rc=$?
[ $rc -eq 0 ] || { echo "FAIL: --timeout 60 over MPIEXEC_TIMEOUT=1: exit $rc, expected 0"; fail=1; }
out=$(MPIEXEC_TIMEOUT=soon "$run" -np 1 true 2>&1)
rc=$?
[ $rc -eq 2 ] || { echo "FAIL: MPIEXEC_TIMEOUT=soon: exit $rc, expected 2"; fail=1; }
case "$out" in *MPIEXEC_TIMEOUT*) ;; *) echo "FAIL: no message naming MPIEXEC_TIMEOUT: $out"; fail=1 ;; esac
MPIEXEC_TIMEOUT= "$run" -np 1 true || { echo "FAIL: empty MPIEXEC_TIMEOUT refused"; fail=1; }
[ $fail -eq 0 ] && echo "mpiexec_timeout: passed"
exit $fail
