#!/bin/sh
# run_ft.sh EXPECT_OK_LINES EXPECT_RC -- command...
# Runs an FT test job and checks its outcome: at least EXPECT_OK_LINES lines
# ending in ": ok", no line with FAILED or "check failed", and the launcher's
# exit status: "zero" or "nonzero" (a failure never recovered, spec section 7).
want_ok=$1; want_rc=$2; shift 3
out=$("$@" 2>&1); rc=$?
printf '%s\n' "$out"
ok=$(printf '%s\n' "$out" | grep -c ': ok$')
if printf '%s\n' "$out" | grep -q 'FAILED\|check failed'; then echo "run_ft: a check failed"; exit 1; fi
if [ "$ok" -lt "$want_ok" ]; then echo "run_ft: $ok ranks reported ok, want $want_ok"; exit 1; fi
case $want_rc in
  zero) [ $rc -eq 0 ] || { echo "run_ft: exit status $rc, want 0"; exit 1; } ;;
  nonzero) [ $rc -ne 0 ] && [ $rc -ne 124 ] || { echo "run_ft: exit status $rc, want a failure status"; exit 1; } ;;
esac
exit 0
