"""Who is where in a fight, and which actions are legal (P-TURN, P-LINE, P-WEAPON).

A :class:`FightSetup` says who fights; a :class:`FightState` is the snapshot a
policy sees when it chooses; :func:`legal_actions` lists every action allowed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from ...errors import IllegalActionError, RuleInputError
from .fighter import Fighter
from .log import Action, Room
from .streak import Streak

#: P-CAP / P-REINF: at most four living characters of a side in one room.
ROW_CAP = 4


@dataclass(frozen=True)
class Exit:
    """A room next to the fight, free of creatures, where retreating characters may go:
    ``occupants`` counts the characters already there, by player (P-CAP)."""

    room: Room
    occupants: Mapping[str, int] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "occupants", MappingProxyType(dict(self.occupants)))

    def free_for(self, player: str, arriving: int = 0) -> bool:
        """Free for ``player``: no other player's characters, and room for one more of its own."""
        others = any(n for p, n in self.occupants.items() if p != player)
        return not others and self.occupants.get(player, 0) + arriving < ROW_CAP


@dataclass(frozen=True)
class Reinforcement:
    """A character from an adjacent room that skipped its field turn (P-REINF): it
    joins at the start of its side's turn in ``round`` (or the first later turn with
    a free place), at the end of the row, and skips that first turn."""

    fighter: Fighter
    round: int = 1
    from_room: Room | None = None

    def __post_init__(self) -> None:
        if self.round < 1:
            raise RuleInputError(f"reinforcement {self.fighter.id}: round is 1 or more, got {self.round}")
        if self.fighter.is_creature:
            raise RuleInputError(f"reinforcement {self.fighter.id}: creatures do not reinforce")


@dataclass(frozen=True)
class SideSetup:
    """One side of a fight: its row (place 1 first, P-LINE), its reinforcements and
    the rooms its characters may retreat to."""

    name: str
    fighters: tuple[Fighter, ...]
    reinforcements: tuple[Reinforcement, ...] = ()
    exits: tuple[Exit, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "fighters", tuple(self.fighters))
        object.__setattr__(self, "reinforcements", tuple(self.reinforcements))
        object.__setattr__(self, "exits", tuple(self.exits))
        if not any(f.alive for f in self.fighters):
            raise RuleInputError(f"side {self.name!r} has no living fighter in the room")
        chars = [f for f in self.fighters if f.alive and not f.is_creature]
        if len(chars) > ROW_CAP:
            raise RuleInputError(f"side {self.name!r} has {len(chars)} living characters; a side fights with at most "
                                 f"{ROW_CAP} (P-REINF)")


@dataclass(frozen=True)
class FightSetup:
    """A fight: the attackers (they act first, P-TURN) against the defenders."""

    attackers: SideSetup
    defenders: SideSetup
    room: Room | None = None
    max_rounds: int = 30

    def __post_init__(self) -> None:
        if self.attackers.name == self.defenders.name:
            raise RuleInputError(f"both sides are {self.attackers.name!r}")
        ids = [f.id for s in (self.attackers, self.defenders) for f in s.fighters]
        ids += [r.fighter.id for s in (self.attackers, self.defenders) for r in s.reinforcements]
        dup = next((i for i in ids if ids.count(i) > 1), None)
        if dup is not None:
            raise RuleInputError(f"fighter {dup!r} appears twice in the fight")
        if self.max_rounds < 1:
            raise RuleInputError(f"max_rounds is 1 or more, got {self.max_rounds}")

    @property
    def sides(self) -> tuple[SideSetup, SideSetup]:
        return (self.attackers, self.defenders)


@dataclass(frozen=True)
class FightState:
    """What a policy sees: every fighter's current value, the rows of the living
    present fighters (P-LINE), newcomers and retreating fighters, and each side's
    streak this turn (P-STREAK)."""

    round: int
    attackers: str
    defenders: str
    fighters: Mapping[str, Fighter]
    rows: Mapping[str, tuple[str, ...]]
    newcomers: frozenset[str] = frozenset()
    retreating: frozenset[str] = frozenset()
    streaks: Mapping[str, Streak] = field(default_factory=dict, hash=False)
    exits: Mapping[str, tuple[Exit, ...]] = field(default_factory=dict, hash=False)

    def fighter(self, fid: str) -> Fighter:
        try:
            return self.fighters[fid]
        except KeyError:
            raise RuleInputError(f"no fighter {fid!r} in this fight") from None

    def side_of(self, fid: str) -> str:
        for side, row in self.rows.items():
            if fid in row:
                return side
        raise RuleInputError(f"{fid!r} is not in the fight now")

    def enemy_of(self, side: str) -> str:
        return self.defenders if side == self.attackers else self.attackers

    def row(self, side: str) -> tuple[str, ...]:
        return self.rows.get(side, ())

    def streak(self, side: str) -> Streak:
        return self.streaks.get(side, Streak())

    def can_retreat(self, fid: str) -> bool:
        """A present character not already retreating, with a free adjacent room."""
        f = self.fighter(fid)
        side = self.side_of(fid)
        return (not f.is_creature and fid not in self.retreating
                and any(e.free_for(f.side) for e in self.exits.get(side, ())))


def windows(row: tuple[str, ...], size: int) -> list[tuple[str, ...]]:
    """P-LINE: every run of 1..``size`` consecutive places of ``row``, longest first.

    >>> windows(("a", "b", "c"), 2)
    [('a', 'b'), ('b', 'c'), ('a',), ('b',), ('c',)]
    """
    out = []
    for n in range(min(size, len(row)), 0, -1):
        out += [row[i:i + n] for i in range(len(row) - n + 1)]
    return out


def legal_actions(state: FightState, actor: str) -> list[Action]:
    """Every action ``actor`` may take now (P-TURN): an ability it has the Energy for
    (creatures pay none) on consecutive targets (P-LINE), a plain weapon hit on one
    enemy (P-WEAPON), a creature's attack, removing one of its negative effects, or rest."""
    f = state.fighter(actor)
    side = state.side_of(actor)
    enemies = state.row(state.enemy_of(side))
    allies = state.row(side)
    out: list[Action] = []
    for ab in f.abilities:
        if f.cost_of(ab) > f.energy:
            continue
        if ab.on == "self":
            out.append(Action("ability", ab.name, (actor,)))
        else:
            row = enemies if ab.on == "enemies" else allies
            out += [Action("ability", ab.name, w) for w in windows(row, ab.targets)]
    if f.is_creature:
        out += [Action("attack", None, w) for w in windows(enemies, f.targets)]
    elif f.weapon is not None:
        out += [Action("weapon", None, (e,)) for e in enemies]
    out += [Action("cleanse", slot=e.slot) for e in f.effects.negatives()]
    out.append(Action("rest"))
    return out


def check_action(state: FightState, actor: str, action: Action) -> None:
    """Refuse an action that :func:`legal_actions` does not list, saying why."""
    if action in legal_actions(state, actor):
        return
    f = state.fighter(actor)
    why = "not allowed now"
    if action.kind == "ability":
        try:
            ab = f.ability(action.ability or "")
        except RuleInputError as exc:
            raise IllegalActionError(str(exc)) from None
        if f.cost_of(ab) > f.energy:
            why = f"it costs {ab.cost} Energy and {actor} has {f.energy}"
        else:
            why = "its targets must be 1.." + f"{ab.targets} consecutive places of the {ab.on} row (P-LINE)"
    elif action.kind == "weapon":
        why = "a plain hit needs a weapon and one enemy in the room (P-WEAPON)"
    elif action.kind == "cleanse":
        why = f"{actor} has no negative effect on {action.slot}"
    raise IllegalActionError(f"{actor}: {action}: {why}")

