"""Compiled kernels for the chain test's many tiny problems (:mod:`.los_chain`).

The chain test solves thousands of 2-D linear feasibility problems of a dozen rows and
clips hundreds of small convex polygons per hard pair. Done with numpy, each call costs
tens of microseconds of array set-up for a few hundred flops; compiled loops with an
early exit take one or two. numba compiles each kernel on its first call (cached on disk
beside this file, or in the user's cache where that is read-only), so a process that
never reaches the chain test never imports numba.

Each kernel keeps the arithmetic and tolerances of the vectorised code it replaces; the
tests check them against a plain numpy enumeration (the oracle). The kernels with a numpy
twin in :mod:`.los` (taken for small queries, :func:`wanted`) do the same operations in
the same order, so both give the same bits (numpy's two-term einsum, hypot and sqrt
round as the compiled loops do; the tests check it): an answer never depends on whether
a process had loaded numba (a game replays alike with any number of workers, scalar and
batch agree).
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np

from .compiling import listen_for_compiles

if TYPE_CHECKING:
    from .los import Obstacles

#: below this much work a caller keeps its numpy twin of a kernel, unless numba is loaded
#: already: loading it costs ~0.5 s once per process, more than a small query takes
WORTH_LOADING = 20_000


_loaded: dict[str, ModuleType] = {}


def _load(name: str) -> ModuleType:
    """The compiled module ``name`` of this package, imported on its first use (numba is
    imported only then, on the first kernel call)."""
    mod = _loaded.get(name)
    if mod is None:
        mod = importlib.import_module(f".{name}", __package__)
        listen_for_compiles(mod.__name__)
        _loaded[name] = mod
    return mod


def _c() -> ModuleType:
    """:mod:`._compiled`, imported on its first use."""
    return _load("_compiled")


def _own(a: Any, dtype: Any = None) -> np.ndarray:
    """``a`` as a C-contiguous array of ``dtype`` that a kernel takes as it is: a read-only
    one (a broadcast view, say) is copied, since numba would compile the kernel again for
    it (a read-only array is another type to numba; for the largest, some 10 s)."""
    a = np.ascontiguousarray(a, dtype)
    return a if a.flags.writeable else a.copy()


def wanted(work: int) -> bool:
    """Whether to run a kernel (rather than its numpy twin) on ``work`` items: always once
    the kernels are loaded, before that only for a batch big enough to repay loading them."""
    return work >= WORTH_LOADING or f"{__package__}._compiled" in sys.modules


def vertices(A: np.ndarray) -> np.ndarray:
    """The vertices (k, 2) of the polygon {a·(x, y) <= c} over the rows ``A`` (m, 3): every
    crossing of two rows that meets every row within ``_compiled.FEAS_TOL`` (1e-9; rows whose
    determinant is within ``DET_TOL``, 1e-14, of 0 are parallel) (empty when the
    polygon is)."""
    return _c()._vertices(_own(A, dtype=np.float64))


def vertices_each(A: np.ndarray) -> np.ndarray:
    """:func:`vertices` of each system ``A[b]`` (B, m, 3) at once: (B, k, 2), each row's
    vertices first, in the same order, then NaN (k: the most any row has, at least 1)."""
    return _c()._vertices_each(_own(A, dtype=np.float64))


def clip_polygons(verts: np.ndarray, n: np.ndarray, c0: np.ndarray) -> np.ndarray:
    """Clip convex polygons (rows, V, 2; padded by repeating vertices) to n·x >= c0.
    Returns (rows, V + 1, 2): the kept vertices and crossings in order, padded by the first
    one; an empty result is all-NaN."""
    f8 = np.float64
    return _c()._clip(_own(verts, f8), _own(n, f8), _own(c0, f8))


def patches(box: np.ndarray, D: np.ndarray, H: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``los._patches`` compiled (the same bits): per box (x0, y0, x1, y1), a convex polygon
    (6, 2) containing the box ∩ the region (disc ``D`` ∩ half-plane ``H``), and whether it
    is non-empty."""
    f8 = np.float64
    return _c()._patches(_own(box, f8), _own(D, f8), _own(H, f8))


def project(pt: np.ndarray, D: np.ndarray, H: np.ndarray) -> np.ndarray:
    """``los._project`` compiled (the same bits): the point of each disc ``D`` ∩ half-plane
    ``H`` nearest to ``pt`` (rows)."""
    f8 = np.float64
    return _c()._project(_own(pt, f8), _own(D, f8), _own(H, f8))


def near_segment(c: np.ndarray, a: np.ndarray, d: np.ndarray, pad: np.ndarray | float) -> np.ndarray:
    """``los._near_segment`` compiled (its verdicts): row by row, whether the circle ``c``
    (x, y, r) comes within ``pad`` of the segment a + t·d, t in [0, 1]."""
    f8 = np.float64
    c = _own(c, f8)
    return _c()._near_rows(c, _own(a, f8), _own(d, f8),
                           _own(np.broadcast_to(np.asarray(pad, f8), (len(c),)), f8))


def point_capsule_distance(pts: np.ndarray, caps: np.ndarray) -> np.ndarray:
    """``paths.point_capsule_distance`` compiled (the same bits): (n, m) distances from the
    points to the capsules' segments (rows ax ay bx by c)."""
    f8 = np.float64
    return _c()._point_capsule_distance(_own(pts, f8).reshape(-1, 2), _own(caps, f8))


def points_free(pts: np.ndarray, caps: np.ndarray, tol: float, box: tuple[float, float, float, float] | None,
                on: np.ndarray | None, edges: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """``paths.FreeSpace.point_free`` compiled (its verdicts) where every footprint keeps a
    clearance above ``tol``: on the support (the ``box`` bounds, else the mask ``on``), every
    capsule's clearance kept, and outside every footprint (its ring ``edges`` from
    ``starts``), decided by the parity of the edges crossed (the point lies further than
    its clearance from each)."""
    f8 = np.float64
    pts = _own(pts, f8).reshape(-1, 2)
    return _c()._points_free(pts, _own(caps, f8), float(tol),
                             np.array(box if box is not None else (np.nan,) * 4, f8),
                             np.ones(len(pts), bool) if on is None else _own(on, bool),
                             _own(edges, f8).reshape(-1, 4), _own(starts, np.int64))


def obstacles_in(caps: np.ndarray, owner: np.ndarray, n: int, pad: float,
                 bounds: tuple[float, float, float, float]) -> np.ndarray:
    """``paths.FreeSpace.obstacles_in`` compiled (the same obstacles): the indices, in
    order, of the ``n`` obstacles whose box (their capsule rows' boxes, by ``owner``, each
    grown by its clearance and ``pad``) meets ``bounds`` (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = bounds
    return _c()._obstacles_in(_own(caps, np.float64), _own(owner, np.int64), int(n), float(pad), float(x0),
                              float(y0), float(x1), float(y1))


def jump_first_hit(a: np.ndarray, b: np.ndarray, n: int, pieces: np.ndarray, edges: np.ndarray,
                   starts: np.ndarray, boxes: np.ndarray, heights: np.ndarray, r: float, h: float, contact: float,
                   ztol: float) -> tuple[float, int]:
    """``table_jump.Jump._first_hit`` compiled (the same bits) over the candidate pieces
    ``pieces`` (indices, in order; footprint ``p``'s ring edges ax ay bx by from
    ``starts[p]`` to ``starts[p + 1]``, its bounds ``boxes[p]``, its heights z0 z1
    ``heights[p]``): the parameter on ``a → b`` where the hitbox (radius ``r``, height
    ``h``) first touches a piece, and that piece (1.0, -1: none)."""
    f8 = np.float64
    t, who = _c()._jump_first_hit(_own(a, f8), _own(b, f8), int(n), _own(pieces, np.int64), _own(edges, f8),
                                  _own(starts, np.int64), _own(boxes, f8), _own(heights, f8), float(r), float(h),
                                  float(contact), float(ztol))
    return float(t), int(who)


def tangent_pairs(x: np.ndarray, y: np.ndarray, eox: np.ndarray, eoy: np.ndarray, eix: np.ndarray, eiy: np.ndarray,
                  free: np.ndarray, group: np.ndarray, near2: float | np.float32, mtol: float | np.float32
                  ) -> tuple[np.ndarray, np.ndarray]:
    """``paths.tangent_pairs`` compiled (the same pairs) from its float32 coordinates and
    edge directions, free corners, groups and float32 bounds."""
    f4, c = np.float32, _own
    return _c()._tangent_pairs(c(x, f4), c(y, f4), c(eox, f4), c(eoy, f4), c(eix, f4), c(eiy, f4), c(free, bool),
                               c(group, np.int64), f4(near2), f4(mtol))


def dijkstra(n: int, start: np.ndarray, v: np.ndarray, w: np.ndarray, eid: np.ndarray, sources: dict[int, float],
             limit: float) -> tuple[np.ndarray, np.ndarray]:
    """``paths.dijkstra`` compiled (the same distances and predecessors) over its
    adjacency arrays: node ``x``'s out-edges are ``start[x]:start[x + 1]``."""
    i8, c = np.int64, _own
    return _c()._dijkstra(int(n), c(start, i8), c(v, i8), c(w, np.float64), c(eid, i8),
                          np.array(list(sources), i8).reshape(-1), np.array(list(sources.values()), float).reshape(-1),
                          float(limit))


def violated(p0: np.ndarray, p1: np.ndarray, caps: np.ndarray, shrink: float, relax0: np.ndarray | None,
             relax1: np.ndarray | None) -> np.ndarray:
    """``paths.violated`` compiled (its verdicts): per segment, whether it comes closer than
    some capsule's clearance (lowered by the relax points, rows of NaN where unused)."""
    return _c()._violated(*_segments_args(p0, p1, caps, shrink, relax0, relax1))


def exit_param(p0: np.ndarray, p1: np.ndarray, caps: np.ndarray, tol: float,
               inside: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
    """``paths.exit_param`` compiled (the same bits) over the region's edge capsules
    ``caps`` (rows ax ay bx by r), ``inside`` telling which points (x, y) lie in the region."""
    f8 = np.float64
    lo, hi, first, a, b, x, y = _c()._exit_pieces(_own(p0, f8).reshape(-1, 2), _own(p1, f8).reshape(-1, 2),
                                                  _own(caps, f8), float(tol))
    return _c()._exit_reach(lo, hi, first, a, b, _own(inside(x, y), bool))


def _segments_args(p0: np.ndarray, p1: np.ndarray, caps: np.ndarray, shrink: float, relax0: np.ndarray | None,
                   relax1: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, np.ndarray, np.ndarray]:
    """The capsule kernels' arguments: contiguous rows, relax points NaN where unused."""
    f8 = np.float64
    p0 = _own(p0, f8).reshape(-1, 2)
    none = np.full((len(p0), 2), np.nan)
    r0 = none if relax0 is None else _own(relax0, f8).reshape(-1, 2)
    r1 = none if relax1 is None else _own(relax1, f8).reshape(-1, 2)
    return p0, _own(p1, f8).reshape(-1, 2), _own(caps, f8), float(shrink), r0, r1


def violations(p0: np.ndarray, p1: np.ndarray, caps: np.ndarray, shrink: float, relax0: np.ndarray | None,
               relax1: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``paths.violations`` compiled (the same bits): every (segment, capsule) pair where
    the segment comes closer than the clearance, ``(i, j, t_in, t_out)`` in row order
    (unsorted)."""
    return _c()._violations(*_segments_args(p0, p1, caps, shrink, relax0, relax1))  # type: ignore[no-any-return]


def witness_heights(bundle: np.ndarray, t0: np.ndarray, t1: np.ndarray, z0: np.ndarray, z1: np.ndarray,
                    sealed: np.ndarray, zP: np.ndarray, zQ: np.ndarray, eta: float
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``los._heights_over`` compiled (the same bits): per row (segment ``bundle[i]`` ×
    the piece it crosses on (t0, t1)) whether no heights clear it; per segment, whether
    it is ruled out, whether some piece may be passed under, and its heights."""
    f8, c = np.float64, _own
    return _c()._witness_heights(c(bundle, np.int64), c(t0, f8), c(t1, f8), c(z0, f8), c(z1, f8), c(sealed, bool),
                                 c(zP, f8), c(zQ, f8), float(eta))


def heights_lp(under: np.ndarray, starts: np.ndarray, idx: np.ndarray, t0: np.ndarray, t1: np.ndarray,
               z0: np.ndarray, z1: np.ndarray, sealed: np.ndarray, zP: np.ndarray, zQ: np.ndarray, eta: float
               ) -> tuple[np.ndarray, np.ndarray]:
    """``los._heights_lp`` compiled (the same bits) for each segment ``k`` of ``under``
    over the rows ``idx[starts[k]:starts[k + 1]]``: whether heights were found, and them."""
    f8, i8, c = np.float64, np.int64, _own
    return _c()._heights_lp(c(under, i8), c(starts, i8), c(idx, i8), c(t0, f8), c(t1, f8), c(z0, f8), c(z1, f8),
                            c(sealed, bool), c(zP, f8), c(zQ, f8), float(eta))


def within_disc(P: np.ndarray, D: np.ndarray, far: float) -> np.ndarray:
    """``los_chain._within_disc`` in one compiled pass (the same clips, the same bits):
    each polygon ``P[i]`` cut by its disc ``D[i]``'s tangent facing each of its vertices
    outside the disc; (rows, 2V, 2), padded by repetition."""
    f8 = np.float64
    return _c()._within_disc(_own(P, f8), _own(D, f8), float(far))


def chain_prepare(P: np.ndarray, Q: np.ndarray, cP: np.ndarray, cQ: np.ndarray, DP: np.ndarray, DQ: np.ndarray,
                  zP: np.ndarray, zQ: np.ndarray, rb: np.ndarray, verts: np.ndarray, z0: np.ndarray, z1: np.ndarray,
                  sealed: np.ndarray, eta: float, widen: float, slack: float) -> tuple[np.ndarray, ...]:
    """``los_chain._prepare``'s arrays in one compiled pass (see ``_compiled._chain_prepare``)."""
    f8, c = np.float64, _own
    return _c()._chain_prepare(c(P, f8), c(Q, f8), c(cP, f8), c(cQ, f8), c(DP, f8), c(DQ, f8), c(zP, f8), c(zQ, f8),
                               c(rb, np.int64), c(verts, f8), c(z0, f8), c(z1, f8), c(sealed, bool), float(eta),
                               float(widen), float(slack))


def region_bbox(D: np.ndarray, H: np.ndarray) -> np.ndarray:
    """``los._region_bbox`` compiled (the same bits): the box (n, 4) of each disc ∩ half-plane."""
    return _c()._region_bbox(_own(D, np.float64), _own(H, np.float64))


def containment(vP: np.ndarray, vQ: np.ndarray, DP: np.ndarray, DQ: np.ndarray, b: np.ndarray, piece: np.ndarray,
                round_: np.ndarray, halfplanes: np.ndarray, t0r: np.ndarray, t1r: np.ndarray, zP: np.ndarray,
                zQ: np.ndarray, z0: np.ndarray, z1: np.ndarray, sealed: np.ndarray, eta: float, big: float
                ) -> np.ndarray:
    """``los._blocked_rows``' containment verdicts compiled (the numpy twin's), per row
    (bundle ``b``, piece ``piece``): a polygon piece's t-interval from its half-planes, a
    round one's given (``t0r``, ``t1r``), then the heights over it."""
    f8, i8 = np.float64, np.int64
    c = _own
    return _c()._containment(c(vP, f8), c(vQ, f8), c(DP, f8), c(DQ, f8), c(b, i8), c(piece, i8), c(round_, bool),
                             np.ones(len(b), bool), c(halfplanes, f8), c(t0r, f8), c(t1r, f8), c(zP, f8), c(zQ, f8),
                             c(z0, f8), c(z1, f8), c(sealed, bool), float(eta), float(big))


def xrange_within(k: np.ndarray, hp: np.ndarray, count: np.ndarray, tol: float = 1e-12
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per convex polygon ``k[r]`` (V, 2; counter-clockwise, padded by repetition, all-NaN
    when empty): the x-range of its intersection with the convex polygon {n·x >= c - tol}
    (the first ``count[r]`` rows of ``hp[r]`` (E, 3)), and whether they meet: the polygon
    clipped by each half-plane in turn (Sutherland–Hodgman)."""
    return _c()._xrange(_own(k, np.float64), _own(hp, np.float64),
                        _own(count, np.int64), float(tol))


def hull_halfplanes(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row of ``pts`` (B, N, 2), its convex hull as half-planes n·x >= c: (B, E, 3) in
    counter-clockwise order (by edge direction), padded by repeating the last one, and the
    count of each (0 where a point is NaN). An edge joins two points with every point on its
    left (within 1e-12 of the points' scale); of edges of one direction the first is kept."""
    return _c()._hull_halfplanes(_own(pts, np.float64))


def chords(k: np.ndarray, lines: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per convex polygon ``k[i]`` (W, 2; padded by repetition) and line ``lines[j]`` =
    (α, β) of y = α + βx (``lines`` (n, 2), or (m, n, 2): lines per polygon): where the
    line enters and leaves the polygon's interior, (m, n) each ((inf, -inf) where it does
    not cross it)."""
    lines = np.asarray(lines, np.float64)
    return _c()._chords(_own(k, np.float64), _own(lines[None] if lines.ndim == 2
                                                                                 else lines))


def inside_run(k: np.ndarray, V: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per convex polygon ``k[i]`` (W, 2; padded by repetition): abscissae ``xa <= xb``
    between which every line y = α + βx, (α, β) a vertex ``V[i]`` ((m, nV, 2), or (nV, 2)
    shared; NaN rows ignored), lies strictly inside it, or xa > xb where there is no such
    stretch: the intersection of the lines' chords nudged inwards (by 1e-9 of the scale
    and 1e-6 of its length), each end checked again against the polygon's vertical chord."""
    V = np.asarray(V, np.float64)
    return _c()._inside_run(_own(k, np.float64), _own(V[None] if V.ndim == 2 else V))


def clear_of(k: np.ndarray, V: np.ndarray, kidx: np.ndarray, vidx: np.ndarray, wd: float, slack: float
             ) -> np.ndarray:
    """For each pair e (polygon ``k[kidx[e]]`` (W, 2), line set ``V[vidx[e]]`` (nV, 2) of
    (α, β); NaN points ignored): whether every line y = α + βx passes wholly above the
    polygon or wholly below it, by at least ``wd + slack`` vertically (over every vertex of
    both: the heights are linear in (α, β)); False when either is all NaN."""
    f8, i8 = np.float64, np.int64
    return _c()._clear_of(_own(k, f8), _own(V, f8), _own(kidx, i8),
                          _own(vidx, i8), float(wd), float(slack))


def crossings(pp: np.ndarray, dd: np.ndarray, piece: np.ndarray, circ: np.ndarray, halfplanes: np.ndarray,
              piece_circle: np.ndarray, margin: float) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the open parameter interval (t0, t1) of [0, 1] where the segment
    ``pp[r] + t·dd[r]`` is inside the piece ``piece[r]`` shrunk by ``margin``: its
    ``halfplanes`` (a·x < b), or the circle ``circ[r]`` where that is not NaN (a round
    owner); empty (t0 > t1, or (1, 0) where the piece's ``piece_circle`` is not within
    max(0, -margin) + 1e-9 of the segment)."""
    f8 = np.float64
    return _c()._crossings(_own(pp, f8), _own(dd, f8),
                           _own(piece, np.int64), _own(circ, f8),
                           _own(halfplanes, f8), _own(piece_circle, f8), float(margin))


def disc_containment(P: np.ndarray, Q: np.ndarray, circ: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the t-interval (t0, t1) within [0, 1] where every point (1-t)p + tq, p a
    vertex of ``P[r]`` (V, 2) and q of ``Q[r]``, is inside the circle ``circ[r]``
    (x, y, r): empty when t0 >= t1; NaN where a vertex is."""
    f8 = np.float64
    return _c()._disc_containment(_own(P, f8), _own(Q, f8),
                                  _own(circ, f8))


def binding_vertices(k: np.ndarray, b_lo: np.ndarray, b_hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per convex polygon ``k[i]`` (m, W, 2; NaN padding allowed), the vertices binding
    "the polygon lies above the line y = α + βx" (the least v_y - β v_x, the first of
    equals) and "below" (the greatest) at β = ``b_lo``, the middle and ``b_hi``, which
    broadcast to (..., m): (..., m, 3, 2) each."""
    shape = np.broadcast_shapes(np.shape(b_lo), np.shape(b_hi), (len(k),))
    lo, hi, kidx = np.empty(shape), np.empty(shape), np.empty(shape, np.int64)
    lo[...], hi[...], kidx[...] = b_lo, b_hi, np.arange(len(k))
    a, b = _c()._binding_vertices(_own(k, np.float64), kidx.reshape(-1), lo.reshape(-1), hi.reshape(-1))
    return a.reshape(shape + (3, 2)), b.reshape(shape + (3, 2))


def separators(o: np.ndarray, d: np.ndarray, bundle: np.ndarray, CP: np.ndarray, CQ: np.ndarray, zP: np.ndarray,
               zQ: np.ndarray, piece: np.ndarray, z0: np.ndarray, z1: np.ndarray, sealed: np.ndarray,
               round_: np.ndarray, halfplanes: np.ndarray, piece_circle: np.ndarray, eta: float
               ) -> tuple[np.ndarray, np.ndarray]:
    """Per row r (a solid of bundle ``bundle[r]``: piece ``piece[r]``, heights ``z0[r]``–
    ``z1[r]``, ``sealed[r]``, ``round_[r]``), whether the line ``o[r] + s·d[r]`` separates
    the bundle's patches ``CP[b]`` and ``CQ[b]`` (V, 2) and the bundle's solids that rise
    above every segment where it crosses the line (heights ``zP[b]`` → ``zQ[b]``: below
    ``z1``, not under ``z0`` (+ ``eta`` unsealed)) cover the stretch the segments cross
    with open chords (their ``halfplanes`` a·x < b, or circle ``piece_circle`` when round)
    that start before it, leave no gap (touching is a gap) and end after it; and, per
    row, whether its chord helps cover another row's covered line (it is then one of that
    proof's solids)."""
    f8, i8 = np.float64, np.int64
    bundle = _own(bundle, i8)
    order = np.argsort(bundle, kind="stable")
    ends = np.searchsorted(bundle[order], np.arange(len(CP) + 1))
    return _c()._separators(
        _own(o, f8), _own(d, f8), bundle, _own(CP, f8),
        _own(CQ, f8), _own(zP, f8), _own(zQ, f8),
        order.astype(i8), ends[:-1].astype(i8), ends[1:].astype(i8), _own(piece, i8),
        _own(z0, f8), _own(z1, f8), _own(sealed, np.bool_),
        _own(round_, np.bool_), _own(halfplanes, f8),
        _own(piece_circle, f8), float(eta))


def _warmups() -> list[Callable[[], object]]:
    """One call of each kernel the library calls now, on tiny arguments (:func:`load`)."""
    A = np.array([[1.0, 0.0, 1.0], [-1.0, 0.0, 1.0], [0.0, 1.0, 1.0], [0.0, -1.0, 1.0]])
    square = A[None, :, :2]
    region = np.array([[0.0, 0.0, 1.0]]), np.array([[1.0, 0.0, 0.0]])
    z4 = np.zeros(2, np.float32)
    one, flag, pad = np.zeros(1, np.int64), np.zeros(1, bool), np.ones((1, 1, 3))
    lines = np.array([[0.0, 0.5]])
    circle = np.array([[0.0, 0.0, 1.0]])
    pt, d = np.zeros((1, 2)), np.ones((1, 2))
    P, Q = square - 3.0, square + 3.0
    i0, f0, b0 = np.zeros(0, np.int64), np.zeros(0), np.zeros(0, bool)  # (no solids)
    return [
        lambda: vertices(A),
        lambda: vertices_each(A[None]),
        lambda: clip_polygons(square, np.array([[1.0, 0.0]]), np.zeros(1)),
        lambda: patches(region_bbox(*region), *region),
        lambda: project(np.zeros((1, 2)), *region),
        lambda: point_capsule_distance(np.zeros((1, 2)), np.ones((1, 5))),
        lambda: points_free(np.zeros((1, 2)), np.ones((1, 5)), 1e-9, (0.0, 0.0, 1.0, 1.0), None, np.ones((1, 4)),
                            np.zeros(1, int)),
        lambda: obstacles_in(np.ones((1, 5)), one, 1, 0.01, (0.0, 0.0, 1.0, 1.0)),
        lambda: jump_first_hit(np.zeros(3), np.ones(3), 3, one, np.ones((1, 4)), np.array([0, 1]),
                               np.ones((1, 4)), np.ones((1, 2)), 0.5, 1.0, 1e-3, 1e-6),
        lambda: dijkstra(2, np.array([0, 1, 1]), np.array([1]), np.array([1.0]), np.array([0]), {0: 0.0}, np.inf),
        lambda: tangent_pairs(z4, z4, z4, z4, z4, z4, np.ones(2, bool), np.full(2, -1), 1e-3, -1e-4),
        lambda: violated(np.zeros((1, 2)), np.ones((1, 2)), np.ones((1, 5)), 1e-9, None, np.zeros((1, 2))),
        lambda: violations(np.zeros((1, 2)), np.ones((1, 2)), np.ones((1, 5)), 1e-9, None, np.zeros((1, 2))),
        lambda: exit_param(np.zeros((1, 2)), np.ones((1, 2)), np.ones((1, 5)), 1e-9, lambda x, y: x > 0),
        lambda: near_segment(region[0], np.zeros((1, 2)), np.ones((1, 2)), 0.0),
        lambda: within_disc(square, region[0], 1e18),
        lambda: containment(square, square, region[0], region[0], one, one, flag, pad, np.zeros(1), np.ones(1),
                            np.zeros((1, 2)), np.ones((1, 2)), np.zeros(1), np.ones(1), flag, 1e-9, 1e18),
        lambda: witness_heights(one, np.zeros(1), np.ones(1), np.zeros(1), np.ones(1), flag, np.zeros((1, 2)),
                                np.ones((1, 2)), 1e-9),
        lambda: heights_lp(one, np.array([0, 1]), one, np.zeros(1), np.ones(1), np.zeros(1), np.ones(1), flag,
                           np.zeros((1, 2)), np.ones((1, 2)), 1e-9),
        lambda: chords(square, lines),
        lambda: disc_containment(square, square, circle),
        lambda: crossings(pt, d, one, circle, A[None], circle, 0.0),
        lambda: separators(pt, d, one, square, square, np.zeros((1, 2)), np.ones((1, 2)), one, np.zeros(1),
                           np.ones(1), np.zeros(1, bool), np.zeros(1, bool), A[None], circle, 1e-9),
        lambda: convex_corners(square[0], np.array([4]), np.ones(4, bool), 1e-7, 1e-9),
        lambda: chain_prepare(P, Q, P.mean(1), Q.mean(1), circle - 3.0, circle + 3.0, np.zeros((1, 2)),
                              np.ones((1, 2)), np.zeros(1, np.int64), square, np.zeros(1), np.ones(1),
                              np.zeros(1, bool), 1e-9, 0.0, 1e-10),
        lambda: _c()._round_one(np.array([[0.0, 0.0, 1.0, 0.0, 1.0, -1.0]]),
                                np.array([[4.0, 0.0, 1.0, 0.0, 1.0, -1.0]]), np.array([[0.0, 0.0, -1e18]]), 1e-4,
                                np.zeros((0, 4)), np.zeros((0, 3)), f0, f0, b0, np.zeros((0, 3)), i0, i0,
                                np.zeros((0, 3)), b0, np.zeros((0, 4)), np.zeros((0, 1, 3)), 1e-9, 1e18, 4),
        lambda: chain_solve(A, A, np.zeros((1, 2)), np.ones((1, 2, 3, 3)), flag, np.zeros(1), np.ones(1), np.zeros(1),
                            np.ones(1), np.ones(1), np.zeros(1), 0.0, 0.0, 0.0, 1.0, 0.0, 1e-10, 64),
        lambda: chain_solve_each(np.ones(1, bool), A[None], np.ones((1, 14, 3)), np.ones((2, 2, 14), bool), flag,
                                 flag, np.zeros((1, 1, 2)),
                                 one + 1, np.array([0, 1]), np.ones((1, 2, 3, 3)), flag, np.zeros(1), np.ones(1),
                                 np.zeros(1), np.ones(1), np.ones(1), np.zeros(1), np.zeros(1), np.zeros(1),
                                 np.zeros(1), np.ones(1), 1e-10, 64),
        lambda: chain_regions(square, lines[None], flag, flag, flag, np.zeros(1), np.ones(1), np.ones(1), np.zeros(1),
                              square.repeat(2, 0), np.array([[0.0, 1.0, 1e-9]] * 2), 0.0, 1.0, 0.0, 1e-10),
        lambda: band_xrange(square, lines[None], np.array([[0.0, 1.0, 1e-9]])),
    ]


def load(*, reverse: bool = False) -> None:
    """Compile (or load from the disk cache) every kernel the library calls now, rather
    than on the first query that needs it: for a long-running process or a benchmark.
    (``hull_halfplanes`` and ``xrange_within``, now called only by the tests' oracle of
    :func:`chain_prepare`, and ``inside_run``, ``clear_of`` and ``binding_vertices``,
    called only inside the chain kernels and by the tests, compile on first use.) ``reverse``: in the opposite order. Two
    processes that load a cold cache at once in opposite orders compile about half the
    kernels each, each loading what the other has compiled and cached (the test suite's
    workers do)."""
    steps = _warmups()
    for step in reversed(steps) if reverse else steps:
        step()


def round_one(S: np.ndarray, T: np.ndarray, H: np.ndarray, thin: float, owner_box: np.ndarray, obs: Obstacles,
              eta: float, big: float, ncorner: int) -> tuple[np.ndarray, ...]:
    """``los.line_of_sight_batch``'s first round compiled (the same bits) over the pairs
    (``S``/``T`` the sources' and targets' viewer rows, ``H`` the front half-planes) and
    the grown obstacles ``obs`` (``owner_box``: their footprints' bounds): per pair
    whether it is out of arc (E-ARC), its status (0: left to the search or out of arc,
    1: a witness, 2: blocked, 3: for the chain test), witness (x0, y0, z0, x1, y1, z1),
    proof kinds (1 separator, 2 containment) and, blocked, solids (``owners[at[i]:at[i +
    1]]``, in order); its rows (``first``, ``count`` into ``piece``, ``owner``) and
    patches ``vP``, ``vQ`` (n, 6, 2)."""
    f8, i8, c = np.float64, np.int64, _own
    return _c()._round_one(c(S, f8), c(T, f8), c(H, f8), float(thin), c(owner_box, f8), c(obs.owner_bound, f8),
                           c(obs.owner_z0, f8), c(obs.owner_z1, f8), c(obs.owner_sealed, bool), c(obs.owner_circle, f8),
                           c(obs.owner_pieces_start, i8), c(obs.owner_npieces, i8), c(obs.piece_circle, f8),
                           c(obs.piece_round, bool), c(obs.piece_axis, f8), c(obs.halfplanes, f8), float(eta),
                           float(big), int(ncorner))


def convex_corners(xy: np.ndarray, sizes: np.ndarray, inside: np.ndarray, min_turn: float, tol: float
                   ) -> tuple[np.ndarray, ...]:
    """``paths.convex_corners`` compiled up to the corners two pieces share (the same
    bits): per corner (``xy``, ``sizes[i]`` of them for piece ``i``) whether it is kept so
    far, its directions in and out, its neighbours ``nxt`` and ``prv``, and the
    (corner, the other piece's corner there) pairs, in order."""
    return _c()._convex_corners(_own(xy, np.float64), _own(sizes, np.int64),
                                _own(inside, bool), float(min_turn), float(tol))


def _cc() -> ModuleType:
    """:mod:`._chain_compiled`, imported on its first use."""
    return _load("_chain_compiled")


def chain_solve(base: np.ndarray, zbase: np.ndarray, Vz: np.ndarray, plan: np.ndarray, free: np.ndarray,
                ins_lo: np.ndarray, ins_hi: np.ndarray, ka: np.ndarray, kb: np.ndarray, zt: np.ndarray, zb: np.ndarray,
                d_lo: float, d_hi: float, zlo: float, zhi: float, wd: float, slack: float, max_nodes: int
                ) -> tuple[bool, np.ndarray, np.ndarray, np.ndarray]:
    """The chain test's search over escape choices on one region (``los_chain._solve_bundle``'s
    ``solve``): whether some segment escapes every solid keeping ``wd``, its (α, β) and
    (γ, δ) (NaN when unknown), and per solid whether it was relevant (not escaped by
    every segment alike)."""
    f8, c = np.float64, _own
    return _cc()._chain_solve(c(base, f8), c(zbase, f8), c(Vz, f8), c(plan, f8), c(free, bool), c(ins_lo, f8),
                              c(ins_hi, f8), c(ka, f8), c(kb, f8), c(zt, f8), c(zb, f8), float(d_lo), float(d_hi),
                              float(zlo), float(zhi), float(wd), float(slack), int(max_nodes))


def chain_solve_each(ok: np.ndarray, base: np.ndarray, zfull: np.ndarray, sel: np.ndarray, rising: np.ndarray,
                     falling: np.ndarray, Vz: np.ndarray, nVz: np.ndarray, at: np.ndarray, plan: np.ndarray,
                     free: np.ndarray, ins_lo: np.ndarray, ins_hi: np.ndarray, ka: np.ndarray, kb: np.ndarray,
                     zt: np.ndarray, zb: np.ndarray, d_lo: np.ndarray, d_hi: np.ndarray, zlo: np.ndarray,
                     zhi: np.ndarray, slack: float, max_nodes: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`chain_solve`'s exact search on the base region of each bundle of
    :func:`chain_prepare` at once (see ``_chain_compiled._chain_solve_each``; ``sel``: the
    heights' rows that hold, by rising and falling, ``los_chain._HEIGHT_MASK``): per bundle
    whether some segment escapes, its (α, β) and (γ, δ) (NaN where none), per live row
    (bundle ``b``'s are ``at[b]:at[b + 1]``) whether its solid was relevant."""
    f8, i8, c = np.float64, np.int64, _own
    return _cc()._chain_solve_each(c(ok, bool), c(base, f8), c(zfull, f8), c(sel, bool), c(rising, bool),
                                   c(falling, bool), c(Vz, f8), c(nVz, i8), c(at, i8), c(plan, f8), c(free, bool),
                                   c(ins_lo, f8), c(ins_hi, f8), c(ka, f8), c(kb, f8), c(zt, f8), c(zb, f8),
                                   c(d_lo, f8), c(d_hi, f8), c(zlo, f8), c(zhi, f8), float(slack), int(max_nodes))


def chain_regions(k: np.ndarray, V: np.ndarray, free0: np.ndarray, freew: np.ndarray, can_pass: np.ndarray,
                  ka: np.ndarray, kb: np.ndarray, ins_lo: np.ndarray, ins_hi: np.ndarray, ends: np.ndarray,
                  end_spans: np.ndarray, x1: float, x2: float, widen: float, slack: float) -> tuple[np.ndarray, ...]:
    """``los_chain._regions``'s arrays in one compiled pass (see ``_chain_compiled._regions``)."""
    f8, c = np.float64, _own
    return _cc()._regions(c(k, f8), c(V, f8), c(free0, bool), c(freew, bool), c(can_pass, bool), c(ka, f8),
                          c(kb, f8), c(ins_lo, f8), c(ins_hi, f8), c(ends, f8), c(end_spans, f8), float(x1),
                          float(x2), float(widen), float(slack))


def band_xrange(k: np.ndarray, V: np.ndarray, spans: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per convex polygon ``k[i]`` (W, 2) lying in [xa, xb], ``spans[i]`` = (xa, xb, grow):
    the x-range of its part within ``grow`` of the hull of the lines y = α + βx with
    (α, β) in the polygon of vertices ``V[i]`` (nV, 2), over [xa, xb] (each line there is
    a segment between its crossings at xa and xb); lo > hi where there is none."""
    f8 = np.float64
    return _cc()._band_xranges(_own(k, f8), _own(V, f8), _own(spans, f8))
