"""Weapons and their reach (E-ITEM, E-REACH)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class ReachBand:
    """Targets at an E-DIST distance up to ``max_range`` inches get ``accuracy`` added."""

    max_range: float
    accuracy: int = 0


@dataclass(frozen=True)
class Weapon:
    """A weapon: its reach bands, Power, Strike and the attribute it rolls against.

    A melee weapon has one band (its RCH) with no modifier; a ranged weapon lists
    bands in increasing range. ``stk`` is a number or the name of an attribute
    (``"STA"``: the wielder's Stamina).

    A spell (``spell``) is used like a ranged weapon (its target may have Cover) and
    rolls against INT unless stated (E-AURA-CAST). A spell with Aura reach (``aura``)
    reaches the caster's Awareness (E-AURA: distance ≤ its AGI); its one band is a
    placeholder (RCH 0, no modifier) and :meth:`band_for` takes the Awareness as
    ``aura_radius``.

    A template weapon (``template``: a name from the template table, E-TMPL) places
    that template instead of rolling to hit: its bands are how far the main target may
    be (a spray's default is the template's length).
    """

    name: str
    bands: tuple[ReachBand, ...]
    ranged: bool = False
    pw: int | None = None
    stk: int | str = 1
    attribute: str = "MEL"
    spell: bool = False
    aura: bool = False
    template: str | None = None

    @property
    def reach(self) -> float:
        """The longest distance at which the weapon can be used (an Aura: 0, see :meth:`band_for`)."""
        return self.bands[-1].max_range

    def band_for(self, distance: float, tolerance: float = 0.0, aura_radius: float | None = None) -> int | None:
        """Index of the band that applies at ``distance`` (E-REACH), or None if beyond all.
        An Aura reaches ``aura_radius`` (the user's Awareness; None: nothing)."""
        if self.aura:
            return 0 if aura_radius is not None and distance <= aura_radius + tolerance else None
        for i, band in enumerate(self.bands):
            if distance <= band.max_range + tolerance:
                return i
        return None

    def strike(self, attributes: Mapping[str, int]) -> int | None:
        """The Strike this weapon gives its wielder (None if the attribute is unknown)."""
        if isinstance(self.stk, int):
            return self.stk
        return attributes.get(self.stk)


def melee(name: str, reach: float, *, pw: int | None = None, stk: int | str = 1, attribute: str = "MEL") -> Weapon:
    return Weapon(name, (ReachBand(reach, 0),), False, pw, stk, attribute)


def ranged(name: str, bands: list[tuple[float, int]], *, pw: int | None = None, stk: int | str = 1,
           attribute: str = "ACC") -> Weapon:
    return Weapon(name, tuple(ReachBand(r, a) for r, a in bands), True, pw, stk, attribute)


def aura_spell(name: str, *, pw: int | None = None, stk: int | str = 1, attribute: str = "INT") -> Weapon:
    """A spell with Aura reach (E-AURA-CAST): it reaches the caster's Awareness."""
    return Weapon(name, (ReachBand(0.0, 0),), True, pw, stk, attribute, spell=True, aura=True)


#: Weapons every scenario may name without declaring them (E-ITEM examples). The
#: Short Bow's longest band is not in the texts: 40" is an assumption (docs).
BUILTIN_WEAPONS: dict[str, Weapon] = {
    "sword": melee("Sword", 1.0, stk="STA"),
    "short-bow": ranged("Short Bow", [(20.0, 0), (40.0, -6)]),
}
