#!/usr/bin/env python3
"""Run a command on a pseudo-terminal, type one line and ^D, print what the
terminal showed and the exit status. Used by rt_driver.sh (stdin test)."""
import os
import pty
import select
import sys
import time

pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
time.sleep(0.5)
os.write(fd, b"typed line\n")
time.sleep(0.3)
os.write(fd, b"\x04")
out = b""
end = time.time() + 10
while time.time() < end:
    r, _, _ = select.select([fd], [], [], 0.2)
    if r:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        out += data
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace").replace("\r", ""))
print("status", os.waitstatus_to_exitcode(status))
