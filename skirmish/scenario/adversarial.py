"""Tables that make line of sight hard on purpose, and dense ones.

* :func:`dense_table` — 14–20 models among 20–60 pieces: walls at random angles, low
  walls, buildings with models on their roofs, bridges (floating decks, some with
  models on them), barrels, rocks and ruins.
* :func:`adversarial_table` — pairs of models facing each other with a hard case built
  between them: two wall ends nearly in line with the sight lines, a barrel tangent to
  a sight line, tops at exactly eye height, a model touching a wall, slots and windows
  from 0.05 mm to 1 mm wide, walls that abut at an angle.

Both are pure: pass a ``random.Random``; the same seed gives the same table. With
``clear_of_band=True`` the slots and windows keep out of the LoS certificate's band of
doubt (openings between 0.18 mm and 0.62 mm, where the best sight line through them
would keep between ε and 3ε, are not made, slots are not tilted, and barrels miss or
overlap the tangent sight line by 0.3-0.5 mm), so that the verdicts about them are forced.
"""

from __future__ import annotations

import math
import random

import shapely
from shapely import affinity
from shapely.geometry import Polygon

from ..geometry.solids import Prism, disc
from ..maps.pieces import Model, Scenery
from ..maps.table import Table
from ..rules.eldfall.sizes import SIZES
from .generate import _free_spot, _scenery

MM = 1 / 25.4
#: Features :func:`adversarial_table` builds, one per model pair.
FEATURES = ("ends", "tangent", "eye", "touch", "slot", "window", "abut")
#: Openings (mm) kept out when ``clear_of_band`` is set: from 2ε to 2ε + 4ε at ε = 0.1 mm,
#: widened a little.
BAND_MM = (0.18, 0.62)


def _poly_piece(sid: str, poly: Polygon, z0: float, z1: float, *, walkable: bool = False) -> Scenery:
    poly = shapely.geometry.polygon.orient(poly, 1.0)
    coords = tuple((float(x), float(y)) for x, y in poly.exterior.coords[:-1])
    return Scenery(sid, Prism(Polygon(coords), z0, z1), "polygon", coords, True, walkable)


def _round_piece(sid: str, cx: float, cy: float, r: float, h: float) -> Scenery:
    return Scenery(sid, Prism(disc(cx, cy, r), 0.0, h, (cx, cy, r)), "circle", (cx, cy, r), True, False)


def _bar(p: tuple[float, float], q: tuple[float, float], thick: float, *, from_edge: bool = False) -> Polygon:
    """A wall from p to q of the given thickness: centred on pq, or (``from_edge``) with
    one long face on pq."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    L = math.hypot(dx, dy)
    nx, ny = -dy / L, dx / L
    a, b = (0.0, thick) if from_edge else (-thick / 2, thick / 2)
    return Polygon([(p[0] + nx * a, p[1] + ny * a), (q[0] + nx * a, q[1] + ny * a),
                    (q[0] + nx * b, q[1] + ny * b), (p[0] + nx * b, p[1] + ny * b)])


def _model(mid: str, side: str, size: str, x: float, y: float, z: float, facing: float) -> Model:
    return Model(mid, side, size, round(x, 6), round(y, 6), z, round(facing % 360.0, 6))


def _opening(rng: random.Random, clear_of_band: bool) -> float:
    """A slot or window opening in inches, 0.05 mm to 1 mm."""
    while True:
        g = rng.uniform(0.05, 1.0)
        if not clear_of_band or not BAND_MM[0] < g < BAND_MM[1]:
            return g * MM


def _feature(rng: random.Random, kind: str, k: int, a: Model, b: Model, clear_of_band: bool) -> list[Scenery]:
    """The pieces of one hard case between the models ``a`` and ``b``."""
    ax, ay, bx, by = a.x, a.y, b.x, b.y
    L = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / L, (by - ay) / L
    nx, ny = -uy, ux

    def at(t: float, off: float = 0.0) -> tuple[float, float]:
        return (ax + ux * L * t + nx * off, ay + uy * L * t + ny * off)

    wall_h = rng.choice([rng.uniform(2.5, 4.0), max(a.hitbox_height, b.hitbox_height)])
    sid = f"{kind}-{k}"
    if kind == "ends":
        # two walls on opposite sides, their ends nearly in line with the sight lines
        s1 = rng.uniform(-0.4, 0.4)
        s2 = s1 + rng.choice([1, -1]) * rng.uniform(0.0, 0.08)
        t1, t2 = rng.uniform(0.3, 0.45), rng.uniform(0.55, 0.7)
        tilt1, tilt2 = rng.uniform(-60, 60), rng.uniform(-60, 60)
        e1, e2 = at(t1, s1), at(t2, s2)
        len1, len2 = rng.uniform(2, 4), rng.uniform(2, 4)
        d1 = affinity.rotate(shapely.Point(nx, ny), tilt1, origin=(0, 0))
        d2 = affinity.rotate(shapely.Point(-nx, -ny), tilt2, origin=(0, 0))
        th = rng.uniform(0.2, 0.5)
        w1 = _bar(e1, (e1[0] + d1.x * len1, e1[1] + d1.y * len1), th)
        w2 = _bar(e2, (e2[0] + d2.x * len2, e2[1] + d2.y * len2), th)
        return [_poly_piece(sid + "a", w1, 0.0, wall_h), _poly_piece(sid + "b", w2, 0.0, rng.uniform(2.5, 4.0))]
    if kind == "tangent":
        # a barrel tangent (within a hair) to a sight line between the two rims
        pa = (ax + nx * a.radius * rng.uniform(-1, 1), ay + ny * a.radius * rng.uniform(-1, 1))
        pb = (bx + nx * b.radius * rng.uniform(-1, 1), by + ny * b.radius * rng.uniform(-1, 1))
        t = rng.uniform(0.35, 0.65)
        cx, cy = pa[0] + (pb[0] - pa[0]) * t, pa[1] + (pb[1] - pa[1]) * t
        vx, vy = pb[0] - pa[0], pb[1] - pa[1]
        vl = math.hypot(vx, vy)
        r = rng.uniform(0.4, 0.8)
        hair = rng.uniform(0.3, 0.5) * rng.choice([1, -1]) if clear_of_band else rng.uniform(-0.2, 0.2)
        off = (r + hair * MM) * rng.choice([1, -1])
        h = rng.choice([1.2, a.z + a.hitbox_height, b.z + b.hitbox_height, 3.0])
        return [_round_piece(sid, cx - vy / vl * off, cy + vx / vl * off, r, h)]
    if kind == "eye":
        # a low wall across the line, its top exactly at one of the eye lines
        t = rng.uniform(0.35, 0.65)
        h = rng.choice([a.z + a.hitbox_height, b.z + b.hitbox_height])
        w = rng.uniform(1.5, 3.0)
        p, q = at(t, -w / 2), at(t, w / 2)
        return [_poly_piece(sid, affinity.rotate(_bar(p, q, 0.3), rng.uniform(-40, 40), origin=at(t)), 0.0, h)]
    if kind == "touch":
        # a wall in base contact with b, beside or behind it
        ang = math.atan2(ay - by, ax - bx) + math.pi + rng.uniform(-1.6, 1.6)
        cx, cy = bx + b.radius * math.cos(ang), by + b.radius * math.sin(ang)
        tx, ty = -math.sin(ang), math.cos(ang)
        w = rng.uniform(1.5, 3.0)
        p, q = (cx - tx * w / 2, cy - ty * w / 2), (cx + tx * w / 2, cy + ty * w / 2)
        return [_poly_piece(sid, _bar(q, p, 0.3, from_edge=True), 0.0, wall_h)]
    if kind == "slot":
        # two walls in line across the sight line, a slot of 0.05-1 mm between them
        g = _opening(rng, clear_of_band)
        t, s = rng.uniform(0.3, 0.7), rng.uniform(-0.3, 0.3) * min(a.radius, b.radius)
        tilt = 0.0 if clear_of_band else rng.uniform(-30, 30)  # (tilted, its channel narrows the view)
        c = at(t, s)
        w1 = _bar((c[0] + nx * g / 2, c[1] + ny * g / 2), (c[0] + nx * 3, c[1] + ny * 3), 0.3)
        w2 = _bar((c[0] - nx * g / 2, c[1] - ny * g / 2), (c[0] - nx * 3, c[1] - ny * 3), 0.3)
        return [_poly_piece(sid + "a", affinity.rotate(w1, tilt, origin=c), 0.0, wall_h),
                _poly_piece(sid + "b", affinity.rotate(w2, tilt, origin=c), 0.0, wall_h)]
    if kind == "window":
        # a wall with a window: jambs, a sill and a lintel (floating) around a 0.05-1 mm gap
        # in height (a letterbox at eye level) or in width (a slit)
        t = rng.uniform(0.35, 0.65)
        c = at(t, rng.uniform(-0.2, 0.2))
        top = rng.uniform(2.5, 3.5)
        eye = min(a.z + a.hitbox_height, b.z + b.hitbox_height) * rng.uniform(0.6, 1.0)
        g = _opening(rng, clear_of_band)
        if rng.random() < 0.5:
            half, sill, lintel = rng.uniform(0.3, 0.8), eye - g / 2, eye + g / 2
        else:
            half, sill, lintel = g / 2, 0.0, top
        jl = _bar((c[0] + nx * half, c[1] + ny * half), (c[0] + nx * 3, c[1] + ny * 3), 0.3)
        jr = _bar((c[0] - nx * half, c[1] - ny * half), (c[0] - nx * 3, c[1] - ny * 3), 0.3)
        mid = _bar((c[0] - nx * half, c[1] - ny * half), (c[0] + nx * half, c[1] + ny * half), 0.3)
        out = [_poly_piece(sid + "l", jl, 0.0, top), _poly_piece(sid + "r", jr, 0.0, top)]
        if sill > 0:
            out.append(_poly_piece(sid + "s", mid, 0.0, sill))
        if lintel < top:
            out.append(_poly_piece(sid + "t", mid, lintel, top))
        return out
    # "abut": two walls meeting at a corner at an angle, across the sight line
    t = rng.uniform(0.35, 0.65)
    corner = at(t, rng.uniform(-0.5, 0.5) * max(a.radius, b.radius))
    ang = rng.uniform(20, 160)
    base = math.atan2(ny, nx) + rng.uniform(-0.5, 0.5)
    l1, l2 = rng.uniform(1.5, 3), rng.uniform(1.5, 3)
    p1 = (corner[0] + l1 * math.cos(base), corner[1] + l1 * math.sin(base))
    p2 = (corner[0] + l2 * math.cos(base + math.radians(180 - ang) + math.pi),
          corner[1] + l2 * math.sin(base + math.radians(180 - ang) + math.pi))
    return [_poly_piece(sid + "a", _bar(corner, p1, 0.3, from_edge=True), 0.0, wall_h),
            _poly_piece(sid + "b", _bar(p2, corner, 0.3, from_edge=True), 0.0, rng.uniform(2.5, 4.0))]


def adversarial_table(rng: random.Random, *, pairs: int = 6, width: float = 30.0, depth: float = 30.0,
                      features: tuple[str, ...] = FEATURES, clear_of_band: bool = False) -> Table:
    """A table of ``pairs`` model pairs, each with one hard case (from ``features``,
    in turn) built between the two models. Features that would overlap a model or
    another feature are redrawn."""
    models: list[Model] = []
    pieces: list[Scenery] = []
    k = 0
    tries = 0
    while k < pairs and tries < 400:
        tries += 1
        kind = features[k % len(features)]
        sa, sb = rng.choice("SMMLLH"), rng.choice("SMMLLH")
        ra, rb = SIZES[sa].diameter / 2, SIZES[sb].diameter / 2
        ax, ay = rng.uniform(2, width - 2), rng.uniform(2, depth - 2)
        ang = rng.uniform(0, 2 * math.pi)
        dist = rng.uniform(5, 11)
        bx, by = ax + dist * math.cos(ang), ay + dist * math.sin(ang)
        if not (1 < bx < width - 1 and 1 < by < depth - 1):
            continue
        face = math.degrees(ang) + rng.uniform(-40, 40)
        a = _model(f"p{k}a", "red", sa, ax, ay, 0.0, face)
        b = _model(f"p{k}b", "blue", sb, bx, by, 0.0, face + 180 + rng.uniform(-60, 60))
        if kind == "eye" and rng.random() < 0.5:  # equal heights: the blocker is a model
            mid = _model(f"p{k}m", "red", sa, *_between(a, b, rng), 0.0, rng.uniform(0, 360))
            new_models, new_pieces = [a, b, mid], []
        else:
            new_models, new_pieces = [a, b], _feature(rng, kind, k, a, b, clear_of_band)
        if _fits(new_models, new_pieces, models, pieces, width, depth, ra, rb):
            models += new_models
            pieces += new_pieces
            k += 1
    name = f"adversarial ({len(models)} models)"
    return Table(width, depth, tuple(models), tuple(pieces), name=name)


def _between(a: Model, b: Model, rng: random.Random) -> tuple[float, float]:
    t = rng.uniform(0.4, 0.6)
    return (a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)


def _fits(new_models: list[Model], new_pieces: list[Scenery], models: list[Model], pieces: list[Scenery],
          width: float, depth: float, ra: float, rb: float) -> bool:
    """No overlap with what is already placed (a clearance of 0.3"), nothing inside a
    piece, everything on the table (within a margin)."""
    feet = [p.solid.footprint for p in new_pieces]
    bases = [shapely.Point(m.x, m.y).buffer(m.radius, quad_segs=8) for m in new_models]
    if feet:
        u = shapely.union_all(feet)
        if not shapely.box(-2, -2, width + 2, depth + 2).contains(u):
            return False
        if any(u.buffer(-1e-9).intersects(bs) for bs in bases):
            return False
    old = [p.solid.footprint for p in pieces] + [shapely.Point(m.x, m.y).buffer(m.radius + 0.3) for m in models]
    if not old:
        return True
    here = shapely.union_all(feet + bases).buffer(0.3)
    return not any(here.intersects(o) for o in old)


def dense_table(rng: random.Random, *, width: float = 36.0, depth: float = 36.0, models: int | None = None,
                pieces: int | None = None, roof_share: float = 0.3) -> Table:
    """A crowded table: ``models`` (default 14–20) among ``pieces`` (default 20–60) pieces:
    walls at random angles, low walls, buildings, bridges, barrels, rocks, ruins. Models
    stand on the ground, on roofs and on bridges."""
    n_models = models if models is not None else rng.randint(14, 20)
    n_pieces = pieces if pieces is not None else rng.randint(20, 60)
    mix = ["wall", "wall", "low-wall", "barrel", "rock", "ruin", "bridge", "building"]
    kinds = ["building", "building", "bridge"] + [rng.choice(mix) for _ in range(n_pieces)]
    placed: list[Scenery] = []
    for i, kind in enumerate(kinds[:n_pieces]):
        for _ in range(30):
            s = _bridge(rng, i, width, depth) if kind == "bridge" else _scenery(rng, i, kind, width, depth)
            if kind == "wall" and s.shape == "polygon":  # walls at random angles
                c = s.solid.footprint.centroid
                s = _poly_piece(s.id, affinity.rotate(s.solid.footprint, rng.uniform(0, 180), origin=c), 0.0, s.top)
            grown = s.solid.footprint.buffer(0.2)
            if all(not grown.intersects(o.solid.footprint) for o in placed):
                placed.append(s)
                break
    decks = [s for s in placed if s.walkable]
    out: list[Model] = []
    attempts = 0
    while len(out) < n_models and attempts < 200 * n_models + 1000:
        attempts += 1
        size = rng.choice("SMMMLLH")
        r = SIZES[size].diameter / 2
        spot = _free_spot(rng, r, decks, roof_share, width, depth, placed, out, gap=0.02)
        if spot is None:
            continue
        x, y, z = spot
        side = ("red", "blue")[len(out) % 2]
        out.append(_model(f"{side}-{len(out) // 2 + 1}", side, size, x, y, z, rng.randrange(0, 360, 5)))
    return Table(width, depth, tuple(out), tuple(placed), name=f"dense ({len(out)} models, {len(placed)} pieces)")


def _bridge(rng: random.Random, i: int, width: float, depth: float) -> Scenery:
    """A floating deck 2-3" up, 0.3" thick: sight passes under it; models may stand on it."""
    cx, cy = rng.uniform(3, width - 3), rng.uniform(3, depth - 3)
    foot = affinity.rotate(shapely.box(cx - rng.uniform(1.5, 3), cy - 0.9, cx + rng.uniform(1.5, 3), cy + 0.9),
                           rng.uniform(0, 180), origin=(cx, cy))
    z0 = round(rng.uniform(2.0, 3.0), 3)
    return _poly_piece(f"bridge-{i}", foot, z0, z0 + 0.3, walkable=True)
