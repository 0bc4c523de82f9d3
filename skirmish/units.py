"""Lengths and angles. Inside the engine every length is a float in inches.

>>> length("70mm")
2.7559055118110236
>>> length('3"'), length("1.5in"), length(2)
(3.0, 1.5, 2.0)
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from .errors import UnitError

MM_PER_INCH = 25.4

_LENGTH_RE = re.compile(r"^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*(mm|cm|in|inch|inches|\"|'')?\s*$")
#: inches per unit, exact (the length is the decimal's exact product, rounded once: "25.4mm" is 1.0)
_FACTORS = {None: Fraction(1), "in": Fraction(1), "inch": Fraction(1), "inches": Fraction(1), '"': Fraction(1),
            "''": Fraction(1), "mm": 1 / Fraction(str(MM_PER_INCH)), "cm": 10 / Fraction(str(MM_PER_INCH))}


def length(value: object, *, allow_negative: bool = False) -> float:
    """Read a length as inches: a bare number is inches; a string carries its unit.

    Accepted units: ``mm``, ``cm``, ``in`` and ``"``. Raises :class:`UnitError` for
    anything else, for non-finite values and (unless ``allow_negative``) negatives.
    """
    if isinstance(value, bool):
        raise UnitError(f"expected a length (a number of inches or a string like \"70mm\"), got {value!r}")
    if isinstance(value, (int, float)):
        inches = float(value)
    elif isinstance(value, str):
        m = _LENGTH_RE.match(value)
        if not m:
            raise UnitError(f"expected a length like 3, \"70mm\", \"1.5in\" or '3\"', got {value!r}")
        inches = _inches(m.group(1), _FACTORS[m.group(2)])
    else:
        raise UnitError(f"expected a length (a number of inches or a string like \"70mm\"), got {value!r}")
    if not math.isfinite(inches):
        raise UnitError(f"a length must be finite, got {value!r}", kind="range")
    if inches < 0 and not allow_negative:
        raise UnitError(f"a length must not be negative, got {value!r}", kind="range")
    return inches


def _inches(number: str, factor: Fraction) -> float:
    """``number`` (a decimal) times ``factor``, rounded once where the product is a float."""
    f = float(number)
    if factor == 1 or f == 0 or not math.isfinite(f):
        return f * float(factor)
    try:
        return float(Fraction(number) * factor)
    except (ValueError, OverflowError):  # (a decimal too long to convert exactly; past the float range)
        return f * float(factor)


def angle(value: object) -> float:
    """Read an angle in degrees (a finite number); returned as given, in degrees."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise UnitError(f"expected an angle in degrees (a number), got {value!r}")
    deg = float(value)
    if not math.isfinite(deg):
        raise UnitError(f"an angle must be finite, got {value!r}", kind="range")
    return deg


def mm(inches: float) -> float:
    """Inches to millimetres."""
    return inches * MM_PER_INCH


def fmt_inches(inches: float, digits: int = 2) -> str:
    """A length for people: ``3.25 in``."""
    return f"{inches:.{digits}f} in"
