"""Small helpers that make answers read as English."""

from __future__ import annotations


def count(n: int | float, singular: str, plural: str | None = None) -> str:
    """``"1 Hit"``, ``"2 Hits"``, ``"0 Wounds"``, ``"1 step"``.

    >>> count(1, "Hit"), count(3, "Wound"), count(1, "dice", "dice")
    ('1 Hit', '3 Wounds', '1 dice')
    """
    word = singular if n == 1 else (plural if plural is not None else singular + "s")
    return f"{n:g} {word}" if isinstance(n, float) else f"{n} {word}"
