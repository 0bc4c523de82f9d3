"""What a Party Hard player sees between choices: :class:`GameState`, an immutable
snapshot of the field, the decks, the discard piles and every player's Anima."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from ...maps.grid import CREATURES, Grid, Room
from ...rules.partyhard.decks import DISCARD_ABILITY, DISCARD_ITEM, RESTORE, CreatureCard, Vault
from ...rules.partyhard.fighter import Fighter
from ...rules.partyhard.items import Ability, Item
from ...rules.partyhard.state import ROW_CAP


def _ro(m: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(dict(m))


@dataclass(frozen=True)
class GameState:
    """The game between two choices.

    ``grid`` holds the living characters and the creatures laid out; ``fallen`` the
    defeated characters (off the field, with their cards) until restored;
    ``lairs`` the rooms whose creatures are still face down (count); ``vaults``
    the unopened vaults; the decks are draw piles (top first) and the discard
    piles are shared (P-ANIMA); ``skipped`` the characters whose last field turn
    was a skip (they may reinforce a fight next door, P-REINF); ``out`` the players
    who have lost (P-WIN)."""

    grid: Grid
    turn: int
    players: tuple[str, ...]
    anima: Mapping[str, int]
    fallen: Mapping[str, Fighter] = field(default_factory=dict, hash=False)
    owner: Mapping[str, str] = field(default_factory=dict, hash=False)
    lairs: Mapping[Room, int] = field(default_factory=dict, hash=False)
    vaults: Mapping[Room, Vault] = field(default_factory=dict, hash=False)
    creature_deck: tuple[CreatureCard, ...] = ()
    item_deck: tuple[Item, ...] = ()
    ability_deck: tuple[Ability, ...] = ()
    creature_discard: tuple[CreatureCard, ...] = ()
    item_discard: tuple[Item, ...] = ()
    ability_discard: tuple[Ability, ...] = ()
    skipped: frozenset[str] = frozenset()
    out: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        for name in ("anima", "fallen", "owner", "lairs", "vaults"):
            object.__setattr__(self, name, _ro(getattr(self, name)))

    def __repr__(self) -> str:
        return (f"GameState(turn {self.turn}, anima {dict(self.anima)}, {len(self.characters())} characters on the "
                f"field, {len(self.fallen)} fallen, {len(self.lairs)} lairs face down)")

    # -- who is where ----------------------------------------------------------------------------
    def characters(self, player: str | None = None) -> tuple[str, ...]:
        """Living characters on the field (of ``player``), in piece order."""
        return tuple(p.id for p in self.grid.pieces if p.kind == "character" and (player is None or p.side == player))

    def fallen_of(self, player: str) -> tuple[str, ...]:
        return tuple(c for c in self.fallen if self.owner[c] == player)

    def fighter(self, cid: str) -> Fighter:
        return self.fallen[cid] if cid in self.fallen else self.grid.fighter(cid)

    def alive(self, cid: str) -> bool:
        return cid not in self.fallen

    def in_play(self) -> tuple[str, ...]:
        """Players still in the game, in turn order."""
        return tuple(p for p in self.players if p not in self.out)

    def has_creatures(self, room: Room) -> bool:
        """Creatures laid out there, or a lair still face down."""
        return room in self.lairs or self.grid.has_creatures(room)

    def room_counts(self) -> dict[str, dict[str, int]]:
        """``{"c,r": {player: characters}}`` for every room with characters."""
        out: dict[str, dict[str, int]] = {}
        for p in self.grid.pieces:
            if p.kind == "character":
                key = f"{p.room[0]},{p.room[1]}"
                out.setdefault(key, {})
                out[key][p.side] = out[key].get(p.side, 0) + 1
        return out

    def free_rooms(self, player: str, *, exclude: Room | None = None) -> tuple[Room, ...]:
        """P-ANIMA: where ``player`` may restore (or teleport) a character: a room without
        creatures holding its own characters (keeping at most four), or an empty room."""
        out = []
        for r in self.grid.rooms:
            if r.at == exclude or self.has_creatures(r.at):
                continue
            mine = self.grid.characters(r.at, player)
            here = self.grid.occupants(r.at)
            if (mine and mine < ROW_CAP) or not here:
                out.append(r.at)
        return tuple(out)

    def worth(self, player: str) -> int:
        """Anima the player has or could raise by discarding its fallen characters' cards."""
        cards = sum(DISCARD_ITEM * len(self.fallen[c].items) + DISCARD_ABILITY * len(self.fallen[c].abilities)
                    for c in self.fallen_of(player))
        return self.anima.get(player, 0) + cards

    def beaten(self, player: str) -> bool:
        """P-WIN: no character on the field and not the Anima to restore one."""
        return not self.characters(player) and (not self.fallen_of(player) or self.worth(player) < RESTORE)

    def creatures_in(self, room: Room) -> tuple[Fighter, ...]:
        return tuple(self.grid.fighter(i) for i in self.grid.row(room, CREATURES))


def _slot(f: Fighter, kind: str, item: Item | None) -> Fighter:
    slots: dict[str, Any] = {kind: item}
    return replace(f, **slots)


def equip(f: Fighter, card: Item | Ability, replaced: str | None = None) -> Fighter:
    """``f`` with ``card`` attached (an item takes its kind's slot; an ability replaces
    ``replaced``, or joins when ``f`` has fewer than two), Health and Energy kept
    within the new maxima."""
    if isinstance(card, Item):
        g = _slot(f, card.kind.value, card)
    else:
        keep = tuple(a for a in f.abilities if a.name != replaced) if replaced else f.abilities
        g = replace(f, abilities=(*keep, card))
    return g if not g.alive else g.with_health(g.health).with_energy(g.energy)


def unequip(f: Fighter, what: str, name: str) -> tuple[Fighter, Item | Ability]:
    """``f`` without its item (``what == "item"``) or ability called ``name``, and the card."""
    if what == "item":
        it = next(i for i in f.items if i.name == name)
        g = _slot(f, it.kind.value, None)
        card: Item | Ability = it
    else:
        card = next(a for a in f.abilities if a.name == name)
        g = replace(f, abilities=tuple(a for a in f.abilities if a.name != name))
    return (g if not g.alive else g.with_health(g.health).with_energy(g.energy)), card
