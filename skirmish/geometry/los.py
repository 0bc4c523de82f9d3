"""Line of sight between vertical solids, with a proof either way.

The question: is there a segment from a point of the source region P (a disc, or
the front half of one, extruded over a height range) to a point of the target
region Q that keeps the clearance ε from every obstacle? Each obstacle is grown by ε
(:meth:`Obstacles.grown`); the segment may touch the grown solids but enter none.
Every solid is a plan shape
extruded over a z-interval, so a segment is a plan segment plus two end heights
``(u, v)``, and along the plan segment its height is linear in the parameter t.

* **Visible**: a witness segment, checked exactly against every obstacle.
* **Not visible**: a certificate at tolerance ε. The plan segments are cut into
  bundles (a box of P × a box of Q). A bundle is *blocked* when one obstacle is
  met by every segment of the bundle below its top; two sufficient tests prove it:

  - *separator*: a line ℓ crossing the obstacle with every P-corner strictly on
    one side and every Q-corner strictly on the other, such that the crossing
    points of all segments with ℓ lie inside the obstacle, at heights below its
    top over the whole range of crossing parameters;
  - *containment*: a parameter interval J on which the whole Minkowski
    combination ``(1-t)P + tQ`` lies inside one convex piece (exact support
    functions), with every segment below the top somewhere in J.

  A bundle that is neither blocked nor yields a witness is split; once both boxes
  are smaller than ε and the segment through their centres has no clear heights,
  every segment of the bundle lies within ε (its ends moved less than ε) of a blocked
  one. So a "not visible" verdict means: no segment from P to Q keeps ε clear of
  every obstacle, except in a sliver thinner than ε. Between the two verdicts lies
  only that band of doubt.

Heights: an obstacle that stands on the table, or on solids that fill the column
under it, is "grounded": its blocking range is ``[0, top)``, so no segment slips
between a solid and the surface it stands on. A floating piece (a bridge, a
balcony) can be passed under.

Scalar and batch are one code path: :func:`line_of_sight_batch` solves any number
of pairs at once, vectorised over (bundle × obstacle) rows.
"""

from __future__ import annotations

import math
import weakref
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from operator import attrgetter, is_
from typing import Generic, Literal, NamedTuple, TypeVar, cast, overload

import numpy as np
import shapely
from shapely.geometry import LineString, Polygon

from ..memo import IdentityMemo
from . import kernels
from .los_chain import Chain, _next_index, chain_blocks_many, feasible_point
from .solids import Cylinder, Prism, convex_decomposition, discs, halfplanes_rings, origin_ring

#: A segment nearer than this to an obstacle's surface only touches it (inches).
ETA = 1e-9
#: Default certificate tolerance: 0.1 mm.
DEFAULT_TOLERANCE = 0.1 / 25.4
#: The largest tolerance taken (inches): a clearance ε beyond a model's own size makes
#: every solid block everything (and grown footprints degenerate).
MAX_TOLERANCE = 1.0
#: Chain tests (the costly step, ~1-25 ms each) one pair may run before the search
#: gives up and answers ``certified: false`` with stage "undecided": the bound on the
#: work per pair (see docs/rules.md, "Termination"). The hardest pairs measured, on a
#: 500-model 48" table, need 412 and 336; on a 200-model one, 53.
MAX_CHAIN_TESTS_PER_PAIR = 600
#: Bundles one pair may examine (a safety net: a bundle is cut in four
#: only after a chain test on it, so a pair examines at most 1 + 4 × 600).
MAX_BUNDLES_PER_PAIR = 4_000
#: Bundles a pair examines before the chain test joins in (the cheap tests settle most
#: pairs in the first few).
CHAIN_AFTER = 1
#: Extra witness candidates per bundle (segments between matching patch corners).
CORNER_CANDIDATES = 4
_BIG = 1e18

#: A 3D segment: two points (x, y, z).
Segment3 = tuple[tuple[float, float, float], tuple[float, float, float]]

Stage = Literal["arc", "separator", "containment", "witness", "subdivision", "undecided", "moot"]


# ---------------------------------------------------------------------------------------
# The obstacles of a scene
# ---------------------------------------------------------------------------------------

class _Solids(NamedTuple):
    """The solids of a scene, per owner: what the arrays are assembled from and what
    growing starts from."""

    z0: np.ndarray  # bottom as given
    z1: np.ndarray  # top
    grounded: np.ndarray  # blocks from the surface up (see :func:`build_obstacles`)
    sealed: np.ndarray  # a segment at exactly its bottom is blocked
    geoms: tuple[Polygon | _Disc, ...]  # exact footprint (a disc's polygon drawn where read: :func:`_footprint`)
    circles: tuple[tuple[float, float, float] | None, ...]  # (cx, cy, r) of a round owner
    parts: tuple[tuple[Polygon, ...], ...]  # convex parts of a polygon owner


class _Arrays(NamedTuple):
    """The arrays of :class:`Obstacles` (see there), assembled together."""

    owner_z0: np.ndarray
    owner_z1: np.ndarray
    owner_sealed: np.ndarray
    owner_circle: np.ndarray
    owner_axis: np.ndarray
    owner_npieces: np.ndarray
    piece_owner: np.ndarray
    halfplanes: np.ndarray
    owner_pieces_start: np.ndarray
    piece_circle: np.ndarray
    piece_round: np.ndarray
    piece_axis: np.ndarray
    owner_bound: np.ndarray
    poly_verts: np.ndarray
    owner_box: np.ndarray


_T = TypeVar("_T")


class _Assembled(Generic[_T]):
    """One of the arrays of :class:`Obstacles`: all of them are assembled on the first
    read of any (a scene that is only grown never assembles its own), then held in the
    instance."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Obstacles, objtype: type | None = None) -> _T:
        base = obj.__dict__.pop("_base", None)
        got = _reassemble(base[0], base[1], base[2], obj.solids) if base is not None else None
        obj.__dict__.update((got or _assemble(obj.solids))._asdict())
        return obj.__dict__[self.name]  # type: ignore[no-any-return]


@dataclass(frozen=True, eq=False)
class Obstacles:
    """Blocking solids as arrays. One *owner* (a model or scenery piece) may have
    several convex *pieces*; all per-piece arrays have one row per piece."""

    names: tuple[str, ...]  # per owner
    solids: _Solids = field(repr=False)
    grown_by: float = 0.0  # the solids are the scene's grown by this much (inches)
    members: tuple[tuple[int, ...], ...] = ()  # grown sets: the scene's owners behind each owner (stacks: two)
    _grown: dict[float, Obstacles] = field(default_factory=dict, repr=False)

    owner_z0 = _Assembled[np.ndarray]()  # per owner: bottom of the blocking range (0 when grounded)
    owner_z1 = _Assembled[np.ndarray]()  # per owner: top
    owner_sealed = _Assembled[np.ndarray]()  # per owner: a segment at exactly z0 is blocked
    owner_circle = _Assembled[np.ndarray]()  # per owner: (cx, cy, r), NaN for polygons
    owner_axis = _Assembled[np.ndarray]()  # per owner: (ox, oy, ux, uy) principal axis through the centroid
    owner_npieces = _Assembled[np.ndarray]()
    piece_owner = _Assembled[np.ndarray]()  # per piece
    halfplanes = _Assembled[np.ndarray]()  # per piece: (K, 3) rows a·x < b (padded with never-binding rows)
    owner_pieces_start = _Assembled[np.ndarray]()
    piece_circle = _Assembled[np.ndarray]()  # per piece: a circle (cx, cy, r) containing it
    piece_round = _Assembled[np.ndarray]()  # per piece: the owner is round (its halfplanes are unused padding)
    piece_axis = _Assembled[np.ndarray]()  # per piece: (ox, oy, ux, uy) principal axis through its centroid
    owner_bound = _Assembled[np.ndarray]()  # per owner: a circle (cx, cy, r) containing its footprint
    poly_verts = _Assembled[np.ndarray]()  # per piece: (W, 2) a polygon piece's vertices, padded (round: see verts)
    owner_box = _Assembled[np.ndarray]()  # per owner: the bounds (x0, y0, x1, y1) of its footprint (the STRtree's boxes)

    @property
    def n_owners(self) -> int:
        return len(self.names)

    def verts(self, piece: np.ndarray) -> np.ndarray:
        """Per piece of ``piece``, (W, 2) a convex polygon inside it, padded by repeating its
        last vertex: a polygon piece's vertices; a round piece's inscribed polygon, drawn
        from its circle here (a moved model's rows need not be redrawn on every board)."""
        v = self.poly_verts[piece]
        rnd = np.flatnonzero(self.piece_round[piece])
        if len(rnd):
            c = self.piece_circle[piece[rnd]]
            v[rnd, :_ROUND_VERTS] = c[:, None, :2] + c[:, None, 2:3] * _ROUND_COS_SIN
            v[rnd, _ROUND_VERTS:] = v[rnd, _ROUND_VERTS - 1:_ROUND_VERTS]
        return v

    @property
    def piece_verts(self) -> np.ndarray:
        """:meth:`verts` of every piece."""
        return self.verts(np.arange(len(self.piece_round)))

    @cached_property
    def owner_geom(self) -> tuple[Polygon, ...]:
        """Per owner: its exact footprint (discs as polygons, for culling; drawn when first
        asked for: the compiled first round never asks)."""
        return tuple(map(_footprint, self.solids.geoms))

    @cached_property
    def tree(self) -> shapely.STRtree:
        """An STRtree over the owners' footprints (built when first asked for: the compiled
        first round never asks)."""
        return shapely.STRtree(self.owner_geom)

    @cached_property
    def first_stack(self) -> int:
        """The first owner that is a stack of two solids (a grown set's stacks come after
        the scene's owners; ``n_owners`` when there is none)."""
        return next((i for i, m in enumerate(self.members) if len(m) > 1), self.n_owners)

    def grown(self, eps: float) -> Obstacles:
        """The same solids grown by ``eps``: discs by ``eps`` in radius, polygons offset by
        ``eps`` (round joins, see :func:`grow_polygon`), tops raised and floating bases
        lowered by ``eps``; a solid sealed to the surface under it stays sealed. Cached."""
        if eps <= 0:
            return self
        g = self._grown.get(eps)
        if g is None:
            g = self._grown[eps] = _grow(self, eps)
        return g


def _axes(polys: Sequence[Polygon]) -> np.ndarray:
    """Per polygon, (ox, oy, ux, uy): its centroid and the unit direction of the longer side
    of its minimum rotated rectangle ((1, 0) when that is degenerate); one vectorised pass."""
    out = np.zeros((len(polys), 4))
    out[:, 2] = 1.0
    if not len(polys):
        return out
    arr = _geom_array(polys)
    out[:, :2] = shapely.get_coordinates(shapely.centroid(arr))
    rect = shapely.oriented_envelope(arr)
    ok = np.flatnonzero(shapely.get_type_id(rect) == 3)
    if len(ok):
        xy, at = shapely.get_coordinates(shapely.get_exterior_ring(rect[ok]), return_index=True)
        first = np.searchsorted(at, np.arange(len(ok)))
        pts = xy[first[:, None] + np.arange(3)[None, :]]  # (k, 3, 2) the first three corners
        e1, e2 = pts[:, 1] - pts[:, 0], pts[:, 2] - pts[:, 1]
        l1, l2 = np.hypot(e1[:, 0], e1[:, 1]), np.hypot(e2[:, 0], e2[:, 1])
        e = np.where((l1 >= l2)[:, None], e1, e2)
        ln = np.hypot(e[:, 0], e[:, 1])
        ln = np.where(ln > 0, ln, 1.0)
        out[ok, 2:] = e / ln[:, None]
    return out


def _geom_array(geoms: Sequence[Polygon]) -> np.ndarray:
    arr = np.empty(len(geoms), object)
    arr[:] = list(geoms)
    return arr


def _rings(polys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The polygons' exterior rings (closed) read in one call: coordinates (M, 2) and the
    polygon of each."""
    xy, at = shapely.get_coordinates(shapely.get_exterior_ring(polys), return_index=True)
    return xy.reshape(-1, 2), np.asarray(at, int)


def _bounding_circles(geoms: Sequence[Polygon]) -> np.ndarray:
    """Per polygon, a circle (cx, cy, r) round its exterior ring, all in one pass."""
    out = np.zeros((len(geoms), 3))
    if not len(geoms):
        return out
    xy, at = _rings(_geom_array(geoms))
    first = np.searchsorted(at, np.arange(len(geoms)))
    mid = (np.minimum.reduceat(xy, first) + np.maximum.reduceat(xy, first)) / 2
    d = xy - mid[at]
    out[:, :2] = mid
    out[:, 2] = np.maximum.reduceat(np.hypot(d[:, 0], d[:, 1]), first) * 1.0001 + 1e-9
    return out


class _Disc:
    """A disc footprint drawn as :class:`Cylinder` draws its own: its bounds (x0, y0, x1,
    y1) and, made when first read, its closed ring, its :func:`_bounding_circles` circle
    (cx, cy, r) and its polygon (a moved model's rows need only the bounds and, grown,
    the circle). Drawn as GEOS's disc at the origin moved to the centre
    (``solids.discs``): the values shapely reads off the polygon, the bounds the origin
    ring's moved (rounding is monotonic); a radius that draws no such ring, by shapely."""

    __slots__ = ("box", "_at", "_ring", "_bound", "_poly")

    def __init__(self, x: float, y: float, r: float):
        origin, box = origin_ring(r)
        if len(origin) >= 4:
            x0, y0, x1, y1 = box.tolist()
            self.box = (x0 + x, y0 + y, x1 + x, y1 + y)
            self._at: tuple[np.ndarray, float, float] | None = (origin, x, y)
            self._ring: np.ndarray | None = None
            self._bound: np.ndarray | None = None
            self._poly: Polygon | None = None
        else:
            self._poly = discs(np.array([[x, y, r]], float))[0]
            self.box = tuple(shapely.bounds(self._poly).tolist())
            self._bound = _bounding_circles([self._poly])[0]
            self._at = self._ring = None

    @property
    def ring(self) -> np.ndarray | None:
        """The closed ring (m, 2) (None where drawn by shapely)."""
        if self._ring is None and self._at is not None:
            origin, x, y = self._at
            self._ring = origin + (x, y)
        return self._ring

    @property
    def bound(self) -> np.ndarray:
        if self._bound is None:
            x0, y0, x1, y1 = self.box
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            d = cast(np.ndarray, self.ring) - (cx, cy)
            self._bound = np.array([cx, cy, np.hypot(d[:, 0], d[:, 1]).max() * 1.0001 + 1e-9])
        return self._bound

    @property
    def poly(self) -> Polygon:
        if self._poly is None:
            self._poly = shapely.polygons(self.ring)
        return self._poly


def _footprint(geom: Polygon | _Disc) -> Polygon:
    """A solid's footprint as a polygon (a disc's drawn now, once)."""
    return geom.poly if type(geom) is _Disc else geom


#: Disc footprints by circle (x, y, r): a model that did not move is the same footprint
#: on the next board (and :func:`_rows_key` finds its rows by identity).
_DISCS: IdentityMemo[_Disc] = IdentityMemo(4096)


def _discs(circles: Sequence[tuple[float, float, float]]) -> list[_Disc]:
    """The footprints of the circles (x, y, r), drawn as :class:`Cylinder` draws its own."""
    out = []
    for x, y, r in circles:
        key = (float(x), float(y), float(r))
        got = _DISCS.find(key, ())
        out.append(got if got is not None else _DISCS.put(key, (), _Disc(*key)))
    return out


def build_obstacles(solids: Sequence[tuple[str, Cylinder | Prism]], *, tol: float = 1e-6) -> Obstacles:
    """Arrays for the blocking tests from named cylinders and prisms.

    A solid is *grounded* when it stands on the table or its footprint is covered by
    grounded solids whose tops reach its base; it then blocks from z = 0 up.
    """
    names, objs = _split_solids(solids)
    got = _built_like(names, objs, tol)
    if got is None:
        got = _build(solids, tol)
    _BUILT.append((objs, tol, got))  # (the next board is built from a recent one)
    return got


def _key(s: Cylinder | Prism) -> tuple[float, float, float, float, float] | Prism:
    """A solid's key, what its obstacle is built from: a cylinder's (x, y, radius, z,
    top), a prism itself."""
    return (s.x, s.y, s.radius, s.z, s.top) if isinstance(s, Cylinder) else s


def _split_solids(solids: Sequence[tuple[str, Cylinder | Prism]]
                  ) -> tuple[tuple[str, ...], tuple[Cylinder | Prism, ...]]:
    """The names and the solids of named solids."""
    names, objs = zip(*solids) if solids else ((), ())
    return names, objs


def built_but_for(solids: Sequence[tuple[str, Cylinder | Prism]], owner: int, *, tol: float = 1e-6
                  ) -> Obstacles | None:
    """A recently built scene (:func:`build_obstacles`) whose solids are the very objects of
    ``solids`` but for owner ``owner``'s, a cylinder standing elsewhere (or the same) that
    comes near no floating solid there or here (:func:`_near_floating`): every other
    owner's arrays are as ``solids`` build them, so it answers every sight line with an
    end on that owner (whose own solid never blocks it) as the scene of ``solids`` would,
    bit for bit. None where no such scene was built lately."""
    names, objs = _split_solids(solids)
    new = objs[owner]
    if not isinstance(new, Cylinder):
        return None
    for old_objs, old_tol, old in reversed(tuple(_BUILT)):  # (a snapshot: another thread may add one)
        if old_tol != tol or len(old_objs) != len(objs) or not all(map(is_, old_objs[:owner], objs[:owner])) or \
                not all(map(is_, old_objs[owner + 1:], objs[owner + 1:])) or old.names != names:
            continue
        was, now = _key(old_objs[owner]), _key(new)
        if type(was) is tuple and (was == now or not _near_floating(old, [owner], [was], [now], tol)):
            return old
    return None


#: Scenes built lately, (their solids, tol, obstacles): the next board mostly differs
#: from one of them only in models that moved (:func:`_built_like`).
_BUILT: deque[tuple[tuple[Cylinder | Prism, ...], float, Obstacles]] = deque(maxlen=8)


def _built_like(names: tuple[str, ...], objs: tuple[Cylinder | Prism, ...], tol: float) -> Obstacles | None:
    """The obstacles of the solids ``objs`` from a recently built scene of the same owners
    where only cylinders differ (in their :func:`_key`: models that moved), and none of
    them comes near another floating solid (a floating solid's grounding and sealing
    read the solids near it, and only those): the scene's arrays with their rows
    replaced, and the grounding and sealing of each one that floats (on a roof) found as
    :func:`_build` finds them; the same values (the scene itself where no solid differs:
    obstacles are immutable). None where that does not apply. Its arrays are then
    assembled from the scene's."""
    for old_objs, old_tol, old in reversed(tuple(_BUILT)):  # (a snapshot: another thread may add one)
        if old_tol != tol or old.names != names or len(old_objs) != len(objs):
            continue
        moved = [i for i, (a, b) in enumerate(zip(old_objs, objs)) if a is not b]
        if not all(isinstance(old_objs[i], Cylinder) and isinstance(objs[i], Cylinder) for i in moved):
            continue
        changed = [i for i in moved if _key(old_objs[i]) != _key(objs[i])]
        if len(changed) > _FEW:
            continue
        if not changed:  # (the same solids: that very scene, grown and assembled as it is)
            return old
        before = [_key(old_objs[i]) for i in changed]
        new = cast(list[tuple[float, float, float, float, float]], [_key(objs[i]) for i in changed])
        if _near_floating(old, changed, before, new, tol):
            continue
        sol = old.solids
        z0, z1 = sol.z0.copy(), sol.z1.copy()
        grounded, sealed = sol.grounded.copy(), sol.sealed.copy()
        geoms, circles, parts = list(sol.geoms), list(sol.circles), list(sol.parts)
        drawn = _discs([c[:3] for c in new])
        box = _solid_bounds(sol.geoms).copy()  # (the footprints' bounds, kept for the next board built from this one)
        for i, (x, y, r, lo, hi), disc in zip(changed, new, drawn):
            z0[i], z1[i], geoms[i], circles[i], parts[i], box[i] = lo, hi, disc, (x, y, r), (), disc.box
            grounded[i] = sealed[i] = lo <= tol
        for i in (i for i in changed if z0[i] > tol):  # (no other floating solid is near: supports on the table)
            _ground(i, z0, z1, grounded, sealed, geoms, box, tol)
        shapes = tuple(geoms)
        _BOUNDS.put((id(shapes),), (shapes,), box)
        out = Obstacles(names, _Solids(z0, z1, grounded, sealed, shapes, tuple(circles), tuple(parts)))
        if "owner_z0" in old.__dict__:  # (its arrays from old's: only an assembled one, so no chain of bases)
            out.__dict__["_base"] = (old, changed, drawn)
        out.__dict__["_like"] = (weakref.ref(old), changed)  # (grown from old's grown set, :func:`_grow_bases`)
        out.__dict__["_floating"] = (tol, [(j, b) for j, b in _floating(old, tol) if j not in changed] +
                                     [(i, box[i].tolist()) for i in changed if z0[i] > tol])
        return out
    return None


#: A scene's solids' footprint bounds (x0, y0, x1, y1), by their footprints' identity.
_BOUNDS: IdentityMemo[np.ndarray] = IdentityMemo(16)


def _solid_bounds(geoms: tuple[Polygon | _Disc, ...]) -> np.ndarray:
    """The footprints' bounds (n, 4): x0, y0, x1, y1 (a board built from another gets them
    from its, :func:`_built_like`)."""
    return _BOUNDS.get((id(geoms),), (geoms,), lambda: _footprint_bounds(geoms))


def _footprint_bounds(geoms: Sequence[Polygon | _Disc]) -> np.ndarray:
    """The bounds (n, 4) of the footprints ``geoms`` (every disc's polygon drawn)."""
    return shapely.bounds(_geom_array(list(map(_footprint, geoms)))).reshape(-1, 4)


def _near_floating(old: Obstacles, changed: list[int], before: Sequence[object], after: Sequence[object], tol: float
                   ) -> bool:
    """Whether a changed cylinder (at ``before`` or ``after``: x, y, radius, z, top) comes
    near (within 2 ``tol`` and rounding, box to box) a floating solid other than itself:
    one that floats on the old board ``old``, or a changed one that floats on either."""
    # (plain floats: a few changed cylinders against a few floating solids)
    cyl = list(zip(changed * 2, cast(list[tuple[float, float, float, float, float]], [*before, *after])))
    moved = set(changed)
    boxes = [(j, box) for j, box in _floating(old, tol) if j not in moved]
    boxes += [(i, [x - r, y - r, x + r, y + r]) for i, (x, y, r, z, _) in cyl if z > tol]
    for i, (x, y, r, _, _) in cyl:
        pad = r + 2 * tol + 1e-9
        if any(j != i and x0 <= x + pad and x1 >= x - pad and y0 <= y + pad and y1 >= y - pad
               for j, (x0, y0, x1, y1) in boxes):
            return True
    return False


def _floating(obs: Obstacles, tol: float) -> list[tuple[int, list[float]]]:
    """The floating solids of ``obs`` (a base above ``tol``), each with its footprint's
    bounds (x0, y0, x1, y1), in no set order; found once per scene (every board built
    from it asks), or kept from the scene it was built from (:func:`_built_like`)."""
    got = obs.__dict__.get("_floating")
    if got is None or got[0] != tol:
        bounds = _solid_bounds(obs.solids.geoms)
        got = obs.__dict__["_floating"] = (tol, [(j, bounds[j].tolist())
                                                 for j in np.flatnonzero(obs.solids.z0 > tol).tolist()])
    return got[1]


def _ground(i: int, z0: np.ndarray, z1: np.ndarray, grounded: np.ndarray, sealed: np.ndarray,
            geoms: Sequence[Polygon | _Disc], box: np.ndarray, tol: float) -> None:
    """Whether floating solid ``i`` is grounded (its footprint covered by grounded solids
    near it whose tops reach its base; then sealed too) or else sealed (resting on a
    solid's top): ``grounded``/``sealed`` of the solids before it in height are final."""
    # (a support whose box stays 2 tol clear of this footprint's adds nothing to its cover)
    near = np.all((box[:, :2] <= box[i, 2:] + 2 * tol) & (box[:, 2:] >= box[i, :2] - 2 * tol), 1)
    near[i] = False
    supports = [_footprint(geoms[j]) for j in np.flatnonzero(grounded & near).tolist() if z1[j] >= z0[i] - tol]
    own = _footprint(geoms[i])
    if supports and _covered(own, supports, tol):
        grounded[i] = sealed[i] = True
    else:
        grounded[i] = False
        sealed[i] = any(abs(z1[j] - z0[i]) <= tol and _footprint(geoms[j]).intersection(own).area > tol
                        for j in range(len(geoms)) if j != i)


def _build(solids: Sequence[tuple[str, Cylinder | Prism]], tol: float) -> Obstacles:
    """:func:`build_obstacles` afresh."""
    names: list[str] = []
    z0: list[float] = []
    z1: list[float] = []
    geoms: list[Polygon | _Disc] = []
    circles: list[tuple[float, float, float] | None] = []
    parts: list[tuple[Polygon, ...]] = []
    drawn = iter(_discs([(s.x, s.y, s.radius) for _, s in solids if isinstance(s, Cylinder)]))  # (Cylinder.footprint)
    for name, s in solids:
        if isinstance(s, Cylinder):
            circle, geom, lo, hi = (s.x, s.y, s.radius), next(drawn), s.z, s.top
        elif s.circle is not None:
            circle, geom, lo, hi = s.circle, s.footprint, s.z0, s.z1
        else:
            circle, geom, lo, hi = None, s.footprint, s.z0, s.z1
        names.append(name)
        z0.append(lo)
        z1.append(hi)
        geoms.append(geom)
        circles.append((circle[0], circle[1], circle[2]) if circle is not None else None)
        parts.append(() if circle is not None else
                     (s.convex_pieces if isinstance(s, Prism) else convex_decomposition(s.footprint)))
    n = len(names)
    z0a, z1a = np.array(z0, float), np.array(z1, float)
    sealed = np.zeros(n, bool)
    grounded = np.zeros(n, bool)
    order = np.argsort(z0a, kind="stable")
    box = _footprint_bounds(geoms) if n else np.zeros((0, 4))
    for i in order:
        if z0a[i] <= tol:
            grounded[i] = sealed[i] = True
        else:
            _ground(i, z0a, z1a, grounded, sealed, geoms, box, tol)
    return Obstacles(tuple(names), _Solids(z0a, z1a, grounded, sealed, tuple(geoms), tuple(circles), tuple(parts)))


#: Whether solids (grown by a tolerance) cover a footprint, by the very objects (a model
#: standing on a roof is the same disc on the same roof on every board until it moves).
_COVERED: IdentityMemo[bool] = IdentityMemo(4096)
#: Supports joined and grown by a tolerance, by the very objects (a roof's supports are
#: the same pieces wherever a model stands on it).
_SUPPORTS: IdentityMemo[shapely.Geometry] = IdentityMemo(256)


def _covered(geom: Polygon, supports: list[Polygon], tol: float) -> bool:
    """Whether ``supports`` grown by ``tol`` cover ``geom`` (the footprint stands on them)."""
    def make() -> bool:
        grown = _SUPPORTS.get((*map(id, supports), tol), tuple(supports),
                              lambda: shapely.union_all(supports).buffer(tol))
        return bool(grown.covers(geom))
    return _COVERED.get((id(geom), *map(id, supports), tol), (geom, *supports), make)


#: Vertices of the polygon inscribed in a round piece for the chain test.
_ROUND_VERTS = 48
#: The unit circle at those vertices: (cos, sin) rows.
_ROUND_COS_SIN = np.stack([np.cos(np.arange(_ROUND_VERTS) * (2 * math.pi / _ROUND_VERTS)),
                           np.sin(np.arange(_ROUND_VERTS) * (2 * math.pi / _ROUND_VERTS))], 1)
#: Segments per quarter circle of the round joins when a polygon is grown by ε.
GROW_QUAD_SEGS = 4
#: How far the round joins of a grown polygon may overshoot ε (relative): their chords
#: are tangent to the ε-circle round each corner.
GROW_FACTOR = 1.0 / math.cos(math.pi / (4 * GROW_QUAD_SEGS))


def grow_convex(poly: Polygon, eps: float) -> Polygon:
    """The ε-offset of a convex polygon, its round joins circumscribed by tangent chords:
    every edge moves out by exactly ε; a corner's arc is drawn with chords tangent to the
    ε-circle round it, so the polygon holds the exact offset and exceeds it only at the
    joins, by at most 2 % of ε."""
    if eps <= 0:
        return poly
    pts = np.asarray(shapely.geometry.polygon.orient(poly, 1.0).exterior.coords)[:-1]
    edge = pts[_next_index(len(pts))] - pts
    keep = np.hypot(edge[:, 0], edge[:, 1]) > 1e-12
    pts, edge = pts[keep], edge[keep]
    ang = np.arctan2(-edge[:, 0], edge[:, 1])  # outward normal of edge i (CCW ring): (ey, -ex)
    a0 = ang[np.arange(-1, len(ang) - 1)]  # per vertex i, the normals of the edges into (a0) and out of (ang) it
    turn = (ang - a0) % (2 * math.pi)
    m = np.maximum(1, np.ceil(turn / (math.pi / (2 * GROW_QUAD_SEGS)) - 1e-9)).astype(int)
    d = turn / m
    rad = eps / np.array([math.cos(h) for h in (d / 2).tolist()])  # (math's cos and sin: the drawn values)
    at = np.repeat(np.arange(len(pts)), m)  # each of the m chords of vertex i's arc
    t = a0[at] + (np.arange(len(at)) - np.repeat(np.cumsum(m) - m, m) + 0.5) * d[at]
    ts = t.tolist()
    cos, sin = np.array([math.cos(x) for x in ts]), np.array([math.sin(x) for x in ts])
    return shapely.polygons(np.stack([pts[at, 0] + rad[at] * cos, pts[at, 1] + rad[at] * sin], 1))


#: Per-owner rows of :func:`_assemble`, reused by every scene that holds the same solid
#: (the scenery of a game, the models that did not move): key -> (refs, rows). Keys of
#: polygon owners hold the identity of their parts (checked); round owners are keyed by
#: their exact circle and footprint. Bounded, oldest dropped first.
_ROWS: dict[tuple[object, ...], tuple[tuple[object, ...], _OwnerRows]] = {}
_ROWS_SIZE = 8192


class _OwnerRows(NamedTuple):
    verts: list[np.ndarray]  # (a round piece's: none, :meth:`Obstacles.verts`)
    halfplanes: list[np.ndarray]
    round: list[bool]
    axes: list[tuple[float, float, float, float]]
    circles: list[tuple[float, float, float]]
    axis: tuple[float, float, float, float]
    bound: np.ndarray


def _rows_key(circle: tuple[float, float, float] | None, ps: tuple[Polygon, ...], geom: Polygon
              ) -> tuple[tuple[object, ...], _OwnerRows | None]:
    """The cache key of one owner's rows, and its rows if this same solid was seen."""
    if circle is not None:
        key: tuple[object, ...] = ("c", circle[0], circle[1], circle[2], int(shapely.get_num_coordinates(geom)))
        hit = _ROWS.get(key)
        return key, (hit[1] if hit is not None and (hit[0][0] is geom or shapely.equals_exact(hit[0][0], geom, 0.0))
                     else None)
    key = ("p", id(ps), id(geom))
    hit = _ROWS.get(key)
    return key, (hit[1] if hit is not None and hit[0][0] is geom and hit[0][1] is ps else None)


def _owner_rows(circles: Sequence[tuple[float, float, float] | None], parts: Sequence[tuple[Polygon, ...]],
                geoms: Sequence[Polygon]) -> list[_OwnerRows]:
    """Per owner, its piece rows (verts, halfplanes, round flag, axis, circle per piece)
    and its own axis and bounding circle: the same values for the same solid, computed
    once; the owners not seen before get their axes and bounds in one vectorised pass."""
    looked = [_rows_key(c, ps, g) for c, ps, g in zip(circles, parts, geoms)]
    out: list[_OwnerRows | None] = [rows for _, rows in looked]
    miss = [i for i, rows in enumerate(out) if rows is None]
    if miss:
        plist = [p for i in miss if circles[i] is None for p in parts[i]]
        if any(circles[i] is None for i in miss):  # (discs alone need none of this)
            part_axes = iter(_axes(plist))
            # every part's ring at once: counter-clockwise (the vertices and halfplanes) and as
            # drawn (its circle, as before)
            ccw_xy, ccw_at = _rings(shapely.orient_polygons(_geom_array(plist), exterior_cw=False))
            ccw_rings = iter(np.split(ccw_xy, np.searchsorted(ccw_at, np.arange(1, len(plist)))))
            halfplanes = iter(halfplanes_rings(ccw_xy, ccw_at, len(plist)))
            xy_all, at_all = _rings(_geom_array(plist))
            rings = iter(np.split(xy_all, np.searchsorted(at_all, np.arange(1, len(plist)))))
            geom_axes = iter(_axes([geoms[i] for i in miss if circles[i] is None]))
        bounds = _bounding_circles([geoms[i] for i in miss])
        for k, i in enumerate(miss):
            circle, ps, geom = circles[i], parts[i], geoms[i]
            if circle is not None:
                rows = _round_rows(circle, bounds[k])
            else:
                verts: list[np.ndarray] = []
                pieces: list[np.ndarray] = []
                axes_p: list[tuple[float, float, float, float]] = []
                circles_p: list[tuple[float, float, float]] = []
                for _ in ps:
                    ccw = next(ccw_rings)[:-1]
                    verts.append(ccw)
                    pieces.append(next(halfplanes))
                    ox, oy, ux, uy = next(part_axes)
                    axes_p.append((float(ox), float(oy), float(ux), float(uy)))
                    xy = next(rings)
                    mid = xy.mean(0)
                    circles_p.append((mid[0], mid[1], float(np.hypot(*(xy - mid).T).max())))
                ox, oy, ux, uy = next(geom_axes)
                axis = (float(ox), float(oy), float(ux), float(uy))
                rows = _OwnerRows(verts, pieces, [False] * len(verts), axes_p, circles_p, axis, bounds[k])
            if len(_ROWS) >= _ROWS_SIZE:
                del _ROWS[next(iter(_ROWS))]
            _ROWS[looked[i][0]] = ((geom, ps), rows)
            out[i] = rows
    return [rows for rows in out if rows is not None]


#: A round piece's vertices in its rows: none (its inscribed polygon is drawn where read,
#: :meth:`Obstacles.verts`).
_NO_VERTS = np.zeros((0, 2))


def _round_rows(circle: tuple[float, float, float], bound: np.ndarray) -> _OwnerRows:
    """The rows of a round owner (one piece): ``circle`` (x, y, r), ``bound`` its
    footprint's bounding circle."""
    axis = (circle[0], circle[1], 1.0, 0.0)  # (a disc has no long side)
    return _OwnerRows([_NO_VERTS], [np.zeros((0, 3))], [True], [axis], [circle], axis, bound)


def _assemble(solids: _Solids) -> _Arrays:
    """The arrays of the owners ``solids``: each owner's rows (:func:`_owner_rows`) in turn."""
    z0a, z1a, grounded, sealed, shapes, circles, parts = solids
    geoms = tuple(map(_footprint, shapes))
    n = len(geoms)
    pieces: list[np.ndarray] = []
    owners: list[int] = []
    circles_p: list[tuple[float, float, float]] = []
    round_p: list[bool] = []
    axes_p: list[tuple[float, float, float, float]] = []
    verts: list[np.ndarray] = []
    owner_axes: list[tuple[float, float, float, float]] = []
    bounds: list[np.ndarray] = []
    for idx, rows in enumerate(_owner_rows(circles, parts, geoms)):
        verts += rows.verts
        pieces += rows.halfplanes
        round_p += rows.round
        axes_p += rows.axes
        circles_p += rows.circles
        owners += [idx] * len(rows.verts)
        owner_axes.append(rows.axis)
        bounds.append(rows.bound)
    eff = np.where(grounded, 0.0, z0a)
    kmax = max((len(h) for h in pieces), default=1) or 1
    hp = np.zeros((len(pieces), kmax, 3))
    hp[:, :, 2] = _BIG
    for k, h in enumerate(pieces):
        hp[k, : len(h)] = h
    owners_a = np.array(owners, int)
    npieces = np.bincount(owners_a, minlength=n) if n else np.zeros(0, int)
    start = np.concatenate([[0], np.cumsum(npieces)[:-1]]) if n else np.zeros(0, int)
    wmax = max((_ROUND_VERTS if r else len(v) for v, r in zip(verts, round_p)), default=1)
    pv = np.zeros((len(verts), wmax, 2))
    for k, v in enumerate(verts):
        if len(v):  # (a round piece's row is left: :meth:`Obstacles.verts`)
            pv[k, : len(v)] = v
            pv[k, len(v):] = v[-1]
    axes = np.array(owner_axes, float).reshape(-1, 4)
    circ = np.array([c if c is not None else (math.nan, math.nan, math.nan) for c in circles], float).reshape(-1, 3)
    return _Arrays(eff, z1a, sealed, circ, axes, npieces, owners_a, hp, start,
                   np.array(circles_p, float).reshape(-1, 3), np.array(round_p, bool),
                   np.array(axes_p, float).reshape(-1, 4), np.array(bounds, float).reshape(-1, 3), pv,
                   shapely.bounds(_geom_array(geoms)).reshape(-1, 4))


#: Scenes grown lately, (ungrown, grown): the next board mostly differs from one of them
#: in a model or two, and is grown and assembled from it (:func:`_grow_like`).
_RECENT: deque[tuple[Obstacles, Obstacles]] = deque(maxlen=8)
#: Owners a board may differ in to be built and grown from a recent one (a few models
#: move between two boards whose LoS is asked: a round's activations).
_FEW = 12


def _grow(obs: Obstacles, eps: float) -> Obstacles:
    got = _grow_like(obs, eps)
    if got is None:
        got = _grow_all(obs, eps)
    _RECENT.append((obs, got))
    return got


def _changed(a: _Solids, b: _Solids) -> list[int] | None:
    """The owners whose solids differ between two scenes of as many owners (None: more
    than :data:`_FEW`)."""
    diff = ((a.z0 != b.z0) | (a.z1 != b.z1) | (a.grounded != b.grounded) | (a.sealed != b.sealed)).tolist()
    out = [i for i, (d, ga, gb, pa, pb, ca, cb) in
           enumerate(zip(diff, a.geoms, b.geoms, a.parts, b.parts, a.circles, b.circles))
           if d or ga is not gb or pa is not pb or ca != cb]
    return out if len(out) <= _FEW else None


def _grow_like(obs: Obstacles, eps: float) -> Obstacles | None:
    """``obs`` grown by ``eps`` from a recently grown scene of the same owners that differs
    only in round owners (models that moved, standing anywhere): its grown solids with
    theirs replaced, and its arrays with their rows replaced when first read
    (:func:`_reassemble`). The same values as growing afresh (:func:`_grow_all`): only
    polygon owners form stacks (:func:`_stacks`), so a scene grown without any grows into
    none. None where that does not apply."""
    new = obs.solids
    for old, grown, changed in _grow_bases(obs, eps):
        if any(new.circles[i] is None or old.solids.circles[i] is None for i in changed):
            continue
        g = grown.solids
        z0, z1, gr, se = g.z0.copy(), g.z1.copy(), g.grounded.copy(), g.sealed.copy()
        geoms, circles, parts = list(g.geoms), list(g.circles), list(g.parts)
        gc = [(new.circles[i][0], new.circles[i][1], new.circles[i][2] + eps) for i in changed]  # type: ignore[index]
        drawn = _discs(gc)
        for i, c, disc in zip(changed, gc, drawn):
            z0[i] = 0.0 if new.grounded[i] else new.z0[i] - eps
            z1[i], gr[i], se[i] = new.z1[i] + eps, new.grounded[i], new.sealed[i]
            geoms[i], circles[i], parts[i] = disc, c, ()
        out = Obstacles(obs.names, _Solids(z0, z1, gr, se, tuple(geoms), tuple(circles), tuple(parts)),
                        obs.grown_by + eps, grown.members)
        out.__dict__["_base"] = (grown, changed, drawn)
        return out
    return None


def _grow_bases(obs: Obstacles, eps: float) -> Iterator[tuple[Obstacles, Obstacles, list[int]]]:
    """The scenes of the same owners, grown by ``eps`` without stacks, that ``obs`` may be
    grown from, with the owners it differs from each in (at most :data:`_FEW`): first the
    scene it was built from (:func:`_built_like`: those owners are known) where that one
    is grown and assembled, then the recently grown ones, newest first."""
    like = obs.__dict__.get("_like")
    if like is not None:
        old, changed = like[0](), like[1]
        grown = old._grown.get(eps) if old is not None else None
        if grown is not None and "owner_z0" in grown.__dict__ and len(grown.names) == len(obs.names):
            yield old, grown, changed
    for old, grown in reversed(tuple(_RECENT)):  # (a snapshot: another thread may add one)
        if grown.grown_by != old.grown_by + eps or old.names != obs.names or len(grown.names) != len(obs.names):
            continue
        changed = _changed(old.solids, obs.solids)
        if changed is not None:
            yield old, grown, changed


def _reassemble(base: Obstacles, changed: list[int], drawn: list[_Disc], solids: _Solids) -> _Arrays | None:
    """The arrays of ``solids`` from those of ``base`` (assembled, the same owners and
    pieces) where only the round owners ``changed`` differ, their footprints ``drawn``:
    their rows replaced (the values :func:`_assemble` gives). None when ``base`` was
    never assembled."""
    if "owner_z0" not in base.__dict__:
        return None
    a = _Arrays._make(map(base.__dict__.__getitem__, _Arrays._fields))
    z0, z1, owner_circle, owner_axis = a.owner_z0.copy(), a.owner_z1.copy(), a.owner_circle.copy(), a.owner_axis.copy()
    sealed, bound, box = a.owner_sealed.copy(), a.owner_bound.copy(), a.owner_box.copy()
    piece_circle, piece_axis = a.piece_circle.copy(), a.piece_axis.copy()
    for i, disc in zip(changed, drawn):
        r = _round_rows(cast(tuple[float, float, float], solids.circles[i]), disc.bound)
        p = int(a.owner_pieces_start[i])
        z0[i] = 0.0 if solids.grounded[i] else solids.z0[i]
        z1[i], sealed[i], box[i] = solids.z1[i], solids.sealed[i], disc.box
        owner_circle[i], owner_axis[i], bound[i] = solids.circles[i], r.axis, r.bound
        piece_circle[p], piece_axis[p] = r.circles[0], r.axes[0]
    return a._replace(owner_z0=z0, owner_z1=z1, owner_sealed=sealed, owner_circle=owner_circle,
                      owner_axis=owner_axis, piece_circle=piece_circle, piece_axis=piece_axis, owner_bound=bound,
                      owner_box=box)


def _grow_all(obs: Obstacles, eps: float) -> Obstacles:
    z0a, z1a, grounded, sealed, _, circles, parts = obs.solids
    gc = tuple(None if c is None else (c[0], c[1], c[2] + eps) for c in circles)
    drawn = iter(_discs([c for c in gc if c is not None]))
    grown: list[tuple[tuple[Polygon, ...], Polygon | _Disc]] = \
        [((), next(drawn)) if c is not None else _grown_owner(ps, eps) for ps, c in zip(parts, gc)]
    gp = tuple(g[0] for g in grown)
    gg = tuple(g[1] for g in grown)
    z0g = np.where(grounded, 0.0, z0a - eps)
    z1g = z1a + eps
    stacks = _stacks(gp, z0g, z1g)
    names = list(obs.names)
    members: list[tuple[int, ...]] = [(i,) for i in range(obs.n_owners)]
    zz0, zz1, gr, se = list(z0g), list(z1g), list(grounded), list(sealed)
    geoms, circs, prts = list(gg), list(gc), list(gp)
    for a, b, poly in stacks:
        low = a if z0g[a] <= z0g[b] else b
        names.append(f"{obs.names[a]}+{obs.names[b]}")
        members.append((a, b))
        zz0.append(min(z0g[a], z0g[b]))
        zz1.append(max(z1g[a], z1g[b]))
        gr.append(bool(grounded[low]))
        se.append(bool(sealed[low]))
        geoms.append(poly)
        circs.append(None)
        prts.append((poly,))
    return Obstacles(tuple(names), _Solids(np.array(zz0, float), np.array(zz1, float), np.array(gr, bool),
                                           np.array(se, bool), tuple(geoms), tuple(circs), tuple(prts)),
                     obs.grown_by + eps, tuple(members))


#: Grown parts and footprint per owner and ε (the same solid grown again is the same
#: objects, so :func:`_owner_rows` finds it): key -> (refs, (parts, footprint)).
_GROWN: IdentityMemo[tuple[tuple[Polygon, ...], Polygon]] = IdentityMemo(_ROWS_SIZE)


def _grown_owner(ps: tuple[Polygon, ...], eps: float) -> tuple[tuple[Polygon, ...], Polygon]:
    def grow() -> tuple[tuple[Polygon, ...], Polygon]:
        gp = tuple(grow_convex(p, eps) for p in ps)
        return gp, gp[0] if len(gp) == 1 else shapely.union_all(gp)
    return _GROWN.get((id(ps), eps), (ps,), grow)


def _stacks(parts: Sequence[tuple[Polygon, ...]], z0: np.ndarray, z1: np.ndarray) -> list[tuple[int, int, Polygon]]:
    """Pairs of (grown) solids stacked in one column: footprints that overlap, height
    ranges that overlap without one holding the other (a sill under a lintel, a deck on
    a post). Where their footprints overlap they block one joined height range: a
    *stack*, added as one more solid so the blocking tests see the union (it blocks only
    what its two members block)."""
    # (two solids that block from the same height hold one another's height range: a stack
    # needs a member that does not block from the table up)
    if not (np.asarray(z0) != 0.0).any():
        return []
    flat = [(o, p) for o, ps in enumerate(parts) for p in ps]
    if len(flat) < 2:
        return []
    tree = shapely.STRtree([p for _, p in flat])
    i, j = tree.query([p for _, p in flat], predicate="intersects")
    out = []
    for a, b in zip(i, j):
        (oa, pa), (ob, pb) = flat[a], flat[b]
        if oa >= ob:
            continue
        lo, hi = max(z0[oa], z0[ob]), min(z1[oa], z1[ob])
        nested = (z0[oa] <= z0[ob] and z1[oa] >= z1[ob]) or (z0[ob] <= z0[oa] and z1[ob] >= z1[oa])
        if not lo < hi - 1e-12 or nested:
            continue
        inter = pa.intersection(pb)
        if isinstance(inter, Polygon) and inter.area > 1e-12:
            out.append((oa, ob, shapely.geometry.polygon.orient(inter, 1.0)))
    return out


# ---------------------------------------------------------------------------------------
# Regions and pairs
# ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Viewer:
    """One end of a sight line: a disc (optionally cut to a half-plane) over [z, z + h]."""

    x: float
    y: float
    r: float
    z: float
    h: float
    owner: int = -1  # obstacle owner index to ignore (the solid itself), -1 for none


#: A viewer's values as one row (x, y, r, z, h, owner).
_VIEWER_FIELDS = attrgetter("x", "y", "r", "z", "h", "owner")


class Viewers(Sequence[Viewer]):
    """Many viewers as the rows ``(x, y, r, z, h, owner)`` of one array: a batch's ends
    made with numpy, no :class:`Viewer` per pair (one is made only where it is read)."""

    def __init__(self, rows: np.ndarray):
        self.rows = np.asarray(rows, float).reshape(-1, 6)

    @classmethod
    def of(cls, viewers: Sequence[Viewer]) -> Viewers:
        """``viewers`` as rows (themselves when they are rows already)."""
        if isinstance(viewers, Viewers):
            return viewers
        return cls(np.array(list(map(_VIEWER_FIELDS, viewers)), float).reshape(-1, 6))

    @classmethod
    def repeat(cls, viewer: Viewer, n: int) -> Viewers:
        """``n`` times the one ``viewer``."""
        return cls(np.tile(np.array(_VIEWER_FIELDS(viewer), float), (n, 1)))

    def __len__(self) -> int:
        return len(self.rows)

    @overload
    def __getitem__(self, i: int) -> Viewer: ...

    @overload
    def __getitem__(self, i: slice) -> Viewers: ...

    def __getitem__(self, i: int | slice) -> Viewer | Viewers:
        if isinstance(i, slice):
            return Viewers(self.rows[i])
        x, y, r, z, h, owner = self.rows[i].tolist()
        return Viewer(x, y, r, z, h, int(owner))

    def __add__(self, other: Sequence[Viewer]) -> Viewers:
        return Viewers(np.concatenate([self.rows, Viewers.of(other).rows]))


@dataclass(frozen=True)
class LosAnswer:
    """A raw verdict: ``witness`` when visible, else the ``blockers`` (owner indices)."""

    visible: bool
    stage: Stage
    witness: tuple[tuple[float, float, float], tuple[float, float, float]] | None = None
    blockers: tuple[int, ...] = ()
    bundles: int = 0
    out_of_arc: bool = False


#: The answer to every pair out of the front arc (E-ARC): one value, shared.
OUT_OF_ARC = LosAnswer(False, "arc", out_of_arc=True)
#: A pair seen: the fields of its answer but the witness (:func:`_witnessed`).
_SEEN = {"visible": True, "stage": "witness", "witness": None, "blockers": (), "bundles": 1, "out_of_arc": False}


def _witnessed(w: list[float]) -> LosAnswer:
    """``LosAnswer(True, "witness", witness=w, bundles=1)`` for the witness ``w`` (x0, y0,
    z0, x1, y1, z1), made without the frozen dataclass's ``__init__``, which sets its six
    fields one call at a time (the compiled first round sees hundreds of pairs a game)."""
    a = object.__new__(LosAnswer)
    d = a.__dict__
    d.update(_SEEN)
    d["witness"] = ((w[0], w[1], w[2]), (w[3], w[4], w[5]))
    return a


#: The answer to a pair of an ``any_of`` group left unsolved (:func:`line_of_sight_batch`):
#: another pair of its group is visible, so its own answer is moot. One value, shared.
MOOT = LosAnswer(False, "moot")


@dataclass
class _Pairs:
    """Per-pair arrays (P = source region, Q = target region)."""

    P: np.ndarray  # (n, 3) disc cx, cy, r
    Q: np.ndarray
    H: np.ndarray  # (n, 3) half-plane n·x >= c0 cutting both regions: nx, ny, c0 (0, 0, -BIG: none)
    zP: np.ndarray  # (n, 2) [z0, z1] of the source heights
    zQ: np.ndarray
    cand_start: np.ndarray  # CSR into cand_owner
    cand_count: np.ndarray
    cand_owner: np.ndarray  # candidate obstacle owners per pair (flattened)
    out_of_arc: np.ndarray  # (n,) the target misses the source's front half-plane (E-ARC)


def _region_bbox(D: np.ndarray, H: np.ndarray) -> np.ndarray:
    """Exact bounding boxes of disc ∩ half-plane regions, shape (n, 4)."""
    if kernels.wanted(len(D)):
        return kernels.region_bbox(D, H)
    cx, cy, r = D.T
    nx, ny, c0 = H.T
    pts = [np.stack([cx - r, cy], 1), np.stack([cx + r, cy], 1), np.stack([cx, cy - r], 1), np.stack([cx, cy + r], 1)]
    ok = [nx * p[:, 0] + ny * p[:, 1] >= c0 - 1e-12 for p in pts]
    off = c0 - (nx * cx + ny * cy)  # signed offset of the chord line from the centre
    half = np.sqrt(np.maximum(r * r - off * off, 0.0))
    mx, my = cx + off * nx, cy + off * ny
    has_chord = (np.abs(off) <= r) & ((nx != 0) | (ny != 0))
    for sgn in (-1.0, 1.0):
        pts.append(np.stack([mx - sgn * ny * half, my + sgn * nx * half], 1))
        ok.append(has_chord)
    P = np.stack(pts, 1)
    OK = np.stack(ok, 1)
    inf = np.where(OK, 0.0, np.inf)
    x0 = np.min(P[:, :, 0] + inf, 1)
    y0 = np.min(P[:, :, 1] + inf, 1)
    x1 = np.max(P[:, :, 0] - inf, 1)
    y1 = np.max(P[:, :, 1] - inf, 1)
    return np.stack([x0, y0, x1, y1], 1)


def _project(pt: np.ndarray, D: np.ndarray, H: np.ndarray) -> np.ndarray:
    """The point of each region disc ∩ half-plane nearest to ``pt`` (rows)."""
    if kernels.wanted(len(pt)):
        return kernels.project(pt, D, H)
    c, r = D[:, :2], D[:, 2]
    v = pt - c
    d = np.hypot(v[:, 0], v[:, 1])
    scale = np.where(d > r, r / np.maximum(d, 1e-300), 1.0)
    q = c + v * scale[:, None]
    n, c0 = H[:, :2], H[:, 2]
    bad = np.einsum("ij,ij->i", n, q) < c0 - 1e-15
    if bad.any():
        off = c0 - np.einsum("ij,ij->i", n, c)
        m = c + n * off[:, None]
        half = np.sqrt(np.maximum(r * r - off * off, 0.0))
        t = np.stack([-n[:, 1], n[:, 0]], 1)
        s = np.clip(np.einsum("ij,ij->i", pt - m, t), -half, half)
        q = np.where(bad[:, None], m + t * s[:, None], q)
    return q


def _centres(V: np.ndarray) -> np.ndarray:
    """The mean of each patch's vertices, NaN for an empty patch (all NaN): np.nanmean's
    values, without its cost where no patch is partly NaN (the patches are padded by
    repeating a vertex, so none is)."""
    m = V.mean(1)
    part = np.isnan(m[:, 0]) & ~np.isnan(V[:, :, 0]).all(1)
    if part.any():
        m[part] = np.nanmean(V[part], 1)
    return m


def _project_corners(V: np.ndarray, sel: np.ndarray, D: np.ndarray, H: np.ndarray, count: int) -> list[np.ndarray]:
    """:func:`_project` of the corners ``0 .. count - 1`` of the patches ``V[sel]``, in one
    call: one (len(sel), 2) array per corner."""
    m = len(sel)
    pts = V[sel, :count].transpose(1, 0, 2).reshape(-1, 2)
    return list(_project(pts, np.tile(D[sel], (count, 1)), np.tile(H[sel], (count, 1))).reshape(count, m, 2))


def _box_meets_region(box: np.ndarray, D: np.ndarray, H: np.ndarray) -> np.ndarray:
    cx = np.clip(D[:, 0], box[:, 0], box[:, 2])
    cy = np.clip(D[:, 1], box[:, 1], box[:, 3])
    near = np.hypot(cx - D[:, 0], cy - D[:, 1]) <= D[:, 2] + 1e-12
    nx, ny, c0 = H.T
    hi = np.maximum(nx * box[:, 0], nx * box[:, 2]) + np.maximum(ny * box[:, 1], ny * box[:, 3])
    return near & (hi >= c0 - 1e-12)


def _support(verts: np.ndarray, D: np.ndarray, a: np.ndarray) -> np.ndarray:
    """Upper bound of the support function of a patch (its polygon ∩ its disc) in
    directions ``a`` (rows, K, 2)."""
    hv = np.max(a[..., 0, None] * verts[:, None, :, 0] + a[..., 1, None] * verts[:, None, :, 1], -1)
    hd = a[..., 0] * D[:, None, 0] + a[..., 1] * D[:, None, 1] + D[:, None, 2] * np.hypot(a[..., 0], a[..., 1])
    return np.minimum(hv, hd)


def _corners(box: np.ndarray) -> np.ndarray:
    x0, y0, x1, y1 = box.T
    return np.stack([np.stack([x0, y0], 1), np.stack([x1, y0], 1), np.stack([x1, y1], 1), np.stack([x0, y1], 1)], 1)


def clip_polygons_many(verts: np.ndarray, n: np.ndarray, c0: np.ndarray) -> np.ndarray:
    """:func:`.kernels.clip_polygons` in numpy, for many rows at once: every query's patches
    (a process that never reaches the chain test never loads the compiled kernels)."""
    rows, V, _ = verts.shape
    side = verts[..., 0] * n[:, 0:1] + verts[..., 1] * n[:, 1:2] - c0[:, None]
    nx = _next_index(V)
    nxt = verts[:, nx]
    sn = side[:, nx]
    inside = side >= 0
    cross = inside != (sn >= 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = side / (side - sn)
        hit = verts + (nxt - verts) * t[..., None]
    both = np.empty((rows, V, 2, 2))
    both[:, :, 0] = np.where(inside[..., None], verts, np.nan)
    both[:, :, 1] = np.where(cross[..., None], hit, np.nan)
    cand = both.reshape(rows, 2 * V, 2)
    valid = np.stack([inside, cross], 2).reshape(rows, 2 * V)
    # compact the valid candidates to the front (stable), pad with the first one
    pos = np.cumsum(valid, 1) - 1
    count = pos[:, -1] + 1
    out = np.full((rows, V + 1, 2), np.nan)
    r, j = np.nonzero(valid & (pos <= V))
    out[r, pos[r, j]] = cand[r, j]
    pad = np.arange(V + 1)[None, :] >= count[:, None]
    out = np.where(pad[..., None], out[:, :1], out)
    return out


def _patches(box: np.ndarray, D: np.ndarray, H: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Convex polygons containing box ∩ region: the box cut by the region's half-plane
    and by the disc's tangent facing the box. Returns (vertices (rows, 6, 2), non-empty)."""
    if kernels.wanted(len(box)):
        return kernels.patches(box, D, H)
    corners = _corners(box)
    verts = np.concatenate([corners, corners[:, :2]], 1)  # 6 slots, padded by repetition
    behind = np.any(np.einsum("rvj,rj->rv", corners, H[:, :2]) < H[:, 2:3], 1)
    outside = np.any(np.hypot(corners[..., 0] - D[:, 0:1], corners[..., 1] - D[:, 1:2]) > D[:, 2:3], 1)
    cut = np.flatnonzero(behind | outside)
    if len(cut):
        v = clip_polygons_many(corners[cut], H[cut, :2], H[cut, 2])
        mid = (box[cut, :2] + box[cut, 2:]) / 2 - D[cut, :2]
        d = np.hypot(mid[:, 0], mid[:, 1])
        u = np.where(d[:, None] > 1e-12, -mid / np.maximum(d, 1e-300)[:, None], 0.0)
        c0 = np.where(d > 1e-12, np.einsum("ij,ij->i", u, D[cut, :2]) - D[cut, 2], -_BIG)
        verts[cut] = clip_polygons_many(v, u, c0)
    return verts, ~np.isnan(verts[:, 0, 0])


# ---------------------------------------------------------------------------------------
# The tests, vectorised over rows (bundle × candidate obstacle piece)
# ---------------------------------------------------------------------------------------

def _clip(num: np.ndarray, den: np.ndarray, lo: float | np.ndarray = 0.0, hi: float | np.ndarray = 1.0):
    """Interval of t with t·den < num for every column (open), intersected with [lo, hi]."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = num / den
    upper = np.where(den > 0, ratio, np.inf)
    lower = np.where(den < 0, ratio, -np.inf)
    never = (den == 0) & (num <= 0)
    t0 = np.maximum(np.max(lower, -1), lo)
    t1 = np.minimum(np.min(upper, -1), hi)
    t1 = np.where(np.any(never, -1), -np.inf, t1)
    return t0, t1


def _heights_block(t0, t1, zP, zQ, z0, z1, sealed):
    """True where, for every t in [t0, t1], every segment is below z1 and not under z0."""
    def top(t):
        return (1 - t) * zP[:, 1] + t * zQ[:, 1]

    def bot(t):
        return (1 - t) * zP[:, 0] + t * zQ[:, 0]

    need = z0 + np.where(sealed, 0.0, ETA)
    return (np.maximum(top(t0), top(t1)) < z1) & (np.minimum(bot(t0), bot(t1)) >= need)


def _containment_blocks(t0, t1, zP, zQ, z0, z1, sealed):
    """True where some t in the open (t0, t1) has every segment below z1 and not under z0."""
    dtop = zQ[:, 1] - zP[:, 1]
    dbot = zQ[:, 0] - zP[:, 0]
    need = z0 + np.where(sealed, 0.0, ETA)
    # (1-t) zP1 + t zQ1 < z1  <=>  t * dtop < z1 - zP1 ;  bot >= need  <=>  -t * dbot <= zP0 - need
    num = np.stack([z1 - zP[:, 1], zP[:, 0] - need + 1e-15], -1)
    den = np.stack([dtop, -dbot], -1)
    a, b = _clip(num, den, t0, t1)
    return b - a > 1e-12


@dataclass
class _Rows:
    bundle: np.ndarray  # row -> bundle index
    piece: np.ndarray  # row -> piece index
    owner: np.ndarray  # row -> owner index


def _subset(rows: _Rows, bundles: np.ndarray) -> _Rows:
    """The rows of the given bundles, renumbered 0..len(bundles)-1."""
    new = np.full(int(rows.bundle.max(initial=-1)) + 2 + int(bundles.max(initial=0)), -1)
    new[bundles] = np.arange(len(bundles))
    nb = new[rows.bundle]
    keep = nb >= 0
    return _Rows(nb[keep], rows.piece[keep], rows.owner[keep])


def _near_segment(c: np.ndarray, a: np.ndarray, d: np.ndarray, pad: np.ndarray | float,
                  lo: np.ndarray | float = 0.0, hi: np.ndarray | float = 1.0) -> np.ndarray:
    """Row by row, whether the circle ``c`` (x, y, r) comes within ``pad`` of the
    segment a + t·d, t in [lo, hi]."""
    if isinstance(lo, float) and isinstance(hi, float) and lo == 0.0 and hi == 1.0 and kernels.wanted(len(c)):
        return kernels.near_segment(c, a, d, pad)
    w = c[:, :2] - a
    t = np.clip(np.einsum("ij,ij->i", w, d) / np.maximum(np.einsum("ij,ij->i", d, d), 1e-300), lo, hi)
    return np.hypot(w[:, 0] - t * d[:, 0], w[:, 1] - t * d[:, 1]) <= c[:, 2] + pad


def _cull(rows: _Rows, obs: Obstacles, vP: np.ndarray, vQ: np.ndarray, cP: np.ndarray, cQ: np.ndarray,
          p: np.ndarray, q: np.ndarray) -> _Rows:
    """Keep the rows whose piece comes near the bundle: its bounding circle meets the
    capsule around the segment between the patch centres (``cP``, ``cQ``) that holds
    both patches."""
    rP = np.maximum(np.nanmax(np.hypot(*(vP - cP[:, None]).transpose(2, 0, 1)), 1), np.hypot(*(p - cP).T))
    rQ = np.maximum(np.nanmax(np.hypot(*(vQ - cQ[:, None]).transpose(2, 0, 1)), 1), np.hypot(*(q - cQ).T))
    b = rows.bundle
    near = _near_segment(obs.piece_circle[rows.piece], cP[b], (cQ - cP)[b], np.maximum(rP, rQ)[b] + 1e-9)
    return _Rows(b[near], rows.piece[near], rows.owner[near])


def _rows(bundle_pair: np.ndarray, pairs: _Pairs, obs: Obstacles) -> _Rows:
    counts = pairs.cand_count[bundle_pair]
    bundle = np.repeat(np.arange(len(bundle_pair)), counts)
    start = np.repeat(pairs.cand_start[bundle_pair], counts)
    offs = np.arange(len(bundle)) - np.repeat(np.cumsum(counts) - counts, counts)
    piece = pairs.cand_owner[start + offs]  # cand_owner holds piece indices
    return _Rows(bundle, piece, obs.piece_owner[piece])


def _crossing(p: np.ndarray, q: np.ndarray, rows: _Rows, obs: Obstacles, margin: float):
    """Open parameter interval where the plan segment p→q is inside each row's piece
    (shrunk by ``margin``; empty, t0 > t1, where it misses). Round owners use their true
    circle."""
    pp, dd = p[rows.bundle], (q - p)[rows.bundle]
    if kernels.wanted(len(pp)):
        return kernels.crossings(pp, dd, rows.piece, obs.owner_circle[rows.owner], obs.halfplanes, obs.piece_circle,
                                 margin)
    near = _near_segment(obs.piece_circle[rows.piece], pp, dd, max(0.0, -margin) + 1e-9)  # (only these are solved)
    circ = obs.owner_circle[rows.owner]
    round_ = ~np.isnan(circ[:, 0])
    t0, t1 = np.ones(len(pp)), np.zeros(len(pp))
    poly = np.flatnonzero(~round_ & near)  # (a round piece's half-planes are only padding)
    if len(poly):
        hp = obs.halfplanes[rows.piece[poly]]
        a, b = hp[..., :2], hp[..., 2]
        num = b - margin - np.einsum("rkj,rj->rk", a, pp[poly])
        den = np.einsum("rkj,rj->rk", a, dd[poly])
        t0[poly], t1[poly] = _clip(num, den)
    round_ &= near
    if round_.any():
        c, R = circ[round_, :2], circ[round_, 2] - margin
        p0, d0 = pp[round_], dd[round_]
        A = np.einsum("ij,ij->i", d0, d0)
        B = 2 * np.einsum("ij,ij->i", d0, p0 - c)
        C = np.einsum("ij,ij->i", p0 - c, p0 - c) - R * R
        disc = B * B - 4 * A * C
        with np.errstate(divide="ignore", invalid="ignore"):
            sq = np.sqrt(np.maximum(disc, 0))
            r1, r2 = (-B - sq) / (2 * A), (-B + sq) / (2 * A)
        point = A < 1e-24
        lo = np.where(point, np.where(C < 0, 0.0, 1.0), np.where(disc > 0, np.maximum(r1, 0.0), 1.0))
        hi = np.where(point, np.where(C < 0, 1.0, 0.0), np.where(disc > 0, np.minimum(r2, 1.0), 0.0))
        t0[round_], t1[round_] = lo, hi
    return t0, t1


# ---------------------------------------------------------------------------------------
# The search
# ---------------------------------------------------------------------------------------

def corridor_owners(obs: Obstacles, P: np.ndarray, Q: np.ndarray, zP: np.ndarray, zQ: np.ndarray,
                    own_p: np.ndarray, own_q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(pair, owner) index arrays of the solids that may block pair i, from discs ``P[i]``
    to ``Q[i]`` (x, y, r) over heights ``zP[i]`` and ``zQ[i]`` (z0, z1); the pair's own
    solids ``own_p[i]`` and ``own_q[i]`` are left out. The segments stay inside the capsule
    round the centre line with the larger radius: one STRtree query with its bounding box,
    then the owners whose bounding circle meets the capsule and whose blocking range
    overlaps the heights the segments can take."""
    n = len(P)
    if not (obs.n_owners and n):
        return np.zeros(0, int), np.zeros(0, int)
    rad = np.maximum(P[:, 2], Q[:, 2]) + 1e-6
    boxes = shapely.box(np.minimum(P[:, 0], Q[:, 0]) - rad, np.minimum(P[:, 1], Q[:, 1]) - rad,
                        np.maximum(P[:, 0], Q[:, 0]) + rad, np.maximum(P[:, 1], Q[:, 1]) + rad)
    qi, oi = obs.tree.query(boxes)
    near = _near_segment(obs.owner_bound[oi], P[qi, :2], Q[qi, :2] - P[qi, :2], rad[qi])
    lo = np.minimum(zP[:, 0], zQ[:, 0])[qi]
    hi = np.maximum(zP[:, 1], zQ[:, 1])[qi]
    keep = near & (obs.owner_z1[oi] > lo) & (obs.owner_z0[oi] < hi) & (oi != own_p[qi]) & (oi != own_q[qi])
    return qi[keep], oi[keep]


def _pair_values(sources: Sequence[Viewer], targets: Sequence[Viewer], facings: Sequence[tuple[float, float] | None]
                 ) -> tuple[np.ndarray, ...]:
    """The pairs' discs P and Q (x, y, r), front half-planes H (nx, ny, c0; none: c0 =
    -BIG), heights zP and zQ (z0, z1), own owners, and whether each is out of arc."""
    S, T = Viewers.of(sources).rows, Viewers.of(targets).rows
    H = _halfplanes(S, facings)
    P, Q, zP, zQ = _ends(S, T)
    # E-ARC: the target must reach into the front half-plane (a pair out of arc is answered
    # before any candidate is looked at: none is looked up; the compiled round tests it so)
    arc = H[:, 0] * Q[:, 0] + H[:, 1] * Q[:, 1] + Q[:, 2] - H[:, 2] < -1e-12
    return P, Q, H, zP, zQ, S[:, 5].astype(int), T[:, 5].astype(int), arc


def _halfplanes(S: np.ndarray, facings: Sequence[tuple[float, float] | None]) -> np.ndarray:
    """The front half-planes H (nx, ny, c0; none: c0 = -BIG) of the sources ``S`` (viewer
    rows) facing ``facings``."""
    n = len(S)
    H = np.zeros((n, 3))
    faced = [i for i, f in enumerate(facings) if f is not None]
    if len(faced) == n:  # (every source faced: no rows picked)
        H[:, :2] = np.array(facings, float).reshape(-1, 2)
        H[:, 2] = H[:, 0] * S[:, 0] + H[:, 1] * S[:, 1]
    else:
        H[:, 2] = -_BIG
        if faced:
            F = np.array([facings[i] for i in faced], float).reshape(-1, 2)
            H[faced] = np.column_stack([F, F[:, 0] * S[faced, 0] + F[:, 1] * S[faced, 1]])
    return H


def _ends(S: np.ndarray, T: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The discs P and Q (x, y, r) and heights zP and zQ (z0, z1) of the sources ``S`` and
    targets ``T`` (viewer rows)."""
    P, Q = np.ascontiguousarray(S[:, :3]), np.ascontiguousarray(T[:, :3])  # (C arrays: the kernels' signature)
    zP, zQ = S[:, 3:5].copy(), T[:, 3:5].copy()  # (z, h) made (z, z + h)
    zP[:, 1] += zP[:, 0]
    zQ[:, 1] += zQ[:, 0]
    return P, Q, zP, zQ


def _pairs_arrays(obs: Obstacles, sources: Sequence[Viewer], targets: Sequence[Viewer],
                  facings: Sequence[tuple[float, float] | None]) -> _Pairs:
    n = len(sources)
    P, Q, H, zP, zQ, own_p, own_q, arc = _pair_values(sources, targets, facings)
    live = np.flatnonzero(~arc)
    qi, oi = corridor_owners(obs, P[live], Q[live], zP[live], zQ[live], own_p[live], own_q[live])
    qi = live[qi]
    # expand owners to pieces
    npc = obs.owner_npieces[oi]
    pair_of_piece = np.repeat(qi, npc)
    piece = np.repeat(obs.owner_pieces_start[oi], npc) + (np.arange(npc.sum()) - np.repeat(np.cumsum(npc) - npc, npc))
    order = np.lexsort((piece, pair_of_piece))  # (per pair in piece order: as the compiled first round has them)
    pair_of_piece, piece = pair_of_piece[order], piece[order]
    count = np.bincount(pair_of_piece, minlength=n)
    start = np.concatenate([[0], np.cumsum(count)[:-1]]).astype(int)
    return _Pairs(P, Q, H, zP, zQ, start, count, piece, arc)


def line_of_sight_batch(obs: Obstacles, sources: Sequence[Viewer], targets: Sequence[Viewer],
                        facings: Sequence[tuple[float, float] | None], *,
                        tolerance: float = DEFAULT_TOLERANCE,
                        resolution: float | None = None, any_of: np.ndarray | None = None) -> list[LosAnswer]:
    """Solve many pairs at once. ``facings[i]`` is the source's facing unit vector
    (its front half only: E-ARC) or None for the whole disc (E-LOS-MOVE).

    ``tolerance`` is the clearance ε of E-LOS: every solid of ``obs`` is grown by ε
    (:meth:`Obstacles.grown`) and a witness meets none of the grown solids.
    ``resolution`` (default ε) is the width below which a set of clear sight lines
    counts as thin (the certificate's band of doubt).

    ``any_of`` (int per pair; -1: wanted): the pairs of a group k >= 0 are asked only
    whether one of them is visible. A pair of a group the first round already shows
    visible, which that round leaves open, is not solved further: its answer is
    :data:`MOOT` (every other answer is the pair's own; where the first round is not
    compiled every pair is solved)."""
    n = len(sources)
    if obs.grown_by == 0:  # (an already grown set is taken as it is)
        obs = obs.grown(tolerance)
    # a bundle this small whose centre segment is blocked proves its segments thin: each one
    # lies within `resolution` of a blocked segment (the grown joins may overshoot by 2 %)
    thin = (tolerance if resolution is None else resolution) * (2.0 - GROW_FACTOR)
    if n and MAX_BUNDLES_PER_PAIR >= 1 and kernels.wanted(n * max(obs.n_owners, 1)):
        return _first_round_compiled(obs, sources, targets, facings, thin, any_of)
    return _search(obs, sources, targets, facings, thin)


#: The stage of a pair the compiled first round proves blocked, by its kind (1, 2, 3: both
#: kinds, a subdivision).
_ROUND_ONE_STAGES: tuple[Stage, ...] = ("separator", "containment", "subdivision")


def _first_round_compiled(obs: Obstacles, sources: Sequence[Viewer], targets: Sequence[Viewer],
                          facings: Sequence[tuple[float, float] | None], thin: float,
                          any_of: np.ndarray | None = None) -> list[LosAnswer]:
    """:func:`line_of_sight_batch` with its first round compiled (:func:`.kernels.round_one`),
    then the chain test on the pairs it hands on (:func:`_chain_round`): the same answers,
    bit for bit. The pairs still open are searched as before (:func:`_search`), but for
    the moot ones of ``any_of``."""
    n = len(sources)
    S, T = Viewers.of(sources).rows, Viewers.of(targets).rows
    H = _halfplanes(S, facings)
    arc, status, wit, kinds, proof_at, proof, first, count, piece, owner, vP, vQ = kernels.round_one(
        S, T, H, thin, obs.owner_box, obs, ETA, _BIG, CORNER_CANDIDATES)
    # (on lists: a batch is a few dozen pairs; the kernel's status is 0 for a pair out of arc)
    arcs, st = arc.tolist(), status.tolist()
    results: list[LosAnswer | None] = [OUT_OF_ARC if a else None for a in arcs]  # E-ARC
    if any_of is not None:
        groups = any_of.tolist()
        saw = {g for g, s in zip(groups, st) if s == 1 and g >= 0}  # the groups with a pair shown visible
        for i, g in enumerate(groups):
            if (st[i] == 0 or st[i] == 3) and not arcs[i] and g in saw:
                results[i] = MOOT
                st[i] = 4  # (answered: not handed on)
    chain = np.array([i for i, s in enumerate(st) if s == 3] if CHAIN_AFTER <= 1 and MAX_CHAIN_TESTS_PER_PAIR >= 1
                     else [], int)
    if len(chain):  # the chain test of the first round, on the rows and patches found there
        cnt = count[chain]
        start = cnt.cumsum() - cnt
        at = np.repeat(first[chain] - start, cnt) + np.arange(cnt.sum())
        rows = _Rows(np.repeat(np.arange(len(chain)), cnt), piece[at], owner[at])
        Sc, Tc = S[chain], T[chain]
        P, Q, zP, zQ = _ends(Sc, Tc)
        pairs = _Pairs(P, Q, H[chain], zP, zQ, start, cnt, rows.piece, np.zeros(len(chain), bool))
        for i, r in zip(chain.tolist(), _chain_round(obs, pairs, rows, vP[chain], vQ[chain], thin, Viewers(Sc),
                                                     Viewers(Tc))):  # (a Viewer made only where a witness is tried)
            results[i] = r
    seen = [i for i, s in enumerate(st) if s == 1]
    for i, w in zip(seen, wit[seen].tolist()):
        results[i] = _witnessed(w)
    blocked = [i for i, s in enumerate(st) if s == 2]
    if blocked:
        who, ends, kind = proof.tolist(), proof_at.tolist(), kinds.tolist()
        for i in blocked:
            results[i] = _round_one_blocked(kind[i], tuple(who[ends[i]:ends[i + 1]]))
    results = _stacked(obs, results)
    rest = [i for i in range(n) if results[i] is None]
    if rest:  # (a pair whose chain test above left it open goes on from there: not tested again)
        tested = np.isin(rest, chain)
        for i, r in zip(rest, _search(obs, [sources[i] for i in rest], [targets[i] for i in rest],
                                      [facings[i] for i in rest], thin, tested)):
            results[i] = r
    return [r for r in results if r is not None]


@lru_cache(maxsize=4096)
def _round_one_blocked(kind: int, blockers: tuple[int, ...]) -> LosAnswer:
    """The answer to a pair the compiled first round proves blocked, by the proof's
    ``kind`` and solids: one value each, shared (answers are immutable, and most pairs a
    batch proves blocked name the same solid)."""
    return LosAnswer(False, _ROUND_ONE_STAGES[kind - 1], blockers=blockers, bundles=1)


def _chain_round(obs: Obstacles, pairs: _Pairs, rows: _Rows, vP: np.ndarray, vQ: np.ndarray, thin: float,
                 sources: Sequence[Viewer], targets: Sequence[Viewer]) -> list[LosAnswer | None]:
    """The chain test of the first round of :func:`_search` on whole pairs that no single
    solid proves blocked and no witness candidate clears (``rows``: their pieces, by pair;
    ``vP``, ``vQ``: their patches), with the same answers: a witness on an escaping line,
    or the proof; None where the search must go on (the bundle is split)."""
    chains = _chains(np.arange(len(vP)), rows, obs, vP, vQ, pairs.P, pairs.Q, pairs.zP, pairs.zQ, 0.99 * thin)
    lines = [(k, ln) for k, ch in enumerate(chains) if (ln := ch.escape) is not None]
    on_line = dict(zip([k for k, _ in lines], _line_witnesses([(ln, k) for k, ln in lines], pairs, obs, sources,
                                                              targets)))
    out: list[LosAnswer | None] = []
    for k, ch in enumerate(chains):
        found = on_line.get(k)
        if found is not None:
            out.append(LosAnswer(True, "witness", witness=found, bundles=1))
            continue
        if ch.widened is not None:  # no witness on its line: is the bundle thin?
            ch = ch.widened()
        if ch.blocked:
            out.append(LosAnswer(False, "subdivision" if ch.thin else "separator",
                                 blockers=tuple(_proof_owners(rows, k, ch)), bundles=1))
        else:
            out.append(None)
    return out


def _proof_owners(rows: _Rows, k: int, ch: Chain) -> list[int]:
    """The owners (sorted) of the solids in bundle ``k``'s chain proof ``ch`` (the bundle's
    rows are one run: rows are sorted by bundle)."""
    lo, hi = np.searchsorted(rows.bundle, (k, k + 1)).tolist()
    return sorted(set(rows.owner[lo:hi][ch.used].tolist()))


def _stacked(obs: Obstacles, results: list[LosAnswer | None]) -> list[LosAnswer | None]:
    """A stack of two solids (a grown set's owner) reports its members; the others stand for themselves."""
    stack0 = obs.first_stack
    if stack0 >= obs.n_owners:
        return results
    return [r if r is None or not r.blockers or r.blockers[-1] < stack0 else
            replace(r, blockers=tuple(sorted({m for o in r.blockers for m in obs.members[o]})))
            for r in results]


def _search(obs: Obstacles, sources: Sequence[Viewer], targets: Sequence[Viewer],
            facings: Sequence[tuple[float, float] | None], thin: float, tested: np.ndarray | None = None
            ) -> list[LosAnswer]:
    """The search of :func:`line_of_sight_batch` (numpy, with the compiled kernels where
    they are loaded), on the grown obstacles ``obs``. ``tested``: the pairs whose first
    round's chain test is known to leave them open (:func:`_chain_round`): it counts, and
    is not run again."""
    n = len(sources)
    pairs = _pairs_arrays(obs, sources, targets, facings)
    results: list[LosAnswer | None] = [None] * n
    for ii in np.flatnonzero(pairs.out_of_arc):  # E-ARC
        results[int(ii)] = OUT_OF_ARC
    live = np.array([r is None for r in results], bool)
    bp = np.flatnonzero(live)
    bP = _region_bbox(pairs.P[bp], pairs.H[bp])
    bQ = _region_bbox(pairs.Q[bp], pairs.H[bp])
    blockers: list[set[int]] = [set() for _ in range(n)]
    stage_of: list[set[str]] = [set() for _ in range(n)]
    examined = np.zeros(n, int)
    chained = np.zeros(n, int)
    while len(bp):
        examined += np.bincount(bp, minlength=n)
        over = examined > MAX_BUNDLES_PER_PAIR
        if over.any():
            for ii in np.flatnonzero(over):
                i = int(ii)
                if results[i] is None:
                    results[i] = LosAnswer(False, "undecided", blockers=tuple(sorted(blockers[i])),
                                           bundles=int(examined[i]))
            keep = ~over[bp]
            bp, bP, bQ = bp[keep], bP[keep], bQ[keep]
            if not len(bp):
                break
        D_P, D_Q, H = pairs.P[bp], pairs.Q[bp], pairs.H[bp]
        zP, zQ = pairs.zP[bp], pairs.zQ[bp]
        vP, okP = _patches(bP, D_P, H)
        vQ, okQ = _patches(bQ, D_Q, H)
        gone = ~(okP & okQ)  # the box misses the region: nothing to prove there
        # the candidate segment of each bundle joins the region points nearest the patch centres
        cP, cQ = _centres(vP), _centres(vQ)
        p = _project(cP if not gone.all() else bP[:, :2], D_P, H)
        q = _project(cQ if not gone.all() else bQ[:, :2], D_Q, H)
        rows = _cull(_rows(bp, pairs, obs), obs, vP, vQ, cP, cQ, p, q)
        blocked = gone.copy()
        # only a solid that rises above the lower of the two tops can block every segment
        tall = obs.owner_z1[rows.owner] > np.minimum(zP[rows.bundle, 1], zQ[rows.bundle, 1])
        tall_rows = _Rows(rows.bundle[tall], rows.piece[tall], rows.owner[tall])
        if len(tall_rows.bundle):
            by = _blocked_rows(tall_rows, obs, vP, vQ, cP, cQ, D_P, D_Q, zP, zQ)
            covering = by.pop("with")  # pieces that cover a separator line with its own: named too
            for bb, o in zip(bp[tall_rows.bundle[covering]], tall_rows.owner[covering]):
                blockers[bb].add(int(o))
            for kind, hit in by.items():
                blocked[tall_rows.bundle[hit]] = True
                for b, o in zip(bp[tall_rows.bundle[hit]], tall_rows.owner[hit]):
                    blockers[b].add(int(o))
                    stage_of[b].add(kind)
        small = np.maximum(np.hypot(bP[:, 2] - bP[:, 0], bP[:, 3] - bP[:, 1]),
                           np.hypot(bQ[:, 2] - bQ[:, 0], bQ[:, 3] - bQ[:, 1])) < thin
        # witness candidates for the bundles not proven blocked
        open_ = np.flatnonzero(~blocked)
        if len(open_):
            # candidates: the centre segment, then segments between the patches' matching corners
            cp = [p[open_]] + _project_corners(vP, open_, D_P, H, CORNER_CANDIDATES)
            cq = [q[open_]] + _project_corners(vQ, open_, D_Q, H, CORNER_CANDIDATES)
            okc, culprit, wit = _try_witnesses(open_, cp, cq, rows, obs, zP, zQ, bp, results, sources, targets)
            ok = okc[: len(open_)]
            for i, seg in wit.items():
                results[i] = LosAnswer(True, "witness", witness=seg, bundles=int(examined[i]))
            for kk in np.flatnonzero(~ok):
                k = int(kk)
                if small[open_[k]]:
                    i = int(bp[open_[k]])
                    blockers[i].update(culprit[k])
                    stage_of[i].add("subdivision")
        done_pair = np.array([results[i] is not None for i in bp], bool)
        split = ~blocked & ~done_pair & ~small
        # before the chain test (the costly step), a denser grid of witness candidates:
        # every patch corner and the centre on each side
        first = np.flatnonzero(split & (examined[bp] >= CHAIN_AFTER) & (chained[bp] == 0))
        if len(first):
            gp = _project_corners(vP, first, D_P, H, vP.shape[1]) + [p[first]]
            gq = _project_corners(vQ, first, D_Q, H, vQ.shape[1]) + [q[first]]
            cp = [a for a in gp for _ in gq]
            cq = [b for _ in gp for b in gq]
            _, _, wit = _try_witnesses(first, cp, cq, rows, obs, zP, zQ, bp, results, sources, targets)
            for i, seg in wit.items():
                results[i] = LosAnswer(True, "witness", witness=seg, bundles=int(examined[i]))
        # the chain tests of this round, all at once: every open bundle whose pair is within
        # the work bound (some may go unused when a sibling bundle finds a witness first)
        todo: list[int] = []
        budget = chained.copy()
        for kk in np.flatnonzero(split):
            i = int(bp[kk])
            if tested is not None and tested[i] and chained[i] == 0:
                continue
            if results[i] is None and examined[i] >= CHAIN_AFTER and budget[i] < MAX_CHAIN_TESTS_PER_PAIR:
                budget[i] += 1
                todo.append(int(kk))
        chains = dict(zip(todo, _chains(np.array(todo, int), rows, obs, vP, vQ, D_P, D_Q, zP, zQ, 0.99 * thin)))
        # the escaping lines they found, tried as witnesses together
        lines = [(k, ln) for k in todo if (ln := chains[k].escape) is not None]
        on_line = dict(zip([k for k, _ in lines], _line_witnesses([(ln, int(bp[k])) for k, ln in lines],
                                                                  pairs, obs, sources, targets)))
        for kk in np.flatnonzero(split):
            k = int(kk)
            i = int(bp[k])
            if results[i] is not None:
                split[k] = False
                continue
            if examined[i] < CHAIN_AFTER:
                continue
            if chained[i] >= MAX_CHAIN_TESTS_PER_PAIR:  # the work bound: give up honestly
                results[i] = LosAnswer(False, "undecided", blockers=tuple(sorted(blockers[i])),
                                       bundles=int(examined[i]))
                split[k] = False
                continue
            chained[i] += 1
            if k not in chains:  # (tested before: open)
                continue
            ch = chains[k]
            if ch.escape is not None:
                found = on_line[k]
                if found is not None:
                    results[i] = LosAnswer(True, "witness", witness=found, bundles=int(examined[i]))
                    split[k] = False
                    continue
            if ch.widened is not None:  # no witness on its line: is the bundle thin?
                ch = ch.widened()
            if ch.blocked:
                split[k] = False
                blockers[i].update(_proof_owners(rows, k, ch))
                stage_of[i].add("subdivision" if ch.thin else "separator")
        bp, bP, bQ = _split(bp[split], bP[split], bQ[split], pairs)
    for i in range(n):
        if results[i] is None:
            st: Stage = "subdivision" if "subdivision" in stage_of[i] or len(stage_of[i]) > 1 or examined[i] > 1 \
                else ("separator" if "separator" in stage_of[i] else "containment")
            results[i] = LosAnswer(False, st, blockers=tuple(sorted(blockers[i])), bundles=int(examined[i]))
    return [r for r in _stacked(obs, results) if r is not None]


def _try_witnesses(sel: np.ndarray, cp: list[np.ndarray], cq: list[np.ndarray], rows: _Rows, obs: Obstacles,
                   zP: np.ndarray, zQ: np.ndarray, bp: np.ndarray, results: list[LosAnswer | None],
                   sources: Sequence[Viewer], targets: Sequence[Viewer]
                   ) -> tuple[np.ndarray, _Culprits, dict[int, Segment3]]:
    """Try the candidate plan segments ``cp[c][k] → cq[c][k]`` for the bundles ``sel[k]``
    (each with the best end heights, :func:`_witness_heights`). Returns whether each
    candidate clears (candidate-major), the culprits of those that do not, and a witness
    per pair still open."""
    sub = _subset(rows, sel)
    m = len(sel)
    nc = len(cp)
    rows_c = _Rows(np.concatenate([sub.bundle + c * m for c in range(nc)]), np.tile(sub.piece, nc),
                   np.tile(sub.owner, nc))
    pc, qc = np.concatenate(cp), np.concatenate(cq)
    okc, heights, culprit = _witness_heights(rows_c, nc * m, pc, qc, obs, np.tile(zP[sel], (nc, 1)),
                                             np.tile(zQ[sel], (nc, 1)))
    seams = _touches_a_seam(rows_c, nc * m, pc, qc, obs)
    wit: dict[int, Segment3] = {}
    for jj in np.flatnonzero(okc):
        j = int(jj)
        i = int(bp[sel[j % m]])
        if results[i] is None and i not in wit:
            seg = _witness(obs, pc, qc, heights, j, bool(seams[j]), sources[i], targets[i])
            if seg is not None:
                wit[i] = seg
    return okc, culprit, wit


def _witness(obs: Obstacles, p: np.ndarray, q: np.ndarray, heights: np.ndarray, j: int, seam: bool,
             s: Viewer, t: Viewer) -> Segment3 | None:
    """Candidate ``j`` (plan ``p[j] → q[j]``, end heights ``heights[j]``, clear of every
    piece) as a witness segment. Convex pieces and circles are exact; only a line running
    along the ``seam`` between two pieces of one footprint needs the whole-footprint check."""
    u, v = heights[j]
    seg: Segment3 = ((float(p[j, 0]), float(p[j, 1]), float(u)), (float(q[j, 0]), float(q[j, 1]), float(v)))
    return seg if not seam or segment_is_clear(obs, seg, exclude=_excluded(s, t)) else None


def _chains(ks: np.ndarray, rows: _Rows, obs: Obstacles, vP, vQ, D_P, D_Q, zP, zQ, widen: float) -> list[Chain]:
    """The chain test (:mod:`.los_chain`) on the bundles ``ks`` (increasing), each with its
    candidate pieces, in one call."""
    if not len(ks):
        return []
    local = np.full(len(vP), -1)
    local[ks] = np.arange(len(ks))
    rb = local[rows.bundle]
    sel = rb >= 0  # (rows are sorted by bundle)
    piece = rows.piece[sel]
    owner = obs.piece_owner[piece]
    return chain_blocks_many(vP[ks], vQ[ks], D_P[ks], D_Q[ks], zP[ks], zQ[ks], rb[sel], obs.verts(piece),
                             obs.owner_z0[owner], obs.owner_z1[owner], obs.owner_sealed[owner], ETA, widen, lazy=True)


def _chord(o: np.ndarray, u: np.ndarray, D: np.ndarray, H: np.ndarray) -> list[np.ndarray]:
    """Three points (the ends, nudged inwards, and the middle) of the part of the line
    o + s·u inside the disc D ∩ half-plane H; none when the line misses it."""
    w = D[:2] - o
    sc = float(w @ u)
    h2 = D[2] ** 2 - (float(w @ w) - sc * sc)
    if h2 <= 0:
        return []
    half = math.sqrt(h2)
    lo, hi = sc - half, sc + half
    hn, c0 = H[:2], H[2]
    den = float(hn @ u)
    num = c0 - float(hn @ o)  # need s·den >= num
    if abs(den) < 1e-15:
        if num > 1e-12:
            return []
    elif den > 0:
        lo = max(lo, num / den)
    else:
        hi = min(hi, num / den)
    if hi < lo:
        return []
    return [o + u * (lo + f * (hi - lo)) for f in (0.5, 0.02, 0.98)]


def _line_witnesses(items: list[tuple[tuple[np.ndarray, np.ndarray], int]], pairs: _Pairs, obs: Obstacles,
                    sources: Sequence[Viewer], targets: Sequence[Viewer]) -> list[Segment3 | None]:
    """For each (escaping line the chain test found, pair ``i``): a witness on that line,
    if its heights clear; all items in one vectorised pass. The ends tried are where the
    line meets the two regions: middles first, then the far and near ends (a longer or
    shorter segment on the same line may clear other heights)."""
    P_: list[np.ndarray] = []
    Q_: list[np.ndarray] = []
    seg_pair: list[int] = []
    span: list[tuple[int, int]] = []
    for (o, u), i in items:
        ps, qs = _chord(o, u, pairs.P[i], pairs.H[i]), _chord(o, u, pairs.Q[i], pairs.H[i])
        lo = len(seg_pair)
        if ps and qs:
            P_ += [a for a in ps for _ in qs]
            Q_ += [b for _ in ps for b in qs]
            seg_pair += [i] * (len(ps) * len(qs))
        span.append((lo, len(seg_pair)))
    out: list[Segment3 | None] = [None] * len(items)
    if not seg_pair:
        return out
    sp = np.array(seg_pair, int)
    P, Q = np.array(P_), np.array(Q_)
    n = len(sp)
    rows = _rows(sp, pairs, obs)  # each segment with its pair's candidate pieces
    ok, heights, _ = _witness_heights(rows, n, P, Q, obs, pairs.zP[sp], pairs.zQ[sp])
    seams = _touches_a_seam(rows, n, P, Q, obs)
    for t, ((_, i), (lo, hi)) in enumerate(zip(items, span)):
        for j in range(lo, hi):
            if ok[j] and (seg := _witness(obs, P, Q, heights, j, bool(seams[j]), sources[i], targets[i])) is not None:
                out[t] = seg
                break
    return out


def _excluded(s: Viewer, t: Viewer) -> tuple[int, ...]:
    return tuple(o for o in (s.owner, t.owner) if o >= 0)


def _halve(box: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Cut each box in two across its longer side."""
    wide = (box[:, 2] - box[:, 0]) >= (box[:, 3] - box[:, 1])
    midx = (box[:, 0] + box[:, 2]) / 2
    midy = (box[:, 1] + box[:, 3]) / 2
    a, b = box.copy(), box.copy()
    a[:, 2] = np.where(wide, midx, a[:, 2])
    b[:, 0] = np.where(wide, midx, b[:, 0])
    a[:, 3] = np.where(wide, a[:, 3], midy)
    b[:, 1] = np.where(wide, b[:, 1], midy)
    return a, b


def _split(bp: np.ndarray, bP: np.ndarray, bQ: np.ndarray, pairs: _Pairs):
    """Four children per bundle: both boxes halved across their longer sides (a box
    much smaller than the other is kept whole); halves off the region are dropped."""
    if not len(bp):
        return bp, bP, bQ
    sP = np.maximum(bP[:, 2] - bP[:, 0], bP[:, 3] - bP[:, 1])
    sQ = np.maximum(bQ[:, 2] - bQ[:, 0], bQ[:, 3] - bQ[:, 1])
    p1, p2 = _halve(bP)
    q1, q2 = _halve(bQ)
    keepP = (sP >= sQ / 2)[:, None]
    keepQ = (sQ >= sP / 2)[:, None]
    p2 = np.where(keepP, p2, np.nan)
    q2 = np.where(keepQ, q2, np.nan)
    p1 = np.where(keepP, p1, bP)
    q1 = np.where(keepQ, q1, bQ)
    nbp = np.concatenate([bp] * 4)
    nP = np.concatenate([p1, p1, p2, p2])
    nQ = np.concatenate([q1, q2, q1, q2])
    keep = ~np.isnan(nP[:, 0]) & ~np.isnan(nQ[:, 0])
    nbp, nP, nQ = nbp[keep], nP[keep], nQ[keep]
    keep = (_box_meets_region(nP, pairs.P[nbp], pairs.H[nbp])
            & _box_meets_region(nQ, pairs.Q[nbp], pairs.H[nbp]))
    order = np.argsort(nbp[keep], kind="stable")
    return nbp[keep][order], nP[keep][order], nQ[keep][order]


def _blocked_rows(rows: _Rows, obs: Obstacles, vP, vQ, cP, cQ, D_P, D_Q, zP, zQ) -> dict[str, np.ndarray]:
    """Rows (bundle × piece) whose obstacle provably meets every segment of the bundle
    (``cP``, ``cQ``: the bundles' patch centres)."""
    b = rows.bundle
    z0, z1, sealed = obs.owner_z0[rows.owner], obs.owner_z1[rows.owner], obs.owner_sealed[rows.owner]
    round_ = obs.piece_round[rows.piece]
    P, Q = vP[b], vQ[b]
    fast = kernels.wanted(int((np.bincount(b) ** 2).sum()))
    # containment: the whole combination (1-t)P + tQ inside the piece for t in (t0, t1)
    t0 = np.zeros(len(b))
    t1 = np.zeros(len(b))
    rnd = np.flatnonzero(round_)
    if len(rnd):
        circ = obs.owner_circle[rows.owner[rnd]]
        t0[rnd], t1[rnd] = (kernels.disc_containment if fast else _disc_containment)(P[rnd], Q[rnd], circ)
    if fast:
        contain = kernels.containment(vP, vQ, D_P, D_Q, b, rows.piece, round_, obs.halfplanes, t0, t1, zP, zQ, z0, z1,
                                      sealed, ETA, _BIG)
    else:
        poly = np.flatnonzero(~round_)
        if len(poly):
            hp = obs.halfplanes[rows.piece[poly]]
            a, off = hp[..., :2], hp[..., 2]
            hP = _support(P[poly], D_P[b[poly]], a)
            hQ = _support(Q[poly], D_Q[b[poly]], a)
            pad = off >= _BIG / 2
            t0[poly], t1[poly] = _clip(np.where(pad, 1.0, off - hP), np.where(pad, 0.0, hQ - hP))
        with np.errstate(invalid="ignore"):
            contain = (t1 - t0 > 1e-12) & _containment_blocks(t0, t1, zP[b], zQ[b], z0, z1, sealed)
    # separator lines: through each piece's centroid across the bundle, and along its axis
    axis = obs.piece_axis[rows.piece]
    v = (cQ - cP)[b]
    vn = np.maximum(np.hypot(v[:, 0], v[:, 1]), 1e-300)
    across = np.stack([-v[:, 1] / vn, v[:, 0] / vn], 1)
    sep = np.zeros(len(b), bool)
    named = np.zeros(len(b), bool)  # rows that cover another row's separator line: its proof's solids too
    for d in (across, axis[:, 2:]):
        if fast:
            hit, also = kernels.separators(axis[:, :2], d, b, vP, vQ, zP, zQ, rows.piece, z0, z1, sealed, round_,
                                           obs.halfplanes, obs.piece_circle, ETA)
            named |= also
        else:
            hit, got = _separator(rows, obs, axis[:, :2], d, P, Q, zP[b], zQ[b], z0, z1, sealed, round_)
            named[got[got[:, 0] != got[:, 1], 1]] = True
        sep |= hit
    return {"separator": np.flatnonzero(sep), "containment": np.flatnonzero(contain & ~sep),
            "with": np.flatnonzero(named)}


def _disc_containment(P: np.ndarray, Q: np.ndarray, circ: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Open t-interval where every vertex (1-t)p_i + t q_j of the combination is inside the
    circle (the numpy twin of :func:`.kernels.disc_containment`, for small queries)."""
    c, R = circ[:, None, None, :2], circ[:, None, None, 2]
    a = P[:, :, None, :] - c  # (rows, V, 1, 2)
    e = Q[:, None, :, :] - P[:, :, None, :]  # (rows, V, V, 2)
    A = e[..., 0] ** 2 + e[..., 1] ** 2
    B = 2 * (a[..., 0] * e[..., 0] + a[..., 1] * e[..., 1])
    C = a[..., 0] ** 2 + a[..., 1] ** 2 - R * R
    disc = B * B - 4 * A * C
    with np.errstate(divide="ignore", invalid="ignore"):
        sq = np.sqrt(np.maximum(disc, 0))
        lo = np.where(A > 1e-24, (-B - sq) / (2 * A), np.where(C < 0, -np.inf, np.inf))
        hi = np.where(A > 1e-24, (-B + sq) / (2 * A), np.where(C < 0, np.inf, -np.inf))
    lo = np.where((A > 1e-24) & (disc <= 0), np.inf, lo)
    return np.maximum(lo.max((1, 2)), 0.0), np.minimum(hi.min((1, 2)), 1.0)


def _separator(rows: _Rows, obs: Obstacles, o, d, CP, CQ, zP, zQ, z0, z1, sealed, round_
               ) -> tuple[np.ndarray, np.ndarray]:
    """Rows where the line o + s·d separates the patches and the obstacle covers every
    crossing (the numpy twin of :func:`.kernels.separators`, for small queries).
    Also the (line row, row) pairs of the rows whose chords cover each covered line
    (every solid of its proof)."""
    out = np.zeros(len(o), bool)
    none = np.zeros((0, 2), int)
    nx, ny = -d[:, 1:2], d[:, 0:1]
    PX, PY = CP[..., 0] - o[:, 0:1], CP[..., 1] - o[:, 1:2]
    QX, QY = CQ[..., 0] - o[:, 0:1], CQ[..., 1] - o[:, 1:2]
    dP, dQ = PX * nx + PY * ny, QX * nx + QY * ny
    flip = np.where(dP[:, 0] < 0, -1.0, 1.0)[:, None]
    dP, dQ = dP * flip, -dQ * flip
    apart = np.flatnonzero((dP.min(1) > 0) & (dQ.min(1) > 0))
    if not len(apart):
        return out, none
    dP, dQ = dP[apart], dQ[apart]
    da = d[apart]
    sP = PX[apart] * da[:, 0:1] + PY[apart] * da[:, 1:2]
    sQ = QX[apart] * da[:, 0:1] + QY[apart] * da[:, 1:2]
    s = (dQ[:, None, :] * sP[:, :, None] + dP[:, :, None] * sQ[:, None, :]) / (dP[:, :, None] + dQ[:, None, :])
    smin, smax = s.min((1, 2)), s.max((1, 2))
    pmin, pmax, qmin, qmax = dP.min(1), dP.max(1), dQ.min(1), dQ.max(1)
    tlo, thi = pmin / (pmin + qmax), pmax / (pmax + qmin)
    # the obstacles that rise above every segment over the crossings may cover the line
    # together (abutting walls, the pieces of one ruin): each line pairs with its bundle's rows
    order = np.argsort(rows.bundle, kind="stable")
    lo_i = np.searchsorted(rows.bundle[order], rows.bundle[apart], "left")
    hi_i = np.searchsorted(rows.bundle[order], rows.bundle[apart], "right")
    size = hi_i - lo_i
    k = np.repeat(np.arange(len(apart)), size)
    other = order[np.repeat(lo_i, size) + np.arange(size.sum()) - np.repeat(np.cumsum(size) - size, size)]
    # (a piece whose bounding circle misses the line's stretch [smin, smax] covers none of it)
    near = _near_segment(obs.piece_circle[rows.piece[other]], o[apart[k]], d[apart[k]], 1e-9, smin[k], smax[k])
    k, other = k[near], other[near]
    line_row = apart[k]
    tall = _heights_block(tlo[k], thi[k], zP[line_row], zQ[line_row], z0[other], z1[other], sealed[other])
    k, other, line_row = k[tall], other[tall], line_row[tall]
    if not len(k):
        return out, none
    olo, ohi = _line_interval(rows.piece[other], obs, o[line_row], d[line_row], round_[other])
    lo_c, hi_c = np.maximum(olo, smin[k]), np.minimum(ohi, smax[k])
    use = hi_c > lo_c
    k, lo_c, hi_c, olo, ohi, other = k[use], lo_c[use], hi_c[use], olo[use], ohi[use], other[use]
    if not len(k):
        return out, none
    # sweep each line's intervals in order: covered when they start before smin, leave
    # no gap and reach past smax (the solids are grown: where two grown solids only touch,
    # a sight line may pass between them keeping exactly ε, so touching is a gap)
    srt = np.lexsort((olo, k))
    k, olo, ohi, other = k[srt], olo[srt], ohi[srt], other[srt]
    # (each line's running reach, exactly: a running maximum of the ends' ranks, offset per line)
    by_end = np.argsort(ohi, kind="stable")
    rank = np.empty(len(ohi), int)
    rank[by_end] = np.arange(len(ohi))
    reach = ohi[by_end[np.maximum.accumulate(rank + k * len(ohi)) - k * len(ohi)]]
    first = np.r_[True, k[1:] != k[:-1]]
    prev = np.r_[-np.inf, reach[:-1]]
    gap = ~first & (olo >= prev - 1e-12)
    has_gap = np.bincount(k, weights=gap, minlength=len(apart)) > 0
    start_ok = np.zeros(len(apart), bool)
    start_ok[k[first]] = olo[first] < smin[k[first]] - 1e-12
    end_reach = np.full(len(apart), -np.inf)
    np.maximum.at(end_reach, k, ohi)
    covered = start_ok & ~has_gap & (end_reach > smax + 1e-12)
    out[apart[covered]] = True
    used = covered[k]
    return out, (np.column_stack([apart[k[used]], other[used]]) if used.any() else none)


def _line_interval(piece: np.ndarray, obs: Obstacles, o, d, round_) -> tuple[np.ndarray, np.ndarray]:
    """The open interval of s where o + s·d is inside each piece (chord for circles)."""
    lo = np.full(len(o), np.inf)
    hi = np.full(len(o), -np.inf)
    poly = np.flatnonzero(~round_)
    if len(poly):
        hp = obs.halfplanes[piece[poly]]
        a, off = hp[..., :2], hp[..., 2]
        num = off - (a[..., 0] * o[poly, 0:1] + a[..., 1] * o[poly, 1:2])
        den = a[..., 0] * d[poly, 0:1] + a[..., 1] * d[poly, 1:2]
        lo[poly], hi[poly] = _clip(num, den, -np.inf, np.inf)
    rnd = np.flatnonzero(round_)
    if len(rnd):
        circ = obs.piece_circle[piece[rnd]]
        w = circ[:, :2] - o[rnd]
        sc = w[:, 0] * d[rnd, 0] + w[:, 1] * d[rnd, 1]
        h2 = circ[:, 2] ** 2 - (w[:, 0] ** 2 + w[:, 1] ** 2 - sc * sc)
        half = np.sqrt(np.maximum(h2, 0))
        lo[rnd] = np.where(h2 > 0, sc - half, np.inf)
        hi[rnd] = np.where(h2 > 0, sc + half, -np.inf)
    return lo, hi


def _touches_a_seam(rows: _Rows, n: int, p: np.ndarray, q: np.ndarray, obs: Obstacles) -> np.ndarray:
    """Segments that touch a piece of a multi-piece footprint without entering it."""
    out = np.zeros(n, bool)
    multi = obs.owner_npieces[rows.owner] > 1
    if not multi.any():
        return out
    sub = _Rows(rows.bundle[multi], rows.piece[multi], rows.owner[multi])
    a0, a1 = _crossing(p, q, sub, obs, ETA)
    b0, b1 = _crossing(p, q, sub, obs, -ETA)
    touch = (b1 - b0 >= 0) & ~(a1 - a0 > 1e-12)
    out[sub.bundle[touch]] = True
    return out


class _Culprits:
    """The obstacles that block each candidate segment (by candidate index), gathered
    in one pass: ``[k]`` gives the sorted owners of candidate k."""

    def __init__(self) -> None:
        self._pairs: np.ndarray | None = None
        self._key = np.zeros((0, 2), int)
        self._extra: dict[int, list[int]] = {}

    def set_many(self, seg: np.ndarray, owner: np.ndarray) -> None:
        self._pairs = np.stack([seg, owner], 1)  # (sorted on first use: most are never asked for)

    def __setitem__(self, k: int, owners: list[int]) -> None:
        self._extra[k] = owners

    def __getitem__(self, k: int) -> list[int]:
        if k in self._extra:
            return self._extra[k]
        if self._pairs is not None:
            self._key = np.unique(self._pairs, axis=0) if len(self._pairs) else self._key
            self._pairs = None
        lo, hi = np.searchsorted(self._key[:, 0], [k, k + 1])
        return [int(o) for o in self._key[lo:hi, 1]]


def _witness_heights(rows: _Rows, n: int, p: np.ndarray, q: np.ndarray, obs: Obstacles,
                     zP: np.ndarray, zQ: np.ndarray) -> tuple[np.ndarray, np.ndarray, _Culprits]:
    """For each plan segment p→q (rows index them), end heights (u, v) that clear
    every obstacle, if any. Returns (ok mask, heights (n, 2), culprits per segment)."""
    culprits = _Culprits()
    if not len(rows.bundle):
        return np.ones(n, bool), np.stack([zP.mean(1), zQ.mean(1)], 1), culprits
    t0, t1 = _crossing(p, q, rows, obs, ETA)
    z0, z1, sealed = obs.owner_z0[rows.owner], obs.owner_z1[rows.owner], obs.owner_sealed[rows.owner]
    if kernels.wanted(len(rows.bundle)):
        hard, bad, amb, heights = kernels.witness_heights(rows.bundle, t0, t1, z0, z1, sealed, zP, zQ, ETA)
    else:
        hard, bad, amb, heights = _heights_over(rows.bundle, t0, t1, z0, z1, sealed, zP, zQ)
    culprits.set_many(rows.bundle[hard], rows.owner[hard])
    ok = ~bad
    # some obstacle may be passed under: solve the small 2D problem exactly
    under = np.flatnonzero(ok & amb)
    if not len(under):
        return ok, heights, culprits
    r = np.flatnonzero(t1 - t0 > 1e-12)
    b = rows.bundle[r]
    order = np.argsort(b, kind="stable")
    starts = np.searchsorted(b[order], np.arange(n + 1))
    idx = r[order]
    if kernels.wanted(len(idx)):
        found, hts = kernels.heights_lp(under, starts, idx, t0, t1, z0, z1, sealed, zP, zQ, ETA)
    else:
        found, hts = np.zeros(len(under), bool), np.zeros((len(under), 2))
        for u, k in enumerate(under):
            sel = idx[starts[k]:starts[k + 1]]
            h = _heights_lp(t0[sel], t1[sel], z0[sel], z1[sel], sealed[sel], zP[k], zQ[k])
            if h is not None:
                found[u], hts[u] = True, h
    heights[under[found]] = hts[found]
    for k in under[~found]:
        ok[k] = False
        culprits[int(k)] = sorted({int(o) for o in rows.owner[idx[starts[k]:starts[k + 1]]]})
    return ok, heights, culprits


def _heights_over(bundle: np.ndarray, t0: np.ndarray, t1: np.ndarray, z0: np.ndarray, z1: np.ndarray,
                  sealed: np.ndarray, zP: np.ndarray, zQ: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The first pass of :func:`_witness_heights` over the rows (segment ``bundle[i]`` ×
    a piece it crosses on (t0, t1)): which rows no heights clear (``hard``), the segments
    they rule out (``bad``), those some piece may be passed under (``amb``, left to the
    exact 2D problem), and for the rest, heights lifted from mid-height towards the tops
    just enough to pass over every piece, then halfway more (the numpy twin of
    :func:`.kernels.witness_heights`)."""
    n = len(zP)
    heights = np.stack([zP.mean(1), zQ.mean(1)], 1)
    mid = heights.copy()
    top = np.stack([zP[:, 1], zQ[:, 1]], 1)
    hard_all = np.zeros(len(bundle), bool)
    bad = np.zeros(n, bool)
    amb = np.zeros(n, bool)
    r = np.flatnonzero(t1 - t0 > 1e-12)
    if not len(r):
        return hard_all, bad, amb, heights
    b = bundle[r]
    z0, z1, sealed = z0[r], z1[r], sealed[r]
    ta, tb = t0[r], t1[r]

    def line(h, t):
        return (1 - t) * h[b, 0] + t * h[b, 1]

    bottom = np.stack([zP[:, 0], zQ[:, 0]], 1)
    over_ok = (line(top, ta) >= z1 - 1e-12) & (line(top, tb) >= z1 - 1e-12)
    need = z0 - np.where(sealed, ETA, 0.0)
    under_ok = (line(bottom, ta) <= need) & (line(bottom, tb) <= need)
    hard = ~over_ok & ~under_ok
    hard_all[r] = hard
    bad[b[hard]] = True
    amb[b[~over_ok & under_ok]] = True
    simple = ~bad & ~amb
    if simple.any():
        denom_a = line(top, ta) - line(mid, ta)
        denom_b = line(top, tb) - line(mid, tb)
        with np.errstate(divide="ignore", invalid="ignore"):
            la = np.where(denom_a > 0, (z1 - line(mid, ta)) / denom_a, np.where(line(mid, ta) >= z1, -np.inf, np.inf))
            lb = np.where(denom_b > 0, (z1 - line(mid, tb)) / denom_b, np.where(line(mid, tb) >= z1, -np.inf, np.inf))
        lam = np.full(n, 0.0)
        np.maximum.at(lam, b, np.maximum(la, lb))
        lam = np.clip(lam, 0.0, 1.0)
        lam = np.where(lam > 0, lam + (1 - lam) / 2, 0.0)
        heights[simple] = (mid + lam[:, None] * (top - mid))[simple]
    return hard_all, bad, amb, heights


def _heights_lp(ta, tb, z0, z1, sealed, zP, zQ) -> tuple[float, float] | None:
    """Heights (u, v) in [zP] × [zQ] with, for each crossed obstacle, the segment
    over it (≥ z1 at both ends of its crossing) or under it (≤ z0). Branches only
    on obstacles where both are possible; None when no choice is feasible."""
    def at(h0, h1, t):
        return (1 - t) * h0 + t * h1

    can_over = (at(zP[1], zQ[1], ta) >= z1 - 1e-12) & (at(zP[1], zQ[1], tb) >= z1 - 1e-12)
    need = z0 - np.where(sealed, ETA, 0.0)
    can_under = (at(zP[0], zQ[0], ta) <= need) & (at(zP[0], zQ[0], tb) <= need)
    if np.any(~can_over & ~can_under):
        return None
    box = [(-1.0, 0.0, -zP[0]), (1.0, 0.0, zP[1]), (0.0, -1.0, -zQ[0]), (0.0, 1.0, zQ[1])]  # a·(u,v) <= c

    def over(i):
        return [(-(1 - t), -t, -z1[i]) for t in (ta[i], tb[i])]

    def under(i):
        return [(1 - t, t, need[i]) for t in (ta[i], tb[i])]

    fixed = list(box)
    for i in np.flatnonzero(can_over & ~can_under):
        fixed += over(i)
    for i in np.flatnonzero(can_under & ~can_over):
        fixed += under(i)
    both = np.flatnonzero(can_over & can_under)
    if len(both) > 10:
        return None
    for mask in range(1 << len(both)):
        cons = list(fixed)
        for j, i in enumerate(both):
            cons += under(i) if (mask >> j) & 1 else over(i)
        pt = feasible_point(np.array(cons, float))
        if pt is not None:
            return (float(pt[0]), float(pt[1]))
    return None


# ---------------------------------------------------------------------------------------
# Exact check of one segment (the witness check; also the blockers of a drawn line)
# ---------------------------------------------------------------------------------------

def segment_blockers(obs: Obstacles, seg, *, exclude: Sequence[int] = (), margin: float = ETA) -> list[int]:
    """Owners whose interior the 3D segment meets (footprints exact, non-convex included)."""
    (x0, y0, u), (x1, y1, v) = seg
    line = LineString([(x0, y0), (x1, y1)]) if (x0, y0) != (x1, y1) else shapely.Point(x0, y0)
    idx = obs.tree.query(line, predicate="intersects")
    out = []
    L = math.hypot(x1 - x0, y1 - y0)
    for o in idx:
        if o in exclude:
            continue
        z0, z1, sealed = obs.owner_z0[o], obs.owner_z1[o], obs.owner_sealed[o]
        for t_in, t_out in _plan_intervals(obs, int(o), line, (x0, y0), L, margin):
            hs = ((1 - t_in) * u + t_in * v, (1 - t_out) * u + t_out * v)
            over = min(hs) >= z1 - 1e-12
            under = max(hs) <= z0 - (margin if sealed else 0.0)
            if not over and not under:
                out.append(int(o))
                break
    return out


def segment_is_clear(obs: Obstacles, seg, *, exclude: Sequence[int] = ()) -> bool:
    return not segment_blockers(obs, seg, exclude=exclude)


def _plan_intervals(obs: Obstacles, o: int, line, start, L: float, margin: float) -> list[tuple[float, float]]:
    circ = obs.owner_circle[o]
    if not math.isnan(circ[0]):
        if L == 0:
            return [(0.0, 1.0)] if math.hypot(start[0] - circ[0], start[1] - circ[1]) < circ[2] - margin else []
        (x0, y0), (x1, y1) = line.coords
        p, d, c = np.array([x0, y0]), np.array([x1 - x0, y1 - y0]), circ[:2]
        A, B, C = d @ d, 2 * d @ (p - c), (p - c) @ (p - c) - (circ[2] - margin) ** 2
        disc = B * B - 4 * A * C
        if disc <= 0:
            return []
        sq = math.sqrt(disc)
        t0, t1 = max(0.0, (-B - sq) / (2 * A)), min(1.0, (-B + sq) / (2 * A))
        return [(t0, t1)] if t1 - t0 > 1e-12 else []
    poly = obs.owner_geom[o]
    if L == 0:
        return [(0.0, 1.0)] if poly.boundary.distance(line) > margin and poly.contains(line) else []
    part = line.intersection(poly)
    out = []
    for g in getattr(part, "geoms", [part]):
        if g.is_empty or g.geom_type != "LineString" or g.length <= 1e-12:
            continue
        if poly.boundary.distance(g.interpolate(0.5, normalized=True)) <= margin:
            continue  # runs along the boundary (or barely dips in): touching, not inside
        ts = [math.hypot(x - start[0], y - start[1]) / L for x, y in g.coords]
        out.append((min(ts), max(ts)))
    return out


def surface_samples(c: Cylinder, n: int = 16, *, offset: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Stratified points on a cylinder's side and top, with the area each stands for.

    Side: ``n`` angles × ``max(2, n // 2)`` heights at cell centres. Top: rings at
    cell-centre radii with ``n`` points each. The bottom rests on its surface and is
    never seen. Points sit on the surface (or ``offset`` outside it: side points pushed
    out, top points lifted); weights sum to the side and top areas."""
    sx, sy, sz, tx, ty, w = _sample_pattern(c.radius, c.height, n, offset)
    side = np.column_stack([c.x + sx, c.y + sy, c.z + sz])
    top = np.column_stack([c.x + tx, c.y + ty, np.full(len(tx), c.top + offset)])
    return np.vstack([side, top]), w.copy()


@lru_cache(maxsize=64)
def _sample_pattern(radius: float, height: float, n: int, offset: float
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`surface_samples` of a cylinder at the origin, as offsets from its centre and
    base (side x, y, z; top x, y) and the weights: one size's samples are its centre plus these."""
    k = max(2, n // 2)
    ang = (np.arange(n) + 0.5) * 2 * math.pi / n
    rs = radius + offset
    a = np.tile(ang, k)
    sz = np.repeat((np.arange(k) + 0.5) * height / k, n)
    w_side = np.full(n * k, 2 * math.pi * radius * height / (n * k))
    rings = max(1, n // 4)
    edges = np.linspace(0, radius, rings + 1)
    tx, ty, w = [], [], []
    for i in range(rings):
        r = (edges[i] + edges[i + 1]) / 2
        area = math.pi * (edges[i + 1] ** 2 - edges[i] ** 2)
        for t in ang + (i % 2) * math.pi / n:
            tx.append(r * math.cos(t))
            ty.append(r * math.sin(t))
            w.append(area / n)
    out = (rs * np.cos(a), rs * np.sin(a), sz, np.array(tx), np.array(ty), np.concatenate([w_side, np.array(w)]))
    for arr in out:
        arr.flags.writeable = False  # (kept: shared by every call)
    return out
