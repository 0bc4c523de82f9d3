"""Effects on a fighter's stat slots (P-EFFECT).

Each of the Attack, Defense and Energy slots holds at most one effect:

- negative: Powerless (Attack: no +1 against the opposite element), Non-resistance
  (Defense: no −1 from an attack of its own element), Shock (Energy: no energy
  shield), and lowering a stat (``attack-1``, ``defense-2``);
- positive: raising a stat (``attack+1``, ``defense+2``).

A new effect in a slot replaces the old one, so raising a stat removes its negative
effect; Shock goes when Energy is restored by an ability.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum

from ...errors import RuleInputError


class Slot(str, Enum):
    """The stat slot an effect token sits on."""

    ATTACK = "attack"
    DEFENSE = "defense"
    ENERGY = "energy"

    def __str__(self) -> str:
        return self.value


#: The named conditions and their slots.
CONDITIONS: dict[str, Slot] = {"powerless": Slot.ATTACK, "nonresistance": Slot.DEFENSE, "shock": Slot.ENERGY}
_CHANGE = re.compile(r"^(attack|defense)\s*([+-])\s*([1-6])$")


@dataclass(frozen=True)
class Effect:
    """One effect token: a named condition, or a stat change of ``amount`` (±1..6)."""

    name: str  # "powerless" | "nonresistance" | "shock" | "raise" | "lower"
    slot: Slot
    amount: int = 0

    def __post_init__(self) -> None:
        if self.name in CONDITIONS:
            if self.slot is not CONDITIONS[self.name] or self.amount:
                raise RuleInputError(f"{self.name} sits on the {CONDITIONS[self.name]} slot with no amount")
        elif self.name in ("raise", "lower"):
            if self.slot is Slot.ENERGY or not 1 <= abs(self.amount) <= 6 or (self.amount > 0) != (self.name == "raise"):
                raise RuleInputError(f"a stat change is attack±N or defense±N (N 1..6), got {self!s}")
        else:
            raise RuleInputError(f"unknown effect {self.name!r}")

    @property
    def negative(self) -> bool:
        return self.name != "raise"

    @property
    def modifier(self) -> int:
        """What it adds to its slot's stat (0 for the named conditions)."""
        return self.amount

    def __str__(self) -> str:
        return self.name if self.name in CONDITIONS else f"{self.slot.value}{self.amount:+d}"

    def __repr__(self) -> str:
        return f"Effect({str(self)!r})"


POWERLESS = Effect("powerless", Slot.ATTACK)
NONRESISTANCE = Effect("nonresistance", Slot.DEFENSE)
SHOCK = Effect("shock", Slot.ENERGY)
EFFECT_SYNTAX = "powerless, nonresistance, shock, or a stat change like attack+1, defense-2"


def parse_effect(text: object) -> Effect:
    """An effect from its name: ``powerless``, ``nonresistance``, ``shock``, ``attack+1``, ``defense-2``, ...

    >>> parse_effect("Shock"), parse_effect("attack+1"), parse_effect("defense-2").negative
    (Effect('shock'), Effect('attack+1'), True)
    """
    if isinstance(text, Effect):
        return text
    if isinstance(text, str):
        t = text.strip().lower().replace("-resistance", "resistance").replace("non resistance", "nonresistance")
        if t in CONDITIONS:
            return Effect(t, CONDITIONS[t])
        m = _CHANGE.match(t)
        if m:
            amount = int(m.group(3)) * (1 if m.group(2) == "+" else -1)
            return Effect("raise" if amount > 0 else "lower", Slot(m.group(1)), amount)
    raise RuleInputError(f"expected an effect: {EFFECT_SYNTAX}; got {text!r}")


@dataclass(frozen=True)
class Effects:
    """The effects on one fighter, one per slot (P-EFFECT), in slot order."""

    items: tuple[Effect, ...] = ()

    def __post_init__(self) -> None:
        slots = [e.slot for e in self.items]
        if len(set(slots)) != len(slots):
            raise RuleInputError("one effect per slot (P-EFFECT)")
        object.__setattr__(self, "items", tuple(sorted(self.items, key=lambda e: list(Slot).index(e.slot))))

    @classmethod
    def of(cls, effects: Iterable[Effect | str]) -> Effects:
        """Effects applied in order (a later one replaces an earlier one in its slot)."""
        out = cls()
        for e in effects:
            out = out.apply(parse_effect(e))
        return out

    def __iter__(self) -> Iterator[Effect]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __repr__(self) -> str:
        return f"Effects({', '.join(str(e) for e in self.items)})"

    def get(self, slot: Slot) -> Effect | None:
        return next((e for e in self.items if e.slot is slot), None)

    def has(self, name: str) -> bool:
        return any(e.name == name for e in self.items)

    def apply(self, effect: Effect) -> Effects:
        """Put ``effect`` on its slot, replacing what was there (P-EFFECT)."""
        return Effects(tuple(e for e in self.items if e.slot is not effect.slot) + (effect,))

    def remove(self, slot: Slot) -> Effects:
        return Effects(tuple(e for e in self.items if e.slot is not slot))

    def negatives(self) -> tuple[Effect, ...]:
        return tuple(e for e in self.items if e.negative)

    def modifier(self, slot: Slot) -> int:
        e = self.get(slot)
        return 0 if e is None else e.modifier

    @property
    def powerless(self) -> bool:
        return self.has("powerless")

    @property
    def nonresistance(self) -> bool:
        return self.has("nonresistance")

    @property
    def shocked(self) -> bool:
        return self.has("shock")

    def to_json(self) -> list[str]:
        return [str(e) for e in self.items]
