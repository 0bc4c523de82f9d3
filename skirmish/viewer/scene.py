"""Engine answers → plain drawable values. Pure: no pyglet, no OpenGL.

A scene is a mapping from layer name to a list of primitives (:class:`Fill`,
:class:`Disc`, :class:`Line`, :class:`Dot`, :class:`Text`). World primitives are in
table inches; widths, dot radii, text sizes and text offsets are in screen pixels, so
lines stay crisp at every zoom. :mod:`.draw` turns them into pyglet vertex lists.

The builders only read the map's answers (LoS verdicts with witnesses and blockers,
measurements under the mode, reach bands, awareness) and draw them; they decide no rule.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Union

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import polylabel

from ..errors import MeasurementRefused, ScenarioError
from ..maps.pieces import Model, Scenery
from ..maps.results import LineOfSight
from ..maps.table import Table
from ..rules.eldfall.modes import Mode
from ..units import MM_PER_INCH
from . import palette as P
from .palette import Color

if TYPE_CHECKING:
    from ..game.eldfall.settings import GameSettings

Point2 = tuple[float, float]

#: World layers, bottom to top. ``underlay`` (movement range, template areas) lies over
#: the scenery and under the models; ``overlays`` (sight lines, rings, paths) on top.
WORLD_LAYERS = ("table", "scenery", "underlay", "models", "overlays")


# -- primitives ------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Fill:
    """Filled triangles ``(k, 3, 2)`` in world units: any polygon, holes included."""

    triangles: np.ndarray
    color: Color

    @classmethod
    def of(cls, geom: BaseGeometry, color: Color) -> Fill:
        """Triangulate a shapely (multi)polygon (concave and holed ones too)."""
        polys = [g for g in getattr(geom, "geoms", [geom]) if isinstance(g, Polygon) and not g.is_empty]
        tris = []
        for p in polys:
            if len(p.exterior.coords) == 5 and not p.interiors and _is_convex_ring(p):
                c = np.asarray(p.exterior.coords)[:4]
                tris.append(np.array([[c[0], c[1], c[2]], [c[0], c[2], c[3]]]))
                continue
            t = shapely.constrained_delaunay_triangles(p)
            if not t.is_empty:
                tris.append(shapely.get_coordinates(t).reshape(-1, 4, 2)[:, :3])
        arr = np.concatenate(tris) if tris else np.zeros((0, 3, 2))
        return cls(arr, color)

    @classmethod
    def rect(cls, x0: float, y0: float, x1: float, y1: float, color: Color) -> Fill:
        c = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], dtype=float)
        return cls(np.array([[c[0], c[1], c[2]], [c[0], c[2], c[3]]]), color)

    @classmethod
    def polygon(cls, points: Sequence[Point2] | np.ndarray, color: Color) -> Fill:
        return cls.of(Polygon(points), color)


def _is_convex_ring(p: Polygon) -> bool:
    return abs(p.convex_hull.area - p.area) <= 1e-9 * max(1.0, p.area)


@dataclass(frozen=True)
class Disc:
    """A filled circle of world radius ``r``."""

    x: float
    y: float
    r: float
    color: Color


@dataclass(frozen=True, eq=False)
class Line:
    """A polyline through world points; ``width`` and ``dash`` (on/off length) in pixels."""

    points: np.ndarray
    color: Color
    width: float = 1.5
    closed: bool = False
    dash: float | None = None

    @classmethod
    def seg(cls, a: Sequence[float], b: Sequence[float], color: Color, width: float = 1.5,
            dash: float | None = None) -> Line:
        return cls(np.array([a[:2], b[:2]], dtype=float), color, width, False, dash)

    @classmethod
    def ring(cls, x: float, y: float, r: float, color: Color, width: float = 1.5, dash: float | None = None,
             n: int = 96) -> Line:
        a = np.linspace(0, 2 * math.pi, n, endpoint=False)
        return cls(np.column_stack([x + r * np.cos(a), y + r * np.sin(a)]), color, width, True, dash)

    @classmethod
    def outline(cls, geom: BaseGeometry, color: Color, width: float = 1.5, dash: float | None = None) -> list[Line]:
        out = []
        for g in getattr(geom, "geoms", [geom]):
            if isinstance(g, Polygon):
                for ring in (g.exterior, *g.interiors):
                    out.append(cls(np.asarray(ring.coords)[:-1], color, width, True, dash))
        return out


@dataclass(frozen=True)
class Dot:
    """A marker of fixed screen radius (pixels) at a world point."""

    x: float
    y: float
    radius: float
    color: Color


@dataclass(frozen=True)
class Text:
    """A label at a world point, shifted by (dx, dy) pixels; ``box`` draws a backing plate."""

    x: float
    y: float
    text: str
    color: Color = P.INK
    size: float = 10.0
    anchor_x: Literal["left", "center", "right"] = "center"
    anchor_y: Literal["bottom", "center", "top", "baseline"] = "center"
    dx: float = 0.0
    dy: float = 0.0
    bold: bool = False
    box: Color | None = None
    #: other places for this label, best first, when it would overlap another
    #: (:func:`skirmish.viewer.labels.declutter`)
    alternatives: tuple[Text, ...] = ()


Prim = Union[Fill, Disc, Line, Dot, Text]
Scene = dict[str, list[Prim]]


def scaled_text(scene: Scene, k: float) -> Scene:
    """``scene`` with its world labels ``k`` times their size (and offsets): a small
    picture keeps its labels in proportion to the table."""
    if k == 1.0:
        return scene

    def one(t: Text) -> Text:
        return dataclasses.replace(t, size=t.size * k, dx=t.dx * k, dy=t.dy * k,
                                   alternatives=tuple(one(a) for a in t.alternatives))

    return {name: [one(p) if isinstance(p, Text) else p for p in prims] for name, prims in scene.items()}


def empty_scene() -> Scene:
    return {name: [] for name in WORLD_LAYERS}


def merge(*scenes: Scene) -> Scene:
    out = empty_scene()
    for s in scenes:
        for k, v in s.items():
            out.setdefault(k, []).extend(v)
    return out


def inches(v: float) -> str:
    """A length for a label: ``3"``, ``2.75"``.

    >>> inches(3.0), inches(2.754), inches(0.1234)
    ('3"', '2.75"', '0.12"')
    """
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return f'{"0" if s in ("-0", "") else s}"'


# -- the table, scenery and models --------------------------------------------------------------

def board(table: Table) -> list[Prim]:
    """The table top: its surface, an inch grid (bolder every 6"), the edge and rulers."""
    w, d = table.width, table.depth
    out: list[Prim] = [Fill.rect(0, 0, w, d, P.TABLE)]
    for major in (False, True):
        col, width = (P.GRID_MAJOR, 1.2) if major else (P.GRID_MINOR, 1.0)
        for x in range(1, int(math.ceil(w))):
            if (x % 6 == 0) == major:
                out.append(Line.seg((x, 0), (x, d), col, width))
        for y in range(1, int(math.ceil(d))):
            if (y % 6 == 0) == major:
                out.append(Line.seg((0, y), (w, y), col, width))
    out.append(Line(np.array([(0, 0), (w, 0), (w, d), (0, d)], float), P.TABLE_EDGE, 2.0, True))
    for x in range(0, int(w) + 1, 6):
        out.append(Text(x, 0, f"{x}", P.RULER_TEXT, 8, "center", "top", dy=-4))
    for y in range(6, int(d) + 1, 6):
        out.append(Text(0, y, f"{y}", P.RULER_TEXT, 8, "right", "center", dx=-5))
    return out


def scenery_fill(s: Scenery) -> Color:
    """The fill of a scenery piece: see-through green, or a shade of its top's height.
    Opaque, like everything on the table and scenery layers (drawn without blending)."""
    return P.SEE_THROUGH if not s.blocks_los else P.scenery_shade(s.top)


def height_text(s: Scenery) -> str:
    return f"{s.base:g}–{inches(s.top)}" if s.base > 0 else inches(s.top)


def _hatch(geom: Polygon, spacing: float) -> BaseGeometry:
    """Diagonal hatch lines clipped to ``geom`` (marks a walkable top)."""
    x0, y0, x1, y1 = geom.bounds
    span = (x1 - x0) + (y1 - y0)
    lines = [((x0 + k, y0), (x0 + k - span, y0 + span)) for k in np.arange(spacing / 2, 2 * span, spacing)]
    inner = geom.buffer(-min(0.08, spacing / 6))
    if inner.is_empty:
        return shapely.MultiLineString([])
    return shapely.MultiLineString(lines).intersection(inner)


def _label_point(geom: Polygon, covers: Sequence[BaseGeometry] = ()) -> Point2:
    """Where to print a piece's height: the most open spot of the part no higher piece
    or model covers (the whole footprint if that is nothing)."""
    free: BaseGeometry = geom
    near = [c for c in covers if c.intersects(geom)]
    if near:
        rest = geom.difference(shapely.union_all(near))
        parts = [g for g in getattr(rest, "geoms", [rest]) if isinstance(g, Polygon) and g.area > 1e-6]
        if parts and max(p.area for p in parts) > 0.08 * geom.area:
            free = max(parts, key=lambda p: p.area)
    if isinstance(free, Polygon) and free.is_valid:
        p = polylabel(free, tolerance=0.05)
        c = free.centroid  # centred when that is (nearly) as open: walls get the label mid-length
        if free.contains(c) and free.exterior.distance(c) >= 0.8 * free.exterior.distance(p):
            return (c.x, c.y)
        return (p.x, p.y)
    p = free.representative_point()
    return (p.x, p.y)


def scenery_prims(table: Table) -> list[Prim]:
    """Every scenery piece: filled (shaded by height), outlined, walkable tops hatched,
    floating pieces dashed, the height printed."""
    out: list[Prim] = []
    labels: list[Prim] = []
    pieces = sorted(table.scenery, key=lambda s: s.top)
    for k, s in enumerate(pieces):
        foot = s.solid.footprint
        fill = scenery_fill(s)
        out.append(Fill.of(foot, fill))
        if s.walkable:
            hatch = _hatch(foot, 0.45)
            for g in getattr(hatch, "geoms", [hatch]):
                if isinstance(g, LineString) and not g.is_empty:
                    out.append(Line(np.asarray(g.coords), P.mix(fill, P.lighter(fill, 0.3), 0.6), 1.0))
        edge = P.SEE_THROUGH_OUTLINE if not s.blocks_los else P.SCENERY_OUTLINE
        out += Line.outline(foot, edge, 1.5, dash=6.0 if s.base > 0 else None)
        for point in s.ladders:  # E-MOVE-LADDER: where a model climbs onto the top
            out += ladder_prims(foot, point)
        covers = [o.solid.footprint for o in pieces[k + 1:]] + [m.hitbox.footprint() for m in table.models]
        x, y = _label_point(foot, covers)
        if foot.exterior.distance(Point(x, y)) < 0.6:  # a thin piece: the label overflows it, give it a plate
            label = Text(x, y, height_text(s), P.INK, 8.5, bold=True, box=P.with_alpha(P.lighter(fill, 0.5), 215))
        else:
            label = Text(x, y, height_text(s), P.text_on(fill), 9, bold=True)
        labels.append(dataclasses.replace(label, alternatives=tuple(
            dataclasses.replace(label, dy=dy) for dy in (-15.0, 15.0, -30.0, 30.0))))
    return out + labels


def ladder_prims(foot: Polygon, point: tuple[float, float], length: float = 0.9) -> list[Prim]:
    """A ladder against the piece at ``point`` on its outline: two rails standing out from
    the edge (away from the footprint) and three rungs across them."""
    px, py = point
    cx, cy = foot.representative_point().coords[0]
    dx, dy = px - cx, py - cy
    edge = foot.exterior
    near = edge.interpolate(edge.project(Point(px, py)))  # (the outward normal of the edge there)
    ahead = edge.interpolate(edge.project(near) + 0.05)
    tx, ty = ahead.x - near.x, ahead.y - near.y
    n = math.hypot(tx, ty)
    if n > 1e-9:
        nx, ny = ty / n, -tx / n
        if nx * dx + ny * dy < 0:  # (pointing out of the piece)
            nx, ny = -nx, -ny
    else:
        d = math.hypot(dx, dy) or 1.0
        nx, ny = dx / d, dy / d
    half = 0.22
    out: list[Prim] = []
    for side in (-1.0, 1.0):
        bx, by = px + side * half * ny * -1, py + side * half * nx
        out.append(Line.seg((bx, by), (bx + length * nx, by + length * ny), P.LADDER, 2.5))
    for k in (0.25, 0.55, 0.85):
        mx, my = px + k * length * nx, py + k * length * ny
        out.append(Line.seg((mx + half * ny, my - half * nx), (mx - half * ny, my + half * nx), P.LADDER, 2.0))
    return out


def model_prims(table: Table, colors: dict[str, Color]) -> list[Prim]:
    """Every model: its base disc in its side's colour, the shaded front arc, a facing
    arrow, its id and, above the table, an elevation badge."""
    out: list[Prim] = []
    labels: list[Prim] = []
    for m in sorted(table.models, key=lambda m: m.z):
        col = colors[m.side]
        out += _model_glyph(m, col)
        flat = bool(m.states & {"Crouched", "Dead", "Prone"})
        name = m.id + (f" · {', '.join(sorted(m.states))}" if m.states else "")
        above = Text(m.x, m.y + m.radius, name, P.INK, 9, "center", "bottom", dy=5, box=P.LABEL_BOX, bold=not flat)
        labels.append(dataclasses.replace(above, alternatives=(
            dataclasses.replace(above, y=m.y - m.radius, anchor_y="top", dy=-5),  # below the base
            dataclasses.replace(above, x=m.x + m.radius, y=m.y, anchor_x="left", anchor_y="center", dx=5, dy=0),
            dataclasses.replace(above, x=m.x - m.radius, y=m.y, anchor_x="right", anchor_y="center", dx=-5, dy=0),
            dataclasses.replace(above, dy=20),
        )))
        if m.z > 0:
            labels.append(Text(m.x + m.radius * 0.7, m.y - m.radius * 0.7, f"↑{inches(m.z)}", P.WHITE, 8,
                               "left", "top", dx=2, dy=-1, box=P.BADGE, bold=True))
    return out + labels


def _model_glyph(m: Model, col: Color, alpha: int = 255) -> list[Prim]:
    r = m.radius
    fx, fy = m.facing_vector
    base = math.radians(m.facing)
    a = np.linspace(base - math.pi / 2, base + math.pi / 2, 33)
    outer = np.column_stack([m.x + 1.45 * r * np.cos(a), m.y + 1.45 * r * np.sin(a)])
    inner = np.column_stack([m.x + r * np.cos(a[::-1]), m.y + r * np.sin(a[::-1])])
    front = Fill.polygon(np.vstack([outer, inner]), P.with_alpha(col, min(alpha, 85)))
    flat = bool(m.states & {"Crouched", "Dead", "Prone"})
    disc_col = P.with_alpha(col, alpha)
    out: list[Prim] = [front, Disc(m.x, m.y, r, disc_col),
                       Line.ring(m.x, m.y, r, P.with_alpha(P.darker(col, 0.45), alpha), 2.0, dash=4.0 if flat else None,
                                 n=48)]
    tip = (m.x + fx * 1.32 * r, m.y + fy * 1.32 * r)
    out.append(Line.seg((m.x + fx * 0.4 * r, m.y + fy * 0.4 * r), (m.x + fx * 1.05 * r, m.y + fy * 1.05 * r),
                        P.with_alpha(P.WHITE, alpha), 2.5))
    px, py = -fy, fx
    head = [(tip[0], tip[1]), (m.x + fx * 0.98 * r + px * 0.22 * r, m.y + fy * 0.98 * r + py * 0.22 * r),
            (m.x + fx * 0.98 * r - px * 0.22 * r, m.y + fy * 0.98 * r - py * 0.22 * r)]
    out.append(Fill.polygon(head, P.with_alpha(P.WHITE, alpha)))
    return out


def deployment_zones(table: Table) -> dict[str, tuple[float, float, float, float]]:
    """E-DEPLOY: the zones of the sides with models still waiting in the reserve, where the
    scenario's ``[game] zones`` fixes them (without it the second side chooses its edge
    in play, so there is no zone to draw)."""
    waiting = _waiting_sides(table)
    settings = _game_settings(table) if waiting else None
    if settings is None or not settings.zones:
        return {}
    from ..game.eldfall.deploy import zone_rects

    return {s: r for s, r in zone_rects(table, settings.zones, settings.zone_depth).items() if s in waiting}


def _waiting_sides(table: Table) -> set[str]:
    placed = set(table.model_ids)
    return {m.side for m in table.catalogue.reserve if m.id not in placed}


def _game_settings(table: Table) -> GameSettings | None:
    """The table's ``[game]`` as a game reads it (None where it no longer fits the table,
    as a picture of an edited table may find: the picture draws no zone then)."""
    from ..game.eldfall.settings import parse_settings

    try:
        return parse_settings(table.catalogue.game, table, table.source or "<scenario>")
    except ScenarioError:
        return None


def zone_prims(table: Table, colors: dict[str, Color]) -> list[Prim]:
    """The deployment zones of the sides still in the reserve (:func:`deployment_zones`):
    a tint of the side's colour, a dashed edge and a caption."""
    out: list[Prim] = []
    for side, (x0, y0, x1, y1) in deployment_zones(table).items():
        col = colors.get(side, P.PANEL_DIM)
        out.append(Fill.rect(x0, y0, x1, y1, P.with_alpha(col, 40)))
        out.append(Line(np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], float), P.with_alpha(col, 200), 2.0,
                        True, dash=10.0))
        out.append(Text((x0 + x1) / 2, (y0 + y1) / 2, f"{side} deploys here", P.with_alpha(col, 230), 11, bold=True))
    return out


def table_scene(table: Table, colors: dict[str, Color] | None = None) -> Scene:
    """The static picture of a table: board (with the deployment zones of the sides still
    in the reserve), scenery, models."""
    colors = {**P.side_colors(table.all_sides()), **(colors or {})}
    s = empty_scene()
    s["table"] = board(table) + zone_prims(table, colors)
    s["scenery"] = scenery_prims(table)
    s["models"] = model_prims(table, colors)
    return s


# -- selection: awareness, reach, line of sight ----------------------------------------------------

def _rim(m: Model, toward: Point2) -> Point2:
    dx, dy = toward[0] - m.x, toward[1] - m.y
    d = math.hypot(dx, dy)
    if d < 1e-12:
        return (m.x, m.y)
    return (m.x + dx / d * m.radius, m.y + dy / d * m.radius)


def los_color(r: LineOfSight) -> Color:
    """Green when visible, red when blocked, grey when out of arc."""
    return P.LOS_VISIBLE if r.visible else (P.LOS_OUT_OF_ARC if r.reason == "out_of_arc" else P.LOS_BLOCKED)


def los_line(table: Table, r: LineOfSight, width: float = 2.5) -> list[Prim]:
    """One verdict: green along the witness; red (blocked) or grey dashed (out of arc)
    between the bases."""
    col = los_color(r)
    if r.visible and r.witness is not None:
        (ax, ay, _), (bx, by, _) = r.witness
        return [Line.seg((ax, ay), (bx, by), col, width), Dot(ax, ay, width + 1.5, col), Dot(bx, by, width + 1.5, col)]
    ma, mb = table.model(r.frm), table.model(r.to)
    a, b = _rim(ma, (mb.x, mb.y)), _rim(mb, (ma.x, ma.y))
    if r.reason == "out_of_arc":
        return [Line.seg(a, b, col, max(1.5, width - 1), dash=7.0)]
    return [Line.seg(a, b, col, width)]


def piece_footprint(table: Table, piece_id: str) -> Polygon:
    p = table.piece(piece_id)
    return p.hitbox.footprint() if isinstance(p, Model) else p.solid.footprint


def blocker_prims(table: Table, blockers: Iterable[str]) -> list[Prim]:
    """The pieces a blocked verdict names, highlighted in red."""
    out: list[Prim] = []
    for b in dict.fromkeys(blockers):
        foot = piece_footprint(table, b)
        out.append(Fill.of(foot, P.BLOCKER_FILL))
        out += Line.outline(foot, P.LOS_BLOCKED, 3.0)
    return out


def ring_on_table(table: Table, x: float, y: float, r: float, color: Color, width: float = 1.5,
                  dash: float | None = None, n: int = 160) -> list[Line]:
    """A ring round (x, y) as far as it lies on the table: whole where it does, else its
    arcs within the table's edges (nothing where it lies wholly off)."""
    ring = Line.ring(x, y, r, color, width, dash, n)
    w, d = table.width, table.depth
    if x - r >= 0 and y - r >= 0 and x + r <= w and y + r <= d:
        return [ring]
    arcs = LineString(np.vstack([ring.points, ring.points[:1]])).intersection(shapely.box(0, 0, w, d))
    return [Line(np.asarray(g.coords), color, width, False, dash)
            for g in getattr(arcs, "geoms", [arcs]) if isinstance(g, LineString) and not g.is_empty]


def on_table_angle(table: Table, x: float, y: float, r: float, preferred: float, margin: float = 0.6) -> float | None:
    """The angle (radians) nearest ``preferred`` at which the point at ``r`` from (x, y)
    lies on the table, ``margin`` inches in from its edges, for a ring's label (None:
    the ring never comes that far onto the table)."""
    for k in range(36):
        a = preferred + math.radians(10 * ((k + 1) // 2) * (1 if k % 2 else -1))
        px, py = x + r * math.cos(a), y + r * math.sin(a)
        if margin <= px <= table.width - margin and margin <= py <= table.depth - margin:
            return a
    return None


def awareness_prims(table: Table, m: Model) -> list[Prim]:
    """The Awareness ring (E-AWARE) on the table, labelled."""
    if m.awareness is None:
        return []
    r = m.radius + m.awareness
    out: list[Prim] = list(ring_on_table(table, m.x, m.y, r, P.AWARENESS, 2.0, dash=9.0))
    a = on_table_angle(table, m.x, m.y, r, math.pi / 2)
    if a is not None:
        out.append(Text(m.x + r * math.cos(a), m.y + r * math.sin(a), f"Awareness {inches(m.awareness)}",
                        P.AWARENESS, 9, box=P.BADGE, bold=True))
    return out


def reach_prims(table: Table, m: Model) -> list[Prim]:
    """Each weapon's reach bands as rings from the base edge (E-REACH, in plan at the
    model's level) as far as they lie on the table, labelled with the band's limit and
    Accuracy modifier."""
    out: list[Prim] = []
    for i, w in enumerate(m.weapons):
        col = P.REACH[i % len(P.REACH)]
        for j, band in enumerate(w.bands):
            r = m.radius + band.max_range
            out += ring_on_table(table, m.x, m.y, r, col, 1.8 if j == len(w.bands) - 1 else 1.2)
            acc = f" {band.accuracy:+d}" if w.ranged else ""
            label = f"{w.name} ≤{inches(band.max_range)}{acc}" if w.ranged else f"{w.name} {inches(band.max_range)}"
            a = on_table_angle(table, m.x, m.y, r, math.radians(-60 - 22 * i))
            if a is not None:
                out.append(Text(m.x + r * math.cos(a), m.y + r * math.sin(a), label, P.WHITE, 8,
                                box=P.with_alpha(col, 220)))
    return out


def selection_scene(table: Table, model_id: str, sight: Sequence[LineOfSight], *, target: str | None = None,
                    colors: dict[str, Color] | None = None) -> Scene:
    """A selected model: highlight, Awareness ring, reach bands, and its LoS to every
    other model (``sight``: the map's verdicts, ``frm == model_id``)."""
    m = table.model(model_id)
    s = empty_scene()
    over = s["overlays"]
    over += awareness_prims(table, m)
    over += reach_prims(table, m)
    blocked = [b for r in sight if not r.visible and r.reason == "blocked" for b in r.blockers]
    s["underlay"] += blocker_prims(table, blocked)
    for r in sight:
        over += los_line(table, r, 3.5 if r.to == target else 2.5)
    over.append(Line.ring(m.x, m.y, m.radius + 0.12, P.SELECTED, 3.0, n=64))
    if target is not None and target != model_id:
        t = table.model(target)
        over.append(Line.ring(t.x, t.y, t.radius + 0.12, P.TARGET, 3.0, n=64))
    return s


def all_sight_scene(table: Table, sight: Sequence[LineOfSight]) -> Scene:
    """Who sees whom: a thin green witness for every visible ordered pair."""
    s = empty_scene()
    for r in sight:
        if r.visible and r.witness is not None:
            (ax, ay, _), (bx, by, _) = r.witness
            s["overlays"].append(Line.seg((ax, ay), (bx, by), P.with_alpha(P.LOS_VISIBLE, 170), 1.5))
    return s


# -- measuring (E-DIST under E-MODE) ------------------------------------------------------------

@dataclass(frozen=True)
class MeasureAnswer:
    """What the measuring model may learn, ready to draw: the segment (clipped at the
    Standard-mode limit when withheld), the label, or the refusal."""

    frm: str
    to: str | None
    start: Point2
    end: Point2
    distance: float | None
    beyond: float | None
    refused: str | None
    mode: Mode

    @property
    def label(self) -> str:
        if self.refused is not None:
            return f"{self.mode.value}: measuring refused"
        if self.distance is not None:
            return f"{inches(self.distance)} ({self.distance * MM_PER_INCH:.0f} mm)"
        return f"beyond {inches(self.beyond or 0.0)} ({self.mode.value})"


def measure(table: Table, a: str, target: str | Point2) -> MeasureAnswer:
    """Measure from model ``a`` to a model id or a plan point on ``a``'s level, as the
    table's measurement mode allows (the map and the mode policy decide)."""
    ma = table.model(a)
    mode = table.mode
    if isinstance(target, str):
        mb = table.model(target)
        to: str | None = target
        goal: Point2 = (mb.x, mb.y)
        try:
            m = table.measure(a, target)
        except MeasurementRefused as exc:
            return MeasureAnswer(a, to, _rim(ma, goal), goal, None, None, str(exc), mode)
        if m.distance is not None and m.nearest is not None:
            return MeasureAnswer(a, to, m.nearest[0][:2], m.nearest[1][:2], m.distance, None, None, mode)
        return _clipped(ma, to, goal, m.beyond or 0.0, mode)
    goal = (float(target[0]), float(target[1]))
    try:
        pm = table.measure_point(a, goal)
    except MeasurementRefused as exc:
        return MeasureAnswer(a, None, _rim(ma, goal), goal, None, None, str(exc), mode)
    if pm.distance is not None and pm.nearest is not None:
        return MeasureAnswer(a, None, pm.nearest[0][:2], pm.nearest[1][:2], pm.distance, None, None, mode)
    return _clipped(ma, None, goal, pm.beyond or 0.0, mode)


def _clipped(ma: Model, to: str | None, goal: Point2, beyond: float, mode: Mode) -> MeasureAnswer:
    start = _rim(ma, goal)
    dx, dy = goal[0] - ma.x, goal[1] - ma.y
    d = math.hypot(dx, dy) or 1.0
    end = (start[0] + dx / d * beyond, start[1] + dy / d * beyond)
    return MeasureAnswer(ma.id, to, start, end, None, beyond, None, mode)


def measure_prims(ans: MeasureAnswer) -> list[Prim]:
    if ans.refused is not None:
        return [Line.seg(ans.start, ans.end, P.with_alpha(P.REFUSED, 160), 2.0, dash=5.0),
                Text(ans.end[0], ans.end[1], "refused", P.WHITE, 10, dy=14, box=P.with_alpha(P.REFUSED, 230),
                     bold=True)]
    col = P.MEASURE if ans.distance is not None else P.MEASURE_CLIPPED
    out: list[Prim] = [Line.seg(ans.start, ans.end, P.WHITE, 5.0), Line.seg(ans.start, ans.end, col, 2.5),
                       Dot(ans.start[0], ans.start[1], 4, col), Dot(ans.end[0], ans.end[1], 4, col)]
    if ans.distance is None:  # withheld: mark the limit
        out.append(Dot(ans.end[0], ans.end[1], 7, P.with_alpha(col, 120)))
    mx, my = (ans.start[0] + ans.end[0]) / 2, (ans.start[1] + ans.end[1]) / 2
    out.append(Text(mx, my, ans.label, P.WHITE, 10, dy=14, box=P.with_alpha(col, 230), bold=True))
    return out


# -- the profile: a vertical slice between two models ---------------------------------------------

Role = Literal["viewer", "target", "blocker", "other"]


@dataclass(frozen=True)
class SliceBox:
    """A solid cut by the slice: the interval ``[s0, s1]`` along the slice × its height."""

    id: str
    kind: Literal["model", "scenery"]
    s0: float
    s1: float
    z0: float
    z1: float
    role: Role
    color: Color
    blocks_los: bool = True


@dataclass(frozen=True)
class Profile:
    """The vertical slice along a sight line: what stands on it, and the witness.

    ``along`` is ``"witness"`` when the slice follows the witness's plan line (visible),
    else ``"centres"`` (through both base centres). ``s`` runs from ``origin`` along
    ``direction`` in inches; ``front`` is the part of the viewer's cut in its front arc.
    """

    verdict: LineOfSight
    along: Literal["witness", "centres"]
    origin: Point2
    direction: Point2
    s_range: tuple[float, float]
    z_top: float
    boxes: tuple[SliceBox, ...]
    witness: tuple[Point2, Point2] | None
    front: tuple[float, float] | None
    off_slice: tuple[str, ...] = field(default=())

    def box(self, piece_id: str) -> SliceBox | None:
        return next((b for b in self.boxes if b.id == piece_id), None)


def _chord(geom_or_circle: Polygon | tuple[float, float, float], o: Point2, u: Point2,
           lo: float, hi: float) -> list[tuple[float, float]]:
    """Intervals of s in [lo, hi] where o + s·u lies in the footprint."""
    if isinstance(geom_or_circle, tuple):
        cx, cy, r = geom_or_circle
        t0 = (cx - o[0]) * u[0] + (cy - o[1]) * u[1]
        perp = abs((cx - o[0]) * u[1] - (cy - o[1]) * u[0])
        if perp >= r:
            return []
        half = math.sqrt(r * r - perp * perp)
        a, b = max(lo, t0 - half), min(hi, t0 + half)
        return [(a, b)] if b > a else []
    seg = LineString([(o[0] + lo * u[0], o[1] + lo * u[1]), (o[0] + hi * u[0], o[1] + hi * u[1])])
    cut = seg.intersection(geom_or_circle)
    out = []
    for g in getattr(cut, "geoms", [cut]):
        if isinstance(g, LineString) and not g.is_empty and g.length > 1e-9:
            ss = [(x - o[0]) * u[0] + (y - o[1]) * u[1] for x, y in g.coords]
            out.append((min(ss), max(ss)))
    return out


def profile_slice(table: Table, verdict: LineOfSight, colors: dict[str, Color] | None = None, *,
                  aspect: float | None = None) -> Profile:
    """The slice that settles a LoS argument between ``verdict.frm`` and ``verdict.to``.

    With ``aspect`` (the panel's width / height), the slice is widened along its line,
    within the table, to fill a panel of that shape at true scale.
    """
    colors = colors or P.side_colors(table.sides)
    ma, mb = table.model(verdict.frm), table.model(verdict.to)
    along: Literal["witness", "centres"] = "centres"
    o, q = (ma.x, ma.y), (mb.x, mb.y)
    if verdict.visible and verdict.witness is not None:
        w0, w1 = verdict.witness
        if math.hypot(w1[0] - w0[0], w1[1] - w0[1]) > 1e-6:
            o, q, along = (w0[0], w0[1]), (w1[0], w1[1]), "witness"
    length = math.hypot(q[0] - o[0], q[1] - o[1])
    if length < 1e-9:
        u = ma.facing_vector
    else:
        u = ((q[0] - o[0]) / length, (q[1] - o[1]) / length)
    far = 4 * (table.width + table.depth)
    ca = _chord((ma.x, ma.y, ma.radius), o, u, -far, far)
    cb = _chord((mb.x, mb.y, mb.radius), o, u, -far, far)
    ends = [0.0, length] + [v for iv in ca + cb for v in iv]
    lo, hi = min(ends) - 1.0, max(ends) + 1.0
    boxes = _slice_boxes(table, verdict, o, u, lo, hi, colors)
    z_top = max([b.z1 for b in boxes] + [ma.hitbox.top, mb.hitbox.top, 1.0])
    if aspect is not None:
        want = aspect * (z_top * 1.27 + 0.3)
        if hi - lo < want:
            on_table = _chord(shapely.box(0, 0, table.width, table.depth), o, u, -far, far)
            t0, t1 = (on_table[0] if on_table else (lo, hi))
            extra = (want - (hi - lo)) / 2
            nlo, nhi = max(min(lo, t0), lo - extra), min(max(hi, t1), hi + extra)
            if nhi - nlo < want:  # one side hit the edge: give the rest to the other
                nlo = max(min(lo, t0), nhi - want)
                nhi = min(max(hi, t1), nlo + want)
            lo, hi = nlo, nhi
            boxes = _slice_boxes(table, verdict, o, u, lo, hi, colors)
            z_top = max([b.z1 for b in boxes] + [ma.hitbox.top, mb.hitbox.top, 1.0])
    witness = None
    if verdict.visible and verdict.witness is not None:
        w0, w1 = verdict.witness
        sw = [((p[0] - o[0]) * u[0] + (p[1] - o[1]) * u[1], p[2]) for p in (w0, w1)]
        witness = (sw[0], sw[1])
    front = None
    if ca:
        fx, fy = ma.facing_vector
        k = (o[0] - ma.x) * fx + (o[1] - ma.y) * fy  # front: k + s·(u·f) >= 0
        uf = u[0] * fx + u[1] * fy
        a0, a1 = ca[0]
        if abs(uf) < 1e-12:
            front = (a0, a1) if k >= 0 else None
        else:
            t = -k / uf
            f0, f1 = (max(a0, t), a1) if uf > 0 else (a0, min(a1, t))
            front = (f0, f1) if f1 > f0 else None
    cut = {b.id for b in boxes}
    off = tuple(b for b in verdict.blockers if b not in cut)
    return Profile(verdict, along, o, u, (lo, hi), z_top, tuple(boxes), witness, front, off)


def _slice_boxes(table: Table, verdict: LineOfSight, o: Point2, u: Point2, lo: float, hi: float,
                 colors: dict[str, Color]) -> list[SliceBox]:
    blockers = set(verdict.blockers)
    boxes: list[SliceBox] = []
    for m in table.models:
        for s0, s1 in _chord((m.x, m.y, m.radius), o, u, lo, hi):
            role: Role = ("viewer" if m.id == verdict.frm else "target" if m.id == verdict.to else
                          "blocker" if m.id in blockers else "other")
            c = m.hitbox
            boxes.append(SliceBox(m.id, "model", s0, s1, c.z, c.top, role, colors[m.side]))
    for sc in table.scenery:
        shape = sc.solid.circle if sc.solid.circle is not None else sc.solid.footprint
        for s0, s1 in _chord(shape, o, u, lo, hi):
            boxes.append(SliceBox(sc.id, "scenery", s0, s1, sc.base, sc.top,
                                  "blocker" if sc.id in blockers else "other", scenery_fill(sc), sc.blocks_los))
    return boxes


def profile_prims(prof: Profile) -> list[Prim]:
    """The slice in its own plane: ``x`` is the distance along the slice, ``y`` the height."""
    lo, hi = prof.s_range
    top = prof.z_top * 1.15 + 0.3
    out: list[Prim] = [Fill.rect(lo, 0, hi, top, P.PROFILE_SKY)]
    for z in range(1, int(top) + 1):
        out.append(Line.seg((lo, z), (hi, z), (70, 78, 88, 255), 1.0))
        out.append(Text(lo, z, inches(z), P.PANEL_DIM, 8, "right", "center", dx=-4))
    out.append(Fill.rect(lo, -0.12 * top, hi, 0, P.PROFILE_GROUND))
    labels: list[Prim] = []
    order = {"other": 0, "blocker": 1, "target": 2, "viewer": 2}
    for b in sorted(prof.boxes, key=lambda b: (b.kind == "model", order[b.role])):
        col = b.color if b.kind == "scenery" else P.mix(P.PROFILE_SKY, b.color, 235 / 255)  # a touch see-through
        out.append(Fill.rect(b.s0, b.z0, b.s1, b.z1, col))
        edge = P.LOS_BLOCKED if b.role == "blocker" else (P.SCENERY_OUTLINE if b.kind == "scenery" else P.darker(b.color))
        out.append(Line(np.array([(b.s0, b.z0), (b.s1, b.z0), (b.s1, b.z1), (b.s0, b.z1)]), edge,
                        3.0 if b.role == "blocker" else 1.2, True, None if b.blocks_los else 5.0))
        if b.kind == "model" or b.role == "blocker" or (b.s1 - b.s0) * 1 > 0.8:
            labels.append(Text((b.s0 + b.s1) / 2, b.z1, b.id, P.LOS_BLOCKED if b.role == "blocker" else P.PANEL_TEXT,
                               8, "center", "bottom", dy=2, bold=b.kind == "model"))
    viewer = next((b for b in prof.boxes if b.role == "viewer"), None)
    if viewer is not None and prof.front is not None:
        f0, f1 = prof.front
        for a0, a1 in ((viewer.s0, f0), (f1, viewer.s1)):  # the back part of the viewer's cut
            if a1 - a0 > 1e-6:
                out.append(Fill.rect(a0, viewer.z0, a1, viewer.z1, (0, 0, 0, 120)))
    if prof.witness is not None:
        (s0, z0), (s1, z1) = prof.witness
        out += [Line.seg((s0, z0), (s1, z1), P.LOS_VISIBLE, 3.0), Dot(s0, z0, 4.5, P.LOS_VISIBLE),
                Dot(s1, z1, 4.5, P.LOS_VISIBLE)]
    return out + labels


def profile_caption(prof: Profile) -> tuple[str, str]:
    """Title and explanation lines of a profile panel."""
    v = prof.verdict
    if v.visible:
        title = f"{v.frm} → {v.to}: VISIBLE"
        sub = "slice along the witness: a sight line from the front half that touches no other solid's interior"
    elif v.reason == "out_of_arc":
        title = f"{v.frm} → {v.to}: NOT VISIBLE — out of arc"
        sub = f"{v.to} is wholly behind {v.frm}'s front arc (slice through both centres)"
    else:
        title = f"{v.frm} → {v.to}: NOT VISIBLE — blocked by {', '.join(v.blockers)}"
        sub = (f"proof: no sight line keeps more than {v.tolerance * MM_PER_INCH:.2g} mm clear of them "
               f"(slice through both centres)")
        if prof.off_slice:
            sub += f"; off this slice: {', '.join(prof.off_slice)}"
    return title, sub


# -- screen-space UI: legend, panels, help ---------------------------------------------------------

@dataclass(frozen=True)
class LegendItem:
    """One legend row: a swatch (fill), a line, a dashed line, a ring, a hatch, or a heading."""

    kind: Literal["title", "heading", "text", "fill", "line", "dashed", "ring", "hatch", "disc"]
    label: str
    color: Color = P.PANEL_TEXT


def legend_items(table: Table, *, sight: bool = False, selection: Model | None = None,
                 extra: Sequence[LegendItem] = ()) -> list[LegendItem]:
    """The legend of a picture of ``table``: sides, scenery shades, and what overlays mean."""
    colors = P.side_colors(table.all_sides())
    title = table.name or (table.source.rsplit("/", 1)[-1] if table.source else "table")
    items = [LegendItem("title", title),
             LegendItem("text", f'{table.width:g}" × {table.depth:g}" · {table.mode.value} mode · 1 square = 1"',
                        P.PANEL_DIM),
             LegendItem("heading", "Sides")]
    for side in table.all_sides():
        n = len(table.models_of_side(side)) if side in table.sides else 0
        waiting = sum(m.side == side for m in table.catalogue.reserve)
        text = f"{side} ({n} model{'s' if n != 1 else ''}" + (f", {waiting} in reserve" if waiting else "")
        items.append(LegendItem("disc", text + ")", colors[side]))
    zoned = deployment_zones(table)
    for side in zoned:
        items.append(LegendItem("dashed", f"{side}'s deployment zone (E-DEPLOY)", colors[side]))
    settings = _game_settings(table) if _waiting_sides(table) and not zoned else None
    if settings is not None:
        items += [LegendItem("text", f"the reserve deploys in a strip {inches(settings.zone_depth)} deep", P.PANEL_DIM),
                  LegendItem("text", "along an edge chosen in play", P.PANEL_DIM)]
    items.append(LegendItem("text", "arrow: facing · tint: front arc · ↑ z: elevation", P.PANEL_DIM))
    items.append(LegendItem("heading", "Scenery (shade: height of the top)"))
    tops = sorted({round(s.top, 2) for s in table.scenery if s.blocks_los})
    picks = sorted(set(tops[:: max(1, len(tops) // 4)] + tops[-1:])) if tops else []
    for t in picks:
        items.append(LegendItem("fill", f"top at {inches(t)}", P.scenery_shade(t)))
    if any(s.walkable for s in table.scenery):
        items.append(LegendItem("hatch", "walkable top", P.scenery_shade(3.0)))
    if any(s.ladders for s in table.scenery):
        items.append(LegendItem("line", "ladder (up onto the top)", P.LADDER))
    if any(not s.blocks_los for s in table.scenery):
        items.append(LegendItem("fill", "does not block sight", P.SEE_THROUGH))
    if any(s.base > 0 for s in table.scenery):
        items.append(LegendItem("dashed", "raised piece (base above the table)", P.SCENERY_OUTLINE))
    if sight:
        items += [LegendItem("heading", "Line of sight"),
                  LegendItem("line", "visible: along the witness", P.LOS_VISIBLE),
                  LegendItem("line", "blocked (blockers in red)", P.LOS_BLOCKED),
                  LegendItem("dashed", "out of arc", P.LOS_OUT_OF_ARC)]
    if selection is not None:
        items.append(LegendItem("heading", f"{selection.id}"))
        if selection.awareness is not None:
            items.append(LegendItem("ring", f"Awareness {inches(selection.awareness)}", P.AWARENESS))
        for i, w in enumerate(selection.weapons):
            items.append(LegendItem("ring", f"{w.name} reach" + (" bands" if w.ranged else ""),
                                    P.REACH[i % len(P.REACH)]))
    items += list(extra)
    return items


#: Pixel metrics of the legend rows (scaled by the drawing's pixel ratio).
LEGEND_ROW = {"title": 26, "heading": 22, "text": 17, "fill": 19, "line": 19, "dashed": 19, "ring": 19,
              "hatch": 19, "disc": 19}


def legend_height(items: Sequence[LegendItem]) -> float:
    return 16 + sum(LEGEND_ROW[i.kind] for i in items)


def legend_prims(items: Sequence[LegendItem], x: float, top: float, width: float) -> list[Prim]:
    """The legend as screen-space primitives, its top-left corner at (x, top)."""
    h = legend_height(items)
    out: list[Prim] = [Fill.rect(x, top - h, x + width, top, P.PANEL)]
    y = top - 10
    sx = x + 14
    tx = x + 44
    for it in items:
        row = LEGEND_ROW[it.kind]
        mid = y - row / 2
        if it.kind == "title":
            out.append(Text(sx, mid, it.label, P.PANEL_TEXT, 14, "left", "center", bold=True))
        elif it.kind == "heading":
            out.append(Text(sx, mid - 2, it.label, P.PANEL_TEXT, 10, "left", "center", bold=True))
        elif it.kind == "text":
            out.append(Text(sx, mid, it.label, it.color, 8.5, "left", "center"))
        else:
            if it.kind in ("fill", "hatch"):
                if it.color[3] < 255:  # a translucent overlay: shown as it looks over the bare table
                    out.append(Fill.rect(sx, mid - 6, sx + 22, mid + 6, P.TABLE))
                out.append(Fill.rect(sx, mid - 6, sx + 22, mid + 6, it.color))
                if it.kind == "hatch":
                    for k in range(4):
                        out.append(Line.seg((sx + 3 + 5 * k, mid - 5), (sx + 8 + 5 * k, mid + 5),
                                            P.lighter(it.color, 0.3), 1.0))
            elif it.kind == "disc":
                out.append(Disc(sx + 11, mid, 7, it.color))
            elif it.kind == "ring":
                out.append(Line.ring(sx + 11, mid, 7, it.color, 2.0, n=32))
            else:
                out.append(Line.seg((sx, mid), (sx + 22, mid), it.color, 3.0, dash=5.0 if it.kind == "dashed" else None))
            out.append(Text(tx, mid, it.label, P.PANEL_TEXT, 9, "left", "center"))
        y -= row
    return out


HELP_LINES = (
    ("left click", "select a model: Awareness, reach bands, LoS to every other model"),
    ("shift + click, tab", "pick a second model: the profile slice of that pair (p hides it)"),
    ("m, then drag", "measure from a model (as the measurement mode allows)"),
    ("a", "who sees whom: every visible pair"),
    ("x", "exposure heatmap for the selected model's side and size (how many enemies would see it)"),
    ("q / e", "turn the selected model 15° left / right"),
    ("wheel / right drag", "zoom / pan;  0 resets the view"),
    ("s", "save the table to a scenario file"),
    ("hover, shift + click", "with a model selected: can it attack that one, and its odds"),
    ("l", "legend: sides, sight lines, scenery heights"),
    ("h", "this help;  esc: back to selecting, clear (again: quit, asking first if unsaved)"),
)
MOVE_HELP = (
    ("left drag a model", "Walk it: the shortest legal path, or the reason it is refused"),
    ("ctrl + drag a model", "Run it (up to twice its Speed), as move --kind run"),
    ("r", "movement range of the selected model"),
)
TEMPLATE_HELP = (
    ("t", "template tool: it follows the pointer, click keeps it; c cycles circle / spray sizes"),
    ("  shift + click", "(template tool) the template's user: a spray starts at its base"),
)


def help_prims(width: float, height: float, lines: Sequence[tuple[str, str]] = HELP_LINES) -> list[Prim]:
    """The help overlay (``h``), centred in a ``width`` × ``height`` window."""
    w, row = 760.0, 20.0
    h = 56 + row * len(lines)
    x0, y0 = (width - w) / 2, (height - h) / 2
    out: list[Prim] = [Fill.rect(x0, y0, x0 + w, y0 + h, P.PANEL),
                       Text(x0 + 18, y0 + h - 22, "skirmish viewer — keys and mouse", P.PANEL_TEXT, 13, "left",
                            "center", bold=True)]
    y = y0 + h - 52
    for key, what in lines:
        out.append(Text(x0 + 18, y, key, P.SELECTED, 10, "left", "center", bold=True))
        out.append(Text(x0 + 180, y, what, P.PANEL_TEXT, 10, "left", "center"))
        y -= row
    return out


#: Average width of a 10 pt character in the window's font, in pixels (for wrapping).
CHAR_PX = 6.4


def wrap(text: str, width_px: float, size: float = 10.0) -> list[str]:
    """``text`` broken at spaces into lines that fit ``width_px`` pixels at ``size`` pt.

    >>> wrap("the quick brown fox jumps over", 6.4 * 10)
    ['the quick', 'brown fox', 'jumps over']
    """
    chars = max(8, int(width_px / (CHAR_PX * size / 10.0)))
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > chars:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
        while len(line) > chars:  # one word longer than a line: cut it
            lines.append(line[:chars])
            line = line[chars:]
    return lines + ([line] if line else [])


def status_prims(text: str, width: float, *, error: bool = False) -> list[Prim]:
    """The status bar along the bottom of the window: the text's first line, with "…"
    when the rest does not fit (the window shows all of it in the info panel)."""
    lines = wrap(text, width - 30)
    shown = lines[0] + (" …" if len(lines) > 1 else "") if lines else ""
    return [Fill.rect(0, 0, width, 24, P.PANEL),
            Text(10, 12, shown, P.LOS_BLOCKED if error else P.PANEL_TEXT, 10, "left", "center", bold=error)]


def info_prims(lines: Sequence[str], x: float, top: float, width: float, *, title: str = "",
               error: bool = False) -> list[Prim]:
    """A panel of wrapped text lines, its top-left corner at (x, top) (screen space)."""
    rows: list[tuple[str, bool]] = [(title, True)] if title else []
    for line in lines:
        rows += [(part, False) for part in wrap(line, width - 24)]
    h = 12 + 16 * len(rows)
    out: list[Prim] = [Fill.rect(x, top - h, x + width, top, P.PANEL)]
    for i, (text, bold) in enumerate(rows):
        color = P.LOS_BLOCKED if error and not bold else P.PANEL_TEXT
        out.append(Text(x + 12, top - 14 - 16 * i, text, color, 10, "left", "center", bold=bold))
    return out


def panel_prims(x: float, y: float, w: float, h: float, title: str, sub: str) -> list[Prim]:
    """The frame of the profile panel with its caption (screen space)."""
    return [Fill.rect(x, y, x + w, y + h, P.PANEL),
            Text(x + 12, y + h - 14, title, P.PANEL_TEXT, 11, "left", "center", bold=True),
            Text(x + 12, y + h - 32, sub, P.PANEL_DIM, 8.5, "left", "center")]


def describe_point(table: Table, x: float, y: float) -> str:
    """What is under the plan point (x, y): a model, the topmost scenery piece, or the table."""
    mid = nearest_model(table, x, y)
    if mid is not None:
        m = table.model(mid)
        state = f", {', '.join(sorted(m.states))}" if m.states else ""
        return (f"{m.id}: {m.side}, {m.describe_size()}, z {inches(m.z)}, facing {m.facing:g}°{state}"
                f" — at ({m.x:.2f}, {m.y:.2f})")
    s = point_in_scenery(table, x, y)
    where = f"({x:.2f}, {y:.2f})"
    if s is None:
        return f"table at {where}"
    kind = ("walkable top" if s.walkable else "") + ("; does not block sight" if not s.blocks_los else "")
    return f"{s.id}: {height_text(s)} high{', ' + kind if kind else ''} — at {where}"


def nearest_model(table: Table, x: float, y: float, slack: float = 0.0) -> str | None:
    """The model whose base contains the plan point (x, y) (within ``slack``), topmost first."""
    best = None
    for m in sorted(table.models, key=lambda m: -m.z):
        d = math.hypot(x - m.x, y - m.y)
        if d <= m.radius + slack and (best is None or d < best[0]):
            best = (d, m.id)
            if d <= m.radius:
                return m.id
    return best[1] if best else None


def point_in_scenery(table: Table, x: float, y: float) -> Scenery | None:
    pt = Point(x, y)
    hits = [s for s in table.scenery if s.solid.footprint.covers(pt)]
    return max(hits, key=lambda s: s.top) if hits else None
