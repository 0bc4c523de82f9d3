"""The map protocol: one set of questions, answered by every kind of map.

As chess variants share one board and override a few hooks (python-chess's
``variant.py``), every map answers the same questions — distance, contact, line of
sight, reach, movement, area effects — in its own way. Maps register under a name.
"""

from __future__ import annotations

import difflib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

import numpy as np

from ..errors import SkirmishError, UnknownIdError
from .results import LineOfSight, MovePlan, MoveRange

MAPS: dict[str, type[Map]] = {}


def register_map(cls: type[Map]) -> type[Map]:
    """Class decorator: make a map kind known by its ``kind`` name."""
    MAPS[cls.kind] = cls
    return cls


def unknown_id(kind: str, name: str, known: Iterable[str], where: str = "") -> UnknownIdError:
    """An :class:`UnknownIdError` that lists close matches (the fix, most of the time)."""
    known = list(known)
    if not isinstance(name, str):  # (a wrong type: no close match to look for)
        return UnknownIdError(f"{where}a {kind} id is a string, got {name!r}")
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

    @abstractmethod
    def line_of_sight(self, a: str, b: str) -> LineOfSight:
        """Whether ``a`` sees ``b``, with the evidence (a witness or the blockers)."""

    def friends(self, a: str, b: str) -> bool:
        return self.side_of(a) == self.side_of(b)

    # -- movement (E-MOVE-*, P-MOVE) -------------------------------------------
    # Maps override these; ``to`` and path points are the map's own coordinates
    # (inches (x, y) on the table, (column, row) of a room on a grid), or a model id
    # for "move into base contact with it".
    def plan_move(self, model_id: str, to: tuple[float, float] | str) -> MovePlan:
        """The shortest legal movement of ``model_id`` to ``to`` this turn (or as near as it gets)."""
        raise self._unsupported("plan_move")

    def check_move(self, model_id: str, via: Sequence[tuple[float, float]]) -> MovePlan:
        """Check a declared path (its points after the start); the first violations are reported."""
        raise self._unsupported("check_move")

    def movement_range(self, model_id: str) -> MoveRange:
        """Where the model can end a movement this turn."""
        raise self._unsupported("movement_range")

    def _unsupported(self, what: str) -> SkirmishError:
        return SkirmishError(f"the {self.kind} map does not answer {what}")


class SameSpaceSight(Map):
    """A map where sight means sharing a space: a room on the grid, a region on the island.

    There is no witness segment and there are no blockers (the space's bounds are the
    proof). ``arc``, ``tolerance`` and ``fraction`` are accepted for the table's callers
    and ignored: a space has no facing and a visible piece is wholly visible.
    """

    #: The word for a space, given as the answer's ``stage`` ("room", "region").
    sight_space: ClassVar[str] = ""
    #: What two different pieces are called in the "to itself" error ("models", ...).
    sight_pieces: ClassVar[str] = "models"

    @abstractmethod
    def space_of(self, piece: str) -> object:
        """The space a piece is in (raises an unknown-id error for an unknown piece)."""

    def line_of_sight(self, a: str, b: str, *, arc: str = "all", tolerance: float = 0.0,
                      fraction: bool = False) -> LineOfSight:
        """Sight is sharing a space: ``reason`` is "clear" or "blocked"."""
        sa, sb = self.space_of(a), self.space_of(b)
        if a == b:
            raise SkirmishError(f"line of sight from {a!r} to itself: pick two different {self.sight_pieces}",
                                kind="same_model")
        same = sa == sb
        return LineOfSight(a, b, same, "clear" if same else "blocked", None, (), 0.0, "all", self.sight_space,
                           (1.0 if same else 0.0) if fraction else None)

    def line_of_sight_pairs(self, pairs: Sequence[tuple[str, str]], **kw: Any) -> list[LineOfSight]:
        return [self.line_of_sight(a, b, **kw) for a, b in pairs]

    def line_of_sight_all(self, **kw: Any) -> list[LineOfSight]:
        """Every ordered pair of distinct pieces."""
        ids = self.model_ids
        return self.line_of_sight_pairs([(x, y) for x in ids for y in ids if x != y], **kw)
