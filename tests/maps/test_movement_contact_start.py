"""A base that starts within the contact tolerance of a piece (0.001" into the clearance
its hitbox keeps, as a Jump into a wall leaves it) walks away, and round the piece's
corner, like a base that starts exactly in contact (E-CONTACT, E-MOVE-PATH, E-MOVE-JUMP)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
import shapely

from skirmish.maps.table import Table
from skirmish.maps.tolerances import CONTACT
from skirmish.scenario.load import loads

from conftest import table_text

WALL = '[[scenery]]\nid = "wall"\nrect = [10, 8, 12, 16]\nheight = 4\n'  # taller than any hitbox


def _table(x: float = 6.0, y: float = 12.0) -> Table:
    model = f'[[models]]\nid = "a"\nside = "red"\nsize = "M"\nat = [{x}, {y}]\nattributes = {{ SPD = 6 }}\n'
    return loads(table_text(model, WALL, extra='mode = "assisted"'))


def _at(t: Table, x: float, y: float) -> Table:
    return t.with_model(dataclasses.replace(t.model("a"), x=x, y=y))


def _gap(t: Table) -> float:
    m = t.model("a")
    wall = t.scenery[0].solid.footprint
    return float(shapely.distance(wall, shapely.Point(m.x, m.y))) - m.radius


@pytest.mark.parametrize("inside", list(np.linspace(0.0, CONTACT, 41)))
def test_E_CONTACT_a_base_up_to_the_contact_tolerance_into_a_wall_s_clearance_walks_away_and_round_it(
        inside: float) -> None:
    """West of the wall, its base ``inside`` into the clearance (0 to 0.001"): a Walk
    straight away, and one round the wall's south-west corner, are legal; the second costs
    what it costs from exact contact, within twice ``inside`` (the start is that much nearer)."""
    t = _table()
    r = t.model("a").radius
    t = _at(t, 10 - r + inside, 10.0)
    assert _gap(t) == pytest.approx(-inside, abs=1e-12)
    away = t.plan_move("a", (10 - r - 2, 10.0), kind="walk")
    assert away.legal, away.violations
    assert away.cost == pytest.approx(2 + inside, abs=1e-9)
    corner = (11.0, 8 - r - 0.5)  # south of the wall: round its corner
    round_it = t.plan_move("a", corner, kind="walk")
    assert round_it.legal, round_it.violations
    assert len(round_it.points) >= 3  # (it turns at the corner: the straight way is through the wall)
    exact = _at(t, 10 - r, 10.0).plan_move("a", corner, kind="walk")
    assert round_it.cost == pytest.approx(exact.cost, abs=2 * inside + 1e-9)
    # the checker agrees with the planner, point for point
    assert t.check_move("a", [p[:2] for p in round_it.points[1:]], kind="walk").legal


def test_E_MOVE_JUMP_a_jump_into_a_tall_wall_stops_in_contact_and_the_model_walks_away_from_it() -> None:
    """A Jump aimed through the wall stops where the hitbox meets it (within the contact
    tolerance); from there the model walks away, round the corner and along the wall."""
    t = _table(8.0, 10.0)
    jump = t.plan_move("a", (11.0, 10.0, 0.0), kind="jump")
    x, y, _ = jump.points[-1]
    landed = _at(t, x, y)
    assert 0.0 <= _gap(landed) <= 1e-9  # (touching: not inside the clearance)
    r = t.model("a").radius
    for to in ((x - 2, y), (11.0, 8 - r - 0.5), (x, y + 3)):  # away, round the corner, along the wall
        plan = landed.plan_move("a", to, kind="walk")
        assert plan.legal and math.isclose(plan.points[-1][0], to[0]), (to, plan.violations)
