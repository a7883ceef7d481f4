#!/usr/bin/env python3
"""tools.monitor_views: the monitor's COMINFO view and message matrix
(docs/tools.md) on mon_comms (REBUILD, 4 ranks), which waits at points this
test releases through files, so that every state below is seen for certain:
  1. every rank reports MPI_COMM_WORLD (size 4, mode rebuild, generation 0,
     ok), MPI_COMM_SELF, mon_dup (4) and mon_half (2); the matrix holds the
     ring: rank r sent >= 5 messages and >= 500000 bytes to r+1, and less
     than 50000 bytes to any other rank (collectives); CPU and memory from every rank;
     `ftmpi-ctl comms 0` and `ftmpi-ctl matrix [--bytes]` print them;
  2. rank 2 is killed (SIGKILL through the monitor): the survivors'
     MPI_COMM_WORLD and mon_dup show state detected and failed member 2
     (world 2); rank 2 itself shows no communicators while it is failed;
     `ftmpi-ctl comms 1` prints the failed member;
  3. after the recovery: MPI_COMM_WORLD generation >= 1, ok, no failed
     member, the destroyed mon_half gone and mon_half2 there, on every rank,
     the replacement (incarnation 1) included; its matrix row is its own
     (>= 5 messages to rank 3);
  4. bad uses of comms and matrix: exit 2 (usage) and 1 (no such rank).
Where Debian's chromium is installed, at step 2 the page rendered by
headless Chromium must show the failed member in its communicator table
and the ring in its matrix (said and left out where it is not); with
FTMPI_MON_VIEWS_SCREENSHOT=FILE.png it also saves a picture of that page.
usage: monitor_views.py BINDIR CTL MON_COMMS"""
import os
import re
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import montest as mt  # noqa: E402
from monitor_browser import chromium  # noqa: E402

NP = 4


def wait_state(job, pred, what):
    """The first state for which pred holds (polled, bounded)."""
    t0 = time.time()
    last = None
    while time.time() - t0 < mt.BOUND:
        if job.p.poll() is not None:
            mt.fail("the job ended while waiting for %s:\n%s" %
                    (what, open(job.err_path).read()))
        last = job.state()
        if pred(last):
            return last
        time.sleep(0.2)
    mt.fail("no %s within %g s; last state:\n%s" % (what, mt.BOUND, last))


def wait_file(job, path, what):
    t0 = time.time()
    while not os.path.exists(path):
        if job.p.poll() is not None or time.time() - t0 > mt.BOUND:
            mt.fail("no %s:\n%s" % (what, open(job.err_path).read()))
        time.sleep(0.1)


def comm(rank, name):
    for c in rank.get("comms", []):
        if c["name"] == name:
            return c
    return None


def phase1(s):
    for r in s["ranks"]:
        w, d, h = comm(r, "MPI_COMM_WORLD"), comm(r, "mon_dup"), comm(r, "mon_half")
        if not (w and d and h and comm(r, "MPI_COMM_SELF")):
            return False
        if (w["size"], w["rank"], w["generation"], w["state"], w["failed"]) != \
                (NP, r["rank"], 0, "ok", []) or r["comm_mode"] != "rebuild":
            mt.fail("rank %d's MPI_COMM_WORLD: %s" % (r["rank"], w))
        if d["size"] != NP or h["size"] != 2:
            mt.fail("rank %d: mon_dup %s, mon_half %s" % (r["rank"], d, h))
    m = s["matrix"]
    for r in range(NP):
        row_m, row_b = m["msgs"][r], m["bytes"][r]
        if row_m is None or row_m[(r + 1) % NP] < 5:
            return False
        if row_b[(r + 1) % NP] < 5 * 100000:
            mt.fail("rank %d sent %s bytes to %d" % (r, row_b, (r + 1) % NP))
        for c in range(NP):
            if c != (r + 1) % NP and row_b[c] >= 50000:
                mt.fail("rank %d sent %d bytes to %d (collectives only)" %
                        (r, row_b[c], c))
    return all("rss_kib" in r and r["rss_kib"] > 0 for r in s["ranks"])


def failed_seen(s):
    if s["ranks"][2]["state"] == "failed" and "comms" in s["ranks"][2]:
        mt.fail("failed rank 2 still shows communicators")
    for r in (0, 1, 3):
        w = comm(s["ranks"][r], "MPI_COMM_WORLD")
        d = comm(s["ranks"][r], "mon_dup")
        if not w or not d:
            return False
        want = [{"rank": 2, "world": 2, "remote": False}]
        if w["failed"] != want or d["failed"] != want or w["state"] != "detected":
            return False
    return True


def recovered(s):
    for r in s["ranks"]:
        w = comm(r, "MPI_COMM_WORLD")
        if not w or w["generation"] < 1 or w["state"] != "ok" or w["failed"]:
            return False
        if comm(r, "mon_half") or not comm(r, "mon_half2"):
            return False
    rep = s["ranks"][2]
    row = s["matrix"]["msgs"][2]
    return rep["incarnation"] == 1 and row is not None and row[3] >= 5


def browser_check(job, rt):
    """The page, as headless Chromium renders it after the kill."""
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        print("2b: chromium is not installed: the page's views are not "
              "checked in a browser", flush=True)
        return
    # a loaded machine can keep the page from connecting within the dump's
    # timeout: tried again, up to three times
    for attempt in range(3):
        r = chromium(["--timeout=20000", "--dump-dom", job.url],
                     os.path.join(rt, "prof%d" % attempt), mt.BOUND * 3)
        dom = r.stdout
        if r.returncode != 0 or "<html" not in dom:
            mt.fail("chromium --dump-dom: exit %d\n%s" % (r.returncode,
                                                          r.stderr[-2000:]))
        if 'id="conn">live' in dom:
            break
        print("2b: the page was not live yet (attempt %d)" % (attempt + 1),
              flush=True)
    with open(os.path.join(rt, "dom.html"), "w") as f:
        f.write(dom)
    comms = re.search(r'(?s)<table id="comms">.*?</table>', dom)
    matrix = re.search(r'(?s)<table id="matrix">.*?</table>', dom)
    if not comms or '<td class="cs-detected">detected</td><td>2 (2)</td>' \
            not in comms.group(0):
        mt.fail("the page's communicator table lacks the failed member:\n%s"
                % (comms.group(0) if comms else dom[-3000:]))
    # The ring's 5 messages (collectives add none when they run through the
    # shared-memory component, as Comm_split's allgather does).
    if not matrix or not re.search(r"<td[^>]*>([5-9]|\d{2,})</td>", matrix.group(0)):
        mt.fail("the page's matrix is empty:\n%s" % dom[-3000:])
    shot = os.environ.get("FTMPI_MON_VIEWS_SCREENSHOT")
    if shot:
        static = os.path.join(rt, "static.html")
        with open(static, "w") as f:
            f.write(re.sub(r"(?s)<script>.*?</script>", "", dom))
        chromium(["--virtual-time-budget=2000", "--screenshot=" + shot,
                  "--window-size=1100,1300", "file://" + static],
                 os.path.join(rt, "prof2"), mt.BOUND * 3)
        if not os.path.exists(shot):
            mt.fail("no screenshot")
    print("2b: the page shows the failed member and the matrix", flush=True)


def main():
    bindir, ctl_path, prog = sys.argv[1], sys.argv[2], sys.argv[3]
    rt = tempfile.mkdtemp(prefix="ftmpi-monviews-")
    print("files in " + rt, flush=True)
    os.chmod(rt, 0o700)
    job = mt.Job(bindir, NP, ["--comm-mode=rebuild"], [rt], rt, prog=prog)
    env = job.env
    try:
        wait_file(job, os.path.join(rt, "ready"), "ready file from rank 0")
        s = wait_state(job, phase1, "every rank's communicators and the ring")
        out = mt.ctl(ctl_path, env, "comms", "0")
        for want in ("mode rebuild", "MPI_COMM_WORLD", "mon_dup", "mon_half"):
            if want not in out:
                mt.fail("ftmpi-ctl comms 0 lacks %r:\n%s" % (want, out))
        out = mt.ctl(ctl_path, env, "matrix", "--bytes")
        rows = [l.split() for l in out.splitlines()[2:]]
        if len(rows) != NP or int(rows[0][2]) != s["matrix"]["bytes"][0][1]:
            mt.fail("ftmpi-ctl matrix --bytes:\n%s" % out)
        mt.ctl(ctl_path, env, "matrix")
        print("1: communicators and matrix seen, rank 0 sent %s bytes"
              % s["matrix"]["bytes"][0], flush=True)

        st, body = job.get("/api/kill", method="POST", params="&rank=2")
        if st != 200:
            mt.fail("kill 2: %d %s" % (st, body))
        wait_state(job, failed_seen, "failed member 2 on the survivors")
        out = mt.ctl(ctl_path, env, "comms", "1")
        if "detected" not in out or "2(w2)" not in out:
            mt.fail("ftmpi-ctl comms 1 after the kill:\n%s" % out)
        print("2: the survivors show rank 2 failed", flush=True)
        browser_check(job, rt)

        open(os.path.join(rt, "recover"), "w").close()
        wait_file(job, os.path.join(rt, "recovered"), "recovered file")
        wait_state(job, recovered, "the recovered communicators")
        print("3: generation 1 on every rank, the replacement included",
              flush=True)

        mt.ctl(ctl_path, env, "comms", code=2)
        mt.ctl(ctl_path, env, "comms", "x", code=2)
        mt.ctl(ctl_path, env, "matrix", "--what", code=2)
        out = mt.ctl(ctl_path, env, "comms", "9", code=1)
        if "does not exist" not in out:
            mt.fail("comms 9: %s" % out)
        open(os.path.join(rt, "end"), "w").close()
        rc = job.wait_exit()
        if rc != 0:
            mt.fail("the job ended with %d:\n%s" % (rc, open(job.err_path).read()))
    finally:
        job.kill()
    print("PASS")


if __name__ == "__main__":
    main()
