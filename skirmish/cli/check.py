"""``skirmish check FILE``: validate a scenario and print a one-screen summary (any map kind)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from ..errors import SkirmishError
from ..maps.base import Map
from ..maps.grid import CREATURES, Grid, room_text
from ..maps.pieces import Model
from ..maps.regions import Regions
from ..maps.table import Table
from ._commands import COMMANDS
from ._output import add_json_flag, emit_json
from ._scenario import add_scenario_args, load_table

if TYPE_CHECKING:
    from ..game.eldfall.settings import GameSettings


def register(sub: Any) -> None:
    p = sub.add_parser("check", help=COMMANDS["check"],
                       description="Validate a scenario file (a table, or a Party Hard grid of rooms); print a "
                       "summary, or the first error (exit 2).")
    add_scenario_args(p)
    add_json_flag(p)
    p.set_defaults(func=run)


def summary(table: Table) -> dict[str, Any]:
    return {
        "name": table.name, "mode": table.mode.value, "table": [table.width, table.depth],
        "scenery": [{"id": s.id, "shape": s.shape, "base": s.base, "top": s.top, "blocks_los": s.blocks_los,
                     "walkable": s.walkable} for s in table.scenery],
        "models": [_model_json(m, placed=True) for m in table.models],
        # E-DEPLOY: the models without `at`, placed when a game deploys them
        "reserve": [_model_json(m, placed=False) for m in table.catalogue.reserve],
    }


def _model_json(m: Model, *, placed: bool) -> dict[str, Any]:
    """A model in ``check --json``; where it stands only when it is ``placed`` (not in the reserve)."""
    where = {"at": [m.x, m.y], "z": m.z, "facing": m.facing} if placed else {}
    return {"id": m.id, "side": m.side, "size": m.size, **where, "diameter": m.base_diameter,
            "height": m.hitbox_height, "attributes": dict(m.attributes), "weapons": [w.name for w in m.weapons],
            "states": sorted(m.states)}


def _is_duel(path: str) -> bool:
    from ..scenario.load import parse_toml, read_source

    try:
        return parse_toml(read_source(path), path).get("game") == "chaosparty"
    except SkirmishError:  # (not readable as TOML: the map loader says why)
        return False


def run_duel(args: argparse.Namespace) -> int:
    """``check`` of a Chaos Party duel file: its players, their characters and the bag."""
    from ..scenario.chaos import load_duel
    from .chaos import player_json, tokens_json

    if getattr(args, "mode", None):
        raise SkirmishError(f"--mode: measurement modes (E-MODE) apply to the table; {args.scenario} is a Chaos "
                            "Party duel", kind="map_kind")
    duel = load_duel(args.scenario)
    if args.json:
        emit_json({"ok": True, "duel": duel.name, "players": [player_json(p) for p in duel.players],
                   "bag": tokens_json(duel.bag), "max_turns": duel.max_turns})
        return 0
    print(f"{duel.name or args.scenario}: ok — Chaos Party duel, {len(duel.players)} players, "
          f"turn limit {duel.max_turns} (`skirmish chaos play` plays it)")
    for p in duel.players:
        chars = ", ".join(f"{c.id} {c.time}/{c.form}/{c.attack}/{c.defence}" for c in p.characters)
        print(f"  {p.id}: {chars} (time/form/attack/defence)")
    return 0


def grid_summary(grid: Grid) -> dict[str, Any]:
    """The ``check --json`` document of a grid: its layout (rooms, walls, rows) and every piece."""
    return {"name": grid.name, **{k: v for k, v in grid.layout().items() if k != "name"}}


def generic_summary(m: Map) -> dict[str, Any]:
    return {"map": m.kind, "unit": m.unit, "models": [{"id": i, "side": m.side_of(i)} for i in m.model_ids]}


def run(args: argparse.Namespace) -> int:
    if _is_duel(args.scenario):  # a Chaos Party duel: no map (docs/chaos-format.md)
        return run_duel(args)
    m = load_table(args)
    if isinstance(m, Table):
        return run_table(args, m)
    if isinstance(m, Grid):
        if args.json:
            emit_json({"ok": True, **grid_summary(m)})
        else:
            print("\n".join(grid_lines(m, args.scenario)))
        return 0
    if isinstance(m, Regions):  # the Spirit island (skirmish/cli/island.py)
        from .island import check_lines
        if args.json:
            emit_json({"ok": True, **m.layout()})
        else:
            print("\n".join(check_lines(m, args.scenario)))
        return 0
    if args.json:
        emit_json({"ok": True, **generic_summary(m)})
    else:
        print(f"{args.scenario}: ok — {m.kind} map, {len(m.model_ids)} models")
    return 0


def run_table(args: argparse.Namespace, table: Table) -> int:
    from ..game.eldfall.settings import parse_settings, unused_notes
    from ..sim.script import parse_script  # the [[script]] is checked when read (docs/simulation.md)

    script = parse_script(list(table.catalogue.script), table, args.scenario)  # (kept on the table as read)
    notes = unused_notes(table)
    game = table.catalogue.game
    # [game] settings are for `skirmish play`: checked here too
    settings = None if game is None else parse_settings(game, table, args.scenario)
    if args.json:
        emit_json({"ok": True, **summary(table), "script": len(script.actions), "game": game, "notes": list(notes)})
        return 0
    title = f'"{table.name}"' if table.name else args.scenario
    print(f"{title}: ok — {table.width:g} x {table.depth:g} in table, {table.mode.value} mode")
    if table.scenery:
        print(f"scenery ({len(table.scenery)}):")
        for s in table.scenery:
            flags = ", ".join(f for f, on in (("blocks LoS", s.blocks_los), ("walkable top", s.walkable)) if on)
            print(f"  {s.id:<16} {s.shape:<7} z {s.base:.3g}..{s.top:.3g} in   {flags}")
    reserve = table.catalogue.reserve
    for side in table.all_sides():
        models = table.models_of_side(side) if side in table.sides else ()
        waiting = [m for m in reserve if m.side == side]
        print(f"side {side} ({len(models) + len(waiting)}):")
        for m in (*models, *waiting):
            face = table.on_face(m.id) if m.z and m not in waiting else None
            up = (f" z={m.z:g}" if m.z else "") + (f" on the face of {face[1]} (E-MOVE-CLIMB)" if face else "")
            weapons = ", ".join(w.name for w in m.weapons)
            states = f" [{', '.join(sorted(m.states))}]" if m.states else ""
            where = "in reserve (deployed by `skirmish play`)" if m in waiting else \
                f"at ({m.x:g}, {m.y:g}){up} facing {m.facing:g}°"
            print(f"  {m.id:<16} {m.size} {where}{'  ' + weapons if weapons else ''}{states}")
    if script.actions:
        n = len(script.actions)
        print(f"script: {n} declared action{'s' * (n != 1)} (ids and weapons checked; `skirmish run` plays it)")
    if settings is not None:
        print(f"game (`skirmish play`): {game_line(settings)}")
    for note in notes:
        print(f"note: {note}")
    return 0


def game_line(s: GameSettings) -> str:
    """The ``[game]`` settings as played, defaults included: ``rounds 3, first by initiative, ...``."""
    zones = ", ".join(f"{side} " + (z if isinstance(z, str) else "[" + ", ".join(f"{v:g}" for v in z) + "]")
                      for side, z in s.zones.items())
    parts = [f"rounds {s.rounds}", f"first {s.first}" if s.first else "first by initiative", f"VP cap {s.vp_cap}",
             f"zones {zones}" if zones else "zones: the second side picks an edge", f"zone depth {s.zone_depth:g} in",
             f"reroll {s.reroll}"]
    if s.vp:
        parts.append("VP " + ", ".join(f"{m} {v}" for m, v in s.vp.items()))
    if s.leaders:
        parts.append("leaders " + ", ".join(f"{side} {m}" for side, m in s.leaders.items()))
    return ", ".join(parts)


def grid_lines(grid: Grid, path: str) -> list[str]:
    """The text summary of a grid: the drawing with column and row numbers, named rooms,
    fights on, and each side's pieces with their stats."""
    title = f'"{grid.name}"' if grid.name else path
    cols, rows = grid.size
    lines = [f"{title}: ok — grid of {len(grid.rooms)} rooms ({cols} columns x {rows} rows), "
             f"{len(grid.players)} player{'s' * (len(grid.players) != 1)}, {len(grid.pieces)} pieces"]
    width = len(str(cols - 1))
    lines.append("    " + " ".join(f"{c:>{width}}" for c in range(cols)))
    for r, line in enumerate(grid.drawing()):
        lines.append(f"{r:>3} " + " ".join(f"{ch:>{width}}" for ch in line))
    for room in grid.rooms:
        if room.name or room.treasure is not None:
            vault = f", vault: {room.treasure} Anima" if room.treasure is not None else ""
            lines.append(f"  {room.key} {room_text(room.at)}: {room.name or 'unnamed'}{vault}")
    for at in grid.fights():
        rows_here = grid.rows(at)
        lines.append(f"fight on in {room_text(at)}: " + " | ".join(f"{s}: {', '.join(ids)}" for s, ids in rows_here.items()))
    for side in grid.sides:
        pieces = [p for p in grid.pieces if p.side == side]
        lines.append(f"{'creatures' if side == CREATURES else 'player ' + side} ({len(pieces)}):")
        for p in pieces:
            f = p.fighter
            stats = f"ATK {f.attack} DEF {f.defense} HP {f.health} EN {f.energy}"
            if f.is_creature:
                el = f"{f.attack_element} attack" + (f", {f.guard_element} defence" if f.guard_element else "")
                extra = (f"{el}, {f.targets} target{'s' * (f.targets > 1)}"
                         + (f", {f.attack_effect}" if f.attack_effect else "") + (", unique" if f.unique else ""))
            else:
                extra = ", ".join(i.name for i in f.items) or "no items"
            abilities = ", ".join(a.name for a in f.abilities)
            effects = f" [{', '.join(f.effects.to_json())}]" if len(f.effects) else ""
            lines.append(f"  {p.id:<12} {room_text(p.room):<8} #{p.place}  {stats}  {extra}"
                         f"{'  | ' + abilities if abilities else ''}{effects}")
    game = grid.game
    if game is not None:  # the [game] section: decks, lairs, vaults (skirmish play)
        kinds = len({c.key for c in game.creatures})
        lines.append(f"game: {game.anima} Anima each, {game.turns} turns; decks: {len(game.creatures)} creatures "
                     f"({kinds} kinds), {len(game.items)} items, {len(game.abilities)} abilities")
        lines += [f"  lair {room_text(lair.room)}: {lair.creatures} creature{'s' * (lair.creatures != 1)}"
                  for lair in game.lairs]
        lines += [f"  vault {room_text(v.room)}: {v.price} Anima for {v.items} item{'s' * (v.items != 1)}, "
                  f"{v.abilities} abilit{'ies' if v.abilities != 1 else 'y'}" for v in game.vaults]
    return lines
