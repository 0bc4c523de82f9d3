#!/usr/bin/env python3
"""Benchmark: trials per second of a 6-action script on the dense table, 1 and 2 workers.

The script (three ranged attacks with Dodges and Confrontations, on pairs that can see
each other) is built from scenarios/dense-ruins.toml.

    python tools/bench_sim.py [--trials 20000]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from skirmish.rules.eldfall.weapons import ranged  # noqa: E402
from skirmish.scenario.load import load  # noqa: E402
from skirmish.sim.script import Action, Script  # noqa: E402
from skirmish.sim.trials import run_trials  # noqa: E402
import dataclasses  # noqa: E402


def dense_script():
    table = load(ROOT / "scenarios" / "dense-ruins.toml")
    bow = ranged("Bench Bow", [(24.0, 0), (48.0, -3)], pw=10)
    table = dataclasses.replace(table, models=tuple(dataclasses.replace(m, weapons=(bow,)) for m in table.models))
    actions = []
    for r in table.line_of_sight_all():
        if r.visible and table.side_of(r.frm) != table.side_of(r.to) and len(actions) < 6:
            if any(a.actor == r.frm or a.target == r.frm for a in actions):
                continue
            reaction = ("dodge", "none", "attack")[len(actions) % 3]
            back = table.line_of_sight(r.to, r.frm).visible
            actions.append(Action(len(actions), r.frm, "attack", target=r.to,
                                  reaction=reaction if reaction != "attack" or back else "dodge"))
    return table, Script(tuple(actions), "dense-ruins.toml")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trials", type=int, default=20000)
    args = ap.parse_args()
    table, script = dense_script()
    print(f"script: {len(script)} actions: " + "; ".join(a.describe() for a in script.actions))
    times = {}
    for workers in (1, 2):
        t0 = time.perf_counter()
        report = run_trials(table, script, args.trials, seed=1, workers=workers)
        times[workers] = time.perf_counter() - t0
        print(f"{args.trials} trials, {workers} worker(s): {times[workers]:.2f} s   "
              f"{args.trials / times[workers]:,.0f} trials/s")
    print(f"speed-up with 2 workers: x{times[1] / times[2]:.2f} (identical reports: same seeds per trial)")
    assert report.trials == args.trials


if __name__ == "__main__":
    main()
