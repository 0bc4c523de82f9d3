"""The state of a Chaos Party game, the options a player is offered, and the log."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from ...errors import UnknownIdError
from ...rules.chaosparty.build import Duel
from ...rules.chaosparty.tokens import Player, Tokens


@dataclass(frozen=True)
class GameState:
    """A snapshot of a game: what a policy sees when it chooses.

    ``order`` is the turn order once the bidding is settled (empty before),
    ``turn`` the number of turns played and ``attacked`` the players already
    attacked this round (multiplayer, C-TURN)."""

    duel: Duel
    players: tuple[Player, ...]
    bag: Tokens
    order: tuple[str, ...] = ()
    turn: int = 0
    attacked: frozenset[str] = frozenset()

    def __repr__(self) -> str:
        return f"GameState(turn {self.turn}, {', '.join(map(repr, self.players))}, bag={self.bag})"

    def player(self, pid: str) -> Player:
        for p in self.players:
            if p.id == pid:
                return p
        raise UnknownIdError(f"no player {pid!r}; the players are {', '.join(p.id for p in self.players)}")

    def owner(self, character_id: str) -> Player:
        """The player whose character ``character_id`` is."""
        for p in self.players:
            if p.has(character_id):
                return p
        raise UnknownIdError(f"no character {character_id!r}; the players' characters are "
                             f"{', '.join(c.id for p in self.players for c in p.characters) or 'none'}")

    def enemies(self, pid: str) -> tuple[Player, ...]:
        """The other players still in the game."""
        return tuple(p for p in self.players if p.id != pid and not p.defeated)

    def with_player(self, player: Player) -> GameState:
        return replace(self, players=tuple(player if p.id == player.id else p for p in self.players))

    @property
    def standing(self) -> tuple[str, ...]:
        """The players not defeated, in seat order."""
        return tuple(p.id for p in self.players if not p.defeated)


@dataclass(frozen=True)
class AttackChoice:
    """An option of the ``attack`` decision: who attacks whom, with which Time boosts."""

    attacker: str
    target: str
    boosts: frozenset[str] = frozenset()

    def __str__(self) -> str:
        more = f" ({', '.join(sorted(self.boosts))})" if self.boosts else ""
        return f"{self.attacker} attacks {self.target}{more}"


@dataclass(frozen=True)
class Event:
    """One line of the log: ``kind`` is bid, pay, first, flow, attack, lost, end;
    ``data`` holds the same facts as ``text`` for JSON."""

    turn: int
    player: str | None
    kind: str
    text: str
    data: Mapping[str, Any] = field(default_factory=dict, hash=False, compare=True)

    def __post_init__(self) -> None:
        object.__setattr__(self, "data", MappingProxyType(dict(self.data)))

    def as_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "player": self.player, "kind": self.kind, "text": self.text, **self.data}


@dataclass(frozen=True)
class GameRecord:
    """A whole game: the winner (None: a draw at the turn limit), the turns played,
    the log and the final state."""

    winner: str | None
    turns: int
    events: tuple[Event, ...]
    final: GameState
    first: str

    def __repr__(self) -> str:
        return f"GameRecord(winner={self.winner!r}, turns={self.turns}, {len(self.events)} events)"
