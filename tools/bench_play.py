#!/usr/bin/env python3
"""Benchmark: whole games of Eldfall (``skirmish play``) on a generated 36" x 36" table
with 25 scenery pieces and 5 models a side.

Targets (issue 13): one greedy-vs-greedy game ≤ 3 s median; random vs random ≥ 20
games/s on one core. Each line gives the median wall time per game, the median CPU
time (``time.process_time``: the machine is shared, so wall time is noisy), games per
second of CPU at that median, the median activations per game and the CPU per
activation (the games of two versions may differ: a policy that draws its samples
differently plays other moves from the same seed), then the throughput: the games
played over their total CPU time. Game lengths vary a lot from seed to seed, so the
random case plays 30 games by default (a random game takes some 50 ms) and the greedy
one 3.

Games are played as ``skirmish play --games`` plays them, without writing their event
logs (a baseline from before ``log=False`` writes them). The process is set up as
``skirmish play --games`` sets up its own: the compiled kernels
loaded, and :func:`skirmish.scale.settle_heap` of the code measured (the objects made at
start-up frozen out of the garbage collector's full passes, the youngest generation's
threshold raised), for the baseline too (each with its own).

The baseline is another checkout of the code (``--against DIR``, e.g. main exported
with ``git archive main | tar -x -C /tmp/main``): the same games are played there in a
subprocess in the same run, and the ratio of CPU medians is printed. Both sides then
play in subprocesses, in ``--rounds`` alternating rounds (this code first, then the
baseline first, ...), and each side's figure is the median over its rounds: on a
machine whose speed drifts, the side measured first is not favoured. A second line
gives each side's best round too (its least disturbed one: a shared machine that slows
down for a while only ever adds time) and their ratio.

    python tools/bench_play.py [--games N] [--seed 1] [--only random] [--against /tmp/main [--rounds 2]]
"""

from __future__ import annotations

import argparse
import gc
import inspect
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# ``--root DIR`` (the baseline's subprocess) imports skirmish from another checkout
_root = sys.argv[sys.argv.index("--root") + 1] if "--root" in sys.argv else str(ROOT)
sys.path.insert(0, _root)
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bench import fmt  # noqa: E402
from skirmish.game.eldfall import parse_settings, play_game, with_builtin_power  # noqa: E402
from skirmish.game.policy import load_policy  # noqa: E402
from skirmish.scenario.generate import random_table  # noqa: E402

CASES = {"random": "random vs random", "greedy": "greedy vs greedy"}
DEFAULT_GAMES = {"random": 30, "greedy": 3}


def settle() -> None:
    """Set the process up as ``skirmish play --games`` sets up its own
    (:func:`skirmish.scale.settle_heap` of the code measured: the start-up objects frozen
    out of the collector's full passes, its thresholds); a baseline from before
    ``settle_heap`` only freezes them."""
    try:
        from skirmish.scale import settle_heap
    except ImportError:
        gc.freeze()
        return
    settle_heap()


def bench_table(seed: int):
    """5 models a side, 25 pieces; the built-in weapons get the game's default Power
    (``with_builtin_power``) to be playable."""
    return with_builtin_power(random_table(random.Random(seed), models=10, scenery=25))


#: Games are played as ``skirmish play --games`` plays them: without writing their event
#: logs (``log=False``), where the code measured has that (a baseline from before it logs).
UNLOGGED = {"log": False} if "log" in inspect.signature(play_game).parameters else {}


def timed(table, policies, seed: int) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, activations) of one game."""
    t0, c0 = time.perf_counter(), time.process_time()
    rec = play_game(table, parse_settings(None, table), policies, random.Random(seed), seed=seed, **UNLOGGED)
    return (time.perf_counter() - t0, time.process_time() - c0,
            getattr(rec, "sequences", 0) or sum(e["role"] == "activation" for e in rec.events))


def run(case: str, games: int, seed: int) -> dict[str, float]:
    """Medians of ``games`` games of ``case`` (seeds seed, seed + 1, ...) on the bench table."""
    table = bench_table(seed)
    try:  # the compiled LoS kernels, once per process (not in the games' times)
        from skirmish.geometry import kernels
        kernels.load()
    except ImportError:  # (a baseline from before them)
        pass
    settle()
    runs = []
    for i in range(games):
        pol = {s: load_policy(case, "eldfall") for s in table.sides}
        runs.append(timed(table, pol, seed + i))
    return {"wall": statistics.median(r[0] for r in runs), "cpu": statistics.median(r[1] for r in runs),
            "activations": statistics.median(r[2] for r in runs), "throughput": games / sum(r[1] for r in runs)}


def run_elsewhere(root: str, case: str, games: int, seed: int) -> dict[str, float]:
    """The same medians measured on the code at ``root`` (another checkout)."""
    root = str(Path(root).resolve())
    out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--raw", case, "--games", str(games),
                          "--seed", str(seed), "--root", root], cwd=root, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def alternated(case: str, games: int, seed: int, against: str, rounds: int
               ) -> tuple[dict[str, float], dict[str, float]]:
    """This code's and the baseline's medians, each played in a subprocess, in ``rounds``
    rounds that alternate which side goes first; per side, the median over its rounds."""
    mine: list[dict[str, float]] = []
    base: list[dict[str, float]] = []
    for k in range(rounds):
        sides = [(str(ROOT), mine), (against, base)]
        for root, acc in (sides if k % 2 == 0 else sides[::-1]):
            acc.append(run_elsewhere(root, case, games, seed))

    def med(rs: list[dict[str, float]]) -> dict[str, float]:
        out = {key: statistics.median(r[key] for r in rs) for key in rs[0]}
        out["cpu_best"] = min(r["cpu"] for r in rs)
        return out
    return med(mine), med(base)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, help="games per case (default: 30 random, 3 greedy)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", choices=sorted(CASES), help="one case only")
    ap.add_argument("--against", metavar="DIR", help="a checkout to compare with (e.g. main), timed in the same run")
    ap.add_argument("--rounds", type=int, default=2, help="with --against: alternating rounds of both sides")
    ap.add_argument("--raw", choices=sorted(CASES), help=argparse.SUPPRESS)
    ap.add_argument("--root", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.raw:  # one case as JSON, for --against
        print(json.dumps(run(args.raw, args.games, args.seed)))
        return
    for case in ([args.only] if args.only else ["random", "greedy"]):
        games = DEFAULT_GAMES[case] if args.games is None else args.games
        if args.against:
            r, b = alternated(case, games, args.seed, args.against, max(1, args.rounds))
        else:
            r = run(case, games, args.seed)
        target = "target ≥ 20 games/s" if case == "random" else "target ≤ 3 s"
        per = r["cpu"] / max(r["activations"], 1)
        line = (f"{CASES[case] + ', 5 a side, 25 pieces':<40} median {fmt(r['wall'])} wall, {fmt(r['cpu'])} CPU "
                f"per game ({1 / r['cpu']:.2f} games/s of CPU; {target}; {r['activations']:.0f} activations, "
                f"{fmt(per).strip()} CPU each)")
        line += f"\n{'':<40} {games} games at {r['throughput']:.2f} games/s of CPU (their total)"
        if args.against:
            bper = b["cpu"] / max(b["activations"], 1)
            line += (f"\n{'':<40} baseline {fmt(b['cpu'])} CPU ({b['activations']:.0f} activations, "
                     f"{fmt(bper).strip()} CPU each)   ratio x{b['cpu'] / r['cpu']:,.2f} per game, "
                     f"x{bper / per:,.2f} per activation")
            line += (f"\n{'':<40} best round {fmt(r['cpu_best'])} CPU against {fmt(b['cpu_best'])}   "
                     f"ratio x{b['cpu_best'] / r['cpu_best']:,.2f}")
        print(line, flush=True)


if __name__ == "__main__":
    main()
