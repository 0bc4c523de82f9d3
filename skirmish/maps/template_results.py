"""What a template query answers (E-TMPL-*): frozen values with their evidence and ``to_json``.

A :class:`TemplateResult` lists the models a template affects, each with why (how its
base is covered, its height against the band, the LoS witness), and the models under
it that are spared, each with why (the user, outside the band, no LoS with the
blockers that prove it). Several templates (E-TMPL-STK) make a :class:`TemplateVolley`;
the best placement search answers a :class:`BestTemplate`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from ..errors import SkirmishError
from ..rules.eldfall.modes import Mode
from ..values import is_number

Point2D = tuple[float, float]
Point3D = tuple[float, float, float]
Coverage = Literal["covered", "partly", "touching"]
SpareReason = Literal["user", "band", "no_los", "aura"]
MainRule = Literal["covered", "edges"]

_COVERAGE_TEXT = {"covered": "covered entirely", "partly": "partly covered", "touching": "touching the edge"}


def _r(v: float, nd: int = 4) -> float:
    return round(float(v), nd) + 0.0


def _pt(p: tuple[float, ...]) -> list[float]:
    return [_r(c, 6) for c in p]


@dataclass(frozen=True)
class Placement:
    """Where one template goes (the input of :meth:`Table.templates`).

    Circle: ``on`` (centred on that model, its main target) and/or ``at`` (a centre
    point; with ``on`` too, ``on`` is the main target that must be covered), ``z`` the
    surface height for a point placement. Spray: ``toward`` (a model id, its main
    target, or a point) or ``direction`` (degrees counter-clockwise from +x); ``on``
    names the main target (alone: the spray points at it).
    """

    on: str | None = None
    at: Point2D | None = None
    z: float | None = None
    toward: str | Point2D | None = None
    direction: float | None = None

    def __post_init__(self) -> None:
        # one angle in [0, 360): the label and the geometry then read the same direction
        # (a huge angle's radians lose the turn that its remainder keeps exactly)
        if self.direction is not None and not is_number(self.direction):
            raise SkirmishError(f"direction= is an angle in degrees (counter-clockwise from +x), got "
                                f"{self.direction!r}", kind="unit")
        if self.direction is not None and math.isfinite(self.direction):
            object.__setattr__(self, "direction", float(self.direction) % 360.0)


@dataclass(frozen=True)
class TemplateHit:
    """A model the template affects: its base is (at least partly) covered, its base z
    is within the band, and the LoS ``witness`` (a clear segment from the centre point,
    or from the attacker's front arc, to its hitbox; only scenery blocks) proves sight.
    ``agility_halved`` (E-DODGE, when asked for): it has no LoS to the user."""

    id: str
    coverage: Coverage
    dz: float
    band: float
    witness: tuple[Point3D, Point3D]
    los_from: Literal["centre", "attacker"]
    agility_halved: bool | None = None

    @property
    def why(self) -> str:
        src = "the centre point" if self.los_from == "centre" else "the attacker's front arc"
        text = (f"{_COVERAGE_TEXT[self.coverage]}; base z {self.dz:+.2f}\" from the "
                f"{'surface' if self.los_from == 'centre' else 'attacker'} (band ±{self.band:g}\"); LoS from {src}")
        if self.agility_halved is not None:
            text += ("; no LoS to the user: Agility halved for its Dodge" if self.agility_halved
                     else "; sees the user: full Agility for its Dodge")
        return text

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "why": self.why, "coverage": self.coverage, "dz": _r(self.dz),
                "witness": [_pt(p) for p in self.witness], "agility_halved": self.agility_halved}


@dataclass(frozen=True)
class TemplateSpared:
    """A model under the template that it does not affect: ``reason`` is ``"user"`` (never
    hit by its own template), ``"band"`` (base z outside the band), ``"no_los"`` (no
    LoS; ``blockers`` name the scenery of the certificate, ``los_reason`` is
    ``"blocked"`` or ``"out_of_arc"``) or ``"aura"`` (an Aura spell's template: outside
    the caster's Awareness, E-AURA-CAST)."""

    id: str
    reason: SpareReason
    coverage: Coverage
    dz: float
    band: float
    blockers: tuple[str, ...] = ()
    los_reason: str | None = None
    los_from: Literal["centre", "attacker"] = "centre"

    @property
    def why(self) -> str:
        if self.reason == "user":
            return "the user: never hit by its own template"
        if self.reason == "aura":
            return "outside the caster's Awareness: an Aura spell affects only the models inside it (E-AURA-CAST)"
        ref = "surface" if self.los_from == "centre" else "attacker"
        if self.reason == "band":
            where = "above" if self.dz > 0 else "below"
            return f"outside the band: base {abs(self.dz):.2f}\" {where} the {ref} (limit ±{self.band:g}\")"
        src = "the centre point" if self.los_from == "centre" else "the attacker's front arc"
        if self.los_reason == "out_of_arc":
            return f"no LoS from {src}: wholly behind the attacker's front arc"
        names = ", ".join(self.blockers) if self.blockers else "scenery"
        return f"no LoS from {src}: blocked by {names}"

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "why": self.why, "reason": self.reason, "coverage": self.coverage,
                "dz": _r(self.dz), "blockers": list(self.blockers)}


@dataclass(frozen=True, repr=False)
class TemplateResult:
    """One template resolved (E-TMPL, E-TMPL-CIRCLE, E-TMPL-SPRAY).

    ``surface_z`` is the circle's surface (the main target's z) or, for a spray, the
    attacker's base z (the band's reference). ``main_target_covered`` is None without
    a main target; ``main_target_rule`` says how it counts as covered: ``"covered"``
    (entirely) or ``"edges"`` (a spray's too-close rule: both long edges cross it).
    ``outline`` is the template's plan boundary (counter-clockwise, not closed).
    """

    template: str
    kind: Literal["circle", "spray"]
    by: str | None
    center: Point2D | None
    direction: float | None
    tip: Point2D | None
    outline: tuple[Point2D, ...]
    surface_z: float
    band: float
    main_target: str | None
    main_target_covered: bool | None
    main_target_rule: MainRule | None
    affected: tuple[TemplateHit, ...]
    spared: tuple[TemplateSpared, ...]
    mode: Mode = Mode.ASSISTED
    declared: bool = False

    def __repr__(self) -> str:
        where = (f"at ({self.center[0]:.2f}, {self.center[1]:.2f})" if self.center is not None
                 else f"from {self.by} toward {self.direction:.1f}°")
        hit = ", ".join(h.id for h in self.affected) or "nobody"
        spared = ", ".join(f"{s.id} ({s.reason})" for s in self.spared)
        return (f"TemplateResult({self.template!r} {where}, z {self.surface_z:g}: hits {hit}"
                f"{'; spares ' + spared if spared else ''})")

    @property
    def affected_ids(self) -> tuple[str, ...]:
        return tuple(h.id for h in self.affected)

    @property
    def spared_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.spared)

    def hits(self, model_id: str) -> bool:
        """Whether the template affects ``model_id``."""
        return model_id in self.affected_ids

    def placement_json(self) -> dict[str, Any]:
        if self.kind == "circle":
            assert self.center is not None
            return {"center": _pt(self.center), "z": _r(self.surface_z, 6)}
        assert self.tip is not None and self.direction is not None
        return {"by": self.by, "direction": _r(self.direction, 6), "tip": _pt(self.tip)}

    def to_json(self) -> dict[str, Any]:
        return {"template": self.template, "kind": self.kind, "by": self.by, "placement": self.placement_json(),
                "outline": [_pt(p) for p in self.outline], "surface_z": _r(self.surface_z, 6), "band": self.band,
                "main_target": self.main_target, "main_target_covered": self.main_target_covered,
                "main_target_rule": self.main_target_rule,
                "affected": [h.to_json() for h in self.affected], "spared": [s.to_json() for s in self.spared],
                "mode": self.mode.value, "declared": self.declared}


def _frozen(m: Mapping[str, int]) -> Mapping[str, int]:
    return MappingProxyType(dict(m))


@dataclass(frozen=True)
class TemplateVolley:
    """Several templates of one ability (E-TMPL-STK), each resolved separately; ``counts``
    gives, per model, how many of them affect it (it suffers each separately)."""

    results: tuple[TemplateResult, ...]
    counts: Mapping[str, int] = field(hash=False)
    strike: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "counts", _frozen(self.counts))

    def to_json(self) -> dict[str, Any]:
        return {"templates": [r.to_json() for r in self.results], "counts": dict(self.counts),
                "strike": self.strike}


@dataclass(frozen=True)
class SearchStats:
    """How the best placement was found: the exact candidates examined, lattice points
    (circles; where LoS varies inside a face), LoS pairs evaluated, the lattice spacing
    (inches) and the main targets considered."""

    candidates: int
    lattice_points: int
    los_pairs: int
    spacing: float | None
    targets: tuple[str, ...]
    method: str

    def to_json(self) -> dict[str, Any]:
        return {"method": self.method, "candidates": self.candidates, "lattice_points": self.lattice_points,
                "los_pairs": self.los_pairs, "spacing": self.spacing, "targets": list(self.targets)}


@dataclass(frozen=True, repr=False)
class BestTemplate:
    """The best legal placement found for ``result.by``: the main target covered (and
    hit), score = ``enemy_weight`` × enemies hit − ``friend_weight`` × friends hit."""

    result: TemplateResult
    score: float
    enemies_hit: int
    friends_hit: int
    enemy_weight: float
    friend_weight: float
    search: SearchStats

    def __repr__(self) -> str:
        e, f = self.enemies_hit, self.friends_hit
        return (f"BestTemplate(score {self.score:g}: {e} {'enemy' if e == 1 else 'enemies'}, {f} "
                f"friend{'' if f == 1 else 's'}; {self.result!r})")

    def to_json(self) -> dict[str, Any]:
        out = self.result.to_json()
        out.update({"score": self.score, "enemies_hit": self.enemies_hit, "friends_hit": self.friends_hit,
                    "weights": {"enemy": self.enemy_weight, "friend": self.friend_weight},
                    "search": self.search.to_json()})
        return out
