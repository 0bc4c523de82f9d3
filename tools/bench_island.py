"""Spirit island benchmarks: all-pairs region steps (one BFS per region) against a naive
Floyd–Warshall, and a whole invaders' phase and game on the shipped island.

    python tools/bench_island.py
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from _bench import line, median_seconds  # noqa: E402

import skirmish  # noqa: E402
from skirmish.maps.regions import Regions  # noqa: E402
from skirmish.rules.spiritisland import Land, invader_phase, island, play_game  # noqa: E402


def random_island(n: int, degree: int, seed: int) -> Regions:
    rng = random.Random(seed)
    lands = [Land(f"r{i}", "jungle", dahan=1,
                  neighbours=tuple(f"r{j}" for j in rng.sample(range(i), min(i, degree)))) for i in range(n)]
    return Regions(island(lands))


def floyd_warshall(m: Regions) -> list[list[float]]:
    ids = m.island.ids
    idx = {r: i for i, r in enumerate(ids)}
    n = len(ids)
    d = [[0.0 if i == j else math.inf for j in range(n)] for i in range(n)]
    for a, b in m.island.borders():
        d[idx[a]][idx[b]] = d[idx[b]][idx[a]] = 1.0
    for k in range(n):
        dk = d[k]
        for i in range(n):
            di, dik = d[i], d[i][k]
            for j in range(n):
                if dik + dk[j] < di[j]:
                    di[j] = dik + dk[j]
    return d


def main() -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()  # (--help)
    for n in (50, 150):
        m = random_island(n, 3, n)

        def ours() -> None:
            Regions(m.island.__class__(m.island.lands)).distance_matrix()  # a fresh island: no kept searches

        print(line(f"all-pairs steps, {n} regions (BFS)", median_seconds(ours, repeat=5),
                   median_seconds(lambda: floyd_warshall(m), repeat=3), "Floyd-Warshall"))
    isle = skirmish.load(ROOT / "scenarios" / "island.toml")
    print(line("one invaders' phase, shipped island", median_seconds(
        lambda: invader_phase(isle.island, ["wetland"], random.Random(1)), repeat=50)))
    print(line("one 12-round game, shipped island", median_seconds(
        lambda: play_game(isle.island, random.Random(4)), repeat=10)))


if __name__ == "__main__":
    main()
