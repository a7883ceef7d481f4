#!/bin/sh
# rt_security.sh FTMPIRUN RT_PROG RT_FUZZ: the job's secret and the control
# connections (docs/runtime.md, "Security").
#  - every rank gets the secret (rtc_job_secret) and it is in no process's
#    command line or environment (the detector is checked on a planted leak);
#  - a head: eight hostile clients (garbage, huge and truncated messages,
#    wrong or missing proofs) are each closed and logged, and a daemon with
#    the wrong secret is refused; the job then ends normally;
#  - a daemon: a hostile "head" for each case makes ftmpid exit 1 with the
#    reason, never crash.
set -u
RUN=$1
PROG=$2
FUZZ=$3
FTMPID=$(dirname "$RUN")/ftmpid
W=$(mktemp -d "${TMPDIR:-/tmp}/rt-sec.XXXXXX")
JOB=
cleanup() { [ -n "$JOB" ] && kill -KILL "$JOB" 2>/dev/null; rm -rf "$W"; }
trap cleanup EXIT
fail() { echo "FAIL [security]: $*"; for f in "$W"/*; do [ -f "$f" ] && { echo "--- $f"; head -c 3000 "$f"; }; done; exit 1; }
export FTMPI_HEAD_ADDRESS=127.0.0.1
H="--hosts localhost:2,h1:2"

# 1. the secret reaches every rank and leaks nowhere
# shellcheck disable=SC2086
"$RUN" --timeout 30 $H --launch-agent {cmd} -np 4 "$PROG" secret >"$W/out" 2>"$W/err" ||
    fail "secret job: exit $?"
[ "$(grep -c '^secret rank [0-3]: ok hosts 0 0 1 1$' "$W/out")" -eq 4 ] || fail "secret lines"
# shellcheck disable=SC2086
"$RUN" --timeout 30 $H --launch-agent {cmd} -np 4 "$PROG" secret 1 >"$W/out" 2>"$W/err" &&
    fail "a planted leak was not found"
grep -q "LEAKED" "$W/out" || fail "planted leak not reported"
"$FTMPID" --head 127.0.0.1:1 --host-id 1 --token x </dev/null >/dev/null 2>&1
[ $? -eq 2 ] || fail "ftmpid still accepts --token"

# 2. hostile clients against the head of a running job
# shellcheck disable=SC2086
"$RUN" --timeout 40 --hosts localhost:1,h1:1 --launch-agent "echo {cmd} >$W/agent; {cmd}" -np 2 \
    sh -c "while [ ! -e $W/go ]; do sleep 0.05; done" >"$W/out" 2>"$W/err" &
JOB=$!
i=0
while ! grep -q -- "--head" "$W/agent" 2>/dev/null && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
port=$(sed -n 's/.*--head 127.0.0.1:\([0-9]*\).*/\1/p' "$W/agent")
[ -n "$port" ] || fail "no head port"
"$FUZZ" client "127.0.0.1:$port" >"$W/fuzz" 2>&1 || fail "a hostile client was not closed"
echo wrong-secret | "$FTMPID" --head "127.0.0.1:$port" --host-id 1 >"$W/wrong" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "ftmpid with a wrong secret: exit $rc"
grep -q "lost the head: authentication failed" "$W/wrong" || fail "wrong-secret ftmpid message"
touch "$W/go"
wait $JOB; rc=$?; JOB=
[ $rc -eq 0 ] || fail "the job did not survive the hostile clients: exit $rc"
n=$(grep -c "^ftmpirun: refused a connection from 127.0.0.1:" "$W/err")
[ "$n" -eq 9 ] || fail "expected 9 refused connections logged, got $n"
for why in "message of 2880154539 bytes before authenticating" \
           "message of 2147483647 bytes before authenticating" \
           "closed in the middle of a message" "unexpected message (type 501, 16 bytes)" \
           "unexpected message (type 301, 12 bytes) instead of a nonce" \
           "unexpected message (type 301, 12 bytes) instead of a proof" \
           "authentication failed" "connection closed before authenticating"; do
    grep -qF "$why" "$W/err" || fail "no refusal saying '$why'"
done

# 3. a hostile head against ftmpid
for c in garbage huge truncated shortnonce hellofirst wrongproof; do
    "$FUZZ" server "$c" >"$W/port" 2>"$W/srv" &
    srv=$!
    i=0
    while [ ! -s "$W/port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
    echo secret | timeout 20 "$FTMPID" --head "127.0.0.1:$(cat "$W/port")" --host-id 1 >"$W/d" 2>&1
    rc=$?
    wait $srv || fail "case $c: ftmpid did not close the connection"
    [ $rc -eq 1 ] || fail "case $c: ftmpid exit $rc"
    grep -q "^ftmpid: host 1: lost the head: " "$W/d" || fail "case $c: no reason given"
    : >"$W/port"
done
echo "PASS [security]"
