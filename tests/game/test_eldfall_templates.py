"""Template weapons in a game (E-TMPL, E-TMPL-CIRCLE, E-TMPL-SPRAY, E-TMPL-STK): placed, not
rolled; every model under the template takes a Hit (friends too, never the user); a
declared Dodge may avoid it; greedy weighs the models under it."""

from __future__ import annotations

import random

import pytest

from skirmish.errors import ScenarioError
from skirmish.game.eldfall import Action, EldfallGame, Move, parse_settings
from skirmish.game.eldfall.loop import _Sequence
from skirmish.game.eldfall.policies import GreedyPolicy
from skirmish.game.eldfall.templates import TemplateTarget
from skirmish.game.policy import Decision, load_policy
from skirmish.rules.eldfall.template_hits import template_wound_odds
from skirmish.rules.eldfall.templates import template_spec
from skirmish.scenario.dump import dumps
from skirmish.scenario.load import loads

from eldfall_fixtures import WEAPONS, model
from eldfall_policies import Driven

TEMPLATE_WEAPONS = WEAPONS + '''
[weapons.fire-pot]
name = "Fire Pot"
template = "circle-small"
bands = [[8, 0]]
pw = 10

[weapons.flamer]
name = "Flamer"
template = "Spray Small"
pw = 9
stk = 2
'''


def _table(models: str) -> object:
    return loads(f"format = 1\n{TEMPLATE_WEAPONS}\n[table]\nsize = [24, 24]\n{models}")


def _game(table, red=None, blue=None, seed: int = 1) -> EldfallGame:
    return EldfallGame(table, parse_settings({"first": "red", "rounds": 1}, table),
                       {"red": red or Driven(), "blue": blue or Driven()}, random.Random(seed))


# a thrower, two enemies close together and a friend next to them
CROWD = (model("r1", "red", (3, 7), 0, '["fire-pot", "flamer"]') + model("b1", "blue", (9, 7), 180)
         + model("b2", "blue", (9, 8.3), 180) + model("r2", "red", (9, 5.7), 0))


def test_e_tmpl_weapon_entries_load_dump_and_name_bad_templates():
    t = _table(CROWD)
    pot, flamer = t.model("r1").weapons
    assert pot.template == "circle-small" and pot.reach == 8 and pot.ranged
    # a spray needs no reach: it reaches as far as it is long (its main target must be covered)
    assert flamer.template == "spray-small" and flamer.reach == pytest.approx(template_spec("spray-small").length)
    assert loads(dumps(t)).model("r1").weapons == t.model("r1").weapons
    with pytest.raises(ScenarioError, match="template.*circle-smal.*did you mean 'circle-small'"):
        loads("format = 1\n" + TEMPLATE_WEAPONS.replace('"circle-small"', '"circle-smal"')
              + "\n[table]\nsize = [24, 24]\n" + CROWD)
    with pytest.raises(ScenarioError, match="exactly one of reach"):  # a circle is thrown: it needs a reach
        loads("format = 1\n" + TEMPLATE_WEAPONS.replace("bands = [[8, 0]]\n", "")
              + "\n[table]\nsize = [24, 24]\n" + CROWD)


def test_e_tmpl_a_template_weapon_without_power_is_named_in_the_error():
    from skirmish.game.eldfall.settings import check_playable
    bad = TEMPLATE_WEAPONS.replace("pw = 10\n", "")
    with pytest.raises(ScenarioError, match=r"Fire Pot \(no Power, template circle-small\)"):
        check_playable(loads(f"format = 1\n{bad}\n[table]\nsize = [24, 24]\n"
                             + model("r1", "red", (3, 7), 0, '["fire-pot"]') + model("b1", "blue", (9, 7), 180)))


def _template_entries(event) -> list[dict]:
    return [e for e in event["result"]["exchanges"] if e.get("exchange") == "template"]


@pytest.mark.parametrize("seed", range(4))
def test_e_tmpl_circle_hits_every_model_under_it_friends_too_never_the_user(seed):
    """E-TMPL-CIRCLE: centred on b1, the small circle also covers b2 and the friend r2;
    each takes one Hit and one damage die against PW − ARM (10 − 1), nobody Dodges (none
    declared it); the thrower is never hit. HP follow the Wounds."""
    t = _table(CROWD)
    g = _game(t, Driven(["r1"], moves={"r1": Move("idle")}, actions={"r1": Action("attack", "b1", "Fire Pot")}),
              seed=seed)
    assert Action("attack", "b1", "Fire Pot") in g.action_options("r1", "walk")
    record = g.play()
    ev = next(e for e in record.events if e["role"] == "activation")
    placed = next(e for e in ev["result"]["exchanges"] if e.get("kind") == "template")["template"]
    assert placed["kind"] == "circle" and placed["placement"]["center"] == [9.0, 7.0]
    entries = _template_entries(ev)
    assert sorted(e["target"] for e in entries) == ["b1", "b2", "r2"]
    for e in entries:
        assert e["hits"] == 1 and "dodge" not in e and len(e["damage"]) == 1
        d = e["damage"][0]
        assert d["target"] == 9 and d["wound"] == (d["face"] <= 9) and e["wounds"] == int(d["wound"])
    assert ev["result"]["wounds"] == sum(e["wounds"] for e in entries)
    assert ev["text"].startswith("#1 r1 stays") and "places circle-small on b1" in ev["text"]
    for e in entries:
        assert g.state.unit(e["target"]).hp == 2 - e["wounds"]
    assert g.state.unit("r1").hp == 2


def test_e_tmpl_spray_needs_its_main_target_covered_and_places_strike_templates():
    """E-TMPL-SPRAY: 213 mm long from the user's base; a target 12" away cannot be covered
    (not offered), one 5" away can. Strike 2: two templates, each a Hit (E-TMPL-STK)."""
    far = _table(model("r1", "red", (3, 7), 0, '["flamer"]') + model("b1", "blue", (15, 7), 180))
    assert not any(o.weapon == "Flamer" for o in _game(far).action_options("r1", "walk"))
    near = _table(model("r1", "red", (3, 7), 0, '["flamer"]') + model("b1", "blue", (8, 7), 180))
    g = _game(near, Driven(["r1"], moves={"r1": Move("idle")}, actions={"r1": Action("attack", "b1", "Flamer")}))
    assert Action("attack", "b1", "Flamer") in g.action_options("r1", "walk")
    ev = next(e for e in g.play().events if e["role"] == "activation")
    assert [e["target"] for e in _template_entries(ev)] == ["b1", "b1"]
    assert sum(1 for e in ev["result"]["exchanges"] if e.get("kind") == "template") == 2


def test_e_tmpl_stk_strike_templates_spread_among_targets():
    """E-TMPL-STK: the flamer's Strike 2 may place one spray on b1 and one on b2 (the
    split): each template covers its own main target; b1 and b2 far apart, one Hit each."""
    t = _table(model("r1", "red", (3, 7), 0, '["flamer"]') + model("b1", "blue", (8, 9), 180)
               + model("b2", "blue", (8, 5), 180))
    split = (("b1", 1), ("b2", 1))
    g = _game(t, Driven(["r1"], moves={"r1": Move("idle")}, actions={"r1": Action("attack", "b1", "Flamer", split)}))
    assert Action("attack", "b1", "Flamer", split) in g.action_options("r1", "walk")
    ev = next(e for e in g.play().events if e["role"] == "activation")
    placed = [e["template"] for e in ev["result"]["exchanges"] if e.get("kind") == "template"]
    assert [p["main_target"] for p in placed] == ["b1", "b2"]
    assert sorted(e["target"] for e in _template_entries(ev)) == ["b1", "b2"]
    assert "places spray-small on b1/b2" in ev["text"]


def test_e_tmpl_a_template_weapon_is_no_attack_of_opportunity():
    """An Attack of Opportunity rolls to hit (E-REACTION): a blue thrower watching r1
    walk past may Dodge but not throw its Fire Pot."""
    t = _table(model("r1", "red", (5, 2), 90) + model("b1", "blue", (8, 4), 180, '["fire-pot"]'))
    g = _game(t)
    g._upkeep()
    g.state = g.state.replace(round=1, turn=1, active="red")
    mr = g.apply_move("r1", Move("walk", (5.0, 5.0, 0.0)))
    opts = g.reaction_options(_Sequence(1, "r1", mr, g._tables_along("r1", mr.samples)), "b1")
    assert [o.kind for o in opts] == ["none", "dodge"]


def test_e_tmpl_declared_dodge_may_avoid_the_hit():
    """b1 saw r1 walk and declared a Dodge: it rolls Agility (6) against the template's
    Hit, and a success spares it the damage die; b2 declared nothing and takes its Hit."""
    outcomes = set()
    for seed in range(12):
        t = _table(model("r1", "red", (3, 5), 0, '["fire-pot"]') + model("b1", "blue", (9, 7), 180)
                   + model("b2", "blue", (9, 8.3), 0))
        red = Driven(["r1"], moves={"r1": Move("walk", (3.0, 7.0, 0.0))},
                     actions={"r1": Action("attack", "b1", "Fire Pot")})
        blue = Driven(reactions={"b1": lambda opts: next(o for o in opts if o.kind == "dodge"),
                                 "b2": lambda opts: opts[0]})
        record = _game(t, red, blue, seed=seed).play()
        ev = next(e for e in record.events if e["role"] == "activation")
        by = {e["target"]: e for e in _template_entries(ev)}
        d = by["b1"]["dodge"]
        assert d["agility"] == 6 and d["success"] == (d["face"] <= 6) and not d["halved"]
        assert by["b1"]["hits"] == (0 if d["success"] else 1) and (by["b1"]["damage"] == []) == d["success"]
        assert "dodge" not in by["b2"] and by["b2"]["hits"] == 1
        react = next(e for e in record.events if e["role"] == "reaction" and e["model"] == "b1")
        assert react["result"]["exchanges"][0]["dodge"] == d
        outcomes.add(d["success"])
    assert outcomes == {True, False}


@pytest.mark.parametrize("agility,halved,damage,reroll", [(None, False, 9, False), (6, False, 9, False),
                                                          (7, True, 4, False), (6, False, 25, True),
                                                          (12, True, -1, True), (0, False, 10, False)])
def test_e_tmpl_hit_odds_are_the_rules_template_odds(agility, halved, damage, reroll):
    """A game target's chance to be wounded is the rules' exact template odds (checked
    against an enumeration of the dice in tests/rules/test_template_hits.py)."""
    assert TemplateTarget("m", agility, halved, damage).p_wound(reroll) == \
        template_wound_odds(agility, halved, damage, reroll=reroll)


def test_e_tmpl_greedy_will_not_burn_more_friends_than_enemies():
    """Centred on b1 the circle covers one enemy and two friends: greedy does not throw it
    (its expected Wounds on friends are larger); with the friends away it does."""
    crowded = _table(model("r1", "red", (3, 7), 0, '["fire-pot"]') + model("b1", "blue", (9, 7), 180)
                     + model("r2", "red", (9, 8.3), 0) + model("r3", "red", (9, 5.7), 0))
    clear = _table(model("r1", "red", (3, 7), 0, '["fire-pot"]') + model("b1", "blue", (9, 7), 180)
                   + model("r2", "red", (9, 11), 0) + model("r3", "red", (9, 3), 0))
    for table, throws in ((crowded, False), (clear, True)):
        g = _game(table)
        opts = g.action_options("r1", "walk")
        got = GreedyPolicy().choose(g, Decision("action", "r1", opts, context={"reactions": {}}), random.Random(0))
        assert (got == Action("attack", "b1", "Fire Pot")) == throws, got


@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_e_tmpl_whole_games_with_template_weapons_keep_the_rules(policy):
    """Whole games with both sides carrying templates: every template Hit lands on a
    model the template covered, never on its user, and HP never go below 0."""
    models = (model("r1", "red", (3, 5), 0, '["fire-pot", "sword"]') + model("r2", "red", (3, 12), 0, '["flamer"]')
              + model("b1", "blue", (15, 5), 180, '["flamer", "sword"]')
              + model("b2", "blue", (15, 12), 180, '["fire-pot"]'))
    t = loads(f"format = 1\n{TEMPLATE_WEAPONS}\n[table]\nsize = [18, 18]\n{models}")
    placed_any = False
    for seed in range(3):
        pols = {s: load_policy(policy, "eldfall") for s in ("red", "blue")}
        g = EldfallGame(t, parse_settings({"rounds": 3}, t), pols, random.Random(seed))
        record = g.play()
        for ev in record.events:
            if ev["role"] != "activation":
                continue
            covered: list[str] = []
            for e in ev["result"]["exchanges"]:
                if e.get("kind") == "template":
                    covered = [h["id"] for h in e["template"]["affected"]]
                    assert ev["model"] not in covered
                    placed_any = True
                elif e.get("exchange") == "template":
                    assert e["target"] in covered
        assert all(u.hp >= 0 for u in g.state.units.values())
    assert placed_any


def test_e_tmpl_e_setup_a_template_weapon_needs_no_attribute_to_be_playable():
    """E-SETUP, E-TMPL: a template is placed, it rolls no attribute, so a model whose only
    weapon is a template is playable without the attribute the weapon names, and the
    game offers the template (the check and the game agree on what can attack)."""
    from skirmish.game.eldfall.settings import check_playable, usable_weapons
    no_acc = "AGI = 6, SPD = 4, STA = 2, MEL = 12, ARM = 1, HP = 2"
    t = _table(model("r1", "red", (3, 7), 0, '["fire-pot"]', attrs=no_acc) + model("b1", "blue", (9, 7), 180))
    check_playable(t)
    assert [w.name for w in usable_weapons(t.model("r1"))] == ["Fire Pot"]
    g = _game(t, Driven(["r1"], moves={"r1": Move("idle")}, actions={"r1": Action("attack", "b1", "Fire Pot")}))
    assert Action("attack", "b1", "Fire Pot") in g.action_options("r1", "walk")
