#!/usr/bin/env python3
"""tools.report: ftmpi-report draws a CG run (REBUILD, 4 ranks, rank 1
SIGKILLed at iteration 25) from its event log and --json report, as PNG and
as SVG; the SVG must show the kill, the failure, the replacement, the
recovery round and the checkpoints (legend entries appear only for events
that are there). Bad input: exit 2 with a message.
usage: report_test.py BINDIR REPORT"""
import json
import os
import subprocess
import sys
import tempfile

BOUND = 300


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    bindir, report = sys.argv[1], sys.argv[2]
    d = tempfile.mkdtemp(prefix="ftmpi-report-")
    ev = os.path.join(d, "ev.jsonl")
    out = subprocess.run(
        [os.path.join(bindir, "ftmpirun"), "--timeout", "200",
         "--comm-mode=rebuild", "--event-log", ev, "--kill-at", "iter=25@1",
         "-np", "4", os.path.join(bindir, "cg"), "--n", "16",
         "--checksums", "1", "--ckpt-interval", "10", "--event-log", ev,
         "--json"], capture_output=True, text=True, timeout=BOUND)
    if out.returncode != 0:
        fail("cg run: exit %d\n%s" % (out.returncode, out.stderr))
    cgj = os.path.join(d, "cg.json")
    with open(cgj, "w") as f:
        f.write(out.stdout)
    evs = [json.loads(l) for l in open(ev)]
    if not any(e["event"] == "checkpoint" for e in evs):
        fail("no checkpoint events in the log")
    for ext in ("png", "svg"):
        o = os.path.join(d, "run." + ext)
        r = subprocess.run([report, ev, "--json", cgj, "-o", o],
                           capture_output=True, text=True, timeout=BOUND)
        if r.returncode != 0 or not os.path.exists(o):
            fail("ftmpi-report -o %s: exit %d\n%s" % (o, r.returncode,
                                                      r.stderr))
    if open(os.path.join(d, "run.png"), "rb").read(8) != b"\x89PNG\r\n\x1a\n":
        fail("run.png is not a PNG")
    svg = open(os.path.join(d, "run.svg")).read()
    for want in ("kill (SIGKILL)", "failure confirmed by the head",
                 "replacement started", "recovery round", "gen 1",
                 "checkpoint", "detection", "data restore", "rank(s) 1"):
        if want not in svg:
            fail("the SVG lacks '%s'" % want)
    # bad input
    bad = os.path.join(d, "bad.jsonl")
    with open(bad, "w") as f:
        f.write('{"t":0,"event":"launch","np":1}\nnot json\n')
    for args, msg in (([bad, "-o", os.path.join(d, "x.png")], "bad.jsonl:2"),
                      ([os.path.join(d, "none"), "-o", os.path.join(d,
                                                                    "x.png")],
                       "cannot read"),
                      ([ev, "-o", os.path.join(d, "x.gif")], ".svg or .png"),
                      ([ev, "--json", ev, "-o", os.path.join(d, "x.png")],
                       "no JSON report")):
        r = subprocess.run([report] + args, capture_output=True, text=True,
                           timeout=BOUND)
        if r.returncode != 2 or msg not in r.stderr:
            fail("ftmpi-report %s: exit %d, %r" % (args, r.returncode,
                                                   r.stderr))
    print("PASS")


if __name__ == "__main__":
    main()
