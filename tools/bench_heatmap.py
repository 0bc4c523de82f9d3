#!/usr/bin/env python3
"""Benchmark: exposure heatmaps, and `run --trials` on 1, 2 and 4 Dask workers.

Heatmap: on generated 36"x36" tables (20 models, 10 a side, some on roofs; 25 scenery
pieces) it times ``heatmap(table, "red", "M", step)`` on one core (median), and, on
the same run, the naive way on a sample of cells: build the table with a probe model
placed at the cell and ask ``Table.line_of_sight`` for every enemy, both ways (what
``skirmish los`` does); the ratio compares the time per cell.

Trials: ``run_trials`` of the bundled mill-ambush script on a local Dask cluster of
1, 2 and 4 workers (trials per second; the cluster's start-up is not counted).

    python tools/bench_heatmap.py [--step 2] [--tables 2 | --scenario FILE] [--sample 12] [--trials 2000] [--no-dask]
"""

from __future__ import annotations

import argparse
import dataclasses
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
from skirmish.scenario.generate import random_table  # noqa: E402
from skirmish.scenario.load import load  # noqa: E402


def naive_cell_seconds(table, hm, sample: int, rng: random.Random) -> float:
    """Seconds per standable cell the obvious way: a probe placed on the table, one `los` per enemy and way."""
    cells = [(iy, ix) for iy, row in enumerate(hm.exposure) for ix, v in enumerate(row) if v is not None]
    pick = rng.sample(cells, min(sample, len(cells)))
    t0 = time.perf_counter()
    for iy, ix in pick:
        x, y = hm.xs[ix], hm.ys[iy]
        z = max((s.top for s in table.scenery if s.walkable and s.solid.footprint.contains(
            shapely.Point(x, y))), default=0.0)
        t = dataclasses.replace(table, models=(*table.models, Model("probe", "red", "M", x, y, z)))
        exp = sum(t.line_of_sight(e, "probe").visible for e in hm.enemies)
        sees = sum(t.line_of_sight("probe", e, arc="all").visible for e in hm.enemies)
        assert (exp, sees) == (hm.exposure[iy][ix], hm.sees[iy][ix]), (x, y)
    return (time.perf_counter() - t0) / len(pick)


def bench_heatmaps(step: float, tables: int, sample: int, scenario: str | None) -> None:
    rng = random.Random(2026)
    ours, naive, cells = [], [], 0
    for k in range(tables):
        t = load(scenario) if scenario else random_table(random.Random(100 + k), models=20, scenery=25)
        t0 = time.perf_counter()
        hm = heatmap(t, "red", "M", step)
        ours.append(time.perf_counter() - t0)
        cells = len(hm.xs) * len(hm.ys)
        per_cell = naive_cell_seconds(t, hm, sample, rng)
        naive.append(per_cell * hm.standable)
        print(f"  table {k}: {cells} cells, {hm.standable} standable, {len(hm.enemies)} enemies, "
              f"{len(t.scenery)} pieces: {fmt(ours[-1])} (naive, extrapolated from {sample} cells: {fmt(naive[-1])})")
    print(line(f'heatmap 36"x36" step {step:g}" ({cells} cells)', statistics.median(ours), statistics.median(naive),
               "naive per-cell los"))


def bench_trials(trials: int) -> None:
    from skirmish.sim.script import load_with_script
    from skirmish.sim.trials import run_trials

    table, script = load_with_script(str(Path(__file__).resolve().parent.parent / "scenarios" / "mill-ambush.toml"))
    t0 = time.perf_counter()
    one = run_trials(table, script, trials, seed=1)
    base = time.perf_counter() - t0
    print(f"trials, one process (no Dask):{'':14} {trials / base:8.0f} trials/s")
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
    ap.add_argument("--step", type=float, default=2.0)
    ap.add_argument("--tables", type=int, default=2)
    ap.add_argument("--sample", type=int, default=12, help="cells for the naive baseline per table")
    ap.add_argument("--trials", type=int, default=2000)
    ap.add_argument("--no-dask", action="store_true", help="skip the trials scaling line")
    ap.add_argument("--no-heatmap", action="store_true", help="only the trials scaling line")
    ap.add_argument("--scenario", help="time this table instead of generated ones (e.g. scenarios/dense-ruins.toml)")
    args = ap.parse_args()
    if not args.no_heatmap:
        bench_heatmaps(args.step, 1 if args.scenario else args.tables, args.sample, args.scenario)
    if not args.no_dask:
        bench_trials(args.trials)


if __name__ == "__main__":
    main()
