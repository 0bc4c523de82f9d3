"""Real frames, drawn headless (pyglet over EGL), checked pixel by pixel; the interactive
window driven with synthetic events; the ``render`` and ``view`` commands."""

from __future__ import annotations

import dataclasses
import math
import os
import subprocess
import sys

import numpy as np
import pytest

import pyglet

pyglet.options["headless"] = True  # before any window exists

from skirmish.cli import main  # noqa: E402
from skirmish.errors import SkirmishError  # noqa: E402
from skirmish.rules.eldfall.modes import Mode  # noqa: E402
from skirmish.scenario.load import load  # noqa: E402
from skirmish.viewer import palette as P  # noqa: E402
from skirmish.viewer.png import decode_png  # noqa: E402
from skirmish.viewer.render import RenderRequest, compose, open_window, render_composition  # noqa: E402
from skirmish.viewer.scene import scenery_fill  # noqa: E402
from skirmish.viewer.session import make_session  # noqa: E402

from conftest import ROOT, SCENARIOS  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def egl():
    """Skip the module, with the reason, only if no headless OpenGL context can be made."""
    try:
        w = open_window(32, 32)
    except SkirmishError as exc:
        pytest.skip(f"headless OpenGL (EGL) is not available here: {exc}")
    w.close()


@pytest.fixture(scope="module")
def mill():
    return load(SCENARIOS / "mill-ambush.toml")


@pytest.fixture(scope="module")
def first():
    return load(SCENARIOS / "first-steps.toml")


def pixel(img: np.ndarray, comp, x: float, y: float, camera=None) -> tuple[int, int, int]:
    """The picture's colour at the table point (x, y)."""
    sx, sy = (camera or comp.camera).to_screen(x, y)
    return tuple(int(v) for v in img[comp.height - 1 - int(math.floor(sy)), int(math.floor(sx)), :3])


def near(c, expected, tol: int = 3) -> bool:
    return all(abs(int(a) - int(b)) <= tol for a, b in zip(c, expected[:3]))


# -- headless render: pixels -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def mill_frame(mill):
    comp = compose(mill, RenderRequest(los=(("yumi", "brute"),), size=600))
    return comp, render_composition(comp)


@pytest.fixture(scope="module")
def first_frame(first):
    comp = compose(first, RenderRequest(los=(("akane", "brute"),), size=600))
    return comp, render_composition(comp)


def test_each_models_disc_has_its_sides_colour_at_its_centre(mill, mill_frame):
    comp, img = mill_frame
    colors = P.side_colors(mill.sides)
    ends = {"yumi", "brute"}  # the drawn sight line ends on these two
    checked = [m for m in mill.models if m.id not in ends]
    for m in checked:
        assert near(pixel(img, comp, m.x, m.y), colors[m.side], 0), m.id
    assert colors["red"] != colors["blue"] and {m.side for m in checked} == {"red", "blue"}


def test_a_walls_pixels_have_the_walls_shade(first, first_frame):
    comp, img = first_frame
    wall = first.scenery_piece("low-wall")  # rect [3, 9, 9, 9.4], 20 mm: untouched by the sight line
    assert near(pixel(img, comp, 3.6, 9.2), scenery_fill(wall), 0)
    assert near(pixel(img, comp, 8.4, 9.2), P.scenery_shade(wall.top), 0)
    assert not near(pixel(img, comp, 6.0, 10.5), scenery_fill(wall), 10)  # the table beside it


def test_blocked_sight_line_is_red_and_the_blocker_is_highlighted(first, first_frame):
    comp, img = first_frame
    assert near(pixel(img, comp, 4.2, 6.0), P.LOS_BLOCKED, 2)
    # the wall (the blocker) is tinted red over its shade, and outlined in red
    tinted = pixel(img, comp, 5.75, 4.6)
    shade = scenery_fill(first.scenery_piece("wall"))
    assert tinted[0] > shade[0] and tinted[1] < shade[1]
    assert near(pixel(img, comp, 5.5, 4.6), P.LOS_BLOCKED, 40)


def test_visible_sight_line_is_green_along_the_witness(mill, mill_frame):
    comp, img = mill_frame
    (w0, w1) = mill.line_of_sight("yumi", "brute").witness
    for t in (0.35, 0.5, 0.65):
        x, y = w0[0] + t * (w1[0] - w0[0]), w0[1] + t * (w1[1] - w0[1])
        assert near(pixel(img, comp, x, y), P.LOS_VISIBLE, 2), t


def test_profile_panel_shows_the_witness_and_the_hitboxes(mill, mill_frame):
    comp, img = mill_frame
    (prof,) = comp.profiles
    _, _, cam = comp.panels[0]
    (s0, z0), (s1, z1) = prof.witness
    mid = ((s0 + s1) / 2, (z0 + z1) / 2)
    assert near(pixel(img, comp, *mid, camera=cam), P.LOS_VISIBLE, 2)
    brute = prof.box("brute")
    seen = P.mix(P.PROFILE_SKY, brute.color, 235 / 255)  # hitboxes are drawn slightly translucent
    assert near(pixel(img, comp, (brute.s0 + brute.s1) / 2, brute.z0 + 0.3, camera=cam), seen, 2)
    mill_box = prof.box("mill")
    assert near(pixel(img, comp, mill_box.s0 + 0.3, 1.0, camera=cam), mill_box.color, 0)


def test_render_from_a_model_draws_its_sight_to_everyone(mill):
    comp = compose(mill, RenderRequest(frm="akane", size=500))
    img = render_composition(comp, supersample=1)
    rs = [r for r in comp.sight if r.frm == "akane"]
    assert len(rs) == len(mill.models) - 1
    grey = [r for r in rs if r.reason == "out_of_arc"]
    assert grey
    r = grey[0]
    a, b = mill.model(r.frm), mill.model(r.to)
    samples = [pixel(img, comp, a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)) for t in np.linspace(0.3, 0.7, 25)]
    assert any(near(c, P.LOS_OUT_OF_ARC, 8) for c in samples)  # dashed: some samples fall on a dash


def test_render_a_template_on_a_model_rings_who_it_hits(mill):
    comp = compose(mill, RenderRequest(template="circle-small", template_on="brute", size=600))
    img = render_composition(comp)
    res = mill.template("circle-small", on="brute")
    assert res.affected_ids == ("brute",)
    b = mill.model("brute")
    d = 1.2 / math.sqrt(2)  # inside the template, beside brute's base, behind its front arc
    assert near(pixel(img, comp, b.x + d, b.y - d), P.mix(P.TABLE, P.TEMPLATE, P.TEMPLATE[3] / 255), 3)
    ring = b.radius + 0.1
    assert near(pixel(img, comp, b.x + ring * math.cos(0.8), b.y + ring * math.sin(0.8)), P.HIT, 12)
    far = mill.model("raider-1")
    fr = far.radius + 0.1  # no ring: it is not under the template
    assert not near(pixel(img, comp, far.x + fr * math.cos(0.8), far.y + fr * math.sin(0.8)), P.HIT, 60)


def test_e_deploy_render_tints_the_zone_of_a_side_in_the_reserve():
    tower = load(SCENARIOS / "eldfall" / "tower-deploy.toml")  # blue waits; its zone is the north 8" strip
    comp = compose(tower, RenderRequest(size=400))
    img = render_composition(comp, supersample=1)
    blue = P.side_colors(tower.all_sides())["blue"]
    assert near(pixel(img, comp, 2.5, 17.5), P.mix(P.TABLE, blue, 40 / 255), 3)  # inside the zone
    assert near(pixel(img, comp, 2.5, 10.5), P.TABLE, 3)  # outside it: the bare table


# -- the interactive window, driven by synthetic events -------------------------------------------------

@pytest.fixture
def window_on(tmp_path):
    from skirmish.viewer.window import ViewerWindow

    made = []

    def make(table, **kw):
        w = ViewerWindow(make_session(table, save_path=tmp_path / "saved.toml"), 900, 700, visible=False, **kw)
        made.append(w)
        return w

    yield make
    for w in made:
        w.close()


def send(w, *event) -> None:
    w.dispatch_event(*event)
    w.dispatch_events()


def frame(w) -> np.ndarray:
    from skirmish.viewer.draw import read_pixels

    w.switch_to()
    w.dispatch_event("on_draw")
    w.dispatch_events()
    return read_pixels()


def screen_pixel(w, img, x: float, y: float) -> tuple[int, int, int]:
    sx, sy = w.screen_of(x, y)
    return tuple(int(v) for v in img[w.height - 1 - int(sy), int(sx), :3])


def click(w, x: float, y: float, modifiers: int = 0) -> None:
    from pyglet.window import mouse

    sx, sy = w.screen_of(x, y)
    send(w, "on_mouse_press", sx, sy, mouse.LEFT, modifiers)
    send(w, "on_mouse_release", sx, sy, mouse.LEFT, modifiers)


def drag(w, a: tuple[float, float], b: tuple[float, float], button: int | None = None) -> None:
    from pyglet.window import mouse

    button = mouse.LEFT if button is None else button
    (x0, y0), (x1, y1) = w.screen_of(*a), w.screen_of(*b)
    send(w, "on_mouse_press", x0, y0, button, 0)
    for t in (0.3, 0.7, 1.0):
        x, y = x0 + t * (x1 - x0), y0 + t * (y1 - y0)
        send(w, "on_mouse_drag", x, y, (x1 - x0) / 3, (y1 - y0) / 3, button, 0)
    send(w, "on_mouse_release", x1, y1, button, 0)


def test_click_selects_and_the_frame_shows_the_selection(mill, window_on):
    w = window_on(mill)
    img = frame(w)
    m = mill.model("raider-1")
    ring = (m.x, m.y + m.radius + 0.12)
    assert not near(screen_pixel(w, img, *ring), P.SELECTED, 30)
    click(w, m.x, m.y)
    assert w.session.selected == "raider-1"
    img = frame(w)
    assert near(screen_pixel(w, img, *ring), P.SELECTED, 30)
    assert near(screen_pixel(w, img, m.x, m.y), P.side_colors(mill.sides)["blue"], 0)
    assert w.canvas.stats()["overlays"][0] > 0
    click(w, 1.0, 28.0)  # empty table: clears
    assert w.session.selected is None


def test_shift_click_opens_the_profile_panel(mill, window_on):
    from pyglet.window import key

    w = window_on(mill)
    click(w, *(lambda m: (m.x, m.y))(mill.model("yumi")))
    click(w, *(lambda m: (m.x, m.y))(mill.model("brute")), key.MOD_SHIFT)
    assert w.session.target == "brute"
    frame(w)
    assert w.panel_rect is not None and w.canvas.stats()["panel_content"][0] > 0
    assert "VISIBLE" in w.session.message


def test_drag_measures_in_assisted_mode(first, window_on):
    from pyglet.window import key

    w = window_on(first)
    send(w, "on_key_press", key.M, 0)
    a = first.model("akane")
    drag(w, (a.x, a.y), (a.x + 3, a.y + 4))
    ans = w.session.measured
    assert ans is not None and ans.distance == pytest.approx(5 - a.radius, abs=0.03)  # pixel-rounded pointer
    img = frame(w)
    qx, qy = ans.start[0] + 0.25 * (ans.end[0] - ans.start[0]), ans.start[1] + 0.25 * (ans.end[1] - ans.start[1])
    assert near(screen_pixel(w, img, qx, qy), P.MEASURE, 30)


def test_drag_measure_is_clipped_in_standard_mode(first, window_on):
    from pyglet.window import key

    w = window_on(dataclasses.replace(first, mode=Mode.STANDARD))
    send(w, "on_key_press", key.M, 0)
    a = first.model("akane")
    drag(w, (a.x, a.y), (a.x, a.y + 9.5))  # AGI 7: the limit
    ans = w.session.measured
    assert ans.distance is None and ans.beyond == 7
    assert ans.end[1] - ans.start[1] == pytest.approx(7, abs=1e-6)
    assert "beyond 7" in w.session.message


def test_drag_measure_is_refused_in_realism_mode_with_a_message(first, window_on):
    from pyglet.window import key

    w = window_on(dataclasses.replace(first, mode=Mode.REALISM))
    send(w, "on_key_press", key.M, 0)
    a, b = first.model("akane"), first.model("brute")
    drag(w, (a.x, a.y), (b.x, b.y))
    assert w.session.measured.refused and w.session.error
    assert w.session.message.startswith("realism mode")
    img = frame(w)
    bar = img[w.height - 12, 12:400, :3].astype(int)  # the status bar prints the refusal in red
    assert any(near(c, P.LOS_BLOCKED, 60) for c in bar)


def test_s_writes_a_file_that_loads_back_equal(mill, window_on, tmp_path):
    from pyglet.window import key

    w = window_on(mill)
    click(w, *(lambda m: (m.x, m.y))(mill.model("brute")))
    send(w, "on_key_press", key.E, 0)  # turn brute: an edit
    send(w, "on_key_press", key.S, 0)
    saved = tmp_path / "saved.toml"
    assert saved.exists()
    back = load(saved)
    assert back == w.session.table and back != mill
    assert back.model("brute").facing == pytest.approx(mill.model("brute").facing - 15)


def test_wheel_zooms_about_the_pointer_and_right_drag_pans(mill, window_on):
    from pyglet.window import mouse

    w = window_on(mill)
    before = w.to_world(400, 300)
    scale = w.camera.scale
    send(w, "on_mouse_scroll", 400, 300, 0, 2)
    assert w.camera.scale == pytest.approx(scale * 1.15 ** 2)
    assert w.to_world(400, 300) == pytest.approx(before)
    ox, oy = w.camera.ox, w.camera.oy
    send(w, "on_mouse_press", 400, 300, mouse.RIGHT, 0)
    send(w, "on_mouse_drag", 440, 280, 40, -20, mouse.RIGHT, 0)
    assert w.canvas.world.offset == (40, -20)  # live: the layers move without a rebuild
    frame(w)
    send(w, "on_mouse_release", 440, 280, mouse.RIGHT, 0)
    assert (w.camera.ox, w.camera.oy) == pytest.approx((ox + 40, oy - 20)) and w.canvas.world.offset == (0, 0)
    from pyglet.window import key

    send(w, "on_key_press", key._0, 0)
    assert w.camera == w.fitted_camera()


def test_h_shows_the_help_overlay(mill, window_on):
    from pyglet.window import key

    w = window_on(mill)
    img0 = frame(w)
    send(w, "on_key_press", key.H, 0)
    img1 = frame(w)
    assert w.canvas.stats()["help"][1] > 8
    c = img1[w.height // 2, w.width // 2 - 300, :3]
    assert near(c, P.mix(P.BACKGROUND, P.PANEL, 0), 40) or near(c, P.PANEL, 40)
    assert not np.array_equal(img0, img1)
    send(w, "on_key_press", key.H, 0)
    frame(w)
    assert w.canvas.stats()["help"] == (0, 0)


def test_template_follows_the_mouse_and_highlights_hits(mill, window_on):
    from pyglet.window import key, mouse

    w = window_on(mill)
    send(w, "on_key_press", key.T, 0)
    b = mill.model("brute")
    sx, sy = w.screen_of(b.x, b.y)
    send(w, "on_mouse_motion", sx, sy, 1, 1)
    assert w.session.template is not None and w.session.template.affected_ids == ("brute",)
    img = frame(w)
    ring = b.radius + 0.1
    assert near(screen_pixel(w, img, b.x + ring * math.cos(0.8), b.y + ring * math.sin(0.8)), P.HIT, 40)
    send(w, "on_mouse_press", sx, sy, mouse.LEFT, 0)
    send(w, "on_mouse_release", sx, sy, mouse.LEFT, 0)
    send(w, "on_mouse_motion", 30, 400, 1, 1)
    assert w.session.template_pinned and w.session.template.main_target == "brute"


def test_all_sight_overlay(mill, window_on):
    from pyglet.window import key

    w = window_on(mill)
    send(w, "on_key_press", key.A, 0)
    frame(w)
    assert "28 of 42" in w.session.message


def test_render_movement_range(mill):
    comp = compose(mill, RenderRequest(range_of="akane", size=600))
    img = render_composition(comp)
    rng = mill.movement_range("akane")
    import shapely

    area = shapely.union_all([shapely.Polygon(r[0], r[1:]) for r in rng.regions])
    inside, outside = (6.4, 16.4), (8.3, 10.6)
    assert area.buffer(-0.3).contains(shapely.Point(inside)) and not area.buffer(0.3).contains(shapely.Point(outside))
    assert near(pixel(img, comp, *inside), P.mix(P.TABLE, P.RANGE_FILL, P.RANGE_FILL[3] / 255), 3)
    assert near(pixel(img, comp, *outside), P.TABLE, 0)


def test_window_drag_moves_a_model_along_the_maps_path(mill, window_on):
    w = window_on(mill)
    a = mill.model("akane")
    drag(w, (a.x, a.y), (10.0, 20.0))
    moved = w.session.table.model("akane")
    assert (moved.x, moved.y) != (a.x, a.y) and math.dist((moved.x, moved.y), (10.0, 20.0)) < 0.05
    assert w.session.table.model("akane") == dataclasses.replace(a, x=moved.x, y=moved.y, z=moved.z)
    img = frame(w)
    red = P.side_colors(mill.sides)["red"]
    assert near(screen_pixel(w, img, moved.x, moved.y), red, 0)
    assert not near(screen_pixel(w, img, a.x, a.y), red, 40)  # gone from where it stood
    drag(w, (moved.x, moved.y), (25.0, 3.0))  # far beyond its Movement: refused
    assert w.session.table.model("akane") == moved and "over budget" in w.session.message


# -- the grid of rooms -----------------------------------------------------------------------------------

def test_grid_render_pixels(tmp_path):
    from skirmish.viewer.grid_view import WALL, Layout, PIECE_R, grid_colors

    maze = load(SCENARIOS / "party-hard-maze.toml")
    comp = compose(maze, RenderRequest(frm="rogue", size=600))
    img = render_composition(comp)
    lay = Layout(maze)
    colors = grid_colors(maze)
    for p in maze.pieces:
        x, y = lay.pieces[p.id]
        assert near(pixel(img, comp, x - 0.55 * PIECE_R, y), colors[p.side], 0), p.id  # beside the place number
    x0, y0 = lay.origin((0, 0))
    assert near(pixel(img, comp, x0 + 0.5, y0 + 1 - 0.002), WALL, 0)  # the maze's outer wall
    rx, ry = lay.centre((3, 1))  # rogue may step here: tinted
    assert near(pixel(img, comp, rx + 0.13, ry + 0.3), P.mix((233, 228, 212, 255), P.RANGE_FILL, 60 / 255), 3)


def test_grid_window_drag_moves_a_piece_and_s_saves(window_on, tmp_path):
    maze = load(SCENARIOS / "party-hard-maze.toml")
    w = window_on(maze)
    from pyglet.window import key

    lay = w.session.layout
    drag(w, lay.pieces["cleric"], lay.centre((1, 0)))
    assert w.session.table.room_of("cleric") == (1, 0)
    frame(w)
    send(w, "on_key_press", key.S, 0)
    assert load(tmp_path / "saved.toml") == w.session.table


# -- the commands -------------------------------------------------------------------------------------

def test_render_command_writes_a_png_with_a_legend(tmp_path, capsys):
    out = tmp_path / "table.png"
    rc = main(["render", str(SCENARIOS / "mill-ambush.toml"), "-o", str(out), "--los", "yumi", "brute",
               "--from", "akane", "--size", "500"])
    assert rc == 0 and "wrote" in capsys.readouterr().out
    img = decode_png(out.read_bytes())
    assert img.shape[2] == 3 and img.shape[1] > 500 + 300
    legend = img[60:200, 500 + 2 * 36 + 20: 500 + 2 * 36 + 300]
    assert near(np.median(legend.reshape(-1, 3), axis=0), P.PANEL, 25)  # the legend panel


def test_render_command_errors_exit_2(tmp_path, capsys):
    scen = str(SCENARIOS / "mill-ambush.toml")
    assert main(["render", scen, "-o", str(tmp_path / "x.jpg")]) == 2
    assert main(["render", scen, "-o", str(tmp_path / "x.png"), "--los", "yumi", "nobody"]) == 2
    assert "no model with id 'nobody'" in capsys.readouterr().err
    assert main(["render", scen, "-o", str(tmp_path / "x.png"), "--template", "spray-small", "--on", "brute"]) == 2
    assert "--from" in capsys.readouterr().err
    assert main(["render", scen, "-o", str(tmp_path / "x.png"), "--template", "circle-small"]) == 2
    assert main(["render", scen, "-o", str(tmp_path / "x.png"), "--template", "cone", "--on", "brute"]) == 2
    assert "known templates" in capsys.readouterr().err
    assert main(["render", scen, "-o", str(tmp_path / "x.png"), "--template", "circle-small", "--on", "brute",
                 "--mode", "standard"]) == 2
    assert "cannot be pre-placed" in capsys.readouterr().err
    maze = str(SCENARIOS / "party-hard-maze.toml")
    assert main(["render", maze, "-o", str(tmp_path / "x.png"), "--template", "circle-small", "--on", "rogue"]) == 2
    assert "does not place area templates" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()
    assert main(["render", maze, "-o", str(tmp_path / "maze.png"), "--range", "rogue", "--size", "300"]) == 0
    assert decode_png((tmp_path / "maze.png").read_bytes()).shape[1] > 300


def test_view_without_a_display_exits_2_with_a_clear_message():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    r = subprocess.run([sys.executable, "-m", "skirmish", "view", str(SCENARIOS / "first-steps.toml")],
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert r.returncode == 2
    assert "skirmish view: error:" in r.stderr and "skirmish render" in r.stderr and "Traceback" not in r.stderr


# -- never lose work; the viewer at the table -------------------------------------------------------------

def test_esc_with_unsaved_moves_asks_and_d_discards(mill, window_on):
    from pyglet.window import key

    w = window_on(mill)
    a = mill.model("akane")
    drag(w, (a.x, a.y), (10.0, 20.0))
    assert w.session.dirty
    send(w, "on_key_press", key.ESCAPE, 0)  # nothing selected: quit — but work is unsaved
    assert not w.session.quit_now and w.session.confirm_quit and "unsaved" in w.session.message
    img = frame(w)  # the question is drawn in the status bar, in the error colour
    assert any(near(c, P.LOS_BLOCKED, 60) for c in img[w.height - 12, 12:400, :3].astype(int))
    send(w, "on_key_press", key.ESCAPE, 0)  # esc again: keep working
    assert not w.session.confirm_quit and not w.session.quit_now and w.session.dirty
    w.on_close()  # the close button asks too
    assert w.session.confirm_quit
    send(w, "on_key_press", key.D, 0)
    assert w.session.quit_now


def test_quit_question_s_saves_then_quits(mill, window_on, tmp_path):
    from pyglet.window import key

    w = window_on(mill)
    click(w, *(lambda m: (m.x, m.y))(mill.model("brute")))
    send(w, "on_key_press", key.E, 0)
    send(w, "on_key_press", key.ESCAPE, 0)  # clears the selection
    assert w.session.selected is None and not w.session.confirm_quit
    send(w, "on_key_press", key.ESCAPE, 0)
    assert w.session.confirm_quit
    send(w, "on_key_press", key.S, 0)
    assert w.session.quit_now and not w.session.dirty
    assert load(tmp_path / "saved.toml") == w.session.table


def test_esc_without_changes_quits_at_once(first, window_on):
    from pyglet.window import key

    w = window_on(first)
    send(w, "on_key_press", key.ESCAPE, 0)
    assert w.session.quit_now and not w.session.confirm_quit


def test_e_move_kind_ctrl_drag_runs(mill, window_on):
    """E-MOVE-KIND: a plain drag Walks (up to SPD), ctrl + drag Runs (up to 2 × SPD)."""
    from pyglet.window import key, mouse

    w = window_on(mill)
    a = mill.model("akane")
    goal = (a.x + 7.0, a.y)  # SPD 5: too far to Walk, within a Run
    drag(w, (a.x, a.y), goal)
    assert w.session.table.model("akane") == a and "refused: " in w.session.message
    assert "refused: refused" not in w.session.message
    (x0, y0), (x1, y1) = w.screen_of(a.x, a.y), w.screen_of(*goal)
    send(w, "on_mouse_press", x0, y0, mouse.LEFT, key.MOD_CTRL)
    for t in (0.5, 1.0):
        send(w, "on_mouse_drag", x0 + t * (x1 - x0), y0 + t * (y1 - y0), 1, 0, mouse.LEFT, key.MOD_CTRL)
    send(w, "on_mouse_release", x1, y1, mouse.LEFT, key.MOD_CTRL)
    moved = w.session.table.model("akane")
    assert math.dist((moved.x, moved.y), goal) < 0.05 and "ran" in w.session.message


def test_hover_text_follows_a_move_without_a_mouse_motion(mill, window_on):
    w = window_on(mill)
    a = mill.model("akane")
    sx, sy = w.screen_of(a.x, a.y)
    send(w, "on_mouse_motion", sx, sy, 0, 0)
    assert w.session.hover_text.startswith("akane")
    drag(w, (a.x, a.y), (10.0, 20.0))
    assert not w.session.hover_text.startswith("akane")  # the pointer rests where akane was


def test_grid_status_bar_speaks_to_people(window_on):
    maze = load(SCENARIOS / "party-hard-maze.toml")
    w = window_on(maze)
    sx, sy = w.screen_of(*w.session.layout.pieces["rogue"])
    send(w, "on_mouse_motion", sx, sy, 0, 0)
    text = w.session.status()
    assert "rogue (blue) in room" in text and "HP " in text and "Fighter(" not in text


def test_profile_gets_its_own_strip_and_the_table_view_shrinks(mill, window_on):
    from pyglet.window import key

    w = window_on(mill)
    before = w.screen_of(0.0, 0.0)
    click(w, *(lambda m: (m.x, m.y))(mill.model("yumi")))
    click(w, *(lambda m: (m.x, m.y))(mill.model("brute")), key.MOD_SHIFT)
    frame(w)
    x, y, pw, ph = w.panel_rect
    assert w.strip > 0
    assert w.screen_of(0.0, 0.0)[1] >= y + ph  # the table's near edge is above the panel
    assert w.screen_of(mill.width, mill.depth)[1] <= w.height  # and the whole table still shows
    assert w.screen_of(0.0, 0.0) != before
    send(w, "on_key_press", key.ESCAPE, 0)
    frame(w)
    assert w.strip == 0 and w.screen_of(0.0, 0.0) == pytest.approx(before)


def test_e_action_attack_answer_on_select_and_hover(mill, window_on):
    """The viewer shows `skirmish attack`'s answer for the selected model and the
    hovered one: the odds, or why it cannot attack."""
    from skirmish.maps.table_attack import attack

    w = window_on(mill)
    click(w, *(lambda m: (m.x, m.y))(mill.model("yumi")))
    b = mill.model("brute")
    send(w, "on_mouse_motion", *w.screen_of(b.x, b.y), 0, 0)
    title, lines, refused = w.session.info_lines()
    assert not refused and lines == attack(mill, "yumi", "brute").summary_lines()
    img = frame(w)
    assert w.canvas.stats()["panel_text"][0] > 0
    assert near(tuple(int(v) for v in img[14, 20, :3]), P.PANEL, 3)  # the panel, top left
    k = mill.model("kenji")  # a friend: refused, with the reason
    send(w, "on_mouse_motion", *w.screen_of(k.x, k.y), 0, 0)
    title, lines, refused = w.session.info_lines()
    assert refused and "cannot attack kenji" in title and "enemy" in lines[0]


def test_l_toggles_the_legend(mill, window_on):
    from pyglet.window import key

    w = window_on(mill)
    frame(w)
    assert w.canvas.stats()["legend"][0] == 0
    send(w, "on_key_press", key.L, 0)
    img = frame(w)
    assert w.canvas.stats()["legend"][0] > 0
    assert near(tuple(int(v) for v in img[20, w.width - 20, :3]), P.PANEL, 3)
    send(w, "on_key_press", key.L, 0)
    frame(w)
    assert w.canvas.stats()["legend"][0] == 0


def test_a_long_message_is_not_cut_at_the_window_edge(mill, window_on):
    w = window_on(mill)
    long = "refused: " + " ".join(f"word{i}" for i in range(80))
    w.session.say(long, error=True)
    frame(w)
    from skirmish.viewer.scene import Text, status_prims, wrap

    assert len(wrap(long, w.width - 30)) > 1
    assert w.canvas.stats()["panel_text"][1] >= len(wrap(long, 560 - 24))  # every line in the panel
    shown = [p.text for p in status_prims(w.session.status(), w.width) if isinstance(p, Text)]
    assert shown[0].endswith(" …") and len(shown[0]) < len(long)
