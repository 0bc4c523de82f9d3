"""Weapons and their reach (E-ITEM, E-REACH)."""

from __future__ import annotations

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
    """

    name: str
    bands: tuple[ReachBand, ...]
    ranged: bool = False
    pw: int | None = None
    stk: int | str = 1
    attribute: str = "MEL"

    @property
    def reach(self) -> float:
        """The longest distance at which the weapon can be used."""
        return self.bands[-1].max_range

    def band_for(self, distance: float, tolerance: float = 0.0) -> int | None:
        """Index of the band that applies at ``distance`` (E-REACH), or None if beyond all."""
        for i, band in enumerate(self.bands):
            if distance <= band.max_range + tolerance:
                return i
        return None

    def strike(self, attributes: dict[str, int]) -> int | None:
        """The Strike this weapon gives its wielder (None if the attribute is unknown)."""
        if isinstance(self.stk, int):
            return self.stk
        return attributes.get(self.stk)


def melee(name: str, reach: float, *, pw: int | None = None, stk: int | str = 1, attribute: str = "MEL") -> Weapon:
    return Weapon(name, (ReachBand(reach, 0),), False, pw, stk, attribute)


def ranged(name: str, bands: list[tuple[float, int]], *, pw: int | None = None, stk: int | str = 1,
           attribute: str = "ACC") -> Weapon:
    return Weapon(name, tuple(ReachBand(r, a) for r, a in bands), True, pw, stk, attribute)


#: Weapons every scenario may name without declaring them (E-ITEM examples). The
#: Short Bow's longest band is not in the texts: 40" is an assumption (docs).
BUILTIN_WEAPONS: dict[str, Weapon] = {
    "sword": melee("Sword", 1.0, stk="STA"),
    "short-bow": ranged("Short Bow", [(20.0, 0), (40.0, -6)]),
}
