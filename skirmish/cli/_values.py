"""Command-line values read the same way by every command."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from ..errors import UnitError
from ..units import length


def whole_number(low: int, what: str = "a whole number") -> Callable[[str], int]:
    """An argparse type: ``what``, a whole number ``low`` or more (a usage error otherwise)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = low - 1
        if value < low:
            raise argparse.ArgumentTypeError(f"expected {what} {low} or more, got {text!r}")
        return value
    return parse


def flag_length(what: str, text: str, *, negative: bool = False) -> float:
    """``text`` as a length in inches (``3``, ``70mm``, ``1.5in``); otherwise a
    :class:`UnitError` named by ``what`` (the flag), of JSON kind ``unit`` (not a length)
    or ``range`` (negative, not finite)."""
    try:
        return length(text.strip(), allow_negative=negative)
    except UnitError as exc:
        raise UnitError(f"{what}: {exc}", kind=exc.kind) from None
