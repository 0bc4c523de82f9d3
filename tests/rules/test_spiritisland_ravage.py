"""S-RAVAGE on hand-made islands: damage to the land and the dahan, blight and its
cascade (chains, the policy's choice, presence loss), dahan striking back, fear."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.errors import IllegalActionError
from skirmish.game.policy import Decision
from skirmish.rules.spiritisland import Land, add_blight, invader_phase, island, ravage, strike_back


@dataclass
class Pick:
    """A policy that sends every cascade to the first of ``prefer`` offered, and records the decisions."""

    prefer: tuple[str, ...]
    seen: list[Decision] = None  # type: ignore[assignment]

    def choose(self, game, decision, rng):
        self.seen = (self.seen or []) + [decision]
        return next((o for o in self.prefer if o in decision.options), decision.options[0])


def line(*lands: Land):
    """An island whose lands are bordered in a row: a - b - c - ..."""
    out = []
    for i, land in enumerate(lands):
        nb = tuple(x.id for x in lands[max(0, i - 1):i])
        out.append(Land(**{**land.__dict__, "neighbours": nb}))
    return island(out)


def test_s_ravage_damage_1_per_explorer_2_per_town_3_per_city_hits_land_and_dahan_at_once():
    isl = island([Land("a", "sands", explorers=2, towns=1, cities=1, dahan=5, ravage=True)])
    ph = ravage(isl, "a", random.Random(0))
    first = ph.events[0]
    assert first.step == "ravage" and first.data["damage"] == 2 + 2 + 3
    assert first.data["dahan_destroyed"] == 3  # 7 damage destroys as many 2-health dahan as possible
    assert ph.island.land("a").blight == 1


def test_s_ravage_one_damage_adds_no_blight_and_kills_no_dahan():
    isl = island([Land("a", "sands", explorers=1, dahan=2)])
    ph = ravage(isl, "a", random.Random(0))
    land = ph.island.land("a")
    assert land.blight == 0 and ph.island.blight == 0
    # the two surviving dahan strike back for 4 damage: the explorer is destroyed
    assert land.dahan == 2 and land.explorers == 0
    assert [e.step for e in ph.events] == ["ravage", "strike"]


def test_s_ravage_two_damage_adds_a_blight_to_a_clean_region():
    isl = island([Land("a", "sands", towns=1), Land("b", "jungle", neighbours=("a",))])
    ph = ravage(isl, "a", random.Random(0))
    assert ph.island.land("a").blight == 1 and ph.island.land("b").blight == 0
    assert not [e for e in ph.events if e.step == "cascade"]


def test_s_ravage_cascade_chain_passes_the_blight_along_blighted_regions():
    isl = line(Land("a", "sands", cities=1, blight=1), Land("b", "jungle", blight=2), Land("c", "wetland", blight=1),
               Land("d", "mountain"))
    ph = ravage(isl, "a", random.Random(0))
    after = ph.island
    # a, b and c already have blight: the new one runs a -> b -> c -> d and stays in d
    assert [after.land(x).blight for x in "abcd"] == [1, 2, 1, 1]
    assert after.blight == isl.blight + 1
    cascades = [(e.data["from"], e.data["to"]) for e in ph.events if e.step == "cascade"]
    assert cascades == [("a", "b"), ("b", "c"), ("c", "d")]
    blight = next(e for e in ph.events if e.step == "blight")
    assert blight.region == "d" and blight.data["chain"] == ["a", "b", "c", "d"]


def test_s_ravage_cascade_never_goes_back_along_its_chain_and_stops_when_it_cannot_go_on():
    isl = line(Land("a", "sands", cities=1, blight=1), Land("b", "jungle", blight=1))
    ph = ravage(isl, "a", random.Random(0))
    # b's only neighbour is a, already in the chain: the blight stays in b
    assert ph.island.land("b").blight == 2 and ph.island.land("a").blight == 1
    assert "every neighbour is already in the chain" in [e for e in ph.events if e.step == "cascade"][-1].text


def test_s_ravage_cascade_neighbour_is_the_policys_choice_among_the_candidates():
    lands = [Land("hub", "sands", cities=1, blight=1, neighbours=("n1", "n2", "n3")),
             Land("n1", "jungle"), Land("n2", "wetland"), Land("n3", "mountain")]
    isl = island(lands)
    for target in ("n1", "n2", "n3"):
        pick = Pick((target,))
        after = ravage(isl, "hub", random.Random(0), pick).island
        assert after.land(target).blight == 1 and after.blight == isl.blight + 1
        (d,) = pick.seen
        assert d.kind == "cascade" and d.actor == "invaders" and d.options == ("n1", "n2", "n3")
        assert d.context["from"] == "hub"


def test_s_ravage_cascade_default_is_seeded_random_among_the_candidates():
    isl = island([Land("hub", "sands", cities=1, blight=1, neighbours=("n1", "n2", "n3")),
                  Land("n1", "jungle"), Land("n2", "wetland"), Land("n3", "mountain")])
    where = {seed: next(x for x in ("n1", "n2", "n3") if ravage(isl, "hub", random.Random(seed)).island.land(x).blight)
             for seed in range(40)}
    assert set(where.values()) == {"n1", "n2", "n3"}
    assert all(ravage(isl, "hub", random.Random(s)).island.land(w).blight for s, w in where.items())


def test_s_ravage_a_policy_choosing_outside_the_candidates_is_refused():
    isl = line(Land("a", "sands", cities=1, blight=1), Land("b", "jungle"))

    class Rogue:
        def choose(self, game, decision, rng):
            return "a"

    with pytest.raises(IllegalActionError, match="policy answered 'a' to cascade: not one of its 1 legal options \\('b'\\)"):
        ravage(isl, "a", random.Random(0), Rogue())


def test_s_ravage_presence_loss_one_of_each_spirit_where_the_blight_lands():
    isl = line(Land("a", "sands", towns=1, blight=1, presence={"river": 2}),
               Land("b", "jungle", presence={"river": 2, "earth": 1, "sky": 3}))
    ph = ravage(isl, "a", random.Random(0))
    after = ph.island
    assert dict(after.land("b").presence) == {"river": 1, "sky": 2}  # earth's only presence there is gone
    assert dict(after.land("a").presence) == {"river": 2}  # a passed the blight on: a keeps its presence
    lost = sorted(e.data["spirit"] for e in ph.events if e.step == "presence")
    assert lost == ["earth", "river", "sky"]


def test_s_ravage_presence_loss_in_the_ravaged_region_when_it_takes_the_blight():
    isl = island([Land("a", "sands", explorers=2, presence={"river": 1})])
    after = ravage(isl, "a", random.Random(0)).island
    assert after.land("a").presence_of("river") == 0 and after.presence("river") == 0


def test_s_ravage_surviving_dahan_strike_back_two_damage_each_and_destroyed_towns_give_fear():
    # 1 town + 1 city = 5 damage: 2 of 4 dahan die, the 2 left deal 4 damage
    isl = island([Land("a", "sands", towns=1, cities=1, dahan=4)])
    ph = ravage(isl, "a", random.Random(0))
    land = ph.island.land("a")
    assert land.dahan == 2
    # 4 damage cannot destroy both (2 + 3): one piece at most, and of those the city (more health, more fear)
    assert (land.towns, land.cities) == (1, 0)
    assert ph.island.fear == 2


@given(st.integers(0, 12), st.integers(0, 4), st.integers(0, 4), st.integers(0, 4))
@settings(max_examples=300, deadline=None)
def test_s_ravage_strike_back_destroys_as_many_as_possible_against_brute_force(damage, e, t, c):
    got = strike_back(damage, e, t, c)
    best = max((x + y + z, x + 2 * y + 3 * z) for x, y, z in itertools.product(range(e + 1), range(t + 1), range(c + 1))
               if x + 2 * y + 3 * z <= damage)
    assert (got["explorers"] + got["towns"] + got["cities"],
            got["explorers"] + 2 * got["towns"] + 3 * got["cities"]) == best
    assert got["explorers"] <= e and got["towns"] <= t and got["cities"] <= c


def test_s_ravage_only_where_marked_and_nothing_happens_without_invaders():
    isl = island([Land("a", "sands", towns=1, dahan=1), Land("b", "jungle", ravage=True, dahan=2, neighbours=("a",))])
    ph = invader_phase(isl, ["mountain"], random.Random(0))
    assert ph.island.land("a").dahan == 1 and ph.island.blight == 0
    assert any(e.step == "ravage" and e.region == "b" and e.data["damage"] == 0 for e in ph.events)


def test_s_ravage_with_no_invaders_left_carries_every_ravage_field():
    """docs/spiritisland.md: every `ravage` event has damage, dahan_destroyed and dahan_left."""
    isl = island([Land("b", "jungle", ravage=True, dahan=3)])
    (event,) = ravage(isl, "b", random.Random(0)).events
    assert event.step == "ravage" and "no invaders left" in event.text
    assert dict(event.data) == {"damage": 0, "dahan_destroyed": 0, "dahan_left": 3}


def test_s_ravage_add_blight_blights_the_island_at_its_threshold():
    isl = island([Land("a", "sands", blight=12, neighbours=("b",)), Land("b", "jungle")], blighted_at=13)
    ph = add_blight(isl, "b", random.Random(0))
    assert ph.island.blight == 13 and ph.island.blighted
    assert any(e.step == "blighted" for e in ph.events)
