"""What a player chooses in a game of Eldfall, and the legal options the game offers.

Decision kinds (``Decision.kind``):

- ``"activate"``: which model of the Active side spends 1 AP on an Activation
  Sequence; options are model ids and ``None`` (stop: end the Tactical phase).
- ``"move"``: a :class:`Move` for the activated model (open: any legal Move is accepted).
- ``"reaction"``: a :class:`Reaction` of one Reactive model (``actor``) to the move just made.
- ``"action"``: the Active model's :class:`Action`, knowing the Reactions.
- ``"dodge-move"``: after a Dodge, a :class:`Move` of kind ``dodge`` (or ``idle`` to stay).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import shapely
from shapely.ops import nearest_points

from ...errors import IllegalActionError
from ...maps.table import Table
from ...maps.table_climb import feet_nearest
from ...memo import IdentityMemo

MoveKindName = Literal["idle", "walk", "run", "climb", "jump", "dodge"]
ActionKind = Literal["attack", "cast", "dodge", "nothing", "death-blow"]
ReactionKind = Literal["none", "attack", "dodge"]

#: Special movement (E-ACTION-COMBO): the Action must be Nothing.
SPECIAL_MOVES = frozenset({"run", "climb", "jump"})


class IllegalChoice(IllegalActionError):
    """A policy's choice that breaks a rule: refused with the model and the reason, never applied."""

    def __init__(self, model: str | None, reason: str, choice: object = None):
        self.model, self.reason, self.choice = model, reason, choice
        super().__init__(f"illegal choice for {model}: {reason}" + (f" ({choice!r})" if choice is not None else ""))

    def __reduce__(self) -> tuple[type, tuple[str | None, str, object]]:  # (a worker process sends it whole)
        return type(self), (self.model, self.reason, self.choice)


@dataclass(frozen=True)
class Move:
    """A movement: ``kind`` idle (turn only), walk, run, climb, jump, or dodge (the
    Dodge move); ``to`` the base centre's end (x, y, z) — for a jump the point its line
    is aimed at (E-MOVE-JUMP: it may end short and fall); ``face`` the facing at the end
    in degrees (None: the direction of the last stretch, or unchanged for idle);
    ``crouch`` toggles Crouched at the ``"start"`` or the ``"end"`` of the movement
    (E-ACTIVATION, E-STATE-CROUCHED; None: no toggle)."""

    kind: MoveKindName
    to: tuple[float, float, float] | None = None
    face: float | None = None
    crouch: Literal["start", "end"] | None = None

    def __post_init__(self) -> None:
        if type(self.to) is list:  # (a Move is a dict key)
            object.__setattr__(self, "to", tuple(self.to))

    def __repr__(self) -> str:
        to = "" if self.to is None else " to " + ("(" + ", ".join(
            f"{c:.2f}" if isinstance(c, (int, float)) else repr(c) for c in self.to) + ")"
            if isinstance(self.to, tuple) else repr(self.to))
        face = "" if self.face is None else \
            f" facing {self.face:.0f}°" if isinstance(self.face, (int, float)) else f" facing {self.face!r}"
        crouch = "" if self.crouch is None else f", toggles Crouched at the {self.crouch}"
        return f"Move({self.kind}{to}{face}{crouch})"


@dataclass(frozen=True)
class Action:
    """The Active model's Action: attack (``target`` with ``weapon``), cast (the same
    with a spell, E-AURA-CAST), dodge, nothing, or death-blow (``target``: an
    Incapacitated enemy in base contact)."""

    kind: ActionKind
    target: str | None = None
    weapon: str | None = None
    #: E-STK-SPLIT: the Active Strike split among several targets, (target, dice) each,
    #: ``target`` the first; empty: every Strike on ``target``
    split: tuple[tuple[str, int], ...] = ()

    def __repr__(self) -> str:
        more = "".join(f" {v}" for v in (self.target, self.weapon) if v)
        if self.split:
            more += " split " + "/".join(f"{t}:{n}" for t, n in self.split)
        return f"Action({self.kind}{more})"

    @property
    def shares(self) -> tuple[tuple[str, int | None], ...]:
        """(target, dice) per target attacked; dice None: the whole Strike."""
        if self.split:
            return tuple((t, n) for t, n in self.split)
        return ((self.target, None),) if self.target is not None else ()


@dataclass(frozen=True)
class Reaction:
    """A Reactive model's answer to a move: none, dodge, or attack with ``weapon`` at
    the mover's path point number ``at`` (Attack of Opportunity, E-REACTION)."""

    kind: ReactionKind
    at: int | None = None
    weapon: str | None = None
    los: bool = True

    def __repr__(self) -> str:
        if self.kind == "attack":
            return f"Reaction(attack {self.weapon} at point {self.at})"
        if self.kind == "dodge":
            return "Reaction(dodge)" if self.los else "Reaction(dodge without LoS)"
        return "Reaction(none)"


NOTHING = Action("nothing")
NO_REACTION = Reaction("none")


#: Split options offered per weapon at most (E-STK-SPLIT), in a fixed order
MAX_SPLITS = 24


def strike_splits(targets: Sequence[str], strike: int, most: int = MAX_SPLITS) -> list[tuple[tuple[str, int], ...]]:
    """E-STK-SPLIT: the ways to split ``strike`` dice among two or more of ``targets``,
    each target at least one die (every composition over every subset, in order of
    subset size, then of the targets' order), at most ``most`` of them."""
    out: list[tuple[tuple[str, int], ...]] = []
    for size in range(2, min(strike, len(targets)) + 1):
        for group in itertools.combinations(targets, size):
            for cuts in itertools.combinations(range(1, strike), size - 1):
                dice = [b - a for a, b in zip((0, *cuts), (*cuts, strike))]
                out.append(tuple(zip(group, dice)))
                if len(out) >= most:
                    return out
    return out


def path_samples(points: tuple[tuple[float, ...], ...], step: float = 2.0, most: int = 6
                 ) -> tuple[tuple[float, float, float], ...]:
    """Points of a path at which reactions are judged: every vertex, and points every
    ``step`` inches along level stretches; at most ``most`` (start and end kept)."""
    pts = [(float(p[0]), float(p[1]), float(p[2]) if len(p) > 2 else 0.0) for p in points]
    out = [pts[0]]
    for a, b in zip(pts, pts[1:]):
        d = math.hypot(b[0] - a[0], b[1] - a[1])
        if abs(a[2] - b[2]) < 1e-9 and d > step:
            k = int(d // step)
            for j in range(1, k + 1):
                t = j * step / d
                if t < 1 - 1e-9:
                    out.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]), a[2]))
        out.append(b)
    dedup = [out[0]]
    for p in out[1:]:
        if math.dist(p, dedup[-1]) > 1e-6:
            dedup.append(p)
    if len(dedup) > most:
        idx = sorted({round(i * (len(dedup) - 1) / (most - 1)) for i in range(most)})
        dedup = [dedup[i] for i in idx]
    return tuple(dedup)


def nearest_on_path(path: Sequence[Sequence[float]], points: Iterable[Sequence[float]]
                    ) -> list[tuple[tuple[float, float, float], float]]:
    """For each plan point (x, y) of ``points``: the point (x, y, z) of ``path`` nearest
    it in plan (z interpolated along its stretch), and how far along the path that lies
    (plan inches from the start)."""
    pts = [(float(p[0]), float(p[1]), float(p[2]) if len(p) > 2 else 0.0) for p in path]
    hypot = math.hypot
    stretches = []  # (start, plan offset, its length and square, rise, plan inches before it)
    run = 0.0
    for (ax, ay, az), (bx, by, bz) in zip(pts, pts[1:]):
        dx, dy = bx - ax, by - ay
        seg = hypot(dx, dy)
        if seg > 1e-12:
            stretches.append((ax, ay, az, dx, dy, seg, seg * seg, bz - az, run))
        run += seg
    out = []
    for p in points:
        x, y = p[0], p[1]
        best = pts[0]
        best_d, best_s = hypot(best[0] - x, best[1] - y), 0.0
        for ax, ay, az, dx, dy, seg, seg2, rise, before in stretches:
            t = min(1.0, max(0.0, ((x - ax) * dx + (y - ay) * dy) / seg2))
            qx, qy = ax + t * dx, ay + t * dy
            d = hypot(qx - x, qy - y)
            if d < best_d - 1e-12:
                best, best_d, best_s = (qx, qy, az + t * rise), d, before + t * seg
        out.append((best, best_s))
    return out


def with_moments(path: Sequence[Sequence[float]], samples: Sequence[tuple[float, float, float]],
                 extra: Sequence[tuple[float, float, float]]) -> tuple[tuple[float, float, float], ...]:
    """``samples`` and the points ``extra`` of ``path``, in their order along it (a point
    within 1e-6 in of one already there is not repeated)."""
    out = list(samples)
    for p in extra:
        if all(math.dist(p, q) > 1e-6 for q in out):
            out.append(p)
    along = {q: s for q, (_, s) in zip(out, nearest_on_path(path, out))}
    return tuple(sorted(out, key=lambda q: along[q]))


#: Where a base of a radius fits on a top (its footprint shrunk), per footprint and radius.
_ROOM: IdentityMemo[shapely.Geometry] = IdentityMemo(1024)


def _room(footprint: shapely.Geometry, r: float) -> shapely.Geometry:
    """Where the centre of a base of radius ``r`` may stand on the top ``footprint``."""
    return _ROOM.get((id(footprint), r), (footprint,), lambda: footprint.buffer(-(r + 0.01)))


def climb_jump_aims(table: Table, model_id: str, kind: Literal["climb", "jump"], budget: float,
                    rng: random.Random, n: int) -> list[tuple[float, float, float]]:
    """Candidate ends of a Climb or aims of a Jump (``kind``; E-MOVE-CLIMB, E-MOVE-JUMP) for
    ``model_id`` with ``budget`` inches: for every walkable top but the one it stands on
    (or the table, from a top) whose edge is within reach, the nearest point where the
    base fits on it — a jump aim at that height, and a climb end where the height
    differs; a top above that is out of reach, a climb up its face as far as the budget
    goes (stopping on it, to climb on in a later Activation); and jumps of the whole
    budget in ``n`` random directions at the model's height (off an edge they fall).
    A model on a face climbs on: up it (onto the top, or as far as the budget goes) or
    down to its foot (:func:`face_climbs`), and jumps nowhere. Unchecked. The ``n``
    directions are drawn for either kind, so ``rng``'s later draws do not hang on it."""
    m = table.model(model_id)
    climb = kind == "climb"
    on = table.on_face(model_id) if m.z > 1e-6 else None
    if on is not None:
        return face_climbs(table, model_id, budget, on[0].z, on[1]) if climb else []
    here = shapely.Point(m.x, m.y)
    out: list[tuple[float, float, float]] = []
    # every walkable top but the one it stands on (a roof across a gap at its own height too: a Jump's)
    tops: list[tuple[float, shapely.Geometry]] = [(float(s.solid.z1), s.solid.footprint) for s in table.scenery
                                                  if s.walkable and (abs(s.solid.z1 - m.z) > 1e-6 or
                                                                     shapely.distance(s.solid.footprint, here) > m.radius)]
    if m.z > 1e-6:  # from a top: the table below, outside the piece under it
        under = [s.solid.footprint for s in table.scenery if abs(s.solid.z1 - m.z) <= 1e-6
                 and shapely.distance(s.solid.footprint, here) <= m.radius]
        if under:
            ground = shapely.box(0, 0, table.width, table.depth).difference(shapely.union_all(under))
            tops.append((0.0, ground))
    rooms = [_room(foot, m.radius) for _, foot in tops]
    # a lower bound of either movement: the base centre's displacement (and the height, for a climb)
    gaps = shapely.distance(rooms, here).tolist()
    # out of reach above: up the face as far as the budget goes, from the foot nearest
    up = [i for i, ((z, _), gap) in enumerate(zip(tops, gaps)) if gap + abs(z - m.z) > budget and z > m.z + 1e-6] \
        if climb else []
    feet = dict(zip(up, feet_nearest([tops[i][1] for i in up], m.radius, m.x, m.y).tolist()))
    for i, ((z, foot), room, gap) in enumerate(zip(tops, rooms, gaps)):
        if room.is_empty:
            continue
        if gap + abs(z - m.z) > budget:
            if i in feet:
                fx, fy = feet[i]
                rise = min(budget - 1e-3 - math.hypot(fx - m.x, fy - m.y), z - m.z)
                if rise >= FACE_STEP:
                    out.append((round(fx, 4), round(fy, 4), m.z + rise))
            continue
        # (a Climb crosses one face: up or down, never across to the same height)
        if climb and abs(z - m.z) <= 1e-6:
            continue
        q = nearest_points(room, here)[0] if not room.contains(here) else here
        p = (round(q.x, 4), round(q.y, 4), z)
        if climb or math.dist((m.x, m.y, m.z), p) <= budget:
            out.append(p)
    for _ in range(max(0, n)):
        a = rng.uniform(0, 2 * math.pi)
        x, y = m.x + budget * 0.999 * math.cos(a), m.y + budget * 0.999 * math.sin(a)
        if not climb and 0 < x < table.width and 0 < y < table.depth:
            out.append((round(x, 4), round(y, 4), m.z))
    return out


#: The least height a Climb is offered to go up or down a face and stop on it (inches).
FACE_STEP = 0.5


def face_climbs(table: Table, model_id: str, budget: float, foot_z: float, piece: str
                ) -> list[tuple[float, float, float]]:
    """The Climbs on of a model that hangs on the face of ``piece`` (E-MOVE-CLIMB), with
    ``budget`` inches: onto the top (the nearest point where the base fits on it, if it
    is walkable and not surely out of reach), up the face as far as the budget goes, and
    down to its foot at ``foot_z`` (or down as far as the budget goes). Unchecked."""
    m = table.model(model_id)
    s = table.scenery_piece(piece)
    out: list[tuple[float, float, float]] = []
    z1 = float(s.solid.z1)
    if s.walkable:
        room = _room(s.solid.footprint, m.radius)
        if not room.is_empty:  # (a lower bound of the climb: the height and the plan distance)
            q = nearest_points(room, shapely.Point(m.x, m.y))[0]
            if z1 - m.z + math.hypot(q.x - m.x, q.y - m.y) <= budget:
                out.append((round(q.x, 4), round(q.y, 4), z1))
    up = min(z1, m.z + budget - 1e-3)
    if up >= m.z + FACE_STEP:
        out.append((m.x, m.y, up))
    down = max(foot_z, m.z - budget + 1e-3)
    if m.z - down >= min(FACE_STEP, m.z - foot_z):
        out.append((m.x, m.y, down))
    return out
