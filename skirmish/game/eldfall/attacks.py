"""The geometry and the two Sides of an attack in a game (E-ACTION-ATTACK, E-REACTION).

Line of sight, reach bands and cover come from the table (E-LOS, E-REACH, E-COVER);
the exchange and its dice from :mod:`skirmish.rules.eldfall` (E-CONF, E-DODGE).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...maps.pieces import Model
from ...maps.results import Cover, LineOfSight, Reach
from ...maps.table import Table
from ...rules.eldfall.exchange import Side
from ...rules.eldfall.weapons import Weapon
from .state import Unit


@dataclass(frozen=True)
class AttackGeometry:
    """One declared attack's facts on one table: LoS (with its witness), the reach
    band and its Accuracy, and Cover for a ranged weapon."""

    attacker: str
    target: str
    weapon: Weapon
    sight: LineOfSight
    reach: Reach
    cover: Cover | None

    @property
    def legal(self) -> bool:
        return self.sight.visible and self.reach.in_reach

    @property
    def modifiers(self) -> tuple[int, ...]:
        """The attacker's fixed modifiers: the band's Accuracy and the target's Cover."""
        mods = (self.reach.accuracy or 0, self.cover.modifier if self.cover else 0)
        return tuple(m for m in mods if m)

    def to_json(self) -> dict[str, object]:
        return {"weapon": self.weapon.name, "distance": round(self.reach.distance, 4), "band": self.reach.band,
                "accuracy": self.reach.accuracy, "cover": self.cover.to_json() if self.cover else None,
                "witness": [list(p) for p in self.sight.witness] if self.sight.witness else None}


def usable_weapons(model: Model) -> tuple[Weapon, ...]:
    """The weapons the model can attack with: a Power, and the attribute they roll against."""
    return tuple(w for w in model.weapons if w.pw is not None and model.attributes.get(w.attribute) is not None)


def attack_geometry(table: Table, attacker: str, target: str, weapon: Weapon, *,
                    sight: LineOfSight | None = None, with_cover: bool = True) -> AttackGeometry:
    """LoS from the attacker's front arc, reach band and (ranged) Cover, on ``table``."""
    if sight is None:
        sight = table.line_of_sight(attacker, target)
    reach = table.reach(attacker, target, weapon)
    cover = table.cover(attacker, target) if (weapon.ranged and with_cover and sight.visible and reach.in_reach) \
        else None
    return AttackGeometry(attacker, target, weapon, sight, reach, cover)


def strike_of(model: Model, unit: Unit, weapon: Weapon) -> int:
    """Active Strike: the weapon's STK (a number or the wielder's attribute); 1 when
    Crouched (E-STATE-CROUCHED) or unknown."""
    if "Crouched" in unit.states:
        return 1
    s = weapon.strike(dict(model.attributes))
    return max(1, s or 1)


def armour_of(model: Model, unit: Unit) -> int:
    """ARM, halved (rounded up) when Crouched (E-STATE-CROUCHED)."""
    arm = int(model.attributes.get("ARM", 0))
    return -(-arm // 2) if "Crouched" in unit.states else arm


def attacking_side(model: Model, unit: Unit, geo: AttackGeometry, *, reactive: bool) -> Side:
    """The attacker's Side: its weapon's attribute and Power, the band and Cover
    modifiers, its Strike (1 when Reactive, E-STK-REACT), its ARM and HP."""
    w = geo.weapon
    return Side(att=int(model.attributes[w.attribute]), modifiers=geo.modifiers, pw=w.pw,
                stk=None if reactive else strike_of(model, unit, w), arm=armour_of(model, unit), hp=unit.hp)


def defending_side(model: Model, unit: Unit, *, dodge: bool = False, los: bool = True) -> Side:
    """A Side that does not attack: its ARM and HP, and its Agility when it Dodges
    (halved without LoS to the attacker, E-DODGE)."""
    agi = model.attributes.get("AGI", 0) if dodge else None
    return Side(arm=armour_of(model, unit), hp=unit.hp, dodge=agi, los=los if dodge else True)
