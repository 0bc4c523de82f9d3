"""``skirmish render`` on an island: regions coloured by terrain, the coast, the borders and
the pieces — the composition (pure) and the pixels of a headless frame."""

from __future__ import annotations

import math

import numpy as np
import pytest

import pyglet

pyglet.options["headless"] = True  # before any window exists

from skirmish.cli import main  # noqa: E402
from skirmish.errors import SkirmishError  # noqa: E402
from skirmish.scenario.load import load  # noqa: E402
from skirmish.viewer.island_view import OCEAN, SURF, TERRAIN, IslandLayout  # noqa: E402
from skirmish.viewer.png import decode_png  # noqa: E402
from skirmish.viewer.render import RenderRequest, compose, open_window, render_composition  # noqa: E402
from skirmish.viewer.scene import Disc, Text  # noqa: E402

from conftest import SCENARIOS  # noqa: E402


@pytest.fixture(scope="module")
def isle():
    return load(SCENARIOS / "island.toml")


def test_island_composition_has_a_terrain_disc_and_a_label_per_region(isle):
    comp = compose(isle, RenderRequest(size=500))
    lay = IslandLayout(isle)
    discs = [p for p in comp.scene["scenery"] if isinstance(p, Disc)]
    for land in isle.lands:
        x, y = lay.centres[land.id]
        assert any(d.color == TERRAIN[land.terrain] and (d.x, d.y) == (x, y) for d in discs)
        assert any(d.color == SURF and (d.x, d.y) == (x, y) for d in discs) == land.coastal
    labels = {p.text for p in comp.scene["overlays"] if isinstance(p, Text)}
    assert set(isle.island.ids) <= labels and "build" in labels
    # a counter per kind of piece present and per spirit's presence, with its number
    counts = [p.text for p in comp.scene["models"] if isinstance(p, Text) and p.text.isdigit()]
    assert len(counts) == len(isle.model_ids) + sum(1 for land in isle.lands if land.blight)


def test_island_layout_keeps_regions_apart_and_inside_the_picture(isle):
    lay = IslandLayout(isle)
    pts = list(lay.centres.values())
    r = lay.radius
    for (ax, ay), (bx, by) in ((a, b) for i, a in enumerate(pts) for b in pts[i + 1:]):
        assert math.hypot(ax - bx, ay - by) > 2 * r
    assert all(r * 1.1 <= x <= 10 - r * 1.1 and r * 1.1 <= y <= 10 - r * 1.1 for x, y in pts)


def test_island_render_refuses_templates_and_movement_ranges(isle):
    with pytest.raises(SkirmishError, match="no area templates and no movement range"):
        compose(isle, RenderRequest(range_of="explorers@coast-1"))


def test_island_render_from_labels_each_region_with_its_steps(isle):
    comp = compose(isle, RenderRequest(frm="river@wood", size=500))
    labels = [p.text for p in comp.scene["overlays"] if isinstance(p, Text)]
    assert "0 steps" in labels and labels.count("2 steps") == sum(1 for d in isle.island.distances_from("wood").values()
                                                                   if d == 2)


def test_island_frame_pixels_show_terrain_and_ocean(isle, tmp_path, capsys):
    try:
        open_window(32, 32).close()
    except SkirmishError as exc:
        pytest.skip(f"headless OpenGL (EGL) is not available here: {exc}")
    comp = compose(isle, RenderRequest(size=400))
    img = render_composition(comp, supersample=1)
    lay = IslandLayout(isle)

    def pixel(x: float, y: float) -> tuple[int, ...]:
        sx, sy = comp.camera.to_screen(x, y)
        return tuple(int(v) for v in img[comp.height - 1 - int(math.floor(sy)), int(math.floor(sx)), :3])

    for land in isle.lands:
        x, y = lay.centres[land.id]
        top = pixel(x, y + 0.75 * lay.radius)  # between the terrain label and the id: the terrain's colour
        assert all(abs(a - b) <= 6 for a, b in zip(top, TERRAIN[land.terrain])), (land.id, top)
    assert pixel(0.2, 0.2) == OCEAN[:3]
    out = tmp_path / "isle.png"
    assert main(["render", str(SCENARIOS / "island.toml"), "-o", str(out), "--size", "300"]) == 0
    assert decode_png(out.read_bytes()).shape[2] >= 3 and "wrote" in capsys.readouterr().out
    assert np.asarray(img).shape == (comp.height, comp.width, 3)
