"""A save loses nothing: load → save → load gives an equal table with the same weapon
keys, profiles, script and [game] settings, and every command that worked on the original works the
same on the saved file (E-PROFILE, E-ITEM, E-STATE, E-MOVE-LADDER, E-MODE)."""

from __future__ import annotations

import dataclasses

import pytest

import skirmish
from skirmish.cli import main
from skirmish.scenario.dump import dumps, write_scenario
from skirmish.scenario.load import loads

from conftest import SCENARIOS, table_text

TABLES = ["mill-ambush.toml", "first-steps.toml", "dense-ruins.toml", "eldfall/tower-deploy.toml"]


@pytest.mark.parametrize("name", TABLES)
def test_e_profile_save_round_trip_keeps_everything(name, tmp_path):
    t = skirmish.load(SCENARIOS / name)
    path = write_scenario(t, tmp_path / name.replace("/", "-"))
    back = skirmish.load(path)
    assert back == t and back.catalogue == t.catalogue
    assert dumps(back) == dumps(t)
    assert [m.profile for m in back.models] == [m.profile for m in t.models]
    assert [s.ladders for s in back.scenery] == [s.ladders for s in t.scenery]


def test_e_item_catalogue_keys_are_kept():
    """The mill's [weapons.sword] overrides the built-in sword: its key stays "sword"."""
    t = skirmish.load(SCENARIOS / "mill-ambush.toml")
    text = dumps(t)
    assert "[weapons.sword]" in text and "sword-2" not in text
    assert [k for k, _ in loads(text).catalogue.weapons] == [k for k, _ in t.catalogue.weapons]


def test_an_edited_model_keeps_its_profile_or_states_its_own_values():
    t = skirmish.load(SCENARIOS / "mill-ambush.toml")
    akane = t.model("akane")
    moved = t.with_model(dataclasses.replace(akane, x=9.0, states=frozenset({"Crouched"}),
                                             attributes={**akane.attributes, "HP": 1}))
    back = loads(dumps(moved))
    assert back == moved and back.model("akane").profile == "ronin"
    assert back.model("akane").attributes["HP"] == 1 and back.model("akane").states == {"Crouched"}


def test_e_mode_and_states_survive():
    text = table_text('[[models]]\nid = "x"\nside = "red"\nsize = "M"\nat = [5, 5]\nstates = ["Prone", "Fatigued"]\n',
                      extra='mode = "realism"')
    t = loads(text)
    back = loads(dumps(t))
    assert back == t and back.mode.value == "realism" and back.model("x").states == {"Prone", "Fatigued"}


def _out(capsys, argv: list[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().out


def test_every_command_works_the_same_on_the_saved_file(tmp_path, capsys):
    src = SCENARIOS / "mill-ambush.toml"
    saved = write_scenario(skirmish.load(src), tmp_path / "mill-ambush.toml")
    for argv in (["check", "{}", "--json"], ["run", "{}", "--seed", "3"], ["los", "{}", "--all"],
                 ["attack", "{}", "raider-1", "yumi"], ["measure", "{}", "akane", "brute"],
                 ["move", "{}", "kenji", "--to", "8,10"], ["template", "{}", "circle-small", "--on", "raider-3"]):
        a = _out(capsys, [str(src) if x == "{}" else x for x in argv])
        b = _out(capsys, [str(saved) if x == "{}" else x for x in argv])
        assert a[0] == 0 and a == b, argv


def test_e_round_the_game_settings_survive_a_save_and_play_the_same_game(tmp_path, capsys):
    # ([game] was dropped: the saved tower played 5 rounds, not 3, and deployed elsewhere)
    src = SCENARIOS / "eldfall" / "tower-deploy.toml"
    t = skirmish.load(src)
    assert t.catalogue.game == {"rounds": 3, "zones": {"red": "south", "blue": "north"}}
    saved = write_scenario(t, tmp_path / "tower.toml")
    argv = ["play", "{}", "--seed", "3", "--policy", "red=greedy,blue=random", "--json"]
    a = _out(capsys, [str(src) if x == "{}" else x for x in argv])
    b = _out(capsys, [str(saved) if x == "{}" else x for x in argv])
    assert a[0] == 0 and a == b
    odd = loads(table_text(extra='game = "chess"'))  # (not settings: kept as written; play names it)
    assert odd.catalogue.game == "chess" and loads(dumps(odd)).catalogue.game == "chess"


def test_a_table_with_its_catalogue_pickles():
    """Worker processes and Dask ship tables by pickle: the catalogue goes along."""
    import pickle

    t = skirmish.load(SCENARIOS / "mill-ambush.toml")
    back = pickle.loads(pickle.dumps(t))
    assert back == t and back.catalogue == t.catalogue and dumps(back) == dumps(t)


def test_every_map_and_a_game_s_result_pickles():
    """Worker processes, Dask and a user's own caches pickle values: the grid and a Party
    Hard game's result hold read-only mappings, which did not pickle."""
    import pickle
    import random

    from skirmish.game.partyhard import play_game
    from skirmish.game.policy import parse_policy_specs

    for name in ("party-hard-maze.toml", "island.toml", "mill-ambush.toml"):
        m = skirmish.load(SCENARIOS / name)
        assert pickle.loads(pickle.dumps(m)) == m
    grid = skirmish.load(SCENARIOS / "party-hard-maze.toml")
    r = play_game(grid, parse_policy_specs("random", grid.players, "partyhard", default="greedy"), random.Random(1),
                  seed=1)
    back = pickle.loads(pickle.dumps(r))
    assert back.summary() == r.summary() and back.events == r.events
