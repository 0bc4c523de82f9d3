"""The Party Hard grid of rooms: the degenerate map (P-GRID, P-MOVE, P-CAP, P-REINF, P-LINE).

The same protocol the continuous table answers, with its hooks overridden the way a
chess variant overrides a board's: distance is the number of steps through rooms
that share a side (a maze is not a square); contact and line of sight mean "in the
same room"; an ability reaches its own room, and reinforcements come from the rooms
next to it; an area effect is a run of consecutive places in a side's row; a
character moves one room per turn, into a room holding fewer than four characters
of its player.

Rooms are addressed ``(column, row)``: column 0 is the left end of the drawing, row
0 its first (top) line. Room ``(c, r)`` covers the square ``[c, c+1] × [r, r+1]`` of
the plane (``y`` grows downwards, as the drawing is read).
"""

from __future__ import annotations

import math
import random
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

import numpy as np

from ..errors import IllegalActionError, SkirmishError
from ..rules.partyhard.decks import GameSetup
from ..rules.partyhard.fight import resolve_fight
from ..rules.partyhard.fighter import Fighter
from ..rules.partyhard.items import key_of
from ..rules.partyhard.log import FightLog
from ..rules.partyhard.policy import Policy
from ..rules.partyhard.state import ROW_CAP, Exit, FightSetup, Reinforcement, SideSetup
from .base import SameSpaceSight, register_map, unknown_id
from .results import MovePlan, MoveRange, Reach, Violation

Room = tuple[int, int]
#: The side of every creature: creatures are never a player's.
CREATURES = "creatures"
#: Neighbour order (and wall names): north, east, south, west.
DIRECTIONS: tuple[tuple[str, int, int], ...] = (("north", 0, -1), ("east", 1, 0), ("south", 0, 1), ("west", -1, 0))


def room_text(room: Room) -> str:
    return f"({room[0]}, {room[1]})"


def as_room(value: Any, what: str = "room") -> Room:
    """``(column, row)`` from a pair of whole numbers (``(3.0, 1.0)`` from a CLI is fine)."""
    if isinstance(value, (tuple, list)) and len(value) == 2:
        out = []
        for v in value:
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not float(v).is_integer():
                break
            out.append(int(v))
        else:
            return (out[0], out[1])
    raise SkirmishError(f"{what}: rooms are addressed by whole numbers (column, row), like 3,1; got {value!r}")


@dataclass(frozen=True)
class RoomCard:
    """One room card: where it lies, the character that drew it, an optional name and
    the Anima its vault costs to open (``None``: no vault)."""

    at: Room
    key: str = "."
    name: str = ""
    treasure: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"at": list(self.at), "key": self.key, "name": self.name, "treasure": self.treasure}


@dataclass(frozen=True)
class Piece:
    """A character or creature on the grid: its fighter, its room and its place in its
    side's row there (P-LINE, 1 = first)."""

    fighter: Fighter
    room: Room
    place: int

    @property
    def id(self) -> str:
        return self.fighter.id

    @property
    def side(self) -> str:
        return self.fighter.side

    @property
    def kind(self) -> str:
        return self.fighter.kind

    def __repr__(self) -> str:
        return f"Piece({self.id!r}, {self.side}, room {room_text(self.room)}, place {self.place})"


@dataclass(frozen=True)
class Reinforce:
    """An order for :meth:`Grid.fight_setup`: character ``id`` skips its field turn and
    joins the fight in round ``round`` (P-REINF), on ``side`` (default: its player's)."""

    id: str
    round: int = 1
    side: str | None = None


@register_map
@dataclass(frozen=True, repr=False)
class Grid(SameSpaceSight):
    """Room cards and the pieces in them. Build one with :func:`skirmish.load` from a
    ``map = "grid"`` scenario, or from :class:`RoomCard` and :class:`Piece` values.

    >>> import skirmish
    >>> g = skirmish.load("scenarios/party-hard-maze.toml")
    >>> g.distance("rogue", "ooze"), g.room_of("rogue"), g.room_of("ooze")
    (8.0, (4, 1), (0, 3))
    >>> g.in_contact("knight", "shade"), g.line_of_sight("knight", "rogue").visible
    (True, False)
    >>> g.row((2, 1), "red"), g.area_effect("wisp", 2)
    (('knight', 'mage'), ('wisp', 'shade'))
    >>> g.plan_move("rogue", (3, 1)).legal
    True
    """

    kind = "grid"
    sight_space = "room"
    unit = "steps"

    rooms: tuple[RoomCard, ...]
    pieces: tuple[Piece, ...] = ()
    name: str = ""
    source: str = field(default="", compare=False)
    #: the scenario's ``[game]`` section (decks, lairs, vaults, Anima), when it has one
    game: GameSetup | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rooms", tuple(self.rooms))
        object.__setattr__(self, "pieces", tuple(self.pieces))
        if not self.rooms:
            raise SkirmishError(f"{self._where()}a grid needs at least one room")
        seen: set[Room] = set()
        for r in self.rooms:
            if r.at in seen:
                raise SkirmishError(f"{self._where()}two rooms at {room_text(r.at)}")
            seen.add(r.at)
        ids: set[str] = set()
        for p in self.pieces:
            if p.id in ids:
                raise SkirmishError(f"{self._where()}duplicate piece id {p.id!r}")
            ids.add(p.id)
            if p.room not in seen:
                raise SkirmishError(f"{self._where()}{p.id!r} stands in {room_text(p.room)}, which is not a room")

    def __repr__(self) -> str:
        label = f"{self.name!r}, " if self.name else ""
        c, r = self.size
        return f"Grid({label}{len(self.rooms)} rooms in {c}x{r}, {len(self.pieces)} pieces)"

    def _where(self) -> str:
        return f"{self.source}: " if self.source else ""

    # -- rooms (P-GRID) ----------------------------------------------------------------------
    @cached_property
    def _room_index(self) -> dict[Room, int]:
        return {r.at: i for i, r in enumerate(self.rooms)}

    @property
    def size(self) -> tuple[int, int]:
        """Columns and rows of the drawing (the bounding box of the rooms, from (0, 0))."""
        return (max(r.at[0] for r in self.rooms) + 1, max(r.at[1] for r in self.rooms) + 1)

    def bounds(self) -> tuple[float, float, float, float]:
        c, r = self.size
        return (0.0, 0.0, float(c), float(r))

    def has_room(self, at: Room) -> bool:
        return tuple(at) in self._room_index

    def room(self, at: Room | Sequence[float]) -> RoomCard:
        """The room card at ``(column, row)``."""
        at = as_room(at)
        i = self._room_index.get(at)
        if i is None:
            raise SkirmishError(f"{self._where()}no room at {room_text(at)}; the grid is {self.size[0]} columns by "
                                f"{self.size[1]} rows, rooms drawn in it: {self.drawing_hint()}")
        return self.rooms[i]

    def drawing_hint(self) -> str:
        return " / ".join(self.drawing())

    @cached_property
    def _adjacent(self) -> dict[Room, tuple[Room, ...]]:
        idx = self._room_index
        return {r.at: tuple((r.at[0] + dx, r.at[1] + dy) for _, dx, dy in DIRECTIONS
                            if (r.at[0] + dx, r.at[1] + dy) in idx) for r in self.rooms}

    def neighbours(self, at: Room) -> tuple[Room, ...]:
        """P-GRID: the rooms sharing a side with ``at`` (north, east, south, west order)."""
        return self._adjacent[self.room(at).at]

    def adjacent(self, a: Room, b: Room) -> bool:
        return as_room(b) in self.neighbours(a)

    def walls(self, at: Room) -> tuple[str, ...]:
        """The sides of room ``at`` with no room beyond them ("north", "east", "south", "west")."""
        c, r = self.room(at).at
        return tuple(name for name, dx, dy in DIRECTIONS if (c + dx, r + dy) not in self._room_index)

    @cached_property
    def _bfs_cache(self) -> dict[int, np.ndarray]:
        return {}

    def _bfs(self, at: Room) -> np.ndarray:
        """Steps from room ``at`` to every room, in room order (``inf`` where unconnected);
        one breadth-first search per source room, kept."""
        i = self._room_index[at]
        out = self._bfs_cache.get(i)
        if out is None:
            idx = self._room_index
            out = np.full(len(self.rooms), np.inf)
            out[i] = 0
            queue = deque([at])
            while queue:
                cur = queue.popleft()
                d = out[idx[cur]]
                for nb in self._adjacent[cur]:
                    j = idx[nb]
                    if out[j] == np.inf:
                        out[j] = d + 1
                        queue.append(nb)
            out.flags.writeable = False
            self._bfs_cache[i] = out
        return out

    def steps(self, a: Room, b: Room) -> float:
        """Steps from room ``a`` to room ``b`` through rooms that share a side."""
        return float(self._bfs(self.room(a).at)[self._room_index[self.room(b).at]])

    def path(self, a: Room, b: Room) -> tuple[Room, ...]:
        """A shortest path of rooms from ``a`` to ``b`` (both included; neighbours tried
        north, east, south, west, so the answer is always the same)."""
        a, b = self.room(a).at, self.room(b).at
        to_b = self._bfs(b)  # steps are symmetric: one search from b guides every step
        idx = self._room_index
        if to_b[idx[a]] == np.inf:
            raise SkirmishError(f"{self._where()}no path from {room_text(a)} to {room_text(b)}")
        out = [a]
        while out[-1] != b:
            out.append(min(self._adjacent[out[-1]], key=lambda nb: to_b[idx[nb]]))
        return tuple(out)

    # -- pieces ----------------------------------------------------------------------------------
    @cached_property
    def _piece_index(self) -> dict[str, int]:
        return {p.id: i for i, p in enumerate(self.pieces)}

    @property
    def model_ids(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.pieces)

    @property
    def models(self) -> tuple[Piece, ...]:
        """The pieces (the table's name for what stands on a map)."""
        return self.pieces

    def piece(self, model_id: str) -> Piece:
        try:
            return self.pieces[self._piece_index[model_id]]
        except KeyError:
            raise unknown_id("model", model_id, self._piece_index, self._where()) from None

    def fighter(self, model_id: str) -> Fighter:
        return self.piece(model_id).fighter

    def side_of(self, model_id: str) -> str:
        return self.piece(model_id).side

    def room_of(self, model_id: str) -> Room:
        return self.piece(model_id).room

    def place_of(self, model_id: str) -> int:
        return self.piece(model_id).place

    @property
    def sides(self) -> tuple[str, ...]:
        """Every side, players first (file order), then ``"creatures"``."""
        found = dict.fromkeys(p.side for p in self.pieces if p.side != CREATURES)
        return tuple(found) + ((CREATURES,) if any(p.side == CREATURES for p in self.pieces) else ())

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(s for s in self.sides if s != CREATURES)

    @cached_property
    def _by_room(self) -> dict[Room, tuple[Piece, ...]]:
        out: dict[Room, list[Piece]] = {}
        for p in self.pieces:
            out.setdefault(p.room, []).append(p)
        order = {s: i for i, s in enumerate(self.sides)}
        return {k: tuple(sorted(v, key=lambda p: (order[p.side], p.place))) for k, v in out.items()}

    def occupants(self, at: Room) -> tuple[str, ...]:
        """Ids of the pieces in room ``at``: side by side (players, then creatures), each by place."""
        return tuple(p.id for p in self._by_room.get(self.room(at).at, ()))

    def row(self, at: Room, side: str) -> tuple[str, ...]:
        """P-LINE: ``side``'s row in room ``at``, place 1 first."""
        return tuple(p.id for p in self._by_room.get(self.room(at).at, ()) if p.side == side)

    def rows(self, at: Room) -> dict[str, tuple[str, ...]]:
        """Every side's row in room ``at`` (the fight rows, when a fight is on there)."""
        out: dict[str, tuple[str, ...]] = {}
        for p in self._by_room.get(self.room(at).at, ()):
            out.setdefault(p.side, ())
            out[p.side] += (p.id,)
        return out

    def characters(self, at: Room, player: str) -> int:
        """Characters of ``player`` in room ``at`` (P-CAP counts these)."""
        return sum(1 for p in self._by_room.get(self.room(at).at, ()) if p.side == player and p.kind == "character")

    def has_creatures(self, at: Room) -> bool:
        return any(p.side == CREATURES for p in self._by_room.get(self.room(at).at, ()))

    def fights(self) -> tuple[Room, ...]:
        """Rooms where characters stand with creatures: a fight is on there."""
        return tuple(r.at for r in self.rooms
                     if self.has_creatures(r.at) and any(p.side != CREATURES for p in self._by_room.get(r.at, ())))

    # -- the protocol: distance, contact, line of sight ---------------------------------------
    def distance(self, a: str, b: str) -> float:
        """Steps between the two pieces' rooms (0 in the same room)."""
        return self.steps(self.room_of(a), self.room_of(b))

    def distance_matrix(self) -> tuple[tuple[str, ...], np.ndarray]:
        idx = np.array([self._room_index[p.room] for p in self.pieces], dtype=int)
        rows = {r: self._bfs(self.rooms[r].at) for r in set(idx.tolist())}
        mat = np.array([rows[r][idx] for r in idx.tolist()], dtype=float).reshape(len(idx), len(idx))
        return self.model_ids, mat

    def in_contact(self, a: str, b: str) -> bool:
        """Contact is sharing a room (every piece is in contact with itself)."""
        return self.room_of(a) == self.room_of(b)

    def space_of(self, piece: str) -> Room:
        """Sight is sharing a room (:class:`SameSpaceSight`)."""
        return self.room_of(piece)

    # -- reach, reinforcement, area effects --------------------------------------------------------
    def reach(self, a: str, b: str, ability: str | None = None) -> Reach:
        """An ability (or a plain weapon hit, or a creature's attack) reaches its own room only.

        ``weapon`` in the answer names what was asked about; ``band`` is 1 (the only band) when in reach."""
        f = self.fighter(a)
        if ability is None or key_of(ability) in ("attack", "weapon"):
            what = f.weapon.name if (f.weapon is not None and not f.is_creature) else "attack"
        else:
            what = f.ability(ability).name
        d = self.distance(a, b)
        return Reach(a, b, what, d, d == 0, 1 if d == 0 else None, None, 0.0)

    def reaches(self, a: str, b: str) -> list[Reach]:
        """The reach of each way ``a`` can hurt or help: its abilities, then its weapon
        or creature attack."""
        f = self.fighter(a)
        out = [self.reach(a, b, ab.name) for ab in f.abilities]
        if f.is_creature or f.weapon is not None:
            out.append(self.reach(a, b))
        return out

    def can_reinforce(self, model_id: str, at: Room) -> bool:
        """P-REINF: a character in a room next to ``at`` may skip its field turn to join a fight there."""
        p = self.piece(model_id)
        return p.kind == "character" and self.adjacent(p.room, at)

    def reinforcements(self, at: Room, side: str | None = None) -> tuple[str, ...]:
        """The characters (of ``side``, or any player) in rooms next to ``at``."""
        near = set(self.neighbours(at))
        return tuple(p.id for p in self.pieces if p.room in near and p.kind == "character"
                     and (side is None or p.side == side))

    def area_effect(self, first: str, count: int) -> tuple[str, ...]:
        """P-LINE: up to ``count`` consecutive places of ``first``'s row, starting at ``first``."""
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise SkirmishError(f"an area effect hits 1 or more places, got {count!r}")
        p = self.piece(first)
        row = self.row(p.room, p.side)
        i = row.index(first)
        return row[i:i + count]

    # -- movement (P-MOVE, P-CAP) ------------------------------------------------------------------
    def _entry_violations(self, p: Piece, frm: Room, to: Room, at: int) -> list[Violation]:
        """Why ``p`` may not enter ``to`` from ``frm`` (P-CAP; a retreat only into a free room)."""
        out = []
        here = self.characters(to, p.side) - (1 if p.room == to else 0)
        if here >= ROW_CAP:
            out.append(Violation(at, f"room {room_text(to)} already holds {ROW_CAP} characters of {p.side} (P-CAP)",
                                 self.row(to, p.side)[0]))
        if self.has_creatures(frm) and frm == p.room:
            others = [q for q in self._by_room.get(to, ()) if q.side != p.side]
            if others:
                who = "creatures" if others[0].side == CREATURES else f"characters of {others[0].side}"
                out.append(Violation(at, f"leaving a fight is a retreat, into a free room; {room_text(to)} holds {who}",
                                     others[0].id))
        return out

    def _move_notes(self, p: Piece, to: Room) -> tuple[list[str], str | None]:
        notes: list[str] = []
        contact: str | None = None
        if to == p.room:
            return notes, None
        if self.has_creatures(p.room):
            notes.append(f"{p.id} is in a fight: leaving is a retreat, declared at the start of a combat turn; it "
                         "leaves on the next one (P-TURN)")
        monsters = [q for q in self._by_room.get(to, ()) if q.side == CREATURES]
        if monsters:
            contact = monsters[0].id
            notes.append(f"{room_text(to)} holds creatures ({', '.join(q.id for q in monsters)}): entering starts a "
                         f"fight, {p.side} attacks first (P-TURN)")
        others = sorted({q.side for q in self._by_room.get(to, ()) if q.side not in (p.side, CREATURES)})
        if others:
            notes.append(f"{room_text(to)} holds characters of {', '.join(others)}: peaceful unless someone attacks")
        return notes, contact

    def plan_move(self, model_id: str, to: tuple[float, float] | str) -> MovePlan:
        """P-MOVE: this turn's step towards room ``to`` (or model ``to``'s room) along a
        shortest path of rooms; one room per turn, into a room with a free place (P-CAP).
        ``notes`` give the whole route and what the step leads into."""
        p = self.piece(model_id)
        if to == model_id:
            raise SkirmishError(f"{model_id!r} is the moving piece itself; name another piece to move to",
                                kind="same_model")
        dest = self.room_of(to) if isinstance(to, str) else self.room(as_room(to, "to")).at
        if p.kind == "creature":
            return MovePlan(model_id, (p.room,), 0.0, 0.0, False,
                            (Violation(0, "creatures do not move: they hold the room they were drawn in"),), budget=1.0)
        if dest == p.room:
            return MovePlan(model_id, (p.room,), 0.0, 0.0, True, budget=1.0,
                            notes=(f"{model_id} is already in {room_text(dest)}",))
        to_dest = self._bfs(dest)
        total = float(to_dest[self._room_index[p.room]])
        if total == math.inf:
            raise IllegalActionError(f"{self._where()}{room_text(dest)} cannot be reached from {room_text(p.room)}")
        firsts = [nb for nb in self._adjacent[p.room] if to_dest[self._room_index[nb]] == total - 1]
        legal_firsts = [nb for nb in firsts if not self._entry_violations(p, p.room, nb, 0)]
        step = (legal_firsts or firsts)[0]
        violations = self._entry_violations(p, p.room, step, 0)
        route = (p.room,) + self.path(step, dest)
        notes, contact = self._move_notes(p, step)
        turns = int(total)
        notes.insert(0, f"route to {room_text(dest)}: {' -> '.join(room_text(r) for r in route)} "
                        f"({turns} step{'s' * (turns != 1)}: {'arrives this turn' if turns == 1 else f'{turns} turns'})")
        return MovePlan(model_id, (p.room, step), 1.0, 1.0, not violations, tuple(violations), contact, 0, 1.0,
                        tuple(notes))

    def check_move(self, model_id: str, via: Sequence[tuple[float, float]]) -> MovePlan:
        """Check a declared path of rooms after the start: each step into a room that
        shares a side with the last (P-GRID), one step per turn (P-MOVE), P-CAP."""
        p = self.piece(model_id)
        rooms = [as_room(v, f"via[{i}]") for i, v in enumerate(via)]
        violations: list[Violation] = []
        if p.kind == "creature" and rooms:
            violations.append(Violation(0, "creatures do not move: they hold the room they were drawn in"))
        prev = p.room
        for i, r in enumerate(rooms):
            if r not in self._room_index:
                violations.append(Violation(i, f"no room at {room_text(r)}"))
            elif r != prev and r not in self._adjacent[prev]:
                violations.append(Violation(i, f"{room_text(prev)} and {room_text(r)} do not share a side (P-GRID): "
                                                 "a character moves one room per turn (P-MOVE)"))
            if i == 1:
                violations.append(Violation(i, "one room per turn (P-MOVE)"))
            prev = r
        if rooms and rooms[-1] in self._room_index and p.kind == "character":
            violations += self._entry_violations(p, p.room, rooms[-1], len(rooms) - 1)
        contact = None
        notes: list[str] = []
        if rooms and rooms[-1] in self._room_index:
            notes, contact = self._move_notes(p, rooms[-1])
        length = float(sum(1 for a, b in zip([p.room, *rooms], rooms) if a != b))
        return MovePlan(model_id, (p.room, *rooms), length, length, not violations, tuple(violations), contact, 0,
                        1.0, tuple(notes))

    def movement_range(self, model_id: str) -> MoveRange:
        """Where ``model_id`` can be at the end of this turn: its room and each room next
        to it that it may enter; ``regions`` are those rooms' unit squares, ``area`` their count."""
        p = self.piece(model_id)
        notes = []
        if p.kind == "creature":
            ends = [p.room]
            notes.append("creatures do not move")
        else:
            ends = [p.room]
            for nb in self._adjacent[p.room]:
                why = self._entry_violations(p, p.room, nb, 0)
                if why:
                    notes.append(f"not {room_text(nb)}: {why[0].what}")
                else:
                    ends.append(nb)
        notes.insert(0, "rooms: " + ", ".join(room_text(r) for r in ends))
        regions = tuple((square(r),) for r in ends)
        return MoveRange(model_id, 1.0, regions, float(len(ends)), tuple(notes))

    def moved(self, model_id: str, to: Room) -> Grid:
        """A copy with ``model_id`` moved to room ``to`` (refused unless it is a legal move),
        at the end of its player's row there."""
        plan = self.check_move(model_id, [as_room(to, "to")])
        if not plan.legal:
            raise IllegalActionError(f"{model_id} cannot move to {room_text(as_room(to))}: "
                                     + "; ".join(v.what for v in plan.violations))
        p = self.piece(model_id)
        dest = as_room(to)
        if dest == p.room:
            return self
        place = 1 + max((q.place for q in self._by_room.get(dest, ()) if q.side == p.side), default=0)
        pieces = tuple(replace(q, room=dest, place=place) if q.id == model_id else q for q in self.pieces)
        return replace(self, pieces=pieces)

    # -- fights (P-TURN, P-REINF) ------------------------------------------------------------------
    def exits(self, at: Room) -> tuple[Exit, ...]:
        """Rooms next to ``at`` without creatures, with their characters counted by player:
        where retreating characters may go (each must be free for the retreating player)."""
        out = []
        for nb in self.neighbours(at):
            if self.has_creatures(nb):
                continue
            counts: dict[str, int] = {}
            for q in self._by_room.get(nb, ()):
                counts[q.side] = counts.get(q.side, 0) + 1
            out.append(Exit(nb, counts))
        return tuple(out)

    def fight_setup(self, at: Room, *, attacker: str | None = None, defender: str | None = None,
                    reinforcements: Iterable[str | Reinforce] = (), max_rounds: int = 30) -> FightSetup:
        """The fight in room ``at``: the attacking player's row against the defenders'
        (the creatures there, or another player), with reinforcements from rooms next to
        it (P-REINF) and the free rooms each side may retreat to."""
        room = self.room(at).at
        present = self.rows(room)
        players = [s for s in present if s != CREATURES]
        where = f"{self._where()}room {room_text(room)}"
        if attacker is None:
            if CREATURES in present and len(players) == 1:
                attacker = players[0]
            elif not players:
                raise SkirmishError(f"{where}: no characters here to start a fight")
            elif len(players) == 1:
                raise SkirmishError(f"{where}: no fight here: it holds only {players[0]}'s characters and no "
                                    "creatures, and a fight needs two sides (creatures, or another player)")
            else:
                raise SkirmishError(f"{where} holds {', '.join(players)}: name the attacking player "
                                    f"({'creatures never start a fight' if CREATURES in present else 'either may attack'})")
        if attacker == CREATURES:
            raise SkirmishError(f"{where}: creatures never start a fight; the attacker is a player")
        if attacker not in present:
            raise SkirmishError(f"{where}: {attacker!r} has no one here (here: {', '.join(present) or 'nobody'})")
        if defender is None:
            others = [s for s in present if s != attacker]
            if CREATURES in others:
                defender = CREATURES
            elif len(others) == 1:
                defender = others[0]
            else:
                raise SkirmishError(f"{where}: " + (f"no fight here: {attacker} has no one to fight (no creatures, "
                                                    "no other player)" if not others else
                                                    f"name the defending player ({', '.join(others)})"))
        if defender not in present or defender == attacker:
            raise SkirmishError(f"{where}: the defender must be another side present here "
                                f"({', '.join(s for s in present if s != attacker) or 'none'})")
        joins: dict[str, list[Reinforcement]] = {attacker: [], defender: []}
        third: dict[str, str] = {}
        for order in reinforcements:
            o = Reinforce(order) if isinstance(order, str) else order
            p = self.piece(o.id)
            if p.kind != "character":
                raise SkirmishError(f"{where}: {o.id} is a creature; creatures do not reinforce")
            if not self.adjacent(p.room, room):
                raise SkirmishError(f"{where}: {o.id} stands in {room_text(p.room)}, not next to the fight; "
                                    f"reinforcements come from adjacent rooms (P-REINF)")
            side = o.side or p.side
            helpable = [s for s in (attacker, defender) if s != CREATURES]  # characters never join the creatures
            if p.side in (attacker, defender):
                if side != p.side:
                    raise SkirmishError(f"{where}: {o.id} belongs to {p.side}, which fights here, so it can only "
                                        f"join {p.side}: write {o.id}:{p.side} or just {o.id}, not {o.id}:{side}")
            elif o.side is None:
                raise SkirmishError(f"{where}: {o.id} belongs to {p.side}, which does not fight here: name the "
                                    f"side it helps, {' or '.join(f'{o.id}:{s}' for s in helpable)}")
            elif side not in helpable:
                why = ("characters never join the creatures" if side == CREATURES
                       else f"{side} does not fight here")
                raise SkirmishError(f"{where}: {o.id} ({p.side}) cannot join {side}: {why}; it may help "
                                    f"{' or '.join(helpable)} ({' or '.join(f'{o.id}:{s}' for s in helpable)})")
            if p.side not in (attacker, defender):
                if third.setdefault(p.side, side) != side:
                    raise SkirmishError(f"{where}: a third player ({p.side}) sends reinforcements to one side only")
            joins[side].append(Reinforcement(p.fighter, o.round, p.room))
        fighters = {s: tuple(self.fighter(i) for i in present[s]) for s in (attacker, defender)}
        exits = self.exits(room)
        sides = [SideSetup(s, fighters[s], tuple(joins[s]), () if s == CREATURES else exits) for s in (attacker, defender)]
        return FightSetup(sides[0], sides[1], room, max_rounds)

    def fight(self, at: Room, rng: random.Random, *, policy: Policy | Mapping[str, Policy] | None = None,
              **setup: Any) -> FightLog:
        """Resolve the fight in room ``at`` (:meth:`fight_setup` arguments; :func:`resolve_fight`)."""
        return resolve_fight(self.fight_setup(at, **setup), rng, policy)

    # -- for drawing -------------------------------------------------------------------------------
    def drawing(self) -> tuple[str, ...]:
        """The rooms as text rows: the room's key ('.' or its legend letter), '#' for no room."""
        c, r = self.size
        grid = [["#"] * c for _ in range(r)]
        for room in self.rooms:
            grid[room.at[1]][room.at[0]] = room.key
        return tuple("".join(line) for line in grid)

    def layout(self) -> dict[str, Any]:
        """Everything a drawing needs, as plain data: the size, each room with its square,
        neighbours, walls and its rows (side → ids by place), every piece, the fights on."""
        return {
            "map": "grid", "name": self.name, "size": list(self.size), "drawing": list(self.drawing()),
            "sides": list(self.sides),
            "rooms": [{**r.to_json(), "square": [list(p) for p in square(r.at)],
                       "neighbours": [list(n) for n in self._adjacent[r.at]], "walls": list(self.walls(r.at)),
                       "rows": {k: list(v) for k, v in self.rows(r.at).items()}} for r in self.rooms],
            "pieces": [{"id": p.id, "side": p.side, "kind": p.kind, "room": list(p.room), "place": p.place,
                        "fighter": p.fighter.to_json()} for p in self.pieces],
            "fights": [list(r) for r in self.fights()],
        }


def square(at: Room) -> tuple[tuple[float, float], ...]:
    """The unit square room ``at`` covers in the plane (counter-clockwise as drawn, y down)."""
    c, r = at
    return ((float(c), float(r)), (c + 1.0, float(r)), (c + 1.0, r + 1.0), (float(c), r + 1.0))

