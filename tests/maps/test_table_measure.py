"""Measurement on the continuous table: E-DIST, E-CONTACT, E-ARC, E-AWARE, E-REACH, E-MODE."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import skirmish
from skirmish import MeasurementRefused, Mode, Model, Table, UnknownIdError
from skirmish.geometry.distance import cylinder_distance, distances_to_cylinders_at
from skirmish.maps.transform import rigid_motion
from skirmish.scenario.generate import random_table
from skirmish.scenario.load import loads

from conftest import SCENARIOS, table_text

MM = 1 / 25.4


def two(a: dict | None = None, b: dict | None = None, scenery: tuple = (), mode: str = "assisted") -> Table:
    ma = Model(**{"id": "a", "side": "red", "size": "M", "x": 5.0, "y": 5.0, **(a or {})})
    mb = Model(**{"id": "b", "side": "blue", "size": "M", "x": 10.0, "y": 5.0, **(b or {})})
    return Table(24, 24, (ma, mb), scenery, Mode(mode))


def test_E_DIST_between_nearest_points_of_hitboxes():
    t = two()
    assert t.distance("a", "b") == pytest.approx(5 - 32 * MM)


def test_E_DIST_models_on_different_levels_are_farther_apart():
    """E-DIST in 3D: a model 3" up and straight above the other's edge."""
    t = two(b={"x": 5.0 + 32 * MM, "z": 3.0})
    assert t.distance("a", "b") == pytest.approx(3 - 45 * MM)
    t2 = two(b={"x": 9.0, "z": 3.0})
    plan = 4 - 32 * MM
    assert t2.distance("a", "b") == pytest.approx(math.hypot(plan, 3 - 45 * MM))


def test_E_DIST_to_scenery_is_3d():
    t = skirmish.load(SCENARIOS / "first-steps.toml")
    assert t.distance("akane", "wall") == pytest.approx(5.5 - 2 - 16 * MM)
    assert t.distance("wall", "akane") == t.distance("akane", "wall")


def test_E_CONTACT_tangent_bases_touch_and_a_model_touches_itself():
    t = two(b={"x": 5 + 32 * MM})
    assert t.in_contact("a", "b") and t.in_contact("b", "a")
    assert t.in_contact("a", "a")
    assert "b" in t.contacts("a")
    assert not two().in_contact("a", "b")


def test_E_CONTACT_with_scenery():
    t = loads(table_text('[[models]]\nid = "a"\nside = "r"\nsize = "M"\nat = [3.370079, 5]\n',
                         '[[scenery]]\nid = "w"\nrect = [4, 0, 5, 10]\nheight = 2\n'))
    assert t.in_contact("a", "w")
    assert t.contacts("a") == ("w",)


def test_E_ARC_front_and_back():
    t = two(a={"facing": 0.0})
    assert t.arc("a", "b") == "front"
    assert two(a={"facing": 180.0}).arc("a", "b") == "back"
    # straddling the dividing line: part of the base is in front
    assert two(a={"facing": 90.0}).arc("a", "b") == "front"
    assert two(a={"facing": 0.0}).arc_of_point("a", 5.0, 9.0) == "front"  # the line itself is front
    assert two(a={"facing": 0.0}).arc_of_point("a", 4.9, 9.0) == "back"


def test_E_AWARE_measured_from_the_base_edge():
    assert two().distance("a", "b") == pytest.approx(5 - 32 * MM)  # 3.74 in
    assert two(a={"attributes": {"AGI": 3}}).in_awareness("a", "b") is False
    assert two(a={"attributes": {"AGI": 4}}).in_awareness("a", "b") is True
    assert two(a={"attributes": {"AGI": 3}}, b={"x": 5 + 32 * MM + 3}).in_awareness("a", "b") is True
    assert two().in_awareness("a", "b") is None


def test_E_REACH_melee_and_ranged_bands():
    t = skirmish.load(SCENARIOS / "first-steps.toml")
    sword = t.reach("akane", "brute", "sword")
    assert not sword.in_reach and sword.band is None
    bow = t.reach("akane", "brute", "Short Bow")
    assert bow.in_reach and bow.band == 1 and bow.accuracy == 0  # bands numbered from 1
    far = t.with_model(Model("brute", "blue", "L", 30.0, 6.0))
    far_bow = far.reach("akane", "brute", "short bow")  # weapon names match case-insensitively
    assert far_bow.in_reach and far_bow.band == 2 and far_bow.accuracy == -6


def test_E_REACH_zero_means_base_contact_only():
    from skirmish.rules.eldfall.weapons import melee
    claws = melee("Claws", 0.0)
    touching = two(b={"x": 5 + 32 * MM})
    assert touching.reach("a", "b", claws).in_reach
    assert not two(b={"x": 5 + 32 * MM + 0.01}).reach("a", "b", claws).in_reach


def test_E_MODE_standard_withholds_beyond_max_awareness_movement():
    t = two(a={"attributes": {"AGI": 2, "SPD": 3}}, mode="standard")
    m = t.measure("a", "b")
    assert m.distance is None and m.beyond == 3 and m.in_awareness is False
    near = two(a={"attributes": {"AGI": 2, "SPD": 3}}, b={"x": 8.0}, mode="standard").measure("a", "b")
    assert near.distance == pytest.approx(3 - 32 * MM) and near.beyond is None
    exact = t.measure("a", "b", declared=True)
    assert exact.distance == pytest.approx(5 - 32 * MM)


def test_E_MODE_realism_refuses_premeasuring_with_a_reason():
    t = two(mode="realism")
    with pytest.raises(MeasurementRefused, match="realism mode: a may not pre-measure"):
        t.measure("a", "b")
    assert t.measure("a", "b", declared=True).distance == pytest.approx(5 - 32 * MM)
    assert t.measure("a", "b", mode="assisted").distance is not None


def test_E_MODE_a_point_is_measured_under_the_same_mode_as_a_model():
    """(the viewer measured a point itself, with its own copy of the E-MODE rule)"""
    t = two(a={"attributes": {"AGI": 2, "SPD": 3}}, mode="standard")
    far, near = t.measure_point("a", (10.0, 5.0)), t.measure_point("a", (7.5, 5.0))
    assert far.distance is None and far.beyond == 3 and far.nearest is None
    assert near.distance == pytest.approx(2.5 - 16 * MM) and near.nearest[1][:2] == (7.5, 5.0)
    assert t.measure_point("a", (10.0, 5.0), declared=True).distance == pytest.approx(5 - 16 * MM)
    with pytest.raises(MeasurementRefused, match="realism mode: a may not pre-measure"):
        two(mode="realism").measure_point("a", (7.5, 5.0))
    assert two(mode="assisted").measure_point("a", (5.0, 20.0)).distance == pytest.approx(15 - 16 * MM)


def test_unknown_model_suggests_close_ids():
    t = skirmish.load(SCENARIOS / "mill-ambush.toml")
    with pytest.raises(UnknownIdError, match="did you mean 'akane'"):
        t.distance("akan", "brute")


def test_batch_matrix_agrees_with_scalar_on_every_pair():
    """E-DIST: the vectorised matrix equals the scalar query for all pairs."""
    for seed in range(3):
        t = random_table(random.Random(seed))
        ids, mat = t.distance_matrix()
        for i, a in enumerate(ids):
            for j, b in enumerate(ids):
                assert mat[i, j] == pytest.approx(t.distance(a, b), abs=1e-12)


cyl = st.builds(lambda x, y, z, r, h: skirmish.geometry.solids.Cylinder(x, y, z, r, h),
                st.floats(-50, 50), st.floats(-50, 50), st.floats(0, 10), st.floats(0.3, 2), st.floats(0.1, 4))


@settings(max_examples=50)
@given(cyl, st.lists(st.tuples(st.floats(-50, 50), st.floats(-50, 50), st.floats(0, 10)), max_size=6),
       st.floats(0.3, 2), st.floats(0.1, 4))
def test_E_DIST_to_a_model_at_each_path_point_is_cylinder_distance_bit_for_bit(a, points, r, h):
    got = distances_to_cylinders_at(a, points, r, h)
    assert got == [cylinder_distance(a, skirmish.geometry.solids.Cylinder(x, y, z, r, h)) for x, y, z in points]


@pytest.mark.slow
@given(cyl, cyl)
def test_E_DIST_is_symmetric_and_bounded_by_centres(a, b):
    """E-DIST symmetry, and the triangle-style bounds: plan gap ≤ d ≤ distance of any two inner points."""
    d = cylinder_distance(a, b)
    assert d == pytest.approx(cylinder_distance(b, a), abs=1e-12)
    plan = math.hypot(a.x - b.x, a.y - b.y)
    assert d >= plan - a.radius - b.radius - 1e-9
    mid_a = (a.x, a.y, a.z + a.height / 2)
    mid_b = (b.x, b.y, b.z + b.height / 2)
    assert d <= math.dist(mid_a, mid_b) + 1e-9


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.floats(-180, 180), st.floats(-40, 40), st.floats(-40, 40), st.booleans())
def test_rigid_motions_change_no_distance_contact_or_arc(seed, angle, dx, dy, mirror):
    t = random_table(random.Random(seed), models=8, scenery=6)
    moved = rigid_motion(t, angle, dx, dy, mirror=mirror)
    ids, before = t.distance_matrix()
    _, after = moved.distance_matrix()
    assert np.allclose(before, after, atol=1e-9)
    for a in ids[:4]:
        for b in ids:
            assert t.in_contact(a, b) == moved.in_contact(a, b)
            if a != b:
                assert t.arc(a, b) == moved.arc(a, b)
        for s in t.scenery:
            assert t.distance(a, s.id) == pytest.approx(moved.distance(a, s.id), abs=1e-7)


def test_with_model_is_the_table_built_with_that_model():
    """A moved model's table (``with_model``, made without running the checks again) is
    the table built anew with the model there: equal, with the same fields, answers,
    pickle round trip, and an unknown id refused."""
    import dataclasses
    import pickle

    from skirmish.scenario.generate import random_table

    t = random_table(random.Random(2), models=6, scenery=10)
    m = dataclasses.replace(t.models[1], x=t.models[1].x + 1.5, facing=40.0)
    moved = t.with_model(m)
    fresh = dataclasses.replace(t, models=tuple(m if o.id == m.id else o for o in t.models))
    assert moved == fresh and repr(moved) == repr(fresh) and type(moved) is Table
    assert all(getattr(moved, f.name) == getattr(fresh, f.name) for f in dataclasses.fields(Table))
    assert moved.model(m.id) is m and t.model(m.id) is not m  # (the table it came from is unchanged)
    assert moved.distance(m.id, t.models[0].id) == fresh.distance(m.id, t.models[0].id)
    assert pickle.loads(pickle.dumps(moved)) == fresh
    with pytest.raises(UnknownIdError):
        t.with_model(dataclasses.replace(m, id="nobody"))
