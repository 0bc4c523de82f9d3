"""The chain test of the LoS search: a bundle blocked by several solids together.

A bundle is a set of plan segments from a convex patch P to a convex patch Q. The
single-solid tests of :mod:`skirmish.geometry.los` fail where no one solid meets every
segment: two wall ends nearly in line with the sight lines (the segments that pass one
end meet the other wall), a ruin behind a wall, a row of barrels.

In a frame whose x axis runs from P to Q, with P wholly before Q, every segment of the
bundle is the graph of a line ``y = α + β x`` over the slab ``x ∈ [x_P, x_Q]`` between
P's far side and Q's near side, and it spans the slab. Each candidate solid, clipped to
the slab, is a convex polygon K; a segment misses K exactly when K lies wholly above
its line or wholly below it, and each of these is a set of linear inequalities in
(α, β): ``α + β v_x ≤ v_y`` for every vertex v of K (above), or ``≥`` (below). The
segments also cross the two slab walls within the ranges the patches allow and their
lines meet the two end discs and both patches (each cut to its disc). A segment that
escapes a solid in height instead passes over or under it: its height z = γ + δ x is a
second 2D problem, tied to the plan only at abscissae that hold for every line of the
(α, β) region: where every line is inside K (over the top there), or at the ends of
the range where the lines can cross K. So an escaping segment picks a way past each
solid, and its (α, β) and (γ, δ) lie in the intersections: small 2D linear feasibility
problems per choice. When no choice is feasible, every segment is blocked: a proof.

The two problems are tied more tightly the smaller the (α, β) region: its lines are
inside a solid over a longer stretch, cross it and meet the patches within shorter
ranges. So where the search finds an escaping line that has no clear heights (a false
escape), the test cuts the region into strips across that line's worst crossing and
searches each again with its own ties (:func:`_parts`); the bundle is blocked when
every strip is. Strips cover the region, so this is still a proof.

Every constraint used is implied by "the segment escapes" (only some vertices of K are
kept: fewer constraints give a larger feasible set; a solid is left out only when every
line passes it, checked at every vertex), so the test may fail to prove a blocked
bundle, never the reverse; the search then splits the bundle as before.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from math import isfinite, isnan

import numpy as np

from .kernels import (band_xrange, chain_prepare, chain_regions, chain_solve, chain_solve_each, chords, vertices,
                      vertices_each, within_disc)

#: Slack (inches) by which constraints are loosened: the test errs towards "not proven".
SLACK = 1e-10
_FAR = 1e18
#: Sides chosen per bundle before the test gives up (it then proves nothing).
MAX_NODES = 64
#: Where an escape of the relaxation has no clear heights (a false escape), the test cuts
#: its base region into ``SPLIT_INTO`` strips and searches each again, at most
#: ``SPLIT_DEPTH`` levels deep and ``MAX_PARTS`` strips in all (then the outer search
#: cuts the bundle instead).
SPLIT_INTO = 4
SPLIT_DEPTH = 3
MAX_PARTS = 32


_NEXT: dict[int, np.ndarray] = {}


def _next_index(V: int) -> np.ndarray:
    got = _NEXT.get(V)
    if got is None:
        got = _NEXT[V] = np.r_[1:V, 0]
    return got


@dataclass(frozen=True)
class Chain:
    """The chain test's answer. ``blocked``: every segment is blocked (``thin``: or lies
    within ``widen`` of a blocked one), with ``used`` the solids of the proof. Otherwise
    ``line`` may hold an escaping line (a plan point and unit direction) to try as a
    witness. ``widened``, when set (``chain_blocks_many(..., lazy=True)``), runs the
    widened test not yet run and returns the full answer: needed only when the line gives
    no witness."""

    blocked: bool
    used: np.ndarray | None = None
    thin: bool = False
    line: tuple[np.ndarray, np.ndarray] | None = None
    widened: Callable[[], Chain] | None = field(default=None, repr=False, compare=False)

    @property
    def escape(self) -> tuple[np.ndarray, np.ndarray] | None:
        """The escaping line to try as a witness: :attr:`line`, unless the exact test
        proved every segment blocked."""
        return None if self.blocked and not self.thin else self.line


def chain_blocks(P: np.ndarray, Q: np.ndarray, DP: np.ndarray, DQ: np.ndarray, zP: np.ndarray, zQ: np.ndarray,
                 verts: np.ndarray, z0: np.ndarray, z1: np.ndarray, sealed: np.ndarray, eta: float,
                 widen: float = 0.0) -> Chain:
    """Whether every segment from patch ``P`` to patch ``Q`` (vertex arrays (V, 2); the
    ends also lie in the discs ``DP``/``DQ`` = (cx, cy, r)) is blocked by the candidate
    solids together. Per solid: ``verts`` (R, W, 2), a convex polygon inside its (grown)
    footprint, padded by repetition; ``z0``/``z1`` its blocking range, ``sealed``.
    ``zP``/``zQ``: the end height ranges.

    The exact test runs first; if it leaves an escaping line, that line is returned to be
    tried as a witness, and with ``widen`` > 0 the test runs again counting a segment that
    passes within ``widen`` of a solid (in plan, or in height) as blocked: moving its ends
    by less than ``widen`` makes it enter the solid. That proof says "every segment lies
    within ``widen`` of a blocked one": how the search settles a set of clear sight lines
    thinner than that (``thin``). One bundle of :func:`chain_blocks_many`."""
    return chain_blocks_many(P[None], Q[None], DP[None], DQ[None], zP[None], zQ[None], np.zeros(len(z0), int),
                             verts, z0, z1, sealed, eta, widen)[0]


@dataclass
class _Bundle:
    """What the search over escape choices needs of one bundle (see :func:`chain_blocks_many`)."""

    base: np.ndarray  # (α, β) rows a·x <= c of the base region
    zbase: np.ndarray  # (γ, δ) rows
    Vp: np.ndarray  # vertices of the base region
    Vz: np.ndarray
    cP: np.ndarray
    d: np.ndarray
    n: np.ndarray
    d_lo: float
    d_hi: float
    zlo: float
    zhi: float
    idx: np.ndarray  # the bundle's live rows (local indices)
    plan: np.ndarray  # (m, 2, 3, 3) per live row: :func:`_plan_rows`
    free: dict[float, np.ndarray]  # per clearance: rows every line of the base region escapes in plan
    ins_lo: np.ndarray  # per live row: the abscissae between which every line is inside
    ins_hi: np.ndarray  # it (ins_lo > ins_hi where there are none)
    zt: np.ndarray
    zb: np.ndarray
    ka: np.ndarray
    kb: np.ndarray
    R: int
    k: np.ndarray  # (m, W, 2) per live row: the solid clipped to the slab
    can_pass: np.ndarray  # per live row: a line may pass over or under it
    x1: float  # the slab
    x2: float
    fP: np.ndarray  # the patches' vertices in the frame
    fQ: np.ndarray
    zP: np.ndarray  # (1, 2) the end height ranges
    zQ: np.ndarray
    xP0: float  # P's least abscissa in the frame: where the segments may start at the furthest
    xQ1: float  # Q's greatest: where they may end at the furthest
    escape: tuple[np.ndarray, np.ndarray]  # the exact search's escape from the base region: (α, β), (γ, δ)

    @cached_property
    def ends(self) -> np.ndarray:
        """The two patches (2, W, 2) in the frame, padded by repetition."""
        W = max(len(self.fP), len(self.fQ))
        return np.concatenate([_pad(self.fP[None], W), _pad(self.fQ[None], W)])

    @cached_property
    def end_spans(self) -> np.ndarray:
        """The x-ranges (with their margin) where a segment of the bundle may start, on P
        (from :attr:`xP0` to the slab), and end, on Q (from the slab to :attr:`xQ1`)."""
        return np.array([(self.xP0, self.x1, 1e-9), (self.x2, self.xQ1, 1e-9)])


def chain_blocks_many(P: np.ndarray, Q: np.ndarray, DP: np.ndarray, DQ: np.ndarray, zP: np.ndarray,
                      zQ: np.ndarray, row_bundle: np.ndarray, verts: np.ndarray, z0: np.ndarray, z1: np.ndarray,
                      sealed: np.ndarray, eta: float, widen: float = 0.0, *, lazy: bool = False) -> list[Chain]:
    """:func:`chain_blocks` for B bundles at once: ``P``/``Q`` (B, V, 2), ``DP``/``DQ``
    (B, 3), ``zP``/``zQ`` (B, 2); the solids are rows, ``row_bundle`` (R,) sorted, naming
    each row's bundle. The geometry (frames, slab clipping, corridor ranges, the base
    regions, the inside stretches) is computed for every row in one vectorised pass, and
    the search over escape choices on each base region in one compiled pass; the search
    goes on per bundle where that one escapes. A proof's ``used`` indexes the
    bundle's own rows, in order. With ``lazy``, a bundle whose exact test leaves a line
    defers its widened test to :attr:`Chain.widened`."""
    B = len(P)
    out: list[Chain] = [Chain(False)] * B
    counts = np.bincount(row_bundle, minlength=B)
    starts = np.concatenate([[0], np.cumsum(counts)])
    with np.errstate(all="ignore"):
        prepared = _prepare(P, Q, DP, DQ, zP, zQ, row_bundle, verts, z0, z1, sealed, eta, widen, starts)
    for b, prep in enumerate(prepared):
        if isinstance(prep, _Bundle):
            out[b] = _solve_bundle(prep, widen, lazy)
        elif prep is not None:
            out[b] = prep
    return out


def _prepare(P, Q, DP, DQ, zP, zQ, rb, verts, z0, z1, sealed, eta: float, widen: float,
             starts: np.ndarray) -> list[_Bundle | Chain | None]:
    """The vectorised part of :func:`chain_blocks_many`: per bundle its :class:`_Bundle`,
    or None where the test cannot apply (P not wholly before Q, an empty base region),
    or its answer where the exact search of its base region, run on every bundle in one
    compiled pass (:func:`.kernels.chain_solve_each`), finds no escape (most bundles):
    the :class:`Chain` :func:`_solve_bundle` would give (a bundle that escapes keeps its
    escape for :func:`_solve_bundle`). The arrays come from one compiled pass
    (:func:`.kernels.chain_prepare`): per bundle, the frame whose x axis runs from P to
    Q, the slab between them, the base region of (α, β) (the lines cross both slab walls
    within the patches' ranges and meet both end discs and both patches) and the (γ, δ)
    rows of the heights; per solid, its polygon clipped to the slab, the x-range where a
    segment can cross it (within the corridor conv(P ∪ Q)), its binding vertices, whether
    every line of the base region passes it wholly above or below, and where every line
    is inside it."""
    P, Q = _within_disc(P, DP), _within_disc(Q, DQ)  # (the ends lie in both)
    cP, cQ = np.add.reduce(P, 1) / P.shape[1], np.add.reduce(Q, 1) / Q.shape[1]  # (the means, as P.mean(1))
    (ok, d, n, fP, fQ, x1, x2, base, Vp_all, d_lo, d_hi, zlo, zhi, zfull, Vz_all, rising, falling, k, live, kx0, kx1,
     lo_v, hi_v, zbot, free0, freew, can_pass, xa, xb) = chain_prepare(P, Q, cP, cQ, DP, DQ, zP, zQ, rb, verts, z0, z1,
                                                                      sealed, eta, widen, SLACK)
    # (a bundle's live rows are one run of the rows, sorted by bundle: each row array is
    # gathered once, each bundle takes its slice)
    runs = np.flatnonzero(live)
    bounds = np.searchsorted(runs, starts)
    at = bounds.tolist()
    plan = _plan_rows(lo_v[runs], hi_v[runs])
    free0, freew, zt, zbot, kx0, kx1, k, can_pass = (
        a[runs] for a in (free0, freew, z1, zbot, kx0, kx1, k, can_pass))
    inside = xa <= xb
    ins_lo, ins_hi = np.where(inside, xa, np.inf)[runs], np.where(inside, xb, -np.inf)[runs]
    first = starts.tolist()
    nv = [(~np.isnan(a[..., 0])).sum(1) for a in (Vp_all, Vz_all)]  # (vertices first)
    escaped, pts, gds, rel = chain_solve_each(ok, base, zfull, _HEIGHT_MASK, rising, falling, Vz_all, nv[1], bounds, plan, free0,
                                              ins_lo, ins_hi, kx0, kx1, zt, zbot, d_lo, d_hi, zlo, zhi, SLACK,
                                              MAX_NODES)
    nVp, nVz = (c.tolist() for c in nv)
    xP0, xQ1 = np.fmin.reduce(fP[..., 0], 1).tolist(), np.fmax.reduce(fQ[..., 0], 1).tolist()  # (NaN rows left out)
    fPs, fQs = _numbers(fP), _numbers(fQ)
    out: list[_Bundle | Chain | None] = []
    for b, (good, esc, up, down, dl, dh, zl, zh, xl, xr) in enumerate(zip(
            ok.tolist(), escaped.tolist(), rising.tolist(), falling.tolist(), d_lo.tolist(), d_hi.tolist(),
            zlo.tolist(), zhi.tolist(), x1.tolist(), x2.tolist())):
        if not good:
            out.append(None)
            continue
        g = slice(at[b], at[b + 1])
        if not esc:
            used = np.zeros(first[b + 1] - first[b], bool)
            used[runs[g][rel[g]] - first[b]] = True
            out.append(Chain(True, used))
            continue
        out.append(_Bundle(base[b], zfull[b, _HEIGHT_SEL[up, down]], Vp_all[b, :nVp[b]], Vz_all[b, :nVz[b]], cP[b],
                           d[b], n[b], dl, dh, zl, zh, runs[g] - first[b], plan[g], {0.0: free0[g], widen: freew[g]},
                           ins_lo[g], ins_hi[g], zt[g], zbot[g], kx0[g], kx1[g], first[b + 1] - first[b], k[g],
                           can_pass[g], xl, xr, fPs[b], fQs[b], zP[b:b + 1], zQ[b:b + 1], xP0[b], xQ1[b],
                           (pts[b], gds[b])))
    return out


@dataclass
class _Region:
    """A convex part of a bundle's (α, β) base region and what the escape search needs
    of it: its rows a·(α, β) <= c and vertices, the solids every line of it passes wholly
    above or below (per clearance), where every line of it is inside each solid (between
    ``ins_lo`` and ``ins_hi``), and the x-range within which its lines can cross each solid."""

    base: np.ndarray
    V: np.ndarray
    free: dict[float, np.ndarray]
    ins_lo: np.ndarray
    ins_hi: np.ndarray
    ka: np.ndarray
    kb: np.ndarray
    plan: np.ndarray  # per solid, the rows of "wholly above" and "wholly below" it (:func:`_plan_rows`)
    zbase: np.ndarray  # (γ, δ) rows: the heights of its segments, and their vertices
    Vz: np.ndarray
    xP0: float  # where its segments may start and end at the furthest
    xQ1: float
    parts: list[_Region] | None = None  # once cut (the widened test reuses them)
    blocked: bool = False  # the exact test proved every segment of it blocked


def _height_rows(x1: np.ndarray, x2: np.ndarray, xP0: np.ndarray, xQ1: np.ndarray, zP: np.ndarray, zQ: np.ndarray,
                 d_lo: np.ndarray, d_hi: np.ndarray) -> np.ndarray:
    """The (γ, δ) rows (B, 14, 3) of the heights z = γ + δx of segments from a point of
    P at an abscissa in [xP0, x1] and height in zP to a point of Q at an abscissa in
    [x2, xQ1] and height in zQ, with slope δ in [d_lo, d_hi] (:func:`_height_rows_of`
    per bundle): rows 6-7 hold only for rising segments (d_lo >= 0), rows 8-9 only for
    falling ones (d_hi <= 0)."""
    cols = (x1, x2, xP0, xQ1, zP[:, 0], zP[:, 1], zQ[:, 0], zQ[:, 1], d_lo, d_hi)
    return np.array([_height_rows_of(*v) for v in zip(*(c.tolist() for c in cols))]).reshape(-1, 14, 3)


def _height_rows_of(x1: float, x2: float, xP0: float, xQ1: float, zP0: float, zP1: float, zQ0: float, zQ1: float,
                    d_lo: float, d_hi: float) -> list[list[float]]:
    """:func:`_height_rows` of one bundle, with floats (a few dozen operations: numpy's
    per call overhead would be most of the work), value for value as numpy's elementwise
    operations: its minimum and maximum pass a NaN on; a height row's bound has ``SLACK``
    added, which also makes a zero of either sign the same."""
    up, down = _fmax(0.0, d_hi), _fmin(0.0, d_lo)  # how far z may rise / fall per unit of x
    wP, wQ = x1 - xP0, xQ1 - x2
    zlo, zhi = _fmin(zP0, zQ0), _fmax(zP1, zQ1)
    s = SLACK
    # z(x1) = z(p_x) + δ (x1 - p_x) with p_x in [xP0, x1]; z(x2) = z(q_x) - δ (q_x - x2)
    return [[0.0, 1.0, d_hi + s], [0.0, -1.0, -d_lo + s],
            [1.0, x1 + 0.0, zP1 + up * wP + s], [-1.0, -x1 + 0.0, -(zP0 + down * wP) + s],
            [1.0, x2 + 0.0, zQ1 - down * wQ + s], [-1.0, -x2 + 0.0, -(zQ0 - up * wQ) + s],
            # rising all along: z(xP0) <= z(p_x) <= zP1, z(xQ1) >= z(q_x) >= zQ0
            [1.0, xP0 + 0.0, zP1 + s], [-1.0, -xQ1 + 0.0, -zQ0 + s],
            # falling all along
            [-1.0, -xP0 + 0.0, -zP0 + s], [1.0, xQ1 + 0.0, zQ1 + s],
            # between its ends the segment stays between the lowest and the highest end height
            [1.0, x1 + 0.0, zhi + s], [-1.0, -x1 + 0.0, -zlo + s],
            [1.0, x2 + 0.0, zhi + s], [-1.0, -x2 + 0.0, -zlo + s]]


def _fmax(a: float, b: float) -> float:
    """np.maximum of two floats (a NaN wins)."""
    return a if a >= b or a != a else b


def _fmin(a: float, b: float) -> float:
    """np.minimum of two floats (a NaN wins)."""
    return a if a <= b or a != a else b


def _height_sel(rising: bool, falling: bool) -> list[int]:
    """The rows of :func:`_height_rows` that hold."""
    return [j for j in range(14) if (j < 6 or j >= 10 or (rising and j < 8) or (falling and j >= 8))]


def _numbers(f: np.ndarray) -> np.ndarray | list[np.ndarray]:
    """Each polygon ``f[b]`` (V, 2) without its NaN vertices."""
    nan = np.isnan(f[..., 0])
    if not nan.any():
        return f
    return [p[~n] if n.any() else p for p, n in zip(f, nan)]


_HEIGHT_SEL = {(r, f): np.array(_height_sel(r, f)) for r in (False, True) for f in (False, True)}
#: :func:`_height_sel` as a mask ``[rising, falling, row]`` (the compiled search's copy of it)
_HEIGHT_MASK = np.array([[[j in _height_sel(r, f) for j in range(14)] for f in (False, True)] for r in (False, True)])


def _solve_bundle(bd: _Bundle, widen: float, lazy: bool = False) -> Chain:
    """The search over escape choices for one prepared bundle (exact, then widened; with
    ``lazy`` the widened one only when :attr:`Chain.widened` is called). Where the search
    finds an escaping line that has no clear heights (a false escape of the relaxation,
    :func:`_false_escape_cut`), the region is cut in strips and each searched again with
    its own, tighter, plan–height ties (:func:`_parts`): the bundle is blocked when every
    strip is."""
    sr = _Search(bd, widen)
    root = _Region(bd.base, bd.Vp, bd.free, bd.ins_lo, bd.ins_hi, bd.ka, bd.kb, bd.plan, bd.zbase, bd.Vz,
                   bd.xP0, bd.xQ1)
    exact = sr.search(0.0, root, 0, bd.escape)
    if exact is None:
        return Chain(True, sr.used)
    a, b = float(exact[0]), float(exact[1])
    u = bd.d + b * bd.n
    line = (bd.cP + a * bd.n, u / float(np.hypot(*u)))

    def widened() -> Chain:
        sr.cuts = 0
        if widen > 0 and sr.search(widen, root, 0) is None:
            return Chain(True, sr.used, thin=True, line=line)
        return Chain(False, line=line)

    return Chain(False, line=line, widened=widened) if lazy and widen > 0 else widened()


class _Search:
    """:func:`_solve_bundle`'s search over one bundle's regions (a class, not nested
    functions: a recursive closure is a reference cycle, garbage only the collector frees)."""

    def __init__(self, bd: _Bundle, widen: float):
        self.bd, self.widen = bd, widen
        self.used = np.zeros(bd.R, bool)  # the solids a blocked region's proof used
        self.heights: np.ndarray | None = None  # the (γ, δ) of the last escape found
        self.cuts = 0  # strips searched

    def solve(self, wd: float, reg: _Region) -> np.ndarray | None:
        """An escaping (α, β) of ``reg`` keeping ``wd`` from every solid, or None when
        there is none (:func:`.kernels.chain_solve`)."""
        bd = self.bd
        found, pt, gd, rel = chain_solve(reg.base, reg.zbase, reg.Vz, reg.plan, reg.free[wd], reg.ins_lo, reg.ins_hi,
                                         reg.ka, reg.kb, bd.zt, bd.zb, bd.d_lo, bd.d_hi, bd.zlo, bd.zhi, wd, SLACK,
                                         MAX_NODES)
        if not found:
            self.used[bd.idx[rel]] = True
            self.heights = None
            return None
        return self.escaped(pt, gd)

    def escaped(self, pt: np.ndarray, gd: np.ndarray) -> np.ndarray:
        """The escape (α, β) = ``pt``, its heights ``gd`` = (γ, δ) kept (NaN: unknown)."""
        self.heights = None if isnan(gd[0]) else gd
        return pt

    def search(self, wd: float, reg: _Region, depth: int,
               known: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray | None:
        """:meth:`solve`, cutting ``reg`` in strips where its escape is a false one. A
        region whose segments the exact test proved blocked is thin too: the widened
        test skips it. ``known``: the escape :meth:`solve` would find, found already."""
        if reg.blocked:
            return None
        pt = self.solve(wd, reg) if known is None else self.escaped(*known)
        if pt is None:
            reg.blocked = wd == 0.0
            return None
        if depth >= SPLIT_DEPTH or self.cuts >= MAX_PARTS:
            return pt
        if reg.parts is None:
            x = _false_escape_cut(self.bd, reg, pt, wd, self.heights)
            if x is None:
                return pt
            reg.parts = _parts(self.bd, reg, self.widen, x, SPLIT_INTO)
        if reg.parts is None:
            return pt
        for h in reg.parts:
            self.cuts += not h.blocked
            found = self.search(wd, h, depth + 1)
            if found is not None:
                return found
        reg.blocked = wd == 0.0
        return None


def _parts(bd: _Bundle, reg: _Region, widen: float, xs: float, n: int) -> list[_Region] | None:
    """``reg`` cut into ``n`` strips by the height y = α + β·xs at which its lines pass
    the abscissa ``xs`` (neighbours overlap by the slack), each with its own free solids,
    crossing ranges, inside stretches and end abscissae (:func:`_regions`): the lines of
    a smaller region are inside a solid over a longer stretch and cross it and the
    patches within shorter ranges. None when a strip is numerically empty (then nothing
    is proven)."""
    V = reg.V
    y = V[:, 0] + V[:, 1] * xs
    lo, hi = float(y.min()), float(y.max())
    cuts = lo + (hi - lo) * np.arange(1, n) / n
    m = len(reg.base)
    A = np.empty((n, m + 2, 3))
    A[:, :m] = reg.base
    A[:, m:] = reg.base[0]  # (padding: a repeated row)
    A[1:, m, 0], A[1:, m, 1], A[1:, m, 2] = -1.0, -xs, -cuts + SLACK  # y(xs) >= cut below
    A[:-1, m + 1, 0], A[:-1, m + 1, 1], A[:-1, m + 1, 2] = 1.0, xs, cuts + SLACK  # y(xs) <= cut above
    Vs = vertices_each(A)  # (each strip's vertices first, then NaN)
    nv = (~np.isnan(Vs[..., 0])).sum(1)
    if not nv.all():
        return None
    rows = [A[0, list(range(m)) + [m + 1]]] + list(A[1:-1]) + [A[-1, :m + 1]]  # (no padding row)
    Vs = Vs[:, :nv.max()]
    V = np.where(np.isnan(Vs), Vs[:, :1], Vs)  # (padded by repetition)
    return _regions(bd, rows, [v[:c] for v, c in zip(V, nv.tolist())], V, reg, widen)


def _regions(bd: _Bundle, bases: list[np.ndarray], Vs: list[np.ndarray], V: np.ndarray, parent: _Region,
             widen: float) -> list[_Region]:
    """The :class:`_Region` of rows ``bases[g]`` (vertices ``Vs[g]``, and ``V[g]`` padded
    by repetition) inside ``parent``, for G regions in one compiled pass
    (:func:`.kernels.chain_regions`): the parent's facts still hold; each is tightened
    where the smaller region allows."""
    G, m = len(Vs), len(bd.k)
    lo_v, hi_v, f0, fw, ka, kb, ins_lo, ins_hi, p_lo, q_hi = chain_regions(
        bd.k, V, parent.free[0.0], parent.free[widen], bd.can_pass, parent.ka, parent.kb, parent.ins_lo, parent.ins_hi,
        bd.ends, bd.end_spans, bd.x1, bd.x2, widen, SLACK)
    plan = _plan_rows(lo_v.reshape(G, m, 3, 2), hi_v.reshape(G, m, 3, 2))  # (G, m, 2, 3, 3)
    heights = _regions_heights(bd, parent, p_lo, q_hi)
    return [_Region(bases[g], Vs[g], {0.0: f0[g], widen: fw[g]}, ins_lo[g], ins_hi[g], ka[g], kb[g], plan[g],
                    *heights[g]) for g in range(G)]


def _plan_rows(lo_v: np.ndarray, hi_v: np.ndarray) -> np.ndarray:
    """Per solid, from the vertices binding "above" ``lo_v`` and "below" ``hi_v`` (..., 3, 2),
    the rows (..., 2, 3, 3) of "wholly above" (α + β v_x <= v_y) and "wholly below" it,
    before the clearance wd is taken from their bounds."""
    out = np.empty(lo_v.shape[:-2] + (2, 3, 3))
    out[..., 0, :, 0] = 1.0
    out[..., 0, :, 1:] = lo_v
    out[..., 1, :, 0] = -1.0
    out[..., 1, :, 1:] = -hi_v
    return out


def _pad(k: np.ndarray, W: int) -> np.ndarray:
    """Polygons (m, w, 2) padded to W vertices by repeating the first."""
    if k.shape[1] >= W:
        return k
    return np.concatenate([k, np.repeat(k[:, :1], W - k.shape[1], 1)], 1)


def _regions_heights(bd: _Bundle, parent: _Region, xP0: np.ndarray, xQ1: np.ndarray
                     ) -> list[tuple[np.ndarray, np.ndarray, float, float]]:
    """Per region, the (γ, δ) rows of its segments, their vertices, and the abscissae
    bounding their ends, given the least abscissa ``xP0[g]`` of P and the greatest
    ``xQ1[g]`` of Q that its lines can meet (a segment's end lies on its line, in its
    patch): as the bundle's, with those ends. The ends only move inwards from the
    parent's, and each row with them tightens the parent's (the parent's are kept where
    a patch seems missed, numerically)."""
    same = parent.zbase, parent.Vz, parent.xP0, parent.xQ1
    ok = [isfinite(a) and isfinite(b) for a, b in zip(xP0.tolist(), xQ1.tolist())]
    p0 = [_fmin(_fmax(a if good else parent.xP0, parent.xP0), bd.x1) for a, good in zip(xP0.tolist(), ok)]
    q1 = [_fmax(_fmin(b if good else parent.xQ1, parent.xQ1), bd.x2) for b, good in zip(xQ1.tolist(), ok)]
    (zP0, zP1), (zQ0, zQ1) = bd.zP[0].tolist(), bd.zQ[0].tolist()
    rows = np.array([_height_rows_of(bd.x1, bd.x2, a, b, zP0, zP1, zQ0, zQ1, bd.d_lo, bd.d_hi)
                     for a, b in zip(p0, q1)])[:, _HEIGHT_SEL[bd.d_lo >= 0, bd.d_hi <= 0]]
    Vz = vertices_each(rows)
    nv = (~np.isnan(Vz[..., 0])).sum(1).tolist()  # (vertices first)
    return [(rows[g], Vz[g, :n], a, b) if good and n else same
            for g, (good, n, a, b) in enumerate(zip(ok, nv, p0, q1))]


def _within_disc(P: np.ndarray, D: np.ndarray) -> np.ndarray:
    """Per convex polygon ``P[i]`` (V, 2), a convex polygon holding its part inside the
    disc ``D[i]`` = (cx, cy, r): cut by the disc's tangent facing each vertex outside it
    (keep u·x <= u·c + r, u the unit direction to the vertex; a vertex inside keeps
    everything). (V + V, 2), padded by repetition."""
    return within_disc(P, D, _FAR)


def _heights_clear(st: np.ndarray, j: int, ops: list[list[np.ndarray]], nodes: list[int], max_nodes: int) -> bool:
    """Whether the height constraints ``st`` with one option of each of ``ops[j:]`` (over
    or under a crossed solid) leave a feasible point (:func:`_false_escape_cut`); past
    ``max_nodes`` choices tried (counted in ``nodes[0]``) it gives up and says yes."""
    if feasible_point(st) is None:
        return False
    if j == len(ops):
        return True
    nodes[0] += 1
    if nodes[0] > max_nodes:
        return True  # (gave up: take the escape as it is)
    return any(_heights_clear(np.concatenate([st, r]), j + 1, ops, nodes, max_nodes) for r in ops[j])


def _false_escape_cut(bd: _Bundle, reg: _Region, ab: np.ndarray, wd: float, gd: np.ndarray | None,
                      max_nodes: int = 64) -> float | None:
    """Where to cut ``reg`` after its search found the plan line ``ab`` = (α, β), with
    heights ``gd`` = (γ, δ) (None if unknown): None when the line seems to have heights
    in the region's height polygon passing over or under each solid it crosses over its
    whole chord (the escape may be a true one), else the end of the chord that the
    relaxation's heights miss the most: there the strips' inside stretches reach nearer
    the chord's ends. Only steers the search (a wrong answer costs time, never
    soundness)."""
    xe_, xf_ = chords(bd.k, ab[None])
    crossed = [c for c, x in enumerate(xe_[:, 0].tolist()) if isfinite(x)]
    if not crossed:
        return None
    xe, xf = xe_[crossed, 0].tolist(), xf_[crossed, 0].tolist()
    zt, zb = bd.zt.tolist(), bd.zb.tolist()
    top, bot = [zt[c] + wd for c in crossed], [zb[c] - wd for c in crossed]
    miss = None
    if gd is not None:  # by how much the relaxation's heights miss each chord
        g0, g1 = gd.tolist()
        ze, zf = [g0 + g1 * x for x in xe], [g0 + g1 * x for x in xf]
        miss = [_fmin(_fmax(t - e, t - f), _fmax(e - b, f - b)) for t, b, e, f in zip(top, bot, ze, zf)]
        if all(v <= 0 for v in miss):
            return None
    # heights for this line over every chord: over or under each crossed solid, its ends
    # on its chords of the two patches
    lo, hi = band_xrange(bd.ends, ab[None, None].repeat(2, 0), bd.end_spans)
    fixed = [_regions_heights(bd, reg, lo[:1], hi[1:])[0][0]]
    ops: list[list[np.ndarray]] = []
    for c in range(len(crossed)):
        o = []
        if top[c] < bd.zhi + 1e-9:
            o.append(np.array([[-1.0, -xe[c], -top[c]], [-1.0, -xf[c], -top[c]]]))
        if bot[c] > bd.zlo - 1e-9:
            o.append(np.array([[1.0, xe[c], bot[c]], [1.0, xf[c], bot[c]]]))
        if len(o) == 1:
            fixed.append(o[0])
        else:
            ops.append(o)
    if all(ops) and _heights_clear(np.concatenate(fixed), 0, ops, [0], max_nodes):
        return None
    if miss is None or gd is None:
        c = _argmax([b - a for a, b in zip(xe, xf)])
        return (xe[c] + xf[c]) / 2
    # where the relaxation's heights miss the most: the lower end of the chord when they
    # come nearer passing over, the higher when passing under
    c = _argmax(miss)
    e, f = g0 + g1 * xe[c], g0 + g1 * xf[c]
    if top[c] - min(e, f) <= max(e, f) - bot[c]:
        return xe[c] if e < f else xf[c]
    return xe[c] if e > f else xf[c]


def _argmax(values: list[float]) -> int:
    """np.argmax of floats: the first greatest, or the first NaN."""
    best = 0
    for i, v in enumerate(values):
        if v != v:
            return i
        if v > values[best]:
            best = i
    return best


def feasible_point(A: np.ndarray) -> np.ndarray | None:
    """A point (α, β) meeting every row a·(α, β) <= c (the rows bound a polygon): the mean
    of the feasible vertices, or None when there is none."""
    V = vertices(A)
    return np.add.reduce(V, 0) / len(V) if len(V) else None  # (V.mean(0))
