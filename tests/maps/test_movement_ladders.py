"""Ladders in scenario files and on the table (E-MOVE-LADDER), and moves across surfaces:
climbing down, ranges over roofs and the ground, storeys (E-FALL), Standard mode on a ladder."""

from __future__ import annotations


import pytest
import shapely

from skirmish import ScenarioError
from skirmish.scenario.dump import dumps
from skirmish.scenario.load import loads

from conftest import table_text

MM = 1 / 25.4
R_M = 16 * MM


def model(mid: str, at: str, z: float | None = None, spd: int = 6, side: str = "red") -> str:
    zline = f"z = {z}\n" if z is not None else ""
    return f'[[models]]\nid = "{mid}"\nside = "{side}"\nsize = "M"\nat = {at}\n{zline}attributes = {{ SPD = {spd} }}\n'


def house(ladder: str = "ladder = [10, 12]", walkable: bool = True, height: float = 3.0, rect: str = "[10, 8, 16, 16]",
          sid: str = "house", base: float = 0.0) -> str:
    return (f'[[scenery]]\nid = "{sid}"\nrect = {rect}\nheight = {height}\nbase = {base}\n'
            f'walkable = {"true" if walkable else "false"}\n{ladder}\n')


def refused(text: str) -> str:
    with pytest.raises(ScenarioError) as info:
        loads(text, "s.toml")
    return str(info.value)


# -- the format ------------------------------------------------------------------------------------

def test_a_ladder_is_a_point_or_a_list_of_points_and_round_trips():
    one = loads(table_text(model("a", "[5, 12]"), house()))
    assert one.scenery_piece("house").ladders == ((10.0, 12.0),)
    assert "1 ladder" in repr(one.scenery_piece("house"))
    two = loads(table_text(model("a", "[5, 12]"), house('ladder = [[10, 12], ["16in", "300mm"]]')))
    assert two.scenery_piece("house").ladders == ((10.0, 12.0), (16.0, 300 * MM))
    for t in (one, two):
        assert loads(dumps(t)) == t


@pytest.mark.parametrize("line, message", [
    ("ladder = [12, 12]", "from the footprint's outline"),
    ("ladder = [[10, 12], [13, 13]]", "ladder point 2"),
    ("ladder = 3", "expected a point"),
    ("ladder = [1, 2, 3]", "expected a point"),
    ('ladder = ["x", 2]', "expected a length"),
])
def test_bad_ladders_are_refused_with_the_field_and_the_fix(line, message):
    text = refused(table_text(model("a", "[5, 12]"), house(line)))
    assert "ladder" in text and message in text and 'scenery[0] (id "house")' in text


def test_a_ladder_needs_a_walkable_top():
    assert "walkable = true" in refused(table_text(model("a", "[5, 12]"), house(walkable=False)))


def test_files_without_ladders_load_as_before():
    t = loads(table_text(model("a", "[5, 12]"), house(ladder="")))
    assert t.scenery_piece("house").ladders == () and t.ladders_of("a") == ()


def test_a_round_piece_takes_a_ladder_on_its_rim():
    tower = '[[scenery]]\nid = "tower"\ncircle = [14, 12, 2]\nheight = 3\nwalkable = true\nladder = [12, 12]\n'
    t = loads(table_text(model("a", "[5, 12]"), tower))
    lad = t.ladders_of("a")[0]
    assert lad.usable and lad.foot == pytest.approx((12 - R_M, 12)) and lad.top == pytest.approx((12 + R_M, 12), abs=0.01)
    p = t.plan_move("a", (14, 12, 3), budget=20)
    assert p.legal and p.cost - p.length == pytest.approx(3.0)


# -- using them -------------------------------------------------------------------------------------

def test_E_MOVE_LADDER_climbing_down_costs_double_too():
    t = loads(table_text(model("a", "[13, 12]", z=3), house()))
    p = t.plan_move("a", (5, 12), budget=20, falls=False)
    assert p.legal and p.fall_rolls == 0
    assert p.cost - p.length == pytest.approx(3.0)
    assert (10 - R_M, 12, 3.0) in [tuple(round(v, 9) for v in q) for q in p.points] or any(
        q[0] == pytest.approx(10 - R_M) and q[2] == 3.0 for q in p.points)
    falling = t.plan_move("a", (5, 12), budget=20)  # dropping off the edge (beside the ladder) is cheaper
    assert falling.cost < p.cost - 5 and falling.fall_rolls == 0  # 3 in is half of SPD 6: no roll


def test_a_ladder_whose_top_has_no_room_is_unusable_and_says_why():
    shed = house(rect="[10, 8, 16, 16]") + house(ladder="", rect="[10.2, 11, 12, 13]", height=2.0, sid="chest",
                                                   base=3.0, walkable=False)
    t = loads(table_text(model("a", "[5, 12]"), shed))
    lad = t.ladders_of("a")[0]
    assert not lad.usable and "does not fit" in lad.why
    c = t.check_move("a", [(10 - R_M, 12), (10 - R_M, 12, 3)], kind="run")
    assert not c.legal and any("cannot be used" in v.what for v in c.violations)


def test_E_MODE_standard_cuts_a_path_that_runs_out_on_a_ladder_before_the_climb():
    t = loads(table_text(model("a", "[5, 12]", spd=5), house(), extra='mode = "standard"'))
    p = t.plan_move("a", (13, 12, 3))
    assert not p.legal and "ladder" in p.violations[0].what
    assert p.points[-1][2] == 0.0 and p.cost == pytest.approx(5 - R_M)  # stopped at the foot


def test_the_range_of_a_model_on_a_roof_spreads_to_the_ground_by_falls():
    t = loads(table_text(model("a", "[13, 12]", z=3, spd=6), house()))
    parts = dict((s.z, g) for s, g in t.movement_range_parts("a"))
    assert set(parts) == {0.0, 3.0}
    roof = shapely.box(10 + R_M, 8 + R_M, 16 - R_M, 16 - R_M)
    assert parts[3.0].area == pytest.approx(roof.area, rel=0.01)  # all the roof is within 6 in
    ground = parts[0.0]
    assert ground.contains(shapely.Point(17.5, 12)) and not ground.contains(shapely.Point(9.3, 12.4 + 6))
    assert not t.movement_range_parts("a", falls=False)[0][1].is_empty  # the ladder still leads down
    r = t.movement_range("a")
    assert r.area == pytest.approx(sum(g.area for g in parts.values()))
    assert any("z = 3" in n for n in r.notes) and any("z = 0" in n for n in r.notes)


def test_E_FALL_storeys_a_straight_walk_drops_twice():
    tower = house(ladder="", rect="[11, 10, 15, 14]", height=3.0, sid="loft", base=3.0)
    t = loads(table_text(model("a", "[13, 12]", z=6, spd=4), house(ladder="") + tower))
    p = t.plan_move("a", (20, 12), kind="run")
    assert p.legal and p.fall_rolls == 2  # 3 in then 3 in, SPD 4: one roll each
    zs = [q[2] for q in p.points]
    assert zs[0] == 6.0 and zs[-1] == 0.0 and 3.0 in zs
    assert p.cost == pytest.approx(7.0) and p.length == pytest.approx(13.0)
    again = t.check_move("a", [(20, 12, 0)], kind="run")
    assert again.points == p.points and again.fall_rolls == 2


def test_a_move_may_end_at_the_foot_of_a_ladder_but_not_on_it():
    t = loads(table_text(model("a", "[13, 12]", z=3), house()))
    down = t.check_move("a", [(10 + R_M + 0.005, 12, 3), (10 - R_M, 12, 3), (10 - R_M, 12, 0)], budget=20)
    assert down.legal and down.cost == pytest.approx(down.length + 3.0)
    up = loads(table_text(model("a", "[5, 12]"), house()))
    hanging = up.check_move("a", [(10 - R_M, 12), (10 - R_M, 12, 3)], budget=20)
    assert not hanging.legal and "ends on a ladder" in hanging.violations[-1].what
