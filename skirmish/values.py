"""Changed copies of immutable values (frozen dataclasses) on hot paths."""

from __future__ import annotations

from dataclasses import fields
from functools import cache
from typing import TypeVar

T = TypeVar("T")


def with_fields(value: T, **changes: object) -> T:
    """``dataclasses.replace(value, **changes)`` for changes already in their stored form:
    the other fields copied as they are, without running ``__init__`` (its conversions and
    copies) again, and nothing found on ``value`` (cached properties) carried over."""
    cls: type = type(value)
    out: T = object.__new__(cls)
    own = value.__dict__
    out.__dict__.update({f: own[f] for f in _names(cls)}, **changes)
    return out


@cache
def _names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))
