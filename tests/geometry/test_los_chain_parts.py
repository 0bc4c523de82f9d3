"""The vectorised pieces of the LoS chain test against shapely (the obvious way)."""

from __future__ import annotations

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon

import pytest

from skirmish.geometry import los_chain as lc
from skirmish.geometry.kernels import (band_xrange, binding_vertices, clear_of, clip_polygons, hull_halfplanes,
                                       inside_run, vertices, vertices_each, xrange_within)
from skirmish.geometry.los import clip_polygons_many


def _convex(rng: np.random.Generator, rows: int, verts: int) -> np.ndarray:
    ang = np.sort(rng.uniform(0, 2 * np.pi, (rows, verts)), 1)
    pts = np.stack([np.cos(ang), np.sin(ang)], 2) * rng.uniform(0.3, 1.5, (rows, 1, 1))
    return pts + rng.normal(size=(rows, 1, 2))


@pytest.mark.parametrize("clip", [clip_polygons, clip_polygons_many], ids=["kernel", "numpy"])
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(3, 9))
def test_clip_polygons_is_shapelys_intersection_with_the_half_plane(clip, seed, verts):
    rng = np.random.default_rng(seed)
    k = _convex(rng, 4, verts)
    k[:, -1] = k[:, -2]  # padding by repetition is allowed
    n = rng.normal(size=(4, 2))
    c0 = rng.normal(size=4) * 0.7
    out = clip(k, n, c0)
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
    hp, count = hull_halfplanes(pts[None])
    lo, hi, hit = xrange_within(k, np.repeat(hp, 4, 0), np.repeat(count, 4))
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


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 14), st.booleans())
def test_hull_half_planes_bound_shapelys_convex_hull(seed, n, collinear):
    rng = np.random.default_rng(seed)
    pts = rng.normal(size=(3, n, 2)) * rng.uniform(0.1, 20)
    if collinear:  # (repeated and collinear points: one edge per direction)
        pts[:, n // 2:] = pts[:, :n - n // 2]
        pts[1, :, 1] = 0.5 * pts[1, :, 0]
    hp, count = hull_halfplanes(pts)
    for b in range(3):
        hull = shapely.MultiPoint(pts[b]).convex_hull
        rows = hp[b, :count[b]]
        assert np.all(rows[:, :2] @ pts[b].T - rows[:, 2:3] >= -1e-9)  # every point inside each
        if hull.geom_type != "Polygon" or hull.area < 1e-9:
            continue
        region = vertices(np.column_stack([-rows[:, :2], -rows[:, 2]]))
        assert abs(shapely.MultiPoint(region).convex_hull.area - hull.area) < 1e-7 * (1 + hull.area)
        assert count[b] == len(shapely.simplify(hull, 0).exterior.coords) - 1  # one row per edge
        ang = np.arctan2(-rows[:, 0], rows[:, 1])  # (the edge direction) counter-clockwise
        assert np.all(np.diff(ang) > 0)


def _chain_inputs(monkeypatch, seeds: tuple[int, ...]) -> list[tuple]:
    """The inputs of every chain test the search runs on the dense tables ``seeds``, one
    tuple per bundle in :func:`chain_blocks`'s order."""
    import random

    import skirmish.geometry.los as los
    from skirmish.scenario.adversarial import dense_table

    seen: list[tuple] = []
    inner = los.chain_blocks_many

    def record(P, Q, DP, DQ, zP, zQ, rb, verts, z0, z1, sealed, eta, widen, **kw):
        for b in range(len(P)):
            m = rb == b
            seen.append((P[b], Q[b], DP[b], DQ[b], zP[b], zQ[b], verts[m], z0[m], z1[m], sealed[m], eta, widen))
        return inner(P, Q, DP, DQ, zP, zQ, rb, verts, z0, z1, sealed, eta, widen, **kw)

    monkeypatch.setattr(los, "chain_blocks_many", record)
    for seed in seeds:
        dense_table(random.Random(seed)).line_of_sight_all()
    monkeypatch.undo()
    return seen


def _calls_of(monkeypatch, name: str, seeds) -> list[tuple]:
    """The arguments of every call to ``los_chain.<name>`` while the chain tests of the
    dense tables ``seeds`` run."""
    seen: list[tuple] = []
    real = getattr(lc, name)

    def record(*args):
        seen.append(args)
        return real(*args)

    monkeypatch.setattr(lc, name, record)
    _chain_inputs(monkeypatch, seeds)
    return seen


def test_E_LOS_chain_tests_in_one_batch_agree_with_one_by_one(monkeypatch):
    """The chain tests of a dense table, run in one batch, give the same answers (proof,
    solids used, thin, escaping line) as one bundle at a time."""
    from skirmish.geometry import los_chain

    seen = _chain_inputs(monkeypatch, (1, 3))  # (seed 3 leaves escaping lines)
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


def test_e_los_stacks_need_a_member_that_does_not_stand_on_the_table():
    """A deck on a post blocks as one joined solid (a stack of the two); solids that all
    stand on the table hold one another's height range and make no stack."""
    from shapely.geometry import box

    from skirmish.geometry.los import build_obstacles
    from skirmish.geometry.solids import Cylinder, Prism

    post, wall = Prism(box(0, 0, 1, 1), 0.0, 2.0), Prism(box(0.5, 0, 3, 0.4), 0.0, 3.0)
    grounded = build_obstacles([("post", post), ("wall", wall), ("m", Cylinder(0.6, 0.6, 0.0, 0.5, 1.0))])
    assert grounded.grown(0.004).members == ((0,), (1,), (2,))
    deck = build_obstacles([("post", post), ("deck", Prism(box(0.5, 0.5, 4, 4), 1.9, 2.2))]).grown(0.004)
    assert deck.names == ("post", "deck", "post+deck") and deck.members[-1] == (0, 1)


# --- the chain test's own line-space cuts (E-LOS, issue 12): each part against brute force


def _region_of_lines(rng: np.random.Generator) -> np.ndarray:
    """Vertices (α, β) of a small convex polygon of lines y = α + βx (counter-clockwise)."""
    centre = np.array([rng.normal() * 0.6, rng.normal() * 0.2])
    ang = np.sort(rng.uniform(0, 2 * np.pi, rng.integers(3, 7)))
    return centre + np.stack([np.cos(ang) * rng.uniform(0.02, 0.5), np.sin(ang) * rng.uniform(0.005, 0.1)], 1)


def _lines_in(V: np.ndarray, rng: np.random.Generator, n: int) -> np.ndarray:
    """The vertices and ``n`` random means of them: lines of the region."""
    w = rng.dirichlet(np.ones(len(V)), n)
    return np.concatenate([V, w @ V])


def _chord_x(poly: Polygon, a: float, b: float) -> tuple[float, float] | None:
    """Where the line y = a + bx runs inside the polygon (shapely), or None."""
    cut = poly.intersection(shapely.LineString([(-50.0, a - 50.0 * b), (50.0, a + 50.0 * b)]))
    if cut.is_empty or cut.length < 1e-12:
        return None
    x0, _, x1, _ = cut.bounds
    return x0, x1


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_E_LOS_inside_run_is_where_every_line_of_the_region_is_inside(seed):
    """inside_run: at both abscissae it returns every line of the region is inside the
    solid, and the stretch is the intersection of the vertex lines' chords (shapely)."""
    from skirmish.geometry.kernels import inside_run as _inside_run

    rng = np.random.default_rng(seed)
    k = _convex(rng, 3, 8) * 2.0
    V = _region_of_lines(rng)
    xa, xb = _inside_run(k, V)
    for r in range(3):
        poly = Polygon(k[r])
        chords = [_chord_x(poly, a, b) for a, b in V]
        if any(c is None for c in chords) or max(c[0] for c in chords) >= min(c[1] for c in chords):
            assert xa[r] > xb[r]  # no stretch
            continue
        lo, hi = max(c[0] for c in chords), min(c[1] for c in chords)
        if hi - lo < 1e-6:
            continue  # (a hair: either answer)
        assert xa[r] <= xb[r] and lo - 1e-9 <= xa[r] and xb[r] <= hi + 1e-9
        assert xa[r] - lo < 1e-4 * (hi - lo) + 1e-8 and hi - xb[r] < 1e-4 * (hi - lo) + 1e-8  # (nudged, not shrunk)
        for a, b in _lines_in(V, rng, 20):
            for x in (xa[r], xb[r]):
                assert poly.contains(shapely.Point(x, a + b * x))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([0.0, 0.01]))
def test_E_LOS_clear_of_says_every_line_passes_the_solid_by_at_least_wd(seed, wd):
    """_clear_of (a solid the chain test may leave out): when it says so, no line of the
    region comes within ``wd`` (vertically) of the solid; when it does not, some vertex
    line does, or the vertex lines pass it on different sides (so a line between them
    crosses it)."""

    rng = np.random.default_rng(seed)
    k = _convex(rng, 4, 7)
    k[:, :, 1] += rng.uniform(-2.5, 2.5, (4, 1))
    V = _region_of_lines(rng)
    got = _clear_of_numpy(k, V[None].repeat(4, 0), wd)
    for r in range(4):
        poly = Polygon(k[r])
        # vertical distance from each line to the polygon: the least |v_y - (a + b v_x)| over
        # its vertices when the line misses it, else 0
        def gap(a: float, b: float) -> float:
            s = k[r, :, 1] - a - b * k[r, :, 0]
            return 0.0 if s.min() < 0 < s.max() else float(np.abs(s).min())
        lines = _lines_in(V, rng, 40)
        if got[r]:
            assert all(gap(a, b) >= wd for a, b in lines)
            assert all(_chord_x(poly, a, b) is None for a, b in lines)
        else:
            above = [bool((k[r, :, 1] - a - b * k[r, :, 0]).min() > 0) for a, b in V]
            assert any(gap(a, b) <= wd + 1e-9 for a, b in V) or len(set(above)) > 1


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([1e-9, 0.05]))
def test_E_LOS_band_xrange_holds_every_crossing_of_the_regions_lines(seed, grow):
    """band_xrange: every line of the region that comes within ``grow`` of the solid over
    [xa, xb] does so within ``grow`` of the x-range it returns (as the chain test reads
    it: a superset, so the crossing ranges only shrink soundly); a solid it reports
    missed is not come near. The compiled ranges are its numpy oracle's, bit for bit."""
    rng = np.random.default_rng(seed)
    k = clip_polygons(_convex(rng, 4, 7) * 1.5, np.tile([1.0, 0.0], (4, 1)), np.full(4, -1.0))
    k = clip_polygons(k, np.tile([-1.0, 0.0], (4, 1)), np.full(4, -1.0))  # inside the slab [-1, 1]
    V = _region_of_lines(rng)
    spans = np.tile([-1.0, 1.0, grow], (4, 1))
    lo, hi = band_xrange(k, V[None].repeat(4, 0), spans)
    want = _band_xrange_numpy(k, V[None].repeat(4, 0), spans)
    assert np.array_equal(lo, want[0]) and np.array_equal(hi, want[1])
    for r in range(4):
        if np.isnan(k[r, 0, 0]):
            continue
        poly = Polygon(k[r]).buffer(grow * 0.99)
        for a, b in _lines_in(V, rng, 60):
            cut = poly.intersection(shapely.LineString([(-1.0, a - b), (1.0, a + b)]))
            if cut.is_empty:
                continue
            x0, _, x1, _ = cut.bounds
            assert lo[r] - grow - 1e-9 <= x0 and x1 <= hi[r] + grow + 1e-9, (r, lo[r], hi[r], x0, x1)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_E_LOS_patch_cut_to_its_disc_keeps_all_of_the_patch_in_the_disc(seed):
    """_within_disc: the patch cut by the disc's tangents still holds every point of the
    patch inside the disc, and nothing outside the patch."""
    from skirmish.geometry.los_chain import _within_disc

    rng = np.random.default_rng(seed)
    P = _convex(rng, 3, 6)
    D = np.concatenate([P.mean(1) + rng.normal(size=(3, 2)) * 0.5, rng.uniform(0.3, 1.2, (3, 1))], 1)
    out = _within_disc(P, D)
    for r in range(3):
        want = Polygon(P[r]).intersection(shapely.Point(D[r, :2]).buffer(D[r, 2], quad_segs=64))
        if np.isnan(out[r, 0, 0]):
            assert want.area < 1e-9
            continue
        got = Polygon(out[r]).buffer(0)
        assert want.difference(got.buffer(1e-9)).area < 1e-12
        assert got.difference(Polygon(P[r]).buffer(1e-9)).area < 1e-12


def _blocked_segments(p: np.ndarray, q: np.ndarray, verts: np.ndarray, z0: np.ndarray, z1: np.ndarray,
                      sealed: np.ndarray, eta: float) -> np.ndarray:
    """Brute force: which 3D segments p→q (n, 3) meet the open inside of some solid
    (a convex polygon ``verts[r]`` extruded over (z0, z1), from z0 - eta when sealed).
    Plan: Cyrus-Beck clipping against each edge; heights: z is linear along the segment."""
    n, R = len(p), len(verts)
    lo, hi = np.zeros((n, R)), np.ones((n, R))
    d = (q - p)[:, None, :2]
    for r in range(R):
        poly = verts[r]
        area = np.sum(poly[:, 0] * np.roll(poly[:, 1], -1) - np.roll(poly[:, 0], -1) * poly[:, 1])
        ring = poly if area > 0 else poly[::-1]
        for j in range(len(ring)):
            e = ring[(j + 1) % len(ring)] - ring[j]
            if np.hypot(*e) < 1e-12:
                continue
            nrm = np.array([-e[1], e[0]])
            f0 = (p[:, :2] - ring[j]) @ nrm
            f1 = d[:, 0] @ nrm
            with np.errstate(divide="ignore", invalid="ignore"):
                t = -f0 / f1
            lo[:, r] = np.where(f1 > 0, np.maximum(lo[:, r], t), lo[:, r])
            hi[:, r] = np.where(f1 < 0, np.minimum(hi[:, r], t), hi[:, r])
            dead = (np.abs(f1) < 1e-15) & (f0 <= 0)
            hi[dead, r] = -1.0
    zl = z0 - np.where(sealed, eta, 0.0)
    zp, dz = p[:, 2:3], (q - p)[:, 2:3]
    with np.errstate(divide="ignore", invalid="ignore"):
        ta, tb = (zl[None] - zp) / dz, (z1[None] - zp) / dz
    flat = np.abs(dz) < 1e-15
    zlo = np.where(flat, np.where((zp > zl[None]) & (zp < z1[None]), -np.inf, np.inf), np.minimum(ta, tb))
    zhi = np.where(flat, np.where((zp > zl[None]) & (zp < z1[None]), np.inf, -np.inf), np.maximum(ta, tb))
    return (np.minimum(hi, zhi) - np.maximum(lo, zlo) > 1e-9).any(1)


def _points_in(P: np.ndarray, D: np.ndarray, rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` random points of the convex polygon ``P`` inside the disc ``D`` (rejection)."""
    poly = Polygon(P).buffer(0)
    x0, y0, x1, y1 = poly.bounds
    out: list[np.ndarray] = []
    for _ in range(200):
        c = rng.uniform([x0, y0], [x1, y1], (4 * n, 2))
        c = c[shapely.contains_xy(poly, c[:, 0], c[:, 1]) & (np.hypot(*(c - D[:2]).T) < D[2])]
        out.extend(c)
        if len(out) >= n:
            break
    return np.array(out[:n]).reshape(-1, 2)


def test_E_LOS_chain_test_proofs_hold_for_sampled_segments(monkeypatch):
    """Every bundle the chain test proves blocked (exactly, not thin) on dense tables,
    including the proofs that cut the bundle's line space into strips, holds: sampled
    segments from P to Q, at heights within the end ranges, all meet some solid (brute
    force, independent of the test's relaxations)."""
    from skirmish.geometry import los_chain

    seen = _chain_inputs(monkeypatch, (2, 4, 5))
    cut = [0]
    parts = los_chain._parts

    def counted(*a, **k):
        cut[0] += 1
        return parts(*a, **k)

    monkeypatch.setattr(los_chain, "_parts", counted)
    rng = np.random.default_rng(0)
    proofs = 0
    for s in seen:
        ch = los_chain.chain_blocks(*s[:10], s[10], 0.0)
        if not ch.blocked:
            continue
        proofs += 1
        P, Q, DP, DQ, zP, zQ, verts, z0, z1, sealed, eta, _ = s
        a, b = _points_in(P, DP, rng, 300), _points_in(Q, DQ, rng, 300)
        n = min(len(a), len(b))
        pa = np.concatenate([a[:n], rng.uniform(zP[0], zP[1], (n, 1))], 1)
        qb = np.concatenate([b[:n], rng.uniform(zQ[0], zQ[1], (n, 1))], 1)
        assert _blocked_segments(pa, qb, verts, z0, z1, sealed, eta).all()
    assert proofs >= 15 and cut[0] >= 10, (proofs, cut[0])


def _feasible_brute(A: np.ndarray, block: np.ndarray) -> bool:
    """The system of rows a·(x, y) <= c is feasible: some crossing of two of its lines
    meets every row (a bounded polygon has a vertex), one pair at a time."""
    rows = np.concatenate([A, block])
    for i in range(len(rows)):
        for j in range(i + 1, len(rows)):
            (a0, a1, c), (b0, b1, d) = rows[i], rows[j]
            det = a0 * b1 - a1 * b0
            if abs(det) <= 1e-14:
                continue
            x, y = (c * b1 - a1 * d) / det, (a0 * d - c * b0) / det
            if all(r0 * x + r1 * y <= rc + 1e-9 for r0, r1, rc in rows):
                return True
    return False


def _halfplanes(rng: np.random.Generator, n: int, spread: float) -> np.ndarray:
    """``n`` random rows a·(x, y) <= c with unit normals, the line about ``spread`` from
    the origin (either side)."""
    ang = rng.uniform(0, 2 * np.pi, n)
    return np.stack([np.cos(ang), np.sin(ang), rng.uniform(-spread, spread, n)], 1)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_E_LOS_feasible_with_agrees_with_the_vertices_of_the_whole_system(seed):
    """The chain search's feasibility of a system with a block of rows, from the
    system's own vertices (the propagation: every block against one system), says a
    block is feasible exactly when the whole system with it has a vertex meeting every
    row (brute force)."""
    from skirmish.geometry.kernels import _cc

    rng = np.random.default_rng(seed)
    box = np.array([[1.0, 0, 3], [-1.0, 0, 3], [0, 1.0, 3], [0, -1.0, 3]])  # (bounded)
    system = np.concatenate([box, _halfplanes(rng, int(rng.integers(0, 9)), 1.5)])
    V = vertices(system)
    for _ in range(12):
        block = _halfplanes(rng, int(rng.integers(1, 4)), 2.0)
        got = _cc()._feasible_with(system, len(system), V, len(V), block, 0, len(block))
        assert got == _feasible_brute(system, block)


def test_E_LOS_widened_chain_test_skips_only_the_strips_the_exact_test_proved(monkeypatch):
    """The widened chain test (every segment blocked or within ``widen`` of a blocked one)
    does not search again a strip whose segments the exact test proved blocked (a blocked
    segment is within ``widen`` of itself): on dense tables it proves whatever it proved
    searching them again, gives the same escaping lines, and does less work."""
    from skirmish.geometry import los_chain

    seen = [s for s in _chain_inputs(monkeypatch, (3, 4)) if s[11] > 0]
    calls = [0]
    each = los_chain.chain_solve

    def counted(*a, **k):
        calls[0] += 1
        return each(*a, **k)

    class Unskipped(los_chain._Region):  # the exact test's proofs forgotten
        @property  # type: ignore[override]
        def blocked(self) -> bool:
            return False

        @blocked.setter
        def blocked(self, value: bool) -> None:
            pass

    monkeypatch.setattr(los_chain, "chain_solve", counted)
    skipping = [los_chain.chain_blocks(*s) for s in seen]
    work = calls[0]
    monkeypatch.setattr(los_chain, "_Region", Unskipped)
    calls[0] = 0
    again = [los_chain.chain_blocks(*s) for s in seen]
    assert calls[0] > work  # (the skip happens on these tables)
    widened = 0
    for got, ref in zip(skipping, again):
        assert got.blocked >= ref.blocked
        if not got.blocked and not ref.blocked:
            assert (got.line is None) == (ref.line is None)
        if got.line is not None and ref.line is not None:
            assert np.allclose(got.line[0], ref.line[0]) and np.allclose(got.line[1], ref.line[1])
        widened += got.thin
    assert widened >= 1


def test_E_LOS_chain_preparation_compiled_gives_the_numpy_oracles_arrays(monkeypatch):
    """The chain test's preparation in one compiled pass (frames, slab, base regions,
    height rows, solids clipped to the slab and what the search reads of them) gives the
    arrays of the numpy oracle, bit for bit, on dense tables' chain tests."""
    real = lc.chain_prepare
    seen = _calls_of(monkeypatch, "chain_prepare", range(1, 9))
    assert sum(len(a[0]) for a in seen) >= 20
    names = ("ok d n fP fQ x1 x2 base Vp d_lo d_hi zlo zhi zfull Vz rising falling k live kx0 kx1 lo_v hi_v zbot "
             "free0 freew can_pass xa xb").split()
    for args in seen:
        with np.errstate(all="ignore"):
            got, want = real(*args), _prepare_numpy(*args)
        assert len(got) == len(want) == len(names)
        for name, a, b in zip(names, got, want):
            assert np.array_equal(a, b, equal_nan=True), name
    assert sum(int(a[0].sum()) for a in (real(*x) for x in seen)) >= 20  # (bundles the test applies to)


def _support_y_numpy(k, beta):
    val = k[..., 1] - beta[:, None] * k[..., 0]
    return np.where(np.isnan(val), np.inf, val).min(1), np.where(np.isnan(val), -np.inf, val).max(1)


def _clear_of_numpy(k, V, wd):
    i = np.arange(len(k))
    return clear_of(k, V, i, i, wd, lc.SLACK)


def _prepare_numpy(P, Q, cP, cQ, DP, DQ, zP, zQ, rb, verts, z0, z1, sealed, eta, widen, slack):
    """The oracle of :func:`.kernels.chain_prepare` (the chain test's preparation): its
    arrays computed with numpy, one operation over every bundle and row at a time (the
    compiled pass makes the same ones in order)."""
    assert slack == lc.SLACK
    B = len(P)
    d = cQ - cP
    length = np.hypot(d[:, 0], d[:, 1])
    ok = length >= 1e-12
    d = d / np.where(ok, length, 1.0)[:, None]
    n = np.stack([-d[:, 1], d[:, 0]], 1)

    def frame(pts: np.ndarray, b: np.ndarray | slice) -> np.ndarray:  # pts (..., k, 2), one frame per leading row
        v = pts - cP[b][:, None, :]
        return np.stack([np.einsum("rkj,rj->rk", v, d[b]), np.einsum("rkj,rj->rk", v, n[b])], -1)

    allb = slice(None)
    fP, fQ = frame(P, allb), frame(Q, allb)
    x1, x2 = fP[:, :, 0].max(1), fQ[:, :, 0].min(1)
    ok &= x2 - x1 > 1e-9 * length  # the segments are graphs over the slab only when P lies wholly before Q
    x2 = np.where(ok, x2, x1 + 1.0)
    # where the segments cross the slab's two walls: between vertex pairs (monotone)
    px, py = fP[:, :, None, 0], fP[:, :, None, 1]
    qx, qy = fQ[:, None, :, 0], fQ[:, None, :, 1]
    y1 = py + (x1[:, None, None] - px) / (qx - px) * (qy - py)
    y2 = py + (x2[:, None, None] - px) / (qx - px) * (qy - py)
    y1lo, y1hi = y1.min((1, 2)), y1.max((1, 2))
    y2lo, y2hi = y2.min((1, 2)), y2.max((1, 2))
    span = x2 - x1
    b_lo, b_hi = (y2lo - y1hi) / span, (y2hi - y1lo) / span
    # the line meets both end discs: |c_y - α - β c_x| <= r·sqrt(1 + β²)
    f = np.sqrt(1.0 + np.maximum(b_lo * b_lo, b_hi * b_hi))
    one = np.ones(B)
    base_rows = [(one, x1, y1hi + lc.SLACK), (-one, -x1, -y1lo + lc.SLACK), (one, x2, y2hi + lc.SLACK), (-one, -x2, -y2lo + lc.SLACK)]
    for D in (DP, DQ):
        c = frame(D[:, None, :2], allb)[:, 0]
        rf = D[:, 2] * f + lc.SLACK
        base_rows += [(one, c[:, 0], c[:, 1] + rf), (-one, -c[:, 0], -c[:, 1] + rf)]
    # the line meets both patches: K = P or Q lies neither wholly above nor wholly below
    # it, min_v(v_y - β v_x) <= α <= max_v(v_y - β v_x); the bound below is concave in β,
    # so above its chord over [b_lo, b_hi] (the one above convex, below its chord)
    for fK in (fP, fQ):
        lo_lo, hi_lo = _support_y_numpy(fK, b_lo)
        lo_hi, hi_hi = _support_y_numpy(fK, b_hi)
        wide = b_hi - b_lo > 1e-12
        s_lo = np.where(wide, (lo_hi - lo_lo) / np.where(wide, b_hi - b_lo, 1.0), 0.0)
        s_hi = np.where(wide, (hi_hi - hi_lo) / np.where(wide, b_hi - b_lo, 1.0), 0.0)
        c_lo = np.where(wide, lo_lo - s_lo * b_lo, np.minimum(lo_lo, lo_hi))
        c_hi = np.where(wide, hi_lo - s_hi * b_lo, np.maximum(hi_lo, hi_hi))
        base_rows += [(-one, s_lo, -c_lo + lc.SLACK), (one, -s_hi, c_hi + lc.SLACK)]
    base = np.stack([np.stack(r, -1) for r in base_rows], 1)  # (B, 12, 3)
    Vp_all = vertices_each(base)
    ok &= ~np.all(np.isnan(Vp_all[..., 0]), 1)  # (numerically empty: leave it to the search)
    # the solids, clipped to the slab
    R = len(z0)
    fv = frame(verts, rb)
    ex = np.tile([1.0, 0.0], (R, 1))
    k = clip_polygons(fv, ex, x1[rb])
    k = clip_polygons(k, -ex, -x2[rb])
    live = ~np.isnan(k[:, 0, 0])
    # where a segment can cross K: within K and the corridor conv(P ∪ Q) that holds every
    # segment; this x-range shrinks to the crossing as the bundle does (the height escapes
    # below are taken at its ends)
    hull, nhull = hull_halfplanes(np.concatenate([fP, fQ], 1))
    hull[..., 2] -= widen + lc.SLACK
    kx0, kx1, hit = xrange_within(k, hull[rb], nhull[rb])
    live &= hit
    xP0, xQ1 = fP[:, :, 0].min(1), fQ[:, :, 0].max(1)
    # heights: along the segment z = γ + δ x, linear in x; bounds on δ and on z at the walls
    num_lo, num_hi = zQ[:, 0] - zP[:, 1], zQ[:, 1] - zP[:, 0]
    den_lo, den_hi = x2 - x1, xQ1 - xP0
    d_hi = np.where(num_hi > 0, num_hi / den_lo, num_hi / den_hi)
    d_lo = np.where(num_lo < 0, num_lo / den_lo, num_lo / den_hi)
    zlo, zhi = np.minimum(zP[:, 0], zQ[:, 0]), np.maximum(zP[:, 1], zQ[:, 1])
    zfull = lc._height_rows(x1, x2, xP0, xQ1, zP, zQ, d_lo, d_hi)  # rows 6-7 only when rising, 8-9 when falling
    rising, falling = d_lo >= 0, d_hi <= 0
    zpad = zfull.copy()
    zpad[:, 6:8] = np.where(rising[:, None, None], zfull[:, 6:8], zfull[:, 0:1])
    zpad[:, 8:10] = np.where(falling[:, None, None], zfull[:, 8:10], zfull[:, 0:1])
    Vz_all = vertices_each(zpad)
    ok &= ~np.all(np.isnan(Vz_all[..., 0]), 1)
    # per solid, the vertices binding "K above the line" (min of v_y - β v_x) and "below"
    # (max) for β across its range; a subset of the vertices is still implied
    lo_v, hi_v = binding_vertices(k, b_lo[rb], b_hi[rb])  # (R, 3, 2)
    zt, zbot = z1, z0 - np.where(sealed, eta, 0.0)
    # rows that every line of the base region passes wholly above or below (in plan): exact,
    # over every vertex (a solid left out must be escaped by every line)
    Vr = Vp_all[rb]  # (R, nV, 2), NaN where no vertex
    free = {wd: _clear_of_numpy(k, Vr, wd) for wd in {0.0, widen}}
    rowok = live & ok[rb]
    # (only a solid that a line may pass over or under needs them: one that rises above
    # both ends and reaches below both is escaped in plan or not at all)
    can_pass = (zt < zhi[rb] + 1e-9) | (zbot > zlo[rb] - 1e-9)
    need = np.flatnonzero(rowok & ~(free[widen] & free[0.0]) & can_pass)
    xa, xb = np.ones(len(z0)), np.zeros(len(z0))
    if len(need):
        xa[need], xb[need] = inside_run(k[need], Vr[need])
    return (ok, d, n, fP, fQ, x1, x2, base, Vp_all, d_lo, d_hi, zlo, zhi, zfull, Vz_all, rising, falling, k, live, kx0,
            kx1, lo_v, hi_v, zbot, free[0.0], free[widen], can_pass, xa, xb)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_E_SIZE_discs_drawn_from_the_disc_at_the_origin_are_geos_buffers(seed):
    """E-SIZE footprints: a disc drawn as the disc at the origin moved to its centre
    (:func:`.solids.discs`) is GEOS's buffer of the centre, vertex for vertex; a radius
    of 0 draws an empty polygon, as the buffer does."""
    from skirmish.geometry.solids import QUAD_SEGS, disc, discs

    rng = np.random.default_rng(seed)
    c = np.column_stack([rng.uniform(-60, 120, (40, 2)), rng.choice([0.31, 0.5, 0.63, 0.79, 1.0], 40)])
    c[::4, 2] = rng.uniform(0.01, 5, 10)
    want = shapely.buffer(shapely.points(c[:, :2]), c[:, 2], quad_segs=QUAD_SEGS)
    for got in (discs(c), [disc(*row) for row in c]):
        assert all(np.array_equal(shapely.get_coordinates(a), shapely.get_coordinates(b)) for a, b in zip(got, want))
    c[3, 2] = 0.0
    assert discs(c)[3].is_empty and discs(c)[0].equals_exact(want[0], 0.0)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_E_LOS_disc_bounds_read_off_the_ring_are_shapelys(seed):
    """A disc footprint's bounds and bounding circle, read off the ring drawn
    (``los._discs``, what a moved model's rows are derived from), are the values shapely
    reads off the polygon."""
    from skirmish.geometry import los

    rng = np.random.default_rng(seed)
    c = np.column_stack([rng.uniform(-60, 120, (12, 2)), rng.choice([0.31, 0.5, 0.79], 12) + rng.uniform(0, 1e-3)])
    got = los._discs([tuple(row) for row in c.tolist()])
    polys = [d.poly for d in got]
    assert np.array_equal(np.array([d.box for d in got]), shapely.bounds(np.array(polys, dtype=object)))
    assert np.array_equal(np.array([d.bound for d in got]), los._bounding_circles(polys))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([1e-6, 0.1 / 25.4, 0.01, 0.3]))
def test_E_LOS_grown_convex_pieces_are_drawn_chord_by_chord(seed, eps):
    """E-LOS clearance: ``grow_convex`` draws, round each corner, chords tangent to the
    ε-circle, vertex after vertex (the values of the loop below, bit for bit)."""
    import math

    from skirmish.geometry.los import GROW_QUAD_SEGS, grow_convex

    rng = np.random.default_rng(seed)
    poly = shapely.convex_hull(shapely.multipoints(rng.uniform(-20, 20, (int(rng.integers(3, 12)), 2))))
    if poly.geom_type != "Polygon":
        return
    pts = np.asarray(shapely.geometry.polygon.orient(poly, 1.0).exterior.coords)[:-1]
    edge = np.roll(pts, -1, axis=0) - pts
    keep = np.hypot(edge[:, 0], edge[:, 1]) > 1e-12
    pts, edge = pts[keep], edge[keep]
    ang = np.arctan2(-edge[:, 0], edge[:, 1])
    want = []
    for i in range(len(pts)):
        a0, a1 = ang[i - 1], ang[i]
        turn = (a1 - a0) % (2 * math.pi)
        m = max(1, math.ceil(turn / (math.pi / (2 * GROW_QUAD_SEGS)) - 1e-9))
        d = turn / m
        rad = eps / math.cos(d / 2)
        want += [(pts[i, 0] + rad * math.cos(a0 + (j + 0.5) * d), pts[i, 1] + rad * math.sin(a0 + (j + 0.5) * d))
                 for j in range(m)]
    assert np.array_equal(shapely.get_coordinates(grow_convex(poly, eps)), shapely.get_coordinates(Polygon(want)))


def test_E_LOS_chain_polygons_of_pieces_are_inscribed_in_them():
    """The chain test's polygon of each piece (``Obstacles.verts``): a polygon piece's own
    vertices; a round piece's the inscribed 48-gon of its circle, drawn where read (a moved
    model's rows are not redrawn), padded by repeating its last vertex."""
    from skirmish.geometry import los
    from skirmish.geometry.solids import Cylinder, Prism

    box = Polygon([(0, 0), (4, 0), (4, 1), (0, 1)])
    obs = los.build_obstacles([("a", Cylinder(1.0, 2.0, 0.0, 0.5, 1.0)), ("w", Prism(box, 0.0, 2.0)),
                               ("b", Cylinder(-3.0, 1.5, 0.0, 0.75, 1.0))]).grown(los.DEFAULT_TOLERANCE)
    V = obs.piece_verts
    assert V.shape[1] >= 48
    for p in range(len(V)):
        o = int(obs.piece_owner[p])
        if obs.piece_round[p]:
            x, y, r = obs.solids.circles[o]
            want = np.array([x, y]) + r * np.stack([np.cos(np.arange(48) * (2 * np.pi / 48)),
                                                     np.sin(np.arange(48) * (2 * np.pi / 48))], 1)
        else:
            want = np.asarray(shapely.geometry.polygon.orient(obs.solids.parts[o][0], 1.0).exterior.coords)[:-1]
        assert np.array_equal(V[p, :len(want)], want) and (V[p, len(want):] == want[-1]).all()
    assert np.array_equal(obs.verts(np.array([2, 0])), V[[2, 0]])


def test_E_LOS_chain_search_compiled_gives_the_python_searchs_answers(monkeypatch):
    """The chain test's search over escape choices on one region, compiled, gives the
    answers of the plain Python search (its oracle) bit for bit on dense tables' chain
    tests: found or not, the escaping (α, β), its (γ, δ) and the relevant solids."""
    real = lc.chain_solve
    seen = _calls_of(monkeypatch, "chain_solve", range(1, 7))
    assert len(seen) >= 30
    found = 0
    for args in seen:
        ok, pt, gd, rel = real(*args)
        want = _solve_python(*args)
        assert ok == want[0] and rel.tolist() == want[3]
        if ok:
            found += 1
            assert pt.tolist() == want[1].tolist()
            assert gd.tolist() == want[2].tolist() if want[2] is not None else np.isnan(gd).all()
    assert 0 < found < len(seen)


def test_E_LOS_chain_search_of_every_base_region_at_once_gives_chain_solves_answers(monkeypatch):
    """:func:`.kernels.chain_solve_each` (the exact search of every bundle's base region
    in one compiled pass) gives per bundle what :func:`.kernels.chain_solve` gives on
    that region alone, on dense tables' chain tests: found or not, the escape (α, β) and
    (γ, δ), the relevant solids."""
    seen = _calls_of(monkeypatch, "chain_solve_each", range(1, 7))
    assert len(seen) >= 10
    found = blocked = 0
    for args in seen:
        ok, base, zfull, sel, rising, falling, Vz, nVz, at, plan, free, ins_lo, ins_hi, ka, kb, zt, zb = args[:17]
        d_lo, d_hi, zlo, zhi, slack, max_nodes = args[17:]
        got, pts, gds, rel = lc.chain_solve_each(*args)
        assert not got[~ok].any()
        for b in np.flatnonzero(ok).tolist():
            g = slice(at[b], at[b + 1])
            want, pt, gd, want_rel = lc.chain_solve(
                base[b], zfull[b, lc._HEIGHT_SEL[bool(rising[b]), bool(falling[b])]], Vz[b, :nVz[b]], plan[g],
                free[g], ins_lo[g], ins_hi[g], ka[g], kb[g], zt[g], zb[g], d_lo[b], d_hi[b], zlo[b], zhi[b], 0.0,
                slack, max_nodes)
            assert got[b] == want and rel[g].tolist() == want_rel.tolist()
            if want:
                assert pts[b].tolist() == pt.tolist() and np.array_equal(gds[b], gd, equal_nan=True)
            found += want
            blocked += not want
    assert found and blocked


def _solve_python(base, zbase, Vz, plan, free, ins_lo, ins_hi, ka, kb, zt, zb, d_lo, d_hi, zlo, zhi, wd, slack,
                  max_nodes):
    """The oracle of :func:`.kernels.chain_solve`: per solid not free, the ways to escape
    it (plan: wholly above or below; heights: over or under it where every line is inside
    it, else at an end of its crossing range), the relevant solids, the forced choices
    propagated round by round, then a depth-first search, each system's point the mean of
    its vertices (:func:`.kernels.vertices`)."""
    m = len(free)
    blocks: list[np.ndarray] = [r.copy() for i in range(m) for r in plan[i]]  # options 2i, 2i + 1
    for b in blocks:
        b[:, 2] = b[:, 2] - wd + slack if wd else b[:, 2] + slack
    space = [0] * (2 * m)
    of: dict[int, list[int]] = {}
    for i in np.flatnonzero(~free).tolist():
        of[i] = [2 * i, 2 * i + 1]
        top, bot = -(zt[i] + wd) + slack, zb[i] - wd + slack
        over, under = zt[i] + wd < zhi + 1e-9, zb[i] - wd > zlo - 1e-9
        xa, xb = ins_lo[i], ins_hi[i]
        if xa <= xb:
            new = [b for b, go in (([[-1.0, -xa, top], [-1.0, -xb, top]], over),
                                   ([[1.0, xa, bot], [1.0, xb, bot]], under)) if go]
        else:
            new = []
            for far, x in ((False, ka[i] - wd), (True, kb[i] + wd)):
                if over and not (far and d_hi < 0) and not (not far and d_lo > 0):
                    new.append([[-1.0, -x, top]])
                if under and not (far and d_lo > 0) and not (not far and d_hi < 0):
                    new.append([[1.0, x, bot]])
        for b in new:
            of[i].append(len(blocks))
            blocks.append(np.array(b))
            space.append(1)

    def held(e: int) -> bool:  # (products summed as the kernel does: no fused multiply-add)
        r = blocks[e]
        return bool((Vz[:, None, 0] * r[:, 0] + Vz[:, None, 1] * r[:, 1] <= r[:, 2] + 1e-12).all())

    rel = [i for i, es in of.items() if not any(held(e) for e in es[2:])]
    relevant = [i in rel for i in range(m)]
    state = [base, zbase]
    open_, ops = rel, dict(of)

    def feasible(A: np.ndarray, b: np.ndarray) -> bool:
        return len(vertices(np.concatenate([A, b]))) > 0

    changed = True
    while changed and open_:
        changed = False
        feas = {e: feasible(state[space[e]], blocks[e]) for i in open_ for e in ops[i]}
        keep, fixes = [], []
        for i in open_:
            ok = [e for e in ops[i] if feas[e]]
            if not ok:
                return False, None, None, relevant
            if len(ok) == 1:
                fixes.append(ok[0])
            else:
                keep.append(i)
                ops[i] = ok
        for e in fixes:
            state[space[e]] = np.concatenate([state[space[e]], blocks[e]])
            changed = True
        open_ = keep
    nodes = [0]
    heights: list[np.ndarray | None] = [None]

    def escape(st: list[np.ndarray], depth: int, changed: int, pt: np.ndarray | None) -> np.ndarray | None:
        if changed != 1:
            pt = lc.feasible_point(st[0])
        if pt is None or (changed != 0 and lc.feasible_point(st[1]) is None):
            return None
        if depth == len(open_):
            heights[0] = lc.feasible_point(st[1])
            return pt
        nodes[0] += 1
        if nodes[0] > max_nodes:
            return pt
        for e in ops[open_[depth]]:
            nxt = list(st)
            nxt[space[e]] = np.concatenate([st[space[e]], blocks[e]])
            found = escape(nxt, depth + 1, space[e], pt)
            if found is not None:
                return found
        return None

    pt = escape(state, 0, -1, None)
    return pt is not None, pt, heights[0], relevant


def test_E_LOS_chain_regions_compiled_give_the_numpy_oracles_arrays(monkeypatch):
    """The strips of a chain test's region, tightened in one compiled pass (binding
    vertices, free solids, crossing ranges, inside stretches, the ends' abscissae), give
    the arrays of the numpy oracle, bit for bit, on dense tables' chain tests."""
    real = lc.chain_regions
    seen = _calls_of(monkeypatch, "chain_regions", (2, 4, 5))
    assert len(seen) >= 10
    for args in seen:
        with np.errstate(all="ignore"):
            got, want = real(*args), _regions_numpy(*args)
        assert len(got) == len(want)
        for a, b in zip(got, want):
            assert np.array_equal(a, b, equal_nan=True)


def _regions_numpy(k, V, free0, freew, can_pass, ka, kb, ins_lo, ins_hi, ends, end_spans, x1, x2, widen, slack):
    """The oracle of :func:`.kernels.chain_regions`: its arrays computed with numpy, one
    operation over every region and solid at a time."""
    G, m = len(V), len(k)
    Vy = V[:, :, 1:]
    lo_v, hi_v = binding_vertices(k, np.minimum.reduce(Vy, 1), np.maximum.reduce(Vy, 1))
    pairs = np.tile(np.arange(m), G), np.repeat(np.arange(G), m)
    f0, fw = (fr[None] | clear_of(k, V, *pairs, wd, slack).reshape(G, m) for wd, fr in ((0.0, free0), (widen, freew)))
    need = np.flatnonzero(~(f0 & fw).all(0) & can_pass)
    W = max(k.shape[1], ends.shape[1])
    polys = np.concatenate([lc._pad(k[need], W), lc._pad(ends, W)])
    spans = np.concatenate([np.array([(x1, x2, widen + slack)] * len(need)).reshape(-1, 3), end_spans])
    P_ = len(polys)
    lo, hi = _band_xrange_numpy(np.concatenate([polys] * G), np.repeat(V, P_, 0), np.concatenate([spans] * G))
    lo, hi = lo.reshape(G, P_), hi.reshape(G, P_)
    hit = lo[:, :-2] <= hi[:, :-2]
    ka, kb, ins_lo, ins_hi = (np.repeat(a[None], G, 0) for a in (ka, kb, ins_lo, ins_hi))

    def tighten(a: np.ndarray, op: np.ufunc, by: np.ndarray, where: np.ndarray) -> None:
        sub = a[:, need]
        op(sub, by, out=sub, where=where)
        a[:, need] = sub

    tighten(ka, np.maximum, lo[:, :-2], hit)
    tighten(kb, np.minimum, hi[:, :-2], hit)
    for fr in (f0, fw):
        fr[:, need] |= ~hit
    if len(need):
        xa, xb = inside_run(np.concatenate([k[need]] * G), np.repeat(V, len(need), 0))
        xa, xb = xa.reshape(G, -1), xb.reshape(G, -1)
        more = hit & (xa <= xb)
        tighten(ins_lo, np.minimum, xa, more)
        tighten(ins_hi, np.maximum, xb, more)
    return (lo_v.reshape(-1, 3, 2), hi_v.reshape(-1, 3, 2), f0, fw, ka, kb, ins_lo, ins_hi, lo[:, -2], hi[:, -1])


def _band_xrange_numpy(k: np.ndarray, V: np.ndarray, spans: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The oracle of :func:`.kernels.band_xrange`: one numpy operation over every polygon
    at a time (clipped by the two lines bounding the band, grown by ``grow``)."""
    xa, xb, grow = spans[:, 0], spans[:, 1], spans[:, 2]
    ya = V[..., 0] + V[..., 1] * xa[:, None]
    yb = V[..., 0] + V[..., 1] * xb[:, None]
    span = np.maximum(xb - xa, 1e-12)
    out = k
    nrm = np.empty((len(k), 2))
    for y1, y2, sgn in ((np.minimum.reduce(ya, 1), np.minimum.reduce(yb, 1), 1.0),
                        (np.maximum.reduce(ya, 1), np.maximum.reduce(yb, 1), -1.0)):
        slope = (y2 - y1) / span
        # sgn·(y - y1 - slope (x - xa)) >= -grow·|(-slope, 1)|
        nrm[:, 0] = -sgn * slope
        nrm[:, 1] = sgn
        out = clip_polygons(out, nrm, sgn * (y1 - slope * xa) - grow * np.hypot(slope, 1.0))
    lo, hi = np.fmin.reduce(out[..., 0], 1), np.fmax.reduce(out[..., 0], 1)  # (np.nanmin's, without its warning)
    empty = np.isnan(out[:, 0, 0])
    lo[empty], hi[empty] = np.inf, -np.inf
    return lo, hi
