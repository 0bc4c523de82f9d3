"""``skirmish view FILE``: the interactive pyglet window on a table (or a grid of rooms)."""

from __future__ import annotations

import argparse
from typing import Any

from ._commands import COMMANDS
from ._scenario import add_scenario_args, load_table, require_table


def register(sub: Any) -> None:
    p = sub.add_parser(
        "view", help=COMMANDS["view"],
        description="An interactive top-down view of the table at true scale. Click a model for its Awareness, "
        "reach and LoS to every other model; shift+click a second one for the profile slice; drag a model to "
        "move it; m then drag to measure; t for templates; r for the movement range; wheel zooms, right-drag "
        "pans; h shows every key; s saves the table. Grid scenarios show rooms, rows and fights.")
    add_scenario_args(p)
    p.add_argument("--save", metavar="FILE", help="where s saves the edited table (default: NAME.edited.toml "
                   "beside the scenario)")
    p.add_argument("--replay", metavar="LOG", help="step through a game logged by `skirmish play FILE --json` "
                   "(right/left arrows: next/previous step; its path, LoS and dice are shown)")
    p.add_argument("--step", type=int, metavar="K", help="with --replay: open at step K (default 0: the start)")
    p.add_argument("--width", type=int, default=1280, help="window width in pixels, 200..8192 (default 1280)")
    p.add_argument("--height", type=int, default=900, help="window height in pixels, 200..8192 (default 900)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..errors import SkirmishError
    from ..game.eldfall.replay import load_replay
    from ..viewer.launch import check_window_size, view  # lazy: pyglet only when a window opens

    check_window_size(args.width, args.height)
    table = load_table(args)
    rp = None
    if args.replay:
        rp = load_replay(require_table(table, "--replay (a logged game of Eldfall)"), args.replay, args.step)
    elif args.step is not None:
        raise SkirmishError("--step K opens a logged game at step K: give the log with --replay LOG")
    view(table, save_path=args.save, width=args.width, height=args.height, replay=rp, step=args.step or 0)
    return 0
