#!/usr/bin/env bash
# tcp_outsider.sh MPIRUN PROGRAM: run PROGRAM (tcp_outsider.c) with 2 ranks
# over TCP; once they are connected, connect to each rank's listening
# socket as an outsider: (1) 96 bytes of garbage, (2) a HELLO with a
# random nonce and then an AUTH with a wrong proof (96-byte handshake
# messages: 32 bytes of fields, a 32-byte nonce, a 32-byte proof), (3) half a HELLO and a
# close. Passes only if the job completes intact and the ranks logged the
# refusals (docs/network.md, "Security" and "Errors").
set -u
run=$1 prog=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/ftmpi-outsider.XXXXXX")
trap 'rm -rf "$dir"' EXIT
FTMPI_TRANSPORT=tcp "$run" --timeout 60 -np 2 "$prog" "$dir/done" >"$dir/out" 2>&1 &
job=$!
for _ in $(seq 1 300); do grep -q "outsider: ready" "$dir/out" && break; sleep 0.1; done
grep -q "outsider: ready" "$dir/out" || { cat "$dir/out"; echo "tcp_outsider: the job never got ready"; kill $job; exit 1; }
pids=$(pgrep -d, -f "$prog $dir/done" || true)
ports=$(ss -Htlnp 2>/dev/null | awk -v p="$pids" 'BEGIN{n=split(p,a,",");for(i=1;i<=n;i++)want["pid=" a[i] ","]=1}
  {for (k in want) if (index($0, k)) { sub(/.*:/, "", $4); print $4 }}' | sort -u)
[ -n "$ports" ] || { echo "tcp_outsider: no listening port found"; touch "$dir/done"; wait $job; exit 1; }
python3 - $ports <<'PY'
import os, socket, struct, sys, time
for port in map(int, sys.argv[1:]):
    # (1) garbage
    s = socket.create_connection(("127.0.0.1", port)); s.sendall(os.urandom(96)); time.sleep(0.2); s.close()
    # (2) a HELLO to ranks 0 and 1 (one of them is this port's), then a wrong AUTH
    for to in (0, 1):
        s = socket.create_connection(("127.0.0.1", port))
        hello = struct.pack("<IIiiIIII", 0x48544d46, 1, 1 - to, to, 0, 0, 0, 0) + os.urandom(32) + bytes(32)
        s.sendall(hello)
        s.settimeout(2)
        try:
            chal = s.recv(96, socket.MSG_WAITALL)
        except OSError:
            chal = b""
        if len(chal) == 96:
            auth = struct.pack("<IIiiIIII", 0x48544d46, 3, 1 - to, to, 0, 0, 0, 0) + bytes(32) + os.urandom(32)
            s.sendall(auth)
            time.sleep(0.2)
        s.close()
    # (3) half a HELLO, then gone
    s = socket.create_connection(("127.0.0.1", port)); s.sendall(b"FMTH" + bytes(20)); s.close()
PY
touch "$dir/done"
wait $job; rc=$?
cat "$dir/out"
[ $rc = 0 ] || { echo "tcp_outsider: the job failed ($rc)"; exit 1; }
grep -q "not an ftmpi connection" "$dir/out" || { echo "tcp_outsider: garbage was not logged"; exit 1; }
grep -q "authentication failed" "$dir/out" || { echo "tcp_outsider: the wrong key was not refused"; exit 1; }
echo "tcp_outsider: passed"
