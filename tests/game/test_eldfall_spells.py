"""Spells with Aura reach and casting without LoS (E-AURA, E-AURA-CAST)."""

from __future__ import annotations

import random

import pytest

from skirmish.errors import ScenarioError
from skirmish.game.eldfall import Action, EldfallGame, Move, Reaction, parse_settings
from skirmish.game.eldfall.attacks import attack_geometry, attacking_side
from skirmish.game.eldfall.loop import _Sequence
from skirmish.rules.eldfall.weapons import aura_spell
from skirmish.scenario.dump import dumps
from skirmish.scenario.load import loads

from eldfall_fixtures import WEAPONS, model
from eldfall_policies import Driven

SPELLS = WEAPONS + '''
[weapons.flare]
name = "Flare"
kind = "spell"
reach = "aura"
pw = 11

[weapons.bolt]
name = "Bolt"
kind = "spell"
reach = 12
pw = 9
'''
MAGE = "AGI = 6, SPD = 4, STA = 2, INT = 14, MEL = 8, ARM = 0, HP = 2"


def _table(models: str, scenery: str = "") -> object:
    return loads(f"format = 1\n{SPELLS}\n[table]\nsize = [24, 24]\n{scenery}\n{models}")


def _game(table, red=None, blue=None, first="red"):
    g = EldfallGame(table, parse_settings({"first": first, "rounds": 1}, table),
                    {"red": red or Driven(), "blue": blue or Driven()}, random.Random(1))
    return g


def test_e_aura_cast_scenario_spell_entries_load_and_dump():
    t = _table(model("mage", "red", (5, 5), 0, '["flare", "bolt"]', attrs=MAGE) + model("b1", "blue", (9, 5), 180))
    flare, bolt = t.model("mage").weapons
    assert flare == aura_spell("Flare", pw=11) and flare.attribute == "INT" and flare.spell and flare.aura
    assert bolt.spell and not bolt.aura and bolt.ranged and bolt.reach == 12 and bolt.attribute == "INT"
    again = loads(dumps(t))
    assert again.model("mage").weapons == t.model("mage").weapons
    bad = SPELLS.replace('kind = "spell"\nreach = "aura"', 'reach = "aura"')
    with pytest.raises(ScenarioError, match='kind = "spell"'):
        loads(f"format = 1\n{bad}\n[table]\nsize = [24, 24]\n" + model("m", "red", (5, 5), 0, '["flare"]', attrs=MAGE))


def test_e_aura_reach_is_the_casters_awareness():
    """E-AURA: the Aura is the caster's Awareness, AGI 6 from its base edge (E-DIST ≤ 6)."""
    r = 0.63  # an M base's radius (32 mm)
    near = _table(model("mage", "red", (5, 5), 0, '["flare"]', attrs=MAGE) + model("b1", "blue", (5 + 2 * r + 5.9, 5), 0))
    far = _table(model("mage", "red", (5, 5), 0, '["flare"]', attrs=MAGE) + model("b1", "blue", (5 + 2 * r + 6.2, 5), 0))
    assert near.reach("mage", "b1", "Flare").in_reach and near.reach("mage", "b1", "Flare").max_range == 6
    assert not far.reach("mage", "b1", "Flare").in_reach


def test_e_aura_cast_without_los_only_active_int_halved_no_cover():
    """The mage faces away from b1 (no LoS): it may still cast Flare at it (Active),
    with INT halved and no Cover; the Bolt (no Aura) needs LoS."""
    t = _table(model("mage", "red", (5, 5), 180, '["flare", "bolt"]', attrs=MAGE) + model("b1", "blue", (9, 5), 180))
    assert not t.line_of_sight("mage", "b1").visible
    g = _game(t)
    opts = g.action_options("mage", "walk")
    assert Action("cast", "b1", "Flare") in opts
    assert not any(o.weapon == "Bolt" for o in opts)
    geo = attack_geometry(t, "mage", "b1", t.model("mage").weapon("Flare"), unseen_aura=True)
    assert geo.legal and geo.unseen and geo.cover is None
    side = attacking_side(t.model("mage"), g.state.unit("mage"), geo, reactive=False)
    assert side.halve and side.attribute.value == 7  # E-MOD-HALF: 14 halved
    seen = attack_geometry(t, "mage", "b1", t.model("mage").weapon("Flare"))
    assert not seen.legal  # without the Active caster's licence, no LoS is no attack

    red = Driven(["mage"], moves={"mage": Move("idle")}, actions={"mage": Action("cast", "b1", "Flare")})
    g = _game(t, red)
    record = g.play()
    ev = next(e for e in record.events if e["role"] == "activation")
    assert ev["action"] == {"kind": "cast", "target": "b1", "weapon": "Flare"}
    ex = ev["result"]["exchanges"][0]
    assert ex["geometry"]["los"] is False and ex["geometry"]["aura"] and ex["geometry"]["cover"] is None
    assert "casts at b1" in ev["text"] and "(no LoS: halved (E-AURA-CAST))" in ev["text"]  # (the text hid it)


def test_e_aura_cast_with_los_against_cover_keeps_it():
    wall = '[[scenery]]\nid = "wall"\nrect = [7.2, 3, 7.6, 7]\nheight = 1.2\n'
    t = _table(model("mage", "red", (5, 5), 0, '["flare"]', attrs=MAGE) + model("b1", "blue", (8.3, 5), 180), wall)
    geo = attack_geometry(t, "mage", "b1", t.model("mage").weapon("Flare"), unseen_aura=True)
    assert geo.sight.visible and not geo.unseen and geo.cover is not None and geo.cover.modifier < 0


def test_e_aura_cast_reactive_needs_los():
    """A Reactive caster cannot cast without LoS (E-AURA-CAST: without LoS only when
    Active); with LoS its Attack of Opportunity may be the spell, logged as a cast."""
    mover = model("r1", "red", (5, 2), 90)
    for facing, expect in ((0, False), (180, True)):
        t = _table(mover + model("mage", "blue", (8, 4), facing, '["flare"]', attrs=MAGE))
        g = _game(t)
        g._upkeep()
        g.state = g.state.replace(round=1, turn=1, active="red")
        mr = g.apply_move("r1", Move("walk", (5.0, 5.0, 0.0)))
        seq = _Sequence(1, "r1", mr, g._tables_along("r1", mr.samples))
        opts = g.reaction_options(seq, "mage")
        casts = [o for o in opts if o.kind == "attack"]
        assert bool(casts) == expect, opts
        if not expect:
            assert opts == (Reaction("none"), Reaction("dodge", los=False))
    blue = Driven(reactions={"mage": lambda opts: next(o for o in opts if o.kind == "attack")})
    red = Driven(["r1"], moves={"r1": Move("walk", (5.0, 5.0, 0.0))})
    t = _table(mover + model("mage", "blue", (8, 4), 180, '["flare"]', attrs=MAGE))
    record = _game(t, red, blue).play()
    react = next(e for e in record.events if e["role"] == "reaction")
    assert react["model"] == "mage" and react["action"]["kind"] == "cast" and react["action"]["weapon"] == "Flare"


def test_e_aura_cast_a_templated_aura_spell_affects_only_the_models_inside_the_awareness():
    """(a circle cast on b1, inside the Awareness, hit b2 too, 8.56" from the caster with
    AGI 8) E-AURA-CAST: an Aura spell affects only models inside the caster's Awareness."""
    from skirmish.game.eldfall.templates import place

    fireball = '\n[weapons.fireball]\nname = "Fireball"\nkind = "spell"\ntemplate = "circle-small"\nreach = "aura"\npw = 12\n'
    t = loads(f"format = 1\n{SPELLS}{fireball}\n[table]\nsize = [24, 24]\n"
              + model("mage", "red", (5, 12), 0, '["fireball"]', attrs=MAGE.replace("AGI = 6", "AGI = 8"))
              + model("b1", "blue", (13.5, 12), 180) + model("b2", "blue", (14.8, 12.6), 180))
    assert t.distance("mage", "b1") <= 8 < t.distance("mage", "b2")
    res = place(t, "mage", "b1", t.model("mage").weapon("Fireball"))
    assert res is not None and res.affected_ids == ("b1",)
    spared = {s.id: s for s in res.spared}
    assert spared["b2"].reason == "aura" and "outside the caster's Awareness" in spared["b2"].why
    plain = t.template("circle-small", on="b1", by="mage", declared=True)  # (the template alone hits both)
    assert set(plain.affected_ids) == {"b1", "b2"}
    assert place(t, "mage", "b2", t.model("mage").weapon("Fireball")) is None  # (outside: no main target)
