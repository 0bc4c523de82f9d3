"""``skirmish measure FILE A B``: the distance between two models, on any map.

On the table: E-DIST, contact, arc, Awareness and reach, under the measurement mode.
On a grid of rooms: steps between rooms, the path, same room (contact and sight),
adjacency (P-REINF) and the reach of A's abilities.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import UsageError
from ..maps.base import Map
from ..maps.grid import Grid, room_text
from ..maps.regions import Regions
from ..maps.table import Table
from ._commands import COMMANDS
from ._output import add_json_flag, emit_json
from ._scenario import add_scenario_args, load_table


def register(sub: Any) -> None:
    p = sub.add_parser("measure", help=COMMANDS["measure"],
                       description="Table: distance between the nearest points of two hitboxes (E-DIST), base "
                       "contact, the arc of A that B is in, B in A's Awareness, and A's weapons' reach; Standard mode "
                       "withholds distances beyond max(Awareness, Movement), Realism refuses unless --declared. "
                       "Grid of rooms: steps between the rooms through rooms that share a side, the path, whether "
                       "they share a room (contact, line of sight, reach) or rooms next to each other (P-REINF).")
    add_scenario_args(p)
    p.add_argument("a", help="the measuring model's id")
    p.add_argument("b", help="the other model's id")
    p.add_argument("--declared", action="store_true",
                   help="the measurement resolves a declared action: always exact (E-MODE)")
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    m = load_table(args)
    if args.a == args.b:
        raise UsageError(f"measure from {args.a!r} to itself: pick two different models", kind="same_model")
    if isinstance(m, Table):
        return run_table(args, m)
    if isinstance(m, Grid):
        return run_grid(args, m)
    if isinstance(m, Regions):  # the Spirit island (skirmish/cli/island.py)
        from .island import measure_doc, measure_lines
        if args.json:
            emit_json(measure_doc(m, args.a, args.b))
        else:
            print("\n".join(measure_lines(m, args.a, args.b)))
        return 0
    return run_generic(args, m)


def run_table(args: argparse.Namespace, table: Table) -> int:
    m = table.measure(args.a, args.b, declared=args.declared)
    reaches = [table.reach(args.a, args.b, w) for w in table.weapons_of(args.a)] if m.distance is not None else []
    if args.json:
        emit_json({**m.to_json(), "unit": table.unit, "reach": [r.to_json() for r in reaches]})
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
        if r.in_reach and r.band is not None:
            print(f"  {r.weapon}: in reach (band {r.band}, Accuracy {r.accuracy or 0:+d})")
        else:
            print(f"  {r.weapon}: out of reach (reach {r.max_range:g} in)")
    return 0


def grid_measure(grid: Grid, a: str, b: str) -> dict[str, Any]:
    """The ``measure --json`` document on a grid."""
    ra, rb = grid.room_of(a), grid.room_of(b)
    steps = grid.distance(a, b)
    return {"from": a, "to": b, "unit": grid.unit, "distance": int(steps), "from_room": list(ra), "to_room": list(rb),
            "path": [list(r) for r in grid.path(ra, rb)], "base_contact": grid.in_contact(a, b),
            "line_of_sight": ra == rb, "adjacent": grid.adjacent(ra, rb), "can_reinforce": grid.can_reinforce(a, rb),
            "reach": [r.to_json() for r in grid.reaches(a, b)]}


def run_grid(args: argparse.Namespace, grid: Grid) -> int:
    d = grid_measure(grid, args.a, args.b)
    if args.json:
        emit_json(d)
        return 0
    n = d["distance"]
    ra, rb = tuple(d["from_room"]), tuple(d["to_room"])
    print(f"{args.a} -> {args.b}: {n} step{'s' * (n != 1)} ({'same room ' + room_text(ra) if n == 0 else room_text(ra) + ' to ' + room_text(rb)})")
    if n:
        print(f"  path: {' -> '.join(room_text(tuple(r)) for r in d['path'])}")
    print(f"  same room (contact, line of sight): {'yes' if d['base_contact'] else 'no'}")
    if d["adjacent"]:
        print(f"  adjacent rooms: yes{' — ' + args.a + ' may join a fight there (P-REINF)' if d['can_reinforce'] else ''}")
    for r in grid.reaches(args.a, args.b):
        print(f"  {r.weapon}: {'in reach (same room)' if r.in_reach else 'out of reach (it reaches its own room only)'}")
    return 0


def run_generic(args: argparse.Namespace, m: Map) -> int:
    d = m.distance(args.a, args.b)
    contact = m.in_contact(args.a, args.b)
    if args.json:
        emit_json({"from": args.a, "to": args.b, "unit": m.unit, "distance": d, "base_contact": contact})
    else:
        print(f"{args.a} -> {args.b}: {d:g} {m.unit}\n  contact: {'yes' if contact else 'no'}")
    return 0
