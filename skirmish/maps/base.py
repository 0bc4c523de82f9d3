"""The map protocol: one set of questions, answered by every kind of map.

As chess variants share one board and override a few hooks (python-chess's
``variant.py``), every map answers the same questions — distance, contact, line of
sight, reach, movement, area effects — in its own way. Maps register under a name.
"""

from __future__ import annotations

import difflib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import ClassVar

import numpy as np

from ..errors import UnknownIdError

MAPS: dict[str, type[Map]] = {}


def register_map(cls: type[Map]) -> type[Map]:
    """Class decorator: make a map kind known by its ``kind`` name."""
    MAPS[cls.kind] = cls
    return cls


def unknown_id(kind: str, name: str, known: Iterable[str], where: str = "") -> UnknownIdError:
    """An :class:`UnknownIdError` that lists close matches (the fix, most of the time)."""
    known = list(known)
    close = difflib.get_close_matches(name, known, n=3)
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else (
        f"; known: {', '.join(known[:12])}{' ...' if len(known) > 12 else ''}" if known else "")
    return UnknownIdError(f"{where}no {kind} with id {name!r}{hint}")


class Map(ABC):
    """The questions every map answers. Subclasses set ``kind`` and the unit of length."""

    kind: ClassVar[str] = ""
    #: The unit distances are given in ("in" on the table, "steps" on a grid).
    unit: ClassVar[str] = ""

    @property
    @abstractmethod
    def model_ids(self) -> Sequence[str]:
        """Ids of the models on the map, in file order."""

    @abstractmethod
    def side_of(self, model_id: str) -> str:
        """The side (player) a model belongs to; models of one side are friends."""

    @abstractmethod
    def distance(self, a: str, b: str) -> float:
        """Distance between two models in this map's unit."""

    @abstractmethod
    def distance_matrix(self) -> tuple[tuple[str, ...], np.ndarray]:
        """All-pairs distances in one call: ``(ids, matrix)``, agreeing with :meth:`distance`."""

    @abstractmethod
    def in_contact(self, a: str, b: str) -> bool:
        """Whether two pieces are in base contact (every model is in contact with itself)."""

    def friends(self, a: str, b: str) -> bool:
        return self.side_of(a) == self.side_of(b)
