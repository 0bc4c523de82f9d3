"""Never lose a player's work: both viewer sessions know whether the map changed since
it was loaded or saved, and quitting with unsaved changes asks first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import SkirmishError

QUIT_QUESTION = "unsaved changes — s: save and quit · d: quit without saving · esc: keep working"


class UnsavedWork:
    """Mixin for a session with ``table``, ``save()`` and ``say()``: ``dirty``, the quit
    question and its answers. The window closes when ``quit_now`` becomes True."""

    table: Any
    confirm_quit: bool = False
    quit_now: bool = False
    _saved_table: Any = None

    def save(self, path: str | Path | None = None) -> Path:  # pragma: no cover - each session has its own
        raise NotImplementedError

    def say(self, text: str, *, error: bool = False) -> None:  # pragma: no cover
        raise NotImplementedError

    def mark_saved(self) -> None:
        """The map as it is now is on disk (or was just loaded)."""
        self._saved_table = self.table

    @property
    def dirty(self) -> bool:
        """Has the map changed since it was loaded or last saved?"""
        return self.table != self._saved_table

    def request_quit(self) -> bool:
        """True when the window may close now; with unsaved changes, ask instead."""
        if not self.dirty:
            self.quit_now = True
            return True
        self.confirm_quit = True
        self.say(QUIT_QUESTION, error=True)
        return False

    def answer_quit(self, name: str) -> None:
        """A key while the quit question is shown: s saves and quits, d quits, any
        other key (esc) keeps working."""
        self.confirm_quit = False
        if name == "s":
            try:
                path = self.save()
            except SkirmishError as exc:
                self.say(f"not saved, still open: {exc}", error=True)
                return
            self.say(f"saved to {path}")
            self.quit_now = True
        elif name == "d":
            self.quit_now = True
        else:
            self.say("kept working (unsaved changes: s saves)")
