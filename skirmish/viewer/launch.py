"""Open the interactive viewer: a clear error instead of a traceback when no window can be made."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ..errors import SkirmishError
from ..maps.base import Map

NO_DISPLAY_HINT = "use `skirmish render FILE -o table.png` for a picture without a display"


def view(table: Map, *, save_path: str | Path | None = None, width: int = 1280, height: int = 900) -> None:
    """Open a window on ``table`` and run until it is closed (:class:`SkirmishError` when
    there is no display, or pyglet cannot open a window)."""
    from .session import make_session

    session = make_session(table, save_path=save_path)
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise SkirmishError(f"no display to open a window on (DISPLAY is not set); {NO_DISPLAY_HINT}")
    try:
        import pyglet
        import pyglet.window  # noqa: F401 - connects to the display
    except Exception as exc:  # noqa: BLE001 - pyglet raises many kinds when no display is there
        raise SkirmishError(f"cannot open a window: {exc} ({type(exc).__name__}); {NO_DISPLAY_HINT}") from None
    from .window import ViewerWindow

    try:
        ViewerWindow(session, width, height)
    except Exception as exc:  # noqa: BLE001
        raise SkirmishError(f"cannot open a window: {exc} ({type(exc).__name__}); {NO_DISPLAY_HINT}") from None
    pyglet.app.run()
