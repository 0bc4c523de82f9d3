"""Simulating scripts: forced fights step by step, refusals, trials against exact odds, workers."""

from __future__ import annotations

import dataclasses
import math
import random
import tomllib

import pytest

from skirmish import IllegalActionError, ScenarioError
from skirmish.scenario.load import from_dict
from skirmish.sim.engine import Simulator
from skirmish.sim.script import load_with_script, parse_script
from skirmish.sim.trials import run_trials
from skirmish.rules.eldfall.wounds import ModelState

from conftest import SCENARIOS


def scenario(script: str, a_attrs: str = "MEL = 25, ACC = 25, ARM = 0, HP = 2, AGI = 5, STA = 2",
             b_attrs: str = "MEL = 25, ARM = 0, HP = 2, AGI = 5", b_at: str = "[6.3, 5]", extra: str = "",
             mode: str = "assisted"):
    text = f"""
format = 1
mode = "{mode}"
[table]
size = [24, 24]
[weapons.blade]
reach = 1
pw = 25
stk = "STA"
[weapons.bow]
bands = [[12, 0], [24, -6]]
pw = 25
[[models]]
id = "a"
side = "red"
size = "M"
at = [5, 5]
weapons = ["blade", "bow"]
attributes = {{ {a_attrs} }}
[[models]]
id = "b"
side = "blue"
size = "M"
at = {b_at}
facing = 180
weapons = ["blade"]
attributes = {{ {b_attrs} }}
{extra}
{script}
"""
    data = tomllib.loads(text)
    raw = data.pop("script", [])
    table = from_dict(data, "t.toml")
    return table, parse_script(raw, table, "t.toml")


ATTACK = '[[script]]\nactor = "a"\ndo = "attack"\ntarget = "b"\nweapon = "blade"\n'
BACK = '[[script]]\nactor = "b"\ndo = "attack"\ntarget = "a"\n'


@pytest.mark.parametrize("seed", range(5))
def test_forced_fight_step_by_step(seed):
    """E-ROLL-ATK / E-ROLL-DMG / E-WOUND: attribute 25 succeeds on every face and PW 25
    wounds on every face, so a's 2 Strikes always deal 2 Wounds: b (HP 2) is Incapacitated
    and its own attack is skipped, whatever the seed."""
    table, script = scenario(ATTACK + BACK)
    sim = Simulator(table, script)
    sim.validate()
    run = sim.run(random.Random(seed))
    first, second = run.events
    assert first.kind == "attack" and first.data["hits"] == 2 and first.data["wounds"] == 2
    assert first.data["target_state"] == "Incapacitated"
    assert second.kind == "skip" and "b is Incapacitated" in second.text
    assert run.states["b"] is ModelState.INCAPACITATED and run.states["a"] is ModelState.UNHARMED


def test_forced_failure_with_attribute_zero():
    """E-MOD-ZERO: an attribute modified to 0 fails automatically: no dice, no Wounds."""
    table, script = scenario(ATTACK.replace('weapon = "blade"\n', 'weapon = "blade"\nmodifiers = [-30]\n'))
    run = Simulator(table, script).run(random.Random(1))
    assert run.events[0].data["dice"] == [] and run.events[0].data["wounds"] == 0
    assert run.states["b"] is ModelState.UNHARMED


def test_dead_after_second_attack():
    """E-WOUND: an Incapacitated model that takes another Wound becomes Dead; a Dead
    model is then flat (its hitbox is its base), and attacks on it are skipped."""
    table, script = scenario(ATTACK + ATTACK + ATTACK)
    run = Simulator(table, script).run(random.Random(0))
    assert [e.kind for e in run.events] == ["attack", "attack", "skip"]
    assert run.events[1].data["target_state"] == "Dead" and run.states["b"] is ModelState.DEAD


def test_confrontation_reaction_in_script():
    """E-CONF: with reaction = "attack" the target strikes back in the same exchange."""
    table, script = scenario(ATTACK.replace('weapon = "blade"\n', 'weapon = "blade"\nreaction = "attack"\n'))
    run = Simulator(table, script).run(random.Random(2))
    assert run.events[0].data["exchange"] == "confrontation" and run.events[0].data["reaction_dice"]


def test_out_of_reach_is_refused_with_action_model_and_reason():
    table, sc = scenario(ATTACK, b_at="[15, 5]")
    with pytest.raises(IllegalActionError) as info:
        Simulator(table, sc).validate()
    assert "script[0] (a attacks b with blade)" in str(info.value) and "beyond blade's reach of 1 in" in str(info.value)


def test_out_of_arc_is_refused():
    """E-ARC: b faces away from a, so b's attack on a has no line of sight."""
    table, sc = scenario(BACK, b_at="[15, 5]")
    table = table.with_model(dataclasses.replace(table.model("b"), facing=0.0))
    with pytest.raises(IllegalActionError, match=r"script\[0\] .*no line of sight to a \(out of arc\)"):
        Simulator(table, sc).validate()


def test_wall_blocks_the_shot():
    wall = '[[scenery]]\nid = "wall"\nrect = [9, 0, 9.5, 10]\nheight = 4\n'
    table, sc = scenario('[[script]]\nactor = "a"\ndo = "attack"\ntarget = "b"\nweapon = "bow"\n', b_at="[15, 5]",
                         extra=wall)
    with pytest.raises(IllegalActionError, match="no line of sight to b \\(blocked by wall\\)"):
        Simulator(table, sc).validate()


def test_E_MODE_realism_refuses_a_premeasure_step():
    table, sc = scenario('[[script]]\nactor = "a"\ndo = "measure"\ntarget = "b"\n', mode="realism")
    with pytest.raises(IllegalActionError, match="realism mode"):
        Simulator(table, sc).validate()


def test_script_errors_name_the_entry():
    with pytest.raises(ScenarioError, match=r'script\[0\] \(actor "a"\): target: no model with id "zed"'):
        scenario('[[script]]\nactor = "a"\ndo = "attack"\ntarget = "zed"\n')
    with pytest.raises(ScenarioError, match=r"script\[0\].*do: expected one of move, attack, template, measure"):
        scenario('[[script]]\nactor = "a"\ndo = "dance"\n')


def test_trial_frequencies_match_exact_odds():
    """The simulated mean Wounds of a first action lie within 5 standard errors of the
    exact expectation (the d20 rules' exact odds)."""
    table, script = scenario(ATTACK, a_attrs="MEL = 11, ARM = 0, HP = 3, STA = 2", b_attrs="ARM = 2, HP = 3, AGI = 6",
                             extra="")
    table = table.with_model(dataclasses.replace(
        table.model("a"), weapons=tuple(dataclasses.replace(w, pw=9) for w in table.model("a").weapons)))
    report = run_trials(table, script, 4000, seed=11)
    a = report.actions[0]
    assert a.exact_wounds is not None
    exact = float(a.exact_wounds)
    # each trial deals 0..2 Wounds: the variance is at most 1
    assert abs(a.mean()[0] - exact) < 5 * math.sqrt(1.0 / a.resolved) and a.resolved == report.trials
    assert report.states["b"]["Unharmed"] + report.states["b"]["Wounded"] == report.trials


def test_an_action_s_mean_is_over_the_trials_it_was_resolved_in(tmp_path):
    """An attack whose actor is sometimes out before it (raider-3, Incapacitated in some
    trials by akane's Sword) is averaged over the trials it was made in, as its exact odds
    are (the mean over every trial read about 6 % low)."""
    text = (SCENARIOS / "mill-ambush.toml").read_text(encoding="utf-8")
    path = tmp_path / "mill.toml"
    path.write_text(text + '\n[[script]]\nactor = "raider-3"\ndo = "attack"\ntarget = "akane"\n'
                    'weapon = "Sword"\n', encoding="utf-8")
    table, script = load_with_script(path)
    report = run_trials(table, script, 1200, seed=2)
    last = report.actions[-1]
    assert 0 < last.resolved < report.trials  # (raider-3 is out in some trials)
    assert last.mean() == (last.wounds / last.resolved, last.wounds_back / last.resolved)
    assert last.to_json(report.trials)["wounds_mean"] == last.wounds / last.resolved


def test_an_action_s_standard_error_is_the_sample_sd_over_the_trials_it_was_resolved_in(tmp_path):
    """Each mean's standard error is stdev / sqrt(n) of the per-trial Wounds over the trials
    the action was resolved in (an oracle that replays every trial alone)."""
    import statistics
    from skirmish.scale import job_rng
    from skirmish.sim.engine import Simulator
    text = (SCENARIOS / "mill-ambush.toml").read_text(encoding="utf-8")
    path = tmp_path / "mill.toml"
    path.write_text(text + '\n[[script]]\nactor = "raider-3"\ndo = "attack"\ntarget = "akane"\n'
                    'weapon = "Sword"\n', encoding="utf-8")
    table, script = load_with_script(path)
    trials = 600
    report = run_trials(table, script, trials, seed=2, workers=2)
    sim = Simulator(table, script)
    per_trial = [sim.run(job_rng(2, i), log=False).wounds for i in range(trials)]
    for k, a in enumerate(report.actions):
        made = [w[k] for w in per_trial if w[k] is not None]
        assert len(made) == a.resolved
        for got, values in zip(a.se(), ([w for w, _ in made], [b for _, b in made])):
            assert got is not None and math.isclose(got, statistics.stdev(values) / math.sqrt(len(values)),
                                                    rel_tol=1e-9, abs_tol=1e-12)
    last = report.actions[-1]
    assert 0 < last.resolved < trials  # (over the trials it was made in, not all trials)
    doc = last.to_json(trials)
    assert doc["wounds_mean_se"] == last.se()[0] and doc["wounds_back_mean_se"] == last.se()[1]
    one = run_trials(table, script, 1, seed=2).actions[0]
    assert one.se() == (None, None) and one.to_json(1)["wounds_mean_se"] is None


def test_same_seed_same_report_for_any_worker_count():
    table, script = load_with_script(SCENARIOS / "mill-ambush.toml")
    one = run_trials(table, script, 600, seed=4, workers=1)
    two = run_trials(table, script, 600, seed=4, workers=2)
    assert one == two
    other = run_trials(table, script, 600, seed=5, workers=1)
    assert other != one


def test_bundled_script_runs_and_logs():
    table, script = load_with_script(SCENARIOS / "mill-ambush.toml")
    sim = Simulator(table, script)
    sim.validate()
    a, b = sim.run(random.Random(3)), sim.run(random.Random(3))
    assert [e.to_json() for e in a.events] == [e.to_json() for e in b.events]
    assert len(a.events) == len(script)


def test_E_FALL_scripted_jump_from_a_roof():
    """E-FALL in a script: a model (SPD 4, AGI 0) drops 6" from a roof: floor(6 / 2) = 3
    Agility rolls, all failed (E-MOD-ZERO), so 3 Wounds, whatever the seed."""
    roof = '[[scenery]]\nid = "tower"\nrect = [6, 2, 12, 8]\nheight = 6\nwalkable = true\n'
    table, script = scenario('[[script]]\nactor = "a"\ndo = "move"\nto = [13.5, 5]\n',
                             a_attrs="SPD = 4, AGI = 0, HP = 5, ARM = 0", b_at="[20, 5]", extra=roof)
    table = table.with_model(dataclasses.replace(table.model("a"), x=11.0, y=5.0, z=6.0))
    sim = Simulator(table, script)
    sim.validate()
    for seed in range(3):
        run = sim.run(random.Random(seed))
        (event,) = run.events
        assert event.kind == "move" and event.data["path"]["fall_rolls"] == 3
        assert [r["success"] for r in event.data["fall_rolls"]] == [False, False, False]
        assert run.states["a"] is ModelState.WOUNDED and run.wounds[0] == (0, 3)


def test_E_TMPL_scripted_template_hits_and_wounds():
    """A circle template on b: b cannot Dodge (AGI 0) and PW 25 wounds on any face, so b
    takes exactly one Wound per template (E-TMPL, E-ROLL-DMG); exact odds agree."""
    tmpl = '[[script]]\nactor = "a"\ndo = "template"\ntemplate = "circle-small"\non = "b"\npw = 25\n'
    table, script = scenario(tmpl, b_attrs="ARM = 0, HP = 3, AGI = 0", b_at="[12, 5]")
    sim = Simulator(table, script)
    sim.validate()
    run = sim.run(random.Random(0))
    (event,) = run.events
    assert event.kind == "template" and [h["id"] for h in event.data["hits"]] == ["b"]
    assert event.data["hits"][0]["wounds"] == 1 and run.states["b"] is ModelState.WOUNDED
    report = run_trials(table, script, 50, seed=2)
    assert report.actions[0].exact_wounds == 1 and report.actions[0].wounds == 50


def test_move_then_melee_in_a_script():
    """A move into base contact (E-MOVE-ENEMY) makes the melee attack after it legal."""
    move = '[[script]]\nactor = "a"\ndo = "move"\nto = "b"\n'
    table, script = scenario(move + ATTACK, a_attrs="MEL = 25, ARM = 0, HP = 2, AGI = 5, STA = 2, SPD = 6",
                             b_at="[9, 5]")
    sim = Simulator(table, script)
    sim.validate()
    run = sim.run(random.Random(1))
    assert run.events[0].kind == "move" and run.events[0].data["path"]["legal"]
    assert run.events[1].kind == "attack" and run.events[1].data["distance"] == pytest.approx(0, abs=1e-3)


def test_e_dodge_the_log_shows_the_dodge_die_and_dodged_hits():
    """E-DODGE in the log: the Dodge die's face is shown, a success whose Hit the Dodge
    ignored reads "dodged" (not ✗), and counts read as English ("1 Hit", "0 Wounds")."""
    table, script = load_with_script(SCENARIOS / "mill-ambush.toml")
    sim = Simulator(table, script)
    seen_dodged = False
    for seed in range(60):
        ev = sim.run(random.Random(seed)).events[0]
        assert ev.kind == "attack" and "Dodge die" in ev.text and "(s)" not in ev.text
        if ev.data["dodge"]["success"] and any(d["success"] and not d["critical"] for d in ev.data["dice"]):
            assert "dodged" in ev.text and "✗" not in ev.text.split("->")[0]
            seen_dodged = True
    assert seen_dodged
