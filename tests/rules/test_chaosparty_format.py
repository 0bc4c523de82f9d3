"""The duel file (docs/chaos-format.md): the bundled example loads, and every broken
file is refused with the file, the entry and the field (C-BUILD, C-TOKENS)."""

from __future__ import annotations

import pytest

from skirmish.errors import ScenarioError
from skirmish.rules.chaosparty import Character, Tokens, Variants
from skirmish.scenario.chaos import load_duel, loads_duel

from conftest import SCENARIOS

CHARS = """characters = [
  {{ id = "{p}1", time = 3, form = 3, attack = 3, defence = 3 }},
  {{ id = "{p}2", time = 6, form = 6 }},
  {{ id = "{p}3", time = 4, form = 4, attack = 2, defence = 2 }},
  {{ id = "{p}4", time = 2, form = 6, attack = 4 }},
]"""


def duel_text(top: str = "", red_extra: str = "", blue_extra: str = "", red_chars: str | None = None) -> str:
    return (f'format = 1\ngame = "chaosparty"\n{top}\n'
            f'[[players]]\nid = "red"\n{red_extra}\n{red_chars or CHARS.format(p="r")}\n'
            f'[[players]]\nid = "blue"\n{blue_extra}\n{CHARS.format(p="b")}\n')


def error(text: str) -> str:
    with pytest.raises(ScenarioError) as info:
        loads_duel(text, "duel.toml")
    return str(info.value)


def test_bundled_duel_loads():
    duel = load_duel(SCENARIOS / "chaosparty" / "first-duel.toml")
    assert [p.id for p in duel.players] == ["red", "blue"]
    assert all(c.total == 12 for p in duel.players for c in p.characters)
    assert duel.variants == Variants() and duel.max_turns == 200


def test_a_minimal_duel_and_its_options():
    d = loads_duel(duel_text('name = "x"\nvariants = ["superiority"]\nmax_turns = 50\nbag = { time = 2 }',
                             "store = { form = 1 }", "store = { potential = 1 }"))
    assert d.variants.superiority and not d.variants.unlimited and d.max_turns == 50
    assert d.bag == Tokens(time=2) and d.players[0].store == Tokens(form=1)
    assert d.players[0].characters[1] == Character("r2", time=6, form=6)


@pytest.mark.parametrize("text, message", [
    (duel_text().replace('game = "chaosparty"', 'game = "chess"'), 'duel.toml: game: expected "chaosparty"'),
    (duel_text().replace("format = 1", "format = 2"), "format: expected 1"),
    (duel_text().replace('{ id = "r2", time = 6, form = 6 }', '{ id = "r2", time = 6, form = 5 }'),
     'characters[1] (id "r2"): 11 tokens, a character is built with exactly 12 (C-BUILD)'),
    (duel_text().replace('{ id = "r2", time = 6, form = 6 }', '{ id = "r2", time = 7, form = 5 }'),
     "7 time tokens, at most 6 of one colour"),
    (duel_text().replace('{ id = "r2", time = 6, form = 6 }', '{ id = "r2", time = -1, form = 13 }'),
     "r2\"): time: expected a token count"),
    (duel_text().replace('{ id = "r2", time = 6, form = 6 }', '{ id = "r2", time = 6, form = 6, luck = 1 }'),
     "luck: unknown key"),
    (duel_text(red_chars=CHARS.format(p="r").replace('  { id = "r4", time = 2, form = 6, attack = 4 },\n', "")),
     "3 characters, each player fills exactly 4 slots"),
    (duel_text(red_extra="store = { time = 1 }"), "the players' tokens (characters plus store) differ: red 49, blue 48"),
    (duel_text(red_chars=CHARS.format(p="b")), "ids are unique"),
    (duel_text('variants = ["chaos"]'), "variants: item 1: expected one of unlimited, superiority"),
    (duel_text("max_turns = 0"), "max_turns: expected 1 or more"),
    ('format = 1\ngame = "chaosparty"\n[[players]]\nid = "solo"\ncharacters = []\n', "two or more"),
    ("format = 1\ngame = ", "not valid TOML"),
])
def test_c_build_bad_duels_are_refused_with_the_place(text, message):
    assert message in error(text)


def test_unlimited_lifts_the_colour_cap():
    text = duel_text('variants = ["unlimited"]').replace('{ id = "r2", time = 6, form = 6 }',
                                                          '{ id = "r2", time = 8, form = 4 }')
    text = text.replace('{ id = "b2", time = 6, form = 6 }', '{ id = "b2", attack = 8, form = 4 }')
    d = loads_duel(text)
    assert d.players[0].characters[1].time == 8 and d.players[1].characters[1].attack == 8


def test_missing_file(tmp_path):
    with pytest.raises(ScenarioError, match="no such file"):
        load_duel(tmp_path / "nope.toml")
