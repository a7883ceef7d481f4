#!/bin/sh
# rt_options.sh FTMPIRUN: every bad command line of ftmpirun exits 2 with a
# message that names the problem, before anything is started
# (docs/runtime.md, "Options"). The job of each case would create a marker
# file: it must not exist afterwards. Cases not in rt_driver.sh's "options".
set -u
RUN=$1
W=$(mktemp -d "${TMPDIR:-/tmp}/rt-options.XXXXXX")
trap 'rm -rf "$W"' EXIT
MARK=$W/started
n=0

# bad MESSAGE_RE ARGS... : ftmpirun ARGS... sh -c 'touch MARK' must exit 2,
# print MESSAGE_RE on stderr and start nothing
bad() {
    re=$1; shift
    "$RUN" "$@" sh -c "touch '$MARK'" >"$W/out" 2>"$W/err"; rc=$?
    if [ $rc -ne 2 ]; then echo "FAIL: '$*' exited $rc, want 2"; cat "$W/err"; exit 1; fi
    if ! grep -Eq "^ftmpirun: .*$re" "$W/err"; then
        echo "FAIL: '$*': no message matching '$re'"; cat "$W/err"; exit 1
    fi
    if [ -e "$MARK" ]; then echo "FAIL: '$*' started the job"; exit 1; fi
    n=$((n + 1))
}

# --event-log: a file that cannot be written (docs/runtime.md: bad values exit 2)
bad "--event-log: cannot write '/nonexistent-dir/x/ev.log'" --event-log /nonexistent-dir/x/ev.log -np 2
bad "--event-log: cannot write '$W': Is a directory" --event-log "$W" -np 2
bad "--event-log needs a file name" --event-log= -np 2
# --monitor: an address and port that are one (docs/tools.md)
bad "bad --monitor '': empty" --monitor= -np 2
bad "bad --monitor '127.0.0.1:99999': '99999' is not a port" --monitor=127.0.0.1:99999 -np 2
bad "bad --monitor 'nowhere:80': 'nowhere' is not an IPv4 address" --monitor=nowhere:80 -np 2
bad "bad --monitor '1.2.3.4:x': 'x' is not a port" --monitor=1.2.3.4:x -np 2
# numbers
bad "bad process count '3x'" -np 3x
bad "bad process count '99999999999999999999'" -np 99999999999999999999
bad "bad process count '70000'" -np 70000
bad "bad --timeout 'nan'" --timeout nan
bad "bad --timeout 'inf'" --timeout inf
bad "bad --timeout '0'" --timeout 0
bad "'nan' is not a number of seconds" --kill 1@nan -np 2
bad "'-1' is not a number of seconds" --kill 1@-1 -np 2
bad "'x' is not a rank" --kill x@1 -np 2
bad "'abc' is not an integer" --kill-at iter=abc@1 -np 2
bad "rank 5 does not exist" --kill-at iter@5 -np 2
bad "bad --ring-bytes '65' \\(a power of two" --ring-bytes 65
bad "bad --ring-bytes '2147483648'" --ring-bytes 2147483648
bad "--hosts: bad slot count in 'h1:0'" --hosts h1:0 --launch-agent "{cmd}"
bad "--hosts: bad slot count in 'h1:x'" --hosts h1:x --launch-agent "{cmd}"
# heartbeats, spare hosts, hostfiles
bad "bad --heartbeat-interval '0'" --heartbeat-interval 0
bad "bad --heartbeat-timeout 'x'" --heartbeat-timeout x
bad "--heartbeat-timeout 0.2 must be longer than --heartbeat-interval 0.5" --heartbeat-interval 0.5 --heartbeat-timeout 0.2
bad "bad --spare-hosts '-1'" --spare-hosts -1
bad "--spare-hosts 2: only 2 host\\(s\\)" --spare-hosts 2 --hosts a,b --launch-agent "{cmd}"
bad "cannot read hostfile '/nonexistent/hf'" --hostfile /nonexistent/hf
printf 'h1 slots=0\n' >"$W/hf1"
bad "hostfile $W/hf1, line 1: bad count \\(1..65536\\) in 'slots=0'" --hostfile "$W/hf1"
printf '# c\nh1 slots=2\nh2 sockets=2\n' >"$W/hf2"
bad "hostfile $W/hf2, line 3: unknown keyword in 'sockets=2'" --hostfile "$W/hf2"
printf 'h1 h2\n' >"$W/hf3"
bad "hostfile $W/hf3, line 1: unexpected word 'h2'" --hostfile "$W/hf3"
printf '# only a comment\n\n' >"$W/hf4"
bad "hostfile $W/hf4 names no host" --hostfile "$W/hf4"
# modes, the = form included
bad "invalid comm mode 'rebuilt'" --comm-mode=rebuilt
bad "invalid comm mode ''" --comm-mode=
bad "invalid --with-ft value 'mpich'" --with-ft mpich
bad "invalid recovery mode 'never'" --recovery never
bad "invalid message mode 'x'" --msg-mode x
bad "invalid recovery mode 'sometimes'" \
    -x FOO=1 --np 1 --oversubscribe --tag-output --verbose --coll-mode atomic \
    --msg-mode cont --comm-mode abort --timeout 5 --ring-bytes 4096 --recovery-mode=sometimes
export FTMPI_RECOVERY_MODE=sometimes
bad "invalid value 'sometimes' in environment variable FTMPI_RECOVERY_MODE" -np 1
unset FTMPI_RECOVERY_MODE
# values that are empty or not allowed
bad "--launch-agent needs a command template" --launch-agent= -np 1
bad "--ftmpid needs a path" --ftmpid= -np 1
bad "-x '1A=b': bad variable name" -x 1A=b
bad "option '--tag-output' takes no value" --tag-output=yes
bad "option '--verbose' takes no value" --verbose=1
bad "unknown option '--event-logs'" --event-logs x
echo "PASS [options_values]: $n bad command lines, each exit 2 with its message"
