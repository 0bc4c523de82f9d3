"""Command-line values read the same way by every command."""

from __future__ import annotations

from ..errors import UnitError
from ..units import length


def flag_length(what: str, text: str, *, negative: bool = False) -> float:
    """``text`` as a length in inches (``3``, ``70mm``, ``1.5in``); otherwise a
    :class:`UnitError` named by ``what`` (the flag), of JSON kind ``unit`` (not a length)
    or ``range`` (negative, not finite)."""
    try:
        return length(text.strip(), allow_negative=negative)
    except UnitError as exc:
        raise UnitError(f"{what}: {exc}", kind=exc.kind) from None
