#!/usr/bin/env python3
"""tools.monitor_browser: headless Chromium (Debian's `chromium`) loads the
monitor page during a CG run (REBUILD) in which ranks 1 and 2 are SIGKILLed
at fault points, and the DOM it renders must show both failures, both
recovery rounds and the two replacements (incarnation 1). The test drives
the browser through the DevTools protocol (over --remote-debugging-pipe)
and reads the live DOM until it shows all of that or a bound passes, so a
slow machine waits longer instead of failing on a fixed delay. Skipped
(exit 77) with a message where chromium is not installed. With
FTMPI_MON_SCREENSHOT set to a .png path it also saves a screenshot there
(docs/tools.md).
usage: monitor_browser.py BINDIR"""
import fcntl
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import montest as mt  # noqa: E402


CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu",
                  "--disable-dev-shm-usage", "--no-first-run"]


def chromium_exe():
    return shutil.which("chromium") or shutil.which("chromium-browser")


def chromium(args, profile, timeout):
    cmd = [chromium_exe()] + CHROMIUM_FLAGS + \
        ["--user-data-dir=" + profile] + args
    return subprocess.run(cmd, capture_output=True, text=True,
                          timeout=timeout)


class Browser:
    """Headless Chromium driven through the DevTools protocol: JSON
    messages ended by a NUL byte, written to the browser's fd 3 and read
    from its fd 4 (--remote-debugging-pipe)."""

    def __init__(self, profile):
        to_child, self.wr = os.pipe()
        self.rd, from_child = os.pipe()

        def fds():  # (in the child, before subprocess closes other fds)
            t = fcntl.fcntl(to_child, fcntl.F_DUPFD, 10)
            f = fcntl.fcntl(from_child, fcntl.F_DUPFD, 10)
            os.dup2(t, 3)
            os.dup2(f, 4)
        self.p = subprocess.Popen(
            [chromium_exe()] + CHROMIUM_FLAGS +
            ["--user-data-dir=" + profile, "--remote-debugging-pipe",
             "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=fds, pass_fds=(3, 4))
        os.close(to_child)
        os.close(from_child)
        self.buf = b""
        self.next_id = 0
        self.session = None

    def call(self, method, params=None, timeout=mt.BOUND):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if self.session:
            msg["sessionId"] = self.session
        os.write(self.wr, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + timeout
        while True:
            while b"\0" in self.buf:
                raw, _, self.buf = self.buf.partition(b"\0")
                reply = json.loads(raw)
                if reply.get("id") == self.next_id:
                    if "error" in reply:
                        mt.fail("DevTools %s: %s" % (method, reply["error"]))
                    return reply["result"]
            if time.time() > deadline or self.p.poll() is not None:
                mt.fail("DevTools %s: no answer from chromium" % method)
            r, _, _ = select.select([self.rd], [], [], 1.0)
            if r:
                chunk = os.read(self.rd, 1 << 20)
                if not chunk:
                    mt.fail("DevTools %s: chromium closed the pipe" % method)
                self.buf += chunk

    def open(self, url):
        target = self.call("Target.createTarget", {"url": url})["targetId"]
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target,
                                  "flatten": True})["sessionId"]

    def dom(self):
        r = self.call("Runtime.evaluate",
                      {"expression": "document.documentElement.outerHTML",
                       "returnByValue": True})
        return r.get("result", {}).get("value") or ""

    def close(self):
        self.p.kill()
        self.p.wait()
        os.close(self.wr)
        os.close(self.rd)


def main():
    if not chromium_exe():
        print("SKIP: chromium is not installed (apt-get install chromium); "
              "the browser test of the monitor needs it")
        sys.exit(77)
    bindir = sys.argv[1]
    rt = tempfile.mkdtemp(prefix="ftmpi-monbrowser-")
    os.chmod(rt, 0o700)
    job = mt.Job(bindir, 4, ["--comm-mode=rebuild", "--kill-at", "iter=12@1",
                             "--kill-at", "iter=30@2"],
                 mt.cg_args(600000), rt, timeout=590)
    try:
        job.wait_event(lambda e: e["event"] == "recovery_end" and
                       2 in e.get("failed", []), "the second recovery")
        # the page's event stream stays open, so its load never "ends":
        # read the live DOM until it shows everything, within a bound
        browser = Browser(os.path.join(rt, "prof"))
        try:
            browser.open(job.url)
            deadline = time.time() + mt.BOUND * 2
            while True:
                dom = browser.dom()
                why = check(dom)
                if why is None or time.time() > deadline:
                    break
                time.sleep(0.5)
        finally:
            browser.close()
        with open(os.path.join(rt, "dom.html"), "w") as f:
            f.write(dom)
        if why:
            mt.fail(why + " (DOM in %s)" % os.path.join(rt, "dom.html"))
        shot = os.environ.get("FTMPI_MON_SCREENSHOT")
        if shot:
            # the rendered DOM, without its script (a live page's open
            # event stream keeps a screenshot waiting), as a picture
            static = os.path.join(rt, "static.html")
            with open(static, "w") as f:
                f.write(re.sub(r"(?s)<script>.*?</script>", "", dom))
            r = chromium(["--virtual-time-budget=2000",
                          "--screenshot=" + shot, "--window-size=1100,900",
                          "file://" + static], os.path.join(rt, "prof2"),
                         mt.BOUND * 3)
            if not os.path.exists(shot):
                mt.fail("no screenshot: %s" % r.stderr[-2000:])
        if job.p.poll() is None:  # (a slow machine may have let it end)
            st, _ = job.get("/api/stop", method="POST")
            if st != 200 or job.wait_exit() != 143:
                mt.fail("stop did not end the job with 143")
    finally:
        job.kill()
    print("PASS")


def check(dom):
    """None when the page shows what it must; otherwise what is missing."""
    if 'id="conn">live' not in dom:
        return "the page's event stream was not live"
    failed = re.findall(r'data-event="proc_failed">[^<]*"rank":(\d)', dom)
    if sorted(failed) != ["1", "2"]:
        return "the page shows failures of %s, wanted ranks 1 and 2" % failed
    rounds = re.findall(r'<tr class="round"><td>(\d+)</td><td>([\d, ]*)</td>',
                        dom)
    if [f for _, f in rounds] != ["1", "2"]:
        return "the page's recovery rounds: %s" % rounds
    for rank in (1, 2):
        m = re.search(r'<tr id="rank-%d"><td>%d</td><td>[^<]*</td>'
                      r'<td class="st-(\w+)">[^<]*</td><td>\d+</td>'
                      r'<td>(\d+)</td>' % (rank, rank), dom)
        if not m or m.group(2) != "1" or m.group(1) not in ("running",
                                                            "joining"):
            return "rank %d's row: %s" % (rank, m and m.group(0))
    if dom.count('data-event="kill"') != 2:
        return "the page does not show the two kills"
    return None


if __name__ == "__main__":
    main()
