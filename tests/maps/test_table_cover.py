"""E-COVER on the table: heavy behind a wall, light behind a low wall, Crouched, large targets."""

from __future__ import annotations

from skirmish.scenario.load import loads

from conftest import table_text


def model(id, at, size="M", side="red", facing=0, extra=""):
    return f'[[models]]\nid = "{id}"\nside = "{side}"\nsize = "{size}"\nat = {list(at)}\nfacing = {facing}\n{extra}\n'


def wall(rect, height):
    return f'[[scenery]]\nid = "w"\nrect = {list(rect)}\nheight = {height}\n'


def test_E_COVER_heavy_behind_a_tall_wide_wall():
    """The target peeks past the end of a wall taller and wider than it: Heavy, −4."""
    t = loads(table_text(model("a", (4, 10)) + model("b", (16, 10.4), side="blue"), wall((14.6, 4, 15.1, 10.3), 4)))
    c = t.cover("a", "b")
    assert t.line_of_sight("a", "b").visible
    assert (c.level, c.modifier, c.piece) == ("heavy", -4, "w") and 0 < c.visible_fraction < 1


def test_E_COVER_light_behind_a_low_wall():
    t = loads(table_text(model("a", (4, 10)) + model("b", (16, 10), side="blue"), wall((14.6, 6, 15.0, 14), 1.0)))
    c = t.cover("a", "b")
    assert (c.level, c.modifier, c.piece) == ("light", -2, "w")


def test_E_COVER_none_in_the_open_and_none_for_large_targets():
    t = loads(table_text(model("a", (4, 10)) + model("b", (16, 10), side="blue")))
    assert t.cover("a", "b").level == "none"
    h = loads(table_text(model("a", (4, 10)) + model("b", (16, 10), size="H", side="blue"), wall((14.5, 6, 14.9, 14), 1.0)))
    assert h.cover("a", "b").level == "none"


def test_E_COVER_crouched_counts_as_light():
    t = loads(table_text(model("a", (4, 10)) + model("b", (16, 10), side="blue", extra='states = ["Crouched"]')))
    c = t.cover("a", "b")
    assert (c.level, c.modifier, c.piece) == ("light", -2, None)


def test_E_COVER_wall_too_far_gives_none():
    t = loads(table_text(model("a", (4, 10)) + model("b", (16, 10), side="blue"), wall((12, 6, 12.4, 14), 1.0)))
    assert t.cover("a", "b").level == "none"
