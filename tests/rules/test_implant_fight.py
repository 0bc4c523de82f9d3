"""Implant fights: the tables (I-FIGHT), damage choices (I-DAMAGE), the policies, seeded fights
and the exact fight odds against a value-iteration oracle and a Monte Carlo."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.errors import IllegalActionError, RuleInputError
from skirmish.game.policy import PolicyError, RandomPolicy, load_policy
from skirmish.rules.implant import (
    ATTACK,
    DEFENCE,
    BoldPolicy,
    CautiousPolicy,
    Factors,
    FightSetup,
    apply_face,
    damage_options,
    fight_odds,
    fight_setup,
    level_bound,
    max_injuries,
    play_fight,
    pool,
    sample_fights,
    take_damage,
)
from skirmish.rules.implant import fight as fight_module

POLICIES = {"cautious": CautiousPolicy(), "bold": BoldPolicy()}


class Pick:
    """Answers every rung with a fixed option and every damage with a fixed choice (if offered)."""

    def __init__(self, rung: str | None = None, damage: str = "health") -> None:
        self.rung, self.damage = rung, damage

    def choose(self, game, decision, rng):
        if decision.kind == "damage":
            return self.damage if self.damage in decision.options else decision.options[-1]
        return self.rung if self.rung in decision.options else decision.options[0]


def at(health=3, enemy=3, initiative="me", injuries=0, drama=0, next_die=0, helps=1, hinders=0):
    s = fight_setup(health, enemy, helps, hinders, initiative=initiative, drama=drama).start()
    return s.with_(injuries=injuries, next_die=next_die)


def step(state, face, policy):
    return apply_face(state, face, policy, random.Random(0))


# -- I-FIGHT: the tables ----------------------------------------------------------------------------

@pytest.mark.parametrize("face,key,enemy,health,initiative,next_die", [
    (6, "extra", 1, 3, "me", 0), (6, "die", 2, 3, "me", 1),
    (5, "damage", 2, 3, "me", 0), (5, "extra", 1, 2, "me", 0),
    (4, "lose", 2, 3, "enemy", 0), (4, "hurt", 2, 2, "me", 0),
    (3, "nothing", 3, 3, "me", 0), (2, "lose", 3, 3, "enemy", 0), (1, "hurt", 3, 2, "enemy", 0),
])
def test_i_fight_with_the_initiative_each_rung(face, key, enemy, health, initiative, next_die):
    after, effect, taken = step(at(), face, Pick(key))
    assert effect.key == key
    assert (after.enemy_health, after.health, after.initiative, after.next_die) == (enemy, health, initiative, next_die)
    assert taken == (("health",) if health < 3 else ())


@pytest.mark.parametrize("face,key,enemy,health,initiative,next_die", [
    (6, "counter", 2, 3, "me", 0), (5, "take", 3, 3, "me", 0),
    (4, "safe", 3, 3, "enemy", 0), (4, "take", 3, 2, "me", 0),
    (3, "hurt", 3, 2, "me", 0), (2, "hurt", 3, 2, "enemy", 0), (1, "hindered", 3, 2, "enemy", -1),
])
def test_i_fight_defending_each_rung(face, key, enemy, health, initiative, next_die):
    after, effect, _ = step(at(initiative="enemy"), face, Pick(key))
    assert effect.key == key
    assert (after.enemy_health, after.health, after.initiative, after.next_die) == (enemy, health, initiative, next_die)


def test_i_fight_choices_are_offered_on_exactly_the_choose_one_rungs():
    two = {(side, f) for side, table in (("attack", ATTACK), ("defence", DEFENCE)) for f, o in table.items()
           if len(o) == 2}
    assert two == {("attack", 6), ("attack", 5), ("attack", 4), ("defence", 4)}


def test_i_fight_the_next_roll_die_changes_the_next_pool_once():
    after, _, _ = step(at(helps=1, hinders=1), 6, Pick("die"))      # an action die next roll
    assert after.pool() == pool(2, 1) and at(helps=1, hinders=1).pool() == pool(1, 1)
    again, _, _ = step(after, 3, Pick())
    assert again.next_die == 0 and again.pool() == pool(1, 1)
    hurt, _, _ = step(at(initiative="enemy", helps=1), 1, Pick(damage="health"))   # a hindrance die
    assert hurt.pool() == pool(1, 1)


def test_i_fight_injuries_are_hindering_factors_on_both_sides():
    assert at(helps=2, injuries=3).pool() == pool(2, 3)
    assert at(helps=2, injuries=3, initiative="enemy").pool() == pool(2, 3)


def test_i_fight_the_blow_lands_first_a_felled_enemy_strikes_no_blow_back():
    after, _, taken = step(at(enemy=2), 5, Pick("extra"))
    assert (after.result, after.health, taken) == ("win", 3, ())
    after, _, taken = step(at(enemy=1), 4, Pick("hurt"))
    assert (after.result, after.health, taken) == ("win", 3, ())


def test_i_fight_an_auto_answer_is_yes_or_no_of_the_table():
    strong = fight_setup(2, 4, helps=6)
    log = play_fight(strong, CautiousPolicy(), random.Random(1))
    assert {r.roll.rung.face for r in log.rounds} == {5} and log.result == "win" and len(log.rounds) == 4
    weak = fight_setup(3, 4, hinders=5, initiative="enemy")
    log = play_fight(weak, CautiousPolicy(), random.Random(1))
    assert {r.roll.rung.face for r in log.rounds} == {2} and log.result == "die" and len(log.rounds) == 3


# -- I-DAMAGE ---------------------------------------------------------------------------------------

def test_i_damage_the_three_ways_to_take_it():
    s = at(health=2, drama=1)
    assert damage_options(s) == ("drama", "injury", "health")
    assert take_damage(s, "drama").drama == 0
    assert take_damage(s, "injury").injuries == 1
    assert take_damage(take_damage(s, "health"), "health").result == "die"
    assert damage_options(at(drama=0)) == ("injury", "health")


@pytest.mark.parametrize("helps,hinders", [(0, 0), (1, 0), (3, 1), (0, 3), (0, 4), (0, 5), (0, 7), (8, 0)])
def test_i_damage_injuries_stop_where_the_pools_would_stop_rolling(helps, hinders):
    setup = fight_setup(3, 3, helps, hinders)
    k = max_injuries(setup)
    # brute force: the largest count with both pools still rolled (at most 5 hindrance dice)
    expected = max((n for n in range(30) if pool(helps, hinders + n).auto != "no"), default=-1)
    assert k == max(expected, 0)
    last = setup.start().with_(injuries=k)
    assert "injury" not in damage_options(last)
    if k:
        assert "injury" in damage_options(last.with_(injuries=k - 1))


def test_i_damage_injuries_stop_at_the_weaker_side():
    setup = FightSetup(3, 3, Factors(3, 0), Factors(0, 1), "me", 0)
    assert max_injuries(setup) == 3          # defending: 1 + 3 - 0 + 1 = 5 hindrance dice


def test_i_damage_an_illegal_choice_is_refused():
    with pytest.raises(IllegalActionError, match="drama"):
        take_damage(at(drama=0), "drama")

    class Cheat:
        def choose(self, game, decision, rng):
            return "shrug"

    with pytest.raises(IllegalActionError, match="answered 'shrug'"):
        step(at(), 5, Cheat())


# -- policies ---------------------------------------------------------------------------------------

def test_policies_are_registered_for_implant():
    assert isinstance(load_policy("cautious", "implant"), CautiousPolicy)
    assert isinstance(load_policy("bold", "implant"), BoldPolicy)
    with pytest.raises(PolicyError, match="unknown policy 'brave'"):
        load_policy("brave", "implant")


@pytest.mark.parametrize("face,initiative", [(6, "me"), (5, "me"), (4, "me"), (4, "enemy")])
def test_cautious_never_takes_damage_by_choice_bold_does(face, initiative):
    s = at(enemy=5, initiative=initiative, health=3)
    assert step(s, face, CautiousPolicy())[0].health == 3
    assert step(s, face, BoldPolicy())[0].health == (3 if face == 6 else 2)


def test_damage_choices_cautious_spares_health_bold_spares_the_dice():
    s = at(health=2, drama=0)
    assert step(s, 1, CautiousPolicy())[2] == ("injury",)
    assert step(s, 1, BoldPolicy())[2] == ("health",)
    assert step(s.with_(health=1), 1, BoldPolicy())[2] == ("injury",)
    assert step(s.with_(drama=1), 1, BoldPolicy())[2] == ("drama",)


# -- seeded fights ----------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(20))
def test_i_fight_a_seeded_fight_is_a_consistent_log(seed):
    setup = fight_setup(3, 3, 1, 1, drama=1)
    log = play_fight(setup, BoldPolicy(), random.Random(seed))
    assert log == play_fight(setup, BoldPolicy(), random.Random(seed))
    state = setup.start()
    for r in log.rounds:
        assert r.before == state and r.side == state.side and r.roll.pool == state.pool()
        assert (r.after, r.effect, r.damage) == step(state, r.roll.rung.face, BoldPolicy())
        state = r.after
    assert state == log.end and log.result in ("win", "die")


def test_i_fight_a_fight_that_cannot_end_is_refused(monkeypatch):
    # attacking: a plain "no" (lose the initiative); defending: a plain "yes" (take it back)
    stuck = FightSetup(3, 3, Factors(0, 5), Factors(5, 0), "me", 0)
    with pytest.raises(RuleInputError, match="go on forever"):
        fight_odds(stuck, CautiousPolicy())
    monkeypatch.setattr(fight_module, "MAX_ROLLS", 200)
    with pytest.raises(RuleInputError, match="did not end in 200 rolls"):
        play_fight(stuck, CautiousPolicy(), random.Random(0))


def test_exact_odds_refuse_a_policy_that_draws_dice():
    with pytest.raises(PolicyError, match="deterministic"):
        fight_odds(fight_setup(2, 2), RandomPolicy())


# -- exact fight odds -------------------------------------------------------------------------------

def value_iteration(setup: FightSetup, policy, sweeps: int = 5000):
    """Oracle: P(win), P(win injured), E[rolls] by float fixed-point iteration over every reachable state."""
    start = setup.start()
    states, moves, todo = {start}, {}, [start]
    while todo:
        s = todo.pop()
        odds = [float(p) for p in s.pool().odds().outcomes]
        moves[s] = [(p, apply_face(s, f, policy, random.Random(0))[0]) for f, p in enumerate(odds, 1) if p]
        for _, n in moves[s]:
            if n.result is None and n not in states:
                states.add(n)
                todo.append(n)
    win = {s: 0.0 for s in states}
    hurt = dict(win)
    rolls = dict(win)

    def end(n, table, value):
        return value(n) if n.result is not None else table[n]

    for _ in range(sweeps):
        delta = 0.0
        for s in states:
            w = sum(p * end(n, win, lambda n: float(n.result == "win")) for p, n in moves[s])
            h = sum(p * end(n, hurt, lambda n: float(n.result == "win" and n.injuries > 0)) for p, n in moves[s])
            r = 1 + sum(p * end(n, rolls, lambda n: 0.0) for p, n in moves[s])
            delta = max(delta, abs(w - win[s]), abs(h - hurt[s]), abs(r - rolls[s]))
            win[s], hurt[s], rolls[s] = w, h, r
        if delta < 1e-13:
            break
    return win[start], hurt[start], rolls[start]


CASES = [
    (fight_setup(3, 3, 1, 1, drama=1), "cautious"),
    (fight_setup(3, 3, 1, 1, drama=1), "bold"),
    (fight_setup(2, 4, 0, 2, initiative="enemy"), "cautious"),
    (fight_setup(2, 4, 0, 2, initiative="enemy"), "bold"),
    (fight_setup(1, 1), "bold"),
    (fight_setup(4, 2, 3, 0, drama=2), "cautious"),
    (FightSetup(3, 2, Factors(0, 2), Factors(2, 0), "enemy", 1), "bold"),
]


@pytest.mark.parametrize("setup,name", CASES)
def test_i_fight_exact_odds_match_value_iteration(setup, name):
    odds = fight_odds(setup, POLICIES[name])
    win, hurt, rolls = value_iteration(setup, POLICIES[name])
    assert odds.win + odds.die == 1
    assert float(odds.win) == pytest.approx(win, abs=1e-9)
    assert float(odds.injured) == pytest.approx(hurt, abs=1e-9)
    assert float(odds.expected_rolls) == pytest.approx(rolls, rel=1e-9)


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 3), st.integers(1, 3), st.integers(0, 7), st.integers(0, 7), st.integers(0, 7),
       st.integers(0, 7), st.integers(0, 1), st.sampled_from(["me", "enemy"]), st.sampled_from(["cautious", "bold"]))
def test_i_fight_exact_odds_match_value_iteration_with_different_attack_and_defence(
        health, enemy, a_helps, a_hinders, d_helps, d_hinders, drama, init, name):
    setup = FightSetup(health, enemy, Factors(a_helps, a_hinders), Factors(d_helps, d_hinders), init, drama)
    if pool(a_helps, a_hinders).auto == "no" and pool(d_helps, d_hinders).auto == "yes":
        with pytest.raises(RuleInputError, match="go on forever"):   # attacking a plain no, defending a plain yes
            fight_odds(setup, POLICIES[name])
        return
    odds = fight_odds(setup, POLICIES[name])
    win, hurt, rolls = value_iteration(setup, POLICIES[name])
    assert float(odds.win) == pytest.approx(win, abs=1e-9)
    assert float(odds.injured) == pytest.approx(hurt, abs=1e-9)
    assert float(odds.expected_rolls) == pytest.approx(rolls, rel=1e-9)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 3), st.integers(1, 3), st.integers(0, 3), st.integers(0, 3), st.integers(0, 2),
       st.sampled_from(["me", "enemy"]), st.sampled_from(["cautious", "bold"]))
def test_i_fight_exact_ends_are_a_distribution_of_legal_ends(health, enemy, helps, hinders, drama, init, name):
    setup = fight_setup(health, enemy, helps, hinders, initiative=init, drama=drama)
    odds = fight_odds(setup, POLICIES[name])
    assert sum(p for _, p in odds.ends) == 1 and all(p > 0 for _, p in odds.ends)
    for e, _ in odds.ends:
        assert 0 <= e.injuries <= max_injuries(setup) and 0 <= e.drama <= drama
        assert (e.health == 0) == (e.result == "die") and e.health <= health
    assert odds.unhurt_win + odds.injured == odds.win and odds.expected_rolls >= 1


def monte_carlo_check(setup, name, fights, sigmas=5.0):
    odds = fight_odds(setup, POLICIES[name])
    counts = sample_fights(setup, POLICIES[name], fights, random.Random(2026))
    assert sum(counts.values()) == fights
    seen = {"win": (counts[("win", False)] + counts[("win", True)]) / fights,
            "die": (counts[("die", False)] + counts[("die", True)]) / fights,
            "injured": counts[("win", True)] / fights}
    for key, exact in (("win", odds.win), ("die", odds.die), ("injured", odds.injured)):
        p = float(exact)
        sd = (p * (1 - p) / fights) ** 0.5
        assert abs(seen[key] - p) <= sigmas * sd + 1 / fights, (key, seen[key], p)


@pytest.mark.parametrize("setup,name", CASES[:2])
def test_i_fight_exact_odds_match_a_monte_carlo_of_10_4_fights(setup, name):
    monte_carlo_check(setup, name, 10**4, sigmas=6.0)


@pytest.mark.slow
def test_i_fight_exact_odds_match_a_monte_carlo_of_10_5_fights():
    monte_carlo_check(*CASES[1], 10**5)


@pytest.mark.slow
@pytest.mark.parametrize("setup,name", CASES[2:4])
def test_i_fight_exact_odds_match_a_monte_carlo_of_10_4_fights_enemy_first(setup, name):
    monte_carlo_check(setup, name, 10**4, sigmas=6.0)


def test_i_fight_exact_odds_report_progress_within_the_level_bound():
    setup = fight_setup(3, 2, 0, 1, drama=2)
    seen: list[int] = []
    fight_odds(setup, CautiousPolicy(), progress=seen.append)
    assert seen == list(range(1, len(seen) + 1)) and 1 < len(seen) <= level_bound(setup)


def test_i_fight_more_enemy_health_never_helps_a_cautious_character():
    wins = [fight_odds(fight_setup(3, e, 1, 0), CautiousPolicy()).win for e in range(1, 6)]
    assert wins == sorted(wins, reverse=True) and wins[0] > wins[-1]
    assert all(isinstance(w, Fraction) for w in wins)


class _Peeking(CautiousPolicy):
    """The cautious choices, drawing a number first (as a Monte Carlo policy would)."""

    def choose(self, game, decision, rng):
        rng.random()
        return super().choose(game, decision, rng)


def test_i_fight_a_policy_that_draws_numbers_never_moves_the_dice():
    """(the policy was handed the dice generator: drawing a number changed the next rolls)"""
    setup = fight_setup(3, 4, helps=2, hinders=1)
    a = play_fight(setup, CautiousPolicy(), random.Random(5))
    b = play_fight(setup, _Peeking(), random.Random(5))
    assert [r.roll for r in a.rounds] == [r.roll for r in b.rounds] and len(a.rounds) > 2
    assert sample_fights(setup, CautiousPolicy(), 200, random.Random(2)) == \
        sample_fights(setup, _Peeking(), 200, random.Random(2))
