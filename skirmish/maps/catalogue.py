"""What a scenario file names besides the pieces on the table: its weapon catalogue
(with the keys the file gave them), its profiles and its ``[[script]]``.

The table's geometry and rules never read it; it is kept (outside the table's
equality) so that a saved table writes back everything the file held.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..rules.eldfall.weapons import Weapon
from .pieces import Model


@dataclass(frozen=True)
class Profile:
    """A ``[profiles.NAME]`` entry: defaults a model takes with ``profile = NAME``
    (``weapons`` are catalogue keys)."""

    name: str
    size: str | None = None
    diameter: float | None = None
    height: float | None = None
    attributes: Mapping[str, int] = field(default_factory=dict, hash=False)
    weapons: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "attributes", MappingProxyType(dict(self.attributes)))
        object.__setattr__(self, "weapons", tuple(self.weapons))

    def __getstate__(self) -> dict[str, Any]:
        # a mappingproxy does not pickle (worker processes, Dask): ship a plain dict
        return {**self.__dict__, "attributes": dict(self.attributes)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state, attributes=MappingProxyType(dict(state["attributes"])))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Profile):
            return NotImplemented
        return (self.name, self.size, self.diameter, self.height, dict(self.attributes), self.weapons) == \
            (other.name, other.size, other.diameter, other.height, dict(other.attributes), other.weapons)

    def __hash__(self) -> int:
        return hash((self.name, self.size, self.diameter, self.height, self.weapons))


@dataclass(frozen=True)
class Catalogue:
    """``weapons``: (key, weapon) as declared under ``[weapons.KEY]``; ``profiles``;
    ``script``: the ``[[script]]`` entries as read (plain TOML values); ``reserve``:
    the models declared without a position (no ``at``), not on the table until a game
    deploys them (E-DEPLOY; their ``x``, ``y``, ``z`` and ``facing`` mean nothing);
    ``game``: the ``[game]`` settings as read (plain TOML values; None: the file has
    none), read by ``skirmish play`` (docs/game.md) and kept for a lossless save."""

    weapons: tuple[tuple[str, Weapon], ...] = ()
    profiles: tuple[Profile, ...] = ()
    script: tuple[Mapping[str, Any], ...] = ()
    reserve: tuple[Model, ...] = ()
    game: Any = None

    def __repr__(self) -> str:
        return (f"Catalogue({len(self.weapons)} weapons, {len(self.profiles)} profiles, "
                f"{len(self.script)} script entries)")

    def profile(self, name: str | None) -> Profile | None:
        """The profile called ``name`` (None when there is none)."""
        return next((p for p in self.profiles if p.name == name), None)

    def weapon_keys(self) -> dict[Weapon, str]:
        """Each declared weapon's key (the first key when two declare equal weapons)."""
        out: dict[Weapon, str] = {}
        for key, w in self.weapons:
            out.setdefault(w, key)
        return out
