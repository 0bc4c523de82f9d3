"""The viewer's pure half: engine answers → drawables, camera, tessellation, PNG, the
session's logic. No OpenGL here (frames are checked in test_viewer_frames.py)."""

from __future__ import annotations

import dataclasses
import doctest
import math
import sys

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.errors import MeasurementRefused
from skirmish.maps.results import MovePlan, MoveRange, Violation
from skirmish.rules.eldfall.modes import Mode
from skirmish.scenario.load import load, loads
from skirmish.viewer import camera, palette, png, render, scene, session, tessellate
from skirmish.viewer import palette as P
from skirmish.viewer.camera import Camera
from skirmish.viewer.overlays import describe_violation, path_prims, range_prims
from skirmish.viewer.scene import Disc, Dot, Fill, Line, Text
from skirmish.viewer.session import Session

from conftest import SCENARIOS, table_text


@pytest.fixture(scope="module")
def mill():
    return load(SCENARIOS / "mill-ambush.toml")


@pytest.fixture(scope="module")
def first():
    return load(SCENARIOS / "first-steps.toml")


def test_pure_modules_do_not_import_pyglet():
    pure = ["palette", "camera", "scene", "tessellate", "png", "session", "overlays", "grid_view", "launch"]
    code = ("import sys\n" + "".join(f"import skirmish.viewer.{m}\n" for m in pure) +
            "import skirmish.cli\nskirmish.cli.build_parser()\n"
            "assert 'pyglet' not in sys.modules, sorted(m for m in sys.modules if 'pyglet' in m)\n")
    import subprocess
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("module", [palette, camera, png, session, scene, render])
def test_docstring_examples(module, monkeypatch):
    from conftest import ROOT
    monkeypatch.chdir(ROOT)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


# -- palette and camera ------------------------------------------------------------------------

def test_side_colours_named_and_distinct():
    c = P.side_colors(["blue", "red", "orcs", "elves"])
    assert c["red"] == P.SIDE_NAMED["red"] and c["blue"] == P.SIDE_NAMED["blue"]
    assert len(set(c.values())) == 4


def test_scenery_shade_darkens_with_height():
    shades = [P.luminance(P.scenery_shade(h)) for h in (0.5, 1, 2, 3, 6, 8)]
    assert shades == sorted(shades, reverse=True) and len(set(shades)) == 6


@given(st.floats(-50, 50), st.floats(-50, 50), st.floats(0.2, 80), st.floats(-500, 500), st.floats(-500, 500))
def test_camera_round_trip(x, y, scale, ox, oy):
    cam = Camera(scale, ox, oy)
    wx, wy = cam.to_world(*cam.to_screen(x, y))
    assert math.isclose(wx, x, abs_tol=1e-7) and math.isclose(wy, y, abs_tol=1e-7)


def test_camera_zoom_keeps_the_point_under_the_cursor():
    cam = Camera.fit((0, 0, 30, 30), (0, 0, 800, 600), margin=20)
    before = cam.to_world(300, 200)
    z = cam.zoomed(1.5, 300, 200)
    assert z.scale == pytest.approx(cam.scale * 1.5)
    assert z.to_world(300, 200) == pytest.approx(before)
    assert cam.panned(10, -5).to_screen(0, 0) == pytest.approx((cam.ox + 10, cam.oy - 5))


def test_camera_fit_shows_the_whole_table_centred():
    cam = Camera.fit((0, 0, 30, 20), (0, 24, 1000, 700), margin=28)
    x0, y0 = cam.to_screen(0, 0)
    x1, y1 = cam.to_screen(30, 20)
    assert x0 >= 28 - 1e-9 and x1 <= 1000 - 28 + 1e-9 and y0 >= 24 + 28 - 1e-9 and y1 <= 724 - 28 + 1e-9
    assert (x0 + x1) / 2 == pytest.approx(500) and (y0 + y1) / 2 == pytest.approx(24 + 350)


# -- primitives and tessellation ---------------------------------------------------------------------

def test_fill_triangulates_concave_and_holed_footprints(mill):
    wall = mill.scenery_piece("yard-wall").solid.footprint  # L-shaped
    f = Fill.of(wall, P.WHITE)
    area = sum(shapely.Polygon(t).area for t in f.triangles)
    assert area == pytest.approx(wall.area)
    holed = shapely.Polygon([(0, 0), (4, 0), (4, 4), (0, 4)], [[(1, 1), (2, 1), (2, 2), (1, 2)]])
    assert sum(shapely.Polygon(t).area for t in Fill.of(holed, P.WHITE).triangles) == pytest.approx(15)


def test_stroke_is_a_band_of_the_given_width():
    tris = tessellate.stroke(np.array([[0.0, 0.0], [100.0, 0.0]]), 4.0)
    pts = tris.reshape(-1, 2)
    assert pts[:, 1].min() == pytest.approx(-2) and pts[:, 1].max() == pytest.approx(2)
    assert sum(shapely.Polygon(t).area for t in tris) == pytest.approx(400)


def test_dashes_cover_half_of_the_line():
    pieces = tessellate._dashes(np.array([[0.0, 0.0], [100.0, 0.0], [100.0, 100.0]]), 10.0)
    on = sum(float(np.sum(np.hypot(*np.diff(p, axis=0).T))) for p in pieces)
    assert on == pytest.approx(100, abs=1e-6) and len(pieces) == 10


def test_tessellate_places_everything_through_the_camera():
    cam = Camera(10, 5, 7)
    mesh, labels = tessellate.tessellate(
        [Fill.rect(0, 0, 1, 1, P.WHITE), Disc(2, 2, 0.5, P.INK), Dot(1, 1, 3, P.INK),
         Line.seg((0, 0), (1, 0), P.INK, 2.0), Text(1, 2, "hi", dx=3, size=10)], cam, ratio=2.0)
    assert mesh.count % 3 == 0 and mesh.positions.dtype == np.float32 and mesh.colors.shape == (mesh.count, 4)
    assert mesh.positions[:6].min(axis=0) == pytest.approx([5, 7]) and mesh.positions[:6].max(axis=0) == pytest.approx([15, 17])
    (lb,) = labels
    assert (lb.x, lb.y, lb.size) == (15 + 6, 27, 20)


# -- the table scene ------------------------------------------------------------------------------

def test_table_scene_has_every_piece_in_its_layer(mill):
    s = scene.table_scene(mill)
    texts = [p.text for p in s["scenery"] if isinstance(p, Text)]
    assert sorted(texts) == sorted(scene.height_text(x) for x in mill.scenery)
    assert "2.7–3\"" in texts  # the balcony floats: base and top
    discs = [p for p in s["models"] if isinstance(p, Disc)]
    colors = P.side_colors(mill.sides)
    assert {(d.x, d.y, d.r, d.color) for d in discs} == {(m.x, m.y, m.radius, colors[m.side]) for m in mill.models}
    badges = [p.text for p in s["models"] if isinstance(p, Text) and p.text.startswith("↑")]
    assert sorted(badges) == sorted(f"↑{scene.inches(m.z)}" for m in mill.models if m.z > 0)


def test_scenery_fill_follows_height_and_sight(mill):
    assert scene.scenery_fill(mill.scenery_piece("hedge")) == P.SEE_THROUGH
    s = scene.table_scene(mill)  # the table and scenery layers are opaque: drawn without blending
    assert all(p.color[3] == 255 for k in ("table", "scenery") for p in s[k] if not isinstance(p, Text))
    assert scene.scenery_fill(mill.scenery_piece("mill")) == P.scenery_shade(3.0)


def test_height_labels_avoid_higher_pieces(mill):
    s = scene.table_scene(mill)
    mill_label = next(p for p in s["scenery"] if isinstance(p, Text) and p.text == '3"')
    loft = mill.scenery_piece("mill-loft").solid.footprint
    assert not loft.buffer(0.3).contains(shapely.Point(mill_label.x, mill_label.y))


# -- selection overlays: the map's verdicts drawn -----------------------------------------------------

def _lines(prims, color):
    return [p for p in prims if isinstance(p, Line) and p.color == color]


def test_selection_draws_each_verdict_in_its_colour(mill):
    rs = mill.line_of_sight_pairs([("akane", o) for o in mill.model_ids if o != "akane"])
    s = scene.selection_scene(mill, "akane", rs)
    over = s["overlays"]
    green, red = _lines(over, P.LOS_VISIBLE), _lines(over, P.LOS_BLOCKED)
    grey = _lines(over, P.LOS_OUT_OF_ARC)
    assert len(green) == sum(r.visible for r in rs)
    assert len(red) == sum(r.reason == "blocked" for r in rs)
    assert len(grey) == sum(r.reason == "out_of_arc" for r in rs) and all(g.dash for g in grey)
    witnesses = {(tuple(np.round(l.points[0], 9)), tuple(np.round(l.points[1], 9))) for l in green}
    for r in rs:
        if r.visible:
            assert (tuple(np.round(r.witness[0][:2], 9)), tuple(np.round(r.witness[1][:2], 9))) in witnesses
    # blockers highlighted, under the models
    named = {b for r in rs if r.reason == "blocked" for b in r.blockers}
    outlines = [p for p in s["underlay"] if isinstance(p, Line) and p.color == P.LOS_BLOCKED]
    assert len(outlines) >= len(named) > 0
    # Awareness ring at AGI from the base edge, reach rings per band
    m = mill.model("akane")
    rings = [p for p in over if isinstance(p, Line) and p.closed]
    radii = {round(float(np.hypot(*(p.points[0] - (m.x, m.y)))), 6) for p in rings}
    assert round(m.radius + m.awareness, 6) in radii
    for w in m.weapons:
        for b in w.bands:
            assert round(m.radius + b.max_range, 6) in radii


def test_blocked_line_joins_the_bases(first):
    (r,) = first.line_of_sight_pairs([("akane", "brute")])
    assert not r.visible and r.blockers == ("wall",)
    (line,) = scene.los_line(first, r)
    a, b = first.model("akane"), first.model("brute")
    assert line.color == P.LOS_BLOCKED
    assert math.hypot(*(line.points[0] - (a.x, a.y))) == pytest.approx(a.radius)
    assert math.hypot(*(line.points[1] - (b.x, b.y))) == pytest.approx(b.radius)


def test_all_sight_draws_every_visible_pair(mill):
    rs = mill.line_of_sight_all()
    s = scene.all_sight_scene(mill, rs)
    assert len(s["overlays"]) == sum(r.visible for r in rs) == 28


# -- measuring under the mode ------------------------------------------------------------------------

def test_measure_between_models_is_the_maps_answer(first):
    ans = scene.measure(first, "akane", "brute")
    m = first.measure("akane", "brute")
    assert ans.distance == m.distance and ans.start == m.nearest[0][:2] and ans.end == m.nearest[1][:2]
    assert ans.label.startswith('5"')


def test_measure_to_a_point_from_the_base_edge(first):
    a = first.model("akane")
    ans = scene.measure(first, "akane", (a.x + 3, a.y + 4))
    assert ans.distance == pytest.approx(5 - a.radius) and ans.refused is None
    assert math.hypot(ans.start[0] - a.x, ans.start[1] - a.y) == pytest.approx(a.radius)


def test_measure_standard_mode_is_clipped_at_the_limit(first):
    t = dataclasses.replace(first, mode=Mode.STANDARD)
    a = t.model("akane")  # AGI 7, SPD 4: may pre-measure 7"
    ans = scene.measure(t, "akane", (a.x + 11, a.y))
    assert ans.distance is None and ans.beyond == 7
    assert ans.end[0] - ans.start[0] == pytest.approx(7) and "beyond 7\"" in ans.label
    near = scene.measure(t, "akane", (a.x + 3, a.y))
    assert near.distance == pytest.approx(3 - a.radius)
    prims = scene.measure_prims(ans)
    assert any(isinstance(p, Line) and p.color == P.MEASURE_CLIPPED for p in prims)


def test_measure_realism_mode_is_refused_with_the_maps_reason(first):
    t = dataclasses.replace(first, mode=Mode.REALISM)
    with pytest.raises(MeasurementRefused) as exc:
        t.measure("akane", "brute")
    ans = scene.measure(t, "akane", "brute")
    assert ans.distance is None and ans.refused == str(exc.value)
    assert scene.measure(t, "akane", (9, 9)).refused.startswith("realism mode")
    assert any(isinstance(p, Text) and p.text == "refused" for p in scene.measure_prims(ans))


# -- the profile slice ------------------------------------------------------------------------------

def test_profile_of_a_blocked_pair_cuts_the_wall_between_them(first):
    (r,) = first.line_of_sight_pairs([("akane", "brute")])
    prof = scene.profile_slice(first, r)
    assert prof.along == "centres" and prof.witness is None
    wall, a, b = prof.box("wall"), prof.box("akane"), prof.box("brute")
    assert wall.role == "blocker" and a.role == "viewer" and b.role == "target"
    assert a.s1 < wall.s0 < wall.s1 < b.s0
    assert wall.s1 - wall.s0 == pytest.approx(0.5) and (wall.z0, wall.z1) == (0, 3)
    assert a.z1 == pytest.approx(first.model("akane").hitbox.top)
    assert wall.z1 > max(a.z1, b.z1)  # the picture: the wall is taller than both
    title, sub = scene.profile_caption(prof)
    assert "blocked by wall" in title and "0.1 mm" in sub


def test_profile_of_a_visible_pair_follows_the_witness_and_it_clears_every_cut(mill):
    r = mill.line_of_sight("yumi", "brute")
    prof = scene.profile_slice(mill, r, aspect=6.0)
    assert prof.along == "witness"
    (s0, z0), (s1, z1) = prof.witness
    (w0, w1) = r.witness
    assert s0 == pytest.approx(0) and s1 == pytest.approx(math.hypot(w1[0] - w0[0], w1[1] - w0[1]))
    assert (z0, z1) == (w0[2], w1[2])
    cut = [b for b in prof.boxes if b.role not in ("viewer", "target") and b.blocks_los]
    assert {"mill", "mill-loft"} <= {b.id for b in cut}
    for b in cut:  # the witness passes over (or under) every other solid it crosses
        lo, hi = max(b.s0, min(s0, s1)), min(b.s1, max(s0, s1))
        if hi <= lo:
            continue
        zs = [z0 + (z1 - z0) * (s - s0) / (s1 - s0) for s in (lo, hi)]
        assert min(zs) >= b.z1 - 1e-6 or max(zs) <= b.z0 + 1e-6, b
    lo, hi = prof.s_range
    plain = scene.profile_slice(mill, r).s_range  # without an aspect: just both models and 1" more
    assert lo <= plain[0] and hi >= plain[1] and hi - lo > plain[1] - plain[0] + 1
    x0, y0 = prof.origin[0] + lo * prof.direction[0], prof.origin[1] + lo * prof.direction[1]
    x1, y1 = prof.origin[0] + hi * prof.direction[0], prof.origin[1] + hi * prof.direction[1]
    assert all(-1e-6 <= v <= 30 + 1e-6 for v in (x0, y0, x1, y1))  # widened within the table


def test_profile_marks_the_viewers_front_half(first):
    (r,) = first.line_of_sight_pairs([("akane", "brute")])
    prof = scene.profile_slice(first, r)
    a = prof.box("akane")
    f0, f1 = prof.front
    assert f0 == pytest.approx((a.s0 + a.s1) / 2) and f1 == pytest.approx(a.s1)  # she faces brute


# -- legend, overlays of movement --------------------------------------------------------------------

def test_legend_lists_sides_scenery_and_overlays(mill):
    items = scene.legend_items(mill, sight=True, selection=mill.model("yumi"))
    labels = [i.label for i in items]
    assert labels[0] == "Mill ambush"
    assert "red (3 models)" in labels and "blue (4 models)" in labels
    assert "walkable top" in labels and "does not block sight" in labels
    assert any("visible" in l for l in labels) and "Longbow reach bands" in labels
    prims = scene.legend_prims(items, 10, 800, 300)
    assert scene.legend_height(items) > 200 and len([p for p in prims if isinstance(p, Text)]) >= len(items)


def test_range_and_path_layers_draw_the_maps_answers():
    rng = MoveRange("akane", 4.0, ((((0, 0), (4, 0), (4, 4), (0, 4)), ((1, 1), (2, 1), (2, 2), (1, 2))),), 15.0)
    fill = [p for p in range_prims(rng) if isinstance(p, Fill)]
    assert sum(shapely.Polygon(t).area for t in fill[0].triangles) == pytest.approx(15)
    ok = MovePlan("akane", ((0, 0, 0), (2, 0, 0), (2, 2, 0)), 4.0, 4.0, True, budget=5.0)
    assert any(isinstance(p, Line) and p.color == P.PATH_OK for p in path_prims(ok))
    bad = MovePlan("akane", ((0, 0, 0), (9, 0, 0)), 9.0, 9.0, False, (Violation(0, "enters an enemy", "brute"),))
    texts = [p.text for p in path_prims(bad) if isinstance(p, Text)]
    assert texts == ["refused: enters an enemy (brute)"] == [f"refused: {describe_violation(bad)}"]


# -- PNG -----------------------------------------------------------------------------------------------

@settings(max_examples=25)
@given(st.integers(1, 9), st.integers(1, 9), st.sampled_from([3, 4]), st.integers(0, 2**31 - 1))
def test_png_round_trip(h, w, c, seed):
    a = np.random.default_rng(seed).integers(0, 256, (h, w, c), dtype=np.uint8)
    assert np.array_equal(png.decode_png(png.encode_png(a)), a)


def test_downsample_averages_blocks():
    a = np.arange(4 * 6 * 3, dtype=np.uint8).reshape(4, 6, 3)
    expected = np.floor(a.reshape(2, 2, 3, 2, 3).mean((1, 3)) + 0.5).astype(np.uint8)  # halves round up
    assert np.array_equal(render.downsample(a, 2), expected)


# -- the session: events in table inches ---------------------------------------------------------------

def test_click_selects_shift_click_picks_the_pair(mill):
    s = Session(mill)
    a = mill.model("akane")
    s.press(a.x + 0.1, a.y)
    s.release(a.x + 0.1, a.y)
    assert s.selected == "akane" and s.target is None
    b = mill.model("brute")
    s.press(b.x, b.y, shift=True)
    s.release(b.x, b.y)
    assert s.target == "brute" and s.verdict() == mill.line_of_sight("akane", "brute")
    assert s.profile() is not None
    s.press(1, 1)
    s.release(1, 1)
    assert s.selected is None and s.profile() is None


def test_drag_measures_and_keeps_the_answer(first):
    s = Session(first)
    s.key("m")
    a = first.model("akane")
    s.press(a.x, a.y)
    s.drag(a.x + 2, a.y + 2)
    s.release(a.x + 2, a.y + 2)
    assert s.measured.distance == pytest.approx(math.hypot(2, 2) - a.radius)
    assert s.selected is None  # measuring does not select


def test_session_refuses_a_measure_not_started_on_a_model(first):
    s = Session(first)
    s.key("m")
    s.press(0.5, 11.5)
    s.drag(3, 3)
    s.release(3, 3)
    assert s.measured is None and s.error and "start a measurement on a model" in s.message


def test_turn_and_save_round_trip(mill, tmp_path):
    s = Session(mill, save_path=tmp_path / "out.toml")
    s.select("akane")
    s.key("q")
    assert s.table.model("akane").facing == pytest.approx((mill.model("akane").facing + 15) % 360)
    assert s.table_version == 1
    s.key("s")
    back = load(tmp_path / "out.toml")
    assert back == s.table != mill and not s.error and "saved to" in s.message


def test_drag_a_model_previews_the_maps_path_and_moves_it_when_legal(mill):
    s = Session(mill)
    a = mill.model("akane")  # SPD 5
    s.press(a.x, a.y)
    s.drag(10.0, 20.0)  # round the yard wall's end
    assert s.move_plan == mill.plan_move("akane", (10.0, 20.0)) and s.move_plan.legal
    assert len(s.move_plan.points) > 2 and s.move_plan.length > math.dist((a.x, a.y), (10, 20))
    over = s.overlay_scene()["overlays"]
    path = [p for p in over if isinstance(p, Line) and p.color == P.PATH_OK and not p.closed]
    assert path and np.allclose(path[0].points, [q[:2] for q in s.move_plan.points])
    assert any(isinstance(p, Disc) and (p.x, p.y) == s.move_plan.points[-1][:2] for p in over)  # the ghost base
    s.drag(9.5, 20.5)
    s.release(9.5, 20.5)
    plan = mill.plan_move("akane", (9.5, 20.5))
    moved = s.table.model("akane")
    assert plan.legal and (moved.x, moved.y, moved.z) == plan.points[-1]
    assert s.table.with_model(a) == mill and s.table_version == 1
    assert s.move_plan is None and f"{plan.length:.2f} in" in s.message


def test_an_illegal_move_is_refused_with_the_maps_reason(mill):
    s = Session(mill)
    a = mill.model("akane")
    s.press(a.x, a.y)
    s.drag(20.0, 25.0)  # far beyond its 5" of Movement
    plan = mill.plan_move("akane", (20.0, 25.0))
    assert not plan.legal and s.move_plan == plan
    assert any(isinstance(p, Line) and p.color == P.PATH_BAD for p in s.overlay_scene()["overlays"])
    s.release(20.0, 25.0)
    assert s.table is mill and s.error and plan.violations[0].what in s.message and "over budget" in s.message


def test_movement_range_overlay_is_the_maps_range(mill):
    s = Session(mill)
    s.select("akane")
    s.key("r")
    rng = mill.movement_range("akane")
    fills = [p for p in s.overlay_scene()["underlay"] if isinstance(p, Fill) and p.color == P.RANGE_FILL]
    assert sum(shapely.Polygon(t).area for f in fills for t in f.triangles) == pytest.approx(rng.area, rel=1e-6)
    assert any(line[0] == "left drag a model" for line in s.help_lines())


def test_movement_in_realism_mode_is_refused(mill):
    s = Session(dataclasses.replace(mill, mode=Mode.REALISM))
    a = mill.model("akane")
    s.press(a.x, a.y)
    s.drag(9.0, 19.0)
    assert s.move_plan is None and s.error and "realism mode" in s.message
    s.release(9.0, 19.0)
    assert s.table.model("akane") == a


def test_default_save_path_is_beside_the_scenario(mill):
    assert Session(mill).save_path.name == "mill-ambush.edited.toml"
    assert Session(loads(table_text())).save_path.name == "table.edited.toml"


def test_hover_names_what_is_under_the_pointer(mill):
    s = Session(mill)
    s.hover(13.5, 9.5)
    assert s.hover_text.startswith('mill: 3" high, walkable top') and s.hover_text in s.status()
    s.hover(14.5, 11.0)  # the loft stands on the mill: the topmost piece is named
    assert s.hover_text.startswith('mill-loft: 3–6" high')
    s.hover(26, 5.5)
    assert "hedge" in s.hover_text and "does not block sight" in s.hover_text
    s.hover(25.1, 14)
    assert s.hover_text.startswith("raider-1: blue, M (32mm base, 45mm tall), z 0\"")
    s.hover(1, 1)
    assert s.hover_text == "table at (1.00, 1.00)"


# -- templates (E-TMPL): the map resolves them, the viewer draws the answer ---------------------------

def test_template_layers_show_the_area_hits_and_spared(mill):
    from skirmish.viewer.overlays import template_prims, template_summary

    res = mill.template("spray-large", by="akane", toward="raider-2")
    under, over = template_prims(res, mill)
    (area,) = under
    assert sum(shapely.Polygon(t).area for t in area.triangles) == pytest.approx(shapely.Polygon(res.outline).area)
    hit_rings = [p for p in over if isinstance(p, Line) and p.closed and p.color == P.HIT]
    spared_rings = [p for p in over if isinstance(p, Line) and p.closed and p.color == P.LOS_OUT_OF_ARC]
    assert len(hit_rings) == len(res.affected) and len(spared_rings) == len(res.spared) >= 2
    words = {p.text for p in over if isinstance(p, Text)}
    assert {"user", "out of band"} <= words  # akane is the user, yumi is 6" up
    lines = template_summary(res)
    assert lines[0].startswith("spray-large from akane toward raider-2")
    assert all(f"{sp.id}: {sp.why}" in lines for sp in res.spared)


def test_template_tool_follows_the_pointer_and_a_click_keeps_it(mill):
    s = Session(mill)
    s.key("t")
    b = mill.model("brute")
    s.hover(b.x, b.y)
    assert s.template == mill.template("circle-small", on="brute") and s.template.hits("brute")
    s.hover(20.0, 20.0)
    assert s.template == mill.template("circle-small", at=(20.0, 20.0))
    s.press(20.0, 20.0)
    s.release(20.0, 20.0)
    assert s.template_pinned
    s.hover(5.0, 5.0)  # kept: it no longer follows
    assert s.template.center == (20.0, 20.0)
    s.key("c")
    assert s.template_name == "circle-large" and s.template == mill.template("circle-large", at=(5.0, 5.0))
    sc = s.overlay_scene()
    assert any(isinstance(p, Fill) and p.color == P.TEMPLATE for p in sc["underlay"])


def test_spray_needs_its_attacker_and_points_at_the_pointer(mill):
    s = Session(mill)
    s.key("t")
    s.key("c")
    s.key("c")
    assert s.template_name == "spray-small"
    s.hover(20, 20)
    assert s.template is None and s.error and "select the attacker" in s.message
    a = mill.model("akane")
    s.press(a.x, a.y, shift=True)  # shift+click: the user
    s.release(a.x, a.y)
    assert s.selected == "akane" and s.tool == "template"
    s.hover(20, 20)
    assert s.template == mill.template("spray-small", by="akane", toward=(20, 20))


def test_template_pre_placement_is_refused_in_standard_mode(mill):
    t = dataclasses.replace(mill, mode=Mode.STANDARD)
    s = Session(t)
    s.key("t")
    s.hover(20, 20)
    with pytest.raises(MeasurementRefused) as exc:
        t.template("circle-small", at=(20, 20))
    assert s.template is None and s.error and str(exc.value) in s.message


# -- the Party Hard grid of rooms --------------------------------------------------------------------

@pytest.fixture(scope="module")
def maze():
    return load(SCENARIOS / "party-hard-maze.toml")


def test_grid_layout_puts_every_piece_in_its_room_in_row_order(maze):
    from skirmish.viewer.grid_view import Layout

    lay = Layout(maze)
    for p in maze.pieces:
        x, y = lay.pieces[p.id]
        assert lay.room_at(x, y) == p.room and lay.piece_at(x, y) == p.id
    for room in maze.rooms:
        for side, ids in maze.rows(room.at).items():
            xs = [lay.pieces[i][0] for i in ids]
            assert xs == sorted(xs) and len({lay.pieces[i][1] for i in ids}) == 1  # a row, place 1 on the left
    (fight,) = maze.fights()
    rows = maze.rows(fight)
    assert all(lay.pieces[rows["creatures"][0]][1] > lay.pieces[i][1] for s, ids in rows.items()
               if s != "creatures" for i in ids)  # the creatures face the players
    assert lay.room_at(*lay.centre((3, 0))) is None  # '#': no room


def test_grid_scene_draws_rooms_walls_fights_and_pieces(maze):
    from skirmish.viewer.grid_view import FIGHT, WALL, grid_colors, grid_scene

    s = grid_scene(maze)
    walls = [p for p in s["scenery"] if isinstance(p, Line) and p.color == WALL]
    assert len(walls) == sum(len(maze.walls(r.at)) for r in maze.rooms)
    colors = grid_colors(maze)
    discs = [p for p in s["models"] if isinstance(p, Disc)]
    assert sorted(d.color for d in discs) == sorted(colors[p.side] for p in maze.pieces)
    texts = [p.text for p in s["scenery"] if isinstance(p, Text)]
    assert "Vault of Echoes" in texts and "vault: 3 Anima" in texts and texts.count("FIGHT") == len(maze.fights())
    assert any(isinstance(p, Line) and p.color == FIGHT for p in s["scenery"])


def test_grid_session_click_selects_and_drag_takes_the_maps_step(maze, tmp_path):
    from skirmish.viewer.session import make_session

    s = make_session(maze, save_path=tmp_path / "maze.toml")
    x, y = s.layout.pieces["rogue"]
    s.press(x, y)
    s.release(x, y)
    assert s.selected == "rogue" and "shares the room with ranger" in s.message
    rng = maze.movement_range("rogue")
    fills = [p for p in s.overlay_scene()["underlay"] if isinstance(p, Fill)]
    assert len(fills) == len(rng.regions)
    far = s.layout.centre((3, 3))  # two rooms away: the map plans one step toward it
    s.press(x, y)
    s.drag(*far)
    assert s.move_plan == maze.plan_move("rogue", (3, 3))
    s.release(*far)
    step = maze.plan_move("rogue", (3, 3)).points[-1]
    assert s.table == maze.moved("rogue", step) and s.table.room_of("rogue") == step
    s.key("s")
    assert load(tmp_path / "maze.toml") == s.table


def test_grid_session_refuses_what_the_map_refuses(maze):
    from skirmish.viewer.session import make_session

    s = make_session(maze)
    x, y = s.layout.pieces["ooze"]  # a creature: creatures do not move
    s.press(x, y)
    s.drag(*s.layout.centre((0, 2)))
    s.release(*s.layout.centre((0, 2)))
    assert s.table is maze and s.error and "creatures do not move" in s.message


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the DISPLAY check is for Linux (X11/Wayland)")
def test_view_without_a_display_is_a_clear_error(mill, monkeypatch):
    from skirmish.errors import SkirmishError
    from skirmish.viewer.launch import view

    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    with pytest.raises(SkirmishError, match=r"no display .* `skirmish render"):
        view(mill)


def test_e_move_ladder_a_ladder_is_drawn_against_its_piece_and_named_in_the_legend(mill):
    # (the mill's ladder at (9, 12) was not drawn at all: a player could not see where to climb)
    ladders = [p for p in scene.scenery_prims(mill) if isinstance(p, Line) and p.color == P.LADDER]
    assert len(ladders) == 5  # two rails and three rungs
    rails = [p.points for p in ladders[:2]]
    mill_piece = next(s for s in mill.scenery if s.ladders)
    for pts in rails:  # standing out from the edge at the ladder point, outside the piece
        assert np.hypot(*(pts[0] - (9.0, 12.0))) < 0.3
        assert not mill_piece.solid.footprint.contains(shapely.Point(*pts[1]))
    assert "ladder (up onto the top)" in [i.label for i in scene.legend_items(mill)]
    no_ladders = loads("format = 1\n[table]\nsize = [6, 6]\n[[scenery]]\nid = \"w\"\nrect = [1, 1, 2, 2]\nheight = 1\n")
    assert not any(isinstance(p, Line) and p.color == P.LADDER for p in scene.scenery_prims(no_ladders))


def test_e_deploy_the_legend_names_a_side_waiting_in_the_reserve():
    # (tower-deploy's picture listed red alone: blue's three models wait in the reserve)
    labels = [i.label for i in scene.legend_items(load(SCENARIOS / "eldfall" / "tower-deploy.toml"))]
    assert "red (3 models)" in labels and "blue (0 models, 3 in reserve)" in labels
    assert "blue's deployment zone (E-DEPLOY)" in labels


def test_e_deploy_the_zone_of_a_side_in_the_reserve_is_drawn_where_the_file_puts_it():
    # (a player could not see where tower-deploy's blue models would come in)
    tower = load(SCENARIOS / "eldfall" / "tower-deploy.toml")  # zones = { red = "south", blue = "north" }
    assert scene.deployment_zones(tower) == {"blue": (0.0, 12.0, 20.0, 20.0)}  # red stands: its zone is not drawn
    board = scene.table_scene(tower)["table"]
    blue = P.side_colors(tower.all_sides())["blue"]
    tints = [p for p in board if isinstance(p, Fill) and p.color == P.with_alpha(blue, 40)]
    assert len(tints) == 1
    assert shapely.MultiPoint(tints[0].triangles.reshape(-1, 2)).envelope.equals(shapely.box(0, 12, 20, 20))
    assert any(isinstance(p, Text) and p.text == "blue deploys here" for p in board)


def test_e_deploy_zones_follow_the_file_and_vanish_once_deployed():
    text = table_text(models='[[models]]\nid = "r"\nside = "red"\nsize = "M"\nat = [3, 3]\n'
                           '[[models]]\nid = "b"\nside = "blue"\nsize = "M"\n')
    rect = loads(text + '[game]\nzones = { red = [0, 0, 24, 6], blue = [0, 18, 24, 24] }\n')
    assert scene.deployment_zones(rect) == {"blue": (0.0, 18.0, 24.0, 24.0)}
    chosen = loads(text)  # no [game] zones: the second side chooses its edge in play
    assert scene.deployment_zones(chosen) == {}
    labels = [i.label for i in scene.legend_items(chosen)]  # (one line ran off the picture: two now)
    k = labels.index('the reserve deploys in a strip 8" deep')
    assert labels[k + 1] == "along an edge chosen in play"
    deployed = dataclasses.replace(rect, models=(*rect.models, dataclasses.replace(rect.catalogue.reserve[0], x=3, y=20)))
    assert scene.deployment_zones(deployed) == {}
    assert not any(isinstance(p, Text) and p.text.endswith("deploys here") for p in scene.table_scene(deployed)["table"])


def test_e_reach_rings_and_their_labels_stay_on_the_table(mill):
    # (raider-1's 20" Short Bow ring ran off the picture, its label with it)
    m = mill.model("raider-1")
    prims = scene.reach_prims(mill, m) + scene.awareness_prims(mill, m)
    pts = np.vstack([p.points for p in prims if isinstance(p, Line)])
    assert pts[:, 0].min() >= -1e-9 and pts[:, 1].min() >= -1e-9
    assert pts[:, 0].max() <= mill.width + 1e-9 and pts[:, 1].max() <= mill.depth + 1e-9
    labels = {p.text: p for p in prims if isinstance(p, Text)}
    assert set(labels) == {"Sword 1\"", "Short Bow ≤20\" +0", "Awareness 6\""}
    for t in labels.values():  # each on its own ring, on the table
        assert 0 < t.x < mill.width and 0 < t.y < mill.depth
    bow = labels["Short Bow ≤20\" +0"]
    assert math.hypot(bow.x - m.x, bow.y - m.y) == pytest.approx(m.radius + 20)
    # a ring wholly on the table stays one closed ring
    inner = scene.ring_on_table(mill, 15, 15, 2, P.AWARENESS)
    assert len(inner) == 1 and inner[0].closed


def test_a_small_picture_shrinks_the_tables_labels_in_proportion(mill):
    # (at --size 300 the labels kept their 1200 px size and piled onto each other)
    def sizes(size):
        comp = render.compose(mill, render.RenderRequest(frm="yumi", size=size))
        return {(p.text, name): p.size for name, prims in comp.scene.items() for p in prims if isinstance(p, Text)}

    big, small, mid = sizes(1200), sizes(300), sizes(800)
    assert big.keys() == small.keys() == mid.keys() and big
    for key, s in big.items():
        assert small[key] == pytest.approx(0.6 * s) and mid[key] == pytest.approx(0.8 * s)
    assert render.text_scale(1000) == render.text_scale(4000) == 1.0 and render.text_scale(200) == 0.6


def test_a_translucent_swatch_is_shown_over_the_table_colour_as_on_the_table():
    # (the heatmap's legend showed its translucent cell colours over the dark panel: darker than the cells)
    see = P.with_alpha((200, 40, 60, 255), 120)
    fills = [p for p in scene.legend_prims([scene.LegendItem("fill", "3 of 3", see)], 0, 100, 200)
             if isinstance(p, Fill)][1:]  # (after the panel)
    assert [f.color for f in fills] == [P.TABLE, see]
    solid = [p for p in scene.legend_prims([scene.LegendItem("fill", "wall", P.SEE_THROUGH)], 0, 100, 200)
             if isinstance(p, Fill)][1:]
    assert [f.color for f in solid] == [P.SEE_THROUGH]


def test_e_deploy_a_picture_of_an_edited_table_whose_game_no_longer_fits_draws_no_zone():
    text = table_text(models='[[models]]\nid = "r"\nside = "red"\nsize = "M"\nat = [3, 3]\n'
                           '[[models]]\nid = "r2"\nside = "red"\nsize = "M"\nat = [9, 3]\n'
                           '[[models]]\nid = "b"\nside = "blue"\nsize = "M"\n')
    t = loads(text + '[game]\nleaders = { red = "r" }\nzones = { red = "south", blue = "north" }\n')
    assert scene.deployment_zones(t) == {"blue": (0.0, 16.0, 24.0, 24.0)}
    edited = dataclasses.replace(t, models=tuple(m for m in t.models if m.id != "r"))  # (its leader is gone)
    assert scene.deployment_zones(edited) == {}
    assert scene.legend_items(edited) and scene.table_scene(edited)["table"]
