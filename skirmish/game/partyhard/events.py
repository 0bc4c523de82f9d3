"""The record of a Party Hard game: one :class:`GameEvent` per thing that happened,
and the :class:`GameResult`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ...rules.partyhard.log import ActionLog, FightLog, Note
from .state import GameState


@dataclass(frozen=True)
class GameEvent:
    """One event: ``kind`` (see docs/partyhard.md, "The game's events"), the ``turn``,
    the ``player`` it concerns, its facts in ``data``, every player's Anima after it,
    and — after a field turn — the characters per room. A ``fight`` event carries
    the whole :class:`FightLog` (``log``); :meth:`json_lines` spreads it out."""

    kind: str
    turn: int
    player: str | None
    data: Mapping[str, Any] = field(default_factory=dict, hash=False)
    anima: Mapping[str, int] = field(default_factory=dict, hash=False)
    rooms: Mapping[str, Mapping[str, int]] | None = field(default=None, hash=False)
    log: FightLog | None = field(default=None, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "data", MappingProxyType(dict(self.data)))
        object.__setattr__(self, "anima", MappingProxyType(dict(self.anima)))

    def __repr__(self) -> str:
        facts = ", ".join(f"{k}={v!r}" for k, v in self.data.items())
        return f"GameEvent({self.kind!r}, turn {self.turn}, {self.player}{', ' + facts if facts else ''})"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": self.kind, "turn": self.turn, "player": self.player, **self.data,
                               "anima": dict(self.anima)}
        if self.rooms is not None:
            out["rooms"] = {k: dict(v) for k, v in self.rooms.items()}
        return out

    def json_lines(self) -> Iterator[dict[str, Any]]:
        """This event as JSON objects: a fight is ``fight-start``, one object per fight
        event (``fight-action``, ``retreat``, ``fight-note``) and ``fight-end``."""
        if self.log is None:
            yield self.to_json()
            return
        log = self.log
        base = {"turn": self.turn, "player": self.player, "room": list(log.room) if log.room else None}
        anima = dict(self.anima)
        yield {"event": "fight-start", **base, "attackers": log.attackers, "defenders": log.defenders,
               "rows": {k: list(v) for k, v in log.rows.items()}, "why": self.data.get("why"), "anima": anima}
        for e in log.events:
            if isinstance(e, ActionLog):
                yield {**base, **e.to_json(), "event": "fight-action", "fight_round": e.round, "anima": anima}
            elif isinstance(e, Note) and e.kind in ("retreat", "leave"):
                yield {"event": "retreat", **base, "stage": "declared" if e.kind == "retreat" else "left",
                       "actor": e.actor, "side": e.side, "fight_round": e.round,
                       "to": None if e.room is None else list(e.room), "anima": anima}
            else:
                yield {**base, **e.to_json(), "event": "fight-note", "note": e.kind, "fight_round": e.round,
                       "anima": anima}
        yield {"event": "fight-end", **base, "winner": log.winner, "outcome": log.outcome, "rounds": log.rounds,
               "reason": log.reason, "defeated": list(log.defeated),
               "retreated": {k: list(v) for k, v in log.retreated.items()},
               "rewards": None if log.rewards is None else log.rewards.to_json(), "anima": anima}


@dataclass(frozen=True)
class GameResult:
    """A played game: ``winner`` (None: a draw at the turn limit), the ``turns``
    played, every event, the final state and how often each character was restored."""

    winner: str | None
    turns: int
    events: tuple[GameEvent, ...]
    final: GameState
    restored: Mapping[str, int]
    seed: int | None = None

    def __repr__(self) -> str:
        return f"GameResult(winner {self.winner}, {self.turns} turns, {len(self.events)} events)"

    def characters(self) -> dict[str, dict[str, Any]]:
        """``{id: {player, alive, abilities, items}}`` for every character of the game."""
        st = self.final
        out = {}
        for cid in sorted(st.owner, key=list(st.owner).index):
            f = st.fighter(cid)
            out[cid] = {"player": st.owner[cid], "alive": st.alive(cid), "abilities": [a.name for a in f.abilities],
                        "items": [i.name for i in f.items]}
        return out

    def summary(self) -> dict[str, Any]:
        """The last line of ``skirmish play --json``."""
        return {"seed": self.seed, "winner": self.winner, "turns": self.turns, "characters": self.characters(),
                "anima": dict(self.final.anima)}
