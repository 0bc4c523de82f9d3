"""``skirmish los FILE A B`` / ``--all``: line of sight with its proof (E-LOS, E-ARC)."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import SkirmishError, UsageError
from ..geometry.los import DEFAULT_TOLERANCE, MAX_TOLERANCE
from ..maps.table import LineOfSight, Table
from ..units import MM_PER_INCH
from ._commands import COMMANDS
from ._output import add_json_flag, emit_json
from ._progress import progress_bar
from ._scenario import add_scenario_args, load_table
from ._values import flag_length


def register(sub: Any) -> None:
    p = sub.add_parser(
        "los", help=COMMANDS["los"],
        description="Line of sight (E-LOS) from A's front half (E-ARC) to B's hitbox. A visible verdict "
        "carries a witness segment keeping the clearance (--tolerance) from every other solid; a blocked one "
        "names the blockers and certifies that no sight line keeps that clearance (grazing is not seeing).")
    add_scenario_args(p, mode=False)
    p.add_argument("a", nargs="?", help="the looking model's id")
    p.add_argument("b", nargs="?", help="the model looked at")
    p.add_argument("--all", action="store_true", help="every ordered pair of models")
    p.add_argument("--arc", choices=("front", "all"), default="front",
                   help="front: LoS from the front half only (default); all: 360° while moving (E-LOS-MOVE)")
    p.add_argument("--tolerance", default=f"{DEFAULT_TOLERANCE * MM_PER_INCH:g}mm",
                   help="clearance ε a sight line keeps from every solid, a length (default 0.1mm)")
    p.add_argument("--fraction", action="store_true", help="also the visible share of B's hitbox surface (slower)")
    add_json_flag(p)
    p.set_defaults(func=run)


def tolerance_arg(text: str) -> float:
    """``--tolerance``: a length above 0 and at most :data:`MAX_TOLERANCE` (inches)."""
    tol = flag_length("--tolerance", text)
    if not 0 < tol <= MAX_TOLERANCE:
        raise SkirmishError(f"--tolerance: the clearance is above 0 and at most {MAX_TOLERANCE:g} in, got {text}",
                            kind="range")
    return tol


def run(args: argparse.Namespace) -> int:
    tol = tolerance_arg(args.tolerance)
    table: Any = load_table(args)  # the table, or a grid (sight = the same room)
    if args.all:
        if args.a or args.b:
            raise SkirmishError("give either two model ids or --all, not both")
        n = len(table.model_ids)
        with progress_bar(n * (n - 1), "line of sight", unit="pair") as update:
            results = table.line_of_sight_all(arc=args.arc, tolerance=tol, progress=update) \
                if isinstance(table, Table) else table.line_of_sight_all(arc=args.arc, tolerance=tol)
        if args.fraction:
            results = [table.line_of_sight(r.frm, r.to, arc=args.arc, tolerance=tol, fraction=True) for r in results]
        if args.json:
            emit_json({"pairs": [r.to_json() for r in results]})
        else:
            print_matrix(table, results)
        return 0
    if not (args.a and args.b):
        raise UsageError("name two models (skirmish los FILE A B) or use --all")
    r = table.line_of_sight(args.a, args.b, arc=args.arc, tolerance=tol, fraction=args.fraction)
    if args.json:
        emit_json(r.to_json())
    else:
        print_one(r, "region" if table.kind == "regions" else "room")
    return 0


def _pt(p: tuple[float, float, float]) -> str:
    return f"({p[0]:.2f}, {p[1]:.2f}, z {p[2]:.2f})"


def print_one(r: LineOfSight, space: str = "room") -> None:
    """One pair's verdict and its proof; ``space``: what a grid-like map calls where a
    piece stands (a room, a region)."""
    arc = " (360°, moving)" if r.arc == "all" and r.stage != "room" else ""
    if r.visible:
        print(f"{r.frm} -> {r.to}: VISIBLE{arc}")
        if r.witness is not None:
            print(f"  witness: a clear sight line from {_pt(r.witness[0])} to {_pt(r.witness[1])}")
        else:
            print(f"  they stand in the same {space}")
    elif r.reason == "out_of_arc":
        print(f"{r.frm} -> {r.to}: NOT VISIBLE — out of arc: {r.to} is wholly behind {r.frm}'s front arc")
    elif not r.certified:
        print(f"{r.frm} -> {r.to}: UNDECIDED — no witness found, and the search stopped before completing its "
              f"certificate (blockers so far: {', '.join(r.blockers) or 'none'}); try a larger --tolerance")
    elif not r.blockers:
        print(f"{r.frm} -> {r.to}: NOT VISIBLE — they stand in different {space}s")
    else:
        names = ", ".join(r.blockers)
        print(f"{r.frm} -> {r.to}: NOT VISIBLE{arc} — blocked by {names}")
        print(f"  proof: no sight line from {r.frm}'s {'front half' if r.arc == 'front' else 'hitbox'} to {r.to} "
              f"keeps {r.tolerance * MM_PER_INCH:.2g} mm clear of them")
    if r.visible_fraction is not None:
        print(f"  visible share of {r.to}'s hitbox surface: {r.visible_fraction:.0%}")


def print_matrix(table: Table, results: list[LineOfSight]) -> None:
    ids = table.model_ids
    if len(ids) < 2:
        print(f"no pairs to see: the table has {len(ids)} model{'s' * (len(ids) != 1)} on it")
        return
    cell = {(r.frm, r.to): r for r in results}
    width = max(len(i) for i in ids)
    print("rows see columns:  V visible   x blocked   . out of arc")
    print(" " * (width + 4) + "".join(f"{k + 1:>3}" for k in range(len(ids))))
    for k, a in enumerate(ids):
        marks = []
        for b in ids:
            r = cell.get((a, b))
            marks.append("-" if r is None else ("V" if r.visible else ("." if r.reason == "out_of_arc" else "x")))
        print(f"{k + 1:>2}  {a:<{width}}" + "".join(f"{m:>3}" for m in marks))
    seen = sum(r.visible for r in results)
    print(f"{seen} of {len(results)} ordered pairs have line of sight")
