"""Tokens, characters and players (C-TOKENS, C-BUILD, C-RESOLVE's loss order).

A character holds four kinds of token: Time (blue), Form (green) and red Potential
split into attack and defence. A store or the bag only knows colours.

>>> c = Character("blade", time=3, form=2, attack=4, defence=3)
>>> c.total, c.potential
(12, 7)
>>> hurt, lost = c.lose(3)          # Form first, then defence Potential (C-RESOLVE)
>>> hurt
Character('blade', time=3, form=0, attack=4, defence=2)
>>> lost
Tokens(time=0, form=2, potential=1)
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from ...errors import RuleInputError

Colour = Literal["time", "form", "potential"]
Slot = Literal["time", "form", "attack", "defence"]
COLOURS: tuple[Colour, ...] = ("time", "form", "potential")
SLOTS: tuple[Slot, ...] = ("time", "form", "attack", "defence")
#: C-RESOLVE: damage takes tokens in this order.
LOSS_ORDER: tuple[Slot, ...] = ("form", "defence", "attack", "time")
#: C-BUILD: tokens per character, characters per player.
CHARACTER_TOKENS = 12
SLOTS_PER_PLAYER = 4


def colour_of(slot: Slot) -> Colour:
    """The colour of a character's slot: attack and defence are red Potential."""
    return "potential" if slot in ("attack", "defence") else slot  # type: ignore[return-value]


@dataclass(frozen=True)
class Tokens:
    """Tokens counted by colour: a player's store or the bag."""

    time: int = 0
    form: int = 0
    potential: int = 0

    def __post_init__(self) -> None:
        for c in COLOURS:
            if getattr(self, c) < 0:
                raise RuleInputError(f"{c} tokens: a count is 0 or more, got {getattr(self, c)}")

    @property
    def total(self) -> int:
        return self.time + self.form + self.potential

    def count(self, colour: Colour) -> int:
        return int(getattr(self, colour))

    def plus(self, colour: Colour, n: int = 1) -> Tokens:
        """These tokens with ``n`` more (or fewer, ``n`` < 0) of ``colour``."""
        t, f, p = self.time, self.form, self.potential
        if colour == "time":
            t += n
        elif colour == "form":
            f += n
        else:
            p += n
        return Tokens(t, f, p)

    def merged(self, other: Tokens) -> Tokens:
        return Tokens(self.time + other.time, self.form + other.form, self.potential + other.potential)

    def draw(self, rng: random.Random) -> Colour:
        """A colour drawn uniformly among these tokens (the bag's random draw)."""
        if self.total == 0:
            raise RuleInputError("cannot draw from an empty bag")
        k = rng.randrange(self.total)
        for c in COLOURS:
            if k < self.count(c):
                return c
            k -= self.count(c)
        raise AssertionError("unreachable")  # pragma: no cover


@dataclass(frozen=True)
class Character:
    """One character: token counts in its four slots. No tokens left: lost for good (C-BUILD)."""

    id: str
    time: int = 0
    form: int = 0
    attack: int = 0
    defence: int = 0

    def __post_init__(self) -> None:
        for s in SLOTS:
            if getattr(self, s) < 0:
                raise RuleInputError(f"character {self.id!r}: {s} is a token count, 0 or more, got {getattr(self, s)}")

    def __repr__(self) -> str:
        return (f"Character({self.id!r}, time={self.time}, form={self.form}, attack={self.attack}, "
                f"defence={self.defence})")

    @property
    def potential(self) -> int:
        """Red tokens: attack plus defence Potential."""
        return self.attack + self.defence

    @property
    def total(self) -> int:
        return self.time + self.form + self.attack + self.defence

    @property
    def lost(self) -> bool:
        """C-BUILD: a character with no tokens is lost for good."""
        return self.total == 0

    def slot(self, slot: Slot) -> int:
        return int(getattr(self, slot))

    def colour(self, colour: Colour) -> int:
        """Tokens of one colour on this character."""
        return self.potential if colour == "potential" else self.slot(colour)

    def plus(self, slot: Slot, n: int = 1) -> Character:
        """This character with ``n`` more (``n`` < 0: fewer) tokens in ``slot``."""
        if self.slot(slot) + n < 0:
            raise RuleInputError(f"character {self.id!r} has {self.slot(slot)} {slot} tokens, cannot give {-n}")
        counts = {s: self.slot(s) for s in SLOTS}
        counts[slot] += n
        return Character(self.id, **counts)

    def lose(self, damage: int) -> tuple[Character, Tokens]:
        """C-RESOLVE: ``damage`` tokens taken in the order Form, defence Potential,
        attack Potential, Time; returns the character left and the tokens lost (to the bag)."""
        if damage < 0:
            raise RuleInputError(f"damage {damage}: damage is 0 or more")
        left, lost, ch = damage, Tokens(), self
        for s in LOSS_ORDER:
            k = min(left, ch.slot(s))
            if k:
                ch, lost, left = ch.plus(s, -k), lost.plus(colour_of(s), k), left - k
        return ch, lost


@dataclass(frozen=True)
class Player:
    """One player: character slots in order (lost ones stay, with no tokens) and a store."""

    id: str
    characters: tuple[Character, ...]
    store: Tokens = Tokens()

    def __repr__(self) -> str:
        alive = sum(not c.lost for c in self.characters)
        return f"Player({self.id!r}, {alive}/{len(self.characters)} characters, store={self.store})"

    @property
    def alive(self) -> tuple[Character, ...]:
        """The characters not lost."""
        return tuple(c for c in self.characters if not c.lost)

    @property
    def defeated(self) -> bool:
        """C-BUILD: a side with no characters left loses."""
        return not self.alive

    def character(self, cid: str) -> Character:
        for c in self.characters:
            if c.id == cid:
                return c
        raise RuleInputError(f"player {self.id!r} has no character {cid!r}; it has "
                             f"{', '.join(c.id for c in self.characters)}")

    def has(self, cid: str) -> bool:
        return any(c.id == cid for c in self.characters)

    def with_character(self, ch: Character) -> Player:
        """This player with ``ch`` in place of the character of the same id."""
        self.character(ch.id)
        return Player(self.id, tuple(ch if c.id == ch.id else c for c in self.characters), self.store)

    def __iter__(self) -> Iterator[Character]:
        return iter(self.characters)


@dataclass(frozen=True)
class Variants:
    """C-TURN variants: Unlimited (no colour cap, class 4) and Superiority (aspects).
    Multiplayer is not a switch: it applies whenever three or more players play."""

    unlimited: bool = False
    superiority: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(n for n in ("unlimited", "superiority") if getattr(self, n))
