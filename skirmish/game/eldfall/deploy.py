"""Deployment (E-DEPLOY): models without a position take the table in their side's zone.

A scenario's models declared without ``at`` wait in the table's reserve
(``Table.catalogue.reserve``). Before round 1 they deploy one at a time, the sides
taking turns, the first side first (E-SETUP: the initiative winner takes the first
turn; the other side chooses its zone). A zone is an 8" strip along a table edge
(``[game] zone_depth``) or a rectangle given in ``[game] zones``. A model stands
wholly inside its zone, with at least half its base on a surface (the table or a
walkable top), its hitbox clear of scenery and of other models.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

import shapely

from ...maps.pieces import Model
from ...maps.table import CONTACT_TOLERANCE, Table

Rect = tuple[float, float, float, float]
#: The table edges a zone may lie along, and the edge facing each.
OPPOSITE = {"south": "north", "north": "south", "west": "east", "east": "west"}


def edge_zone(table: Table, edge: str, depth: float) -> Rect:
    """The ``depth``-inch strip along ``edge`` (south: y = 0; west: x = 0)."""
    w, d = table.width, table.depth
    return {"south": (0.0, 0.0, w, min(depth, d)), "north": (0.0, max(0.0, d - depth), w, d),
            "west": (0.0, 0.0, min(depth, w), d), "east": (max(0.0, w - depth), 0.0, w, d)}[edge]


def zone_rects(table: Table, spec: Mapping[str, str | Rect], depth: float) -> dict[str, Rect]:
    """Each side's zone as a rectangle: an edge's ``depth``-inch strip (:func:`edge_zone`)
    or the rectangle given."""
    return {s: edge_zone(table, z, depth) if isinstance(z, str) else tuple(z)  # type: ignore[misc]
            for s, z in spec.items()}


def placement_problem(table: Table, model: Model, x: float, y: float, z: float, zone: Rect) -> str | None:
    """Why ``model`` may not be deployed with its base centre at (x, y, z) in ``zone``
    on ``table`` (None: it may)."""
    tol = CONTACT_TOLERANCE
    r, h = model.radius, model.hitbox_height
    if not all(math.isfinite(v) for v in (x, y, z)):
        return f"({x}, {y}, {z}) is not a point"
    disc = shapely.Point(x, y).buffer(r, quad_segs=32)
    if not shapely.box(*zone).buffer(tol).contains(disc):
        return f"its base at ({x:.2f}, {y:.2f}) is not wholly inside its zone {list(zone)} (E-DEPLOY)"
    if abs(z) <= tol:
        support = shapely.box(0, 0, table.width, table.depth)
    else:
        tops = [s.solid.footprint for s in table.scenery if s.walkable and abs(s.solid.z1 - z) <= tol]
        if not tops:
            return f"no surface at z = {z:g} (the table, or the top of a walkable piece)"
        support = shapely.union_all(tops)
    if disc.intersection(support).area < 0.5 * disc.area - 1e-9:
        return f"less than half its base is on the surface at z = {z:g} (E-DEPLOY)"
    for s in table.scenery:
        if s.solid.z1 > z + tol and s.solid.z0 < z + h - tol and \
                shapely.distance(s.solid.footprint, shapely.Point(x, y)) < r - tol:
            return f"its hitbox would be inside {s.id}"
    for o in table.models:
        if o.id == model.id:
            continue
        if math.hypot(o.x - x, o.y - y) < r + o.radius - tol and \
                min(o.z + o.hitbox_height, z + h) - max(o.z, z) > tol:
            return f"its hitbox would overlap {o.id}'s"
    return None


def deploy_spots(table: Table, model: Model, zone: Rect, rng: random.Random, n: int, tries: int = 40
                 ) -> list[tuple[float, float, float]]:
    """Up to ``n`` legal spots for ``model`` in ``zone``: points drawn uniformly in the zone,
    standing on the highest surface under them (a walkable top or the table)."""
    x0, y0, x1, y1 = zone
    r = model.radius
    out: list[tuple[float, float, float]] = []
    for _ in range(tries * max(1, n)):
        if len(out) >= n or x1 - x0 < 2 * r or y1 - y0 < 2 * r:
            break
        x, y = round(rng.uniform(x0 + r, x1 - r), 4), round(rng.uniform(y0 + r, y1 - r), 4)
        here = shapely.Point(x, y)
        zs = [float(s.solid.z1) for s in table.scenery if s.walkable and s.solid.footprint.covers(here)]
        z = max(zs, default=0.0)
        if placement_problem(table, model, x, y, z, zone) is None:
            out.append((x, y, z))
    return out


def zone_centre(zone: Sequence[float]) -> tuple[float, float]:
    return ((zone[0] + zone[2]) / 2, (zone[1] + zone[3]) / 2)
