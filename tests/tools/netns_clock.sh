#!/bin/bash
# netns_clock.sh FTMPIRUN CG TRACE_TOOL: clock offsets for ftmpi-trace merge
# on 2 namespace hosts (tests/netns/netns.sh), the second one's
# CLOCK_MONOTONIC 5000 s ahead (a time namespace, timens_agent.sh). A traced
# CG (4 ranks, 2 per host): every trace file must hold the offset its
# process measured against the head (0 on host 0, -5000 s on host 1, within
# the error it states, < 10 ms); with host 1's wall-clock readings then made
# an hour wrong in its files, ftmpi-trace merge --event-log must still put
# every event inside the job and every rank's MPI_Init end and MPI_Finalize
# start within 2 s of the others'. Skipped (77) where namespaces or time
# namespaces cannot be made.
set -u
RUN=$1
CG=$2
TOOL=$3
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../netns/netns.sh"
netns_test clock 2
unshare --fork --time --monotonic 1 true 2>/dev/null || netns_skip "no time namespaces"

agent="$NETNS_DIR/netns_agent.sh {host} $HERE/timens_agent.sh {host} ${NETNS_HOST[1]} 5000 {cmd}"
netns_run 0 "$RUN" --timeout 60 --hosts "$(netns_hostlist 2)" --launch-agent "$agent" \
    --trace "$W/tr" --event-log "$W/ev.jsonl" -np 4 "$CG" --n 16 --checksums 1 \
    >"$W/job.out" 2>"$W/job.err" || netns_fail "the traced run exited $?"
python3 - "$W" "${NETNS_HOST[1]}" "$TOOL" <<'PY' || netns_fail "clock checks"
import glob, json, re, subprocess, sys
w, shifted, tool = sys.argv[1:4]
def clock(path):
    for line in open(path):
        if '"ftmpi_clock"' in line:
            return json.loads(line.rstrip().rstrip(","))["args"]
files = sorted(glob.glob(w + "/tr/rank*.json"))
assert len(files) == 4, files
for f in files:
    c = clock(f)
    want = -5000e6 if c["host"] == shifted else 0.0
    err = abs(c["head_offset_us"] - want)
    print("%s: host %s offset %.1f us (error bound %.1f)" % (
        f.split("/")[-1], c["host"], c["head_offset_us"], c["head_offset_err_us"]))
    if err > c["head_offset_err_us"] + 1000 or c["head_offset_err_us"] > 10000:
        sys.exit("%s: offset %.1f us, wanted %.1f" % (f, c["head_offset_us"], want))
    if c["host"] == shifted:  # a wall clock an hour wrong must not matter
        text, n = re.subn(r'("realtime_us":)([0-9.]+)',
                          lambda m: m.group(1) + "%.3f" % (float(m.group(2)) + 3.6e9),
                          open(f).read(), count=1)
        assert n == 1, f
        open(f, "w").write(text)
m = subprocess.run([tool, "merge", w + "/tr", "--event-log", w + "/ev.jsonl"],
                   capture_output=True, text=True, timeout=60)
if m.returncode:
    sys.exit("merge: " + m.stderr)
evs = json.loads(m.stdout)["traceEvents"]
log = [json.loads(l) for l in open(w + "/ev.jsonl")]
end = next(e["t"] for e in log if e["event"] == "job_end") * 1e6
ts = [e["ts"] for e in evs if "ts" in e]
if min(ts) < 0 or max(ts) > end:
    sys.exit("events outside the job: %.0f..%.0f us, job 0..%.0f" % (min(ts), max(ts), end))
inits = [e["ts"] + e["dur"] for e in evs if e["name"] == "MPI_Init"]
fins = [e["ts"] for e in evs if e["name"] == "MPI_Finalize"]
if len(inits) != 4 or len(fins) != 4:
    sys.exit("MPI_Init %d, MPI_Finalize %d" % (len(inits), len(fins)))
for what, v in (("MPI_Init ends", inits), ("MPI_Finalize starts", fins)):
    if max(v) - min(v) > 2e6:
        sys.exit("%s spread over %.0f us" % (what, max(v) - min(v)))
print("merged: %d events within the job's %.1f s" % (len(evs), end / 1e6))
PY
echo "PASS [clock]: host 1's clock 5000 s ahead measured and aligned"
