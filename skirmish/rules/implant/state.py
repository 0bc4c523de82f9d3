"""A fight's setup and state: health on both sides, the initiative, injuries, drama."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ...errors import RuleInputError
from .pool import Pool, check_factors, pool
from .table import Holder, Side, side_of

Result = Literal["win", "die"]


@dataclass(frozen=True)
class Factors:
    """Helping and hindering factors of one side of the initiative (I-POOL)."""

    helps: int = 0
    hinders: int = 0

    def __post_init__(self) -> None:
        check_factors(self.helps, "helping factors")
        check_factors(self.hinders, "hindering factors")


def _positive(value: object, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RuleInputError(f"I-DAMAGE: {what} must be a whole number 1 or more, got {value!r}")


@dataclass(frozen=True)
class FightSetup:
    """A character against one enemy.

    ``attack`` and ``defence`` are the factors when the character holds the
    initiative and when the enemy does (one factor may help one and hinder the
    other); :func:`fight_setup` uses the same factors for both.
    """

    health: int
    enemy_health: int
    attack: Factors
    defence: Factors
    initiative: Holder = "me"
    drama: int = 0

    def __post_init__(self) -> None:
        _positive(self.health, "the character's Health")
        _positive(self.enemy_health, "the enemy's Health")
        if self.initiative not in ("me", "enemy"):
            raise RuleInputError(f"I-FIGHT: the initiative is 'me' or 'enemy', got {self.initiative!r}")
        if isinstance(self.drama, bool) or not isinstance(self.drama, int) or self.drama < 0:
            raise RuleInputError(f"I-DRAMA: drama points must be a whole number 0 or more, got {self.drama!r}")

    def factors(self, side: Side) -> Factors:
        return self.attack if side == "attack" else self.defence

    def start(self) -> FightState:
        """The state before the first roll."""
        return FightState(self, self.health, self.enemy_health, self.initiative, 0, self.drama, 0)


def fight_setup(health: int, enemy_health: int, helps: int = 0, hinders: int = 0, *,
                initiative: Holder = "me", drama: int = 0) -> FightSetup:
    """A setup whose factors are the same attacking and defending."""
    f = Factors(helps, hinders)
    return FightSetup(health, enemy_health, f, f, initiative, drama)


@dataclass(frozen=True)
class FightState:
    """Where a fight stands between two rolls.

    ``injuries`` each add a hindering factor to every roll; ``next_die`` is the die
    the last roll added to the next one (+1 action, -1 hindrance, 0 none).
    """

    setup: FightSetup
    health: int
    enemy_health: int
    initiative: Holder
    injuries: int
    drama: int
    next_die: int

    @property
    def side(self) -> Side:
        """The table of the next roll."""
        return side_of(self.initiative)

    @property
    def result(self) -> Result | None:
        """``"win"`` (the enemy is down), ``"die"`` (Health 0) or None (the fight goes on)."""
        if self.enemy_health <= 0:
            return "win"
        if self.health <= 0:
            return "die"
        return None

    def pool(self) -> Pool:
        """The dice of the next roll: the side's factors, the injuries and the next-roll die."""
        f = self.setup.factors(self.side)
        return pool(f.helps + (self.next_die > 0), f.hinders + self.injuries + (self.next_die < 0))

    def with_(self, *, health: int | None = None, enemy_health: int | None = None,
              initiative: Holder | None = None, injuries: int | None = None, drama: int | None = None,
              next_die: int | None = None) -> FightState:
        """A copy with the given fields changed (a fast ``dataclasses.replace``)."""
        return FightState(self.setup, self.health if health is None else health,
                          self.enemy_health if enemy_health is None else enemy_health,
                          self.initiative if initiative is None else initiative,
                          self.injuries if injuries is None else injuries,
                          self.drama if drama is None else drama,
                          self.next_die if next_die is None else next_die)

    def __repr__(self) -> str:
        extra = {1: ", +1 action die", -1: ", +1 hindrance die"}.get(self.next_die, "")
        return (f"FightState(health {self.health}, enemy {self.enemy_health}, initiative {self.initiative}, "
                f"injuries {self.injuries}, drama {self.drama}{extra})")
