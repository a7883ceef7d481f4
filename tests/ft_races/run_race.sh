#!/bin/sh
# run_race.sh EXPECT_OK_LINES zero|nonzero [REGEX] -- command...
# Runs one race scenario and checks its outcome: at least EXPECT_OK_LINES
# lines ending in ": ok", no "check failed" or FAILED line, the launcher's
# exit status (zero, or non-zero other than 124: a hang caught by
# --timeout is always a failure), and REGEX (grep -E) somewhere in the output.
want_ok=$1; want_rc=$2; shift 2
want_re=
if [ "$1" != "--" ]; then want_re=$1; shift; fi
shift
out=$("$@" 2>&1); rc=$?
printf '%s\n' "$out"
[ $rc -eq 124 ] && { echo "run_race: timed out (a hang)"; exit 1; }
if printf '%s\n' "$out" | grep -q 'FAILED\|check failed'; then echo "run_race: a check failed"; exit 1; fi
ok=$(printf '%s\n' "$out" | grep -c ': ok$')
[ "$ok" -ge "$want_ok" ] || { echo "run_race: $ok ranks reported ok, want $want_ok"; exit 1; }
case $want_rc in
  zero) [ $rc -eq 0 ] || { echo "run_race: exit status $rc, want 0"; exit 1; } ;;
  nonzero) [ $rc -ne 0 ] || { echo "run_race: exit status 0, want a failure status"; exit 1; } ;;
esac
if [ -n "$want_re" ] && ! printf '%s\n' "$out" | grep -Eq "$want_re"; then
  echo "run_race: no line matches '$want_re'"; exit 1
fi
exit 0
