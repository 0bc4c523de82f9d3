"""Grid scenarios (``map = "grid"``): the format of docs/grid-format.md, strict like format 1."""

from __future__ import annotations

import copy
import re
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import skirmish
from skirmish import ScenarioError
from skirmish.maps.grid import Grid
from skirmish.scenario.grid import grid_to_toml
from skirmish.scenario.load import from_dict, loads

from conftest import ROOT, SCENARIOS

MAZE = SCENARIOS / "party-hard-maze.toml"
STATS = "stats = { attack = 2, defense = 1, health = 4, energy = 3 }"


def text(rooms: str = '["..."]', body: str = "", extra: str = "") -> str:
    return f'format = 1\nmap = "grid"\n{extra}\n[grid]\nrooms = {rooms}\n{body}\n'


def char(cid: str = "rogue", player: str = "blue", room: str = "[0, 0]", extra: str = "", stats: str = STATS) -> str:
    return f'[[characters]]\nid = "{cid}"\nplayer = "{player}"\nroom = {room}\n{stats}\n{extra}\n'


def beast(cid: str = "ooze", room: str = "[2, 0]", extra: str = 'attack_element = "matter"') -> str:
    return f'[[creatures]]\nid = "{cid}"\nroom = {room}\n{STATS}\n{extra}\n'


def refused(t: str) -> str:
    with pytest.raises(ScenarioError) as info:
        loads(t, "maze.toml")
    return str(info.value)


def test_the_bundled_maze_loads():
    g = skirmish.load(MAZE)
    assert isinstance(g, Grid) and g.name == "Party Hard: the maze" and len(g.rooms) == 17
    assert g.players == ("red", "blue") and g.sides[-1] == "creatures"
    knight = g.fighter("knight")
    assert knight.weapon.name == "Void Shard" and knight.armor.name == "Matter Shield"
    assert [a.name for a in knight.abilities] == ["Void Arrow", "Void Sweep"]
    assert g.fighter("ranger").weapon.name == "Ember Blade"          # declared in the file
    assert g.fighter("shade").unique and str(g.fighter("shade").attack_effect) == "powerless"


def test_every_example_in_the_format_page_loads():
    doc = (ROOT / "docs" / "grid-format.md").read_text()
    blocks = [b for b in re.findall(r"```toml\n(.*?)```", doc, flags=re.S) if 'map = "grid"' in b]
    assert blocks
    for b in blocks:
        assert isinstance(loads(b, "doc.toml"), Grid)


def test_rooms_are_column_row_from_the_top_left():
    g = loads(text('["..#", "#.."]', char(room="[2, 1]")))
    assert {r.at for r in g.rooms} == {(0, 0), (1, 0), (1, 1), (2, 1)} and g.room_of("rogue") == (2, 1)
    assert g.drawing() == ("..#", "#..")


def test_a_space_is_no_room_and_rows_may_differ_in_length():
    g = loads(text('[". .", "...."]'))
    assert {r.at for r in g.rooms} == {(0, 0), (2, 0), (0, 1), (1, 1), (2, 1), (3, 1)}


def test_legend_names_rooms():
    g = loads(text('[".V"]', extra="", body='[grid.legend.V]\nname = "Vault"\ntreasure = 2\n'))
    assert g.room((1, 0)).name == "Vault" and g.room((1, 0)).treasure == 2 and g.room((1, 0)).key == "V"


@pytest.mark.parametrize("t, message", [
    (text('["..X"]'), 'maze.toml: grid: rooms: row 0 ("..X"), column 2: "X" is not a room mark'),
    (text('[".#."]'), "grid: rooms: room (2, 0) cannot be reached from room (0, 0)"),
    (text('["##"]'), "grid: rooms: no rooms drawn"),
    (text("[]"), "grid: rooms: expected a list of text rows"),
    (text('[".V"]', body='[grid.legend.W]\nname = "x"\n'), "grid: rooms: row 0"),
    (text('[".W"]', body='[grid.legend.W]\nname = "x"\n[grid.legend.V]\nname = "y"\n'),
     "grid: legend.V: declared but not drawn"),
    (text('[".V"]', body='[grid.legend.V]\nnmae = "x"\n'), "grid.legend.V: nmae: unknown key"),
    (text('[".."]', body='[grid.legend."."]\nname = "x"\n'), "grid.legend: .: a legend key is one character"),
    (text(extra='mode = "standard"'), "maze.toml: mode: measurement modes (E-MODE) belong to the table"),
    (text(extra="[table]\nsize = [3, 3]"), "maze.toml: table: a grid scenario has [grid]"),
    ('format = 1\nmap = "grid"\n', "maze.toml: grid: required section [grid] is missing"),
    (text(extra='colour = "red"'), "maze.toml: colour: unknown key"),
    (text(body="[grid.extra]\n"), "maze.toml: grid: extra: unknown key"),
])
def test_P_GRID_drawing_errors_name_the_place(t, message):
    assert message in refused(t)


@pytest.mark.parametrize("body, message", [
    (char(room="[1, 1]"), 'characters[0] (id "rogue"): room: no room at [1, 1]'),
    (char(room="[-1, 0]"), 'characters[0] (id "rogue"): room: item 1: expected a whole number 0 or more'),
    (char(player="creatures"), 'player: "creatures" is the creatures\' side'),
    (char(stats="stats = { attack = 7, defense = 1, health = 4, energy = 3 }"),
     'characters[0] (id "rogue").stats: attack: expected a whole number 0..6, got 7'),
    (char(stats="stats = { attack = 1, defense = 1, health = 4 }"), "stats: energy: required field is missing"),
    (char(stats="stats = { attack = 1, defense = 1, health = 4, energy = 1, luck = 2 }"), "stats: luck: unknown key"),
    (char(stats=""), "stats: required field is missing"),
    (char(extra='items = ["void-shard", "matter-shard"]'), "items: one item of each kind; two weapons given"),
    (char(extra='items = ["vorpal"]'), 'items: unknown item "vorpal"; declare it under [items.vorpal]'),
    (char(extra='abilities = ["void-arrow", "mend", "hex"]'), "abilities: a character has at most 2 abilities"),
    (char(extra='effects = ["sleepy"]'), "effects: item 1: expected an effect"),
    (char(extra="place = 5"), "place: expected a whole number 1..4"),
    (char() + char("rogue", "red"), 'characters[1] (id "rogue"): id: duplicate id'),
    (char() + beast("rogue"), 'creatures[0] (id "rogue"): id: duplicate id'),
    (char("a", extra="place = 1") + char("b", extra="place = 1"), "place: place 1 of blue's row in room [0, 0] is taken by a"),
    ("".join(char(f"c{i}") for i in range(5)), 'characters[4] (id "c4"): room: room [0, 0] already holds 4 characters of blue'),
    (char(extra="side = \"blue\""), "side: unknown key"),
    (beast(extra=""), 'creatures[0] (id "ooze"): attack_element: required field is missing'),
    (beast(extra='attack_element = "fire"'), "attack_element: expected one of matter, ether, void"),
    (beast(extra='attack_element = "void"\ntargets = 5'), "targets: expected a whole number 1..4"),
    (beast(extra='attack_element = "void"\nitems = ["void-shard"]'), "items: unknown key"),
])
def test_pieces_errors_name_the_entry_and_field(body, message):
    assert message in refused(text(body=body))


@pytest.mark.parametrize("decl, message", [
    ('[items.x]\nkind = "sword"', 'items.x: kind: expected one of weapon, armor, accessory'),
    ('[items.x]\nkind = "weapon"', "items.x: element: required for a weapon"),
    ('[items.x]\nkind = "accessory"\nbonus = 1', "items.x: bonus: an accessory has no bonus"),
    ('[items.x]\nkind = "armor"\nelement = "void"\neffect = "shock"', "items.x: effect: only weapons"),
    ('[items.x]\nkind = "weapon"\nelement = "void"\neffect = "sleepy"', "items.x: effect: expected an effect"),
    ('[items.x]\nkind = "accessory"\nimmune = ["fire"]', "items.x: immune: item 1: expected one of powerless"),
    ('[items.x]\nkind = "accessory"\nstats = { luck = 1 }', 'items.x: stats: unknown stat "luck"'),
    ('[abilities.x]\ndamage = 1\nheal = 1\nelement = "void"', "abilities.x: heal: give damage or heal, not both"),
    ('[abilities.x]\ndamage = 1', "abilities.x: element: required with damage"),
    ('[abilities.x]\ndamage = 1\nelement = "void"\ntargets = 5', "abilities.x: targets: expected a whole number 1..4"),
    ('[abilities.x]\ncost = 1', "abilities.x: ability 'x' does nothing"),
    ('[abilities.x]\neffect = "shock"\non = "self"\ntargets = 2', "abilities.x: ability 'x': an ability on self"),
    ('[abilities.x]\ndamage = 1\nelement = "void"\ncolour = 1', "abilities.x: colour: unknown key"),
])
def test_catalogue_errors_name_the_entry(decl, message):
    assert message in refused(text(body=decl))


def test_declared_cards_override_built_in_ones_and_set_defaults():
    t = text(body='[abilities.void-arrow]\nname = "Void Arrow"\nelement = "void"\ndamage = 3\n'
                  '[abilities.soothe]\nheal = 1\nelement = "ether"\n'
                  '[abilities.curse]\neffect = "defense-1"\n'
                  '[items.ring]\nkind = "accessory"\nstats = { health = 1 }\nno_energy_regen = true\n'
                  + char(extra='abilities = ["void-arrow", "soothe"]\nitems = ["ring"]'))
    g = loads(t)
    f = g.fighter("rogue")
    assert f.abilities[0].damage == 3 and f.abilities[0].cost == 1
    assert f.abilities[1].on == "allies"                       # healing defaults to allies
    assert not f.regenerates and f.max_health == 5
    c = loads(t.replace('"soothe"]', '"curse"]')).fighter("rogue").abilities[1]
    assert c.on == "enemies" and str(c.effect) == "defense-1"  # a negative effect defaults to enemies


def test_places_default_to_file_order_and_may_be_given():
    g = loads(text(body=char("a", extra="place = 2") + char("b") + char("c")))
    assert g.row((0, 0), "blue") == ("b", "a", "c")


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(st.data())
def test_any_damaged_file_is_refused_as_a_scenario_error(data):
    """Replace one value anywhere in the maze with junk: the loader answers a Grid or a
    ScenarioError naming the file, never another exception."""
    raw = tomllib.loads(MAZE.read_text())
    paths = []

    def walk(node, path):
        if isinstance(node, dict):
            for k, v in node.items():
                paths.append(path + (k,))
                walk(v, path + (k,))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                paths.append(path + (i,))
                walk(v, path + (i,))
    walk(raw, ())
    path = data.draw(st.sampled_from(paths))
    junk = data.draw(st.one_of(st.none().map(lambda _: "??"), st.integers(-9, 99), st.booleans(), st.text(max_size=3),
                               st.lists(st.integers(-2, 8), max_size=3), st.just({}), st.floats(allow_nan=False)))
    mutated = copy.deepcopy(raw)
    node = mutated
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = junk
    try:
        assert isinstance(from_dict(mutated, "maze.toml"), Grid)
    except ScenarioError as exc:
        assert str(exc).startswith("maze.toml")


def test_a_grid_goes_back_to_toml_and_loads_equal():
    g = skirmish.load(MAZE)
    assert loads(grid_to_toml(g)) == g
    moved = g.moved("rogue", (3, 1))
    assert loads(grid_to_toml(moved)) == moved


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(st.data())
def test_any_valid_grid_round_trips(data):
    """Cards changed at random (kept valid) still write and read back equal."""
    raw = tomllib.loads(MAZE.read_text())
    raw["items"]["void-shard"] = {"name": data.draw(st.sampled_from(["Void Shard", "Odd Shard"])), "kind": "weapon",
                                  "element": "void", "bonus": data.draw(st.integers(-2, 3))}
    raw["abilities"]["spark"] = {"damage": data.draw(st.integers(0, 3)), "element": "ether",
                                 "targets": data.draw(st.integers(1, 4)), "burns": data.draw(st.integers(0, 2))}
    raw["characters"][3]["abilities"] = ["spark"]
    raw["characters"][0]["effects"] = data.draw(st.lists(st.sampled_from(["shock", "attack+1", "defense-2"]),
                                                         max_size=3))
    g = from_dict(raw, "maze.toml")
    assert loads(grid_to_toml(g)) == g
