"""Labels that do not collide: placed in screen space for the camera they are drawn
with, each at its own place when free, else at its first free alternative."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from .camera import Camera
from .scene import Prim, Scene, Text

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in screen pixels


def label_box(t: Text, camera: Camera, ratio: float = 1.0) -> Box:
    """An estimate of the screen box a label (with its plate) covers."""
    sx, sy = camera.to_screen(t.x, t.y)
    px, py = sx + t.dx * ratio, sy + t.dy * ratio
    w = (0.6 * t.size * len(t.text) + 6) * ratio
    h = (1.35 * t.size + 4) * ratio
    x0 = {"left": px, "center": px - w / 2, "right": px - w}[t.anchor_x]
    y0 = {"bottom": py, "center": py - h / 2, "top": py - h, "baseline": py - 0.25 * h}[t.anchor_y]
    return (x0, y0, x0 + w, y0 + h)


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def declutter(scene: Scene, camera: Camera, ratio: float = 1.0,
              layers: Sequence[str] = ("models", "scenery")) -> Scene:
    """``scene`` with the labels of ``layers`` (earlier layers win) moved off each other.

    Labels without alternatives stay where they are and only block; a label with
    alternatives takes the first of its place and its alternatives that overlaps no
    label placed before it (its own place when none is free)."""
    placed: list[Box] = []
    for name in layers:
        for p in scene.get(name, ()):
            if isinstance(p, Text) and not p.alternatives:
                placed.append(label_box(p, camera, ratio))
    out = dict(scene)
    for name in layers:
        prims: list[Prim] = []
        for p in scene.get(name, ()):
            if isinstance(p, Text) and p.alternatives:
                choice = p
                for cand in (p, *p.alternatives):
                    box = label_box(cand, camera, ratio)
                    if not any(overlaps(box, q) for q in placed):
                        choice = cand
                        break
                placed.append(label_box(choice, camera, ratio))
                p = dataclasses.replace(choice, alternatives=())
            prims.append(p)
        out[name] = prims
    return out
