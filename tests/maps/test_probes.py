"""Visibility from many probe points (E-LOS, E-ARC, E-LOS-MOVE) against the slow oracle:
``Table.line_of_sight`` and ``skirmish los`` on the table with a probe model placed there."""

from __future__ import annotations

import dataclasses
import json
import math
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skirmish import Model, ScenarioError, SkirmishError, load, loads
from skirmish.cli import main
from skirmish.geometry.los import segment_blockers
from skirmish.maps.probes import PROBE_ID, probe_visibility
from skirmish.maps.transform import rigid_motion
from skirmish.scenario.dump import dumps
from skirmish.scenario.generate import random_table

from conftest import SCENARIOS, table_text


def grid(w: float, d: float, step: float) -> np.ndarray:
    xs, ys = np.arange(step / 2, w, step), np.arange(step / 2, d, step)
    X, Y = np.meshgrid(xs, ys)
    return np.column_stack([X.ravel(), Y.ravel()])


def with_probe(table, size, side, x, y, z):
    """The oracle table: the probe as one more model, built independently of probes.py."""
    probe = Model(PROBE_ID, side, size, float(x), float(y), float(z))
    return dataclasses.replace(table, models=(*table.models, probe))


def assert_agrees_with_los(table, pv, cells):
    for i in cells:
        x, y = pv.points[i]
        t = with_probe(table, pv.probe.size, pv.probe.side, x, y, pv.z[i])
        for j, mid in enumerate(pv.model_ids):
            front = t.line_of_sight(mid, PROBE_ID, arc="front")
            around = t.line_of_sight(PROBE_ID, mid, arc="all")
            for ours, evidence, los in ((pv.seen_by[i, j], pv.seen_by_evidence(i, j), front),
                                        (pv.sees[i, j], pv.sees_evidence(i, j), around)):
                if los.certified:
                    assert ours == los.visible, (i, mid, los)
                elif ours:  # `los` gave up (counted as not seen); a witness found here is checked
                    obs = t.los_obstacles.grown(los.tolerance)
                    assert {obs.names[o] for o in segment_blockers(obs, evidence.witness)} <= {mid, PROBE_ID}


def small_table(seed: int, models: int = 6, scenery: int = 8):
    return random_table(random.Random(seed), models=models, scenery=scenery, width=18, depth=18, roof_share=0.3)


# -- the oracle ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["first-steps", "mill-ambush"])
def test_E_LOS_probe_cells_agree_with_los_on_a_placed_probe(name):
    t = load(SCENARIOS / f"{name}.toml")
    side = t.sides[0]
    pv = probe_visibility(t, grid(t.width, t.depth, 4.0), "M", side)
    assert pv.model_ids == tuple(m.id for m in t.models if m.side != side)
    cells = np.flatnonzero(pv.standable)
    assert len(cells) > 5
    assert_agrees_with_los(t, pv, cells[:: max(1, len(cells) // 12)])


@pytest.mark.parametrize("seed", range(3))
def test_E_LOS_probe_cells_agree_on_random_tables_with_roofs(seed):
    t = small_table(seed)
    pv = probe_visibility(t, grid(t.width, t.depth, 3.0), "S")
    assert pv.model_ids == t.model_ids  # no side: every model
    cells = np.flatnonzero(pv.standable)
    rng = random.Random(seed)
    assert_agrees_with_los(t, pv, rng.sample(list(cells), min(8, len(cells))))


def test_E_LOS_probe_agrees_with_the_los_command(tmp_path, capsys):
    """The slow, obvious answer: write the table with the probe placed, run ``skirmish los``."""
    t = load(SCENARIOS / "mill-ambush.toml")
    pv = probe_visibility(t, grid(t.width, t.depth, 6.0), "L", "red")
    cells = np.flatnonzero(pv.standable)[:4]
    for i in cells:
        path = tmp_path / f"probe-{i}.toml"
        x, y = pv.points[i]
        path.write_text(dumps(with_probe(t, "L", "red", x, y, pv.z[i])))
        for j, mid in enumerate(pv.model_ids):
            assert main(["los", str(path), mid, PROBE_ID, "--json"]) == 0
            assert json.loads(capsys.readouterr().out)["visible"] == bool(pv.seen_by[i, j])
            assert main(["los", str(path), PROBE_ID, mid, "--arc", "all", "--json"]) == 0
            assert json.loads(capsys.readouterr().out)["visible"] == bool(pv.sees[i, j])


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), size=st.sampled_from("SML"), x=st.floats(0, 18), y=st.floats(0, 18))
def test_E_LOS_probe_any_point_agrees_with_the_oracle(seed, size, x, y):
    t = small_table(seed, models=5, scenery=6)
    pv = probe_visibility(t, [(x, y)], size, "red")
    if pv.standable[0]:
        assert_agrees_with_los(t, pv, [0])


# -- where a probe stands --------------------------------------------------------------------

@pytest.mark.parametrize("seed", [0, *(pytest.param(s, marks=pytest.mark.slow) for s in (1, 2))])
def test_standable_agrees_with_the_loaders_placement_rules(seed):
    """A probe is refused by the loader (off the table, inside scenery, overlapping a model)
    exactly where it is not standable for those reasons."""
    t = small_table(seed)
    pv = probe_visibility(t, grid(t.width + 2, t.depth + 2, 1.5) - 1, "M", models=())
    assert pv.seen_by.shape == (len(pv.points), 0)
    for i in range(len(pv.points)):
        x, y = pv.points[i]
        why = pv.obstruction(i)
        text = dumps(with_probe(t, "M", "red", x, y, pv.z[i]))
        try:
            loads(text)
            refused = False
        except ScenarioError:
            refused = True
        if why.startswith("off the surface"):
            continue  # hanging off a roof's edge: the loader does not check surfaces
        assert refused == (not pv.standable[i]), (x, y, why)


def test_E_MOVE_SURFACE_probe_stands_on_a_walkable_roof():
    text = table_text(
        scenery='[[scenery]]\nid = "house"\nrect = [4, 4, 10, 10]\nheight = 3\nwalkable = true\n'
                '[[scenery]]\nid = "rock"\nrect = [14, 4, 16, 6]\nheight = 1\n',
        models='[[models]]\nid = "b"\nside = "blue"\nsize = "M"\nat = [20, 20]\n')
    t = loads(text)
    pts = [(7, 7), (4.3, 7), (2, 2), (15, 5), (20, 20.5), (0.2, 12), (12, 12)]
    pv = probe_visibility(t, pts, "M", "red")
    assert pv.z[0] == 3 and pv.standable[0]  # on the roof
    assert not pv.standable[1] and pv.obstruction(1).startswith("off the surface")  # hangs off the roof
    assert pv.z[2] == 0 and pv.standable[2]
    assert pv.obstruction(3) == "scenery: rock"
    assert pv.obstruction(4) == "model: b"
    assert pv.obstruction(5) == "off the table"
    assert pv.standable[6] and pv.obstruction(6) == ""
    # nothing is counted where the probe cannot stand
    assert not pv.seen_by[~pv.standable].any() and not pv.sees[~pv.standable].any()
    with pytest.raises(SkirmishError, match="not standable"):
        pv.sees_evidence(3, 0)


# -- evidence --------------------------------------------------------------------------------

def _inside(c, p, tol=1e-7):
    return math.hypot(p[0] - c.x, p[1] - c.y) <= c.radius + tol and c.z - tol <= p[2] <= c.top + tol


def test_E_LOS_probe_evidence_is_a_witness_or_a_certificate():
    t = load(SCENARIOS / "mill-ambush.toml")
    pv = probe_visibility(t, grid(t.width, t.depth, 6.0), "M", "red")
    n_wit = n_cert = 0
    for i in np.flatnonzero(pv.standable):
        probe = pv.probe_at(i).hitbox
        for j, mid in enumerate(pv.model_ids):
            m = t.model(mid)
            for ev, value, src, dst in ((pv.seen_by_evidence(i, j), pv.seen_by[i, j], m.hitbox, probe),
                                        (pv.sees_evidence(i, j), pv.sees[i, j], probe, m.hitbox)):
                assert ev.visible == value
                if ev.visible:
                    n_wit += 1
                    p, q = ev.witness
                    assert _inside(src, p) and _inside(dst, q)
                    obs = pv.oracle_table(i).los_obstacles
                    names = {obs.names[o] for o in segment_blockers(obs, ev.witness)}
                    assert names <= {mid, PROBE_ID}
                else:
                    n_cert += 1
                    assert ev.reason in ("out_of_arc", "blocked") and ev.certified
                    assert ev.reason == "out_of_arc" or ev.blockers
            assert pv.seen_by_evidence(i, j).arc == "front" and pv.sees_evidence(i, j).arc == "all"
            assert pv.certified[i, j] == (pv.seen_by_evidence(i, j).certified and pv.sees_evidence(i, j).certified)
    assert n_wit and n_cert


# -- invariants ------------------------------------------------------------------------------

@pytest.mark.parametrize("angle,mirror", [(90.0, False), pytest.param(37.0, True, marks=pytest.mark.slow)])
def test_E_LOS_rigid_motions_move_the_probe_answers(angle, mirror):
    """Move the table and the points together: every answer moves with them. (Both tables
    are moved onto one large rectangle, since the table's edges do not rotate.)"""
    t = dataclasses.replace(small_table(7), width=1e3, depth=1e3)
    pts = grid(18, 18, 2.5)
    pv = probe_visibility(rigid_motion(t, 0.0, 500.0, 500.0), pts + 500.0, "M", "red")
    a = math.radians(angle)
    p = pts * [1, -1] if mirror else pts
    moved = np.column_stack([math.cos(a) * p[:, 0] - math.sin(a) * p[:, 1],
                             math.sin(a) * p[:, 0] + math.cos(a) * p[:, 1]]) + 500.0
    pv2 = probe_visibility(rigid_motion(t, angle, 500.0, 500.0, mirror=mirror), moved, "M", "red")
    assert pv.standable.sum() > 10 and pv.seen_by.any() and not pv.seen_by.all()
    assert np.array_equal(pv.standable, pv2.standable)
    assert np.array_equal(pv.z, pv2.z)
    assert np.array_equal(pv.seen_by, pv2.seen_by)
    assert np.array_equal(pv.sees, pv2.sees)


def test_probe_can_be_a_model_moved_point_to_point():
    """Probing with a model on the table takes it off first: its old place neither blocks nor counts."""
    t = load(SCENARIOS / "first-steps.toml")
    akane = t.model("akane")
    pts = [(akane.x, akane.y), (akane.x + 3, akane.y)]
    pv = probe_visibility(t, pts, akane)
    assert akane.id not in pv.model_ids and pv.probe.size == akane.size
    assert pv.standable[0]  # its own old place is free
    assert pv.probe_at(0).id == akane.id
    assert pv.sees_evidence(0, 0).frm == akane.id and pv.seen_by_evidence(0, 0).to == akane.id


def test_probe_errors_name_the_fix():
    t = load(SCENARIOS / "first-steps.toml")
    with pytest.raises(SkirmishError, match="expected one of"):
        probe_visibility(t, [(1, 1)], "XL")
    with pytest.raises(SkirmishError, match="finite"):
        probe_visibility(t, [(math.nan, 1)], "M")
    with pytest.raises(SkirmishError, match="no model"):
        probe_visibility(t, [(1, 1)], "M", models=["nobody"])
    pv = probe_visibility(t, np.zeros((0, 2)), "M")
    assert pv.seen_by.shape == (0, len(t.models)) and "0 points" in repr(pv)
