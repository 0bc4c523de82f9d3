"""Answers the maps give: value types with their evidence and a ``to_json`` each.

Shared by every map kind (the table, the grid), so the CLI and the viewer read one shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ..geometry.distance import Point3
from ..rules.eldfall.modes import Mode

Arc = Literal["front", "back"]
LosArc = Literal["front", "all"]
Point3D = tuple[float, float, float]


@dataclass(frozen=True)
class LineOfSight:
    """A LoS verdict with its evidence (E-LOS, E-ARC).

    Visible: ``witness`` is a segment from a point of ``frm``'s front half to a point of
    ``to``'s hitbox that meets no interior of any other blocker. Not visible:
    ``reason`` is ``"out_of_arc"`` or ``"blocked"``, ``blockers`` names the solids
    the proof used, and no segment keeps a clearance of more than ``tolerance``
    (inches) from every blocker. ``stage`` says which part of the algorithm settled it.
    """

    frm: str
    to: str
    visible: bool
    reason: Literal["clear", "out_of_arc", "blocked"]
    witness: tuple[Point3D, Point3D] | None
    blockers: tuple[str, ...]
    tolerance: float
    arc: LosArc = "front"
    stage: str = ""
    visible_fraction: float | None = None

    def __bool__(self) -> bool:
        return self.visible

    @property
    def certified(self) -> bool:
        """False only when the search gave up (stage "undecided"): no witness was found and
        the certificate is incomplete. Never seen on real tables; a larger tolerance helps."""
        return self.stage != "undecided"

    def to_json(self) -> dict[str, Any]:
        return {"from": self.frm, "to": self.to, "visible": self.visible,
                "witness": [list(p) for p in self.witness] if self.witness else None,
                "reason": self.reason, "blockers": list(self.blockers), "tolerance": self.tolerance,
                "visible_fraction": self.visible_fraction, "arc": self.arc, "stage": self.stage,
                "certified": self.certified}


@dataclass(frozen=True)
class Measurement:
    """What a model may learn of another: the E-DIST distance (or only "beyond N"),
    base contact, Awareness and the arc of ``frm`` that ``to`` is in. ``nearest`` is the
    evidence: the two nearest points, when the distance is given."""

    frm: str
    to: str
    distance: float | None
    beyond: float | None
    base_contact: bool
    in_awareness: bool | None
    arc: Arc
    mode: Mode
    declared: bool = False
    nearest: tuple[Point3, Point3] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"from": self.frm, "to": self.to, "distance": self.distance, "beyond": self.beyond,
                "base_contact": self.base_contact, "in_awareness": self.in_awareness, "arc": self.arc,
                "mode": self.mode.value, "declared": self.declared,
                "nearest_points": [list(p) for p in self.nearest] if self.nearest else None}


@dataclass(frozen=True)
class PointMeasurement:
    """What a model may learn of a point of the table (at its own height): the E-DIST
    distance from its hitbox (or only "beyond N", E-MODE) and, with the distance, the
    two nearest points as evidence."""

    frm: str
    point: tuple[float, float]
    distance: float | None
    beyond: float | None
    mode: Mode
    declared: bool = False
    nearest: tuple[Point3, Point3] | None = None


@dataclass(frozen=True)
class Reach:
    """Whether ``weapon`` used by ``frm`` reaches ``to`` (E-REACH), with the band that applies
    (numbered from 1, the shortest, in Python, JSON and text alike) and its Accuracy."""

    frm: str
    to: str
    weapon: str
    distance: float
    in_reach: bool
    band: int | None
    accuracy: int | None
    max_range: float

    def to_json(self) -> dict[str, Any]:
        return {"from": self.frm, "to": self.to, "weapon": self.weapon, "distance": self.distance,
                "in_reach": self.in_reach, "band": self.band, "accuracy": self.accuracy,
                "max_range": self.max_range}


@dataclass(frozen=True)
class Violation:
    """Why a declared path is illegal: segment ``at`` (0-based), what, and with which piece."""

    at: int
    what: str
    with_: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"at": self.at, "what": self.what, "with": self.with_}


@dataclass(frozen=True)
class MovePlan:
    """A movement: the path of the base centre (table: (x, y, z) points; grid: rooms),
    its length and cost in the map's unit, legality with the first violations, where
    it stopped on contact with an enemy (E-MOVE-ENEMY), and fall rolls (E-FALL)."""

    model: str
    points: tuple[tuple[float, ...], ...]
    length: float
    cost: float
    legal: bool
    violations: tuple[Violation, ...] = ()
    stopped_at_contact: str | None = None
    fall_rolls: int = 0
    budget: float | None = None
    notes: tuple[str, ...] = field(default=())
    #: the heights of the drops E-FALL judges, in order (falls and steps down; not ladders,
    #: climbs or a Flying model's descents): ``fall_rolls`` is their rolls at the model's
    #: listed SPD; a game whose States change SPD counts them again (E-FALL with that SPD)
    drops: tuple[float, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"model": self.model, "points": [list(p) for p in self.points], "length": self.length,
                "cost": self.cost, "budget": self.budget, "legal": self.legal,
                "violations": [v.to_json() for v in self.violations],
                "stopped_at_contact": self.stopped_at_contact, "fall_rolls": self.fall_rolls,
                "drops": list(self.drops), "notes": list(self.notes)}


@dataclass(frozen=True)
class MoveRange:
    """Where a model's base centre can end a movement: plan regions (each an outer ring
    of (x, y) points, with holes) and their total area in the map's unit squared; on a
    grid the regions are the reachable rooms' squares."""

    model: str
    budget: float
    regions: tuple[tuple[tuple[tuple[float, float], ...], ...], ...]  # per region: rings (outer first)
    area: float
    notes: tuple[str, ...] = ()

    def __repr__(self) -> str:  # (the rings hold hundreds of points: to_json has them)
        points = sum(len(ring) for region in self.regions for ring in region)
        return (f"MoveRange({self.model!r}, budget {self.budget:g}, area {self.area:.4g}, "
                f"{len(self.regions)} region{'s' * (len(self.regions) != 1)}, {points} points)")

    def to_json(self) -> dict[str, Any]:
        return {"model": self.model, "budget": self.budget, "area": self.area,
                "polygons": [[[list(p) for p in ring] for ring in region] for region in self.regions],
                "notes": list(self.notes)}


@dataclass(frozen=True)
class Cover:
    """E-COVER for a ranged attack: the level, the attacker's modifier and the piece
    that gives it (None for a Crouched model's own Light Cover)."""

    level: Literal["none", "light", "heavy"]
    modifier: int
    piece: str | None
    why: str
    visible_fraction: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {"level": self.level, "modifier": self.modifier, "piece": self.piece, "why": self.why,
                "visible_fraction": self.visible_fraction}
