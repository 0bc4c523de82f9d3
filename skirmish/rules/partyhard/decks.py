"""The game around the fights as data: decks, lairs, vaults, starting Anima (P-SETUP,
P-LOOT, P-ANIMA), and the P-LOOT reward counts.

A :class:`GameSetup` is what a grid scenario's ``[game]`` section declares; the
game loop (:mod:`skirmish.game.partyhard`) shuffles its decks and plays it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from ...errors import RuleInputError
from ...wording import count
from .fighter import Fighter
from .items import Ability, Item
from .log import Rewards, Room

#: P-ANIMA prices and refunds.
DISCARD_ITEM, DISCARD_ABILITY = 1, 2
BUY_ITEM, BUY_ABILITY = 2, 3
RESTORE, TELEPORT = 3, 3
#: The turn limit when the scenario sets none: then the game is a draw.
TURN_LIMIT = 50


@dataclass(frozen=True)
class CreatureCard:
    """One card of the creature deck: ``fighter`` is the creature as printed (its id is
    the card's key); :meth:`lay_out` makes the piece that stands in a room."""

    key: str
    fighter: Fighter

    def __post_init__(self) -> None:
        if not self.fighter.is_creature:
            raise RuleInputError(f"creature card {self.key!r}: its fighter must be a creature")

    @property
    def unique(self) -> bool:
        return self.fighter.unique

    def lay_out(self, piece_id: str) -> Fighter:
        return replace(self.fighter, id=piece_id)

    def __repr__(self) -> str:
        return f"CreatureCard({self.key!r}{', unique' if self.unique else ''})"


@dataclass(frozen=True)
class Lair:
    """A room whose ``creatures`` are laid out from the shuffled creature deck when a
    character first enters it (P-FIELD)."""

    room: Room
    creatures: int


@dataclass(frozen=True)
class Vault:
    """A vault: it opens for ``price`` Anima and gives ``items`` item cards and
    ``abilities`` ability cards (P-LOOT)."""

    room: Room
    price: int
    items: int = 1
    abilities: int = 0


@dataclass(frozen=True)
class GameSetup:
    """Everything a Party Hard game needs beyond the map: the three decks (copies
    repeated, in file order: the game shuffles them), the lairs and vaults, each
    player's starting Anima and the turn limit."""

    creatures: tuple[CreatureCard, ...] = ()
    items: tuple[Item, ...] = ()
    abilities: tuple[Ability, ...] = ()
    lairs: tuple[Lair, ...] = ()
    vaults: tuple[Vault, ...] = ()
    anima: int = 0
    turns: int = TURN_LIMIT

    def __post_init__(self) -> None:
        if self.anima < 0:
            raise RuleInputError(f"starting Anima is 0 or more, got {self.anima}")
        if self.turns < 1:
            raise RuleInputError(f"the turn limit is 1 or more, got {self.turns}")
        need = sum(lair.creatures for lair in self.lairs)
        if need > len(self.creatures):
            raise RuleInputError(f"the creature deck has {len(self.creatures)} cards; the lairs lay out {need}")

    def vault(self, room: Room) -> Vault | None:
        return next((v for v in self.vaults if v.room == room), None)

    def __repr__(self) -> str:
        return (f"GameSetup({len(self.creatures)} creature, {len(self.items)} item, {len(self.abilities)} ability cards, "
                f"{len(self.lairs)} lairs, {len(self.vaults)} vaults, anima {self.anima}, {self.turns} turns)")


def creature_rewards(beaten: Iterable[Fighter]) -> Rewards:
    """P-LOOT for a group of creatures beaten: one item per creature; one ability per
    unique creature and one for all the ordinary ones together.

    >>> from skirmish.rules.partyhard import Element, Stats
    >>> c = lambda i, u: Fighter.new(i, "creatures", Stats(), kind="creature", attack_element=Element.VOID, unique=u)
    >>> r = creature_rewards([c("a", False), c("b", False), c("u", True)])
    >>> r.abilities, r.items
    (2, 3)
    >>> creature_rewards([c("a", False), c("b", False), c("d", False)]).abilities
    1
    """
    group = list(beaten)
    unique = sum(1 for f in group if f.unique)
    ordinary = len(group) - unique
    return Rewards(unique + (1 if ordinary else 0), len(group),
                   f"{count(len(group), 'creature')} defeated ({unique} unique): one item each, one ability per unique "
                   "creature and one for the ordinary ones together")
