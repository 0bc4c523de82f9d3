"""Random but plausible tables: walls, low walls, buildings, barrels, rocks, ruins.

Used by the benchmarks, the property tests and ``tools/make_scenarios.py``. Pure:
pass a ``random.Random``; the same seed gives the same table.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import shapely
from shapely import affinity
from shapely.geometry import Polygon

from ..errors import SkirmishError
from ..geometry.solids import Prism, disc
from ..maps.pieces import Model, Scenery
from ..maps.table import Table
from ..maps.tolerances import MAX_EXTENT
from ..rules.eldfall.sizes import SIZES
from ..rules.eldfall.weapons import BUILTIN_WEAPONS

KINDS = ("wall", "low-wall", "building", "barrel", "rock", "ruin")


def _rotated_rect(rng: random.Random, cx: float, cy: float, w: float, d: float) -> Polygon:
    poly = shapely.box(cx - w / 2, cy - d / 2, cx + w / 2, cy + d / 2)
    return affinity.rotate(poly, rng.choice([0, 0, 90, rng.uniform(0, 180)]), origin=(cx, cy))


def _rock(rng: random.Random, cx: float, cy: float) -> Polygon:
    n = rng.randint(5, 9)
    pts = []
    for i in range(n):
        a = 2 * math.pi * (i + rng.uniform(-0.3, 0.3)) / n
        r = rng.uniform(0.6, 1.6)
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    poly = Polygon(pts)
    return poly if poly.is_valid else poly.convex_hull


def _ruin(rng: random.Random, cx: float, cy: float) -> Polygon:
    a, b, t = rng.uniform(2.5, 5), rng.uniform(2.5, 5), rng.uniform(0.4, 0.7)
    poly = Polygon([(0, 0), (a, 0), (a, t), (t, t), (t, b), (0, b)])
    poly = affinity.rotate(poly, rng.choice([0, 90, 180, 270]), origin=(0, 0))
    return affinity.translate(poly, cx - a / 2, cy - b / 2)


def _scenery(rng: random.Random, i: int, kind: str, width: float, depth: float) -> Scenery:
    cx, cy = rng.uniform(3, width - 3), rng.uniform(3, depth - 3)
    circle = None
    walkable = False
    if kind == "wall":
        foot, h = _rotated_rect(rng, cx, cy, rng.uniform(3, 7), 0.5), rng.uniform(2.5, 4)
    elif kind == "low-wall":
        foot, h = _rotated_rect(rng, cx, cy, rng.uniform(3, 6), 0.4), rng.uniform(0.6, 1.0)
    elif kind == "building":
        foot, h, walkable = _rotated_rect(rng, cx, cy, rng.uniform(4, 7), rng.uniform(4, 6)), rng.choice([3.0, 4.0, 6.0]), True
    elif kind == "barrel":
        circle = (cx, cy, rng.uniform(0.5, 0.8))
        foot, h = disc(*circle), 1.2
    elif kind == "rock":
        foot, h = _rock(rng, cx, cy), rng.uniform(0.8, 2.5)
    else:
        foot, h = _ruin(rng, cx, cy), rng.uniform(2, 4)
    foot = shapely.geometry.polygon.orient(foot, 1.0)
    sid = f"{kind}-{i}"
    if circle is not None:
        return Scenery(sid, Prism(foot, 0.0, h, circle), "circle", circle, True, False)
    coords = tuple((round(x, 4), round(y, 4)) for x, y in foot.exterior.coords[:-1])
    foot = Polygon(coords)
    return Scenery(sid, Prism(shapely.geometry.polygon.orient(foot, 1.0), 0.0, round(h, 3)), "polygon", coords,
                   True, walkable)



def _free_spot(rng: random.Random, r: float, roofs: Sequence[Scenery], roof_share: float, width: float,
               depth: float, pieces: Sequence[Scenery], models: Sequence[Model], *, gap: float
               ) -> tuple[float, float, float] | None:
    """One random spot for a base of radius ``r``: on a walkable roof (a ``roof_share`` of
    the draws, wholly on it) or on the table ``gap`` clear of every piece, and ``gap``
    clear of the models on the same level; None when the drawn spot is refused. The
    draws come in a fixed order, so a seed always gives the same table."""
    if roofs and rng.random() < roof_share:
        roof = rng.choice(roofs)
        x0, y0, x1, y1 = roof.solid.footprint.bounds
        x, y, z = rng.uniform(x0, x1), rng.uniform(y0, y1), roof.top
        if not roof.solid.footprint.contains(shapely.Point(x, y).buffer(r)) or \
                not (r <= x <= width - r and r <= y <= depth - r):  # (a roof may reach past the table's edge)
            return None
    else:
        x, y, z = rng.uniform(r, width - r), rng.uniform(r, depth - r), 0.0
        if any(shapely.distance(shapely.Point(x, y), s.solid.footprint) < r + gap for s in pieces):
            return None
    if any(math.hypot(x - m.x, y - m.y) < r + m.radius + gap and abs(z - m.z) < 0.01 for m in models):
        return None
    return x, y, z


def random_table(rng: random.Random, *, models: int = 20, scenery: int = 25, width: float = 36.0,
                 depth: float = 36.0, roof_share: float = 0.2, sides: tuple[str, str] = ("red", "blue"),
                 sizes: str = "SMMMLLH") -> Table:
    """A table with ``scenery`` pieces and ``models`` models, a share of them on walkable roofs.
    A table side is 6..240 in; counts are whole numbers 0 or more; ``sizes`` letters of
    model sizes; ``sides`` two distinct names."""
    _check_args(models, scenery, width, depth, roof_share, sides, sizes)
    pieces: list[Scenery] = []
    kinds = ["building", "building", "building"] + [KINDS[k % len(KINDS)] for k in range(scenery)]
    for i, kind in enumerate(kinds[:scenery]):
        for _ in range(50):
            s = _scenery(rng, i, kind, width, depth)
            grown = s.solid.footprint.buffer(0.3)
            if all(not grown.intersects(o.solid.footprint) for o in pieces):
                pieces.append(s)
                break
    roofs = [s for s in pieces if s.walkable]
    placed: list[Model] = []
    attempts = 0
    while len(placed) < models and attempts < 20000:
        attempts += 1
        size = rng.choice(sizes)
        r = SIZES[size].diameter / 2
        spot = _free_spot(rng, r, roofs, roof_share, width, depth, pieces, placed, gap=0.05)
        if spot is None:
            continue
        x, y, z = spot
        side = sides[len(placed) % 2]
        attrs = {"AGI": rng.randint(4, 9), "SPD": rng.randint(4, 7), "STA": rng.randint(1, 3),
                 "MEL": rng.randint(8, 14), "ACC": rng.randint(8, 14), "ARM": rng.randint(0, 3), "HP": rng.randint(1, 4)}
        weapons = (BUILTIN_WEAPONS["sword"],) if rng.random() < 0.5 else (BUILTIN_WEAPONS["short-bow"],)
        placed.append(Model(f"{side}-{len(placed) // 2 + 1}", side, size, round(x, 3), round(y, 3), z,
                            float(rng.randrange(0, 360, 15)), attributes=attrs, weapons=weapons))
    return Table(width, depth, tuple(placed), tuple(pieces), name=f"generated ({len(placed)} models)")


def _check_args(models: object, scenery: object, width: object, depth: object, roof_share: object,
                sides: object, sizes: object) -> None:
    """:func:`random_table`'s arguments, or a :class:`SkirmishError` naming the one that is wrong."""
    for name, v in (("models", models), ("scenery", scenery)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise SkirmishError(f"random_table: {name} must be a whole number 0 or more, got {v!r}", kind="range")
    for name, v in (("width", width), ("depth", depth)):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 6 <= v <= MAX_EXTENT:
            raise SkirmishError(f"random_table: {name} must be 6..{MAX_EXTENT:g} in, got {v!r}", kind="range")
    if isinstance(roof_share, bool) or not isinstance(roof_share, (int, float)) or not 0 <= roof_share <= 1:
        raise SkirmishError(f"random_table: roof_share must be 0..1, got {roof_share!r}", kind="range")
    if not isinstance(sizes, str) or not sizes or any(c not in SIZES for c in sizes):
        raise SkirmishError(f"random_table: sizes must be letters of model sizes ({', '.join(SIZES)}), got {sizes!r}")
    if not (isinstance(sides, tuple) and len(sides) == 2 and all(isinstance(x, str) and x for x in sides)
            and sides[0] != sides[1]):
        raise SkirmishError(f"random_table: sides must be two distinct names, got {sides!r}")
