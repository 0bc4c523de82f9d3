"""Movement on the continuous table (E-MOVE-*, E-FALL): a mixin of :class:`Table`.

A model moves on *surfaces*: the table top and the walkable tops of scenery (grouped
by height). On a surface its base centre moves in the plan, keeping clear of the
solids taller than its hitbox (lower ones are crossed freely, E-MOVE-KIND), of enemy
models (E-MOVE-FRIEND; touching one ends the move, E-MOVE-ENEMY) and of the
surface's edge (the whole base stays on it). It changes surface by climbing a
ladder (vertical part at double cost, E-MOVE-LADDER), by stepping up or down a
height no more than its hitbox, or by walking off an edge and falling (E-FALL).

The geometry lives in :mod:`skirmish.geometry.paths`; the rules (budgets, falls,
ladder cost) in :mod:`skirmish.rules.eldfall.movement`. Interpretations are listed in
``docs/movement.md``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from ..errors import IllegalActionError, MeasurementRefused, RuleInputError, SkirmishError
from ..geometry import paths as P
from ..memo import IdentityMemo
from ..values import is_number
from ..rules.eldfall.modes import Mode, parse_mode
from ..rules.eldfall.movement import MoveKind, fall_rolls, is_fall, move_kind, movement_budget, vertical_cost
from .results import MovePlan, MoveRange, Violation
from .table_climb import Climb, face_at
from .table_jump import Jump
from .tolerances import CONTACT, MAX_EXTENT, Z_TOL, far_off_table

if TYPE_CHECKING:
    from .pieces import Model, Scenery

#: A planned path passes enemies at least this much farther than base contact.
ENEMY_MARGIN = 2 * CONTACT
#: A vertical segment within this distance (plus the base radius) of a ladder point climbs it.
LADDER_REACH = 0.1
#: The base steps this much (inches) further onto the top than just inside its edge (round tops
#: are polygons a little inside the true circle).
LADDER_INSET = 0.005
#: Points sampled on a contact circle when the straight approach is blocked.
CONTACT_SAMPLES = 64
#: A plan for a caller that uses legal plans only tries no finish that costs this much
#: more than the budget (inches; the walk's own over-budget test allows 1e-9).
BOUND_SLACK = 1e-6

PointLike = Sequence[float]
Hops = list[tuple[float, float, int, int]]
#: How a path finishes: (cost, from node, edge kind, changes of surface, surface, end point).
Connection = tuple[float, int, int, "Hops | None", int, np.ndarray]


# ---------------------------------------------------------------------------------------
# Surfaces
# ---------------------------------------------------------------------------------------

@dataclass(frozen=True, repr=False)
class Surface:
    """A horizontal surface models stand on: the table top (``pieces == ()``) or the
    walkable tops of the scenery pieces ``pieces`` at height ``z`` (their union)."""

    index: int
    z: float
    support: BaseGeometry
    pieces: tuple[str, ...] = ()
    box: bool = False

    def __repr__(self) -> str:
        return f"Surface({self.index}: {self.label}, z={self.z:g})"

    @cached_property
    def bounds(self) -> tuple[float, float, float, float]:
        """The support's bounds (x0, y0, x1, y1)."""
        x0, y0, x1, y1 = self.support.bounds
        return x0, y0, x1, y1

    def holds_xy(self, x: float, y: float) -> bool:
        """Whether the support holds the plan point ``(x, y)`` (its edge too): ``intersects_xy``,
        read off the bounds for the table's box."""
        if self.box:
            x0, y0, x1, y1 = self.bounds
            return x0 <= x <= x1 and y0 <= y <= y1
        return bool(shapely.intersects_xy(self.support, x, y))

    @property
    def label(self) -> str:
        if not self.pieces:
            return "the table"
        if len(self.pieces) == 1:
            return f"the top of {self.pieces[0]}"
        return f"the tops of {', '.join(self.pieces[:4])}{' ...' if len(self.pieces) > 4 else ''}"

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "z": self.z, "pieces": list(self.pieces), "label": self.label}


@dataclass(frozen=True)
class Ladder:
    """A ladder as one model uses it: the point on the piece's edge, where the base
    centre stands at its foot (``foot``, on surface ``low``) and where it steps onto the
    top (``top``, on surface ``high``), and the height climbed."""

    piece: str
    point: tuple[float, float]
    foot: tuple[float, float]
    top: tuple[float, float]
    low: int
    high: int
    rise: float
    usable: bool = True
    why: str = ""


# ---------------------------------------------------------------------------------------
# What one model meets on one surface
# ---------------------------------------------------------------------------------------

class _Space:
    """Everything model ``mover`` meets on ``surface``: the exact tests and, lazily, the
    configuration-space polygon and visibility graph. Its free spaces (:attr:`trav`,
    :attr:`end`) are made when first asked for; where a move may end, and a straight
    move's way, are tested without them (:meth:`ends_free`, :meth:`end_owners`,
    :meth:`way_clear`): many a space tests only those."""

    def __init__(self, mover: _Mover, surface: Surface):
        # (the mover's radius and start, not the mover: it keeps its spaces)
        self.r, self.start = mover.r, mover.start
        self.surface = surface
        m = mover.model
        r, h, z = mover.r, mover.h, surface.z
        top = z + h
        sc = self._pieces = _pieces_on(mover.scenery, surface, r, h, mover.flying)
        #: each piece's heights (read only: shared by the movers of this size here)
        self.heights: dict[str, tuple[float, float]] = sc.heights
        self.enemies: list[tuple[str, float, float, float]] = []
        self.friends: list[tuple[str, float, float, float]] = []
        for oid, side, x, y, oz, rad, oh, dead in mover.others:
            if oid == m.id or oz > top + CONTACT or oz + oh < z - CONTACT:
                continue
            # E-STATE-DEAD: a Dead model is moved through like a friend (and never ended on)
            (self.friends if side == m.side or dead else self.enemies).append((oid, x, y, rad))
        self.model_ids = [e[0] for e in (*self.enemies, *self.friends)]
        # every model's capsule (x, y, x, y, radius)
        self._discs = _disc_rows((*self.enemies, *self.friends))
        self.enemy_caps = _grown_rows(self._discs[:len(self.enemies)], r, 0)[0]
        self.ladder_points: list[tuple[float, float]] = []
        self.drop_points: list[tuple[float, float]] = []
        self.drop_groups: list[int] = []  # the surface each landing point is stepped off from
        self._graphs: dict[tuple[float, ...], P.Graph] = {}
        self._ends_free: dict[tuple[float, float], bool] = {}

    @cached_property
    def blockers(self) -> list[P.PlanObstacle]:
        """The obstacles of the pieces in the way, a round one's turned to the mover."""
        return self._turned(True)

    @cached_property
    def low(self) -> list[P.PlanObstacle]:
        """The obstacles of the low pieces (passed over), a round one's turned to the mover."""
        return self._turned(False)

    def _turned(self, way: bool) -> list[P.PlanObstacle]:
        sc, r, here = self._pieces, self.r, self.start
        out = list(sc.blockers if way else sc.low)
        for w, i, s in sc.round:
            if w == way:
                out[i] = _obstacle(s, r, here)
        return out

    def ends_free(self, pts: np.ndarray) -> np.ndarray:
        """Whether the base may end at each of ``pts`` ((n, 2)): :meth:`end_free`, each
        point's verdict kept (a point drawn is tested again when planned)."""
        keys = list(map(tuple, pts.tolist()))
        seen = self._ends_free
        if seen.keys().isdisjoint(keys):  # (a batch of points drawn afresh: the usual case)
            free = self.end_free(pts)
            seen.update(zip(keys, free.tolist()))
            return free
        new = [i for i, key in enumerate(keys) if key not in seen]
        if new:
            seen.update(zip([keys[i] for i in new], self.end_free(pts[new]).tolist()))
        return np.array([seen[key] for key in keys], bool)

    def end_free(self, pts: np.ndarray) -> np.ndarray:
        """:attr:`end`'s ``point_free`` (tol 1e-7) at ``pts``, without it: the pieces' end
        space, then the models' discs."""
        return self._pieces.end.point_free(pts, tol=1e-7, more=self._end_discs[0])

    def end_owners(self, pt: np.ndarray) -> tuple[list[int], bool]:
        """What a base ending at ``pt`` ((1, 2)) is inside or too near (more than CONTACT
        into its clearance), as :attr:`end`'s owners (-1: the support's edge; the pieces,
        then the models: :meth:`end_name`), sorted; and whether ``pt`` lies in a footprint."""
        ends, discs = self._pieces.end, self._end_discs
        caps, owner = np.concatenate([ends.caps, discs[0]]), np.concatenate([ends.owner, discs[1]])
        gap = P.capsule_clearance(pt, caps)[0] if len(caps) else np.zeros(0)
        bad = set(np.flatnonzero(gap < -CONTACT).tolist())
        _, hit = ends.footprint_hits(pt)
        if len(hit):
            polys = [i for i, o in enumerate(ends.obstacles) if o.polygon is not None]
            bad |= {int(j) for j in np.flatnonzero(np.isin(owner, [polys[h] for h in hit.tolist()]))}
        return sorted({int(owner[j]) for j in bad}), bool(len(hit))

    def contacts(self, xy: Sequence[float]) -> list[str]:
        """The enemies a base centred at ``xy`` is in contact with (E-MOVE-ENEMY)."""
        if not len(self.enemy_caps):
            return []
        d = np.hypot(self.enemy_caps[:, 0] - xy[0], self.enemy_caps[:, 1] - xy[1]) - self.enemy_caps[:, 4]
        return [self.enemies[i][0] for i in np.flatnonzero(d <= CONTACT)]

    def far_from_enemies(self, pts: Sequence[tuple[float, float]]) -> bool:
        """Whether every point of ``pts`` keeps more than :data:`ENEMY_MARGIN` beyond base
        contact with every enemy: a way between two such points that is clear in
        :attr:`trav` (which keeps that margin, lowered only at its ends where they come
        nearer) comes into no contact."""
        caps = self.enemy_caps.tolist()  # (a few points and enemies: in Python)
        return all(math.hypot(cx - x, cy - y) - c > ENEMY_MARGIN + 1e-6 for x, y in pts for cx, cy, _, _, c in caps)

    def end_name(self, owner: int) -> str:
        """The piece or model of :attr:`end`'s ``owner`` (>= 0)."""
        names = self._pieces.end.names
        return names[owner] if owner < len(names) else self.model_ids[owner - len(names)]

    def _model_obstacles(self, models: Sequence[tuple[str, float, float, float]], clearance: float
                         ) -> list[P.PlanObstacle]:
        """Round obstacles of ``models`` kept ``clearance`` clear, turned towards the mover."""
        here = self.start
        return [P.PlanObstacle.round(i, clearance, (x, y, rad), _phase((x, y), here)) for i, x, y, rad in models]

    def _rows(self, *parts: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """The capsule rows of the support and the pieces in the way, then ``parts``."""
        return _joined_rows(self._pieces.way, *parts)

    @cached_property
    def trav(self) -> P.FreeSpace:
        """Planning: the support, the blockers, the enemies kept a little beyond contact."""
        r = self.r
        return P.FreeSpace(self.surface.support, r, [*self.blockers, *self._model_obstacles(self.enemies,
                                                                                          r + ENEMY_MARGIN)],
                           box=self.surface.box, rows=self._trav_rows)

    @cached_property
    def _trav_rows(self) -> tuple[np.ndarray, np.ndarray]:
        """:attr:`trav`'s capsule rows (and owners)."""
        ne = len(self.enemies)
        return self._rows(_grown_rows(self._discs[:ne], self.r + ENEMY_MARGIN, len(self._pieces.blockers)))

    def way_clear(self, p0: np.ndarray, p1: np.ndarray, *, relax0: np.ndarray | None = None,
                  relax1: np.ndarray | None = None) -> np.ndarray:
        """:attr:`trav`'s ``segments_clear`` from its capsule rows alone (a straight move
        needs no more of it)."""
        return ~P.violated(p0, p1, self._trav_rows[0], shrink=P.EPS, relax0=relax0, relax1=relax1)

    @property
    def check(self) -> P.FreeSpace:
        """Checking: the support and the blockers (models are tested separately)."""
        return self._pieces.check

    @cached_property
    def end(self) -> P.FreeSpace:
        """Ending: also the low pieces and every model (touching is fine). Moves test it in
        parts, without making it (:meth:`end_free`, :meth:`end_owners`)."""
        r = self.r
        models = self._model_obstacles((*self.enemies, *self.friends), r)
        sc = self._pieces  # (its round pieces' polygons are never made: unturned)
        return P.FreeSpace(self.surface.support, r, [*sc.blockers, *sc.low, *models], box=self.surface.box,
                           rows=self._rows(sc.low_rows, self._end_discs))

    @cached_property
    def _end_discs(self) -> tuple[np.ndarray, np.ndarray]:
        """:attr:`end`'s capsule rows (and owners) of the models."""
        return _grown_rows(self._discs, self.r, len(self._pieces.blockers) + len(self._pieces.low))

    @cached_property
    def graph(self) -> P.Graph:
        """The visibility graph: reflex corners, ladder ends, and the points where a base
        lands after stepping off a higher surface's edge (``drop_points``)."""
        return self.graph_within(math.inf)

    def graph_within(self, reach: float, aim: tuple[float, float] | None = None) -> P.Graph:
        """:attr:`graph` with only its corners within ``reach`` of where the mover stands
        (with an ``aim``: within ``reach`` from there on to the aim,
        :func:`~skirmish.geometry.paths.within_mask`), and the edges between nodes there
        (all of them for ``reach = inf``): the same nodes in the same order, and among
        them the same edges in the same order (:func:`~skirmish.geometry.paths.build_graph`)."""
        key = (reach,) if aim is None else (reach, *aim)
        g = self._graphs.get(key)
        if g is None:
            pts = [*self.ladder_points, *self.drop_points]
            groups = [-1] * len(self.ladder_points) + self.drop_groups
            extra = P.point_nodes(np.array(pts).reshape(-1, 2), np.array(groups, int)) if pts else None
            within = None if math.isinf(reach) else (*self.start, *key)
            g = self._graphs[key] = P.build_graph(self.trav, extra, within=within)
        return g

    @cached_property
    def end_polygon(self) -> BaseGeometry:
        """Where the base centre may end a move on this surface (conservative polygon)."""
        r = self.r
        here = self.start
        extra = [*self.low, *(P.PlanObstacle(i, r, circle=(x, y, rad), phase=_phase((x, y), here))
                              for i, x, y, rad in self.friends)]
        return self.trav.minus(extra)

    @cached_property
    def _enemy_discs(self) -> list[P.PlanObstacle]:
        """The enemies as round obstacles kept a little beyond contact (unturned: for shadows)."""
        return [P.PlanObstacle(i, self.r + ENEMY_MARGIN, circle=(x, y, rad)) for i, x, y, rad in self.enemies]

    @cached_property
    def casters(self) -> P.Casters:
        support = None if self.surface.box else self.trav.caps[self.trav.owner == -1]
        return P.casters([*self.blockers, *self._enemy_discs], support)

    def casters_without(self, pieces: Sequence[str]) -> P.Casters:
        return P.casters([o for o in self.blockers if o.name not in pieces] + self._enemy_discs)


def _disc_rows(circles: Sequence[tuple[str, float, float, float]]) -> np.ndarray:
    """The capsule rows (x, y, x, y, radius) of round obstacles ``(id, x, y, radius)``."""
    return np.array([[x, y, x, y, rad] for _, x, y, rad in circles], float).reshape(-1, 5)


def _grown_rows(discs: np.ndarray, clearance: float, first: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`~skirmish.geometry.paths.obstacle_rows` of the round obstacles ``discs``
    (:func:`_disc_rows`) kept ``clearance`` clear (radius + clearance; owners from
    ``first``), made without the obstacles."""
    caps = discs.copy()
    caps[:, 4] += clearance
    return caps, np.arange(first, first + len(caps))


def _phase(c: tuple[float, float], towards: tuple[float, float]) -> float:
    """The direction from ``c`` towards the moving model: round obstacles' polygons are
    turned to it, so a rigid motion of the whole table moves the answers with it."""
    return math.atan2(towards[1] - c[1], towards[0] - c[0])


def _obstacle(s: Scenery, r: float, towards: tuple[float, float]) -> P.PlanObstacle:
    if s.solid.circle is not None:
        return P.PlanObstacle.round(s.id, r, s.solid.circle, _phase(s.solid.circle[:2], towards))
    # the same piece and clearance: its capsules and grown pieces are kept on the obstacle
    return _OBSTACLES.get((id(s), r), (s,), lambda: P.PlanObstacle(
        s.id, r, polygon=s.solid.footprint,
        pieces=tuple(np.asarray(p.exterior.coords)[:-1] for p in s.solid.convex_pieces)))


#: A polygon piece's plan obstacle per clearance (a round one is turned toward the mover,
#: so it is made afresh): key (id(piece), clearance).
_OBSTACLES: IdentityMemo[P.PlanObstacle] = IdentityMemo(4096)


@dataclass(frozen=True, eq=False)
class _Pieces:
    """The scenery a base of one size meets on one surface: the same for every mover of
    that size there (only a round piece's polygon is turned to each mover)."""

    heights: dict[str, tuple[float, float]]
    #: the obstacles of the pieces met, in the table's order: those in the way, those low
    #: (passed over); a round piece's is turned to (0, 0) (its capsule has no corners)
    blockers: tuple[P.PlanObstacle, ...]
    low: tuple[P.PlanObstacle, ...]
    #: the round pieces, whose obstacles each mover's space turns to itself: (in the way,
    #: index among the blockers or the low ones, piece)
    round: tuple[tuple[bool, int, Scenery], ...]
    way: tuple[np.ndarray, np.ndarray]  # capsule rows: the support's edges, then the pieces in the way
    low_rows: tuple[np.ndarray, np.ndarray]  # the low pieces' capsule rows, owners after the pieces in the way
    #: :attr:`_Space.check`: the support and the pieces in the way (capsules only, none turned)
    check: P.FreeSpace
    #: where the base may end, models aside (:attr:`_Space.end` without them; for its point tests)
    end: P.FreeSpace


_PIECES: IdentityMemo[_Pieces] = IdentityMemo(1024)


def _joined_rows(*parts: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Capsule rows (and their owners) one after another, in the order given."""
    return np.concatenate([c for c, _ in parts]), np.concatenate([o for _, o in parts])


def _pieces_on(scenery: tuple[Scenery, ...], surface: Surface, r: float, h: float, flying: bool) -> _Pieces:
    def make() -> _Pieces:
        z, top = surface.z, surface.z + h
        met: list[tuple[Scenery, bool]] = []
        heights: dict[str, tuple[float, float]] = {}
        for s in scenery:
            z0, z1 = s.solid.z0, s.solid.z1
            if z1 <= z + Z_TOL or z0 >= top - Z_TOL:
                continue  # under the surface (or forming it), or overhead
            heights[s.id] = (z0, z1)
            # E-STATE-OTHER: a Flying model passes over scenery (it may not end on a piece)
            met.append((s, is_fall(z1 - z, h) and not flying))
        parts: dict[bool, list[P.PlanObstacle]] = {True: [], False: []}
        turned = []
        for s, way in met:
            if s.solid.circle is not None:
                turned.append((way, len(parts[way]), s))
            parts[way].append(_obstacle(s, r, (0.0, 0.0)))
        blockers, low = tuple(parts[True]), tuple(parts[False])
        rows, low_rows = P.capsule_rows(surface.support, r, blockers), P.obstacle_rows(low, len(met) - len(low))
        check = P.FreeSpace(surface.support, r, blockers, box=surface.box, rows=rows)
        end = P.FreeSpace(surface.support, r, [*blockers, *low], box=surface.box, rows=_joined_rows(rows, low_rows))
        return _Pieces(heights, blockers, low, tuple(turned), rows, low_rows, check, end)
    return _PIECES.get((id(scenery), id(surface.support), surface.z, r, h, flying), (scenery, surface.support), make)


# ---------------------------------------------------------------------------------------
# One model's movement: its surfaces, ladders and the shortest-path tree from where it stands
# ---------------------------------------------------------------------------------------

@dataclass(eq=False)
class _Net:
    """The visibility graph over every surface the model can reach, with the shortest
    distances from where it stands. Edge kinds: 0 walk, 1 ladder, 2 down (drops or
    steps), 3 up (steps); ``hops[aux]`` lists a change's ``(x, y, from, to)`` in order."""

    levels: list[int]
    offset: dict[int, int]
    nodes: dict[int, P.Nodes]
    xy: np.ndarray
    level: np.ndarray
    start: int
    eu: np.ndarray
    ev: np.ndarray
    w: np.ndarray
    kind: np.ndarray
    aux: np.ndarray  # kind 1: ladder index; kinds 2, 3: index into hops
    hops: list[list[tuple[float, float, int, int]]]
    dist: np.ndarray
    pred: np.ndarray  # predecessor edge
    falls: bool = True
    #: the net holds only paths that stay within this distance of the start (plan
    #: distance): every cost up to ``reach`` is the full net's, larger ones may be more
    #: (or infinite); ``inf``: the whole net
    reach: float = math.inf
    #: with an aim, only the paths that reach it within ``reach`` (plan distance, from the
    #: start on to the aim): the costs of the ways there up to ``reach`` are the full net's
    aim: tuple[float, float] | None = None
    #: per surface, where a move may finish from (:meth:`TableMovement._mv_finish_nodes`)
    finish: dict[tuple[Any, ...], tuple[np.ndarray, P.Nodes, np.ndarray]] = field(default_factory=dict)


#: The surfaces one change away from each surface, per surfaces (identity), base radius,
#: hitbox height and ladders usable (:meth:`_Mover._neighbours`).
_NEIGHBOURS: IdentityMemo[frozenset[int]] = IdentityMemo(1024)


#: Movement nets already built, shared by every table whose movement is the same: the
#: same scenery (identity), size and mode, and every model at the same place with the
#: same base, hitbox height and side (facings and other States do not change a path).
#: The mover's Speed (SPD: its fall rolls) is in the key too. Bounded, oldest first.
_MOVERS: IdentityMemo[_Mover] = IdentityMemo(64)


#: Movement nets by what they depend on: the scenery (identity), size and mode, the
#: mover (place, base, hitbox height, side, SPD) and every model it must steer round
#: (the other side's, not Dead). Friends never enter a net (they are moved through and
#: matter only where a move ends: :attr:`_Space.end`), so a friend's move keeps the net.
_NETS: IdentityMemo[_Net] = IdentityMemo(64)


def _net_key(t: Any, model_id: str) -> tuple[Any, ...]:
    """What a net depends on but its falls, reach and aim (see :data:`_NETS`)."""
    m = t.model(model_id)
    others = tuple((o.id, o.x, o.y, o.z, o.radius, o.hitbox_height) for o in t.models
                   if o.id != m.id and o.side != m.side and "Dead" not in o.states)
    return (model_id, id(t.scenery), m.attributes.get("SPD"), t.width, t.depth, t.mode, m.side, m.x, m.y, m.z,
            m.radius, m.hitbox_height, others)


#: How far beyond a net's reach its nodes keep their edges (rounding of path lengths).
_REACH_SLACK = 1e-6

#: Surfaces per scenery (identity), table width and depth.
_SURFACES: IdentityMemo[tuple[Surface, ...]] = IdentityMemo(64)


#: Per surface support (identity) and base radius: its exit curve (:func:`_exit_curve`).
_EXIT_CURVES: IdentityMemo[tuple[BaseGeometry, np.ndarray, BaseGeometry]] = IdentityMemo(256)


def _exit_curve(support: BaseGeometry, r: float) -> tuple[BaseGeometry, np.ndarray, BaseGeometry]:
    """The exit curve of a higher surface for a base of radius ``r``: the boundary of its
    outline grown by ``r`` (where a base stepping off stops touching it), that grown
    outline's reflex corners, and the neighbourhood where obstacles may meet the curve."""
    grown = support.buffer(r, quad_segs=16)
    return grown.boundary, P.reflex_nodes(grown).xy, grown.buffer(2 * r + 4 * ENEMY_MARGIN)


#: :func:`_exit_hits` per exit curve and obstacles (identity, in order): the scenery's grown
#: pieces are shared by the movers of one size, so are their answers.
_EXIT_HITS: IdentityMemo[np.ndarray] = IdentityMemo(256)


def _exit_hits(curve: BaseGeometry, blockers: Sequence[BaseGeometry]) -> np.ndarray:
    """The points ((n, 2), read only) where ``curve`` meets the outline of the union of ``blockers``."""
    return _EXIT_HITS.get((id(curve), *map(id, blockers)), (curve, *blockers), lambda: shapely.get_coordinates(
        shapely.intersection(curve, shapely.union_all(blockers).boundary)))


def _mover_key(t: Any, model_id: str) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    m = t.model(model_id)
    key = (model_id, id(t.scenery), m.attributes.get("SPD"), t.width, t.depth, t.mode, t._mv_others)
    return key, (t.scenery,)


class _Mover:
    def __init__(self, table: Any, model: Model):
        # (what it reads of ``table``, not the table: a table keeps its movers, and a
        # reference back would make each table a cycle the garbage collector must free)
        self.scenery: tuple[Scenery, ...] = table.scenery
        self.others: tuple[tuple[str, str, float, float, float, float, float, bool], ...] = table._mv_others
        self.net_key = _net_key(table, model.id)
        self.model = model
        self.r = model.radius
        self.h = model.hitbox_height
        self.surfaces: tuple[Surface, ...] = table.surfaces
        #: the piece whose vertical face the model hangs on, where a Climb stopped (E-MOVE-CLIMB); its
        #: home is then the surface at the face's foot
        self.face: str | None = None
        try:
            self.home = table.surface_under(model.id).index
        except SkirmishError:
            on = table.on_face(model.id)
            if on is None:
                raise
            self.home, self.face = on[0].index, on[1]
        self._spaces: dict[int, _Space] = {}
        self._nets: dict[tuple[bool, float, tuple[float, float] | None], _Net] = {}
        self.start = (model.x, model.y)
        #: E-STATE-OTHER: Flying, over scenery and down without falling
        self.flying = "Flying" in model.states
        for lad in self.ladders:
            if lad.usable:
                self.space(lad.low).ladder_points.append(lad.foot)
                self.space(lad.high).ladder_points.append(lad.top)

    @cached_property
    def start_contacts(self) -> list[str]:
        """The enemies the model is in contact with where it stands (read only)."""
        return self.space(self.home).contacts(self.start)

    def space(self, k: int) -> _Space:
        sp = self._spaces.get(k)
        if sp is None:
            sp = self._spaces[k] = _Space(self, self.surfaces[k])
        return sp

    @cached_property
    def ladders(self) -> list[Ladder]:
        out = []
        for s in self.scenery:
            for pt in s.ladders:
                out.append(self._ladder(s, pt))
        return out

    def _ladder(self, s: Scenery, pt: tuple[float, float]) -> Ladder:
        r = self.r
        if s.solid.circle is not None:
            cx, cy, rad = s.solid.circle
            v = np.array([pt[0] - cx, pt[1] - cy])
            n = v / (np.hypot(*v) or 1.0)
            p = np.array([cx, cy]) + rad * n
        else:
            ring = s.solid.footprint.exterior
            p, n = _edge_point_normal(np.asarray(ring.coords), np.array(pt, float))
        foot, top = p + r * n, p - (r + LADDER_INSET) * n
        z_top = s.solid.z1
        high = next((u.index for u in self.surfaces if abs(u.z - z_top) <= Z_TOL and s.id in u.pieces), None)
        base = Ladder(s.id, (float(p[0]), float(p[1])), (float(foot[0]), float(foot[1])),
                      (float(top[0]), float(top[1])), -1, -1 if high is None else high, 0.0, False)
        if high is None:
            return _replace(base, why=f"{s.id} is not walkable")
        below = [u for u in self.surfaces if u.z < z_top - Z_TOL and u.holds_xy(float(foot[0]), float(foot[1]))]
        if not below:
            return _replace(base, why="nothing to stand on at its foot")
        low = max(below, key=lambda u: u.z)
        base = _replace(base, low=low.index, rise=z_top - low.z)
        if not self.space(low.index).trav.point_free(foot, tol=1e-7)[0]:
            return _replace(base, why=f"its foot is blocked for a base of {2 * r:.2f} in on {low.label}")
        if not self.space(high).trav.point_free(top, tol=1e-7)[0]:
            return _replace(base, why=f"a base of {2 * r:.2f} in does not fit on the top beside it")
        for o in self.scenery:
            z0, z1 = o.solid.z0, o.solid.z1
            if o.id == s.id or z1 <= low.z + Z_TOL or z0 >= z_top + self.h - Z_TOL:
                continue
            if z0 < low.z + self.h - Z_TOL and not is_fall(z1 - low.z, self.h):
                continue  # low at the foot: stepped over as the climb starts
            if float(shapely.distance(o.solid.footprint, Point(*foot))) < r - 1e-7:
                return _replace(base, why=f"{o.id} is in the way of the climb")
        return _replace(base, usable=True)

    # -- the shortest-path tree ------------------------------------------------------------
    def net(self, falls: bool = True, reach: float = math.inf, aim: tuple[float, float] | None = None) -> _Net:
        """The movement net, exact for every cost up to ``reach`` (a net built for more
        reach, or the whole net, is used when there is one); with an ``aim`` (a point),
        for the costs of the ways there up to ``reach`` (a net without an aim serves too).
        A net is built for ``reach`` (and ``aim``) alone: a Walk's covers a quarter of a
        Run's disc, the ways to one point within a budget an ellipse in that disc (a Run
        on the same board, or a second point, rarer than the savings, builds its own)."""
        have = [(r, a) for f, r, a in self._nets if f == falls and r >= reach and a in (None, aim)]
        if have:
            r, a = max(have, key=lambda h: (h[0], h[1] is None))
            return self._nets[(falls, r, a)]
        refs, key = (self.scenery,), self.net_key
        for r, a in dict.fromkeys(((math.inf, None), (reach, None), (reach, aim))):
            hit = _NETS.find((*key, falls, r, a), refs)
            if hit is not None:
                self._nets[(falls, r, a)] = hit
                return hit
        net = _NETS.put((*key, falls, reach, aim), refs, self._build_net(falls, reach, aim))
        self._nets[(falls, reach, aim)] = net
        return net

    def _neighbours(self, k: int) -> frozenset[int]:
        """Surfaces reachable from surface ``k`` in one change (ladder, step, drop): the
        same for every mover of this base and height with the same ladders usable."""
        ladders = tuple((lad.usable, lad.low, lad.high) for lad in self.ladders)
        return _NEIGHBOURS.get((id(self.surfaces), self.r, self.h, ladders, k), (self.surfaces,),
                               lambda: self._find_neighbours(k))

    def _find_neighbours(self, k: int) -> frozenset[int]:
        out = set()
        for lad in self.ladders:
            if lad.usable and k in (lad.low, lad.high):
                out.add(lad.high if k == lad.low else lad.low)
        a = self.surfaces[k]
        for b in self.surfaces:
            if b.index == k:
                continue
            dz = b.z - a.z
            if dz > self.h + Z_TOL:
                continue
            if b.box or a.box or float(shapely.distance(a.support, b.support)) <= 2 * self.r + Z_TOL:
                out.add(b.index)
        return frozenset(out)

    def reachable_levels(self) -> list[int]:
        """The surfaces the model can reach, in order (read only)."""
        return self._levels

    @cached_property
    def _levels(self) -> list[int]:
        seen, todo = {self.home}, [self.home]
        while todo:
            k = todo.pop()
            for n in self._neighbours(k):
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        return sorted(seen)

    def _build_net(self, falls: bool, reach: float = math.inf, aim: tuple[float, float] | None = None) -> _Net:
        """The net; for a finite ``reach``, only the edges between nodes within ``reach``
        of the start (plan distance; with an ``aim``, from the start on to the aim), which
        every path of that length or less (to the aim) keeps to."""
        levels = self.reachable_levels()
        self._add_drop_points(levels)
        disc = reach + _REACH_SLACK
        offset, nodes, xy_parts, lvl_parts = {}, {}, [], []
        n = 0
        for k in levels:
            g = self.space(k).graph_within(disc, aim)
            offset[k], nodes[k] = n, g.nodes
            xy_parts.append(g.nodes.xy)
            lvl_parts.append(np.full(len(g.nodes), k))
            n += len(g.nodes)
        start = n
        xy = np.concatenate([*xy_parts, np.array([self.start])])
        level = np.concatenate([*lvl_parts, [self.home]]).astype(int)
        near = P.within_mask(xy, (*self.start, disc) if aim is None else (*self.start, disc, *aim))
        E: list[tuple[np.ndarray, ...]] = []  # (u, v, w, kind, aux)
        hops: list[list[tuple[float, float, int, int]]] = []

        def add(u: Any, v: Any, w: Any, kind: int, aux: Any = None) -> None:
            u, v, w = np.asarray(u, int), np.asarray(v, int), np.asarray(w, float)
            E.append((u, v, w, np.full(len(u), kind), np.full(len(u), -1) if aux is None else np.asarray(aux, int)))

        for k in levels:
            g = self.space(k).graph_within(disc, aim)
            o = offset[k]
            add(g.edges[:, 0] + o, g.edges[:, 1] + o, g.weights, 0)
            add(g.edges[:, 1] + o, g.edges[:, 0] + o, g.weights, 0)
        first = offset[self.home]  # (only the nodes within reach are tried)
        idx, dist = P.visible_nodes(self.space(self.home).trav, nodes[self.home], self.start, relax=True,
                                    slack=CONTACT, among=np.flatnonzero(near[first:first + len(nodes[self.home])]))
        add(np.full(len(idx), start), idx + offset[self.home], dist, 0)
        for li, lad in enumerate(self.ladders):
            if not lad.usable or lad.low not in offset or lad.high not in offset:
                continue
            fu = offset[lad.low] + _find(nodes[lad.low].xy, lad.foot)
            tv = offset[lad.high] + _find(nodes[lad.high].xy, lad.top)
            if not (near[fu] and near[tv]):
                continue
            w = 2 * self.r + vertical_cost(lad.rise, ladder=True)
            add([fu, tv], [tv, fu], [w, w], 1, [li, li])
        # changes of surface along straight segments: off edges (down), onto them (up)
        for hi in levels:
            for lo in levels:
                if not self.surfaces[hi].z > self.surfaces[lo].z + Z_TOL:
                    continue
                up_nodes, up_ids = self._with_start(nodes[hi], offset[hi], hi, start)
                low_nodes, low_ids = self._with_start(nodes[lo], offset[lo], lo, start)
                i, j = P.cross_pairs(up_nodes, low_nodes, np.flatnonzero(near[up_ids]), np.flatnonzero(near[low_ids]))
                if not len(i):
                    continue
                p0, p1 = up_nodes.xy[i], low_nodes.xy[j]
                w = np.hypot(*(p1 - p0).T)
                r_up = np.where((up_ids[i] == start)[:, None], p0, np.nan)
                r_lo = np.where((low_ids[j] == start)[:, None], p1, np.nan)
                ok, hp, steps, extra = self.descend(p0, p1, hi, lo, relax0=r_up, relax1=r_lo, falls=falls)
                w = w + extra
                down = np.flatnonzero(ok & (low_ids[j] != start))
                add(up_ids[i[down]], low_ids[j[down]], w[down], 2, len(hops) + np.arange(len(down)))
                hops += [hp[m] for m in down.tolist()]
                up = np.flatnonzero(ok & steps & (up_ids[i] != start))
                add(low_ids[j[up]], up_ids[i[up]], w[up], 3, len(hops) + np.arange(len(up)))
                hops += [[(x, y, b, a) for x, y, a, b in reversed(hp[m])] for m in up.tolist()]
        eu, ev, ew, kind, aux = (np.concatenate(c) for c in zip(*E))
        dist, pred = P.dijkstra(n + 1, np.column_stack([eu, ev]), ew, {start: 0.0}, directed=True)
        return _Net(levels, offset, nodes, xy, level, start, eu, ev, ew, kind, aux, hops, dist, pred, falls, reach,
                    aim)

    def _with_start(self, nodes: P.Nodes, off: int, k: int, start: int) -> tuple[P.Nodes, np.ndarray]:
        ids = np.arange(len(nodes)) + off
        if self.home == k:
            return P.join_nodes(nodes, P.point_nodes(np.array([self.start]))), np.append(ids, start)
        return nodes, ids

    def _add_drop_points(self, levels: Sequence[int]) -> None:
        if getattr(self, "_drops_added", False):
            return
        self._drops_added = True
        self._drop_points(levels)

    def _drop_points(self, levels: Sequence[int]) -> None:
        """Where a path may turn just after stepping off (or before stepping onto) the edge
        of a higher surface: graph nodes on the lower surface.

        A shortest path turns only at reflex corners of the free regions (the graph's
        nodes) or on the *exit curve* (the upper surface's outline grown by the base
        radius, where the base stops touching it): at the curve's own reflex corners, and
        where it meets an obstacle's boundary on either surface. Those points are added."""
        for a in levels:
            A = self.surfaces[a]
            if A.box:
                continue
            curve, corners, near = _EXIT_CURVES.get((id(A.support), self.r), (A.support,),
                                                    lambda: _exit_curve(A.support, self.r))
            found = [corners]
            for lad in self.ladders:  # just beside a ladder (a drop there is not taken by it)
                if lad.high == a:
                    n = (np.array(lad.foot) - np.array(lad.point)) / self.r
                    e = np.array([-n[1], n[0]])
                    side = math.sqrt((self.r + LADDER_REACH + 1e-3) ** 2 - self.r ** 2)
                    found.append(np.array([lad.foot + side * e, lad.foot - side * e]))
            for k in levels:
                if k != a and self.surfaces[k].z >= A.z - Z_TOL:
                    continue
                trav = self.space(k).trav  # (only the obstacles whose boxes meet the neighbourhood's can meet it)
                grown = np.array(trav.grown_of([o for o in trav.obstacles_in(near.bounds) if o.name not in A.pieces]),
                                 dtype=object)
                blockers = list(grown[shapely.intersects(grown, near)]) if len(grown) else []
                if blockers:
                    found.append(_exit_hits(curve, blockers))
            pts = np.concatenate(found)
            if not len(pts):
                continue
            land = self.landing(pts, A.z)
            for lo in levels:
                sel = pts[land == lo]
                if not len(sel):
                    continue
                sp = self.space(lo)
                sel = sel[sp.trav.point_free(sel, tol=1e-6)]
                sp.drop_points.extend(map(tuple, sel.tolist()))
                sp.drop_groups.extend([a] * len(sel))

    def landing(self, pts: np.ndarray, z_from: float) -> np.ndarray:
        """For each point, the surface a base dropping there from height ``z_from`` lands
        on: the highest one below that lies under any part of the base (-1: none)."""
        pts = np.asarray(pts, float).reshape(-1, 2)
        out = np.full(len(pts), -1)
        best = np.full(len(pts), -np.inf)
        lower = [u for u in self.surfaces if u.z < z_from - Z_TOL]
        if not lower:
            return out
        # (every lower surface's distance to every point in one call: rows by surface)
        gaps = shapely.distance(np.array([u.support for u in lower], dtype=object)[:, None], shapely.points(pts)[None, :])
        for u, gap in zip(lower, gaps):
            take = (gap < self.r - 1e-7) & (u.z > best)
            out[take], best[take] = u.index, u.z
        return out

    def descend(self, p0: np.ndarray, p1: np.ndarray, a: int, c: int, *, relax0: np.ndarray | None = None,
                relax1: np.ndarray | None = None, falls: bool = True
                ) -> tuple[np.ndarray, list[list[tuple[float, float, int, int]]], np.ndarray, np.ndarray]:
        """Straight plan segments from surface ``a`` down to surface ``c``: the base walks on
        (its base may hang over the edge, the surface's blockers kept clear) until it no
        longer touches the surface, drops onto the highest surface under it, and so on
        until it is on ``c``, which it then walks to ``p1`` keeping every clearance.

        ``(ok, hops, steps, extra)``: whether each segment is such a move, its changes of
        surface ``(x, y, from, to)`` in order, whether every change can be made backwards
        too (a step no higher than the hitbox, or a ladder), and the Movement its changes
        cost: a change where a ladder stands is taken by the ladder (double its height,
        E-MOVE-LADDER), the others cost nothing. ``falls=False`` refuses falls."""
        p0 = np.asarray(p0, float).reshape(-1, 2)
        p1 = np.asarray(p1, float).reshape(-1, 2)
        n = len(p0)
        ok = np.ones(n, bool)
        steps = np.ones(n, bool)
        extra = np.zeros(n)
        cur = np.full(n, a)
        t = np.zeros(n)
        hops: list[list[tuple[float, float, int, int]]] = [[] for _ in range(n)]
        nan = np.full((n, 2), np.nan)
        relax0 = nan if relax0 is None else np.asarray(relax0, float)
        relax1 = nan if relax1 is None else np.asarray(relax1, float)
        z_c = self.surfaces[c].z
        for _ in range(len(self.surfaces)):
            active = np.flatnonzero(ok & (cur != c))
            if not len(active):
                break
            for lvl in np.unique(cur[active]).tolist():
                idx = active[cur[active] == lvl]
                S = self.surfaces[lvl]
                q0 = p0[idx] + t[idx, None] * (p1[idx] - p0[idx])
                tau = P.exit_param(q0, p1[idx], S.support, self.r, -1e-10)
                seg = np.hypot(*(p1[idx] - q0).T)
                with np.errstate(invalid="ignore"):  # inf * 0 on a zero-length rest: not good
                    good = ~np.isnan(tau) & (tau * seg <= seg + 1e-6)
                tau = np.where(good, np.minimum(tau, 1.0), 0.0)
                end = q0 + tau[:, None] * (p1[idx] - q0)
                sp = self.space(lvl)
                caps = sp.trav.caps[sp.trav.owner >= 0]
                if len(caps):
                    r0 = np.where((t[idx] == 0)[:, None], relax0[idx], np.nan)
                    good &= ~P.violated(q0, end, caps, relax0=r0)
                land = self.landing(end, S.z)
                z_land = np.array([self.surfaces[k].z if k >= 0 else -np.inf for k in land.tolist()])
                good &= (land >= 0) & (z_land >= z_c - Z_TOL)
                ladder = self.ladder_cost(end, lvl, land)
                fall = np.array([is_fall(S.z - zl, self.h) for zl in z_land]) & (ladder == 0)
                if not falls:
                    good &= ~fall
                steps[idx] &= ~fall
                extra[idx] += np.where(good, ladder, 0.0)
                for m in np.flatnonzero(good).tolist():
                    hops[idx[m]].append((float(end[m, 0]), float(end[m, 1]), lvl, int(land[m])))
                t[idx] = np.where(good, t[idx] + tau * (1.0 - t[idx]), t[idx])
                cur[idx] = np.where(good, land, cur[idx])
                ok[idx[~good]] = False
        ok &= cur == c
        idx = np.flatnonzero(ok)
        if len(idx):
            sp = self.space(c)
            q0 = p0[idx] + t[idx, None] * (p1[idx] - p0[idx])
            ok[idx[P.violated(q0, p1[idx], sp.trav.caps, relax1=relax1[idx])]] = False
            ok[idx] &= sp.trav.inside(q0)
        return ok, hops, steps, extra

    def ladder_at(self, xy: Sequence[float], a: int, b: int) -> Ladder | None:
        """The ladder between surfaces ``a`` and ``b`` whose point is within reach of ``xy``
        (a vertical move there is taken by the ladder), or None."""
        best = None
        for lad in self.ladders:
            if {lad.low, lad.high} != {a, b}:
                continue
            d = math.hypot(xy[0] - lad.point[0], xy[1] - lad.point[1])
            if d <= self.r + LADDER_REACH and (best is None or d < best[0]):
                best = (d, lad)
        return None if best is None else best[1]

    def ladder_cost(self, pts: np.ndarray, a: int, land: np.ndarray) -> np.ndarray:
        """For drops at ``pts`` from surface ``a`` onto ``land``: the ladder cost where a
        usable ladder stands there (0 elsewhere)."""
        out = np.zeros(len(pts))
        if not any(lad.usable for lad in self.ladders):
            return out
        for m, (p, b) in enumerate(zip(pts.tolist(), land.tolist())):
            lad = self.ladder_at(p, a, b) if b >= 0 else None
            if lad is not None and lad.usable:
                out[m] = vertical_cost(lad.rise, ladder=True)
        return out


#: How far inside the base-contact tolerance a move stopped on entering contact is put
#: when rounding left it a hair outside (:func:`_into_contact`).
CONTACT_MARGIN = 1e-12


def _into_contact(end: tuple[float, float], sp: _Space, enemy: str, r: float, start: tuple[float, float],
                  step: float) -> tuple[tuple[float, float], float]:
    """E-MOVE-ENEMY: a move stops on entering base contact with ``enemy``, at the point of
    its piece (from ``start``, ``step`` inches along) where the bases' gap is
    :data:`CONTACT`; where rounding left that point a hair beyond (the gap measured either
    way round, as E-DIST does, is more than CONTACT), it is moved straight toward the
    enemy's centre to :data:`CONTACT_MARGIN` inside, so the two count as touching
    (E-CONTACT). The point and the piece's length to it."""
    _, x, y, rad = next(e for e in sp.enemies if e[0] == enemy)
    h = math.hypot(x - end[0], y - end[1])
    if h == 0.0 or max(h - r - rad, h - rad - r) <= CONTACT:
        return end, step
    k = (r + rad + CONTACT - CONTACT_MARGIN) / h
    moved = (x + (end[0] - x) * k, y + (end[1] - y) * k)
    return moved, math.hypot(moved[0] - start[0], moved[1] - start[1])


#: No (segment, capsule, t_in, t_out) events (:meth:`FreeSpace.violations`' shape).
_NO_EVENTS = (np.zeros(0, int), np.zeros(0, int), np.zeros(0), np.zeros(0))


def _replace(lad: Ladder, **kw: Any) -> Ladder:
    from dataclasses import replace
    return replace(lad, **kw)


def _find(xy: np.ndarray, p: tuple[float, float]) -> int:
    return int(np.argmin(np.hypot(xy[:, 0] - p[0], xy[:, 1] - p[1])))


def _edge_point_normal(ring: np.ndarray, pt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The point of a closed CCW ring nearest to ``pt`` and the outward normal there."""
    a, b = ring[:-1], ring[1:]
    s = b - a
    ss = np.einsum("ij,ij->i", s, s)
    t = np.clip(np.einsum("ij,ij->i", pt - a, s) / np.where(ss > 0, ss, 1.0), 0, 1)
    q = a + t[:, None] * s
    k = int(np.argmin(np.hypot(*(q - pt).T)))
    e = s[k] / math.sqrt(ss[k])
    n = np.array([e[1], -e[0]])
    if shapely.geometry.Polygon(ring).exterior.is_ccw is False:
        n = -n
    return q[k], n


# ---------------------------------------------------------------------------------------
# A path being walked: pieces, events, the verdict
# ---------------------------------------------------------------------------------------

@dataclass
class _Piece:
    """Part of a path: horizontal on ``surface`` from ``a`` to ``b``, or vertical at ``a``
    from surface ``surface`` to ``to``. ``at``: index of the declared segment."""

    at: int
    surface: int
    a: tuple[float, float]
    b: tuple[float, float]
    to: int = -1
    relax: bool = False

    @property
    def vertical(self) -> bool:
        return self.to >= 0


@dataclass
class _Walk:
    points: list[tuple[float, float, float]]
    length: float = 0.0
    cost: float = 0.0
    violations: list[Violation] = field(default_factory=list)
    stopped: str | None = None
    rolls: int = 0
    drops: list[float] = field(default_factory=list)  # (the heights E-FALL judges: MovePlan.drops)
    notes: list[str] = field(default_factory=list)
    cut_by_budget: bool = False

    def violate(self, at: int, what: str, with_: str | None = None) -> None:
        v = Violation(at, what, with_)
        if v not in self.violations:
            self.violations.append(v)


class TableMovement:
    """Movement queries of the table: :meth:`plan_move`, :meth:`check_move`,
    :meth:`movement_range` (E-MOVE-*, E-FALL, E-MODE)."""

    # -- surfaces -----------------------------------------------------------------------------
    @cached_property
    def surfaces(self) -> tuple[Surface, ...]:
        """The surfaces models stand on: the table (index 0), then the walkable tops by height."""
        t: Any = self
        return _SURFACES.get((id(t.scenery), t.width, t.depth), (t.scenery,), self._build_surfaces)

    def _build_surfaces(self) -> tuple[Surface, ...]:
        t: Any = self
        out = [Surface(0, 0.0, shapely.box(0.0, 0.0, t.width, t.depth), (), True)]
        groups: dict[float, list[Scenery]] = {}
        for s in t.scenery:
            if s.walkable:
                groups.setdefault(round(s.solid.z1, 6), []).append(s)
        for z in sorted(groups):
            pieces = groups[z]
            support = shapely.union_all([s.solid.footprint for s in pieces])
            out.append(Surface(len(out), z, support, tuple(s.id for s in pieces)))
        return tuple(out)

    def surface_under(self, model_id: str) -> Surface:
        """The surface a model stands on (its ``z`` and the walkable top under its centre)."""
        t: Any = self
        m = t.model(model_id)
        best = None
        for u in self.surfaces:
            if abs(u.z - m.z) <= Z_TOL and u.holds_xy(m.x, m.y):  # (covers, for a point)
                best = u
        if best is None:
            tops = ", ".join(f"{u.z:g} ({u.label})" for u in self.surfaces)
            flat = [s.id for s in t.scenery if not s.walkable and abs(s.solid.z1 - m.z) <= Z_TOL
                    and shapely.intersects_xy(s.solid.footprint, m.x, m.y)]
            fix = f"mark {flat[0]} walkable = true to move on its top" if flat else "set its z to the surface under it"
            raise SkirmishError(f"{t._where()}model {model_id!r} stands at z = {m.z:g} at ({m.x:g}, {m.y:g}), but no "
                                f"walkable surface is there (walkable surfaces at: {tops}); {fix}")
        return best

    def on_face(self, model_id: str) -> tuple[Surface, str] | None:
        """Where a model that stands on no surface hangs on a vertical face, a Climb having
        stopped there (E-MOVE-CLIMB: "may stop on a vertical face"): the surface at the
        face's foot and the piece whose face spans the height from there to the model's
        feet, its base touching it from outside (:func:`.table_climb.face_at`: the tallest);
        None where it stands on a surface, flies or is nowhere a model may be. Found once
        per model on this table."""
        if model_id not in self._mv_faces:
            self._mv_faces[model_id] = self._mv_face(model_id)
        return self._mv_faces[model_id]

    @cached_property
    def _mv_faces(self) -> dict[str, tuple[Surface, str] | None]:
        """:meth:`on_face` by model, as asked on this (immutable) table."""
        return {}

    def _mv_face(self, model_id: str) -> tuple[Surface, str] | None:
        t: Any = self
        m = t.model(model_id)
        if "Flying" in m.states or \
                any(abs(u.z - m.z) <= Z_TOL and u.holds_xy(m.x, m.y) for u in self.surfaces):
            return None  # (a Flying model is where it flies: E-STATE-OTHER)
        below = [u for u in self.surfaces if u.z < m.z - Z_TOL and u.holds_xy(m.x, m.y)]
        if not below:
            return None
        low = max(below, key=lambda u: u.z)
        piece = face_at(t.scenery, m.x, m.y, m.radius, low.z, m.z)
        return None if piece is None else (low, piece)

    def ladders_of(self, model_id: str) -> tuple[Ladder, ...]:
        """Every ladder as ``model_id`` would use it (``usable`` and ``why`` say if it can)."""
        return tuple(self._mv_mover(model_id).ladders)

    @cached_property
    def _mv_movers(self) -> dict[str, _Mover]:
        return {}

    @cached_property
    def _mv_others(self) -> tuple[tuple[str, str, float, float, float, float, float, bool], ...]:
        """Each model as a mover meets it: (id, side, x, y, z, radius, hitbox height, Dead)."""
        t: Any = self
        return tuple((m.id, m.side, m.x, m.y, m.z, m.radius, m.hitbox_height, "Dead" in m.states) for m in t.models)

    def _mv_jumper(self, mv: _Mover, budget: float) -> Jump:
        """``mv``'s jumps within ``budget`` on this table (one :class:`Jump`: a jump planned,
        then its path checked, is found once)."""
        key = (mv.model.id, budget)
        got = self._mv_jumps.get(key)
        if got is None or got.mv is not mv:
            got = self._mv_jumps[key] = Jump(self, mv, budget)
        return got

    @cached_property
    def _mv_jumps(self) -> dict[tuple[str, float], Jump]:
        return {}

    def _mv_mover(self, model_id: str) -> _Mover:
        mv = self._mv_movers.get(model_id)
        if mv is None:
            t: Any = self
            key, refs = _mover_key(t, model_id)
            mv = self._mv_movers[model_id] = _MOVERS.get(key, refs, lambda: _Mover(self, t.model(model_id)))
        return mv

    # -- budgets and modes --------------------------------------------------------------------
    def movement_budget(self, model_id: str, kind: MoveKind | str = "walk") -> float:
        """E-MOVE-KIND: how far ``model_id`` may move: Walk SPD, Run 2 × SPD (inches)."""
        t: Any = self
        m = t.model(model_id)
        spd = m.attributes.get("SPD")
        if spd is None:
            raise SkirmishError(f"{t._where()}model {model_id!r} has no SPD (Speed) attribute, so its Movement is "
                                "unknown; add SPD to its attributes or profile (or give a budget)")
        return movement_budget(spd, kind)

    def _mv_setup(self, model_id: str, kind: MoveKind | str, budget: float | None, mode: Mode | str | None,
               declared: bool, what: str) -> tuple[_Mover, MoveKind, float, bool, list[str]]:
        t: Any = self
        m = t.model(model_id)
        mode = t.mode if mode is None else parse_mode(mode)
        k = move_kind(kind)
        if k is MoveKind.IDLE:
            raise RuleInputError("movement kind 'idle': an Idle model only turns (E-MOVE-KIND); plan or check "
                                 "walk, run, climb or jump")
        if mode is Mode.REALISM and not declared:
            raise MeasurementRefused(
                f"realism mode: {model_id} may not pre-measure its movement ({what}); measuring happens only "
                "while resolving a declared movement (pass declared=True for that, or use "
                "mode='assisted')")
        spd = m.attributes.get("SPD")
        notes = []
        if budget is None:
            budget = self.movement_budget(model_id, k)
            notes.append(f"{k.value} (E-MOVE-KIND): SPD {spd} gives {budget:g} in of Movement")
        else:
            if not is_number(budget):  # ("5" is no length here)
                raise RuleInputError(f"a movement budget is a number of inches, got {budget!r}")
            budget = float(budget)
            if not (budget >= 0 and math.isfinite(budget)):
                raise RuleInputError(f"a movement budget is a length of 0 or more, got {budget!r}")
            notes.append(f"{k.value}: a budget of {budget:g} in (given)")
        limited = mode is Mode.STANDARD and not declared
        if limited:
            notes.append(f"standard mode (E-MODE): {model_id} pre-measures only its Movement ({budget:g} in); "
                         "nothing beyond it is measured")
        mv = self._mv_mover(model_id)
        if k is not MoveKind.CLIMB:
            self._mv_off_face(mv)
        return mv, k, budget, limited, notes

    def _mv_off_face(self, mv: _Mover) -> None:
        """Refuse any movement but a Climb to a model on a face (E-MOVE-SURFACE)."""
        if mv.face is not None:
            t: Any = self
            raise SkirmishError(f"{t._where()}model {mv.model.id!r} hangs on the face of {mv.face} at z = "
                                f"{mv.model.z:g} (a Climb stopped there): only a Climb moves it on, up onto the top "
                                "or down to its foot (E-MOVE-CLIMB, E-MOVE-SURFACE)")

    # -- checking a path -----------------------------------------------------------------------
    def check_move(self, model_id: str, via: Sequence[PointLike], *, kind: MoveKind | str = "walk",
                   budget: float | None = None, mode: Mode | str | None = None, declared: bool = False) -> MovePlan:
        """Check a declared path: the points after the model's position, each ``(x, y)``
        (staying on the surface under it) or ``(x, y, z)`` (naming the surface).

        Reports violations in path order (``at`` = declared segment, 0 from the model to the
        first point): through a solid taller than the hitbox, through an enemy, off the
        table or a top's edge, ending inside a model or on a low piece, climbing without a
        ladder, over budget. Entering base contact with an enemy ends the move there
        (E-MOVE-ENEMY): the path is cut and ``stopped_at_contact`` names it. Falls report
        their E-FALL rolls. Oblique segments (changing height while moving) walk straight
        and drop (or step up) where the base leaves (or reaches) the edge.
        """
        mv, k, budget, limited, notes = self._mv_setup(model_id, kind, budget, mode, declared, "check a path")
        if not len(via):
            raise SkirmishError("a declared path needs at least one point after the model's position")
        if isinstance(via, str) or not isinstance(via, Sequence):  # ("10,18" read as points "1", "0", ...)
            raise SkirmishError(f"a declared path is a list of points [(x, y), ...], got {via!r}")
        given = [self._mv_point(p, f"path point {i + 1}") for i, p in enumerate(via)]
        if k is MoveKind.JUMP:
            aim = self._mv_jump_aim(mv, given[0])
            return self._mv_jumper(mv, budget).plan(aim, notes, declared_path=list(given[1:]))
        if k is MoveKind.CLIMB:
            return Climb(self, mv, budget).check(given, notes)
        pts, surf, bad = self._mv_resolve(mv, given)
        w = self._mv_walk(mv, pts, surf, budget, limited, bad)
        return self._mv_plan(mv, w, budget, notes)

    def _mv_resolve(self, mv: _Mover, via: Sequence[tuple[float, ...]]
                 ) -> tuple[list[tuple[float, float, float]], list[int], list[tuple[int, str]]]:
        """The path points ``via`` (checked by :meth:`_mv_point`) on their surfaces."""
        pts = [(mv.model.x, mv.model.y, mv.surfaces[mv.home].z)]
        surf = [mv.home]
        bad = []
        for i, p in enumerate(via):
            k, why = self._mv_surface_for(mv, p[0], p[1], p[2] if len(p) == 3 else None, surf[-1])
            if why:
                bad.append((i, why))
            surf.append(k)
            pts.append((p[0], p[1], mv.surfaces[k].z))
        return pts, surf, bad

    def _mv_surface_for(self, mv: _Mover, x: float, y: float, z: float | None, prev: int) -> tuple[int, str]:
        if z is None and len(mv.surfaces) == 1:
            return prev, ""
        if z is not None:
            pt = Point(x, y)
            cands = [u for u in mv.surfaces if abs(u.z - z) <= Z_TOL]
            if not cands:
                tops = ", ".join(f"{u.z:g}" for u in mv.surfaces)
                return prev, f"no surface at z = {z:g} (surfaces stand at z = {tops})"
            best = min(cands, key=lambda u: float(shapely.distance(u.support, pt)))
            if float(shapely.distance(best.support, pt)) > mv.r + CONTACT:
                return prev, f"nothing to stand on at ({x:g}, {y:g}) at z = {z:g}"
            return best.index, ""
        here = mv.surfaces[prev]
        if len(mv.surfaces) == 1 or here.holds_xy(x, y):
            return prev, ""
        cands = [u for u in mv.surfaces if u.z <= here.z + mv.h + Z_TOL and u.holds_xy(x, y)]
        return (max(cands, key=lambda u: u.z).index if cands else prev), ""

    def _mv_pieces(self, mv: _Mover, pts: list[tuple[float, float, float]], surf: list[int], w: _Walk) -> list[_Piece]:
        out: list[_Piece] = []
        for i in range(len(pts) - 1):
            (ax, ay, az), (bx, by, bz) = pts[i], pts[i + 1]
            a, b = (ax, ay), (bx, by)
            dp = math.hypot(bx - ax, by - ay)
            sa, sb = surf[i], surf[i + 1]
            if sa == sb:
                if dp > 1e-12:
                    out.append(_Piece(i, sa, a, b))
                continue
            if dp <= 1e-6:
                out.append(_Piece(i, sa, a, a, to=sb))
                continue
            down = az > bz
            if down:
                hops, done = self._mv_hops(mv, a, b, sa, sb)
            else:
                back, done = self._mv_hops(mv, b, a, sb, sa)
                hops = [(x, y, g, f) for x, y, f, g in reversed(back)]
            if not done:
                high = mv.surfaces[sa if down else sb]
                w.violate(i, f"changes height between ({ax:g}, {ay:g}) and ({bx:g}, {by:g}), but walking straight "
                          f"{'off' if down else 'onto'} {high.label} does not {'land on' if down else 'start from'} "
                          f"{mv.surfaces[sb if down else sa].label} there")
                hops = [(bx, by, sa, sb)] if down else [(ax, ay, sa, sb)]
            cur, here = sa, a
            for x, y, f, g in hops:
                if math.hypot(x - here[0], y - here[1]) > 1e-12:
                    out.append(_Piece(i, cur, here, (x, y)))
                out.append(_Piece(i, f, (x, y), (x, y), to=g))
                cur, here = g, (x, y)
            if math.hypot(bx - here[0], by - here[1]) > 1e-12:
                out.append(_Piece(i, cur, here, b))
        for n, p in enumerate(out):
            if not p.vertical:
                p.relax = (n > 0 and out[n - 1].vertical) or (n + 1 < len(out) and out[n + 1].vertical)
        return out

    def _mv_hops(self, mv: _Mover, a: tuple[float, float], b: tuple[float, float], sa: int, sc: int
                 ) -> tuple[list[tuple[float, float, int, int]], bool]:
        """Where a straight walk from ``a`` (surface ``sa``) towards ``b`` steps off edges and
        lands, down to surface ``sc``: ``(hops, reached)`` (clearances not checked here)."""
        hops: list[tuple[float, float, int, int]] = []
        cur, here = sa, np.array(a, float)
        end = np.array(b, float)
        for _ in range(len(mv.surfaces)):
            if cur == sc:
                return hops, True
            tau = float(P.exit_param(here[None], end[None], mv.surfaces[cur].support, mv.r, -1e-10)[0])
            seg = float(np.hypot(*(end - here)))
            if not (0.0 <= tau and tau * seg <= seg + 1e-6):
                return hops, False
            d = here + min(tau, 1.0) * (end - here)
            land = int(mv.landing(d[None], mv.surfaces[cur].z)[0])
            if land < 0 or mv.surfaces[land].z < mv.surfaces[sc].z - Z_TOL:
                return hops, False
            hops.append((float(d[0]), float(d[1]), cur, land))
            cur, here = land, d
        return hops, cur == sc

    def _mv_walk(self, mv: _Mover, pts: list[tuple[float, float, float]], surf: list[int], budget: float,
              limited: bool, bad: Sequence[tuple[int, str]] = (), straight: bool = False) -> _Walk:
        """Walk the path ``pts`` (on surfaces ``surf``) as the checker does, collecting its
        violations, stops and costs. ``straight``: the path is :meth:`_mv_straight`'s route,
        whose end passed the end space's ``point_free`` and whose way passed the planning
        space's clearances (which hold the checking space's, more strictly): the walk
        does not test those again (enemy contacts and the budget it still walks)."""
        w = _Walk([pts[0]])
        for i, why in bad:
            w.violate(i, why)
        pieces = self._mv_pieces(mv, pts, surf, w)
        events = self._mv_horizontal_events(mv, pieces, clear=straight)
        spd = mv.model.attributes.get("SPD")

        def contacts(at: tuple[int, tuple[float, float]] | None) -> list[str]:
            """The enemies in contact with the base at ``at`` (surface, point; None: the start)."""
            return mv.start_contacts if at is None else mv.space(at[0]).contacts(at[1])

        # (where the piece walked starts: the contacts there are rarely asked for, found then)
        here: tuple[int, tuple[float, float]] | None = None
        over_reported = False
        cut = None
        for n, p in enumerate(pieces):
            z = mv.surfaces[p.surface].z
            if not p.vertical:
                L = math.hypot(p.b[0] - p.a[0], p.b[1] - p.a[1])
                evs = list(events.get(n, []))
                if w.cost + L > budget + 1e-9 and not over_reported:
                    evs.append(((budget - w.cost) / L if L > 0 else 0.0, 1, "budget", None))
                evs.sort(key=lambda e: (e[0], e[1]))
                t_cut, touching = None, None
                for t, _, what, who in evs:
                    if what == "contact":
                        if t <= 1e-9 and who in contacts(here):
                            continue
                        t_cut, w.stopped, touching = t, who, who
                        break
                    if what == "budget":
                        over_reported = True
                        x = p.a[0] + t * (p.b[0] - p.a[0])
                        y = p.a[1] + t * (p.b[1] - p.a[1])
                        w.violate(p.at, f"over budget: the Movement ({budget:g} in) runs out at ({x:.2f}, {y:.2f}) "
                                  "(E-MOVE-KIND)")
                        if limited:
                            t_cut, w.cut_by_budget = t, True
                            break
                        continue
                    w.violate(p.at, what, who)
                frac = 1.0 if t_cut is None else max(0.0, min(1.0, t_cut))
                end = (p.a[0] + frac * (p.b[0] - p.a[0]), p.a[1] + frac * (p.b[1] - p.a[1]))
                step = frac * L
                if touching is not None:
                    end, step = _into_contact(end, mv.space(p.surface), touching, mv.r, p.a, step)
                w.points.append((end[0], end[1], z))
                w.length += step
                w.cost += step
                if t_cut is not None:
                    cut = p
                    break
                here = (p.surface, p.b)  # (where the next piece starts)
                continue
            # vertical: a ladder, a drop or a step up
            a, b = mv.surfaces[p.surface], mv.surfaces[p.to]
            dz = b.z - a.z
            lad = self._mv_ladder_at(mv, p.a, p.surface, p.to)
            if lad is not None and not lad.usable:
                w.violate(p.at, f"the ladder of {lad.piece} cannot be used by {mv.model.id}: {lad.why}", lad.piece)
            if lad is not None:
                c = vertical_cost(dz, ladder=True)
                if w.cost + c > budget + 1e-9 and not over_reported:
                    over_reported = True
                    w.violate(p.at, f"over budget: the Movement ({budget:g} in) runs out on the ladder of "
                              f"{lad.piece} (climbing {abs(dz):g} in costs {c:g} in, double: E-MOVE-LADDER)")
                    if limited:
                        w.cut_by_budget = True
                        cut = p
                        break
                w.cost += c
            elif dz < 0:
                self._mv_check_drop(mv, p, a, b, w, spd)
            else:
                self._mv_check_step_up(mv, p, a, b, w)
            w.points.append((p.a[0], p.a[1], b.z))
            w.length += abs(dz)
            now = mv.space(p.to).contacts(p.a)
            before = contacts(here) if now else []
            new = [e for e in now if e not in before]
            if new:
                w.stopped = new[0]
                cut = p
                break
            here = (p.to, p.a)
        if not w.cut_by_budget and not (straight and cut is None):
            last = cut if cut is not None else (pieces[-1] if pieces else None)
            s_end = mv.home if last is None else (last.to if last.vertical else last.surface)
            x, y, _ = w.points[-1]
            up = last is not None and last.vertical and mv.surfaces[last.to].z > mv.surfaces[last.surface].z
            on_ladder = last is not None and up and self._mv_ladder_at(mv, last.a, last.surface, last.to) is not None
            self._mv_check_end(mv, s_end, (x, y), w, 0 if last is None else last.at, bool(on_ladder))
        if w.stopped:
            w.notes.append(f"E-MOVE-ENEMY: the move ends on entering base contact with {w.stopped}")
        return w

    def _mv_horizontal_events(self, mv: _Mover, pieces: list[_Piece], clear: bool = False
                              ) -> dict[int, list[tuple[float, int, str, Any]]]:
        """Violations and contacts along every horizontal piece, batched by surface.
        ``clear``: the pieces are known to keep the planning space's clearances (a straight
        route, :meth:`_mv_walk`): only the enemies are tested, and only where an end comes
        near one (:meth:`_Space.far_from_enemies`)."""
        out: dict[int, list[tuple[float, int, str, Any]]] = {}
        by_surface: dict[int, list[int]] = {}
        for n, p in enumerate(pieces):
            if not p.vertical:
                by_surface.setdefault(p.surface, []).append(n)
        for k, idx in by_surface.items():
            sp = mv.space(k)
            surface = mv.surfaces[k]
            ends = [pieces[n].a for n in idx], [pieces[n].b for n in idx]
            relaxed = [pieces[n].relax for n in idx]
            enemies = len(sp.enemy_caps) > 0 and not (clear and sp.far_from_enemies([*ends[0], *ends[1]]))
            if clear and not enemies and not any(relaxed):
                continue  # (nothing to meet)
            p0 = np.array(ends[0], float)  # (whole-number points too: NaN rows below)
            p1 = np.array(ends[1], float)
            if not clear:
                relax = np.full_like(p0, np.nan)
                if idx[0] == 0 and k == mv.home:
                    relax[0] = mv.start
                i, j, lo, _ = sp.check.violations(p0, p1, shrink=CONTACT, relax0=relax)
                for a, b, t in zip(i.tolist(), j.tolist(), lo.tolist()):
                    owner = int(sp.check.owner[b])
                    if owner < 0:
                        if relaxed[a]:
                            continue
                        out.setdefault(idx[a], []).append((t, 2, self._mv_edge_message(mv, surface), None))
                    else:
                        sid = sp.check.names[owner]
                        out.setdefault(idx[a], []).append((t, 2, self._mv_blocker_message(mv, sp, sid), sid))
            r_idx = [a for a, r in enumerate(relaxed) if r]
            if r_idx:
                tau = P.exit_param(p0[r_idx], p1[r_idx], surface.support, mv.r, CONTACT)
                for a, t in zip(r_idx, tau.tolist()):
                    if math.isnan(t) or t < 1.0 - 1e-7:
                        out.setdefault(idx[a], []).append((0.0 if math.isnan(t) else t, 2,
                                                           self._mv_edge_message(mv, surface), None))
            if enemies:
                i, j, lo, _ = P.violations(p0, p1, sp.enemy_caps, shrink=-CONTACT)
                for a, b, t in zip(i.tolist(), j.tolist(), lo.tolist()):
                    out.setdefault(idx[a], []).append((t, 0, "contact", sp.enemies[b][0]))
                # (the tighter band lies inside the contact band, its intervals computed monotonely in
                # the clearance: no contact, no way through)
                i, j, lo, _ = P.violations(p0, p1, sp.enemy_caps, shrink=CONTACT) if len(i) else _NO_EVENTS
                for a, b, t in zip(i.tolist(), j.tolist(), lo.tolist()):
                    e = sp.enemies[b][0]
                    out.setdefault(idx[a], []).append(
                        (t, 1, f"through enemy model {e}: a moving model may pass through friends only "
                               "(E-MOVE-FRIEND)", e))
        return out

    def _mv_edge_message(self, mv: _Mover, surface: Surface) -> str:
        if surface.box:
            return (f"off the table: {mv.model.id}'s base must stay wholly on the table "
                    f"({surface.support.bounds[2]:g} x {surface.support.bounds[3]:g} in)")
        return (f"off the edge of {surface.label}: the base must stay wholly on it (step off only to drop "
                "down, E-MOVE-SURFACE)")

    def _mv_blocker_message(self, mv: _Mover, sp: _Space, sid: str) -> str:
        z0, z1 = sp.heights[sid]
        above = z1 - sp.surface.z
        return (f"through {sid}: it stands {above:.2f} in above {sp.surface.label}, taller than "
                f"{mv.model.id}'s hitbox ({mv.h:.2f} in), so it cannot be crossed (E-MOVE-KIND)")

    def _mv_ladder_at(self, mv: _Mover, xy: Sequence[float], a: int, b: int) -> Ladder | None:
        return mv.ladder_at(xy, a, b)

    def _mv_check_drop(self, mv: _Mover, p: _Piece, a: Surface, b: Surface, w: _Walk, spd: int | None) -> None:
        d = float(shapely.distance(a.support, Point(*p.a)))
        if d < mv.r - CONTACT:
            w.violate(p.at, f"drops at ({p.a[0]:.2f}, {p.a[1]:.2f}) while its base still rests on {a.label}: walk "
                      f"on until the base clears the edge", a.pieces[0] if a.pieces else None)
        self._mv_check_landing(mv, p, b, w)
        land = int(mv.landing(np.array([p.a]), a.z)[0])
        if land != b.index:
            where = "nothing" if land < 0 else mv.surfaces[land].label
            w.violate(p.at, f"dropping at ({p.a[0]:.2f}, {p.a[1]:.2f}) from {a.label} lands on {where} (the highest "
                      f"surface under the base), not on {b.label}")
        drop = a.z - b.z
        if mv.flying and drop > 0:
            w.notes.append(f"{mv.model.id} is Flying: it comes down {drop:g} in from {a.label} without a fall")
        elif is_fall(drop, mv.h):
            w.drops.append(drop)
            if spd is None:
                w.notes.append(f"E-FALL: a {drop:g} in fall, but {mv.model.id} has no SPD: rolls unknown")
            else:
                n = fall_rolls(drop, spd)
                w.rolls += n
                w.notes.append(f"E-FALL: falls {drop:g} in from {a.label} at ({p.a[0]:.2f}, {p.a[1]:.2f}): "
                               f"{n} Agility roll{'s' if n != 1 else ''} (SPD {spd})")
        elif drop > 0:
            w.drops.append(drop)
            n = fall_rolls(drop, spd) if spd is not None else 0
            if n:  # E-FALL: any drop of more than half the Speed rolls, however short the hitbox makes it
                w.rolls += n
                w.notes.append(f"E-FALL: steps down {drop:g} in from {a.label} at ({p.a[0]:.2f}, {p.a[1]:.2f}): "
                               f"no taller than the hitbox, but more than half its Speed: {n} Agility "
                               f"roll{'s' if n != 1 else ''} (SPD {spd})")
            else:
                w.notes.append(f"steps down {drop:g} in from {a.label} (no taller than the hitbox and at most half "
                               "its Speed: free, E-MOVE-KIND, E-FALL)")

    def _mv_check_step_up(self, mv: _Mover, p: _Piece, a: Surface, b: Surface, w: _Walk) -> None:
        rise = b.z - a.z
        if is_fall(rise, mv.h):
            w.violate(p.at, f"climbs {rise:g} in onto {b.label} without a ladder: higher than the hitbox "
                      f"({mv.h:.2f} in), that needs Climb (E-MOVE-SURFACE, E-MOVE-LADDER)",
                      b.pieces[0] if b.pieces else None)
            return
        d = float(shapely.distance(b.support, Point(*p.a)))
        if d > mv.r + CONTACT:
            w.violate(p.at, f"steps up onto {b.label} at ({p.a[0]:.2f}, {p.a[1]:.2f}), away from its edge",
                      b.pieces[0] if b.pieces else None)
        self._mv_check_landing(mv, p, a, w)
        w.notes.append(f"steps up {rise:g} in onto {b.label} (no taller than the hitbox: free, E-MOVE-KIND)")

    def _mv_check_landing(self, mv: _Mover, p: _Piece, s: Surface, w: _Walk) -> None:
        """Where a model lands (or steps up from) on surface ``s``: clear of the solids there.
        Its base may hang over the edge: it is about to walk on (or has just stepped up)."""
        sp = mv.space(s.index)
        pt = np.array([p.a])
        if sp.check.in_footprint(pt)[0]:
            w.violate(p.at, f"({p.a[0]:.2f}, {p.a[1]:.2f}) on {s.label} is inside scenery")
            return
        blockers = sp.check.caps[sp.check.owner >= 0]
        if not len(blockers):
            return
        gap = P.point_capsule_distance(pt, blockers)[0] - blockers[:, 4]
        for j in np.flatnonzero(gap < -CONTACT):
            sid = sp.check.names[int(sp.check.owner[sp.check.owner >= 0][j])]
            w.violate(p.at, f"lands at ({p.a[0]:.2f}, {p.a[1]:.2f}) on {s.label} inside {sid}", sid)
            break

    def _mv_check_end(self, mv: _Mover, k: int, xy: tuple[float, float], w: _Walk, at: int, on_ladder: bool) -> None:
        """Where a move ends: not inside a model (E-MOVE-END), not on a low piece or inside
        scenery, wholly on the surface (E-MOVE-SURFACE)."""
        sp = mv.space(k)
        s = mv.surfaces[k]
        if on_ladder:
            w.violate(at, "ends on a ladder: a move ends on a surface (E-MOVE-SURFACE)")
            return
        pt = np.array([xy])
        if sp.ends_free(pt)[0]:
            return  # (where the base may end by the exact test, none of these is broken; often known already)
        owners, in_footprint = sp.end_owners(pt)
        for o in owners:
            if o < 0:
                continue
            name = sp.end_name(o)
            if name in sp.model_ids:
                w.violate(at, f"ends with its hitbox inside {name}'s (E-MOVE-END)", name)
            elif any(p.name == name for p in sp._pieces.low):
                w.violate(at, f"ends on {name}: a model ends only on the table or a walkable top, not on a low piece "
                          "it crosses (E-MOVE-SURFACE)", name)
            else:
                w.violate(at, f"ends inside {name}", name)
        if -1 in owners or not in_footprint and not sp.check.on_support(pt)[0]:
            w.violate(at, f"ends with its base off {s.label} (E-MOVE-SURFACE)")

    def _mv_end_violations(self, mv: _Mover, k: int, xy: tuple[float, float], at: int) -> list[Violation]:
        """The violations of ending a move at ``xy`` on surface ``k`` (see :meth:`_mv_check_end`)."""
        w = _Walk(points=[])
        self._mv_check_end(mv, k, xy, w, at, False)
        return w.violations

    def _mv_plan(self, mv: _Mover, w: _Walk, budget: float, notes: list[str]) -> MovePlan:
        pts = tuple((float(x), float(y), float(z)) for x, y, z in w.points)
        return MovePlan(mv.model.id, pts, w.length, w.cost, not w.violations, tuple(w.violations), w.stopped,
                        w.rolls, budget, tuple(notes + w.notes), tuple(w.drops))

    # -- planning ------------------------------------------------------------------------------
    def plan_move(self, model_id: str, to: tuple[float, ...] | str, *, kind: MoveKind | str = "walk",
                  budget: float | None = None, mode: Mode | str | None = None, declared: bool = False,
                  falls: bool = True, bounded: bool = False) -> MovePlan:
        """The shortest legal movement of ``model_id`` to ``to``: a point ``(x, y)`` or
        ``(x, y, z)`` (its base centre ends there), or a model id (it ends in base contact).

        The path is the shortest (by Movement cost) among the obstacles; it climbs
        ladders, steps up and down, and falls off edges (``falls=False`` forbids falls).
        It is checked like a declared path, so ``legal`` says whether it fits this turn's
        Movement (``kind``: walk or run) and ``violations`` why not. A target where the
        base cannot end is replaced by the nearest point where it can (a violation says
        so); a target it cannot reach at all gives the path to the nearest point it
        reaches. In Standard mode the path is measured only up to the Movement (E-MODE).

        ``bounded=True`` is for a caller that uses the plan only when it is legal: to a
        point, the movement net then holds only the ways there within the budget, and a
        point it cannot reach gives no path to the nearest point it can (only the reason;
        the start alone, not checked again), so a legal plan is the same and an illegal one
        stays illegal, but its path and reasons may differ. (To a model it changes nothing.)
        """
        mv, k, budget, limited, notes = self._mv_setup(model_id, kind, budget, mode, declared, "plan a path")
        if k is MoveKind.JUMP:
            if isinstance(to, str):
                raise RuleInputError(f"a Jump goes in a straight line to a point, not to a model ({to!r}); "
                                     "give --to X,Y[,Z]")
            return self._mv_jumper(mv, budget).plan(self._mv_jump_aim(mv, to), notes)
        if k is MoveKind.CLIMB:
            if isinstance(to, str):
                raise RuleInputError(f"a Climb goes to a point on another surface, not to a model ({to!r}); "
                                     "give --to X,Y[,Z]")
            return Climb(self, mv, budget).plan(self._mv_jump_aim(mv, to, "climb"), notes)
        if not falls:
            notes.append("falls are not allowed (falls=False)")
        if not isinstance(to, str):
            to = self._mv_point(to, "a target point")
        straight = None if isinstance(to, str) else self._mv_straight(mv, to)
        if straight is not None:  # (the shortest path, found without the movement net)
            route, why = straight, ""
        else:
            # (bounded, to a point: only the ways there within the budget)
            net = mv.net(falls, budget, (float(to[0]), float(to[1]))) if bounded and not isinstance(to, str) \
                else mv.net(falls)
            if isinstance(to, str):
                route, why, more = self._mv_route_to_model(mv, net, to)
            else:
                route, why, more = self._mv_route_to_point(mv, net, to, budget if bounded else None)
            notes += more
        pts = [(x, y, mv.surfaces[k].z) for x, y, k in route]
        surf = [k for _, _, k in route]
        if why and bounded and len(route) == 1 and not isinstance(to, str):
            w = _Walk([pts[0]])  # (bounded, the point out of reach: the reason alone, no path to check)
        else:  # (a straight route's way and end passed their tests: not tested again)
            w = self._mv_walk(mv, pts, surf, budget, limited, straight=straight is not None)
        if why:
            w.violations.append(Violation(max(0, len(pts) - 2), why, to if isinstance(to, str) else None))
            w.violations.sort(key=lambda v: v.at)
        return self._mv_plan(mv, w, budget, notes)

    def _mv_straight(self, mv: _Mover, to: Sequence[float]) -> list[tuple[float, float, int]] | None:
        """The straight route to ``to`` = (x, y, z) on the surface the model stands on,
        where its base may end there and the straight way keeps every clearance: then it
        is the shortest path (no path is shorter than the straight line, and it stays on
        one surface: no climbs, steps or falls), the one the movement net would give.
        None otherwise (the net decides)."""
        if len(to) != 3:
            return None
        k = mv.home
        if abs(mv.surfaces[k].z - float(to[2])) > Z_TOL:
            return None
        sp = mv.space(k)
        q = np.array([[float(to[0]), float(to[1])]])
        s = np.array([mv.start], float)
        if not (sp.ends_free(q)[0] and sp.way_clear(s, q, relax0=s, relax1=q)[0]):
            return None
        start = (float(mv.start[0]), float(mv.start[1]), k)
        if abs(q[0, 0] - start[0]) <= 1e-9 and abs(q[0, 1] - start[1]) <= 1e-9:
            return [start]
        return [start, (float(q[0, 0]), float(q[0, 1]), k)]

    def _mv_point(self, to: Sequence[float], what: str) -> tuple[float, ...]:
        """``to`` as floats: (x, y) or (x, y, z), finite, no further off the table than its
        own size and no higher than :data:`MAX_EXTENT` (further off is no aim: no base ends
        there, and rounding eats the geometry)."""
        t: Any = self
        try:
            p = tuple(float(v) for v in to)
        except (TypeError, ValueError):
            raise SkirmishError(f"{what} is (x, y) or (x, y, z) in inches, got {to!r}") from None
        if len(p) not in (2, 3) or not all(math.isfinite(v) for v in p):
            raise SkirmishError(f"{what} is (x, y) or (x, y, z) in inches, got {p!r}")
        if far_off_table(p, t.width, t.depth):
            raise SkirmishError(f"{what} {p!r} is further off the {t.width:g} x {t.depth:g} in table than its own "
                                f"size (or above {MAX_EXTENT:g} in); aim at a point on or near it", kind="range")
        return p

    def _mv_jump_aim(self, mv: _Mover, to: PointLike, kind: str = "jump") -> tuple[float, float, float]:
        """A jump's (or climb's) aim point ``(x, y, z)``: ``z`` given, or the highest surface under ``(x, y)``."""
        p = self._mv_point(to, f"a {kind}'s point")
        if len(p) == 3:
            return p[0], p[1], p[2]
        tops = [u.z for u in mv.surfaces if u.holds_xy(p[0], p[1])]
        if not tops:
            raise SkirmishError(f"({p[0]:g}, {p[1]:g}) is off the table; a {kind}'s point must be on it")
        return p[0], p[1], max(tops)

    def _mv_route_to_point(self, mv: _Mover, net: _Net, to: Sequence[float], bounded: float | None = None
                        ) -> tuple[list[tuple[float, float, int]], str, list[str]]:
        """The route to ``to``, or (with a reason) to the nearest point the base can end
        and reach. ``bounded`` (the budget of a caller that uses legal plans only): an
        unreachable point gives the start alone and the reason, with no search for the
        nearest point."""
        q = np.array(to[:2])
        z = to[2] if len(to) == 3 else None
        levels = [k for k in net.levels if z is None or abs(mv.surfaces[k].z - z) <= Z_TOL]
        why = ""
        if not levels and z is not None:
            there = [u for u in mv.surfaces if abs(u.z - z) <= Z_TOL]
            if not there:
                tops = ", ".join(f"{u.z:g}" for u in mv.surfaces)
                raise IllegalActionError(f"no surface stands at z = {z:g} (surfaces stand at z = {tops})")
            why = (f"{mv.model.id} cannot get onto {there[0].label} (z = {z:g}): no ladder or step leads there "
                   "(climbing a wall needs Climb, E-MOVE-SURFACE)")
            levels = list(net.levels)
            legal: list[int] = []
        else:
            legal = [k for k in levels if mv.space(k).ends_free(q[None])[0]]
        # (a caller that uses legal plans only needs no connection that costs more than the budget)
        best = self._mv_best_connection(mv, net, legal, q, math.inf if bounded is None else bounded + BOUND_SLACK)
        if best is None and bounded is not None:
            if not why:
                why = (f"({q[0]:g}, {q[1]:g}) cannot be reached within the Movement ({bounded:g} in)" if legal else
                       f"its base cannot end at ({q[0]:g}, {q[1]:g}) (it would overlap scenery or a model, or hang "
                       "off the surface)")
            d = math.hypot(q[0] - mv.start[0], q[1] - mv.start[1])
            if d > bounded:
                why += f"; over budget: it lies {d:.2f} in away in a straight line, the Movement gives {bounded:g} in"
            return [(mv.start[0], mv.start[1], mv.home)], why, []
        if best is None:
            best, near = self._mv_nearest_end(mv, net, levels, q)
            if best is not None and not why:
                label = mv.surfaces[best[4]].label
                if legal:
                    why = (f"({q[0]:g}, {q[1]:g}) cannot be reached: the nearest point it reaches where its base "
                           f"can end is ({near[0]:.2f}, {near[1]:.2f}) on {label}")
                else:
                    why = (f"its base cannot end at ({q[0]:g}, {q[1]:g}) (it would overlap scenery or a model, or "
                           f"hang off the surface); the nearest point where it can is ({near[0]:.2f}, {near[1]:.2f}) "
                           f"on {label}")
        if best is None:
            return [(mv.start[0], mv.start[1], mv.home)], (
                why or f"no legal path from where {mv.model.id} stands reaches ({q[0]:g}, {q[1]:g})"), []
        return self._mv_route(mv, net, best), why, []

    def _mv_nearest_end(self, mv: _Mover, net: _Net, levels: Sequence[int], q: np.ndarray, slack: float = 0.05
                     ) -> tuple[Any, np.ndarray]:
        """The cheapest path to a point where the base can end, nearest to ``q``: among the
        end regions' parts (nearest first), the points within ``slack`` of the nearest
        distance, sampled along their outline."""
        tried = []
        for k in levels:
            poly = mv.space(k).end_polygon
            for part in getattr(poly, "geoms", [poly]):
                if isinstance(part, Polygon) and not part.is_empty:
                    tried.append((float(part.distance(Point(*q))), k, part))
        tried.sort(key=lambda c: (c[0], c[1] != mv.home))
        for d0, k, part in tried[:8]:
            near = nearest_points(part, Point(*q))[0]
            cands = [np.array([[near.x, near.y]])]
            if d0 > 0:
                band = shapely.intersection(part.boundary, Point(*q).buffer(d0 + slack, quad_segs=32))
                if not band.is_empty:
                    cands.append(shapely.get_coordinates(shapely.segmentize(band, slack)))
            best = self._mv_connect_many(mv, net, k, np.vstack(cands))
            if best is not None:
                return best, best[5]
        return None, q

    def _mv_best_connection(self, mv: _Mover, net: _Net, levels: Sequence[int], q: np.ndarray,
                            bound: float = math.inf) -> Connection | None:
        """The cheapest way to finish at point ``q`` on one of ``levels``:
        ``(cost, from node, kind, drop point, level, q)``; None where none costs less than
        ``bound``."""
        best = None
        for k in levels:
            c = self._mv_connect_many(mv, net, k, np.asarray(q, float).reshape(1, 2), bound)
            if c is not None and (best is None or c[0] < best[0]):
                best = c
        return best

    def _mv_connect_many(self, mv: _Mover, net: _Net, k: int, Q: np.ndarray, bound: float = math.inf
                      ) -> Connection | None:
        """The cheapest way to finish at any of the points ``Q`` on surface ``k``: straight
        from a node of ``k`` (or the start), or stepping / dropping onto ``k`` from a node
        of another surface. ``(cost, from node, kind, drop point, level, point)`` or None."""
        sp = mv.space(k)
        best: list[Any] = [bound, -1, 0, None, k, None]

        def consider(cost: np.ndarray, j: np.ndarray, u: np.ndarray, kind: int, hops: list | None) -> None:
            if not len(cost):
                return
            n = int(np.argmin(cost))
            if cost[n] < best[0]:
                best[:] = [float(cost[n]), int(u[n]), kind, None if hops is None else hops[n], k, Q[j[n]]]

        for h in net.levels:
            a, b = mv.surfaces[h], mv.surfaces[k]
            if h != k:
                if k not in mv._neighbours(h):
                    continue
                down = a.z > b.z + Z_TOL
                if (not down and is_fall(b.z - a.z, mv.h)) or (down and is_fall(a.z - b.z, mv.h) and not net.falls):
                    continue
            ids, nodes, loc = self._mv_finish_nodes(mv, net, h)
            if not len(loc):
                continue
            j, u = np.repeat(np.arange(len(Q)), len(loc)), np.tile(loc, len(Q))  # every (point, node) pair
            cost = net.dist[ids[u]] + np.hypot(Q[j, 0] - nodes.xy[u, 0], Q[j, 1] - nodes.xy[u, 1])
            keep = cost < best[0]
            parts = [keep]
            if keep.sum() > 4096:  # the cheapest few thousand are enough almost always; the rest follow if not
                cut = np.partition(cost[keep], 4095)[4095]
                parts.append(keep & (cost > cut))
                keep &= cost <= cut
            for part in parts:
                if not part.any() or np.min(cost[part]) >= best[0]:
                    continue
                jj, uu, cc = j[part], u[part], cost[part]
                adm = nodes.admits(uu, Q[jj] - nodes.xy[uu])
                jj, uu, cc = jj[adm], uu[adm], cc[adm]
                self._mv_try_pairs(mv, net, k, h, a, b, Q, jj, uu, cc, ids, nodes, sp, consider, best)
        return None if best[1] < 0 else tuple(best)

    def _mv_finish_nodes(self, mv: _Mover, net: _Net, h: int) -> tuple[np.ndarray, P.Nodes, np.ndarray]:
        """The nodes of surface ``h`` a move may finish from (with the start on its own
        surface): their ids in ``net``, the nodes, and which of them the net reaches;
        found once per net and surface."""
        key = (h, mv.home, *mv.start)
        got = net.finish.get(key)
        if got is None:
            ids = np.arange(len(net.nodes[h])) + net.offset[h]
            nodes = net.nodes[h]
            if mv.home == h:
                ids = np.append(ids, net.start)
                nodes = P.join_nodes(nodes, P.point_nodes(np.array([mv.start])))
            got = net.finish[key] = (ids, nodes, np.flatnonzero(np.isfinite(net.dist[ids])))
        return got

    def _mv_try_pairs(self, mv: _Mover, net: _Net, k: int, h: int, a: Surface, b: Surface, Q: np.ndarray,
                      j: np.ndarray, u: np.ndarray, cost: np.ndarray, ids: np.ndarray, nodes: P.Nodes,
                      sp: _Space, consider: Any, best: list[Any]) -> None:
        """Test (target point, node) pairs cheapest first, in growing batches: the first
        legal one is the best that goes through these nodes."""
        order = np.argsort(cost, kind="stable")
        j, u, cost = j[order], u[order], cost[order]
        size, s0 = 64, 0
        while s0 < len(cost) and cost[s0] < best[0]:
            sl = slice(s0, s0 + size)
            bj, bu, bc = j[sl], u[sl], cost[sl]
            bq, bxy = Q[bj], nodes.xy[bu]
            rs = np.where((ids[bu] == net.start)[:, None], bxy, np.nan)
            if h == k:
                ok = sp.trav.segments_clear(bxy, bq, relax0=rs, relax1=bq)
                consider(bc[ok], bj[ok], ids[bu][ok], 0, None)
            elif a.z > b.z:
                ok, hp, _, extra = mv.descend(bxy, bq, h, k, relax0=rs, relax1=bq, falls=net.falls)
                consider((bc + extra)[ok], bj[ok], ids[bu][ok], 2, [hp[m] for m in np.flatnonzero(ok)])
            else:
                ok, hp, steps, extra = mv.descend(bq, bxy, k, h, relax0=bq, relax1=rs, falls=net.falls)
                ok &= steps
                consider((bc + extra)[ok], bj[ok], ids[bu][ok], 3,
                         [[(x, y, g2, f2) for x, y, f2, g2 in reversed(hp[m])] for m in np.flatnonzero(ok)])
            if ok.any():
                return
            s0 += size
            size *= 4

    def _mv_route(self, mv: _Mover, net: _Net, best: Connection
               ) -> list[tuple[float, float, int]]:
        _, u, kind, hops, k, q = best
        chain = []
        x = u
        while x != net.start:
            e = int(net.pred[x])
            if e < 0:
                raise SkirmishError("internal error: broken shortest-path tree")
            chain.append(e)
            x = int(net.eu[e])
        chain.reverse()
        out = [(mv.start[0], mv.start[1], mv.home)]
        for e in chain:
            a, b = int(net.eu[e]), int(net.ev[e])
            la, lb = int(net.level[a]), int(net.level[b])
            kd = int(net.kind[e])
            if kd == 1:
                lad = mv.ladders[int(net.aux[e])]
                if la == lad.low:
                    out += [(*lad.foot, lad.high), (*lad.top, lad.high)]
                else:
                    out += [(*lad.foot, lad.high), (*lad.foot, lad.low)]
                continue
            if kd in (2, 3):
                for hx, hy, f, g in net.hops[int(net.aux[e])]:
                    out += [(hx, hy, f), (hx, hy, g)]
            out.append((float(net.xy[b, 0]), float(net.xy[b, 1]), lb))
        if kind in (2, 3) and hops:
            for hx, hy, f, g in hops:
                out += [(hx, hy, f), (hx, hy, g)]
        out.append((float(q[0]), float(q[1]), k))
        clean = [out[0]]
        for p in out[1:]:
            if abs(p[0] - clean[-1][0]) > 1e-9 or abs(p[1] - clean[-1][1]) > 1e-9 or p[2] != clean[-1][2]:
                clean.append(p)
        return clean

    def _mv_route_to_model(self, mv: _Mover, net: _Net, target: str
                        ) -> tuple[list[tuple[float, float, int]], str, list[str]]:
        t: Any = self
        tm = t.model(target)
        if tm.id == mv.model.id:
            raise SkirmishError(f"{target!r} is the moving model itself; name another model to move into contact with",
                                kind="same_model")
        rho = mv.r + tm.radius
        c = np.array([tm.x, tm.y])
        relation = "a friend" if tm.side == mv.model.side else "an enemy"
        notes = [f"to base contact with {target} ({relation})"]
        if t.in_contact(mv.model.id, target):
            notes.append(f"{mv.model.id} is already in base contact with {target}: it need not move")
            return [(mv.start[0], mv.start[1], mv.home)], "", notes
        fin = np.flatnonzero(np.isfinite(net.dist))
        best: Connection | None = None
        for k in net.levels:
            z = mv.surfaces[k].z
            if tm.z > z + mv.h + CONTACT or tm.z + tm.hitbox_height < z - CONTACT:
                continue
            sp = mv.space(k)
            # contact points: straight in from the nearest nodes, and all round the circle
            v = net.xy[fin] - c
            dv = np.hypot(v[:, 0], v[:, 1])
            far = dv > rho + 1e-9
            radial = c + rho * v[far] / dv[far, None]
            lb = net.dist[fin][far] + dv[far] - rho
            radial = radial[np.argsort(lb)[:48]]
            ang = _phase((tm.x, tm.y), mv.start) + np.linspace(0, 2 * np.pi, CONTACT_SAMPLES, endpoint=False)
            ring = c + rho * np.column_stack([np.cos(ang), np.sin(ang)])
            Q = np.vstack([radial, ring])
            Q = Q[sp.end_free(Q)]
            if not len(Q):
                continue
            # a first bound: straight in from the nearest nodes on this surface
            on_k = fin[net.level[fin] == k]
            if len(on_k):
                v = net.xy[on_k] - c
                dv = np.hypot(v[:, 0], v[:, 1])
                ok = dv > rho + 1e-9
                on_k, v, dv = on_k[ok], v[ok], dv[ok]
                lb = net.dist[on_k] + dv - rho
                order = np.argsort(lb)[:48]
                on_k, p = on_k[order], c + rho * v[order] / dv[order, None]
                legal = sp.end_free(p)
                on_k, p = on_k[legal], p[legal]
                rs = np.where((on_k == net.start)[:, None], net.xy[on_k], np.nan)
                clear = sp.trav.segments_clear(net.xy[on_k], p, relax0=rs, relax1=p)
                if clear.any():
                    j = np.flatnonzero(clear)[np.argmin(lb[order][legal][clear])]
                    cost = float(net.dist[on_k[j]] + np.hypot(*(p[j] - net.xy[on_k[j]])))
                    if best is None or cost < best[0]:
                        best = (cost, int(on_k[j]), 0, None, k, p[j])
            cand = self._mv_connect_many(mv, net, k, Q, math.inf if best is None else best[0])
            if cand is not None and (best is None or cand[0] < best[0]):
                best = cand
        if best is None:
            return [(mv.start[0], mv.start[1], mv.home)], (
                f"no legal path takes {mv.model.id} into base contact with {target}"), notes
        return self._mv_route(mv, net, best), "", notes

    def end_bounds(self, model_id: str, xy: np.ndarray, *, falls: bool = True, within: float | None = None,
                   straight: bool = False) -> list[list[tuple[float, float]]]:
        """For each plan point of ``xy`` ((n, 2)), the surfaces where ``model_id``'s base
        may end there, as ``(z, bound)``: ``bound`` is a lower bound of the Movement cost of
        any path there (a shortest path reaches it straight from some node of the
        movement net). A quick filter before :meth:`plan_move`, vectorised over the points.

        ``within``: only whether a bound is at most ``within`` matters to the caller; a
        bound up to ``within`` is the same, a larger one may be larger still (the movement
        net is built only as far as ``within`` reaches).

        ``straight=True``: no movement net is built; the bound is the straight-line plan
        distance from the start (weaker, still a lower bound), on every surface the model
        can reach at all."""
        mv = self._mv_mover(model_id)
        self._mv_off_face(mv)
        Q = np.asarray(xy, float).reshape(-1, 2)
        out: list[list[tuple[float, float]]] = [[] for _ in range(len(Q))]
        if not len(Q):
            return out
        if straight:
            levels = mv.reachable_levels()
            bound = np.hypot(Q[:, 0] - mv.start[0], Q[:, 1] - mv.start[1])
        else:
            net = mv.net(falls, math.inf if within is None else float(within))
            fin = np.flatnonzero(np.isfinite(net.dist))
            if not len(fin):
                return out
            levels = net.levels
            nxy = net.xy[fin]
            bound = (net.dist[fin][None, :] + np.hypot(Q[:, None, 0] - nxy[None, :, 0],
                                                       Q[:, None, 1] - nxy[None, :, 1])).min(axis=1)
        pts, bounds = Q.tolist(), bound.tolist()  # (a few points: looped over in Python)
        for k in levels:
            x0, y0, x1, y1 = mv.surfaces[k].bounds
            # (a point off the surface's bounds cannot end on it: no other surface is built)
            near = [i for i, (x, y) in enumerate(pts) if x0 <= x <= x1 and y0 <= y <= y1]
            if not near:
                continue
            z = mv.surfaces[k].z
            free = mv.space(k).ends_free(Q if len(near) == len(Q) else Q[near]).tolist()
            for i, ok in zip(near, free):
                if ok:
                    out[i].append((z, bounds[i]))
        return out

    # -- the movement range ------------------------------------------------------------------
    def movement_range(self, model_id: str, *, kind: MoveKind | str = "walk", budget: float | None = None,
                       mode: Mode | str | None = None, declared: bool = False, falls: bool = True) -> MoveRange:
        """Where ``model_id``'s base centre can end a move this turn: one region per
        polygon (outer ring, then holes), on the surfaces it reaches; ``notes`` name the
        surface of each polygon, ``area`` is their total plan area (square inches).

        Exact for the planar part up to the polygon tolerances (round corners within
        0.01 in, arcs of the range within 0.005 in, both on the safe side)."""
        mv, k, budget, _, notes = self._mv_setup(model_id, kind, budget, mode, declared, "measure its movement range")
        if k in (MoveKind.JUMP, MoveKind.CLIMB):
            raise RuleInputError(f"the movement range is computed for Walk and Run; plan or check a {k.value.title()} "
                                 "to a point (--to / --via)")
        parts = self.movement_range_parts(model_id, kind=kind, budget=budget, falls=falls, _checked=True)
        regions, area, n = [], 0.0, 0
        for surface, geom in parts:
            for poly in getattr(geom, "geoms", [geom]):
                if not isinstance(poly, Polygon) or poly.is_empty or poly.area <= 1e-9:
                    continue
                rings = [tuple((float(x), float(y)) for x, y in poly.exterior.coords)]
                rings += [tuple((float(x), float(y)) for x, y in r.coords) for r in poly.interiors]
                regions.append(tuple(rings))
                area += poly.area
                notes.append(f"polygon {n}: on {surface.label} (z = {surface.z:g})")
                n += 1
        return MoveRange(model_id, budget, tuple(regions), float(area), tuple(notes))

    def movement_range_parts(self, model_id: str, *, kind: MoveKind | str = "walk", budget: float | None = None,
                             falls: bool = True, _checked: bool = False) -> tuple[tuple[Surface, BaseGeometry], ...]:
        """The movement range as shapely geometry, one entry per surface it reaches (for
        drawing). Ignores the measurement mode (see :meth:`movement_range`)."""
        if not _checked or budget is None:
            budget = self._mv_setup(model_id, kind, budget, Mode.ASSISTED, True, "")[2]
        mv = self._mv_mover(model_id)
        net = mv.net(falls)
        out = []
        for k in net.levels:
            sp = mv.space(k)
            clip = sp.end_polygon
            geoms = []
            ids, xy = self._mv_within(net, k, budget, mv)
            if len(ids):
                geoms.append(P.reach_region(xy, budget - net.dist[ids], sp.casters, clip))
            for h in net.levels:
                if h == k or k not in mv._neighbours(h):
                    continue
                a, b = mv.surfaces[h], mv.surfaces[k]
                down = a.z > b.z + Z_TOL
                if (not down and is_fall(b.z - a.z, mv.h)) or (down and is_fall(a.z - b.z, mv.h) and not falls):
                    continue
                hids, hxy = self._mv_within(net, h, budget, mv)
                if not len(hids):
                    continue
                skip = (*a.pieces, *b.pieces)
                cast = [mv.space(h).casters_without(skip), sp.casters_without(skip)]
                if down and not b.box:
                    cast.append(P.casters([], sp.trav.caps[sp.trav.owner == -1]))
                geoms.append(P.reach_region(hxy, budget - net.dist[hids], P.join_casters(*cast), clip))
            geoms = [g for g in geoms if not g.is_empty]
            if geoms:
                out.append((mv.surfaces[k], shapely.union_all(geoms)))
        return tuple(out)

    @staticmethod
    def _mv_within(net: _Net, k: int, budget: float, mv: _Mover) -> tuple[np.ndarray, np.ndarray]:
        ids = np.arange(len(net.nodes[k])) + net.offset[k]
        if mv.home == k:
            ids = np.append(ids, net.start)
        ids = ids[net.dist[ids] < budget - 1e-9]
        return ids, net.xy[ids]
