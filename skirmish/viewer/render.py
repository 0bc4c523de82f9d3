"""Headless rendering: the viewer's scene drawn off-screen (pyglet over EGL) to a PNG.

:func:`compose` is pure: it asks the map its answers and lays the picture out
(table, legend, profile panels). :func:`render_image` draws a composition with
OpenGL, supersampled for smooth edges; :func:`render_png` writes it. No display is
needed: ``pyglet.options['headless'] = True`` is set before pyglet opens anything.
"""

from __future__ import annotations

import sys
import textwrap
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import SkirmishError
from ..maps.base import Map
from ..maps.results import LineOfSight
from ..maps.table import Table
from . import palette as P
from .camera import Camera
from .grid_view import PIECE_R, Layout, grid_colors, grid_legend, grid_scene, is_grid, range_prims_grid
from .overlays import Extras, extras_for
from .png import write_png
from .composition import LEGEND_WIDTH, MARGIN, Composition
from .scene import (
    LegendItem,
    Line,
    Prim,
    Profile,
    legend_height,
    legend_items,
    legend_prims,
    los_line,
    blocker_prims,
    merge,
    panel_prims,
    scaled_text,
    profile_caption,
    profile_prims,
    profile_slice,
    selection_scene,
    table_scene,
)

#: Pictures are drawn this many times larger, then averaged down: smooth edges and text.
SUPERSAMPLE = 2


@dataclass(frozen=True)
class RenderRequest:
    """What to draw over the table (ids are checked against the map)."""

    los: tuple[tuple[str, str], ...] = ()
    frm: str | None = None
    template: str | None = None
    template_on: str | None = None
    range_of: str | None = None
    size: int = 1200
    #: extra layers and legend rows drawn over the table (e.g. a heatmap: viewer/heat.py)
    layers: tuple[Extras, ...] = ()


def _wrap(text: str, width: int = 50) -> list[str]:
    return textwrap.wrap(text, width) or [""]


def _verdict_lines(rs: Sequence[LineOfSight]) -> list[LegendItem]:
    seen = [r.to for r in rs if r.visible]
    blocked = [f"{r.to} ({', '.join(r.blockers)})" for r in rs if r.reason == "blocked"]
    arc = [r.to for r in rs if r.reason == "out_of_arc"]
    out = []
    for label, ids, col in (("sees", seen, P.LOS_VISIBLE), ("blocked", blocked, P.LOS_BLOCKED),
                            ("out of arc", arc, P.LOS_OUT_OF_ARC)):
        if ids:
            for k, line in enumerate(_wrap(f"{label}: {', '.join(ids)}")):
                out.append(LegendItem("text", line if k == 0 else "    " + line, P.lighter(col, 0.2)))
    return out


#: The table's longer side in the picture, least and most (pixels; legends are added).
PICTURE_PX = (200, 8192)


def text_scale(size: int) -> float:
    """How much the table's labels shrink in a picture ``size`` pixels across: none from
    1000 px up, in proportion below, to 0.6 at 600 px and less (smaller stays legible
    only as far as the table is)."""
    return min(1.0, max(0.6, size / 1000))


def compose(table: Map, req: RenderRequest) -> Composition:
    """Ask the map for every answer the picture shows and lay it out (pure)."""
    if not PICTURE_PX[0] <= req.size <= PICTURE_PX[1]:
        raise SkirmishError(f"the table's longer side in the picture is {PICTURE_PX[0]}..{PICTURE_PX[1]} pixels, got {req.size}",
                            kind="range")
    if is_grid(table):
        return compose_grid(table, req)
    if table.kind == "regions":  # the Spirit island (island_view.py)
        from .island_view import compose_island
        return compose_island(table, req)  # type: ignore[no-any-return]
    if not isinstance(table, Table):
        raise SkirmishError(f"render draws the continuous table, the grid and the island; this scenario is a {table.kind} map")
    for a, b in req.los:
        table.model(a), table.model(b)
        if a == b:
            raise SkirmishError(f"--los {a} {b}: pick two different models")
    colors = P.side_colors(table.sides)
    scene = table_scene(table, colors)
    extra_items: list[LegendItem] = []
    sight: list[LineOfSight] = []
    selection = None
    if req.frm is not None:
        selection = table.model(req.frm)
        others = [m for m in table.model_ids if m != req.frm]
        rs = table.line_of_sight_pairs([(req.frm, o) for o in others]) if others else []
        sight += rs
        scene = merge(scene, selection_scene(table, req.frm, rs, colors=colors))
        extra_items += [LegendItem("heading", f"Sight from {req.frm}"), *_verdict_lines(rs)]
    pairs = table.line_of_sight_pairs(list(req.los)) if req.los else []
    for r in pairs:
        over = scene["overlays"]
        over += los_line(table, r, 4.0)
        if r.reason == "blocked":
            scene["underlay"] += blocker_prims(table, r.blockers)
    sight += pairs
    extras: Extras = extras_for(table, template=req.template, template_on=req.template_on, by=req.frm,
                                range_of=req.range_of, colors=colors)
    scene = merge(scene, extras.scene)
    extra_items += extras.legend
    for layer in req.layers:
        scene = merge(scene, layer.scene)
        extra_items += layer.legend

    tw = req.size * table.width / max(table.width, table.depth)
    th = req.size * table.depth / max(table.width, table.depth)
    tw, th = round(tw), round(th)
    scene = scaled_text(scene, text_scale(req.size))
    items = legend_items(table, sight=bool(sight), selection=selection, extra=extra_items)
    if pairs:
        items.append(LegendItem("heading", "Profiles (below)"))
        for r in pairs:
            verdict = "visible" if r.visible else ("out of arc" if r.reason == "out_of_arc" else
                                                   f"blocked by {', '.join(r.blockers)}")
            for line in _wrap(f"{r.frm} → {r.to}: {verdict}"):
                items.append(LegendItem("text", line, P.lighter(
                    P.LOS_VISIBLE if r.visible else P.LOS_BLOCKED if r.reason == "blocked" else P.LOS_OUT_OF_ARC, 0.2)))
    lh = legend_height(items)
    top_h = max(th, lh)
    gap = MARGIN // 2
    width = MARGIN + tw + MARGIN + LEGEND_WIDTH + MARGIN
    pw = width - 2 * MARGIN
    profiles, heights = [], []
    for r in pairs:
        ph = panel_height(profile_slice(table, r, colors), pw)
        profiles.append(profile_slice(table, r, colors, aspect=(pw - 72) / (ph - 64)))
        heights.append(ph)
    height = int(round(MARGIN + top_h + MARGIN + sum(h + gap for h in heights)))
    ty = height - MARGIN - th
    camera = Camera(tw / table.width, MARGIN, ty)
    clip = (MARGIN - 30, ty - 30, tw + 60, th + 60)
    legend = legend_prims(items, MARGIN + tw + MARGIN, height - MARGIN, LEGEND_WIDTH)
    comp = Composition(width, height, scene, camera, clip, legend, sight=sight)
    y = height - MARGIN - top_h - MARGIN
    for prof, ph in zip(profiles, heights):
        y -= ph
        frame, content, cam = profile_panel(prof, MARGIN, y, pw, ph)
        comp.panels.append((frame, content, cam))
        comp.profiles.append(prof)
        y -= gap
    return comp


def compose_grid(grid: Any, req: RenderRequest) -> Composition:
    """The picture of a grid map: rooms, rows, fights; ``--from`` / ``--range`` a piece's
    moves, ``--los`` who shares a room (the map's answer)."""
    if req.template is not None or req.template_on is not None:
        raise SkirmishError("the grid map does not place area templates (a Party Hard area effect is a run of "
                            "places in a row: skirmish fight)")
    for a, b in req.los:
        grid.piece(a), grid.piece(b)
    lay = Layout(grid)
    colors = grid_colors(grid)
    scene = grid_scene(grid, colors, lay)
    items = grid_legend(grid)
    for who in dict.fromkeys(x for x in (req.frm, req.range_of) if x is not None):
        grid.piece(who)
        x, y = lay.pieces[who]
        scene["overlays"].append(Line.ring(x, y, PIECE_R + 0.02, P.SELECTED, 3.0, n=48))
        rng = grid.movement_range(who)
        scene["underlay"] += range_prims_grid(rng, lay)
        items += [LegendItem("heading", f"{who} this turn"), LegendItem("fill", "rooms it may end in", P.RANGE_FILL)]
        for note in rng.notes:
            items += [LegendItem("text", ln, P.PANEL_DIM) for ln in _wrap(note)]
    sight = grid.line_of_sight_pairs(list(req.los)) if req.los else []
    if sight:
        items += [LegendItem("heading", "Sight (sharing a room)"), LegendItem("line", "in the same room", P.LOS_VISIBLE),
                  LegendItem("dashed", "not", P.LOS_BLOCKED)]
    for r in sight:
        pa, pb = lay.pieces[r.frm], lay.pieces[r.to]
        scene["overlays"].append(Line.seg(pa, pb, P.LOS_VISIBLE if r.visible else P.LOS_BLOCKED, 3.0,
                                          dash=None if r.visible else 7.0))
    c, rows = grid.size
    scale = req.size / max(c, rows)
    tw, th = round(c * scale), round(rows * scale)
    lh = legend_height(items)
    width = MARGIN + tw + MARGIN + LEGEND_WIDTH + MARGIN
    height = int(round(MARGIN + max(th, lh) + MARGIN))
    ty = height - MARGIN - th
    camera = Camera(tw / c, MARGIN, ty)
    clip = (MARGIN - 30, ty - 30, tw + 60, th + 60)
    legend = legend_prims(items, MARGIN + tw + MARGIN, height - MARGIN, LEGEND_WIDTH)
    return Composition(width, height, scene, camera, clip, legend, sight=list(sight))


def panel_height(prof: Profile, width: float, lo: float = 200, hi: float = 360) -> float:
    """A profile panel tall enough to show the slice at true scale (within limits)."""
    s0, s1 = prof.s_range
    z = prof.z_top * 1.27 + 0.3
    return float(min(hi, max(lo, (width - 72) * z / max(s1 - s0, 1e-6) + 64)))


def profile_panel(prof: Profile, x: float, y: float, w: float, h: float) -> tuple[list[Prim], list[Prim], Camera]:
    """Frame (screen space), slice content and the slice's camera for a panel at (x, y)."""
    title, sub = profile_caption(prof)
    frame = panel_prims(x, y, w, h, title, sub)
    lo, hi = prof.s_range
    top = prof.z_top * 1.15 + 0.3
    cam = Camera.fit((lo, -0.12 * top, hi, top), (x + 56, y + 12, w - 72, h - 64))
    return frame, profile_prims(prof), cam


def _pyglet_headless():  # noqa: ANN202 - returns the pyglet module
    try:
        import pyglet
    except ImportError as exc:  # pragma: no cover - pyglet is a dependency of the viewer
        raise SkirmishError(f"rendering needs pyglet, a dependency of skirmish (pip install pyglet): {exc}") from None
    if sys.platform.startswith("linux") and "pyglet.window" not in sys.modules:
        pyglet.options["headless"] = True  # EGL: no display needed (elsewhere a hidden window is used)
    return pyglet


def open_window(width: int, height: int):  # noqa: ANN201 - a pyglet Window
    """A hidden window to draw into (EGL when headless); a clear error when none can be made."""
    pyglet = _pyglet_headless()
    try:
        import pyglet.window
        from pyglet import gl

        try:  # 8 bits a channel: the pixels are the palette's colours exactly
            config = gl.Config(red_size=8, green_size=8, blue_size=8, alpha_size=8, double_buffer=False)  # type: ignore[abstract]
            return pyglet.window.Window(width, height, visible=False, resizable=False, config=config)
        except pyglet.window.NoSuchConfigException:
            return pyglet.window.Window(width, height, visible=False, resizable=False)
    except Exception as exc:  # noqa: BLE001 - pyglet raises many kinds here
        raise SkirmishError(
            f"cannot draw off-screen: no OpenGL context ({type(exc).__name__}: {exc}). Rendering uses pyglet "
            "over EGL; install the EGL/GL libraries (for example: apt-get install libegl1 libgl1)") from None


def draw_composition(comp: Composition, window, ratio: float) -> np.ndarray:  # noqa: ANN001
    """Draw ``comp`` into ``window`` at ``ratio`` × its size; the pixels, top row first."""
    from .draw import Canvas, clear_window, read_pixels
    from .labels import declutter

    canvas = Canvas(window, ratio)
    cam = comp.camera.scaled_screen(ratio)
    canvas.world.clip = tuple(round(v * ratio) for v in comp.clip)  # type: ignore[assignment]
    for name, prims in declutter(comp.scene, cam, ratio).items():
        canvas.set(name, prims, cam)
    screen = Camera(ratio, 0, 0)
    canvas.set("legend", comp.legend, screen)
    for frame, content, pcam in comp.panels:
        canvas.add("panel", frame, screen)
        canvas.add("panel_content", content, pcam.scaled_screen(ratio))
    window.switch_to()
    clear_window(window)
    canvas.draw()
    pixels = read_pixels()
    canvas.clear()
    return pixels


def render_image(table: Map, req: RenderRequest = RenderRequest(), *, supersample: int = SUPERSAMPLE) -> np.ndarray:
    """The picture as an (h, w, 3) uint8 RGB array, top row first."""
    comp = compose(table, req)
    return render_composition(comp, supersample=supersample)


def render_composition(comp: Composition, *, supersample: int = SUPERSAMPLE) -> np.ndarray:
    ss = max(1, int(supersample))
    window = open_window(comp.width * ss, comp.height * ss)
    try:
        px = draw_composition(comp, window, ss)
    finally:
        window.close()
    return downsample(px[: comp.height * ss, : comp.width * ss, :3], ss)


def downsample(px: np.ndarray, ss: int) -> np.ndarray:
    """Average ``ss`` × ``ss`` blocks of an (h·ss, w·ss, c) uint8 picture (rounded).

    >>> downsample(np.array([[[0], [255]], [[255], [255]]], np.uint8), 2).tolist()
    [[[191]]]
    """
    if ss == 1:
        return np.ascontiguousarray(px)
    acc = np.zeros((px.shape[0] // ss, px.shape[1] // ss, px.shape[2]), np.uint32)
    for i in range(ss):
        for j in range(ss):
            acc += px[i::ss, j::ss]
    return ((acc + (ss * ss) // 2) // (ss * ss)).astype(np.uint8)


@dataclass(frozen=True)
class RenderResult:
    path: Path
    width: int
    height: int
    seconds: float


def render_png(table: Map, path: str | Path, req: RenderRequest = RenderRequest()) -> RenderResult:
    """Render ``table`` with ``req``'s overlays to the PNG file ``path``."""
    t0 = time.perf_counter()
    img = render_image(table, req)
    out = write_png(path, img, {"Software": "skirmish render", "Title": getattr(table, "name", "") or ""})
    return RenderResult(out, img.shape[1], img.shape[0], time.perf_counter() - t0)


__all__ = ["Composition", "RenderRequest", "RenderResult", "compose", "render_image", "render_png"]
