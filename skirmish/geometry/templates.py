"""Area-of-effect template shapes, coverage and candidate placements: pure geometry.

Every template seen from above is a *tapered capsule*: the convex hull of two discs
``(p1, r1)`` and ``(p2, r2)``, which is also the union of the discs interpolated
between them (centre and radius both linear). A circle is the case ``p1 = p2``; a
teardrop (spray) has a narrow disc at one end and a wide disc at the other, joined by
two straight *long edges*.

Its signed distance function is exact and closed-form (:meth:`Capsule.sdf`), which
turns coverage of a round base of radius ρ centred at ``c`` into comparisons:

* the base touches the template (at least partly covered) when ``sdf(c) <= ρ + tol``;
* the base is covered entirely when ``sdf(c) <= -ρ + tol``.

(For an outside point the sdf is the distance to the shape; for an inside point its
negative is the radius of the largest disc around the point inside the shape: the
shape eroded by ρ is the hull of the discs shrunk by ρ, or of the cone's apex and the
shrunk far disc.)

The best-placement searches live on top of this module (``maps/table_templates.py``);
here are their geometric pieces: the arrangement of circles whose faces are every
possible set of touched bases for a circle (:func:`circle_candidates`), the lattice
used where line of sight varies inside a face (:func:`circle_lattice`), the exact
angular events of a spray (:func:`spray_events`), and a vectorised exact check that
3D segments clear a set of vertical solids (:func:`clear_segments`).

>>> c = circle(0.0, 0.0, 2.0)
>>> float(c.sdf(np.array([3.0, 0.0])))      # 1 inch outside the rim
1.0
>>> int(coverage(c, np.array([[3.0, 0.0]]), np.array([1.0]))[0]) == TOUCHING   # a tangent base touches
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import shapely

from .los import ETA, Obstacles

#: Bases within this distance of a template's edge touch it (inches; as E-CONTACT).
TOUCH_TOLERANCE = 1e-3

#: Coverage codes (:func:`coverage`).
NONE, TOUCHING, PARTLY, COVERED = 0, 1, 2, 3
COVERAGE_NAMES = ("none", "touching", "partly", "covered")


@dataclass(frozen=True)
class Capsule:
    """The convex hull of the discs ``(x1, y1, r1)`` and ``(x2, y2, r2)`` (plan, inches).

    ``r2 >= r1`` and the discs are not nested (``|p2 - p1| + r1 > r2``) unless equal.
    """

    x1: float
    y1: float
    r1: float
    x2: float
    y2: float
    r2: float

    @property
    def length(self) -> float:
        """Distance between the two disc centres."""
        return math.hypot(self.x2 - self.x1, self.y2 - self.y1)

    @property
    def is_circle(self) -> bool:
        return self.length == 0.0

    @property
    def axis(self) -> tuple[float, float]:
        """Unit vector from disc 1 to disc 2 ((1, 0) for a circle)."""
        d = self.length
        return (1.0, 0.0) if d == 0 else ((self.x2 - self.x1) / d, (self.y2 - self.y1) / d)

    @property
    def slope(self) -> float:
        """sin β: how fast the radius grows per unit of axis (0 for a circle)."""
        d = self.length
        return 0.0 if d == 0 else (self.r2 - self.r1) / d

    def sdf(self, pts: np.ndarray) -> np.ndarray:
        """Exact signed distance of points ``(..., 2)`` to the shape (negative inside)."""
        pts = np.asarray(pts, float)
        wx, wy = pts[..., 0] - self.x1, pts[..., 1] - self.y1
        d = self.length
        if d == 0:
            return np.hypot(wx, wy) - self.r1
        ux, uy = self.axis
        a = wx * ux + wy * uy
        b = np.abs(wx * uy - wy * ux)
        k = self.slope
        s = np.clip(a + b * (k / math.sqrt(1.0 - k * k)), 0.0, d)
        return np.hypot(a - s, b) - (self.r1 + k * s)

    def long_edges(self) -> tuple[tuple[tuple[float, float], tuple[float, float]], ...]:
        """The two straight sides (left, right of the axis), each from the narrow end to
        the far end; empty for a circle."""
        if self.is_circle:
            return ()
        ux, uy = self.axis
        k = self.slope
        c = math.sqrt(1.0 - k * k)
        out = []
        for side in (1.0, -1.0):
            ex, ey = -k * ux - side * c * uy, -k * uy + side * c * ux
            out.append(((self.x1 + self.r1 * ex, self.y1 + self.r1 * ey),
                        (self.x2 + self.r2 * ex, self.y2 + self.r2 * ey)))
        return tuple(out)

    def outline(self, per_arc: int = 48) -> np.ndarray:
        """Boundary points, counter-clockwise, without repeating the first: the far arc,
        a long edge, the narrow arc, the other long edge (a circle: ``2 * per_arc`` points)."""
        if self.is_circle:
            a = np.linspace(0.0, 2 * math.pi, 2 * per_arc, endpoint=False)
            return np.column_stack([self.x1 + self.r1 * np.cos(a), self.y1 + self.r1 * np.sin(a)])
        ux, uy = self.axis
        base = math.atan2(uy, ux)
        beta = math.asin(max(-1.0, min(1.0, self.slope)))
        half = math.pi / 2 + beta  # the far arc spans ±half around the axis
        far = np.linspace(base - half, base + half, per_arc + 1)
        near = np.linspace(base + half, base + 2 * math.pi - half, max(4, per_arc // 2) + 1)
        pts = np.vstack([np.column_stack([self.x2 + self.r2 * np.cos(far), self.y2 + self.r2 * np.sin(far)]),
                         np.column_stack([self.x1 + self.r1 * np.cos(near), self.y1 + self.r1 * np.sin(near)])])
        return pts

    def polygon(self, per_arc: int = 48) -> shapely.Polygon:
        """The outline as a polygon (display and slow oracles; not used for decisions)."""
        return shapely.Polygon(self.outline(per_arc))


def circle(cx: float, cy: float, r: float) -> Capsule:
    """A circular template of radius ``r`` centred at ``(cx, cy)``."""
    return Capsule(cx, cy, r, cx, cy, r)


def teardrop_axis(attacker_radius: float, length: float, near_width: float,
                  far_width: float) -> tuple[float, float, float, float]:
    """Where a spray's discs sit along its axis, measured from the attacker's centre:
    ``(a1, r1, a2, r2)``. The narrow tip touches the base's rim (base contact)."""
    r1, r2 = near_width / 2, far_width / 2
    a1 = attacker_radius + r1
    a2 = attacker_radius + length - r2
    return a1, r1, a2, r2


def teardrop(ax: float, ay: float, attacker_radius: float, theta: float, length: float, near_width: float,
             far_width: float) -> Capsule:
    """A spray placed with its narrow end in base contact with a base of radius
    ``attacker_radius`` centred at ``(ax, ay)``, pointing at angle ``theta`` (radians)."""
    a1, r1, a2, r2 = teardrop_axis(attacker_radius, length, near_width, far_width)
    c, s = math.cos(theta), math.sin(theta)
    return Capsule(ax + a1 * c, ay + a1 * s, r1, ax + a2 * c, ay + a2 * s, r2)


def coverage(shape: Capsule, centres: np.ndarray, radii: np.ndarray, tol: float = TOUCH_TOLERANCE) -> np.ndarray:
    """Coverage code of each round base: :data:`COVERED` (entirely), :data:`PARTLY`
    (overlapping), :data:`TOUCHING` (tangent within ``tol``) or :data:`NONE`."""
    return coverage_from_sdf(shape.sdf(centres), np.asarray(radii, float), tol)


def coverage_from_sdf(sdf: np.ndarray, radii: np.ndarray, tol: float = TOUCH_TOLERANCE) -> np.ndarray:
    """:func:`coverage` from precomputed signed distances (broadcasting)."""
    out = np.where(sdf <= radii + tol, TOUCHING, NONE)
    out = np.where(sdf < radii - tol, PARTLY, out)
    return np.where(sdf <= -radii + tol, COVERED, out)


def point_segment_distance(px: np.ndarray, py: np.ndarray, a: tuple[float, float],
                           b: tuple[float, float]) -> np.ndarray:
    """Plan distance from points to the segment ``a``-``b`` (broadcasting)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    dd = dx * dx + dy * dy
    t = np.clip(((px - a[0]) * dx + (py - a[1]) * dy) / dd, 0.0, 1.0) if dd > 0 else 0.0
    return np.hypot(px - (a[0] + t * dx), py - (a[1] + t * dy))


def edges_cross(shape: Capsule, cx: np.ndarray, cy: np.ndarray, radii: np.ndarray,
                tol: float = TOUCH_TOLERANCE) -> np.ndarray:
    """Both long edges cross each base: each edge passes within ``radius - tol`` of its
    centre (a tangent edge does not cross). Always False for a circle."""
    edges = shape.long_edges()
    if not edges:
        return np.zeros(np.broadcast(cx, cy, radii).shape, bool)
    ok = np.ones(np.broadcast(cx, cy, radii).shape, bool)
    for a, b in edges:
        ok &= point_segment_distance(cx, cy, a, b) <= radii - tol
    return ok


def axis_cover_distance(a1: float, r1: float, a2: float, r2: float, rho: float,
                        tol: float = TOUCH_TOLERANCE) -> float:
    """The smallest distance from the attacker's centre at which a spray pointed straight
    at a base of radius ``rho`` covers it entirely (``inf`` when it never can). A base
    nearer than this is *too close* (E-TMPL-SPRAY)."""
    need = rho - tol
    if need <= r1:
        return a1 - r1 + need  # the narrow end already holds it
    if a2 <= a1 or need > r2:
        return math.inf
    k = (r2 - r1) / (a2 - a1)
    return a1 + (need - r1) / k


# ---------------------------------------------------------------------------------------
# Circles: the arrangement of "touch" circles, and the lattice
# ---------------------------------------------------------------------------------------

def circle_intersections(c1: np.ndarray, r1: np.ndarray, c2: np.ndarray, r2: np.ndarray) -> np.ndarray:
    """Intersection points of circle pairs (rows): ``(m, 2, 2)``, NaN where they do not meet."""
    c1, c2 = np.asarray(c1, float).reshape(-1, 2), np.asarray(c2, float).reshape(-1, 2)
    r1, r2 = np.asarray(r1, float).ravel(), np.asarray(r2, float).ravel()
    d_vec = c2 - c1
    d = np.hypot(d_vec[:, 0], d_vec[:, 1])
    with np.errstate(divide="ignore", invalid="ignore"):
        a = (d * d + r1 * r1 - r2 * r2) / (2 * d)
        h2 = r1 * r1 - a * a
        ok = (d > 1e-12) & (h2 >= 0)
        h = np.sqrt(np.where(ok, h2, 0.0))
        ex, ey = d_vec[:, 0] / d, d_vec[:, 1] / d
    mx, my = c1[:, 0] + a * ex, c1[:, 1] + a * ey
    p = np.stack([np.stack([mx - h * ey, my + h * ex], 1), np.stack([mx + h * ey, my - h * ex], 1)], 1)
    p[~ok] = np.nan
    return p


def circle_candidates(target: tuple[float, float], feasible_radius: float, centres: np.ndarray,
                      touch_radii: np.ndarray, tol: float = TOUCH_TOLERANCE) -> np.ndarray:
    """Candidate centres for a circle that must keep its centre within
    ``feasible_radius`` of ``target`` (the main target covered entirely), among bases
    whose *touch circles* (centre, ``touch_radii`` = template radius + base radius) are
    given. Returns ``(k, 2)`` points, all feasible.

    The set of bases a circle touches changes only across the touch circles, so every
    achievable set is the set of some face of their arrangement (clipped to the feasible
    disc). Every face is represented, up to faces thinner than ``2 * tol``:

    * a face with a vertex on its boundary, by the four points at distance ``tol``
      inside/outside both circles at that vertex (the intersections of the circles
      grown and shrunk by ``tol``; at the feasible boundary, points on it);
    * a face bounded by whole circles, by a point just inside and just outside each
      circle, and by the target point and points on the feasible boundary.
    """
    tx, ty = target
    centres = np.asarray(centres, float).reshape(-1, 2)
    touch_radii = np.asarray(touch_radii, float).ravel()
    n = len(centres)
    # circles: 0 = the feasible boundary; then per base: inside (r), outside (r + 2 tol)
    cc = np.vstack([[[tx, ty]], np.repeat(centres, 2, axis=0)])
    rr = np.concatenate([[feasible_radius], np.column_stack([touch_radii, touch_radii + 2 * tol]).ravel()])
    owner = np.concatenate([[-1], np.repeat(np.arange(n), 2)])
    pts = [np.array([[tx, ty]])]
    ang = np.linspace(0, 2 * math.pi, 8, endpoint=False)
    pts.append(np.column_stack([tx + feasible_radius * np.cos(ang), ty + feasible_radius * np.sin(ang)]))
    # one point on each circle, on the side facing the target
    v = np.array([tx, ty]) - cc[1:]
    dist = np.hypot(v[:, 0], v[:, 1])
    u = np.where(dist[:, None] > 1e-12, v / np.maximum(dist, 1e-300)[:, None], np.array([1.0, 0.0]))
    pts.append(cc[1:] + u * rr[1:, None])
    pts.append(cc[1:] - u * rr[1:, None])
    i, j = np.triu_indices(len(cc), 1)
    keep = owner[i] != owner[j]
    i, j = i[keep], j[keep]
    # only pairs whose circles can meet
    dd = np.hypot(*(cc[i] - cc[j]).T)
    meet = (dd <= rr[i] + rr[j]) & (dd >= np.abs(rr[i] - rr[j]))
    i, j = i[meet], j[meet]
    if len(i):
        x = circle_intersections(cc[i], rr[i], cc[j], rr[j]).reshape(-1, 2)
        pts.append(x[~np.isnan(x[:, 0])])
    out = np.vstack(pts)
    inside = np.hypot(out[:, 0] - tx, out[:, 1] - ty) <= feasible_radius + tol
    return out[inside]


def circle_lattice(target: tuple[float, float], toward: tuple[float, float] | None, radius: float,
                   spacing: float) -> tuple[np.ndarray, np.ndarray]:
    """Square lattice points within ``radius`` of ``target``: ``target + spacing * (i u + j v)``,
    ``u`` the unit vector toward ``toward`` (the +x axis when None or coincident), ``v``
    perpendicular. Returns ``(points (k, 2), ij (k, 2) ints)``. The lattice moves with the
    table under rigid motions (it is anchored on two pieces); a lattice of spacing
    ``m * spacing`` is its sub-lattice of indices divisible by ``m``."""
    tx, ty = target
    ux, uy = 1.0, 0.0
    if toward is not None:
        dx, dy = toward[0] - tx, toward[1] - ty
        n = math.hypot(dx, dy)
        if n > 1e-9:
            ux, uy = dx / n, dy / n
    if radius < 0 or spacing <= 0:
        return np.zeros((0, 2)), np.zeros((0, 2), int)
    m = int(math.floor(radius / spacing + 1e-9))
    idx = np.arange(-m, m + 1)
    grid_i, grid_j = np.meshgrid(idx, idx, indexing="ij")
    fi, fj = grid_i.ravel(), grid_j.ravel()
    keep = (fi * fi + fj * fj) * spacing * spacing <= radius * radius + 1e-12
    fi, fj = fi[keep], fj[keep]
    px = tx + spacing * (fi * ux - fj * uy)
    py = ty + spacing * (fi * uy + fj * ux)
    return np.column_stack([px, py]), np.column_stack([fi, fj])


# ---------------------------------------------------------------------------------------
# Sprays: exact angular events
# ---------------------------------------------------------------------------------------

def _circle_circle_angles(D: np.ndarray, c: tuple[float, float], r: np.ndarray | float) -> np.ndarray:
    """Polar angles of the points where circles |x| = D meet circles (c, r): shape
    ``(2, n)``, NaN where they do not meet (or r <= 0)."""
    cx, cy = c
    L = math.hypot(cx, cy)
    D = np.asarray(D, float)
    r = np.broadcast_to(np.asarray(r, float), D.shape)
    with np.errstate(invalid="ignore", divide="ignore"):
        cosd = (D * D + L * L - r * r) / (2 * D * L)
        ok = (D > 0) & (L > 0) & (r > 0) & (np.abs(cosd) <= 1)
    delta = np.where(ok, np.arccos(np.clip(np.nan_to_num(cosd), -1, 1)), np.nan)
    base = math.atan2(cy, cx)
    return np.stack([base + delta, base - delta])


def _circle_line_angles(D: np.ndarray, n: tuple[float, float], c0: np.ndarray | float) -> np.ndarray:
    """Polar angles of the points where circles |x| = D meet the lines n·x = c0 (unit n):
    shape ``(2, n)``, NaN where they do not meet."""
    D = np.asarray(D, float)
    c0 = np.broadcast_to(np.asarray(c0, float), D.shape)
    with np.errstate(invalid="ignore"):
        ok = D >= np.abs(c0)
    h = np.sqrt(np.maximum(np.where(ok, D * D - c0 * c0, 0.0), 0.0))
    delta = np.where(ok, np.arctan2(h, c0), np.nan)
    base = math.atan2(n[1], n[0])
    return np.stack([base + delta, base - delta])


def capsule_frame_angles(shape: Capsule, D: np.ndarray, delta: np.ndarray | float) -> np.ndarray:
    """Angles where circles |x| = D (centred at the origin) cross the boundary of the shape
    grown by ``delta`` (shrunk when negative; one value per circle, NaN to skip): a superset
    of the points where ``sdf == delta`` on those circles. Shape ``(k, n)``, NaN-padded."""
    D = np.asarray(D, float).ravel()
    delta = np.broadcast_to(np.asarray(delta, float), D.shape)
    out = [_circle_circle_angles(D, (shape.x2, shape.y2), shape.r2 + delta),
           _circle_circle_angles(D, (shape.x1, shape.y1), shape.r1 + delta)]
    if not shape.is_circle:
        ux, uy = shape.axis
        k = shape.slope
        c = math.sqrt(1 - k * k)
        for side in (1.0, -1.0):
            nx, ny = -k * ux - side * c * uy, -k * uy + side * c * ux
            out.append(_circle_line_angles(D, (nx, ny), nx * shape.x1 + ny * shape.y1 + shape.r1 + delta))
    return np.concatenate(out)


def capsule_edge_angles(shape: Capsule, D: np.ndarray, reach: np.ndarray | float) -> np.ndarray:
    """Angles where circles |x| = D cross the boundary of the ``reach``-neighbourhood of
    either long edge (one reach per circle, NaN to skip): a superset of where "the edge
    crosses a base" changes. Shape ``(k, n)``, NaN-padded."""
    D = np.asarray(D, float).ravel()
    reach = np.broadcast_to(np.asarray(reach, float), D.shape)
    reach = np.where(reach > 0, reach, np.nan)
    out = []
    for a, b in shape.long_edges():
        tx, ty = b[0] - a[0], b[1] - a[1]
        L = math.hypot(tx, ty)
        tx, ty = tx / L, ty / L
        nx, ny = -ty, tx
        out += [_circle_circle_angles(D, a, reach), _circle_circle_angles(D, b, reach)]
        for sgn in (1.0, -1.0):
            out.append(_circle_line_angles(D, (nx, ny), nx * a[0] + ny * a[1] + sgn * reach))
        # the ends of the strip (perpendicular lines through both ends), where reach applies
        for e in (a, b):
            out.append(_circle_line_angles(D, (tx, ty), np.where(np.isnan(reach), np.nan, tx * e[0] + ty * e[1])))
    return np.concatenate(out) if out else np.full((0, len(D)), np.nan)


def spray_frame(attacker_radius: float, length: float, near_width: float, far_width: float) -> Capsule:
    """A spray in its own frame: the attacker's centre at the origin, pointing along +x."""
    return teardrop(0.0, 0.0, attacker_radius, 0.0, length, near_width, far_width)


def spray_events(frame: Capsule, D: np.ndarray, alpha: np.ndarray, deltas: np.ndarray,
                 edge_reach: np.ndarray | None = None) -> np.ndarray:
    """Directions θ (radians, in [0, 2π)) at which a spray's effect on some base may change.

    Base ``i`` sits at distance ``D[i]`` from the attacker's centre in direction
    ``alpha[i]``; in the spray's frame (pointing along +x) it is at polar angle
    ``alpha - θ``. For each ``deltas[i]`` (e.g. ``ρ + tol`` for touching, ``-ρ + tol``
    for entire coverage; NaN to skip) the events where its sdf crosses that value are
    included, and, where ``edge_reach[i]`` is finite, those where a long edge starts or
    stops crossing it. Between consecutive events nothing changes (exact)."""
    D, alpha, deltas = (np.atleast_1d(np.asarray(v, float)) for v in (D, alpha, deltas))
    ang = [capsule_frame_angles(frame, D, deltas)]
    if edge_reach is not None:
        ang.append(capsule_edge_angles(frame, D, np.atleast_1d(np.asarray(edge_reach, float))))
    ev = alpha[None, :] - np.concatenate(ang)
    ev = ev[np.isfinite(ev)]
    return np.unique(np.mod(ev, 2 * math.pi))


def angular_cells(events: np.ndarray, extra: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Candidate directions from events: every event and, between consecutive events
    (wrapping round), the midpoint of the arc, interleaved in increasing order.

    Returns ``(angles, lo, hi)``: each candidate's direction in [0, 2π) and the arc it
    stands for, unwrapped so that ``lo`` and ``hi`` increase along the sequence (an event
    has ``lo == hi``; the last arc ends at the first event + 2π)."""
    ev = np.unique(np.mod(np.concatenate([np.ravel(events), [] if extra is None else np.ravel(extra)]),
                          2 * math.pi))
    if len(ev) == 0:
        ev = np.array([0.0])
    nxt = np.concatenate([ev[1:], [ev[0] + 2 * math.pi]])
    lo = np.empty(2 * len(ev))
    hi = np.empty(2 * len(ev))
    lo[0::2], hi[0::2] = ev, ev
    lo[1::2], hi[1::2] = ev, nxt
    return np.mod((lo + hi) / 2, 2 * math.pi), lo, hi


# ---------------------------------------------------------------------------------------
# Sight lines: a vectorised exact "this 3D segment is clear" test
# ---------------------------------------------------------------------------------------

#: Solids are grown by this much (inches) in plan before the clear-segment test, so a
#: segment that grazes a face or runs along an internal seam is never called clear.
CLEAR_MARGIN = 1e-7


def clear_segments(obs: Obstacles, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Whether each 3D segment ``p[i]``→``q[i]`` meets no obstacle's interior (conservative:
    a True is exact proof; a False may be a segment that only grazes a solid).

    The same semantics as the LoS engine's witness check: a solid is passed over when
    the segment is at or above its top along the whole crossing, under when it is below
    its (effective) base; each footprint is tested piece by convex piece, grown by
    :data:`CLEAR_MARGIN`."""
    p, q = np.asarray(p, float).reshape(-1, 3), np.asarray(q, float).reshape(-1, 3)
    m = len(p)
    clear = np.ones(m, bool)
    if m == 0 or obs.n_owners == 0:
        return clear
    boxes = shapely.box(np.minimum(p[:, 0], q[:, 0]) - 1e-6, np.minimum(p[:, 1], q[:, 1]) - 1e-6,
                        np.maximum(p[:, 0], q[:, 0]) + 1e-6, np.maximum(p[:, 1], q[:, 1]) + 1e-6)
    si, oi = obs.tree.query(boxes)
    if not len(si):
        return clear
    npc = obs.owner_npieces[oi]
    seg = np.repeat(si, npc)
    piece = np.repeat(obs.owner_pieces_start[oi], npc) + (np.arange(npc.sum()) - np.repeat(np.cumsum(npc) - npc, npc))
    owner = obs.piece_owner[piece]
    P, Qp = p[seg, :2], q[seg, :2]
    d = Qp - P
    t0 = np.zeros(len(seg))
    t1 = np.ones(len(seg))
    rnd = obs.piece_round[piece]
    if (~rnd).any():
        k = np.flatnonzero(~rnd)
        hp = obs.halfplanes[piece[k]]  # (r, K, 3)
        num = hp[:, :, 2] + CLEAR_MARGIN - np.einsum("rkj,rj->rk", hp[:, :, :2], P[k])
        den = np.einsum("rkj,rj->rk", hp[:, :, :2], d[k])
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = num / den
        hi = np.where(den > 0, ratio, np.inf).min(1)
        lo = np.where(den < 0, ratio, -np.inf).max(1)
        never = np.any((den == 0) & (num <= 0), 1)
        t0[k] = np.maximum(0.0, lo)
        t1[k] = np.where(never, -1.0, np.minimum(1.0, hi))
    if rnd.any():
        k = np.flatnonzero(rnd)
        c = obs.owner_circle[owner[k]]
        r = c[:, 2] + CLEAR_MARGIN
        w = P[k] - c[:, :2]
        A = np.einsum("ij,ij->i", d[k], d[k])
        B = 2 * np.einsum("ij,ij->i", d[k], w)
        C = np.einsum("ij,ij->i", w, w) - r * r
        disc = B * B - 4 * A * C
        still = A <= 1e-300
        with np.errstate(divide="ignore", invalid="ignore"):
            sq = np.sqrt(np.maximum(disc, 0.0))
            lo = np.where(still, np.where(C < 0, 0.0, 2.0), (-B - sq) / (2 * A))
            hi = np.where(still, np.where(C < 0, 1.0, -1.0), (-B + sq) / (2 * A))
        miss = ~still & (disc <= 0)
        t0[k] = np.maximum(0.0, lo)
        t1[k] = np.where(miss, -1.0, np.minimum(1.0, hi))
    hit = t1 - t0 > 1e-12
    if not hit.any():
        return clear
    seg, owner, t0, t1 = seg[hit], owner[hit], t0[hit], t1[hit]
    u, v = p[seg, 2], q[seg, 2]
    ha, hb = (1 - t0) * u + t0 * v, (1 - t1) * u + t1 * v
    z0, z1, sealed = obs.owner_z0[owner], obs.owner_z1[owner], obs.owner_sealed[owner]
    over = np.minimum(ha, hb) >= z1
    under = np.maximum(ha, hb) <= z0 - np.where(sealed, ETA, 0.0)
    blocked = ~over & ~under
    clear[seg[blocked]] = False
    return clear
