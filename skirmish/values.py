"""Changed copies of immutable values (frozen dataclasses) on hot paths, and pickling
of the read-only mappings they hold."""

from __future__ import annotations

import copyreg
import numbers
from dataclasses import fields
from functools import cache
from types import MappingProxyType
from typing import Any, TypeVar

T = TypeVar("T")


def is_number(value: object) -> bool:
    """Whether ``value`` is a real number (numpy's too), not a bool: what a length, an angle
    or a count given to the library must be before its range is checked."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def read_only(d: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    """A read-only view of ``d`` (what a pickled one is made back into)."""
    return MappingProxyType(d)


def _reduce_mapping_proxy(m: MappingProxyType[Any, Any]) -> tuple[Any, tuple[dict[Any, Any]]]:
    return read_only, (dict(m),)


# Values keep their mappings read-only (MappingProxyType), which pickle cannot take by
# itself; a value must pickle (worker processes, Dask, a user's own caching). This only
# adds a way where there was none: the copy is a read-only view of an equal dict.
copyreg.pickle(MappingProxyType, _reduce_mapping_proxy)


def with_fields(value: T, **changes: object) -> T:
    """``dataclasses.replace(value, **changes)`` for changes already in their stored form:
    the other fields copied as they are, without running ``__init__`` (its conversions and
    copies) again, and nothing found on ``value`` (cached properties) carried over."""
    cls: type = type(value)
    out: T = object.__new__(cls)
    own, new = value.__dict__, out.__dict__
    for f in _names(cls):
        new[f] = own[f]
    new.update(changes)
    return out


@cache
def _names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))
