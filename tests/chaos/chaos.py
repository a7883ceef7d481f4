#!/usr/bin/python3
"""chaos.py - the random-kill campaign (docs/chaos.md).

    chaos.sh [--build DIR] [--trials N] [--budget SECONDS] [--seed S] [--out DIR]
             [--workloads cg-rs,sweep,...] [--ci]
    chaos.sh --replay TRIAL_SEED [--ff-time T] [--repeat K]

Runs N trials; each is a scenario (workload, configuration, kills) drawn from
its own trial seed, printed and stored in the CSV, so that any trial can be
run again with --replay. Every answer is compared with a failure-free run of
the same configuration (run once per configuration and kept). A run longer
than --hang-factor times its failure-free time (at least --hang-floor
seconds) is a hang: every rank's stacks are saved with gdb, then the job is
killed. Writes OUT/chaos.csv, OUT/summary.md and OUT/logs/ (kept for the
trials that did not pass plainly, unless --keep-all).
"""
import argparse
import json
import os
import random
import shlex
import shutil
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chaos_check  # noqa: E402
import chaos_job  # noqa: E402
import chaos_report  # noqa: E402
import chaos_workloads as cw  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


class Ref:
    """The failure-free run of one configuration."""

    def __init__(self):
        self.ff_time = 0.0
        self.answer = None
        self.iterations = None
        self.ckpt_interval = None
        self.tasks = None
        self.counts = {}     # fault point -> {rank: how far it counts in the failure-free run}


class Campaign:
    def __init__(self, a):
        self.a = a
        self.build = os.path.abspath(a.build)
        self.mpirun = os.path.join(self.build, "bin", "mpirun")
        self.shim = os.path.join(self.build, "lib", "libchaos_shim.so")
        for p in (self.mpirun, self.shim):
            if not os.path.exists(p):
                sys.exit("chaos: %s not found: build the project first (cmake --build %s)"
                         % (p, a.build))
        self.out = os.path.abspath(a.out)
        os.makedirs(os.path.join(self.out, "logs"), exist_ok=True)
        self.refs = {}
        self.mark_base = "chaos-%d-%d" % (os.getpid(), int(time.time()))

    # -------------------------------------------------------------- commands

    def argv(self, cfg, prog, args, kill_opts, events, backstop):
        v = [self.mpirun, "--timeout", "%d" % backstop, "--comm-mode=" + cfg.mode,
             "--msg-mode=" + cfg.msg] + cfg.launcher
        if events:
            v += ["--event-log", events]
        v += kill_opts + ["-x", "LD_PRELOAD=" + self.shim, "-np", str(cfg.np),
                          os.path.join(self.build, prog)] + shlex.split(args)
        return v

    def ref(self, cfg, ff_override=None):
        key = cfg.key()
        if key in self.refs:
            return self.refs[key]
        w = cfg.w
        prog, args, env = w.ref(cfg) if w.ref else (w.prog, cfg.args, {})
        d = os.path.join(self.out, "logs", "ref-%d" % len(self.refs))
        last = None
        for attempt in range(3):
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
            env2 = dict(env)
            env2["CHAOS_SHIM_COUNTS"] = d
            argv = self.argv(cfg, prog, args, [], None, 120)
            res = chaos_job.run(argv, env2, 120, d, "%s-ref%d" % (self.mark_base, len(self.refs)))
            check = "exit0" if w.ref else w.check
            ans = chaos_check.answer(check, res.stdout, res.rc)
            if res.rc == 0 and not res.hung and ans:
                break
            last = "exit %s%s: %s" % (res.rc, " (hung)" if res.hung else "",
                                      (res.stderr or res.stdout)[-400:])
        else:
            sys.exit("chaos: the failure-free run of %s failed 3 times (logs in %s): %s"
                     % (" ".join(map(str, key)), d, last))
        r = Ref()
        r.ff_time = round(res.wall, 3) if ff_override is None else ff_override
        r.answer = ans
        rep = chaos_check.json_report(res.stdout) if w.check.startswith("json:") else None
        if rep:
            # iterations (cg), panels (lu, matmul, qr), steps (pstswm)
            r.iterations = next((rep[k] for k in ("iterations", "panels", "steps") if k in rep),
                                None)
            r.ckpt_interval = rep.get("ckpt_interval")
        if w.check == "sorted-lines":
            r.tasks = len(ans)
        for f in os.listdir(d):
            if f.startswith("counts."):
                rank = int(f.split(".")[1])
                with open(os.path.join(d, f)) as fh:
                    for line in fh:
                        name, n = line.split()
                        cur = r.counts.setdefault(name, {})
                        cur[rank] = max(cur.get(rank, 0), int(n))
        self.refs[key] = r
        with open(os.path.join(d, "ref.json"), "w") as fh:
            json.dump({"config": list(map(str, key)), "ff_time": r.ff_time,
                       "iterations": r.iterations, "tasks": r.tasks, "counts": r.counts}, fh)
        say("chaos: failure-free %s np %d %s/%s %s: %.3f s" % (
            w.name, cfg.np, cfg.mode, cfg.msg, " ".join(cfg.launcher), r.ff_time))
        return r

    # -------------------------------------------------------------- one trial

    def trial(self, i, seed, rng, w, ff_override=None, tag=""):
        cfg = cw.draw_config(rng, w, self.a.transports == "all")
        ref = self.ref(cfg, ff_override)
        kills = w.planner(rng, cfg, ref)
        name = "%04d-%d%s" % (i, seed, tag)
        logdir = os.path.join(self.out, "logs", name)
        shutil.rmtree(logdir, ignore_errors=True)
        os.makedirs(logdir)
        hang = max(self.a.hang_factor * ref.ff_time, self.a.hang_floor)
        backstop = int(hang + 300)
        events = os.path.join(logdir, "events.jsonl")
        argv = self.argv(cfg, w.prog, cfg.args, kills.opts, events, backstop)
        env = dict(cfg.env)
        envs = " ".join("%s=%s" % kv for kv in sorted(env.items()))
        with open(os.path.join(logdir, "cmd.txt"), "w") as f:
            f.write(("env %s " % envs if envs else "") + " ".join(map(shlex.quote, argv)) + "\n")
        res = chaos_job.run(argv, env, hang, logdir, "%s-%d" % (self.mark_base, i))
        cls, detail = chaos_check.classify(cfg, kills, ref, res)
        fired = sum(1 for e in res.events if e.get("event") == "kill")
        failures = sum(1 for e in res.events if e.get("event") == "proc_failed")
        replay = "tests/chaos/chaos.sh --build %s --replay %d --ff-time %.3f%s" % (
            self.a.build, seed, ref.ff_time,
            "" if self.a.transports == "all" else " --transports " + self.a.transports)
        with open(os.path.join(logdir, "scenario.json"), "w") as f:
            json.dump({"seed": seed, "workload": w.name, "np": cfg.np, "mode": cfg.mode,
                       "msg": cfg.msg, "launcher": cfg.launcher, "env": env,
                       "scenario": kills.kind, "kills": kills.describe(),
                       "may_exceed": kills.may_exceed, "class": cls, "detail": detail,
                       "exit_code": res.rc, "wall_s": res.wall, "ff_s": ref.ff_time,
                       "replay": replay}, f, indent=1)
        keep = self.a.keep_all or cls != "ok"
        if not keep:
            shutil.rmtree(logdir, ignore_errors=True)
        row = {"trial": i, "seed": seed, "workload": w.name, "mode": cfg.mode, "msg": cfg.msg,
               "np": cfg.np, "env": envs, "scenario": kills.kind, "kills": kills.describe(),
               "kills_fired": fired, "failures": failures, "exit_code": res.rc, "class": cls,
               "detail": detail, "wall_s": "%.3f" % res.wall, "ff_s": "%.3f" % ref.ff_time,
               "hang_limit_s": "%.1f" % hang, "leftover": res.leftover,
               "logs": logdir if keep else "", "replay": replay}
        say("[%s] %s %s np%d %s/%s %s%s -> %s (%.2f s)%s" % (
            name, w.name, kills.kind, cfg.np, cfg.mode, cfg.msg, kills.describe(),
            "".join(" %s=%s" % kv for kv in sorted(env.items()) if not kv[0].startswith("FT_")),
            cls, res.wall,
            "" if cls == "ok" else ": " + detail))
        return row


def say(s):
    print(s, flush=True)


def _interrupted(signum, frame):
    raise KeyboardInterrupt


def trial_seed(seed, i, k):
    return random.Random("%d:%d:%d" % (seed, i, k)).randrange(1, 2 ** 31)


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


def resign(rows, csv_path):
    """Signatures computed again from the saved logs (by this version's rules); the
    logs are looked for next to the CSV (a results directory may have been moved)."""
    for r in rows:
        if not r.get("logs"):
            continue
        d = os.path.join(os.path.dirname(os.path.abspath(csv_path)), "logs",
                         os.path.basename(r["logs"]))
        if not os.path.isdir(d):
            continue
        if r["class"] == "hang":
            bts = {}
            for f in os.listdir(d):
                if f.startswith("bt."):
                    with open(os.path.join(d, f), errors="replace") as fh:
                        bts[f] = fh.read()
            r["detail"] = chaos_check.hang_signature(bts)
        elif r["class"] == "error-exit" and "left behind" not in r["detail"]:
            with open(os.path.join(d, "stdout"), errors="replace") as o, \
                    open(os.path.join(d, "stderr"), errors="replace") as e:
                r["detail"] = chaos_check.error_signature(r["exit_code"], o.read(), e.read())
    return rows


def main():
    ap = argparse.ArgumentParser(description="random-kill campaign (docs/chaos.md)")
    ap.add_argument("--build", default=os.environ.get("FTMPI_BUILD", os.path.join(REPO, "build")))
    ap.add_argument("--out", default=None, help="results directory (default BUILD/chaos/SEED)")
    ap.add_argument("--trials", type=int, default=100)
    ap.add_argument("--budget", type=float, default=0,
                    help="start no trial after this many seconds (0: no limit)")
    ap.add_argument("--seed", type=int, default=None, help="campaign seed (default: from the clock)")
    ap.add_argument("--workloads", default="", help="comma-separated subset of: " +
                    ",".join(w.name for w in cw.WORKLOADS))
    ap.add_argument("--replay", type=int, default=None, metavar="TRIAL_SEED",
                    help="run the one trial drawn from this seed again")
    ap.add_argument("--trial-seed", type=int, dest="replay", help=argparse.SUPPRESS)
    ap.add_argument("--repeat", type=int, default=1, help="with --replay: run it this many times")
    ap.add_argument("--ff-time", type=float, default=None,
                    help="with --replay: the failure-free time the trial was drawn with (CSV ff_s)")
    ap.add_argument("--transports", choices=["all", "default"], default="all",
                    help="all: 15%% of trials with FTMPI_NO_CMA=1, 15%% with FTMPI_EAGER_LIMIT=0; "
                         "default: the default transport only")
    ap.add_argument("--hang-factor", type=float, default=10.0)
    ap.add_argument("--hang-floor", type=float, default=6.0)
    ap.add_argument("--keep-all", action="store_true", help="keep the logs of passing trials too")
    ap.add_argument("--ci", action="store_true",
                    help="exit 1 if any trial hung, gave a wrong answer or an undocumented error")
    ap.add_argument("--summarize", default=None, metavar="CSV",
                    help="print the summary of an existing CSV and exit")
    a = ap.parse_args()
    signal.signal(signal.SIGTERM, _interrupted)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # also when started in the background
    if a.summarize:
        say(chaos_report.summary(resign(chaos_report.load(a.summarize), a.summarize),
                                 extra=["- CSV: %s" % a.summarize, ""]))
        return 0
    allowed = set()
    for n in filter(None, a.workloads.split(",")):
        try:
            allowed.add(cw.find(n))
        except KeyError:
            sys.exit("chaos: unknown workload '%s' (known: %s)" %
                     (n, ", ".join(w.name for w in cw.WORKLOADS)))
    if a.trials < 1 or a.repeat < 1 or a.hang_factor <= 1 or a.hang_floor <= 0:
        sys.exit("chaos: --trials, --repeat, --hang-factor (> 1) and --hang-floor must be positive")
    seed = a.seed if a.seed is not None else int(time.time() * 1000) % (2 ** 31)
    if a.out is None:
        a.out = os.path.join(a.build, "chaos", "replay-%d" % a.replay if a.replay else str(seed))
    c = Campaign(a)
    report = chaos_report.Report(os.path.join(c.out, "chaos.csv"))
    t0 = time.monotonic()
    load0 = loadavg()
    stopped = ""
    try:
        if a.replay is not None:
            rng, w = cw.draw_workload(a.replay, None)
            say("chaos: replaying trial seed %d (%s), %d time(s)" % (a.replay, w.name, a.repeat))
            for r in range(a.repeat):
                rng, w = cw.draw_workload(a.replay, None)
                report.add(c.trial(r, a.replay, rng, w, a.ff_time, tag="-r%d" % r))
        else:
            say("chaos: campaign seed %d, %d trials%s, results in %s" % (
                seed, a.trials, ", budget %g s" % a.budget if a.budget else "", c.out))
            for i in range(a.trials):
                if a.budget and time.monotonic() - t0 > a.budget:
                    stopped = "budget of %g s reached after %d trials" % (a.budget, i)
                    say("chaos: " + stopped)
                    break
                k = 0
                while True:
                    s = trial_seed(seed, i, k)
                    rng, w = cw.draw_workload(s, allowed)
                    if w:
                        break
                    k += 1
                report.add(c.trial(i, s, rng, w))
    except KeyboardInterrupt:
        stopped = "interrupted"
    finally:
        report.close()
    elapsed = time.monotonic() - t0
    cmd = "tests/chaos/chaos.sh " + " ".join(map(shlex.quote, sys.argv[1:]))
    extra = ["- command: `%s` (campaign seed %d)" % (cmd, seed),
             "- %s, %.0f s, %d cores, load average %s at the start, %s at the end%s" % (
                 time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), elapsed,
                 os.cpu_count() or 0, load0, loadavg(), "; " + stopped if stopped else ""),
             "- CSV: %s" % report.path, ""]
    text = chaos_report.summary(report.rows, extra=extra)
    with open(os.path.join(c.out, "summary.md"), "w") as f:
        f.write(text)
    say(text)
    bad = sum(1 for r in report.rows if r["class"] in chaos_check.FAILING)
    if a.ci and (bad or not report.rows):
        say("chaos: %d trial(s) hung, answered wrong or failed without a documented reason" % bad)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
