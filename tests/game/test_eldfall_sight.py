"""Sight along a path / over candidate spots (E-LOS, E-ARC, E-LOS-MOVE): the batched
answer (``probe_visibility``) against the slow oracle, one table per point; and the
bundled and generated tables made playable (E-SETUP needs a weapon with a Power)."""

from __future__ import annotations

import random

import pytest

from skirmish.errors import ScenarioError
from skirmish.game.eldfall import BUILTIN_POWER, check_playable, with_builtin_power
from skirmish.game.eldfall.settings import load_game
from skirmish.game.eldfall.sight import moved_to, sight_along
from skirmish.rules.eldfall.weapons import BUILTIN_WEAPONS
from skirmish.scenario.generate import random_table
from skirmish.scenario.load import load

from conftest import SCENARIOS


def _oracle(table, model, p, others):
    t = moved_to(table, model, p)
    front = [s.visible for s in t.line_of_sight_pairs([(o, model.id) for o in others])]
    around = [s.visible for s in t.line_of_sight_pairs([(model.id, o) for o in others], arc="all")]
    return front, around


@pytest.mark.parametrize("seed", [1, 2])
def test_e_los_e_arc_sight_along_matches_one_table_per_point(seed):
    table = load(SCENARIOS / "mill-ambush.toml")
    rng = random.Random(seed)
    m = rng.choice(table.models)
    others = [o.id for o in table.models if o.side != m.side]
    pts = [(rng.uniform(0.5, table.width - 0.5), rng.uniform(0.5, table.depth - 0.5), 0.0) for _ in range(12)]
    pts.append((m.x, m.y, m.z))  # where it stands
    pts.append((pts[0][0], pts[0][1], 2.5))  # in the air: not where the probe would stand (one-table path)
    s = sight_along(table, m, pts, others, both=True)
    assert s.others == tuple(others) and s.sees is not None
    for i, p in enumerate(pts):
        front, around = _oracle(table, m, p, others)
        assert list(s.seen_by[i]) == front, (m.id, p)
        assert list(s.sees[i]) == around, (m.id, p)
        assert s.tables[i].model(m.id).x == pytest.approx(p[0])


def test_moved_to_gives_the_same_table_for_the_same_point():
    table = load(SCENARIOS / "mill-ambush.toml")
    m = table.models[0]
    a = moved_to(table, m, (m.x + 1.0, m.y, m.z))
    assert moved_to(table, m, (m.x + 1.0, m.y, m.z)) is a
    assert moved_to(table, m, (m.x + 2.0, m.y, m.z)) is not a
    assert moved_to(table, m, (m.x, m.y, m.z)) is table


@pytest.mark.parametrize("name", ["first-steps.toml", "dense-ruins.toml", "mill-ambush.toml"])
def test_e_setup_bundled_scenarios_are_playable(name):
    table, settings, _ = load_game(str(SCENARIOS / name))
    assert len(table.sides) == 2 and settings.rounds >= 1


def test_e_setup_generated_table_needs_power_and_with_builtin_power_gives_it():
    t = random_table(random.Random(5), models=4, scenery=6)
    with pytest.raises(ScenarioError, match="Power"):
        check_playable(t)
    powered = with_builtin_power(t)
    check_playable(powered)
    by_name = {BUILTIN_WEAPONS[k].name: v for k, v in BUILTIN_POWER.items()}
    for m in powered.models:
        for w in m.weapons:
            assert w.pw == by_name[w.name]
    declared = load(SCENARIOS / "mill-ambush.toml")  # redeclared built-ins keep their own Power
    assert with_builtin_power(declared, {"sword": 99, "short-bow": 99}).models == declared.models
    with pytest.raises(ScenarioError, match="not a built-in weapon"):
        with_builtin_power(t, {"longbow": 11})


@pytest.mark.parametrize("seed", [3, 4])
def test_e_los_e_arc_seen_by_alone_matches_one_table_per_point(seed):
    """The reactions' sight (front arcs only, no 360° search) on the table without the
    mover equals the answer on the table with the mover moved to each point, in the
    air and overlapping scenery included."""
    table = load(SCENARIOS / "mill-ambush.toml")
    rng = random.Random(seed)
    m = rng.choice(table.models)
    others = [o.id for o in table.models if o.side != m.side]
    pts = [(rng.uniform(0.5, table.width - 0.5), rng.uniform(0.5, table.depth - 0.5), 0.0) for _ in range(12)]
    pts += [(m.x, m.y, m.z), (pts[0][0], pts[0][1], 2.5)]
    s = sight_along(table, m, pts, others)
    assert s.sees is None and s.others == tuple(others)
    for i, p in enumerate(pts):
        assert list(s.seen_by[i]) == _oracle(table, m, p, others)[0], (m.id, p)


def test_e_los_seen_by_a_piece_resting_on_the_mover_floats_once_it_has_left():
    """E-LOS heights: a slab whose base is the mover's top and whose footprint lies inside
    its base blocks from the table up while the mover holds it up. Seen at another point
    of its path, the mover has left: the slab floats and the reactor sees under it (as on
    the one table with the mover moved there), although the table as it stands would
    say blocked."""
    from skirmish.game.eldfall import sight
    from skirmish.scenario.load import loads

    models = ('format = 1\ntable = { size = [24, 24] }\n'
              'models = [{ id = "r", side = "blue", size = "M", at = [10, 10] },\n'
              '          { id = "m", side = "red", size = "L", at = [14, 10] }]\n')
    m = loads(models).model("m")
    table = loads(models + f'scenery = [{{ id = "slab", circle = [14, 10, {m.radius - 0.01}], '
                           f'base = {m.hitbox_height - 0.001}, height = 3 }}]\n')
    m = table.model("m")
    far = (18.0, 10.0, 0.0)
    assert sight._holds_up(table, m)
    oracle = _oracle(table, m, far, ["r"])[0]
    assert oracle == [True]
    assert list(sight_along(table, m, [far], ["r"]).seen_by[0]) == oracle
    # the table as it stands (the slab grounded through the mover) would block it
    as_it_stands = sight._seen_by(table, m, [far], ("r",))
    assert [a.visible for a in as_it_stands] == [False]
