"""S-PIECES: the pieces of a region — invaders with damage and health 1, 2, 3, dahan
with health 2, blight, and each spirit's presence (2+ is a sacred site)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skirmish.errors import SkirmishError
from skirmish.rules.spiritisland import Land
from skirmish.rules.spiritisland.invaders import strike_back

counts = st.integers(min_value=0, max_value=6)


@given(counts, counts, counts)
def test_s_pieces_invader_damage_is_1_per_explorer_2_per_town_3_per_city(e: int, t: int, c: int) -> None:
    land = Land("a", "sands", explorers=e, towns=t, cities=c)
    assert land.damage == e + 2 * t + 3 * c
    assert land.invaders == e + t + c


def _most_destroyed(damage: int, e: int, t: int, c: int) -> int:
    """Oracle: the most invaders ``damage`` can destroy, trying every subset of pieces
    one by one, each needing its full health (explorer 1, town 2, city 3)."""
    pieces = [1] * e + [2] * t + [3] * c
    best = 0
    for r in range(len(pieces) + 1):
        for chosen in itertools.combinations(pieces, r):
            if sum(chosen) <= damage:
                best = max(best, r)
    return best


@given(st.integers(min_value=0, max_value=14), st.integers(0, 3), st.integers(0, 3), st.integers(0, 3))
def test_s_pieces_invader_health_1_2_3_bounds_what_damage_destroys(damage: int, e: int, t: int, c: int) -> None:
    dead = strike_back(damage, e, t, c)
    assert dead["explorers"] <= e and dead["towns"] <= t and dead["cities"] <= c
    assert dead["explorers"] + 2 * dead["towns"] + 3 * dead["cities"] <= damage
    assert sum(dead.values()) == _most_destroyed(damage, e, t, c)


@pytest.mark.parametrize(("presence", "sacred"), [(0, False), (1, False), (2, True), (3, True)])
def test_s_pieces_two_or_more_presence_of_one_spirit_is_a_sacred_site(presence: int, sacred: bool) -> None:
    land = Land("a", "jungle", presence={"river": presence, "earth": 1})
    assert land.sacred_site("river") is sacred
    assert land.sacred_site("earth") is False
    assert land.presence_of("river") == presence


@pytest.mark.parametrize("piece", ["explorers", "towns", "cities", "dahan", "blight"])
def test_s_pieces_negative_counts_are_refused_naming_the_land_and_piece(piece: str) -> None:
    with pytest.raises(SkirmishError, match=rf"land 'w1': {piece} cannot be negative"):
        Land("w1", "wetland", **{piece: -1})
