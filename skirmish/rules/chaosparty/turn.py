"""Who moves first and who may be attacked (C-FIRST, C-TURN).

Bidding (C-FIRST) is an open auction of Time tokens: players bid in seat order, each
bid higher than the last or a pass (a player who passes is out); the last bidder
left moves first and returns that many Time tokens from its characters to its store.

Superiority (C-TURN): a character's aspect is its strictly dominant colour;
Potential has the advantage over Potential, Form over Time, Time over Form.

>>> aspect(Character("a", time=2, form=4, attack=3, defence=3))
'potential'
>>> has_advantage(Character("a", time=6, form=2, attack=2, defence=2), Character("b", form=6, time=4, attack=2))
True
"""

from __future__ import annotations

from collections.abc import Sequence

from ...errors import IllegalActionError
from .tokens import COLOURS, Character, Colour, Player

#: C-TURN Superiority: aspect → the aspect it has the advantage over.
BEATS: dict[Colour, Colour] = {"potential": "potential", "form": "time", "time": "form"}


def aspect(c: Character) -> Colour | None:
    """The strictly dominant colour of ``c`` (None when two colours tie for the most)."""
    counts = sorted(((c.colour(col), col) for col in COLOURS), reverse=True)
    return counts[0][1] if counts[0][0] > counts[1][0] else None


def has_advantage(attacker: Character, target: Character) -> bool:
    """C-TURN Superiority: the attacker's aspect beats the target's."""
    a, t = aspect(attacker), aspect(target)
    return a is not None and t is not None and BEATS[a] == t


def legal_bids(highest: int | None, time_available: int) -> tuple[int, ...]:
    """C-FIRST: bids above the highest so far (0 may open), up to the Time the player holds."""
    start = 0 if highest is None else highest + 1
    return tuple(range(start, time_available + 1))


def time_on_characters(player: Player) -> int:
    return sum(c.time for c in player.characters)


def return_time(player: Player, character_id: str) -> Player:
    """C-FIRST: one Time token of ``character_id`` back to the store."""
    c = player.character(character_id)
    if c.time < 1:
        raise IllegalActionError(f"{character_id} has no Time token to return")
    return Player(player.id, player.characters, player.store.plus("time")).with_character(c.plus("time", -1))


def seat_order_from(first: str, seats: Sequence[str]) -> tuple[str, ...]:
    """The turn order: ``first``, then the others in seat order (players alternate, C-TURN)."""
    i = list(seats).index(first)
    return tuple(seats[i:]) + tuple(seats[:i])


def open_targets(players: Sequence[Player], attacker: str, attacked_this_round: frozenset[str],
                 multiplayer: bool) -> tuple[str, ...]:
    """C-TURN: the players ``attacker`` may attack; in multiplayer, not one already
    attacked this round (no one is attacked twice a round)."""
    others = [p.id for p in players if p.id != attacker and not p.defeated]
    if not multiplayer:
        return tuple(others)
    return tuple(p for p in others if p not in attacked_this_round)
