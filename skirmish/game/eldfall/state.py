"""The state of a game of Eldfall: the table (positions, facings, hitboxes) and, per
model, its HP, States and Activation Points. Immutable: every change is a new value."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ...maps.pieces import Model
from ...maps.table import Table
from ...memo import IdentityMemo
from ...rules.eldfall.sizes import FLAT_STATES
from ...values import cached, with_fields
from .settings import GameSettings

#: States that take a model out of play (E-ROUND, E-MORALE).
OUT = frozenset({"Incapacitated", "Dead"})


@dataclass(frozen=True)
class Unit:
    """One model's game numbers: side, HP left, AP left, States (E-STATE) and the
    weapon it has equipped (E-ACTION-OTHER: one item of each category; spells are no
    items and are always at hand)."""

    id: str
    side: str
    hp: int
    ap: int
    states: frozenset[str] = frozenset()
    equipped: str | None = None

    @property
    def in_play(self) -> bool:
        """Neither Incapacitated nor Dead."""
        return not (self.states & OUT)

    @property
    def condition(self) -> str:
        """Dead, Incapacitated, or Active while in play (the log says Unharmed or Wounded
        for a model in play: that needs its starting HP, which the table holds)."""
        if "Dead" in self.states:
            return "Dead"
        if "Incapacitated" in self.states:
            return "Incapacitated"
        return "Active"

    def __repr__(self) -> str:
        st = ",".join(sorted(self.states))
        return f"Unit({self.id!r}, {self.side}, hp={self.hp}, ap={self.ap}{', ' + st if st else ''})"


@dataclass(frozen=True, repr=False)
class GameState:
    """Where a game stands: the table, the units, round, turn (1 or 2 in the round)
    and the Active side, the side Active first, and the starting model count per side."""

    table: Table
    units: Mapping[str, Unit]
    settings: GameSettings
    sides: tuple[str, str]
    first: str
    round: int = 0
    turn: int = 0
    active: str = ""
    starting: Mapping[str, int] = dataclasses.field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "units", MappingProxyType(dict(self.units)))
        object.__setattr__(self, "starting", MappingProxyType(dict(self.starting)))

    def __repr__(self) -> str:
        return f"GameState(round {self.round}, turn {self.turn}, active {self.active!r}, {len(self.units)} units)"

    @classmethod
    def start(cls, table: Table, settings: GameSettings, first: str, sides: tuple[str, ...] | None = None
              ) -> GameState:
        """The state before round 1: full HP (0 when Incapacitated or Dead), no AP; States
        from the table; the first weapon it lists equipped. ``sides``: the two sides
        (default: the table's; given while models are still deploying)."""
        sides = table.sides if sides is None else sides
        assert len(sides) == 2
        units = {m.id: Unit(m.id, m.side, 0 if m.states & OUT else int(m.attributes["HP"]), 0, m.states,
                            next((w.name for w in m.weapons if not w.spell), None))  # the first weapon listed
                 for m in table.models}
        starting = {s: sum(1 for m in table.models if m.side == s) for s in sides}
        return cls(table, units, settings, (sides[0], sides[1]), first, starting=starting)

    # -- lookup ------------------------------------------------------------------
    def unit(self, model_id: str) -> Unit:
        return self.units[model_id]

    def model(self, model_id: str) -> Model:
        return self.table.model(model_id)

    def enemy_of(self, side: str) -> str:
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    @property
    def reactive(self) -> str:
        return self.enemy_of(self.active)

    def side_units(self, side: str) -> tuple[Unit, ...]:
        return self._by_side.get(side, ((), ()))[0]

    def in_play(self, side: str) -> tuple[Unit, ...]:
        return self._by_side.get(side, ((), ()))[1]

    @cached
    def unit_states(self) -> tuple[frozenset[str], ...]:
        """Every unit's States, in the units' order (asked many times of one state)."""
        return tuple(u.states for u in self.units.values())

    @cached
    def _by_side(self) -> dict[str, tuple[tuple[Unit, ...], tuple[Unit, ...]]]:
        """Per side, its units and those in play (asked many times of one state)."""
        mine: dict[str, tuple[list[Unit], list[Unit]]] = {}
        for u in self.units.values():
            lists = mine.get(u.side)
            if lists is None:
                lists = mine[u.side] = ([], [])
            lists[0].append(u)
            if not u.states & OUT:  # (in play)
                lists[1].append(u)
        return {side: (tuple(every), tuple(playing)) for side, (every, playing) in mine.items()}

    def panicked(self, side: str) -> bool:
        """E-MORALE: fewer than half of the side's starting models still in play."""
        return 2 * len(self.in_play(side)) < self.starting.get(side, 0)

    # -- changes -------------------------------------------------------------------
    def replace(self, **kw: object) -> GameState:
        return dataclasses.replace(self, **kw)  # type: ignore[arg-type]

    def with_unit(self, unit: Unit) -> GameState:
        """The state with ``unit`` replacing its namesake; hitbox States (Crouched,
        Dead) are mirrored onto the table's model (E-SIZE)."""
        return self.with_units({unit.id: unit})

    def with_units(self, units: Mapping[str, Unit]) -> GameState:
        """The state with each of ``units`` replacing its namesake (as :meth:`with_unit`)."""
        merged = dict(self.units)
        table = self.table
        for unit in units.values():
            old = merged[unit.id]
            merged[unit.id] = unit
            if (old.states ^ unit.states) & FLAT_STATES:
                m = table.model(unit.id)
                table = table.with_model(with_fields(m, states=(m.states - FLAT_STATES) |
                                                             (unit.states & FLAT_STATES)))
        return with_fields(self, units=MappingProxyType(merged), table=table)

    def moved(self, model_id: str, x: float, y: float, z: float, facing: float) -> GameState:
        """The state with the model's base centre at (x, y, z) facing ``facing`` degrees."""
        m = self.table.model(model_id)
        out = with_fields(self, table=self.table.with_model(
            with_fields(m, x=float(x), y=float(y), z=float(z), facing=float(facing) % 360.0)))
        for kept in ("_by_side", "unit_states"):  # (the same units)
            if kept in self.__dict__:
                out.__dict__[kept] = self.__dict__[kept]
        return out


def facing_toward(x: float, y: float, tx: float, ty: float, default: float = 0.0) -> float:
    """Degrees CCW from +x of the direction from (x, y) to (tx, ty) (``default`` when equal)."""
    if math.isclose(x, tx, abs_tol=1e-9) and math.isclose(y, ty, abs_tol=1e-9):
        return default
    return math.degrees(math.atan2(ty - y, tx - x)) % 360.0


#: States that halve Speed (E-STATE-CROUCHED, E-STATE-OTHER); Flying doubles it.
SLOWING = frozenset({"Slowed", "Crippled", "Crouched"})


#: A model's attributes as States leave them, by the attributes (identity) and the States.
_ATTRIBUTES: IdentityMemo[Mapping[str, int]] = IdentityMemo(512)


def attributes_of(model: Model, states: frozenset[str]) -> Mapping[str, int]:
    """The model's attributes as its States leave them (E-STATE-CROUCHED, E-STATE-OTHER):
    SPD halved when Slowed, Crippled or Crouched and doubled when Flying; AGI halved
    when Crippled; STA halved when Weakened. Halving rounds up (E-MOD-HALF); a value
    is halved once however many States halve it, and halved and doubled is unchanged.
    (Read only: found once per attributes and States.)"""
    attrs = model.attributes
    key, refs = (id(attrs), frozenset(states)), (attrs,)
    got = _ATTRIBUTES.find(key, refs)
    return _ATTRIBUTES.put(key, refs, _attributes_of(attrs, states)) if got is None else got


def _attributes_of(attributes: Mapping[str, int], states: frozenset[str]) -> Mapping[str, int]:
    a = {k: int(v) for k, v in attributes.items() if v is not None}

    def half(k: str) -> None:
        if k in a:
            a[k] = -(-a[k] // 2)

    if "SPD" in a:
        slow, fly = bool(states & SLOWING), "Flying" in states
        if slow and not fly:
            half("SPD")
        elif fly and not slow:
            a["SPD"] *= 2
    if "Crippled" in states:
        half("AGI")
    if "Weakened" in states:
        half("STA")
    return MappingProxyType(a)
