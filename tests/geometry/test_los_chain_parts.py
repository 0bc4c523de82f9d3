"""The vectorised pieces of the LoS chain test against shapely (the obvious way)."""

from __future__ import annotations

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon

from skirmish.geometry.los_chain import _hull_halfplanes_many, _xrange_within, clip_polygons


def _convex(rng: np.random.Generator, rows: int, verts: int) -> np.ndarray:
    ang = np.sort(rng.uniform(0, 2 * np.pi, (rows, verts)), 1)
    pts = np.stack([np.cos(ang), np.sin(ang)], 2) * rng.uniform(0.3, 1.5, (rows, 1, 1))
    return pts + rng.normal(size=(rows, 1, 2))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(3, 9))
def test_clip_polygons_is_shapelys_intersection_with_the_half_plane(seed, verts):
    rng = np.random.default_rng(seed)
    k = _convex(rng, 4, verts)
    k[:, -1] = k[:, -2]  # padding by repetition is allowed
    n = rng.normal(size=(4, 2))
    c0 = rng.normal(size=4) * 0.7
    out = clip_polygons(k, n, c0)
    for r in range(4):
        big = 1e3
        u = n[r] / np.hypot(*n[r])
        t = np.array([-u[1], u[0]])
        base = n[r] * c0[r] / (n[r] @ n[r])
        half = Polygon([base + t * big, base - t * big, base - t * big + u * big, base + t * big + u * big])
        want = Polygon(k[r]).intersection(half)
        if np.isnan(out[r, 0, 0]):
            assert want.area < 1e-9
        else:
            assert abs(Polygon(out[r]).area - want.area) < 1e-7


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(3, 9))
def test_corridor_x_range_is_the_bounds_of_shapelys_intersection(seed, verts):
    rng = np.random.default_rng(seed)
    k = clip_polygons(_convex(rng, 4, verts), np.tile([1.0, 0.0], (4, 1)), np.full(4, -0.5))
    pts = rng.normal(size=(8, 2)) * 1.2
    hp, count = _hull_halfplanes_many(pts[None])
    lo, hi, hit = _xrange_within(k, np.repeat(hp, 4, 0), np.repeat(count, 4))
    hull = shapely.MultiPoint(pts).convex_hull
    for r in range(4):
        if np.isnan(k[r, 0, 0]):
            assert not hit[r]
            continue
        inter = Polygon(k[r]).buffer(0).intersection(hull)
        if inter.is_empty:
            assert not hit[r]
        elif inter.area > 1e-12:
            x0, _, x1, _ = inter.bounds
            assert hit[r] and abs(lo[r] - x0) < 1e-9 and abs(hi[r] - x1) < 1e-9
