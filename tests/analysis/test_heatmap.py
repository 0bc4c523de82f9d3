"""``skirmish heatmap``: cells agree with `los` on a probe placed there; rigid motions
move the heatmap with the table; the JSON schema, the picture and the errors."""

from __future__ import annotations

import dataclasses
import json
import random

import numpy as np
import shapely
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skirmish import Model, ScenarioError, SkirmishError, load, loads
from skirmish.analysis.heatmap import cell_centres, heatmap
from skirmish.cli import main
from skirmish.maps.transform import rigid_motion
from skirmish.scenario.dump import dumps
from skirmish.scenario.generate import random_table

from conftest import SCENARIOS

MILL = str(SCENARIOS / "mill-ambush.toml")
EPS = 0.1 / 25.4  # the default tolerance ε


@pytest.fixture(scope="module")
def mill():
    return load(MILL)


@pytest.fixture(scope="module")
def mill_heat(mill):
    return heatmap(mill, "red", "M", 3.0)


def placed(table, side, size, x, y):
    """The oracle table: a probe model of ``side`` and ``size`` placed at (x, y), on the
    highest walkable top under it (built independently of the heatmap code)."""
    roofs = [s for s in table.scenery if s.walkable and s.solid.footprint.contains(shapely.Point(x, y))]
    z = max((s.top for s in roofs), default=0.0)
    return dataclasses.replace(table, models=(*table.models, Model("probe", side, size, x, y, z))), roofs


def count_seen(t, enemies):
    """(exposure, sees, doubt): the `los` counts for the placed probe; ``doubt`` counts the
    pairs `los` left undecided (there a heatmap may hold a witness `los` did not find)."""
    front = [t.line_of_sight(e, "probe") for e in enemies]
    around = [t.line_of_sight("probe", e, arc="all") for e in enemies]
    return (sum(a.visible for a in front), sum(a.visible for a in around),
            (sum(not a.certified for a in front), sum(not a.certified for a in around)))


def in_band(t, a, b, arc):
    """E-LOS: whether the pair lies in the certificate's band, where either answer is a
    proof (docs/rules.md): its clear sight lines, if any, are a sliver thinner than ε —
    seen at ε/2, not at 2ε."""
    return t.line_of_sight(a, b, arc=arc, tolerance=EPS / 2).visible and \
        not t.line_of_sight(a, b, arc=arc, tolerance=2 * EPS).visible


def band_bounds(t, enemies):
    """((lo, hi) exposure, (lo, hi) sees): the counts a heatmap may give where some pairs
    lie in the band (each of those may go either way), and undecided pairs."""
    out = []
    for pairs, arc in (([(e, "probe") for e in enemies], "front"), ([("probe", e) for e in enemies], "all")):
        got = [(t.line_of_sight(a, b, arc=arc), a, b) for a, b in pairs]
        free = [r.visible or not r.certified or in_band(t, a, b, arc) for r, a, b in got]
        out.append((sum(r.visible and not in_band(t, a, b, arc) for r, a, b in got), sum(free)))
    return out[0], out[1]


def assert_cells_agree_with_los(table, hm, cells):
    enemies = [m.id for m in table.models if m.side != hm.side and not {"Dead", "Incapacitated"} & m.states]
    assert hm.enemies == tuple(enemies)
    checked = 0
    for iy, ix in cells:
        x, y = hm.xs[ix], hm.ys[iy]
        exp, sees = hm.exposure[iy][ix], hm.sees[iy][ix]
        t, roofs = placed(table, hm.side, hm.size, x, y)
        try:
            loads(dumps(t))
            placeable = True
        except ScenarioError:
            placeable = False
        if exp is None:
            on_surface = not roofs or any(s.solid.footprint.buffer(-t.model("probe").radius).contains(
                shapely.Point(x, y)) for s in roofs)
            assert not placeable or not on_surface, (x, y)
            continue
        assert placeable, (x, y)
        e, s, (de, ds) = count_seen(t, enemies)
        if not (e <= exp <= e + de and s <= sees <= s + ds):  # (a pair in the band may go either way)
            (e0, e1), (s0, s1) = band_bounds(t, enemies)
            assert e0 <= exp <= e1 and s0 <= sees <= s1, (x, y, exp, sees, e, s)
        checked += 1
    return checked


def test_E_LOS_heatmap_cells_agree_with_los_on_a_probe_placed_there(mill, mill_heat):
    hm = mill_heat
    cells = [(iy, ix) for iy in range(len(hm.ys)) for ix in range(len(hm.xs)) if not (ix + 2 * iy) % 7]
    assert assert_cells_agree_with_los(mill, hm, cells) >= 8  # a spread-out sample of cells


@pytest.mark.slow
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), size=st.sampled_from("SML"), side=st.sampled_from(["red", "blue"]))
def test_E_LOS_heatmap_every_cell_agrees_with_los_on_random_tables(seed, size, side):
    """Every cell of a coarse heatmap of a random table with roofs (a probe on a roof, models
    on roofs, tall and low scenery) against `los` on the table with the probe placed."""
    t = random_table(random.Random(seed), models=8, scenery=10, width=18, depth=18, roof_share=0.3)
    hm = heatmap(t, side, size, 2.0)
    cells = [(iy, ix) for iy in range(len(hm.ys)) for ix in range(len(hm.xs))]
    assert_cells_agree_with_los(t, hm, cells)


@pytest.mark.slow
def test_E_LOS_dense_ruins_heatmap_agrees_with_los():
    """The benchmark's table (25 pieces, 10 enemies, models on roofs), a spread of cells."""
    t = load(str(SCENARIOS / "dense-ruins.toml"))
    hm = heatmap(t, "red", "M", 1.5)
    cells = [(iy, ix) for iy in range(len(hm.ys)) for ix in range(len(hm.xs)) if not (3 * ix + iy) % 11]
    assert assert_cells_agree_with_los(t, hm, cells) >= 25


@pytest.mark.parametrize("angle,dx,dy,mirror", [(90.0, 30.0, 0.0, False), (180.0, 30.0, 30.0, False),
                                                (0.0, 0.0, 30.0, True)])
def test_E_LOS_rigid_motions_move_the_heatmap(mill, mill_heat, angle, dx, dy, mirror):
    """Turn or mirror the 30" square table onto itself: each cell's counts move to its image."""
    moved = heatmap(rigid_motion(mill, angle, dx, dy, mirror=mirror), "red", "M", 3.0)
    a = np.radians(angle)
    for which in ("exposure", "sees"):
        before, after = mill_heat.array(which), moved.array(which)
        for iy, y in enumerate(mill_heat.ys):
            for ix, x in enumerate(mill_heat.xs):
                y0 = -y if mirror else y
                u, v = np.cos(a) * x - np.sin(a) * y0 + dx, np.sin(a) * x + np.cos(a) * y0 + dy
                jx, jy = int(round(u / 3 - 0.5)), int(round(v / 3 - 0.5))
                assert np.array_equal(before[iy, ix], after[jy, jx], equal_nan=True), (which, x, y)


def test_E_AP_dead_and_incapacitated_enemies_shoot_no_one_and_are_not_counted(capsys):
    """(three enemies, one Dead and one Incapacitated, gave exposure 3 in every cell)"""
    models = "".join(f'[[models]]\nid = "{i}"\nside = "blue"\nsize = "M"\nat = [{x}, 11]\nfacing = 270\n{st}\n'
                     for i, x, st in (("dead", 3, 'states = ["Dead"]'), ("inc", 6, 'states = ["Incapacitated"]'),
                                      ("ok", 9, "")))
    t = loads(f'format = 1\n[table]\nsize = [12, 12]\n{models}[[models]]\nid = "r"\nside = "red"\nsize = "M"\n'
              "at = [6, 2]\n")
    hm = heatmap(t, "red", "M", 2.0)
    assert hm.enemies == ("ok",)
    cells = [(iy, ix) for iy in range(len(hm.ys)) for ix in range(len(hm.xs))]
    assert max(hm.exposure[iy][ix] or 0 for iy, ix in cells) == 1
    assert assert_cells_agree_with_los(t, hm, cells) > 5


def test_heatmap_json_schema(capsys):
    assert main(["heatmap", MILL, "--side", "blue", "--size", "S", "--step", "6", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert {"step", "xs", "ys", "exposure", "sees"} <= set(d)
    assert d["step"] == 6 and d["xs"] == [3, 9, 15, 21, 27] and d["ys"] == d["xs"]
    assert len(d["exposure"]) == len(d["ys"]) and all(len(r) == len(d["xs"]) for r in d["exposure"])
    cells = [v for r in d["exposure"] + d["sees"] for v in r]
    assert any(v is None for v in cells) and all(v is None or 0 <= v <= len(d["enemies"]) for v in cells)
    assert d["enemies"] == ["akane", "kenji", "yumi"] and d["undecided"] == []


def test_heatmap_text_and_picture(tmp_path, capsys):
    pytest.importorskip("pyglet")
    out = tmp_path / "heat.png"
    assert main(["heatmap", MILL, "--side", "red", "--size", "M", "--step", "5", "-o", str(out),
                 "--px", "300"]) == 0
    text = capsys.readouterr().out
    assert "Exposure of a M model of red to 4 enemies" in text and f"wrote {out}" in text
    rows = [ln for ln in text.splitlines() if ln and set(ln) <= set("0123456789+#")]
    assert len(rows) == 6 and all(len(r) == 6 for r in rows)
    from skirmish.viewer.png import decode_png
    from skirmish.viewer.heat import RAMP

    px = decode_png(out.read_bytes())
    assert px.shape[1] > 300
    # the exposure layer is there: some pixels carry the ramp's unseen green over the table
    green = np.array(RAMP[0][:3])
    assert (np.abs(px[..., :3].astype(int) - green).sum(-1) < 60).any()


def test_heatmap_errors(capsys):
    assert main(["heatmap", MILL, "--side", "green", "--size", "M"]) == 2
    assert "no side 'green'" in capsys.readouterr().err
    assert main(["heatmap", MILL, "--side", "red", "--size", "M", "--step", "0"]) == 2
    assert "--step" in capsys.readouterr().err
    assert main(["heatmap", MILL, "--side", "red", "--size", "M", "-o", "x.jpg"]) == 2
    with pytest.raises(SkirmishError, match="use a larger step"):
        cell_centres(load(MILL), 0.01)
    assert main(["heatmap", str(SCENARIOS / "party-hard-maze.toml"), "--side", "a", "--size", "M"]) == 2
    assert "continuous table" in capsys.readouterr().err


def test_viewer_key_x_toggles_the_exposure_layer_of_the_selected_models_side(mill, monkeypatch):
    from skirmish.viewer import session
    from skirmish.viewer.heat import heat_prims

    monkeypatch.setattr(session, "HEAT_STEP", 5.0)  # a coarse grid keeps the test quick
    s = session.Session(mill)
    s.key("x")
    assert s.error and "select a model" in s.message  # nothing selected: a hint, no layer
    s.key("x")
    s.select("brute")
    s.key("x")
    layer = heat_prims(heatmap(mill, "blue", mill.model("brute").size, 5.0))
    under = s.overlay_scene()["underlay"]
    colours = {p.color for p in under if hasattr(p, "triangles")}
    assert {p.color for p in layer} <= colours and "exposure of a" in s.message
    s.key("x")
    assert not {p.color for p in layer} & {p.color for p in s.overlay_scene()["underlay"] if hasattr(p, "triangles")}
