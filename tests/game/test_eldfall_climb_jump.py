"""Climb and Jump as movement in a game (E-MOVE-CLIMB, E-MOVE-JUMP, E-FALL, E-ACTION-COMBO)."""

from __future__ import annotations

import random

import pytest

from skirmish.game.eldfall import EldfallGame, IllegalChoice, Move, parse_settings
from skirmish.game.eldfall.choices import NOTHING, face_climbs
from skirmish.game.eldfall.loop import PLANNER_KIND
from skirmish.scenario.load import loads

from eldfall_fixtures import WEAPONS, model, piece
from eldfall_policies import Driven

ROOFS = (piece("roof-a", (2, 2, 8, 10), 4, walkable=True) + piece("roof-b", (11, 2, 17, 10), 4, walkable=True)
         + piece("crate", (2, 14, 6, 18), 2.5, walkable=True))


def _table(models: str):
    return loads(f"format = 1\n{WEAPONS}\n[table]\nsize = [24, 24]\n{ROOFS}\n{models}")


def _play(table, red: Driven, blue: Driven | None = None, seed: int = 1):
    g = EldfallGame(table, parse_settings({"first": "red", "rounds": 1}, table),
                    {"red": red, "blue": blue or Driven()}, random.Random(seed))
    return g, g.play()


def _jumper(spd: int = 4, agi: int = 6) -> str:
    return (model("r1", "red", (7.2, 6), 0, attrs=f"AGI = {agi}, SPD = {spd}, STA = 1, MEL = 12, ARM = 1, HP = 3",
                  extra="z = 4") + model("b1", "blue", (20, 20), 180))


def test_e_move_jump_e_fall_a_jump_that_falls_short_drops_and_rolls():
    """SPD 4 jumps ⌈4/2⌉ = 2": aimed across the 3" gap at the far roof, the line ends in
    the air over the gap and the model drops 4" to the table: ⌊4 / (4/2)⌋ = 2 Agility
    rolls, a Wound for each failure (E-FALL)."""
    for seed in range(8):
        red = Driven(["r1"], moves={"r1": Move("jump", (9.19, 6.0, 4.0))})
        g, record = _play(_table(_jumper()), red, seed=seed)
        ev = next(e for e in record.events if e["role"] == "activation")
        assert ev["movement"]["kind"] == "jump"
        assert ev["movement"]["path"] == [[7.2, 6.0, 4.0], [9.19, 6.0, 4.0], [9.19, 6.0, 0.0]]
        m = g.state.model("r1")
        assert (m.x, m.y, m.z) == (9.19, 6.0, 0.0)
        falls = ev["result"]["falls"]
        assert len(falls) == 2
        for f in falls:  # E-ROLL-ATTR: success when the face ≤ AGI
            assert f["success"] == (f["face"] <= 6)
        assert g.state.unit("r1").hp == 3 - sum(not f["success"] for f in falls)
        assert ev["action"]["kind"] == "nothing"  # E-ACTION-COMBO: Special movement


@pytest.mark.parametrize("state,rolls", [((), 2), (("Slowed",), 4), (("Crippled",), 4)])
def test_e_fall_rolls_count_the_speed_the_states_leave(state, rolls):
    """E-FALL counts intervals of half *its* Speed: Slowed (or Crippled) SPD 4 is 2, so
    the 4" drop after the 1" Jump it then has is ⌊4 / (2/2)⌋ = 4 rolls (the listed SPD 4
    gave 2)."""
    extra = "z = 4" + (f"\nstates = {list(state)!r}".replace("'", '"') if state else "")
    table = _table(model("r1", "red", (7.9, 6), 0, attrs="AGI = 6, SPD = 4, STA = 1, MEL = 12, ARM = 1, HP = 9",
                         extra=extra) + model("b1", "blue", (20, 20), 180))
    aim = (8.9, 6.0, 4.0)  # (its base hangs over the edge: a 1" Jump clears it)
    g, record = _play(table, Driven(["r1"], moves={"r1": Move("jump", aim)}))
    ev = next(e for e in record.events if e["role"] == "activation")
    assert ev["movement"]["path"][-1] == [aim[0], 6.0, 0.0]
    assert len(ev["result"]["falls"]) == rolls


def test_e_move_jump_landing_on_a_roof_makes_no_fall_rolls():
    """SPD 10 jumps 5": the far roof's near edge is 3.8" away; aiming 5.3" away is refused
    (the aim is part of the declared Jump), 4.6" lands on the roof: no fall rolls."""
    table = _table(model("r1", "red", (7.2, 6), 0, attrs="AGI = 6, SPD = 10, STA = 1, MEL = 12, ARM = 1, HP = 3",
                         extra="z = 4") + model("b1", "blue", (20, 20), 180))
    red = Driven(["r1"], moves={"r1": Move("jump", (12.5, 6.0, 4.0))})
    with pytest.raises(IllegalChoice, match="over budget"):
        _play(table, red)
    red = Driven(["r1"], moves={"r1": Move("jump", (11.8, 6.0, 4.0))})
    g, record = _play(table, red)
    ev = next(e for e in record.events if e["role"] == "activation")
    assert ev["result"]["falls"] == [] and g.state.model("r1").z == 4.0 and g.state.model("r1").x == 11.8


def test_e_move_climb_onto_a_top_taller_than_the_hitbox():
    """An M model (hitbox 1.77") cannot walk onto a 2.5" crate; with SPD 10 it climbs
    ⌈10/2⌉ = 5": to the face, 2.5" up it and the step over the edge (4.7")."""
    attrs = "AGI = 6, SPD = 10, STA = 1, MEL = 12, ARM = 1, HP = 3"
    table = _table(model("r1", "red", (4, 12.6), 90, attrs=attrs) + model("b1", "blue", (20, 20), 180))
    g0 = EldfallGame(table, parse_settings(None, table), {"red": Driven(), "blue": Driven()}, random.Random(1))
    with pytest.raises(IllegalChoice):
        g0.plan("r1", Move("walk", (4.0, 14.8, 2.5)))
    red = Driven(["r1"], moves={"r1": Move("climb", (4.0, 14.8, 2.5))})
    g, record = _play(table, red)
    ev = next(e for e in record.events if e["role"] == "activation")
    assert ev["movement"]["kind"] == "climb" and ev["movement"]["length"] <= 5.0 + 1e-9
    assert g.state.model("r1").z == 2.5
    assert ev["action"]["kind"] == "nothing"


def test_e_move_climb_e_move_jump_budget_is_half_speed_and_crouched_may_not():
    attrs = "AGI = 6, SPD = 5, STA = 1, MEL = 12, ARM = 1, HP = 3"
    table = _table(model("r1", "red", (4, 12.6), 90, attrs=attrs) + model("b1", "blue", (20, 20), 180))
    g = EldfallGame(table, parse_settings(None, table), {"red": Driven(), "blue": Driven()}, random.Random(1))
    assert g.budget("r1", "climb") == g.budget("r1", "jump") == 3.0  # ⌈5/2⌉
    g.state = g.state.with_unit(g.state.unit("r1").__class__(**{**g.state.unit("r1").__dict__,
                                                                "states": frozenset({"Crouched"})}))
    with pytest.raises(IllegalChoice, match="Crouched"):
        g.plan("r1", Move("jump", (4.0, 10.0, 0.0)))


def test_e_action_combo_climb_and_jump_are_special():
    table = _table(_jumper())
    g = EldfallGame(table, parse_settings(None, table), {"red": Driven(), "blue": Driven()}, random.Random(1))
    for kind in ("climb", "jump"):
        assert g.action_options("r1", kind) == (NOTHING,)


def test_e_move_jump_every_offered_climb_and_jump_passes_the_checker():
    table = _table(_jumper(spd=6))
    g = EldfallGame(table, parse_settings(None, table), {"red": Driven(), "blue": Driven()}, random.Random(3))
    g._upkeep()
    offered = [o for o in g.move_options("r1") if o.kind in ("climb", "jump")]
    assert offered
    for o in offered:
        mr = g.plan("r1", o)
        again = g.state.table.check_move("r1", list(mr.via), kind=PLANNER_KIND[o.kind], budget=g.budget("r1", o.kind),
                                         declared=True)
        assert again.legal and again.points[-1] == pytest.approx(mr.path[-1])


def test_e_move_jump_the_replay_says_the_movement_spent_and_the_drop_apart():
    """(the replay's step text said "jump 5.99"" of a ⌈4/2⌉ = 2" Jump that dropped 4")"""
    import json

    from skirmish.game.eldfall.replay import parse_log, replay
    from skirmish.viewer.replay_view import step_lines

    table = _table(_jumper())
    red = Driven(["r1"], moves={"r1": Move("jump", (9.19, 6.0, 4.0))})
    _, record = _play(table, red)
    text = "".join(json.dumps(e) + "\n" for e in record.events)
    rp = replay(table, parse_log(text, "game.jsonl"))
    k = next(k for k in range(1, len(rp) + 1) if rp.step(k).role == "activation")
    assert 'movement: jump 1.99" (a 5.99" path with its drop), facing 0°' in step_lines(rp, k)


def test_e_move_jump_a_roof_across_a_gap_at_the_same_height_is_aimed_at():
    """(every top at the model's own height was skipped: a Jump across a gap between two
    equal roofs, the commonest Jump, was offered only by chance, in a random direction)"""
    from skirmish.game.eldfall.choices import climb_jump_aims

    table = _table(model("r1", "red", (7.2, 6), 0, attrs="AGI = 6, SPD = 10, STA = 1, MEL = 12, ARM = 1, HP = 3",
                         extra="z = 4") + model("b1", "blue", (20, 20), 180))
    climbs, jumps = (climb_jump_aims(table, "r1", k, 5.0, random.Random(0), 0) for k in ("climb", "jump"))
    across = [p for p in jumps if p[0] > 11 and p[2] == 4.0]
    assert across and not [p for p in climbs if p[2] == 4.0]  # (a Climb crosses one face: not across)
    red = Driven(["r1"], moves={"r1": Move("jump", across[0])})
    g, _ = _play(table, red)
    m = g.state.model("r1")
    assert (m.x, m.y, m.z) == across[0]


TOWER = piece("tower", (6, 6, 10, 10), 3, walkable=True)
SLOW = "AGI = 6, SPD = 4, STA = 2, MEL = 12, ARM = 0, HP = 3"


def _tower() -> object:
    models = model("climber", "red", (5.2, 8), 0, attrs=SLOW) + model("b1", "blue", (9, 9), 180, extra="z = 3")
    return loads(f"format = 1\n{WEAPONS}\n[table]\nsize = [16, 16]\n{TOWER}\n{models}")


def test_e_move_climb_a_slow_model_climbs_a_tower_over_activations_stopping_on_its_face():
    """(a Climb had to end on a surface: SPD 4 never climbed a 3" roof without a ladder)
    ⌈4/2⌉ = 2" a Climb: to the face and 1.8" up it, hanging there; the last 1.2" and over the
    edge in later Activations (E-MOVE-CLIMB: "may stop on a vertical face")."""
    table = _tower()
    foot = 6 - table.model("climber").radius - 0.003
    plan = iter([Move("climb", (foot, 8.0, 1.8)), Move("climb", (foot, 8.0, 3.0)), Move("climb", (7.0, 8.0, 3.0))])
    red = Driven(["climber"] * 3, moves={"climber": lambda options: next(plan)})
    g = EldfallGame(table, parse_settings({"first": "red", "rounds": 2}, table), {"red": red, "blue": Driven()},
                    random.Random(1))
    events = [e for e in g.play().events if e["role"] == "activation" and e["model"] == "climber"]
    ends = [e["movement"]["path"][-1] for e in events[:3]]
    assert ends == [pytest.approx(p, abs=1e-4) for p in ([foot, 8.0, 1.8], [foot, 8.0, 3.0], [7.0, 8.0, 3.0])]
    assert "hanging on the face" in events[0]["text"] and "hanging" not in events[2]["text"]
    assert [e["action"]["kind"] for e in events[:3]] == ["nothing"] * 3  # (Special movement)


def test_e_move_climb_a_model_on_a_face_only_climbs_on_or_stays():
    """On a face it climbs on (up or down) or stays: no Walk, Run or Jump, no Crouch,
    and its Dodge move only stays (E-MOVE-CLIMB, E-MOVE-SURFACE; docs/game.md)."""
    table = _tower()
    g = EldfallGame(table, parse_settings(None, table), {"red": Driven(), "blue": Driven()}, random.Random(1))
    foot = 6 - table.model("climber").radius - 0.003
    g.state = g.state.moved("climber", foot, 8.0, 1.5, 0.0)
    g._upkeep()
    assert g.on_face("climber") and not g.on_face("b1")
    opts = g.move_options("climber")
    assert {o.kind for o in opts} == {"idle", "climb"} and all(o.crouch is None for o in opts)
    aims = face_climbs(g.state.table, "climber", g.budget("climber", "climb"), 0.0, "tower")
    assert [g.plan("climber", Move("climb", p)).path[-1] for p in aims] == [(foot, 8.0, 3.0), (foot, 8.0, 0.0)]
    assert aims[0] == next(o.to for o in opts if o.kind == "climb")  # (up the face's top: onto the roof is over 2")
    assert g.dodge_move_options("climber") == (Move("idle"),)
    for bad, why in ((Move("walk", (4.0, 8.0, 0.0)), "only a Climb moves it on"),
                     (Move("idle", crouch="end"), "cannot Crouch")):
        with pytest.raises(IllegalChoice, match=why):
            g.plan("climber", bad)


def test_e_state_crouched_a_crouched_model_on_a_face_stands_up_to_climb_on():
    """(every toggle was refused on a face: a Crouched one there could never move again)"""
    table = _tower()
    g = EldfallGame(table, parse_settings(None, table), {"red": Driven(), "blue": Driven()}, random.Random(1))
    foot = 6 - table.model("climber").radius - 0.003
    g.state = g.state.moved("climber", foot, 8.0, 1.5, 0.0)
    u = g.state.unit("climber")
    g.state = g.state.with_unit(u.__class__(**{**u.__dict__, "states": frozenset({"Crouched"}), "ap": 2}))
    climbs = [o for o in g.move_options("climber") if o.kind == "climb"]
    assert climbs and all(o.crouch == "start" for o in climbs)
    assert g.plan("climber", climbs[0]).path[-1][2] == 3.0
