"""Model sizes and their hitboxes (E-SIZE, E-HITBOX)."""

from __future__ import annotations

from dataclasses import dataclass

from ...units import MM_PER_INCH


@dataclass(frozen=True)
class SizeClass:
    """A size letter with its base diameter and hitbox height, both in inches."""

    letter: str
    name: str
    diameter: float
    height: float

    def __repr__(self) -> str:
        return f"SizeClass({self.letter!r}, {self.diameter * MM_PER_INCH:g}mm x {self.height * MM_PER_INCH:g}mm)"


def _mm(v: float) -> float:
    return v / MM_PER_INCH


#: E-SIZE, in order S < M < L < H < G < C < E. E is "85 mm or more" in the errata:
#: 100/100 is only the default, overridable per model.
SIZES: dict[str, SizeClass] = {
    s.letter: s
    for s in (
        SizeClass("S", "Small", _mm(25), _mm(25)),
        SizeClass("M", "Medium", _mm(32), _mm(45)),
        SizeClass("L", "Large", _mm(40), _mm(45)),
        SizeClass("H", "Huge", _mm(50), _mm(50)),
        SizeClass("G", "Gigantic", _mm(60), _mm(60)),
        SizeClass("C", "Colossal", _mm(80), _mm(80)),
        SizeClass("E", "Monstrous/Epic", _mm(100), _mm(100)),
    )
}

SIZE_ORDER = tuple(SIZES)

#: Thickness of a base: the hitbox height of a Crouched or Dead model (E-SIZE).
#: The texts do not give it; 3 mm is the common plastic base (documented assumption).
BASE_THICKNESS = _mm(3)

#: States that flatten a hitbox to the base (E-SIZE).
FLAT_STATES = frozenset({"Crouched", "Dead"})


def size_rank(letter: str) -> int:
    """Position of a size in S < M < L < H < G < C < E."""
    return SIZE_ORDER.index(letter)
