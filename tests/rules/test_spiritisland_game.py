"""S-FEAR, S-BLIGHT and S-ROUND: fear effects and terror, the blight thresholds, the end
of the game, the spirits' simple powers, and invariants of whole phases and games."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.errors import SkirmishError
from skirmish.game.policy import RandomPolicy, load_policy
from skirmish.rules.spiritisland import (
    PASS,
    TERRAINS,
    GreedyPolicy,
    Land,
    add_fear,
    fear_effects,
    invader_phase,
    island,
    outcome,
    play_game,
    powers,
    reach,
    spirit_phase,
    use_power,
)

from conftest import LastOption, LastOptionPeeking


def test_s_fear_each_16_triggers_one_effect_at_the_next_invader_phase():
    isl = island([Land("a", "sands", coastal=True, explorers=1)], fear=33)
    ph = fear_effects(isl)
    assert [e.data["number"] for e in ph.events] == [1, 2] and ph.island.fear_effects == 2
    assert fear_effects(ph.island).events == ()  # each effect once
    ph = invader_phase(replace(ph.island, fear=48), ["mountain"], random.Random(0))
    assert [e.step for e in ph.events][:1] == ["fear_effect"] and ph.island.fear_effects == 3


def test_s_fear_each_48_raises_terror_and_destroyed_towns_and_cities_give_fear():
    isl = island([Land("a", "sands")], fear=46)
    ph = add_fear(isl, 3)
    assert ph.island.fear == 49 and ph.island.terror == 1
    assert [e.step for e in ph.events] == ["fear", "terror"]
    assert island([Land("a", "sands")], fear=96).terror == 2 and island([Land("a", "sands")], fear=200).terror == 2


@pytest.mark.parametrize("fear, pieces, won", [
    (0, {}, True), (0, {"explorers": 1}, False),
    (48, {"explorers": 3}, True), (48, {"towns": 1}, False),
    (96, {"towns": 2, "explorers": 1}, True), (96, {"cities": 1}, False),
    (146, {"cities": 5}, True),
])
def test_s_fear_victory_by_terror_level(fear, pieces, won):
    isl = island([Land("a", "sands", **pieces)], fear=fear)
    end = outcome(isl)
    assert (end is not None and end.result == "won") == won


def test_s_blight_the_spirits_lose_at_the_defeat_threshold():
    isl = island([Land("a", "sands", blight=29, towns=1, neighbours=("b",)), Land("b", "jungle", blight=0)],
                 blighted_at=13, defeat_at=30)
    assert outcome(isl) is None
    after = invader_phase(replace(isl, lands=tuple(replace(x, ravage=x.id == "a") for x in isl.lands)),
                          ["mountain"], random.Random(0)).island
    assert after.blight == 30 and after.blighted
    end = outcome(after)
    assert end is not None and end.result == "lost" and end.why == "blight"


def test_s_blight_a_spirit_with_no_presence_left_loses():
    isl = island([Land("a", "sands", explorers=2, ravage=True, presence={"river": 1}),
                  Land("b", "sands", presence={"earth": 1}, explorers=1)])
    after = invader_phase(isl, ["mountain"], random.Random(0)).island
    end = outcome(after)
    assert after.presence("river") == 0 and "river" in after.spirits
    assert end is not None and end.result == "lost" and end.why == "presence" and "river" in end.reason


def test_s_blight_losses_come_before_wins():
    # no invaders left (a win at terror 0) but the blight is over the limit: lost
    isl = island([Land("a", "sands", blight=31)], blighted=True)
    assert outcome(isl).result == "lost"


def test_spirit_powers_reach_range_from_presence_and_one_more_from_sacred_sites():
    lands = [Land(x, "sands", neighbours=(p,) if p else ()) for x, p in zip("abcde", ["", "a", "b", "c", "d"])]
    isl = island([*lands[:1], replace(lands[1], presence=(("river", 1),)), *lands[2:]], range=1)
    assert reach(isl, "river") == ("a", "b", "c")
    isl = isl.with_lands([replace(isl.land("b"), presence=(("river", 2),))])
    assert reach(isl, "river") == ("a", "b", "c", "d")


def test_spirit_powers_cost_energy_and_destroying_a_town_gives_fear():
    isl = island([Land("a", "sands", towns=1, explorers=1, presence={"river": 1})], spirit_energy=(("river", 2),))
    opts = powers(isl, "river")
    assert PASS == opts[-1]
    kinds = {(p.kind, p.piece, p.cost) for p in opts}
    assert ("destroy", "towns", 2) in kinds and ("destroy", "explorers", 1) in kinds and ("presence", None, 2) in kinds
    town = next(p for p in opts if p.piece == "towns")
    ph = use_power(isl, "river", town)
    assert ph.island.land("a").towns == 0 and ph.island.fear == 1 and ph.island.energy_of("river") == 0
    assert powers(ph.island, "river") == (PASS,)


def test_spirit_phase_gains_energy_each_round_and_keeps_what_is_unspent():
    isl = island([Land("a", "sands", presence={"river": 1})], energy=3)

    class Saver:
        def choose(self, game, decision, rng):
            return PASS

    after = spirit_phase(spirit_phase(isl, Saver(), random.Random(0)).island, Saver(), random.Random(0)).island
    assert after.energy_of("river") == 6


def test_spiritisland_policies_are_registered():
    assert isinstance(load_policy("greedy", "spiritisland"), GreedyPolicy)
    assert isinstance(load_policy("random", "spiritisland"), RandomPolicy)


def _isle() -> object:
    from skirmish import load
    from conftest import SCENARIOS
    return load(SCENARIOS / "island.toml").island


@pytest.mark.parametrize("seed", range(4))
def test_s_ravage_a_spirit_policy_that_draws_numbers_moves_no_cascade(seed):
    """(spirits and the invaders' cascades shared one generator: a spirit policy's draw
    changed where a later blight cascaded)"""
    isl = _isle()
    calm = play_game(isl, random.Random(seed), LastOption())
    peek = play_game(isl, random.Random(seed), LastOptionPeeking())
    assert calm == peek and any(e.step == "cascade" or "cascade" in e.text for r in calm.rounds for e in r.events)


def test_s_round_a_game_is_the_same_for_the_same_seed_and_ends_with_an_outcome():
    isl = _isle()
    a, b = play_game(isl, random.Random(5)), play_game(isl, random.Random(5))
    assert a == b and a.outcome.result in ("won", "lost")
    assert 1 <= len(a.rounds) <= 12 and [r.round for r in a.rounds] == list(range(1, len(a.rounds) + 1))
    if a.outcome.why == "time":
        assert len(a.rounds) == 12 and outcome(a.island) is None


def test_s_round_an_explore_order_too_short_is_refused_before_playing():
    isl = island([Land("a", "sands", coastal=True, presence={"river": 1}, explorers=1)], explore=(("sands",),))
    with pytest.raises(SkirmishError, match="explore order has 1 entry"):
        play_game(isl, random.Random(0), rounds=2)


# -- invariants over random islands -------------------------------------------------------------------

@st.composite
def islands(draw):
    n = draw(st.integers(1, 7))
    ids = [f"r{i}" for i in range(n)]
    lands = []
    for i, rid in enumerate(ids):
        nb = tuple(draw(st.lists(st.sampled_from(ids[:i]), unique=True, max_size=3))) if i else ()
        pieces = {k: draw(st.integers(0, 3)) for k in ("explorers", "towns", "cities", "dahan", "blight")}
        pres = {"river": draw(st.integers(0, 2))}
        lands.append(Land(rid, draw(st.sampled_from(TERRAINS)), draw(st.booleans()), nb, presence=pres,
                          ravage=draw(st.booleans()), build=draw(st.booleans()), **pieces))
    return island(lands)


@pytest.mark.slow
@given(islands(), st.lists(st.sampled_from(TERRAINS), min_size=1, max_size=2, unique=True), st.integers(0, 99))
@settings(max_examples=100, deadline=None)
def test_s_ravage_build_explore_invariants_on_random_islands(isl, terrains, seed):
    ph = invader_phase(isl, terrains, random.Random(seed))
    after = ph.island
    for land in after.lands:
        assert all(v >= 0 for v in land.pieces().values())
        assert all(n > 0 for _, n in land.presence)
    ravaging = [x for x in isl.lands if x.ravage and x.damage >= 2]
    assert after.blight == isl.blight + len(ravaging)  # one blight per ravage of 2+ damage, cascades only move it
    assert len([e for e in ph.events if e.step == "blight"]) == len(ravaging)
    built = {e.region for e in ph.events if e.step == "build" and e.data["built"]}
    explored = {e.region for e in ph.events if e.step == "explore" and e.region}
    assert {x.id for x in after.lands if x.ravage} == built
    assert {x.id for x in after.lands if x.build} == explored
    assert explored == set(_explore_oracle(isl, after, terrains))
    # the same seed, the same phase
    assert invader_phase(isl, terrains, random.Random(seed)) == ph


def _explore_oracle(before, after, terrains):
    """S-EXPLORE spelled out: lands of the terrains, coastal or within one step of a town or city
    (after building, as explore comes last)."""
    built_now = {x.id for x in after.lands if x.towns or x.cities}
    return [x.id for x in before.lands if x.terrain in terrains
            and (x.coastal or any(before.steps(x.id, s) <= 1 for s in built_now))]


@given(islands(), st.integers(0, 99))
@settings(max_examples=40, deadline=None)
def test_s_round_games_on_random_islands_end_and_never_go_negative(isl, seed):
    isl = replace(isl, explore=tuple((TERRAINS[i % 4],) for i in range(4)))
    game = play_game(isl, random.Random(seed), RandomPolicy(), rounds=4)
    assert game.outcome.result in ("won", "lost") and len(game.rounds) <= 4
    for land in game.island.lands:
        assert all(v >= 0 for v in land.pieces().values())
    assert all(v >= 0 for _, v in game.island.spirit_energy)
