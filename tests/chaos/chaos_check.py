"""chaos_check.py - reading answers and classifying trials (docs/chaos.md).

Classes: ok, wrong-answer, hang, error-exit, documented-exit.
  ok               exit 0 and the failure-free answer
  wrong-answer     an answer that differs from the failure-free one, a check of a
                   test program that failed, or exit 0 where a failure must show
  hang             ran past 10x the failure-free time (stacks saved by gdb)
  documented-exit  a non-zero exit the docs promise, with its message:
                   - "unrecoverable" (status 3): more ranks of a checkpoint group
                     killed than it has checksum ranks (only when the scenario did that)
                   - "the master (launch rank 0) failed": master-worker master killed
                     (results printed before are a subset, none twice)
                   - "not recovered": a failure the job could not recover because it was
                     ending (REBUILD: the launcher replaced nobody for it; other modes:
                     the answer was already complete and right)
                   - "killed after MPI_Finalize": the answer is complete and right, and
                     every process that ended by a signal or a non-zero code had
                     finalized (runtime.md: not a failure, but the status says it)
                   - ft_modes under --recovery=none (the failure stays unrecovered)
  error-exit       any other non-zero exit, or processes left behind
"""
import json
import re

CLASSES = ["ok", "wrong-answer", "hang", "error-exit", "documented-exit"]
FAILING = ("wrong-answer", "hang", "error-exit")


# ------------------------------------------------------------------ answers

def json_report(stdout):
    for line in reversed(stdout.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                continue
    return None


def answer(check, stdout, rc):
    """The answer a run printed: a hashable value, or None when there is none."""
    if check.startswith("json:"):
        rep = json_report(stdout)
        if rep is None:
            return None
        return (rep.get(check[5:]), rep.get("converged"))
    if check == "sorted-lines":
        return tuple(sorted(l for l in stdout.splitlines() if l.strip()))
    if check == "exit0":
        return rc == 0
    raise ValueError("unknown check " + check)


def compare(check, got, ref, out):
    """'match', 'partial' (lines: a subset without duplicates), 'missing' or 'differs'."""
    if check == "exit0":
        if re.search(r"FAILED|check failed", out):
            return "differs"
        return "match" if got else "missing"
    if got is None or got == ():
        return "missing"
    if got == ref:
        return "match"
    if check == "sorted-lines":
        if len(set(got)) == len(got) and set(got) <= set(ref):
            return "partial"
    return "differs"


# ------------------------------------------------------------------ signatures

_FRAME = re.compile(r"^#\d+\s+(?:0x[0-9a-f]+ in )?([A-Za-z_][\w.:<>~]*)\s*\(")


def main_thread_frames(bt):
    """Function names of the main thread's stack (innermost first)."""
    blocks = re.split(r"\n(?=Thread \d+ )", "\n" + bt)
    main = None
    for b in blocks:
        if b.startswith("Thread 1 "):
            main = b
    if main is None:
        main = bt
    names = []
    for line in main.splitlines():
        m = _FRAME.match(line.strip())
        if m:
            # an inlined MPI entry shows as its implementation with fname="MPI_X"
            api = re.search(r'fname=[^,]*"(MPI_\w+)"', line)
            names.append(api.group(1) if api else m.group(1))
    return names


def _is_mpi(n):
    return n.startswith("MPI_") or n.startswith("PMPI_")


def stack_key(names):
    """Where a rank is blocked: the innermost MPI call, the function that made
    it, and the MPI calls further out (a recovery callback runs inside the
    recovering MPI_Comm_dup): "MPI_Waitall<cg_matrix_plan in MPI_Comm_dup"."""
    short = [n[1:] if n.startswith("PMPI_") else n for n in names]
    for i, n in enumerate(short):
        if _is_mpi(n):
            caller = next((m for m in short[i + 1:] if not _is_mpi(m)), None)
            outer = []
            for m in short[i + 1:]:
                if _is_mpi(m) and m != n and m not in outer:
                    outer.append(m)
            return n + ("<" + caller if caller else "") + (
                " in " + ",".join(outer) if outer else "")
    for n in names:
        if not (n.startswith("_") or n in ("poll", "ppoll", "epoll_wait", "nanosleep",
                                            "clock_nanosleep", "syscall", "usleep", "sleep",
                                            "read", "write", "futex_wait", "pthread_cond_wait")):
            return n
    return "?"


def hang_signature(backtraces):
    keys = sorted(set(stack_key(main_thread_frames(bt)) for bt in backtraces.values()))
    return "hang: " + " | ".join(keys) if keys else "hang: no rank left to trace"


def _norm(line):
    line = re.sub(r"0x[0-9a-fA-F]+", "H", line)
    line = re.sub(r"\b[0-9a-f]{16}\b", "H", line)
    line = re.sub(r"\d+(\.\d+)?", "N", line)
    return line.strip()[:160]


_ERR = re.compile(r"error|fail|unrecoverable|abort|cannot|not recovered|timed out|killed",
                  re.I)


def error_signature(rc, stdout, stderr):
    lines = [l for l in (stderr + "\n" + stdout).splitlines() if l.strip()]
    app = [l for l in lines if not l.startswith("ftmpirun:") and _ERR.search(l)
           and not l.startswith("ftmpi: MPI_Abort called")]
    own = [l for l in lines if l.startswith("ftmpirun:")]
    pick = app[-1] if app else (own[0] if own else (lines[-1] if lines else "(no output)"))
    return "exit %s: %s" % (rc, _norm(pick))


# ------------------------------------------------------------------ classification

def unreplaced_failure(events):
    """A failed process the launcher did not replace (REBUILD: the job was ending)."""
    replaced = {(e.get("rank"), e.get("incarnation")) for e in events
                if e.get("event") == "replaced"}
    return any((e.get("rank"), e.get("incarnation")) not in replaced
               for e in events if e.get("event") == "proc_failed")


def refused_round(events):
    """A recovery the head refused because processes were finalizing (runtime.md,
    "Refused rounds"): the replacement that asked for it gets MPI_ERR_OTHER from
    its recovering call and may end the job first (its own exit status)."""
    return any(e.get("event") == "recovery_refused" and e.get("reason") == "finalizing"
               for e in events)


def killed_after_finalize(events):
    """A process ended badly after it had finalized (runtime.md: not a failure, but
    the exit status says it), and every other that ended badly before finalizing
    was recovered by a later round."""
    late, unrecovered = False, False
    for i, e in enumerate(events):
        if e.get("event") != "proc_exit" or not (e.get("signal") or e.get("exit_code")):
            continue
        if e.get("finalized"):
            late = True
        elif not any(f.get("event") == "recovery_end" and e.get("rank") in f.get("failed", [])
                     for f in events[i + 1:]):
            unrecovered = True
    return late and not unrecovered


def classify(cfg, kills, ref, res):
    """(class, detail): detail is the failure signature, or why it passed."""
    out = res.stdout + "\n" + res.stderr
    if res.hung or res.rc == 124:
        return "hang", hang_signature(res.backtraces)
    check = cfg.w.check
    got = answer(check, res.stdout, res.rc)
    how = compare(check, got, ref.answer, out)
    if res.rc == 0:
        if res.leftover:
            return "error-exit", "exit 0 but %d process(es) left behind" % res.leftover
        if cfg.expect_fail:
            return "wrong-answer", "exit 0 where the failure must stay unrecovered"
        if how == "match":
            return "ok", "same answer"
        return "wrong-answer", "exit 0, answer %s" % how
    if how == "differs":
        return "wrong-answer", "exit %s, answer differs" % res.rc
    if res.leftover:
        return "error-exit", "exit %s and %d process(es) left behind" % (res.rc, res.leftover)
    if cfg.expect_fail and res.rc != 124:
        return "documented-exit", "recovery none: failure not recovered"
    if (check.startswith("json:") and res.rc == 3 and "unrecoverable" in out
            and kills.may_exceed):
        return "documented-exit", "unrecoverable: more failures than checksum ranks"
    if kills.master and "the master (launch rank 0) failed" in out and how != "differs":
        return "documented-exit", "master lost"
    if how == "match" and killed_after_finalize(res.events):
        return "documented-exit", "killed after MPI_Finalize"
    if "not recovered" in res.stderr and (
            how == "match" or (cfg.mode == "rebuild" and (unreplaced_failure(res.events)
                                                          or refused_round(res.events)))):
        return "documented-exit", "failure not recovered: the job was ending"
    return "error-exit", error_signature(res.rc, res.stdout, res.stderr)
