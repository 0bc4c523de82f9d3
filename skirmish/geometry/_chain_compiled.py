"""The numba bodies of the chain test's search (:mod:`.los_chain`, through :mod:`.kernels`):
the search over escape choices of a region and the tightening of its strips (imported
on first use, as :mod:`._compiled`)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ._compiled import DET_TOL, FEAS_TOL, _vertices_into

_jit = njit(cache=True, nogil=True)

#: A height escape is taken by every segment when it holds within this at every vertex
#: of the region's (γ, δ) polygon (each a·v summed from its two products, unfused).
HELD_TOL = 1e-12


@_jit
def _point(S: np.ndarray, n: int, buf: np.ndarray, out: np.ndarray) -> bool:
    """``los_chain.feasible_point`` of the rows ``S[:n]`` into ``out``: the mean of the
    vertices (summed in order, as numpy's reduce); False when there are none."""
    return _mean(buf, _vertices_into(S, 0, n, S[:0], 0, buf, False), out)


@_jit
def _mean(V: np.ndarray, k: int, out: np.ndarray) -> bool:
    """The mean of the points ``V[:k]`` into ``out`` (summed in order, as numpy's reduce);
    False when there are none."""
    if k == 0:
        return False
    sx, sy = V[0, 0], V[0, 1]
    for i in range(1, k):
        sx += V[i, 0]
        sy += V[i, 1]
    out[0] = sx / k
    out[1] = sy / k
    return True


@_jit
def _feasible_with(S: np.ndarray, n: int, V: np.ndarray, nv: int, rows: np.ndarray, lo: int, hi: int) -> bool:
    """Whether the rows ``S[:n]`` and ``rows[lo:hi]`` have a vertex (as ``_vertices_into``
    with ``first``), given the vertices ``V[:nv]`` of ``S[:n]``: one of those meeting the
    new rows, or a crossing of a new row with another row meeting every row (the same
    crossings, computed alike, checked alike)."""
    for a in range(nv):
        u, v = V[a, 0], V[a, 1]
        ok = True
        for k in range(lo, hi):
            if not u * rows[k, 0] + v * rows[k, 1] <= rows[k, 2] + FEAS_TOL:
                ok = False
                break
        if ok:
            return True
    for j in range(lo, hi):
        rj = rows[j]
        for i in range(n + j - lo):
            ri = S[i] if i < n else rows[lo + i - n]
            det = ri[0] * rj[1] - ri[1] * rj[0]
            if not abs(det) > DET_TOL:
                continue
            u = (ri[2] * rj[1] - ri[1] * rj[2]) / det
            v = (ri[0] * rj[2] - ri[2] * rj[0]) / det
            ok = True
            for k in range(n + hi - lo):
                rk = S[k] if k < n else rows[lo + k - n]
                if not u * rk[0] + v * rk[1] <= rk[2] + FEAS_TOL:
                    ok = False
                    break
            if ok:
                return True
    return False


@_jit
def _push(S: np.ndarray, n: int, rows: np.ndarray, lo: int, hi: int) -> int:
    """Append ``rows[lo:hi]`` to the system ``S[:n]``: its new length."""
    for r in range(lo, hi):
        S[n, 0], S[n, 1], S[n, 2] = rows[r, 0], rows[r, 1], rows[r, 2]
        n += 1
    return n


@_jit
def _options(plan: np.ndarray, free: np.ndarray, ins_lo: np.ndarray, ins_hi: np.ndarray, ka: np.ndarray,
             kb: np.ndarray, zt: np.ndarray, zb: np.ndarray, d_lo: float, d_hi: float, zlo: float, zhi: float,
             wd: float, slack: float):  # type: ignore[no-untyped-def]
    """The ways to escape each solid keeping ``wd`` (see ``los_chain._solve_bundle``): option
    e's rows are ``rows[first[e]:first[e + 1]]`` in space ``space[e]`` (0 plan, 1 heights);
    solid i's options are ``of[i, :nof[i]]`` (none for a free solid). Plan options 2i,
    2i + 1: wholly above or below solid i; then the height ones, over its top or under
    its base where every line is inside it, else at one end of its x-range."""
    m = free.shape[0]
    rows = np.empty((10 * m, 3))
    first = np.empty(6 * m + 1, np.int64)
    space = np.zeros(6 * m, np.int64)
    of = np.empty((m, 6), np.int64)
    nof = np.zeros(m, np.int64)
    for i in range(m):
        for s in range(2):
            e = 2 * i + s
            first[e] = 3 * e
            for r in range(3):
                rows[3 * e + r, 0] = plan[i, s, r, 0]
                rows[3 * e + r, 1] = plan[i, s, r, 1]
                c = plan[i, s, r, 2]
                if wd != 0.0:
                    c -= wd
                rows[3 * e + r, 2] = c + slack
    e, nr = 2 * m, 6 * m
    for i in range(m):
        if free[i]:
            continue
        of[i, 0], of[i, 1], nof[i] = 2 * i, 2 * i + 1, 2
        top, bot = -(zt[i] + wd) + slack, zb[i] - wd + slack
        over, under = zt[i] + wd < zhi + 1e-9, zb[i] - wd > zlo - 1e-9
        xa, xb = ins_lo[i], ins_hi[i]
        for k in range(4):  # (the blocks in the order of the numpy search)
            if xa <= xb:  # every line is inside the solid at xa and xb: over or under there
                if k >= 2 or not (over if k == 0 else under):
                    continue
                sg, c = (-1.0, top) if k == 0 else (1.0, bot)
                rows[nr, 0], rows[nr, 1], rows[nr, 2] = sg, sg * xa, c
                rows[nr + 1, 0], rows[nr + 1, 1], rows[nr + 1, 2] = sg, sg * xb, c
                n = 2
            else:  # at one end of the crossing range, by the way the segments slope
                far, up = k >= 2, k % 2 == 0
                x = kb[i] + wd if far else ka[i] - wd
                if up:
                    if not over or (far and d_hi < 0) or (not far and d_lo > 0):
                        continue
                    rows[nr, 0], rows[nr, 1], rows[nr, 2] = -1.0, -x, top
                else:
                    if not under or (far and d_lo > 0) or (not far and d_hi < 0):
                        continue
                    rows[nr, 0], rows[nr, 1], rows[nr, 2] = 1.0, x, bot
                n = 1
            first[e], space[e] = nr, 1
            of[i, nof[i]] = e
            nof[i] += 1
            e += 1
            nr += n
    first[e] = nr
    return rows, first, space, of, nof


@_jit
def _held(rows: np.ndarray, lo: int, hi: int, Vz: np.ndarray) -> bool:
    """Whether the rows ``rows[lo:hi]`` hold (within ``HELD_TOL``) at every vertex ``Vz``."""
    for r in range(lo, hi):
        for v in range(Vz.shape[0]):
            if not Vz[v, 0] * rows[r, 0] + Vz[v, 1] * rows[r, 1] <= rows[r, 2] + HELD_TOL:
                return False
    return True


@_jit
def _chain_solve(base: np.ndarray, zbase: np.ndarray, Vz: np.ndarray, plan: np.ndarray, free: np.ndarray,
                 ins_lo: np.ndarray, ins_hi: np.ndarray, ka: np.ndarray, kb: np.ndarray, zt: np.ndarray,
                 zb: np.ndarray, d_lo: float, d_hi: float, zlo: float, zhi: float, wd: float, slack: float,
                 max_nodes: int):  # type: ignore[no-untyped-def]
    """``los_chain._solve_bundle``'s ``solve`` on one region: (found, (α, β), (γ, δ) (NaN
    when unknown), the relevant solids). The forced choices are propagated first (every
    option of a round checked against the systems as the round began), then the choices
    left are searched depth first, each node's plan point the mean of its vertices."""
    m = free.shape[0]
    rows, first, space, of, nof = _options(plan, free, ins_lo, ins_hi, ka, kb, zt, zb, d_lo, d_hi, zlo, zhi, wd,
                                           slack)
    pt, gd = np.empty(2), np.full(2, np.nan)
    # a solid that every segment of the region escapes one way (a height escape holding
    # at every vertex of the (γ, δ) polygon) is irrelevant
    rel = np.zeros(m, np.bool_)
    opn = np.empty(m, np.int64)
    L = 0
    for i in range(m):
        if free[i]:
            continue
        held = False
        for q in range(2, nof[i]):
            e = of[i, q]
            if _held(rows, first[e], first[e + 1], Vz):
                held = True
                break
        if not held:
            rel[i] = True
            opn[L] = i
            L += 1
    n0, n1 = base.shape[0], zbase.shape[0]
    S0, S1 = np.empty((n0 + 3 * m, 3)), np.empty((n1 + 2 * m, 3))
    S0[:n0] = base
    S1[:n1] = zbase
    most = max(S0.shape[0], S1.shape[0])
    buf = np.empty((max(most * (most - 1) // 2, 1), 2))
    V0, V1 = np.empty_like(buf), np.empty_like(buf)
    feas = np.zeros(6 * m, np.bool_)
    fixes = np.empty(m, np.int64)
    changed = True
    nv0 = nv1 = -1  # the vertices V0[:nv0] of S0[:n0] and V1[:nv1] of S1[:n1] (-1: not known)
    while changed and L > 0:  # propagate the forced choices
        changed = False
        nv0 = _vertices_into(S0, 0, n0, S0[:0], 0, V0, False)
        nv1 = _vertices_into(S1, 0, n1, S1[:0], 0, V1, False)
        for q in range(L):
            i = opn[q]
            for c in range(nof[i]):
                e = of[i, c]
                if space[e] == 0:
                    feas[e] = _feasible_with(S0, n0, V0, nv0, rows, first[e], first[e + 1])
                else:
                    feas[e] = _feasible_with(S1, n1, V1, nv1, rows, first[e], first[e + 1])
        keep = nfix = 0
        for q in range(L):
            i = opn[q]
            k = 0
            for c in range(nof[i]):
                if feas[of[i, c]]:
                    of[i, k] = of[i, c]
                    k += 1
            if k == 0:
                return False, pt, gd, rel
            if k == 1:
                fixes[nfix] = of[i, 0]
                nfix += 1
            else:
                nof[i] = k
                opn[keep] = i
                keep += 1
        for f in range(nfix):
            e = fixes[f]
            if space[e] == 0:
                n0, nv0 = _push(S0, n0, rows, first[e], first[e + 1]), -1
            else:
                n1, nv1 = _push(S1, n1, rows, first[e], first[e + 1]), -1
            changed = True
        L = keep
    # depth first over the choices left: only the space a choice changed is checked again
    choice, save0, save1 = np.zeros(L + 1, np.int64), np.zeros(L + 1, np.int64), np.zeros(L + 1, np.int64)
    px, py = np.empty(L + 1), np.empty(L + 1)
    nodes = 0
    d = 0
    sp = -1  # the space the last choice changed (-1 at the root)
    while True:
        if sp == -1 and nv0 >= 0:  # (the root: the systems the propagation enumerated last)
            ok = _mean(V0, nv0, pt)
        elif sp != 1:
            ok = _point(S0, n0, buf, pt)
        else:
            ok = True
            pt[0], pt[1] = px[d - 1], py[d - 1]
        if ok and sp == -1 and nv1 >= 0:
            ok = _mean(V1, nv1, gd)
        elif ok and sp != 0:
            ok = _point(S1, n1, buf, gd)
        if ok:
            if d == L:
                if sp == 0:  # (the heights' system is the parent's, checked before: its point again)
                    _point(S1, n1, buf, gd)
                return True, pt, gd, rel
            nodes += 1
            if nodes > max_nodes:  # gave up: no proof, heights unknown
                gd[:] = np.nan
                return True, pt, gd, rel
            px[d], py[d] = pt[0], pt[1]
            choice[d], save0[d], save1[d] = 0, n0, n1
        else:
            d -= 1
        while d >= 0 and choice[d] == nof[opn[d]]:  # back to the first node with choices left
            d -= 1
        if d < 0:
            gd[:] = np.nan
            return False, pt, gd, rel
        n0, n1 = save0[d], save1[d]
        e = of[opn[d], choice[d]]
        choice[d] += 1
        sp = space[e]
        if sp == 0:
            n0 = _push(S0, n0, rows, first[e], first[e + 1])
        else:
            n1 = _push(S1, n1, rows, first[e], first[e + 1])
        d += 1
