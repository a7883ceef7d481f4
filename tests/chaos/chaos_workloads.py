"""chaos_workloads.py - the workloads of the chaos campaign and how each is
killed (docs/chaos.md).

Adding a workload is one entry in WORKLOADS: a program, its process counts
and comm modes, how its answer is read (CHECKS in chaos_check.py) and which
kill planner fits it (the iterative skeleton's, the master-worker skeleton's,
or a program that kills itself). A future LU solver written on the iterative
skeleton would be, for example:

    Workload("lu-rs", weight=2, prog="bin/lu", args="--n 256 --checksums 2 --json",
             np=[8], modes=["rebuild"], check="json:solution_checksum",
             planner=ftiter_kills, m=2, group=8),

A scenario is drawn from one trial seed: random.Random(seed) picks the
workload, then its configuration, then its kills (the kill times are
fractions of the failure-free time, which is passed in, so `--replay SEED
--ff-time T` draws exactly the same scenario again).
"""
import random


class Workload:
    def __init__(self, name, weight, prog, args, np, modes, check, planner,
                 msg_modes=("reset",), m=0, group=0, env_draw=None, ref=None,
                 launcher=(), transports=True):
        self.name = name
        self.weight = weight
        self.prog = prog            # path relative to the build directory
        self.args = args            # program arguments (a string)
        self.np = list(np)          # process counts to draw from
        self.modes = list(modes)    # comm modes to draw from
        self.msg_modes = list(msg_modes)
        self.check = check          # how the answer is read: chaos_check.CHECKS
        self.planner = planner      # kill planner: (rng, cfg, ref) -> Kills
        self.m = m                  # checksum ranks per group (iterative skeleton)
        self.group = group          # ranks per group, checksum ranks included (0: all)
        self.env_draw = env_draw    # (rng, cfg) -> program environment (self-killing tests)
        self.ref = ref              # (cfg) -> (prog, args, env) of the failure-free reference
        self.launcher = list(launcher)
        self.transports = transports


class Config:
    """One drawn configuration of a workload (what the reference run is keyed by)."""

    def __init__(self, w, np, mode, msg, launcher, env):
        self.w = w
        self.np = np
        self.mode = mode
        self.msg = msg
        self.launcher = launcher    # extra launcher options
        self.env = env              # program environment (FT_VICTIMS, transports)
        self.args = w.args
        self.expect_fail = False

    def key(self):
        return (self.w.name, self.np, self.mode, self.msg, tuple(self.launcher))


class Kills:
    def __init__(self, kind):
        self.kind = kind            # scenario name
        self.opts = []              # launcher options: --kill R@T, --kill-at P@R
        self.ranks = []             # ranks killed (planned), in order
        self.may_exceed = False     # more failures than the encoding tolerates, possible
        self.master = False         # the master-worker master is among the victims
        self.shim = False           # uses libchaos_shim.so's fault points
        self.notes = []             # kills a test program makes itself (its environment)

    def at(self, rank, t):
        self.opts += ["--kill", "%d@%.3f" % (rank, t)]
        self.ranks.append(rank)

    def point(self, name, value, rank, shim=False):
        spec = name if value is None else "%s=%d" % (name, value)
        self.opts += ["--kill-at", "%s@%d" % (spec, rank)]
        self.ranks.append(rank)
        self.shim = self.shim or shim

    def describe(self):
        return " ".join(self.opts + self.notes) or "(none)"


# ------------------------------------------------------------------ iterative skeleton (CG)

def _groups(cfg):
    size = cfg.w.group or cfg.np
    return [list(range(g, min(g + size, cfg.np))) for g in range(0, cfg.np, size)]


def _roles(cfg):
    """(data ranks, checksum ranks, group of each rank): the last m of each group check."""
    data, check, group_of = [], [], {}
    for gi, g in enumerate(_groups(cfg)):
        for r in g:
            group_of[r] = gi
        data += g[:len(g) - cfg.w.m]
        check += g[len(g) - cfg.w.m:]
    return data, check, group_of


def _exceeds(cfg, ranks):
    _, _, group_of = _roles(cfg)
    per = {}
    for r in set(ranks):
        per.setdefault(group_of[r], set()).add(r)
    return any(len(s) > cfg.w.m for s in per.values())


def _pick_within(rng, cfg, n):
    """n distinct ranks that one encoding survives together (at most m per group)."""
    _, _, group_of = _roles(cfg)
    ranks = list(range(cfg.np))
    rng.shuffle(ranks)
    out, per = [], {}
    for r in ranks:
        g = group_of[r]
        if per.get(g, 0) < cfg.w.m:
            out.append(r)
            per[g] = per.get(g, 0) + 1
        if len(out) == n:
            break
    return out


def ftiter_kills(rng, cfg, ref):
    """Kills for a program on the iterative skeleton with diskless checkpoints."""
    T = ref.ff_time
    iters = max(ref.iterations or 1, 1)
    K = ref.ckpt_interval or 10
    data, check, group_of = _roles(cfg)
    kinds = [("time", 4), ("pair", 3), ("again", 3), ("iter", 3), ("ckpt", 2),
             ("encode", 2), ("restore", 2), ("recover", 2), ("finalize", 1),
             ("mixed", 2), ("exceed", 1)]
    kind = _weighted(rng, kinds)
    k = Kills(kind)
    ckpts = list(range(0, iters, K)) or [0]

    def any_point(rank):
        if rank in data and rng.random() < 0.7:
            k.point("iter", rng.randrange(iters), rank)
        else:
            k.point("ckpt", rng.choice(ckpts), rank)

    if kind == "time":
        k.at(rng.randrange(cfg.np), rng.uniform(0, T))
    elif kind == "pair":
        a, b = (_pick_within(rng, cfg, 2) + [None, None])[:2]
        t = rng.uniform(0, T)
        k.at(a, t)
        if b is not None:
            k.at(b, t + rng.uniform(0, 0.05))
    elif kind == "again":                  # a replacement killed again
        r = rng.randrange(cfg.np)
        t = rng.uniform(0, T)
        k.at(r, t)
        k.at(r, t + rng.uniform(0.002, 0.15))
    elif kind == "iter":
        r = rng.choice(data)
        k.point("iter", rng.randrange(iters), r)
    elif kind == "ckpt":
        k.point("ckpt", rng.choice(ckpts), rng.randrange(cfg.np))
    elif kind == "encode":                 # inside a checkpoint's stream
        r = rng.randrange(cfg.np)
        name = "encode_send" if r in data else "encode_recv"
        n = max(ref.counts.get(name, {}).get(r, 0), 1)
        k.point(name, rng.randint(1, n), r, shim=True)
    elif kind == "restore":                # a second rank dies while the first is restored
        a, b = (_pick_within(rng, cfg, 2) + [None, None])[:2]
        if b is None:
            b = rng.choice([r for r in range(cfg.np) if r != a])
        any_point(a)
        k.point("decode_send", rng.randint(1, 3), b, shim=True)
    elif kind == "recover":                # a second rank dies entering the recovery
        a, b = (_pick_within(rng, cfg, 2) + [None, None])[:2]
        if b is None:
            b = rng.choice([r for r in range(cfg.np) if r != a])
        if rng.random() < 0.5:
            k.at(a, rng.uniform(0, T))
        else:
            any_point(a)
        k.point("recover", 1, b, shim=True)
    elif kind == "finalize":
        if rng.random() < 0.5:
            k.at(rng.randrange(cfg.np), rng.uniform(0, T))
        k.point("finalize", None, rng.randrange(cfg.np), shim=True)
    elif kind == "mixed":                  # a fault point and a timed kill, any ranks
        a, b = (_pick_within(rng, cfg, 2) + [None, None])[:2]
        any_point(a)
        k.at(b if b is not None else a, rng.uniform(0, T))
    elif kind == "exceed":                 # m + 1 ranks of one group at the same moment
        g = rng.choice(_groups(cfg))
        t = rng.uniform(0.3 * T, 0.9 * T)
        for r in rng.sample(g, min(cfg.w.m + 1, len(g))):
            k.at(r, t)
    k.may_exceed = _exceeds(cfg, k.ranks)
    return k


# ------------------------------------------------------------------ master-worker skeleton

def mw_kills(rng, cfg, ref):
    """Kills for a program on the master-worker skeleton (rank 0 is the master)."""
    T = ref.ff_time
    workers = list(range(1, cfg.np))
    per_worker = max(ref.tasks // max(len(workers), 1), 1) if ref.tasks else 10
    kinds = [("time", 4), ("pair", 3), ("points", 3), ("join", 2), ("all", 1),
             ("finalize", 1), ("master", 1)]
    if cfg.mode == "rebuild":
        kinds.append(("again", 3))
    kind = _weighted(rng, kinds)
    k = Kills(kind)
    if kind == "time":
        for r in rng.sample(workers, rng.randint(1, max(len(workers) - 1, 1))):
            k.at(r, rng.uniform(0, T))
    elif kind == "pair":
        a, b = rng.sample(workers, 2) if len(workers) > 1 else (workers[0], workers[0])
        t = rng.uniform(0, T)
        k.at(a, t)
        k.at(b, t + rng.uniform(0, 0.03))
    elif kind == "again":
        r = rng.choice(workers)
        t = rng.uniform(0, T)
        k.at(r, t)
        k.at(r, t + rng.uniform(0.002, 0.15))
    elif kind == "points":
        for r in rng.sample(workers, rng.randint(1, min(2, len(workers)))):
            name = rng.choice(["mw_task", "mw_result", "mw_stop"])
            k.point(name, None if name == "mw_stop" else rng.randrange(per_worker), r)
    elif kind == "join":                   # a worker dies as it rejoins after a recovery
        a, b = rng.sample(workers, 2) if len(workers) > 1 else (workers[0], workers[0])
        k.at(a, rng.uniform(0, T))
        k.point("mw_join", 1, b)
    elif kind == "all":                    # every worker: the master finishes alone
        t = rng.uniform(0, T)
        for r in workers:
            k.at(r, t + rng.uniform(0, 0.05))
    elif kind == "finalize":
        k.point("finalize", None, rng.choice(workers), shim=True)
    elif kind == "master":                 # the documented single point of failure
        if rng.random() < 0.5:
            k.at(0, rng.uniform(0, T))
        else:
            k.point("mw_consume", rng.randrange(max(ref.tasks or 10, 1)), 0)
        k.master = True
    return k


# ------------------------------------------------------------------ self-killing FT tests

def idiom_env(rng, cfg):
    """tests/ft/ft_idiom: its own kills (FT_VICTIMS, FT_KILL_ITER, ...)."""
    ranks = list(range(cfg.np))
    env = {"FT_VICTIMS": ",".join(str(r) for r in sorted(rng.sample(ranks, rng.randint(1, 2)))),
           "FT_KILL_ITER": str(rng.randrange(6))}
    victims = [int(v) for v in env["FT_VICTIMS"].split(",")]
    if cfg.mode == "rebuild" and rng.random() < 0.4:
        env["FT_KILL_AGAIN"] = str(rng.randint(2, 4))
    if cfg.mode != "blank" and rng.random() < 0.3:
        env["FT_DIE_IN_RECOVERY"] = str(rng.choice([r for r in ranks if r not in victims]))
    return env


MODES_VARIANTS = {  # ft_modes argument -> (comm mode, recovery mode)
    "auto": ["shrink", "rebuild"], "cont": ["shrink"], "blank": ["blank"], "none": ["shrink"],
}


def self_kills(rng, cfg, ref):
    k = Kills("self")
    if cfg.w.name == "ft_modes":
        k.notes.append("ft_modes " + cfg.args)
    for name, v in sorted(cfg.env.items()):
        if name.startswith("FT_"):
            k.notes.append("%s=%s" % (name, v))
    if "FT_VICTIMS" in cfg.env:
        k.ranks = [int(v) for v in cfg.env["FT_VICTIMS"].split(",")]
    else:
        k.ranks = [1]
    return k


def _weighted(rng, pairs):
    total = sum(w for _, w in pairs)
    x = rng.uniform(0, total)
    for name, w in pairs:
        x -= w
        if x <= 0:
            return name
    return pairs[-1][0]


CG_COMMON = "--n 32 --tol 1e-10 --ckpt-interval 10 --chunk-kib 32 --json"
DENSE = "--nb 16 --grid 2x2 --ft ckpt --ckpt-interval 2 --json"

WORKLOADS = [
    Workload("cg-rs", 3, "bin/cg", CG_COMMON + " --encoding rs --checksums 2",
             np=[8], modes=["rebuild"], check="json:solution_checksum",
             planner=ftiter_kills, m=2),
    Workload("cg-xor", 2, "bin/cg", CG_COMMON + " --encoding xor --checksums 1 --group 3",
             np=[8], modes=["rebuild"], check="json:solution_checksum",
             planner=ftiter_kills, m=1, group=4),
    # the dense demos and the shallow water model, all on the iterative skeleton
    # (one panel or one time step is one iteration), one checkpoint group each
    Workload("lu-rs", 1, "bin/lu", DENSE + " --n 192 --encoding rs --checksums 2",
             np=[6], modes=["rebuild"], check="json:solution_checksum",
             planner=ftiter_kills, m=2),
    Workload("qr-xor", 1, "bin/qr", DENSE + " --n 160 --m 192 --encoding xor",
             np=[5], modes=["rebuild"], check="json:solution_checksum",
             planner=ftiter_kills, m=1),
    Workload("matmul-rs", 1, "bin/matmul", DENSE + " --n 192 --encoding rs --checksums 1",
             np=[5], modes=["rebuild"], check="json:solution_checksum",
             planner=ftiter_kills, m=1),
    Workload("pstswm-rs", 1, "bin/pstswm",
             "--case 6 --trunc 21 --days 1 --ckpt-interval 6 --encoding rs --checksums 1 --json",
             np=[5], modes=["rebuild"], check="json:state_checksum",
             planner=ftiter_kills, m=1),
    Workload("sweep", 2, "bin/sweep", "--tasks 60 --task-ms 4 --quiet",
             np=[4, 6], modes=["rebuild", "shrink", "blank"], msg_modes=["reset", "cont"],
             check="sorted-lines", planner=mw_kills),
    Workload("ft_idiom", 2, "bin/ft_idiom", "",
             np=[4, 5, 6, 8], modes=["shrink", "rebuild", "blank"], msg_modes=["reset", "cont"],
             check="exit0", planner=self_kills, env_draw=idiom_env),
    Workload("ft_modes", 1, "bin/ft_modes", "",
             np=[4, 5, 6], modes=["*"], check="exit0", planner=self_kills,
             ref=lambda cfg: ("bin/ft_idiom", "", {})),
]


def find(name):
    for w in WORKLOADS:
        if w.name == name:
            return w
    raise KeyError(name)


def draw_workload(seed, allowed):
    rng = random.Random(seed)
    w = find(_weighted(rng, [(w.name, w.weight) for w in WORKLOADS]))
    return rng, w if (not allowed or w in allowed) else None


def draw_config(rng, w, transports=True):
    np = rng.choice(w.np)
    launcher = []
    env = {}
    if w.name == "ft_modes":
        variant = rng.choice(sorted(MODES_VARIANTS))
        mode = rng.choice(MODES_VARIANTS[variant])
        msg = rng.choice(["reset", "cont"]) if variant in ("auto", "blank") else (
            "cont" if variant == "cont" else "reset")
        if variant in ("auto", "none"):
            launcher.append("--recovery=" + variant)
        cfg = Config(w, np, mode, msg, launcher, env)
        cfg.args = variant
        cfg.expect_fail = variant == "none"   # the failure stays unrecovered: non-zero exit
    else:
        mode = rng.choice(w.modes)
        msg = rng.choice(w.msg_modes)
        if w.name == "ft_idiom" and rng.random() < 0.2:
            launcher.append("--coll-mode=atomic")
        cfg = Config(w, np, mode, msg, launcher + list(w.launcher), env)
        cfg.args = w.args
    if w.env_draw:
        env.update(w.env_draw(rng, cfg))
    if w.transports:
        x = rng.random()   # drawn always, so that a seed means the same trial either way
        if transports and x < 0.15:
            env["FTMPI_NO_CMA"] = "1"
        elif transports and x < 0.3 and not (w.name == "ft_modes" and cfg.args == "cont"):
            # (ft_modes cont sends before the failure with MPI_Send and receives after
            # the recovery: it relies on an eager send, by design)
            env["FTMPI_EAGER_LIMIT"] = "0"
    return cfg
