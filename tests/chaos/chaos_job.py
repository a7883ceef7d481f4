"""chaos_job.py - run one mpirun job for the chaos campaign (docs/chaos.md).

A job runs in its own session (process group), with a marker variable in its
environment that every rank inherits. If it runs past its hang limit, every
rank's stacks are saved with gdb before the job is killed. At the end, any
process still carrying the marker is killed and counted as left behind.
"""
import json
import os
import signal
import subprocess
import time

MARK = "CHAOS_MARK"


class JobResult:
    def __init__(self):
        self.rc = None          # exit status (negative: killed by that signal)
        self.wall = 0.0         # seconds
        self.hung = False       # ran past the hang limit
        self.stdout = ""
        self.stderr = ""
        self.backtraces = {}    # "rank R inc I pid P" -> gdb output
        self.leftover = 0       # processes of the job found alive after it ended
        self.events = []        # the job's --event-log, parsed


def _environ(pid):
    try:
        with open("/proc/%d/environ" % pid, "rb") as f:
            raw = f.read()
    except OSError:
        return None
    env = {}
    for item in raw.split(b"\0"):
        k, sep, v = item.partition(b"=")
        if sep:
            env[k.decode(errors="replace")] = v.decode(errors="replace")
    return env


def _ppid(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            s = f.read()
        return int(s[s.rindex(")") + 2:].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def _pids():
    for d in os.listdir("/proc"):
        if d.isdigit():
            yield int(d)


def _session(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            s = f.read()
        return int(s[s.rindex(")") + 2:].split()[3])
    except (OSError, ValueError, IndexError):
        return None


def marked_pids(mark, sid=None):
    """Processes whose environment carries this job's marker, or (sid given)
    that still belong to the job's session.

    The session catches a process whose environment cannot be read at the
    moment of the scan (a child between fork and exec, under load)."""
    me = os.getpid()
    out = []
    for pid in _pids():
        if pid == me:
            continue
        env = _environ(pid)
        if (env and env.get(MARK) == mark) or (sid is not None and _session(pid) == sid):
            out.append(pid)
    return out


def children(pid):
    return [p for p in _pids() if _ppid(p) == pid]


def _rank_label(pid):
    env = _environ(pid) or {}
    return "rank %s inc %s pid %d" % (env.get("FTMPI_RANK", "?"),
                                      env.get("FTMPI_INCARNATION", "?"), pid)


def backtrace(pid, timeout=60):
    try:
        r = subprocess.run(["gdb", "-p", str(pid), "-batch", "-nx",
                            "-ex", "set pagination off",
                            "-ex", "thread apply all bt"],
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout)
        return r.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return "gdb timed out after %d s\n" % timeout
    except OSError as e:
        return "gdb could not run: %s\n" % e


def _kill_group(pid):
    try:
        os.killpg(os.getpgid(pid), signal.SIGKILL)
    except OSError:
        pass
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass


def sweep_leftovers(mark, sid=None):
    """Kill what is left of a job (by marker or session), wait for it to go;
    return the count.

    Ranks die with their launcher (PR_SET_PDEATHSIG), which takes a moment:
    what still lives after a second is left behind. The job counts as empty
    only after two scans 50 ms apart find nothing."""
    deadline = time.monotonic() + 1
    empty = 0
    while empty < 2 and time.monotonic() < deadline:
        empty = empty + 1 if not marked_pids(mark, sid) else 0
        time.sleep(0.05)
    left = marked_pids(mark, sid)
    for pid in left:
        _kill_group(pid)
    deadline = time.monotonic() + 5
    while marked_pids(mark, sid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return len(left)


def read_events(path):
    ev = []
    try:
        with open(path) as f:
            for line in f:
                try:
                    ev.append(json.loads(line))
                except ValueError:
                    pass
    except OSError:
        pass
    return ev


def _wait(p, res, hang_s, t0, logdir):
    """Wait for the job; past hang_s, save every rank's stacks and kill it."""
    try:
        res.rc = p.wait(timeout=hang_s)
        res.wall = time.monotonic() - t0
        return
    except subprocess.TimeoutExpired:
        pass
    res.wall = time.monotonic() - t0
    res.hung = True
    ranks = children(p.pid)   # every rank is a child of mpirun (replacements too)
    for pid in ranks:
        label = _rank_label(pid)
        bt = backtrace(pid)
        res.backtraces[label] = bt
        with open(os.path.join(logdir, "bt.%s.txt" % label.replace(" ", "_")), "w") as f:
            f.write(bt)
    _kill_group(p.pid)
    for pid in ranks:
        _kill_group(pid)
    try:
        res.rc = p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        res.rc = None


def run(argv, env_extra, hang_s, logdir, mark):
    """Run argv (an mpirun command); hang_s: seconds after which it is a hang."""
    os.makedirs(logdir, exist_ok=True)
    env = dict(os.environ)
    env.update(env_extra)
    env[MARK] = mark
    res = JobResult()
    out_p = os.path.join(logdir, "stdout")
    err_p = os.path.join(logdir, "stderr")
    t0 = time.monotonic()
    with open(out_p, "wb") as out, open(err_p, "wb") as err:
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                             env=env, start_new_session=True)
        try:
            _wait(p, res, hang_s, t0, logdir)
        except BaseException:
            # interrupted (SIGINT/SIGTERM), even while gdb runs: take the job down too
            _kill_group(p.pid)
            for pid in marked_pids(mark):
                _kill_group(pid)
            p.wait()
            sweep_leftovers(mark, p.pid)
            raise
    res.leftover = sweep_leftovers(mark, p.pid)
    with open(out_p, "rb") as f:
        res.stdout = f.read().decode(errors="replace")
    with open(err_p, "rb") as f:
        res.stderr = f.read().decode(errors="replace")
    res.events = read_events(os.path.join(logdir, "events.jsonl"))
    return res
