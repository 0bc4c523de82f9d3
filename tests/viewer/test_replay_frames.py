"""Replay frames drawn headless (pyglet over EGL), checked pixel by pixel: a step's path
in its colour, the models where the log moved them; the window stepped with the arrow
keys; ``skirmish render --replay``."""

from __future__ import annotations

import math

import numpy as np
import pytest

import pyglet

pyglet.options["headless"] = True  # before any window exists

from skirmish.viewer import palette as P  # noqa: E402
from skirmish.viewer.png import decode_png  # noqa: E402
from skirmish.viewer.render import RenderRequest, compose, render_composition  # noqa: E402
from skirmish.viewer.replay_view import ReplaySession, step_extras  # noqa: E402

from conftest import SCENARIOS, cli_run  # noqa: E402
from test_replay import mill, mill_log_text, mill_replay  # noqa: E402,F401  (fixtures: the logged game)
from test_viewer_frames import egl  # noqa: E402,F401  (skips the module without headless OpenGL)


@pytest.fixture(scope="module")
def text(mill_log_text):
    return mill_log_text


@pytest.fixture(scope="module")
def rp(mill_replay):
    return mill_replay


def clear_of_models(table, x: float, y: float, gap: float = 1.2) -> bool:
    return all(math.hypot(m.x - x, m.y - y) > m.radius + gap for m in table.models)


def path_probe(rp, k: int) -> tuple[float, float] | None:
    """The midpoint of a long segment of step k's path, away from every model."""
    s = rp.step(k)
    t = rp.table_at(k)
    for a, b in zip(s.movement.path, s.movement.path[1:]):
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        if math.dist(a[:2], b[:2]) >= 2.0 and clear_of_models(t, *mid) and clear_of_models(rp.table_at(0), *mid):
            return mid
    return None


@pytest.fixture(scope="module")
def walk_step(rp):
    """A step that moves a model along a long segment, and a point on that segment."""
    for k in range(1, len(rp) + 1):
        s = rp.step(k)
        if s.role == "activation" and s.movement.kind in ("walk", "run"):
            probe = path_probe(rp, k)
            if probe is not None:
                return k, probe
    pytest.fail("the log has no long move to look at")


def near_any(img: np.ndarray, sx: float, sy: float, color, tol: int = 40, r: int = 1) -> bool:
    h = img.shape[0]
    x, y = int(math.floor(sx)), h - 1 - int(math.floor(sy))
    patch = img[y - r:y + r + 1, x - r:x + r + 1, :3].reshape(-1, 3).astype(int)
    return bool((np.abs(patch - np.array(color[:3])).max(axis=1) <= tol).any())


def render_step(rp, k: int):
    comp = compose(rp.table_at(k), RenderRequest(size=600, layers=(step_extras(rp, k),)))
    return comp, render_composition(comp)


def test_a_step_draws_its_path_in_the_replay_colour(rp, walk_step):
    k, (x, y) = walk_step
    comp, img = render_step(rp, k)
    assert near_any(img, *comp.camera.to_screen(x, y), P.REPLAY_PATH)
    before, img0 = render_step(rp, k - 1)  # the step before does not draw it there
    assert not near_any(img0, *before.camera.to_screen(x, y), P.REPLAY_PATH, r=2)


def test_the_model_stands_where_the_step_moved_it(rp, walk_step):
    k, _ = walk_step
    s = rp.step(k)
    comp, img = render_step(rp, k)
    color = P.side_colors(rp.table.sides)[rp.table.model(s.model).side]
    (ax, ay, _), (bx, by, _) = s.movement.path[0], s.movement.end
    m = rp.table.model(s.model)
    # its disc at the end of the path (off the path's end dot, away from the arrow)
    ang = math.radians(rp.state_at(k).models[s.model].facing + 180)
    ex, ey = bx + 0.6 * m.radius * math.cos(ang), by + 0.6 * m.radius * math.sin(ang)
    assert near_any(img, *comp.camera.to_screen(ex, ey), color, tol=12, r=0)
    # and the picture before the step has it at the start, not at the end
    comp0, img0 = render_step(rp, k - 1)
    assert near_any(img0, *comp0.camera.to_screen(ax, ay), color, tol=12, r=0)
    if math.dist((ax, ay), (bx, by)) > 2 * m.radius + 0.5:
        assert not near_any(img0, *comp0.camera.to_screen(ex, ey), color, tol=12, r=0)


def test_window_arrow_keys_change_the_drawn_step(rp, walk_step, tmp_path):
    from pyglet.window import key

    from skirmish.viewer.draw import read_pixels
    from skirmish.viewer.window import ViewerWindow

    def frame(w):
        w.switch_to()
        w.dispatch_event("on_draw")
        w.dispatch_events()
        return read_pixels()

    def press(w, symbol):
        w.dispatch_event("on_key_press", symbol, 0)
        w.dispatch_events()

    k, (x, y) = walk_step
    w = ViewerWindow(ReplaySession(rp, save_path=tmp_path / "x.toml", step=k - 1), 900, 700, visible=False)
    try:
        img = frame(w)
        assert not near_any(img, *w.screen_of(x, y), P.REPLAY_PATH, r=2)
        press(w, key.RIGHT)
        assert w.session.step == k
        img = frame(w)
        assert near_any(img, *w.screen_of(x, y), P.REPLAY_PATH)
        assert w.canvas.stats()["panel_text"][0] > 0  # the step's text panel
        press(w, key.LEFT)
        assert w.session.step == k - 1
        img = frame(w)
        assert not near_any(img, *w.screen_of(x, y), P.REPLAY_PATH, r=2)
        press(w, key.END)
        assert w.session.step == len(rp)
    finally:
        w.close()


def test_cli_render_replay_writes_the_step(capsys, tmp_path, rp, text, walk_step):
    log = tmp_path / "game.jsonl"
    log.write_text(text)
    out = tmp_path / "step.png"
    k, (x, y) = walk_step
    code, stdout, err = cli_run(capsys, "render", str(SCENARIOS / "mill-ambush.toml"), "--replay", str(log),
                                "--step", str(k), "--size", "400", "-o", str(out))
    assert code == 0, err
    img = decode_png(out.read_bytes())
    comp = compose(rp.table_at(k), RenderRequest(size=400, layers=(step_extras(rp, k),)))
    assert img.shape[:2] == (comp.height, comp.width) and "wrote" in stdout
    assert near_any(img, *comp.camera.to_screen(x, y), P.REPLAY_PATH)
