"""Labels placed so they do not collide (the mill's balcony under raider-2, dense-ruins'
crowded rooftops), at any picture size."""

from __future__ import annotations

import itertools

import pytest

from skirmish.scenario.load import load
from skirmish.viewer.labels import declutter, label_box, overlaps
from skirmish.viewer.render import RenderRequest, compose
from skirmish.viewer.scene import Text

from conftest import SCENARIOS


def _collisions(scene, camera) -> list[tuple[str, str]]:
    texts = [p for layer in ("models", "scenery") for p in scene[layer] if isinstance(p, Text)]
    boxes = [(p.text, label_box(p, camera)) for p in texts]
    return [(a[0], b[0]) for a, b in itertools.combinations(boxes, 2) if overlaps(a[1], b[1])]


@pytest.mark.parametrize("name", ["mill-ambush.toml", "dense-ruins.toml", "first-steps.toml"])
@pytest.mark.parametrize("size", [700, 900, 1200])
def test_labels_do_not_overlap_after_placement(name, size):
    comp = compose(load(SCENARIOS / name), RenderRequest(size=size))
    placed = declutter(comp.scene, comp.camera)
    assert _collisions(placed, comp.camera) == []
    every = [p for layer in ("models", "scenery") for p in placed[layer] if isinstance(p, Text)]
    assert len(every) == sum(isinstance(p, Text) for layer in ("models", "scenery") for p in comp.scene[layer])


def test_the_mills_balcony_label_moves_off_raider_2():
    comp = compose(load(SCENARIOS / "mill-ambush.toml"), RenderRequest(size=1000))  # (labels at full size)
    assert ("raider-2", '2.7–3"') in _collisions(comp.scene, comp.camera)  # as first placed
    placed = declutter(comp.scene, comp.camera)
    raider = next(p for p in placed["models"] if isinstance(p, Text) and p.text == "raider-2")
    assert raider.alternatives == () and (raider.anchor_y, raider.dy) == ("bottom", 5)  # models keep their place
