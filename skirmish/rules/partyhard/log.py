"""The structured log of a fight: one frozen value per event, each with ``to_json``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Union

from .damage import Absorption, Breakdown
from .effects import Slot
from .fighter import Fighter

Room = tuple[int, int]
ActionKind = Literal["ability", "weapon", "attack", "cleanse", "rest"]


@dataclass(frozen=True)
class Action:
    """A fighter's action for one turn (P-TURN).

    ``ability``: use the named ability on ``targets`` (consecutive places, P-LINE);
    ``weapon``: a character's plain weapon hit on one target (P-WEAPON);
    ``attack``: a creature's built-in attack on ``targets``; ``cleanse``: remove the
    negative effect on ``slot`` from itself; ``rest``: +1 Energy.
    """

    kind: ActionKind
    ability: str | None = None
    targets: tuple[str, ...] = ()
    slot: Slot | None = None

    def __str__(self) -> str:
        on = f" on {', '.join(self.targets)}" if self.targets else ""
        if self.kind == "ability":
            return f"{self.ability}{on}"
        if self.kind == "weapon":
            return f"weapon hit{on}"
        if self.kind == "attack":
            return f"attack{on}"
        if self.kind == "cleanse":
            return f"removes its {self.slot} effect"
        return "rests"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "ability": self.ability, "targets": list(self.targets),
                "slot": None if self.slot is None else self.slot.value}


@dataclass(frozen=True)
class EffectLog:
    """An effect put on (or kept off, or removed from) a fighter."""

    target: str
    effect: str
    outcome: Literal["applied", "already", "immune", "removed"]
    source: str  # "ability", "weapon", "creature", "cleanse", "restore"
    replaced: str | None = None

    def __str__(self) -> str:
        if self.outcome == "immune":
            return f"{self.target} is immune to {self.effect}"
        if self.outcome == "removed":
            return f"{self.target} loses {self.effect}"
        if self.outcome == "already":
            return f"{self.target} already has {self.effect}"
        return f"{self.target} gets {self.effect}" + (f" (replacing {self.replaced})" if self.replaced else "")

    def to_json(self) -> dict[str, Any]:
        return {"target": self.target, "effect": self.effect, "outcome": self.outcome, "source": self.source,
                "replaced": self.replaced}


@dataclass(frozen=True)
class TargetLog:
    """What one action did to one target."""

    target: str
    breakdown: Breakdown | None = None
    absorption: Absorption | None = None
    healed: int = 0
    restored: int = 0
    burned: int = 0
    effects: tuple[EffectLog, ...] = ()
    defeated: bool = False
    health_after: int = 0
    energy_after: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"target": self.target, "breakdown": None if self.breakdown is None else self.breakdown.to_json(),
                "absorption": None if self.absorption is None else self.absorption.to_json(),
                "healed": self.healed, "restored": self.restored, "burned": self.burned,
                "effects": [e.to_json() for e in self.effects], "defeated": self.defeated,
                "health_after": self.health_after, "energy_after": self.energy_after}


@dataclass(frozen=True)
class ActionLog:
    """One fighter's action: what it used, what it paid, its place in its side's streak."""

    event: ClassVar[str] = "action"
    round: int
    side: str
    actor: str
    action: Action
    name: str
    element: str | None
    cost: int
    energy_before: int
    energy_after: int
    streak: int  # the attack's position in its side's run this turn (0: not an attack)
    targets: tuple[TargetLog, ...] = ()
    effects: tuple[EffectLog, ...] = ()  # on the actor itself (cleanse, restore)

    def to_json(self) -> dict[str, Any]:
        return {"event": self.event, "round": self.round, "side": self.side, "actor": self.actor,
                "action": self.action.to_json(), "name": self.name, "element": self.element, "cost": self.cost,
                "energy_before": self.energy_before, "energy_after": self.energy_after, "streak": self.streak,
                "targets": [t.to_json() for t in self.targets], "effects": [e.to_json() for e in self.effects]}


@dataclass(frozen=True)
class Note:
    """Every other event: ``kind`` is one of

    - ``join``: a reinforcement takes the last place of its side's row (P-REINF);
    - ``wait``: a reinforcement finds its side full (four living characters) and waits;
    - ``skip``: a fighter does not act (``reason``: newcomer, retreating, opening);
    - ``retreat``: it starts retreating (acts no more, can still be attacked);
    - ``leave``: a retreating fighter leaves for ``room``;
    - ``stuck``: a retreating fighter finds no free adjacent room and stays;
    - ``regen``: +1 Energy at the end of a combat turn;
    - ``defeated``: its Health reached 0;
    - ``restore``: the end of the fight restores Energy (and the winning creatures' Health).
    """

    event: ClassVar[str] = "note"
    round: int
    side: str
    kind: str
    actor: str
    reason: str = ""
    room: Room | None = None
    place: int | None = None
    before: int | None = None
    after: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "round": self.round, "side": self.side, "actor": self.actor,
                "reason": self.reason, "room": None if self.room is None else list(self.room), "place": self.place,
                "before": self.before, "after": self.after}


Event = Union[ActionLog, Note]


@dataclass(frozen=True)
class Rewards:
    """What the winner takes: one item per defeated creature; one ability per unique
    creature, plus one for all the ordinary ones together; one ability for beating a
    player when at least one of its characters was defeated."""

    abilities: int
    items: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"abilities": self.abilities, "items": self.items, "reason": self.reason}


@dataclass(frozen=True)
class FightLog:
    """A resolved fight: its events in order and how it ended.

    ``winner`` is the side left in the room (None after ``max_rounds`` without a
    decision: ``outcome == "stalemate"``); ``final`` every fighter's state at the end;
    ``retreated`` who left and for which room; ``rewards`` what a winning player takes
    (None when the creatures hold their room, or undecided)."""

    attackers: str
    defenders: str
    room: Room | None
    start: Mapping[str, Fighter]
    rows: Mapping[str, tuple[str, ...]]
    events: tuple[Event, ...]
    rounds: int
    winner: str | None
    outcome: Literal["victory", "stalemate"]
    reason: str
    final: Mapping[str, Fighter]
    defeated: tuple[str, ...]
    retreated: Mapping[str, Room]
    rewards: Rewards | None

    def actions(self) -> tuple[ActionLog, ...]:
        return tuple(e for e in self.events if isinstance(e, ActionLog))

    def damage_dealt(self) -> dict[str, int]:
        """Health each fighter took from others over the fight."""
        out: dict[str, int] = {}
        for a in self.actions():
            for t in a.targets:
                if t.absorption is not None:
                    out[t.target] = out.get(t.target, 0) + t.absorption.health_lost
        return out

    def to_json(self) -> dict[str, Any]:
        return {"room": None if self.room is None else list(self.room), "attackers": self.attackers,
                "defenders": self.defenders, "rows": {k: list(v) for k, v in self.rows.items()},
                "start": [f.to_json() for f in self.start.values()], "rounds": self.rounds, "winner": self.winner,
                "outcome": self.outcome, "reason": self.reason, "events": [e.to_json() for e in self.events],
                "final": [f.to_json() for f in self.final.values()], "defeated": list(self.defeated),
                "retreated": {k: list(v) for k, v in self.retreated.items()},
                "rewards": None if self.rewards is None else self.rewards.to_json()}
