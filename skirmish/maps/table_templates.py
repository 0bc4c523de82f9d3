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

>>> import skirmish
>>> table = skirmish.load("scenarios/mill-ambush.toml")
>>> r = table.template("circle-small", on="raider-1")
>>> r.main_target_covered, r.affected_ids
(True, ('raider-1',))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely

from ..errors import IllegalActionError, MeasurementRefused, SkirmishError
from ..geometry.los import Obstacles, Viewer, build_obstacles, line_of_sight_batch
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
from ..rules.eldfall.modes import Mode
from ..rules.eldfall.templates import TemplateSpec, template_spec
from .template_results import (
    BestTemplate,
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
    from .results import LineOfSight

#: Lattice spacing (inches) of the circle search where LoS varies inside a face.
DEFAULT_SPACING = 0.05
#: A base z exactly on the band's limit is inside it (float slack, inches).
BAND_TOLERANCE = 1e-9
#: Points per LoS batch while the circle search refines a face.
_CHUNK = 48


def _EMPTY_OBSTACLES() -> Obstacles:
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
        _model_index: dict[str, int]

        def model(self, model_id: str) -> Model: ...
        def _where(self) -> str: ...
        def distance(self, a: str, b: str) -> float: ...
        def line_of_sight_pairs(self, pairs: Sequence[tuple[str, str]], **kw: Any) -> list[LineOfSight]: ...

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
        mode_ = self._template_mode(mode, declared, spec.name)
        placed = self._place(spec, Placement(on, _point(at, "at"), z, _toward(toward), direction), by)
        return self._resolve(placed, mode_, declared, dodge)

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
                    f"{who} has Strike {strike}: it places at most {strike} template{'s' if strike > 1 else ''} "
                    f"(E-TMPL-STK), got {len(placements)}; drop {len(placements) - strike} placement(s)")
        mode_ = self._template_mode(mode, declared, spec.name)
        results = []
        for k, pl in enumerate(placements):
            if not isinstance(pl, Placement):
                raise SkirmishError(f"placement {k + 1}: expected a Placement, got {pl!r}")
            pl = Placement(pl.on, _point(pl.at, "at"), pl.z, _toward(pl.toward), pl.direction)
            try:
                results.append(self._resolve(self._place(spec, pl, by), mode_, declared, dodge))
            except SkirmishError as exc:
                raise type(exc)(f"placement {k + 1}: {exc}") from None
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
        mode_ = self._template_mode(mode, declared, spec.name)
        for label, w in (("enemy_weight", enemy_weight), ("friend_weight", friend_weight)):
            if isinstance(w, bool) or not isinstance(w, (int, float)) or not math.isfinite(w) or w < 0:
                raise SkirmishError(f"{label} must be a finite number >= 0, got {w!r}")
        if not (isinstance(spacing, (int, float)) and math.isfinite(spacing) and spacing > 0):
            raise SkirmishError(f"spacing must be a positive length in inches, got {spacing!r}")
        if reach is not None and not (isinstance(reach, (int, float)) and math.isfinite(reach) and reach >= 0):
            raise SkirmishError(f"reach must be a length >= 0 in inches, got {reach!r}")
        user = self._index(by, "the user (by)")
        A = self._tmpl_arrays
        if on is not None:
            t = self._index(on, "the main target (on)")
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
            placed, stats = self._best_circle(spec, user, targets, weights, float(spacing), explicit=on is not None)
        else:
            placed, stats = self._best_spray(spec, user, targets, weights, explicit=on is not None)
        result = self._resolve(placed, mode_, declared, False)
        score, enemies, friends = _score(result, A, user, enemy_weight, friend_weight)
        return BestTemplate(result, score, enemies, friends, float(enemy_weight), float(friend_weight), stats)

    # -- E-MODE ------------------------------------------------------------------
    def _template_mode(self, mode: Mode | str | None, declared: bool, what: str) -> Mode:
        try:
            m = self.mode if mode is None else Mode(mode)
        except ValueError:
            raise SkirmishError(f"unknown measurement mode {mode!r}; use assisted, standard or realism") from None
        if declared or m is Mode.ASSISTED:
            return m
        raise MeasurementRefused(
            f"{m.value} mode: a template cannot be pre-placed to see what it would hit (E-MODE); {what} is placed "
            "only while resolving a declared action (pass --declared / declared=True for that, or use --mode "
            "assisted)")

    # -- placing -----------------------------------------------------------------
    def _index(self, model_id: str, role: str) -> int:
        if not isinstance(model_id, str):
            raise SkirmishError(f"{role}: expected a model id, got {model_id!r}")
        self.model(model_id)  # raises UnknownIdError with close matches
        return self._model_index[model_id]

    def _place(self, spec: TemplateSpec, pl: Placement, by: str | None) -> _Placed:
        A = self._tmpl_arrays
        user = None if by is None else self._index(by, "the user (by)")
        target = None if pl.on is None else self._index(pl.on, "the main target (on)")
        if spec.kind == "circle":
            if pl.toward is not None or pl.direction is not None:
                raise SkirmishError(f"{spec.name} is placed by its centre: use on=MODEL or at=(x, y) "
                                    "(toward= and direction= place a spray)")
            if pl.on is None and pl.at is None:
                raise SkirmishError(f"place the {spec.name}: on=MODEL (centred on it) or at=(x, y) (--on / --at)")
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
            raise SkirmishError(f"{spec.name} is placed in base contact with its user: name it with by= (--by)")
        if pl.at is not None or pl.z is not None:
            raise SkirmishError(f"{spec.name} is not placed at a point: give toward= (a model or a point) or "
                                "direction= (--toward / --direction)")
        if pl.toward is not None and pl.direction is not None:
            raise SkirmishError(f"{spec.name}: give toward= or direction=, not both")
        if target is None and isinstance(pl.toward, str):
            target = self._index(pl.toward, "toward")
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
                i = self._index(pl.toward, "toward")
                px, py = float(A.xy[i, 0]), float(A.xy[i, 1])
            else:
                px, py = pl.toward
            if math.hypot(px - ax, py - ay) < 1e-9:
                raise SkirmishError(f"{spec.name}: the point to aim at is {by!r}'s own centre; pick another point")
            theta = math.atan2(py - ay, px - ax)
        rad = float(A.r[user])
        shape = teardrop(ax, ay, rad, theta, spec.length, spec.near_width, spec.far_width)
        tip = (ax + rad * math.cos(theta), ay + rad * math.sin(theta))
        return _Placed(spec, shape, None, theta, tip, float(A.z[user]), user, target)

    # -- resolving ---------------------------------------------------------------
    def _resolve(self, p: _Placed, mode: Mode, declared: bool, dodge: bool) -> TemplateResult:
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
            sight = self._sight_arc(p.user, need, evidence=True)
        else:
            assert p.center is not None
            n = len(need)
            sight = self._sight_points(np.full(n, p.center[0]), np.full(n, p.center[1]), np.full(n, p.ref_z), need,
                                       evidence=True)
        los_from = "attacker" if spray else "centre"
        verdict = {int(i): k for k, i in enumerate(need)}
        affected: list[TemplateHit] = []
        spared: list[TemplateSpared] = []
        for i in np.flatnonzero(touched):
            cov = COVERAGE_NAMES[codes[i]]
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
        rule = None
        if p.target is not None:
            t = p.target
            if codes[t] == COVERED:
                main_covered, rule = True, "covered"
            elif spray and self._too_close(p, t) and bool(edges_cross(p.shape, A.xy[t, 0], A.xy[t, 1], A.r[t], tol)):
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

    def _too_close(self, p: _Placed, t: int) -> bool:
        """E-TMPL-SPRAY: the main target is nearer than where a spray pointed straight at it
        would cover it entirely (or its base is wider than the spray ever gets)."""
        A = self._tmpl_arrays
        assert p.user is not None
        a1, r1, a2, r2 = teardrop_axis(float(A.r[p.user]), p.spec.length, p.spec.near_width, p.spec.far_width)
        D = float(np.hypot(*(A.xy[t] - A.xy[p.user])))
        return D < axis_cover_distance(a1, r1, a2, r2, float(A.r[t]), TOUCH_TOLERANCE)

    # -- line of sight (only scenery blocks) ---------------------------------------
    def _sight_points(self, px: np.ndarray, py: np.ndarray, pz: np.ndarray, targets: np.ndarray, *,
                      evidence: bool) -> _Sight:
        """LoS from points (a circle's centre on its surface) to models' hitboxes."""
        A = self._tmpl_arrays
        targets = np.asarray(targets, int)
        m = len(targets)
        S = np.column_stack([px, py, pz]).reshape(-1, 3)
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
        return self._decide(P, Q, valid, [Viewer(float(x), float(y), 0.0, float(z), 0.0, -1) for x, y, z in S]
                            if m else [], targets, [None] * m, evidence)

    def _sight_arc(self, user: int, targets: np.ndarray, *, evidence: bool) -> _Sight:
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
        return self._decide(P, Q, valid, [src] * m, targets, [tuple(f)] * m, evidence)

    def _decide(self, P: np.ndarray, Q: np.ndarray, valid: np.ndarray, sources: list[Viewer], targets: np.ndarray,
                facings: list[Any], evidence: bool) -> _Sight:
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
            ok[first, 0] = clear_segments(obs, P[first, 0], Q[first, 0])
            rest = np.flatnonzero(~ok[:, 0])
            if len(rest):
                sub = valid[rest, 1:]
                r, c = np.nonzero(sub)
                ok[rest[r], c + 1] = clear_segments(obs, P[rest[r], c + 1], Q[rest[r], c + 1])
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
            obs_ = obs if obs is not None else _EMPTY_OBSTACLES()  # nothing blocks: only the arc can refuse
            raw = line_of_sight_batch(obs_, [sources[k] for k in open_], tgt, [facings[k] for k in open_])
            for k, r in zip(open_, raw):
                visible[k] = r.visible
                if r.visible:
                    witness[k] = r.witness
                else:
                    blockers[k] = tuple(obs_.names[o] for o in r.blockers)
                    reason[k] = "out_of_arc" if r.out_of_arc else "blocked"
        return _Sight(visible, witness, blockers, reason, m)

    # -- best placement: circles ----------------------------------------------------
    def _best_circle(self, spec: TemplateSpec, user: int, targets: list[int], weights: np.ndarray, spacing: float,
                     *, explicit: bool) -> tuple[_Placed, SearchStats]:
        A = self._tmpl_arrays
        R, tol = spec.radius, TOUCH_TOLERANCE
        n = len(A.ids)
        idx = np.arange(n)
        contexts = []
        groups: list[tuple[float, int, int, int, int]] = []  # (ub, -f_req, e_s, context, group)
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
            cand = circle_candidates((float(T[0]), float(T[1])), RF, A.xy[rel], R + A.r[rel], tol)
            lat, _ = circle_lattice((float(T[0]), float(T[1])), (float(A.xy[user, 0]), float(A.xy[user, 1])),
                                    RF + tol, spacing)
            pts = np.vstack([cand, lat])
            n_cand += len(cand)
            n_lat += len(lat)
            dist = np.hypot(pts[:, None, 0] - A.xy[rel, 0], pts[:, None, 1] - A.xy[rel, 1]) - R
            touch = dist <= A.r[rel] + tol
            tpos = int(np.flatnonzero(rel == t)[0])
            touch[:, tpos] = True
            gap = np.abs(dist - A.r[rel])
            gap[:, tpos] = np.inf
            slack = np.minimum(RF + tol - np.hypot(*(pts - T).T), gap.min(1) if len(rel) else np.inf)
            w = weights[rel]
            req = rel == t
            ub_w = np.where(req, w, np.maximum(w, 0.0))
            packed = np.packbits(touch, axis=1)
            _, first, inv = np.unique(packed, axis=0, return_index=True, return_inverse=True)
            inv = inv.ravel()
            ub = touch.astype(float) @ ub_w
            f_req = -1 if w[tpos] < 0 else 0
            enemies = touch[:, w > 0].sum(1)
            contexts.append((t, rel, pts, touch, slack, inv, zs, w, tpos))
            for g, i0 in enumerate(first):
                groups.append((round(float(ub[i0]), 9), f_req, int(enemies[i0]), len(contexts) - 1, g))
        if not groups:
            raise IllegalActionError(f"{spec.name}: no enemy of {A.ids[user]!r} has a base the template can cover "
                                     "entirely")
        groups.sort(key=lambda g: (-g[0], -g[1], -g[2]))
        best_key: tuple[float, int, int, float] | None = None
        best_at: tuple[int, int] | None = None
        los_pairs = 0
        for ub, f_req, e_s, ci, g in groups:
            if best_key is not None and (ub, f_req, e_s) <= best_key[:3]:
                continue
            t, rel, pts, touch, slack, inv, zs, w, tpos = contexts[ci]
            members = np.flatnonzero(inv == g)
            members = members[np.argsort(-slack[members], kind="stable")]
            cols = np.flatnonzero(touch[members[0]])
            for start in range(0, len(members), _CHUNK):
                chunk = members[start:start + _CHUNK]
                k, s = len(chunk), len(cols)
                pi = np.repeat(chunk, s)
                ti = np.tile(rel[cols], k)
                sight = self._sight_points(pts[pi, 0], pts[pi, 1], np.full(k * s, zs), ti, evidence=False)
                los_pairs += sight.pairs
                vis = sight.visible.reshape(k, s)
                wc = w[cols]
                score = vis.astype(float) @ wc
                main_ok = vis[:, int(np.flatnonzero(cols == tpos)[0])]
                score = np.where(main_ok, score, -np.inf)
                fr = (vis & (wc < 0)).sum(1)
                en = (vis & (wc > 0)).sum(1)
                for j in range(k):
                    if not main_ok[j]:
                        continue
                    key = (round(float(score[j]), 9), -int(fr[j]), int(en[j]), float(slack[chunk[j]]))
                    if best_key is None or key > best_key:
                        best_key, best_at = key, (ci, int(chunk[j]))
                if best_key is not None and best_key[:3] >= (ub, f_req, e_s):
                    break  # this face cannot do better (its best is reached)
        if best_at is None:
            raise IllegalActionError(f"{spec.name}: no placement hits a main target (no LoS from any centre)")
        t, rel, pts, *_ = contexts[best_at[0]]
        c = pts[best_at[1]]
        placed = _Placed(spec, circle(float(c[0]), float(c[1]), R), (float(c[0]), float(c[1])), None, None,
                         float(A.z[t]), user, t)
        stats = SearchStats(n_cand, n_lat, los_pairs, spacing, tuple(A.ids[i] for i in targets),
                            "circle arrangement (touch circles, vertices ± tolerance) + lattice where LoS varies")
        return placed, stats

    # -- best placement: sprays -----------------------------------------------------
    def _best_spray(self, spec: TemplateSpec, user: int, targets: list[int], weights: np.ndarray, *,
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
        sight = self._sight_arc(user, rel, evidence=False)
        hc = rel[sight.visible]
        tset = [t for t in targets if t in set(hc.tolist())]
        if not tset:
            if explicit:
                t = targets[0]
                why = ("its base is outside the ±5\" band" if not in_band[t] else
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
        sig, score, fr, en, legal = self._spray_eval(frame, angles, hc, tarr, close, D, alpha, weights)
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
                f"(the spray covers a base entirely only up to {a2 + r2:.2f}\" from {A.ids[user]!r}'s centre, "
                "less the base's radius)")
        theta, i0 = best_theta
        # the middle of the arc has the arc's effect; check, else keep the arc's own candidate
        s2, *_rest, legal2 = self._spray_eval(frame, np.array([theta]), hc, tarr, close, D, alpha, weights)
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
        placed = self._place(spec, Placement(on=A.ids[t], direction=math.degrees(theta)), A.ids[user])
        stats = SearchStats(K, 0, sight.pairs, None, tuple(A.ids[i] for i in targets),
                            "exact angular events (touch, entire coverage, long edges) + arc midpoints")
        return placed, stats

    def _spray_eval(self, frame: Capsule, angles: np.ndarray, hc: np.ndarray, tarr: np.ndarray, close: np.ndarray,
                    D: np.ndarray, alpha: np.ndarray, weights: np.ndarray):
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
