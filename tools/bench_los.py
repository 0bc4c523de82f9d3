#!/usr/bin/env python3
"""Benchmark: line of sight with certificates, all pairs and single pairs.

On generated 36"x36" tables (20 models, some on roofs; 25 scenery pieces: walls,
low walls, buildings, barrels, irregular rocks, ruins), it times

* the all-pairs matrix (380 ordered pairs) with certificates,
* a single pair (median over every pair of the table),
* a naive approach: per-ray shapely tests over a 16x16 endpoint grid (16 points on
  each hitbox), on the same pairs, in the same run,

and prints the share of pairs settled by each stage of the algorithm.

    python tools/bench_los.py [--tables 5]
"""

from __future__ import annotations

import argparse
import collections
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
import shapely  # noqa: E402

from _bench import fmt, line, median_seconds  # noqa: E402
from skirmish.scenario.generate import random_table  # noqa: E402


def endpoint_grid(m, front: bool) -> np.ndarray:
    """16 points of a hitbox: 8 around the rim (front half only if ``front``) × 2 heights."""
    c = m.hitbox
    base = math.radians(m.facing)
    angles = base + (np.linspace(-math.pi / 2, math.pi / 2, 8) if front else np.linspace(0, 2 * math.pi, 8, endpoint=False))
    r = c.radius * 0.999
    xy = np.stack([c.x + r * np.cos(angles), c.y + r * np.sin(angles)], 1)
    zs = np.array([c.z + 0.25 * c.height, c.z + 0.95 * c.height])
    return np.array([(x, y, z) for x, y in xy for z in zs])


def naive_pair(table, a: str, b: str, solids) -> bool:
    """Visible when one of the 256 grid rays meets no blocking solid (shapely per ray)."""
    ma = table.model(a)
    pa, pb = endpoint_grid(ma, True), endpoint_grid(table.model(b), False)
    fx, fy = ma.facing_vector
    pb = pb[(pb[:, 0] - ma.x) * fx + (pb[:, 1] - ma.y) * fy >= 0]  # E-ARC: the line runs forward
    for p in pa:
        for q in pb:
            ray = shapely.LineString([p[:2], q[:2]])
            clear = True
            for sid, foot, z0, z1 in solids:
                if sid in (a, b) or not ray.intersects(foot):
                    continue
                part = ray.intersection(foot)
                for g in getattr(part, "geoms", [part]):
                    if g.is_empty or g.length == 0:
                        continue
                    L = ray.length
                    ts = [math.hypot(x - p[0], y - p[1]) / L for x, y in g.coords]
                    zs = [(1 - t) * p[2] + t * q[2] for t in ts]
                    if min(zs) < z1 and max(zs) > z0:
                        clear = False
                        break
                if not clear:
                    break
            if clear:
                return True
    return False


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=5, help="generated tables to average over")
    args = ap.parse_args()
    all_pairs, singles, naive_all, stages = [], [], [], collections.Counter()
    for seed in range(args.tables):
        table = random_table(random.Random(seed), models=20, scenery=25, roof_share=0.2)
        on_roofs = sum(m.z > 0 for m in table.models)
        ids = table.model_ids
        pairs = [(x, y) for x in ids for y in ids if x != y]

        def fresh():
            table.__dict__.pop("los_obstacles", None)  # include building the obstacle arrays
            return table.line_of_sight_all()

        all_pairs.append(median_seconds(fresh, repeat=7))
        results = table.line_of_sight_all()
        stages.update(r.stage for r in results)
        sample = pairs[:: max(1, len(pairs) // 60)]
        for a, b in sample:
            singles.append(median_seconds(lambda: table.line_of_sight(a, b), repeat=5))
        solids = [(m.id, m.hitbox.footprint(), m.hitbox.z, m.hitbox.top) for m in table.models]
        solids += [(s.id, s.solid.footprint, s.solid.z0, s.solid.z1) for s in table.scenery if s.blocks_los]
        t0 = time.perf_counter()
        naive = [naive_pair(table, a, b, solids) for a, b in pairs]
        naive_all.append(time.perf_counter() - t0)
        disagree = sum(n and not r.visible for n, r in zip(naive, results))
        print(f"table {seed}: {len(table.models)} models ({on_roofs} on roofs), {len(table.scenery)} scenery; "
              f"visible {sum(r.visible for r in results)}/{len(results)}; naive grid sees {sum(naive)} "
              f"(naive-visible but engine-blocked: {disagree})")
    print(line("all pairs (380) with certificates", statistics.median(all_pairs), statistics.median(naive_all),
               "naive 16x16 grid"))
    print(line("single pair", statistics.median(singles), statistics.median(naive_all) / 380, "naive 16x16 grid"))
    total = sum(stages.values())
    print("settled by stage: " + ", ".join(f"{k} {v / total:.0%}" for k, v in stages.most_common()))
    print(f"single pair: p90 {fmt(sorted(singles)[int(0.9 * len(singles))])}, max {fmt(max(singles))}")


if __name__ == "__main__":
    main()
