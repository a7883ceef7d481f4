#!/bin/sh
# run_ft.sh EXPECT_OK_LINES EXPECT_RC -- mpirun -v ... program...
# Runs an FT test job and checks its outcome; it fails unless all of these hold:
#  - at least EXPECT_OK_LINES lines end in ": ok" (one per rank that must
#    finish), and no line says FAILED or "check failed";
#  - the launcher's exit status is EXPECT_RC: "zero", "nonzero" (a failure
#    never recovered, spec section 7; not 124, the launcher's --timeout), or
#    an exact number;
#  - every process failure the launcher reports (run it with -v, which
#    reports recovered failures too) is a SIGKILL, the tests' only way of
#    killing: a crash, another signal or a non-zero exit of a rank fails the
#    test even when a recovery has hidden it from the exit status.
want_ok=$1; want_rc=$2
[ "$3" = "--" ] || { echo "usage: run_ft.sh EXPECT_OK_LINES EXPECT_RC -- command..."; exit 2; }
shift 3
out=$("$@" 2>&1); rc=$?
printf '%s\n' "$out"
ok=$(printf '%s\n' "$out" | grep -c ': ok$')
if printf '%s\n' "$out" | grep -q 'FAILED\|check failed'; then echo "run_ft: a check failed"; exit 1; fi
if printf '%s\n' "$out" | grep -q 'exited with code\|killed by signal \([0-8]\|[1-9][0-9]\)'; then
  echo "run_ft: a process crashed or exited with an error"; exit 1
fi
if [ "$ok" -lt "$want_ok" ]; then echo "run_ft: $ok ranks reported ok, want $want_ok"; exit 1; fi
case $want_rc in
  zero) [ $rc -eq 0 ] || { echo "run_ft: exit status $rc, want 0"; exit 1; } ;;
  nonzero) [ $rc -ne 0 ] && [ $rc -ne 124 ] || { echo "run_ft: exit status $rc, want a failure status"; exit 1; } ;;
  *) [ $rc -eq "$want_rc" ] || { echo "run_ft: exit status $rc, want $want_rc"; exit 1; } ;;
esac
exit 0
