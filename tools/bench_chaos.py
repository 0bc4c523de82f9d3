#!/usr/bin/env python3
"""Benchmark: exact Chaos Party attack odds against Monte Carlo through resolve().

    python tools/bench_chaos.py [--quick]

The exact odds enumerate the attack and defence faces with both d20s in closed form;
the baseline rolls every die (10^5 attacks) and is still not exact (its error is printed).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _bench import line, median_seconds  # noqa: E402
from skirmish.rules.chaosparty import Attack, Faces, resolve  # noqa: E402
from skirmish.rules.chaosparty.odds import _odds  # noqa: E402

CASES = [
    ("plain d8 vs d6", Attack(4, 2)),
    ("all boosts, d12 vs d10", Attack(5, 5, frozenset({"raise", "floor", "overload"}),
                                      frozenset({"raise", "floor", "absorb", "counter"}), 0)),
    ("Unlimited raised d20 vs d12", Attack(8, 7, frozenset({"raise", "overload"}), frozenset({"absorb"}),
                                           unlimited=True)),
]


def monte_carlo(a: Attack, n: int, rng: random.Random) -> float:
    """Mean damage over ``n`` rolled attacks."""
    total = 0
    for _ in range(n):
        r = resolve(a, Faces(rng.randint(1, a.attack_die), rng.randint(1, a.defence_die), rng.randint(1, 20),
                             rng.randint(1, 20), rng.randint(1, 4)))
        total += r.damage
    return total / n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer rolls and repeats (a smoke run)")
    quick = ap.parse_args().quick
    n = 10**4 if quick else 10**5
    rng = random.Random(1)
    print(f"One attack: exact odds (uncached) against Monte Carlo of {n:,} rolled attacks")
    for label, a in CASES:
        ours = median_seconds(lambda: _odds.__wrapped__(a, None), repeat=5 if quick else 21)
        t0 = time.perf_counter()
        mean = monte_carlo(a, n, rng)
        mc = time.perf_counter() - t0            # one run: it takes seconds
        err = abs(mean - float(_odds.__wrapped__(a, None).expected_damage))
        print(line(f"exact odds, {label}", ours, mc, f"Monte Carlo {n:,}") + f"   (MC |error| of the mean {err:.4f})")


if __name__ == "__main__":
    main()
