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


def test_E_LOS_chain_tests_in_one_batch_agree_with_one_by_one(monkeypatch):
    """The chain tests of a dense table, run in one batch, give the same answers (proof,
    solids used, thin, escaping line) as one bundle at a time."""
    import random

    import skirmish.geometry.los as los
    from skirmish.geometry import los_chain
    from skirmish.scenario.adversarial import dense_table

    seen: list[tuple] = []
    inner = los.chain_blocks_many

    def record(P, Q, DP, DQ, zP, zQ, rb, verts, z0, z1, sealed, eta, widen, **kw):
        for b in range(len(P)):
            m = rb == b
            seen.append((P[b], Q[b], DP[b], DQ[b], zP[b], zQ[b], verts[m], z0[m], z1[m], sealed[m], eta, widen))
        return inner(P, Q, DP, DQ, zP, zQ, rb, verts, z0, z1, sealed, eta, widen, **kw)

    monkeypatch.setattr(los, "chain_blocks_many", record)
    for seed in (1, 3):  # (seed 3 leaves escaping lines)
        dense_table(random.Random(seed)).line_of_sight_all()
    assert len(seen) >= 3
    W = max(s[6].shape[1] for s in seen)
    stack = [np.stack([s[f] for s in seen]) for f in range(6)]
    rb = np.concatenate([np.full(len(s[7]), b) for b, s in enumerate(seen)])
    verts = np.concatenate([np.concatenate([s[6], np.repeat(s[6][:, -1:], W - s[6].shape[1], 1)], 1) for s in seen])
    cols = [np.concatenate([s[f] for s in seen]) for f in (7, 8, 9)]
    batch = los_chain.chain_blocks_many(*stack, rb, verts, *cols, seen[0][10], seen[0][11])
    for s, got in zip(seen, batch):
        one = los_chain.chain_blocks(*s)
        assert (got.blocked, got.thin) == (one.blocked, one.thin)
        assert (got.used is None) == (one.used is None) and (got.used is None or np.array_equal(got.used, one.used))
        assert (got.line is None) == (one.line is None)
        if got.line is not None and one.line is not None:
            assert np.allclose(got.line[0], one.line[0]) and np.allclose(got.line[1], one.line[1])
    # deferring the widened test changes nothing once it is run
    lazy = los_chain.chain_blocks_many(*stack, rb, verts, *cols, seen[0][10], seen[0][11], lazy=True)
    assert sum(c.widened is not None for c in lazy) == sum(c.line is not None for c in batch) > 0
    for eager, late in zip(batch, lazy):
        full = late.widened() if late.widened is not None else late
        assert (full.blocked, full.thin, full.widened) == (eager.blocked, eager.thin, None)
        assert (full.used is None) == (eager.used is None) and (full.used is None or np.array_equal(full.used, eager.used))
        assert (full.line is None) == (eager.line is None)
        if full.line is not None and eager.line is not None:
            assert np.array_equal(full.line[0], eager.line[0]) and np.array_equal(full.line[1], eager.line[1])


def test_obstacles_of_only_polygons_or_only_discs_build():
    """A table with no round solid (or no polygon) still builds its obstacle arrays."""
    from shapely.geometry import box

    from skirmish.geometry.los import build_obstacles
    from skirmish.geometry.solids import Cylinder, Prism

    walls = build_obstacles([("w", Prism(box(0, 0, 1, 3), 0.0, 2.0))]).grown(0.004)
    assert walls.owner_axis.shape == (1, 4) and abs(walls.owner_axis[0, 3]) == 1.0  # the long side runs along y
    discs = build_obstacles([("m", Cylinder(0.0, 0.0, 0.0, 0.5, 1.0))]).grown(0.004)
    assert discs.owner_axis.tolist() == [[0.0, 0.0, 1.0, 0.0]]
