"""I-DAMAGE: the character deals 1 damage; taking damage, the player chooses how.

Taking one damage, the player chooses an injury (one more hindering factor on
every roll), -1 Health (0 is death) or spending a drama point to ignore it.

*Interpretation* ("almost unlimited" injuries): an injury may be taken only while,
with it, both the attacking and the defending pool are still rolled (at most 5
hindrance dice). Beyond that an injury would change nothing, a character could
take them forever and the fight would never end.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from ...errors import IllegalActionError
from .pool import pool
from .state import FightSetup, FightState

DamageChoice = Literal["drama", "injury", "health"]
DAMAGE_CHOICES: tuple[DamageChoice, ...] = ("drama", "injury", "health")


@lru_cache(maxsize=1024)
def max_injuries(setup: FightSetup) -> int:
    """The most injuries ``setup``'s character can take: while both pools still roll.

    >>> from skirmish.rules.implant import fight_setup
    >>> max_injuries(fight_setup(3, 3, helps=1, hinders=0))    # 1 - 5 + 1 = 5 hindrance dice
    5
    """
    most = 0
    while all(pool(f.helps, f.hinders + most + 1).auto != "no" for f in (setup.attack, setup.defence)):
        most += 1
    return most


def injury_allowed(state: FightState) -> bool:
    """Whether one more injury leaves both pools rolling (see the module docstring)."""
    return state.injuries < max_injuries(state.setup)


def damage_options(state: FightState) -> tuple[DamageChoice, ...]:
    """The ways ``state``'s character can take one damage, in the order of DAMAGE_CHOICES."""
    out: list[DamageChoice] = []
    if state.drama > 0:
        out.append("drama")
    if injury_allowed(state):
        out.append("injury")
    out.append("health")
    return tuple(out)


def take_damage(state: FightState, choice: str) -> FightState:
    """``state`` after one damage taken as ``choice``."""
    if choice not in damage_options(state):
        raise IllegalActionError(f"I-DAMAGE: cannot take damage as {choice!r} in {state!r}; "
                                 f"choose one of {', '.join(damage_options(state))}")
    if choice == "drama":
        return state.with_(drama=state.drama - 1)
    if choice == "injury":
        return state.with_(injuries=state.injuries + 1)
    return state.with_(health=state.health - 1)
