"""Deployment by policy (E-DEPLOY, E-SETUP) when the scenario's models have no position."""

from __future__ import annotations

import json
import random
import re

import pytest

from skirmish.cli import main
from skirmish.errors import ScenarioError
from skirmish.game.eldfall import EldfallGame, IllegalChoice, parse_settings
from skirmish.game.eldfall.deploy import edge_zone, placement_problem
from skirmish.game.policy import RandomPolicy, load_policy
from skirmish.scenario.load import loads

from eldfall_fixtures import WEAPONS
from eldfall_policies import Driven

ATTRS = "AGI = 6, SPD = 4, STA = 1, MEL = 12, ARM = 1, HP = 2"


def _unplaced(mid: str, side: str) -> str:
    return f'[[models]]\nid = "{mid}"\nside = "{side}"\nsize = "M"\nweapons = ["sword"]\nattributes = {{ {ATTRS} }}\n'


def _text(game: str = "", scenery: str = "") -> str:
    models = "".join(_unplaced(f"r{i}", "red") for i in range(3)) + "".join(_unplaced(f"b{i}", "blue") for i in range(3))
    return f"format = 1\n{WEAPONS}\n{game}\n[table]\nsize = [24, 24]\n{scenery}\n{models}"


def _inside(m, zone) -> bool:
    return zone[0] <= m.x - m.radius + 1e-9 and m.x + m.radius <= zone[2] + 1e-9 and \
        zone[1] <= m.y - m.radius + 1e-9 and m.y + m.radius <= zone[3] + 1e-9


@pytest.mark.parametrize("spec", ["random", "greedy"])
def test_e_deploy_models_without_position_deploy_in_8_inch_strips(spec):
    table = loads(_text(scenery='[[scenery]]\nid = "hut"\nrect = [2, 1, 6, 5]\nheight = 3\nwalkable = true\n'))
    assert table.models == () and len(table.catalogue.reserve) == 6
    for seed in range(4):
        g = EldfallGame(table, parse_settings({"first": "red"}, table),
                        {s: load_policy(spec, "eldfall") for s in ("red", "blue")}, random.Random(seed))
        deployed = [e for e in g.events if e["role"] == "deploy"]
        assert [e["model"] for e in deployed] == ["r0", "b0", "r1", "b1", "r2", "b2"]  # sides take turns, first first
        t = g.state.table
        assert len(t.models) == 6 and t.catalogue.reserve == ()
        for side in ("red", "blue"):
            zones = [tuple(e["zone"]) for e in deployed if e["active"] == side]
            assert len(set(zones)) == 1 and zones[0] in {edge_zone(t, edge, 8) for edge in ("south", "north",
                                                                                             "west", "east")}
            for m in t.models_of_side(side):
                assert _inside(m, zones[0])
                assert placement_problem(t, m, m.x, m.y, m.z, zones[0]) is None  # legal with all placed
        red_zone = next(tuple(e["zone"]) for e in deployed if e["active"] == "red")
        blue_zone = next(tuple(e["zone"]) for e in deployed if e["active"] == "blue")
        assert red_zone != blue_zone
        g.play()  # and the game plays from there


def test_e_deploy_zones_from_settings_and_the_second_side_chooses_an_edge():
    table = loads(_text('[game]\nzones = { red = [0, 0, 24, 4], blue = "north" }\n'))
    settings = parse_settings({"zones": {"red": [0, 0, 24, 4], "blue": "north"}, "first": "blue"}, table)
    g = EldfallGame(table, settings, {s: RandomPolicy() for s in ("red", "blue")}, random.Random(1))
    for m in g.state.table.models_of_side("red"):
        assert _inside(m, (0, 0, 24, 4))
    for m in g.state.table.models_of_side("blue"):
        assert _inside(m, (0, 16, 24, 24))
    # no zones: the second side (blue, when red is first) chooses its edge; red takes the opposite
    pick = Driven()
    pick.choose = lambda game, d, rng: "west" if d.kind == "zone" else d.options[0]  # type: ignore[method-assign]
    g = EldfallGame(table, parse_settings({"first": "red"}, table), {"red": Driven(), "blue": pick},
                    random.Random(1))
    assert all(m.x <= 8 for m in g.state.table.models_of_side("blue"))
    assert all(m.x >= 16 for m in g.state.table.models_of_side("red"))


def test_e_deploy_illegal_spot_is_refused():
    table = loads(_text())

    class Cheat:
        def choose(self, game, d, rng):
            return (12.0, 12.0, 0.0) if d.kind == "deploy" else d.options[0]

    with pytest.raises(IllegalChoice, match="not wholly inside its zone"):
        EldfallGame(table, parse_settings({"first": "red"}, table), {"red": Cheat(), "blue": Cheat()},
                    random.Random(1))


def test_e_deploy_bad_zones_setting_is_a_clear_error():
    table = loads(_text())
    with pytest.raises(ScenarioError, match="zones must name every side"):
        parse_settings({"zones": {"red": "south"}}, table)
    with pytest.raises(ScenarioError, match="zones.red"):
        parse_settings({"zones": {"red": "up", "blue": "north"}}, table)


@pytest.mark.parametrize("game, says", [
    ({"zone_depth": 13}, "zone_depth = 13 in: the two sides' strips along opposite edges would overlap"),
    ({"zones": {"red": "south", "blue": "south"}}, "zones.red ('south') and zones.blue ('south') overlap"),
    ({"zones": {"red": "south", "blue": [30, 30, 40, 40]}}, "zones.blue [30, 30, 40, 40] reaches off the 24 x 24"),
    ({"zones": {"red": "south", "blue": [0, 23, 1, 24]}}, "is narrower than b0's base (1.26 in)"),
    ({"zone_depth": "1cm"}, "zone_depth = 0.393701 in is narrower than"),
])
def test_e_deploy_zones_that_cannot_be_deployed_in_are_refused_at_load(game, says):
    # (each was accepted by check; play then put blue among red, or failed with no file named)
    with pytest.raises(ScenarioError, match=re.escape(says)):
        parse_settings(game, loads(_text()))
    got = parse_settings({"zone_depth": "10in", "zones": {"red": "south", "blue": [0, "50cm", 24, 24]}}, loads(_text()))
    assert got.zone_depth == 10 and got.zones["blue"] == pytest.approx((0, 50 / 2.54, 24, 24))  # (lengths take units)


def test_e_deploy_cli_logs_deployment(tmp_path, capsys):
    p = tmp_path / "deploy.toml"
    p.write_text(_text('[game]\nrounds = 1\n'), encoding="utf-8")
    assert main(["play", str(p), "--policy", "random", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.index("Deployment") < out.index("Round 1") and "deploys at" in out
    assert main(["play", str(p), "--policy", "random", "--seed", "2", "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert sum(e.get("role") == "deploy" for e in lines) == 6


def test_e_deploy_a_logged_deployment_replays(tmp_path, capsys):
    from skirmish.game.eldfall.replay import load_replay

    p = tmp_path / "deploy.toml"
    p.write_text(_text('[game]\nrounds = 1\n'), encoding="utf-8")
    assert main(["play", str(p), "--policy", "random", "--seed", "3", "--json"]) == 0
    log = tmp_path / "game.jsonl"
    log.write_text(capsys.readouterr().out, encoding="utf-8")
    deployed = {e["model"]: e["at"] for e in map(json.loads, log.read_text().splitlines()) if e.get("role") == "deploy"}
    rp = load_replay(loads(p.read_text()), str(log))
    start = rp.table_at(0)
    assert {m.id: [m.x, m.y, m.z] for m in start.models} == deployed
    rp.table_at(len(rp))  # every later step starts where the replay has its model


def test_e_deploy_games_report_same_for_any_workers(tmp_path, capsys):
    p = tmp_path / "deploy.toml"
    p.write_text(_text('[game]\nrounds = 1\n'), encoding="utf-8")
    assert main(["play", str(p), "--policy", "random", "--seed", "4", "--games", "2", "--json"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert main(["play", str(p), "--policy", "random", "--seed", "4", "--games", "2", "--workers", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == one and set(one["survival"]) == {f"{s}{i}" for s in "rb"
                                                                                  for i in range(3)}
