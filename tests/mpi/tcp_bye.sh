#!/usr/bin/env bash
# tcp_bye.sh MPIRUN PROGRAM [RUNS]: run PROGRAM (tcp_bye.c: a burst both
# ways, then MPI_Finalize at once) RUNS times (default 4) with 2 ranks over
# TCP, the reliability layer on and off in turn. Fails if a run fails or a
# rank printed a line about a TCP connection: at MPI_Finalize a connection
# ends with both goodbyes (BYE) and a graceful close, never with "closing
# the connection ... Connection reset by peer" or a connection made again
# to a finalized rank ("Connection refused"; docs/network.md, "Errors").
set -u
run=$1 prog=$2 runs=${3:-4}
out=$(mktemp "${TMPDIR:-/tmp}/ftmpi-bye.XXXXXX")
trap 'rm -f "$out"' EXIT
fail=0
for i in $(seq 1 "$runs"); do
    rel=on; [ $((i % 2)) = 0 ] && rel=off
    FTMPI_TRANSPORT=tcp "$run" --timeout 60 --reliability=$rel -np 2 "$prog" >"$out" 2>&1
    rc=$?
    if [ $rc != 0 ]; then
        cat "$out"; echo "tcp_bye: run $i (layer $rel) failed ($rc)"; fail=1
    fi
    if grep -E "ftmpi: tcp:|Connection refused|Connection reset" "$out"; then
        echo "tcp_bye: run $i (layer $rel): a connection was reported at MPI_Finalize"; fail=1
    fi
done
[ $fail = 0 ] && echo "tcp_bye: $runs runs, no connection reported"
exit $fail
