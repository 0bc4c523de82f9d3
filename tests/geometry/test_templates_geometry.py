"""Template geometry (E-TMPL, E-TMPL-CIRCLE, E-TMPL-SPRAY): the exact sdf, coverage codes,
the circle arrangement's candidates, the spray's angular events and the clear-segment test."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.geometry.los import build_obstacles, segment_blockers
from skirmish.geometry.templates import (
    COVERED,
    NONE,
    PARTLY,
    TOUCH_TOLERANCE,
    TOUCHING,
    Capsule,
    angular_cells,
    axis_cover_distance,
    circle,
    circle_candidates,
    circle_intersections,
    circle_lattice,
    clear_segments,
    coverage,
    edges_cross,
    spray_events,
    spray_frame,
    teardrop,
    teardrop_axis,
)
from skirmish.rules.eldfall.templates import TEMPLATES, template_spec
from skirmish.scenario.generate import random_table

TOL = TOUCH_TOLERANCE
SPRAY = TEMPLATES["spray-large"]


def _capsules() -> st.SearchStrategy[Capsule]:
    @st.composite
    def make(draw):
        r1 = draw(st.floats(0.1, 1.5))
        r2 = draw(st.floats(r1, 3.0))
        d = draw(st.floats(0.0, 8.0))
        if d == 0:
            r2 = r1
        elif d + r1 <= r2 + 0.05:
            d = r2 - r1 + 0.1
        ang = draw(st.floats(0, 2 * math.pi))
        x, y = draw(st.floats(-5, 5)), draw(st.floats(-5, 5))
        return Capsule(x, y, r1, x + d * math.cos(ang), y + d * math.sin(ang), r2)
    return make()


@settings(max_examples=40, deadline=None, derandomize=True)
@given(_capsules(), st.lists(st.tuples(st.floats(-15, 15), st.floats(-15, 15)), min_size=1, max_size=20))
def test_E_TMPL_sdf_is_the_exact_signed_distance(cap, pts):
    """Outside: the distance to the shape; inside: minus the distance to its boundary
    (checked against a finely drawn polygon, within the drawing's error)."""
    poly = cap.polygon(per_arc=720)
    P = np.array(pts)
    sdf = cap.sdf(P)
    err = max(cap.r1, cap.r2) * (1 - math.cos(math.pi / 720)) + 1e-9
    for (x, y), s in zip(pts, sdf):
        p = shapely.Point(x, y)
        ref = poly.exterior.distance(p)
        ref = -ref if poly.contains(p) else ref
        assert s == pytest.approx(ref, abs=2 * err + 1e-7)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(_capsules(), st.floats(-12, 12), st.floats(-12, 12), st.floats(0.2, 1.2))
def test_E_TMPL_coverage_codes_match_the_drawn_shapes(cap, x, y, rho):
    """Covered entirely ⇔ the base disc lies inside; touching/partly ⇔ they meet (away from
    the tolerance band, where the polygons decide unambiguously)."""
    poly = cap.polygon(per_arc=720)
    base = shapely.Point(x, y).buffer(rho, quad_segs=180)
    code = int(coverage(cap, np.array([[x, y]]), np.array([rho]))[0])
    s = float(cap.sdf(np.array([x, y])))
    if abs(s + rho) > 0.01:
        assert (code == COVERED) == poly.buffer(1e-6).contains(base)
    if abs(s - rho) > 0.01:
        assert (code != NONE) == poly.intersects(base)


def test_E_TMPL_tangent_base_touches_overlapping_is_partly_inside_is_covered():
    c = circle(0.0, 0.0, 2.0)
    codes = coverage(c, np.array([[3.0, 0], [2.5, 0], [0.5, 0], [3.0 + 2 * TOL, 0]]), np.full(4, 1.0))
    assert list(codes) == [TOUCHING, PARTLY, COVERED, NONE]
    # inside and tangent to the rim from inside: still covered entirely
    assert coverage(c, np.array([[1.0, 0.0]]), np.array([1.0]))[0] == COVERED


def test_E_TMPL_SPRAY_teardrop_touches_its_attacker_and_is_as_long_as_the_template():
    spec = template_spec("spray-small")
    ax, ay, ra = 3.0, 4.0, 0.63
    th = math.radians(37)
    t = teardrop(ax, ay, ra, th, spec.length, spec.near_width, spec.far_width)
    assert float(t.sdf(np.array([ax, ay]))) == pytest.approx(ra, abs=1e-12)  # narrow end in base contact
    u = np.array([math.cos(th), math.sin(th)])
    tip_far = np.array([ax, ay]) + (ra + spec.length) * u
    assert float(t.sdf(tip_far)) == pytest.approx(0, abs=1e-12)
    # widths: narrow and far ends
    assert t.r1 * 2 == pytest.approx(spec.near_width) and t.r2 * 2 == pytest.approx(spec.far_width)
    left, right = t.long_edges()
    for a, b in (left, right):  # the long edges are tangent to both end discs
        for (cx, cy, r) in ((t.x1, t.y1, t.r1), (t.x2, t.y2, t.r2)):
            d = abs((b[0] - a[0]) * (a[1] - cy) - (a[0] - cx) * (b[1] - a[1])) / math.dist(a, b)
            assert d == pytest.approx(r, abs=1e-9)


def test_E_TMPL_SPRAY_too_close_distance_is_where_straight_coverage_starts():
    a1, r1, a2, r2 = teardrop_axis(0.63, SPRAY.length, SPRAY.near_width, SPRAY.far_width)
    frame = spray_frame(0.63, SPRAY.length, SPRAY.near_width, SPRAY.far_width)
    for rho in (0.3, 0.63, 0.79, 1.18):
        d = axis_cover_distance(a1, r1, a2, r2, rho)
        assert coverage(frame, np.array([[d + 1e-6, 0.0]]), np.array([rho]))[0] == COVERED
        assert coverage(frame, np.array([[d - 0.01, 0.0]]), np.array([rho]))[0] != COVERED
    assert axis_cover_distance(a1, r1, a2, r2, r2 + 0.1) == math.inf


def test_E_TMPL_SPRAY_edges_cross_needs_both_long_edges():
    frame = spray_frame(0.63, SPRAY.length, SPRAY.near_width, SPRAY.far_width)
    # a base straddling the narrow end: both edges pass through it
    assert edges_cross(frame, np.array(1.4), np.array(0.0), np.array(0.63))
    # shifted sideways: only one edge crosses
    assert not edges_cross(frame, np.array(1.4), np.array(0.7), np.array(0.63))
    assert not edges_cross(circle(0, 0, 2), np.array(0.0), np.array(0.0), np.array(1.0))


def test_circle_intersections_lie_on_both_circles():
    rng = np.random.default_rng(1)
    c1, c2 = rng.uniform(-3, 3, (50, 2)), rng.uniform(-3, 3, (50, 2))
    r1, r2 = rng.uniform(0.5, 4, 50), rng.uniform(0.5, 4, 50)
    p = circle_intersections(c1, r1, c2, r2)
    ok = ~np.isnan(p[:, 0, 0])
    for k in range(2):
        assert np.allclose(np.hypot(*(p[ok, k] - c1[ok]).T), r1[ok])
        assert np.allclose(np.hypot(*(p[ok, k] - c2[ok]).T), r2[ok])


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.integers(0, 10_000), st.integers(1, 9), st.floats(0.2, 2.0))
def test_E_TMPL_CIRCLE_candidates_realise_every_touched_set(seed, n, feasible):
    """The arrangement argument: every set of bases touched by some feasible centre (probed
    by random points) is touched by one of the candidates."""
    rng = np.random.default_rng(seed)
    R = 1.378
    T = np.array([0.0, 0.0])
    centres = rng.uniform(-4.5, 4.5, (n, 2))
    radii = rng.choice([0.49, 0.63, 0.79, 0.98], n)
    cand = circle_candidates((0.0, 0.0), feasible, centres, R + radii, TOL)
    assert np.all(np.hypot(*cand.T) <= feasible + TOL)

    def sets(P):
        d = np.hypot(P[:, None, 0] - centres[:, 0], P[:, None, 1] - centres[:, 1]) - R
        return {tuple(row) for row in (d <= radii + TOL)}

    have = sets(cand)
    ang = rng.uniform(0, 2 * math.pi, 3000)
    rad = feasible * np.sqrt(rng.uniform(0, 1, 3000))
    probe = T + np.column_stack([rad * np.cos(ang), rad * np.sin(ang)])
    d = np.hypot(probe[:, None, 0] - centres[:, 0], probe[:, None, 1] - centres[:, 1]) - R - radii
    robust = np.all(np.abs(d) > 3 * TOL, 1)  # faces thinner than the tolerance are out of scope
    assert sets(probe[robust]) <= have


def test_circle_lattice_is_a_square_lattice_in_the_disc_with_sublattices():
    pts, ij = circle_lattice((1.0, 2.0), (4.0, 6.0), 1.0, 0.1)
    assert np.all(np.hypot(pts[:, 0] - 1, pts[:, 1] - 2) <= 1.0 + 1e-9)
    assert len(pts) == len({tuple(x) for x in ij})
    coarse, _ = circle_lattice((1.0, 2.0), (4.0, 6.0), 1.0, 0.2)
    sub = pts[(ij[:, 0] % 2 == 0) & (ij[:, 1] % 2 == 0)]
    assert len(coarse) == len(sub) and np.allclose(np.sort(coarse, 0), np.sort(sub, 0))
    # the first axis points toward the second piece
    on_axis = pts[ij[:, 1] == 0]
    far = on_axis[np.argmax(ij[ij[:, 1] == 0, 0])]
    assert np.allclose((far - [1, 2]) / np.hypot(*(far - [1, 2])), [0.6, 0.8])


@pytest.mark.slow
@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.integers(0, 10_000), st.integers(1, 8))
def test_E_TMPL_SPRAY_events_are_exact(seed, n):
    """Between consecutive events nothing changes: the touched set (and the main target's
    coverage and edge crossings) at any direction equals that of its cell's candidate."""
    rng = np.random.default_rng(seed)
    ra = 0.63
    frame = spray_frame(ra, SPRAY.length, SPRAY.near_width, SPRAY.far_width)
    D = rng.uniform(ra + 0.5, 12, n)
    alpha = rng.uniform(0, 2 * math.pi, n)
    rho = rng.choice([0.49, 0.63, 0.79, 1.18], n)
    deltas = np.concatenate([rho + TOL, -rho + TOL])
    reach = np.concatenate([np.full(n, np.nan), rho - TOL])
    ev = spray_events(frame, np.tile(D, 2), np.tile(alpha, 2), deltas, reach)
    angles, lo, hi = angular_cells(ev)

    def state(th):
        ph = alpha - th
        x, y = D * np.cos(ph), D * np.sin(ph)
        s = frame.sdf(np.column_stack([x, y]))
        return tuple(s <= rho + TOL) + tuple(s <= -rho + TOL) + tuple(edges_cross(frame, x, y, rho, TOL))

    mids = angles[1::2]
    for th in rng.uniform(0, 2 * math.pi, 300):
        k = np.searchsorted(lo[1::2], th, side="right") - 1
        if k < 0:
            k = len(mids) - 1
        # skip directions within a hair of an event (that is the event's own candidate)
        if len(ev) and np.min(np.abs((ev - th + math.pi) % (2 * math.pi) - math.pi)) < 1e-7:
            continue
        assert state(th) == state(mids[k])


def test_angular_cells_interleave_events_and_arcs():
    angles, lo, hi = angular_cells(np.array([0.5, 2.0]))
    assert np.allclose(lo, [0.5, 0.5, 2.0, 2.0]) and np.allclose(hi, [0.5, 2.0, 2.0, 0.5 + 2 * math.pi])
    assert np.all(np.diff(lo) >= 0) and np.all(np.diff(hi) >= -1e-12)
    assert angles[1] == pytest.approx(1.25)


@pytest.mark.parametrize("seed", range(3))
def test_clear_segments_is_sound_against_the_engines_exact_check(seed):
    """A segment called clear meets no scenery interior (checked by the LoS engine's exact
    per-segment test); most segments get the same answer."""
    t = random_table(random.Random(seed), models=0, scenery=25, roof_share=0)
    obs = build_obstacles([(s.id, s.solid) for s in t.scenery if s.blocks_los])
    rng = np.random.default_rng(seed)
    m = 400
    p = np.column_stack([rng.uniform(0, 36, (m, 2)), rng.uniform(0, 7, m)])
    q = np.column_stack([p[:, :2] + rng.normal(0, 4, (m, 2)), rng.uniform(0, 7, m)])
    fast = clear_segments(obs, p, q)
    exact = np.array([not segment_blockers(obs, (tuple(a), tuple(b))) for a, b in zip(p, q)])
    assert not np.any(fast & ~exact)
    assert (fast == exact).mean() > 0.97
