#!/usr/bin/python3
"""chaos_selftest.py - checks the chaos campaign's instrument itself (docs/chaos.md):
the classification of made-up results, the stack signature, and, with real
processes, a hung job (gdb stacks, killed, nothing left) and a job that leaves
a process behind.

    chaos_selftest.py --build BUILD_DIR
Exit 0 when every check holds.
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chaos_check as cc  # noqa: E402
import chaos_job  # noqa: E402
import chaos_workloads as cw  # noqa: E402

fails = 0


def check(cond, what):
    global fails
    if not cond:
        fails += 1
        print("chaos_selftest: FAILED: " + what)


class Res(chaos_job.JobResult):
    def __init__(self, rc, stdout="", stderr="", hung=False, leftover=0, events=()):
        super().__init__()
        self.rc, self.stdout, self.stderr, self.hung = rc, stdout, stderr, hung
        self.leftover, self.events = leftover, list(events)


class Ref:
    def __init__(self, answer):
        self.answer = answer


def cfg_of(name, mode="rebuild", expect_fail=False):
    c = cw.Config(cw.find(name), 8, mode, "reset", [], {})
    c.expect_fail = expect_fail
    return c


def kills(may_exceed=False, master=False):
    k = cw.Kills("test")
    k.may_exceed, k.master = may_exceed, master
    return k


def classification():
    cg = cfg_of("cg-rs")
    good = '{"solution_checksum": "d0b38c65d109528f", "converged": true}\n'
    bad = '{"solution_checksum": "d0b38c65d109528e", "converged": true}\n'
    ref = Ref(cc.answer("json:solution_checksum", good, 0))
    cases = [
        (cg, kills(), Res(0, good), "ok"),
        (cg, kills(), Res(0, bad), "wrong-answer"),
        (cg, kills(), Res(0, '{"solution_checksum": "d0b38c65d109528f", "converged": false}'),
         "wrong-answer"),
        (cg, kills(), Res(0, ""), "wrong-answer"),
        (cg, kills(), Res(1, bad), "wrong-answer"),
        (cg, kills(), Res(None, "", hung=True), "hang"),
        (cg, kills(), Res(124, ""), "hang"),
        (cg, kills(), Res(0, good, leftover=1), "error-exit"),
        (cg, kills(), Res(4, "", "cg: an MPI call failed and no process failure explains it\n"
                          "ftmpirun: rank 3 (pid 12, host vm) exited with code 4\n"), "error-exit"),
        (cg, kills(may_exceed=False), Res(3, "", "ftiter: unrecoverable failure\n"), "error-exit"),
        (cg, kills(may_exceed=True), Res(3, "", "ftiter: unrecoverable failure\n"),
         "documented-exit"),
        (cg, kills(), Res(137, "", "ftmpirun: rank 2 (pid 1, host vm) killed by signal 9 "
                          "(SIGKILL); not recovered\n",
                          events=[{"event": "proc_failed", "rank": 2, "incarnation": 0}]),
         "documented-exit"),
        (cg, kills(), Res(137, "", "ftmpirun: rank 2 killed by signal 9 (SIGKILL); not recovered\n",
                          events=[{"event": "proc_failed", "rank": 2, "incarnation": 0},
                                  {"event": "replaced", "rank": 2, "incarnation": 0}]),
         "error-exit"),
    ]
    sw = cfg_of("sweep", mode="shrink")
    lines = "0.1 1\n0.2 2\n0.3 3\n"
    sref = Ref(cc.answer("sorted-lines", lines, 0))
    master = "mw: the master (launch rank 0) failed; it is the single point of failure\n"
    cases += [
        (sw, kills(), Res(0, "0.3 3\n0.1 1\n0.2 2\n"), "ok"),
        (sw, kills(), Res(0, "0.1 1\n0.2 2\n"), "wrong-answer"),
        (sw, kills(), Res(0, lines + "0.2 2\n"), "wrong-answer"),
        (sw, kills(master=True), Res(1, "0.1 1\n", master), "documented-exit"),
        (sw, kills(master=True), Res(1, "0.1 1\n0.1 1\n", master), "wrong-answer"),
        (sw, kills(master=False), Res(1, "0.1 1\n", master), "error-exit"),
        (sw, kills(), Res(137, lines, "ftmpirun: rank 2 ...; not recovered\n"), "documented-exit"),
        (sw, kills(), Res(137, "0.1 1\n", "ftmpirun: rank 2 ...; not recovered\n"), "error-exit"),
        (sw, kills(), Res(137, lines, "ftmpirun: rank 3 (pid 1, host vm) killed by signal 9\n",
                          events=[{"event": "proc_exit", "rank": 3, "signal": 9,
                                   "finalized": True}]), "documented-exit"),
        (sw, kills(), Res(137, lines, "ftmpirun: rank 3 (pid 1, host vm) killed by signal 9\n",
                          events=[{"event": "proc_exit", "rank": 3, "signal": 9,
                                   "finalized": False}]), "error-exit"),
        (sw, kills(), Res(137, lines, "ftmpirun: rank 3 (pid 1, host vm) killed by signal 9\n",
                          events=[{"event": "proc_exit", "rank": 1, "signal": 9,
                                   "finalized": False},
                                  {"event": "recovery_end", "failed": [1]},
                                  {"event": "proc_exit", "rank": 3, "signal": 9,
                                   "finalized": True}]), "documented-exit"),
        (sw, kills(), Res(137, lines, "ftmpirun: rank 3 (pid 1, host vm) killed by signal 9\n",
                          events=[{"event": "recovery_end", "failed": [1]},
                                  {"event": "proc_exit", "rank": 1, "signal": 9,
                                   "finalized": False},
                                  {"event": "proc_exit", "rank": 3, "signal": 9,
                                   "finalized": True}]), "error-exit"),
    ]
    fi = cfg_of("ft_idiom", mode="shrink")
    none = cfg_of("ft_modes", mode="shrink", expect_fail=True)
    cases += [
        (fi, kills(), Res(0, "ft_idiom: size 4\n"), "ok"),
        (fi, kills(), Res(1, "", "ft_idiom: check failed: rank 1 iter 2: sum 3 != 4\n"),
         "wrong-answer"),
        (fi, kills(), Res(4, "", "boom\n"), "error-exit"),
        (none, kills(), Res(137, "ft_modes none rank 0: ok\n"), "documented-exit"),
        (none, kills(), Res(0, "ft_modes none rank 0: ok\n"), "wrong-answer"),
        (none, kills(), Res(1, "ft_modes none rank 0: FAILED\n"), "wrong-answer"),
    ]
    for i, (cfg, k, res, want) in enumerate(cases):
        r = sref if cfg.w.check == "sorted-lines" else (ref if cfg.w.check.startswith("json")
                                                         else Ref(True))
        got, detail = cc.classify(cfg, k, r, res)
        check(got == want, "case %d (%s): %s (%s), want %s" % (i, cfg.w.name, got, detail, want))
    sig = cc.error_signature(4, "", "cg: an MPI call failed and no process failure explains it\n"
                             "ftmpirun: rank 3 (pid 12, host vm) exited with code 4\n")
    check(sig == "exit 4: cg: an MPI call failed and no process failure explains it", sig)


BT = """Thread 2 (Thread 0x7f (LWP 2) "cg"):
#0  syscall () at syscall.S:38
#1  0x00007f in progress_thread (arg=0x0) at progress.c:10

Thread 1 (Thread 0x7e (LWP 1) "cg"):
#0  syscall () at syscall.S:38
#1  0x00007f60b1fcf24b in ft_futex_wait (timeout_ns=<optimized out>) at futex.h:40
#2  doorbell_sleep () at progress.c:96
#3  0x00007f3bac385a93 in PMPI_Waitall (count=4, reqs=0x1) at p2p_wait.c:224
#4  0x00005637a3666c61 in cg_matrix_plan (A=0x7ffd47265b18) at cg_matrix.c:200
#5  0x00005637a366a42a in ftiter_restore (sk=0x5637b5e73c90) at ftiter_recover.c:250
#6  0x00007f3bac3961c4 in attr_call_deletes (kind=KV_COMM) at attr.c:251
#7  0x00007f3bac3a1fd5 in ft_comm_dup (c=0x5637b5e738e0) at ft_comm.c:80
#8  0x00007f3bac3a1fd6 in PMPI_Comm_dup (comm=1, newcomm=0x2) at comm.c:80
#9  0x00007f3bac3a1fd7 in MPI_Comm_dup (comm=1, newcomm=0x2) at chaos_shim.c:60
#10 0x00005637a366a42b in ftiter_recover (sk=0x1) at ftiter_recover.c:287
#11 0x00005637a366a42c in main (argc=1, argv=0x2) at cg_main.c:50
"""


def signatures():
    names = cc.main_thread_frames(BT)
    check(names[0] == "syscall" and "progress_thread" not in names, "main thread: %s" % names)
    key = cc.stack_key(names)
    check(key == "MPI_Waitall<cg_matrix_plan in MPI_Comm_dup", "stack key: %s" % key)
    sig = cc.hang_signature({"a": BT, "b": BT})
    check(sig == "hang: MPI_Waitall<cg_matrix_plan in MPI_Comm_dup", "hang signature: %s" % sig)


def real_jobs(build):
    mpirun = os.path.join(build, "bin", "mpirun")
    with tempfile.TemporaryDirectory() as d:
        mark = "selftest-hang-%d" % os.getpid()
        res = chaos_job.run([mpirun, "--timeout", "60", "-np", "2", "sleep", "30"], {}, 1.5,
                            os.path.join(d, "hang"), mark)
        check(res.hung, "a job sleeping 30 s with a 1.5 s limit is not a hang")
        check(len(res.backtraces) == 2, "stacks of %d ranks, want 2" % len(res.backtraces))
        check(all("sleep" in bt for bt in res.backtraces.values()),
              "the stacks do not show sleep: %s" % list(res.backtraces.values())[:1])
        check(res.wall < 20, "the hung job took %.1f s to handle" % res.wall)
        check(not chaos_job.marked_pids(mark), "processes of the hung job survive")
        mark = "selftest-left-%d" % os.getpid()
        res = chaos_job.run(["/bin/sh", "-c", "sleep 30 </dev/null >/dev/null 2>&1 & exit 0"],
                            {}, 10, os.path.join(d, "left"), mark)
        check(res.rc == 0 and not res.hung, "the plain job: rc %s" % res.rc)
        check(res.leftover == 1, "left behind: %d, want 1" % res.leftover)
        check(not chaos_job.marked_pids(mark), "the process left behind was not killed")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    a = ap.parse_args()
    classification()
    signatures()
    real_jobs(os.path.abspath(a.build))
    print("chaos_selftest: %s" % ("%d check(s) failed" % fails if fails else "all checks passed"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
