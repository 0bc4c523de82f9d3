"""The Spirit island in the viewer: regions as nodes coloured by terrain, borders
between them, the coast, and the pieces in each region. Pure (no pyglet).

The map places the regions (:attr:`Regions.positions`, in the unit square, y up);
the picture scales them by :data:`WORLD`. Each region is a disc in its terrain's
colour with its id above; a coastal region has a ring of surf; its pieces are a row
of counters (explorers, towns, cities, dahan, blight, each spirit's presence) with
their numbers; the ravage and build markers are tags under it.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from ..errors import SkirmishError
from ..maps.base import Map
from . import palette as P
from .palette import Color
from .scene import Disc, Fill, LegendItem, Line, Scene, Text, empty_scene, legend_height, legend_prims

#: World units across the picture (the map's unit square scaled).
WORLD = 10.0
OCEAN: Color = (164, 201, 226, 255)
LAND: Color = (233, 228, 212, 255)
SURF: Color = (36, 110, 190, 255)
BORDER: Color = (90, 78, 64, 255)
TERRAIN: dict[str, Color] = {
    "mountain": (150, 146, 140, 255),
    "wetland": (96, 160, 168, 255),
    "sands": (226, 196, 122, 255),
    "jungle": (76, 140, 74, 255),
}
PIECE: dict[str, tuple[str, Color]] = {
    "explorers": ("E", (120, 120, 130, 255)),
    "towns": ("T", (214, 120, 40, 255)),
    "cities": ("C", (190, 40, 50, 255)),
    "dahan": ("D", (120, 78, 44, 255)),
    "blight": ("B", (46, 40, 40, 255)),
}
RAVAGE: Color = (230, 57, 70, 255)
BUILD: Color = (214, 120, 40, 255)


def is_island(m: Map) -> bool:
    return getattr(m, "kind", "") == "regions"


#: Spirits' presence: colours apart from the terrains' and the invaders'.
SPIRIT_CYCLE: tuple[Color, ...] = ((37, 99, 235, 255), (147, 51, 234, 255), (219, 39, 119, 255),
                                   (8, 145, 178, 255), (234, 179, 8, 255), (71, 85, 105, 255))


def spirit_colors(spirits: Any) -> dict[str, Color]:
    return {s: SPIRIT_CYCLE[i % len(SPIRIT_CYCLE)] for i, s in enumerate(spirits)}


def spirit_tag(spirit: str) -> str:
    """The short name under a presence counter."""
    return spirit if len(spirit) <= 6 else spirit[:5] + "."


class IslandLayout:
    """Where an island's regions are drawn (world units, y up) and how big."""

    def __init__(self, isle: Any) -> None:
        self.isle = isle
        unit = np.array(list(isle.positions.values()), dtype=float).reshape(-1, 2)
        lo, hi = unit.min(axis=0), unit.max(axis=0)
        gap = min((float(np.linalg.norm(a - b)) for a, b in itertools.combinations(unit, 2)), default=1.0)
        gap /= max(float((hi - lo).max()), 1e-9)  # in spans of the drawing
        # a region's disc is about 0.4 of the nearest two centres' gap; the drawing keeps a margin for
        # the outermost discs, their surf and their labels
        span = WORLD / (1 + 0.8 * min(gap, 1.0) + 0.25)
        self.radius = float(min(1.3, 0.4 * gap * span))
        margin = (WORLD - span) / 2
        scale = span / max(float((hi - lo).max()), 1e-9)
        mid = (lo + hi) / 2
        self.centres = {r: (float(WORLD / 2 + (x - mid[0]) * scale), float(WORLD / 2 + (y - mid[1]) * scale - 0.1))
                        for r, (x, y) in isle.positions.items()}
        self.margin = margin

    def region_at(self, x: float, y: float) -> str | None:
        best = min(self.centres.items(), key=lambda kv: math.hypot(x - kv[1][0], y - kv[1][1]), default=None)
        if best and math.hypot(x - best[1][0], y - best[1][1]) <= self.radius:
            return best[0]
        return None


def island_scene(isle: Any, lay: IslandLayout | None = None, *, labels: dict[str, str] | None = None) -> Scene:
    """The ocean, the borders, each region (terrain, coast, id, markers) and its pieces.
    ``labels`` adds a line under a region's id (e.g. its distance from a selection)."""
    lay = lay or IslandLayout(isle)
    isl = isle.island
    colors = spirit_colors(isl.spirits)
    s = empty_scene()
    s["table"].append(Fill.rect(0, 0, WORLD, WORLD, OCEAN))
    R = lay.radius
    for a, b in isl.borders():
        s["scenery"].append(Line.seg(lay.centres[a], lay.centres[b], BORDER, 3.0))
    for land in isl.lands:
        x, y = lay.centres[land.id]
        if land.coastal:
            s["scenery"].append(Disc(x, y, R * 1.12, SURF))
        s["scenery"].append(Disc(x, y, R, TERRAIN[land.terrain]))
        s["scenery"].append(Line.ring(x, y, R, P.darker(TERRAIN[land.terrain], 0.4), 2.0, n=72))
        s["overlays"].append(Text(x, y + R, land.id, P.INK, 9, "center", "bottom", dy=4, bold=True, box=P.LABEL_BOX))
        extra = (labels or {}).get(land.id)
        if extra:
            s["overlays"].append(Text(x, y + R, extra, P.INK, 8, "center", "bottom", dy=22, box=P.LABEL_BOX))
        s["overlays"].append(Text(x, y + 0.45 * R, land.terrain, P.text_on(TERRAIN[land.terrain]), 7.5))
        counters: list[tuple[str, Color, int]] = [(PIECE[k][0], PIECE[k][1], getattr(land, k)) for k in PIECE
                                                  if getattr(land, k)]
        counters += [(spirit_tag(sp), colors[sp], n) for sp, n in land.presence]
        sacred = {spirit_tag(sp) for sp, _ in land.presence if land.sacred_site(sp)}
        r = R * 0.19
        step = min(2.3 * r, 1.7 * R / max(1, len(counters)))
        x0 = x - step * (len(counters) - 1) / 2
        for k, (letter, col, n) in enumerate(counters):
            cx, cy = x0 + k * step, y - 0.15 * R
            s["models"].append(Disc(cx, cy, r, col))
            s["models"].append(Line.ring(cx, cy, r, P.WHITE, 1.5, n=32))
            if letter in sacred:  # a sacred site: a gold ring around the presence
                s["models"].append(Line.ring(cx, cy, r * 1.3, P.SELECTED, 2.0, n=32))
            s["models"].append(Text(cx, cy, f"{n}", P.WHITE, 8, bold=True))
            s["models"].append(Text(cx, cy - r, letter, P.INK, 6.5, "center", "top", dy=-1))
        marks = [(m, c) for m, c, on in (("ravage", RAVAGE, land.ravage), ("build", BUILD, land.build)) if on]
        for k, (m, c) in enumerate(marks):
            off = (k - (len(marks) - 1) / 2) * 48
            s["overlays"].append(Text(x, y - R, m, P.WHITE, 7.5, "center", "top", dx=off, dy=-3, bold=True,
                                      box=P.with_alpha(c, 235)))
    return s


def island_legend(isle: Any) -> list[LegendItem]:
    isl = isle.island
    colors = spirit_colors(isl.spirits)
    items = [LegendItem("title", isle.name or "island"),
             LegendItem("text", f"{len(isl.lands)} regions · Spirit island · 1 border = 1 step", P.PANEL_DIM),
             LegendItem("text", f"round {isl.round} · fear {isl.fear} (terror {isl.terror}) · blight {isl.blight}"
                        f"{' (blighted)' if isl.blighted else ''} of {isl.defeat_at}", P.PANEL_DIM),
             LegendItem("heading", "Terrain")]
    items += [LegendItem("disc", t, c) for t, c in TERRAIN.items()]
    items += [LegendItem("ring", "coastal (on the ocean)", SURF), LegendItem("line", "border", BORDER),
              LegendItem("heading", "Pieces (count in each counter)")]
    items += [LegendItem("disc", f"{letter}: {kind}", c) for kind, (letter, c) in PIECE.items()]
    if isl.spirits:
        items.append(LegendItem("heading", "Presence (gold ring: sacred site, 2+)"))
        items += [LegendItem("disc", f"{s} ({isl.presence(s)} presence on the island)", colors[s]) for s in isl.spirits]
    items += [LegendItem("heading", "This round"), LegendItem("fill", "ravage: the invaders ravage here", RAVAGE),
              LegendItem("fill", "build: the invaders build here", BUILD)]
    return items


def compose_island(isle: Any, req: Any) -> Any:
    """The picture of an island (``skirmish render``): ``--from`` marks a group's or
    region's steps to every region; ``--los`` joins two groups (solid: same region)."""
    from .camera import Camera
    from .composition import LEGEND_WIDTH, MARGIN, Composition

    if req.template is not None or req.template_on is not None or req.range_of is not None:
        raise SkirmishError("an island has no area templates and no movement range (pieces do not move on their "
                            "own); draw it plain, with --from A or --los A B")
    lay = IslandLayout(isle)
    items = island_legend(isle)
    labels = None
    if req.frm is not None:
        home = isle.region_of(req.frm)
        labels = {r: f"{int(d)} step{'s' * (d != 1)}" for r, d in isle.island.distances_from(home).items()}
        items += [LegendItem("heading", f"Steps from {req.frm}"), LegendItem("ring", f"{home}", P.SELECTED)]
    scene = island_scene(isle, lay, labels=labels)
    if req.frm is not None:
        x, y = lay.centres[isle.region_of(req.frm)]
        scene["overlays"].append(Line.ring(x, y, lay.radius * 1.2, P.SELECTED, 4.0, n=72))
    sight = isle.line_of_sight_pairs(list(req.los)) if req.los else []
    if sight:
        items += [LegendItem("heading", "Same region (contact, sight)"), LegendItem("line", "yes", P.LOS_VISIBLE),
                  LegendItem("dashed", "no", P.LOS_BLOCKED)]
    for r in sight:
        a, b = lay.centres[isle.region_of(r.frm)], lay.centres[isle.region_of(r.to)]
        scene["overlays"].append(Line.seg(a, b, P.LOS_VISIBLE if r.visible else P.LOS_BLOCKED, 3.0,
                                          dash=None if r.visible else 7.0))
    tw = th = req.size
    lh = legend_height(items)
    width = MARGIN + tw + MARGIN + LEGEND_WIDTH + MARGIN
    height = int(round(MARGIN + max(th, lh) + MARGIN))
    ty = height - MARGIN - th
    camera = Camera(tw / WORLD, MARGIN, ty)
    clip = (MARGIN, ty, tw, th)
    legend = legend_prims(items, MARGIN + tw + MARGIN, height - MARGIN, LEGEND_WIDTH)
    return Composition(width, height, scene, camera, clip, legend, sight=list(sight))


__all__ = ["IslandLayout", "TERRAIN", "compose_island", "is_island", "island_legend", "island_scene"]
