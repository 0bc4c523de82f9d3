"""``skirmish view FILE``: the interactive pyglet window on a table."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from ._scenario import add_scenario_args, load_table


def register(sub: Any) -> None:
    p = sub.add_parser(
        "view", help="open the table in a window: select, see LoS, profile slices, measure, move, save",
        description="An interactive top-down view of the table at true scale. Click a model for its Awareness, "
        "reach and LoS to every other model; shift+click a second one for the profile slice; drag to measure "
        "(m) or move; wheel zooms, right-drag pans; h shows every key; s saves the table.")
    add_scenario_args(p)
    p.add_argument("--save", metavar="FILE", help="where s saves the edited table (default: NAME.edited.toml "
                   "beside the scenario)")
    p.add_argument("--width", type=int, default=1280, help="window width in pixels (default 1280)")
    p.add_argument("--height", type=int, default=900, help="window height in pixels (default 900)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..errors import SkirmishError

    table = load_table(args)
    from ..viewer.session import make_session

    session = make_session(table, save_path=args.save)
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise SkirmishError("no display to open a window on (DISPLAY is not set); use `skirmish render FILE -o "
                            "table.png` for a picture without a display")
    try:
        import pyglet
        import pyglet.window  # noqa: F401 - connects to the display
    except Exception as exc:  # noqa: BLE001 - pyglet raises many kinds when no display is there
        raise SkirmishError(f"cannot open a window: {exc} ({type(exc).__name__}); use `skirmish render FILE -o "
                            "table.png` for a picture without a display") from None
    from ..viewer.window import ViewerWindow

    try:
        ViewerWindow(session, args.width, args.height)
    except Exception as exc:  # noqa: BLE001
        raise SkirmishError(f"cannot open a window: {exc} ({type(exc).__name__})") from None
    pyglet.app.run()
    return 0
