"""Open the interactive viewer: a clear error instead of a traceback when no window can be made."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import SkirmishError
from ..maps.base import Map

if TYPE_CHECKING:
    from ..game.eldfall.replay import Replay
    from .grid_view import GridSession

NO_DISPLAY_HINT = "use `skirmish render FILE -o table.png` for a picture without a display"
#: Window sizes the viewer accepts, in pixels (each side).
MIN_WINDOW, MAX_WINDOW = 200, 8192


def _display() -> str:
    return os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or "(none)"


def _cannot(exc: Exception) -> SkirmishError:
    what = ("no X server answers there" if type(exc).__name__ == "NoSuchDisplayException"
            else f"{exc} ({type(exc).__name__})")
    return SkirmishError(f"cannot open a window on display {_display()}: {what}; check that an X server runs "
                         f"there and DISPLAY names it (e.g. DISPLAY=:0), or {NO_DISPLAY_HINT}")


def check_window_size(width: int, height: int) -> None:
    """:class:`SkirmishError` unless both sides are MIN_WINDOW..MAX_WINDOW pixels."""
    for name, v in (("width", width), ("height", height)):
        if not MIN_WINDOW <= v <= MAX_WINDOW:
            raise SkirmishError(f"--{name} {v}: a window side is {MIN_WINDOW}..{MAX_WINDOW} pixels")


def view(table: Map, *, save_path: str | Path | None = None, width: int = 1280, height: int = 900,
         replay: Replay | None = None, step: int = 0) -> None:
    """Open a window on ``table`` (or, with ``replay``, on that logged game from ``step``)
    and run until it is closed (:class:`SkirmishError` when there is no display, or
    pyglet cannot open a window)."""
    from .session import Session, make_session

    check_window_size(width, height)
    session: Session | GridSession
    if replay is not None:
        from .replay_view import ReplaySession

        session = ReplaySession(replay, save_path=save_path, step=step)
    else:
        session = make_session(table, save_path=save_path)
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise SkirmishError(f"no display to open a window on (DISPLAY is not set); {NO_DISPLAY_HINT}")
    try:
        import pyglet
        import pyglet.window  # noqa: F401 - connects to the display
    except Exception as exc:  # noqa: BLE001 - pyglet raises many kinds when no display is there
        raise _cannot(exc) from None
    from .window import ViewerWindow

    try:
        ViewerWindow(session, width, height)
    except Exception as exc:  # noqa: BLE001
        raise _cannot(exc) from None
    pyglet.app.run()
