"""The compiled kernels of the LoS chain test (E-LOS) against shapely's polygons (the
obvious way): vertices and feasibility of small 2-D systems a·x <= c."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.geometry.kernels import vertices, vertices_each

_BOX = np.array([[1.0, 0.0, 5.0], [-1.0, 0.0, 5.0], [0.0, 1.0, 5.0], [0.0, -1.0, 5.0]])


def _system(rng: np.random.Generator, m: int) -> np.ndarray:
    """``m`` random rows a·x <= c, inside a box (the polygon is bounded)."""
    a = rng.normal(size=(m, 2))
    a /= np.hypot(a[:, 0], a[:, 1])[:, None]
    c = rng.uniform(-0.5, 2.0, m)
    return np.vstack([_BOX, np.column_stack([a, c])])


def _shapely_region(A: np.ndarray) -> shapely.Geometry:
    region = shapely.box(-6, -6, 6, 6)
    for a0, a1, c in A:
        n = np.array([a0, a1])
        base = n * c / (n @ n)
        t = np.array([-a1, a0]) * 50
        u = -n * 50
        region = region.intersection(shapely.Polygon([base + t, base - t, base - t + u, base + t + u]))
    return region


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 12))
def test_e_los_kernel_vertices_are_the_corners_of_the_polygon(seed, m):
    rng = np.random.default_rng(seed)
    A = _system(rng, m)
    got = vertices(A)
    want = _shapely_region(A)
    if want.is_empty or want.area < 1e-9:
        assert len(got) == 0 or want.distance(shapely.points(got)).max() < 1e-6
        return
    corners = np.asarray(want.exterior.coords)[:-1]
    # every vertex found is a corner of the polygon, and every corner is found
    d = np.hypot(*(got[:, None, :] - corners[None, :, :]).transpose(2, 0, 1))
    assert d.min(1).max() < 1e-6
    sharp = [k for k in range(len(corners)) if _is_corner(corners, k)]
    assert d[:, sharp].min(0).max() < 1e-6


def _is_corner(c: np.ndarray, k: int) -> bool:
    """Whether the ring's point ``k`` turns (shapely may keep a point inside a straight edge)."""
    a, b, n = c[k - 1], c[k], c[(k + 1) % len(c)]
    u, v = b - a, n - b
    return abs(u[0] * v[1] - u[1] * v[0]) > 1e-9 * (1 + np.hypot(*u) * np.hypot(*v))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 10), st.integers(1, 5))
def test_e_los_kernel_vertices_each_is_vertices_row_by_row(seed, m, rows):
    """The batch keeps each system's vertices, in order, NaN after them; a NaN row (or a
    NaN constant) makes no vertex."""
    rng = np.random.default_rng(seed)
    A = np.stack([_system(rng, m) for _ in range(rows)])
    A[0, -1, 2] = np.nan if seed % 3 == 0 else A[0, -1, 2]
    got = vertices_each(A)
    for b in range(rows):
        one = vertices(A[b])
        assert not np.isnan(one).any()
        assert np.array_equal(got[b, :len(one)], one)
        assert np.isnan(got[b, len(one):]).all()


def test_e_los_separator_kernel_gives_the_numpy_verdicts(monkeypatch):
    """The compiled separator sweep (taken for big batches, or once numba is loaded)
    and its numpy twin (small queries) agree on every pair of two dense tables."""
    import random

    from skirmish.geometry import kernels
    from skirmish.scenario.adversarial import dense_table

    def verdicts(use_kernel: bool) -> list:
        monkeypatch.setattr(kernels, "wanted", lambda work: use_kernel)
        out = []
        for seed in (3, 4):
            for r in dense_table(random.Random(seed)).line_of_sight_all():
                out.append((r.visible, r.stage, r.blockers, r.witness))
        return out

    assert verdicts(True) == verdicts(False)


def _recorded(monkeypatch, name: str) -> list[tuple]:
    """The arguments of every call of ``los.<name>`` while the LoS of every ordered pair
    of six dense tables is solved."""
    import random

    from skirmish.geometry import los
    from skirmish.scenario.adversarial import dense_table

    calls: list[tuple] = []
    real = getattr(los, name)
    # (the numpy search from the first round on: the compiled first round calls none of them)
    monkeypatch.setattr(los, "_first_round_compiled", los._search)

    def record(*args):
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(los, name, record)
    for seed in range(6):
        dense_table(random.Random(seed)).line_of_sight_all()
    monkeypatch.setattr(los, name, real)
    return calls


@pytest.mark.parametrize("table", ["dense", "random"])
def test_e_los_compiled_first_round_gives_the_searchs_answers(table):
    """E-LOS: the first round compiled (:func:`.kernels.round_one`, then the chain test on
    the pairs it leaves to it) answers every pair exactly as the search does (verdict,
    stage, solids, witness, bit for bit); it settles most pairs or hands them to the
    chain test, and the rest go on to the search."""
    import random

    from skirmish.geometry import kernels, los
    from skirmish.scenario.adversarial import dense_table
    from skirmish.scenario.generate import random_table

    kernels.load()
    thin = los.DEFAULT_TOLERANCE * (2.0 - los.GROW_FACTOR)
    settled = total = 0
    for seed in range(3):
        t = dense_table(random.Random(seed)) if table == "dense" else \
            random_table(random.Random(seed), models=12, scenery=25)
        obs = t.los_obstacles.grown(los.DEFAULT_TOLERANCE)
        ids = t.model_ids
        src = [t._viewer(a) for a in ids for b in ids if a != b]
        dst = [t._viewer(b) for a in ids for b in ids if a != b]
        fac = [t.model(a).facing_vector for a in ids for b in ids if a != b]
        S, T = los.Viewers.of(src).rows, los.Viewers.of(dst).rows
        arc, status = kernels.round_one(S, T, los._halfplanes(S, fac), thin, obs.owner_box, obs, los.ETA, los._BIG,
                                        los.CORNER_CANDIDATES)[:2]
        assert np.array_equal(arc, los._pair_values(src, dst, fac)[-1])
        fast = los.line_of_sight_batch(obs, src, dst, fac)
        slow = los._search(obs, src, dst, fac, thin)
        assert fast == slow
        settled += int((status > 0).sum())
        total += int((~arc).sum())
    assert settled > 0.6 * total, (settled, total)


def test_e_los_compiled_first_round_gives_the_searchs_answers_to_points():
    """E-LOS, E-COVER: to points on a target's surface (Cover's samples: a point's patch
    is one point, so its witness grid is one column), the compiled first round answers
    as the search does, bit for bit."""
    import random

    from skirmish.geometry import kernels, los
    from skirmish.scenario.adversarial import dense_table

    kernels.load()
    thin = los.DEFAULT_TOLERANCE * (2.0 - los.GROW_FACTOR)
    seen = hidden = 0
    for seed in range(3):
        t = dense_table(random.Random(seed))
        obs = t.los_obstacles.grown(los.DEFAULT_TOLERANCE)
        ids = t.model_ids
        for a, b in random.Random(seed).sample([(a, b) for a in ids for b in ids if a != b], 12):
            pts, _, want = t._wanted_samples(a, b)
            dst = [los.Viewer(x, y, 0.0, z, 0.0, -1) for x, y, z in pts[want]]
            src, fac = [t._viewer(a)] * len(dst), [t.model(a).facing_vector] * len(dst)
            fast = los.line_of_sight_batch(obs, src, dst, fac)
            assert fast == los._search(obs, src, dst, fac, thin)
            seen += sum(r.visible for r in fast)
            hidden += sum(not r.visible and not r.out_of_arc for r in fast)
    assert seen and hidden > 20


def test_e_los_blocked_rows_kernels_give_the_numpy_rows(monkeypatch):
    """The single-solid tests of every round (containment and separators), compiled and
    numpy, name the same rows on every bundle the searches of six dense tables examine
    (their inputs recorded, then replayed both ways), and the same rows that cover a
    separator line together with its own (the proof's other solids)."""
    from skirmish.geometry import kernels, los

    calls = _recorded(monkeypatch, "_blocked_rows")
    real = los._blocked_rows
    assert sum(len(args[0].bundle) for args in calls) > 1000
    found = {"separator": 0, "containment": 0, "with": 0}
    for args in calls:
        monkeypatch.setattr(kernels, "wanted", lambda work: True)
        fast = real(*args)
        monkeypatch.setattr(kernels, "wanted", lambda work: False)
        slow = real(*args)
        assert fast.keys() == slow.keys()
        for kind in fast:
            assert np.array_equal(fast[kind], slow[kind]), kind
            found[kind] += len(fast[kind])
    assert min(found.values()) > 0, found  # (both tests name rows)


def test_e_los_witness_heights_kernel_gives_the_numpy_heights(monkeypatch):
    """E-LOS witnesses: the heights of every candidate segment the searches of six dense
    tables try (over every piece it crosses, or passing under some), compiled and numpy:
    the same verdicts, the same culprits and the same heights, bit for bit."""
    from skirmish.geometry import los

    calls = _recorded(monkeypatch, "_witness_heights")
    real = los._witness_heights
    seen = {"ok": 0, "ruled out": 0}
    for args in calls:
        (fok, fh, fc), (sok, sh, sc) = _both_ways(real, *args)
        assert np.array_equal(fok, sok) and np.array_equal(fh, sh)
        assert all(fc[k] == sc[k] for k in range(args[1]))
        seen["ok"] += int(sok.sum())
        seen["ruled out"] += int((~sok).sum())
    assert min(seen.values()) > 100, seen


def test_e_los_heights_lp_kernel_solves_each_segment_as_the_numpy_lp():
    """E-LOS witnesses: the small 2D problem of a segment that may pass under some piece
    (heights over or under each one it crosses), compiled for many segments at once and
    solved one by one in numpy: the same verdicts and the same heights, bit for bit, over
    random segments with up to a dozen crossed pieces, some of them tried both ways."""
    from skirmish.geometry import kernels, los

    rng = np.random.default_rng(7)
    n, per = 600, rng.integers(1, 12, 600)
    starts = np.concatenate([[0], np.cumsum(per)])
    R = int(starts[-1])
    idx = rng.permutation(R)  # (a segment's rows need not be contiguous)
    t0 = rng.uniform(0, 1, R)
    t1 = np.minimum(t0 + rng.uniform(0.01, 0.5, R), 1.0)
    z0 = rng.uniform(0, 3, R)
    z1 = z0 + rng.uniform(0.1, 3, R)
    sealed = rng.random(R) < 0.5
    lo = rng.uniform(-1, 2, (n, 2))
    zP = np.stack([lo[:, 0], lo[:, 0] + rng.uniform(0.5, 5, n)], 1)
    zQ = np.stack([lo[:, 1], lo[:, 1] + rng.uniform(0.5, 5, n)], 1)
    under = np.flatnonzero(rng.random(n) < 0.9)
    found, hts = kernels.heights_lp(under, starts, idx, t0, t1, z0, z1, sealed, zP, zQ, los.ETA)
    for u, k in enumerate(under):
        sel = idx[starts[k]:starts[k + 1]]
        h = los._heights_lp(t0[sel], t1[sel], z0[sel], z1[sel], sealed[sel], zP[k], zQ[k])
        assert found[u] == (h is not None), k
        if h is not None:
            assert (hts[u, 0], hts[u, 1]) == h, k
    assert found.sum() > 50 and (~found).sum() > 50, (found.sum(), (~found).sum())
    # (some found segments had pieces they could pass over or under: the branches were tried)
    b = np.repeat(np.arange(n), per)
    rows = idx  # row idx[j] belongs to segment b[j]
    lift = lambda z, t: (1 - t) * z[b, 0] + t * z[b, 1]  # noqa: E731
    ta, tb = t0[rows], t1[rows]
    top, bottom = np.stack([zP[:, 1], zQ[:, 1]], 1), np.stack([zP[:, 0], zQ[:, 0]], 1)
    need = z0[rows] - np.where(sealed[rows], los.ETA, 0.0)
    over = (lift(top, ta) >= z1[rows] - 1e-12) & (lift(top, tb) >= z1[rows] - 1e-12)
    below = (lift(bottom, ta) <= need) & (lift(bottom, tb) <= need)
    either = np.zeros(n, bool)
    either[b[over & below]] = True
    assert either[under[found]].sum() > 20


_LOAD_CHECK = """
import inspect, re
from skirmish.geometry import kernels
kernels.load()
called = set(re.findall(r"_cc?\\(\\)\\.(_[a-z_]+)\\(", inspect.getsource(kernels)))
later = {"_hull_halfplanes", "_xrange", "_inside_run", "_clear_of", "_binding_vertices"}
assert later < called and len(called) > 30, called
mods = [kernels._c(), kernels._cc()]
print(sorted(n for n in called - later if not next(getattr(m, n) for m in mods if hasattr(m, n)).signatures))
"""


def test_load_compiles_every_kernel_the_library_calls():
    """``kernels.load()`` (what a benchmark or a long run calls first) leaves no kernel the
    wrappers call to compile, or load from the disk cache, in the middle of a query: in a
    fresh process, each has a signature once it returns (but the few its docstring names,
    which only the tests' oracles and other kernels call)."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _LOAD_CHECK], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def _convex(rng: np.random.Generator, verts: int) -> np.ndarray:
    ang = np.sort(rng.uniform(0, 2 * np.pi, verts))
    return np.stack([np.cos(ang), np.sin(ang)], 1) * rng.uniform(0.5, 2.0) + rng.normal(size=2)


def _line(ab: np.ndarray) -> shapely.Geometry:
    return shapely.LineString([(-50, ab[0] - 50 * ab[1]), (50, ab[0] + 50 * ab[1])])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(4, 9))
def test_e_los_kernel_chords_are_shapelys_crossings(seed, verts):
    from skirmish.geometry.kernels import chords

    rng = np.random.default_rng(seed)
    k = np.stack([_convex(rng, verts) for _ in range(3)])
    k[:, -1] = k[:, -2]  # (padding by repetition)
    lines = np.column_stack([rng.normal(size=5), rng.normal(size=5)])
    xe, xf = chords(k, lines)
    for i in range(3):
        poly = shapely.Polygon(k[i])
        for j in range(5):
            cut = poly.intersection(_line(lines[j]))
            if cut.length > 1e-9:
                x0, _, x1, _ = cut.bounds
                assert abs(xe[i, j] - x0) < 1e-9 and abs(xf[i, j] - x1) < 1e-9
            elif cut.is_empty:
                assert xe[i, j] == np.inf and xf[i, j] == -np.inf


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(3, 9))
def test_e_los_kernel_binding_vertices_are_the_extreme_vertices(seed, verts):
    from skirmish.geometry.kernels import binding_vertices

    rng = np.random.default_rng(seed)
    k = np.stack([_convex(rng, verts) for _ in range(3)])
    k[0, -1] = np.nan  # (NaN padding is skipped)
    b_lo = rng.normal(size=(2, 1))
    b_hi = b_lo + rng.uniform(0, 1, (2, 1))
    lo_v, hi_v = binding_vertices(k, b_lo, b_hi)
    assert lo_v.shape == hi_v.shape == (2, 3, 3, 2)
    for g in range(2):
        for i in range(3):
            pts = k[i][~np.isnan(k[i, :, 0])]
            for s, beta in enumerate([b_lo[g, 0], (b_lo[g, 0] + b_hi[g, 0]) / 2, b_hi[g, 0]]):
                val = pts[:, 1] - beta * pts[:, 0]
                assert np.array_equal(lo_v[g, i, s], pts[np.argmin(val)])
                assert np.array_equal(hi_v[g, i, s], pts[np.argmax(val)])


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_e_los_kernel_disc_containment_is_where_every_blend_is_inside(seed):
    """The t-interval where every (1-t)p + tq is inside a circle (containment in a round
    solid): inside at sampled t within it, some blend outside just beyond its ends."""
    from skirmish.geometry.kernels import disc_containment

    rng = np.random.default_rng(seed)
    P = rng.normal(size=(4, 5, 2)) * 0.2 + np.array([-2.0, 0.0])
    Q = rng.normal(size=(4, 5, 2)) * 0.2 + np.array([2.0, 0.0])
    circ = np.column_stack([rng.normal(size=(4, 2)) * 0.5, rng.uniform(0.5, 2.5, 4)])
    t0, t1 = disc_containment(P, Q, circ)

    def worst(r: int, t: float) -> float:  # the farthest blend from the centre, minus the radius
        blend = (1 - t) * P[r][:, None] + t * Q[r][None]
        return float(np.hypot(*(blend - circ[r, :2]).transpose(2, 0, 1)).max() - circ[r, 2])

    for r in range(4):
        if t1[r] - t0[r] > 1e-9:
            for t in np.linspace(t0[r], t1[r], 7)[1:-1]:
                assert worst(r, t) < 1e-12
            for t in (t0[r] - 1e-6, t1[r] + 1e-6):
                assert not 0 < t < 1 or worst(r, t) > 0
        else:
            assert all(worst(r, t) > -1e-9 for t in np.linspace(0, 1, 41))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(-0.01, 0.01))
def test_e_los_kernel_twins_give_the_same_bits(seed, margin):
    """The kernels with a numpy twin (crossings, containment in a circle) give the twin's
    exact bits, NaN where it has NaN: which one a process runs never changes an answer."""
    from skirmish.geometry import kernels, los

    rng = np.random.default_rng(seed)
    obs = _obstacles(seed % 4)
    R = 40
    p = rng.uniform(0, 36, (R, 2))
    q = p + rng.normal(size=(R, 2)) * 6
    q[0] = p[0]  # (a point)
    piece = rng.integers(0, len(obs.piece_owner), R)
    rows = los._Rows(np.arange(R), piece, obs.piece_owner[piece])
    fast, slow = _both_ways(los._crossing, p, q, rows, obs, margin)
    for a, b in zip(fast, slow):
        assert np.array_equal(a, b, equal_nan=True)
    P = rng.normal(size=(R, 6, 2)) * 0.3 + rng.uniform(0, 5, (R, 1, 2))
    Q = rng.normal(size=(R, 6, 2)) * 0.3 + rng.uniform(0, 5, (R, 1, 2))
    P[1] = np.nan
    Q[2] = P[2]
    circ = np.column_stack([rng.uniform(0, 5, (R, 2)), rng.uniform(0.2, 4, R)])
    for a, b in zip(kernels.disc_containment(P, Q, circ), los._disc_containment(P, Q, circ)):
        assert np.array_equal(a, b, equal_nan=True)
    # a circle near a segment (culling): arrays and one pad, a point segment, NaN
    a0 = rng.uniform(0, 5, (R, 2))
    d0 = rng.normal(size=(R, 2)) * 3
    d0[3] = 0.0
    a0[4] = np.nan
    for pad in (rng.uniform(0, 1, R), 1e-9):
        fast, slow = _both_ways(los._near_segment, circ, a0, d0, pad)
        assert np.array_equal(fast, slow) and 0 < fast.sum() < R


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_e_los_kernel_patches_and_region_boxes_give_the_twins_bits(seed):
    """E-LOS, E-ARC: the regions' boxes, the patches (a box cut to a disc ∩ front
    half-plane) and the region points nearest to given points, of every round of a
    search, compiled and numpy, bit for bit: the whole boxes, their quarters and slivers,
    from discs with and without a facing."""
    from skirmish.geometry import los

    rng = np.random.default_rng(seed)
    R = 60
    D = np.column_stack([rng.uniform(0, 36, (R, 2)), rng.uniform(0.1, 2.0, R)])
    a = rng.uniform(0, 2 * np.pi, R)
    H = np.column_stack([np.cos(a), np.sin(a), np.zeros(R)])
    H[:, 2] = H[:, 0] * D[:, 0] + H[:, 1] * D[:, 1] + rng.choice([0.0, 0.3, -0.3], R) * D[:, 2]
    H[::5] = (0.0, 0.0, -1e18)  # (no facing: the whole disc)
    fast, slow = _both_ways(los._region_bbox, D, H)
    assert np.array_equal(fast, slow, equal_nan=True)
    x0, y0, x1, y1 = slow.T
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    quarters = [np.column_stack(b) for b in ((x0, y0, mx, my), (mx, y0, x1, my), (x0, my, mx, y1), (mx, my, x1, y1))]
    sliver = np.column_stack([x0, y0, x0 + 1e-7, y0 + 1e-7])
    for box in [slow, *quarters, sliver]:
        (fv, fo), (sv, so) = _both_ways(los._patches, box, D, H)
        assert np.array_equal(fv, sv, equal_nan=True) and np.array_equal(fo, so)
    # the nearest region points: from inside, outside the disc, behind the half-plane
    pt = D[:, :2] + rng.normal(size=(R, 2)) * D[:, 2:3] * 2
    pt[1] = np.nan
    fast, slow = _both_ways(los._project, pt, D, H)
    assert np.array_equal(fast, slow, equal_nan=True)
    behind = np.einsum("ij,ij->i", H[:, :2], pt) < H[:, 2]
    assert behind.sum() > 5  # (the chord branch is exercised)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_e_move_kernel_point_capsule_distances_give_the_twins_bits(seed):
    """E-MOVE: the distances from points to capsules (the movement checker's clearance
    of a base centre), compiled and numpy, bit for bit: segments, point capsules, points
    on and beyond their ends, a NaN point."""
    from skirmish.geometry import paths

    rng = np.random.default_rng(seed)
    caps = np.column_stack([rng.uniform(0, 10, (25, 4)), rng.uniform(0.3, 1.5, 25)])
    caps[::6, 2:4] = caps[::6, 0:2]  # (point capsules: a round obstacle)
    pts = np.vstack([rng.uniform(-2, 12, (30, 2)), caps[:3, 0:2], [[np.nan, 1.0]]])
    fast, slow = _both_ways(paths.point_capsule_distance, pts, caps)
    assert fast.shape == slow.shape == (len(pts), len(caps))
    assert np.array_equal(fast, slow, equal_nan=True)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_e_move_kernel_violated_gives_the_numpy_verdicts(seed):
    """E-MOVE: whether a straight step keeps every clearance (the movement checker and
    the visibility graph's edges), compiled and numpy: segments across, along and near
    capsules, standing still inside and outside one, steps that start or end too close
    (relaxed), point capsules. The violations themselves (segment, capsule, interval),
    sorted, bit for bit."""
    from skirmish.geometry import paths

    rng = np.random.default_rng(seed)
    caps = np.column_stack([rng.uniform(0, 10, (20, 4)), rng.uniform(0.2, 1.2, 20)])
    caps[::5, 2:4] = caps[::5, 0:2]
    n = 60
    p0 = rng.uniform(-1, 11, (n, 2))
    p1 = p0 + rng.normal(size=(n, 2)) * 3
    p1[:4] = p0[:4]  # (standing still)
    p0[4:8] = caps[:4, 0:2] + 0.1  # (starting inside one)
    relax0 = np.where(rng.uniform(size=(n, 1)) < 0.5, p0, np.nan)
    relax1 = np.where(rng.uniform(size=(n, 1)) < 0.3, p1, np.nan)
    for r0, r1 in ((None, None), (relax0, None), (relax0, relax1)):
        fast, slow = _both_ways(paths.violated, p0, p1, caps, relax0=r0, relax1=r1)
        assert np.array_equal(fast, slow)
        assert 0 < slow.sum() < n  # (both verdicts occur)
        fast_v, slow_v = _both_ways(paths.violations, p0, p1, caps, relax0=r0, relax1=r1)
        for a, b in zip(fast_v, slow_v):
            assert a.dtype.kind == b.dtype.kind and np.array_equal(a, b)
        assert np.array_equal(np.unique(slow_v[0]), np.flatnonzero(slow))  # (the same test)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_e_move_kernel_exit_param_gives_the_twins_bits(seed):
    """E-MOVE: where a base walking a segment stops resting on a surface (stepping off a
    roof), compiled and numpy, bit for bit: star-shaped and holed regions, segments
    across, along edges, through vertices, from outside, standing still."""
    from skirmish.geometry import paths

    rng = np.random.default_rng(seed)
    k = int(rng.integers(3, 12))
    ang = np.sort(rng.uniform(0, 2 * np.pi, k))
    star = shapely.Polygon(np.column_stack([np.cos(ang), np.sin(ang)]) * rng.uniform(2, 6, (k, 1)) + 5)
    holed = shapely.box(0, 0, 10, 8).difference(shapely.box(3, 3, 5, 5)).union(shapely.box(12, 0, 14, 2))
    taus = []
    for region in (star.buffer(0), holed):
        ring = np.asarray(region.geoms[0].exterior.coords if hasattr(region, "geoms") else region.exterior.coords)
        n = 40
        x0, y0, x1, y1 = region.bounds
        p0 = rng.uniform((x0 - 1, y0 - 1), (x1 + 1, y1 + 1), (n, 2))
        p1 = p0 + rng.normal(size=(n, 2)) * 3
        p0[:3] = ring[:3]  # (from a vertex, along an edge)
        p1[:3] = ring[1:4]
        p1[3:6] = p0[3:6]  # (standing still)
        p1[6:9] = 2 * ring[:3] - p0[6:9]  # (through a vertex)
        for tol in (1e-9, -1e-10):
            for r in (0.0, 0.5):
                fast, slow = _both_ways(paths.exit_param, p0, p1, region, r, tol)
                assert np.array_equal(fast, slow, equal_nan=True)
                taus.append(slow)
    tau = np.concatenate(taus)
    assert np.isnan(tau).any() and (tau <= 1).any() and (tau > 1).any()


@pytest.mark.parametrize("seed", range(4))
def test_e_move_a_relaxed_start_inside_a_clearance_moving_straight_away_is_never_violated(seed):
    """E-MOVE: a step that starts inside a capsule's clearance (by up to the contact
    tolerance) and moves straight away from the capsule's segment keeps the relaxed
    clearance, compiled and numpy alike: the start's own distance, recomputed along the
    step, is not caught by its rounding (``paths.RELAX_TOL``, the same in both)."""
    from skirmish.geometry import _compiled, paths

    assert _compiled.RELAX_TOL == paths.RELAX_TOL
    rng = np.random.default_rng(seed)
    n = 400
    caps = np.column_stack([rng.uniform(0, 30, (n, 4)), rng.uniform(0.2, 1.2, n)])
    a, b = caps[:, 0:2], caps[:, 2:4]
    foot = a + rng.uniform(0, 1, (n, 1)) * (b - a)  # the nearest point of the segment
    s = b - a
    normal = np.column_stack([-s[:, 1], s[:, 0]]) / np.hypot(s[:, 0], s[:, 1])[:, None]
    normal *= rng.choice([-1.0, 1.0], (n, 1))
    p0 = foot + normal * (caps[:, 4] - rng.uniform(0, 1e-3, n))[:, None]
    p1 = p0 + normal * rng.uniform(0.01, 3, (n, 1))
    for i in range(n):  # (each step against its own capsule)
        fast, slow = _both_ways(paths.violated, p0[i:i + 1], p1[i:i + 1], caps[i:i + 1], relax0=p0[i:i + 1])
        assert not fast[0] and not slow[0], i


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_e_los_kernel_within_disc_is_the_clips_one_vertex_at_a_time(seed):
    """E-LOS chain test: a patch cut to its disc in one compiled pass equals the clips
    done one vertex at a time (the tangent facing each vertex outside the disc), bit for
    bit, and holds the patch ∩ disc."""
    from skirmish.geometry import kernels
    from skirmish.geometry.los_chain import _FAR

    rng = np.random.default_rng(seed)
    R = 30
    D = np.column_stack([rng.uniform(0, 5, (R, 2)), rng.uniform(0.3, 2.0, R)])
    ang = np.sort(rng.uniform(0, 2 * np.pi, (R, 6)), 1)  # convex, counter-clockwise, partly outside
    rho = D[:, 2:3] * rng.uniform(0.5, 1.8, (R, 1))
    P = D[:, None, :2] + rng.normal(size=(R, 1, 2)) * 0.3 + rho[..., None] * np.stack([np.cos(ang), np.sin(ang)], 2)
    P[0] = np.nan
    one_by_one = P
    for j in range(P.shape[1]):
        w = P[:, j] - D[:, :2]
        dist = np.hypot(w[:, 0], w[:, 1])
        far = dist > D[:, 2] * (1 + 1e-9) + 1e-12
        u = w / np.where(far, dist, 1.0)[:, None]
        c0 = np.where(far, -(np.einsum("ij,ij->i", u, D[:, :2]) + D[:, 2]), -_FAR)
        one_by_one = kernels.clip_polygons(one_by_one, -u, c0)
    got = kernels.within_disc(P, D, _FAR)
    assert np.array_equal(got, one_by_one, equal_nan=True)
    for i in range(1, R):  # the vertices inside the disc stay in
        inside = P[i][np.hypot(*(P[i] - D[i, :2]).T) <= D[i, 2]]
        if len(inside) and not np.isnan(got[i, 0, 0]):
            poly = shapely.Polygon(got[i]).buffer(1e-9)
            assert all(poly.covers(shapely.Point(*v)) for v in inside)


def _both_ways(f, *args, **kwargs):
    """``f(*args, **kwargs)`` with the compiled kernels, then with their numpy twins."""
    from skirmish.geometry import kernels

    keep = kernels.wanted
    try:
        kernels.wanted = lambda work: True
        fast = f(*args, **kwargs)
        kernels.wanted = lambda work: False
        slow = f(*args, **kwargs)
    finally:
        kernels.wanted = keep
    return fast, slow


_OBS: dict[int, object] = {}


def _obstacles(seed: int):
    """The grown LoS obstacles of a dense table (built once per seed)."""
    import random

    from skirmish.geometry.los import DEFAULT_TOLERANCE
    from skirmish.scenario.adversarial import dense_table

    if seed not in _OBS:
        _OBS[seed] = dense_table(random.Random(seed)).los_obstacles.grown(DEFAULT_TOLERANCE)
    return _OBS[seed]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([0.5, 0.05, 1e-6]), st.booleans())
def test_e_move_kernel_points_free_gives_the_numpy_verdicts(seed, clearance, box):
    """E-MOVE-END: where a base centre may be (inside the support, outside every
    footprint, every clearance kept), compiled (footprints by the parity of crossed
    edges) and numpy (GEOS's within): concave footprints, one with a hole, footprints
    that overlap, round obstacles, a non-box support, points deep inside footprints, on
    and off the support, and a NaN point."""
    from skirmish.geometry import paths

    rng = np.random.default_rng(seed)
    ring = shapely.Polygon([(1, 1), (9, 1), (9, 9), (1, 9)], [[(3, 3), (7, 3), (7, 7), (3, 7)]])
    ell = shapely.Polygon([(12, 2), (20, 2), (20, 4), (14, 4), (14, 12), (12, 12)])
    x, y = rng.uniform(1, 5), rng.uniform(12, 14)
    polys = [ring, ell, shapely.box(x, y, x + 6, y + 5), shapely.box(x + 3, y + 2, x + 9, y + 8)]
    obs = [paths.PlanObstacle(f"p{i}", clearance, polygon=g) for i, g in enumerate(polys)]
    obs += [paths.PlanObstacle(f"m{i}", clearance, circle=(*rng.uniform(16, 23, 2), 0.5)) for i in range(3)]
    support = shapely.box(0, 0, 24, 24) if box else shapely.Polygon([(0, 0), (24, 0), (24, 24), (12, 18), (0, 24)])
    space = paths.FreeSpace(support, clearance, obs, box=box)
    pts = np.vstack([rng.uniform(-1, 25, (400, 2)), [(5, 5), (2, 2), (13, 8), (np.nan, 3.0)]])
    fast, slow = _both_ways(space.point_free, pts)
    assert np.array_equal(fast, slow)
    assert slow.any() and not slow.all() and slow[-4] and not slow[-3:].any()
    deep = space.in_footprint(pts) & (space.clearance_at(pts).min(axis=1) >= 0)
    assert deep.any() and not fast[deep].any()  # (the crossing test decides these)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_e_move_kernel_obstacles_in_a_box_are_the_numpy_ones(seed):
    """E-MOVE: the obstacles whose boxes meet a box (drop points, a graph's corners near
    the mover), compiled and numpy: the same ones in the same order, for polygons,
    round obstacles and a support's edges (no owner), boxes anywhere and empty."""
    from skirmish.geometry import paths

    rng = np.random.default_rng(seed)
    obs = []
    for i in range(int(rng.integers(0, 12))):
        x, y = rng.uniform(0, 20, 2)
        if rng.uniform() < 0.3:
            obs.append(paths.PlanObstacle(f"m{i}", 0.5, circle=(x, y, rng.uniform(0.2, 1))))
        else:
            obs.append(paths.PlanObstacle(f"p{i}", rng.uniform(0.01, 1), polygon=shapely.box(x, y, x + 2, y + 3)))
    space = paths.FreeSpace(shapely.Polygon([(0, 0), (24, 0), (24, 24), (12, 18), (0, 24)]), 0.5, obs)
    for _ in range(20):
        x0, y0 = rng.uniform(-3, 25, 2)
        box = (x0, y0, x0 + rng.uniform(-1, 8), y0 + rng.uniform(0, 8))
        fast, slow = _both_ways(space.obstacles_in, box)
        assert fast == slow


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_e_move_kernel_tangent_pairs_are_the_numpy_pairs(seed):
    """E-MOVE: the visibility graph's candidate edges (node pairs tangent at both ends, in
    float32), compiled and numpy, the same pairs in the same order: corners, free point
    nodes (any direction), grouped point nodes (never joined to each other), pairs
    closer than ``near``, and several blocks of rows."""
    from skirmish.geometry import paths

    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 140))
    xy = rng.uniform(0, 30, (n, 2))
    xy[1::9] = xy[::9][: len(xy[1::9])] + rng.normal(scale=0.01, size=(len(xy[1::9]), 2))  # (close pairs)
    ang = rng.uniform(0, 2 * np.pi, (n, 2))
    e_in, e_out = np.column_stack([np.cos(ang[:, 0]), np.sin(ang[:, 0])]), np.column_stack([np.cos(ang[:, 1]), np.sin(ang[:, 1])])
    e_in[::7] = e_out[::7] = np.nan  # (free point nodes)
    group = np.where(rng.uniform(size=n) < 0.2, rng.integers(0, 3, n), -1)
    nodes = paths.Nodes(xy, e_in, e_out, group)
    fast, slow = _both_ways(paths.tangent_pairs, nodes)
    assert all(a.dtype == b.dtype and np.array_equal(a, b) for a, b in zip(fast, slow))
    assert n < 10 or 0 < len(slow[0]) < n * (n - 1) // 2


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_e_move_kernel_dijkstra_gives_the_python_distances_and_tree(seed, directed):
    """E-MOVE: the shortest-path tree of the movement net, compiled and pure Python, the
    same distances and predecessor edges bit for bit: ties of equal cost (integer
    weights), several sources with their own starting costs, a distance limit,
    unreachable nodes, parallel edges and loops."""
    from skirmish.geometry import paths

    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 60))
    m = int(rng.integers(0, 4 * n))
    edges = rng.integers(0, n, (m, 2))
    weights = np.where(rng.uniform(size=m) < 0.5, rng.integers(1, 4, m).astype(float), rng.uniform(0.1, 5, m))
    sources = {int(s): float(c) for s, c in zip(rng.integers(0, n, 3), rng.choice([0.0, 0.5, 2.0], 3))}
    limit = float(rng.choice([np.inf, 4.0]))
    fast, slow = _both_ways(paths.dijkstra, n, edges, weights, sources, limit=limit, directed=directed)
    assert all(a.dtype == b.dtype and np.array_equal(a, b) for a, b in zip(fast, slow))


def test_the_first_compile_notice_comes_once_at_the_first_kernel_compile_only():
    """(a fresh install's first query waited a minute in silence while numba compiled)"""
    from types import SimpleNamespace

    from numba.core import event

    from skirmish.geometry import compiling, kernels

    kernels._c()  # (the listener is in place once the kernels module is)
    calls: list[int] = []

    def compile_of(module: str) -> None:
        fake = SimpleNamespace(py_func=SimpleNamespace(__module__=module))
        with event.trigger_event("numba:compile", data={"dispatcher": fake, "args": (), "return_type": None}):
            pass

    try:
        compiling.on_first_compile(lambda: calls.append(1))
        compile_of("numba.np.arraymath")  # (numba's own implementations are not ours)
        assert calls == []
        compile_of("skirmish.geometry._compiled")
        compile_of("skirmish.geometry._compiled")
        assert calls == [1]
    finally:
        compiling.on_first_compile(None)
