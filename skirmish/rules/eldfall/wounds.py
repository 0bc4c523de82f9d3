"""Wounds and the states they leave (E-WOUND)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ...errors import RuleInputError


class ModelState(str, Enum):
    """A model's condition after an exchange. Incapacitated and Dead are the rulebook's
    States (E-WOUND); Unharmed and Wounded only say whether it lost HP."""

    UNHARMED = "Unharmed"
    WOUNDED = "Wounded"
    INCAPACITATED = "Incapacitated"
    DEAD = "Dead"

    def __str__(self) -> str:
        return self.value


def wound_cap(hp: int | None, incapacitated: bool = False) -> int | None:
    """Most Wounds a model can take: its HP, or 1 (the killing Wound) when it is
    already Incapacitated; ``None`` when the HP is unknown (no cap)."""
    if incapacitated:
        if hp not in (None, 0):
            raise RuleInputError(f"an Incapacitated model has 0 HP, got HP {hp}")
        return 1
    if hp is None:
        return None
    if isinstance(hp, bool) or not isinstance(hp, int) or hp < 0:
        raise RuleInputError(f"HP is an integer 0 or more, got {hp!r}")
    return hp


@dataclass(frozen=True)
class WoundResult:
    """What Wounds did to one model: successful damage dice, Wounds taken (capped,
    E-WOUND), HP before/after and its state at the end of the Activation Sequence."""

    rolled: int
    taken: int
    hp_before: int | None
    hp_after: int | None
    incapacitated_before: bool
    state: ModelState


def state_after(taken: int, hp: int | None, incapacitated: bool = False) -> ModelState:
    """E-WOUND: the state once ``taken`` (already capped) Wounds are applied."""
    if incapacitated:
        return ModelState.DEAD if taken > 0 else ModelState.INCAPACITATED
    if hp is not None and hp - taken <= 0:
        return ModelState.INCAPACITATED
    return ModelState.WOUNDED if taken > 0 else ModelState.UNHARMED


def apply_wounds(rolled: int, hp: int | None, incapacitated: bool = False) -> WoundResult:
    """E-WOUND: apply ``rolled`` successful damage dice to a model.

    A model takes at most its HP in Wounds; at 0 HP it becomes Incapacitated (at the
    end of the Activation Sequence); an Incapacitated model that takes a Wound is Dead.
    """
    if isinstance(rolled, bool) or not isinstance(rolled, int) or rolled < 0:
        raise RuleInputError(f"wounds are a count 0 or more, got {rolled!r}")
    cap = wound_cap(hp, incapacitated)
    taken = rolled if cap is None else min(rolled, cap)
    hp_before = 0 if incapacitated else hp
    hp_after = None if hp_before is None else hp_before - (0 if incapacitated else taken)
    return WoundResult(rolled, taken, hp_before, hp_after, incapacitated, state_after(taken, hp, incapacitated))
