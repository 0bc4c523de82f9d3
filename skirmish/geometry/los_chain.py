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
lines meet the two end discs. So a segment that escapes every solid tall enough to
block the whole bundle picks a side of each, and its (α, β) lies in the intersection:
a small 2D linear feasibility problem per choice of sides. When no choice is feasible,
every segment is blocked: a proof.

Every constraint used is implied by "the segment escapes" (only some vertices of K are
kept: fewer constraints give a larger feasible set), so the test may fail to prove a
blocked bundle, never the reverse; the search then splits the bundle as before.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Slack (inches) by which constraints are loosened: the test errs towards "not proven".
SLACK = 1e-10
#: Sides chosen per bundle before the test gives up (it then proves nothing).
MAX_NODES = 64


def clip_polygons(verts: np.ndarray, n: np.ndarray, c0: np.ndarray) -> np.ndarray:
    """Clip convex polygons (rows, V, 2; padded by repeating vertices) to n·x >= c0.
    Returns (rows, V + 1, 2); an empty result is all-NaN."""
    rows, V, _ = verts.shape
    side = np.einsum("rvj,rj->rv", verts, n) - c0[:, None]
    nxt = np.roll(verts, -1, axis=1)
    sn = np.roll(side, -1, axis=1)
    inside = side >= 0
    cross = (side >= 0) != (sn >= 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = side / (side - sn)
        hit = verts + (nxt - verts) * t[..., None]
    cand = np.stack([np.where(inside[..., None], verts, np.nan), np.where(cross[..., None], hit, np.nan)], 2)
    cand = cand.reshape(rows, 2 * V, 2)
    valid = ~np.isnan(cand[..., 0])
    order = np.argsort(~valid, axis=1, kind="stable")
    cand = np.take_along_axis(cand, order[..., None], axis=1)
    count = valid.sum(1)
    first = cand[:, :1, :]
    idx = np.arange(2 * V)[None, :]
    cand = np.where((idx < count[:, None])[..., None], cand, first)
    return cand[:, : V + 1]


@dataclass(frozen=True)
class Chain:
    """The chain test's answer. ``blocked``: every segment is blocked (``thin``: or lies
    within ``widen`` of a blocked one), with ``used`` the solids of the proof. Otherwise
    ``line`` may hold an escaping line (a plan point and unit direction) to try as a
    witness."""

    blocked: bool
    used: np.ndarray | None = None
    thin: bool = False
    line: tuple[np.ndarray, np.ndarray] | None = None


def chain_blocks(P: np.ndarray, Q: np.ndarray, DP: np.ndarray, DQ: np.ndarray, zP: np.ndarray, zQ: np.ndarray,
                 verts: np.ndarray, z0: np.ndarray, z1: np.ndarray, sealed: np.ndarray, eta: float,
                 widen: float = 0.0) -> Chain:
    """Whether every segment from patch ``P`` to patch ``Q`` (vertex arrays (V, 2); the
    ends also lie in the discs ``DP``/``DQ`` = (cx, cy, r)) is blocked by the candidate
    solids together. Per solid: ``verts`` (R, W, 2), a convex polygon inside its (grown)
    footprint, padded by repetition; ``z0``/``z1`` its blocking range, ``sealed``.
    ``zP``/``zQ``: the end height ranges.

    The exact test runs first; if it leaves an escaping line, that line is returned to be
    tried as a witness, and with ``widen`` > 0 the test runs again: ``widen`` counts a segment passing within ``widen`` of a solid as blocked:
    moving its ends by less than ``widen`` (a translation across it) makes it enter the
    solid. The proof then says "every segment lies within ``widen`` of a blocked one": how
    the search settles a set of clear sight lines thinner than that."""
    cP, cQ = P.mean(0), Q.mean(0)
    d = cQ - cP
    length = float(np.hypot(*d))
    if length < 1e-12:
        return Chain(False)
    d = d / length
    n = np.array([-d[1], d[0]])

    def frame(pts: np.ndarray) -> np.ndarray:
        v = pts - cP
        return np.stack([v @ d, v @ n], -1)

    fP, fQ = frame(P), frame(Q)
    x1, x2 = float(fP[:, 0].max()), float(fQ[:, 0].min())
    if not x2 - x1 > 1e-9 * length:
        return Chain(False)  # the segments are graphs over the slab only when P lies wholly before Q
    # where the segments cross the slab's two walls: between vertex pairs (monotone)
    px, py = fP[:, None, 0], fP[:, None, 1]
    qx, qy = fQ[None, :, 0], fQ[None, :, 1]
    y1 = py + (x1 - px) / (qx - px) * (qy - py)
    y2 = py + (x2 - px) / (qx - px) * (qy - py)
    rows = [np.array([1.0, x1, y1.max() + SLACK]), np.array([-1.0, -x1, -y1.min() + SLACK]),
            np.array([1.0, x2, y2.max() + SLACK]), np.array([-1.0, -x2, -y2.min() + SLACK])]
    span = x2 - x1
    b_lo, b_hi = (y2.min() - y1.max()) / span, (y2.max() - y1.min()) / span
    # the line meets both end discs: |c_y - α - β c_x| <= r·sqrt(1 + β²)
    f = float(np.sqrt(1.0 + max(b_lo * b_lo, b_hi * b_hi)))
    for D in (DP, DQ):
        c = frame(D[None, :2])[0]
        rf = D[2] * f + SLACK
        rows += [np.array([1.0, c[0], c[1] + rf]), np.array([-1.0, -c[0], -c[1] + rf])]
    base = np.array(rows)
    if _feasible(base) is None:
        return Chain(False)  # (numerically empty: leave it to the search)
    # the solids, clipped to the slab
    R = len(z0)
    fv = frame(verts.reshape(-1, 2)).reshape(verts.shape)
    ex = np.tile([1.0, 0.0], (R, 1))
    k = clip_polygons(fv, ex, np.full(R, x1))
    k = clip_polygons(k, -ex, np.full(R, -x2))
    live = ~np.isnan(k[:, 0, 0])
    kx0 = np.where(live, np.min(np.where(live[:, None], k[..., 0], 0.0), 1), 0.0)
    kx1 = np.where(live, np.max(np.where(live[:, None], k[..., 0], 0.0), 1), 0.0)
    # the segment parameter where a segment crosses the solid's x-range
    xP0, xQ1 = float(fP[:, 0].min()), float(fQ[:, 0].max())
    with np.errstate(invalid="ignore", divide="ignore"):
        tlo = (kx0 - x1) / (xQ1 - x1)
        thi = (kx1 - xP0) / (x2 - xP0)
    if widen > 0:
        dt = 2.0 * widen / span
        tlo, thi = tlo - dt, thi + dt
    tlo, thi = np.clip(tlo, 0.0, 1.0), np.clip(thi, 0.0, 1.0)

    def top(t: np.ndarray) -> np.ndarray:
        return (1 - t) * zP[1] + t * zQ[1]

    def bot(t: np.ndarray) -> np.ndarray:
        return (1 - t) * zP[0] + t * zQ[0]

    need = z0 + np.where(sealed, 0.0, eta)
    tall = live & (np.maximum(top(tlo), top(thi)) < z1) & (np.minimum(bot(tlo), bot(thi)) >= need)
    idx = np.flatnonzero(tall)
    # per solid, the vertices binding "K above the line" (min of v_y - β v_x) and "below"
    # (max) for β across its range; a subset of the vertices is still implied
    betas = np.array([b_lo, (b_lo + b_hi) / 2, b_hi])
    kv = k[idx]  # (m, W, 2)
    val = kv[:, None, :, 1] - betas[None, :, None] * kv[:, None, :, 0]  # (m, 3, W)
    lo_v = np.take_along_axis(kv, val.argmin(2)[..., None], 1)  # (m, 3, 2)
    hi_v = np.take_along_axis(kv, val.argmax(2)[..., None], 1)
    used = np.zeros(R, bool)
    used[idx] = True

    def solve(wd: float) -> np.ndarray | None:
        """An escaping (α, β) keeping ``wd`` from every solid, or None when there is none."""
        # above: α + β v_x <= v_y - wd ; below: -α - β v_x <= -v_y - wd  (loosened by SLACK)
        above = np.concatenate([np.ones((len(idx), 3, 1)), lo_v[..., 0:1], lo_v[..., 1:2] - wd + SLACK], -1)
        below = np.concatenate([-np.ones((len(idx), 3, 1)), -hi_v[..., 0:1], -hi_v[..., 1:2] - wd + SLACK], -1)
        sides = [(above[i], below[i]) for i in range(len(idx))]
        fixed = base
        open_ = list(range(len(idx)))
        changed = True
        while changed and open_:  # propagate the forced sides
            changed = False
            keep = []
            for i in open_:
                ok_a = _feasible(np.vstack([fixed, sides[i][0]])) is not None
                ok_b = _feasible(np.vstack([fixed, sides[i][1]])) is not None
                if not ok_a and not ok_b:
                    return None
                if ok_a and ok_b:
                    keep.append(i)
                else:
                    fixed = np.vstack([fixed, sides[i][0] if ok_a else sides[i][1]])
                    changed = True
            open_ = keep
        nodes = [0]

        def escape(A: np.ndarray, depth: int) -> np.ndarray | None:
            pt = _feasible(A)
            if pt is None or depth == len(open_):
                return pt
            nodes[0] += 1
            if nodes[0] > MAX_NODES:
                return pt  # gave up: no proof
            for side in sides[open_[depth]]:
                found = escape(np.vstack([A, side]), depth + 1)
                if found is not None:
                    return found
            return None

        return escape(fixed, 0)

    def plan_line(ab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        a, b = float(ab[0]), float(ab[1])
        u = d + b * n
        return cP + a * n, u / float(np.hypot(*u))

    exact = solve(0.0)
    if exact is None:
        return Chain(True, used)
    line = plan_line(exact)
    if widen > 0 and solve(widen) is None:
        return Chain(True, used, thin=True, line=line)
    return Chain(False, line=line)


def _feasible(A: np.ndarray) -> np.ndarray | None:
    """A point (α, β) meeting every row a·(α, β) <= c (the rows bound a polygon): the mean
    of the feasible vertices, or None when there is none."""
    i, j = np.triu_indices(len(A), 1)
    det = A[i, 0] * A[j, 1] - A[i, 1] * A[j, 0]
    good = np.abs(det) > 1e-14
    i, j, det = i[good], j[good], det[good]
    u = (A[i, 2] * A[j, 1] - A[i, 1] * A[j, 2]) / det
    v = (A[i, 0] * A[j, 2] - A[i, 2] * A[j, 0]) / det
    ok = np.all(A[:, 0][None, :] * u[:, None] + A[:, 1][None, :] * v[:, None] <= A[:, 2][None, :] + 1e-9, 1)
    if not ok.any():
        return None
    return np.array([u[ok].mean(), v[ok].mean()])
