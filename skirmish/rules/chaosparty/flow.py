"""The Flow (C-FLOW): at the start of a turn, a d4 of token moves.

A move is a :class:`FlowMove`:

- ``shift``: one Potential token from attack to defence or back;
- ``store_swap``: a token of the character's goes to the store and one of another
  colour comes from the store into slot ``take``;
- ``swap``: a token goes from ``character`` to ``other`` (same slot) and one of
  another colour comes back from ``other``'s slot ``take``;
- ``add``: a store token into slot ``take``;
- ``discard``: a token (``character``'s, or the store's when ``character`` is None)
  goes to the bag, then one token is drawn from the bag into the store.

Every move keeps the caps of C-BUILD (12 tokens, 6 of one colour unless Unlimited)
on the characters that receive; a character left with no tokens is lost for good.

>>> p = Player("red", (Character("a", time=6, form=4, attack=1), Character("b", time=6, attack=3, defence=3)),
...            Tokens(form=1))
>>> sorted({m.kind for m in legal_moves(p, Variants())})
['add', 'discard', 'shift', 'store_swap', 'swap']
>>> p2, bag = apply_move(p, Tokens(), FlowMove("shift", "b", give="attack"), None)
>>> p2.character("b")
Character('b', time=6, form=0, attack=2, defence=4)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from ...errors import IllegalActionError
from .classes import COLOUR_CAP
from .tokens import CHARACTER_TOKENS, COLOURS, SLOTS, Character, Colour, Player, Slot, Tokens, Variants, colour_of  # noqa: F401

MoveKind = Literal["shift", "store_swap", "swap", "add", "discard"]
#: C-FLOW: the Flow's die.
FLOW_DIE = 4


@dataclass(frozen=True)
class FlowMove:
    """One token move of the Flow (see the module docstring for the kinds)."""

    kind: MoveKind
    character: str | None
    give: Slot | Colour | None = None
    take: Slot | None = None
    other: str | None = None

    def __str__(self) -> str:
        c = self.character
        if self.kind == "shift":
            to = "defence" if self.give == "attack" else "attack"
            return f"{c}: 1 {self.give} -> {to}"
        if self.kind == "store_swap":
            return f"{c}: 1 {self.give} to the store for 1 {self.take}"
        if self.kind == "swap":
            return f"{c} gives 1 {self.give} to {self.other} for 1 {self.take}"
        if self.kind == "add":
            return f"{c}: 1 {self.take} from the store"
        return f"{c or 'store'}: 1 {self.give} to the bag, 1 drawn into the store"


def legal_moves(player: Player, variants: Variants) -> tuple[FlowMove, ...]:
    """Every legal Flow move of ``player`` (lost characters take no part)."""
    moves: list[FlowMove] = []
    alive = player.alive
    store = player.store

    def room(c: Character, colour: Colour, extra_token: bool) -> bool:
        return _no_room(c, colour, extra_token, variants) is None

    for c in alive:
        for s in SLOTS:
            if c.slot(s) == 0:
                continue
            if s in ("attack", "defence"):
                moves.append(FlowMove("shift", c.id, give=s))
            for t in SLOTS:
                ct = colour_of(t)
                if ct == colour_of(s):
                    continue
                if store.count(ct) > 0 and room(c, ct, False):
                    moves.append(FlowMove("store_swap", c.id, give=s, take=t))
                for o in alive:
                    if o.id != c.id and o.slot(t) > 0 and room(c, ct, False) and room(o, colour_of(s), False):
                        moves.append(FlowMove("swap", c.id, give=s, take=t, other=o.id))
            moves.append(FlowMove("discard", c.id, give=s))
        for t in SLOTS:
            if store.count(colour_of(t)) > 0 and room(c, colour_of(t), True):
                moves.append(FlowMove("add", c.id, take=t))
    for colour in COLOURS:
        if store.count(colour) > 0:
            moves.append(FlowMove("discard", None, give=colour))
    return tuple(moves)


def _no_room(c: Character, colour: Colour, extra_token: bool, variants: Variants) -> str | None:
    """Why ``c`` cannot take one more ``colour`` token (``extra_token``: its total grows), or None."""
    if extra_token and c.total >= CHARACTER_TOKENS:
        return f"{c.total + 1} tokens, at most {CHARACTER_TOKENS} (C-BUILD)"
    if not variants.unlimited and c.colour(colour) >= COLOUR_CAP:
        return (f"{c.colour(colour) + 1} {colour} tokens, at most {COLOUR_CAP} of one colour (C-BUILD; the "
                "Unlimited variant lifts this)")
    return None


def _check_room(move: FlowMove, c: Character, colour: Colour, extra_token: bool, variants: Variants) -> None:
    problem = _no_room(c, colour, extra_token, variants)
    if problem:
        raise IllegalActionError(f"flow {move}: {c.id} would hold {problem}")


def apply_move(player: Player, bag: Tokens, move: FlowMove, rng: random.Random | None,
               variants: Variants = Variants(), drawn: Colour | None = None) -> tuple[Player, Tokens]:
    """``player`` and the bag after ``move``. A discard draws from the bag with ``rng``
    (or takes the colour ``drawn``, to weigh each outcome)."""
    if move.kind == "discard" and drawn is None:
        if rng is None:
            raise IllegalActionError("a discard draws from the bag: pass a random.Random")
        colour = move.give if move.character is None else colour_of(move.give)  # type: ignore[arg-type]
        drawn = bag.plus(colour).draw(rng)  # type: ignore[arg-type]
    return _apply(player, bag, move, drawn, variants)


def _apply(player: Player, bag: Tokens, move: FlowMove, drawn: Colour | None,
           variants: Variants) -> tuple[Player, Tokens]:
    store = player.store
    try:
        if move.kind == "discard" and move.character is None:
            colour: Colour = move.give  # type: ignore[assignment]
            if store.count(colour) < 1:
                raise IllegalActionError(f"flow {move}: the store has no {colour} token")
            bag = bag.plus(colour)
            assert drawn is not None
            return Player(player.id, player.characters, store.plus(colour, -1).plus(drawn)), bag.plus(drawn, -1)
        c = player.character(move.character or "")
        if c.lost:
            raise IllegalActionError(f"flow {move}: {c.id} is lost for good")
        changed = []
        if move.kind == "shift":
            to: Slot = "defence" if move.give == "attack" else "attack"
            c = c.plus(move.give, -1).plus(to)  # type: ignore[arg-type]
        elif move.kind == "add":
            t = move.take
            assert t is not None
            if store.count(colour_of(t)) < 1:
                raise IllegalActionError(f"flow {move}: the store has no {colour_of(t)} token")
            _check_room(move, c, colour_of(t), True, variants)
            c, store = c.plus(t), store.plus(colour_of(t), -1)
        elif move.kind == "store_swap":
            g, t = move.give, move.take
            assert g in ("time", "form", "attack", "defence") and t is not None
            if colour_of(g) == colour_of(t):
                raise IllegalActionError(f"flow {move}: a swap trades one colour for another")
            if store.count(colour_of(t)) < 1:
                raise IllegalActionError(f"flow {move}: the store has no {colour_of(t)} token")
            _check_room(move, c, colour_of(t), False, variants)
            c = c.plus(g, -1).plus(t)
            store = store.plus(colour_of(g)).plus(colour_of(t), -1)
        elif move.kind == "swap":
            g, t = move.give, move.take
            assert g in ("time", "form", "attack", "defence") and t is not None
            o = player.character(move.other or "")
            if o.lost or o.id == c.id:
                raise IllegalActionError(f"flow {move}: {o.id} cannot take part")
            if colour_of(g) == colour_of(t):
                raise IllegalActionError(f"flow {move}: a swap trades one colour for another")
            _check_room(move, c, colour_of(t), False, variants)
            _check_room(move, o, colour_of(g), False, variants)
            c, o = c.plus(g, -1).plus(t), o.plus(t, -1).plus(g)
            changed.append(o)
        elif move.kind == "discard":
            g = move.give
            assert g in ("time", "form", "attack", "defence") and drawn is not None
            c = c.plus(g, -1)
            bag = bag.plus(colour_of(g))
            store, bag = store.plus(drawn), bag.plus(drawn, -1)
        else:
            raise IllegalActionError(f"flow move kind {move.kind!r} does not exist")
    except ValueError as exc:
        if isinstance(exc, IllegalActionError):
            raise
        raise IllegalActionError(f"flow {move}: {exc}") from None
    p = Player(player.id, player.characters, store)
    for ch in (c, *changed):
        p = p.with_character(ch)
    return p, bag
