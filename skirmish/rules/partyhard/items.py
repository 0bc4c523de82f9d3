"""Items (weapon, armour, accessory) and abilities, and the built-in catalogue."""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import Literal, TypeVar

from ...errors import RuleInputError, UnknownIdError
from .effects import Effect, parse_effect
from .elements import Element
from .stats import STATS


class ItemKind(str, Enum):
    """A character carries at most one item of each kind."""

    WEAPON = "weapon"
    ARMOR = "armor"
    ACCESSORY = "accessory"

    def __str__(self) -> str:
        return self.value


def _frozen(m: Mapping[str, int] | None) -> Mapping[str, int]:
    return MappingProxyType(dict(m or {}))


@dataclass(frozen=True)
class Item:
    """An item card.

    ``bonus``: a weapon's bonus is added to every damage (and healing) its wearer
    deals (P-DMG "weapon bonus"); an armour's bonus is added to Defense. ``element``:
    a weapon's is the element of plain weapon hits and of the +1 match; an armour's
    is its wearer's defence element. ``stats`` raise or lower stats (may be negative).
    ``effect``: a weapon puts it on the first target of every damaging attack.
    ``immune``: effects the wearer does not take. ``no_energy_regen``: the item takes
    away every way of regaining Energy (per-turn regeneration, rest, restore).
    """

    name: str
    kind: ItemKind
    element: Element | None = None
    bonus: int = 0
    stats: Mapping[str, int] = field(default_factory=dict, hash=False)
    effect: Effect | None = None
    immune: frozenset[str] = frozenset()
    no_energy_regen: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", ItemKind(self.kind))
        object.__setattr__(self, "stats", _frozen(self.stats))
        object.__setattr__(self, "immune", frozenset(self.immune))
        bad = [k for k in self.stats if k not in STATS]
        if bad:
            raise RuleInputError(f"item {self.name!r}: unknown stat {bad[0]!r} (stats: {', '.join(STATS)})")
        if self.kind is ItemKind.ACCESSORY and self.bonus:
            raise RuleInputError(f"item {self.name!r}: an accessory has no bonus; give stats = {{...}}")
        if self.effect is not None and self.kind is not ItemKind.WEAPON:
            raise RuleInputError(f"item {self.name!r}: only weapons put effects on their targets")

    def __repr__(self) -> str:
        el = f" {self.element.value}" if self.element else ""
        return f"Item({self.name!r}, {self.kind.value}{el} {self.bonus:+d})"

    def stat_bonus(self, stat: str) -> int:
        """What the item adds to ``stat`` (an armour's bonus counts for Defense)."""
        extra = self.bonus if (stat == "defense" and self.kind is ItemKind.ARMOR) else 0
        return int(self.stats.get(stat, 0)) + extra

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "kind": self.kind.value, "element": None if self.element is None else self.element.value,
                "bonus": self.bonus, "stats": dict(self.stats), "effect": None if self.effect is None else str(self.effect),
                "immune": sorted(self.immune), "no_energy_regen": self.no_energy_regen}


Target = Literal["enemies", "allies", "self"]
#: P-DMG: an ability whose damage is its user's Attack (the seed: "Attack is the damage of
#: every attacking ability that gives no other formula").
ATTACK: Literal["attack"] = "attack"


@dataclass(frozen=True)
class Ability:
    """An ability card: ``cost`` Energy, an element, and what it does to up to
    ``targets`` consecutive places (P-LINE) of the enemy row, its own row, or itself.

    ``damage``: base damage (P-DMG): a number, or ``"attack"`` (:data:`ATTACK`) for
    the user's Attack stat; ``heal``: base healing (P-HEAL); at most one of the two. ``effect`` goes on every affected target. ``burns``: Energy burned from each
    target before it may shield (P-SHIELD). ``restore``: Energy restored to each
    target (it also removes Shock, P-EFFECT). Creatures pay no Energy for theirs.
    """

    name: str
    cost: int = 1
    element: Element | None = None
    damage: int | Literal["attack"] | None = None
    heal: int | None = None
    targets: int = 1
    on: Target = "enemies"
    effect: Effect | None = None
    burns: int = 0
    restore: int = 0

    def __post_init__(self) -> None:
        if self.damage is not None and self.heal is not None:
            raise RuleInputError(f"ability {self.name!r}: give damage or heal, not both")
        if (self.damage is not None or self.heal is not None) and self.element is None:
            raise RuleInputError(f"ability {self.name!r}: damage and healing have an element (matter, ether, void)")
        if self.damage is None and self.heal is None and self.effect is None and not self.burns and not self.restore:
            raise RuleInputError(f"ability {self.name!r} does nothing: give damage, heal, effect, burns or restore")
        for name in ("cost", "burns", "restore"):
            v = getattr(self, name)
            if v < 0:
                raise RuleInputError(f"ability {self.name!r}: {name} is 0 or more, got {v}")
        if isinstance(self.damage, str) and self.damage != ATTACK:
            raise RuleInputError(f"ability {self.name!r}: damage is a number or {ATTACK!r}, got {self.damage!r}")
        for name in ("damage", "heal"):
            v = getattr(self, name)
            if isinstance(v, int) and v < 0:
                raise RuleInputError(f"ability {self.name!r}: {name} is 0 or more, got {v}")
        if not 1 <= self.targets <= 4:
            raise RuleInputError(f"ability {self.name!r}: targets is 1..4 (a row has at most four places), got {self.targets}")
        if self.on not in ("enemies", "allies", "self"):
            raise RuleInputError(f"ability {self.name!r}: on is enemies, allies or self, got {self.on!r}")
        if self.on == "self" and self.targets != 1:
            raise RuleInputError(f"ability {self.name!r}: an ability on self has one target")

    def __repr__(self) -> str:
        what = (f"damage {self.damage}" if self.damage is not None else f"heal {self.heal}" if self.heal is not None
                else str(self.effect) if self.effect else "utility")
        el = f" {self.element.value}" if self.element else ""
        return f"Ability({self.name!r}, cost {self.cost}{el} {what}, {self.targets} target{'s' * (self.targets > 1)} on {self.on})"

    @property
    def damaging(self) -> bool:
        """Whether it deals damage (P-DMG): ``damage = 0`` says "no damage" — such an
        ability only burns, restores or puts its effect (docs/partyhard.md, interpretation 20)."""
        return self.damage is not None and self.damage != 0

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "cost": self.cost, "element": None if self.element is None else self.element.value,
                "damage": self.damage, "heal": self.heal, "targets": self.targets, "on": self.on,
                "effect": None if self.effect is None else str(self.effect), "burns": self.burns, "restore": self.restore}


def default_target(damage: int | None, heal: int | None, effect: Effect | None, restore: int) -> Target:
    """Whom an ability affects when its card does not say: enemies for damage and
    negative effects, allies for healing, restoring and positive effects."""
    if damage is not None:
        return "enemies"
    if heal is not None or restore:
        return "allies"
    return "enemies" if (effect is None or effect.negative) else "allies"


def key_of(text: str) -> str:
    """The catalogue key of a name: lower case, words joined by hyphens (``Void Arrow`` → ``void-arrow``)."""
    return re.sub(r"[^a-z0-9]+", "-", text.strip().lower()).strip("-")


T = TypeVar("T", Item, Ability)


def lookup(catalogue: Mapping[str, T], text: str, what: str) -> T:
    """A catalogue entry by key or by name, ignoring case, spaces and hyphens."""
    want = key_of(text)
    for k, v in catalogue.items():
        if key_of(k) == want or key_of(v.name) == want:
            return v
    names = [v.name for v in catalogue.values()]
    close = difflib.get_close_matches(text, names, n=3, cutoff=0.5)
    hint = f"did you mean {', '.join(repr(c) for c in close)}?" if close else f"known: {', '.join(names)}"
    raise UnknownIdError(f"no {what} named {text!r}; {hint}")


# -- the built-in catalogue: the cards the rules text names, and a few more --------------
E = Element
BUILTIN_ITEMS: Mapping[str, Item] = MappingProxyType({
    "void-shard": Item("Void Shard", ItemKind.WEAPON, E.VOID, 1),
    "matter-shard": Item("Matter Shard", ItemKind.WEAPON, E.MATTER, 1),
    "ether-shard": Item("Ether Shard", ItemKind.WEAPON, E.ETHER, 1),
    "shock-prism": Item("Shock Prism", ItemKind.WEAPON, E.ETHER, 0, effect=parse_effect("shock")),
    "matter-shield": Item("Matter Shield", ItemKind.ARMOR, E.MATTER, 1),
    "void-shield": Item("Void Shield", ItemKind.ARMOR, E.VOID, 1),
    "ether-shield": Item("Ether Shield", ItemKind.ARMOR, E.ETHER, 1),
    "grounding-charm": Item("Grounding Charm", ItemKind.ACCESSORY, stats={"defense": 1}, immune=frozenset({"shock"})),
    "hungry-crown": Item("Hungry Crown", ItemKind.ACCESSORY, stats={"attack": 2}, no_energy_regen=True),
})
BUILTIN_ABILITIES: Mapping[str, Ability] = MappingProxyType({
    "void-arrow": Ability("Void Arrow", 1, E.VOID, damage=ATTACK),  # the seed: "void damage", no other formula
    "matter-blast": Ability("Matter Blast", 2, E.MATTER, damage=2),
    "ether-wave": Ability("Ether Wave", 2, E.ETHER, damage=1, targets=2),
    "void-sweep": Ability("Void Sweep", 3, E.VOID, damage=1, targets=3),
    "mend": Ability("Mend", 1, E.ETHER, heal=2, on="allies"),
    "drain": Ability("Drain", 1, E.VOID, damage=0, burns=2),
    "hex": Ability("Hex", 1, None, effect=parse_effect("powerless"), on="enemies"),
    "expose": Ability("Expose", 1, None, effect=parse_effect("nonresistance"), on="enemies"),
    "jolt": Ability("Jolt", 1, E.ETHER, damage=0, effect=parse_effect("shock")),
    "rally": Ability("Rally", 1, None, effect=parse_effect("attack+1"), targets=2, on="allies"),
    "bulwark": Ability("Bulwark", 1, None, effect=parse_effect("defense+1"), on="self"),
    "recharge": Ability("Recharge", 0, None, restore=2, on="allies"),
})
