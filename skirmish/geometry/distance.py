"""Distances between solids: exact for vertical cylinders and prisms, scalar and batch.

Two vertical solids are products (plan shape × z-interval), so the 3D distance
between them is ``hypot(plan gap, vertical gap)``: exact, no sampling.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np
import shapely

from .solids import Cylinder, Prism

Point3 = tuple[float, float, float]


def interval_gap(a0: float, a1: float, b0: float, b1: float) -> float:
    """Distance between the intervals [a0, a1] and [b0, b1] (0 when they meet)."""
    return max(0.0, b0 - a1, a0 - b1)


def cylinder_distance(a: Cylinder, b: Cylinder) -> float:
    """3D distance between the nearest points of two vertical cylinders (E-DIST)."""
    plan = max(0.0, math.hypot(b.x - a.x, b.y - a.y) - a.radius - b.radius)
    return math.hypot(plan, interval_gap(a.z, a.top, b.z, b.top))


def distances_to_cylinders_at(a: Cylinder, points: Iterable[Sequence[float]], radius: float, height: float
                              ) -> list[float]:
    """``[cylinder_distance(a, Cylinder(x, y, z, radius, height)) for (x, y, z) in points]``,
    bit for bit (the same arithmetic; of the vertical gaps, the one that can be positive is
    taken by comparing instead of ``max``), without making the cylinders: E-DIST from ``a``
    to one model standing at each point (x, y, z) of a path."""
    ax, ay, az, ar, atop = a.x, a.y, a.z, a.radius, a.top
    hypot = math.hypot
    out = []
    for x, y, z in points:
        plan = hypot(x - ax, y - ay) - ar - radius
        gap = z - atop if z > atop else az - (z + height)  # (above a, else below it or overlapping)
        out.append(hypot(plan if plan > 0.0 else 0.0, gap if gap > 0.0 else 0.0))
    return out


def plan_gap_to_prism(c: Cylinder, p: Prism) -> float:
    """Gap, seen from above, between a cylinder's disc and a prism's footprint."""
    if p.circle is not None:
        cx, cy, r = p.circle
        return max(0.0, math.hypot(cx - c.x, cy - c.y) - r - c.radius)
    return max(0.0, float(shapely.distance(shapely.Point(c.x, c.y), p.footprint)) - c.radius)


def cylinder_prism_distance(c: Cylinder, p: Prism) -> float:
    """3D distance between a cylinder and a prism."""
    return math.hypot(plan_gap_to_prism(c, p), interval_gap(c.z, c.top, p.z0, p.z1))


def nearest_points(a: Cylinder, b: Cylinder) -> tuple[Point3, Point3]:
    """A pair of nearest points, one on each cylinder (the evidence of a distance)."""
    dx, dy = b.x - a.x, b.y - a.y
    d = math.hypot(dx, dy)
    ux, uy = (dx / d, dy / d) if d > 0 else (1.0, 0.0)
    if d >= a.radius + b.radius:
        pa = (a.x + ux * a.radius, a.y + uy * a.radius)
        pb = (b.x - ux * b.radius, b.y - uy * b.radius)
    else:  # discs overlap in plan: a common plan point on the centre line
        t = min(a.radius, max(0.0, d - b.radius) + (a.radius + b.radius - d) / 2)
        pa = pb = (a.x + ux * t, a.y + uy * t)
    lo, hi = max(a.z, b.z), min(a.top, b.top)
    if lo <= hi:
        za = zb = (lo + hi) / 2
    elif a.top < b.z:
        za, zb = a.top, b.z
    else:
        za, zb = a.z, b.top
    return (pa[0], pa[1], za), (pb[0], pb[1], zb)


def cylinder_distance_matrix(x: np.ndarray, y: np.ndarray, z: np.ndarray, r: np.ndarray, h: np.ndarray) -> np.ndarray:
    """All-pairs E-DIST distances of n cylinders in one vectorised call (n × n)."""
    x, y, z, r, h = (np.asarray(v, dtype=float) for v in (x, y, z, r, h))
    plan = np.hypot(x[:, None] - x[None, :], y[:, None] - y[None, :]) - r[:, None] - r[None, :]
    np.maximum(plan, 0.0, out=plan)
    top = z + h
    vert = np.maximum(np.maximum(z[None, :] - top[:, None], z[:, None] - top[None, :]), 0.0)
    out = np.hypot(plan, vert)
    np.fill_diagonal(out, 0.0)
    return out
