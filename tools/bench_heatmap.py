#!/usr/bin/env python3
"""Benchmark: exposure heatmaps, and `run --trials` on 1, 2 and 4 Dask workers.

Heatmap: on scenarios/dense-ruins.toml (36"x36", 25 scenery pieces, 10 enemy models,
some on roofs) it times ``heatmap(table, "red", "M", step)`` on one core at step 1" and
0.5" (median wall time, and the median CPU time of this process: the machine is shared),
counts the cells left with an undecided line of sight, and measures the naive way in the
same run on a sample of cells: the table with a probe model placed at the cell, then
``Table.line_of_sight`` for every enemy, both ways (what ``skirmish los`` does); its time
per cell, times the standable cells, is the baseline of the ratio.

Trials: ``run_trials`` of the bundled mill-ambush script on a local Dask cluster of
1, 2 and 4 workers (trials per second; the cluster's start-up is not counted).

    python tools/bench_heatmap.py [--steps 1 0.5] [--repeat 3] [--sample 24] [--scenario FILE]
                                  [--trials 2000] [--no-dask] [--no-heatmap]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import shapely  # noqa: E402

from _bench import fmt, line  # noqa: E402
from skirmish.analysis.heatmap import heatmap  # noqa: E402
from skirmish.maps.pieces import Model  # noqa: E402
from skirmish.scenario.load import load  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def naive_cell_seconds(table, hm, sample: int, rng: random.Random) -> tuple[float, float]:
    """Wall and CPU seconds per standable cell the obvious way: a probe placed on the table,
    one `los` per enemy and way. Checks the heatmap's counts on the way (where `los` gave
    up on a pair, the heatmap may hold a witness for it)."""
    cells = [(iy, ix) for iy, row in enumerate(hm.exposure) for ix, v in enumerate(row) if v is not None]
    pick = rng.sample(cells, min(sample, len(cells)))
    t0, c0 = time.perf_counter(), time.process_time()
    for iy, ix in pick:
        x, y = hm.xs[ix], hm.ys[iy]
        z = max((s.top for s in table.scenery if s.walkable and s.solid.footprint.contains(
            shapely.Point(x, y))), default=0.0)
        t = dataclasses.replace(table, models=(*table.models, Model("probe", hm.side, hm.size, x, y, z)))
        front = [t.line_of_sight(e, "probe") for e in hm.enemies]
        around = [t.line_of_sight("probe", e, arc="all") for e in hm.enemies]
        for answers, ours in ((front, hm.exposure[iy][ix]), (around, hm.sees[iy][ix])):
            seen = sum(a.visible for a in answers)
            assert seen <= ours <= seen + sum(not a.certified for a in answers), (x, y)
    return (time.perf_counter() - t0) / len(pick), (time.process_time() - c0) / len(pick)


def bench_heatmaps(steps: list[float], repeat: int, sample: int, scenario: str) -> None:
    table = load(scenario)
    name = Path(scenario).name
    for step in steps:
        wall, cpu = [], []
        for _ in range(repeat):
            t0, c0 = time.perf_counter(), time.process_time()
            hm = heatmap(table, "red", "M", step)
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        n_wall, n_cpu = naive_cell_seconds(table, hm, sample, random.Random(2026))
        cells = len(hm.xs) * len(hm.ys)
        print(line(f'heatmap {name} step {step:g}" ({cells} cells)', statistics.median(wall),
                   n_wall * hm.standable, "naive per-cell los"))
        print(f"  CPU {fmt(statistics.median(cpu))} (naive {fmt(n_cpu * hm.standable)}, ratio "
              f"x{n_cpu * hm.standable / statistics.median(cpu):,.1f}); {hm.standable} standable cells, "
              f"{len(hm.enemies)} enemies, {len(table.scenery)} pieces; {len(hm.undecided)} undecided cell(s); "
              f"{repeat} run(s), naive extrapolated from {min(sample, hm.standable)} cells", flush=True)


def bench_trials(trials: int) -> None:
    from skirmish.sim.script import load_with_script
    from skirmish.sim.trials import run_trials

    table, script = load_with_script(str(ROOT / "scenarios" / "mill-ambush.toml"))
    t0 = time.perf_counter()
    one = run_trials(table, script, trials, seed=1)
    base = time.perf_counter() - t0
    print(f"trials, one process (no Dask):{'':14} {trials / base:8.0f} trials/s "
          f"({trials} trials of mill-ambush; this machine has {os.cpu_count()} cores)")
    import distributed

    for n in (1, 2, 4):
        with distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1",
                                      dashboard_address=None, silence_logs=40) as cluster:
            addr = cluster.scheduler_address
            run_trials(table, script, 250, seed=0, scheduler=addr)  # warm the workers
            t0 = time.perf_counter()
            rep = run_trials(table, script, trials, seed=1, scheduler=addr)
            dt = time.perf_counter() - t0
        assert rep == one
        print(f"trials on {n} Dask worker{'s' if n > 1 else ' '}:{'':20} {trials / dt:8.0f} trials/s "
              f"(x{base / dt:.2f} vs one process)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=float, nargs="+", default=[1.0, 0.5])
    ap.add_argument("--repeat", type=int, default=3, help="heatmap runs per step (the median is printed)")
    ap.add_argument("--sample", type=int, default=24, help="cells for the naive baseline")
    ap.add_argument("--scenario", default=str(ROOT / "scenarios" / "dense-ruins.toml"))
    ap.add_argument("--trials", type=int, default=2000)
    ap.add_argument("--no-dask", action="store_true", help="skip the trials scaling line")
    ap.add_argument("--no-heatmap", action="store_true", help="only the trials scaling line")
    args = ap.parse_args()
    if not args.no_heatmap:
        bench_heatmaps(args.steps, args.repeat, args.sample, args.scenario)
    if not args.no_dask:
        bench_trials(args.trials)


if __name__ == "__main__":
    main()
