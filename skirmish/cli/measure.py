"""``skirmish measure FILE A B``: E-DIST, contact, arc, Awareness and reach, under the mode."""

from __future__ import annotations

import argparse
from typing import Any

from ._output import add_json_flag, emit_json
from ._scenario import add_scenario_args, load_table


def register(sub: Any) -> None:
    p = sub.add_parser("measure", help="measure between two models (respects the measurement mode)",
                       description="Distance between the nearest points of two hitboxes (E-DIST), base contact, "
                       "the arc of A that B is in, B in A's Awareness, and A's weapons' reach. Standard mode "
                       "withholds distances beyond max(Awareness, Movement); Realism refuses unless --declared.")
    add_scenario_args(p)
    p.add_argument("a", help="the measuring model's id")
    p.add_argument("b", help="the other model's id")
    p.add_argument("--declared", action="store_true",
                   help="the measurement resolves a declared action: always exact (E-MODE)")
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    table = load_table(args)
    m = table.measure(args.a, args.b, declared=args.declared)
    reaches = [table.reach(args.a, args.b, w) for w in table.weapons_of(args.a)] if m.distance is not None else []
    if args.json:
        emit_json({**m.to_json(), "reach": [r.to_json() for r in reaches]})
        return 0
    if m.distance is not None:
        print(f"{m.frm} -> {m.to}: {m.distance:.2f} in ({m.distance * 25.4:.1f} mm)")
    else:
        print(f"{m.frm} -> {m.to}: beyond {m.beyond:g} in ({m.mode.value} mode: {m.frm} may pre-measure only "
              f"within max(Awareness, Movement) = {m.beyond:g} in)")
    print(f"  base contact: {'yes' if m.base_contact else 'no'}")
    print(f"  arc: {m.to} is in {m.frm}'s {m.arc} arc")
    if m.in_awareness is not None:
        print(f"  awareness: {m.to} is {'within' if m.in_awareness else 'outside'} {m.frm}'s Awareness")
    for r in reaches:
        if r.in_reach:
            acc = f", Accuracy {r.accuracy:+d}" if r.accuracy else ""
            print(f"  {r.weapon}: in reach (band {r.band + 1}{acc})")
        else:
            print(f"  {r.weapon}: out of reach (reach {r.max_range:g} in)")
    return 0
