"""Shared helpers of the monitor tests: start a CG job (or `prog`) under
`ftmpirun --monitor`, read its URL, talk HTTP, wait for events. Every wait
has a bound; a job left behind is killed."""
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse

BOUND = 90.0  # seconds any single wait may take (the machine may be loaded)

# ctest's timeout sends SIGTERM: end through the `finally` that kills the job
signal.signal(signal.SIGTERM, lambda signo, frame: sys.exit(1))


def fail(msg):
    print("FAIL: " + msg, flush=True)
    sys.exit(1)


class Job:
    def __init__(self, bindir, np, extra, cg_args, rtdir, timeout=240,
                 prog=None):
        self.rtdir = rtdir
        self.ev = os.path.join(rtdir, "events.jsonl")
        env = dict(os.environ, FTMPI_RUNTIME_DIR=rtdir)
        self.env = env
        cmd = [os.path.join(bindir, "ftmpirun"), "--timeout", str(timeout),
               "--monitor", "--event-log", self.ev] + extra + \
              ["-np", str(np), prog or os.path.join(bindir, "cg")] + cg_args
        self.err_path = os.path.join(rtdir, "ftmpirun.err")
        self.errf = open(self.err_path, "w+")
        self.p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                                  stderr=self.errf, env=env,
                                  start_new_session=True)
        self.url = None
        t0 = time.time()
        while time.time() - t0 < BOUND and self.url is None:
            with open(self.err_path) as f:
                m = re.search(r"monitor at (http://\S+)", f.read())
            if m:
                self.url = m.group(1)
            elif self.p.poll() is not None:
                fail("ftmpirun ended before printing the monitor URL:\n" +
                     open(self.err_path).read())
            else:
                time.sleep(0.05)
        if not self.url:
            self.kill()
            fail("no monitor URL printed")
        u = urllib.parse.urlsplit(self.url)
        self.host, self.port = u.hostname, u.port
        self.token = urllib.parse.parse_qs(u.query)["token"][0]

    def raw(self, data, timeout=30):
        """Send bytes, return the whole response (the server closes or we
        stop after the first response's body)."""
        s = socket.create_connection((self.host, self.port), timeout=timeout)
        s.sendall(data)
        buf = b""
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                buf += chunk
                head, sep, body = buf.partition(b"\r\n\r\n")
                m = re.search(rb"Content-Length: (\d+)", head)
                if sep and m and len(body) >= int(m.group(1)):
                    break
        finally:
            s.close()
        return buf

    def get(self, path, token=True, method="GET", params=""):
        q = ("?token=" + self.token if token else "?") + params
        req = "%s %s%s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % (
            method, path, q)
        r = self.raw(req.encode())
        status = int(r.split(b" ", 2)[1]) if r.startswith(b"HTTP/1.1 ") else 0
        return status, r.partition(b"\r\n\r\n")[2].decode(errors="replace")

    def state(self):
        st, body = self.get("/api/state")
        if st != 200:
            fail("/api/state answered %d: %s" % (st, body))
        return json.loads(body)

    def events(self):
        st, body = self.get("/api/log")
        if st != 200:
            fail("/api/log answered %d" % st)
        return [json.loads(l) for l in body.splitlines() if l.strip()]

    def wait_event(self, pred, what):
        t0 = time.time()
        while time.time() - t0 < BOUND:
            if self.p.poll() is not None:
                fail("the job ended while waiting for %s:\n%s" %
                     (what, open(self.err_path).read()))
            evs = self.events()
            if any(pred(e) for e in evs):
                return evs
            time.sleep(0.2)
        fail("no %s within %g s" % (what, BOUND))

    def wait_exit(self):
        try:
            return self.p.wait(timeout=BOUND * 2)
        except subprocess.TimeoutExpired:
            self.kill()
            fail("the job did not end")

    def kill(self):
        if self.p.poll() is None:
            os.killpg(self.p.pid, signal.SIGKILL)
            self.p.wait()


def ctl(ctl_path, env, *args, code=0):
    """Run ftmpi-ctl; its output, after checking its exit status."""
    r = subprocess.run([sys.executable, ctl_path] + list(args), env=env,
                       capture_output=True, text=True, timeout=BOUND)
    if r.returncode != code:
        fail("ftmpi-ctl %s: exit %d (wanted %d)\n%s%s" % (
            " ".join(args), r.returncode, code, r.stdout, r.stderr))
    return r.stdout + r.stderr


def cg_args(delay_us):
    """A CG that keeps running long enough (the delay paces iterations)."""
    return ["--n", "16", "--tol", "1e-300", "--max-iter", "100000",
            "--delay-us", str(delay_us), "--ckpt-interval", "20",
            "--checksums", "1"]
