"""Decks as data in grid scenarios ([game]: P-SETUP, P-LOOT, P-ANIMA) and the P-LOOT counts."""

from __future__ import annotations

import random

import pytest

import skirmish
from skirmish import ScenarioError
from skirmish.cli import main
from skirmish.rules.partyhard import Element, Fighter, SideSetup, Stats, resolve_fight
from skirmish.rules.partyhard.decks import creature_rewards
from skirmish.rules.partyhard.state import FightSetup
from skirmish.scenario.load import loads

from conftest import SCENARIOS

MAZE = SCENARIOS / "party-hard-maze.toml"
STATS = "stats = { attack = 2, defense = 1, health = 4, energy = 3 }"


def scenario(game: str = "", chars: str = "", rooms: str = '["..V"]', legend: str = "treasure = 3") -> str:
    chars = chars or (f'[[characters]]\nid = "a"\nplayer = "red"\nroom = [0, 0]\n{STATS}\n'
                      f'[[characters]]\nid = "b"\nplayer = "blue"\nroom = [1, 0]\n{STATS}\n')
    return (f'format = 1\nmap = "grid"\n[grid]\nrooms = {rooms}\n[grid.legend.V]\nname = "Vault"\n{legend}\n'
            f'{chars}\n{game}\n')


CARDS = ('[game.creatures.rat]\ncopies = 2\nstats = { attack = 1, defense = 0, health = 2, energy = 0 }\n'
         'attack_element = "matter"\n')


def refused(text: str) -> str:
    with pytest.raises(ScenarioError) as info:
        loads(text, "deck.toml")
    return str(info.value)


def test_the_maze_is_a_game_with_decks():
    g = skirmish.load(MAZE)
    assert g.game is not None and g.game.anima == 3 and g.game.turns == 50
    assert len(g.game.creatures) == 8 and sum(c.unique for c in g.game.creatures) == 1
    assert {lair.room for lair in g.game.lairs} == {(1, 0), (3, 2), (5, 0), (1, 3)}
    assert g.game.vault((4, 0)).price == 3 and (g.game.vault((4, 0)).items, g.game.vault((4, 0)).abilities) == (1, 1)
    assert "Ember Blade" in [i.name for i in g.game.items] and "Mending Light" in [a.name for a in g.game.abilities]


def test_a_game_section_reads_every_field():
    g = loads(scenario('[game]\nanima = 2\nturns = 7\nitems = ["void-shard", "void-shard"]\nabilities = ["hex"]\n'
                       'lairs = [{ room = [1, 0], creatures = 2 }]\nvaults = [{ room = [2, 0], abilities = 2 }]\n'
                       + CARDS))
    assert (g.game.anima, g.game.turns, len(g.game.items), len(g.game.abilities)) == (2, 7, 2, 1)
    assert [c.key for c in g.game.creatures] == ["rat", "rat"] and g.game.creatures[0].fighter.side == "creatures"
    v = g.game.vault((2, 0))
    assert (v.price, v.items, v.abilities) == (3, 0, 2)


def test_a_priced_room_without_a_vault_entry_gives_one_item():
    g = loads(scenario("[game]\n"))
    assert g.game.vault((2, 0)).items == 1 and g.game.vault((2, 0)).price == 3


def test_no_game_section_no_game():
    assert loads(scenario()).game is None


@pytest.mark.parametrize("game, message", [
    ("[game]\nlairs = [{ room = [1, 0], creatures = 3 }]\n" + CARDS,
     "deck.toml: game: creatures: the creature deck has 2 cards, too few for the lairs, which lay out 3"),
    ("[game]\nlairs = [{ room = [1, 0], creatures = 1 }]\n",
     "the creature deck has 0 cards, too few for the lairs"),
    ("[game]\nitems = [\"void-shard\", \"sword-of-nope\"]\n", "game: items: unknown item \"sword-of-nope\""),
    ("[game]\nabilities = [\"fireball\"]\n", "game: abilities: unknown ability \"fireball\""),
    ("[game]\nvaults = [{ room = [1, 0], items = 1 }]\n",
     "game.vaults[0]: room: the vault in room [1, 0] has no price: give its room a legend mark with treasure = N"),
    ("[game]\nvaults = [{ room = [2, 0] }]\n", "game.vaults[0]: items: a vault gives at least one card"),
    ("[game]\nlairs = [{ room = [7, 0], creatures = 1 }]\n" + CARDS, "game.lairs[0]: room: no room at [7, 0]"),
    ("[game]\nanima = -1\n", "game: anima: expected a whole number 0 or more, got -1"),
    ("[game]\nturns = 0\n", "game: turns: expected a whole number 1 or more, got 0"),
    ("[game]\nbogus = 1\n", "bogus"),
    ("[game.creatures.rat]\nstats = { attack = 1, defense = 0, health = 2, energy = 0 }\n",
     "game.creatures.rat: attack_element: required field is missing"),
])
def test_bad_game_sections_name_the_entry(game, message):
    assert message in refused(scenario(game))


def test_a_lair_on_a_room_with_creatures_is_refused():
    beast = '[[creatures]]\nid = "ooze"\nroom = [1, 0]\n' + STATS + '\nattack_element = "void"\n'
    msg = refused(scenario("[game]\nlairs = [{ room = [1, 0], creatures = 1 }]\n" + CARDS + beast))
    assert "game.lairs[0]: room: room [1, 0] already holds [[creatures]]" in msg


def test_a_character_with_three_abilities_is_refused():
    bad = (f'[[characters]]\nid = "a"\nplayer = "red"\nroom = [0, 0]\n{STATS}\nabilities = ["hex", "mend", "jolt"]\n'
           f'[[characters]]\nid = "b"\nplayer = "blue"\nroom = [1, 0]\n{STATS}\n')
    assert 'characters[0] (id "a"): abilities: a character has at most 2 abilities, got 3' in refused(
        scenario("[game]\n", chars=bad))


def test_more_than_four_of_one_player_in_a_starting_room_is_refused():
    five = "".join(f'[[characters]]\nid = "c{i}"\nplayer = "red"\nroom = [0, 0]\n{STATS}\n' for i in range(5))
    assert "room [0, 0] already holds 4 characters of red" in refused(scenario("[game]\n", chars=five))


def test_bad_input_plays_nothing(tmp_path, capsys):
    p = tmp_path / "bad.toml"
    p.write_text(scenario("[game]\nvaults = [{ room = [1, 0], items = 1 }]\n"))
    assert main(["play", str(p), "--seed", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "has no price" in err and "Traceback" not in err


# -- P-LOOT: the counting examples of the seed ----------------------------------------------------------

def creature(cid: str, unique: bool) -> Fighter:
    return Fighter.new(cid, "creatures", Stats(attack=0, defense=0, health=1, energy=0), kind="creature",
                       attack_element=Element.MATTER, unique=unique)


@pytest.mark.parametrize("uniques, abilities", [((False, False, True), 2), ((True, True), 2),
                                                 ((False, False, False), 1), ((True,), 1), ((False,), 1), ((), 0)])
def test_P_LOOT_one_ability_per_unique_and_one_for_the_ordinary_ones(uniques, abilities):
    group = [creature(f"c{i}", u) for i, u in enumerate(uniques)]
    r = creature_rewards(group)
    assert (r.abilities, r.items) == (abilities, len(group))


@pytest.mark.parametrize("uniques, abilities", [((False, False, True), 2), ((False, False, False), 1)])
def test_P_LOOT_the_fight_loop_counts_the_same(uniques, abilities):
    hero = Fighter.new("hero", "red", Stats(attack=6, defense=6, health=6, energy=0),
                       items=(skirmish.rules.partyhard.BUILTIN_ITEMS["void-shard"],))
    group = tuple(creature(f"c{i}", u) for i, u in enumerate(uniques))
    log = resolve_fight(FightSetup(SideSetup("red", (hero,)), SideSetup("creatures", group)), random.Random(0))
    assert log.winner == "red" and (log.rewards.abilities, log.rewards.items) == (abilities, 3)


def test_the_game_section_survives_a_round_trip_to_toml():
    from skirmish.scenario.grid import grid_to_toml
    g = skirmish.load(MAZE)
    back = loads(grid_to_toml(g))
    assert back == g and back.game == g.game
    custom = loads(scenario('[abilities.smite]\nelement = "matter"\n[game]\nabilities = ["smite", "smite"]\n'
                            'vaults = [{ room = [2, 0], abilities = 1 }]\n' + CARDS))
    assert custom.game.abilities[0].damage == "attack"   # P-DMG: no number, an attacking ability: the Attack
    assert loads(grid_to_toml(custom)).game == custom.game


def test_check_lists_the_game(capsys):
    assert main(["check", str(MAZE)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "game: 3 Anima each, 50 turns; decks: 8 creatures (4 kinds), 12 items, 14 abilities" in out
    assert "  lair (3, 2): 2 creatures" in out and "  vault (4, 0): 3 Anima for 1 item, 1 ability" in out
