#!/usr/bin/env python3
"""Benchmark: the all-pairs E-DIST matrix (vectorised) against a per-pair loop.

    python tools/bench_distance.py
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402

from _bench import line, median_seconds  # noqa: E402
from skirmish.scenario.generate import random_table  # noqa: E402


def per_pair(table) -> np.ndarray:
    ids = table.model_ids
    out = np.zeros((len(ids), len(ids)))
    for i, a in enumerate(ids):
        for j, b in enumerate(ids):
            out[i, j] = table.distance(a, b) if a != b else 0.0
    return out


def main() -> None:
    argparse.ArgumentParser(description=__doc__.split("\n\n")[0]).parse_args()  # (--help)
    for n in (20, 200):
        table = random_table(random.Random(n), models=n, scenery=25, width=36 * (n / 20) ** 0.5,
                             depth=36 * (n / 20) ** 0.5)
        assert len(table.models) == n, len(table.models)
        ours = median_seconds(lambda: table.distance_matrix(), repeat=21)
        naive = median_seconds(lambda: per_pair(table), repeat=5 if n > 50 else 15)
        assert np.allclose(table.distance_matrix()[1], per_pair(table))
        print(line(f"distance matrix, {n} models ({n * (n - 1)} pairs)", ours, naive, "per-pair loop"))


if __name__ == "__main__":
    main()
