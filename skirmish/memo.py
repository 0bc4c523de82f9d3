"""A small bounded memo for answers computed from immutable objects (tables, solids)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from operator import is_
from typing import Any, Generic, TypeVar

T = TypeVar("T")
_MISSING: Any = object()


class IdentityMemo(Generic[T]):
    """Answers by key, each kept with the objects it was made from: a key holds their
    ids, and a hit counts only when those very objects are still the ones asked about
    (an id may be reused once an object is gone). At most ``size`` answers, the oldest
    dropped first."""

    def __init__(self, size: int):
        self.size = size
        # (ordered: dropping the oldest of a plain dict scans past every slot deleted before
        # it, some thousand in a full memo of thousands)
        self._store: OrderedDict[tuple[Any, ...], tuple[tuple[Any, ...], T]] = OrderedDict()

    def find(self, key: tuple[Any, ...], refs: tuple[Any, ...], default: Any = None) -> T | Any:
        """The answer kept for ``key`` made from ``refs``, else ``default``."""
        hit = self._store.get(key)
        if hit is not None and len(hit[0]) == len(refs) and all(map(is_, hit[0], refs)):
            return hit[1]
        return default

    def put(self, key: tuple[Any, ...], refs: tuple[Any, ...], value: T) -> T:
        """Keep ``value`` for ``key``, made from ``refs``; returns it."""
        store = self._store
        store[key] = (refs, value)  # (a key kept already keeps its place: the store does not grow)
        if len(store) > self.size:
            store.popitem(last=False)
        return value

    def get(self, key: tuple[Any, ...], refs: tuple[Any, ...], make: Callable[[], T]) -> T:
        """The answer kept for ``key`` made from ``refs``, else ``make()``, kept."""
        hit = self._store.get(key)  # (find's test, inline: the memos' hot path)
        if hit is not None and len(hit[0]) == len(refs) and all(map(is_, hit[0], refs)):
            return hit[1]
        return self.put(key, refs, make())

    def clear(self) -> None:
        """Forget every answer."""
        self._store.clear()

    def __len__(self) -> int:
        return len(self._store)
