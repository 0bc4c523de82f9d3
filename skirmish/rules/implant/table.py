"""I-FIGHT: what each rung does, with the initiative (attacking) and without it (defending).

Each rung offers one or two :class:`Effect` options; where there are two, the
player chooses one (a policy answers a ``Decision`` of kind ``"attack-6"``,
``"attack-5"``, ``"attack-4"`` or ``"defence-4"`` whose options are the effects' keys).

>>> [e.key for e in options("attack", 5)]
['damage', 'extra']
>>> options("defence", 1)[0]
Effect('hindered': take damage and a hindrance die next roll)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...errors import RuleInputError

Side = Literal["attack", "defence"]
Holder = Literal["me", "enemy"]


@dataclass(frozen=True)
class Effect:
    """One option of a rung: the damage the character deals (``deal``) and takes
    (``take``), who holds the initiative ``after`` and the die added to the next roll
    (``next_die``: +1 an action die, -1 a hindrance die)."""

    key: str
    text: str
    deal: int = 0
    take: int = 0
    after: Holder = "me"
    next_die: int = 0

    def __repr__(self) -> str:
        return f"Effect({self.key!r}: {self.text})"


ATTACK: dict[int, tuple[Effect, ...]] = {
    6: (Effect("extra", "damage and extra damage", deal=2),
        Effect("die", "damage and an action die next roll", deal=1, next_die=1)),
    5: (Effect("damage", "damage", deal=1),
        Effect("extra", "damage and extra damage, but take damage", deal=2, take=1)),
    4: (Effect("lose", "damage and lose the initiative", deal=1, after="enemy"),
        Effect("hurt", "damage and take damage", deal=1, take=1)),
    3: (Effect("nothing", "no damage"),),
    2: (Effect("lose", "no damage and lose the initiative", after="enemy"),),
    1: (Effect("hurt", "take damage and lose the initiative", take=1, after="enemy"),),
}
"""I-FIGHT with the initiative: the character attacks, the enemy defends."""

DEFENCE: dict[int, tuple[Effect, ...]] = {
    6: (Effect("counter", "no damage, deal damage and take the initiative", deal=1, after="me"),),
    5: (Effect("take", "no damage and take the initiative", after="me"),),
    4: (Effect("safe", "no damage", after="enemy"),
        Effect("take", "take damage and the initiative", take=1, after="me")),
    3: (Effect("hurt", "take damage and the initiative", take=1, after="me"),),
    2: (Effect("hurt", "take damage", take=1, after="enemy"),),
    1: (Effect("hindered", "take damage and a hindrance die next roll", take=1, after="enemy", next_die=-1),),
}
"""I-FIGHT without the initiative: the enemy attacks, the character defends."""


def side_of(initiative: Holder) -> Side:
    """The table the character rolls on: ``"attack"`` with the initiative, else ``"defence"``."""
    return "attack" if initiative == "me" else "defence"


def options(side: Side, face: int) -> tuple[Effect, ...]:
    """The options of rung ``face`` on ``side``'s table (one, or two to choose from)."""
    table = ATTACK if side == "attack" else DEFENCE if side == "defence" else None
    if table is None:
        raise RuleInputError(f"I-FIGHT: side must be 'attack' or 'defence', got {side!r}")
    if face not in table:
        raise RuleInputError(f"I-FIGHT: a d6 face is 1 to 6, got {face!r}")
    return table[face]
