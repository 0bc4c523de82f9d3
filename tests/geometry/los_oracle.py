"""A slow, obviously-correct reference for line of sight, independent of skirmish.geometry.los.

It reads the rule directly: a segment is blocked by a solid when it meets the solid's
interior (open footprint × open z-range), or its sealed bottom face (a solid standing
on the table or on another solid). Footprints are exact (shapely polygons, true circles).
"""

from __future__ import annotations

import math
import random

from shapely.geometry import LineString, Point

from skirmish.maps.table import Table

TOUCH = 1e-9


def solids(table: Table, exclude: set[str], grow: float = 0.0):
    """(id, footprint kind, footprint, z0, z1, sealed) for every blocking solid but ``exclude``."""
    out = []
    for m in table.models:
        if m.id in exclude:
            continue
        c = m.hitbox
        out.append((m.id, "circle", (c.x, c.y, c.radius + grow), c.z - grow, c.top + grow, True))
    tops = [(s.solid.z1, s.solid.footprint) for s in table.scenery]
    for s in table.scenery:
        if not s.blocks_los:
            continue
        z0 = s.solid.z0
        sealed = z0 <= 1e-9 or any(abs(t - z0) <= 1e-9 and f.intersection(s.solid.footprint).area > 1e-9 for t, f in tops)
        if s.solid.circle is not None:
            cx, cy, r = s.solid.circle
            out.append((s.id, "circle", (cx, cy, r + grow), z0 - grow, s.solid.z1 + grow, sealed))
        else:
            fp = s.solid.footprint.buffer(grow, quad_segs=16) if grow else s.solid.footprint
            out.append((s.id, "polygon", fp, z0 - grow, s.solid.z1 + grow, sealed))
    return out


def _intervals(kind, shape, p, q):
    """Open parameter intervals where the plan segment p→q is inside the open footprint."""
    (x0, y0), (x1, y1) = p, q
    L = math.hypot(x1 - x0, y1 - y0)
    if kind == "circle":
        cx, cy, r = shape
        if L == 0:
            return [(0.0, 1.0)] if math.hypot(x0 - cx, y0 - cy) < r - TOUCH else []
        dx, dy = x1 - x0, y1 - y0
        fx, fy = x0 - cx, y0 - cy
        A, B, C = dx * dx + dy * dy, 2 * (fx * dx + fy * dy), fx * fx + fy * fy - (r - TOUCH) ** 2
        disc = B * B - 4 * A * C
        if disc <= 0:
            return []
        s = math.sqrt(disc)
        a, b = max(0.0, (-B - s) / (2 * A)), min(1.0, (-B + s) / (2 * A))
        return [(a, b)] if b > a else []
    if L == 0:
        return [(0.0, 1.0)] if shape.contains(Point(x0, y0)) and shape.boundary.distance(Point(x0, y0)) > TOUCH else []
    line = LineString([p, q])
    inter = line.intersection(shape)
    out = []
    for g in getattr(inter, "geoms", [inter]):
        if g.geom_type != "LineString" or g.length <= 1e-12:
            continue
        if shape.boundary.distance(g.interpolate(0.5, normalized=True)) <= TOUCH:
            continue
        ts = [math.hypot(x - x0, y - y0) / L for x, y in g.coords]
        out.append((min(ts), max(ts)))
    return out


def clearance_blockers(table: Table, seg, exclude: set[str], eps: float, slack: float = 1e-9) -> list[str]:
    """Solids the 3D segment comes nearer than ``eps`` to (E-LOS clearance): ε in plan
    while its height is within ε of the solid's height range. Exact: the part of the
    segment at those heights is an interval of t (heights are linear), and its plan
    distance to the true footprint is shapely's exact segment-to-polygon distance.
    ``slack`` forgives float error."""
    (x0, y0, u), (x1, y1, v) = seg
    near = eps - slack
    hit = []
    for sid, kind, shape, z0, z1, _sealed in solids(table, exclude):
        lo, hi = z0 - near, z1 + near  # heights where the segment is within ε of the range
        if u == v:
            if not lo < u < hi:
                continue
            ta, tb = 0.0, 1.0
        else:
            ta, tb = sorted(((lo - u) / (v - u), (hi - u) / (v - u)))
            ta, tb = max(ta, 0.0), min(tb, 1.0)
            if tb <= ta:
                continue
        a = (x0 + ta * (x1 - x0), y0 + ta * (y1 - y0))
        b = (x0 + tb * (x1 - x0), y0 + tb * (y1 - y0))
        part = LineString([a, b]) if a != b else Point(a)
        if kind == "circle":
            cx, cy, r = shape
            d = part.distance(Point(cx, cy)) - r
        else:
            d = part.distance(shape)
        if d < near:
            hit.append(sid)
    return hit


def blockers(table: Table, seg, exclude: set[str], grow: float = 0.0) -> list[str]:
    (x0, y0, u), (x1, y1, v) = seg
    hit = []
    for sid, kind, shape, z0, z1, sealed in solids(table, exclude, grow):
        for a, b in _intervals(kind, shape, (x0, y0), (x1, y1)):
            za, zb = (1 - a) * u + a * v, (1 - b) * u + b * v
            lo, hi = min(za, zb), max(za, zb)
            if lo < z1 - TOUCH and (hi > z0 + TOUCH or (sealed and hi >= z0 - TOUCH)):
                hit.append(sid)
                break
    return hit


def in_front_half(table: Table, model_id: str, point, tol: float = 1e-7) -> bool:
    m = table.model(model_id)
    c = m.hitbox
    x, y, z = point
    fx, fy = m.facing_vector
    return (math.hypot(x - c.x, y - c.y) <= c.radius + tol and c.z - tol <= z <= c.top + tol
            and (x - c.x) * fx + (y - c.y) * fy >= -tol)


def in_hitbox(table: Table, model_id: str, point, tol: float = 1e-7) -> bool:
    c = table.model(model_id).hitbox
    x, y, z = point
    return math.hypot(x - c.x, y - c.y) <= c.radius + tol and c.z - tol <= z <= c.top + tol


def witness_is_valid(table: Table, a: str, b: str, seg, arc: str = "front", eps: float = 0.1 / 25.4) -> bool:
    """The segment joins a's front half (or hitbox) to b's hitbox and keeps the clearance
    ``eps`` from every other solid (E-LOS)."""
    start_ok = in_front_half(table, a, seg[0]) if arc == "front" else in_hitbox(table, a, seg[0])
    if arc == "front":  # the sight line runs forward: its end is in the front half-plane too
        m = table.model(a)
        fx, fy = m.facing_vector
        start_ok &= (seg[1][0] - m.x) * fx + (seg[1][1] - m.y) * fy >= -1e-7
    return start_ok and in_hitbox(table, b, seg[1]) and not clearance_blockers(table, seg, {a, b}, eps)


def sample_segments(table: Table, a: str, b: str, rng: random.Random, n: int, arc: str = "front"):
    """Random segments from a's (front half) hitbox to b's hitbox (the part of b in a's front half-plane)."""
    ma, mb = table.model(a), table.model(b)
    ca, cb = ma.hitbox, mb.hitbox
    fx, fy = ma.facing_vector
    out = []
    tries = 0
    while len(out) < n and tries < 50 * n:
        tries += 1
        pts = []
        for c, front in ((ca, arc == "front"), (cb, arc == "front")):
            ang = rng.uniform(0, 2 * math.pi)
            rad = c.radius * math.sqrt(rng.random()) if rng.random() < 0.5 else c.radius
            z = rng.choice([c.z, c.top, rng.uniform(c.z, c.top)])
            x, y = c.x + rad * math.cos(ang), c.y + rad * math.sin(ang)
            if front and (x - ca.x) * fx + (y - ca.y) * fy < 0:
                break
            pts.append((x, y, z))
        if len(pts) == 2:
            out.append((pts[0], pts[1]))
    return out
