"""What stands on a map: models (with hitboxes) and scenery pieces."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from types import MappingProxyType

from ..errors import ScenarioError
from ..geometry.solids import Cylinder, Prism
from ..rules.eldfall.sizes import BASE_THICKNESS, FLAT_STATES, SIZES
from ..rules.eldfall.weapons import Weapon
from ..values import is_number
from ..units import MM_PER_INCH


@lru_cache(maxsize=1024)
def _slug(name: str) -> str:
    return "-".join("".join(c if c.isalnum() else " " for c in name.casefold()).split())


def _frozen_map(m: Mapping[str, int] | None) -> Mapping[str, int]:
    return MappingProxyType(dict(m or {}))


@dataclass(frozen=True, repr=False)
class Model:
    """A model on the table. Lengths in inches; ``facing`` in degrees CCW from +x."""

    id: str
    side: str
    size: str
    x: float
    y: float
    z: float = 0.0
    facing: float = 0.0
    diameter: float | None = None  # None: the size's base diameter (E-SIZE)
    height: float | None = None  # None: the size's hitbox height
    attributes: Mapping[str, int] = field(default_factory=dict, hash=False)
    weapons: tuple[Weapon, ...] = ()
    states: frozenset[str] = frozenset()
    profile: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if isinstance(self.states, str):  # (frozenset("Crouched") is its letters)
            raise ScenarioError(f"model {self.id!r}: states must be a set of state names such as {{'Crouched'}}, "
                                f"got {self.states!r}")
        object.__setattr__(self, "attributes", _frozen_map(self.attributes))
        object.__setattr__(self, "states", frozenset(self.states))
        _check_model(self)

    def __repr__(self) -> str:
        return (f"Model({self.id!r}, side={self.side!r}, size={self.size!r}, at=({self.x:g}, {self.y:g}, {self.z:g}), "
                f"facing={self.facing:g})")

    @property
    def base_diameter(self) -> float:
        return self.diameter if self.diameter is not None else SIZES[self.size].diameter

    @cached_property
    def radius(self) -> float:
        """Half the base diameter (found once: the model is immutable)."""
        return self.base_diameter / 2

    @property
    def standing_height(self) -> float:
        return self.height if self.height is not None else SIZES[self.size].height

    @cached_property
    def hitbox_height(self) -> float:
        """The size's height, or the base's thickness when Crouched or Dead (E-SIZE; found once)."""
        return BASE_THICKNESS if self.states & FLAT_STATES else self.standing_height

    @cached_property
    def hitbox(self) -> Cylinder:
        """The E-HITBOX cylinder (made once: the model is immutable)."""
        return Cylinder(self.x, self.y, self.z, self.radius, self.hitbox_height)

    @property
    def facing_vector(self) -> tuple[float, float]:
        a = math.radians(self.facing)
        return (math.cos(a), math.sin(a))

    def attribute(self, name: str) -> int | None:
        return self.attributes.get(name)

    @property
    def awareness(self) -> float | None:
        """E-AWARE: Agility in inches from the base edge (None without AGI)."""
        agi = self.attributes.get("AGI")
        return None if agi is None else float(agi)

    @property
    def movement(self) -> float | None:
        """Walk distance: SPD in inches (None without SPD)."""
        spd = self.attributes.get("SPD")
        return None if spd is None else float(spd)

    def weapon(self, name: str) -> Weapon | None:
        """The model's weapon called ``name`` (case, spaces and dashes do not matter:
        "Short Bow", "short bow" and "short-bow" are one weapon)."""
        key = _slug(name)
        for w in self.weapons:
            if _slug(w.name) == key:
                return w
        return None

    def describe_size(self) -> str:
        return f"{self.size} ({self.base_diameter * MM_PER_INCH:.0f}mm base, {self.hitbox_height * MM_PER_INCH:.0f}mm tall)"


def _check_model(m: Model) -> None:
    """Refuse a model no rule could measure: an unknown size, a place or facing that is not
    a finite number, a base or hitbox that is not a positive length."""
    def bad(what: str, wanted: str, got: object) -> ScenarioError:
        return ScenarioError(f"model {m.id!r}: {what} must be {wanted}, got {got!r}")
    if not isinstance(m.id, str) or not m.id:
        raise bad("id", "a non-empty string", m.id)
    if not isinstance(m.side, str):
        raise bad("side", "a string", m.side)
    if not all(isinstance(s, str) for s in m.states):
        raise bad("states", "a set of state names such as {'Crouched'}", m.states)
    if m.size not in SIZES:
        raise bad("size", f"one of {', '.join(SIZES)}", m.size)
    for name in ("x", "y", "z", "facing"):
        v = getattr(m, name)
        if not is_number(v) or not math.isfinite(v):
            raise bad(name, "a finite number", v)
    for name in ("diameter", "height"):
        v = getattr(m, name)
        if v is not None and not (is_number(v) and 0 < float(v) < math.inf):
            raise bad(name, "a positive length (inches) or None for the size's", v)


@dataclass(frozen=True, repr=False)
class Scenery:
    """A scenery piece: a solid prism, whether it blocks LoS, whether its top is walkable.

    ``shape`` and ``params`` keep the footprint as written (``"polygon"``, ``"rect"``,
    ``"circle"``) so the piece can be written back unchanged. ``ladders``: plan points on
    the footprint's outline where a ladder leads up to the (walkable) top (E-MOVE-LADDER).
    """

    id: str
    solid: Prism
    shape: str
    params: tuple
    blocks_los: bool = True
    walkable: bool = False
    ladders: tuple[tuple[float, float], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "ladders", tuple((float(x), float(y)) for x, y in self.ladders))

    def __repr__(self) -> str:
        n = len(self.ladders)
        return (f"Scenery({self.id!r}, {self.shape}, z=[{self.solid.z0:g}, {self.solid.z1:g}]"
                f"{'' if self.blocks_los else ', see-through'}{', walkable' if self.walkable else ''}"
                f"{f', {n} ladder' + ('s' if n > 1 else '') if n else ''})")

    @property
    def base(self) -> float:
        return self.solid.z0

    @property
    def top(self) -> float:
        return self.solid.z1
