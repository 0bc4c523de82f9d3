"""``skirmish check FILE``: validate a scenario and print a one-screen summary."""

from __future__ import annotations

import argparse
from typing import Any

from ..maps.table import Table
from ._output import add_json_flag, emit_json
from ._scenario import add_scenario_args, load_table


def register(sub: Any) -> None:
    p = sub.add_parser("check", help="validate a scenario file and summarise it",
                       description="Validate a scenario file; print a summary, or the first error (exit 2).")
    add_scenario_args(p)
    add_json_flag(p)
    p.set_defaults(func=run)


def summary(table: Table) -> dict[str, Any]:
    return {
        "name": table.name, "mode": table.mode.value, "table": [table.width, table.depth],
        "scenery": [{"id": s.id, "shape": s.shape, "base": s.base, "top": s.top, "blocks_los": s.blocks_los,
                     "walkable": s.walkable} for s in table.scenery],
        "models": [{"id": m.id, "side": m.side, "size": m.size, "at": [m.x, m.y], "z": m.z, "facing": m.facing,
                    "diameter": m.base_diameter, "height": m.hitbox_height, "attributes": dict(m.attributes),
                    "weapons": [w.name for w in m.weapons], "states": sorted(m.states)} for m in table.models],
    }


def run(args: argparse.Namespace) -> int:
    table = load_table(args)
    if args.json:
        emit_json({"ok": True, **summary(table)})
        return 0
    title = f'"{table.name}"' if table.name else args.scenario
    print(f"{title}: ok — {table.width:g} x {table.depth:g} in table, {table.mode.value} mode")
    if table.scenery:
        print(f"scenery ({len(table.scenery)}):")
        for s in table.scenery:
            flags = ", ".join(f for f, on in (("blocks LoS", s.blocks_los), ("walkable top", s.walkable)) if on)
            print(f"  {s.id:<16} {s.shape:<7} z {s.base:.3g}..{s.top:.3g} in   {flags}")
    for side in table.sides:
        models = table.models_of_side(side)
        print(f"side {side} ({len(models)}):")
        for m in models:
            up = f" z={m.z:g}" if m.z else ""
            weapons = ", ".join(w.name for w in m.weapons)
            states = f" [{', '.join(sorted(m.states))}]" if m.states else ""
            print(f"  {m.id:<16} {m.size} at ({m.x:g}, {m.y:g}){up} facing {m.facing:g}°"
                  f"{'  ' + weapons if weapons else ''}{states}")
    return 0
