"""Who chooses in a fight: the built-in ``cautious`` and ``bold`` policies.

Both answer the shared :class:`~skirmish.game.policy.Policy` protocol; ``game`` is
the :class:`~.state.FightState` and the decisions are the ``"attack-6"``,
``"attack-5"``, ``"attack-4"``, ``"defence-4"`` rungs and ``"damage"``. Both are
deterministic (they never draw from ``rng``), so exact odds can follow them.

=========== ======================================== =======================================
decision    cautious                                 bold
=========== ======================================== =======================================
attack-6    extra damage if it fells the enemy,      extra damage
            else an action die next roll
attack-5    damage                                   extra damage, but take damage
attack-4    damage and lose the initiative           damage and take damage
defence-4   no damage                                take damage and the initiative
damage      drama, else an injury, else Health       drama, else Health while above 1,
                                                     else an injury, else Health
=========== ======================================== =======================================
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ...game.policy import Decision, register_policy
from .state import FightState

CAUTIOUS = {"attack-5": "damage", "attack-4": "lose", "defence-4": "safe"}
BOLD = {"attack-6": "extra", "attack-5": "extra", "attack-4": "hurt", "defence-4": "take"}


def _first(options: tuple[Any, ...], preference: tuple[str, ...]) -> Any:
    return next(p for p in preference if p in options)


@dataclass(frozen=True)
class CautiousPolicy:
    """Never takes damage by choice; spares Health with drama, then injuries."""

    name: str = "cautious"

    def choose(self, game: FightState, decision: Decision[Any], rng: random.Random) -> Any:
        if decision.kind == "damage":
            return _first(decision.options, ("drama", "injury", "health"))
        if decision.kind == "attack-6":
            return "extra" if game.enemy_health <= 2 else "die"
        return CAUTIOUS[decision.kind]


@dataclass(frozen=True)
class BoldPolicy:
    """Trades damage for tempo; keeps its dice clean by paying with Health while it can."""

    name: str = "bold"

    def choose(self, game: FightState, decision: Decision[Any], rng: random.Random) -> Any:
        if decision.kind == "damage":
            if game.health > 1 and "drama" not in decision.options:
                return "health"
            return _first(decision.options, ("drama", "injury", "health"))
        return BOLD[decision.kind]


register_policy("implant", "cautious", CautiousPolicy)
register_policy("implant", "bold", BoldPolicy)
