"""Rigid motions (and mirroring) of a whole table: every verdict must survive them."""

from __future__ import annotations

import dataclasses
import math

import shapely
from shapely import affinity

from ..errors import SkirmishError
from ..geometry.solids import Prism
from .pieces import Scenery
from .table import Table

#: The largest translation a rigid motion takes (inches).
MAX_OFFSET = 10_000.0


def _motion(x: float, y: float, angle: float, dx: float, dy: float, mirror: bool) -> tuple[float, float]:
    if mirror:
        y = -y
    a = math.radians(angle)
    c, s = math.cos(a), math.sin(a)
    return (c * x - s * y + dx, s * x + c * y + dy)


def rigid_motion(table: Table, angle: float = 0.0, dx: float = 0.0, dy: float = 0.0, *,
                 mirror: bool = False) -> Table:
    """The table moved as a whole: mirrored in the x axis (optional), rotated by
    ``angle`` degrees about the origin, then translated. Facings move with it. The
    table's nominal size is kept, so pieces may end up outside ``[0, w] × [0, d]``.
    ``angle`` is taken as its remainder in [0, 360) (positions and facings then turn by
    the same amount); the offsets are at most 10,000 in."""
    if not all(isinstance(v, (int, float)) and math.isfinite(v) for v in (angle, dx, dy)) \
            or abs(dx) > MAX_OFFSET or abs(dy) > MAX_OFFSET:
        raise SkirmishError(f"a rigid motion takes a finite angle (degrees) and offsets up to {MAX_OFFSET:g} in, "
                            f"got angle={angle!r}, dx={dx!r}, dy={dy!r}", kind="range")
    angle = float(angle) % 360.0

    def move_geom(g: shapely.Geometry) -> shapely.Geometry:
        if mirror:
            g = affinity.scale(g, 1.0, -1.0, origin=(0, 0))
        g = affinity.rotate(g, angle, origin=(0, 0))
        g = affinity.translate(g, dx, dy)
        return shapely.geometry.polygon.orient(g, 1.0)

    models = []
    for m in table.models:
        x, y = _motion(m.x, m.y, angle, dx, dy, mirror)
        facing = ((-m.facing if mirror else m.facing) + angle) % 360.0
        models.append(dataclasses.replace(m, x=x, y=y, facing=facing))
    scenery = []
    for s in table.scenery:
        foot = move_geom(s.solid.footprint)
        circle = None
        if s.solid.circle is not None:
            cx, cy = _motion(s.solid.circle[0], s.solid.circle[1], angle, dx, dy, mirror)
            circle = (cx, cy, s.solid.circle[2])
            params: tuple = circle
            shape = "circle"
        else:
            params = tuple(tuple(p) for p in foot.exterior.coords[:-1])
            shape = "polygon"
        ladders = tuple(_motion(x, y, angle, dx, dy, mirror) for x, y in s.ladders)
        scenery.append(Scenery(s.id, Prism(foot, s.solid.z0, s.solid.z1, circle), shape, params, s.blocks_los,
                               s.walkable, ladders))
    return dataclasses.replace(table, models=tuple(models), scenery=tuple(scenery))


