#!/usr/bin/env python3
"""Benchmark: Implant's exact odds against brute force, and exact fight odds against a Monte Carlo.

    python tools/bench_implant.py [--quick]

The pool's odds are compared with listing every face (5 dice: 7,776 rolls); the
exact fight odds (an absorbing Markov chain over Fractions) with a Monte Carlo of
10^5 fights (10^4 with --quick), which is both slower and only approximate.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bench import line, median_seconds  # noqa: E402
from skirmish.rules.implant import BoldPolicy, CautiousPolicy, fight_odds, fight_setup, pool, sample_fights  # noqa: E402


def brute(helps: int, hinders: int) -> list[Fraction]:
    p = pool(helps, hinders)
    keep = max if p.action else min
    c = Counter(keep(f) for f in itertools.product(range(1, 7), repeat=p.dice))
    return [Fraction(c[k], 6**p.dice) for k in range(1, 7)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="10^4 fights instead of 10^5")
    fights = 10**4 if ap.parse_args().quick else 10**5

    for helps, hinders in ((4, 0), (0, 4)):
        ours = median_seconds(lambda: pool(helps, hinders).odds(), repeat=51)
        base = median_seconds(lambda: brute(helps, hinders), repeat=3)
        assert list(pool(helps, hinders).odds().outcomes) == brute(helps, hinders)
        print(line(f"pool odds {helps}/{hinders} (5 dice)", ours, base, "brute force"))

    cases = [("3v3 1/1 drama 1 cautious", fight_setup(3, 3, 1, 1, drama=1), CautiousPolicy()),
             ("3v3 1/1 drama 1 bold", fight_setup(3, 3, 1, 1, drama=1), BoldPolicy()),
             ("5v4 2/1 drama 2 enemy-first", fight_setup(5, 4, 2, 1, initiative="enemy", drama=2),
              CautiousPolicy())]
    for label, setup, policy in cases:
        ours = median_seconds(lambda: fight_odds(setup, policy), repeat=5)
        t0 = time.perf_counter()
        counts = sample_fights(setup, policy, fights, random.Random(1))
        t_mc = time.perf_counter() - t0
        win = float(fight_odds(setup, policy).win)
        seen = (counts[("win", False)] + counts[("win", True)]) / fights
        print(line(f"fight odds {label}", ours, t_mc, f"Monte Carlo 10^{len(str(fights)) - 1}")
              + f"   (win {win:.4f}, sampled {seen:.4f})")


if __name__ == "__main__":
    main()
