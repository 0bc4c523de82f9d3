"""``skirmish move FILE MODEL``: shortest legal paths, declared-path checks and the
movement range, on any map (E-MOVE-*, E-FALL, E-MODE on the table; P-MOVE on a grid).

The command talks to the map only through the protocol (``plan_move``,
``check_move``, ``movement_range``) and prints the answers' ``to_json``; options a
map does not take (``--kind`` on a grid of rooms) are refused with a clear message.
"""

from __future__ import annotations

import argparse
import inspect
import math
from collections.abc import Callable
from typing import Any

from ..errors import SkirmishError
from ..maps.base import Map
from ..maps.results import MovePlan, MoveRange
from ..maps.tolerances import MAX_EXTENT, far_off_table
from ..rules.eldfall.modes import MODES
from ..scenario.load import load
from ._commands import COMMANDS
from ._output import emit_json
from ._values import flag_length

#: The largest ``--budget`` (inches): longer than any path on the largest table.
MAX_BUDGET = 10_000.0

EXAMPLES = """examples:
  skirmish move scenarios/mill-ambush.toml akane --to 14,20           shortest legal path, length, legal?
  skirmish move scenarios/mill-ambush.toml akane --via 10,8 --via 14,20 --json   check a declared path
  skirmish move scenarios/mill-ambush.toml akane --reach brute        into base contact this turn?
  skirmish move scenarios/mill-ambush.toml akane --range --json       the area it can end in
  skirmish move scenarios/party-hard-maze.toml rogue --to 3,1         a grid of rooms answers too

points are X,Y (inches on the table; a length may carry a unit: 3in,50mm) or X,Y,Z to name
the surface at height Z (a roof); on a grid of rooms, X,Y is (column, row)."""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "move", help=COMMANDS["move"],
        description="Movement of one model. --to: the shortest legal path to a point (or as near as it "
        "gets); --reach: into base contact with a model; --via (repeated): check a declared path; --range: "
        "where the model can end its move. The path is the base centre's (E-DIST-MOVE); its cost doubles "
        "vertical parts on ladders (E-MOVE-LADDER); a move ends on entering base contact with an enemy "
        "(E-MOVE-ENEMY); falls report their Agility rolls (E-FALL).",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("scenario", help="scenario file (.toml)")
    p.add_argument("model", help="the moving model's id")
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--to", metavar="X,Y[,Z]", help="plan the shortest legal path to this point "
                      "(negative coordinates are fine: --to -1,5)")
    what.add_argument("--reach", metavar="ID", help="plan the shortest path into base contact with this model")
    what.add_argument("--via", metavar="X,Y[,Z]", action="append",
                      help="a point of a declared path (repeat, in order) to check")
    what.add_argument("--range", action="store_true", help="the region the model can end its move in")
    p.add_argument("--kind", choices=("walk", "run", "climb", "jump"),
                   help="Walk (SPD), Run (2 x SPD), E-MOVE-KIND; Climb (ceil(SPD/2): walk to a face, climb it, "
                        "walk on; a declared climb may stop on the face, E-MOVE-CLIMB) or Jump (one straight 3D "
                        "line of up to ceil(SPD/2); --to aims it, --via AIM[,LANDING] checks it; E-MOVE-JUMP); "
                        "default walk")
    p.add_argument("--budget", metavar="LEN", help="a Movement budget instead of the one from SPD (a length)")
    p.add_argument("--no-falls", action="store_true", help="plan without falling off edges (E-FALL)")
    p.add_argument("--mode", choices=MODES, help="measurement mode (E-MODE); overrides the file's mode")
    p.add_argument("--declared", action="store_true",
                   help="the movement is declared: measure it exactly whatever the mode (E-MODE)")
    p.add_argument("--json", action="store_true",
                   help="print machine-readable JSON (schema in docs/movement.md)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    m = load(args.scenario)
    opts = _options(args)
    if m.kind == "regions" and not args.range:  # (before reading --to/--via as grid points)
        m.plan_move(args.model, args.to or "")
    if args.range:
        r = _call(m, m.movement_range, "--range", opts, args.model)
        emit_json(r.to_json()) if args.json else print_range(m, r)
        return 0
    if args.via:
        via = [parse_point(v, m, f"--via {v}") for v in args.via]
        plan = _call(m, m.check_move, "--via", opts, args.model, via)
    else:
        if args.to is not None:
            to: Any = parse_point(args.to, m, "--to")
        else:
            to = args.reach
        plan = _call(m, m.plan_move, "--to" if args.to is not None else "--reach", opts, args.model, to)
    emit_json(plan.to_json()) if args.json else print_plan(m, plan, checked=bool(args.via))
    return 0


def _options(args: argparse.Namespace) -> dict[str, tuple[str, Any]]:
    """Options given on the command line: keyword -> (flag, value)."""
    out: dict[str, tuple[str, Any]] = {}
    if args.kind:
        out["kind"] = ("--kind", args.kind)
    if args.budget is not None:
        budget = flag_length("--budget", args.budget)
        if budget > MAX_BUDGET:
            raise SkirmishError(f"--budget: at most {MAX_BUDGET:g} in (a move longer than any table), got "
                                f"{args.budget}", kind="range")
        out["budget"] = ("--budget", budget)
    if args.no_falls:
        out["falls"] = ("--no-falls", False)
    if args.mode:
        out["mode"] = ("--mode", args.mode)
    if args.declared:
        out["declared"] = ("--declared", True)
    return out


def _call(m: Map, method: Callable[..., Any], action: str, opts: dict[str, tuple[str, Any]], *pos: Any) -> Any:
    """Call a protocol method with the options it takes; refuse the ones it does not."""
    params = inspect.signature(method).parameters
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    kw = {}
    for name, (flag, value) in opts.items():
        if name not in params and not takes_any:
            raise SkirmishError(f"{flag}: the {m.kind} map does not take this option with {action}", kind="map_kind")
        kw[name] = value
    return method(*pos, **kw)


def parse_point(text: str, m: Map, what: str) -> tuple[float, ...]:
    """``X,Y`` or ``X,Y,Z``: numbers, or on the table lengths with units (``3in,50mm``)."""
    parts = [p.strip() for p in text.split(",")]
    table = m.unit == "in"
    if len(parts) not in ((2, 3) if table else (2,)) or not all(parts):
        form = "X,Y or X,Y,Z (inches, or lengths like 3in,50mm)" if table else "X,Y (column, row)"
        raise SkirmishError(f"{what}: expected {form}, got {text!r}")
    out = []
    for p in parts:
        try:
            v = float(p)
        except ValueError:
            if not table:
                raise SkirmishError(f"{what}: on a {m.kind} map points are whole numbers (column, row), "
                                    f"got {text!r}") from None
            v = flag_length(what, p, negative=True)
        if not math.isfinite(v):
            raise SkirmishError(f"{what}: coordinates must be finite, got {text!r}", kind="range")
        out.append(v)
    if table:  # (the planner's own test, named by the flag here)
        w, d = float(getattr(m, "width")), float(getattr(m, "depth"))
        if far_off_table(tuple(out), w, d):
            raise SkirmishError(f"{what}: {'the point' if text in what else text} is further off the {w:g} x {d:g} "
                                f"in table than the table's own size (or above {MAX_EXTENT:g} in); aim at a point on "
                                "or near it", kind="range")
    return tuple(out)


# -- human-readable output --------------------------------------------------------------------------

def _num(v: float) -> str:
    return f"{v:.2f}" if abs(v - round(v)) > 1e-9 else f"{round(v):d}"


def _pt(p: tuple[float, ...]) -> str:
    if len(p) == 3:
        z = f", z {_num(p[2])}" if abs(p[2]) > 1e-9 else ""
        return f"({_num(p[0])}, {_num(p[1])}{z})"
    if len(p) == 2:
        return f"({_num(p[0])}, {_num(p[1])})"
    return repr(p)


def _amount(v: float, unit: str) -> str:
    """A length in the map's unit, singular for exactly 1 step ("1 step", "2 steps", "1 in")."""
    if unit.endswith("s") and _num(v) == "1":
        unit = unit[:-1]
    return f"{_num(v)} {unit}"


def print_plan(m: Map, plan: MovePlan, checked: bool) -> None:
    u = m.unit
    head = "declared path" if checked else "shortest path"
    budget = f" (budget {_amount(plan.budget, u)})" if plan.budget is not None else ""
    verdict = "legal" if plan.legal else "NOT legal"
    print(f"{plan.model}: {head}, length {_amount(plan.length, u)}, cost {_amount(plan.cost, u)}{budget}: {verdict}")
    pts = [_pt(tuple(p)) if isinstance(p, (tuple, list)) else str(p) for p in plan.points]
    width = 100
    line = "  path: "
    for i, s in enumerate(pts):
        piece = s + (" -> " if i + 1 < len(pts) else "")
        if len(line) + len(piece) > width:
            print(line.rstrip())
            line = "        "
        line += piece
    print(line.rstrip())
    for v in plan.violations:
        who = f" [{v.with_}]" if v.with_ else ""
        print(f"  segment {v.at}: {v.what}{who}")
    if plan.stopped_at_contact:
        print(f"  stops in base contact with {plan.stopped_at_contact}")
    if plan.fall_rolls:
        print(f"  falls: {plan.fall_rolls} Agility roll{'s' if plan.fall_rolls != 1 else ''} (E-FALL)")
    for n in plan.notes:
        print(f"  note: {n}")


def print_range(m: Map, r: MoveRange) -> None:
    u = m.unit
    n = len(r.regions)
    print(f"{r.model}: can end its move within {_amount(r.budget, u)} in {n} region{'s' if n != 1 else ''}, "
          f"area {r.area:.2f} sq {u}")
    for i, region in enumerate(r.regions):
        outer = region[0] if region else ()
        holes = len(region) - 1
        xs = [p[0] for p in outer] or [0.0]
        ys = [p[1] for p in outer] or [0.0]
        print(f"  region {i}: {len(outer)} corners, x {_num(min(xs))}..{_num(max(xs))}, "
              f"y {_num(min(ys))}..{_num(max(ys))}" + (f", {holes} hole{'s' if holes != 1 else ''}" if holes else ""))
    for note in r.notes:
        print(f"  note: {note}")
