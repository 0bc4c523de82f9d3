#!/usr/bin/env python3
"""Benchmark: whole games of Eldfall (``skirmish play``) on a generated 36" x 36" table
with 25 scenery pieces and 5 models a side.

Targets (issue 13): one greedy-vs-greedy game ≤ 3 s median; random vs random ≥ 20
games/s on one core. The baseline is the same game with Cover judged for every
candidate the greedy policy weighs (``GreedyPolicy.cover = True``), the naive way.

    python tools/bench_play.py [--games 3] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _bench import fmt  # noqa: E402
from skirmish.game.eldfall import parse_settings, play_game, with_builtin_power  # noqa: E402
from skirmish.game.eldfall.policies import GreedyPolicy  # noqa: E402
from skirmish.game.policy import RandomPolicy  # noqa: E402
from skirmish.scenario.generate import random_table  # noqa: E402


def bench_table(seed: int):
    """5 models a side, 25 pieces; the built-in weapons get the game's default Power
    (``with_builtin_power``) to be playable."""
    return with_builtin_power(random_table(random.Random(seed), models=10, scenery=25))


def timed(table, policies, seed: int) -> tuple[float, int]:
    t0 = time.perf_counter()
    rec = play_game(table, parse_settings(None, table), policies, random.Random(seed), seed=seed)
    return time.perf_counter() - t0, sum(e["role"] == "activation" for e in rec.events)


def median(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[len(xs) // 2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--baseline", action="store_true", help="also time greedy with Cover for every candidate")
    args = ap.parse_args()
    table = bench_table(args.seed)
    rnd = [timed(table, {"red": RandomPolicy(), "blue": RandomPolicy()}, args.seed + i) for i in range(args.games)]
    t_r = median([t for t, _ in rnd])
    print(f"{'random vs random, 5 a side, 25 pieces':<44} median {fmt(t_r)} per game  "
          f"({1 / t_r:.2f} games/s; target ≥ 20; {median([n for _, n in rnd]):.0f} activations)")
    greedy = [timed(table, {"red": GreedyPolicy(), "blue": GreedyPolicy()}, args.seed + i) for i in range(args.games)]
    t_g = median([t for t, _ in greedy])
    line = (f"{'greedy vs greedy, 5 a side, 25 pieces':<44} median {fmt(t_g)} per game  (target ≤ 3 s; "
            f"{median([n for _, n in greedy]):.0f} activations)")
    if args.baseline:
        slow = GreedyPolicy()
        slow.cover = True
        t_b = median([timed(table, {"red": slow, "blue": slow}, args.seed + i)[0] for i in range(args.games)])
        line += f"   cover-every-candidate {fmt(t_b)}   ratio x{t_b / t_g:,.1f}"
    print(line)


if __name__ == "__main__":
    main()
