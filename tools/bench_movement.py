#!/usr/bin/env python3
"""Benchmark: movement on the dense bundled table (scenarios/dense-ruins.toml).

Times, over several models (on the ground and on roofs) and target points:

* the shortest path (``Table.plan_move``): *cold* (a fresh table: builds the model's
  configuration space, visibility graph and shortest-path tree) and *warm* (the same
  model again: only the target is connected);
* the movement range (``Table.movement_range``), cold and warm;
* checking a 5-leg declared path (``Table.check_move``), warm and cold;
* the baseline in the same run: A* on a grid of 0.1" cells, every cell and move checked
  exactly, for the same ground targets; its time, the ratio, and the length difference
  (the visibility graph's path must never be longer).

    python tools/bench_movement.py [--targets 6]
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402

from _bench import fmt, line, median_seconds  # noqa: E402
from skirmish.geometry import paths as P  # noqa: E402
from skirmish.scenario.load import load  # noqa: E402

GROUND = ("red-1", "blue-1", "red-5", "blue-7")
ROOFS = ("red-2", "blue-6")


def targets(table, mid: str, n: int, seed: int) -> list[tuple[float, float]]:
    """Legal ground end points for ``mid``, spread over the table."""
    ends = table._mv_mover(mid).space(0).end
    pts = np.random.default_rng(seed).uniform(2, 34, (400, 2))
    return [tuple(map(float, p)) for p in pts[ends.point_free(pts)][:n]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--targets", type=int, default=6, help="target points per model")
    args = ap.parse_args()
    base = load(ROOT / "scenarios" / "dense-ruins.toml")
    fresh = lambda: dataclasses.replace(base)  # noqa: E731  (a new table: no caches)
    print(f"{base!r}: {len(base.scenery)} scenery pieces, {len(base.models)} models; "
          f"surfaces at z = {', '.join(f'{s.z:g}' for s in base.surfaces)}")

    cold, warm, ours_len, grid_len, grid_time, ratios = [], [], [], [], [], []
    nodes = []
    for k, mid in enumerate(GROUND + ROOFS):
        for q in targets(base, mid, args.targets, k):
            cold.append(median_seconds(lambda: fresh().plan_move(mid, q), repeat=3))
            t = fresh()
            t.plan_move(mid, q)
            warm.append(median_seconds(lambda: t.plan_move(mid, q), repeat=5))
        nodes.append(len(t._mv_mover(mid).net().xy))
    # the grid baseline, ground models only (it plans on one surface)
    for k, mid in enumerate(GROUND):
        t = fresh()
        mv = t._mv_mover(mid)
        for q in targets(base, mid, max(2, args.targets // 3), k):
            t0 = time.perf_counter()
            g = P.grid_shortest_path(mv.space(0).trav, mv.start, q, cell=0.1)
            grid_time.append(time.perf_counter() - t0)
            plan = t.plan_move(mid, q, budget=1e9)
            if g is not None:
                ours_len.append(plan.length)
                grid_len.append(g[0])
                ratios.append(g[0] / plan.length)
    print(line("shortest path, cold (builds the graph)", statistics.median(cold), statistics.median(grid_time),
               "grid A* 0.1in"))
    print(line("shortest path, warm (same model)", statistics.median(warm), statistics.median(grid_time),
               "grid A* 0.1in"))
    diff = np.array(grid_len) - np.array(ours_len)
    print(f"path length: ours - grid: min {(-diff).min():+.4f} in, median {np.median(-diff):+.4f} in "
          f"(ours never longer: {bool((diff >= -1e-9).all())}); grid / ours median x{statistics.median(ratios):.4f}; "
          f"{len(diff)} paths")
    print(f"graph size: {min(nodes)}..{max(nodes)} nodes per model")

    rc, rw, areas = [], [], []
    for mid in GROUND + ROOFS:
        rc.append(median_seconds(lambda: fresh().movement_range(mid), repeat=3))
        t = fresh()
        areas.append(t.movement_range(mid).area)
        rw.append(median_seconds(lambda: t.movement_range(mid), repeat=5))
    print(line("movement range, cold", statistics.median(rc)))
    print(line("movement range, warm", statistics.median(rw)))
    print(f"range areas: {', '.join(f'{a:.1f}' for a in areas)} sq in")

    cw, cc = [], []
    for k, mid in enumerate(GROUND):
        t = fresh()
        pts = targets(base, mid, 5, 100 + k)
        legs = [(p[0], p[1]) for p in pts]
        t.check_move(mid, legs)
        cw.append(median_seconds(lambda: t.check_move(mid, legs), repeat=50))
        cc.append(median_seconds(lambda: fresh().check_move(mid, legs), repeat=5))
    print(line("check a 5-leg declared path, warm", statistics.median(cw)))
    print(line("check a 5-leg declared path, cold", statistics.median(cc)))
    print(f"targets: shortest path <= 20 ms: {'yes' if statistics.median(cold) <= 0.02 else 'NO'} (cold "
          f"{fmt(statistics.median(cold)).strip()}, warm {fmt(statistics.median(warm)).strip()}); movement range "
          f"<= 100 ms: {'yes' if statistics.median(rc) <= 0.1 else 'NO'}; 5-leg check <= 1 ms: "
          f"{'yes' if statistics.median(cw) <= 0.001 else 'NO'}")


if __name__ == "__main__":
    main()
