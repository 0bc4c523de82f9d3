"""Damage and healing (P-DMG, P-HEAL, P-STREAK) and the energy shield (P-SHIELD).

Everything here is exact arithmetic: Party Hard rolls no dice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ...errors import RuleInputError
from .elements import Element, relation
from .fighter import Fighter
from .items import ATTACK, Ability

Kind = Literal["damage", "heal"]


@dataclass(frozen=True)
class Breakdown:
    """One damage (or healing) calculation, term by term (P-DMG, P-HEAL).

    ``total`` = max(0, base + weapon_bonus + match + relation + streak − defense).
    """

    kind: Kind
    base: int
    base_from: str  # e.g. 'Void Arrow' or 'Attack'
    element: Element | None
    weapon_bonus: int = 0
    weapon: str | None = None
    weapon_element: Element | None = None
    match: int = 0
    relation: int = 0
    target_element: Element | None = None
    streak: int = 0
    defense: int = 0
    notes: tuple[str, ...] = ()

    @property
    def raw(self) -> int:
        """The sum before it is floored at 0."""
        return self.base + self.weapon_bonus + self.match + self.relation + self.streak - self.defense

    @property
    def total(self) -> int:
        """The damage dealt (or Health restored): never below 0."""
        return max(0, self.raw)

    def terms(self) -> list[tuple[int, str]]:
        """The non-zero terms (the base always) with a label each, in formula order."""
        el = self.element.value if self.element else "no element"
        out = [(self.base, f"base: {self.base_from}" if self.base_from else "base")]
        if self.weapon_bonus:
            out.append((self.weapon_bonus, f"weapon {self.weapon}" if self.weapon else "weapon"))
        if self.match:
            out.append((self.match, f"weapon element = {el}"))
        if self.relation:
            out.append((self.relation, f"{el} against {self.target_element.value if self.target_element else '?'}"))
        if self.streak:
            out.append((self.streak, "streak"))
        if self.defense:
            out.append((-self.defense, "Defense"))
        return out

    def explain(self) -> str:
        """The calculation as one line.

        >>> damage(1, Element.VOID, weapon_bonus=1, weapon_element=Element.VOID, defense=1,
        ...        target_element=Element.MATTER, base_from="Void Arrow").explain()
        '1 (base: Void Arrow) + 1 (weapon) + 1 (weapon element = void) + 1 (void against matter) - 1 (Defense) = 3'
        """
        parts = []
        for i, (v, label) in enumerate(self.terms()):
            sign = ("-" if v < 0 else "") if i == 0 else (" - " if v < 0 else " + ")
            parts.append(f"{sign}{abs(v)} ({label})")
        floor = " -> 0 (never below 0)" if self.raw < 0 else ""
        return "".join(parts) + f" = {self.raw}{floor}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "base": self.base, "base_from": self.base_from,
                "element": None if self.element is None else self.element.value,
                "weapon_bonus": self.weapon_bonus, "weapon": self.weapon,
                "weapon_element": None if self.weapon_element is None else self.weapon_element.value,
                "match": self.match, "relation": self.relation,
                "target_element": None if self.target_element is None else self.target_element.value,
                "streak": self.streak, "defense": self.defense, "raw": self.raw, "total": self.total,
                "explain": self.explain(), "notes": list(self.notes)}


def _check_int(name: str, v: int, low: int = 0) -> None:
    if isinstance(v, bool) or not isinstance(v, int) or v < low:
        raise RuleInputError(f"{name} is a whole number {low} or more, got {v!r}")


def damage(base: int, element: Element | None, *, weapon_bonus: int = 0, weapon_element: Element | None = None,
           weapon: str | None = None, defense: int = 0, target_element: Element | None = None, streak: int = 1,
           powerless: bool = False, nonresistance: bool = False, base_from: str = "", kind: Kind = "damage") -> Breakdown:
    """P-DMG: base + weapon bonus + 1 if the weapon's element is the damage's
    + element relation (P-EFFECT flags) + streak bonus (P-STREAK: the ``streak``-th
    attack of this element this turn adds ``streak − 1``) − Defense, floored at 0.

    The worked example: Void Arrow (base 1, its user's Attack) with a Void Shard +1 against a Matter
    Shield +1 — 1 + 1 + 1 + 1 − 1:

    >>> damage(1, Element.VOID, weapon_bonus=1, weapon_element=Element.VOID,
    ...        defense=1, target_element=Element.MATTER).total
    3
    >>> damage(1, Element.VOID, defense=4).total       # never negative
    0
    """
    _check_int("base", base)
    _check_int("defense", defense)
    _check_int("streak", streak, 1)
    if isinstance(weapon_bonus, bool) or not isinstance(weapon_bonus, int):
        raise RuleInputError(f"weapon bonus is a whole number, got {weapon_bonus!r}")
    notes = []
    rel = relation(element, target_element, powerless=powerless, nonresistance=nonresistance)
    if powerless and element is not None and target_element is not None and element.opposite == target_element:
        notes.append("Powerless: no bonus against the opposite element")
    if nonresistance and element is not None and element == target_element and element is not Element.ETHER:
        notes.append("Non-resistance: no reduction from the same element")
    match = 1 if (weapon_element is not None and weapon_element == element) else 0
    return Breakdown(kind, base, base_from, element, weapon_bonus, weapon,
                     weapon_element, match, rel, target_element, streak - 1 if kind == "damage" else 0, defense,
                     tuple(notes))


def attack_breakdown(attacker: Fighter, target: Fighter, ability: Ability | None = None, *,
                     streak: int = 1) -> Breakdown:
    """P-DMG / P-WEAPON / P-HEAL between two fighters.

    With a damaging ``ability``: its base (the attacker's Attack for ``damage =
    "attack"``) and element; an ability with ``damage = 0`` deals none (a breakdown of
    0 with a note: nothing else is added). Without: a plain hit, base =
    the attacker's Attack — with its weapon's element for a character (P-WEAPON),
    its built-in attack element for a creature. A healing ability gives a ``heal``
    breakdown (no streak)."""
    if ability is None:
        if attacker.is_creature:
            element, base_from = attacker.attack_element, "Attack"
        else:
            if attacker.weapon is None:
                raise RuleInputError(f"{attacker.id} has no weapon: a plain hit needs one (P-WEAPON)")
            element, base_from = attacker.weapon_element, f"Attack ({attacker.weapon.name})"
        base, kind = attacker.attack, "damage"
    elif ability.damage == ATTACK:
        base, element, base_from, kind = attacker.attack, ability.element, f"Attack ({ability.name})", "damage"
    elif ability.damage == 0:
        # ``damage = 0`` is "no damage" (interpretation 20): no weapon bonus, match, relation, streak or Defense
        return Breakdown("damage", 0, ability.name, ability.element,
                         notes=("damage 0 is no damage: the weapon, the elements, the streak and Defense add "
                                "nothing",))
    elif ability.damage is not None:
        base, element, base_from, kind = int(ability.damage), ability.element, ability.name, "damage"
    elif ability.heal is not None:
        base, element, base_from, kind = ability.heal, ability.element, ability.name, "heal"
    else:
        raise RuleInputError(f"{ability.name} deals no damage and heals nothing")
    return damage(base, element, weapon_bonus=attacker.weapon_bonus, weapon_element=attacker.weapon_element,
                  weapon=None if attacker.weapon is None else attacker.weapon.name, defense=target.defense,
                  target_element=target.guard_element, streak=streak if kind == "damage" else 1,
                  powerless=attacker.effects.powerless, nonresistance=target.effects.nonresistance,
                  base_from=base_from, kind=kind)  # type: ignore[arg-type]


# -- P-SHIELD ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Absorption:
    """What a hit did to its target (P-SHIELD): Energy burned first, then the chosen
    shield absorbs damage one for one (that Energy burns too), the rest is Health."""

    damage: int
    burned: int
    shielded: int
    health_lost: int
    health_before: int
    health_after: int
    energy_before: int
    energy_after: int

    def to_json(self) -> dict[str, int]:
        return {"damage": self.damage, "burned": self.burned, "shielded": self.shielded,
                "health_lost": self.health_lost, "health_before": self.health_before,
                "health_after": self.health_after, "energy_before": self.energy_before,
                "energy_after": self.energy_after}


def max_shield(damage: int, energy: int, *, burns: int = 0, shocked: bool = False) -> int:
    """The most Energy the target may put in its shield: none when Shocked, else what
    is left after burning, and no more than the damage."""
    if shocked:
        return 0
    return max(0, min(damage, energy - min(burns, energy)))


def absorb(damage: int, *, health: int, energy: int, shield: int = 0, burns: int = 0,
           shocked: bool = False) -> Absorption:
    """P-SHIELD: burn ``burns`` Energy, then absorb ``shield`` of the damage with Energy.

    >>> a = absorb(2, health=3, energy=1, shield=1)   # the rules' example: 1 on the shield, 1 on Health
    >>> a.shielded, a.health_lost, a.energy_after
    (1, 1, 0)
    """
    for name, v in (("damage", damage), ("health", health), ("energy", energy), ("shield", shield), ("burns", burns)):
        _check_int(name, v)
    top = max_shield(damage, energy, burns=burns, shocked=shocked)
    if shield > top:
        why = ("Shock: Energy cannot be used as a shield" if shocked and shield else
               f"at most {top} (Energy {energy}" + (f" after burning {min(burns, energy)}" if burns else "")
               + f", damage {damage})")
        raise RuleInputError(f"shield {shield}: {why}")
    burned = min(burns, energy)
    lost = min(health, damage - shield)
    return Absorption(damage, burned, shield, lost, health, health - lost, energy, energy - burned - shield)
