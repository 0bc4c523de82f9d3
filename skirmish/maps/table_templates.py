"""Area-of-effect templates on the continuous table (E-TMPL-*): a mixin of :class:`Table`.

* :meth:`TableTemplates.template` — one template: who is hit and why, who is spared
  and why, whether the main target is covered, the outline.
* :meth:`TableTemplates.templates` — several templates of one ability (E-TMPL-STK).
* :meth:`TableTemplates.best_template` — the placement that covers a main target and
  hits the most enemies and the fewest friends.

Only scenery blocks a template's line of sight (E-TMPL-CIRCLE, E-TMPL-SPRAY); the
sight lines are decided by the LoS engine (``geometry/los.py``) on an obstacle set
built from the LoS-blocking scenery alone, after a vectorised exact check of a few
candidate witness segments (a clear one is a proof by itself).

The best circle is a branch and bound. The set of bases a circle touches changes only
across the *touch circles* (radius: template + base, around each base), so each face
of their arrangement inside the feasible disc (the main target covered entirely) is
one candidate set, represented by points at every crossing (:func:`circle_candidates`).
A face's bound counts every enemy in it as seen and every friend as hidden; a face
whose own candidates reach the bound is settled. Otherwise LoS varies inside it: its
points on a lattice are searched, cutting the face in parts; a part whose straight
corridor to a model holds no scenery sees it for certain, one from which the engine
proves a model invisible is bounded without it. The best spray scores every angular
event and arc between events (:func:`spray_events`): exact. Details and guarantees:
``docs/templates.md``.

>>> import skirmish
>>> table = skirmish.load("scenarios/mill-ambush.toml")
>>> r = table.template("circle-small", on="raider-1")
>>> r.main_target_covered, r.affected_ids
(True, ('raider-1',))
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal, cast

import numpy as np
import shapely

from ..errors import IllegalActionError, MeasurementRefused, SkirmishError
from ..geometry.los import DEFAULT_TOLERANCE, Obstacles, Viewer, build_obstacles, line_of_sight_batch
from ..geometry.templates import (
    COVERAGE_NAMES,
    COVERED,
    TOUCH_TOLERANCE,
    Capsule,
    angular_cells,
    axis_cover_distance,
    circle,
    circle_candidates,
    circle_lattice,
    clear_segments,
    coverage_from_sdf,
    edges_cross,
    spray_events,
    spray_frame,
    teardrop,
    teardrop_axis,
)
from ..rules.eldfall.modes import Mode, parse_mode
from ..rules.eldfall.templates import TemplateSpec, template_spec
from ..wording import count
from .template_results import (
    BestTemplate,
    Coverage,
    MainRule,
    Placement,
    Point2D,
    SearchStats,
    TemplateHit,
    TemplateResult,
    TemplateSpared,
    TemplateVolley,
)

if TYPE_CHECKING:
    from .pieces import Model, Scenery
    from .results import LineOfSight, LosArc

#: Lattice spacing (inches) of the circle search where LoS varies inside a face.
DEFAULT_SPACING = 0.05
#: The finest lattice spacing accepted (inches): finer would search for minutes.
MIN_SPACING = 0.01
#: A base z exactly on the band's limit is inside it (float slack, inches).
BAND_TOLERANCE = 1e-9
#: Points per LoS batch while the circle search refines a face.
_CHUNK = 256
#: Parts of a face with more points than this get region certificates before their points.
_CERTIFY_MIN = _CHUNK
#: Tolerance of the region certificates that tighten the circle search's bounds (inches):
#: far finer than the lattice, so no lattice point is cut off by the certificate's doubt.
REGION_TOLERANCE = 1e-5
#: Margin (inches) of the corridor test, more than the error of drawing the scenery's
#: circles as polygons.
_CORRIDOR_MARGIN = 0.01


def _empty_obstacles() -> Obstacles:
    return build_obstacles([])


@dataclass(frozen=True)
class _Arrays:
    """The models as arrays (file order)."""

    ids: tuple[str, ...]
    xy: np.ndarray
    r: np.ndarray
    z: np.ndarray
    h: np.ndarray
    side: np.ndarray
    facing: np.ndarray


@dataclass(frozen=True)
class _Placed:
    """A template put down: its shape and what the rules need to resolve it."""

    spec: TemplateSpec
    shape: Capsule
    center: Point2D | None
    theta: float | None
    tip: Point2D | None
    ref_z: float
    user: int | None
    target: int | None


@dataclass(frozen=True)
class _CircleCtx:
    """One main target's circle search: the relevant models (column 0 = the target), the
    candidate and lattice points, what each point touches and its slack, its face."""

    t: int
    rel: np.ndarray
    pts: np.ndarray
    is_lat: np.ndarray
    touch: np.ndarray
    slack: np.ndarray
    inv: np.ndarray
    zs: float
    w: np.ndarray


def _bound(w: np.ndarray, cols: np.ndarray, status: np.ndarray) -> tuple[float, int, int]:
    """Heap key of a part of a face touching the models ``cols`` (column 0 the main target,
    which must be hit), given what is certain (``status``: 1 seen, -1 hidden, 0 open): the
    best score it could reach (open enemies seen, open friends hidden), its friends then and
    its enemies, negated for a min-heap."""
    wc = w[cols]
    seen = (status == 1) | ((status == 0) & (wc > 0))
    seen[0] = status[0] != -1
    ub = float((wc * seen).sum())
    return (-round(ub, 9), -int((seen & (wc < 0)).sum()), -int((seen & (wc > 0)).sum()))


@dataclass(frozen=True)
class _Part:
    """Points of one face of one circle search, with what is certain about their LoS."""

    ctx: int
    points: np.ndarray
    cols: np.ndarray
    status: np.ndarray


def _key_arrays(vis: np.ndarray, w: np.ndarray, slack: np.ndarray) -> tuple[np.ndarray, ...]:
    """Per point (rows of ``vis``: which models it sees; column 0 the main target): the
    parts of its key (score, −friends hit, enemies hit, slack) and whether it is legal (the
    main target is hit)."""
    score = np.round(vis.astype(float) @ w, 9)
    return score, -(vis & (w < 0)).sum(1), (vis & (w > 0)).sum(1), np.asarray(slack, float), vis[:, 0].copy()


def _best_rows(keys: tuple[np.ndarray, ...], groups: np.ndarray | None = None) -> np.ndarray:
    """Indices of the legal rows with the greatest key (one per group when ``groups`` is given)."""
    score, negf, en, slack, ok = keys
    idx = np.flatnonzero(ok)
    if not len(idx):
        return idx
    g = np.zeros(len(idx), int) if groups is None else np.asarray(groups)[idx]
    pos = np.lexsort((slack[idx], en[idx], negf[idx], score[idx], g))  # by group, then by key
    gs = g[pos]
    last = np.flatnonzero(np.append(gs[1:] != gs[:-1], True))
    return idx[pos[last]]


def _key(keys: tuple[np.ndarray, ...], i: int) -> tuple[float, int, int, float]:
    score, negf, en, slack, _ = keys
    return (float(score[i]), int(negf[i]), int(en[i]), float(slack[i]))


def _split(P: np.ndarray, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Cut a set of points in two across the longer side of its bounding box."""
    ext = P.max(0) - P.min(0)
    axis = int(np.argmax(ext))
    order = np.argsort(P[:, axis], kind="stable")
    half = len(order) // 2
    return points[order[:half]], points[order[half:]]


@dataclass
class _Sight:
    """LoS answers for a batch of pairs (only what the caller asked for)."""

    visible: np.ndarray
    witness: list[Any]
    blockers: list[tuple[str, ...]]
    reason: list[str]
    pairs: int = 0


class TableTemplates:
    """Template queries of the table (E-TMPL, E-TMPL-CIRCLE, E-TMPL-SPRAY, E-TMPL-STK, E-MODE)."""

    if TYPE_CHECKING:
        models: tuple[Model, ...]
        scenery: tuple[Scenery, ...]
        mode: Mode

        def model(self, model_id: str) -> Model: ...
        def _where(self) -> str: ...
        def distance(self, a: str, b: str) -> float: ...
        def line_of_sight_pairs(self, pairs: Sequence[tuple[str, str]], *, arc: LosArc = "front",
                                tolerance: float = ...) -> list[LineOfSight]: ...

    # -- cached scene data -----------------------------------------------------
    @cached_property
    def _tmpl_arrays(self) -> _Arrays:
        ms = self.models
        return _Arrays(tuple(m.id for m in ms),
                       np.array([(m.x, m.y) for m in ms], float).reshape(-1, 2),
                       np.array([m.radius for m in ms], float),
                       np.array([m.z for m in ms], float),
                       np.array([m.hitbox_height for m in ms], float),
                       np.array([m.side for m in ms], dtype=object),
                       np.array([m.facing_vector for m in ms], float).reshape(-1, 2))

    @cached_property
    def template_obstacles(self) -> Obstacles | None:
        """The LoS-blocking scenery as obstacles (no models: for templates only scenery
        blocks); None when nothing blocks."""
        solids = [(s.id, s.solid) for s in self.scenery if s.blocks_los]
        return build_obstacles(solids) if solids else None

    @cached_property
    def _tmpl_surfaces(self) -> tuple[np.ndarray, np.ndarray]:
        foot = np.array([s.solid.footprint for s in self.scenery], dtype=object)
        tops = np.array([s.solid.z1 for s in self.scenery], float)
        return foot, tops

    def surface_z_at(self, x: float, y: float) -> float:
        """The surface a template at plan point (x, y) lies on: the top of the highest
        scenery piece whose footprint holds the point, else the table (0)."""
        foot, tops = self._tmpl_surfaces
        if not len(foot):
            return 0.0
        under = shapely.intersects_xy(foot, x, y)
        return float(tops[under].max()) if under.any() else 0.0

    # -- the public queries ----------------------------------------------------
    def template(self, name: str | TemplateSpec, *, on: str | None = None, at: Sequence[float] | None = None,
                 z: float | None = None, by: str | None = None, toward: str | Sequence[float] | None = None,
                 direction: float | None = None, declared: bool = False, mode: Mode | str | None = None,
                 dodge: bool = False) -> TemplateResult:
        """Resolve one template (E-TMPL, E-TMPL-CIRCLE, E-TMPL-SPRAY).

        Circle: ``on=`` centres it on that model (its main target, whose surface it
        lies on), ``at=(x, y)`` centres it on a point (with ``on=`` too, ``on`` is the
        main target that must be covered; without, there is no main target and ``z``
        or the surface under the point gives its height). Spray: ``by=`` the attacker
        and ``toward=`` a model (the main target) or a point, or ``direction=`` degrees;
        ``on=`` names the main target. ``by`` is the user, never hit by its own template.
        ``dodge=True`` adds, per affected model, whether its Agility is halved for the
        Dodge (E-DODGE: no LoS to the user).

        E-MODE: in Standard and Realism mode a template cannot be pre-placed: the query
        raises :class:`MeasurementRefused` unless ``declared=True`` (it resolves a
        declared action).
        """
        spec = template_spec(name)
        mode_ = self._tmpl_mode(mode, declared, spec.name)
        placed = self._tmpl_place(spec, Placement(on, _point(at, "at"), z, _toward(toward), direction), by)
        return self._tmpl_resolve(placed, mode_, declared, dodge)

    def templates(self, name: str | TemplateSpec, placements: Sequence[Placement], *, by: str | None = None,
                  strike: int | None = None, declared: bool = False, mode: Mode | str | None = None,
                  dodge: bool = False) -> TemplateVolley:
        """Several templates of one ability (E-TMPL-STK), each resolved separately, with
        the number of templates that affect each model. With ``strike``, at most that
        many templates may be placed (:class:`IllegalActionError` otherwise)."""
        spec = template_spec(name)
        placements = list(placements)
        if not placements:
            raise SkirmishError(f"{spec.name}: no placements given; pass one Placement per template")
        if strike is not None:
            if isinstance(strike, bool) or not isinstance(strike, int) or strike < 1:
                raise SkirmishError(f"strike must be a whole number >= 1, got {strike!r}")
            if len(placements) > strike:
                who = by or "the user"
                raise IllegalActionError(
                    f"{who} has Strike {strike}: it places at most {count(strike, 'template')} "
                    f"(E-TMPL-STK), got {len(placements)}; drop {count(len(placements) - strike, 'placement')}")
        mode_ = self._tmpl_mode(mode, declared, spec.name)
        results = []
        for k, pl in enumerate(placements):
            if not isinstance(pl, Placement):
                raise SkirmishError(f"placement {k + 1}: expected a Placement, got {pl!r}")
            pl = Placement(pl.on, _point(pl.at, "at"), pl.z, _toward(pl.toward), pl.direction)
            try:
                results.append(self._tmpl_resolve(self._tmpl_place(spec, pl, by), mode_, declared, dodge))
            except SkirmishError as exc:
                raise type(exc)(f"placement {k + 1}: {exc}", kind=exc.kind) from None
        counts: dict[str, int] = {}
        for r in results:
            for h in r.affected:
                counts[h.id] = counts.get(h.id, 0) + 1
        order = {m: i for i, m in enumerate(self._tmpl_arrays.ids)}
        return TemplateVolley(tuple(results), dict(sorted(counts.items(), key=lambda kv: order[kv[0]])), strike)

    def best_template(self, name: str | TemplateSpec, *, by: str, on: str | None = None, enemy_weight: float = 1.0,
                      friend_weight: float = 1.0, reach: float | None = None, spacing: float = DEFAULT_SPACING,
                      declared: bool = False, mode: Mode | str | None = None) -> BestTemplate:
        """The legal placement of ``by``'s template that hits the most enemies and the
        fewest friends: score = ``enemy_weight`` × enemies hit − ``friend_weight`` ×
        friends hit, the main target (``on``, or the best enemy; with ``reach``, only
        enemies within that E-DIST of ``by``) covered and hit.

        Circle: exact over the arrangement of the bases' touch circles (every set of
        bases a circle can touch is examined); where LoS from the centre varies inside a
        face, the face is also searched on a lattice of ``spacing`` inches. Spray: exact
        over every direction (the angular events where anything changes). Ties: fewer
        friends hit, then more enemies hit, then the most slack (the placement farthest
        from changing what it hits). See ``docs/templates.md``.
        """
        spec = template_spec(name)
        mode_ = self._tmpl_mode(mode, declared, spec.name)
        for label, w in (("enemy_weight", enemy_weight), ("friend_weight", friend_weight)):
            if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w) or w < 0:
                raise SkirmishError(f"{label} must be a finite number >= 0, got {w!r}")
        if not (isinstance(spacing, (int, float)) and math.isfinite(spacing) and spacing >= MIN_SPACING):
            raise SkirmishError(f"spacing must be a length of at least {MIN_SPACING:g} in, got {spacing!r}")
        if reach is not None and not (isinstance(reach, (int, float)) and math.isfinite(reach) and reach >= 0):
            raise SkirmishError(f"reach must be a length >= 0 in inches, got {reach!r}")
        user = self._tmpl_index(by, "the user (by)")
        A = self._tmpl_arrays
        if on is not None:
            t = self._tmpl_index(on, "the main target (on)")
            if t == user:
                raise IllegalActionError(f"{by!r} cannot be the main target of its own template: it is never hit by it")
            targets = [t]
        else:
            targets = [i for i in range(len(A.ids)) if A.side[i] != A.side[user]]
            if reach is not None:
                targets = [i for i in targets if self.distance(by, A.ids[i]) <= reach + 1e-9]
            if not targets:
                within = f" within {reach:g}\" of {by!r}" if reach is not None else ""
                raise IllegalActionError(f"{spec.name}: no enemy of {by!r}{within} to be the main target")
        weights = np.where(A.side == A.side[user], -float(friend_weight), float(enemy_weight))
        if spec.kind == "circle":
            placed, stats = self._tmpl_best_circle(spec, user, targets, weights, float(spacing),
                                                   explicit=on is not None)
        else:
            placed, stats = self._tmpl_best_spray(spec, user, targets, weights, explicit=on is not None)
        result = self._tmpl_resolve(placed, mode_, declared, False)
        score, enemies, friends = _score(result, A, user, enemy_weight, friend_weight)
        return BestTemplate(result, score, enemies, friends, float(enemy_weight), float(friend_weight), stats)

    # -- E-MODE ------------------------------------------------------------------
    def _tmpl_mode(self, mode: Mode | str | None, declared: bool, what: str) -> Mode:
        m = self.mode if mode is None else parse_mode(mode)
        if declared or m is Mode.ASSISTED:
            return m
        raise MeasurementRefused(
            f"{m.value} mode: a template cannot be pre-placed to see what it would hit (E-MODE); {what} is placed "
            "only while resolving a declared action (pass declared=True for that, or use "
            "mode='assisted')")

    # -- placing -----------------------------------------------------------------
    def _tmpl_index(self, model_id: str, role: str) -> int:
        if not isinstance(model_id, str):
            raise SkirmishError(f"{role}: expected a model id, got {model_id!r}")
        self.model(model_id)  # raises UnknownIdError with close matches
        return self._tmpl_arrays.ids.index(model_id)

    @cached_property
    def _tmpl_extent(self) -> tuple[float, float, float, float]:
        """The plan box of the table and everything on it (pieces may stand off a moved table)."""
        t: Any = self
        xs, ys = [0.0, float(t.width)], [0.0, float(t.depth)]
        for mdl in t.models:
            xs += [mdl.x - mdl.radius, mdl.x + mdl.radius]
            ys += [mdl.y - mdl.radius, mdl.y + mdl.radius]
        for sc in t.scenery:
            bx0, by0, bx1, by1 = sc.solid.footprint.bounds
            xs += [bx0, bx1]
            ys += [by0, by1]
        return (min(xs), min(ys), max(xs), max(ys))

    def _tmpl_place(self, spec: TemplateSpec, pl: Placement, by: str | None) -> _Placed:
        A = self._tmpl_arrays
        user = None if by is None else self._tmpl_index(by, "the user (by)")
        target = None if pl.on is None else self._tmpl_index(pl.on, "the main target (on)")
        if pl.at is not None:  # a template may hang over the edge of what stands there, no further
            x0, y0, x1, y1 = self._tmpl_extent
            m = spec.size
            if not (x0 - m <= pl.at[0] <= x1 + m and y0 - m <= pl.at[1] <= y1 + m):
                raise SkirmishError(f"the centre ({pl.at[0]:g}, {pl.at[1]:g}) is farther than the template's size "
                                    f"({m:.3g} in) from the table and everything on it; centre it on the table",
                                    kind="range")
        if spec.kind == "circle":
            if pl.toward is not None or pl.direction is not None:
                raise SkirmishError(f"{spec.name} is placed by its centre: use on=MODEL or at=(x, y) "
                                    "(toward= and direction= place a spray)")
            if pl.on is None and pl.at is None:
                raise SkirmishError(f"place the {spec.name}: on=MODEL (centred on it) or at=(x, y)")
            if target is not None and target == user:
                raise IllegalActionError(f"{by!r} cannot be the main target of its own template: it is never hit by it")
            if target is not None and pl.z is not None:
                raise SkirmishError(f"{spec.name} lies on its main target's surface (z {A.z[target]:g}); "
                                    "give z only for a placement without a main target")
            cx, cy = pl.at if pl.at is not None else (float(A.xy[target, 0]), float(A.xy[target, 1]))
            if target is not None:
                zs = float(A.z[target])
            elif pl.z is not None:
                if isinstance(pl.z, bool) or not isinstance(pl.z, (int, float)) or not math.isfinite(pl.z):
                    raise SkirmishError(f"z must be a finite height in inches, got {pl.z!r}")
                zs = float(pl.z)
            else:
                zs = self.surface_z_at(cx, cy)
            return _Placed(spec, circle(cx, cy, spec.radius), (cx, cy), None, None, zs, user, target)
        # spray
        if user is None:
            raise SkirmishError(f"{spec.name} is placed in base contact with its user: name it with by=MODEL")
        if pl.at is not None or pl.z is not None:
            raise SkirmishError(f"{spec.name} is not placed at a point: give toward= (a model or a point) or "
                                "direction= (--toward / --direction)")
        if pl.toward is not None and pl.direction is not None:
            raise SkirmishError(f"{spec.name}: give toward= or direction=, not both")
        if target is None and isinstance(pl.toward, str):
            target = self._tmpl_index(pl.toward, "toward")
        if target is not None and target == user:
            raise IllegalActionError(f"{by!r} cannot be the main target of its own template: it is never hit by it")
        ax, ay = float(A.xy[user, 0]), float(A.xy[user, 1])
        if pl.direction is not None:
            if isinstance(pl.direction, bool) or not isinstance(pl.direction, (int, float)) \
                    or not math.isfinite(pl.direction):
                raise SkirmishError(f"direction must be an angle in degrees, got {pl.direction!r}")
            theta = math.radians(float(pl.direction))
        else:
            if pl.toward is None:
                if target is None:
                    raise SkirmishError(f"point the {spec.name}: toward=MODEL or toward=(x, y), or direction=DEGREES")
                px, py = float(A.xy[target, 0]), float(A.xy[target, 1])
            elif isinstance(pl.toward, str):
                i = self._tmpl_index(pl.toward, "toward")
                px, py = float(A.xy[i, 0]), float(A.xy[i, 1])
            else:
                px, py = pl.toward
            if math.hypot(px - ax, py - ay) < 1e-9:
                raise SkirmishError(f"{spec.name}: the point to aim at is the centre of {by} itself; pick another point")
            theta = math.atan2(py - ay, px - ax)
        rad = float(A.r[user])
        shape = teardrop(ax, ay, rad, theta, spec.length, spec.near_width, spec.far_width)
        tip = (ax + rad * math.cos(theta), ay + rad * math.sin(theta))
        return _Placed(spec, shape, None, theta, tip, float(A.z[user]), user, target)

    # -- resolving ---------------------------------------------------------------
    def _tmpl_resolve(self, p: _Placed, mode: Mode, declared: bool, dodge: bool) -> TemplateResult:
        A = self._tmpl_arrays
        spec, tol = p.spec, TOUCH_TOLERANCE
        sdf = p.shape.sdf(A.xy)
        codes = coverage_from_sdf(sdf, A.r, tol)
        dz = A.z - p.ref_z
        in_band = np.abs(dz) <= spec.band + BAND_TOLERANCE
        touched = codes > 0
        not_user = np.ones(len(A.ids), bool)
        if p.user is not None:
            not_user[p.user] = False
        need = np.flatnonzero(touched & in_band & not_user)
        spray = spec.kind == "spray"
        if spray:
            assert p.user is not None
            sight = self._tmpl_sight_arc(p.user, need, evidence=True)
        else:
            assert p.center is not None
            n = len(need)
            sight = self._tmpl_sight_points(np.full(n, p.center[0]), np.full(n, p.center[1]), np.full(n, p.ref_z),
                                            need, evidence=True)
        los_from: Literal["centre", "attacker"] = "attacker" if spray else "centre"
        verdict = {int(i): k for k, i in enumerate(need)}
        affected: list[TemplateHit] = []
        spared: list[TemplateSpared] = []
        for i in np.flatnonzero(touched):
            cov = cast(Coverage, COVERAGE_NAMES[codes[i]])
            if i == p.user:
                spared.append(TemplateSpared(A.ids[i], "user", cov, float(dz[i]), spec.band, los_from=los_from))
            elif not in_band[i]:
                spared.append(TemplateSpared(A.ids[i], "band", cov, float(dz[i]), spec.band, los_from=los_from))
            else:
                k = verdict[int(i)]
                if sight.visible[k]:
                    affected.append(TemplateHit(A.ids[i], cov, float(dz[i]), spec.band, sight.witness[k], los_from))
                else:
                    spared.append(TemplateSpared(A.ids[i], "no_los", cov, float(dz[i]), spec.band,
                                                 sight.blockers[k], sight.reason[k], los_from))
        main_covered: bool | None = None
        rule: MainRule | None = None
        if p.target is not None:
            t = p.target
            if codes[t] == COVERED:
                main_covered, rule = True, "covered"
            elif spray and self._tmpl_too_close(p, t) and bool(
                    edges_cross(p.shape, A.xy[t, 0], A.xy[t, 1], A.r[t], tol)):
                main_covered, rule = True, "edges"
            else:
                main_covered = False
        if dodge and p.user is not None and affected:
            user_id = A.ids[p.user]
            los = self.line_of_sight_pairs([(h.id, user_id) for h in affected], arc="front")
            affected = [TemplateHit(h.id, h.coverage, h.dz, h.band, h.witness, h.los_from, not s.visible)
                        for h, s in zip(affected, los)]
        outline = tuple((float(x), float(y)) for x, y in p.shape.outline())
        return TemplateResult(spec.name, spec.kind, None if p.user is None else A.ids[p.user], p.center,
                              None if p.theta is None else math.degrees(p.theta) % 360.0, p.tip, outline,
                              p.ref_z, spec.band, None if p.target is None else A.ids[p.target], main_covered,
                              rule, tuple(affected), tuple(spared), mode, declared)

    def _tmpl_too_close(self, p: _Placed, t: int) -> bool:
        """E-TMPL-SPRAY: the main target is nearer than where a spray pointed straight at it
        would cover it entirely (or its base is wider than the spray ever gets)."""
        A = self._tmpl_arrays
        assert p.user is not None
        a1, r1, a2, r2 = teardrop_axis(float(A.r[p.user]), p.spec.length, p.spec.near_width, p.spec.far_width)
        D = float(np.hypot(*(A.xy[t] - A.xy[p.user])))
        return D < axis_cover_distance(a1, r1, a2, r2, float(A.r[t]), TOUCH_TOLERANCE)

    # -- line of sight (only scenery blocks) ---------------------------------------
    def _tmpl_sight_points(self, px: np.ndarray, py: np.ndarray, pz: np.ndarray, targets: np.ndarray, *,
                           evidence: bool) -> _Sight:
        """LoS from points (a circle's centre on its surface) to models' hitboxes. The sight
        line keeps ε clear of every solid (E-LOS), the surface under the centre too: it
        starts ε above the surface."""
        A = self._tmpl_arrays
        targets = np.asarray(targets, int)
        m = len(targets)
        S = np.column_stack([px, py, np.asarray(pz, float) + DEFAULT_TOLERANCE]).reshape(-1, 3)
        M, rho, mz, mh = A.xy[targets], A.r[targets], A.z[targets], A.h[targets]
        v = M - S[:, :2]
        dist = np.hypot(v[:, 0], v[:, 1])
        g = np.where(dist[:, None] > 1e-12, v / np.maximum(dist, 1e-300)[:, None], np.array([1.0, 0.0]))
        nrm = np.column_stack([-g[:, 1], g[:, 0]])
        top, mid = mz + mh, mz + mh / 2
        inside = dist <= rho
        first_q = np.where(inside[:, None], np.column_stack([S[:, :2], np.clip(S[:, 2], mz, top)]),
                           np.column_stack([M, top]))
        qs = [first_q]
        for off in (0.0, 0.8, -0.8):
            q2 = M + off * rho[:, None] * nrm
            qs += [np.column_stack([q2, top]), np.column_stack([q2, mid])]
        Q = np.stack(qs, 1)  # (m, C, 3)
        P = np.repeat(S[:, None, :], Q.shape[1], axis=1)
        valid = np.ones(Q.shape[:2], bool)
        sources = [Viewer(float(x), float(y), 0.0, float(z), 0.0, -1) for x, y, z in S]
        return self._tmpl_decide(P, Q, valid, sources, targets, [None] * m, evidence)

    def _tmpl_sight_arc(self, user: int, targets: np.ndarray, *, evidence: bool) -> _Sight:
        """LoS from the user's front arc (E-ARC; the sight line runs forward) to models."""
        A = self._tmpl_arrays
        targets = np.asarray(targets, int)
        m = len(targets)
        a, ra, az, ah = A.xy[user], float(A.r[user]), float(A.z[user]), float(A.h[user])
        f = A.facing[user]
        M, rho, mz, mh = A.xy[targets], A.r[targets], A.z[targets], A.h[targets]
        v = M - a
        dist = np.hypot(v[:, 0], v[:, 1])
        g = np.where(dist[:, None] > 1e-12, v / np.maximum(dist, 1e-300)[:, None], np.array([1.0, 0.0]))
        nrm = np.column_stack([-g[:, 1], g[:, 0]])
        top, mid = mz + mh, mz + mh / 2
        srcs = [np.tile(a, (m, 1)), a + 0.8 * ra * g]
        src_ok = [np.ones(m, bool), g @ f >= 0]
        Ps, Qs, ok = [], [], []
        for s, sok in zip(srcs, src_ok):
            for off in (0.0, 0.8, -0.8):
                q2 = M + off * rho[:, None] * nrm
                fwd = (q2 - a) @ f >= -1e-12
                for hz in (top, mid):
                    Ps.append(np.column_stack([s, np.full(m, az + ah)]))
                    Qs.append(np.column_stack([q2, hz]))
                    ok.append(sok & fwd)
        P, Q, valid = np.stack(Ps, 1), np.stack(Qs, 1), np.stack(ok, 1)
        src = Viewer(float(a[0]), float(a[1]), ra, az, ah, -1)
        return self._tmpl_decide(P, Q, valid, [src] * m, targets, [tuple(f)] * m, evidence)

    def _tmpl_decide(self, P: np.ndarray, Q: np.ndarray, valid: np.ndarray, sources: list[Viewer],
                     targets: np.ndarray, facings: list[Any], evidence: bool) -> _Sight:
        """Try the candidate witnesses (m, C) in order; pairs without a clear one go to the
        LoS engine, whose answer (a witness, or blockers with a certificate) is final."""
        A = self._tmpl_arrays
        m = len(targets)
        visible = np.zeros(m, bool)
        wit_idx = np.full(m, -1)
        obs = self.template_obstacles
        if m == 0:
            return _Sight(visible, [], [], [], 0)
        if obs is None:
            ok = valid.copy()
        else:
            ok = np.zeros(valid.shape, bool)
            # the first candidate for everyone, then the rest for the pairs still open
            first = np.flatnonzero(valid[:, 0])
            grown = obs.grown(DEFAULT_TOLERANCE)  # E-LOS: a sight line keeps ε clear
            ok[first, 0] = clear_segments(grown, P[first, 0], Q[first, 0])
            rest = np.flatnonzero(~ok[:, 0])
            if len(rest):
                sub = valid[rest, 1:]
                r, c = np.nonzero(sub)
                ok[rest[r], c + 1] = clear_segments(grown, P[rest[r], c + 1], Q[rest[r], c + 1])
        has = ok.any(1)
        visible[has] = True
        wit_idx[has] = ok[has].argmax(1)
        witness: list[Any] = [None] * m
        blockers: list[tuple[str, ...]] = [()] * m
        reason = ["clear"] * m
        if evidence:
            for k in np.flatnonzero(has):
                c = wit_idx[k]
                witness[k] = (tuple(float(x) for x in P[k, c]), tuple(float(x) for x in Q[k, c]))
        open_ = np.flatnonzero(~has)
        if len(open_):
            tgt = [Viewer(float(A.xy[t, 0]), float(A.xy[t, 1]), float(A.r[t]), float(A.z[t]), float(A.h[t]), -1)
                   for t in targets[open_]]
            obs_ = obs if obs is not None else _empty_obstacles()  # nothing blocks: only the arc can refuse
            raw = line_of_sight_batch(obs_, [sources[k] for k in open_], tgt, [facings[k] for k in open_])
            for k, ans in zip(open_, raw):
                visible[k] = ans.visible
                if ans.visible:
                    witness[k] = ans.witness
                else:
                    blockers[k] = tuple(obs_.names[o] for o in ans.blockers)
                    reason[k] = "out_of_arc" if ans.out_of_arc else "blocked"
        return _Sight(visible, witness, blockers, reason, m)

    # -- best placement: circles ----------------------------------------------------
    def _tmpl_hidden(self, cx: float, cy: float, radius: float, zs: float, targets: np.ndarray) -> np.ndarray:
        """Which models no point of the disc (centre, radius) at height ``zs`` can see
        (an engine certificate at :data:`REGION_TOLERANCE`; only scenery blocks)."""
        obs = self.template_obstacles
        targets = np.asarray(targets, int)
        if obs is None or not len(targets):
            return np.zeros(len(targets), bool)
        A = self._tmpl_arrays
        src = Viewer(float(cx), float(cy), float(radius), float(zs), 0.0, -1)
        tgt = [Viewer(float(A.xy[t, 0]), float(A.xy[t, 1]), float(A.r[t]), float(A.z[t]), float(A.h[t]), -1)
               for t in targets]
        raw = line_of_sight_batch(obs, [src] * len(tgt), tgt, [None] * len(tgt), resolution=REGION_TOLERANCE)
        return np.array([not r.visible for r in raw], bool)

    def _tmpl_corridor(self, cx: float, cy: float, radius: float, targets: np.ndarray) -> np.ndarray:
        """Which models every point of the disc (centre, radius) sees for certain: no
        LoS-blocking footprint comes within max(radius, base radius) of the segment between
        the two centres (that neighbourhood holds every segment from the disc to the base)."""
        obs = self.template_obstacles
        targets = np.asarray(targets, int)
        if obs is None or not len(targets):
            return np.ones(len(targets), bool)
        A = self._tmpl_arrays
        lines = shapely.linestrings(np.stack([np.tile([cx, cy], (len(targets), 1)), A.xy[targets]], 1))
        reach = np.maximum(radius, A.r[targets]) + _CORRIDOR_MARGIN
        qi, _ = obs.tree.query(lines, predicate="dwithin", distance=reach)
        out = np.ones(len(targets), bool)
        out[qi] = False
        return out

    def _tmpl_best_circle(self, spec: TemplateSpec, user: int, targets: list[int], weights: np.ndarray,
                          spacing: float, *, explicit: bool) -> tuple[_Placed, SearchStats]:
        """Branch and bound over the faces of the touch-circle arrangement, then over parts of
        a face (see the module docs). A bound assumes every enemy not proven hidden is seen
        and every friend not proven seen is hidden."""
        A = self._tmpl_arrays
        R, tol = spec.radius, TOUCH_TOLERANCE
        idx = np.arange(len(A.ids))
        ctxs: list[_CircleCtx] = []
        heap: list[tuple] = []
        seq = 0
        n_cand = n_lat = 0
        for t in targets:
            RF = R - float(A.r[t])
            if RF < -tol:
                if explicit:
                    raise IllegalActionError(
                        f"{spec.name} ({spec.size * 25.4:.0f} mm) cannot cover {A.ids[t]!r}'s "
                        f"{2 * A.r[t] * 25.4:.0f} mm base entirely (E-TMPL); use a larger template")
                continue
            RF = max(RF, 0.0)
            T = A.xy[t]
            zs = float(A.z[t])
            near = np.hypot(*(A.xy - T).T) <= R + A.r + RF + 2 * tol
            rel = np.flatnonzero((np.abs(A.z - zs) <= spec.band + BAND_TOLERANCE) & near & (idx != user))
            # models no centre in the feasible disc can see never count: drop them at once
            others = rel[rel != t]
            hidden = self._tmpl_hidden(float(T[0]), float(T[1]), RF + tol, zs, others[weights[others] > 0])
            drop = np.zeros(len(others), bool)
            drop[np.flatnonzero(weights[others] > 0)[hidden]] = True
            rel = np.concatenate([[t], others[~drop]]).astype(int)
            cand = circle_candidates((float(T[0]), float(T[1])), RF, A.xy[rel], R + A.r[rel], tol)
            lat, _ = circle_lattice((float(T[0]), float(T[1])), (float(A.xy[user, 0]), float(A.xy[user, 1])),
                                    RF + tol, spacing)
            pts = np.vstack([cand, lat])
            is_lat = np.concatenate([np.zeros(len(cand), bool), np.ones(len(lat), bool)])
            n_cand += len(cand)
            n_lat += len(lat)
            dist = np.hypot(pts[:, None, 0] - A.xy[rel, 0], pts[:, None, 1] - A.xy[rel, 1]) - R
            touch = dist <= A.r[rel] + tol
            touch[:, 0] = True  # the main target (column 0) is covered everywhere in the feasible disc
            gap = np.abs(dist - A.r[rel])
            gap[:, 0] = np.inf
            slack = np.minimum(RF + tol - np.hypot(*(pts - T).T), gap.min(1))
            w = weights[rel]
            _, first, inv = np.unique(np.packbits(touch, axis=1), axis=0, return_index=True, return_inverse=True)
            inv = inv.ravel()
            ctxs.append(_CircleCtx(t, rel, pts, is_lat, touch, slack, inv, zs, w))
        if not ctxs:
            raise IllegalActionError(f"{spec.name}: no enemy of {A.ids[user]!r} has a base the template can cover "
                                     "entirely")
        # the arrangement's candidates of every face first, in one LoS batch: cheap, and often enough
        rows = [np.nonzero(c.touch[~c.is_lat]) for c in ctxs]
        xs = np.concatenate([c.pts[~c.is_lat][r, 0] for c, (r, _) in zip(ctxs, rows)])
        ys = np.concatenate([c.pts[~c.is_lat][r, 1] for c, (r, _) in zip(ctxs, rows)])
        zs_ = np.concatenate([np.full(len(r), c.zs) for c, (r, _) in zip(ctxs, rows)])
        tg = np.concatenate([c.rel[k] for c, (_, k) in zip(ctxs, rows)]).astype(int)
        sight = self._tmpl_sight_points(xs, ys, zs_, tg, evidence=False)
        los_pairs = sight.pairs
        best_key: tuple[float, int, int, float] | None = None
        best_at: tuple[int, int] | None = None
        off = 0
        for ci, (ctx, (r, k)) in enumerate(zip(ctxs, rows)):
            cand = np.flatnonzero(~ctx.is_lat)
            vis = np.zeros((len(cand), len(ctx.rel)), bool)
            vis[r, k] = sight.visible[off:off + len(r)]
            off += len(r)
            keys = _key_arrays(vis, ctx.w, ctx.slack[cand])
            face_best: dict[int, tuple[float, int, int, float]] = {}
            for j in _best_rows(keys, ctx.inv[cand]):
                key = _key(keys, int(j))
                face_best[int(ctx.inv[cand[j]])] = key
                if best_key is None or key > best_key:
                    best_key, best_at = key, (ci, int(cand[j]))
            _, first = np.unique(ctx.inv, return_index=True)
            for g, i0 in enumerate(first):
                cols = np.flatnonzero(ctx.touch[i0])
                status = np.zeros(len(cols), int)
                nb = _bound(ctx.w, cols, status)
                if g in face_best and face_best[g][:3] >= (-nb[0], nb[1], -nb[2]):
                    continue  # the face's bound is met by one of its candidates
                heapq.heappush(heap, (*nb, seq, _Part(ci, np.flatnonzero(ctx.inv == g), cols, status)))
                seq += 1
        while heap:
            neg_ub, f_req, neg_e, _, item = heapq.heappop(heap)
            bound = (-neg_ub, f_req, -neg_e)
            if best_key is not None and bound <= best_key[:3]:
                break  # nothing left can do better (the heap pops the highest bound first)
            ctx = ctxs[item.ctx]
            # a part of a face: settle what the whole part sees for certain, then bound it again
            P = ctx.pts[item.points]
            c = P.mean(0)
            rad = float(np.hypot(*(P - c).T).max()) + 1e-9
            status = item.status.copy()
            open_ = np.flatnonzero(status == 0)
            if len(open_) and len(item.points) > _CERTIFY_MIN:
                models = ctx.rel[item.cols[open_]]
                seen = self._tmpl_corridor(float(c[0]), float(c[1]), rad, models)
                status[open_[seen]] = 1
                ask = open_[~seen & (ctx.w[item.cols[open_]] > 0) | (~seen & (open_ == 0))]
                if len(ask):
                    hid = self._tmpl_hidden(float(c[0]), float(c[1]), rad, ctx.zs, ctx.rel[item.cols[ask]])
                    status[ask[hid]] = -1
            if status[0] == -1:
                continue  # the main target is hidden from this whole part
            nb = _bound(ctx.w, item.cols, status)
            bound = (-nb[0], nb[1], -nb[2])
            if best_key is not None and bound <= best_key[:3]:
                continue
            if not (status == 0).any() or len(item.points) <= _CHUNK:
                order = item.points[np.argsort(-ctx.slack[item.points], kind="stable")]
                for start in range(0, len(order), _CHUNK):
                    key, j, pairs = self._tmpl_circle_points(ctx, order[start:start + _CHUNK], item.cols, status)
                    los_pairs += pairs
                    if key is not None and (best_key is None or key > best_key):
                        best_key, best_at = key, (item.ctx, j)
                    if key is not None and key[:3] >= bound:
                        break
                continue
            for half in _split(P, item.points):
                part = _Part(item.ctx, half, item.cols, status)
                heapq.heappush(heap, (*nb, seq, part))
                seq += 1
        if best_at is None:
            raise IllegalActionError(f"{spec.name}: no placement hits a main target (no LoS from any centre)")
        ctx = ctxs[best_at[0]]
        c = ctx.pts[best_at[1]]
        placed = _Placed(spec, circle(float(c[0]), float(c[1]), R), (float(c[0]), float(c[1])), None, None,
                         ctx.zs, user, ctx.t)
        stats = SearchStats(n_cand, n_lat, los_pairs, spacing, tuple(A.ids[i] for i in targets),
                            "circle: branch and bound over the faces of the touch-circle arrangement, "
                            "then over parts of a face (lattice points) where LoS varies")
        return placed, stats

    def _tmpl_circle_points(self, ctx: _CircleCtx, pts: np.ndarray, cols: np.ndarray, status: np.ndarray):
        """Score points of one face: LoS from each centre to the models of ``cols`` whose
        status is open (1: seen for certain, -1: hidden for certain). Returns the best key
        (score, −friends, enemies, slack), its point and the LoS pairs used."""
        if not len(pts):
            return None, -1, 0
        k = len(pts)
        vis = np.repeat((status == 1)[None, :], k, axis=0)
        open_ = np.flatnonzero(status == 0)
        pairs = 0
        if len(open_):
            s = len(open_)
            pi = np.repeat(pts, s)
            ti = np.tile(ctx.rel[cols[open_]], k)
            sight = self._tmpl_sight_points(ctx.pts[pi, 0], ctx.pts[pi, 1], np.full(k * s, ctx.zs), ti,
                                            evidence=False)
            vis[:, open_] = sight.visible.reshape(k, s)
            pairs = sight.pairs
        keys = _key_arrays(vis, ctx.w[cols], ctx.slack[pts])
        top = _best_rows(keys)
        if not len(top):
            return None, -1, pairs
        best, at = _key(keys, int(top[0])), int(pts[top[0]])
        return best, at, pairs

    # -- best placement: sprays -----------------------------------------------------
    def _tmpl_best_spray(self, spec: TemplateSpec, user: int, targets: list[int], weights: np.ndarray, *,
                         explicit: bool) -> tuple[_Placed, SearchStats]:
        A = self._tmpl_arrays
        tol = TOUCH_TOLERANCE
        n = len(A.ids)
        ra = float(A.r[user])
        a1, r1, a2, r2 = teardrop_axis(ra, spec.length, spec.near_width, spec.far_width)
        frame = spray_frame(ra, spec.length, spec.near_width, spec.far_width)
        v = A.xy - A.xy[user]
        D = np.hypot(v[:, 0], v[:, 1])
        alpha = np.arctan2(v[:, 1], v[:, 0])
        in_band = np.abs(A.z - A.z[user]) <= spec.band + BAND_TOLERANCE
        reachable = D <= a2 + r2 + A.r + tol
        rel = np.flatnonzero(in_band & reachable & (np.arange(n) != user))
        sight = self._tmpl_sight_arc(user, rel, evidence=False)
        hc = rel[sight.visible]
        tset = [t for t in targets if t in set(hc.tolist())]
        if not tset:
            if explicit:
                t = targets[0]
                why = (f"its base is outside the ±{spec.band:g}\" band" if not in_band[t] else
                       "it is beyond the spray's length" if not reachable[t] else "the attacker has no LoS to it")
                raise IllegalActionError(f"{spec.name} by {A.ids[user]!r} cannot hit {A.ids[t]!r}: {why}")
            raise IllegalActionError(f"{spec.name} by {A.ids[user]!r}: no enemy within reach, band and LoS to be "
                                     "the main target")
        tarr = np.array(tset, int)
        dmin = np.array([axis_cover_distance(a1, r1, a2, r2, float(A.r[t]), tol) for t in tarr])
        close = D[tarr] < dmin
        ev_idx = np.concatenate([hc, tarr])
        deltas = np.concatenate([A.r[hc] + tol, -A.r[tarr] + tol])
        reach_e = np.concatenate([np.full(len(hc), np.nan), np.where(close, A.r[tarr] - tol, np.nan)])
        events = spray_events(frame, D[ev_idx], alpha[ev_idx], deltas, reach_e)
        angles, lo, hi = angular_cells(events, extra=alpha[tarr])
        sig, score, fr, en, legal = self._tmpl_spray_eval(frame, angles, hc, tarr, close, D, alpha, weights)
        valid = legal.any(1)
        # merge neighbouring candidates with the same effect into arcs (cyclically)
        K = len(angles)
        change = np.array([not np.array_equal(sig[i], sig[i - 1]) for i in range(K)])
        start = int(np.flatnonzero(change)[0]) if change.any() else 0
        order = np.concatenate([np.arange(start, K), np.arange(0, start)])
        lo_u = np.concatenate([lo[start:], lo[:start] + 2 * math.pi])
        hi_u = np.concatenate([hi[start:], hi[:start] + 2 * math.pi])
        best_key = None
        best_theta = None
        j = 0
        while j < K:
            k = j
            while k + 1 < K and not change[order[k + 1]]:
                k += 1
            i0 = order[j]
            if valid[i0]:
                width = hi_u[k] - lo_u[j] if change.any() else 2 * math.pi
                key = (round(float(score[i0]), 9), -int(fr[i0]), int(en[i0]), float(width))
                if best_key is None or key > best_key:
                    theta = (lo_u[j] + hi_u[k]) / 2 if change.any() else float(alpha[tarr[0]])
                    best_key, best_theta = key, (theta % (2 * math.pi), i0)
            j = k + 1
        if best_theta is None:
            names = ", ".join(repr(A.ids[t]) for t in tarr)
            raise IllegalActionError(
                f"{spec.name} by {A.ids[user]!r}: no direction covers {names} entirely (E-TMPL-SPRAY): too far "
                f"(the spray covers a base entirely only up to {a2 + r2:.2f}\" from the centre of {A.ids[user]!r}, "
                "less the base's radius)")
        theta, i0 = best_theta
        # the middle of the arc has the arc's effect; check, else keep the arc's own candidate
        s2, *_rest, legal2 = self._tmpl_spray_eval(frame, np.array([theta]), hc, tarr, close, D, alpha, weights)
        if not np.array_equal(s2[0], sig[i0]):
            theta = float(angles[i0])
            legal2 = legal[i0:i0 + 1]
        # the main target: entirely covered first, then the nearest the axis
        phi = np.abs((alpha[tarr] - theta + math.pi) % (2 * math.pi) - math.pi)
        cand = np.flatnonzero(legal2[0])
        full = frame.sdf(np.column_stack([D[tarr] * np.cos(alpha[tarr] - theta),
                                          D[tarr] * np.sin(alpha[tarr] - theta)])) <= -A.r[tarr] + tol
        pick = min(cand, key=lambda c: (not full[c], phi[c], int(tarr[c])))
        t = int(tarr[pick])
        placed = self._tmpl_place(spec, Placement(on=A.ids[t], direction=math.degrees(theta)), A.ids[user])
        stats = SearchStats(K, 0, sight.pairs, None, tuple(A.ids[i] for i in targets),
                            "exact angular events (touch, entire coverage, long edges) + arc midpoints")
        return placed, stats

    def _tmpl_spray_eval(self, frame: Capsule, angles: np.ndarray, hc: np.ndarray, tarr: np.ndarray,
                         close: np.ndarray, D: np.ndarray, alpha: np.ndarray, weights: np.ndarray):
        """Effect of a spray at each direction: (signature, score, friends, enemies, legal main targets)."""
        A = self._tmpl_arrays
        tol = TOUCH_TOLERANCE
        phi = alpha[hc][None, :] - angles[:, None]
        pos = np.stack([D[hc] * np.cos(phi), D[hc] * np.sin(phi)], -1)
        touched = frame.sdf(pos) <= A.r[hc] + tol
        phit = alpha[tarr][None, :] - angles[:, None]
        post = np.stack([D[tarr] * np.cos(phit), D[tarr] * np.sin(phit)], -1)
        full = frame.sdf(post) <= -A.r[tarr] + tol
        edges = edges_cross(frame, post[..., 0], post[..., 1], A.r[tarr], tol) & close[None, :]
        legal = full | edges
        w = weights[hc]
        score = touched.astype(float) @ w
        fr = touched[:, w < 0].sum(1)
        en = touched[:, w > 0].sum(1)
        sig = np.concatenate([np.packbits(touched, axis=1), np.packbits(legal, axis=1)], 1)
        return sig, score, fr, en, legal


def _point(at: Sequence[float] | None, label: str) -> Point2D | None:
    if at is None:
        return None
    try:
        x, y = (float(v) for v in at)
    except (TypeError, ValueError):
        raise SkirmishError(f"{label} must be a point (x, y) in inches, got {at!r}") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise SkirmishError(f"{label} must be a finite point, got {at!r}")
    return (x, y)


def _toward(toward: str | Sequence[float] | None) -> str | Point2D | None:
    if toward is None or isinstance(toward, str):
        return toward
    return _point(toward, "toward")


def _score(result: TemplateResult, A: _Arrays, user: int, we: float, wf: float) -> tuple[float, int, int]:
    side = A.side[user]
    pos = {m: i for i, m in enumerate(A.ids)}
    friends = sum(1 for h in result.affected if A.side[pos[h.id]] == side)
    enemies = len(result.affected) - friends
    return we * enemies - wf * friends, enemies, friends
