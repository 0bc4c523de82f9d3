"""``skirmish render FILE -o table.png``: the viewer's picture of a table, drawn headless."""

from __future__ import annotations

import argparse
from typing import Any

from ..rules.eldfall.templates import TEMPLATES
from ..viewer.overlays import Extras
from ._commands import COMMANDS
from ._scenario import add_scenario_args, load_table, require_table


def register(sub: Any) -> None:
    p = sub.add_parser(
        "render", help=COMMANDS["render"],
        description="Draw the table as the viewer shows it — scenery shaded by height, models with facing and "
        "front arc — with a legend, to a PNG. Works without a display (pyglet over EGL). Overlays: line of sight "
        "for pairs (with a profile slice each), everything a selected model sees, an area template, a movement range.")
    add_scenario_args(p)
    p.add_argument("-o", "--output", required=True, metavar="PNG", help="the picture to write (.png)")
    p.add_argument("--los", nargs=2, action="append", default=[], metavar=("A", "B"),
                   help="line of sight from A to B, with the profile slice that settles it (repeatable)")
    p.add_argument("--from", dest="frm", metavar="A",
                   help="select A: its Awareness, reach bands and LoS to every other model")
    p.add_argument("--template", metavar="NAME", help="an area template (E-TMPL): " + ", ".join(TEMPLATES) +
                   "; with --on")
    p.add_argument("--on", dest="template_on", metavar="MODEL",
                   help="the template's main target: a circle is centred on it, a spray points at it from the "
                   "--from model; the models it hits are ringed, with why others are spared in the legend")
    p.add_argument("--range", dest="range_of", metavar="A", help="where A can end a movement")
    p.add_argument("--replay", metavar="LOG", help="a game logged by `skirmish play FILE --json`: draw the table "
                   "after --step K, with that step's path, LoS and dice")
    p.add_argument("--step", type=int, metavar="K", help="with --replay: the step to draw, 1..N (0: the start; "
                   "default: the last)")
    p.add_argument("--size", type=int, default=1200, metavar="PX",
                   help="pixels along the table's longer side, 200..8192 (default 1200); the legend and profiles are added")
    p.set_defaults(func=run)


def check_picture(output: str, size: int, flag: str) -> None:
    """Before any work: ``-o`` names a PNG, and ``size`` (given with ``flag``), the table's
    longer side in it, is within the renderer's range."""
    from ..errors import SkirmishError
    from ..viewer.render import PICTURE_PX

    if not PICTURE_PX[0] <= size <= PICTURE_PX[1]:
        raise SkirmishError(f"{flag} {size}: the table's longer side in the picture is "
                            f"{PICTURE_PX[0]}..{PICTURE_PX[1]} pixels", kind="range")
    if not output.lower().endswith(".png"):
        raise SkirmishError(f"-o {output}: the picture is a PNG; name it something.png")


def run(args: argparse.Namespace) -> int:
    from ..errors import MeasurementRefused, SkirmishError

    check_picture(args.output, args.size, "--size")
    table = load_table(args)
    layers: tuple[Extras, ...] = ()
    if args.replay:
        from ..game.eldfall.replay import load_replay
        from ..viewer.replay_view import step_extras

        rp = load_replay(require_table(table, "--replay (a logged game of Eldfall)"), args.replay, args.step)
        k = len(rp) if args.step is None else args.step
        table, layers = rp.table_at(k), (step_extras(rp, k),)
    elif args.step is not None:
        raise SkirmishError("--step K draws a step of a logged game: give the log with --replay LOG")
    from ..viewer.render import RenderRequest, render_png  # lazy: pyglet only when drawing

    req = RenderRequest(los=tuple((a, b) for a, b in args.los), frm=args.frm, template=args.template,
                        template_on=args.template_on, range_of=args.range_of, size=args.size, layers=layers)
    try:
        res = render_png(table, args.output, req)
    except MeasurementRefused as exc:  # (a picture is never a declared action: no --declared here)
        raise MeasurementRefused(f"{str(exc).split(' (pass declared=True')[0]}; a picture pre-measures, so draw "
                                 "it with --mode assisted (where every pre-measure is allowed)") from None
    print(f"wrote {res.path} ({res.width}x{res.height} px) in {res.seconds:.2f} s")
    return 0
