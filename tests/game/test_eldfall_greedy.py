"""The greedy policy's choices where a careful player's are plain: it shoots back rather
than Dodge an even exchange, does not count a spray where its template cannot cover the
target, and does not walk off a roof into E-FALL rolls for nothing."""

from __future__ import annotations

import random

import pytest

from skirmish.game.eldfall import Action, EldfallGame, Move, Reaction, parse_settings
from skirmish.game.eldfall.policies import CLOSE_IN, GreedyPolicy
from skirmish.game.policy import Decision, load_policy
from skirmish.scale import job_rng
from skirmish.scenario.load import loads

from eldfall_fixtures import WEAPONS, model
from eldfall_policies import Driven

ARCHER = "AGI = 6, SPD = 4, STA = 2, ACC = 12, ARM = 0, HP = 2"


def _game(models: str, scenery: str = "", weapons: str = WEAPONS, rounds: int = 1, red=None, blue=None):
    t = loads(f"format = 1\n{weapons}\n[table]\nsize = [30, 20]\n{scenery}\n{models}")
    return EldfallGame(t, parse_settings({"first": "red", "rounds": rounds}, t),
                       {"red": red or Driven(), "blue": blue or Driven()}, random.Random(1))


def test_e_conf_greedy_shoots_back_rather_than_dodge_an_even_exchange():
    """(it Dodged whenever the best attack netted 0 or less: two archers in the open only
    ever Dodged) Shooting back is a Confrontation netting 0 here; Dodging nets the
    Attack of Opportunity's Wounds, less than 0."""
    g = _game(model("r", "red", (5, 10), 0, '["bow"]', attrs=ARCHER) + model("b", "blue", (13, 10), 180, '["bow"]',
                                                                              attrs=ARCHER))
    opts = g.action_options("r", "idle")
    reactions = {"b": Reaction("attack", 0, "Bow")}
    d = Decision("action", "r", opts, context={"reactions": reactions, "path": ((5.0, 10.0, 0.0),)})
    assert GreedyPolicy().choose(g, d, random.Random(0)) == Action("attack", "b", "Bow")
    # a far weaker shot back (ACC 2) is worth less than the Dodge
    weak = _game(model("r", "red", (5, 10), 0, '["bow"]', attrs=ARCHER.replace("ACC = 12", "ACC = 2"))
                 + model("b", "blue", (13, 10), 180, '["bow"]', attrs=ARCHER))
    d = Decision("action", "r", weak.action_options("r", "idle"), context={"reactions": reactions,
                                                                          "path": ((5.0, 10.0, 0.0),)})
    assert GreedyPolicy().choose(weak, d, random.Random(0)) == Action("dodge")


def test_e_conf_greedy_archers_in_the_open_shoot_in_their_own_turns():
    models = (model("r", "red", (5, 12.9), 0, '["bow"]', attrs=ARCHER)
              + model("b", "blue", (21, 10), 180, '["bow"]', attrs=ARCHER))
    t = loads(f"format = 1\n{WEAPONS}\n[table]\nsize = [30, 20]\n{models}")
    shots = 0
    for seed in range(3):
        g = EldfallGame(t, parse_settings({"first": "red", "rounds": 3}, t),
                        {s: load_policy("greedy", "eldfall") for s in ("red", "blue")}, random.Random(seed))
        shots += sum(e["role"] == "activation" and e["action"]["kind"] == "attack" for e in g.play().events)
    assert shots >= 3


class _Passive:
    """Never activates; answers every other decision with its first option."""

    def choose(self, game, d, rng):
        return None if d.kind == "activate" else d.options[0]


SPRAY = WEAPONS + '''
[weapons.flamer]
name = "Flamer"
template = "spray-small"
pw = 12
stk = 2
'''


def test_e_tmpl_spray_greedy_closes_in_until_its_spray_covers_the_target():
    """(a spray counted as in reach over its whole length: the flamer stopped 7" away,
    where the template cannot cover its target, and did Nothing for the rest of the game)"""
    models = (model("fl", "red", (2, 12), 0, '["flamer"]', attrs="AGI = 5, SPD = 5, STA = 2, MEL = 10, ARM = 0, HP = 3")
              + model("b1", "blue", (16, 12), 180, attrs="AGI = 5, SPD = 3, STA = 1, MEL = 10, ARM = 0, HP = 3"))
    t = loads(f"format = 1\n{SPRAY}\n[table]\nsize = [30, 24]\n{models}")
    for seed in (1, 3):
        g = EldfallGame(t, parse_settings({"first": "red", "rounds": 2}, t),
                        {"red": load_policy("greedy", "eldfall"), "blue": _Passive()}, job_rng(seed, 0))
        acts = [e for e in g.play().events if e["role"] == "activation" and e["model"] == "fl"]
        assert any(e["action"]["kind"] == "attack" for e in acts), [e["text"] for e in acts]


def test_e_fall_greedy_does_not_run_off_a_roof_into_fall_rolls_for_nothing():
    """(at 1 HP it ran off a 3" roof with no ladder toward a far enemy, and was
    Incapacitated by its own fall) Nothing to attack and only falls down: it stays."""
    roof = '[[scenery]]\nid = "roof"\nrect = [2, 2, 8, 8]\nheight = 3\nwalkable = true\n'
    g = _game(model("r", "red", (5, 5), 0, attrs="AGI = 6, SPD = 4, STA = 2, MEL = 12, ARM = 1, HP = 1",
                    extra="z = 3") + model("b", "blue", (26, 16), 180), roof, rounds=2,
              red=load_policy("greedy", "eldfall"))
    record = g.play()
    for e in record.events:
        if e["model"] == "r" and e["role"] == "activation":
            assert not e["result"].get("falls"), e["text"]
    assert g.state.unit("r").hp == 1


POTS = WEAPONS + '''
[weapons.fire-pot]
name = "Fire Pot"
template = "circle-small"
bands = [[10, 0]]
pw = 12
stk = 2
'''


def test_e_tmpl_stk_greedy_splits_its_templates_between_models_one_wound_takes_out():
    """(both templates went on one 1-HP model: its template odds ignored the HP cap, so
    0.84 expected models out scored as 1.2) E-WOUND caps the Wounds at the HP."""
    models = (model("gren", "red", (4, 12), 0, '["fire-pot"]', attrs="AGI = 5, SPD = 4, STA = 1, MEL = 10, ARM = 0, HP = 2")
              + model("b1", "blue", (11, 9), 180, attrs="AGI = 5, SPD = 4, STA = 1, MEL = 10, ARM = 0, HP = 1")
              + model("b2", "blue", (11, 15), 180, attrs="AGI = 5, SPD = 4, STA = 1, MEL = 10, ARM = 0, HP = 1"))
    t = loads(f"format = 1\n{POTS}\n[table]\nsize = [24, 24]\n{models}")
    g = EldfallGame(t, parse_settings({"first": "red", "rounds": 1}, t), {"red": Driven(), "blue": Driven()},
                    random.Random(1))
    opts = g.action_options("gren", "idle")
    got = GreedyPolicy().choose(g, Decision("action", "gren", opts, context={"reactions": {}}), random.Random(0))
    assert got.split and {target for target, _ in got.split} == {"b1", "b2"}, got


BOWS = WEAPONS + '''
[weapons.short-bow]
name = "Short Bow"
bands = [[20, 0], [40, -6]]
pw = 9
'''


def test_e_reaction_e_cover_greedy_shoots_the_mover_where_it_is_in_the_open():
    """(its Attack of Opportunity took the path point nearest it, where the mover stood
    in Heavy Cover behind a wall, though the open points were in the same band)"""
    wall = '[[scenery]]\nid = "wall"\nrect = [9, 11.5, 9.5, 15]\nheight = 3\n'
    models = (model("archer", "red", (2, 12), 0, '["short-bow"]', attrs="AGI = 5, SPD = 4, STA = 1, ACC = 12, ARM = 0, HP = 2")
              + model("runner", "blue", (10.2, 4), 90, attrs="AGI = 5, SPD = 8, STA = 1, MEL = 10, ARM = 0, HP = 2"))
    t = loads(f"format = 1\n{BOWS}\n[table]\nsize = [24, 16]\n{wall}\n{models}")
    blue = Driven(["runner"], moves={"runner": Move("walk", (10.2, 11.3, 0.0), 90.0)})
    g = EldfallGame(t, parse_settings({"first": "blue", "rounds": 1}, t),
                    {"red": load_policy("greedy", "eldfall"), "blue": blue}, random.Random(1))
    ev = next(e for e in g.play().events if e["role"] == "reaction" and e["model"] == "archer")
    shot = ev["result"]["exchanges"][0]
    assert ev["action"]["kind"] == "attack" and shot["geometry"]["cover"]["level"] == "none", ev["text"]


@pytest.mark.parametrize("spd, rounds", [(9, 1), (4, 2)])
def test_e_move_climb_greedy_climbs_onto_the_roof_its_only_enemy_stands_on(spd, rounds):
    """(it never scored Special movement and only ran round the tower, shot at all game)
    With nothing to attack it closes in by the Run, Climb or Jump that ends nearest an
    enemy in 3-D: here the Climb up the tower's face. (a Climb had to end on a surface:
    with SPD 4 it never got up) SPD 4 climbs 2" at a time, hanging on the face between."""
    tower = '[[scenery]]\nid = "tower"\nrect = [6, 6, 10, 10]\nheight = 3\nwalkable = true\n'
    models = (model("climber", "red", (5.2, 8), 0, attrs=f"AGI = 6, SPD = {spd}, STA = 2, MEL = 12, ARM = 0, HP = 3")
              + model("archer", "blue", (9, 9), 180, '["short-bow"]', attrs="AGI = 5, SPD = 4, STA = 1, ACC = 8, ARM = 0, "
                      "HP = 2", extra="z = 3"))
    t = loads(f"format = 1\n{BOWS}\n[table]\nsize = [16, 16]\n{tower}\n{models}")
    for seed in range(2):
        g = EldfallGame(t, parse_settings({"first": "red", "rounds": rounds}, t),
                        {"red": load_policy("greedy", "eldfall"), "blue": _Passive()}, job_rng(seed, 0))
        climbs = [e for e in g.play().events if e["role"] == "activation" and e["model"] == "climber"]
        assert all(e["movement"]["kind"] == "climb" for e in climbs[:rounds]), [e["text"] for e in climbs]
        heights = [e["movement"]["path"][-1][2] for e in climbs]
        assert heights[0] == (3.0 if spd == 9 else pytest.approx(2.0 - (6 - 5.2 - t.model("climber").radius - 0.003),
                                                              abs=2e-3))
        assert any(x > 6 and z == 3.0 for x, _, z in (e["movement"]["path"][-1] for e in climbs)), \
            [e["text"] for e in climbs]  # on the roof


def test_e_move_jump_greedy_does_not_jump_into_the_wall_it_stands_against():
    """(with nothing to attack it ranked Special movement by the aim, and jumped 0.00 in
    into a wall) A Jump may end short of its aim, here where it starts: it is judged by
    where it ends, and one that closes in by less than CLOSE_IN is not made."""
    wall = '[[scenery]]\nid = "wall"\nrect = [6, 2, 7, 8]\nheight = 5\n'
    r = 0.6299212598425197  # (size M)
    g = _game(model("r", "red", (6 - r, 5), 0) + model("b", "blue", (26, 5), 180), wall,
              red=load_policy("greedy", "eldfall"))
    into_wall = Move("jump", (6 - r + 1.9, 5.0, 0.0))
    assert g.plan("r", into_wall).length < CLOSE_IN  # (legal: it stops at the wall)
    around = Move("run", (8.0, 9.5, 0.0))
    for options, best in (((Move("idle"), into_wall), Move("idle")), ((Move("idle"), into_wall, around), around)):
        got = g.policies["red"].choose(g, Decision("move", "r", options, open=True), random.Random(1))
        assert (got.kind, got.to) == (best.kind, best.to)
