"""Modifiers and Strike: the numbers a d20 roll is made against.

Rules: E-MOD-SUM, E-MOD-ZERO, E-MOD-OVER, E-MOD-HALF (attributes), E-STK-REACT,
E-STK-SPLIT (Strike), E-ROLL-DMG / E-CRIT (the damage target). Values in, values out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...errors import RuleInputError

#: Faces of the die every roll uses.
D20 = 20

#: E-STK-REACT: a model's base Strike in the Reactive role, unless stated otherwise.
REACTIVE_BASE_STRIKE = 1


def _check_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleInputError(f"{name} must be an integer, got {value!r}")
    return value


def _check_face(face: int) -> int:
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= D20:
        raise RuleInputError(f"a d20 shows 1..20, got {face!r}")
    return face


@dataclass(frozen=True)
class ModifiedAttribute:
    """An attribute with its modifiers applied, keeping the evidence.

    ``value`` follows E-MOD-SUM (fixed modifiers are summed), E-MOD-HALF (halving or
    doubling after them, rounding up; both at once cancel) and E-MOD-ZERO (never
    below 0). A ``value`` of 0 fails automatically; above 20 a 20 is critical.
    """

    base: int
    modifiers: tuple[int, ...] = ()
    halved: bool = False
    doubled: bool = False

    def __post_init__(self) -> None:
        _check_int("a base attribute", self.base)
        if self.base < 0:
            raise RuleInputError(f"a base attribute is 0 or more, got {self.base}")
        object.__setattr__(self, "modifiers", tuple(self.modifiers))
        for m in self.modifiers:
            _check_int("a modifier", m)

    @property
    def total_modifier(self) -> int:
        """The fixed modifiers summed (E-MOD-SUM)."""
        return sum(self.modifiers)

    @property
    def value(self) -> int:
        """The modified attribute the d20 is compared with (0 or more)."""
        t = self.base + self.total_modifier
        if self.halved and not self.doubled:
            t = -(-t // 2)  # ceil(t / 2)
        elif self.doubled and not self.halved:
            t = 2 * t
        return max(t, 0)

    @property
    def fails_automatically(self) -> bool:
        """E-MOD-ZERO: modified to 0 (or less) the action fails without a roll."""
        return self.value == 0

    @property
    def critical_on_20(self) -> bool:
        """E-MOD-OVER: above 20, a 20 on an attack die is a Critical Hit."""
        return self.value > D20

    def succeeds(self, face: int) -> bool:
        """E-ROLL-ATTR / E-ROLL-ATK: a die succeeds when it is ≤ the modified value."""
        _check_face(face)
        return self.value >= 1 and face <= self.value

    def is_critical(self, face: int) -> bool:
        """E-CRIT: a successful attack die showing 1, or 20 under E-MOD-OVER."""
        return self.succeeds(face) and (face == 1 or (face == D20 and self.critical_on_20))

    def describe(self) -> str:
        """A short human form, e.g. ``13 -3 = 10, halved -> 5``."""
        text = str(self.base)
        for m in self.modifiers:
            text += f" {m:+d}"
        if self.modifiers:
            text += f" = {self.base + self.total_modifier}"
        if self.halved and self.doubled:
            text += ", halved and doubled (cancel)"
        elif self.halved:
            text += ", halved"
        elif self.doubled:
            text += ", doubled"
        if text != str(self.value):
            text += f" -> {self.value}"
        return text

    def __repr__(self) -> str:
        return f"ModifiedAttribute({self.describe()})"


def modify(base: int, *modifiers: int, halve: bool = False, double: bool = False) -> ModifiedAttribute:
    """Apply fixed modifiers, then halving/doubling, to a base attribute (E-MOD-*).

    >>> modify(13, -3, halve=True)
    ModifiedAttribute(13 -3 = 10, halved -> 5)
    >>> modify(13, -3, halve=True).value, modify(2, -3).fails_automatically, modify(22).critical_on_20
    (5, True, True)
    """
    return ModifiedAttribute(base, tuple(modifiers), bool(halve), bool(double))


def strike(stated: int | None = None, *modifiers: int) -> int:
    """A model's Strike: the stated value (1 when none is stated, E-STK-REACT) plus
    modifiers, never below 1."""
    base = REACTIVE_BASE_STRIKE if stated is None else _check_int("Strike", stated)
    if base < 1:
        raise RuleInputError(f"a stated Strike is 1 or more (E-STK-REACT), got {base}")
    for m in modifiers:
        _check_int("a Strike modifier", m)
    return max(1, base + sum(modifiers))


def split_strikes(total: int, shares: Sequence[int]) -> tuple[int, ...]:
    """E-STK-SPLIT: check a split of ``total`` Strikes among targets (one die share each).

    Every target gets at least one die and the shares use every Strike.
    """
    total = _check_int("Strike", total)
    shares = tuple(_check_int("a Strike share", s) for s in shares)
    if not shares:
        raise RuleInputError("a split needs at least one target")
    if any(s < 1 for s in shares):
        raise RuleInputError(f"every target of a split gets at least 1 Strike, got {'/'.join(map(str, shares))}")
    if sum(shares) != total:
        raise RuleInputError(
            f"a split must use all {total} Strikes, got {'/'.join(map(str, shares))} "
            f"(sum {sum(shares)})"
        )
    return shares


def damage_target(power: int, armor: int, critical: bool = False) -> int:
    """E-ROLL-DMG / E-CRIT: a damage die wounds when ≤ PW − ARM; a Critical Hit sets
    ARM to 0. The result may be ≤ 0 (no face wounds) or ≥ 20 (every face wounds)."""
    _check_int("PW", power)
    _check_int("ARM", armor)
    return power - (0 if critical else armor)


def wounds_on(face: int, target: int) -> bool:
    """E-ROLL-DMG: does a damage die showing ``face`` deal a Wound against ``target``?"""
    return _check_face(face) <= target
