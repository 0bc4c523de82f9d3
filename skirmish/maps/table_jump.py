"""Jump on the continuous table (E-MOVE-JUMP, E-FALL): one straight line in 3D.

A Jump is a straight line from where the base centre stands to a point, measured
start to end in 3D, of up to ⌈SPD/2⌉. The model's hitbox (its base disc, as tall as
the hitbox) travels along the line. It stops early where it first runs into a
piece that rises above its feet (ignoring what it stood on when it took off). The
jump then ends where it stopped (or at ⌈SPD/2⌉ along the line, or at the point):

* on a surface at that height under the base centre: it lands there;
* otherwise, when the top of a walkable piece it touches is above its feet but no
  higher than the top of its hitbox, it is pulled onto that top's edge (the nearest
  point where its base may end);
* otherwise it drops straight down onto the highest surface under its base, and a
  drop of more than half its Speed makes E-FALL rolls.

Interpretations (docs/movement.md): a jump that lands on a surface makes no fall
rolls (the height is part of its measured line); models are not obstacles in the
air, only where the model ends (E-MOVE-END).
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import shapely
from shapely.geometry import Point
from shapely.ops import nearest_points

from ..geometry import kernels
from ..memo import IdentityMemo
from ..rules.eldfall.movement import fall_rolls
from .results import MovePlan, Violation
from .tolerances import CONTACT, Z_TOL

#: The line is sampled this finely (inches) before the first contact is refined.
STEP = 0.01


def _p(x: float, y: float, z: float) -> str:
    return f"({x:.2f}, {y:.2f}, z {z:g})"


class _Feet(NamedTuple):
    """A scenery's pieces and their footprints as :class:`Jump` measures them."""

    pieces: list[Any]
    feet: np.ndarray  # (the footprints)
    boxes: np.ndarray  # (their bounds x0, y0, x1, y1)
    edges: np.ndarray  # (their rings' edges ax, ay, bx, by: piece p's from starts[p] to starts[p + 1])
    starts: np.ndarray
    heights: np.ndarray  # (the pieces' z0, z1)


#: Per scenery (identity): :class:`_Feet`.
_FEET: IdentityMemo[_Feet] = IdentityMemo(64)

#: How much nearer than a distance tested a footprint's box must come for the footprint
#: to be measured (rounding of the two).
_BOX_SLACK = 1e-9


def _feet(scenery: Sequence[Any]) -> _Feet:
    """The pieces of ``scenery`` and their footprints (read only: :data:`_FEET`)."""
    def make() -> _Feet:
        feet = np.array([s.solid.footprint for s in scenery], dtype=object)
        edges = [np.vstack([np.hstack([c[:-1], c[1:]]) for c in map(shapely.get_coordinates,
                                                                      shapely.get_rings(shapely.get_parts(f)))])
                 for f in feet]
        return _Feet(list(scenery), feet, shapely.bounds(feet).reshape(-1, 4),
                     np.vstack(edges) if edges else np.zeros((0, 4)), np.cumsum([0] + [len(e) for e in edges]),
                     np.array([(s.solid.z0, s.solid.z1) for s in scenery], float).reshape(-1, 2))
    return _FEET.get((id(scenery),), (scenery,), make)


def _box_gap(boxes: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The plan distance from each box (x0, y0, x1, y1) to the box ``lo``–``hi``: no more
    than from any point of the one to any of the other."""
    dx = np.maximum(np.maximum(boxes[:, 0] - hi[0], lo[0] - boxes[:, 2]), 0.0)
    dy = np.maximum(np.maximum(boxes[:, 1] - hi[1], lo[1] - boxes[:, 3]), 0.0)
    return np.hypot(dx, dy)


class Jump:
    """One model's jump on one table (see the module)."""

    def __init__(self, table: Any, mv: Any, budget: float):
        # (a weak reference: the table keeps its jumps, and a strong one back would make
        # each table a cycle the garbage collector must free)
        self._table, self.mv, self.budget = weakref.ref(table), mv, budget
        self.scene = _feet(table.scenery)
        self.pieces, self.feet, self.boxes = self.scene.pieces, self.scene.feet, self.scene.boxes
        self.r, self.h = mv.r, mv.h
        self.start = np.array([mv.model.x, mv.model.y, mv.surfaces[mv.home].z])
        # what it stands on or touches when it takes off is not in its way (only a piece whose
        # box comes that near may: measured)
        at = self.start[:2]
        near = np.flatnonzero(_box_gap(self.boxes, at, at) < self.r + CONTACT + _BOX_SLACK).tolist()
        touch = shapely.distance(self.feet[near], shapely.points(at)) < self.r + CONTACT if near else []
        self.ignore = {self.pieces[i].id for i, t in zip(near, touch)
                       if t and self.pieces[i].solid.z1 <= self.start[2] + Z_TOL}
        self._seen: dict[tuple[float, ...], tuple[Any, ...]] = {}  # (_landed)

    def _blocked(self, s: Any, pts: np.ndarray, gap: float = -CONTACT) -> np.ndarray:
        """Does the hitbox at each point ``(x, y, z)`` run into piece ``s``? (The plan
        distance is measured only where the heights overlap.) ``gap``: see :meth:`_reaches`."""
        out = self._overlaps(s, pts)
        if out.any():
            out[out] = self._reaches(s, pts[out], gap)
        return out

    def _overlaps(self, s: Any, pts: np.ndarray) -> np.ndarray:
        """Do the hitbox's heights at each point overlap piece ``s``'s?"""
        return (s.solid.z1 > pts[:, 2] + Z_TOL) & (s.solid.z0 < pts[:, 2] + self.h - Z_TOL)

    def _reaches(self, s: Any, pts: np.ndarray, gap: float = -CONTACT) -> np.ndarray:
        """Does the base at each point come nearer than ``gap`` to piece ``s``'s footprint
        (plan distance)? (-CONTACT: it runs into it; 0: it touches it.)"""
        return shapely.distance(s.solid.footprint, shapely.points(pts[:, :2])) < self.r + gap

    def _first_blocked(self, s: Any, pts: np.ndarray, idx: np.ndarray) -> int:
        """The first of the points ``pts[idx]`` (``idx`` in order along the line) where the
        hitbox runs into ``s`` (-1: none), tested in growing batches from the first."""
        size, k = 16, 0
        while k < len(idx):
            part = idx[k:k + size]
            hit = self._blocked(s, pts[part])
            if hit.any():
                return int(part[np.argmax(hit)])
            k, size = k + size, 4 * size
        return -1

    def _first_hit(self, a: np.ndarray, b: np.ndarray) -> tuple[float, Any]:
        """The first parameter on ``a → b`` where the hitbox runs into a piece (1.0, None: none);
        compiled where the kernels are loaded (``kernels.jump_first_hit``, the same bits)."""
        n = max(2, int(math.ceil(float(np.linalg.norm(b - a)) / STEP)) + 1)
        line = shapely.linestrings([a[:2], b[:2]]) if np.linalg.norm(b[:2] - a[:2]) > 1e-12 else shapely.points(a[:2])
        # (only a piece whose box comes within reach of the line's may: measured)
        near = np.flatnonzero(_box_gap(self.boxes, np.minimum(a[:2], b[:2]), np.maximum(a[:2], b[:2]))
                              < self.r - CONTACT + _BOX_SLACK).tolist()
        gap = shapely.distance(self.feet[near], line).tolist() if near else []
        # (never within the base's reach along the line, as _blocked judges it: not in its way)
        cand = [i for i, g in zip(near, gap) if g < self.r - CONTACT and self.pieces[i].id not in self.ignore]
        if not cand:
            return 1.0, None
        if kernels.wanted(n * len(cand)):
            sc = self.scene
            t, k = kernels.jump_first_hit(a, b, n, np.array(cand, np.int64), sc.edges, sc.starts, sc.boxes,
                                          sc.heights, self.r, self.h, CONTACT, Z_TOL)
            return t, (self.pieces[k] if k >= 0 else None)
        ts = np.linspace(0.0, 1.0, n)
        pts = a + ts[:, None] * (b - a)
        best, who = 1.0, None
        for i in cand:
            s, (x0, y0, x1, y1) = self.pieces[i], self.boxes[i].tolist()
            # only the points within reach of the footprint's box may be within reach of it
            dx = np.maximum(np.maximum(x0 - pts[:, 0], pts[:, 0] - x1), 0.0)
            dy = np.maximum(np.maximum(y0 - pts[:, 1], pts[:, 1] - y1), 0.0)
            maybe = np.flatnonzero((np.hypot(dx, dy) < self.r - CONTACT + 1e-9) & (ts < best))
            hit = self._first_blocked(s, pts, maybe)  # (one no earlier than the best so far is not taken)
            if hit < 0:
                continue
            best, who = self._bisect(s, a, b, float(ts[hit - 1]) if hit else 0.0, float(ts[hit])), s
        return (best, who) if who is None else (self._touched(who, a, b, best), who)

    def _touched(self, s: Any, a: np.ndarray, b: np.ndarray, hit: float) -> float:
        """Where the hitbox, running into ``s`` at ``hit`` along ``a → b``, first touches it
        (its base at no gap: not left inside the piece's clearance, where the contact
        tolerance lets it run on, and walks would start from inside): the last parameter
        before ``hit`` of 40 halvings; ``hit`` where ``a`` is nearer than that already."""
        return hit if self._blocked(s, a[None], 0.0)[0] else self._bisect(s, a, b, 0.0, hit, gap=0.0)

    def _bisect(self, s: Any, a: np.ndarray, b: np.ndarray, lo: float, hi: float, steps: int = 40,
                depth: int = 3, gap: float = -CONTACT) -> float:
        """The last free parameter of 40 halvings of ``[lo, hi]`` (free at ``lo``, blocked
        by ``s`` at ``hi``; ``gap``: see :meth:`_reaches`): each ``depth`` halvings in one
        call, every midpoint they may visit tested at once (the same midpoints, the same
        answer as one at a time). Where the heights overlap at both ends they overlap at
        every midpoint (the height is monotone along the line, rounded or not): only the
        plan distance is tested."""
        ends = a + np.array([lo, hi])[:, None] * (b - a)
        blocked_at = self._reaches if self._overlaps(s, ends).all() else self._blocked
        done = 0
        while done < steps:
            k = min(depth, steps - done)
            levels: list[list[float]] = []
            spans = [(lo, hi)]
            for _ in range(k):
                mids = [(x + y) / 2 for x, y in spans]
                levels.append(mids)
                spans = [half for (x, y), m in zip(spans, mids) for half in ((x, m), (m, y))]
            flat = np.array([m for mids in levels for m in mids])
            blocked = blocked_at(s, a + flat[:, None] * (b - a), gap).tolist()
            node = first = 0
            for mids in levels:
                if blocked[first + node]:
                    hi, node = mids[node], 2 * node
                else:
                    lo, node = mids[node], 2 * node + 1
                first += len(mids)
            done += k
        return lo

    def _surface_at(self, xy: np.ndarray, z: float) -> int:
        for u in self.mv.surfaces:
            if abs(u.z - z) <= Z_TOL and u.holds_xy(float(xy[0]), float(xy[1])):
                return u.index
        return -1

    def _pull(self, xy: np.ndarray, z: float) -> int:
        """The surface it is pulled onto from ``(xy, z)``: the highest top of a walkable
        piece touching its base, above its feet and no higher than its hitbox (-1: none)."""
        best, k = -math.inf, -1
        at = shapely.points(xy)
        for u in self.mv.surfaces:
            if z + Z_TOL < u.z <= z + self.h + Z_TOL and u.z > best and shapely.distance(u.support, at) <= self.r + CONTACT:
                best, k = u.z, u.index
        return k

    def outcome(self, to: Sequence[float], at: int = 0
                ) -> tuple[list[tuple[float, float, float]], int, list[Violation], int, list[str], float]:
        """Jump towards ``to = (x, y, z)``: the points (start, where the jump ends, where
        the model ends), the surface it ends on (-1: none), violations, fall rolls, notes
        and the jump's measured length."""
        mv = self.mv
        target = np.array(to, float)
        length = float(np.linalg.norm(target - self.start))
        notes: list[str] = []
        violations: list[Violation] = []
        reach = 1.0 if length <= self.budget + 1e-9 else self.budget / length
        end_t = reach
        t_hit, piece = self._first_hit(self.start, target) if length > 0 else (1.0, None)
        if t_hit < end_t:
            end_t = t_hit
        e = self.start + end_t * (target - self.start)
        jumped = end_t * length
        points: list[tuple[float, float, float]] = [
            (float(self.start[0]), float(self.start[1]), float(self.start[2])), (float(e[0]), float(e[1]), float(e[2]))]
        if reach < 1.0:
            notes.append(f"E-MOVE-JUMP: the point is {length:.2f} in away; the jump reaches {self.budget:g} in")
        if piece is not None and t_hit <= reach:
            notes.append(f"E-MOVE-JUMP: runs into {piece.id} at {_p(*e)}")
        rolls = 0
        k = self._surface_at(e[:2], float(e[2]))
        if k >= 0:
            notes.append(f"E-MOVE-JUMP: lands on {mv.surfaces[k].label} at {_p(*e)}")
            final = (float(e[0]), float(e[1]), mv.surfaces[k].z)
        else:
            k = self._pull(e[:2], float(e[2]))
            if k >= 0:
                poly = mv.space(k).end_polygon
                if poly.is_empty:
                    k = -1
                else:
                    q = nearest_points(poly, Point(*e[:2]))[0]
                    final = (float(q.x), float(q.y), mv.surfaces[k].z)
                    notes.append(f"E-MOVE-JUMP: its hitbox reaches {mv.surfaces[k].label} (z {mv.surfaces[k].z:g}): "
                                 f"pulled onto its edge at {_p(*final)}")
            if k < 0:
                land = int(mv.landing(e[:2][None, :], float(e[2]) + Z_TOL)[0])
                if land < 0:
                    violations.append(Violation(at, f"the jump ends at {_p(*e)} over nothing to land on"))
                    return points, -1, violations, 0, notes, jumped
                k = land
                drop = float(e[2]) - mv.surfaces[k].z
                final = (float(e[0]), float(e[1]), mv.surfaces[k].z)
                spd = mv.model.attributes.get("SPD")
                if drop > Z_TOL:
                    if spd is None:
                        notes.append(f"E-FALL: a {drop:.2f} in fall, but {mv.model.id} has no SPD: rolls unknown")
                    else:
                        rolls = fall_rolls(drop, spd)
                        notes.append(f"E-FALL: the jump ends in the air at {_p(*e)} and falls {drop:.2f} in onto "
                                     f"{mv.surfaces[k].label}: {rolls} Agility roll{'s' if rolls != 1 else ''} (SPD {spd})")
        if abs(final[0] - e[0]) > 1e-9 or abs(final[1] - e[1]) > 1e-9 or abs(final[2] - e[2]) > 1e-9:
            points.append(final)
        return points, k, violations, rolls, notes, jumped

    def _landed(self, to: Sequence[float]
                ) -> tuple[list[tuple[float, float, float]], int, list[Violation], int, list[str], float]:
        """:meth:`outcome` with the end's violations (:meth:`end_violations`) added, found
        once per point (a game plans a jump, then checks the path it gives: the same jump)."""
        key = tuple(float(v) for v in to)
        got = self._seen.get(key)
        if got is None:
            points, k, violations, rolls, notes, jumped = self.outcome(to)
            if k >= 0:
                violations += self.end_violations(points[-1], k, 0)
            got = self._seen[key] = (tuple(points), k, tuple(violations), rolls, tuple(notes), jumped)
        points_, k, violations_, rolls, notes_, jumped = got
        return list(points_), k, list(violations_), rolls, list(notes_), jumped

    def end_violations(self, final: tuple[float, float, float], k: int, at: int) -> list[Violation]:
        """Where the jump leaves the model on surface ``k``: E-MOVE-END, E-MOVE-SURFACE
        (the table's own end test: the whole base on the surface, clear of models)."""
        table = self._table()
        assert table is not None, "a Jump is used through its table"
        return list(table._mv_end_violations(self.mv, k, (final[0], final[1]), at))

    def plan(self, to: Sequence[float], notes: list[str], *, declared_path: Sequence[Sequence[float]] | None = None
             ) -> MovePlan:
        """The jump towards ``to`` as a :class:`MovePlan`. With ``declared_path`` (a
        checked path) the points after the jump's end must be where it leaves the model."""
        points, k, violations, rolls, more, jumped = self._landed(to)
        if declared_path is None:
            if np.linalg.norm(np.array(points[-1]) - np.array(to, float)) > 1e-6:
                violations.append(Violation(0, f"the jump does not reach {_p(*to)}: it leaves the model at "
                                               f"{_p(*points[-1])} (E-MOVE-JUMP)"))
        else:
            length = float(np.linalg.norm(np.array(to, float) - self.start))
            if length > self.budget + 1e-6:
                violations.append(Violation(0, f"over budget: the jump's line is {length:.2f} in, a Jump reaches "
                                               f"{self.budget:g} in (⌈SPD/2⌉, E-MOVE-JUMP)"))
            rest = [tuple(float(v) for v in p) for p in declared_path]
            want = points[2:] if len(points) > 2 else []
            if len(rest) != len(want) or any(
                    np.linalg.norm(np.array(a) - np.array(b)) > 1e-4 for a, b in zip(rest, want)):
                where = ", ".join(_p(*p) for p in want) or "where the jump ends"
                violations.append(Violation(1, f"after a jump towards {_p(*to)} the model is at {where}, "
                                               "not where the path says (E-MOVE-JUMP, E-FALL)"))
        arr = np.array(points)
        length = float(np.sum(np.linalg.norm(np.diff(arr, axis=0), axis=1))) if len(arr) > 1 else 0.0
        fell = points[1][2] - points[-1][2] if len(points) > 2 else 0.0  # (a pull up onto an edge: negative)
        return MovePlan(self.mv.model.id, tuple(points), length, jumped, not violations, tuple(violations), None,
                        rolls, self.budget, tuple(notes + more), (fell,) if fell > Z_TOL else ())
