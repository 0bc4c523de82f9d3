"""Movement on the table, rule by rule: E-DIST-MOVE, E-MOVE-KIND, E-MOVE-SURFACE, E-MOVE-ENEMY,
E-MOVE-END, E-MOVE-FRIEND, E-MOVE-LADDER, E-FALL, E-MODE."""

from __future__ import annotations

import math

import pytest

from skirmish import IllegalActionError, MeasurementRefused, SkirmishError
from skirmish.errors import RuleInputError
from skirmish.rules.eldfall.movement import fall_rolls, movement_budget
from skirmish.scenario.load import loads

from conftest import table_text

CONTACT_TOL = 0.001  # E-CONTACT

MM = 1 / 25.4
R_M = 16 * MM  # a Medium base's radius
H_M = 45 * MM  # a Medium hitbox's height


def model(mid: str, at: str, side: str = "red", spd: int | None = 5, z: float | None = None, size: str = "M") -> str:
    attrs = f"attributes = {{ SPD = {spd} }}\n" if spd is not None else ""
    zline = f"z = {z}\n" if z is not None else ""
    return f'[[models]]\nid = "{mid}"\nside = "{side}"\nsize = "{size}"\nat = {at}\n{zline}{attrs}'


def piece(sid: str, rect: str, height: float | str, extra: str = "") -> str:
    h = f'"{height}"' if isinstance(height, str) else height
    return f'[[scenery]]\nid = "{sid}"\nrect = {rect}\nheight = {h}\n{extra}\n'


def table(models: str, scenery: str = "", mode: str = "assisted"):
    return loads(table_text(models, scenery, extra=f'mode = "{mode}"'))


def dist_to(p, c) -> float:
    return math.hypot(p[0] - c[0], p[1] - c[1])


def seg_point_distance(a, b, c) -> float:
    ax, ay, bx, by = a[0], a[1], b[0], b[1]
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((c[0] - ax) * dx + (c[1] - ay) * dy) / (dx * dx + dy * dy or 1.0)))
    return math.hypot(ax + t * dx - c[0], ay + t * dy - c[1])


# -- E-DIST-MOVE, E-MOVE-KIND --------------------------------------------------------------------

def test_E_DIST_MOVE_length_is_the_path_of_the_base_centre():
    t = table(model("a", "[5, 5]"))
    p = t.plan_move("a", (8, 9))
    assert p.points[0] == (5.0, 5.0, 0.0) and p.points[-1] == (8.0, 9.0, 0.0)
    assert p.length == pytest.approx(5.0) and p.cost == pytest.approx(5.0)
    assert p.legal and p.budget == 5.0 and not p.violations


def test_E_MOVE_KIND_walk_is_SPD_and_run_twice_SPD():
    t = table(model("a", "[5, 5]", spd=4))
    walk = t.plan_move("a", (12, 5))
    run = t.plan_move("a", (12, 5), kind="run")
    assert (walk.budget, run.budget) == (4.0, 8.0)
    assert not walk.legal and "over budget" in walk.violations[0].what
    assert run.legal and run.cost == pytest.approx(7.0)
    assert movement_budget(4, "walk") == 4 and movement_budget(4, "run") == 8


def test_E_MOVE_KIND_climb_and_jump_halve_speed_rounding_up():
    assert movement_budget(5, "climb") == 3 and movement_budget(5, "jump") == 3 and movement_budget(5, "idle") == 0
    t = table(model("a", "[5, 5]"))
    with pytest.raises(RuleInputError, match="an Idle model only turns"):
        t.plan_move("a", (6, 6), kind="idle")
    assert t.plan_move("a", (6, 6), kind="climb").budget == t.plan_move("a", (6, 6), kind="jump").budget == 3


def test_E_MOVE_KIND_an_obstacle_no_taller_than_the_hitbox_is_crossed_freely():
    low = piece("low-wall", "[9, 0, 9.4, 24]", 1.0)  # across the whole table
    t = table(model("a", "[5, 10]"), low)
    p = t.plan_move("a", (13, 10), kind="run")
    assert p.length == pytest.approx(8.0) and p.legal and len(p.points) == 2
    assert t.check_move("a", [(13, 10)], kind="run").legal
    exactly = table(model("a", "[5, 10]"), piece("low-wall", "[9, 0, 9.4, 24]", "45mm"))
    assert exactly.check_move("a", [(13, 10)], kind="run").legal  # as tall as the hitbox: still crossed


def test_E_MOVE_KIND_a_solid_taller_than_the_hitbox_blocks():
    wall = piece("wall", "[9, 6, 9.4, 14]", 3.0)
    t = table(model("a", "[5, 10]", spd=8), wall)
    c = t.check_move("a", [(13, 10)], kind="run")
    assert not c.legal
    v = c.violations[0]
    assert (v.at, v.with_) == (0, "wall") and "taller than" in v.what and "E-MOVE-KIND" in v.what
    p = t.plan_move("a", (13, 10), kind="run")
    # round an end of the wall: tangent, arc round a corner (radius: the base's), along the
    # wall's end, arc, tangent; the plan's polygon is within 0.2% of the true curve
    exact = _over_the_top((5, 10), (9, 14), (9.4, 14), (13, 10), R_M)
    assert exact <= p.length <= exact * 1.002
    assert t.check_move("a", [q[:2] for q in p.points[1:]], kind="run").legal


def _over_the_top(p, c1, c2, q, r):
    """Shortest length from p round the top of two corner circles (same y) to q."""
    def side(pt, c, sign):
        d = dist_to(pt, c)
        a = math.atan2(pt[1] - c[1], pt[0] - c[0])
        t = a - sign * math.acos(r / d)  # angle of the tangent point
        arc = abs(math.remainder(t - math.pi / 2, 2 * math.pi))
        return math.sqrt(d * d - r * r) + r * arc
    return side(p, c1, 1) + (c2[0] - c1[0]) + side(q, c2, -1)


# -- E-MOVE-FRIEND, E-MOVE-ENEMY -----------------------------------------------------------------

@pytest.mark.parametrize("kind,long_", [("walk", 10), ("run", 30)])
def test_E_MOVE_KIND_the_range_stops_at_a_long_wall_whose_ends_are_out_of_reach(kind, long_):
    """(the range went on behind a thin 3" wall beside the model when both its ends were
    beyond the budget: its nearest point is on its side) The range is the disc of the
    budget cut where the wall, grown by the base, begins: x ≥ 20 − R."""
    y0 = 10 - long_ / 2
    t = loads(table_text(model("a", "[18, 10]", spd=4), piece("wall", f"[20, {y0}, 20.5, {y0 + long_}]", 3.0), size="[40, 40]"))
    r = movement_budget(4, kind)
    d = 20 - R_M - 18  # the centre's gap to the grown wall
    cut = r * r * math.acos(d / r) - d * math.sqrt(r * r - d * d)  # the disc's segment beyond it
    rng = t.movement_range("a", kind=kind)
    assert len(rng.regions) == 1 and rng.area == pytest.approx(math.pi * r * r - cut, rel=0.003)
    assert not t.plan_move("a", (21.5, 10), kind=kind).legal


def test_E_MOVE_FRIEND_passes_through_friends():
    t = table(model("a", "[5, 10]") + model("pal", "[8, 10]"))
    p = t.plan_move("a", (11, 10), kind="run")
    assert p.length == pytest.approx(6.0) and len(p.points) == 2 and p.legal
    assert t.check_move("a", [(11, 10)], kind="run").legal


def test_E_MOVE_FRIEND_enemy_blocks_the_way_and_the_plan_goes_round_out_of_contact():
    t = table(model("a", "[5, 10]") + model("foe", "[8, 10]", side="blue"))
    p = t.plan_move("a", (11, 10), kind="run")
    assert p.legal and p.stopped_at_contact is None and p.length > 6.0
    rho = 2 * R_M
    for a, b in zip(p.points, p.points[1:]):
        assert seg_point_distance(a, b, (8, 10)) > rho + 1e-3  # never in base contact
    # going round a disc of radius rho: tangents and an arc (slightly longer as a polygon)
    d = 3.0
    exact = 2 * math.sqrt(d * d - rho * rho) + rho * (math.pi - 2 * math.acos(rho / d))
    assert exact <= p.length <= exact * 1.01


def test_E_MOVE_ENEMY_a_path_into_an_enemy_is_cut_at_base_contact():
    t = table(model("a", "[5, 10]") + model("foe", "[8, 10]", side="blue"))
    c = t.check_move("a", [(11, 10), (11, 14)], kind="run")
    assert c.stopped_at_contact == "foe" and c.legal
    end = c.points[-1]
    assert dist_to(end, (8, 10)) == pytest.approx(2 * R_M, abs=1.5e-3)
    assert c.length == pytest.approx(3 - 2 * R_M, abs=1.5e-3)
    assert any("E-MOVE-ENEMY" in n for n in c.notes)


def test_E_MOVE_ENEMY_moving_to_an_enemy_ends_in_base_contact():
    t = table(model("a", "[5, 10]") + model("foe", "[8, 14]", side="blue"))
    p = t.plan_move("a", "foe")
    assert p.stopped_at_contact == "foe" and p.legal
    assert p.length == pytest.approx(5 - 2 * R_M, abs=2e-3)
    assert t.in_contact("a", "foe") is False  # the table itself is unchanged


def test_E_MOVE_ENEMY_a_path_that_only_enters_the_contact_band_is_cut_where_it_enters():
    """(a path ending 0.0003" from an enemy, inside the 0.001" band but not overlapping, was
    neither cut nor stopped: the boxes that find the pairs left the band out) E-CONTACT is a
    gap within 0.001": the move ends where the gap reaches it, stopped at contact."""
    foe = 10 + 2 * R_M + 0.0005  # straight ahead along x: contact at x = 10 - 0.0005
    t = table(model("a", "[5, 10]", spd=5) + model("foe", f"[{foe!r}, 10]", side="blue"))
    for c in (t.check_move("a", [(10.0002, 10)]), t.check_move("a", [(10.0, 10)])):
        assert c.stopped_at_contact == "foe" and c.legal
        assert c.points[-1][0] == pytest.approx(foe - 2 * R_M - CONTACT_TOL, abs=1e-9)
    assert t.plan_move("a", "foe").stopped_at_contact == "foe"


def test_E_MOVE_ENEMY_a_move_stopped_at_contact_ends_in_base_contact():
    """E-MOVE-ENEMY, E-CONTACT: a move cut where it enters base contact ends with the bases
    touching (within the contact tolerance, measured either way round), from every
    angle of approach, planned or declared; the cut lies on the contact ring (rounding
    never leaves it a hair outside)."""
    import dataclasses
    import random

    rng = random.Random(4)
    checked = 0
    for _ in range(120):
        fx, fy = 12 + rng.uniform(-2, 2), 12 + rng.uniform(-2, 2)
        ang, d = rng.uniform(0, 2 * math.pi), rng.uniform(2.0, 5.0)
        ax, ay = fx + d * math.cos(ang), fy + d * math.sin(ang)
        t = table(model("a", f"[{ax!r}, {ay!r}]") + model("foe", f"[{fx!r}, {fy!r}]", side="blue"))
        beyond = (fx - (ax - fx) * rng.uniform(0.2, 1.0) + rng.uniform(-0.3, 0.3),
                  fy - (ay - fy) * rng.uniform(0.2, 1.0) + rng.uniform(-0.3, 0.3))
        for mv in (t.check_move("a", [beyond], kind="run"), t.plan_move("a", "foe", kind="run")):
            if mv.stopped_at_contact is None:
                continue  # (a declared line that misses the foe's base)
            assert mv.stopped_at_contact == "foe" and mv.legal
            x, y, _ = mv.points[-1]
            after = t.with_model(dataclasses.replace(t.model("a"), x=x, y=y))
            assert after.in_contact("a", "foe") and after.in_contact("foe", "a")
            assert dist_to((x, y), (fx, fy)) == pytest.approx(2 * R_M, abs=1.5e-3)
            checked += 1
    assert checked >= 150


def test_E_MOVE_ENEMY_an_engaged_model_may_move_away_but_not_through():
    t = table(model("a", "[5, 10]") + model("foe", f"[{5 + 2 * R_M}, 10]", side="blue"))
    away = t.check_move("a", [(2, 10)])
    assert away.legal and away.stopped_at_contact is None
    through = t.check_move("a", [(9, 10)])
    assert not through.legal and through.violations[0].with_ == "foe"
    assert "E-MOVE-FRIEND" in through.violations[0].what


# -- E-MOVE-END, E-MOVE-SURFACE -------------------------------------------------------------------

def test_E_MOVE_END_cannot_end_with_its_hitbox_inside_another_model():
    t = table(model("a", "[5, 10]") + model("pal", "[8, 10]"))
    on = t.check_move("a", [(8.5, 10)])
    assert not on.legal and on.violations[-1].with_ == "pal" and "E-MOVE-END" in on.violations[-1].what
    touching = t.check_move("a", [(8 - 2 * R_M, 10)])
    assert touching.legal  # base contact with a friend is fine


def test_E_MOVE_END_a_plan_to_an_occupied_point_gets_as_near_as_it_can():
    t = table(model("a", "[5, 10]") + model("pal", "[8, 10]"))
    p = t.plan_move("a", (8, 10))
    assert not p.legal and "nearest point" in p.violations[-1].what
    assert dist_to(p.points[-1], (8, 10)) >= 2 * R_M - 1e-6
    assert p.length == pytest.approx(3 - 2 * R_M, abs=0.02)


def test_E_MOVE_SURFACE_a_move_does_not_end_on_a_low_piece():
    t = table(model("a", "[5, 10]"), piece("crate", "[8, 9, 10, 11]", 1.0))
    c = t.check_move("a", [(9, 10)])
    assert not c.legal and c.violations[-1].with_ == "crate" and "E-MOVE-SURFACE" in c.violations[-1].what


def test_E_MOVE_SURFACE_no_climbing_a_wall_without_a_ladder():
    t = table(model("a", "[5, 10]"), piece("house", "[8, 6, 14, 14]", 3.0, "walkable = true"))
    c = t.check_move("a", [(8 - R_M, 10), (8 - R_M, 10, 3), (10, 10, 3)])
    assert not c.legal and "Climb" in c.violations[0].what and c.violations[0].at == 1
    p = t.plan_move("a", (10, 10, 3), kind="run")
    assert not p.legal and p.points[-1][2] == 0.0  # it cannot get up there


def test_off_the_table_is_refused():
    t = table(model("a", "[2, 10]"))
    c = t.check_move("a", [(0.3, 10)])
    assert not c.legal and "off the table" in c.violations[0].what


# -- E-MOVE-LADDER, E-FALL --------------------------------------------------------------------------

HOUSE = piece("house", "[10, 8, 16, 16]", 3.0, "walkable = true\nladder = [10, 12]")


def test_E_MOVE_LADDER_the_vertical_part_costs_double():
    t = table(model("a", "[5, 12]", spd=8), HOUSE)
    p = t.plan_move("a", (13, 12, 3), kind="run")
    assert p.legal and p.points[-1] == (13.0, 12.0, 3.0)
    assert p.cost - p.length == pytest.approx(3.0)  # the 3 in climbed counts twice
    plan_length = p.length - 3.0
    assert plan_length == pytest.approx(8.0)  # straight to the ladder, over the edge, on to the point
    verticals = [(a, b) for a, b in zip(p.points, p.points[1:]) if a[:2] == b[:2]]
    assert len(verticals) == 1 and verticals[0][0][0] == pytest.approx(10 - R_M)


def test_E_MOVE_LADDER_is_the_only_way_up_and_a_declared_climb_is_checked():
    t = table(model("a", "[5, 12]", spd=8), HOUSE)
    c = t.check_move("a", [(10 - R_M, 12), (10 - R_M, 12, 3), (13, 12, 3)], kind="run")
    assert c.legal and c.cost == pytest.approx(c.length + 3.0)
    no_ladder = table(model("a", "[5, 12]", spd=8), piece("house", "[10, 8, 16, 16]", 3.0, "walkable = true"))
    assert not no_ladder.plan_move("a", (13, 12, 3), kind="run").legal


@pytest.mark.parametrize("height, rolls", [(5, 1), (6, 2), (3, 0), (9, 3)])
def test_E_FALL_rolls_per_the_rulebook_example(height, rolls):
    """SPD 6: a 5" fall is one roll, a 6" fall two; no roll up to half the Speed."""
    assert fall_rolls(height, 6) == rolls
    t = table(model("a", "[13, 12]", spd=6, z=height),
              piece("house", "[10, 8, 16, 16]", height, "walkable = true"))
    p = t.plan_move("a", (19, 12))
    assert p.legal and p.fall_rolls == rolls
    assert p.cost == pytest.approx(6.0) and p.length == pytest.approx(6.0 + height)
    drop = [(a, b) for a, b in zip(p.points, p.points[1:]) if a[:2] == b[:2]]
    assert len(drop) == 1 and drop[0][0][0] == pytest.approx(16 + R_M, abs=1e-6)  # the base just clears the edge
    declared = t.check_move("a", [(19, 12, 0)])
    assert declared.legal and declared.fall_rolls == rolls and declared.points == p.points


def test_E_FALL_no_falls_when_told_and_steps_no_taller_than_the_hitbox_are_free():
    t = table(model("a", "[13, 12]", spd=6, z=5), piece("house", "[10, 8, 16, 16]", 5, "walkable = true"))
    stuck = t.plan_move("a", (19, 12), falls=False)
    assert not stuck.legal and stuck.fall_rolls == 0
    crate = table(model("a", "[5, 12]"), piece("crate", "[8, 10, 11, 14]", 1.0, "walkable = true"))
    up = crate.plan_move("a", (9.5, 12, 1))
    assert up.legal and up.cost == pytest.approx(4.5) and up.fall_rolls == 0
    assert any("steps up" in n for n in up.notes)


# -- E-MODE ------------------------------------------------------------------------------------------

def test_E_MODE_realism_refuses_pre_measuring_a_move_unless_declared():
    t = table(model("a", "[5, 5]"), mode="realism")
    with pytest.raises(MeasurementRefused, match="realism"):
        t.plan_move("a", (8, 9))
    with pytest.raises(MeasurementRefused):
        t.movement_range("a")
    assert t.check_move("a", [(8, 9)], declared=True).legal


def test_E_MODE_standard_pre_measures_only_the_active_models_movement():
    t = table(model("a", "[5, 5]", spd=4), mode="standard")
    near = t.plan_move("a", (8, 5))
    assert near.legal and near.length == pytest.approx(3.0)
    far = t.plan_move("a", (15, 5))
    assert not far.legal and far.cost == pytest.approx(4.0) and far.points[-1][0] == pytest.approx(9.0)
    assert t.plan_move("a", (15, 5), declared=True).cost == pytest.approx(10.0)
    assert t.movement_range("a").area > 0


def test_a_model_without_speed_needs_a_budget():
    t = table(model("a", "[5, 5]", spd=None))
    with pytest.raises(SkirmishError, match="SPD"):
        t.plan_move("a", (8, 9))
    assert t.plan_move("a", (8, 9), budget=6).legal


def test_unknown_models_and_bad_points_are_clear_errors():
    t = table(model("a", "[5, 5]"))
    with pytest.raises(SkirmishError, match="no model"):
        t.plan_move("zed", (1, 1))
    with pytest.raises(SkirmishError, match="moving model itself"):
        t.plan_move("a", "a")
    with pytest.raises(SkirmishError, match=r"\(x, y\)"):
        t.check_move("a", [(1, 2, 3, 4)])
    with pytest.raises(IllegalActionError, match="z = 7"):
        t.plan_move("a", (5, 5, 7))


def test_E_MOVE_ENEMY_a_model_already_in_contact_need_not_move():
    t = table(model("a", "[5, 10]") + model("foe", f"[{5 + 2 * R_M}, 10]", side="blue"))
    p = t.plan_move("a", "foe")
    assert p.legal and p.length == 0 and len(p.points) == 1 and "already in base contact" in p.notes[-1]
