"""Shortest paths and reachable regions for a disc moving among plan obstacles.

Pure geometry: nothing here knows about games. A moving base is a disc of radius
``r``; its centre moves in the plan. Every obstacle is described to the centre by
*capsules*: a segment ``AB`` and a clearance ``c`` — the centre must stay at least
``c`` from the segment. A polygon footprint is the capsules of its edges (clearance
``r``) plus its interior; a round footprint of radius ``ρ`` is one degenerate capsule
(``A = B`` at its centre, clearance ``r + ρ``). The region the centre may use is a
support polygon (the surface it stands on) whose edges are capsules too. All
legality questions — is a segment clear, where does it first touch something — are
answered exactly on the capsules (:func:`capsule_intervals`).

The *configuration space* polygon (:attr:`FreeSpace.polygon`) grows each convex piece
of each footprint by the base with a polygon *circumscribed* about the true rounded
shape: straight parts are exact, round corners are replaced by tangent segments
whose corners stand at most ``max_error`` outside the true arc. So the polygon is
never larger than the true free space, and a path along its vertices is legal.

* The **visibility graph** (:func:`build_graph`) has a node at every reflex vertex of
  the free-space polygon (where shortest paths bend) and an edge between two nodes
  when the segment is locally tangent at both ends (a cheap wedge test) and clear
  (the exact capsule test). Dijkstra (:func:`dijkstra`) runs on it.
* The **reachable region** (:func:`reach_region`) from graph nodes with remaining
  budgets is the union of discs of those budgets, each cut to what its centre can
  see (exact shadows of the rounded obstacles), clipped by the free space.
* Changing surfaces: :func:`exit_param` finds where a base walking along a segment
  stops resting on a region (where it steps off an edge).
* The baseline: :func:`grid_shortest_path`, A* on a square grid with exact checks,
  slow and obviously legal; the tests and the benchmark compare against it.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import shapely
from shapely.geometry import MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry

from ..memo import IdentityMemo
from . import kernels

#: Numerical slack (inches) for "touching is not overlapping" in exact tests.
EPS = 1e-9
#: A relaxed end (``relax0`` / ``relax1``) may come this much closer than it already is
#: (inches): its own distance, recomputed along the segment, rounds either way, and a
#: start that moves straight away must not be caught by that rounding.
RELAX_TOL = 1e-9
#: Default: the configuration-space polygon's round corners stand at most this far
#: (inches) outside the true arcs (0.01 in = 0.25 mm).
MAX_ERROR = 0.01
_INF = math.inf


# ---------------------------------------------------------------------------------------
# Growing shapes by a disc (circumscribed, exact straight parts)
# ---------------------------------------------------------------------------------------

def arc_step(radius: float, max_error: float) -> float:
    """The largest angular step (radians) whose circumscribed polygon stays within
    ``max_error`` of a circle of ``radius``: ``radius / cos(step / 2) - radius <= max_error``."""
    if radius <= 0:
        return math.pi / 2
    return min(math.pi / 2, 2.0 * math.acos(radius / (radius + max_error)))


def grow_convex(coords: np.ndarray, r: float, max_error: float = MAX_ERROR, phase: float = 0.0) -> np.ndarray:
    """Vertices of a polygon circumscribed about ``convex ⊕ disc(r)``.

    ``coords`` are the corners of a convex polygon in counter-clockwise order (one point:
    a disc; two points: a segment). Edges are offset exactly by ``r``; each corner's arc
    is replaced by tangent segments whose corners lie at most ``max_error`` outside it.
    A disc's polygon has a corner in direction ``phase`` (radians): choose it from the
    scene (say, towards the moving base) and the result moves with the scene.

    >>> p = grow_convex(np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 1.0], [0.0, 1.0]]), 0.5)
    >>> float(p[:, 0].min()) <= -0.5 and float(p[:, 0].max()) >= 2.5
    True
    """
    pts = np.asarray(coords, dtype=float).reshape(-1, 2)
    n = len(pts)
    step_max = arc_step(r, max_error)
    if n == 1:
        k = max(3, math.ceil(2 * math.pi / step_max))
        step = 2 * math.pi / k
        ang = phase + np.arange(k) * step
        rr = r / math.cos(step / 2)
        return pts[0] + rr * np.column_stack([np.cos(ang), np.sin(ang)])
    edge = np.concatenate([pts[1:], pts[:1]]) - pts
    phi = np.arctan2(-edge[:, 0], edge[:, 1])  # outward normal (ey, -ex) of a CCW ring
    start = np.concatenate([phi[-1:], phi[:-1]])  # normal of the incoming edge at each vertex
    turn = np.mod(phi - start, 2 * np.pi)
    turn[turn > 2 * np.pi - 1e-12] = 0.0
    if n == 2:
        turn[:] = np.pi
    k = np.maximum(1, np.ceil(turn / step_max - 1e-9)).astype(int)
    step = turn / k
    rr = r / np.cos(step / 2)
    idx = np.repeat(np.arange(n), k)
    j = np.arange(k.sum()) - np.repeat(np.cumsum(k) - k, k)
    ang = start[idx] + (j + 0.5) * step[idx]
    return pts[idx] + rr[idx, None] * np.column_stack([np.cos(ang), np.sin(ang)])


def _ccw(coords: np.ndarray) -> np.ndarray:
    c = np.asarray(coords, dtype=float)
    if len(c) >= 3:
        x, y = c[:, 0], c[:, 1]
        if np.dot(x[:-1], y[1:]) + x[-1] * y[0] - np.dot(x[1:], y[:-1]) - x[0] * y[-1] < 0:
            c = c[::-1]
    return c


# ---------------------------------------------------------------------------------------
# Obstacles as capsules
# ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PlanObstacle:
    """Something a moving base's centre must keep clear of.

    ``polygon``: a footprint (any simple polygon, optionally with ``pieces``: its convex
    pieces as coordinate arrays); the centre keeps ``clearance`` from it. ``circle``:
    ``(x, y, radius)`` — the centre keeps ``radius + clearance`` from ``(x, y)``.
    """

    name: str
    clearance: float
    polygon: Polygon | None = None
    circle: tuple[float, float, float] | None = None
    pieces: tuple[np.ndarray, ...] | None = field(default=None, compare=False, repr=False)
    #: a round obstacle's polygon has a corner in this direction (radians), see :func:`grow_convex`
    phase: float = 0.0

    @classmethod
    def round(cls, name: str, clearance: float, circle: tuple[float, float, float], phase: float) -> PlanObstacle:
        """``PlanObstacle(name, clearance, circle=circle, phase=phase)``, made without the
        dataclass's ``__init__`` (a mover's spaces make one per model on every board)."""
        o = object.__new__(cls)
        o.__dict__.update(name=name, clearance=clearance, polygon=None, circle=circle, pieces=None, phase=phase)
        return o

    def convex_pieces(self) -> tuple[np.ndarray, ...]:
        """Corners (counter-clockwise) of the convex pieces; a round obstacle: its centre."""
        memo = self.__dict__.get("_pieces_ccw")
        if memo is None:
            if self.circle is not None:
                memo = (np.array([[self.circle[0], self.circle[1]]]),)
            elif self.pieces is not None:
                memo = tuple(_ccw(p) for p in self.pieces)
            else:
                from .solids import convex_decomposition
                memo = tuple(_ccw(np.asarray(p.exterior.coords)[:-1]) for p in convex_decomposition(self.polygon))
            self.__dict__["_pieces_ccw"] = memo
        return memo

    def grown_corners(self, max_error: float = MAX_ERROR) -> tuple[np.ndarray, ...]:
        """The corners of :meth:`grown`'s polygons (:func:`grow_convex`), one array per
        convex piece (counter-clockwise, not closed): what the visibility graph's corners
        are found from, without making polygons."""
        memo = self.__dict__.setdefault("_grown_xy", {})
        got = memo.get(max_error)
        if got is None:
            if self.circle is not None:
                x, y, rad = self.circle
                got = (grow_convex(np.array([[x, y]]), rad + self.clearance, max_error, self.phase),)
            else:
                got = tuple(grow_convex(p, self.clearance, max_error) for p in self.convex_pieces())
            memo[max_error] = got
        return got

    def grown(self, max_error: float = MAX_ERROR) -> list[Polygon]:
        """Convex polygons circumscribed about this obstacle grown by its clearance."""
        memo = self.__dict__.setdefault("_grown", {})
        if max_error not in memo:
            memo[max_error] = list(grow_many([self], max_error))
        return memo[max_error]

    def capsules(self) -> np.ndarray:
        """Rows ``(ax, ay, bx, by, clearance)``."""
        memo = self.__dict__.get("_caps")
        if memo is None:
            if self.circle is not None:
                x, y, rad = self.circle
                memo = np.array([[x, y, x, y, rad + self.clearance]])
            else:
                memo = _ring_capsules(self.polygon, self.clearance)
            self.__dict__["_caps"] = memo
        return memo


def grow_many(obstacles: Sequence[PlanObstacle], max_error: float = MAX_ERROR) -> np.ndarray:
    """Every obstacle's grown convex pieces (:func:`grow_convex`), as one array of polygons
    made in a single vectorised call; pieces of one obstacle are consecutive."""
    coords, ring = [], []
    n = 0
    for o in obstacles:
        for c in o.grown_corners(max_error):
            coords.append(np.vstack([c, c[:1]]))
            ring.append(np.full(len(c) + 1, n))
            n += 1
    if not coords:
        return np.array([], dtype=object)
    rings = shapely.linearrings(np.concatenate(coords), indices=np.concatenate(ring))
    return shapely.polygons(rings)


def _ring_capsules(geom: BaseGeometry, clearance: float) -> np.ndarray:
    rows = []
    for poly in getattr(geom, "geoms", [geom]):
        for ring in [poly.exterior, *poly.interiors]:
            c = np.asarray(ring.coords)
            rows.append(np.column_stack([c[:-1], c[1:], np.full(len(c) - 1, clearance)]))
    return np.concatenate(rows) if rows else np.zeros((0, 5))


def capsule_intervals(p0: np.ndarray, p1: np.ndarray, caps: np.ndarray, shrink: float = EPS,
                      clear: np.ndarray | None = None, clip: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """For row-aligned segments ``p0 → p1`` and capsules ``caps`` (rows ``ax ay bx by c``),
    the parameter interval ``(lo, hi)`` ⊂ [0, 1] where the moving point is closer than
    ``c - shrink`` to the capsule's segment (``lo >= hi``: never); ``clear`` overrides
    ``c`` row by row; ``clip=False`` keeps the interval on the whole line. Exact up to rounding.

    >>> lo, hi = capsule_intervals(np.array([[0.0, 0.0]]), np.array([[10.0, 0.0]]),
    ...                            np.array([[5.0, -1.0, 5.0, 1.0, 1.0]]))
    >>> round(float(lo[0]), 6), round(float(hi[0]), 6)
    (0.4, 0.6)
    """
    p0 = np.asarray(p0, float)
    p1 = np.asarray(p1, float)
    px, py = p0[:, 0], p0[:, 1]
    dx, dy = p1[:, 0] - px, p1[:, 1] - py
    ax, ay, bx, by = caps[:, 0], caps[:, 1], caps[:, 2], caps[:, 3]
    c = (caps[:, 4] if clear is None else clear) - shrink
    cc = c * c
    dd = dx * dx + dy * dy
    moving = dd > 1e-24
    safe_dd = np.where(moving, dd, 1.0)
    lo = np.full(len(p0), _INF)
    hi = np.full(len(p0), -_INF)
    still_in = np.zeros(len(p0), bool)
    for ex, ey in ((ax, ay), (bx, by)):  # the end discs
        wx, wy = px - ex, py - ey
        bb = dx * wx + dy * wy
        kk = wx * wx + wy * wy - cc
        disc = bb * bb - safe_dd * kk
        ok = (disc > 0) & moving
        root = np.sqrt(np.where(ok, disc, 0.0))
        lo = np.where(ok, np.minimum(lo, (-bb - root) / safe_dd), lo)
        hi = np.where(ok, np.maximum(hi, (-bb + root) / safe_dd), hi)
        still_in |= ~moving & (kk < 0)
    # the strip beside the segment
    sx, sy = bx - ax, by - ay
    ln = np.hypot(sx, sy)
    has = ln > 1e-15
    inv = 1.0 / np.where(has, ln, 1.0)
    ux, uy = sx * inv, sy * inv
    wx, wy = px - ax, py - ay
    lo_s, hi_s = _slab(ux * wy - uy * wx, ux * dy - uy * dx, -c, c)
    lo_t, hi_t = _slab(ux * wx + uy * wy, ux * dx + uy * dy, np.zeros_like(ln), ln)
    slo, shi = np.maximum(lo_s, lo_t), np.minimum(hi_s, hi_t)
    ok = has & (slo < shi)
    lo = np.where(ok, np.minimum(lo, slo), lo)
    hi = np.where(ok, np.maximum(hi, shi), hi)
    lo = np.where(still_in, -_INF, lo)
    hi = np.where(still_in, _INF, hi)
    if not clip:
        return lo, hi
    return np.maximum(lo, 0.0), np.minimum(hi, 1.0)


def _slab(off: np.ndarray, rate: np.ndarray, lo_b: np.ndarray, hi_b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Parameters t with lo_b < off + t·rate < hi_b."""
    still = np.abs(rate) < 1e-15
    r = np.where(still, 1.0, rate)
    t0, t1 = (lo_b - off) / r, (hi_b - off) / r
    lo, hi = np.minimum(t0, t1), np.maximum(t0, t1)
    inside = (off > lo_b) & (off < hi_b)
    lo = np.where(still, np.where(inside, -_INF, _INF), lo)
    hi = np.where(still, np.where(inside, _INF, -_INF), hi)
    return lo, hi


def point_capsule_distance(pts: np.ndarray, caps: np.ndarray) -> np.ndarray:
    """(n, m) distances from points to the capsules' segments (minus nothing)."""
    pts = np.asarray(pts, float).reshape(-1, 2)
    if kernels.wanted(len(pts) * len(caps)):
        return kernels.point_capsule_distance(pts, caps)
    a, b = caps[None, :, 0:2], caps[None, :, 2:4]
    s = b - a
    ss = np.einsum("...j,...j->...", s, s)
    w = pts[:, None, :] - a
    t = np.clip(np.einsum("...j,...j->...", w, s) / np.where(ss > 0, ss, 1.0), 0.0, 1.0)
    q = a + t[..., None] * s
    return np.hypot(pts[:, None, 0] - q[..., 0], pts[:, None, 1] - q[..., 1])


def _bbox_pairs(p0: np.ndarray, p1: np.ndarray, caps: np.ndarray, shrink: float = 0.0, chunk: int = 32_768
                ) -> tuple[np.ndarray, np.ndarray]:
    """(segment, capsule) index pairs whose bounding boxes (capsules grown by their
    clearance, and by ``-shrink`` where that is positive: a clearance widened, as the
    base-contact band is) overlap."""
    if len(p0) == 0 or len(caps) == 0:
        return np.zeros(0, int), np.zeros(0, int)
    sx0, sx1 = np.minimum(p0[:, 0], p1[:, 0]), np.maximum(p0[:, 0], p1[:, 0])
    sy0, sy1 = np.minimum(p0[:, 1], p1[:, 1]), np.maximum(p0[:, 1], p1[:, 1])
    c = caps[:, 4] + max(0.0, -shrink)
    cx0, cx1 = np.minimum(caps[:, 0], caps[:, 2]) - c, np.maximum(caps[:, 0], caps[:, 2]) + c
    cy0, cy1 = np.minimum(caps[:, 1], caps[:, 3]) - c, np.maximum(caps[:, 1], caps[:, 3]) + c
    rows = max(1, chunk // len(caps))
    out_i, out_j = [], []
    for s in range(0, len(p0), rows):
        e = s + rows
        m = ((sx0[s:e, None] < cx1) & (sx1[s:e, None] > cx0) & (sy0[s:e, None] < cy1) & (sy1[s:e, None] > cy0))
        i, j = np.nonzero(m)
        out_i.append(i + s)
        out_j.append(j)
    return np.concatenate(out_i), np.concatenate(out_j)


def violations(p0: np.ndarray, p1: np.ndarray, caps: np.ndarray, *, shrink: float = EPS,
               relax0: np.ndarray | None = None, relax1: np.ndarray | None = None
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """See :meth:`FreeSpace.violations`."""
    p0 = np.asarray(p0, float).reshape(-1, 2)
    p1 = np.asarray(p1, float).reshape(-1, 2)
    if kernels.wanted(len(p0) * len(caps)):
        i, j, lo, hi = kernels.violations(p0, p1, caps, shrink, relax0, relax1)
        if len(i) < 2:  # (sorted already)
            return i, j, lo, hi
        order = np.lexsort((lo, i))
        return i[order], j[order], lo[order], hi[order]
    i, j = _bbox_pairs(p0, p1, caps, shrink)
    if len(i) == 0:
        z = np.zeros(0)
        return i, j, z, z
    clear = _relaxed_clearance(i, j, caps, shrink, relax0, relax1)
    parts = []
    step = 8192  # small blocks stay in the cache
    for s in range(0, len(i), step):
        ii, jj = i[s:s + step], j[s:s + step]
        lo, hi = capsule_intervals(p0[ii], p1[ii], caps[jj], shrink, clear[s:s + step])
        keep = lo < hi
        parts.append((ii[keep], jj[keep], lo[keep], hi[keep]))
    i, j, lo, hi = (np.concatenate(c) for c in zip(*parts))
    order = np.lexsort((lo, i))
    return i[order], j[order], lo[order], hi[order]


def violated(p0: np.ndarray, p1: np.ndarray, caps: np.ndarray, *, shrink: float = EPS,
             relax0: np.ndarray | None = None, relax1: np.ndarray | None = None) -> np.ndarray:
    """Per segment, whether :func:`violations` finds any pair for it (the same test, row
    for row, without collecting and sorting the intervals)."""
    p0 = np.asarray(p0, float).reshape(-1, 2)
    p1 = np.asarray(p1, float).reshape(-1, 2)
    if kernels.wanted(len(p0) * len(caps)):
        return kernels.violated(p0, p1, caps, shrink, relax0, relax1)
    out = np.zeros(len(p0), bool)
    i, j = _bbox_pairs(p0, p1, caps, shrink)
    if len(i) == 0:
        return out
    clear = _relaxed_clearance(i, j, caps, shrink, relax0, relax1)
    step = 8192
    for s in range(0, len(i), step):
        ii, jj = i[s:s + step], j[s:s + step]
        lo, hi = capsule_intervals(p0[ii], p1[ii], caps[jj], shrink, clear[s:s + step])
        out[ii[lo < hi]] = True
    return out


def _relaxed_clearance(i: np.ndarray, j: np.ndarray, caps: np.ndarray, shrink: float,
                       relax0: np.ndarray | None, relax1: np.ndarray | None) -> np.ndarray:
    """Each (segment ``i``, capsule ``j``) pair's clearance, lowered by ``relax0`` /
    ``relax1`` (see :meth:`FreeSpace.violations`)."""
    clear = caps[j, 4]
    for relax in (relax0, relax1):
        if relax is None:
            continue
        q = np.asarray(relax, float).reshape(-1, 2)[i]
        use = ~np.isnan(q[:, 0])
        if use.any():
            d = _pair_distance(q[use], caps[j[use]])
            clear = clear.copy()
            clear[use] = np.minimum(clear[use], np.maximum(d - RELAX_TOL, 0.0) + shrink)
    return clear


def _pair_distance(pts: np.ndarray, caps: np.ndarray) -> np.ndarray:
    """Row-aligned distances from points to capsule segments."""
    a, b = caps[:, 0:2], caps[:, 2:4]
    s = b - a
    ss = np.einsum("ij,ij->i", s, s)
    t = np.clip(np.einsum("ij,ij->i", pts - a, s) / np.where(ss > 0, ss, 1.0), 0.0, 1.0)
    q = a + t[:, None] * s
    return np.hypot(pts[:, 0] - q[:, 0], pts[:, 1] - q[:, 1])


# ---------------------------------------------------------------------------------------
# Free space of one surface
# ---------------------------------------------------------------------------------------

#: A surface's edge capsules per clearance (every space on that surface, every board).
_SUPPORT_CAPS: IdentityMemo[np.ndarray] = IdentityMemo(1024)
#: The polygon footprints' edges of a free space (:attr:`FreeSpace._footprint_edges`), by
#: the footprints' obstacles (identity, in order).
_FOOTPRINT_EDGES: IdentityMemo[tuple[np.ndarray, np.ndarray, float]] = IdentityMemo(256)
#: The STRtree of a free space's polygon footprints (:attr:`FreeSpace._footprints`), by
#: the footprints (identity, in order).
_FOOTPRINT_TREES: IdentityMemo[shapely.STRtree] = IdentityMemo(256)
#: A support's edges grown by a clearance (:meth:`FreeSpace._walls`), by (support
#: identity, clearance, max error).
_WALLS: IdentityMemo[list[np.ndarray]] = IdentityMemo(256)

#: How far beyond a disc the pieces :meth:`FreeSpace.reflex_within` looks at may lie
#: (inches): well beyond the distance within which corners count as touching (1e-9).
_NEAR = 1e-6


def within_mask(xy: np.ndarray, within: tuple[float, ...]) -> np.ndarray:
    """Which points ``xy`` ((n, 2)) lie in the region ``within``: the disc ``(x, y, r)``
    (``hypot <= r``), or with an aim ``(x, y, r, ax, ay)`` the ellipse of the points whose
    distance from ``(x, y)`` plus their distance on to ``(ax, ay)`` is at most ``r``: a
    path from ``(x, y)`` no longer than ``r`` (to the aim) keeps to the region."""
    x, y, r, *aim = within
    d = np.hypot(xy[:, 0] - x, xy[:, 1] - y)
    if aim:
        d = d + np.hypot(xy[:, 0] - aim[0], xy[:, 1] - aim[1])
    return d <= r


def region_box(within: tuple[float, ...]) -> tuple[tuple[float, float], tuple[float, float]]:
    """The centre and half sizes of a box holding the region ``within`` (:func:`within_mask`)."""
    x, y, r, *aim = within
    if not aim:
        return (x, y), (r, r)
    ax, ay = aim
    gap = math.hypot(ax - x, ay - y)
    a = r / 2  # (the ellipse's half axes: a along the foci, b across)
    b2 = max(0.0, a * a - gap * gap / 4)
    ux, uy = ((ax - x) / gap, (ay - y) / gap) if gap > 0 else (1.0, 0.0)
    return ((x + ax) / 2, (y + ay) / 2), (math.sqrt(a * a * ux * ux + b2 * uy * uy),
                                          math.sqrt(a * a * uy * uy + b2 * ux * ux))


def _support_capsules(support: BaseGeometry, clearance: float) -> np.ndarray:
    """The capsules (rows ax ay bx by c) of ``support``'s edges kept ``clearance`` clear,
    found once per support and clearance (read only)."""
    return _SUPPORT_CAPS.get((id(support), float(clearance)), (support,),
                             lambda: _ring_capsules(support, float(clearance)))


def capsule_rows(support: Polygon | MultiPolygon, clearance: float, obstacles: Sequence[PlanObstacle]
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The capsules a centre keeps clear of on ``support``: its edges' (owner -1), then
    each obstacle's in turn (owner: its index), as (rows, owners)."""
    edge = _support_capsules(support, clearance)
    caps, owner = obstacle_rows(obstacles)
    return np.concatenate([edge, caps]), np.concatenate([np.full(len(edge), -1), owner])


def obstacle_rows(obstacles: Sequence[PlanObstacle], first: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Each obstacle's capsules in turn, as (rows, owners): owner ``first + i`` for obstacle ``i``."""
    caps = [o.capsules() for o in obstacles]
    return (np.concatenate(caps) if caps else np.zeros((0, 5)),
            np.repeat(np.arange(first, first + len(caps)), [len(c) for c in caps]))


def capsule_clearance(pts: np.ndarray, caps: np.ndarray) -> np.ndarray:
    """(n, m): each point's distance to each capsule minus its required clearance (< 0: too close)."""
    return point_capsule_distance(pts, caps) - caps[None, :, 4]


class FreeSpace:
    """Where the centre of a disc of radius ``clearance`` may be on one surface.

    ``support``: the surface (the base must lie wholly on it: the centre keeps
    ``clearance`` from its edges); ``box=True`` says it is an axis-aligned rectangle.
    ``obstacles``: what the centre must keep clear of. Legality is exact (capsules);
    :attr:`polygon` is the circumscribed configuration-space polygon.
    """

    def __init__(self, support: Polygon | MultiPolygon, clearance: float, obstacles: Sequence[PlanObstacle] = (),
                 *, max_error: float = MAX_ERROR, box: bool = False,
                 rows: tuple[np.ndarray, np.ndarray] | None = None):
        self.support = support
        self.clearance = float(clearance)
        self.obstacles = tuple(obstacles)
        self.max_error = max_error
        self.box = box
        self.names: tuple[str, ...] = tuple([o.name for o in self.obstacles])
        # (``rows``: the caller's :func:`capsule_rows` of these very obstacles, made in parts)
        self.caps, self.owner = capsule_rows(support, self.clearance, self.obstacles) if rows is None else rows
        shapely.prepare(self.support)

    @cached_property
    def support_bounds(self) -> tuple[float, float, float, float]:
        """The support's bounds (x0, y0, x1, y1)."""
        x0, y0, x1, y1 = self.support.bounds
        return x0, y0, x1, y1

    @cached_property
    def _footprints(self) -> shapely.STRtree | None:
        polys = tuple([o.polygon for o in self.obstacles if o.polygon is not None])
        if not polys:
            return None
        # (the same footprints in every space of one base size on one surface: one tree)
        return _FOOTPRINT_TREES.get(tuple(map(id, polys)), polys, lambda: shapely.STRtree(polys))

    def footprint_hits(self, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(point index, footprint index) pairs where a point lies strictly inside a polygon
        footprint (footprint ``j``: the ``j``-th obstacle with a polygon)."""
        pts = np.asarray(pts, float).reshape(-1, 2)
        if self._footprints is None or not len(pts):
            return np.zeros(0, np.intp), np.zeros(0, np.intp)
        i, j = self._footprints.query(shapely.points(pts), predicate="within")
        return i, j

    def in_footprint(self, pts: np.ndarray) -> np.ndarray:
        """Points strictly inside some polygon footprint."""
        pts = np.asarray(pts, float).reshape(-1, 2)
        out = np.zeros(len(pts), bool)
        out[self.footprint_hits(pts)[0]] = True
        return out

    def on_support(self, pts: np.ndarray) -> np.ndarray:
        """Points inside the support (or on its edge)."""
        pts = np.asarray(pts, float).reshape(-1, 2)
        if self.box:
            x0, y0, x1, y1 = self.support_bounds
            return (pts[:, 0] >= x0) & (pts[:, 0] <= x1) & (pts[:, 1] >= y0) & (pts[:, 1] <= y1)
        return shapely.intersects_xy(self.support, pts[:, 0], pts[:, 1])

    def inside(self, pts: np.ndarray) -> np.ndarray:
        """Points inside the support (or on its edge) and outside every polygon footprint."""
        pts = np.asarray(pts, float).reshape(-1, 2)
        return self.on_support(pts) & ~self.in_footprint(pts)

    def clearance_at(self, pts: np.ndarray) -> np.ndarray:
        """(n, m): distance minus required clearance for each point and capsule (< 0: too close)."""
        return capsule_clearance(pts, self.caps)

    def point_free(self, pts: np.ndarray, tol: float = EPS, more: np.ndarray | None = None) -> np.ndarray:
        """Points where the centre may be: inside the support, outside every footprint,
        keeping every clearance (less ``tol``). ``more``: capsule rows of obstacles with no
        footprint to keep clear of too (as a space with them among its own would)."""
        pts = np.asarray(pts, float).reshape(-1, 2)
        caps = self.caps if more is None or not len(more) else np.concatenate([self.caps, more])
        if len(caps) == 0:
            return self.inside(pts)
        edges, starts, least = self._footprint_edges
        if least - tol > 1e-9 and kernels.wanted(len(pts) * len(caps)):
            # (a point that keeps every clearance is then far from every footprint's edges)
            return kernels.points_free(pts, caps, tol, self.support_bounds if self.box else None,
                                       None if self.box else self.on_support(pts), edges, starts)
        return self.inside(pts) & (capsule_clearance(pts, caps).min(axis=1) >= -tol)

    @cached_property
    def _footprint_edges(self) -> tuple[np.ndarray, np.ndarray, float]:
        """The polygon footprints' ring edges (ax, ay, bx, by), the index of each
        footprint's first edge, and the least clearance they keep (inf: no footprint)."""
        polys = tuple([o for o in self.obstacles if o.polygon is not None])

        def make() -> tuple[np.ndarray, np.ndarray, float]:
            edges = [o.capsules()[:, :4] for o in polys]
            sizes = np.array([len(e) for e in edges], int)
            return (np.concatenate(edges) if edges else np.zeros((0, 4)), np.cumsum(sizes) - sizes,
                    min((o.clearance for o in polys), default=math.inf))
        # (the same pieces met by every space of one base size on one surface: found once)
        return _FOOTPRINT_EDGES.get(tuple(map(id, polys)), polys, make)

    def violations(self, p0: np.ndarray, p1: np.ndarray, caps: np.ndarray | None = None, *, shrink: float = EPS,
                   relax0: np.ndarray | None = None, relax1: np.ndarray | None = None
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Every (segment, capsule) pair where the segment comes closer than the clearance:
        ``(segment index, capsule index, t_in, t_out)``, sorted by segment, then by ``t_in``.

        ``relax0`` / ``relax1`` (rows of points, NaN where unused) lower a capsule's
        clearance, for that segment, to the distance the point already has from it (less
        :data:`RELAX_TOL`): a path that starts (or ends) too close to something may move
        away, never closer.
        """
        return violations(p0, p1, self.caps if caps is None else caps, shrink=shrink, relax0=relax0, relax1=relax1)

    def segments_clear(self, p0: np.ndarray, p1: np.ndarray, caps: np.ndarray | None = None, *, shrink: float = EPS,
                       relax0: np.ndarray | None = None, relax1: np.ndarray | None = None) -> np.ndarray:
        """Whether each segment ``p0[i] → p1[i]`` keeps every clearance (exact; touching is
        fine). Endpoints are assumed inside the support and outside every footprint."""
        return ~violated(p0, p1, self.caps if caps is None else caps, shrink=shrink, relax0=relax0, relax1=relax1)

    # -- configuration-space polygon ------------------------------------------------------
    @cached_property
    def grown(self) -> list[Polygon]:
        """Every obstacle grown by its clearance (circumscribed convex polygons)."""
        return self.grown_of(self.obstacles)

    def grown_of(self, obstacles: Sequence[PlanObstacle]) -> list[Polygon]:
        """:attr:`grown` of ``obstacles`` (some of this space's, in order): the ones not yet
        grown are grown at once."""
        todo = [o for o in obstacles if self.max_error not in o.__dict__.get("_grown", {})]
        if todo:
            polys = grow_many(todo, self.max_error)
            k = 0
            for o in todo:
                m = 1 if o.circle is not None else len(o.convex_pieces())
                o.__dict__.setdefault("_grown", {})[self.max_error] = list(polys[k:k + m])
                k += m
        return [g for o in obstacles for g in o.grown(self.max_error)]

    def obstacles_in(self, bounds: tuple[float, float, float, float]) -> list[PlanObstacle]:
        """The obstacles (in order) whose grown pieces may meet the box ``bounds``
        (x0, y0, x1, y1): those whose boxes (:attr:`_obstacle_boxes`) meet it."""
        if kernels.wanted(len(self.caps)):
            near = kernels.obstacles_in(self.caps, self.owner, len(self.obstacles), 2 * self.max_error, bounds)
        else:
            x0, y0, x1, y1 = bounds
            lo, hi = self._obstacle_boxes
            near = np.flatnonzero((lo[:, 0] <= x1) & (hi[:, 0] >= x0) & (lo[:, 1] <= y1) & (hi[:, 1] >= y0))
        return [self.obstacles[i] for i in near.tolist()]

    @cached_property
    def polygon(self) -> BaseGeometry:
        """The free space as a polygon circumscribed-conservative (never larger than the truth)."""
        r = self.clearance
        if self.box:
            x0, y0, x1, y1 = self.support.bounds
            base = shapely.box(x0 + r, y0 + r, x1 - r, y1 - r) if x1 - x0 > 2 * r and y1 - y0 > 2 * r else Polygon()
            walls = []
        else:
            base = self.support
            walls = [Polygon(w) for w in self._walls()]
        blocked = shapely.union_all([*walls, *self.grown]) if (walls or self.grown) else None
        free = base if blocked is None else shapely.difference(base, blocked)
        return shapely.make_valid(free) if not free.is_valid else free

    def _walls(self) -> list[np.ndarray]:
        """A non-box support's edges grown by the clearance (convex, counter-clockwise); the
        same for every space on this support with this clearance."""
        if self.box:
            return []
        return _WALLS.get((id(self.support), self.clearance, self.max_error), (self.support,), lambda: [
            grow_convex(np.array([c[:2], c[2:4]]), self.clearance, self.max_error)
            for c in _ring_capsules(self.support, self.clearance)[:, :4].reshape(-1, 4)])

    @cached_property
    def reflex(self) -> Nodes:
        """The reflex corners of :attr:`polygon` (:func:`reflex_nodes`), found without
        building it (nor the grown polygons: their corners, :meth:`PlanObstacle.grown_corners`):
        a reflex corner of the free space is a corner of a grown convex piece that no
        other grown piece covers, inside the support."""
        return self._reflex_among(self._walls(), self.obstacles)

    def reflex_within(self, x: float, y: float, r: float, *aim: float) -> Nodes:
        """The nodes of :attr:`reflex` in the region ``(x, y, r[, ax, ay])`` (:func:`within_mask`),
        in the same order, found among the pieces near it alone: whether a corner is one
        hangs only on the pieces whose boxes hold it (:func:`convex_corners`)."""
        (cx, cy), (wx, wy) = region_box((x, y, r, *aim))
        x0, y0, x1, y1 = cx - wx - _NEAR, cy - wy - _NEAR, cx + wx + _NEAR, cy + wy + _NEAR
        walls = [w for w in self._walls() if w[:, 0].min() <= x1 and w[:, 0].max() >= x0
                 and w[:, 1].min() <= y1 and w[:, 1].max() >= y0]
        nodes = self._reflex_among(walls, self.obstacles_in((x0, y0, x1, y1)))
        keep = np.flatnonzero(within_mask(nodes.xy, (x, y, r, *aim)))
        return Nodes(nodes.xy[keep], nodes.e_in[keep], nodes.e_out[keep])

    def _reflex_among(self, walls: Sequence[np.ndarray], obstacles: Sequence[PlanObstacle]) -> Nodes:
        """:func:`convex_corners` of the grown ``walls`` and ``obstacles``."""
        corners = [*walls, *(c for o in obstacles for c in o.grown_corners(self.max_error))]
        sizes = np.array([len(c) for c in corners], int)
        xy = np.concatenate(corners) if corners else np.zeros((0, 2))
        return convex_corners(xy, sizes, self.support, self.clearance, self.box)

    @cached_property
    def _obstacle_boxes(self) -> tuple[np.ndarray, np.ndarray]:
        """Boxes ``(lo, hi)`` ((n, 2) each) holding each obstacle's grown corners: its
        capsules' boxes, widened by the corners' error (:func:`grow_convex`)."""
        own = self.owner >= 0
        caps, owner = self.caps[own], self.owner[own]
        pad = (caps[:, 4] + 2 * self.max_error)[:, None]
        # (the rows run obstacle by obstacle, each with one at least: capsule_rows)
        first = np.searchsorted(owner, np.arange(len(self.obstacles)))
        if not len(first):
            return np.zeros((0, 2)), np.zeros((0, 2))
        return (np.minimum.reduceat(np.minimum(caps[:, 0:2], caps[:, 2:4]) - pad, first),
                np.maximum.reduceat(np.maximum(caps[:, 0:2], caps[:, 2:4]) + pad, first))

    def minus(self, extra: Sequence[PlanObstacle]) -> BaseGeometry:
        """:attr:`polygon` with more obstacles taken out (e.g. where a move may not end)."""
        grown = [g for o in extra for g in o.grown(self.max_error)]
        if not grown:
            return self.polygon
        return shapely.difference(self.polygon, shapely.union_all(grown))


# ---------------------------------------------------------------------------------------
# Visibility graph
# ---------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Nodes:
    """Graph nodes: positions and, for polygon corners, the two unit edge directions
    that bound the directions a shortest path may leave in (NaN: any direction)."""

    xy: np.ndarray
    e_in: np.ndarray
    e_out: np.ndarray
    #: point nodes of one group (>= 0) are never joined to each other (-1: no group)
    group: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.group is None:
            object.__setattr__(self, "group", np.full(len(self.xy), -1))

    def __len__(self) -> int:
        return len(self.xy)

    def admits(self, idx: np.ndarray, d: np.ndarray, tol: float = 1e-9) -> np.ndarray:
        """Whether direction ``d`` (either sense) is tangent at node ``idx``: both
        neighbours of the corner lie on one side of the line (or on it)."""
        ei, eo = self.e_in[idx], self.e_out[idx]
        c1 = eo[:, 0] * d[:, 1] - eo[:, 1] * d[:, 0]
        c2 = d[:, 0] * ei[:, 1] - d[:, 1] * ei[:, 0]
        nd = np.hypot(d[:, 0], d[:, 1])
        ok = c1 * c2 >= -tol * nd * nd
        return ok | np.isnan(ei[:, 0])


def reflex_nodes(free: BaseGeometry, min_turn: float = 1e-7) -> Nodes:
    """The reflex corners of a free-space polygon (convex corners of its obstacles)."""
    xy, ein, eout = [], [], []
    for poly in getattr(free, "geoms", [free]):
        if not isinstance(poly, Polygon) or poly.is_empty:
            continue
        poly = shapely.geometry.polygon.orient(poly, 1.0)
        for ring in [poly.exterior, *poly.interiors]:
            c = np.asarray(ring.coords)[:-1]
            if len(c) < 3:
                continue
            e = np.concatenate([c[1:], c[:1]]) - c
            ln = np.hypot(e[:, 0], e[:, 1])
            keep = ln > 1e-12
            c, e, ln = c[keep], e[keep], ln[keep]
            if len(c) < 3:
                continue
            eo = e / ln[:, None]
            ei = np.concatenate([eo[-1:], eo[:-1]])
            turn = ei[:, 0] * eo[:, 1] - ei[:, 1] * eo[:, 0]
            r = turn < -min_turn  # a right turn with free space on the left: reflex
            xy.append(c[r]); ein.append(ei[r]); eout.append(eo[r])
    if not xy:
        z = np.zeros((0, 2))
        return Nodes(z, z, z)
    return Nodes(np.concatenate(xy), np.concatenate(ein), np.concatenate(eout))


def convex_corners(xy: np.ndarray, sizes: np.ndarray, support: BaseGeometry, clearance: float, box: bool,
                   min_turn: float = 1e-7, tol: float = 1e-9) -> Nodes:
    """The reflex corners of the free space — ``support`` (shrunk by ``clearance`` when
    ``box``) minus the union of convex pieces — as :func:`reflex_nodes` finds them on
    that polygon, without building it. ``xy`` holds the pieces' corners (either
    orientation), ``sizes[i]`` of them for piece ``i`` in turn.

    Where two boundaries cross, the union has a concave corner, so every convex corner
    of the union is a corner of a piece: one that no other piece covers or touches (a
    corner on another piece's edge is not a corner of the union; a corner that two
    pieces share is one when their wedges there join into a convex one). The corners
    strictly inside the support are kept, with the directions of the free space's
    boundary, which goes round an obstacle clockwise. ``tol``: the distance (inches)
    within which a corner counts as on an edge or on another corner."""
    if not len(xy):
        z = np.zeros((0, 2))
        return Nodes(z, z, z)
    if box:
        x0, y0, x1, y1 = support.bounds
        r = clearance
        inside = (xy[:, 0] > x0 + r) & (xy[:, 0] < x1 - r) & (xy[:, 1] > y0 + r) & (xy[:, 1] < y1 - r)
    else:
        inside = shapely.contains_xy(support, xy[:, 0], xy[:, 1])
    shared: dict[int, list[int]] = {}
    if kernels.wanted(len(xy) * len(sizes)):
        ok, e_in, e_out, nxt, prv, pairs = kernels.convex_corners(xy, sizes, inside, min_turn, tol)
        for vi, ai in pairs.tolist():
            shared.setdefault(vi, []).append(ai)
        return _shared_corners(xy, ok, e_in, e_out, nxt, prv, shared)
    pid = np.repeat(np.arange(len(sizes)), sizes)
    start = np.cumsum(sizes) - sizes
    k = np.arange(len(xy)) - start[pid]
    nxt = start[pid] + (k + 1) % sizes[pid]
    prv = start[pid] + (k - 1) % sizes[pid]
    # each piece counter-clockwise (the sign of its area)
    flip = ~(np.bincount(pid, weights=xy[:, 0] * xy[nxt, 1] - xy[nxt, 0] * xy[:, 1]) > 0)[pid]
    nxt, prv = np.where(flip, prv, nxt), np.where(flip, nxt, prv)
    # clockwise round the obstacle: in from the next corner, out to the previous one
    e_in, e_out = xy - xy[nxt], xy[prv] - xy
    ln_in, ln_out = np.hypot(e_in[:, 0], e_in[:, 1]), np.hypot(e_out[:, 0], e_out[:, 1])
    ok = (ln_in > 1e-12) & (ln_out > 1e-12)
    with np.errstate(invalid="ignore", divide="ignore"):
        e_in, e_out = e_in / ln_in[:, None], e_out / ln_out[:, None]
    ok &= (e_in[:, 0] * e_out[:, 1] - e_in[:, 1] * e_out[:, 0] < -min_turn) & inside
    # each corner against the other pieces whose bounding boxes hold it
    lo = np.stack([np.minimum.reduceat(xy[:, 0], start), np.minimum.reduceat(xy[:, 1], start)], 1) - tol
    hi = np.stack([np.maximum.reduceat(xy[:, 0], start), np.maximum.reduceat(xy[:, 1], start)], 1) + tol
    cand = np.flatnonzero(ok)
    v, b = np.nonzero((xy[cand, None, 0] >= lo[None, :, 0]) & (xy[cand, None, 0] <= hi[None, :, 0]) &
                      (xy[cand, None, 1] >= lo[None, :, 1]) & (xy[cand, None, 1] <= hi[None, :, 1]) &
                      (pid[cand, None] != np.arange(len(sizes))[None, :]))
    if len(v):
        v = cand[v]
        a = start[b, None] + np.minimum(np.arange(int(sizes.max()))[None, :], sizes[b, None] - 1)  # (pads repeat)
        ex, ey = xy[nxt[a], 0] - xy[a, 0], xy[nxt[a], 1] - xy[a, 1]
        # signed distance of the corner from each edge's line (> 0: inside)
        side = (ex * (xy[v, 1, None] - xy[a, 1]) - ey * (xy[v, 0, None] - xy[a, 0])) / np.maximum(
            np.hypot(ex, ey), 1e-300)
        within = (side > -tol).all(1)  # inside the piece or on its boundary
        at = np.hypot(xy[a, 0] - xy[v, 0, None], xy[a, 1] - xy[v, 1, None]) <= tol
        corner = within & at.any(1)
        ok[v[within & ~corner]] = False
        for vi, ai in zip(v[corner].tolist(), a[corner, at[corner].argmax(1)].tolist()):
            shared.setdefault(vi, []).append(ai)
    return _shared_corners(xy, ok, e_in, e_out, nxt, prv, shared)


def _shared_corners(xy: np.ndarray, ok: np.ndarray, e_in: np.ndarray, e_out: np.ndarray, nxt: np.ndarray,
                    prv: np.ndarray, shared: dict[int, list[int]]) -> Nodes:
    """:func:`convex_corners`' nodes: the kept corners, where two pieces share a corner
    one wedge or none (``shared``: each such corner with the others there)."""
    for vi, others in shared.items():
        if not ok[vi]:
            continue
        wedge = _joined_wedge(xy, nxt, prv, [vi, *others])
        for o in others:
            ok[o] = False
        if wedge is None:
            ok[vi] = False
        else:
            e_in[vi], e_out[vi] = e_in[wedge[0]], e_out[wedge[1]]
    keep = np.flatnonzero(ok)
    return Nodes(xy[keep], e_in[keep], e_out[keep])


def _joined_wedge(xy: np.ndarray, nxt: np.ndarray, prv: np.ndarray, corners: list[int]) -> tuple[int, int] | None:
    """The union of the pieces' wedges at one point (``corners``: each piece's corner
    there, counter-clockwise neighbours ``nxt``/``prv``): the corners whose edges bound
    it (the free space's boundary comes in along the first and leaves along the second),
    or None when the union is not one convex wedge (no reflex corner there)."""
    v = xy[corners[0]]
    lo = [math.atan2(*(xy[nxt[c]] - v)[::-1]) for c in corners]  # each wedge runs counter-clockwise
    width = [(math.atan2(*(xy[prv[c]] - v)[::-1]) - a) % (2 * math.pi) for c, a in zip(corners, lo)]
    # the joined wedge starts at a start no other wedge covers
    for i, a0 in enumerate(lo):
        if any(0 < (a0 - a) % (2 * math.pi) < w for j, (a, w) in enumerate(zip(lo, width)) if j != i):
            continue
        end, last = a0 + width[i], i
        grew = True
        while grew:
            grew = False
            for j, (a, w) in enumerate(zip(lo, width)):
                rel = (a - a0) % (2 * math.pi)
                if rel <= end - a0 + 1e-12 and a0 + rel + w > end:
                    end, last, grew = a0 + rel + w, j, True
        if end - a0 >= math.pi - 1e-7 or any((a - a0) % (2 * math.pi) > end - a0 + 1e-12 for a in lo):
            return None
        return corners[i], corners[last]
    return None


def point_nodes(pts: np.ndarray, group: np.ndarray | int = -1) -> Nodes:
    """Nodes a path may turn at in any direction (start, goal, ladder ends, landings)."""
    pts = np.asarray(pts, float).reshape(-1, 2)
    nan = np.full_like(pts, np.nan)
    return Nodes(pts, nan, nan, np.broadcast_to(np.asarray(group, int), (len(pts),)).copy())


def join_nodes(*parts: Nodes) -> Nodes:
    return Nodes(np.concatenate([p.xy for p in parts]), np.concatenate([p.e_in for p in parts]),
                 np.concatenate([p.e_out for p in parts]), np.concatenate([p.group for p in parts]))


def tangent_pairs(nodes: Nodes, tol: float = 1e-4, near: float = 0.05, block: int = 48,
                  origin: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Node pairs (i < j) whose segment is tangent at both ends: candidates for edges.

    A filter, so it may admit a few extra pairs (the exact clearance test follows) but
    must never drop a tangent one: it runs in float32 with a generous tolerance, and
    admits every pair closer than ``near``. Rows are done in cache-sized blocks.
    ``origin``: the point the float32 coordinates are taken from (default: the nodes'
    mean), so a subset of nodes gets exactly the pairs it would get among all of them."""
    n = len(nodes)
    if n < 2:
        return np.zeros(0, int), np.zeros(0, int)
    f = np.float32
    xy = (nodes.xy - (nodes.xy.mean(axis=0) if origin is None else origin)).astype(f)
    x, y = xy[:, 0], xy[:, 1]
    free = np.isnan(nodes.e_in[:, 0])
    ei, eo = nodes.e_in.astype(f), nodes.e_out.astype(f)
    ei[np.isnan(ei)], eo[np.isnan(eo)] = 0, 0  # (np.nan_to_num's zeros, without its overhead)
    eox, eoy, eix, eiy = eo[:, 0], eo[:, 1], ei[:, 0], ei[:, 1]
    near2, mtol = f(near * near), f(-tol)
    g = nodes.group if nodes.group is not None else np.full(n, -1)
    if kernels.wanted(n * n):
        return kernels.tangent_pairs(x, y, eox, eoy, eix, eiy, free, g, near2, mtol)
    out_i, out_j = [], []
    for r0 in range(0, n - 1, block):
        r1 = min(n, r0 + block)
        cols = slice(r0, n)  # only j >= r0 can have i < j
        dx = x[None, cols] - x[r0:r1, None]  # d[i, j] = p_j - p_i
        dy = y[None, cols] - y[r0:r1, None]
        lim = dx * dx
        lim += dy * dy
        close = lim < near2
        lim *= mtol
        # tangent at i: cross(eo_i, d) * cross(d, ei_i) >= 0 (either sense of d)
        a = eox[r0:r1, None] * dy
        a -= eoy[r0:r1, None] * dx
        b = eiy[r0:r1, None] * dx
        b -= eix[r0:r1, None] * dy
        a *= b
        ok = a >= lim
        ok[free[r0:r1]] = True
        # tangent at j, the same d
        np.multiply(eox[None, cols], dy, out=a)
        a -= eoy[None, cols] * dx
        np.multiply(eiy[None, cols], dx, out=b)
        b -= eix[None, cols] * dy
        a *= b
        col = a >= lim
        col[:, free[cols]] = True
        ok &= col
        ok |= close
        if (g[r0:] >= 0).any():
            same = (g[r0:r1, None] == g[None, cols]) & (g[r0:r1, None] >= 0)
            ok &= ~same
        i, j = np.nonzero(ok)
        j += r0
        i += r0
        keep = i < j
        out_i.append(i[keep])
        out_j.append(j[keep])
    return np.concatenate(out_i), np.concatenate(out_j)


@dataclass(frozen=True, eq=False)
class Graph:
    """An undirected weighted graph on :class:`Nodes` (edges ``(i, j)`` with lengths)."""

    nodes: Nodes
    edges: np.ndarray
    weights: np.ndarray


def build_graph(space: FreeSpace, extra: Nodes | None = None, *,
                within: tuple[float, ...] | None = None) -> Graph:
    """The reduced visibility graph of ``space``: reflex corners (:attr:`FreeSpace.reflex`,
    plus ``extra`` point nodes), joined when tangent at both ends and clear.

    ``within=(x, y, r[, ax, ay])``: only the reflex corners in that disc or ellipse
    (:func:`within_mask`; :meth:`FreeSpace.reflex_within`, in the full graph's order),
    every ``extra`` node, and the edges between the nodes in it: exactly the full graph's
    edges between them, in the same order (the tangent filter's float32 coordinates are
    taken from the support's centre: a pair gets the same verdict whatever other nodes
    the graph holds). A path no longer than ``r`` from ``(x, y)`` (to the aim) uses no
    other node or edge."""
    nodes = space.reflex if within is None else space.reflex_within(*within)
    corners = len(nodes)
    if extra is not None and len(extra):
        nodes = join_nodes(nodes, extra)
    x0, y0, x1, y1 = space.support_bounds
    origin = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    if within is None or len(nodes) == corners:  # (reflex_within's corners lie in the region)
        i, j = tangent_pairs(nodes, origin=origin)
    else:
        inside = np.concatenate([np.arange(corners),
                                 corners + np.flatnonzero(within_mask(nodes.xy[corners:], within))])
        sub = Nodes(nodes.xy[inside], nodes.e_in[inside], nodes.e_out[inside],
                    None if nodes.group is None else nodes.group[inside])
        i, j = tangent_pairs(sub, origin=origin)
        i, j = inside[i], inside[j]
    ok = space.segments_clear(nodes.xy[i], nodes.xy[j])
    i, j = i[ok], j[ok]
    w = np.hypot(*(nodes.xy[j] - nodes.xy[i]).T)
    return Graph(nodes, np.column_stack([i, j]), w)


def visible_nodes(space: FreeSpace, nodes: Nodes, point: Sequence[float], *, relax: bool = False,
                  slack: float = EPS, caps: np.ndarray | None = None, among: np.ndarray | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Nodes a point can go straight to, tangent at the node: ``(indices, distances)``.
    ``relax``: the point may already be too close to something (see :meth:`FreeSpace.violations`);
    where it is, every node is tried, tangent or not (from inside a clearance, the way out
    round a corner meets its node from the obstacle's side), and a way may come ``slack``
    into the clearances (the tolerance a checker of such a start allows).
    ``among``: only these nodes (indices, in order) are tried."""
    p = np.asarray(point, float).reshape(1, 2)
    idx = np.arange(len(nodes)) if among is None else np.asarray(among, int)
    rows = space.caps if caps is None else caps
    inside = relax and len(rows) > 0 and bool((capsule_clearance(p, rows) < -EPS).any())
    cand = idx if inside else idx[nodes.admits(idx, nodes.xy[idx] - p)]
    if len(cand) == 0:
        return cand, np.zeros(0)
    p0 = np.repeat(p, len(cand), axis=0)
    ok = space.segments_clear(p0, nodes.xy[cand], caps, shrink=max(EPS, slack) if inside else EPS,
                              relax0=p0 if relax else None)
    cand = cand[ok]
    return cand, np.hypot(*(nodes.xy[cand] - p).T)


def cross_pairs(a: Nodes, b: Nodes, among_a: np.ndarray | None = None, among_b: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """Pairs (i in ``a``, j in ``b``) whose segment is tangent at both ends, in (i, j) order.
    ``among_a`` / ``among_b``: only these nodes (indices, in order) are paired."""
    ia = np.arange(len(a)) if among_a is None else np.asarray(among_a, int)
    jb = np.arange(len(b)) if among_b is None else np.asarray(among_b, int)
    if len(ia) == 0 or len(jb) == 0:
        return np.zeros(0, int), np.zeros(0, int)
    i, j = (g.ravel() for g in np.meshgrid(ia, jb, indexing="ij"))
    d = b.xy[j] - a.xy[i]
    ok = a.admits(i, d) & b.admits(j, d)
    return i[ok], j[ok]


# ---------------------------------------------------------------------------------------
# Changing surfaces: stepping off an edge, stepping up onto one
# ---------------------------------------------------------------------------------------

def exit_param(p0: np.ndarray, p1: np.ndarray, region: BaseGeometry, r: float, tol: float = 1e-9) -> np.ndarray:
    """For each segment, the first parameter t where the moving point is no closer than
    ``r + tol`` to ``region`` (it leaves ``region ⊕ r``): the moment a base of radius
    ``r`` stops resting on the surface (a negative ``tol``: touching is not resting).
    NaN when the start is already that far; above 1 (up to infinity) when it is still
    closer at the segment's end."""
    p0 = np.asarray(p0, float).reshape(-1, 2)
    p1 = np.asarray(p1, float).reshape(-1, 2)
    n = len(p0)
    if n == 0:
        return np.zeros(0)
    caps = _support_capsules(region, r)
    m = len(caps)
    if kernels.wanted(n * m):
        return kernels.exit_param(p0, p1, caps, tol, lambda x, y: shapely.contains_xy(region, x, y))
    i = np.repeat(np.arange(n), m)
    j = np.tile(np.arange(m), n)
    lo, hi = capsule_intervals(p0[i], p1[i], caps[j], -tol, clip=False)
    lo, hi = lo.reshape(n, m), hi.reshape(n, m)
    # inside the region itself: between crossings of its boundary
    d = p1 - p0
    a, e = caps[:, 0:2], caps[:, 2:4] - caps[:, 0:2]
    den = d[:, None, 0] * e[None, :, 1] - d[:, None, 1] * e[None, :, 0]
    w0 = a[None, :, :] - p0[:, None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (w0[..., 0] * e[None, :, 1] - w0[..., 1] * e[None, :, 0]) / den
        u = (w0[..., 0] * d[:, None, 1] - w0[..., 1] * d[:, None, 0]) / den
    hit = (np.abs(den) > 1e-15) & (t >= 0) & (u >= 0) & (u <= 1)
    cross = np.sort(np.where(hit, t, np.inf), axis=1)
    kmax = int(np.isfinite(cross).sum(axis=1).max(initial=0))
    cross = cross[:, :kmax]
    bounds = np.concatenate([np.zeros((n, 1)), cross, np.full((n, 1), np.inf)], axis=1)
    # each piece between crossings is inside or outside: test a point of it (a polygon
    # vertex on the segment counts as two crossings, so parity would be wrong)
    a_, b_ = bounds[:, :-1], bounds[:, 1:]
    mid = np.where(np.isfinite(b_), (a_ + b_) / 2, a_ + 1.0)
    mid = np.where(np.isfinite(a_), mid, 0.0)
    px = p0[:, None, 0] + mid * d[:, None, 0]
    py = p0[:, None, 1] + mid * d[:, None, 1]
    inside = shapely.contains_xy(region, px.ravel(), py.ravel()).reshape(px.shape)
    inside &= np.isfinite(a_) & (b_ > a_)
    ilo = np.where(inside, a_, np.inf)
    ihi = np.where(inside, b_, -np.inf)
    lo = np.concatenate([lo, ilo], axis=1)
    hi = np.concatenate([hi, ihi], axis=1)
    valid = lo < hi
    lo, hi = np.where(valid, lo, np.inf), np.where(valid, hi, -np.inf)
    tau = np.where(((lo <= 0) & (hi >= 0)).any(axis=1), 0.0, np.nan)
    for _ in range(lo.shape[1] + 1):
        reach = np.where(lo <= tau[:, None] + 1e-12, hi, -np.inf).max(axis=1)
        new = np.where(np.isnan(tau), np.nan, np.maximum(tau, reach))
        if np.array_equal(new, tau, equal_nan=True):
            break
        tau = new
    return tau


# ---------------------------------------------------------------------------------------
# Dijkstra
# ---------------------------------------------------------------------------------------

def dijkstra(n: int, edges: np.ndarray, weights: np.ndarray, sources: dict[int, float], *, limit: float = _INF,
             directed: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Shortest distances from ``sources`` (node → starting cost): ``(dist, pred)`` where
    ``pred[v]`` is the index (into ``edges``) of the edge that reaches ``v`` (-1: none).
    Nodes farther than ``limit`` stay at infinity. Undirected unless ``directed``."""
    edges = np.asarray(edges, int).reshape(-1, 2)
    m = len(edges)
    u, v, w = edges[:, 0], edges[:, 1], np.asarray(weights, float)
    eid = np.arange(m)
    if not directed:
        u, v, w, eid = np.concatenate([u, v]), np.concatenate([v, u]), np.concatenate([w, w]), np.concatenate([eid, eid])
    order = np.argsort(u, kind="stable")
    v, w, eid = v[order], w[order], eid[order]
    start = np.searchsorted(u[order], np.arange(n + 1))
    if kernels.wanted(n + m):
        return kernels.dijkstra(n, start, v, w, eid, sources, limit)
    vl, wl, el, sl = v.tolist(), w.tolist(), eid.tolist(), start.tolist()
    dist = [_INF] * n
    pred = [-1] * n
    heap = []
    for s, c in sources.items():
        if c < dist[s]:
            dist[s] = c
            heap.append((c, s))
    heapq.heapify(heap)
    done = [False] * n
    while heap:
        c, x = heapq.heappop(heap)
        if done[x]:
            continue
        done[x] = True
        for k in range(sl[x], sl[x + 1]):
            y = vl[k]
            nc = c + wl[k]
            if nc < dist[y] and nc <= limit:
                dist[y] = nc
                pred[y] = el[k]
                heapq.heappush(heap, (nc, y))
    return np.array(dist), np.array(pred, dtype=int)


# ---------------------------------------------------------------------------------------
# Reachable region: discs of remaining budget, each cut to what its centre sees
# ---------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Casters:
    """Obstacles that cast shadows, each the convex hull of a few discs (a convex piece
    grown by the clearance: discs at its corners; a round obstacle: one disc)."""

    centres: np.ndarray  # (k, m, 2), NaN padded
    radii: np.ndarray  # (k, m)
    bbox: np.ndarray  # (k, 4)

    def __len__(self) -> int:
        return len(self.radii)


def casters(obstacles: Sequence[PlanObstacle], extra_caps: np.ndarray | None = None) -> Casters:
    """Shadow casters for ``obstacles`` (and capsules ``extra_caps``, e.g. a support's edges)."""
    groups: list[tuple[np.ndarray, np.ndarray]] = []
    for o in obstacles:
        if o.circle is not None:
            groups.append((np.array([o.circle[:2]]), np.array([o.circle[2] + o.clearance])))
        else:
            for p in o.convex_pieces():
                groups.append((p, np.full(len(p), o.clearance)))
    if extra_caps is not None:
        for c in extra_caps:
            groups.append((np.array([c[0:2], c[2:4]]), np.array([c[4], c[4]])))
    k = len(groups)
    m = max((len(g[1]) for g in groups), default=1)
    centres = np.full((k, m, 2), np.nan)
    radii = np.full((k, m), np.nan)
    for n, (c, r) in enumerate(groups):
        centres[n, :len(r)] = c
        radii[n, :len(r)] = r
    with np.errstate(invalid="ignore"):
        bbox = np.column_stack([np.nanmin(centres[..., 0] - radii, axis=1), np.nanmin(centres[..., 1] - radii, axis=1),
                                np.nanmax(centres[..., 0] + radii, axis=1), np.nanmax(centres[..., 1] + radii, axis=1)]
                               ) if k else np.zeros((0, 4))
    return Casters(centres, radii, bbox)


def join_casters(*parts: Casters) -> Casters:
    parts = tuple(p for p in parts if len(p))
    if not parts:
        return Casters(np.zeros((0, 1, 2)), np.zeros((0, 1)), np.zeros((0, 4)))
    m = max(p.radii.shape[1] for p in parts)

    def pad(a: np.ndarray, width: int) -> np.ndarray:
        extra = [(0, 0), (0, width - a.shape[1])] + [(0, 0)] * (a.ndim - 2)
        return np.pad(a, extra, constant_values=np.nan)
    return Casters(np.concatenate([pad(p.centres, m) for p in parts]), np.concatenate([pad(p.radii, m) for p in parts]),
                   np.concatenate([p.bbox for p in parts]))


def _disc_segments(radius: float, max_error: float) -> int:
    if radius <= max_error:
        return 2
    return int(min(32, max(2, math.ceil((math.pi / 4) / math.acos(1 - max_error / radius)))))


def _hull_gap(v: np.ndarray, c: np.ndarray, rho: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """For each point ``v[i]`` (n, 2), a lower bound of its distance to the hull of the
    discs ``(c[i, j], rho[i, j])`` where ``valid`` (n, m): the distance to the nearest
    segment between two centres, less the largest radius (a point outside the hull of
    the centres is nearest to one of its edges; a chord is never nearer)."""
    pts = np.where(valid[..., None], c, np.nan)
    a, ab = pts[:, :, None, :], pts[:, None, :, :] - pts[:, :, None, :]
    av = v[:, None, None, :] - a
    den = np.einsum("nijk,nijk->nij", ab, ab)
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.clip(np.where(den > 0, np.einsum("nijk,nijk->nij", av, ab) / np.where(den > 0, den, 1.0), 0.0), 0.0, 1.0)
    gap = np.hypot(av[..., 0] - t * ab[..., 0], av[..., 1] - t * ab[..., 1])
    gap = np.where(np.isnan(gap), np.inf, gap).min(axis=(1, 2))
    return gap - np.where(valid, rho, -np.inf).max(axis=1)


def visible_discs(centres: np.ndarray, radii: np.ndarray, cast: Casters, *, max_error: float = 0.005,
                  far_steps: int = 4) -> np.ndarray:
    """For each centre, the disc of its radius cut to what the centre can see past the
    casters: an array of shapely geometries. Shadows are exact for the rounded casters
    (tangent lines to their discs); the discs are inscribed polygons (never too big)."""
    centres = np.asarray(centres, float).reshape(-1, 2)
    radii = np.asarray(radii, float)
    q = _disc_segments(float(radii.max(initial=0.0)), max_error)
    discs = shapely.buffer(shapely.points(centres), radii, quad_segs=q)
    if len(cast) == 0 or len(centres) == 0:
        return discs
    b = cast.bbox
    near = ((centres[:, None, 0] - radii[:, None] < b[None, :, 2]) & (centres[:, None, 0] + radii[:, None] > b[None, :, 0])
            & (centres[:, None, 1] - radii[:, None] < b[None, :, 3]) & (centres[:, None, 1] + radii[:, None] > b[None, :, 1]))
    iv, ik = np.nonzero(near)
    if len(iv) == 0:
        return discs
    v = centres[iv]
    c = cast.centres[ik]
    rho = cast.radii[ik]
    w = c - v[:, None, :]
    d = np.hypot(w[..., 0], w[..., 1])
    valid = ~np.isnan(rho)
    first = np.nanargmin(np.where(valid, d, np.inf), axis=1)
    base = np.arctan2(w[np.arange(len(iv)), first, 1], w[np.arange(len(iv)), first, 0])
    ang = np.mod(np.arctan2(w[..., 1], w[..., 0]) - base[:, None] + np.pi, 2 * np.pi) - np.pi
    with np.errstate(invalid="ignore", divide="ignore"):
        half = np.arcsin(np.clip(np.where(valid, rho / np.maximum(d, 1e-300), 0.0), 0.0, 1.0))
    # a caster beyond the disc casts nothing in it; it is the hull of its corner discs, whose nearest point
    # may be on a side far from every corner (a long wall beside the centre): measured to the segments
    # between its corners (the hull's edges among them), less the largest corner radius
    reaches = (np.where(valid, d - rho, np.inf).min(axis=1) < radii[iv])
    if not reaches.all():
        reaches |= _hull_gap(v, c, rho, valid) < radii[iv]
    if not reaches.all():
        iv, v, rho, d, valid, base, ang, half = (x[reaches] for x in (iv, v, rho, d, valid, base, ang, half))
        if len(iv) == 0:
            return discs
    lo_all = np.where(valid, ang - half, np.inf)
    hi_all = np.where(valid, ang + half, -np.inf)
    jlo, jhi = np.argmin(lo_all, axis=1), np.argmax(hi_all, axis=1)
    rows = np.arange(len(iv))
    lo, hi = lo_all[rows, jlo], hi_all[rows, jhi]
    width = np.minimum(hi - lo, np.pi - 1e-9)
    mid = (lo + hi) / 2
    lo, hi = mid - width / 2, mid + width / 2
    t_lo = np.sqrt(np.maximum(d[rows, jlo] ** 2 - rho[rows, jlo] ** 2, 0.0))
    t_hi = np.sqrt(np.maximum(d[rows, jhi] ** 2 - rho[rows, jhi] ** 2, 0.0))
    step = width / far_steps
    far = (np.maximum.reduce([radii[iv], t_lo, t_hi]) + 0.01) / np.cos(step / 2) + 0.01
    dirs = base[:, None] + lo[:, None] + step[:, None] * np.arange(far_steps + 1)[None, :]
    pts = np.empty((len(iv), far_steps + 3, 2))
    a_lo, a_hi = base + lo, base + hi
    pts[:, 0] = v + t_lo[:, None] * np.column_stack([np.cos(a_lo), np.sin(a_lo)])
    pts[:, 1:-1, 0] = v[:, None, 0] + far[:, None] * np.cos(dirs)
    pts[:, 1:-1, 1] = v[:, None, 1] + far[:, None] * np.sin(dirs)
    pts[:, -1] = v + t_hi[:, None] * np.column_stack([np.cos(a_hi), np.sin(a_hi)])
    shadows = shapely.make_valid(shapely.polygons(pts))
    # one row of shadows per centre (None-padded), united row by row in one call
    order = np.argsort(iv, kind="stable")
    iv, shadows = iv[order], shadows[order]
    rows, first = np.unique(iv, return_index=True)
    col = np.arange(len(iv)) - np.repeat(first, np.diff(np.append(first, len(iv))))
    grid = np.full((len(rows), int(col.max()) + 1), None, dtype=object)
    grid[np.searchsorted(rows, iv), col] = shadows
    out = discs.copy()
    out[rows] = shapely.difference(discs[rows], shapely.union_all(grid, axis=1))
    return out


def reach_region(centres: np.ndarray, radii: np.ndarray, cast: Casters, clip: BaseGeometry, *,
                 max_error: float = 0.005) -> BaseGeometry:
    """Where a point can get with the budgets: the union of each centre's visible disc of
    its remaining budget (:func:`visible_discs`), clipped by ``clip`` (the free space)."""
    keep = np.asarray(radii, float) > 1e-9
    if not keep.any() or clip.is_empty:
        return Polygon()
    parts = visible_discs(np.asarray(centres, float).reshape(-1, 2)[keep], np.asarray(radii, float)[keep], cast,
                          max_error=max_error)
    return shapely.intersection(shapely.union_all(parts), clip)


# ---------------------------------------------------------------------------------------
# The slow, obviously-correct baseline: A* on a grid
# ---------------------------------------------------------------------------------------

def grid_shortest_path(space: FreeSpace, start: Sequence[float], goal: Sequence[float], cell: float = 0.1
                       ) -> tuple[float, list[tuple[float, float]]] | None:
    """A legal path from ``start`` to ``goal`` on a square grid (8 neighbours, cells of
    ``cell`` inches), every cell centre and every move checked exactly: ``(length, points)``,
    or None when the grid finds none. The baseline the visibility graph is tested and
    benchmarked against: it is never shorter than the true shortest path."""
    x0, y0, x1, y1 = space.support.bounds
    nx, ny = max(1, int((x1 - x0) / cell)), max(1, int((y1 - y0) / cell))
    gx = x0 + (np.arange(nx) + 0.5) * cell
    gy = y0 + (np.arange(ny) + 0.5) * cell
    X, Y = np.meshgrid(gx, gy, indexing="ij")
    centres = np.column_stack([X.ravel(), Y.ravel()])
    free = np.zeros(len(centres), bool)
    for s in range(0, len(centres), 20000):
        free[s:s + 20000] = space.point_free(centres[s:s + 20000])
    src, dst = np.asarray(start, float), np.asarray(goal, float)
    n = len(centres)
    S, G = n, n + 1
    eu, ev, ew = [], [], []
    steps = [(1, 0), (0, 1), (1, 1), (1, -1)]
    idx = np.arange(n).reshape(nx, ny)
    for dx, dy in steps:
        a = idx[max(0, -dx):nx - max(0, dx), max(0, -dy):ny - max(0, dy)].ravel()
        b = idx[max(0, -dx) + dx:nx - max(0, dx) + dx, max(0, -dy) + dy:ny - max(0, dy) + dy].ravel()
        keep = free[a] & free[b]
        a, b = a[keep], b[keep]
        ok = np.zeros(len(a), bool)
        for s in range(0, len(a), 50000):
            ok[s:s + 50000] = space.segments_clear(centres[a[s:s + 50000]], centres[b[s:s + 50000]])
        eu.append(a[ok]); ev.append(b[ok]); ew.append(np.full(ok.sum(), cell * math.hypot(dx, dy)))
    for p, node in ((src, S), (dst, G)):
        c = np.flatnonzero(free & (np.hypot(centres[:, 0] - p[0], centres[:, 1] - p[1]) <= 1.5 * cell))
        pp = np.repeat(p[None], len(c), axis=0)
        ok = space.segments_clear(pp, centres[c], relax0=pp)
        c = c[ok]
        eu.append(np.full(len(c), node)); ev.append(c); ew.append(np.hypot(*(centres[c] - p).T))
    if space.segments_clear(src[None], dst[None], relax0=src[None], relax1=dst[None])[0]:
        eu.append(np.array([S])); ev.append(np.array([G])); ew.append(np.array([float(np.hypot(*(dst - src)))]))
    edges = np.column_stack([np.concatenate(eu), np.concatenate(ev)])
    pts = np.vstack([centres, src, dst])
    dist, pred = _astar(n + 2, edges, np.concatenate(ew), S, G, pts)
    if not math.isfinite(dist):
        return None
    path = [G]
    while path[-1] != S:
        e = pred[path[-1]]
        a, b = edges[e]
        path.append(int(a if b == path[-1] else b))
    return dist, [(float(pts[k, 0]), float(pts[k, 1])) for k in reversed(path)]


def _astar(n: int, edges: np.ndarray, w: np.ndarray, s: int, g: int, pts: np.ndarray) -> tuple[float, dict[int, int]]:
    u, v = np.concatenate([edges[:, 0], edges[:, 1]]), np.concatenate([edges[:, 1], edges[:, 0]])
    ww, eid = np.concatenate([w, w]), np.concatenate([np.arange(len(w))] * 2)
    order = np.argsort(u, kind="stable")
    v, ww, eid = v[order].tolist(), ww[order].tolist(), eid[order].tolist()
    start = np.searchsorted(u[order], np.arange(n + 1)).tolist()
    gx, gy = float(pts[g, 0]), float(pts[g, 1])
    px, py = pts[:, 0].tolist(), pts[:, 1].tolist()
    dist = {s: 0.0}
    pred: dict[int, int] = {}
    heap = [(math.hypot(px[s] - gx, py[s] - gy), 0.0, s)]
    closed = set()
    while heap:
        _, c, x = heapq.heappop(heap)
        if x in closed:
            continue
        if x == g:
            return c, pred
        closed.add(x)
        for k in range(start[x], start[x + 1]):
            y = v[k]
            nc = c + ww[k]
            if nc < dist.get(y, _INF):
                dist[y] = nc
                pred[y] = eid[k]
                heapq.heappush(heap, (nc + math.hypot(px[y] - gx, py[y] - gy), nc, y))
    return _INF, pred
