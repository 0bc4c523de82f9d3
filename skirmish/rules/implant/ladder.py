"""I-LADDER: one d6 answers a closed question, from 6 "yes, and" down to 1 "no, and"."""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import RuleInputError


@dataclass(frozen=True)
class Rung:
    """One answer of the ladder: the die ``face``, its ``name`` and whether it is a yes."""

    face: int
    name: str
    meaning: str

    @property
    def yes(self) -> bool:
        """True for 4, 5 and 6 (the action succeeds)."""
        return self.face >= 4

    def __repr__(self) -> str:
        return f"Rung({self.face}, {self.name!r})"


LADDER: tuple[Rung, ...] = (
    Rung(1, "no, and", "the action fails and brings trouble"),
    Rung(2, "no", "the action fails"),
    Rung(3, "no, but", "the action fails, but not all is lost"),
    Rung(4, "yes, but", "the action succeeds with a complication"),
    Rung(5, "yes", "the action succeeds"),
    Rung(6, "yes, and", "the action succeeds very well"),
)
"""The six rungs, indexed by ``face - 1``."""

FACES: tuple[int, ...] = tuple(r.face for r in LADDER)

AUTO_YES = 5
"""The rung a pool of more than 5 action dice answers without a roll (a plain "yes")."""
AUTO_NO = 2
"""The rung a pool of more than 5 hindrance dice answers without a roll (a plain "no")."""


def rung(face: int) -> Rung:
    """The rung of a d6 face.

    >>> rung(4)
    Rung(4, 'yes, but')
    >>> rung(4).yes
    True
    """
    if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= 6:
        raise RuleInputError(f"I-LADDER: a d6 face is 1 to 6, got {face!r}")
    return LADDER[face - 1]
