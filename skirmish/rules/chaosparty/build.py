"""Building the sides (C-TOKENS, C-BUILD) and the caps the Flow keeps.

>>> c = Character("x", time=4, form=4, attack=2, defence=2)
>>> check_character(c, Variants())
>>> check_character(Character("y", time=7, form=5), Variants())
Traceback (most recent call last):
...
skirmish.errors.RuleInputError: character 'y': 7 time tokens, at most 6 of one colour (C-BUILD; the Unlimited variant lifts this)
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import RuleInputError
from .classes import COLOUR_CAP
from .tokens import CHARACTER_TOKENS, COLOURS, SLOTS_PER_PLAYER, Character, Player, Tokens, Variants


def cap_problem(c: Character, variants: Variants) -> str | None:
    """Why ``c`` breaks the caps a character keeps all game, or None: at most 12
    tokens, and at most 6 of one colour unless Unlimited."""
    if c.total > CHARACTER_TOKENS:
        return f"{c.total} tokens, at most {CHARACTER_TOKENS} (C-BUILD)"
    if not variants.unlimited:
        for colour in COLOURS:
            if c.colour(colour) > COLOUR_CAP:
                return (f"{c.colour(colour)} {colour} tokens, at most {COLOUR_CAP} of one colour (C-BUILD; the "
                        "Unlimited variant lifts this)")
    return None


def check_character(c: Character, variants: Variants) -> None:
    """C-BUILD for one starting character: exactly 12 tokens within the colour cap."""
    problem = cap_problem(c, variants)
    if problem is None and c.total != CHARACTER_TOKENS:
        problem = f"{c.total} tokens, a character is built with exactly {CHARACTER_TOKENS} (C-BUILD)"
    if problem:
        raise RuleInputError(f"character {c.id!r}: {problem}")


@dataclass(frozen=True)
class Duel:
    """The start of a game: the players (two, or more for multiplayer), what is in the
    bag, the variants and the turn limit after which the game is a draw."""

    name: str
    players: tuple[Player, ...]
    bag: Tokens = Tokens()
    variants: Variants = Variants()
    max_turns: int = 200

    def __post_init__(self) -> None:
        check_duel(self)

    @property
    def multiplayer(self) -> bool:
        """C-TURN: three or more players."""
        return len(self.players) >= 3


def check_duel(duel: Duel) -> None:
    """C-BUILD for every player, unique ids, and C-TOKENS: equal shares."""
    if len(duel.players) < 2:
        raise RuleInputError(f"{len(duel.players)} player(s): Chaos Party needs two (or more, multiplayer)")
    if duel.max_turns < 1:
        raise RuleInputError(f"max_turns {duel.max_turns}: must be 1 or more")
    seen: dict[str, str] = {}
    for p in duel.players:
        if p.id in seen:
            raise RuleInputError(f"player {p.id!r}: two players have this id")
        seen[p.id] = "player"
        if len(p.characters) != SLOTS_PER_PLAYER:
            raise RuleInputError(f"player {p.id!r}: {len(p.characters)} characters, each player fills exactly "
                                 f"{SLOTS_PER_PLAYER} slots (C-BUILD)")
        for c in p.characters:
            if c.id in seen:
                raise RuleInputError(f"character {c.id!r} of player {p.id!r}: the id is taken by another "
                                     f"{seen[c.id]}; ids are unique in a duel")
            seen[c.id] = "character"
            check_character(c, duel.variants)
    shares = {p.id: sum(c.total for c in p.characters) + p.store.total for p in duel.players}
    if len(set(shares.values())) > 1:
        listed = ", ".join(f"{k} {v}" for k, v in shares.items())
        raise RuleInputError(f"the players' tokens (characters plus store) differ: {listed}; the bag is split "
                             "equally between the stores (C-TOKENS)")
