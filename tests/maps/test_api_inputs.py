"""Bad input to the library's table API is a SkirmishError naming it, never a raw
error, a hang or a wrong answer (found by an API fuzz): far or non-finite move points
(E-MOVE-*), huge rigid motions, visible_fraction's arguments (E-LOS, E-ARC), measurement
mode names (E-MODE) and the probes' tolerance."""

from __future__ import annotations

import math
import re
import time

import numpy as np
import pytest

import skirmish
from skirmish.errors import ScenarioError, SkirmishError
from skirmish.maps.probes import probe_visibility
from skirmish.maps.transform import rigid_motion

from conftest import SCENARIOS

MILL = SCENARIOS / "mill-ambush.toml"
FIRST = SCENARIOS / "first-steps.toml"


@pytest.fixture(scope="module")
def mill():
    return skirmish.load(MILL)


@pytest.mark.parametrize("to, kind, says", [
    ((10, 10, 1e6), "jump", "a jump's point"), ((10, 10, 1e9), "jump", "above 240 in"),
    ((1e20, 5), "climb", "a climb's point (1e+20, 5.0) is further off the 30 x 30 in table"),
    ((1e20, 5), "walk", "a target point (1e+20, 5.0) is further off"), ((-31, 5), "run", "further off"),
    ((math.nan, 1), "climb", "a climb's point is (x, y) or (x, y, z)"), (("a", "b"), "walk", "a target point is"),
])
def test_E_MOVE_a_point_far_off_the_table_or_not_a_number_is_refused_at_once(mill, to, kind, says):
    t = time.process_time()
    with pytest.raises(SkirmishError, match=re.escape(says)):
        mill.plan_move("akane", to, kind=kind, budget=10)
    assert time.process_time() - t < 2  # (a jump aimed 1e6 in up searched for 100 s)


def test_E_MOVE_a_declared_path_point_is_checked_for_every_kind(mill):
    for kind in ("walk", "climb", "jump"):
        with pytest.raises(SkirmishError, match="path point 1 is"):
            mill.check_move("akane", [(math.nan, 1)], kind=kind)
    assert mill.plan_move("akane", (-5, 5), kind="walk").points  # (a little off the table: the nearest point)


def test_rigid_motion_turns_positions_and_facings_by_one_angle():
    t = skirmish.load(FIRST)
    huge, same = rigid_motion(t, 1e20), rigid_motion(t, 1e20 % 360)
    assert [(m.x, m.y, m.facing) for m in huge.models] == [(m.x, m.y, m.facing) for m in same.models]
    assert huge.arc("akane", "brute") == t.arc("akane", "brute")
    for bad in (dict(angle=math.nan), dict(angle=math.inf), dict(dx=1e300), dict(dy=math.nan)):
        with pytest.raises(SkirmishError, match="a rigid motion takes a finite angle"):
            rigid_motion(t, **bad)


@pytest.mark.parametrize("kw, says", [(dict(arc="x"), "arc must be 'front' or 'all'"),
                                      (dict(tolerance=-5), "tolerance must be a length above 0"),
                                      (dict(tolerance=0), "above 0"), (dict(tolerance=math.nan), "above 0"),
                                      (dict(samples=0), "samples must be a whole number 2..256"),
                                      (dict(samples=10**6), "2..256"), (dict(samples=2.5), "2..256")])
def test_E_LOS_visible_fraction_checks_its_arguments_as_line_of_sight_does(mill, kw, says):
    with pytest.raises(SkirmishError, match=says):
        mill.visible_fraction("akane", "raider-3", **kw)


def test_E_MODE_a_mode_is_named_in_any_case_and_a_wrong_one_is_refused(mill):
    assert mill.measure("akane", "brute", mode="ASSISTED").distance == mill.measure("akane", "brute").distance
    for call in (lambda: mill.measure("akane", "brute", mode="xx"),
                 lambda: mill.plan_move("akane", (10, 10), mode="x"),
                 lambda: mill.template("circle-small", on="brute", mode="nope")):
        with pytest.raises(SkirmishError, match="unknown measurement mode"):
            call()


def test_E_LOS_probes_take_the_tolerance_line_of_sight_takes(mill):
    with pytest.raises(SkirmishError, match="at most 1 in"):
        probe_visibility(mill, [[10.0, 10.0]], "M", "red", tolerance=5.0)


@pytest.mark.parametrize("kw, says", [(dict(width=1), "width must be 6..240 in"), (dict(depth=math.nan), "depth"),
                                      (dict(width=-10), "width"), (dict(scenery=-1), "scenery must be a whole number"),
                                      (dict(models=2.5), "models"), (dict(sizes=""), "sizes must be letters"),
                                      (dict(sizes="X"), "sizes"), (dict(sides=("red",)), "sides must be two"),
                                      (dict(sides=("red", "red")), "two distinct"), (dict(roof_share=2), "0..1")])
def test_random_table_refuses_arguments_that_give_a_table_the_loader_would_refuse(kw, says):
    import random

    from skirmish.scenario.generate import random_table
    with pytest.raises(SkirmishError, match=says):
        random_table(random.Random(1), **kw)


def test_E_SETUP_play_game_checks_the_table_the_policies_and_first_as_load_game_does():
    """A table with one side, a model without SPD, a side without a policy or a `first`
    that is no side: refused before playing (an IndexError, a KeyError or an empty game)."""
    import dataclasses
    import random

    from skirmish.game.eldfall import parse_settings, play_game
    from skirmish.game.eldfall.settings import GameSettings
    from skirmish.game.policy import load_policy
    mill = skirmish.load(MILL)
    pol = {s: load_policy("random", "eldfall") for s in ("red", "blue")}
    settings = parse_settings(None, mill)
    red_only = dataclasses.replace(mill, models=tuple(m for m in mill.models if m.side == "red"))
    no_spd = mill.with_model(dataclasses.replace(mill.model("akane"), attributes={
        k: v for k, v in mill.model("akane").attributes.items() if k != "SPD"}))
    for table, policies, st, says in (
            (red_only, pol, settings, "needs exactly two sides"), (no_spd, pol, settings, "'akane' has no SPD"),
            (mill, {"red": pol["red"]}, settings, "no policy for side blue"),
            (mill, pol, dataclasses.replace(GameSettings(), rounds=2, first="green"), "first = 'green' is not a side")):
        with pytest.raises(SkirmishError, match=says):
            play_game(table, st, policies, random.Random(1), seed=1)


def test_an_id_of_the_wrong_type_is_named_not_matched(mill):
    """difflib raised TypeError looking for a close match to None."""
    for call in (lambda: mill.distance("akane", None), lambda: mill.model(None),
                 lambda: mill.line_of_sight(None, "akane")):
        with pytest.raises(skirmish.UnknownIdError, match="id is a string, got None"):
            call()


@pytest.mark.parametrize("kw, says", [
    ({"x": math.nan}, "x must be a finite number, got nan"), ({"facing": math.inf}, "facing must be a finite"),
    ({"y": "3"}, "y must be a finite number, got '3'"), ({"z": True}, "z must be a finite number"),
    ({"size": "Q"}, "size must be one of S, M"), ({"diameter": 0.0}, "diameter must be a positive length"),
    ({"height": -1.0}, "height must be a positive length"),
])
def test_E_HITBOX_a_model_no_rule_could_measure_is_refused_where_it_is_made(mill, kw, says):
    # (a NaN x went into the table and failed later in GEOS, far from its cause)
    akane = mill.model("akane")
    fields = {"id": "akane", "side": akane.side, "size": akane.size, "x": akane.x, "y": akane.y, **kw}
    with pytest.raises(ScenarioError, match=re.escape(f"model 'akane': {says}")):
        skirmish.Model(**fields)
    moved = skirmish.Model(**{"id": "akane", "side": akane.side, "size": akane.size, "x": 3, "y": np.float64(4.5)})
    assert mill.with_model(moved).model("akane").x == 3  # (any real number: numpy's too)


def test_E_MOVE_whole_number_points_check_as_floats_without_a_warning():
    # (whole numbers made an int array that NaN was cast into: "invalid value encountered in cast")
    import warnings
    mover = skirmish.Model("a", "red", "M", 2, 2, attributes={"SPD": 5})
    wall = skirmish.load(FIRST).scenery
    ints = skirmish.Table(12, 12, (mover,), wall)
    floats = skirmish.Table(12, 12, (skirmish.Model("a", "red", "M", 2.0, 2.0, attributes={"SPD": 5}),), wall)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for path in ([(5, 5)], [(2, 9), (9, 9)], [(6, 2), (6, 10)]):
            a = ints.check_move("a", path)
            b = floats.check_move("a", [tuple(float(c) for c in p) for p in path])
            assert (a.legal, a.length, [v.what for v in a.violations]) == \
                (b.legal, b.length, [v.what for v in b.violations])


@pytest.mark.parametrize("make, says", [
    (lambda a, b: skirmish.Table(10, 10, (a, b, a)), "duplicate id 'a'"),  # (distance_matrix named 'a' twice)
    (lambda a, b: skirmish.Table(-10, 10, (a,)), "table width must be a length above 0"),
    (lambda a, b: skirmish.Table(10, math.nan), "table depth must be a length above 0"),
    (lambda a, b: skirmish.Table("10", 10), "table width must be a length above 0"),
    (lambda a, b: skirmish.Table(10, 10, mode="bogus"), "unknown measurement mode 'bogus'"),
    (lambda a, b: skirmish.Model("c", "red", "M", 1, 1, states="Crouched"), "states must be a set of state names"),
    (lambda a, b: skirmish.Model("c", 3, "M", 1, 1), "side must be a string"),
    (lambda a, b: skirmish.Model("", "red", "M", 1, 1), "id must be a non-empty string"),
])
def test_a_table_built_by_hand_is_refused_where_the_loader_would_refuse_it(make, says):
    # (each was accepted, and a game or a matrix went on with it)
    a, b = skirmish.Model("a", "red", "M", 2, 2), skirmish.Model("b", "blue", "M", 5, 5)
    with pytest.raises(SkirmishError, match=re.escape(says)):
        make(a, b)


def test_results_print_short_and_the_package_says_it_is_typed():
    # (a MoveRange printed every vertex, 18 KB on dense-ruins; a GameRecord its whole log)
    import pathlib
    import random

    from skirmish.game.eldfall import load_game, play_game
    from skirmish.game.policy import load_policy

    t = skirmish.load(SCENARIOS / "dense-ruins.toml")
    r = t.movement_range(t.model_ids[0])
    assert len(repr(r)) < 120 and repr(r).startswith(f"MoveRange({t.model_ids[0]!r}, budget ")
    table, settings, _ = load_game(str(SCENARIOS / "mill-ambush.toml"))
    rec = play_game(table, settings, {s: load_policy("random", "eldfall") for s in ("red", "blue")}, random.Random(1),
                    seed=1)
    assert len(repr(rec)) < 160 and f"{len(rec.events)} events" in repr(rec)
    assert (pathlib.Path(skirmish.__file__).parent / "py.typed").exists()  # (PEP 561: mypy reads the hints)


def test_wrong_types_at_the_library_s_door_are_named(mill):
    # (raw TypeError / ValueError, or "5" silently taken as 5 in)
    from skirmish.analysis.heatmap import heatmap
    for call, says in ((lambda: heatmap(mill, "red", "M", "3"), "--step must be a positive length"),
                       (lambda: mill.template("spray-large", by="akane", direction="north"), "direction= is an angle"),
                       (lambda: mill.line_of_sight_pairs([("akane",)]), "pairs are (from, to) model ids"),
                       (lambda: mill.plan_move("akane", (10, 18), budget="5"), "a movement budget is a number"),
                       (lambda: mill.check_move("akane", "10,18"), "a declared path is a list of points")):
        with pytest.raises(SkirmishError, match=re.escape(says)):
            call()


def test_load_with_a_kind_returns_that_kind_or_names_what_the_file_is():
    # (a typed caller had to cast load()'s Map to a Table before table-only calls)
    assert isinstance(skirmish.load(SCENARIOS / "first-steps.toml", skirmish.Table), skirmish.Table)
    assert isinstance(skirmish.load(SCENARIOS / "party-hard-maze.toml", skirmish.Grid), skirmish.Grid)
    assert isinstance(skirmish.load(SCENARIOS / "island.toml", skirmish.Regions), skirmish.Regions)
    with pytest.raises(skirmish.ScenarioError, match=r"party-hard-maze.toml: a grid map \(Grid\), not a Table"):
        skirmish.load(SCENARIOS / "party-hard-maze.toml", skirmish.Table)
    with pytest.raises(skirmish.ScenarioError, match=r"<string>: a table map \(Table\), not a Grid"):
        skirmish.loads((SCENARIOS / "first-steps.toml").read_text(encoding="utf-8"), kind=skirmish.Grid)
