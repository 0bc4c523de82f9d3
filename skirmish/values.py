"""Changed copies of immutable values (frozen dataclasses) on hot paths, their cached
properties, and pickling of the read-only mappings they hold."""

from __future__ import annotations

import copyreg
import numbers
from dataclasses import fields
from collections.abc import Callable
from functools import cache
from types import MappingProxyType
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")


def is_number(value: object) -> bool:
    """Whether ``value`` is a real number (numpy's too), not a bool: what a length, an angle
    or a count given to the library must be before its range is checked."""
    kind = type(value)
    if kind is float or kind is int:  # (the usual answer, without the ABC's slow check)
        return True
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


class cached(Generic[T]):
    """``functools.cached_property`` for immutable values, without its lock (before Python
    3.12 it takes one on every first read, which costs more than a small property itself):
    found once, kept in the instance's ``__dict__``, read from there after."""

    def __init__(self, func: Callable[[Any], T]):
        self.func, self.name, self.__doc__ = func, func.__name__, func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> cached[T]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> T: ...

    def __get__(self, instance: object | None, owner: type | None = None) -> T | cached[T]:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.func(instance)
        return value
