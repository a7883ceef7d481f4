#!/usr/bin/env python3
"""tools.monitor_browser: headless Chromium (Debian's `chromium`) loads the
monitor page during a CG run (REBUILD) in which ranks 1 and 2 are SIGKILLed
at fault points, and the DOM it renders must show both failures, both
recovery rounds and the two replacements (incarnation 1). Skipped (exit 77)
with a message where chromium is not installed. With FTMPI_MON_SCREENSHOT
set to a .png path it also saves a screenshot there (docs/tools.md).
usage: monitor_browser.py BINDIR"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import montest as mt  # noqa: E402


def chromium(args, profile, timeout):
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu",
           "--disable-dev-shm-usage", "--no-first-run",
           "--user-data-dir=" + profile] + args
    return subprocess.run(cmd, capture_output=True, text=True,
                          timeout=timeout)


def main():
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
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
        # --timeout: the DOM as it stands after 20 s of real time (the
        # page's event stream stays open, so the load never "ends")
        r = chromium(["--timeout=20000", "--dump-dom", job.url],
                     os.path.join(rt, "prof"),
                     mt.BOUND * 3)
        dom = r.stdout
        if r.returncode != 0 or "<html" not in dom:
            mt.fail("chromium --dump-dom: exit %d\n%s" % (r.returncode,
                                                          r.stderr[-2000:]))
        with open(os.path.join(rt, "dom.html"), "w") as f:
            f.write(dom)
        check(dom)
        if 'id="conn">live' not in dom:
            mt.fail("the page's event stream was not live")
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
    failed = re.findall(r'data-event="proc_failed">[^<]*"rank":(\d)', dom)
    if sorted(failed) != ["1", "2"]:
        mt.fail("the page shows failures of %s, wanted ranks 1 and 2" %
                failed)
    rounds = re.findall(r'<tr class="round"><td>(\d+)</td><td>([\d, ]*)</td>',
                        dom)
    if [f for _, f in rounds] != ["1", "2"]:
        mt.fail("the page's recovery rounds: %s" % rounds)
    for rank in (1, 2):
        m = re.search(r'<tr id="rank-%d"><td>%d</td><td>[^<]*</td>'
                      r'<td class="st-(\w+)">[^<]*</td><td>\d+</td>'
                      r'<td>(\d+)</td>' % (rank, rank), dom)
        if not m or m.group(2) != "1" or m.group(1) not in ("running",
                                                            "joining"):
            mt.fail("rank %d's row: %s" % (rank, m and m.group(0)))
    if dom.count('data-event="kill"') != 2:
        mt.fail("the page does not show the two kills")


if __name__ == "__main__":
    main()
