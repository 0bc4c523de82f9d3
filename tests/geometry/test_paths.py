"""Pure path geometry (skirmish.geometry.paths): growing shapes, exact capsule tests, the
visibility graph against the grid baseline, Dijkstra, shadows and the reachable region."""

from __future__ import annotations

import dataclasses
import math
import random

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.geometry import paths as P

coord = st.floats(-5, 5, allow_nan=False, allow_infinity=False)
# Table coordinates as a scenario gives them: subnormal differences (1e-300 in) are no
# shape a table can hold, and made the hull test fail on shapely's own rounding.
table_coord = st.floats(-5, 5, allow_nan=False, allow_infinity=False, allow_subnormal=False).map(lambda v: round(v, 6))


def seg_distance(p, a, b) -> float:
    p, a, b = np.asarray(p, float), np.asarray(a, float), np.asarray(b, float)
    s = b - a
    ss = float(np.dot(s, s))
    t = 0.0 if ss < 1e-200 else float(np.clip(np.dot(p - a, s) / ss, 0, 1))
    return float(np.hypot(*(p - (a + t * s))))


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(table_coord, table_coord), min_size=1, max_size=7), st.floats(0.1, 2.0),
       st.floats(0.001, 0.05))
def test_grown_polygon_is_circumscribed_within_max_error(points, r, max_error):
    hull = shapely.MultiPoint(points).convex_hull
    if hull.geom_type == "Polygon":
        coords = np.asarray(shapely.geometry.polygon.orient(hull, 1.0).exterior.coords)[:-1]
    else:
        coords = np.unique(np.asarray(shapely.get_coordinates(hull)), axis=0)[:2]
    grown = shapely.Polygon(P.grow_convex(coords, r, max_error)).buffer(1e-9)
    exact = hull.buffer(r, quad_segs=64)  # inscribed: inside the true shape
    assert grown.contains(exact)
    for v in P.grow_convex(coords, r, max_error):
        d = float(shapely.distance(hull, shapely.Point(v)))
        assert r - 1e-9 <= d <= r + max_error + 1e-9


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(coord, coord, coord, coord, coord, coord, coord, coord, st.floats(0.05, 3.0))
def test_capsule_intervals_match_sampling(x0, y0, x1, y1, ax, ay, bx, by, c):
    p0, p1 = np.array([[x0, y0]]), np.array([[x1, y1]])
    lo, hi = P.capsule_intervals(p0, p1, np.array([[ax, ay, bx, by, c]]), shrink=0.0)
    for t in np.linspace(0, 1, 41):
        d = seg_distance(p0[0] + t * (p1[0] - p0[0]), (ax, ay), (bx, by))
        inside = lo[0] < t < hi[0]
        if abs(d - c) > 1e-6 and min(abs(t - lo[0]), abs(t - hi[0])) > 1e-6:
            assert inside == (d < c), (t, d, c, lo, hi)


def test_exit_param_is_where_a_base_stops_touching():
    sq = shapely.box(0, 0, 4, 4)
    p0 = np.array([[2.0, 2.0], [2.0, 2.0], [6.0, 2.0]])
    p1 = np.array([[10.0, 2.0], [3.0, 2.0], [10.0, 2.0]])
    tau = P.exit_param(p0, p1, sq, 0.5)
    assert tau[0] == pytest.approx((4.5 - 2) / 8) and tau[1] > 1 and math.isnan(tau[2])
    ell = shapely.Polygon([(0, 0), (6, 0), (6, 1), (1, 1), (1, 6), (0, 6)])  # leaves, then re-enters within r
    t = P.exit_param(np.array([[0.5, 0.5]]), np.array([[0.5, 20.0]]), ell, 0.5)[0]
    assert 0.5 + t * 19.5 == pytest.approx(6.5)


def test_dijkstra_matches_bellman_ford():
    rng = random.Random(3)
    for _ in range(20):
        n = rng.randint(2, 12)
        edges = np.array([(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(1, 30))])
        w = np.array([rng.uniform(0.1, 5) for _ in edges])
        dist, pred = P.dijkstra(n, edges, w, {0: 0.0})
        ref = [math.inf] * n
        ref[0] = 0.0
        for _ in range(n):
            for (u, v), c in zip(edges.tolist(), w.tolist()):
                ref[v] = min(ref[v], ref[u] + c)
                ref[u] = min(ref[u], ref[v] + c)
        assert np.allclose(dist, ref)
        for v in range(1, n):
            if math.isfinite(dist[v]):
                a, b = edges[pred[v]]
                assert dist[v] == pytest.approx(dist[a if b == v else b] + w[pred[v]])


def field(seed: int, r: float = 0.6) -> P.FreeSpace:
    """A 12 x 12 area with random walls, blocks and round posts."""
    rng = random.Random(seed)
    obs = []
    for i in range(rng.randint(3, 7)):
        x, y = rng.uniform(2, 10), rng.uniform(2, 10)
        kind = rng.choice(["wall", "block", "post"])
        if kind == "post":
            obs.append(P.PlanObstacle(f"post{i}", r, circle=(x, y, rng.uniform(0.3, 0.9))))
            continue
        w, d = (rng.uniform(2, 5), 0.4) if kind == "wall" else (rng.uniform(1, 2.5), rng.uniform(1, 2.5))
        poly = shapely.affinity.rotate(shapely.box(x - w / 2, y - d / 2, x + w / 2, y + d / 2), rng.uniform(0, 180))
        obs.append(P.PlanObstacle(f"{kind}{i}", r, polygon=poly))
    return P.FreeSpace(shapely.box(0, 0, 12, 12), r, obs, box=True)


def graph_path(space: P.FreeSpace, a, b) -> float:
    g = P.build_graph(space, P.point_nodes(np.array([a, b])))
    n = len(g.nodes)
    dist, _ = P.dijkstra(n, g.edges, g.weights, {n - 2: 0.0})
    return float(dist[n - 1])


def free_points(space: P.FreeSpace, seed: int, n: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    pts = rng.uniform(0.7, 11.3, (200, 2))
    return pts[space.point_free(pts)][:n]


@pytest.mark.slow
@settings(max_examples=12, deadline=None, derandomize=True)
@given(st.integers(0, 10_000))
def test_visibility_graph_is_never_longer_than_the_grid_baseline(seed):
    space = field(seed)
    pts = free_points(space, seed, 2)
    a, b = pts
    grid = P.grid_shortest_path(space, a, b, cell=0.1)
    ours = graph_path(space, a, b)
    if grid is None:
        return  # the grid may miss a narrow passage; it is only an upper bound
    assert ours <= grid[0] + 1e-9
    # and the grid is not absurdly longer: 8-neighbour moves cost at most ~8% extra plus cells
    assert grid[0] <= ours * 1.09 + 0.5


def test_grid_baseline_paths_are_legal_and_detour_round_a_wall():
    wall = P.PlanObstacle("wall", 0.5, polygon=shapely.box(5.8, 2, 6.2, 10))
    space = P.FreeSpace(shapely.box(0, 0, 12, 12), 0.5, [wall], box=True)
    length, pts = P.grid_shortest_path(space, (2, 6), (10, 6))
    pts = np.array(pts)
    assert space.segments_clear(pts[:-1], pts[1:]).all()
    assert length > 8 and graph_path(space, (2, 6), (10, 6)) < length


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.tuples(st.floats(1, 11), st.floats(1, 11)), st.floats(0.5, 6))
def test_visible_disc_is_exactly_what_its_centre_sees(seed, centre, radius):
    space = field(seed)
    if not space.point_free(np.array([centre]))[0]:
        return
    region = P.visible_discs(np.array([centre]), np.array([radius]), P.casters(space.obstacles), max_error=0.001)[0]
    rng = np.random.default_rng(seed)
    pts = np.array(centre) + rng.uniform(-radius, radius, (200, 2))
    pts = pts[space.point_free(pts) & (np.hypot(*(pts - centre).T) < radius - 0.01)]
    seen = space.segments_clear(np.repeat([centre], len(pts), axis=0), pts)
    inside = shapely.contains_xy(region, pts[:, 0], pts[:, 1])
    # exact up to a thin band at shadow edges
    near_edge = shapely.distance(region.boundary, shapely.points(pts)) < 0.01
    assert np.all((inside == seen) | near_edge)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_violated_flags_exactly_the_segments_violations_lists(seed):
    """The flag-only clearance test against the full interval list (the slow way)."""
    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(1, 40)), int(rng.integers(0, 12))
    p0, p1 = rng.uniform(0, 10, (n, 2)), rng.uniform(0, 10, (n, 2))
    p1[: n // 4] = p0[: n // 4]  # some still points
    caps = np.column_stack([rng.uniform(0, 10, (m, 4)), rng.uniform(0.05, 1.5, m)])
    caps[: m // 3, 2:4] = caps[: m // 3, 0:2]  # discs
    relax = np.where(rng.random((n, 1)) < 0.5, p0, np.nan)
    for kw in ({}, {"relax0": relax}, {"relax1": np.where(np.isnan(relax), p1, np.nan)}, {"shrink": -0.01}):
        i = P.violations(p0, p1, caps, **kw)[0]
        want = np.zeros(n, bool)
        want[i] = True
        assert np.array_equal(P.violated(p0, p1, caps, **kw), want)


def varied_space(seed: int) -> P.FreeSpace:
    """A free space with the awkward cases of a table: non-convex footprints (convex
    pieces that share edges and corners), overlapping and repeated obstacles, posts,
    obstacles across the edge, and (every other seed) a non-box support with a notch."""
    rng = random.Random(seed)
    r = rng.choice([0.5, 0.75, 1.0])
    obs: list[P.PlanObstacle] = []
    for i in range(rng.randint(2, 8)):
        x, y = rng.uniform(-1, 13), rng.uniform(-1, 13)
        kind = rng.choice(["L", "block", "post", "wall"])
        if kind == "post":
            obs.append(P.PlanObstacle(f"post{i}", r, circle=(x, y, rng.uniform(0.3, 0.9)), phase=rng.uniform(0, 6)))
            continue
        if kind == "L":
            a, b = rng.uniform(1, 3), rng.uniform(1, 3)
            poly = shapely.Polygon([(0, 0), (a, 0), (a, 0.6), (0.6, 0.6), (0.6, b), (0, b)])
        else:
            w, d = (rng.uniform(2, 5), 0.4) if kind == "wall" else (rng.uniform(1, 2.5), rng.uniform(1, 2.5))
            poly = shapely.box(-w / 2, -d / 2, w / 2, d / 2)
        poly = shapely.affinity.translate(shapely.affinity.rotate(poly, rng.choice([0, 90, rng.uniform(0, 180)]),
                                                                  origin=(0, 0)), x, y)
        obs.append(P.PlanObstacle(f"{kind}{i}", r, polygon=poly))
        if rng.random() < 0.2:  # the same footprint twice: every corner shared
            obs.append(P.PlanObstacle(f"{kind}{i}b", r, polygon=poly))
    if seed % 2:
        support = shapely.box(0, 0, 12, 12).difference(shapely.box(8, 8, 12.5, 12.5))
        return P.FreeSpace(support, r, obs)
    return P.FreeSpace(shapely.box(0, 0, 12, 12), r, obs, box=True)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.integers(0, 10_000))
def test_reflex_corners_without_the_polygon_match_the_polygons(seed):
    """build_graph's nodes (FreeSpace.reflex, from the grown pieces alone) are the reflex
    corners of the free-space polygon (the shapely union, the slow oracle), with the same
    edge directions, to rounding (the union may snap a corner by ~1e-8 where pieces are
    repeated, and its next corner may be a computed crossing)."""
    space = varied_space(seed)
    oracle = P.reflex_nodes(space.polygon)
    ours = space.reflex
    assert len(ours) == len(oracle)
    if not len(ours):
        return
    d = np.hypot(ours.xy[:, None, 0] - oracle.xy[None, :, 0], ours.xy[:, None, 1] - oracle.xy[None, :, 1])
    match = d.argmin(1)
    assert d.min(1).max() < 1e-6
    assert sorted(match.tolist()) == list(range(len(oracle)))  # one to one
    assert np.abs(ours.e_in - oracle.e_in[match]).max() < 1e-5
    assert np.abs(ours.e_out - oracle.e_out[match]).max() < 1e-5


def test_reflex_corners_of_touching_and_repeated_pieces():
    """A corner on another piece's edge is no corner of the union; a footprint given twice
    has its corners once; two squares meeting at a corner keep it where they join convex."""
    box = shapely.box(0, 0, 20, 20)
    a = P.PlanObstacle("a", 0.5, polygon=shapely.box(4, 4, 6, 6))
    twice = P.FreeSpace(box, 0.5, [a, P.PlanObstacle("a2", 0.5, polygon=shapely.box(4, 4, 6, 6))], box=True)
    once = P.FreeSpace(box, 0.5, [a], box=True)
    assert len(twice.reflex) == len(once.reflex) == len(P.reflex_nodes(once.polygon))
    # an L footprint: its two convex pieces share an edge; the union's corners only
    ell = P.PlanObstacle("L", 0.5, polygon=shapely.Polygon([(4, 4), (8, 4), (8, 5), (5, 5), (5, 8), (4, 8)]))
    space = P.FreeSpace(box, 0.5, [ell], box=True)
    assert len(space.reflex) == len(P.reflex_nodes(space.polygon))


def test_reflex_corners_where_pieces_share_corners():
    """Raw pieces meeting along an edge: their shared corners join into a straight
    boundary (no corner); a corner three squares share in an L is a concave one."""
    box = shapely.box(0, 0, 10, 10)

    def corners(*squares):
        xy = np.concatenate([np.asarray(shapely.box(*s).exterior.coords)[:-1] for s in squares])
        got = P.convex_corners(xy, np.full(len(squares), 4), box, 0.0, True)
        return sorted(map(tuple, np.round(got.xy, 9).tolist()))

    assert corners((2, 2, 3, 3), (3, 2, 4, 3)) == [(2, 2), (2, 3), (4, 2), (4, 3)]
    assert corners((2, 2, 3, 3), (3, 2, 4, 3), (2, 3, 3, 4)) == [(2, 2), (2, 4), (3, 4), (4, 2), (4, 3)]


def test_reflex_corners_compiled_give_the_numpy_corners(monkeypatch):
    """convex_corners compiled (taken once numba is loaded) and in numpy: the same nodes
    and directions, bit for bit, on the varied spaces and on pieces sharing corners."""
    from skirmish.geometry import kernels

    kernels.load()
    squares = [(2, 2, 3, 3), (3, 2, 4, 3), (2, 3, 3, 4), (3, 3, 4, 4), (6, 6, 7, 7), (7, 7, 8, 8)]
    cases = [(np.concatenate([np.asarray(shapely.box(*s).exterior.coords)[:-1] for s in squares]),
              np.full(len(squares), 4), shapely.box(0, 0, 10, 10), 0.0, True)]
    for seed in range(60):
        space = varied_space(seed)
        walls = space._walls()
        xy, ring = shapely.get_coordinates(space.grown, return_index=True)
        last = np.r_[ring[1:] != ring[:-1], True][:len(ring)]
        sizes = np.r_[[len(w) for w in walls], np.bincount(ring[~last], minlength=len(space.grown))].astype(int)
        cases.append((np.concatenate([*walls, xy[~last]]), sizes, space.support, space.clearance, space.box))
    shared = 0
    for xy, sizes, support, clearance, box in cases:
        monkeypatch.setattr(kernels, "wanted", lambda work: True)
        fast = P.convex_corners(xy, sizes, support, clearance, box)
        monkeypatch.setattr(kernels, "wanted", lambda work: False)
        slow = P.convex_corners(xy, sizes, support, clearance, box)
        assert np.array_equal(fast.xy, slow.xy)
        assert np.array_equal(fast.e_in, slow.e_in) and np.array_equal(fast.e_out, slow.e_out)
        shared += len(kernels.convex_corners(xy, sizes, np.ones(len(xy), bool), 1e-7, 1e-9)[5])
    assert shared  # (corners two pieces share were met)


def test_E_MOVE_END_footprint_hits_are_the_points_strictly_inside_each_footprint():
    """The tree's lookup (point, footprint) against each footprint asked directly
    (``within``: the boundary is not inside), on points inside, outside, on edges and on
    corners."""
    ell = shapely.Polygon([(2, 2), (6, 2), (6, 3), (3, 3), (3, 6), (2, 6)])
    crate = shapely.box(8, 8, 9, 10)
    obs = [P.PlanObstacle("ell", 0.5, polygon=ell), P.PlanObstacle("m", 0.5, circle=(5.0, 5.0, 0.5)),
           P.PlanObstacle("crate", 0.5, polygon=crate)]
    space = P.FreeSpace(shapely.box(0, 0, 12, 12), 0.5, obs, box=True)
    rng = random.Random(4)
    pts = [(rng.uniform(0, 12), rng.uniform(0, 12)) for _ in range(400)]
    pts += [(2, 2), (2.5, 4), (3, 4.5), (6, 2.5), (8.5, 9), (9, 9), (8.5, 10), (2.5, 2.5), (4, 4)]
    got = set(zip(*(a.tolist() for a in space.footprint_hits(np.array(pts)))))
    want = {(i, j) for i, p in enumerate(pts) for j, poly in enumerate((ell, crate))
            if shapely.within(shapely.Point(p), poly)}
    assert got == want and any(j == 1 for _, j in want) and any(j == 0 for _, j in want)
    assert space.in_footprint(np.array(pts)).tolist() == [any(i == k for k, _ in want) for i in range(len(pts))]
    assert space.footprint_hits(np.zeros((0, 2)))[0].size == 0


def test_E_MOVE_a_round_obstacle_made_directly_is_the_dataclass_one():
    """``PlanObstacle.round`` (a mover's spaces make one per model) is the obstacle the
    dataclass makes: equal, the same hash and repr, the same capsules and grown polygon."""
    a = P.PlanObstacle.round("m", 0.5, (1.0, 2.0, 0.3), 0.7)
    b = P.PlanObstacle("m", 0.5, circle=(1.0, 2.0, 0.3), phase=0.7)
    assert a == b and hash(a) == hash(b) and repr(a) == repr(b) and a.polygon is None and a.pieces is None
    assert np.array_equal(a.capsules(), b.capsules()) and a.grown()[0].equals_exact(b.grown()[0], 0.0)
    assert a != P.PlanObstacle.round("m", 0.5, (1.0, 2.0, 0.3), 0.8)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_grown_corners_are_the_grown_polygons_corners(seed):
    """PlanObstacle.grown_corners (what FreeSpace.reflex reads, no polygon made) are the
    corners of the grown polygons, bit for bit, piece by piece; round obstacles too."""
    space = varied_space(seed)
    obs = [*space.obstacles, P.PlanObstacle.round("m", 0.5, (3.0, 4.0, 0.6), 0.7),
           P.PlanObstacle("b", 0.25, circle=(8.0, 2.0, 1.0))]
    for o in obs:
        fresh = dataclasses.replace(o)
        polys = fresh.grown()
        corners = o.grown_corners()
        assert len(polys) == len(corners) and o.grown_corners() is corners
        for poly, c in zip(polys, corners):
            assert np.array_equal(np.asarray(poly.exterior.coords)[:-1], c)


def test_obstacle_boxes_hold_each_obstacles_grown_corners():
    """reflex_within's obstacle boxes (made in one pass over the rows, obstacle by
    obstacle): each obstacle's capsules' box widened by its clearance and the corners'
    error, which holds every corner of its grown pieces."""
    for seed in range(30):
        space = varied_space(seed)
        lo, hi = space._obstacle_boxes
        assert lo.shape == hi.shape == (len(space.obstacles), 2)
        for k, o in enumerate(space.obstacles):
            caps = o.capsules()
            pad = caps[:, 4] + 2 * space.max_error
            ends = np.concatenate([caps[:, 0:2], caps[:, 2:4]])
            assert np.array_equal(lo[k], (ends - np.r_[pad, pad][:, None]).min(axis=0))
            assert np.array_equal(hi[k], (ends + np.r_[pad, pad][:, None]).max(axis=0))
            corners = np.concatenate(o.grown_corners(space.max_error))
            assert np.all(corners >= lo[k]) and np.all(corners <= hi[k])


def test_obstacles_in_a_box_are_every_one_whose_grown_pieces_meet_it():
    """FreeSpace.obstacles_in (what drop points and reflex_within grow and read): every
    obstacle whose grown pieces meet the box, in order (perhaps a few more, never fewer),
    and grown_of grows them as grown does."""
    rng = random.Random(7)
    for seed in range(30):
        space = varied_space(seed)
        for _ in range(5):
            x0, y0 = rng.uniform(-2, 12), rng.uniform(-2, 12)
            box = (x0, y0, x0 + rng.uniform(0, 6), y0 + rng.uniform(0, 6))
            got = space.obstacles_in(box)
            assert got == [o for o in space.obstacles if o in got]  # (in order)
            want = [o for o in space.obstacles if shapely.intersects(o.grown(space.max_error), shapely.box(*box)).any()]
            assert all(o in got for o in want)
            assert space.grown_of(got) == [g for o in got for g in o.grown(space.max_error)]


@pytest.mark.parametrize("seed", range(20))
def test_an_ellipse_region_keeps_the_points_on_the_ways_to_its_aim_and_its_box_holds_it(seed):
    """within_mask with an aim keeps the points whose distance from the start plus the
    distance on to the aim is at most the reach (a disc without one, as hypot <= r);
    region_box holds every point it keeps."""
    rng = np.random.default_rng(seed)
    x, y, ax, ay = rng.uniform(0, 10, 4)
    r = math.hypot(ax - x, ay - y) + rng.uniform(0, 4)
    pts = rng.uniform(-5, 15, (400, 2))
    for within in ((x, y, r), (x, y, r, ax, ay), (x, y, r, x, y)):
        keep = P.within_mask(pts, within)
        d = np.hypot(pts[:, 0] - x, pts[:, 1] - y)
        want = d <= r if len(within) == 3 else d + np.hypot(pts[:, 0] - within[3], pts[:, 1] - within[4]) <= r
        assert np.array_equal(keep, want)
        (cx, cy), (wx, wy) = P.region_box(within)
        assert np.all(np.abs(pts[keep, 0] - cx) <= wx + 1e-9) and np.all(np.abs(pts[keep, 1] - cy) <= wy + 1e-9)
        if len(within) == 5:  # (the box is tight: the ellipse's extreme points touch it)
            fx, fy = within[3:]
            t = np.linspace(0, 2 * np.pi, 2000)
            a, c = r / 2, math.hypot(fx - x, fy - y) / 2
            b, phi = math.sqrt(max(a * a - c * c, 0.0)), math.atan2(fy - y, fx - x)
            ex = (x + fx) / 2 + a * np.cos(t) * math.cos(phi) - b * np.sin(t) * math.sin(phi)
            ey = (y + fy) / 2 + a * np.cos(t) * math.sin(phi) + b * np.sin(t) * math.cos(phi)
            assert abs(np.abs(ex - cx).max() - wx) < 1e-3 and abs(np.abs(ey - cy).max() - wy) < 1e-3


def test_tangent_pairs_treat_point_nodes_as_free_in_every_direction():
    """Point nodes (directions NaN) pass the tangent filter in any direction, as zero
    directions would (np.nan_to_num's): the same pairs, compiled or not."""
    from skirmish.geometry import kernels

    kernels.load()
    for seed in range(20):
        space = varied_space(seed)
        rng = np.random.default_rng(seed)
        nodes = P.join_nodes(space.reflex, P.point_nodes(rng.uniform(0, 12, (6, 2)), rng.integers(-1, 2, 6)))
        zeroed = P.Nodes(nodes.xy, np.nan_to_num(nodes.e_in), np.nan_to_num(nodes.e_out), nodes.group)
        free = np.isnan(nodes.e_in[:, 0])
        i, j = P.tangent_pairs(nodes, origin=np.array([6.0, 6.0]))
        zi, zj = P.tangent_pairs(zeroed, origin=np.array([6.0, 6.0]))
        assert np.array_equal(i, zi) and np.array_equal(j, zj)
        assert free.any()
