"""A small bounded memo for answers computed from immutable objects (tables, solids)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class IdentityMemo(Generic[T]):
    """Answers by key, each kept with the objects it was made from: a key holds their
    ids, and a hit counts only when those very objects are still the ones asked about
    (an id may be reused once an object is gone). At most ``size`` answers, the oldest
    dropped first."""

    def __init__(self, size: int):
        self.size = size
        self._store: dict[tuple[Any, ...], tuple[tuple[Any, ...], T]] = {}

    def get(self, key: tuple[Any, ...], refs: tuple[Any, ...], make: Callable[[], T]) -> T:
        hit = self._store.get(key)
        if hit is not None and len(hit[0]) == len(refs) and all(a is b for a, b in zip(hit[0], refs)):
            return hit[1]
        value = make()
        if len(self._store) >= self.size:
            del self._store[next(iter(self._store))]
        self._store[key] = (refs, value)
        return value

    def clear(self) -> None:
        """Forget every answer."""
        self._store.clear()
