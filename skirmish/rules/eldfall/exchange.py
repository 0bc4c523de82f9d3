"""The two sides of an attack exchange, as values (and their ``KEY=VALUE`` text form).

An *exchange* is one Attack of the Active model against one target. The Reactive
target either attacks back (a Confrontation, E-CONF), Dodges (E-DODGE) or only takes
the Hits (an unopposed attack). With E-STK-SPLIT the Active model's Strikes are split
among several targets: an *engagement* is then one exchange per target.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Literal

from ...errors import RuleInputError
from .modifiers import ModifiedAttribute, split_strikes, strike
from .rerolls import RerollRule
from .wounds import wound_cap

Kind = Literal["confrontation", "dodge", "unopposed"]

#: The most attack dice one side rolls (STK): odds stay exact and instant below it.
MAX_STRIKE = 30
#: The largest attribute, Power, Armor, HP or single modifier a side may state.
MAX_VALUE = 99


@dataclass(frozen=True)
class Side:
    """One model's numbers for an exchange (the text keys in brackets).

    att [ATT]: base attribute of its Attack (None: it does not attack);
    modifiers [MOD, repeatable]: fixed modifiers of its roll (the Attack, or the Dodge);
    halve/double [HALVE, DOUBLE]: E-MOD-HALF; stk [STK]: stated Strike (default 1);
    pw [PW]: Power of its attack; arm [ARM]: its Armor; hp [HP]: its current HP
    (None: unknown, Wounds uncapped); incapacitated [INC]: already Incapacitated;
    dodge [DODGE]: Agility for a Dodge (Reactive only); los [LOS]: the dodging model
    has LoS to the attacker (without it Agility is halved);
    reroll [REROLL=all]: reroll every failed attack (or Dodge) die once;
    reroll_dice [REROLL=k]: reroll up to k attack (or Dodge) dice once, chosen to
    maximise its expected Hits (E-ROLL-REROLL; see :mod:`.rerolls`);
    reroll_damage [REROLL_DMG]: reroll its failed damage dice once;
    split [SPLIT]: E-STK-SPLIT shares of the Strike, one per target (Active only).
    """

    att: int | None = None
    modifiers: tuple[int, ...] = ()
    halve: bool = False
    double: bool = False
    stk: int | None = None
    pw: int | None = None
    arm: int = 0
    hp: int | None = None
    incapacitated: bool = False
    dodge: int | None = None
    los: bool = True
    reroll: bool = False
    reroll_damage: bool = False
    reroll_dice: int = 0
    split: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "modifiers", tuple(self.modifiers))
        if self.split is not None:
            object.__setattr__(self, "split", tuple(self.split))
        for name in ("att", "stk", "pw", "arm", "hp", "dodge", "reroll_dice"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise RuleInputError(f"{name.upper()} must be an integer, got {value!r}")
        for name in ("att", "dodge", "pw", "arm", "reroll_dice"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise RuleInputError(f"{name.upper()} is 0 or more, got {value}")
        if self.stk is not None and self.stk < 1:
            raise RuleInputError(f"STK is 1 or more (E-STK-REACT: Strike is never below 1), got {self.stk}")
        if self.reroll and self.reroll_dice:
            raise RuleInputError(
                f"reroll either every failed die (REROLL=all) or up to k chosen dice (REROLL={self.reroll_dice}), not both"
            )
        if self.stk is not None and self.stk > MAX_STRIKE:
            raise RuleInputError(f"STK is at most {MAX_STRIKE} dice, got {self.stk}", kind="range")
        for name in ("att", "dodge", "pw", "arm", "hp"):
            value = getattr(self, name)
            if value is not None and value > MAX_VALUE:
                raise RuleInputError(f"{name.upper()} is at most {MAX_VALUE}, got {value}", kind="range")
        for m in self.modifiers:
            if isinstance(m, int) and not isinstance(m, bool) and abs(m) > MAX_VALUE:
                raise RuleInputError(f"MOD is between -{MAX_VALUE} and {MAX_VALUE}, got {m}", kind="range")
        if self.att is not None and self.dodge is not None:
            raise RuleInputError(
                "a model either attacks back (ATT) or Dodges (DODGE) as its Reaction, not both"
            )
        if not self.los and self.dodge is None:
            raise RuleInputError("LOS=0 (no LoS to the attacker) only applies to a Dodge: give DODGE too")
        wound_cap(self.hp, self.incapacitated)  # validates HP / INC
        if self.split is not None:
            split_strikes(self.strike, self.split)
        ModifiedAttribute(0, self.modifiers)  # validates the modifiers

    @property
    def attacks(self) -> bool:
        """Does this side roll an Attack (has ATT)?"""
        return self.att is not None

    @property
    def strike(self) -> int:
        """Its Strike: STK, or 1 when none is stated (E-STK-REACT)."""
        return strike(self.stk)

    @property
    def reroll_rule(self) -> RerollRule:
        """Its E-ROLL-REROLL rule for attack (or Dodge) dice."""
        if self.reroll:
            return RerollRule("all")
        if self.reroll_dice:
            return RerollRule("best", self.reroll_dice)
        return RerollRule()

    @property
    def attribute(self) -> ModifiedAttribute | None:
        """The modified attribute of its Attack (E-MOD-*), None when it does not attack."""
        if self.att is None:
            return None
        return ModifiedAttribute(self.att, self.modifiers, self.halve, self.double)

    @property
    def dodge_attribute(self) -> ModifiedAttribute | None:
        """The modified Agility of its Dodge; halved without LoS (E-DODGE)."""
        if self.dodge is None:
            return None
        return ModifiedAttribute(self.dodge, self.modifiers, self.halve or not self.los, self.double)

    @property
    def wound_cap(self) -> int | None:
        """Most Wounds it can take in one exchange (E-WOUND); None: unknown HP."""
        return wound_cap(self.hp, self.incapacitated)

    def __repr__(self) -> str:
        return f"Side({self.to_text()!r})"

    def to_text(self) -> str:
        """The ``KEY=VALUE,...`` form that :func:`parse_side` reads back."""
        items: list[str] = []
        for f in fields(self):
            value = getattr(self, f.name)
            if value == f.default or (f.name == "modifiers" and not value):
                continue
            key = _KEY_OF[f.name]
            if f.name == "modifiers":
                items += [f"MOD={m}" for m in value]
            elif f.name in ("reroll", "reroll_dice"):
                items.append(f"REROLL={self.reroll_rule.text()}")
            elif f.name == "split":
                items.append(f"SPLIT={'/'.join(map(str, value))}")
            elif isinstance(value, bool):
                items.append(f"{key}={int(value)}")
            else:
                items.append(f"{key}={value}")
        return ",".join(items)


_KEY_OF = {
    "att": "ATT", "modifiers": "MOD", "halve": "HALVE", "double": "DOUBLE", "stk": "STK",
    "pw": "PW", "arm": "ARM", "hp": "HP", "incapacitated": "INC", "dodge": "DODGE",
    "los": "LOS", "reroll": "REROLL", "reroll_damage": "REROLL_DMG", "split": "SPLIT",
    "reroll_dice": "REROLL",
}
_FIELD_OF = {key: name for name, key in _KEY_OF.items() if name != "reroll_dice"}
_FLAGS = {"HALVE", "DOUBLE", "INC", "LOS", "REROLL_DMG"}
KEYS: tuple[str, ...] = tuple(dict.fromkeys(_KEY_OF.values()))


def parse_side(text: str, *, option: str = "side") -> Side:
    """Read a ``KEY=VALUE,...`` list (e.g. ``ATT=13,MOD=-3,STK=2,PW=10``) into a Side.

    Keys are case-insensitive; ``MOD`` may repeat (the modifiers are summed, E-MOD-SUM);
    flags take 0 or 1; ``SPLIT`` takes shares joined by ``/`` (``SPLIT=2/1``);
    ``REROLL`` takes ``all`` (every failed die) or a count k (up to k chosen dice).
    Errors name ``option``, the bad item and the fix.

    >>> parse_side("ATT=13,MOD=-3,STK=2,PW=10").attribute.value
    10
    >>> parse_side("ATT=13,STK=two", option="--active")
    Traceback (most recent call last):
    ...
    skirmish.errors.RuleInputError: --active: 'STK=two': STK takes a whole number, like STK=1
    """
    values: dict[str, object] = {}
    modifiers: list[int] = []
    if not text.strip():
        raise RuleInputError(f"{option}: empty list; give KEY=VALUE items such as ATT=13,STK=2")
    for raw in text.split(","):
        item = raw.strip()
        if not item:
            raise RuleInputError(f"{option}: empty item in {text!r}; separate KEY=VALUE items by single commas")
        key, sep, value = item.partition("=")
        key, value = key.strip().upper(), value.strip()
        if not sep or not key:
            raise RuleInputError(f"{option}: {item!r} is not KEY=VALUE; write it like ATT=13")
        if key not in _FIELD_OF:
            raise RuleInputError(f"{option}: unknown key {key!r} in {item!r}; known keys: {', '.join(KEYS)}")
        if key in values or (key == "REROLL" and "REROLL_DICE" in values):
            raise RuleInputError(f"{option}: {key} given twice; give each key once (only MOD may repeat)")
        if key == "SPLIT":
            parts = value.split("/")
            try:
                values[key] = tuple(int(p) for p in parts)
            except ValueError:
                raise RuleInputError(
                    f"{option}: {item!r}: SPLIT takes whole numbers joined by '/', like SPLIT=2/1"
                ) from None
            continue
        if key == "REROLL":
            if value.lower() == "all":
                values[key] = True
                continue
            try:
                count = int(value)
            except ValueError:
                raise RuleInputError(
                    f"{option}: {item!r}: REROLL takes 'all' (every failed die) or a count of dice, like REROLL=1"
                ) from None
            if count < 0:
                raise RuleInputError(f"{option}: {item!r}: REROLL counts dice, 0 or more")
            values["REROLL_DICE"] = count
            continue
        try:
            number = int(value)
        except ValueError:
            raise RuleInputError(f"{option}: {item!r}: {key} takes a whole number, like {key}=1") from None
        if key == "MOD":
            modifiers.append(number)
        elif key in _FLAGS:
            if number not in (0, 1):
                raise RuleInputError(f"{option}: {item!r}: {key} is a flag, write {key}=0 or {key}=1")
            values[key] = bool(number)
        else:
            values[key] = number
    kwargs = {("reroll_dice" if k == "REROLL_DICE" else _FIELD_OF[k]): v for k, v in values.items()}
    try:
        return Side(modifiers=tuple(modifiers), **kwargs)  # type: ignore[arg-type]
    except RuleInputError as exc:
        raise RuleInputError(f"{option}: {exc} (in {text!r})", kind=exc.kind) from None


@dataclass(frozen=True)
class Exchange:
    """One Attack of ``active`` against ``reactive``, rolling ``dice`` attack dice
    (default: the Active Strike; fewer under E-STK-SPLIT)."""

    active: Side
    reactive: Side
    dice: int | None = field(default=None)

    def __post_init__(self) -> None:
        if not self.active.attacks:
            raise RuleInputError("the Active side declares an Attack: give it ATT")
        if self.reactive.split is not None:
            raise RuleInputError("only the Active side splits its Strikes (E-STK-SPLIT): SPLIT belongs to the Active side")
        if self.dice is not None:
            if isinstance(self.dice, bool) or not isinstance(self.dice, int) or not 1 <= self.dice <= self.active.strike:
                raise RuleInputError(
                    f"an exchange rolls 1..{self.active.strike} Active dice (its Strike), got {self.dice!r}"
                )

    @property
    def kind(self) -> Kind:
        """``confrontation`` (the target attacks back), ``dodge`` or ``unopposed``."""
        if self.reactive.attacks:
            return "confrontation"
        if self.reactive.dodge is not None:
            return "dodge"
        return "unopposed"

    @property
    def active_dice(self) -> int:
        """Attack dice the Active model rolls against this target."""
        return self.active.strike if self.dice is None else self.dice

    @property
    def reactive_dice(self) -> int:
        """Attack dice the Reactive model rolls (0 unless it attacks back)."""
        return self.reactive.strike if self.reactive.attacks else 0


def engagement(active: Side, reactives: Sequence[Side]) -> tuple[Exchange, ...]:
    """E-STK-SPLIT: one exchange per target. With one target every Strike goes to it;
    with several, ``active.split`` gives the dice for each target in order."""
    reactives = tuple(reactives)
    if not reactives:
        raise RuleInputError("an Attack needs at least one Reactive target")
    if active.split is None:
        if len(reactives) > 1:
            raise RuleInputError(
                f"{len(reactives)} targets: say how the Active Strike {active.strike} is split, "
                f"e.g. SPLIT={'/'.join(['1'] * len(reactives))} (E-STK-SPLIT)"
            )
        return (Exchange(active, reactives[0]),)
    if len(active.split) != len(reactives):
        raise RuleInputError(
            f"SPLIT={'/'.join(map(str, active.split))} has {len(active.split)} shares "
            f"for {len(reactives)} targets; give one share per target"
        )
    return tuple(Exchange(active, r, dice) for r, dice in zip(reactives, active.split))
