#!/usr/bin/env python3
"""tools.monitor_ctl: ftmpirun --monitor and ftmpi-ctl against a running CG
job (docs/tools.md). Checks, while the job runs:
  - 403 without the token, with a wrong one, with a truncated one;
  - 400 for malformed requests (garbage, bad version, no Host, a body, an
    8 KiB+ head, a NUL byte, a bad %-escape), 404, 405; the job goes on;
  - CPU and memory of every rank from its daemon, also of rank 3 while
    it is stopped (SIGSTOP: it cannot report itself): state letter T, CPU
    0, more samples; it goes on after SIGCONT;
  - ftmpi-ctl list / ranks / events --no-follow / kill RANK / stop, with
    the kill a real SIGKILL that the runtime detects and recovers from
    (REBUILD: the rank comes back with incarnation 1);
  - a subscriber (events, following) sees everything up to job_end;
  - stop ends the job with status 143 and removes its registration.
usage: monitor_ctl.py BINDIR CTL"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import montest as mt  # noqa: E402


ctl = mt.ctl


def main():
    bindir, ctl_path = sys.argv[1], sys.argv[2]
    rt = tempfile.mkdtemp(prefix="ftmpi-montest-")
    os.chmod(rt, 0o700)
    job = mt.Job(bindir, 4, ["--comm-mode=rebuild", "--heartbeat-timeout", "60"],
                 mt.cg_args(100000), rt)
    try:
        run(job, ctl_path)
    finally:
        job.kill()
    print("PASS")


def stopped(job, ctl_path, jobid):
    """Rank 3 stopped: its daemon goes on sampling it."""
    deadline = time.time() + mt.BOUND
    while not all("cpu_pct" in r and r["rss_kib"] > 0 for r in job.state()["ranks"]):
        if time.time() > deadline:
            mt.fail("not every rank shows CPU and memory: %s" % job.state()["ranks"])
        time.sleep(0.2)
    r3 = job.state()["ranks"][3]
    os.kill(r3["pid"], signal.SIGSTOP)
    try:
        while True:
            r = job.state()["ranks"][3]
            if (r.get("proc_state") == "T" and r["usage_samples"] >= r3["usage_samples"] + 2
                    and r.get("cpu_pct") == 0 and r["rss_kib"] > 0):
                break
            if time.time() > deadline:
                mt.fail("stopped rank 3: %s (before: %s)" % (r, r3))
            time.sleep(0.2)
        out = ctl(ctl_path, job.env, jobid, "ranks")
        if not any(l.split()[:1] == ["3"] and l.split()[-1] == "T" for l in out.splitlines()):
            mt.fail("ftmpi-ctl ranks does not show rank 3 stopped:\n" + out)
    finally:
        os.kill(r3["pid"], signal.SIGCONT)
    while job.state()["ranks"][3].get("proc_state") == "T":
        if time.time() > deadline:
            mt.fail("rank 3 still stopped after SIGCONT")
        time.sleep(0.2)


def run(job, ctl_path):
    env = job.env
    # refused without the token
    for path, params, tok in (("/", "", False), ("/api/state", "", False),
                              ("/api/kill", "&rank=0", False)):
        st, _ = job.get(path, token=tok, params=params,
                        method="POST" if "kill" in path else "GET")
        if st != 403:
            mt.fail("%s without token: %d, wanted 403" % (path, st))
    for bad in ("0" * 32, job.token[:31], job.token + "0"):
        st, _ = job.get("/api/state", token=False, params="token=" + bad)
        if st != 403:
            mt.fail("wrong token %s: %d, wanted 403" % (bad, st))
    # malformed requests: 400, the job goes on
    bad_reqs = [
        b"GARBAGE\r\n\r\n",
        b"GET /api/state HTTP/2.0\r\nHost: x\r\n\r\n",
        b"GET /api/state HTTP/1.1\r\n\r\n",
        b"POST /api/stop?token=" + job.token.encode() +
        b" HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello",
        b"GET /?token=" + job.token.encode() + b" HTTP/1.1\r\nHost: x\r\n" +
        b"X-Pad: " + b"a" * 9000 + b"\r\n\r\n",
        b"GET /a\x00b HTTP/1.1\r\nHost: x\r\n",
        b"GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET api HTTP/1.1\r\nHost: x\r\n\r\n",
    ]
    for req in bad_reqs:
        r = job.raw(req)
        if not r.startswith(b"HTTP/1.1 400 "):
            mt.fail("malformed request %r answered %r" % (req[:40], r[:60]))
    st, _ = job.get("/nothing")
    if st != 404:
        mt.fail("/nothing: %d, wanted 404" % st)
    st, _ = job.get("/api/stop")
    if st != 405:
        mt.fail("GET /api/stop: %d, wanted 405" % st)
    st, page = job.get("/")
    if st != 200 or "EventSource" not in page:
        mt.fail("the page: %d" % st)
    if "http://" in page or "https://" in page:
        mt.fail("the page loads something from elsewhere")
    s = job.state()
    if s["phase"] != "running" or len(s["ranks"]) != 4:
        mt.fail("state after the bad requests: %s" % s)

    # ftmpi-ctl list and ranks
    out = ctl(ctl_path, env, "list")
    if s["jobid"] not in out or job.url not in out:
        mt.fail("list does not show the job:\n" + out)
    job.wait_event(lambda e: e["event"] == "proc_start" and e["rank"] == 3,
                   "every rank started")
    out = ctl(ctl_path, env, s["jobid"], "ranks")
    if out.count("running") < 4:
        mt.fail("ranks does not show 4 running ranks:\n" + out)
    stopped(job, ctl_path, s["jobid"])
    # bad uses
    ctl(ctl_path, env, s["jobid"], "kill", "9", code=1)
    ctl(ctl_path, env, s["jobid"], "kill", code=2)
    ctl(ctl_path, env, "no-such-job", "ranks", code=1)
    ctl(ctl_path, env, s["jobid"], "frobnicate", code=2)

    # a follower, from now to the end
    follow = subprocess.Popen([sys.executable, ctl_path, job.url, "events"],
                              env=env, stdout=subprocess.PIPE, text=True)
    try:
        # kill rank 1 through the console: a real SIGKILL, recovered
        out = ctl(ctl_path, env, job.url, "kill", "1")
        if "killed rank 1" not in out:
            mt.fail("kill output: " + out)
        evs = job.wait_event(lambda e: e["event"] == "recovery_end" and
                             1 in e.get("failed", []), "recovery of rank 1")
        if not any(e["event"] == "kill" and e["rank"] == 1 and
                   e["reason"] == "monitor" for e in evs):
            mt.fail("no kill event with reason monitor")
        if not any(e["event"] == "proc_failed" and e["rank"] == 1 and
                   e["signal"] == 9 for e in evs):
            mt.fail("no proc_failed for rank 1 by SIGKILL")
        s = job.state()
        r1 = s["ranks"][1]
        if r1["incarnation"] != 1 or r1["state"] not in ("running",
                                                         "joining"):
            mt.fail("rank 1 after the kill: %s" % r1)
        out = ctl(ctl_path, env, job.url, "events", "--no-follow")
        if '"reason":"monitor"' not in out or '"recovery_end"' not in out:
            mt.fail("events --no-follow misses the kill or the recovery")
        # a second kill through the page's endpoint, rank 2
        st, body = job.get("/api/kill", method="POST", params="&rank=2")
        if st != 200 or json.loads(body)["killed"] != 2:
            mt.fail("POST /api/kill rank 2: %d %s" % (st, body))
        job.wait_event(lambda e: e["event"] == "recovery_end" and
                       2 in e.get("failed", []), "recovery of rank 2")
        # stop
        reg = [f for f in os.listdir(job.rtdir) if f.endswith(".json")]
        if len(reg) != 1:
            mt.fail("registry: %s" % reg)
        out = ctl(ctl_path, env, job.url, "stop")
        code = job.wait_exit()
        if code != 143:
            mt.fail("stopped job exit %d, wanted 143:\n%s" %
                    (code, open(job.err_path).read()))
        if any(f.endswith(".json") and f != "events.jsonl"
               for f in os.listdir(job.rtdir)):
            mt.fail("registration left behind: %s" % os.listdir(job.rtdir))
        fo, _ = follow.communicate(timeout=mt.BOUND)
    finally:
        if follow.poll() is None:
            follow.kill()
            follow.wait()
    lines = [json.loads(l) for l in fo.splitlines()]
    names = [e["event"] for e in lines]
    for want in ("kill", "proc_failed", "replaced", "recovery_end", "abort",
                 "job_end"):
        if want not in names:
            mt.fail("the follower missed %s: %s" % (want, names))
    if names[-1] != "job_end":
        mt.fail("the follower's last event is %s" % names[-1])
    # the event log holds what the monitor showed
    with open(job.ev) as f:
        logged = [json.loads(l)["event"] for l in f]
    if logged[-1] != "job_end" or logged.count("recovery_end") < 2:
        mt.fail("event log: %s" % logged)


if __name__ == "__main__":
    main()
