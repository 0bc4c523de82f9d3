"""Invariants over many seeded games on a table that uses every rule the game plays:
roofs to climb and jump from, a wall, bows, swords and an Aura spell, Crouched and
Slowed models, and one side deploying by policy (E-AP, E-AP-SPEND, E-REACTION,
E-ACTION-COMBO, E-MOVE-*, E-ACTION-ATTACK, E-AURA-CAST, E-DEPLOY)."""

from __future__ import annotations

import random

import pytest

from skirmish.game.eldfall.settings import load_game
from skirmish.game.policy import load_policy

from eldfall_fixtures import WEAPONS, model, piece
from test_eldfall_game import Checked

SPELL = '\n[weapons.flare]\nkind = "spell"\nreach = "aura"\npw = 10\n'
MAGE = "AGI = 7, SPD = 4, STA = 2, INT = 13, MEL = 8, ARM = 0, HP = 2"
SCENERY = (piece("roof", (4, 4, 9, 9), 3, walkable=True) + piece("loft", (11, 4, 15, 9), 3, walkable=True)
           + piece("wall", (8, 13, 12, 13.6), 2.5))


def _text() -> str:
    red = (model("r1", "red", (6, 6), 0, '["sword"]', extra="z = 3")
           + model("r2", "red", (3, 2), 45, '["bow", "sword"]', extra='states = ["Crouched"]')
           + model("r3", "red", (16.5, 3), 90, '["flare"]', attrs=MAGE))
    blue = "".join(f'[[models]]\nid = "{i}"\nside = "blue"\nsize = "M"\nweapons = {w}\n'
                   f'attributes = {{ {a} }}\n{extra}\n'
                   for i, w, a, extra in (("b1", '["sword"]', "AGI = 6, SPD = 5, STA = 2, MEL = 12, ARM = 1, HP = 2", ""),
                                         ("b2", '["bow"]', "AGI = 6, SPD = 4, STA = 2, ACC = 12, ARM = 0, HP = 2",
                                          'states = ["Slowed"]'),
                                         ("b3", '["flare", "sword"]', MAGE, "")))
    return (f"format = 1\n{WEAPONS}{SPELL}\n[game]\nrounds = 3\nzones = {{ red = \"south\", blue = \"north\" }}\n"
            f"[table]\nsize = [20, 20]\n{SCENERY}\n{red}\n{blue}")


@pytest.fixture(scope="module")
def rich(tmp_path_factory):
    p = tmp_path_factory.mktemp("inv") / "rich.toml"
    p.write_text(_text(), encoding="utf-8")
    return str(p)


def _check(path: str, seed: int, spec: str) -> Checked:
    table, settings, script = load_game(path)
    g = Checked(table, settings, {s: load_policy(spec, "eldfall") for s in ("red", "blue")}, random.Random(seed),
                seed=seed, script=script)
    record = g.play()
    assert g.violations == []
    kinds = set()
    for e in record.events:
        if e["role"] in ("activation", "reaction"):
            assert e["ap"] >= 0
            kinds |= {e["movement"]["kind"], e["action"]["kind"]}
    g.kinds = kinds  # type: ignore[attr-defined]
    return g


@pytest.mark.parametrize("seed", range(3))
def test_e_ap_e_reaction_e_action_combo_e_aura_cast_invariants_rich_table(rich, seed):
    _check(rich, seed, "random")


@pytest.mark.slow
def test_e_ap_e_reaction_e_action_combo_invariants_many_seeds_rich_table(rich):
    kinds: set[str] = set()
    for seed in range(3, 23):
        kinds |= _check(rich, seed, "random").kinds  # type: ignore[attr-defined]
    for seed in range(2):
        _check(rich, 100 + seed, "greedy")
    assert {"walk", "run", "jump", "attack", "cast"} <= kinds  # the special movements and spells are played
