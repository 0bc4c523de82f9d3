"""``skirmish heatmap FILE --side S --size M``: where a model can stand unseen (E-LOS, E-ARC)."""

from __future__ import annotations

import argparse
from typing import Any

from ..analysis.heatmap import Heatmap, cell_centres, heatmap
from ..errors import SkirmishError
from ..geometry.los import DEFAULT_TOLERANCE
from ..rules.eldfall.sizes import SIZES
from ..units import MM_PER_INCH
from ._commands import COMMANDS
from ._output import add_json_flag, emit_json
from ._progress import progress_bar
from ._scale import add_scale_args, scale_kwargs
from ._scenario import add_scenario_args, load_table, require_table
from ._values import flag_length
from .los import tolerance_arg
from .render import check_picture

PX_DEFAULT = 1200


def register(sub: Any) -> None:
    p = sub.add_parser(
        "heatmap", help=COMMANDS["heatmap"],
        description="Stand a probe model of side S and the given size at the centre of every cell of a --step "
        "grid (on the table, or on a walkable roof) and count the models of the other sides that see it from "
        "their front arcs as placed (exposure), and those it sees with 360° vision (sees). Cells where it "
        "cannot stand are null. Exact per cell, like `skirmish los`. See docs/analysis.md.")
    add_scenario_args(p, mode=False)
    p.add_argument("--side", required=True, help="the probe's side (the models of every other side count)")
    p.add_argument("--size", required=True, choices=tuple(SIZES), help="the probe's size (E-SIZE)")
    p.add_argument("--step", default="1", help='cell size, a length (default 1"; 0.5 is four times the work)')
    p.add_argument("-o", "--output", metavar="PNG", help="draw the table with the exposure layer to this PNG")
    p.add_argument("--tolerance", default=f"{DEFAULT_TOLERANCE * MM_PER_INCH:g}mm",
                   help="certificate tolerance of each line of sight, a length (default 0.1mm, as `los`)")
    p.add_argument("--px", type=int, default=PX_DEFAULT, metavar="PX",
                   help=f"with -o: pixels along the table's longer side, 200..8192 (default {PX_DEFAULT}); the "
                        "colour bar and legend are added")
    add_scale_args(p, "the heatmap's rows")
    add_json_flag(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    step = flag_length("--step", args.step)
    tol = tolerance_arg(args.tolerance)
    if args.output is not None:
        check_picture(args.output, args.px, "--px")
    elif args.px != PX_DEFAULT:
        raise SkirmishError("--px sizes the picture: give -o FILE.png too", kind="usage")
    table = require_table(load_table(args), "heatmap")
    _, ys = cell_centres(table, step)
    with progress_bar(len(ys), "heatmap", unit="row") as update:
        hm = heatmap(table, args.side, args.size, step, tolerance=tol, progress=update, **scale_kwargs(args))
    if args.output is not None:
        from ..viewer.heat import heat_extras  # lazy: pyglet only when drawing
        from ..viewer.render import RenderRequest, render_png

        res = render_png(table, args.output, RenderRequest(size=args.px, layers=(heat_extras(hm),)))
        if not args.json:
            print(f"wrote {res.path} ({res.width}x{res.height} px)")
    if args.json:
        emit_json(hm.to_json())
    else:
        print_heatmap(hm)
        waiting = [m.id for m in table.catalogue.reserve if m.side != args.side]
        if waiting:  # E-DEPLOY: they have no place yet
            print(f"not counted: {len(waiting)} enem{'y' if len(waiting) == 1 else 'ies'} in the reserve "
                  f"(no `at` in the file: {', '.join(waiting)})")
        out = [f"{m.id} ({'Dead' if 'Dead' in m.states else 'Incapacitated'})" for m in table.models
               if m.side != args.side and m.id not in hm.enemies]
        if out:  # (they shoot no one)
            print(f"not counted: {', '.join(out)}")
    return 0


def print_heatmap(hm: Heatmap) -> None:
    """A text picture, north (high y) up: a digit per cell (+ for 10 or more), # where no model stands."""
    n = len(hm.enemies)
    print(f"Exposure of a {hm.size} model of {hm.side} to {n} enem{'y' if n == 1 else 'ies'}, step {hm.step:g}\" "
          f"({len(hm.xs)} x {len(hm.ys)} cells; digit: enemies that see it, + 10 or more, #: cannot stand)")
    for row in reversed(hm.exposure):
        print("".join("#" if v is None else (str(v) if v < 10 else "+") for v in row))
    vals = [v for row in hm.exposure for v in row if v is not None]
    if vals:
        hidden = sum(v == 0 for v in vals)
        print(f"{len(vals)} cells to stand on: {hidden} ({hidden / len(vals):.0%}) unseen, "
              f"mean exposure {sum(vals) / len(vals):.2f}, worst {max(vals)}")
    if hm.undecided:
        cells = ", ".join(f"({x:g}, {y:g})" for x, y in hm.undecided[:6])
        print(f"{len(hm.undecided)} cell(s) with a line of sight the search left undecided (counted as not seen; "
              f"try a larger --tolerance): {cells}{' ...' if len(hm.undecided) > 6 else ''}")
