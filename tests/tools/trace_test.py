#!/usr/bin/env python3
"""tools.trace: `ftmpirun --trace DIR` on a CG run (REBUILD, 4 ranks) in
which rank 1 is SIGKILLed at iteration 15, then `ftmpi-trace merge`:
  - the merged file is JSON and every event passes a schema check (name,
    ph in X/i/M/C, integer pid and tid, ts >= 0 and dur >= 0 where due,
    a counter's args numbers);
  - inside each survivor: the failure of rank 1 detected, then a recovery
    (complete event, generation >= 1, ok) and a restore (the recovery
    callbacks) after it; rank 0's checkpoints (epoch, seconds); every
    process's message counters (msgs_sent, bytes_sent per destination),
    never decreasing, rank 0's to rank 1 > 0;
  - five processes traced (4 + the replacement), each with MPI_Init, and
    the runtime's kill, failure and recovery as events;
  - each process's measured offset to the head's clock is 0 within its
    error bound (one host);
  - every MPI_Allreduce that succeeded names the algorithm the library ran
    (args.alg, forced to "ring" with -x FTMPI_COLL_ALLREDUCE=ring);
  - the killed process's own file is cut (no closing "]"), has no
    MPI_Finalize, and its last call ends before the head saw the failure;
    the replacement's file ends with MPI_Finalize.
usage: trace_test.py BINDIR TRACE_TOOL"""
import glob
import json
import os
import subprocess
import sys
import tempfile

BOUND = 300


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def schema(e, i):
    if not isinstance(e, dict) or not isinstance(e.get("name"), str):
        fail("event %d: no name: %s" % (i, e))
    if e.get("ph") not in ("X", "i", "M", "C"):
        fail("event %d: ph %r" % (i, e.get("ph")))
    for k in ("pid", "tid"):
        if not isinstance(e.get(k), int):
            fail("event %d: %s is not an integer: %s" % (i, k, e))
    if e["ph"] != "M" and not (isinstance(e.get("ts"), (int, float)) and
                               e["ts"] >= 0):
        fail("event %d: bad ts: %s" % (i, e))
    if e["ph"] == "X" and not (isinstance(e.get("dur"), (int, float)) and
                               e["dur"] >= 0):
        fail("event %d: bad dur: %s" % (i, e))
    if "args" in e and not isinstance(e["args"], dict):
        fail("event %d: args is not an object" % i)
    if e["ph"] == "C" and not (e.get("args") and all(
            isinstance(v, (int, float)) for v in e["args"].values())):
        fail("event %d: a counter without numbers: %s" % (i, e))


def inside(evs):
    """The events the processes wrote about themselves: failures detected,
    recoveries, restores, checkpoints, counters."""
    for r in (0, 2, 3):
        mine = [e for e in evs if e["pid"] == r and e.get("cat") == "ft"]
        det = [e for e in mine if e["name"] == "failure" and e["args"].get("rank") == 1]
        rec = [e for e in mine if e["name"] == "recovery" and e["ph"] == "X"
               and e["args"].get("generation", 0) >= 1 and e["args"].get("ok") == 1]
        res = [e for e in mine if e["name"] == "restore" and e["ph"] == "X"]
        if not det or not rec or not res:
            fail("rank %d's own trace: failure of 1 %d, recoveries %d, restores %d"
                 % (r, len(det), len(rec), len(res)))
        if not det[0]["ts"] <= rec[0]["ts"] <= res[0]["ts"]:
            fail("rank %d: detection, recovery, restore out of order" % r)
    ck = [e for e in evs if e["pid"] == 0 and e["name"] == "checkpoint"
          and e.get("cat") == "ft"]
    if len(ck) < 2 or not all("epoch" in e["args"] and e["args"]["seconds"] >= 0
                              for e in ck):
        fail("rank 0's trace has %d checkpoints with epoch and seconds" % len(ck))
    for r in range(4):
        for what in ("msgs_sent", "bytes_sent"):
            cs = [e for e in evs if e["pid"] == r and e["name"] == what and e["ph"] == "C"]
            if not cs:
                fail("rank %d: no %s counter" % (r, what))
            # per process (its thread id; a replacement starts from zero)
            last = {}
            for e in cs:
                prev = last.get(e["tid"], {})
                if any(v < prev.get(k, 0) for k, v in e["args"].items()):
                    fail("rank %d: %s went down: %s after %s" % (r, what, e, prev))
                last[e["tid"]] = e["args"]
            if r == 0 and cs[-1]["args"].get("to 1", 0) <= 0:
                fail("rank 0 sent nothing to rank 1: %s" % cs[-1])
    return len(ck)


def main():
    bindir, tool = sys.argv[1], sys.argv[2]
    d = tempfile.mkdtemp(prefix="ftmpi-trace-")
    tdir, ev = os.path.join(d, "t"), os.path.join(d, "ev.jsonl")
    env = dict(os.environ)
    san = os.environ.get("FTMPI_SANITIZE_PRELOAD", "").rstrip(":")
    if san:  # the ASan job: its runtime first in the ranks' LD_PRELOAD
        env["LD_PRELOAD"] = san
    r = subprocess.run(
        [os.path.join(bindir, "ftmpirun"), "--timeout", "200",
         "--comm-mode=rebuild", "--event-log", ev, "--trace", tdir,
         "--kill-at", "iter=15@1", "-x", "FTMPI_COLL_ALLREDUCE=ring",
         "-np", "4", os.path.join(bindir, "cg"),
         "--n", "16", "--checksums", "1", "--ckpt-interval", "10"],
        capture_output=True, text=True, timeout=BOUND, env=env)
    if r.returncode != 0:
        fail("the traced run: exit %d\n%s" % (r.returncode, r.stderr))
    log = [json.loads(l) for l in open(ev)]
    kill = next(e for e in log if e["event"] == "kill")
    failed = next(e for e in log if e["event"] == "proc_failed")
    rep = next(e for e in log if e["event"] == "replaced")
    t0 = next(e for e in log if e["event"] == "launch")["monotonic_t0"]
    m = subprocess.run([tool, "merge", tdir, "--event-log", ev],
                       capture_output=True, text=True, timeout=BOUND)
    if m.returncode != 0:
        fail("ftmpi-trace merge: exit %d: %s" % (m.returncode, m.stderr))
    job = json.loads(m.stdout)
    evs = job["traceEvents"]
    for i, e in enumerate(evs):
        schema(e, i)
    # one host: every process measured its clock against the head's as equal
    clocks = [e["args"] for e in evs if e["name"] == "ftmpi_clock"]
    if len(clocks) != 5:
        fail("%d ftmpi_clock records, wanted 5" % len(clocks))
    for c in clocks:
        if abs(c["head_offset_us"]) > c["head_offset_err_us"] + 1000:
            fail("clock offset %s on one host" % c)
    inits = {e["tid"] for e in evs if e["name"] == "MPI_Init"}
    if len(inits) != 5:
        fail("MPI_Init of %d processes, wanted 5" % len(inits))
    names = {e["name"] for e in evs if e["pid"] == -1}
    for want in ("kill", "proc_failed", "replaced", "recovery_end",
                 "checkpoint"):
        if want not in names:
            fail("merged trace lacks the runtime event %s" % want)
    nck = inside(evs)
    if not any(e["name"] == "MPI_Allreduce" for e in evs):
        fail("no collective in the trace")
    # the algorithm the library chose (forced: -x FTMPI_COLL_ALLREDUCE=ring)
    algs = {e["args"].get("alg") for e in evs if e["name"] == "MPI_Allreduce"
            and e["args"].get("rc") == 0}
    if algs != {"ring"}:
        fail("MPI_Allreduce's algorithms in the trace: %s, wanted ring" % algs)
    # the killed process's own file
    kf = os.path.join(tdir, "rank1.pid%d.json" % kill["pid"])
    text = open(kf).read()
    if text.rstrip().endswith("]"):
        fail("the killed process's trace is closed: it did not die?")
    if "MPI_Finalize" in text:
        fail("the killed process's trace has MPI_Finalize")
    calls = [json.loads(l.rstrip().rstrip(",")) for l in text.splitlines()
             if l.startswith('{"name":"MPI_')]
    if len(calls) < 20:
        fail("the killed process's trace has only %d calls" % len(calls))
    every = [json.loads(l.rstrip().rstrip(",")) for l in text.splitlines()
             if l.startswith('{"name"') and l.rstrip().endswith("},")]
    last_end = max(c["ts"] + c.get("dur", 0) for c in every if "ts" in c) / 1e6
    if last_end > t0 + failed["t"]:
        fail("the killed trace goes on after the failure (%.6f > %.6f)"
             % (last_end, t0 + failed["t"]))
    rf = os.path.join(tdir, "rank1.pid%d.json" % rep["replaced_by"])
    rtext = open(rf).read()
    if not rtext.rstrip().endswith("]") or "MPI_Finalize" not in rtext:
        fail("the replacement's trace does not end with MPI_Finalize")
    # bad uses
    for args in (["merge", os.path.join(d, "none")], ["frob"]):
        b = subprocess.run([tool] + args, capture_output=True, text=True,
                           timeout=BOUND)
        if b.returncode != 2 or "ftmpi-trace:" not in b.stderr:
            fail("ftmpi-trace %s: exit %d" % (args, b.returncode))
    print("PASS: %d events (%d checkpoints in rank 0's), killed trace ends %.1f ms "
          "before the head saw the failure" % (len(evs), nck, 1e3 * (t0 + failed["t"] - last_end)))


if __name__ == "__main__":
    main()
