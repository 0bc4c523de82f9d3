"""Solids of the table: vertical cylinders (hitboxes, barrels) and vertical prisms.

Pure geometry: nothing here knows about games. Every solid is a plan shape
extruded over ``[z0, z1]``; that "2.5D" structure is what the LoS, distance and
template algorithms exploit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

#: Segments of a quarter circle when a disc is drawn as a polygon (display, unions).
QUAD_SEGS = 32


@dataclass(frozen=True)
class Cylinder:
    """A vertical cylinder: centre ``(x, y)``, radius, standing at ``z`` with ``height``."""

    x: float
    y: float
    z: float
    radius: float
    height: float

    @property
    def top(self) -> float:
        return self.z + self.height

    @property
    def center(self) -> tuple[float, float]:
        return (self.x, self.y)

    def footprint(self) -> Polygon:
        """The disc seen from above, as a polygon (for drawing and unions only)."""
        return disc(self.x, self.y, self.radius)

    def moved(self, dx: float, dy: float, dz: float = 0.0) -> Cylinder:
        return Cylinder(self.x + dx, self.y + dy, self.z + dz, self.radius, self.height)


@dataclass(frozen=True)
class Prism:
    """A polygon footprint extruded over ``[z0, z1]``. Circles are kept exact in ``circle``."""

    footprint: Polygon
    z0: float
    z1: float
    circle: tuple[float, float, float] | None = field(default=None)

    @property
    def height(self) -> float:
        return self.z1 - self.z0

    @cached_property
    def convex_pieces(self) -> tuple[Polygon, ...]:
        """The footprint cut into convex polygons (one piece when it is convex)."""
        return convex_decomposition(self.footprint)

    @cached_property
    def halfplanes(self) -> tuple[np.ndarray, ...]:
        """For each convex piece, an (n, 3) array of unit normals and offsets: a·p <= b."""
        return tuple(halfplanes_of(p) for p in self.convex_pieces)


def halfplanes_of(convex: Polygon) -> np.ndarray:
    """Rows ``(ax, ay, b)`` with unit ``(ax, ay)``: the interior is where a·p < b for all rows."""
    xy = np.asarray(shapely.geometry.polygon.orient(convex, 1.0).exterior.coords)
    return halfplanes_rings(xy, np.zeros(len(xy), int), 1)[0]


def halfplanes_rings(xy: np.ndarray, at: np.ndarray, n: int) -> list[np.ndarray]:
    """:func:`halfplanes_of` for ``n`` convex polygons at once, from their closed
    counter-clockwise rings: coordinates ``xy`` (M, 2) of ring ``at`` (M,), in order."""
    edge_of = np.flatnonzero(at[:-1] == at[1:])  # each vertex but a ring's closing one
    pts = xy[edge_of]
    edge = xy[edge_of + 1] - pts
    normal = np.stack([edge[:, 1], -edge[:, 0]], axis=1)  # outward for a CCW ring
    norm = np.hypot(normal[:, 0], normal[:, 1])
    keep = norm > 1e-12
    normal = normal[keep] / norm[keep, None]
    b = np.einsum("ij,ij->i", normal, pts[keep])
    rows = np.column_stack([normal, b])
    return np.split(rows, np.searchsorted(at[edge_of][keep], np.arange(1, n)))


def is_convex(poly: Polygon, tol: float = 1e-9) -> bool:
    return poly.convex_hull.area - poly.area <= tol * max(1.0, poly.area) and not poly.interiors


def convex_decomposition(poly: Polygon) -> tuple[Polygon, ...]:
    """Convex pieces whose union is ``poly``: a triangulation merged greedily.

    Constrained Delaunay triangles are merged pairwise while the union stays convex
    (Hertel–Mehlhorn style), which keeps the piece count small for walls and ruins.
    """
    poly = shapely.make_valid(poly) if not poly.is_valid else poly
    polys = [g for g in getattr(poly, "geoms", [poly]) if isinstance(g, Polygon) and g.area > 0]
    out: list[Polygon] = []
    for p in polys:
        if is_convex(p):
            out.append(shapely.geometry.polygon.orient(p, 1.0))
            continue
        tris = list(shapely.constrained_delaunay_triangles(p).geoms)
        merged = True
        while merged:
            merged = False
            for i in range(len(tris)):
                for j in range(i + 1, len(tris)):
                    a, b = tris[i], tris[j]
                    shared = a.intersection(b)
                    if shared.length <= 1e-12:
                        continue
                    u = shapely.union(a, b)
                    if isinstance(u, Polygon) and is_convex(u):
                        tris[i] = shapely.simplify(u, 0)
                        del tris[j]
                        merged = True
                        break
                if merged:
                    break
        out.extend(shapely.geometry.polygon.orient(t, 1.0) for t in tris)
    return tuple(out)


def disc(x: float, y: float, r: float) -> Polygon:
    """A disc as a polygon (for display and unions, not for exact tests): :func:`discs`."""
    return discs(np.array([[x, y, r]], float))[0]  # type: ignore[no-any-return]


#: Per radius, the ring (closed) of the disc at the origin as GEOS draws it, and its
#: bounds (x0, y0, x1, y1).
_RINGS: dict[float, tuple[np.ndarray, np.ndarray]] = {}


def discs(circles: np.ndarray) -> np.ndarray:
    """The discs ``circles`` (n, 3: x, y, r) as polygons, in one call: GEOS's buffer of
    the centre by r (``QUAD_SEGS`` segments a quarter), drawn as the disc at the origin
    moved to the centre. GEOS draws a point's buffer as the centre plus offsets that
    depend on r alone, so this is its buffer, bit for bit (the tests check it), without
    running the buffer algorithm each time."""
    c = np.asarray(circles, float).reshape(-1, 3)
    if not len(c):
        return np.zeros(0, dtype=object)
    drawn = disc_rings(c)
    if drawn is None:
        return shapely.buffer(shapely.points(c[:, :2]), c[:, 2], quad_segs=QUAD_SEGS)
    return shapely.polygons(drawn[0])


def disc_rings(circles: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The closed exterior rings (n, m, 2) of :func:`discs` (the coordinates its polygons
    hold) and their bounds (n, 4: x0, y0, x1, y1); None where they would not all have as
    many points (a radius of 0 draws nothing). The bounds are the origin ring's moved to
    each centre: rounding is monotonic, so they are the moved ring's least and greatest
    coordinates, bit for bit."""
    c = np.asarray(circles, float).reshape(-1, 3)
    radii = c[:, 2].tolist()
    drawn = {r: origin_ring(r) for r in radii}
    size = len(next(iter(drawn.values()))[0]) if drawn else 0
    if size < 4 or any(len(ring) != size for ring, _ in drawn.values()):
        return None
    if len(drawn) == 1:  # (one size of disc, the common case: no stacking)
        ring, box = drawn[radii[0]]
    else:
        ring, box = np.stack([drawn[r][0] for r in radii]), np.stack([drawn[r][1] for r in radii])
    boxes = np.empty((len(c), 4))
    boxes[:, :2] = box[..., :2] + c[:, :2]
    boxes[:, 2:] = box[..., 2:] + c[:, :2]
    return ring + c[:, None, :2], boxes


def origin_ring(r: float) -> tuple[np.ndarray, np.ndarray]:
    """The ring (closed) of the disc of radius ``r`` at the origin as GEOS draws it, and its
    bounds (x0, y0, x1, y1); kept. Moved to a centre, the disc's ring there (:func:`discs`)."""
    got = _RINGS.get(r)
    if got is None:
        if len(_RINGS) > 256:
            _RINGS.clear()
        ring = shapely.get_coordinates(shapely.Point(0.0, 0.0).buffer(r, quad_segs=QUAD_SEGS))
        got = _RINGS[r] = ring, np.concatenate([ring.min(0), ring.max(0)]) if len(ring) else np.zeros(4)
    return got


def rotate_point(x: float, y: float, angle_deg: float, cx: float = 0.0, cy: float = 0.0) -> tuple[float, float]:
    a = math.radians(angle_deg)
    c, s = math.cos(a), math.sin(a)
    dx, dy = x - cx, y - cy
    return (cx + c * dx - s * dy, cy + s * dx + c * dy)


def plan_geometry_distance(a: BaseGeometry, b: BaseGeometry) -> float:
    return float(shapely.distance(a, b))
