"""The probes' cheap tests (skirmish.maps.probe_shortcuts) are sound against the exact
LoS search: every sampled witness is clear of every ε-grown solid (the search's own
exact segment check) and lies in its two regions; no pair the cover test certifies has
a witness the search can find."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skirmish import load, loads
from skirmish.geometry.los import DEFAULT_TOLERANCE, Viewer, line_of_sight_batch, segment_blockers
from skirmish.maps.probe_shortcuts import Pairs, candidates, covered, sampled_witnesses
from skirmish.scenario.generate import random_table

from conftest import SCENARIOS, table_text


def viewers(table, rng: random.Random, n: int):
    """Pairs of regions: random points (S, M or L discs, some on roof height) against the
    models, both ways, half of them from the model's front arc."""
    src, dst, fac = [], [], []
    for _ in range(n):
        x, y = rng.uniform(0, table.width), rng.uniform(0, table.depth)
        r, h = rng.choice([(0.49, 1.2), (0.63, 1.77), (0.79, 1.97)])
        z = rng.choice([0.0, 0.0, 0.0, 3.0])
        k = rng.randrange(len(table.models))
        m = table.models[k]
        c = m.hitbox
        probe, model = Viewer(x, y, r, z, h, -1), Viewer(c.x, c.y, c.radius, c.z, c.height, k)
        if rng.random() < 0.5:
            src.append(model)
            dst.append(probe)
            fac.append(m.facing_vector)
        else:
            src.append(probe)
            dst.append(model)
            fac.append(None)
    return src, dst, fac


def in_region(v: Viewer, f, p, *, facing_of: Viewer, tol: float = 1e-9) -> bool:
    inside = math.hypot(p[0] - v.x, p[1] - v.y) <= v.r + tol and v.z - tol <= p[2] <= v.z + v.h + tol
    if f is not None:
        inside &= f[0] * (p[0] - facing_of.x) + f[1] * (p[1] - facing_of.y) >= -tol
    return inside


def check_sound(table, rng: random.Random, n: int) -> tuple[int, int]:
    obs = table.los_obstacles
    grown = obs.grown(DEFAULT_TOLERANCE)
    src, dst, fac = viewers(table, rng, n)
    pairs = Pairs.between(src, dst, fac)
    pi, oi = candidates(grown, pairs)
    wit = sampled_witnesses(grown, pairs, pi, oi)
    cov = covered(grown, pairs, pi, oi)
    truth = line_of_sight_batch(obs, src, dst, fac)
    for k, (w, c, a) in enumerate(zip(wit, cov, truth)):
        assert w is None or c is None, k  # never both
        own = tuple(o for o in (src[k].owner, dst[k].owner) if o >= 0)
        if w is not None:
            assert in_region(src[k], fac[k], w[0], facing_of=src[k]), (k, w)
            assert in_region(dst[k], fac[k], w[1], facing_of=src[k]), (k, w)
            assert segment_blockers(grown, w, exclude=own) == [], (k, w)
            assert a.visible or a.stage in ("undecided", "subdivision"), (k, a)
        if c is not None:
            assert not a.visible, (k, a)
            assert c and not set(c) & set(own)
    return sum(w is not None for w in wit), sum(c is not None for c in cov)


@pytest.mark.parametrize("seed", range(3))
def test_E_LOS_shortcuts_are_sound_on_random_tables(seed):
    t = random_table(random.Random(seed), models=10, scenery=14, width=24, depth=24, roof_share=0.3)
    n_wit, n_cov = check_sound(t, random.Random(seed), 150)
    assert n_wit > 20 and n_cov > 10  # both tests settle pairs (no vacuous pass)


def test_E_LOS_shortcuts_are_sound_on_dense_ruins():
    t = load(SCENARIOS / "dense-ruins.toml")
    n_wit, n_cov = check_sound(t, random.Random(5), 200)
    assert n_wit > 20 and n_cov > 20


@pytest.mark.slow
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_E_LOS_shortcuts_are_sound_any_table(seed):
    t = random_table(random.Random(seed), models=8, scenery=12, width=20, depth=20, roof_share=0.3)
    check_sound(t, random.Random(seed), 80)


def test_E_LOS_cover_needs_the_solids_to_close_the_corridor():
    """One tall wall across the corridor, or two that overlap: certified, the walls its
    blockers. A gap wide enough for a sight line: not certified, and a witness through
    the gap. Two staggered walls no straight line passes: left to the exact search (the
    corridor stays connected round the stagger). A wall lower than the models: no cover."""
    def wall(i, rect, height=3):
        return f'[[scenery]]\nid = "wall-{i}"\nrect = {rect}\nheight = {height}\n'

    a, b = Viewer(4, 12, 0.63, 0, 1.77, -1), Viewer(20, 12, 0.63, 0, 1.77, -1)
    for scenery, blocked in ((wall(0, [11, 2, 12, 22]), True),
                             (wall(0, [11, 2, 12, 12.2]) + wall(1, [11.5, 11.8, 12.5, 22]), True),  # together
                             (wall(0, [11, 2, 12, 12.2]) + wall(1, [14, 11.8, 15, 22]), False),  # staggered
                             (wall(0, [11, 2, 12, 11.5]) + wall(1, [11, 12.5, 12, 22]), False),
                             (wall(0, [11, 2, 12, 22], 1), False)):
        g = loads(table_text(scenery=scenery)).los_obstacles.grown(DEFAULT_TOLERANCE)
        pairs = Pairs.between([a], [b], [None])
        pi, oi = candidates(g, pairs)
        cov = covered(g, pairs, pi, oi)
        wit = sampled_witnesses(g, pairs, pi, oi)
        assert (cov[0] is not None) == blocked, scenery
        assert (wit[0] is not None) == (not blocked and "14, 11.8" not in scenery), scenery
        if blocked:
            assert [g.names[o] for o in cov[0]] == ["wall-0", "wall-1"][:scenery.count("[[scenery]]")]


@pytest.mark.parametrize("seed", [1, 2])
def test_e_los_solid_cores_lie_inside_the_grown_footprints(seed):
    """E-LOS: a solid's core (what the cover certificate's walls are cut from) is the
    scene's own footprint where the growth is well above the shrink, else the grown
    footprint shrunk; the stacks the growing adds are always shrunk."""
    import numpy as np
    import shapely

    from skirmish.maps.probe_shortcuts import SHRINK, solid_cores

    t = random_table(random.Random(seed), models=10, scenery=25)
    base = t.los_obstacles
    for eps in (DEFAULT_TOLERANCE, 1e-7):
        grown = base.grown(eps)
        cores = solid_cores(grown, base)
        assert len(cores) == grown.n_owners and solid_cores(grown, base) is cores
        shrunk = shapely.buffer(np.array(grown.owner_geom, object), -SHRINK)
        own = eps > 10 * SHRINK
        for i, c in enumerate(cores):
            want = base.owner_geom[i] if own and i < base.n_owners else shrunk[i]
            assert shapely.equals_exact(c, want, 0.0)
            assert shapely.covers(grown.owner_geom[i].buffer(1e-9), c)
