"""``skirmish run FILE``: play a scenario's script once (logged) or many times (a report)."""

from __future__ import annotations

import argparse
import random
from typing import Any

from ..errors import SkirmishError
from ..scale import job_rng
from ..sim.engine import Simulator
from ..sim.script import load_with_script
from ..sim.trials import MAX_TRIALS, STATES, run_trials
from ..wording import count
from ._commands import COMMANDS
from ._games import one_or_many, seed_value
from ._output import add_json_flag, emit_json
from ._progress import progress_bar
from ._scale import add_scale_args, scale_kwargs
from ._values import whole_number


def register(sub: Any) -> None:
    p = sub.add_parser("run", help=COMMANDS["run"],
                       description="Resolve the declared actions of a scenario's [[script]] on the table: paths, "
                       "line of sight, reach and cover from the geometry; d20 dice from a seeded generator. "
                       "With --trials, repeat with independent seeds and report end states and Wounds per action.")
    p.add_argument("scenario", help="scenario file (.toml) with a [[script]]")
    p.add_argument("--seed", type=seed_value, help="the seed (default: a fresh one, printed so the run can be replayed)")
    p.add_argument("--trials", type=int, help="play the script this many times and report the distributions")
    p.add_argument("--trial", type=whole_number(0, "a trial's number in the run,"), metavar="I",
                   help="play trial I of the --trials run with this --seed once, with its log (from 0)")
    add_scale_args(p, "--trials")
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    table, script = load_with_script(args.scenario)
    if not script.actions:
        raise SkirmishError(f"{args.scenario}: the scenario has no [[script]] to run (see docs/simulation.md)")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    one_or_many(args.trial, args.trials, "trial")
    if args.trials is None:
        sim = Simulator(table, script)
        sim.validate()
        # (trial I of the --trials run with this --seed, with its log: 0 by default, as `play`'s game 0)
        trial = args.trial or 0
        result = sim.run(job_rng(seed, trial))
        again = f"--seed {seed}" + (f" --trial {trial}" if trial else "")
        if args.json:
            for e in result.events:
                emit_json(e.to_json(), indent=None)
            emit_json({"seed": seed, "trial": trial, "states": {m: s.value for m, s in result.states.items()}},
                      indent=None)
        else:
            print(f"Seed {seed} (replay with {again})")
            for e in result.events:
                print(f"{e.action + 1:>2}. {e.text}")
            print("End states: " + ", ".join(f"{m} {s.value}" for m, s in result.states.items()))
        return 0
    if not 1 <= args.trials <= MAX_TRIALS:
        raise SkirmishError(f"--trials must be between 1 and {MAX_TRIALS:,}, got {args.trials:,}"
                            + ("; run a bigger study as several runs with different --seed" if args.trials > 1 else ""),
                            kind="range")
    scale = scale_kwargs(args)
    with progress_bar(args.trials, "trials", unit="trial") as update:
        report = run_trials(table, script, args.trials, seed=seed, progress=lambda done, _: update(done), **scale)
    if args.json:
        emit_json(report.to_json())
        return 0
    n = report.trials
    print(f"{count(n, 'trial')} from seed {seed}")
    print(f"{'model':<14}" + "".join(f"{s.value:>15}" for s in STATES))
    for m, counts in report.states.items():
        print(f"{m:<14}" + "".join(f"{counts[s.value] / n:>14.1%} " for s in STATES))
    print("Wounds dealt per action each time it was resolved (simulated mean with its standard error, and exact "
          "where the exchange never varied):")
    for a in report.actions:
        w, b = a.mean()
        w_se, b_se = a.se()
        exact = f"   exact {float(a.exact_wounds):.4f}" if a.exact_wounds is not None else ""
        back = f", back {b:.3f}{_se_text(b_se)}" if b else ""
        print(f"{a.index + 1:>2}. {a.text:<44} {w:.3f}{_se_text(w_se)}{back}{exact}  (resolved in {a.resolved / n:.0%})")
    return 0


def _se_text(se: float | None) -> str:
    """`` (SE 0.012)`` after a mean; nothing when fewer than two trials resolved the action."""
    return "" if se is None else f" (SE {se:.3f})"
