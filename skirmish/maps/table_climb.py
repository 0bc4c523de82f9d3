"""Climb on the continuous table (E-MOVE-CLIMB): walk to a face, climb it, walk on.

A Climb moves the model from the surface it stands on to another one over one
vertical face, with a budget of ⌈SPD/2⌉. Its path is: a walk on the start surface to
the foot of the face (the base touching it), the vertical climb (up or down; it costs
its height), the step over the top's edge (the base centre moves from touching the
face to just inside the edge: it costs its length) and a walk on the other surface.
Both walks are planned and checked by the Walk planner and checker. A declared climb
may stop on the face (E-MOVE-CLIMB: "may stop on a vertical face"): its last point is
then on the vertical segment, between the two surfaces. A model that hangs on a face
(:meth:`~skirmish.maps.table_movement.TableMovement.on_face`) climbs on from there: up
the rest of the face and over the top's edge, or down to its foot, and walks on.

Interpretations (docs/movement.md): one face per Climb, and its walks stay on their
two surfaces (no steps or ladders on the way); a climb never falls; its walks follow
the Walk rules (they go round what is taller than the hitbox).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Point
from shapely.ops import nearest_points

from ..memo import IdentityMemo
from .results import MovePlan, Violation
from .tolerances import CONTACT, Z_TOL

#: The foot of a climb is this much (inches) beyond base contact with the face; the top
#: of it this much inside the edge.
GAP = 3 * CONTACT
#: Candidate feet sampled round the face.
SAMPLES = 96
#: Candidate feet planned in full (cheapest estimates first).
TRIES = 6

Pt = tuple[float, float, float]


def _dist(a: Sequence[float], b: Sequence[float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


#: Where a base of a radius touches a footprint from outside (the feet of its faces), per footprint and radius.
_FEET: IdentityMemo[Any] = IdentityMemo(1024)


def foot_nearest(footprint: Any, r: float, x: float, y: float) -> tuple[float, float]:
    """The point nearest (x, y) where a base of radius ``r`` stands at the foot of one of
    ``footprint``'s faces (touching it from outside, ``GAP`` off, as a climb's foot)."""
    (fx, fy), = feet_nearest([footprint], r, x, y).tolist()
    return fx, fy


def _foot_ring(footprint: Any, r: float) -> Any:
    """Where the centre of a base of radius ``r`` stands touching ``footprint`` from outside, ``GAP`` off."""
    return _FEET.get((id(footprint), r), (footprint,), lambda: footprint.buffer(r + GAP).exterior)


def feet_nearest(footprints: Sequence[Any], r: float, x: float, y: float) -> np.ndarray:
    """:func:`foot_nearest` for each of ``footprints`` at once: (n, 2)."""
    rings = [_foot_ring(f, r) for f in footprints]
    return shapely.get_coordinates(shapely.line_interpolate_point(rings, shapely.line_locate_point(rings, Point(x, y))))


#: :func:`face_at` per scenery (identity), point, radius and heights (a model hangs on a face
#: over many boards).
_FACES: IdentityMemo[str | None] = IdentityMemo(256)


def face_at(scenery: Sequence[Any], x: float, y: float, r: float, z0: float, z1: float) -> str | None:
    """The piece whose vertical face a base of radius ``r`` centred at (x, y) touches from
    outside (its footprint ``r`` away, within ``2 * GAP``) and that spans ``z0`` to
    ``z1``: the tallest such (None: no face). What a climb climbs, and where a model
    hangs after one that stopped (the checker and :meth:`TableMovement.on_face` alike)."""
    return _FACES.get((id(scenery), x, y, r, z0, z1), (scenery,), lambda: _face_at(scenery, x, y, r, z0, z1))


def _face_at(scenery: Sequence[Any], x: float, y: float, r: float, z0: float, z1: float) -> str | None:
    spans = [s for s in scenery if s.solid.z0 <= z0 + Z_TOL and s.solid.z1 >= z1 - Z_TOL]
    best = None
    for s, gap in zip(spans, plan_gaps(spans, x, y)):
        if abs(gap - r) <= 2 * GAP + 1e-9 and (best is None or s.solid.z1 > best.solid.z1):
            best = s
    return None if best is None else best.id


def plan_gaps(pieces: Sequence[Any], x: float, y: float) -> list[float]:
    """Each piece's footprint's plan distance from (x, y), found in one vectorised call."""
    if not pieces:
        return []
    return shapely.distance(np.array([s.solid.footprint for s in pieces], dtype=object), Point(x, y)).tolist()


class Climb:
    """One model's climb on one table (see the module)."""

    def __init__(self, table: Any, mv: Any, budget: float):
        self.table, self.mv, self.budget = table, mv, budget
        self.r = mv.r
        self.model = mv.model
        self.home = mv.surfaces[mv.home]
        #: where the model stands: on its surface, or on the face where a Climb stopped
        self.start: Pt = (mv.model.x, mv.model.y, mv.model.z if mv.face is not None else self.home.z)

    def _walk(self, start: Pt, pts: Sequence[Pt], *, plan: bool, bounded: bool = True) -> MovePlan:
        """Walk from ``start`` (the model placed there) through ``pts`` on one surface:
        checked, or planned to ``pts[-1]``. ``bounded``: planned within the Climb's budget
        (no climb walks further; ``plan_move``'s ``bounded``): a legal plan is the
        unbounded one, an illegal one says only why, without a path to the nearest point
        it reaches."""
        t = self.table
        if _dist(start, (self.model.x, self.model.y)) > 1e-12 or abs(start[2] - self.model.z) > Z_TOL:
            t = t.with_model(replace(self.model, x=start[0], y=start[1], z=start[2]))
        if plan:
            return t.plan_move(self.model.id, pts[-1], kind="walk", budget=self.budget if bounded else 1e6,
                               declared=True, falls=False, bounded=bounded)
        return t.check_move(self.model.id, list(pts), kind="walk", budget=1e6, declared=True)

    def _feet(self, low: Any, high: Any, aim: Sequence[float], start: Sequence[float]) -> list[tuple[Pt, Pt]]:
        """Candidate (foot, top) pairs round the high surface's edge: the foot touching
        the face on the low surface, the top just inside the edge."""
        rings = shapely.get_parts(high.support.buffer(self.r + GAP, quad_segs=16).boundary)
        total = float(sum(r.length for r in rings))
        pts = []
        for ring in rings:
            n = max(8, int(SAMPLES * ring.length / total))
            pts += [ring.interpolate(float(d)) for d in np.linspace(0, ring.length, n, endpoint=False)]
            for q in (aim, start):
                pts.append(ring.interpolate(ring.project(Point(q[0], q[1]))))
        return [((p.x, p.y, low.z), top) for p in pts if (top := self._inside(high, p.x, p.y)) is not None]

    def plan(self, aim: Pt, notes: list[str]) -> MovePlan:
        """The cheapest climb to ``aim`` (on another surface, or on a face: up it from its
        foot) as a :class:`MovePlan`."""
        mv = self.mv
        target = next((u for u in mv.surfaces if abs(u.z - aim[2]) <= Z_TOL and u.holds_xy(aim[0], aim[1])), None)
        start = self.start
        if mv.face is not None:
            return self._plan_from_face(aim, target, notes)
        if target is None and abs(aim[2] - self.home.z) > Z_TOL:  # onto a face, stopping on it
            up = aim[2] > self.home.z
            if face_at(self.table.scenery, aim[0], aim[1], self.r, *sorted((aim[2], self.home.z))) is None:
                return self._refused(  # (as :meth:`check` would find it: no walk needed to know)
                    f"a Climb {'up' if up else 'down'} to ({aim[0]:g}, {aim[1]:g}, z {aim[2]:g}) is not against a face "
                    f"that spans it from {self.home.label} (E-MOVE-CLIMB)", notes)
            # up: from its foot; down: from the top's edge nearest it, stepping off
            edge = None if up else self._inside(self.home, aim[0], aim[1])
            via: list[Pt] = [(aim[0], aim[1], self.home.z)] if edge is None else [edge, (aim[0], aim[1], self.home.z)]
            w1 = self._walk(start, via[:1], plan=True)
            if w1.legal and all(abs(p[2] - start[2]) <= Z_TOL for p in w1.points):
                return self.check([*w1.points[1:], *via[1:], aim], notes)
            why = w1.violations[0].what if w1.violations else f"the way leaves {self.home.label}"
            return self._refused((
                f"a Climb {'up' if up else 'down'} to ({aim[0]:g}, {aim[1]:g}, z {aim[2]:g}) starts "
                f"{'at its foot' if up else 'at the edge above it'} on {self.home.label}, where the model cannot "
                f"walk: {why} (E-MOVE-CLIMB)"), notes)
        if target is None or target.index == self.home.index:
            where = "no surface" if target is None else "the surface it stands on"
            return self._refused((
                f"a Climb goes over a face to another surface; ({aim[0]:g}, {aim[1]:g}, z {aim[2]:g}) is on {where} "
                "(walk there instead)"), notes)
        if not mv.space(target.index).ends_free(np.array([aim[:2]], float))[0]:
            who = [m.id for m in self.table.models if m.id != self.model.id and abs(m.z - target.z) <= Z_TOL
                   and math.hypot(m.x - aim[0], m.y - aim[1]) < m.radius + self.r - CONTACT]
            why = f"{' and '.join(who)} stand{'s' * (len(who) == 1)} there" if who else \
                "it would overlap scenery or hang off the surface"
            return self._refused((
                f"its base cannot end at ({aim[0]:g}, {aim[1]:g}, z {aim[2]:g}) on {target.label}: {why} "
                "(E-MOVE-CLIMB)"), notes)
        up = target.z > self.home.z
        low, high = (self.home, target) if up else (target, self.home)
        cands = []
        for foot, top in self._feet(low, high, aim, start):
            first, last = (foot, top) if up else (top, foot)
            est = _dist(start, first) + abs(target.z - self.home.z) + _dist(foot, top) + _dist(last, aim)
            cands.append((est, first, last, foot, top))
        cands.sort(key=lambda c: c[0])
        best: tuple[float, list[Pt]] | None = None
        for est, first, last, foot, top in cands[:TRIES]:
            if best is not None and est >= best[0]:
                break
            w1 = self._walk(start, [first], plan=True)
            if not w1.legal or any(abs(p[2] - start[2]) > Z_TOL for p in w1.points):
                continue
            w2 = self._walk(last, [aim], plan=True)
            if not w2.legal or any(abs(p[2] - aim[2]) > Z_TOL for p in w2.points):
                continue
            rise = (foot, (foot[0], foot[1], high.z)) if up else ((foot[0], foot[1], high.z), foot)
            pts = [*w1.points, *(rise if up else ((top, *rise))), *([top] if up else []), *w2.points[1:]]
            pts = [tuple(map(float, p)) for p in pts]
            clean = [pts[0]]
            for p in pts[1:]:
                if max(abs(a - b) for a, b in zip(p, clean[-1])) > 1e-9:
                    clean.append(p)
            cost = w1.cost + abs(target.z - self.home.z) + _dist(foot, top) + w2.cost
            if best is None or cost < best[0]:
                best = (cost, clean)
        if best is None:
            return self._refused((
                f"no face of {target.label} can be reached by walking on {self.home.label} and on from its top "
                "(E-MOVE-CLIMB)"), notes)
        return self.check(best[1][1:], notes)

    def _plan_from_face(self, aim: Pt, target: Any, notes: list[str]) -> MovePlan:
        """A climb on from the face the model hangs on: further along it (``aim`` above or
        below, on it), up onto the top whose edge it reaches (stepping over the edge at
        the nearest point where the base fits), or down to the surface at its foot; then
        a walk to ``aim``."""
        x, y, z = self.start
        if target is None:
            return self.check([aim], notes)
        if target.index == self.home.index:  # down to the foot
            w2 = self._walk_on((x, y, target.z), aim)
            return self.check([(x, y, target.z), *w2.points[1:]], notes)
        onto = self._inside(target, x, y)
        if target.z < z - Z_TOL or onto is None:
            return self._refused((
                f"from the face of {self.mv.face} a Climb goes on up it onto {self.mv.face}'s top or down to its "
                f"foot on {self.home.label}; ({aim[0]:g}, {aim[1]:g}, z {aim[2]:g}) is on {target.label} "
                "(E-MOVE-CLIMB)"), notes)
        w2 = self._walk_on(onto, aim)
        up = [(x, y, target.z)] if target.z > z + Z_TOL else []  # (at the face's top: the step over the edge only)
        return self.check([*up, onto, *w2.points[1:]], notes)

    def _refused(self, what: str, notes: list[str]) -> MovePlan:
        """A climb refused before it moves: the model stays where it is, with why."""
        return MovePlan(self.model.id, (self.start,), 0.0, 0.0, False, (Violation(0, what),), None, 0, self.budget,
                        tuple(notes))

    def _walk_on(self, start: Pt, aim: Pt) -> MovePlan:
        """The walk on from a face's foot or top to ``aim``, whose path is checked legal or
        not (an unreachable aim: the path to the nearest point it reaches, unbounded)."""
        w = self._walk(start, [aim], plan=True)
        return w if w.legal else self._walk(start, [aim], plan=True, bounded=False)

    def _inside(self, surface: Any, x: float, y: float) -> Pt | None:
        """Where the base stands just inside ``surface``'s edge nearest (x, y) outside it
        (the step over the edge from a face there); None from on the edge itself."""
        edge = nearest_points(surface.support.boundary, Point(x, y))[0]
        v = np.array([edge.x - x, edge.y - y])
        norm = float(np.hypot(*v))
        if norm < 1e-9:
            return None
        top = np.array([edge.x, edge.y]) + v / norm * (self.r + GAP)
        return (float(top[0]), float(top[1]), surface.z)

    def _on_surface(self, p: Pt) -> bool:
        return any(abs(u.z - p[2]) <= Z_TOL and u.holds_xy(p[0], p[1]) for u in self.mv.surfaces)

    def _hop(self, a: Pt, b: Pt, at: int, vs: list[Violation]) -> float:
        """The step over the top's edge, between touching the face and standing inside it."""
        over = _dist(a, b)
        if over > 2 * (self.r + 2 * GAP) + 1e-6:
            vs.append(Violation(at, f"steps {over:.2f} in over the edge at the climb; at most the base's width "
                                    "(E-MOVE-CLIMB)"))
        return over

    def check(self, via: Sequence[Sequence[float]], notes: list[str]) -> MovePlan:
        """Check a declared climb: ``via`` are ``(x, y, z)`` points after the model's
        position: a walk, (the step off the top's edge,) one vertical segment at a face,
        (the step onto the top's edge,) a walk — or it stops on the face."""
        start = self.start
        pts: list[Pt] = [start] + [(float(p[0]), float(p[1]), float(p[2] if len(p) == 3 else self.home.z)) for p in via]
        notes = list(notes)
        vs: list[Violation] = []
        vert = [i for i in range(len(pts) - 1) if _dist(pts[i], pts[i + 1]) <= 1e-9
                and abs(pts[i][2] - pts[i + 1][2]) > Z_TOL]
        if self.mv.face is not None and not vert and len(pts) > 1 and abs(pts[1][2] - start[2]) <= Z_TOL:
            cost = self._onto(pts, 0, vs)  # on the face at its top: the step over the edge, and on
            return self._budgeted(pts, cost, vs, notes)
        if len(vert) != 1:
            vs.append(Violation(0, f"a Climb climbs one face and its walks stay on their surfaces; this path "
                                   f"changes height {len(vert)} times (E-MOVE-CLIMB)"))
            return self._result(pts, 0.0, vs, notes)
        i = vert[0]
        foot, head = pts[i], pts[i + 1]
        cost = 0.0
        if self.mv.face is not None and i > 0:
            vs.append(Violation(0, f"from the face of {self.mv.face} a Climb goes on up or down it first "
                                   "(E-MOVE-CLIMB)"))
            return self._result(pts, 0.0, vs, notes)
        # a hop off the top's edge comes first (none from a face)
        walk_end = 0 if self.mv.face is not None else i if self._on_surface(foot) else i - 1
        if walk_end < 0:
            vs.append(Violation(0, "the climb starts off the surface the model stands on"))
            return self._result(pts, 0.0, vs, notes)
        if walk_end > 0:
            w1 = self._walk(start, pts[1:walk_end + 1], plan=False)
            vs += list(w1.violations)
            cost += w1.cost
        if walk_end < i:
            cost += self._hop(pts[walk_end], foot, walk_end, vs)
        rise = abs(head[2] - foot[2])
        cost += rise
        lo, hi = min(foot[2], head[2]), max(foot[2], head[2])
        # (from a face: one that rises from its foot, as the one it hangs on)
        face = face_at(self.table.scenery, foot[0], foot[1], self.r, min(lo, self.home.z), hi)
        if face is None:
            vs.append(Violation(i, f"the climb at ({foot[0]:.2f}, {foot[1]:.2f}) from z {foot[2]:g} to z {head[2]:g} is "
                                   "not against a face that spans it (E-MOVE-CLIMB)"))
        else:
            notes.append(f"E-MOVE-CLIMB: climbs {rise:g} in {'up' if head[2] > foot[2] else 'down'} the face of {face}")
        rest = pts[i + 1:]
        stops = not self._on_surface(head) and len(rest) == 1
        self._column(foot, lo, hi, head[2] if stops else None, i, vs)
        if self._on_surface(head):
            w2 = self._walk(head, rest[1:] or [head], plan=False)
            vs += [replace(v, at=v.at + i + 1) for v in w2.violations]
            cost += w2.cost if len(rest) > 1 else 0.0
        elif len(rest) == 1:
            if face is not None:
                notes.append(f"E-MOVE-CLIMB: stops on the vertical face at z {head[2]:g}")
        else:
            cost += self._onto(rest, i + 1, vs)
        return self._budgeted(pts, cost, vs, notes)

    def _column(self, foot: Pt, lo: float, hi: float, stop: float | None, at: int, vs: list[Violation]) -> None:
        """The hitbox's sweep up or down the face, from ``lo`` to ``hi`` at the foot's plan
        position: through no piece, and no enemy (a friend is climbed past, E-MOVE-FRIEND);
        where it stops on the face (at height ``stop``), clear of every model."""
        top = hi + self.mv.h
        across = [s for s in self.table.scenery if s.solid.z1 > lo + Z_TOL and s.solid.z0 < top - Z_TOL]
        for s, gap in zip(across, plan_gaps(across, foot[0], foot[1])):
            if gap < self.r - CONTACT:
                vs.append(Violation(at, f"the climb at ({foot[0]:.2f}, {foot[1]:.2f}) passes through {s.id} "
                                        f"(z {s.solid.z0:g} to {s.solid.z1:g}) (E-MOVE-CLIMB)"))
        for o in self.table.models:
            if o.id == self.model.id or _dist(foot, (o.x, o.y)) >= self.r + o.radius - CONTACT:
                continue
            if stop is not None and o.z < stop + self.mv.h - Z_TOL and o.z + o.hitbox_height > stop + Z_TOL:
                vs.append(Violation(at, f"it would hang on the face inside {o.id}'s hitbox (E-MOVE-CLIMB)"))
            elif o.side != self.model.side and "Dead" not in o.states and o.z < top - Z_TOL and \
                    o.z + o.hitbox_height > lo + Z_TOL:
                vs.append(Violation(at, f"the climb passes through the enemy {o.id} (E-MOVE-ENEMY)"))

    def _onto(self, rest: Sequence[Pt], at: int, vs: list[Violation]) -> float:
        """The step over the top's edge from the face (``rest[0]``) onto the top
        (``rest[1]``) and the walk on through ``rest[2:]`` (segment ``at`` first): their cost."""
        head = rest[0]
        cost = self._hop(head, rest[1], at, vs)
        if not self._on_surface(rest[1]):
            vs.append(Violation(at, f"the step over the edge at z {head[2]:g} does not reach a surface"))
            return cost
        w2 = self._walk(rest[1], rest[2:] or [rest[1]], plan=False)
        vs += [replace(v, at=v.at + at + 1) for v in w2.violations]
        return cost + (w2.cost if len(rest) > 2 else 0.0)

    def _budgeted(self, pts: list[Pt], cost: float, vs: list[Violation], notes: list[str]) -> MovePlan:
        if cost > self.budget + 1e-9:
            vs.append(Violation(len(pts) - 2, f"over budget: the climb costs {cost:.2f} in, Climb gives {self.budget:g} in "
                                              "(⌈SPD/2⌉, E-MOVE-CLIMB)"))
        return self._result(pts, cost, vs, notes)

    def _result(self, pts: list[Pt], cost: float, vs: list[Violation], notes: list[str]) -> MovePlan:
        arr = np.array(pts)
        length = float(np.sum(np.linalg.norm(np.diff(arr, axis=0), axis=1))) if len(arr) > 1 else 0.0
        vs = sorted(dict.fromkeys(vs), key=lambda v: v.at)  # (found order within a segment: a set's varies by run)
        return MovePlan(self.model.id, tuple(pts), length, cost, not vs, tuple(vs), None, 0, self.budget, tuple(notes))
