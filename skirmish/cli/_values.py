"""Command-line values read the same way by every command."""

from __future__ import annotations

from ..errors import UnitError
from ..units import length


def flag_length(what: str, text: str, *, negative: bool = False) -> float:
    """``text`` as a length in inches (``3``, ``70mm``, ``1.5in``); a :class:`UnitError`
    (JSON kind ``unit``) named by ``what`` (the flag) otherwise."""
    try:
        return length(text.strip(), allow_negative=negative)
    except UnitError as exc:
        raise UnitError(f"{what}: {exc}") from None
