"""S-BUILD and S-EXPLORE on hand-made islands, and the markers they leave for the next round."""

from __future__ import annotations

import random

import pytest

from skirmish.errors import SkirmishError
from skirmish.rules.spiritisland import Land, build, explore, explore_targets, invader_phase, island


def test_s_build_a_town_where_towns_do_not_outnumber_cities():
    isl = island([Land("a", "sands", explorers=1, build=True)])
    (ph, built) = build(isl, "a")
    assert built and ph.island.land("a").towns == 1 and ph.island.land("a").cities == 0
    isl = island([Land("a", "sands", towns=1, cities=1)])
    assert build(isl, "a")[0].island.land("a").towns == 2


def test_s_build_a_city_where_towns_outnumber_cities():
    isl = island([Land("a", "sands", towns=1)])
    (ph, built) = build(isl, "a")
    assert built and ph.island.land("a").cities == 1 and ph.island.land("a").towns == 1


def test_s_build_only_where_an_invader_stands():
    isl = island([Land("a", "sands", dahan=3)])
    (ph, built) = build(isl, "a")
    assert not built and ph.island == isl and "nothing built" in ph.events[0].text


def test_s_build_then_the_region_is_marked_to_ravage_next_round():
    isl = island([Land("a", "sands", explorers=1, build=True), Land("b", "jungle", dahan=1, build=True,
                                                                     neighbours=("a",))])
    after = invader_phase(isl, ["wetland"], random.Random(0)).island
    assert after.land("a").ravage and not after.land("a").build
    assert not after.land("b").ravage  # nothing was built in b: the invaders do not ravage there


def test_s_explore_coastal_regions_of_the_terrain():
    isl = island([Land("c", "jungle", coastal=True), Land("i", "jungle", neighbours=("c",)),
                  Land("s", "sands", coastal=True, neighbours=("i",))])
    assert explore_targets(isl, ["jungle"]) == ("c",)
    (ph, done) = explore(isl, ["jungle"])
    assert done == ("c",) and ph.island.land("c").explorers == 1 and ph.island.land("i").explorers == 0


def test_s_explore_inland_next_to_a_town():
    isl = island([Land("town", "sands", towns=1), Land("inland", "jungle", neighbours=("town",)),
                  Land("far", "jungle", neighbours=("inland",))])
    (ph, done) = explore(isl, ["jungle"])
    assert done == ("inland",)
    assert ph.island.land("inland").explorers == 1 and ph.island.land("far").explorers == 0
    assert "next to a town or city" in ph.events[0].text


def test_s_explore_inland_next_to_a_city_but_not_next_to_explorers_only():
    isl = island([Land("city", "sands", cities=1), Land("x", "sands", explorers=3),
                  Land("a", "wetland", neighbours=("city",)), Land("b", "wetland", neighbours=("x",))])
    assert explore_targets(isl, ["wetland"]) == ("a",)


def test_s_explore_a_region_with_its_own_town_is_explored():
    isl = island([Land("a", "mountain", towns=1)])
    assert explore_targets(isl, ["mountain"]) == ("a",)


def test_s_explore_two_terrains_at_once():
    isl = island([Land("a", "mountain", coastal=True), Land("b", "wetland", coastal=True),
                  Land("c", "sands", coastal=True)])
    assert explore_targets(isl, ["mountain", "wetland"]) == ("a", "b")


def test_s_explore_then_the_region_is_marked_to_build_next_round():
    isl = island([Land("a", "jungle", coastal=True), Land("b", "jungle")])
    after = invader_phase(isl, ["jungle"], random.Random(0)).island
    assert after.land("a").build and not after.land("b").build
    assert not after.land("a").ravage


def test_s_explore_refuses_unknown_terrains():
    isl = island([Land("a", "jungle", coastal=True)])
    with pytest.raises(SkirmishError, match="unknown terrain 'forest'"):
        explore(isl, ["forest"])


def test_s_ravage_build_explore_run_in_that_order_within_one_phase():
    # a is marked to ravage and to build; its town ravages (blight) before the city is built,
    # and the new city makes the inland jungle next to it explorable in the same phase.
    isl = island([Land("a", "sands", towns=1, ravage=True, build=True), Land("b", "jungle", neighbours=("a",))])
    ph = invader_phase(isl, ["jungle"], random.Random(0))
    steps = [e.step for e in ph.events]
    assert steps.index("ravage") < steps.index("build") < steps.index("explore")
    ravaged = next(e for e in ph.events if e.step == "ravage")
    assert ravaged.data["damage"] == 2  # the town only: the city came afterwards
    after = ph.island
    assert (after.land("a").towns, after.land("a").cities) == (1, 1)
    assert after.land("b").explorers == 1 and after.land("b").build and after.land("a").ravage


def test_s_explore_the_round_one_build_region_comes_from_the_file_marker():
    isl = island([Land("start", "sands", explorers=1, build=True), Land("x", "sands", explorers=1)])
    after = invader_phase(isl, ["mountain"], random.Random(0)).island
    assert after.land("start").towns == 1 and after.land("x").towns == 0
