"""Primitives → screen-space triangles (numpy), ready for one vertex list per layer.

Pure: no OpenGL. Fills are triangulated once, in world units, by :mod:`.scene`;
here they are only moved by the camera. Lines become quads of their pixel width
(with round joins), discs fans with enough segments for their size on screen.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from .camera import Camera
from .palette import Color
from .scene import Disc, Dot, Fill, Line, Prim, Text


@dataclass(frozen=True)
class Label:
    """A :class:`Text` placed on the screen (pixels); sizes already scaled."""

    x: float
    y: float
    text: str
    color: Color
    size: float
    anchor_x: str
    anchor_y: str
    bold: bool
    box: Color | None


@dataclass
class Mesh:
    """Triangles: ``positions`` (n, 2) float32 pixels and ``colors`` (n, 4) uint8, n = 3k."""

    positions: np.ndarray
    colors: np.ndarray

    @property
    def count(self) -> int:
        return len(self.positions)


def _colored(tris: np.ndarray, color: Color) -> tuple[np.ndarray, np.ndarray]:
    pts = tris.reshape(-1, 2)
    return pts, np.broadcast_to(np.array(color, np.uint8), (len(pts), 4))


def fan(cx: float, cy: float, r: float, n: int) -> np.ndarray:
    """A disc as ``n`` triangles (n, 3, 2) around its centre."""
    a = np.linspace(0, 2 * math.pi, n + 1)
    rim = np.column_stack([cx + r * np.cos(a), cy + r * np.sin(a)])
    centre = np.broadcast_to([cx, cy], (n, 2))
    return np.stack([centre, rim[:-1], rim[1:]], axis=1)


def segments_for(radius_px: float) -> int:
    return int(min(96, max(12, radius_px * 0.9)))


def _dashes(pts: np.ndarray, dash: float) -> list[np.ndarray]:
    """Split a screen-space polyline into on-pieces of length ``dash`` (gaps equal)."""
    seg = np.diff(pts, axis=0)
    lens = np.hypot(seg[:, 0], seg[:, 1])
    cum = np.concatenate([[0.0], np.cumsum(lens)])
    total = cum[-1]
    out = []
    start = 0.0
    while start < total:
        end = min(total, start + dash)
        ts = np.concatenate([[start], cum[(cum > start) & (cum < end)], [end]])
        out.append(np.column_stack([np.interp(ts, cum, pts[:, 0]), np.interp(ts, cum, pts[:, 1])]))
        start += 2 * dash
    return out


def stroke(pts: np.ndarray, width: float, closed: bool = False) -> np.ndarray:
    """A screen-space polyline as triangles (k, 3, 2): a quad per segment, round joins."""
    if closed:
        pts = np.vstack([pts, pts[:1]])
    if len(pts) < 2:
        return np.zeros((0, 3, 2))
    a, b = pts[:-1], pts[1:]
    d = b - a
    ln = np.hypot(d[:, 0], d[:, 1])
    keep = ln > 1e-9
    a, b, d, ln = a[keep], b[keep], d[keep], ln[keep]
    if not len(a):
        return np.zeros((0, 3, 2))
    n = np.column_stack([-d[:, 1], d[:, 0]]) / ln[:, None] * (width / 2)
    p0, p1, p2, p3 = a + n, a - n, b - n, b + n
    quads = np.concatenate([np.stack([p0, p1, p2], 1), np.stack([p0, p2, p3], 1)])
    if width >= 2.5 and len(a) > 1:  # round joins hide the notches between thick segments
        k = 6
        joins = [fan(x, y, width / 2, k) for x, y in (b[:-1] if not closed else b)]
        quads = np.concatenate([quads, *joins])
    return quads


def tessellate(prims: Iterable[Prim], camera: Camera, ratio: float = 1.0) -> tuple[Mesh, list[Label]]:
    """Screen triangles and labels for ``prims`` seen through ``camera``; pixel sizes × ``ratio``."""
    pos: list[np.ndarray] = []
    col: list[np.ndarray] = []
    labels: list[Label] = []
    s = camera.scale
    shift = np.array([camera.ox, camera.oy])
    for p in prims:
        if isinstance(p, Fill):
            if len(p.triangles):
                pp, cc = _colored(p.triangles * s + shift, p.color)
                pos.append(pp)
                col.append(cc)
        elif isinstance(p, Line):
            pts = np.asarray(p.points, float) * s + shift
            pieces = [np.vstack([pts, pts[:1]]) if p.closed else pts]
            if p.dash:
                pieces = _dashes(pieces[0], p.dash * ratio)
            for piece in pieces:
                tris = stroke(piece, p.width * ratio, closed=False)
                if len(tris):
                    pp, cc = _colored(tris, p.color)
                    pos.append(pp)
                    col.append(cc)
        elif isinstance(p, Disc):
            cx, cy = camera.to_screen(p.x, p.y)
            r = p.r * s
            pp, cc = _colored(fan(cx, cy, r, segments_for(r)), p.color)
            pos.append(pp)
            col.append(cc)
        elif isinstance(p, Dot):
            cx, cy = camera.to_screen(p.x, p.y)
            r = p.radius * ratio
            pp, cc = _colored(fan(cx, cy, r, segments_for(r)), p.color)
            pos.append(pp)
            col.append(cc)
        elif isinstance(p, Text):
            x, y = camera.to_screen(p.x, p.y)
            labels.append(Label(x + p.dx * ratio, y + p.dy * ratio, p.text, p.color, p.size * ratio, p.anchor_x,
                                p.anchor_y, p.bold, p.box))
        else:  # pragma: no cover - a new primitive without a tessellation
            raise TypeError(f"cannot draw {type(p).__name__}")
    if pos:
        mesh = Mesh(np.concatenate(pos).astype(np.float32), np.ascontiguousarray(np.concatenate(col), np.uint8))
    else:
        mesh = Mesh(np.zeros((0, 2), np.float32), np.zeros((0, 4), np.uint8))
    return mesh, labels
